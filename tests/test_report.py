"""``balance report``: a saved run's charts as PNGs and one PDF, and one-line errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_helpers import call_main, forbid_games, pdf_pages
from click.testing import CliRunner
from matplotlib import image

from balance import __version__, api
from balance.analyses.run_report import RunTables, describe_run, write_report
from balance.cli import cli
from balance.core.errors import BalanceError
from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.games.walk_the_plank.engine_nb import RECORDS as ENGINE_RECORDS
from balance.games.walk_the_plank.game import GAME as WALK_THE_PLANK
from balance.games.walk_the_plank.metrics import card_usefulness
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.run.results import load_run

RULE_NAMES = [row["name"] for row in WalkThePlankRules.describe()]
COMMON = [
    "00-findings",
    "00-title",
    "01-seat-win-rates",
    "03-game-length",
    "04-games-still-running",
]
CARD_PAGES = [
    "10-card-reveals",
    "11-card-effect-share",
    "12-card-pirates-per-reveal",
    "13-card-win-rate-of-users",
]
PLAIN_PAGES = COMMON + CARD_PAGES
MIXED_PAGES = sorted([*PLAIN_PAGES, "02-strategy-win-rates"])
RESTRICTED_PAGE = "20-value-by-restricted-play"
MIXED = ["aggressor", "survivor", "greedy"]


def assert_real_image(path: Path) -> None:
    """A PNG of a print-sized chart with something drawn on it."""
    pixels = image.imread(path)
    assert pixels.ndim == 3 and pixels.shape[2] in (3, 4), pixels.shape
    height, width = pixels.shape[:2]
    assert width == 1200 and 700 <= height <= 1100, pixels.shape  # 8 in wide at 150 dpi
    grey = pixels[..., :3].mean(axis=2)
    inked = (grey < 0.9).mean()
    assert 0.005 < inked < 0.9, (path.name, inked)  # neither blank nor a filled rectangle
    assert pixels[..., :3].std() > 0.05


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "plain"
    api.simulate("walk-the-plank", players=3, games=2000, seed=11, out=out, threads=2)
    return out


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "mixed"
    api.simulate(
        "walk-the-plank",
        players=3,
        games=2000,
        seed=12,
        strategies=MIXED,
        variants=["ghost", "kraken"],
        rules={"plank_max": 5},
        rotate_seats=True,
        out=out,
        threads=2,
    )
    return out


@pytest.fixture(scope="module")
def runs(plain_run: Path) -> dict[str, Path]:
    """The runs the error cases copy and break."""
    return {"plain": plain_run}


@pytest.fixture(scope="module")
def plain_report(plain_run, tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("reports") / "plain"
    return out, write_report(plain_run, out)


@pytest.fixture(scope="module")
def mixed_report(mixed_run, tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("reports") / "mixed"
    return out, write_report(mixed_run, out)


def report_of(request: pytest.FixtureRequest, name: str) -> tuple[Path, list[Path]]:
    """The ``plain`` or ``mixed`` report: its directory and the files it wrote."""
    return request.getfixturevalue(f"{name}_report")


# --- what a report holds -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "pages"), [("plain", PLAIN_PAGES), ("mixed", MIXED_PAGES)])
def test_report_writes_every_chart(request, name: str, pages: list[str]) -> None:
    out, written = report_of(request, name)
    assert [p.name for p in written] == [f"{page}.png" for page in pages] + [
        "report.pdf",
        "index.html",
    ]
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)
    assert all(p.parent == out for p in written)


@pytest.mark.parametrize("name", ["plain", "mixed"])
def test_report_pdf_has_a_page_per_chart(request, name: str) -> None:
    out, written = report_of(request, name)
    pngs = [p for p in written if p.suffix == ".png"]
    assert pdf_pages(out / "report.pdf") == len(pngs)


@pytest.mark.parametrize("name", ["plain", "mixed"])
def test_report_pngs_are_charts(request, name: str) -> None:
    _, written = report_of(request, name)
    pngs = [path for path in written if path.suffix == ".png"]
    for path in pngs:
        assert_real_image(path)
    contents = {path.read_bytes() for path in pngs}
    assert len(contents) == len(pngs)  # every page draws something of its own


def test_title_lines_name_everything_that_decides_the_charts(mixed_run) -> None:
    tables = RunTables.read(mixed_run)
    lines = describe_run(tables)
    text = "\n".join(lines)
    assert lines[0] == "game: Walk the Plank (walk-the-plank), 3 players"
    assert "games: 2,000" in lines
    assert "seed: 12" in lines
    assert "variants: ghost, kraken" in lines
    assert "strategies by seat: aggressor, survivor, greedy" in lines
    assert any(line.startswith("seats rotated over all 6 orders of the 3") for line in lines)
    assert f"balance version: {__version__}" in text
    rules = tables.setup.rules.to_dict()
    assert list(rules) == RULE_NAMES
    for rule in RULE_NAMES:
        assert sum(line.startswith(f"  {rule} = ") for line in lines) == 1, rule
    assert "  plank_max = 5" in lines
    assert "  ghost = true" in lines or "  ghost = True" in lines
    assert "Wilson" in text


def test_findings_page_names_the_rules_it_was_played_by(mixed_run, monkeypatch) -> None:
    # The findings page is read on its own: it says which variant and rules it rests on.
    from balance.analyses import run_report as report

    seen = {}
    monkeypatch.setattr(report, "findings_page", lambda title, w, lines: seen.update(l=lines))
    report.findings_chart(RunTables.read(mixed_run))
    last = seen["l"][-1]
    assert "rules changed from the defaults: plank_max=5, ghost=true, kraken=true" in last


def test_title_lines_of_a_base_game(runs) -> None:
    lines = describe_run(RunTables.read(runs["plain"]))
    assert "variants: none (base game)" in lines
    assert any(line.startswith("seats fixed") for line in lines)
    assert "strategies by seat: random, random, random" in lines
    assert not any("partial" in line for line in lines)


def test_run_tables_read_the_records(runs) -> None:
    tables = RunTables.read(runs["plain"])
    assert tables.games == 2000
    assert len(tables["seats"]) == 6000 and len(tables["cards"]) == 20000
    assert tables["games"] is tables["games"]  # read once


def test_report_through_the_cli_into_an_existing_directory(runs, tmp_path: Path) -> None:
    out = tmp_path / "cli-report"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    done = CliRunner().invoke(cli, ["report", str(runs["plain"]), "--out", str(out)])
    assert done.exit_code == 0, (done.output, done.exception)
    assert str(out / "report.pdf") in done.stdout
    assert sorted(p.stem for p in out.glob("*.png")) == PLAIN_PAGES
    assert (out / "notes.txt").read_text() == "mine"


def test_report_with_restricted_play(runs, tmp_path: Path) -> None:
    out = tmp_path / "with-cards"
    args = ["report", str(runs["plain"]), "--out", str(out), "--restricted-play", "600"]
    done = CliRunner().invoke(cli, [*args, "-t", "2"])
    assert done.exit_code == 0, (done.output, done.exception)
    pngs = sorted(p.stem for p in out.glob("*.png"))
    assert pngs == sorted([*PLAIN_PAGES, RESTRICTED_PAGE])
    assert pdf_pages(out / "report.pdf") == len(pngs)
    assert_real_image(out / f"{RESTRICTED_PAGE}.png")
    table = pd.read_csv(out / "restricted-play.csv")
    assert table["action"].tolist() == list(CARD_NAMES)
    assert table["games"].tolist() == [600] * len(CARD_NAMES)
    assert {"difference", "low", "high", "p_holm", "significant"} <= set(table.columns)
    assert (table["low"] <= table["difference"]).all()
    assert (table["difference"] <= table["high"]).all()


def test_report_without_restricted_play_writes_no_table(plain_report) -> None:
    out, _ = plain_report
    assert not (out / "restricted-play.csv").exists()
    assert not (out / f"{RESTRICTED_PAGE}.png").exists()


# --- errors: one line on stderr, exit 2, no traceback ------------------------------------


def assert_one_line_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.startswith("error: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert out == ""
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def report_error(monkeypatch, capsys, directory: Path, out: Path, *fragments: str) -> None:
    code, stdout, err = call_main(monkeypatch, capsys, "report", str(directory), "--out", str(out))
    assert_one_line_error(code, stdout, err, *fragments)
    assert not (out / "report.pdf").exists()


def copy_run(runs, tmp_path: Path, name: str = "copy") -> Path:
    target = tmp_path / name
    shutil.copytree(runs["plain"], target)
    return target


def edit_manifest(directory: Path, **changes) -> None:
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest.update(changes)
    path.write_text(json.dumps(manifest))


def test_missing_directory_through_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "balance.cli", "report", str(tmp_path / "gone"), "--out", "x"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert_one_line_error(done.returncode, done.stdout, done.stderr, "does not exist", "gone")
    assert not (tmp_path / "x").exists()


def test_missing_directory(monkeypatch, capsys, tmp_path: Path) -> None:
    report_error(monkeypatch, capsys, tmp_path / "nowhere", tmp_path / "o", "does not exist")


def test_a_file_is_not_a_run_directory(monkeypatch, capsys, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a run")
    fragments = ["afile' is a file, not a run directory"]
    report_error(monkeypatch, capsys, tmp_path / "afile", tmp_path / "o", *fragments)


def test_directory_without_manifest(monkeypatch, capsys, tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "games.parquet").write_bytes(b"")
    report_error(
        monkeypatch, capsys, tmp_path / "run", tmp_path / "o", "not a balance run", "manifest"
    )


@pytest.fixture
def comparison_dir(plain_run: Path, tmp_path: Path) -> Path:
    """What ``balance compare --out cmp`` leaves: cmp/runs/LABEL for each variant, and the
    comparison's own files in cmp (see test_compare for the real thing)."""
    out = tmp_path / "cmp"
    for label in ("base", "kraken"):
        shutil.copytree(plain_run, out / "runs" / label)
    (out / "comparison.csv").write_text("run,metric\n")
    (out / "comparison.json").write_text("{}\n")
    return out


def test_the_runs_folder_of_a_comparison_names_its_runs(
    monkeypatch, capsys, tmp_path: Path, comparison_dir: Path
) -> None:
    report_error(
        monkeypatch, capsys, comparison_dir / "runs", tmp_path / "o", "base", "kraken", "name one"
    )


def test_a_comparison_output_suggests_the_runs_inside(
    monkeypatch, capsys, tmp_path: Path, comparison_dir: Path
) -> None:
    report_error(monkeypatch, capsys, comparison_dir, tmp_path / "o", "not a balance run", "kraken")


def test_empty_run(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    directory = copy_run(runs, tmp_path)
    edit_manifest(directory, games=0)
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "holds no games")


@pytest.mark.parametrize("text", ["{not json", "", "[]", '{"game": "walk-the-plank"}'])
def test_corrupt_manifest(monkeypatch, capsys, runs, tmp_path: Path, text: str) -> None:
    directory = copy_run(runs, tmp_path)
    (directory / "manifest.json").write_text(text)
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "is corrupt", "manifest.json")


@pytest.mark.parametrize("table", ["games", "seats", "cards"])
def test_truncated_parquet(monkeypatch, capsys, runs, tmp_path: Path, table: str) -> None:
    directory = copy_run(runs, tmp_path)
    path = directory / f"{table}.parquet"
    path.write_bytes(path.read_bytes()[:500])
    report_error(
        monkeypatch, capsys, directory, tmp_path / "o", "not a readable Parquet file", table
    )


def test_garbage_parquet(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    directory = copy_run(runs, tmp_path)
    (directory / "seats.parquet").write_bytes(b"this is not parquet at all\n" * 50)
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "not a readable Parquet file")


@pytest.mark.parametrize("table", ["games", "seats"])
def test_parquet_with_a_damaged_page_header(
    monkeypatch, capsys, runs, tmp_path: Path, table: str
) -> None:
    directory = copy_run(runs, tmp_path)
    path = directory / f"{table}.parquet"
    data = bytearray(path.read_bytes())
    for i in range(8, 72):  # just after the leading magic bytes: the first page header
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "not a readable Parquet file")


@pytest.mark.parametrize("games", [1999, 2001, 10])
def test_manifest_count_differs_from_the_records(
    monkeypatch, capsys, runs, tmp_path: Path, games: int
) -> None:
    directory = copy_run(runs, tmp_path)
    edit_manifest(directory, games=games)
    report_error(
        monkeypatch,
        capsys,
        directory,
        tmp_path / "o",
        "is corrupt",
        f"the manifest counts {games:,} games",
        "the records hold 2,000",
    )


@pytest.mark.parametrize(
    ("table", "column"),
    [
        ("games", "rounds"),
        ("games", "finished"),
        ("games", "game"),
        ("seats", "won"),
        ("seats", "seat"),
        ("seats", "strategy"),
        ("cards", "card"),
        ("cards", "effect"),
        ("cards", "saved"),
        ("seats", "cards_with_effect"),
    ],
)
def test_table_missing_a_column(
    monkeypatch, capsys, runs, tmp_path: Path, table: str, column: str
) -> None:
    directory = copy_run(runs, tmp_path)
    path = directory / f"{table}.parquet"
    pq.write_table(pq.read_table(path).drop_columns([column]), path)
    report_error(
        monkeypatch,
        capsys,
        directory,
        tmp_path / "o",
        "is corrupt",
        f"its {table} records have no {column!r} column",
    )


def test_a_run_saved_a_row_a_seat_and_card_reports_the_same_card_figures(
    runs, tmp_path: Path
) -> None:
    """A run saved before the cards were summed over the seats (a row a game, seat and
    card: the engine's records as they are; no ``cards_with_effect`` in the seats) still
    reports, every card figure the same."""
    directory = copy_run(runs, tmp_path)
    setup = load_run(directory).setup
    block = WALK_THE_PLANK.play_block(setup, 0, 2000)
    per_seat = pa.table(ENGINE_RECORDS["cards"].columns(block.extra["cards"], 0))
    pq.write_table(per_seat, directory / "cards.parquet")
    seats = directory / "seats.parquet"
    pq.write_table(pq.read_table(seats).drop_columns(["cards_with_effect"]), seats)
    old, new = RunTables.read(directory), RunTables.read(runs["plain"])
    assert "seat" in old["cards"] and len(old["cards"]) == 2000 * 3 * 10
    pd.testing.assert_frame_equal(
        card_usefulness(old["cards"], old["seats"]),
        card_usefulness(new["cards"], new["seats"]),
        check_exact=True,
    )
    names = [chart.name for chart in WALK_THE_PLANK.report_charts(old)]
    assert names == [chart.name for chart in WALK_THE_PLANK.report_charts(new)]
    assert "13-card-win-rate-of-users" in names
    # A row short is still a corrupt run, in this layout too.
    pq.write_table(per_seat.slice(1), directory / "cards.parquet")
    with pytest.raises(BalanceError, match="cards records hold 59,999 rows, not 60,000"):
        WALK_THE_PLANK.report_charts(RunTables.read(directory))


def test_missing_table(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    directory = copy_run(runs, tmp_path)
    (directory / "cards.parquet").unlink()
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "no cards records")


def test_seats_table_missing_a_game(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    directory = copy_run(runs, tmp_path)
    path = directory / "seats.parquet"
    seats = pq.read_table(path)
    pq.write_table(seats.slice(0, seats.num_rows - 3), path)  # the last game's three seats
    report_error(monkeypatch, capsys, directory, tmp_path / "o", "is corrupt", "seats")


def test_out_is_an_existing_file(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    blocker = tmp_path / "report.pdf"
    blocker.write_text("in the way")
    code, out, err = call_main(
        monkeypatch, capsys, "report", str(runs["plain"]), "--out", str(blocker)
    )
    assert_one_line_error(code, out, err, "--out", "is a file, not a directory")
    assert blocker.read_text() == "in the way"


@pytest.mark.parametrize("restricted", [[], ["--restricted-play", "50"]])
def test_an_out_that_cannot_be_created(
    monkeypatch, capsys, tmp_path: Path, restricted: list[str]
) -> None:
    run = tmp_path / "run"
    api.simulate("walk-the-plank", players=2, games=100, out=run, threads=1)
    (tmp_path / "afile").write_text("in the way")
    out = tmp_path / "afile" / "sub"
    forbid_games(monkeypatch)  # restricted play comes after the check
    code, stdout, err = call_main(monkeypatch, capsys, "report", run, "--out", out, *restricted)
    assert_one_line_error(code, stdout, err, "cannot create", str(out))


def test_restricted_play_of_no_games(monkeypatch, capsys, runs, tmp_path: Path) -> None:
    args = ["report", str(runs["plain"]), "--out", str(tmp_path / "o"), "--restricted-play", "0"]
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, "games must be", "not 0")


def length_title(tables: RunTables) -> str:
    from balance.analyses.run_report import common_charts

    chart = next(c for c in common_charts(tables) if c.name == "03-game-length")
    return chart.figure.axes[0].get_title()


def test_game_length_title_gives_intervals_and_games(plain_run) -> None:
    tables = RunTables.read(plain_run)
    games = tables["games"]
    assert games["finished"].all()
    title = length_title(tables)
    mean = games["rounds"].mean()
    assert f"mean {mean:.2f} [" in title and "median " in title and "2,000 games" in title


def test_game_length_title_with_unfinished_games_says_the_mean_is_a_bound(plain_run) -> None:
    saved = RunTables.read(plain_run)
    games = saved["games"].copy()
    cap = int(games["rounds"].quantile(0.9))
    games["finished"] = games["rounds"] < cap
    games["rounds"] = games["rounds"].clip(upper=cap)
    tables = RunTables(saved.setup, saved.manifest, given={"games": games, "seats": saved["seats"]})
    title = length_title(tables)
    unfinished = int((~games["finished"]).sum())
    assert f"restricted mean to {cap}: {games['rounds'].mean():.2f} [" in title
    assert f"mean at least {games['rounds'].mean():.2f}" in title
    assert f"2,000 games, {unfinished:,} unfinished" in title


@pytest.mark.parametrize("count", [5, 90])
def test_a_title_page_holds_all_its_text(count: int) -> None:
    # A sweep's title page lists every point: a long text makes the page taller instead
    # of running off its bottom.
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from balance.reports.charts import title_page

    figure = title_page("Walk the Plank: sweep", [f"point {i}" for i in range(count)])
    renderer = FigureCanvasAgg(figure).get_renderer()
    for text in figure.texts:
        box = text.get_window_extent(renderer)
        assert box.y0 >= 0 and box.y1 <= figure.bbox.height
