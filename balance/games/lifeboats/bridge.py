"""Between readable positions and the compiled engine's arrays.

:func:`pack_position` turns a reference :class:`Position` into the ``obs`` tuple that
compiled moves and strategies read, and :func:`pack_stats` its tallies into the compiled
engine's; :func:`unpack_position` reads them back. :class:`CompiledStrategy` lets the
reference engine play a compiled strategy, drawing from the same random stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from balance.core.engine import CompiledStrategy as SeatCompiledStrategy
from balance.core.game import Lineup, player_factory
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy
from balance.games.lifeboats.layout import (
    AFLOAT,
    HAT_ROUNDS,
    LANDED,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    OFFICER,
    SAILOR,
    SCRATCH,
    SUNK,
    UNUSED,
    Boat,
    BoatStat,
    GameStat,
    Seat,
    SeatStat,
    State,
)
from balance.games.lifeboats.reference import Position, RandomPlayer
from balance.games.lifeboats.rules import LifeboatsRules

#: ``obs`` as a tuple: boats, crew, seats, state, rules, scratch_i, scratch_f.
Obs = tuple[np.ndarray, ...]
#: The compiled tallies: game_stat, seat_stat, boat_stat.
Stats = tuple[np.ndarray, np.ndarray, np.ndarray]


def pack_position(pos: Position, rules: np.ndarray | None = None) -> Obs:
    """The compiled engine's ``obs`` tuple for ``pos``.

    Parameters
    ----------
    pos : the position.
    rules : int64 ``(Rule.SIZE,)``, ``pos.rules`` packed for ``pos.players`` (packed here
        if not given).

    Returns
    -------
    ``(boats, crew, seats, state, rules, scratch_i, scratch_f)``: int64 ``(MAX_BOATS,
    Boat.SIZE)``, int64 ``(MAX_BOATS, MAX_PLAYERS, 2)``, int64 ``(MAX_PLAYERS,
    Seat.SIZE)``, int64 ``(State.SIZE,)``, the rules, int64 and float64 ``(SCRATCH,)``.
    """
    n = pos.players
    boats = np.zeros((MAX_BOATS, Boat.SIZE), dtype=np.int64)
    boats[:, Boat.LANE] = -1
    boats[:, Boat.ISLAND] = -1
    boats[:, Boat.STATE] = UNUSED
    crew = np.zeros((MAX_BOATS, MAX_PLAYERS, 2), dtype=np.int64)
    for b in range(n + 1):
        row = boats[b]
        row[Boat.LANE] = pos.lane[b]
        row[Boat.ISLAND] = pos.island(b)
        row[Boat.STEPS] = pos.steps[b]
        row[Boat.STATE] = pos.state[b]
        row[Boat.LEAKS] = pos.leaks[b]
        row[Boat.PAWNS] = pos.pawns(b)
        row[Boat.FREE] = pos.free(b)
        row[Boat.LEFT] = pos.left[b]
        row[Boat.ORDER] = pos.landing_order[b]
        crew[b, :n, :] = pos.crew[b]
    seats = np.zeros((MAX_PLAYERS, Seat.SIZE), dtype=np.int64)
    seats[:, Seat.SWIMMING] = -1
    for s in range(n):
        seats[s, Seat.HATS] = pos.hats[s]
        seats[s, Seat.HATLESS] = pos.hatless[s]
        seats[s, Seat.SCORE] = pos.score[s]
        seats[s, Seat.RESERVE_OFFICERS] = pos.reserve[s][OFFICER]
        seats[s, Seat.RESERVE_SAILORS] = pos.reserve[s][SAILOR]
        seats[s, Seat.SWIMMING] = pos.swimming[s]
    state = np.zeros(State.SIZE, dtype=np.int64)
    state[State.PLAYERS] = n
    state[State.ROUND] = pos.round
    state[State.FIRST] = pos.first()
    state[State.LEAKS_LEFT] = pos.leaks_left
    state[State.BOAT] = pos.boat
    state[State.SWIM_FROM] = pos.swim_from
    state[State.LANDED] = pos.landed()
    state[State.FIRST_LANDED] = pos.first_landed
    if rules is None:
        rules = pos.rules.to_array(n)
    return (
        boats,
        crew,
        seats,
        state,
        rules,
        np.zeros(SCRATCH, dtype=np.int64),
        np.zeros(SCRATCH, dtype=np.float64),
    )


def pack_stats(pos: Position) -> Stats:
    """The compiled engine's tallies for ``pos``.

    Returns int64 ``game_stat (GameStat.SIZE,)``, ``seat_stat (MAX_PLAYERS,
    SeatStat.SIZE)`` and ``boat_stat (MAX_BOATS, BoatStat.SIZE)``.
    """
    n = pos.players
    game_stat = np.zeros(GameStat.SIZE, dtype=np.int64)
    game_stat[GameStat.VOTES] = pos.votes
    game_stat[GameStat.HAT_DECIDED] = pos.hat_decided
    game_stat[GameStat.HATS_ROUND : GameStat.HATS_ROUND + HAT_ROUNDS] = pos.hats_by_round
    game_stat[GameStat.REVOTES] = pos.revotes
    game_stat[GameStat.TIES_BROKEN] = pos.ties_broken
    game_stat[GameStat.BOATS_SUNK] = sum(1 for s in pos.state if s == SUNK)
    seat_stat = np.zeros((MAX_PLAYERS, SeatStat.SIZE), dtype=np.int64)
    for s in range(n):
        row = seat_stat[s]
        row[SeatStat.PLACED_OFFICERS], row[SeatStat.PLACED_SAILORS] = pos.placed[s]
        row[SeatStat.SAVED_OFFICERS], row[SeatStat.SAVED_SAILORS] = pos.saved[s]
        row[SeatStat.OVERBOARD] = pos.overboard[s]
        row[SeatStat.SUNK] = pos.sunk[s]
        row[SeatStat.NO_SEAT] = pos.no_seat[s]
        row[SeatStat.HATS_USED] = pos.hats_used[s]
        row[SeatStat.HATS_DECISIVE] = pos.hats_decisive[s]
    boat_stat = np.zeros((MAX_BOATS, BoatStat.SIZE), dtype=np.int64)
    for b in range(n + 1):
        boat_stat[b, BoatStat.ROUND] = pos.fate_round[b]
        boat_stat[b, BoatStat.ABOARD] = pos.aboard[b]
        boat_stat[b, BoatStat.ORDER] = pos.landing_order[b]
    return game_stat, seat_stat, boat_stat


def unpack_position(pos: Position, obs: Obs, stats: Stats) -> Position:
    """A copy of ``pos`` holding the compiled position ``obs`` and tallies ``stats``.

    Checks the compiled engine's running counts (pawns, free seats, boats landed) on
    the way; an :class:`AssertionError` says which went wrong.
    """
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    game_stat, seat_stat, boat_stat = stats
    n = pos.players
    out = pos.copy()
    out.lane = [int(x) for x in boats[: n + 1, Boat.LANE]]
    out.steps = [int(x) for x in boats[: n + 1, Boat.STEPS]]
    out.state = [int(x) for x in boats[: n + 1, Boat.STATE]]
    out.leaks = [int(x) for x in boats[: n + 1, Boat.LEAKS]]
    out.left = [int(x) for x in boats[: n + 1, Boat.LEFT]]
    out.crew = crew[: n + 1, :n, :].astype(int).tolist()
    out.hats = [int(x) for x in seats[:n, Seat.HATS]]
    out.hatless = [int(x) for x in seats[:n, Seat.HATLESS]]
    out.score = [int(x) for x in seats[:n, Seat.SCORE]]
    out.reserve = seats[:n, Seat.RESERVE_OFFICERS : Seat.RESERVE_SAILORS + 1].astype(int).tolist()
    out.swimming = [int(x) for x in seats[:n, Seat.SWIMMING]]
    out.round = int(state[State.ROUND])
    out.leaks_left = int(state[State.LEAKS_LEFT])
    out.boat = int(state[State.BOAT])
    out.swim_from = int(state[State.SWIM_FROM])
    out.first_landed = int(state[State.FIRST_LANDED])
    out.votes = int(game_stat[GameStat.VOTES])
    out.hat_decided = int(game_stat[GameStat.HAT_DECIDED])
    out.hats_by_round = [
        int(x) for x in game_stat[GameStat.HATS_ROUND : GameStat.HATS_ROUND + HAT_ROUNDS]
    ]
    out.revotes = int(game_stat[GameStat.REVOTES])
    out.ties_broken = int(game_stat[GameStat.TIES_BROKEN])
    out.placed = seat_stat[:n, SeatStat.PLACED_OFFICERS : SeatStat.PLACED_SAILORS + 1]
    out.placed = out.placed.astype(int).tolist()
    out.saved = seat_stat[:n, SeatStat.SAVED_OFFICERS : SeatStat.SAVED_SAILORS + 1]
    out.saved = out.saved.astype(int).tolist()
    for name, slot in (
        ("overboard", SeatStat.OVERBOARD),
        ("sunk", SeatStat.SUNK),
        ("no_seat", SeatStat.NO_SEAT),
        ("hats_used", SeatStat.HATS_USED),
        ("hats_decisive", SeatStat.HATS_DECISIVE),
    ):
        setattr(out, name, [int(x) for x in seat_stat[:n, slot]])
    out.fate_round = [int(x) for x in boat_stat[: n + 1, BoatStat.ROUND]]
    out.aboard = [int(x) for x in boat_stat[: n + 1, BoatStat.ABOARD]]
    out.landing_order = [int(x) for x in boat_stat[: n + 1, BoatStat.ORDER]]
    for b in range(n + 1):
        if boats[b, Boat.PAWNS] != out.pawns(b):
            raise AssertionError(f"compiled engine lost count of the pawns in boat {b}")
        if boats[b, Boat.FREE] != out.free(b):
            raise AssertionError(f"compiled engine lost count of the free seats in boat {b}")
        if boats[b, Boat.ORDER] != out.landing_order[b]:
            raise AssertionError(f"compiled engine lost the landing order of boat {b}")
        if boats[b, Boat.ISLAND] != out.island(b):
            raise AssertionError(f"compiled engine put boat {b} on the wrong island")
    if state[State.LANDED] != out.landed():
        raise AssertionError("compiled engine lost count of the boats landed")
    if game_stat[GameStat.BOATS_SUNK] != sum(1 for s in out.state if s == SUNK):
        raise AssertionError("compiled engine lost count of the boats sunk")
    if any(s not in (AFLOAT, LANDED, SUNK) for s in out.state):
        raise AssertionError("compiled engine gave a boat an unknown state")
    if (boats[n + 1 :, Boat.STATE] != UNUSED).any() or crew[:, n:, :].any() or crew[n + 1 :].any():
        raise AssertionError("compiled engine used a boat or seat beyond the players'")
    return out


def option_array(options: Sequence[int]) -> np.ndarray:
    """Option codes as the int64 ``(MAX_OPTIONS,)`` buffer a compiled strategy reads."""
    array = np.zeros(MAX_OPTIONS, dtype=np.int64)
    array[: len(options)] = options
    return array


class CompiledStrategy(SeatCompiledStrategy):
    """A compiled strategy seen from the reference engine, on Lifeboats' positions."""

    def __init__(self, seat: SeatStrategy, rules: LifeboatsRules, stream: Stream) -> None:
        super().__init__(seat, stream)
        self.rules = rules
        self._packed: dict[int, np.ndarray] = {}

    def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int:
        if pos.players not in self._packed:
            self._packed[pos.players] = self.rules.to_array(pos.players)
        obs = pack_position(pos, self._packed[pos.players])
        decide = self.decisions["decide"]
        return int(self.call(decide, obs, seat, kind, option_array(options), len(options)))


def lineup_player_factory(lineup: Lineup, rules: LifeboatsRules, game: int) -> Any:
    """``make_player`` for :func:`reference.play_game`: the lineup's strategies in ``game``.

    The uniform-random strategy plays as the reference's own readable
    :class:`~balance.games.lifeboats.reference.RandomPlayer`.
    """
    return player_factory(
        lineup, game, RandomPlayer, lambda chosen, stream: CompiledStrategy(chosen, rules, stream)
    )
