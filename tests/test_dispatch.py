"""The shipped strategies' dispatch, generated from each game's ``SHIPPED`` tuple: codes in
its order, the functions that call a strategy found by walking the compiled code, and a
code no strategy has refused, by the Python layer before the loop and by the loop itself."""

from __future__ import annotations

import importlib
import sys
import types

import numpy as np
import pytest

from balance.core.compile_cache import njit
from balance.core.dispatch import Decision, Dispatch
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.strategy import MAX_PARAMS, SeatStrategy, Strategy, ship
from balance.games import MODULES, get_game

GAMES = list(MODULES)


@pytest.mark.parametrize("game_id", GAMES)
def test_codes_follow_the_order_of_shipped(game_id: str) -> None:
    game = get_game(game_id)
    shipped = importlib.import_module(game.strategies_module).SHIPPED
    coded = [s for s in shipped if s.code is not None]
    assert [s.code for s in coded] == list(range(len(coded)))
    assert list(shipped[: len(coded)]) == coded  # the search players without a code last
    assert game.engine.DISPATCH.shipped == tuple(coded)


def _strategy(name: str, code: int | None = None) -> Strategy:
    return Strategy("walk-the-plank", name, "A test strategy.", {}, code=code)


def test_ship_gives_codes_in_order_and_refuses_another_by_hand() -> None:
    first, second, searcher = _strategy("a"), _strategy("b"), _strategy("c")
    ship((first, second, searcher), joining=(searcher,), module=__name__)
    assert (first.code, second.code, searcher.code) == (0, 1, None)
    with pytest.raises(BalanceError, match="number 0"):
        ship((_strategy("d", code=3),), joining=(), module=__name__)
    with pytest.raises(BalanceError, match="last"):
        ship((searcher, _strategy("e")), joining=(searcher,), module=__name__)


def test_the_callers_are_found_by_walking_the_compiled_code() -> None:
    """Walk the Plank's functions that call a strategy, directly or not (the list the
    engine once kept by hand), and none other of its kernel module."""
    engine = get_game("walk-the-plank").engine
    engine.ENGINE.kernel_for(engine.ENGINE.uniform_lineup(3))
    module = engine.DISPATCH._shipped.module(vars(engine.nb))
    copied = {
        name
        for name, value in vars(module).items()
        if getattr(value, "py_func", None) is not None and value is not getattr(engine.nb, name)
    }
    assert copied == {
        "_strategy_option_nb",
        "_dolphin_push_nb",
        "_meet_the_dice_nb",
        "_fallen_meet_the_dice_nb",
        "resolve_card_nb",
        "_play_nb",
        "play_games_nb",
        "program_nb",  # the decisions: their generated dispatchers
        "choose_nb",
        "push_nb",
    }


@pytest.mark.parametrize("game_id", GAMES)
def test_a_code_no_strategy_has_is_refused_before_the_loop(game_id: str) -> None:
    game = get_game(game_id)
    random = game.strategies()["random"]
    odd = Strategy(game_id, "odd", "Claims a code.", dict(random.decisions), code=99)
    lineup = Lineup(tuple(SeatStrategy(s, ()) for s in [odd] + [random] * (game.min_players - 1)))
    with pytest.raises(BalanceError, match="code 99"):
        game.compiled.kernel_for(lineup)


def test_the_generated_dispatcher_raises_on_a_code_no_strategy_has() -> None:
    """Inside the loop too, an unknown code is an error, never another strategy's play."""
    module = types.ModuleType("balance_test_kernels")
    module.answer_nb = Decision("answer", "x, params")
    sys.modules[module.__name__] = module

    @njit
    def one(x, params):
        return x + 1

    @njit
    def two(x, params):
        return x * 2

    strategies = types.ModuleType("balance_test_strategies")
    strategies.SHIPPED = (
        Strategy("test", "one", "Adds one.", {"answer": one}),
        Strategy("test", "two", "Doubles.", {"answer": two}),
    )
    sys.modules[strategies.__name__] = strategies
    ship(strategies.SHIPPED, joining=(), module=strategies.__name__)
    dispatch = Dispatch(module, strategies, __file__)
    answer = dispatch.bound(module.answer_nb)
    params = np.zeros(MAX_PARAMS)
    assert (answer(0, 5, params), answer(1, 5, params)) == (6, 10)
    with pytest.raises(ValueError, match="no strategy has this code"):
        answer(2, 5, params)
