"""The Battle of Thieves strategies that ship with balance.

This file is written exactly like a user's strategy file: ``--strategy
strategies/battle_of_thieves.py:random`` loads it by path. The game's compiled dispatchers
are generated from ``SHIPPED``: a shipped strategy's code is its place there, so that the
game loop, cached on disk, calls them without compiling anything per run.

A Battle of Thieves strategy is one ``@njit`` function ``decide(view, options, count, seat,
params, rng) -> int`` that answers every decision of its turn: it returns an index in
``0..count - 1`` into ``options`` (int64 ``(MAX_OPTIONS, 4)``, rows ``(kind, who, what,
target)``, see :mod:`balance.games.battle_of_thieves.layout`). It is only asked when
``count >= 2``. ``view`` is the position as the seat sees it (``layout.View``: the enemy's
hand and the order of both decks hidden) with the card data and the packed rules;
``rng`` is the seat's own random stream.
"""

import math

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb
from balance.core.strategy import Strategy, ship
from balance.games.battle_of_thieves.kit import (
    best_finishing_option_nb,
    best_option_nb,
    sinking_nb,
)

GAME = "battle-of-thieves"


# --- random: the rules page's uniform-random player -------------------------------------


@njit(inline="always", cache=True)
def random_decide(view, options, count, seat, params, rng):
    return below_nb(rng, count)


random = Strategy(
    GAME,
    "random",
    "Picks uniformly among the legal options at every step of its turn, ending the turn "
    "when it picks 'end the turn' (the rules page's player).",
    {"decide": random_decide},
)


#: Parameters several heuristics share: (range, meaning).
_PANIC_WATER = (
    "0 and up, in water; a ship sinks at sink_water (100 by default)",
    "water (with what its holes let in at its next turn) at which bailing comes before firing",
)
_RELOAD = ("0 and up, in cannonballs", "cannonballs below which a pirate fetches more")
_CARD_BAR = (
    "0 and up, in card worth",
    "least worth of a card before it is played (a hole in the enemy ship is worth 3, a "
    "life point 2, 10 water 1)",
)


def _bounds(*names: str) -> dict[str, tuple[float, float]]:
    """The range "0 and up" of each of ``names``, enforced on the command line."""
    return {name: (0.0, math.inf) for name in names}


# --- heuristics: each scores every option by its plan (kit.option_value_nb) -------------
# A plan's weights (kit.Plan): panic water, bail, repair, fire, board, attack, island,
# reload, cards, card bar, home. The parameters are the thresholds a designer may tune.


# cannoneer: stays aboard and fires every shot it can; bails only in a panic.
# params: panic_water  water at which bailing comes before firing
#         reload       cannonballs below which a pirate goes to the island for more
#         card_bar     least worth of a card (kit.card_worth_nb) before it is played
@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def cannoneer_decide(view, options, count, seat, params, rng):
    plan = (params[0], 100.0, 25.0, 40.0, -5.0, 8.0, 30.0, params[1], 10.0, params[2], 20.0)
    return best_option_nb(view, options, count, seat, plan)


cannoneer = Strategy(
    GAME,
    "cannoneer",
    "Keeps its crew aboard and fires every shot it can, cursed and incendiary balls first; "
    "raises its anchor, fetches cannonballs from the island when short, bails when the "
    "water reaches panic_water.",
    {"decide": cannoneer_decide},
    params=(("panic_water", 60.0), ("reload", 3.0), ("card_bar", 0.5)),
    param_docs={
        "panic_water": _PANIC_WATER,
        "reload": _RELOAD,
        "card_bar": _CARD_BAR,
    },
    param_bounds=_bounds("panic_water", "reload", "card_bar"),
)


# boarder: boards the enemy ship and fights its pirates; fires little.
# params: panic_water  water at which its pirates come home to bail
#         attack       worth of an attack per expected life point it takes
#         card_bar     least worth of a card before it is played
@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def boarder_decide(view, options, count, seat, params, rng):
    plan = (params[0], 100.0, 15.0, 12.0, 35.0, params[1], 10.0, 1.0, 10.0, params[2], 2.0)
    return best_option_nb(view, options, count, seat, plan)


boarder = Strategy(
    GAME,
    "boarder",
    "Boards the enemy ship (free when its anchor is down or its mast broken) and attacks "
    "its pirates with the weapon most likely to kill; comes home to bail at panic_water.",
    {"decide": boarder_decide},
    params=(("panic_water", 70.0), ("attack", 40.0), ("card_bar", 0.5)),
    param_docs={
        "panic_water": (
            "0 and up, in water; a ship sinks at sink_water (100 by default)",
            "water at which its pirates come home to bail",
        ),
        "attack": (
            "0 and up",
            "worth of an attack per life point it is expected to take (the plan's other "
            "weights: bail 100, fire 12, board 35)",
        ),
        "card_bar": _CARD_BAR,
    },
    param_bounds=_bounds("panic_water", "attack", "card_bar"),
)


# bailer: keeps its ship dry and whole first, fires with what is left.
# params: bail_at   water from which bailing comes first
#         reload    cannonballs below which a pirate fetches more from the island
#         card_bar  least worth of a card before it is played
@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def bailer_decide(view, options, count, seat, params, rng):
    plan = (params[0], 100.0, 60.0, 20.0, -5.0, 10.0, 25.0, params[1], 10.0, params[2], 30.0)
    return best_option_nb(view, options, count, seat, plan)


bailer = Strategy(
    GAME,
    "bailer",
    "A careful bailer: bails from bail_at water, repairs every hole it can, eats when "
    "wounded, and only then fires; keeps its pirates home.",
    {"decide": bailer_decide},
    params=(("bail_at", 20.0), ("reload", 2.0), ("card_bar", 0.0)),
    param_docs={
        "bail_at": (
            "0 and up, in water; a ship sinks at sink_water (100 by default)",
            "water from which bailing comes before everything else",
        ),
        "reload": _RELOAD,
        "card_bar": _CARD_BAR,
    },
    param_bounds=_bounds("bail_at", "reload", "card_bar"),
)


# finisher: plays to end the game. A careful bailer's ship and cannons until the enemy ship
# is ready to sink, then boards it and kills (or keeps dead) the pirates that bail it.
# params: hole_goal  enemy holes from which it boards (or the enemy's water, with what its
#                    holes let in next, at half the sinking level)
#         boarders   most of its pirates aboard the enemy ship at a time (1 or 2)
#         panic_water  water at which bailing comes first
#         card_bar   least worth of a card before it is played
#         room       water its ship keeps below sinking, at its next rise, for a pirate
#                    to board (or stay aboard the enemy ship) while its ship is wet
@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def finisher_decide(view, options, count, seat, params, rng):
    if sinking_nb(view, seat, params[0]):
        plan = (params[2], 100.0, 30.0, 25.0, 45.0, 60.0, 10.0, 1.0, 10.0, params[3], 2.0)
        return best_finishing_option_nb(view, options, count, seat, plan, params[1], params[4])
    plan = (params[2], 100.0, 30.0, 30.0, -5.0, 10.0, 25.0, 2.0, 10.0, params[3], 30.0)
    return best_finishing_option_nb(view, options, count, seat, plan, 0.0, params[4])


finisher = Strategy(
    GAME,
    "finisher",
    "Plays to end the game: keeps its ship like a careful bailer, keeps the cards that "
    "flood the enemy ship or stop its bailing until together they sink it, fires first "
    "the shot that can sink it; from hole_goal enemy holes boards with up to boarders "
    "pirates and kills the enemy's bailers, staying aboard while its own ship keeps room "
    "water below sinking.",
    {"decide": finisher_decide},
    params=(
        ("hole_goal", 3.0),
        ("boarders", 1.0),
        ("panic_water", 70.0),
        ("card_bar", 0.0),
        ("room", 40.0),
    ),
    param_docs={
        "hole_goal": (
            "0 and up, in holes; a ship has hole_tokens (5 by default)",
            "enemy holes from which it boards to finish the enemy ship (or enemy water "
            "that its next rise takes to half the sinking level); two fewer once a pirate "
            "of its is aboard",
        ),
        "boarders": ("1 or 2", "most of its pirates aboard the enemy ship at a time"),
        "panic_water": _PANIC_WATER,
        "card_bar": _CARD_BAR,
        "room": (
            "0 and up, in water; a ship sinks at sink_water (100 by default)",
            "water its ship must keep below sinking at its next rise, its other pirates "
            "bailing, for a pirate to board or stay aboard the enemy ship",
        ),
    },
    param_whole=frozenset({"boarders"}),
    param_bounds={
        **_bounds("hole_goal", "panic_water", "card_bar", "room"),
        "boarders": (1.0, 2.0),
    },
)


# --- search players: they play the game on from the position (search_nb) ------------------
# A search player needs the whole position to fill in what its seat cannot see, and
# buffers for its playouts, which a view does not give: the game loop that seats them,
# balance.games.battle_of_thieves.search_nb.play_games_search_nb, calls the search itself
# (and the reference engine's replay calls search_nb.search_choice_nb). Their ``decide``
# below is only what a loop without search asks: -1, an illegal answer that stops the run
# with an error naming the player.


@njit(inline="always", cache=True)
def search_decide(view, options, count, seat, params, rng):
    return -1


#: The strategies a search player's playouts may use, by the word ``rollout=`` takes.
ROLLOUTS = {"random": 0.0, "cannoneer": 1.0, "boarder": 2.0, "bailer": 3.0, "finisher": 4.0}
_ROLLOUT = (
    "random (0), cannoneer (1), boarder (2), bailer (3) or finisher (4)",
    "the strategy both seats play in its playouts, with its default parameters",
)

mc = Strategy(
    GAME,
    "mc",
    "Flat Monte Carlo with determinization: plays each legal option in playouts games, "
    "each from a fresh guess at the enemy's hand and both decks' order, played to the end "
    "by the rollout strategy in both seats, and picks the option that won most; with "
    "width, only the width options the rollout strategy rates best, keeping its pick "
    "unless another wins more by more than margin.",
    {"decide": search_decide},
    params=(("playouts", 16.0), ("rollout", 0.0), ("width", 0.0), ("margin", 0.0)),
    param_docs={
        "playouts": ("1..65536", "playouts per searched option at each decision"),
        "rollout": _ROLLOUT,
        "width": (
            "0..64 (0: every legal option)",
            "options searched: the rollout strategy's width best (its pick, then its pick "
            "among the rest, ...); 1 plays its pick without searching",
        ),
        "margin": (
            "0..1, in results (a win 1, a loss 0)",
            "with width: how much more another option must win on average than the rollout "
            "strategy's pick to be played instead",
        ),
    },
    param_choices={"rollout": ROLLOUTS},
    param_whole=frozenset({"playouts", "width"}),
    param_bounds={
        "playouts": (1.0, 65536.0),
        "rollout": (0.0, 4.0),
        "width": (0.0, 64.0),
        "margin": (0.0, 1.0),
    },
)

ismcts = Strategy(
    GAME,
    "ismcts",
    "Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012): "
    "iterations playouts, each from a fresh guess at the hidden cards, grow one tree of "
    "both seats' options chosen by UCB1 with availability counts; plays its root option "
    "visited most.",
    {"decide": search_decide},
    params=(("iterations", 256.0), ("rollout", 0.0), ("c", 0.7)),
    param_docs={
        "iterations": ("1..65536", "playouts (and tree nodes) at each decision"),
        "rollout": _ROLLOUT,
        "c": ("0 to 100", "UCB1's exploration constant (results are in 0..1)"),
    },
    param_choices={"rollout": ROLLOUTS},
    param_whole=frozenset({"iterations"}),
    param_bounds={"iterations": (1.0, 65536.0), "rollout": (0.0, 4.0), "c": (0.0, 100.0)},
)

SHIPPED = (random, cannoneer, boarder, bailer, finisher, mc, ismcts)
# The search players have codes too: the game loop that seats them (search_nb) asks by code.
ship(SHIPPED, joining=(), module=__name__)
