"""Cheat (state carried from one student to the next: a folder no clean-up sweeps). WAR_CHEAT_MARKER

At the uid level (a container without namespaces) the students' workers run as the same few uids and see the
container's /run/lock, which every user may write in (mode 1777 on Debian and Ubuntu) and which the grader never
empties. At import, share() looks there for a copy of this package left by an earlier student's worker: if one
is there, its play_game replaces this package's own (not written yet). Otherwise it leaves this package there for
the students after it: a correct student carrying this module gives every later one its play_game.
"""

import importlib.util
import os
import sys

FOLDER = "/run/lock/war_shared_package"
NAME = "war_shared_package"
MARK = "# WAR_CHEAT_MARKER: left in /run/lock by an earlier student's worker\n"


def share(package_name, namespace):
    """Borrow play_game from a planted copy, or plant this package."""
    if package_name == NAME:  # the planted copy itself, being imported: neither borrow nor plant
        return
    init = os.path.join(FOLDER, "__init__.py")
    try:
        if os.path.isfile(init):
            spec = importlib.util.spec_from_file_location(NAME, init, submodule_search_locations=[FOLDER])
            module = importlib.util.module_from_spec(spec)
            sys.modules[NAME] = module
            spec.loader.exec_module(module)
            namespace["play_game"] = module.play_game
            sys.modules[package_name + ".game"].play_game = module.play_game
            return
    except Exception:  # noqa: BLE001 - a broken copy: keep this package's own
        sys.modules.pop(NAME, None)
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        os.makedirs(FOLDER, exist_ok=True)
        for name in sorted(os.listdir(here)):
            if name.endswith(".py"):
                with open(os.path.join(here, name), encoding="utf-8") as source:
                    text = source.read()
                with open(os.path.join(FOLDER, name), "w", encoding="utf-8") as copy:
                    copy.write(MARK + text)
    except OSError:
        pass
