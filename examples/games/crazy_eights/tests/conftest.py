"""Hand-built deals, and one turn played on both engines from them.

Cards are written as two characters, rank then suit: ``8H``, ``TC`` (ten of clubs),
``QS``, ``AD``. A stock or a pile is listed from the bottom, its top last.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from balance.core.errors import BalanceError
from balance.core.random_nb import seed_stream_nb
from balance.core.random_ref import Stream
from balance.core.strategy import MAX_PARAMS

from crazy_eights import engine_nb as nb
from crazy_eights import reference
from crazy_eights.engine import DISPATCH
from crazy_eights.records import RECORDS
from crazy_eights.reference import State
from crazy_eights.rules import CrazyEightsRules, Table


def card(text: str) -> int:
    return "CDHS".index(text[1]) * 13 + "A23456789TJQK".index(text[0])


def deal(
    hands: Sequence[str],
    pile: str,
    stock: str = "",
    *,
    suit: str = "",
    pending: int = 0,
    direction: int = 1,
    seat: int = 0,
) -> State:
    """A deal: each hand, the discard pile and the stock as space-separated cards."""
    state = State(len(hands))
    for s, hand in enumerate(hands):
        for c in hand.split():
            state.hands[s, card(c)] = 1
        state.sizes[s] = len(hand.split())
    for k, c in enumerate(stock.split()):
        state.stock[k] = card(c)
    for k, c in enumerate(pile.split()):
        state.pile[k] = card(c)
        state.discard[card(c)] = 1
    t = state.table
    t[Table.STOCK], t[Table.PILE] = len(stock.split()), len(pile.split())
    t[Table.TOP] = state.pile[t[Table.PILE] - 1]
    t[Table.SUIT] = "CDHS".index(suit) if suit else t[Table.TOP] // 13
    t[Table.PENDING], t[Table.DIRECTION], t[Table.SEAT] = pending, direction, seat
    return state


def copy(state: State) -> State:
    after = State(len(state.sizes))
    for name in ("hands", "sizes", "stock", "pile", "discard", "table", "scratch"):
        getattr(after, name)[...] = getattr(state, name)
    return after


def compiled_turn(
    state: State,
    rules: CrazyEightsRules,
    answers: Sequence[int] = (0, 0, 0),
    forbidden: int = -1,
    chance: int = 0,
) -> tuple[State, int, dict[str, np.ndarray]]:
    """The seat to play's turn in compiled code, on a copy of ``state``, the scripted code
    answering ``answers`` (the first ``play``, the ``play`` after a draw, the suit); stream
    0 is seeded ``chance``. Returns the new state, the outcome and the turn's records."""
    after = copy(state)
    n = len(state.sizes)
    streams = np.zeros((n + 1, 4), dtype=np.uint64)
    seed_stream_nb(streams[0], chance, 0, 0)
    params = np.zeros(MAX_PARAMS)
    params[:3] = answers
    rec = RECORDS.empty(1, n)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    parts = (after.hands, after.sizes, after.stock, after.pile, after.discard, after.table)
    outcome = DISPATCH.bound(nb.play_turn_nb)(
        (*parts, after.scratch, after.options),
        rules.to_array(),
        nb.SCRIPTED,
        params,
        streams,
        forbidden,
        (rec["games"][0], rec["seats"][0], rec["cards"][0]),
        error,
    )
    if outcome == nb.ILLEGAL:
        raise BalanceError(f"scripted answer {int(error[nb.Error.VALUE])} is outside the options")
    return after, int(outcome), rec


class Scripted:
    """A reference player answering ``answers``: the first ``play``, the ``play`` after a
    draw, the suit (as the compiled engine's scripted code does); it keeps what it saw."""

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers = answers
        self.offered: list[list[int]] = []

    def play(self, view: tuple, options: np.ndarray, count: int) -> int:
        self.offered.append([int(c) for c in options[:count]])
        return self.answers[1 if view[1][Table.DRAWN] > 0 else 0]

    def suit(self, view: tuple) -> int:
        return self.answers[2]


class Turn:
    """One turn played from the same deal on both engines, which must agree."""

    def __init__(self, state: State, rules: CrazyEightsRules, answers, forbidden, chance) -> None:
        self.before = state
        self.player = Scripted(answers)
        after = copy(state)
        self.rec = RECORDS.empty(1, len(state.sizes))
        self.outcome = reference.play_turn(
            after, rules, self.player, Stream(chance, 0, 0), self.rec, forbidden
        )
        self.state = after
        compiled, outcome, rec = compiled_turn(state, rules, answers, forbidden, chance)
        assert outcome == self.outcome
        for name in ("hands", "sizes", "discard", "table"):
            assert np.array_equal(getattr(compiled, name), getattr(after, name)), name
        for name, count in (("stock", Table.STOCK), ("pile", Table.PILE)):
            kept = after.table[count]
            assert np.array_equal(getattr(compiled, name)[:kept], getattr(after, name)[:kept])
        for name, values in rec.items():
            assert np.array_equal(values, self.rec[name]), name

    def hand(self, seat: int) -> set[str]:
        return {reference.short(int(c)) for c in np.flatnonzero(self.state.hands[seat])}

    @property
    def table(self) -> np.ndarray:
        return self.state.table

    @property
    def top(self) -> str:
        return reference.short(int(self.table[Table.TOP]))


@pytest.fixture
def turn():
    """``turn(state, rules=..., answers=(play, play after a draw, suit), forbidden=-1)``."""

    def play(
        state: State,
        rules: CrazyEightsRules | None = None,
        answers: Sequence[int] = (0, 0, 0),
        forbidden: int = -1,
        chance: int = 0,
    ) -> Turn:
        return Turn(state, rules or CrazyEightsRules(), answers, forbidden, chance)

    return play
