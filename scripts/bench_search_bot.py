"""Speed of Battle of Thieves' search players: decisions and games per second by budget.

Run from the project root (one thread; compiles the search loop first if needed):

    python scripts/bench_search_bot.py                  # mc 4/16/64 playouts, ismcts 64/256/1024
    python scripts/bench_search_bot.py --games 10 --decisions 200

Decisions per second: one search player's decisions on positions sampled from random games
(default rules), each decision searched from scratch (``search_nb.search_choice_nb``, which
also makes its buffers: the game loop makes them once per block). Games per second: whole
games of the search player against ``random``, seats rotated, in the search loop. The
results feed the "Search players" section of docs/battle-of-thieves.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
from balance.strategies.battle_of_thieves import SHIPPED

from balance.core.game import Lineup
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy, parse_strategy
from balance.games.battle_of_thieves import engine, reference, search_nb
from balance.games.battle_of_thieves.bridge import pack_position
from balance.games.battle_of_thieves.rules import BattleRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

GAME = "battle-of-thieves"
PLAYERS = (
    "mc:playouts=4",
    "mc:playouts=16",
    "mc:playouts=64",
    "ismcts:iterations=64",
    "ismcts:iterations=256",
    "ismcts:iterations=1024",
)


def positions(rules: BattleRules, count: int) -> list[reference.Position]:
    """Positions with two options or more, from random games of the reference engine."""
    content = rules.content()
    found: list[reference.Position] = []
    rng = np.random.default_rng(0)

    class Sampler(reference.RandomPlayer):
        def choose(self, pos, options):  # type: ignore[no-untyped-def]
            if rng.random() < 0.1 and len(found) < count:
                found.append(pos.copy())
            return super().choose(pos, options)

    game = 0
    while len(found) < count:
        reference.play_game(rules, content, 1, game, make_player=lambda s, st: Sampler(st))
        game += 1
    return found


def decisions_per_second(chosen: SeatStrategy, sample: Sequence[reference.Position]) -> float:
    rules = sample[0].rules
    content = engine.content_arrays(sample[0].content)
    table = np.zeros((256, 4), dtype=np.int64)
    rollouts = engine.rollout_params()
    start = time.perf_counter()
    for i, pos in enumerate(sample):
        options = reference.legal_options(pos)
        table[: len(options)] = options
        rng = np.array(Stream(i, 0, 3).state, dtype=np.uint64)
        search_nb.search_choice_nb(
            chosen.strategy.code,
            pack_position(pos),
            content,
            rules.to_array(),
            table,
            len(options),
            pos.player,
            chosen.vector(),
            rng,
            rollouts,
        )
    return len(sample) / (time.perf_counter() - start)


def games_per_second(chosen: SeatStrategy, games: int) -> float:
    lineup = Lineup((chosen, parse_strategy("random", by_name(), GAME)), rotate=True)
    start = time.perf_counter()
    engine.play_games(BattleRules(), 2, 1, games, lineup=lineup)
    return games / (time.perf_counter() - start)


def by_name() -> dict:
    return {s.name: s for s in SHIPPED}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--player", action="append", help="e.g. mc:playouts=16 (repeatable)")
    args = parser.parse_args(argv)
    sample = positions(BattleRules(), args.decisions)
    first = parse_strategy("mc:playouts=1", by_name(), GAME)
    decisions_per_second(first, sample[:2])  # compile or load
    games_per_second(first, 2)
    print(f"{'player':28} {'decisions/s':>12} {'games/s':>9}  (1 thread)")
    for text in args.player or PLAYERS:
        chosen = parse_strategy(text, by_name(), GAME)
        dps = decisions_per_second(chosen, sample)
        gps = games_per_second(chosen, args.games)
        print(f"{chosen.label:28} {dps:12.1f} {gps:9.2f}", flush=True)


if __name__ == "__main__":
    main()
