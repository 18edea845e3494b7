"""Lifeboats with rotated seats: the order strategies are listed in changes no strategy's
win rate beyond noise, and the captain's hat is valued for every strategy.

With no hats (``hats=0``) the hatkeeper plays exactly as the steward, so the two must win
equally often in every listing order. Seating by cyclic shifts alone kept each strategy's
clockwise neighbours, and the one listed first won 30.6% against 38.8% (2,400 games).
"""

from __future__ import annotations

import pytest
import seating_helpers as helpers

from balance import api
from balance.analyses.restricted import restricted_play

GAME = "lifeboats"
LISTED = ["hatkeeper", "steward", "swimmer", "random"]


@pytest.mark.parametrize(
    "listed", [LISTED, ["swimmer", "hatkeeper", "random", "steward"]], ids=["first", "apart"]
)
def test_hatless_hatkeeper_and_steward_win_alike_whatever_the_order(listed) -> None:
    # 2,400 games (100 times the 24 orders), paired game by game.
    made = helpers.setup(GAME, listed, seed=5, hats=0)
    assert abs(helpers.paired_z(made, 2_400, "hatkeeper", "steward")) < helpers.NOISE_Z


@pytest.mark.slow
def test_hatless_hatkeeper_and_steward_win_alike_long() -> None:
    for seed in (1, 2):
        made = helpers.setup(GAME, LISTED, seed=seed, hats=0)
        assert abs(helpers.paired_z(made, 24_000, "hatkeeper", "steward")) < helpers.NOISE_Z
        # the test sees the defect it guards against: cyclic shifts keep the neighbours
        cyclic = helpers.setup(GAME, LISTED, seed=seed, cyclic=True, hats=0)
        assert abs(helpers.paired_z(cyclic, 24_000, "hatkeeper", "steward")) > helpers.NOISE_Z


def _hat_value(listed: list[str], games: int, cyclic: bool) -> dict:
    """The hat's restricted-play row (value, interval, base win rate)."""
    made = helpers.setup(GAME, listed, seed=3, cyclic=cyclic)
    return restricted_play(made, games, actions=["hat"], threads=1).table.iloc[0].to_dict()


def _z(first: dict, second: dict) -> float:
    se = [(row["high"] - row["low"]) / (2 * 1.959964) for row in (first, second)]
    return (first["difference"] - second["difference"]) / (se[0] ** 2 + se[1] ** 2) ** 0.5


@pytest.mark.slow
def test_the_hat_is_valued_alike_whatever_the_listing_order() -> None:
    # Cyclic seating restricted only the first and third listed strategies at 4 players.
    swapped = ["steward", "hatkeeper", "swimmer", "random"]
    assert abs(_z(_hat_value(LISTED, 9_600, False), _hat_value(swapped, 9_600, False))) < 3.5
    assert abs(_z(_hat_value(LISTED, 9_600, True), _hat_value(swapped, 9_600, True))) > 3.5


def test_restricted_runs_withhold_the_hat_from_every_strategy_alike() -> None:
    # 96 games: every order with every seat restricted once, so every (seat, strategy)
    # pair is restricted 6 times, and the restricted seat never plays a hat.
    run = api.simulate(
        GAME,
        players=4,
        games=96,
        seed=3,
        strategies=LISTED,
        rotate_seats=True,
        restricted=["hat"],
        threads=1,
    )
    seats = run.seats
    seat = run.setup.lineup.restricted_seat(seats["game"].to_numpy())
    restricted = seats[seats["seat"].to_numpy() == seat]
    assert len(restricted) == 96 and (restricted["hats_used"] == 0).all()
    pairs = restricted.groupby(["seat", restricted["strategy"].astype(str)]).size()
    assert len(pairs) == 16 and set(pairs) == {6}
    assert (seats.loc[seats["seat"].to_numpy() != seat, "hats_used"] > 0).any()
