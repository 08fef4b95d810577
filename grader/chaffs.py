"""The wheat and the chaffs: a correct student-style solution and single-bug variants of it.

Each chaff is one plausible student misconception, written as text edits of the wheat (`grader/wheat/`),
and tagged with the grading category of the rule it breaks. The rubric's tests grade every chaff through
the real grader to show that each one loses points in its own category and nowhere else; Part E grades a
student's own tests by the chaffs they catch. Students never see this module or its edits: the report
names a chaff only by its misconception.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import reference
import starter

WHEAT = Path(__file__).with_name("wheat")
"""The wheat's modules, except rules.py, which students receive whole and is copied from the starter."""

CONTRACT_MODULES = ("__init__.py", "structures.py", "cards.py", "rules.py", "game.py")
"""The modules of a package that fulfils the assignment's contract."""


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of old with new in one of the wheat's files."""

    file: str
    """File name inside the package, e.g. "game.py"."""
    old: str
    """Text that occurs exactly once in that file."""
    new: str
    """What it becomes."""


@dataclass(frozen=True)
class Chaff:
    """A single-bug variant of the wheat."""

    name: str
    """Identifier, e.g. "joker_below_king"."""
    category: str
    """The grading category of the rule the bug breaks (a key of grader.results.CATEGORY_TITLES)."""
    misconception: str
    """The bug in plain words a student understands, never its code."""
    edits: tuple[Edit, ...]
    """How the wheat becomes this chaff."""


def _chaff(name: str, category: str, misconception: str, *edits: tuple[str, str, str]) -> Chaff:
    return Chaff(name, category, misconception, tuple(Edit(*edit) for edit in edits))


_PLAY_ROUND_COLLECT = """        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    elif card_value(c2) > card_value(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)"""

_COLLECT_WINNER_FIRST = """    else:
        _pile_into_queue(own_pile, winner_queue)
        _pile_into_queue(other_pile, winner_queue)"""

CHAFFS: tuple[Chaff, ...] = (
    # -- data structures ---------------------------------------------------------------------------
    _chaff("lifo_queue", "data_structures", "a Queue that hands back the card added last (LIFO) instead of first",
           ("structures.py", """        if self._tail is None:
            self._head = node
        else:
            self._tail.next = node
        self._tail = node""", """        node.next = self._head
        self._head = node
        if self._tail is None:
            self._tail = node""")),
    _chaff("fifo_stack", "data_structures", "a Stack whose pop and peek take the item added first (FIFO) instead of last",
           ("structures.py", "        return self._data.pop()", "        return self._data.pop(0)"),
           ("structures.py", "        return self._data[-1]", "        return self._data[0]")),
    # -- card order ----------------------------------------------------------------------------------
    _chaff("joker_below_king", "joker_dominance", "a Joker that loses to a King",
           ("cards.py", "CARD_VALUES[JOKER] = 14", "CARD_VALUES[JOKER] = 13\nCARD_VALUES[\"K\"] = 14")),
    _chaff("jokers_compared_as_text", "joker_dominance",
           "Jokers ordered as text, so \"Jo\" sorts between J and Q and loses to Q and K",
           ("cards.py", "CARD_VALUES[JOKER] = 14",
            "CARD_VALUES[JOKER] = 12\nCARD_VALUES[\"Q\"] = 13\nCARD_VALUES[\"K\"] = 14")),
    _chaff("ace_high", "normal_rounds", "the Ace (rank \"1\") played as the highest rank instead of the lowest",
           ("cards.py", "CARD_VALUES[JOKER] = 14", "CARD_VALUES[\"1\"] = 14\nCARD_VALUES[JOKER] = 15")),
    _chaff("ten_sorted_as_text", "normal_rounds", "number ranks ordered as text, so \"10\" loses to \"2\" through \"9\"",
           ("cards.py", "for i, rank in enumerate(RANKS):",
            "for i, rank in enumerate(sorted(RANKS[:10]) + list(RANKS[10:])):")),
    # -- normal rounds -------------------------------------------------------------------------------
    _chaff("loser_card_first", "normal_rounds", "the winner of a round puts the loser's card at the back before its own",
           ("game.py", _PLAY_ROUND_COLLECT, """        p1.enqueue(c2)
        p1.enqueue(c1)
        return "P1"
    elif card_value(c2) > card_value(c1):
        p2.enqueue(c1)
        p2.enqueue(c2)""")),
    # -- forced war ----------------------------------------------------------------------------------
    _chaff("opponent_pile_first", "forced_war", "the winner of a war takes the opponent's pile before its own",
           ("game.py", _COLLECT_WINNER_FIRST, """    else:
        _pile_into_queue(other_pile, winner_queue)
        _pile_into_queue(own_pile, winner_queue)""")),
    _chaff("pile_bottom_first", "forced_war",
           "a war pile collected from the bottom (first card placed) instead of from the top",
           ("game.py", """    while not pile.is_empty():
        queue.enqueue(pile.pop())""", """    for card in list(pile):
        queue.enqueue(card)
    while not pile.is_empty():
        pile.pop()""")),
    _chaff("two_face_down", "forced_war", "2 cards face down in a war instead of 3",
           ("game.py", "    cards_needed = rules.face_down + 1", "    cards_needed = 3"),
           ("game.py", "        for _ in range(rules.face_down):", "        for _ in range(2):")),
    _chaff("one_face_down", "forced_war", "1 card face down in a war instead of 3",
           ("game.py", "    cards_needed = rules.face_down + 1", "    cards_needed = 2"),
           ("game.py", "        for _ in range(rules.face_down):", "        for _ in range(1):")),
    _chaff("new_piles_each_cycle", "forced_war",
           "a war that ties again starts new piles, so the cards of its earlier cycles are lost",
           ("game.py", "        cycles += 1  # tie again -> another cycle on the same piles",
            "        cycles += 1\n        pile1, pile2 = Stack(), Stack()  # fresh piles for the next cycle")),
    # -- exhaustion during war -----------------------------------------------------------------------
    _chaff("short_check_at_three", "exhaustion",
           "a player with only 3 cards is let into a war (it needs 4: 3 down and 1 up)",
           ("game.py", "    cards_needed = rules.face_down + 1", "    cards_needed = rules.face_down")),
    _chaff("both_short_p1_wins", "exhaustion", "when both players are short in a war, P1 wins instead of a draw",
           ("game.py", """            _pile_into_queue(pile1, p1)
            _pile_into_queue(pile2, p2)
            return "draw", cycles""", """            _collect(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", cycles""")),
    _chaff("short_player_keeps_cards", "exhaustion",
           "a player too short for a war loses it but keeps its remaining cards",
           ("game.py", """            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
""", ""),
           ("game.py", """            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
""", "")),
    # -- full game -----------------------------------------------------------------------------------
    _chaff("no_jokers_in_deck", "full_game", "a deck built without its two Jokers",
           ("cards.py", "        deck.append(JOKER)\n        deck.append(JOKER)", "        pass")),
    _chaff("deal_by_halves", "full_game", "the deck dealt in two halves instead of alternately",
           ("cards.py", "        if i % 2 == 0:", "        if i < (len(deck) + 1) // 2:")),
    _chaff("deal_starting_with_p2", "full_game", "dealing that gives the first card to P2 instead of P1",
           ("cards.py", "        if i % 2 == 0:", "        if i % 2 == 1:")),
    _chaff("drawn_war_ignored", "full_game", "a war that ends in a draw does not end the game",
           ("game.py", "                war_draw = True", "                pass  # play on")),
    _chaff("round_limit_off_by_one", "full_game", "one round more than max_rounds played before the draw",
           ("game.py", "rounds < max_rounds:", "rounds <= max_rounds:")),
    _chaff("p1_win_reported_as_draw", "full_game", "a game that P1 wins reported as a draw",
           ("game.py", "    elif p2.is_empty() and not p1.is_empty():\n        winner = \"P1\"",
            "    elif p2.is_empty() and not p1.is_empty():\n        winner = \"draw\"")),
    # -- extensions ----------------------------------------------------------------------------------
    _chaff("wars_not_counted", "extensions", "GameResult.wars never counted",
           ("game.py", "            wars += 1\n", "")),
    _chaff("war_chain_off_by_one", "extensions", "the longest war chain counted from 0, so a single war counts 0",
           ("game.py", "    cycles = 1\n", "    cycles = 0\n")),
    _chaff("history_not_filled", "extensions", "GameResult.history left empty",
           ("game.py", "        history.append((p1.size(), p2.size()))", "        pass  # no telemetry")),
)
"""Every chaff, grouped by category in the order the categories are graded."""


def chaff(name: str) -> Chaff:
    """The chaff called name; KeyError if there is none."""
    for candidate in CHAFFS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def wheat_sources() -> dict[str, str]:
    """The wheat's modules by file name, rules.py taken from the starter (students receive it whole)."""
    sources = {name: (WHEAT / name).read_text(encoding="utf-8") for name in CONTRACT_MODULES if name != "rules.py"}
    sources["rules.py"] = Path(starter.__file__).with_name("rules.py").read_text(encoding="utf-8")
    return sources


def chaff_sources(variant: Chaff) -> dict[str, str]:
    """The wheat's modules with the chaff's edits applied; ValueError if an edit no longer fits the wheat."""
    sources = wheat_sources()
    for edit in variant.edits:
        count = sources[edit.file].count(edit.old)
        if count != 1:
            raise ValueError(f"chaff {variant.name}: {edit.file} holds its text {count} times, not once")
        sources[edit.file] = sources[edit.file].replace(edit.old, edit.new)
    return sources


def write_package(sources: dict[str, str], into: Path, package: str = "starter") -> Path:
    """Write the modules as package `package` inside folder into; the package folder."""
    folder = into / package
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in sources.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def write_reference(into: Path, package: str = "starter") -> Path:
    """Copy the reference's contract modules as package `package` inside into (the first wheat)."""
    folder = into / package
    folder.mkdir(parents=True, exist_ok=True)
    source = Path(reference.__file__).parent
    for name in CONTRACT_MODULES:
        shutil.copyfile(source / name, folder / name)
    return folder
