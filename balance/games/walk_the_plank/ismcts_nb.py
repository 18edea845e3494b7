"""Walk the Plank's information-set Monte Carlo tree search player (``ismcts``), compiled.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, IEEE TCIAIG 4(2), 2012): every
iteration samples a determinization of what the searching seat cannot see
(:func:`.search_nb.determinize_nb`), descends the tree choosing among the actions
legal in that determinization by UCB1 with availability counts, adds one node, plays
the game out with the rollout strategy (:func:`.search_nb.advance_nb`) and backs up,
at each node, the result of the seat that chose the action leading to it (max^n).

The tree spans the rest of the current round: the seat's programme, three levels of
one card each, then every choice among two or more options of any seat's revealed card
(keyed by card and option, so that an option stands for the same move in every
determinization that offers it). From the round's end on, the rollout strategy plays.
Nodes live in arrays made once per decision, sized by the iteration budget; the
iterations allocate nothing. See ``docs/walk-the-plank.md``.
"""

import numpy as np

from balance.core.bits_nb import lowest_bit_nb
from balance.core.compile_cache import njit
from balance.core.random_nb import next_u64_nb
from balance.core.search_nb import (
    KEY,
    PATH,
    back_up_nb,
    most_visited_nb,
    new_tree_nb,
    select_nb,
)
from balance.games.walk_the_plank import engine_nb as E
from balance.games.walk_the_plank.cards import N_CARDS
from balance.games.walk_the_plank.mc_nb import (
    Search,
    fill_program_nb,
    memory_of_nb,
    own_program_known_nb,
    remember_guess_nb,
    rollout_inputs_nb,
    root_from_obs_nb,
    seed_playout_nb,
    step_of_nb,
)
from balance.games.walk_the_plank.moves_nb import MAX_OPTIONS, State, option_at_nb
from balance.games.walk_the_plank.search_nb import (
    NO_LIMIT,
    NO_MEMORY,
    Status,
    Where,
    advance_nb,
    copy_position_nb,
    determinize_as_nb,
    new_position_nb,
    new_work_nb,
    next_step_nb,
    random_card_nb,
    results_nb,
    reveal_nb,
)

#: The key of an option of a revealed card: ``card * OPTION_KEYS + bit`` (bit of its mask).
OPTION_KEYS = 64


@njit(cache=True)
def tree_round_nb(sim, tree, node, depth, c, codes, roll_params, prng, work, keys, found, rng):
    """Descend the tree through the reveals left in the round, from ``node``, the path's
    node ``depth``.

    A reveal with two or more options is a node of the seat that reveals it; the
    descent stops after the first node it adds, or at the round's end. Returns the
    depth of the path's last node.
    """
    scratch = (work[0], work[1], work[2])
    where = sim[12]
    while where[Where.STATUS] == Status.RUNNING and where[Where.STEP] >= 0:
        s, card, _, mask = reveal_nb(sim, where[Where.STEP])
        added = False
        if mask != 0:
            bit = lowest_bit_nb(mask)
            if mask & (mask - 1):
                count = 0
                rest = mask
                while rest:
                    keys[count] = card * OPTION_KEYS + lowest_bit_nb(rest)
                    count += 1
                    rest &= rest - 1
                node, _, added = select_nb(tree, node, keys, count, s, c, found, rng)
                depth += 1
                tree[PATH][depth] = node
                bit = tree[KEY][node] - card * OPTION_KEYS
            tile, arg = option_at_nb(sim[2][State.SEATS], sim[2], s, card, bit)
            E.resolve_card_nb(
                sim[:9], s, card, tile, arg, codes, roll_params, prng,
                work[5], work[5], scratch, work[6],
            )  # fmt: skip
        next_step_nb(sim)
        if added:
            break
    return depth


@njit(cache=True)
def ismcts_choose_nb(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    """ISMCTS over the options of ``card``: the most visited option at the root is played."""
    n = obs[6]
    iterations = max(1, np.int64(params[Search.BUDGET]))
    c = params[Search.C]
    root = new_position_nb(n, obs[5])
    sim = new_position_nb(n, obs[5])
    work = new_work_nb(n)
    scratch = (work[0], work[1], work[2])
    prng = np.zeros((n + 1, 4), dtype=np.uint64)
    drng = np.zeros(4, dtype=np.uint64)
    codes, roll_params = rollout_inputs_nb(params, n)
    guess = np.int64(params[Search.GUESS])
    filler = np.zeros(3, dtype=np.int64)
    tree = new_tree_nb(iterations + 2)
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    found = np.zeros(MAX_OPTIONS, dtype=np.int64)
    results = np.zeros(n, dtype=np.float64)
    root_from_obs_nb(obs, root)
    known = own_program_known_nb(obs, seat, slot, card, params, root)
    root[12][Where.STEP] = step_of_nb(obs[2], seat, slot, n)
    memory = memory_of_nb(guess, params)
    for _ in range(iterations):
        for i in range(count):
            keys[i] = i
        copy_position_nb(root, sim)
        seed_playout_nb(next_u64_nb(rng), prng, drng, n)
        determinize_as_nb(sim, seat, known, drng, guess, codes, roll_params, filler, memory)
        child, i, added = select_nb(tree, 0, keys, count, seat, c, found, rng)
        tree[PATH][1] = child
        E.resolve_card_nb(
            sim[:9], seat, card, opt_tile[i], opt_arg[i], codes, roll_params, prng,
            work[5], work[5], scratch, work[6],
        )  # fmt: skip
        next_step_nb(sim)
        depth = np.int64(1)  # an int64, as tree_round_nb returns: a literal 1 compiles apart
        if not added:
            depth = tree_round_nb(
                sim, tree, child, depth, c, codes, roll_params, prng, work, keys, found, rng
            )
        advance_nb(sim, codes, roll_params, prng, work, np.int64(NO_LIMIT))
        results_nb(sim, results)
        back_up_nb(tree, depth, results)
    return tree[KEY][most_visited_nb(tree, 0, rng)]


@njit(cache=True)
def ismcts_program_nb(obs, seat, available, params, rng, out):
    """ISMCTS over the programme: three tree levels of one card each, then the round."""
    n = obs[6]
    iterations = max(1, np.int64(params[Search.BUDGET]))
    c = params[Search.C]
    root = new_position_nb(n, obs[5])
    sim = new_position_nb(n, obs[5])
    work = new_work_nb(n)
    prng = np.zeros((n + 1, 4), dtype=np.uint64)
    drng = np.zeros(4, dtype=np.uint64)
    codes, roll_params = rollout_inputs_nb(params, n)
    guess = np.int64(params[Search.GUESS])
    tree = new_tree_nb(iterations + 2)
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    found = np.zeros(MAX_OPTIONS, dtype=np.int64)
    results = np.zeros(n, dtype=np.float64)
    filler = np.zeros(3, dtype=np.int64)
    root_from_obs_nb(obs, root)
    root[12][Where.STEP] = 0
    remember_guess_nb(root, sim, seat, guess, codes, roll_params, filler, drng, params, rng)
    for _ in range(iterations):
        copy_position_nb(root, sim)
        seed_playout_nb(next_u64_nb(rng), prng, drng, n)
        determinize_as_nb(sim, seat, True, drng, guess, codes, roll_params, filler, NO_MEMORY)
        node = 0
        depth = 0
        free = available
        added = False
        for slot in range(3):
            count = 0
            for card in range(N_CARDS):
                if (free >> card) & 1:
                    keys[count] = card
                    count += 1
            node, _, added = select_nb(tree, node, keys, count, seat, c, found, rng)
            depth += 1
            tree[PATH][depth] = node
            card = tree[KEY][node]
            sim[10][seat, slot] = card
            free &= ~(1 << card)
            if added:
                fill_program_nb(sim, seat, slot, available, codes, roll_params, drng, filler)
                break
        if not added:
            depth = tree_round_nb(
                sim, tree, node, depth, c, codes, roll_params, prng, work, keys, found, rng
            )
        advance_nb(sim, codes, roll_params, prng, work, np.int64(NO_LIMIT))
        results_nb(sim, results)
        back_up_nb(tree, depth, results)
    node = 0
    free = available
    for slot in range(3):
        child = most_visited_nb(tree, node, rng) if node >= 0 else -1
        # A budget too small to reach this level: any card left.
        card = tree[KEY][child] if child >= 0 else random_card_nb(free, rng)
        out[slot] = card
        params[Search.OWN + slot] = card
        free &= ~(1 << card)
        node = child
