"""Crazy Eights' compiled game loop: the rules :mod:`crazy_eights.reference` says readably
(``§``: ``docs/crazy-eights.md``'s sections), said again for speed, playing the same
games number for number. Nothing allocates inside the loop.

A deal is ``state = (hands, sizes, stock, pile, discard, table, scratch, options)``,
:class:`crazy_eights.reference.State`'s int64 arrays; a strategy sees ``view = (hand,
table, sizes, discard, scratch)``.
"""

import numpy as np
from balance.core import dispatch
from balance.core.compile_cache import njit
from balance.core.lineup_nb import seat_lineup_nb
from balance.core.random_nb import below_nb, seed_stream_nb
from balance.core.records import error_slots
from balance.core.strategy import MAX_PARAMS

from crazy_eights.records import GameStat, SeatStat
from crazy_eights.rules import DRAW, MAX_OPTIONS, N_CARDS, POINTS, Rank, Rule, Table

PLAYED, DREW, PASSED, WENT_OUT, ILLEGAL = 0, 1, 2, 3, -1
PLAY, SUIT = 0, 1  # the decisions, as error[DECISION] numbers them
Error = error_slots(__name__)
#: A code answering ``params[0]`` to a turn's first ``play``, ``params[1]`` to the one
#: after a draw and ``params[2]`` to ``suit`` (scenario tests).
SCRIPTED = -1

#: The index of the chosen option among ``options[:count]`` (cards, or DRAW), count >= 2.
play_nb = dispatch.Decision("play", "view, options, count, params, rng", "view[4], rng")
#: The suit (0..3) an eight names.
suit_nb = dispatch.Decision("suit", "view, params, rng", "view[4], rng")


@njit(inline="always", cache=True)
def scripted_play_nb(view, options, count, params, rng):
    return np.int64(params[1] if view[1][Table.DRAWN] > 0 else params[0])


@njit(inline="always", cache=True)
def scripted_suit_nb(view, params, rng):
    return np.int64(params[2])


@njit(inline="always", cache=True)
def shuffle_nb(cards, count, rng):
    for i in range(count - 1, 0, -1):
        j = below_nb(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@njit(inline="always", cache=True)
def take_top_nb(stock, table):
    table[Table.STOCK] -= 1
    return stock[table[Table.STOCK]]


@njit(inline="always", cache=True)
def discard_nb(state, card):
    pile, discard, table = state[3], state[4], state[5]
    pile[table[Table.PILE]], discard[card], table[Table.TOP] = card, 1, card
    table[Table.PILE] += 1


@njit(cache=True)
def deal_nb(state, rules, n, rng):
    """Shuffle, deal and turn the starter (§ Deal) into a zeroed ``state``."""
    hands, sizes, stock, table = state[0], state[1], state[2], state[5]
    table[Table.PLAYERS], table[Table.DIRECTION], table[Table.STOCK] = n, 1, N_CARDS
    for c in range(N_CARDS):
        stock[c] = c
    shuffle_nb(stock, N_CARDS, rng)
    dealt = rules[Rule.HAND_SIZE] if rules[Rule.HAND_SIZE] > 0 else (7 if n == 2 else 5)
    for _ in range(dealt):
        for seat in range(n):
            hands[seat, take_top_nb(stock, table)] = 1
            sizes[seat] += 1
    starter = take_top_nb(stock, table)
    while starter % 13 == Rank.EIGHT:
        count = table[Table.STOCK]
        place = below_nb(rng, count)
        for k in range(count, place, -1):
            stock[k] = stock[k - 1]
        stock[place], table[Table.STOCK] = starter, count + 1
        starter = take_top_nb(stock, table)
    discard_nb(state, starter)
    table[Table.SUIT] = starter // 13


@njit(inline="always", cache=True)
def playable_nb(table, card, forbidden):
    rank = card % 13
    if rank == forbidden:
        return False
    if table[Table.PENDING] > 0:
        return rank == Rank.TWO
    return rank == Rank.EIGHT or card // 13 == table[Table.SUIT] or rank == table[Table.TOP] % 13


@njit(inline="always", cache=True)
def legal_nb(hand, table, forbidden, options):
    """The cards of ``hand`` the seat may play, into ``options``; returns their count."""
    count = 0
    for c in range(N_CARDS):
        if hand[c] != 0 and playable_nb(table, c, forbidden):
            options[count] = c
            count += 1
    return count


@njit(inline="always", cache=True)
def can_draw_nb(table, rules):
    return table[Table.STOCK] > 0 or (rules[Rule.RESHUFFLE] != 0 and table[Table.PILE] > 1)


@njit(cache=True)
def draw_card_nb(state, rules, seat, rng, games, seats):
    """Draw one card into the seat's hand, reshuffling if need be (§ Stock); -1 if none."""
    hands, sizes, stock, pile, discard, table = state[:6]
    if not can_draw_nb(table, rules):
        return -1
    if table[Table.STOCK] == 0:
        count = table[Table.PILE] - 1
        for k in range(count):
            stock[k], discard[pile[k]] = pile[k], 0
        pile[0], table[Table.PILE], table[Table.STOCK] = pile[count], 1, count
        shuffle_nb(stock, count, rng)
        games[GameStat.RESHUFFLES] += 1
    card = take_top_nb(stock, table)
    hands[seat, card] = 1
    sizes[seat] += 1
    table[Table.DRAWN] += 1
    seats[seat, SeatStat.DRAWN] += 1
    return card


@njit(inline="always", cache=True)
def illegal_nb(error, decision, value, count):
    error[Error.DECISION], error[Error.VALUE], error[Error.COUNT] = decision, value, count
    return ILLEGAL


@njit(inline="always", cache=True)
def choose_nb(view, options, count, code, params, rng, error):
    """The option the seat's strategy picks (forced if single); ILLEGAL outside them."""
    if count == 1:
        return options[0]
    k = play_nb(code, view, options, count, params, rng)
    return options[k] if 0 <= k < count else illegal_nb(error, PLAY, k, count)


@njit(cache=True)
def play_turn_nb(state, rules, code, params, streams, forbidden, record, error):
    """One turn of the seat to play (§ A turn), as the reference's ``play_turn``: ``streams``
    uint64 ``(n + 1, 4)``, chance's then each seat's; ``record`` the game's rows of
    ``(games, seats, cards)``. Returns PLAYED, DREW, PASSED, WENT_OUT or ILLEGAL."""
    hands, table, options = state[0], state[5], state[7]
    games, seats, cards = record
    seat = table[Table.SEAT]
    rng, chance = streams[1 + seat], streams[0]
    view = (hands[seat], table, state[1], state[4], state[6])
    table[Table.DRAWN] = 0
    seats[seat, SeatStat.TURNS] += 1
    count = legal_nb(hands[seat], table, forbidden, options)
    if table[Table.PENDING] > 0:
        options[count] = DRAW
        card = choose_nb(view, options, count + 1, code, params, rng, error)
        if card == DRAW:
            owed, table[Table.PENDING] = table[Table.PENDING], 0
            for _ in range(owed):
                draw_card_nb(state, rules, seat, chance, games, seats)
            return next_nb(table, seats, seat, 1, DREW)
    else:
        may_draw = can_draw_nb(table, rules) and (count == 0 or rules[Rule.DRAW_WHEN_ABLE] != 0)
        if count == 0 and not may_draw:
            return next_nb(table, seats, seat, 1, PASSED)
        if may_draw:
            options[count] = DRAW
            count += 1
        card = choose_nb(view, options, count, code, params, rng, error)
        if card == DRAW:
            drawn = draw_card_nb(state, rules, seat, chance, games, seats)
            while not (rules[Rule.DRAW_ONE] != 0 or playable_nb(table, drawn, forbidden)):
                drawn = draw_card_nb(state, rules, seat, chance, games, seats)
                if drawn < 0:
                    break
            count = legal_nb(hands[seat], table, forbidden, options)
            if count == 0:
                return next_nb(table, seats, seat, 1, DREW)
            card = choose_nb(view, options, count, code, params, rng, error)
    if card == ILLEGAL:
        return ILLEGAL
    return play_card_nb(state, rules, seat, card, code, params, rng, seats, cards, error)


@njit(cache=True)
def play_card_nb(state, rules, seat, card, code, params, rng, seats, cards, error):
    """The seat plays ``card``, which takes effect (§ Card effects)."""
    hands, sizes, table = state[0], state[1], state[5]
    rank = card % 13
    hands[seat, card] = 0
    sizes[seat] -= 1
    discard_nb(state, card)
    seats[seat, SeatStat.PLAYED] += 1
    seats[seat, SeatStat.EIGHTS] += rank == Rank.EIGHT
    cards[seat, rank, 0] += 1
    if sizes[seat] == 0:
        return WENT_OUT
    table[Table.SUIT] = card // 13
    if rank == Rank.EIGHT:
        named = suit_nb(code, (hands[seat], table, sizes, state[4], state[6]), params, rng)
        if not 0 <= named < 4:
            return illegal_nb(error, SUIT, named, 4)
        table[Table.SUIT] = named
    if rank == Rank.TWO and rules[Rule.TWOS_DRAW_TWO] != 0:
        table[Table.PENDING] += 2
    if rank == Rank.ACE and rules[Rule.ACES_REVERSE] != 0:
        table[Table.DIRECTION] = -table[Table.DIRECTION]
    skip = rank == Rank.QUEEN and rules[Rule.QUEENS_SKIP] != 0
    return next_nb(table, seats, seat, 2 if skip else 1, PLAYED)


@njit(inline="always", cache=True)
def next_nb(table, seats, seat, step, outcome):
    table[Table.SEAT] = (seat + step * table[Table.DIRECTION]) % table[Table.PLAYERS]
    seats[seat, SeatStat.PASSES] += outcome == PASSED
    return outcome


@njit(cache=True, nogil=True)
def play_games_nb(n, rules, codes, params, seats_of, seed, first_game, games, seats, cards, error):
    """Play games ``first_game ..`` of the run seeded ``seed`` (core/engine's arguments).

    ``seats_of`` int64 ``(R, 2n)``: row ``i % R`` seats game ``i``'s strategies, then the
    rank each seat may never play (-1: none). The records, zeroed and written here:
    ``games`` int32 ``(G, GameStat.SIZE)``, ``seats`` ``(G, n, SeatStat.SIZE)``, ``cards``
    ``(G, n, 13, 1)``. Returns the games played (fewer if a strategy erred: ``error``).
    """
    hands = np.zeros((n, N_CARDS), dtype=np.int64)
    stock, pile = np.zeros(N_CARDS, dtype=np.int64), np.zeros(N_CARDS, dtype=np.int64)
    discard = np.zeros(N_CARDS, dtype=np.int64)
    table, sizes = np.zeros(Table.SIZE, dtype=np.int64), np.zeros(n, dtype=np.int64)
    scratch, options = np.zeros(8, dtype=np.int64), np.zeros(MAX_OPTIONS, dtype=np.int64)
    state = (hands, sizes, stock, pile, discard, table, scratch, options)
    rng = np.zeros((n + 1, 4), dtype=np.uint64)  # chance, then each seat
    seated = (np.zeros(n, dtype=np.int64), np.zeros((n, MAX_PARAMS)))  # codes, params
    records = (games, seats, cards)
    return _play_nb(
        n, rules, (codes, params, seats_of), seed, first_game, records, error, state, rng, seated
    )


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_nb(n, rules, lineup, seed, first_game, records, error, state, rng, seated):
    """The loop of :func:`play_games_nb`, without numba's runtime: nothing may allocate."""
    (games, seats, cards), (codes, params, seats_of) = records, lineup
    hands, table = state[0], state[5]
    seat_codes, seat_params = seated
    error[:] = -1
    for g in range(games.shape[0]):
        game = first_game + g
        row = seat_lineup_nb(game, codes, params, seats_of, n, seat_codes, seat_params)
        for stream in range(n + 1):
            seed_stream_nb(rng[stream], seed, game, stream)
        hands[:, :] = 0
        for part in state[1:]:  # the one-dimensional arrays
            part[:] = 0
        deal_nb(state, rules, n, rng[0])
        games[g, GameStat.WINNER] = -1
        rec = (games[g], seats[g], cards[g])
        passes = 0  # in a row: a whole round of them blocks the game
        while table[Table.TURN] < rules[Rule.TURN_CAP]:
            seat = table[Table.SEAT]
            code, params_of, forbidden = seat_codes[seat], seat_params[seat], row[n + seat]
            outcome = play_turn_nb(state, rules, code, params_of, rng, forbidden, rec, error)
            if outcome == ILLEGAL:
                error[Error.GAME], error[Error.SEAT] = game, seat
                return g
            table[Table.TURN] += 1
            passes = passes + 1 if outcome == PASSED else 0
            if outcome == WENT_OUT:
                games[g, GameStat.WINNER], seats[g, seat, SeatStat.WON] = seat, 1
                break
            if passes == n:
                games[g, GameStat.BLOCKED] = 1
                break
        lowest = 1 << 30
        for s in range(n):
            held = 0
            for c in range(N_CARDS):
                held += hands[s, c] * POINTS[c % 13]
            seats[g, s, SeatStat.POINTS], lowest = held, min(lowest, held)
        for s in range(n):  # blocked: the lowest penalty wins, ties shared
            if games[g, GameStat.BLOCKED] != 0 and seats[g, s, SeatStat.POINTS] == lowest:
                seats[g, s, SeatStat.WON] = 1
        games[g, GameStat.TURNS] = table[Table.TURN]
        games[g, GameStat.FINISHED] = seats[g, :, SeatStat.WON].any()
    return games.shape[0]
