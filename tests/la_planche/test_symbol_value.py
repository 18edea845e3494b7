"""Restricted play of a symbol, and how often each symbol is chosen when it is a choice.

Restricted play (docs/la-planche.md, "What each symbol is worth"): a seat that may never
choose a symbol plays the other one whenever the spinner offers both and both have
options; when the symbol is the only one with options (beside a skull, or twice) it is
no choice, and the seat plays it.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.la_planche import random as random_strategy
from cli_helpers import simulate_json

from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy
from balance.games.la_planche.engine import forbidden_by_seat, play_games
from balance.games.la_planche.engine_nb import ActionStat
from balance.games.la_planche.reference import ADVANCE, MOVE, SKULL, SWAP
from balance.games.la_planche.rules import LaPlancheRules

START = "YRGB" + "." * 14


def test_a_forbidden_symbol_beside_another_is_never_chosen(engine, position) -> None:
    pos = position(START)
    # Swap is forbidden: Move is played without asking which symbol, whichever is first.
    for spun in ((SWAP, MOVE), (MOVE, SWAP)):
        _, out = engine.turn(
            pos, *spun, symbol_pick=0, option_pick=2, forbidden=SWAP, expect_asked=["choose"]
        )
        assert (out.action, out.option, out.choice) == (MOVE, (2, 4), True)
    # A symbol not forbidden is the player's choice as usual.
    _, out = engine.turn(
        pos, SWAP, ADVANCE, symbol_pick=1, forbidden=MOVE, expect_asked=["symbol", "choose"]
    )
    assert (out.action, out.choice) == (ADVANCE, True)


def test_a_forbidden_symbol_without_a_choice_is_played(engine, position) -> None:
    pos = position(START)
    _, out = engine.turn(pos, MOVE, SKULL, option_pick=1, forbidden=MOVE, expect_asked=["choose"])
    assert (out.action, out.choice) == (MOVE, False)
    _, out = engine.turn(pos, MOVE, MOVE, option_pick=1, forbidden=MOVE, expect_asked=["choose"])
    assert (out.action, out.choice) == (MOVE, False)


def test_the_restricted_seat_never_chooses_its_symbol_and_the_others_do() -> None:
    seats = tuple(SeatStrategy(random_strategy, ()) for _ in range(3))
    lineup = Lineup(seats, restricted=("advance",))
    records = play_games(LaPlancheRules(), 3, seed=2, n_games=300, lineup=lineup)
    restricted = forbidden_by_seat(lineup, np.arange(300)) == ADVANCE  # (G, n)
    assert (restricted.sum(axis=1) == 1).all()
    chosen = records.actions[:, :, ADVANCE, ActionStat.CHOSEN]
    offered = records.actions[:, :, ADVANCE, ActionStat.OFFERED]
    assert chosen[restricted].sum() == 0 and offered[restricted].sum() > 100
    assert chosen[~restricted].sum() > 0.4 * offered[~restricted].sum()


@pytest.fixture(scope="module")
def mixed() -> dict:
    return simulate_json(
        "la-planche", "-p", "3", "-g", "1500", "-s", "5", "--rotate-seats",
        "--strategy", "random", "--strategy", "protector", "--strategy", "detective",
    )  # fmt: skip


def test_random_chooses_each_symbol_half_the_time(mixed) -> None:
    for symbol, row in mixed["symbol_choice"]["random"].items():
        low, high = row["chosen_share_ci95"]
        assert low < 0.5 < high, symbol
        assert row["offered"] > 1000 and low < row["chosen_share"] < high


def test_the_looking_ahead_strategies_prefer_swap(mixed) -> None:
    # A swap can always send an opponent's prisoner toward the shark and the player's own
    # toward the ship; protector and detective choose it most of the time when offered.
    for label in ("protector", "detective"):
        rows = mixed["symbol_choice"][label]
        assert rows["swap"]["chosen_share_ci95"][0] > 0.75, label
        shares = {symbol: row["chosen_share"] for symbol, row in rows.items()}
        assert max(shares, key=shares.get) == "swap", shares
