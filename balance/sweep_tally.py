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
class Group:
    """The joint distribution of a few per-game columns: distinct rows and their counts.

    Attributes
    ----------
    columns : the columns' names (the baseline's prefixed with ``base:``).
    rows : float64 ``(R, C)``, each distinct row once, in a canonical order.
    counts : int64 ``(R,)``, games with that row.
    """

    columns: tuple[str, ...]
    rows: np.ndarray
    counts: np.ndarray

    def values(self) -> np.ndarray:
        """The games' rows, float64 ``(G, C)`` (canonical order, not game order)."""
        return np.repeat(self.rows, self.counts, axis=0)


@dataclass(frozen=True)
class Tally:
    """What a point's figures need from some of its games: joint counts of column groups.

    Groups: ``core`` (length, finished and every seat's win: the headline figures),
    one group a game's own per-game column, and with a baseline, the pairs
    ``(column, base:column)`` and ``(won_*, base:won_*)`` that paired differences need.

    Attributes
    ----------
    groups : by name.
    metrics : the figures the per-game columns carry (as ``compare`` tests them).
    won_columns : the per-seat win columns.
    """

    groups: dict[str, Group]
    metrics: tuple[Metric, ...]
    won_columns: tuple[str, ...]

    @property
    def games(self) -> int:
        return int(self.groups[CORE].counts.sum())

    def values(self, group: str) -> pd.DataFrame:
        """One row a game of one group's columns."""
        chosen = self.groups[group]
        return pd.DataFrame(chosen.values(), columns=list(chosen.columns))


CORE = "core"
WON = "won"


def _groups_of(
    columns: Sequence[str], metrics: Sequence[Metric], won_columns: Sequence[str], paired: bool
) -> dict[str, list[str]]:
    """Which columns each group holds."""
    groups = {CORE: ["length", "finished", *won_columns]}
    own = [m.column for m in metrics if m.column in columns and m.column not in groups[CORE]]
    own = [c for c in own if not c.startswith("winners_")]
    for column in own:
        groups[column] = [column]
    if paired:
        groups[WON] = [*won_columns, *(BASE + c for c in won_columns)]
        for column in ["length", "finished", *own]:
            groups[BASE + column] = [column, BASE + column]
    return groups


def compact(frame: pd.DataFrame, metrics: Sequence[Metric], won_columns: Sequence[str]) -> Tally:
    """One row a game -> the joint counts of each group of columns."""
    paired = any(c.startswith(BASE) for c in frame.columns)
    groups = {}
    data = frame.to_numpy(dtype=np.float64)  # one conversion; then plain column indices
    where = {name: k for k, name in enumerate(frame.columns)}
    ones = np.ones(len(frame), dtype=np.int64)
    for name, columns in _groups_of(list(frame.columns), metrics, won_columns, paired).items():
        rows, counts = _unique_rows(data[:, [where[c] for c in columns]], ones)
        groups[name] = Group(tuple(columns), rows, counts)
    return Tally(groups, tuple(metrics), tuple(won_columns))


def _unique_rows(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of ``values`` ``(R, C)`` in a canonical order, and the summed
    ``weights`` of each.

    Rows of small non-negative whole numbers (lengths, wins, counts) are numbered in
    mixed radix and sorted by that number (fast); other rows are sorted as rows. Either
    order depends only on the set of distinct rows, never on how games were split.
    """
    if len(values) == 0:
        return values.reshape(0, values.shape[1]), np.zeros(0, dtype=np.int64)
    values = np.ascontiguousarray(values)
    whole = np.all(values >= 0) and np.all(values == np.floor(values))
    if whole:
        radix = values.max(axis=0).astype(np.int64) + 1
        if np.sum(np.log2(radix.astype(float))) < 62:
            place = np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]]).astype(np.int64)
            key = values.astype(np.int64) @ place
            if key.max() < 16 * len(key) + 1024:  # small keys: count them directly
                totals = np.bincount(key, weights=weights)
                present = np.flatnonzero(totals)
                rows = (present[:, None] // place[None, :]) % radix[None, :]
                return rows.astype(np.float64), np.rint(totals[present]).astype(np.int64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            counts = np.bincount(inverse.ravel(), weights=weights, minlength=len(first))
            return values[first], np.rint(counts).astype(np.int64)
    rows, inverse = np.unique(values, axis=0, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=weights, minlength=len(rows))
    return rows, np.rint(counts).astype(np.int64)


def merge(tallies: Sequence[Tally]) -> Tally:
    """The tallies of several blocks of one point as one, whatever their order."""
    first = tallies[0]
    groups = {}
    for name, group in first.groups.items():
        parts = [t.groups[name] for t in tallies]
        if any(part.columns != group.columns for part in parts):
            raise ValueError("tallies of one point must share their columns")
        rows, counts = _unique_rows(
            np.concatenate([p.rows for p in parts]), np.concatenate([p.counts for p in parts])
        )
        groups[name] = Group(group.columns, rows, counts)
    return Tally(groups, first.metrics, first.won_columns)


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
