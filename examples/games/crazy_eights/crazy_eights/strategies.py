"""The Crazy Eights strategies that ship with the game, written as a user's file is.

Each decision gets ``view = (hand, table, sizes, discard, scratch)`` (docs/crazy-eights.md,
"What a strategy sees"): ``play`` returns the index of an option of ``options[:count]``
(a card, or DRAW), ``suit`` the suit an eight names (0 clubs, 1 diamonds, 2 hearts, 3
spades). A shipped strategy's code is its place in ``SHIPPED``.
"""

import math

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb
from balance.core.strategy import Strategy, ship

from crazy_eights.rules import N_CARDS, POINTS, Rank

GAME = "crazy-eights"


@njit(inline="always", cache=True)
def random_play(view, options, count, params, rng):
    return below_nb(rng, count)


@njit(inline="always", cache=True)
def random_suit(view, params, rng):
    return below_nb(rng, 4)


@njit(inline="always", cache=True)
def _tally_nb(hand, scratch):
    """Per suit, the cards (``scratch[0:4]``) and penalty points (``scratch[4:8]``) held,
    eights left out (they follow any suit)."""
    for k in range(8):
        scratch[k] = 0
    for c in range(N_CARDS):
        if hand[c] != 0 and c % 13 != Rank.EIGHT:
            scratch[c // 13] += 1
            scratch[4 + c // 13] += POINTS[c % 13]


@njit(inline="always", cache=True)
def _best_card_nb(view, options, count, params):
    """The option worth most: ``length`` per card held of its suit, plus ``points`` per
    penalty point it sheds, minus ``hold`` for an eight; never the draw (ties: first)."""
    scratch = view[4]
    _tally_nb(view[0], scratch)
    best, worth = 0, -math.inf
    for k in range(count):
        c = options[k]
        if c >= N_CARDS:
            continue
        value = params[0] * scratch[c // 13] + params[1] * POINTS[c % 13]
        if c % 13 == Rank.EIGHT:
            value -= params[2]
        if value > worth:
            best, worth = k, value
    return best


@njit(inline="always", cache=True)
def _most_nb(scratch, first):
    """The suit with the most of ``scratch[first:first + 4]`` (ties: the first suit)."""
    best = 0
    for s in range(1, 4):
        if scratch[first + s] > scratch[first + best]:
            best = s
    return best


@njit(inline="always", cache=True)
def eights_last_suit(view, params, rng):
    _tally_nb(view[0], view[4])
    return _most_nb(view[4], 0)


@njit(inline="always", cache=True)
def dump_points_suit(view, params, rng):
    _tally_nb(view[0], view[4])
    return _most_nb(view[4], 4)


@njit(inline="always", cache=True)
def heuristic_play(view, options, count, params, rng):
    return _best_card_nb(view, options, count, params)


_DOCS = {
    "length": ("any number", "worth of a card per card held of its suit (eights left out)"),
    "points": ("any number", "worth of a card per penalty point it sheds (eight 50, court 10)"),
    "hold": ("any number", "worth lost by playing an eight: large keeps eights to the last"),
}

random = Strategy(
    GAME,
    "random",
    "Chooses uniformly among its options (cards, or the draw where allowed) and among the "
    "suits (the rules page's reference player).",
    {"play": random_play, "suit": random_suit},
)
eights_last = Strategy(
    GAME,
    "eights-last",
    "Plays from its longest suit and keeps its eights as a last resort; names its longest "
    "suit. Never draws while it may play.",
    {"play": heuristic_play, "suit": eights_last_suit},
    params=(("length", 1.0), ("points", 0.0), ("hold", 100.0)),
    param_docs=_DOCS,
)
dump_points = Strategy(
    GAME,
    "dump-points",
    "Sheds its highest-penalty card first (eights, then court cards); names the suit of "
    "most penalty points in its hand. Never draws while it may play.",
    {"play": heuristic_play, "suit": dump_points_suit},
    params=(("length", 0.0), ("points", 1.0), ("hold", 0.0)),
    param_docs=_DOCS,
)

SHIPPED = (random, eights_last, dump_points)
ship(SHIPPED, joining=(), module=__name__)
