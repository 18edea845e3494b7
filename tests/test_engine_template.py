"""The compiled-engine template (balance.core.engine): one block of games validated,
allocated, handed to the kernel in the shared argument order, illegal answers told."""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from balance.core.engine import CompiledEngine
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.records import SEAT, RecordArray, RecordLayout, Stat
from balance.core.strategy import SeatStrategy, Strategy

LAYOUT = RecordLayout(
    arrays=(
        RecordArray("games", np.int32, entries=(Stat("turns"), Stat("finished", flag=True))),
        RecordArray("seats", np.int8, axes=(SEAT,), entries=(Stat("won", flag=True),)),
    ),
    tables=("games", "seats"),
    length=("games", "turns"),
    finished=("games", "finished"),
    won=("seats", "won"),
)
#: The kernel's ``error`` slots (-1 while all is well).
ERROR = collections.namedtuple("ErrorSlots", "GAME SEAT DECISION VALUE SIZE")(0, 1, 2, 3, 4)


@dataclass
class Record:
    turns: int
    finished: bool
    won: list[bool]


@dataclass(frozen=True)
class Rules:
    turn_cap: int = 9

    def to_array(self) -> np.ndarray:
        return np.array([self.turn_cap], dtype=np.int64)


def strategy(name: str, code: int) -> Strategy:
    return Strategy("toy", name, "plays", {"pick": lambda: 0}, code=code)


HONEST, CHEAT = strategy("honest", 0), strategy("cheat", 1)


class ShippedOnly:
    """The toy's dispatch: its strategies all have codes, so none joins its loop."""

    @staticmethod
    def code(strategy: Strategy) -> int:
        assert strategy.code is not None
        return strategy.code

    @staticmethod
    def prepare(kernel: Any, arguments: Any, strategies: Any) -> None:
        pass


class Toy(CompiledEngine):
    """A two-decision game whose "kernel" is plain Python: a cheat answers 7 in game 3."""

    game = "toy"
    min_players = 2
    max_players = 3
    decisions = ("pick", "pass")
    layout = LAYOUT
    record_class = Record
    error = ERROR
    dispatch = ShippedOnly()  # type: ignore[assignment]
    uniform = HONEST

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def check_strategy(self, strategy: Strategy) -> None:
        raise BalanceError("toy takes no strategy files")

    def kernel_for(self, lineup: Lineup) -> Any:
        return self.kernel

    def extra_arguments(self, lineup: Lineup) -> tuple[Any, ...]:
        return ("extra",)

    def kernel(self, players, rules, codes, params, seats_of, seed, first, games, seats, error,
               extra):  # fmt: skip
        self.calls.append((players, rules.tolist(), codes.tolist(), seed, first, extra))
        for g in range(games.shape[0]):
            game = first + g
            row = seats_of[game % seats_of.shape[0]]
            cheat = [s for s in range(players) if codes[row[s]] == 1]
            if cheat and game == 3:
                error[:4] = game, cheat[0], 1, 7
                return g
            games[g] = game + 1, 1
            seats[g, game % players, 0] = 1
        return games.shape[0]

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        return f"passed {int(error[ERROR.VALUE])} times"


def test_the_kernel_fills_the_declared_records() -> None:
    toy = Toy()
    records = toy.play_games(Rules(), 3, seed=5, n_games=4, first_game=2)
    assert toy.calls == [(3, [9], [0, 0, 0], 5, 2, "extra")]
    assert records.first_game == 2 and len(records) == 4
    assert records.games.tolist() == [[3, 1], [4, 1], [5, 1], [6, 1]]
    assert records.seats.shape == (4, 3, 1) and records.seats.dtype == np.int8
    assert records.game_record(1) == Record(4, True, [True, False, False])


def test_an_illegal_answer_names_the_strategy_seat_game_and_decision() -> None:
    lineup = Lineup((SeatStrategy(HONEST, ()), SeatStrategy(CHEAT, ())), rotate=True)
    with pytest.raises(BalanceError) as caught:
        Toy().play_games(Rules(), 2, seed=1, n_games=5, lineup=lineup)
    # Game 3 seats the second order: the cheat in seat 0.
    assert str(caught.value) == (
        "strategy 'cheat' (seat 0) made an illegal 'pass' decision in game 3: passed 7 times"
    )


def test_blocks_the_kernel_cannot_play_are_refused() -> None:
    toy = Toy()
    with pytest.raises(BalanceError, match="toy plays 2 to 3 players, not 4"):
        toy.play_games(Rules(), 4, seed=1, n_games=1)
    with pytest.raises(BalanceError, match="must not be negative"):
        toy.play_games(Rules(), 2, seed=1, n_games=-1)
    user = Strategy("toy", "mine", "plays", {"pick": lambda: 0})
    with pytest.raises(BalanceError, match="no strategy files"):
        toy.play_games(Rules(), 2, seed=1, n_games=1, lineup=Lineup((SeatStrategy(user, ()),) * 2))
    assert toy.calls == []


def test_reference_games_become_the_same_records() -> None:
    toy = Toy()
    played = toy.play_games(Rules(), 2, seed=1, n_games=3)
    again = toy.records_from_games([played.game_record(g) for g in range(3)], 0, 2)
    assert all(np.array_equal(again.arrays[k], played.arrays[k]) for k in played.arrays)
