"""Calibration of the balance index (1 − the largest gap between seats' win rates) and of
the paired difference of two variants' indices, simulated from known seat rates.

Near a tie the largest gap is biased upward by the noise (two truly equal seats over
1,000 games give a mean index of 0.975). The index's interval is within the band in
every case here; the difference's holds at least its 95% near a tie but is
conservative there: the cases marked ``xfail(strict=True)`` are the measured
over-coverage, and fail as soon as the interval is calibrated (then the mark must go).
A difference that holds its coverage is also checked on its own, at least 93%, so that
a narrower interval cannot trade the band for undercoverage, also between a tie and a
clear gap (one or two standard errors of the gap from a tie), where intervals
calibrated at the tie itself fail: a bootstrap of the difference from the tie that
moment selection picks covered 71-84% there (400 runs; docs/reports.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.stats.metrics import balance_index_difference, balance_index_interval

from .conftest import assert_calibrated, crn_seat_wins, simulate_coverage

GAMES = 1_000


def index_interval(rates: list[float]):
    seats = np.array(rates)

    def interval(rng: np.random.Generator) -> tuple[float, float]:
        won, _ = crn_seat_wins(rng, GAMES, seats, seats, 1.0)
        result = balance_index_interval(won, draws=2_000, seed=int(rng.integers(2**31)))
        return result["low"], result["high"]

    return interval


def difference_interval(
    base: list[float], variant: list[float], same: float = 0.7, games: int = GAMES
):
    def interval(rng: np.random.Generator) -> tuple[float, float]:
        b, v = crn_seat_wins(rng, games, np.array(base), np.array(variant), same)
        result = balance_index_difference(v, b, draws=2_000, seed=int(rng.integers(2**31)))
        return result["low"], result["high"]

    return interval


def too_wide(measured: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"conservative near a tie: {measured}")


INDEX_CASES = [
    pytest.param([0.5, 0.5], id="two equal seats"),
    pytest.param([0.25] * 4, id="four equal seats"),
    pytest.param([0.6, 0.4], id="two seats 60/40"),
    pytest.param([0.3, 0.25, 0.25, 0.2], id="four seats 30/25/25/20"),
    pytest.param([0.4, 0.3, 0.3], id="three seats 40/30/30"),
    pytest.param([1 / 3] * 3, id="three equal seats"),
]

DIFFERENCE_CASES = [
    pytest.param([0.6, 0.4], [0.55, 0.45], id="60/40 to 55/45"),
    pytest.param([0.5, 0.5], [0.53, 0.47], id="50/50 to 53/47"),
    pytest.param(
        [0.5, 0.5],
        [0.51, 0.49],
        id="50/50 to 51/49",
        marks=too_wide("98.75% over 400 runs, 99.30% over 2,000"),
    ),
    pytest.param(
        [0.5, 0.5],
        [0.5, 0.5],
        id="both 50/50",
        marks=too_wide("99.75% over 400 runs, 99.95% over 2,000"),
    ),
]
#: Four seats take about 0.07 s a run (144 contrasts): the long suite only.
FOUR_SEATS = pytest.param(
    [0.25] * 4,
    [0.28, 0.25, 0.25, 0.22],
    id="four equal seats to 28/25/25/22",
    marks=too_wide("97.75% over 400 runs, 99.15% over 2,000"),
)
#: More cases for the long suite: ``(base, variant, share of games alike, games)``.
#: Unpaired runs (no game alike), the tie on the base's side, three seats, variants
#: between a tie and a clear gap (52/48 and 51.5/48.5 are 1.3 and 0.9 standard errors of
#: the gap from a tie over 1,000 games), and 10,000 games, where 51/49 is two standard
#: errors of the gap from a tie, 50.8/49.2 1.6 and 50.5/49.5 one.
MORE_DIFFERENCE_CASES = [
    pytest.param(
        [0.5, 0.5],
        [0.51, 0.49],
        0.0,
        GAMES,
        id="50/50 to 51/49 unpaired",
        marks=too_wide("99.40% over 2,000 runs"),
    ),
    pytest.param(
        [0.5, 0.5],
        [0.5, 0.5],
        0.0,
        GAMES,
        id="both 50/50 unpaired",
        marks=too_wide("99.95% over 2,000 runs"),
    ),
    pytest.param(
        [0.51, 0.49],
        [0.5, 0.5],
        0.7,
        GAMES,
        id="51/49 to 50/50",
        marks=too_wide("99.35% over 2,000 runs"),
    ),
    pytest.param(
        [1 / 3] * 3,
        [0.36, 0.33, 0.31],
        0.7,
        GAMES,
        id="three equal seats to 36/33/31",
        marks=too_wide("98.90% over 2,000 runs"),
    ),
    pytest.param(
        [0.5, 0.5],
        [0.52, 0.48],
        0.7,
        GAMES,
        id="50/50 to 52/48",
        marks=too_wide("97.80% over 2,000 runs"),
    ),
    pytest.param(
        [0.5, 0.5],
        [0.515, 0.485],
        0.7,
        GAMES,
        id="50/50 to 51.5/48.5",
        marks=too_wide("98.65% over 2,000 runs"),
    ),
    pytest.param([0.5, 0.5], [0.51, 0.49], 0.7, 10_000, id="50/50 to 51/49 over 10,000 games"),
    pytest.param(
        [0.5, 0.5],
        [0.508, 0.492],
        0.7,
        10_000,
        id="50/50 to 50.8/49.2 over 10,000 games",
        marks=too_wide("98.25% over 2,000 runs"),
    ),
    pytest.param(
        [0.5, 0.5],
        [0.505, 0.495],
        0.7,
        10_000,
        id="50/50 to 50.5/49.5 over 10,000 games",
        marks=too_wide("98.70% over 2,000 runs"),
    ),
]


def true_index(rates: list[float]) -> float:
    return 1.0 - float(np.ptp(rates))


@pytest.mark.parametrize("rates", INDEX_CASES)
def test_balance_index_coverage(rates: list[float]) -> None:
    reps = 400
    coverage = simulate_coverage(index_interval(rates), true_index(rates), reps, seed=31)
    assert_calibrated(coverage, reps, f"index of {rates}")


@pytest.mark.parametrize(("base", "variant"), DIFFERENCE_CASES)
def test_balance_index_difference_coverage(base: list[float], variant: list[float]) -> None:
    reps = 200
    truth = true_index(variant) - true_index(base)
    coverage = simulate_coverage(difference_interval(base, variant), truth, reps, seed=32)
    assert_calibrated(coverage, reps, f"{base} to {variant}")


@pytest.mark.slow
@pytest.mark.parametrize("rates", INDEX_CASES)
def test_balance_index_coverage_long(rates: list[float]) -> None:
    reps = 2_000
    coverage = simulate_coverage(index_interval(rates), true_index(rates), reps, seed=33)
    assert_calibrated(coverage, reps, f"index of {rates}")


@pytest.mark.slow
@pytest.mark.parametrize(("base", "variant"), [*DIFFERENCE_CASES, FOUR_SEATS])
def test_balance_index_difference_coverage_long(base: list[float], variant: list[float]) -> None:
    reps = 2_000
    truth = true_index(variant) - true_index(base)
    coverage = simulate_coverage(difference_interval(base, variant), truth, reps, seed=34)
    assert_calibrated(coverage, reps, f"{base} to {variant}")


@pytest.mark.slow
@pytest.mark.parametrize(("base", "variant", "same", "games"), MORE_DIFFERENCE_CASES)
def test_balance_index_difference_coverage_more_cases(
    base: list[float], variant: list[float], same: float, games: int
) -> None:
    reps = 2_000
    truth = true_index(variant) - true_index(base)
    interval = difference_interval(base, variant, same, games)
    coverage = simulate_coverage(interval, truth, reps, seed=34)
    assert_calibrated(coverage, reps, f"{base} to {variant}, {same:.0%} alike, {games:,} games")


NEAR_TIE = [
    ([0.5, 0.5], [0.51, 0.49]),
    ([0.5, 0.5], [0.53, 0.47]),
    pytest.param([0.25] * 4, [0.28, 0.25, 0.25, 0.22], marks=pytest.mark.slow),
    # Between a tie and a clear gap, where an interval calibrated at the tie under-covers
    # (a bootstrap from the tie that moment selection picks: 72% against 52/48).
    pytest.param([0.5, 0.5], [0.52, 0.48], marks=pytest.mark.slow, id="between 52/48"),
    pytest.param([0.5, 0.5], [0.515, 0.485], marks=pytest.mark.slow, id="between 51.5/48.5"),
]


@pytest.mark.parametrize(("base", "variant"), NEAR_TIE)
def test_balance_index_difference_holds_its_coverage_near_a_tie(
    base: list[float], variant: list[float]
) -> None:
    # The defect of the bootstrap it replaced: 88% for 50/50 against 53/47 and 70% for
    # four equal seats against 28/25/25/22. Over 200 runs, 93% is 2 standard errors
    # below 95%.
    reps = 200
    truth = true_index(variant) - true_index(base)
    coverage = simulate_coverage(difference_interval(base, variant), truth, reps, seed=35)
    assert coverage >= 0.93, f"{base} to {variant}: coverage {coverage:.2%} over {reps} runs"
