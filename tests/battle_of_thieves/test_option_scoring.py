"""The shipped heuristics' loop (``kit.scored_option_nb``) writes out the scoring of
``kit.option_value_nb``, the helper a user's strategy calls: at every decision of random
games, under each shipped heuristic's plan, both must choose the same option."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from balance.api import make_setup
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves.engine import content_arrays
from balance.games.battle_of_thieves.kit import TAKE, option_value_nb, scored_option_nb
from balance.games.battle_of_thieves.layout import DECK_SIZE, MAX_HAND, MAX_OPTIONS, STATE
from balance.games.battle_of_thieves.search_nb import step_nb
from balance.random_nb import below_nb, seed_stream_nb

pytestmark = pytest.mark.slow  # compiles option_value_nb into its own loop (about 30 s)

#: The plans of the shipped heuristics with their default parameters (and a card bar
#: low enough that cards are played).
PLANS = np.array(
    [
        (60.0, 100.0, 25.0, 40.0, -5.0, 8.0, 30.0, 2.0, 10.0, 0.5, 20.0),
        (60.0, 100.0, 15.0, 12.0, 35.0, 20.0, 10.0, 1.0, 10.0, 0.5, 2.0),
        (30.0, 100.0, 60.0, 20.0, -5.0, 10.0, 25.0, 2.0, 10.0, -5.0, 30.0),
        (40.0, 100.0, 30.0, 25.0, 45.0, 60.0, 10.0, 1.0, 10.0, 0.5, 2.0),
    ]
)


@njit
def _by_option_value(view, options, count, seat, plan):
    """:func:`kit.best_option_nb`'s rule with each option scored by ``option_value_nb``."""
    if options[count - 1, 0] == TAKE:
        best, best_value = 0, -1.0e9
        for k in range(count):
            value = option_value_nb(view, options[k], seat, plan)
            if value > best_value:
                best, best_value = k, value
        return best
    best, best_value = count - 1, 0.0
    for k in range(count - 1):
        value = option_value_nb(view, options[k], seat, plan)
        if value > best_value:
            best, best_value = k, value
    return best


@njit
def _disagreements(rules, content, seed, games, plans, counts):
    """Random games; at each decision of two options or more, every plan's choice by both.
    ``counts`` int64 ``(1,)``: choices compared. Returns the choices that differ."""
    pos = nb.new_position_nb()
    derived = nb.derive_nb(content)
    rng = np.zeros((nb.N_STREAMS, 4), dtype=np.uint64)
    pick = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(pick, seed, 0, 99)
    dice = (rng[nb.DICE_STREAM], np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64))
    options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    deck_view = np.zeros((2, DECK_SIZE), dtype=np.int64)
    hand_view = np.zeros((2, MAX_HAND), dtype=np.int64)
    bad = 0
    for game in range(games):
        for stream in range(nb.N_STREAMS):
            seed_stream_nb(rng[stream], seed, game, stream)
        nb.set_up_nb(pos, content, derived, rules, rng)
        nb.start_turn_nb(pos, content, derived, rules, dice)
        while not pos[6][STATE.OVER]:
            count = nb.legal_options_nb(pos, content, derived, rules, options)
            seat = (pos[6][STATE.TURN] - 1) % 2
            if count >= 2:
                nb.fill_view_nb(pos, seat, deck_view, hand_view)
                view = (
                    pos[0],
                    pos[1],
                    deck_view,
                    hand_view,
                    pos[4],
                    pos[5],
                    pos[6],
                    rules,
                    content,
                )
                for p in range(plans.shape[0]):
                    plan = (
                        plans[p, 0], plans[p, 1], plans[p, 2], plans[p, 3], plans[p, 4],
                        plans[p, 5], plans[p, 6], plans[p, 7], plans[p, 8], plans[p, 9],
                        plans[p, 10],
                    )  # fmt: skip
                    ours = scored_option_nb(view, options, count, seat, plan, False, 0.0, 0.0)
                    counts[0] += 1
                    if ours != _by_option_value(view, options, count, seat, plan):
                        bad += 1
            k = below_nb(pick, count) if count >= 2 else 0
            step_nb(
                pos,
                content,
                derived,
                rules,
                dice,
                options[k, 0],
                options[k, 1],
                options[k, 2],
                options[k, 3],
            )
    return bad


@pytest.mark.parametrize(
    "decks", ["cannon-battery,boarding-party", "island-raiders,cannon-battery"]
)
def test_the_heuristics_loop_chooses_as_option_value_does(decks: str) -> None:
    setup = make_setup("battle-of-thieves", 2, 1, ["random"], (), [("decks", decks)])
    rules = setup.rules.to_array()
    content = content_arrays(setup.rules.content())
    counts = np.zeros(1, dtype=np.int64)
    assert _disagreements(rules, content, 11, 80, PLANS, counts) == 0
    assert counts[0] > 5000
