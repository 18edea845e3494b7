"""Python face of the compiled Walk the Plank engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and
returns a :class:`Records`; :func:`legal_options` and :func:`resolve_card` run
single steps of the compiled engine on a hand-built :class:`Position`, so that
scenario tests hold the compiled rules to the same positions as the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from balance.core import dispatch
from balance.core.dispatch import USER_CODES, Dispatch
from balance.core.errors import BalanceError
from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS, SeatStrategy, Strategy
from balance.games.base import Lineup, check_block, check_player_count, lineup_arrays
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank import moves_nb
from balance.games.walk_the_plank.bridge import pack_position, unpack_position
from balance.games.walk_the_plank.cards import CARD_NAMES, N_CARDS, card_mask
from balance.games.walk_the_plank.reference import CardOutcome, GameRecord, Position
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.strategies import walk_the_plank as shipped
from balance.strategies.walk_the_plank import random as random_strategy

MIN_PLAYERS = 2
MAX_PLAYERS = 5
DECISIONS = ("program", "choose", "push")


def check_players(players: int) -> None:
    check_player_count("walk-the-plank", players, MIN_PLAYERS, MAX_PLAYERS)


@dataclass(frozen=True)
class Records:
    """Per-game records of a block of games, as the compiled engine writes them.

    Attributes
    ----------
    first_game : index of the first game of the block.
    games : int32 ``(G, GameStat.SIZE)``: rounds, finished, ghost seat, Dolphin face,
        Kraken faces (calm, giant wave, kraken) and pirates the Kraken took.
    cards : int16 ``(G, n, 10, CardStat.SIZE)``: per seat and card: revealed, had an
        effect, own pirates killed, others' pirates killed, pirates saved.
    seats : int8 ``(G, n, 2)``: per seat: won (0/1), pirates left.
    """

    first_game: int
    games: np.ndarray
    cards: np.ndarray
    seats: np.ndarray

    def __len__(self) -> int:
        return self.games.shape[0]

    def game_record(self, g: int) -> GameRecord:
        """Game ``g`` of the block in the reference engine's record form."""
        row, cards, seats = self.games[g], self.cards[g], self.seats[g]
        stat = nb.CardStat

        def per_card(column: int) -> list[list[int]]:
            return cards[:, :, column].astype(int).tolist()

        return GameRecord(
            rounds=int(row[nb.GameStat.ROUNDS]),
            finished=bool(row[nb.GameStat.FINISHED]),
            winners=[bool(x) for x in seats[:, 0]],
            pirates_left=[int(x) for x in seats[:, 1]],
            revealed=per_card(stat.REVEALED),
            effect=per_card(stat.EFFECT),
            killed_own=per_card(stat.KILLED_OWN),
            killed_others=per_card(stat.KILLED_OTHERS),
            saved=per_card(stat.SAVED),
            ghost_seat=int(row[nb.GameStat.GHOST_SEAT]),
            dolphin_face=int(row[nb.GameStat.DOLPHIN_FACE]),
            kraken_rolls=[
                int(row[nb.GameStat.KRAKEN_CALM]),
                int(row[nb.GameStat.KRAKEN_WAVE]),
                int(row[nb.GameStat.KRAKEN_KRAKEN]),
            ],
            kraken_killed=int(row[nb.GameStat.KRAKEN_KILLED]),
        )


def records_from_games(played: Sequence[GameRecord], first_game: int, players: int) -> Records:
    """The reference engine's records of consecutive games as the compiled engine's arrays."""
    g_count = len(played)
    games = np.zeros((g_count, nb.GameStat.SIZE), dtype=np.int32)
    cards = np.zeros((g_count, players, N_CARDS, nb.CardStat.SIZE), dtype=np.int16)
    seats = np.zeros((g_count, players, 2), dtype=np.int8)
    stat, card_stat = nb.GameStat, nb.CardStat
    for g, record in enumerate(played):
        games[g, stat.ROUNDS] = record.rounds
        games[g, stat.FINISHED] = record.finished
        games[g, stat.GHOST_SEAT] = record.ghost_seat
        games[g, stat.DOLPHIN_FACE] = record.dolphin_face
        games[g, stat.KRAKEN_CALM : stat.KRAKEN_KRAKEN + 1] = record.kraken_rolls
        games[g, stat.KRAKEN_KILLED] = record.kraken_killed
        seats[g, :, 0] = record.winners
        seats[g, :, 1] = record.pirates_left
        cards[g, :, :, card_stat.REVEALED] = record.revealed
        cards[g, :, :, card_stat.EFFECT] = record.effect
        cards[g, :, :, card_stat.KILLED_OWN] = record.killed_own
        cards[g, :, :, card_stat.KILLED_OTHERS] = record.killed_others
        cards[g, :, :, card_stat.SAVED] = record.saved
    return Records(first_game=first_game, games=games, cards=cards, seats=seats)


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


def kernel_inputs(lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``codes`` (K,), ``params`` (K, MAX_PARAMS) and ``seats_of`` (R, 2n) for the kernel.

    Row ``i % R`` of ``seats_of`` is game ``i``'s table: the strategy in each seat, then
    each seat's forbidden cards. ``R`` is :attr:`Lineup.period`, the games after which
    the seating and the restricted seat repeat.
    """
    codes, params, rows, strategies = lineup_arrays(lineup, USER_CODES)
    return codes, params, np.hstack([strategies, forbidden_by_seat(lineup, rows)])


def forbidden_by_seat(lineup: Lineup, game: np.ndarray | int) -> np.ndarray:
    """Mask of the cards each seat may never program, per game: int64 ``(..., n)``."""
    game = np.asarray(game, dtype=np.int64)
    seat = lineup.restricted_seat(game)[..., None]
    mask = card_mask(lineup.restricted)
    return np.where(np.arange(len(lineup.seats)) == seat, mask, 0).astype(np.int64)


def uniform_lineup(players: int) -> Lineup:
    return Lineup(tuple(SeatStrategy(random_strategy, ()) for _ in range(players)))


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    # push is optional: without it a user's strategy takes the Dolphin steps at random.
    fallback={"push": random_strategy.decisions["push"]},
)


def kernel_for(lineup: Lineup) -> Callable:
    """The compiled game loop that can call every strategy of ``lineup``.

    Shipped strategies use the loop cached on disk. A user's strategies join through
    dispatchers generated for them, and the loop is compiled once per version of their
    file (then loaded from disk).
    """
    return DISPATCH.kernel_for([seat.strategy for seat in lineup.seats])


def check_strategy(strategy: Strategy) -> None:
    """A user's strategy must give compiled functions for the decisions it makes."""
    dispatch.check_strategy(strategy, "walk-the-plank", DECISIONS, ("program", "choose"))


def play_games(
    rules: WalkThePlankRules,
    players: int,
    seed: int,
    n_games: int,
    first_game: int = 0,
    lineup: Lineup | None = None,
    per_seat_cards: bool = True,
) -> Records:
    """Play ``n_games`` games, indices ``first_game ..``, in compiled code.

    Every seat plays uniform-random unless ``lineup`` says otherwise. Releases the GIL
    while it plays, so blocks can run on several threads at once. With
    ``per_seat_cards=False`` the records' ``cards`` hold only what a summary reads:
    int16 ``(G, 10, 2)``, per card the reveals and the reveals with an effect, summed
    over the seats (a tenth of the memory; such records have no :meth:`~Records.game_record`).
    """
    check_players(players)
    lineup = lineup or uniform_lineup(players)
    check_block(players, n_games, first_game, seed, lineup, check_strategy)
    games = np.zeros((n_games, nb.GameStat.SIZE), dtype=np.int32)
    shape = (players, N_CARDS, nb.CardStat.SIZE) if per_seat_cards else (1, N_CARDS, 2)
    cards = np.zeros((n_games, *shape), dtype=np.int16)
    seats = np.zeros((n_games, players, 2), dtype=np.int8)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    codes, params, seats_of = kernel_inputs(lineup)
    kernel = kernel_for(lineup)
    done = kernel(
        players,
        rules.to_array(),
        codes,
        params,
        seats_of,
        seed,
        first_game,
        games,
        cards,
        seats,
        error,
    )
    if error[nb.Error.GAME] >= 0:
        raise BalanceError(_illegal_choice_message(lineup, error))
    assert done == n_games
    if not per_seat_cards:
        cards = cards[:, 0]
    return Records(first_game=first_game, games=games, cards=cards, seats=seats)


def _illegal_choice_message(lineup: Lineup, error: np.ndarray) -> str:
    game, seat = int(error[nb.Error.GAME]), int(error[nb.Error.SEAT])
    index = int(lineup.strategy_index(np.array(game), seat))
    label = lineup.seats[index].label
    decision = DECISIONS[int(error[nb.Error.DECISION])]
    value = int(error[nb.Error.VALUE])
    if decision == "program":
        cards = [
            _card_name(value // 10000),
            _card_name(value // 100 % 100),
            _card_name(value % 100),
        ]
        what = (
            f"programmed {', '.join(cards)}, not three different cards from its hand "
            "(cards resting or forbidden to it may not be programmed)"
        )
    elif decision == "choose":
        card = CARD_NAMES[int(error[nb.Error.CARD])]
        what = f"chose option {value} of {card}, outside its options (0 to count-1)"
    else:
        what = (
            f"chose Dolphin step {value}, outside its options (0 to count-1: a pirate "
            "to push, or the last option to stop)"
        )
    return (
        f"strategy {label!r} (seat {seat}) made an illegal {decision!r} decision "
        f"in game {game}: {what}"
    )


def _card_name(card: int) -> str:
    """A card by its name on the rules page, or what the strategy wrote if no card."""
    return CARD_NAMES[card] if 0 <= card < N_CARDS else f"card number {card} (no such card)"


# ---------------------------------------------------------------------------
# Single steps on hand-built positions
# ---------------------------------------------------------------------------


def legal_options(
    pos: Position, rules: WalkThePlankRules, seat: int, card: int, slot: int
) -> list[tuple[int, int]]:
    """The compiled engine's option list for ``card`` played by ``seat`` in ``slot``."""
    pirates, living, state, _, _, packed, n, opt_tile, opt_arg = pack_position(pos, rules)
    count = moves_nb.legal_options_nb(
        pirates, living, state, packed, n, seat, card, slot, opt_tile, opt_arg
    )
    return [(int(opt_tile[k]), int(opt_arg[k])) for k in range(count)]


def resolve_card(
    pos: Position,
    rules: WalkThePlankRules,
    seat: int,
    card: int,
    option: tuple[int, int],
    dice: Sequence[int] = (),
    choices: Sequence[int] = (),
) -> tuple[Position, CardOutcome]:
    """Resolve one card in compiled code; dice faces and Dolphin choices are scripted.

    Returns the new position (``pos`` is not changed) and what the card did. Once the
    script runs out, dice come from stream 0 of game 0 of seed 0 and choices are random.
    """
    obs = pack_position(pos, rules)
    n = pos.players
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], 0, 0, stream)
    outcome = np.zeros(moves_nb.Outcome.SIZE, dtype=np.int64)
    scratch = (
        outcome,
        np.zeros(moves_nb.MAX_FALLEN, dtype=np.int64),
        np.zeros((n, moves_nb.TILES), dtype=np.int64),
    )
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    DISPATCH.bound(nb.resolve_card_nb)(
        obs,
        seat,
        card,
        option[0],
        option[1],
        np.full(n, nb.RANDOM, dtype=np.int64),  # once the script runs out
        np.zeros((n, MAX_PARAMS), dtype=np.float64),
        rng,
        np.asarray(dice, dtype=np.int64),
        np.asarray(choices, dtype=np.int64),
        scratch,
        error,
    )
    pirates, living, state = obs[0], obs[1], obs[2]
    if not np.array_equal(living, pirates.sum(axis=1)):
        raise AssertionError("compiled engine lost count of living pirates")
    occupied = slice(moves_nb.State.SEATS, moves_nb.State.SIZE)
    expected = pack_position(unpack_position(pos, obs), rules)[2][occupied]
    if not np.array_equal(expected, state[occupied]):
        raise AssertionError("compiled engine lost track of which seats occupy which tiles")
    mask = int(outcome[moves_nb.Outcome.ELIMINATED_MASK])
    result = CardOutcome(
        killed_own=int(outcome[moves_nb.Outcome.KILLED_OWN]),
        killed_others=int(outcome[moves_nb.Outcome.KILLED_OTHERS]),
        saved=int(outcome[moves_nb.Outcome.SAVED]),
        kraken_killed=int(outcome[moves_nb.Outcome.KRAKEN_KILLED]),
        kraken_rolls=[
            int(outcome[moves_nb.Outcome.KRAKEN_CALM]),
            int(outcome[moves_nb.Outcome.KRAKEN_WAVE]),
            int(outcome[moves_nb.Outcome.KRAKEN_KRAKEN]),
        ],
        dolphin_face=int(outcome[moves_nb.Outcome.DOLPHIN_FACE]),
        eliminated=[(seat + k) % n for k in range(n) if mask >> ((seat + k) % n) & 1],
    )
    return unpack_position(pos, obs), result


def game_over(living: Sequence[int]) -> bool:
    """The compiled end condition on living pirates per seat."""
    return bool(moves_nb.game_over_nb(np.asarray(living, dtype=np.int64), len(living)))
