"""La Planche from a position: copy it, guess what a seat cannot see, play it on; search.

The compiled game loop (:mod:`.engine_nb`) plays whole games. This module plays on from a
position in the middle of one, as search players need:

* a **position** is a tuple of arrays (:func:`new_position_nb`): the line, the state, the
  evidence, each seat's colour and each colour's seat, the colours that fell this round,
  and ``meta`` (the seat to move, turns played, game over or not, who won);
* :func:`start_game_nb` sets up game ``g`` exactly as the game loop does, :func:`run_nb`
  plays turns (all of them, or up to a count) with given strategies and random streams,
  and :func:`copy_position_nb` copies a position; played to turn ``k``, copied and
  continued, a game is the game the loop plays straight through (the tests check it
  against the reference engine);
* :func:`determinize_nb` fills a position from what one seat sees (its ``obs``, its own
  colour) and draws the colours it cannot see: the other seats' colours are a uniformly
  random assignment of the colours it does not own (every assignment is consistent with
  what it has seen: the rules let any seat move any prisoner);
* the search players of ``strategies/la_planche.py``: ``mc`` (flat Monte Carlo with
  determinization) and ``ismcts`` (single-observer information-set MCTS, Cowling, Powley
  & Whitehouse, IEEE TCIAIG 4(2), 2012), as ``symbol``/``choose`` decision functions.

The rules are never said twice: a turn is :func:`.engine_nb.resolve_turn_nb`, moves are
:mod:`.moves_nb`. The search players draw only from their own seat's stream, allocate their
buffers once per decision and nothing inside a playout.

Shapes (``n`` players): ``line`` int64 ``(LINE_SIZE,)``, ``state`` int64 ``(State.SIZE,)``,
``evidence`` int64 ``(n, 4)``, ``colours`` int64 ``(n,)``, ``owner`` int64 ``(4,)``,
``fell`` int64 ``(MAX_FALLS + 1,)``, ``meta`` int64 ``(Meta.SIZE,)``; random streams
uint64 ``(S, 4)`` with ``rows`` int64 ``(n + 1,)`` naming the row of the chance stream
(``rows[0]``) and of each seat's (``rows[1 + s]``).
"""

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb, next_u64_nb, seed_stream_nb
from balance.core.search_nb import (
    PATH,
    REWARD,
    VISITS,
    back_up_nb,
    best_index_nb,
    child_nb,
    new_tree_nb,
    offer_nb,
    select_nb,
    tie_nb,
)
from balance.core.strategy import MAX_PARAMS
from balance.games.la_planche import engine_nb as _engine
from balance.games.la_planche.kit import detective_values_nb, evaluate_option_nb
from balance.games.la_planche.moves_nb import (
    EMPTY,
    LINE_SIZE,
    MAX_FALLS,
    MAX_OPTIONS,
    State,
    count_options_nb,
    legal_options_nb,
    rear_nb,
    start_line_nb,
)
from balance.games.la_planche.rules import N_COLOURS, Rule


class MetaSlots(NamedTuple):
    """Layout of a position's ``meta`` (int64, ``(SIZE,)``)."""

    SEAT: int = 0  # the seat to move
    TURNS: int = 1  # turns played in the game, every round
    FALLS: int = 2  # entries of ``fell`` this round
    STATUS: int = 3  # PLAYING, FINISHED or UNFINISHED (a cap reached)
    LAST: int = 4  # colour of the last prisoner once finished, else -1
    WON: int = 5  # WON + s: 1 if seat s won
    SIZE: int = 9


Meta = MetaSlots()
PLAYING = 0
FINISHED = 1
UNFINISHED = 2
#: Strategy code of :func:`engine_nb.resolve_turn_nb`'s scripted answer.
SCRIPTED = -1
#: Search parameters (after the shipped strategies' own).
MC_PLAYOUTS, MC_ROLLOUT, MC_GUESS, MC_WIDTH, MC_MARGIN = 0, 1, 2, 3, 4
IS_ITERATIONS, IS_ROLLOUT, IS_C, IS_GUESS, IS_WIDTH = 0, 1, 2, 3, 4
#: How the colours a seat cannot see are guessed (the search players' ``guess``).
UNIFORM, EVIDENCE = 0, 1
#: The detective's default ``sharpness``: the weight ``guess=evidence`` gives the evidence.
GUESS_SHARPNESS = 0.5
#: Default parameter vectors of the rollout strategies by code (random, protector,
#: detective); the tests check them against ``strategies/la_planche.py``.
ROLLOUT_PARAMS = (
    (0.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 1.0, 4.0, 50.0, 0.0),
    (1.0, 1.0, 4.0, 50.0, 0.5),
)
#: Candidates of one turn: the options of both symbols spun.
MAX_CANDIDATES = 2 * MAX_OPTIONS
#: Action keys: (symbol, a, b) -> (symbol * LINE_SIZE + a) * (LINE_SIZE + 1) + b + 1.
N_KEYS = 3 * LINE_SIZE * (LINE_SIZE + 1)


@njit(cache=True)
def new_position_nb(n):
    """Empty buffers for a position of ``n`` players (see the module docstring)."""
    return (
        np.full(LINE_SIZE, EMPTY, dtype=np.int64),
        np.zeros(State.SIZE, dtype=np.int64),
        np.zeros((n, N_COLOURS), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.full(N_COLOURS, -1, dtype=np.int64),
        np.full(MAX_FALLS + 1, EMPTY, dtype=np.int64),
        np.zeros(Meta.SIZE, dtype=np.int64),
    )


@njit(cache=True)
def new_work_nb(n):
    """Buffers a turn needs: options, the turn's outcome and a strategy's scratch space."""
    return (
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_a
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # opt_b
        np.zeros(_engine.Outcome.SIZE, dtype=np.int64),
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_a
        np.zeros(MAX_OPTIONS, dtype=np.int64),  # scratch_b
        np.zeros(LINE_SIZE, dtype=np.int64),  # scratch_line
        np.zeros(State.SIZE, dtype=np.int64),  # scratch_state
        np.zeros(N_COLOURS, dtype=np.float64),  # scratch_value
    )


@njit(inline="always", cache=True)
def _obs_nb(pos, rules, n, work):
    """The ``obs`` tuple strategies read, over a position's arrays."""
    return (pos[0], pos[1], rules, n, pos[2], work[3], work[4], work[5], work[6], work[7])


@njit(cache=True)
def copy_position_nb(src, dst):
    """Copy position ``src`` into the buffers of ``dst`` (same number of players)."""
    dst[0][:] = src[0]
    dst[1][:] = src[1]
    dst[2][:, :] = src[2]
    dst[3][:] = src[3]
    dst[4][:] = src[4]
    dst[5][:] = src[5]
    dst[6][:] = src[6]


@njit(cache=True)
def start_round_nb(pos, rules, n, chance):
    """The next round, as the game loop starts it: colours drawn, the opening line."""
    line, state, evidence, colours, owner, fell, meta = pos
    round_number = state[State.ROUND] + 1
    _engine.draw_colours_nb(chance, n, colours, owner)
    start_line_nb(line, state, rules)
    evidence[:, :] = 0
    first_seat = (round_number - 1) % n
    state[State.ROUND] = round_number
    state[State.FIRST_SEAT] = first_seat
    state[State.TURN] = 0
    fell[:] = EMPTY
    meta[Meta.FALLS] = 0
    meta[Meta.SEAT] = first_seat


@njit(cache=True)
def start_game_nb(pos, rules, n, seed, game, rng):
    """Game ``game`` of the run seeded ``seed`` before its first turn; seeds ``rng``
    (uint64 ``(n + 1, 4)``) as the game loop does."""
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], seed, game, stream)
    state, meta = pos[1], pos[6]
    state[:] = 0
    meta[:] = 0
    meta[Meta.LAST] = -1
    start_round_nb(pos, rules, n, rng[0])


@njit(inline="always", cache=True)
def _record_fall_nb(fell, meta, colour):
    if colour != EMPTY:
        fell[meta[Meta.FALLS]] = colour
        meta[Meta.FALLS] += 1


@njit(cache=True)
def end_turn_nb(pos, rules, n, outcome, chance):
    """After a turn (``outcome`` of :func:`engine_nb.resolve_turn_nb`): record the falls,
    score and end the round or the game as the game loop does, or pass to the next seat."""
    line, state, owner, fell, meta = pos[0], pos[1], pos[4], pos[5], pos[6]
    _record_fall_nb(fell, meta, outcome[_engine.Outcome.FELL])
    if outcome[_engine.Outcome.PUSHED] != 0:
        _record_fall_nb(fell, meta, outcome[_engine.Outcome.FELL_PUSH])
    if outcome[_engine.Outcome.ENDED] == 0:
        seat = meta[Meta.SEAT] + 1
        meta[Meta.SEAT] = 0 if seat == n else seat
        return
    last = line[rear_nb(line, rules[Rule.SPACES])]
    if rules[Rule.ROUNDS] == 0:
        meta[Meta.STATUS] = FINISHED
        meta[Meta.LAST] = last
        if owner[last] >= 0:
            meta[Meta.WON + owner[last]] = 1
        return
    falls = meta[Meta.FALLS]
    # A searcher's copy may not know who fell before it looked (EMPTY): nobody scores.
    placed = (
        last,
        fell[falls - 1] if falls >= 1 else EMPTY,
        fell[falls - 2] if falls >= 2 else EMPTY,
    )
    for place in range(3):
        colour = placed[place]
        if colour != EMPTY and owner[colour] >= 0:
            state[State.SCORE + owner[colour]] += rules[Rule.POINTS + place]
    best = 0
    for s in range(n):
        if state[State.SCORE + s] > best:
            best = state[State.SCORE + s]
    if best >= rules[Rule.TARGET]:
        meta[Meta.STATUS] = FINISHED
        meta[Meta.LAST] = last
        for s in range(n):
            if state[State.SCORE + s] == best:
                meta[Meta.WON + s] = 1
        return
    if state[State.ROUND] >= rules[Rule.ROUND_CAP]:
        meta[Meta.STATUS] = UNFINISHED
        return
    start_round_nb(pos, rules, n, chance)


@njit(cache=True)
def run_nb(pos, rules, n, codes, params, rng, rows, work, stop):
    """Play on from ``pos`` until the game is over or ``meta[TURNS]`` reaches ``stop``.

    Parameters
    ----------
    codes : int64 ``(n,)``, the shipped strategy code playing each seat.
    params : float64 ``(n, MAX_PARAMS)``, their parameters.
    rng : uint64 ``(S, 4)``, random streams; ``rows`` (int64 ``(n + 1,)``) names the
        chance stream's row and each seat's.
    work : buffers from :func:`new_work_nb`.

    Returns the status (``PLAYING`` if stopped at ``stop``). Allocates nothing.
    """
    state, colours, meta = pos[1], pos[3], pos[6]
    opt_a, opt_b, outcome = work[0], work[1], work[2]
    obs = _obs_nb(pos, rules, n, work)
    total = rules[Rule.W_SWAP] + rules[Rule.W_ADVANCE] + rules[Rule.W_MOVE] + rules[Rule.W_SKULL]
    while meta[Meta.STATUS] == PLAYING and meta[Meta.TURNS] < stop:
        if state[State.TURN] >= rules[Rule.TURN_CAP]:
            meta[Meta.STATUS] = UNFINISHED
            break
        state[State.TURN] += 1
        meta[Meta.TURNS] += 1
        seat = meta[Meta.SEAT]
        chance = rng[rows[0]]
        first = _engine.spin_nb(chance, rules, total)
        second = _engine.spin_nb(chance, rules, total)
        _engine.resolve_turn_nb(
            obs,
            seat,
            colours[seat],
            first,
            second,
            codes[seat],
            params[seat],
            rng[rows[1 + seat]],
            opt_a,
            opt_b,
            outcome,
            -1,
        )
        end_turn_nb(pos, rules, n, outcome, chance)
    return meta[Meta.STATUS]


@njit(cache=True)
def determinize_nb(obs, seat, colour, pos, rng):
    """Fill ``pos`` with the position ``seat`` sees in ``obs`` (before its turn's action)
    and draw what it cannot see from ``rng``: the other seats' colours, a uniformly random
    assignment of the colours other than its own ``colour``. Who fell before (the order
    only the rounds variant's scoring reads) is left unknown."""
    determinize_as_nb(obs, seat, colour, pos, rng, UNIFORM)


@njit(cache=True)
def determinize_as_nb(obs, seat, colour, pos, rng, guess):
    """:func:`determinize_nb` with the other seats' colours guessed as ``guess`` says:
    ``UNIFORM`` (a uniformly random assignment) or ``EVIDENCE`` (drawn by
    :func:`evidence_colours_nb`, the detective's reading of the evidence)."""
    line, state, evidence, colours, owner, fell, meta = pos
    n = obs[3]
    line[:] = obs[0]
    state[:] = obs[1]
    evidence[:, :] = obs[4]
    if guess == EVIDENCE:
        evidence_colours_nb(obs[4], n, seat, colour, GUESS_SHARPNESS, colours, owner, rng)
    else:
        free = owner  # the colours it does not own, shuffled, then turned into owners
        k = 0
        for c in range(N_COLOURS):
            if c != colour:
                free[k] = c
                k += 1
        for i in range(k):
            j = i + below_nb(rng, k - i)
            c = free[i]
            free[i] = free[j]
            free[j] = c
        k = 0
        for s in range(n):
            if s == seat:
                colours[s] = colour
            else:
                colours[s] = free[k]
                k += 1
        owner[:] = -1
        for s in range(n):
            owner[colours[s]] = s
    fell[:] = EMPTY
    meta[:] = 0
    meta[Meta.SEAT] = seat
    meta[Meta.LAST] = -1


@njit(inline="always", cache=True)
def _permuted_nb(p, j):
    """Entry ``j`` (0..2) of permutation ``p`` (0..5) of ``(0, 1, 2)``, in lexicographic
    order."""
    head = p // 2
    if j == 0:
        return head
    low = 1 if head == 0 else 0
    high = 1 if head == 2 else 2
    if (p % 2 == 0) == (j == 1):
        return low
    return high


@njit(inline="always", cache=True)
def _log_weight_nb(evidence, n, seat, colour, sharpness, p):
    """``sharpness`` x the evidence of the assignment ``p``: the other seats, in seat
    order, own entries 0, 1, ... of permutation ``p`` of the colours not ``colour``."""
    total = 0.0
    j = 0
    for q in range(n):
        if q == seat:
            continue
        c = _permuted_nb(p, j)
        if c >= colour:  # the free colours are 0..3 without ``colour``
            c += 1
        total += sharpness * evidence[q, c]
        j += 1
    return total


@njit(cache=True)
def evidence_colours_nb(evidence, n, seat, colour, sharpness, colours, owner, rng):
    """Draw the other seats' colours as the detective reads the evidence.

    Each other seat ``q`` is believed to own colour ``c`` with weight
    ``exp(sharpness * evidence[q, c])`` (the detective's reading, ``kit.
    detective_values_nb``); an assignment of distinct colours, none ``colour``, is drawn
    with the product of its seats' weights (at most 3 other seats and 3 free colours: the
    6 permutations of the free colours, the first ``n - 1`` entries of each; every
    assignment comes from the same number of them). Fills ``colours`` (int64 ``(n,)``,
    ``seat`` gets ``colour``) and ``owner`` (int64 ``(4,)``, -1 for nobody's); one draw
    from ``rng``; allocates nothing.
    """
    top = -1e300
    for p in range(6):
        w = _log_weight_nb(evidence, n, seat, colour, sharpness, p)
        if w > top:
            top = w
    total = 0.0
    for p in range(6):
        total += np.exp(_log_weight_nb(evidence, n, seat, colour, sharpness, p) - top)
    u = (next_u64_nb(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    chosen = 5
    for p in range(6):
        u -= np.exp(_log_weight_nb(evidence, n, seat, colour, sharpness, p) - top)
        if u < 0.0:
            chosen = p
            break
    owner[:] = -1
    j = 0
    for q in range(n):
        if q == seat:
            colours[q] = colour
        else:
            c = _permuted_nb(chosen, j)
            if c >= colour:
                c += 1
            colours[q] = c
            j += 1
        owner[colours[q]] = q


@njit(inline="always", cache=True)
def _share_nb(meta, n, seat):
    """The result of ``seat``: 1 for a win, shared equally between tied winners, else 0."""
    if meta[Meta.WON + seat] == 0:
        return 0.0
    winners = 0
    for s in range(n):
        winners += meta[Meta.WON + s]
    return 1.0 / winners


@njit(cache=True)
def candidates_nb(line, state, rules, first, second, fixed, cand, opt_a, opt_b):
    """The options of a turn as candidates: rows ``(pick, k, key)`` of ``cand`` (int64
    ``(MAX_CANDIDATES, 3)``); ``pick`` 0 plays ``first``, 1 ``second``, ``k`` indexes the
    symbol's canonical options. ``fixed`` (-1 or 0/1) keeps only that symbol. Symbols with
    no option are skipped (both without: no candidate); ``opt_a``/``opt_b`` (int64
    ``(MAX_OPTIONS,)``) are scratch. Returns the count."""
    count = 0
    for pick in range(2):
        if fixed >= 0 and pick != fixed:
            continue
        symbol = first if pick == 0 else second
        if pick == 1 and second == first:
            continue
        if count_options_nb(line, state, rules, symbol) == 0:
            continue
        options = legal_options_nb(line, state, rules, symbol, opt_a, opt_b)
        for k in range(options):
            a = opt_a[k]
            b = opt_b[k]
            cand[count, 0] = pick
            cand[count, 1] = k
            cand[count, 2] = (symbol * LINE_SIZE + a) * (LINE_SIZE + 1) + b + 1
            count += 1
    return count


@njit(inline="always", cache=True)
def decode_key_nb(key):
    """The ``(symbol, a, b)`` of an action key (see ``N_KEYS``)."""
    b = key % (LINE_SIZE + 1) - 1
    head = key // (LINE_SIZE + 1)
    return head // LINE_SIZE, head % LINE_SIZE, b


@njit(cache=True)
def prune_nb(obs, seat, colour, cand, count, width, rollout, rating):
    """Keep the ``width`` candidates the ``rollout`` strategy rates best.

    Each candidate (rows of ``cand``, int64 ``(MAX_CANDIDATES, 3)``, as
    :func:`candidates_nb` fills them) is rated by the one-move look-ahead of the rollout
    strategy from ``seat``'s view: the line's worth after the option and the push
    (``kit.evaluate_option_nb``), with the detective's worths (its reading of the
    evidence) when ``rollout`` is the detective, else the protector's (a random rollout
    has no rating of its own). The best ``width`` rows are moved to the front, best first
    (ties in the candidates' order); ``rating`` (float64 ``(MAX_CANDIDATES,)``) receives
    their ratings. Returns the new count, ``min(count, width)``; ``width <= 0`` keeps
    every candidate in place, unrated.
    """
    if width <= 0:
        return count
    width = min(width, count)
    row = ROLLOUT_PARAMS[2] if rollout == 2 else ROLLOUT_PARAMS[1]
    values = obs[9]
    if rollout == 2:
        detective_values_nb(obs, seat, colour, row[0], row[1], row[4], values)
    else:
        for c in range(N_COLOURS):
            values[c] = row[0] if c == colour else -row[1]
    for c in range(count):
        symbol, a, b = decode_key_nb(cand[c, 2])
        rating[c] = evaluate_option_nb(obs, symbol, a, b, values, row[2], row[3])
    for i in range(width):  # a partial selection sort, stable
        best = i
        for c in range(i + 1, count):
            if rating[c] > rating[best] + 1e-9:
                best = c
        if best != i:
            r = rating[best]
            p0, p1, p2 = cand[best, 0], cand[best, 1], cand[best, 2]
            for c in range(best, i, -1):
                rating[c] = rating[c - 1]
                cand[c, 0] = cand[c - 1, 0]
                cand[c, 1] = cand[c - 1, 1]
                cand[c, 2] = cand[c - 1, 2]
            rating[i] = r
            cand[i, 0], cand[i, 1], cand[i, 2] = p0, p1, p2
    return width


@njit(cache=True)
def play_candidate_nb(pos, rules, n, first, second, pick, k, script, rng, work):
    """Play the turn ``pos``'s seat is in (spun ``first``/``second``) with option ``k`` of
    the symbol ``pick``, then the push and what ends the turn."""
    script[0] = pick
    script[1] = k
    seat = pos[6][Meta.SEAT]
    _engine.resolve_turn_nb(
        _obs_nb(pos, rules, n, work),
        seat,
        pos[3][seat],
        first,
        second,
        SCRIPTED,
        script,
        rng,
        work[0],
        work[1],
        work[2],
        -1,
    )
    end_turn_nb(pos, rules, n, work[2], rng)


@njit(cache=True)
def _rollout_table_nb(n, code):
    codes = np.full(n, code, dtype=np.int64)
    params = np.zeros((n, MAX_PARAMS), dtype=np.float64)
    row = ROLLOUT_PARAMS[code]
    for s in range(n):
        for j in range(len(row)):
            params[s, j] = row[j]
    return codes, params


@njit(cache=True)
def mc_search_nb(
    obs,
    seat,
    colour,
    first,
    second,
    fixed,
    playouts,
    rollout,
    rng,
    guess=UNIFORM,
    width=0,
    margin=0.0,
):
    """Flat Monte Carlo: for each option of the turn, ``playouts`` playouts (each from a
    fresh determinization guessed as ``guess`` says, played to the end by ``rollout`` in
    every seat), common to all options (the same guess and spins; under ``margin``, the
    same seat streams too); returns the best option's row ``(pick, k)`` (ties broken by
    ``rng``). ``width > 0`` searches only the ``width`` options ``rollout`` rates best
    (:func:`prune_nb`).

    ``margin > 0`` plays the option ``rollout`` rates best unless another beats it
    clearly: an option replaces it only if its mean gain over it, playout by playout
    (paired: both played on the same guess and spins), exceeds ``margin`` standard
    errors of that gain; of those, the largest mean gain (ties by ``rng``)."""
    n = obs[3]
    rules = obs[2]
    cand = np.zeros((MAX_CANDIDATES, 3), dtype=np.int64)
    count = candidates_nb(obs[0], obs[1], rules, first, second, fixed, cand, obs[5], obs[6])
    if count <= 1:
        return 0, 0
    rating = np.zeros(MAX_CANDIDATES, dtype=np.float64)
    if margin > 0.0 and width <= 0:
        width = count  # every option, the best rated first
    count = prune_nb(obs, seat, colour, cand, count, width, rollout, rating)
    if count <= 1:
        return cand[0, 0], cand[0, 1]
    pos = new_position_nb(n)
    work = new_work_nb(n)
    codes, params = _rollout_table_nb(n, rollout)
    # Under a margin, a playout's chance (guess, spinner) and each seat have their own
    # stream, seeded alike for every option: the options meet the same spins, and a
    # seat's draws do not shift the others' when the options lead to different
    # decisions (the paired gains need it). Without, one stream serves all (the figures
    # of docs/la-planche.md were measured so).
    streams = n + 1 if margin > 0.0 else 1
    play_rng = np.zeros((streams, 4), dtype=np.uint64)
    rows = np.zeros(n + 1, dtype=np.int64)
    if margin > 0.0:
        for stream in range(n + 1):
            rows[stream] = stream
    script = np.zeros(MAX_PARAMS, dtype=np.float64)
    total = np.zeros(count, dtype=np.float64)
    gain = np.zeros(count, dtype=np.float64)  # sums of result - the first option's
    gain2 = np.zeros(count, dtype=np.float64)  # and of its square
    for i in range(playouts):
        base = 0.0
        key = next_u64_nb(rng)  # one determinization and one future per playout
        for c in range(count):
            for stream in range(streams):
                seed_stream_nb(play_rng[stream], key, i, stream)
            determinize_as_nb(obs, seat, colour, pos, play_rng[0], guess)
            play_candidate_nb(
                pos, rules, n, first, second, cand[c, 0], cand[c, 1], script, play_rng[0], work
            )
            run_nb(pos, rules, n, codes, params, play_rng, rows, work, np.int64(1 << 62))
            result = _share_nb(pos[6], n, seat)
            total[c] += result
            if c == 0:
                base = result
            gain[c] += result - base
            gain2[c] += (result - base) ** 2
    if margin > 0.0:
        return _clear_gain_nb(cand, count, gain, gain2, playouts, margin, rng)
    best = best_index_nb(total, count, rng)
    return cand[best, 0], cand[best, 1]


@njit(cache=True)
def _clear_gain_nb(cand, count, gain, gain2, playouts, margin, rng):
    """The row ``(pick, k)`` of :func:`mc_search_nb` under ``margin``: candidate 0 unless
    a candidate's mean paired gain over it exceeds ``margin`` standard errors."""
    best = 0
    best_gain = 0.0
    ties = 0
    if playouts < 2:
        return cand[0, 0], cand[0, 1]
    for c in range(1, count):
        mean = gain[c] / playouts
        var = max(gain2[c] / playouts - mean * mean, 0.0) * playouts / (playouts - 1)
        if mean <= 0.0 or mean <= margin * np.sqrt(var / playouts):
            continue
        taken, best_gain, ties = offer_nb(mean, best_gain, ties, rng, 1e-12)
        if taken:
            best = c
    return cand[best, 0], cand[best, 1]


@njit(cache=True)
def ismcts_search_nb(
    obs,
    seat,
    colour,
    first,
    second,
    fixed,
    iterations,
    rollout,
    c_ucb,
    rng,
    guess=UNIFORM,
    width=0,
):
    """Single-observer information-set MCTS from ``seat``'s view; returns the row
    ``(pick, k)`` of the root option visited most (ties: the best mean, then ``rng``).

    Every iteration draws a determinization, descends from the root choosing among the
    options legal in it by UCB1 with availability counts (mean + ``c_ucb`` x
    sqrt(ln availability / visits)), expands one option, plays out with ``rollout`` and
    backs up to each node the result of the seat that chose its option. A node is
    reached by the sequence of options chosen from the root (turns with a single option
    add none); the spinner is drawn anew in every iteration. The colours are guessed as
    ``guess`` says; ``width > 0`` keeps at the root only the ``width`` options ``rollout``
    rates best (:func:`prune_nb`).
    """
    n = obs[3]
    rules = obs[2]
    root = np.zeros((MAX_CANDIDATES, 3), dtype=np.int64)
    root_count = candidates_nb(obs[0], obs[1], rules, first, second, fixed, root, obs[5], obs[6])
    if root_count <= 1:
        return 0, 0
    rating = np.zeros(MAX_CANDIDATES, dtype=np.float64)
    root_count = prune_nb(obs, seat, colour, root, root_count, width, rollout, rating)
    if root_count <= 1:
        return root[0, 0], root[0, 1]
    tree = new_tree_nb(iterations + 1)
    path = tree[PATH]
    found = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    keys = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    results = np.zeros(n, dtype=np.float64)
    cand = np.zeros((MAX_CANDIDATES, 3), dtype=np.int64)
    pos = new_position_nb(n)
    work = new_work_nb(n)
    codes, params = _rollout_table_nb(n, rollout)
    play_rng = np.zeros((1, 4), dtype=np.uint64)
    rows = np.zeros(n + 1, dtype=np.int64)
    script = np.zeros(MAX_PARAMS, dtype=np.float64)
    total_weight = (
        rules[Rule.W_SWAP] + rules[Rule.W_ADVANCE] + rules[Rule.W_MOVE] + rules[Rule.W_SKULL]
    )
    play_rng[0, :] = rng
    chance = play_rng[0]
    for _ in range(iterations):
        determinize_as_nb(obs, seat, colour, pos, chance, guess)
        meta = pos[6]
        state = pos[1]
        node = 0
        depth = 0
        spun_first = first
        spun_second = second
        only = fixed
        added = False
        at_root = True
        while True:
            count = candidates_nb(
                pos[0], state, rules, spun_first, spun_second, only, cand, work[3], work[4]
            )
            if at_root:  # the root's options are public: those kept by the pruning
                at_root = False
                count = root_count
                cand[:count, :] = root[:count, :]
            if count <= 1:  # a forced turn: no decision, no node
                pick = cand[0, 0] if count == 1 else 0
                play_candidate_nb(
                    pos, rules, n, spun_first, spun_second, pick, 0, script, chance, work
                )
            else:
                for c in range(count):
                    keys[c] = cand[c, 2]
                node, chosen, added = select_nb(
                    tree, node, keys, count, meta[Meta.SEAT], c_ucb, found, chance
                )
                play_candidate_nb(
                    pos,
                    rules,
                    n,
                    spun_first,
                    spun_second,
                    cand[chosen, 0],
                    cand[chosen, 1],
                    script,
                    chance,
                    work,
                )
                depth += 1
                path[depth] = node
            if meta[Meta.STATUS] != PLAYING or added:
                break
            if state[State.TURN] >= rules[Rule.TURN_CAP]:
                meta[Meta.STATUS] = UNFINISHED
                break
            state[State.TURN] += 1
            meta[Meta.TURNS] += 1
            spun_first = _engine.spin_nb(chance, rules, total_weight)
            spun_second = _engine.spin_nb(chance, rules, total_weight)
            only = -1
        run_nb(pos, rules, n, codes, params, play_rng, rows, work, np.int64(1 << 62))
        for s in range(n):
            results[s] = _share_nb(meta, n, s)
        back_up_nb(tree, depth, results)
    rng[:] = play_rng[0]
    visits, reward = tree[VISITS], tree[REWARD]
    best = -1
    best_visits = -2.0
    best_mean = -1.0
    ties = 0
    for c in range(root_count):
        e = child_nb(tree, 0, root[c, 2])
        v = visits[e] if e >= 0 else -1.0
        m = reward[e] / visits[e] if e >= 0 and visits[e] > 0 else -1.0
        if best < 0 or v > best_visits or (v == best_visits and m > best_mean):
            best = c
            best_visits = v
            best_mean = m
            ties = 1
        elif v == best_visits and m == best_mean:
            ties, taken = tie_nb(ties, rng)
            if taken:
                best = c
    return root[best, 0], root[best, 1]


# --- the decision functions of the shipped search players ---------------------------------
# params: mc (playouts, rollout, guess, width, margin);
# ismcts (iterations, rollout, c, guess, width)


@njit(cache=True)
def mc_symbol_nb(obs, seat, colour, first, second, params, rng):
    pick, _ = mc_search_nb(
        obs,
        seat,
        colour,
        first,
        second,
        np.int64(-1),
        np.int64(params[MC_PLAYOUTS]),
        np.int64(params[MC_ROLLOUT]),
        rng,
        np.int64(params[MC_GUESS]),
        np.int64(params[MC_WIDTH]),
        params[MC_MARGIN],
    )
    return pick


@njit(cache=True)
def mc_choose_nb(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    _, k = mc_search_nb(
        obs,
        seat,
        colour,
        symbol,
        symbol,
        np.int64(0),
        np.int64(params[MC_PLAYOUTS]),
        np.int64(params[MC_ROLLOUT]),
        rng,
        np.int64(params[MC_GUESS]),
        np.int64(params[MC_WIDTH]),
        params[MC_MARGIN],
    )
    return k


@njit(cache=True)
def ismcts_symbol_nb(obs, seat, colour, first, second, params, rng):
    pick, _ = ismcts_search_nb(
        obs,
        seat,
        colour,
        first,
        second,
        np.int64(-1),
        np.int64(params[IS_ITERATIONS]),
        np.int64(params[IS_ROLLOUT]),
        params[IS_C],
        rng,
        np.int64(params[IS_GUESS]),
        np.int64(params[IS_WIDTH]),
    )
    return pick


@njit(cache=True)
def ismcts_choose_nb(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    _, k = ismcts_search_nb(
        obs,
        seat,
        colour,
        symbol,
        symbol,
        np.int64(0),
        np.int64(params[IS_ITERATIONS]),
        np.int64(params[IS_ROLLOUT]),
        params[IS_C],
        rng,
        np.int64(params[IS_GUESS]),
        np.int64(params[IS_WIDTH]),
    )
    return k
