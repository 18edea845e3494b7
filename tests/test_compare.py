"""``balance compare``: variants on the same games, paired differences, Holm, files."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import call_main
from click.testing import CliRunner
from matplotlib import image
from scipy import stats

from balance.analyses.compare import VariantSpec, compare, parse_variant
from balance.cli import cli
from balance.core.errors import BalanceError
from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.run.results import load_run
from balance.stats.metrics import RATE_KINDS

PLAYERS, GAMES, SEED = 3, 2000, 3
METRICS = (
    ["game length", "finished before the cap"]
    + [f"seat {s} win rate" for s in range(PLAYERS)]
    + ["games with 0 winners", "games with 1 winner", "games with 2 winners"]
    + [f"{card} reveals per game" for card in CARD_NAMES]
    + ["balance index"]
)
CHARTS = [
    "00-findings",
    "00-title",
    "01-seat-win-rates",
    "02-balance-index",
    "03-games-still-running",
    "04-differences-rates",
    "05-differences-length-balance",
    "06-differences-game-own",
]


# --- parse_variant -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("base", VariantSpec("base", (), ())),
        ("kraken", VariantSpec("kraken", ("kraken",), ())),
        ("ghost+kraken", VariantSpec("ghost+kraken", ("ghost", "kraken"), ())),
        ("rest=charge,run", VariantSpec("rest=charge,run", (), (("rest", "charge,run"),))),
        (
            "kraken+plank_max=2",
            VariantSpec("kraken+plank_max=2", ("kraken",), (("plank_max", "2"),)),
        ),
        ("base+dolphin", VariantSpec("base+dolphin", ("dolphin",), ())),
        ("  kraken ", VariantSpec("kraken", ("kraken",), ())),
    ],
)
def test_parse_variant(text: str, expected: VariantSpec) -> None:
    assert parse_variant(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "--variant needs a name"),
        ("   ", "--variant needs a name"),
        ("kraken+", "has an empty part"),
        ("+kraken", "has an empty part"),
        ("ghost++kraken", "has an empty part"),
        ("=3", "needs NAME=VALUE"),
        ("kraken+=3", "needs NAME=VALUE"),
    ],
)
def test_parse_variant_refuses_malformed_text(text: str, message: str) -> None:
    with pytest.raises(BalanceError) as caught:
        parse_variant(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


# --- a comparison's numbers -------------------------------------------------------------


@pytest.fixture(scope="module")
def three():
    return compare(
        "walk-the-plank", PLAYERS, GAMES, ["base", "kraken", "dolphin"], seed=SEED, threads=2
    )


def test_labels_and_games(three) -> None:
    assert three.labels == ["base", "kraken", "dolphin"]
    assert three.games == GAMES and three.requested == GAMES and three.partial is False
    assert three.game == "walk-the-plank"
    assert three.setups["base"].rules == WalkThePlankRules()
    assert three.setups["kraken"].rules == WalkThePlankRules(kraken=True)
    assert three.setups["dolphin"].rules == WalkThePlankRules(dolphin=True)
    assert {setup.seed for setup in three.setups.values()} == {SEED}
    for label in three.labels:
        assert len(three.per_game[label]) == GAMES
        assert three.summaries[label]["games"] == GAMES


def test_table_has_a_row_per_run_and_metric(three) -> None:
    table = three.table
    assert len(table) == 3 * len(METRICS)
    for label in three.labels:
        assert table.loc[table["run"] == label, "metric"].tolist() == METRICS
    assert not table.duplicated(["run", "metric"]).any()
    assert (table["games"] == GAMES).all()


def test_base_rows_have_no_difference(three) -> None:
    table = three.table
    base = table[table["run"] == "base"]
    for column in ("difference", "diff_low", "diff_high", "p", "p_holm", "base_value"):
        assert base[column].isna().all(), column
    assert not base["significant"].any()
    later = table[table["run"] != "base"]
    for column in ("difference", "diff_low", "diff_high", "p", "p_holm", "base_value"):
        assert later[column].notna().all(), column


def test_values_come_from_the_per_game_tables(three) -> None:
    table = three.table.set_index(["run", "metric"])
    for label, frame in three.per_game.items():
        assert table.loc[(label, "game length"), "value"] == pytest.approx(frame["length"].mean())
        for seat in range(PLAYERS):
            rate = table.loc[(label, f"seat {seat} win rate"), "value"]
            assert rate == pytest.approx(frame[f"won_{seat}"].mean())
        reveals = table.loc[(label, "charge reveals per game"), "value"]
        assert reveals == pytest.approx(frame["reveals_charge"].mean())


def test_differences_are_paired_means(three) -> None:
    table = three.table.set_index(["run", "metric"])
    base = three.per_game["base"]
    for label in ("kraken", "dolphin"):
        frame = three.per_game[label]
        for metric, column in (("game length", "length"), ("seat 1 win rate", "won_1")):
            row = table.loc[(label, metric)]
            delta = frame[column].to_numpy(float) - base[column].to_numpy(float)
            half = stats.t.ppf(0.975, GAMES - 1) * delta.std(ddof=1) / math.sqrt(GAMES)
            assert row["difference"] == pytest.approx(delta.mean(), abs=1e-12)
            assert (row["diff_low"], row["diff_high"]) == pytest.approx(
                (delta.mean() - half, delta.mean() + half), rel=1e-9
            )
            assert row["base_value"] == pytest.approx(base[column].mean())
            assert row["difference"] == pytest.approx(row["value"] - row["base_value"], abs=1e-12)


def test_holm_runs_over_the_whole_table(three) -> None:
    table = three.table
    tested = table[table["p"].notna()]
    assert len(tested) == 2 * len(METRICS)
    assert (tested["p_holm"] >= tested["p"] - 1e-15).all()
    smallest = tested["p"].min()
    row = tested[tested["p"] == smallest].iloc[0]
    assert row["p_holm"] == pytest.approx(min(1.0, len(tested) * smallest))
    assert (tested["significant"] == (tested["p_holm"] < 0.05)).all()


def test_kraken_changes_the_seat_win_rates(three) -> None:
    base, kraken = three.per_game["base"], three.per_game["kraken"]
    won = [f"won_{seat}" for seat in range(PLAYERS)]
    assert not np.array_equal(base[won].to_numpy(), kraken[won].to_numpy())
    table = three.table.set_index(["run", "metric"])
    rates = [table.loc[(label, "seat 0 win rate"), "value"] for label in ("base", "kraken")]
    assert rates[0] != rates[1]
    # The Kraken takes pirates: games last longer, significantly so on 2,000 paired games.
    length = table.loc[("kraken", "game length")]
    assert length["difference"] > 0 and bool(length["significant"])


def test_paired_intervals_are_narrower_than_unpaired_ones(three) -> None:
    base = three.per_game["base"]["length"].to_numpy(float)
    table = three.table.set_index(["run", "metric"])
    for label in ("kraken", "dolphin"):
        variant = three.per_game[label]["length"].to_numpy(float)
        row = table.loc[(label, "game length")]
        paired = row["diff_high"] - row["diff_low"]
        # Two independent runs: Welch's two-sample interval from the same per-game values.
        va, vb = variant.var(ddof=1) / GAMES, base.var(ddof=1) / GAMES
        df = (va + vb) ** 2 / (va**2 / (GAMES - 1) + vb**2 / (GAMES - 1))
        unpaired = 2 * stats.t.ppf(0.975, df) * math.sqrt(va + vb)
        assert np.corrcoef(variant, base)[0, 1] > 0.2  # common random numbers at work
        assert paired < 0.9 * unpaired, (label, paired, unpaired)


def test_identical_rules_under_another_label_give_no_difference() -> None:
    assert WalkThePlankRules().round_cap == 100  # the variant below changes nothing
    same = compare(
        "walk-the-plank", PLAYERS, GAMES, ["base", "round_cap=100"], seed=SEED, threads=2
    )
    assert same.labels == ["base", "round_cap=100"]
    pd.testing.assert_frame_equal(same.per_game["base"], same.per_game["round_cap=100"])
    later = same.table[same.table["run"] == "round_cap=100"]
    assert len(later) == len(METRICS)
    assert (later["difference"] == 0).all()
    means = later[later["kind"] != "index"]
    # No game differed: a rate's interval allows a differing game as often as the exact
    # bound of none in GAMES does; a mean of unbounded values keeps a zero-width one.
    rare = 1 - 0.025 ** (1 / GAMES)
    rates = means["kind"].isin(RATE_KINDS).to_numpy()
    assert rates.any() and not rates.all()
    assert means["diff_low"][rates].to_numpy() == pytest.approx(-rare)
    assert means["diff_high"][rates].to_numpy() == pytest.approx(rare)
    assert (means["diff_low"][~rates] == 0).all() and (means["diff_high"][~rates] == 0).all()
    assert (means["p"] == 1).all()
    index = later[later["kind"] == "index"].iloc[0]
    assert abs(index["diff_low"]) < 1e-6 and abs(index["diff_high"]) < 1e-6
    assert not same.table["significant"].any()
    assert "*" not in same.text().split("round_cap=100 vs base:")[1]


def test_common_rules_apply_to_every_variant() -> None:
    both = compare(
        "walk-the-plank",
        2,
        300,
        ["base", "ghost"],
        seed=1,
        rules=[("plank_max", "4")],
        threads=1,
    )
    assert both.setups["base"].rules == WalkThePlankRules(plank_max=4)
    assert both.setups["ghost"].rules == WalkThePlankRules(plank_max=4, ghost=True)


# --- text ----------------------------------------------------------------------------------


def test_text_names_the_variants_and_marks_significance(three) -> None:
    text = three.text()
    assert text.startswith(
        f"walk-the-plank: 3 variants compared on the same {GAMES:,} games "
        f"(seed {SEED}, {PLAYERS} players)\n"
    )
    assert "  base: none" in text
    assert "  kraken: kraken=true" in text
    assert "  dolphin: dolphin=true" in text
    assert "kraken vs base:" in text and "dolphin vs base:" in text
    n_tests = int(three.table["p"].notna().sum())
    assert f"Holm's correction over the {n_tests} differences" in text
    marked = 0
    for label in ("kraken", "dolphin"):
        section = text.split(f"\n{label} vs base:\n")[1].split("\n\n")[0].splitlines()[1:]
        rows = three.table[three.table["run"] == label]
        assert len(section) == len(rows)
        for line, row in zip(section, rows.itertuples(), strict=True):
            assert line.startswith(f"  {row.metric} ")
            assert line.endswith(" *") == bool(row.significant), line
            marked += line.endswith(" *")
    assert marked >= 1  # the Kraken's longer games


# --- --out: runs, table, charts ------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("compare") / "kraken-dolphin"
    comparison = compare(
        "walk-the-plank",
        PLAYERS,
        1000,
        ["base", "kraken+plank_max=4", "rest=charge,run"],
        seed=5,
        out=out,
        threads=2,
    )
    return comparison, out


def test_out_holds_a_loadable_run_per_variant(saved) -> None:
    comparison, out = saved
    assert sorted(p.name for p in (out / "runs").iterdir()) == sorted(comparison.labels)
    for label in comparison.labels:
        run = load_run(out / "runs" / label)
        assert run.games == 1000
        assert run.setup == comparison.setups[label]
        games = run.table("games")
        assert games["game"].tolist() == list(range(1000))
        np.testing.assert_array_equal(
            games["rounds"].to_numpy(), comparison.per_game[label]["length"].to_numpy()
        )
        seats = run.table("seats")
        assert len(seats) == 1000 * PLAYERS
    assert load_run(out / "runs" / "kraken+plank_max=4").setup.rules.plank_max == 4
    assert load_run(out / "runs" / "rest=charge,run").setup.rules.rest == ("run", "charge")


def test_out_holds_the_table_as_csv_and_json(saved) -> None:
    comparison, out = saved
    csv = pd.read_csv(out / "comparison.csv")
    assert len(csv) == len(comparison.table) == 3 * len(METRICS)
    assert csv["run"].tolist() == comparison.table["run"].tolist()
    assert csv["metric"].tolist() == comparison.table["metric"].tolist()
    np.testing.assert_allclose(csv["value"], comparison.table["value"])

    def refuse(constant: str):
        raise ValueError(f"non-standard JSON constant {constant}")

    data = json.loads((out / "comparison.json").read_text(), parse_constant=refuse)
    assert data["game"] == "walk-the-plank"
    assert data["games"] == data["requested_games"] == 1000
    assert data["partial"] is False
    assert data["variants"] == comparison.labels
    assert len(data["rows"]) == len(comparison.table)
    assert data["rows"][0]["run"] == "base" and data["rows"][0]["difference"] is None
    later = [row for row in data["rows"] if row["run"] != "base"]
    assert all(isinstance(row["difference"], float | int) for row in later)


def test_out_holds_the_charts_and_the_pdf(saved) -> None:
    _, out = saved
    pngs = sorted(p.stem for p in out.glob("*.png"))
    assert pngs == CHARTS
    for name in pngs:
        pixels = image.imread(out / f"{name}.png")
        assert pixels.shape[1] == 1200 and pixels.shape[0] >= 700
        assert (pixels[..., :3].mean(axis=2) < 0.9).mean() > 0.005  # not blank
    data = (out / "comparison.pdf").read_bytes()
    assert data.startswith(b"%PDF-")
    try:
        from pypdf import PdfReader
    except ImportError:
        pages = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data))
    else:
        pages = len(PdfReader(out / "comparison.pdf").pages)
    assert pages == len(CHARTS)


def test_compare_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ["compare", "walk-the-plank", "-p", "2", "-g", "400", "-t", "1"]
    done = CliRunner().invoke(cli, [*args, "--variant", "base", "--variant", "ghost", "--out", out])
    assert done.exit_code == 0, (done.output, done.exception)
    assert "2 variants compared on the same 400 games" in done.stdout
    assert "ghost vs base:" in done.stdout
    assert (
        f"saved the runs, charts, comparison.csv, comparison.pdf and index.html in {out}"
        in done.stdout
    )
    assert load_run(out / "runs" / "ghost").setup.rules.ghost is True
    assert (out / "comparison.pdf").exists() and (out / "comparison.csv").exists()


# --- errors: one line, exit 2 ---------------------------------------------------------------


COMPARE = ["compare", "walk-the-plank", "-p", "3", "-g", "50", "-t", "1"]
ERRORS = [
    (["--variant", "base"], ["compare needs at least two --variant"]),
    ([], ["Missing option", "--variant"]),
    (["--variant", "base", "--variant", "base"], ["each --variant must differ", "base, base"]),
    (["--variant", "kraken", "--variant", " kraken"], ["each --variant must differ"]),
    (["--variant", "base", "--variant", "tsunami"], ["unknown variant 'tsunami'"]),
    (["--variant", "base", "--variant", "plank_max=x"], ["plank_max", "'x'"]),
    (["--variant", "base", "--variant", "mast=2"], ["unknown rule 'mast'"]),
    (["--variant", "base", "--variant", "kraken+"], ["has an empty part"]),
    (["--variant", "base", "--variant", "=3"], ["needs NAME=VALUE"]),
    (["--variant", "base", "--variant", "kraken", "-g", "0"], ["games must be", "not 0"]),
    (["--variant", "base", "--variant", "kraken", "-p", "7"], ["2 to 5 players"]),
    (["--variant", "base", "--variant", "kraken", "--rule", "foo"], ["--rule needs NAME=VALUE"]),
]


@pytest.mark.parametrize(("args", "fragments"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_cli_errors_are_one_line(monkeypatch, capsys, args: list[str], fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, *COMPARE, *args)
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert out == ""
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def test_out_is_an_existing_file(monkeypatch, capsys, tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("in the way")
    args = ["--variant", "base", "--variant", "kraken", "--out", str(blocker)]
    code, out, err = call_main(monkeypatch, capsys, *COMPARE, *args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("error: --out") and "is a file, not a directory" in err
    assert blocker.read_text() == "in the way"


def interrupt_variant(monkeypatch: pytest.MonkeyPatch, variant: int, after_blocks: int) -> None:
    """Ctrl-C while the ``variant``-th variant (1-based) hands over block ``after_blocks``."""
    import balance.analyses.compare as module

    real = module.run_games
    calls: list[object] = []

    def run_games(setup, games, **options):
        calls.append(setup)
        sinks = list(options.pop("sinks", []))
        if len(calls) == variant:
            seen: list[int] = []

            def press_ctrl_c(block) -> None:
                seen.append(block.first_game)
                if len(seen) == after_blocks:
                    raise KeyboardInterrupt

            sinks.append(press_ctrl_c)
        return real(setup, games, sinks=sinks, batch=100, **options)

    monkeypatch.setattr(module, "run_games", run_games)


def test_an_interrupted_comparison_compares_the_games_every_variant_played(
    monkeypatch,
) -> None:
    interrupt_variant(monkeypatch, variant=2, after_blocks=3)
    comparison = compare("walk-the-plank", 3, 1_000, ["base", "kraken", "dolphin"], threads=2)
    assert comparison.partial and comparison.requested == 1_000
    assert comparison.labels == ["base", "kraken"]  # dolphin never started
    assert comparison.games == 300
    assert all(len(table) == 300 for table in comparison.per_game.values())
    assert "interrupted, 1,000 asked" in comparison.text()
    # The 300 games are the first 300 of the uninterrupted comparison, game for game.
    whole = compare("walk-the-plank", 3, 300, ["base", "kraken"], threads=2)
    for label in ("base", "kraken"):
        pd.testing.assert_frame_equal(comparison.per_game[label], whole.per_game[label])


def test_an_interruption_before_two_variants_played_exits_130(monkeypatch, capsys) -> None:
    interrupt_variant(monkeypatch, variant=1, after_blocks=1)
    code, out, err = call_main(
        monkeypatch, capsys, *COMPARE[:4], "-g", "1000", "--variant", "base", "--variant", "kraken"
    )
    assert code == 130 and out == ""
    assert err == "interrupted before two variants had played any game\n"


def test_comparison_says_when_game_length_is_restricted_to_the_cap() -> None:
    comparison = compare(
        "walk-the-plank",
        players=4,
        games=300,
        variants=["base", "kraken"],
        seed=3,
        rules=[("round_cap", "9")],
        threads=1,
    )
    text = comparison.text()
    counts = {
        label: int((~frame["finished"]).sum()) for label, frame in comparison.per_game.items()
    }
    assert counts["base"] > 0
    assert f"Unfinished games (of 300): base {counts['base']:,}, kraken {counts['kraken']:,}." in (
        text.replace("\n", " ")
    )
    assert "a lower bound of the uncapped mean" in text


def test_a_p_value_that_is_a_bound_is_printed_as_one() -> None:
    from balance.analyses.compare import _p

    assert _p(5e-05, True) == "<5e-05"
    assert _p(0.0025, True) == "<0.0025"
    assert _p(0.0, False) == "<0.001" and _p(0.0123, False) == "0.012"
    assert _p(float("nan")) == "n/a"
