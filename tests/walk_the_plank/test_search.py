"""Walk the Plank played on from any position, and its determinizations.

A game played to any step, copied and played on must be the game the reference engine
plays straight through; a determinization must keep everything the searching seat has
seen, keep every count consistent, and draw every programme the others may hold.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.walk_the_plank import greedy

from balance.core.dispatch import read_only_view
from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS, SeatStrategy
from balance.games.walk_the_plank import engine
from balance.games.walk_the_plank import search_nb as S
from balance.games.walk_the_plank.bridge import CompiledStrategy
from balance.games.walk_the_plank.cards import N_CARDS
from balance.games.walk_the_plank.reference import RandomStrategy, play_game
from balance.games.walk_the_plank.rules import WalkThePlankRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
S = engine.DISPATCH.bound(S)

GREEDY = 3


def reference_game(rules: WalkThePlankRules, codes: list[int], seed: int, game: int):
    """The reference engine's game, seats playing random (0) or greedy (3)."""

    def make_player(seat: int, stream):
        if codes[seat] == 0:
            return RandomStrategy(stream)
        return CompiledStrategy(SeatStrategy(greedy, ()), rules, stream)

    return play_game(rules, len(codes), seed, game, make_player=make_player)


def split_game(rules: WalkThePlankRules, codes: list[int], seed: int, game: int, split: int):
    n = len(codes)
    params = np.zeros((n, MAX_PARAMS))
    out = np.zeros(2 * n + 4, dtype=np.int64)
    code_array = np.array(codes, dtype=np.int64)
    # The rules read-only, as a search player's positions hold them in a run (the loop
    # passes it the game's arrays read-only): the search compiles once for both.
    rules_array = read_only_view(rules.to_array())
    S.play_split_nb(n, rules_array, code_array, params, seed, game, split, out)
    return out


def check_every_split(rules: WalkThePlankRules, codes: list[int], seed: int, game: int) -> int:
    """The game split at every step equals the reference game; returns its steps."""
    n = len(codes)
    expected = reference_game(rules, codes, seed, game)
    whole = split_game(rules, codes, seed, game, S.NO_LIMIT)
    steps = int(whole[2 * n + 3])
    assert steps >= 1 + 3 * n  # at least one round
    for split in range(steps + 1):
        out = split_game(rules, codes, seed, game, split)
        assert out[:n].astype(bool).tolist() == expected.winners, split
        assert out[n : 2 * n].tolist() == expected.pirates_left, split
        assert out[2 * n] == expected.rounds, split
        status = S.Status.FINISHED if expected.finished else S.Status.CAPPED
        assert out[2 * n + 1] == status, split
        assert out[2 * n + 2] == expected.ghost_seat, split
        assert out[2 * n + 3] == steps, split
    return steps


CASES = [
    (WalkThePlankRules(), [0, 0, 0, 0]),
    (WalkThePlankRules(ghost=True, dolphin=True, kraken=True), [GREEDY, 0, GREEDY]),
    (WalkThePlankRules(ghost=True, kraken=True), [0, GREEDY]),
]


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize("case", range(len(CASES)))
def test_a_game_split_at_any_step_is_the_reference_game(case: int) -> None:
    rules, codes = CASES[case]
    for game in range(2):
        check_every_split(rules, codes, seed=11 + case, game=game)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_games_split_at_any_step_are_the_reference_games(players: int) -> None:
    rng = np.random.default_rng(players)
    for game in range(12):
        variants = {v: bool(rng.integers(2)) for v in ("ghost", "dolphin", "kraken")}
        codes = [int(c) for c in rng.choice([0, GREEDY], players)]
        check_every_split(WalkThePlankRules(**variants), codes, seed=players, game=game)


# ---------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------


def position_at(rules: WalkThePlankRules, n: int, seed: int, steps: int):
    """A position of a random game ``steps`` steps in, with its streams."""
    pos = S.new_position_nb(n, read_only_view(rules.to_array()))
    work = S.new_work_nb(n)
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], seed, 0, stream)
    S.start_nb(pos)
    codes = np.zeros(n, dtype=np.int64)
    S.advance_nb(pos, codes, np.zeros((n, MAX_PARAMS)), rng, work, steps)
    return pos


def public_part(pos) -> list[np.ndarray]:
    pirates, living, state, resting, shown = pos[:5]
    return [a.copy() for a in (pirates, living, state, resting, shown, pos[9], pos[12])]


@pytest.mark.slow  # compiles the search: the long suite
def test_a_determinization_keeps_what_the_seat_has_seen_and_draws_every_programme() -> None:
    rules = WalkThePlankRules(ghost=True)
    n, seat = 4, 1
    # Mid-round: the round's programmes made, some cards revealed.
    checked = 0
    for steps in (1, 3, 6, 16, 21):
        pos = position_at(rules, n, seed=5, steps=steps)
        if pos[12][S.Where.STATUS] != S.Status.RUNNING or pos[12][S.Where.STEP] < 0:
            continue
        checked += 1
        before = public_part(pos)
        own = pos[10][seat].copy()
        shown = pos[4]
        rng = np.zeros(4, dtype=np.uint64)
        seed_stream_nb(rng, 99, steps, 0)
        seen = np.zeros((n, 3, N_CARDS), dtype=bool)
        for _ in range(400):
            S.determinize_nb(pos, seat, True, rng)
            for a, b in zip(before, public_part(pos), strict=True):
                np.testing.assert_array_equal(a, b)  # public information untouched
            np.testing.assert_array_equal(pos[10][seat], own)  # its own programme kept
            for q in range(n):
                if pos[1][q] == 0:
                    continue
                program = pos[10][q]
                assert len(set(program.tolist())) == 3  # three distinct cards
                available = S.available_nb(pos, q)
                for slot in range(3):
                    card = int(program[slot])
                    assert (available >> card) & 1  # never a resting or set-aside card
                    if shown[q, slot] >= 0:
                        assert card == shown[q, slot]  # revealed cards stay
                    seen[q, slot, card] = True
        for q in range(n):
            if q == seat or pos[1][q] == 0:
                continue
            free = S.available_nb(pos, q)
            for slot in range(3):
                if shown[q, slot] >= 0:
                    free &= ~(1 << int(shown[q, slot]))
            for slot in range(3):
                if shown[q, slot] < 0:  # every card it may still hold there is drawn
                    drawn = {c for c in range(N_CARDS) if seen[q, slot, c]}
                    assert drawn == {c for c in range(N_CARDS) if (free >> c) & 1}
    assert checked >= 3
