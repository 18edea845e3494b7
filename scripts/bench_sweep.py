"""Throughput of ``balance sweep`` against one ``simulate`` of the same total, and the
per-task cost of Dask, from which the sweep's default block size is chosen.

Run from the project root (``scripts/bench.py --sweep`` runs it too):

    python scripts/bench_sweep.py            # 60 points x 20,000 games (a few minutes)
    python scripts/bench_sweep.py --quick    # 60 points x 2,000 games

It measures, on this machine:

1. one ``simulate`` of 4-player uniform-random Walk the Plank, 60 x G games, all cores;
2. a local sweep of a 60-point grid (plank_max 3..8 x pirates_per_player 1..5 x base or
   Kraken), G games a point, all cores: its games per second as a share of (1);
3. the same 60 points' games played with nothing else (each point's blocks straight
   from the engine, in the form a sweep task reads them, on a pool of as many threads):
   the sweep's own cost is the gap between (2) and (3), while (1) plays different games
   (the default rules' games are shorter than the grid's average: both mean lengths are
   printed), so (2) / (1) mixes the sweep's cost with the games' cost;
4. the cost of a sweep task beyond playing its games (tallying the outcomes), per block
   size;
5. Dask's own cost per task on a 2-worker LocalCluster (worker processes, one thread
   each): the time per no-op task when many are submitted at once.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from balance.analyses.sweep import DEFAULT_BLOCK, sweep
from balance.analyses.sweep_tally import play_tally, tally_block
from balance.api import make_setup, simulate
from balance.games import get_game
from balance.run.runner import default_threads

AXES = ["plank_max=3..8", "pirates_per_player=1..5", "variant=base,kraken"]


def best(function, repeat: int) -> float:
    """Least elapsed seconds of ``repeat`` calls (the least disturbed by the machine)."""
    times = []
    for _ in range(repeat):
        clock = time.perf_counter()
        function()
        times.append(time.perf_counter() - clock)
    return min(times)


def grid_setups() -> list:
    """The 60 points of :data:`AXES` as setups."""
    return [
        make_setup(
            "walk-the-plank",
            4,
            rules={"plank_max": plank, "pirates_per_player": pirates},
            variants=[] if variant == "base" else [variant],
        )
        for plank, pirates, variant in itertools.product(range(3, 9), range(1, 6), AXES_VARIANTS)
    ]


AXES_VARIANTS = ("base", "kraken")


def play_only(setups: list, games: int, block: int, threads: int) -> None:
    """Every point's games, block by block, on ``threads`` threads, with nothing else."""
    game = get_game("walk-the-plank")
    for setup in setups:
        game.prepare(setup)
    tasks = [(s, start) for s in setups for start in range(0, games, block)]
    with ThreadPoolExecutor(threads) as pool:
        # The block the sweep's tasks read (the engine's slim record where it has one).
        list(pool.map(lambda t: tally_block(game, t[0], t[1], min(block, games - t[1])), tasks))


def throughput(games: int, repeat: int) -> None:
    """(1), (2) and (3), each the best of ``repeat`` runs taken in turn (so that a change
    in the machine's load falls on all three), and the games' mean lengths."""
    total = 60 * games
    threads = default_threads()
    sweep("walk-the-plank", players=[4], axes=AXES, games=200)  # compile or load once
    setups = grid_setups()
    kept: dict = {}

    def one_simulate() -> None:
        kept["simulate"] = simulate("walk-the-plank", 4, total, keep_records=False).summary()

    def one_sweep() -> None:
        kept["sweep"] = sweep("walk-the-plank", players=[4], axes=AXES, games=games)

    times: dict[str, list[float]] = {"one": [], "many": [], "same": []}
    for _ in range(repeat):
        times["one"].append(best(one_simulate, 1))
        times["many"].append(best(one_sweep, 1))
        times["same"].append(
            best(lambda: play_only(setups, games, min(games, DEFAULT_BLOCK), threads), 1)
        )
    one, many, same = (min(times[k]) for k in ("one", "many", "same"))
    summary, result = kept["simulate"], kept["sweep"]
    means = [p["metrics"]["length_mean"]["value"] for p in result.points]
    low, high = summary["length_ci95"]
    print(
        f"simulate (default rules), {total:,} games: {total / one:,.0f} games/s "
        f"({threads} threads, best of {repeat})"
    )
    print(
        f"sweep, 60 points x {games:,} games: {total / many:,.0f} games/s = "
        f"{one / many:.0%} of simulate (the goal: 80%)"
    )
    print(
        f"the sweep's games played with nothing else: {total / same:,.0f} games/s "
        f"({one / same:.0%} of simulate: the grid's games are longer); the sweep runs at "
        f"{same / many:.0%} of that (its own cost: counting and figures)"
    )
    print(
        f"mean game length: simulate {summary['length_mean']:.2f} rounds [{low:.2f}, "
        f"{high:.2f}] ({total:,} games); the grid's points {np.mean(means):.2f} on average "
        f"({min(means):.2f} to {max(means):.2f}, {games:,} games each)"
    )
    # Games of different lengths weigh differently: per round played, the sweep and
    # simulate do the same work, so rounds per second compare them on equal terms.
    sweep_rounds = games * float(np.sum(means)) / many
    simulate_rounds = total * summary["length_mean"] / one
    print(
        f"rounds played per second: simulate {simulate_rounds:,.0f}, sweep {sweep_rounds:,.0f} "
        f"= {sweep_rounds / simulate_rounds:.0%} of simulate"
    )


def task_cost(repeat: int) -> None:
    """(4): playing a block alone and the task with its tally, taken in turn ``repeat``
    times (a change in the machine's load falls on both), the least of each."""
    setup = make_setup("walk-the-plank", 4)
    game = get_game(setup.game)
    for size in (1_000, 5_000, 20_000):
        plays, tasks = [], []
        for _ in range(repeat):
            plays.append(best(lambda size=size: tally_block(game, setup, 0, size), 1))
            tasks.append(best(lambda size=size: play_tally(setup, 0, size), 1))
        play, task = min(plays), min(tasks)
        print(
            f"block of {size:>6,} games: play {play * 1e3:6.1f} ms, task with its tally "
            f"{task * 1e3:6.1f} ms (tally {100 * (task - play) / task:4.1f}% of the task, "
            f"best of {repeat})"
        )


def dask_overhead(tasks: int) -> None:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print('Dask is not installed (pip install -e ".[cluster]"): no Dask figures')
        return
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.submit(abs, -1).result()
        clock = time.perf_counter()
        client.gather([client.submit(abs, -k, pure=False) for k in range(tasks)])
        elapsed = time.perf_counter() - clock
    print(
        f"Dask, 2-worker LocalCluster: {elapsed / tasks * 1e3:.2f} ms a task "
        f"({tasks:,} no-op tasks submitted at once)"
    )


def measure(quick: bool = False) -> None:
    """Every measurement, printed (``quick``: 2,000 games a point, one repeat)."""
    throughput(2_000 if quick else 20_000, repeat=1 if quick else 3)
    task_cost(repeat=7)
    dask_overhead(tasks=500 if quick else 2_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 games a point")
    measure(parser.parse_args().quick)


if __name__ == "__main__":
    main()
