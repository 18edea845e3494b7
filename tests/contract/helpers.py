"""What the contract suite plays: every registered game, its declared rule sets and its
shipped strategies, as set-ups built the way the command line builds them."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from balance import api
from balance.analyses.skill import SEARCH
from balance.core.game import Block, Capabilities, EngineGame, Game, RuleSet, Setup
from balance.games import MODULES, get_game

#: Every registered game: a new game gets the whole suite by registering.
GAME_IDS = tuple(MODULES)

#: The methods a game overrides to implement each capability (beside the declaration).
IMPLEMENTED_BY: dict[str, tuple[str, ...]] = {
    "restricted_actions": ("actions", "check_restricted"),
    "decks": ("blank_setups", "card_values", "add_card_values", "manifest_extra", "check_saved"),
    "reference_engine": (),  # a module, not methods: see ``MODULES_FOR``
    "replay": (),
    "running_sums": ("sum_columns", "summarize_sums"),
    "slim_records": ("play_slim_block",),
    "search": (),  # shipped strategies, not methods: see ``implemented``
}


#: The module a game's package holds to implement a capability (EngineGame finds it there
#: and plays blocks and narrates games with it).
MODULES_FOR: dict[str, str] = {"reference_engine": "reference", "replay": "reference"}


def implemented(game: Game, capability: str) -> bool:
    """Whether ``game`` implements ``capability``, whatever it declares: it overrides the
    capability's methods (all of them), or for ``search`` ships a search player."""
    if capability == "search":
        return any(name in SEARCH for name in game.strategies())
    if capability in MODULES_FOR:
        return getattr(game, MODULES_FOR[capability]) is not None
    methods = IMPLEMENTED_BY[capability]
    overridden = [getattr(type(game), m) is not getattr(EngineGame, m) for m in methods]
    if all(overridden) and capability == "restricted_actions":
        return bool(game.actions())
    return all(overridden)


def mismatches(game: Game) -> list[str]:
    """Each capability ``game`` declares without implementing it, or implements without
    declaring it, as a sentence."""
    found = []
    for field in dataclasses.fields(Capabilities):
        declared = getattr(game.capabilities, field.name)
        if declared != implemented(game, field.name):
            said = "declares" if declared else "does not declare"
            done = "does not implement" if declared else "implements"
            found.append(f"{game.id} {said} {field.name} but {done} it")
    return found


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


def player_counts(game: Game) -> range:
    return range(game.min_players, game.max_players + 1)


def rule_setup(game: Game, rule_set: RuleSet, players: int, seed: int = 20261128) -> Setup:
    """``rule_set`` at ``players`` players, every seat the uniform-random strategy."""
    return api.make_setup(game.id, players, seed, ["random"], rule_set.variants, rule_set.rules)


def plain_strategies(game: Game) -> list[str]:
    """The shipped strategies that are not search players (which compile a loop of
    their own, minutes long: the slow suite plays them)."""
    return [name for name in game.strategies() if name not in SEARCH]


def mixed_lineups(game: Game, strategies: Sequence[str]) -> Iterator[list[str]]:
    """Line-ups at the most players that together seat each of ``strategies``: the
    strategies in turn, the last line-up filled up from the first ones."""
    n = game.max_players
    for start in range(0, len(strategies), n):
        chunk = list(strategies[start : start + n])
        yield (chunk + list(strategies) * n)[:n]


def mixed_setup(game: Game, restricted: Sequence[str] = (), seed: int = 5) -> Setup:
    """Every plain shipped strategy that fits at the table, seats rotated, and with
    ``restricted`` forbidden to one seat a game."""
    lineup = next(mixed_lineups(game, plain_strategies(game)))
    return api.make_setup(
        game.id, len(lineup), seed, lineup, rotate_seats=True, restricted=restricted
    )


def restricted_choices(game: Game) -> list[tuple[str, ...]]:
    """Nothing restricted, then the first and the last action the game may forbid, alone
    (the engines forbid every action by the same code, an action index)."""
    actions = game.actions()
    return [(), *((action,) for action in dict.fromkeys(actions[:1] + actions[-1:]))]


def assert_same_blocks(expected: Sequence[Block], got: Sequence[Block], what: str) -> None:
    """The same games recorded alike: every array of every block, joined in game order."""
    assert [b.first_game for b in expected][:1] == [b.first_game for b in got][:1], what
    joined = [_joined(blocks) for blocks in (expected, got)]
    assert joined[0].keys() == joined[1].keys(), what
    for name, array in joined[0].items():
        other = joined[1][name]
        assert array.dtype == other.dtype, (what, name, array.dtype, other.dtype)
        np.testing.assert_array_equal(array, other, err_msg=f"{what}: {name}")


def _joined(blocks: Sequence[Block]) -> dict[str, np.ndarray]:
    out = {
        "length": np.concatenate([b.length for b in blocks]),
        "finished": np.concatenate([b.finished for b in blocks]),
        "won": np.concatenate([b.won for b in blocks]),
    }
    for name in blocks[0].extra:
        out[f"extra.{name}"] = np.concatenate([b.extra[name] for b in blocks])
    return out


def assert_close(a: Any, b: Any, path: str = "summary", rel: float = 1e-9) -> None:
    """Equal keys and values; floats equal to ``rel`` (rounding by default), NaN to NaN."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (path, a.keys(), b)
        for key in a:
            assert_close(a[key], b[key], f"{path}.{key}", rel)
    elif isinstance(a, list | tuple):
        assert isinstance(b, list | tuple) and len(a) == len(b), (path, a, b)
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_close(x, y, f"{path}[{i}]", rel)
    elif isinstance(a, float | np.floating) or isinstance(b, float | np.floating):
        if math.isnan(a) or math.isnan(b):
            assert math.isnan(a) and math.isnan(b), (path, a, b)
        else:
            assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-12), (path, a, b)
    else:
        assert a == b, (path, a, b)


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in {"elapsed_s", "games_per_s", "threads"}}


def registered(game_id: str) -> Game:
    return get_game(game_id)
