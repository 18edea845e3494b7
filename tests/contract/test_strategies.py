"""Every strategy a game ships can be named, listed, seated and played, and shows in the
records of the games it played."""

from __future__ import annotations

import pytest

from balance import api
from balance.analyses.skill import SEARCH
from balance.core.catalog import listed_strategies
from balance.core.game import Game
from contract.helpers import GAME_IDS, mixed_lineups, plain_strategies, registered

#: The search players' budgets in the reachability games: enough to search, quick to play.
SMALL_BUDGETS = {"playouts": 2, "iterations": 8}


def check_reached(game: Game, texts: list[str], games: int) -> None:
    """``texts`` round the table for ``games`` games: each seat plays, and its strategy is
    the one the records name."""
    run = api.simulate(
        game.id, len(texts), games, seed=3, strategies=texts, rotate_seats=True, threads=1
    )
    labels = run.setup.lineup.labels
    seats = run.seats
    assert set(seats["strategy"].astype(str)) == set(labels)
    assert run.summary()["games"] == games
    if len(set(labels)) > 1:
        rates = {row["strategy"]: row for row in run.summary()["strategy_win_rate"]}
        assert rates.keys() == set(labels)


def test_the_listing_is_the_shipped_strategies(game: Game) -> None:
    names = list(game.strategies())
    assert names[0] == "random"  # the uniform-random player every engine shares
    assert [s.name for s in listed_strategies(game)] == names
    for name, strategy in game.strategies().items():
        assert strategy.name == name and strategy.game == game.id and strategy.description


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_plain_shipped_strategy_plays(game_id: str) -> None:
    game = registered(game_id)
    for lineup in mixed_lineups(game, plain_strategies(game)):
        check_reached(game, lineup, 2 * len(lineup))


@pytest.mark.slow  # compiles each game's search loop: minutes a game
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_shipped_search_player_plays(game_id: str) -> None:
    game = registered(game_id)
    search = [name for name in game.strategies() if name in SEARCH]
    assert bool(search) == game.capabilities.search
    texts = []
    for name in search:
        params = dict(game.strategies()[name].params)
        small = [f"{k}={v}" for k, v in SMALL_BUDGETS.items() if k in params]
        texts.append(f"{name}:{','.join(small)}" if small else name)
    for lineup in mixed_lineups(game, [*texts, "random"]):
        check_reached(game, lineup, len(lineup))
