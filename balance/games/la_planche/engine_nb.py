"""La Planche's compiled game loop: colours, spinner, strategies, rounds, records.

The rules are those of :mod:`.reference`, which says them in readable Python; this
module says them again for speed and must agree with it game for game (the test
suite checks it). Moves and legal options live in :mod:`.moves_nb`. Nothing here
allocates inside the game loop: every buffer is made once per block of games.

Shapes (``n`` players, ``G`` games in the block):

* ``rng``    uint64 ``(n + 1, 4)``: stream 0 is chance (colours, spinner), ``1 + s`` seat ``s``
* ``codes``  int64 ``(K,)``: strategy code of each of the run's strategies
* ``params`` float64 ``(K, MAX_PARAMS)``: their parameters
"""

from typing import NamedTuple

import numpy as np

from balance.core import dispatch
from balance.core.compile_cache import njit
from balance.core.lineup_nb import seat_lineup_nb
from balance.core.random_nb import below_nb, seed_stream_nb
from balance.core.records import (
    SEAT,
    Axis,
    Derived,
    RecordArray,
    RecordLayout,
    Stat,
    error_slots,
)
from balance.core.strategy import MAX_PARAMS
from balance.games.la_planche.moves_nb import (
    EMPTY,
    LINE_SIZE,
    MAX_FALLS,
    MAX_OPTIONS,
    N_ACTIONS,
    NOTHING,
    PUSH,
    State,
    apply_option_nb,
    count_options_nb,
    evidence_nb,
    legal_options_nb,
    mandatory_push_nb,
    rear_nb,
    start_line_nb,
)
from balance.games.la_planche.rules import ACTIONS, COLOUR_NAMES, N_COLOURS, Rule

#: The records a block of games fills: kernels index them with the slots below, and
#: the engine, the reference engine and the record tables read them from here.
RECORDS = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("turns"),
                Stat("finished", flag=True),
                Derived("winners"),
                Stat("rounds", table=np.int16),
                Stat("last_colour", labels=COLOUR_NAMES),  # -1 if unfinished
                Derived("fall_order"),  # the colours of ``fell``, as letters
                Stat("falls", column=None),  # prisoners fallen in the last round
                Stat(  # rounds variant: points each colour's prisoners scored
                    "colour_points",
                    N_COLOURS,
                    table=np.int16,
                    column=tuple(f"points_{name}" for name in COLOUR_NAMES),
                ),
            ),
            slots_module=__name__,
        ),
        # Colours in the order they fell in the last round, -1 after the last fall.
        RecordArray("fell", np.int8, axes=(Axis("fall", MAX_FALLS),), fill=-1, record="fell"),
        RecordArray(
            "seats",
            np.int32,
            axes=(SEAT,),
            entries=(
                Derived("strategy"),
                Stat("won", flag=True),
                Stat("colour", labels=COLOUR_NAMES),  # in the last round
                Stat("score", table=np.int16),
                Stat("turns", record="turns_taken"),
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "actions",
            np.int32,
            axes=(SEAT, Axis("action", N_ACTIONS, labels=ACTIONS)),
            entries=(
                Stat("done"),
                Stat("fell_own"),
                Stat("fell_other"),
                Stat("offered"),  # spun beside a different symbol, both with options: a choice
                Stat("chosen"),  # chosen in such a choice
            ),
            slots_module=__name__,
        ),
    ),
    tables=("games", "seats", "actions"),
    length=("games", "turns"),
)


class OutcomeSlots(NamedTuple):
    """What one turn did (int64 ``(SIZE,)``)."""

    ACTION: int = 0  # SWAP, ADVANCE, MOVE or NOTHING
    OPTION_A: int = 1
    OPTION_B: int = 2
    FELL: int = 3  # colour the action made fall, or EMPTY
    PUSHED: int = 4
    FELL_PUSH: int = 5
    ENDED: int = 6
    ERROR_DECISION: int = 7  # -1 unless the strategy answered outside its options
    ERROR_VALUE: int = 8
    CHOICE: int = 9  # 1 if both symbols spun differ and have options
    SIZE: int = 10


class DecisionIds(NamedTuple):
    """Decision kinds, as an illegal-choice error reports them."""

    SYMBOL: int = 0
    CHOOSE: int = 1


GameStat = RECORDS["games"].slots
SeatStat = RECORDS["seats"].slots
ActionStat = RECORDS["actions"].slots
Outcome = OutcomeSlots()
Decision = DecisionIds()
Error = error_slots(__name__, "SYMBOL")  # SYMBOL: the symbol whose option was chosen

SCRIPTED = -1  # strategy code that answers params[0] (symbol) and params[1] (option)

# The decisions a seat's strategy makes, called by the seat's code: the dispatchers of the
# shipped strategies (strategies/la_planche.py) and a run's own are bound here when the
# loop is built (balance.core.dispatch.Dispatch).

#: 0 (first symbol) or 1 (second).
#: What a strategy may write into: its scratch buffers (``obs``'s last five), its stream.
WRITABLE = "obs[5], obs[6], obs[7], obs[8], obs[9], rng"
symbol_nb = dispatch.Decision(
    "symbol", "obs, seat, colour, first, second, params, rng", writable=WRITABLE
)
#: Index of the chosen option among ``count >= 2``.
choose_nb = dispatch.Decision(
    "choose", "obs, seat, colour, symbol, opt_a, opt_b, count, params, rng", writable=WRITABLE
)


@njit(inline="always", cache=True)
def scripted_symbol_nb(obs, seat, colour, first, second, params, rng):
    """The :data:`SCRIPTED` code's symbol: ``params[0]``."""
    return np.int64(params[0])


@njit(inline="always", cache=True)
def scripted_choose_nb(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    """The :data:`SCRIPTED` code's option: ``params[1]``."""
    return np.int64(params[1])


@njit(inline="always", cache=True)
def spin_nb(rng, rules, total):
    """One spinner symbol: ``below(total)`` through the cumulative weights."""
    r = below_nb(rng, total)
    cumulative = 0
    for symbol in range(3):
        cumulative += rules[Rule.W_SWAP + symbol]
        if r < cumulative:
            return symbol
    return 3


@njit(inline="always", cache=True)
def draw_colours_nb(rng, n, colours, owner):
    """Each seat's secret colour into ``colours`` (n,), each colour's seat into ``owner`` (4,)."""
    for c in range(N_COLOURS):
        owner[c] = c  # used as the permutation first
    for i in range(N_COLOURS):
        j = i + below_nb(rng, N_COLOURS - i)
        c = owner[i]
        owner[i] = owner[j]
        owner[j] = c
    for s in range(n):
        colours[s] = owner[s]
    for c in range(N_COLOURS):
        owner[c] = -1
    for s in range(n):
        owner[colours[s]] = s


@njit(cache=True)
def resolve_turn_nb(
    obs, seat, colour, first, second, code, params, rng, opt_a, opt_b, outcome, forbidden
):
    """One turn of ``seat`` after the spinner showed ``first`` and ``second``.

    Changes the position and the evidence in ``obs``, writes what happened in ``outcome``.
    If the strategy answers outside its options, ``outcome[Outcome.ERROR_DECISION]`` names
    the decision and the turn stops there. ``forbidden`` is a symbol the seat may never
    choose when it has the choice (restricted play), or -1: offered it beside another
    usable symbol, the seat plays the other without being asked.
    """
    line, state, rules, evidence = obs[0], obs[1], obs[2], obs[4]
    outcome[Outcome.ACTION] = NOTHING
    outcome[Outcome.OPTION_A] = -1
    outcome[Outcome.OPTION_B] = -1
    outcome[Outcome.FELL] = EMPTY
    outcome[Outcome.PUSHED] = 0
    outcome[Outcome.FELL_PUSH] = EMPTY
    outcome[Outcome.ENDED] = 0
    outcome[Outcome.ERROR_DECISION] = -1
    outcome[Outcome.CHOICE] = 0
    count_first = count_options_nb(line, state, rules, first)
    count_second = 0
    if second != first:
        count_second = count_options_nb(line, state, rules, second)
    symbol = -1
    if count_first > 0 and count_second > 0:
        outcome[Outcome.CHOICE] = 1
        if first == forbidden:
            pick = 1
        elif second == forbidden:
            pick = 0
        else:
            pick = symbol_nb(code, obs, seat, colour, first, second, params, rng)
        if pick == 0:
            symbol = first
        elif pick == 1:
            symbol = second
        else:
            outcome[Outcome.ERROR_DECISION] = Decision.SYMBOL
            outcome[Outcome.ERROR_VALUE] = pick
            return
    elif count_first > 0:
        symbol = first
    elif count_second > 0:
        symbol = second
    if symbol >= 0:
        count = legal_options_nb(line, state, rules, symbol, opt_a, opt_b)
        k = 0
        if count > 1:
            k = choose_nb(code, obs, seat, colour, symbol, opt_a, opt_b, count, params, rng)
            if k < 0 or k >= count:
                outcome[Outcome.ERROR_DECISION] = Decision.CHOOSE
                outcome[Outcome.ERROR_VALUE] = k
                outcome[Outcome.ACTION] = symbol
                return
        a = opt_a[k]
        b = opt_b[k]
        evidence_nb(line, rules, evidence[seat], symbol, a, b)
        outcome[Outcome.ACTION] = symbol
        outcome[Outcome.OPTION_A] = a
        outcome[Outcome.OPTION_B] = b
        outcome[Outcome.FELL] = apply_option_nb(line, state, rules, symbol, a, b)
    if state[State.PRISONERS] == 1:
        outcome[Outcome.ENDED] = 1
        return
    outcome[Outcome.PUSHED] = 1
    outcome[Outcome.FELL_PUSH] = mandatory_push_nb(line, state, rules)
    if state[State.PRISONERS] == 1:
        outcome[Outcome.ENDED] = 1


@njit(cache=True, nogil=True)
def play_games_nb(
    n, rules, codes, params, seats_of, seed, first_game, games, fell, seats, actions, error
):
    """Play games ``first_game .. first_game + G - 1`` of the run seeded ``seed``.

    Parameters
    ----------
    n : number of players.
    rules : int64 ``(Rule.SIZE,)``, packed rule parameters.
    codes : int64 ``(K,)``, strategy code of each of the run's K strategies.
    params : float64 ``(K, MAX_PARAMS)``, their parameters.
    seats_of : int64 ``(R, 2n)``: in game ``i``, row ``i % R`` holds which strategy sits in
        each seat (columns ``0..n-1``), then the symbol each seat may never choose when it
        has the choice (columns ``n..2n-1``; restricted play, -1 for none).
    games : int32 ``(G, GameStat.SIZE)``, per-game record, written here.
    fell : int8 ``(G, MAX_FALLS)``: colours in the order they fell in the last round,
        written here; must come filled with -1.
    seats : int32 ``(G, n, SeatStat.SIZE)``, per seat, written here.
    actions : int32 ``(G, n, N_ACTIONS, ActionStat.SIZE)``, per seat and action.
    error : int64 ``(Error.SIZE,)``: stays ``GAME = -1`` unless a strategy made an illegal
        choice; then it names the game, seat, decision and value, and play stops.

    ``games``, ``seats`` and ``actions`` must come filled with zeros: the loop only adds
    to them. Returns the number of games completed (``G`` unless a strategy erred).
    """
    work = (
        np.zeros(LINE_SIZE, dtype=np.int64),  # line
        np.zeros(State.SIZE, dtype=np.int64),  # state
        np.zeros((n, N_COLOURS), dtype=np.int64),  # evidence
        np.zeros((n + 1, 4), dtype=np.uint64),  # rng
        np.zeros(n, dtype=np.int64),  # colours
        np.zeros(N_COLOURS, dtype=np.int64),  # owner
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_a
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_b
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_a
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_b
        np.zeros(LINE_SIZE, dtype=np.int64),  # scratch_line
        np.zeros(State.SIZE, dtype=np.int64),  # scratch_state
        np.zeros(N_COLOURS, dtype=np.float64),  # scratch_value
        np.zeros(Outcome.SIZE, dtype=np.int64),  # outcome
        np.zeros(n, dtype=np.int64),  # seat_codes
        np.zeros((n, MAX_PARAMS), dtype=np.float64),  # seat_params
        np.zeros(n, dtype=np.int64),  # scores
    )
    records = (games, fell, seats, actions)
    return _play_nb(n, rules, codes, params, seats_of, seed, first_game, records, error, work)


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_nb(n, rules, codes, params, seats_of, seed, first_game, records, error, work):
    """The game loop of :func:`play_games_nb`, over the buffers in ``work``.

    Compiled without numba's runtime: nothing here (or in a shipped strategy it calls)
    may allocate an array.
    """
    games, fell, seats, actions = records
    line, state, evidence, rng, colours, owner, opt_a, opt_b = work[:8]
    scratch_a, scratch_b, scratch_line, scratch_state, scratch_value = work[8:13]
    outcome, seat_codes, seat_params, scores = work[13:]
    obs = (
        line,
        state,
        rules,
        n,
        evidence,
        scratch_a,
        scratch_b,
        scratch_line,
        scratch_state,
        scratch_value,
    )
    total_weight = (
        rules[Rule.W_SWAP] + rules[Rule.W_ADVANCE] + rules[Rule.W_MOVE] + rules[Rule.W_SKULL]
    )
    turn_cap = rules[Rule.TURN_CAP]
    round_cap = rules[Rule.ROUND_CAP]
    rounds_variant = rules[Rule.ROUNDS] != 0
    target = rules[Rule.TARGET]
    spaces = rules[Rule.SPACES]
    points_last = rules[Rule.POINTS]
    points_second = rules[Rule.POINTS + 1]
    points_third = rules[Rule.POINTS + 2]
    error[:] = -1

    for g in range(games.shape[0]):
        game = first_game + g
        row = seat_lineup_nb(game, codes, params, seats_of, n, seat_codes, seat_params)
        for stream in range(n + 1):
            seed_stream_nb(rng[stream], seed, game, stream)
        for s in range(n):
            scores[s] = 0
        turns = 0
        round_number = 0
        finished = False
        last_colour = -1
        falls = 0

        while True:
            round_number += 1
            draw_colours_nb(rng[0], n, colours, owner)
            start_line_nb(line, state, rules)
            evidence[:, :] = 0
            first_seat = (round_number - 1) % n
            state[State.ROUND] = round_number
            state[State.FIRST_SEAT] = first_seat
            for s in range(n):
                state[State.SCORE + s] = scores[s]
            for k in range(falls):
                fell[g, k] = -1
            falls = 0
            ended = False
            seat = first_seat
            turn = 0
            while turn < turn_cap:
                turn += 1
                state[State.TURN] = turn
                turns += 1
                seats[g, seat, SeatStat.TURNS] += 1
                first = spin_nb(rng[0], rules, total_weight)
                second = spin_nb(rng[0], rules, total_weight)
                colour = colours[seat]
                resolve_turn_nb(
                    obs,
                    seat,
                    colour,
                    first,
                    second,
                    seat_codes[seat],
                    seat_params[seat],
                    rng[1 + seat],
                    opt_a,
                    opt_b,
                    outcome,
                    row[n + seat],
                )
                if outcome[Outcome.ERROR_DECISION] >= 0:
                    error[Error.GAME] = game
                    error[Error.SEAT] = seat
                    error[Error.DECISION] = outcome[Outcome.ERROR_DECISION]
                    error[Error.VALUE] = outcome[Outcome.ERROR_VALUE]
                    error[Error.SYMBOL] = outcome[Outcome.ACTION]
                    return g
                action = outcome[Outcome.ACTION]
                actions[g, seat, action, ActionStat.DONE] += 1
                if outcome[Outcome.CHOICE] != 0:
                    actions[g, seat, first, ActionStat.OFFERED] += 1
                    actions[g, seat, second, ActionStat.OFFERED] += 1
                    actions[g, seat, action, ActionStat.CHOSEN] += 1
                fallen = outcome[Outcome.FELL]
                if fallen != EMPTY:
                    fell[g, falls] = fallen
                    falls += 1
                    if fallen == colour:
                        actions[g, seat, action, ActionStat.FELL_OWN] += 1
                    else:
                        actions[g, seat, action, ActionStat.FELL_OTHER] += 1
                if outcome[Outcome.PUSHED] != 0:
                    actions[g, seat, PUSH, ActionStat.DONE] += 1
                    fallen = outcome[Outcome.FELL_PUSH]
                    if fallen != EMPTY:
                        fell[g, falls] = fallen
                        falls += 1
                        if fallen == colour:
                            actions[g, seat, PUSH, ActionStat.FELL_OWN] += 1
                        else:
                            actions[g, seat, PUSH, ActionStat.FELL_OTHER] += 1
                if outcome[Outcome.ENDED] != 0:
                    ended = True
                    break
                seat += 1
                if seat == n:
                    seat = 0

            if not ended:
                break
            last = line[rear_nb(line, spaces)]
            if not rounds_variant:
                finished = True
                last_colour = last
                if owner[last] >= 0:
                    seats[g, owner[last], SeatStat.WON] = 1
                break
            second_last = fell[g, falls - 1]
            third_last = fell[g, falls - 2]
            games[g, GameStat.COLOUR_POINTS + last] += points_last
            games[g, GameStat.COLOUR_POINTS + second_last] += points_second
            games[g, GameStat.COLOUR_POINTS + third_last] += points_third
            if owner[last] >= 0:
                scores[owner[last]] += points_last
            if owner[second_last] >= 0:
                scores[owner[second_last]] += points_second
            if owner[third_last] >= 0:
                scores[owner[third_last]] += points_third
            best = 0
            for s in range(n):
                if scores[s] > best:
                    best = scores[s]
            if best >= target:
                finished = True
                last_colour = last
                for s in range(n):
                    if scores[s] == best:
                        seats[g, s, SeatStat.WON] = 1
                break
            if round_number >= round_cap:
                break

        games[g, GameStat.TURNS] = turns
        games[g, GameStat.FINISHED] = finished
        games[g, GameStat.ROUNDS] = round_number
        games[g, GameStat.LAST_COLOUR] = last_colour
        games[g, GameStat.FALLS] = falls
        for s in range(n):
            seats[g, s, SeatStat.COLOUR] = colours[s]
            if rounds_variant:
                seats[g, s, SeatStat.SCORE] = scores[s]
    return games.shape[0]
