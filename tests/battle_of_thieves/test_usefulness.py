"""Card usefulness from hand-made per-card records: sums, means, win rates and pooling."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.games.battle_of_thieves.layout import CARD_STAT, DECK_SIZE
from balance.games.battle_of_thieves.usefulness import (
    TOTAL,
    card_table,
    card_totals,
    cards_summary,
    rate_difference,
)

NAMES = ("(blank)", "Broadside", "Rum", "Parrot")


def records(rows: list[tuple[int, int, int, int, int]], games: int) -> np.ndarray:
    """Per-card records from (game, seat, row, drawn, played) entries; held = drawn."""
    cards = np.zeros((games, 2, DECK_SIZE, CARD_STAT.SIZE), dtype=np.int32)
    for game, seat, row, drawn, played in rows:
        cards[game, seat, row] = (drawn, played, drawn)
    return cards


def test_totals_count_played_and_held_games_and_their_wins() -> None:
    # Seat 0, row 0 (Broadside): played in games 0 and 1, drawn and held in game 2,
    # not drawn in game 3. Seat 0 won games 0 and 2.
    cards = records([(0, 0, 0, 2, 1), (1, 0, 0, 1, 1), (2, 0, 0, 1, 0)], 4)
    won = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], dtype=bool)
    totals = card_totals(cards, won)
    t = totals[0, 0]
    assert t[TOTAL.GAMES] == 4
    assert t[TOTAL.DRAWN] == 4 and t[TOTAL.DRAWN_SQ] == 4 + 1 + 1
    assert t[TOTAL.PLAYED] == 2 and t[TOTAL.PLAYED_SQ] == 2
    assert (t[TOTAL.PLAYED_GAMES], t[TOTAL.PLAYED_WON]) == (2, 1)
    assert (t[TOTAL.HELD_GAMES], t[TOTAL.HELD_WON]) == (1, 1)
    assert totals[1].sum() == 4 * totals.shape[1]  # seat 1 drew nothing: only game counts


def test_card_table_means_intervals_and_rates() -> None:
    drawn = [2, 1, 1, 0, 3]
    played = [1, 1, 0, 0, 2]
    entries = [(g, 0, 1, d, p) for g, (d, p) in enumerate(zip(drawn, played, strict=True))]
    cards = records(entries, 5)
    won = np.array([[1, 0], [0, 1], [1, 0], [0, 1], [1, 0]], dtype=bool)
    deck_cards = np.full((2, DECK_SIZE), -1)
    deck_cards[0, :2] = (2, 1)  # row 0 Rum (never drawn), row 1 Broadside
    deck_cards[1, 0] = 3
    table = card_table(card_totals(cards, won), deck_cards, NAMES, ("guns", "boarders"))
    assert list(table["card"]) == ["Rum", "Broadside", "Parrot"]
    row = table[table["card"] == "Broadside"].iloc[0]
    assert row["drawn_per_game"] == pytest.approx(np.mean(drawn))
    half = stats.t.ppf(0.975, 4) * np.std(drawn, ddof=1) / np.sqrt(5)
    assert row["drawn_per_game_low"] == pytest.approx(np.mean(drawn) - half)
    assert row["played_per_game"] == pytest.approx(0.8)
    # Played in games 0, 1, 4 (won 0 and 4); held in game 2 (won).
    assert (row["played_games"], row["played_won"]) == (3, 2)
    assert row["win_rate_played"] == pytest.approx(2 / 3)
    assert (row["held_games"], row["held_won"]) == (1, 1)
    assert row["played_minus_held"] == pytest.approx(2 / 3 - 1)
    rum = table[table["card"] == "Rum"].iloc[0]
    assert rum["played_games"] == 0 and np.isnan(rum["win_rate_played"])
    assert rum["win_rate_played_low"] == 0.0 and rum["win_rate_played_high"] == 1.0
    assert table[table["card"] == "Parrot"].iloc[0]["deck"] == "boarders"


def test_rate_difference_is_newcombe_and_nan_for_an_empty_group() -> None:
    diff, low, high = rate_difference(30, 100, 20, 100)
    assert diff == pytest.approx(0.1)
    assert low < 0.1 < high and high - low < 0.3
    assert np.isnan(rate_difference(3, 10, 0, 0)[0])


def test_a_card_in_both_decks_is_pooled_in_a_mirror_match_and_kept_apart_otherwise() -> None:
    cards = records([(0, 0, 0, 1, 1), (1, 0, 0, 1, 0), (0, 1, 0, 2, 2), (1, 1, 0, 1, 1)], 2)
    won = np.array([[1, 0], [0, 1]], dtype=bool)
    deck_cards = np.full((2, DECK_SIZE), -1)
    deck_cards[:, 0] = 1
    totals = card_totals(cards, won)
    pooled = cards_summary(totals, deck_cards, NAMES, ("a", "a"), True)["Broadside"]
    assert pooled["seats"] == [0, 1]
    assert pooled["games"] == 4  # each seat's games counted once
    played = [1, 0, 2, 1]
    assert pooled["played_per_game"] == pytest.approx(np.mean(played))
    half = stats.t.ppf(0.975, 3) * np.std(played, ddof=1) / 2
    assert pooled["played_per_game_ci95"] == pytest.approx([1 - half, 1 + half])
    # Played: seat 0 game 0 (won), seat 1 games 0 (lost) and 1 (won) -> 2 of 3.
    assert (pooled["played_games"], pooled["win_rate_played"]) == (3, pytest.approx(2 / 3))
    # Held: seat 0 game 1 (lost).
    assert (pooled["held_games"], pooled["win_rate_held"]) == (1, 0.0)
    assert pooled["played_minus_held"] == pytest.approx(2 / 3)
    apart = cards_summary(totals, deck_cards, NAMES, ("a", "b"), False)
    assert set(apart) == {"Broadside (a)", "Broadside (b)"}
    assert apart["Broadside (a)"]["played_per_game"] == pytest.approx(0.5)
    assert apart["Broadside (b)"]["seats"] == [1]
    assert apart["Broadside (b)"]["win_rate_played"] == pytest.approx(0.5)
    # Two different decks of one name are kept apart by seat.
    same_name = cards_summary(totals, deck_cards, NAMES, ("a", "a"), False)
    assert set(same_name) == {"Broadside (seat 0)", "Broadside (seat 1)"}
