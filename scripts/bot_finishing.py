"""How often Battle of Thieves games between the shipped strategies finish before the cap.

Run from the project root:

    python scripts/bot_finishing.py                 # 400 games an ordered pair
    python scripts/bot_finishing.py --games 2000 --decks cannon-battery,cannon-battery
    python scripts/bot_finishing.py --only bailer --rule bail=30

For every ordered pair of shipped strategies (seat 0, seat 1; the search players only
with ``--search``) it plays ``--games`` games
of the default rules (or ``--decks``, and any ``--rule NAME=VALUE``) on the compiled
engine and prints the share of games stopped by the turn cap, with its 95% Wilson
interval, and how the others ended (each seat's wins with its 95% Wilson interval, the
mean game length). ``docs/battle-of-thieves.md`` quotes its figures.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from balance.strategies.battle_of_thieves import SHIPPED

from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy
from balance.games.battle_of_thieves import engine
from balance.games.battle_of_thieves.layout import CAPPED, GAME_STAT
from balance.games.battle_of_thieves.rules import BattleRules
from balance.stats.intervals import wilson_interval

#: Left out unless ``--search``: a search player takes minutes for a pair's games.
SEARCH_PLAYERS = ("mc", "ismcts")


def seat(strategy) -> SeatStrategy:
    """``strategy`` with its default parameters."""
    return SeatStrategy(strategy, tuple(float(value) for _, value in strategy.params))


def make_rules(decks: str, rules: list[str]) -> BattleRules:
    """The default rules with ``decks`` (two names, comma-separated, or "") and each
    ``NAME=VALUE`` of ``rules`` set; a :class:`BalanceError` names a bad one."""
    made = BattleRules(decks=tuple(decks.split(","))) if decks else BattleRules()
    for text in rules:
        name, sep, value = text.partition("=")
        if not sep:
            raise BalanceError(f"--rule {text!r}: expected NAME=VALUE")
        made = made.with_text(name, value)
    return made


def share(count: int, games: int) -> str:
    """``count`` of ``games`` as a percentage with its 95% Wilson interval."""
    low, high = wilson_interval(count, games)
    return f"{count / games:.1%} [{low:.1%}, {high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games an ordered pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", default="", help="two decks, comma-separated")
    parser.add_argument("--only", default="", help="only pairs with this strategy")
    parser.add_argument(
        "--search", action="store_true", help="also the search players (minutes a pair)"
    )
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule parameter"
    )
    args = parser.parse_args()
    shipped = [s for s in SHIPPED if args.search or s.name not in SEARCH_PLAYERS]
    names = [strategy.name for strategy in shipped]
    try:
        if args.games < 1:
            raise BalanceError(f"--games {args.games}: at least 1")
        if args.only and args.only not in names:
            raise BalanceError(f"--only {args.only!r}: one of {', '.join(names)}")
        rules = make_rules(args.decks, args.rule)
        rules.content()  # the decks load
    except BalanceError as error:
        sys.exit(f"error: {error}")
    changed = "".join(f"; {text}" for text in args.rule)
    print(
        f"decks {', '.join(rules.decks)}{changed}; {args.games} games an ordered pair, seed "
        f"{args.seed}; turn cap {rules.turn_cap}; 95% Wilson intervals"
    )
    print(
        f"{'seat 0':<10} {'seat 1':<10} {'capped':<24} {'seat 0 won':<24} {'seat 1 won':<24} turns"
    )
    for a in shipped:
        for b in shipped:
            if args.only and args.only not in (a.name, b.name):
                continue
            records = engine.play_games(
                rules, 2, args.seed, args.games, lineup=Lineup((seat(a), seat(b)))
            ).games
            capped = int((records[:, GAME_STAT.REASON] == CAPPED).sum())
            winner = records[:, GAME_STAT.WINNER]
            turns = records[:, GAME_STAT.TURNS]
            won = [share(int((winner == s).sum()), args.games) for s in (0, 1)]
            print(
                f"{a.name:<10} {b.name:<10} {share(capped, args.games):<24} "
                f"{won[0]:<24} {won[1]:<24} {np.mean(turns):.1f}"
            )


if __name__ == "__main__":
    main()
