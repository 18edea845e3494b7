"""What every game's search players share, compiled: the best option with random ties, the
nodes of a search tree, UCB1 selection and back-propagation.

Pure ``@njit`` helpers over arrays. Each game's flat Monte Carlo (``mc``) and single-observer
ISMCTS (``ismcts``, Cowling, Powley & Whitehouse, IEEE TCIAIG 4(2), 2012) players call them
around their own determinizations and playouts, which say the game's rules and so stay
with the game. Every draw comes from the stream ``rng`` (uint64 ``(4,)``) the caller passes,
in the order documented here: a game's records depend on it.

**Ties.** :func:`tie_nb` is the one rule: the ``k``-th option found tied with the best so
far takes its place with probability ``1/k`` (one draw), which leaves each of the tied
options equally likely in the end. :func:`offer_nb` runs it over values offered one by
one, :func:`best_index_nb` over an array. :func:`one_of_best_nb` draws once among the tied
options after finding them all (a different order of draws, the one Lifeboats' search
players use).

**Trees.** A tree of ``size`` nodes (:func:`new_tree_nb`) is a tuple of arrays indexed by
node, node 0 the root; the slots are named by the constants below:

* ``FIRST_CHILD``, ``NEXT_SIBLING`` int64 ``(size,)``: the children of a node, the newest
  first, -1 ending the list;
* ``KEY`` int64 ``(size,)``: the action leading to the node, as the game numbers its
  actions (one integer: an option index, or an option's fields packed together);
* ``MOVER`` int64 ``(size,)``: the seat that chose the action;
* ``VISITS``, ``AVAILABLE``, ``REWARD`` float64 ``(size,)``: iterations through the node,
  iterations in which its action was legal at its parent (ISMCTS's availability counts),
  and the summed results of its mover;
* ``USED`` int64 ``(1,)``: nodes in use;
* ``PATH`` int64 ``(size,)``: the nodes the current iteration went through, ``PATH[0]``
  the root, for :func:`back_up_nb`.

An iteration adds at most one node, so a tree of ``iterations + 1`` nodes never fills.
"""

import numpy as np

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb

#: Slots of a tree (:func:`new_tree_nb`).
FIRST_CHILD, NEXT_SIBLING, KEY, MOVER, VISITS, AVAILABLE, REWARD, USED, PATH = range(9)


# ---------------------------------------------------------------------------
# The best option, ties broken at random
# ---------------------------------------------------------------------------


@njit(inline="always", cache=True)
def tie_nb(ties, rng):
    """One more option tied with the best held, ``ties`` options tied so far: returns the
    new count and whether the option takes the best's place (probability ``1 / count``,
    one draw from ``rng``)."""
    ties += 1
    return ties, below_nb(rng, ties) == 0


@njit(inline="always", cache=True)
def offer_nb(value, top, ties, rng, tolerance):
    """Offer ``value`` to the best so far, ``top``, held by ``ties`` tied options.

    ``value`` above ``top + tolerance`` is the new best alone; within ``tolerance`` of
    ``top`` (exactly ``top`` when ``tolerance`` is 0) it is tied (:func:`tie_nb`); lower,
    it is passed over. Returns ``(taken, top, ties)``: whether ``value`` is now the best
    held, and the new ``top`` and ``ties``. Start with ``ties = 0`` and ``top`` below every
    value that may be chosen.
    """
    if value > top + tolerance:
        return True, value, 1
    if value > top - tolerance or (tolerance == 0.0 and value == top):
        ties, taken = tie_nb(ties, rng)
        return taken, top, ties
    return False, top, ties


@njit(inline="always", cache=True)
def best_index_nb(values, count, rng):
    """Index of the largest of ``values[:count]`` (``count >= 1``), exact ties broken
    uniformly by ``rng``: one draw for each option tied with an earlier one."""
    best = 0
    ties = 1
    for i in range(1, count):
        if values[i] > values[best]:
            best = i
            ties = 1
        elif values[i] == values[best]:
            ties, taken = tie_nb(ties, rng)
            if taken:
                best = i
    return best


@njit(inline="always", cache=True)
def one_of_best_nb(values, count, rng):
    """Index of the largest of ``values[:count]`` (``count >= 1``), exact ties broken
    uniformly by one draw from ``rng`` made after finding them all (none for a single
    best)."""
    top = values[0]
    for k in range(1, count):
        top = max(top, values[k])
    ties = 0
    for k in range(count):
        ties += values[k] == top
    pick = below_nb(rng, ties) if ties > 1 else 0
    for k in range(count):
        if values[k] == top:
            if pick == 0:
                return k
            pick -= 1
    return 0


# ---------------------------------------------------------------------------
# Trees
# ---------------------------------------------------------------------------


@njit(cache=True)
def new_tree_nb(size):
    """A tree of room for ``size`` nodes (``size >= 1``), holding its root alone."""
    tree = (
        np.full(size, -1, dtype=np.int64),
        np.full(size, -1, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.float64),
        np.zeros(size, dtype=np.float64),
        np.zeros(size, dtype=np.float64),
        np.ones(1, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
    )
    return tree


@njit(inline="always", cache=True)
def clear_tree_nb(tree):
    """Empty ``tree`` to its root alone, for another search (nothing allocated)."""
    tree[FIRST_CHILD][0] = -1
    tree[VISITS][0] = 0.0
    tree[AVAILABLE][0] = 0.0
    tree[REWARD][0] = 0.0
    tree[USED][0] = 1


@njit(inline="always", cache=True)
def child_nb(tree, node, key):
    """The child of ``node`` reached by action ``key``, or -1."""
    next_sibling, keys = tree[NEXT_SIBLING], tree[KEY]
    child = tree[FIRST_CHILD][node]
    while child >= 0 and keys[child] != key:
        child = next_sibling[child]
    return child


@njit(inline="always", cache=True)
def add_child_nb(tree, node, key, mover):
    """A new child of ``node`` for action ``key`` chosen by ``mover``: unvisited, available
    once (now). Returns it; the tree must have room (``tree[USED][0] < size``)."""
    first_child, used = tree[FIRST_CHILD], tree[USED]
    new = used[0]
    used[0] = new + 1
    tree[KEY][new] = key
    tree[MOVER][new] = mover
    first_child[new] = -1
    tree[NEXT_SIBLING][new] = first_child[node]
    first_child[node] = new
    tree[VISITS][new] = 0.0
    tree[AVAILABLE][new] = 1.0
    tree[REWARD][new] = 0.0
    return new


@njit(inline="always", cache=True)
def ucb1_nb(tree, child, c):
    """UCB1 with availability counts: ``reward / visits + c * sqrt(ln(available) / visits)``
    of a visited ``child``."""
    visits = tree[VISITS][child]
    return tree[REWARD][child] / visits + c * np.sqrt(np.log(tree[AVAILABLE][child]) / visits)


@njit(cache=True, _nrt=False, error_model="numpy")
def select_nb(tree, node, keys, count, mover, c, found, rng):
    """The child of ``node`` to follow among the actions ``keys[:count]`` legal now.

    Every legal action's child counts one more availability. If some legal actions have
    no child yet, one of them, drawn uniformly from ``rng`` (one draw), gets a new child of
    ``mover``; else the child of best UCB1 value (:func:`ucb1_nb`, the first on ties) is
    followed. ``found`` int64 ``(count,)`` is scratch: each action's child, or -1.

    Returns ``(child, k, added)``: the child, its action's index in ``keys``, and whether
    it was added.
    """
    available = tree[AVAILABLE]
    untried = 0
    for k in range(count):
        child = child_nb(tree, node, keys[k])
        found[k] = child
        if child >= 0:
            available[child] += 1.0
        else:
            untried += 1
    if untried > 0 and tree[USED][0] < tree[FIRST_CHILD].shape[0]:
        pick = below_nb(rng, untried)
        for k in range(count):
            if found[k] < 0:
                if pick == 0:
                    return add_child_nb(tree, node, keys[k], mover), k, True
                pick -= 1
    best = -1
    best_k = -1
    best_value = -1.0
    for k in range(count):
        child = found[k]
        if child < 0:  # untried, with the tree full
            continue
        value = ucb1_nb(tree, child, c)
        if best < 0 or value > best_value:
            best = child
            best_k = k
            best_value = value
    return best, best_k, False


@njit(inline="always", cache=True)
def back_up_nb(tree, depth, results):
    """Every node of ``tree[PATH][1:depth + 1]`` counts a visit and the result of its mover
    (``results`` float64 ``(seats,)``: each seat's result of the iteration's game)."""
    path, mover, visits, reward = tree[PATH], tree[MOVER], tree[VISITS], tree[REWARD]
    for d in range(1, depth + 1):
        node = path[d]
        visits[node] += 1.0
        reward[node] += results[mover[node]]


@njit(inline="always", cache=True)
def most_visited_nb(tree, node, rng):
    """The most visited child of ``node``, ties to the larger reward, then drawn from ``rng``
    (:func:`tie_nb`, children newest first); -1 if it has none."""
    visits, reward = tree[VISITS], tree[REWARD]
    best = -1
    ties = 0
    child = tree[FIRST_CHILD][node]
    while child >= 0:
        if (
            best < 0
            or visits[child] > visits[best]
            or (visits[child] == visits[best] and reward[child] > reward[best])
        ):
            best = child
            ties = 1
        elif visits[child] == visits[best] and reward[child] == reward[best]:
            ties, taken = tie_nb(ties, rng)
            if taken:
                best = child
        child = tree[NEXT_SIBLING][child]
    return best
