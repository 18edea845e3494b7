"""The numbers behind every chart: pure functions from record tables to tables with intervals.

They read the columns every game records (see :mod:`balance.core.game`): the ``games``
table has one row a game with ``game`` (index), the length column named after the
game's unit (``rounds``, ``turns``) and ``finished``; the ``seats`` table has one row a
game and seat with ``game``, ``seat``, ``strategy`` and ``won``. Nothing here draws or
knows a game's own pieces; every table it returns says how many games it rests on.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from balance.core.lazy import LazyModule
from balance.stats.intervals import (
    LEVEL,
    curve_from_counts,
    length_median,
    mean_interval,
    mean_interval_from_sums,
    median_from_curve,
    normal_quantile,
    restricted_mean,
    restricted_mean_from_counts,
    share_interval,
    wilson_interval,
)

if TYPE_CHECKING:
    import pandas as pd
    from scipy import stats
else:  # loaded when a table is built or a test made: a run's summary needs neither
    pd = LazyModule("pandas")
    stats = LazyModule("scipy.stats")


def seat_win_rates(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each seat with its Wilson interval.

    Parameters
    ----------
    seats : one row a game and seat, columns ``seat`` and ``won``.

    Returns
    -------
    DataFrame, one row a seat: ``seat``, ``games``, ``wins``, ``rate``, ``low``, ``high``.
    """
    grouped = seats.groupby("seat", observed=True)["won"]
    table = pd.DataFrame({"games": grouped.size(), "wins": grouped.sum().astype(np.int64)})
    table = table.reset_index()
    return _with_wilson(table, "wins", "games")


def won_matrix(seats: pd.DataFrame) -> np.ndarray:
    """The seats table as bool ``(G, n)``: which seats won each game, games in order."""
    table = seats.pivot(index="game", columns="seat", values="won").sort_index()
    return table.to_numpy(dtype=bool)


def balance_index(rates: Sequence[float] | pd.Series) -> float:
    """Ludii's balance metric: 1 − the largest gap between two seats' win rates.

    Not a number when no seat ever won (every rate 0): seats that all lost every game
    are not balanced, they are not compared at all.
    """
    values = np.asarray(rates, dtype=float)
    if values.size == 0 or not (values > 0).any():
        return float("nan")
    return float(1.0 - (values.max() - values.min()))


def strategy_win_rates(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each strategy over every seat it played.

    A strategy may fill several seats of one game, so games are the independent units:
    the interval is Wilson's at the effective number of seats played, games as clusters
    (:func:`balance.stats.intervals.share_interval`).

    Returns
    -------
    DataFrame, one row a strategy: ``strategy``, ``seats_played``, ``games``, ``wins``,
    ``rate``, ``low``, ``high``.
    """
    rows = []
    labels = seats["strategy"].astype(str)
    games = seats["game"].to_numpy()
    for label in pd.unique(labels):
        here = (labels == label).to_numpy()
        per_game = pd.DataFrame({"game": games[here], "won": seats["won"].to_numpy()[here]})
        grouped = per_game.groupby("game")["won"]
        plays = grouped.size().to_numpy()
        wins = grouped.sum().to_numpy()
        rate, low, high = share_interval(wins, plays)
        rows.append(
            {
                "strategy": label,
                "seats_played": int(plays.sum()),
                "games": int(plays.size),
                "wins": int(wins.sum()),
                "rate": rate,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(rows)


def length_distribution(games: pd.DataFrame, unit: str) -> pd.DataFrame:
    """How many games lasted each length, split into finished and unfinished games.

    Returns
    -------
    DataFrame, one row a length present in the records: ``length``, ``finished``,
    ``unfinished`` (game counts) and ``share`` (of all games).
    """
    lengths = games[unit].to_numpy()
    finished = games["finished"].to_numpy().astype(bool)
    values = np.unique(lengths)
    done = np.array([(finished & (lengths == v)).sum() for v in values], dtype=np.int64)
    open_ = np.array([(~finished & (lengths == v)).sum() for v in values], dtype=np.int64)
    total = max(len(lengths), 1)
    return pd.DataFrame(
        {"length": values, "finished": done, "unfinished": open_, "share": (done + open_) / total}
    )


def still_running(games: pd.DataFrame, unit: str) -> pd.DataFrame:
    """Share of games still running after each round (turn), with Wilson intervals.

    After round ``r`` a game is still running if it lasted more than ``r`` rounds; a game
    stopped unfinished by the cap never ended, so it counts as running at every ``r``.

    Returns
    -------
    DataFrame, one row for every ``r`` from 0 to the longest game: ``after``, ``games``,
    ``running``, ``rate``, ``low``, ``high``.
    """
    lengths = games[unit].to_numpy()
    finished = games["finished"].to_numpy().astype(bool)
    longest = int(lengths.max()) if lengths.size else 0
    after = np.arange(longest + 1)
    ended_by = np.bincount(lengths[finished].astype(np.int64), minlength=longest + 1)
    running = len(lengths) - np.cumsum(ended_by)[: longest + 1]
    table = pd.DataFrame({"after": after, "games": len(lengths), "running": running})
    return _with_wilson(table, "running", "games")


def length_summary(lengths: np.ndarray, finished: np.ndarray) -> dict:
    """Game length with 95% intervals, honest about games stopped unfinished.

    An unfinished game counts at the length where it was stopped, so with unfinished
    games the mean of the lengths is only a lower bound (``mean_is_lower_bound``). The
    median and the restricted mean are read from the still-running curve
    (:func:`balance.stats.intervals.still_running_curve`, unfinished games censored where they
    stopped): the median where it crosses one half, the restricted mean as the area
    under it up to the longest game (``restricted_to``): the mean of ``min(length,
    restricted_to)``.

    Parameters
    ----------
    lengths : int ``(G,)``; finished : bool ``(G,)``.

    Returns
    -------
    dict with ``games``, ``unfinished``, ``mean_is_lower_bound``, ``mean``/``mean_low``/
    ``mean_high`` (Student t), ``sd``, ``median``/``median_low``/``median_high`` (NaN
    beyond the longest game), ``restricted_mean``/``restricted_low``/``restricted_high``
    and ``restricted_to``.
    """
    lengths = np.asarray(lengths)
    finished = np.asarray(finished, dtype=bool)
    whole = np.rint(lengths).astype(np.int64)
    games = int(lengths.size)
    mean, mean_low, mean_high = mean_interval(lengths.astype(float), floor=0.0)
    median, median_low, median_high = length_median(whole, finished)
    limit = int(whole.max()) if games else 0
    restricted, restricted_low, restricted_high = restricted_mean(whole, finished, limit)
    unfinished = int(games - finished.sum())
    return {
        "games": games,
        "unfinished": unfinished,
        "mean_is_lower_bound": unfinished > 0,
        "mean": mean,
        "mean_low": mean_low,
        "mean_high": mean_high,
        "sd": float(lengths.std(ddof=1)) if games > 1 else float("nan"),
        "median": median,
        "median_low": median_low,
        "median_high": median_high,
        "restricted_mean": restricted,
        "restricted_low": restricted_low,
        "restricted_high": restricted_high,
        "restricted_to": limit,
    }


def length_summary_from_counts(ended: np.ndarray, stopped: np.ndarray) -> dict:
    """:func:`length_summary` from the histograms of the lengths
    (:func:`balance.stats.intervals.length_counts`): ``ended`` counts the finished games of each
    length ``0 .. m - 1``, ``stopped`` all games (int ``(m,)``, its last bin not empty).

    The mean and its Student-t interval come from the sums of the lengths and of their
    squares, in exact integer arithmetic.
    """
    stopped = np.asarray(stopped, dtype=np.int64)
    ended = np.asarray(ended, dtype=np.int64)
    games = int(stopped.sum())
    length = np.arange(stopped.size, dtype=np.int64)
    total = sum(int(c) * int(v) for c, v in zip(stopped, length, strict=True) if c)
    squares = sum(int(c) * int(v) ** 2 for c, v in zip(stopped, length, strict=True) if c)
    mean, mean_low, mean_high = mean_interval_from_sums(games, total, squares, floor=0.0)
    running, variance, _ = curve_from_counts(ended, stopped)
    median, median_low, median_high = median_from_curve(running, variance)
    limit = stopped.size - 1 if games else 0
    restricted, restricted_low, restricted_high = restricted_mean_from_counts(ended, stopped, limit)
    unfinished = games - int(ended.sum())
    sd = float("nan")
    if games > 1:
        sd = float(np.sqrt(max((games * squares - total * total) / (games * (games - 1)), 0)))
    return {
        "games": games,
        "unfinished": unfinished,
        "mean_is_lower_bound": unfinished > 0,
        "mean": mean,
        "mean_low": mean_low,
        "mean_high": mean_high,
        "sd": sd,
        "median": median,
        "median_low": median_low,
        "median_high": median_high,
        "restricted_mean": restricted,
        "restricted_low": restricted_low,
        "restricted_high": restricted_high,
        "restricted_to": limit,
    }


def length_text(figures: dict, unit: str) -> str:
    """One line of :func:`length_summary`'s figures, for a chart title or a caption."""
    games = figures["games"]
    if not games:
        return "no games"
    median = figures["median"]
    limit = figures["restricted_to"]
    if median == median:
        high = figures["median_high"]
        upper = f"beyond {limit}" if high != high else f"{high:.1f}"
        median_text = f"median {median:.1f} [{figures['median_low']:.1f}, {upper}]"
    else:
        median_text = f"median beyond {limit}"
    if not figures["unfinished"]:
        return (
            f"mean {figures['mean']:.2f} [{figures['mean_low']:.2f}, "
            f"{figures['mean_high']:.2f}], {median_text} {unit}, {games:,} games"
        )
    return (
        f"{median_text}, restricted mean to {limit}: {figures['restricted_mean']:.2f} "
        f"[{figures['restricted_low']:.2f}, {figures['restricted_high']:.2f}] {unit}, "
        f"mean at least {figures['mean']:.2f}; {games:,} games, "
        f"{figures['unfinished']:,} unfinished"
    )


def paired_difference(
    variant: np.ndarray,
    base: np.ndarray,
    level: float = LEVEL,
    bounds: tuple[float, float] = (-np.inf, np.inf),
) -> dict:
    """Mean of the per-game differences ``variant - base`` on the same game indices.

    Both arrays hold one value a game, game ``i`` of one paired with game ``i`` of the
    other (same seed and index: common random numbers). The interval and the two-sided
    p-value are those of the paired t-test; the interval is cut to ``bounds``, the range
    the difference can take (``(-1, 1)`` for rates: a t interval over few games can reach
    beyond it, and cutting off impossible values only raises the coverage).

    Where every game gave the same difference ``v`` of a figure with known ``bounds``
    (every game finished in both runs; four games alike), the t interval has no width, yet
    the games only show that a game
    differing from ``v`` is rare: the share of such games is at most ``u``, the exact
    (Clopper-Pearson) upper bound of 0 games in ``n``, so within known ``bounds`` the mean
    lies in ``[v - u (v - low), v + u (high - v)]``. The p-value is then the exact sign
    test's (``2 / 2^n`` when no game favoured the other side, 1 when none differed).

    Returns
    -------
    dict with ``difference``, ``low``, ``high``, ``p`` and ``games``.
    """
    variant = np.asarray(variant, dtype=float)
    base = np.asarray(base, dtype=float)
    if variant.shape != base.shape:
        raise ValueError("paired arrays must hold the same games")
    delta = variant - base
    mean, low, high = mean_interval(delta, level)
    # Every game alike within known bounds (the t interval and p-value say nothing then).
    alike = bool(np.all(delta == delta[0])) and bool(np.isfinite(bounds).all()) and delta.size
    if alike:
        rare = 1.0 - ((1.0 - level) / 2) ** (1.0 / delta.size)  # 0 of n: Clopper-Pearson
        low, high = mean - rare * (mean - bounds[0]), mean + rare * (bounds[1] - mean)
    low, high = max(low, bounds[0]), min(high, bounds[1])
    if delta.size < 2:
        p = float("nan")
    elif alike:
        p = 1.0 if delta[0] == 0 else min(1.0, 2.0 * 0.5**delta.size)
    elif np.all(delta == delta[0]):
        p = 1.0 if delta[0] == 0 else 0.0
    else:
        p = float(stats.ttest_1samp(delta, 0.0).pvalue)
    return {"difference": mean, "low": low, "high": high, "p": p, "games": int(delta.size)}


def holm(p_values: Sequence[float], alpha: float = 1 - LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction: ``(adjusted p-values, significant)``; NaN stays NaN."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    significant = np.zeros(p.shape, dtype=bool)
    known = ~np.isnan(p)
    if known.any():
        from statsmodels.stats.multitest import multipletests

        reject, corrected, _, _ = multipletests(p[known], alpha=alpha, method="holm")
        adjusted[known] = corrected
        significant[known] = reject
    return adjusted, significant


#: Draws of the resampled balance-index difference in a comparison table.
DRAWS = 20_000


def balance_index_interval(won: np.ndarray, draws: int = 20_000, seed: int = 0) -> dict:
    """The balance index of one run with a 95% interval.

    The index is 1 − the largest gap between two seats' win rates. A percentile
    bootstrap of a maximum is biased upward near ties (every resampled gap is positive,
    so a balanced game would never be covered), so the interval comes instead from
    normal intervals of every ordered gap ``p_i - p_j`` (with the covariance of the
    per-game win indicators): the largest gap is at most the largest upper bound at
    the two-sided 95% normal quantile, and at least the largest lower bound at the
    critical value of the pairs that may hold the largest gap (moment selection, see
    ``_GapFamily``), clipped at 0. docs/reports.md gives the coverage tests/calibration
    measures. With no winner in any game, the index and its interval are NaN.

    Parameters
    ----------
    won : bool ``(G, n)``, which seats won each game.

    Returns
    -------
    dict with ``value``, ``low``, ``high`` and ``games``.
    """
    won = np.asarray(won, dtype=float)
    games, n = won.shape
    rates = won.mean(axis=0) if games else np.full(n, np.nan)
    covariance = np.atleast_2d(np.cov(won, rowvar=False)) if games >= 2 else None
    return balance_index_from_moments(games, rates, covariance, draws, seed)


def balance_index_from_moments(
    games: int,
    rates: np.ndarray,
    covariance: np.ndarray | None,
    draws: int = 20_000,
    seed: int = 0,
) -> dict:
    """:func:`balance_index_interval` from the seats' win rates and the covariance of
    their per-game win indicators (all a run that keeps no records has of them).

    Parameters
    ----------
    games : games ``G``.
    rates : float ``(n,)``, each seat's win rate.
    covariance : float ``(n, n)``, the sample covariance (``ddof=1``) of the per-game
        win indicators; None below two games.
    """
    rates = np.asarray(rates, dtype=float)
    n = rates.size
    value = balance_index(rates) if games else float("nan")
    if value != value:  # no game had a winner: nothing to compare
        return {"value": value, "low": np.nan, "high": np.nan, "games": games}
    if n < 2:
        return {"value": value, "low": np.nan, "high": np.nan, "games": games}
    family = _GapFamily(games, rates, covariance, draws, seed)
    if family.critical is None:
        return {"value": value, "low": np.nan, "high": np.nan, "games": games}
    low_gap, high_gap = family.gap_bounds()
    # No gap exceeds 1: an index below 0 is impossible (cutting it only raises coverage).
    low = max(0.0, 1.0 - high_gap)
    return {"value": value, "low": low, "high": 1.0 - low_gap, "games": games}


def balance_index_difference(
    variant_won: np.ndarray,
    base_won: np.ndarray,
    draws: int = 20_000,
    seed: int = 0,
    resolve_tail: bool = False,
) -> dict:
    """Paired difference of the balance index between two runs on the same games.

    The index difference is ``gap(base) - gap(variant)``, the largest gap of each run
    being a maximum over ordered pairs of seats, so it equals
    ``max over base pairs k of min over variant pairs l of [gap_k(base) - gap_l(variant)]``:
    a max-min of paired linear contrasts ``(k, l)``, each measured game by game (common
    random numbers narrow it). It also lies between the smallest and the largest of
    every pair's own paired change ``gap_k(base) - gap_k(variant)``. The interval
    applies to both the max-min and the own changes normal intervals with one critical
    value: the lower bound misses only if, for the variant's true largest pair ``l``,
    some contrast ``(k, l)`` (``k`` a base pair, or ``l`` itself) is above its bound,
    the upper only if, for the base's true largest pair ``k``, some ``(k, l)`` is below
    it; the critical
    value is the largest over the ``(k, l)`` that may hold the two largest gaps of the
    95% quantile of the larger of those two standardised errors (``draws`` draws of the
    joint normal of both runs' seat rates, deterministic for ``seed``). Only pairs of
    seats that may hold a run's largest gap enter (within ``sqrt(log G)`` standard
    errors of the largest observed gap, after Andrews and Soares' moment selection), so
    far from a tie it is the paired normal interval of one contrast. Near a tie it is
    conservative (up to 99.95% where 95% is nominal) but never under-covers, also one or
    two standard errors of the gap from a tie; a moment-selection bootstrap of the
    difference itself (draws around the tie the selection picks, basic or percentile
    form) covered 71-84% there, and this interval with its critical value calibrated at
    that tie 78-90%; neither is used. docs/reports.md gives the coverage
    tests/calibration measures. The
    p-value is the smallest ``alpha`` whose interval, built the same way at level
    ``1 - alpha``, leaves out 0 (0 when even the most extreme draw leaves it out).

    With ``resolve_tail``, a p-value below ``TAIL_DRAWS / draws`` (where too few draws
    lie beyond the critical value to place it) is instead the Bonferroni bound of the
    largest of the ``K`` standardised errors the critical value is taken over,
    ``K * (1 - Phi(c))`` at the largest critical value ``c`` whose interval leaves out
    0: conservative, and as small as the evidence allows, so that a correction over a
    large family (a sweep's thousands of differences) can still find a difference.

    Parameters
    ----------
    variant_won, base_won : bool ``(G, n)``, which seats won each game.

    Returns
    -------
    dict with ``difference``, ``low``, ``high``, ``p`` and ``games``.
    """
    a = np.asarray(variant_won, dtype=float)
    b = np.asarray(base_won, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired runs must hold the same games and seats")
    games, n = a.shape
    difference = balance_index(a.mean(axis=0)) - balance_index(b.mean(axis=0))
    if games < 2 or n < 2 or difference != difference:  # too few, or a run without a winner
        return {
            "difference": difference,
            "low": np.nan,
            "high": np.nan,
            "p": np.nan,
            "games": games,
        }
    both = np.concatenate([b, a], axis=1)
    mean = both.mean(axis=0)
    covariance = np.cov(both, rowvar=False) / games
    gap = _ordered_gaps(n)
    kappa = float(np.sqrt(np.log(games)))
    base_pairs = _possible_largest(gap, mean[:n], covariance[:n, :n], kappa)
    variant_pairs = _possible_largest(gap, mean[n:], covariance[n:, n:], kappa)
    # Contrast (k, l) = gap_k(base) - gap_l(variant), for k and l among the pairs that
    # may hold either run's largest gap.
    pairs = np.union1d(base_pairs, variant_pairs)
    m = len(pairs)
    in_base = np.isin(pairs, base_pairs)
    in_variant = np.isin(pairs, variant_pairs)
    contrast = np.concatenate(
        [np.repeat(gap[pairs], m, axis=0), -np.tile(gap[pairs], (m, 1))], axis=1
    )
    value = (contrast @ mean).reshape(m, m)
    spread = np.einsum("ij,jk,ik->i", contrast, covariance, contrast)
    se = np.sqrt(np.clip(spread, 0.0, None)).reshape(m, m)
    # The lower bound misses only if, for the variant's true largest pair l, some base pair
    # k that may be the largest (or l itself, its own change) has its contrast (k, l) above
    # its bound; the upper bound only if, for the base's true largest pair k, some (k, l)
    # is below it. Joint normal draws of those largest standardised errors, in chunks.
    noise = seeded_normal(covariance, draws, seed)
    own = np.eye(m, dtype=bool)
    above = in_base[:, None] | own
    below = in_variant[None, :] | own
    low_stat = np.empty((draws, int(in_variant.sum())))
    high_stat = np.empty((draws, int(in_base.sum())))
    for first in range(0, draws, 2_000):
        errors = (noise[first : first + 2_000] @ contrast.T).reshape(-1, m, m)
        z = np.divide(errors, se, out=np.zeros_like(errors), where=se > 0)
        low_stat[first : first + 2_000] = np.where(above, z, -np.inf).max(axis=1)[:, in_variant]
        high_stat[first : first + 2_000] = np.where(below, -z, -np.inf).max(axis=2)[:, in_base]
    # One critical value for both bounds: the largest over (k, l) of the 95% quantile of
    # the larger of the two, so that neither misses in 95% of runs whichever pairs hold
    # the runs' largest gaps.
    joint = np.maximum(low_stat[:, :, None], high_stat[:, None, :]).reshape(draws, -1)
    joint.sort(axis=0)
    chosen = np.outer(in_base, in_variant)
    own_contrast = np.concatenate([gap, -gap], axis=1)
    own_value = own_contrast @ mean
    own_spread = np.einsum("ij,jk,ik->i", own_contrast, covariance, own_contrast)
    own_se = np.sqrt(np.clip(own_spread, 0.0, None))

    def critical(alpha: float) -> float:
        row = min(max(int(np.ceil((1 - alpha) * draws)) - 1, 0), draws - 1)
        return float(max(joint[row].max(), 0.0))

    def bounds_at(c: float) -> tuple[float, float]:
        lower = np.where(chosen, value - c * se, np.inf).min(axis=1)[in_base].max()
        upper = np.where(chosen, value + c * se, np.inf).min(axis=1)[in_base].max()
        # Every pair's own paired change: the difference lies between the smallest and
        # the largest of them.
        lower = max(lower, float((own_value - c * own_se).min()))
        upper = min(upper, float((own_value + c * own_se).max()))
        return float(lower), float(upper)

    low, high = bounds_at(critical(1 - LEVEL))
    p = _interval_p(lambda alpha: bounds_at(critical(alpha)), draws)
    resolved = TAIL_DRAWS / draws
    if resolve_tail and p < resolved:
        # The largest of K one-sided standard normals: K components, one column of
        # ``joint`` each side (the most of any column).
        k = int(above[:, in_variant].sum(axis=0).max() + below[in_base, :].sum(axis=1).max())
        p = min(resolved, k * _tail(_widest_excluding(bounds_at, critical(resolved))))
    return {"difference": difference, "low": low, "high": high, "p": p, "games": games}


#: Draws beyond the critical value below which a resampled p-value is not resolved.
TAIL_DRAWS = 100


def _widest_excluding(bounds_at, start: float) -> float:
    """The largest critical value whose interval ``bounds_at(c)`` leaves out 0, from a
    ``start`` whose interval does (intervals widen with ``c``)."""
    if not _holds_zero(bounds_at, 64.0):
        return 64.0
    return _zero_edge(bounds_at, holding=64.0, leaving=start, halvings=60)


def _holds_zero(bounds_at, x: float) -> bool:
    """Whether the interval ``bounds_at(x)`` holds 0."""
    low, high = bounds_at(x)
    return low <= 0.0 <= high


def _zero_edge(bounds_at, holding: float, leaving: float, halvings: int) -> float:
    """Bisect between a parameter whose interval ``bounds_at(x)`` holds 0 and one whose
    interval leaves it out; the end that leaves it out, ``halvings`` halvings on."""
    for _ in range(halvings):
        middle = (holding + leaving) / 2
        if _holds_zero(bounds_at, middle):
            holding = middle
        else:
            leaving = middle
    return leaving


def _tail(c: float) -> float:
    """``1 - Phi(c)``, accurate far in the tail."""
    from scipy import special

    return float(special.ndtr(-c))


def _interval_p(bounds, draws: int) -> float:
    """Two-sided p-value of a zero difference for an interval family ``bounds(alpha)``:
    the smallest ``alpha`` whose interval leaves out 0 (0 when even the most extreme
    draw leaves it out: below ``1 / draws``)."""
    if _holds_zero(bounds, 1.0):
        return 1.0
    if not _holds_zero(bounds, 2.0 / draws):
        return 0.0
    return float(_zero_edge(bounds, holding=2.0 / draws, leaving=1.0, halvings=40))


def _possible_largest(
    gap: np.ndarray, rates: np.ndarray, covariance: np.ndarray, kappa: float
) -> np.ndarray:
    """Indices of the ordered seat pairs whose gap may be the largest: within ``kappa``
    standard errors (of the difference of the two gaps) of the largest observed gap."""
    gaps = gap @ rates
    cov_g = gap @ covariance @ gap.T
    top = int(np.argmax(gaps))
    se = np.sqrt(np.clip(np.diag(cov_g) + cov_g[top, top] - 2 * cov_g[:, top], 0.0, None))
    return np.flatnonzero(gaps >= gaps[top] - kappa * se - 1e-12)


class _GapFamily:
    """Bounds of the largest gap between two seats' win rates from normal intervals of
    every ordered gap ``p_i - p_j``.

    The upper bound is the largest ``gap + z se`` (``z`` the two-sided normal quantile,
    1.96 at 95%): it is below the largest true gap only when the seat pair holding it
    falls below its own one-sided bound, 2.5% of runs. The lower bound is the largest
    ``gap - c se``, ``c`` the 95% quantile of the largest z over the ordered pairs that
    may hold the largest gap (within ``sqrt(log G)`` standard errors of the largest
    observed gap: Andrews and Soares' moment selection), from ``draws`` samples of their
    joint normal distribution (deterministic for a seed), and never below ``z``. At a
    tie the upper bound cannot miss, so the lower bound may spend the whole 5%; far
    from a tie a single pair is selected and both bounds miss 2.5% each.
    """

    def __init__(
        self,
        games: int,
        rates: np.ndarray,
        covariance: np.ndarray | None,
        draws: int,
        seed: int,
    ) -> None:
        n = rates.size
        self.critical: float | None = None
        if games < 2 or covariance is None:
            return
        covariance = np.asarray(covariance, dtype=float) / games
        gap = _ordered_gaps(n)
        self.d = gap @ rates
        cov_d = gap @ covariance @ gap.T
        self.se = np.sqrt(np.clip(np.diag(cov_d), 0.0, None))
        self.z = normal_quantile(0.5 + LEVEL / 2)
        chosen = _possible_largest(gap, rates, covariance, float(np.sqrt(np.log(games))))
        chosen = chosen[self.se[chosen] > 0]
        self.critical = self.z
        if chosen.size:
            scale = self.se[chosen]
            corr = cov_d[np.ix_(chosen, chosen)] / np.outer(scale, scale)
            z = seeded_normal(corr, draws, seed)
            self.critical = max(self.z, float(np.quantile(_row_max(z), LEVEL)))

    def gap_bounds(self) -> tuple[float, float]:
        """Bounds ``(low, high)`` of the largest gap."""
        low = float(max(0.0, (self.d - self.critical * self.se).max()))
        return low, float((self.d + self.z * self.se).max())


@functools.lru_cache(maxsize=8)
def _standard_normals(seed: int, draws: int, k: int) -> np.ndarray:
    """``np.random.default_rng(seed).standard_normal((draws, k))``, read-only, kept: a
    sweep asks for the same draws at every point."""
    values = np.random.default_rng(seed).standard_normal((draws, k))
    values.flags.writeable = False
    return values


def seeded_normal(covariance: np.ndarray, draws: int, seed: int) -> np.ndarray:
    """``np.random.default_rng(seed).multivariate_normal(0, covariance, size=draws,
    method="eigh")``, the same draws bit for bit (tests/test_metrics.py checks it), with
    the standard normal draws behind them drawn once per ``(seed, draws, k)``.

    Parameters
    ----------
    covariance : float ``(k, k)``, symmetric positive semi-definite.

    Returns
    -------
    float ``(draws, k)``.
    """
    covariance = np.asarray(covariance, dtype=np.double)
    k = covariance.shape[0]
    s, u = np.linalg.eigh(covariance)
    if np.any(s < -1e-8):  # numpy's own check (check_valid="warn", tol=1e-8)
        warnings.warn(
            "covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2
        )
    factor = (u * np.sqrt(abs(s))).T
    normals = _standard_normals(seed, draws, k)
    out = np.empty((draws, k))
    # In slices of rows: each small product runs on one BLAS thread, the same sums in the
    # same order, where one large product waits for BLAS threads on a busy machine
    # (measured 4-8 ms against 0.3-0.6 ms for 20,000 x 12 draws on 2 loaded cores).
    for first in range(0, draws, _ROWS):
        np.matmul(normals[first : first + _ROWS], factor, out=out[first : first + _ROWS])
    out += 0.0  # as numpy adds the zero mean: -0.0 becomes 0.0
    return out


def _row_max(values: np.ndarray) -> np.ndarray:
    """``values.max(axis=1)`` of a float ``(R, k)`` array, column by column (a tenth of
    the time of numpy's reduction along short rows), the same numbers: shape ``(R,)``."""
    largest = values[:, 0].copy()
    for column in range(1, values.shape[1]):
        np.maximum(largest, values[:, column], out=largest)
    return largest


#: Rows of a slice in :func:`seeded_normal`.
_ROWS = 2048


def _ordered_gaps(n: int) -> np.ndarray:
    """``(n (n - 1), n)`` contrasts: row ``(i, j)`` gives ``p_i - p_j``, for ``i != j``."""
    pairs = np.array([(i, j) for i in range(n) for j in range(n) if i != j])
    gap = np.zeros((len(pairs), n))
    gap[np.arange(len(pairs)), pairs[:, 0]] = 1.0
    gap[np.arange(len(pairs)), pairs[:, 1]] = -1.0
    return gap


def _with_wilson(table: pd.DataFrame, successes: str, trials: str) -> pd.DataFrame:
    wins = table[successes].to_numpy()
    total = table[trials].to_numpy()
    low, high = wilson_interval(wins, total)
    with np.errstate(invalid="ignore", divide="ignore"):
        table["rate"] = np.where(total > 0, wins / np.where(total > 0, total, 1), np.nan)
    table["low"] = low
    table["high"] = high
    return table


@dataclass(frozen=True)
class Metric:
    """A per-game quantity a comparison tests.

    ``column`` names a column of the per-game table (one value a game); ``kind`` is
    ``"share"`` (0/1 a game: a rate, Wilson interval per run), ``"seat share"`` (the
    share of its ``seats`` seats of a game a strategy won: a rate over seats with games as
    clusters, Wilson's interval at the effective number of seats per run, as the summary
    gives it) or ``"mean"`` (Student t). ``shared``, for a win rate, names the per-game
    column of the wins shared with another winner, so that a comparison can say how much
    of a difference comes from shared wins.
    """

    name: str
    column: str
    kind: str
    unit: str = ""
    shared: str = ""
    seats: int = 1


#: Kinds of metric that are rates (printed in percent, differences in points).
RATE_KINDS = ("share", "seat share")


def common_per_game(
    length: np.ndarray, finished: np.ndarray, won: np.ndarray, unit: str
) -> tuple[pd.DataFrame, list[Metric]]:
    """The per-game values every game has, and the metrics a comparison tests on them.

    Parameters
    ----------
    length : ``(G,)`` game lengths; finished : bool ``(G,)``; won : bool ``(G, n)``.
    """
    won = np.asarray(won, dtype=bool)
    n = won.shape[1]
    winners = won.sum(axis=1)
    columns: dict[str, np.ndarray] = {
        "length": np.asarray(length, dtype=float),
        "finished": np.asarray(finished, dtype=bool),
    }
    chosen = [
        Metric("game length", "length", "mean", unit),
        Metric("finished before the cap", "finished", "share"),
    ]
    for seat in range(n):
        columns[f"won_{seat}"] = won[:, seat]
        chosen.append(Metric(f"seat {seat} win rate", f"won_{seat}", "share"))
    for k in range(0, min(n, 2) + 1):
        columns[f"winners_{k}"] = winners == k
        chosen.append(
            Metric(f"games with {k} winner{'s' if k != 1 else ''}", f"winners_{k}", "share")
        )
    return pd.DataFrame(columns), chosen


def estimate(values: np.ndarray, kind: str, seats: int = 1) -> tuple[float, float, float]:
    """One run's value of a metric with its 95% interval: ``(value, low, high)``.

    ``seats``: for a ``"seat share"``, the seats a game each value is the share of. A
    ``"mean"`` is of a count a game (a length, reveals, uses, damage, a score): its
    interval is cut at 0, as ``simulate`` and ``sweep`` cut it."""
    values = np.asarray(values)
    if kind == "share":
        count, total = int(values.sum()), int(values.size)
        low, high = wilson_interval(count, total)
        return (count / total if total else float("nan")), float(low), float(high)
    if kind == "seat share":
        shares = values.astype(float)
        return share_interval(seats * shares, np.full(shares.size, float(seats)))
    return mean_interval(values.astype(float), floor=0.0)


def paired_table(
    runs: dict[str, pd.DataFrame], chosen: Sequence[Metric], won_columns: Sequence[str]
) -> pd.DataFrame:
    """Each run's metrics, and each later run's paired difference from the first.

    Parameters
    ----------
    runs : per-game tables by run label, first the run the others are compared with;
        row ``i`` of every table is game index ``i`` of the same seed.
    chosen : the metrics to test.
    won_columns : the per-seat win columns, for the balance index.

    Returns
    -------
    DataFrame, one row a (run, metric): ``run``, ``metric``, ``unit``, ``kind``, ``games``,
    ``value``/``low``/``high`` (the run's own), and for every run after the first
    ``base_value``, ``difference``/``diff_low``/``diff_high``, ``p``, ``p_holm`` and
    ``significant`` (after Holm's correction over every test of the table);
    ``p_is_bound`` marks a resampled p-value (the balance index's) that no draw reached:
    ``p`` then holds its bound ``1 / DRAWS``, and ``p_holm`` is a bound too; for the
    win rates that name a ``shared`` column, ``shared_difference``: the part of the
    difference that comes from wins shared with another winner (paired mean).
    """
    labels = list(runs)
    sizes = {len(table) for table in runs.values()}
    if len(sizes) != 1:
        raise ValueError("every run of a comparison must hold the same games")
    base = runs[labels[0]]
    rows = []
    for label in labels:
        table = runs[label]
        for metric in chosen:
            value, low, high = estimate(table[metric.column].to_numpy(), metric.kind, metric.seats)
            row = {
                "run": label,
                "metric": metric.name,
                "unit": metric.unit,
                "kind": metric.kind,
                "games": len(table),
                "value": value,
                "low": low,
                "high": high,
            }
            if label != labels[0]:
                diff = paired_difference(
                    table[metric.column].to_numpy(),
                    base[metric.column].to_numpy(),
                    bounds=(-1.0, 1.0) if metric.kind in RATE_KINDS else (-np.inf, np.inf),
                )
                row.update(
                    base_value=estimate(base[metric.column].to_numpy(), metric.kind, metric.seats)[
                        0
                    ],
                    difference=diff["difference"],
                    diff_low=diff["low"],
                    diff_high=diff["high"],
                    p=diff["p"],
                )
                if metric.shared:
                    row["shared_difference"] = paired_difference(
                        table[metric.shared].to_numpy(), base[metric.shared].to_numpy()
                    )["difference"]
            rows.append(row)
        won = table[list(won_columns)].to_numpy()
        index = balance_index_interval(won)
        row = {
            "run": label,
            "metric": "balance index",
            "unit": "",
            "kind": "index",
            "games": len(table),
            "value": index["value"],
            "low": index["low"],
            "high": index["high"],
        }
        if label != labels[0]:
            diff = balance_index_difference(won, base[list(won_columns)].to_numpy(), draws=DRAWS)
            # A resampled p-value with no draw beyond 0 is below 1/draws, not 0: keep the
            # bound (Holm adjusts it like any other p) and say it is one.
            bound = diff["p"] == 0
            row.update(
                base_value=balance_index(base[list(won_columns)].to_numpy().mean(axis=0)),
                difference=diff["difference"],
                diff_low=max(diff["low"], -1.0),  # two indices in [0, 1]
                diff_high=min(diff["high"], 1.0),
                p=1 / DRAWS if bound else diff["p"],
                p_is_bound=bound,
            )
        rows.append(row)
    result = pd.DataFrame(rows)
    if "p" not in result:
        result["p"] = np.nan
    bound = result["p_is_bound"] if "p_is_bound" in result else pd.Series(False, result.index)
    result["p_is_bound"] = bound.astype("boolean").fillna(False).astype(bool)
    result["p_holm"], result["significant"] = holm(result["p"].to_numpy())
    return result
