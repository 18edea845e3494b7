"""Fixtures for Walk the Plank scenario tests: both engines behind one face, readable positions.

Every scenario runs once on the readable reference engine and once on the compiled engine
through the ``engine`` fixture; positions are built with the ``position`` fixture.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pytest

from balance.games.walk_the_plank import engine as compiled
from balance.games.walk_the_plank import reference
from balance.games.walk_the_plank.reference import CardOutcome, Option, Position
from balance.games.walk_the_plank.rules import PLANK_LIMIT, WalkThePlankRules

Layout = Mapping[int, Mapping[int, int]]


def build_position(
    players: int,
    plank: int,
    pirates: Layout,
    *,
    ghost_seat: int = -1,
    ghost_tile: int = 0,
    ghost_active: bool = False,
    round: int = 1,
    captain: int = 0,
    dolphin_rolled: bool = False,
    retract_blocked_through: int = 0,
) -> Position:
    """A position from ``{seat: {tile: count}}``; seats not named have no pirate left."""
    assert 2 <= players <= 5, players
    assert 1 <= plank <= PLANK_LIMIT, plank
    rows = [[0] * (PLANK_LIMIT + 1) for _ in range(players)]
    for seat, tiles in pirates.items():
        assert 0 <= seat < players, f"seat {seat} with {players} players"
        for tile, count in tiles.items():
            assert 0 <= tile <= plank, f"tile {tile} on a plank of {plank}"
            assert count >= 0
            rows[seat][tile] = count
    if ghost_seat >= 0:
        assert sum(rows[ghost_seat]) == 0, "the ghost's player has no living pirate"
        assert 0 <= ghost_tile <= plank
    return Position(
        players=players,
        plank=plank,
        pirates=rows,
        captain=captain,
        round=round,
        resting=[0] * players,
        ghost_seat=ghost_seat,
        ghost_tile=ghost_tile,
        ghost_active=ghost_active,
        dolphin_rolled=dolphin_rolled,
        retract_blocked_through=retract_blocked_through,
    )


class ScriptExhausted(AssertionError):
    """The engine asked for a die or a Dolphin choice the scenario did not script."""


class ScriptedTable:
    """A reference ``Table`` that replays scripted dice faces and Dolphin choices."""

    def __init__(self, dice: Sequence[int], choices: Sequence[int]) -> None:
        self.dice = list(dice)
        self.choices = list(choices)

    def roll(self) -> int:
        if not self.dice:
            raise ScriptExhausted("the engine rolled a die the scenario did not script")
        return self.dice.pop(0)

    def choose_dolphin_step(self, seat: int, pos: Position, options: list[Option]) -> int:
        if not self.choices:
            raise ScriptExhausted(
                f"seat {seat} was asked for an unscripted Dolphin step among {options}"
            )
        pick = self.choices.pop(0)
        assert 0 <= pick < len(options), f"scripted choice {pick} out of {options}"
        return pick


def dice_used(outcome: CardOutcome) -> int:
    """Dice a card rolled, read from its outcome: the Dolphin die and each Kraken die."""
    return (outcome.dolphin_face >= 0) + sum(outcome.kraken_rolls)


@dataclass(frozen=True)
class EngineAdapter:
    """One engine behind the interface the scenarios use."""

    name: str

    def options(
        self, pos: Position, rules: WalkThePlankRules, seat: int, card: int, slot: int
    ) -> list[Option]:
        """The card's legal options; ``slot`` counts from 0 (0 is the rules' slot 1)."""
        before = pos.copy()
        if self.name == "reference":
            found = reference.legal_options(pos, rules, seat, card, slot)
        else:
            found = compiled.legal_options(pos, rules, seat, card, slot)
        assert pos == before, "legal_options changed the position"
        return [(int(t), int(a)) for t, a in found]

    def play(
        self,
        pos: Position,
        rules: WalkThePlankRules,
        seat: int,
        card: int,
        option: Option,
        dice: Sequence[int] = (),
        choices: Sequence[int] = (),
    ) -> tuple[Position, CardOutcome]:
        """Resolve a legal ``option``; every scripted die and choice must be used, no more."""
        # Slot index 2 (the rules' slot 3): every card, Charge included, has its options there.
        assert option in self.options(pos, rules, seat, card, 2), f"{option} is not legal here"
        before = pos.copy()
        if self.name == "reference":
            new = pos.copy()
            table = ScriptedTable(dice, choices)
            outcome = reference.resolve_card(new, rules, seat, card, option, table)
            assert not table.dice, f"dice left unrolled: {table.dice}"
            assert not table.choices, f"Dolphin choices left unused: {table.choices}"
        else:
            new, outcome = compiled.resolve_card(
                pos, rules, seat, card, option, dice=tuple(dice), choices=tuple(choices)
            )
        assert pos == before, "resolving a card changed the position it was given"
        # Past its script the compiled engine rolls random dice: the outcome counts every roll.
        assert dice_used(outcome) == len(dice), (
            f"{self.name} rolled {dice_used(outcome)} dice, the scenario scripted {len(dice)}"
        )
        return new, outcome


ENGINE_NAMES = ("reference", "compiled")


@pytest.fixture(params=ENGINE_NAMES)
def engine(request: pytest.FixtureRequest) -> EngineAdapter:
    """Each test using this fixture runs on the reference and on the compiled engine."""
    return EngineAdapter(request.param)


@pytest.fixture
def position() -> Callable[..., Position]:
    """The position builder: ``position(players, plank, {seat: {tile: count}}, ghost_seat=...)``."""
    return build_position


def expected_outcome(
    *,
    killed_own: int = 0,
    killed_others: int = 0,
    saved: int = 0,
    kraken_killed: int = 0,
    kraken_rolls: Sequence[int] = (0, 0, 0),
    dolphin_face: int = -1,
    eliminated: Sequence[int] = (),
) -> CardOutcome:
    """An expected card outcome; fields not named are zero, none or empty."""
    return CardOutcome(
        killed_own=killed_own,
        killed_others=killed_others,
        saved=saved,
        kraken_killed=kraken_killed,
        kraken_rolls=list(kraken_rolls),
        dolphin_face=dolphin_face,
        eliminated=list(eliminated),
    )


@pytest.fixture(name="outcome")
def outcome_fixture() -> Callable[..., CardOutcome]:
    """The expected-outcome builder: ``outcome(killed_others=1, eliminated=[2])``."""
    return expected_outcome
