"""Each game's declared capabilities are what it implements, and what it does not declare
the shared layers refuse in one line."""

from __future__ import annotations

import dataclasses
import importlib

import pytest
from cli_helpers import assert_one_line_error, call_main

from balance import api
from balance.analyses.restricted import check_card_values, restricted_play
from balance.analyses.sweep_tally import tally_block
from balance.core.errors import BalanceError
from balance.core.game import Capabilities, EngineGame, Game
from balance.games import MODULES
from balance.run.runner import run_games
from balance.run.summary import summarize
from contract.helpers import (
    GAME_IDS,
    IMPLEMENTED_BY,
    MODULES_FOR,
    assert_close,
    implemented,
    mismatches,
    registered,
    without,
    without_timing,
)

#: (game, capability) for every capability a registered game declares.
DECLARED = [
    (game_id, field.name)
    for game_id in GAME_IDS
    for field in dataclasses.fields(Capabilities)
    if getattr(registered(game_id).capabilities, field.name)
]


def one_line(error: pytest.ExceptionInfo[BalanceError]) -> str:
    text = str(error.value)
    assert text and "\n" not in text, text
    return text


def test_each_game_declares_what_it_implements(game: Game) -> None:
    assert isinstance(game, EngineGame) and isinstance(game.capabilities, Capabilities)
    assert mismatches(game) == []


def test_every_capability_is_checked() -> None:
    assert set(IMPLEMENTED_BY) == {field.name for field in dataclasses.fields(Capabilities)}


@pytest.mark.parametrize("capability", list(IMPLEMENTED_BY))
def test_a_declaration_that_does_not_match_is_caught(game: Game, capability: str) -> None:
    """Flipping one declaration, or taking away the methods of a declared capability,
    makes the game fail the first test."""
    flipped = dataclasses.replace(
        game.capabilities, **{capability: not getattr(game.capabilities, capability)}
    )
    wrong = type(game)()
    wrong.capabilities = flipped
    assert [m for m in mismatches(wrong) if capability in m], capability
    if getattr(game.capabilities, capability) and (
        IMPLEMENTED_BY[capability] or capability in MODULES_FOR
    ):
        stripped = without(game, capability)
        assert not implemented(stripped, capability)
        stripped.capabilities = game.capabilities  # declared, no longer implemented
        assert [m for m in mismatches(stripped) if capability in m], capability


def strip(monkeypatch: pytest.MonkeyPatch, game_id: str, capability: str) -> Game:
    """The registered game without ``capability``, in the registry's place for the test."""
    game = without(registered(game_id), capability)
    monkeypatch.setattr(importlib.import_module(MODULES[game_id]), "GAME", game)
    return game


def cases(capability: str) -> list[str]:
    """The games that declare ``capability``: each is checked without it."""
    return [game_id for game_id, name in DECLARED if name == capability]


@pytest.mark.parametrize("game_id", cases("restricted_actions"))
def test_without_restricted_actions_nothing_may_be_forbidden(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    action = registered(game_id).actions()[0]
    api.make_setup(game_id, None, restricted=[action])  # declared: taken
    game = strip(monkeypatch, game_id, "restricted_actions")
    assert game.actions() == ()
    with pytest.raises(BalanceError) as refused:
        api.make_setup(game_id, None, restricted=[action])
    assert "no restricted play" in one_line(refused)
    if not game.capabilities.decks:
        with pytest.raises(BalanceError) as refused:
            check_card_values(game_id)
        assert "no restricted play" in one_line(refused)
        with pytest.raises(BalanceError) as refused:
            restricted_play(api.make_setup(game_id, None), 10, threads=1)
        assert "no restricted play" in one_line(refused)


@pytest.mark.parametrize("game_id", cases("decks"))
def test_without_decks_no_deck_is_taken(
    game_id: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = ",".join(registered(game_id).default_rules().decks)
    setup = api.make_setup(game_id, None, rules={"decks": decks})  # declared: taken
    game = strip(monkeypatch, game_id, "decks")
    assert game.manifest_extra(setup) == {}
    with pytest.raises(BalanceError) as refused:
        api.make_setup(game_id, None, rules={"decks": decks})
    assert "played without" in one_line(refused)
    with pytest.raises(BalanceError) as refused:
        game.blank_setups(setup)
    assert "without decks" in one_line(refused)
    args = ("matchup", game_id, "--deck", "a", "--deck", "b")
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, "matchups are between")


@pytest.mark.parametrize("game_id", cases("reference_engine"))
def test_without_a_reference_engine_debug_is_refused(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    strip(monkeypatch, game_id, "reference_engine")
    with pytest.raises(BalanceError) as refused:
        api.simulate(game_id, None, 2, threads=1, debug=True)
    assert "reference engine" in one_line(refused)


@pytest.mark.parametrize("game_id", cases("replay"))
def test_without_replay_no_game_is_narrated(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = strip(monkeypatch, game_id, "replay")
    with pytest.raises(BalanceError) as refused:
        game.replay(api.make_setup(game_id, None), 0)
    assert "cannot narrate" in one_line(refused)


@pytest.mark.parametrize("game_id", cases("running_sums"))
def test_without_running_sums_a_run_keeps_slim_blocks_and_the_same_summary(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = api.make_setup(game_id, None, seed=3)
    sums = run_games(setup, 120, threads=1, keep_records=False, sums_only=True, progress=False)
    assert sums.sums is not None and sums.blocks == []
    expected = without_timing(summarize(sums))
    strip(monkeypatch, game_id, "running_sums")
    slim = run_games(setup, 120, threads=1, keep_records=False, sums_only=True, progress=False)
    assert slim.sums is None and sum(block.size for block in slim.blocks) == 120
    assert_close(expected, without_timing(summarize(slim)))


@pytest.mark.parametrize("game_id", cases("slim_records"))
def test_without_slim_records_runs_and_tallies_play_whole_blocks(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run keeping no records, and a sweep's tally, take the engine's slim block where
    the game declares it records one, else play the whole block (and slim it after)."""
    setup = api.make_setup(game_id, None, seed=1)

    def played(game: Game) -> tuple[int, dict]:
        whole: list[int] = []
        play_block = game.play_block
        monkeypatch.setattr(game, "play_block", lambda *a: whole.append(1) or play_block(*a))
        run = run_games(setup, 20, threads=1, batch=10, keep_records=False, progress=False)
        tally_block(game, setup, 0, 10)
        return len(whole), without_timing(summarize(run))

    declared, summary = played(registered(game_id))
    assert declared == 0
    undeclared, same = played(strip(monkeypatch, game_id, "slim_records"))
    assert undeclared == 3
    assert_close(summary, same)
