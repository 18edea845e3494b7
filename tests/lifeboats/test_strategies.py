"""The shipped Lifeboats strategies, asked directly on hand-built positions.

Each test builds the public position a strategy sees (``obs``, per
:mod:`balance.games.lifeboats.layout`) and the legal options of one decision (per D4 of the
contract), calls the strategy's compiled ``decide`` and checks its answer.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from balance.strategies.lifeboats import SHIPPED, hatkeeper, random, steward, swimmer
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.core.dispatch import playable
from balance.core.game import Lineup
from balance.core.random_nb import seed_stream_nb
from balance.core.strategy import MAX_PARAMS, SeatStrategy
from balance.games.lifeboats import kit
from balance.games.lifeboats.engine import play_games
from balance.games.lifeboats.layout import (
    AFLOAT,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    HAT,
    LANDED,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MOVE_VOTE,
    OFFICER,
    OVERBOARD_VOTE,
    PLACE,
    SAILOR,
    SCRATCH,
    SUNK,
    SWIM_IN,
    SWIM_OUT,
    UNUSED,
    Boat,
    Rule,
    Seat,
    SeatStat,
    State,
)
from balance.games.lifeboats.rules import LifeboatsRules

# The rules page's defaults (spec table), packed per layout.Rule.
SEATS = 6
TRACK = 3
LANE_ISLANDS = (0, 0, 1, 1, 2, 2, 2)
OFFICER_POINTS = (8, 6, 7)
SAILOR_POINTS = (6, 4, 5)
OFFICERS = {3: 2, 4: 2, 5: 2, 6: 2}
SAILORS = {3: 5, 4: 5, 5: 4, 6: 4}
HATS = 3
LEAKS = 15
ROUND_CAP = 60

HEURISTICS = (steward, hatkeeper, swimmer)
#: The shipped players wired into the game loop (the search players have their own tests
#: in test_search.py: asking one here would compile the whole search).
WIRED = tuple(s for s in SHIPPED if s.code is not None)


def rules_array(players: int) -> np.ndarray:
    rules = np.zeros(Rule.SIZE, dtype=np.int64)
    rules[Rule.SEATS] = SEATS
    rules[Rule.TRACK] = TRACK
    rules[Rule.LANES] = len(LANE_ISLANDS)
    rules[Rule.HATS] = HATS
    rules[Rule.LEAKS] = LEAKS
    rules[Rule.ROUND_CAP] = ROUND_CAP
    rules[Rule.OFFICERS] = OFFICERS[players]
    rules[Rule.SAILORS] = SAILORS[players]
    rules[Rule.SEAT_SAILORS : Rule.SEAT_SAILORS + players] = SAILORS[players]
    rules[Rule.ISLANDS] = len(OFFICER_POINTS)
    rules[Rule.LANE_ISLAND : Rule.LANE_ISLAND + len(LANE_ISLANDS)] = LANE_ISLANDS
    rules[Rule.OFFICER_POINTS : Rule.OFFICER_POINTS + 3] = OFFICER_POINTS
    rules[Rule.SAILOR_POINTS : Rule.SAILOR_POINTS + 3] = SAILOR_POINTS
    return rules


def build(
    players: int = 4,
    *,
    crew: dict[tuple[int, int], tuple[int, int]] | None = None,
    lanes: list[int] | None = None,
    steps: dict[int, int] | None = None,
    leaks: dict[int, int] | None = None,
    fates: dict[int, int] | None = None,
    left: tuple[int, ...] = (),
    hats: int | list[int] = HATS,
    reserve: tuple[int, int] = (0, 0),
    first: int = 0,
    leaks_left: int | None = None,
    boat: int = -1,
    swim_from: int = -1,
    swimming: dict[int, int] | None = None,
):
    """The ``obs`` tuple of a position.

    ``crew[(boat, seat)] = (officers, sailors)``; boat ``b`` sits on lane ``lanes[b]``
    (default: lane ``b``, so boats 0-1 go to island A, 2-3 to B, 4-6 to C; -1 for a boat
    not yet placed); ``steps``, ``leaks`` and ``fates`` by boat (default 0 and afloat).
    """
    crew = crew or {}
    lanes = list(range(players + 1)) if lanes is None else lanes
    steps, leaks, fates, swimming = steps or {}, leaks or {}, fates or {}, swimming or {}
    boats = np.zeros((MAX_BOATS, Boat.SIZE), dtype=np.int64)
    pawns = np.zeros((MAX_BOATS, MAX_PLAYERS, 2), dtype=np.int64)
    for (b, s), (officers, sailors) in crew.items():
        pawns[b, s] = officers, sailors
    boats[:, Boat.STATE] = UNUSED
    boats[:, Boat.LANE] = -1
    boats[:, Boat.ISLAND] = -1
    for b in range(players + 1):
        lane = lanes[b]
        boats[b, Boat.LANE] = lane
        boats[b, Boat.ISLAND] = LANE_ISLANDS[lane] if lane >= 0 else -1
        boats[b, Boat.STEPS] = steps.get(b, 0)
        boats[b, Boat.STATE] = fates.get(b, AFLOAT)
        boats[b, Boat.LEAKS] = leaks.get(b, 0)
        boats[b, Boat.PAWNS] = pawns[b].sum()
        boats[b, Boat.FREE] = SEATS - boats[b, Boat.PAWNS] - boats[b, Boat.LEAKS]
        boats[b, Boat.LEFT] = int(b in left)
        assert boats[b, Boat.FREE] >= 0, f"boat {b} overfull"
    seats = np.zeros((MAX_PLAYERS, Seat.SIZE), dtype=np.int64)
    seats[:players, Seat.HATS] = hats
    seats[:players, Seat.RESERVE_OFFICERS] = reserve[0]
    seats[:players, Seat.RESERVE_SAILORS] = reserve[1]
    seats[:, Seat.SWIMMING] = -1
    for s, kind in swimming.items():
        seats[s, Seat.SWIMMING] = kind
    state = np.zeros(State.SIZE, dtype=np.int64)
    state[State.PLAYERS] = players
    state[State.ROUND] = 1
    state[State.FIRST] = first
    placed = sum(leaks.values())
    state[State.LEAKS_LEFT] = LEAKS - placed if leaks_left is None else leaks_left
    state[State.BOAT] = boat
    state[State.SWIM_FROM] = swim_from
    state[State.LANDED] = sum(1 for f in fates.values() if f == LANDED)
    state[State.FIRST_LANDED] = -1
    return (
        boats,
        pawns,
        seats,
        state,
        rules_array(players),
        np.zeros(SCRATCH, dtype=np.int64),
        np.zeros(SCRATCH, dtype=np.float64),
    )


def legal(obs, seat: int, kind: int) -> list[int]:
    """The options of a decision, per D4 (for the choose kinds: every eligible option)."""
    boats, crew, seats, state = obs[0], obs[1], obs[2], obs[3]
    n = int(state[State.PLAYERS])
    afloat = [b for b in range(n + 1) if boats[b, Boat.STATE] == AFLOAT]
    hat = [HAT] if seats[seat, Seat.HATS] > 0 else []
    if kind == LANE:
        taken = {int(boats[b, Boat.LANE]) for b in range(n + 1)}
        return [lane for lane in range(len(LANE_ISLANDS)) if lane not in taken]
    if kind == PLACE:
        return [
            b * 2 + t
            for b in range(n + 1)
            if boats[b, Boat.FREE] > 0
            for t in (OFFICER, SAILOR)
            if seats[seat, Seat.RESERVE_OFFICERS + t] > 0
        ]
    if kind in (LEAK_VOTE, MOVE_VOTE):
        return afloat + hat
    if kind in (CHOOSE_LEAK, CHOOSE_MOVE):
        return afloat
    boat = int(state[State.BOAT])
    if kind in (OVERBOARD_VOTE, CHOOSE_OVERBOARD):
        colours = [s for s in range(n) if crew[boat, s].sum() > 0]
        return colours + (hat if kind == OVERBOARD_VOTE else [])
    if kind == LOSE_PAWN:
        return [t for t in (OFFICER, SAILOR) if crew[boat, seat, t] > 0]
    if kind == SWIM_OUT:
        return [
            b * 2 + t
            for b in afloat
            if not boats[b, Boat.LEFT]
            for t in (OFFICER, SAILOR)
            if crew[b, seat, t] > 0
        ]
    assert kind == SWIM_IN
    came = int(state[State.SWIM_FROM])
    return [b for b in afloat if b != came and boats[b, Boat.FREE] > 0]


def ask(strategy, obs, seat: int, kind: int, options=None, seed: int = 0, **params) -> int:
    """The option code the strategy chooses (checking its index is in range)."""
    options = legal(obs, seat, kind) if options is None else list(options)
    assert len(options) >= 2, options
    buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
    buffer[: len(options)] = options
    values = dict(strategy.params) | params
    vector = SeatStrategy(strategy, tuple(values[name] for name, _ in strategy.params)).vector()
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(rng, seed, 0, seat + 1)
    # The game loop's own compiled code of a heuristic (cached with the loop), as the
    # reference engine's seats play it.
    decide = playable(strategy.decisions["decide"], strategy, "decide")
    index = decide(obs, seat, kind, buffer, len(options), vector, rng)
    assert 0 <= index < len(options)
    return options[index]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_builder_packs_the_rules_as_the_engine_does(players: int) -> None:
    np.testing.assert_array_equal(rules_array(players), LifeboatsRules().to_array(players))


# --- the shipped set ---------------------------------------------------------------------


def test_shipped_strategies_have_codes_params_and_one_decision() -> None:
    names = ["random", "steward", "hatkeeper", "swimmer", "mc", "ismcts"]
    assert [s.name for s in SHIPPED] == names
    assert [s.code for s in SHIPPED] == [0, 1, 2, 3, None, None]  # search: no code
    for strategy in SHIPPED:
        assert strategy.game == "lifeboats"
        assert set(strategy.decisions) == {"decide"}
        assert len(strategy.params) <= MAX_PARAMS
        assert strategy.description.endswith(".")
    assert dict(hatkeeper.params)["stake"] > 0
    assert dict(swimmer.params)["stake"] > 0


# --- landing chances -----------------------------------------------------------------------


def test_landing_chance_falls_with_leaks_and_rises_with_moves() -> None:
    chance = kit.chance_raw_nb
    assert chance(2, 3, 1, 3, 10, 1.0) == 0.0  # more leaks than pawns: sunk
    assert chance(1, 0, 5, 0, 10, 1.0) == 1.0  # landed
    assert chance(1, 0, 5, 3, 0, 1.0) == 1.0  # no leak left to come
    assert chance(3, 2, 1, 3, 10, 1.0) < chance(3, 1, 2, 3, 10, 1.0) < chance(3, 0, 3, 3, 10, 1.0)
    assert chance(3, 1, 2, 1, 10, 1.0) > chance(3, 1, 2, 2, 10, 1.0)
    # A full boat loses two seats of margin per leak (overboard, then the leak).
    assert chance(6, 0, 0, 3, 10, 1.0) < chance(5, 0, 1, 3, 10, 1.0) + 1e-12
    # The markers run out before this boat sinks.
    assert chance(4, 0, 2, 3, 2, 1.0) == 1.0


def test_stake_counts_officers_and_sailors_at_the_boats_island() -> None:
    obs = build(crew={(0, 1): (1, 2), (4, 1): (0, 1)})
    assert kit.stake_nb(obs, 1, 0) == 8 + 2 * 6  # island A
    assert kit.stake_nb(obs, 1, 4) == 5  # island C sailor
    assert kit.stake_nb(obs, 0, 0) == 0.0
    sunk = build(crew={(0, 1): (1, 2)}, fates={0: SUNK})
    assert kit.stake_nb(sunk, 1, 0) == 0.0


# --- lanes and placing -----------------------------------------------------------------------


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_own_boat_goes_to_the_island_worth_most(strategy) -> None:
    obs = build(lanes=[-1, 0, 1, -1, -1])  # island A's lanes are taken
    assert ask(strategy, obs, 0, LANE) in (4, 5, 6)  # C (7/5) beats B (6/4)
    fresh = build(lanes=[-1, -1, -1, -1, -1])
    assert ask(strategy, fresh, 0, LANE) in (0, 1)


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_ties_are_drawn_from_the_seats_stream(strategy) -> None:
    obs = build(lanes=[-1, -1, -1, -1, -1])
    picks = {ask(strategy, obs, 0, LANE, seed=seed) for seed in range(40)}
    assert picks == {0, 1}


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_pawns_go_to_a_high_value_island(strategy) -> None:
    # Boats 0 (A) and 4 (C) hold the same rival crew; A pays more.
    obs = build(crew={(0, 1): (0, 2), (4, 1): (0, 2)}, reserve=(1, 1))
    options = [0 * 2 + SAILOR, 4 * 2 + SAILOR]
    assert ask(strategy, obs, 0, PLACE, options) == 0 * 2 + SAILOR


def test_steward_spreads_its_pawns_by_its_spread_parameter() -> None:
    # Boats 0 and 1 both go to A with two pawns aboard; boat 0's are the steward's own.
    obs = build(crew={(0, 0): (0, 2), (1, 1): (0, 2)}, reserve=(0, 1))
    options = [0 * 2 + SAILOR, 1 * 2 + SAILOR]
    assert ask(steward, obs, 0, PLACE, options, spread=3.0) == 1 * 2 + SAILOR
    # Without the spread penalty its own crew's safety draws it to boat 0.
    assert ask(steward, obs, 0, PLACE, options, spread=0.0) == 0 * 2 + SAILOR


# --- votes ---------------------------------------------------------------------------------

# Four players; seat 0 has an officer in boat 2 and nothing elsewhere.
OFFICER_IN_2 = {
    (0, 1): (1, 1),
    (1, 2): (1, 1),
    (2, 0): (1, 0),
    (3, 3): (1, 1),
    (4, 1): (0, 1),
    (4, 2): (0, 1),
}


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_advances_the_boat_with_its_officer(strategy) -> None:
    obs = build(crew=OFFICER_IN_2)
    assert ask(strategy, obs, 0, MOVE_VOTE) == 2
    assert ask(strategy, obs, 0, CHOOSE_MOVE) == 2


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_leaks_the_boat_without_its_pawns(strategy) -> None:
    crew = {(0, 0): (0, 1), (1, 0): (1, 0), (2, 0): (0, 1), (3, 0): (0, 1)}
    crew |= {(0, 1): (0, 1), (1, 2): (0, 1), (4, 1): (1, 1), (4, 3): (0, 2)}
    obs = build(crew=crew)
    assert ask(strategy, obs, 0, LEAK_VOTE) == 4
    assert ask(strategy, obs, 0, CHOOSE_LEAK) == 4


def test_steward_prefers_to_leak_the_boat_that_hurts_rivals() -> None:
    # No pawn of the steward anywhere near boats 3 and 4; boat 4 carries rivals, 3 is empty.
    crew = {(0, 0): (1, 1), (1, 0): (1, 0), (2, 0): (0, 1), (4, 1): (1, 1), (4, 2): (1, 0)}
    obs = build(crew=crew)
    assert ask(steward, obs, 0, LEAK_VOTE) == 4
    draws = {ask(steward, obs, 0, LEAK_VOTE, spite=0.0, seed=seed) for seed in range(30)}
    assert draws == {3, 4}  # indifferent without spite


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_overboard_throws_the_heaviest_rival_and_loses_a_sailor(strategy) -> None:
    # Boat 0 is full: seat 0 a sailor, seat 1 officer + sailor (weight 3), seat 2 two sailors.
    crew = {(0, 0): (0, 1), (0, 1): (1, 1), (0, 2): (0, 2)}
    obs = build(players=3, crew=crew, leaks={0: 1}, boat=0)
    assert ask(strategy, obs, 0, OVERBOARD_VOTE, options=[0, 1, 2]) == 1
    assert ask(strategy, obs, 0, CHOOSE_OVERBOARD, options=[0, 2]) == 2
    assert ask(strategy, obs, 1, LOSE_PAWN) == SAILOR


# --- hats ----------------------------------------------------------------------------------


def sinking_position(hats: int = HATS, first: int = 0):
    """Seat 0's officer and sailor sit in boat 0, one step from landing, with two leaks:
    one more leak sinks it.

    Seats 1 and 2 hold pawns in boats 1, 2 and 3 but none in boat 0: both are predicted to
    leak boat 0, outvoting seat 0.
    """
    crew = {(0, 0): (1, 1)}
    crew |= {(b, s): (0, 1) for b in (1, 2, 3) for s in (1, 2)}
    return build(players=3, crew=crew, leaks={0: 2}, steps={0: 2}, hats=hats, first=first)


def safe_position():
    """As :func:`sinking_position`, but seat 1 holds pawns only in boat 1 and seat 2 only
    in boat 2: their predicted votes spread, and seat 0's own vote decides."""
    crew = {(0, 0): (1, 1), (1, 1): (1, 2), (2, 2): (1, 2)}
    return build(players=3, crew=crew, leaks={0: 2}, steps={0: 2})


def test_the_tally_predicts_rivals_from_their_own_stake() -> None:
    obs = sinking_position()
    options = np.array(legal(obs, 0, LEAK_VOTE) + [0] * 10, dtype=np.int64)
    count = len(legal(obs, 0, LEAK_VOTE))
    kit.fill_chances_nb(obs, LEAK_VOTE)
    kit.predict_tally_nb(obs, 0, LEAK_VOTE, options, count)
    tally = obs[6][kit.TALLY : kit.TALLY + count]
    np.testing.assert_allclose(tally, [2.0, 0.0, 0.0, 0.0, 0.0])  # boats 0..3, hat


def test_steward_never_plays_a_hat() -> None:
    for seed in range(20):
        assert ask(steward, sinking_position(), 0, LEAK_VOTE, seed=seed) != HAT


def test_hatkeeper_plays_a_hat_to_save_its_boat() -> None:
    obs = sinking_position()
    assert legal(obs, 0, LEAK_VOTE)[-1] == HAT
    assert ask(hatkeeper, obs, 0, LEAK_VOTE) == HAT
    # As the lone hat it then chooses to leak another boat.
    assert ask(hatkeeper, sinking_position(), 0, CHOOSE_LEAK) != 0
    # Not if the loss is below its threshold (8 + 6 points at most).
    assert ask(hatkeeper, sinking_position(), 0, LEAK_VOTE, stake=15.0) != HAT


def test_hatkeeper_keeps_its_hat_when_it_wins_anyway() -> None:
    obs = safe_position()
    assert legal(obs, 0, LEAK_VOTE)[-1] == HAT
    for seed in range(20):
        assert ask(hatkeeper, safe_position(), 0, LEAK_VOTE, seed=seed) != HAT


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_no_hat_without_hats(strategy) -> None:
    obs = sinking_position(hats=0)
    options = legal(obs, 0, LEAK_VOTE)
    assert HAT not in options
    assert ask(strategy, obs, 0, LEAK_VOTE, options) in (1, 2, 3)
    # Even if an engine offered the hat, a seat with no hat left does not play it.
    assert ask(strategy, obs, 0, LEAK_VOTE, [*options, HAT]) != HAT


def test_swimmer_plays_a_hat_when_a_leak_would_sink_its_stake() -> None:
    assert ask(swimmer, sinking_position(), 0, LEAK_VOTE) == HAT
    assert ask(swimmer, sinking_position(), 0, LEAK_VOTE, stake=20.0) != HAT
    for seed in range(20):
        assert ask(swimmer, safe_position(), 0, LEAK_VOTE, seed=seed) != HAT


def test_swimmer_advances_its_boat_closest_to_landing() -> None:
    crew = {(0, 0): (1, 1), (2, 0): (0, 1), (1, 1): (1, 1), (3, 2): (1, 0)}
    obs = build(crew=crew, steps={0: 0, 2: 2, 1: 2})
    assert ask(swimmer, obs, 0, MOVE_VOTE) == 2  # fewer points than boat 0 but one step away


# --- swimming ------------------------------------------------------------------------------


def test_steward_swims_out_of_the_boat_at_risk() -> None:
    # Seat 0 has a sailor in boat 0 (two leaks, two pawns: at risk) and one in boat 1 (safe).
    crew = {(0, 0): (0, 1), (0, 1): (0, 1), (1, 0): (0, 1), (1, 1): (0, 2), (2, 2): (0, 1)}
    obs = build(crew=crew, leaks={0: 2})
    assert ask(steward, obs, 0, SWIM_OUT) == 0 * 2 + SAILOR
    assert ask(swimmer, obs, 0, SWIM_OUT) == 0 * 2 + SAILOR


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_swims_into_the_best_boat_with_room(strategy) -> None:
    # The officer left boat 3. Boat 0 (A) is safe and has room; boat 1 (A) is leaking,
    # boat 4 (C) is as safe as boat 0 but pays less; boat 2 is full.
    crew = {(0, 1): (0, 3), (1, 2): (0, 2), (2, 1): (1, 5), (4, 2): (0, 3)}
    obs = build(crew=crew, leaks={1: 2}, left=(3,), swim_from=3, swimming={0: OFFICER})
    assert legal(obs, 0, SWIM_IN) == [0, 1, 4]
    assert ask(strategy, obs, 0, SWIM_IN) == 0


# --- any position ----------------------------------------------------------------------------

KINDS = (
    LANE,
    PLACE,
    LEAK_VOTE,
    MOVE_VOTE,
    OVERBOARD_VOTE,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    LOSE_PAWN,
    SWIM_OUT,
    SWIM_IN,
)


@st.composite
def decisions(draw):
    """A random public position, a seat and a decision with at least two options."""
    players = draw(st.integers(3, 6))
    boats = players + 1
    fates = {b: draw(st.sampled_from((AFLOAT, AFLOAT, AFLOAT, LANDED, SUNK))) for b in range(boats)}
    crew: dict[tuple[int, int], tuple[int, int]] = {}
    leaks = {}
    steps = {}
    for b in range(boats):
        room = SEATS
        leaks[b] = draw(st.integers(0, 3))
        room -= leaks[b]
        steps[b] = draw(st.integers(0, TRACK - 1))
        for s in range(players):
            officers = draw(st.integers(0, min(1, room)))
            sailors = draw(st.integers(0, min(2, room - officers)))
            room -= officers + sailors
            if officers + sailors:
                crew[(b, s)] = (officers, sailors)
    lanes = draw(st.permutations(range(len(LANE_ISLANDS))))[:boats]
    kind = draw(st.sampled_from(KINDS))
    seat = draw(st.integers(0, players - 1))
    unplaced = draw(st.integers(0, boats)) if kind == LANE else 0
    lanes = [-1 if b < unplaced else lane for b, lane in enumerate(lanes)]
    boat = draw(st.integers(0, boats - 1))
    left = tuple(b for b in range(boats) if draw(st.booleans()) and b != boat)
    obs = build(
        players,
        crew=crew,
        lanes=lanes,
        steps=steps,
        leaks={b: v for b, v in leaks.items() if v},
        fates=fates,
        left=left,
        hats=draw(st.lists(st.integers(0, HATS), min_size=players, max_size=players)),
        reserve=(draw(st.integers(0, 2)), draw(st.integers(0, 5))),
        first=draw(st.integers(0, players - 1)),
        leaks_left=draw(st.integers(0, LEAKS)),
        boat=boat,
        swim_from=boat if kind == SWIM_IN else -1,
        swimming={seat: draw(st.sampled_from((OFFICER, SAILOR)))} if kind == SWIM_IN else None,
    )
    options = legal(obs, seat, kind)
    if kind in (CHOOSE_LEAK, CHOOSE_MOVE, CHOOSE_OVERBOARD) and len(options) > 2:
        options = sorted(draw(st.lists(st.sampled_from(options), min_size=2, unique=True)))
    return obs, seat, kind, options, draw(st.integers(0, 2**32))


@settings(max_examples=300, deadline=None)
@given(decisions(), st.sampled_from(WIRED))
def test_every_answer_is_a_legal_index(decision, strategy) -> None:
    obs, seat, kind, options, seed = decision
    if len(options) < 2:
        return
    assert len(options) <= MAX_OPTIONS
    code = ask(strategy, obs, seat, kind, options, seed=seed)
    assert code in options
    if strategy is steward:
        assert code != HAT
    if strategy is swimmer and code == HAT:
        assert kind == LEAK_VOTE


# --- the landing-chance cache and the table of a vote's values ------------------------------


def direct_chances(obs, kind: int) -> np.ndarray:
    """The chance tables :func:`kit.fill_chances_nb` must fill, worked out boat by boat with
    :func:`kit.boat_chance_nb` (no cache): ``(3, MAX_BOATS)`` now, after, with one fewer."""
    boats, n = obs[0], int(obs[3][State.PLAYERS])
    vote = kit.vote_kind_nb(kind)
    tables = np.zeros((3, MAX_BOATS))
    for b in range(n + 1):
        tables[0, b] = kit.boat_chance_nb(obs, b, 0, 0, 0)
        if vote == MOVE_VOTE:
            landing = kit.steps_left_nb(obs, b) <= 1
            tables[1, b] = 1.0 if landing else kit.boat_chance_nb(obs, b, 0, 0, 1)
        elif vote in (LEAK_VOTE, OVERBOARD_VOTE):
            full = 1 if boats[b, Boat.FREE] <= 0 else 0
            tables[1, b] = kit.boat_chance_nb(obs, b, -full, 1, 0)
        else:
            tables[1, b] = kit.boat_chance_nb(obs, b, 1, 0, 0)
        if kind == SWIM_OUT:
            tables[2, b] = kit.boat_chance_nb(obs, b, -1, 0, 0)
    return tables


def filled_chances(obs) -> np.ndarray:
    scratch = obs[6]
    return np.stack(
        [
            scratch[kit.CHANCE : kit.CHANCE + MAX_BOATS],
            scratch[kit.CHANCE_AFTER : kit.CHANCE_AFTER + MAX_BOATS],
            scratch[kit.CHANCE_LESS : kit.CHANCE_LESS + MAX_BOATS],
        ]
    )


@settings(max_examples=80, deadline=None)
@given(st.lists(decisions(), min_size=2, max_size=4))
def test_cached_chances_and_vote_values_equal_the_direct_ones(sequence) -> None:
    # One set of buffers goes through several positions, as the game loop's does: the
    # cache must never serve a chance of an earlier position (nor its table of values).
    shared = sequence[0][0]
    for obs, _seat, kind, options, _ in sequence:
        for mine, theirs in zip(shared[:5], obs[:5], strict=True):
            mine[...] = theirs
        kit.fill_chances_nb(shared, kind)
        assert np.array_equal(filled_chances(shared), direct_chances(obs, kind))
        kit.fill_chances_nb(obs, kind)  # fresh buffers: the same tables
        assert np.array_equal(filled_chances(obs), filled_chances(shared))
        buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
        buffer[: len(options)] = options
        kit.fill_own_values_nb(shared, kind, buffer, len(options))
        n = int(obs[3][State.PLAYERS])
        for q in range(n):
            for k, code in enumerate(options):
                assert kit.own_of_nb(shared, q, k) == kit.own_value_nb(shared, q, kind, code)
            for k, code in enumerate(options):
                expected = kit.rival_mean_nb(shared, q, kind, code)
                assert kit.rival_mean_of_nb(shared, q, k) == expected


def one_pawn_fewer(obs):
    """``obs`` with one pawn fewer in its first boat afloat that holds one (what every
    boat's chance shares unchanged), or None if no boat afloat holds a pawn."""
    changed = tuple(np.copy(a) for a in obs)
    boats, crew = changed[0], changed[1]
    n = int(changed[3][State.PLAYERS])
    for b, s, pawn in itertools.product(range(n + 1), range(n), (OFFICER, SAILOR)):
        if boats[b, Boat.STATE] == AFLOAT and crew[b, s, pawn] > 0:
            crew[b, s, pawn] -= 1
            boats[b, Boat.PAWNS] -= 1
            boats[b, Boat.FREE] += 1
            return changed
    return None


@settings(max_examples=60, deadline=None)
@given(decisions(), st.lists(st.tuples(st.booleans(), st.sampled_from(KINDS), st.booleans())))
def test_each_chance_is_worked_out_when_a_decision_first_reads_it(decision, asked) -> None:
    # The cache works out only the chances a decision reads, for the position at hand: a
    # position and the same with one pawn fewer in one boat (the other boats' chances
    # kept) in turn through one set of buffers, asked decisions of any kind, several of
    # them within one ballot, must always read what boat_chance_nb gives, whichever
    # chances were read before.
    first = decision[0]
    positions = (first, one_pawn_fewer(first) or first)
    shared = tuple(np.copy(a) for a in first)
    # The voters of one ballot asked of other kinds (a user's strategy may ask so): each
    # kind's chances are worked out, not only the first voter's.
    for kinds in itertools.permutations((LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE)):
        kit.new_ballot_nb(shared)
        for kind in kinds:
            kit.fill_chances_nb(shared, kind)
            assert np.array_equal(filled_chances(shared), direct_chances(first, kind)), kinds
    previous = None
    for which, kind, new_ballot in asked:
        obs = positions[which]
        for mine, theirs in zip(shared[:5], obs[:5], strict=True):
            mine[...] = theirs
        if which != previous or new_ballot:  # a ballot's voters see one position
            kit.new_ballot_nb(shared)
        previous = which
        kit.fill_chances_nb(shared, kind)
        assert np.array_equal(filled_chances(shared), direct_chances(obs, kind)), kind


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
def test_a_decision_after_a_leak_reads_the_new_chances(strategy) -> None:
    # The same buffers before and after boat 0 takes two more leaks (now full, at risk):
    # every option's value must be what fresh buffers give, not what the cache held.
    crew = {(0, 0): (1, 1), (0, 1): (0, 1), (1, 1): (0, 2), (2, 2): (0, 2)}
    shared = build(crew=crew, leaks={0: 1})
    for leaks in (1, 3, 1):
        fresh = build(crew=crew, leaks={0: leaks})
        for mine, theirs in zip(shared[:5], fresh[:5], strict=True):
            mine[...] = theirs
        for kind in (SWIM_OUT, LEAK_VOTE, MOVE_VOTE):
            count = len(legal(fresh, 0, kind))
            answers = [ask(strategy, obs, 0, kind) for obs in (shared, fresh)]
            assert answers[0] == answers[1]
            values = [obs[6][kit.VALUES : kit.VALUES + count] for obs in (shared, fresh)]
            assert np.array_equal(values[0], values[1]), (leaks, kind)


def direct_outcome(obs, seat: int, kind: int, options, pick: int, weight: float) -> float:
    """:func:`kit.predicted_outcome_nb` written out with :func:`kit.own_value_nb` (no table)."""
    tally = obs[6][kit.TALLY : kit.TALLY + len(options)] + np.where(
        np.arange(len(options)) == pick, weight, 0.0
    )
    live = [k for k, code in enumerate(options) if code != HAT]
    top = max(tally[k] for k in live)
    tied = [k for k in live if tally[k] > top - 1e-9]
    value = [kit.own_value_nb(obs, seat, kind, options[k]) for k in tied]
    if len(tied) > 1 and pick in tied and obs[3][State.FIRST] == seat:
        return kit.own_value_nb(obs, seat, kind, options[pick])
    return sum(value) / len(tied)


@settings(max_examples=30, deadline=None)
@given(st.lists(decisions(), min_size=2, max_size=4))
def test_a_votes_table_is_filled_once_a_decision_and_never_served_stale(sequence) -> None:
    # One set of buffers through several decisions: the table of a vote's values, filled
    # once a decision and read again by the ballot's predictions, must always hold what
    # own_value_nb gives for the position and options of the decision at hand; and the
    # tally and predicted outcomes must be those fresh buffers give.
    shared = sequence[0][0]
    for obs, seat, kind, options, _ in sequence:
        for mine, theirs in zip(shared[:5], obs[:5], strict=True):
            mine[...] = theirs
        buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
        buffer[: len(options)] = options
        count = len(options)
        kit.fill_chances_nb(shared, kind)
        kit.fill_chances_nb(obs, kind)
        for _ in range(2):  # the second call finds the table filled
            kit.fill_own_values_nb(shared, kind, buffer, count)
            for q in range(int(obs[3][State.PLAYERS])):
                for k, code in enumerate(options):
                    assert kit.own_of_nb(shared, q, k) == kit.own_value_nb(obs, q, kind, code)
        if not kit.is_ballot_nb(kind) or all(code == HAT for code in options):
            continue
        for buffers in (shared, obs):
            kit.predict_tally_nb(buffers, seat, kind, buffer, count)
        tallies = [b[6][kit.TALLY : kit.TALLY + count] for b in (shared, obs)]
        assert np.array_equal(tallies[0], tallies[1])
        for pick in range(count):
            for weight in (1.0, 2.0):
                got = kit.predicted_outcome_nb(shared, seat, kind, buffer, count, pick, weight)
                assert got == direct_outcome(obs, seat, kind, options, pick, weight)


@pytest.mark.parametrize("counted", [False, True], ids=["uncounted", "new-ballot"])
def test_a_votes_table_is_filled_again_in_the_next_decision(counted: bool) -> None:
    # The same vote with the same options in two decisions, the position changed between
    # them (boat 0 takes two more leaks, a pawn changes hands in boat 1): the second
    # decision's table is the new position's, not the first's; so too when each is a
    # new ballot (the game loop counts them) and a second voter of it asks.
    options = [0, 1, 2, 3, 4]
    buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
    buffer[: len(options)] = options
    shared = build(crew={(0, 0): (1, 1), (1, 1): (0, 2), (2, 2): (0, 2)}, leaks={0: 1})
    tables = []
    for crew, leaks in (
        ({(0, 0): (1, 1), (1, 1): (0, 2), (2, 2): (0, 2)}, {0: 1}),
        ({(0, 0): (1, 1), (1, 1): (0, 1), (1, 0): (0, 1), (2, 2): (0, 2)}, {0: 3}),
    ):
        fresh = build(crew=crew, leaks=leaks)
        for mine, theirs in zip(shared[:5], fresh[:5], strict=True):
            mine[...] = theirs
        if counted:
            kit.new_ballot_nb(shared)
        kit.fill_chances_nb(fresh, LEAK_VOTE)  # own_value_nb reads its chance tables
        for _voter in range(2):
            kit.fill_chances_nb(shared, LEAK_VOTE)
            assert np.array_equal(filled_chances(shared), filled_chances(fresh))
            kit.fill_own_values_nb(shared, LEAK_VOTE, buffer, len(options))
            for q in range(4):
                for k, code in enumerate(options):
                    own = kit.own_value_nb(fresh, q, LEAK_VOTE, code)
                    assert kit.own_of_nb(shared, q, k) == own
        tables.append([kit.own_of_nb(shared, q, k) for q in range(4) for k in range(5)])
    assert tables[0] != tables[1]


def leak_by_leak(pawns: int, leaks: int, free: int, steps_left: int, leaks_left: int) -> int:
    """The leaks a boat survives plus one, counted leak by leak: each takes a free seat
    while there is one, else a pawn and its seat (-1 sunk already, 0 it cannot sink)."""
    if leaks > pawns:
        return -1
    if steps_left <= 0 or leaks_left <= 0:
        return 0
    margin, spare, hits = pawns - leaks, free, 0
    while margin >= 0 and hits < leaks_left:
        if spare > 0:
            spare -= 1
            margin -= 1
        else:
            margin -= 2
        hits += 1
    return 0 if margin >= 0 else hits


def test_the_leaks_a_boat_survives_are_counted_as_leak_by_leak() -> None:
    # The kit counts them in closed form; every small boat, markers and track agree.
    grid = itertools.product(range(-1, 9), range(-1, 9), range(-2, 9), (0, 1, 2), range(-1, 12))
    for args in grid:
        assert kit._hits_nb(*args) == leak_by_leak(*args), args


def ballot_position(hats: list[int]):
    """Five players mid-game: boats with leaks, steps and mixed crews; boat 2 is voted on."""
    crew = {
        (0, 0): (1, 1),
        (0, 1): (0, 2),
        (1, 1): (1, 1),
        (1, 2): (0, 1),
        (2, 2): (1, 2),
        (2, 3): (0, 1),
        (2, 0): (0, 1),
        (3, 3): (1, 1),
        (3, 4): (0, 2),
        (4, 4): (1, 1),
        (5, 0): (0, 1),
    }
    return build(5, crew=crew, leaks={0: 1, 2: 1}, steps={1: 1, 3: 2}, hats=hats, boat=2)


@pytest.mark.parametrize("kind", [LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE])
def test_a_ballots_voters_share_its_tables_with_or_without_a_hat(kind: int) -> None:
    # One ballot's voters in turn on one set of buffers, as the game loop asks them: a
    # voter without a hat (one option fewer) may fill the tables another with a hat
    # reads, or the other way round. Each voter's answer, option values and predicted
    # tally must be those fresh buffers give it.
    hats = [0, 2, 0, 1, 3]
    shared = ballot_position(hats)
    kit.new_ballot_nb(shared)
    voters = [s for s in range(5) if kind != OVERBOARD_VOTE or shared[1][2, s].sum() > 0]
    asked = 0
    for seat in voters:
        options = legal(shared, seat, kind)
        buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
        buffer[: len(options)] = options
        for strategy, params in ((steward, {}), (hatkeeper, {"stake": 0.0}), (swimmer, {})):
            fresh = ballot_position(hats)
            answers = [
                ask(strategy, obs, seat, kind, options, seat, **params) for obs in (shared, fresh)
            ]
            assert answers[0] == answers[1], (strategy.name, seat)
            values = [obs[6][kit.VALUES : kit.VALUES + len(options)] for obs in (shared, fresh)]
            assert np.array_equal(values[0], values[1]), (strategy.name, seat)
            asked += 1
        if HAT in options:
            fresh = ballot_position(hats)
            for obs in (shared, fresh):
                kit.fill_vote_nb(obs, kind, buffer, len(options))
                kit.predict_tally_nb(obs, seat, kind, buffer, len(options))
            tallies = [obs[6][kit.TALLY : kit.TALLY + len(options)] for obs in (shared, fresh)]
            assert np.array_equal(tallies[0], tallies[1]), seat
    assert asked >= 9


@pytest.mark.parametrize("kind", [LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE, CHOOSE_LEAK, CHOOSE_MOVE])
def test_fill_vote_fills_the_table_once_a_ballot(kind: int) -> None:
    # The table fill_vote_nb makes ready holds own_value_nb of every option to every seat;
    # a second voter of the same ballot finds it filled, a new ballot fills it again.
    obs = ballot_position([1, 1, 1, 1, 1])
    fresh = ballot_position([1, 1, 1, 1, 1])
    kit.fill_chances_nb(fresh, kind)  # own_value_nb reads the chance tables
    options = legal(obs, 0, kind)
    buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
    buffer[: len(options)] = options
    fills = []
    for new_ballot in (True, False, True):
        if new_ballot:
            kit.new_ballot_nb(obs)
        kit.fill_vote_nb(obs, kind, buffer, len(options))
        for q in range(5):
            for k, code in enumerate(options):
                assert kit.own_of_nb(obs, q, k) == kit.own_value_nb(fresh, q, kind, code)
        fills.append(int(obs[5][kit._M_STAMP]))
    if kit.is_ballot_nb(kind):
        assert fills[1] == fills[0] and fills[2] == fills[1] + 1  # kept for the ballot
    else:
        assert fills[1] == fills[0] + 1 and fills[2] == fills[1] + 1  # the choice: afresh


def test_a_votes_table_follows_the_options_within_a_decision() -> None:
    # Asked in the same decision for other options (a tie among fewer boats), the table is
    # filled again for them, not read from the first call.
    crew = {(0, 0): (1, 1), (1, 1): (0, 2), (2, 2): (0, 2), (3, 0): (0, 1)}
    obs = build(crew=crew, leaks={0: 1})
    kit.fill_chances_nb(obs, CHOOSE_LEAK)
    firsts = []
    for options in ([0, 1, 2, 3, 4], [2, 0], [3, 1, 0]):
        buffer = np.zeros(MAX_OPTIONS, dtype=np.int64)
        buffer[: len(options)] = options
        kit.fill_own_values_nb(obs, CHOOSE_LEAK, buffer, len(options))
        for q in range(4):
            for k, code in enumerate(options):
                assert kit.own_of_nb(obs, q, k) == kit.own_value_nb(obs, q, CHOOSE_LEAK, code)
        firsts.append(tuple(kit.own_of_nb(obs, q, 0) for q in range(4)))
    assert len(set(firsts)) == 3  # a table kept from an earlier call would fail above


# --- in the compiled engine --------------------------------------------------------------


@pytest.mark.slow
def test_heuristics_beat_random_in_the_compiled_engine() -> None:
    # Passed as users' strategies (no code): the run compiles a dispatcher for them.
    table = [
        SeatStrategy(dataclasses.replace(s, code=None), tuple(v for _, v in s.params))
        for s in HEURISTICS
    ] + [SeatStrategy(random, ())]
    lineup = Lineup(tuple(table), rotate=True)
    games = 800
    records = play_games(LifeboatsRules(), 4, 3, games, lineup=lineup)
    wins = np.zeros(4)
    for seat in range(4):
        k = lineup.strategy_index(np.arange(games), seat)
        np.add.at(wins, k, records.seats[:, seat, SeatStat.WON])
    rates = wins / games
    assert rates[3] < 0.05, rates  # random
    assert (rates[:3] > 0.15).all(), rates
