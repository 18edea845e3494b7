"""How a line-up is seated: every order round the table with rotation, and a restricted
seat that visits every (seat, strategy) pair equally often, independently of the order.

Pure table arithmetic (no game is played); the win rates that depend on it are tested
per game (``tests/<game>/test_seating.py``).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import seating_helpers as helpers

from balance import api
from balance.analyses.restricted import restricted_play, restricted_wins
from balance.core.errors import BalanceError
from balance.core.game import Lineup, lineup_arrays, seating_orders
from balance.core.strategy import SeatStrategy, Strategy
from balance.run.results import load_run

PLAYERS = range(2, 7)


def _lineup(n: int, rotate: bool = True, restricted: tuple[str, ...] = ()) -> Lineup:
    seats = tuple(
        SeatStrategy(Strategy("walk-the-plank", f"s{k}", "", decisions={}, code=0), ())
        for k in range(n)
    )
    return Lineup(seats, rotate, restricted)


def _orders(lineup: Lineup, games: np.ndarray) -> np.ndarray:
    """int64 ``(G, n)``: the strategy in each seat of each game."""
    n = len(lineup.seats)
    return np.stack([lineup.strategy_index(games, s) for s in range(n)], axis=1)


@pytest.mark.parametrize("n", PLAYERS)
def test_every_order_is_played_once_every_n_factorial_games(n: int) -> None:
    rows = seating_orders(n)
    assert rows.shape == (math.factorial(n), n)
    assert {tuple(r) for r in rows} == set(itertools.permutations(range(n)))
    games = np.arange(3 * math.factorial(n))
    seated = _orders(_lineup(n), games)
    np.testing.assert_array_equal(seated, rows[games % len(rows)])


@pytest.mark.parametrize("n", PLAYERS)
def test_every_n_games_seat_every_strategy_in_every_seat(n: int) -> None:
    seated = _orders(_lineup(n), np.arange(n * math.factorial(n))).reshape(-1, n, n)
    for block in seated:  # (game in block, seat)
        for seat in range(n):
            assert sorted(block[:, seat]) == list(range(n))


@pytest.mark.parametrize("n", PLAYERS)
def test_every_strategy_sits_beside_every_other_on_each_side_equally(n: int) -> None:
    seated = _orders(_lineup(n), np.arange(math.factorial(n)))
    left = Counter()
    for row in seated:
        for s in range(n):  # row[s + 1] sits clockwise of row[s]
            left[(row[s], row[(s + 1) % n])] += 1
    assert set(left) == {(a, b) for a in range(n) for b in range(n) if a != b}
    assert len(set(left.values())) == 1


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("rotate", [True, False])
def test_every_seat_strategy_pair_is_restricted_equally_often(n: int, rotate: bool) -> None:
    lineup = _lineup(n, rotate, ("x",))
    games = np.arange(2 * lineup.period)
    seat = lineup.restricted_seat(games)
    strategy = _orders(lineup, games)[games, seat]
    counts = Counter(zip(seat.tolist(), strategy.tolist(), strict=True))
    pairs = {(s, k) for s in range(n) for k in range(n)} if rotate else {(s, s) for s in range(n)}
    assert set(counts) == pairs
    assert len(set(counts.values())) == 1


@pytest.mark.parametrize("n", PLAYERS)
def test_every_n_games_restrict_every_strategy_once(n: int) -> None:
    lineup = _lineup(n, True, ("x",))
    games = np.arange(lineup.period)
    restricted = _orders(lineup, games)[games, lineup.restricted_seat(games)]
    for block in restricted.reshape(-1, n):
        assert sorted(block) == list(range(n))


@pytest.mark.parametrize("n", PLAYERS)
def test_the_restricted_seat_is_independent_of_the_order(n: int) -> None:
    lineup = _lineup(n, True, ("x",))
    games = np.arange(lineup.period)
    orders = [tuple(r) for r in _orders(lineup, games)]
    pairs = Counter(zip(orders, lineup.restricted_seat(games).tolist(), strict=True))
    assert len(pairs) == math.factorial(n) * n and set(pairs.values()) == {1}


def test_two_players_restrict_each_strategy_in_each_seat_within_four_games() -> None:
    # The defect this replaces: seat i % 2 restricted the first listed strategy only.
    lineup = _lineup(2, True, ("x",))
    games = np.arange(4)
    restricted = _orders(lineup, games)[games, lineup.restricted_seat(games)]
    assert sorted(
        zip(lineup.restricted_seat(games).tolist(), restricted.tolist(), strict=True)
    ) == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]


@pytest.mark.parametrize(("rotate", "restricted"), [(False, ()), (True, ()), (True, ("x",))])
def test_kernel_tables_repeat_with_the_period(rotate: bool, restricted: tuple[str, ...]) -> None:
    lineup = _lineup(4, rotate, restricted)
    users = lineup.user_strategies()
    _, _, rows, strategies = lineup_arrays(
        lineup, lambda s: 100 + users.index(s) if s.code is None else s.code
    )
    assert (
        len(rows) == lineup.period == {(False, ()): 1, (True, ()): 24}.get((rotate, restricted), 96)
    )
    games = np.arange(5 * lineup.period + 3)
    np.testing.assert_array_equal(strategies[games % len(rows)], _orders(lineup, games))


def test_restricted_wins_reads_the_restricted_seat_of_each_game() -> None:
    lineup = _lineup(3, True, ("x",))
    games = np.arange(7, 7 + 40)
    won = np.zeros((len(games), 3), dtype=bool)
    seat = lineup.restricted_seat(games)
    won[np.arange(len(games)), seat] = True
    assert restricted_wins(won, lineup, first_game=7).all()
    # the unrestricted run's line-up pairs the same seats
    unrestricted = Lineup(lineup.seats, True, ())
    assert restricted_wins(won, unrestricted, first_game=7).all()
    assert not restricted_wins(~won, lineup, first_game=7).any()


def test_headers_say_how_seats_were_given_out() -> None:
    assert _lineup(4).seating_text().startswith("seats rotated over all 24 orders of the 4 ")
    assert "fixed" in _lineup(4, rotate=False).seating_text()
    assert "over 96 games" in _lineup(4, True, ("x",)).restriction_text()
    assert "seat i mod 3" in _lineup(3, False, ("x",)).restriction_text()


# --- saved runs name their seating --------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("seating") / "run"
    api.simulate(
        "walk-the-plank",
        players=3,
        games=30,
        seed=4,
        strategies=["random", "greedy", "random"],
        rotate_seats=True,
        out=directory,
    )
    return directory


def _edited(directory: Path, target: Path, drop: str = "", **changes) -> Path:
    target.mkdir()
    for path in directory.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update(changes)
    manifest.pop(drop, None)
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target


def test_a_saved_run_records_its_seating(saved: Path) -> None:
    manifest = json.loads((saved / "manifest.json").read_text())
    assert manifest["seating"] == "every-order" and manifest["rotate_seats"] is True
    assert load_run(saved).setup.lineup.rotate is True


def test_a_run_saved_with_cyclic_rotation_is_refused(saved: Path, tmp_path: Path) -> None:
    old = _edited(saved, tmp_path / "old", drop="seating")
    with pytest.raises(BalanceError, match="rotated seats cyclically") as error:
        load_run(old)
    assert "\n" not in str(error.value)


def test_an_old_run_that_seats_as_now_still_reads(saved: Path, tmp_path: Path) -> None:
    fixed = _edited(saved, tmp_path / "fixed", drop="seating", rotate_seats=False)
    assert load_run(fixed).setup.lineup.rotate is False


def test_an_old_two_player_rotated_run_still_reads(tmp_path: Path) -> None:
    # Two strategies have two orders, which cyclic shifts gave too: the same games.
    directory = tmp_path / "two"
    api.simulate(
        "walk-the-plank",
        players=2,
        games=8,
        strategies=["random", "greedy"],
        rotate_seats=True,
        out=directory,
    )
    old = _edited(directory, tmp_path / "old", drop="seating")
    assert load_run(old).setup == load_run(directory).setup
    restricted = _edited(directory, tmp_path / "restricted", drop="seating", restricted=["run"])
    with pytest.raises(BalanceError, match="rotated seats cyclically"):
        load_run(restricted)


@pytest.mark.parametrize("seating", ["cyclic", "fixed"])
def test_an_unknown_or_contradicting_seating_is_a_one_line_error(
    saved: Path, tmp_path: Path, seating: str
) -> None:
    bad = _edited(saved, tmp_path / "bad", seating=seating)
    with pytest.raises(BalanceError, match="corrupt") as error:
        load_run(bad)
    assert "\n" not in str(error.value)


# --- a card's value does not depend on the listing order (Walk the Plank) ------------------


def _card_value(listed: list[str], games: int, cyclic: bool, seed: int = 3) -> dict:
    """Charge's restricted-play row (value, interval, the restricted seats' base rate)."""
    made = helpers.setup("walk-the-plank", listed, seed, cyclic)
    return restricted_play(made, games, actions=["charge"], threads=1).table.iloc[0].to_dict()


def _value_z(first: dict, second: dict) -> float:
    se = [(row["high"] - row["low"]) / (2 * 1.959964) for row in (first, second)]
    return (first["difference"] - second["difference"]) / math.hypot(*se)


def _base_z(first: dict, second: dict, games: int) -> float:
    rates = np.array([first["base_win_rate"], second["base_win_rate"]])
    se = np.sqrt(rates * (1 - rates) / games)
    return float((rates[0] - rates[1]) / math.hypot(*se))


@pytest.mark.parametrize("games", [400, pytest.param(20_000, marks=pytest.mark.slow)])
def test_listing_order_changes_no_card_value(games: int) -> None:
    # Cyclic seating restricted the first listed strategy only at two players: the
    # restricted seats won 3.3% listed random first, 99.5% listed greedy first.
    listed, swapped = ["random", "greedy"], ["greedy", "random"]
    first, second = _card_value(listed, games, False), _card_value(swapped, games, False)
    assert abs(_base_z(first, second, games)) < helpers.NOISE_Z
    assert abs(_value_z(first, second)) < helpers.NOISE_Z
    old = _card_value(listed, games, True), _card_value(swapped, games, True)
    assert abs(_base_z(*old, games)) > 10 * helpers.NOISE_Z


# --- every header says how seats were given out --------------------------------------------


def test_replay_compare_and_cards_headers_name_the_seating(saved: Path) -> None:
    from balance.analyses.compare import compare
    from balance.games import get_game

    rotated = "seats rotated over all 6 orders of the 3 strategies"
    setup = load_run(saved).setup
    assert rotated in get_game("walk-the-plank").replay(setup, 4).splitlines()[2]
    names = ["random", "greedy", "random"]
    text = compare(
        "walk-the-plank", 3, 12, ["base", "kraken"], strategies=names, rotate_seats=True, threads=1
    ).text()
    assert rotated in text
    value = restricted_play(setup, 12, actions=["charge"], threads=1)
    assert rotated in value.text() and "every (seat, strategy) pair" in value.text()
