"""Walk the Plank's moves in compiled code: positions, legal options and card movement.

Pure ``@njit`` functions over small integer arrays, shared by the game loop
(:mod:`.engine_nb`) and by strategies that look one move ahead. The rules are
those of :mod:`.reference`, which says them in readable Python.

Shapes used throughout (``n`` players, ``T = PLANK_LIMIT + 1`` positions):

* ``pirates``  int64 ``(n, T)``: living pirates of each seat on each tile (tile 0 is the ship)
* ``living``   int64 ``(n,)``: living pirates per seat (kept equal to ``pirates.sum(1)``)
* ``state``    int64 ``(State.SIZE,)``: plank length, captain, round, ghost, dice state
* ``rules``    int64 ``(Rule.SIZE,)``: the packed :class:`WalkThePlankRules`
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from balance.games.walk_the_plank.cards import N_CARDS, Card
from balance.games.walk_the_plank.rules import PLANK_LIMIT, Rule


class StateSlots(NamedTuple):
    PLANK: int = 0
    CAPTAIN: int = 1
    ROUND: int = 2
    GHOST_SEAT: int = 3
    GHOST_TILE: int = 4
    GHOST_ACTIVE: int = 5
    DOLPHIN_ROLLED: int = 6
    RETRACT_BLOCKED_THROUGH: int = 7
    DICE_CURSOR: int = 8  # next scripted die roll (scenario tests)
    CHOICE_CURSOR: int = 9  # next scripted Dolphin choice (scenario tests)
    # OCCUPIED + t: bit mask of the seats with a living pirate on tile t, kept in step
    # with ``pirates`` by every move, so that option lists test bits instead of counts.
    OCCUPIED: int = 10
    SIZE: int = 10 + PLANK_LIMIT + 1


class OutcomeSlots(NamedTuple):
    KILLED_OWN: int = 0
    KILLED_OTHERS: int = 1
    SAVED: int = 2
    KRAKEN_KILLED: int = 3
    KRAKEN_CALM: int = 4
    KRAKEN_WAVE: int = 5
    KRAKEN_KRAKEN: int = 6
    DOLPHIN_FACE: int = 7
    ELIMINATED_MASK: int = 8
    SIZE: int = 9


State = StateSlots()
Outcome = OutcomeSlots()

TILES = PLANK_LIMIT + 1
MAX_OPTIONS = 64  # Drag on 9 tiles x 5 players is the most: 45
MAX_FALLEN = 64  # Retract with every pirate of 5 players on the last tile: 45
SHIP = 0
NOBODY = -1
JUMP = -2
TOWARD_SHIP = 0
TOWARD_SEA = 1
ALL_CARDS = (1 << N_CARDS) - 1

SHOVE_LEFT = Card.SHOVE_LEFT
SHOVE_RIGHT = Card.SHOVE_RIGHT
SHOVE_ANYONE = Card.SHOVE_ANYONE
EXTEND_PLANK = Card.EXTEND_PLANK
RETRACT_PLANK = Card.RETRACT_PLANK
DRAG_TO_SEA = Card.DRAG_TO_SEA
PULL_TO_SHIP = Card.PULL_TO_SHIP
RUN = Card.RUN
NOT_ME = Card.NOT_ME
CHARGE = Card.CHARGE


#: Index of the lowest set bit of every seat mask (5 seats at most).
LOW_BIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 32)], dtype=np.int64)


@njit(inline="always", cache=True)
def add_pirates_nb(pirates, state, seat, tile, delta):
    """``delta`` more living pirates of ``seat`` on ``tile``, with its occupancy bit."""
    pirates[seat, tile] += delta
    if pirates[seat, tile] > 0:
        state[State.OCCUPIED + tile] |= 1 << seat
    else:
        state[State.OCCUPIED + tile] &= ~(1 << seat)


@njit(inline="always", cache=True)
def seat_at_nb(seat, k, n):
    """The seat ``k`` places clockwise (``k > 0``) or counter-clockwise (``k < 0``), ``|k| < n``.

    Written with comparisons, not ``%``: an integer division costs more than a whole move.
    """
    s = seat + k
    if s >= n:
        s -= n
    elif s < 0:
        s += n
    return s


@njit(inline="always", cache=True)
def your_tiles_nb(pirates, state, seat, plank):
    """Bit ``t`` set for every tile ``0..plank`` holding ``seat``'s pirate (or ghost)."""
    if seat == state[State.GHOST_SEAT]:
        return 1 << state[State.GHOST_TILE]
    mask = 0
    for t in range(plank + 1):
        mask |= ((state[State.OCCUPIED + t] >> seat) & 1) << t
    return mask


@njit(inline="always", cache=True)
def in_game_nb(living, state, seat):
    """Has living pirates, or plays on as the ghost."""
    return living[seat] > 0 or (seat == state[State.GHOST_SEAT] and state[State.GHOST_ACTIVE] != 0)


@njit(inline="always", cache=True)
def neighbour_with_pirates_nb(living, n, seat, step):
    for k in range(1, n):
        other = seat_at_nb(seat, step * k, n)
        if living[other] > 0:
            return other
    return -1


@njit(inline="always", cache=True)
def legal_options_nb(pirates, living, state, rules, n, seat, card, slot, opt_tile, opt_arg):
    """Fill ``opt_tile``/``opt_arg`` (int64, ``(MAX_OPTIONS,)``) with the canonical options.

    Returns the number of options; see ``reference.legal_options`` for the rules in words.
    """
    plank = state[State.PLANK]
    # Tiles holding "your pirate", and per tile the seats with pirates there, as bit
    # masks: the loops below test bits rather than counts.
    mine = your_tiles_nb(pirates, state, seat, plank)
    occupied = State.OCCUPIED
    me = 1 << seat
    count = 0
    if card == SHOVE_LEFT or card == SHOVE_RIGHT:
        step = 1 if card == SHOVE_LEFT else -1
        target = neighbour_with_pirates_nb(living, n, seat, step)
        if target < 0:
            return 0
        for t in range(plank + 1):
            if (mine >> t) & 1 and (state[occupied + t] >> target) & 1:
                opt_tile[count] = t
                opt_arg[count] = target
                count += 1
        return count

    if card == SHOVE_ANYONE:
        for t in range(plank + 1):
            if (mine >> t) & 1:
                others = state[occupied + t] & ~me
                while others:
                    opt_tile[count] = t
                    opt_arg[count] = LOW_BIT[others]
                    count += 1
                    others &= others - 1
        if count == 0:
            for t in range(plank + 1):
                if (mine >> t) & 1 and pirates[seat, t] >= 2:
                    opt_tile[count] = t
                    opt_arg[count] = seat
                    count += 1
        return count

    if card == EXTEND_PLANK:
        if plank < rules[Rule.PLANK_MAX]:
            opt_tile[0] = plank + 1
            opt_arg[0] = NOBODY
            return 1
        return 0

    if card == RETRACT_PLANK:
        blocked = state[State.ROUND] <= state[State.RETRACT_BLOCKED_THROUGH]
        if plank > rules[Rule.PLANK_MIN] and not blocked:
            opt_tile[0] = plank
            opt_arg[0] = NOBODY
            return 1
        return 0

    if card == DRAG_TO_SEA or card == PULL_TO_SHIP:
        lowest = SHIP if card == DRAG_TO_SEA else 1
        for t in range(lowest, plank + 1):
            if (mine >> t) & 1:
                seats = state[occupied + t]
                if (seats & me) and pirates[seat, t] < 2:
                    seats &= ~me  # your own pirate needs a second one there
                while seats:
                    opt_tile[count] = t
                    opt_arg[count] = LOW_BIT[seats]
                    count += 1
                    seats &= seats - 1
        return count

    if card == RUN:
        is_ghost = seat == state[State.GHOST_SEAT]
        for t in range(plank + 1):
            if (mine >> t) & 1:
                if t >= 1:
                    opt_tile[count] = t
                    opt_arg[count] = TOWARD_SHIP
                    count += 1
                if not (is_ghost and t == plank):
                    opt_tile[count] = t
                    opt_arg[count] = TOWARD_SEA
                    count += 1
        return count

    if card == NOT_ME:
        for t in range(1, plank + 1):
            if (mine >> t) & 1:
                for d in range(1, 3):
                    if t - d >= SHIP:
                        opt_tile[count] = t
                        opt_arg[count] = d
                        count += 1
        return count

    if card == CHARGE:
        if slot == 0:
            return 0
        is_ghost = seat == state[State.GHOST_SEAT]
        for t in range(plank + 1):
            if not (mine >> t) & 1:
                continue
            if t == plank:
                if not is_ghost:
                    opt_tile[count] = t
                    opt_arg[count] = JUMP
                    count += 1
                continue
            there = state[occupied + t + 1]
            victims = there & ~me
            if victims == 0:
                opt_tile[count] = t
                opt_arg[count] = seat if there & me else NOBODY
                count += 1
            while victims:
                opt_tile[count] = t
                opt_arg[count] = LOW_BIT[victims]
                count += 1
                victims &= victims - 1
        return count
    return 0


@njit(inline="always", cache=True)
def _to_sea_nb(pirates, living, state, owner, t, fallen, n_fallen):
    """One of ``owner``'s living pirates steps seaward; returns the new fallen count."""
    add_pirates_nb(pirates, state, owner, t, -1)
    if t == state[State.PLANK]:
        living[owner] -= 1
        fallen[n_fallen] = owner
        return n_fallen + 1
    add_pirates_nb(pirates, state, owner, t + 1, 1)
    return n_fallen


@njit(inline="always", cache=True)
def _to_ship_nb(pirates, state, owner, t, steps, outcome):
    add_pirates_nb(pirates, state, owner, t, -1)
    add_pirates_nb(pirates, state, owner, t - steps, 1)
    outcome[Outcome.SAVED] += 1


@njit(inline="always", cache=True)
def game_over_nb(living, n):
    """At most 2 pirates live, or all living pirates belong to one player."""
    total = 0
    players_left = 0
    for s in range(n):
        total += living[s]
        if living[s] > 0:
            players_left += 1
    return total <= 2 or players_left <= 1


@njit(inline="always", cache=True)
def move_nb(pirates, living, state, n, seat, card, tile, arg, fallen, outcome):
    """The movement of the legal option ``(tile, arg)`` of ``card`` for ``seat``, before dice.

    Changes ``pirates``, ``living`` and ``state`` in place, counts pirates moved toward
    the ship in ``outcome[Outcome.SAVED]``, and lists the owners of pirates that fell in
    ``fallen`` (int64, ``(MAX_FALLEN,)``). Returns how many fell.
    """
    plank = state[State.PLANK]
    is_ghost = seat == state[State.GHOST_SEAT]
    n_fallen = 0
    if card == SHOVE_LEFT or card == SHOVE_RIGHT or card == SHOVE_ANYONE:
        n_fallen = _to_sea_nb(pirates, living, state, arg, tile, fallen, n_fallen)
    elif card == EXTEND_PLANK:
        state[State.PLANK] = plank + 1
    elif card == RETRACT_PLANK:
        for owner in range(n):
            for _ in range(pirates[owner, plank]):
                fallen[n_fallen] = owner
                n_fallen += 1
            living[owner] -= pirates[owner, plank]
            pirates[owner, plank] = 0
        state[State.OCCUPIED + plank] = 0
        if state[State.GHOST_SEAT] >= 0 and state[State.GHOST_TILE] == plank:
            state[State.GHOST_TILE] = plank - 1
        state[State.PLANK] = plank - 1
    elif card == DRAG_TO_SEA:
        if is_ghost:
            state[State.GHOST_TILE] = min(tile + 1, plank)
        else:
            n_fallen = _to_sea_nb(pirates, living, state, seat, tile, fallen, n_fallen)
        n_fallen = _to_sea_nb(pirates, living, state, arg, tile, fallen, n_fallen)
    elif card == PULL_TO_SHIP:
        if is_ghost:
            state[State.GHOST_TILE] = tile - 1
        else:
            _to_ship_nb(pirates, state, seat, tile, 1, outcome)
        _to_ship_nb(pirates, state, arg, tile, 1, outcome)
    elif card == RUN:
        if arg == TOWARD_SHIP:
            if is_ghost:
                state[State.GHOST_TILE] = tile - 1
            else:
                _to_ship_nb(pirates, state, seat, tile, 1, outcome)
        elif is_ghost:
            state[State.GHOST_TILE] = min(tile + 1, plank)
        else:
            n_fallen = _to_sea_nb(pirates, living, state, seat, tile, fallen, n_fallen)
    elif card == NOT_ME:
        if is_ghost:
            state[State.GHOST_TILE] = tile - arg
        else:
            _to_ship_nb(pirates, state, seat, tile, arg, outcome)
    elif card == CHARGE:
        if arg == JUMP:
            n_fallen = _to_sea_nb(pirates, living, state, seat, tile, fallen, n_fallen)
        else:
            if is_ghost:
                state[State.GHOST_TILE] = tile + 1
            else:
                n_fallen = _to_sea_nb(pirates, living, state, seat, tile, fallen, n_fallen)
            if arg != NOBODY:
                n_fallen = _to_sea_nb(pirates, living, state, arg, tile + 1, fallen, n_fallen)
    return n_fallen
