"""Walk the Plank's flat Monte Carlo search player (``mc``), in compiled code.

Built on :mod:`.search_nb`: a decision copies the position the seat sees, samples
determinizations (:func:`.search_nb.determinize_nb`) and plays each on to the end with
the rollout strategy in every seat (:func:`.search_nb.advance_nb`). How the programme
is searched slot by slot is told in ``docs/walk-the-plank.md``. Buffers are made once
per decision; the playouts allocate nothing. A search player draws only from its own
seat's stream: a seed for each playout, from which the playout's dice, the other
seats' streams and its determinization are derived.

Parameters (float64, the seat's ``params``): see :class:`SearchParams`.
"""

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.core.random_nb import next_u64_nb, seed_stream_nb
from balance.core.search_nb import best_index_nb
from balance.core.strategy import MAX_PARAMS
from balance.games.walk_the_plank import engine_nb as E
from balance.games.walk_the_plank.cards import N_CARDS
from balance.games.walk_the_plank.evaluation_nb import evaluate_option_nb
from balance.games.walk_the_plank.moves_nb import TILES, State, legal_options_nb
from balance.games.walk_the_plank.rules import Rule
from balance.games.walk_the_plank.search_nb import (
    GUESS_ROLLOUT,
    NO_LIMIT,
    NO_MEMORY,
    Status,
    Where,
    advance_nb,
    copy_position_nb,
    determinize_as_nb,
    encode_programs_nb,
    new_position_nb,
    new_work_nb,
    next_step_nb,
    random_card_nb,
    result_nb,
)


class SearchParams(NamedTuple):
    """Parameter slots of the search players (the seat's ``params``, float64)."""

    BUDGET: int = 0  # playouts per option (mc) or iterations (ismcts)
    ROLLOUT: int = 1  # code of the shipped strategy that plays the playouts
    C: int = 2  # ismcts: the UCB1 exploration constant
    MC_GUESS: int = 2  # mc: how the hidden cards are guessed (search_nb.GUESS_*)
    MC_WIDTH: int = 3  # mc: cards tried in each programme slot (0: every card)
    GUESS: int = 3  # ismcts: the same
    #: With ``guess=rollout``: the others' programmes guessed at the seat's programme
    #: decision (search_nb.encode_programs_nb), for its option decisions of the round.
    GUESSED: int = MAX_PARAMS - 4
    #: The seat's own programme of the round, kept by its programme decision for its
    #: option decisions later in the round (the game loop gives every seat its own copy
    #: of its parameters for each game); checked against the cards it has revealed.
    OWN: int = MAX_PARAMS - 3


Search = SearchParams()

#: The parameters of ``weighted`` (its defaults) when it plays the playouts.
WEIGHTED_DEFAULTS = np.array([4.0, 1.0, 2.0, 0.5, 0.5, 0.0, 0.0, 0.0])


@njit(inline="always", cache=True)
def root_from_obs_nb(obs, root):
    """Position ``root`` from what a strategy sees (``obs``); programmes left unset."""
    pirates, living, state, resting, shown, rules, n = obs[:7]
    rest_mask = rules[Rule.REST_MASK]
    for s in range(n):
        for t in range(TILES):
            root[0][s, t] = pirates[s, t]
        root[1][s] = living[s]
        root[3][s] = resting[s]
        root[9][s] = 0
        root[11][s] = 0
        for slot in range(3):
            root[4][s, slot] = shown[s, slot]
            root[10][s, slot] = -1
            if shown[s, slot] >= 0:
                root[9][s] |= rest_mask & (1 << shown[s, slot])
    for i in range(State.SIZE):
        root[2][i] = state[i]
    root[12][Where.STATUS] = Status.RUNNING


@njit(inline="always", cache=True)
def seed_playout_nb(seed, prng, drng, n):
    """Streams of one playout, from a seed drawn from the searcher's stream: the dice
    and every seat (``prng``, uint64 ``(n + 1, 4)``), the determinization (``drng``)."""
    for stream in range(n + 1):
        seed_stream_nb(prng[stream], seed, 0, stream)
    seed_stream_nb(drng, seed, 1, 0)


@njit(inline="always", cache=True)
def rollout_inputs_nb(params, n):
    """Codes ``(n,)`` and parameters ``(n, MAX_PARAMS)`` of the rollout strategy."""
    codes = np.full(n, np.int64(params[Search.ROLLOUT]), dtype=np.int64)
    roll_params = np.zeros((n, MAX_PARAMS), dtype=np.float64)
    for s in range(n):
        for k in range(MAX_PARAMS):
            roll_params[s, k] = WEIGHTED_DEFAULTS[k]
    return codes, roll_params


@njit(inline="always", cache=True)
def own_program_known_nb(obs, seat, slot, card, params, root):
    """Put the seat's remembered programme into ``root``; False (and nothing put) if the
    memory does not match the cards it has revealed, or ``card`` in ``slot``."""
    shown = obs[4]
    used = 0
    for j in range(3):
        c = np.int64(params[Search.OWN + j])
        if c < 0 or c >= N_CARDS or (used >> c) & 1:
            return False
        if shown[seat, j] >= 0 and shown[seat, j] != c:
            return False
        used |= 1 << c
    if np.int64(params[Search.OWN + slot]) != card:
        return False
    for j in range(3):
        root[10][seat, j] = np.int64(params[Search.OWN + j])
    return True


@njit(inline="always", cache=True)
def remember_guess_nb(root, sim, seat, guess, codes, roll_params, filler, drng, params, rng):
    """At a programme decision (``root`` at the round's start), with ``guess=rollout``:
    guess the others' programmes once (a seed from the seat's stream ``rng``) and keep
    them in ``params[Search.GUESSED]``. Nothing is drawn with ``guess=uniform``."""
    if guess != GUESS_ROLLOUT:
        return
    copy_position_nb(root, sim)
    seed_stream_nb(drng, next_u64_nb(rng), 2, 0)
    determinize_as_nb(sim, seat, True, drng, guess, codes, roll_params, filler, NO_MEMORY)
    params[Search.GUESSED] = encode_programs_nb(sim)


@njit(inline="always", cache=True)
def memory_of_nb(guess, params):
    """The programmes remembered from the seat's programme decision (``guess=rollout``)."""
    if guess == GUESS_ROLLOUT:
        return params[Search.GUESSED]
    return NO_MEMORY


@njit(inline="always", cache=True)
def pick_keeping_nb(totals, count, keep, rng):
    """The best of ``totals[:count]`` (:func:`balance.core.search_nb.best_index_nb`), except
    that option ``keep`` (the rollout strategy's own) is played unless another did
    strictly better: the search departs from the strategy it improves on only for a
    measured gain."""
    best = best_index_nb(totals, count, rng)
    if totals[keep] >= totals[best]:
        return keep
    return best


@njit(inline="always", cache=True)
def card_rating_nb(obs, seat, card):
    """How greedy rates ``card`` for ``seat`` now: its best option's one-step evaluation
    under greedy's weights (0 for a card without an option), with no random tie-break."""
    pirates, living, state, rules, n = obs[0], obs[1], obs[2], obs[5], obs[6]
    opt_tile, opt_arg = obs[7], obs[8]
    count = legal_options_nb(pirates, living, state, rules, n, seat, card, 1, opt_tile, opt_arg)
    value = 0.0
    for k in range(count):
        option = evaluate_option_nb(obs, seat, card, opt_tile[k], opt_arg[k], WEIGHTED_DEFAULTS)
        if k == 0 or option > value:
            value = option
    return value


@njit(inline="always", cache=True)
def prune_cards_nb(obs, seat, candidates, count, width, own, ratings):
    """Keep, in card order, the ``width`` of ``candidates[:count]`` that greedy rates
    highest now (:func:`card_rating_nb`; equal ratings by card order) and any of ``own``
    (the rollout strategy's programme; -1 for none). Returns the number kept; the kept
    cards are moved to the front of ``candidates``. ``ratings`` float64 ``(N_CARDS,)``
    is scratch."""
    if width <= 0 or count <= width:
        return count
    for i in range(count):
        ratings[i] = card_rating_nb(obs, seat, candidates[i])
    kept = 0
    for i in range(count):
        above = 0  # candidates rated higher, or as high and earlier in card order
        for j in range(count):
            if ratings[j] > ratings[i] or (ratings[j] == ratings[i] and j < i):
                above += 1
        mine = False
        for k in range(3):
            if own[k] == candidates[i]:
                mine = True
        if above < width or mine:
            candidates[kept] = candidates[i]
            kept += 1
    return kept


@njit(inline="always", cache=True)
def step_of_nb(state, seat, slot, n):
    """The step at which ``seat`` reveals its card of ``slot``."""
    k = seat - state[State.CAPTAIN]
    if k < 0:
        k += n
    return slot * n + k


@njit(inline="always", cache=True)
def fill_program_nb(sim, seat, slot, available, codes, roll_params, rng, filler):
    """Slots after ``slot`` of ``seat``'s programme in ``sim``: the rollout strategy's
    programme, its cards not yet used in its order, then random cards if it falls short."""
    programs = sim[10]
    used = available
    for j in range(slot + 1):
        used &= ~(1 << programs[seat, j])
    if slot >= 2:
        return
    E.program_nb(codes[seat], sim[:9], seat, available, roll_params[seat], rng, filler)
    j = slot + 1
    for k in range(3):
        if j < 3 and (used >> filler[k]) & 1:
            programs[seat, j] = filler[k]
            used &= ~(1 << filler[k])
            j += 1
    while j < 3:
        card = random_card_nb(used, rng)
        programs[seat, j] = card
        used &= ~(1 << card)
        j += 1


@njit(cache=True)
def mc_choose_nb(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    """Flat Monte Carlo over the options of ``card``: the best mean result is played.

    In each of ``playouts`` determinizations (the same for every option: common random
    numbers), each option is played and the game played on to its end by the rollout
    strategy in every seat. With ``guess=rollout`` the rollout strategy's own option is
    played unless another did strictly better (:func:`pick_keeping_nb`).
    """
    n = obs[6]
    playouts = max(1, np.int64(params[Search.BUDGET]))
    root = new_position_nb(n, obs[5])
    sim = new_position_nb(n, obs[5])
    work = new_work_nb(n)
    scratch = (work[0], work[1], work[2])
    prng = np.zeros((n + 1, 4), dtype=np.uint64)
    drng = np.zeros(4, dtype=np.uint64)
    codes, roll_params = rollout_inputs_nb(params, n)
    guess = np.int64(params[Search.MC_GUESS])
    filler = np.zeros(3, dtype=np.int64)
    totals = np.zeros(count, dtype=np.float64)
    root_from_obs_nb(obs, root)
    known = own_program_known_nb(obs, seat, slot, card, params, root)
    root[12][Where.STEP] = step_of_nb(obs[2], seat, slot, n)
    memory = memory_of_nb(guess, params)
    for _ in range(playouts):
        seed = next_u64_nb(rng)
        for i in range(count):
            copy_position_nb(root, sim)
            seed_playout_nb(seed, prng, drng, n)
            determinize_as_nb(sim, seat, known, drng, guess, codes, roll_params, filler, memory)
            E.resolve_card_nb(
                sim[:9], seat, card, opt_tile[i], opt_arg[i], codes, roll_params, prng,
                work[5], work[5], scratch, work[6],
            )  # fmt: skip
            next_step_nb(sim)
            advance_nb(sim, codes, roll_params, prng, work, np.int64(NO_LIMIT))
            totals[i] += result_nb(sim, seat)
    if guess == GUESS_ROLLOUT:
        seed_stream_nb(drng, next_u64_nb(rng), 3, 0)
        keep = E.choose_nb(
            codes[seat], obs, seat, card, slot, opt_tile, opt_arg, count, roll_params[seat], drng
        )
        return pick_keeping_nb(totals, count, keep, rng)
    return best_index_nb(totals, count, rng)


@njit(cache=True)
def mc_program_nb(obs, seat, available, params, rng, out):
    """Flat Monte Carlo over the programme, slot by slot.

    Slot 1 first: each card it may hold is tried in ``playouts`` determinizations, the
    seat's later slots filled by the rollout strategy (:func:`fill_program_nb`); the best
    mean result takes the slot (with ``guess=rollout``, the rollout strategy's card for
    the slot unless another did strictly better). Then slot 2 with slot 1 fixed, then
    slot 3. The programme is remembered in the seat's parameters for its option decisions.
    """
    n = obs[6]
    playouts = max(1, np.int64(params[Search.BUDGET]))
    root = new_position_nb(n, obs[5])
    sim = new_position_nb(n, obs[5])
    work = new_work_nb(n)
    prng = np.zeros((n + 1, 4), dtype=np.uint64)
    drng = np.zeros(4, dtype=np.uint64)
    codes, roll_params = rollout_inputs_nb(params, n)
    guess = np.int64(params[Search.MC_GUESS])
    totals = np.zeros(N_CARDS, dtype=np.float64)
    candidates = np.zeros(N_CARDS, dtype=np.int64)
    chosen = np.full(3, -1, dtype=np.int64)
    filler = np.zeros(3, dtype=np.int64)
    width = np.int64(params[Search.MC_WIDTH])
    ratings = np.zeros(N_CARDS, dtype=np.float64)
    root_from_obs_nb(obs, root)
    root[12][Where.STEP] = 0
    remember_guess_nb(root, sim, seat, guess, codes, roll_params, filler, drng, params, rng)
    own = np.full(3, -1, dtype=np.int64)  # the rollout strategy's programme (guess=rollout)
    if guess == GUESS_ROLLOUT:
        seed_stream_nb(drng, next_u64_nb(rng), 3, 0)
        E.program_nb(codes[seat], root[:9], seat, available, roll_params[seat], drng, own)
    for slot in range(3):
        free = available
        for j in range(slot):
            free &= ~(1 << chosen[j])
        count = 0
        for c in range(N_CARDS):
            if (free >> c) & 1:
                candidates[count] = c
                totals[count] = 0.0
                count += 1
        count = prune_cards_nb(root[:9], seat, candidates, count, width, own, ratings)
        for _ in range(playouts):
            seed = next_u64_nb(rng)
            for i in range(count):
                copy_position_nb(root, sim)
                seed_playout_nb(seed, prng, drng, n)
                determinize_as_nb(
                    sim, seat, True, drng, guess, codes, roll_params, filler, NO_MEMORY
                )
                for j in range(slot):
                    sim[10][seat, j] = chosen[j]
                sim[10][seat, slot] = candidates[i]
                fill_program_nb(sim, seat, slot, available, codes, roll_params, drng, filler)
                advance_nb(sim, codes, roll_params, prng, work, np.int64(NO_LIMIT))
                totals[i] += result_nb(sim, seat)
        keep = -1  # the strategy's card for this slot: its first not yet chosen
        for k in range(3):
            for i in range(count):
                if keep < 0 and candidates[i] == own[k]:
                    keep = i
        if keep >= 0:
            chosen[slot] = candidates[pick_keeping_nb(totals, count, keep, rng)]
        else:
            chosen[slot] = candidates[best_index_nb(totals, count, rng)]
    for j in range(3):
        out[j] = chosen[j]
        params[Search.OWN + j] = chosen[j]


@njit(cache=True)
def search_push_nb(obs, seat, opt_tile, opt_arg, count, params, rng):
    """The Dolphin's pushes (once a game at most): as the rollout strategy makes them."""
    code = np.int64(params[Search.ROLLOUT])
    return E.push_nb(code, obs, seat, opt_tile, opt_arg, count, WEIGHTED_DEFAULTS, rng)
