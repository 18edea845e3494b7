"""Battle of Thieves' own report pages: how games end, what each deck does, and its cards."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from balance.core.formatting import interval, percent
from balance.core.game import seat_labels
from balance.games import get_game
from balance.games.battle_of_thieves.layout import CARD_STAT, DECK_SIZE, WIN_REASONS
from balance.games.battle_of_thieves.usefulness import TOTAL, card_table, card_totals
from balance.reports.charts import Chart, plot_grouped, plot_intervals, plot_rates
from balance.stats.intervals import mean_interval, wilson_interval

WILSON = "95% Wilson intervals"
#: Per-seat records shown per game on the "what each deck does" page.
PLAY = {
    "shots": "cannon shots",
    "hits": "hits",
    "holes_made": "holes made",
    "holes_repaired": "holes repaired",
    "attacks": "attacks",
    "damage_dealt": "damage dealt",
    "deaths": "pirates lost",
    "boardings": "boardings",
    "island_visits": "island visits",
    "cards_played": "cards played",
}


def capped_text(capped: int, games: int, turn_cap: int) -> str:
    """The share of ``games`` stopped by the turn cap, its 95% Wilson interval and n, as
    every Battle of Thieves summary, matchup and report shows it."""
    low, high = wilson_interval(capped, games)
    rate = capped / games if games else float("nan")
    return (
        f"stopped by the {turn_cap}-turn cap (neither ship sank): {percent(rate)} "
        f"{interval([float(low), float(high)])} of {games:,} games"
    )


def win_reasons(games: pd.DataFrame) -> pd.DataFrame:
    """Share of games ended by each reason, with Wilson intervals.

    Returns
    -------
    DataFrame: ``reason``, ``games``, ``rate``, ``low``, ``high``.
    """
    reasons = games["win_reason"].astype(str)
    count = len(games)
    rows = []
    for name in WIN_REASONS:
        hits = int((reasons == name).sum())
        low, high = wilson_interval(hits, count)
        rows.append({"reason": name, "games": hits, "rate": hits / count, "low": low, "high": high})
    return pd.DataFrame(rows)


def play_by_seat(seats: pd.DataFrame) -> dict[str, tuple[list[float], list[float], list[float]]]:
    """Mean of each :data:`PLAY` record per game, by seat: ``{seat label: (means, lows,
    highs)}`` in :data:`PLAY` order."""
    out = {}
    for seat, rows in seats.groupby("seat", sort=True):
        values = [mean_interval(rows[name].to_numpy(), floor=0.0) for name in PLAY]
        out[f"seat {seat}"] = tuple(list(column) for column in zip(*values, strict=True))
    return out


def cards_from_tables(
    cards: pd.DataFrame, decks: tuple[str, str], chunk: int = 65_536
) -> pd.DataFrame:
    """:func:`usefulness.card_table` from a saved run's ``cards`` table (one row a game,
    seat and card of the seat's deck), summed by :func:`usefulness.card_totals` over
    ``chunk`` games at a time."""
    names = tuple(str(c) for c in cards["card"].cat.categories)
    codes = cards["card"].cat.codes.to_numpy()
    seat = cards["seat"].to_numpy().astype(np.int64)
    # Each seat's cards in the order of its rows: the deck's order.
    deck_cards = np.full((2, DECK_SIZE), -1, dtype=np.int64)
    row_of = np.full((2, len(names)), -1, dtype=np.int64)
    for s in (0, 1):
        ids = list(dict.fromkeys(codes[seat == s]))
        deck_cards[s, : len(ids)] = ids
        row_of[s, ids] = np.arange(len(ids))
    _, game = np.unique(cards["game"].to_numpy(), return_inverse=True)
    row = row_of[seat, codes]
    values = cards[["drawn", "played", "held_turns"]].to_numpy()  # CardStat order
    won_flags = cards["won"].to_numpy(bool)
    totals = np.zeros((2, DECK_SIZE, TOTAL.SIZE))
    count = int(game.max(initial=-1)) + 1
    for first in range(0, count, chunk):
        here = (game >= first) & (game < first + chunk)
        size = min(chunk, count - first)
        records = np.zeros((size, 2, DECK_SIZE, CARD_STAT.SIZE), dtype=np.int32)
        won = np.zeros((size, 2), dtype=bool)
        at = (game[here] - first, seat[here], row[here])
        records[at] = values[here]
        won[at[:2]] = won_flags[here]
        totals += card_totals(records, won)
    return card_table(totals, deck_cards, names, decks)


def charts(tables: Any) -> list[Chart]:
    """How games ended, each seat's play per game, and every card's use and win rates."""
    games = tables.require("games", "win_reason", "turns")
    seats = tables.require("seats", "seat", *PLAY)
    cards = tables.require("cards", "seat", "card", "drawn", "played", "held_turns", "won")
    n_games = len(games)
    content = tables.setup.rules.content()
    decks = content.deck_names
    held = seat_labels(get_game(tables.setup.game), tables.setup)  # each seat's deck, strategy
    reasons = win_reasons(games)
    cap = tables.setup.rules.turn_cap
    cap_games = int(reasons.set_index("reason").at["cap", "games"])
    capped = capped_text(cap_games, n_games, cap)
    charts = [
        Chart(
            "10-how-games-ended",
            plot_rates(
                [
                    f"sunk (water {tables.setup.rules.sink_water})",
                    "original sin",
                    "capped, no winner",
                ],
                reasons.set_index("reason").loc[["water", "original sin", "cap"], "rate"],
                reasons.set_index("reason").loc[["water", "original sin", "cap"], "low"],
                reasons.set_index("reason").loc[["water", "original sin", "cap"], "high"],
                title=f"how games ended: {percent(cap_games / n_games)} stopped by the "
                f"{cap}-turn cap",
                ylabel="share of games",
                note=f"{n_games:,} games; {WILSON}. Seats: {', '.join(held)}. "
                f"Games {capped}: still running after {cap} game turns, counted as "
                "unfinished (docs/battle-of-thieves.md, 'Games that stall').",
            ),
        ),
        Chart(
            "11-play-by-seat",
            plot_grouped(
                list(PLAY.values()),
                {held[int(label[-1])]: values for label, values in play_by_seat(seats).items()},
                title="what each seat does in a game",
                ylabel="per game",
                xlabel="",
                note=f"{n_games:,} games; means per game with 95% Student t intervals. Damage "
                "dealt counts life points enemy pirates lost during the seat's turns.",
                percent=False,
            ),
        ),
    ]
    table = cards_from_tables(cards, decks)
    labels = [f"{row.card} (seat {row.seat})" for row in table.itertuples()]
    # A card with an empty group has no difference to show: say why its row is blank.
    compared = [
        label
        + (" never played" if row.played_games == 0 else "")
        + (" never held" if row.held_games == 0 else "")
        for label, row in zip(labels, table.itertuples(), strict=True)
    ]
    charts.append(
        Chart(
            "12-cards-played",
            plot_intervals(
                labels,
                table["played_per_game"],
                table["played_per_game_low"],
                table["played_per_game_high"],
                title="copies played per game, by card",
                xlabel="copies played per game by the deck that holds the card",
                zero=None,
                note=f"{n_games:,} games; 95% Student t intervals over games. Cards drawn per "
                "game, held turns and every interval are in the JSON summary and the cards "
                "table.",
            ),
        )
    )
    charts.append(
        Chart(
            "13-cards-played-vs-held",
            plot_intervals(
                compared,
                table["played_minus_held"],
                table["played_minus_held_low"],
                table["played_minus_held_high"],
                title="win rate when played minus win rate when drawn and held",
                xlabel="difference in the deck's win rate (percentage points)",
                points=True,
                note=f"{n_games:,} games; 95% Newcombe intervals for a difference of two "
                "rates. The games are chosen by play, not at random (a card played in "
                "winning positions looks better): restricted play (balance cards) measures a "
                "card's value.",
            ),
        )
    )
    return charts
