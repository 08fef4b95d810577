"""Skiena's War queue exercise: games read as lines of cards like `4d Ks As`, played move by move to a winner or a cap.

Each game is two lines, player 1's cards then player 2's, top card first; a card is a rank of `23456789TJQKA`
and a suit of `cdhs`, and the suit is ignored. A move is both players taking their top card: a battle card, a
war's face-down card or its face-up card. The game is Skiena's `war()` (Programming Challenges): 1 card down and 1
up in a war; the winner puts every card of the round under its pile in the exact order they were played, player
1's card then player 2's at every move; a player who runs out of cards loses, even in the middle of a war (the
cards on the table then go to the other player, who holds every card); both running out at the same move is a
tie; a game still going after max_moves moves stops there. The `skiena` preset (SKIENA_RULES) plays the same
game in the engine; tests check the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import _strength, _values
from .rules import SKIENA_RULES
from .structures import Queue

MAX_MOVES = 100_000
"""The exercise's cap on moves per game."""

RANKS_TEXT = "23456789TJQKA"
"""The ranks as the exercise writes them, lowest first."""

SUITS_TEXT = "cdhs"
"""The suits as the exercise writes them (clubs, diamonds, hearts, spades); ignored when comparing."""

_CARD_OF_RANK: dict[str, str] = dict(zip(RANKS_TEXT, ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "1")))
"""The exercise's rank letter -> the engine's card ("T" is "10", the Ace "1", ranked highest by SKIENA_RULES)."""


class CardError(ValueError):
    """A token that is no card, or a game missing its second line: the message names the line."""


@dataclass(frozen=True)
class SkienaGame:
    """One game of the input: both players' cards, top first, as the engine's card strings."""

    line: int
    """The input line (1-based) of player 1's cards; player 2's is the next non-blank line."""

    p1: tuple[str, ...]
    """Player 1's cards, top first."""

    p2: tuple[str, ...]
    """Player 2's cards, top first."""

    note: str | None = None
    """Why the two lines are no standard deck (not 52 cards, a card twice), or None when they are one."""


@dataclass(frozen=True)
class SkienaResult:
    """How one game ended."""

    winner: str
    """"P1" or "P2"; "tie" when both ran out at the same move; "cap" when the game reached max_moves."""

    moves: int
    """Moves played: times both players took their top card."""

    p1: tuple[str, ...]
    """Player 1's pile at the end, top first (ranks as the engine writes them: "1" is the Ace, "10" the T)."""

    p2: tuple[str, ...]
    """Player 2's pile at the end, top first."""

    on_table: int
    """Cards left on the table: those of a war the cap interrupted, or every card after a tie."""

    @property
    def p1_cards(self) -> int:
        """Cards in player 1's pile at the end."""
        return len(self.p1)

    @property
    def p2_cards(self) -> int:
        """Cards in player 2's pile at the end."""
        return len(self.p2)

    def to_json(self) -> dict[str, int | str]:
        """The result as plain JSON values: winner, moves and the cards each side holds."""
        return {"winner": self.winner, "moves": self.moves, "p1_cards": self.p1_cards, "p2_cards": self.p2_cards,
                "on_table": self.on_table}

    def sentence(self, max_moves: int = MAX_MOVES) -> str:
        """The result in words, e.g. "player 1 wins after 123 moves"."""
        if self.winner in ("P1", "P2"):
            return f"player {self.winner[1]} wins after {self.moves} moves"
        if self.winner == "tie":
            return f"tie: both players ran out of cards at move {self.moves}"
        table = f", {self.on_table} on the table" if self.on_table else ""
        return (f"no winner after {self.moves} moves (the {max_moves}-move cap): player 1 holds {self.p1_cards} "
                f"cards, player 2 {self.p2_cards}{table}")


def parse_card(token: str) -> str:
    """The engine's card for a token like "Td" (rank then suit); ValueError for anything else."""
    if len(token) != 2 or token[0] not in _CARD_OF_RANK or token[1] not in SUITS_TEXT:
        raise ValueError(f"not a card: {token!r} (a rank of {RANKS_TEXT} then a suit of {SUITS_TEXT}, e.g. 4d or Ks)")
    return _CARD_OF_RANK[token[0]]


def parse_games(text: str) -> list[SkienaGame]:
    """The games of text: non-blank lines in pairs, player 1's then player 2's; CardError naming the line otherwise."""
    lines = [(number, line.split()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    games = []
    for first in range(0, len(lines), 2):
        hands = []
        for number, tokens in lines[first:first + 2]:
            try:
                hands.append(tuple(parse_card(token) for token in tokens))
            except ValueError as error:
                raise CardError(f"line {number}: {error}") from None
        if len(hands) == 1:
            raise CardError(f"line {lines[first][0]}: player 1's cards have no line for player 2 after them")
        tokens = lines[first][1] + lines[first + 1][1]
        games.append(SkienaGame(lines[first][0], hands[0], hands[1], _deck_note(tokens)))
    return games


def _deck_note(tokens: list[str]) -> str | None:
    """None when the tokens are the 52 cards of a standard deck, each once; else how they differ, in one line."""
    twice = sorted({token for token in tokens if tokens.count(token) > 1}, key=tokens.index)
    if len(tokens) == 52 and not twice:
        return None
    parts = [f"{len(tokens)} cards, not 52"] if len(tokens) != 52 else []
    parts += [f"{token} more than once" for token in twice]
    return "not a standard deck (" + "; ".join(parts) + "): playing it as given"


def play(p1_cards: tuple[str, ...], p2_cards: tuple[str, ...], max_moves: int = MAX_MOVES) -> SkienaResult:
    """Play one game move by move, as Skiena's war() does, to a winner, a tie or max_moves moves."""
    values = _values(SKIENA_RULES)
    a: Queue[str] = Queue()
    b: Queue[str] = Queue()
    for queue, cards in ((a, p1_cards), (b, p2_cards)):
        for card in cards:
            _strength(card, values)  # a non-card is a ValueError here, not halfway through the game
            queue.enqueue(card)
    table: list[str] = []
    moves = 0
    in_war = False  # the next move is a war's face-down card
    while not a.is_empty() and not b.is_empty() and moves < max_moves:
        moves += 1
        x, y = a.dequeue(), b.dequeue()
        table += (x, y)
        if in_war:
            in_war = False
        elif values[x] > values[y]:
            _take(table, a)
        elif values[x] < values[y]:
            _take(table, b)
        else:
            in_war = True
    if a.is_empty() and b.is_empty():
        return SkienaResult("tie", moves, (), (), len(table))
    if a.is_empty() or b.is_empty():
        winner = b if a.is_empty() else a
        _take(table, winner)  # a player ran out in the middle of a war: the other takes what is on the table
        return SkienaResult("P2" if a.is_empty() else "P1", moves, tuple(a), tuple(b), 0)
    return SkienaResult("cap", moves, tuple(a), tuple(b), len(table))


def _take(table: list[str], winner: Queue[str]) -> None:
    """Move the cards on the table, in the order they were played, under the winner's pile."""
    for card in table:
        winner.enqueue(card)
    table.clear()
