"""``simulate --precision H``: play blocks until the anytime-valid intervals are narrow enough."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main, forbid_games, invoke

from balance import api
from balance.core.game import Block
from balance.run.precision import BLOCK


def precise(threads: int, precision: float = 0.02, **kwargs) -> dict:
    run = api.simulate("walk-the-plank", players=3, precision=precision, threads=threads, **kwargs)
    return run.summary()


def test_stops_once_every_headline_interval_is_narrow_enough() -> None:
    s = precise(threads=2)
    assert s["anytime_valid"] is True and s["precision"] == 0.02
    assert s["games"] % BLOCK == 0 and s["games"] < s["max_games"]
    widths = [(r["ci95"][1] - r["ci95"][0]) / 2 for r in s["seat_win_rate"]]
    index_width = (s["balance_index_ci95"][1] - s["balance_index_ci95"][0]) / 2
    assert max([*widths, index_width]) <= 0.02
    # One block less would not have done: the stop is the first block that was enough.
    earlier = precise(threads=2, max_games=s["games"] - BLOCK)
    assert earlier["stopped_by"] == "max_games"
    assert earlier["widest_half_width"] > 0.02
    assert s["stopped_by"] in {"balance index", "seat 0", "seat 1", "seat 2"}
    for row in s["seat_win_rate"]:
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]


def test_same_games_and_intervals_whatever_the_threads() -> None:
    one, two = precise(threads=1), precise(threads=2)
    for key in ("games", "seat_win_rate", "balance_index_ci95", "stopped_by", "length_mean"):
        assert one[key] == two[key], key


def test_max_games_ends_the_run_first_and_says_so() -> None:
    out = invoke("simulate", "walk-the-plank", "-p", 3, "--precision", 0.001, "--max-games", BLOCK)
    assert f"Stopped at --max-games ({BLOCK:,} games)" in out
    assert "anytime-valid" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--precision", 0], "--precision"),
        (["--precision", -0.01], "--precision"),
        (["--precision", 0.9], "--precision"),
        (["--precision", "nan"], "--precision"),
        (["--precision", 1e-7], "--precision"),
        (["--precision", 0.01, "--max-games", 0], "--max-games"),
        (["--max-games", 1000], "goes with --precision"),
    ],
)
def test_bad_precision_is_one_line(monkeypatch, capsys, args, fragment) -> None:
    result = call_main(monkeypatch, capsys, "simulate", "walk-the-plank", *args)
    assert_one_line_error(*result, fragment)


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "walk-the-plank"],
        ["compare", "walk-the-plank", "--variant", "base", "--variant", "kraken"],
        ["cards", "walk-the-plank", "--card", "charge"],
    ],
)
@pytest.mark.parametrize("games", [["--games", 5000], ["-g", 100_000]])
def test_games_with_precision_is_refused(monkeypatch, capsys, command, games) -> None:
    # --precision plays until precise enough: a number of games given beside it would be
    # ignored, even the default's own number.
    forbid_games(monkeypatch)
    result = call_main(monkeypatch, capsys, *command, *games, "--precision", 0.01)
    assert_one_line_error(*result, "--games and --precision exclude each other")


def paired(threads: int, precision: float = 0.03):
    from balance.analyses.compare import compare

    return compare("walk-the-plank", 3, 0, ["base", "kraken"], precision=precision, threads=threads)


def test_compare_stops_once_every_paired_difference_of_a_rate_is_narrow_enough() -> None:
    one = paired(threads=2)
    assert one.games % BLOCK == 0 and one.precision["stopped_by"] != "max_games"
    rows = one.table[one.table["anytime"]]
    rates = rows[rows["metric"] != "game length"]
    assert len(rates) == 3 + 1 + 3  # seats, finished, games with 0, 1, 2 winners
    assert ((rates["diff_high"] - rates["diff_low"]) / 2 <= 0.03).all()
    inside = (rows["diff_low"] <= rows["difference"]) & (rows["difference"] <= rows["diff_high"])
    assert inside.all()
    assert "anytime-valid" in one.text()


def test_compare_title_page_names_its_anytime_valid_intervals_and_stop() -> None:
    from balance.analyses.compare import _title_lines

    text = "\n".join(_title_lines(paired(threads=2)))
    assert "anytime-valid" in text and "stopped after" in text
    assert "Differences: paired over games, 95% Student t" not in text


def paired_blocks(rng: np.random.Generator, first: int, players: int = 3) -> dict[str, Block]:
    """A block of games of two variants: the winner redrawn in a third of the games, the
    length one round shorter or longer now and then (-0.136 rounds on average)."""
    size = BLOCK
    winner = rng.integers(players, size=size)
    other = np.where(rng.random(size) < 1 / 3, rng.integers(players, size=size), winner)
    length = rng.integers(4, 12, size=size)
    change = rng.choice([-1, 0, 1], size=size, p=[0.3, 0.536, 0.164])
    finished = np.ones(size, dtype=bool)
    seats = np.eye(players, dtype=bool)
    return {
        "base": Block(first, length, finished, seats[winner], {}),
        "dolphin": Block(first, length + change, finished, seats[other], {}),
    }


def test_compare_precision_intervals_hold_their_estimate_and_the_t_interval() -> None:
    # The difference of lengths lies in [-100, 100] rounds: known to hundredths of a
    # round, far finer than the sequence's first grid (0.098 rounds apart).
    from balance.run.paired_precision import PairedTracker, apply_anytime
    from balance.stats import metrics

    rng = np.random.default_rng(5)
    tracker = PairedTracker(["base", "dolphin"], 3, 100, 0.005)
    played: dict[str, list[Block]] = {"base": [], "dolphin": []}
    while not tracker.done():
        blocks = paired_blocks(rng, len(played["base"]) * BLOCK)
        tracker.update_pair(blocks)
        for label, block in blocks.items():
            played[label].append(block)
    tracker.finish()
    frames = {
        label: metrics.common_per_game(
            np.concatenate([b.length for b in blocks]),
            np.concatenate([b.finished for b in blocks]),
            np.concatenate([b.won for b in blocks]),
            "rounds",
        )
        for label, blocks in played.items()
    }
    rows = []
    for metric in frames["base"][1]:
        diff = metrics.paired_difference(
            frames["dolphin"][0][metric.column], frames["base"][0][metric.column]
        )
        rows.append({"run": "dolphin", "metric": metric.name, **diff})
    table = pd.DataFrame(rows).rename(columns={"low": "diff_low", "high": "diff_high"})
    fixed = table.copy()
    apply_anytime(table, tracker)
    assert table["anytime"].all()
    assert (table["diff_low"] <= table["difference"]).all()
    assert (table["difference"] <= table["diff_high"]).all()
    assert (table["diff_low"] <= fixed["diff_low"]).all()
    assert (table["diff_high"] >= fixed["diff_high"]).all()
    length = table.set_index("metric").loc["game length"]
    assert length["diff_high"] - length["diff_low"] > 0.01


@pytest.mark.slow
def test_compare_stops_the_same_for_any_threads() -> None:
    one, two = paired(threads=1, precision=0.015), paired(threads=2, precision=0.015)
    assert one.games == two.games
    assert one.precision == two.precision
    rows, others = one.table[one.table["anytime"]], two.table[two.table["anytime"]]
    assert list(rows["diff_low"]) == list(others["diff_low"])


def test_cards_stop_once_every_value_is_narrow_enough() -> None:
    from balance.analyses.restricted import card_value_json, restricted_play

    setup = api.make_setup("walk-the-plank", 3)
    value = card_value_json(restricted_play(setup, 0, ["charge", "run"], threads=2, precision=0.03))
    assert value["anytime_valid"] is True and value["stopped_by"] in {"charge", "run"}
    assert value["games"] % BLOCK == 0
    for card in value["cards"]:
        low, high = card["ci95"]
        assert (high - low) / 2 <= 0.03 and low <= card["value"] <= high


def test_cards_precision_says_where_it_is_not_available(monkeypatch, capsys) -> None:
    result = call_main(monkeypatch, capsys, "cards", "battle-of-thieves", "--precision", 0.01)
    assert_one_line_error(*result, "not available for battle-of-thieves")


def test_a_run_can_start_at_any_game_and_plays_the_same_games() -> None:
    from balance.run.runner import run_games

    setup = api.make_setup("walk-the-plank", 3, seed=7)
    whole = run_games(setup, 2 * 512, batch=512, threads=1, progress=False)
    later = run_games(setup, 512, batch=512, threads=2, progress=False, first_game=512)
    (block,) = later.blocks
    assert block.first_game == 512
    assert (block.won == whole.blocks[1].won).all()
    assert (block.length == whole.blocks[1].length).all()


class _FixedIntervals:
    """A tracker that has given every difference its anytime-valid interval."""

    def __init__(self, found: dict) -> None:
        self.found = found

    def intervals(self) -> dict:
        return self.found


def test_a_difference_whose_anytime_interval_holds_zero_is_not_starred() -> None:
    # The p-value is fixed-n; the interval shown is anytime-valid and may hold 0 while the
    # p-value is below 5%: no star (no filled point) on an interval that holds 0.
    from balance.run.paired_precision import apply_anytime

    table = pd.DataFrame(
        {
            "run": ["dolphin", "dolphin", "dolphin"],
            "metric": ["game length", "seat 0 win rate", "balance index"],
            "difference": [-0.10, -0.02, 0.001],
            "diff_low": [-0.15, -0.03, -0.001],
            "diff_high": [-0.05, -0.01, 0.003],
            "significant": [True, True, True],
        }
    )
    found = {
        ("dolphin", "game length"): (-0.28, 0.07),
        ("dolphin", "seat 0 win rate"): (-0.04, -0.005),
    }
    apply_anytime(table, _FixedIntervals(found))
    assert list(table["significant"]) == [False, True, True]


def test_card_values_under_precision_star_only_intervals_clear_of_zero(monkeypatch) -> None:
    from balance.analyses import restricted

    value = restricted.restricted_play(
        api.make_setup("walk-the-plank", 3), 0, ["charge", "run"], threads=2, precision=0.03
    )
    table = value.table
    clear = (table["low"] > 0) | (table["high"] < 0)
    assert not (table["significant"].astype(bool) & ~clear).any()
    seen = {}
    monkeypatch.setattr(restricted, "plot_intervals", lambda *a, **k: seen.update(k))
    restricted.restricted_play_chart(value)
    assert "anytime-valid" in seen["note"] and "paired t" not in seen["note"]
    assert "clear of 0" in value.text()
