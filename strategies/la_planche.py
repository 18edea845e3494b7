"""The La Planche strategies that ship with balance.

This file is written exactly like a user's strategy file: ``--strategy
strategies/la_planche.py:protector`` loads it by path. The game's compiled dispatchers
are generated from ``SHIPPED``: a shipped strategy's code is its place there, so that the
game loop, cached on disk, calls them without compiling anything per run.
"""

import math

from balance.core.strategy import Strategy, ship
from balance.games.la_planche.kit import (
    N_COLOURS,
    below_nb,
    best_option_nb,
    best_symbol_nb,
    detective_values_nb,
    njit,
)
from balance.games.la_planche.search_nb import (
    ismcts_choose_nb,
    ismcts_symbol_nb,
    mc_choose_nb,
    mc_symbol_nb,
)

GAME = "la-planche"


# --- random: the rules page's uniform-random player -------------------------------------


@njit(inline="always", cache=True)
def random_symbol(obs, seat, colour, first, second, params, rng):
    return below_nb(rng, 2)


@njit(inline="always", cache=True)
def random_choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    return below_nb(rng, count)


# --- protector: its own colour toward the ship, the others toward the shark --------------
# params: own, other, alive, win


@njit(inline="always", cache=True)
def _protector_values(obs, colour, params):
    values = obs[9]
    for c in range(N_COLOURS):
        values[c] = params[0] if c == colour else -params[1]
    return values


@njit(cache=True)
def protector_symbol(obs, seat, colour, first, second, params, rng):
    values = _protector_values(obs, colour, params)
    return best_symbol_nb(obs, first, second, values, params[2], params[3], rng)


@njit(cache=True)
def protector_choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    values = _protector_values(obs, colour, params)
    return best_option_nb(obs, symbol, opt_a, opt_b, count, values, params[2], params[3], rng)


# --- detective: protects its colour and hunts the colours others seem to protect ---------
# params: own, other, alive, win, sharpness


@njit(inline="always", cache=True)
def _detective_values(obs, seat, colour, params):
    values = obs[9]
    detective_values_nb(obs, seat, colour, params[0], params[1], params[4], values)
    return values


@njit(cache=True)
def detective_symbol(obs, seat, colour, first, second, params, rng):
    values = _detective_values(obs, seat, colour, params)
    return best_symbol_nb(obs, first, second, values, params[2], params[3], rng)


@njit(cache=True)
def detective_choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    values = _detective_values(obs, seat, colour, params)
    return best_option_nb(obs, symbol, opt_a, opt_b, count, values, params[2], params[3], rng)


#: What the protector's and the detective's parameters mean (range, meaning). A line is
#: worth the sum over prisoners of their colour's worth times (alive + spaces from the shark).
_LINE_VALUE_DOCS = {
    "own": (
        "0 and up",
        "worth of each prisoner of its own colour, per space it is from the shark and for "
        "being alive",
    ),
    "other": (
        "0 and up",
        "worth lost for each prisoner of every other colour, counted the same way",
    ),
    "alive": (
        "0 and up, in spaces",
        "what a prisoner still on the plank is worth, in spaces: large values care about "
        "who falls, small ones about how far from the shark they stand",
    ),
    "win": (
        "0 and up, in spaces",
        "extra worth of the last prisoner left (the colour that wins)",
    ),
}


#: The ranges _LINE_VALUE_DOCS states, enforced on the command line.
_LINE_VALUE_BOUNDS = {name: (0.0, math.inf) for name in ("own", "other", "alive", "win")}


def _decisions(symbol, choose):
    return {"symbol": symbol, "choose": choose}


random = Strategy(
    GAME,
    "random",
    "Chooses uniformly between the two symbols and among the chosen symbol's options "
    "(the rules page's reference player).",
    _decisions(random_symbol, random_choose),
)
protector = Strategy(
    GAME,
    "protector",
    "Protects its own colour: looks one move ahead and plays the option that moves its "
    "own prisoners toward the ship and everyone else's toward the shark.",
    _decisions(protector_symbol, protector_choose),
    params=(("own", 1.0), ("other", 1.0), ("alive", 4.0), ("win", 50.0)),
    param_docs=dict(_LINE_VALUE_DOCS),
    param_bounds=_LINE_VALUE_BOUNDS,
)
detective = Strategy(
    GAME,
    "detective",
    "Protects its own colour and works out the others' colours from what they have done, "
    "sending the colours it believes opponents own toward the shark.",
    _decisions(detective_symbol, detective_choose),
    params=(("own", 1.0), ("other", 1.0), ("alive", 4.0), ("win", 50.0), ("sharpness", 0.5)),
    param_docs={
        **_LINE_VALUE_DOCS,
        "other": (
            "0 and up",
            "worth lost for each prisoner of a colour it believes an opponent owns (times "
            "the believed number of opponents owning it, at most one)",
        ),
        "sharpness": (
            "0 and up",
            "how firmly it believes what it has seen: an opponent owns colour c with "
            "probability proportional to exp(sharpness x evidence), the evidence counting "
            "+1 for each of c's prisoners that opponent moved toward the ship and -1 toward "
            "the shark; 0 believes every other colour equally likely",
        ),
    },
    param_bounds={**_LINE_VALUE_BOUNDS, "sharpness": (0.0, math.inf)},
)

# --- search players: flat Monte Carlo and information-set MCTS ---------------------------
# Their decisions live in the game's search module, which plays positions on with the
# strategies above. They carry no code: the loop that can call them is compiled only for a
# run that seats one (docs/la-planche.md, "Search players").

#: The strategies a search player's playouts may use, by the word ``rollout=`` takes.
_ROLLOUTS = {"random": 0.0, "protector": 1.0, "detective": 2.0}
_ROLLOUT_DOC = (
    "random, protector or detective",
    "the strategy that plays every seat in the playouts (with its default parameters); "
    "random is the fastest",
)
#: How the colours it cannot see are guessed, by the word ``guess=`` takes.
_GUESSES = {"uniform": 0.0, "evidence": 1.0}
_GUESS_DOC = (
    "uniform or evidence",
    "how each playout guesses the other seats' colours: uniform draws any assignment "
    "alike; evidence weighs each as the detective reads the evidence (an opponent owns "
    "colour c with weight exp(0.5 x evidence))",
)
_WIDTH_DOC = (
    "0 to 256",
    "search only the width options its rollout strategy's look-ahead rates best (the "
    "protector's for random playouts); 0 searches every option",
)
_ROOT_WIDTH_DOC = (
    "0 to 256",
    "at its own turn, search only the width options its rollout strategy's look-ahead "
    "rates best (the protector's for random playouts); later turns in the tree keep every "
    "option; 0 searches every option",
)

mc = Strategy(
    GAME,
    "mc",
    "Flat Monte Carlo search: tries every option of its turn in playouts from positions "
    "where the colours it cannot see are guessed (at random, or from the evidence), and "
    "plays the option that won most often.",
    _decisions(mc_symbol_nb, mc_choose_nb),
    params=(
        ("playouts", 16.0),
        ("rollout", 0.0),
        ("guess", 0.0),
        ("width", 0.0),
        ("margin", 0.0),
    ),
    param_docs={
        "playouts": (
            "1 to 65536",
            "playouts per option of a turn, each from a fresh guess of the hidden colours",
        ),
        "rollout": _ROLLOUT_DOC,
        "guess": _GUESS_DOC,
        "width": _WIDTH_DOC,
        "margin": (
            "0 to 100, in standard errors",
            "0 plays the option with the best mean result; above 0 it plays the option its "
            "rollout strategy rates best unless another's mean gain over it, playout by "
            "playout, exceeds margin standard errors (it improves on the rollout strategy "
            "only where the playouts clearly say so)",
        ),
    },
    param_choices={"rollout": _ROLLOUTS, "guess": _GUESSES},
    param_whole=frozenset({"playouts", "width"}),
    param_bounds={
        "playouts": (1.0, 65536.0),
        "rollout": (0.0, 2.0),
        "guess": (0.0, 1.0),
        "width": (0.0, 256.0),
        "margin": (0.0, 100.0),
    },
)
ismcts = Strategy(
    GAME,
    "ismcts",
    "Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012): grows "
    "a tree of the options of every seat's turns over positions where the colours it "
    "cannot see are guessed at random, and plays its most visited option.",
    _decisions(ismcts_symbol_nb, ismcts_choose_nb),
    params=(
        ("iterations", 256.0),
        ("rollout", 0.0),
        ("c", 0.7),
        ("guess", 0.0),
        ("width", 0.0),
    ),
    param_docs={
        "iterations": (
            "1 to 65536",
            "iterations per decision: each guesses the hidden colours and the spinner, "
            "descends the tree, adds one node and plays out to the end",
        ),
        "rollout": _ROLLOUT_DOC,
        "c": (
            "0 to 100",
            "exploration constant of UCB1 (results are win shares in [0, 1])",
        ),
        "guess": _GUESS_DOC,
        "width": _ROOT_WIDTH_DOC,
    },
    param_choices={"rollout": _ROLLOUTS, "guess": _GUESSES},
    param_whole=frozenset({"iterations", "width"}),
    param_bounds={
        "iterations": (1.0, 65536.0),
        "rollout": (0.0, 2.0),
        "c": (0.0, 100.0),
        "guess": (0.0, 1.0),
        "width": (0.0, 256.0),
    },
)

SHIPPED = (random, protector, detective, mc, ismcts)
ship(SHIPPED, joining=(mc, ismcts), module=__name__)
