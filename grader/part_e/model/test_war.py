"""Part E, the instructor's own answer: a thorough suite for the four scenarios (it catches every chaff).

`war-grader check` grades the reference with this file as its tests (so the reference scores full marks in
"Your tests (Part E)"), and the corpus's `tests_thorough` submission carries a copy of it. It imports the
package as a student's tests do.
"""

from starter import Queue, Rules, Stack, card_value, deal, make_deck, play_game, play_round, resolve_war


def queue_of(cards):
    """A Queue holding the cards, front first."""
    queue = Queue()
    for card in cards.split():
        queue.enqueue(card)
    return queue


def contents(queue):
    """The queue's cards, front first (empties the queue)."""
    cards = []
    while not queue.is_empty():
        cards.append(queue.dequeue())
    return " ".join(cards)


def battle(p1_cards, p2_cards, rules=Rules()):
    """One round from the given queues, and the war if it ties: (result, P1 after, P2 after)."""
    p1, p2 = queue_of(p1_cards), queue_of(p2_cards)
    result = play_round(p1, p2, rules)
    if isinstance(result, tuple):
        result = resolve_war(p1, p2, result[1], result[2], rules)
    return result, contents(p1), contents(p2)


def interleave(p1_cards, p2_cards):
    """The deck that deals these two hands (P1 first, alternating)."""
    deck = []
    for a, b in zip(p1_cards.split(), p2_cards.split()):
        deck += [a, b]
    return deck


# -- the structures the game is built on --------------------------------------------------------------

def test_a_queue_is_first_in_first_out():
    """Cards leave a Queue in the order they came in."""
    assert contents(queue_of("1 2 3")) == "1 2 3"


def test_a_stack_is_last_in_first_out():
    """A Stack gives back the card pushed last, for peek and pop."""
    stack = Stack()
    for card in ("1", "2", "3"):
        stack.push(card)
    assert stack.peek() == "3"
    assert [stack.pop(), stack.pop(), stack.pop()] == ["3", "2", "1"]


# -- scenario 1: Joker dominance with mini-decks ---------------------------------------------------------

def test_a_joker_beats_a_king():
    """Jo against K: P1's Joker wins, own card first."""
    assert battle("Jo", "K") == ("P1", "Jo K", "")


def test_a_joker_beats_a_queen_and_a_jack():
    """Jokers are not ordered as text: Jo beats Q and J."""
    assert battle("Q", "Jo") == ("P2", "", "Jo Q")
    assert battle("Jo", "J") == ("P1", "Jo J", "")


def test_card_order_ace_low_ten_above_nine():
    """The Ace ("1") is the lowest rank; "10" beats "9" and "2"."""
    assert card_value("1") < card_value("2") < card_value("9") < card_value("10") < card_value("K")
    assert battle("1", "K") == ("P2", "", "K 1")
    assert battle("10", "2") == ("P1", "10 2", "")


def test_the_winner_of_a_round_puts_its_own_card_first():
    """K 2 against 3 4: P1 ends with 2 K 3."""
    assert battle("K 2", "3 4") == ("P1", "2 K 3", "4")


# -- scenario 2: a forced war and its collection order -----------------------------------------------------

def test_a_forced_war_is_collected_own_pile_first_top_first():
    """The handout's forced war: P1 collects K 4 3 2 7, then Q 8 6 5 7."""
    assert battle("7 2 3 4 K 9", "7 5 6 8 Q 10") == ("P1", "9 K 4 3 2 7 Q 8 6 5 7", "10")


def test_a_war_that_ties_again_keeps_both_cycles_on_the_same_piles():
    """Two cycles: P1 collects all eighteen cards of both piles."""
    assert battle("7 2 3 4 9 5 6 8 K J", "7 1 10 J 9 1 2 3 Q 4") == (
        "P1", "J K 8 6 5 9 4 3 2 7 Q 3 2 1 9 J 10 1 7", "4")


# -- scenario 3: exhaustion during a war -------------------------------------------------------------------

def test_a_player_with_three_cards_left_loses_the_war_and_all_its_cards():
    """After the kings P1 holds 3 cards: P2 wins and takes everything."""
    assert battle("K 2 3 Jo", "K 5 6 8 Q 10") == ("P2", "", "5 6 8 Q 10 K K 2 3 Jo")


def test_both_players_short_is_a_draw_and_each_takes_its_own_pile_back():
    """Both short after a tied cycle: a draw, each pops its own pile onto its own queue."""
    assert battle("7 2 3 4 9 5", "7 6 8 10 9 J") == ("draw", "5 9 4 3 2 7", "J 9 10 8 6 7")


# -- scenario 4: a full 54-card game -----------------------------------------------------------------------

def test_the_deck_has_54_cards_with_two_jokers():
    """make_deck: four of each rank, then the two Jokers."""
    deck = make_deck()
    assert len(deck) == 54 and deck.count("Jo") == 2 and deck[:5] == ["1", "1", "1", "1", "2"]


def test_dealing_alternates_starting_with_p1():
    """deal gives the 1st, 3rd, ... cards to P1."""
    p1, p2 = deal(["1", "2", "3", "4", "5"])
    assert (contents(p1), contents(p2)) == ("1 3 5", "2 4")


def test_a_full_seeded_game_keeps_all_54_cards():
    """A seeded 54-card game: every round keeps 54 cards, one history entry per round."""
    result = play_game(seed=7)
    assert result.p1_cards + result.p2_cards == 54
    assert len(result.history) == result.rounds <= 1000
    assert all(a + b == 54 for a, b in result.history)
    assert result.winner in ("P1", "P2", "draw")


def test_the_round_limit_is_exact():
    """max_rounds=5 plays exactly 5 rounds of a longer game."""
    assert play_game(seed=7, max_rounds=5).rounds == 5


def test_a_game_p1_wins_in_one_round():
    """Deck K 2: P1 takes P2's only card and wins."""
    result = play_game(deck=["K", "2"])
    assert (result.winner, result.rounds, result.p1_cards, result.p2_cards) == ("P1", 1, 2, 0)


def test_a_drawn_war_ends_the_game_as_a_draw():
    """The both-short war as a whole game: a draw after one round, with one war of one cycle."""
    result = play_game(deck=interleave("7 2 3 4 9 5", "7 6 8 10 9 J"))
    assert (result.winner, result.rounds, result.wars, result.longest_war_chain) == ("draw", 1, 1, 2)
    assert result.history == ((6, 6),)
