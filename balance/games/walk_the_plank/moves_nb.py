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

from balance.core.bits_nb import lowest_bit_nb
from balance.core.compile_cache import njit
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
    # OCCUPIED + t: bit mask of the seats with a living pirate on tile t.
    OCCUPIED: int = 10
    # The same packed in one word: bit FIELD * t + q set while seat q has a living pirate
    # on tile t; PAIRS: two or more. With them an option list is a few operations on two
    # words rather than loops over tiles and seats. Every move keeps all three in step
    # with ``pirates``.
    SEATS: int = 10 + PLANK_LIMIT + 1
    PAIRS: int = 10 + PLANK_LIMIT + 2
    SIZE: int = 10 + PLANK_LIMIT + 3


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
#: Bits per tile in the packed words SEATS, PAIRS and option masks: five seats and a spare.
FIELD = 6
#: Bit ``FIELD * t`` for every tile: a tile set, or seat 0 on every tile.
EVERY_TILE = sum(1 << (FIELD * t) for t in range(TILES))
#: The five seat bits of every tile.
EVERY_SEAT = EVERY_TILE * 0b11111
MAX_FALLEN = 64  # Retract with every pirate of 5 players on the last tile: 45
#: Seats are 0..4 and cards 0..9, so ``x & SEAT_MASK`` and ``x & CARD_MASK`` change neither;
#: they tell the compiler that a seat or card read from memory is not negative, and
#: indexing with it then skips numba's wraparound code for negative indices.
SEAT_MASK = 0b111
CARD_MASK = 0b1111
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


@njit(inline="always", cache=True)
def set_pirates_nb(pirates, state, seat, tile, count):
    """``count`` living pirates of ``seat`` on ``tile``, with its occupancy bits."""
    pirates[seat, tile] = count
    bit = 1 << (FIELD * tile + seat)
    state[State.SEATS] = (state[State.SEATS] & ~bit) | (bit if count > 0 else 0)
    state[State.PAIRS] = (state[State.PAIRS] & ~bit) | (bit if count > 1 else 0)
    seat_bit = 1 << seat
    there = state[State.OCCUPIED + tile] & ~seat_bit
    state[State.OCCUPIED + tile] = there | (seat_bit if count > 0 else 0)


@njit(inline="always", cache=True)
def add_pirates_nb(pirates, state, seat, tile, delta):
    """``delta`` more living pirates of ``seat`` on ``tile``, with its occupancy bits."""
    set_pirates_nb(pirates, state, seat, tile, pirates[seat, tile] + delta)


@njit(inline="always", cache=True)
def clear_tile_nb(pirates, state, n, tile):
    """No pirate left on ``tile``."""
    for q in range(n):
        pirates[q, tile] = 0
    field = ~(0b11111 << (FIELD * tile))
    state[State.SEATS] &= field
    state[State.PAIRS] &= field
    state[State.OCCUPIED + tile] = 0


@njit(inline="always", cache=True)
def seats_with_pirates_nb(seats):
    """Bit mask of the seats with a living pirate anywhere, from a word laid out as SEATS."""
    folded = seats | (seats >> (4 * FIELD))  # tiles 4..8 onto 0..4
    folded |= folded >> (2 * FIELD)  # 2..3 onto 0..1 (and 4 onto 2)
    folded |= folded >> FIELD  # 1 onto 0 (and 2 onto 1)
    folded |= folded >> (2 * FIELD)  # 2 onto 0: tile 4's, which held 8's
    return folded & 0b11111


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
    return s & SEAT_MASK


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
def option_mask_nb(seats, pairs, living, state, rules, n, seat, card, slot):
    """The legal options of ``card`` for ``seat`` as a bit mask, in canonical order.

    Option ``(t, x)`` is bit ``FIELD * t + x`` (see :func:`option_at_nb` for ``x``), so
    the canonical order, tiles ascending then players or directions, is the order of the
    bits, the number of options is the number of set bits and option ``k`` is the
    ``k``-th set bit. ``seats`` and ``pairs`` are laid out as ``state[State.SEATS]`` and
    ``state[State.PAIRS]``; only ``seat``'s own bits of ``pairs`` are read. See
    ``reference.legal_options`` for the rules in words.
    """
    plank = state[State.PLANK]
    me = EVERY_TILE << seat  # your seat bit on every tile
    is_ghost = seat == state[State.GHOST_SEAT]
    # Bit FIELD * t for every tile holding "your pirate" (or the ghost).
    mine = (1 << (FIELD * state[State.GHOST_TILE])) if is_ghost else (seats >> seat) & EVERY_TILE
    with_mine = mine * 0b11111  # every seat bit of those tiles
    if card == SHOVE_LEFT or card == SHOVE_RIGHT:
        target = neighbour_with_pirates_nb(living, n, seat, 1 if card == SHOVE_LEFT else -1)
        if target < 0:
            return 0
        return seats & with_mine & (EVERY_TILE << target)
    if card == SHOVE_ANYONE:
        others = seats & with_mine & ~me
        if others == 0:
            return pairs & me  # you must shove your own
        return others
    if card == EXTEND_PLANK:
        if plank < rules[Rule.PLANK_MAX]:
            return 1 << (FIELD * (plank + 1))
        return 0
    if card == RETRACT_PLANK:
        blocked = state[State.ROUND] <= state[State.RETRACT_BLOCKED_THROUGH]
        if plank > rules[Rule.PLANK_MIN] and not blocked:
            return 1 << (FIELD * plank)
        return 0
    if card == DRAG_TO_SEA or card == PULL_TO_SHIP:
        # Another pirate there: anyone else's, or a second one of yours.
        victims = (seats & with_mine & ~me) | (pairs & me)
        if card == PULL_TO_SHIP:
            victims &= ~0b11111  # not from the ship
        return victims
    if card == RUN:
        toward_sea = mine << TOWARD_SEA
        if is_ghost:
            toward_sea &= ~(1 << (FIELD * plank + TOWARD_SEA))
        return (mine & ~1) | toward_sea  # TOWARD_SHIP is 0: not from the ship
    if card == NOT_ME:
        return (mine & ~1) | ((mine & ~1 & ~(1 << FIELD)) << 1)  # one step, two steps
    if card == CHARGE:
        if slot == 0:
            return 0
        # Others on the arrival tile t + 1, seen from t (none beyond the last tile).
        victims = (seats >> FIELD) & with_mine & ~me
        # Tiles with none: the one option (self, nobody, or jump from the last tile) is
        # bit FIELD * t + 5. Adding 31 to a 5-bit field carries into bit 5 unless it is 0.
        alone = (mine << 5) & ~(victims + EVERY_SEAT)
        if is_ghost:
            alone &= ~(1 << (FIELD * plank + 5))  # the ghost never jumps
        return victims | alone
    return 0


@njit(inline="always", cache=True)
def option_at_nb(seats, state, seat, card, bit):
    """The option ``(tile, arg)`` that bit ``bit`` of :func:`option_mask_nb` stands for."""
    tile = bit // FIELD
    x = bit - FIELD * tile
    if card == EXTEND_PLANK or card == RETRACT_PLANK:
        return tile, NOBODY
    if card == NOT_ME:
        return tile, x + 1  # steps toward the ship
    if card == CHARGE and x == 5:
        if tile == state[State.PLANK]:
            return tile, JUMP
        if (seats >> (FIELD * (tile + 1) + seat)) & 1:
            return tile, seat
        return tile, NOBODY
    return tile, x  # a player, or Run's direction


@njit(inline="always", cache=True)
def legal_options_nb(pirates, living, state, rules, n, seat, card, slot, opt_tile, opt_arg):
    """Fill ``opt_tile``/``opt_arg`` (int64, ``(MAX_OPTIONS,)``) with the canonical options.

    Returns the number of options; see ``reference.legal_options`` for the rules in words.
    Strategies inline this function into their own machine code, which numba's disk cache
    keeps until the strategy's file changes, whatever becomes of this module: so it reads
    the position only through ``pirates`` and the ``OCCUPIED`` slots, which keep their
    places (the game loop reads the packed words).
    """
    seats = 0
    pairs = 0
    for t in range(state[State.PLANK] + 1):
        seats |= state[State.OCCUPIED + t] << (FIELD * t)
        pairs |= (1 if pirates[seat, t] > 1 else 0) << (FIELD * t + seat)
    mask = option_mask_nb(seats, pairs, living, state, rules, n, seat, card, slot)
    return options_from_mask_nb(seats, state, seat, card, mask, opt_tile, opt_arg)


@njit(inline="always", cache=True)
def options_from_mask_nb(seats, state, seat, card, mask, opt_tile, opt_arg):
    """Fill ``opt_tile``/``opt_arg`` with the options of ``mask``; returns how many."""
    count = 0
    while mask:
        tile, arg = option_at_nb(seats, state, seat, card, lowest_bit_nb(mask))
        opt_tile[count] = tile
        opt_arg[count] = arg
        count += 1
        mask &= mask - 1
    return count


@njit(inline="always", cache=True)
def _step_nb(pirates, state, owner, here, there):
    """One of ``owner``'s living pirates moves from tile ``here`` to tile ``there``.

    Every value is read before anything is written, so that the packed words are read
    from memory once, not once per tile.
    """
    left = pirates[owner, here] - 1
    arrived = pirates[owner, there] + 1
    seats = state[State.SEATS]
    pairs = state[State.PAIRS]
    occupied_here = state[State.OCCUPIED + here]
    occupied_there = state[State.OCCUPIED + there]
    bit_here = 1 << (FIELD * here + owner)
    bit_there = 1 << (FIELD * there + owner)
    pirates[owner, here] = left
    pirates[owner, there] = arrived
    state[State.SEATS] = (seats & ~bit_here) | (bit_here if left > 0 else 0) | bit_there
    pairs &= ~(bit_here | bit_there)
    state[State.PAIRS] = pairs | (bit_here if left > 1 else 0) | (bit_there if arrived > 1 else 0)
    seat_bit = 1 << owner
    state[State.OCCUPIED + here] = (occupied_here & ~seat_bit) | (seat_bit if left > 0 else 0)
    state[State.OCCUPIED + there] = occupied_there | seat_bit


@njit(inline="always", cache=True)
def _to_sea_nb(pirates, living, state, owner, t, fallen, n_fallen):
    """One of ``owner``'s living pirates steps seaward; returns the new fallen count."""
    if t == state[State.PLANK]:
        add_pirates_nb(pirates, state, owner, t, -1)
        living[owner] -= 1
        fallen[n_fallen] = owner
        return n_fallen + 1
    _step_nb(pirates, state, owner, t, t + 1)
    return n_fallen


@njit(inline="always", cache=True)
def _to_ship_nb(pirates, state, owner, t, steps, outcome):
    _step_nb(pirates, state, owner, t, t - steps)
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
        clear_tile_nb(pirates, state, n, plank)
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
