"""What the contract suite plays: every registered game, its declared rule sets and its
shipped strategies, as set-ups built the way the command line builds them.

What ``balance game check`` checks too (capabilities against what a game implements, the
set-ups it plays, how two runs' records or summaries differ) is
:mod:`balance.authoring.conformance`'s, imported here: one copy for both."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from balance.authoring.conformance import (
    IMPLEMENTED_BY,
    MODULES_FOR,
    block_difference,
    implemented,
    mismatches,
    mixed_lineups,
    mixed_setup,
    plain_strategies,
    player_counts,
    restricted_choices,
    rule_setup,
    value_difference,
    without_timing,
)
from balance.core.game import Block, EngineGame, Game
from balance.games import MODULES, get_game

__all__ = [
    "GAME_IDS",
    "IMPLEMENTED_BY",
    "MODULES_FOR",
    "assert_close",
    "assert_same_blocks",
    "implemented",
    "mismatches",
    "mixed_lineups",
    "mixed_setup",
    "plain_strategies",
    "player_counts",
    "registered",
    "restricted_choices",
    "rule_setup",
    "without",
    "without_timing",
]

#: Every registered game: a new game gets the whole suite by registering.
GAME_IDS = tuple(MODULES)


def without(game: Game, capability: str) -> Game:
    """``game`` as it would be without ``capability``: undeclared, its methods those of
    :class:`EngineGame` (which refuse it), and no module of its own for it."""
    methods: dict[str, Any] = {m: getattr(EngineGame, m) for m in IMPLEMENTED_BY[capability]}
    if capability in MODULES_FOR:
        methods[MODULES_FOR[capability]] = None
    capabilities = dataclasses.replace(game.capabilities, **{capability: False})
    stripped = type(f"Without{capability.title()}", (type(game),), methods)
    made = stripped()
    made.capabilities = capabilities  # on the instance: the class keeps its declaration
    return made


def assert_same_blocks(expected: Sequence[Block], got: Sequence[Block], what: str) -> None:
    """The same games recorded alike: every array of every block, joined in game order."""
    difference = block_difference(expected, got)
    assert difference is None, f"{what}: {difference}"


def assert_close(a: Any, b: Any, path: str = "summary", rel: float = 1e-9) -> None:
    """Equal keys and values; floats equal to ``rel`` (rounding by default), NaN to NaN."""
    difference = value_difference(a, b, path, rel)
    assert difference is None, difference


def registered(game_id: str) -> Game:
    return get_game(game_id)
