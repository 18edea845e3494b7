"""``balance tune``: racing rule sets against design targets.

What a designer relies on: a candidate's figures are ``balance sweep``'s at its games; a
verdict is ``balance check``'s on the same games; the result does not depend on threads,
backend, interruption or resumption; a budget is never exceeded; bad input is one line.
"""

from __future__ import annotations

import json
import math
import signal
import sys

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke

from balance.analyses import sweep as sweep_module
from balance.analyses import tune as tune_module
from balance.analyses.check import Target as Sequential
from balance.analyses.check import metric_for, per_game
from balance.analyses.sweep import sweep
from balance.analyses.sweep_design import parse_target
from balance.analyses.sweep_tally import tally_block
from balance.analyses.tune import TUNE_BLOCK, tune
from balance.analyses.tune_race import CandidateRace
from balance.games import get_game

GAME = "walk-the-plank"
#: Twelve rule sets of five-player Walk the Plank, the docs' worked example.
SPACE = dict(
    players=[5],
    axes=["plank_max=3..6", "pirates_per_player=2..4"],
    targets=["balance_index>=0.95", "length_mean=6..10"],
)
#: A smaller space, with one candidate left undecided at a low cap.
SMALL = dict(
    players=[4],
    axes=["plank_max=3..5"],
    targets=["length_mean=7.8..9"],
    block=512,
    max_games=8192,
)


def _stable(data: dict) -> dict:
    """A tune's JSON without what depends on the machine (time, backend, speculation)."""
    return {k: v for k, v in data.items() if k not in ("elapsed_s", "backend", "games_played")}


@pytest.fixture(scope="module")
def raced() -> tune_module.TuneResult:
    return tune(GAME, **SPACE, threads=2, charts=False)


def test_the_race_finds_the_rule_sets_a_long_sweep_confirms(raced) -> None:
    """Every verdict agrees with a sweep of 40,000 games a point judged on its fixed-n
    intervals (where that sweep decides), and tune spends far fewer games."""
    long = sweep(GAME, **SPACE, games=40_000)
    decided = 0
    for point, candidate in zip(long.points, raced.points, strict=True):
        assert point["axis_values"] == candidate["axis_values"]
        verdicts = set(point["verdicts"].values())
        if "fail" in verdicts:
            assert candidate["verdict"] == "fail", candidate["reason"]
            decided += 1
        elif verdicts == {"pass"}:
            assert candidate["verdict"] == "pass", candidate["reason"]
            decided += 1
    assert decided >= 10
    assert raced.games_total < 0.3 * 40_000 * len(raced.points)
    assert [p["verdict"] for p in raced.points].count("pass") >= 1


def test_a_candidates_figures_are_the_sweeps_at_its_games(raced) -> None:
    """A candidate over its games is ``balance sweep`` (and so ``simulate``) at those
    games: every figure equal, the targeted ones with their anytime-valid interval."""
    for candidate in raced.points[:3]:
        fixed = [f"{k}={v}" for k, v in candidate["axis_values"].items() if k != "players"]
        point = sweep(GAME, players=[5], axes=fixed, games=candidate["games"]).points[0]
        assert point["games"] == candidate["games"]
        ours, theirs = candidate["metrics"], point["metrics"]
        assert ours["seat_win_rate"] == theirs["seat_win_rate"]
        assert ours["winner_count"] == theirs["winner_count"]
        assert ours["finished_rate"] == theirs["finished_rate"]
        for figure in ("balance_index", "length_mean"):
            assert ours[figure]["value"] == theirs[figure]["value"]
            assert (
                ours[figure]["ci95"]
                == candidate["intervals"][next(t for t in SPACE["targets"] if t.startswith(figure))]
            )


def test_one_candidate_one_target_is_decided_as_balance_check_decides_it() -> None:
    """With one target the race is ``balance check``'s: the same sequence fed the same
    games block by block (there from per-game records, here from outcome counts), each
    block's bet aimed at the band's edge, gives the same verdict at the same game and
    the same interval."""
    result = tune(GAME, players=[4], axes=["plank_max=4"], targets=["length_mean<=8.4"])
    (candidate,) = result.points
    values = {"players": "4", "plank_max": "4"}
    setup = tune_module.setup_for(GAME, values, [], 0, ("random",), False, {})
    metric = metric_for("length_mean", setup)
    target = Sequential(metric, None, 8.4, 4)
    game = get_game(GAME)
    start = 0
    while not target.decide():
        block = tally_block(game, setup, start, TUNE_BLOCK)
        x = (per_game(metric, block)[:, 0] - metric.low) / (metric.high - metric.low)
        target.cs.update_sums(TUNE_BLOCK, x.sum(), (x * x).sum(), target.stake_target())
        start += TUNE_BLOCK
    assert candidate["verdict"] == target.verdict and candidate["games"] == target.decided_at
    low, high = candidate["intervals"]["length_mean<=8.4"]
    assert low == pytest.approx(target.interval()[0], abs=1e-9)
    assert high == pytest.approx(target.interval()[1], abs=1e-9)


def test_the_targets_share_the_five_percent_and_the_seats_share_the_index_part() -> None:
    setup = tune_module.setup_for(GAME, {"players": "5"}, [], 0, ("random",), False, {})
    race = CandidateRace(setup, [parse_target(t) for t in SPACE["targets"]], 4096)
    index, length = race.sequences
    assert index.cs.alpha == pytest.approx(0.05 / 2 / 5)
    assert length.cs.alpha == pytest.approx(0.05 / 2)


def test_the_result_does_not_depend_on_threads_or_block_order() -> None:
    one = tune(GAME, **SMALL, threads=1, charts=False)
    two = tune(GAME, **SMALL, threads=2, charts=False)
    assert _stable(one.to_json()) == _stable(two.to_json())


def test_a_capped_candidate_is_undecided_with_what_it_would_need() -> None:
    result = tune(GAME, **SMALL, charts=False)
    verdicts = {p["axis_values"]["plank_max"]: p for p in result.points}
    undecided = [p for p in result.points if p["verdict"] == "undecided"]
    assert undecided, [p["reason"] for p in result.points]
    for point in undecided:
        assert point["games"] == SMALL["max_games"] and point["capped_by"] == "max_games"
        (need,) = point["needs"].values()
        assert need["games"] is None or need["games"] > SMALL["max_games"]
        assert "undecided at --max-games" in point["reason"]
    assert "Undecided" in result.text() and "after 8,192 games" in result.text()
    assert set(verdicts) == {"3", "4", "5"}


def test_feasible_rule_sets_come_fewest_changes_first_then_nearest_the_middle(raced) -> None:
    feasible = raced.feasible()
    keys = [(p["changes"], p["middle_distance"], p["point"]) for p in feasible]
    assert keys == sorted(keys) and [p["rank"] for p in feasible] == list(range(1, len(keys) + 1))
    data = raced.to_json()
    assert [f["point"] for f in data["feasible"]] == [p["point"] for p in feasible]
    defaults = get_game(GAME).default_rules().to_dict()
    for point in raced.points:
        changed = sum(point["rules"][k] != defaults[k] for k in point["rules"])
        assert point["changes"] == changed
        assert point["reason"] and "\n" not in point["reason"]
        if point["verdict"] == "fail":
            assert point["decided_by"] in SPACE["targets"]
            assert point["verdicts"][point["decided_by"]] == "fail"
    assert data["games_total"] == sum(p["games"] for p in raced.points)
    assert all(p["games"] % TUNE_BLOCK == 0 for p in raced.points)


def test_resume_races_only_what_is_missing_and_gives_the_same_result(tmp_path, monkeypatch) -> None:
    out = tmp_path / "tune"
    whole = tune(GAME, **SMALL, out=out, charts=False)
    assert len(list((out / "candidates").glob("*.npz"))) == len(whole.points)
    (out / "candidates" / "00001.npz").unlink()
    played: list[dict] = []
    play = sweep_module.play_tally

    def recorded(setup, start, size, baseline=None):
        played.append(setup.rules.to_dict())
        return play(setup, start, size, baseline)

    monkeypatch.setattr(sweep_module, "play_tally", recorded)
    again = tune(GAME, **SMALL, out=out, resume=True, charts=False)
    # Only candidate 1 is raced again (with a few blocks of look-ahead past its stop).
    assert played and {r["plank_max"] for r in played} == {whole.points[1]["rules"]["plank_max"]}
    assert again.games_played >= whole.points[1]["games"]
    assert _stable(again.to_json()) == _stable(whole.to_json())
    assert tune_module.load_tune(out)["points"] == again.to_json()["points"]
    with pytest.raises(tune_module.BalanceError, match="cannot read"):
        tune_module.load_tune(tmp_path)
    with pytest.raises(tune_module.BalanceError, match="differs in targets"):
        tune(GAME, **{**SMALL, "targets": ["length_mean=7..9"]}, out=out, resume=True)


def test_ctrl_c_keeps_the_decided_candidates_and_resume_finishes(tmp_path, monkeypatch) -> None:
    out = tmp_path / "tune"
    whole = tune(GAME, **SMALL, charts=False)
    decided = tune_module.Tuner.decided

    def decided_then_ctrl_c(self, number, tally):
        decided(self, number, tally)
        if len(self.outcomes) == 1:
            signal.raise_signal(signal.SIGINT)  # the user presses Ctrl-C

    monkeypatch.setattr(tune_module.Tuner, "decided", decided_then_ctrl_c)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cut = tune(GAME, **SMALL, threads=1, out=out, charts=False)
    finally:
        signal.signal(signal.SIGINT, before)
    assert cut.partial and 1 <= len(cut.points) < len(whole.points)
    monkeypatch.undo()
    rest = tune(GAME, **SMALL, out=out, resume=True, charts=False)
    assert not rest.partial
    assert _stable(rest.to_json()) == _stable(whole.to_json())


def test_the_optimiser_is_reproducible_and_keeps_within_its_budget() -> None:
    pytest.importorskip("optuna")
    args = dict(
        players=[4],
        axes=["plank_max=3:8", "pirates_per_player=1..4"],
        targets=["length_mean=7..9"],
        budget=60_000,
        block=512,
        charts=False,
    )
    first = tune(GAME, **args)
    second = tune(GAME, **args, threads=1)
    assert _stable(first.to_json()) == _stable(second.to_json())
    assert first.search == "optuna" and first.games_total <= 60_000
    explored = first.to_json()["explored"]
    assert explored["space"] == 24 and explored["candidates"] == len(first.points)
    assert explored["share"] == pytest.approx(len(first.points) / 24)
    assert explored["proposals"] == len(first.points) + explored["repeats"]
    assert "rule sets" in first.text() and "TPE" in first.text()
    keys = [tuple(p["axis_values"].items()) for p in first.points]
    assert len(keys) == len(set(keys))  # a repeat costs no games


def test_an_optimisers_tune_resumes_where_it_stopped(tmp_path) -> None:
    """The seeded sampler proposes again what it proposed before; candidates found in
    --out are read back and told, the missing ones raced; a changed history is refused."""
    pytest.importorskip("optuna")
    args = dict(
        players=[4], axes=["plank_max=3:8"], targets=["length_mean=7..9"], budget=40_000,
        block=512, charts=False,
    )  # fmt: skip
    out = tmp_path / "tune"
    whole = tune(GAME, **args, out=out)
    (out / "candidates" / "00002.npz").unlink()
    again = tune(GAME, **args, out=out, resume=True)
    assert _stable(again.to_json()) == _stable(whole.to_json())
    saved = out / "candidates" / "00001.json"
    outcome = json.loads(saved.read_text())
    outcome["axis_values"]["plank_max"] = "99"
    saved.write_text(json.dumps(outcome))
    with pytest.raises(tune_module.BalanceError, match="proposed"):
        tune(GAME, **args, out=out, resume=True)


def test_without_optuna_a_large_space_is_a_one_line_error(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)
    code, out, err = call_main(
        monkeypatch, capsys, "tune", GAME, "--axis", "plank_max=3:8", "--target",
        "length_mean=6..10",
    )  # fmt: skip
    assert_one_line_error(code, out, err, 'pip install -e ".[tune]"')


def test_the_command_prints_the_feasible_rule_sets_and_saves_its_files(tmp_path) -> None:
    out = tmp_path / "tune"
    text = invoke(
        "tune", GAME, "-p", "4", "--axis", "plank_max=3..5", "--target", "length_mean=7.8..9",
        "--block", "512", "--max-games", "8192", "--out", out,
    )  # fmt: skip
    assert "raced 3 of 3 rule sets" in text and "wrong with at most 5% chance" in text
    assert "note: every seat plays at random" in text
    for name in ("tune.json", "tune.csv", "tune.parquet", "verdicts.csv", "manifest.json"):
        assert (out / name).exists(), name
    data = json.loads(
        invoke(
            "tune", GAME, "-p", "4", "--axis", "plank_max=3..5", "--target",
            "length_mean=7.8..9", "--block", "512", "--max-games", "8192", "--json",
        )
    )  # fmt: skip
    for point in data["points"]:
        assert {"rules", "verdict", "games", "metrics"} <= set(point)
        assert point["verdict"] in ("pass", "fail", "undecided")
    assert data["games_total"] == sum(p["games"] for p in data["points"])
    assert math.isclose(data["per_candidate_error"], 0.05)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--axis", "nope=1..3", "--target", "length_mean<9"], "unknown axis 'nope'"),
        (["--axis", "plank_max=5..3", "--target", "length_mean<9"], "is empty"),
        (["--axis", "plank_max=5:3", "--target", "length_mean<9"], "is empty"),
        (["--axis", "plank_max=2.5:6", "--target", "length_mean<9"], "takes whole numbers"),
        (["--axis", "rest=1:3", "--target", "length_mean<9"], "samples numbers"),
        (["--axis", "plank_max=3..5", "--target", "reveals_charge>=0.1"], "known bounds"),
        (["--axis", "plank_max=3..5", "--target", "seat_win_rate.7>=0.1"], "known bounds"),
        (["--axis", "plank_max=3..5"], "at least one --target"),
        (["--axis", "plank_max=3..5", "--target", "length_mean<9", "--budget", "0"], "--budget"),
        (["--axis", "plank_max=3..5", "--target", "length_mean<9", "--max-games", "9"], "block"),
        (["--axis", "plank_max=3..5", "--target", "length_mean<9", "--resume"], "--out"),
        (["--axis", "plank_max=3:50", "--target", "length_mean<9"], "outside the allowed"),
        (
            ["--axis", "plank_max=3:5", "--target", "length_mean<9", "--search", "grid"],
            "sampled",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, args, fragment) -> None:
    code, out, err = call_main(monkeypatch, capsys, "tune", GAME, "-p", "5", *args)
    assert_one_line_error(code, out, err, fragment)


def test_a_sweep_refuses_a_sampled_range_in_one_line(monkeypatch, capsys) -> None:
    code, out, err = call_main(monkeypatch, capsys, "sweep", GAME, "--axis", "plank_max=3:5")
    assert_one_line_error(code, out, err, "write plank_max=3..5")


def test_the_python_api_and_facade_give_the_same_tune() -> None:
    from balance import api
    from balance.tune import tune as facade

    assert api.tune is tune and facade is tune
    assert np.isfinite(tune(GAME, **SMALL, charts=False).games_total)


def test_rule_sets_that_play_the_same_games_are_marked() -> None:
    """No four-player game reaches round 60, so round caps of 60 to 62 and the default
    100 play the same games on common random numbers: each points at the default."""
    result = tune(
        GAME, players=[4], axes=["round_cap=60,61,100,62"], targets=["length_mean<=20"],
        charts=False,
    )  # fmt: skip
    same = {p["rules"]["round_cap"]: p["same_games_as"] for p in result.points}
    assert same == {60: 2, 61: 2, 100: None, 62: 2}
    assert "plays the same games as candidate 2" in result.text()
    from balance.analyses.tune_charts import findings_lines

    assert any("3 of the rule sets raced play exactly" in line for line in findings_lines(result))
    other = tune(GAME, players=[4], axes=["plank_max=3..4"], targets=["length_mean<=20"])
    assert [p["same_games_as"] for p in other.points] == [None, None]
