"""What a Lifeboats strategy is made of: compiled helpers that read the public position.

A strategy is one ``@njit`` function ``decide(obs, seat, kind, options, count, params,
rng) -> int`` (see :mod:`balance.games.lifeboats.layout` for ``obs``, the decision kinds
and the option codes). The helpers here estimate what a position is worth to a seat:

* a seat's **stake** in a boat: the points its pawns aboard would score if it landed;
* a boat's **landing chance**, estimated from its leaks, pawns, free seats, the steps it
  still has to make and the leak markers left (:func:`chance_raw_nb`);
* the **expected points** a seat loses or gains when a boat takes a leak, moves, loses a
  pawn or takes one (stake times the change in landing chance);
* a rival's **predicted vote**, from that rival's own stake only (votes are secret), and
  the ballot it predicts (:func:`predict_tally_nb`, :func:`predicted_outcome_nb`).

The larger helpers are compiled out of line (inlining them all made each strategy take
up to a minute to compile) and without numba's reference counting (``_nrt=False``:
nothing here allocates, and counting the references of ``obs``'s seven arrays at every
call made the heuristics three times slower).

Landing chances are filled in once per decision into the float scratch buffer
``obs[6]`` (:func:`fill_chances_nb`); the helpers then only read them. The buffer's
slots: option values ``[VALUES, VALUES + MAX_OPTIONS)``, a predicted tally ``[TALLY, ...)``
and three per-boat tables (:data:`CHANCE`, :data:`CHANCE_AFTER`, :data:`CHANCE_LESS`).
From :data:`CACHE` on, both scratch buffers belong to the kit: each boat's chances are
kept there with the part of the position they depend on, and worked out again only when
that part changes (a leak, a move, a pawn in or out), and then only those a decision
reads, so the voters of one ballot and the decisions between two events share one
estimate; :func:`fill_own_values_nb` fills there a vote's values to every seat in one
pass, once a decision or a ballot (:data:`MEMO`), and :func:`predict_tally_nb` every
seat's predicted vote once a ballot (:data:`PREDICTED`): the helpers that predict a
ballot read the tables the strategy had filled. The helpers after
:func:`fill_chances_nb` rely on it having been called in the same decision, as the
strategies do (or on :func:`fill_vote_nb`, for those that read only the vote's table).
Nothing here allocates.

Option values are compared by :func:`best_index_nb`: the highest wins and ties between
equally good options are broken by a draw from the seat's own stream, so that no strategy
leans on the order of the options.

The small readers (a stake, a vote's weight, a pawn's gain or loss in a boat), the
choosing and predicting loops and the checks of the kit's tables are inlined into their
callers: a call passes ``obs``'s seven arrays (some 60 words), which costs more than
such a helper's work, and the heuristics ask them at every decision. Filling a stale
table, and the larger helpers, are compiled by numba once, not in each strategy
(inlining them all took up to a minute a strategy); all but :func:`lane_value_nb` are
then copied into their callers by LLVM (:func:`~balance.core.llvm_nb.inlined_by_llvm_nb`):
no call passes ``obs`` to them.
"""

import math

from balance.core.compile_cache import njit
from balance.core.llvm_nb import inlined_by_llvm_nb
from balance.core.random_nb import below_nb
from balance.core.search_nb import offer_nb
from balance.games.lifeboats.layout import (
    AFLOAT,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    HAT,
    LANDED,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MOVE_VOTE,
    OFFICER,
    OVERBOARD_VOTE,
    PLACE,
    SAILOR,
    SCRATCH,
    SWIM_IN,
    SWIM_OUT,
    Boat,
    Rule,
    Seat,
    State,
)

__all__ = [
    "AFLOAT",
    "BALLOT",
    "CACHE",
    "CHANCE",
    "CHANCE_AFTER",
    "CHANCE_LESS",
    "CHOOSE_LEAK",
    "CHOOSE_MOVE",
    "CHOOSE_OVERBOARD",
    "HAT",
    "LANE",
    "LEAK_VOTE",
    "LOSE_PAWN",
    "MOVE_VOTE",
    "NEVER",
    "OFFICER",
    "OVERBOARD_VOTE",
    "OWN",
    "PLACE",
    "SAILOR",
    "SWIM_IN",
    "SWIM_OUT",
    "TALLY",
    "VALUES",
    "Boat",
    "Rule",
    "Seat",
    "State",
    "below_nb",
    "best_entry_nb",
    "best_index_nb",
    "best_seat_nb",
    "boat_chance_nb",
    "chance_raw_nb",
    "cheapest_nb",
    "enter_gain_nb",
    "fill_chances_nb",
    "fill_own_values_nb",
    "fill_vote_nb",
    "has_hat_nb",
    "is_ballot_nb",
    "lane_value_nb",
    "leak_loss_nb",
    "leak_sinks_nb",
    "leave_loss_nb",
    "lose_pawn_nb",
    "move_gain_nb",
    "new_ballot_nb",
    "njit",
    "option_value_nb",
    "own_of_nb",
    "own_value_nb",
    "pawn_points_nb",
    "predict_tally_nb",
    "predicted_outcome_nb",
    "predicted_sinking_nb",
    "rival_mean_nb",
    "rival_mean_of_nb",
    "stake_nb",
    "steps_left_nb",
    "vote_kind_nb",
    "weight_nb",
]

#: Slots of the float scratch buffer ``obs[6]`` (below :data:`CACHE`).
VALUES = 0  # one value per option
TALLY = 16  # a predicted ballot: votes per option
CHANCE = 32  # per boat: estimated landing chance now
CHANCE_AFTER = 40  # per boat: after the event the decision is about (leak, move, one more pawn)
CHANCE_LESS = 48  # per boat: with one pawn fewer (a swimmer leaving it)
#: The value of an option a strategy will not take (a hat it keeps).
NEVER = -1e300

#: The kit's landing-chance cache: slots ``[CACHE, SCRATCH)`` of both scratch buffers (a
#: strategy writes only below CACHE). ``obs[6][CACHE + 5 * b + c]``: boat ``b``'s chance
#: now, after a leak, after a move, with a pawn more, with a pawn fewer (c = 0..4);
#: ``obs[5]`` from CACHE: a tag, what every boat's chance shares, and each boat's key.
CACHE = 64
_NOW, _LEAK, _MOVE, _MORE, _FEWER = 0, 1, 2, 3, 4
_CHANCES = 5
_ALL_CHANCES = (1 << _CHANCES) - 1  # a bit per chance (_cache_chances_nb's wanted)
_MAGIC = 0x4C1FEB0A7  # marks the keys as written (a new buffer holds zeros)
_TAG = CACHE
_SHARED = CACHE + 1  # players, leak markers left, steps left on the water, seats, track
_BOAT_KEYS = CACHE + 6
_KEYED = (Boat.STATE, Boat.PAWNS, Boat.LEAKS, Boat.FREE, Boat.STEPS)
_KEY_FIELDS = len(_KEYED)
_RATED = CACHE + _CHANCES * MAX_BOATS  # obs[6]: a predicted voter's rating of each option
#: obs[6][OWN + q * MAX_OPTIONS + k]: what option k of a vote is worth to seat q
#: (:func:`fill_own_values_nb`).
OWN = _RATED + MAX_OPTIONS

#: The kit's memo of a decision's vote values: ``obs[5]`` from MEMO: a count of the calls
#: of :func:`fill_chances_nb` (one a decision), the count at which the ``OWN`` table was
#: last filled, and the vote, option count and options it was filled for. The helpers
#: that read the table after :func:`fill_own_values_nb` in the same decision
#: (:func:`predict_tally_nb`, :func:`predicted_outcome_nb`) find it filled.
MEMO = _BOAT_KEYS + _KEY_FIELDS * MAX_BOATS
_M_DECISION = MEMO
_M_FILLED = MEMO + 1
_M_VOTE = MEMO + 2
_M_COUNT = MEMO + 3
_M_OPTIONS = MEMO + 4
_M_END = _M_OPTIONS + MAX_OPTIONS
#: ``obs[5][BALLOT]``: a count of the ballots asked with these buffers, raised by whoever
#: asks a ballot's voters (the game loop, the search: :func:`new_ballot_nb`) before it
#: asks them, and by the search whenever it copies a position in; 0 while nobody counts.
#: The voters of one ballot see one position: the first fills the chance tables and the
#: vote's table, the others read them.
BALLOT = _M_END
_M_BALLOT_TABLE = BALLOT + 1  # the ballot the OWN table was filled for (0: none)
_M_BALLOT_CHANCES = BALLOT + 2  # the ballot the chance cache was brought up to date for
_M_STAMP = BALLOT + 3  # a count of the OWN table's fillings
_M_PREDICTED = BALLOT + 4  # the filling of the OWN table the PREDICTED table follows
_EXPS_KNOWN = BALLOT + 5  # a bit per exp kept in _EXPS for the cache's shared key
#: ``obs[5][_KNOWN + b]``: a bit per chance of boat ``b`` (``1 << _NOW`` ...) worked out for
#: the key stored with it: :func:`_cache_chances_nb` works out only those a decision reads.
_KNOWN = BALLOT + 6
#: ``obs[5][_BALLOT_WANTED]``: the chances (bits, as :data:`_KNOWN`'s) brought up to date
#: for the ballot ``obs[5][_M_BALLOT_CHANCES]``: another voter who reads no others skips.
_BALLOT_WANTED = _KNOWN + MAX_BOATS
#: obs[6][PREDICTED + q * _VOTER + k]: seat q's predicted vote on option k of the ballot
#: the OWN table was filled for (``weight / ties`` on each option it rates best, else 0.0;
#: :func:`predict_tally_nb`), filled once a ballot for every seat and summed for each
#: voter who asks.
PREDICTED = OWN + MAX_PLAYERS * MAX_OPTIONS
_VOTER = MAX_BOATS + 1  # a ballot's outcomes, then the hat
#: obs[6][_EXPS + c * _EXP_STEPS + s]: the Poisson term exp(-mean) of chance c (now,
#: after a leak, after a move) for a boat with s steps left, kept while what every boat's
#: chance shares (the rates) stays the same (:func:`_first_nb`).
_EXPS = PREDICTED + MAX_PLAYERS * _VOTER
_EXP_STEPS = 8


# --- reading the position ------------------------------------------------------------


@njit(inline="always", cache=True)
def pawn_points_nb(obs, boat, kind):
    """Points a pawn of type ``kind`` (OFFICER, SAILOR) scores if ``boat`` lands."""
    boats, rules = obs[0], obs[4]
    island = boats[boat, Boat.ISLAND]
    if island < 0:
        return 0.0
    if kind == OFFICER:
        return float(rules[Rule.OFFICER_POINTS + island])
    return float(rules[Rule.SAILOR_POINTS + island])


@njit(inline="always", cache=True)
def stake_nb(obs, seat, boat):
    """Points ``seat``'s pawns aboard ``boat`` score if it lands (0 unless it is afloat)."""
    boats, crew = obs[0], obs[1]
    if boats[boat, Boat.STATE] != AFLOAT:
        return 0.0
    return crew[boat, seat, OFFICER] * pawn_points_nb(obs, boat, OFFICER) + crew[
        boat, seat, SAILOR
    ] * pawn_points_nb(obs, boat, SAILOR)


@njit(inline="always", cache=True)
def weight_nb(obs, seat, boat):
    """Weight of ``seat``'s vote on who goes overboard from ``boat``: 2 an officer, 1 a sailor."""
    crew = obs[1]
    return 2 * crew[boat, seat, OFFICER] + crew[boat, seat, SAILOR]


@njit(inline="always", cache=True)
def cheapest_nb(obs, seat, boat):
    """Points of ``seat``'s least valuable pawn aboard ``boat`` (0.0 if it has none)."""
    crew = obs[1]
    officer = pawn_points_nb(obs, boat, OFFICER)
    sailor = pawn_points_nb(obs, boat, SAILOR)
    if crew[boat, seat, SAILOR] > 0 and (crew[boat, seat, OFFICER] == 0 or sailor <= officer):
        return sailor
    if crew[boat, seat, OFFICER] > 0:
        return officer
    return 0.0


@njit(inline="always", cache=True)
def steps_left_nb(obs, boat):
    """Moves ``boat`` still has to make to land."""
    return obs[4][Rule.TRACK] - obs[0][boat, Boat.STEPS]


@njit(inline="always", cache=True)
def has_hat_nb(obs, seat, options, count):
    """True if ``seat`` may play a hat in this decision (the last option is HAT)."""
    return options[count - 1] == HAT and obs[2][seat, Seat.HATS] > 0


@njit(cache=True, _nrt=False, error_model="numpy")
def lane_value_nb(obs, lane):
    """Average points of one of a player's pawns landed on the island ``lane`` leads to."""
    rules = obs[4]
    island = rules[Rule.LANE_ISLAND + lane]
    officers, sailors = rules[Rule.OFFICERS], rules[Rule.SAILORS]
    total = (
        officers * rules[Rule.OFFICER_POINTS + island]
        + sailors * rules[Rule.SAILOR_POINTS + island]
    )
    return total / max(officers + sailors, 1)


@njit(inline="always", cache=True)
def is_ballot_nb(kind):
    """True for the decisions of a ballot: leak, move and overboard votes (a hat allowed)."""
    return LEAK_VOTE <= kind <= OVERBOARD_VOTE


@njit(inline="always", cache=True)
def vote_kind_nb(kind):
    """The vote a decision is about: CHOOSE_LEAK -> LEAK_VOTE, and so on; others unchanged."""
    if kind == CHOOSE_LEAK:
        return LEAK_VOTE
    if kind == CHOOSE_MOVE:
        return MOVE_VOTE
    if kind == CHOOSE_OVERBOARD:
        return OVERBOARD_VOTE
    return kind


# --- landing chances -----------------------------------------------------------------


@njit(inline="always", cache=True)
def _hits_nb(pawns, leaks, free, steps_left, leaks_left):
    """The leaks a boat afloat survives, plus one, for :func:`chance_raw_nb`: -1 if it has
    sunk already (chance 0), 0 if it cannot sink (chance 1)."""
    if leaks > pawns:
        return -1
    if steps_left <= 0 or leaks_left <= 0:
        return 0
    # A leak takes a free seat (a seat of margin) while there is one, else a pawn and a
    # seat (two): the margin of pawns over leaks is gone after ``hits`` leaks.
    margin = pawns - leaks
    spare = max(free, 0)
    hits = margin + 1 if margin < spare else spare + (margin - spare) // 2 + 1
    if hits > leaks_left:
        return 0  # the markers run out before it sinks
    return hits


@njit(inline="always", cache=True)
def _from_hits_nb(hits, mean, first):
    """:func:`chance_raw_nb` from :func:`_hits_nb`'s answer, the Poisson mean and
    ``first = exp(-mean)``: the chance of fewer than ``hits`` leaks."""
    if hits < 0:
        return 0.0
    if hits == 0:
        return 1.0
    term = first
    total = term
    for k in range(1, hits):
        term *= mean / k
        total += term
    return min(total, 1.0)


@njit(cache=True, _nrt=False, error_model="numpy")
def chance_raw_nb(pawns, leaks, free, steps_left, leaks_left, rate):
    """Estimated chance that a boat afloat lands.

    A boat sinks when it holds more leaks than pawns. A leak costs it one seat of margin
    while it has a free seat, and two once it is full (someone goes overboard and the leak
    takes the seat); so the boat survives a known number of leaks, at most the markers
    left. The leaks it takes before landing are counted as Poisson with mean
    ``rate * steps_left`` (with votes spread evenly a boat takes as many leaks as moves
    while markers last: ``rate`` is markers left per step left on the water, at most 1).
    """
    inlined_by_llvm_nb()
    hits = _hits_nb(pawns, leaks, free, steps_left, leaks_left)
    if hits <= 0:
        return _from_hits_nb(hits, 0.0, 0.0)
    mean = rate * steps_left
    return _from_hits_nb(hits, mean, math.exp(-mean))


@njit(cache=True, _nrt=False, error_model="numpy")
def _rate_nb(obs, leaks_left, steps_delta):
    """Leak markers left per step left on the water, at most 1."""
    inlined_by_llvm_nb()
    boats, state = obs[0], obs[3]
    n = state[State.PLAYERS]
    total = 0
    for b in range(n + 1):
        if boats[b, Boat.STATE] == AFLOAT:
            total += max(steps_left_nb(obs, b), 0)
    total -= steps_delta
    if total <= 0:
        return 1.0
    return min(1.0, leaks_left / total)


@njit(cache=True, _nrt=False, error_model="numpy")
def boat_chance_nb(obs, boat, pawns_delta, leaks_delta, steps_delta):
    """Landing chance of ``boat`` after ``pawns_delta`` pawns, ``leaks_delta`` leaks and
    ``steps_delta`` moves more; 1.0 for a landed boat, 0.0 for a sunk one."""
    inlined_by_llvm_nb()
    boats, state, rules = obs[0], obs[3], obs[4]
    fate = boats[boat, Boat.STATE]
    if fate != AFLOAT:
        return 1.0 if fate == LANDED else 0.0
    pawns = boats[boat, Boat.PAWNS] + pawns_delta
    leaks = boats[boat, Boat.LEAKS] + leaks_delta
    free = rules[Rule.SEATS] - pawns - leaks
    steps = steps_left_nb(obs, boat) - steps_delta
    leaks_left = state[State.LEAKS_LEFT] - leaks_delta
    return chance_raw_nb(
        pawns, leaks, max(free, 0), steps, leaks_left, _rate_nb(obs, leaks_left, steps_delta)
    )


@njit(cache=True, _nrt=False, error_model="numpy")
def leak_sinks_nb(obs, boat):
    """True if one more leak sinks ``boat`` (after an overboard if it is full)."""
    inlined_by_llvm_nb()
    boats = obs[0]
    pawns, leaks = boats[boat, Boat.PAWNS], boats[boat, Boat.LEAKS]
    if boats[boat, Boat.FREE] <= 0:
        pawns -= 1
    return leaks + 1 > pawns


@njit(cache=True, _nrt=False, error_model="numpy")
def _chance_nb(obs, boat, total, pawns_delta, leaks_delta, steps_delta):
    """:func:`boat_chance_nb` for a boat afloat, given ``total``: the steps left on the
    water over all boats afloat (what :func:`_rate_nb` sums)."""
    inlined_by_llvm_nb()
    boats, state, rules = obs[0], obs[3], obs[4]
    pawns = boats[boat, Boat.PAWNS] + pawns_delta
    leaks = boats[boat, Boat.LEAKS] + leaks_delta
    free = rules[Rule.SEATS] - pawns - leaks
    steps = steps_left_nb(obs, boat) - steps_delta
    leaks_left = state[State.LEAKS_LEFT] - leaks_delta
    rest = total - steps_delta
    rate = 1.0 if rest <= 0 else min(1.0, leaks_left / rest)
    return chance_raw_nb(pawns, leaks, max(free, 0), steps, leaks_left, rate)


@njit(cache=True, _nrt=False, error_model="numpy")
def _cache_chances_nb(obs, wanted):
    """Bring the landing chances ``wanted`` (a bit per chance: ``1 << _NOW`` ...) of every
    boat in the cache (``obs[5][CACHE:]`` keys, ``obs[6][CACHE:]`` values) up to date with
    the position, and return nothing.

    A boat's five chances (:data:`_NOW`, after a leak, after a move, with one pawn more
    and one fewer) depend only on its own row of ``boats`` (fate, pawns, leaks, free
    seats, steps) and on what every boat shares (players, leak markers left, steps left
    on the water, seats per boat, track length). They are worked out again only for the
    boats whose row, or all boats when what they share, differs from the key stored with
    them, and then only those a decision reads: a vote's voters, and the decisions
    between two events, share one estimate, and a chance no decision reads before the
    next event is never worked out.
    """
    inlined_by_llvm_nb()
    boats, state, rules, keys, cached = obs[0], obs[3], obs[4], obs[5], obs[6]
    n = state[State.PLAYERS]
    total = 0
    for b in range(n + 1):
        if boats[b, Boat.STATE] == AFLOAT:
            total += max(steps_left_nb(obs, b), 0)
    fresh = (
        keys[_TAG] != _MAGIC
        or keys[_SHARED] != n
        or keys[_SHARED + 1] != state[State.LEAKS_LEFT]
        or keys[_SHARED + 2] != total
        or keys[_SHARED + 3] != rules[Rule.SEATS]
        or keys[_SHARED + 4] != rules[Rule.TRACK]
    )
    if fresh:
        keys[_TAG] = _MAGIC
        keys[_SHARED] = n
        keys[_SHARED + 1] = state[State.LEAKS_LEFT]
        keys[_SHARED + 2] = total
        keys[_SHARED + 3] = rules[Rule.SEATS]
        keys[_SHARED + 4] = rules[Rule.TRACK]
    # The rate of leaks per step left now, after a leak and after a move (_chance_nb's).
    left, seats = state[State.LEAKS_LEFT], rules[Rule.SEATS]
    rate = 1.0 if total <= 0 else min(1.0, left / total)
    rate_leak = 1.0 if total <= 0 else min(1.0, (left - 1) / total)
    rate_move = 1.0 if total - 1 <= 0 else min(1.0, left / (total - 1))
    known = 0 if fresh else keys[_EXPS_KNOWN]
    for b in range(n + 1):
        key = _BOAT_KEYS + _KEY_FIELDS * b
        same = not fresh
        for f in range(_KEY_FIELDS):
            if keys[key + f] != boats[b, _KEYED[f]]:
                same = False
                keys[key + f] = boats[b, _KEYED[f]]
        if not same:
            keys[_KNOWN + b] = 0
        missing = wanted & ~keys[_KNOWN + b]
        if missing == 0:
            continue
        slot = CACHE + _CHANCES * b
        fate = boats[b, Boat.STATE]
        if fate != AFLOAT:
            value = 1.0 if fate == LANDED else 0.0
            for c in range(_CHANCES):
                cached[slot + c] = value
            if steps_left_nb(obs, b) <= 1:
                cached[slot + _MOVE] = 1.0  # as for a boat afloat (no vote moves it)
            keys[_KNOWN + b] = _ALL_CHANCES
            continue
        keys[_KNOWN + b] |= missing
        # As boat_chance_nb after a leak, after a move, now, with a pawn more and with
        # one fewer; each exp(-mean) is kept for the boats with as many steps left.
        pawns, leaks = boats[b, Boat.PAWNS], boats[b, Boat.LEAKS]
        steps = steps_left_nb(obs, b)
        if missing & (1 << _LEAK):
            full = 1 if boats[b, Boat.FREE] <= 0 else 0
            hits = _hits_nb(
                pawns - full, leaks + 1, max(seats - pawns + full - leaks - 1, 0), steps, left - 1
            )
            first = 0.0
            if hits > 0:
                first, known = _first_nb(cached, known, _LEAK, steps, rate_leak)
            cached[slot + _LEAK] = _from_hits_nb(hits, rate_leak * steps, first)
        if missing & (1 << _MOVE):
            if steps <= 1:
                cached[slot + _MOVE] = 1.0  # it lands
            else:
                hits = _hits_nb(pawns, leaks, max(seats - pawns - leaks, 0), steps - 1, left)
                first = 0.0
                if hits > 0:
                    first, known = _first_nb(cached, known, _MOVE, steps - 1, rate_move)
                cached[slot + _MOVE] = _from_hits_nb(hits, rate_move * (steps - 1), first)
        # Now, with a pawn more and with one fewer share the Poisson mean (hits 0, and
        # nothing written, for a chance not wanted).
        now, more, fewer = 0, 0, 0
        if missing & (1 << _NOW):
            now = _hits_nb(pawns, leaks, max(seats - pawns - leaks, 0), steps, left)
        if missing & (1 << _MORE):
            more = _hits_nb(pawns + 1, leaks, max(seats - pawns - 1 - leaks, 0), steps, left)
        if missing & (1 << _FEWER):
            fewer = _hits_nb(pawns - 1, leaks, max(seats - pawns + 1 - leaks, 0), steps, left)
        mean, first = 0.0, 0.0
        if now > 0 or more > 0 or fewer > 0:
            mean = rate * steps
            first, known = _first_nb(cached, known, _NOW, steps, rate)
        if missing & (1 << _NOW):
            cached[slot + _NOW] = _from_hits_nb(now, mean, first)
        if missing & (1 << _MORE):
            cached[slot + _MORE] = _from_hits_nb(more, mean, first)
        if missing & (1 << _FEWER):
            cached[slot + _FEWER] = _from_hits_nb(fewer, mean, first)
    keys[_EXPS_KNOWN] = known


@njit(inline="always", cache=True)
def _first_nb(cached, known, which, steps, rate):
    """``exp(-rate * steps)`` for :func:`_cache_chances_nb`, and the new ``known``: a bit
    per chance ``which`` and steps left whose exp is kept already (in ``cached[_EXPS:]``;
    the rate of each chance is the same for every boat, and changes only with the
    cache's shared key)."""
    if steps >= _EXP_STEPS:
        return math.exp(-(rate * steps)), known
    bit = which * _EXP_STEPS + steps
    if (known >> bit) & 1:
        return cached[_EXPS + bit], known
    first = math.exp(-(rate * steps))
    cached[_EXPS + bit] = first
    return first, known | (1 << bit)


@njit(inline="always", cache=True)
def _after_nb(vote):
    """Which of a boat's cached chances follows the event a decision of ``vote`` is about."""
    if vote == MOVE_VOTE:
        return _MOVE
    if is_ballot_nb(vote):  # leak or overboard
        return _LEAK
    return _MORE


@njit(inline="always", cache=True)
def new_ballot_nb(obs):
    """Count a new ballot (or a new position) in ``obs[5][BALLOT]``: call it before asking
    a ballot's voters, with the position they all vote on."""
    obs[5][BALLOT] += 1


@njit(inline="always", cache=True)
def fill_chances_nb(obs, kind):
    """Fill the per-boat chance tables of ``obs[6]`` for a decision of ``kind``.

    :data:`CHANCE`: now. :data:`CHANCE_AFTER`: after a leak (leak and overboard votes),
    a move (move votes) or one more pawn (placing, swimming). :data:`CHANCE_LESS`: with
    one pawn fewer (swimming out). Each is :func:`boat_chance_nb` of the boat, read from
    the kit's cache (worked out again only for the boats the position has changed, and
    only the chances a decision of ``kind`` reads).
    """
    scratch = obs[6]
    n = obs[3][State.PLAYERS]
    keys = obs[5]
    after = _after_nb(vote_kind_nb(kind))
    fewer = kind == SWIM_OUT
    ballot = keys[BALLOT] if is_ballot_nb(kind) else 0
    wanted = (1 << _NOW) | (1 << after) | ((1 << _FEWER) if fewer else 0)
    if ballot == 0 or keys[_M_BALLOT_CHANCES] != ballot:
        keys[_BALLOT_WANTED] = 0
    # else an earlier voter of this ballot brought them up to date, on this position
    if ballot == 0 or wanted & ~keys[_BALLOT_WANTED]:
        _cache_chances_nb(obs, wanted)
        keys[_M_BALLOT_CHANCES] = ballot
        keys[_BALLOT_WANTED] |= wanted
    keys[_M_DECISION] += 1  # a new decision: the OWN table is stale
    for b in range(n + 1):
        slot = CACHE + _CHANCES * b
        scratch[CHANCE + b] = scratch[slot + _NOW]
        scratch[CHANCE_AFTER + b] = scratch[slot + after]
        scratch[CHANCE_LESS + b] = scratch[slot + _FEWER] if fewer else 0.0
    for b in range(n + 1, MAX_BOATS):
        scratch[CHANCE + b] = 0.0
        scratch[CHANCE_AFTER + b] = 0.0
        scratch[CHANCE_LESS + b] = 0.0


# --- expected points (read the tables filled by fill_chances_nb) ------------------------


@njit(inline="always", cache=True)
def _colours_nb(obs, boat):
    crew, n = obs[1], obs[3][State.PLAYERS]
    colours = 0
    for q in range(n):
        if crew[boat, q, OFFICER] + crew[boat, q, SAILOR] > 0:
            colours += 1
    return colours


@njit(cache=True, _nrt=False, error_model="numpy")
def leak_loss_nb(obs, seat, boat):
    """Expected points ``seat`` loses if ``boat`` takes a leak.

    Its stake times the fall in landing chance; if the boat is full, someone goes
    overboard first: each colour aboard is taken as equally likely, and ``seat`` would
    lose its cheapest pawn there.
    """
    inlined_by_llvm_nb()
    scratch, boats = obs[6], obs[0]
    stake = stake_nb(obs, seat, boat)
    if stake == 0.0:
        return 0.0
    now, after = scratch[CHANCE + boat], scratch[CHANCE_AFTER + boat]
    kept = stake
    if boats[boat, Boat.FREE] <= 0:
        kept -= cheapest_nb(obs, seat, boat) / max(_colours_nb(obs, boat), 1)
    return stake * now - kept * after


@njit(cache=True, _nrt=False, error_model="numpy")
def move_gain_nb(obs, seat, boat):
    """Expected points ``seat`` gains if ``boat`` moves one step (landing if it was the last)."""
    inlined_by_llvm_nb()
    scratch = obs[6]
    return stake_nb(obs, seat, boat) * (scratch[CHANCE_AFTER + boat] - scratch[CHANCE + boat])


@njit(inline="always", cache=True)
def enter_gain_nb(obs, seat, boat, kind):
    """Expected points ``seat`` gains by putting a pawn of type ``kind`` into ``boat``.

    The pawn's points times the boat's chance with it aboard, plus what its other pawns
    there gain from one more pawn (tables filled for PLACE, SWIM_OUT or SWIM_IN).
    """
    scratch = obs[6]
    after, now = scratch[CHANCE_AFTER + boat], scratch[CHANCE + boat]
    return pawn_points_nb(obs, boat, kind) * after + stake_nb(obs, seat, boat) * (after - now)


@njit(inline="always", cache=True)
def leave_loss_nb(obs, seat, boat, kind, leaver):
    """Expected points ``seat`` loses in ``boat`` when ``leaver`` swims out a ``kind`` pawn.

    If ``seat`` is the leaver, the pawn's own expected points go with it; every pawn of
    ``seat`` left aboard loses the fall in landing chance (tables filled for SWIM_OUT).
    """
    scratch = obs[6]
    now, less = scratch[CHANCE + boat], scratch[CHANCE_LESS + boat]
    stake = stake_nb(obs, seat, boat)
    if seat == leaver:
        points = pawn_points_nb(obs, boat, kind)
        return points * now + (stake - points) * (now - less)
    return stake * (now - less)


@njit(cache=True, _nrt=False, error_model="numpy")
def own_value_nb(obs, seat, kind, code):
    """Expected points a vote's outcome ``code`` is worth to ``seat``, against no change.

    Leak: minus :func:`leak_loss_nb`; move: :func:`move_gain_nb`; overboard (of the boat
    ``state[BOAT]``): minus its cheapest pawn's expected points if ``code`` is ``seat``,
    else 0 (the boat takes the leak either way). A hat is worth :data:`NEVER`.
    """
    inlined_by_llvm_nb()
    if code == HAT:
        return NEVER
    vote = vote_kind_nb(kind)
    if vote == LEAK_VOTE:
        return -leak_loss_nb(obs, seat, code)
    if vote == MOVE_VOTE:
        return move_gain_nb(obs, seat, code)
    if vote == OVERBOARD_VOTE:
        if code != seat:
            return 0.0
        boat = obs[3][State.BOAT]
        return -cheapest_nb(obs, seat, boat) * obs[6][CHANCE_AFTER + boat]
    return 0.0


@njit(cache=True, _nrt=False, error_model="numpy")
def rival_mean_nb(obs, seat, kind, code):
    """Mean over ``seat``'s rivals of :func:`own_value_nb` (what the outcome does to them)."""
    inlined_by_llvm_nb()
    n = obs[3][State.PLAYERS]
    total = 0.0
    for q in range(n):
        if q != seat:
            total += own_value_nb(obs, q, kind, code)
    return total / max(n - 1, 1)


@njit(inline="always", cache=True)
def fill_own_values_nb(obs, kind, options, count):
    """Fill ``obs[6][OWN + q * MAX_OPTIONS + k]`` with :func:`own_value_nb` of option ``k``
    to every seat ``q``: a whole vote's values in one pass (tables filled by
    :func:`fill_chances_nb` for ``kind``), read by :func:`own_of_nb` and
    :func:`rival_mean_of_nb`.

    Called again in the same decision (after the same :func:`fill_chances_nb`) for the
    same vote and options, it leaves the table as it is: the predicted ballot's helpers
    call it to be sure of the table, and a strategy has mostly filled it already. So it
    does for another voter of the same ballot (:data:`BALLOT`) with the same outcomes
    (with or without the hat, which is worth :data:`NEVER` to all): the table does not
    depend on who asks. Only a table to fill calls out (the check is compiled in).
    """
    if not _own_values_kept_nb(obs, kind, options, count):
        _fill_own_values_nb(obs, kind, options, count)


@njit(inline="always", cache=True)
def fill_vote_nb(obs, kind, options, count):
    """Make a vote's table of values (:func:`fill_own_values_nb`) ready for a decision of
    ``kind`` (a vote, or the choice of its outcome) without the chance tables: another
    voter of the same ballot finds it filled, and the landing chances are worked out
    (:func:`fill_chances_nb`) only to fill it. A strategy that reads only the table, the
    position and the predicted ballot's helpers needs nothing more; one that reads the
    chance tables calls :func:`fill_chances_nb` itself.
    """
    obs[5][_M_DECISION] += 1  # a new decision: a table of an earlier one is stale
    if not _own_values_kept_nb(obs, kind, options, count):
        fill_chances_nb(obs, kind)
        _fill_own_values_nb(obs, kind, options, count)


@njit(inline="always", cache=True)
def _outcomes_nb(options, count):
    """How many of ``options[:count]`` come before a last option HAT (all if none)."""
    if count > 0 and options[count - 1] == HAT:
        return count - 1
    return count


@njit(inline="always", cache=True)
def _own_values_kept_nb(obs, kind, options, count):
    """Whether the OWN table holds this decision's values for ``options[:count]``: filled
    in this decision, or for this ballot, for the same vote and outcomes."""
    keys = obs[5]
    outcomes = _outcomes_nb(options, count)
    ballot = keys[BALLOT] if is_ballot_nb(kind) else 0
    same_decision = keys[_M_FILLED] == keys[_M_DECISION] and keys[_M_DECISION] != 0
    same_ballot = ballot != 0 and keys[_M_BALLOT_TABLE] == ballot
    if not (same_decision or same_ballot):
        return False
    if keys[_M_VOTE] != vote_kind_nb(kind) or keys[_M_COUNT] != outcomes:
        return False
    same = True
    for k in range(outcomes):
        if keys[_M_OPTIONS + k] != options[k]:
            same = False
    return same


@njit(cache=True, _nrt=False, error_model="numpy")
def _fill_own_values_nb(obs, kind, options, count):
    """:func:`fill_own_values_nb`'s filling, keyed by the decision or ballot and the vote's
    outcomes; the column after the outcomes holds the hat's :data:`NEVER`."""
    inlined_by_llvm_nb()
    boats, crew, state, keys, scratch = obs[0], obs[1], obs[3], obs[5], obs[6]
    n = state[State.PLAYERS]
    vote = vote_kind_nb(kind)
    outcomes = _outcomes_nb(options, count)
    keys[_M_FILLED] = keys[_M_DECISION]
    keys[_M_BALLOT_TABLE] = keys[BALLOT] if is_ballot_nb(kind) else 0
    keys[_M_VOTE] = vote
    keys[_M_COUNT] = outcomes
    keys[_M_STAMP] += 1
    for k in range(outcomes):
        keys[_M_OPTIONS + k] = options[k]
    if outcomes < MAX_OPTIONS:  # a voter with a hat reads it there
        for q in range(n):
            scratch[OWN + q * MAX_OPTIONS + outcomes] = NEVER
    for k in range(count):
        code = options[k]
        if code == HAT or not is_ballot_nb(vote):
            value = NEVER if code == HAT else 0.0
            for q in range(n):
                scratch[OWN + q * MAX_OPTIONS + k] = value
            continue
        boat = code if vote != OVERBOARD_VOTE else state[State.BOAT]
        officer = pawn_points_nb(obs, boat, OFFICER)
        sailor = pawn_points_nb(obs, boat, SAILOR)
        now, after = scratch[CHANCE + boat], scratch[CHANCE_AFTER + boat]
        afloat = boats[boat, Boat.STATE] == AFLOAT
        full = boats[boat, Boat.FREE] <= 0
        colours = 0
        if vote == LEAK_VOTE and full:
            colours = max(_colours_nb(obs, boat), 1)
        for q in range(n):
            officers, sailors = crew[boat, q, OFFICER], crew[boat, q, SAILOR]
            cheapest = 0.0  # as cheapest_nb
            if sailors > 0 and (officers == 0 or sailor <= officer):
                cheapest = sailor
            elif officers > 0:
                cheapest = officer
            value = 0.0
            if vote == OVERBOARD_VOTE:
                if code == q:
                    value = -cheapest * after
            else:
                stake = 0.0  # as stake_nb
                if afloat:
                    stake = officers * officer + sailors * sailor
                if vote == MOVE_VOTE:
                    value = stake * (after - now)
                elif stake != 0.0:  # minus leak_loss_nb
                    kept = stake
                    if full:
                        kept -= cheapest / colours
                    value = -(stake * now - kept * after)
                else:
                    value = -0.0
            scratch[OWN + q * MAX_OPTIONS + k] = value


@njit(inline="always", cache=True)
def own_of_nb(obs, seat, k):
    """Option ``k``'s value to ``seat``, as :func:`fill_own_values_nb` left it."""
    return obs[6][OWN + seat * MAX_OPTIONS + k]


@njit(inline="always", cache=True)
def option_value_nb(obs, seat, kind, options, k):
    """:func:`own_value_nb` of option ``k`` to ``seat``: for a leak or move vote read from
    the vote's table (:func:`own_of_nb`; :func:`fill_own_values_nb` must have filled it
    in this decision), for any other decision worked out."""
    vote = vote_kind_nb(kind)
    if vote in (LEAK_VOTE, MOVE_VOTE):
        return own_of_nb(obs, seat, k)
    return own_value_nb(obs, seat, kind, options[k])


@njit(inline="always", cache=True)
def rival_mean_of_nb(obs, seat, k):
    """:func:`rival_mean_nb` of option ``k``, from the values :func:`fill_own_values_nb`
    left (summed in the same order: the same number)."""
    scratch, n = obs[6], obs[3][State.PLAYERS]
    total = 0.0
    for q in range(seat):  # the seats before and after ``seat``: no branch in the loops
        total += scratch[OWN + q * MAX_OPTIONS + k]
    for q in range(seat + 1, n):
        total += scratch[OWN + q * MAX_OPTIONS + k]
    return total / max(n - 1, 1)


@njit(cache=True, _nrt=False, error_model="numpy")
def lose_pawn_nb(obs, options, count):
    """Index of the pawn type to lose overboard: the one worth fewer points, a sailor on a tie."""
    inlined_by_llvm_nb()
    boat = obs[3][State.BOAT]
    best = 0
    best_points = 1e300
    for k in range(count):
        points = pawn_points_nb(obs, boat, options[k])
        if points < best_points or (points == best_points and options[k] == SAILOR):
            best, best_points = k, points
    return best


# --- predicting a secret ballot ------------------------------------------------------


@njit(cache=True, _nrt=False, error_model="numpy")
def _predicted_value_nb(obs, voter, kind, code):
    """How ``voter`` is predicted to rate option ``code``, from its own stake alone."""
    inlined_by_llvm_nb()
    if code == HAT:
        return NEVER
    if vote_kind_nb(kind) == OVERBOARD_VOTE:
        if code == voter:
            return -1.0
        return float(weight_nb(obs, code, obs[3][State.BOAT]))
    return own_value_nb(obs, voter, kind, code)


@njit(inline="always", cache=True)
def predict_tally_nb(obs, seat, kind, options, count):
    """Fill ``obs[6][TALLY:TALLY + count]`` with the votes ``seat`` predicts from its rivals.

    Every other voter (every player in a leak or move vote; the players with pawns in the
    boat, weighted 2 an officer and 1 a sailor, in an overboard vote) is predicted to vote
    for the option best for its own stake: in a leak vote the boat where a leak costs it
    least, in a move vote the boat whose move gains it most, in an overboard vote the
    colour (not its own) with the most weight aboard. Its vote is split evenly among the
    options it rates equally. Hats are not predicted (the tally ignores them). Call it
    after :func:`fill_chances_nb` in the same decision.

    Every seat's predicted vote is worked out once a ballot (:data:`PREDICTED`, with the
    vote's table of values) and each voter who asks sums its rivals', in seat order as a
    tally taken voter by voter would.
    """
    scratch, keys = obs[6], obs[5]
    n = obs[3][State.PLAYERS]
    fill_own_values_nb(obs, kind, options, count)
    if keys[_M_PREDICTED] != keys[_M_STAMP]:
        _fill_predicted_nb(obs, kind, options, count)
    for k in range(count):
        votes = 0.0
        if options[k] != HAT:
            for q in range(seat):
                votes += scratch[PREDICTED + q * _VOTER + k]
            for q in range(seat + 1, n):
                votes += scratch[PREDICTED + q * _VOTER + k]
        scratch[TALLY + k] = votes


@njit(cache=True, _nrt=False, error_model="numpy")
def _fill_predicted_nb(obs, kind, options, count):
    """Fill the :data:`PREDICTED` table for the vote the OWN table was just filled for:
    each seat's vote as :func:`predict_tally_nb` predicts it (``weight / ties`` on each
    option it rates best, 0.0 on the others and on the hat's column)."""
    inlined_by_llvm_nb()
    scratch, state, keys = obs[6], obs[3], obs[5]
    n = state[State.PLAYERS]
    vote = vote_kind_nb(kind)
    boat = state[State.BOAT]
    outcomes = _outcomes_nb(options, count)
    keys[_M_PREDICTED] = keys[_M_STAMP]
    for q in range(n):
        row = PREDICTED + q * _VOTER
        for k in range(_VOTER):
            scratch[row + k] = 0.0
        weight = 1.0
        if vote == OVERBOARD_VOTE:
            weight = float(weight_nb(obs, q, boat))
            if weight == 0.0:
                continue
        top = NEVER
        for k in range(outcomes):  # rated once, into the kit's slots (read twice below)
            if vote == OVERBOARD_VOTE:
                value = _predicted_value_nb(obs, q, kind, options[k])
            else:  # own_value_nb, from the table
                value = scratch[OWN + q * MAX_OPTIONS + k]
            scratch[_RATED + k] = value
            if value > top:
                top = value
        if top <= NEVER:
            continue
        ties = 0
        for k in range(outcomes):
            if scratch[_RATED + k] > top - 1e-9:
                ties += 1
        for k in range(outcomes):
            if scratch[_RATED + k] > top - 1e-9:
                scratch[row + k] = weight / ties


@njit(inline="always", cache=True)
def predicted_outcome_nb(obs, seat, kind, options, count, pick, own_weight):
    """Expected :func:`own_value_nb` to ``seat`` of the ballot predicted in ``TALLY`` when
    ``seat`` adds ``own_weight`` votes to option ``pick``.

    A single top option is the outcome. Tied top options go to the first player: ``seat``'s
    own pick if ``seat`` is first and its pick is among them, else the average of the tied
    options (the first player's choice is not predicted). Call it after
    :func:`fill_chances_nb` in the same decision (the options' values are read from
    :func:`fill_own_values_nb`'s table).
    """
    scratch, state = obs[6], obs[3]
    fill_own_values_nb(obs, kind, options, count)  # own_value_nb of every option, read below
    top = -1e300
    for k in range(count):
        votes = scratch[TALLY + k] + (own_weight if k == pick else 0.0)
        if options[k] != HAT and votes > top:
            top = votes
    ties = 0
    total = 0.0
    pick_tied = False
    for k in range(count):
        votes = scratch[TALLY + k] + (own_weight if k == pick else 0.0)
        if options[k] != HAT and votes > top - 1e-9:
            ties += 1
            total += own_of_nb(obs, seat, k)
            if k == pick:
                pick_tied = True
    if ties > 1 and pick_tied and state[State.FIRST] == seat:
        return own_of_nb(obs, seat, pick)
    return total / max(ties, 1)


@njit(inline="always", cache=True)
def predicted_sinking_nb(obs, seat, options, count, pick, stake):
    """True if the leak ballot predicted in ``TALLY`` (with ``seat``'s vote on ``pick``) may
    sink a boat where ``seat`` holds at least ``stake`` points (other than ``pick``: a lone
    hat would choose ``pick`` again).

    The outcomes are the top options; on a tie the first player chooses (``seat``'s pick if
    ``seat`` is first and its pick is tied), so any tied option may be the outcome.
    """
    scratch, state = obs[6], obs[3]
    top = -1e300
    for k in range(count):
        votes = scratch[TALLY + k] + (1.0 if k == pick else 0.0)
        if options[k] != HAT and votes > top:
            top = votes
    pick_tied = scratch[TALLY + pick] + 1.0 > top - 1e-9
    if pick_tied and state[State.FIRST] == seat:
        return False  # seat breaks the tie with its own pick
    for k in range(count):
        votes = scratch[TALLY + k] + (1.0 if k == pick else 0.0)
        boat = options[k]
        if (
            boat != HAT
            and k != pick
            and votes > top - 1e-9
            and stake_nb(obs, seat, boat) >= stake
            and leak_sinks_nb(obs, boat)
        ):
            return True
    return False


# --- swimming --------------------------------------------------------------------------


@njit(inline="always", cache=True)
def best_entry_nb(obs, seat, kind, left):
    """Best :func:`enter_gain_nb` for ``seat``'s pawn of type ``kind`` over the boats afloat
    with a free seat other than ``left``; 0.0 if there is none (the swimmer would drown)."""
    boats, n = obs[0], obs[3][State.PLAYERS]
    best = 0.0
    found = False
    for b in range(n + 1):
        if b != left and boats[b, Boat.STATE] == AFLOAT and boats[b, Boat.FREE] > 0:
            gain = enter_gain_nb(obs, seat, b, kind)
            if not found or gain > best:
                best, found = gain, True
    return best


@njit(inline="always", cache=True)
def best_seat_nb(obs, kind, left):
    """Best points-times-landing-chance (with it aboard) for a pawn of type ``kind`` over the
    boats afloat with a free seat other than ``left``; 0.0 if there is none."""
    boats, scratch, n = obs[0], obs[6], obs[3][State.PLAYERS]
    best = 0.0
    for b in range(n + 1):
        if b != left and boats[b, Boat.STATE] == AFLOAT and boats[b, Boat.FREE] > 0:
            best = max(best, pawn_points_nb(obs, b, kind) * scratch[CHANCE_AFTER + b])
    return best


# --- choosing --------------------------------------------------------------------------


@njit(inline="always", cache=True)
def best_index_nb(obs, count, rng):
    """Index of the highest of ``obs[6][VALUES:VALUES + count]``; ties drawn at random."""
    values = obs[6]
    best = 0
    top = -1e308
    ties = 0
    for k in range(count):
        taken, top, ties = offer_nb(values[VALUES + k], top, ties, rng, 1e-9)
        if taken:
            best = k
    return best


assert (LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE) == (2, 3, 4)  # is_ballot_nb's range
assert MAX_OPTIONS <= TALLY - VALUES
assert TALLY + MAX_OPTIONS <= CHANCE
assert CHANCE_LESS + MAX_BOATS <= CACHE
assert CACHE + _CHANCES * MAX_BOATS <= SCRATCH
assert _BOAT_KEYS + _KEY_FIELDS * MAX_BOATS <= MEMO
assert OWN + MAX_PLAYERS * MAX_OPTIONS <= PREDICTED
assert PREDICTED + MAX_PLAYERS * _VOTER <= SCRATCH
assert (_NOW, _LEAK, _MOVE) == (0, 1, 2)  # the chances _EXPS keeps
assert _EXPS + (_MOVE + 1) * _EXP_STEPS <= SCRATCH
assert (_MOVE + 1) * _EXP_STEPS <= 63  # the bits of _first_nb's known
assert _EXPS_KNOWN < _KNOWN and _BALLOT_WANTED == _KNOWN + MAX_BOATS < SCRATCH
