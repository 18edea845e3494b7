"""Lifeboats from a position, and the search players that play from positions.

A game played straight through by the reference engine must equal the same game played
to its k-th decision, its position copied into the compiled engine and continued there
(for every k); a determinization changes nothing a seat has seen; ``mc`` and ``ismcts``
find a winning option and avoid a losing one in hand-built positions, answer within
their options and are reproducible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pytest
from balance.strategies.lifeboats import hatkeeper, ismcts, mc

from balance.core.dispatch import playable
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.random_ref import Stream
from balance.core.strategy import MAX_PARAMS, SeatStrategy, parse_strategy
from balance.games.lifeboats import engine, reference, search, search_nb
from balance.games.lifeboats.bridge import option_array, pack_position
from balance.games.lifeboats.engine import play_games
from balance.games.lifeboats.layout import (
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    HAT,
    KINDS,
    LANDED,
    LEAK_VOTE,
    MOVE_VOTE,
    OFFICER,
    OVERBOARD_VOTE,
    SUNK,
)
from balance.games.lifeboats.reference import Position, RandomPlayer
from balance.games.lifeboats.rules import LifeboatsRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

VOTES = (LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE)


@dataclass
class Asked:
    """One decision of a reference game, as it was asked and answered."""

    pos: Position  # as the seat was asked
    seat: int
    kind: int
    options: list[int]
    choice: int
    ballot: list[int]  # the votes cast before this one in its ballot
    streams: list[list[int]]  # every seat's stream state just after the answer


def voters(pos: Position, kind: int) -> list[int]:
    """The voters of a ballot of ``kind`` at ``pos``, from F clockwise."""
    order = pos.clockwise(pos.first())
    if kind == OVERBOARD_VOTE:
        return [s for s in order if sum(pos.crew[pos.boat][s]) > 0]
    return order


def record_game(
    monkeypatch: pytest.MonkeyPatch, rules: LifeboatsRules, players: int, seed: int, game: int
) -> tuple[reference.GameRecord, list[Asked]]:
    """A reference game of random players and every real decision asked in it."""
    asked: list[Asked] = []
    answers: list[int] = []  # every answer, forced ones too
    original = reference.ask

    def recording_ask(pos, seated, seat, kind, options):
        before = pos.copy()
        choice = original(pos, seated, seat, kind, options)
        ballot: list[int] = []
        if kind in VOTES:
            i = voters(before, kind).index(seat)
            ballot = answers[len(answers) - i :] if i else []
        answers.append(choice)
        if len(options) > 1:
            streams = [list(p.stream.state) for p in seated]
            asked.append(Asked(before, seat, kind, list(options), choice, ballot, streams))
        return choice

    monkeypatch.setattr(reference, "ask", recording_ask)
    record = reference.play_game(rules, players, seed, game)
    monkeypatch.setattr(reference, "ask", original)
    return record, asked


def continued(decision: Asked) -> reference.GameRecord:
    return search.play_on(
        decision.pos,
        decision.seat,
        decision.kind,
        decision.choice,
        decision.ballot,
        decision.streams,
    )


def check_every_decision(monkeypatch, rules, players, seed, game) -> set[int]:
    record, asked = record_game(monkeypatch, rules, players, seed, game)
    assert len(asked) > 30
    for k, decision in enumerate(asked):
        assert continued(decision) == record, (
            f"game {game}: continued after decision {k} ({KINDS[decision.kind]} of seat "
            f"{decision.seat}) it differs from the game played straight through"
        )
    return {d.kind for d in asked}


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(("players", "game"), [(3, 0), (4, 1), (5, 2), (6, 3)])
def test_a_game_continued_from_any_decision_is_the_game_played_through(
    monkeypatch: pytest.MonkeyPatch, players: int, game: int
) -> None:
    kinds = check_every_decision(monkeypatch, LifeboatsRules(), players, 11, game)
    assert {LEAK_VOTE, MOVE_VOTE} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_many_games_continued_from_any_decision(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    kinds: set[int] = set()
    for game in range(25):
        kinds |= check_every_decision(monkeypatch, LifeboatsRules(), players, 5, game)
    rules = LifeboatsRules(hats=1, stay_without_seat=True)  # default seats fit every count
    for game in range(10):
        kinds |= check_every_decision(monkeypatch, rules, players, 6, game)
    assert len(kinds) >= 9  # every kind but the rarest choices


# --- determinization --------------------------------------------------------------------


@pytest.mark.slow  # compiles the search: the long suite
def test_a_determinization_changes_nothing_the_seat_has_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, asked = record_game(monkeypatch, LifeboatsRules(), 5, 3, 0)
    ballots = [d for d in asked if d.kind in VOTES and d.ballot]
    assert ballots
    for d in asked[::3] + ballots:
        seen, drawn = search.determinize(d.pos, d.seat, d.kind, d.streams)
        assert seen == d.pos  # the position, hats and tallies as they were
        expected = voters(d.pos, d.kind)[: len(d.ballot)] if d.kind in VOTES else []
        assert len(drawn) == len(expected)
        for voter, vote in zip(expected, drawn, strict=True):
            assert vote in reference.legal_options(d.pos, voter, d.kind, boat=d.pos.boat)


@pytest.mark.slow  # compiles the search: the long suite
def test_determinizations_cover_every_vote_a_hidden_voter_may_cast(position) -> None:
    pos = position(["Aa", "Bb", "Cc", ""], hats=1, round=3)  # F = seat 2
    seen: set[tuple[int, ...]] = set()
    for game in range(300):
        streams = [Stream(1, game, 1 + s).state for s in range(3)]
        after, drawn = search.determinize(pos, 1, MOVE_VOTE, streams)
        assert after == pos
        seen.add(tuple(drawn))
    # Seat 1 votes after seats 2 and 0: four boats or a hat each.
    assert seen == {(a, b) for a in (0, 1, 2, 3, HAT) for b in (0, 1, 2, 3, HAT)}


@pytest.mark.slow  # compiles the search: the long suite
def test_with_hatkeeper_playouts_the_hidden_votes_are_the_hatkeepers_own(position) -> None:
    """The opponent model of ``rollout=hatkeeper``: the votes drawn for the voters asked
    before the searching seat are the ones the hatkeeper answers for them, from the
    same streams (parameters 0, as :func:`search.determinize` gives every seat)."""
    pos = position(["Aa", "Bb", "Cc", ""], hats=1, round=3)  # F = seat 2
    params = np.zeros(MAX_PARAMS, dtype=np.float64)
    for game in range(20):
        streams = [Stream(1, game, 1 + s).state for s in range(3)]
        after, drawn = search.determinize(pos, 1, MOVE_VOTE, streams, rollout=hatkeeper.code)
        assert after == pos
        expected = []
        for voter in (2, 0):  # seat 1 votes after seats 2 and 0
            options = reference.legal_options(pos, voter, MOVE_VOTE, boat=pos.boat)
            rng = np.array(streams[voter], dtype=np.uint64)
            k = playable(hatkeeper.decisions["decide"], hatkeeper, "decide")(
                pack_position(pos),
                voter,
                MOVE_VOTE,
                option_array(options),
                len(options),
                params,
                rng,
            )
            expected.append(options[int(k)])
        assert drawn == expected


# --- search players in hand-built positions ---------------------------------------------


def decide(strategy_text: str, pos: Position, seat: int, kind: int, options: list[int], seed=1):
    chosen = parse_strategy(strategy_text, {"mc": mc, "ismcts": ismcts}, "lifeboats")
    rng = np.array(Stream(seed, 0, 1 + seat).state, dtype=np.uint64)
    # A search player plays its playouts with the shipped strategies bound in.
    k = playable(chosen.strategy.decisions["decide"], as_in_a_run=True)(
        pack_position(pos), seat, kind, option_array(options), len(options), chosen.vector(), rng
    )
    return options[int(k)]


def endgame(build_position) -> Position:
    """Two boats afloat, each a step from island A with one officer: seat 0's and seat
    1's, both on 10 points. The boat that moves lands (+8 for its officer); the other
    officer must swim out with nowhere to go and drowns: moving one's own boat wins."""
    pos = build_position(["A..", "B..", "sunk", "landed"], seats=3)
    pos.steps = [2, 2, 0, 3]
    pos.score = [10, 10, 0]
    pos.state[3] = LANDED
    pos.landing_order = [0, 0, 0, 1]
    pos.first_landed = 3
    pos.state[2] = SUNK
    pos.hats = [0, 0, 0]
    return pos


@pytest.mark.slow  # compiles the search: the long suite
@pytest.mark.parametrize(
    "strategy",
    [
        "mc:playouts=4",
        "ismcts:iterations=16",
        # Ties to the random rollout's own (random) choice, which is often the losing
        # move here: the search must leave it for the option that won more playouts.
        "mc:playouts=4,tiebreak=rollout",
    ],
)
def test_a_search_player_finds_the_winning_move_and_avoids_the_losing_one(
    strategy: str, position
) -> None:
    pos = endgame(position)
    assert decide(strategy, pos, 0, CHOOSE_MOVE, [0, 1]) == 0
    assert decide(strategy, pos, 1, CHOOSE_MOVE, [0, 1]) == 1
    # A leak that sinks a boat: each has one leak and one officer; the other boat then
    # lands alone. Leaking one's own boat loses at once.
    pos.leaks = [1, 1, 0, 0]
    assert decide(strategy, pos, 0, CHOOSE_LEAK, [0, 1]) == 1
    assert decide(strategy, pos, 1, CHOOSE_LEAK, [0, 1]) == 0


def heuristic_answer(pos: Position, seat: int, kind: int, options: list[int], seed: int) -> int:
    """The option the shipped hatkeeper (default parameters) plays, from the stream that
    :func:`decide` gives the search player."""
    rng = np.array(Stream(seed, 0, 1 + seat).state, dtype=np.uint64)
    params = np.zeros(MAX_PARAMS, dtype=np.float64)
    params[: len(hatkeeper.params)] = [v for _, v in hatkeeper.params]
    k = playable(hatkeeper.decisions["decide"], hatkeeper, "decide")(
        pack_position(pos), seat, kind, option_array(options), len(options), params, rng
    )
    return options[int(k)]


@pytest.mark.slow  # compiles the search: the long suite
def test_mc_with_tiebreak_rollout_plays_the_heuristic_where_every_option_loses(
    position,
) -> None:
    """Seat 2 has no pawn and no point left in the endgame: it loses whatever it votes,
    every option wins no playout, and the hatkeeper's own answer (a coin toss between
    the two equal boats, from the same stream) is played; ``tiebreak=random`` breaks the
    tie with a later draw and so sometimes answers otherwise."""
    pos = endgame(position)
    kept = "mc:playouts=2,rollout=hatkeeper,tiebreak=rollout"
    tossed = "mc:playouts=2,rollout=hatkeeper"
    differs = 0
    for seed in range(1, 13):
        expected = heuristic_answer(pos, 2, MOVE_VOTE, [0, 1], seed)
        assert decide(kept, pos, 2, MOVE_VOTE, [0, 1], seed) == expected
        differs += decide(tossed, pos, 2, MOVE_VOTE, [0, 1], seed) != expected
    assert differs > 0


def test_the_endgame_is_as_the_scenario_says(position) -> None:
    """The scenario above, played out by the reference engine with random players."""
    for choice, winner in ((0, 0), (1, 1)):
        pos = endgame(position)
        players = [RandomPlayer(Stream(3, 0, 1 + s)) for s in range(3)]
        pos.steps[choice] += 1
        reference.land(pos, choice)
        reference.swim_phase(pos, players)
        assert pos.crew[1 - choice][1 - choice][OFFICER] == 0  # drowned
        assert pos.score[winner] == 18


@pytest.mark.slow  # compiles the search: the long suite
def test_search_players_answer_within_their_options_and_repeat_themselves() -> None:
    rules = LifeboatsRules()
    lineup = Lineup(
        (
            SeatStrategy(mc, (2.0, 0.0)),
            SeatStrategy(ismcts, (8.0, 0.0, 0.7)),
            SeatStrategy(mc, (1.0, 2.0, 1.0)),  # hatkeeper playouts, ties to its choice
        ),
        rotate=True,
    )
    first = play_games(rules, 3, 7, 6, 0, lineup)
    again = play_games(rules, 3, 7, 6, 0, lineup)
    assert np.array_equal(first.seats, again.seats)
    assert np.array_equal(first.games, again.games)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mc:playouts=0", "parameter 'playouts' must be from 1 to 65536, not 0"),
        ("ismcts:iterations=0", "parameter 'iterations' must be from 1 to 65536, not 0"),
        ("mc:rollout=greedy", "parameter 'rollout' needs a number or one of random, steward"),
        ("mc:budget=3", "bad parameter 'budget=3'; parameters: playouts, rollout, tiebreak"),
        ("mc:tiebreak=first", "parameter 'tiebreak' needs a number or one of random, rollout"),
        ("mc:tiebreak=2", "parameter 'tiebreak' must be from 0 to 1, not 2"),
    ],
)
def test_bad_search_parameters_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BalanceError, match=re.escape(message)):
        parse_strategy(text, {"mc": mc, "ismcts": ismcts}, "lifeboats")


def test_a_rollout_takes_a_word_and_the_label_shows_it() -> None:
    chosen = parse_strategy("ismcts:iterations=64,rollout=steward", {"ismcts": ismcts}, "x")
    assert chosen.label == "ismcts(iterations=64,rollout=steward)"
    assert chosen.vector()[:3].tolist() == [64.0, 1.0, 0.7]
    chosen = parse_strategy("mc:rollout=hatkeeper,tiebreak=rollout", {"mc": mc}, "x")
    assert chosen.label == "mc(rollout=hatkeeper,tiebreak=rollout)"
    assert chosen.vector()[:3].tolist() == [16.0, 2.0, float(search_nb.TIEBREAK_ROLLOUT)]
    assert parse_strategy("mc", {"mc": mc}, "x").vector()[2] == search_nb.TIEBREAK_RANDOM


@pytest.mark.slow  # compiles a search loop: the long suite (a few seconds once compiled)
def test_mc_with_hatkeeper_playouts_beats_three_hatkeepers() -> None:
    """The rollout algorithm against the heuristic it is built on: one seat of
    ``mc:playouts=1,rollout=hatkeeper,tiebreak=rollout`` wins more often than each of
    three hatkeepers (seats rotated, 48 games); the 95% t interval of the paired per-game
    difference (its win less the hatkeepers' mean win) lies above 0."""
    from scipy import stats

    from balance import api

    searcher = "mc:playouts=1,rollout=hatkeeper,tiebreak=rollout"
    strategies = [searcher] + ["hatkeeper"] * 3
    run = api.simulate("lifeboats", 4, 48, 3, strategies, rotate_seats=True, threads=1)
    seats = run.seats
    mine = seats["strategy"] != "hatkeeper"
    ours = seats[mine].groupby("game")["won"].mean()
    theirs = seats[~mine].groupby("game")["won"].mean()
    diff = (ours - theirs).to_numpy()
    low, _ = stats.t.interval(0.95, len(diff) - 1, loc=diff.mean(), scale=stats.sem(diff))
    assert len(diff) == 48 and low > 0


@pytest.mark.slow  # compiles a search loop: the long suite
def test_search_players_play_the_same_games_on_one_thread_and_on_two() -> None:
    from balance import api

    strategies = [
        "mc:playouts=2",
        "ismcts:iterations=8",
        "mc:playouts=1,rollout=hatkeeper,tiebreak=rollout",
    ]
    runs = [
        api.simulate("lifeboats", 3, 8, 5, strategies, rotate_seats=True, threads=t, batch=2)
        for t in (1, 2)
    ]
    assert runs[0].seats.equals(runs[1].seats)
    assert runs[0].games.equals(runs[1].games)
