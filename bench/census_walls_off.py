"""The channel census with the walls of issue 25 taken down: shows the census is not blind to what they close.

    python bench/census_walls_off.py bwrap
    python tests/container_profile.py --keep "$PWD" python bench/census_walls_off.py uid

Takes down the system call allowlist, Landlock and the per-run network namespaces as bench/grade_speed.py
--walls off does (in the runtimes this process builds, never in grader/), runs tests/channel_census.py's census at
the level given, prints its findings (channel: what a later run or student found) and removes every mark it left.
With the walls up, tests/sandbox/test_channel_census.py expects every channel empty. Run as root, on a machine of your own:
the census leaves marks wherever the walls no longer stop it. A script, not a test.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests"), str(ROOT)]

import grade_speed  # noqa: E402
from channel_census import remove_marks, run_census  # noqa: E402


def main() -> int:
    level = sys.argv[1] if len(sys.argv) > 1 else "bwrap"
    token = secrets.token_hex(4)
    grade_speed.take_walls_down()
    try:
        findings = run_census(level, token)
    except Exception as error:  # noqa: BLE001 - what went wrong is the finding (a mark no clean-up could remove)
        print(f"{level}, walls off: the census could not finish: {error}")
        return 1
    finally:
        remove_marks(token)
    found = {channel: items for channel, items in findings.items() if items}
    print(f"{level}, walls off: {len(found)} of {len(findings)} channels carried a mark")
    for channel, items in found.items():
        print(f"  {channel}: {json.dumps(items[0])[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
