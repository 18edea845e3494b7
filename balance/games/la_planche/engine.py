"""Python face of the compiled La Planche engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and
returns a :class:`Records`; :func:`legal_options`, :func:`apply_option`,
:func:`mandatory_push` and :func:`play_turn` run single steps of the compiled engine on
a hand-built :class:`Position`, so that scenario tests hold the compiled rules to the
same positions as the reference.
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
from balance.games.la_planche import engine_nb as nb
from balance.games.la_planche import moves_nb
from balance.games.la_planche.bridge import pack_position, unpack_position
from balance.games.la_planche.reference import (
    ACTIONS,
    GameRecord,
    Option,
    Position,
    TurnOutcome,
)
from balance.games.la_planche.rules import N_COLOURS, SYMBOLS, LaPlancheRules
from balance.strategies import la_planche as shipped
from balance.strategies.la_planche import random as random_strategy

GAME = "la-planche"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DECISIONS = ("symbol", "choose")
GameStat, SeatStat, ActionStat = nb.GameStat, nb.SeatStat, nb.ActionStat


def check_players(players: int) -> None:
    check_player_count(GAME, players, MIN_PLAYERS, MAX_PLAYERS)


@dataclass(frozen=True)
class Records:
    """Per-game records of a block of games, as the compiled engine writes them.

    Attributes
    ----------
    first_game : index of the first game of the block.
    games : int32 ``(G, GameStat.SIZE)``: ``TURNS``, ``FINISHED``, ``ROUNDS``,
        ``LAST_COLOUR`` (-1 if unfinished), ``FALLS`` (prisoners fallen in the last round).
    fell : int8 ``(G, MAX_FALLS)``: colours in the order they fell in the last round,
        -1 after the last fall.
    seats : int32 ``(G, n, SeatStat.SIZE)``: ``WON`` (0/1), ``COLOUR`` (in the last round),
        ``SCORE`` (rounds variant; 0 otherwise), ``TURNS`` taken.
    actions : int32 ``(G, n, 5, ActionStat.SIZE)``: per seat and action (swap, advance,
        move, nothing, push): ``DONE``, ``FELL_OWN``, ``FELL_OTHER``.
    """

    first_game: int
    games: np.ndarray
    fell: np.ndarray
    seats: np.ndarray
    actions: np.ndarray

    def __len__(self) -> int:
        return self.games.shape[0]

    def game_record(self, g: int) -> GameRecord:
        """Game ``g`` of the block in the reference engine's record form."""
        row, seats, actions = self.games[g], self.seats[g], self.actions[g]
        falls = int(row[GameStat.FALLS])

        def per_action(column: int) -> list[list[int]]:
            return actions[:, :, column].astype(int).tolist()

        return GameRecord(
            turns=int(row[GameStat.TURNS]),
            finished=bool(row[GameStat.FINISHED]),
            rounds=int(row[GameStat.ROUNDS]),
            last_colour=int(row[GameStat.LAST_COLOUR]),
            fell=[int(c) for c in self.fell[g, :falls]],
            won=[bool(x) for x in seats[:, SeatStat.WON]],
            colour=[int(x) for x in seats[:, SeatStat.COLOUR]],
            score=[int(x) for x in seats[:, SeatStat.SCORE]],
            turns_taken=[int(x) for x in seats[:, SeatStat.TURNS]],
            done=per_action(ActionStat.DONE),
            fell_own=per_action(ActionStat.FELL_OWN),
            fell_other=per_action(ActionStat.FELL_OTHER),
            offered=per_action(ActionStat.OFFERED),
            chosen=per_action(ActionStat.CHOSEN),
            colour_points=[
                int(x) for x in row[GameStat.COLOUR_POINTS : GameStat.COLOUR_POINTS + N_COLOURS]
            ],
        )


def records_from_games(played: Sequence[GameRecord], first_game: int, players: int) -> Records:
    """The reference engine's records of consecutive games as the compiled engine's arrays."""
    g_count = len(played)
    games = np.zeros((g_count, GameStat.SIZE), dtype=np.int32)
    fell = np.full((g_count, moves_nb.MAX_FALLS), -1, dtype=np.int8)
    seats = np.zeros((g_count, players, SeatStat.SIZE), dtype=np.int32)
    actions = np.zeros((g_count, players, moves_nb.N_ACTIONS, ActionStat.SIZE), dtype=np.int32)
    for g, record in enumerate(played):
        games[g, GameStat.TURNS] = record.turns
        games[g, GameStat.FINISHED] = record.finished
        games[g, GameStat.ROUNDS] = record.rounds
        games[g, GameStat.LAST_COLOUR] = record.last_colour
        games[g, GameStat.FALLS] = len(record.fell)
        fell[g, : len(record.fell)] = record.fell
        seats[g, :, SeatStat.WON] = record.won
        seats[g, :, SeatStat.COLOUR] = record.colour
        seats[g, :, SeatStat.SCORE] = record.score
        seats[g, :, SeatStat.TURNS] = record.turns_taken
        actions[g, :, :, ActionStat.DONE] = record.done
        actions[g, :, :, ActionStat.FELL_OWN] = record.fell_own
        actions[g, :, :, ActionStat.FELL_OTHER] = record.fell_other
        actions[g, :, :, ActionStat.OFFERED] = record.offered
        actions[g, :, :, ActionStat.CHOSEN] = record.chosen
        points = GameStat.COLOUR_POINTS
        games[g, points : points + N_COLOURS] = record.colour_points
    return Records(first_game=first_game, games=games, fell=fell, seats=seats, actions=actions)


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


def kernel_inputs(lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``codes`` (K,), ``params`` (K, MAX_PARAMS) and ``seats_of`` (R, 2n) for the kernel.

    Row ``i % R`` of ``seats_of`` is game ``i``'s table: the strategy in each seat, then
    the symbol each seat may never choose when it has the choice (restricted play; -1
    for none). ``R`` is :attr:`Lineup.period`, the games after which the seating and the
    restricted seat repeat.
    """
    check_restricted(lineup.restricted)
    codes, params, rows, strategies = lineup_arrays(lineup, USER_CODES)
    return codes, params, np.hstack([strategies, forbidden_by_seat(lineup, rows)])


#: What restricted play may forbid a seat: choosing one of these symbols.
RESTRICTABLE = SYMBOLS[:3]


def check_restricted(names: Sequence[str]) -> None:
    """Restricted play may forbid one symbol with options (swap, advance or move)."""
    for name in names:
        if name not in RESTRICTABLE:
            raise BalanceError(
                f"{GAME}: restricted play can forbid {', '.join(RESTRICTABLE)}, not {name!r}"
            )
    if len(names) > 1:
        raise BalanceError(f"{GAME}: restricted play forbids one symbol at a time")


def forbidden_by_seat(lineup: Lineup, game: np.ndarray | int) -> np.ndarray:
    """The symbol each seat may never choose, per game (-1 for none): int64 ``(..., n)``."""
    game = np.asarray(game, dtype=np.int64)
    seat = lineup.restricted_seat(game)[..., None]
    symbol = SYMBOLS.index(lineup.restricted[0]) if lineup.restricted else -1
    return np.where(np.arange(len(lineup.seats)) == seat, symbol, -1).astype(np.int64)


def uniform_lineup(players: int) -> Lineup:
    return Lineup(tuple(SeatStrategy(random_strategy, ()) for _ in range(players)))


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    extra={nb.SCRIPTED: {"symbol": nb.scripted_symbol_nb, "choose": nb.scripted_choose_nb}},
)


def kernel_for(lineup: Lineup) -> Callable:
    """The compiled game loop that can call every strategy of ``lineup``.

    Shipped strategies use the loop cached on disk. A user's strategies join through
    dispatchers generated for them, and the loop is compiled once per version of their
    file (then loaded from disk).
    """
    return DISPATCH.kernel_for([seat.strategy for seat in lineup.seats])


def check_strategy(strategy: Strategy) -> None:
    """A user's strategy must give compiled functions for both decisions."""
    dispatch.check_strategy(strategy, GAME, DECISIONS, DECISIONS)


def play_games(
    rules: LaPlancheRules,
    players: int,
    seed: int,
    n_games: int,
    first_game: int = 0,
    lineup: Lineup | None = None,
) -> Records:
    """Play ``n_games`` games, indices ``first_game ..``, in compiled code.

    Every seat plays uniform-random unless ``lineup`` says otherwise. Releases the GIL
    while it plays, so blocks can run on several threads at once.
    """
    check_players(players)
    lineup = lineup or uniform_lineup(players)
    check_block(players, n_games, first_game, seed, lineup, check_strategy)
    games = np.zeros((n_games, GameStat.SIZE), dtype=np.int32)
    fell = np.full((n_games, moves_nb.MAX_FALLS), -1, dtype=np.int8)
    seats = np.zeros((n_games, players, SeatStat.SIZE), dtype=np.int32)
    actions = np.zeros((n_games, players, moves_nb.N_ACTIONS, ActionStat.SIZE), dtype=np.int32)
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
        fell,
        seats,
        actions,
        error,
    )
    if error[nb.Error.GAME] >= 0:
        raise BalanceError(_illegal_choice_message(lineup, error))
    assert done == n_games
    return Records(first_game=first_game, games=games, fell=fell, seats=seats, actions=actions)


def _illegal_choice_message(lineup: Lineup, error: np.ndarray) -> str:
    game, seat = int(error[nb.Error.GAME]), int(error[nb.Error.SEAT])
    index = int(lineup.strategy_index(np.array(game), seat))
    label = lineup.seats[index].label
    decision = DECISIONS[int(error[nb.Error.DECISION])]
    value = int(error[nb.Error.VALUE])
    if decision == "symbol":
        what = f"chose symbol {value}, not 0 (the first spun) or 1 (the second)"
    else:
        symbol = SYMBOLS[int(error[nb.Error.SYMBOL])]
        what = f"chose option {value} of {symbol}, outside its options"
    return (
        f"strategy {label!r} (seat {seat}) made an illegal {decision!r} decision "
        f"in game {game}: {what}"
    )


# ---------------------------------------------------------------------------
# Single steps on hand-built positions
# ---------------------------------------------------------------------------


def legal_options(pos: Position, rules: LaPlancheRules, symbol: int) -> list[Option]:
    """The compiled engine's option list for ``symbol``; checks its option count too."""
    obs = pack_position(pos, rules)
    opt_a = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    opt_b = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    count = moves_nb.legal_options_nb(obs[0], obs[1], obs[2], symbol, opt_a, opt_b)
    counted = moves_nb.count_options_nb(obs[0], obs[1], obs[2], symbol)
    if counted != count:
        raise AssertionError(f"compiled engine counts {counted} options but lists {count}")
    return [(int(opt_a[k]), int(opt_b[k])) for k in range(count)]


def apply_option(
    pos: Position, rules: LaPlancheRules, symbol: int, option: Option
) -> tuple[Position, int]:
    """Carry out ``option`` in compiled code: the new position and the fallen colour."""
    obs = pack_position(pos, rules)
    fallen = moves_nb.apply_option_nb(obs[0], obs[1], obs[2], symbol, option[0], option[1])
    return unpack_position(pos, obs), int(fallen)


def mandatory_push(pos: Position, rules: LaPlancheRules) -> tuple[Position, int]:
    """The end-of-turn push in compiled code: the new position and the fallen colour."""
    obs = pack_position(pos, rules)
    fallen = moves_nb.mandatory_push_nb(obs[0], obs[1], obs[2])
    return unpack_position(pos, obs), int(fallen)


def play_turn(
    pos: Position,
    rules: LaPlancheRules,
    seat: int,
    colour: int,
    first: int,
    second: int,
    symbol_pick: int = 0,
    option_pick: int = 0,
    forbidden: int = -1,
) -> tuple[Position, TurnOutcome]:
    """One turn in compiled code with scripted answers (used only where there is a choice).

    ``forbidden``: a symbol the seat may never choose when it has the choice, or -1.
    Returns the new position (``pos`` is not changed) and what the turn did.
    """
    obs = pack_position(pos, rules)
    params = np.zeros(MAX_PARAMS, dtype=np.float64)
    params[0], params[1] = symbol_pick, option_pick
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, 0, 0, 1 + seat)
    outcome = np.zeros(nb.Outcome.SIZE, dtype=np.int64)
    DISPATCH.bound(nb.resolve_turn_nb)(
        obs,
        seat,
        colour,
        first,
        second,
        nb.SCRIPTED,
        params,
        rng,
        np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64),
        np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64),
        outcome,
        forbidden,
    )
    if outcome[nb.Outcome.ERROR_DECISION] >= 0:
        raise BalanceError(
            f"scripted {DECISIONS[int(outcome[nb.Outcome.ERROR_DECISION])]!r} answer "
            f"{int(outcome[nb.Outcome.ERROR_VALUE])} is outside the options"
        )
    action = int(outcome[nb.Outcome.ACTION])
    result = TurnOutcome(
        action=action,
        option=(
            None
            if action == ACTIONS.index("nothing")
            else (int(outcome[nb.Outcome.OPTION_A]), int(outcome[nb.Outcome.OPTION_B]))
        ),
        fell=int(outcome[nb.Outcome.FELL]),
        pushed=bool(outcome[nb.Outcome.PUSHED]),
        fell_push=int(outcome[nb.Outcome.FELL_PUSH]),
        ended=bool(outcome[nb.Outcome.ENDED]),
        choice=bool(outcome[nb.Outcome.CHOICE]),
    )
    return unpack_position(pos, obs), result
