"""Walk the Plank's ``mc`` with ``width``: each programme slot tries only the cards greedy's
one-step evaluation rates best now, and the rollout strategy's own card.

The pruning is checked on hand-built positions against greedy's own programme (greedy
programmes the three cards its evaluation rates best, so ``width=3`` keeps exactly
them), and for what it keeps whatever the ratings: the rollout strategy's cards, the
card order, everything when the width covers every card.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.walk_the_plank import greedy_program
from cli_helpers import assert_one_line_error, call_main

from balance.core.random_nb import seed_stream_nb
from balance.games.walk_the_plank import engine, mc_nb
from balance.games.walk_the_plank.bridge import pack_position
from balance.games.walk_the_plank.cards import N_CARDS, Card
from balance.games.walk_the_plank.rules import WalkThePlankRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
mc_nb = engine.DISPATCH.bound(mc_nb)

NO_OWN = np.full(3, -1, dtype=np.int64)

#: Hand-built positions: (players, plank, {seat: {tile: count}}); seat 0 programmes.
HAND_BUILT = [
    (2, 3, {0: {3: 1}, 1: {3: 1, 0: 1}}),  # both on the plank's end
    (3, 2, {0: {1: 2}, 1: {2: 1, 0: 1}, 2: {0: 2, 2: 1}}),
    (4, 1, {0: {1: 1}, 1: {0: 2}, 2: {1: 1, 0: 1}, 3: {0: 1}}),
    (5, 3, {0: {0: 3}, 1: {0: 3}, 2: {0: 3}, 3: {0: 3}, 4: {0: 3}}),  # the opening
]


def obs_of(position, case: int):
    n, plank, layout = HAND_BUILT[case]
    return pack_position(position(n, plank, layout), WalkThePlankRules())


def every_card() -> np.ndarray:
    return np.arange(N_CARDS, dtype=np.int64)


def prune(obs, width: int, own: np.ndarray = NO_OWN, candidates: np.ndarray | None = None):
    cards = every_card() if candidates is None else candidates.copy()
    ratings = np.zeros(N_CARDS)
    kept = mc_nb.prune_cards_nb(obs, 0, cards, len(cards), width, own, ratings)
    return cards[:kept].tolist()


def ratings_of(obs) -> list[float]:
    """Greedy's rating of every card for seat 0, as the pruning works it out."""
    ratings = np.zeros(N_CARDS)
    mc_nb.prune_cards_nb(obs, 0, every_card(), N_CARDS, 1, NO_OWN, ratings)
    return ratings.tolist()


@pytest.mark.parametrize("case", range(len(HAND_BUILT)))
def test_width_three_keeps_the_three_cards_greedy_programmes(position, case: int) -> None:
    obs = obs_of(position, case)
    ratings = sorted(ratings_of(obs), reverse=True)
    if ratings[2] - ratings[3] < 1e-6:  # greedy breaks ties at random: no unique answer
        pytest.skip("greedy's third and fourth cards are rated alike here")
    out = np.zeros(3, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, 3, case, 0)
    greedy_program(obs, 0, (1 << N_CARDS) - 1, np.zeros(8), rng, out)
    assert prune(obs, 3) == sorted(out.tolist())


@pytest.mark.slow  # on another worker it compiles the pruning again: the long suite
@pytest.mark.parametrize("case", range(len(HAND_BUILT)))
def test_the_kept_cards_are_the_best_rated_in_card_order(position, case: int) -> None:
    obs = obs_of(position, case)
    ratings = ratings_of(obs)
    for width in (1, 2, 5):
        kept = prune(obs, width)
        assert len(kept) == width and kept == sorted(kept)
        dropped = [c for c in range(N_CARDS) if c not in kept]
        # No dropped card is rated above a kept one; among equals, the earlier card stays.
        for c in dropped:
            for k in kept:
                assert ratings[c] < ratings[k] or (ratings[c] == ratings[k] and k < c)


@pytest.mark.slow  # on another worker it compiles the pruning again: the long suite
def test_a_width_covering_every_card_keeps_every_card(position) -> None:
    obs = obs_of(position, 0)
    assert prune(obs, 0) == list(range(N_CARDS))
    assert prune(obs, N_CARDS) == list(range(N_CARDS))
    some = np.array([Card.RUN, Card.NOT_ME, Card.CHARGE], dtype=np.int64)
    assert prune(obs, 3, candidates=some) == some.tolist()


@pytest.mark.slow  # on another worker it compiles the pruning again: the long suite
def test_the_rollout_strategys_own_cards_are_always_tried(position) -> None:
    obs = obs_of(position, 0)  # both pirates on the plank's end
    ratings = ratings_of(obs)
    worst = int(np.argmin(ratings))
    assert worst not in prune(obs, 1)
    own = np.array([worst, -1, -1], dtype=np.int64)
    kept = prune(obs, 1, own)
    assert worst in kept and len(kept) == 2
    # Retract Plank drowns seat 0's own pirate at the plank's end: rated lowest here.
    assert ratings[Card.RETRACT_PLANK] < 0 and Card.RETRACT_PLANK not in prune(obs, 3)


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ("mc:width=11", "'width' must be from 0 to 10, not 11"),
        ("mc:width=-1", "'width' must be from 0 to 10, not -1"),
        ("mc:width=2.5", "parameter 'width' needs a whole number"),
    ],
)
def test_a_bad_width_is_a_one_line_error(monkeypatch, capsys, given, fragment) -> None:
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "walk-the-plank", "-p", "2", "--strategy", given
    )
    assert_one_line_error(code, out, err, fragment)


@pytest.mark.slow  # compiles the search's game loop: the long suite
def test_a_width_of_every_card_plays_the_games_of_no_width() -> None:
    from balance import api
    from balance.run.runner import run_games

    def records(width: int) -> dict[str, np.ndarray]:
        strategies = [f"mc:playouts=2,rollout=greedy,guess=rollout,width={width}", "greedy"]
        setup = api.make_setup("walk-the-plank", 2, seed=5, strategies=strategies)
        blocks = run_games(setup, 8, threads=1, progress=False).blocks
        return {k: np.concatenate([b.extra[k] for b in blocks]) for k in ("games", "seats")}

    no_width, every = records(0), records(N_CARDS)
    for name in no_width:
        np.testing.assert_array_equal(no_width[name], every[name])
    narrow = records(1)
    assert not all(np.array_equal(no_width[k], narrow[k]) for k in no_width)
