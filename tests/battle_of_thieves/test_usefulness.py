"""Card usefulness from hand-made per-card records: sums, means, win rates and pooling."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import confint_proportions_2indep

from balance.games.battle_of_thieves.layout import CARD_STAT, DECK_SIZE
from balance.games.battle_of_thieves.usefulness import (
    TOTAL,
    card_figures,
    card_table,
    card_totals,
    cards_summary,
    pair_totals,
)
from balance.stats.intervals import wilson_interval

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
    assert t[TOTAL.PLAYED_ANY] == 2 and t[TOTAL.PLAYED_CROSS] == 1
    assert t[TOTAL.N_H] == 0  # one seat: played and held are never in one game
    # Seat 1 drew nothing: only the counts of games (and of observations).
    assert totals[1].sum() == 2 * 4 * totals.shape[1]


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
    assert row["drawn_per_game_low"] == pytest.approx(max(np.mean(drawn) - half, 0.0))
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


def test_a_card_of_one_seat_has_wilson_and_newcombe_intervals() -> None:
    # One observation a game: the intervals over games are the ordinary ones.
    rng = np.random.default_rng(3)
    cards = np.zeros((300, 2, DECK_SIZE, CARD_STAT.SIZE), dtype=np.int32)
    cards[:, 0, 0, CARD_STAT.DRAWN] = rng.integers(0, 3, 300)
    cards[:, 0, 0, CARD_STAT.PLAYED] = np.minimum(cards[:, 0, 0, 0], rng.integers(0, 2, 300))
    won = np.zeros((300, 2), dtype=bool)
    won[np.arange(300), rng.integers(0, 2, 300)] = True
    row = card_figures(card_totals(cards, won)[0, 0])
    assert row["games"] == row["in_games"] == 300
    assert row["played_in_games"] == row["played_games"] > 0
    low, high = wilson_interval(row["played_won"], row["played_games"])
    assert (row["win_rate_played_low"], row["win_rate_played_high"]) == pytest.approx((low, high))
    low, high = confint_proportions_2indep(
        row["played_won"],
        row["played_games"],
        row["held_won"],
        row["held_games"],
        method="newcomb",
        compare="diff",
    )
    assert row["played_minus_held"] == pytest.approx(row["win_rate_played"] - row["win_rate_held"])
    assert (row["played_minus_held_low"], row["played_minus_held_high"]) == pytest.approx(
        (low, high)
    )
    empty = card_figures(card_totals(cards, won)[1, 0])  # seat 1 never drew it
    assert np.isnan(empty["played_minus_held"]) and empty["played_games"] == 0


def test_a_card_in_both_decks_is_pooled_in_a_mirror_match_and_kept_apart_otherwise() -> None:
    cards = records([(0, 0, 0, 1, 1), (1, 0, 0, 1, 0), (0, 1, 0, 2, 2), (1, 1, 0, 1, 1)], 2)
    won = np.array([[1, 0], [0, 1]], dtype=bool)
    deck_cards = np.full((2, DECK_SIZE), -1)
    deck_cards[:, 0] = 1
    totals = card_totals(cards, won)
    pairs = pair_totals(cards, won)
    pooled = cards_summary(totals, deck_cards, NAMES, ("a", "a"), True, pairs)["Broadside"]
    assert pooled["seats"] == [0, 1]
    assert pooled["games"] == 4  # each seat's games counted once
    assert pooled["in_games"] == 2  # ... from two games
    played = [1, 0, 2, 1]
    assert pooled["played_per_game"] == pytest.approx(np.mean(played))
    # The game is the unit: the interval comes from the two games' sums (3 and 1 copies).
    half = stats.t.ppf(0.975, 1) * np.std([3, 1], ddof=1) / np.sqrt(2) / 2
    assert pooled["played_per_game_ci95"] == pytest.approx([max(1 - half, 0.0), 1 + half])
    # Played: seat 0 game 0 (won), seat 1 games 0 (lost) and 1 (won) -> 2 of 3.
    assert (pooled["played_games"], pooled["win_rate_played"]) == (3, pytest.approx(2 / 3))
    assert pooled["played_in_games"] == 2
    # Held: seat 0 game 1 (lost).
    assert (pooled["held_games"], pooled["win_rate_held"]) == (1, 0.0)
    assert pooled["played_minus_held"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="pair sums"):
        cards_summary(totals, deck_cards, NAMES, ("a", "a"), True)
    apart = cards_summary(totals, deck_cards, NAMES, ("a", "b"), False)
    assert set(apart) == {"Broadside (a)", "Broadside (b)"}
    assert apart["Broadside (a)"]["played_per_game"] == pytest.approx(0.5)
    assert apart["Broadside (b)"]["seats"] == [1]
    assert apart["Broadside (b)"]["win_rate_played"] == pytest.approx(0.5)
    # Two different decks of one name are kept apart by seat.
    same_name = cards_summary(totals, deck_cards, NAMES, ("a", "a"), False)
    assert set(same_name) == {"Broadside (seat 0)", "Broadside (seat 1)"}


def test_a_pooled_rate_at_zero_counts_its_games_not_its_observations() -> None:
    # Both seats drew Broadside and held it in games 0 and 1; only game 2 had a winner
    # among them, and nobody won games 0 and 1 (capped): a held win rate of 0 from 4
    # observations in 2 games. The seats of one game could agree, so 2 count, not 4.
    cards = records([(g, s, 0, 1, 0) for g in (0, 1) for s in (0, 1)], 3)
    won = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    pairs = pair_totals(cards, won)
    row = card_figures(pairs[0])
    assert (row["held_games"], row["held_in_games"], row["win_rate_held"]) == (4, 2, 0.0)
    assert (row["win_rate_held_low"], row["win_rate_held_high"]) == pytest.approx(
        tuple(wilson_interval(0, 2))
    )
    assert np.isnan(row["played_minus_held"])  # never played
