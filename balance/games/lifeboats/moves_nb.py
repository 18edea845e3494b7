"""Lifeboats' moves in compiled code: the position, legal options, sinking, landing, winners.

Pure ``@njit`` functions over the small integer arrays of
:mod:`balance.games.lifeboats.layout`, shared by the game loop (:mod:`.engine_nb`) and by
strategies that look ahead. Nothing here asks a strategy anything. The rules are those
of :mod:`.reference`, which says them in readable Python (option order included).

Shapes used throughout (``n`` players, boats ``0..n``, boat ``n`` the black one):

* ``boats``  int64 ``(MAX_BOATS, Boat.SIZE)``; rows beyond ``n`` have ``STATE == UNUSED``.
  ``PAWNS`` and ``FREE`` are kept up to date with ``crew`` and ``LEAKS``:
  ``FREE == rules[Rule.SEATS] - PAWNS - LEAKS`` for every boat ``0..n``.
* ``crew``   int64 ``(MAX_BOATS, MAX_PLAYERS, 2)``: pawns of each seat aboard, by type
* ``seats``  int64 ``(MAX_PLAYERS, Seat.SIZE)``
* ``state``  int64 ``(State.SIZE,)``
* ``rules``  int64 ``(Rule.SIZE,)``: the packed :class:`LifeboatsRules` for ``n`` players
* ``options`` int64 ``(MAX_OPTIONS,)``: an option list is written here, its count returned
* ``stats``  a tuple ``(game_stat, seat_stat, boat_stat)`` of int64 tallies:
  ``(GameStat.SIZE,)``, ``(MAX_PLAYERS, SeatStat.SIZE)``, ``(MAX_BOATS, BoatStat.SIZE)``
"""

from balance.core.compile_cache import njit
from balance.games.lifeboats.layout import (
    AFLOAT,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    CLOCKWISE,
    HAT,
    LANDED,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MAX_BOATS,
    MAX_PLAYERS,
    MOVE_VOTE,
    NO_TIE,
    OFFICER,
    OVERBOARD_VOTE,
    OWN_BOAT_FIRST,
    PLACE,
    SAILOR,
    SHARED,
    SUNK,
    SWIM_IN,
    SWIM_OUT,
    UNFINISHED,
    UNUSED,
    Boat,
    BoatStat,
    GameStat,
    Rule,
    Seat,
    SeatStat,
    State,
)

# --- the position --------------------------------------------------------------------------


@njit(inline="always", cache=True)
def reset_nb(boats, crew, seats, state, rules, n):
    """The position before set-up: boats unplaced and empty, every pawn in reserve."""
    seat_count = rules[Rule.SEATS]
    for b in range(MAX_BOATS):
        boats[b, Boat.LANE] = -1
        boats[b, Boat.ISLAND] = -1
        boats[b, Boat.STEPS] = 0
        boats[b, Boat.LEAKS] = 0
        boats[b, Boat.PAWNS] = 0
        boats[b, Boat.LEFT] = 0
        boats[b, Boat.ORDER] = 0
        if b <= n:
            boats[b, Boat.STATE] = AFLOAT
            boats[b, Boat.FREE] = seat_count
        else:
            boats[b, Boat.STATE] = UNUSED
            boats[b, Boat.FREE] = 0
        for s in range(MAX_PLAYERS):
            crew[b, s, OFFICER] = 0
            crew[b, s, SAILOR] = 0
    for s in range(MAX_PLAYERS):
        seats[s, Seat.SCORE] = 0
        seats[s, Seat.SWIMMING] = -1
        if s < n:
            seats[s, Seat.HATS] = rules[Rule.HATS]
            seats[s, Seat.RESERVE_OFFICERS] = rules[Rule.OFFICERS]
            seats[s, Seat.RESERVE_SAILORS] = rules[Rule.SEAT_SAILORS + s]
        else:
            seats[s, Seat.HATS] = 0
            seats[s, Seat.RESERVE_OFFICERS] = 0
            seats[s, Seat.RESERVE_SAILORS] = 0
    state[State.PLAYERS] = n
    state[State.ROUND] = 1
    state[State.FIRST] = 0
    state[State.LEAKS_LEFT] = rules[Rule.LEAKS]
    state[State.BOAT] = -1
    state[State.SWIM_FROM] = -1
    state[State.LANDED] = 0
    state[State.FIRST_LANDED] = -1


@njit(inline="always", cache=True)
def add_pawn_nb(boats, crew, seat, boat, kind):
    """One pawn of ``seat`` of type ``kind`` into a free seat of ``boat``."""
    crew[boat, seat, kind] += 1
    boats[boat, Boat.PAWNS] += 1
    boats[boat, Boat.FREE] -= 1


@njit(inline="always", cache=True)
def remove_pawn_nb(boats, crew, seat, boat, kind):
    """One pawn of ``seat`` of type ``kind`` out of ``boat``."""
    crew[boat, seat, kind] -= 1
    boats[boat, Boat.PAWNS] -= 1
    boats[boat, Boat.FREE] += 1


@njit(inline="always", cache=True)
def empty_boat_nb(boats, crew, n, boat):
    """Every pawn leaves ``boat`` (it landed or sank); its leak markers stay."""
    for s in range(n):
        crew[boat, s, OFFICER] = 0
        crew[boat, s, SAILOR] = 0
    boats[boat, Boat.FREE] += boats[boat, Boat.PAWNS]
    boats[boat, Boat.PAWNS] = 0


@njit(inline="always", cache=True)
def afloat_count_nb(boats, n):
    """Boats still on the water."""
    count = 0
    for b in range(n + 1):
        if boats[b, Boat.STATE] == AFLOAT:
            count += 1
    return count


# --- option lists (D4): each writes ``options`` and returns the count ------------------


@njit(inline="always", cache=True)
def lane_options_nb(boats, rules, n, options):
    """Free lanes ascending."""
    taken = 0
    for b in range(n + 1):
        lane = boats[b, Boat.LANE]
        if lane >= 0:
            taken |= 1 << lane
    count = 0
    for lane in range(rules[Rule.LANES]):
        if not (taken >> lane) & 1:
            options[count] = lane
            count += 1
    return count


@njit(inline="always", cache=True)
def place_options_nb(boats, seats, n, seat, options):
    """``boat * 2 + type`` for every boat with a free seat and type in reserve."""
    # Branch-free: every candidate is written, and kept by counting it.
    officers = seats[seat, Seat.RESERVE_OFFICERS] > 0
    sailors = seats[seat, Seat.RESERVE_SAILORS] > 0
    count = 0
    for b in range(n + 1):
        free = boats[b, Boat.FREE] > 0
        options[count] = 2 * b
        count += free & officers
        options[count] = 2 * b + 1
        count += free & sailors
    return count


@njit(inline="always", cache=True)
def afloat_options_nb(boats, n, options):
    """Boats afloat ascending (what a leak or move vote can choose)."""
    count = 0
    for b in range(n + 1):
        options[count] = b
        count += boats[b, Boat.STATE] == AFLOAT
    return count


@njit(inline="always", cache=True)
def colour_options_nb(crew, n, boat, options):
    """Colours (seats) ascending with a pawn in ``boat`` (what an overboard vote can choose)."""
    count = 0
    for s in range(n):
        options[count] = s
        count += crew[boat, s, OFFICER] + crew[boat, s, SAILOR] > 0
    return count


@njit(inline="always", cache=True)
def vote_options_nb(boats, crew, seats, n, seat, kind, boat, options):
    """A voter's options: the eligible outcomes, then ``HAT`` if ``seat`` has a hat left
    (and is not barred from hats by restricted play)."""
    if kind == OVERBOARD_VOTE:
        count = colour_options_nb(crew, n, boat, options)
    else:
        count = afloat_options_nb(boats, n, options)
    options[count] = HAT
    return count + ((seats[seat, Seat.HATS] > 0) & (seats[seat, Seat.HATLESS] == 0))


@njit(inline="always", cache=True)
def eligible_options_nb(boats, crew, n, kind, boat, options):
    """Every eligible outcome of a vote of ``kind`` (what a lone hat chooses among)."""
    if kind == OVERBOARD_VOTE:
        return colour_options_nb(crew, n, boat, options)
    return afloat_options_nb(boats, n, options)


@njit(inline="always", cache=True)
def lose_options_nb(crew, seat, boat, options):
    """Officer then sailor, whichever ``seat`` has in ``boat``."""
    count = 0
    if crew[boat, seat, OFFICER] > 0:
        options[count] = OFFICER
        count += 1
    if crew[boat, seat, SAILOR] > 0:
        options[count] = SAILOR
        count += 1
    return count


@njit(inline="always", cache=True)
def swim_out_options_nb(boats, crew, n, seat, stay, options):
    """``boat * 2 + type`` for every boat afloat not yet left this phase with such a pawn.

    With ``stay`` (the ``stay_without_seat`` rule), a boat is left out when no other boat
    afloat has a free seat: its pawns need not swim to no seat.
    """
    room = 0
    for b in range(n + 1):
        room += (boats[b, Boat.STATE] == AFLOAT) & (boats[b, Boat.FREE] > 0)
    count = 0
    for b in range(n + 1):
        afloat = boats[b, Boat.STATE] == AFLOAT
        elsewhere = room - (afloat & (boats[b, Boat.FREE] > 0)) > 0
        open_ = afloat & (boats[b, Boat.LEFT] == 0) & ((stay == 0) | elsewhere)
        options[count] = 2 * b
        count += open_ & (crew[b, seat, OFFICER] > 0)
        options[count] = 2 * b + 1
        count += open_ & (crew[b, seat, SAILOR] > 0)
    return count


@njit(inline="always", cache=True)
def swim_in_options_nb(boats, n, swim_from, options):
    """Boats afloat ascending with a free seat, other than ``swim_from``."""
    count = 0
    for b in range(n + 1):
        options[count] = b
        count += (b != swim_from) & (boats[b, Boat.STATE] == AFLOAT) & (boats[b, Boat.FREE] > 0)
    return count


@njit(cache=True, _nrt=False, error_model="numpy")
def legal_options_nb(obs, seat, kind, boat, swim_from, tied, ntied, options):
    """The option list of any decision ``kind`` (as :func:`reference.legal_options`).

    ``tied`` (int64, first ``ntied`` entries, ascending) are the tied outcomes F chooses
    among; with ``ntied == 0`` a CHOOSE_* kind lists every eligible outcome.
    """
    boats, crew, seats, state, rules = obs[0], obs[1], obs[2], obs[3], obs[4]
    n = state[State.PLAYERS]
    if kind == LANE:
        return lane_options_nb(boats, rules, n, options)
    if kind == PLACE:
        return place_options_nb(boats, seats, n, seat, options)
    if kind == LEAK_VOTE or kind == MOVE_VOTE or kind == OVERBOARD_VOTE:
        return vote_options_nb(boats, crew, seats, n, seat, kind, boat, options)
    if kind == CHOOSE_LEAK or kind == CHOOSE_MOVE or kind == CHOOSE_OVERBOARD:
        if ntied > 0:
            for k in range(ntied):
                options[k] = tied[k]
            return ntied
        return eligible_options_nb(boats, crew, n, kind - 3, boat, options)
    if kind == LOSE_PAWN:
        return lose_options_nb(crew, seat, boat, options)
    if kind == SWIM_OUT:
        return swim_out_options_nb(boats, crew, n, seat, rules[Rule.STAY_WITHOUT_SEAT], options)
    if kind == SWIM_IN:
        return swim_in_options_nb(boats, n, swim_from, options)
    return 0


# --- leaving the water ------------------------------------------------------------------


@njit(inline="always", cache=True)
def sink_boats_nb(boats, crew, state, stats):
    """Sink every boat afloat with more leaks than pawns, in boat order (D9).

    Returns a bit mask of the boats that sank.
    """
    game_stat, seat_stat, boat_stat = stats
    n = state[State.PLAYERS]
    sunk = 0
    for b in range(n + 1):
        if boats[b, Boat.STATE] == AFLOAT and boats[b, Boat.LEAKS] > boats[b, Boat.PAWNS]:
            boats[b, Boat.STATE] = SUNK
            boat_stat[b, BoatStat.ROUND] = state[State.ROUND]
            boat_stat[b, BoatStat.ABOARD] = boats[b, Boat.PAWNS]
            game_stat[GameStat.BOATS_SUNK] += 1
            for s in range(n):
                seat_stat[s, SeatStat.SUNK] += crew[b, s, OFFICER] + crew[b, s, SAILOR]
            empty_boat_nb(boats, crew, n, b)
            sunk |= 1 << b
    return sunk


@njit(inline="always", cache=True)
def land_nb(boats, crew, seats, state, rules, stats, boat):
    """``boat`` reaches its island: every pawn aboard scores for its owner (D10)."""
    seat_stat, boat_stat = stats[1], stats[2]
    n = state[State.PLAYERS]
    island = boats[boat, Boat.ISLAND]
    officer_points = rules[Rule.OFFICER_POINTS + island]
    sailor_points = rules[Rule.SAILOR_POINTS + island]
    for s in range(n):
        officers = crew[boat, s, OFFICER]
        sailors = crew[boat, s, SAILOR]
        seats[s, Seat.SCORE] += officers * officer_points + sailors * sailor_points
        seat_stat[s, SeatStat.SAVED_OFFICERS] += officers
        seat_stat[s, SeatStat.SAVED_SAILORS] += sailors
    state[State.LANDED] += 1
    boat_stat[boat, BoatStat.ORDER] = state[State.LANDED]
    boats[boat, Boat.ORDER] = state[State.LANDED]
    boat_stat[boat, BoatStat.ROUND] = state[State.ROUND]
    boat_stat[boat, BoatStat.ABOARD] = boats[boat, Boat.PAWNS]
    boats[boat, Boat.STATE] = LANDED
    if state[State.FIRST_LANDED] < 0:
        state[State.FIRST_LANDED] = boat
    empty_boat_nb(boats, crew, n, boat)


# --- the end -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False, error_model="numpy")
def winners_nb(boats, seats, state, boat_stat, finished, won):
    """Mark the winners in ``won`` (int64 ``(MAX_PLAYERS,)``, 0/1) by D13.

    Returns ``(winners, tie_rule)``.
    """
    n = state[State.PLAYERS]
    for s in range(MAX_PLAYERS):
        won[s] = 0
    if not finished:
        return 0, UNFINISHED
    best = seats[0, Seat.SCORE]
    for s in range(1, n):
        if seats[s, Seat.SCORE] > best:
            best = seats[s, Seat.SCORE]
    tied = 0
    for s in range(n):
        if seats[s, Seat.SCORE] == best:
            tied += 1
    if tied == 1:
        for s in range(n):
            if seats[s, Seat.SCORE] == best:
                won[s] = 1
        return 1, NO_TIE
    # Among the tied, the one whose own boat landed first.
    pick = -1
    for s in range(n):
        if (
            seats[s, Seat.SCORE] == best
            and boats[s, Boat.STATE] == LANDED
            and (pick < 0 or boat_stat[s, BoatStat.ORDER] < boat_stat[pick, BoatStat.ORDER])
        ):
            pick = s
    if pick >= 0:
        won[pick] = 1
        return 1, OWN_BOAT_FIRST
    # Clockwise from the owner of the first player's boat to land.
    owner = -1
    for b in range(n):
        if boats[b, Boat.STATE] == LANDED and (
            owner < 0 or boat_stat[b, BoatStat.ORDER] < boat_stat[owner, BoatStat.ORDER]
        ):
            owner = b
    if owner >= 0:
        for k in range(1, n):
            s = (owner + k) % n
            if seats[s, Seat.SCORE] == best:
                won[s] = 1
                return 1, CLOCKWISE
    for s in range(n):
        if seats[s, Seat.SCORE] == best:
            won[s] = 1
    return tied, SHARED
