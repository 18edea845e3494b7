"""La Planche's own figures on hand-made tables, checked against balance.stats.intervals by hand.

``last_colour_rates`` reads the ``games`` table (``last_colour``, null when a game is
unfinished); ``action_usefulness`` reads the ``actions`` table (one row a game, seat and
action with ``done``, ``fell_own``, ``fell_other``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from balance.games.la_planche.metrics import action_usefulness, last_colour_rates
from balance.games.la_planche.rules import COLOUR_NAMES
from balance.stats.intervals import mean_interval, ratio_interval, wilson_interval

Z = stats.norm.ppf(0.975)
T2 = stats.t.ppf(0.975, 2)  # 4.3027 in printed tables: three games, two degrees of freedom
COLOURS = list(COLOUR_NAMES)  # yellow, red, green, blue

# --- last_colour_rates -----------------------------------------------------------------------

# Five games; game 3 is unfinished (no last prisoner): it counts in the total, for no colour.
LAST = ["red", "yellow", "red", None, "blue"]


def games_table(last: list[str | None] = LAST, categorical: bool = True) -> pd.DataFrame:
    """The ``games`` table as the game writes it (``last_colour`` a categorical)."""
    column = pd.Categorical(last, categories=COLOURS) if categorical else pd.Series(last)
    return pd.DataFrame({"game": np.arange(len(last)), "last_colour": column})


def hand_wilson(hits: int, total: int) -> tuple[float, float]:
    """The Wilson score interval written out: centre and half-width over 1 + z²/n."""
    p = hits / total
    shrink = 1 + Z**2 / total
    centre = (p + Z**2 / (2 * total)) / shrink
    half = Z * math.sqrt(p * (1 - p) / total + Z**2 / (4 * total**2)) / shrink
    return centre - half, centre + half


def test_last_colour_rates_count_every_game_in_the_total() -> None:
    table = last_colour_rates(games_table(), COLOURS)
    assert table["colour"].tolist() == COLOURS
    assert table["games"].tolist() == [5, 5, 5, 5]  # the unfinished game is in the total
    # yellow: game 1; red: games 0 and 2; green: none; blue: game 4.
    assert table["last"].tolist() == [1, 2, 0, 1]
    assert table["rate"].tolist() == pytest.approx([0.2, 0.4, 0.0, 0.2])
    # Four of five games had a last prisoner: the rates sum to the finished share.
    assert table["rate"].sum() == pytest.approx(0.8)


def test_last_colour_rates_have_wilson_intervals() -> None:
    table = last_colour_rates(games_table(), COLOURS).set_index("colour")
    for colour, hits in (("yellow", 1), ("red", 2), ("blue", 1)):
        low, high = table.loc[colour, ["low", "high"]]
        assert (low, high) == pytest.approx(hand_wilson(hits, 5), abs=1e-12), colour
        expected = wilson_interval(hits, 5)
        assert (low, high) == pytest.approx((float(expected[0]), float(expected[1])), abs=1e-12)
    # 2 of 5: centre (0.4 + 1.9207/5) / 1.7683 = 0.4434, half-width 0.3171 -> [0.118, 0.769].
    assert tuple(table.loc["red", ["low", "high"]]) == pytest.approx((0.1176, 0.7693), abs=1e-4)
    # Green never last: the lower bound is exactly 0, the upper z² / (n + z²) = 0.4345.
    assert table.loc["green", "low"] == 0.0
    assert table.loc["green", "high"] == pytest.approx(Z**2 / (5 + Z**2), abs=1e-12)


def test_last_colour_rates_follow_the_colours_given() -> None:
    table = last_colour_rates(games_table(), ["blue", "green", "red"])
    assert table["colour"].tolist() == ["blue", "green", "red"]
    assert table["last"].tolist() == [1, 0, 2]


def test_last_colour_rates_read_a_plain_column_with_missing_values() -> None:
    plain = last_colour_rates(games_table(categorical=False), COLOURS)
    categorical = last_colour_rates(games_table(), COLOURS)
    pd.testing.assert_frame_equal(plain, categorical)


def test_last_colour_rates_of_unfinished_games_only() -> None:
    table = last_colour_rates(games_table([None, None, None]), COLOURS)
    assert table["games"].tolist() == [3] * 4
    assert table["last"].tolist() == [0] * 4
    assert table["rate"].tolist() == [0.0] * 4
    assert table["high"].tolist() == pytest.approx([Z**2 / (3 + Z**2)] * 4)


def test_last_colour_rates_of_no_games_are_unknown() -> None:
    table = last_colour_rates(games_table([]), COLOURS)
    assert table["games"].tolist() == [0] * 4
    assert table["rate"].isna().all()
    assert (table["low"] == 0.0).all() and (table["high"] == 1.0).all()  # uninformative


# --- action_usefulness -----------------------------------------------------------------------

# The table's action order (not alphabetical: the result must follow the categories).
ACTIONS = ["swap", "advance", "move", "nothing", "push"]

# Three games, two seats. (game, seat): done, fell_own, fell_other.
ROWS = {
    "swap": {
        (0, 0): (1, 0, 0),
        (0, 1): (2, 0, 0),
        (1, 0): (2, 0, 0),
        (1, 1): (0, 0, 0),
        (2, 0): (3, 0, 0),
        (2, 1): (1, 0, 0),
    },
    "advance": {
        (0, 0): (2, 0, 1),
        (0, 1): (1, 1, 0),
        (1, 0): (0, 0, 0),
        (1, 1): (3, 0, 2),
        (2, 0): (1, 0, 0),  # advanced without making anyone fall
        (2, 1): (0, 0, 0),
    },
    "move": {
        (0, 0): (0, 0, 0),
        (0, 1): (0, 0, 0),
        (1, 0): (1, 0, 0),
        (1, 1): (0, 0, 0),
        (2, 0): (0, 0, 0),
        (2, 1): (0, 0, 0),
    },
    # Never done: no uses, and no prisoners fallen per use (NaN, not an error).
    "nothing": {
        (0, 0): (0, 0, 0),
        (0, 1): (0, 0, 0),
        (1, 0): (0, 0, 0),
        (1, 1): (0, 0, 0),
        (2, 0): (0, 0, 0),
        (2, 1): (0, 0, 0),
    },
    "push": {
        (0, 0): (5, 0, 2),
        (0, 1): (4, 1, 1),
        (1, 0): (6, 1, 3),
        (1, 1): (5, 0, 2),
        (2, 0): (4, 0, 1),
        (2, 1): (4, 1, 2),
    },
}

# Per-game sums over the two seats, by hand from ROWS.
PER_GAME = {
    "swap": {"done": [3, 2, 4], "fell_own": [0, 0, 0], "fell_other": [0, 0, 0]},
    "advance": {"done": [3, 3, 1], "fell_own": [1, 0, 0], "fell_other": [1, 2, 0]},
    "move": {"done": [0, 1, 0], "fell_own": [0, 0, 0], "fell_other": [0, 0, 0]},
    "nothing": {"done": [0, 0, 0], "fell_own": [0, 0, 0], "fell_other": [0, 0, 0]},
    "push": {"done": [9, 11, 8], "fell_own": [1, 1, 1], "fell_other": [3, 5, 3]},
}


def actions_table(
    rows: dict[str, dict[tuple[int, int], tuple[int, int, int]]] = ROWS,
    categories: list[str] | None = None,
    categorical: bool = True,
) -> pd.DataFrame:
    """The ``actions`` table as the game writes it, its rows shuffled."""
    records = [
        {"game": game, "seat": seat, "action": action, "done": d, "fell_own": o, "fell_other": x}
        for action, by_seat in rows.items()
        for (game, seat), (d, o, x) in by_seat.items()
    ]
    table = pd.DataFrame(records)
    table["seat"] = table["seat"].astype(np.int8)
    for column in ("done", "fell_own", "fell_other"):
        table[column] = table[column].astype(np.int32)
    if categorical:
        table["action"] = pd.Categorical(table["action"], categories=categories or list(rows))
    order = np.random.default_rng(1).permutation(len(table))
    return table.iloc[order].reset_index(drop=True)


def triple(row: pd.Series, name: str) -> tuple[float, float, float]:
    return row[name], row[f"{name}_low"], row[f"{name}_high"]


def hand_ratio(y: list[float], x: list[float]) -> tuple[float, float, float]:
    """Ratio of sums with the delta-method interval, written out for three games, cut at
    zero (a count per use cannot be negative)."""
    ratio = sum(y) / sum(x)
    residuals = [a - ratio * b for a, b in zip(y, x, strict=True)]
    variance = 3 / 2 * sum(r * r for r in residuals) / sum(x) ** 2
    half = Z * math.sqrt(variance)
    return ratio, max(ratio - half, 0.0), ratio + half


def test_action_usefulness_follows_the_table_s_action_order() -> None:
    table = action_usefulness(actions_table())
    assert table["action"].tolist() == ACTIONS
    assert table["games"].tolist() == [3] * 5
    expected = ["action", "games"] + [
        f"{name}{suffix}"
        for name in ("per_game", "fell_own_per_use", "fell_other_per_use")
        for suffix in ("", "_low", "_high")
    ]
    assert sorted(table.columns) == sorted(expected)


def test_uses_per_game_sum_the_seats_and_average_the_games() -> None:
    table = action_usefulness(actions_table()).set_index("action")
    # Advance: 3, 3, 1 uses in games 0, 1, 2 -> 7/3. Deviations 2/3, 2/3, -4/3: variance
    # (4 + 4 + 16) / 9 / 2 = 4/3, standard error sqrt(4/3 / 3) = 2/3; the low end (-0.54)
    # is cut at 0.
    expected = (7 / 3, 0.0, 7 / 3 + T2 * 2 / 3)
    assert triple(table.loc["advance"], "per_game") == pytest.approx(expected, abs=1e-12)
    # Push: 9, 11, 8 -> 28/3. Deviations -1/3, 5/3, -4/3: variance 42/9 / 2 = 7/3,
    # standard error sqrt(7/9) = sqrt(7)/3.
    half = T2 * math.sqrt(7) / 3
    expected = (28 / 3, 28 / 3 - half, 28 / 3 + half)
    assert triple(table.loc["push"], "per_game") == pytest.approx(expected, abs=1e-12)
    # Swap: 3, 2, 4 -> 3, variance 1, standard error 1/sqrt(3).
    half = T2 / math.sqrt(3)
    assert triple(table.loc["swap"], "per_game") == pytest.approx((3, 3 - half, 3 + half))
    # Move: 0, 1, 0 -> 1/3, variance 1/3, standard error 1/3; the low end is cut at 0.
    assert triple(table.loc["move"], "per_game") == pytest.approx((1 / 3, 0.0, 1 / 3 + T2 / 3))
    for action in ACTIONS:
        assert triple(table.loc[action], "per_game") == pytest.approx(
            mean_interval(np.array(PER_GAME[action]["done"]), floor=0.0), abs=1e-12, nan_ok=True
        ), action


def test_prisoners_fallen_per_use_worked_by_hand() -> None:
    table = action_usefulness(actions_table()).set_index("action")
    # Advance, own colour: 1, 0, 0 fallen over 3, 3, 1 uses: 1/7. Residuals 4/7, -3/7,
    # -1/7 (squares 26/49); variance 3/2 × 26/49 / 49 = 39/2401.
    # The low end (-0.10) is cut at 0.
    half = Z * math.sqrt(39) / 49
    assert triple(table.loc["advance"], "fell_own_per_use") == pytest.approx(
        (1 / 7, 0.0, 1 / 7 + half), abs=1e-12
    )
    # Advance, other colours: 1, 2, 0 -> 3/7. Residuals -2/7, 5/7, -3/7 (squares 38/49);
    # variance 3/2 × 38/49 / 49 = 57/2401.
    half = Z * math.sqrt(57) / 49
    assert triple(table.loc["advance"], "fell_other_per_use") == pytest.approx(
        (3 / 7, 3 / 7 - half, 3 / 7 + half), abs=1e-12
    )
    # Push, own colour: 1, 1, 1 over 9, 11, 8 -> 3/28. Residuals 1/28, -5/28, 4/28
    # (squares 42/784); variance 3/2 × 42/784 / 784, standard error sqrt(63)/784.
    half = Z * math.sqrt(63) / 784
    assert triple(table.loc["push"], "fell_own_per_use") == pytest.approx(
        (3 / 28, 3 / 28 - half, 3 / 28 + half), abs=1e-12
    )
    # Push, other colours: 3, 5, 3 -> 11/28. Residuals -15/28, 19/28, -4/28 (squares
    # 602/784); variance 3/2 × 602/784 / 784, standard error sqrt(903)/784.
    half = Z * math.sqrt(903) / 784
    assert triple(table.loc["push"], "fell_other_per_use") == pytest.approx(
        (11 / 28, 11 / 28 - half, 11 / 28 + half), abs=1e-12
    )
    # Swap and move never make anyone fall: 0 with a zero-width interval.
    for action in ("swap", "move"):
        for name in ("fell_own_per_use", "fell_other_per_use"):
            assert triple(table.loc[action], name) == (0.0, 0.0, 0.0), (action, name)


@pytest.mark.parametrize("action", ["swap", "advance", "move", "push"])
@pytest.mark.parametrize("column", ["fell_own", "fell_other"])
def test_per_use_figures_are_ratios_of_sums(action: str, column: str) -> None:
    table = action_usefulness(actions_table()).set_index("action")
    got = triple(table.loc[action], f"{column}_per_use")
    y, x = PER_GAME[action][column], PER_GAME[action]["done"]
    assert got == pytest.approx(hand_ratio(y, x), abs=1e-12)
    assert got == pytest.approx(ratio_interval(np.array(y), np.array(x), floor=0.0), abs=1e-12)


def test_an_action_never_done_gives_nan_ratios() -> None:
    table = action_usefulness(actions_table()).set_index("action")
    row = table.loc["nothing"]
    assert row["games"] == 3
    assert triple(row, "per_game") == (0.0, 0.0, 0.0)  # zero uses in every game
    for name in ("fell_own_per_use", "fell_other_per_use"):
        assert all(math.isnan(v) for v in triple(row, name)), name


def test_an_action_without_rows_does_not_break_the_table() -> None:
    table = action_usefulness(actions_table(categories=[*ACTIONS, "spin"])).set_index("action")
    assert list(table.index) == [*ACTIONS, "spin"]
    assert all(math.isnan(v) for v in triple(table.loc["spin"], "fell_own_per_use"))
    assert table.loc["advance", "fell_other_per_use"] == pytest.approx(3 / 7)
    assert table.loc["push", "per_game"] == pytest.approx(28 / 3)


def test_a_plain_action_column_keeps_the_order_of_first_appearance() -> None:
    shuffled = actions_table(categorical=False)
    table = action_usefulness(shuffled)
    assert table["action"].tolist() == list(pd.unique(shuffled["action"]))
    assert sorted(table["action"]) == sorted(ACTIONS)
    by_category = action_usefulness(actions_table()).set_index("action")
    pd.testing.assert_frame_equal(
        table.set_index("action").loc[ACTIONS], by_category, check_names=False
    )


def test_a_game_s_seats_are_summed_not_averaged() -> None:
    # One seat's uses doubled in game 0 changes the per-game mean by that many uses / 3.
    rows = {name: dict(by_seat) for name, by_seat in ROWS.items()}
    rows["push"][(0, 1)] = (8, 1, 1)  # 4 more pushes: per game 13, 11, 8
    table = action_usefulness(actions_table(rows)).set_index("action")
    assert table.loc["push", "per_game"] == pytest.approx(32 / 3)
    assert table.loc["push", "fell_own_per_use"] == pytest.approx(3 / 32)
