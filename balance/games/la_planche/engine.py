"""Python face of the compiled La Planche engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and
returns a :class:`Records`; :func:`legal_options`, :func:`apply_option`,
:func:`mandatory_push` and :func:`play_turn` run single steps of the compiled engine on
a hand-built :class:`Position`, so that scenario tests hold the compiled rules to the
same positions as the reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.dispatch import Dispatch
from balance.core.engine import CompiledEngine
from balance.core.errors import BalanceError
from balance.core.game import Lineup, lineup_arrays
from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS
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
from balance.games.la_planche.rules import SYMBOLS, LaPlancheRules
from balance.strategies import la_planche as shipped
from balance.strategies.la_planche import random as random_strategy

GAME = "la-planche"


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


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
    return lineup.forbidden(game, SYMBOLS.index(lineup.restricted[0]) if lineup.restricted else -1)


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    extra={nb.SCRIPTED: {"symbol": nb.scripted_symbol_nb, "choose": nb.scripted_choose_nb}},
)


class Engine(CompiledEngine):
    """La Planche's game loop; the seats' forbidden symbols ride in ``seats_of``."""

    dispatch = DISPATCH
    min_players = 2
    max_players = 4
    layout = nb.RECORDS
    record_class = GameRecord

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``seats_of`` (R, 2n): each seat's strategy, then the symbol each seat may never
        choose when it has the choice (restricted play; -1 for none)."""
        check_restricted(lineup.restricted)
        codes, params, rows, strategies = lineup_arrays(lineup, self.dispatch.code)
        return codes, params, np.hstack([strategies, forbidden_by_seat(lineup, rows)])

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        value = int(error[nb.Error.VALUE])
        if decision == "symbol":
            return f"chose symbol {value}, not 0 (the first spun) or 1 (the second)"
        symbol = SYMBOLS[int(error[nb.Error.SYMBOL])]
        return f"chose option {value} of {symbol}, outside its options"


ENGINE = Engine()
play_games = ENGINE.play_games


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
    # A scripted seat: the copy compiles no heuristic.
    DISPATCH.bound(nb.resolve_turn_nb, playing=(random_strategy,))(
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
            f"scripted {ENGINE.decisions[int(outcome[nb.Outcome.ERROR_DECISION])]!r} answer "
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
