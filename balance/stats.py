"""Statistics every report uses: intervals for rates and means.

Pure functions over numbers and arrays; they know nothing of games.
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

LEVEL = 0.95


def wilson_interval(
    successes: np.ndarray | int, trials: np.ndarray | int, level: float = LEVEL
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial rate; arrays broadcast, shape of the inputs.

    With no trials the interval is the uninformative ``[0, 1]``.
    """
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    safe = np.where(trials > 0, trials, 1.0)
    counted = np.where(trials > 0, successes, 0.0)
    low, high = proportion_confint(counted, safe, alpha=1 - level, method="wilson")
    # Exact at the edges: no successes means a lower bound of 0, all successes an upper of 1.
    low = np.where((trials > 0) & (counted > 0), low, 0.0)
    high = np.where((trials > 0) & (counted < trials), high, 1.0)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def mean_interval(values: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean with a Student-t interval: ``(mean, low, high)``; NaN bounds below 2 values."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if values.size < 2:
        return mean, float("nan"), float("nan")
    sem = float(values.std(ddof=1)) / np.sqrt(values.size)
    half = float(stats.t.ppf(0.5 + level / 2, values.size - 1) * sem)
    return mean, mean - half, mean + half


def ratio_interval(
    numerators: np.ndarray, denominators: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float]:
    """Ratio of sums ``sum(y) / sum(x)`` over independent games, with a normal interval.

    Events inside one game are not independent (a card revealed twice in a game shares
    that game's position), so the variance is that of a ratio estimator over games
    (the delta method, as for cluster samples) rather than a binomial one. Returns
    ``(ratio, low, high)``; NaN when the denominators sum to zero.
    """
    y = np.asarray(numerators, dtype=float)
    x = np.asarray(denominators, dtype=float)
    total = x.sum()
    if total <= 0:
        return float("nan"), float("nan"), float("nan")
    ratio = float(y.sum() / total)
    games = x.size
    if games < 2:
        return ratio, float("nan"), float("nan")
    residual = y - ratio * x
    variance = games / (games - 1) * float((residual**2).sum()) / total**2
    half = float(stats.norm.ppf(0.5 + level / 2) * np.sqrt(variance))
    return ratio, ratio - half, ratio + half


def share_interval(
    numerators: np.ndarray, denominators: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float]:
    """:func:`ratio_interval` for a share (successes over trials, games as clusters): its
    normal interval cut to ``[0, 1]``, where a rare share's would reach below 0."""
    rate, low, high = ratio_interval(numerators, denominators, level)
    if low != low:
        return rate, low, high
    return rate, max(low, 0.0), min(high, 1.0)
