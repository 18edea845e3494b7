"""The compiled engine and the readable reference engine play the same games from the same
seeds: every rule set a game declares (``Game.checked_rules``; the defaults at every player
count, the others at the fewest and the most), and its shipped strategies round the table
with restricted play."""

from __future__ import annotations

import dataclasses

import pytest

from balance.core.errors import BalanceError
from balance.core.game import Game
from contract.helpers import (
    GAME_IDS,
    assert_same_blocks,
    mixed_setup,
    player_counts,
    registered,
    restricted_choices,
    rule_setup,
)

#: Games of each rule set and player count on both engines (the slow suite plays more:
#: the many for the defaults and each set of variants, fewer for other rule values).
GAMES = 100
MANY_GAMES = 12_000
MORE_GAMES = 2_000


def counts(game: Game, first: bool) -> list[int]:
    """Every player count for the first (default) rule set, else the fewest and the most."""
    every = list(player_counts(game))
    return every if first else sorted({every[0], every[-1]})


#: (game, rule set, players) for every registered game's declared rule sets.
CASES = [
    pytest.param(game_id, rule_set.name, players, id=f"{game_id}-{rule_set.name}-{players}p")
    for game_id in GAME_IDS
    for k, rule_set in enumerate(registered(game_id).checked_rules)
    for players in counts(registered(game_id), k == 0)
]
#: The slow suite's cases: every rule set at every player count.
MANY_CASES = [
    pytest.param(game_id, rule_set.name, players, id=f"{game_id}-{rule_set.name}-{players}p")
    for game_id in GAME_IDS
    for rule_set in registered(game_id).checked_rules
    for players in player_counts(registered(game_id))
]


def assert_agree(game: Game, setup, first: int, games: int) -> None:
    compiled = game.play_block(setup, first, games)
    reference = game.reference_block(setup, first, games)
    assert reference.first_game == compiled.first_game == first
    assert_same_blocks([compiled], [reference], f"{game.id} games {first}..{first + games - 1}")


def rule_set(game: Game, name: str):
    return next(r for r in game.checked_rules if r.name == name)


@pytest.mark.parametrize(("game_id", "name", "players"), CASES)
def test_engines_agree_on_every_declared_rule_set(game_id: str, name: str, players: int) -> None:
    game = registered(game_id)
    assert_agree(game, rule_setup(game, rule_set(game, name), players), 1_000, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "name", "players"), MANY_CASES)
def test_engines_agree_on_many_more_games(game_id: str, name: str, players: int) -> None:
    game = registered(game_id)
    rules = rule_set(game, name)
    setup = rule_setup(game, rules, players, seed=7)
    assert_agree(game, setup, 10**9, MORE_GAMES if rules.rules else MANY_GAMES)


def test_every_declared_rule_set_changes_the_rules(game: Game) -> None:
    """A rule set the engines are checked on is played as declared: no two alike, and
    none but the first the default rules (a misspelt rule would be refused)."""
    rules = [game.make_rules(r.variants, r.rules) for r in game.checked_rules]
    assert rules[0] == game.default_rules() and game.checked_rules[0].name == "defaults"
    assert len({repr(r) for r in rules}) == len(rules)
    assert len({r.name for r in game.checked_rules}) == len(rules)
    for variant in game.variants:  # every variant is checked
        assert any(variant in r.variants for r in game.checked_rules), variant


@pytest.mark.parametrize(
    ("game_id", "restricted"),
    [
        pytest.param(game_id, restricted, id=f"{game_id}-{'-'.join(restricted) or 'none'}")
        for game_id in GAME_IDS
        for restricted in restricted_choices(registered(game_id))
    ],
)
def test_engines_agree_with_the_shipped_strategies_and_restricted_play(
    game_id: str, restricted: tuple[str, ...]
) -> None:
    game = registered(game_id)
    setup = mixed_setup(game, restricted)
    assert len(set(setup.lineup.labels)) > 1 or len(game.strategies()) == 1
    assert_agree(game, setup, 0, 60)


def test_the_agreement_check_sees_another_game(game: Game) -> None:
    """The comparison above fails for games that differ: the same indices of another seed."""
    setup = rule_setup(game, game.checked_rules[0], game.max_players)
    other = dataclasses.replace(setup, seed=setup.seed + 1)
    compiled, reference = game.play_block(setup, 0, 50), game.reference_block(other, 0, 50)
    with pytest.raises(AssertionError):
        assert_same_blocks([compiled], [reference], "another seed")


def test_replay_narrates_the_compiled_game(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """``balance replay``: the reference engine narrates game ``i`` of a run, which must be
    the game the compiled engine recorded (else a one-line error)."""
    if not game.capabilities.replay:
        pytest.skip(f"{game.id} does not narrate its games")
    setup = mixed_setup(game, game.actions()[:1], seed=9)
    for index in (0, 7):
        text = game.replay(setup, index)
        first, seats = text.splitlines()[:2]
        assert first.startswith(f"{game.replay_title}, game {index} of the run seeded 9")
        for s in range(setup.players):
            label = setup.lineup.seats[int(setup.lineup.strategy_index(index, s))].label
            assert f"seat {s}: {label}" in seats
        assert len(text.splitlines()) > 6  # the game's own lines follow the header
    # A compiled record that is not the narrated game's is refused.
    narrate = game.narrate
    other = dataclasses.replace(setup, seed=setup.seed + 1)
    monkeypatch.setattr(game, "narrate", lambda s, i, say: narrate(other, i, say))
    with pytest.raises(BalanceError, match="disagree"):
        game.replay(setup, 0)
