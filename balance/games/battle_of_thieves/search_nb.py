"""Battle of Thieves from a position: copy it, determinize it, play it on; the search players.

The rules are :mod:`.engine_nb`'s (``docs/battle-of-thieves.md`` states them); this module
adds what a search needs and nothing of the rules:

* :func:`copy_position_nb` copies a position into another set of buffers;
* :func:`determinize_nb` fills in what a seat cannot see with values consistent with what
  it has seen: the order of its own draw pile, and which of the enemy's unseen cards are
  in the enemy's hand and which in its draw pile, in what order. Both deck lists and every
  face-up card are public (decks are contestants), so the searching seat knows the
  *multiset* of the enemy's hand and draw pile together, not how it is split;
* :func:`step_nb`, :func:`next_decision_nb` and :func:`play_on_nb` play a position on,
  one option at a time or to the end, with the engine's own functions (the rest of the
  game after the turn under way is :func:`.engine_nb.play_game_nb` itself);
* :func:`rank_options_nb` keeps the few options a heuristic rates best (its pick, then
  its pick among the rest, ...), for ``mc``'s ``width`` (policy improvement by rollouts);
* the search players :func:`mc_nb` (flat Monte Carlo with determinization) and
  :func:`ismcts_nb` (single-observer information-set MCTS, Cowling, Powley & Whitehouse,
  IEEE TCIAIG 4(2), 2012), and the game loop :func:`play_games_search_nb` that can seat
  them. The plain loop of :mod:`.engine_nb` never calls this module, so a run without a
  search player does not compile it.

A position is the ``pos`` tuple of :mod:`.engine_nb` taken at a decision point: after the
start of the turn under way (``STATE.TURN`` says whose), before the mover's next option.

Searches draw only from the searching seat's own strategy stream: each playout's streams
(determinization, dice, the rollout players) are seeded from one number drawn from it, so
a run gives the same games whatever the thread count. Every buffer is made once per block
of games (:class:`Work` order); nothing allocates inside a decision or a playout.
"""

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.core.lineup_nb import seat_lineup_nb
from balance.core.random_nb import below_nb, next_u64_nb, seed_stream_nb
from balance.core.search_nb import (
    FIRST_CHILD,
    MOVER,
    PATH,
    VISITS,
    back_up_nb,
    best_index_nb,
    child_nb,
    clear_tree_nb,
    new_tree_nb,
    offer_nb,
    select_nb,
)
from balance.core.strategy import MAX_PARAMS
from balance.games.battle_of_thieves.engine_nb import (
    DICE_STREAM,
    N_STREAMS,
    STRATEGY_STREAM,
    Error,
    apply_option_nb,
    ask_nb,
    derive_nb,
    end_turn_nb,
    legal_options_nb,
    new_position_nb,
    play_game_nb,
    set_up_nb,
    start_turn_nb,
    write_records_nb,
)
from balance.games.battle_of_thieves.layout import (
    DECK_SIZE,
    END_TURN,
    MAX_HAND,
    MAX_OPTIONS,
    SIDE,
    STATE,
)

#: Strategy codes of the search players (``strategies/battle_of_thieves.py``).
MC = 5
ISMCTS = 6
SEARCH_CODES = (MC, ISMCTS)
#: Codes a playout may play (the shipped heuristics and the uniform-random player).
ROLLOUT_CODES = (0, 1, 2, 3, 4)


class WorkSlots(NamedTuple):
    """Indices of the ``work`` tuple of buffers a search uses (:func:`new_work_nb`)."""

    SIM: int = 0  # a position (engine_nb order) the playouts play on
    ROOT: int = 1  # int64 (MAX_OPTIONS, 4): the searched decision's options
    OPTIONS: int = 2  # int64 (MAX_OPTIONS, 4): the playouts' options
    PLAYERS: int = 3  # (codes (2,), params (2, P), rng (2, 4)): the rollout players
    VIEWS: int = 4  # the rollout players' views (engine_nb.fill_view_nb)
    DICE: int = 5  # (rng (4,), script (0,), cursor (2,)): the playouts' dice
    DEAL: int = 6  # uint64 (4,): the stream a determinization draws from
    ERROR: int = 7  # int64 (Error.SIZE,): a rollout player's illegal answer
    TOTAL: int = 8  # float64 (MAX_OPTIONS,): mc's summed results per option
    #: ismcts: (the tree (balance.core.search_nb), and int64 (MAX_OPTIONS,) twice and
    #: float64 (2,): the legal options' keys, their children, each seat's result)
    TREE: int = 9
    ROLLOUT_PARAMS: int = 10  # float64 (len(ROLLOUT_CODES), P): each rollout's parameters


Work = WorkSlots()


#: Bits of each field of an option ``(kind, who, what, target)`` in its tree key (every
#: field is from -1 to a few dozen).
KEY_BITS = 16


@njit(inline="always", cache=True)
def option_key_nb(options, k):
    """The tree key of option ``k`` of ``options`` (int64 ``(MAX_OPTIONS, 4)``): its four
    fields, each plus one, packed."""
    key = np.int64(0)
    for col in range(4):
        key = (key << KEY_BITS) | (options[k, col] + 1)
    return key


# --- a position: copy, hide, play on --------------------------------------------------------


@njit(inline="always", cache=True)
def _copy2_nb(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, _nrt=False, error_model="numpy")
def copy_position_nb(src, dst):
    """Copy the position ``src`` into the buffers of ``dst`` (same shapes)."""
    _copy2_nb(src[0], dst[0])
    _copy2_nb(src[1], dst[1])
    _copy2_nb(src[2], dst[2])
    _copy2_nb(src[3], dst[3])
    _copy2_nb(src[4], dst[4])
    _copy2_nb(src[5], dst[5])
    for k in range(src[6].shape[0]):
        dst[6][k] = src[6][k]
    _copy2_nb(src[7], dst[7])
    a, b = src[8], dst[8]
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                b[i, j, k] = a[i, j, k]


@njit(inline="always", cache=True)
def _pool_get_nb(hand, deck, s, n, top, i):
    """Card ``i`` of seat ``s``'s unseen pool: its hand (``n`` cards) then its draw pile."""
    if i < n:
        return hand[s, i]
    return deck[s, top + i - n]


@njit(inline="always", cache=True)
def _pool_set_nb(hand, deck, s, n, top, i, card):
    if i < n:
        hand[s, i] = card
    else:
        deck[s, top + i - n] = card


@njit(cache=True, _nrt=False, error_model="numpy")
def determinize_nb(pos, seat, rng):
    """Fill in what ``seat`` cannot see, in place, drawing from ``rng`` (uint64 ``(4,)``).

    ``seat``'s own draw pile is shuffled; the enemy's hand and draw pile are dealt again
    from their cards together (a uniform shuffle of the pool, the hand keeping its size).
    Everything ``seat`` has seen stays: its hand, every face-up card, hand and deck sizes.
    """
    side, deck, hand = pos[0], pos[2], pos[3]
    top = side[seat, SIDE.DECK_POS]
    for i in range(DECK_SIZE - 1, top, -1):
        j = top + below_nb(rng, i - top + 1)
        card = deck[seat, i]
        deck[seat, i] = deck[seat, j]
        deck[seat, j] = card
    e = 1 - seat
    n = side[e, SIDE.HAND_LEN]
    top = side[e, SIDE.DECK_POS]
    size = n + DECK_SIZE - top
    for i in range(size - 1, 0, -1):
        j = below_nb(rng, i + 1)
        card = _pool_get_nb(hand, deck, e, n, top, i)
        _pool_set_nb(hand, deck, e, n, top, i, _pool_get_nb(hand, deck, e, n, top, j))
        _pool_set_nb(hand, deck, e, n, top, j, card)


@njit(cache=True, _nrt=False, error_model="numpy")
def step_nb(pos, content, derived, rules, dice, kind, who, what, target):
    """Apply the mover's option ``(kind, who, what, target)``; 'end the turn' also starts
    the next turn (the position is then at the next turn's first decision, or over)."""
    if kind == END_TURN:
        end_turn_nb(pos, content, rules)
        if not pos[6][STATE.OVER]:
            start_turn_nb(pos, content, derived, rules, dice)
        return
    apply_option_nb(pos, content, derived, rules, dice, kind, who, what, target)


@njit(cache=True, _nrt=False, error_model="numpy")
def next_decision_nb(pos, content, derived, rules, dice, options):
    """Play the forced options (a single legal one) until the mover has a choice; returns
    the number of options written to ``options`` (0 once the game is over)."""
    state = pos[6]
    while not state[STATE.OVER]:
        count = legal_options_nb(pos, content, derived, rules, options)
        if count >= 2:
            return count
        step_nb(pos, content, derived, rules, dice, *_row(options, 0))
    return np.int64(0)


@njit(inline="always", cache=True)
def _row(options, k):
    return options[k, 0], options[k, 1], options[k, 2], options[k, 3]


@njit(cache=True, _nrt=False, error_model="numpy")
def play_on_nb(pos, content, derived, rules, dice, players, views, options, error, in_turn):
    """Play the position on to the end with ``players`` (engine_nb's tuple): the rest of
    the turn under way if ``in_turn``, then :func:`.engine_nb.play_game_nb`. False if a
    strategy answered outside its options (``error`` says how)."""
    state = pos[6]
    if in_turn:
        me = (state[STATE.TURN] - 1) % 2
        while not state[STATE.OVER]:
            count = legal_options_nb(pos, content, derived, rules, options)
            k = np.int64(0)
            if count >= 2:
                k = ask_nb(pos, content, rules, views, options, count, me, players, error)
                if error[Error.SEAT] >= 0:
                    return False
            if options[k, 0] == END_TURN:
                end_turn_nb(pos, content, rules)
                break
            apply_option_nb(pos, content, derived, rules, dice, *_row(options, k))
    if state[STATE.OVER]:
        return True
    return play_game_nb(pos, content, derived, rules, dice, players, views, options, error)


@njit(inline="always", cache=True)
def result_nb(state, seat):
    """``seat``'s result of a finished game: 1 a win, 0 a loss, 1/2 a game capped."""
    winner = state[STATE.WINNER]
    if winner < 0:
        return 0.5
    return 1.0 if winner == seat else 0.0


# --- the search players --------------------------------------------------------------------


def new_work(params_width: int, nodes: int, rollout_params: np.ndarray) -> tuple:
    """The buffers of a search (:class:`Work` order) for trees of ``nodes`` nodes."""
    return (
        new_position_nb(),
        np.zeros((MAX_OPTIONS, 4), dtype=np.int64),
        np.zeros((MAX_OPTIONS, 4), dtype=np.int64),
        (
            np.zeros(2, dtype=np.int64),
            np.zeros((2, max(params_width, MAX_PARAMS)), dtype=np.float64),
            np.zeros((2, 4), dtype=np.uint64),
        ),
        (np.zeros((2, DECK_SIZE), dtype=np.int64), np.zeros((2, MAX_HAND), dtype=np.int64)),
        (np.zeros(4, dtype=np.uint64), np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64)),
        np.zeros(4, dtype=np.uint64),
        np.full(Error.SIZE, -1, dtype=np.int64),
        np.zeros(MAX_OPTIONS, dtype=np.float64),
        (
            new_tree_nb(max(nodes, 1)),
            np.zeros(MAX_OPTIONS, dtype=np.int64),
            np.zeros(MAX_OPTIONS, dtype=np.int64),
            np.zeros(2, dtype=np.float64),
        ),
        rollout_params,
    )


new_work_nb = njit(cache=True)(new_work)


@njit(cache=True, _nrt=False, error_model="numpy")
def _sample_nb(pos, seat, rollout, base, sample, work):
    """Sample ``sample`` of a search seeded ``base``: copy ``pos`` into the work position,
    determinize it for ``seat``, seed the dice and the rollout players (code ``rollout``)."""
    sim, _root, _opts, players, _views, dice, deal, _error, _total, _tree, table = work
    codes, params, rng = players
    dice_rng, _, cursor = dice
    copy_position_nb(pos, sim)
    seed_stream_nb(deal, base, sample, 0)
    determinize_nb(sim, seat, deal)
    seed_stream_nb(dice_rng, base, sample, 1)
    cursor[0] = 0
    cursor[1] = 0
    for s in range(2):
        codes[s] = rollout
        for k in range(params.shape[1]):
            params[s, k] = table[rollout, k] if k < table.shape[1] else 0.0
        seed_stream_nb(rng[s], base, sample, 2 + s)


@njit(cache=True, _nrt=False, error_model="numpy")
def _playout_nb(content, derived, rules, seat, in_turn, work):
    """Play the work position to the end with the rollout players; ``seat``'s result."""
    sim, _root, opts, players, views, dice, _deal, error, _total, _tree, _table = work
    play_on_nb(sim, content, derived, rules, dice, players, views, opts, error, in_turn)
    return result_nb(sim[6], seat)


@njit(cache=True, _nrt=False, error_model="numpy")
def rank_options_nb(pos, content, rules, options, count, seat, rollout, width, base, work):
    """Write to ``work[Work.ROOT]`` the ``width`` options (of ``count >= 2`` in ``options``)
    that the rollout strategy ``rollout`` rates best, best first; returns how many
    (``min(width, count)``; when ``width`` is 0, all ``count`` in ``options``' order).

    The strategy is asked as ``seat``, from ``seat``'s view of ``pos``, with its parameters
    from ``work[Work.ROLLOUT_PARAMS]``; its pick is struck out of the options and it is
    asked again among the rest, until ``width`` are picked. Once "end the turn" (the last
    option) is struck out, a heuristic's next pick is its best option of positive worth,
    or else the last one listed. A strategy that draws (``random``) draws from a stream
    seeded from ``base``, which the playouts do not use.
    """
    _sim, root, opts, players, views, _dice, _deal, error, _total, _tree, table = work
    if width <= 0:
        for i in range(count):
            for c in range(4):
                root[i, c] = options[i, c]
        return count
    codes, params, rng = players
    codes[seat] = rollout
    for k in range(params.shape[1]):
        params[seat, k] = table[rollout, k] if k < table.shape[1] else 0.0
    seed_stream_nb(rng[seat], base, 0, 4)
    n = count
    for i in range(count):
        for c in range(4):
            opts[i, c] = options[i, c]
    ranked = np.int64(0)
    while ranked < width:
        k = np.int64(0)
        if n >= 2:
            k = ask_nb(pos, content, rules, views, opts, n, seat, players, error)
            if error[Error.SEAT] >= 0:  # not a shipped strategy's answer; keep the order
                error[:] = -1
                k = np.int64(0)
        for c in range(4):
            root[ranked, c] = opts[k, c]
        ranked += 1
        n -= 1
        if n == 0:
            break
        for i in range(k, n):
            for c in range(4):
                opts[i, c] = opts[i + 1, c]
    return ranked


@njit(inline="always", cache=True)
def _index_of_nb(options, count, root, i):
    """The index in ``options`` of the row ``root[i]`` (0 if it is not there)."""
    for k in range(count):
        if (
            options[k, 0] == root[i, 0]
            and options[k, 1] == root[i, 1]
            and options[k, 2] == root[i, 2]
            and options[k, 3] == root[i, 3]
        ):
            return np.int64(k)
    return np.int64(0)


@njit(cache=True, _nrt=False, error_model="numpy")
def mc_nb(pos, content, derived, rules, options, count, seat, params, rng, work):
    """Flat Monte Carlo with determinization: the index (in ``options``, ``count >= 2``)
    of the option with the best mean result over ``params[0]`` playouts each, played by
    the rollout strategy ``params[1]`` in both seats. Playout ``j`` of every option starts
    from the same determinization and streams (common random numbers).

    ``params[2]`` (``width``) 0 searches every option, ties broken uniformly from ``rng``.
    A ``width`` of ``w >= 1`` searches only the ``w`` options the rollout strategy rates
    best (:func:`rank_options_nb`; ``w = 1`` plays its pick without a playout) and keeps
    its pick unless another option's mean result beats it by more than ``params[3]``
    (``margin``, in results from 0 to 1); among those, the best mean, ties to the
    strategy's higher-rated option (policy improvement by rollouts).
    """
    playouts = max(np.int64(1), np.int64(params[0]))
    rollout = np.int64(params[1])
    width = np.int64(params[2])
    margin = params[3]
    sim, root, _opts, _players, _views, dice, _deal, _error, total, _tree, _table = work
    base = next_u64_nb(rng)
    n = rank_options_nb(pos, content, rules, options, count, seat, rollout, width, base, work)
    if n == 1:
        return _index_of_nb(options, count, root, 0)
    for i in range(n):
        total[i] = 0.0
    for j in range(playouts):
        for i in range(n):
            _sample_nb(pos, seat, rollout, base, j, work)
            step_nb(sim, content, derived, rules, dice, *_row(root, i))
            in_turn = root[i, 0] != END_TURN
            total[i] += _playout_nb(content, derived, rules, seat, in_turn, work)
    if width > 0:
        best = np.int64(0)
        for i in range(1, n):
            if total[i] > total[best]:
                best = i
        if total[best] - total[0] <= margin * playouts:
            best = 0
        return _index_of_nb(options, count, root, best)
    return best_index_nb(total, count, rng)


@njit(cache=True, _nrt=False, error_model="numpy")
def ismcts_nb(pos, content, derived, rules, options, count, seat, params, rng, work):
    """Single-observer ISMCTS: the index (in ``options``, ``count >= 2``) of the root
    option most visited in ``params[0]`` iterations, with playouts by the rollout
    strategy ``params[1]`` and exploration constant ``params[2]``.

    Each iteration determinizes the position for ``seat``, descends the tree choosing
    among the children legal in that determinization by UCB1 with availability counts
    (:func:`balance.core.search_nb.select_nb`), expands one untried legal option (chosen
    uniformly), plays out, and backs up at each node the result of the seat that chose
    its option. The tree (``work[Work.TREE]``) holds ``params[0] + 1`` nodes.
    """
    iterations = max(np.int64(1), np.int64(params[0]))
    rollout = np.int64(params[1])
    c = params[2]
    sim, _root, opts, _players, _views, dice, _deal, _error, _total, search, _table = work
    tree, keys, found, results = search
    path = tree[PATH]
    iterations = min(iterations, tree[FIRST_CHILD].shape[0] - 1)
    clear_tree_nb(tree)
    base = next_u64_nb(rng)
    for it in range(iterations):
        _sample_nb(pos, seat, rollout, base, it, work)
        node = np.int64(0)
        depth = 0
        n = count
        for i in range(n):
            for col in range(4):
                opts[i, col] = options[i, col]
        added = False
        while n > 0 and not added:
            mover = (sim[6][STATE.TURN] - 1) % 2
            for i in range(n):
                keys[i] = option_key_nb(opts, i)
            node, pick, added = select_nb(tree, node, keys, n, mover, c, found, rng)
            # The seat to move after the same options can differ between
            # determinizations (forced options may end a turn): the latest counts.
            tree[MOVER][node] = mover
            depth += 1
            path[depth] = node
            step_nb(sim, content, derived, rules, dice, *_row(opts, pick))
            n = next_decision_nb(sim, content, derived, rules, dice, opts)
        if n > 0:
            # np.bool_: a literal True would compile the playout apart from the flat
            # search's (a variable flag).
            result = _playout_nb(content, derived, rules, seat, np.bool_(True), work)
        else:
            result = result_nb(sim[6], seat)
        results[seat] = result
        results[1 - seat] = 1.0 - result
        back_up_nb(tree, depth, results)
    best = np.int64(0)
    best_visits = -1.0
    ties = 0
    for i in range(count):
        child = child_nb(tree, 0, option_key_nb(options, i))
        visits = tree[VISITS][child] if child >= 0 else 0.0
        taken, best_visits, ties = offer_nb(visits, best_visits, ties, rng, 0.0)
        if taken:
            best = i
    return best


@njit(cache=True, _nrt=False, error_model="numpy")
def search_nb(code, pos, content, derived, rules, options, count, seat, params, rng, work):
    """The search player ``code``'s choice (an index in ``options``, ``count >= 2``)."""
    if code == MC:
        return mc_nb(pos, content, derived, rules, options, count, seat, params, rng, work)
    return ismcts_nb(pos, content, derived, rules, options, count, seat, params, rng, work)


@njit(cache=True)
def search_choice_nb(code, pos, content, rules, options, count, seat, params, rng, rollouts):
    """One decision of a search player outside a block of games (the reference engine's
    replays): makes its own buffers. ``rollouts`` as in :func:`play_games_search_nb`."""
    derived = derive_nb(content)
    nodes = np.int64(params[0]) + 1 if code == ISMCTS else 1
    work = new_work_nb(params.shape[0], nodes, rollouts)
    return search_nb(code, pos, content, derived, rules, options, count, seat, params, rng, work)


@njit(cache=True, _nrt=False, error_model="numpy")
def play_game_search_nb(pos, content, derived, rules, dice, players, views, options, error, work):
    """:func:`.engine_nb.play_game_nb` for a line-up with search players: the same game,
    the search players' decisions made by :func:`search_nb`."""
    codes, params, rng = players
    state = pos[6]
    while not state[STATE.OVER]:
        start_turn_nb(pos, content, derived, rules, dice)
        if state[STATE.OVER]:
            break
        me = (state[STATE.TURN] - 1) % 2
        while True:
            count = legal_options_nb(pos, content, derived, rules, options)
            k = np.int64(0)
            if count >= 2:
                code = codes[me]
                if code == MC or code == ISMCTS:
                    k = search_nb(
                        code, pos, content, derived, rules, options, count, me, params[me],
                        rng[me], work,
                    )  # fmt: skip
                else:
                    k = ask_nb(pos, content, rules, views, options, count, me, players, error)
                    if error[Error.SEAT] >= 0:
                        return False
            if options[k, 0] == END_TURN:
                end_turn_nb(pos, content, rules)
                break
            apply_option_nb(pos, content, derived, rules, dice, *_row(options, k))
            if state[STATE.OVER]:
                break
    return True


@njit(cache=True, nogil=True)
def play_games_search_nb(
    rules, content, codes, params, seats_of, seed, first_game, games, seats, cards, error, rollouts
):
    """:func:`.engine_nb.play_games_nb` for line-ups with search players (same arguments,
    same records for the same seats); ``rollouts`` float64 ``(len(ROLLOUT_CODES), P)``
    holds the parameters each rollout strategy plays with. Trees are sized from the
    largest ismcts budget of the line-up."""
    pos = new_position_nb()
    derived = derive_nb(content)
    width = max(params.shape[1], MAX_PARAMS)
    players = (
        np.zeros(2, dtype=np.int64),
        np.zeros((2, width), dtype=np.float64),
        np.zeros((2, 4), dtype=np.uint64),
    )
    views = (np.zeros((2, DECK_SIZE), dtype=np.int64), np.zeros((2, MAX_HAND), dtype=np.int64))
    rng = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    dice = (rng[DICE_STREAM], np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64))
    options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    nodes = 1
    for i in range(codes.shape[0]):
        if codes[i] == ISMCTS:
            nodes = max(nodes, np.int64(params[i, 0]) + 1)
    work = new_work_nb(width, nodes, rollouts)
    return _play_search_nb(
        rules, content, derived, codes, params, seats_of, seed, first_game, pos, players,
        views, rng, dice, options, games, seats, cards, error, work,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_search_nb(
    rules, content, derived, codes, params, seats_of, seed, first_game, pos, players, views,
    rng, dice, options, games, seats, cards, error, work,
):  # fmt: skip
    """The game loop of :func:`play_games_search_nb`, as :func:`.engine_nb._play_nb`."""
    seat_codes, seat_params, seat_rng = players
    error[:] = -1
    for g in range(games.shape[0]):
        game = first_game + g
        seat_lineup_nb(game, codes, params, seats_of, 2, seat_codes, seat_params)
        for stream in range(N_STREAMS):
            seed_stream_nb(rng[stream], seed, game, stream)
        for s in range(2):
            for k in range(4):
                seat_rng[s, k] = rng[STRATEGY_STREAM + s, k]
        set_up_nb(pos, content, derived, rules, rng)
        if not play_game_search_nb(
            pos, content, derived, rules, dice, players, views, options, error, work
        ):
            error[Error.GAME] = game
            return g
        write_records_nb(g, pos, games, seats, cards)
    return games.shape[0]


# --- play from a position, checked: the same game split at a decision ----------------------


@njit(cache=True)
def play_split_nb(rules, content, codes, params, seed, game, split, games, seats, cards):
    """Game ``game`` of the run seeded ``seed`` (seat ``s`` plays code ``codes[s]`` with
    ``params[s]``), played ``split`` steps (options applied, forced ones included), its
    position and streams then copied into new buffers and played on there to the end.
    Writes the game's records (row 0 of ``games``, ``seats``, ``cards``) from the copy;
    returns the steps the game had in all (so ``split`` beyond it plays it straight)."""
    pos = new_position_nb()
    derived = derive_nb(content)
    players = (codes.copy(), params.copy(), np.zeros((2, 4), dtype=np.uint64))
    views = (np.zeros((2, DECK_SIZE), dtype=np.int64), np.zeros((2, MAX_HAND), dtype=np.int64))
    rng = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    for stream in range(N_STREAMS):
        seed_stream_nb(rng[stream], seed, game, stream)
    for s in range(2):
        players[2][s] = rng[STRATEGY_STREAM + s]
    dice = (rng[DICE_STREAM], np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64))
    options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    error = np.full(Error.SIZE, -1, dtype=np.int64)
    set_up_nb(pos, content, derived, rules, rng)
    steps = 0
    if not pos[6][STATE.OVER]:
        start_turn_nb(pos, content, derived, rules, dice)
    while not pos[6][STATE.OVER] and steps < split:
        count = legal_options_nb(pos, content, derived, rules, options)
        k = np.int64(0)
        if count >= 2:
            me = (pos[6][STATE.TURN] - 1) % 2
            k = ask_nb(pos, content, rules, views, options, count, me, players, error)
        step_nb(pos, content, derived, rules, dice, *_row(options, k))
        steps += 1
    copy = new_position_nb()
    copy_position_nb(pos, copy)
    copied_players = (players[0].copy(), players[1].copy(), players[2].copy())
    copied_dice = (dice[0].copy(), dice[1].copy(), dice[2].copy())
    if not copy[6][STATE.OVER]:
        play_on_nb(
            copy, content, derived, rules, copied_dice, copied_players, views, options, error,
            np.bool_(True),
        )  # fmt: skip
    write_records_nb(0, copy, games, seats, cards)
    while not pos[6][STATE.OVER]:  # count the rest of the original game's steps
        count = legal_options_nb(pos, content, derived, rules, options)
        k = np.int64(0)
        if count >= 2:
            me = (pos[6][STATE.TURN] - 1) % 2
            k = ask_nb(pos, content, rules, views, options, count, me, players, error)
        step_nb(pos, content, derived, rules, dice, *_row(options, k))
        steps += 1
    return steps
