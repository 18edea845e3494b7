"""La Planche played on from a position, its determinization, and the search players.

A game played straight through by the reference engine is the game the compiled engine
plays to turn k, copies, and continues, for every k. A determinization keeps what the
searching seat has seen and draws the colours it cannot see. The search players find a
win in one and avoid a loss in one, answer only legal options, and play the same games
from the same seed whatever the thread count.
"""

from __future__ import annotations

import numpy as np
import pytest
from balance.strategies.la_planche import detective, ismcts, mc, protector
from balance.strategies.la_planche import random as random_strategy
from cli_helpers import assert_one_line_error, call_main

from balance.api import simulate
from balance.core.dispatch import playable, read_only_view
from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.strategy import MAX_PARAMS, SeatStrategy, parse_strategy
from balance.games.la_planche import engine, search_nb
from balance.games.la_planche.bridge import lineup_player_factory, option_arrays, pack_position
from balance.games.la_planche.engine import play_games
from balance.games.la_planche.moves_nb import ADVANCE, SWAP, State
from balance.games.la_planche.reference import Position, legal_options, play_game
from balance.games.la_planche.rules import COLOURS, N_COLOURS, LaPlancheRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

Meta = search_nb.Meta


def _seats(strategies) -> tuple[SeatStrategy, ...]:
    return tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in strategies)


def _arrays(strategies) -> tuple[np.ndarray, np.ndarray]:
    seats = _seats(strategies)
    codes = np.array([s.strategy.code for s in seats], dtype=np.int64)
    params = np.stack([s.vector() for s in seats])
    return codes, params


def _outcome(pos: tuple, n: int, rules: LaPlancheRules) -> dict:
    state, colours, fell, meta = pos[1], pos[3], pos[5], pos[6]
    status = int(meta[Meta.STATUS])
    return {
        "turns": int(meta[Meta.TURNS]),
        "finished": status == search_nb.FINISHED,
        "rounds": int(state[State.ROUND]),
        "last_colour": int(meta[Meta.LAST]),
        "fell": [int(c) for c in fell[: meta[Meta.FALLS]]],
        "won": [bool(meta[Meta.WON + s]) for s in range(n)],
        "colour": [int(c) for c in colours],
        "score": [int(state[State.SCORE + s]) for s in range(n)] if rules.rounds else [0] * n,
    }


def _expected(rules: LaPlancheRules, n: int, seed: int, game: int, strategies) -> dict:
    lineup = Lineup(_seats(strategies))
    record = play_game(rules, n, seed, game, make_player=lineup_player_factory(lineup, rules, game))
    return {
        "turns": record.turns,
        "finished": record.finished,
        "rounds": record.rounds,
        "last_colour": record.last_colour,
        "fell": record.fell,
        "won": record.won,
        "colour": record.colour,
        "score": record.score,
    }


def assert_resumes(rules: LaPlancheRules, strategies, seed: int, game: int) -> int:
    """Play game ``game`` to every turn k, copy the position and play the copy on: each
    copy ends as the reference engine's game. Returns the game's length in turns."""
    n = len(strategies)
    # Read-only, as a search player's positions hold the rules in a run (the loop passes
    # it the game's arrays read-only): the search compiles once for both.
    packed = read_only_view(rules.to_array())
    codes, params = _arrays(strategies)
    rows = np.arange(n + 1, dtype=np.int64)
    work = search_nb.new_work_nb(n)
    expected = _expected(rules, n, seed, game, strategies)
    k = 0
    while True:
        pos = search_nb.new_position_nb(n)
        rng = np.zeros((n + 1, 4), dtype=np.uint64)
        search_nb.start_game_nb(pos, packed, n, seed, game, rng)
        status = search_nb.run_nb(pos, packed, n, codes, params, rng, rows, work, k)
        copy = search_nb.new_position_nb(n)
        search_nb.copy_position_nb(pos, copy)
        pos[0][:] = -7  # the copy shares nothing with the original
        pos[6][:] = -7
        search_nb.run_nb(copy, packed, n, codes, params, rng.copy(), rows, work, 1 << 62)
        assert _outcome(copy, n, rules) == expected, f"game {game} resumed after {k} turns"
        if status != search_nb.PLAYING:
            return k
        k += 1


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(
    ("rules", "strategies", "seed"),
    [
        (LaPlancheRules(), (random_strategy,) * 4, 1),
        (LaPlancheRules(), (detective, protector, random_strategy), 2),
        (LaPlancheRules(rounds=True, turn_cap=30), (protector, random_strategy), 3),
    ],
    ids=["random-4", "mixed-3", "rounds-2-capped"],
)
def test_a_game_resumed_from_any_turn_is_the_reference_game(rules, strategies, seed) -> None:
    length = assert_resumes(rules, strategies, seed, game=11)
    assert length > 10


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rounds", [False, True], ids=["single", "rounds"])
def test_many_games_resumed_from_any_turn_are_the_reference_games(players, rounds) -> None:
    strategies = (detective, protector, random_strategy, detective)[:players]
    for game in range(12):
        assert_resumes(LaPlancheRules(rounds=rounds), strategies, seed=40 + players, game=game)


def _obs(text: str, players: int = 4, evidence=(), rounds: bool = False) -> tuple:
    line = [-1 if ch == "." else COLOURS.index(ch) for ch in text]
    pos = Position(
        players=players,
        spaces=len(line),
        line=line,
        evidence=[list(r) for r in evidence] or [[0] * 4 for _ in range(players)],
        scores=[0] * players,
        round=1,
        turn=5,
    )
    return pos, pack_position(pos, LaPlancheRules(spaces=len(line), rounds=rounds))


def test_a_determinization_keeps_what_the_seat_has_seen_and_covers_the_rest() -> None:
    evidence = [[1, 0, -2, 0], [0, 3, 0, -1], [0, 0, 0, 0], [2, 0, 0, 0]]
    _, obs = _obs("YRGBYRGB..YRGBYR..", evidence=evidence)
    seen = [np.array(obs[k]).copy() for k in (0, 1, 4)]
    pos = search_nb.new_position_nb(4)
    rng = np.zeros(4, dtype=np.uint64)
    rng[:] = [1, 2, 3, 4]
    drawn = np.zeros((4, N_COLOURS), dtype=np.int64)
    for _ in range(600):
        search_nb.determinize_nb(obs, 2, 1, pos, rng)
        line, state, ev, colours, owner, meta = pos[0], pos[1], pos[2], pos[3], pos[4], pos[6]
        assert np.array_equal(line, seen[0]) and np.array_equal(state, seen[1])
        assert np.array_equal(ev, seen[2])
        assert colours[2] == 1  # its own colour
        assert sorted(colours) == [0, 1, 2, 3]  # four players own the four colours
        assert all(owner[colours[s]] == s for s in range(4))
        assert meta[Meta.SEAT] == 2 and meta[Meta.STATUS] == search_nb.PLAYING
        for s in range(4):
            drawn[s, colours[s]] += 1
    for k in (0, 1, 4):  # the observation itself is never touched
        assert np.array_equal(np.array(obs[k]), seen[[0, 1, 4].index(k)])
    for s in (0, 1, 3):  # each other seat gets each colour but the searcher's, about 1 in 3
        assert drawn[s, 1] == 0
        assert all(140 < drawn[s, c] < 260 for c in (0, 2, 3)), drawn


def test_with_two_players_the_unseen_colours_may_belong_to_nobody() -> None:
    _, obs = _obs("YRGBYRGB..YRGBYR..", players=2)
    pos = search_nb.new_position_nb(2)
    rng = np.array([5, 6, 7, 8], dtype=np.uint64)
    seen = set()
    for _ in range(300):
        search_nb.determinize_nb(obs, 0, 3, pos, rng)
        colours, owner = pos[3], pos[4]
        assert colours[0] == 3 and colours[1] != 3
        assert int((owner >= 0).sum()) == 2
        seen.add(int(colours[1]))
    assert seen == {0, 1, 2}


def test_the_rollout_parameters_are_the_shipped_defaults() -> None:
    for strategy in (random_strategy, protector, detective):
        row = search_nb.ROLLOUT_PARAMS[strategy.code]
        values = [v for _, v in strategy.params]
        assert list(row[: len(values)]) == values
        assert mc.param_choices["rollout"][strategy.name] == strategy.code


#: Guided search: the evidence guess, detective playouts over the 2 best-rated options,
#: the detective's choice kept unless the playouts clearly beat it.
GUIDED = {"rollout": 2.0, "guess": 1.0, "width": 2.0, "margin": 2.0}
GUIDED_TREE = {"rollout": 2.0, "guess": 1.0, "width": 2.0}  # ismcts has no margin


def _vector(which, budget, extra=None) -> np.ndarray:
    params = np.zeros(MAX_PARAMS)
    names = [name for name, _ in which.params]
    params[: len(names)] = [v for _, v in which.params]
    params[0] = budget
    for name, value in (extra or {}).items():
        params[names.index(name)] = value
    return params


def _search(which, obs, seat, colour, symbol, options, budget, seed, extra=None):
    """The choose decision of ``which`` (mc or ismcts) over ``options`` of ``symbol``."""
    params = _vector(which, budget, extra)
    opt_a, opt_b = option_arrays(options)
    rng = np.array([seed, 2, 3, 4], dtype=np.uint64)
    choose = playable(which.decisions["choose"], as_in_a_run=True)  # playouts' strategies bound
    return choose(obs, seat, colour, symbol, opt_a, opt_b, len(options), params, rng)


SEARCHERS = [(mc, 8, None), (ismcts, 32, None), (mc, 8, GUIDED), (ismcts, 32, GUIDED_TREE)]
SEARCHER_IDS = ["mc", "ismcts", "mc-guided", "ismcts-guided"]


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(("which", "budget", "extra"), SEARCHERS, ids=SEARCHER_IDS)
def test_a_search_player_takes_the_win_in_one_and_avoids_the_loss_in_one(
    which, budget, extra
) -> None:
    # Two prisoners: a yellow on the edge, a red further back. Advancing the yellow makes
    # him fall: the red is the last, so red's owner wins at once and yellow's loses.
    pos, obs = _obs(".........R.......Y", players=3)
    options = legal_options(pos, ADVANCE)
    assert options == [(9, -1), (17, -1)]
    for seed in range(1, 6):
        red = _search(which, obs, 1, COLOURS.index("R"), ADVANCE, options, budget, seed, extra)
        assert red == 1
        yellow = _search(which, obs, 1, COLOURS.index("Y"), ADVANCE, options, budget, seed, extra)
        assert yellow == 0


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(("which", "budget", "extra"), SEARCHERS, ids=SEARCHER_IDS)
def test_a_search_player_picks_the_symbol_with_the_winning_option(which, budget, extra) -> None:
    _, obs = _obs(".........R.......Y", players=3)
    params = _vector(which, budget, extra)
    for seed in range(1, 6):
        rng = np.array([seed, 9, 9, 9], dtype=np.uint64)
        symbol = playable(which.decisions["symbol"], as_in_a_run=True)
        # Swap (no win in one) or Advance (the yellow falls): red's owner advances.
        assert symbol(obs, 0, COLOURS.index("R"), SWAP, ADVANCE, params, rng) == 1
        assert symbol(obs, 0, COLOURS.index("R"), ADVANCE, SWAP, params, rng) == 0


@pytest.mark.slow  # compiles the search: the long suite
@pytest.mark.parametrize("which", [mc, ismcts], ids=["mc", "ismcts"])
def test_a_search_player_answers_a_legal_option_and_repeats_itself(which) -> None:
    pos, obs = _obs("YRGBYRGB..YRGBYR..")
    options = legal_options(pos, SWAP)
    answers = [_search(which, obs, 0, 2, SWAP, options, 2, seed) for seed in range(1, 9)]
    assert all(0 <= k < len(options) for k in answers)
    again = [_search(which, obs, 0, 2, SWAP, options, 2, seed) for seed in range(1, 9)]
    assert answers == again


@pytest.mark.parametrize(
    "text",
    ["mc:playouts=0", "ismcts:iterations=0", "mc:rollout=greedy", "ismcts:depth=3", "mcts"],
)
def test_bad_search_parameters_are_one_line_errors(text: str) -> None:
    shipped = {s.name: s for s in (random_strategy, protector, detective, mc, ismcts)}
    with pytest.raises(BalanceError) as error:
        parse_strategy(text, shipped, "la-planche")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("mc:playouts=0", "from 1 to 65536"),
        ("ismcts:iterations=0", "from 1 to 65536"),
        ("ismcts:rollout=mc", "one of random, protector, detective"),
    ],
)
def test_the_command_refuses_a_bad_search_player_in_one_line(
    monkeypatch, capsys, text: str, fragment: str
) -> None:
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "la-planche", "-p", "3", "--strategy", text, "-g", "5"
    )
    assert_one_line_error(code, out, err, fragment)


@pytest.mark.slow  # compiles a search loop: the long suite
def test_a_run_with_search_players_agrees_with_the_reference_and_any_thread_count() -> None:
    # The one test of the default suite that compiles the game loop with search players.
    strategies = [
        "mc:playouts=2,rollout=detective,guess=evidence,width=3,margin=1",
        "ismcts:iterations=8,rollout=protector,guess=evidence,width=4",
        "mc:playouts=2",
    ]
    runs = [
        simulate(
            "la-planche",
            players=3,
            games=6,
            seed=21,
            strategies=strategies,
            threads=threads,
            batch=batch,
        )
        for threads, batch in ((1, 6), (2, 2))
    ]
    one, two = (run.table("games") for run in runs)
    assert one.equals(two)
    assert runs[0].table("seats").equals(runs[1].table("seats"))
    shipped = {"mc": mc, "ismcts": ismcts}
    lineup = Lineup(tuple(parse_strategy(s, shipped, "la-planche") for s in strategies))
    rules = LaPlancheRules()
    compiled = play_games(rules, 3, 21, 6, lineup=lineup)
    for g in range(6):
        expected = play_game(rules, 3, 21, g, make_player=lineup_player_factory(lineup, rules, g))
        assert compiled.game_record(g) == expected


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [False, True], ids=["single", "rounds"])
def test_search_players_agree_with_the_reference_over_more_games(rounds: bool) -> None:
    strategies = ["mc:playouts=3,rollout=detective", "ismcts:iterations=24", "protector", "random"]
    shipped = {s.name: s for s in (random_strategy, protector, detective, mc, ismcts)}
    seats = tuple(parse_strategy(s, shipped, "la-planche") for s in strategies)
    lineup = Lineup(seats, rotate=True)
    rules = LaPlancheRules(rounds=rounds)
    compiled = play_games(rules, 4, 23, 24, lineup=lineup)
    for g in range(24):
        expected = play_game(rules, 4, 23, g, make_player=lineup_player_factory(lineup, rules, g))
        assert compiled.game_record(g) == expected, f"game {g} differs"
