"""Lifeboats' compiled game loop: set-up, votes, phases, strategies, records.

The rules are those of :mod:`.reference`, which says them in readable Python; this
module says them again for speed and must agree with it game for game (the test suite
checks it). Position moves and option lists live in :mod:`.moves_nb`; everything that
asks a strategy lives here, so that a run's own strategies can be bound in
(:class:`balance.core.dispatch.Dispatch` compiles the functions that ask with the
dispatchers of the shipped strategies and a run's own bound in). Nothing here
allocates inside the game loop: every buffer is made once per block of games.

The tuples passed around (``n`` players):

* ``obs``: ``(boats, crew, seats, state, rules, scratch_i, scratch_f)``, what a strategy
  sees (:mod:`balance.games.lifeboats.layout`)
* ``held``: ``obs`` as the phases hand it to the strategies: its address, held once a
  game by :func:`play_game_nb` (a call would pass its arrays word by word) or once a
  call by the search (:mod:`.search_nb`), or ``obs`` itself (a phase called from
  Python), which the dispatcher then holds for each call
* ``players``: ``(codes, params, rng)``: int64 ``(MAX_PLAYERS,)`` strategy code of each
  seat, float64 ``(MAX_PLAYERS, P)`` its parameters, uint64 ``(MAX_PLAYERS + 1, 4)`` the
  random streams (stream ``1 + s`` is seat ``s``'s; stream 0 is unused)
* ``work``: int64 buffers ``(options (MAX_OPTIONS,), ballot, tally, voters, weights,
  swam_from, won)``, the last six ``(WORK_SIZE,)``
* ``stats``: int64 tallies ``(game_stat (GameStat.SIZE,), seat_stat (MAX_PLAYERS,
  SeatStat.SIZE), boat_stat (MAX_BOATS, BoatStat.SIZE))``
* ``error``: int64 ``(Error.SIZE,)``; ``SEAT`` is -1 while all is well. A strategy that
  answers outside its options fills it, and every phase returns at once.
"""

import numpy as np

from balance.core import dispatch
from balance.core.compile_cache import njit
from balance.core.llvm_nb import hold_when_nb
from balance.core.random_nb import seed_stream_nb
from balance.core.records import error_slots
from balance.core.strategy import MAX_PARAMS
from balance.games.lifeboats.kit import new_ballot_nb
from balance.games.lifeboats.layout import (
    AFLOAT,
    HAT,
    HAT_ROUNDS,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MOVE_VOTE,
    OVERBOARD_VOTE,
    PLACE,
    SCRATCH,
    SWIM_IN,
    SWIM_OUT,
    Boat,
    BoatStat,
    GameStat,
    Rule,
    Seat,
    SeatStat,
    State,
)
from balance.games.lifeboats.moves_nb import (
    add_pawn_nb,
    eligible_options_nb,
    land_nb,
    lane_options_nb,
    lose_options_nb,
    place_options_nb,
    remove_pawn_nb,
    reset_nb,
    sink_boats_nb,
    swim_in_options_nb,
    swim_out_options_nb,
    vote_options_nb,
    winners_nb,
)

Error = error_slots(__name__, "KIND")  # KIND: the kind of decision asked

#: Strategy code that answers from a script of option codes in its parameters (tests):
#: ``params[0]`` answers used, ``params[1]`` script length L, ``params[2 : 2 + L]`` the
#: codes, ``params[2 + L + k]`` receives the kind of the k-th question.
SCRIPTED = -1
#: A scripted answer that is not among the options, or a script that ran out.
SCRIPT_MISSING = -1
SCRIPT_EXHAUSTED = -2
#: A code of the search's playouts (:mod:`.search_nb`) for a seat whose turn ends them:
#: it answers -1, an illegal answer, and the game loop stops at that seat's decision.
HALT = -2
#: Work buffers after ``options``: ballot, tally, voters, weights, swam_from, won, each
#: ``(WORK_SIZE,)`` (a tally has a slot for every boat and one for the hats).
N_WORK = 6
WORK_SIZE = MAX_BOATS + 1

#: The decision a seat's strategy makes, called by the seat's code: the dispatchers of the
#: shipped strategies (strategies/lifeboats.py) and a run's own are bound here when the
#: loop is built (balance.core.dispatch.Dispatch). Index of the chosen option among
#: ``count >= 2``.
decide_nb = dispatch.Decision(
    "decide",
    "obs, seat, kind, options, count, params, rng",
    # its scratch buffers (the kit's landing-chance cache among them) and its stream
    writable="obs[5], obs[6], rng",
    # by address: its seven arrays are some 60 words, which a call passes one by one
    held="obs",
)


@njit(inline="always", cache=True)
def sees_obs_nb(codes, n):
    """Whether the strategy of any of the ``n`` seats of ``codes`` reads ``obs``: all but
    the uniform-random player (code 0), a scenario's script and :data:`HALT`."""
    seen = False
    for s in range(n):
        seen |= codes[s] > 0
    return seen


# Out of line: only scripted test players take this path, and a copy of it at every
# decision of the inlined game loop only costs compile time. Without reference counting:
# a script does not read ``obs``, and the game loop then holds no copy of it (it passes
# the address of a copy never made).
@njit(cache=True, _nrt=False, error_model="numpy")
def scripted_decide(obs, seat, kind, options, count, params, rng):
    """The index of the next scripted option code among ``options``."""
    used = np.int64(params[0])
    length = np.int64(params[1])
    if used >= length:
        return np.int64(SCRIPT_EXHAUSTED)
    params[0] = used + 1
    params[2 + length + used] = kind
    code = np.int64(params[2 + used])
    for k in range(count):
        if options[k] == code:
            return np.int64(k)
    return np.int64(SCRIPT_MISSING)


@njit(inline="always", cache=True)
def halted_decide(obs, seat, kind, options, count, params, rng):
    """The :data:`HALT` code's answer: -1, outside every seat's options."""
    return np.int64(-1)


@njit(inline="always", cache=True)
def ask_nb(held, seat, kind, options, count, players, error):
    """The option code ``seat`` chooses; a single option is taken without asking (D3).

    ``held`` is ``obs`` as the strategy is given it: by address (held once a game by
    :func:`play_game_nb`, once a call by the search), or ``obs`` itself, which the
    dispatcher then holds for the call. An answer outside ``0..count-1`` fills ``error``
    (the caller must then return).
    """
    if count == 1:
        return options[0]
    codes, params, rng = players
    # Plain int64 arguments: with the literal constants of each call site numba would
    # compile every strategy once per decision kind (minutes of compiling, no speed).
    k = decide_nb(
        codes[seat],
        held,
        np.int64(seat),
        np.int64(kind),
        options,
        np.int64(count),
        params[seat],
        rng[seat + 1],
    )
    if k < 0 or k >= count:
        error[Error.SEAT] = seat
        error[Error.KIND] = kind
        error[Error.VALUE] = k
        error[Error.COUNT] = count
        return options[0]
    return options[k]


#: What :func:`count_ballot_nb` returns when every voter played a hat: vote again.
REVOTE = -2


@njit(inline="always", cache=True)
def collect_ballot_nb(obs, held, kind, nvoters, boat, start, players, work, error):
    """Ask voters ``work[3][start:nvoters]`` their vote of ``kind`` into ``work[1]`` (D5).

    Every voter is asked before anything of the ballot is revealed or spent.
    """
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    options, ballot, voters = work[0], work[1], work[3]
    n = state[State.PLAYERS]
    new_ballot_nb(obs)  # the voters share the kit's estimates of this one position
    for i in range(start, nvoters):
        s = voters[i]
        count = vote_options_nb(boats, crew, seats, n, s, kind, boat, options)
        ballot[i] = ask_nb(held, s, kind, options, count, players, error)
        if error[Error.SEAT] >= 0:
            return


@njit(inline="always", cache=True)
def count_ballot_nb(obs, held, kind, nvoters, boat, players, work, stats, error):
    """Resolve the collected ballot ``work[1][:nvoters]`` of ``kind`` (D6).

    Returns the outcome (a boat or a colour), or :data:`REVOTE` when every voter
    played a hat and the same voters vote again.
    """
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    options, ballot, tally, voters, weights = work[0], work[1], work[2], work[3], work[4]
    game_stat, seat_stat = stats[0], stats[1]
    n = state[State.PLAYERS]
    choose = kind + 3  # CHOOSE_LEAK, CHOOSE_MOVE, CHOOSE_OVERBOARD
    # Spend the hats played (branch-free: votes are random, branches mispredict).
    hats = 0
    hatter = -1
    by_round = GameStat.HATS_ROUND + min(state[State.ROUND], HAT_ROUNDS) - 1
    for i in range(nvoters):
        s = voters[i]
        hat = ballot[i] == HAT
        seats[s, Seat.HATS] -= hat
        seat_stat[s, SeatStat.HATS_USED] += hat
        hats += hat
        game_stat[by_round] += hat
        hatter = s if hat else hatter
    if hats == 1:
        game_stat[GameStat.HAT_DECIDED] += 1
        seat_stat[hatter, SeatStat.HATS_DECISIVE] += 1
        count = eligible_options_nb(boats, crew, n, kind, boat, options)
        return ask_nb(held, hatter, choose, options, count, players, error)
    if hats == nvoters:
        game_stat[GameStat.REVOTES] += 1
        return REVOTE
    # Tally the other votes: option v in tally[v + 1] (hats in tally[0], ignored).
    # (Only the slots voted for are cleared: a loop clearing them all becomes a memset
    # call, which costs more than the whole tally.)
    for i in range(nvoters):
        tally[ballot[i] + 1] = 0
    voted = 0
    for i in range(nvoters):
        v = ballot[i] + 1
        tally[v] += weights[i]
        voted |= 1 << v
    top = -1
    for c in range(1, n + 2):
        score = tally[c] if (voted >> c) & 1 else -1
        top = max(top, score)
    count = 0
    for c in range(1, n + 2):
        options[count] = c - 1
        count += ((voted >> c) & 1) & (tally[c] == top)
    if count == 1:
        return options[0]
    game_stat[GameStat.TIES_BROKEN] += 1
    return ask_nb(held, state[State.FIRST], choose, options, count, players, error)


@njit(inline="always", cache=True)
def resolve_vote_nb(obs, held, kind, nvoters, boat, players, work, stats, error):
    """Resolve a vote (D6) of ``kind`` among ``work[3][:nvoters]`` weighing ``work[4]``.

    ``boat`` is the boat of an overboard vote. Returns the outcome (a boat or a colour).
    """
    # Its numbers as int64: numba would compile the ballot again for every pattern of
    # constants the callers pass (the three votes' kinds, boat -1), four times in all.
    return _resolve_vote_nb(
        obs, held, np.int64(kind), np.int64(nvoters), np.int64(boat), players, work, stats, error
    )


# Out of line: the three votes share one compiled ballot (collect, count, break ties);
# inlined at each of them, the game loop took 2.5 times as long to compile (and 2 GB of
# memory) for about 15% more uniform-random games a second. Without numba's reference
# counting, as the game loop: ``held`` may be an address whose copy was never made
# (:func:`play_game_nb`), read back unused for a seat that does not see ``obs``.
@njit(cache=True, _nrt=False, error_model="numpy")
def _resolve_vote_nb(obs, held, kind, nvoters, boat, players, work, stats, error):
    """:func:`resolve_vote_nb`, compiled once."""
    game_stat = stats[0]
    while True:
        game_stat[GameStat.VOTES] += 1
        collect_ballot_nb(obs, held, kind, nvoters, boat, 0, players, work, error)
        if error[Error.SEAT] >= 0:
            return -1
        outcome = count_ballot_nb(obs, held, kind, nvoters, boat, players, work, stats, error)
        if outcome != REVOTE:
            return outcome


@njit(inline="always", cache=True)
def set_up_nb(obs, held, players, work, stats, error):
    """Boats on lanes, then pawns into boats (D15). No sinking is checked."""
    place_boats_nb(obs, held, 0, players, work, error)
    if error[Error.SEAT] >= 0:
        return
    place_pawns_nb(obs, held, 0, players, work, stats, error)


@njit(inline="always", cache=True)
def place_boats_nb(obs, held, first_boat, players, work, error):
    """Boats ``first_boat..n`` onto lanes, each by its owner (seat 0 the black boat)."""
    boats, state, rules = obs[0], obs[3], obs[4]
    options = work[0]
    n = state[State.PLAYERS]
    for boat in range(first_boat, n + 1):
        seat = boat if boat < n else 0  # seat 0 places the black boat last
        count = lane_options_nb(boats, rules, n, options)
        lane = ask_nb(held, seat, LANE, options, count, players, error)
        if error[Error.SEAT] >= 0:
            return
        boats[boat, Boat.LANE] = lane
        boats[boat, Boat.ISLAND] = rules[Rule.LANE_ISLAND + lane]


@njit(inline="always", cache=True)
def place_pawn_nb(obs, seat, code, stats):
    """Seat ``seat`` places a pawn: ``code`` is ``boat * 2 + type``."""
    boats, crew, seats = obs[0], obs[1], obs[2]
    boat = code >> 1
    kind = code & 1
    seats[seat, Seat.RESERVE_OFFICERS + kind] -= 1
    add_pawn_nb(boats, crew, seat, boat, kind)
    stats[1][seat, SeatStat.PLACED_OFFICERS + kind] += 1


@njit(inline="always", cache=True)
def place_pawns_nb(obs, held, first_seat, players, work, stats, error):
    """Pawns into boats, round and round from ``first_seat``, until none is in reserve."""
    boats, seats, state = obs[0], obs[2], obs[3]
    options = work[0]
    n = state[State.PLAYERS]
    left = 0
    for s in range(n):
        left += seats[s, Seat.RESERVE_OFFICERS] + seats[s, Seat.RESERVE_SAILORS]
    seat = first_seat
    while left > 0:
        if seats[seat, Seat.RESERVE_OFFICERS] + seats[seat, Seat.RESERVE_SAILORS] > 0:
            count = place_options_nb(boats, seats, n, seat, options)
            code = ask_nb(held, seat, PLACE, options, count, players, error)
            if error[Error.SEAT] >= 0:
                return
            place_pawn_nb(obs, seat, code, stats)
            left -= 1
        seat += 1
        if seat == n:
            seat = 0


@njit(inline="always", cache=True)
def leak_phase_nb(obs, held, players, work, stats, error):
    """The leak vote, anyone overboard, the leak, then sinking (D6-D9)."""
    boats, crew, state = obs[0], obs[1], obs[3]
    voters, weights = work[3], work[4]
    if state[State.LEAKS_LEFT] == 0:
        sink_boats_nb(boats, crew, state, stats)
        return
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    for i in range(n):
        s = first + i
        voters[i] = s if s < n else s - n
        weights[i] = 1
    target = resolve_vote_nb(obs, held, LEAK_VOTE, n, -1, players, work, stats, error)
    if error[Error.SEAT] >= 0:
        return
    leak_into_nb(obs, held, target, players, work, stats, error)


@njit(inline="always", cache=True)
def overboard_voters_nb(obs, target, work):
    """The owners of the pawns in ``target`` from F clockwise into ``work[3]``, each
    weighing 2 an officer and 1 a sailor there into ``work[4]``; returns how many."""
    crew, state = obs[1], obs[3]
    voters, weights = work[3], work[4]
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    count = 0
    for i in range(n):
        s = first + i
        if s >= n:
            s -= n
        weight = 2 * crew[target, s, 0] + crew[target, s, 1]
        if weight > 0:
            voters[count] = s
            weights[count] = weight
            count += 1
    return count


@njit(inline="always", cache=True)
def leak_into_nb(obs, held, target, players, work, stats, error):
    """The leak vote chose ``target``: anyone overboard, the leak, then sinking (D8-D9)."""
    boats, state = obs[0], obs[3]
    if boats[target, Boat.FREE] == 0:
        count = overboard_voters_nb(obs, target, work)
        state[State.BOAT] = target
        colour = resolve_vote_nb(
            obs, held, OVERBOARD_VOTE, count, target, players, work, stats, error
        )
        if error[Error.SEAT] >= 0:
            return
        overboard_nb(obs, held, colour, target, players, work, stats, error)
        return
    leak_nb(obs, target, stats)


@njit(inline="always", cache=True)
def overboard_nb(obs, held, colour, target, players, work, stats, error):
    """``colour`` loses a pawn of its choice from the full ``target``; then the leak."""
    crew = obs[1]
    options = work[0]
    count = lose_options_nb(crew, colour, target, options)
    kind = ask_nb(held, colour, LOSE_PAWN, options, count, players, error)
    if error[Error.SEAT] >= 0:
        return
    lose_pawn_nb(obs, colour, target, kind, stats)


@njit(inline="always", cache=True)
def lose_pawn_nb(obs, colour, target, kind, stats):
    """``colour``'s pawn of type ``kind`` goes overboard from ``target``; then the leak."""
    boats, crew, state = obs[0], obs[1], obs[3]
    state[State.BOAT] = -1
    remove_pawn_nb(boats, crew, colour, target, kind)
    stats[1][colour, SeatStat.OVERBOARD] += 1
    leak_nb(obs, target, stats)


@njit(inline="always", cache=True)
def leak_nb(obs, target, stats):
    """A leak marker onto a free seat of ``target``, then sinking."""
    boats, crew, state = obs[0], obs[1], obs[3]
    boats[target, Boat.LEAKS] += 1
    boats[target, Boat.FREE] -= 1
    state[State.LEAKS_LEFT] -= 1
    sink_boats_nb(boats, crew, state, stats)


@njit(inline="always", cache=True)
def move_phase_nb(obs, held, players, work, stats, error):
    """The move vote, the move (and landing), then sinking (D10)."""
    state = obs[3]
    voters, weights = work[3], work[4]
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    for i in range(n):
        s = first + i
        voters[i] = s if s < n else s - n
        weights[i] = 1
    target = resolve_vote_nb(obs, held, MOVE_VOTE, n, -1, players, work, stats, error)
    if error[Error.SEAT] >= 0:
        return
    move_nb(obs, target, stats)


@njit(inline="always", cache=True)
def move_nb(obs, target, stats):
    """``target`` moves one step (and lands at the end of its track); then sinking."""
    boats, crew, seats, state, rules = obs[0], obs[1], obs[2], obs[3], obs[4]
    boats[target, Boat.STEPS] += 1
    if boats[target, Boat.STEPS] >= rules[Rule.TRACK]:
        land_nb(boats, crew, seats, state, rules, stats, target)
    sink_boats_nb(boats, crew, state, stats)


@njit(inline="always", cache=True)
def swim_phase_nb(obs, held, players, work, stats, error):
    """Swimmers out from F clockwise, in from F-1 counter-clockwise, then sinking (D11)."""
    boats, seats, state = obs[0], obs[2], obs[3]
    n = state[State.PLAYERS]
    for b in range(n + 1):
        boats[b, Boat.LEFT] = 0
    for s in range(n):
        seats[s, Seat.SWIMMING] = -1
    swim_out_nb(obs, held, 0, players, work, stats, error)
    if error[Error.SEAT] >= 0:
        return
    swim_in_nb(obs, held, 1, players, work, stats, error)


@njit(inline="always", cache=True)
def swim_out_nb(obs, held, start, players, work, stats, error):
    """The ``start``-th player after F and those after it clockwise swim out."""
    boats, crew, state, rules = obs[0], obs[1], obs[3], obs[4]
    options = work[0]
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    stay = rules[Rule.STAY_WITHOUT_SEAT]
    for i in range(start, n):
        s = first + i
        if s >= n:
            s -= n
        count = swim_out_options_nb(boats, crew, n, s, stay, options)
        if count == 0:
            continue
        code = ask_nb(held, s, SWIM_OUT, options, count, players, error)
        if error[Error.SEAT] >= 0:
            return
        leave_boat_nb(obs, s, code, work)


@njit(inline="always", cache=True)
def leave_boat_nb(obs, seat, code, work):
    """``seat`` swims out: ``code`` is ``boat * 2 + type``. The boat records who left it."""
    boats, crew, seats = obs[0], obs[1], obs[2]
    boat = code >> 1
    kind = code & 1
    remove_pawn_nb(boats, crew, seat, boat, kind)
    boats[boat, Boat.LEFT] = 1 + seat
    seats[seat, Seat.SWIMMING] = kind
    work[5][seat] = boat


@njit(inline="always", cache=True)
def swim_in_nb(obs, held, start, players, work, stats, error):
    """Swimmers in, the ``start``-th player before F and those before it (F-start,
    F-start-1, ..., F); then the boats are open again and sinking is checked."""
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    options, swam_from = work[0], work[5]
    seat_stat = stats[1]
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    for k in range(start, n + 1):
        s = first - k
        if s < 0:
            s += n
        if seats[s, Seat.SWIMMING] < 0:
            continue
        state[State.SWIM_FROM] = swam_from[s]
        count = swim_in_options_nb(boats, n, swam_from[s], options)
        if count == 0:
            seat_stat[s, SeatStat.NO_SEAT] += 1
            state[State.SWIM_FROM] = -1
            seats[s, Seat.SWIMMING] = -1
        else:
            boat = ask_nb(held, s, SWIM_IN, options, count, players, error)
            if error[Error.SEAT] >= 0:
                return
            climb_in_nb(obs, s, boat)
    for b in range(n + 1):
        boats[b, Boat.LEFT] = 0
    sink_boats_nb(boats, crew, state, stats)


@njit(inline="always", cache=True)
def climb_in_nb(obs, seat, boat):
    """``seat``'s swimmer climbs into ``boat``."""
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    add_pawn_nb(boats, crew, seat, boat, seats[seat, Seat.SWIMMING])
    state[State.SWIM_FROM] = -1
    seats[seat, Seat.SWIMMING] = -1


@njit(cache=True, _nrt=False, error_model="numpy")
def play_game_nb(obs, players, work, stats, error):
    """One whole game from the reset position; returns whether it finished (D12)."""
    # ``obs`` by address, held once a game: passed word by word, its arrays cost the
    # heuristics' every decision. Only for a seat that reads it: random play copies
    # nothing. The dispatcher reads it back for random, scripted and halted seats too,
    # unused: harmless here, in the ballot (:func:`_resolve_vote_nb`) and in
    # :func:`scripted_decide`, where no references are counted (_nrt=False).
    held = hold_when_nb(obs, sees_obs_nb(players[0], obs[3][State.PLAYERS]))
    set_up_nb(obs, held, players, work, stats, error)
    if error[Error.SEAT] >= 0:
        return False
    return play_rounds_nb(obs, held, LEAK_PHASE, players, work, stats, error)


#: The phases of a round, as :func:`play_rounds_nb` and :func:`after_phase_nb` count them.
LEAK_PHASE = 0
MOVE_PHASE = 1
SWIM_PHASE = 2


@njit(inline="always", cache=True)
def over_nb(obs, stats):
    """Whether every boat has landed or sunk."""
    state = obs[3]
    return state[State.LANDED] + stats[0][GameStat.BOATS_SUNK] == state[State.PLAYERS] + 1


@njit(inline="always", cache=True)
def play_rounds_nb(obs, held, phase, players, work, stats, error):
    """Play on from the start of ``phase`` of the current round to the end of the game;
    returns whether it finished (D12)."""
    state, rules = obs[3], obs[4]
    n = state[State.PLAYERS]
    round_cap = rules[Rule.ROUND_CAP]
    while True:
        if phase == LEAK_PHASE:
            state[State.FIRST] = (state[State.ROUND] - 1) % n
            leak_phase_nb(obs, held, players, work, stats, error)
            if error[Error.SEAT] >= 0:
                return False
            if over_nb(obs, stats):
                return True
        if phase <= MOVE_PHASE:
            move_phase_nb(obs, held, players, work, stats, error)
            if error[Error.SEAT] >= 0:
                return False
            if over_nb(obs, stats):
                return True
        swim_phase_nb(obs, held, players, work, stats, error)
        if error[Error.SEAT] >= 0:
            return False
        if over_nb(obs, stats):
            return True
        if state[State.ROUND] >= round_cap:
            return False
        state[State.ROUND] += 1
        phase = LEAK_PHASE


@njit(cache=True, _nrt=False, error_model="numpy")
def play_one_nb(obs, players, work, stats, error, records):
    """One game from the position in ``obs`` (reset), recorded as game 0 of ``records``."""
    finished = play_game_nb(obs, players, work, stats, error)
    if error[Error.SEAT] < 0:
        write_records_nb(0, obs, stats, finished, work[6], records)


@njit(inline="always", cache=True)
def write_records_nb(g, obs, stats, finished, won, records):
    """Game ``g``'s row of the record arrays from the final position and tallies."""
    boats, seats, state = obs[0], obs[2], obs[3]
    game_stat, seat_stat, boat_stat = stats
    games, seat_records, boat_records = records
    n = state[State.PLAYERS]
    winners, tie_rule = winners_nb(boats, seats, state, boat_stat, finished, won)
    games[g, GameStat.ROUNDS] = state[State.ROUND]
    games[g, GameStat.FINISHED] = finished
    games[g, GameStat.WINNERS] = winners
    games[g, GameStat.FIRST_LANDED] = state[State.FIRST_LANDED]
    games[g, GameStat.BOATS_LANDED] = state[State.LANDED]
    games[g, GameStat.BOATS_SUNK] = game_stat[GameStat.BOATS_SUNK]
    games[g, GameStat.HAT_DECIDED] = game_stat[GameStat.HAT_DECIDED]
    games[g, GameStat.REVOTES] = game_stat[GameStat.REVOTES]
    games[g, GameStat.TIES_BROKEN] = game_stat[GameStat.TIES_BROKEN]
    games[g, GameStat.VOTES] = game_stat[GameStat.VOTES]
    games[g, GameStat.TIE_RULE] = tie_rule
    for r in range(HAT_ROUNDS):
        games[g, GameStat.HATS_ROUND + r] = game_stat[GameStat.HATS_ROUND + r]
    for s in range(n):
        for k in range(SeatStat.SIZE):
            seat_records[g, s, k] = seat_stat[s, k]
        seat_records[g, s, SeatStat.WON] = won[s]
        seat_records[g, s, SeatStat.SCORE] = seats[s, Seat.SCORE]
    for b in range(n + 1):
        boat_records[g, b, BoatStat.LANE] = boats[b, Boat.LANE]
        boat_records[g, b, BoatStat.FATE] = boats[b, Boat.STATE]
        boat_records[g, b, BoatStat.ROUND] = boat_stat[b, BoatStat.ROUND]
        if boats[b, Boat.STATE] == AFLOAT:
            boat_records[g, b, BoatStat.ABOARD] = boats[b, Boat.PAWNS]
        else:
            boat_records[g, b, BoatStat.ABOARD] = boat_stat[b, BoatStat.ABOARD]
        boat_records[g, b, BoatStat.ORDER] = boat_stat[b, BoatStat.ORDER]
        boat_records[g, b, BoatStat.LEAKS] = boats[b, Boat.LEAKS]


@njit(cache=True, nogil=True)
def play_games_nb(n, rules, codes, params, seats_of, seed, first_game, games, seats, boats, error):
    """Play games ``first_game .. first_game + G - 1`` of the run seeded ``seed``.

    Parameters
    ----------
    n : number of players.
    rules : int64 ``(Rule.SIZE,)``, packed rule parameters for ``n`` players.
    codes : int64 ``(K,)``, strategy code of each of the run's K strategies.
    params : float64 ``(K, MAX_PARAMS)``, their parameters.
    seats_of : int64 ``(R, 2n)``: in game ``i``, row ``i % R`` holds which strategy sits in
        each seat, then 1 for each seat that may never play a hat (restricted play).
    games : int32 ``(G, GameStat.SIZE)``, per-game record, written here.
    seats : int32 ``(G, n, SeatStat.SIZE)``, per seat, written here.
    boats : int32 ``(G, n + 1, BoatStat.SIZE)``, per boat, written here.
    error : int64 ``(Error.SIZE,)``: ``SEAT`` stays -1 unless a strategy answered outside
        its options; then it names the game, seat, decision kind, answer and option
        count, and play stops.

    Returns the number of games completed (``G`` unless a strategy erred).
    """
    obs = (
        np.zeros((MAX_BOATS, Boat.SIZE), dtype=np.int64),
        np.zeros((MAX_BOATS, MAX_PLAYERS, 2), dtype=np.int64),
        np.zeros((MAX_PLAYERS, Seat.SIZE), dtype=np.int64),
        np.zeros(State.SIZE, dtype=np.int64),
        rules,
        np.zeros(SCRATCH, dtype=np.int64),
        np.zeros(SCRATCH, dtype=np.float64),
    )
    players = (
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((MAX_PLAYERS, MAX_PARAMS), dtype=np.float64),
        np.zeros((MAX_PLAYERS + 1, 4), dtype=np.uint64),
    )
    work = (
        np.zeros(MAX_OPTIONS, dtype=np.int64),
        np.zeros(WORK_SIZE, dtype=np.int64),  # ballot
        np.zeros(WORK_SIZE, dtype=np.int64),  # tally
        np.zeros(WORK_SIZE, dtype=np.int64),  # voters
        np.zeros(WORK_SIZE, dtype=np.int64),  # weights
        np.zeros(WORK_SIZE, dtype=np.int64),  # swam_from
        np.zeros(WORK_SIZE, dtype=np.int64),  # won
    )
    stats = (
        np.zeros(GameStat.SIZE, dtype=np.int64),
        np.zeros((MAX_PLAYERS, SeatStat.SIZE), dtype=np.int64),
        np.zeros((MAX_BOATS, BoatStat.SIZE), dtype=np.int64),
    )
    records = (games, seats, boats)
    return _play_nb(
        n, codes, params, seats_of, seed, first_game, obs, players, work, stats, records, error
    )


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_nb(
    n, codes, params, seats_of, seed, first_game, obs, players, work, stats, records, error
):
    """The game loop of :func:`play_games_nb`, over the buffers it made.

    Compiled without numba's runtime: nothing here (or in a shipped strategy it calls)
    may allocate an array.
    """
    boats, crew, seats, state, rules = obs[0], obs[1], obs[2], obs[3], obs[4]
    seat_codes, seat_params, rng = players
    game_stat, seat_stat, boat_stat = stats
    games = records[0]
    error[:] = -1
    for g in range(games.shape[0]):
        game = first_game + g
        row = seats_of[game % seats_of.shape[0]]
        for s in range(n):
            seat_codes[s] = codes[row[s]]
            for k in range(MAX_PARAMS):
                seat_params[s, k] = params[row[s], k]
            seed_stream_nb(rng[1 + s], seed, game, 1 + s)
        reset_nb(boats, crew, seats, state, rules, n)
        for s in range(n):
            seats[s, Seat.HATLESS] = row[n + s]
        game_stat[:] = 0
        seat_stat[:, :] = 0
        boat_stat[:, :] = 0
        finished = play_game_nb(obs, players, work, stats, error)
        if error[Error.SEAT] >= 0:
            error[Error.GAME] = game
            return g
        write_records_nb(g, obs, stats, finished, work[6], records)
    return games.shape[0]
