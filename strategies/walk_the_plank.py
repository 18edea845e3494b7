"""The Walk the Plank strategies that ship with balance.

This file is written exactly like a user's strategy file (see docs/your-strategy.md):
``balance simulate walk-the-plank --strategy strategies/walk_the_plank.py:survivor``
loads it by path. The game's compiled dispatchers are generated from ``SHIPPED``: a
shipped strategy's code is its place there, so that the game loop, cached on disk, calls
them without compiling anything per run.
"""

import math

import numpy as np

from balance.core.strategy import Strategy, ship
from balance.games.walk_the_plank import ismcts_nb, mc_nb

# The evaluator inlined (the kit's copies are compiled out of line, for users' files).
from balance.games.walk_the_plank.evaluation_nb import (
    best_option_nb,
    best_push_nb,
    evaluate_option_nb,
)
from balance.games.walk_the_plank.kit import (
    N_CARDS,
    Card,
    Weight,
    below_nb,
    legal_options_nb,
    njit,
    random_program_nb,
)

GAME = "walk-the-plank"


# --- random: the rules page's uniform-random player -------------------------------------


@njit(inline="always", cache=True)
def random_program(obs, seat, available, params, rng, out):
    random_program_nb(available, rng, out)


@njit(inline="always", cache=True)
def random_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return below_nb(rng, count)


@njit(inline="always", cache=True)
def random_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return below_nb(rng, count)


# --- shared by the heuristics ------------------------------------------------------------


@njit(cache=True)
def program_by_preference(available, preference, out):
    """The first three available cards in ``preference`` order; Charge never first."""
    slot = 0
    for k in range(N_CARDS):
        card = preference[k]
        if (available >> card) & 1:
            out[slot] = card
            slot += 1
            if slot == 3:
                break
    if out[0] == Card.CHARGE:  # Charge has no effect as the first card of a round
        out[0], out[1] = out[1], out[0]


@njit(cache=True)
def program_by_evaluation(obs, seat, available, w, rng, out):
    """The three cards whose best option scores highest now, best first; Charge never first."""
    pirates, living, state, rules, n = obs[0], obs[1], obs[2], obs[5], obs[6]
    scratch_tile, scratch_arg = obs[7], obs[8]
    # The three best so far, best first (no allocation: the game loop runs without one).
    best_value = (-1e300, -1e300, -1e300)
    best_card = (-1, -1, -1)
    for card in range(N_CARDS):
        if not (available >> card) & 1:
            continue
        count = legal_options_nb(
            pirates, living, state, rules, n, seat, card, 1, scratch_tile, scratch_arg
        )
        value = 0.0  # a card with no option does nothing
        for k in range(count):
            option = evaluate_option_nb(obs, seat, card, scratch_tile[k], scratch_arg[k], w)
            if k == 0 or option > value:
                value = option
        # A small random tie-break, so that equal cards are not always taken in card order.
        value += below_nb(rng, 1024) * 1e-9
        if value > best_value[0]:
            best_value = (value, best_value[0], best_value[1])
            best_card = (card, best_card[0], best_card[1])
        elif value > best_value[1]:
            best_value = (best_value[0], value, best_value[1])
            best_card = (best_card[0], card, best_card[1])
        elif value > best_value[2]:
            best_value = (best_value[0], best_value[1], value)
            best_card = (best_card[0], best_card[1], card)
    out[0], out[1], out[2] = best_card
    if out[0] == Card.CHARGE:
        out[0], out[1] = out[1], out[0]


@njit(cache=True)
def choose_by_evaluation(obs, seat, card, opt_tile, opt_arg, count, w, rng):
    """The option with the best one-step evaluation under weights ``w``; ties at random.

    Compiled once and called by every heuristic (not inlined into each): the game loop
    then compiles the evaluation once, not once per strategy.
    """
    return best_option_nb(obs, seat, card, opt_tile, opt_arg, count, w, rng)


@njit(cache=True)
def push_by_evaluation(obs, seat, opt_tile, opt_arg, count, w, rng):
    """The Dolphin push with the best evaluation under weights ``w``, or stop."""
    return best_push_nb(obs, seat, opt_tile, opt_arg, count, w, rng)


# --- aggressor ---------------------------------------------------------------------------

AGGRESSOR_CARDS = np.array(
    [
        Card.SHOVE_ANYONE,
        Card.DRAG_TO_SEA,
        Card.CHARGE,
        Card.SHOVE_LEFT,
        Card.SHOVE_RIGHT,
        Card.RETRACT_PLANK,
        Card.PULL_TO_SHIP,
        Card.RUN,
        Card.NOT_ME,
        Card.EXTEND_PLANK,
    ],
    dtype=np.int64,
)
# own alive, own safety, other alive, other safety, leader
AGGRESSOR_WEIGHTS = (1.0, 0.2, 3.0, 1.0, 2.0)


@njit(cache=True)
def aggressor_program(obs, seat, available, params, rng, out):
    program_by_preference(available, AGGRESSOR_CARDS, out)


@njit(cache=True)
def aggressor_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return choose_by_evaluation(obs, seat, card, opt_tile, opt_arg, count, AGGRESSOR_WEIGHTS, rng)


@njit(cache=True)
def aggressor_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return push_by_evaluation(obs, seat, opt_tile, opt_arg, count, AGGRESSOR_WEIGHTS, rng)


# --- survivor ----------------------------------------------------------------------------

SURVIVOR_CARDS = np.array(
    [
        Card.NOT_ME,
        Card.PULL_TO_SHIP,
        Card.EXTEND_PLANK,
        Card.RUN,
        Card.SHOVE_ANYONE,
        Card.SHOVE_LEFT,
        Card.SHOVE_RIGHT,
        Card.DRAG_TO_SEA,
        Card.CHARGE,
        Card.RETRACT_PLANK,
    ],
    dtype=np.int64,
)
SURVIVOR_WEIGHTS = (10.0, 2.0, 0.5, 0.1, 0.0)


@njit(cache=True)
def survivor_program(obs, seat, available, params, rng, out):
    program_by_preference(available, SURVIVOR_CARDS, out)


@njit(cache=True)
def survivor_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return choose_by_evaluation(obs, seat, card, opt_tile, opt_arg, count, SURVIVOR_WEIGHTS, rng)


@njit(cache=True)
def survivor_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return push_by_evaluation(obs, seat, opt_tile, opt_arg, count, SURVIVOR_WEIGHTS, rng)


# --- greedy and weighted: the one-step evaluator -----------------------------------------

GREEDY_WEIGHTS = (4.0, 1.0, 2.0, 0.5, 0.5)


@njit(inline="always", cache=True)
def weights_of(params):
    """``weighted``'s five weights (its first parameters), as the tuple the other
    heuristics pass theirs in: the evaluation is compiled once for them all (a global
    array would be read-only, a parameter row writable, and numba compiles each apart)."""
    return (
        params[Weight.OWN_ALIVE],
        params[Weight.OWN_SAFETY],
        params[Weight.OTHER_ALIVE],
        params[Weight.OTHER_SAFETY],
        params[Weight.LEADER],
    )


@njit(cache=True)
def greedy_program(obs, seat, available, params, rng, out):
    program_by_evaluation(obs, seat, available, GREEDY_WEIGHTS, rng, out)


@njit(cache=True)
def greedy_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return choose_by_evaluation(obs, seat, card, opt_tile, opt_arg, count, GREEDY_WEIGHTS, rng)


@njit(cache=True)
def greedy_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return push_by_evaluation(obs, seat, opt_tile, opt_arg, count, GREEDY_WEIGHTS, rng)


@njit(cache=True)
def weighted_program(obs, seat, available, params, rng, out):
    program_by_evaluation(obs, seat, available, weights_of(params), rng, out)


@njit(cache=True)
def weighted_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    w = weights_of(params)
    return choose_by_evaluation(obs, seat, card, opt_tile, opt_arg, count, w, rng)


@njit(cache=True)
def weighted_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return push_by_evaluation(obs, seat, opt_tile, opt_arg, count, weights_of(params), rng)


def _decisions(program, choose, push):
    return {"program": program, "choose": choose, "push": push}


random = Strategy(
    GAME,
    "random",
    "Programs a uniformly random order of three cards and picks uniformly among each "
    "card's options (the rules page's reference player).",
    _decisions(random_program, random_choose, random_push),
)
aggressor = Strategy(
    GAME,
    "aggressor",
    "Programs its attacking cards first and always hurts the player with the most "
    "pirates left, even at some risk to its own.",
    _decisions(aggressor_program, aggressor_choose, aggressor_push),
)
survivor = Strategy(
    GAME,
    "survivor",
    "Programs its retreating cards first and keeps its own pirates as far from the "
    "Locker as it can; attacks only when nothing else helps.",
    _decisions(survivor_program, survivor_choose, survivor_push),
)
greedy = Strategy(
    GAME,
    "greedy",
    "Looks one move ahead: programs the three cards whose best move improves its position "
    "most right now and plays each card's best move.",
    _decisions(greedy_program, greedy_choose, greedy_push),
)
weighted = Strategy(
    GAME,
    "weighted",
    "Greedy with its five weights set on the command line, e.g. "
    "weighted:own_alive=4,own_safety=1,other_alive=2,other_safety=0.5,leader=0.5.",
    _decisions(weighted_program, weighted_choose, weighted_push),
    params=(
        ("own_alive", 4.0),
        ("own_safety", 1.0),
        ("other_alive", 2.0),
        ("other_safety", 0.5),
        ("leader", 0.5),
    ),
    param_docs={
        "own_alive": ("0 and up", "worth of each of its own living pirates"),
        "own_safety": (
            "0 and up",
            "worth of each step between one of its pirates and the Locker",
        ),
        "other_alive": ("0 and up", "cost of each living pirate of another player"),
        "other_safety": (
            "0 and up",
            "cost of each step between another player's pirate and the Locker",
        ),
        "leader": (
            "0 and up",
            "extra share of that cost on the pirates of the player with the most pirates "
            "(0: every opponent alike)",
        ),
    },
    param_bounds={
        "own_alive": (0.0, math.inf),
        "own_safety": (0.0, math.inf),
        "other_alive": (0.0, math.inf),
        "other_safety": (0.0, math.inf),
        "leader": (0.0, math.inf),
    },
)

# --- search players: compiled in balance.games.walk_the_plank.mc_nb and .ismcts_nb -------
# They have no code: they join the game loop as a user's strategy does, so a run without
# them never compiles them.


@njit(cache=True)
def mc_program(obs, seat, available, params, rng, out):
    mc_nb.mc_program_nb(obs, seat, available, params, rng, out)


@njit(cache=True)
def mc_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return mc_nb.mc_choose_nb(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng)


@njit(cache=True)
def ismcts_program(obs, seat, available, params, rng, out):
    ismcts_nb.ismcts_program_nb(obs, seat, available, params, rng, out)


@njit(cache=True)
def ismcts_choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return ismcts_nb.ismcts_choose_nb(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng)


@njit(cache=True)
def search_push(obs, seat, opt_tile, opt_arg, count, params, rng):
    return mc_nb.search_push_nb(obs, seat, opt_tile, opt_arg, count, params, rng)


ROLLOUTS = {"random": 0.0, "aggressor": 1.0, "survivor": 2.0, "greedy": 3.0}
ROLLOUT_DOC = (
    "random, aggressor, survivor or greedy",
    "the strategy that plays every seat in the playouts",
)
GUESSES = {"uniform": 0.0, "rollout": 1.0}
GUESS_DOC = (
    "uniform or rollout",
    "the others' hidden cards: any consistent programme alike (uniform), or the "
    "programme the rollout strategy would make (rollout)",
)

mc = Strategy(
    GAME,
    "mc",
    "Flat Monte Carlo with determinization: tries each card of its programme (slot by "
    "slot) and each option, in playouts to the end from sampled hidden programmes, and "
    "plays the one that wins most often.",
    _decisions(mc_program, mc_choose, search_push),
    params=(("playouts", 16.0), ("rollout", 0.0), ("guess", 0.0), ("width", 0.0)),
    param_docs={
        "playouts": ("1 to 65536", "playouts for each card or option tried"),
        "rollout": ROLLOUT_DOC,
        "guess": GUESS_DOC,
        "width": (
            "0 to 10",
            "cards tried in each programme slot: the width that greedy's one-step "
            "evaluation rates best now, and the rollout strategy's own (0: every card)",
        ),
    },
    param_choices={"rollout": ROLLOUTS, "guess": GUESSES},
    param_whole=frozenset({"playouts", "width"}),
    param_bounds={
        "playouts": (1.0, 65536.0),
        "rollout": (0.0, 3.0),
        "guess": (0.0, 1.0),
        "width": (0.0, 10.0),
    },
)

ismcts = Strategy(
    GAME,
    "ismcts",
    "Information-set Monte Carlo tree search: grows a tree of its programme (card by "
    "card) and of every seat's moves to the end of the round over sampled hidden "
    "programmes, and plays its most visited move.",
    _decisions(ismcts_program, ismcts_choose, search_push),
    params=(("iterations", 256.0), ("rollout", 0.0), ("c", 0.7), ("guess", 0.0)),
    param_docs={
        "iterations": ("1 to 65536", "iterations (one playout each) for each decision"),
        "rollout": ROLLOUT_DOC,
        "c": ("0 to 100", "UCB1 exploration constant (results are 0 or 1)"),
        "guess": GUESS_DOC,
    },
    param_choices={"rollout": ROLLOUTS, "guess": GUESSES},
    param_whole=frozenset({"iterations"}),
    param_bounds={
        "iterations": (1.0, 65536.0),
        "rollout": (0.0, 3.0),
        "c": (0.0, 100.0),
        "guess": (0.0, 1.0),
    },
)

SHIPPED = (random, aggressor, survivor, greedy, weighted, mc, ismcts)
ship(SHIPPED, joining=(mc, ismcts), module=__name__)
