"""The games balance can play, one package each, and the registry that names them."""

from __future__ import annotations

from balance.errors import BalanceError
from balance.games.base import Game


def registry() -> dict[str, Game]:
    """Every game, by id."""
    from balance.games.battle_of_thieves.game import GAME as battle_of_thieves
    from balance.games.la_planche.game import GAME as la_planche
    from balance.games.lifeboats.game import GAME as lifeboats
    from balance.games.walk_the_plank.game import GAME as walk_the_plank

    return {game.id: game for game in (walk_the_plank, la_planche, lifeboats, battle_of_thieves)}


def get_game(game_id: str) -> Game:
    games = registry()
    if game_id not in games:
        raise BalanceError(f"unknown game {game_id!r}; games: {', '.join(games)}")
    return games[game_id]
