"""Fixtures for La Planche scenario tests: both engines behind one face, readable positions.

Every scenario runs once on the readable reference engine and once on the compiled engine
through the ``engine`` fixture. Positions are written as strings, one character a space
from the ship end: ``Y``, ``R``, ``G``, ``B`` for a prisoner, ``.`` for an empty space
(the string's length is the number of spaces).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from balance.games.la_planche import engine as compiled
from balance.games.la_planche import reference
from balance.games.la_planche.reference import EMPTY, Option, Position, TurnOutcome
from balance.games.la_planche.rules import COLOURS, LaPlancheRules


def build_position(
    text: str,
    players: int = 4,
    *,
    evidence: Sequence[Sequence[int]] = (),
    scores: Sequence[int] = (),
    round: int = 1,
    turn: int = 1,
    push: str = "unbroken",
) -> Position:
    """A position from a string such as ``"YRGB.............."`` (see the module docstring)."""
    line = [EMPTY if ch == "." else COLOURS.index(ch) for ch in text]
    return Position(
        players=players,
        spaces=len(line),
        line=line,
        evidence=[list(row) for row in evidence] or [[0] * 4 for _ in range(players)],
        scores=list(scores) or [0] * players,
        round=round,
        turn=turn,
        push=push,
    )


def rules_for(pos: Position, **values) -> LaPlancheRules:
    return LaPlancheRules(spaces=pos.spaces, push=pos.push, **values)


class ScriptedPlayer:
    """A reference player answering from a script, noting whether it was asked."""

    def __init__(self, symbol_pick: int, option_pick: int) -> None:
        self.symbol_pick, self.option_pick = symbol_pick, option_pick
        self.asked: list[str] = []

    def choose_symbol(self, pos: Position, seat: int, colour: int, first: int, second: int) -> int:
        self.asked.append("symbol")
        return self.symbol_pick

    def choose(
        self, pos: Position, seat: int, colour: int, symbol: int, options: Sequence[Option]
    ) -> int:
        self.asked.append("choose")
        return self.option_pick


@dataclass(frozen=True)
class EngineAdapter:
    """One engine behind the interface the scenarios use."""

    name: str

    def options(self, pos: Position, symbol: int) -> list[Option]:
        before = pos.copy()
        if self.name == "reference":
            found = reference.legal_options(pos, symbol)
        else:
            found = compiled.legal_options(pos, rules_for(pos), symbol)
        assert pos == before, "legal_options changed the position"
        return [(int(a), int(b)) for a, b in found]

    def apply(self, pos: Position, symbol: int, option: Option) -> tuple[Position, int]:
        """Carry out a legal option: the new position and the colour that fell (or -1)."""
        assert option in self.options(pos, symbol), f"{option} is not legal here"
        before = pos.copy()
        if self.name == "reference":
            new = pos.copy()
            fallen = reference.apply_option(new, symbol, option)
        else:
            new, fallen = compiled.apply_option(pos, rules_for(pos), symbol, option)
        assert pos == before, "apply changed the position it was given"
        return new, fallen

    def push(self, pos: Position) -> tuple[Position, int]:
        """The mandatory push: the new position and the colour that fell (or -1)."""
        if self.name == "reference":
            new = pos.copy()
            fallen = reference.mandatory_push(new)
        else:
            new, fallen = compiled.mandatory_push(pos, rules_for(pos))
        return new, fallen

    def turn(
        self,
        pos: Position,
        first: int,
        second: int,
        *,
        seat: int = 0,
        colour: int = 0,
        symbol_pick: int = 0,
        option_pick: int = 0,
        expect_asked: Sequence[str] | None = None,
        forbidden: int = -1,
    ) -> tuple[Position, TurnOutcome]:
        """A whole turn after the spinner showed ``first`` and ``second``.

        ``expect_asked``: the questions the player must be asked ("symbol", "choose"),
        checked on the reference engine, whose player notes them.
        """
        before = pos.copy()
        if self.name == "reference":
            new = pos.copy()
            player = ScriptedPlayer(symbol_pick, option_pick)
            out = reference.play_turn(new, seat, colour, first, second, player, forbidden=forbidden)
            if expect_asked is not None:
                assert player.asked == list(expect_asked)
        else:
            new, out = compiled.play_turn(
                pos,
                rules_for(pos),
                seat,
                colour,
                first,
                second,
                symbol_pick,
                option_pick,
                forbidden,
            )
        assert pos == before, "a turn changed the position it was given"
        return new, out


ENGINE_NAMES = ("reference", "compiled")


@pytest.fixture(params=ENGINE_NAMES)
def engine(request: pytest.FixtureRequest) -> EngineAdapter:
    """Each test using this fixture runs on the reference and on the compiled engine."""
    return EngineAdapter(request.param)


@pytest.fixture
def position():
    """The position builder: ``position("YRGB..", players=3, evidence=...)``."""
    return build_position
