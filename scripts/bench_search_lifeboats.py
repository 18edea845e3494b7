"""Speed of Lifeboats' search players: decisions per second and games per second.

Usage: ``python scripts/bench_search_lifeboats.py [--players 4] [--games 20]``. For each
player and budget it plays ``--games`` games of one search player against random
players (seats rotated, one thread) and times them; the decisions per second are the
search player's real decisions (two or more options) in those games, counted by the
reference engine on a few of them. Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import time

from balance.api import make_setup
from balance.games.lifeboats import reference
from balance.games.lifeboats.bridge import lineup_player_factory
from balance.run.runner import run_games

BUDGETS = {"mc": ("playouts", (4, 16, 64)), "ismcts": ("iterations", (64, 256, 1024))}


def search_decisions(setup, games: int) -> float:
    """Mean real decisions of the search seat per game, over ``games`` reference games."""
    counts = []
    for game in range(games):
        asked = [0]
        make = lineup_player_factory(setup.lineup, setup.rules, game)

        def make_player(seat, stream, make=make, asked=asked):
            player = make(seat, stream)
            if getattr(player, "name", "").startswith(("mc", "ismcts")):
                inner = player.decide

                def decide(pos, s, kind, options):
                    asked[0] += 1
                    return inner(pos, s, kind, options)

                player.decide = decide
            return player

        reference.play_game(setup.rules, setup.players, setup.seed, game, make_player)
        counts.append(asked[0])
    return sum(counts) / len(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"Lifeboats, {args.players} players: one search player against random, one thread")
    for name, (param, budgets) in BUDGETS.items():
        for budget in budgets:
            text = f"{name}:{param}={budget}"
            strategies = [text] + ["random"] * (args.players - 1)
            setup = make_setup(
                "lifeboats", args.players, strategies=strategies, rotate_seats=True, seed=1
            )
            run_games(setup, 2, threads=1, progress=False)  # compile or load
            start = time.perf_counter()
            run_games(setup, args.games, threads=1, progress=False)
            seconds = time.perf_counter() - start
            per_game = search_decisions(setup, 2)
            decisions = per_game * args.games
            print(
                f"{text:>24}: {args.games / seconds:8.2f} games/s, "
                f"{decisions / seconds:9.1f} decisions/s ({per_game:.0f} decisions a game)"
            )


if __name__ == "__main__":
    main()
