"""Crazy Eights as balance's runner, analyses and command line see it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from balance.core.formatting import interval, percent
from balance.core.game import Block, Capabilities, EngineGame, RuleSet, Setup
from balance.core.lazy import LazyModule, pd
from balance.stats.intervals import mean_interval, wilson_interval

from crazy_eights.records import RECORDS, GameRecord, GameStat, SeatStat
from crazy_eights.rules import HOUSE_RULES, RANKS, VARIANTS, CrazyEightsRules, Rank

if TYPE_CHECKING:
    from balance.stats.metrics import Metric

engine = LazyModule("crazy_eights.engine")


class CrazyEights(EngineGame):
    """Crazy Eights (traditional, public domain), 2-6 players."""

    id = "crazy-eights"
    title = "Crazy Eights"
    min_players = 2
    max_players = 6
    length_unit = "turns"
    variants: Mapping[str, str] = HOUSE_RULES
    seat_note = "seat (0 plays first)"
    action_noun = "rank"
    action_verb = "play"
    replay_title = "Crazy Eights"
    capabilities = Capabilities(restricted_actions=True, reference_engine=True, replay=True)
    rules_class = CrazyEightsRules
    records = RECORDS
    record_class = GameRecord
    checked_rules = (
        RuleSet("defaults"),
        *(RuleSet(name, (name,)) for name in VARIANTS),
        RuleSet("all-house-rules", tuple(VARIANTS)),
        RuleSet("draw-when-able", rules=(("draw_when_able", "true"), ("turn_cap", "300"))),
        RuleSet("draw-one-when-able", ("draw-one",), (("draw_when_able", "true"),)),
        RuleSet("no-reshuffle", ("twos-draw-two",), (("reshuffle", "false"),)),
        RuleSet("hands-of-7", ("queens-skip",), (("hand_size", "7"),)),
        RuleSet("turn-cap-20", rules=(("turn_cap", "20"),)),
    )

    def length_cap(self, rules: CrazyEightsRules) -> int:
        return rules.turn_cap

    def actions(self) -> tuple[str, ...]:
        """The ranks, which restricted play forbids one at a time."""
        return RANKS

    def check_restricted(self, names: Sequence[str]) -> None:
        engine.check_restricted(names)

    def restrictions(self, setup: Setup, game_index: int) -> dict[str, Any]:
        """The rank each seat may never play (-1: none)."""
        return {"forbidden": [int(r) for r in engine.forbidden_by_seat(setup.lineup, game_index)]}

    def slim(self, block: Block) -> Block:
        """The block with what :meth:`summarize` reads: plays per rank (int32 ``(G, 13)``)
        and cards drawn (int32 ``(G,)``), summed over seats, and the games' records."""
        if "seats" not in block.extra:
            return block
        extra = {
            "games": block.extra["games"],
            "plays": block.extra["cards"][..., 0].sum(axis=1, dtype=np.int32),
            "drawn": block.extra["seats"][..., SeatStat.DRAWN].sum(axis=1, dtype=np.int32),
        }
        return dataclasses.replace(block, extra=extra)

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """Plays of each rank per game, cards drawn and reshuffles per game, blocked games."""
        if not blocks:
            return {"ranks": {}}
        table, _ = self.per_game(blocks)
        blocked = int(table["blocked"].sum())
        plays = np.concatenate([self.slim(b).extra["plays"] for b in blocks])
        return {
            "ranks": {name: _mean(plays[:, r]) for r, name in enumerate(RANKS)},
            "drawn": _mean(table["drawn"]),
            "reshuffles": _mean(table["reshuffles"]),
            "blocked_rate": blocked / len(table),
            "blocked_ci95": [float(x) for x in wilson_interval(blocked, len(table))],
        }

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """Blocked games, draws, reshuffles and the plays of each rank."""
        if not summary.get("ranks"):
            return []

        def mean(row: Mapping[str, Any]) -> str:
            return f"{row['per_game']:6.2f} {interval(row['ci95'], as_percent=False)}"

        lines = [
            f"Blocked games (a whole round of passes): {percent(summary['blocked_rate'])} "
            f"{interval(summary['blocked_ci95'])}",
            f"Cards drawn per game (all seats): {mean(summary['drawn'])}",
            f"Reshuffles per game: {mean(summary['reshuffles'])}",
            "Plays per game of each rank (all seats, 95% intervals):",
        ]
        lines += [f"  {name:<6} {mean(row)}" for name, row in summary["ranks"].items()]
        return lines

    def per_game(self, blocks: Sequence[Block]) -> tuple[pd.DataFrame, list[Metric]]:
        """Per game, what a comparison tests: blocked or not, cards drawn, reshuffles and
        eights played (all seats)."""
        from balance.stats.metrics import Metric

        slim = [self.slim(b) for b in blocks]
        games = np.concatenate([b.extra["games"] for b in slim])
        columns = {
            "blocked": games[:, GameStat.BLOCKED] != 0,
            "drawn": np.concatenate([b.extra["drawn"] for b in slim]),
            "reshuffles": games[:, GameStat.RESHUFFLES],
            "eights": np.concatenate([b.extra["plays"][:, Rank.EIGHT] for b in slim]),
        }
        chosen = [
            Metric("blocked games", "blocked", "share"),
            Metric("cards drawn per game", "drawn", "mean", "cards"),
            Metric("reshuffles per game", "reshuffles", "mean", "reshuffles"),
            Metric("eights played per game", "eights", "mean", "eights"),
        ]
        return pd.DataFrame(columns), chosen


def _mean(values: np.ndarray) -> dict[str, Any]:
    """A count's mean per game with its 95% Student t interval."""
    mean, low, high = mean_interval(values, floor=0.0)
    return {"per_game": mean, "ci95": [low, high]}


GAME = CrazyEights()
