"""How often Battle of Thieves games between the shipped strategies finish before the cap.

Run from the project root:

    python scripts/bot_finishing.py                 # 400 games an ordered pair
    python scripts/bot_finishing.py --games 2000 --decks cannon-battery,cannon-battery

For every ordered pair of shipped strategies (seat 0, seat 1) it plays ``--games`` games
of the default rules (or ``--decks``) on the compiled engine and prints the share of games
stopped by the turn cap, with its 95% Wilson interval, and how the others ended (each
seat's wins, the mean game length). ``docs/battle-of-thieves.md`` quotes its figures.
"""

from __future__ import annotations

import argparse

import numpy as np
from balance.strategies.battle_of_thieves import SHIPPED

from balance.games.base import Lineup
from balance.games.battle_of_thieves import engine
from balance.games.battle_of_thieves.layout import CAPPED, GAME_STAT
from balance.games.battle_of_thieves.rules import BattleRules
from balance.stats import wilson_interval
from balance.strategy import SeatStrategy


def seat(strategy) -> SeatStrategy:
    """``strategy`` with its default parameters."""
    return SeatStrategy(strategy, tuple(float(value) for _, value in strategy.params))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games an ordered pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", default="", help="two decks, comma-separated")
    parser.add_argument("--only", default="", help="only pairs with this strategy")
    args = parser.parse_args()
    rules = BattleRules(decks=tuple(args.decks.split(","))) if args.decks else BattleRules()
    print(
        f"decks {', '.join(rules.decks)}; {args.games} games an ordered pair, seed "
        f"{args.seed}; turn cap {rules.turn_cap}; 95% Wilson intervals"
    )
    print(
        f"{'seat 0':<10} {'seat 1':<10} {'capped':>7} {'[95%]':<15} seat 0 won  seat 1 won  turns"
    )
    for a in SHIPPED:
        for b in SHIPPED:
            if args.only and args.only not in (a.name, b.name):
                continue
            records = engine.play_games(
                rules, 2, args.seed, args.games, lineup=Lineup((seat(a), seat(b)))
            ).games
            capped = int((records[:, GAME_STAT.REASON] == CAPPED).sum())
            low, high = wilson_interval(capped, args.games)
            winner = records[:, GAME_STAT.WINNER]
            turns = records[:, GAME_STAT.TURNS]
            print(
                f"{a.name:<10} {b.name:<10} {capped / args.games:>7.1%} "
                f"[{low:.1%}, {high:.1%}]".ljust(45)
                + f"{(winner == 0).mean():>9.1%} {(winner == 1).mean():>11.1%} "
                f"{np.mean(turns):>7.1f}"
            )


if __name__ == "__main__":
    main()
