"""Lifeboats' own report pages: scores, where the boats end up, and the captain's hats."""

from __future__ import annotations

from typing import Any

from balance.charts import Chart, plot_distributions, plot_grouped, plot_intervals, plot_rates
from balance.games.lifeboats.layout import TIE_RULES
from balance.games.lifeboats.metrics import (
    boat_fates,
    hats_decisive,
    score_distribution,
    score_means,
    tie_rules,
    win_rate_by_hats_left,
)

DELTA = "95% delta-method intervals with games as clusters"


def _score_pages(seats: Any, by: str, n_games: int, number: str) -> list[Chart]:
    """Mean score (with intervals) and the score distribution of each seat or strategy."""
    means = score_means(seats, by)
    spread = score_distribution(seats, by)
    labels = [f"seat {g}" if by == "seat" else str(g) for g in means["group"]]
    curves = {
        label: spread[spread["group"] == group]
        for label, group in zip(labels, means["group"], strict=True)
    }
    return [
        Chart(
            f"{number}-score-by-{by}",
            plot_intervals(
                labels,
                means["mean"],
                means["low"],
                means["high"],
                title=f"mean score by {by}",
                xlabel="points at the end of the game",
                zero=None,
                note=f"{n_games:,} games; {DELTA}. Unfinished games count with the points "
                "landed before the cap.",
            ),
        ),
        Chart(
            f"{int(number) + 1:02d}-score-distribution-by-{by}",
            plot_distributions(
                curves,
                value="score",
                title=f"distribution of final scores by {by}",
                xlabel="points at the end of the game",
                ylabel=f"share of the {by}'s games",
                note=f"{n_games:,} games ({len(seats):,} seats). A score of 0: none of the "
                "player's pawns landed.",
            ),
        ),
    ]


def lifeboats_charts(tables: Any) -> list[Chart]:
    """Scores per seat and strategy, boats by lane, the hats' value and the tie-breaks.

    ``tables`` is a :class:`balance.report.RunTables` (a run's record tables by name).
    """
    seats = tables.require("seats", "game", "seat", "strategy", "won", "score", "hats_used")
    boats = tables.require("boats", "game", "boat", "lane", "island", "fate")
    games = tables.require("games", "game", "votes", "hat_decided", "tie_rule")
    n_games = tables.games
    rules = tables.setup.rules
    charts = _score_pages(seats, "seat", n_games, "10")
    if tables.setup.lineup.mixed:
        charts += _score_pages(seats, "strategy", n_games, "12")

    fates = boat_fates(boats)
    charts.append(
        Chart(
            "14-boats-by-lane",
            plot_grouped(
                [
                    f"lane {lane}\n(island {island})"
                    for lane, island in zip(fates["lane"], fates["island"], strict=True)
                ],
                {
                    label: (fates[f"{fate}_rate"], fates[f"{fate}_low"], fates[f"{fate}_high"])
                    for label, fate in (
                        ("landed", "landed"),
                        ("sunk", "sunk"),
                        ("afloat at the cap", "afloat"),
                    )
                },
                title="where the boats of each starting lane end up",
                ylabel="boats placed on the lane",
                xlabel="starting lane and the island it leads to",
                note=f"{n_games:,} games; 95% Wilson intervals over the boats placed on each "
                f"lane ({len(boats):,} boats). Island points (officer/sailor): "
                + ", ".join(
                    f"{chr(65 + i)} {o}/{s}"
                    for i, (o, s) in enumerate(
                        zip(rules.officer_points, rules.sailor_points, strict=True)
                    )
                )
                + ".",
            ),
        )
    )

    decisive = hats_decisive(games)
    by_hats = win_rate_by_hats_left(seats, rules.hats)
    shown = by_hats[by_hats["seats"] > 0]
    charts.append(
        Chart(
            "15-win-rate-by-hats-left",
            plot_rates(
                [str(k) for k in shown["hats_left"]],
                shown["rate"],
                shown["low"],
                shown["high"],
                title="win rate by captain's hats left at the end",
                ylabel="seats that won",
                xlabel=f"hats left (of {rules.hats})",
                note=f"{n_games:,} games; 95% Wilson intervals over seats. A lone hat decided "
                f"{100 * decisive['share']:.1f}% of ballots [{100 * decisive['share_low']:.1f}%, "
                f"{100 * decisive['share_high']:.1f}%] (Wilson at the effective number of ballots, "
                f"games as clusters; {decisive['per_game']:.2f} ballots a "
                f"game of {decisive['ballots_per_game']:.1f}). Hats left are an outcome of "
                "play, not a cause: compare strategies for the hats' value.",
            ),
        )
    )

    ties = tie_rules(games, list(TIE_RULES))
    charts.append(
        Chart(
            "16-how-the-winner-was-decided",
            plot_rates(
                list(ties["rule"]),
                ties["rate"],
                ties["low"],
                ties["high"],
                title="how the winner was decided",
                ylabel="finished games",
                xlabel="end-of-game rule",
                note=f"{int(ties['games'].iloc[0]):,} finished games of {n_games:,}; 95% "
                "Wilson intervals. Ties go to the tied player whose boat landed first, then "
                "clockwise from the first player's boat to land; else the win is shared.",
            ),
        )
    )
    return charts
