"""What a Walk the Plank strategy is made of: the decision signatures and compiled helpers.

A strategy is three ``@njit`` functions, one per kind of decision, and a
:class:`~balance.core.strategy.Strategy` that names them. They receive only what
their player may know: the public position and their own random stream.

``obs`` is a tuple ``(pirates, living, state, resting, shown, rules, n, scratch_tile,
scratch_arg)``:

* ``pirates`` int64 ``(n, T)``: living pirates of each seat on each tile (0 = ship)
* ``living`` int64 ``(n,)``: living pirates per seat
* ``state`` int64 ``(State.SIZE,)``: ``state[State.PLANK]`` is the plank length,
  ``State.CAPTAIN``, ``State.ROUND``, ``State.GHOST_SEAT`` (-1 if none), ``State.GHOST_TILE``,
  and ``state[State.OCCUPIED + t]``, the bit mask of seats with a living pirate on tile ``t``
* ``resting`` int64 ``(n,)``: bit mask of each seat's resting cards
* ``shown`` int64 ``(n, 3)``: cards revealed so far this round (-1 where not yet)
* ``rules`` int64 ``(Rule.SIZE,)``: the rule parameters
* ``n``: number of players
* ``scratch_tile``, ``scratch_arg``: int64 ``(MAX_OPTIONS,)`` buffers the strategy may use,
  for example for :func:`legal_options_nb` when it looks at cards it holds

The decisions (``params`` is the seat's float64 parameter vector, ``rng`` its stream):

``program(obs, seat, available, params, rng, out)``
    write three distinct cards from the bit mask ``available`` into ``out`` (int64 ``(3,)``),
    in the order they will be revealed
``choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng) -> int``
    pick one of ``count >= 2`` options of ``card`` (``opt_tile[k]``, ``opt_arg[k]``)
``push(obs, seat, opt_tile, opt_arg, count, params, rng) -> int``
    Dolphin die number face: pick a pirate to push ``(tile, seat)`` or the last option, stop

Any option index outside ``0..count-1``, or a program that repeats a card or uses one
not in ``available``, stops the run with an error naming the strategy.
"""

import numpy as np

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb
from balance.core.search_nb import offer_nb
from balance.games.walk_the_plank import evaluation_nb
from balance.games.walk_the_plank.cards import N_CARDS, Card
from balance.games.walk_the_plank.evaluation_nb import Weight, leader_nb
from balance.games.walk_the_plank.moves_nb import (
    JUMP,
    MAX_OPTIONS,
    NOBODY,
    SHIP,
    TILES,
    TOWARD_SEA,
    TOWARD_SHIP,
    State,
    legal_options_nb,
    seat_at_nb,
)
from balance.games.walk_the_plank.rules import Rule

__all__ = [
    "JUMP",
    "MAX_OPTIONS",
    "NOBODY",
    "N_CARDS",
    "SHIP",
    "TILES",
    "TOWARD_SEA",
    "TOWARD_SHIP",
    "Card",
    "Rule",
    "State",
    "Weight",
    "below_nb",
    "best_option_nb",
    "best_push_nb",
    "evaluate_option_nb",
    "kth_card_nb",
    "leader_nb",
    "legal_options_nb",
    "njit",
    "offer_nb",
    "random_program_nb",
    "seat_at_nb",
]


def _card_tables() -> tuple[np.ndarray, np.ndarray]:
    """Popcount and k-th set bit of every 10-bit card mask, looked up instead of counted."""
    masks = np.arange(1 << N_CARDS)
    # int8: the tables (11 KB) stay in the processor's fastest cache beside a game's state.
    count = np.array([bin(m).count("1") for m in masks], dtype=np.int8)
    kth = np.full((1 << N_CARDS, N_CARDS), -1, dtype=np.int8)
    for m in masks:
        cards = [c for c in range(N_CARDS) if m >> c & 1]
        kth[m, : len(cards)] = cards
    return count, kth


CARD_COUNT, KTH_CARD = _card_tables()


@njit(inline="always", cache=True)
def card_count_nb(mask):
    """How many cards the bit mask ``mask`` holds."""
    return np.int64(CARD_COUNT[mask])


@njit(inline="always", cache=True)
def kth_card_nb(mask, k):
    """The ``k``-th card (0-based, in card order) whose bit is set in ``mask``; -1 if none."""
    return np.int64(KTH_CARD[mask, k])


@njit(inline="always", cache=True)
def random_program_nb(available, rng, out):
    """A uniformly random ordered triple of distinct cards from the bit mask ``available``."""
    m = np.int64(CARD_COUNT[available])
    for slot in range(3):
        card = np.int64(KTH_CARD[available, below_nb(rng, m - slot)])
        out[slot] = card
        available &= ~(1 << card)


@njit(cache=True)
def evaluate_option_nb(obs, seat, card, tile, arg, w):
    """One-step change in a linear evaluation of the position if ``seat`` plays this option.

    The evaluation sums, over living pirates, :data:`Weight`-weighted values of being alive
    and of the steps left to the Locker, your own positive and others' negative. Dice are
    not foreseen. ``w`` is a float64 weight vector laid out as :data:`Weight`. Compiled
    once and kept on disk (:mod:`.evaluation_nb` inlines it for the shipped strategies).
    """
    return evaluation_nb.evaluate_option_nb(obs, seat, card, tile, arg, w)


@njit(cache=True)
def best_option_nb(obs, seat, card, opt_tile, opt_arg, count, w, rng):
    """Index of the option with the best :func:`evaluate_option_nb`; ties drawn at random.
    Compiled once and kept on disk."""
    return evaluation_nb.best_option_nb(obs, seat, card, opt_tile, opt_arg, count, w, rng)


@njit(cache=True)
def best_push_nb(obs, seat, opt_tile, opt_arg, count, w, rng):
    """Dolphin step with the best evaluation: a seaward push, or stop (value 0). Compiled
    once and kept on disk."""
    return evaluation_nb.best_push_nb(obs, seat, opt_tile, opt_arg, count, w, rng)
