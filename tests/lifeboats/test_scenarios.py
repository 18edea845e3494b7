"""Lifeboats phase by phase: hand-built positions, scripted answers, the exact result.

Every expected value is read off the rules and the decisions D1-D16 in
``docs/lifeboats.md``. Each scenario runs on both engines (the ``engine`` fixture): the
readable reference engine and the compiled engine's entry points for hand-built positions
(``leak_phase``, ``move_phase``, ``swim_phase``, ``set_up``, ``winners``) and for a whole
scripted game (``play_scripted``). The questions asked are checked in full on the
reference (order, seat, kind, options, what the player saw); the compiled engine notes
only the kinds each seat was asked, and those are checked there.

Boats are written as strings, one character a pawn or a leak: ``A``..``F`` an officer of
seat 0..5, ``a``..``f`` a sailor of seat 0..5, ``*`` a leak marker, ``.`` a free seat
(optional, for the reader). A boat that left the water is :data:`GONE_SUNK` or
:data:`GONE_LANDED` in a builder's list. Players answer by option code, per seat in the
order they are asked (:class:`Scripted`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from balance.games.lifeboats import engine as compiled
from balance.games.lifeboats import reference
from balance.games.lifeboats.layout import (
    AFLOAT,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    HAT,
    KINDS,
    LANDED,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MOVE_VOTE,
    OFFICER,
    OVERBOARD_VOTE,
    PLACE,
    SAILOR,
    SUNK,
    SWIM_IN,
    SWIM_OUT,
)
from balance.games.lifeboats.reference import Position
from balance.games.lifeboats.rules import LifeboatsRules

GONE_SUNK = "sunk"
GONE_LANDED = "landed"


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def make_rules(**values) -> LifeboatsRules:
    """Small rules: one officer and one sailor per player (valid from two seats a boat)."""
    values.setdefault("officers", (1, 1, 1, 1))
    values.setdefault("sailors", (1, 1, 1, 1))
    return LifeboatsRules(**values)


def build(
    boats: Sequence[str],
    *,
    seats: int = 3,
    round: int = 1,
    hats: Sequence[int] | int = 0,
    scores: Sequence[int] = (),
    leaks_left: int = 10,
    steps: Sequence[int] = (),
    lanes: Sequence[int] = (),
    landing_order: Sequence[int] = (),
    **rule_values,
) -> Position:
    """A position after set-up: ``boats`` lists boats 0..n (the last is the black boat)."""
    n = len(boats) - 1
    rules = make_rules(seats_per_boat=seats, **rule_values)
    pos = Position.start(rules, n)
    pos.reserve = [[0, 0] for _ in range(n)]
    pos.lane = list(lanes) or list(range(n + 1))
    pos.steps = list(steps) or [0] * (n + 1)
    pos.hats = [hats] * n if isinstance(hats, int) else list(hats)
    pos.score = list(scores) or [0] * n
    pos.leaks_left = leaks_left
    pos.round = round
    order = list(landing_order) or [0] * (n + 1)
    pos.landing_order = order
    if any(order):
        pos.first_landed = order.index(1)
    for b, text in enumerate(boats):
        pos.crew[b] = [[0, 0] for _ in range(n)]
        pos.leaks[b] = 0
        if text == GONE_SUNK:
            pos.state[b] = SUNK
            continue
        if text == GONE_LANDED:
            pos.state[b] = LANDED
            continue
        pos.state[b] = AFLOAT
        for ch in text:
            if ch == "*":
                pos.leaks[b] += 1
            elif ch != ".":
                pos.crew[b]["abcdef".index(ch.lower())][OFFICER if ch.isupper() else SAILOR] += 1
        assert pos.pawns(b) + pos.leaks[b] <= seats, f"boat {b} {text!r} holds too much"
    return pos


def boat_text(pos: Position, b: int) -> str:
    """A boat as the builder writes it (officers by seat, sailors by seat, then leaks)."""
    if pos.state[b] == SUNK:
        return GONE_SUNK
    if pos.state[b] == LANDED:
        return GONE_LANDED
    n = pos.players
    officers = "".join("ABCDEF"[s] * pos.crew[b][s][OFFICER] for s in range(n))
    sailors = "".join("abcdef"[s] * pos.crew[b][s][SAILOR] for s in range(n))
    return officers + sailors + "*" * pos.leaks[b]


def boats(pos: Position) -> list[str]:
    return [boat_text(pos, b) for b in range(pos.players + 1)]


# --- record counters ------------------------------------------------------


def record(pos: Position) -> reference.GameRecord:
    """The position's tallies as a game record (the same fields on both engines)."""
    return reference.game_record(pos, False)


def assert_votes(pos: Position, votes: int, *, hat=0, revotes=0, ties=0) -> None:
    """Ballots (revotes included), ballots a lone hat decided, revotes, ties F broke."""
    r = record(pos)
    assert (r.votes, r.hat_decided, r.revotes, r.ties_broken) == (votes, hat, revotes, ties)


# ---------------------------------------------------------------------------
# Scripted players and the two engines
# ---------------------------------------------------------------------------


@dataclass
class Asked:
    seat: int
    kind: int
    options: list[int]
    hats: list[int]  # what the seat saw
    leaks: list[int]
    crew: list
    boat: int  # the boat in question (overboard, pawn loss)
    swim_from: int
    swimming: list[int]
    left: list[int]


@dataclass
class Scripted:
    """A reference player answering by option code, in the order asked; notes every question."""

    seat: int
    answers: list[int]
    log: list[Asked] = field(default_factory=list)

    def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int:
        assert seat == self.seat
        options = list(options)
        self.log.append(
            Asked(
                seat,
                kind,
                options,
                list(pos.hats),
                list(pos.leaks),
                copy.deepcopy(pos.crew),
                pos.boat,
                pos.swim_from,
                list(pos.swimming),
                list(pos.left),
            )
        )
        assert len(options) >= 2, f"seat {seat} asked a forced {KINDS[kind]} {options}"
        assert self.answers, f"seat {seat} asked {KINDS[kind]} {options} with no answer left"
        code = self.answers.pop(0)
        assert code in options, f"seat {seat}: {code} not among {KINDS[kind]} {options}"
        return options.index(code)


@dataclass
class Outcome:
    pos: Position
    kinds: list[list[int]]  # per seat: the kinds of decision it was asked, in order
    log: list[Asked] | None  # every question in order, what it offered and showed (reference)

    def asked(self, seat: int | None = None) -> list[tuple[int, int, list[int]]]:
        assert self.log is not None
        return [(a.seat, a.kind, a.options) for a in self.log if seat is None or a.seat == seat]

    def expect_asked(self, expected: Sequence[tuple[int, int, list[int]]]) -> None:
        """Every question asked, in order, with its options (reference); on the compiled
        engine, which notes only the kinds each seat was asked, those."""
        if self.log is not None:
            assert self.asked() == list(expected)
        per_seat = [[k for s, k, _ in expected if s == seat] for seat in range(len(self.kinds))]
        assert self.kinds == per_seat


def _kinds_of(log: list[Asked], players: int) -> list[list[int]]:
    return [[a.kind for a in log if a.seat == s] for s in range(players)]


def _compiled_players(scripts: Sequence[Sequence[int]]) -> list[reference.Scripted]:
    return [reference.Scripted(codes) for codes in scripts]


def _check_used(players: Sequence[reference.Scripted]) -> None:
    left = {s: p.codes[p.used :] for s, p in enumerate(players) if p.used < len(p.codes)}
    assert not left, f"answers never asked for: {left}"


@dataclass(frozen=True)
class EngineAdapter:
    name: str

    def run(self, phase: str, pos: Position, scripts: Sequence[Sequence[int]]) -> Outcome:
        """Run one phase (``"leak_phase"``, ``"move_phase"``, ``"swim_phase"``,
        ``"set_up"``) on a copy of ``pos`` with ``scripts[seat]`` as each seat's answers;
        every answer must be used."""
        before = copy.deepcopy(pos)
        n = pos.players
        scripts = [list(s) for s in scripts] + [[] for _ in range(n - len(scripts))]
        if self.name == "reference":
            new = copy.deepcopy(pos)
            log: list[Asked] = []
            players = [Scripted(s, list(scripts[s]), log) for s in range(n)]
            getattr(reference, phase)(new, players)
            left = {s: p.answers for s, p in enumerate(players) if p.answers}
            assert not left, f"answers never asked for: {left}"
            out = Outcome(new, _kinds_of(log, n), log)
        else:
            seated = _compiled_players(scripts)
            new = getattr(compiled, phase)(pos, seated)
            _check_used(seated)
            out = Outcome(new, [p.asked for p in seated], None)
        assert pos == before, f"{phase} changed the position it was given"
        return out

    def play(
        self, rules: LifeboatsRules, players: int, scripts: Sequence[Sequence[int]]
    ) -> tuple[reference.GameRecord, list[list[int]], list[Asked] | None]:
        """A whole game with scripted answers: its record, the kinds each seat was asked,
        and (reference) every question."""
        if self.name == "reference":
            log: list[Asked] = []
            seated = [Scripted(s, list(scripts[s]), log) for s in range(players)]
            rec = reference.play_game(rules, players, 1, 0, make_player=lambda s, _: seated[s])
            left = {s: p.answers for s, p in enumerate(seated) if p.answers}
            assert not left, f"answers never asked for: {left}"
            return rec, _kinds_of(log, players), log
        scripted = _compiled_players(scripts)
        rec = compiled.play_scripted(rules, players, scripted)
        _check_used(scripted)
        return rec, [p.asked for p in scripted], None

    def winners(self, pos: Position, finished: bool) -> tuple[list[int], int]:
        before = copy.deepcopy(pos)
        found = (reference if self.name == "reference" else compiled).winners(pos, finished)
        assert pos == before
        return found


ENGINE_NAMES = ("reference", "compiled")


@pytest.fixture(params=ENGINE_NAMES)
def engine(request: pytest.FixtureRequest) -> EngineAdapter:
    return EngineAdapter(request.param)


def is_reference(engine: EngineAdapter) -> bool:
    return engine.name == "reference"


# ---------------------------------------------------------------------------
# The leak phase
# ---------------------------------------------------------------------------


def test_a_leak_on_a_free_seat(engine) -> None:
    pos = build(["Aa", "Bb", "Cc", ""], leaks_left=4)
    out = engine.run("leak_phase", pos, [[1], [1], [2]])
    assert boats(out.pos) == ["Aa", "Bb*", "Cc", ""]
    assert out.pos.leaks_left == 3
    assert_votes(out.pos, 1)
    assert record(out.pos).overboard == [0, 0, 0]
    # Every player votes, from F clockwise, among the boats afloat (no hats left).
    out.expect_asked([(s, LEAK_VOTE, [0, 1, 2, 3]) for s in range(3)])


def test_a_leak_sinks_a_boat_with_more_leaks_than_pawns(engine) -> None:
    pos = build(["a*", "Bb", "Cc", ""], round=4, leaks_left=4)
    out = engine.run("leak_phase", pos, [[0], [0], [1]])
    assert boats(out.pos) == [GONE_SUNK, "Bb", "Cc", ""]
    assert out.pos.leaks_left == 3
    assert record(out.pos).sunk == [1, 0, 0]
    assert record(out.pos).boats_sunk == 1
    assert record(out.pos).boat_fate == [SUNK, AFLOAT, AFLOAT, AFLOAT]
    assert record(out.pos).boat_round == [4, 0, 0, 0]
    assert record(out.pos).boat_aboard[0] == 1
    assert record(out.pos).boat_leaks[0] == 2


def test_a_leak_sinks_the_empty_black_boat(engine) -> None:
    pos = build(["Aa", "Bb", "Cc", ""], round=2, leaks_left=4)
    out = engine.run("leak_phase", pos, [[3], [3], [3]])
    assert boats(out.pos) == ["Aa", "Bb", "Cc", GONE_SUNK]
    assert record(out.pos).sunk == [0, 0, 0]
    assert record(out.pos).boats_sunk == 1
    assert record(out.pos).boat_round == [0, 0, 0, 2]
    assert record(out.pos).boat_aboard[3] == 0


@pytest.mark.parametrize("left", [0, 1])
def test_the_leak_supply_running_out(engine, left) -> None:
    pos = build(["Aa", "Bb", "Cc", ""], leaks_left=left)
    if left == 0:
        # No marker left: the leak phase is skipped, nobody is asked.
        out = engine.run("leak_phase", pos, [])
        assert boats(out.pos) == boats(pos)
        assert out.pos.leaks_left == 0
        assert_votes(out.pos, 0)
        out.expect_asked([])
    else:
        out = engine.run("leak_phase", pos, [[2], [2], [2]])
        assert boats(out.pos) == ["Aa", "Bb", "Cc*", ""]
        assert out.pos.leaks_left == 0
        assert_votes(out.pos, 1)
        again = engine.run("leak_phase", out.pos, [])
        assert boats(again.pos) == ["Aa", "Bb", "Cc*", ""]
        assert_votes(again.pos, 1)


# ---------------------------------------------------------------------------
# Overboard
# ---------------------------------------------------------------------------


def test_overboard_an_officer_outweighs_a_sailor(engine) -> None:
    # Boat 1 is full: seat 0's officer (weight 2) and seat 1's sailor (weight 1) vote.
    pos = build(["a", "Ab", "C", ""], seats=2)
    out = engine.run("leak_phase", pos, [[1, 1], [1, 0], [1]])
    # Colour 1 has 2 votes against 1: seat 1 loses its only pawn there (forced).
    assert boats(out.pos) == ["a", "A*", "C", ""]
    assert record(out.pos).overboard == [0, 1, 0]
    assert_votes(out.pos, 2)
    out.expect_asked(
        [
            (0, LEAK_VOTE, [0, 1, 2, 3]),
            (1, LEAK_VOTE, [0, 1, 2, 3]),
            (2, LEAK_VOTE, [0, 1, 2, 3]),
            (0, OVERBOARD_VOTE, [0, 1]),
            (1, OVERBOARD_VOTE, [0, 1]),
        ]
    )


def test_overboard_weights_beat_a_majority_of_voters(engine) -> None:
    # Seat 0 (officer and sailor, weight 3) against seats 1 and 2 (a sailor each, 1 + 1).
    pos = build(["", "Aabc", "C", ""], seats=4)
    out = engine.run("leak_phase", pos, [[1, 1], [1, 0], [1, 0]])
    assert boats(out.pos) == ["", "Aac*", "C", ""]
    assert record(out.pos).overboard == [0, 1, 0]
    assert_votes(out.pos, 2)
    out.expect_asked(
        [(s, LEAK_VOTE, [0, 1, 2, 3]) for s in range(3)]
        + [(s, OVERBOARD_VOTE, [0, 1, 2]) for s in range(3)]
    )


def test_overboard_weighted_tie_broken_by_the_first_player(engine) -> None:
    # Seat 0's officer (2) for colour 1; seats 1 and 2's sailors (1 + 1) for colour 0.
    pos = build(["", "Abc", "C", ""])
    out = engine.run("leak_phase", pos, [[1, 1, 1], [1, 0], [1, 0]])
    assert boats(out.pos) == ["", "Ac*", "C", ""]
    assert record(out.pos).overboard == [0, 1, 0]
    assert_votes(out.pos, 2, ties=1)
    out.expect_asked(
        [(s, LEAK_VOTE, [0, 1, 2, 3]) for s in range(3)]
        + [(s, OVERBOARD_VOTE, [0, 1, 2]) for s in range(3)]
        + [(0, CHOOSE_OVERBOARD, [0, 1])]
    )


def test_overboard_tie_broken_by_a_first_player_who_did_not_vote(engine) -> None:
    # Round 2: F is seat 1, who has no pawn in boat 2 and so does not vote on it.
    pos = build(["B", "", "ac", ""], seats=2, round=2)
    out = engine.run("leak_phase", pos, [[2, 2], [2, 2], [2, 0]])
    assert boats(out.pos) == ["B", "", "a*", ""]
    assert record(out.pos).overboard == [0, 0, 1]
    assert_votes(out.pos, 2, ties=1)
    out.expect_asked(
        [
            (1, LEAK_VOTE, [0, 1, 2, 3]),
            (2, LEAK_VOTE, [0, 1, 2, 3]),
            (0, LEAK_VOTE, [0, 1, 2, 3]),
            (2, OVERBOARD_VOTE, [0, 2]),
            (0, OVERBOARD_VOTE, [0, 2]),
            (1, CHOOSE_OVERBOARD, [0, 2]),
        ]
    )


@pytest.mark.parametrize(("lose", "left"), [(OFFICER, "Bab*"), (SAILOR, "ABb*")])
def test_overboard_the_owner_chooses_the_pawn_lost(engine, lose, left) -> None:
    # Round 2 (F = seat 1). Seats 0 and 1 weigh 3 each: a tie; F picks colour 0.
    pos = build(["", "AaBb", "C", ""], seats=4, round=2)
    out = engine.run("leak_phase", pos, [[1, 1, lose], [1, 0, 0], [1]])
    assert boats(out.pos) == ["", left, "C", ""]
    assert record(out.pos).overboard == [1, 0, 0]
    assert_votes(out.pos, 2, ties=1)
    out.expect_asked(
        [(s, LEAK_VOTE, [0, 1, 2, 3]) for s in (1, 2, 0)]
        + [(1, OVERBOARD_VOTE, [0, 1]), (0, OVERBOARD_VOTE, [0, 1])]
        + [(1, CHOOSE_OVERBOARD, [0, 1]), (0, LOSE_PAWN, [0, 1])]
    )
    if is_reference(engine):
        # The boat in question is shown during the overboard vote, its choice and the loss.
        assert [a.boat for a in out.log] == [-1, -1, -1, 1, 1, 1, 1]
        assert out.pos.boat == -1


def test_overboard_a_lone_hat_picks_any_colour_in_the_boat(engine) -> None:
    pos = build(["", "Abc", "C", ""], hats=[0, 0, 1])
    # Seat 2 (weight 1) plays its hat in the overboard vote and picks colour 0.
    out = engine.run("leak_phase", pos, [[1, 1], [1, 1], [1, HAT, 0]])
    assert boats(out.pos) == ["", "bc*", "C", ""]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).overboard == [1, 0, 0]
    assert record(out.pos).hats_used == [0, 0, 1]
    assert record(out.pos).hats_decisive == [0, 0, 1]
    assert_votes(out.pos, 2, hat=1)
    out.expect_asked(
        [
            (0, LEAK_VOTE, [0, 1, 2, 3]),
            (1, LEAK_VOTE, [0, 1, 2, 3]),
            (2, LEAK_VOTE, [0, 1, 2, 3, HAT]),
            (0, OVERBOARD_VOTE, [0, 1, 2]),
            (1, OVERBOARD_VOTE, [0, 1, 2]),
            (2, OVERBOARD_VOTE, [0, 1, 2, HAT]),
            (2, CHOOSE_OVERBOARD, [0, 1, 2]),
        ]
    )


def test_overboard_a_single_voter_s_hat_is_a_lone_hat(engine) -> None:
    # Boat 1 holds only seat 1's sailors: seat 1 alone votes; its hat is a lone hat, and
    # the choice (colour 1, the only one) and the pawn lost (a sailor) are forced.
    pos = build(["A", "bb", "C", ""], seats=2, hats=[0, 1, 0])
    out = engine.run("leak_phase", pos, [[1], [1, HAT], [1]])
    assert boats(out.pos) == ["A", "b*", "C", ""]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).overboard == [0, 1, 0]
    assert record(out.pos).hats_used == [0, 1, 0]
    assert record(out.pos).hats_decisive == [0, 1, 0]
    assert_votes(out.pos, 2, hat=1)
    out.expect_asked(
        [
            (0, LEAK_VOTE, [0, 1, 2, 3]),
            (1, LEAK_VOTE, [0, 1, 2, 3, HAT]),
            (2, LEAK_VOTE, [0, 1, 2, 3]),
            (1, OVERBOARD_VOTE, [1, HAT]),
        ]
    )


def test_overboard_every_voter_a_hat_revotes_weighted(engine) -> None:
    pos = build(["", "Ab", "C", ""], seats=2, hats=[1, 1, 0])
    # Both voters play a hat: revote without hats; seat 0's officer (2) beats seat 1 (1).
    out = engine.run("leak_phase", pos, [[1, HAT, 1], [1, HAT, 0], [1]])
    assert boats(out.pos) == ["", "A*", "C", ""]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).overboard == [0, 1, 0]
    assert record(out.pos).hats_used == [1, 1, 0]
    assert record(out.pos).hats_decisive == [0, 0, 0]
    assert_votes(out.pos, 3, revotes=1)
    out.expect_asked(
        [
            (0, LEAK_VOTE, [0, 1, 2, 3, HAT]),
            (1, LEAK_VOTE, [0, 1, 2, 3, HAT]),
            (2, LEAK_VOTE, [0, 1, 2, 3]),
            (0, OVERBOARD_VOTE, [0, 1, HAT]),
            (1, OVERBOARD_VOTE, [0, 1, HAT]),
            (0, OVERBOARD_VOTE, [0, 1]),
            (1, OVERBOARD_VOTE, [0, 1]),
        ]
    )


# ---------------------------------------------------------------------------
# Hats (in the move vote) and ties
# ---------------------------------------------------------------------------

HAT_BOATS = ["A", "B", GONE_SUNK, "c"]  # afloat: 0, 1 and the black boat 3


def test_a_lone_hat_decides_alone_among_all_options(engine) -> None:
    pos = build(HAT_BOATS, hats=1)
    out = engine.run("move_phase", pos, [[HAT, 3], [1], [1]])
    # Two votes for boat 1 do not count: seat 0's hat picks boat 3, which nobody voted.
    assert out.pos.steps == [0, 0, 0, 1]
    assert out.pos.hats == [0, 1, 1]
    assert record(out.pos).hats_used == [1, 0, 0]
    assert record(out.pos).hats_decisive == [1, 0, 0]
    assert_votes(out.pos, 1, hat=1)
    out.expect_asked(
        [
            (0, MOVE_VOTE, [0, 1, 3, HAT]),
            (1, MOVE_VOTE, [0, 1, 3, HAT]),
            (2, MOVE_VOTE, [0, 1, 3, HAT]),
            (0, CHOOSE_MOVE, [0, 1, 3]),
        ]
    )


def test_several_hats_are_ignored_and_the_others_decide(engine) -> None:
    pos = build(HAT_BOATS, hats=1)
    out = engine.run("move_phase", pos, [[HAT], [HAT], [0]])
    out.expect_asked([(s, MOVE_VOTE, [0, 1, 3, HAT]) for s in range(3)])
    assert out.pos.steps == [1, 0, 0, 0]
    assert out.pos.hats == [0, 0, 1]
    assert record(out.pos).hats_used == [1, 1, 0]
    assert record(out.pos).hats_decisive == [0, 0, 0]
    assert_votes(out.pos, 1)


def test_several_hats_ignored_and_a_tie_of_the_others_broken_by_the_first_player(
    engine,
) -> None:
    # Four players: seats 0 and 1 play hats, seats 2 and 3 tie; F (seat 0) breaks the tie.
    pos = build(["A", "B", "C", "D", ""], hats=1)
    out = engine.run("move_phase", pos, [[HAT, 4], [HAT], [4], [0]])
    assert out.pos.steps == [0, 0, 0, 0, 1]
    assert out.pos.hats == [0, 0, 1, 1]
    assert record(out.pos).hats_used == [1, 1, 0, 0]
    assert record(out.pos).hats_decisive == [0, 0, 0, 0]
    assert_votes(out.pos, 1, ties=1)
    out.expect_asked(
        [(s, MOVE_VOTE, [0, 1, 2, 3, 4, HAT]) for s in range(4)] + [(0, CHOOSE_MOVE, [0, 4])]
    )


def test_every_voter_a_hat_revotes_with_the_hats_spent(engine) -> None:
    pos = build(HAT_BOATS, hats=1)
    out = engine.run("move_phase", pos, [[HAT, 1], [HAT, 1], [HAT, 0]])
    assert out.pos.steps == [0, 1, 0, 0]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).hats_used == [1, 1, 1]
    assert record(out.pos).hats_decisive == [0, 0, 0]
    assert_votes(out.pos, 2, revotes=1)
    # The revote offers no hat: every hat was spent in the first ballot.
    out.expect_asked(
        [(s, MOVE_VOTE, [0, 1, 3, HAT]) for s in range(3)]
        + [(s, MOVE_VOTE, [0, 1, 3]) for s in range(3)]
    )


def test_a_revote_where_one_plays_a_hat_again_and_decides(engine) -> None:
    pos = build(HAT_BOATS, hats=[2, 1, 2])
    out = engine.run("move_phase", pos, [[HAT, HAT, 1], [HAT, 0], [HAT, 3]])
    assert out.pos.steps == [0, 1, 0, 0]
    assert out.pos.hats == [0, 0, 1]
    assert record(out.pos).hats_used == [2, 1, 1]
    assert record(out.pos).hats_decisive == [1, 0, 0]
    assert_votes(out.pos, 2, hat=1, revotes=1)
    out.expect_asked(
        [(s, MOVE_VOTE, [0, 1, 3, HAT]) for s in range(3)]
        + [
            (0, MOVE_VOTE, [0, 1, 3, HAT]),
            (1, MOVE_VOTE, [0, 1, 3]),
            (2, MOVE_VOTE, [0, 1, 3, HAT]),
            (0, CHOOSE_MOVE, [0, 1, 3]),
        ]
    )


def test_a_revote_where_two_play_hats_again(engine) -> None:
    pos = build(HAT_BOATS, hats=[2, 1, 2])
    out = engine.run("move_phase", pos, [[HAT, HAT], [HAT, 0], [HAT, HAT]])
    # Seats 0 and 2's second hats are ignored; seat 1's vote decides.
    assert out.pos.steps == [1, 0, 0, 0]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).hats_used == [2, 1, 2]
    assert record(out.pos).hats_decisive == [0, 0, 0]
    assert_votes(out.pos, 2, revotes=1)


def test_two_revotes_in_a_row(engine) -> None:
    pos = build(HAT_BOATS, hats=2)
    out = engine.run("move_phase", pos, [[HAT, HAT, 3], [HAT, HAT, 3], [HAT, HAT, 0]])
    assert out.pos.steps == [0, 0, 0, 1]
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).hats_used == [2, 2, 2]
    assert_votes(out.pos, 3, revotes=2)


def test_hats_in_the_leak_vote(engine) -> None:
    pos = build(["A", "B", "C", ""], hats=[1, 0, 0], leaks_left=5)
    out = engine.run("leak_phase", pos, [[HAT, 2], [0], [0]])
    assert boats(out.pos) == ["A", "B", "C*", ""]
    assert record(out.pos).hats_decisive == [1, 0, 0]
    assert_votes(out.pos, 1, hat=1)
    out.expect_asked(
        [
            (0, LEAK_VOTE, [0, 1, 2, 3, HAT]),
            (1, LEAK_VOTE, [0, 1, 2, 3]),
            (2, LEAK_VOTE, [0, 1, 2, 3]),
            (0, CHOOSE_LEAK, [0, 1, 2, 3]),
        ]
    )


@pytest.mark.parametrize(("round", "first"), [(1, 0), (2, 1), (3, 2), (4, 0)])
def test_the_first_player_breaks_a_tie(engine, round, first) -> None:
    pos = build(HAT_BOATS, round=round)
    scripts = [[0], [1], [3]]
    scripts[first].append(1)
    out = engine.run("move_phase", pos, scripts)
    assert out.pos.steps == [0, 1, 0, 0]
    assert_votes(out.pos, 1, ties=1)
    # Votes are asked from F clockwise; F chooses among the tied.
    out.expect_asked(
        [((first + k) % 3, MOVE_VOTE, [0, 1, 3]) for k in range(3)]
        + [(first, CHOOSE_MOVE, [0, 1, 3])]
    )


def test_the_first_player_breaks_a_tie_in_the_leak_vote(engine) -> None:
    pos = build(["A", "B", "C", ""], round=3, leaks_left=3)
    out = engine.run("leak_phase", pos, [[0], [1], [2, 1]])
    assert boats(out.pos) == ["A", "B*", "C", ""]
    assert_votes(out.pos, 1, ties=1)
    out.expect_asked(
        [(s, LEAK_VOTE, [0, 1, 2, 3]) for s in (2, 0, 1)] + [(2, CHOOSE_LEAK, [0, 1, 2])]
    )


def test_a_tie_among_some_options_offers_only_the_tied(engine) -> None:
    pos = build(["A", "B", "C", "D", ""], round=2)
    out = engine.run("move_phase", pos, [[3], [1, 3], [1], [3]])
    assert out.pos.steps == [0, 0, 0, 1, 0]
    assert_votes(out.pos, 1, ties=1)
    out.expect_asked(
        [(s, MOVE_VOTE, [0, 1, 2, 3, 4]) for s in (1, 2, 3, 0)] + [(1, CHOOSE_MOVE, [1, 3])]
    )


def test_a_clear_majority_asks_nobody_to_choose(engine) -> None:
    pos = build(HAT_BOATS)
    out = engine.run("move_phase", pos, [[3], [0], [3]])
    assert out.pos.steps == [0, 0, 0, 1]
    assert_votes(out.pos, 1)


# ---------------------------------------------------------------------------
# Forced decisions and secret votes
# ---------------------------------------------------------------------------


def test_forced_votes_are_not_asked(engine) -> None:
    # One boat afloat and no hats: every vote is forced; a full boat of one colour makes
    # the overboard vote forced, and one pawn type makes the pawn lost forced.
    pos = build([GONE_SUNK, "bb*", GONE_LANDED, GONE_SUNK], leaks_left=5)
    out = engine.run("leak_phase", pos, [])
    # The leak takes the freed seat: 1 pawn, 2 leaks: the boat sinks.
    assert boats(out.pos) == [GONE_SUNK, GONE_SUNK, GONE_LANDED, GONE_SUNK]
    assert record(out.pos).overboard == [0, 1, 0]
    assert record(out.pos).sunk == [0, 1, 0]
    assert out.pos.leaks_left == 4
    assert_votes(out.pos, 2)
    out.expect_asked([])


def test_a_lone_hat_with_a_single_option_is_not_asked_to_choose(engine) -> None:
    pos = build([GONE_SUNK, "B", GONE_SUNK, GONE_SUNK], hats=[1, 0, 0])
    out = engine.run("move_phase", pos, [[HAT]])
    assert out.pos.steps[1] == 1
    assert out.pos.hats == [0, 0, 0]
    assert record(out.pos).hats_decisive == [1, 0, 0]
    assert_votes(out.pos, 1, hat=1)
    out.expect_asked([(0, MOVE_VOTE, [1, HAT])])


def test_votes_are_secret_every_voter_sees_the_same_position(engine) -> None:
    pos = build(["", "Abc", "C", ""], hats=[2, 1, 2])
    # Leak ballot 1: every hat (revote); ballot 2: seat 0 alone plays a hat and picks boat 1.
    # Overboard ballot: seats 0, 1, 2 vote; only seat 2 still has a hat.
    out = engine.run("leak_phase", pos, [[HAT, HAT, 1, 1], [HAT, 1, 0], [HAT, 1, 1]])
    # Overboard: seat 0 (2) for 1, seat 1 (1) for 0, seat 2 (1) for 1: colour 1 is lost.
    assert boats(out.pos) == ["", "Ac*", "C", ""]
    assert out.pos.hats == [0, 0, 1]
    assert record(out.pos).hats_used == [2, 1, 1]
    assert record(out.pos).hats_decisive == [1, 0, 0]
    assert_votes(out.pos, 3, hat=1, revotes=1)
    out.expect_asked(
        [(s, LEAK_VOTE, [0, 1, 2, 3, HAT]) for s in range(3)]
        + [(0, LEAK_VOTE, [0, 1, 2, 3, HAT]), (1, LEAK_VOTE, [0, 1, 2, 3])]
        + [(2, LEAK_VOTE, [0, 1, 2, 3, HAT]), (0, CHOOSE_LEAK, [0, 1, 2, 3])]
        + [(0, OVERBOARD_VOTE, [0, 1, 2]), (1, OVERBOARD_VOTE, [0, 1, 2])]
        + [(2, OVERBOARD_VOTE, [0, 1, 2, HAT])]
    )
    if not is_reference(engine):
        return  # what a strategy saw is recorded by the reference's scripted player only
    log = out.log
    # Ballot 1: all see the hats as they stood before it; ballot 2: after ballot 1.
    assert [a.hats for a in log[0:3]] == [[2, 1, 2]] * 3
    assert [a.hats for a in log[3:6]] == [[1, 0, 1]] * 3
    # The lone hat is spent before it chooses.
    assert log[6].hats == [0, 0, 1]
    # The overboard voters see the boat before the leak, and the same hats.
    assert [a.hats for a in log[7:10]] == [[0, 0, 1]] * 3
    assert all(a.leaks == [0, 0, 0, 0] and a.crew == log[0].crew for a in log)


# ---------------------------------------------------------------------------
# The move phase and landing
# ---------------------------------------------------------------------------


def test_a_move_changes_no_counts_and_sinks_nothing(engine) -> None:
    # Boat 0 has as many leaks as pawns: it floats, moves and still floats.
    pos = build(["a*", "Bb", "Cc", ""], round=3)
    out = engine.run("move_phase", pos, [[0], [0], [1]])
    assert boats(out.pos) == ["a*", "Bb", "Cc", ""]
    assert out.pos.steps == [1, 0, 0, 0]
    assert record(out.pos).boats_sunk == 0
    assert record(out.pos).boat_fate == [AFLOAT] * 4


ISLAND_POINTS = {0: (8, 6), 1: (8, 6), 2: (6, 4), 3: (6, 4), 4: (7, 5), 5: (7, 5), 6: (7, 5)}


@pytest.mark.parametrize("lane", sorted(ISLAND_POINTS))
def test_landing_scores_the_island_of_the_lane(engine, lane) -> None:
    officer, sailor = ISLAND_POINTS[lane]
    others = [x for x in range(7) if x != lane]
    pos = build(
        ["Ab*", "B", "C", ""],
        lanes=[lane, *others[:3]],
        steps=[2, 1, 0, 2],
        scores=[3, 1, 0],
        round=5,
    )
    out = engine.run("move_phase", pos, [[0], [0], [1]])
    assert boats(out.pos) == [GONE_LANDED, "B", "C", ""]
    assert out.pos.score == [3 + officer, 1 + sailor, 0]
    assert out.pos.first_landed == 0
    assert out.pos.landing_order == [1, 0, 0, 0]
    assert record(out.pos).saved_officers == [1, 0, 0]
    assert record(out.pos).saved_sailors == [0, 1, 0]
    assert record(out.pos).boats_landed == 1
    assert record(out.pos).first_landed == 0
    assert record(out.pos).boat_fate == [LANDED, AFLOAT, AFLOAT, AFLOAT]
    assert record(out.pos).boat_round == [5, 0, 0, 0]
    assert record(out.pos).boat_aboard[0] == 2
    assert record(out.pos).boat_order == [1, 0, 0, 0]
    assert record(out.pos).boat_leaks[0] == 1


def test_the_first_boat_to_land_is_remembered(engine) -> None:
    # Boat 2 landed first; the black boat lands second, empty (it scores nothing).
    pos = build(
        ["A", "b", GONE_LANDED, ""], steps=[0, 0, 3, 2], landing_order=[0, 0, 1, 0], round=6
    )
    out = engine.run("move_phase", pos, [[3], [3], [3]])
    assert boats(out.pos) == ["A", "b", GONE_LANDED, GONE_LANDED]
    assert out.pos.first_landed == 2
    assert out.pos.landing_order == [0, 0, 1, 2]
    assert out.pos.score == [0, 0, 0]
    assert record(out.pos).boat_order[3] == 2
    assert record(out.pos).boat_round[3] == 6
    assert record(out.pos).boat_aboard[3] == 0
    # Then boat 1 lands third.
    out = engine.run("move_phase", out.pos, [[1], [1], [1]])
    out = engine.run("move_phase", out.pos, [[1], [1], [1]])
    out = engine.run("move_phase", out.pos, [[1], [1], [1]])
    assert boats(out.pos) == ["A", GONE_LANDED, GONE_LANDED, GONE_LANDED]
    assert out.pos.landing_order == [0, 3, 1, 2]
    assert out.pos.first_landed == 2
    assert out.pos.score == [0, 6, 0]  # lane 1: island A, a sailor scores 6


# ---------------------------------------------------------------------------
# The swim phase
# ---------------------------------------------------------------------------


def test_at_most_one_swimmer_out_of_each_boat(engine) -> None:
    pos = build(["ab", "c", GONE_SUNK, ""])
    # Seat 0 swims out of boat 0 (forced); seat 1 only has a pawn in boat 0: it passes.
    # Seat 2 swims out of boat 1 (forced). Swimming in from seat 2 counter-clockwise.
    out = engine.run("swim_phase", pos, [[3], [], [0]])
    assert boats(out.pos) == ["bc", "", GONE_SUNK, "a"]
    assert record(out.pos).no_seat == [0, 0, 0]
    out.expect_asked([(2, SWIM_IN, [0, 3]), (0, SWIM_IN, [1, 3])])


def test_a_player_chooses_which_pawn_swims_out(engine) -> None:
    pos = build(["Aa", "a", "B", ""], seats=3)
    # Seat 0: officer or sailor of boat 0, or the sailor of boat 1 (codes boat * 2 + type).
    out = engine.run("swim_phase", pos, [[3, 2], [0]])
    # Seat 1 swims out of boat 2 (forced), then in: seat 1 first (F - 1 = 2 has none).
    assert boats(out.pos) == ["ABa", "", "a", ""]
    out.expect_asked(
        [
            (0, SWIM_OUT, [0, 1, 3]),
            (1, SWIM_IN, [0, 1, 3]),
            (0, SWIM_IN, [2, 3]),
        ]
    )
    if is_reference(engine):
        # What the swimmers see: the boats left (1 + the seat that swam out of each),
        # who is in the water, the boat they left.
        seen = [(a.swim_from, a.swimming, a.left) for a in out.log]
        assert seen == [
            (-1, [-1, -1, -1], [0, 0, 0, 0]),
            (2, [SAILOR, OFFICER, -1], [0, 1, 2, 0]),
            (1, [SAILOR, -1, -1], [0, 1, 2, 0]),
        ]
        assert out.pos.swimming == [-1, -1, -1] and out.pos.left == [0, 0, 0, 0]


def test_a_swimmer_with_no_free_seat_drowns(engine) -> None:
    pos = build(["Ab", "aa", GONE_SUNK, GONE_SUNK], seats=2)
    # Seat 0 leaves boat 0; seat 1 cannot leave boat 0 too. Seat 0's freed seat is not
    # its to take back, and boat 1 is full: seat 0's officer drowns.
    out = engine.run("swim_phase", pos, [[0]])
    assert boats(out.pos) == ["b", "aa", GONE_SUNK, GONE_SUNK]
    assert record(out.pos).no_seat == [1, 0, 0]
    assert record(out.pos).sunk == [0, 0, 0]
    out.expect_asked([(0, SWIM_OUT, [0, 3])])


def test_the_last_boat_s_swimmer_drowns(engine) -> None:
    pos = build([GONE_SUNK, GONE_LANDED, "c", GONE_SUNK])
    out = engine.run("swim_phase", pos, [])
    # The swim-out is compulsory (and forced); no other boat afloat: the sailor drowns.
    assert boats(out.pos) == [GONE_SUNK, GONE_LANDED, "", GONE_SUNK]
    assert record(out.pos).no_seat == [0, 0, 1]


def test_freed_seats_serve_the_others(engine) -> None:
    pos = build(["A*", "bb", GONE_SUNK, GONE_SUNK], seats=2)
    out = engine.run("swim_phase", pos, [])
    # Both swim out (forced); seat 1 takes seat 0's freed seat, seat 0 takes seat 1's.
    assert boats(out.pos) == ["b*", "Ab", GONE_SUNK, GONE_SUNK]
    assert record(out.pos).no_seat == [0, 0, 0]
    out.expect_asked([])


def test_swimmers_go_in_counter_clockwise_from_the_seat_before_the_first(engine) -> None:
    # Round 2: F = seat 1. Out: seats 1, 2, 0; in: seats 0, 2, 1.
    pos = build(["a*", "b*", "c*", GONE_LANDED], seats=2, round=2)
    # Seat 0 takes boat 2's freed seat, seat 2 takes boat 0's: seat 1 has no seat left
    # but its own boat's, and drowns; boat 1, one leak and nobody, sinks after the phase.
    out = engine.run("swim_phase", pos, [[2], [], [0]])
    assert boats(out.pos) == ["c*", GONE_SUNK, "a*", GONE_LANDED]
    assert record(out.pos).no_seat == [0, 1, 0]
    assert record(out.pos).sunk == [0, 0, 0]
    assert record(out.pos).boats_sunk == 1
    assert record(out.pos).boat_fate[1] == SUNK
    assert record(out.pos).boat_round[1] == 2
    assert record(out.pos).boat_aboard[1] == 0
    out.expect_asked([(0, SWIM_IN, [1, 2]), (2, SWIM_IN, [0, 1])])


def test_swimming_out_sinks_a_boat_left_with_more_leaks(engine) -> None:
    pos = build(["ab**", "C", GONE_SUNK, ""], seats=4, round=3)
    # Round 3: F = seat 2. Seat 2 leaves boat 1, seat 0 boat 0 (both forced); seat 1 cannot
    # leave boat 0 too. Both swim to the black boat. Boat 0: 1 pawn, 2 leaks: it sinks.
    out = engine.run("swim_phase", pos, [[3], [], [3]])
    assert boats(out.pos) == [GONE_SUNK, "", GONE_SUNK, "Ca"]
    assert record(out.pos).sunk == [0, 1, 0]
    assert record(out.pos).boat_round[0] == 3
    assert record(out.pos).boat_aboard[0] == 1
    out.expect_asked([(0, SWIM_IN, [1, 3]), (2, SWIM_IN, [0, 3])])


def test_a_boat_emptied_by_swimming_with_a_leak_sinks(engine) -> None:
    pos = build(["a*", "B", GONE_SUNK, ""], seats=2)
    out = engine.run("swim_phase", pos, [[3], [3]])
    # Seat 0 leaves boat 0 (its only pawn), seat 1 boat 1; both swim to the black boat.
    # Boat 0, one leak and nobody, sinks; boat 1, empty without a leak, floats.
    assert boats(out.pos) == [GONE_SUNK, "", GONE_SUNK, "Ba"]
    assert record(out.pos).boats_sunk == 2  # boat 2 had sunk before
    assert record(out.pos).boat_aboard[0] == 0


def test_sinking_is_checked_after_every_swimmer_is_placed(engine) -> None:
    pos = build(["a*", "B", GONE_SUNK, ""], seats=2)
    # Seat 1 swims into boat 0 right after seat 0 left it: one pawn, one leak, it floats.
    out = engine.run("swim_phase", pos, [[3], [0]])
    assert boats(out.pos) == ["B*", "", GONE_SUNK, "a"]
    assert record(out.pos).boats_sunk == 1  # boat 2 had sunk before


# The rules page: swimming out "is compulsory when possible, ... with no free seat anywhere
# else, the swimmer drowns". The stay_without_seat rule (docs/lifeboats.md) lets a pawn stay
# in a boat when no other boat afloat has a free seat.


def test_with_stay_without_seat_nobody_swims_to_no_seat(engine) -> None:
    # As test_a_swimmer_with_no_free_seat_drowns: every other boat afloat is full, so
    # neither seat 0 nor seat 1 need leave a boat, and nobody is asked or drowns.
    pos = build(["Ab", "aa", GONE_SUNK, GONE_SUNK], seats=2, stay_without_seat=True)
    out = engine.run("swim_phase", pos, [])
    assert boats(out.pos) == ["Ab", "aa", GONE_SUNK, GONE_SUNK]
    assert record(out.pos).no_seat == [0, 0, 0]
    out.expect_asked([])


def test_with_stay_without_seat_the_last_boat_s_pawn_stays(engine) -> None:
    pos = build([GONE_SUNK, GONE_LANDED, "c", GONE_SUNK], stay_without_seat=True)
    out = engine.run("swim_phase", pos, [])
    assert boats(out.pos) == [GONE_SUNK, GONE_LANDED, "c", GONE_SUNK]
    assert record(out.pos).no_seat == [0, 0, 0]


@pytest.mark.parametrize("stay", [False, True])
def test_stay_without_seat_keeps_swimming_compulsory_where_a_seat_is_free(engine, stay) -> None:
    # Boat 0 has the only free seat. Leaving boat 0 leads nowhere, leaving boat 1 or 2
    # leads to boat 0. By the rulebook seat 0 chooses between its sailor in boat 0 (code
    # 1) and its officer in boat 1 (code 2); with the switch only the officer may swim.
    pos = build(["a", "Ab", "cc", GONE_SUNK], seats=2, stay_without_seat=stay)
    scripts = [[2], [], [0]] if not stay else [[], [], [0]]
    out = engine.run("swim_phase", pos, scripts)
    # Seat 1 cannot leave boat 1 too; seat 2 leaves boat 2 (forced) for boat 0 (asked
    # first, counter-clockwise from F - 1 = seat 2); seat 0's officer takes boat 2's seat.
    assert boats(out.pos) == ["ac", "b", "Ac", GONE_SUNK]
    assert record(out.pos).no_seat == [0, 0, 0]
    asked = [(2, SWIM_IN, [0, 1])]
    out.expect_asked(asked if stay else [(0, SWIM_OUT, [1, 2]), *asked])


# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def test_set_up_lanes_then_the_black_boat_then_pawns_round_and_round(engine) -> None:
    rules = make_rules(seats_per_boat=2)
    pos = Position.start(rules, 3)
    pos.reserve[1] = [0, 1]  # seat 1 has a single pawn: it passes once it is placed
    scripts = [[4, 2, 6, 1], [0, 7], [6, 0, 5]]
    out = engine.run("set_up", pos, scripts)
    assert out.pos.lane == [4, 0, 6, 2]
    assert boats(out.pos) == ["Ca", "", "c", "Ab"]
    assert out.pos.reserve == [[0, 0], [0, 0], [0, 0]]
    assert record(out.pos).placed_officers == [1, 0, 1]
    assert record(out.pos).placed_sailors == [1, 1, 1]
    assert record(out.pos).boat_lane == [4, 0, 6, 2]
    out.expect_asked(
        [
            (0, LANE, [0, 1, 2, 3, 4, 5, 6]),
            (1, LANE, [0, 1, 2, 3, 5, 6]),
            (2, LANE, [1, 2, 3, 5, 6]),
            (0, LANE, [1, 2, 3, 5]),
            (0, PLACE, [0, 1, 2, 3, 4, 5, 6, 7]),
            (1, PLACE, [1, 3, 5, 7]),
            (2, PLACE, [0, 1, 2, 3, 4, 5]),
            (0, PLACE, [1, 3, 5]),
            (2, PLACE, [3, 5]),
        ]
    )


def test_set_up_asks_no_forced_lane(engine) -> None:
    # Four lanes for four boats: the black boat's lane, the last, is forced.
    rules = make_rules(
        seats_per_boat=1,
        officers=(1,) * 4,
        sailors=(0,) * 4,
        lane_islands=(0, 1, 2, 0),
    )
    pos = Position.start(rules, 3)
    out = engine.run("set_up", pos, [[3, 6], [1, 4], [0, 0]])
    assert out.pos.lane == [3, 1, 0, 2]
    assert boats(out.pos) == ["C", "", "B", "A"]
    assert record(out.pos).placed_officers == [1, 1, 1]
    out.expect_asked(
        [
            (0, LANE, [0, 1, 2, 3]),
            (1, LANE, [0, 1, 2]),
            (2, LANE, [0, 2]),
            (0, PLACE, [0, 2, 4, 6]),
            (1, PLACE, [0, 2, 4]),
            (2, PLACE, [0, 2]),
        ]
    )


# ---------------------------------------------------------------------------
# The end: winners (D13)
# ---------------------------------------------------------------------------


def ended(scores: Sequence[int], states: Sequence[int], order: Sequence[int]) -> Position:
    """A finished position: every boat landed or sunk, landing order as given."""
    n = len(scores)
    pos = build(["" for _ in range(n + 1)], landing_order=order, scores=scores)
    pos.state = list(states)
    return pos


L, S = LANDED, SUNK


@pytest.mark.parametrize(
    ("scores", "states", "order", "won", "rule"),
    [
        pytest.param([10, 8, 6], [L, L, S, L], [2, 1, 0, 3], [0], 0, id="no-tie"),
        pytest.param([10, 10, 5], [L, L, S, S], [2, 1, 0, 0], [1], 1, id="own-boat-first"),
        pytest.param([10, 10, 5], [L, S, S, L], [2, 0, 0, 1], [0], 1, id="own-boat-landed"),
        # Tied seats 0 and 2 sank; the black boat landed first (skipped), then seat 1's.
        pytest.param(
            [9, 3, 9, 1], [S, L, S, S, L], [0, 2, 0, 0, 1], [2], 2, id="clockwise-after-1"
        ),
        pytest.param([9, 3, 9, 1], [S, S, S, L, L], [0, 0, 0, 2, 1], [0], 2, id="clockwise-wraps"),
        pytest.param([4, 4, 2], [S, S, S, L], [0, 0, 0, 1], [0, 1], 3, id="shared-black-landed"),
        pytest.param([0, 0, 0], [S, S, S, S], [0, 0, 0, 0], [0, 1, 2], 3, id="shared-none-landed"),
    ],
)
def test_winners(engine, scores, states, order, won, rule) -> None:
    pos = ended(scores, states, order)
    assert engine.winners(pos, True) == (won, rule)


def test_an_unfinished_game_has_no_winner(engine) -> None:
    pos = ended([10, 8, 6], [L, AFLOAT, S, AFLOAT], [1, 0, 0, 0])
    assert engine.winners(pos, False) == ([], -1)


# ---------------------------------------------------------------------------
# Whole scripted games: the game ends mid-round when the last boat leaves the water
# ---------------------------------------------------------------------------


def test_a_game_ends_after_the_move_that_lands_the_last_boat(engine) -> None:
    # One seat a boat, one officer each, no leaks, no hats, a track of one move.
    rules = make_rules(
        seats_per_boat=1, officers=(1,) * 4, sailors=(0,) * 4, leaks=0, hats=0, track_length=1
    )
    scripts = [
        [0, 6, 0, 3, 1, 0],  # lanes 0 and 6 (black), boat 0; moves: black, 1, 0
        [2, 2, 3, 1, 0],  # lane 2, boat 1; moves: black, 1, 0
        [4, 4, 3, 0, 1, 0],  # lane 4, boat 2; moves: black; swims into boat 0; moves: 1, 0
    ]
    # Round 1: the empty black boat lands; all swim out, in: seat 2 to boat 0, seat 1 to
    # boat 2, seat 0 to boat 1. Round 2 (F = 1): boat 1 (lane 2, island B) lands seat 0's
    # officer: 6; seats 1 and 2 swap boats 2 and 0. Round 3: boat 0 (lane 0, island A)
    # lands seat 1's officer: 8; seat 2 swims out of boat 2 and drowns. Round 4: boat 2,
    # the last afloat, lands empty (the move is forced) and the game ends at once.
    rec, kinds, log = engine.play(rules, 3, scripts)
    assert (rec.rounds, rec.finished, rec.winners, rec.tie_rule) == (4, True, 1, 0)
    assert rec.won == [False, True, False]
    assert rec.score == [6, 8, 0]
    assert (rec.first_landed, rec.boats_landed, rec.boats_sunk) == (3, 4, 0)
    assert (rec.votes, rec.hat_decided, rec.revotes, rec.ties_broken) == (4, 0, 0, 0)
    assert rec.placed_officers == [1, 1, 1] and rec.placed_sailors == [0, 0, 0]
    assert rec.saved_officers == [1, 1, 0] and rec.saved_sailors == [0, 0, 0]
    assert rec.no_seat == [0, 0, 1]
    assert rec.overboard == rec.sunk == rec.hats_used == [0, 0, 0]
    assert rec.boat_lane == [0, 2, 4, 6]
    assert rec.boat_fate == [LANDED] * 4
    assert rec.boat_round == [3, 2, 4, 1]
    assert rec.boat_order == [3, 2, 4, 1]
    assert rec.boat_aboard == [1, 1, 0, 0]
    assert rec.boat_leaks == [0, 0, 0, 0]
    asked = [
        (0, LANE),
        (1, LANE),
        (2, LANE),
        (0, LANE),
        (0, PLACE),
        (1, PLACE),
        (2, PLACE),
        (0, MOVE_VOTE),
        (1, MOVE_VOTE),
        (2, MOVE_VOTE),
        (2, SWIM_IN),
        (1, MOVE_VOTE),
        (2, MOVE_VOTE),
        (0, MOVE_VOTE),
        (2, MOVE_VOTE),
        (0, MOVE_VOTE),
        (1, MOVE_VOTE),
    ]
    assert kinds == [[k for s, k in asked if s == seat] for seat in range(3)]
    if log is not None:
        assert [(a.seat, a.kind) for a in log] == asked


def test_a_game_ends_after_the_leak_that_sinks_the_last_boat(engine) -> None:
    # One seat a boat, one officer each, no hats: every leak on a crewed boat throws its
    # only pawn overboard and sinks it.
    rules = make_rules(seats_per_boat=1, officers=(1,) * 4, sailors=(0,) * 4, hats=0)
    scripts = [
        [0, 3, 0, 3, 0, 0, 1, 1],
        [1, 2, 3, 0, 0, 1, 1],
        [2, 4, 3, 0, 0, 0, 1, 1],
    ]
    # Round 1: a leak sinks the empty black boat; boat 0 moves; the swimmers rotate
    # (seat 2 to boat 0, seat 1 to boat 2, seat 0 to boat 1). Round 2: a leak on boat 0
    # throws seat 2's officer overboard and sinks it; boat 1 moves; seats 0 and 1 swap.
    # Round 3: the same on boat 1 (seat 1's officer); boat 2 moves (forced); seat 0
    # swims out of it and drowns. Round 4: the forced leak sinks boat 2, the last: the
    # game ends before the move vote. Nobody scored and no player's boat landed: shared.
    rec, kinds, log = engine.play(rules, 3, scripts)
    assert (rec.rounds, rec.finished, rec.winners, rec.tie_rule) == (4, True, 3, 3)
    assert rec.won == [True, True, True]
    assert rec.score == [0, 0, 0]
    assert (rec.first_landed, rec.boats_landed, rec.boats_sunk) == (-1, 0, 4)
    # Ballots: 2 in round 1, 3 in rounds 2 and 3 (leak, overboard, move), 1 in round 4.
    assert (rec.votes, rec.hat_decided, rec.revotes, rec.ties_broken) == (9, 0, 0, 0)
    assert rec.overboard == [0, 1, 1]
    assert rec.sunk == [0, 0, 0]
    assert rec.no_seat == [1, 0, 0]
    assert rec.boat_fate == [SUNK] * 4
    assert rec.boat_round == [2, 3, 4, 1]
    assert rec.boat_order == [0, 0, 0, 0]
    assert rec.boat_aboard == [0, 0, 0, 0]
    assert rec.boat_leaks == [1, 1, 1, 1]
    # Set-up, then rounds 1 and 2 (leak and move votes, one swim-in), then round 3's leak
    # vote: every later decision is forced.
    setup = [LANE, PLACE]
    assert kinds == [
        [LANE, *setup, LEAK_VOTE, MOVE_VOTE, LEAK_VOTE, MOVE_VOTE, LEAK_VOTE],
        [*setup, LEAK_VOTE, MOVE_VOTE, LEAK_VOTE, MOVE_VOTE, LEAK_VOTE],
        [*setup, LEAK_VOTE, MOVE_VOTE, SWIM_IN, LEAK_VOTE, MOVE_VOTE, LEAK_VOTE],
    ]
    if log is not None:
        assert log[-1].seat == 1  # round 3 (F = 2): seat 1 votes last


def test_a_capped_game_is_unfinished_and_has_no_winner(engine) -> None:
    # The same game as the previous one, capped after round 3: boat 2 is still afloat.
    rules = make_rules(seats_per_boat=1, officers=(1,) * 4, sailors=(0,) * 4, hats=0, round_cap=3)
    scripts = [
        [0, 3, 0, 3, 0, 0, 1, 1],
        [1, 2, 3, 0, 0, 1, 1],
        [2, 4, 3, 0, 0, 0, 1, 1],
    ]
    rec, _, _ = engine.play(rules, 3, scripts)
    assert (rec.rounds, rec.finished, rec.winners, rec.tie_rule) == (3, False, 0, -1)
    assert rec.won == [False, False, False]
    assert rec.boat_fate == [SUNK, SUNK, AFLOAT, SUNK]
    assert rec.boat_round == [2, 3, 0, 1]
    assert (rec.boats_sunk, rec.votes) == (3, 8)
