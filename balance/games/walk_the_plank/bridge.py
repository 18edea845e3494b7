"""Between readable positions and the compiled engine's arrays.

:func:`pack_position` turns a reference :class:`Position` into the ``obs`` tuple that
compiled moves and strategies read; :class:`CompiledStrategy` lets the reference
engine play a compiled strategy, drawing from the same random stream.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.engine import CompiledStrategy as SeatCompiledStrategy
from balance.core.game import player_factory
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy
from balance.games.walk_the_plank import moves_nb
from balance.games.walk_the_plank.reference import Option, Position, RandomStrategy
from balance.games.walk_the_plank.rules import WalkThePlankRules


def pack_position(pos: Position, rules: WalkThePlankRules) -> tuple:
    """The compiled engine's ``obs`` tuple for a hand-built position."""
    pirates = np.zeros((pos.players, moves_nb.TILES), dtype=np.int64)
    for seat, row in enumerate(pos.pirates):
        pirates[seat, : len(row)] = row
    living = pirates.sum(axis=1)
    state = np.zeros(moves_nb.State.SIZE, dtype=np.int64)
    state[moves_nb.State.PLANK] = pos.plank
    state[moves_nb.State.CAPTAIN] = pos.captain
    state[moves_nb.State.ROUND] = pos.round
    state[moves_nb.State.GHOST_SEAT] = pos.ghost_seat
    state[moves_nb.State.GHOST_TILE] = pos.ghost_tile
    state[moves_nb.State.GHOST_ACTIVE] = pos.ghost_active
    state[moves_nb.State.DOLPHIN_ROLLED] = pos.dolphin_rolled
    state[moves_nb.State.RETRACT_BLOCKED_THROUGH] = pos.retract_blocked_through
    for tile in range(moves_nb.TILES):
        for seat in range(pos.players):
            bit = 1 << (moves_nb.FIELD * tile + seat)
            if pirates[seat, tile] > 0:
                state[moves_nb.State.SEATS] |= bit
                state[moves_nb.State.OCCUPIED + tile] |= 1 << seat
            if pirates[seat, tile] > 1:
                state[moves_nb.State.PAIRS] |= bit
    resting = np.array(pos.resting or [0] * pos.players, dtype=np.int64)
    shown = np.full((pos.players, 3), -1, dtype=np.int64)
    if pos.shown:
        shown[:, :] = pos.shown
    scratch_tile = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    scratch_arg = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    return (
        pirates,
        living,
        state,
        resting,
        shown,
        rules.to_array(),
        pos.players,
        scratch_tile,
        scratch_arg,
    )


def unpack_position(pos: Position, obs: tuple) -> Position:
    pirates, state = obs[0], obs[2]
    out = pos.copy()
    width = len(pos.pirates[0])
    out.pirates = [[int(x) for x in row[:width]] for row in pirates]
    out.plank = int(state[moves_nb.State.PLANK])
    out.ghost_seat = int(state[moves_nb.State.GHOST_SEAT])
    out.ghost_tile = int(state[moves_nb.State.GHOST_TILE])
    out.ghost_active = bool(state[moves_nb.State.GHOST_ACTIVE])
    out.dolphin_rolled = bool(state[moves_nb.State.DOLPHIN_ROLLED])
    out.retract_blocked_through = int(state[moves_nb.State.RETRACT_BLOCKED_THROUGH])
    return out


class CompiledStrategy(SeatCompiledStrategy):
    """A compiled strategy seen from the reference engine, on Walk the Plank's positions."""

    def __init__(self, seat: SeatStrategy, rules: WalkThePlankRules, stream: Stream) -> None:
        super().__init__(seat, stream)
        self.rules = rules

    def _call(self, function, pos: Position, *args, out=None) -> int:
        """``function(obs, *args, params, rng[, out])`` on the seat's own stream."""
        tail = () if out is None else (out,)
        return self.call(function, pack_position(pos, self.rules), *args, tail=tail)

    def program(self, pos: Position, seat: int, available: list[int]) -> list[int]:
        out = np.zeros(3, dtype=np.int64)
        mask = sum(1 << c for c in available)
        self._call(self.decisions["program"], pos, seat, mask, out=out)
        return [int(c) for c in out]

    def choose(
        self, pos: Position, seat: int, card: int, slot: int, options: Sequence[Option]
    ) -> int:
        opt_tile, opt_arg = _option_arrays(options)
        choose = self.decisions["choose"]
        return int(self._call(choose, pos, seat, card, slot, opt_tile, opt_arg, len(options)))

    def choose_dolphin_step(self, pos: Position, seat: int, options: Sequence[Option]) -> int:
        push = self.decisions.get("push")
        if push is None:  # as the compiled engine does: a random step
            return self.stream.below(len(options))
        opt_tile, opt_arg = _option_arrays(options)
        return int(self._call(push, pos, seat, opt_tile, opt_arg, len(options)))


def _option_arrays(options: Sequence[Option]) -> tuple[np.ndarray, np.ndarray]:
    opt_tile = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    opt_arg = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    for k, (tile, arg) in enumerate(options):
        opt_tile[k], opt_arg[k] = tile, arg
    return opt_tile, opt_arg


def lineup_player_factory(lineup, rules: WalkThePlankRules, game: int):
    """``make_player`` for :func:`reference.play_game`: the lineup's strategies in game ``game``.

    The uniform-random strategy plays as the reference's own readable
    :class:`~balance.games.walk_the_plank.reference.RandomStrategy`.
    """
    return player_factory(
        lineup, game, RandomStrategy, lambda chosen, stream: CompiledStrategy(chosen, rules, stream)
    )
