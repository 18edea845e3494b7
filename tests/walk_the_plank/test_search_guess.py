"""Walk the Plank's search players, ``guess=rollout``: the hidden cards they fill in are
the programme the rollout strategy would have made.

At the round's start the guess of each other seat is exactly the programme the game
loop's strategy makes from that position (given the same stream); later in the round the
revealed cards stay and the others follow the strategy's programme in its order. The
default (``guess=uniform``) is the uniform determinization, draw for draw.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.walk_the_plank import SURVIVOR_CARDS, mc
from cli_helpers import assert_one_line_error, call_main

from balance.core.dispatch import read_only_view
from balance.core.random_nb import seed_stream_nb
from balance.core.search_nb import best_index_nb
from balance.core.strategy import MAX_PARAMS
from balance.games.walk_the_plank import engine, mc_nb
from balance.games.walk_the_plank import search_nb as S
from balance.games.walk_the_plank.bridge import pack_position
from balance.games.walk_the_plank.cards import Card
from balance.games.walk_the_plank.rules import WalkThePlankRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
mc_nb = engine.DISPATCH.bound(mc_nb)
S = engine.DISPATCH.bound(S)

SURVIVOR, GREEDY = 2, 3


def round_start(rules: WalkThePlankRules, n: int, codes: list[int], seed: int, rounds: int):
    """A game of ``codes`` played to the start of round ``rounds + 1`` (programmes not yet
    made, last round's cards cleared), with the game's streams as they stand there; None
    if it ended before."""
    # The rules read-only, as a search player's positions hold them in a run.
    pos = S.new_position_nb(n, read_only_view(rules.to_array()))
    work = S.new_work_nb(n)
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], seed, 0, stream)
    S.start_nb(pos)
    code_array = np.array(codes, dtype=np.int64)
    params = np.zeros((n, MAX_PARAMS))
    S.advance_nb(pos, code_array, params, rng, work, rounds * (1 + 3 * n))
    if pos[12][S.Where.STATUS] != S.Status.RUNNING:
        return None
    assert pos[12][S.Where.STEP] == -1
    pos[4][:] = -1  # no card shown yet this round, as a programme decision sees it
    return pos, code_array, params, rng


#: Hand-built round starts: (players, plank, {seat: {tile: count}}, resting cards by seat).
HAND_BUILT = [
    (3, 3, {0: {0: 3}, 1: {0: 3}, 2: {0: 3}}, [0, 0, 0]),  # the opening
    (2, 3, {0: {3: 1}, 1: {3: 1, 0: 1}}, [0, 1 << Card.NOT_ME]),
    (3, 2, {0: {1: 2}, 1: {2: 1, 0: 1}, 2: {0: 2, 2: 1}}, [1 << Card.RUN, 0, 1 << Card.CHARGE]),
    (4, 1, {0: {1: 1}, 1: {0: 2}, 2: {1: 1, 0: 1}, 3: {0: 1}}, [0, 1 << Card.PULL_TO_SHIP, 0, 0]),
]


def hand_built(position, case: int):
    """Hand-built round start ``case`` of :data:`HAND_BUILT` (made with the ``position``
    fixture) as a search position, with parameters and streams for its ``n`` seats."""
    n, plank, layout, resting = HAND_BUILT[case]
    layout_position = position(n, plank, layout)
    layout_position.resting = resting
    obs = pack_position(layout_position, WalkThePlankRules())
    pos = S.new_position_nb(n, obs[5])
    mc_nb.root_from_obs_nb(obs, pos)
    pos[12][S.Where.STEP] = -1
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], 11, case, stream)
    return pos, np.zeros((n, MAX_PARAMS)), rng


def copied(pos):
    other = S.new_position_nb(pos[6], pos[5])
    S.copy_position_nb(pos, other)
    return other


def survivor_programme(available: int) -> list[int]:
    """Survivor's programme, said again here: its first three cards available, Charge
    never first."""
    cards = [int(c) for c in SURVIVOR_CARDS if (available >> int(c)) & 1][:3]
    if cards[0] == Card.CHARGE:
        cards[0], cards[1] = cards[1], cards[0]
    return cards


@pytest.mark.parametrize("code", [SURVIVOR, GREEDY])
def test_the_guess_is_the_programme_the_strategy_makes_at_a_hand_built_round_start(
    position, code
) -> None:
    for case in range(len(HAND_BUILT)):
        pos, params, rng = hand_built(position, case)
        n, seat = pos[6], 0
        codes = np.full(n, code, dtype=np.int64)
        guessed = copied(pos)
        streams = rng.copy()
        S.program_all_nb(pos, codes, params, rng)  # as the game loop programmes
        filler = np.zeros(3, dtype=np.int64)
        S.determinize_as_nb(
            guessed, seat, True, streams[0], S.GUESS_ROLLOUT, codes, params, filler, S.NO_MEMORY
        )
        for q in range(1, n):
            if pos[1][q] == 0:
                continue
            again = copied(guessed)
            again[10][q] = -1
            S.guess_program_nb(again, q, code, params[q], streams[1 + q].copy(), filler)
            assert again[10][q].tolist() == pos[10][q].tolist(), (case, q)
            if code == SURVIVOR:
                assert guessed[10][q].tolist() == pos[10][q].tolist()
                assert pos[10][q].tolist() == survivor_programme(S.available_nb(pos, q))


@pytest.mark.slow  # plays games to reach its positions: compiles the whole playout
@pytest.mark.parametrize("code", [SURVIVOR, GREEDY])
@pytest.mark.parametrize("variants", [{}, {"ghost": True, "kraken": True}])
def test_at_the_round_start_the_guess_is_the_strategys_own_programme(code, variants) -> None:
    rules = WalkThePlankRules(**variants)
    n, seat = 3, 0
    checked = 0
    for rounds in (0, 1, 3, 6):
        start = round_start(rules, n, [code] * n, seed=7, rounds=rounds)
        if start is None:
            continue
        pos, codes, params, rng = start
        guessed = copied(pos)
        streams = rng.copy()
        S.program_all_nb(pos, codes, params, rng)  # the game loop's programmes
        filler = np.zeros(3, dtype=np.int64)
        S.determinize_as_nb(
            guessed, seat, True, streams[1], S.GUESS_ROLLOUT, codes, params, filler, S.NO_MEMORY
        )
        for q in range(n):
            if q == seat or pos[1][q] == 0:
                continue
            # The same stream as the strategy's own: the very programme it made.
            again = copied(guessed)
            again[10][q] = -1
            S.guess_program_nb(again, q, code, params[q], streams[1 + q].copy(), filler)
            assert again[10][q].tolist() == pos[10][q].tolist()
            if code == SURVIVOR:  # no draw at all: the guess is the programme, any stream
                assert guessed[10][q].tolist() == pos[10][q].tolist()
                assert pos[10][q].tolist() == survivor_programme(S.available_nb(pos, q))
            checked += 1
    assert checked >= 4


def test_later_in_the_round_revealed_cards_stay_and_the_rest_follow_the_strategy(
    position,
) -> None:
    pos, params, _ = hand_built(position, 1)
    programme = survivor_programme(S.available_nb(pos, 1))
    filler = np.zeros(3, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, 1, 0, 0)
    # Seat 1 revealed survivor's second card in slot 1: slots 2 and 3 hold its first and
    # third, in its order.
    pos[4][1, 0] = programme[1]
    pos[12][S.Where.STEP] = 2
    S.guess_program_nb(pos, 1, SURVIVOR, params[1], rng, filler)
    assert pos[10][1].tolist() == [programme[1], programme[0], programme[2]]
    # A card survivor would not programme revealed in slot 1, its first in slot 2.
    outsider = next(
        c for c in range(10) if c not in programme and (S.available_nb(pos, 1) >> c) & 1
    )
    pos[4][1, 0], pos[4][1, 1] = outsider, programme[0]
    S.guess_program_nb(pos, 1, SURVIVOR, params[1], rng, filler)
    assert pos[10][1].tolist() == [outsider, programme[0], programme[1]]
    # Every card revealed: nothing to guess.
    pos[4][1] = [3, 5, 7]
    S.guess_program_nb(pos, 1, SURVIVOR, params[1], rng, filler)
    assert pos[10][1].tolist() == [3, 5, 7]


def test_the_guess_keeps_the_public_position_and_the_searchers_own_programme(position) -> None:
    pos, params, rng = hand_built(position, 3)
    n, seat = 4, 2
    codes = np.full(n, GREEDY, dtype=np.int64)
    S.program_all_nb(pos, codes, params, rng)
    own = pos[10][seat].copy()
    public = [a.copy() for a in (*pos[:5], pos[9], pos[12])]
    filler = np.zeros(3, dtype=np.int64)
    S.determinize_as_nb(
        pos, seat, True, rng[0], S.GUESS_ROLLOUT, codes, params, filler, S.NO_MEMORY
    )
    for a, b in zip(public, (*pos[:5], pos[9], pos[12]), strict=True):
        np.testing.assert_array_equal(a, b)
    assert pos[10][seat].tolist() == own.tolist()


def test_the_default_guess_is_the_uniform_determinization_draw_for_draw(position) -> None:
    pos, params, rng = hand_built(position, 2)
    n, seat = 3, 1
    codes = np.full(n, GREEDY, dtype=np.int64)
    S.program_all_nb(pos, codes, params, rng)
    pos[4][0, 0] = pos[10][0, 0]  # seat 0 revealed its first card
    a, b = copied(pos), copied(pos)
    rng_a = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng_a, 9, 0, 0)
    rng_b = rng_a.copy()
    filler = np.zeros(3, dtype=np.int64)
    S.determinize_nb(a, seat, True, rng_a)
    S.determinize_as_nb(b, seat, True, rng_b, S.GUESS_UNIFORM, codes, params, filler, S.NO_MEMORY)
    np.testing.assert_array_equal(a[10], b[10])
    np.testing.assert_array_equal(rng_a, rng_b)


def test_the_programmes_guessed_at_the_round_start_are_remembered_while_they_fit(
    position,
) -> None:
    pos, params, rng = hand_built(position, 2)
    n = 3
    codes = np.full(n, GREEDY, dtype=np.int64)
    S.program_all_nb(pos, codes, params, rng)
    programmes = pos[10].copy()
    memory = S.encode_programs_nb(pos)
    for q in range(n):
        other = copied(pos)
        other[10][q] = -1
        assert S.remembered_program_nb(other, q, memory)
        assert other[10][q].tolist() == programmes[q].tolist()
    # A revealed card the memory did not foresee: the memory is not used.
    other = copied(pos)
    other[10][1] = -1
    other[4][1, 0] = next(c for c in range(10) if c not in programmes[1])
    assert not S.remembered_program_nb(other, 1, memory)
    assert other[10][1].tolist() == [-1, -1, -1]
    # No memory, or a seat whose programme was not set when it was made.
    assert not S.remembered_program_nb(other, 1, S.NO_MEMORY)
    pos[10][2] = -1
    assert not S.remembered_program_nb(copied(pos), 2, S.encode_programs_nb(pos))


def test_the_search_keeps_the_rollout_strategys_move_unless_another_did_strictly_better() -> None:
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, 1, 0, 0)
    tied = np.array([3.0, 5.0, 5.0, 1.0])
    for _ in range(20):
        assert mc_nb.pick_keeping_nb(tied, 4, 2, rng) == 2
        assert mc_nb.pick_keeping_nb(tied, 4, 0, rng) in (1, 2)
    assert {best_index_nb(tied, 4, rng) for _ in range(60)} == {1, 2}


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ("mc:guess=2", "'guess' must be from 0 to 1, not 2"),
        ("mc:guess=smart", "'guess' needs a number or one of uniform, rollout"),
        ("ismcts:guess=-1", "'guess' must be from 0 to 1, not -1"),
    ],
)
def test_a_bad_guess_is_a_one_line_error(monkeypatch, capsys, given, fragment) -> None:
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "walk-the-plank", "-p", "2", "--strategy", given
    )
    assert_one_line_error(code, out, err, fragment)


def test_the_label_names_the_guess_by_its_word() -> None:
    from balance.strategies.walk_the_plank import SHIPPED

    from balance.core.strategy import parse_strategy

    chosen = parse_strategy(
        "mc:playouts=8,rollout=greedy,guess=rollout",
        {s.name: s for s in SHIPPED},
        "walk-the-plank",
    )
    assert chosen.strategy is mc
    assert chosen.label == "mc(playouts=8,rollout=greedy,guess=rollout)"
    assert chosen.vector()[mc_nb.Search.MC_GUESS] == S.GUESS_ROLLOUT
