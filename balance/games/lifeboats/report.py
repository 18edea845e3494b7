"""Lifeboats' own report pages: scores, where the boats end up, and the captain's hats."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from balance.games.lifeboats.layout import HAT_ROUND_COLUMNS, TIE_RULES
from balance.games.lifeboats.metrics import (
    boat_fates,
    hats_by_round,
    hats_decisive,
    score_distribution,
    score_means,
    tie_rules,
    win_rate_by_hats_left,
    win_rate_by_lane,
)
from balance.reports.charts import (
    CAPTION_SPACE,
    HEIGHT,
    WIDTH,
    Chart,
    caption,
    percent_axis,
    plot_grouped,
    plot_intervals,
    plot_rates,
)
from balance.reports.views import View, attach

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
    figure = plot_intervals(
        labels,
        means["mean"],
        means["low"],
        means["high"],
        title=f"mean score by {by}",
        xlabel="points at the end of the game (the axis starts at 0)",
        zero=None,
        note=f"{n_games:,} games; {DELTA}. Unfinished games count with the points "
        "landed before the cap. The axis starts at 0 so that gaps of a point or less look "
        "as small as they are.",
    )
    # From 0: a free axis would spread sub-point gaps over the whole width.
    figure.axes[0].set_xlim(0, max(float(np.nanmax(means["high"])) * 1.08, 1.0))
    return [
        Chart(f"{number}-score-by-{by}", figure),
        Chart(
            f"{int(number) + 1:02d}-score-distribution-by-{by}",
            plot_score_panels(
                curves,
                pooled=_pooled_distribution(seats),
                title=f"distribution of final scores by {by}",
                xlabel="points at the end of the game",
                ylabel=f"share of the {by}'s games",
                note=f"{n_games:,} games ({len(seats):,} seats). One panel a {by}: its "
                "distribution (black) over that of every seat together (grey). A score of "
                "0: none of the player's pawns landed.",
            ),
        ),
    ]


def _pooled_distribution(seats: Any) -> pd.DataFrame:
    """Share of all seats that ended with each score: ``score``, ``share``."""
    counts = seats["score"].value_counts().sort_index()
    return pd.DataFrame({"score": counts.index, "share": counts.to_numpy() / counts.sum()})


def score_panels_view(
    curves: dict[str, pd.DataFrame], pooled: pd.DataFrame, title: str, xlabel: str, ylabel: str
) -> View:
    """:func:`plot_score_panels` as the report's page draws it: a line a group (and one
    for every seat together), so that a legend click shows or hides a group."""
    lines = [
        pd.DataFrame(
            {
                "label": label,
                "x": table["score"].to_numpy(),
                "value": table["share"].to_numpy(dtype=float),
                "value_text": [f"{100 * v:.1f}%" for v in table["share"]],
            }
        )
        for label, table in [*curves.items(), ("every seat", pooled)]
    ]
    return View("lines", title, pd.concat(lines, ignore_index=True), xlabel, ylabel, "percent")


def plot_score_panels(
    curves: dict[str, pd.DataFrame],
    *,
    pooled: pd.DataFrame,
    title: str,
    xlabel: str,
    ylabel: str,
    note: str,
) -> Figure:
    """Small multiples: one panel a group, its score distribution over the pooled one.

    ``curves`` maps a group's label to a table with ``score`` and ``share``; ``pooled``
    is the same for every seat together. Panels share both axes, so that up to six
    groups stay readable in grey-scale print (one line a panel, never six overlaid).
    """
    count = max(len(curves), 1)
    cols = min(count, 3)
    rows = -(-count // cols)
    height = max(HEIGHT, 1.0 + 2.1 * rows)
    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    bottom = CAPTION_SPACE * HEIGHT / height
    figure.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    axes = figure.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    attach(figure, score_panels_view(curves, pooled, title, xlabel, ylabel))
    top = max(
        [float(pooled["share"].max()) if len(pooled) else 0.0]
        + [float(t["share"].max()) for t in curves.values() if len(t)]
    )
    for k, ax in enumerate(axes.ravel()):
        if k >= len(curves):
            ax.set_visible(False)
            continue
        label, table = list(curves.items())[k]
        ax.fill_between(pooled["score"], pooled["share"], step="mid", color="0.85", lw=0)
        ax.plot(table["score"], table["share"], color="black", lw=1.1, drawstyle="steps-mid")
        ax.set_title(label, fontsize=9)
        ax.set_ylim(0, top * 1.1 if top > 0 else 1.0)
        percent_axis(ax)
        ax.grid(color="0.92")
        if k % cols == 0:
            ax.set_ylabel(ylabel, fontsize=8)
        if k // cols == rows - 1 or k + cols >= len(curves):
            ax.set_xlabel(xlabel, fontsize=8)
    figure.suptitle(title)
    caption(figure, note)
    return figure


def charts(tables: Any) -> list[Chart]:
    """Scores per seat and strategy, boats by lane, the hats' value and the tie-breaks.

    ``tables`` is a :class:`balance.analyses.run_report.RunTables` (a run's record tables by name).
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
                    f"lane {lane}\n(island {island})\n{boats_placed:,} boats"
                    for lane, island, boats_placed in zip(
                        fates["lane"], fates["island"], fates["boats"], strict=True
                    )
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
                ["\n".join(textwrap.wrap(str(rule), 16)) for rule in ties["rule"]],
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
    charts += _choice_pages(seats, boats, tables, n_games)
    return charts


def _choice_pages(seats: Any, boats: Any, tables: Any, n_games: int) -> list[Chart]:
    """Win rate by the lane a player chose for their boat, and the hats played by round."""
    pages = []
    lanes = win_rate_by_lane(seats, boats)
    players = tables.setup.players
    if len(lanes):
        pages.append(
            Chart(
                "17-win-rate-by-lane",
                plot_rates(
                    [
                        f"lane {lane}\n(island {island})\n{count:,} seats"
                        for lane, island, count in zip(
                            lanes["lane"], lanes["island"], lanes["seats"], strict=True
                        )
                    ],
                    lanes["rate"],
                    lanes["low"],
                    lanes["high"],
                    title="win rate by the lane a player chose for their own boat",
                    ylabel="players who won",
                    xlabel="starting lane of the player's own boat (set-up: seat 0 first)",
                    reference=1 / players,
                    reference_label=f"1 in {players}",
                    note=f"{n_games:,} games; 95% Wilson intervals over the players whose "
                    "boat started on the lane (the black boat has no owner and is left "
                    "out). Lanes are chosen, not assigned: a lane's rate also reflects who "
                    "tends to choose it and when (seat 0 chooses first).",
                ),
            )
        )
    games = tables.require("games", "game", "rounds", *HAT_ROUND_COLUMNS)
    rounds = hats_by_round(games, HAT_ROUND_COLUMNS)
    rounds = rounds[rounds["games"] > 0]
    if len(rounds):
        last_round = str(rounds["round"].iloc[-1]).rstrip("+")
        figure = plot_intervals(
            [
                f"round {r}  ({g:,} games)"
                for r, g in zip(rounds["round"], rounds["games"], strict=True)
            ],
            rounds["mean"],
            rounds["low"],
            rounds["high"],
            title="captain's hats played in each round",
            xlabel="hats played in the round, per game that reached it (all players)",
            zero=None,
            note=f"{n_games:,} games; 95% Student t intervals over the games that reached "
            f"each round; the last row counts round {last_round} and every later round. "
            "Share of all hats played in round 1: "
            f"{100 * rounds['share'].iloc[0]:.1f}% [{100 * rounds['share_low'].iloc[0]:.1f}%, "
            f"{100 * rounds['share_high'].iloc[0]:.1f}%] (Wilson, games as clusters).",
        )
        figure.axes[0].set_xlim(left=0)
        pages.append(Chart("18-hats-by-round", figure))
    return pages
