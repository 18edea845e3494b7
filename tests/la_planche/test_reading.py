"""The detective's reading: its belief about each opponent's colour, checked by turn."""

from __future__ import annotations

import math

import pytest

from balance.api import make_setup
from balance.games.la_planche.reading import (
    belief,
    detective_reading,
    reading_chart,
    top_guess_right,
)

Y, R, G, B = range(4)


def test_belief_is_a_softmax_of_the_evidence_over_the_colours_not_its_own() -> None:
    # Evidence of one opponent: it moved red toward the ship twice, blue toward the shark.
    probability = belief([0, 2, 0, -1], own=Y, sharpness=0.5)
    weights = [0.0, math.exp(1.0), 1.0, math.exp(-0.5)]
    assert probability == pytest.approx([w / sum(weights) for w in weights])
    assert probability[Y] == 0.0
    # No evidence: an even belief over the three colours.
    assert belief([0, 0, 0, 0], own=G, sharpness=2.0) == pytest.approx([1 / 3, 1 / 3, 0, 1 / 3])


def test_a_tie_at_the_top_counts_its_share() -> None:
    assert top_guess_right([0.0, 0.6, 0.3, 0.1], truth=R) == 1.0
    assert top_guess_right([0.0, 0.6, 0.3, 0.1], truth=G) == 0.0
    assert top_guess_right([1 / 3, 1 / 3, 0.0, 1 / 3], truth=B) == pytest.approx(1 / 3)
    assert top_guess_right([0.4, 0.4, 0.0, 0.2], truth=B) == 0.0


def _reading(strategies: list[str], games: int, min_games: int = 10):
    setup = make_setup("la-planche", len(strategies), seed=3, strategies=strategies)
    return setup, detective_reading(setup, games, min_games)


def _at_chance(table) -> None:
    # A random player's actions do not depend on its colour: the reading stays at chance.
    assert (table["checks"] == 3 * table["games"]).all()
    inside = (table["low"] < 1 / 3) & (table["high"] > 1 / 3)
    assert inside.mean() >= 0.8, table[["turn", "rate", "low", "high"]]


def _read(table) -> None:
    # A protector moves its own colour toward the ship: by turn 8 the detective knows.
    later = table[table["turn"] >= 8]
    assert len(later) and (later["low"] > 0.6).all(), later[["turn", "rate", "low"]]
    assert (later["belief"] > 1 / 3).all()


def test_random_opponents_give_nothing_to_read() -> None:
    _, table = _reading(["detective", "random", "random", "random"], 20)
    assert len(table) >= 15 and (table["games"] >= 10).all()
    _at_chance(table)


def test_protectors_give_their_colours_away() -> None:
    setup, table = _reading(["detective", "protector", "protector", "protector"], 20)
    _read(table)
    chart = reading_chart(table, setup, 20)
    assert chart.name == "16-detective-reading"
    assert "first 20 games" in chart.figure.texts[0].get_text()


def test_no_detective_no_reading() -> None:
    _, table = _reading(["protector", "random"], games=5)
    assert table.empty


@pytest.mark.slow
def test_the_reading_over_more_games() -> None:
    _at_chance(_reading(["detective", "random", "random", "random"], 400, 30)[1])
    _read(_reading(["detective", "protector", "protector", "protector"], 400, 30)[1])
