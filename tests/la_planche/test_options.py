"""Perft-style option counts: every symbol from hand-built positions, counted by hand.

Each case gives the number of options of swap, advance, move and skull. Both engines must
return identical option lists, and the compiled engine's option count (which it works out
without listing the options) must match its list; ``engine.legal_options`` checks that.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.la_planche import engine as compiled
from balance.games.la_planche import reference
from balance.games.la_planche.reference import SYMBOLS

from .conftest import build_position, rules_for

CASES = {
    # The opening: 120 pairs less 6 same-colour pairs per colour; Move: anyone but the
    # front (B on 15) goes ahead to 16; nobody behind Y on 0, and Y's own "behind" is 0.
    "opening": ("YRGBYRGBYRGBYRGB..", (96, 16, 15, 0)),
    # 16 spaces full: no space ahead or behind the line.
    "full-16": ("YRGBYRGBYRGBYRGB", (96, 16, 0, 0)),
    # 32 spaces: the same as the opening.
    "opening-32": ("YRGBYRGBYRGBYRGB" + "." * 16, (96, 16, 15, 0)),
    # Spread out: Y0 -> 1 or 7; R2 -> 7; G4 -> 7; B6 -> 5 (ahead of G).
    "spread": ("Y.R.G.B" + "." * 11, (6, 4, 5, 0)),
    # Two prisoners: Y8 -> 16 (behind R; ahead is off the plank), R17 -> 9 or 7.
    "two-apart": ("." * 8 + "Y" + "." * 8 + "R", (1, 2, 3, 0)),
    # One colour left: no swap; Y8 -> 10, Y9 -> 7.
    "one-colour": ("." * 8 + "YY" + "." * 8, (0, 2, 2, 0)),
    # Pushed to the shark end: the front is on 17, everyone but the rear may go to 1.
    "shark-end": (".." + "YYYYRRRRGGGGBBBB", (96, 16, 15, 0)),
    # Three prisoners with a gap: Y0 -> 5; R1 -> 5; G4 -> 2.
    "gap": ("YR..G" + "." * 13, (3, 3, 3, 0)),
}


@pytest.mark.parametrize(("text", "counts"), list(CASES.values()), ids=list(CASES))
def test_option_counts(text: str, counts: tuple[int, ...]) -> None:
    pos = build_position(text)
    rules = rules_for(pos)
    found = []
    for symbol in range(len(SYMBOLS)):
        listed = reference.legal_options(pos, symbol)
        assert compiled.legal_options(pos, rules, symbol) == listed, SYMBOLS[symbol]
        assert len(set(listed)) == len(listed), "an option is listed twice"
        found.append(len(listed))
    assert tuple(found) == counts


def test_the_option_count_reaches_a_strategy_as_one_type() -> None:
    """The count is an int64 on every path out of ``legal_options_nb``: a plain ``0`` on
    one of them is typed as the constant 0 on numba's way to the caller's types, and the
    strategy the count is passed to would be compiled for that constant too (each of the
    game loop's heuristics twice)."""
    from numba import njit

    from balance.games.la_planche import moves_nb

    @njit
    def strategy(count):
        return count - 1

    @njit
    def turn(line, state, rules, symbol, opt_a, opt_b):
        count = moves_nb.legal_options_nb(line, state, rules, symbol, opt_a, opt_b)
        k = 0
        if count > 1:
            k = strategy(count)
        return k

    pos = build_position(CASES["opening"][0])
    obs = compiled.pack_position(pos, rules_for(pos))
    opt_a = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    opt_b = np.zeros(moves_nb.MAX_OPTIONS, dtype=np.int64)
    assert turn(obs[0], obs[1], obs[2], 0, opt_a, opt_b) == 95  # swap: 96 options
    assert [str(s[0]) for s in strategy.signatures] == ["int64"]
