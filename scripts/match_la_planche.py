"""A rotated-seat La Planche match of two strategies, with the paired difference.

``python scripts/match_la_planche.py A B [-g GAMES] [-p PLAYERS] [-s SEED]`` plays ``A``
in one seat and ``B`` in every other (seats rotated, one thread) with
:func:`balance.api.simulate`, the same games as ``balance simulate la-planche
--strategy A --strategy B ... --rotate-seats``, and prints each strategy's win rate
(Wilson 95%), the per-game difference between A's result and the mean result of a B
seat (t interval over games, 95%), and, with 2 players, A's share of the games one of
the two won (Wilson 95%). docs/la-planche.md ("How strong they are") quotes its output.
"""

from __future__ import annotations

import argparse
import time

from balance.api import simulate
from balance.stats.intervals import mean_interval, wilson_interval


def main() -> None:
    """Play the match the command line names and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the strategy played in one seat")
    parser.add_argument("b", help="the strategy played in every other seat")
    parser.add_argument("-g", "--games", type=int, default=200)
    parser.add_argument("-p", "--players", type=int, default=2)
    parser.add_argument("-s", "--seed", type=int, default=2026)
    args = parser.parse_args()
    strategies = [args.a] + [args.b] * (args.players - 1)
    simulate("la-planche", args.players, 2, args.seed, strategies, rotate_seats=True, threads=1)
    start = time.perf_counter()
    run = simulate(
        "la-planche", args.players, args.games, args.seed, strategies, rotate_seats=True, threads=1
    )
    seconds = time.perf_counter() - start
    seats = run.table("seats")
    label_a = run.setup.lineup.labels[0]
    won = seats["won"].astype(float)
    is_a = seats["strategy"] == label_a
    a = won[is_a].groupby(seats["game"][is_a]).sum().sort_index()
    b = won[~is_a].groupby(seats["game"][~is_a]).mean().sort_index()
    games = len(a)
    print(
        f"{games} games, {args.players} players, seed {args.seed}, one thread: "
        f"{seconds:.1f} s ({games / seconds:.2f} games/s)"
    )
    for label, wins in ((label_a, won[is_a]), (f"{args.b} (each seat)", won[~is_a])):
        low, high = wilson_interval(int(wins.sum()), len(wins))
        print(f"  {label}: {wins.mean():.1%} [{low:.1%}, {high:.1%}] of {len(wins)} seats")
    mean, low, high = mean_interval((a - b).to_numpy())
    print(f"  difference a game (A minus a B seat): {mean:+.1%} [{low:+.1%}, {high:+.1%}]")
    if args.players == 2:
        decided = int((a + b).sum())
        low, high = wilson_interval(int(a.sum()), decided)
        print(
            f"  A's share of decided games: {a.sum() / decided:.1%} [{low:.1%}, {high:.1%}] "
            f"of {decided}"
        )


if __name__ == "__main__":
    main()
