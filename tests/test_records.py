"""Records declared once (balance.core.records): slots, arrays, reference records, tables."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pytest

from balance.core.records import (
    SEAT,
    Axis,
    Derived,
    RecordArray,
    RecordLayout,
    Records,
    Stat,
    arrow_array,
    arrow_strings,
    records_from_games,
)

FRUITS = ("apple", "pear")

LAYOUT = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("turns", table=np.int16),
                Stat("finished", flag=True),
                Derived("winners"),
                Stat("first", labels=FRUITS),  # -1: none
                Stat("bonus", width=2, column=["bonus_a", "bonus_b"]),  # a list will do
                Stat("calm", record="dice", table=np.int8),
                Stat("storm", record="dice", table=np.int8),
                Stat("leader", missing=True, table=np.int8),
            ),
        ),
        RecordArray(
            "order", np.int8, axes=(Axis("fall", 3),), fill=-1, record="order"
        ),  # a list per game, cut where -1 starts
        RecordArray(
            "seats",
            np.int16,
            axes=(SEAT,),
            entries=(Derived("strategy"), Stat("won", flag=True), Stat("score", record="points")),
        ),
        RecordArray(
            "fruits",
            np.int16,
            axes=(SEAT, Axis("fruit", len(FRUITS), labels=FRUITS)),
            entries=(Stat("eaten"), Stat("thrown")),
            record_prefix="fruit_",
        ),
    ),
    tables=("games", "seats", "fruits"),
    length=("games", "turns"),
    finished=("games", "finished"),
    won=("seats", "won"),
)


@dataclass
class Record:
    turns: int
    finished: bool
    first: int
    bonus: list[int]
    dice: list[int]
    leader: int
    order: list[int]
    won: list[bool]
    points: list[int]
    fruit_eaten: list[list[int]]
    fruit_thrown: list[list[int]]


def games() -> list[Record]:
    return [
        Record(
            7,
            True,
            1,
            [2, 3],
            [1, 0],
            0,
            [1, 0],
            [True, False],
            [5, 2],
            [[1, 0], [0, 2]],
            [[0, 0], [3, 1]],
        ),
        Record(
            9,
            False,
            -1,
            [0, 4],
            [0, 2],
            -1,
            [],
            [False, False],
            [0, 1],
            [[0, 0], [1, 1]],
            [[2, 0], [0, 0]],
        ),
    ]


def test_slots_follow_the_declaration() -> None:
    slots = LAYOUT["games"].slots
    assert type(slots).__name__ == "GamesSlots"
    assert (slots.TURNS, slots.FINISHED, slots.FIRST, slots.BONUS, slots.CALM) == (0, 1, 2, 3, 5)
    assert (slots.STORM, slots.LEADER, slots.SIZE) == (6, 7, 8)
    assert LAYOUT["seats"].slots == (0, 1, 2) and LAYOUT["seats"].slots.SCORE == 1
    assert LAYOUT["fruits"].shape(4, players=2) == (4, 2, 2, 2)
    assert LAYOUT["order"].shape(4, players=2) == (4, 3)


def test_reference_records_round_trip() -> None:
    played = games()
    records = records_from_games(LAYOUT, Record, played, first_game=10, players=2)
    assert len(records) == 2 and records.first_game == 10
    assert records.games.dtype == np.int32 and records.seats.shape == (2, 2, 2)
    assert records.order.tolist() == [[1, 0, -1], [-1, -1, -1]]
    assert records.games[0].tolist() == [7, 1, 1, 2, 3, 1, 0, 0]
    assert records.fruits[0, 1, :, LAYOUT["fruits"].slots.THROWN].tolist() == [3, 1]
    assert [records.game_record(g) for g in range(2)] == played


def test_tables_have_the_declared_columns_and_types() -> None:
    records = records_from_games(LAYOUT, Record, games(), first_game=10, players=2)
    derived = {"games": {"winners": np.array([1, 0], np.int8)}, "seats": {"strategy": ["a"] * 4}}
    tables = {
        name: pa.table(LAYOUT[name].columns(records.arrays[name], 10, derived.get(name, {})))
        for name in LAYOUT.tables
    }
    games_table = tables["games"]
    assert games_table.column_names == [
        "game", "turns", "finished", "winners", "first", "bonus_a", "bonus_b", "calm", "storm",
        "leader",
    ]  # fmt: skip
    schema = games_table.schema
    assert schema.field("game").type == pa.int64() and schema.field("turns").type == pa.int16()
    assert schema.field("finished").type == pa.bool_()
    assert schema.field("first").type == pa.dictionary(pa.int32(), pa.string())
    assert schema.field("bonus_a").type == pa.int32() and schema.field("calm").type == pa.int8()
    assert games_table.to_pydict()["first"] == ["pear", None]
    assert games_table.to_pydict()["leader"] == [0, None]
    assert games_table.to_pydict()["bonus_b"] == [3, 4]
    seats = tables["seats"].to_pydict()
    assert list(seats) == ["game", "seat", "strategy", "won", "score"]
    assert seats["game"] == [10, 10, 11, 11] and seats["seat"] == [0, 1, 0, 1]
    assert seats["won"] == [True, False, False, False] and seats["score"] == [5, 2, 0, 1]
    assert tables["seats"].schema.field("seat").type == pa.int8()
    fruits = tables["fruits"].to_pydict()
    assert fruits["fruit"] == ["apple", "pear"] * 4
    assert fruits["seat"] == [0, 0, 1, 1] * 2
    assert fruits["thrown"] == [0, 0, 3, 1, 2, 0, 0, 0]
    reordered = dataclasses.replace(LAYOUT["seats"], order=("game", "score", "won"))
    assert list(reordered.columns(records.seats, 10, derived["seats"])) == ["game", "score", "won"]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.bool_])
def test_arrays_made_from_buffers_are_those_pyarrow_makes(dtype: type) -> None:
    rng = np.random.default_rng(1)
    values = rng.integers(-2, 5, 77).astype(dtype)  # 77: bits that end inside a byte
    for part in (values, values[::2], values[:0]):  # strided, empty
        missing = rng.random(len(part)) < 0.3
        assert arrow_array(part).equals(pa.array(part))
        got, expected = arrow_array(part, missing=missing), pa.array(part, mask=missing)
        assert got.equals(expected) and got.null_count == expected.null_count
        assert arrow_array(part, missing=np.zeros(len(part), bool)).null_count == 0


def test_strings_made_from_buffers_are_those_pyarrow_makes() -> None:
    for texts in (["apple", "pear"], [], ["", "poire à l'eau", "x"]):
        assert arrow_strings(texts).equals(pa.array(texts, type=pa.string()))


def test_a_missing_derived_column_is_an_error() -> None:
    records = records_from_games(LAYOUT, Record, games(), first_game=0, players=2)
    with pytest.raises(KeyError, match="winners"):
        LAYOUT["games"].columns(records.games, 0)


def test_length_finished_and_won_come_from_the_declared_stats() -> None:
    records = records_from_games(LAYOUT, Record, games(), first_game=0, players=2)
    assert LAYOUT.slot(records.arrays, LAYOUT.length).tolist() == [7, 9]
    assert LAYOUT.slot(records.arrays, LAYOUT.won).tolist() == [[1, 0], [0, 0]]
    assert isinstance(records, Records)
    with pytest.raises(AttributeError):
        _ = records.boats
