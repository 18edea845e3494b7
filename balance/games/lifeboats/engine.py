"""Python face of the compiled Lifeboats engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and returns
a :class:`Records`. The single-phase entry points (:func:`set_up`,
:func:`resolve_vote`, :func:`leak_phase`, :func:`move_phase`, :func:`swim_phase`,
:func:`sink_boats`, :func:`winners`, :func:`legal_options`, and :func:`play_scripted`
for a whole game) run the compiled engine on a hand-built reference
:class:`~balance.games.lifeboats.reference.Position`, so that scenario tests hold the
compiled rules to the same positions as the reference.

In those entry points each seat's player is given as a list of option codes (its
answers, in the order it is asked; every answer must be used), a
:class:`~balance.games.lifeboats.reference.Scripted` player (its ``used`` and ``asked``
are brought up to date) or a
:class:`~balance.games.lifeboats.reference.RandomPlayer` (its stream is advanced). Only
real decisions (two or more options) consume an answer, as in the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from balance.core.dispatch import Dispatch
from balance.core.engine import CompiledEngine
from balance.core.errors import BalanceError
from balance.core.game import Lineup, lineup_arrays
from balance.games.lifeboats import engine_nb as nb
from balance.games.lifeboats import moves_nb
from balance.games.lifeboats.bridge import pack_position, pack_stats, unpack_position
from balance.games.lifeboats.layout import (
    KINDS,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFICER,
    OVERBOARD_VOTE,
    RECORDS,
    SAILOR,
)
from balance.games.lifeboats.reference import (
    GameRecord,
    IllegalChoice,
    Position,
    RandomPlayer,
    Scripted,
    ScriptError,
)
from balance.games.lifeboats.rules import LifeboatsRules
from balance.strategies import lifeboats as shipped
from balance.strategies.lifeboats import random as random_strategy

GAME = "lifeboats"


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


#: What restricted play may forbid a seat: playing a captain's hat.
RESTRICTABLE = ("hat",)


def check_restricted(names: Sequence[str]) -> None:
    """Restricted play may only forbid the hat (a seat that never plays one)."""
    for name in names:
        if name not in RESTRICTABLE:
            raise BalanceError(
                f"{GAME}: restricted play can forbid only {', '.join(RESTRICTABLE)}, not {name!r}"
            )
    if len(set(names)) != len(names):
        raise BalanceError(f"restricted actions repeat: {', '.join(names)}")


def hatless_seat(lineup: Lineup, game: int) -> int:
    """The seat of game ``game`` that may never play a hat, or -1."""
    return int(lineup.restricted_seat(game))


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    extra={nb.SCRIPTED: {"decide": nb.scripted_decide}, nb.HALT: {"decide": nb.halted_decide}},
    # The uniform-random player is inlined (its decisions are the loop's hot path).
    in_line=(random_strategy,),
)
#: What the seats of a scenario (:func:`set_up`, the phases, :func:`resolve_vote`) play
#: besides scripted answers: their compiled code holds no heuristic.
SCENARIO = (random_strategy,)


class Engine(CompiledEngine):
    """Lifeboats' game loop; the seat that may never play a hat rides in ``seats_of``."""

    dispatch = DISPATCH
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    layout = RECORDS
    record_class = GameRecord

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``seats_of`` (R, 2n): each seat's strategy, then 1 for the seat that may never
        play a hat (restricted play: :meth:`Lineup.restricted_seat`)."""
        check_restricted(lineup.restricted)
        codes, params, rows, strategies = lineup_arrays(lineup, self.dispatch.code)
        hatless = lineup.restricted_seat(rows)[:, None] == np.arange(len(lineup.seats))[None, :]
        return codes, params, np.hstack([strategies, hatless]).astype(np.int64)

    def rules_arguments(self, rules: LifeboatsRules, players: int) -> tuple[int, np.ndarray]:
        """The rules are packed for the table: lanes and boats depend on the players."""
        return players, rules.to_array(players)

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        kind = KINDS[int(error[nb.Error.KIND])]
        value, count = int(error[nb.Error.VALUE]), int(error[nb.Error.COUNT])
        return f"answered {value} to a {kind!r} decision of {count} options (0..{count - 1})"


ENGINE = Engine()
play_games = ENGINE.play_games


# ---------------------------------------------------------------------------
# Single phases on hand-built positions, with scripted players
# ---------------------------------------------------------------------------

#: A seat's player in the single-phase entry points.
PlayerSpec = Sequence[int] | Scripted | RandomPlayer


def new_work() -> tuple[np.ndarray, ...]:
    """The int64 work buffers of the compiled phases (see :mod:`.engine_nb`)."""
    buffers = [np.zeros(nb.WORK_SIZE, dtype=np.int64) for _ in range(nb.N_WORK)]
    return (np.zeros(MAX_OPTIONS, dtype=np.int64), *buffers)


class _Seated:
    """Players given to a single-phase entry point, as the compiled engine's arrays."""

    def __init__(self, players: int, given: Sequence[PlayerSpec]) -> None:
        if len(given) > players:
            raise ValueError(f"{len(given)} players given for {players} seats")
        self.given = list(given) + [()] * (players - len(given))
        scripts = []
        for player in self.given:
            if isinstance(player, Scripted):
                scripts.append(player.codes[player.used :])
            elif isinstance(player, RandomPlayer):
                scripts.append([])
            else:
                scripts.append([int(code) for code in player])
        self.scripts = scripts
        length = max([len(s) for s in scripts] + [1])
        codes = np.full(MAX_PLAYERS, nb.SCRIPTED, dtype=np.int64)
        params = np.zeros((MAX_PLAYERS, 2 + 2 * length), dtype=np.float64)
        rng = np.zeros((MAX_PLAYERS + 1, 4), dtype=np.uint64)
        for s, (player, script) in enumerate(zip(self.given, scripts, strict=True)):
            if isinstance(player, RandomPlayer):
                codes[s] = 0
                rng[1 + s] = player.stream.state
            # params[s, 0]: answers used; [1]: script length L; [2 : 2 + L]: the answers;
            # [2 + L + k]: the kind of the k-th question (see engine_nb.SCRIPTED).
            params[s, 1] = len(script)
            params[s, 2 : 2 + len(script)] = script
        self.arrays = (codes, params, rng)

    def used(self, seat: int) -> int:
        return int(self.arrays[1][seat, 0])

    def kinds(self, seat: int) -> list[int]:
        params = self.arrays[1][seat]
        start = 2 + int(params[1])
        return [int(k) for k in params[start : start + self.used(seat)]]

    def finish(self, error: np.ndarray, options: np.ndarray, strict: bool = True) -> None:
        """Bring the players up to date; raise if a scripted answer failed or went unused."""
        codes, _, rng = self.arrays
        for s, player in enumerate(self.given):
            if isinstance(player, RandomPlayer):
                player.stream.state = [int(x) for x in rng[1 + s]]
            elif isinstance(player, Scripted):
                player.used += self.used(s)
                player.asked.extend(self.kinds(s))
        seat = int(error[nb.Error.SEAT])
        if seat >= 0:
            kind = int(error[nb.Error.KIND])
            value, count = int(error[nb.Error.VALUE]), int(error[nb.Error.COUNT])
            listed = [int(x) for x in options[:count]]
            if codes[seat] == nb.SCRIPTED and value == nb.SCRIPT_EXHAUSTED:
                raise ScriptError(
                    f"seat {seat} was asked a {KINDS[kind]} decision among {listed} after "
                    f"its {len(self.scripts[seat])} scripted answers"
                )
            if codes[seat] == nb.SCRIPTED and value == nb.SCRIPT_MISSING:
                answer = self.scripts[seat][self.used(seat) - 1]
                raise ScriptError(
                    f"seat {seat}'s scripted answer {answer} to a {KINDS[kind]} decision "
                    f"is not among its options {listed}"
                )
            raise IllegalChoice(seat, kind, value, count)
        if strict:
            unused = {
                s: self.scripts[s][self.used(s) :]
                for s, player in enumerate(self.given)
                if not isinstance(player, Scripted | RandomPlayer)
                and self.used(s) < len(self.scripts[s])
            }
            if unused:
                raise ScriptError(f"scripted answers never asked for, by seat: {unused}")


def _run_phase(
    function: Callable, pos: Position, players: Sequence[PlayerSpec], *args: Any
) -> tuple[Position, Any]:
    """Run a compiled phase on a packed copy of ``pos``: the new position and the result."""
    function = DISPATCH.bound(function, playing=SCENARIO)
    obs = pack_position(pos)
    stats = pack_stats(pos)
    work = new_work()
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    seated = _Seated(pos.players, players)
    # obs twice: the position, and obs as the strategies are given it (a value, which
    # the dispatcher holds for each call: the game loop holds it once a game)
    result = function(obs, obs, *args, seated.arrays, work, stats, error)
    seated.finish(error, work[0])
    return unpack_position(pos, obs, stats), result


def set_up(pos: Position, players: Sequence[PlayerSpec]) -> Position:
    """Set-up (D15) in compiled code; returns the new position (``pos`` is unchanged)."""
    return _run_phase(nb.set_up_nb, pos, players)[0]


def leak_phase(pos: Position, players: Sequence[PlayerSpec]) -> Position:
    """The leak phase in compiled code, sinking included; returns the new position."""
    return _run_phase(nb.leak_phase_nb, pos, players)[0]


def move_phase(pos: Position, players: Sequence[PlayerSpec]) -> Position:
    """The move phase in compiled code, sinking included; returns the new position."""
    return _run_phase(nb.move_phase_nb, pos, players)[0]


def swim_phase(pos: Position, players: Sequence[PlayerSpec]) -> Position:
    """The swim phase in compiled code, sinking included; returns the new position."""
    return _run_phase(nb.swim_phase_nb, pos, players)[0]


def resolve_vote(
    pos: Position,
    kind: int,
    voters: Sequence[int],
    players: Sequence[PlayerSpec],
    weights: Sequence[int] | None = None,
    boat: int = -1,
) -> tuple[Position, int]:
    """One vote (D6) in compiled code: the new position and the outcome.

    ``weights`` default as in :func:`reference.resolve_vote`: 1, and in an overboard vote
    2 x officers + sailors in ``boat``.
    """
    if weights is None:
        if kind == OVERBOARD_VOTE:
            weights = [2 * pos.crew[boat][s][OFFICER] + pos.crew[boat][s][SAILOR] for s in voters]
        else:
            weights = [1] * len(voters)
    obs = pack_position(pos)
    stats = pack_stats(pos)
    work = new_work()
    work[3][: len(voters)] = voters
    work[4][: len(voters)] = weights
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    seated = _Seated(pos.players, players)
    outcome = DISPATCH.bound(nb.resolve_vote_nb, playing=SCENARIO)(
        obs, obs, kind, len(voters), boat, seated.arrays, work, stats, error
    )
    seated.finish(error, work[0])
    return unpack_position(pos, obs, stats), int(outcome)


def sink_boats(pos: Position) -> tuple[Position, list[int]]:
    """Sinking (D9) in compiled code: the new position and the boats that sank."""
    obs = pack_position(pos)
    stats = pack_stats(pos)
    mask = moves_nb.sink_boats_nb(obs[0], obs[1], obs[3], stats)
    sunk = [b for b in range(pos.players + 1) if (int(mask) >> b) & 1]
    return unpack_position(pos, obs, stats), sunk


def winners(pos: Position, finished: bool) -> tuple[list[int], int]:
    """The winning seats and tie rule (D13), by the compiled engine."""
    obs = pack_position(pos)
    boat_stat = pack_stats(pos)[2]
    won = np.zeros(MAX_BOATS, dtype=np.int64)
    count, tie_rule = moves_nb.winners_nb(obs[0], obs[2], obs[3], boat_stat, finished, won)
    seats = [s for s in range(pos.players) if won[s]]
    assert len(seats) == count
    return seats, int(tie_rule)


def legal_options(
    pos: Position,
    seat: int,
    kind: int,
    boat: int = -1,
    swim_from: int = -1,
    tied: Sequence[int] | None = None,
) -> list[int]:
    """The compiled engine's option list (as :func:`reference.legal_options`)."""
    obs = pack_position(pos)
    options = np.zeros(MAX_OPTIONS, dtype=np.int64)
    tied_array = np.zeros(MAX_BOATS, dtype=np.int64)
    ntied = 0
    if tied is not None:
        ntied = len(tied)
        tied_array[:ntied] = sorted(tied)
    count = moves_nb.legal_options_nb(obs, seat, kind, boat, swim_from, tied_array, ntied, options)
    return [int(x) for x in options[:count]]


def play_scripted(rules: LifeboatsRules, players: int, scripts: Sequence[PlayerSpec]) -> GameRecord:
    """A whole game in compiled code with scripted players: its record."""
    ENGINE.check_players(players)
    rules.check_players(players)
    pos = Position.start(rules, players)
    obs = pack_position(pos)
    stats = pack_stats(pos)
    work = new_work()
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    seated = _Seated(players, scripts)
    records = ENGINE.empty_records(players, 1)
    # The game the loop plays, compiled once for both (see Dispatch.with_loop).
    DISPATCH.with_loop(nb.play_one_nb)(
        obs, seated.arrays, work, stats, error, (records.games, records.seats, records.boats)
    )
    seated.finish(error, work[0])
    return records.game_record(0)
