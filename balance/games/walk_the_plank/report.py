"""Walk the Plank's own report pages: card usefulness."""

from __future__ import annotations

from typing import Any

from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.games.walk_the_plank.metrics import SUMMED, card_usefulness
from balance.reports.charts import Chart, plot_grouped, plot_intervals

DELTA = "95% delta-method intervals with games as clusters"


def charts(tables: Any, prefix: str = "") -> list[Chart]:
    """Reveals, effects, pirates sent off and saved, and the win rate of a card's users.

    ``tables`` is a :class:`balance.analyses.run_report.RunTables` (a run's record tables by name).
    """
    # A run saved before the cards were summed over the seats has a row a seat and card.
    per_seat = "seat" in tables["cards"].columns
    cards = tables.require("cards", "game", "card", *(("seat",) if per_seat else ()), *SUMMED)
    seats = tables["seats"] if per_seat else tables.require("seats", "cards_with_effect")
    rows = tables.games * len(CARD_NAMES) * (tables.setup.players if per_seat else 1)
    tables.check_rows("cards", len(cards), rows)
    usefulness = card_usefulness(cards, seats)
    n_games = tables.games
    cards = list(usefulness["card"])
    rest = ", ".join(tables.setup.rules.rest) or "none"
    charts = [
        Chart(
            "10-card-reveals",
            plot_intervals(
                cards,
                usefulness["reveals_per_game"],
                usefulness["reveals_per_game_low"],
                usefulness["reveals_per_game_high"],
                title=f"{prefix}reveals per game, by card (all seats together)",
                xlabel="reveals per game",
                zero=None,
                note=f"{n_games:,} games; 95% Student t intervals over games. "
                f"Cards that rest after a reveal: {rest}.",
            ),
        ),
        Chart(
            "11-card-effect-share",
            plot_intervals(
                cards,
                usefulness["effect_share"],
                usefulness["effect_share_low"],
                usefulness["effect_share_high"],
                title=f"{prefix}share of reveals that had an effect, by card",
                xlabel="reveals with an effect",
                zero=None,
                percent=True,
                note=f"{n_games:,} games; 95% Wilson intervals at the effective number of "
                "reveals (games as clusters). A card has no effect when it has no "
                "legal option (Charge in slot 1 never has one).",
            ),
        ),
        Chart(
            "12-card-pirates-per-reveal",
            plot_grouped(
                cards,
                {
                    label: (
                        usefulness[column],
                        usefulness[f"{column}_low"],
                        usefulness[f"{column}_high"],
                    )
                    for label, column in (
                        ("others' pirates sent off", "others_sent_off_per_reveal"),
                        ("own pirates sent off", "own_sent_off_per_reveal"),
                        ("pirates saved", "saved_per_reveal"),
                    )
                },
                title=f"{prefix}pirates sent to the Locker and saved, per reveal",
                ylabel="pirates per reveal",
                xlabel="card",
                percent=False,
                note=f"{n_games:,} games; {DELTA}. Sent off: pirates that fell because of "
                "the card (the Kraken's are not counted against a card). Saved: living "
                "pirates the card moved toward the ship.",
            ),
        ),
        Chart(
            "13-card-win-rate-of-users",
            plot_grouped(
                cards,
                {
                    "revealed it with effect": (
                        usefulness["win_rate_with_effect"],
                        usefulness["win_rate_with_effect_low"],
                        usefulness["win_rate_with_effect_high"],
                    ),
                    "did not": (
                        usefulness["win_rate_without"],
                        usefulness["win_rate_without_low"],
                        usefulness["win_rate_without_high"],
                    ),
                },
                title=f"{prefix}win rate of players who revealed the card with effect",
                ylabel="seats won",
                xlabel="card",
                note=f"{n_games:,} games; each seat of each game counts once; 95% Wilson "
                "intervals over seats. An association, not a cause: long games give every "
                "card more reveals. Restricted play (balance cards) measures a card's value.",
            ),
        ),
    ]
    return charts
