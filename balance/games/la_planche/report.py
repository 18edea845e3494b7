"""La Planche's own report pages: the colours and the actions."""

from __future__ import annotations

from typing import Any

from balance.charts import Chart, plot_grouped, plot_intervals, plot_rates
from balance.games.la_planche.metrics import action_usefulness, last_colour_rates
from balance.games.la_planche.rules import COLOUR_NAMES, COLOURS

DELTA = "95% delta-method intervals with games as clusters"


def la_planche_charts(tables: Any) -> list[Chart]:
    """Win rate by colour (with each colour's starting spaces) and per-action usefulness.

    ``tables`` is a :class:`balance.report.RunTables` (a run's record tables by name).
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
    return [
        Chart(
            "10-colour-win-rates",
            plot_rates(
                labels,
                rates["rate"],
                rates["low"],
                rates["high"],
                title="share of games each colour is the last prisoner on the plank",
                ylabel="games",
                xlabel="colour (and its starting spaces, 0 at the ship end)",
                reference=0.25 * rates["rate"].sum(),
                reference_label="equal shares",
                note=f"{n_games:,} games; 95% Wilson intervals. The owner of the last "
                f"prisoner's colour wins; {owners}. Colours are dealt at random, so this "
                "measures the starting places, not the players.",
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
