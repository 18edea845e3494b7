"""Walk the Plank's compiled game loop: dice, eliminations, strategies, records.

The rules are those of :mod:`.reference`, which says them in readable Python; this
module says them again for speed and must agree with it game for game (the test
suite checks it). Moves and legal options live in :mod:`.moves_nb`. Nothing here
allocates inside the game loop: every buffer is made once per block of games.

Shapes (``n`` players, ``T = PLANK_LIMIT + 1`` positions, ``G`` games in the block):

* ``rng``    uint64 ``(n + 1, 4)``: stream 0 is the dice, stream ``1 + s`` seat ``s``'s strategy
* ``codes``  int64 ``(n,)``: strategy code per seat
* ``params`` float64 ``(n, MAX_PARAMS)``: strategy parameters per seat
"""

from typing import NamedTuple

import numpy as np

from balance.core import dispatch
from balance.core.bits_nb import lowest_bit_nb, popcount_nb
from balance.core.compile_cache import njit
from balance.core.lineup_nb import seat_lineup_nb
from balance.core.random_nb import below_nb, game_key_nb, run_key_nb, seed_stream_keyed_nb
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
from balance.games.walk_the_plank.cards import CARD_NAMES, GHOST_SET_ASIDE_MASK, N_CARDS
from balance.games.walk_the_plank.moves_nb import (
    ALL_CARDS,
    CARD_MASK,
    FIELD,
    MAX_FALLEN,
    MAX_OPTIONS,
    SHIP,
    TILES,
    Outcome,
    State,
    add_pirates_nb,
    clear_tile_nb,
    game_over_nb,
    in_game_nb,
    move_nb,
    option_at_nb,
    option_mask_nb,
    options_from_mask_nb,
    seat_at_nb,
    seats_with_pirates_nb,
)
from balance.games.walk_the_plank.rules import Rule

#: The records a block of games fills: kernels index them with the slots below, and
#: the engine, the reference engine and the record tables read them from here.
RECORDS = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("rounds"),
                Stat("finished", flag=True),
                Derived("winners"),
                Stat("ghost_seat", table=np.int8),  # -1 if no ghost played
                Stat("dolphin_face", column=None),  # -1 if not rolled; a column of faces
                Derived("dolphin_face"),
                Stat("kraken_calm", record="kraken_rolls", table=np.int16),
                Stat("kraken_wave", record="kraken_rolls", table=np.int16),
                Stat("kraken_kraken", record="kraken_rolls", table=np.int16),
                Stat("kraken_killed", table=np.int16),  # pirates the Kraken took
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "cards",
            np.int16,
            axes=(SEAT, Axis("card", N_CARDS, labels=CARD_NAMES)),
            entries=(
                Stat("revealed"),
                Stat("effect"),  # revealed and had an effect
                Stat("killed_own"),
                Stat("killed_others"),
                Stat("saved"),
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "seats",
            np.int8,
            axes=(SEAT,),
            entries=(
                Derived("strategy"),
                Stat("won", record="winners", flag=True),
                Stat("pirates_left"),
            ),
            slots_module=__name__,
        ),
    ),
    tables=("games", "seats", "cards"),
    length=("games", "rounds"),
)


class DecisionIds(NamedTuple):
    """Decision kinds, as an illegal-choice error reports them."""

    PROGRAM: int = 0
    CHOOSE: int = 1
    PUSH: int = 2


GameStat = RECORDS["games"].slots
CardStat = RECORDS["cards"].slots
SeatStat = RECORDS["seats"].slots
Decision = DecisionIds()
Error = error_slots(__name__, "CARD")  # CARD: the card whose option was chosen

STOP = -1
ILLEGAL = -1000  # no tile: a strategy chose outside its options
DOLPHIN_SHARK = 4
DOLPHIN_DOLPHIN = 5
RANDOM = 0  # the uniform-random strategy's code: the first shipped strategy

# The decisions a seat's strategy makes, called by the seat's code: the dispatchers of the
# shipped strategies (strategies/walk_the_plank.py) and a run's own are bound here when
# the loop is built (balance.core.dispatch.Dispatch).

#: What a strategy may write into: its scratch buffers (``obs``'s last two), its stream,
#: and its parameters (the seat's copy for the game: the search players remember there).
SCRATCH = "obs[7], obs[8], params"
#: Seat's programme for the round into ``out`` (int64, ``(3,)``).
program_nb = dispatch.Decision(
    "program",
    "obs, seat, available, params, rng, out",
    writable=SCRATCH + ", rng, out",
    returns_index=False,
)
#: Index of the chosen option among ``count >= 2``.
choose_nb = dispatch.Decision(
    "choose",
    "obs, seat, card, slot, opt_tile, opt_arg, count, params, rng",
    writable=SCRATCH + ", rng",
)
#: Dolphin step chosen among ``count >= 2`` (the last is stop).
push_nb = dispatch.Decision(
    "push", "obs, seat, opt_tile, opt_arg, count, params, rng", writable=SCRATCH + ", rng"
)


@njit(inline="always", cache=True)
def _strategy_option_nb(code, obs, seat, card, slot, mask, params, rng, opt_tile, opt_arg):
    """The option ``(tile, arg)`` of ``mask`` that the seat's strategy chooses.

    The strategy is asked only when there is a choice. An index outside the options
    comes back as ``(ILLEGAL, index)``.
    """
    state = obs[2]
    count = options_from_mask_nb(state[State.SEATS], state, seat, card, mask, opt_tile, opt_arg)
    pick = 0
    if count > 1:
        pick = choose_nb(code, obs, seat, card, slot, opt_tile, opt_arg, count, params, rng)
        if pick < 0 or pick >= count:
            return ILLEGAL, pick
    return opt_tile[pick], opt_arg[pick]


@njit(inline="always", cache=True)
def _roll_nb(state, dice_script, rng):
    cursor = state[State.DICE_CURSOR]
    if cursor < dice_script.shape[0]:
        state[State.DICE_CURSOR] = cursor + 1
        return dice_script[cursor]
    return below_nb(rng[0], 6)


@njit(cache=True)
def _dolphin_push_nb(obs, owner, steps, codes, params, rng, choice_script, moved, error):
    """Dolphin die number face: the owner moves up to ``steps`` distinct pirates seaward."""
    pirates, state, n = obs[0], obs[2], obs[6]
    opt_tile, opt_arg = obs[7], obs[8]
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
            pick = push_nb(
                codes[owner], obs, owner, opt_tile, opt_arg, count, params[owner], rng[1 + owner]
            )
        if pick < 0 or pick >= count:
            error[Error.SEAT] = owner
            error[Error.DECISION] = Decision.PUSH
            error[Error.VALUE] = pick
            return
        t = opt_tile[pick]
        if t == STOP:
            return
        q = opt_arg[pick]
        add_pirates_nb(pirates, state, q, t, -1)
        add_pirates_nb(pirates, state, q, t + 1, 1)
        moved[q, t + 1] += 1


@njit(inline="always", cache=True)
def resolve_card_nb(
    obs, seat, card, tile, arg, codes, params, rng, dice_script, choice_script, scratch, error
):
    """Carry out the legal option ``(tile, arg)`` of ``card`` for ``seat``.

    Changes the position in ``obs`` in place and writes what happened to ``outcome``
    (``scratch[0]``, int64 ``(Outcome.SIZE,)``). Dice come from ``dice_script`` while it
    lasts, then from ``rng[0]``; Dolphin choices from ``choice_script``, then from the
    owner's strategy. ``scratch`` is ``(outcome, fallen, moved)``.
    """
    pirates, living, state, rules, n = obs[0], obs[1], obs[2], obs[5], obs[6]
    outcome, fallen = scratch[0], scratch[1]
    for i in range(Outcome.SIZE):  # a loop of known length: no call to memset
        outcome[i] = 0
    outcome[Outcome.DOLPHIN_FACE] = -1
    n_fallen = move_nb(pirates, living, state, n, seat, card, tile, arg, fallen, outcome)
    if n_fallen == 0:
        return  # pirates only die by falling: nothing more can happen

    # Who had pirates when the card began: those with pirates now, and the fallen's owners.
    had_pirates = seats_with_pirates_nb(state[State.SEATS])
    for i in range(n_fallen):
        had_pirates |= 1 << fallen[i]

    if rules[Rule.DOLPHIN] != 0 or rules[Rule.KRAKEN] != 0:
        _fallen_meet_the_dice_nb(
            obs,
            seat,
            n_fallen,
            had_pirates,
            codes,
            params,
            rng,
            dice_script,
            choice_script,
            scratch,
            error,
        )
    else:
        for i in range(n_fallen):
            if fallen[i] == seat:
                outcome[Outcome.KILLED_OWN] += 1
            else:
                outcome[Outcome.KILLED_OTHERS] += 1

    _note_eliminations_nb(obs, seat, had_pirates, outcome)


@njit(cache=True)
def _fallen_meet_the_dice_nb(
    obs, seat, n_fallen, had_pirates, codes, params, rng, dice_script, choice_script, scratch, error
):
    """Fallen pirates meet the dice: owners clockwise from the acting player.

    A call of its own, not inlined, so that the game loop stays small without dice.
    """
    n = obs[6]
    outcome, fallen, moved = scratch
    for k in range(n):
        owner = seat_at_nb(seat, k, n)
        for i in range(n_fallen):
            if fallen[i] == owner:
                _meet_the_dice_nb(
                    obs,
                    seat,
                    had_pirates,
                    owner,
                    codes,
                    params,
                    rng,
                    dice_script,
                    choice_script,
                    outcome,
                    moved,
                    error,
                )


@njit(inline="always", cache=True)
def _note_eliminations_nb(obs, seat, had_pirates, outcome):
    """Players whose last pirate died since the card began are out; the first gets the ghost.

    Players out at the same moment are taken clockwise from the acting player.
    """
    living, state, rules, n = obs[1], obs[2], obs[5], obs[6]
    for k in range(n):
        s = seat_at_nb(seat, k, n)
        noted = (outcome[Outcome.ELIMINATED_MASK] >> s) & 1
        if (had_pirates >> s) & 1 and living[s] == 0 and not noted:
            outcome[Outcome.ELIMINATED_MASK] |= 1 << s
            if rules[Rule.GHOST] != 0 and state[State.GHOST_SEAT] < 0:
                state[State.GHOST_SEAT] = s
                state[State.GHOST_TILE] = SHIP
                state[State.GHOST_ACTIVE] = 0


@njit(cache=True)
def _meet_the_dice_nb(
    obs,
    seat,
    had_pirates,
    owner,
    codes,
    params,
    rng,
    dice_script,
    choice_script,
    outcome,
    moved,
    error,
):
    """One fallen pirate of ``owner``: the Dolphin die if it is the first, then the Kraken."""
    pirates, living, state, rules, n = obs[0], obs[1], obs[2], obs[5], obs[6]
    if rules[Rule.DOLPHIN] != 0 and state[State.DOLPHIN_ROLLED] == 0:
        state[State.DOLPHIN_ROLLED] = 1
        face = _roll_nb(state, dice_script, rng)
        outcome[Outcome.DOLPHIN_FACE] = face
        if face == DOLPHIN_DOLPHIN:
            # Back onto the last tile; Retract Plank is blocked to the end of next round.
            add_pirates_nb(pirates, state, owner, state[State.PLANK], 1)
            living[owner] += 1
            state[State.RETRACT_BLOCKED_THROUGH] = state[State.ROUND] + 1
            return
        if face != DOLPHIN_SHARK:
            _dolphin_push_nb(obs, owner, face + 2, codes, params, rng, choice_script, moved, error)
    if owner == seat:
        outcome[Outcome.KILLED_OWN] += 1
    else:
        outcome[Outcome.KILLED_OTHERS] += 1
    if rules[Rule.KRAKEN] != 0:
        # Who is out by now was out before the Kraken struck.
        _note_eliminations_nb(obs, seat, had_pirates, outcome)
        face = _roll_nb(state, dice_script, rng)
        last = state[State.PLANK]
        if face < 3:
            outcome[Outcome.KRAKEN_CALM] += 1
        elif face < 5:
            # Giant wave: the farthest occupied plank tile goes back to the ship.
            outcome[Outcome.KRAKEN_WAVE] += 1
            for t in range(last, 0, -1):
                if (state[State.SEATS] >> (FIELD * t)) & 0b11111:
                    for q in range(n):
                        add_pirates_nb(pirates, state, q, SHIP, pirates[q, t])
                    clear_tile_nb(pirates, state, n, t)
                    break
        else:
            outcome[Outcome.KRAKEN_KRAKEN] += 1
            for q in range(n):
                outcome[Outcome.KRAKEN_KILLED] += pirates[q, last]
                living[q] -= pirates[q, last]
            clear_tile_nb(pirates, state, n, last)
            _note_eliminations_nb(obs, seat, had_pirates, outcome)


@njit(inline="always", cache=True)
def start_position_nb(pirates, living, state, rules, n):
    """The opening position: every pirate on the ship, seat 0 the captain, round 1."""
    for s in range(n):
        for t in range(TILES):
            pirates[s, t] = 0
        pirates[s, SHIP] = rules[Rule.PIRATES]
        living[s] = rules[Rule.PIRATES]
    for i in range(State.SIZE):
        state[i] = 0
    state[State.PLANK] = rules[Rule.PLANK_START]
    state[State.ROUND] = 1
    state[State.GHOST_SEAT] = -1
    state[State.OCCUPIED + SHIP] = (1 << n) - 1
    state[State.SEATS] = (1 << n) - 1  # everyone on the ship
    state[State.PAIRS] = (1 << n) - 1 if rules[Rule.PIRATES] > 1 else 0


@njit(inline="always", cache=True)
def _program_is_legal(program, available):
    used = 0
    for slot in range(3):
        card = program[slot]
        if card < 0 or card >= N_CARDS or not (available >> card) & 1 or (used >> card) & 1:
            return False
        used |= 1 << card
    return True


@njit(inline="always", cache=True)
def _encode_program(program):
    """Three card numbers in one integer for an error message: 100 * 100 * a + 100 * b + c."""
    return (program[0] * 100 + program[1]) * 100 + program[2]


@njit(cache=True, nogil=True)
def play_games_nb(n, rules, codes, params, seats_of, seed, first_game, games, cards, seats, error):
    """Play games ``first_game .. first_game + G - 1`` of the run seeded ``seed``.

    Parameters
    ----------
    n : number of players.
    rules : int64 ``(Rule.SIZE,)``, packed rule parameters.
    codes : int64 ``(K,)``, strategy code of each of the run's K strategies.
    params : float64 ``(K, MAX_PARAMS)``, their parameters.
    seats_of : int64 ``(R, 2n)``: in game ``i``, row ``i % R`` holds which strategy sits
        in each seat (columns ``0..n-1``) and the mask of cards each seat may never
        program (columns ``n..2n-1``, restricted play; 0 for none).
    games : int32 ``(G, GameStat.SIZE)``, per-game record, written here.
    cards : int16 ``(G, n, 10, CardStat.SIZE)``, per seat and card, written here; or, for
        a run that keeps only what its summary reads, int16 ``(G, 1, 10, 2)``: per card,
        reveals and reveals with an effect, summed over the seats.
    seats : int8 ``(G, n, 2)``, per seat: won (0/1) and pirates left, written here.
    error : int64 ``(Error.SIZE,)``: stays ``GAME = -1`` unless a strategy made an illegal
        choice; then it names the game, seat, decision and value, and play stops.

    ``games``, ``cards`` and ``seats`` must come filled with zeros (``np.zeros``): the
    loop only adds to them. Returns the number of games completed (``G`` unless a
    strategy erred).
    """
    # Every buffer is made here, once; the game loop itself runs without reference
    # counting, which would otherwise cost half its time, and with numpy's error model
    # (no zero-division checks: every divisor in the loop is a positive count).
    work = (
        np.zeros((n, TILES), dtype=np.int64),  # pirates
        np.zeros(n, dtype=np.int64),  # living
        np.zeros(State.SIZE, dtype=np.int64),  # state
        np.zeros((n + 1, 4), dtype=np.uint64),  # rng
        np.zeros(n, dtype=np.int64),  # resting
        np.zeros(n, dtype=np.int64),  # rested
        np.zeros((n, 3), dtype=np.int64),  # shown
        np.zeros((n, 3), dtype=np.int64),  # programs
        np.zeros(Outcome.SIZE, dtype=np.int64),  # outcome
        np.zeros(MAX_FALLEN, dtype=np.int64),  # fallen
        np.zeros((n, TILES), dtype=np.int64),  # moved
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_tile
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_arg
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_tile
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_arg
        np.zeros(n, dtype=np.int64),  # seat_codes
        np.zeros((n, MAX_PARAMS), dtype=np.float64),  # seat_params
        np.zeros(0, dtype=np.int64),  # no_script
        np.zeros(n * N_CARDS * CardStat.SIZE, dtype=np.int16),  # tally
    )
    flat_cards = cards.reshape(cards.shape[0], cards.shape[1] * cards.shape[2] * cards.shape[3])
    return _play_nb(
        n, rules, codes, params, seats_of, seed, first_game, games, flat_cards, seats, error, work
    )


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_nb(n, rules, codes, params, seats_of, seed, first_game, games, cards, seats, error, work):
    """The game loop of :func:`play_games_nb`, over the buffers in ``work``.

    Compiled without numba's runtime: nothing here (or in a shipped strategy it calls)
    may allocate an array. ``cards`` comes flattened to ``(G, n * 10 * CardStat.SIZE)``
    (or ``(G, 10 * 2)``: reveals and effects per card, summed over seats); a game counts
    into the small ``tally`` (which stays in cache) and copies it out at its end, rather
    than adding into a fresh row of the large record for every card.
    """
    pirates, living, state, rng, resting, rested, shown, programs = work[:8]
    outcome, fallen, moved, opt_tile, opt_arg, scratch_tile, scratch_arg = work[8:15]
    seat_codes, seat_params, no_script, tally = work[15:]
    rest_mask = rules[Rule.REST_MASK]
    round_cap = rules[Rule.ROUND_CAP]
    dice = rules[Rule.DOLPHIN] != 0 or rules[Rule.KRAKEN] != 0
    obs = (pirates, living, state, resting, shown, rules, n, scratch_tile, scratch_arg)
    scratch = (outcome, fallen, moved)
    error[:] = -1
    run_key = run_key_nb(seed)

    for g in range(games.shape[0]):
        game = first_game + g
        row = seats_of[game % seats_of.shape[0]]
        if g == 0 or seats_of.shape[0] > 1:  # one row: the same table every game
            seat_lineup_nb(game, codes, params, seats_of, n, seat_codes, seat_params)
        game_key = game_key_nb(run_key, game)
        for stream in range(n + 1):
            seed_stream_keyed_nb(rng[stream], game_key, stream)
        start_position_nb(pirates, living, state, rules, n)
        for s in range(n):
            resting[s] = 0
        games[g, GameStat.DOLPHIN_FACE] = -1
        finished = False

        while True:
            for s in range(n):
                for slot in range(3):
                    shown[s, slot] = -1
            for s in range(n):
                if in_game_nb(living, state, s):
                    available = ALL_CARDS & ~resting[s] & ~row[n + s]
                    if s == state[State.GHOST_SEAT]:
                        available &= ~GHOST_SET_ASIDE_MASK
                    program_nb(
                        seat_codes[s], obs, s, available, seat_params[s], rng[1 + s], programs[s]
                    )
                    if seat_codes[s] != RANDOM and not _program_is_legal(programs[s], available):
                        error[Error.GAME] = game
                        error[Error.SEAT] = s
                        error[Error.DECISION] = Decision.PROGRAM
                        error[Error.VALUE] = _encode_program(programs[s])
                        return g
            for s in range(n):
                rested[s] = 0
            for slot in range(3):
                for k in range(n):
                    s = seat_at_nb(state[State.CAPTAIN], k, n)
                    if not in_game_nb(living, state, s):
                        continue
                    card = programs[s, slot] & CARD_MASK  # a legal program: 0..9
                    shown[s, slot] = card
                    at = (s * N_CARDS + card) * CardStat.SIZE
                    tally[at + CardStat.REVEALED] += 1
                    rested[s] |= rest_mask & (1 << card)
                    seats_now = state[State.SEATS]
                    mask = option_mask_nb(
                        seats_now, state[State.PAIRS], living, state, rules, n, s, card, slot
                    )
                    if mask == 0:
                        continue
                    tally[at + CardStat.EFFECT] += 1
                    if seat_codes[s] == RANDOM:
                        # The uniform-random strategy, as its choose does it: one draw
                        # below(count) when there is a choice. Option k is the k-th set bit.
                        if mask & (mask - 1):
                            for _ in range(below_nb(rng[1 + s], popcount_nb(mask))):
                                mask &= mask - 1
                        tile, arg = option_at_nb(seats_now, state, s, card, lowest_bit_nb(mask))
                    else:
                        tile, arg = _strategy_option_nb(
                            seat_codes[s],
                            obs,
                            s,
                            card,
                            slot,
                            mask,
                            seat_params[s],
                            rng[1 + s],
                            opt_tile,
                            opt_arg,
                        )
                        if tile == ILLEGAL:
                            error[Error.GAME] = game
                            error[Error.SEAT] = s
                            error[Error.DECISION] = Decision.CHOOSE
                            error[Error.VALUE] = arg
                            error[Error.CARD] = card
                            return g
                    resolve_card_nb(
                        obs,
                        s,
                        card,
                        tile,
                        arg,
                        seat_codes,
                        seat_params,
                        rng,
                        no_script,
                        no_script,
                        scratch,
                        error,
                    )
                    if error[Error.DECISION] >= 0:
                        error[Error.GAME] = game
                        return g
                    if outcome[Outcome.SAVED] > 0:
                        tally[at + CardStat.SAVED] += outcome[Outcome.SAVED]
                    if outcome[Outcome.KILLED_OWN] + outcome[Outcome.KILLED_OTHERS] > 0:
                        tally[at + CardStat.KILLED_OWN] += outcome[Outcome.KILLED_OWN]
                        tally[at + CardStat.KILLED_OTHERS] += outcome[Outcome.KILLED_OTHERS]
                        if dice:
                            games[g, GameStat.KRAKEN_CALM] += outcome[Outcome.KRAKEN_CALM]
                            games[g, GameStat.KRAKEN_WAVE] += outcome[Outcome.KRAKEN_WAVE]
                            games[g, GameStat.KRAKEN_KRAKEN] += outcome[Outcome.KRAKEN_KRAKEN]
                            games[g, GameStat.KRAKEN_KILLED] += outcome[Outcome.KRAKEN_KILLED]
                    if dice and outcome[Outcome.DOLPHIN_FACE] >= 0:
                        games[g, GameStat.DOLPHIN_FACE] = outcome[Outcome.DOLPHIN_FACE]

            # End of the round: rest cards, the ghost wakes, the Captain's Favor passes right.
            for s in range(n):
                resting[s] = rested[s]
            if state[State.GHOST_SEAT] >= 0:
                state[State.GHOST_ACTIVE] = 1
            captain = state[State.CAPTAIN]
            for k in range(1, n + 1):
                c = seat_at_nb(captain, -k, n) if k < n else captain
                if in_game_nb(living, state, c):
                    state[State.CAPTAIN] = c
                    break

            finished = game_over_nb(living, n)
            if finished or state[State.ROUND] >= round_cap:
                break
            state[State.ROUND] += 1

        if cards.shape[1] == tally.shape[0]:
            for i in range(tally.shape[0]):
                cards[g, i] = tally[i]
                tally[i] = 0
        else:  # what a summary reads: per card, reveals and effects of all seats
            for c in range(N_CARDS):
                revealed = 0
                effect = 0
                for s in range(n):
                    at = (s * N_CARDS + c) * CardStat.SIZE
                    revealed += tally[at + CardStat.REVEALED]
                    effect += tally[at + CardStat.EFFECT]
                cards[g, 2 * c] = revealed
                cards[g, 2 * c + 1] = effect
            for i in range(tally.shape[0]):
                tally[i] = 0
        games[g, GameStat.ROUNDS] = state[State.ROUND]
        games[g, GameStat.FINISHED] = finished
        games[g, GameStat.GHOST_SEAT] = state[State.GHOST_SEAT]
        for s in range(n):
            seats[g, s, SeatStat.WON] = finished and living[s] > 0
            seats[g, s, SeatStat.PIRATES_LEFT] = living[s]
    return games.shape[0]
