"""La Planche's own report pages: the colours, the actions, the symbol choices and, in
the rounds variant, the points."""

from __future__ import annotations

from typing import Any

import pandas as pd

from balance.games.la_planche.metrics import (
    action_usefulness,
    last_colour_rates,
    points_per_game,
    symbol_choice_rates,
)
from balance.games.la_planche.reading import (
    DETECTIVE,
    detective_reading,
    reading_chart,
    reading_games,
)
from balance.games.la_planche.rules import COLOUR_NAMES, COLOURS, SYMBOLS
from balance.reports.charts import Chart, plot_grouped, plot_intervals, plot_rates
from balance.stats.intervals import wilson_interval

DELTA = "95% delta-method intervals with games as clusters"


def charts(tables: Any) -> list[Chart]:
    """Win rate by colour (with each colour's starting spaces) and per-action usefulness.

    ``tables`` is a :class:`balance.analyses.run_report.RunTables` (a run's record tables by name).
    """
    games = tables.require("games", "game", "last_colour")
    actions = tables.require("actions", "game", "seat", "action", "done", "fell_own", "fell_other")
    n_games = tables.games
    rules = tables.setup.rules
    rates = last_colour_rates(games, list(COLOUR_NAMES))
    labels = []
    for name, letter in zip(COLOUR_NAMES, COLOURS, strict=True):
        spaces = [str(k) for k, c in enumerate(rules.start_order) if c == letter]
        labels.append(f"{name}\n(starts on {', '.join(spaces)})")
    owners = (
        "every colour has an owner"
        if tables.setup.players == 4
        else (
            f"with {tables.setup.players} players, {4 - tables.setup.players} colour(s) belong to "
            "nobody each game"
        )
    )
    usefulness = action_usefulness(actions)
    if rules.rounds:
        colour_title = "share of games each colour is the last prisoner of the final round"
        colour_note = (
            f"{n_games:,} games of the rounds variant; 95% Wilson intervals. Only the final "
            "round of each game counts here (the points of every round are on the points "
            f"pages). {owners.capitalize()}. Colours are dealt anew each round, so this "
            "measures the starting places, not the players."
        )
    else:
        colour_title = "share of games each colour is the last prisoner on the plank"
        colour_note = (
            f"{n_games:,} games; 95% Wilson intervals. The owner of the last prisoner's "
            f"colour wins; {owners}. Colours are dealt at random, so this measures the "
            "starting places, not the players."
        )
    charts = [
        Chart(
            "10-colour-win-rates",
            plot_rates(
                labels,
                rates["rate"],
                rates["low"],
                rates["high"],
                title=colour_title,
                ylabel="games",
                xlabel="colour (and its starting spaces, 0 at the ship end)",
                reference=0.25 * rates["rate"].sum(),
                reference_label="equal shares",
                note=colour_note,
            ),
        ),
        Chart(
            "11-action-uses",
            plot_intervals(
                list(usefulness["action"]),
                usefulness["per_game"],
                usefulness["per_game_low"],
                usefulness["per_game_high"],
                title="how often each action is done, per game (all seats)",
                xlabel="uses per game",
                zero=None,
                note=f"{n_games:,} games; 95% Student t intervals over games. 'nothing': "
                "neither symbol spun had an option; 'push': the mandatory push of each turn.",
            ),
        ),
        Chart(
            "12-action-prisoners-fallen",
            plot_grouped(
                list(usefulness["action"]),
                {
                    label: (
                        usefulness[column],
                        usefulness[f"{column}_low"],
                        usefulness[f"{column}_high"],
                    )
                    for label, column in (
                        ("own colour", "fell_own_per_use"),
                        ("other colours", "fell_other_per_use"),
                    )
                },
                title="prisoners sent to the shark per use of each action",
                ylabel="prisoners per use",
                xlabel="action",
                percent=False,
                note=f"{n_games:,} games; {DELTA}. 'Own colour': the acting player's colour "
                "in that round; a colour nobody owns counts as other.",
            ),
        ),
    ]
    if {"offered", "chosen"} <= set(actions.columns):
        charts.append(symbol_choice_chart(tables))
    if rules.rounds and "points_yellow" in games.columns:
        charts += points_charts(tables)
    if any(seat.strategy.name == DETECTIVE for seat in tables.setup.lineup.seats):
        replayed = reading_games(n_games)
        reading = detective_reading(tables.setup, replayed)
        if len(reading):
            charts.append(reading_chart(reading, tables.setup, replayed))
    return charts


def symbol_choice_chart(tables: Any) -> Chart:
    """How often each strategy chooses each symbol when the spinner offers it a choice."""
    actions = tables["actions"]
    seats = tables.require("seats", "game", "seat", "strategy")
    setup = tables.setup
    merged = actions.merge(seats[["game", "seat", "strategy"]], on=["game", "seat"])
    restricted = setup.lineup.restricted_seat(merged["game"].to_numpy())
    merged = merged[restricted != merged["seat"].to_numpy()]
    symbols = list(SYMBOLS[:3])
    table = symbol_choice_rates(merged, symbols)
    series = {}
    for label in pd.unique(table["strategy"]):
        rows = table[table["strategy"] == label].set_index("symbol").loc[symbols]
        offered = int(rows["offered"].sum()) // 2
        series[f"{label} ({offered:,} choices)"] = (rows["rate"], rows["low"], rows["high"])
    return Chart(
        "13-symbol-choice",
        plot_grouped(
            symbols,
            series,
            title="share of choices in which each symbol is chosen, by strategy",
            ylabel="choices offering the symbol",
            xlabel="symbol",
            reference=0.5,
            note=f"{tables.games:,} games. A choice: the spinner shows two different symbols "
            "and both have options (a skull, or a symbol without options, is no choice). "
            "Dashed: half, the uniform-random player. 95% Wilson intervals at the effective "
            "number of choices (games as clusters).",
        ),
    )


def points_charts(tables: Any) -> list[Chart]:
    """Rounds variant: points per game by seat and by colour, with the shared wins."""
    games = tables["games"]
    seats = tables.require("seats", "game", "seat", "score")
    n_games = tables.games
    players = tables.setup.players
    scores = seats.pivot(index="game", columns="seat", values="score").to_numpy(float)
    by_seat = points_per_game(scores, [f"seat {s}" for s in range(players)])
    colours = games[[f"points_{name}" for name in COLOUR_NAMES]].to_numpy(float)
    by_colour = points_per_game(colours, list(COLOUR_NAMES))
    shared = int((games["winners"] >= 2).sum())
    low, high = wilson_interval(shared, n_games)
    rounds = games["rounds"].to_numpy(float)
    points = ", ".join(str(p) for p in tables.setup.rules.points)
    common = (
        f"{n_games:,} games of the rounds variant ({rounds.mean():.2f} rounds a game); "
        f"the last three prisoners of each round score {points}; 95% Student t intervals "
        "over games."
    )
    return [
        Chart(
            "14-points-by-seat",
            plot_intervals(
                list(by_seat["name"]),
                by_seat["mean"],
                by_seat["low"],
                by_seat["high"],
                title="points per game by seat (rounds variant)",
                xlabel="points per game",
                zero=None,
                note=f"{common} Seat 0 plays first in round 1; the first player moves one "
                f"seat on each round. Shared wins (a tie at the top): {shared:,} games, "
                f"{100 * shared / n_games:.1f}% [{100 * low:.1f}, {100 * high:.1f}] (Wilson).",
            ),
        ),
        Chart(
            "15-points-by-colour",
            plot_intervals(
                list(by_colour["name"]),
                by_colour["mean"],
                by_colour["low"],
                by_colour["high"],
                title="points per game scored by each colour's prisoners (rounds variant)",
                xlabel="points per game",
                zero=None,
                note=f"{common} A colour's points count whether or not a player owned it "
                "that round; colours are dealt anew each round.",
            ),
        ),
    ]
