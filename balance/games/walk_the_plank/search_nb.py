"""Walk the Plank played on from any position, and the determinizations search players sample.

Pure ``@njit`` code. A *position* is everything the game loop of :mod:`.engine_nb`
keeps between two steps of a game, in a tuple of arrays (``n`` players,
``T = PLANK_LIMIT + 1`` positions)::

    (pirates, living, state, resting, shown, rules, n, scratch_tile, scratch_arg,
     rested, programs, banned, where)

The first nine are the ``obs`` tuple that strategies and :func:`.engine_nb.resolve_card_nb`
read; then ``rested`` int64 ``(n,)`` (cards with the rest symbol revealed this round),
``programs`` int64 ``(n, 3)`` (every seat's programme of the round), ``banned`` int64
``(n,)`` (cards each seat may never programme, restricted play) and ``where`` int64
``(Where.SIZE,)``: the *step* the game stands at (``-1``: the round's programmes are
still to be made; ``slot * n + k``: the seat ``k`` places clockwise from the captain is
to reveal its card of ``slot``) and whether the game is over (:class:`StatusCodes`).

:func:`advance_nb` plays a position on, step by step, with the shipped strategies,
drawing from the same streams in the same order as the game loop of :mod:`.engine_nb`
does (stream 0 the dice, ``1 + s`` seat ``s``): so a game played to step ``k``, copied
with :func:`copy_position_nb` and played on gives the game played straight through.

The search players (:mod:`.players_nb`, ``docs/walk-the-plank.md``) sample a
*determinization* with :func:`determinize_nb`: the other seats' cards of the round not
yet revealed, drawn uniformly among the programmes consistent with what has been
revealed (or, with the players' ``guess=rollout``, :func:`determinize_as_nb`: the
programmes their rollout strategy would make), and play on from there. Every buffer is
made once per decision; the playouts allocate nothing.
"""

from typing import NamedTuple

import numpy as np

from balance.core.bits_nb import popcount_nb
from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb, seed_stream_nb
from balance.games.walk_the_plank import engine_nb as E
from balance.games.walk_the_plank.cards import GHOST_SET_ASIDE_MASK
from balance.games.walk_the_plank.kit import KTH_CARD
from balance.games.walk_the_plank.moves_nb import (
    ALL_CARDS,
    CARD_MASK,
    MAX_FALLEN,
    MAX_OPTIONS,
    TILES,
    Outcome,
    State,
    game_over_nb,
    in_game_nb,
    option_mask_nb,
    seat_at_nb,
)
from balance.games.walk_the_plank.rules import Rule


class WhereSlots(NamedTuple):
    """Layout of a position's ``where`` array."""

    STEP: int = 0
    STATUS: int = 1
    SIZE: int = 2


class StatusCodes(NamedTuple):
    RUNNING: int = 0
    FINISHED: int = 1  # ended by the rules: survivors win
    CAPPED: int = 2  # reached the round cap: unfinished, no winner


Where = WhereSlots()
Status = StatusCodes()

#: Steps a game can take at most: far more than any game (the round cap is at most 10,000).
NO_LIMIT = 1 << 62


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


@njit(cache=True)
def new_position_nb(n, rules):
    """Fresh buffers for a position of ``n`` players (the opening position is not set)."""
    return (
        np.zeros((n, TILES), dtype=np.int64),  # pirates
        np.zeros(n, dtype=np.int64),  # living
        np.zeros(State.SIZE, dtype=np.int64),  # state
        np.zeros(n, dtype=np.int64),  # resting
        np.full((n, 3), -1, dtype=np.int64),  # shown
        rules,
        n,
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_tile
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_arg
        np.zeros(n, dtype=np.int64),  # rested
        np.zeros((n, 3), dtype=np.int64),  # programs
        np.zeros(n, dtype=np.int64),  # banned
        np.zeros(Where.SIZE, dtype=np.int64),  # where
    )


@njit(cache=True)
def new_work_nb(n):
    """Scratch buffers of :func:`advance_nb`: ``(outcome, fallen, moved, opt_tile, opt_arg,
    no_script, error)``."""
    return (
        np.zeros(Outcome.SIZE, dtype=np.int64),
        np.zeros(MAX_FALLEN, dtype=np.int64),
        np.zeros((n, TILES), dtype=np.int64),
        np.zeros(MAX_OPTIONS, dtype=np.int64),
        np.zeros(MAX_OPTIONS, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.full(E.Error.SIZE, -1, dtype=np.int64),
    )


@njit(inline="always", cache=True)
def start_nb(pos):
    """The opening position, before the first round's programmes."""
    E.start_position_nb(pos[0], pos[1], pos[2], pos[5], pos[6])
    n = pos[6]
    for s in range(n):
        pos[3][s] = 0
        pos[9][s] = 0
        for slot in range(3):
            pos[4][s, slot] = -1
            pos[10][s, slot] = -1
    pos[12][Where.STEP] = -1
    pos[12][Where.STATUS] = Status.RUNNING


@njit(inline="always", cache=True)
def copy_position_nb(src, dst):
    """Copy every array of position ``src`` into ``dst`` (same ``n`` and rules)."""
    n = src[6]
    for s in range(n):
        for t in range(TILES):
            dst[0][s, t] = src[0][s, t]
        dst[1][s] = src[1][s]
        dst[3][s] = src[3][s]
        dst[9][s] = src[9][s]
        dst[11][s] = src[11][s]
        for slot in range(3):
            dst[4][s, slot] = src[4][s, slot]
            dst[10][s, slot] = src[10][s, slot]
    for i in range(State.SIZE):
        dst[2][i] = src[2][i]
    for i in range(Where.SIZE):
        dst[12][i] = src[12][i]


@njit(inline="always", cache=True)
def available_nb(pos, seat):
    """Cards ``seat`` may programme this round: not resting, not banned, not set aside."""
    available = ALL_CARDS & ~pos[3][seat] & ~pos[11][seat]
    if seat == pos[2][State.GHOST_SEAT]:
        available &= ~GHOST_SET_ASIDE_MASK
    return available


# ---------------------------------------------------------------------------
# Playing on
# ---------------------------------------------------------------------------


@njit(inline="always", cache=True)
def program_all_nb(pos, codes, params, rng):
    """The round's programmes of every seat in the game, by its strategy."""
    living, state, shown, n = pos[1], pos[2], pos[4], pos[6]
    rested, programs = pos[9], pos[10]
    obs = pos[:9]
    for s in range(n):
        rested[s] = 0
        for slot in range(3):
            shown[s, slot] = -1
    for s in range(n):
        if in_game_nb(living, state, s):
            E.program_nb(codes[s], obs, s, available_nb(pos, s), params[s], rng[1 + s], programs[s])
    pos[12][Where.STEP] = 0


@njit(inline="always", cache=True)
def reveal_nb(pos, step):
    """Step ``step`` reveals a card: returns ``(seat, card, slot, option mask)``, or a
    seat of -1 when the seat whose turn it is is out of the game."""
    living, state, shown, rules, n = pos[1], pos[2], pos[4], pos[5], pos[6]
    slot = step // n
    s = seat_at_nb(state[State.CAPTAIN], step - slot * n, n)
    if not in_game_nb(living, state, s):
        return -1, 0, slot, 0
    card = pos[10][s, slot] & CARD_MASK
    shown[s, slot] = card
    pos[9][s] |= rules[Rule.REST_MASK] & (1 << card)
    mask = option_mask_nb(
        state[State.SEATS], state[State.PAIRS], living, state, rules, n, s, card, slot
    )
    return s, card, slot, mask


@njit(inline="always", cache=True)
def end_round_nb(pos):
    """Rest cards, wake the ghost, pass the Captain's Favor; the game may end here."""
    living, state, resting, rules, n = pos[1], pos[2], pos[3], pos[5], pos[6]
    where = pos[12]
    for s in range(n):
        resting[s] = pos[9][s]
    if state[State.GHOST_SEAT] >= 0:
        state[State.GHOST_ACTIVE] = 1
    captain = state[State.CAPTAIN]
    for k in range(1, n + 1):
        c = seat_at_nb(captain, -k, n) if k < n else captain
        if in_game_nb(living, state, c):
            state[State.CAPTAIN] = c
            break
    if game_over_nb(living, n):
        where[Where.STATUS] = Status.FINISHED
    elif state[State.ROUND] >= rules[Rule.ROUND_CAP]:
        where[Where.STATUS] = Status.CAPPED
    else:
        state[State.ROUND] += 1
        where[Where.STEP] = -1


@njit(inline="always", cache=True)
def next_step_nb(pos):
    """Move past the step just played; the round ends after its last reveal."""
    step = pos[12][Where.STEP] + 1
    pos[12][Where.STEP] = step
    if step == 3 * pos[6]:
        end_round_nb(pos)


@njit(cache=True)
def advance_nb(pos, codes, params, rng, work, max_steps):
    """Play position ``pos`` on for at most ``max_steps`` steps, or to the end.

    Parameters
    ----------
    pos : a position (see the module's docstring), changed in place.
    codes : int64 ``(n,)``, the shipped strategy of each seat.
    params : float64 ``(n, MAX_PARAMS)``, their parameters.
    rng : uint64 ``(n + 1, 4)``: stream 0 the dice, ``1 + s`` seat ``s``.
    work : buffers from :func:`new_work_nb`.
    max_steps : steps to play: the round's programmes are one, each reveal one.

    Returns the number of steps played; ``pos[12][Where.STATUS]`` says whether the game
    is over.
    """
    obs = pos[:9]
    where = pos[12]
    outcome, fallen, moved, opt_tile, opt_arg, no_script, error = work
    scratch = (outcome, fallen, moved)
    taken = 0
    while where[Where.STATUS] == Status.RUNNING and taken < max_steps:
        taken += 1
        step = where[Where.STEP]
        if step < 0:
            program_all_nb(pos, codes, params, rng)
            continue
        s, card, slot, mask = reveal_nb(pos, step)
        if mask != 0:
            tile, arg = E._strategy_option_nb(
                codes[s], obs, s, card, slot, mask, params[s], rng[1 + s], opt_tile, opt_arg
            )
            E.resolve_card_nb(
                obs, s, card, tile, arg, codes, params, rng, no_script, no_script, scratch, error
            )
        next_step_nb(pos)
    return taken


@njit(inline="always", cache=True)
def result_nb(pos, seat):
    """1.0 if ``seat`` won the finished game of ``pos`` (a shared win counts whole), else 0."""
    if pos[12][Where.STATUS] == Status.FINISHED and pos[1][seat] > 0:
        return 1.0
    return 0.0


@njit(inline="always", cache=True)
def results_nb(pos, out):
    """Every seat's :func:`result_nb` into ``out`` (float64 ``(n,)``)."""
    for s in range(pos[6]):
        out[s] = result_nb(pos, s)


@njit(cache=True)
def play_split_nb(n, rules, codes, params, seed, game, split, out):
    """Game ``game`` of run ``seed`` played to step ``split``, copied, and played on.

    The copy gets fresh buffers and a copy of the streams; the original is dropped.
    ``out`` (int64, ``(2n + 4,)``) receives, per seat, won and pirates left, then the
    rounds, the status, the ghost seat and the steps played in all.
    """
    first = new_position_nb(n, rules)
    work = new_work_nb(n)
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], seed, game, stream)
    start_nb(first)
    taken = advance_nb(first, codes, params, rng, work, split)
    second = new_position_nb(n, rules)
    copy_position_nb(first, second)
    rng_copy = rng.copy()
    first[1][:] = -99  # the copy must not read the original
    taken += advance_nb(second, codes, params, rng_copy, new_work_nb(n), np.int64(NO_LIMIT))
    for s in range(n):
        out[s] = result_nb(second, s) > 0
        out[n + s] = second[1][s]
    out[2 * n] = second[2][State.ROUND]
    out[2 * n + 1] = second[12][Where.STATUS]
    out[2 * n + 2] = second[2][State.GHOST_SEAT]
    out[2 * n + 3] = taken


# ---------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------


@njit(inline="always", cache=True)
def random_card_nb(mask, rng):
    """A uniformly random card of the bit mask ``mask`` (not empty)."""
    return KTH_CARD[mask, below_nb(rng, popcount_nb(mask))]


@njit(cache=True)
def determinize_nb(pos, seat, own_known, rng):
    """Fill in what ``seat`` cannot see: the other seats' cards of the round not yet shown.

    Each unrevealed card of another seat in the game is drawn uniformly, in slot order,
    among the cards that seat may programme and has not shown this round: every
    programme consistent with what ``seat`` has seen is equally likely. ``seat``'s own
    programme is kept when ``own_known``, else its unrevealed cards are drawn the same way.
    """
    living, state, shown, n = pos[1], pos[2], pos[4], pos[6]
    programs = pos[10]
    for q in range(n):
        if q == seat and own_known:
            continue
        if not in_game_nb(living, state, q):
            continue
        free = available_nb(pos, q)
        for slot in range(3):
            if shown[q, slot] >= 0:
                free &= ~(1 << shown[q, slot])
        for slot in range(3):
            if shown[q, slot] >= 0:
                programs[q, slot] = shown[q, slot]
            else:
                card = random_card_nb(free, rng)
                programs[q, slot] = card
                free &= ~(1 << card)


#: How a search player fills in the hidden cards (its ``guess`` parameter).
GUESS_UNIFORM = 0  # every consistent programme equally likely (determinize_nb)
GUESS_ROLLOUT = 1  # what the rollout strategy would programme (guess_program_nb)


@njit(cache=True)
def guess_program_nb(pos, q, code, params, rng, filler):
    """Seat ``q``'s cards of the round not yet shown, as strategy ``code`` programmes them.

    The revealed cards stay. The strategy programmes from the position ``pos`` (at the
    round's start, before any reveal, this is exactly the programme it would make); its
    cards not yet shown fill the unrevealed slots in its order, then, if it falls short
    (some of its cards were shown in other slots), uniformly random cards among those
    ``q`` may programme and has not shown. ``filler`` int64 ``(3,)`` is scratch.
    """
    programs, shown = pos[10], pos[4]
    available = available_nb(pos, q)
    free = available
    hidden = 0
    for slot in range(3):
        if shown[q, slot] >= 0:
            programs[q, slot] = shown[q, slot]
            free &= ~(1 << shown[q, slot])
        else:
            hidden += 1
    if hidden == 0:
        return
    E.program_nb(code, pos[:9], q, available, params, rng, filler)
    slot = 0
    for k in range(3):
        while slot < 3 and shown[q, slot] >= 0:
            slot += 1
        if slot == 3:
            break
        card = filler[k]
        if card >= 0 and (free >> card) & 1:
            programs[q, slot] = card
            free &= ~(1 << card)
            slot += 1
    for j in range(slot, 3):
        if shown[q, j] < 0:
            card = random_card_nb(free, rng)
            programs[q, j] = card
            free &= ~(1 << card)


#: No programmes remembered (see :func:`encode_programs_nb`).
NO_MEMORY = -1.0
#: A seat's programme in a memory: three decimal digits, seat ``q`` at ``PROGRAM_BASE ** q``
#: (five seats use 15 digits: exact in a float64).
PROGRAM_BASE = 1000


@njit(cache=True)
def encode_programs_nb(pos):
    """Every seat's programme ``pos[10]`` as one float64 (a seat out of the game, or whose
    programme is not set, as 999: never a programme), for a search player to remember
    from its programme decision."""
    living, state, programs, n = pos[1], pos[2], pos[10], pos[6]
    code = 0
    scale = 1
    for q in range(n):
        digits = 999
        if (
            in_game_nb(living, state, q)
            and min(programs[q, 0], programs[q, 1], programs[q, 2]) >= 0
        ):
            digits = programs[q, 0] * 100 + programs[q, 1] * 10 + programs[q, 2]
        code += digits * scale
        scale *= PROGRAM_BASE
    return float(code)


@njit(cache=True)
def remembered_program_nb(pos, q, memory):
    """Put seat ``q``'s programme from ``memory`` (:func:`encode_programs_nb`) into
    ``pos``; False (and nothing put) if there is none, or it is not three distinct cards
    ``q`` may programme, or it disagrees with a card ``q`` has revealed."""
    if memory < 0.0:
        return False
    digits = (np.int64(memory) // PROGRAM_BASE**q) % PROGRAM_BASE
    cards = (digits // 100, (digits // 10) % 10, digits % 10)
    available = available_nb(pos, q)
    used = 0
    for slot in range(3):
        card = cards[slot]
        if not (available >> card) & 1 or (used >> card) & 1:
            return False
        if pos[4][q, slot] >= 0 and pos[4][q, slot] != card:
            return False
        used |= 1 << card
    for slot in range(3):
        pos[10][q, slot] = cards[slot]
    return True


@njit(cache=True)
def determinize_as_nb(pos, seat, own_known, rng, guess, codes, params, filler, memory):
    """:func:`determinize_nb` (``guess`` :data:`GUESS_UNIFORM`), or every other seat in the
    game (and ``seat`` itself unless ``own_known``) given the programme its rollout
    strategy ``codes[q]`` (parameters ``params[q]``) would make (:data:`GUESS_ROLLOUT`):
    the one remembered in ``memory`` from the round's start if it agrees with the cards
    revealed (:func:`remembered_program_nb`), else made now (:func:`guess_program_nb`);
    everything drawn from ``rng``."""
    if guess != GUESS_ROLLOUT:
        determinize_nb(pos, seat, own_known, rng)
        return
    living, state, n = pos[1], pos[2], pos[6]
    for q in range(n):
        if q == seat and own_known:
            continue
        if not in_game_nb(living, state, q):
            continue
        if q == seat or not remembered_program_nb(pos, q, memory):
            guess_program_nb(pos, q, codes[q], params[q], rng, filler)
