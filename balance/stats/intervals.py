"""Statistics every report uses: intervals for rates and means.

Pure functions over numbers and arrays; they know nothing of games.
"""

from __future__ import annotations

import numpy as np

from balance.core.lazy import LazyModule

# scipy and statsmodels load when a statistic is first computed, not when a command that
# computes none (``balance games``) starts.
stats = LazyModule("scipy.stats")
special = LazyModule("scipy.special")

LEVEL = 0.95


def normal_quantile(p: float) -> float:
    """The standard normal distribution's ``p`` quantile (``scipy.stats.norm.ppf``)."""
    return float(special.ndtri(p))


def t_quantile(p: float, df: float) -> float:
    """Student's t distribution's ``p`` quantile at ``df`` degrees of freedom
    (``scipy.stats.t.ppf``)."""
    return float(special.stdtrit(df, p))


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
    # statsmodels' proportion_confint(method="wilson"), term for term (tests/test_stats.py
    # checks the two agree), without importing statsmodels and scipy.stats at start-up.
    crit = -float(special.ndtri((1 - level) / 2))
    share = counted / safe
    denom = 1 + crit**2 / safe
    center = (share + crit**2 / (2 * safe)) / denom
    dist = crit * np.sqrt(share * (1.0 - share) / safe + crit**2 / (4.0 * safe**2)) / denom
    low, high = np.clip(center - dist, 0, 1), np.clip(center + dist, 0, 1)
    # Exact at the edges: no successes means a lower bound of 0, all successes an upper of 1.
    low = np.where((trials > 0) & (counted > 0), low, 0.0)
    high = np.where((trials > 0) & (counted < trials), high, 1.0)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def mean_interval(
    values: np.ndarray, level: float = LEVEL, floor: float = -np.inf
) -> tuple[float, float, float]:
    """Mean with a Student-t interval: ``(mean, low, high)``; NaN bounds below 2 values.

    ``floor`` is the least value the quantity can take (0 for a count): the interval is
    cut there, since a t interval of a skewed count can reach below it in a small sample
    (cutting off impossible values only raises the coverage).
    """
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if values.size < 2:
        return mean, float("nan"), float("nan")
    sem = float(values.std(ddof=1)) / np.sqrt(values.size)
    half = float(t_quantile(0.5 + level / 2, values.size - 1) * sem)
    return mean, max(mean - half, floor), mean + half


def ratio_interval(
    numerators: np.ndarray,
    denominators: np.ndarray,
    level: float = LEVEL,
    floor: float = -np.inf,
) -> tuple[float, float, float]:
    """Ratio of sums ``sum(y) / sum(x)`` over independent games, with a normal interval.

    Events inside one game are not independent (a card revealed twice in a game shares
    that game's position), so the variance is that of a ratio estimator over games
    (the delta method, as for cluster samples) rather than a binomial one. Returns
    ``(ratio, low, high)``; NaN when the denominators sum to zero. ``floor`` is the least
    value the ratio can take (0 for counts per use), as in :func:`mean_interval`.
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
    half = float(normal_quantile(0.5 + level / 2) * np.sqrt(variance))
    return ratio, max(ratio - half, floor), ratio + half


def mean_interval_from_sums(
    games: int, total: int, squares: int, level: float = LEVEL, floor: float = -np.inf
) -> tuple[float, float, float]:
    """Mean with a Student-t interval from ``games`` values' sum and sum of squares.

    The variance ``(G sum(x^2) - sum(x)^2) / (G (G - 1))`` is computed in exact integer
    arithmetic when the sums are whole numbers. NaN bounds below two games. ``floor``: as
    in :func:`mean_interval`.
    """
    if games == 0:
        return float("nan"), float("nan"), float("nan")
    mean = total / games
    if games < 2:
        return mean, float("nan"), float("nan")
    variance = (games * squares - total * total) / (games * (games - 1))
    sem = float(np.sqrt(max(variance, 0.0))) / np.sqrt(games)
    half = float(t_quantile(0.5 + level / 2, games - 1) * sem)
    return mean, max(mean - half, floor), mean + half


def ratio_interval_from_sums(
    games: int,
    sy: int,
    sx: int,
    syy: int,
    sxy: int,
    sxx: int,
    level: float = LEVEL,
    floor: float = -np.inf,
) -> tuple[float, float, float]:
    """:func:`balance.stats.intervals.ratio_interval` from sums over games of ``y``, ``x``, ``y^2``,
    ``xy`` and ``x^2``: the residuals' sum of squares ``sum((y - r x)^2)`` is
    ``(syy sx^2 - 2 sy sx sxy + sy^2 sxx) / sx^2``, exact for whole numbers."""
    if sx <= 0:
        return float("nan"), float("nan"), float("nan")
    ratio = sy / sx
    if games < 2:
        return ratio, float("nan"), float("nan")
    residual = (syy * sx * sx - 2 * sy * sx * sxy + sy * sy * sxx) / (sx * sx)
    variance = games / (games - 1) * max(float(residual), 0.0) / float(sx) ** 2
    half = float(normal_quantile(0.5 + level / 2) * np.sqrt(variance))
    return ratio, max(ratio - half, floor), ratio + half


def share_interval(
    numerators: np.ndarray, denominators: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float]:
    """A share of trials (successes over trials) whose trials are clustered in games.

    The share is ``sum(y) / sum(x)``. Trials of one game are not independent, so the
    interval is Wilson's at the *effective* number of trials (Korn and Graubard, Survey
    Methodology 24, 1998): the trials divided by the design effect, the ratio of the
    delta-method variance over games (:func:`ratio_interval`) to the binomial variance of
    as many independent trials. The effective number never exceeds the trials (a design
    effect below 1 counts as 1), and a share of 0 or 1 (no variance) takes the trials as
    they are. Unlike a normal interval, it stays within ``[0, 1]`` and is not symmetric
    near the edges (999 of 1,000 is ``[0.994, 0.9998]``, not ``[0.997, 1.001]``).

    Parameters
    ----------
    numerators : ``(G,)`` successes of each game.
    denominators : ``(G,)`` trials of each game.

    Returns
    -------
    ``(share, low, high)``; NaN when there are no trials, NaN bounds with one game.
    """
    y = np.asarray(numerators, dtype=float)
    x = np.asarray(denominators, dtype=float)
    share, ratio_low, ratio_high = ratio_interval(y, x, level)
    return share_from_ratio(share, ratio_low, ratio_high, float(x.sum()), level)


def share_from_ratio(
    share: float, ratio_low: float, ratio_high: float, trials: float, level: float = LEVEL
) -> tuple[float, float, float]:
    """:func:`share_interval` from the share's delta-method interval (:func:`ratio_interval`)
    and its number of trials: Wilson's interval at the effective number of trials."""
    if share != share or ratio_low != ratio_low:
        return share, ratio_low, ratio_high
    trials = float(trials)
    z = float(normal_quantile(0.5 + level / 2))
    variance = ((ratio_high - ratio_low) / (2 * z)) ** 2
    binomial = share * (1 - share) / trials
    effective = trials
    if variance > 0 and binomial > 0:
        effective = min(trials, trials * binomial / variance)
    low, high = wilson_interval(share * effective, effective, level)
    return share, float(low), float(high)


def still_running_curve(
    lengths: np.ndarray, finished: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The share of games still running after each length, with unfinished games censored.

    A finished game of length ``L`` ended at ``L``; an unfinished one (stopped by a cap)
    was still running after ``L`` and is not followed further. The curve is the
    Kaplan-Meier estimate over whole lengths ``0 .. max(L)``, its variance Greenwood's.
    With every unfinished game stopped at one cap it is the plain share of games that
    lasted longer than ``r``.

    Parameters
    ----------
    lengths : int ``(G,)``, game lengths (0 or more).
    finished : bool ``(G,)``, False for games stopped unfinished.

    Returns
    -------
    ``(running, variance, at_risk)``, each ``(max(L) + 1,)``: for ``r = 0 .. max(L)``,
    the estimated share of games lasting longer than ``r``, its variance, and the games
    still followed at ``r`` (length at least ``r``).
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    finished = np.asarray(finished, dtype=bool)
    if lengths.size == 0:
        empty = np.zeros(0)
        return empty, empty, np.zeros(0, dtype=np.int64)
    if lengths.min() < 0:
        raise ValueError("game lengths cannot be negative")
    ended, stopped = length_counts(lengths, finished)
    return curve_from_counts(ended, stopped)


def length_counts(lengths: np.ndarray, finished: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Histograms of game lengths: ``(ended, stopped)``, int64 ``(max(L) + 1,)``, the
    finished games and all games that stopped at each length ``0 .. max(L)``."""
    lengths = np.asarray(lengths, dtype=np.int64)
    finished = np.asarray(finished, dtype=bool)
    longest = int(lengths.max()) if lengths.size else -1
    ended = np.bincount(lengths[finished], minlength=longest + 1).astype(np.int64)
    stopped = np.bincount(lengths, minlength=longest + 1).astype(np.int64)
    return ended, stopped


def curve_from_counts(
    ended: np.ndarray, stopped: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`still_running_curve` from the histograms :func:`length_counts` gives.

    Parameters
    ----------
    ended, stopped : int ``(m,)``, finished games and all games of each length
        ``0 .. m - 1`` (the last bin not empty).
    """
    stopped = np.asarray(stopped, dtype=np.int64)
    ended = _fit(ended, stopped.size)
    if stopped.size == 0:
        empty = np.zeros(0)
        return empty, empty, np.zeros(0, dtype=np.int64)
    at_risk = int(stopped.sum()) - np.concatenate([[0], np.cumsum(stopped)[:-1]])
    with np.errstate(divide="ignore", invalid="ignore"):
        hazard = np.where(at_risk > 0, ended / np.maximum(at_risk, 1), 0.0)
        running = np.cumprod(1.0 - hazard)
        terms = np.where(at_risk > ended, ended / (at_risk * (at_risk - ended)), 0.0)
    variance = running**2 * np.cumsum(terms)
    return running, variance, at_risk


def length_median(
    lengths: np.ndarray, finished: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float]:
    """The median game length read from :func:`still_running_curve`, with its interval.

    Lengths are whole numbers, so the curve's value after ``r`` is read as reached at
    ``r + 1/2`` and joined by straight lines (each game's length spread evenly over the
    unit around it: the median of grouped data). The median is where that line crosses
    one half; its interval holds every length ``m`` at which the curve's own interval
    contains one half (Brookmeyer and Crowley, Biometrics 38, 1982), with the curve's
    variance between two lengths from Greenwood's variances and covariance.

    Parameters
    ----------
    lengths : int ``(G,)``; finished : bool ``(G,)``.

    Returns
    -------
    ``(median, low, high)``. The median is NaN when more than half of the games were
    still running at the longest length seen (it lies beyond it); ``high`` is NaN when
    the interval reaches beyond the longest length seen.
    """
    running, variance, _ = still_running_curve(lengths, finished)
    return median_from_curve(running, variance, level)


def median_from_curve(
    running: np.ndarray, variance: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float]:
    """:func:`length_median` from the still-running curve and its variance, each
    ``(max(L) + 1,)`` (:func:`still_running_curve`)."""
    if running.size == 0:
        return float("nan"), float("nan"), float("nan")
    z = float(normal_quantile(0.5 + level / 2))
    # Points (r + 1/2, running after r) for r = -1 .. longest; nothing ended before 0.
    a = np.concatenate([[1.0], running[:-1]])  # each segment's start, at r - 1/2
    b = running  # and its end, at r + 1/2
    va = np.concatenate([[0.0], variance[:-1]])
    vb = variance
    with np.errstate(divide="ignore", invalid="ignore"):
        cab = np.where(a > 0, b / np.where(a > 0, a, 1.0) * va, 0.0)
    start = np.arange(running.size) - 0.5
    median = float("nan")
    crossing = np.flatnonzero(b <= 0.5)
    if crossing.size:
        r = int(crossing[0])
        median = float(start[r] + (a[r] - 0.5) / (a[r] - b[r]))
    # g(w) = (S(w) - 1/2)^2 - z^2 Var S(w) <= 0 on each segment, w in [0, 1].
    e, f = a - 0.5, b - a
    quad = f**2 - z**2 * (va + vb - 2 * cab)
    lin = 2 * e * f - z**2 * (2 * cab - 2 * va)
    const = e**2 - z**2 * va
    candidates = [np.zeros_like(a), np.ones_like(a)]
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = lin**2 - 4 * quad * const
        root = np.sqrt(np.where(disc >= 0, disc, np.nan))
        flat = np.abs(quad) < 1e-15
        candidates += [
            np.where(flat, -const / np.where(lin != 0, lin, np.nan), (-lin - root) / (2 * quad)),
            np.where(flat, np.nan, (-lin + root) / (2 * quad)),
        ]
    w = np.stack(candidates)
    inside = (w >= 0) & (w <= 1)
    w = np.clip(np.nan_to_num(w, nan=-1.0), 0.0, 1.0)
    g = quad * w**2 + lin * w + const
    tolerance = 1e-12 * np.maximum(1.0, np.abs(const) + np.abs(lin) + np.abs(quad))
    ok = inside & (g <= tolerance)
    if not ok.any():
        return median, float("nan"), float("nan")
    points = start + w
    low = float(points[ok].min())
    high = float(points[ok].max())
    if ok[1, -1] and running[-1] > 0:  # still inside at the longest length: no upper bound
        high = float("nan")
    return median, low, high


def restricted_mean(
    lengths: np.ndarray,
    finished: np.ndarray,
    limit: int | None = None,
    level: float = LEVEL,
) -> tuple[float, float, float]:
    """The mean game length restricted to ``limit``: the area under the still-running curve.

    It is the mean of ``min(length, limit)``, every game counted at most up to ``limit``
    (restricted mean survival time), estimated from :func:`still_running_curve` so that
    unfinished games count as running up to where they stopped. With every unfinished
    game stopped at one cap and ``limit`` that cap, it is the plain mean of the lengths
    played. The interval is normal with the Greenwood-type variance
    ``sum_t A_t^2 d_t / (n_t (n_t - d_t))``, ``A_t`` the area under the curve from ``t``
    to ``limit`` (Klein and Moeschberger, Survival Analysis, 2003, section 4.5), cut to
    ``[0, limit]``.

    Parameters
    ----------
    lengths : int ``(G,)``; finished : bool ``(G,)``.
    limit : the length to restrict to (default: the longest game).

    Returns
    -------
    ``(mean, low, high)``; NaN with no games, NaN bounds below 2 games.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    finished = np.asarray(finished, dtype=bool)
    if lengths.size and lengths.min() < 0:
        raise ValueError("game lengths cannot be negative")
    ended, stopped = length_counts(lengths, finished)
    return restricted_mean_from_counts(ended, stopped, limit, level)


def restricted_mean_from_counts(
    ended: np.ndarray, stopped: np.ndarray, limit: int | None = None, level: float = LEVEL
) -> tuple[float, float, float]:
    """:func:`restricted_mean` from the histograms :func:`length_counts` gives."""
    stopped = np.asarray(stopped, dtype=np.int64)
    ended = _fit(ended, stopped.size)
    running, _, at_risk = curve_from_counts(ended, stopped)
    if running.size == 0:
        return float("nan"), float("nan"), float("nan")
    games = int(stopped.sum())
    limit = stopped.size - 1 if limit is None else int(limit)
    if limit < 0:
        raise ValueError("the limit of a restricted mean cannot be negative")
    if limit > running.size and running[-1] > 0:
        raise ValueError("past the longest game the share still running is unknown")
    extra = max(0, limit - running.size)
    area = np.concatenate([running, np.zeros(extra)])[:limit]  # after r = 0 .. limit - 1
    mean = float(area.sum())
    if games < 2:
        return mean, float("nan"), float("nan")
    ended = np.concatenate([ended, np.zeros(extra, dtype=np.int64)])[:limit]
    n = np.concatenate([at_risk, np.zeros(extra, dtype=np.int64)])[:limit].astype(float)
    beyond = np.cumsum(area[::-1])[::-1]  # A_t: area from t to the limit
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(n > ended, beyond**2 * ended / (n * (n - ended)), 0.0)
    half = float(normal_quantile(0.5 + level / 2) * np.sqrt(terms.sum()))
    # A mean of min(length, limit) lies in [0, limit]: a normal interval over few games
    # can reach beyond, and cutting off impossible values only raises the coverage.
    return mean, max(mean - half, 0.0), min(mean + half, float(limit))


def _fit(counts: np.ndarray, size: int) -> np.ndarray:
    """A histogram cut or padded with zeros to ``size`` bins, int64."""
    counts = np.asarray(counts, dtype=np.int64)[:size]
    return np.concatenate([counts, np.zeros(size - counts.size, dtype=np.int64)])
