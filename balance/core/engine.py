"""The Python face every compiled game engine shares: one block of games, validated,
allocated, played by the game's kernel, its illegal choices told in words.

A game's ``engine.py`` makes one :class:`CompiledEngine` subclass, naming its dispatch,
its records (:class:`balance.core.records.RecordLayout`) and what it says of an illegal
answer, and overriding the few steps its kernel takes differently (the rules' arrays,
extra kernel arguments); its decisions and ``error`` slots follow from the dispatch.
Every game loop takes the same arguments in the same order::

    kernel(*rules_arguments, codes, params, seats_of, seed, first_game, *records, error,
           *extra_arguments) -> games played

and stops at the first strategy that answers outside its options, with ``error[GAME]``
(and the game's own slots) filled in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from balance.core.dispatch import Dispatch
from balance.core.errors import BalanceError
from balance.core.game import (
    DecisionPlayer,
    Lineup,
    check_block,
    check_player_count,
    lineup_arrays,
)
from balance.core.records import RecordLayout, Records, records_from_games
from balance.core.strategy import SeatStrategy, Strategy, check_strategy


class CompiledEngine:
    """A game's compiled engine, played a block of games at a time.

    A game declares the attributes below; the properties after them follow from its
    dispatch.

    Attributes
    ----------
    dispatch : the game's :class:`~balance.core.dispatch.Dispatch`: its loops by the
        strategies they call.
    min_players, max_players : the players it seats.
    layout : the record arrays its kernels write.
    record_class : the reference engine's record of one game.
    required : the decisions a user's strategy must give functions for (None: all).
    """

    dispatch: Dispatch
    min_players: int
    max_players: int
    layout: RecordLayout
    record_class: type
    required: tuple[str, ...] | None = None

    @property
    def game(self) -> str:
        """The game's id, as errors name it."""
        return self.uniform.game

    @property
    def decisions(self) -> tuple[str, ...]:
        """The decisions a strategy makes, in the order ``error[DECISION]`` numbers them."""
        return tuple(decision.name for decision in self.dispatch.decisions)

    @property
    def uniform(self) -> Strategy:
        """The uniform-random strategy, every seat's unless a line-up says otherwise: the
        first shipped strategy (code 0)."""
        return self.dispatch.shipped[0]

    @property
    def error(self) -> Any:
        """The slots of the kernel's ``error`` array: its module's ``Error``
        (:func:`balance.core.records.error_slots`)."""
        return self.dispatch.module.Error

    def check_players(self, players: int) -> None:
        check_player_count(self.game, players, self.min_players, self.max_players)

    def check_strategy(self, strategy: Strategy) -> None:
        """A one-line error unless a user's ``strategy`` gives compiled functions for the
        decisions the kernels call (:attr:`required`) and no other."""
        required = self.decisions if self.required is None else self.required
        check_strategy(strategy, self.game, self.decisions, required)

    def kernel_for(self, lineup: Lineup) -> Callable[..., int]:
        """The compiled game loop that can call every strategy of ``lineup``: the one
        cached on disk; a user's strategies join it when it plays (:meth:`play_games`),
        their functions compiled once per version of their file (then loaded from disk).
        """
        return self.dispatch.kernel_for([seat.strategy for seat in lineup.seats])

    def is_ready(self, lineup: Lineup) -> bool:
        """Whether ``lineup`` plays without compiling (its loop and its users' functions
        compiled in this process or cached on disk)."""
        strategies = [seat.strategy for seat in lineup.seats]
        return self.dispatch.is_ready(strategies, self.kernel_for(lineup))

    def uniform_lineup(self, players: int) -> Lineup:
        return Lineup(tuple(SeatStrategy(self.uniform, ()) for _ in range(players)))

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``codes`` (K,), ``params`` (K, MAX_PARAMS) and ``seats_of`` (R, n + ...): row
        ``i % R`` is game ``i``'s table, the strategy in each seat (then what the game
        adds per seat, such as what restricted play forbids it)."""
        codes, params, _, strategies = lineup_arrays(lineup, self.dispatch.code)
        return codes, params, strategies

    def rules_arguments(self, rules: Any, players: int, **options: Any) -> tuple[Any, ...]:
        """The kernel's first arguments: the table's size and the packed rules."""
        return players, rules.to_array()

    def extra_arguments(self, lineup: Lineup) -> tuple[Any, ...]:
        """Arguments the kernel takes after ``error`` (none unless a game's loop needs them)."""
        return ()

    def empty_records(
        self, players: int, n_games: int, first_game: int = 0, **options: Any
    ) -> Records:
        """Unwritten records of ``n_games`` games of ``players`` players."""
        arrays = self.layout.empty(n_games, players)
        return Records(self.layout, first_game, arrays, self.record_class)

    def play_games(
        self,
        rules: Any,
        players: int,
        seed: int,
        n_games: int,
        first_game: int = 0,
        lineup: Lineup | None = None,
        **options: Any,
    ) -> Records:
        """Play ``n_games`` games, indices ``first_game ..``, in compiled code.

        Every seat plays uniform-random unless ``lineup`` says otherwise. Releases the GIL
        while it plays, so blocks can run on several threads at once. ``options`` are the
        game's own (what it records, the decks it plays).
        """
        self.check_players(players)
        check_rules = getattr(rules, "check_players", None)  # rules sized by the table
        if check_rules is not None:
            check_rules(players)
        lineup = lineup or self.uniform_lineup(players)
        check_block(players, n_games, first_game, seed, lineup, self.check_strategy)
        arguments = self.rules_arguments(rules, players, **options)
        records = self.empty_records(players, n_games, first_game, **options)
        error = np.full(self.error.SIZE, -1, dtype=np.int64)
        codes, params, seats_of = self.kernel_inputs(lineup)
        kernel = self.kernel_for(lineup)
        inputs = (
            *arguments,
            codes,
            params,
            seats_of,
            seed,
            first_game,
            *records.arrays.values(),
            error,
            *self.extra_arguments(lineup),
        )
        self.dispatch.prepare(kernel, inputs, [seat.strategy for seat in lineup.seats])
        done = kernel(*inputs)
        if error[self.error.GAME] >= 0:
            raise BalanceError(self.illegal_choice_message(lineup, error))
        assert done == n_games
        return records

    def records_from_games(self, played: Sequence[Any], first_game: int, players: int) -> Records:
        """The reference engine's records of consecutive games as this engine's arrays."""
        return records_from_games(self.layout, self.record_class, played, first_game, players)

    def illegal_choice_message(self, lineup: Lineup, error: np.ndarray) -> str:
        """Which strategy answered what, where, in a game's words (:meth:`illegal_choice`)."""
        game, seat = int(error[self.error.GAME]), int(error[self.error.SEAT])
        label = lineup.seats[int(lineup.strategy_index(np.array(game), seat))].label
        several = len(self.decisions) > 1
        decision = self.decisions[int(error[self.error.DECISION]) if several else 0]
        return (
            f"strategy {label!r} (seat {seat}) made an illegal {decision!r} decision "
            f"in game {game}: {self.illegal_choice(decision, error)}"
        )

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        """What the strategy did wrong in ``decision``, from the kernel's ``error`` slots:
        its answer, and the options it had where the loop counted them (``COUNT``); a
        game says it in its own words by overriding this."""
        value, count = int(error[self.error.VALUE]), int(error[self.error.COUNT])
        if count > 0:
            return f"answered {value}, outside its {count} options (0..{count - 1})"
        return f"answered {value}, outside its options"


class CompiledStrategy(DecisionPlayer):
    """A compiled strategy seen from a reference engine.

    Each decision hands the packed position and the seat's stream state to the compiled
    function (:meth:`call`) and takes the advanced state back, so that the stream stays
    the one the compiled engine would use. A game's bridge adds its decisions' methods.
    """
