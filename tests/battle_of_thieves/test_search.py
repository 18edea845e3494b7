"""Battle of Thieves played on from a position, and the search players ``mc`` and ``ismcts``.

A game split at any step, its position and streams copied into new buffers and played on
there, is the game the reference engine plays straight through. A determinization keeps
everything the searching seat has seen and deals the rest anew. The search players find an
option that wins at once and avoid one that loses at once, answer legal indices, and give
the same games whatever the thread count.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest
from balance.strategies.battle_of_thieves import SHIPPED as ALL_SHIPPED
from balance.strategies.battle_of_thieves import ismcts, mc
from balance.strategies.battle_of_thieves import random as random_strategy

from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.random_ref import Stream
from balance.core.strategy import MAX_PARAMS, SeatStrategy, parse_strategy
from balance.games.battle_of_thieves import engine, reference, search_nb
from balance.games.battle_of_thieves.bridge import compiled_player, pack_position
from balance.games.battle_of_thieves.layout import (
    ALL_SINS,
    DECK_SIZE,
    GAME_STAT,
    MAX_OPTIONS,
    PLAY,
    PLAYERS,
    SIDE,
)
from balance.games.battle_of_thieves.reference import Position
from balance.games.battle_of_thieves.rules import BattleRules

from .conftest import CONTENT, RULES, card, dice
from .test_strategies import SETTINGS, at_sea

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

GAME = "battle-of-thieves"
SHIPPED = {s.name: s for s in (mc, ismcts, random_strategy)}


def seat(text: str) -> SeatStrategy:
    return parse_strategy(text, SHIPPED, GAME)


# --- play from a position ------------------------------------------------------------------


def split_records(rules: BattleRules, content, codes, seed: int, game: int, split: int):
    """Game ``game`` split after ``split`` steps and played on from a copy; its records and
    the number of steps the game has."""
    records = engine.ENGINE.empty_records(PLAYERS, 1, game)
    params = np.array([SeatStrategy(s, tuple(v for _, v in s.params)).vector() for s in codes])
    steps = search_nb.play_split_nb(
        rules.to_array(),
        engine.content_arrays(content),
        np.array([s.code for s in codes], dtype=np.int64),
        params,
        seed,
        game,
        split,
        records.games,
        records.seats,
        records.cards,
    )
    return records.game_record(0), steps


def check_every_split(rules: BattleRules, content, strategies, seed: int, game: int) -> int:
    lineup = Lineup(tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in strategies))
    from balance.core.game import player_factory

    make = player_factory(lineup, game, reference.RandomPlayer, compiled_player)
    expected = reference.play_game(rules, content, seed, game, make_player=make)
    straight, steps = split_records(rules, content, strategies, seed, game, 10**9)
    assert straight == expected
    for split in range(steps + 1):
        record, _ = split_records(rules, content, strategies, seed, game, split)
        assert record == expected, f"seed {seed} game {game} split at step {split}"
    return steps


@pytest.mark.slow  # compiles a search loop: the long suite
def test_a_game_split_at_any_step_plays_on_as_the_reference_engine_plays_it() -> None:
    content = RULES.content()
    steps = [
        check_every_split(RULES, content, (random_strategy, random_strategy), seed, game)
        for seed, game in ((7, 3), (2026, 0))
    ]
    assert min(steps) > 20


@pytest.mark.slow
@pytest.mark.parametrize("name, rules, content", SETTINGS, ids=[s[0] for s in SETTINGS])
def test_many_games_split_at_any_step_play_on_as_the_reference_engine_plays_them(
    name, rules, content
) -> None:
    from balance.strategies.battle_of_thieves import boarder, finisher

    content = content or rules.content()
    for seed in range(4):
        check_every_split(rules, content, (random_strategy, random_strategy), seed, seed)
    rules = BattleRules(**{**rules.__dict__, "turn_cap": 40})
    check_every_split(rules, content, (finisher, boarder), 5, 1)


# --- determinization -----------------------------------------------------------------------


@functools.cache
def positions() -> tuple[Position, ...]:
    """Every other decision point (two options or more) of game turns 4, 8, ... of six
    random games."""
    found: list[Position] = []

    class Sampler(reference.RandomPlayer):
        def choose(self, pos: Position, options) -> int:  # type: ignore[no-untyped-def]
            if pos.turn % 4 == 0:
                found.append(pos.copy())
            return super().choose(pos, options)

    for game in range(6):
        reference.play_game(RULES, CONTENT, 1, game, make_player=lambda s, st: Sampler(st))
    return tuple(found[::2])


def determinized(pos: Position, seed: int) -> tuple[tuple[np.ndarray, ...], int]:
    arrays = pack_position(pos)
    out = tuple(a.copy() for a in arrays)
    rng = np.array(Stream(seed, 0, 0).state, dtype=np.uint64)
    search_nb.determinize_nb(out, pos.player, rng)
    return arrays, out


def test_a_determinization_keeps_what_the_seat_has_seen() -> None:
    assert len(positions()) > 20
    for pos in positions():
        me, enemy = pos.player, 1 - pos.player
        before, after = determinized(pos, pos.turn)
        side = before[0]
        for k in (0, 1, 4, 5, 6, 7, 8):  # ships, pirates, discards, island, state, records
            assert np.array_equal(before[k], after[k])
        deck, hand = before[2], before[3]
        deck2, hand2 = after[2], after[3]
        assert np.array_equal(hand[me], hand2[me])  # its own hand
        for s in (me, enemy):  # the cards drawn stay drawn
            top = side[s, SIDE.DECK_POS]
            assert np.array_equal(deck[s, :top], deck2[s, :top])
        top = side[me, SIDE.DECK_POS]
        assert sorted(deck[me, top:]) == sorted(deck2[me, top:])
        n, top = side[enemy, SIDE.HAND_LEN], side[enemy, SIDE.DECK_POS]
        assert (hand2[enemy, n:] == -1).all()
        assert sorted([*hand[enemy, :n], *deck[enemy, top:]]) == sorted(
            [*hand2[enemy, :n], *deck2[enemy, top:]]
        )


@pytest.mark.slow  # compiles the search: the long suite
def test_determinizations_deal_every_unseen_card_to_the_enemys_hand() -> None:
    pos = at_sea(turn=3)
    enemy = pos.sides[1]
    enemy.deck_pos = 15
    enemy.hand = enemy.deck[13:15]  # drew the two cards before the top one left
    pool = Counter([*enemy.hand, *enemy.deck[15:]])
    held: Counter = Counter()
    own_orders = set()
    for seed in range(400):
        _, after = determinized(pos, seed)
        held.update(int(c) for c in after[3][1, :2])
        own_orders.add(tuple(after[2][0]))
    assert set(held) == set(pool)  # every unseen card was dealt to the hand
    for c, copies in pool.items():  # about 2/7 of the time for each copy
        assert 400 * 2 / 7 * copies * 0.6 < held[c] < 400 * 2 / 7 * copies * 1.4
    assert len(own_orders) > 300  # its own deck's order is guessed too
    assert all(sorted(o) == sorted(pos.sides[0].deck) for o in own_orders)


# --- the search players on hand-built positions --------------------------------------------


def choose(text: str, pos: Position, seed: int = 0) -> tuple[int, int, int, int]:
    options = reference.legal_options(pos)
    assert len(options) >= 2
    stream = Stream(seed, 0, 3 + pos.player)
    index = compiled_player(seat(text), stream).choose(pos, options)
    assert 0 <= index < len(options)
    return options[index]


def pickpocket_position() -> Position:
    """Seat 0 holds Pickpocket (the enemy discards a card); the enemy holds only Orgueil,
    its last sin not yet discarded, and its deck is empty: playing Pickpocket wins. Seat
    0's ship sinks at the start of its next turn (95 water, 2 holes) unless the enemy
    plays Orgueil first."""
    pos = at_sea(turn=3, act=False, water=95, holes=2, hand=("Pickpocket",))
    enemy = pos.sides[1]
    enemy.deck_pos = DECK_SIZE
    enemy.hand = [card("Orgueil")]
    enemy.sins = ALL_SINS & ~(1 << 6)
    return pos


@pytest.mark.slow  # compiles the search: the long suite
def test_playing_pickpocket_there_wins_at_once(engine) -> None:
    pos = pickpocket_position()
    option = (PLAY, -1, card("Pickpocket"), -1)
    engine.apply_option(pos, option, dice())
    assert pos.over and pos.winner == 0


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize("text", ["mc:playouts=16", "ismcts:iterations=32"])
def test_a_search_player_plays_the_card_that_wins_at_once(text: str) -> None:
    for seed in range(3):
        assert choose(text, pickpocket_position(), seed) == (PLAY, -1, card("Pickpocket"), -1)


def seventh_sin_position() -> Position:
    """Seat 0 holds Orgueil with the six other sins in its discard pile: playing it loses;
    the enemy ship sinks at the start of its next turn (95 water, 2 holes): ending the
    turn wins."""
    pos = at_sea(turn=3, act=False, hand=("Orgueil", "Rum"))
    pos.sides[0].sins = ALL_SINS & ~(1 << 6)
    enemy = pos.sides[1]
    enemy.water, enemy.holes, enemy.intact = 95, 2, enemy.intact - 2
    return pos


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize("text", ["mc:playouts=16", "ismcts:iterations=32"])
def test_a_search_player_never_plays_the_card_that_loses_at_once(text: str) -> None:
    assert (PLAY, -1, card("Orgueil"), -1) in reference.legal_options(seventh_sin_position())
    for seed in range(3):
        assert choose(text, seventh_sin_position(), seed) != (PLAY, -1, card("Orgueil"), -1)


@pytest.mark.slow  # compiles the search: the long suite
def test_search_answers_are_legal_and_depend_only_on_the_stream() -> None:
    for pos in positions()[::8]:
        options = reference.legal_options(pos)
        if len(options) < 2:
            continue
        for text in (
            "mc:playouts=1",
            "mc:playouts=1,rollout=finisher,width=2",
            "ismcts:iterations=4,c=0",
        ):
            first = choose(text, pos, seed=pos.turn)
            assert first in options
            assert choose(text, pos, seed=pos.turn) == first


# --- whole games ---------------------------------------------------------------------------


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(
    "strategies",
    [
        ("mc:playouts=1", "ismcts:iterations=4,rollout=random"),
        ("mc:playouts=1,rollout=finisher,width=2", "mc:playouts=1,width=3"),
    ],
)
def test_search_games_are_the_same_whatever_the_thread_count(strategies) -> None:
    from balance.api import make_setup
    from balance.run.runner import run_games

    setup = make_setup(
        GAME,
        2,
        strategies=list(strategies),
        rotate_seats=True,
        seed=5,
    )
    one = run_games(setup, 4, threads=1, progress=False, batch=1)
    two = run_games(setup, 4, threads=2, progress=False, batch=2)

    def games(run):
        return (
            np.concatenate([b.length for b in run.blocks]),
            np.concatenate([b.won for b in run.blocks]),
            np.concatenate([b.extra["seats"] for b in run.blocks]),
        )

    for a, b in zip(games(one), games(two), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.slow  # compiles a search loop: the long suite
def test_the_search_loop_plays_other_strategies_as_the_plain_loop_does() -> None:
    """A line-up with a search player plays in the search loop; its other seats' games
    are the plain loop's when no search player sits (same records)."""
    from balance.games.battle_of_thieves import engine_nb as nb

    rules = BattleRules()
    records = engine.ENGINE.empty_records(PLAYERS, 8)
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    lineup = Lineup((seat("random"), seat("random")))
    codes, params, seats_of = engine.ENGINE.kernel_inputs(lineup)
    search_nb.play_games_search_nb(
        rules.to_array(),
        engine.content_arrays(rules.content()),
        codes,
        params,
        seats_of,
        3,
        0,
        records.games,
        records.seats,
        records.cards,
        error,
        engine.rollout_params(),
    )
    plain = engine.play_games(rules, 2, 3, 8, lineup=lineup)
    assert np.array_equal(records.games, plain.games)
    assert np.array_equal(records.cards, plain.cards)


@pytest.mark.slow  # compiles a search loop: the long suite
def test_mc_beats_random() -> None:
    lineup = Lineup((seat("mc:playouts=2"), seat("random")), rotate=True)
    games = engine.play_games(BattleRules(), 2, 1, 12, lineup=lineup).games
    seat_of_mc = np.arange(12) % 2
    won = (games[:, GAME_STAT.WINNER] == seat_of_mc).sum()
    assert won >= 10, won


# --- mc pruned to the rollout strategy's best options (width, margin) ------------------------


def ranked(pos: Position, width: int, rollout: str = "finisher") -> list[tuple[int, ...]]:
    """The options ``search_nb.rank_options_nb`` keeps for ``pos``'s mover."""
    options = reference.legal_options(pos)
    table = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    table[: len(options)] = options
    code = ROLLOUT_WORDS[rollout]
    work = search_nb.new_work(MAX_PARAMS, 1, engine.rollout_params())
    n = search_nb.rank_options_nb(
        pack_position(pos),
        engine.content_arrays(pos.content),
        pos.rules.to_array(),
        table,
        len(options),
        pos.player,
        code,
        width,
        np.uint64(7),
        work,
    )
    return [tuple(int(x) for x in row) for row in work[search_nb.Work.ROOT][:n]]


ROLLOUT_WORDS = {k: int(v) for k, v in mc.param_choices["rollout"].items()}
ALL = {s.name: s for s in ALL_SHIPPED}


def picks_in_turn(pos: Position, name: str, width: int) -> list[tuple[int, ...]]:
    """What the compiled heuristic ``name`` picks for ``pos``'s mover, each pick struck out
    before it is asked again (through the reference engine's bridge)."""
    player = compiled_player(parse_strategy(name, ALL, GAME), Stream(0, 0, 3))
    rest = list(reference.legal_options(pos))
    picked = []
    while rest and len(picked) < width:
        k = player.choose(pos, rest) if len(rest) >= 2 else 0
        picked.append(tuple(rest.pop(k)))
    return picked


@pytest.mark.slow  # compiles the search: the long suite
@pytest.mark.parametrize("name", ["finisher", "cannoneer"])
def test_pruning_keeps_the_heuristics_picks_in_turn(name: str) -> None:
    checked = 0
    for pos in positions()[::3]:
        options = reference.legal_options(pos)
        if len(options) < 2:
            continue
        assert ranked(pos, 3, name) == picks_in_turn(pos, name, 3)
        assert ranked(pos, 1, name) == picks_in_turn(pos, name, 1)
        assert ranked(pos, 0, name) == [tuple(o) for o in options]
        assert sorted(ranked(pos, 64, name)) == sorted(tuple(o) for o in options)
        checked += 1
    assert checked >= 5


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(
    "text",
    [
        "mc:rollout=finisher,width=1",  # its pick, no playout
        "mc:playouts=1,rollout=finisher,width=3,margin=1",  # nothing beats it by more than 1
    ],
)
def test_mc_that_keeps_the_rollout_strategys_pick_plays_its_games(text: str) -> None:
    rules = BattleRules()
    lineup = Lineup((seat(text), parse_strategy("cannoneer", ALL, GAME)), rotate=True)
    heuristic = Lineup((parse_strategy("finisher", ALL, GAME), lineup.seats[1]), rotate=True)
    searched = engine.play_games(rules, 2, 3, 4, lineup=lineup)
    played = engine.play_games(rules, 2, 3, 4, lineup=heuristic)
    assert np.array_equal(searched.games, played.games)
    assert np.array_equal(searched.cards, played.cards)


@pytest.mark.slow  # a match of 24 games: about a minute
def test_mc_pruned_to_the_finishers_best_options_beats_the_finisher() -> None:
    """Policy improvement by rollouts: 2 options, 8 finisher playouts each, against the
    finisher, seats rotated (docs/battle-of-thieves.md measures 150 games: 65%, the
    finisher 33%): the same 150 games win more of the decided games than a fair coin would
    (sign test)."""
    from scipy.stats import binomtest

    lineup = Lineup(
        (seat("mc:playouts=8,rollout=finisher,width=2"), parse_strategy("finisher", ALL, GAME)),
        rotate=True,
    )
    games = engine.play_games(BattleRules(), 2, 11, 150, lineup=lineup).games
    won = int((games[:, GAME_STAT.WINNER] == np.arange(150) % 2).sum())
    lost = int((games[:, GAME_STAT.WINNER] == 1 - np.arange(150) % 2).sum())
    assert binomtest(won, won + lost, 0.5, alternative="greater").pvalue < 0.05, (won, lost)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("mc:playouts=0", "'playouts' must be from 1 to 65536, not 0"),
        ("ismcts:iterations=0", "'iterations' must be from 1 to 65536, not 0"),
        ("mc:rollout=greedy", "'rollout' needs a number or one of random, cannoneer"),
        ("ismcts:budget=4", "bad parameter 'budget=4'; parameters: iterations, rollout, c"),
        ("ismcts:c=-1", "'c' must be from 0 to 100, not -1"),
        ("mc:width=-1", "'width' must be from 0 to 64, not -1"),
        ("mc:margin=2", "'margin' must be from 0 to 1, not 2"),
        ("ismcts:width=2", "bad parameter 'width=2'; parameters: iterations, rollout, c"),
        ("mc:width=2.5", "'width' needs a whole number, not 2.5"),
        ("mc:playouts=3.5", "'playouts' needs a whole number, not 3.5"),
        ("ismcts:iterations=10.2", "'iterations' needs a whole number, not 10.2"),
        ("mc:rollout=1.5", "'rollout' needs a whole number or one of random, cannoneer"),
    ],
)
def test_bad_search_parameters_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BalanceError, match=r"^strategy ") as caught:
        seat(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_rollout_word_is_shown_back() -> None:
    assert seat("ismcts:iterations=64,rollout=finisher").label == (
        "ismcts(iterations=64,rollout=finisher)"
    )
    assert seat("mc:rollout=random").label == "mc"


def test_the_search_codes_are_the_strategies_codes() -> None:
    assert (mc.code, ismcts.code) == search_nb.SEARCH_CODES
    assert set(search_nb.ROLLOUT_CODES) == {int(v) for v in mc.param_choices["rollout"].values()}
    assert engine.rollout_params().shape[0] == len(search_nb.ROLLOUT_CODES)


@pytest.mark.slow  # compiles a search loop: the long suite
@pytest.mark.parametrize(
    "texts",
    [
        ("mc:playouts=1", "ismcts:iterations=2"),
        ("mc:playouts=1,rollout=finisher,width=2", "random"),
    ],
)
def test_the_reference_engine_plays_a_search_players_games_as_the_search_loop(texts) -> None:
    """As ``--debug`` and ``replay`` play them: the reference engine asking the compiled
    search at each decision, on the same streams."""
    from balance.core.game import player_factory

    rules = BattleRules()
    lineup = Lineup(tuple(seat(t) for t in texts))
    played = engine.play_games(rules, 2, 4, 1, first_game=2, lineup=lineup)
    make = player_factory(lineup, 2, reference.RandomPlayer, compiled_player)
    expected = reference.play_game(rules, rules.content(), 4, 2, make_player=make)
    assert played.game_record(0) == expected
