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

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb
from balance.core.search_nb import offer_nb
from balance.games.walk_the_plank.cards import N_CARDS, Card
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
    "random_program_nb",
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


@njit(inline="always", cache=True)
def leader_nb(living, n, seat):
    """The other seat with the most living pirates (first clockwise on ties); -1 if none."""
    best = -1
    for k in range(1, n):
        q = seat_at_nb(seat, k, n)
        if living[q] > 0 and (best < 0 or living[q] > living[best]):
            best = q
    return best


class WeightSlots(NamedTuple):
    """Positions in the weight vector of the one-step evaluator (:func:`evaluate_option_nb`)."""

    OWN_ALIVE: int = 0  # value of each of your living pirates
    OWN_SAFETY: int = 1  # value per step between your pirate and the Locker
    OTHER_ALIVE: int = 2  # cost of each other player's living pirate
    OTHER_SAFETY: int = 3  # cost per step between another player's pirate and the Locker
    LEADER: int = 4  # extra share of cost on the pirates of the player with most pirates
    SIZE: int = 5


Weight = WeightSlots()


@njit(inline="always", cache=True)
def _pirate_value_nb(w, seat, leader, owner, steps):
    """Value to ``seat`` of ``owner``'s living pirate ``steps`` away from falling."""
    if owner == seat:
        return w[Weight.OWN_ALIVE] + w[Weight.OWN_SAFETY] * steps
    value = -(w[Weight.OTHER_ALIVE] + w[Weight.OTHER_SAFETY] * steps)
    if owner == leader:
        value *= 1.0 + w[Weight.LEADER]
    return value


@njit(inline="always", cache=True)
def _step_value_nb(w, seat, leader, owner, tile, plank, direction):
    """Change in value when ``owner``'s pirate on ``tile`` moves one step (+1 seaward)."""
    steps = plank + 1 - tile
    before = _pirate_value_nb(w, seat, leader, owner, steps)
    if direction > 0 and tile == plank:
        return -before  # it falls
    return _pirate_value_nb(w, seat, leader, owner, steps - direction) - before


@njit(inline="always", cache=True)
def evaluate_option_nb(obs, seat, card, tile, arg, w):
    """One-step change in a linear evaluation of the position if ``seat`` plays this option.

    The evaluation sums, over living pirates, :data:`Weight`-weighted values of being alive
    and of the steps left to the Locker, your own positive and others' negative. Dice are
    not foreseen. ``w`` is a float64 weight vector laid out as :data:`Weight`.
    """
    pirates, living, state = obs[0], obs[1], obs[2]
    n = obs[6]
    plank = state[State.PLANK]
    leader = leader_nb(living, n, seat)
    ghost = seat == state[State.GHOST_SEAT]
    delta = 0.0
    if card == Card.SHOVE_LEFT or card == Card.SHOVE_RIGHT or card == Card.SHOVE_ANYONE:
        delta += _step_value_nb(w, seat, leader, arg, tile, plank, 1)
    elif card == Card.EXTEND_PLANK or card == Card.RETRACT_PLANK:
        # Every pirate's distance to the Locker grows (extend) or shrinks (retract) by one.
        sign = 1 if card == Card.EXTEND_PLANK else -1
        for q in range(n):
            for t in range(plank + 1):
                count = pirates[q, t]
                if count > 0:
                    steps = plank + 1 - t
                    before = _pirate_value_nb(w, seat, leader, q, steps)
                    if sign < 0 and t == plank:
                        delta -= count * before
                    else:
                        after = _pirate_value_nb(w, seat, leader, q, steps + sign)
                        delta += count * (after - before)
    elif card == Card.DRAG_TO_SEA:
        if not ghost:
            delta += _step_value_nb(w, seat, leader, seat, tile, plank, 1)
        delta += _step_value_nb(w, seat, leader, arg, tile, plank, 1)
    elif card == Card.PULL_TO_SHIP:
        if not ghost:
            delta += _step_value_nb(w, seat, leader, seat, tile, plank, -1)
        delta += _step_value_nb(w, seat, leader, arg, tile, plank, -1)
    elif card == Card.RUN:
        if not ghost:
            delta += _step_value_nb(w, seat, leader, seat, tile, plank, 1 if arg else -1)
    elif card == Card.NOT_ME:
        if not ghost:
            delta += _step_value_nb(w, seat, leader, seat, tile, plank, -1)
            if arg == 2:
                delta += _step_value_nb(w, seat, leader, seat, tile - 1, plank, -1)
    elif card == Card.CHARGE:
        if arg == JUMP:
            delta += _step_value_nb(w, seat, leader, seat, tile, plank, 1)
        else:
            if not ghost:
                delta += _step_value_nb(w, seat, leader, seat, tile, plank, 1)
            if arg != NOBODY:
                delta += _step_value_nb(w, seat, leader, arg, tile + 1, plank, 1)
    return delta


@njit(inline="always", cache=True)
def best_option_nb(obs, seat, card, opt_tile, opt_arg, count, w, rng):
    """Index of the option with the best :func:`evaluate_option_nb`; ties drawn at random."""
    best = 0
    top = -1e300
    ties = 0
    for k in range(count):
        value = evaluate_option_nb(obs, seat, card, opt_tile[k], opt_arg[k], w)
        taken, top, ties = offer_nb(value, top, ties, rng, 1e-9)
        if taken:
            best = k
    return best


@njit(inline="always", cache=True)
def best_push_nb(obs, seat, opt_tile, opt_arg, count, w, rng):
    """Dolphin step with the best evaluation: a seaward push, or stop (value 0)."""
    state = obs[2]
    plank = state[State.PLANK]
    leader = leader_nb(obs[1], obs[6], seat)
    best = count - 1  # stop
    best_value = 0.0
    for k in range(count - 1):
        value = _step_value_nb(w, seat, leader, opt_arg[k], opt_tile[k], plank, 1)
        if value > best_value + 1e-9:
            best, best_value = k, value
    return best
