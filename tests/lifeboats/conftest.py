"""Fixtures for the Lifeboats tests: readable hand-built positions.

A boat is written as a string, one character a pawn or a leak: ``A``..``F`` an officer of
seat 0..5, ``a``..``f`` a sailor of seat 0..5, ``*`` a leak marker, ``.`` a free seat
(optional, for the reader). ``"sunk"`` and ``"landed"`` stand for a boat that left the
water. The last boat of a list is the black boat.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from balance.games.lifeboats.layout import AFLOAT, LANDED, OFFICER, SAILOR, SUNK
from balance.games.lifeboats.reference import Position
from balance.games.lifeboats.rules import LifeboatsRules

SEATS = "abcdef"


def build_position(
    boats: Sequence[str],
    *,
    seats: int = 4,
    hats: Sequence[int] | int = 0,
    reserve: Sequence[Sequence[int]] = (),
    lanes: Sequence[int] = (),
    left: Sequence[int] = (),
    round: int = 1,
    leaks_left: int = 10,
    **rule_values,
) -> Position:
    """A position from boat strings (see the module docstring); every boat placed.

    Rules: ``seats`` seats a boat, one officer and one sailor a player unless
    ``rule_values`` say otherwise.
    """
    n = len(boats) - 1
    rule_values.setdefault("officers", (1, 1, 1, 1))
    rule_values.setdefault("sailors", (1, 1, 1, 1))
    rules = LifeboatsRules(seats_per_boat=seats, **rule_values)
    pos = Position.start(rules, n)
    pos.reserve = [list(row) for row in reserve] or [[0, 0] for _ in range(n)]
    pos.lane = list(lanes) or list(range(n + 1))
    pos.hats = [hats] * n if isinstance(hats, int) else list(hats)
    pos.left = list(left) or [0] * (n + 1)
    pos.round = round
    pos.leaks_left = leaks_left
    for b, text in enumerate(boats):
        if text in ("sunk", "landed"):
            pos.state[b] = SUNK if text == "sunk" else LANDED
            continue
        pos.state[b] = AFLOAT
        for ch in text:
            if ch == "*":
                pos.leaks[b] += 1
            elif ch != ".":
                pos.crew[b][SEATS.index(ch.lower())][OFFICER if ch.isupper() else SAILOR] += 1
        assert pos.free(b) >= 0, f"boat {b} {text!r} holds more than {seats} seats"
    return pos


@pytest.fixture
def position():
    """The position builder: ``position(["Aa", "b*", ""], hats=1)``."""
    return build_position
