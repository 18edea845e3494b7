"""What the listing-order tests of every game share: per-strategy win rates of a run, the
z statistic of two of them, and the cyclic seating that every-order seating replaced (each
strategy kept its neighbours), so that each test shows it would catch that defect."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from balance import api
from balance.core.game import Lineup, Setup
from balance.run.runner import run_games
from balance.run.summary import summarize

#: |z| beyond which two win rates differ by more than noise. The tests run fixed seeds,
#: so each passes or fails deterministically; 3.5 leaves a fair run a 1 in 2,000 chance of
#: failing when seeds change, while the defects these tests guard against give |z| > 5.
NOISE_Z = 3.5


class CyclicLineup(Lineup):
    """The seating rotation used to have: game ``i`` seats entry ``(s + i) % n`` in seat
    ``s`` and restricts seat ``i % n``, so every strategy keeps the same neighbours."""

    @property
    def period(self) -> int:
        return len(self.seats)

    def restriction_seat(self, game: np.ndarray | int) -> np.ndarray:
        return np.asarray(game, dtype=np.int64) % len(self.seats)

    def strategy_index(self, game: np.ndarray | int, seat: int) -> np.ndarray:
        return (seat + np.asarray(game, dtype=np.int64)) % len(self.seats)


def setup(game: str, strategies: Sequence[str], seed: int, cyclic: bool = False, **rules) -> Setup:
    """A rotated set-up of ``strategies``; ``cyclic``: seated the old way."""
    made = api.make_setup(
        game, len(strategies), seed, list(strategies), rules=rules, rotate_seats=True
    )
    if cyclic:
        made = dataclasses.replace(made, lineup=CyclicLineup(made.lineup.seats, True))
    return made


def strategy_rates(made: Setup, games: int) -> dict[str, dict[str, Any]]:
    """Each strategy's win-rate row of the summary (rate, ci95, seats_played)."""
    result = run_games(made, games, threads=1, keep_records=False, progress=False)
    return {row["strategy"]: row for row in summarize(result)["strategy_win_rate"]}


def z(first: dict[str, Any], second: dict[str, Any]) -> float:
    """The difference of two independent runs' win rates over its standard error, each
    standard error read back from the 95% interval."""
    se = [(row["ci95"][1] - row["ci95"][0]) / (2 * 1.959964) for row in (first, second)]
    return (first["rate"] - second["rate"]) / math.hypot(*se)


def paired_z(made: Setup, games: int, one: str, other: str) -> float:
    """Paired over games: the wins of strategy ``one`` minus those of ``other`` in each
    game, mean over its standard error (both strategies play every game)."""
    result = run_games(made, games, threads=1, keep_records=False, progress=False)
    won = np.concatenate([b.won for b in sorted(result.blocks, key=lambda b: b.first_game)])
    index = np.arange(len(won))
    labels = np.array(made.lineup.labels)
    seated = np.stack(
        [labels[made.lineup.strategy_index(index, s)] for s in range(made.players)], 1
    )
    diff = (won & (seated == one)).sum(axis=1) - (won & (seated == other)).sum(axis=1)
    return float(diff.mean() / (diff.std(ddof=1) / math.sqrt(len(diff))))
