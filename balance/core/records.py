"""A game's per-game records, declared once.

A game keeps a few record arrays per block of games: ``games`` (a row a game), ``seats``
(a row a seat of a game), and per-seat detail such as ``cards``. Each is declared once as
a :class:`RecordArray`: its element type, the axes between the game and its slots
(:class:`Axis`: seats, cards, boats), and its statistics in slot order (:class:`Stat`),
with the table columns the game derives from other records (:class:`Derived`) in their
place. From that one declaration come:

* the slot constants kernels index with (:attr:`RecordArray.slots`: a ``NamedTuple``
  instance, which numba folds into constants, as it does hand-written ones);
* the zeroed arrays a block fills (:meth:`RecordLayout.empty`), held by :class:`Records`;
* each game in the reference engine's record form (:meth:`Records.game_record`), and the
  reference engine's games as arrays (:meth:`RecordLayout.from_games`);
* the columns of the record tables a run saves as Parquet (:meth:`RecordArray.columns`).
"""

from __future__ import annotations

import collections
import dataclasses
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balance.core.lazy import pa  # pyarrow: loaded when records become tables


@dataclass(frozen=True)
class Stat:
    """``width`` consecutive slots of a record array's last axis, in the game's words.

    Attributes
    ----------
    name : the statistic, lower case: its slot constant is ``name.upper()``.
    width : slots it takes (one per colour, per round, ...).
    record : the reference engine's record field that holds it (``""``: ``name``;
        None: none). Stats that name the same field make one list.
    flag : a yes/no: bool in the record and in the table.
    table : the table column's numpy type (None: the array's own).
    labels : names of the values (a dictionary column; negative values are null).
    missing : a negative value means none (null in the table).
    column : the table column (``""``: ``name``; None: not in the table), or one name a
        slot for a stat of several slots.
    """

    name: str
    width: int = 1
    record: str | None = ""
    flag: bool = False
    table: Any = None
    labels: Sequence[str] | None = None
    missing: bool = False
    column: str | Sequence[str] | None = ""

    @property
    def field_name(self) -> str | None:
        return self.name if self.record == "" else self.record

    @property
    def column_names(self) -> tuple[str, ...]:
        if self.column is None:
            return ()
        if self.column == "":
            return (self.name,)
        return (self.column,) if isinstance(self.column, str) else tuple(self.column)


@dataclass(frozen=True)
class Derived:
    """A table column the game derives from the block (a winners count, the strategy
    label), not read from a slot: :meth:`RecordArray.columns` takes its values as given."""

    name: str


@dataclass(frozen=True)
class Axis:
    """An axis between a record array's game axis and its slots.

    Its length is ``size + per_seat * players``; its table column (named ``name``) holds
    each row's index: int8 without ``labels``, else a dictionary column of the labels.
    """

    name: str
    size: int = 0
    per_seat: int = 0
    labels: Sequence[str] | None = None

    def length(self, players: int) -> int:
        return self.size + self.per_seat * players


#: The seats of a game: the axis of every per-seat record.
SEAT = Axis("seat", per_seat=1)


def slot_constants(type_name: str, module: str, stats: Sequence[Stat]) -> Any:
    """The slots of ``stats`` as a ``NamedTuple`` instance: each stat's first slot under
    ``name.upper()``, and ``SIZE``, the slots in all."""
    names, starts, at = [], [], 0
    for stat in stats:
        names.append(stat.name.upper())
        starts.append(at)
        at += stat.width
    names.append("SIZE")
    starts.append(at)
    return collections.namedtuple(type_name, names, module=module)(*starts)


def error_slots(module: str, *own: str) -> Any:
    """The slots of a game loop's ``error`` array (int64 ``(SIZE,)``, every slot -1 while
    all is well) as a ``NamedTuple`` instance: ``GAME``, ``SEAT`` and ``DECISION`` (its
    index in the engine's decisions) of the first answer outside a strategy's options,
    the answer (``VALUE``), the options it had (``COUNT``, where the game counts them),
    then the game's ``own`` slots, and ``SIZE``."""
    names = ("GAME", "SEAT", "DECISION", "VALUE", "COUNT", *own, "SIZE")
    return collections.namedtuple("ErrorSlots", names, module=module)(*range(len(names)))


@dataclass(frozen=True)
class RecordArray:
    """One record array: ``dtype`` ``(G, *axes, slots.SIZE)``, or ``(G, *axes)`` if it
    has no stats (a list per game, such as an order of falls).

    Attributes
    ----------
    name : the array's name, also its table's.
    dtype : element type.
    axes : the axes between the game and the slots.
    entries : the stats in slot order, with the derived table columns in their place.
    fill : the value of an unwritten element.
    record : the reference record field that holds a game's whole array (None: each stat
        is its own field); with no stats, the list is cut where ``fill`` starts.
    record_prefix : put before each stat's record field name (``boat_``).
    order : the table's columns, where they are not in slot order.
    slots_module : the module whose name the slot constants' type carries.
    """

    name: str
    dtype: Any
    axes: tuple[Axis, ...] = ()
    entries: tuple[Stat | Derived, ...] = ()
    fill: int = 0
    record: str | None = None
    record_prefix: str = ""
    order: tuple[str, ...] | None = None
    slots_module: str = __name__
    slots: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        type_name = "".join(part.title() for part in self.name.split("_")) + "Slots"
        object.__setattr__(self, "slots", slot_constants(type_name, self.slots_module, self.stats))

    @property
    def stats(self) -> tuple[Stat, ...]:
        return tuple(entry for entry in self.entries if isinstance(entry, Stat))

    def shape(self, n_games: int, players: int) -> tuple[int, ...]:
        axes = tuple(axis.length(players) for axis in self.axes)
        return (n_games, *axes, self.slots.SIZE) if self.stats else (n_games, *axes)

    def empty(self, n_games: int, players: int) -> np.ndarray:
        shape = self.shape(n_games, players)
        if self.fill == 0:  # pages the kernel never writes are never touched
            return np.zeros(shape, dtype=self.dtype)
        return np.full(shape, self.fill, dtype=self.dtype)

    def fields(self, values: np.ndarray) -> Iterator[tuple[str, Any]]:
        """``(record field, value)`` of one game's array ``values``: a number a slot, a list
        over the axes (and over the slots of a wide stat or of stats sharing a field)."""
        if self.record is not None:
            if not self.stats:
                kept = values != self.fill
                values = values[: len(kept) if kept.all() else int(np.argmin(kept))]
            yield self.record, values.astype(int).tolist()
            return
        shared: dict[str, list[Any]] = {}
        for stat, start in zip(self.stats, self.slots, strict=False):  # slots end with SIZE
            if stat.field_name is None:
                continue
            part = values[..., start : start + stat.width]
            part = part.astype(bool) if stat.flag else part.astype(int)
            if stat.width == 1:
                part = part[..., 0]
            shared.setdefault(self.record_prefix + stat.field_name, []).append(part.tolist())
        for name, parts in shared.items():
            yield name, parts[0] if len(parts) == 1 else parts

    def fill_from(self, values: np.ndarray, record: Any) -> None:
        """Write the reference record ``record`` of one game into its row ``values``."""
        if self.record is not None:
            listed = np.asarray(getattr(record, self.record))
            values[tuple(slice(0, n) for n in listed.shape)] = listed
            return
        taken: dict[str, int] = {}
        for stat, start in zip(self.stats, self.slots, strict=False):  # slots end with SIZE
            if stat.field_name is None:
                continue
            name = self.record_prefix + stat.field_name
            value = np.asarray(getattr(record, name))
            if self._shares(name):  # the next entry of a list of stats
                value = value[taken.setdefault(name, 0)]
                taken[name] += 1
            values[..., start : start + stat.width] = np.reshape(
                value, (*values.shape[:-1], stat.width)
            )

    def _shares(self, name: str) -> bool:
        return sum(self.record_prefix + (s.field_name or "") == name for s in self.stats) > 1

    def columns(
        self,
        values: np.ndarray,
        first_game: int,
        derived: Mapping[str, Any] = {},
    ) -> dict[str, Any]:
        """The table of ``values`` (``(G, *axes, SIZE)``) as columns, a row per game and
        index of the axes: ``game``, an index column per axis, then the entries (or
        :attr:`order`); derived columns (and axes with game-specific labels) come from
        ``derived``. Numeric columns are Arrow arrays (:func:`arrow_array`); a derived
        column is passed on as given otherwise."""
        g_count = values.shape[0]
        inner = math.prod(values.shape[1 : 1 + len(self.axes)])
        game_index = np.arange(first_game, first_game + g_count, dtype=np.int64)
        columns: dict[str, Any] = {"game": np.repeat(game_index, inner)}
        outer = g_count
        for k, axis in enumerate(self.axes):
            size = values.shape[1 + k]
            inner //= size
            if axis.name in derived:
                columns[axis.name] = derived[axis.name]
            elif axis.labels is None:
                index = np.arange(size, dtype=np.int8)
                columns[axis.name] = np.tile(np.repeat(index, inner), outer)
            else:
                index = np.tile(np.repeat(np.arange(size, dtype=np.int32), inner), outer)
                columns[axis.name] = labels_column(index, axis.labels)
            outer *= size
        # One copy with the slots first: each column below is then contiguous.
        by_slot = np.moveaxis(values, -1, 0).reshape(values.shape[-1], -1)
        start = 0
        for entry in self.entries:
            if isinstance(entry, Derived):
                columns[entry.name] = derived[entry.name]
                continue
            for offset, name in enumerate(entry.column_names):
                columns[name] = _column(entry, by_slot[start + offset])
            start += entry.width
        if self.order is not None:
            columns = {name: columns[name] for name in self.order}
        return {
            name: arrow_array(column) if _numeric(column) else column
            for name, column in columns.items()
        }


def _numeric(column: Any) -> bool:
    """Whether ``column`` is a numpy array of numbers or booleans."""
    return isinstance(column, np.ndarray) and column.dtype.kind in "biuf"


def arrow_array(values: np.ndarray, missing: np.ndarray | None = None) -> pa.Array:
    """A one-dimensional numpy array of numbers or booleans as an Arrow array, null where
    ``missing``, made from its buffers. ``pa.array`` would do, but it imports pandas to ask
    whether it was given pandas data: half a second of CPU time in a saved run that
    otherwise never needs pandas."""
    values = np.ascontiguousarray(values)
    validity = None
    if missing is not None and missing.any():
        validity = pa.py_buffer(np.packbits(~missing, bitorder="little"))
    if values.dtype == np.bool_:  # Arrow's booleans are bits
        data = pa.py_buffer(np.packbits(values, bitorder="little"))
    else:
        data = pa.py_buffer(values)
    kind = pa.from_numpy_dtype(values.dtype)
    return pa.Array.from_buffers(kind, len(values), [validity, data])


def arrow_strings(texts: Sequence[str]) -> pa.Array:
    """Texts as an Arrow string array, made from its buffers (see :func:`arrow_array`)."""
    encoded = [text.encode() for text in texts]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum([len(text) for text in encoded], out=offsets[1:])
    data = pa.py_buffer(b"".join(encoded))
    return pa.StringArray.from_buffers(len(encoded), pa.py_buffer(offsets), data)


def labels_column(values: np.ndarray, names: Sequence[str]) -> pa.Array:
    """Indices into ``names`` as a dictionary column (null where negative)."""
    values = np.asarray(values)
    indices = arrow_array(values.astype(np.int32), missing=values < 0)
    return pa.DictionaryArray.from_arrays(indices, arrow_strings(names))


def _column(stat: Stat, values: np.ndarray) -> Any:
    """One slot's values ``(rows,)`` as the table column ``stat`` declares."""
    if stat.flag:
        return values.astype(bool)
    if stat.labels is not None:
        return labels_column(values, stat.labels)
    if stat.table is not None:
        values = values.astype(stat.table)
    if stat.missing:
        return arrow_array(values, missing=values < 0)
    return values


@dataclass(frozen=True)
class RecordLayout:
    """A game's record arrays, and where the columns every game provides are found.

    Attributes
    ----------
    arrays : the record arrays, in the kernel's argument order.
    tables : the arrays a run saves as record tables, in the order it lists them.
    length, finished, won : ``(array, stat)`` of a game's length, whether it finished and,
        in a per-seat array, whether each seat won (by default the ``games`` array's
        ``finished`` and the ``seats`` array's ``won``).
    """

    arrays: tuple[RecordArray, ...]
    tables: tuple[str, ...]
    length: tuple[str, str]
    finished: tuple[str, str] = ("games", "finished")
    won: tuple[str, str] = ("seats", "won")

    def __getitem__(self, name: str) -> RecordArray:
        for array in self.arrays:
            if array.name == name:
                return array
        raise KeyError(name)

    def empty(self, n_games: int, players: int) -> dict[str, np.ndarray]:
        """Unwritten record arrays for ``n_games`` games of ``players`` players."""
        return {array.name: array.empty(n_games, players) for array in self.arrays}

    def record_class(self, name: str = "GameRecord", module: str | None = None) -> type:
        """A reference engine's record of one game, made from the layout: a dataclass with
        a field for each record field the arrays name (an array's own :attr:`RecordArray.
        record`, else each stat's), in their order, a number or a list over the axes.

        ``module`` is the module the class is said to live in (its pickles and reprs)."""
        names: list[str] = []
        for array in self.arrays:
            if array.record is not None:
                names.append(array.record)
                continue
            names += [array.record_prefix + s.field_name for s in array.stats if s.field_name]
        made = dataclasses.make_dataclass(name, list(dict.fromkeys(names)))
        if module is not None:
            made.__module__ = module
        return made

    def slot(self, arrays: Mapping[str, np.ndarray], where: tuple[str, str]) -> np.ndarray:
        """The values of stat ``where = (array, stat)``: ``(G, *axes)``."""
        name, stat = where
        return arrays[name][..., getattr(self[name].slots, stat.upper())]


@dataclass(frozen=True)
class Records:
    """Per-game records of a block of games, as the compiled engine writes them: each
    array of :attr:`layout` (``records.games``, ``records.seats``, ...)."""

    layout: RecordLayout
    first_game: int
    arrays: Mapping[str, np.ndarray]
    #: The reference engine's record of one game (a dataclass of the fields the layout's
    #: stats name).
    record_class: type

    def __getattr__(self, name: str) -> np.ndarray:
        arrays = self.__dict__.get("arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    def __len__(self) -> int:
        return next(iter(self.arrays.values())).shape[0]

    def game_record(self, g: int) -> Any:
        """Game ``g`` of the block in the reference engine's record form (fields the
        record class derives from others are left to it)."""
        given = {f.name for f in dataclasses.fields(self.record_class) if f.init}
        values: dict[str, Any] = {}
        for array in self.layout.arrays:
            values.update(array.fields(self.arrays[array.name][g]))
        return self.record_class(**{k: v for k, v in values.items() if k in given})


def records_from_games(
    layout: RecordLayout, record_class: type, played: Sequence[Any], first_game: int, players: int
) -> Records:
    """The reference engine's records of consecutive games as the compiled engine's."""
    arrays = layout.empty(len(played), players)
    for g, record in enumerate(played):
        for array in layout.arrays:
            array.fill_from(arrays[array.name][g], record)
    return Records(layout, first_game, arrays, record_class)
