"""Restricted play: a seat that may never program a card (Jaffe et al., AIIDE 2012).

Both engines apply the restriction and agree game for game; the restricted seat of game
``i`` is seat ``i % n`` with fixed seats (rotated: ``tests/test_seating.py``);
``restricted_play`` pairs each restricted run with the
unrestricted one on the same games; the table is checked against hand-computed numbers.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats

from balance import api
from balance.analyses.restricted import (
    METHOD,
    RestrictedPlay,
    restricted_play,
    restricted_play_table,
    restricted_wins,
)
from balance.cli import cli, main
from balance.core.errors import BalanceError
from balance.core.game import Lineup, Setup
from balance.games import get_game
from balance.games.walk_the_plank import engine
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank.bridge import lineup_player_factory
from balance.games.walk_the_plank.cards import CARD_NAMES, card_mask
from balance.games.walk_the_plank.reference import play_game
from balance.run.results import RunWriter, load_run, manifest_for
from balance.run.runner import run_games
from balance.run.summary import summarize
from balance.stats.intervals import wilson_interval

GAME = get_game("walk-the-plank")
CHARGE = CARD_NAMES.index("charge")
REVEALED = nb.CardStat.REVEALED


def setup_for(
    names: list[str],
    restricted: list[str],
    seed: int = 0,
    variants: tuple[str, ...] = (),
    rules: dict | None = None,
    rotate: bool = False,
) -> Setup:
    return api.make_setup(
        "walk-the-plank",
        len(names),
        seed=seed,
        strategies=names,
        variants=variants,
        rules=rules or {},
        rotate_seats=rotate,
        restricted=restricted,
    )


def compiled_records(setup: Setup, games: int, first_game: int = 0) -> engine.Records:
    return engine.play_games(
        setup.rules, setup.players, setup.seed, games, first_game, setup.lineup
    )


def assert_engines_agree(setup: Setup, games: int, first_game: int = 0) -> engine.Records:
    """Game ``first_game + g`` of the compiled block equals the reference engine's game."""
    compiled = compiled_records(setup, games, first_game)
    for g in range(games):
        index = first_game + g
        expected = play_game(
            setup.rules,
            setup.players,
            setup.seed,
            index,
            make_player=lineup_player_factory(setup.lineup, setup.rules, index),
            forbidden=[int(m) for m in engine.forbidden_by_seat(setup.lineup, index)],
        )
        assert compiled.game_record(g) == expected, f"game {index} differs"
    return compiled


def restricted_reveals(records: engine.Records, cards: list[str], lineup: Lineup) -> np.ndarray:
    """Reveals of ``cards`` by the restricted seat of each game: int ``(G,)``."""
    games = len(records)
    seat = lineup.restricted_seat(records.first_game + np.arange(games))
    columns = [CARD_NAMES.index(card) for card in cards]
    per_card = records.cards[np.arange(games), seat][:, columns, REVEALED]
    return per_card.sum(axis=1)


# --- the restriction in the kernel's inputs ----------------------------------------------


def test_forbidden_masks_follow_the_game_index() -> None:
    lineup = setup_for(["random"] * 3, ["charge", "run"]).lineup
    mask = (1 << CHARGE) | (1 << CARD_NAMES.index("run"))
    assert card_mask(("charge", "run")) == mask
    got = engine.forbidden_by_seat(lineup, np.arange(7))
    expected = np.zeros((7, 3), dtype=np.int64)
    for game in range(7):
        expected[game, game % 3] = mask
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(lineup.restricted_seat(np.array([0, 4, 1000])), [0, 1, 1])
    _, _, seats_of = engine.ENGINE.kernel_inputs(lineup)
    assert seats_of.shape == (3, 6)  # a row per seat position of the restriction
    np.testing.assert_array_equal(seats_of[:, 3:], expected[:3])


def test_an_unrestricted_lineup_forbids_nothing() -> None:
    lineup = setup_for(["random"] * 4, []).lineup
    assert not engine.forbidden_by_seat(lineup, np.arange(8)).any()
    np.testing.assert_array_equal(lineup.restricted_seat(np.arange(3)), [-1, -1, -1])
    _, _, seats_of = engine.ENGINE.kernel_inputs(lineup)
    assert seats_of.shape == (1, 8) and not seats_of[:, 4:].any()


# --- both engines agree on restricted games ----------------------------------------------


def test_engines_agree_random_four_players() -> None:
    setup = setup_for(["random"] * 4, ["charge"], seed=5)
    records = assert_engines_agree(setup, 300)
    assert not restricted_reveals(records, ["charge"], setup.lineup).any()


def test_engines_agree_mixed_rotated_with_every_variant() -> None:
    names = ["aggressor", "survivor", "greedy", "weighted:leader=2"]
    setup = setup_for(
        names, ["charge"], seed=17, variants=("ghost", "dolphin", "kraken"), rotate=True
    )
    records = assert_engines_agree(setup, 100)
    assert not restricted_reveals(records, ["charge"], setup.lineup).any()
    # The variants did play: a ghost, the Dolphin die and the Kraken die all showed up.
    games = records.games
    assert (games[:, nb.GameStat.GHOST_SEAT] >= 0).any()
    assert (games[:, nb.GameStat.DOLPHIN_FACE] >= 0).any()
    assert games[:, nb.GameStat.KRAKEN_CALM : nb.GameStat.KRAKEN_KRAKEN + 1].sum() > 0


def test_engines_agree_with_two_cards_forbidden_down_to_three_left() -> None:
    # Six resting cards (none set aside by the ghost), two forbidden, and a ghost: a seat
    # can be left with exactly three cards to program.
    rest = "shove-left,shove-right,shove-anyone,drag-to-sea,pull-to-ship,run"
    setup = setup_for(
        ["random"] * 3, ["charge", "not-me"], seed=3, variants=("ghost",), rules={"rest": rest}
    )
    records = assert_engines_agree(setup, 300)
    assert not restricted_reveals(records, ["charge", "not-me"], setup.lineup).any()
    assert (records.games[:, nb.GameStat.GHOST_SEAT] >= 0).any()


def test_engines_agree_far_into_a_run() -> None:
    # Game 1000 + g restricts seat (1000 + g) % 3: 1000 % 3 == 1, so a kernel that used the
    # block's own index g would restrict another seat.
    setup = setup_for(["random", "greedy", "survivor"], ["charge"], seed=2)
    records = assert_engines_agree(setup, 90, first_game=1000)
    assert not restricted_reveals(records, ["charge"], setup.lineup).any()
    by_block_seat = records.cards[np.arange(90), np.arange(90) % 3, CHARGE, REVEALED]
    assert by_block_seat.any()


def test_engines_agree_far_into_a_rotated_run() -> None:
    # Rotated, the seating repeats every 3! games and the restricted seat every 3 * 3!.
    setup = setup_for(["random", "greedy", "survivor"], ["charge"], seed=2, rotate=True)
    records = assert_engines_agree(setup, 100, first_game=1001)
    assert not restricted_reveals(records, ["charge"], setup.lineup).any()
    assert records.cards[:, :, CHARGE, REVEALED].any()


def test_engines_agree_far_into_a_run_five_players() -> None:
    setup = setup_for(["random"] * 5, ["run"], seed=8)
    records = assert_engines_agree(setup, 200, first_game=1001)
    assert not restricted_reveals(records, ["run"], setup.lineup).any()
    by_block_seat = records.cards[np.arange(200), np.arange(200) % 5, CARD_NAMES.index("run")]
    assert by_block_seat[:, REVEALED].any()


# --- the restricted seat never reveals the card; the others do ------------------------------


def test_only_the_restricted_seat_never_reveals_the_card() -> None:
    n, games = 4, 400
    restricted = compiled_records(setup_for(["random"] * n, ["charge"], seed=11), games)
    free = compiled_records(setup_for(["random"] * n, [], seed=11), games)
    seat = np.arange(games) % n
    others = np.ones((games, n), dtype=bool)
    others[np.arange(games), seat] = False
    charge = restricted.cards[:, :, CHARGE, REVEALED]
    assert not charge[np.arange(games), seat].any()
    assert charge[others].sum() > games  # every other seat still plays Charge
    for s in range(n):
        assert charge[seat != s, s].sum() > 0, f"seat {s} never revealed Charge unrestricted"
    # Without the restriction the same seats reveal Charge in most games.
    unrestricted = free.cards[np.arange(games), seat, CHARGE, REVEALED]
    assert (unrestricted > 0).mean() > 0.5
    # The restriction changed the games, not only the records of one card.
    assert not np.array_equal(restricted.seats, free.seats)


# --- check_restricted: one-line errors -----------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["nope"], "unknown card 'nope'; cards: shove-left"),
        (["charge", "charge"], "restricted cards repeat: charge, charge"),
        (["charge", "run", "not-me"], "restricted play forbids at most 2 cards at once"),
    ],
    ids=["unknown", "repeated", "three"],
)
def test_check_restricted_refuses(cards: list[str], message: str) -> None:
    with pytest.raises(BalanceError) as caught:
        GAME.check_restricted(cards)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(BalanceError, match=message):
        setup_for(["random"] * 3, cards)


@pytest.mark.parametrize("cards", [[], ["charge"], ["charge", "run"], list(CARD_NAMES[:1])])
def test_check_restricted_accepts(cards: list[str]) -> None:
    GAME.check_restricted(cards)
    assert setup_for(["random"] * 3, cards).lineup.restricted == tuple(cards)


def test_restricted_play_refuses_bad_cards_and_games() -> None:
    setup = setup_for(["random"] * 3, [])
    with pytest.raises(BalanceError, match="unknown card 'nope'"):
        restricted_play(setup, 100, actions=["charge", "nope"])
    with pytest.raises(BalanceError, match="a card is named twice: charge, run, charge"):
        restricted_play(setup, 100, actions=["charge", "run", "charge"])
    with pytest.raises(BalanceError, match="games must be"):
        restricted_play(setup, 0, actions=["charge"])


def test_cli_cards_with_an_unknown_card_is_one_line(monkeypatch, capsys) -> None:
    # Through main(), in this process: exit code 2 and one line on stderr.
    monkeypatch.setattr("sys.argv", ["balance", "cards", "walk-the-plank", "--card", "nope"])
    with pytest.raises(SystemExit) as done:
        main()
    out, err = capsys.readouterr()
    assert done.value.code == 2, err
    assert "Traceback" not in err
    assert err.startswith("error: unknown card 'nope'")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert out == ""


# --- restricted_wins and restricted_play_table on hand-made arrays -----------------------


def test_restricted_wins_picks_seat_game_mod_n() -> None:
    won = np.array(
        [
            [1, 0, 0],
            [1, 0, 1],
            [0, 1, 1],
            [0, 1, 0],
            [1, 0, 1],
        ],
        dtype=bool,
    )
    lineup = setup_for(["random"] * 3, ["charge"]).lineup
    # Games 0..4: seats 0, 1, 2, 0, 1.
    np.testing.assert_array_equal(restricted_wins(won, lineup), [True, False, True, False, False])
    # Games 4..8: seats 1, 2, 0, 1, 2.
    np.testing.assert_array_equal(restricted_wins(won, lineup, 4), [False, True, False, True, True])
    assert restricted_wins(won, lineup).dtype == np.bool_
    four = setup_for(["random"] * 4, ["charge"]).lineup
    assert restricted_wins(np.zeros((0, 4), dtype=bool), four).shape == (0,)
    with pytest.raises(BalanceError):
        restricted_wins(won, four)


def paired_t(diff: list[float]) -> tuple[float, float, float, float]:
    """Mean, 95% interval and two-sided p of a paired t-test, written out by hand."""
    d = np.asarray(diff, dtype=float)
    g = d.size
    mean = d.sum() / g
    sd = math.sqrt(((d - mean) ** 2).sum() / (g - 1))
    se = sd / math.sqrt(g)
    half = stats.t.ppf(0.975, g - 1) * se
    p = 2 * stats.t.sf(abs(mean / se), g - 1)
    return mean, mean - half, mean + half, p


def test_restricted_play_table_by_hand() -> None:
    base = np.array([1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0], dtype=bool)
    restricted = {
        # Loses 4 of the base's 7 wins: differences -1 four times, 0 eight times.
        "charge": np.array([0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0], dtype=bool),
        # Wins every game: +1 wherever the base lost (5 games).
        "run": np.ones(12, dtype=bool),
        # The same games: no difference at all.
        "not-me": base.copy(),
    }
    table = restricted_play_table(base, restricted)
    assert list(table.columns) == [
        "action",
        "games",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
        "base_win_rate",
        "base_win_rate_low",
        "base_win_rate_high",
        "difference",
        "low",
        "high",
        "p",
        "p_holm",
        "significant",
    ]
    assert table["action"].tolist() == ["charge", "run", "not-me"]
    assert table["games"].tolist() == [12, 12, 12]
    assert table["win_rate"].tolist() == pytest.approx([3 / 12, 1.0, 7 / 12])
    assert table["base_win_rate"].tolist() == pytest.approx([7 / 12] * 3)
    for column, wins in (("win_rate", [3, 12, 7]), ("base_win_rate", [7, 7, 7])):
        low, high = wilson_interval(np.array(wins), 12)
        assert table[f"{column}_low"].tolist() == pytest.approx(low.tolist(), abs=1e-12)
        assert table[f"{column}_high"].tolist() == pytest.approx(high.tolist(), abs=1e-12)

    # The text prints both rates with their intervals, and the games they rest on.
    setup = api.make_setup("walk-the-plank", 4, 0, ("random",), (), (), False)
    text = RestrictedPlay(setup=setup, table=table, requested=12, partial=False).text()
    charge_line = next(line for line in text.splitlines() if line.startswith("  charge "))
    low, high = wilson_interval(3, 12)
    assert f"25.00% [{100 * low:.1f}, {100 * high:.1f}]" in charge_line
    assert "Wilson for the win rates, over the 12 games" in text

    charge = paired_t([-1, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0])
    run = paired_t([0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1])
    assert charge[0] == pytest.approx(-4 / 12) and run[0] == pytest.approx(5 / 12)
    for row, expected in zip(table.iloc[:2].itertuples(), [charge, run], strict=True):
        assert (row.difference, row.low, row.high, row.p) == pytest.approx(expected, rel=1e-9)
    no_change = table.iloc[2]
    # No game differed: not a certain zero, but the exact bound of none in 12 games.
    rare = 1 - 0.025 ** (1 / 12)
    assert (no_change["difference"], no_change["low"], no_change["high"]) == pytest.approx(
        (0.0, -rare, rare)
    )
    assert no_change["p"] == 1.0

    # Holm over 3 cards: the smallest p times 3, the next times 2 (kept monotone), then 1.
    p_charge, p_run = charge[3], run[3]
    low, high = sorted([p_charge, p_run])
    first = min(1.0, 3 * low)
    second = min(1.0, max(first, 2 * high))
    expected_holm = {p_charge: None, p_run: None}
    expected_holm[low], expected_holm[high] = first, second
    assert table["p_holm"].tolist() == pytest.approx(
        [expected_holm[p_charge], expected_holm[p_run], 1.0], rel=1e-9
    )
    assert table["significant"].tolist() == [
        expected_holm[p_charge] < 0.05,
        expected_holm[p_run] < 0.05,
        False,
    ]


def test_restricted_play_table_marks_a_strong_card_significant() -> None:
    base = np.array([1] * 40 + [0] * 10, dtype=bool)
    weak = base.copy()
    weak[:30] = False  # 30 of 40 wins lost
    table = restricted_play_table(base, {"charge": weak, "run": base.copy()})
    row = table.iloc[0]
    assert row["difference"] == pytest.approx(-30 / 50)
    _, low, high, p = paired_t([-1] * 30 + [0] * 20)
    assert (row["low"], row["high"], row["p"]) == pytest.approx((low, high, p), rel=1e-9)
    assert row["p_holm"] == pytest.approx(min(1.0, 2 * p), rel=1e-9)
    assert table["significant"].tolist() == [True, False]
    assert table["p_holm"].iloc[1] == 1.0


# --- restricted_play end to end --------------------------------------------------------


CARDS = ["charge", "run", "not-me"]


@pytest.fixture(scope="module")
def valued():
    setup = setup_for(["random"] * 3, [], seed=4)
    return setup, restricted_play(setup, 3000, actions=CARDS, threads=2)


def won_of(setup: Setup, games: int) -> np.ndarray:
    result = run_games(setup, games, threads=2, progress=False)
    return np.concatenate([block.won for block in result.blocks])


def test_restricted_play_table_shape(valued) -> None:
    setup, value = valued
    assert value.table["action"].tolist() == CARDS
    assert value.table["games"].tolist() == [3000] * 3
    assert value.games == 3000 and value.requested == 3000 and value.partial is False
    assert value.setup.lineup.restricted == ()
    assert value.setup.rules == setup.rules and value.setup.seed == setup.seed
    for row in value.table.itertuples():
        assert row.low <= row.difference <= row.high
        assert row.p <= row.p_holm <= 1
        assert row.difference == pytest.approx(row.win_rate - row.base_win_rate, abs=1e-12)


def test_restricted_play_pairs_each_run_with_the_unrestricted_one(valued) -> None:
    setup, value = valued
    base = restricted_wins(won_of(setup, 3000), setup.lineup)
    assert value.table["base_win_rate"].tolist() == pytest.approx([base.mean()] * 3, abs=0)
    for row in value.table.itertuples():
        restricted = setup_for(["random"] * 3, [row.action], seed=4)
        wins = restricted_wins(won_of(restricted, 3000), restricted.lineup)
        assert row.win_rate == wins.mean()
        expected = paired_t((wins.astype(float) - base).tolist())
        assert (row.difference, row.low, row.high) == pytest.approx(expected[:3], rel=1e-9)


def test_forbidding_a_card_changes_the_restricted_seat_results(valued) -> None:
    _, value = valued
    assert (value.table["difference"] != 0).any()
    # With random players, losing a card changes how often its seat wins: for 3,000
    # paired games at least one card's change stays significant after Holm.
    assert value.table["significant"].any()


def test_restricted_play_text(valued) -> None:
    _, value = valued
    text = value.text()
    assert text.startswith(f"walk-the-plank: card value by {METHOD}\n")
    assert "restricted play" in METHOD and "Jaffe" in METHOD
    assert "3,000 games per card, 3 players, seed 4" in text
    assert "strategies: random, random, random" in text
    for row in value.table.itertuples():
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  {row.action} "))
        assert f"{100 * row.win_rate:.2f}%" in line
        assert f"{100 * row.difference:+.2f} pp" in line
        assert line.endswith(" *") == bool(row.significant)
    assert "interrupted" not in text


def test_restricted_play_defaults_to_every_card() -> None:
    setup = setup_for(["random"] * 2, [], seed=1)
    value = restricted_play(setup, 200, threads=1)
    assert value.table["action"].tolist() == list(CARD_NAMES)
    assert value.table["games"].tolist() == [200] * len(CARD_NAMES)


def test_restricted_play_ignores_a_restriction_already_in_the_setup() -> None:
    plain = restricted_play(setup_for(["random"] * 3, [], seed=6), 500, actions=["run"])
    given = restricted_play(setup_for(["random"] * 3, ["charge"], seed=6), 500, actions=["run"])
    pd.testing.assert_frame_equal(plain.table, given.table)
    assert given.setup.lineup.restricted == ()


# --- a user's strategy that programs a forbidden card ---------------------------------------

RECKLESS = """\
from balance.games.walk_the_plank.kit import Card, below_nb, njit
from balance.strategy import Strategy


@njit
def program(obs, seat, available, params, rng, out):
    # Ignores ``available``: Charge, Shove Left and Shove Right, whatever it may program.
    out[0] = Card.CHARGE
    out[1] = Card.SHOVE_LEFT
    out[2] = Card.SHOVE_RIGHT


@njit
def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return below_nb(rng, count)


reckless = Strategy(
    "walk-the-plank",
    "reckless",
    "Always Charge, Shove Left and Shove Right.",
    {"program": program, "choose": choose},
)
"""


@pytest.mark.slow
def test_a_user_strategy_that_programs_a_forbidden_card_stops_the_run(tmp_path: Path) -> None:
    path = tmp_path / "reckless.py"
    path.write_text(RECKLESS)
    setup = setup_for(["random", f"{path}:reckless", "random"], [], seed=3)
    # Unrestricted, its program is always legal (none of its cards rests) ...
    result = run_games(setup, 100, threads=1, progress=False)
    assert result.games == 100
    # ... restricted, seat 1 may not program Charge in game 1: the run stops there.
    with pytest.raises(BalanceError) as caught:
        restricted_play(setup, 100, actions=["charge"], threads=1)
    assert str(caught.value) == (
        "strategy 'reckless' (seat 1) made an illegal 'program' decision in game 1: "
        f"programmed {CARD_NAMES[CHARGE]}, {CARD_NAMES[0]}, {CARD_NAMES[1]}, not three "
        "different cards from its hand (cards resting or forbidden to it may not be programmed)"
    )


# --- replay of a saved restricted run ------------------------------------------------------


def test_replay_of_a_restricted_run_names_the_restricted_seat(tmp_path: Path) -> None:
    setup = setup_for(["random"] * 3, ["charge", "run"], seed=7)
    directory = tmp_path / "restricted"
    writer = RunWriter(directory, setup)
    result = run_games(setup, 60, threads=1, sinks=[writer], progress=False)
    writer.close(manifest_for(setup, 60, result.partial, threads=1), summarize(result))
    loaded = load_run(directory)
    assert loaded.setup.lineup.restricted == ("charge", "run")
    assert loaded.setup == setup

    done = CliRunner().invoke(cli, ["replay", str(directory), "4"])
    assert done.exit_code == 0, (done.output, done.exception)
    text = done.stdout
    assert "restricted play: seat 1 may never program charge, run" in text
    assert " seat 1 reveals Charge" not in text and " seat 1 reveals Run" not in text
    assert " seat 0 reveals" in text and " seat 1 reveals" in text


# --- balance cards ---------------------------------------------------------------------------


def test_cli_cards_prints_the_table_and_saves_it(tmp_path: Path) -> None:
    out = tmp_path / "card-value"
    args = ["cards", "walk-the-plank", "-p", "3", "-g", "400", "-s", "2", "-t", "2"]
    done = CliRunner().invoke(cli, [*args, "--card", "charge", "--card", "run", "--out", str(out)])
    assert done.exit_code == 0, (done.output, done.exception)
    assert done.stdout.startswith(f"walk-the-plank: card value by {METHOD}\n")
    assert "400 games per card, 3 players, seed 2" in done.stdout
    assert re.search(r"^  charge\s", done.stdout, re.MULTILINE)
    assert re.search(r"^  run\s", done.stdout, re.MULTILINE)
    assert not re.search(r"^  not-me\s", done.stdout, re.MULTILINE)
    table = pd.read_csv(out / "restricted-play.csv")
    assert table["action"].tolist() == ["charge", "run"]
    assert table["games"].tolist() == [400, 400]
    assert {p.name for p in out.iterdir()} == {
        "00-findings.png",
        "00-title.png",
        "20-value-by-restricted-play.png",
        "restricted-play.pdf",
        "restricted-play.csv",
        "index.html",
    }
    expected = restricted_play(setup_for(["random"] * 3, [], seed=2), 400, ["charge", "run"])
    pd.testing.assert_frame_equal(table, expected.table, check_dtype=False)
