"""Speed of La Planche's search players: decisions per second and games per second.

Run from the project root (one thread; compiling the search code takes a few minutes
the first time):

    python scripts/bench_search_la_planche.py               # the budgets of docs/la-planche.md
    python scripts/bench_search_la_planche.py --quick       # fewer positions and games
    python scripts/bench_search_la_planche.py --no-games    # decisions only (no game loop)

Decisions: the ``choose`` decision of each player, timed on the same positions (turn 1
to 20 of seeded uniform-random 4-player games, the options of a symbol with at least two).
Games: a 4-player game, the search player in one seat and ``random`` in the others,
seats rotated, on one thread (``balance.api.simulate``). Figures are best of one run on a
shared machine: read them as orders of magnitude.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from balance.strategies.la_planche import ismcts, mc

from balance.api import simulate
from balance.core.strategy import MAX_PARAMS
from balance.games.la_planche import engine, search_nb
from balance.games.la_planche.moves_nb import (
    ADVANCE,
    MAX_OPTIONS,
    MOVE,
    SWAP,
    legal_options_nb,
)
from balance.games.la_planche.rules import LaPlancheRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

BUDGETS = {"mc": (4, 16, 64), "ismcts": (64, 256, 1024)}


def positions(count: int, players: int = 4) -> list[tuple]:
    """``count`` decisions ``(obs, seat, colour, symbol, opt_a, opt_b, options)`` from
    uniform-random games, each stopped before a turn's action."""
    rules = LaPlancheRules().to_array()
    found: list[tuple] = []
    codes = np.zeros(players, dtype=np.int64)
    params = np.zeros((players, MAX_PARAMS))
    rows = np.arange(players + 1, dtype=np.int64)
    game = 0
    while len(found) < count:
        turn = 1 + game % 20
        pos = search_nb.new_position_nb(players)
        work = search_nb.new_work_nb(players)
        rng = np.zeros((players + 1, 4), dtype=np.uint64)
        search_nb.start_game_nb(pos, rules, players, 99, game, rng)
        status = search_nb.run_nb(pos, rules, players, codes, params, rng, rows, work, turn - 1)
        game += 1
        if status != search_nb.PLAYING:
            continue
        pos[1][search_nb.State.TURN] += 1
        seat = int(pos[6][search_nb.Meta.SEAT])
        symbol = (SWAP, ADVANCE, MOVE)[game % 3]
        opt_a = np.zeros(MAX_OPTIONS, dtype=np.int64)
        opt_b = np.zeros(MAX_OPTIONS, dtype=np.int64)
        options = legal_options_nb(pos[0], pos[1], rules, symbol, opt_a, opt_b)
        if options < 2:
            continue
        obs = (pos[0], pos[1], rules, players, pos[2], *work[3:8])
        found.append((obs, seat, int(pos[3][seat]), symbol, opt_a, opt_b, options))
    return found


def decisions_per_second(strategy, budget: int, cases: list[tuple]) -> float:
    params = np.zeros(MAX_PARAMS)
    params[: len(strategy.params)] = [v for _, v in strategy.params]
    params[0] = budget
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    choose = strategy.decisions["choose"]
    obs, seat, colour, symbol, opt_a, opt_b, options = cases[0]
    choose(obs, seat, colour, symbol, opt_a, opt_b, options, params, rng)  # compile
    start = time.perf_counter()
    for obs, seat, colour, symbol, opt_a, opt_b, options in cases:
        choose(obs, seat, colour, symbol, opt_a, opt_b, options, params, rng)
    return len(cases) / (time.perf_counter() - start)


def games_per_second(label: str, games: int) -> float:
    lineup = [label, "random", "random", "random"]
    simulate("la-planche", players=4, games=4, strategies=lineup, rotate_seats=True, threads=1)
    start = time.perf_counter()
    simulate("la-planche", players=4, games=games, strategies=lineup, rotate_seats=True, threads=1)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and games")
    parser.add_argument(
        "--no-games", action="store_true", help="time decisions only (compiles no game loop)"
    )
    args = parser.parse_args()
    cases = positions(20 if args.quick else 100)
    print("| player | budget | decisions/s | games/s (4 players, 1 search seat) |")
    print("|---|---|---|---|")
    for strategy, name in ((mc, "playouts"), (ismcts, "iterations")):
        for budget in BUDGETS[strategy.name]:
            rate = decisions_per_second(strategy, budget, cases)
            speed = "not timed"
            if not args.no_games:
                games = max(4, int((10 if args.quick else 40) * 256 / budget))
                label = f"{strategy.name}:{name}={budget}"
                speed = f"{games_per_second(label, games):,.1f}"
            print(
                f"| `{strategy.name}:{name}={budget}` | {budget} | {rate:,.0f} | {speed} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
