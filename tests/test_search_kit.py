"""The search players' shared parts (``balance.core.search_nb``): ties broken uniformly, with
the draws the games' records depend on; tree nodes, UCB1 selection and back-propagation on
hand-built trees."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from balance.core.random_nb import below_nb, seed_stream_nb
from balance.core.search_nb import (
    AVAILABLE,
    FIRST_CHILD,
    KEY,
    MOVER,
    PATH,
    REWARD,
    USED,
    VISITS,
    add_child_nb,
    back_up_nb,
    best_index_nb,
    child_nb,
    clear_tree_nb,
    most_visited_nb,
    new_tree_nb,
    offer_nb,
    one_of_best_nb,
    select_nb,
    ucb1_nb,
)

DRAWS = 3000


def stream(seed: int = 7) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, seed, 0, 0)
    return rng


def assert_uniform(counts: Counter, options: set[int], draws: int) -> None:
    """Only ``options`` were picked, each within 5 standard deviations of its share."""
    assert set(counts) == options
    p = 1 / len(options)
    sd = (draws * p * (1 - p)) ** 0.5
    for option in options:
        assert abs(counts[option] - draws * p) < 5 * sd, counts


# ---------------------------------------------------------------------------
# Ties
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("pick", [best_index_nb, one_of_best_nb])
def test_ties_are_broken_uniformly_over_the_tied_options(pick) -> None:
    values = np.array([3.0, 5.0, 1.0, 5.0, 5.0, 4.0])
    rng = stream()
    counts = Counter(pick(values, 6, rng) for _ in range(DRAWS))
    assert_uniform(counts, {1, 3, 4}, DRAWS)
    # Only the first ``count`` values are options.
    assert {pick(values, 3, rng) for _ in range(50)} == {1}


@pytest.mark.parametrize("pick", [best_index_nb, one_of_best_nb])
def test_a_single_best_option_is_picked_without_a_draw(pick) -> None:
    rng = stream()
    before = rng.copy()
    assert pick(np.array([0.5, 2.0, 1.0]), 3, rng) == 1
    assert pick(np.array([4.0]), 1, rng) == 0
    assert np.array_equal(rng, before)


def test_best_index_draws_once_for_each_option_tied_with_an_earlier_one() -> None:
    values = np.array([2.0, 2.0, 1.0, 2.0, 3.0, 3.0])
    rng = stream()
    best_index_nb(values, 6, rng)
    # Ties met: the second 2 (one of two), the third 2 (one of three), the second 3
    # (one of two).
    expected = stream()
    for ties in (2, 3, 2):
        below_nb(expected, ties)
    assert np.array_equal(rng, expected)


def test_one_of_best_draws_once_after_finding_every_tied_option() -> None:
    values = np.array([2.0, 3.0, 1.0, 3.0, 3.0])
    rng = stream()
    got = one_of_best_nb(values, 5, rng)
    expected = stream()
    assert got == (1, 3, 4)[below_nb(expected, 3)]
    assert np.array_equal(rng, expected)


def test_offer_keeps_a_running_best_and_breaks_its_ties_as_best_index() -> None:
    values = np.array([1.0, 4.0, 4.0, 2.0, 4.0, 0.0])
    for seed in range(20):
        rng, twin = stream(seed), stream(seed)
        best, top, ties = -1, -np.inf, 0
        for k, value in enumerate(values):
            taken, top, ties = offer_nb(value, top, ties, rng, 0.0)
            if taken:
                best = k
        assert (top, ties) == (4.0, 3)
        assert best == best_index_nb(values, 6, twin)
        assert np.array_equal(rng, twin)


def test_offer_counts_values_within_the_tolerance_as_tied() -> None:
    rng = stream()
    taken, top, ties = offer_nb(1.0, -1e300, 0, rng, 1e-9)
    assert (taken, top, ties) == (True, 1.0, 1)
    # Within the tolerance: tied, and the best's value stays.
    _, top, ties = offer_nb(1.0 + 5e-10, top, ties, rng, 1e-9)
    assert (top, ties) == (1.0, 2)
    _, top, ties = offer_nb(1.0 - 5e-10, top, ties, rng, 1e-9)
    assert (top, ties) == (1.0, 3)
    # Below: passed over, nothing drawn.
    before = rng.copy()
    assert offer_nb(0.5, top, ties, rng, 1e-9) == (False, 1.0, 3)
    assert np.array_equal(rng, before)
    # Above by more than the tolerance: the new best alone.
    assert offer_nb(1.1, top, ties, rng, 1e-9) == (True, 1.1, 1)


def test_offered_ties_are_broken_uniformly() -> None:
    rng = stream()
    counts: Counter = Counter()
    for _ in range(DRAWS):
        best, top, ties = -1, -1e300, 0
        for k, value in enumerate((2.0, 2.0 + 1e-12, 1.0, 2.0 - 1e-12)):
            taken, top, ties = offer_nb(value, top, ties, rng, 1e-9)
            if taken:
                best = k
        counts[best] += 1
    assert_uniform(counts, {0, 1, 3}, DRAWS)


# ---------------------------------------------------------------------------
# Trees
# ---------------------------------------------------------------------------


def hand_built_tree(stats: list[tuple[float, float, float]], size: int = 8) -> tuple:
    """A root whose children ``1, 2, ...`` (keys 10, 20, ...) have ``(visits, available,
    reward)`` from ``stats``."""
    tree = new_tree_nb(size)
    for i, (visits, available, reward) in enumerate(stats):
        child = add_child_nb(tree, 0, 10 * (i + 1), i % 2)
        tree[VISITS][child] = visits
        tree[AVAILABLE][child] = available
        tree[REWARD][child] = reward
    return tree


def test_children_are_added_newest_first_and_found_by_their_key() -> None:
    tree = new_tree_nb(5)
    assert tree[USED][0] == 1 and tree[FIRST_CHILD][0] == -1
    a = add_child_nb(tree, 0, 7, 1)
    b = add_child_nb(tree, 0, 3, 0)
    c = add_child_nb(tree, a, 3, 2)
    assert (a, b, c) == (1, 2, 3) and tree[USED][0] == 4
    assert tree[FIRST_CHILD][0] == b
    assert (child_nb(tree, 0, 7), child_nb(tree, 0, 3), child_nb(tree, 0, 9)) == (a, b, -1)
    assert child_nb(tree, a, 3) == c
    assert (tree[KEY][c], tree[MOVER][c]) == (3, 2)
    assert (tree[VISITS][c], tree[AVAILABLE][c], tree[REWARD][c]) == (0.0, 1.0, 0.0)
    clear_tree_nb(tree)
    assert tree[USED][0] == 1 and child_nb(tree, 0, 7) == -1
    assert add_child_nb(tree, 0, 5, 0) == 1


def test_ucb1_is_the_mean_plus_the_exploration_bonus() -> None:
    tree = hand_built_tree([(4.0, 9.0, 3.0)])
    assert ucb1_nb(tree, 1, 0.0) == 0.75
    assert ucb1_nb(tree, 1, 2.0) == pytest.approx(0.75 + 2.0 * np.sqrt(np.log(9.0) / 4.0))


def test_selection_follows_the_child_of_best_ucb1_among_the_legal_ones() -> None:
    # Means 0.5, 0.8, 0.9; the third child (key 30) is not legal now.
    stats = [(10.0, 20.0, 5.0), (10.0, 20.0, 8.0), (10.0, 20.0, 9.0)]
    keys = np.array([10, 20], dtype=np.int64)
    found = np.zeros(2, dtype=np.int64)
    rng = stream()
    tree = hand_built_tree(stats)
    before = rng.copy()
    assert select_nb(tree, 0, keys, 2, 0, 0.0, found, rng) == (2, 1, False)
    assert np.array_equal(rng, before)  # nothing drawn
    assert tree[AVAILABLE][1:4].tolist() == [21.0, 21.0, 20.0]
    # Exploration: a rarely visited child of a lower mean wins with a large c.
    tree = hand_built_tree([(1.0, 50.0, 0.5), (40.0, 50.0, 32.0)])
    assert select_nb(tree, 0, keys, 2, 0, 0.0, found, rng)[0] == 2
    assert select_nb(tree, 0, keys, 2, 0, 2.0, found, rng)[0] == 1
    # Equal values: the first legal action's child.
    tree = hand_built_tree([(4.0, 8.0, 2.0), (4.0, 8.0, 2.0)])
    assert select_nb(tree, 0, keys[::-1].copy(), 2, 0, 1.0, found, rng)[0] == 2


def test_selection_adds_a_child_for_an_untried_action_drawn_uniformly() -> None:
    keys = np.array([10, 40, 20, 50], dtype=np.int64)
    found = np.zeros(4, dtype=np.int64)
    rng = stream()
    counts: Counter = Counter()
    for _ in range(600):
        tree = hand_built_tree([(3.0, 3.0, 3.0), (3.0, 3.0, 0.0)])
        twin = rng.copy()
        child, k, added = select_nb(tree, 0, keys, 4, 1, 1.0, found, rng)
        assert added and child == 3 and tree[USED][0] == 4
        assert tree[KEY][child] == keys[k] and k in (1, 3)
        assert (tree[MOVER][child], tree[AVAILABLE][child]) == (1, 1.0)
        assert child_nb(tree, 0, keys[k]) == child
        # The tried actions still count an availability; one draw picked the untried.
        assert tree[AVAILABLE][1:3].tolist() == [4.0, 4.0]
        assert k == (1, 3)[below_nb(twin, 2)]
        assert np.array_equal(rng, twin)
        counts[k] += 1
    assert_uniform(counts, {1, 3}, 600)


def test_back_up_counts_a_visit_and_the_movers_result_along_the_path() -> None:
    tree = new_tree_nb(6)
    a = add_child_nb(tree, 0, 1, 0)
    b = add_child_nb(tree, a, 2, 1)
    c = add_child_nb(tree, b, 3, 2)
    other = add_child_nb(tree, 0, 4, 1)
    tree[PATH][1:4] = (a, b, c)
    results = np.array([1.0, 0.0, 0.5])
    back_up_nb(tree, 3, results)
    back_up_nb(tree, 2, results)
    assert tree[VISITS][[0, a, b, c, other]].tolist() == [0.0, 2.0, 2.0, 1.0, 0.0]
    assert tree[REWARD][[0, a, b, c, other]].tolist() == [0.0, 2.0, 0.0, 0.5, 0.0]


def test_the_most_visited_child_then_the_better_reward_then_a_uniform_draw() -> None:
    rng = stream()
    tree = hand_built_tree([(5.0, 9.0, 1.0), (7.0, 9.0, 2.0), (7.0, 9.0, 3.0)])
    assert most_visited_nb(tree, 0, rng) == 3
    assert most_visited_nb(tree, 3, rng) == -1
    tree = hand_built_tree([(7.0, 9.0, 3.0), (2.0, 9.0, 2.0), (7.0, 9.0, 3.0)])
    counts = Counter(most_visited_nb(tree, 0, rng) for _ in range(DRAWS))
    assert_uniform(counts, {1, 3}, DRAWS)
