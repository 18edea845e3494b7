"""The games balance can play, one package each, and the registry that names them.

A game's module (``balance.games.<game>.game``) is light: its compiled engine, its
strategies, pandas and the statistics load when it first plays or reads records, so that
listing the games or their rules starts at once, and a run loads only its own game.

:data:`MODULES` is the one place a game is registered: its package is installed because
``setup.py`` finds every package under ``balance/``, and the tests read the games from
here (the contract suite, ``tests/contract``, checks every registered game against the
:class:`~balance.core.game.Game` protocol and the capabilities it declares).
"""

from __future__ import annotations

import importlib

from balance.core.errors import BalanceError
from balance.core.game import Game

#: Each game's id and the module whose ``GAME`` plays it, in the order games are listed.
MODULES = {
    "walk-the-plank": "balance.games.walk_the_plank.game",
    "la-planche": "balance.games.la_planche.game",
    "lifeboats": "balance.games.lifeboats.game",
    "battle-of-thieves": "balance.games.battle_of_thieves.game",
}


def registry() -> dict[str, Game]:
    """Every game, by id."""
    return {game_id: _load(game_id) for game_id in MODULES}


def get_game(game_id: str) -> Game:
    """The game ``game_id`` (importing only its own module); a one-line error if unknown."""
    if game_id not in MODULES:
        raise BalanceError(f"unknown game {game_id!r}; games: {', '.join(MODULES)}")
    return _load(game_id)


def _load(game_id: str) -> Game:
    game: Game = importlib.import_module(MODULES[game_id]).GAME
    if game.id != game_id:
        raise BalanceError(f"{MODULES[game_id]} plays {game.id!r}, not {game_id!r}")
    return game
