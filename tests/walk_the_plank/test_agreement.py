"""The compiled engine and the readable reference play identical games from the same seeds."""

import itertools

import pytest

from balance.games.walk_the_plank.engine import play_games
from balance.games.walk_the_plank.reference import play_game
from balance.games.walk_the_plank.rules import WalkThePlankRules

VARIANT_SETS = [
    dict(zip(("ghost", "dolphin", "kraken"), flags, strict=True))
    for flags in itertools.product((False, True), repeat=3)
]


def _variant_id(variants: dict[str, bool]) -> str:
    return "+".join(name for name, on in variants.items() if on) or "base"


def assert_agree(rules: WalkThePlankRules, players: int, seed: int, games: int, first: int = 0):
    compiled = play_games(rules, players, seed, games, first_game=first)
    for g in range(games):
        expected = play_game(rules, players, seed, first + g)
        assert compiled.game_record(g) == expected, f"game {first + g} differs"


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_variant_id)
def test_engines_agree_on_500_games(players: int, variants: dict[str, bool]) -> None:
    # The fast check; the slow suite plays 12,000 games of every variant set and count.
    assert_agree(WalkThePlankRules(**variants), players, seed=20261125, games=500)


@pytest.mark.parametrize(
    "rules",
    [
        WalkThePlankRules(rest=()),
        WalkThePlankRules(rest=("charge", "run", "shove-left")),
        WalkThePlankRules(pirates_per_player=5, plank_max=6, plank_start=4, plank_min=2),
        WalkThePlankRules(pirates_per_player=1, plank_start=1, ghost=True, kraken=True),
        WalkThePlankRules(round_cap=2, dolphin=True),
    ],
    ids=["no-rest", "other-rest", "long-plank", "one-pirate", "round-cap-2"],
)
@pytest.mark.parametrize("players", [2, 4])
def test_engines_agree_on_other_rule_values(rules: WalkThePlankRules, players: int) -> None:
    assert_agree(rules, players, seed=99, games=300)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_variant_id)
def test_engines_agree_on_many_more_games(players: int, variants: dict[str, bool]) -> None:
    assert_agree(WalkThePlankRules(**variants), players, seed=7, games=12_000, first=10**9)
