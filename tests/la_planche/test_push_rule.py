"""The rule ``push``: what a push moves, on hand-built positions, on both engines.

``push = unbroken`` (the default) is the rules page's reading: "Pushing a prisoner moves
him one space forward together with the *unbroken* row of prisoners directly in front of
him (the prisoners on consecutive occupied spaces ahead). [...] A gap in the line stops
the push". ``push = whole`` reads the French rulebook's "Elle bouscule toute la rangée de
prisonniers vers l'avant" literally: every prisoner in front of the pushed one moves on,
gaps and all. Both readings share "If the front of that row stands on space S−1, that
front prisoner falls to the shark" (docs/la-planche.md, rule ``push``). Positions are
strings from the ship end (``.`` is an empty space); each test runs on both engines.
"""

from __future__ import annotations

import pytest

from balance.core.errors import BalanceError
from balance.games.la_planche.reference import ADVANCE, EMPTY, NONE, SKULL, SWAP
from balance.games.la_planche.rules import LaPlancheRules, Rule

Y, R, G, B = range(4)


def empty(k: int) -> str:
    return "." * k


def test_advance_crosses_a_gap_when_the_whole_row_is_pushed(engine, position) -> None:
    text = "..YR.G" + empty(12)
    unbroken, whole = position(text), position(text, push="whole")
    # The options do not depend on the rule: every prisoner may be advanced.
    assert engine.options(whole, ADVANCE) == engine.options(unbroken, ADVANCE)
    new, fallen = engine.apply(whole, ADVANCE, (2, NONE))
    # Y and R move on, and so does G beyond the gap: the gap stays where it was relative
    # to them ("toute la rangée").
    assert new == position("...YR.G" + empty(11), push="whole")
    assert fallen == EMPTY
    # The default stops at the gap: G stays on 5 and Y, R close up to him.
    new, fallen = engine.apply(unbroken, ADVANCE, (2, NONE))
    assert new == position("...YRG" + empty(12))


def test_the_mandatory_push_moves_the_whole_row_and_the_front_falls(engine, position) -> None:
    # "the rearmost prisoner is pushed one space toward the shark"
    text = "Y" + empty(15) + "RG"
    new, fallen = engine.push(position(text, push="whole"))
    # G stood on the last space (17): he falls; R moves onto 17 and Y onto 1.
    assert new == position(".Y" + empty(15) + "R", push="whole")
    assert fallen == G
    # The default: Y is alone before a gap and only he moves.
    new, fallen = engine.push(position(text))
    assert new == position(".Y" + empty(14) + "RG")
    assert fallen == EMPTY


def test_the_front_prisoner_beyond_gaps_falls(engine, position) -> None:
    pos = position(empty(14) + "Y..R", push="whole")
    new, fallen = engine.apply(pos, ADVANCE, (14, NONE))
    assert new == position(empty(15) + "Y..", push="whole")
    assert fallen == R


def test_an_unbroken_row_is_pushed_alike_under_both_rules(engine, position) -> None:
    for push in ("unbroken", "whole"):
        new, fallen = engine.apply(position(empty(14) + "YRGB", push=push), ADVANCE, (15, NONE))
        assert new == position(empty(14) + "Y.RG", push=push)
        assert fallen == B


def test_advance_evidence_counts_every_prisoner_the_push_moves(engine, position) -> None:
    # Evidence: "-1 for each [prisoner] moved toward the shark".
    text = "YR.G.B" + empty(12)
    new, out = engine.turn(
        position(text, push="whole"), ADVANCE, SKULL, option_pick=0, expect_asked=["choose"]
    )
    assert (out.action, out.option, out.fell) == (ADVANCE, (0, NONE), EMPTY)
    assert new.evidence[0] == [-1, -1, -1, -1]
    # Y, R, G and B are each one space on (".YR.G.B"); then the mandatory push moves the
    # whole row again from Y, the rearmost.
    assert new.line == position("..YR.G.B" + empty(10), push="whole").line
    new, _ = engine.turn(position(text), ADVANCE, SKULL, option_pick=0)
    assert new.evidence[0] == [-1, -1, 0, 0]


def test_a_swap_is_the_same_under_both_rules(engine, position) -> None:
    pos = position("YR.G" + empty(14), push="whole")
    new, fallen = engine.apply(pos, SWAP, (0, 3))
    assert new == position("GR.Y" + empty(14), push="whole")
    assert fallen == EMPTY


def test_the_rule_is_packed_and_read() -> None:
    assert LaPlancheRules().push == "unbroken"
    assert LaPlancheRules().to_array()[Rule.PUSH] == 0
    rules = LaPlancheRules().with_text("push", "Whole")
    assert rules.push == "whole" and rules.to_array()[Rule.PUSH] == 1
    with pytest.raises(BalanceError, match="rule 'push': 'gaps' is not one of unbroken, whole"):
        LaPlancheRules(push="gaps")


def test_a_position_and_rules_that_push_differently_are_refused(position) -> None:
    from balance.games.la_planche.bridge import pack_position

    with pytest.raises(ValueError, match="pushing 'whole' under rules pushing 'unbroken'"):
        pack_position(position(empty(18), push="whole"), LaPlancheRules())
