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

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from balance.core.game import Block, Setup
from balance.games import get_game
from balance.stats.metrics import Metric, common_per_game

#: Prefix of the baseline's columns in a paired tally.
BASE = "base:"


@dataclass(frozen=True)
class Task:
    """Games ``start .. start + size - 1`` of design point ``point``."""

    point: int
    start: int
    size: int
    setup: Setup
    baseline: Setup | None


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
    own = [c for c in own if not re.fullmatch(r"winners_\d+", c)]
    for column in own:
        groups[column] = [column]
    if paired:
        groups[WON] = [*won_columns, *(BASE + c for c in won_columns)]
        for column in ["length", "finished", *own]:
            groups[BASE + column] = [column, BASE + column]
    return groups


def compact(
    columns: Mapping[str, np.ndarray] | pd.DataFrame,
    metrics: Sequence[Metric],
    won_columns: Sequence[str],
) -> Tally:
    """One value a game per column -> the joint counts of each group of columns."""
    names = list(columns.keys()) if isinstance(columns, Mapping) else list(columns.columns)
    paired = any(c.startswith(BASE) for c in names)
    groups = {}
    size = len(next(iter(columns.values()))) if isinstance(columns, Mapping) else len(columns)
    ones = np.ones(size, dtype=np.int64)
    for name, chosen in _groups_of(names, metrics, won_columns, paired).items():
        arrays = [np.asarray(columns[c]) for c in chosen]
        counted = _count_whole_rows(arrays) if size else None
        if counted is None:
            values = np.column_stack([np.asarray(a, dtype=np.float64) for a in arrays])
            counted = _unique_rows(values, ones)
        groups[name] = Group(tuple(chosen), *counted)
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


def _count_whole_rows(arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_unique_rows` of columns of integers or booleans (one count a game), the
    same rows in the same order, counted without converting to floats first; None when
    a column is not of whole non-negative numbers with a small enough range.

    Parameters
    ----------
    arrays : ``C`` arrays of shape ``(G,)``, ``G > 0``.
    """
    if not all(a.dtype.kind in "biu" for a in arrays):
        return None
    columns = [a.astype(np.int64) for a in arrays]
    if min(int(c.min()) for c in columns) < 0:
        return None
    radix = np.array([int(c.max()) + 1 for c in columns], dtype=np.int64)
    if np.sum(np.log2(radix.astype(float))) >= 62:
        return None
    place = np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]]).astype(np.int64)
    key = columns[0] * place[0] if len(columns) > 1 else columns[0]
    for column, step in zip(columns[1:], place[1:], strict=True):
        key += column * step
    # Keys in increasing order are the rows in lexicographic order, as _unique_rows sorts.
    if int(place[0] * radix[0]) < 16 * len(key) + 1024:
        totals = np.bincount(key)
        present = np.flatnonzero(totals)
        counts = totals[present].astype(np.int64)
    else:
        present, counts = np.unique(key, return_counts=True)
    rows = (present[:, None] // place[None, :]) % radix[None, :]
    return rows.astype(np.float64), counts.astype(np.int64)


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
_BASELINE_CACHE: OrderedDict[tuple, dict[str, np.ndarray]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 256


def per_game_columns(
    setup: Setup, start: int, size: int
) -> tuple[dict[str, np.ndarray], list[Metric], list[str]]:
    """Games ``start .. start + size - 1`` of ``setup``: the per-game columns ``balance
    compare`` tests (length, finished, each seat's win, the game's own and, with mixed
    strategies, each strategy's), one value a game, and the metrics on them."""
    from balance.analyses.compare import _strategy_per_game

    game = get_game(setup.game)
    game.prepare(setup)
    block = tally_block(game, setup, start, size)
    won = np.asarray(block.won, dtype=bool)
    n = won.shape[1]
    # The metrics only (no games): the columns are built here without pandas.
    empty = (np.zeros(0), np.zeros(0, bool), np.zeros((0, n), bool), game.length_unit)
    _, chosen = common_per_game(*empty)
    columns: dict[str, np.ndarray] = {  # the engine's own types: counted as integers
        "length": np.asarray(block.length),
        "finished": np.asarray(block.finished),
    }
    won_columns = [f"won_{seat}" for seat in range(n)]
    for seat, column in enumerate(won_columns):
        columns[column] = won[:, seat]
    own, own_chosen = game.per_game([block])
    index = np.arange(start, start + size, dtype=np.int64)
    strategies, strategy_chosen = _strategy_per_game(setup, index, won, own)
    for frame in (own, strategies):
        for column in frame.columns:
            columns[column] = frame[column].to_numpy()
    return columns, chosen + strategy_chosen + own_chosen, won_columns


def tally_block(game: Any, setup: Setup, start: int, size: int) -> Block:
    """A block of games in the form the per-game columns are read from: the slim block
    where the game's engine records it directly (less to write, no summing over seats
    afterwards), else the whole block (slimming it would cost more than it saves)."""
    if game.capabilities.slim_records:
        return game.play_slim_block(setup, start, size)
    return game.play_block(setup, start, size)


def _baseline_columns(setup: Setup, start: int, size: int) -> dict[str, np.ndarray]:
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
    columns = per_game_columns(setup, start, size)[0]
    if key is not None:
        with _CACHE_LOCK:
            _BASELINE_CACHE[key] = columns
            while len(_BASELINE_CACHE) > _CACHE_SIZE:
                _BASELINE_CACHE.popitem(last=False)
    return columns


def play_tally(setup: Setup, start: int, size: int, baseline: Setup | None = None) -> Tally:
    """Play games ``start .. start + size - 1`` of ``setup`` and tally their outcomes.

    With ``baseline``, the same game indices of the baseline are played too (or taken
    from this process's cache) and each game's pair of outcomes is tallied.
    """
    columns, chosen, won_columns = per_game_columns(setup, start, size)
    if baseline is not None:
        base = _baseline_columns(baseline, start, size)
        columns.update({BASE + name: values for name, values in base.items()})
    return compact(columns, chosen, won_columns)
