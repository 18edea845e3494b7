"""The end condition, winners and the round cap, on both engines."""

import pytest

from balance.games.walk_the_plank import engine
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank import reference as ref
from balance.games.walk_the_plank.rules import WalkThePlankRules

GAME_OVER = [engine.game_over, ref.game_over]


@pytest.mark.parametrize("game_over", GAME_OVER, ids=["compiled", "reference"])
@pytest.mark.parametrize(
    ("living", "over"),
    [
        ([1, 1, 0, 0], True),  # 2 pirates of two players: both win
        ([0, 3, 0, 0], True),  # 3 pirates of one player: one winner
        ([0, 0, 0, 0], True),  # nobody left: no winner
        ([2, 0, 0], True),  # at most 2 pirates
        ([1, 1, 1], False),  # 3 pirates of three players
        ([2, 1, 0], False),  # 3 pirates of two players
        ([3, 3, 3, 3, 3], False),
    ],
)
def test_end_condition(game_over, living: list[int], over: bool) -> None:
    assert game_over(living) is over


def test_game_ends_after_the_round_in_which_the_condition_holds() -> None:
    # Two players with one pirate each meet the condition from the start: the first
    # round is still played to its end, and whoever still has a pirate wins.
    rules = WalkThePlankRules(pirates_per_player=1)
    records = engine.play_games(rules, 2, seed=5, n_games=500)
    assert (records.games[:, nb.GameStat.ROUNDS] == 1).all()
    assert records.games[:, nb.GameStat.FINISHED].all()
    won, left = records.seats[:, :, 0], records.seats[:, :, 1]
    assert ((won == 1) == (left > 0)).all()
    assert set(won.sum(axis=1).tolist()) == {0, 1, 2}  # all three endings happen
    for g in range(50):
        assert ref.play_game(rules, 2, 5, g) == records.game_record(g)


def test_winners_are_the_players_with_living_pirates() -> None:
    records = engine.play_games(WalkThePlankRules(), 4, seed=11, n_games=2000)
    won, left = records.seats[:, :, 0], records.seats[:, :, 1]
    assert ((won == 1) == (left > 0)).all()
    totals = left.sum(axis=1)
    single = (left > 0).sum(axis=1) == 1
    assert ((totals <= 2) | single).all()


@pytest.mark.parametrize("cap", [1, 3])
def test_round_cap_ends_games_unfinished_without_winner(cap: int) -> None:
    rules = WalkThePlankRules(round_cap=cap)
    records = engine.play_games(rules, 5, seed=3, n_games=300)
    rounds = records.games[:, nb.GameStat.ROUNDS]
    unfinished = records.games[:, nb.GameStat.FINISHED] == 0
    assert unfinished.any()
    assert (rounds <= cap).all()
    assert (rounds[unfinished] == cap).all()
    assert (records.seats[unfinished, :, 0] == 0).all()
    g = int(unfinished.argmax())
    expected = ref.play_game(rules, 5, 3, g)
    assert not expected.finished and expected.rounds == cap and not any(expected.winners)
