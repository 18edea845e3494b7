"""Perft-style option counts: every card from hand-built positions, counted by hand.

Each case gives, for the rules' slot 2 (slot index 1), the number of legal options of the
ten cards in card order: Shove Left, Shove Right, Shove Anyone, Extend, Retract, Drag, Pull,
Run, I Don't Want to Die, Charge. In slot 1 only Charge differs: it has no option there.
The counts are worked out from the rules in ``docs/walk-the-plank.md``; the comments give the
reasoning where it is not obvious. Both engines must also return identical option lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from balance.games.walk_the_plank import engine as compiled
from balance.games.walk_the_plank import reference
from balance.games.walk_the_plank.cards import N_CARDS, Card
from balance.games.walk_the_plank.rules import WalkThePlankRules

PLAIN = WalkThePlankRules()


@dataclass(frozen=True)
class Case:
    """A position (``position`` fixture arguments), the acting seat and the hand counts."""

    name: str
    players: int
    plank: int
    pirates: dict[int, dict[int, int]]
    seat: int
    counts: tuple[int, ...]  # slot 2, in card order
    rules: WalkThePlankRules = PLAIN
    extra: dict[str, Any] = field(default_factory=dict)


CASES = [
    Case(
        # Everyone on the ship, 3 players.
        name="opening",
        players=3,
        plank=3,
        pirates={0: {0: 3}, 1: {0: 3}, 2: {0: 3}},
        seat=0,
        # Shove L/R: seat 1 / seat 2 on the ship. Anyone: (0,1) (0,2). Extend: L = max.
        # Drag: (0,0) (0,1) (0,2). Pull, Not me: nothing off the ship. Run: (0, sea).
        # Charge: onto the empty tile 1.
        counts=(1, 1, 2, 0, 1, 3, 0, 1, 0, 1),
    ),
    Case(
        # Mid game, 4 players, seat 2 out (no ghost rule), seat 1 acts.
        name="mid-game",
        players=4,
        plank=3,
        pirates={0: {0: 1, 2: 1}, 1: {0: 1, 2: 2, 3: 1}, 3: {1: 1, 2: 1, 3: 1}},
        seat=1,
        # Shove Left: seat 2 is out, seat 3 is shoved, on tiles 2 and 3 (not 1: seat 1 is
        # not there). Shove Right: seat 0, on tiles 0 and 2.
        # Anyone: (0,0) (2,0) (2,3) (3,3).
        # Drag: (0,0) | (2,0) (2,1) (2,3) | (3,3); no (0,1) or (3,1): one own pirate there.
        # Pull: the same without tile 0: 4. Run: (0,sea) (2,ship) (2,sea) (3,ship) (3,sea).
        # Not me: (2,1) (2,2) (3,1) (3,2).
        # Charge: (0,3) onto tile 1; (2,3) onto tile 3 (seat 1's own pirate there does not
        # count when there is a victim); (3, jump).
        counts=(2, 2, 4, 0, 1, 5, 4, 5, 4, 3),
    ),
    Case(
        # The shortest plank, 2 players.
        name="plank-1",
        players=2,
        plank=1,
        pirates={0: {0: 2, 1: 1}, 1: {1: 2}},
        seat=0,
        # Shove L and R: both seat 1, tile 1. Extend: 1 < 3. Retract: L = plank_min.
        # Drag: (0,0) (1,1). Pull: (1,1). Run: (0,sea) (1,ship) (1,sea). Not me: (1,1) only.
        # Charge: (0,1) onto tile 1; (1, jump).
        counts=(1, 1, 1, 1, 0, 2, 1, 3, 1, 2),
    ),
    Case(
        # The ghost acts: seat 2's ghost on the last tile with seats 0 and 1.
        name="ghost-acts-on-last-tile",
        players=3,
        plank=3,
        pirates={0: {1: 1, 3: 2}, 1: {0: 1, 3: 1}},
        seat=2,
        rules=WalkThePlankRules(ghost=True),
        extra={"ghost_seat": 2, "ghost_tile": 3, "ghost_active": True},
        # Shove Left: seat 0; Right: seat 1; Anyone: (3,0) (3,1). Extend/Retract are set
        # aside by a ghost player, but the card's own rule is what legal_options answers:
        # Extend none (L = max), Retract one (L > 1). Drag and Pull: (3,0) (3,1), never
        # (3,2): the ghost's player has no second pirate. Run: only (3,ship), the ghost
        # never falls. Not me: (3,1) (3,2). Charge: from L the ghost has no jump: none.
        counts=(1, 1, 2, 0, 1, 2, 2, 1, 2, 0),
    ),
    Case(
        # The ghost (seat 1) is on tile 1 with seat 0 and seat 3; seat 0 acts.
        name="ghost-on-the-plank",
        players=4,
        plank=2,
        pirates={0: {0: 1, 1: 2}, 2: {2: 1}, 3: {0: 1, 1: 1}},
        seat=0,
        rules=WalkThePlankRules(ghost=True),
        extra={"ghost_seat": 1, "ghost_tile": 1, "ghost_active": True},
        # Shove Left skips the ghost's seat 1: seat 2, only on tile 2 where seat 0 is not: 0.
        # Shove Right: seat 3 on tiles 0 and 1. Anyone: (0,3) (1,3), the ghost is no target.
        # Extend: 2 < 3. Retract: 2 > 1. Drag: (0,3) | (1,0) (1,3). Pull: (1,0) (1,3).
        # Run: (0,sea) (1,ship) (1,sea). Not me: (1,1) only.
        # Charge: (0,3) onto tile 1 (the ghost is no victim); (1,2) onto the last tile 2.
        counts=(0, 2, 2, 1, 1, 3, 2, 3, 1, 2),
    ),
    Case(
        # 5 players after a Dolphin face: Retract blocked through this round; seat 4 acts.
        name="retract-blocked",
        players=5,
        plank=2,
        pirates={0: {2: 1}, 1: {0: 3}, 3: {1: 1}, 4: {0: 1, 2: 1}},
        seat=4,
        rules=WalkThePlankRules(dolphin=True),
        extra={"round": 3, "retract_blocked_through": 3, "dolphin_rolled": True},
        # Shove Left: seat 0 (next clockwise), tile 2. Shove Right: seat 3, whose only
        # pirate is on tile 1 where seat 4 is not: none (seat 2 is out, seat 1 not reached).
        # Anyone: (0,1) (2,0). Extend: 2 < 3. Retract: round 3 <= 3, blocked.
        # Drag: (0,1) (2,0). Pull: (2,0). Run: (0,sea) (2,ship) (2,sea). Not me: (2,1) (2,2).
        # Charge: (0,3) onto tile 1; (2, jump).
        counts=(1, 0, 2, 1, 0, 2, 1, 3, 2, 2),
    ),
    Case(
        # Seat 0 shares no tile with anyone: Shove Anyone must take its own pirate.
        name="own-pirates-only",
        players=3,
        plank=3,
        pirates={0: {1: 2, 2: 1}, 1: {3: 2}, 2: {0: 1, 3: 1}},
        seat=0,
        # Shove L/R: seats 1 and 2 are on no tile of seat 0's: none.
        # Anyone: forced (1,0), tile 1 holds two of seat 0's (tile 2 only one).
        # Drag, Pull: (1,0). Run: (1,ship) (1,sea) (2,ship) (2,sea).
        # Not me: (1,1) (2,1) (2,2). Charge: (1,0) onto its own pirate on tile 2;
        # (2,1) (2,2) onto tile 3.
        counts=(0, 0, 1, 0, 1, 1, 1, 4, 3, 3),
    ),
    Case(
        # A longer plank (plank_max = 5), 2 players, seat 1 acts.
        name="long-plank",
        players=2,
        plank=4,
        pirates={0: {3: 1, 4: 1}, 1: {3: 1, 4: 2}},
        seat=1,
        rules=WalkThePlankRules(plank_max=5),
        # Shove L and R: seat 0 on tiles 3 and 4. Anyone: (3,0) (4,0). Extend: 4 < 5.
        # Drag and Pull: (3,0) | (4,0) (4,1). Run: ship and sea from 3 and 4.
        # Not me: (3,1) (3,2) (4,1) (4,2). Charge: (3,0) onto tile 4; (4, jump).
        counts=(2, 2, 2, 1, 1, 3, 3, 4, 4, 2),
    ),
    Case(
        # Nothing to do off the ship: every one of seat 0's pirates on the ship, plank 2.
        name="all-aboard-short-plank",
        players=4,
        plank=2,
        pirates={0: {0: 3}, 1: {1: 1, 2: 1}, 2: {0: 1}, 3: {2: 2}},
        seat=0,
        # Shove Left: seat 1, not on the ship: none. Shove Right: seat 3, none.
        # Anyone: (0,2). Extend, Retract: one each. Drag: (0,0) (0,2). Pull, Not me: none.
        # Run: (0,sea). Charge: (0,1) onto tile 1.
        counts=(0, 0, 1, 1, 1, 2, 0, 1, 0, 1),
    ),
]


def _position(position, case: Case):
    return position(case.players, case.plank, case.pirates, **case.extra)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_option_counts(engine, position, case: Case) -> None:
    pos = _position(position, case)
    slot_2 = tuple(
        len(engine.options(pos, case.rules, case.seat, card, 1)) for card in range(N_CARDS)
    )
    assert slot_2 == case.counts
    # Slot 1: the same, except that Charge has no option.
    slot_1 = tuple(
        len(engine.options(pos, case.rules, case.seat, card, 0)) for card in range(N_CARDS)
    )
    assert slot_1 == (*case.counts[: Card.CHARGE], 0)
    # Slot 3 is like slot 2.
    slot_3 = tuple(
        len(engine.options(pos, case.rules, case.seat, card, 2)) for card in range(N_CARDS)
    )
    assert slot_3 == case.counts


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_engines_give_identical_option_lists(position, case: Case) -> None:
    pos = _position(position, case)
    for slot in range(3):
        for card in range(N_CARDS):
            ref = reference.legal_options(pos, case.rules, case.seat, card, slot)
            comp = compiled.legal_options(pos, case.rules, case.seat, card, slot)
            assert [(int(t), int(a)) for t, a in comp] == list(ref), (card, slot)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_seat_gets_the_same_lists_from_both_engines(position, case: Case) -> None:
    pos = _position(position, case)
    for seat in range(case.players):
        for card in range(N_CARDS):
            ref = reference.legal_options(pos, case.rules, seat, card, 1)
            comp = compiled.legal_options(pos, case.rules, seat, card, 1)
            assert [(int(t), int(a)) for t, a in comp] == list(ref), (seat, card)
