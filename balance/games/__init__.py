"""The games balance can play, and the registry that finds them.

Every game, built in or not, registers the same way: an entry point of the group
``balance.games`` (:data:`GROUP`) named by the game's id, whose value is the object that
plays it (``package.game:GAME``). The four built-in games are declared so in balance's own
``pyproject.toml``; a designer's game declares itself in its package's, and
``pip install`` makes it one of balance's games (``docs/new-game.md``).

A game's module is light: its compiled engine, its strategies, pandas and the statistics
load when it first plays or reads records, so that listing the games or their rules
starts at once, and a run loads only its own game. A game package that fails to import,
or whose game breaks the contract, is one line naming the package and the problem
(:class:`Entry`); the other games keep working.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from importlib import metadata

from balance.core.errors import BalanceError, error_line
from balance.core.game import Game, declaration_problems

#: The entry point group a package registers its games in.
GROUP = "balance.games"

#: The built-in games' ids and modules (each module's ``GAME`` plays it), in the order
#: games are listed: what balance's own entry points declare (``pyproject.toml``), and
#: what a checkout that is not installed (no entry points at all) still plays.
MODULES = {
    "walk-the-plank": "balance.games.walk_the_plank.game",
    "la-planche": "balance.games.la_planche.game",
    "lifeboats": "balance.games.lifeboats.game",
    "battle-of-thieves": "balance.games.battle_of_thieves.game",
}

#: Where a built-in game comes from, as ``balance games`` says it.
BUILT_IN = "built in"


@dataclass(frozen=True)
class Entry:
    """One registered game, before it is loaded.

    Attributes
    ----------
    id : the game's id (the entry point's name).
    target : ``module:attribute`` of the object that plays it.
    package : the distribution that registers it (``balance`` for the built-in games).
    version : that distribution's version.
    """

    id: str
    target: str
    package: str
    version: str = ""

    @property
    def origin(self) -> str:
        """Where the game comes from: ``built in``, or its package and version."""
        if self.package == "balance":
            return BUILT_IN
        return f"package {self.package} {self.version}".rstrip()

    def problem(self, text: str) -> str:
        """A one-line error about this game, naming the package that registers it."""
        return f"game package {self.package!r} ({self.id} = {self.target}): {text}"


def entries() -> dict[str, Entry]:
    """Every registered game by id: the built-in games first, then the others by id.

    An id registered twice keeps its first registration (a built-in game's id cannot be
    taken by a package); the second is a :func:`problems` line.
    """
    return _scan()[0]


@functools.cache
def _scan() -> tuple[dict[str, Entry], tuple[str, ...]]:
    """The registered games by id, and a line for each id registered twice."""
    points = list(metadata.entry_points(group=GROUP))
    own = [p for p in points if p.dist is not None and p.dist.metadata["Name"] == "balance"]
    # The built-in games in their listing order; a checkout that is not installed has no
    # entry points, and plays them from MODULES.
    built_in = {p.name: p.value for p in own} or {k: f"{m}:GAME" for k, m in MODULES.items()}
    order = {game_id: k for k, game_id in enumerate(MODULES)}
    found: dict[str, Entry] = {
        game_id: Entry(game_id, target, "balance")
        for game_id, target in sorted(built_in.items(), key=lambda item: order.get(item[0], 99))
    }
    others: list[Entry] = []
    for point in points:
        if point in own:
            continue
        dist = point.dist
        package = dist.metadata["Name"] if dist is not None else point.value.split(".")[0]
        others.append(Entry(point.name, point.value, package, dist.version if dist else ""))
    clashes = []
    for entry in sorted(others, key=lambda e: e.id):
        if entry.id in found:
            clashes.append(entry.problem(f"the id {entry.id!r} is already a game's"))
            continue
        found[entry.id] = entry
    return found, tuple(clashes)


#: Each game object checked, by id, with what keeps it from playing ("" if nothing).
_CHECKED: dict[tuple[str, int], tuple[Game, str]] = {}


def _loaded(game_id: str) -> Game | str:
    """The game ``game_id``, or the one-line problem that keeps it from playing.

    The object is read from its module every time (a test may put another in its place);
    its declaration is checked once.
    """
    entry = entries()[game_id]
    module, _, attribute = entry.target.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute or "GAME")
    except Exception as error:  # a plug-in's import may fail in any way: said in one line
        return entry.problem(f"fails to import: {error_line(error)}")
    key = (game_id, id(game))
    if key not in _CHECKED or _CHECKED[key][0] is not game:
        problems = declaration_problems(game, game_id)
        _CHECKED[key] = (game, entry.problem(problems[0]) if problems else "")
    return _CHECKED[key][1] or game


def registry() -> dict[str, Game]:
    """Every game that loads, by id (see :func:`problems` for those that do not)."""
    games = {game_id: _loaded(game_id) for game_id in entries()}
    return {game_id: game for game_id, game in games.items() if not isinstance(game, str)}


def problems() -> list[str]:
    """One line for each registered game that cannot play (it fails to import, breaks
    the contract, or takes an id already taken)."""
    said = [found for found in map(_loaded, entries()) if isinstance(found, str)]
    return [*_scan()[1], *said]


def game_ids() -> list[str]:
    """The ids of every registered game, without importing any."""
    return list(entries())


def get_game(game_id: str) -> Game:
    """The game ``game_id`` (importing only its own module); a one-line error if unknown
    or if its package cannot play it."""
    known = entries()
    if game_id not in known:
        raise BalanceError(f"unknown game {game_id!r}; games: {', '.join(known)}")
    game = _loaded(game_id)
    if isinstance(game, str):
        raise BalanceError(game)
    return game


def origin(game_id: str) -> str:
    """Where the game ``game_id`` comes from (``built in``, or its package and version)."""
    return entries()[game_id].origin
