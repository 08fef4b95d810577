"""Play one seeded game from the command line and print how it ended; or run the cps506 or simulate subcommand."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from typing import Any, NoReturn

from .cards import JOKER, RANKS
from .game import play_game
from .rules import COLLECT_ORDERS, DEALS, DECKS, PRESETS, SHORT_WARS, Rules
from .variants import describe, preset, rules_from

SUBCOMMANDS = """\
subcommands (each has its own --help):
  python -m reference cps506 < deck.txt
      read a deck of integers 1..13 (52: four of each; 1 is the Ace) and print the CPS506 winner's pile, top first
  python -m reference skiena [--max-moves N] [--json] < games.txt
      read games as pairs of lines of cards like `4d Ks As` and print who wins each, after how many moves
  python -m reference simulate [--games N] [--jobs J] [--compare [PRESET...]] [--plot FILE.svg] ...
      play N seeded games and print win shares, game lengths, wars; --compare puts rule sets side by side
"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print `prog: error: message` on stderr and exit 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(minimum: int) -> Any:
    """An argparse type: a whole number >= minimum."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, not {value}")
        return value

    return convert


def _dashed(names: tuple[str, ...]) -> tuple[str, ...]:
    """Rule values as spelled on the command line: loser_first -> loser-first."""
    return tuple(name.replace("_", "-") for name in names)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """The flags that choose a rule set: a preset, then any field of Rules in its place."""
    group = parser.add_argument_group("rules (a preset, then any of its fields changed)")
    group.add_argument("--preset", choices=tuple(PRESETS), default="handout",
                       help="named rule set (default handout: the assignment's rules; see docs/presets.md's table)")
    group.add_argument("--face-down", type=_whole(0), metavar="K",
                       help="cards face down in each war cycle (handout and dsl 3, cps506 and skiena 1)")
    group.add_argument("--collect", choices=_dashed(COLLECT_ORDERS),
                       help="order the winner adds won cards: own war pile first (handout), the opponent's first, "
                            "as played (P1's card then P2's; skiena), sorted highest first (cps506), or shuffled (dsl)")
    group.add_argument("--deck", choices=DECKS, help="handout: 54 cards with two Jokers; standard: 52, no Joker")
    group.add_argument("--high-card", choices=RANKS + (JOKER,),
                       help="the rank that beats all others (default: Jo with the handout deck, 1 = Ace otherwise)")
    group.add_argument("--deal", choices=_dashed(DEALS),
                       help="alternate, first card on top of P1's (handout); alternate-on-top, each card on top of "
                            "the receiving pile (cps506); or halves")
    group.add_argument("--short-war", choices=_dashed(SHORT_WARS),
                       help="forfeit: too few cards for a war loses at once (handout, dsl); play-out: place what you "
                            "have but your last card, lose only with no card to turn face up; lay-down: place what "
                            "you have face down, lose with no card left to turn face up (skiena); lay-down-if-both: the "
                            "same, but with no card at all you lose before anyone lays one down (cps506)")


def _rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Rules:
    """The Rules the rule flags describe; a one-line usage error if they do not fit together."""
    def underscored(value: str | None) -> str | None:
        return None if value is None else value.replace("-", "_")

    try:
        return rules_from(
            args.preset,
            face_down=args.face_down,
            collect=underscored(args.collect),
            deck=args.deck,
            high_card=args.high_card,
            deal=underscored(args.deal),
            short_war=underscored(args.short_war),
        )
    except ValueError as error:
        parser.error(str(error))


def _rule_flags(rules: Rules, base: str) -> str:
    """Command-line flags that select `rules`: a preset, then each field that differs from it."""
    base = next((name for name, known in PRESETS.items() if known == rules), base)
    flags = [f"--preset {base}"] if base != "handout" else []
    reference = preset(base)
    for field in fields(Rules):
        value = getattr(rules, field.name)
        if value != getattr(reference, field.name):
            flags.append(f"--{field.name.replace('_', '-')} {str(value).replace('_', '-')}")
    return " ".join(flags)


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m reference`."""
    parser = _Parser(
        prog="python -m reference",
        description="Play one game of War with the instructor's solution and print the outcome.",
        epilog=SUBCOMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed; the same seed replays the same game")
    parser.add_argument("--max-rounds", type=_whole(0), default=1000, help="round limit before a draw (default 1000)")
    parser.add_argument("--log-every", type=_whole(0), default=0, metavar="N",
                        help="print both queue sizes every N rounds")
    _add_rule_options(parser)
    return parser


def build_cps506_parser() -> argparse.ArgumentParser:
    """The command line of `python -m reference cps506`."""
    return _Parser(
        prog="python -m reference cps506",
        description="Read a CPS506 deck from standard input: integers separated by whitespace or commas, 1..13 (1 is "
                    "the Ace, ranked highest; 11, 12, 13 are J, Q, K), a permutation of 52 with each four times. "
                    "Play the CPS506 rules and print the winner's final pile, top first, on one line. Any other "
                    "deck of at least 2 cards plays too, after a one-line note on stderr. Bad input: one line on "
                    "stderr and exit status 2; a deal that never ends: exit status 1.",
    )


def build_skiena_parser() -> argparse.ArgumentParser:
    """The command line of `python -m reference skiena`."""
    parser = _Parser(
        prog="python -m reference skiena",
        description="Read games from standard input, two lines each: player 1's cards, then player 2's, top card "
                    "first, each card a rank of 23456789TJQKA and a suit of cdhs (e.g. 4d Ks As; suits are ignored, "
                    "blank lines skipped). Play Skiena's War (1 down + 1 up, won cards under the pile in the order "
                    "played, running out in a war loses) and print who wins each game after how many moves (both "
                    "players taking their top card), or that it reached the move cap. A bad card: one line naming "
                    "the line and the card, exit status 2.",
    )
    parser.add_argument("--max-moves", type=_whole(1), default=100_000, metavar="N",
                        help="move cap per game (default 100000, the exercise's)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


def build_simulate_parser() -> argparse.ArgumentParser:
    """The command line of `python -m reference simulate`."""
    parser = _Parser(
        prog="python -m reference simulate",
        description="Play many seeded games and print who wins, how long games last and how many wars they have. "
                    "Game i uses a seed derived from --seed and i, so the numbers do not depend on --jobs.",
    )
    parser.add_argument("--games", type=_whole(1), default=1000, metavar="N", help="games per rule set (default 1000)")
    parser.add_argument("--max-rounds", type=_whole(0), default=1000, metavar="M",
                        help="round cap; a game still going is a draw (default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    parser.add_argument("--jobs", type=_whole(1), default=1, metavar="J", help="processes to play on (default 1)")
    parser.add_argument("--plot", metavar="FILE.svg", help="also write an SVG histogram of game lengths")
    parser.add_argument("--compare", nargs="*", metavar="PRESET",
                        help="play several rule sets on the same seeds, side by side: each PRESET named (e.g. "
                             "--compare handout cps506 skiena dsl), then the rules the other flags give unless one "
                             "of those already; with no PRESET, --preset beside the rules given (e.g. --compare "
                             "--collect loser-first)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON instead of a table")
    _add_rule_options(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the game, print the outcome; 2 on bad input."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["cps506"]:
        return _cps506(argv[1:])
    if argv[:1] == ["skiena"]:
        return _skiena(argv[1:])
    if argv[:1] == ["simulate"]:
        return _simulate(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = _rules(args, parser)
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


def _cps506(argv: list[str]) -> int:
    """`python -m reference cps506`: a permutation on stdin, the winner's pile on stdout."""
    from .cps506 import EndlessGame, deck_note, parse_permutation, winner_pile

    parser = build_cps506_parser()
    parser.parse_args(argv)
    try:
        deck = parse_permutation(sys.stdin.read())
    except ValueError as error:
        parser.error(str(error))
    note = deck_note(deck)
    if note:
        print(f"{parser.prog}: note: {note}", file=sys.stderr)
    try:
        pile = winner_pile(deck)
    except EndlessGame as error:
        parser.exit(1, f"{parser.prog}: {error}\n")
    print(" ".join(map(str, pile)))
    return 0


def _skiena(argv: list[str]) -> int:
    """`python -m reference skiena`: games as lines of cards on stdin, who won each and after how many moves."""
    from .skiena import CardError, parse_games, play

    parser = build_skiena_parser()
    args = parser.parse_args(argv)
    try:
        games = parse_games(sys.stdin.read())
    except CardError as error:
        parser.error(str(error))
    if not games:
        parser.error("no game on standard input: expected two lines of cards per game")
    rows = []
    for number, game in enumerate(games, start=1):
        if game.note and not args.json:
            print(f"{parser.prog}: note: game {number} (line {game.line}): {game.note}", file=sys.stderr)
        result = play(game.p1, game.p2, max_moves=args.max_moves)
        rows.append({"game": number, "line": game.line, **result.to_json(), "note": game.note})
        if not args.json:
            print(f"game {number}: {result.sentence(args.max_moves)}")
    if args.json:
        print(json.dumps({"max_moves": args.max_moves, "games": rows}, indent=2))
    return 0


def _compared(names: list[str], base: str, rules: Rules, parser: argparse.ArgumentParser) -> list[Rules]:
    """The rule sets --compare plays: each named preset (or --preset if none is named), then `rules` if new."""
    runs = []
    for name in names or [base]:
        try:
            each = preset(name)
        except ValueError as error:
            parser.error(f"--compare: {error}")
        if each in runs:
            parser.error(f"--compare: {name} plays the same rules as a preset named before it")
        runs.append(each)
    if rules not in runs:
        runs.append(rules)
    if len(runs) < 2:
        parser.error("--compare needs two different rule sets: add rule flags (e.g. --collect loser-first) "
                     "or name another preset")
    return runs


def _simulate(argv: list[str]) -> int:
    """`python -m reference simulate`: many games, their numbers, optionally a histogram."""
    from .histogram import render_svg
    from .simulate import format_text, game_seed, progress_bar, simulate, to_json

    parser = build_simulate_parser()
    args = parser.parse_args(argv)
    rules = _rules(args, parser)
    runs = [rules]
    if args.compare is not None:
        runs = _compared(args.compare, args.preset, rules, parser)
    results = [
        simulate(each, games=args.games, seed=args.seed, max_rounds=args.max_rounds, jobs=args.jobs,
                 label=describe(each, args.preset), progress=progress_bar())
        for each in runs
    ]
    if args.plot:
        title = f"Game lengths: {args.games} games, seed {args.seed}"
        svg = render_svg([(r.label, r.lengths) for r in results], title, max_rounds=args.max_rounds)
        try:
            with open(args.plot, "w", encoding="utf-8") as out:
                out.write(svg)
        except OSError as error:
            parser.error(f"cannot write --plot {args.plot}: {error.strerror}")
    if args.json:
        print(json.dumps(to_json(results), indent=2))
        return 0
    print(format_text(results))
    print()
    for index, r in enumerate(results):
        if r.longest_war_chain_game >= 0:
            flags = _rule_flags(r.rules, args.preset)
            command = f"python -m reference --seed {game_seed(args.seed, r.longest_war_chain_game)}"
            command += f" --max-rounds {args.max_rounds}" + (f" {flags}" if flags else "")
            print(f"replay {chr(65 + index)}'s game with the longest war chain: {command}")
    if args.plot:
        print(f"histogram written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
