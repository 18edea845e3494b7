"""The game loop keeps a heuristic's view from one decision to the next
(``engine_nb.refresh_view_nb``): it must always equal the view filled from scratch
(``engine_nb.fill_view_nb``), for either seat, through draws and from game to game."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from balance.api import make_setup
from balance.core.random_nb import below_nb, seed_stream_nb
from balance.games.battle_of_thieves import engine
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves.engine import content_arrays
from balance.games.battle_of_thieves.layout import DECK_SIZE, MAX_HAND, MAX_OPTIONS, STATE
from balance.games.battle_of_thieves.search_nb import step_nb

# The kernels as the shipped strategies play them: their dispatchers bound in.
nb = engine.DISPATCH.bound(nb)

#: Compiles its own loop of the engine's steps (about 15 s on two busy cores).
pytestmark = pytest.mark.slow


@njit(cache=True)
def _mismatches(rules, content, seed, games, counts):
    """Random games (seed ``seed``): at every step, both seats' kept views refreshed and
    compared with views filled from scratch. ``counts`` int64 ``(3,)``: positions
    compared, deck rows sorted again by the refresh, deck rows kept. Returns the number of
    positions at which a refreshed view differs from the filled one."""
    pos = nb.new_position_nb()
    derived = nb.derive_nb(content)
    rng = np.zeros((nb.N_STREAMS, 4), dtype=np.uint64)
    pick = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(pick, seed, 0, 99)
    dice = (rng[nb.DICE_STREAM], np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64))
    options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    kept = (np.zeros((2, DECK_SIZE), dtype=np.int64), np.zeros((2, MAX_HAND), dtype=np.int64))
    fresh = (np.zeros((2, DECK_SIZE), dtype=np.int64), np.zeros((2, MAX_HAND), dtype=np.int64))
    bad = 0
    for game in range(games):
        for stream in range(nb.N_STREAMS):
            seed_stream_nb(rng[stream], seed, game, stream)
        nb.set_up_nb(pos, content, derived, rules, rng)
        nb.forget_view_nb(kept[0])  # as the game loop does at its start
        nb.start_turn_nb(pos, content, derived, rules, dice)
        while not pos[6][STATE.OVER]:
            count = nb.legal_options_nb(pos, content, derived, rules, options)
            seat = (pos[6][STATE.TURN] - 1) % 2
            before = kept[0].copy()
            nb.refresh_view_nb(pos, seat, kept[0], kept[1])
            nb.fill_view_nb(pos, seat, fresh[0], fresh[1])
            counts[0] += 1
            for s in range(2):
                if np.array_equal(before[s], kept[0][s]):
                    counts[2] += 1
                else:
                    counts[1] += 1
            if not (np.array_equal(kept[0], fresh[0]) and np.array_equal(kept[1], fresh[1])):
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


def test_refreshed_view_equals_filled_view() -> None:
    setup = make_setup(
        "battle-of-thieves", 2, 1, ["random"], (), [("decks", "cannon-battery,boarding-party")]
    )
    rules = setup.rules.to_array()
    content = content_arrays(setup.rules.content())
    counts = np.zeros(3, dtype=np.int64)
    assert _mismatches(rules, content, 7, 60, counts) == 0
    positions, sorted_again, kept = counts
    assert positions > 1000
    assert sorted_again > 120  # at least each game's first rows, both seats
    assert kept > positions  # most rows are kept from one step to the next
