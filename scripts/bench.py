"""Throughput of the game engines: games per second per engine, strategy and thread count.

Run from the project root:

    python scripts/bench.py            # the full table (about a minute once compiled)
    python scripts/bench.py --quick    # fewer games, for a quick look

It prints the machine it ran on first, so that figures from different machines are
never compared blindly. Compilation is done (or loaded from the cache) before timing.
"""

from __future__ import annotations

import argparse
import platform
import time

import numba
import numpy as np

from balance.api import make_setup
from balance.games import get_game
from balance.games.walk_the_plank.reference import play_game
from balance.run import default_threads, run_games


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = default_threads()
    return (
        f"machine: {model}, {cores} cores, {platform.system()} {platform.machine()}; "
        f"Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}"
    )


def best_rate(setup, games: int, threads: int, repeat: int) -> float:
    """Best of ``repeat`` runs, in games per second (the least disturbed by the machine)."""
    rates = []
    for _ in range(repeat):
        result = run_games(setup, games, threads=threads, progress=False, keep_records=False)
        rates.append(result.games / result.elapsed_s)
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games per measurement")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 5])
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    repeat = 2 if args.quick else 3
    print(machine())
    print(
        f"{'engine':<10} {'game':<15} {'players':>7} {'strategy':<16} {'variants':<22} "
        f"{'threads':>7} {'games/s':>12}"
    )

    game = get_game("walk-the-plank")
    cases = [("random", ())] + [
        (name, ()) for name in game.strategies() if name not in ("random", "weighted")
    ]
    cases.append(("random", ("ghost", "dolphin", "kraken")))
    # A table of survivors never ends (nobody pushes), so every game plays the round cap;
    # one survivor among random players plays games of ordinary length.
    cases.append(("survivor+random", ()))
    threads_list = sorted({1, default_threads()})
    for players in args.players:
        for strategy, variants in cases:
            lineup = strategy.split("+")
            lineup += [lineup[-1]] * (players - len(lineup))
            setup = make_setup(
                game.id, players, 1, lineup, variants, rotate_seats=len(set(lineup)) > 1
            )
            game.prepare(setup)
            for threads in threads_list:
                rate = best_rate(setup, int(1_000_000 * scale), threads, repeat)
                print(
                    f"{'compiled':<10} {game.id:<15} {players:>7} {strategy:<16} "
                    f"{'+'.join(variants) or 'base':<22} {threads:>7} {rate:>12,.0f}"
                )
        setup = make_setup(game.id, players, 1, ["random"], ())
        count = int(2_000 * scale) or 200
        clock = time.perf_counter()
        for g in range(count):
            play_game(setup.rules, players, 1, g)
        rate = count / (time.perf_counter() - clock)
        print(
            f"{'reference':<10} {game.id:<15} {players:>7} {'random':<16} {'base':<22} "
            f"{1:>7} {rate:>12,.0f}"
        )


if __name__ == "__main__":
    main()
