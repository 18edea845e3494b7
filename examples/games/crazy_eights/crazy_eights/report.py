"""Crazy Eights' own report page: the penalty points each strategy is left holding."""

from __future__ import annotations

from typing import Any

import numpy as np
from balance.reports.charts import Chart, plot_intervals
from balance.stats.intervals import mean_interval


def charts(tables: Any) -> list[Chart]:
    """Penalty points left in hand per game, by strategy.

    ``tables`` is a run's record tables (:class:`balance.analyses.run_report.RunTables`).
    """
    seats = tables.require("seats", "game", "strategy", "points")
    games = tables.games
    strategies = list(dict.fromkeys(tables.setup.lineup.labels))
    held = seats.pivot_table(index="game", columns="strategy", values="points", aggfunc="mean")
    points = np.array([mean_interval(held[s].dropna().to_numpy()) for s in strategies])
    return [
        Chart(
            "10-points-by-strategy",
            plot_intervals(
                strategies,
                *points.T,
                title="penalty points left in hand at the end, by strategy",
                xlabel="points per seat and game (eight 50, court card 10, ace 1)",
                zero=None,
                note=f"{games:,} games; a strategy's seats averaged in each game, 95% "
                "Student t intervals over games. The winner holds 0.",
            ),
        ),
    ]
