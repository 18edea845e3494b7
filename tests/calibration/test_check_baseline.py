"""Calibration of ``balance check --baseline``: an unchanged game, saved as a baseline from
one seed and rerun from another, from known truth.

A known-truth player stands in for the game's kernel (thousands of runs take seconds):
each game has one winner at most, seat ``s`` winning with :data:`CLEAR` (or
:data:`TIED`) rates, and a geometric length under the cap. The baseline is saved as
``--save-baseline`` saves it (:func:`balance.analyses.check.run_checks` with ``precise``) and the
rerun compared with it by :func:`balance.analyses.check.add_baseline`, as the command does.

At a tolerance near zero a comparison is *moved* exactly when the 95% interval of the
difference leaves out 0, the true difference: the share of runs called moved is one
minus that interval's coverage, which must lie within the calibration band (93% to
97.5%: at most 7% and at least 2.5% moved). The same check fails the interval scaled by
0.8 and by 1.3. With the default tolerances and a baseline saved to its precision, an
unchanged game is never called moved and is found unchanged in at least 95% of runs.
The balance index's standard error (the delta method at the highest and lowest seats)
is exact when those seats are clear of the others and too wide near a tie: the tied case
is marked ``xfail(strict=True)``, the measured over-coverage.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from balance.analyses import check
from balance.analyses.check import FAIL, PASS, add_baseline, load_checks, run_checks
from balance.core.game import Block
from balance.run.precision import BLOCK
from balance.run.results import json_safe

from .conftest import COVERAGE, assert_calibrated

#: Seat win rates (no winner in the rest of the games).
CLEAR = (0.40, 0.30, 0.20, 0.07)
TIED = (0.24, 0.24, 0.24, 0.24)
METRICS = ("seat_win_rate.0", "winner_count.0", "length_mean", "balance_index")
CAP = 100  # four-player Walk the Plank's


def known_truth(rates: tuple[float, ...]):
    """A stand-in for :func:`balance.run.precision.play_until` that plays games of known
    truth from the set-up's seed, block by block, until the tracker is done."""

    def play(setup, tracker, max_games, **_) -> SimpleNamespace:
        rng = np.random.default_rng(setup.seed)
        played = 0
        while played < max_games:
            games = min(BLOCK, max_games - played)
            winner = np.searchsorted(np.cumsum(rates), rng.random(games), side="right")
            won = winner[:, None] == np.arange(len(rates))
            length = np.minimum(rng.geometric(0.15, games), CAP)
            tracker.update(Block(played, length, length < CAP, won, {}))
            played += games
            if tracker.done():
                break
        return SimpleNamespace(games=played, partial=False)

    return play


def scenario_file(tmp_path: Path, seed: int, tolerance: float | None, max_games: int) -> Path:
    text = (
        f'[[scenario]]\nname = "known truth"\ngame = "walk-the-plank"\nplayers = 4\n'
        f"seed = {seed}\nmax_games = {max_games}\n"
    )
    for metric in METRICS:
        text += f'\n[[scenario.target]]\nmetric = "{metric}"\nmin = 0\n'
        if tolerance is not None:
            text += f"tolerance = {tolerance}\n"
    path = tmp_path / f"targets-{seed}.toml"
    path.write_text(text)
    return path


def verdicts(
    tmp_path: Path, runs: int, tolerance: float | None, max_games: int
) -> dict[str, list[str]]:
    """Each metric's comparison verdicts over ``runs`` baselines (even seeds) and reruns
    against them (odd seeds)."""
    found: dict[str, list[str]] = {metric: [] for metric in METRICS}
    baseline = tmp_path / "baseline.json"
    for run in range(runs):
        path = scenario_file(tmp_path, 2 * run, tolerance, max_games)
        saved = run_checks(load_checks(path), precise=True)  # as --save-baseline
        baseline.write_text(json.dumps(json_safe(saved)))
        rerun = load_checks(scenario_file(tmp_path, 2 * run + 1, tolerance, max_games))
        add_baseline(rerun, baseline)
        for row in run_checks(rerun)["scenarios"][0]["targets"]:
            if "baseline" in row:
                found[row["metric"]].append(row["verdict"])
    return found


@pytest.fixture
def clear_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "play_until", known_truth(CLEAR))


def moved_share(found: list[str]) -> float:
    return sum(v == FAIL for v in found) / len(found)


@pytest.mark.slow
def test_an_unchanged_game_is_called_moved_at_the_rate_its_interval_claims(
    tmp_path, clear_games
) -> None:
    # A tolerance near zero and 16,384 games a side (the baseline cannot reach the
    # precision such a tolerance asks for and stops at max_games).
    runs = 1000
    for metric, found in verdicts(tmp_path, runs, 1e-9, 4 * BLOCK).items():
        assert_calibrated(1 - moved_share(found), runs, f"{metric}, unchanged game")


@pytest.mark.slow
@pytest.mark.parametrize("scale", [0.8, 1.3])
def test_the_same_check_fails_a_difference_interval_of_the_wrong_width(
    tmp_path, clear_games, monkeypatch, scale: float
) -> None:
    monkeypatch.setattr(check, "Z", scale * check.Z)
    runs = 400
    for metric, found in verdicts(tmp_path, runs, 1e-9, 4 * BLOCK).items():
        coverage = 1 - moved_share(found)
        assert not COVERAGE[0] <= coverage <= COVERAGE[1], (metric, scale, coverage)


@pytest.mark.slow
def test_a_saved_baseline_finds_an_unchanged_game_unchanged(tmp_path, clear_games) -> None:
    # Default tolerances (a point; two for the index; 1% of the mean length): the
    # baseline plays until each is three times its 95% half-width.
    runs = 200
    for metric, found in verdicts(tmp_path, runs, None, 10_000_000).items():
        assert moved_share(found) == 0, metric
        assert sum(v == PASS for v in found) / runs >= 0.95, metric


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="the index's delta method is too wide near a tie")
def test_the_balance_index_near_a_tie_is_conservative(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(check, "play_until", known_truth(TIED))
    runs = 400
    found = verdicts(tmp_path, runs, 1e-9, 4 * BLOCK)["balance_index"]
    assert_calibrated(1 - moved_share(found), runs, "balance index near a tie")
