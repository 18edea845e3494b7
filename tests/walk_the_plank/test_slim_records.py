"""A run that keeps and saves no records plays Walk the Plank's slim block directly: the
engine then writes per card only the reveals and effects of all seats (what the summary
prints). It must be, array for array, the slim form of the whole record."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance import api
from balance.games import get_game
from balance.run import run_games
from balance.sweep_tally import tally_block

GAME = get_game("walk-the-plank")


@pytest.mark.parametrize(
    ("players", "strategies", "variants", "restricted"),
    [
        (5, ["random"], (), ()),
        (3, ["random"], ("ghost", "dolphin", "kraken"), ()),
        (4, ["aggressor", "random", "greedy", "weighted:leader=2"], ("ghost",), ()),
        (4, ["random"], ("kraken",), ("charge",)),
    ],
)
def test_the_slim_block_is_the_slim_form_of_the_whole_record(
    players: int, strategies: list[str], variants: tuple[str, ...], restricted: tuple[str, ...]
) -> None:
    setup = api.make_setup(
        "walk-the-plank",
        players,
        seed=3,
        strategies=strategies,
        variants=variants,
        rotate_seats=len(strategies) > 1,
        restricted=restricted,
    )
    whole = GAME.slim(GAME.play_block(setup, 40, 600))
    slim = GAME.play_slim_block(setup, 40, 600)
    assert slim.first_game == whole.first_game == 40
    for name in ("length", "finished", "won"):
        assert np.array_equal(getattr(slim, name), getattr(whole, name))
    assert slim.extra.keys() == whole.extra.keys()
    for name, array in whole.extra.items():
        assert slim.extra[name].dtype == array.dtype and np.array_equal(slim.extra[name], array)
    assert whole.extra["cards"].sum() > 0  # cards were counted at all


def test_a_run_keeping_no_records_plays_slim_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = api.make_setup("walk-the-plank", 3, seed=1)
    played: list[str] = []
    whole, slim = GAME.play_block, GAME.play_slim_block
    monkeypatch.setattr(GAME, "play_block", lambda *a: played.append("whole") or whole(*a))
    monkeypatch.setattr(GAME, "play_slim_block", lambda *a: played.append("slim") or slim(*a))
    run_games(setup, 300, threads=1, batch=100, keep_records=False, progress=False)
    assert played == ["slim"] * 3
    played.clear()
    run_games(
        setup, 300, threads=1, batch=100, keep_records=False, progress=False, sinks=[lambda b: None]
    )
    assert played == ["whole"] * 3  # a sink (saving, say) gets the whole record


def test_a_sweep_tallies_slim_blocks_only_where_the_engine_records_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Walk the Plank's engine records the slim block itself, so a sweep task plays that;
    a game that would slim a whole block afterwards plays the whole block."""
    setup = api.make_setup("walk-the-plank", 3, seed=1)
    played: list[str] = []
    whole, slim = GAME.play_block, GAME.play_slim_block
    monkeypatch.setattr(GAME, "play_block", lambda *a: played.append("whole") or whole(*a))
    monkeypatch.setattr(GAME, "play_slim_block", lambda *a: played.append("slim") or slim(*a))
    tally_block(GAME, setup, 0, 50)
    monkeypatch.setattr(
        GAME, "capabilities", dataclasses.replace(GAME.capabilities, slim_records=False)
    )
    tally_block(GAME, setup, 0, 50)
    assert played == ["slim", "whole"]
    assert not get_game("la-planche").capabilities.slim_records
