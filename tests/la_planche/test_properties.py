"""Invariants on random positions and random turns, on both engines at every step."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from balance.games.la_planche import engine as compiled
from balance.games.la_planche import reference
from balance.games.la_planche.reference import EMPTY, Position

from .conftest import ScriptedPlayer, build_position, rules_for


@st.composite
def positions(draw) -> Position:
    """A line of 16..32 spaces holding 2..16 prisoners, at most four of each colour."""
    spaces = draw(st.integers(16, 32))
    counts = [draw(st.integers(0, 4)) for _ in range(4)]
    if sum(counts) < 2:
        counts[draw(st.integers(0, 3))] = 2
    prisoners = [c for c in range(4) for _ in range(counts[c])]
    prisoners = draw(st.permutations(prisoners))
    where = sorted(
        draw(
            st.lists(
                st.integers(0, spaces - 1),
                min_size=len(prisoners),
                max_size=len(prisoners),
                unique=True,
            )
        )
    )
    text = ["."] * spaces
    for k, c in zip(where, prisoners, strict=True):
        text[k] = "YRGB"[c]
    return build_position("".join(text), players=draw(st.integers(2, 4)))


def colour_counts(pos: Position) -> list[int]:
    return [pos.line.count(c) for c in range(4)]


@settings(max_examples=150, deadline=None)
@given(pos=positions(), symbol=st.integers(0, 3), pick=st.integers(0, 10**6))
def test_an_option_conserves_prisoners_and_the_engines_agree(pos, symbol, pick) -> None:
    rules = rules_for(pos)
    options = reference.legal_options(pos, symbol)
    assert compiled.legal_options(pos, rules, symbol) == options
    if not options:
        return
    option = options[pick % len(options)]
    new = pos.copy()
    fallen = reference.apply_option(new, symbol, option)
    assert compiled.apply_option(pos, rules, symbol, option) == (new, fallen)
    before, after = colour_counts(pos), colour_counts(new)
    if fallen == EMPTY:
        assert after == before
    else:
        assert after[fallen] == before[fallen] - 1
        assert sum(after) == sum(before) - 1


@settings(max_examples=150, deadline=None)
@given(pos=positions())
def test_a_push_drops_at_most_one_prisoner(pos) -> None:
    new = pos.copy()
    fallen = reference.mandatory_push(new)
    assert compiled.mandatory_push(pos, rules_for(pos)) == (new, fallen)
    assert new.prisoners() == pos.prisoners() - (fallen != EMPTY)
    assert new.line[pos.occupied()[0]] == EMPTY  # the rearmost always moves on


@settings(max_examples=60, deadline=None)
@given(
    pos=positions(),
    turns=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 1), st.integers(0, 200)),
        min_size=1,
        max_size=30,
    ),
)
def test_whole_turns_agree_step_by_step(pos, turns) -> None:
    rules = rules_for(pos)
    for k, (first, second, symbol_pick, option_pick) in enumerate(turns):
        seat = k % pos.players
        usable = reference.usable_symbols(pos, first, second)
        symbol = usable[symbol_pick] if len(usable) == 2 else (usable[0] if usable else -1)
        count = len(reference.legal_options(pos, symbol)) if usable else 0
        option_pick = option_pick % count if count else 0
        new = pos.copy()
        out = reference.play_turn(
            new, seat, seat, first, second, ScriptedPlayer(symbol_pick, option_pick)
        )
        assert compiled.play_turn(
            pos, rules, seat, seat, first, second, symbol_pick, option_pick
        ) == (new, out)
        assert new.prisoners() >= 1
        assert pos.prisoners() - new.prisoners() <= 2  # one by the action, one by the push
        pos = new
        if out.ended:
            assert pos.prisoners() == 1
            break
