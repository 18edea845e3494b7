"""Shared pieces of the calibration suite: coverage of an interval simulated from known truth.

Every interval family the reports print is checked here the same way: draw many data
sets from a known truth, compute the project's own interval on each, and require the
share that covers the truth to lie within :data:`COVERAGE` at 95% nominal. The band
fails both ways: an interval that is too narrow (coverage below 93%) and one that is
too wide (above 97.5%, as wasteful as it is reassuring) are both defects. Each family
has a fast test in the default suite and a longer one marked ``slow``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: Coverage required of a nominal 95% interval, both ways.
COVERAGE = (0.93, 0.975)


def simulate_coverage(
    interval: Callable[[np.random.Generator], tuple[float, float]],
    truth: float,
    reps: int,
    seed: int,
) -> float:
    """Share of ``reps`` simulated data sets whose interval holds ``truth``.

    Parameters
    ----------
    interval : draws one data set from the known truth with the generator it is given
        and returns the interval computed on it, ``(low, high)``.
    truth : the value every interval should hold.
    reps, seed : how many data sets, from which seed (deterministic).
    """
    rng = np.random.default_rng(seed)
    covered = 0
    for _ in range(reps):
        low, high = interval(rng)
        covered += bool(low <= truth <= high)
    return covered / reps


def calibrated(coverage: float) -> bool:
    """Whether a simulated coverage lies within the required band."""
    return COVERAGE[0] <= coverage <= COVERAGE[1]


def assert_calibrated(coverage: float, reps: int | None, case: str = "") -> None:
    """Fail outside the band, naming the case and the simulation's standard error
    (``reps`` None: the coverage is exact, not simulated)."""
    if reps is None:
        spread = "exact"
    else:
        error = np.sqrt(max(coverage * (1 - coverage), 1e-12) / reps)
        spread = f"over {reps} simulated runs, standard error {error:.2%}"
    assert calibrated(coverage), (
        f"{case}: coverage {coverage:.2%} ({spread}), "
        f"outside [{COVERAGE[0]:.1%}, {COVERAGE[1]:.1%}]"
    )


def crn_seat_wins(
    rng: np.random.Generator, games: int, base: np.ndarray, variant: np.ndarray, same: float
) -> tuple[np.ndarray, np.ndarray]:
    """Two paired runs of ``games`` games with one winner a game, from known seat rates.

    Each game draws one uniform number; the base run's winner is the seat whose slice of
    ``[0, 1)`` (cut by the cumulative ``base`` rates) holds it. The variant reuses the
    same number with probability ``same`` (the share of games common random numbers
    keep alike) and draws its own otherwise.

    Returns
    -------
    bool ``(games, n)`` each, base then variant: which seat won each game.
    """
    n = len(base)
    u = rng.random(games)
    own = rng.random(games)
    v = np.where(rng.random(games) < same, u, own)
    base_seat = np.minimum(np.searchsorted(np.cumsum(base), u, side="right"), n - 1)
    variant_seat = np.minimum(np.searchsorted(np.cumsum(variant), v, side="right"), n - 1)
    seats = np.arange(n)
    return base_seat[:, None] == seats, variant_seat[:, None] == seats
