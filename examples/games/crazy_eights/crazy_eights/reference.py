"""Crazy Eights in plain Python: the readable reference engine.

It plays the rules of ``docs/crazy-eights.md`` (``§`` names that page's sections) and the
same games as the compiled engine (:mod:`crazy_eights.engine_nb`), number for number: for
a seed and a game index both draw the same random numbers in the same order (stream 0
shuffles, stream ``1 + s`` is seat ``s``'s) and write the same record. Its state is held
in numpy arrays shaped as the compiled engine's, so that a strategy's compiled functions
are called from here with the very arguments the compiled loop passes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
from balance.core.errors import BalanceError
from balance.core.game import quiet
from balance.core.random_ref import Stream
from balance.core.records import Records

from crazy_eights.records import RECORDS, GameRecord, GameStat, SeatStat
from crazy_eights.rules import DRAW, MAX_OPTIONS, N_CARDS, POINTS, SUITS, Rank, Table
from crazy_eights.rules import CrazyEightsRules as Rules

#: What a turn came to (:func:`play_turn`'s result).
PLAYED, DREW, PASSED, WENT_OUT = range(4)
#: Cards' penalty points, by card ``(52,)``.
CARD_POINTS = np.array(POINTS * 4)

Narrator = Callable[[str], None]


class State:
    """A deal in progress, in the compiled engine's arrays (int64; ``n`` players).

    Attributes
    ----------
    hands : ``(n, 52)``, 1 where the seat holds the card.
    sizes : ``(n,)``, cards in each hand.
    stock : ``(52,)``, the stock from the bottom; its top is ``stock[table[STOCK] - 1]``.
    pile : ``(52,)``, the discard pile from the bottom, ``table[PILE]`` cards.
    discard : ``(52,)``, 1 where the card is in the discard pile.
    table : ``(Table.SIZE,)``, the public table (:class:`crazy_eights.rules.TableSlots`).
    scratch : ``(8,)``, a strategy's scratch space.
    options : ``(MAX_OPTIONS,)``, the options of the decision being asked.
    """

    def __init__(self, players: int) -> None:
        self.hands = np.zeros((players, N_CARDS), dtype=np.int64)
        self.sizes = np.zeros(players, dtype=np.int64)
        self.stock, self.pile = np.zeros(N_CARDS, dtype=np.int64), np.zeros(N_CARDS, dtype=np.int64)
        self.discard = np.zeros(N_CARDS, dtype=np.int64)
        self.table = np.zeros(Table.SIZE, dtype=np.int64)
        self.scratch = np.zeros(8, dtype=np.int64)
        self.options = np.zeros(MAX_OPTIONS, dtype=np.int64)
        self.table[Table.PLAYERS], self.table[Table.DIRECTION] = players, 1

    def view(self, seat: int) -> tuple[np.ndarray, ...]:
        """What the seat's strategy sees: its hand, the table, every hand's size, the
        discard pile and its scratch space."""
        return self.hands[seat], self.table, self.sizes, self.discard, self.scratch


class Player(Protocol):
    """A seat's decision maker: the index of an option, and the suit an eight names."""

    def play(self, view: tuple, options: np.ndarray, count: int) -> int: ...

    def suit(self, view: tuple) -> int: ...


class RandomPlayer:
    """The uniform-random player, drawing from its seat's stream."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def play(self, view: tuple, options: np.ndarray, count: int) -> int:
        return self.stream.below(count)

    def suit(self, view: tuple) -> int:
        return self.stream.below(len(SUITS))


def shuffle(cards: np.ndarray, count: int, chance: Stream) -> None:
    """Fisher-Yates on ``cards[:count]`` (§ Chance): each place from the last down to the
    second swaps with place ``below(i + 1)``."""
    for i in range(count - 1, 0, -1):
        j = chance.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def take_top(state: State) -> int:
    """The top card of the stock, taken off it."""
    state.table[Table.STOCK] -= 1
    return int(state.stock[state.table[Table.STOCK]])


def discard(state: State, card: int) -> None:
    """``card`` face up on the discard pile."""
    t = state.table
    state.pile[t[Table.PILE]], state.discard[card], t[Table.TOP] = card, 1, card
    t[Table.PILE] += 1


def deal(rules: Rules, players: int, chance: Stream, narrate: Narrator = quiet) -> State:
    """Shuffle, deal one card at a time from seat 0, and turn the starter (§ Deal)."""
    state = State(players)
    t = state.table
    state.stock[:], t[Table.STOCK] = np.arange(N_CARDS), N_CARDS
    shuffle(state.stock, N_CARDS, chance)
    for _ in range(rules.dealt(players)):
        for seat in range(players):
            state.hands[seat, take_top(state)] = 1
            state.sizes[seat] += 1
    starter = take_top(state)
    while starter % 13 == Rank.EIGHT:  # buried at a random place below the top
        count = int(t[Table.STOCK])
        place = chance.below(count)
        state.stock[place + 1 : count + 1] = state.stock[place:count].copy()
        state.stock[place], t[Table.STOCK] = starter, count + 1
        narrate(f"The starter {short(starter)} is buried, {place} cards from the bottom")
        starter = take_top(state)
    discard(state, starter)
    t[Table.SUIT] = starter // 13
    for seat in range(players):
        narrate(f"Seat {seat} holds {hand_text(state.hands[seat])}")
    narrate(f"Starter: {short(starter)}")
    return state


def playable(state: State, card: int, forbidden: int) -> bool:
    """Whether the seat to play may play ``card`` (§ Playing a card)."""
    rank, t = card % 13, state.table
    if rank == forbidden:  # restricted play
        return False
    if t[Table.PENDING] > 0:  # twos-draw-two: only a two answers a two
        return rank == Rank.TWO
    return rank == Rank.EIGHT or card // 13 == t[Table.SUIT] or rank == t[Table.TOP] % 13


def legal_cards(state: State, seat: int, forbidden: int) -> list[int]:
    """The cards the seat may play, in card order."""
    return [int(c) for c in np.flatnonzero(state.hands[seat]) if playable(state, c, forbidden)]


def can_draw(state: State, rules: Rules) -> bool:
    """Whether a card can be drawn: from the stock, or from a reshuffle of the pile."""
    t = state.table
    return bool(t[Table.STOCK] > 0 or (rules.reshuffle and t[Table.PILE] > 1))


def draw_card(state: State, rules: Rules, seat: int, chance: Stream, rec: dict) -> int:
    """Draw a card into the seat's hand, the pile but its top shuffled into a new stock if
    the stock is empty (§ Stock); -1 if no card can be drawn."""
    t = state.table
    if not can_draw(state, rules):
        return -1
    if t[Table.STOCK] == 0:
        count = t[Table.PILE] - 1
        state.stock[:count] = state.pile[:count]
        state.discard[state.pile[:count]] = 0
        state.pile[0], t[Table.PILE], t[Table.STOCK] = state.pile[count], 1, count
        shuffle(state.stock, count, chance)
        rec["games"][0, GameStat.RESHUFFLES] += 1
    card = take_top(state)
    state.hands[seat, card] = 1
    state.sizes[seat] += 1
    t[Table.DRAWN] += 1
    rec["seats"][0, seat, SeatStat.DRAWN] += 1
    return card


def choose(state: State, seat: int, player: Player, options: Sequence[int]) -> int:
    """The option the seat's player picks; a single option is forced and asks nothing."""
    count = len(options)
    if count == 1:
        return options[0]
    state.options[:count] = options
    k = player.play(state.view(seat), state.options, count)
    if not 0 <= k < count:
        raise BalanceError(f"seat {seat} answered 'play' {k}, not 0..{count - 1}")
    return options[k]


def play_turn(
    state: State,
    rules: Rules,
    player: Player,
    chance: Stream,
    rec: dict,
    forbidden: int = -1,
    narrate: Narrator = quiet,
) -> int:
    """One turn of the seat to play (§ A turn); the table then names the next seat.

    ``forbidden`` is a rank the seat may never play (restricted play), or -1; ``rec`` holds
    the game's record arrays. Returns PLAYED, DREW (drew, or took a penalty, and played
    nothing), PASSED (neither played nor drew) or WENT_OUT (played its last card).
    """
    t = state.table
    seat = int(t[Table.SEAT])
    t[Table.DRAWN] = 0
    rec["seats"][0, seat, SeatStat.TURNS] += 1
    said = f"Turn {t[Table.TURN] + 1}: seat {seat}"
    cards = legal_cards(state, seat, forbidden)
    if t[Table.PENDING] > 0:  # twos-draw-two: answer with a two, or draw what is owed
        card = choose(state, seat, player, [*cards, DRAW])
        if card == DRAW:
            owed, t[Table.PENDING] = int(t[Table.PENDING]), 0
            drawn = [draw_card(state, rules, seat, chance, rec) for _ in range(owed)]
            narrate(f"{said} draws {sum(c >= 0 for c in drawn)} of the {owed} owed")
            return _next(state, seat, 1, DREW, rec)
    else:
        may_draw = can_draw(state, rules) and (not cards or rules.draw_when_able)
        if not cards and not may_draw:
            narrate(f"{said} can neither play nor draw: passes")
            return _next(state, seat, 1, PASSED, rec)
        card = choose(state, seat, player, cards + [DRAW] * may_draw)
        if card == DRAW:  # until a card it may play (draw-one: one card)
            drawn = [draw_card(state, rules, seat, chance, rec)]
            while not (rules.draw_one or playable(state, drawn[-1], forbidden)):
                drawn.append(draw_card(state, rules, seat, chance, rec))
                if drawn[-1] < 0:  # nothing left to draw
                    drawn.pop()
                    break
            narrate(f"{said} draws {', '.join(short(c) for c in drawn)}")
            cards = legal_cards(state, seat, forbidden)
            if not cards:
                return _next(state, seat, 1, DREW, rec)
            card = choose(state, seat, player, cards)
    return play_card(state, rules, seat, card, player, rec, narrate)


def play_card(
    state: State, rules: Rules, seat: int, card: int, player: Player, rec: dict, narrate: Narrator
) -> int:
    """The seat plays ``card``, which takes effect (§ Card effects)."""
    t, rank = state.table, card % 13
    state.hands[seat, card] = 0
    state.sizes[seat] -= 1
    discard(state, card)
    rec["seats"][0, seat, SeatStat.PLAYED] += 1
    rec["seats"][0, seat, SeatStat.EIGHTS] += rank == Rank.EIGHT
    rec["cards"][0, seat, rank, 0] += 1
    said = f"Turn {t[Table.TURN] + 1}: seat {seat} plays {short(card)}"
    if state.sizes[seat] == 0:
        narrate(f"{said}, its last card")
        return WENT_OUT
    t[Table.SUIT] = card // 13
    if rank == Rank.EIGHT:
        named = player.suit(state.view(seat))
        if not 0 <= named < len(SUITS):
            raise BalanceError(f"seat {seat} answered 'suit' {named}, not 0..3")
        t[Table.SUIT] = named
        said += f" and names {SUITS[named]}"
    if rank == Rank.TWO and rules.twos_draw_two:
        t[Table.PENDING] += 2
        said += f": the next player owes {t[Table.PENDING]}"
    if rank == Rank.ACE and rules.aces_reverse:
        t[Table.DIRECTION] = -t[Table.DIRECTION]
        said += ": play reverses"
    skip = rank == Rank.QUEEN and rules.queens_skip
    narrate(said + (": the next player is skipped" if skip else ""))
    return _next(state, seat, 2 if skip else 1, PLAYED, rec)


def _next(state: State, seat: int, step: int, outcome: int, rec: dict) -> int:
    """Hand the turn on ``step`` seats in the direction of play; returns ``outcome``."""
    t = state.table
    t[Table.SEAT] = (seat + step * t[Table.DIRECTION]) % t[Table.PLAYERS]
    rec["seats"][0, seat, SeatStat.PASSES] += outcome == PASSED
    return outcome


def play_game(
    rules: Rules,
    players: int,
    seed: int,
    game: int,
    narrate: Narrator = quiet,
    make_player: Callable[[int, Stream], Player] | None = None,
    forbidden: Sequence[int] | None = None,
) -> GameRecord:
    """Play game ``game`` of the run seeded ``seed`` (§ End).

    ``make_player(seat, stream)`` gives each seat its player (uniform-random by default);
    ``forbidden`` holds, per seat, a rank it may never play (restricted play) or -1.
    """
    n = players
    chance = Stream(seed, game, 0)
    make_player = make_player or (lambda seat, stream: RandomPlayer(stream))
    seated = [make_player(s, Stream(seed, game, 1 + s)) for s in range(n)]
    forbidden = list(forbidden) if forbidden is not None else [-1] * n
    rec = RECORDS.empty(1, n)
    games, seats = rec["games"][0], rec["seats"][0]
    games[GameStat.WINNER] = -1
    state = deal(rules, n, chance, narrate)
    t = state.table
    passes = 0  # in a row: a whole round of them blocks the game
    while t[Table.TURN] < rules.turn_cap:
        seat = int(t[Table.SEAT])
        outcome = play_turn(state, rules, seated[seat], chance, rec, forbidden[seat], narrate)
        t[Table.TURN] += 1
        passes = passes + 1 if outcome == PASSED else 0
        if outcome == WENT_OUT:
            games[GameStat.WINNER], seats[seat, SeatStat.WON] = seat, 1
            break
        if passes == n:
            games[GameStat.BLOCKED] = 1
            break
    points = state.hands @ CARD_POINTS
    seats[:, SeatStat.POINTS], games[GameStat.TURNS] = points, t[Table.TURN]
    if games[GameStat.BLOCKED]:  # the lowest penalty wins, ties shared
        seats[:, SeatStat.WON] = points == points.min()
    games[GameStat.FINISHED] = seats[:, SeatStat.WON].any()
    won = [s for s in range(n) if seats[s, SeatStat.WON]]
    ending = "blocked: the lowest penalty wins" if games[GameStat.BLOCKED] else "game over"
    narrate(f"{ending if won else 'turn cap reached: unfinished'}; penalty points {points}")
    return Records(RECORDS, game, rec, GameRecord).game_record(0)


def short(card: int) -> str:
    """A card in two characters, rank then suit: ``8H``, ``TC``, ``QS``."""
    return "A23456789TJQK"[card % 13] + "CDHS"[card // 13]


def hand_text(hand: np.ndarray) -> str:
    """A hand ``(52,)`` in short card names."""
    return " ".join(short(int(c)) for c in np.flatnonzero(hand))
