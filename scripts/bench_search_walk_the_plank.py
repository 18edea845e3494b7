"""Speed of Walk the Plank's search players: decisions and games per second by budget.

Run from the project root (the first run compiles the search players and their game
loop: minutes on a busy machine):

    python scripts/bench_search_walk_the_plank.py                # 4 players, base rules
    python scripts/bench_search_walk_the_plank.py --players 3 --games 20

Decisions are timed one by one on positions taken from games of greedy players (a
programme at the start of a round, an option decision at a reveal with two or more
options), each with the playout budget and rollout given. Games per second are those of
one search player against greedy players in the other seats, seats rotated, on one
thread. The figures in docs/walk-the-plank.md come from this script.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from balance import api
from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS
from balance.games.walk_the_plank import engine, ismcts_nb, mc_nb
from balance.games.walk_the_plank import search_nb as S
from balance.games.walk_the_plank.moves_nb import MAX_OPTIONS, legal_options_nb
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.run.runner import run_games

# The kernels as the shipped strategies play them: their dispatchers bound in.
ismcts_nb = engine.DISPATCH.bound(ismcts_nb)
mc_nb = engine.DISPATCH.bound(mc_nb)
S = engine.DISPATCH.bound(S)

GREEDY = 3
ROLLOUTS = {"random": 0, "aggressor": 1, "survivor": 2, "greedy": 3}


def sample_positions(players: int, games: int) -> tuple[list, list]:
    """Programme and option decisions met in ``games`` games of greedy players.

    Returns ``(programmes, options)``: ``(obs, seat, available)`` and ``(obs, seat, card,
    slot, opt_tile, opt_arg, count)`` tuples, ``obs`` copies of the position seen.
    """
    rules = WalkThePlankRules().to_array()
    codes = np.full(players, GREEDY, dtype=np.int64)
    params = np.zeros((players, MAX_PARAMS))
    programmes, options = [], []
    for game in range(games):
        pos = S.new_position_nb(players, rules)
        work = S.new_work_nb(players)
        rng = np.zeros((players + 1, 4), dtype=np.uint64)
        for stream in range(players + 1):
            seed_stream_nb(rng[stream], 1, game, stream)
        S.start_nb(pos)
        while pos[12][S.Where.STATUS] == S.Status.RUNNING:
            step = int(pos[12][S.Where.STEP])
            obs = tuple(x.copy() if isinstance(x, np.ndarray) else x for x in pos[:9])
            if step < 0:
                obs[4][:] = -1
                seat = game % players
                if pos[1][seat] > 0:
                    programmes.append((obs, seat, S.available_nb(pos, seat)))
            else:
                slot, k = divmod(step, players)
                seat = (int(pos[2][S.State.CAPTAIN]) + k) % players
                if pos[1][seat] > 0:
                    card = int(pos[10][seat, slot])
                    obs[4][seat, slot] = card
                    opt_tile = np.zeros(MAX_OPTIONS, dtype=np.int64)
                    opt_arg = np.zeros(MAX_OPTIONS, dtype=np.int64)
                    count = legal_options_nb(
                        obs[0], obs[1], obs[2], rules, players, seat, card, slot, opt_tile, opt_arg
                    )
                    if count >= 2:
                        options.append((obs, seat, card, slot, opt_tile, opt_arg, count))
            S.advance_nb(pos, codes, params, rng, work, 1)
    return programmes, options


def decisions_per_second(player: str, budget: int, rollout: int, programmes, options):
    program, choose = {
        "mc": (mc_nb.mc_program_nb, mc_nb.mc_choose_nb),
        "ismcts": (ismcts_nb.ismcts_program_nb, ismcts_nb.ismcts_choose_nb),
    }[player]
    params = np.zeros(MAX_PARAMS)
    params[mc_nb.Search.BUDGET] = budget
    params[mc_nb.Search.ROLLOUT] = rollout
    params[mc_nb.Search.C] = 0.7
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, 7, 0, 0)
    out = np.zeros(3, dtype=np.int64)
    # One call of each first: loading the compiled code is not timed.
    program(*programmes[0], params, rng, out)
    params[mc_nb.Search.OWN :] = -1
    choose(*options[0], params, rng)
    start = time.perf_counter()
    for obs, seat, available in programmes:
        program(obs, seat, available, params, rng, out)
    program_rate = len(programmes) / (time.perf_counter() - start)
    start = time.perf_counter()
    for obs, seat, card, slot, opt_tile, opt_arg, count in options:
        params[mc_nb.Search.OWN :] = -1  # its programme unknown: sampled like the others'
        choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng)
    option_rate = len(options) / (time.perf_counter() - start)
    return program_rate, option_rate


def games_per_second(player: str, players: int, games: int) -> float:
    names = [player] + ["greedy"] * (players - 1)
    setup = api.make_setup("walk-the-plank", players, seed=3, strategies=names, rotate_seats=True)
    run_games(setup, 1, threads=1, progress=False)  # compile or load the loop first
    start = time.perf_counter()
    run_games(setup, games, threads=1, progress=False)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--games", type=int, default=12, help="games timed per budget (0: decisions only)"
    )
    parser.add_argument("--positions", type=int, default=4, help="games to take positions from")
    parser.add_argument("--rollout", choices=sorted(ROLLOUTS), default="random")
    parser.add_argument("--mc", type=int, nargs="*", default=[4, 16, 64])
    parser.add_argument("--ismcts", type=int, nargs="*", default=[64, 256, 1024])
    args = parser.parse_args()
    programmes, options = sample_positions(args.players, args.positions)
    print(
        f"{args.players} players, base rules, rollout {args.rollout}: "
        f"{len(programmes)} programme and {len(options)} option decisions timed; "
        f"games: one search player against greedy, seats rotated, 1 thread"
    )
    print(f"{'player':<34} {'programmes/s':>13} {'options/s':>10} {'games/s':>8}")
    for player, budgets, word in (
        ("mc", args.mc, "playouts"),
        ("ismcts", args.ismcts, "iterations"),
    ):
        for budget in budgets:
            rollout = ROLLOUTS[args.rollout]
            rates = decisions_per_second(player, budget, rollout, programmes, options)
            label = f"{player}:{word}={budget},rollout={args.rollout}"
            games = (
                f"{games_per_second(label, args.players, args.games):8.2f}" if args.games else "-"
            )
            print(f"{label:<34} {rates[0]:>13,.1f} {rates[1]:>10,.1f} {games:>8}")


if __name__ == "__main__":
    main()
