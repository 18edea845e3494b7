"""The shipped strategies' dispatch, generated from each game's ``SHIPPED`` tuple: codes in
its order, the functions that call a strategy found by walking the compiled code, and a
code no strategy has refused, by the Python layer before the loop and by the loop itself."""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import types as nbtypes
from numba.core.caching import NullCache

from balance.core.compile_cache import njit
from balance.core.dispatch import USER_CODES, USER_SLOTS, Decision, Dispatch, playable
from balance.core.errors import BalanceError
from balance.core.game import DecisionPlayer, Lineup
from balance.core.llvm_nb import hold_nb
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


def _adds_one_and_doubles(name: str) -> tuple[types.ModuleType, types.ModuleType]:
    """A kernel module ``balance_test_<name>`` of one decision, ``answer(x, params)``, and
    its strategies module: two shipped strategies, "one" (adds one, code 0) and "two"
    (doubles, code 1)."""
    module = types.ModuleType(f"balance_test_{name}")
    module.answer_nb = Decision("answer", "x, params")
    sys.modules[module.__name__] = module

    @njit
    def one(x, params):
        return x + 1

    @njit
    def two(x, params):
        return x * 2

    strategies = types.ModuleType(f"balance_test_{name}_strategies")
    strategies.SHIPPED = (
        Strategy("test", "one", "Adds one.", {"answer": one}),
        Strategy("test", "two", "Doubles.", {"answer": two}),
    )
    sys.modules[strategies.__name__] = strategies
    ship(strategies.SHIPPED, joining=(), module=strategies.__name__)
    return module, strategies


def test_the_generated_dispatcher_raises_on_a_code_no_strategy_has() -> None:
    """Inside the loop too, an unknown code is an error, never another strategy's play."""
    module, strategies = _adds_one_and_doubles("kernels")
    two = strategies.SHIPPED[1].decisions["answer"]
    dispatch = Dispatch(module, strategies, __file__)
    answer = dispatch.bound(module.answer_nb)
    params = np.zeros(MAX_PARAMS)
    assert (answer(0, 5, params), answer(1, 5, params)) == (6, 10)
    with pytest.raises(ValueError, match="no strategy has this code"):
        answer(2, 5, params)

    # A copy that plays some of them compiles only those: the others' codes raise.
    second = dispatch.bound(module.answer_nb, playing=strategies.SHIPPED[1:])
    assert second(1, 5, params) == 10
    with pytest.raises(ValueError, match="no strategy has this code"):
        second(0, 5, params)
    assert dispatch.bound(module.answer_nb, playing=strategies.SHIPPED[1:]) is second
    listed = second.py_func.__globals__["__doc__"]
    assert "1: two" in listed and "0: one" not in listed
    stranger = Strategy("test", "three", "Triples.", {"answer": two})
    with pytest.raises(BalanceError, match="'three' is no shipped strategy"):
        dispatch.bound(module.answer_nb, playing=(stranger,))


def _table_game(name: str, home: Path) -> Dispatch:
    """The dispatch of a game of one decision, ``answer(x, values, scratch)``, whose loop
    sums the answers of ``codes``, with one shipped strategy (code 0); its compiled code
    is cached as if in ``home`` (a file of the test's own: numba keys this file's cache on
    its date alone, and this one is new in every run)."""
    module = types.ModuleType(f"balance_test_{name}")
    module.answer_nb = Decision("answer", "x, values, scratch", writable="scratch")
    sys.modules[module.__name__] = module

    exec(  # a function of the module: its globals are those the binding walks
        "def loop_nb(codes, x, values, scratch):\n"
        "    total = 0\n"
        "    for code in codes:\n"
        "        total += answer_nb(code, x, values, scratch)\n"
        "    return total\n",
        module.__dict__,
    )
    module.loop_nb = njit(module.loop_nb)

    @njit
    def one(x, values, scratch):
        return x + 1

    strategies = types.ModuleType(f"balance_test_{name}_strategies")
    strategies.SHIPPED = (Strategy("test", "one", "Adds one.", {"answer": one}),)
    sys.modules[strategies.__name__] = strategies
    ship(strategies.SHIPPED, joining=(), module=strategies.__name__)
    home.write_text("")
    return Dispatch(module, strategies, str(home), loop="loop_nb")


def test_a_strategy_without_a_code_is_called_by_address(tmp_path: Path) -> None:
    """The loop, compiled once, calls a strategy compiled after it through its slot: its
    answer, its exceptions; an empty slot is an error; the game's arrays are read-only."""
    dispatch = _table_game("table", tmp_path / "home.py")

    @njit(boundscheck=True)
    def peek(x, values, scratch):
        scratch[0] = x  # its own buffer: allowed
        return values[x] + scratch[0]

    @njit
    def scribble(x, values, scratch):
        values[0] = x  # the game's own array: refused
        return 0

    @njit
    def yes(x, values, scratch):
        return x > 0

    mine = Strategy("test", "peek", "Reads.", {"answer": peek})
    loop = dispatch.kernel_for([mine])
    assert loop is dispatch.kernel_for([])  # one loop, whoever plays
    # A scenario helper bound as the loop is calls the loop's own compiled copies.
    assert dispatch.with_loop(dispatch.module.loop_nb) is loop
    assert dispatch.bound(dispatch.module.loop_nb) is not loop
    values, scratch = np.arange(3), np.zeros(1, dtype=np.int64)
    codes = np.array([0, dispatch.code(mine)])
    assert codes[1] >= USER_CODES
    arguments = (codes, 2, values, scratch)
    dispatch.prepare(loop, arguments, [mine])
    assert loop(*arguments) == 3 + 4
    with pytest.raises(IndexError):  # raised in the strategy, through the loop
        loop(codes, 3, values, scratch)
    with pytest.raises(ValueError, match="no strategy has this code"):
        loop(np.array([USER_CODES + USER_SLOTS - 1]), 2, values, scratch)
    wrong = Strategy("test", "scribble", "Writes.", {"answer": scribble})
    with pytest.raises(Exception, match="readonly"):
        dispatch.prepare(loop, (np.array([dispatch.code(wrong)]), 2, values, scratch), [wrong])
    boolean = Strategy("test", "yes", "A bool.", {"answer": yes})
    with pytest.raises(BalanceError, match="not an option's index"):
        dispatch.prepare(loop, (np.array([dispatch.code(boolean)]), 2, values, scratch), [boolean])


def test_a_reference_seat_plays_the_loops_own_code_of_a_strategy_called_out_of_line(
    tmp_path: Path,
) -> None:
    """A shipped strategy the loop calls out of line plays, on a reference engine's seat,
    the loop's compiled function (cached, so that it is loaded, not compiled again); one
    compiled into the loop's dispatcher plays its own function."""
    module, strategies = _adds_one_and_doubles("apart")
    exec(
        "def loop_nb(codes, x, params):\n"
        "    total = 0\n"
        "    for code in codes:\n"
        "        total += answer_nb(code, x, params)\n"
        "    return total\n",
        module.__dict__,
    )
    module.loop_nb = njit(module.loop_nb)
    home = tmp_path / "home.py"
    home.write_text("")
    dispatch = Dispatch(
        module, strategies, str(home), loop="loop_nb", in_line=strategies.SHIPPED[:1]
    )
    params = np.zeros(MAX_PARAMS)
    assert dispatch.kernel_for(())(np.array([0, 1]), 5, params) == 6 + 10
    first, second = strategies.SHIPPED
    one, two = first.decisions["answer"], second.decisions["answer"]
    apart = dispatch._main.out_of_line["answer"]
    assert not isinstance(apart._cache, NullCache)  # saved beside the loop
    played = playable(two, second, "answer")
    assert played.func is apart and played.args == (1,)
    assert played(7, params) == 14
    assert playable(one, first, "answer") is one
    assert playable(two) is two  # no strategy named: the function itself
    stranger = Strategy("test", "three", "Doubles too.", {"answer": two})
    assert playable(two, stranger, "answer") is two
    seat = DecisionPlayer(SeatStrategy(second, ()), stream=None)
    assert seat.decisions["answer"].func is apart


def test_a_held_argument_reaches_every_strategy_as_a_value(tmp_path: Path) -> None:
    """A decision's held argument (a tuple of arrays the loop passes by its address): the
    shipped strategies in line and out of line and a strategy without a code take it as
    a value; the out-of-line function is compiled for the address alone, whether the loop
    or Python calls it."""
    module = types.ModuleType("balance_test_held")
    module.answer_nb = Decision("answer", "view, params", held="view")
    module.hold_nb = hold_nb
    sys.modules[module.__name__] = module
    exec(
        "def loop_nb(codes, view, params):\n"
        "    held = hold_nb(view)  # once, for every call below\n"
        "    total = 0\n"
        "    for code in codes:\n"
        "        total += answer_nb(code, held, params)\n"
        "    return total\n",
        module.__dict__,
    )
    module.loop_nb = njit(module.loop_nb)

    @njit
    def first_plus_one(view, params):
        return view[0][0] + 1

    @njit
    def second_doubled(view, params):
        return view[1][1] * 2

    @njit
    def tripled(view, params):
        return view[0][1] * 3

    strategies = types.ModuleType("balance_test_held_strategies")
    strategies.SHIPPED = (
        Strategy("test", "one", "Adds one.", {"answer": first_plus_one}),
        Strategy("test", "two", "Doubles.", {"answer": second_doubled}),
    )
    sys.modules[strategies.__name__] = strategies
    ship(strategies.SHIPPED, joining=(), module=strategies.__name__)
    home = tmp_path / "home.py"
    home.write_text("")
    dispatch = Dispatch(
        module,
        strategies,
        str(home),
        loop="loop_nb",
        in_line=strategies.SHIPPED[:1],
        wide_arguments=True,
    )
    view, params = (np.array([3, 4]), np.array([5, 6])), np.zeros(MAX_PARAMS)
    loop = dispatch.kernel_for(())
    assert loop(np.array([0, 1, 1]), view, params) == 4 + 12 + 12
    user = Strategy("test", "three", "Triples.", {"answer": tripled})
    codes = np.array([dispatch.code(user), 0])
    dispatch.prepare(loop, (codes, view, params), [user])
    assert loop(codes, view, params) == 12 + 4

    apart = dispatch._main.out_of_line["answer"]
    second = strategies.SHIPPED[1]
    played = playable(second.decisions["answer"], second, "answer")
    assert played(view, params) == 12
    (signature,) = apart.signatures  # the loop's and Python's calls: one compile
    assert isinstance(signature[1], nbtypes.CPointer)
    assert signature[1].dtype == numba.typeof(view)
    with pytest.raises(BalanceError, match="held names no argument"):
        Decision("answer", "view, params", held="position")


def test_lifeboats_heuristics_play_the_loops_code_on_the_reference_engine() -> None:
    """Lifeboats' heuristics, which its loop calls out of line, play the loop's function on
    a reference engine's seat (through the wrapper that holds ``obs``, which the loop
    passes by address); random, compiled into the loop, plays its own."""
    from balance.strategies import lifeboats

    from balance.games.lifeboats.engine import DISPATCH

    decide = DISPATCH._main.from_python["decide"]
    for strategy in (lifeboats.steward, lifeboats.hatkeeper, lifeboats.swimmer):
        values = tuple(default for _, default in strategy.params)
        seat = DecisionPlayer(SeatStrategy(strategy, values), stream=None)
        assert seat.decisions["decide"].func is decide
        assert seat.decisions["decide"].args == (strategy.code,)
    seat = DecisionPlayer(SeatStrategy(lifeboats.random, ()), stream=None)
    assert seat.decisions["decide"] is lifeboats.random.decisions["decide"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_quick_check_compiles_what_the_loop_calls(game_id: str) -> None:
    """``strategy check`` compiles a user's decisions with the types read off the
    reference engine: they are those the game loop passes, read-only where it says."""
    from balance.core.dispatch import _decision_types, _types_symbol
    from balance.run.strategy_check import decision_types

    game = get_game(game_id)
    engine = game.compiled
    lineup = engine.uniform_lineup(game.min_players)
    engine.play_games(game.default_rules(), game.min_players, 0, 1, 0, lineup)
    loop = engine.kernel_for(lineup)
    library = loop.overloads[loop.signatures[0]].library
    recorded = decision_types(game_id)
    for decision in engine.dispatch.decisions:
        symbol = _types_symbol(engine.dispatch._table.symbol, decision)
        called = _decision_types(library, symbol)
        assert called is not None, decision.name
        assert recorded[decision.name].arguments == decision.read_only(called)
        assert decision.read_only(called) != called  # the game's own arrays, read-only


def test_a_search_player_called_from_python_as_in_a_run_is_compiled_once(
    tmp_path: Path,
) -> None:
    """A strategy without a code that asks the shipped strategies (a search player) gets
    the game's arrays read-only in a run; called from Python as in a run, it is passed
    read-only views of the same arrays (its own buffers stay writable) and plays the
    function the run compiled, not a second copy for writable arrays."""
    dispatch = _table_game("searching", tmp_path / "home.py")
    module = dispatch.module
    exec(  # a function of the module: it asks the decision, as a search player does
        "def searcher(x, values, scratch):\n"
        "    scratch[0] = answer_nb(0, x, values, scratch)\n"
        "    return scratch[0] + values[0]\n",
        module.__dict__,
    )
    module.searcher = njit(module.searcher)
    searching = Strategy("test", "searching", "Asks the shipped one.", {"answer": module.searcher})
    values, scratch = np.arange(3) + 10, np.zeros(1, dtype=np.int64)

    arguments = module.answer_nb.as_called((2, values, scratch))
    assert arguments[0] == 2 and arguments[2] is scratch
    assert not arguments[1].flags.writeable and np.shares_memory(arguments[1], values)
    assert values.flags.writeable  # the caller's own array is left writable

    loop = dispatch.kernel_for([searching])
    run = (np.array([dispatch.code(searching)]), 2, values, scratch)
    dispatch.prepare(loop, run, [searching])
    assert loop(*run) == (2 + 1) + 10
    played = playable(module.searcher, as_in_a_run=True)
    assert played(2, values, scratch) == (2 + 1) + 10
    bound = dispatch.bound(module.searcher)
    assert len(bound.signatures) == 1  # the run's, read-only values
    assert not bound.signatures[0][1].mutable and bound.signatures[0][2].mutable
    # Called as it is, with the writable arrays, it would be compiled a second time.
    assert playable(module.searcher) is bound
