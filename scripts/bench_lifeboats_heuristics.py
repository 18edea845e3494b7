"""Lifeboats' heuristics against uniform-random play: games per second, one thread.

Run from the project root:

    python scripts/bench_lifeboats_heuristics.py                  # 3 and 5 players
    python scripts/bench_lifeboats_heuristics.py --games 5000 --repeat 3
    python scripts/bench_lifeboats_heuristics.py --players 3 --random-games 20000

Each strategy fills every seat and plays through the runner (``balance.run.runner.run_games``,
one thread, no records kept, running sums only), after its engine is compiled or loaded
from the cache. The strategies are measured in turns (random, steward, hatkeeper,
swimmer, random, ...), ``--repeat`` rounds, and each keeps its best round: on a machine
shared with other work, the least disturbed. Each round is timed by the wall clock and by
the process's CPU time (``time.process_time``), which other work on the machine disturbs
less; the load average (``os.getloadavg``) is printed before and after. Rates are also
given as a share of random play's rate in the same run, and scaled to a quiet machine's
random rate (``--quiet-random``) for an estimate of what a quiet machine gives. The
machine (processor, cores) is printed first, and the shares of every player count last.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from balance.core.errors import BalanceError
from balance.run.machine import one_line as machine

STRATEGIES = ("random", "steward", "hatkeeper", "swimmer")


def load() -> str:
    """The 1, 5 and 15-minute load averages, as text."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def setup_for(strategy: str, players: int) -> Any:
    """A prepared ``players``-player setup with ``strategy`` in every seat."""
    from balance.api import make_setup
    from balance.games import get_game

    game = get_game("lifeboats")
    setup = make_setup(game.id, players, 1, [strategy] * players)
    game.prepare(setup)
    return setup


def timed(setup: Any, games: int) -> tuple[float, float]:
    """Wall-clock and process CPU seconds of ``games`` games of ``setup`` on one thread."""
    from balance.run.runner import run_games

    wall, cpu = time.perf_counter(), time.process_time()
    result = run_games(setup, games, threads=1, progress=False, keep_records=False, sums_only=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result.games != games:
        raise SystemExit(f"played {result.games} games of {games}")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--games", type=int, default=2_000, help="games per heuristic round")
    parser.add_argument("--random-games", type=int, default=20_000, help="games per random round")
    parser.add_argument("--repeat", type=int, default=2, help="rounds (best kept)")
    parser.add_argument(
        "--quiet-random",
        type=float,
        default=98_000.0,
        help="random play's games/s on a quiet machine, to scale the shares by",
    )
    options = parser.parse_args()
    if min(options.games, options.random_games, options.repeat) < 1:
        parser.error("--games, --random-games and --repeat must be 1 or more")
    try:
        measure(options)
    except BalanceError as error:
        raise SystemExit(f"error: {error}") from None


def measure(options: argparse.Namespace) -> None:
    """Time each player count's strategies in turns, print their tables, then the shares."""
    print(machine())
    shares = {players: measure_table(options, players) for players in options.players}
    print("\nshare of random play's games/s, one thread (process CPU time; wall clock):")
    print(f"{'strategy':<10} " + " ".join(f"{f'{p} players':>16}" for p in shares))
    for name in STRATEGIES[1:]:
        cells = [f"{cpu:>7.3f} ({wall:.3f})" for cpu, wall in (s[name] for s in shares.values())]
        print(f"{name:<10} " + " ".join(f"{c:>16}" for c in cells))


def measure_table(options: argparse.Namespace, players: int) -> dict[str, tuple[float, float]]:
    """Compile, then time each strategy in turns, print the table; returns each
    strategy's share of random play's rate, by CPU time and by wall clock."""
    setups = {name: setup_for(name, players) for name in STRATEGIES}
    games = {name: options.games for name in STRATEGIES}
    games["random"] = options.random_games
    for name in STRATEGIES:  # compile or load from the cache before timing
        timed(setups[name], 20)
    print(f"\nLifeboats, {players} players, one thread; load before: {load()}")
    best: dict[str, tuple[float, float]] = {name: (0.0, 0.0) for name in STRATEGIES}
    for _ in range(options.repeat):
        for name in STRATEGIES:
            wall, cpu = timed(setups[name], games[name])
            rate_wall, rate_cpu = games[name] / wall, games[name] / cpu
            best[name] = (max(best[name][0], rate_wall), max(best[name][1], rate_cpu))
    print(f"load after: {load()}; best of {options.repeat} rounds")
    print(
        f"{'strategy':<10} {'games':>7} {'wall g/s':>10} {'cpu g/s':>10} "
        f"{'cpu share':>10} {'quiet est.':>11}"
    )
    random_wall, random_cpu = best["random"]
    shares = {}
    for name in STRATEGIES:
        wall, cpu = best[name]
        share = cpu / random_cpu
        shares[name] = (share, wall / random_wall)
        print(
            f"{name:<10} {games[name]:>7,} {wall:>10,.0f} {cpu:>10,.0f} "
            f"{share:>10.3f} {share * options.quiet_random:>11,.0f}"
        )
    return shares


if __name__ == "__main__":
    main()
