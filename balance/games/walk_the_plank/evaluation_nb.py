"""Walk the Plank's one-step evaluator, inlined where the shipped strategies call it.

A linear evaluation of the position (:data:`Weight`) and the option that changes it most
for a seat. The kit (:mod:`balance.games.walk_the_plank.kit`) gives users the same
functions compiled out of line, once, and kept on disk: inlined into a user's function,
the evaluator would compile for several seconds in every run after an edit.
"""

from typing import NamedTuple

from balance.core.compile_cache import njit
from balance.core.search_nb import offer_nb
from balance.games.walk_the_plank.cards import Card
from balance.games.walk_the_plank.moves_nb import JUMP, NOBODY, State, seat_at_nb


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
    not foreseen. ``w`` holds the float64 weights laid out as :data:`Weight` (an array,
    or a tuple of five as the shipped strategies pass them).
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
