"""A run that keeps and saves no records plays Walk the Plank's slim block directly (the
engine then writes per card only what the summary prints); a run that hands its blocks to
a sink plays whole ones. That the slim block is the slim form of the whole record, and
summarises alike, every game shows in tests/contract."""

from __future__ import annotations

import pytest

from balance import api
from balance.games import get_game
from balance.run.runner import run_games

GAME = get_game("walk-the-plank")


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
