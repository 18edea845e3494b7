"""Walk the Plank card by card: hand-built positions, the exact position and outcome expected.

Every expected value is read off the rules in ``docs/walk-the-plank.md``; each test runs on both
engines (the ``engine`` fixture). Slots count from 0 in code: slot index 0 is the rules' slot 1.
Dice faces: Dolphin die 0..5 = 2, 3, 4, 5, shark, dolphin; Kraken die 0-2 calm, 3-4 giant
wave, 5 kraken.
"""

from __future__ import annotations

import pytest

from balance.games.walk_the_plank.cards import Card
from balance.games.walk_the_plank.reference import (
    JUMP,
    NOBODY,
    TOWARD_SEA,
    TOWARD_SHIP,
)
from balance.games.walk_the_plank.rules import WalkThePlankRules

PLAIN = WalkThePlankRules()
GHOST = WalkThePlankRules(ghost=True)
DOLPHIN = WalkThePlankRules(dolphin=True)
KRAKEN = WalkThePlankRules(kraken=True)

SLOT_1, SLOT_2, SLOT_3 = 0, 1, 2

# Dolphin die faces.
D2, D3, D4, D5, SHARK, DOLPHIN_FACE = range(6)
# Kraken die faces: one of each outcome (every calm face and both waves are tested below).
CALM, WAVE, KRAKEN_FACE = 0, 3, 5


# ---------------------------------------------------------------------------
# Shove Left / Shove Right / Shove Anyone
# ---------------------------------------------------------------------------


def test_shove_from_the_ship(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 3}, 1: {0: 3}, 2: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_LEFT, SLOT_1) == [(0, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_LEFT, (0, 1))
    assert new == position(3, 3, {0: {0: 3}, 1: {0: 2, 1: 1}, 2: {0: 3}})
    assert out == outcome()


def test_shove_left_and_right_skip_eliminated_players(engine, position, outcome) -> None:
    # Seats 1 and 3 are out. Left of seat 0, seat 1 is skipped: seat 2. Right of seat 0 is
    # seat 4, which has pirates but none on seat 0's tile: no option (seat 2 is not next).
    pos = position(5, 3, {0: {1: 1}, 2: {1: 1}, 4: {2: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_LEFT, SLOT_1) == [(1, 2)]
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_RIGHT, SLOT_1) == []
    # Seats 1, 3 and 4 are out: right of seat 0, seats 4 and 3 are skipped, seat 2 is shoved.
    pos = position(5, 3, {0: {1: 1}, 2: {1: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_RIGHT, SLOT_1) == [(1, 2)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_RIGHT, (1, 2))
    assert new == position(5, 3, {0: {1: 1}, 2: {2: 1}})
    assert out == outcome()


def test_shove_left_and_right_skip_the_ghost_player(engine, position, outcome) -> None:
    pos = position(
        4,
        3,
        {0: {1: 1}, 2: {1: 1}, 3: {1: 1}},
        ghost_seat=1,
        ghost_tile=1,
        ghost_active=True,
    )
    # Left of seat 0 is the ghost's seat 1: skipped, seat 2 is shoved.
    assert engine.options(pos, GHOST, 0, Card.SHOVE_LEFT, SLOT_1) == [(1, 2)]
    # Right of seat 2 is the ghost's seat 1: skipped, seat 0 is shoved.
    assert engine.options(pos, GHOST, 2, Card.SHOVE_RIGHT, SLOT_1) == [(1, 0)]
    new, out = engine.play(pos, GHOST, 2, Card.SHOVE_RIGHT, (1, 0))
    assert new == position(
        4,
        3,
        {0: {2: 1}, 2: {1: 1}, 3: {1: 1}},
        ghost_seat=1,
        ghost_tile=1,
        ghost_active=True,
    )
    assert out == outcome()


def test_two_players_shove_left_and_right_hit_the_same_player(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 2: 1}, 1: {0: 2, 2: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_LEFT, SLOT_1) == [(0, 1), (2, 1)]
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_RIGHT, SLOT_1) == [(0, 1), (2, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_RIGHT, (2, 1))
    assert new == position(2, 3, {0: {0: 1, 2: 1}, 1: {0: 2, 3: 1}})
    assert out == outcome()


def test_shove_anyone_forced_onto_own_pirate(engine, position, outcome) -> None:
    # No other pirate shares a tile with seat 0: it must shove one of its own, and only
    # where it has two (tile 2; tile 0 holds one).
    pos = position(3, 3, {0: {0: 1, 2: 2}, 1: {1: 2}, 2: {3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_ANYONE, SLOT_1) == [(2, 0)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_ANYONE, (2, 0))
    assert new == position(3, 3, {0: {0: 1, 2: 1, 3: 1}, 1: {1: 2}, 2: {3: 1}})
    assert out == outcome()


def test_shove_anyone_forced_own_pirate_off_the_last_tile(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {3: 2}, 1: {1: 1}, 2: {0: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_ANYONE, SLOT_1) == [(3, 0)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_ANYONE, (3, 0))
    assert new == position(3, 3, {0: {3: 1}, 1: {1: 1}, 2: {0: 1}})
    assert out == outcome(killed_own=1)


def test_shove_anyone_not_forced_when_another_pirate_is_there(engine, position, outcome) -> None:
    # Seat 0 has two on tile 2, but others' pirates share its tiles: no (t, self) option.
    pos = position(3, 3, {0: {0: 1, 2: 2}, 1: {2: 1}, 2: {0: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_ANYONE, SLOT_1) == [(0, 2), (2, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_ANYONE, (0, 2))
    assert new == position(3, 3, {0: {0: 1, 2: 2}, 1: {2: 1}, 2: {1: 1}})
    assert out == outcome()


def test_shove_at_the_last_tile_makes_a_pirate_fall(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 2, 3: 1}, 1: {0: 2, 3: 1}, 2: {3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.SHOVE_LEFT, SLOT_1) == [(0, 1), (3, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_LEFT, (3, 1))
    assert new == position(3, 3, {0: {0: 2, 3: 1}, 1: {0: 2}, 2: {3: 1}})
    assert out == outcome(killed_others=1)
    # Seat 2 (right of 0) loses its last pirate: out at once, and no ghost without the rule.
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_RIGHT, (3, 2))
    assert new == position(3, 3, {0: {0: 2, 3: 1}, 1: {0: 2, 3: 1}})
    assert out == outcome(killed_others=1, eliminated=[2])


# ---------------------------------------------------------------------------
# Drag to Sea / Pull to Ship
# ---------------------------------------------------------------------------


def test_drag_with_own_second_pirate(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 1: 2}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.DRAG_TO_SEA, SLOT_1) == [(0, 1), (1, 0)]
    new, out = engine.play(pos, PLAIN, 0, Card.DRAG_TO_SEA, (1, 0))
    assert new == position(2, 3, {0: {0: 1, 2: 2}, 1: {0: 3}})
    assert out == outcome()


def test_drag_own_pair_off_the_last_tile(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {3: 2}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.DRAG_TO_SEA, SLOT_1) == [(3, 0)]
    new, out = engine.play(pos, PLAIN, 0, Card.DRAG_TO_SEA, (3, 0))
    assert new == position(2, 3, {1: {0: 3}})
    assert out == outcome(killed_own=2, eliminated=[0])


def test_drag_another_player_off_the_last_tile(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 1, 3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.DRAG_TO_SEA, SLOT_1) == [(0, 2), (3, 1), (3, 2)]
    new, out = engine.play(pos, PLAIN, 0, Card.DRAG_TO_SEA, (3, 1))
    assert new == position(3, 3, {0: {0: 1}, 2: {0: 1, 3: 1}})
    assert out == outcome(killed_own=1, killed_others=1, eliminated=[1])


def test_pull_with_own_second_pirate(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 2: 2}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.PULL_TO_SHIP, SLOT_1) == [(2, 0)]
    new, out = engine.play(pos, PLAIN, 0, Card.PULL_TO_SHIP, (2, 0))
    assert new == position(2, 3, {0: {0: 1, 1: 2}, 1: {0: 3}})
    assert out == outcome(saved=2)


def test_drag_and_pull_have_no_option_when_your_pirate_is_alone(engine, position) -> None:
    # One pirate of seat 0 on the ship and one on tile 1, nobody else there.
    pos = position(3, 3, {0: {0: 1, 1: 1}, 1: {2: 2}, 2: {3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.DRAG_TO_SEA, SLOT_1) == []
    assert engine.options(pos, PLAIN, 0, Card.PULL_TO_SHIP, SLOT_1) == []


def test_pull_not_from_the_ship(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 2, 1: 1}, 1: {0: 1, 1: 1}})
    # Drag may start on the ship (own pair and seat 1 there); Pull only from tiles >= 1.
    assert engine.options(pos, PLAIN, 0, Card.DRAG_TO_SEA, SLOT_1) == [(0, 0), (0, 1), (1, 1)]
    assert engine.options(pos, PLAIN, 0, Card.PULL_TO_SHIP, SLOT_1) == [(1, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.PULL_TO_SHIP, (1, 1))
    assert new == position(2, 3, {0: {0: 3}, 1: {0: 2}})
    assert out == outcome(saved=2)


# ---------------------------------------------------------------------------
# Run / I Don't Want to Die
# ---------------------------------------------------------------------------


def test_run_from_the_ship_only_toward_sea(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 3}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.RUN, SLOT_1) == [(0, TOWARD_SEA)]
    new, out = engine.play(pos, PLAIN, 0, Card.RUN, (0, TOWARD_SEA))
    assert new == position(2, 3, {0: {0: 2, 1: 1}, 1: {0: 3}})
    assert out == outcome()


def test_run_toward_the_ship_saves(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {2: 1}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.RUN, SLOT_1) == [(2, TOWARD_SHIP), (2, TOWARD_SEA)]
    new, out = engine.play(pos, PLAIN, 0, Card.RUN, (2, TOWARD_SHIP))
    assert new == position(2, 3, {0: {1: 1}, 1: {0: 3}})
    assert out == outcome(saved=1)


def test_run_off_the_last_tile_falls(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.RUN, SLOT_1) == [
        (0, TOWARD_SEA),
        (3, TOWARD_SHIP),
        (3, TOWARD_SEA),
    ]
    new, out = engine.play(pos, PLAIN, 0, Card.RUN, (3, TOWARD_SEA))
    assert new == position(2, 3, {0: {0: 1}, 1: {0: 3}})
    assert out == outcome(killed_own=1)


def test_not_me_from_tile_1_only_one_step(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {1: 1}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.NOT_ME, SLOT_1) == [(1, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.NOT_ME, (1, 1))
    assert new == position(2, 3, {0: {0: 1}, 1: {0: 3}})
    assert out == outcome(saved=1)


def test_not_me_from_tiles_2_and_3(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {2: 1, 3: 1}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.NOT_ME, SLOT_1) == [(2, 1), (2, 2), (3, 1), (3, 2)]
    new, out = engine.play(pos, PLAIN, 0, Card.NOT_ME, (3, 2))
    assert new == position(2, 3, {0: {1: 1, 2: 1}, 1: {0: 3}})
    assert out == outcome(saved=1)
    new, out = engine.play(pos, PLAIN, 0, Card.NOT_ME, (2, 2))
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 3}})
    assert out == outcome(saved=1)


def test_no_options_when_all_on_the_ship(engine, position) -> None:
    pos = position(2, 3, {0: {0: 3}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.NOT_ME, SLOT_1) == []
    assert engine.options(pos, PLAIN, 0, Card.PULL_TO_SHIP, SLOT_1) == []


# ---------------------------------------------------------------------------
# Charge
# ---------------------------------------------------------------------------


def test_charge_in_slot_1_has_no_option(engine, position) -> None:
    pos = position(2, 3, {0: {0: 1, 1: 1, 3: 1}, 1: {2: 1}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_1) == []
    # The same card in slot 2 and slot 3: onto tile 1 (own), tile 2 (seat 1), jump from 3.
    expected = [(0, 0), (1, 1), (3, JUMP)]
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == expected
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_3) == expected


def test_charge_onto_an_empty_tile(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1}, 1: {2: 1}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(0, NOBODY)]
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (0, NOBODY))
    assert new == position(2, 3, {0: {1: 1}, 1: {2: 1}})
    assert out == outcome()


def test_charge_onto_own_pirates_pushes_your_own(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 1: 1}, 1: {3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(0, 0), (1, NOBODY)]
    # The charging pirate arrives on tile 1, then one of seat 0's pirates there moves on.
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (0, 0))
    assert new == position(2, 3, {0: {1: 1, 2: 1}, 1: {3: 1}})
    assert out == outcome()


def test_charge_onto_own_pirate_on_the_last_tile_kills_it(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {2: 1, 3: 1}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(2, 0), (3, JUMP)]
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (2, 0))
    assert new == position(2, 3, {0: {3: 1}, 1: {0: 3}})
    assert out == outcome(killed_own=1)


def test_charge_onto_other_players_one_option_per_victim(engine, position, outcome) -> None:
    # Seats 1 and 3 are on the arrival tile 2 (seat 0 too, but victims come first).
    pos = position(4, 3, {0: {1: 1, 2: 1}, 1: {2: 1}, 2: {0: 1}, 3: {2: 2}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(1, 1), (1, 3), (2, NOBODY)]
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (1, 3))
    assert new == position(4, 3, {0: {2: 2}, 1: {2: 1}, 2: {0: 1}, 3: {2: 1, 3: 1}})
    assert out == outcome()


def test_charge_from_the_last_tile_jumps(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {1: 1}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(0, 1), (3, JUMP)]
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (3, JUMP))
    assert new == position(2, 3, {0: {0: 1}, 1: {1: 1}})
    assert out == outcome(killed_own=1)


def test_charge_pushes_a_victim_off_the_last_tile(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {2: 1}, 1: {0: 1, 3: 1}})
    assert engine.options(pos, PLAIN, 0, Card.CHARGE, SLOT_2) == [(2, 1)]
    new, out = engine.play(pos, PLAIN, 0, Card.CHARGE, (2, 1))
    assert new == position(2, 3, {0: {3: 1}, 1: {0: 1}})
    assert out == outcome(killed_others=1)


# ---------------------------------------------------------------------------
# Extend Plank / Retract Plank
# ---------------------------------------------------------------------------


def test_retract_at_one_tile_has_no_option(engine, position) -> None:
    pos = position(2, 1, {0: {0: 1, 1: 1}, 1: {1: 2}})
    assert PLAIN.plank_min == 1
    assert engine.options(pos, PLAIN, 0, Card.RETRACT_PLANK, SLOT_1) == []
    # With plank_min = 2, a plank of 2 cannot be retracted either.
    rules = WalkThePlankRules(plank_min=2, plank_start=2)
    pos = position(2, 2, {0: {2: 1}, 1: {2: 2}})
    assert engine.options(pos, rules, 0, Card.RETRACT_PLANK, SLOT_1) == []


def test_retract_drops_every_pirate_on_the_last_tile(engine, position, outcome) -> None:
    pos = position(4, 3, {0: {0: 1, 3: 1}, 1: {3: 2}, 2: {1: 1, 3: 1}, 3: {2: 1}})
    assert engine.options(pos, PLAIN, 0, Card.RETRACT_PLANK, SLOT_1) == [(3, NOBODY)]
    new, out = engine.play(pos, PLAIN, 0, Card.RETRACT_PLANK, (3, NOBODY))
    assert new == position(4, 2, {0: {0: 1}, 2: {1: 1}, 3: {2: 1}})
    assert out == outcome(killed_own=1, killed_others=3, eliminated=[1])


@pytest.mark.parametrize(
    ("round_", "blocked_through", "expected"),
    [
        (5, 6, []),  # the Dolphin face came up in round 5: blocked this round...
        (6, 6, []),  # ...and to the end of the next one
        (7, 6, [(3, NOBODY)]),  # free again after that
    ],
)
def test_retract_blocked_after_a_dolphin_face(
    engine, position, round_, blocked_through, expected
) -> None:
    pos = position(
        2,
        3,
        {0: {3: 1}, 1: {0: 2}},
        round=round_,
        dolphin_rolled=True,
        retract_blocked_through=blocked_through,
    )
    assert engine.options(pos, DOLPHIN, 0, Card.RETRACT_PLANK, SLOT_1) == expected


def test_extend_at_three_has_no_option(engine, position) -> None:
    pos = position(2, 3, {0: {0: 3}, 1: {0: 3}})
    assert engine.options(pos, PLAIN, 0, Card.EXTEND_PLANK, SLOT_1) == []


def test_extend_at_two(engine, position, outcome) -> None:
    pos = position(2, 2, {0: {0: 1, 2: 2}, 1: {1: 3}})
    assert engine.options(pos, PLAIN, 0, Card.EXTEND_PLANK, SLOT_1) == [(3, NOBODY)]
    new, out = engine.play(pos, PLAIN, 0, Card.EXTEND_PLANK, (3, NOBODY))
    assert new == position(2, 3, {0: {0: 1, 2: 2}, 1: {1: 3}})
    assert out == outcome()


# ---------------------------------------------------------------------------
# Ghost
# ---------------------------------------------------------------------------


def ghost_at(position, players, plank, pirates, tile, seat=1, **extra):
    """A position where ``seat`` (no living pirate) plays on as the ghost, on ``tile``."""
    return position(
        players, plank, pirates, ghost_seat=seat, ghost_tile=tile, ghost_active=True, **extra
    )


def test_ghost_shoves(engine, position, outcome) -> None:
    pos = ghost_at(position, 3, 3, {0: {2: 1}, 2: {0: 1, 2: 1}}, tile=2)
    assert engine.options(pos, GHOST, 1, Card.SHOVE_LEFT, SLOT_1) == [(2, 2)]
    assert engine.options(pos, GHOST, 1, Card.SHOVE_RIGHT, SLOT_1) == [(2, 0)]
    assert engine.options(pos, GHOST, 1, Card.SHOVE_ANYONE, SLOT_1) == [(2, 0), (2, 2)]
    new, out = engine.play(pos, GHOST, 1, Card.SHOVE_LEFT, (2, 2))
    assert new == ghost_at(position, 3, 3, {0: {2: 1}, 2: {0: 1, 3: 1}}, tile=2)
    assert out == outcome()


def test_ghost_drags(engine, position, outcome) -> None:
    pos = ghost_at(position, 3, 3, {0: {1: 1}, 2: {0: 2}}, tile=1)
    assert engine.options(pos, GHOST, 1, Card.DRAG_TO_SEA, SLOT_1) == [(1, 0)]
    new, out = engine.play(pos, GHOST, 1, Card.DRAG_TO_SEA, (1, 0))
    assert new == ghost_at(position, 3, 3, {0: {2: 1}, 2: {0: 2}}, tile=2)
    assert out == outcome()


def test_ghost_drag_from_the_last_tile_moves_only_the_victim(engine, position, outcome) -> None:
    pos = ghost_at(position, 3, 3, {0: {0: 1, 3: 1}, 2: {0: 2}}, tile=3)
    assert engine.options(pos, GHOST, 1, Card.DRAG_TO_SEA, SLOT_1) == [(3, 0)]
    new, out = engine.play(pos, GHOST, 1, Card.DRAG_TO_SEA, (3, 0))
    assert new == ghost_at(position, 3, 3, {0: {0: 1}, 2: {0: 2}}, tile=3)
    assert out == outcome(killed_others=1)


def test_ghost_pulls(engine, position, outcome) -> None:
    pos = ghost_at(position, 3, 3, {0: {0: 2}, 2: {2: 1}}, tile=2)
    assert engine.options(pos, GHOST, 1, Card.PULL_TO_SHIP, SLOT_1) == [(2, 2)]
    new, out = engine.play(pos, GHOST, 1, Card.PULL_TO_SHIP, (2, 2))
    assert new == ghost_at(position, 3, 3, {0: {0: 2}, 2: {1: 1}}, tile=1)
    # Only seat 2's pirate counts as saved: the ghost is not a pirate.
    assert out == outcome(saved=1)


def test_ghost_runs_but_never_off_the_last_tile(engine, position, outcome) -> None:
    pos = ghost_at(position, 2, 3, {0: {0: 3}}, tile=3, seat=1)
    assert engine.options(pos, GHOST, 1, Card.RUN, SLOT_1) == [(3, TOWARD_SHIP)]
    new, out = engine.play(pos, GHOST, 1, Card.RUN, (3, TOWARD_SHIP))
    assert new == ghost_at(position, 2, 3, {0: {0: 3}}, tile=2)
    assert out == outcome()  # the ghost is not a pirate: nothing saved
    pos = ghost_at(position, 2, 3, {0: {0: 3}}, tile=0)
    assert engine.options(pos, GHOST, 1, Card.RUN, SLOT_1) == [(0, TOWARD_SEA)]
    new, out = engine.play(pos, GHOST, 1, Card.RUN, (0, TOWARD_SEA))
    assert new == ghost_at(position, 2, 3, {0: {0: 3}}, tile=1)
    assert out == outcome()


def test_ghost_does_not_want_to_die(engine, position, outcome) -> None:
    pos = ghost_at(position, 2, 3, {0: {0: 3}}, tile=2)
    assert engine.options(pos, GHOST, 1, Card.NOT_ME, SLOT_1) == [(2, 1), (2, 2)]
    new, out = engine.play(pos, GHOST, 1, Card.NOT_ME, (2, 2))
    assert new == ghost_at(position, 2, 3, {0: {0: 3}}, tile=0)
    assert out == outcome()


def test_ghost_charges(engine, position, outcome) -> None:
    pos = ghost_at(position, 3, 3, {0: {2: 1}, 2: {3: 1, 0: 1}}, tile=1)
    assert engine.options(pos, GHOST, 1, Card.CHARGE, SLOT_1) == []
    assert engine.options(pos, GHOST, 1, Card.CHARGE, SLOT_2) == [(1, 0)]
    new, out = engine.play(pos, GHOST, 1, Card.CHARGE, (1, 0))
    assert new == ghost_at(position, 3, 3, {0: {3: 1}, 2: {3: 1, 0: 1}}, tile=2)
    assert out == outcome()
    # From tile 2, onto the last tile: the ghost arrives on tile 3, the victim falls.
    pos = ghost_at(position, 3, 3, {0: {0: 1}, 2: {3: 1, 0: 1}}, tile=2)
    assert engine.options(pos, GHOST, 1, Card.CHARGE, SLOT_2) == [(2, 2)]
    new, out = engine.play(pos, GHOST, 1, Card.CHARGE, (2, 2))
    assert new == ghost_at(position, 3, 3, {0: {0: 1}, 2: {0: 1}}, tile=3)
    assert out == outcome(killed_others=1)


def test_ghost_has_no_jump_from_the_last_tile(engine, position) -> None:
    pos = ghost_at(position, 2, 3, {0: {3: 2}}, tile=3)
    assert engine.options(pos, GHOST, 1, Card.CHARGE, SLOT_2) == []


def test_ghost_is_never_a_target(engine, position, outcome) -> None:
    # The ghost (seat 1) shares tile 2 with seat 0's lone pirate there.
    pos = ghost_at(position, 3, 3, {0: {1: 1, 2: 1}, 2: {0: 1, 1: 1}}, tile=2)
    assert engine.options(pos, GHOST, 0, Card.SHOVE_ANYONE, SLOT_1) == [(1, 2)]
    assert engine.options(pos, GHOST, 0, Card.DRAG_TO_SEA, SLOT_1) == [(1, 2)]
    assert engine.options(pos, GHOST, 0, Card.PULL_TO_SHIP, SLOT_1) == [(1, 2)]
    # Seat 0 charging from tile 1 meets only its own pirate on tile 2 (the ghost is no victim).
    assert engine.options(pos, GHOST, 0, Card.CHARGE, SLOT_2) == [(1, 0), (2, NOBODY)]
    # Seat 2 charging from the ship onto tile 1 meets seat 0; from tile 1 onto tile 2, seat 0.
    assert engine.options(pos, GHOST, 2, Card.CHARGE, SLOT_2) == [(0, 0), (1, 0)]
    new, out = engine.play(pos, GHOST, 0, Card.CHARGE, (2, NOBODY))
    assert new == ghost_at(position, 3, 3, {0: {1: 1, 3: 1}, 2: {0: 1, 1: 1}}, tile=2)
    assert out == outcome()
    # Alone with the ghost on a tile, a pirate has no Drag, Pull or Shove Anyone partner.
    pos = ghost_at(position, 3, 3, {0: {2: 1}, 2: {0: 1}}, tile=2)
    for card in (Card.SHOVE_ANYONE, Card.DRAG_TO_SEA, Card.PULL_TO_SHIP):
        assert engine.options(pos, GHOST, 0, card, SLOT_1) == []


@pytest.mark.parametrize(("ghost_before", "ghost_after"), [(3, 2), (2, 2), (1, 1)])
def test_retract_moves_the_ghost_to_the_new_last_tile(
    engine, position, outcome, ghost_before, ghost_after
) -> None:
    pos = ghost_at(position, 3, 3, {0: {0: 1, 3: 1}, 2: {0: 1}}, tile=ghost_before)
    new, out = engine.play(pos, GHOST, 0, Card.RETRACT_PLANK, (3, NOBODY))
    assert new == ghost_at(position, 3, 2, {0: {0: 1}, 2: {0: 1}}, tile=ghost_after)
    assert out == outcome(killed_own=1)


def test_kraken_does_not_take_the_ghost(engine, position, outcome) -> None:
    rules = WalkThePlankRules(ghost=True, kraken=True)
    pos = ghost_at(position, 3, 3, {0: {2: 1, 3: 1}, 2: {0: 1, 2: 1, 3: 1}}, tile=3)
    assert engine.options(pos, rules, 0, Card.SHOVE_RIGHT, SLOT_1) == [(2, 2), (3, 2)]
    new, out = engine.play(pos, rules, 0, Card.SHOVE_RIGHT, (3, 2), dice=[KRAKEN_FACE])
    # Seat 2's pirate falls; the Kraken takes seat 0's pirate on tile 3 but not the ghost.
    assert new == ghost_at(position, 3, 3, {0: {2: 1}, 2: {0: 1, 2: 1}}, tile=3)
    assert out == outcome(killed_others=1, kraken_rolls=[0, 0, 1], kraken_killed=1)


def test_giant_wave_does_not_move_the_ghost(engine, position, outcome) -> None:
    rules = WalkThePlankRules(ghost=True, kraken=True)
    pos = ghost_at(position, 3, 3, {0: {0: 1, 3: 1}, 2: {1: 1, 2: 1, 3: 1}}, tile=3)
    assert engine.options(pos, rules, 0, Card.SHOVE_RIGHT, SLOT_1) == [(3, 2)]
    new, out = engine.play(pos, rules, 0, Card.SHOVE_RIGHT, (3, 2), dice=[WAVE])
    # Seat 2's pirate on 3 falls; the wave sends seat 0's pirate on tile 3 home, not the ghost.
    assert new == ghost_at(position, 3, 3, {0: {0: 2}, 2: {1: 1, 2: 1}}, tile=3)
    assert out == outcome(killed_others=1, kraken_rolls=[0, 1, 0])


def test_giant_wave_skips_a_tile_held_only_by_the_ghost(engine, position, outcome) -> None:
    rules = WalkThePlankRules(ghost=True, kraken=True)
    pos = ghost_at(position, 3, 3, {0: {0: 1, 3: 1}, 2: {2: 2, 0: 1}}, tile=3)
    new, out = engine.play(pos, rules, 0, Card.RUN, (3, TOWARD_SEA), dice=[WAVE])
    # Seat 0's pirate falls from 3; the ghost alone stays on 3, the wave takes tile 2.
    assert new == ghost_at(position, 3, 3, {0: {0: 1}, 2: {0: 3}}, tile=3)
    assert out == outcome(killed_own=1, kraken_rolls=[0, 1, 0])


# ---------------------------------------------------------------------------
# Ghost creation
# ---------------------------------------------------------------------------


def test_first_player_out_gets_the_ghost_on_the_ship(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 2}})
    new, out = engine.play(pos, GHOST, 0, Card.SHOVE_LEFT, (3, 1))
    assert new == position(
        3, 3, {0: {0: 1, 3: 1}, 2: {0: 2}}, ghost_seat=1, ghost_tile=0, ghost_active=False
    )
    assert out == outcome(killed_others=1, eliminated=[1])


def test_ghost_token_starts_on_the_ship(engine, position) -> None:
    # A stale ghost tile in the position must not survive: the new ghost is on the ship.
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 2}}, ghost_tile=2)
    new, _ = engine.play(pos, GHOST, 0, Card.SHOVE_LEFT, (3, 1))
    assert (new.ghost_seat, new.ghost_tile, new.ghost_active) == (1, 0, False)


@pytest.mark.parametrize(
    ("acting", "out_seats", "ghost"),
    [
        # Seat 2 retracts; seats 0 and 3 lose their last pirate together. Clockwise from
        # seat 2: 3, 4, 0, 1 -> seat 3 (not the lower-numbered seat 0).
        (2, [3, 0], 3),
        # Seat 1 retracts and is out too, with seats 0 and 3: the acting player comes first.
        (1, [1, 3, 0], 1),
    ],
)
def test_ghost_tie_goes_first_clockwise_from_the_acting_player(
    engine, position, outcome, acting, out_seats, ghost
) -> None:
    pos = position(5, 3, {seat: {3: 1} if seat in out_seats else {0: 1} for seat in range(5)})
    new, out = engine.play(pos, GHOST, acting, Card.RETRACT_PLANK, (3, NOBODY))
    survivors = {seat: {0: 1} for seat in range(5) if seat not in out_seats}
    assert new == position(5, 2, survivors, ghost_seat=ghost, ghost_tile=0)
    own = 1 if acting in out_seats else 0
    assert out == outcome(killed_own=own, killed_others=len(out_seats) - own, eliminated=out_seats)


def test_only_one_ghost_per_game(engine, position, outcome) -> None:
    pos = ghost_at(position, 4, 3, {0: {0: 1, 3: 1}, 2: {3: 1}, 3: {0: 1}}, tile=2)
    # Left of seat 0: the ghost's seat 1 is skipped, seat 2 is shoved off and is out.
    assert engine.options(pos, GHOST, 0, Card.SHOVE_LEFT, SLOT_1) == [(3, 2)]
    new, out = engine.play(pos, GHOST, 0, Card.SHOVE_LEFT, (3, 2))
    assert new == ghost_at(position, 4, 3, {0: {0: 1, 3: 1}, 3: {0: 1}}, tile=2)
    assert out == outcome(killed_others=1, eliminated=[2])


def test_no_ghost_when_the_rule_is_off(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 2}})
    new, out = engine.play(pos, PLAIN, 0, Card.SHOVE_LEFT, (3, 1))
    assert new == position(3, 3, {0: {0: 1, 3: 1}, 2: {0: 2}})
    assert new.ghost_seat == -1
    assert out == outcome(killed_others=1, eliminated=[1])


def test_ghost_goes_to_the_player_out_before_the_kraken_struck(engine, position, outcome) -> None:
    # "The first player to lose their last pirate (ties: ...) gets a ghost token ... at once":
    # the tie rule is for players out at the same moment, and the Kraken strikes after the fall.
    # Seat 0 charges seat 3's last pirate off tile 3: seat 3 is out first. Then the Kraken
    # takes everything on tile 3, seat 1's last pirate (and seat 0's charger) with it.
    rules = WalkThePlankRules(ghost=True, kraken=True)
    pos = position(4, 3, {0: {0: 1, 2: 1}, 1: {3: 1}, 2: {0: 1}, 3: {3: 1}})
    assert engine.options(pos, rules, 0, Card.CHARGE, SLOT_2) == [(0, NOBODY), (2, 1), (2, 3)]
    new, out = engine.play(pos, rules, 0, Card.CHARGE, (2, 3), dice=[KRAKEN_FACE])
    assert out == outcome(
        killed_others=1, kraken_rolls=[0, 0, 1], kraken_killed=2, eliminated=[1, 3]
    )
    assert new == position(4, 3, {0: {0: 1}, 2: {0: 1}}, ghost_seat=3, ghost_tile=0)


# ---------------------------------------------------------------------------
# Dolphin die
# ---------------------------------------------------------------------------


def test_dolphin_shark(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 3: 1}})
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[SHARK])
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=SHARK)


def test_dolphin_number_moves_up_to_n_distinct_pirates(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 1, 2: 1, 3: 1}, 1: {1: 1, 3: 1}, 2: {0: 1, 1: 1}})
    # Seat 1's pirate falls from tile 3; seat 1 rolls a 3 and makes three steps.
    # Step 1: (0,0) (0,2) (1,1) (1,2) (2,0) stop -> 4: seat 0's pirate 2 -> 3.
    # Step 2: (0,0) (0,2) (1,1) (1,2) stop (tile 3 = L is never offered) -> 1: seat 2's 0 -> 1.
    # Step 3: (0,0) (1,1) (1,2) stop (seat 2's other pirate on 1 has not moved) -> 2: 1 -> 2.
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[D3], choices=[4, 1, 2])
    assert new == position(3, 3, {0: {0: 1, 3: 2}, 1: {1: 1}, 2: {1: 1, 2: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D3)


def test_dolphin_number_stop_early(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 2, 3: 1}})
    # Seat 1 rolls a 5. Step 1: (0,0) (0,1) stop -> 1: seat 1's 0 -> 1.
    # Step 2: (0,0) (0,1) stop (moved pirate on tile 1 and tile 3 = L not offered) -> 2: stop.
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_RIGHT, (3, 1), dice=[D5], choices=[1, 2])
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 1: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D5)


def test_dolphin_number_stop_at_once(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 2, 3: 1}})
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_RIGHT, (3, 1), dice=[D4], choices=[2])
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 2}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D4)


def test_dolphin_moved_pirate_cannot_move_again(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {2: 1, 3: 1}})
    # Seat 1 rolls a 2. Step 1: (0,0) (2,1) stop -> 0: seat 0's 0 -> 1.
    # Step 2: (2,1) stop (seat 0's pirate on tile 1 already moved) -> 0: seat 1's 2 -> 3.
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[D2], choices=[0, 0])
    assert new == position(2, 3, {0: {1: 1, 3: 1}, 1: {3: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D2)


def test_dolphin_number_ends_when_nothing_is_left_to_move(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {3: 2}})
    # Seat 1 rolls a 4, but only seat 0's pirate on the ship is off the last tile. Step 1:
    # (0,0) stop -> 0. Then nothing is left but "stop": no more choices are asked for.
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[D4], choices=[0])
    assert new == position(2, 3, {0: {1: 1, 3: 1}, 1: {3: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D4)


def test_dolphin_number_with_every_pirate_on_the_last_tile(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {3: 1}, 1: {3: 2}})
    # Nothing may be moved off the plank: the number face asks no choice at all.
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[D5])
    assert new == position(2, 3, {0: {3: 1}, 1: {3: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1, dolphin_face=D5)


def test_dolphin_face_puts_the_pirate_back_on_the_last_tile(engine, position, outcome) -> None:
    rules = WalkThePlankRules(dolphin=True, kraken=True)
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 1}}, round=4)
    # Seat 1's last pirate is saved from falling: no elimination, no Kraken roll.
    new, out = engine.play(pos, rules, 0, Card.SHOVE_LEFT, (3, 1), dice=[DOLPHIN_FACE])
    assert new == position(
        3,
        3,
        {0: {0: 1, 3: 1}, 1: {3: 1}, 2: {0: 1}},
        round=4,
        dolphin_rolled=True,
        retract_blocked_through=5,
    )
    assert out == outcome(dolphin_face=DOLPHIN_FACE)


def test_dolphin_face_after_retract_uses_the_new_last_tile(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1}, 1: {0: 1, 3: 1}}, round=2)
    new, out = engine.play(pos, DOLPHIN, 0, Card.RETRACT_PLANK, (3, NOBODY), dice=[DOLPHIN_FACE])
    assert new == position(
        2, 2, {0: {0: 1}, 1: {0: 1, 2: 1}}, round=2, dolphin_rolled=True, retract_blocked_through=3
    )
    assert out == outcome(dolphin_face=DOLPHIN_FACE)
    assert engine.options(new, DOLPHIN, 0, Card.RETRACT_PLANK, SLOT_1) == []


def test_dolphin_die_is_rolled_only_once_per_game(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 3: 1}}, dolphin_rolled=True)
    new, out = engine.play(pos, DOLPHIN, 0, Card.SHOVE_LEFT, (3, 1), dice=[])
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_others=1)


@pytest.mark.parametrize(
    ("acting", "on_last_tile", "saved_seat"),
    [
        (2, [0, 1, 3], 3),  # clockwise from seat 2: 3, 0, 1
        (2, [0, 1, 2, 3], 2),  # the acting player's own pirate comes first
        (3, [0, 1], 0),  # clockwise from seat 3: 0, 1
    ],
)
def test_dolphin_roll_goes_first_clockwise_from_the_acting_player(
    engine, position, outcome, acting, on_last_tile, saved_seat
) -> None:
    layout = {seat: {0: 1} for seat in range(4)}
    for seat in on_last_tile:
        layout[seat] = {0: 1, 3: 1}
    pos = position(4, 3, layout, round=3)
    new, out = engine.play(pos, DOLPHIN, acting, Card.RETRACT_PLANK, (3, NOBODY), dice=[5])
    after = {seat: {0: 1} for seat in range(4)}
    after[saved_seat] = {0: 1, 2: 1}  # back on the new last tile
    assert new == position(4, 2, after, round=3, dolphin_rolled=True, retract_blocked_through=4)
    own = 1 if acting in on_last_tile and acting != saved_seat else 0
    assert out == outcome(
        killed_own=own,
        killed_others=len(on_last_tile) - 1 - own,
        dolphin_face=DOLPHIN_FACE,
    )


def test_dolphin_roll_before_the_kraken_roll(engine, position, outcome) -> None:
    rules = WalkThePlankRules(dolphin=True, kraken=True)
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {1: 1, 3: 1}})
    # Two fall; dice: Dolphin (shark) for seat 0's pirate, its Kraken die (wave: tile 1,
    # the farthest occupied tile of the new plank, goes home), then seat 1's Kraken die.
    new, out = engine.play(pos, rules, 0, Card.RETRACT_PLANK, (3, NOBODY), dice=[SHARK, WAVE, CALM])
    assert new == position(2, 2, {0: {0: 1}, 1: {0: 1}}, dolphin_rolled=True)
    assert out == outcome(killed_own=1, killed_others=1, dolphin_face=SHARK, kraken_rolls=[1, 1, 0])


def test_dolphin_push_comes_before_the_kraken_roll(engine, position, outcome) -> None:
    rules = WalkThePlankRules(dolphin=True, kraken=True)
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {2: 1, 3: 1}})
    # Seat 1's pirate falls and rolls a 2. Step 1: (0,0) (2,1) stop -> 1: seat 1's 2 -> 3.
    # Step 2: (0,0) stop -> 1: stop. Then its Kraken die: the Kraken takes both on tile 3.
    new, out = engine.play(
        pos, rules, 0, Card.SHOVE_LEFT, (3, 1), dice=[D2, KRAKEN_FACE], choices=[1, 1]
    )
    assert new == position(2, 3, {0: {0: 1}}, dolphin_rolled=True)
    assert out == outcome(
        killed_others=1,
        dolphin_face=D2,
        kraken_rolls=[0, 0, 1],
        kraken_killed=2,
        eliminated=[1],
    )


# ---------------------------------------------------------------------------
# Kraken die
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("face", [0, 1, 2])
def test_kraken_calm(engine, position, outcome, face) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 2: 1, 3: 1}})
    new, out = engine.play(pos, KRAKEN, 0, Card.SHOVE_LEFT, (3, 1), dice=[face])
    assert new == position(2, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 2: 1}})
    assert out == outcome(killed_others=1, kraken_rolls=[1, 0, 0])


@pytest.mark.parametrize("face", [3, 4])
def test_kraken_giant_wave(engine, position, outcome, face) -> None:
    pos = position(3, 3, {0: {1: 1, 3: 1}, 1: {0: 1, 2: 2}, 2: {1: 1, 2: 1}})
    new, out = engine.play(pos, KRAKEN, 0, Card.RUN, (3, TOWARD_SEA), dice=[face])
    # Tile 3 is empty after the fall: the farthest occupied tile is 2, all of it goes home.
    assert new == position(3, 3, {0: {1: 1}, 1: {0: 3}, 2: {0: 1, 1: 1}})
    assert out == outcome(killed_own=1, kraken_rolls=[0, 1, 0])


def test_kraken_giant_wave_with_the_plank_empty(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 2, 3: 1}, 1: {0: 2}})
    new, out = engine.play(pos, KRAKEN, 0, Card.RUN, (3, TOWARD_SEA), dice=[WAVE])
    assert new == position(2, 3, {0: {0: 2}, 1: {0: 2}})
    assert out == outcome(killed_own=1, kraken_rolls=[0, 1, 0])


def test_kraken_takes_every_pirate_on_the_last_tile(engine, position, outcome) -> None:
    pos = position(3, 3, {0: {0: 1, 3: 2}, 1: {2: 1, 3: 2}, 2: {3: 1}})
    new, out = engine.play(pos, KRAKEN, 0, Card.SHOVE_ANYONE, (3, 1), dice=[KRAKEN_FACE])
    # Seat 1's shoved pirate falls (one die); the Kraken then takes the 4 left on tile 3,
    # which roll no further dice.
    assert new == position(3, 3, {0: {0: 1}, 1: {2: 1}})
    assert out == outcome(killed_others=1, kraken_rolls=[0, 0, 1], kraken_killed=4, eliminated=[2])


def test_one_kraken_roll_per_fallen_pirate(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {1: 1, 2: 1, 3: 1}})
    # Two pirates fall with the plank: two dice. Seat 0's own pirate first (wave: tile 2,
    # now the last tile, goes home), then seat 1's (calm).
    new, out = engine.play(pos, KRAKEN, 0, Card.RETRACT_PLANK, (3, NOBODY), dice=[WAVE, CALM])
    assert new == position(2, 2, {0: {0: 1}, 1: {0: 1, 1: 1}})
    assert out == outcome(killed_own=1, killed_others=1, kraken_rolls=[1, 1, 0])


def test_kraken_victims_roll_no_dice_but_other_fallen_pirates_do(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {1: 1, 2: 2, 3: 1}})
    # Retract: two fall. First die: kraken, seat 1's two pirates on the new last tile 2 are
    # taken (no dice for them). Second die, for seat 1's pirate that fell with the plank: calm.
    new, out = engine.play(
        pos, KRAKEN, 0, Card.RETRACT_PLANK, (3, NOBODY), dice=[KRAKEN_FACE, CALM]
    )
    assert new == position(2, 2, {0: {0: 1}, 1: {1: 1}})
    assert out == outcome(killed_own=1, killed_others=1, kraken_rolls=[1, 0, 1], kraken_killed=2)


def test_drag_off_the_last_tile_rolls_two_kraken_dice(engine, position, outcome) -> None:
    pos = position(2, 3, {0: {0: 1, 3: 1}, 1: {3: 1, 2: 1}})
    new, out = engine.play(pos, KRAKEN, 0, Card.DRAG_TO_SEA, (3, 1), dice=[CALM, WAVE])
    assert new == position(2, 3, {0: {0: 1}, 1: {0: 1}})
    assert out == outcome(killed_own=1, killed_others=1, kraken_rolls=[1, 1, 0])


def test_kraken_elimination_makes_the_ghost(engine, position, outcome) -> None:
    rules = WalkThePlankRules(ghost=True, kraken=True)
    pos = position(3, 3, {0: {0: 1, 3: 1}, 1: {0: 1, 3: 1}, 2: {3: 1}})
    # Seat 0 shoves seat 1's pirate off; the Kraken takes seat 0's and seat 2's on tile 3.
    new, out = engine.play(pos, rules, 0, Card.SHOVE_LEFT, (3, 1), dice=[KRAKEN_FACE])
    assert new == position(3, 3, {0: {0: 1}, 1: {0: 1}}, ghost_seat=2, ghost_tile=0)
    assert out == outcome(killed_others=1, kraken_rolls=[0, 0, 1], kraken_killed=2, eliminated=[2])
