"""Python face of the compiled Battle of Thieves engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop (:mod:`.engine_nb`) over a block of game
indices and returns a :class:`Records`. The single steps of the compiled engine
(set-up, start of turn, options, applying one, end of turn, a card program) run on the
reference engine's readable positions through :data:`.bridge.COMPILED`, so that the
scenario tests hold both engines to the same positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from balance.core import dispatch
from balance.core.dispatch import USER_CODES, Dispatch
from balance.core.errors import BalanceError
from balance.core.strategy import SeatStrategy, Strategy
from balance.games.base import Lineup, check_block, check_player_count, lineup_arrays
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves.content import Content
from balance.games.battle_of_thieves.layout import (
    CARD_STAT,
    DECK_SIZE,
    GAME_STAT,
    PLAYERS,
    SEAT_STAT,
)
from balance.games.battle_of_thieves.reference import GameRecord
from balance.games.battle_of_thieves.rules import BattleRules
from balance.strategies import battle_of_thieves as shipped
from balance.strategies.battle_of_thieves import random as random_strategy

GAME = "battle-of-thieves"
DECISIONS = ("decide",)


def check_players(players: int) -> None:
    check_player_count(GAME, players, PLAYERS, PLAYERS)


def check_restricted(names: Sequence[str]) -> None:
    """Restricted play takes a card out of a deck (the rule ``blanks``), not a choice out of
    a seat's options: no action may be forbidden to a seat."""
    if names:
        raise BalanceError(
            f"{GAME}: restricted play takes cards out of a deck with the rule "
            f"blanks=SEAT:CARD, not {', '.join(names)}"
        )


@dataclass(frozen=True)
class Records:
    """Per-game records of a block of games, as the compiled engine writes them.

    Attributes
    ----------
    first_game : index of the first game of the block.
    games : int32 ``(G, GAME_STAT.SIZE)``: turns, finished, winner (-1 if capped), how the
        game ended, both final water levels.
    seats : int32 ``(G, 2, SEAT_STAT.SIZE)``: won, shots, hits, holes, bailing, attacks,
        damage, deaths, boardings, visits, cards drawn and played, Red Sea turns, water.
    cards : int32 ``(G, 2, DECK_SIZE, CARD_STAT.SIZE)``: per seat and distinct card of its
        deck (``Content.deck_cards`` order): copies drawn, played, own turns held.
    """

    first_game: int
    games: np.ndarray
    seats: np.ndarray
    cards: np.ndarray

    def __len__(self) -> int:
        return self.games.shape[0]

    def game_record(self, g: int) -> GameRecord:
        """Game ``g`` of the block in the reference engine's record form."""
        return GameRecord(
            games=[int(x) for x in self.games[g]],
            seats=self.seats[g].astype(int).tolist(),
            cards=self.cards[g].astype(int).tolist(),
        )


def empty_records(n_games: int, first_game: int = 0) -> Records:
    """Zeroed record arrays for ``n_games`` games."""
    return Records(
        first_game=first_game,
        games=np.zeros((n_games, GAME_STAT.SIZE), dtype=np.int32),
        seats=np.zeros((n_games, PLAYERS, SEAT_STAT.SIZE), dtype=np.int32),
        cards=np.zeros((n_games, PLAYERS, DECK_SIZE, CARD_STAT.SIZE), dtype=np.int32),
    )


def content_arrays(content: Content) -> tuple[np.ndarray, ...]:
    """``content``'s arrays as the kernels take them (C-contiguous int64)."""
    return tuple(np.ascontiguousarray(a, dtype=np.int64) for a in content.arrays())


def records_from_games(played: Sequence[GameRecord], first_game: int, players: int) -> Records:
    """The reference engine's records of consecutive games as the compiled engine's arrays."""
    records = empty_records(len(played), first_game)
    for g, record in enumerate(played):
        records.games[g] = record.games
        records.seats[g] = record.seats
        records.cards[g] = record.cards
    return records


# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


def kernel_inputs(lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``codes`` (K,), ``params`` (K, MAX_PARAMS) and ``seats_of`` (R, 2) for the kernel:
    row ``i % R`` of ``seats_of`` is the strategy in each seat of game ``i``."""
    check_restricted(lineup.restricted)
    codes, params, _, strategies = lineup_arrays(lineup, USER_CODES)
    return codes, params, strategies


def uniform_lineup(players: int = PLAYERS) -> Lineup:
    return Lineup(tuple(SeatStrategy(random_strategy, ()) for _ in range(players)))


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    extra={nb.SCRIPTED: {"decide": nb.scripted_decide}},
    # The uniform-random player is inlined (its decisions are the loop's hot path); the
    # heuristics' scoring would slow its loop if inlined.
    in_line=(random_strategy,),
)


def kernel_for(lineup: Lineup) -> Callable:
    """The compiled game loop that can call every strategy of ``lineup``.

    Shipped strategies use the loop cached on disk. A user's strategies join through
    dispatchers generated for them, and the loop is compiled once per version of their
    file (then loaded from disk). A
    line-up with a search player (``mc``, ``ismcts``) plays in the search loop of
    :mod:`.search_nb`, compiled only for such runs.
    """
    if searches(lineup):
        if lineup.user_strategies():
            raise BalanceError(
                f"{GAME}: the search players (mc, ismcts) cannot share a run with a "
                "strategy file's strategies"
            )
        from balance.games.battle_of_thieves import search_nb

        return DISPATCH.bound(search_nb).play_games_search_nb
    return DISPATCH.kernel_for([seat.strategy for seat in lineup.seats])


def searches(lineup: Lineup) -> bool:
    """Whether ``lineup`` seats a search player (``mc``, ``ismcts``)."""
    from balance.games.battle_of_thieves.search_nb import SEARCH_CODES

    return any(seat.strategy.code in SEARCH_CODES for seat in lineup.seats)


def rollout_params() -> np.ndarray:
    """float64 ``(5, MAX_PARAMS)``: the default parameters of each strategy a search
    player's playouts may play, by code (random, cannoneer, boarder, bailer, finisher)."""
    rollouts = DISPATCH.shipped[:5]  # codes follow SHIPPED's order
    return np.stack([SeatStrategy(s, tuple(v for _, v in s.params)).vector() for s in rollouts])


def check_strategy(strategy: Strategy) -> None:
    """A user's strategy must give a compiled ``decide`` function."""
    dispatch.check_strategy(strategy, GAME, DECISIONS, DECISIONS)


def play_games(
    rules: BattleRules,
    players: int,
    seed: int,
    n_games: int,
    first_game: int = 0,
    lineup: Lineup | None = None,
    *,
    content: Content | None = None,
) -> Records:
    """Play ``n_games`` games, indices ``first_game ..``, in compiled code.

    Both seats play uniform-random unless ``lineup`` says otherwise. ``content`` (the two
    decks compiled) defaults to ``rules.content()``. Releases the GIL while it plays, so
    blocks can run on several threads at once.
    """
    check_players(players)
    lineup = lineup or uniform_lineup(players)
    check_block(players, n_games, first_game, seed, lineup, check_strategy)
    if content is None:
        content = rules.content()
    records = empty_records(n_games, first_game)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    codes, params, seats_of = kernel_inputs(lineup)
    kernel = kernel_for(lineup)
    done = kernel(
        rules.to_array(),
        content_arrays(content),
        codes,
        params,
        seats_of,
        seed,
        first_game,
        records.games,
        records.seats,
        records.cards,
        error,
        *([rollout_params()] if searches(lineup) else []),
    )
    if error[nb.Error.SEAT] >= 0:
        raise BalanceError(_illegal_choice_message(lineup, error))
    assert done == n_games
    return records


def _illegal_choice_message(lineup: Lineup, error: np.ndarray) -> str:
    game, seat = int(error[nb.Error.GAME]), int(error[nb.Error.SEAT])
    index = int(lineup.strategy_index(np.array(game), seat))
    label = lineup.seats[index].label
    value, count = int(error[nb.Error.VALUE]), int(error[nb.Error.COUNT])
    return (
        f"strategy {label!r} (seat {seat}) made an illegal 'decide' decision in game "
        f"{game}: answered {value} among {count} options (0..{count - 1})"
    )


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
    records = empty_records(1, game)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    DISPATCH.bound(nb.play_games_nb)(
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
