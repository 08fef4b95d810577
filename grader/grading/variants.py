"""Rule variants of a war and a round: what the reference would do under another rule, to name the rule a
student's code plays and to prove that one rule alone accounts for a failure.

Each variant changes one rule of the handout and nothing else. The handout's own rules (no option changed)
give exactly the reference's answers (tests/grading/test_war_variants.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reference import JOKER, RANKS, card_value

from ..sandbox.worker import CALL_SEED
from .harness import RoundOutcome

_VALUES = {card: card_value(card) for card in (*RANKS, JOKER)}


def _value(card: str, *, ace_high: bool = False, joker_as_text: bool = False, ten_as_text: bool = False,
           joker_as_jack: bool = False) -> float:
    """A card's strength under the variant: the Joker ranked as text (between J and Q) or read as a Jack (its
    first letter: equal to J), "10" as text (between "1" and "2") or the Ace above the King; the handout's value
    otherwise (0 for what is not a card)."""
    if joker_as_text and card == JOKER:
        return 11.5
    if joker_as_jack and card == JOKER:
        return _VALUES["J"]
    if ten_as_text and card == "10":
        return 1.5
    return 13.5 if ace_high and card == "1" else _VALUES.get(card, 0)


@dataclass(frozen=True)
class Variant:
    """One rule changed: its key (recorded in results.json), its options and the sentence that names it."""

    key: str
    options: dict[str, Any]
    sentence: str


def war(p1: list[str], p2: list[str], c1: str, c2: str, **options: Any) -> RoundOutcome:
    """resolve_war as the handout plays it, but with one rule changed (war_chain's options)."""
    return war_chain(p1, p2, c1, c2, **options)[0]


def war_chain(p1: list[str], p2: list[str], c1: str, c2: str, *, face_down: int = 3, collect: str = "winner_first",
              new_piles: bool = False, from_back: bool = False, short_takes: str = "all",
              shuffle_from: str = "winner_first", bottom_first: bool = False,
              both_short: str = "draw", needs_more: bool = False,
              short_fights: bool = False) -> tuple[RoundOutcome, int]:
    """resolve_war as the handout plays it, but with face_down cards down; collect "winner_first",
    "loser_first", "played" or "shuffled" (the pick-up shuffled by random.shuffle, seeded as the worker seeds
    every call: what `random.shuffle(pot)` gives in a student's resolve_war; shuffle_from: the order it starts
    from); new_piles: a tie again starts empty piles (earlier cycles' cards are lost); from_back: the face-down
    cards are the last ones of the hand (the face-up card still its front); short_takes: what the winner of a
    war a player is short for takes: "all" (both piles and the short player's queue, the handout), "piles"
    (the short player keeps its queue), "queue" (the piles go to nobody), "nothing" (no card moves: the piles
    go to nobody and the short player keeps its queue); bottom_first: each pile taken from its bottom (the tied
    card first); both_short: "draw" (the handout) or "P1" (P1 takes both piles and P2's queue); needs_more: a
    player is short with exactly face_down + 1 cards (the availability check off by one); short_fights: a short
    player who still holds a card fights with what it has (all but its last card down, its last card up), and
    only a player with no card left loses. Also the war's chain: 1, plus 1 for every face-up tie."""
    q1, q2 = list(p1), list(p2)
    pile1, pile2 = [c1], [c2]
    played = [c1, c2]
    chain = 1

    def gather(winner: list[str], own: list[str], other: list[str]) -> None:
        if collect == "played":
            winner.extend(played)
        elif collect == "shuffled":  # the pick-up order, shuffled as random.shuffle does in a worker's call
            pot = [*reversed(other), *reversed(own)] if shuffle_from == "loser_first" else [*reversed(own),
                                                                                           *reversed(other)]
            random.Random(CALL_SEED).shuffle(pot)
            winner.extend(pot)
        else:
            for pile in ((other, own) if collect == "loser_first" else (own, other)):
                winner.extend(pile if bottom_first else reversed(pile))
        own.clear()
        other.clear()

    needed = face_down + 2 if needs_more else 1 if short_fights else face_down + 1
    while True:
        short1, short2 = len(q1) < needed, len(q2) < needed
        if short1 or short2:
            return _short(q1, q2, pile1, pile2, (short1, short2), both_short, short_takes, gather), chain
        _lay(q1, q2, pile1, pile2, played, face_down, from_back=from_back, short_fights=short_fights)
        v1, v2 = _VALUES.get(pile1[-1], 0), _VALUES.get(pile2[-1], 0)
        if v1 != v2:
            winner, own, other, name = (q1, pile1, pile2, "P1") if v1 > v2 else (q2, pile2, pile1, "P2")
            gather(winner, own, other)
            return RoundOutcome(name, q1, q2), chain
        chain += 1
        if new_piles:
            pile1, pile2, played = [], [], []


def _short(q1: list[str], q2: list[str], pile1: list[str], pile2: list[str], short: tuple[bool, bool],
           both_short: str, short_takes: str, gather: Callable[[list[str], list[str], list[str]], None]) -> RoundOutcome:
    """The war's end when one player, or both (short), holds too few cards to go on, as war_chain's options say."""
    short1, short2 = short
    if short1 and short2 and both_short == "P1":
        gather(q1, pile1, pile2)
        q1.extend(q2)
        q2.clear()
        return RoundOutcome("P1", q1, q2)
    if short1 and short2:
        q1.extend(reversed(pile1))
        q2.extend(reversed(pile2))
        return RoundOutcome("draw", q1, q2)
    winner, loser, own, other, name = (q2, q1, pile2, pile1, "P2") if short1 else (q1, q2, pile1, pile2, "P1")
    if short_takes in ("all", "piles"):
        gather(winner, own, other)
    if short_takes in ("all", "queue"):
        winner.extend(loser)
        loser.clear()
    return RoundOutcome(name, q1, q2)


def _lay(q1: list[str], q2: list[str], pile1: list[str], pile2: list[str], played: list[str], face_down: int, *,
         from_back: bool, short_fights: bool) -> None:
    """One war cycle's cards onto the piles (and into played): face_down down and one up from each hand, as
    war_chain's options say."""
    if short_fights and (len(q1) < face_down + 1 or len(q2) < face_down + 1):
        for queue, pile in ((q1, pile1), (q2, pile2)):
            for _ in range(min(face_down, len(queue) - 1) + 1):
                pile.append(queue.pop(0))
                played.append(pile[-1])
    elif from_back:  # the face-down cards are the last face_down of the hand, front to back; the face-up the front
        down1, down2 = q1[len(q1) - face_down:], q2[len(q2) - face_down:]
        del q1[len(q1) - face_down:], q2[len(q2) - face_down:]
        for card1, card2 in zip(down1, down2):
            pile1.append(card1)
            pile2.append(card2)
            played.extend((card1, card2))
        pile1.append(q1.pop(0))
        pile2.append(q2.pop(0))
        played.extend((pile1[-1], pile2[-1]))
    else:
        for _ in range(face_down + 1):
            pile1.append(q1.pop(0))
            pile2.append(q2.pop(0))
            played.extend((pile1[-1], pile2[-1]))


def face_down_offset(offset: int, options: dict[str, Any] | None = None) -> Variant:
    """The war whose face-down count is Rules(face_down=...)'s plus offset (a loop over range(rules.face_down - 1),
    say): under every Rules the same key and sentence, so a category can name it when tests use several Rules."""
    count = abs(offset)
    return Variant(f"face_down_offset={offset:+d}", options or {},
                   f"Your resolve_war plays {count} card{'s' * (count != 1)} {'fewer' if offset < 0 else 'more'} face "
                   f"down per war cycle than Rules(face_down=...) says; the handout says exactly face_down cards "
                   f"(3 by default).")


def sentence_of(key: str) -> str:
    """The sentence of a variant whose sentence its key alone gives (a face-down offset); "" for any other key."""
    family, _, value = key.partition("=")
    if family == "face_down_offset" and value[1:].isdigit() and value[:1] in "+-":
        return face_down_offset(int(value)).sentence
    return ""


def war_variants(rules: dict[str, Any] | None) -> list[Variant]:
    """Every variant of the war the test plays under rules (face_down and collect as Rules gives them)."""
    base = dict(face_down=(rules or {}).get("face_down", 3), collect=(rules or {}).get("collect", "winner_first"))
    said = base["face_down"]
    found = []
    for count in range(0, 6):
        if count != said:
            found.append(Variant(f"face_down={count}", dict(base, face_down=count),
                                 f"Your resolve_war plays {count} card{'s' * (count != 1)} face down per war cycle; "
                                 f"the handout says {said}."))
    for offset in range(-said, 6 - said):  # the same count relative to what Rules asks: face_down - 1, + 1, ...
        if offset:
            found.append(face_down_offset(offset, dict(base, face_down=said + offset)))
    other = "loser_first" if base["collect"] == "winner_first" else "winner_first"
    found.append(Variant(f"collect={other}", dict(base, collect=other),
                         "Your resolve_war's winner collects the opponent's war pile first; the handout says its own "
                         "pile first." if other == "loser_first" else
                         "Your resolve_war's winner collects its own war pile first; Rules(collect=\"loser_first\") "
                         "says the opponent's first."))
    found.append(Variant("collect=played", dict(base, collect="played"),
                         "Your resolve_war's winner takes the cards in the order they were played; the handout says "
                         "each pile popped from the top, its own pile first."))
    for start in (base["collect"], other):  # once shuffled, which pile the pick-up started from is no rule
        found.append(Variant("collect=shuffled", dict(base, collect="shuffled", shuffle_from=start),
                             "Your resolve_war's winner shuffles the cards it wins before putting them at the back "
                             "of its queue; the handout says its own pile first, each pile popped from the top."))
    found.append(Variant("bottom_first", dict(base, bottom_first=True),
                         "Your resolve_war's winner takes each war pile from the bottom (the tied card first); the "
                         "handout says each pile is popped from the top (the face-up card first)."))
    found.append(Variant("both_short_p1_wins", dict(base, both_short="P1"),
                         "Your resolve_war lets P1 win a war both players are too short for; the handout says that "
                         "is a draw, each player taking its own pile back."))
    found.append(Variant("new_piles", dict(base, new_piles=True),
                         "Your resolve_war starts new piles when the face-up cards tie again, so the cards of the "
                         "earlier cycles are lost; the handout says the war goes on on top of the same piles."))
    found.append(Variant("from_back", dict(base, from_back=True),
                         "Your resolve_war takes the face-down cards from the back of each player's queue; the "
                         "handout says from the front."))
    found.append(Variant("short_keeps_queue", dict(base, short_takes="piles"),
                         "Your resolve_war lets a player too short for a war keep the cards left in its queue; the "
                         "handout says the winner takes them too."))
    found.append(Variant("short_pot_lost", dict(base, short_takes="queue"),
                         "Your resolve_war gives the war piles to nobody when a player is too short for a war; the "
                         "handout says the winner takes both piles and the short player's cards."))
    found.append(Variant("short_with_enough", dict(base, needs_more=True),
                         f"Your resolve_war treats a player with exactly {said + 1} cards as too short for a war; the "
                         f"handout says {said + 1} cards ({said} down, 1 up) are enough to fight it."))
    found.append(Variant("short_fights", dict(base, short_fights=True),
                         "Your resolve_war lets a player too short for a war fight it with the cards it has; the "
                         "handout says that player loses the war, and the other takes both piles and its cards."))
    found.append(Variant("short_nothing_moves", dict(base, short_takes="nothing"),
                         "Your resolve_war moves no card when a player is too short for a war (the piles go to "
                         "nobody, the short player keeps its queue); the handout says the winner takes both piles "
                         "and the short player's cards."))
    return found


def round_outcome(p1: list[str], p2: list[str], *, ace_high: bool = False, loser_first: bool = False,
                  joker_as_text: bool = False, ten_as_text: bool = False, joker_as_jack: bool = False) -> RoundOutcome:
    """play_round as the handout plays it, but with the Ace above the King (below the Joker), the winner
    enqueuing the loser's card before its own, or the Joker ranked as text (between J and Q) or read as a Jack."""
    q1, q2 = list(p1), list(p2)
    if not q1 or not q2:
        return RoundOutcome("draw" if not q1 and not q2 else "P2" if not q1 else "P1", q1, q2)
    c1, c2 = q1.pop(0), q2.pop(0)
    v1, v2 = (_value(card, ace_high=ace_high, joker_as_text=joker_as_text, ten_as_text=ten_as_text,
                     joker_as_jack=joker_as_jack) for card in (c1, c2))
    if v1 == v2:
        return RoundOutcome(("war", c1, c2), q1, q2)
    winner, name, first, second = (q1, "P1", c1, c2) if v1 > v2 else (q2, "P2", c2, c1)
    winner.extend((second, first) if loser_first else (first, second))
    return RoundOutcome(name, q1, q2)


ACE_HIGH = Variant("ace_high", {"ace_high": True}, "Your code ranks the Ace (\"1\") above the King; the handout says "
                                                   "the Ace is the lowest rank.")
"""The Ace played as the highest rank (below the Joker)."""

JOKER_AS_TEXT = Variant("joker_as_text", {"joker_as_text": True},
                        "Your code orders the Joker as text: \"Jo\" sorts between J and Q, so it loses to Q and K; "
                        "the handout says the Joker beats every rank.")
"""The Joker ranked where its name sorts (the chaff jokers_compared_as_text)."""

JOKER_AS_JACK = Variant("joker_as_jack", {"joker_as_jack": True},
                        "Your code reads the Joker as a Jack: \"Jo\" is worth what \"J\" is, so it ties J (a war) "
                        "and loses to Q and K; the handout says the Joker beats every rank.")
"""The Joker valued as the Jack, as code that looks a card up by its first letter does."""

TEN_AS_TEXT = Variant("ten_as_text", {"ten_as_text": True},
                      "Your code orders the number ranks as text, so \"10\" sorts between \"1\" and \"2\" and "
                      "loses to \"2\" through \"9\"; the handout says 1 < 2 < ... < 9 < 10.")
"""The number ranks ordered as their names sort (the chaff ten_sorted_as_text)."""

NO_JOKERS = Variant("no_jokers", {}, "Your code has no Joker: card_value(\"Jo\") raises an error; the handout's deck "
                                     "has two Jokers, \"Jo\", that beat every rank.")
"""A game without Jokers: every rank has its value, "Jo" none."""


def value_order(*, ace_high: bool = False, joker_as_text: bool = False, ten_as_text: bool = False) -> list[str]:
    """The cards weakest first under the variant (the handout's with no option)."""
    return sorted(_VALUES, key=lambda card: _value(card, ace_high=ace_high, joker_as_text=joker_as_text,
                                                     ten_as_text=ten_as_text))


def value_variants(cards: list[str], answers: list[dict[str, Any]]) -> list[Variant]:
    """The variants whose card order card_value's answers are (whole numbers ordering the cards exactly as the
    variant does; for no Jokers, every rank a whole number and "Jo" raising; for the Joker read as a Jack, "Jo"
    worth exactly what "J" is and the ranks in the handout's order)."""
    values = [answer.get("value") if type(answer) is dict else None for answer in answers]
    raised = [type(answer) is dict and "raised" in answer for answer in answers]
    if "Jo" in cards and len(cards) == len(answers):
        at = cards.index("Jo")
        if raised[at] and all(type(value) is int for index, value in enumerate(values) if index != at) and \
                len({values[i] for i in range(len(cards)) if i != at}) == len(cards) - 1:
            return [NO_JOKERS]
    if "Jo" in cards and "J" in cards and len(values) == len(cards) and all(type(value) is int for value in values):
        at, jack = cards.index("Jo"), cards.index("J")
        rest = [(value, card) for index, (value, card) in enumerate(zip(values, cards)) if index != at]
        if values[at] == values[jack] and len({value for value, _ in rest}) == len(rest) and \
                [card for _, card in sorted(rest)] == [card for card in value_order() if card in cards
                                                       and card != "Jo"]:
            return [JOKER_AS_JACK]
    if len(values) != len(cards) or not all(type(value) is int for value in values) or len(set(values)) != len(values):
        return []
    order = [card for _, card in sorted(zip(values, cards))]
    return [variant for variant in (ACE_HIGH, JOKER_AS_TEXT, TEN_AS_TEXT)
            if order == [card for card in value_order(**variant.options) if card in cards]]


ROUND_VARIANTS = (
    ACE_HIGH,
    Variant("loser_card_first", {"loser_first": True}, "Your play_round's winner puts the opponent's card at the "
                                                       "back of its queue before its own; the handout says its own "
                                                       "card first."),
    JOKER_AS_TEXT,
    JOKER_AS_JACK,
    TEN_AS_TEXT,
)
"""The variants of a single round."""


def game(deck: list[str], max_rounds: int, **options: Any) -> dict[str, Any]:
    """The whole game play_game plays on this deck (dealt alternately, P1 first) with the war of one variant
    (war_chain's options): every field of its GameResult, as the reference's play_game counts them."""
    q1, q2 = list(deck[0::2]), list(deck[1::2])
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    drawn = False
    while q1 and q2 and rounds < max_rounds:
        rounds += 1
        outcome = round_outcome(q1, q2)
        q1, q2 = outcome.p1, outcome.p2
        if type(outcome.result) is tuple:
            wars += 1
            fought, chain = war_chain(q1, q2, outcome.result[1], outcome.result[2], **options)
            q1, q2 = fought.p1, fought.p2
            longest = max(longest, chain)
            drawn = fought.result == "draw"
        history.append((len(q1), len(q2)))
        if drawn:
            break
    winner = "P1" if not drawn and q1 and not q2 else "P2" if not drawn and q2 and not q1 else "draw"
    return {"winner": winner, "rounds": rounds, "wars": wars, "longest_war_chain": longest, "p1_cards": len(q1),
            "p2_cards": len(q2), "history": tuple(history)}
