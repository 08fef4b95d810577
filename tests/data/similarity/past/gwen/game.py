from __future__ import annotations

from dataclasses import dataclass

from .cards import card_value, deal, make_deck, shuffle
from .rules import DEFAULT_RULES, Rules
from .structures import Queue, Stack


@dataclass(frozen=True)
class GameResult:
    winner: str
    rounds: int
    wars: int
    longest_war_chain: int
    p1_cards: int
    p2_cards: int
    history: tuple[tuple[int, int], ...]


def play_round(p1, p2, rules=DEFAULT_RULES):
    if p1.size() == 0 and p2.size() == 0:
        return "draw"
    elif p1.size() == 0:
        return "P2"
    elif p2.size() == 0:
        return "P1"
    first_card = p1.dequeue()
    second_card = p2.dequeue()
    first_value = card_value(first_card)
    second_value = card_value(second_card)
    if first_value > second_value:
        p1.enqueue(first_card)
        p1.enqueue(second_card)
        result = "P1"
    elif second_value > first_value:
        p2.enqueue(second_card)
        p2.enqueue(first_card)
        result = "P2"
    else:
        result = ("war", first_card, second_card)
    return result


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    first_pile = Stack()
    second_pile = Stack()
    first_pile.push(c1)
    second_pile.push(c2)
    while True:
        first_short = p1.size() < rules.face_down + 1
        second_short = p2.size() < rules.face_down + 1
        if first_short and second_short:
            return "draw"
        elif first_short:
            winner = "P2"
        elif second_short:
            winner = "P1"
        else:
            for i in range(rules.face_down):
                first_pile.push(p1.dequeue())
                second_pile.push(p2.dequeue())
            first_pile.push(p1.dequeue())
            second_pile.push(p2.dequeue())
            first_value = card_value(first_pile.peek())
            second_value = card_value(second_pile.peek())
            if first_value == second_value:
                continue
            winner = "P1" if first_value > second_value else "P2"
        if winner == "P1":
            collect_into(p1, first_pile, second_pile, rules)
        else:
            collect_into(p2, second_pile, first_pile, rules)
        return winner


def collect_into(queue, winner_pile, loser_pile, rules):
    if rules.collect == "winner_first":
        piles = [winner_pile, loser_pile]
    else:
        piles = [loser_pile, winner_pile]
    for pile in piles:
        while pile.size() > 0:
            queue.enqueue(pile.pop())


def play_game(max_rounds=1000, seed=None, deck=None, rules=DEFAULT_RULES):
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(deck)
    rounds_played = 0
    war_count = 0
    sizes_after = []
    game_winner = "draw"
    while rounds_played < max_rounds:
        if p1.size() == 0:
            game_winner = "P2"
            break
        if p2.size() == 0:
            game_winner = "P1"
            break
        rounds_played += 1
        round_result = play_round(p1, p2, rules)
        if round_result[0] == "war":
            war_count += 1
            round_result = resolve_war(p1, p2, round_result[1], round_result[2], rules)
        sizes_after.append((p1.size(), p2.size()))
        if round_result == "draw":
            break
    return GameResult(game_winner, rounds_played, war_count, 1 if war_count else 0, p1.size(), p2.size(),
                      tuple(sizes_after))
