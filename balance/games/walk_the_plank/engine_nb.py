"""Walk the Plank's compiled engine: ``@njit`` code over small integer arrays.

The rules are those of :mod:`balance.games.walk_the_plank.reference`, which says
them in readable Python; this module says them again for speed and must agree
with it game for game (the test suite checks it). Nothing here allocates inside
the game loop: every buffer is made once per batch and passed in.

Shapes used throughout (``n`` players, ``T = PLANK_LIMIT + 1`` positions):

* ``pirates``  int64 ``(n, T)``: living pirates of each seat on each tile (tile 0 is the ship)
* ``living``   int64 ``(n,)``: living pirates per seat (kept equal to ``pirates.sum(1)``)
* ``state``    int64 ``(State.SIZE,)``: plank length, captain, round, ghost, dice state
* ``rules``    int64 ``(Rule.SIZE,)``: the packed :class:`WalkThePlankRules`
* ``rng``      uint64 ``(n + 1, 4)``: stream 0 is the dice, stream ``1 + s`` seat ``s``'s strategy
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from balance.games.walk_the_plank.cards import GHOST_SET_ASIDE, N_CARDS, Card
from balance.games.walk_the_plank.rules import PLANK_LIMIT, Rule
from balance.random_nb import below_nb, seed_stream_nb


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
    SIZE: int = 10


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


class GameStatSlots(NamedTuple):
    """Columns of the per-game record array ``games`` (int32, shape ``(G, SIZE)``)."""

    ROUNDS: int = 0
    FINISHED: int = 1
    GHOST_SEAT: int = 2
    DOLPHIN_FACE: int = 3
    KRAKEN_CALM: int = 4
    KRAKEN_WAVE: int = 5
    KRAKEN_KRAKEN: int = 6
    KRAKEN_KILLED: int = 7
    SIZE: int = 8


class CardStatSlots(NamedTuple):
    """Last axis of the per-card record array ``cards`` (int16, shape ``(G, n, 10, SIZE)``)."""

    REVEALED: int = 0
    EFFECT: int = 1
    KILLED_OWN: int = 2
    KILLED_OTHERS: int = 3
    SAVED: int = 4
    SIZE: int = 5


State = StateSlots()
Outcome = OutcomeSlots()
GameStat = GameStatSlots()
CardStat = CardStatSlots()

TILES = PLANK_LIMIT + 1
MAX_OPTIONS = 64  # Drag on 9 tiles x 5 players is the most: 45
MAX_FALLEN = 64  # Retract with every pirate of 5 players on the last tile: 45
SHIP = 0
NOBODY = -1
JUMP = -2
TOWARD_SHIP = 0
TOWARD_SEA = 1
STOP = -1
DOLPHIN_SHARK = 4
DOLPHIN_DOLPHIN = 5
ALL_CARDS = (1 << N_CARDS) - 1
GHOST_SET_ASIDE_MASK = sum(1 << c for c in GHOST_SET_ASIDE)
RANDOM = 0  # strategy code of the uniform-random strategy
SCRIPTED = -1  # strategy code that only follows a script (scenario tests)

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
def has_pirate_nb(pirates, state, seat, tile):
    """'Your pirate at t': a living pirate, or the ghost for the ghost's player."""
    if seat == state[State.GHOST_SEAT]:
        return state[State.GHOST_TILE] == tile
    return pirates[seat, tile] > 0


@njit(inline="always", cache=True)
def in_game_nb(living, state, seat):
    """Has living pirates, or plays on as the ghost."""
    return living[seat] > 0 or (seat == state[State.GHOST_SEAT] and state[State.GHOST_ACTIVE] != 0)


@njit(inline="always", cache=True)
def neighbour_with_pirates_nb(living, n, seat, step):
    for k in range(1, n):
        other = (seat + step * k) % n
        if living[other] > 0:
            return other
    return -1


@njit(cache=True)
def legal_options_nb(pirates, living, state, rules, n, seat, card, slot, opt_tile, opt_arg):
    """Fill ``opt_tile``/``opt_arg`` (int64, ``(MAX_OPTIONS,)``) with the canonical options.

    Returns the number of options; see ``reference.legal_options`` for the rules in words.
    """
    plank = state[State.PLANK]
    count = 0
    if card == SHOVE_LEFT or card == SHOVE_RIGHT:
        step = 1 if card == SHOVE_LEFT else -1
        target = neighbour_with_pirates_nb(living, n, seat, step)
        if target < 0:
            return 0
        for t in range(plank + 1):
            if has_pirate_nb(pirates, state, seat, t) and pirates[target, t] > 0:
                opt_tile[count] = t
                opt_arg[count] = target
                count += 1
        return count

    if card == SHOVE_ANYONE:
        for t in range(plank + 1):
            if has_pirate_nb(pirates, state, seat, t):
                for q in range(n):
                    if q != seat and pirates[q, t] > 0:
                        opt_tile[count] = t
                        opt_arg[count] = q
                        count += 1
        if count == 0:
            for t in range(plank + 1):
                if has_pirate_nb(pirates, state, seat, t) and pirates[seat, t] >= 2:
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
            if has_pirate_nb(pirates, state, seat, t):
                for q in range(n):
                    needed = 2 if q == seat else 1
                    if pirates[q, t] >= needed:
                        opt_tile[count] = t
                        opt_arg[count] = q
                        count += 1
        return count

    if card == RUN:
        is_ghost = seat == state[State.GHOST_SEAT]
        for t in range(plank + 1):
            if has_pirate_nb(pirates, state, seat, t):
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
            if has_pirate_nb(pirates, state, seat, t):
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
            if not has_pirate_nb(pirates, state, seat, t):
                continue
            if t == plank:
                if not is_ghost:
                    opt_tile[count] = t
                    opt_arg[count] = JUMP
                    count += 1
                continue
            arrival = t + 1
            victims = 0
            for q in range(n):
                if q != seat and pirates[q, arrival] > 0:
                    opt_tile[count] = t
                    opt_arg[count] = q
                    count += 1
                    victims += 1
            if victims == 0:
                opt_tile[count] = t
                opt_arg[count] = seat if pirates[seat, arrival] > 0 else NOBODY
                count += 1
        return count
    return 0


@njit(inline="always", cache=True)
def _program_random_nb(available, rng_seat, program):
    """A uniformly random ordered triple of distinct cards from the bit mask ``available``."""
    m = 0
    for c in range(N_CARDS):
        m += (available >> c) & 1
    for slot in range(3):
        k = below_nb(rng_seat, m - slot)
        for c in range(N_CARDS):
            if (available >> c) & 1:
                if k == 0:
                    program[slot] = c
                    available &= ~(1 << c)
                    break
                k -= 1


@njit(inline="always", cache=True)
def program_nb(code, available, rng_seat, program):
    """Seat's program for the round into ``program`` (int64, ``(3,)``)."""
    # Only the uniform-random strategy so far; other codes dispatch here.
    _program_random_nb(available, rng_seat, program)


@njit(inline="always", cache=True)
def choose_nb(code, count, rng_seat):
    """Index of the chosen option among ``count >= 2`` options."""
    return below_nb(rng_seat, count)


@njit(inline="always", cache=True)
def _roll_nb(state, dice_script, rng):
    cursor = state[State.DICE_CURSOR]
    if cursor < dice_script.shape[0]:
        state[State.DICE_CURSOR] = cursor + 1
        return dice_script[cursor]
    return below_nb(rng[0], 6)


@njit(inline="always", cache=True)
def _to_sea_nb(pirates, living, state, owner, t, fallen, n_fallen):
    """One of ``owner``'s living pirates steps seaward; returns the new fallen count."""
    pirates[owner, t] -= 1
    if t == state[State.PLANK]:
        living[owner] -= 1
        fallen[n_fallen] = owner
        return n_fallen + 1
    pirates[owner, t + 1] += 1
    return n_fallen


@njit(inline="always", cache=True)
def _to_ship_nb(pirates, owner, t, steps, outcome):
    pirates[owner, t] -= 1
    pirates[owner, t - steps] += 1
    outcome[Outcome.SAVED] += 1


@njit(cache=True)
def _dolphin_push_nb(
    pirates, state, n, owner, steps, codes, rng, choice_script, moved, opt_tile, opt_arg
):
    """Dolphin die number face: the owner moves up to ``steps`` distinct pirates seaward."""
    moved[:, :] = 0
    plank = state[State.PLANK]
    for _ in range(steps):
        count = 0
        for t in range(plank):
            for q in range(n):
                if pirates[q, t] - moved[q, t] > 0:
                    opt_tile[count] = t
                    opt_arg[count] = q
                    count += 1
        if count == 0:
            return
        opt_tile[count] = STOP
        opt_arg[count] = STOP
        count += 1
        cursor = state[State.CHOICE_CURSOR]
        if cursor < choice_script.shape[0]:
            pick = choice_script[cursor]
            state[State.CHOICE_CURSOR] = cursor + 1
        else:
            pick = choose_nb(codes[owner], count, rng[1 + owner])
        t = opt_tile[pick]
        if t == STOP:
            return
        q = opt_arg[pick]
        pirates[q, t] -= 1
        pirates[q, t + 1] += 1
        moved[q, t + 1] += 1


@njit(cache=True)
def resolve_card_nb(
    pirates,
    living,
    state,
    rules,
    n,
    seat,
    card,
    tile,
    arg,
    codes,
    rng,
    dice_script,
    choice_script,
    outcome,
    fallen,
    moved,
    opt_tile,
    opt_arg,
):
    """Carry out the legal option ``(tile, arg)`` of ``card`` for ``seat``.

    Changes ``pirates``, ``living`` and ``state`` in place and writes what happened to
    ``outcome`` (int64, ``(Outcome.SIZE,)``, zeroed here). Dice come from
    ``dice_script`` while it lasts, then from ``rng[0]``; Dolphin choices from
    ``choice_script``, then from the owner's strategy.
    """
    outcome[:] = 0
    outcome[Outcome.DOLPHIN_FACE] = -1
    had_pirates = 0
    for s in range(n):
        if living[s] > 0:
            had_pirates |= 1 << s
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
            _to_ship_nb(pirates, seat, tile, 1, outcome)
        _to_ship_nb(pirates, arg, tile, 1, outcome)
    elif card == RUN:
        if arg == TOWARD_SHIP:
            if is_ghost:
                state[State.GHOST_TILE] = tile - 1
            else:
                _to_ship_nb(pirates, seat, tile, 1, outcome)
        elif is_ghost:
            state[State.GHOST_TILE] = min(tile + 1, plank)
        else:
            n_fallen = _to_sea_nb(pirates, living, state, seat, tile, fallen, n_fallen)
    elif card == NOT_ME:
        if is_ghost:
            state[State.GHOST_TILE] = tile - arg
        else:
            _to_ship_nb(pirates, seat, tile, arg, outcome)
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

    # Fallen pirates meet the dice: owners clockwise from the acting player.
    for k in range(n):
        owner = (seat + k) % n
        for i in range(n_fallen):
            if fallen[i] != owner:
                continue
            lost = True
            if rules[Rule.DOLPHIN] != 0 and state[State.DOLPHIN_ROLLED] == 0:
                state[State.DOLPHIN_ROLLED] = 1
                face = _roll_nb(state, dice_script, rng)
                outcome[Outcome.DOLPHIN_FACE] = face
                if face == DOLPHIN_DOLPHIN:
                    pirates[owner, state[State.PLANK]] += 1
                    living[owner] += 1
                    state[State.RETRACT_BLOCKED_THROUGH] = state[State.ROUND] + 1
                    lost = False
                elif face != DOLPHIN_SHARK:
                    _dolphin_push_nb(
                        pirates,
                        state,
                        n,
                        owner,
                        face + 2,
                        codes,
                        rng,
                        choice_script,
                        moved,
                        opt_tile,
                        opt_arg,
                    )
            if not lost:
                continue
            if owner == seat:
                outcome[Outcome.KILLED_OWN] += 1
            else:
                outcome[Outcome.KILLED_OTHERS] += 1
            if rules[Rule.KRAKEN] != 0:
                face = _roll_nb(state, dice_script, rng)
                last = state[State.PLANK]
                if face < 3:
                    outcome[Outcome.KRAKEN_CALM] += 1
                elif face < 5:
                    outcome[Outcome.KRAKEN_WAVE] += 1
                    for t in range(last, 0, -1):
                        occupied = False
                        for q in range(n):
                            if pirates[q, t] > 0:
                                occupied = True
                        if occupied:
                            for q in range(n):
                                pirates[q, SHIP] += pirates[q, t]
                                pirates[q, t] = 0
                            break
                else:
                    outcome[Outcome.KRAKEN_KRAKEN] += 1
                    for q in range(n):
                        outcome[Outcome.KRAKEN_KILLED] += pirates[q, last]
                        living[q] -= pirates[q, last]
                        pirates[q, last] = 0

    # A player whose last pirate died is out at once; the first of them may become the ghost.
    eliminated = 0
    for k in range(n):
        s = (seat + k) % n
        if (had_pirates >> s) & 1 and living[s] == 0:
            eliminated |= 1 << s
            if rules[Rule.GHOST] != 0 and state[State.GHOST_SEAT] < 0:
                state[State.GHOST_SEAT] = s
                state[State.GHOST_TILE] = SHIP
                state[State.GHOST_ACTIVE] = 0
    outcome[Outcome.ELIMINATED_MASK] = eliminated


@njit(cache=True)
def start_position_nb(pirates, living, state, rules, n):
    """The opening position: every pirate on the ship, seat 0 the captain, round 1."""
    pirates[:, :] = 0
    for s in range(n):
        pirates[s, SHIP] = rules[Rule.PIRATES]
        living[s] = rules[Rule.PIRATES]
    state[:] = 0
    state[State.PLANK] = rules[Rule.PLANK_START]
    state[State.ROUND] = 1
    state[State.GHOST_SEAT] = -1


@njit(cache=True)
def play_games_nb(n, rules, codes, seed, first_game, games, cards, seats):
    """Play games ``first_game .. first_game + G - 1`` of the run seeded ``seed``.

    Parameters
    ----------
    n : number of players.
    rules : int64 ``(Rule.SIZE,)``, packed rule parameters.
    codes : int64 ``(n,)``, strategy code per seat.
    games : int32 ``(G, GameStat.SIZE)``, per-game record, written here.
    cards : int16 ``(G, n, 10, CardStat.SIZE)``, per seat and card, written here.
    seats : int8 ``(G, n, 2)``, per seat: won (0/1) and pirates left, written here.
    """
    pirates = np.zeros((n, TILES), dtype=np.int64)
    living = np.zeros(n, dtype=np.int64)
    state = np.zeros(State.SIZE, dtype=np.int64)
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    resting = np.zeros(n, dtype=np.int64)
    rested = np.zeros(n, dtype=np.int64)
    programs = np.zeros((n, 3), dtype=np.int64)
    outcome = np.zeros(Outcome.SIZE, dtype=np.int64)
    fallen = np.zeros(MAX_FALLEN, dtype=np.int64)
    moved = np.zeros((n, TILES), dtype=np.int64)
    opt_tile = np.zeros(MAX_OPTIONS, dtype=np.int64)
    opt_arg = np.zeros(MAX_OPTIONS, dtype=np.int64)
    no_script = np.zeros(0, dtype=np.int64)
    rest_mask = rules[Rule.REST_MASK]
    round_cap = rules[Rule.ROUND_CAP]

    for g in range(games.shape[0]):
        game = first_game + g
        for stream in range(n + 1):
            seed_stream_nb(rng[stream], seed, game, stream)
        start_position_nb(pirates, living, state, rules, n)
        resting[:] = 0
        games[g, :] = 0
        games[g, GameStat.GHOST_SEAT] = -1
        games[g, GameStat.DOLPHIN_FACE] = -1
        cards[g, :, :, :] = 0
        finished = False

        while True:
            for s in range(n):
                if in_game_nb(living, state, s):
                    available = ALL_CARDS & ~resting[s]
                    if s == state[State.GHOST_SEAT]:
                        available &= ~GHOST_SET_ASIDE_MASK
                    program_nb(codes[s], available, rng[1 + s], programs[s])
            rested[:] = 0
            for slot in range(3):
                for k in range(n):
                    s = (state[State.CAPTAIN] + k) % n
                    if not in_game_nb(living, state, s):
                        continue
                    card = programs[s, slot]
                    cards[g, s, card, CardStat.REVEALED] += 1
                    rested[s] |= rest_mask & (1 << card)
                    count = legal_options_nb(
                        pirates, living, state, rules, n, s, card, slot, opt_tile, opt_arg
                    )
                    if count == 0:
                        continue
                    cards[g, s, card, CardStat.EFFECT] += 1
                    pick = 0
                    if count > 1:
                        pick = choose_nb(codes[s], count, rng[1 + s])
                    resolve_card_nb(
                        pirates,
                        living,
                        state,
                        rules,
                        n,
                        s,
                        card,
                        opt_tile[pick],
                        opt_arg[pick],
                        codes,
                        rng,
                        no_script,
                        no_script,
                        outcome,
                        fallen,
                        moved,
                        opt_tile,
                        opt_arg,
                    )
                    cards[g, s, card, CardStat.KILLED_OWN] += outcome[Outcome.KILLED_OWN]
                    cards[g, s, card, CardStat.KILLED_OTHERS] += outcome[Outcome.KILLED_OTHERS]
                    cards[g, s, card, CardStat.SAVED] += outcome[Outcome.SAVED]
                    games[g, GameStat.KRAKEN_CALM] += outcome[Outcome.KRAKEN_CALM]
                    games[g, GameStat.KRAKEN_WAVE] += outcome[Outcome.KRAKEN_WAVE]
                    games[g, GameStat.KRAKEN_KRAKEN] += outcome[Outcome.KRAKEN_KRAKEN]
                    games[g, GameStat.KRAKEN_KILLED] += outcome[Outcome.KRAKEN_KILLED]
                    if outcome[Outcome.DOLPHIN_FACE] >= 0:
                        games[g, GameStat.DOLPHIN_FACE] = outcome[Outcome.DOLPHIN_FACE]

            # End of the round: rest cards, the ghost wakes, the Captain's Favor passes right.
            resting[:] = rested
            if state[State.GHOST_SEAT] >= 0:
                state[State.GHOST_ACTIVE] = 1
            captain = state[State.CAPTAIN]
            for k in range(1, n + 1):
                c = (captain - k) % n
                if in_game_nb(living, state, c):
                    state[State.CAPTAIN] = c
                    break

            total = 0
            players_left = 0
            for s in range(n):
                total += living[s]
                if living[s] > 0:
                    players_left += 1
            finished = total <= 2 or players_left <= 1
            if finished or state[State.ROUND] >= round_cap:
                break
            state[State.ROUND] += 1

        games[g, GameStat.ROUNDS] = state[State.ROUND]
        games[g, GameStat.FINISHED] = finished
        games[g, GameStat.GHOST_SEAT] = state[State.GHOST_SEAT]
        for s in range(n):
            seats[g, s, 0] = finished and living[s] > 0
            seats[g, s, 1] = living[s]
