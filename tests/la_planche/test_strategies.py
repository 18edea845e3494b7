"""The shipped La Planche strategies and a user's own strategy file."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from balance.strategies.la_planche import SHIPPED
from balance.strategies.la_planche import random as random_strategy

from balance.core.errors import BalanceError
from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy, load_strategy_file, parse_strategy
from balance.games.la_planche import engine
from balance.games.la_planche.bridge import pack_position
from balance.games.la_planche.engine import play_games
from balance.games.la_planche.engine_nb import SeatStat
from balance.games.la_planche.reference import Position
from balance.games.la_planche.rules import LaPlancheRules

RULES = LaPlancheRules()
SHIPPED_BY_NAME = {s.name: s for s in SHIPPED}


def lineup(*texts: str, rotate: bool = True) -> Lineup:
    return Lineup(
        tuple(parse_strategy(t, SHIPPED_BY_NAME, "la-planche") for t in texts), rotate=rotate
    )


def win_rates(records, lineup: Lineup) -> dict[str, float]:
    games = np.arange(len(records)) + records.first_game
    wins: dict[str, list[int]] = {}
    for seat in range(len(lineup.seats)):
        won_here = records.seats[:, seat, SeatStat.WON]
        for k, won in zip(lineup.strategy_index(games, seat), won_here, strict=True):
            wins.setdefault(lineup.seats[k].label, []).append(int(won))
    return {label: float(np.mean(w)) for label, w in wins.items()}


def test_shipped_strategies_have_distinct_codes_and_both_decisions() -> None:
    assert [s.name for s in SHIPPED] == ["random", "protector", "detective", "mc", "ismcts"]
    # The search players carry no code: only a run that seats one compiles them.
    assert [s.code for s in SHIPPED] == [0, 1, 2, None, None]
    for strategy in SHIPPED:
        assert strategy.game == "la-planche"
        assert set(strategy.decisions) == {"symbol", "choose"}
        engine.ENGINE.check_strategy(dataclasses.replace(strategy, code=None))


def test_strategies_see_no_hidden_colour() -> None:
    # A position is public: the line, the evidence, scores, round and turn (and the push
    # rule); no colours of seats. The engine hands a strategy its own colour as an
    # argument, and nothing else.
    fields = {f.name for f in dataclasses.fields(Position)}
    assert fields == {"players", "spaces", "line", "evidence", "scores", "round", "turn", "push"}
    obs = pack_position(Position.start(RULES, 3), RULES)
    assert len(obs) == 10
    assert obs[4].shape == (3, 4)  # evidence: public actions only


@pytest.mark.parametrize("players", [2, 4])
def test_protector_and_detective_beat_random(players: int) -> None:
    for name in ("protector", "detective"):
        table = lineup(name, *["random"] * (players - 1))
        rates = win_rates(play_games(RULES, players, 1, 2_000, lineup=table), table)
        assert rates[name] > 2 * rates["random"], rates


def test_detective_reads_the_evidence() -> None:
    # With 2 players, two colours are nobody's: knowing which the opponent protects pays.
    table = lineup("detective", "protector")
    rates = win_rates(play_games(RULES, 2, 2, 4_000, lineup=table), table)
    assert rates["detective"] > rates["protector"], rates


def test_parameters_change_the_play() -> None:
    default = play_games(RULES, 3, 6, 300, lineup=lineup("protector", "random", "random"))
    timid = play_games(RULES, 3, 6, 300, lineup=lineup("protector:other=0", "random", "random"))
    assert not np.array_equal(default.actions, timid.actions)
    assert lineup("detective:sharpness=2").labels == ["detective(sharpness=2)"]
    explicit = play_games(
        RULES,
        3,
        6,
        300,
        lineup=lineup("protector:own=1,other=1,alive=4,win=50", "random", "random"),
    )
    np.testing.assert_array_equal(default.actions, explicit.actions)


# --- a user's strategy file ----------------------------------------------------------------

MOODY = """\
from balance.games.la_planche.kit import State, below_nb, njit
from balance.strategy import Strategy


@njit
def symbol(obs, seat, colour, first, second, params, rng):
    pick = below_nb(rng, 2)
    if params[0] == 1.0 and obs[1][State.TURN] >= 5:
        return 2
    return pick


@njit
def choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    pick = below_nb(rng, count)
    if params[0] == 2.0 and obs[1][State.TURN] >= 5:
        return count
    return pick


moody = Strategy(
    "la-planche",
    "moody",
    "Random, until turn 5 in a bad mood.",
    {"symbol": symbol, "choose": choose},
    params=(("mood", 0.0),),
)
"""


@pytest.fixture(scope="module")
def moody(tmp_path_factory):
    path = tmp_path_factory.mktemp("strategies") / "moody.py"
    path.write_text(MOODY)
    return load_strategy_file(path, "moody", "la-planche")


@pytest.mark.slow  # compiles the game loop with a user file (its mechanism: test_user_strategy.py)
def test_a_user_strategy_joins_the_compiled_loop(moody) -> None:
    calm = Lineup((SeatStrategy(moody, (0.0,)), SeatStrategy(random_strategy, ())), rotate=True)
    plain = Lineup((SeatStrategy(random_strategy, ()), SeatStrategy(random_strategy, ())))
    ours = play_games(RULES, 2, 4, 500, lineup=calm)
    theirs = play_games(RULES, 2, 4, 500, lineup=plain)
    for name in ("games", "fell", "seats", "actions"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))


def test_an_illegal_choice_names_strategy_seat_decision_and_game(moody) -> None:
    # Both moods in one test: the game loop with the user's file compiles once.
    for mood, message in (
        (1.0, r"illegal 'symbol' decision in game 0: chose symbol 2, not 0"),
        (2.0, r"illegal 'choose' decision in game 0: chose option \d+ of \w+, outside"),
    ):
        table = Lineup((SeatStrategy(random_strategy, ()), SeatStrategy(moody, (mood,))))
        with pytest.raises(BalanceError, match=message) as caught:
            play_games(RULES, 2, 4, 100, lineup=table)
        text = str(caught.value)
        assert text.startswith(f"strategy 'moody(mood={mood:g})' (seat 1)")
        assert "\n" not in text


def test_a_strategy_missing_a_decision_is_refused(moody) -> None:
    broken = dataclasses.replace(moody, decisions={"symbol": moody.decisions["symbol"]})
    with pytest.raises(BalanceError, match=re.escape("gives no 'choose' function")):
        engine.ENGINE.check_strategy(broken)
    extra = dataclasses.replace(moody, decisions={**moody.decisions, "program": lambda: 0})
    with pytest.raises(BalanceError, match="unknown decision 'program'"):
        engine.ENGINE.check_strategy(extra)
