"""Restricted play in Lifeboats: a seat that may never play a captain's hat."""

from __future__ import annotations

import pytest

from balance.analyses.restricted import restricted_play
from balance.api import make_setup
from balance.core.errors import BalanceError
from balance.games.lifeboats.game import GAME


def test_the_hat_is_what_restricted_play_forbids() -> None:
    assert tuple(GAME.actions()) == ("hat",)
    GAME.check_restricted(["hat"])
    with pytest.raises(BalanceError, match="only hat"):
        GAME.check_restricted(["leak"])
    with pytest.raises(BalanceError, match="repeat"):
        GAME.check_restricted(["hat", "hat"])


def test_a_hatkeeper_without_hats_wins_less() -> None:
    """The hatkeeper's plan rests on its hats: barred from them it must lose ground."""
    value = restricted_play(make_setup("lifeboats", 4, 3, ["hatkeeper"]), games=3000)
    row = value.table.set_index("action").loc["hat"]
    assert row["games"] == 3000
    assert row["high"] < 0 and bool(row["significant"])
    assert "hat" in value.text() and "may never play the vote option" in value.text()


def test_replay_names_the_seat_without_hats() -> None:
    setup = make_setup("lifeboats", 3, 5, ["random"], restricted=["hat"])
    text = GAME.replay(setup, 4)
    assert "restricted play: seat 1 may never play hat" in text
    assert "Restricted play: seat 1 may never play a hat" in text
    assert "seat 1 plays a hat" not in text
