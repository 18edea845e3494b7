"""La Planche symbol by symbol: hand-built positions, the exact position and outcome expected.

Every expected value is read off ``docs/la-planche.md`` and the decisions listed in
:mod:`balance.games.la_planche.reference`; each test runs on both engines (the ``engine``
fixture). Positions are strings from the ship end (``.`` is an empty space).
"""

from __future__ import annotations

import pytest

from balance.games.la_planche.reference import (
    ADVANCE,
    EMPTY,
    MOVE,
    NONE,
    NOTHING,
    SKULL,
    SWAP,
)

Y, R, G, B = range(4)


def empty(k: int) -> str:
    return "." * k


# ---------------------------------------------------------------------------
# Swap
# ---------------------------------------------------------------------------


def test_swap_pairs_prisoners_of_different_colours(engine, position) -> None:
    pos = position("YRY.B" + empty(13))
    # (0, 2) is two yellows: not an option.
    assert engine.options(pos, SWAP) == [(0, 1), (0, 4), (1, 2), (1, 4), (2, 4)]
    new, fallen = engine.apply(pos, SWAP, (1, 4))
    assert new == position("YBY.R" + empty(13))
    assert fallen == EMPTY


def test_swap_has_no_option_when_one_colour_is_left(engine, position) -> None:
    pos = position(empty(10) + "G.GG" + empty(4))
    assert engine.options(pos, SWAP) == []


# ---------------------------------------------------------------------------
# Advance and the push
# ---------------------------------------------------------------------------


def test_advance_stops_at_a_gap(engine, position) -> None:
    pos = position("..YR.G" + empty(12))
    assert engine.options(pos, ADVANCE) == [(2, NONE), (3, NONE), (5, NONE)]
    new, fallen = engine.apply(pos, ADVANCE, (2, NONE))
    # Y and R (an unbroken row) move; the gap stops the push before G.
    assert new == position("...YRG" + empty(12))
    assert fallen == EMPTY


def test_advance_moves_the_whole_unbroken_row(engine, position) -> None:
    pos = position(empty(13) + "YRGB.")
    new, fallen = engine.apply(pos, ADVANCE, (13, NONE))
    assert new == position(empty(14) + "YRGB")
    assert fallen == EMPTY


def test_advance_makes_the_front_prisoner_fall(engine, position) -> None:
    pos = position(empty(14) + "YRGB")
    new, fallen = engine.apply(pos, ADVANCE, (15, NONE))
    # R, G and B form the row from space 15; B stood on the last space and falls.
    assert new == position(empty(14) + "Y.RG")
    assert fallen == B


def test_advance_of_the_prisoner_on_the_last_space(engine, position) -> None:
    pos = position(empty(14) + "YRGB")
    new, fallen = engine.apply(pos, ADVANCE, (17, NONE))
    assert new == position(empty(14) + "YRG.")
    assert fallen == B


def test_push_moves_the_rearmost_and_the_row_in_front_of_him(engine, position) -> None:
    pos = position("YR.G" + empty(14))
    new, fallen = engine.push(pos)
    assert new == position(".YRG" + empty(14))
    assert fallen == EMPTY


def test_push_makes_the_front_prisoner_fall(engine, position) -> None:
    pos = position(empty(14) + "YRGB")
    new, fallen = engine.push(pos)
    assert new == position(empty(15) + "YRG")
    assert fallen == B


def test_push_of_a_prisoner_alone_before_a_gap(engine, position) -> None:
    pos = position("Y" + empty(15) + "RG")
    new, fallen = engine.push(pos)
    assert new == position(".Y" + empty(14) + "RG")
    assert fallen == EMPTY


# ---------------------------------------------------------------------------
# Move
# ---------------------------------------------------------------------------


def test_move_to_the_front_when_the_back_has_no_room(engine, position) -> None:
    pos = position("YRGB" + empty(14))
    # Behind the rearmost is off the plank (or Y's own space); B, the front, would stay put.
    assert engine.options(pos, MOVE) == [(0, 4), (1, 4), (2, 4)]
    new, fallen = engine.apply(pos, MOVE, (0, 4))
    assert new == position(".RGBY" + empty(13))
    assert fallen == EMPTY


def test_move_to_the_front_and_to_the_back(engine, position) -> None:
    pos = position("..YRG" + empty(13))
    # Y (the rear) cannot go behind the line (his own space); G (the front) cannot go ahead.
    assert engine.options(pos, MOVE) == [(2, 5), (3, 5), (3, 1), (4, 1)]
    new, fallen = engine.apply(pos, MOVE, (4, 1))
    assert new == position(".GYR" + empty(14))
    assert fallen == EMPTY


def test_move_to_the_back_when_the_front_is_on_the_last_space(engine, position) -> None:
    pos = position(empty(15) + "YRG")
    # Ahead of the front is off the plank; Y, the rear, would stay put behind the others.
    assert engine.options(pos, MOVE) == [(16, 14), (17, 14)]
    new, fallen = engine.apply(pos, MOVE, (17, 14))
    assert new == position(empty(14) + "GYR.")
    assert fallen == EMPTY


def test_the_front_prisoner_moves_ahead_of_the_line_behind_him(engine, position) -> None:
    pos = position("YR..G" + empty(13))
    # G picked up: the line is Y, R; ahead of it is space 2.
    assert engine.options(pos, MOVE) == [(0, 5), (1, 5), (4, 2)]
    new, _ = engine.apply(pos, MOVE, (4, 2))
    assert new == position("YRG" + empty(15))


def test_no_move_on_a_full_plank(engine, position) -> None:
    pos = position("YRGB" * 4)  # 16 spaces, all taken
    assert engine.options(pos, MOVE) == []


# ---------------------------------------------------------------------------
# The spinner's two symbols, skulls, and the turn
# ---------------------------------------------------------------------------

START = "YRGB" + empty(14)


@pytest.mark.parametrize("spun", [(SKULL, SWAP), (SWAP, SKULL)], ids=["skull-first", "swap-first"])
def test_skull_and_an_option_force_the_option(engine, position, spun) -> None:
    pos = position(START)
    new, out = engine.turn(pos, *spun, seat=0, colour=Y, symbol_pick=1, expect_asked=["choose"])
    assert (out.action, out.option) == (SWAP, (0, 1))
    # Y and R swap; Y moved toward the shark, R toward the ship; then R (rearmost) is pushed.
    assert new.line == position(".RYGB" + empty(13)).line
    assert new.evidence[0] == [-1, 1, 0, 0]
    assert out.pushed and out.fell == out.fell_push == EMPTY and not out.ended


def test_two_skulls_do_nothing_but_the_push(engine, position) -> None:
    pos = position(START)
    new, out = engine.turn(pos, SKULL, SKULL, expect_asked=[])
    assert out.action == NOTHING and out.option is None
    assert new.line == position(".YRGB" + empty(13)).line
    assert new.evidence == pos.evidence
    assert out.pushed and not out.ended


def test_a_symbol_without_options_counts_as_a_skull(engine, position) -> None:
    full = position("YRGB" * 4)  # Move has no option on a full plank of 16
    new, out = engine.turn(full, MOVE, SKULL, expect_asked=[])
    assert out.action == NOTHING
    # The push moves the whole line; B on the last space falls.
    assert new.line == position(".YRG" + "BYRG" * 3).line
    assert (out.pushed, out.fell_push) == (True, B)

    new, out = engine.turn(full, MOVE, ADVANCE, option_pick=2, expect_asked=["choose"])
    assert (out.action, out.option, out.fell) == (ADVANCE, (2, NONE), B)
    # Advance G on 2: the row 2..15 moves on, B falls; then Y and R (rearmost row) move on.
    assert new.line == position(".YRGBYRGBYRGBYRG").line
    assert new.evidence[0] == [-3, -3, -4, -4]
    assert (out.pushed, out.fell_push) == (True, EMPTY)


def test_the_same_symbol_twice_is_no_choice(engine, position) -> None:
    pos = position(START)
    new, out = engine.turn(pos, ADVANCE, ADVANCE, option_pick=3, expect_asked=["choose"])
    assert (out.action, out.option) == (ADVANCE, (3, NONE))
    # B moves on from 3 to 4; then the push moves Y, R, G up to him.
    assert new.line == position(".YRGB" + empty(13)).line


def test_two_symbols_with_options_are_the_player_s_choice(engine, position) -> None:
    pos = position(START)
    new, out = engine.turn(
        pos, SWAP, MOVE, symbol_pick=1, option_pick=2, expect_asked=["symbol", "choose"]
    )
    assert (out.action, out.option) == (MOVE, (2, 4))
    assert new.line == position(".YRBG" + empty(13)).line
    assert new.evidence[0] == [0, 0, -1, 0]


def test_a_single_option_is_played_without_asking(engine, position) -> None:
    pos = position(empty(8) + "YY" + empty(8))
    # Swap has no option (one colour): Move is played without a symbol question, and its
    # two options (8, 10) and (9, 7) are a choice.
    new, out = engine.turn(pos, SWAP, MOVE, option_pick=1, expect_asked=["choose"])
    assert (out.action, out.option) == (MOVE, (9, 7))
    # Swap's single option is played without any question.
    pos = position(empty(16) + "YR")
    new, out = engine.turn(pos, SWAP, SKULL, expect_asked=[])
    assert (out.action, out.option) == (SWAP, (16, 17))
    # R and Y swap; the push then drops Y off the end and R is the last prisoner.
    assert new.line == position(empty(17) + "R").line
    assert (out.fell_push, out.ended) == (Y, True)


# ---------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------


def test_the_game_ends_after_the_action_with_no_push(engine, position) -> None:
    pos = position(empty(16) + "YR")
    new, out = engine.turn(pos, ADVANCE, SKULL, option_pick=1, expect_asked=["choose"])
    assert (out.action, out.fell) == (ADVANCE, R)
    assert out.ended and not out.pushed and out.fell_push == EMPTY
    assert new.line == position(empty(16) + "Y.").line


def test_the_game_ends_after_the_push(engine, position) -> None:
    pos = position(empty(16) + "YR")
    new, out = engine.turn(pos, SKULL, SKULL, expect_asked=[])
    assert out.action == NOTHING
    assert out.ended and out.pushed and out.fell_push == R
    assert new.line == position(empty(17) + "Y").line


def test_the_game_goes_on_with_two_prisoners_left(engine, position) -> None:
    pos = position(empty(15) + "YRG")
    new, out = engine.turn(pos, SKULL, SKULL, expect_asked=[])
    assert out.fell_push == G and not out.ended
    assert new.line == position(empty(16) + "YR").line
