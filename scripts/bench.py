"""Throughput of the game engines: games per second per engine, strategy and thread count.

Run from the project root:

    python scripts/bench.py                      # every game (a few minutes once compiled)
    python scripts/bench.py --quick              # fewer games, for a quick look
    python scripts/bench.py --game la-planche --players 4
    python scripts/bench.py --sweep              # a sweep against simulate, Dask's task cost

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
from balance.games.battle_of_thieves import reference as bot
from balance.games.la_planche.reference import play_game as lp_reference
from balance.games.lifeboats.reference import play_game as lb_reference
from balance.games.walk_the_plank.reference import play_game as wtp_reference
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


#: What each game is measured on: players, and (strategies, variants) cases. Strategies
#: joined by "+" fill the seats in order (the last one repeated, the surplus dropped),
#: rotated round the table. Battle of Thieves' cases name the decks as a variant
#: ("decks=A,B", a rule).
BOT_DECKS = "decks=cannon-battery,boarding-party"
PLAN = {
    "battle-of-thieves": (
        (2,),
        [
            ("random", (BOT_DECKS,)),
            ("random", ("decks=boarding-party,island-raiders",)),
            ("cannoneer", (BOT_DECKS,)),
            ("boarder", (BOT_DECKS,)),
            ("bailer", (BOT_DECKS,)),
            ("cannoneer+bailer", (BOT_DECKS,)),
        ],
    ),
    "walk-the-plank": (
        (3, 5),
        [
            ("random", ()),
            ("aggressor", ()),
            # A table of survivors never ends (nobody pushes): every game plays the round
            # cap. One survivor among random players plays games of ordinary length.
            ("survivor", ()),
            ("survivor+random", ()),
            ("greedy", ()),
            ("random", ("ghost", "dolphin", "kraken")),
        ],
    ),
    "la-planche": (
        (2, 4),
        [
            ("random", ()),
            ("protector", ()),
            ("detective", ()),
            ("detective+random", ()),
            ("random", ("rounds",)),
        ],
    ),
    "lifeboats": (
        (3, 5),
        [
            ("random", ()),
            ("steward", ()),
            ("hatkeeper", ()),
            ("swimmer", ()),
            ("steward+hatkeeper+swimmer+random", ()),
        ],
    ),
}
#: Games per measurement (before --quick), where a case's games are slow to play.
GAMES = {
    "cannoneer": 20_000,
    "boarder": 20_000,
    "bailer": 20_000,
    "cannoneer+bailer": 20_000,
    "protector": 100_000,
    "detective": 100_000,
    "detective+random": 100_000,
    "steward": 50_000,
    "hatkeeper": 50_000,
    "swimmer": 50_000,
    "steward+hatkeeper+swimmer+random": 50_000,
}


def bot_reference(rules, players, seed, game):
    """A Battle of Thieves game on the reference engine, both seats random."""
    content = rules.content()
    return bot.play_game(
        rules, content, seed, game, make_player=lambda seat, stream: bot.RandomPlayer(stream)
    )


REFERENCES = {
    "battle-of-thieves": bot_reference,
    "walk-the-plank": wtp_reference,
    "la-planche": lp_reference,
    "lifeboats": lb_reference,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games per measurement")
    parser.add_argument("--game", choices=sorted(PLAN), nargs="*", default=sorted(PLAN))
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: per game)")
    parser.add_argument(
        "--sweep", action="store_true", help="measure balance sweep instead (bench_sweep.py)"
    )
    args = parser.parse_args()
    if args.sweep:
        import bench_sweep  # beside this script

        print(machine())
        bench_sweep.measure(quick=args.quick)
        return
    scale = 0.1 if args.quick else 1.0
    repeat = 2 if args.quick else 3
    print(machine())
    print(
        f"{'engine':<10} {'game':<17} {'players':>7} {'strategy':<34} {'variants':<36} "
        f"{'threads':>7} {'games/s':>12}"
    )
    threads_list = sorted({1, default_threads()})
    for game_id in sorted(args.game, reverse=True):
        game = get_game(game_id)
        counts, cases = PLAN[game_id]
        for players in args.players or counts:
            for strategy, variants in cases:
                lineup = strategy.split("+")
                lineup = (lineup + [lineup[-1]] * players)[:players]
                rules = [tuple(v.split("=", 1)) for v in variants if "=" in v]
                named = [v for v in variants if "=" not in v]
                setup = make_setup(
                    game.id, players, 1, lineup, named, rules, rotate_seats=len(set(lineup)) > 1
                )
                game.prepare(setup)
                for threads in threads_list:
                    games = int(GAMES.get(strategy, 1_000_000) * scale)
                    rate = best_rate(setup, games, threads, repeat)
                    print(
                        f"{'compiled':<10} {game.id:<17} {players:>7} {strategy:<34} "
                        f"{'+'.join(variants) or 'base':<36} {threads:>7} {rate:>12,.0f}"
                    )
            first = cases[0][1]
            rules = [tuple(v.split("=", 1)) for v in first if "=" in v]
            setup = make_setup(game.id, players, 1, ["random"], (), rules)
            count = int(2_000 * scale) or 200
            clock = time.perf_counter()
            for g in range(count):
                REFERENCES[game_id](setup.rules, players, 1, g)
            rate = count / (time.perf_counter() - clock)
            print(
                f"{'reference':<10} {game.id:<17} {players:>7} {'random':<34} "
                f"{'+'.join(first) or 'base':<36} "
                f"{1:>7} {rate:>12,.0f}"
            )


if __name__ == "__main__":
    main()
