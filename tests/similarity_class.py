"""A class for the similarity check, built from small hand-written honest solutions and copies disguised from them.

Each honest solution fills the starter's structures.py, cards.py and game.py in its own way (the starter's
rules.py and __init__.py are kept as handed out, as students keep them). The disguises are the ones a student
tries: names renamed, functions reordered, comments and docstrings changed, loops rewritten, dead code added, one
function copied into work of one's own; and the reference lightly disguised. `ORIGINS` says which honest work each
student's code came from: two students whose origins do not meet are an honest pair.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "starter"
REFERENCE = ROOT / "reference"

DATA = ROOT / "tests" / "data" / "similarity"
"""The hand-written solutions: honest/<student>/ and past/<student>/, each structures.py, cards.py and game.py."""


def _solutions(folder: Path) -> dict[str, dict[str, str]]:
    """Each student's files of a folder of solutions: name to file to source."""
    return {student.name: {path.name: path.read_text(encoding="utf-8") for path in sorted(student.glob("*.py"))}
            for student in sorted(folder.iterdir()) if student.is_dir()}


HONEST = _solutions(DATA / "honest")
"""Honest solutions, each written its own way: name to file (structures.py, cards.py, game.py) to source."""

PAST = _solutions(DATA / "past")
"""The past class's honest student, whom one student of this class copies."""


# -- disguises ------------------------------------------------------------------------------------------


def renamed(files: dict[str, str], names: dict[str, str]) -> dict[str, str]:
    """Every whole-word occurrence of each name replaced (names the contract fixes are never in names)."""
    out = {}
    for path, source in files.items():
        for old, new in names.items():
            source, count = re.subn(rf"\b{re.escape(old)}\b", new, source)
        out[path] = source
    changed = sum(files[path] != out[path] for path in files)
    assert changed, "the renaming changed nothing"
    return out


def _top_level(source: str) -> tuple[str, list[str]]:
    """A module's head (everything before its first def or class) and its top-level definitions' text."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    defs = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    starts = [min([node.lineno] + [d.lineno for d in node.decorator_list]) for node in defs]
    head = "".join(lines[:starts[0] - 1])
    blocks = ["".join(lines[start - 1:node.end_lineno]) for start, node in zip(starts, defs)]
    return head, blocks


def reordered(files: dict[str, str]) -> dict[str, str]:
    """The top-level functions and classes of each file in reverse order."""
    out = {}
    for path, source in files.items():
        head, blocks = _top_level(source)
        out[path] = head + "\n\n".join(reversed(blocks)) + "\n"
    return out


def recommented(files: dict[str, str]) -> dict[str, str]:
    """Comments and docstrings dropped, new ones written: a comment over every def and a docstring inside it."""
    out = {}
    for path, source in files.items():
        kept = []
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type != tokenize.COMMENT:
                kept.append(token)
        source = tokenize.untokenize(kept)
        source = re.sub(r'^(\s*)"""[^"]*"""\n', "", source, flags=re.M)
        source = re.sub(r"^(\s*)def (\w+)\((.*\):)$",
                        lambda m: f"{m.group(1)}def {m.group(2)}({m.group(3)}\n"
                                  f"{m.group(1)}    \"\"\"My own {m.group(2).replace('_', ' ')}, written for "
                                  f"this assignment.\"\"\"", source, flags=re.M)
        source = re.sub(r"^(\s*)def (\w+)",
                        lambda m: f"{m.group(1)}# {m.group(2)} does what the handout asks, step by step\n"
                                  f"{m.group(1)}def {m.group(2)}", source, flags=re.M)
        source = re.sub(r"(\w+\.pop\(\))$", r"\1  # take the top card", source, flags=re.M)
        out[path] = source
    return out


def replaced(source: str, pairs: list[tuple[str, str]]) -> str:
    """Each old text (present, else the fixture is wrong) replaced by the new."""
    for old, new in pairs:
        assert old in source, f"not found: {old!r}"
        source = source.replace(old, new)
    return source


def loops_rewritten(files: dict[str, str]) -> dict[str, str]:
    """dmitri's for loops written as while loops."""
    out = dict(files)
    out["game.py"] = replaced(files["game.py"], [
        ("""        for name in ("P1", "P2"):
            for k in range(rules.face_down + 1):
                piles[name].push(hands[name].dequeue())
""", """        names = ["P1", "P2"]
        while names:
            name = names.pop(0)
            k = 0
            while k < rules.face_down + 1:
                piles[name].push(hands[name].dequeue())
                k += 1
"""),
        ("""    for owner in sequence:
        for k in range(piles[owner].size()):
            hands[name].enqueue(piles[owner].pop())
""", """    index = 0
    while index < len(sequence):
        owner = sequence[index]
        while not piles[owner].is_empty():
            hands[name].enqueue(piles[owner].pop())
        index += 1
"""),
    ])
    out["cards.py"] = replaced(files["cards.py"], [
        ("""    for i in range(len(deck)):
        (one if i % 2 == 0 else two).enqueue(deck[i])
""", """    i = 0
    while i < len(deck):
        (one if i % 2 == 0 else two).enqueue(deck[i])
        i = i + 1
"""),
    ])
    return out


DEAD_FUNCTION = '''

def _debug_dump(queue, label="hand"):
    """Print a queue's cards (left from debugging; never called). "</pre><script>alert(1)</script>" """
    shown = []
    for _ in range(queue.size()):
        card = queue.dequeue()
        shown.append(card)
        queue.enqueue(card)
    print(label, " ".join(shown))
    return shown


def _unused_counter(values):
    total = 0
    for value in values:
        if value is None:
            continue
        total = total + value * 2 - value
    return total
'''


def dead_code_added(files: dict[str, str]) -> dict[str, str]:
    """efua's work with unused functions and statements that do nothing put in."""
    out = {path: source + DEAD_FUNCTION for path, source in files.items()}
    out["game.py"] = replaced(out["game.py"], [
        ("""    queues = (p1, p2)
""", """    queues = (p1, p2)
    debug = False
    if debug:
        print("war between", c1, c2)
"""),
        ("""        played += 1
""", """        played += 1
        unused_marker = played * 0
"""),
    ])
    return out


def one_function_copied(host: dict[str, str], source: dict[str, str], name: str) -> dict[str, str]:
    """host's own work with its function `name` in game.py replaced by source's."""
    def block(text: str) -> str:
        _, blocks = _top_level(text)
        return next(b for b in blocks if b.startswith(f"def {name}("))
    out = dict(host)
    out["game.py"] = host["game.py"].replace(block(host["game.py"]), block(source["game.py"]))
    assert out["game.py"] != host["game.py"]
    return out


def reference_files() -> dict[str, str]:
    """The reference's own structures.py, cards.py and game.py."""
    return {name: (REFERENCE / name).read_text(encoding="utf-8") for name in ("structures.py", "cards.py", "game.py")}


AMARA_NAMES = {"_items": "store", "_head": "front_index", "_data": "cells", "_collect": "give_back",
               "pile1": "stack_a", "pile2": "stack_b", "short1": "a_low", "short2": "b_low", "up1": "face_a",
               "up2": "face_b", "chain": "cycle_count", "outcome": "res", "history": "sizes",
               "longest": "best_chain", "index": "n", "copy": "mixed", "item": "element"}

GWEN_NAMES = {"first_card": "a", "second_card": "b", "first_value": "va", "second_value": "vb",
              "first_pile": "left_stack", "second_pile": "right_stack", "collect_into": "hand_over",
              "rounds_played": "n_rounds", "war_count": "n_wars", "sizes_after": "trace", "line": "items",
              "heap": "things", "new_deck": "cards", "random_source": "rng", "mixed": "result"}


def students() -> dict[str, tuple[dict[str, str] | None, frozenset[str]]]:
    """Every student of the class: their three files (None: the starter untouched), and the honest work their code
    came from (ORIGINS)."""
    made: dict[str, tuple[dict[str, str] | None, frozenset[str]]] = {}
    for name in ("amara", "bastien", "chiara", "dmitri", "efua"):
        made[name] = (HONEST[name], frozenset({name}))
    made["farid"] = (one_function_copied(HONEST["farid"], HONEST["dmitri"], "resolve_war"),
                     frozenset({"farid", "dmitri"}))
    made["renamed_amara"] = (renamed(HONEST["amara"], AMARA_NAMES), frozenset({"amara"}))
    made["reordered_bastien"] = (reordered(HONEST["bastien"]), frozenset({"bastien"}))
    made["recommented_chiara"] = (recommented(HONEST["chiara"]), frozenset({"chiara"}))
    made["loops_dmitri"] = (loops_rewritten(HONEST["dmitri"]), frozenset({"dmitri"}))
    made["dead_code_efua"] = (dead_code_added(HONEST["efua"]), frozenset({"efua"}))
    made["from_past_gwen"] = (recommented(renamed(PAST["gwen"], GWEN_NAMES)), frozenset({"gwen"}))
    reference = reference_files()
    made["reference_renamed"] = (renamed(reference, {"pile": "heap", "first": "front", "winner": "champ",
                                                     "loser": "other_one", "cards": "deck_cards"}),
                                 frozenset({"reference"}))
    made["reference_recommented"] = (recommented(reference), frozenset({"reference"}))
    made["starter_ulla"] = (None, frozenset())
    made["starter_viktor"] = (None, frozenset())
    return made


DISGUISED = {"renamed_amara": "amara", "reordered_bastien": "bastien", "recommented_chiara": "chiara",
             "loops_dmitri": "dmitri", "dead_code_efua": "efua", "farid": "dmitri"}
"""Each disguised copy and the student it came from (farid copied one function alone)."""


def write_student(folder: Path, files: dict[str, str] | None, *, package: str = "starter") -> None:
    """A Classroom-style repository: the starter's package (its test file and handout too) with the student's
    files in it."""
    target = folder / package
    target.mkdir(parents=True)
    for path in STARTER.iterdir():
        if path.is_file():
            (target / path.name).write_bytes(path.read_bytes())
    for name, source in (files or {}).items():
        (target / name).write_text(source.lstrip("\n"), encoding="utf-8")


def build_class(root: Path) -> dict[str, frozenset[str]]:
    """Write the class into root (one folder per student, some packages named war), plus a submission that cannot
    be read and one with no code; the origins of every student written."""
    origins = {}
    for number, (name, (files, origin)) in enumerate(sorted(students().items())):
        write_student(root / name, files, package="war" if number % 3 == 0 else "starter")
        origins[name] = origin
    (root / "broken_zip.zip").write_bytes(b"PK\x03\x04 this is not a zip")
    (root / "empty_package" / "war").mkdir(parents=True)
    (root / "empty_package" / "war" / "__init__.py").write_text("\n\n", encoding="utf-8")
    return origins


def build_past(root: Path) -> None:
    """A past class: gwen's honest work, and a student who handed in the starter."""
    write_student(root / "gwen", PAST["gwen"])
    write_student(root / "olga", None)
