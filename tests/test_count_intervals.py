"""A count's interval (and the balance index's) never reaches below zero, even from a
handful of games: a value below zero is impossible, so cutting there only raises the
coverage. Differences (played minus held) may be negative and are left alone."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from balance import api
from balance.stats.metrics import balance_index_interval

#: Figures that are differences, whose interval may reach below zero.
SIGNED = ("played_minus_held",)


def intervals(summary: Any, path: str = "") -> Iterator[tuple[str, float]]:
    """Every ``..._ci95`` in a summary as ``(path, low)``."""
    if isinstance(summary, dict):
        for key, value in summary.items():
            yield from intervals(value, f"{path}.{key}")
    elif isinstance(summary, list) and path.endswith("_ci95"):
        rows = summary if summary and isinstance(summary[0], list) else [summary]
        for row in rows:
            if len(row) == 2 and isinstance(row[0], float | int):
                yield path, float(row[0])


@pytest.mark.parametrize(
    ("game", "players"), [("la-planche", 4), ("lifeboats", 4), ("battle-of-thieves", 2)]
)
def test_no_count_interval_reaches_below_zero_in_six_games(game: str, players: int) -> None:
    lows = [
        (path, low)
        for seed in (1, 2)
        for path, low in intervals(api.simulate(game, players, 6, seed=seed).summary())
        if not any(name in path for name in SIGNED) and not math.isnan(low)
    ]
    assert lows
    below = [(path, low) for path, low in lows if low < 0.0]
    assert not below
    # Six games leave wide intervals: some bound is cut at zero, so the check has bite.
    assert any(low == 0.0 and "rate" not in path for path, low in lows)


def test_the_balance_index_interval_stops_at_zero() -> None:
    # Three games, two won by seat 0 and one by seat 1: the gap's upper bound passes 1.
    won = np.zeros((3, 3), dtype=bool)
    won[:, 0] = True
    won[1, 0], won[1, 1] = False, True
    found = balance_index_interval(won)
    assert found["low"] == 0.0
    assert found["low"] <= found["value"] <= found["high"]
