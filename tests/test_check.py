"""``balance check FILE.toml``: targets decided like tests, their outputs and exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, call_main, forbid_games, simulate_json

from balance.analyses.check import load_checks
from balance.core.errors import BalanceError

SCENARIO = """\
[[scenario]]
name = "four players"
game = "walk-the-plank"
players = 4
max_games = {max_games}
"""


def target(
    metric: str,
    low: float | None = None,
    high: float | None = None,
    tolerance: float | None = None,
) -> str:
    lines = ["", "[[scenario.target]]", f'metric = "{metric}"']
    for key, value in (("min", low), ("max", high), ("tolerance", tolerance)):
        if value is not None:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "targets.toml"
    path.write_text(text)
    return path


def test_clear_targets_pass_and_fail_within_a_few_blocks(tmp_path, monkeypatch, capsys) -> None:
    text = (
        SCENARIO.format(max_games=40_000)
        + target("seat_win_rate.0", 0.2, 0.5)
        + target("length_mean", 2.0)
        + target("winner_count.0", high=0.01)  # about 2.7% of games have no winner
    )
    code, out, err = call_main(monkeypatch, capsys, "check", write(tmp_path, text), "--json")
    assert code == 1, err
    result = json.loads(out)
    (scenario,) = result["scenarios"]
    verdicts = {row["metric"]: row["verdict"] for row in scenario["targets"]}
    assert verdicts == {"seat_win_rate.0": "pass", "length_mean": "pass", "winner_count.0": "fail"}
    assert scenario["games"] <= 3 * 4096  # every target settled within a few blocks
    for row in scenario["targets"]:
        low, high = row["interval"]
        assert low <= row["value"] <= high
        assert set(row) >= {"metric", "min", "max", "value", "interval", "verdict"}


def test_a_target_on_its_edge_stays_undecided(tmp_path, monkeypatch, capsys) -> None:
    # Seat 0 wins about 34% of base four-player games: a band edge there cannot be
    # settled in 8,192 games.
    text = SCENARIO.format(max_games=8192) + target("seat_win_rate.0", 0.344)
    path = write(tmp_path, text)
    junit, markdown = tmp_path / "check.xml", tmp_path / "check.md"
    code, out, err = call_main(
        monkeypatch, capsys, "check", path, "--junit", junit, "--markdown", markdown
    )
    assert code == 3, err
    assert "undecided" in out.lower() and "8,192 games" in out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "1" and suite.get("skipped") == "1"
    assert suite.find("testcase/skipped") is not None
    assert "| seat_win_rate.0 |" in markdown.read_text()


def test_a_saved_baseline_finds_the_unchanged_game_unchanged(tmp_path, monkeypatch, capsys) -> None:
    # Seat 1 wins about 35% of four-player games; a tolerance of 3 points.
    text = SCENARIO.format(max_games=100_000) + target("seat_win_rate.1", 0.25, 0.45, 0.03)
    path = write(tmp_path, text)
    baseline = tmp_path / "baseline.json"
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--save-baseline", baseline)
    assert code == 0, err
    (row,) = json.loads(baseline.read_text())["scenarios"][0]["targets"]
    # Played on until the 95% half-width is within a third of the tolerance.
    assert 1.96 * row["se"] <= 0.01 and row["games_played"] > row["games"]
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--baseline", baseline, "--json")
    assert code == 0, err
    rows = json.loads(out)["scenarios"][0]["targets"]
    (compared,) = [r for r in rows if "baseline" in r]
    assert compared["verdict"] == "pass"
    assert compared["games"] == compared["baseline_games"] == row["games_played"]
    # The same seed plays the same games: no difference, and the interval of the
    # difference holds both standard errors.
    assert compared["difference"] == 0
    half = (compared["interval"][1] - compared["interval"][0]) / 2
    assert half == pytest.approx(1.96 * np.sqrt(2) * row["se"], rel=1e-3)
    # A baseline 20 points away: the figure moved.
    saved = json.loads(baseline.read_text())
    saved["scenarios"][0]["targets"][0]["value"] += 0.2
    baseline.write_text(json.dumps(saved))
    junit = tmp_path / "check.xml"
    code, out, _ = call_main(
        monkeypatch, capsys, "check", path, "--baseline", baseline, "--junit", junit
    )
    assert code == 1
    assert "MOVED" in out and "against the baseline" in out and "0 unchanged, 1 moved" in out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert "moved by more than the tolerance" in suite.find("testcase/failure").get("message")


def test_a_short_baseline_leaves_an_unchanged_game_undecided_not_moved(
    tmp_path, monkeypatch, capsys
) -> None:
    # The 4,096 games a clear target needs are too few for a tolerance of a point: the
    # comparison says so (undecided, exit code 3) instead of calling the game moved.
    path = write(tmp_path, SCENARIO.format(max_games=100_000) + target("seat_win_rate.1", 0.25))
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--json")
    assert code == 0, err
    baseline = tmp_path / "baseline.json"
    baseline.write_text(out)
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--baseline", baseline)
    assert code == 3, out
    assert "1 undecided" in out and "--save-baseline" in out


def test_a_baseline_cut_short_by_max_games_says_which_figures_fell_short(
    tmp_path, monkeypatch, capsys
) -> None:
    text = (
        SCENARIO.format(max_games=4096)
        + target("seat_win_rate.1", 0.25)
        + target("length_mean", 1, None, 5)
    )
    baseline = tmp_path / "baseline.json"
    code, out, err = call_main(
        monkeypatch, capsys, "check", write(tmp_path, text), "--save-baseline", baseline
    )
    assert code == 0, err
    assert "Saved as a baseline" in out
    (warning,) = err.splitlines()  # the length's tolerance of 5 rounds is met
    assert warning.startswith("warning: four players: seat_win_rate.1 rests on 4,096 games")
    assert "raise max_games" in warning


def test_old_baselines_and_the_old_tolerance_option_are_refused(
    tmp_path, monkeypatch, capsys
) -> None:
    path = write(tmp_path, SCENARIO.format(max_games=4096) + target("seat_win_rate.1", 0.25))
    forbid_games(monkeypatch)
    baseline = tmp_path / "baseline.json"
    row = {"metric": "seat_win_rate.1", "value": 0.35, "interval": [0.33, 0.37], "games": 4096}
    baseline.write_text(json.dumps({"scenarios": [{"name": "four players", "targets": [row]}]}))
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--baseline", baseline)
    assert_one_line_error(code, out, err, "without standard errors", "--save-baseline")
    code, out, err = call_main(monkeypatch, capsys, "check", path, "--tolerance", 0.01)
    assert_one_line_error(code, out, err, "tolerance = 0.01", "[[scenario.target]]")


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (SCENARIO.format(max_games=10) + target("no_such_metric", 1), 8, "no checkable metric"),
        (SCENARIO.format(max_games=10) + target("seat_win_rate.4", 0.1), 8, "seat_win_rate.3"),
        (SCENARIO.format(max_games=10) + target("length_mean", 9, 7), 9, "min (9) is above max"),
        (SCENARIO.format(max_games=10) + target("length_mean"), 8, "min, max or both"),
        (SCENARIO.format(max_games=10) + target("seat_win_rate.0", 60), 9, "0.6 for 60%"),
        (SCENARIO.format(max_games=10) + target("balance_index", 0.9, 1.5), 10, "from 0 to 1"),
        (SCENARIO.format(max_games=10) + target("length_mean", -1), 9, "length_mean"),
        (SCENARIO.format(max_games=10) + target("finished_rate", 0.9, None, 2), 10, "below 1"),
        (SCENARIO.format(max_games=10) + target("length_mean", 1, None, 0), 10, "above 0"),
        (SCENARIO.format(max_games=10).replace("walk-the-plank", "chess"), 3, "chess"),
        (SCENARIO.format(max_games=10).replace("players = 4", "players = 9"), 4, "players"),
        (SCENARIO.format(max_games=0) + target("length_mean", 1), 5, "max_games"),
        (SCENARIO.format(max_games=10) + "colour = 1\n" + target("length_mean", 1), 6, "colour"),
        (SCENARIO.format(max_games=10) + "rules = { plank_max = 99 }\n", 6, "plank_max"),
        (SCENARIO.format(max_games=10), 1, "at least one [[scenario.target]]"),
        (
            SCENARIO.format(max_games=10)
            + target("length_mean", 1).replace("[[scenario.target]]", "[scenario.target]"),
            7,
            "write [[scenario.target]], with double brackets",
        ),
        (
            SCENARIO.format(max_games=10).replace("[[scenario]]", "[scenario]")
            + target("length_mean", 1),
            1,
            "write [[scenario]], with double brackets",
        ),
        (
            "# targets\n\n" + SCENARIO.format(max_games=10).replace("[[scenario]]", "[scenario]"),
            3,
            "write [[scenario]], with double brackets",
        ),
        (
            SCENARIO.format(max_games=10) + target("length_mean", 1) + "tolerence = 0.1\n",
            10,
            "fields: metric, min, max, tolerance",
        ),
        ("[[scenario]\nname = 1\n", 1, "targets.toml:1:"),
        (SCENARIO.format(max_games=10) + "players = 3\n", 6, "a key given twice"),
        (
            SCENARIO.format(max_games=10)
            + target("length_mean", 1).replace("[[scenario.target]]", "[scenario.target]")
            + target("length_mean", 2),
            11,
            "(double brackets) is meant",
        ),
        (
            SCENARIO.format(max_games=10)
            + target("length_mean", 1).replace("scenario.target", "scenario.targets"),
            7,
            "unknown field 'targets'",
        ),
    ],
)
def test_bad_files_name_their_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(BalanceError) as error:
        load_checks(path)
    message = str(error.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert fragment in message, message


def test_bad_input_is_one_line_and_exit_two(tmp_path, monkeypatch, capsys) -> None:
    path = write(tmp_path, SCENARIO.format(max_games=10) + target("length_mean", 9, 7))
    assert_one_line_error(*call_main(monkeypatch, capsys, "check", path), ":9: min (9)")
    path = write(tmp_path, SCENARIO.format(max_games=10) + target("seat_win_rate.0", 60))
    assert_one_line_error(*call_main(monkeypatch, capsys, "check", path), ":9: min of")
    assert_one_line_error(*call_main(monkeypatch, capsys, "check", tmp_path / "none.toml"))


@pytest.mark.parametrize("option", ["--junit", "--markdown"])
def test_an_output_that_cannot_be_written_is_bad_input_not_a_failed_target(
    tmp_path, monkeypatch, capsys, option: str
) -> None:
    # Exit code 1 would say a target failed: a place that cannot be written is exit
    # code 2, said before any game is played.
    path = write(tmp_path, SCENARIO.format(max_games=4096) + target("length_mean", 1))
    (tmp_path / "afile").write_text("in the way")
    forbid_games(monkeypatch)
    blocked = tmp_path / "afile" / "check.out"
    code, out, err = call_main(monkeypatch, capsys, "check", path, option, blocked)
    assert_one_line_error(code, out, err, "cannot write", str(blocked))
    code, out, err = call_main(monkeypatch, capsys, "check", path, option, tmp_path)
    assert_one_line_error(code, out, err, option, "is a directory, not a file")


def test_the_shipped_example_loads() -> None:
    scenarios = load_checks(Path(__file__).parent.parent / "examples" / "targets.toml")
    assert [len(s.targets) for s in scenarios] == [3, 2]


def test_a_scenario_plays_its_own_seed_as_simulate_does(tmp_path, monkeypatch, capsys) -> None:
    # Two scenarios that differ only in their seed play different games, and each plays
    # the games `balance simulate` plays with that seed.
    text = ""
    for seed in (1, 2):
        scenario = SCENARIO.format(max_games=4096).replace("four players", f"seed {seed}")
        text += scenario + f"seed = {seed}\n" + target("seat_win_rate.0", 0.0, 1.0)
    code, out, err = call_main(monkeypatch, capsys, "check", write(tmp_path, text), "--json")
    assert code == 0, err
    values = [s["targets"][0]["value"] for s in json.loads(out)["scenarios"]]
    assert [s["seed"] for s in json.loads(out)["scenarios"]] == [1, 2]
    assert values[0] != values[1]
    code, out, err = call_main(monkeypatch, capsys, "check", write(tmp_path, text))
    assert "seed 1: walk-the-plank, 4 players, seed 1, 4,096 games" in out
    for seed, value in zip((1, 2), values, strict=True):
        summary = simulate_json("walk-the-plank", "-p", 4, "--games", 4096, "--seed", seed)
        assert value == summary["seat_win_rate"][0]["rate"]


def test_an_undecided_comparison_says_why() -> None:
    # A precise baseline and a difference close to the tolerance: not a baseline too
    # imprecise for its tolerance, but a figure that moved by about the tolerance.
    from balance.analyses.check import check_text

    def compared(metric: str, difference: float, half: float) -> dict:
        return {
            "metric": metric,
            "baseline": 7.8,
            "baseline_se": 0.01,
            "baseline_games": 81_920,
            "tolerance": 0.1,
            "value": 7.8 + difference,
            "se": 0.01,
            "difference": difference,
            "interval": [difference - half, difference + half],
            "verdict": "undecided",
            "games": 81_920,
        }

    scenario = {"name": "four players", "game": "walk-the-plank", "players": 4}
    close = {**scenario, "games": 81_920, "max_games": 100_000}
    close["targets"] = [compared("length_mean", -0.125, 0.027)]
    text = check_text({"scenarios": [close]})
    assert "close to the tolerance" in text and "four players: length_mean" in text
    assert "for want of games" not in text
    for difference, half in ((0.0, 0.15), (-0.035, 0.099)):
        close["targets"] = [compared("length_mean", difference, half)]
        text = check_text({"scenarios": [close]})
        assert "for want of games" in text and "--save-baseline" in text
        assert "close to the tolerance" not in text
