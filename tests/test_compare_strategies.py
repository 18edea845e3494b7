"""``balance compare`` per strategy: win rate (and score) of every strategy when strategies
differ, and the part of a win-rate difference that comes from shared wins."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from balance.analyses.compare import _shared_note, _strategy_per_game, compare
from balance.api import make_setup
from balance.stats.intervals import share_interval
from balance.stats.metrics import Metric, estimate, paired_table

# Three seats, strategies survivor, survivor, aggressor, seated in every order: games 0-2
# shift the listed order round the table, so aggressor sits in seat 2 in game 0, seat 1 in
# game 1 and seat 0 in game 2; game 3 plays the order survivor, aggressor, survivor.
SETUP = make_setup(
    "walk-the-plank", 3, strategies=["survivor", "survivor", "aggressor"], rotate_seats=True
)
INDEX = np.arange(4)
#   game 0: seats 0 and 2 won (a shared win): survivor 1 of 2 seats, aggressor 1 of 1
#   game 1: seat 1 won alone (aggressor's seat): survivor 0 of 2, aggressor 1 of 1
#   game 2: seat 1 won alone: survivor 1 of 2, aggressor 0 of 1
#   game 3: nobody won
WON = np.array([[1, 0, 1], [0, 1, 0], [0, 1, 0], [0, 0, 0]], dtype=bool)
SCORES = pd.DataFrame({"score_0": [4, 1, 6, 0], "score_1": [2, 8, 3, 1], "score_2": [9, 5, 0, 2]})


def test_strategy_columns_on_a_hand_made_table() -> None:
    table, chosen = _strategy_per_game(SETUP, INDEX, WON, SCORES)
    assert [m.name for m in chosen] == [
        "strategy survivor win rate",
        "strategy survivor score",
        "strategy aggressor win rate",
        "strategy aggressor score",
    ]
    assert chosen[0] == Metric(
        "strategy survivor win rate", "strategy_won_0", "seat share", "", "strategy_shared_won_0", 2
    )
    assert table["strategy_won_0"].tolist() == [0.5, 0.0, 0.5, 0.0]
    assert table["strategy_won_1"].tolist() == [1.0, 1.0, 0.0, 0.0]
    # Only game 0 had two winners: one of survivor's two seats, aggressor's seat.
    assert table["strategy_shared_won_0"].tolist() == [0.5, 0.0, 0.0, 0.0]
    assert table["strategy_shared_won_1"].tolist() == [1.0, 0.0, 0.0, 0.0]
    # Aggressor's seat: 2, 1, 0, 1 in games 0..3; survivor holds the other two.
    assert [int(SETUP.lineup.strategy_index(3, seat)) for seat in range(3)] == [0, 2, 1]
    assert table["strategy_score_1"].tolist() == [9.0, 8.0, 6.0, 1.0]
    assert table["strategy_score_0"].tolist() == [3.0, 3.0, 1.5, 1.0]


def test_no_strategy_rows_when_every_seat_plays_the_same() -> None:
    same = make_setup("walk-the-plank", 3, strategies=["survivor"], rotate_seats=True)
    table, chosen = _strategy_per_game(same, INDEX, WON, SCORES)
    assert chosen == [] and len(table) == 4 and table.columns.empty


def test_no_score_rows_for_a_game_without_seat_scores() -> None:
    _, chosen = _strategy_per_game(SETUP, INDEX, WON, pd.DataFrame(index=range(4)))
    assert [m.kind for m in chosen] == ["seat share", "seat share"]


def test_a_seat_share_is_the_clustered_share_of_the_summary() -> None:
    shares = np.array([0.5, 0.0, 0.5, 1.0, 0.5])
    value, low, high = estimate(shares, "seat share", 2)
    # Two seats a game: wins over plays, games as clusters.
    assert (value, low, high) == share_interval(2 * shares, np.full(5, 2.0))
    assert value == pytest.approx(0.5)


def test_paired_table_gives_the_shared_part_of_a_difference() -> None:
    base = pd.DataFrame(
        {"won": [1.0, 0.0, 0.5, 0.0], "shared": [0.0, 0.0, 0.5, 0.0], "won_0": [1, 0, 1, 0]}
    )
    variant = pd.DataFrame(
        {"won": [1.0, 0.5, 1.0, 0.5], "shared": [0.0, 0.5, 1.0, 0.5], "won_0": [1, 0, 1, 0]}
    )
    metric = Metric("strategy A win rate", "won", "seat share", shared="shared")
    table = paired_table({"base": base, "v": variant}, [metric], ["won_0"])
    row = table[(table["run"] == "v") & (table["metric"] == metric.name)].iloc[0]
    # Win differences 0, .5, .5, .5 (mean .375); shared differences 0, .5, .5, .5 too.
    assert row["difference"] == pytest.approx(0.375)
    assert row["shared_difference"] == pytest.approx(0.375)
    assert math.isnan(table[table["run"] == "base"].iloc[0]["shared_difference"])


def test_a_difference_driven_by_shared_wins_is_labelled() -> None:
    clear = {"difference": 0.02, "diff_low": 0.01, "diff_high": 0.03}
    assert _shared_note({**clear, "shared_difference": 0.015}) == (
        "  shared +1.50 pp, driven by shared wins"
    )
    below = {"difference": -0.02, "diff_low": -0.03, "diff_high": -0.01}
    assert _shared_note({**below, "shared_difference": -0.015}) == (
        "  shared -1.50 pp, driven by shared wins"
    )
    assert _shared_note({**clear, "shared_difference": 0.004}) == "  shared +0.40 pp"
    assert _shared_note({**clear, "shared_difference": float("nan")}) == ""


def test_a_difference_whose_interval_holds_zero_is_driven_by_nothing() -> None:
    # -0.02 pp [-0.39, +0.36] with -0.01 pp from shared wins: a null difference.
    null = {"difference": -0.0002, "diff_low": -0.0039, "diff_high": 0.0036}
    assert _shared_note({**null, "shared_difference": -0.0001}) == "  shared -0.01 pp"


def test_compare_shows_every_strategy_of_a_mixed_table() -> None:
    comparison = compare(
        "lifeboats",
        4,
        300,
        ["base", "hats=0"],
        strategies=["steward", "hatkeeper", "swimmer", "random"],
        rotate_seats=True,
        threads=1,
    )
    table = comparison.table
    for label in ("steward", "hatkeeper", "swimmer", "random"):
        for what in ("win rate", "score"):
            assert (table["metric"] == f"strategy {label} {what}").sum() == 2
    # The rate per run is the summary's strategy win rate, over the same games.
    rows = table[table["metric"] == "strategy hatkeeper win rate"].set_index("run")
    for run in ("base", "hats=0"):
        summary = {r["strategy"]: r for r in comparison.summaries[run]["strategy_win_rate"]}
        assert rows.loc[run, "value"] == pytest.approx(summary["hatkeeper"]["rate"], abs=1e-12)
        assert [rows.loc[run, "low"], rows.loc[run, "high"]] == pytest.approx(
            summary["hatkeeper"]["ci95"], abs=1e-12
        )
    text = comparison.text()
    assert "strategy hatkeeper win rate" in text and "strategy hatkeeper score" in text
