"""Whole games: the end, the caps, the rounds variant's scoring, ties and first players."""

from __future__ import annotations

import numpy as np
import pytest

from balance.core.errors import BalanceError
from balance.games.la_planche import engine
from balance.games.la_planche.engine import play_games
from balance.games.la_planche.engine_nb import ActionStat, GameStat, SeatStat
from balance.games.la_planche.reference import ACTIONS, PUSH, play_game
from balance.games.la_planche.rules import LaPlancheRules

ROUNDS = LaPlancheRules(rounds=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_is_won_by_the_last_prisoner_s_owner(players: int) -> None:
    records = play_games(LaPlancheRules(), players, seed=3, n_games=3_000)
    games, seats = records.games, records.seats
    assert games[:, GameStat.FINISHED].all()
    assert (games[:, GameStat.ROUNDS] == 1).all()
    assert (games[:, GameStat.FALLS] == 15).all()
    last = games[:, GameStat.LAST_COLOUR]
    owner = seats[:, :, SeatStat.COLOUR] == last[:, None]
    np.testing.assert_array_equal(seats[:, :, SeatStat.WON], owner)
    assert (seats[:, :, SeatStat.SCORE] == 0).all()
    # Each game's colours: distinct per seat; every colour falls 4 times except the last.
    colours = seats[:, :, SeatStat.COLOUR]
    assert all(len(set(row)) == players for row in colours)
    for g in range(200):
        counts = np.bincount(records.fell[g], minlength=4)
        expected = np.full(4, 4)
        expected[last[g]] -= 1
        np.testing.assert_array_equal(counts, expected)
    # Turns: the sum over seats; the mandatory push every turn but (perhaps) the last.
    assert (seats[:, :, SeatStat.TURNS].sum(axis=1) == games[:, GameStat.TURNS]).all()
    pushes = records.actions[:, :, PUSH, ActionStat.DONE].sum(axis=1)
    assert ((games[:, GameStat.TURNS] - pushes) <= 1).all()
    done = records.actions[:, :, : ACTIONS.index("push"), ActionStat.DONE].sum(axis=(1, 2))
    np.testing.assert_array_equal(done, games[:, GameStat.TURNS])
    fell = records.actions[:, :, :, ActionStat.FELL_OWN : ActionStat.FELL_OTHER + 1]
    fell = fell.sum(axis=(1, 2, 3))
    assert (fell == 15).all()
    # With 2 or 3 players the last prisoner is sometimes nobody's: nobody wins.
    nobody = seats[:, :, SeatStat.WON].sum(axis=1) == 0
    assert nobody.any() if players < 4 else not nobody.any()


def test_the_turn_cap_ends_a_game_unfinished() -> None:
    records = play_games(LaPlancheRules(turn_cap=5), 3, seed=1, n_games=200)
    assert (records.games[:, GameStat.TURNS] == 5).all()
    assert not records.games[:, GameStat.FINISHED].any()
    assert (records.games[:, GameStat.LAST_COLOUR] == -1).all()
    assert not records.seats[:, :, SeatStat.WON].any()
    assert play_game(LaPlancheRules(turn_cap=5), 3, 1, 0) == records.game_record(0)


def test_rounds_scoring_with_a_target_of_one() -> None:
    # Every game is one round; the scores are 5, 3, 1 for the last prisoner, the last to
    # fall and the one before, to their colours' owners.
    rules = LaPlancheRules(rounds=True, target=1)
    for players in (2, 4):
        records = play_games(rules, players, seed=4, n_games=1_000)
        for g in range(1_000):
            record = records.game_record(g)
            assert record.finished
            if record.rounds > 1:
                # Two players: the three scoring colours were all nobody's in round 1.
                assert players == 2 and sum(record.score) <= 9
                continue
            owner = {c: s for s, c in enumerate(record.colour)}
            expected = [0] * players
            for colour, points in zip(
                (record.last_colour, record.fell[-1], record.fell[-2]), (5, 3, 1), strict=True
            ):
                if colour in owner:
                    expected[owner[colour]] += points
            assert record.score == expected
            best = max(expected)
            assert record.won == [x == best and best >= 1 for x in expected]


def test_rounds_games_end_at_the_target_and_share_ties() -> None:
    records = play_games(ROUNDS, 4, seed=9, n_games=3_000)
    scores = records.seats[:, :, SeatStat.SCORE]
    won = records.seats[:, :, SeatStat.WON].astype(bool)
    assert records.games[:, GameStat.FINISHED].all()
    # All four colours are owned: 9 points a round.
    np.testing.assert_array_equal(scores.sum(axis=1), 9 * records.games[:, GameStat.ROUNDS])
    best = scores.max(axis=1)
    assert (best >= 12).all()
    np.testing.assert_array_equal(won, scores == best[:, None])
    assert (won.sum(axis=1) > 1).any(), "no shared win in 3,000 games"
    # The round before the last, nobody had reached 12: a round gives a seat at most 9.
    assert (best <= 11 + 9).all()


def test_the_first_player_moves_clockwise_each_round() -> None:
    lines: list[str] = []
    record = play_game(LaPlancheRules(rounds=True), 3, 2, 0, narrate=lines.append)
    firsts = [line.split()[3] for line in lines if line.startswith("Turn 1:")]
    assert len(firsts) == record.rounds >= 3
    assert firsts == [str(r % 3) for r in range(record.rounds)]


def test_caps_in_the_rounds_variant() -> None:
    rules = LaPlancheRules(rounds=True, target=1000, round_cap=2)
    records = play_games(rules, 4, seed=5, n_games=100)
    assert (records.games[:, GameStat.ROUNDS] == 2).all()
    assert not records.games[:, GameStat.FINISHED].any()
    assert (records.games[:, GameStat.LAST_COLOUR] == -1).all()
    assert (records.seats[:, :, SeatStat.SCORE].sum(axis=1) == 18).all()
    assert not records.seats[:, :, SeatStat.WON].any()
    # A round reaching the turn cap ends the game; turns add up over the rounds.
    rules = LaPlancheRules(rounds=True, turn_cap=22)
    records = play_games(rules, 4, seed=5, n_games=300)
    unfinished = ~records.games[:, GameStat.FINISHED].astype(bool)
    assert unfinished.any() and not unfinished.all()
    turns = records.games[:, GameStat.TURNS]
    rounds = records.games[:, GameStat.ROUNDS]
    assert (turns[unfinished] >= 22).all()
    assert (turns[unfinished & (rounds > 1)] > 22).all()
    assert (unfinished & (rounds > 1)).any()
    for g in np.flatnonzero(unfinished)[:20]:
        assert play_game(rules, 4, 5, int(g)) == records.game_record(int(g))


@pytest.mark.parametrize(("players", "message"), [(1, "2 to 4 players, not 1"), (5, "not 5")])
def test_player_counts(players: int, message: str) -> None:
    with pytest.raises(BalanceError, match=message):
        engine.ENGINE.check_players(players)
