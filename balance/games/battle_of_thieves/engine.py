"""Python face of the compiled Battle of Thieves engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop (:mod:`.engine_nb`) over a block of game
indices and returns a :class:`Records`. The single steps of the compiled engine
(set-up, start of turn, options, applying one, end of turn, a card program) run on the
reference engine's readable positions through :data:`.bridge.COMPILED`, so that the
scenario tests hold both engines to the same positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from balance.core.dispatch import Dispatch
from balance.core.engine import CompiledEngine
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves.content import Content
from balance.games.battle_of_thieves.layout import PLAYERS, RECORDS
from balance.games.battle_of_thieves.reference import GameRecord
from balance.games.battle_of_thieves.rules import BattleRules
from balance.strategies import battle_of_thieves as shipped
from balance.strategies.battle_of_thieves import random as random_strategy

GAME = "battle-of-thieves"


def check_restricted(names: Sequence[str]) -> None:
    """Restricted play takes a card out of a deck (the rule ``blanks``), not a choice out of
    a seat's options: no action may be forbidden to a seat."""
    if names:
        raise BalanceError(
            f"{GAME}: restricted play takes cards out of a deck with the rule "
            f"blanks=SEAT:CARD, not {', '.join(names)}"
        )


def content_arrays(content: Content) -> tuple[np.ndarray, ...]:
    """``content``'s arrays as the kernels take them (C-contiguous int64)."""
    return tuple(np.ascontiguousarray(a, dtype=np.int64) for a in content.arrays())


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    extra={nb.SCRIPTED: {"decide": nb.scripted_decide}},
    # The uniform-random player is inlined (its decisions are the loop's hot path); the
    # heuristics' scoring would slow its loop if inlined.
    in_line=(random_strategy,),
    wide_arguments=True,  # the view: some 360 words
)


def searches(lineup: Lineup) -> bool:
    """Whether ``lineup`` seats a search player (``mc``, ``ismcts``)."""
    from balance.games.battle_of_thieves.search_nb import SEARCH_CODES

    return any(seat.strategy.code in SEARCH_CODES for seat in lineup.seats)


def rollout_params() -> np.ndarray:
    """float64 ``(5, MAX_PARAMS)``: the default parameters of each strategy a search
    player's playouts may play, by code (random, cannoneer, boarder, bailer, finisher)."""
    rollouts = DISPATCH.shipped[:5]  # codes follow SHIPPED's order
    return np.stack([SeatStrategy(s, tuple(v for _, v in s.params)).vector() for s in rollouts])


class Engine(CompiledEngine):
    """Battle of Thieves' game loop: two seats, their decks compiled beside the rules."""

    dispatch = DISPATCH
    min_players = PLAYERS
    max_players = PLAYERS
    layout = RECORDS
    record_class = GameRecord

    def kernel_for(self, lineup: Lineup) -> Callable:
        """:meth:`CompiledEngine.kernel_for`, except that a line-up with a search player
        (``mc``, ``ismcts``) plays in the search loop of :mod:`.search_nb`, compiled only
        for such runs."""
        if searches(lineup):
            if lineup.user_strategies():
                raise BalanceError(
                    f"{GAME}: the search players (mc, ismcts) cannot share a run with a "
                    "strategy file's strategies"
                )
            from balance.games.battle_of_thieves import search_nb

            return DISPATCH.bound(search_nb).play_games_search_nb
        return super().kernel_for(lineup)

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """No restricted play here: it takes cards out of a deck (the rule ``blanks``)."""
        check_restricted(lineup.restricted)
        return super().kernel_inputs(lineup)

    def rules_arguments(
        self, rules: BattleRules, players: int, content: Content | None = None
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """The packed rules and the two decks compiled (``content``, by default
        ``rules.content()``)."""
        return rules.to_array(), content_arrays(rules.content() if content is None else content)

    def extra_arguments(self, lineup: Lineup) -> tuple[np.ndarray, ...]:
        """A search player's playouts take the default parameters of every strategy."""
        return (rollout_params(),) if searches(lineup) else ()

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        value, count = int(error[nb.Error.VALUE]), int(error[nb.Error.COUNT])
        return f"answered {value} among {count} options (0..{count - 1})"


ENGINE = Engine()
play_games = ENGINE.play_games


def play_scripted(
    rules: BattleRules,
    content: Content,
    seed: int,
    game: int,
    answers: Sequence[Sequence[int]],
) -> GameRecord:
    """Game ``game`` of the run seeded ``seed`` in compiled code, each seat answering from
    its list of option indices (asked only with two options or more, as in the reference's
    :class:`~balance.games.battle_of_thieves.reference.Scripted`). A script that runs out
    or answers outside the options raises :class:`BalanceError`."""
    length = max([len(a) for a in answers] + [1])
    params = np.zeros((PLAYERS, max(2 + length, 8)), dtype=np.float64)
    for s, script in enumerate(answers):
        params[s, 1] = len(script)
        params[s, 2 : 2 + len(script)] = script
    records = ENGINE.empty_records(PLAYERS, 1, game)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    # The game loop every run plays, compiled once for both (scripted answers are codes
    # of every binding).
    DISPATCH.kernel_for(())(
        rules.to_array(),
        content_arrays(content),
        np.full(PLAYERS, nb.SCRIPTED, dtype=np.int64),
        params,
        np.arange(PLAYERS, dtype=np.int64)[None, :],
        seed,
        game,
        records.games,
        records.seats,
        records.cards,
        error,
    )
    if error[nb.Error.SEAT] >= 0:
        seat, value = int(error[nb.Error.SEAT]), int(error[nb.Error.VALUE])
        raise BalanceError(
            f"seat {seat}'s script answered {value} among {int(error[nb.Error.COUNT])} "
            "options (-1: the script ran out)"
        )
    return records.game_record(0)
