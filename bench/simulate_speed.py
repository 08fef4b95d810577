"""How fast the simulator plays: full games per second on one core, and the time for 100,000 games on 2 processes.

    python bench/simulate_speed.py [--games N] [--big-games N] [--jobs J]

Both runs go through reference.simulate.simulate with the handout's rules, run seed 0 and the default
1000-round cap, exactly as `python -m reference simulate --games N --jobs J` plays them. A script to run by hand
and quote, not a test: the figures depend on the machine and on what else it is doing (the load is printed).
bench/games_per_second.py measures play_game alone, without the simulator around it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's reference, installed or not

from reference import DEFAULT_RULES  # noqa: E402
from reference.simulate import simulate  # noqa: E402


def timed(games: int, jobs: int) -> tuple[float, float]:
    """Simulate `games` handout games over `jobs` processes: (seconds taken, mean rounds per game)."""
    start = time.perf_counter()
    result = simulate(DEFAULT_RULES, games=games, jobs=jobs)
    return time.perf_counter() - start, result.rounds_mean


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print them beside the machine's cores and load."""
    parser = argparse.ArgumentParser(prog="bench/simulate_speed.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, metavar="N", help="games on one core (default 5000)")
    parser.add_argument("--big-games", type=int, default=100_000, metavar="N",
                        help="games for the parallel run (default 100000)")
    parser.add_argument("--jobs", type=int, default=2, metavar="J", help="processes for the parallel run (default 2)")
    args = parser.parse_args(argv)
    if min(args.games, args.big_games, args.jobs) < 1:
        parser.error("--games, --big-games and --jobs must be >= 1")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average before: {load}")
    seconds, rounds = timed(args.games, 1)
    print(f"one core: {args.games / seconds:,.0f} games/s ({args.games} games in {seconds:.2f} s, "
          f"{rounds:.1f} rounds per game on average)")
    seconds, rounds = timed(args.big_games, args.jobs)
    print(f"--games {args.big_games} --jobs {args.jobs}: {seconds:.1f} s ({args.big_games / seconds:,.0f} games/s, "
          f"{rounds:.1f} rounds per game on average)")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
