"""Calibration of the tournament's pair gaps: games simulated from known Bradley–Terry
strengths (Elo scale), the gap's 95% interval computed by
:func:`balance.analyses.tournament.pair_gap` on each draw, and the share of intervals that
hold the true gap ``r_a - r_b``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from balance.analyses.tournament import ELO, pair_gap

from .conftest import assert_calibrated, calibrated


def bt_games(
    rng: np.random.Generator, gap: float, deals: int, per_deal: int, undecided: float, same: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The games of one pair whose Elo gap is ``gap``.

    ``per_deal`` games a deal (2: a two-player deal in both seat orders; 1: a mixed table).
    A game is won by neither (or both) with probability ``undecided``; a decided game goes
    to the first with probability ``1 / (1 + 10 ** (-gap / 400))``. A deal's games reuse
    their first game's draw with probability ``same``, as a deal that favours one player
    in both seat orders does (games of a deal are positively correlated).

    Returns
    -------
    ``(first_won, second_won, deal)``, each ``(deals * per_deal,)``.
    """
    p = 1 / (1 + 10 ** (-gap / 400))
    u = rng.random((deals, per_deal))
    v = rng.random((deals, per_deal))
    alike = rng.random(deals) < same
    u[alike] = u[alike, :1]
    v[alike] = v[alike, :1]
    decided = v.ravel() >= undecided
    first = u.ravel() < p
    both = ~decided & (rng.random(deals * per_deal) < 0.5)  # undecided: both won, or neither
    return (
        (decided & first) | both,
        (decided & ~first) | both,
        np.repeat(np.arange(deals), per_deal),
    )


def gap_coverage(
    strengths: tuple[float, ...],
    deals: int,
    per_deal: int,
    undecided: float,
    same: float,
    reps: int,
    seed: int,
    scales: tuple[float, ...] = (1.0,),
) -> list[float]:
    """Coverage of every pair's gap interval over ``reps`` tournaments, one figure for the
    interval's two sides scaled about the gap by each of ``scales`` (1: as printed)."""
    rng = np.random.default_rng(seed)
    covered = np.zeros(len(scales))
    count = 0
    for _ in range(reps):
        for a, b in itertools.combinations(range(len(strengths)), 2):
            truth = strengths[a] - strengths[b]
            found = pair_gap(*bt_games(rng, truth, deals, per_deal, undecided, same))
            gap, low, high = found["gap"], found["low"], found["high"]
            for k, scale in enumerate(scales):
                if np.isinf(gap):  # "at least low" (never reached in these cases)
                    covered[k] += truth >= low if gap > 0 else truth <= high
                else:
                    covered[k] += gap - scale * (gap - low) <= truth <= gap + scale * (high - gap)
            count += 1
    return list(covered / count)


#: Known Elo strengths: gaps of 40 to 300 points (a 56% to 85% share of decided games).
STRENGTHS = (0.0, 40.0, 150.0, 300.0)


def test_pair_gaps_cover_known_strengths_and_scaled_intervals_fail() -> None:
    """Two players, 500 deals a pair in both seat orders, 10% of games undecided, half
    the deals alike in both orders: the interval holds the true gap 95% of the time; the
    same interval 20% narrower or 30% wider falls outside the band."""
    reps = 250
    exact, narrow, wide = gap_coverage(
        STRENGTHS, 500, 2, 0.1, 0.5, reps, seed=1, scales=(1.0, 0.8, 1.3)
    )
    assert_calibrated(exact, reps * 6, "two players, 500 deals")
    assert not calibrated(narrow), f"scaled 0.8: {narrow:.2%}"
    assert not calibrated(wide), f"scaled 1.3: {wide:.2%}"


def test_a_pair_that_never_lost_has_a_lower_bound_the_matrix_allows() -> None:
    """4,000 decided games all won: the gap is at least the Elo value of the Wilson
    lower end of 4,000 of 4,000 (so the loser's share is at most its upper end)."""
    found = pair_gap(np.ones(4_000, bool), np.zeros(4_000, bool), np.repeat(np.arange(2_000), 2))
    assert found["gap"] == np.inf and found["high"] == np.inf
    z2 = 1.959963984540054**2
    assert found["low"] == pytest.approx(ELO * np.log(4_000 / z2))
    assert 1 / (1 + 10 ** (found["low"] / 400)) == pytest.approx(z2 / (4_000 + z2))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deals", "per_deal", "undecided", "same"),
    [
        (100, 2, 0.1, 0.5),  # a small two-player tournament
        (2_000, 2, 0.05, 0.8),  # a large one, most deals alike in both seat orders
        (400, 1, 0.6, 0.0),  # mixed tables of four: most games won by the field
        (1_000, 1, 0.3, 0.0),
    ],
)
def test_pair_gap_coverage_over_sizes(
    deals: int, per_deal: int, undecided: float, same: float
) -> None:
    reps = 500
    (coverage,) = gap_coverage(STRENGTHS, deals, per_deal, undecided, same, reps, seed=deals)
    assert_calibrated(coverage, reps * 6, f"{deals} deals, {per_deal} a deal")
