"""Running sums of a run's games: what every printed figure and its interval needs.

A run that saves nothing keeps no per-game records. Each block of games is reduced
(:meth:`RunSums.add`, on the thread that played it) to integer sums that add up
across blocks: the games, the sum and the sums of products of a few per-game columns
(seat wins, card reveals, ...), and histograms (lengths of finished and unfinished
games, winners per game, dice faces). Means and their Student-t intervals, ratios and
shares of trials with their delta-method intervals (games as clusters), the seats'
covariance behind the balance index, and the Kaplan-Meier length figures are exact
functions of these sums, so the summary is the one the records give (to floating-point
rounding), in memory that does not grow with the number of games.

Sums are whole numbers held in int64 and combined in Python integers, so they stay
exact at any number of games a run may ask for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from balance.core.game import Block, Game, Setup
from balance.games import get_game
from balance.stats.intervals import (
    LEVEL,
    length_counts,
    mean_interval_from_sums,
    ratio_interval_from_sums,
    share_from_ratio,
)


@dataclass
class RunSums:
    """Integer running sums over the games of a run, merged block by block.

    Attributes
    ----------
    games : games added.
    columns : names of the per-game columns, in the order of :attr:`total`.
    total : int64 ``(k,)``, each column's sum over games.
    cross : int64 ``(k, k)``, the sums over games of each pair of columns' product.
    counts : histograms by name, each int64 ``(m,)``: games with value ``0 .. m - 1``; or
        any other whole-number sums a game reduces a block to (flattened to ``(m,)``),
        which add up across blocks bin by bin as histograms do.
    """

    columns: tuple[str, ...]
    games: int = 0
    total: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    cross: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    counts: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        k = len(self.columns)
        if self.total.shape != (k,):
            self.total = np.zeros(k, dtype=np.int64)
        if self.cross.shape != (k, k):
            self.cross = np.zeros((k, k), dtype=np.int64)
        self._where = {name: i for i, name in enumerate(self.columns)}

    @classmethod
    def of_block(
        cls,
        games: int,
        values: np.ndarray,
        columns: Sequence[str],
        counts: Mapping[str, np.ndarray],
    ) -> RunSums:
        """The sums of one block.

        Parameters
        ----------
        games : the block's games ``G``.
        values : whole numbers ``(G, k)`` (float64 best: no copy), one row a game, one
            column a name of ``columns``.
        counts : histograms by name (int ``(m,)``, from ``np.bincount``).
        """
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (games, len(columns)):
            raise ValueError(f"values must be ({games}, {len(columns)}), not {values.shape}")
        # Whole numbers: BLAS products are exact while every partial sum stays below
        # 2**53, which the largest sum of squares bounds (Cauchy-Schwarz).
        cross_f = values.T @ values
        if games and float(np.abs(np.diag(cross_f)).max(initial=0.0)) >= 2.0**53:
            raise ValueError("a block's values are too large to sum exactly")
        total = np.rint(values.sum(axis=0)).astype(np.int64)
        cross = np.rint(cross_f).astype(np.int64)
        return cls(
            tuple(columns),
            int(games),
            total,
            cross,
            {name: np.asarray(c, dtype=np.int64) for name, c in counts.items()},
        )

    def merge(self, other: RunSums) -> None:
        """Add ``other``'s games to these sums (in place)."""
        if other.columns != self.columns:
            raise ValueError("sums of one run must share their columns")
        self.games += other.games
        self.total += other.total
        self.cross += other.cross
        for name, hist in other.counts.items():
            mine = self.counts.get(name, np.zeros(0, dtype=np.int64))
            size = max(mine.size, hist.size)
            merged = np.zeros(size, dtype=np.int64)
            merged[: mine.size] += mine
            merged[: hist.size] += hist
            self.counts[name] = merged

    def count(self, name: str) -> np.ndarray:
        """Histogram ``name`` (int64 ``(m,)``; empty if no game added to it)."""
        return self.counts.get(name, np.zeros(0, dtype=np.int64))

    def sum(self, name: str) -> int:
        """Sum of column ``name`` over games."""
        return int(self.total[self._where[name]])

    def product(self, a: str, b: str) -> int:
        """Sum over games of column ``a`` times column ``b``."""
        return int(self.cross[self._where[a], self._where[b]])

    def mean_interval(
        self, name: str, level: float = LEVEL, floor: float = -np.inf
    ) -> tuple[float, float, float]:
        """Mean of column ``name`` over games with a Student-t interval, as
        :func:`balance.stats.intervals.mean_interval` gives it from the per-game values."""
        total, squares = self.sum(name), self.product(name, name)
        return mean_interval_from_sums(self.games, total, squares, level, floor)

    def ratio_interval(
        self, numerator: str, denominator: str, level: float = LEVEL, floor: float = -np.inf
    ) -> tuple[float, float, float]:
        """:func:`balance.stats.intervals.ratio_interval` of two columns, from their sums."""
        return ratio_interval_from_sums(
            self.games,
            self.sum(numerator),
            self.sum(denominator),
            self.product(numerator, numerator),
            self.product(numerator, denominator),
            self.product(denominator, denominator),
            level,
            floor,
        )

    def share_interval(
        self, numerator: str, denominator: str, level: float = LEVEL
    ) -> tuple[float, float, float]:
        """:func:`balance.stats.intervals.share_interval` of two columns, from their sums."""
        share, low, high = self.ratio_interval(numerator, denominator, level)
        return share_from_ratio(share, low, high, self.sum(denominator), level)

    def covariance(self, names: Sequence[str]) -> np.ndarray:
        """Sample covariance ``(k, k)`` of columns ``names`` over games (``np.cov``'s,
        ``ddof=1``); NaN below two games."""
        index = [self._where[n] for n in names]
        return exact_covariance(self.games, self.total[index], self.cross[np.ix_(index, index)])

    def rates(self, names: Sequence[str]) -> np.ndarray:
        """Mean of each column of ``names`` over games, float64 ``(k,)``."""
        sums = np.array([self.sum(n) for n in names], dtype=np.float64)
        return sums / self.games if self.games else np.full(len(names), np.nan)


def exact_covariance(games: int, total: np.ndarray, cross: np.ndarray) -> np.ndarray:
    """Sample covariance (``np.cov``'s, ``ddof=1``) of per-game whole numbers from their
    sums, in exact integer arithmetic; NaN below two games.

    Parameters
    ----------
    games : G; total : int ``(k,)``, sums over games; cross : int ``(k, k)``, sums over
        games of each pair's product.

    Returns
    -------
    float ``(k, k)``.
    """
    k = len(total)
    if games < 2:
        return np.full((k, k), np.nan)
    out = np.empty((k, k))
    for a in range(k):
        for b in range(k):
            exact = games * int(cross[a, b]) - int(total[a]) * int(total[b])
            out[a, b] = exact / (games * (games - 1))
    return out


def padded_sum(histograms: Sequence[np.ndarray]) -> np.ndarray:
    """Histograms of different lengths added bin by bin, int64."""
    size = max((h.size for h in histograms), default=0)
    out = np.zeros(size, dtype=np.int64)
    for h in histograms:
        out[: h.size] += h
    return out


def block_sums(setup: Setup, block: Block) -> RunSums:
    """One block of games reduced to the sums every summary figure needs.

    Every game: a histogram of the lengths of finished games (``length_ended``) and of
    all games (``length_stopped``), of the winners per game (``winners``), each seat's
    win (``won_s``) and with mixed strategies each strategy label's seats (``plays_k``)
    and wins (``wins_k``) per game. The game adds its own columns and histograms
    (``Game.sum_columns``).
    """
    game = get_game(setup.game)
    won = np.asarray(block.won, dtype=bool)
    g, n = won.shape
    lengths = np.rint(np.asarray(block.length)).astype(np.int64)
    ended, stopped = length_counts(lengths, block.finished)
    columns = [f"won_{s}" for s in range(n)]
    parts: list[np.ndarray] = [won]
    if setup.lineup.mixed:
        plays, wins = strategy_seats(setup, block.first_game, won)
        columns += [f"plays_{k}" for k in range(plays.shape[1])]
        columns += [f"wins_{k}" for k in range(wins.shape[1])]
        parts += [plays, wins]
    own_columns, own_values, own_counts = game.sum_columns(block, setup)
    columns += list(own_columns)
    parts.append(np.asarray(own_values).reshape(g, len(own_columns)))
    counts = {
        "length_ended": ended,
        "length_stopped": stopped,
        "winners": np.bincount(won.sum(axis=1), minlength=3).astype(np.int64),
        **own_counts,
    }
    values = np.concatenate(parts, axis=1, dtype=np.float64, casting="same_kind")
    return RunSums.of_block(g, values, columns, counts)


def strategy_seats(setup: Setup, first_game: int, won: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game and strategy label (in the order labels first appear in the line-up):
    the seats it played and the seats it won, each int64 ``(G, K)``."""
    labels = setup.lineup.labels
    unique = list(dict.fromkeys(labels))
    label_of = np.array([unique.index(label) for label in labels])
    g, n = won.shape
    index = np.arange(first_game, first_game + g, dtype=np.int64)
    seat_labels = np.stack(
        [label_of[setup.lineup.strategy_index(index, seat)] for seat in range(n)], axis=1
    )
    plays = np.zeros((g, len(unique)), dtype=np.int64)
    wins = np.zeros((g, len(unique)), dtype=np.int64)
    for k in range(len(unique)):
        here = seat_labels == k
        plays[:, k] = here.sum(axis=1)
        wins[:, k] = (here & won).sum(axis=1)
    return plays, wins


def supports_sums(game: Game) -> bool:
    """Whether ``game`` can summarise a run from running sums (``sum_columns`` and
    ``summarize_sums``); other games keep their slim records."""
    return game.capabilities.running_sums
