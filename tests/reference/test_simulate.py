"""The simulator: seeded, independent of how many processes play, and honest about what play_game says."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from reference import Rules, play_game
from reference.__main__ import main
from reference.histogram import render_svg
from reference.rules import CPS506_RULES, PRESETS
from reference.simulate import SimulationResult, _percentile, game_seed, progress_bar, simulate

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """python -m reference simulate in this process: exit status, stdout, stderr."""
    try:
        status = main(["simulate", *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def test_game_seeds_depend_only_on_the_run_seed_and_the_game_number():
    """game_seed is a fixed function: the same (seed, i) always, different games different seeds."""
    assert game_seed(0, 0) == game_seed(0, 0)
    assert len({game_seed(seed, index) for seed in range(3) for index in range(100)}) == 300
    assert 0 <= game_seed(2**80, 7) < 2**63


def test_one_and_two_processes_give_the_same_result():
    """simulate(jobs=1) == simulate(jobs=2), down to the length of every game."""
    one = simulate(Rules(), games=48, seed=5, max_rounds=400, jobs=1)
    two = simulate(Rules(), games=48, seed=5, max_rounds=400, jobs=2)
    assert one == two


def test_the_numbers_are_those_of_play_game_on_the_derived_seeds():
    """Each game of the run is play_game(seed=game_seed(S, i)): wins, caps, lengths, wars and chains add up."""
    rules = Rules(face_down=1)
    result = simulate(rules, games=30, seed=11, max_rounds=250)
    games = [play_game(max_rounds=250, seed=game_seed(11, index), rules=rules) for index in range(30)]
    assert result.lengths == tuple(game.rounds for game in games)
    assert result.p1_wins == sum(game.winner == "P1" for game in games)
    assert result.p2_wins == sum(game.winner == "P2" for game in games)
    assert result.capped + result.stalemates == sum(game.winner == "draw" for game in games)
    assert result.wars_mean == pytest.approx(sum(game.wars for game in games) / 30)
    assert result.longest_war_chain == max(game.longest_war_chain for game in games)
    assert games[result.longest_war_chain_game].longest_war_chain == result.longest_war_chain


def test_a_short_cap_makes_every_long_game_a_draw_at_the_cap():
    """With max_rounds=5 no 54-card game can finish: every game is capped at 5 rounds."""
    result = simulate(Rules(), games=10, max_rounds=5)
    assert (result.capped, result.p1_wins + result.p2_wins + result.stalemates) == (10, 0)
    assert result.rounds_median == result.rounds_p99 == 5


def test_percentiles_take_the_nearest_rank():
    """The 90th percentile of 1..10 is 9, of 1..100 is 90; the 99th of 1..100 is 99; one value is its own."""
    assert _percentile(list(range(1, 11)), 90) == 9
    assert _percentile(list(range(1, 101)), 90) == 90
    assert _percentile(list(range(1, 101)), 99) == 99
    assert _percentile([7], 99) == 7


def test_the_result_is_a_frozen_dataclass():
    """A SimulationResult cannot be changed after the fact."""
    result = simulate(Rules(), games=2, max_rounds=10)
    assert isinstance(result, SimulationResult)
    with pytest.raises(AttributeError):
        result.games = 3  # type: ignore[misc]


@pytest.mark.parametrize(("games", "jobs", "max_rounds"), [(0, 1, 10), (5, 0, 10), (5, 1, -1)])
def test_impossible_sizes_are_value_errors(games, jobs, max_rounds):
    """games < 1, jobs < 1 or max_rounds < 0 raise ValueError."""
    with pytest.raises(ValueError):
        simulate(Rules(), games=games, jobs=jobs, max_rounds=max_rounds)


def test_the_progress_bar_shows_only_on_a_terminal_outside_ci(monkeypatch):
    """progress_bar() is None for a pipe or when CI is set, and draws to a terminal otherwise."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    assert progress_bar(io.StringIO()) is None
    terminal = Terminal()
    draw = progress_bar(terminal)
    assert draw is not None
    draw(5, 10)
    assert "5/10 games" in terminal.getvalue()
    monkeypatch.setenv("CI", "true")
    assert progress_bar(Terminal()) is None


def test_the_command_prints_the_same_numbers_with_one_or_two_jobs(capsys):
    """`simulate --jobs 1` and `--jobs 2` print the same table, every share, percentile and replay seed."""
    args = ("--games", "40", "--seed", "3", "--max-rounds", "300")
    one = run_cli(capsys, *args, "--jobs", "1")
    two = run_cli(capsys, *args, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]
    for row in ("P1 wins", "P2 wins", "draws at the round cap", "rounds: mean", "rounds: median",
                "rounds: 90th percentile", "rounds: 99th percentile", "wars per game: mean", "longest war chain"):
        assert re.search(rf"^{re.escape(row)} +\S+$", one[1], re.MULTILINE), row


def test_the_replay_line_replays_the_game_with_the_longest_war_chain(capsys):
    """The printed `python -m reference --seed N ...` command plays a game with the reported longest chain."""
    status, out, _ = run_cli(capsys, "--games", "30", "--max-rounds", "400", "--face-down", "1")
    assert status == 0
    chain = int(re.search(r"^longest war chain +(\d+)$", out, re.MULTILINE).group(1))
    command = re.search(r"python -m reference (--seed .*)$", out, re.MULTILINE).group(1).split()
    assert f"longest war chain {chain}," in run_cli_play(capsys, command)
    assert "--face-down 1" in " ".join(command)


def run_cli_play(capsys, args: list[str]) -> str:
    """python -m reference (one game) in this process: its output."""
    assert main(args) == 0
    return capsys.readouterr().out


def test_compare_plays_two_rule_sets_on_the_same_seeds_side_by_side(capsys):
    """`--compare --collect loser-first` shows A: handout and B: handout + collect=loser_first in two columns."""
    status, out, _ = run_cli(capsys, "--games", "20", "--max-rounds", "300", "--compare", "--collect", "loser-first")
    assert status == 0
    assert "A: handout" in out and "B: handout + collect=loser_first" in out
    assert re.search(r"^P1 wins +\S+% +\S+%$", out, re.MULTILINE)


def test_compare_with_a_preset_and_json_output(capsys):
    """`--compare cps506 --json` gives the numbers of cps506 and of the handout, in that order, as JSON."""
    status, out, _ = run_cli(capsys, "--games", "10", "--max-rounds", "200", "--compare", "cps506", "--json")
    assert status == 0
    data = json.loads(out)
    assert [entry["label"] for entry in data["results"]] == ["cps506", "handout"]
    assert data["results"][0]["rules"]["deck"] == "standard"
    assert data["results"][1]["games"] == 10
    shares = data["results"][1]["shares"]
    assert sum(shares.values()) == pytest.approx(1)


def test_compare_puts_every_preset_side_by_side_on_the_same_seeds(capsys):
    """`--compare handout cps506 skiena dsl --json`: four results in that order, each the preset's own simulate."""
    status, out, _ = run_cli(capsys, "--games", "24", "--max-rounds", "300", "--seed", "4", "--compare", "handout",
                             "cps506", "skiena", "dsl", "--json")
    assert status == 0
    data = json.loads(out)
    assert [entry["label"] for entry in data["results"]] == ["handout", "cps506", "skiena", "dsl"]
    for entry in data["results"]:
        alone = simulate(PRESETS[entry["label"]], games=24, seed=4, max_rounds=300)
        assert (entry["p1_wins"], entry["p2_wins"], entry["capped"], entry["rounds_mean"], entry["wars_mean"]) == (
            alone.p1_wins, alone.p2_wins, alone.capped, alone.rounds_mean, alone.wars_mean)


def test_compare_of_four_presets_prints_four_columns_and_a_replay_line_each(capsys):
    """The table has columns A: handout .. D: dsl; every column with a war has its own replay command."""
    status, out, _ = run_cli(capsys, "--games", "20", "--max-rounds", "300", "--compare", "handout", "cps506",
                             "skiena", "dsl")
    assert status == 0
    assert re.search(r"^ +A: handout +B: cps506 +C: skiena +D: dsl$", out, re.MULTILINE)
    assert re.search(r"^P1 wins( +\S+%){4}$", out, re.MULTILINE)
    replays = re.findall(r"^replay ([A-D])'s game with the longest war chain: python -m reference (.*)$", out,
                         re.MULTILINE)
    assert [letter for letter, _ in replays] == ["A", "B", "C", "D"]
    assert [command.split("--max-rounds 300")[1].strip() for _, command in replays] == [
        "", "--preset cps506", "--preset skiena", "--preset dsl"]


def test_compare_with_presets_adds_the_rules_given_when_they_are_new(capsys):
    """`--compare handout cps506 --face-down 1`: handout, cps506, then handout + face_down=1 as a third column."""
    status, out, _ = run_cli(capsys, "--games", "6", "--max-rounds", "100", "--compare", "handout", "cps506",
                             "--face-down", "1", "--json")
    assert status == 0
    labels = [entry["label"] for entry in json.loads(out)["results"]]
    assert labels == ["handout", "cps506", "handout + face_down=1"]


def test_the_plot_of_four_presets_has_one_colour_each(tmp_path, capsys):
    """--plot with four presets: four groups of bars in four colours, each counting every game."""
    plot = tmp_path / "four.svg"
    status, _, _ = run_cli(capsys, "--games", "15", "--max-rounds", "300", "--plot", str(plot), "--compare",
                           "handout", "cps506", "skiena", "dsl")
    assert status == 0
    groups = list(ElementTree.parse(plot).getroot().iter(f"{SVG}g"))
    assert len({group.get("fill") for group in groups}) == len(groups) == 4
    for group in groups:
        titles = [bar.find(f"{SVG}title").text for bar in group.iter(f"{SVG}rect")]
        assert sum(int(re.search(r": (\d+) games of", title).group(1)) for title in titles) == 15


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "argument --games: must be >= 1, not 0"),
        (("--jobs", "two"), "argument --jobs: must be a whole number, not 'two'"),
        (("--compare",), "--compare needs two different rule sets"),
        (("--compare", "bogus"), "--compare: unknown preset 'bogus'"),
        (("--compare", "handout", "bogus"), "--compare: unknown preset 'bogus' (choose one of handout, cps506, skiena, dsl)"),
        (("--compare", "cps506", "cps506"), "--compare: cps506 plays the same rules as a preset named before it"),
        (("--compare", "cps506", "--preset", "cps506"), "--compare needs two different rule sets"),
        (("--deck", "standard", "--high-card", "Jo"), "high_card must be one of"),
        (("--plot", "/no/such/folder/plot.svg", "--games", "2"), "cannot write --plot /no/such/folder/plot.svg"),
    ],
)
def test_errors_a_user_can_fix_are_one_line_and_exit_2(capsys, args, message):
    """Bad sizes, a comparison with nothing to compare, an unknown preset, an unwritable plot: one line, exit 2."""
    status, out, err = run_cli(capsys, *args)
    assert status == 2
    assert err.count("\n") == 1 and message in err


def test_the_plot_is_well_formed_svg_counting_every_game(tmp_path, capsys):
    """--plot writes an SVG that parses as XML, whose bars (one colour per rule set) count all the games."""
    plot = tmp_path / "lengths.svg"
    status, out, _ = run_cli(capsys, "--games", "25", "--max-rounds", "300", "--plot", str(plot), "--compare",
                             "--face-down", "1")
    assert status == 0 and f"histogram written to {plot}" in out
    root = ElementTree.parse(plot).getroot()
    assert root.tag == f"{SVG}svg"
    groups = [group for group in root.iter(f"{SVG}g")]
    assert len(groups) == 2
    for group in groups:
        titles = [bar.find(f"{SVG}title").text for bar in group.iter(f"{SVG}rect")]
        assert sum(int(re.search(r": (\d+) games of", title).group(1)) for title in titles) == 25


def test_the_histogram_escapes_its_text_and_copes_with_an_empty_series():
    """render_svg: a label with < and & stays well-formed XML; an empty series draws no bar."""
    svg = render_svg([("a < b & c", [1, 2, 2, 30]), ("none", [])], "lengths <test>", max_rounds=30)
    root = ElementTree.fromstring(svg.split("\n", 1)[1])
    assert root.find(f"{SVG}title").text == "lengths <test>"
    assert len(list(root.iter(f"{SVG}g"))) == 2


def test_the_simulator_plays_the_cps506_preset_too():
    """simulate(CPS506_RULES) plays its games under the preset, each ending in one of the four ways."""
    result = simulate(CPS506_RULES, games=12, max_rounds=2000)
    assert result.games == 12 and result.rules == CPS506_RULES
    assert result.p1_wins + result.p2_wins + result.capped + result.stalemates == 12
    assert result.label == "" and min(result.lengths) > 0


def test_the_command_runs_as_a_module_with_two_jobs():
    """`python -m reference simulate --games 20 --jobs 2` in a subprocess exits 0 and prints the table."""
    done = subprocess.run(
        [sys.executable, "-m", "reference", "simulate", "--games", "20", "--jobs", "2", "--max-rounds", "300"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "20 games per rule set, seed 0" in done.stdout
    assert done.stderr == ""
