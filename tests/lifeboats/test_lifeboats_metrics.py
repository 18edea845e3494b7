"""Lifeboats' figures on hand-made tables with hand-worked answers."""

import numpy as np
import pandas as pd
import pytest

from balance.games.lifeboats.metrics import (
    boat_fates,
    hats_by_round,
    hats_decisive,
    score_distribution,
    score_means,
    tie_rules,
    win_rate_by_hats_left,
    win_rate_by_lane,
    win_rate_by_setup_order,
)
from balance.stats.intervals import wilson_interval

SEATS = pd.DataFrame(
    {
        "game": [0, 0, 0, 1, 1, 1],
        "seat": [0, 1, 2, 0, 1, 2],
        "strategy": ["a", "b", "a", "b", "a", "a"],
        "won": [True, False, False, False, True, True],
        "score": [20, 8, 0, 12, 14, 14],
        "hats_used": [0, 3, 1, 3, 0, 2],
    }
)


def test_score_means_by_seat_are_plain_means():
    table = score_means(SEATS, "seat").set_index("group")
    assert table.loc[0, "mean"] == 16.0
    assert table.loc[1, "mean"] == 11.0
    assert table.loc[2, "mean"] == 7.0
    assert (table["seats_played"] == 2).all()
    assert (table["games"] == 2).all()
    assert table.loc[0, "low"] < 16.0 < table.loc[0, "high"]


def test_score_means_by_strategy_pool_every_seat_played():
    table = score_means(SEATS, "strategy").set_index("group")
    # a: 20 + 0 (game 0) and 14 + 14 (game 1) over 4 seats; b: 8 and 12 over 2.
    assert table.loc["a", "mean"] == pytest.approx(48 / 4)
    assert table.loc["a", "seats_played"] == 4
    assert table.loc["b", "mean"] == pytest.approx(10.0)


def test_score_distribution_shares_sum_to_one_per_group():
    table = score_distribution(SEATS, "strategy")
    a = table[table["group"] == "a"].set_index("score")
    assert a.loc[14, "count"] == 2
    assert a.loc[14, "share"] == 0.5
    assert a.loc[0, "share"] == 0.25
    assert table.groupby("group")["share"].sum().tolist() == [1.0, 1.0]
    low, high = wilson_interval(2, 4)
    assert a.loc[14, "low"] == pytest.approx(float(low))
    assert a.loc[14, "high"] == pytest.approx(float(high))


def test_boat_fates_per_lane():
    boats = pd.DataFrame(
        {
            "lane": [0, 0, 0, 4, 4, 6],
            "island": ["A", "A", "A", "C", "C", "C"],
            "fate": ["landed", "sunk", "landed", "sunk", "afloat", "landed"],
        }
    )
    table = boat_fates(boats).set_index("lane")
    assert list(table.index) == [0, 4, 6]
    assert table.loc[0, "boats"] == 3
    assert table.loc[0, "landed"] == 2
    assert table.loc[0, "landed_rate"] == pytest.approx(2 / 3)
    assert table.loc[4, "afloat"] == 1
    assert table.loc[4, "sunk_rate"] == 0.5
    assert table.loc[6, "island"] == "C"
    assert table.loc[6, "sunk_low"] == 0.0


def test_hats_decisive_is_a_ratio_of_ballots():
    games = pd.DataFrame({"votes": [10, 12, 8], "hat_decided": [1, 0, 3]})
    value = hats_decisive(games)
    assert value["share"] == pytest.approx(4 / 30)
    assert value["per_game"] == pytest.approx(4 / 3)
    assert value["ballots_per_game"] == pytest.approx(10.0)
    assert value["share_low"] < value["share"] < value["share_high"]


def test_win_rate_by_hats_left():
    table = win_rate_by_hats_left(SEATS, 3).set_index("hats_left")
    # hats left: 3, 0, 2, 0, 3, 1
    assert table.loc[3, "seats"] == 2
    assert table.loc[3, "won"] == 2
    assert table.loc[0, "seats"] == 2
    assert table.loc[0, "won"] == 0
    assert table.loc[1, "rate"] == 1.0
    assert list(table.index) == [0, 1, 2, 3]


def test_win_rate_by_hats_left_with_no_seats_is_unknown():
    table = win_rate_by_hats_left(SEATS.iloc[:1], 3).set_index("hats_left")
    assert np.isnan(table.loc[1, "rate"])
    assert table.loc[1, "high"] == 1.0


def test_tie_rules_over_finished_games():
    names = ["no tie", "own boat landed first", "shared"]
    games = pd.DataFrame({"tie_rule": ["no tie", "no tie", None, "shared", "no tie"]})
    table = tie_rules(games, names).set_index("rule")
    assert (table["games"] == 4).all()
    assert table.loc["no tie", "rate"] == 0.75
    assert table.loc["own boat landed first", "count"] == 0
    assert table.loc["shared", "rate"] == 0.25


# Two games of three players: the boats (seat 0, 1, 2, black) on these lanes.
BOATS = pd.DataFrame(
    {
        "game": [0] * 4 + [1] * 4,
        "boat": pd.Categorical(["seat 0", "seat 1", "seat 2", "black"] * 2),
        "lane": [3, 0, 4, 6, 0, 3, 5, 1],
        "island": ["B", "A", "C", "C", "A", "B", "C", "A"],
    }
)


def test_win_rate_by_lane_counts_each_seat_s_own_boat():
    table = win_rate_by_lane(SEATS, BOATS).set_index("lane")
    assert list(table.index) == [0, 3, 4, 5]  # the black boat's lanes 6 and 1 are left out
    assert (table.loc[3, "seats"], table.loc[3, "won"]) == (2, 2)  # seat 0 g0, seat 1 g1
    assert (table.loc[0, "seats"], table.loc[0, "won"]) == (2, 0)  # seat 1 g0, seat 0 g1
    assert (table.loc[4, "won"], table.loc[5, "won"]) == (0, 1)
    assert table.loc[3, "island"] == "B"
    low, high = wilson_interval(1, 1)
    assert (table.loc[5, "low"], table.loc[5, "high"]) == (low, high)


def test_win_rate_by_setup_order_is_by_seat():
    table = win_rate_by_setup_order(SEATS).set_index("order")
    assert list(table["seat"]) == [0, 1, 2]
    assert list(table["rate"]) == [0.5, 0.5, 0.5]
    assert (table["seats"] == 2).all()


def test_hats_by_round_counts_the_games_that_reached_each_round():
    games = pd.DataFrame(
        {
            "rounds": [1, 3, 12],
            "r1": [2, 0, 1],
            "r2": [0, 1, 2],
            "r3": [0, 2, 0],  # the last column: round 3 and later
        }
    )
    table = hats_by_round(games, ["r1", "r2", "r3"])
    assert list(table["round"]) == ["1", "2", "3+"]
    assert list(table["games"]) == [3, 2, 2]
    assert list(table["hats"]) == [3, 3, 2]
    assert table["mean"].tolist() == pytest.approx([1.0, 1.5, 1.0])
    assert table["share"].tolist() == pytest.approx([3 / 8, 3 / 8, 2 / 8])
    assert (table["low"] < table["mean"]).all() and (table["mean"] < table["high"]).all()
