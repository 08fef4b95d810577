"""How fast the simulator plays: games per second of each preset on one core, 100,000 handout games on 2 processes,
and the side-by-side comparison of every preset.

    python bench/simulate_speed.py [--games N] [--big-games N] [--compare-games N] [--jobs J]

Every run goes through reference.simulate.simulate with run seed 0 and the default 1000-round cap, exactly as
`python -m reference simulate --games N --jobs J [--compare handout cps506 skiena dsl]` plays them. A script to
run by hand and quote, not a test: the figures depend on the machine and on what else it is doing (the load is
printed). bench/games_per_second.py measures play_game alone, without the simulator around it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's reference, installed or not

from reference import DEFAULT_RULES, Rules  # noqa: E402
from reference.rules import PRESETS  # noqa: E402
from reference.simulate import simulate  # noqa: E402


def timed(rules: Rules, games: int, jobs: int) -> tuple[float, float]:
    """Simulate `games` games under `rules` over `jobs` processes: (seconds taken, mean rounds per game)."""
    start = time.perf_counter()
    result = simulate(rules, games=games, jobs=jobs)
    return time.perf_counter() - start, result.rounds_mean


def load() -> str:
    """The 1, 5 and 15-minute load averages."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print them beside the machine's cores and load."""
    parser = argparse.ArgumentParser(prog="bench/simulate_speed.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, metavar="N",
                        help="games per preset on one core (default 5000)")
    parser.add_argument("--big-games", type=int, default=100_000, metavar="N",
                        help="handout games for the parallel run (default 100000)")
    parser.add_argument("--compare-games", type=int, default=10_000, metavar="N",
                        help="games per preset for the comparison of every preset (default 10000)")
    parser.add_argument("--jobs", type=int, default=2, metavar="J", help="processes for the parallel runs (default 2)")
    args = parser.parse_args(argv)
    if min(args.games, args.big_games, args.compare_games, args.jobs) < 1:
        parser.error("--games, --big-games, --compare-games and --jobs must be >= 1")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average before: {load()}")
    for name, rules in PRESETS.items():
        seconds, rounds = timed(rules, args.games, 1)
        print(f"one core, {name}: {args.games / seconds:,.0f} games/s ({args.games} games in {seconds:.2f} s, "
              f"{rounds:.1f} rounds per game on average)")
    seconds, rounds = timed(DEFAULT_RULES, args.big_games, args.jobs)
    print(f"handout, --games {args.big_games} --jobs {args.jobs}: {seconds:.1f} s "
          f"({args.big_games / seconds:,.0f} games/s, {rounds:.1f} rounds per game on average)")
    start = time.perf_counter()
    for rules in PRESETS.values():
        simulate(rules, games=args.compare_games, jobs=args.jobs)
    seconds = time.perf_counter() - start
    print(f"--compare {' '.join(PRESETS)}, --games {args.compare_games} --jobs {args.jobs}: {seconds:.1f} s")
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
