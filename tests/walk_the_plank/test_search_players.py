"""Walk the Plank's search players, ``mc`` and ``ismcts``: they find a move that wins at
once and avoid one that loses at once from hand-built positions, play legal games that
do not depend on the thread count, take the documented arguments, and refuse bad
parameters in one line."""

from __future__ import annotations

import re

import numpy as np
import pytest
from balance.strategies.walk_the_plank import ismcts, mc
from cli_helpers import assert_one_line_error, call_main

from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS
from balance.games.walk_the_plank import engine, engine_nb, ismcts_nb, mc_nb
from balance.games.walk_the_plank.bridge import pack_position
from balance.games.walk_the_plank.cards import Card, card_mask
from balance.games.walk_the_plank.moves_nb import State
from balance.games.walk_the_plank.rules import WalkThePlankRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
ismcts_nb = engine.DISPATCH.bound(ismcts_nb)
mc_nb = engine.DISPATCH.bound(mc_nb)

# ---------------------------------------------------------------------------
# The search players on hand-built positions
# ---------------------------------------------------------------------------


def search_params(budget: float, rollout: float = 0.0, c: float = 0.7) -> np.ndarray:
    params = np.zeros(MAX_PARAMS)
    params[mc_nb.Search.BUDGET] = budget
    params[mc_nb.Search.ROLLOUT] = rollout
    params[mc_nb.Search.C] = c
    return params


#: Each search player's decisions, with a modest budget (a few milliseconds of search
#: here): (program, choose, budget). mc's budget is per option, ismcts's per decision.
#: The losing options below still win most playouts (the searcher leads), so a budget
#: of 16 playouts often cannot tell them apart from the winning one.
PLAYERS = {
    "mc": (mc_nb.mc_program_nb, mc_nb.mc_choose_nb, 128),
    "ismcts": (ismcts_nb.ismcts_program_nb, ismcts_nb.ismcts_choose_nb, 1024),
}


def seat_stream(seed: int) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, seed, 0, 1)
    return rng


def choose_in(pos, rules, seat: int, card: int, slot: int, options, choose, params, seed: int):
    obs = pack_position(pos, rules)
    # Every seat has revealed its cards up to this slot (the seat acts last), the seat
    # its own ``card`` in ``slot``.
    earlier = (Card.EXTEND_PLANK, Card.PULL_TO_SHIP, Card.NOT_ME)
    obs[4][:, :slot] = earlier[:slot]
    obs[4][:, slot] = Card.NOT_ME if slot < 2 else Card.SHOVE_RIGHT
    obs[4][seat, slot] = card
    opt_tile = np.zeros(64, dtype=np.int64)
    opt_arg = np.zeros(64, dtype=np.int64)
    for k, (tile, arg) in enumerate(options):
        opt_tile[k], opt_arg[k] = tile, arg
    # The game's arrays read-only, as a run passes them: the search compiles once for both.
    arguments = (obs, seat, card, slot, opt_tile, opt_arg, len(options), params, seat_stream(seed))
    return choose(*engine_nb.choose_nb.as_called(arguments))


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("seed", range(3))
def test_search_charges_the_last_pirate_off_the_plank(position, player: str, seed: int) -> None:
    """Seat 1 acts last in the last slot: Charge from tile 2 knocks seat 0's last pirate
    into the sea and wins at once; from the ship it only walks on."""
    rules = WalkThePlankRules()
    pos = position(2, 3, {0: {3: 1}, 1: {2: 1, 0: 1}})
    options = [(0, -1), (2, 0)]  # canonical order: tiles ascending
    _, choose, budget = PLAYERS[player]
    params = search_params(budget)
    pick = choose_in(pos, rules, 1, Card.CHARGE, 2, options, choose, params, seed)
    assert options[pick] == (2, 0)


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("seed", range(3))
def test_search_does_not_run_into_the_sea(position, player: str, seed: int) -> None:
    """Seat 1's last pirate stands on the last tile: running toward the sea loses at once."""
    rules = WalkThePlankRules()
    pos = position(2, 3, {0: {0: 2}, 1: {3: 1}})
    options = [(3, 0), (3, 1)]  # toward the ship, toward the sea
    _, choose, budget = PLAYERS[player]
    params = search_params(2 * budget)
    pick = choose_in(pos, rules, 1, Card.RUN, 2, options, choose, params, seed)
    assert options[pick] == (3, 0)


@pytest.mark.slow  # compiles the search: the long suite
@pytest.mark.parametrize("player", PLAYERS)
def test_search_programmes_the_retreat_not_the_fall(position, player: str) -> None:
    """Seat 0 (captain, first to reveal) has one pirate left, on the last tile beside one
    of seat 1's. Retract Plank or Drag to Sea first drowns it and loses at once. Stepping
    back (I Don't Want to Die) or shoving seat 1's pirate off first are the best starts:
    with random later cards they win 66% and 43% of playouts, no other card over 33%."""
    rules = WalkThePlankRules()
    pos = position(2, 3, {0: {3: 1}, 1: {3: 1, 0: 1}})
    obs = pack_position(pos, rules)
    program, _, budget = PLAYERS[player]
    for seed in range(3):
        params = search_params(budget)
        out = np.zeros(3, dtype=np.int64)
        arguments = (obs, 0, card_mask(()) | 0b1111111111, params, seat_stream(seed), out)
        program(*engine_nb.program_nb.as_called(arguments))
        assert len(set(out.tolist())) == 3
        assert int(out[0]) not in (Card.RETRACT_PLANK, Card.DRAG_TO_SEA)
        best = (Card.NOT_ME, Card.SHOVE_LEFT, Card.SHOVE_RIGHT, Card.SHOVE_ANYONE)
        assert int(out[0]) in best
        # The programme is remembered for the seat's option decisions of the round.
        assert params[mc_nb.Search.OWN :].tolist() == out.tolist()
        assert obs[2][State.ROUND] == 1 and obs[0][0, 3] == 1  # the position is left alone


# ---------------------------------------------------------------------------
# In the game loop and on the command line
# ---------------------------------------------------------------------------


def check_legal_and_thread_independent(strategies: list[str]) -> None:
    """Games with ``strategies`` (seats rotated, every variant) are the same on one thread
    and on two, and their records keep the rules: in a finished game the winners are the
    seats with pirates left."""
    from balance import api
    from balance.run.runner import run_games

    setup = api.make_setup(
        "walk-the-plank",
        len(strategies),
        seed=4,
        strategies=strategies,
        variants=("ghost", "dolphin", "kraken"),
        rotate_seats=True,
    )
    records = []
    for threads in (1, 2):
        result = run_games(setup, 12, threads=threads, progress=False)
        blocks = result.blocks
        names = ("games", "cards", "seats")
        records.append({k: np.concatenate([b.extra[k] for b in blocks]) for k in names})
    for name in records[0]:
        np.testing.assert_array_equal(records[0][name], records[1][name])
    seats = records[0]["seats"]
    games = records[0]["games"]
    finished = games[:, 1].astype(bool)
    np.testing.assert_array_equal(seats[finished, :, 0], seats[finished, :, 1] > 0)
    assert finished.any()


@pytest.mark.slow  # compiles a search loop: the long suite
def test_ismcts_plays_legal_games_the_same_on_any_thread_count() -> None:
    # The one test of the default suite that compiles a search player's game loop.
    check_legal_and_thread_independent(["ismcts:iterations=8,rollout=greedy", "random", "greedy"])


@pytest.mark.slow
def test_mc_plays_legal_games_the_same_on_any_thread_count() -> None:
    check_legal_and_thread_independent(["mc:playouts=2", "random", "survivor"])


@pytest.mark.slow
def test_both_search_players_play_legal_games_at_one_table() -> None:
    check_legal_and_thread_independent(["mc:playouts=2", "ismcts:iterations=8", "greedy", "random"])


@pytest.mark.slow
def test_search_players_guessing_by_their_rollout_play_legal_games_on_any_thread_count() -> None:
    check_legal_and_thread_independent(
        [
            "mc:playouts=2,rollout=greedy,guess=rollout",
            "ismcts:iterations=8,guess=rollout",
            "survivor",
        ]
    )


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ("mc:playouts=0", "'playouts' must be from 1 to 65536, not 0"),
        ("mc:rollout=mc", "'rollout' needs a number or one of random, aggressor"),
        ("mc:rollout=7", "'rollout' must be from 0 to 3"),
        ("mc:depth=3", "bad parameter 'depth=3'; parameters: playouts, rollout"),
        ("ismcts:iterations=0", "'iterations' must be from 1 to 65536, not 0"),
        ("ismcts:c=-1", "'c' must be from 0 to 100, not -1"),
        ("ismcts:rollout=ismcts", "'rollout' needs a number or one of random, aggressor"),
    ],
)
def test_bad_search_parameters_are_one_line_errors(monkeypatch, capsys, given, fragment) -> None:
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "walk-the-plank", "-p", "3", "--strategy", given
    )
    assert_one_line_error(code, out, err, fragment)


def test_the_label_names_the_rollout_by_its_word() -> None:
    from balance.strategies.walk_the_plank import SHIPPED

    from balance.core.strategy import parse_strategy

    chosen = parse_strategy(
        "mc:playouts=64,rollout=greedy", {s.name: s for s in SHIPPED}, "walk-the-plank"
    )
    assert chosen.strategy is mc
    assert chosen.label == "mc(playouts=64,rollout=greedy)"


def test_search_decisions_take_the_documented_arguments() -> None:
    import inspect

    from balance.games.walk_the_plank import kit

    found = re.findall(r"``(program|choose|push)\(([^)]*)\)", kit.__doc__)
    documented = {name: [a.strip() for a in args.split(",")] for name, args in found}
    for strategy in (mc, ismcts):
        assert strategy.code is None  # joins the loop through generated dispatchers
        assert set(strategy.decisions) == set(documented)
        for decision, function in strategy.decisions.items():
            parameters = list(inspect.signature(function.py_func).parameters)
            assert parameters == documented[decision], (strategy.name, decision)


def test_a_run_without_search_players_compiles_none_of_their_code() -> None:
    """The shared game loop never calls the search players: they join a loop of their own."""
    import subprocess
    import sys

    script = (
        "from balance import api\n"
        "from balance.run.runner import run_games\n"
        "from balance.games.walk_the_plank import engine, ismcts_nb, mc_nb, search_nb\n"
        "setup = api.make_setup('walk-the-plank', 3, seed=1, strategies=['greedy'])\n"
        "run_games(setup, 20, threads=1, progress=False)\n"
        "mc_nb, ismcts_nb, search_nb = (\n"
        "    engine.DISPATCH.bound(m) for m in (mc_nb, ismcts_nb, search_nb))\n"
        "compiled = [f for f in (mc_nb.mc_program_nb, mc_nb.mc_choose_nb,\n"
        "    ismcts_nb.ismcts_program_nb, ismcts_nb.ismcts_choose_nb, search_nb.advance_nb)\n"
        "    if f.signatures]\n"
        "loop = engine.ENGINE.kernel_for(setup.lineup)\n"
        "print(len(compiled), bool(loop.signatures))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0 True"  # the loop played, the search code was never built


@pytest.mark.parametrize("first", ["search_nb", "mc_nb", "ismcts_nb", "engine_nb"])
def test_the_search_modules_import_in_any_order(first: str) -> None:
    """The game loop's module, the shipped strategies and the search players import one
    another; importing any of them first must work."""
    import subprocess
    import sys

    script = f"from balance.games.walk_the_plank import {first}\nprint('ok')\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"
