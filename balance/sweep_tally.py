"""A sweep's unit of work: one design point's block of games, reduced to outcome counts.

A task plays games ``start .. start + size - 1`` of one point and returns a
:class:`Tally`: every distinct per-game outcome (length, finished, who won, the game's
own per-game figures: the columns ``balance compare`` tests) with how many games had
it. That is all a point's figures need, it is small (a few hundred to a few thousand
rows for twenty thousand games), and tallies merge in any order into the same canonical
table (rows sorted), so a point's figures do not depend on how its games were split
into blocks, nor on which thread, process or machine played them.

With a baseline, a task also plays the baseline's games of the same indices and tallies
the pairs (point outcome, baseline outcome), so paired differences stay exact.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from balance.games import get_game
from balance.games.base import Setup
from balance.metrics import Metric

#: Prefix of the baseline's columns in a paired tally.
BASE = "base:"


@dataclass(frozen=True)
class Tally:
    """Distinct per-game outcomes of some games of one point, with their counts.

    Attributes
    ----------
    columns : names of the per-game columns (the baseline's prefixed with ``base:``).
    metrics : the figures the game's per-game columns carry (as ``compare`` tests them).
    won_columns : the per-seat win columns.
    rows : float64 ``(R, C)``, each distinct outcome once, rows in sorted order.
    counts : int64 ``(R,)``, games with that outcome.
    """

    columns: tuple[str, ...]
    metrics: tuple[Metric, ...]
    won_columns: tuple[str, ...]
    rows: np.ndarray
    counts: np.ndarray

    @property
    def games(self) -> int:
        return int(self.counts.sum())

    def frame(self, prefix: str = "") -> pd.DataFrame:
        """The games as one row a game (outcomes in sorted order, not game order).

        ``prefix`` ``""``: the point's columns; :data:`BASE`: the baseline's.
        """
        keep = [k for k, c in enumerate(self.columns) if _owner(c) == prefix]
        expanded = np.repeat(self.rows[:, keep], self.counts, axis=0)
        names = [self.columns[k][len(prefix) :] for k in keep]
        return pd.DataFrame(expanded, columns=names)


def _owner(column: str) -> str:
    return BASE if column.startswith(BASE) else ""


def compact(frame: pd.DataFrame, metrics: Sequence[Metric], won_columns: Sequence[str]) -> Tally:
    """One row a game -> its distinct rows and their counts."""
    values = frame.to_numpy(dtype=np.float64)
    rows, counts = _unique_rows(values, np.ones(len(values), dtype=np.int64))
    return Tally(tuple(frame.columns), tuple(metrics), tuple(won_columns), rows, counts)


def _unique_rows(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct rows of ``values`` ``(R, C)`` and the summed ``weights`` of each."""
    if len(values) == 0:
        return values.reshape(0, values.shape[1]), np.zeros(0, dtype=np.int64)
    values = np.ascontiguousarray(values)
    rows, inverse = np.unique(values, axis=0, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=weights, minlength=len(rows))
    return rows, np.rint(counts).astype(np.int64)


def merge(tallies: Sequence[Tally]) -> Tally:
    """The tallies of several blocks of one point as one, whatever their order."""
    first = tallies[0]
    for tally in tallies[1:]:
        if tally.columns != first.columns:
            raise ValueError("tallies of one point must share their columns")
    rows, counts = _unique_rows(
        np.concatenate([t.rows for t in tallies]), np.concatenate([t.counts for t in tallies])
    )
    return Tally(first.columns, first.metrics, first.won_columns, rows, counts)


# Baseline blocks already played by this process: a sweep asks for the same baseline
# block once per point (every point is paired with it), so keep the last few.
_BASELINE_CACHE: OrderedDict[tuple, pd.DataFrame] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 256


def per_game_frame(
    setup: Setup, start: int, size: int
) -> tuple[pd.DataFrame, list[Metric], list[str]]:
    """Games ``start .. start + size - 1`` of ``setup`` as ``compare``'s per-game table."""
    from balance.compare import _per_game
    from balance.run import RunResult

    game = get_game(setup.game)
    game.prepare(setup)
    block = game.play_block(setup, start, size)
    result = RunResult(setup=setup, requested=size, blocks=[block])
    return _per_game(result, size)


def _baseline_frame(setup: Setup, start: int, size: int) -> pd.DataFrame:
    try:
        key: tuple | None = (setup, start, size)
        hash(key)
    except TypeError:
        key = None
    if key is not None:
        with _CACHE_LOCK:
            if key in _BASELINE_CACHE:
                _BASELINE_CACHE.move_to_end(key)
                return _BASELINE_CACHE[key]
    frame = per_game_frame(setup, start, size)[0]
    if key is not None:
        with _CACHE_LOCK:
            _BASELINE_CACHE[key] = frame
            while len(_BASELINE_CACHE) > _CACHE_SIZE:
                _BASELINE_CACHE.popitem(last=False)
    return frame


def play_tally(setup: Setup, start: int, size: int, baseline: Setup | None = None) -> Tally:
    """Play games ``start .. start + size - 1`` of ``setup`` and tally their outcomes.

    With ``baseline``, the same game indices of the baseline are played too (or taken
    from this process's cache) and each game's pair of outcomes is tallied.
    """
    frame, chosen, won_columns = per_game_frame(setup, start, size)
    if baseline is not None:
        base = _baseline_frame(baseline, start, size)
        frame = pd.concat([frame, base.add_prefix(BASE)], axis=1)
    return compact(frame, chosen, won_columns)


def warm(setup: Setup) -> bool:
    """Compile (or load from the cache) the game's engine in this process."""
    get_game(setup.game).prepare(setup)
    return True
