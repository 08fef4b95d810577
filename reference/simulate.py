"""Play many seeded games under one rule set and summarise how they went: who wins, how long, how many wars.

Game i of a run with seed S is play_game(seed=game_seed(S, i)), so every game can be replayed on its own with
`python -m reference --seed <that number>` and the numbers do not depend on how many processes play them. Work
goes to the processes as plain values (the rules as a dict, a seed, a range of game numbers) and comes back as
plain tuples; the summary is a frozen dataclass.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import statistics
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .game import play_game
from .rules import Rules
from .variants import from_plain, to_plain

P1_WIN, P2_WIN, CAPPED, STALEMATE = range(4)
"""How one game ended, as it crosses back from a worker process."""

_Task = tuple[dict[str, Any], int, int, int, int]
"""What a worker is sent: the rules as plain values, the run seed, the first and past-last game, the cap."""

_Row = tuple[int, int, int, int]
"""What a worker sends back per game: outcome, rounds, wars, longest war chain."""

_CHUNKS_PER_JOB = 8
"""Pieces of work per process: enough to even out long and short games and to move a progress bar."""


@dataclass(frozen=True)
class SimulationResult:
    """How N seeded games under one rule set went."""

    label: str
    """A short name for the rule set, e.g. "handout" or "handout + collect=loser_first"."""

    rules: Rules
    """The rule set."""

    seed: int
    """The run's seed; game i used game_seed(seed, i)."""

    max_rounds: int
    """The round cap: a game still going after it counts as a draw at the cap."""

    games: int
    """Games played."""

    p1_wins: int
    """Games P1 won by holding every card."""

    p2_wins: int
    """Games P2 won."""

    capped: int
    """Games stopped at the round cap, a draw (a war leaving both short in the very last round counts here)."""

    stalemates: int
    """Games drawn before the cap because both players ran short in the same war."""

    rounds_mean: float
    """Mean rounds per game (a capped game counts max_rounds)."""

    rounds_median: float
    """Median rounds per game."""

    rounds_p90: int
    """90th percentile of rounds per game (nearest rank)."""

    rounds_p99: int
    """99th percentile of rounds per game (nearest rank)."""

    wars_mean: float
    """Mean rounds per game that went to war."""

    longest_war_chain: int
    """The most war cycles inside one round in any game: a single war is 1."""

    longest_war_chain_game: int
    """The first game (0-based number) with that chain, -1 if no game had a war."""

    lengths: tuple[int, ...]
    """Rounds of every game, in game order (for the histogram)."""

    def share(self, count: int) -> float:
        """count as a fraction of the games played."""
        return count / self.games if self.games else 0.0


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed`: a 63-bit number, the same on every machine and process."""
    digest = hashlib.sha256(f"war-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _play_chunk(task: _Task) -> list[_Row]:
    """Play games start..stop-1 of a run; (outcome, rounds, wars, longest war chain) for each, in order."""
    plain_rules, seed, start, stop, max_rounds = task
    rules = from_plain(plain_rules)
    rows = []
    for index in range(start, stop):
        result = play_game(max_rounds=max_rounds, seed=game_seed(seed, index), rules=rules)
        if result.winner == "P1":
            outcome = P1_WIN
        elif result.winner == "P2":
            outcome = P2_WIN
        elif result.rounds >= max_rounds:
            outcome = CAPPED
        else:
            outcome = STALEMATE
        rows.append((outcome, result.rounds, result.wars, result.longest_war_chain))
    return rows


def simulate(
    rules: Rules,
    *,
    games: int,
    seed: int = 0,
    max_rounds: int = 1000,
    jobs: int = 1,
    label: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play `games` seeded games over `jobs` processes and summarise them; progress(done, total) after each chunk."""
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number >= 1, not {games!r}")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, not {jobs!r}")
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    size = max(1, math.ceil(games / (jobs * _CHUNKS_PER_JOB)))
    plain = to_plain(rules)
    tasks = [(plain, seed, start, min(start + size, games), max_rounds) for start in range(0, games, size)]
    rows: list[_Row] = []
    for chunk in _run(tasks, jobs):
        rows.extend(chunk)
        if progress is not None:
            progress(len(rows), games)
    return _summarise(rows, rules, seed, max_rounds, label)


def _run(tasks: list[_Task], jobs: int) -> Iterator[list[_Row]]:
    """Each task's rows, in task order: in this process for one job, else from a pool of `jobs` processes."""
    if jobs == 1 or len(tasks) == 1:
        yield from map(_play_chunk, tasks)
        return
    with multiprocessing.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(_play_chunk, tasks)


def _summarise(rows: list[_Row], rules: Rules, seed: int, max_rounds: int, label: str) -> SimulationResult:
    """Fold the per-game rows, in game order, into a SimulationResult."""
    outcomes = [row[0] for row in rows]
    lengths = tuple(row[1] for row in rows)
    ordered = sorted(lengths)
    chains = [row[3] for row in rows]
    longest = max(chains)
    return SimulationResult(
        label=label,
        rules=rules,
        seed=seed,
        max_rounds=max_rounds,
        games=len(rows),
        p1_wins=outcomes.count(P1_WIN),
        p2_wins=outcomes.count(P2_WIN),
        capped=outcomes.count(CAPPED),
        stalemates=outcomes.count(STALEMATE),
        rounds_mean=statistics.fmean(lengths),
        rounds_median=statistics.median(lengths),
        rounds_p90=_percentile(ordered, 90),
        rounds_p99=_percentile(ordered, 99),
        wars_mean=statistics.fmean(row[2] for row in rows),
        longest_war_chain=longest,
        longest_war_chain_game=chains.index(longest) if longest else -1,
        lengths=lengths,
    )


def _percentile(ordered: list[int], percent: int) -> int:
    """The nearest-rank percentile of an ascending list: the smallest value with `percent`% of values at or below."""
    rank = -(-percent * len(ordered) // 100)  # ceil(percent% of n), in whole numbers
    return ordered[max(rank, 1) - 1]


def progress_bar(stream: Any = None) -> Callable[[int, int], None] | None:
    """A progress(done, total) callback drawing a bar on stderr, or None when stderr is no terminal or CI is set."""
    stream = sys.stderr if stream is None else stream
    if "CI" in os.environ or not stream.isatty():
        return None

    def draw(done: int, total: int) -> None:
        filled = 30 * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\r" + " " * 60 + "\r")
        stream.flush()

    return draw


_ROWS: tuple[tuple[str, Callable[[SimulationResult], str]], ...] = (
    ("P1 wins", lambda r: f"{r.share(r.p1_wins):.2%}"),
    ("P2 wins", lambda r: f"{r.share(r.p2_wins):.2%}"),
    ("draws at the round cap", lambda r: f"{r.share(r.capped):.2%}"),
    ("draws, both short in a war", lambda r: f"{r.share(r.stalemates):.2%}"),
    ("rounds: mean", lambda r: f"{r.rounds_mean:.1f}"),
    ("rounds: median", lambda r: f"{r.rounds_median:g}"),
    ("rounds: 90th percentile", lambda r: str(r.rounds_p90)),
    ("rounds: 99th percentile", lambda r: str(r.rounds_p99)),
    ("wars per game: mean", lambda r: f"{r.wars_mean:.2f}"),
    ("longest war chain", lambda r: str(r.longest_war_chain)),
    ("  first in game number", lambda r: str(r.longest_war_chain_game)),
)


def format_text(results: list[SimulationResult]) -> str:
    """The results as a table, one column per rule set, and how to replay a game."""
    first = results[0]
    lines = [f"{first.games} games per rule set, seed {first.seed}, at most {first.max_rounds} rounds each"]
    lines += [f"  {chr(65 + i)}: {r.label}: {_rules_text(r.rules)}" for i, r in enumerate(results)]
    heads = [f"{chr(65 + i)}: {r.label}" for i, r in enumerate(results)]
    width = max(len(name) for name, _ in _ROWS) + 2
    columns = [max(10, len(head)) + 3 for head in heads]
    lines.append("")
    lines.append(" " * width + "".join(head.rjust(column) for head, column in zip(heads, columns)))
    for name, cell in _ROWS:
        lines.append(name.ljust(width) + "".join(cell(r).rjust(column) for r, column in zip(results, columns)))
    return "\n".join(lines)


def _rules_text(rules: Rules) -> str:
    """The rule fields as name=value pairs."""
    return ", ".join(f"{name}={value}" for name, value in to_plain(rules).items())


def to_json(results: list[SimulationResult]) -> dict[str, Any]:
    """The results as plain JSON values (every field but the per-game lengths, plus the shares)."""
    out = []
    for r in results:
        entry = {name: value for name, value in vars(r).items() if name != "lengths"}
        entry["rules"] = to_plain(r.rules)
        entry["shares"] = {
            "p1_wins": r.share(r.p1_wins),
            "p2_wins": r.share(r.p2_wins),
            "capped": r.share(r.capped),
            "stalemates": r.share(r.stalemates),
        }
        out.append(entry)
    return {"games": results[0].games, "seed": results[0].seed, "max_rounds": results[0].max_rounds, "results": out}
