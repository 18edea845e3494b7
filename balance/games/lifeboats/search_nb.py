"""Lifeboats from a position: copy it, fill in what a seat cannot see, play on; search players.

Pure ``@njit`` code over the arrays of :mod:`balance.games.lifeboats.layout`, reusing the
game loop's pieces (:mod:`.engine_nb`) rather than saying the rules again.

**What a seat cannot see.** Everything in a Lifeboats position is public (boats, crews,
leaks, hats left, scores, who swam out of which boat, the landing order) except the
ballot being collected: the votes and hats of the voters asked before the deciding
seat in the same ballot (D5 of ``docs/lifeboats.md``). A *determinization* fills those
in with votes drawn from a model of the other players (the search player's rollout
strategy), each among that voter's legal options, so it never changes what the deciding
seat has seen: the position, its own hats, and everything public stay as they are.

**Playing on.** :func:`play_on_nb` takes a position at a decision of ``seat`` of
``kind`` (the position as the game loop asks it, with the earlier votes of the ballot in
``work[1]``), applies the option chosen and plays the game on to its end with the
strategies of ``players``: the rest of the decision's phase, then whole rounds, by the
same functions the game loop plays (:mod:`.engine_nb`). The code
:data:`.engine_nb.HALT` makes the loop stop at that seat's next decision instead, leaving the
position as it stood when asked, so a tree search steps the game decision by decision.

Buffers, as the game loop's (``n`` players): a *sandbox* is ``(obs, players, work,
stats, error)``, see :mod:`.engine_nb`. Sandboxes are made once per decision of a search
player (:func:`new_sandbox_nb`); nothing is allocated in a playout.
"""

import numpy as np

from balance.core.compile_cache import njit
from balance.core.llvm_nb import hold_nb
from balance.core.random_nb import below_nb, next_u64_nb, seed_stream_nb
from balance.core.search_nb import (
    AVAILABLE,
    PATH,
    VISITS,
    add_child_nb,
    back_up_nb,
    child_nb,
    new_tree_nb,
    one_of_best_nb,
    ucb1_nb,
)
from balance.core.strategy import MAX_PARAMS
from balance.games.lifeboats import engine_nb as enb
from balance.games.lifeboats.kit import new_ballot_nb
from balance.games.lifeboats.layout import (
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
    SUNK,
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

#: The code that makes the game loop stop at that seat's decision (:data:`.engine_nb.HALT`).
HALT = enb.HALT
#: ``error`` slots (as :data:`engine_nb.Error`): the seat, kind and option count asked.
_SEAT, _KIND, _COUNT = enb.Error.SEAT, enb.Error.KIND, enb.Error.COUNT
#: Number of work buffers after ``options`` (as the game loop's).
_N_WORK = 6


@njit(cache=True)
def new_sandbox_nb(rules):
    """Fresh buffers for playing games on: ``(obs, players, work, stats, error)``.

    ``rules`` (int64 ``(Rule.SIZE,)``) is shared, not copied.
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
    size = MAX_BOATS + 1
    work = (
        np.zeros(MAX_OPTIONS, dtype=np.int64),
        np.zeros(size, dtype=np.int64),  # ballot
        np.zeros(size, dtype=np.int64),  # tally
        np.zeros(size, dtype=np.int64),  # voters
        np.zeros(size, dtype=np.int64),  # weights
        np.zeros(size, dtype=np.int64),  # swam_from
        np.zeros(size, dtype=np.int64),  # won
    )
    stats = (
        np.zeros(GameStat.SIZE, dtype=np.int64),
        np.zeros((MAX_PLAYERS, SeatStat.SIZE), dtype=np.int64),
        np.zeros((MAX_BOATS, BoatStat.SIZE), dtype=np.int64),
    )
    error = np.full(5, -1, dtype=np.int64)
    return obs, players, work, stats, error


@njit(inline="always", cache=True)
def copy_position_nb(src, dst):
    """Copy the position of ``obs`` tuple ``src`` into ``dst`` (boats, crew, seats, state),
    counted as a new ballot in ``dst`` (:func:`kit.new_ballot_nb`: its voters' shared
    estimates belong to the position before)."""
    dst[0][:, :] = src[0]
    dst[1][:, :, :] = src[1]
    dst[2][:, :] = src[2]
    dst[3][:] = src[3]
    new_ballot_nb(dst)


@njit(inline="always", cache=True)
def public_stats_nb(obs, stats):
    """Tallies rebuilt from what the position shows: boats sunk and the landing order
    (all that the rest of the game and its winner depend on); the others start at 0."""
    boats, state = obs[0], obs[3]
    game_stat, seat_stat, boat_stat = stats
    game_stat[:] = 0
    seat_stat[:, :] = 0
    boat_stat[:, :] = 0
    for b in range(state[State.PLAYERS] + 1):
        game_stat[GameStat.BOATS_SUNK] += boats[b, Boat.STATE] == SUNK
        boat_stat[b, BoatStat.ORDER] = boats[b, Boat.ORDER]


@njit(inline="always", cache=True)
def voters_nb(obs, kind, work):
    """The voters of a ballot of ``kind`` (a vote kind) in ``work[3]``, their weights in
    ``work[4]``, from F clockwise; returns how many."""
    state = obs[3]
    if kind == OVERBOARD_VOTE:
        return enb.overboard_voters_nb(obs, state[State.BOAT], work)
    n = state[State.PLAYERS]
    first = state[State.FIRST]
    for i in range(n):
        s = first + i
        work[3][i] = s if s < n else s - n
        work[4][i] = 1
    return n


@njit(inline="always", cache=True)
def voter_index_nb(work, nvoters, seat):
    """Where ``seat`` stands among the voters ``work[3][:nvoters]``."""
    for i in range(nvoters):
        if work[3][i] == seat:
            return i
    return nvoters


@njit(cache=True)
def determinize_nb(obs, seat, kind, players, work, error):
    """Fill in what ``seat``, asked a decision of ``kind``, cannot see (module docstring).

    In a ballot, the voters asked before ``seat`` vote now, each as ``players`` says
    (into ``work[1]``); nothing else of the position is hidden, and nothing is changed.
    """
    if kind == LEAK_VOTE or kind == MOVE_VOTE or kind == OVERBOARD_VOTE:
        boat = obs[3][State.BOAT] if kind == OVERBOARD_VOTE else -1
        nvoters = voters_nb(obs, kind, work)
        before = voter_index_nb(work, nvoters, seat)
        held = hold_nb(obs)  # obs by address, as the game loop passes it
        enb.collect_ballot_nb(obs, held, kind, before, boat, 0, players, work, error)


@njit(cache=True)
def _rounds_nb(obs, phase, players, work, stats, error):
    """Whole rounds from ``phase`` of the current round (one compiled copy)."""
    held = hold_nb(obs)  # obs by address, as the game loop passes it
    return enb.play_rounds_nb(obs, held, phase, players, work, stats, error)


@njit(cache=True)
def _after_phase_nb(obs, phase, players, work, stats, error):
    """``phase`` is over: the game ends, or goes on with the next phase or round."""
    state, rules = obs[3], obs[4]
    if error[_SEAT] >= 0:
        return False
    if enb.over_nb(obs, stats):
        return True
    if phase == enb.SWIM_PHASE:
        if state[State.ROUND] >= rules[Rule.ROUND_CAP]:
            return False
        state[State.ROUND] += 1
        return _rounds_nb(obs, enb.LEAK_PHASE, players, work, stats, error)
    return _rounds_nb(obs, phase + 1, players, work, stats, error)


@njit(cache=True)
def play_on_nb(obs, kind, seat, choice, players, work, stats, error):
    """Apply option ``choice`` of ``seat``'s decision of ``kind`` and play to the end.

    Parameters
    ----------
    obs : the position as the game loop asked the decision (a sandbox's, changed here).
    kind, seat, choice : the decision and the option code chosen (one of its options).
    players, work, stats, error : as the game loop's; in a ballot, ``work[1]`` holds the
        votes of the voters asked before ``seat`` (:func:`determinize_nb` fills them in).

    Returns whether the game finished (False too when a strategy answered outside its
    options or a :data:`HALT` seat was asked: ``error`` then says which).
    """
    boats, state, rules = obs[0], obs[3], obs[4]
    held = hold_nb(obs)  # obs by address, as the game loop passes it
    n = state[State.PLAYERS]
    for b in range(n + 1):  # who left which boat this swim phase (public, kept in LEFT)
        if boats[b, Boat.LEFT] > 0:
            work[5][boats[b, Boat.LEFT] - 1] = b
    first = state[State.FIRST]
    if kind == LANE or kind == PLACE:
        next_seat = 0
        if kind == LANE:
            boat = 0
            while boats[boat, Boat.LANE] >= 0:
                boat += 1
            boats[boat, Boat.LANE] = choice
            boats[boat, Boat.ISLAND] = rules[Rule.LANE_ISLAND + choice]
            enb.place_boats_nb(obs, held, boat + 1, players, work, error)
            if error[_SEAT] >= 0:
                return False
        else:
            enb.place_pawn_nb(obs, seat, choice, stats)
            next_seat = seat + 1 if seat + 1 < n else 0
        enb.place_pawns_nb(obs, held, next_seat, players, work, stats, error)
        if error[_SEAT] >= 0:
            return False
        return _rounds_nb(obs, enb.LEAK_PHASE, players, work, stats, error)
    if kind == SWIM_OUT or kind == SWIM_IN:
        if kind == SWIM_OUT:
            enb.leave_boat_nb(obs, seat, choice, work)
            enb.swim_out_nb(obs, held, (seat - first + n) % n + 1, players, work, stats, error)
            if error[_SEAT] >= 0:
                return False
            start = 1
        else:
            enb.climb_in_nb(obs, seat, choice)
            start = (first - seat + n) % n
            start = (n if start == 0 else start) + 1
        enb.swim_in_nb(obs, held, start, players, work, stats, error)
        return _after_phase_nb(obs, enb.SWIM_PHASE, players, work, stats, error)
    if kind == LOSE_PAWN:
        enb.lose_pawn_nb(obs, seat, state[State.BOAT], choice, stats)
        return _after_phase_nb(obs, enb.LEAK_PHASE, players, work, stats, error)
    # A ballot or the choice of its outcome (a lone hat, or F breaking a tie).
    vote = kind if kind <= OVERBOARD_VOTE else kind - 3
    boat = state[State.BOAT] if vote == OVERBOARD_VOTE else -1
    outcome = choice
    if kind <= OVERBOARD_VOTE:
        nvoters = voters_nb(obs, kind, work)
        i = voter_index_nb(work, nvoters, seat)
        work[1][i] = choice
        enb.collect_ballot_nb(obs, held, kind, nvoters, boat, i + 1, players, work, error)
        if error[_SEAT] >= 0:
            return False
        outcome = enb.count_ballot_nb(obs, held, kind, nvoters, boat, players, work, stats, error)
        if error[_SEAT] >= 0:
            return False
        if outcome == enb.REVOTE:
            outcome = enb.resolve_vote_nb(
                obs, held, kind, nvoters, boat, players, work, stats, error
            )
            if error[_SEAT] >= 0:
                return False
    if vote == MOVE_VOTE:
        enb.move_nb(obs, outcome, stats)
        return _after_phase_nb(obs, enb.MOVE_PHASE, players, work, stats, error)
    if vote == LEAK_VOTE:
        enb.leak_into_nb(obs, held, outcome, players, work, stats, error)
    else:
        enb.overboard_nb(obs, held, outcome, boat, players, work, stats, error)
    return _after_phase_nb(obs, enb.LEAK_PHASE, players, work, stats, error)


@njit(cache=True)
def play_on_record_nb(obs, kind, seat, choice, players, work, stats, error, records):
    """:func:`play_on_nb`, then the finished game's record as game 0 of ``records``."""
    finished = play_on_nb(obs, kind, seat, choice, players, work, stats, error)
    if error[_SEAT] < 0:
        enb.write_records_nb(0, obs, stats, finished, work[6], records)


@njit(inline="always", cache=True)
def results_nb(obs, stats, finished, work, out):
    """Each seat's result of the finished game into ``out`` (float64 ``(MAX_PLAYERS,)``):
    1 for a win, 1/k for a win shared by k players, 0 otherwise (or unfinished)."""
    won = work[6]
    winners, _ = enb.winners_nb(obs[0], obs[2], obs[3], stats[2], finished, won)
    for s in range(MAX_PLAYERS):
        out[s] = won[s] / winners if winners > 0 else 0.0


@njit(inline="always", cache=True)
def seat_rollouts_nb(players, rollout, rollout_params, key, playout):
    """Every seat plays ``rollout`` (its default parameters, ``rollout_params[rollout]``)
    from streams keyed by ``(key, playout, seat)``."""
    codes, params, rng = players
    for s in range(MAX_PLAYERS):
        codes[s] = rollout
        for k in range(MAX_PARAMS):
            params[s, k] = rollout_params[rollout, k]
        seed_stream_nb(rng[1 + s], key, playout, 1 + s)


#: ``tiebreak`` of ``mc``: equal results are broken at random (the default) ...
TIEBREAK_RANDOM = 0
#: ... or go to the option the rollout strategy itself would play.
TIEBREAK_ROLLOUT = 1


@njit(cache=True)
def rollout_choice_nb(obs, seat, kind, options, count, rollout, rollout_params, rng, box):
    """Index of the option the ``rollout`` strategy would play at this decision.

    Asked with its default parameters (row ``rollout`` of ``rollout_params``, float64
    ``(codes, MAX_PARAMS)``) on a copy of the position in the sandbox ``box`` (as
    :func:`new_sandbox_nb` makes), drawing from the seat's own stream ``rng``; ``obs``
    is not changed.
    """
    box_obs, box_players, box_options = box[0], box[1], box[2][0]
    copy_position_nb(obs, box_obs)
    mine = box_players[1][seat]
    for k in range(MAX_PARAMS):
        mine[k] = rollout_params[rollout, k]
    # The options in the sandbox's buffer, as the playouts pass theirs: the shipped
    # strategies are compiled for one type of options (a run's own are read-only).
    for k in range(count):
        box_options[k] = options[k]
    return enb.decide_nb(rollout, box_obs, seat, kind, box_options, count, mine, rng)


@njit(cache=True)
def mc_decide_nb(obs, seat, kind, options, count, params, rng, rollout_params):
    """Flat Monte Carlo with determinization: the option with the best mean result.

    Parameters
    ----------
    obs, seat, kind, options, count, rng : as every Lifeboats strategy receives them.
    params : float64 ``(MAX_PARAMS,)``: ``playouts`` per option, ``rollout`` code,
        ``tiebreak`` (:data:`TIEBREAK_RANDOM` or :data:`TIEBREAK_ROLLOUT`).
    rollout_params : float64 ``(codes, MAX_PARAMS)``: each rollout strategy's parameters.

    Each option gets ``playouts`` playouts; playout ``p`` of every option starts from the
    same determinization with the same rollout streams (common random numbers), all
    drawn from the seat's own stream ``rng``. With :data:`TIEBREAK_ROLLOUT` the option
    the rollout strategy itself would play here (:func:`rollout_choice_nb`, asked first,
    from ``rng``) is kept unless another option won strictly more playouts: the rollout
    algorithm (Bertsekas; Tesauro & Galperin 1996), which with a right model of the other
    seats plays at least as well as the rollout strategy.
    """
    playouts = max(np.int64(params[0]), 1)
    rollout = np.int64(params[1])
    box = new_sandbox_nb(obs[4])
    box_obs, box_players, box_work, box_stats, error = box
    base = -1
    if np.int64(params[2]) == TIEBREAK_ROLLOUT:
        base = rollout_choice_nb(obs, seat, kind, options, count, rollout, rollout_params, rng, box)
    totals = np.zeros(count, dtype=np.float64)
    results = np.zeros(MAX_PLAYERS, dtype=np.float64)
    for p in range(playouts):
        key = next_u64_nb(rng)
        for k in range(count):
            copy_position_nb(obs, box_obs)
            public_stats_nb(box_obs, box_stats)
            seat_rollouts_nb(box_players, rollout, rollout_params, key, p)
            error[:] = -1
            determinize_nb(box_obs, seat, kind, box_players, box_work, error)
            finished = play_on_nb(
                box_obs, kind, seat, options[k], box_players, box_work, box_stats, error
            )
            if error[_SEAT] < 0:
                results_nb(box_obs, box_stats, finished, box_work, results)
                totals[k] += results[seat]
    if base >= 0:
        top = totals[0]
        for k in range(1, count):
            top = max(top, totals[k])
        if totals[base] >= top:
            return base
    return one_of_best_nb(totals, count, rng)


# --- ISMCTS ------------------------------------------------------------------------------

#: An action's key in the tree: ``(seat * ACTION_KINDS + kind) * ACTION_CODES`` plus its
#: option code + 1 (a hat is -1).
ACTION_KINDS = 16
ACTION_CODES = 1 << 16


@njit(inline="always", cache=True)
def action_key_nb(seat, kind, code):
    """The tree key of option ``code`` of ``seat``'s decision of ``kind``."""
    return (seat * ACTION_KINDS + kind) * ACTION_CODES + code + 1


@njit(cache=True)
def ismcts_decide_nb(obs, seat, kind, options, count, params, rng, rollout_params):
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

    Parameters
    ----------
    obs, seat, kind, options, count, rng : as every Lifeboats strategy receives them.
    params : float64 ``(MAX_PARAMS,)``: ``iterations``, ``rollout`` code, ``c`` (UCB1's
        exploration constant).
    rollout_params : float64 ``(codes, MAX_PARAMS)``: each rollout strategy's parameters.

    Every iteration samples a determinization, descends the tree choosing, among the
    options legal in that determinization, the child with the best UCB1 score counted
    over the iterations it was available, expands one untried option, plays out with
    the rollout strategy and backs up each edge's result for the seat that chose it.
    A tree node's children are keyed by (seat, decision kind, option). The tree is
    ``iterations + 2`` nodes made once per decision (an iteration adds at most one); the
    root's most visited option is played (ties broken by ``rng``).
    """
    iterations = max(np.int64(params[0]), 1)
    rollout = np.int64(params[1])
    c = params[2]
    tree = new_tree_nb(iterations + 2)
    path, available = tree[PATH], tree[AVAILABLE]
    here = np.zeros(MAX_OPTIONS, dtype=np.int64)  # codes legal at the current node
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)  # and their actions' keys
    child_of = np.zeros(MAX_OPTIONS, dtype=np.int64)
    scores = np.zeros(MAX_OPTIONS, dtype=np.float64)
    results = np.zeros(MAX_PLAYERS, dtype=np.float64)
    box_obs, box_players, box_work, box_stats, error = new_sandbox_nb(obs[4])
    codes = box_players[0]
    for it in range(iterations):
        key = next_u64_nb(rng)
        copy_position_nb(obs, box_obs)
        public_stats_nb(box_obs, box_stats)
        seat_rollouts_nb(box_players, rollout, rollout_params, key, it)
        error[:] = -1
        determinize_nb(box_obs, seat, kind, box_players, box_work, error)
        node = 0
        depth = 0
        d_seat, d_kind, d_count = seat, kind, count
        for k in range(count):
            here[k] = options[k]
        finished = False
        while True:
            # Not core.search_nb.select_nb: Lifeboats' players draw in their own order (no
            # draw for a lone untried option, availabilities counted only when every option
            # was tried, UCB1 ties drawn), which its records depend on.
            # The children available here, and the untried options.
            untried = 0
            for k in range(d_count):
                keys[k] = action_key_nb(d_seat, d_kind, here[k])
                child_of[k] = child_nb(tree, node, keys[k])
                untried += child_of[k] < 0
            if untried > 0:  # expand one untried option, then play out
                pick = below_nb(rng, untried) if untried > 1 else 0
                chosen = 0
                for k in range(d_count):
                    if child_of[k] < 0:
                        if pick == 0:
                            chosen = k
                            break
                        pick -= 1
                # never beyond the arrays: an iteration adds one node
                child = add_child_nb(tree, node, keys[chosen], d_seat)
                depth += 1
                path[depth] = child
                for s in range(MAX_PLAYERS):
                    codes[s] = rollout
                finished = play_on_nb(
                    box_obs, d_kind, d_seat, here[chosen], box_players, box_work, box_stats, error
                )
                break
            for k in range(d_count):  # UCB1 over the times each child was available
                ch = child_of[k]
                available[ch] += 1.0
                scores[k] = ucb1_nb(tree, ch, c)
            chosen = one_of_best_nb(scores, d_count, rng)
            child = child_of[chosen]
            depth += 1
            path[depth] = child
            node = child
            for s in range(MAX_PLAYERS):
                codes[s] = HALT
            finished = play_on_nb(
                box_obs, d_kind, d_seat, here[chosen], box_players, box_work, box_stats, error
            )
            if error[_SEAT] < 0:
                break  # the game ended inside the tree
            # The loop stopped at the next decision: who, what, and its options.
            d_seat, d_kind, d_count = error[_SEAT], error[_KIND], error[_COUNT]
            for k in range(d_count):
                here[k] = box_work[0][k]
            error[:] = -1
        if error[_SEAT] >= 0:
            results[:] = 0.0
        else:
            results_nb(box_obs, box_stats, finished, box_work, results)
        back_up_nb(tree, depth, results)
    for k in range(count):
        ch = child_nb(tree, 0, action_key_nb(seat, kind, options[k]))
        scores[k] = tree[VISITS][ch] if ch >= 0 else 0.0
    return one_of_best_nb(scores, count, rng)
