"""Between readable positions and the compiled engine's arrays.

:func:`pack_position` turns a reference :class:`Position` into the ``obs`` tuple that
compiled moves and strategies read; :class:`CompiledStrategy` lets the reference engine
play a compiled strategy, drawing from the same random stream.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.engine import CompiledStrategy as SeatCompiledStrategy
from balance.core.game import player_factory
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy
from balance.games.la_planche import moves_nb
from balance.games.la_planche.reference import Option, Position, RandomStrategy
from balance.games.la_planche.rules import N_COLOURS, LaPlancheRules

State = moves_nb.State


def pack_position(pos: Position, rules: LaPlancheRules) -> tuple:
    """The compiled engine's ``obs`` tuple for a position (the rules give its plank)."""
    if pos.spaces != rules.spaces:
        raise ValueError(f"a position of {pos.spaces} spaces under rules of {rules.spaces}")
    if pos.push != rules.push:
        raise ValueError(f"a position pushing {pos.push!r} under rules pushing {rules.push!r}")
    line = np.full(moves_nb.LINE_SIZE, moves_nb.EMPTY, dtype=np.int64)
    line[: pos.spaces] = pos.line
    state = np.zeros(State.SIZE, dtype=np.int64)
    state[State.PRISONERS] = pos.prisoners()
    for c in range(N_COLOURS):
        state[State.LEFT + c] = pos.line.count(c)
    state[State.ROUND] = pos.round
    state[State.TURN] = pos.turn
    state[State.FIRST_SEAT] = (pos.round - 1) % pos.players
    for s, score in enumerate(pos.scores):
        state[State.SCORE + s] = score
    evidence = np.zeros((pos.players, N_COLOURS), dtype=np.int64)
    if pos.evidence:
        evidence[:, :] = pos.evidence
    return (
        line,
        state,
        rules.to_array(),
        pos.players,
        evidence,
        np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64),
        np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64),
        np.zeros(moves_nb.LINE_SIZE, dtype=np.int64),
        np.zeros(State.SIZE, dtype=np.int64),
        np.zeros(N_COLOURS, dtype=np.float64),
    )


def unpack_position(pos: Position, obs: tuple) -> Position:
    """``pos`` with the line and evidence of ``obs``; checks the compiled counts on the way."""
    line, state, evidence = obs[0], obs[1], obs[4]
    out = pos.copy()
    out.line = [int(c) for c in line[: pos.spaces]]
    out.evidence = [[int(x) for x in row] for row in evidence]
    if state[State.PRISONERS] != out.prisoners():
        raise AssertionError("compiled engine lost count of the prisoners")
    for c in range(N_COLOURS):
        if state[State.LEFT + c] != out.line.count(c):
            raise AssertionError(f"compiled engine lost count of colour {c}")
    if any(int(c) != moves_nb.EMPTY for c in line[pos.spaces :]):
        raise AssertionError("compiled engine put a prisoner off the plank")
    return out


def option_arrays(options: Sequence[Option]) -> tuple[np.ndarray, np.ndarray]:
    opt_a = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    opt_b = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    for k, (a, b) in enumerate(options):
        opt_a[k], opt_b[k] = a, b
    return opt_a, opt_b


class CompiledStrategy(SeatCompiledStrategy):
    """A compiled strategy seen from the reference engine, on La Planche's positions."""

    def __init__(self, seat: SeatStrategy, rules: LaPlancheRules, stream: Stream) -> None:
        super().__init__(seat, stream)
        self.rules = rules

    def _call(self, function, pos: Position, *args) -> int:
        return int(self.call(function, pack_position(pos, self.rules), *args))

    def choose_symbol(self, pos: Position, seat: int, colour: int, first: int, second: int) -> int:
        return self._call(self.decisions["symbol"], pos, seat, colour, first, second)

    def choose(
        self, pos: Position, seat: int, colour: int, symbol: int, options: Sequence[Option]
    ) -> int:
        opt_a, opt_b = option_arrays(options)
        return self._call(
            self.decisions["choose"], pos, seat, colour, symbol, opt_a, opt_b, len(options)
        )


def lineup_player_factory(lineup, rules: LaPlancheRules, game: int):
    """``make_player`` for :func:`reference.play_game`: the lineup's strategies in game ``game``.

    The uniform-random strategy plays as the reference's own readable
    :class:`~balance.games.la_planche.reference.RandomStrategy`.
    """
    return player_factory(
        lineup, game, RandomStrategy, lambda chosen, stream: CompiledStrategy(chosen, rules, stream)
    )
