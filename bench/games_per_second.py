"""How many games of War per second the reference plays on this machine.

    python bench/games_per_second.py [--games N] [--max-rounds M] [--seconds S]

plays play_game(max_rounds=M, seed=i) for i = 0, 1, 2, ... and prints games and rounds per second. It
stops after N games, or, without --games, once S seconds (default 3) have passed. A script, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's reference, installed or not

from reference import play_game  # noqa: E402


def positive(text: str) -> float:
    """An argparse type: a number > 0."""
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Parse the options, play the games, print the rates."""
    parser = argparse.ArgumentParser(prog="bench/games_per_second.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="play exactly N games, seeds 0..N-1 (default: as many as fit in --seconds)")
    parser.add_argument("--max-rounds", type=int, default=1000, metavar="M", help="round limit per game (default 1000)")
    parser.add_argument("--seconds", type=positive, default=3.0, metavar="S",
                        help="time to play for when --games is not given (default 3)")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    if args.max_rounds < 0:
        parser.error(f"--max-rounds must be >= 0, not {args.max_rounds}")

    games = rounds = wins = 0
    start = time.perf_counter()
    while True:
        result = play_game(max_rounds=args.max_rounds, seed=games)
        games += 1
        rounds += result.rounds
        wins += result.winner != "draw"
        elapsed = time.perf_counter() - start
        if (args.games is not None and games >= args.games) or (args.games is None and elapsed >= args.seconds):
            break
    print(f"{games} games (seeds 0..{games - 1}, max_rounds {args.max_rounds}) in {elapsed:.2f} s")
    print(f"{games / elapsed:,.0f} games/s, {rounds / elapsed:,.0f} rounds/s; "
          f"{rounds / games:.0f} rounds per game on average, {wins} won, {games - wins} drawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
