"""Tables with intervals from record tables, checked on hand-made tables and against scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from balance.stats.intervals import mean_interval
from balance.stats.metrics import (
    DRAWS,
    Metric,
    _row_max,
    balance_index,
    balance_index_difference,
    balance_index_interval,
    common_per_game,
    estimate,
    holm,
    length_distribution,
    length_summary,
    length_text,
    paired_difference,
    paired_table,
    seat_win_rates,
    seeded_normal,
    still_running,
    strategy_win_rates,
)

Z = stats.norm.ppf(0.975)  # 1.959963984540054


def wilson_closed_form(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval written out (Newcombe 1998, method 3), independently."""
    z = stats.norm.ppf(0.5 + level / 2)
    p = successes / trials
    centre = 2 * successes + z**2
    spread = z * math.sqrt(z**2 + 4 * successes * (1 - p))
    denominator = 2 * (trials + z**2)
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def holm_by_hand(p_values: list[float]) -> list[float]:
    """Holm's adjusted p-values written out: sorted p_(i) × (m − i + 1), running max, cap 1."""
    known = [(p, k) for k, p in enumerate(p_values) if not math.isnan(p)]
    known.sort()
    m = len(known)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for i, (p, k) in enumerate(known, start=1):
        running = max(running, min(1.0, p * (m - i + 1)))
        adjusted[k] = running
    return adjusted


# --- seat and strategy win rates -----------------------------------------------------------


def test_seat_win_rates_on_a_hand_made_table() -> None:
    # Four games, two seats: seat 0 won games 0 and 2, seat 1 won game 1, nobody won game 3.
    # Rows are shuffled: the table groups by seat, not by position.
    seats = pd.DataFrame(
        {
            "game": [3, 0, 1, 2, 0, 3, 2, 1],
            "seat": [1, 0, 1, 1, 1, 0, 0, 0],
            "won": [False, True, True, False, False, False, True, False],
        }
    )
    table = seat_win_rates(seats)
    assert table["seat"].tolist() == [0, 1]
    assert table["games"].tolist() == [4, 4]
    assert table["wins"].tolist() == [2, 1]
    assert table["rate"].tolist() == pytest.approx([0.5, 0.25], abs=1e-15)
    # Wilson 2/4 is the symmetric [0.1500, 0.8500]; Wilson 1/4 is [0.0456, 0.6994].
    assert round(table["low"][0], 4) == 0.1500 and round(table["high"][0], 4) == 0.8500
    assert round(table["low"][1], 4) == 0.0456 and round(table["high"][1], 4) == 0.6994
    for row, (wins, games) in enumerate([(2, 4), (1, 4)]):
        expected = wilson_closed_form(wins, games)
        assert (table["low"][row], table["high"][row]) == pytest.approx(expected, abs=1e-12)


def test_seat_win_rates_at_the_edges() -> None:
    # Seat 0 won all three games, seat 1 none: exact bounds of 1 and 0.
    seats = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "won": [True, False] * 3})
    table = seat_win_rates(seats)
    assert table["rate"].tolist() == [1.0, 0.0]
    assert table["high"][0] == 1.0 and table["low"][1] == 0.0
    assert table["low"][0] == pytest.approx(wilson_closed_form(3, 3)[0], abs=1e-12)
    assert table["high"][1] == pytest.approx(wilson_closed_form(0, 3)[1], abs=1e-12)


# Three games, three seats, two strategies; A fills two seats of games 0 and 2.
#   game 0: A A B, seat 0 (A) won           -> A plays 2 wins 1, B plays 1 wins 0
#   game 1: A B B, seat 2 (B) won           -> A plays 1 wins 0, B plays 2 wins 1
#   game 2: B A A, seats 0 (B), 1 (A) won   -> A plays 2 wins 1, B plays 1 wins 1
STRATEGY_SEATS = pd.DataFrame(
    {
        "game": [0, 0, 0, 1, 1, 1, 2, 2, 2],
        "seat": [0, 1, 2] * 3,
        "strategy": pd.Categorical(["A", "A", "B", "A", "B", "B", "B", "A", "A"]),
        "won": [True, False, False, False, False, True, True, True, False],
    }
)


def test_strategy_win_rates_count_games_not_seats() -> None:
    table = strategy_win_rates(STRATEGY_SEATS)
    assert table["strategy"].tolist() == ["A", "B"]
    assert table["seats_played"].tolist() == [5, 4]
    assert table["games"].tolist() == [3, 3]
    assert table["wins"].tolist() == [2, 2]
    assert table["rate"].tolist() == pytest.approx([0.4, 0.5], abs=1e-15)
    # A: wins per game y = [1, 0, 1], plays x = [2, 1, 2], ratio 2/5 = 0.4.
    # Residuals y - 0.4 x = 0.2, -0.4, 0.2; squares sum to 0.24.
    # Delta-method variance 3/2 * 0.24 / 5^2 = 0.0144, against 0.4 * 0.6 / 5 = 0.048 for
    # 5 independent seats: a design effect of 0.3, counted as 1, so Wilson over 5 seats.
    a = table.iloc[0]
    assert (a["low"], a["high"]) == pytest.approx(wilson_closed_form(2, 5), rel=1e-12)
    # B: y = [0, 1, 1], x = [1, 2, 1], ratio 2/4 = 0.5; residuals -0.5, 0, 0.5 (sum of
    # squares 0.5); variance 3/2 * 0.5 / 4^2 = 0.046875 < 0.25 / 4: Wilson over 4 seats.
    b = table.iloc[1]
    assert (b["low"], b["high"]) == pytest.approx(wilson_closed_form(2, 4), rel=1e-12)


def test_strategy_win_rates_widen_when_a_strategy_wins_games_together() -> None:
    # Strategy A fills two seats of every game and wins both or neither: its 2 seats a
    # game carry one game's worth, so its interval is Wilson's over half the seats.
    games = 40
    won = np.repeat(np.arange(games) % 4 == 0, 2)  # A wins 1 game in 4, both seats
    seats = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games), 3),
            "seat": np.tile([0, 1, 2], games),
            "strategy": np.tile(["A", "A", "B"], games),
            "won": np.column_stack([won.reshape(games, 2), np.zeros(games, bool)]).ravel(),
        }
    )
    a = strategy_win_rates(seats).set_index("strategy").loc["A"]
    assert a["rate"] == 0.25 and a["seats_played"] == 80
    # Variance over games 40/39 * 0.1875 * 4 * 40 / 80^2 against 0.25 * 0.75 / 80.
    effective = 80 * (0.1875 / 80) / (40 / 39 * 0.1875 * 4 * 40 / 80**2)
    assert effective == pytest.approx(39)
    assert (a["low"], a["high"]) == pytest.approx(
        wilson_closed_form(0.25 * effective, effective), rel=1e-9
    )


def test_strategy_win_rates_for_a_strategy_in_some_games_only() -> None:
    # Strategy C replaces B in game 1 only: it played one game, two seats, won one.
    seats = STRATEGY_SEATS.copy()
    seats["strategy"] = ["A", "A", "B", "A", "C", "C", "B", "A", "A"]
    table = strategy_win_rates(seats).set_index("strategy")
    assert table.loc["C", "games"] == 1 and table.loc["C", "seats_played"] == 2
    assert table.loc["C", "rate"] == 0.5
    # One game is one cluster: no interval.
    assert math.isnan(table.loc["C", "low"]) and math.isnan(table.loc["C", "high"])
    assert table.loc["B", "games"] == 2 and table.loc["B", "wins"] == 1


# --- balance index --------------------------------------------------------------------------


def test_balance_index_is_one_minus_the_largest_gap() -> None:
    assert balance_index([0.5, 0.3, 0.2]) == pytest.approx(0.7, abs=1e-15)  # 1 - (0.5 - 0.2)
    assert balance_index(pd.Series([0.25, 0.75])) == pytest.approx(0.5, abs=1e-15)
    assert balance_index([0.4, 0.4, 0.4]) == 1.0
    assert balance_index([1.0, 0.0]) == 0.0
    assert math.isnan(balance_index([]))


# --- game lengths ---------------------------------------------------------------------------


def test_length_distribution_splits_finished_and_unfinished() -> None:
    # Five games: lengths 2, 1, 4, 2 finished and one stopped unfinished at the cap of 4.
    games = pd.DataFrame(
        {"rounds": [2, 1, 4, 2, 4], "finished": [True, True, True, True, False]},
        index=pd.Index(range(5), name="game"),
    )
    table = length_distribution(games, "rounds")
    # Only lengths present: 3 has no row.
    assert table["length"].tolist() == [1, 2, 4]
    assert table["finished"].tolist() == [1, 2, 1]
    assert table["unfinished"].tolist() == [0, 0, 1]
    assert table["share"].tolist() == pytest.approx([0.2, 0.4, 0.4], abs=1e-15)


def test_length_distribution_reads_the_unit_column() -> None:
    games = pd.DataFrame({"turns": [7, 7, 9], "rounds": [1, 1, 1], "finished": [1, 0, 1]})
    table = length_distribution(games, "turns")
    assert table["length"].tolist() == [7, 9]
    assert table["finished"].tolist() == [1, 1]
    assert table["unfinished"].tolist() == [1, 0]


def test_still_running_on_a_hand_made_table() -> None:
    # Finished games lasted 1, 2, 2 and 3 rounds; a fifth was stopped unfinished at the cap
    # of 3. After round r a game is running if it lasted more than r rounds; the unfinished
    # game never ended, so it is running even after round 3.
    #   after 0: 5 of 5, after 1: 4 (the 1 ended), after 2: 2 (the two 2s ended),
    #   after 3: 1 (the finished 3 ended, the unfinished one did not).
    games = pd.DataFrame(
        {"rounds": [1, 2, 2, 3, 3], "finished": [True, True, True, True, False]},
    )
    table = still_running(games, "rounds")
    assert table["after"].tolist() == [0, 1, 2, 3]
    assert table["games"].tolist() == [5] * 4
    assert table["running"].tolist() == [5, 4, 2, 1]
    assert table["rate"].tolist() == pytest.approx([1.0, 0.8, 0.4, 0.2], abs=1e-15)
    for row, running in enumerate([5, 4, 2, 1]):
        expected = wilson_closed_form(running, 5)
        assert (table["low"][row], table["high"][row]) == pytest.approx(expected, abs=1e-12)
    assert table["high"][0] == 1.0  # all running: an exact upper bound


def test_still_running_counts_an_unfinished_game_at_every_round() -> None:
    # Finished at 1 and 2; one game hit a cap of 5 unfinished: one row for each of 0..5,
    # and from round 2 on only the unfinished game runs.
    games = pd.DataFrame({"turns": [2, 5, 1], "finished": [True, False, True]})
    table = still_running(games, "turns")
    assert table["after"].tolist() == [0, 1, 2, 3, 4, 5]
    assert table["running"].tolist() == [3, 2, 1, 1, 1, 1]


def test_still_running_when_every_game_finished() -> None:
    games = pd.DataFrame({"rounds": [2, 3, 3], "finished": [True, True, True]})
    table = still_running(games, "rounds")
    assert table["running"].tolist() == [3, 3, 2, 0]
    assert table["low"].iloc[-1] == 0.0
    assert table["high"].iloc[-1] == pytest.approx(wilson_closed_form(0, 3)[1], abs=1e-12)


# --- paired differences ---------------------------------------------------------------------

VARIANT = np.array([3.0, 5.0, 4.0, 6.0, 8.0])
BASE = np.array([2.0, 5.0, 3.0, 4.0, 5.0])


def test_paired_difference_matches_the_paired_t_test() -> None:
    result = paired_difference(VARIANT, BASE)
    # Differences 1, 0, 1, 2, 3: mean 1.4, squared deviations 0.16 + 1.96 + 0.16 + 0.36 +
    # 2.56 = 5.2, variance 5.2 / 4 = 1.3, standard error sqrt(1.3 / 5) = sqrt(0.26).
    sem = math.sqrt(0.26)
    assert result["difference"] == pytest.approx(1.4, abs=1e-14)
    assert result["games"] == 5
    # t(0.975, 4) = 2.7764 in printed tables.
    half = 2.7764451051977934 * sem
    assert (result["low"], result["high"]) == pytest.approx((1.4 - half, 1.4 + half), rel=1e-12)
    # p of t = 1.4 / sqrt(0.26) with 4 degrees of freedom, two-sided, and scipy's paired test.
    assert result["p"] == pytest.approx(2 * stats.t.sf(1.4 / sem, 4), rel=1e-10)
    reference = stats.ttest_rel(VARIANT, BASE)
    assert result["p"] == pytest.approx(reference.pvalue, rel=1e-12)
    interval = reference.confidence_interval(0.95)
    assert (result["low"], result["high"]) == pytest.approx(
        (interval.low, interval.high), rel=1e-12
    )


def test_paired_difference_is_signed_variant_minus_base() -> None:
    result = paired_difference(BASE, VARIANT)
    assert result["difference"] == pytest.approx(-1.4, abs=1e-14)
    forward = paired_difference(VARIANT, BASE)
    assert (result["low"], result["high"]) == pytest.approx(
        (-forward["high"], -forward["low"]), rel=1e-12
    )
    assert result["p"] == pytest.approx(stats.ttest_rel(VARIANT, BASE).pvalue, rel=1e-12)


def test_paired_difference_other_level() -> None:
    result = paired_difference(VARIANT, BASE, level=0.9)
    interval = stats.ttest_rel(VARIANT, BASE).confidence_interval(0.9)
    assert (result["low"], result["high"]) == pytest.approx(
        (interval.low, interval.high), rel=1e-12
    )


def test_paired_difference_of_bool_columns() -> None:
    variant = np.array([True, True, False, True, False, True])
    base = np.array([True, False, False, False, False, True])
    result = paired_difference(variant, base)
    assert result["difference"] == pytest.approx(2 / 6, abs=1e-15)
    reference = stats.ttest_rel(variant.astype(float), base.astype(float))
    assert result["p"] == pytest.approx(reference.pvalue, rel=1e-12)


def test_paired_difference_of_identical_arrays() -> None:
    result = paired_difference(VARIANT, VARIANT.copy())
    assert result == {"difference": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "games": 5}


def test_paired_difference_of_a_constant_nonzero_shift() -> None:
    # Every game moved by exactly 2: no spread at all, so the shift is certain.
    result = paired_difference(BASE + 2.0, BASE)
    assert result["difference"] == 2.0
    assert (result["low"], result["high"]) == (2.0, 2.0)
    assert result["p"] == 0.0


def test_paired_difference_of_one_game_has_no_p_value() -> None:
    result = paired_difference(np.array([4.0]), np.array([1.0]))
    assert result["difference"] == 3.0 and result["games"] == 1
    assert math.isnan(result["p"]) and math.isnan(result["low"]) and math.isnan(result["high"])


def test_intervals_over_few_games_stay_within_what_the_figure_can_take() -> None:
    # Over three games a t or normal interval reaches beyond the range; each is cut there.
    from balance.analyses.restricted import value_table
    from balance.analyses.sweep import _seat0_advantage
    from balance.stats.intervals import restricted_mean

    won = np.array([[1, 0], [1, 0], [0, 1]], dtype=bool)
    lost = np.array([[0, 1], [0, 1], [0, 1]], dtype=bool)
    runs = {
        label: common_per_game(np.full(3, 5), np.ones(3, dtype=bool), w, "rounds")
        for label, w in (("base", lost), ("variant", won))
    }
    table = paired_table(
        {label: frame for label, (frame, _) in runs.items()},
        runs["base"][1],
        ["won_0", "won_1"],
    )
    rows = table[table["kind"].isin(["share", "index"]) & table["diff_low"].notna()]
    assert rows["metric"].str.contains("win rate").any()
    assert (rows["diff_low"] >= -1).all() and (rows["diff_high"] <= 1).all()
    cards = value_table([({"card": "x"}, won[:, 0].astype(float), np.zeros(3))])
    assert cards["low"].iloc[0] >= -1 and cards["high"].iloc[0] <= 1
    assert cards["high"].iloc[0] == 1  # the t interval reached +2.1
    _, low, high = restricted_mean(np.array([0, 9, 9, 9]), np.ones(4, dtype=bool))
    assert high == 9  # the normal interval reached 10.6
    _, low, high = restricted_mean(np.array([0, 0, 0, 0, 5]), np.ones(5, dtype=bool))
    assert low == 0  # and here -0.75
    advantage = _seat0_advantage(np.array([[1, 0, 0], [0, 0, 0]], dtype=bool), np.array([2, 1]))
    assert advantage["ci95"][1] == pytest.approx(2 / 3)  # a game gives at most 1 - 1/3


def test_paired_difference_rejects_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="same games"):
        paired_difference(np.zeros(5), np.zeros(4))
    with pytest.raises(ValueError, match="same games"):
        paired_difference(np.zeros((2, 3)), np.zeros(6))


# --- Holm's correction ----------------------------------------------------------------------

# Wikipedia, "Holm–Bonferroni method", Example: four hypotheses at alpha = 0.05 with
# unadjusted p-values p1 = 0.01, p2 = 0.03, p3 = 0.04, p4 = 0.005; H1 and H4 are rejected.
# Adjusted by hand: sorted 0.005, 0.01, 0.03, 0.04 times m - i + 1 = 4, 3, 2, 1 give
# 0.02, 0.03, 0.06, 0.04; the running maximum makes the last 0.06.
WIKIPEDIA_P = [0.01, 0.03, 0.04, 0.005]
WIKIPEDIA_ADJUSTED = [0.03, 0.06, 0.06, 0.02]
WIKIPEDIA_REJECTED = [True, False, False, True]


def test_holm_reproduces_the_wikipedia_example() -> None:
    assert holm_by_hand(WIKIPEDIA_P) == pytest.approx(WIKIPEDIA_ADJUSTED, abs=1e-15)
    adjusted, significant = holm(WIKIPEDIA_P)
    assert adjusted.tolist() == pytest.approx(WIKIPEDIA_ADJUSTED, abs=1e-12)
    assert significant.tolist() == WIKIPEDIA_REJECTED


def test_holm_with_another_alpha() -> None:
    # At alpha = 0.1 the thresholds are 0.025, 0.0333, 0.05, 0.1: every hypothesis falls.
    adjusted, significant = holm(WIKIPEDIA_P, alpha=0.1)
    assert adjusted.tolist() == pytest.approx(WIKIPEDIA_ADJUSTED, abs=1e-12)
    assert significant.tolist() == [True] * 4
    # At alpha = 0.01 none does: the smallest, 0.005, is above 0.01 / 4.
    _, significant = holm(WIKIPEDIA_P, alpha=0.01)
    assert significant.tolist() == [False] * 4


def test_holm_caps_adjusted_values_at_one() -> None:
    # 0.4 × 3 = 1.2 and 0.5 × 2 = 1.0 are capped at 1; the running max lifts 0.9 to 1.
    adjusted, significant = holm([0.9, 0.4, 0.5])
    assert adjusted.tolist() == [1.0, 1.0, 1.0]
    assert not significant.any()
    p = [0.2, 0.001, 0.04, 0.3, 0.011]
    assert holm(p)[0].tolist() == pytest.approx(holm_by_hand(p), abs=1e-12)


def test_holm_leaves_nan_out_of_the_count() -> None:
    # With two NaNs among them, the four known p-values are corrected with m = 4 exactly
    # as in the Wikipedia example, not with m = 6.
    p = [0.01, math.nan, 0.03, 0.04, math.nan, 0.005]
    adjusted, significant = holm(p)
    assert math.isnan(adjusted[1]) and math.isnan(adjusted[4])
    known = [0, 2, 3, 5]
    assert adjusted[known].tolist() == pytest.approx(WIKIPEDIA_ADJUSTED, abs=1e-12)
    assert significant.tolist() == [True, False, False, False, False, True]


def test_holm_of_nothing_known() -> None:
    adjusted, significant = holm([math.nan, math.nan])
    assert np.isnan(adjusted).all() and not significant.any()
    adjusted, significant = holm([])
    assert adjusted.shape == significant.shape == (0,)


# --- balance index intervals ----------------------------------------------------------------


def two_seat_games(games: int, seat0_rate: float, seed: int) -> np.ndarray:
    """``(games, 2)`` win indicators: exactly one seat wins each game, seat 0 at the rate."""
    first = np.random.default_rng(seed).random(games) < seat0_rate
    return np.stack([first, ~first], axis=1)


def test_balance_index_interval_value_on_a_hand_made_table() -> None:
    # Three seats, five games: seat wins 3, 1, 1 -> rates 0.6, 0.2, 0.2 -> index 0.6.
    won = np.array(
        [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]],
        dtype=bool,
    )
    result = balance_index_interval(won)
    assert result["value"] == pytest.approx(0.6, abs=1e-15)
    assert result["games"] == 5
    assert result["low"] < result["high"]


def test_balance_index_interval_matches_the_normal_approximation() -> None:
    # Two seats, one winner a game: index = 1 - |r0 - r1| = 2 - 2 r0 while r0 > 1/2, a
    # straight line in r0, so its interval is 2 - 2 × (r0's normal interval), with the
    # variance of r0 being s^2 / G and s^2 the sample variance (ddof 1) of seat 0's wins.
    won = two_seat_games(40_000, 0.6, seed=7)
    r0 = won[:, 0].mean()
    result = balance_index_interval(won)
    assert result["value"] == pytest.approx(2 - 2 * r0, abs=1e-12)
    assert result["games"] == 40_000
    se = math.sqrt(won[:, 0].var(ddof=1) / len(won))
    # 20,000 draws put the 2.5% quantiles within about 0.02 standard errors (0.0001 here).
    assert result["low"] == pytest.approx(2 - 2 * (r0 + Z * se), abs=5e-4)
    assert result["high"] == pytest.approx(2 - 2 * (r0 - Z * se), abs=5e-4)
    assert result["low"] < result["value"] < result["high"]


def test_balance_index_interval_narrows_with_more_games() -> None:
    small = balance_index_interval(two_seat_games(400, 0.6, seed=11))
    large = balance_index_interval(two_seat_games(40_000, 0.6, seed=11))
    for result in (small, large):
        assert result["low"] < result["value"] < result["high"]
    # 100 times the games: about a tenth of the width.
    ratio = (large["high"] - large["low"]) / (small["high"] - small["low"])
    assert 0.07 < ratio < 0.14, ratio
    # Both cover the true index 2 - 2 × 0.6 = 0.8.
    assert small["low"] < 0.8 < small["high"] and large["low"] < 0.8 < large["high"]


def test_balance_index_interval_is_deterministic_for_a_seed() -> None:
    # Four seats at 40/20/20/20: three pairs may hold the largest gap, so the bound at
    # the index's high end rests on draws of their joint normal (with one such pair it
    # is the plain normal quantile, whatever the seed).
    cuts = [0.4, 0.6, 0.8]
    seat = np.minimum(np.searchsorted(cuts, np.random.default_rng(3).random(2_000)), 3)
    won = seat[:, None] == np.arange(4)
    assert balance_index_interval(won, seed=5) == balance_index_interval(won, seed=5)
    other = balance_index_interval(won, seed=6)
    assert other["high"] != balance_index_interval(won, seed=5)["high"]
    assert other["value"] == balance_index_interval(won, seed=5)["value"]
    far = two_seat_games(400, 0.65, seed=3)
    assert balance_index_interval(far, seed=5) == balance_index_interval(far, seed=6)


def test_balance_index_interval_bounds_of_the_largest_gap() -> None:
    # Four seats at 40/20/20/20 over 4,000 games: the low end is 1 - (largest gap + 1.96
    # standard errors of its own pair); the high end 1 - max(gap - c se), c the 95%
    # quantile of max(z01, z02, z03), the three pairs that may hold the largest gap,
    # computed here from scipy's trivariate normal distribution function.
    cuts = [0.4, 0.6, 0.8]
    seat = np.minimum(np.searchsorted(cuts, np.random.default_rng(5).random(4_000)), 3)
    won = (seat[:, None] == np.arange(4)).astype(float)
    pairs = [(i, j) for i in range(4) for j in range(4) if i != j]
    diffs = np.stack([won[:, i] - won[:, j] for i, j in pairs], axis=1)
    gaps = diffs.mean(axis=0)
    se = diffs.std(axis=0, ddof=1) / math.sqrt(len(won))
    top = np.argsort(gaps)[-3:]
    assert {pairs[k] for k in top} == {(0, 1), (0, 2), (0, 3)}
    corr = np.corrcoef(diffs[:, top], rowvar=False)
    three = stats.multivariate_normal(mean=np.zeros(3), cov=corr, seed=1)
    c = optimize.brentq(lambda t: three.cdf(np.full(3, t)) - 0.95, 1.0, 4.0, xtol=1e-4)
    assert Z < c < stats.norm.ppf(1 - 0.05 / 3)  # between one pair and Bonferroni's three
    result = balance_index_interval(won.astype(bool))
    assert result["low"] == pytest.approx(1 - (gaps + Z * se).max(), abs=1e-12)
    # 20,000 draws put the quantile within about 0.02 of c.
    assert result["high"] == pytest.approx(1 - (gaps - c * se).max(), abs=0.03 * se.max())


def test_balance_index_interval_of_too_few_games() -> None:
    result = balance_index_interval(np.array([[True, False]]))
    assert result["value"] == 0.0 and result["games"] == 1
    assert math.isnan(result["low"]) and math.isnan(result["high"])
    empty = balance_index_interval(np.zeros((0, 2), dtype=bool))
    assert math.isnan(empty["value"]) and empty["games"] == 0


def test_balance_index_interval_contains_the_estimate_of_a_balanced_table() -> None:
    # 400 games, each seat wins exactly 200: rates 0.5 and 0.5, index exactly 1.
    won = np.array([[True, False], [False, True]] * 200)
    result = balance_index_interval(won)
    assert result["value"] == 1.0
    assert result["low"] <= result["value"] <= result["high"]


def test_balance_index_interval_covers_an_unbalanced_game() -> None:
    # Seat 0 wins 55%: true index 2 - 2 × 0.55 = 0.9, well away from a tie between seats.
    rng = np.random.default_rng(37)
    repetitions, covered = 200, 0
    for _ in range(repetitions):
        first = rng.random(400) < 0.55
        result = balance_index_interval(np.stack([first, ~first], axis=1), draws=4_000)
        covered += result["low"] <= 0.9 <= result["high"]
    assert 0.88 <= covered / repetitions <= 0.99, covered / repetitions


def test_balance_index_interval_covers_a_balanced_game() -> None:
    # Both seats win 50%: the true index is 1; a 95% interval should cover it ~95% of runs.
    rng = np.random.default_rng(41)
    repetitions, covered = 200, 0
    for _ in range(repetitions):
        first = rng.random(400) < 0.5
        result = balance_index_interval(np.stack([first, ~first], axis=1), draws=4_000)
        covered += result["low"] <= 1.0 <= result["high"]
    assert covered / repetitions >= 0.88, covered / repetitions


def test_balance_index_difference_of_a_run_with_itself() -> None:
    won = two_seat_games(2_000, 0.6, seed=13)
    result = balance_index_difference(won, won.copy())
    assert result["difference"] == 0.0
    assert result["games"] == 2_000
    assert result["low"] <= 0.0 <= result["high"]
    # Both runs are the same draws: the interval is (numerically) a point.
    assert result["high"] - result["low"] < 1e-6
    assert result["p"] > 0.5


def test_balance_index_difference_carries_the_pairing() -> None:
    # Common random numbers: seat 0 wins when u < 0.7 in the base run, u < 0.6 in the
    # variant. The index difference is 2 (r0_base - r0_variant) = 2 mean(d), with
    # d = 1 where 0.6 <= u < 0.7: its interval is 2 × (mean(d)'s normal interval), far
    # narrower than if the runs were independent.
    u = np.random.default_rng(17).random(40_000)
    base = np.stack([u < 0.7, u >= 0.7], axis=1)
    variant = np.stack([u < 0.6, u >= 0.6], axis=1)
    d = (base[:, 0].astype(float) - variant[:, 0]).astype(float)
    result = balance_index_difference(variant, base)
    assert result["difference"] == pytest.approx(2 * d.mean(), abs=1e-12)
    se = 2 * math.sqrt(d.var(ddof=1) / len(d))
    assert result["low"] == pytest.approx(2 * d.mean() - Z * se, abs=3e-4)
    assert result["high"] == pytest.approx(2 * d.mean() + Z * se, abs=3e-4)
    assert result["low"] > 0 and result["p"] < 0.001


def test_balance_index_difference_is_deterministic_for_a_seed() -> None:
    a = two_seat_games(500, 0.6, seed=19)
    b = two_seat_games(500, 0.55, seed=23)
    first = balance_index_difference(a, b, seed=2)
    assert balance_index_difference(a, b, seed=2) == first
    assert balance_index_difference(a, b, seed=4)["low"] != first["low"]


def test_balance_index_difference_of_too_few_games() -> None:
    result = balance_index_difference(np.array([[True, False]]), np.array([[False, True]]))
    assert result["difference"] == 0.0
    assert all(math.isnan(result[key]) for key in ("low", "high", "p"))


# --- per-game tables and comparisons --------------------------------------------------------


def test_common_per_game_columns_and_metrics() -> None:
    length = np.array([3, 5, 4])
    finished = np.array([True, False, True])
    won = np.array([[True, False], [False, False], [True, True]])
    table, chosen = common_per_game(length, finished, won, "rounds")
    assert list(table.columns) == [
        "length",
        "finished",
        "won_0",
        "won_1",
        "winners_0",
        "winners_1",
        "winners_2",
    ]
    assert table["length"].tolist() == [3.0, 5.0, 4.0]
    assert table["won_1"].tolist() == [False, False, True]
    # Winners per game 1, 0, 2.
    assert table["winners_0"].tolist() == [False, True, False]
    assert table["winners_1"].tolist() == [True, False, False]
    assert table["winners_2"].tolist() == [False, False, True]
    assert [m.name for m in chosen] == [
        "game length",
        "finished before the cap",
        "seat 0 win rate",
        "seat 1 win rate",
        "games with 0 winners",
        "games with 1 winner",
        "games with 2 winners",
    ]
    assert chosen[0] == Metric("game length", "length", "mean", "rounds")
    assert [m.kind for m in chosen[1:]] == ["share"] * 6
    assert all(m.column in table for m in chosen)


def test_common_per_game_counts_at_most_two_winners() -> None:
    won = np.zeros((2, 4), dtype=bool)
    table, chosen = common_per_game(np.array([1, 2]), np.array([True, True]), won, "turns")
    assert [c for c in table.columns if c.startswith("winners_")] == [
        "winners_0",
        "winners_1",
        "winners_2",
    ]
    assert sum(m.column.startswith("won_") for m in chosen) == 4


def test_estimate_of_a_share_and_a_mean() -> None:
    value, low, high = estimate(np.array([True, False, True, True]), "share")
    assert value == 0.75
    assert (low, high) == pytest.approx(wilson_closed_form(3, 4), abs=1e-12)
    lengths = np.array([2, 4, 4, 5, 7, 8])
    value, low, high = estimate(lengths, "mean")
    sem = math.sqrt(24 / 5) / math.sqrt(6)  # mean 5, squared deviations 24
    assert value == 5.0
    assert (low, high) == pytest.approx(stats.t.interval(0.95, 5, loc=5.0, scale=sem), rel=1e-12)
    # A count a game cannot average below 0: a run's interval of a skewed count is cut
    # there (the t interval of 0, 0, 0, 9 reaches -4.9), as simulate cuts it.
    value, low, high = estimate(np.array([0, 0, 0, 9]), "mean")
    assert value == 2.25 and low == 0.0 and high > 9


# Six games, two seats, one winner a game.
#   base:    lengths 4 5 6 5 4 6, seat 0 won games 0, 2, 4 (3/6), index 1
#   variant: lengths 5 5 7 6 4 8, seat 0 won games 0, 1, 2, 4 (4/6), index 1 - 2/6 = 2/3
# Length differences 1 0 1 1 0 2 (mean 5/6); seat 0 differences 0 1 0 0 0 0 (mean 1/6).
BASE_WON = np.array([[1, 0], [0, 1], [1, 0], [0, 1], [1, 0], [0, 1]], dtype=bool)
VARIANT_WON = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [1, 0], [0, 1]], dtype=bool)


def hand_made_runs() -> tuple[dict[str, pd.DataFrame], list[Metric]]:
    finished = np.ones(6, dtype=bool)
    base, chosen = common_per_game(np.array([4, 5, 6, 5, 4, 6]), finished, BASE_WON, "rounds")
    variant, _ = common_per_game(np.array([5, 5, 7, 6, 4, 8]), finished, VARIANT_WON, "rounds")
    return {"base": base, "variant": variant}, chosen


def test_paired_table_on_hand_made_runs() -> None:
    runs, chosen = hand_made_runs()
    table = paired_table(runs, chosen, ["won_0", "won_1"])
    metric_names = [m.name for m in chosen] + ["balance index"]
    assert len(table) == 2 * 8
    assert table["run"].tolist() == ["base"] * 8 + ["variant"] * 8
    assert table["metric"].tolist() == metric_names * 2
    assert (table["games"] == 6).all()
    rows = table.set_index(["run", "metric"])

    # The first run's own values, no difference.
    base = rows.loc["base"]
    assert base.loc["game length", "value"] == 5.0
    assert base.loc["game length", "unit"] == "rounds"
    assert base.loc["seat 0 win rate", "value"] == 0.5
    low, high = base.loc["seat 0 win rate", ["low", "high"]]
    assert (low, high) == pytest.approx(wilson_closed_form(3, 6), abs=1e-12)
    assert base.loc["balance index", "value"] == 1.0
    assert base.loc["balance index", "kind"] == "index"
    for column in ("difference", "p", "p_holm"):
        assert base[column].isna().all(), column
    assert not base["significant"].any()

    variant = rows.loc["variant"]
    assert variant.loc["game length", "value"] == pytest.approx(35 / 6, abs=1e-12)
    assert variant.loc["game length", "base_value"] == 5.0
    assert variant.loc["game length", "difference"] == pytest.approx(5 / 6, abs=1e-12)
    lengths = (np.array([5, 5, 7, 6, 4, 8]), np.array([4, 5, 6, 5, 4, 6]))
    reference = stats.ttest_rel(*lengths)
    interval = reference.confidence_interval()
    assert variant.loc["game length", "p"] == pytest.approx(reference.pvalue, rel=1e-12)
    assert variant.loc["game length", "diff_low"] == pytest.approx(interval.low, rel=1e-12)
    assert variant.loc["game length", "diff_high"] == pytest.approx(interval.high, rel=1e-12)
    assert variant.loc["seat 0 win rate", "value"] == pytest.approx(4 / 6, abs=1e-15)
    assert variant.loc["seat 0 win rate", "difference"] == pytest.approx(1 / 6, abs=1e-15)
    assert variant.loc["seat 1 win rate", "difference"] == pytest.approx(-1 / 6, abs=1e-15)
    # Every game finished and had one winner in both runs: no difference at all.
    for name in ("finished before the cap", "games with 0 winners", "games with 1 winner"):
        assert variant.loc[name, "difference"] == 0.0 and variant.loc[name, "p"] == 1.0
    assert variant.loc["balance index", "value"] == pytest.approx(2 / 3, abs=1e-15)
    assert variant.loc["balance index", "base_value"] == 1.0
    assert variant.loc["balance index", "difference"] == pytest.approx(-1 / 3, abs=1e-15)

    # Holm over the table's eight tests; six games are too few for anything to stand out.
    expected = holm_by_hand(table["p"].tolist())
    assert table["p_holm"].tolist() == pytest.approx(expected, nan_ok=True, abs=1e-12)
    assert not table["significant"].any()


def test_paired_table_of_a_single_run() -> None:
    runs, chosen = hand_made_runs()
    table = paired_table({"base": runs["base"]}, chosen, ["won_0", "won_1"])
    assert len(table) == 8
    assert table["p"].isna().all() and table["p_holm"].isna().all()
    assert not table["significant"].any()


def simulated_run(u: np.ndarray, lengths: np.ndarray, seat0_rate: float) -> pd.DataFrame:
    """A per-game table: nobody wins when u < 0.1, else seat 0 when u < 0.1 + rate × 0.9."""
    nobody = u < 0.1
    first = ~nobody & (u < 0.1 + seat0_rate * 0.9)
    won = np.stack([first, ~nobody & ~first], axis=1)
    table, _ = common_per_game(lengths, ~nobody, won, "rounds")
    return table


def test_paired_table_finds_nothing_in_noise() -> None:
    # Two runs of the same game on independent random numbers: no real difference.
    rng = np.random.default_rng(29)
    games = 2_000
    runs = {
        "base": simulated_run(rng.random(games), rng.poisson(8, games), 0.6),
        "again": simulated_run(rng.random(games), rng.poisson(8, games), 0.6),
    }
    _, chosen = common_per_game(np.zeros(1), np.ones(1), np.zeros((1, 2)), "rounds")
    table = paired_table(runs, chosen, ["won_0", "won_1"])
    later = table[table["run"] == "again"]
    assert later["p"].notna().all()
    assert not table["significant"].any(), later[["metric", "p", "p_holm"]]


def test_paired_table_finds_an_obvious_large_effect() -> None:
    # Same random numbers, same lengths; the variant lets seat 0 win 80% instead of 50%.
    rng = np.random.default_rng(31)
    games = 4_000
    u, lengths = rng.random(games), rng.poisson(8, games)
    runs = {
        "base": simulated_run(u, lengths, 0.5),
        "variant": simulated_run(u, lengths, 0.8),
    }
    _, chosen = common_per_game(np.zeros(1), np.ones(1), np.zeros((1, 2)), "rounds")
    table = paired_table(runs, chosen, ["won_0", "won_1"]).set_index(["run", "metric"])
    variant = table.loc["variant"]
    for name in ("seat 0 win rate", "seat 1 win rate", "balance index"):
        assert variant.loc[name, "significant"], name
    assert variant.loc["seat 0 win rate", "difference"] > 0.2
    assert variant.loc["balance index", "difference"] < -0.4
    # What the variant did not touch is not significant.
    for name in ("game length", "finished before the cap", "games with 0 winners"):
        assert variant.loc[name, "difference"] == 0.0 and not variant.loc[name, "significant"]


def test_a_resampled_p_value_no_draw_reached_is_kept_as_its_bound() -> None:
    # The large effect above: no draw of the balance index difference reaches 0, so its
    # p-value is below 1 / DRAWS, and Holm's adjusted p is a bound too; never 0.
    rng = np.random.default_rng(31)
    u, lengths = rng.random(4_000), rng.poisson(8, 4_000)
    runs = {"base": simulated_run(u, lengths, 0.5), "variant": simulated_run(u, lengths, 0.8)}
    _, chosen = common_per_game(np.zeros(1), np.ones(1), np.zeros((1, 2)), "rounds")
    table = paired_table(runs, chosen, ["won_0", "won_1"]).set_index(["run", "metric"])
    index = table.loc[("variant", "balance index")]
    assert index["p_is_bound"] and index["p"] == 1 / DRAWS
    assert 0 < index["p_holm"] <= len(chosen) + 1 and index["p_holm"] >= index["p"]
    assert index["significant"]
    # Only the resampled row is a bound; the paired t rows are p-values as computed.
    assert table["p_is_bound"].sum() == 1
    assert table.loc[("variant", "seat 0 win rate"), "p"] < 1 / DRAWS


def test_length_summary_without_unfinished_games() -> None:
    lengths = np.array([3, 3, 4, 4, 4, 4, 4, 4, 5, 5])
    got = length_summary(lengths, np.ones(10, dtype=bool))
    assert got["games"] == 10 and got["unfinished"] == 0 and not got["mean_is_lower_bound"]
    assert (got["mean"], got["mean_low"], got["mean_high"]) == mean_interval(lengths)
    assert got["median"] == pytest.approx(4.0) and got["median_low"] < 4 < got["median_high"]
    # Every game finished: the area under the curve is the plain mean.
    assert got["restricted_mean"] == pytest.approx(4.0) and got["restricted_to"] == 5
    text = length_text(got, "rounds")
    assert text.startswith("mean 4.00 [") and "median 4.0 [" in text and "10 games" in text


def test_length_summary_with_games_stopped_at_the_cap() -> None:
    lengths = np.array([2, 3, 3, 6, 6, 6])
    finished = np.array([True, True, True, False, False, False])
    got = length_summary(lengths, finished)
    assert got["unfinished"] == 3 and got["mean_is_lower_bound"]
    assert got["restricted_to"] == 6 and got["restricted_mean"] == pytest.approx(26 / 6)
    # Half of the games ended by 3: the curve crosses 0.5 at 3.5 exactly.
    assert got["median"] == pytest.approx(3.5)
    text = length_text(got, "rounds")
    assert "restricted mean to 6: 4.33 [" in text and "mean at least 4.33" in text
    assert "6 games, 3 unfinished" in text


def test_paired_table_rejects_runs_of_different_sizes() -> None:
    runs, chosen = hand_made_runs()
    runs["variant"] = runs["variant"].iloc[:5]
    with pytest.raises(ValueError, match="same games"):
        paired_table(runs, chosen, ["won_0", "won_1"])


def test_mean_interval_is_what_estimate_uses_for_means() -> None:
    # The "mean" kind is exactly balance.stats.intervals.mean_interval (Student t) of a count, cut
    # at 0, not a share.
    values = np.array([1.0, 0.0, 1.0, 1.0])
    assert estimate(values, "mean") == mean_interval(values, floor=0.0)
    assert estimate(values, "mean") != estimate(values.astype(bool), "share")


@pytest.mark.parametrize("k", [1, 2, 6, 12])
def test_seeded_normal_is_numpy_s_multivariate_normal_bit_for_bit(k) -> None:
    # Correlations of every ordered seat gap: singular (p_i - p_j = -(p_j - p_i)).
    rng = np.random.default_rng(k)
    n = max(2, round((1 + math.sqrt(1 + 4 * k)) / 2))
    won = rng.random((500, n)) < 0.3
    gaps = np.array([np.eye(n)[i] - np.eye(n)[j] for i in range(n) for j in range(n) if i != j])
    cov = gaps[:k] @ np.cov(won, rowvar=False) @ gaps[:k].T
    corr = cov / np.sqrt(np.outer(np.diag(cov), np.diag(cov)))
    for seed, draws in ((0, 5_000), (3, 500), (0, 5_000)):  # the third from the kept draws
        expected = np.random.default_rng(seed).multivariate_normal(
            np.zeros(k), corr, size=draws, method="eigh"
        )
        np.testing.assert_array_equal(seeded_normal(corr, draws, seed), expected)
        np.testing.assert_array_equal(_row_max(expected), expected.max(axis=1))


def test_paired_rate_difference_of_games_all_alike_is_not_certain() -> None:
    # Four games, each finished in both runs: no spread, yet a game that differs could be
    # as common as the exact bound of 0 such games in 4 allows (60%).
    ones = np.ones(4)
    result = paired_difference(ones, ones, bounds=(-1.0, 1.0))
    rare = 1 - 0.025 ** (1 / 4)
    assert (result["low"], result["high"]) == pytest.approx((-rare, rare))
    assert result["p"] == 1.0
    # Every game won by the variant alone: [1 - 2u, 1], and the sign test's p-value.
    result = paired_difference(ones, np.zeros(4), bounds=(-1.0, 1.0))
    assert (result["low"], result["high"]) == pytest.approx((1 - 2 * rare, 1.0))
    assert result["p"] == pytest.approx(2 / 2**4)


def test_paired_rate_difference_covers_a_rare_difference() -> None:
    # A variant that loses 2% of games the base wins, over 40 paired games: most draws
    # show no differing game at all, where a zero-width interval would miss the truth.
    rng = np.random.default_rng(8)
    covered = 0
    reps = 2000
    for _ in range(reps):
        base = np.ones(40)
        variant = (rng.random(40) >= 0.02).astype(float)
        result = paired_difference(variant, base, bounds=(-1.0, 1.0))
        covered += result["low"] <= -0.02 <= result["high"]
    assert covered / reps >= 0.95
