"""The compiled engine and the readable reference play identical games from the same seeds.

Whole games are compared record for record (:meth:`Records.game_record` against the
reference's :class:`GameRecord`); single phases are compared position for position, the
compiled phase run on the reference's position just before it.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.lifeboats import SHIPPED
from numba import njit

from balance.core.dispatch import USER_CODES
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.random_nb import below_nb
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy, Strategy
from balance.games.lifeboats import engine as compiled
from balance.games.lifeboats import engine_nb as nb
from balance.games.lifeboats import reference
from balance.games.lifeboats.bridge import lineup_player_factory
from balance.games.lifeboats.layout import HAT, MAX_PLAYERS, Seat
from balance.games.lifeboats.reference import Position, RandomPlayer
from balance.games.lifeboats.rules import LifeboatsRules


def assert_agree(
    rules: LifeboatsRules,
    players: int,
    seed: int,
    games: int,
    first: int = 0,
    lineup: Lineup | None = None,
) -> list[reference.GameRecord]:
    """Play ``games`` games on both engines; every record must be the same. Returns them."""
    played = compiled.play_games(rules, players, seed, games, first_game=first, lineup=lineup)
    records = []
    for g in range(games):
        game = first + g
        make_player = lineup_player_factory(lineup, rules, game) if lineup else None
        hatless = compiled.hatless_seat(lineup, game) if lineup else -1
        expected = reference.play_game(
            rules, players, seed, game, make_player=make_player, hatless=hatless
        )
        assert played.game_record(g) == expected, f"game {game} differs"
        records.append(expected)
    return records


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_engines_agree_on_400_games(players: int) -> None:
    # The fast check; the slow suite plays 12,000 a player count.
    records = assert_agree(LifeboatsRules(), players, seed=20261126, games=400)
    # The games used the rules the tests mean to cover.
    assert any(r.revotes for r in records)
    assert any(r.ties_broken for r in records)
    assert any(any(r.overboard) for r in records)
    assert any(any(r.no_seat) for r in records)
    assert {r.tie_rule for r in records} >= {0, 1}


RULE_SETS = {
    "fewer-seats": LifeboatsRules(seats_per_boat=4, officers=(1, 1, 1, 1), sailors=(3, 3, 2, 2)),
    "cramped": LifeboatsRules(seats_per_boat=3, officers=(1, 1, 1, 1), sailors=(2, 2, 2, 2)),
    "longer-track": LifeboatsRules(track_length=6),
    "fewer-leaks": LifeboatsRules(leaks=4),
    "no-leaks": LifeboatsRules(leaks=0, track_length=2),
    "no-hats": LifeboatsRules(hats=0),
    "many-hats": LifeboatsRules(hats=9),
    "other-islands": LifeboatsRules(
        lane_islands=(3, 0, 1, 2, 3, 2, 1, 0, 0),
        officer_points=(9, 7, 5, 3),
        sailor_points=(5, 4, 3, 0),
    ),
    "seven-lanes-one-island": LifeboatsRules(
        lane_islands=(0,) * 7, officer_points=(3,), sailor_points=(3,)
    ),
    "round-cap-5": LifeboatsRules(round_cap=5),
    "stay-without-seat": LifeboatsRules(stay_without_seat=True),
}


@pytest.mark.parametrize("sailors", [(5, 5, 5, 5, 4, 4), (0, 6, 1, 4, 4, 2)], ids=str)
def test_engines_agree_with_sailors_by_seat(sailors: tuple[int, ...]) -> None:
    rules = LifeboatsRules(sailors_by_seat=sailors)
    records = assert_agree(rules, 6, seed=31, games=40)
    for r in records:
        assert r.placed_sailors == list(sailors)
        assert r.placed_officers == [2] * 6


@pytest.mark.slow
@pytest.mark.parametrize("players", [5, 6])
def test_engines_agree_with_sailors_by_seat_and_staying_long(players: int) -> None:
    sailors = (5, 5, 5, 5, 4, 4)[:players]
    for rules in (
        LifeboatsRules(sailors_by_seat=sailors),
        LifeboatsRules(sailors_by_seat=sailors, stay_without_seat=True),
    ):
        assert_agree(rules, players, seed=77, games=1_500)


def test_staying_without_a_seat_changes_games_and_saves_swimmers() -> None:
    """Same seeds, both rules: the switch changes games, and swimmers with no seat become
    rare (a seat can still be taken by a swimmer placed earlier)."""
    compulsory = assert_agree(LifeboatsRules(), 3, seed=8, games=60)
    stay = assert_agree(LifeboatsRules(stay_without_seat=True), 3, seed=8, games=60)
    drowned = [sum(sum(r.no_seat) for r in records) for records in (compulsory, stay)]
    assert drowned[0] > 5 * max(drowned[1], 1)
    assert compulsory != stay


def test_a_round_cap_ends_games_unfinished_on_both_engines() -> None:
    records = assert_agree(LifeboatsRules(round_cap=9), 3, seed=4, games=300)
    unfinished = [r for r in records if not r.finished]
    assert unfinished and len(unfinished) < len(records)
    for r in unfinished:
        assert (r.rounds, r.winners, r.tie_rule, any(r.won)) == (9, 0, -1, False)


def _lineup(strategies, rotate: bool, restricted: tuple[str, ...] = ()) -> Lineup:
    return Lineup(
        tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in strategies),
        rotate=rotate,
        restricted=restricted,
    )


#: Shipped strategies the compiled dispatcher plays (the others are not wired in yet).
WIRED = [s for s in SHIPPED if s.code is not None]


@pytest.mark.parametrize("players", [4, 5])
def test_engines_agree_with_rotated_lineups(players: int) -> None:
    strategies = [WIRED[k % len(WIRED)] for k in range(players)]
    lineup = _lineup(strategies, rotate=True)
    assert_agree(LifeboatsRules(), players, seed=5, games=300, first=7, lineup=lineup)


def test_the_game_loop_holds_obs_only_for_the_strategies_that_read_it() -> None:
    """The game loop copies ``obs`` for the strategies once a game, passed by address,
    only when a seat's strategy reads it (``engine_nb.sees_obs_nb``): every wired shipped
    strategy but the uniform-random player, and a user's; never a scenario's script or
    the halting code. A strategy taken for one that does not read it would read a copy
    never made."""
    for strategy in WIRED:
        codes = np.zeros(MAX_PLAYERS, dtype=np.int64)
        codes[2] = strategy.code
        assert nb.sees_obs_nb(codes, 3) == (strategy.name != "random"), strategy.name
        assert not nb.sees_obs_nb(codes, 2), strategy.name  # only the table's seats count
    assert nb.sees_obs_nb(np.array([0, USER_CODES, 0], dtype=np.int64), 3)
    assert not nb.sees_obs_nb(np.array([nb.SCRIPTED, nb.HALT, 0], dtype=np.int64), 3)


@pytest.mark.parametrize("players", [3, 5])
def test_engines_agree_when_a_seat_may_never_play_a_hat(players: int) -> None:
    """Restricted play: the restricted seat of each game never plays a hat, on both engines."""
    strategies = [WIRED[k % len(WIRED)] for k in range(players)]
    lineup = _lineup(strategies, rotate=True, restricted=("hat",))
    records = assert_agree(LifeboatsRules(), players, seed=8, games=300, lineup=lineup)
    seat = lineup.restricted_seat(np.arange(300))
    for game, record in enumerate(records):
        assert record.hats_used[seat[game]] == 0
    # The others still play hats, and the restricted seat's hats are simply never offered.
    assert sum(sum(r.hats_used) for r in records) > 0
    free = compiled.play_games(
        LifeboatsRules(), players, 8, 300, lineup=_lineup(strategies, rotate=True)
    )
    assert free.seats[np.arange(300), seat, nb.SeatStat.HATS_USED].sum() > 0


def test_restricted_play_forbids_only_the_hat() -> None:
    with pytest.raises(BalanceError, match="can forbid only hat"):
        compiled.ENGINE.kernel_inputs(_lineup(WIRED[:1] * 3, rotate=False, restricted=("swim",)))


# ---------------------------------------------------------------------------
# Phase by phase
# ---------------------------------------------------------------------------


def _phase_snapshots(rules: LifeboatsRules, players: int, seed: int, game: int):
    """Every phase of a reference game: (phase name, position before, streams before,
    position after)."""
    seated = [RandomPlayer(Stream(seed, game, 1 + s)) for s in range(players)]
    pos = Position.start(rules, players)
    steps = []

    def run(name: str) -> None:
        before, streams = pos.copy(), [list(p.stream.state) for p in seated]
        getattr(reference, name)(pos, seated)
        steps.append((name, before, streams, pos.copy()))

    run("set_up")
    while True:
        for name in ("leak_phase", "move_phase", "swim_phase"):
            run(name)
            if not pos.afloat():
                return steps
        if pos.round >= rules.round_cap:
            return steps
        pos.round += 1


@pytest.mark.parametrize(
    "rules",
    [LifeboatsRules(), RULE_SETS["cramped"], RULE_SETS["many-hats"]],
    ids=["default", "cramped", "many-hats"],
)
def test_every_compiled_phase_agrees_with_the_reference(rules: LifeboatsRules) -> None:
    for players, game in ((3, 0), (4, 1), (5, 2), (6, 3)):
        for name, before, streams, after in _phase_snapshots(rules, players, 17, game):
            seated = []
            for state in streams:
                player = RandomPlayer(Stream(0, 0, 0))
                player.stream.state = list(state)
                seated.append(player)
            got = getattr(compiled, name)(before, seated)
            assert got == after, f"{name} of round {before.round}, {players} players"


def test_compiled_phases_leave_their_position_alone() -> None:
    _, before, _, _ = _phase_snapshots(LifeboatsRules(), 4, 1, 0)[1]
    kept = before.copy()
    seated = [RandomPlayer(Stream(1, 0, 1 + s)) for s in range(4)]
    compiled.leak_phase(before, seated)
    assert before == kept


# ---------------------------------------------------------------------------
# Strategies that answer outside their options
# ---------------------------------------------------------------------------


def test_an_illegal_answer_names_the_strategy() -> None:
    lineup = _lineup([WIRED[0]] * 4, rotate=False)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    error[[nb.Error.SEAT, nb.Error.KIND, nb.Error.VALUE, nb.Error.COUNT, nb.Error.GAME]] = (
        2,
        9,
        7,
        3,
        41,
    )
    message = compiled.ENGINE.illegal_choice_message(lineup, error)
    assert message == (
        "strategy 'random' (seat 2) made an illegal 'decide' decision in game 41: "
        "answered 7 to a 'swim out' decision of 3 options (0..2)"
    )


@njit
def _hatty(obs, seat, kind, options, count, params, rng):
    """Plays a hat while it holds more than ``params[0]``; answers ``count`` (illegal) if
    ``params[1]`` is set; otherwise random."""
    if params[1] > 0:
        return count
    if options[count - 1] == HAT and obs[2][seat, Seat.HATS] > params[0]:
        return count - 1
    return below_nb(rng, count)


HATTY = Strategy(
    "lifeboats",
    "hatty",
    "Plays its hats early.",
    {"decide": _hatty},
    params=(("keep", 1.0), ("illegal", 0.0)),
)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 6])
def test_engines_agree_with_a_users_strategy(players: int) -> None:
    seats = [SeatStrategy(HATTY, (float(k % 3), 0.0)) for k in range(players - 1)]
    lineup = Lineup((*seats, SeatStrategy(WIRED[0], ())), rotate=True)
    assert_agree(LifeboatsRules(), players, seed=12, games=600, lineup=lineup)


@pytest.mark.slow
def test_a_users_illegal_answer_stops_the_run_naming_it() -> None:
    lineup = Lineup(
        (SeatStrategy(WIRED[0], ()), SeatStrategy(HATTY, (1.0, 1.0)), SeatStrategy(WIRED[0], ())),
    )
    with pytest.raises(BalanceError, match=r"strategy 'hatty\(illegal=1\)' \(seat 1\)"):
        compiled.play_games(LifeboatsRules(), 3, 1, 10, lineup=lineup)


# ---------------------------------------------------------------------------
# Many more games
# ---------------------------------------------------------------------------
