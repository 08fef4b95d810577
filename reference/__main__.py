"""Play one seeded game from the command line and print how it ended."""

from __future__ import annotations

import argparse
import sys

from .game import play_game
from .rules import Rules


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m reference`."""
    parser = argparse.ArgumentParser(
        prog="python -m reference",
        description="Play one game of War with the instructor's solution and print the outcome.",
    )
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed; the same seed replays the same game")
    parser.add_argument("--max-rounds", type=int, default=1000, help="round limit before a draw (default 1000)")
    parser.add_argument("--face-down", type=int, default=3, help="cards face down in each war cycle (default 3)")
    parser.add_argument(
        "--collect",
        choices=("winner-first", "loser-first"),
        default="winner-first",
        help="which war pile the winner collects first (default winner-first)",
    )
    parser.add_argument("--log-every", type=int, default=0, metavar="N", help="print both queue sizes every N rounds")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the game, print the outcome; 2 on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.max_rounds < 0:
        parser.error(f"--max-rounds must be >= 0, not {args.max_rounds}")
    if args.log_every < 0:
        parser.error(f"--log-every must be >= 0, not {args.log_every}")
    try:
        rules = Rules(face_down=args.face_down, collect=args.collect.replace("-", "_"))
    except ValueError as error:
        parser.error(str(error))
    result = play_game(max_rounds=args.max_rounds, seed=args.seed, rules=rules)
    if args.log_every:
        for number, (p1_size, p2_size) in enumerate(result.history, start=1):
            if number % args.log_every == 0:
                print(f"round {number}: P1 {p1_size} cards, P2 {p2_size} cards")
    if result.winner == "draw":
        verdict = f"draw after {result.rounds} rounds"
    else:
        verdict = f"{result.winner} wins after {result.rounds} rounds"
    print(f"{verdict} (seed {args.seed}): {result.wars} wars, longest war chain {result.longest_war_chain}, "
          f"final cards P1 {result.p1_cards} / P2 {result.p2_cards}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
