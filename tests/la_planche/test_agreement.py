"""The compiled engine and the readable reference play identical games from the same seeds."""

import pytest
from balance.strategies.la_planche import detective, protector
from balance.strategies.la_planche import random as random_strategy

from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy
from balance.games.la_planche.bridge import lineup_player_factory
from balance.games.la_planche.engine import forbidden_by_seat, play_games
from balance.games.la_planche.reference import play_game
from balance.games.la_planche.rules import LaPlancheRules


def assert_agree(
    rules: LaPlancheRules,
    players: int,
    seed: int,
    games: int,
    first: int = 0,
    lineup: Lineup | None = None,
) -> None:
    compiled = play_games(rules, players, seed, games, first_game=first, lineup=lineup)
    for g in range(games):
        game = first + g
        make_player = lineup_player_factory(lineup, rules, game) if lineup else None
        forbidden = [int(s) for s in forbidden_by_seat(lineup, game)] if lineup else []
        expected = play_game(
            rules, players, seed, game, make_player=make_player, forbidden=forbidden
        )
        assert compiled.game_record(g) == expected, f"game {game} differs"


def _lineup(strategies, rotate: bool) -> Lineup:
    return Lineup(
        tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in strategies), rotate=rotate
    )


@pytest.mark.parametrize(
    ("strategies", "rotate"),
    [
        ((protector, protector, protector), False),
        ((detective, detective), False),
        ((detective, protector, random_strategy, detective), True),
        ((random_strategy, detective, protector), True),
    ],
    ids=["protectors", "detectives", "mixed-4-rotated", "mixed-3-rotated"],
)
def test_engines_agree_with_protector_and_detective(strategies, rotate: bool) -> None:
    lineup = _lineup(strategies, rotate)
    assert_agree(LaPlancheRules(), len(strategies), seed=5, games=120, lineup=lineup)


@pytest.mark.parametrize("symbol", ["swap", "advance", "move"])
def test_engines_agree_under_restricted_play(symbol: str) -> None:
    lineup = _lineup((detective, random_strategy, protector), True)
    lineup = Lineup(lineup.seats, rotate=True, restricted=(symbol,))
    assert_agree(LaPlancheRules(), 3, seed=13, games=60, lineup=lineup)
    uniform = _lineup((random_strategy, random_strategy), False)
    uniform = Lineup(uniform.seats, restricted=(symbol,))
    assert_agree(LaPlancheRules(rounds=True), 2, seed=14, games=150, lineup=uniform)


def test_engines_agree_with_strategies_in_rounds() -> None:
    lineup = _lineup((detective, protector, random_strategy), True)
    assert_agree(LaPlancheRules(rounds=True), 3, seed=8, games=40, lineup=lineup)


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [LaPlancheRules(push="whole"), LaPlancheRules(rounds=True, push="whole", points=(3, 2, 1))],
    ids=["push-whole", "rounds-push-whole-points-321"],
)
def test_engines_agree_on_the_new_rules_over_more_games(rules: LaPlancheRules) -> None:
    for players in (2, 3, 4):
        assert_agree(rules, players, seed=17, games=4_000, first=10**6)


@pytest.mark.slow
@pytest.mark.parametrize("symbol", ["swap", "advance", "move"])
def test_engines_agree_under_restricted_play_over_more_games(symbol: str) -> None:
    lineup = _lineup((detective, protector, random_strategy, detective), True)
    lineup = Lineup(lineup.seats, rotate=True, restricted=(symbol,))
    assert_agree(LaPlancheRules(), 4, seed=19, games=600, lineup=lineup)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engines_agree_with_strategies_on_more_games(players: int) -> None:
    lineup = _lineup((detective, protector, random_strategy, detective)[:players], True)
    assert_agree(LaPlancheRules(), players, seed=11, games=2_000, lineup=lineup)
