"""The Python face of Crazy Eights' compiled engine: restricted play, illegal answers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from balance.core.dispatch import Dispatch
from balance.core.engine import CompiledEngine
from balance.core.errors import BalanceError
from balance.core.game import Lineup, lineup_arrays

from crazy_eights import engine_nb as nb
from crazy_eights import strategies
from crazy_eights.records import RECORDS, GameRecord
from crazy_eights.rules import RANKS, SUITS

GAME = "crazy-eights"


def check_restricted(names: Sequence[str]) -> None:
    """Restricted play forbids one rank at a time."""
    for name in names:
        if name not in RANKS:
            raise BalanceError(f"{GAME}: unknown rank {name!r}; ranks: {', '.join(RANKS)}")
    if len(names) > 1:
        raise BalanceError(f"{GAME}: restricted play forbids one rank at a time")


def forbidden_by_seat(lineup: Lineup, game: np.ndarray | int) -> np.ndarray:
    """The rank each seat may never play, per game (-1: none): int64 ``(..., n)``."""
    return lineup.forbidden(game, RANKS.index(lineup.restricted[0]) if lineup.restricted else -1)


SCRIPTED = {"play": nb.scripted_play_nb, "suit": nb.scripted_suit_nb}  # scenario tests
DISPATCH = Dispatch(nb, strategies, __file__, extra={nb.SCRIPTED: SCRIPTED})


class Engine(CompiledEngine):
    """Crazy Eights' game loop; the seats' forbidden ranks ride in ``seats_of``."""

    dispatch = DISPATCH
    min_players = 2
    max_players = 6
    layout = RECORDS
    record_class = GameRecord

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``seats_of`` (R, 2n): each seat's strategy, then the rank it may never play."""
        check_restricted(lineup.restricted)
        codes, params, rows, seated = lineup_arrays(lineup, self.dispatch.code)
        return codes, params, np.hstack([seated, forbidden_by_seat(lineup, rows)])

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        value, count = int(error[nb.Error.VALUE]), int(error[nb.Error.COUNT])
        if decision == "suit":
            return f"named suit {value}, not 0..3 ({', '.join(SUITS)})"
        return f"chose option {value} of {count} (0..{count - 1})"


ENGINE = Engine()
play_games = ENGINE.play_games
