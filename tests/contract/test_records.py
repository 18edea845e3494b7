"""What every game's runs give: the summary's keys and types, the record tables and their
columns, slim records and running sums that summarise as the full records do, and records
that do not depend on the threads or the block size."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from balance import api
from balance.authoring.conformance import COMMON_KEYS
from balance.core.game import Game, Setup
from balance.run.results import json_safe, load_run
from balance.run.runner import RunResult, run_games
from balance.run.summary import summarize
from contract.helpers import (
    GAME_IDS,
    assert_close,
    assert_same_blocks,
    mixed_setup,
    registered,
    restricted_choices,
    rule_setup,
    without_timing,
)

#: The ``seats`` table's columns every game has (a row per game and seat), and their kinds.
SEAT_COLUMNS = {"game": pa.types.is_int64, "seat": pa.types.is_integer, "won": pa.types.is_boolean}
GAMES = 300


def setups(game: Game) -> list[Setup]:
    """Every declared rule set at the most players, then the shipped strategies rotated
    with each restricted choice."""
    rules = [rule_setup(game, r, game.max_players, seed=4) for r in game.checked_rules]
    return [*rules, *(mixed_setup(game, r, seed=6) for r in restricted_choices(game))]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, tuple[Any, Path]]:
    """Each game's run of its shipped strategies, saved: ``(run, directory)`` by game."""

    class Lazy(dict):
        def __missing__(self, game_id: str) -> tuple[Any, Path]:
            out = tmp_path_factory.mktemp(game_id)
            game = registered(game_id)
            setup = mixed_setup(game, game.actions()[:1], seed=2)
            run = api.simulate(
                game_id,
                setup.players,
                GAMES,
                seed=2,
                strategies=setup.lineup.labels,
                rotate_seats=True,
                restricted=setup.lineup.restricted,
                threads=2,
                batch=128,
                out=out,
            )
            self[game_id] = (run, out)
            return self[game_id]

    return Lazy()


def check_type(value: Any, kind: type | tuple[type, ...], key: str) -> None:
    if kind is float:  # a rate of no games is NaN, still a float
        assert isinstance(value, float) and not isinstance(value, bool), (key, value)
    elif kind is int:
        assert isinstance(value, int) and not isinstance(value, bool), (key, value)
    else:
        assert isinstance(value, kind), (key, value)


def json_ready(value: Any, key: str) -> None:
    """Plain JSON types all the way down (numpy scalars would not serialise)."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), (key, k)
            json_ready(v, f"{key}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            json_ready(v, f"{key}[{i}]")
    else:
        assert value is None or type(value) in (str, int, float, bool), (key, type(value))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_summary_keys_and_types(game_id: str, saved) -> None:
    run, _ = saved[game_id]
    summary = run.summary()
    setup = run.setup
    for key, kind in COMMON_KEYS.items():
        assert key in summary, key
        check_type(summary[key], kind, key)
    json_ready(summary, "summary")
    json.dumps(json_safe(summary), allow_nan=False)
    game = registered(game_id)
    assert summary["game"] == game_id and summary["players"] == setup.players
    assert summary["games"] == GAMES and summary["rules"] == json_safe(setup.rules.to_dict())
    assert summary["length_unit"] == game.length_unit
    assert summary["strategies"] == setup.lineup.labels
    assert [row["seat"] for row in summary["seat_win_rate"]] == list(range(setup.players))
    labels = set(setup.lineup.labels)
    assert {row["strategy"] for row in summary["strategy_win_rate"]} == labels
    own = game.summarize(run.result.blocks, setup)
    assert own and own.keys() <= summary.keys()
    assert not own.keys() & (COMMON_KEYS.keys() - {"length_unit"})
    lines = game.summary_lines(summary)
    assert lines and all(isinstance(line, str) and "\n" not in line for line in lines)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_record_tables_and_their_columns(game_id: str, saved) -> None:
    run, directory = saved[game_id]
    game = registered(game_id)
    setup = run.setup
    blocks = run.result.blocks
    assert len(blocks) > 1  # tables of several blocks must join
    names = list(game.tables(blocks[0], setup))
    assert names[:2] == ["games", "seats"]
    assert {p.name for p in directory.iterdir()} == {
        *(f"{name}.parquet" for name in names),
        "manifest.json",
        "summary.json",
    }
    saved_run = load_run(directory)
    assert saved_run.setup == setup and saved_run.games == GAMES
    column, _ = game.report_length(setup.rules)
    for name in names:
        parts = [game.tables(block, setup)[name] for block in blocks]
        assert all(part.schema == parts[0].schema for part in parts), name
        table = pa.concat_tables(parts)
        assert table.schema.field("game").type == pa.int64(), name
        games = table.column("game").to_numpy()
        assert (np.diff(games) >= 0).all() and set(games) == set(range(GAMES)), name
        on_disk = saved_run.table(name)
        assert list(on_disk.columns) == table.column_names, name
        assert on_disk.equals(run.table(name)), name
    games = pa.concat_tables([game.tables(b, setup)["games"] for b in blocks])
    assert games.column("game").to_pylist() == list(range(GAMES))
    assert (
        games.column("finished").to_pylist()
        == np.concatenate([b.finished for b in blocks]).tolist()
    )
    assert column in games.column_names
    if column == game.length_unit:
        length = np.concatenate([b.length for b in blocks])
        assert games.column(column).to_numpy().tolist() == length.tolist()
    seats = pa.concat_tables([game.tables(b, setup)["seats"] for b in blocks])
    for name, kind in SEAT_COLUMNS.items():
        assert kind(seats.schema.field(name).type), (name, seats.schema.field(name).type)
    n = setup.players
    assert seats.column("game").to_pylist() == np.repeat(np.arange(GAMES), n).tolist()
    assert seats.column("seat").to_pylist() == list(range(n)) * GAMES
    won = np.concatenate([b.won for b in blocks]).ravel()
    assert seats.column("won").to_pylist() == won.tolist()
    strategy = seats.column("strategy").combine_chunks()
    assert pa.types.is_dictionary(strategy.type)
    index = np.arange(GAMES)
    expected = [
        setup.lineup.labels[int(setup.lineup.strategy_index(g, s))] for g in index for s in range(n)
    ]
    assert strategy.to_pylist() == expected


def run(setup: Setup, **options: Any) -> RunResult:
    return run_games(setup, GAMES, progress=False, **options)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_slim_records_and_running_sums_summarise_as_the_full_records(game_id: str) -> None:
    """A run that keeps no records keeps slim blocks (the engine's own, where it records
    them, :meth:`Game.play_slim_block`), or only running sums: either gives the summary of
    the whole records, for every declared rule set and line-up."""
    game = registered(game_id)
    for setup in setups(game):
        what = f"{setup.rules!r} {setup.lineup.labels} {setup.lineup.restricted}"
        full = run(setup, threads=1, batch=70, keep_records=True)
        slim = run(setup, threads=1, batch=70, keep_records=False)
        sums = run(setup, threads=1, batch=70, keep_records=False, sums_only=True)
        for whole, part in zip(full.blocks, slim.blocks, strict=True):
            assert_same_blocks([game.slim(whole)], [part], what)
        expected = without_timing(summarize(full))
        assert_close(expected, without_timing(summarize(slim)), what)
        assert (sums.sums is not None) == game.capabilities.running_sums
        # Intervals found by bisection from sums stop within 1e-8 of the records' ones.
        assert_close(expected, without_timing(summarize(sums)), what, rel=1e-7)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_records_do_not_depend_on_threads_or_batch(game_id: str) -> None:
    game = registered(game_id)
    setup = mixed_setup(game, game.actions()[:1], seed=8)
    one = run(setup, threads=1, batch=GAMES)
    assert [b.first_game for b in one.blocks] == [0]
    for threads, batch in [(1, 37), (2, 37), (2, 128)]:
        other = run(setup, threads=threads, batch=batch)
        assert other.threads == threads and len(other.blocks) == -(-GAMES // batch)
        assert_same_blocks(one.blocks, other.blocks, f"{threads} threads, batch {batch}")
