"""The compiled engine and the reference play the same games, record for record: every
declared rule set, player count and shipped strategy, rotated, with restricted play."""

from __future__ import annotations

import pytest
from balance.core.game import Lineup, RuleSet, Setup, quiet
from balance.core.strategy import SeatStrategy

from crazy_eights.engine import ENGINE
from crazy_eights.game import GAME
from crazy_eights.strategies import SHIPPED


def lineup(players: int, names: tuple[str, ...], restricted: tuple[str, ...] = ()) -> Lineup:
    chosen = [GAME.strategies()[names[s % len(names)]] for s in range(players)]
    seats = tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in chosen)
    return Lineup(seats, rotate=len(set(names)) > 1, restricted=restricted)


def assert_agree(rules, players: int, seated: Lineup, games: int = 40, seed: int = 11) -> None:
    first = 1_000 + players  # not game 0: a game index reaching the streams wrongly shows
    records = ENGINE.play_games(rules, players, seed, games, first, seated)
    setup = Setup(GAME.id, players, rules, seated, seed)
    for g in range(games):
        assert records.game_record(g) == GAME.narrate(setup, first + g, quiet), f"game {g}"


@pytest.mark.parametrize("rule_set", GAME.checked_rules, ids=lambda r: r.name)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_engines_agree_under_every_declared_rule_set(rule_set: RuleSet, players: int) -> None:
    rules = GAME.make_rules(rule_set.variants, rule_set.rules)
    assert_agree(rules, players, lineup(players, ("random",)))


@pytest.mark.parametrize("rule_set", GAME.checked_rules[:6], ids=lambda r: r.name)
@pytest.mark.parametrize("players", [2, 5])
def test_engines_agree_with_every_shipped_strategy(rule_set: RuleSet, players: int) -> None:
    rules = GAME.make_rules(rule_set.variants, rule_set.rules)
    assert_agree(rules, players, lineup(players, tuple(s.name for s in SHIPPED)))


@pytest.mark.parametrize("rank", ["eight", "two", "queen"])
def test_engines_agree_under_restricted_play(rank: str) -> None:
    rules = GAME.make_rules(("twos-draw-two", "queens-skip"), ())
    assert_agree(rules, 3, lineup(3, ("random", "eights-last", "dump-points"), (rank,)))
    assert_agree(rules, 2, lineup(2, ("random",), (rank,)))
