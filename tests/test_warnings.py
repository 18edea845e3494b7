"""Runs whose numbers cannot mean what they seem say so first: games stopped at the cap,
no winner at all, and the findings page that opens every report and comparison."""

from __future__ import annotations

import json
import math
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import invoke, simulate_json

from balance import api
from balance.analyses.compare import compare, comparison_findings, comparison_pages
from balance.analyses.restricted import restricted_play
from balance.analyses.run_report import RunTables, report_charts, run_caveats, run_findings
from balance.reports import findings
from balance.reports.charts import flag, new_axes
from balance.stats.caveats import CAP_SHARE, capped_warning, no_winner_warning, run_warnings
from balance.stats.intervals import wilson_interval
from balance.stats.metrics import balance_index, balance_index_difference, balance_index_interval

ROOT = Path(__file__).resolve().parents[1]
#: A cap of 3 rounds stops most four-player games of random players unfinished.
CAPPED = ("--rule", "round_cap=3")
#: Survivors never push a pirate: every game plays to the cap and nobody wins.
SURVIVORS = ("--strategy", "survivor")


# --- the warnings themselves ---------------------------------------------------------------


def test_the_cap_warning_starts_at_five_percent_of_the_games() -> None:
    assert CAP_SHARE == 0.05
    assert capped_warning(99, 2000, 100, "rounds") is None  # 4.95%
    text = capped_warning(100, 2000, 100, "rounds")
    low, high = wilson_interval(100, 2000)
    assert text.startswith(
        f"100 of 2,000 games (5.0% [{100 * low:.1f}%, {100 * high:.1f}%]) stopped unfinished "
        "at the cap of 100 rounds"
    )
    assert capped_warning(0, 0, 100, "rounds") is None
    assert "the length cap" in capped_warning(3, 3, None, "turns")


def test_the_no_winner_warning_needs_every_game_without_a_winner() -> None:
    nobody = np.zeros((40, 3), dtype=bool)
    assert "none of the 40 games had a winner" in no_winner_warning(nobody)
    nobody[17, 2] = True
    assert no_winner_warning(nobody) is None
    assert no_winner_warning(np.zeros((0, 3), dtype=bool)) is None


def test_run_warnings_name_the_run() -> None:
    finished = np.ones(100, dtype=bool)
    won = np.zeros((100, 2), dtype=bool)
    won[:, 0] = True
    assert run_warnings(finished, won, 60, "rounds") == []
    finished[:5] = False
    found = run_warnings(finished, won, 60, "rounds", label="kraken")
    assert len(found) == 1 and found[0].startswith("kraken: 5 of 100 games (5.0% [")
    found = run_warnings(finished, np.zeros((100, 2), dtype=bool), 60, "rounds")
    assert len(found) == 2 and found[1].startswith("none of the 100 games had a winner")


def test_no_winner_leaves_the_balance_index_not_a_number() -> None:
    assert math.isnan(balance_index([0.0, 0.0, 0.0]))
    assert balance_index([0.0, 0.0, 0.1]) == pytest.approx(0.9)
    nobody = np.zeros((500, 3), dtype=bool)
    index = balance_index_interval(nobody)
    assert all(math.isnan(index[key]) for key in ("value", "low", "high"))
    some = np.random.default_rng(1).random((500, 3)) < 0.3
    assert not math.isnan(balance_index_interval(some)["low"])
    for a, b in ((nobody, some), (some, nobody)):
        diff = balance_index_difference(a, b, draws=500)
        assert all(math.isnan(diff[key]) for key in ("difference", "low", "high", "p"))


def test_flag_puts_the_warnings_above_the_chart() -> None:
    figure, _ = new_axes()
    rect = figure.get_layout_engine().get()["rect"]
    flag(figure, [])
    assert figure.get_layout_engine().get()["rect"] == rect and not figure.texts
    flag(figure, ["warning: something"])
    assert figure.texts[-1].get_text() == "warning: something"
    assert figure.texts[-1].get_position()[1] > 0.98
    assert figure.get_layout_engine().get()["rect"][3] < rect[3]  # the axes gave room


# --- findings sentences --------------------------------------------------------------------


def test_seat_sentence_says_whether_the_gap_is_more_than_chance() -> None:
    seats = ["seat 0", "seat 1", "seat 2"]
    rate, low, high = [0.30, 0.36, 0.33], [0.29, 0.35, 0.32], [0.31, 0.37, 0.34]
    index = {"value": 0.94, "low": 0.92, "high": 0.96}
    text = findings.seat_sentence(seats, rate, low, high, index, 9000)
    assert text.startswith("Seat 0 wins 6.00 percentage points less often than seat 1: ")
    assert "30.00% [29.00%, 31.00%] of 9,000 games against 36.00% [35.00%, 37.00%]" in text
    assert "between 4.00 and 8.00 points (balance index 0.940 [0.920, 0.960])" in text
    assert text.endswith("so one seat is ahead of another by more than chance explains.")
    within = findings.seat_sentence(seats, rate, low, high, {**index, "high": 1.0}, 9000)
    assert within.endswith("so no seat is ahead of another by more than chance explains.")
    nan = {"value": float("nan"), "low": float("nan"), "high": float("nan")}
    assert "cannot be compared" in findings.seat_sentence(seats, [0, 0, 0], low, high, nan, 9)


def difference_rows(significant: list[bool], **columns: list[float]) -> pd.DataFrame:
    """A comparison table's rows of one variant (hand-made); ``columns`` replace some."""
    metrics = ["game length", "seat 0 win rate", "seat 1 win rate", "balance index"]
    table = pd.DataFrame(
        {
            "run": "kraken",
            "metric": metrics,
            "unit": ["rounds", "", "", ""],
            "kind": ["mean", "share", "share", "index"],
            "games": 5000,
            "value": [8.3, 0.32, 0.35, 0.97],
            "base_value": [7.8, 0.34, 0.35, 0.99],
            "difference": [0.5, -0.02, 0.0, -0.02],
            "diff_low": [0.4, -0.03, -0.01, -0.03],
            "diff_high": [0.6, -0.01, 0.01, -0.01],
            "p": [1e-9, 1e-4, 0.9, 1e-3],
            "p_holm": [4e-9, 3e-4, 0.9, 2e-3],
            "significant": significant,
        }
    )
    return table.assign(**columns)


def test_difference_sentences_list_what_matters() -> None:
    head, *rest = findings.difference_sentences(
        difference_rows([True, True, False, False]), "kraken", "base"
    )
    assert head.startswith("kraken against base (5,000 paired games; a change matters from 1 ")
    (changes,) = [line for line in rest if line.startswith("Changes that matter: ")]
    assert "games last longer, from 7.800 to 8.300 rounds (+0.500 rounds [+0.400, +0.600]" in (
        changes
    )
    assert "seat 0 win rate falls from 34.00% to 32.00% (-2.00 points [-3.00, -1.00])" in changes
    assert "seat 1 win rate" not in changes and "balance index" not in changes


def test_a_variant_that_does_not_change_who_wins_says_so_with_its_bound() -> None:
    # Every seat and the index within +/-0.4 points, none significant: a null result
    # with its bound, not "nothing moved".
    rows = difference_rows(
        [True, False, False, False],
        difference=[0.5, 0.001, -0.001, 0.0],
        diff_low=[0.4, -0.003, -0.004, -0.002],
        diff_high=[0.6, 0.004, 0.002, 0.003],
    )
    found = findings.difference_sentences(rows, "dolphin", "base")
    assert found[0].endswith(
        "a change matters from 1 point of a rate, 0.01 of the balance index and 1% of a mean "
        "such as the game length (--min-effect)):"
    )
    assert found[1] == (
        "dolphin does not change who wins: the 95% intervals of the changes reach at most "
        "0.40 points for a seat's win rate, 0.003 for the balance index, under what matters."
    )
    # Asked to care about a quarter of a point, the same games cannot tell.
    found = findings.difference_sentences(rows, "dolphin", "base", min_effect=0.25)
    assert found[0].endswith(
        "0.0025 of the balance index and 0.25% of a mean such as the game length (--min-effect)):"
    )
    assert found[1].startswith("Whether dolphin changes who wins is not settled: ")
    assert "reach 0.40 points for a seat's win rate, 0.003 for the balance index, more" in found[1]


def test_a_significant_change_whose_interval_holds_zero_is_not_beyond_chance() -> None:
    # Under --precision the interval is anytime-valid and the p-value fixed-n: the
    # findings follow the interval shown.
    rows = difference_rows(
        [False, True, False, False],
        difference=[0.01, -0.0046, -0.001, 0.0],
        diff_low=[-0.02, -0.0097, -0.004, -0.002],
        diff_high=[0.04, 0.0003, 0.002, 0.003],
    )
    found = findings.difference_sentences(rows, "dolphin", "base")
    assert found[1].startswith("dolphin does not change who wins")
    assert not any(line.startswith("Beyond chance") for line in found)


def test_a_significant_but_tiny_change_reads_as_tiny() -> None:
    rows = difference_rows(
        [False, True, False, False],
        value=[7.81, 0.343, 0.349, 0.99],
        difference=[0.01, 0.003, -0.001, 0.0],
        diff_low=[-0.02, 0.001, -0.004, -0.002],
        diff_high=[0.04, 0.005, 0.002, 0.003],
    )
    found = findings.difference_sentences(rows, "kraken", "base")
    assert not any(line.startswith("Changes that matter") for line in found)
    (tiny,) = [line for line in found if line.startswith("Beyond chance but too small")]
    assert "seat 0 win rate rises from 34.00% to 34.30% (+0.30 points [+0.10, +0.50])" in tiny
    assert found[-1] == (
        "Too small to matter (the largest change each allows): game length 0.040 rounds."
    )
    # A designer who cares about a twentieth of a point sees it matter.
    found = findings.difference_sentences(rows, "kraken", "base", min_effect=0.05)
    assert any("Changes that matter: seat 0 win rate rises" in line for line in found)


def test_a_change_the_games_cannot_settle_says_how_large_it_may_be() -> None:
    rows = difference_rows([False] * 4, diff_low=[-0.3, -0.03, -0.01, -0.03])
    found = findings.difference_sentences(rows, "kraken", "base")
    assert found[-1] == (
        "Not settled, no change beyond chance but one that matters cannot be ruled out "
        "(the largest change each allows): game length 0.600 rounds."
    )


@pytest.mark.parametrize("value", [0, -1, 100, float("nan")])
def test_bad_min_effect_is_one_line(monkeypatch, capsys, value) -> None:
    from cli_helpers import assert_one_line_error, call_main, forbid_games

    forbid_games(monkeypatch)
    for command in (
        ["compare", "walk-the-plank", "--variant", "base", "--variant", "kraken"],
        ["cards", "walk-the-plank", "--card", "charge"],
    ):
        result = call_main(monkeypatch, capsys, *command, "--min-effect", value)
        assert_one_line_error(*result, "--min-effect", "smallest change that matters")


def test_length_sentence_is_a_lower_bound_with_capped_games() -> None:
    text = findings.length_sentence((7.5, 7.4, 7.6), 0, (0.0, 0.01), 300, "rounds", 100)
    assert text.startswith("Games last 7.50 rounds on average [7.40, 7.60] over 300 games")
    capped = findings.length_sentence((7.5, 7.4, 7.6), 30, (0.07, 0.14), 300, "rounds", 9)
    assert capped.startswith("Games last at least 7.50 rounds")
    assert capped.endswith("stopped unfinished at the cap of 9 rounds.")


# --- simulate ------------------------------------------------------------------------------


def test_simulate_warns_first_when_games_stop_at_the_cap() -> None:
    args = ["-p", "4", "-g", "400", *CAPPED]
    summary = simulate_json("walk-the-plank", *args)
    unfinished = round((1 - summary["finished_rate"]) * 400)
    assert unfinished >= 0.05 * 400
    assert summary["warnings"] == [capped_warning(unfinished, 400, 3, "rounds")]
    text = invoke("simulate", "walk-the-plank", *args)
    assert text.splitlines()[0] == "warning: " + summary["warnings"][0]
    assert text.splitlines()[1].startswith("walk-the-plank: 400 games")


def test_simulate_of_games_that_end_has_no_warning() -> None:
    summary = simulate_json("walk-the-plank", "-p", "4", "-g", "400")
    assert summary["warnings"] == [] and summary["finished_rate"] > 0.95
    assert not invoke("simulate", "walk-the-plank", "-p", "4", "-g", "400").startswith("warning")


def test_simulate_without_a_winner_prints_no_balance_index() -> None:
    args = ["-p", "3", "-g", "200", *SURVIVORS]
    summary = simulate_json("walk-the-plank", *args)
    assert summary["balance_index"] is None and summary["balance_index_ci95"] == [None, None]
    assert len(summary["warnings"]) == 2
    lines = invoke("simulate", "walk-the-plank", *args).splitlines()
    assert [line.startswith("warning: ") for line in lines[:3]] == [True, True, False]
    assert "none of the 200 games had a winner" in lines[1]
    (index,) = [line for line in lines if line.startswith("  balance index")]
    assert index.endswith(
        "balance index (1 - largest gap between seats): n/a (no game had a winner)"
    )


def test_the_readme_rotation_example_plays_games_that_end() -> None:
    readme = (ROOT / "README.md").read_text()
    (command,) = re.findall(r"^- `(balance simulate [^`]*--rotate-seats[^`]*)`", readme, re.M)
    args = shlex.split(command)[2:]
    summary = simulate_json(*args, "-g", "2000")
    assert summary["warnings"] == []
    assert summary["finished_rate"] > 0.95
    assert summary["balance_index"] is not None and len(set(summary["strategies"])) == 3


# --- compare, report, cards ----------------------------------------------------------------


@pytest.fixture(scope="module")
def capped_comparison(tmp_path_factory: pytest.TempPathFactory):
    """A comparison saved without rendering its charts (comparison_pages draws them)."""
    out = tmp_path_factory.mktemp("compare") / "cmp"
    variants = ["base", "round_cap=3"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("balance.analyses.compare.write_charts", lambda charts, out, name: [])
        return out, compare("walk-the-plank", 4, 600, variants, seed=3, threads=2, out=out)


def test_compare_warns_first_in_text_json_and_pages(capped_comparison) -> None:
    out, comparison = capped_comparison
    (warning,) = comparison.warnings
    assert warning.startswith("round_cap=3: ") and "at the cap of 3 rounds" in warning
    assert comparison.text().splitlines()[0] == f"warning: {warning}"
    assert json.loads((out / "comparison.json").read_text())["warnings"] == [warning]
    pages = comparison_pages(comparison)
    assert pages[0].name == "00-findings"
    said = [" ".join(text.get_text().split()) for text in pages[0].figure.texts]
    assert said[1] == f"warning: {warning}"  # first, under the page's title
    for page in pages[1:]:
        assert page.figure.texts[-1].get_text().startswith(f"warning: {warning}"[:100]), page


def test_comparison_findings_restate_the_table(capped_comparison) -> None:
    _, comparison = capped_comparison
    lines = comparison_findings(comparison)
    # Random players first: what the comparison measures is random play.
    assert lines.pop(0).startswith("Every seat plays the uniform-random player: ")
    assert [line.split(":")[0] for line in lines[:2]] == ["base", "round_cap=3"]
    table = comparison.table
    finished = table[
        (table["run"] == "round_cap=3") & (table["metric"] == "finished before the cap")
    ]
    value = finished.iloc[0]
    assert finished["significant"].all()
    assert lines[2].startswith("round_cap=3 against base (600 paired games; ")
    assert (
        f"finished before the cap falls from {100 * value.base_value:.2f}% to "
        f"{100 * value.value:.2f}% ({100 * value.difference:+.2f} points "
        f"[{100 * value.diff_low:+.2f}, {100 * value.diff_high:+.2f}])"
    ) in " ".join(lines[3:])


@pytest.fixture(scope="module")
def survivor_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "survivors"
    api.simulate("walk-the-plank", 3, 300, strategies=["survivor"], out=out, threads=2)
    return out


def test_report_of_a_run_without_a_winner(survivor_run: Path) -> None:
    tables = RunTables.read(survivor_run)
    warned = run_caveats(tables)
    assert len(warned) == 2 and warned[0].startswith("300 of 300 games (100.0% [")
    charts = report_charts(tables)
    assert charts[0].name == "00-findings" and charts[1].name == "00-title"
    seat = next(chart for chart in charts if chart.name == "01-seat-win-rates")
    assert seat.figure.axes[0].get_title() == (
        "win rate by seat (balance index n/a: no game had a winner)"
    )
    for chart in charts[1:]:
        assert chart.figure.texts[-1].get_text().startswith("warning: 300 of 300 games")
    found = run_findings(tables)
    assert found[0].startswith("No seat won any of the 300 games")
    assert found[1] == "Nobody won 300 of the 300 games (100.00% [98.74%, 100.00%])."
    assert found[2].startswith("Games last at least 100.00 rounds on average")


def test_report_findings_of_a_run_that_ends(tmp_path: Path) -> None:
    out = tmp_path / "run"
    api.simulate("walk-the-plank", 3, 600, seed=4, out=out, threads=2)
    tables = RunTables.read(out)
    assert run_caveats(tables) == []
    seats = tables["seats"].groupby("seat")["won"].mean()
    first, text = run_findings(tables)[:2]
    assert first.startswith("Every seat plays the uniform-random player: the gaps between")
    bottom, top = int(seats.idxmin()), int(seats.idxmax())
    assert text.startswith(
        f"Seat {bottom} wins {100 * (seats[top] - seats[bottom]):.2f} percentage points "
        f"less often than seat {top}: {100 * seats[bottom]:.2f}% ["
    )
    assert all(
        not text.get_text().startswith("warning")
        for c in report_charts(tables)[1:]
        for text in c.figure.texts
    )


def test_cards_warn_first_when_games_stop_at_the_cap() -> None:
    text = invoke("cards", "walk-the-plank", "-p", "3", "-g", "300", "--card", "charge", *CAPPED)
    lines = text.splitlines()
    assert lines[0].startswith("warning: unrestricted run: ")
    assert lines[1].startswith("warning: runs without a card in which 5% or more of the 300 ")
    assert lines[1].count("charge ") == 1
    assert lines[2].startswith("walk-the-plank: card value by restricted play")
    setup = api.make_setup("walk-the-plank", 3)
    assert restricted_play(setup, 300, ["charge"], threads=2).warnings == []


def test_a_comparison_without_a_winner_has_no_balance_index() -> None:
    comparison = compare(
        "walk-the-plank", 3, 200, ["base", "kraken"], strategies=["survivor"], threads=2
    )
    assert len(comparison.warnings) == 4
    index = comparison.table[comparison.table["metric"] == "balance index"]
    assert index[["value", "low", "high"]].isna().all().all()
    assert index["difference"].iloc[1] != index["difference"].iloc[1]
    (row,) = [line for line in comparison.text().splitlines() if line.startswith("  balance index")]
    assert row.split() == ["balance", "index", "n/a", "n/a", "n/a", "n/a"]
    pages = {page.name: page for page in comparison_pages(comparison)}
    labels = [
        tick.get_text() for tick in pages["02-balance-index"].figure.axes[0].get_yticklabels()
    ]
    assert labels == ["base (n/a)", "kraken (n/a)"][::-1] or labels == [
        "base (n/a)",
        "kraken (n/a)",
    ]
    assert "seats cannot be compared" in comparison_findings(comparison)[0]


def test_battle_of_thieves_card_values_warn_first_when_games_stop_at_the_cap() -> None:
    decks = ["--deck", "cannon-battery", "--deck", "boarding-party", "--card", "Broadside"]
    args = ["cards", "battle-of-thieves", "-g", "200", "-t", "2", *decks]
    lines = invoke(*args, "--rule", "turn_cap=6").splitlines()
    assert lines[0].startswith("warning: unrestricted run: 200 of 200 games (100.0% [")
    assert "at the cap of 6 turns" in lines[0]
    assert lines[1].startswith("warning: nobody won any of the 200 games")
    assert lines[2].startswith("Card value by restricted play")
    assert invoke(*args).startswith("Card value by restricted play")


def test_restricted_play_findings_say_which_cards_help_and_hurt_their_holder() -> None:
    table = pd.DataFrame(
        {
            "action": ["run", "charge", "not-me", "drag-to-sea"],
            "games": [500, 500, 500, 500],
            "win_rate": [0.20, 0.46, 0.31, 0.35],
            "base_win_rate": [0.32, 0.32, 0.32, 0.32],
            "difference": [-0.12, 0.14, -0.01, 0.03],
            "low": [-0.16, 0.10, -0.04, 0.01],
            "high": [-0.08, 0.18, 0.02, 0.05],
            "significant": [True, True, False, False],
        }
    )
    first, helps, hurts, rest = findings.restricted_play_sentences(table, "card")
    assert first.startswith("2 of the 4 cards change the win rate of the restricted seat")
    assert "500 paired games a card" in first
    assert first.endswith("a change matters from 1 point (--min-effect).")
    assert helps.startswith("Worth most to the player who has them: run (12.00 points")
    assert "charge" not in helps and "not-me" not in helps
    assert hurts.startswith("Costly to their holder") and "charge (14.00 points" in hurts
    assert rest == (
        "Not settled, no change beyond chance but one that matters cannot be ruled out "
        "(the largest change each allows): drag-to-sea 5.00; not-me 4.00."
    )
    none = table.assign(significant=False)
    first, rest = findings.restricted_play_sentences(none, "symbol")
    assert first.startswith("0 of the 4 symbols") and rest.startswith("Not settled")


def test_restricted_play_findings_say_which_cards_are_too_small_to_matter() -> None:
    table = pd.DataFrame(
        {
            "action": ["run", "charge"],
            "games": [90_000, 90_000],
            "win_rate": [0.323, 0.318],
            "base_win_rate": [0.32, 0.32],
            "difference": [0.003, -0.002],
            "low": [0.001, -0.006],
            "high": [0.005, 0.002],
            "significant": [True, False],
        }
    )
    first, tiny = findings.restricted_play_sentences(table, "card")
    assert first.startswith("1 of the 2 cards changes the win rate")
    assert tiny == (
        "Too small to matter, each within +/-1 point (the largest change each allows): "
        "charge 0.60; run 0.50 (beyond chance)."
    )
    # Asked to care about a fifth of a point, run's change matters.
    _, hurts, unsettled = findings.restricted_play_sentences(table, "card", min_effect=0.2)
    assert hurts.startswith("Costly to their holder") and "run (0.30 points" in hurts
    assert "[+0.10, +0.50], perhaps too small)" in hurts
    assert unsettled.startswith("Not settled") and "charge 0.60" in unsettled
    # Significant by its fixed-n p-value, but its anytime-valid interval holds zero.
    held = table.assign(significant=True)
    first, tiny = findings.restricted_play_sentences(held, "card")
    assert first.startswith("1 of the 2 cards changes the win rate")


def test_a_share_of_games_is_the_subject_that_rises_or_falls() -> None:
    rows = difference_rows([True, True, False, False]).assign(
        metric=["game length", "games with 2 winners", "seat 1 win rate", "balance index"]
    )
    (changes,) = [
        line
        for line in findings.difference_sentences(rows, "kraken", "base")
        if line.startswith("Changes that matter: ")
    ]
    assert "the share of games with 2 winners falls from 34.00% to 32.00%" in changes


def test_one_card_that_changes_the_win_rate_is_said_in_the_singular() -> None:
    table = pd.DataFrame(
        {
            "action": ["run"],
            "games": [500],
            "win_rate": [0.20],
            "base_win_rate": [0.32],
            "difference": [-0.12],
            "low": [-0.16],
            "high": [-0.08],
            "significant": [True],
        }
    )
    first = findings.restricted_play_sentences(table, "card")[0]
    assert first.startswith("1 of the 1 card changes the win rate of the restricted seat")
