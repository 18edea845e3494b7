"""The report's web page, ``index.html``: the charts' views hold the tables they drew, the
Vega-Lite specifications, the page's content and self-containment, and (with chromium
and chromedriver) the page as a browser draws it: no console errors, tooltips, sorting,
legend toggles."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from cli_helpers import invoke

from balance.reports import charts, page
from balance.reports.charts import Chart, write_charts
from balance.reports.views import Table, View, figure_rows, view_of

alt = pytest.importorskip("altair", reason="the 'pages' extra (altair) is not installed")

RATES = ([0.341, 0.356, 0.303], [0.334, 0.349, 0.296], [0.348, 0.363, 0.310])


def rates_figure(labels: list[str] | None = None, games: int = 20_000) -> Any:
    low, high = RATES[1], RATES[2]
    return charts.plot_rates(
        labels or ["seat 0", "seat 1", "seat 2"],
        RATES[0],
        low,
        high,
        title="win rate by seat",
        ylabel="games won",
        xlabel="seat",
        note=f"{games:,} games; 95% Wilson intervals.",
        reference=1 / 3,
        reference_label="a fair seat",
    )


def histogram_figure(games: int, seed: int = 0) -> Any:
    """A game-length histogram of ``games`` games: its table a row a length, whatever
    the number of games."""
    lengths = np.random.default_rng(seed).poisson(8, games) + 1
    counts = pd.Series(lengths).value_counts().sort_index()
    table = pd.DataFrame(
        {"length": counts.index, "finished": counts.to_numpy(), "unfinished": 0}
    ).astype(int)
    return charts.plot_length_histogram(
        table, "rounds", title="game length", note=f"{games:,} games; 0 unfinished."
    )


def a_report(games: int = 20_000) -> list[Chart]:
    """A report of every kind of view: findings, title, bars, intervals, grouped,
    histogram, steps, lines."""
    steps = pd.DataFrame(
        {"after": [0, 1, 2, 3], "rate": [1.0, 0.8, 0.3, 0.0], "low": [1.0, 0.78, 0.28, 0.0]}
    )
    steps["high"] = [1.0, 0.82, 0.32, 0.01]
    shares = pd.DataFrame({"points": [0, 1, 2], "share": [0.2, 0.5, 0.3]})
    return [
        Chart(
            "00-findings",
            charts.findings_page(
                "Game: findings",
                ["Seat 2 wins least: its interval lies below a fair seat's."],
                ["Games last 7.8 rounds on average."],
            ),
        ),
        Chart("00-title", charts.title_page("Game: balance report", ["games: 20,000"])),
        Chart("01-rates", rates_figure(games=games)),
        Chart(
            "02-intervals",
            charts.plot_intervals(
                ["shove", "run"],
                [0.012, -0.004],
                [0.004, -0.011],
                [0.020, 0.003],
                title="value of a card",
                xlabel="win rate difference",
                note=f"{games:,} games; 95% intervals.",
                marked=[True, False],
                marked_label="apart from zero",
                points=True,
            ),
        ),
        Chart(
            "03-grouped",
            charts.plot_grouped(
                ["shove", "run"],
                {"used it": ([0.4, 0.3], [0.38, 0.28], [0.42, 0.32]), "did not": RATES_2},
                title="win rate of users",
                ylabel="seats won",
                xlabel="card",
                note=f"{games:,} games; 95% Wilson intervals.",
            ),
        ),
        Chart("04-length", histogram_figure(games)),
        Chart(
            "05-running",
            charts.plot_still_running(
                {"all games": steps}, "rounds", title="still running", note=f"{games:,} games."
            ),
        ),
        Chart(
            "06-shares",
            charts.plot_distributions(
                {"seat 0": shares},
                value="points",
                title="points per game",
                xlabel="points",
                ylabel="share of games",
                note=f"{games:,} games.",
            ),
        ),
    ]


RATES_2 = ([0.2, 0.25], [0.18, 0.23], [0.22, 0.27])


# --- views: each chart keeps the table it drew ----------------------------------------------


def test_a_bar_chart_keeps_its_figures_caption_and_warnings() -> None:
    figure = rates_figure()
    charts.flag(figure, ["capped: 12 games stopped at the cap"])
    view = view_of(figure)
    assert view is not None and view.kind == "bars" and view.scale == "percent"
    assert view.title == "win rate by seat" and view.y_title == "games won"
    assert view.x_title == "seat" and view.reference == pytest.approx(1 / 3)
    data = view.data
    assert data["label"].tolist() == ["seat 0", "seat 1", "seat 2"]
    assert data["value"].tolist() == RATES[0]
    assert data["low"].tolist() == RATES[1] and data["high"].tolist() == RATES[2]
    assert data["value_text"].tolist() == ["34.1%", "35.6%", "30.3%"]
    assert data["interval_text"].tolist() == [
        "[33.4%, 34.8%]",
        "[34.9%, 36.3%]",
        "[29.6%, 31.0%]",
    ]
    assert view.caption == "20,000 games; 95% Wilson intervals."
    assert view.warnings == ["capped: 12 games stopped at the cap"]


def test_every_kind_of_chart_keeps_the_table_it_drew() -> None:
    views = {chart.name: view_of(chart.figure) for chart in a_report()}
    assert {name: v.kind for name, v in views.items()} == {
        "00-findings": "findings",
        "00-title": "text",
        "01-rates": "bars",
        "02-intervals": "intervals",
        "03-grouped": "grouped",
        "04-length": "histogram",
        "05-running": "steps",
        "06-shares": "lines",
    }
    findings = views["00-findings"]
    assert findings.warnings == ["Seat 2 wins least: its interval lies below a fair seat's."]
    assert findings.lines == ["Games last 7.8 rounds on average."]
    assert views["00-title"].lines == ["games: 20,000"]

    intervals = views["02-intervals"]
    assert intervals.scale == "points" and intervals.reference == 0.0
    assert intervals.data["label"].tolist() == ["shove", "run"]
    assert intervals.data["value_text"].tolist() == ["+1.2 points", "\u22120.4 points"]
    assert intervals.data["interval_text"].tolist() == [
        "[+0.4, +2.0 points]",
        "[\u22121.1, +0.3 points]",
    ]
    assert intervals.data["marked"].tolist() == [True, False]

    grouped = views["03-grouped"].data
    assert grouped["series"].tolist() == ["used it"] * 2 + ["did not"] * 2
    assert grouped["label"].tolist() == ["shove", "run"] * 2
    assert grouped["value"].tolist() == [0.4, 0.3, 0.2, 0.25]
    assert grouped["interval_text"].tolist()[2] == "[18.0%, 22.0%]"

    length = views["04-length"]
    assert list(length.data.columns) == ["length", "finished", "unfinished"]
    assert length.data["finished"].sum() == 20_000
    assert length.caption == "20,000 games; 0 unfinished."

    running = views["05-running"].data
    assert running["after"].tolist() == [0, 1, 2, 3]
    assert running["value"].tolist() == [1.0, 0.8, 0.3, 0.0]
    assert running["interval_text"].tolist()[1] == "[78.0%, 82.0%]"
    assert set(running["label"]) == {"all games"}

    shares = views["06-shares"].data
    assert shares["x"].tolist() == [0, 1, 2] and shares["value"].tolist() == [0.2, 0.5, 0.3]
    assert shares["value_text"].tolist() == ["20.0%", "50.0%", "30.0%"]


def test_a_panel_of_a_larger_figure_keeps_no_view() -> None:
    from matplotlib.figure import Figure

    figure = Figure()
    left, _ = figure.subplots(1, 2)
    charts.plot_rates(["a"], [0.5], [0.4], [0.6], title="t", ylabel="y", ax=left)
    assert view_of(figure) is None


# --- Vega-Lite specifications ---------------------------------------------------------------


def test_every_kind_has_a_valid_spec_whose_tooltip_says_the_interval_and_games() -> None:
    for chart in a_report():
        view = view_of(chart.figure)
        spec = page.vega_spec(view)
        if view.kind in ("text", "findings"):
            assert spec is None
            continue
        alt.LayerChart.from_dict(spec)  # raises on a spec outside Vega-Lite's schema
        text = json.dumps(spec)
        tips = [
            tip for layer in spec["layer"] for tip in layer.get("encoding", {}).get("tooltip", [])
        ]
        assert tips, (chart.name, "no tooltip")
        titles = {tip.get("title", tip["field"]) for tip in tips}
        rows = next(iter(spec["datasets"].values()))
        if view.kind == "histogram":
            assert "games" in titles
            continue
        assert {"figure", "games"} <= titles, (chart.name, titles)
        assert rows[0]["games"] == "20,000 games", chart.name
        if "interval_text" in view.data:
            assert "95% interval" in titles, chart.name
            assert view.data["interval_text"].iloc[0] in text
        assert view.data["value_text"].iloc[0] in text


def has_legend_toggle(spec: dict[str, Any]) -> bool:
    """Whether a selection of ``spec`` (altair lifts them to the top) is bound to its
    legend."""
    params = [*spec.get("params", []), *(p for x in spec["layer"] for p in x.get("params", []))]
    return any(p.get("bind") == "legend" for p in params)


def test_bars_and_series_toggle_from_their_legend() -> None:
    for chart in a_report():
        view = view_of(chart.figure)
        if view.kind in ("bars", "grouped", "steps", "lines"):
            spec = page.vega_spec(view)
            assert has_legend_toggle(spec), chart.name


def test_a_chart_of_too_many_marks_or_none_has_no_spec(monkeypatch) -> None:
    assert page.vega_spec(View("bars", "empty", pd.DataFrame())) is None
    monkeypatch.setattr(page, "MAX_MARKS", 50)
    many = page.MAX_MARKS + 1
    rows = figure_rows(range(many), [0.5] * many, [0.4] * many, [0.6] * many, "percent")
    assert page.vega_spec(View("bars", "many", rows)) is None
    assert page.vega_spec(View("bars", "fewer", rows.iloc[:-1])) is not None


# --- the page -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle() -> str:
    """The vega-embed bundle (built once, then read from the cache)."""
    return page.vega_bundle()


def specs_of(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="specs">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_page_is_written_beside_the_pdf_findings_first(tmp_path: Path, bundle) -> None:
    written = write_charts(a_report(), tmp_path, "report.pdf")
    assert [p.name for p in written[-2:]] == ["report.pdf", "index.html"]
    text = written[-1].read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<title>Game</title>" in text
    findings = text.index("Seat 2 wins least")
    assert findings < text.index("Games last 7.8 rounds") < text.index('class="chart"')
    assert re.search(r'<p class="warning">Seat 2 wins least', text)
    # Each chart's caption under it, its figures as a sortable table.
    for caption in ("20,000 games; 95% Wilson intervals.", "20,000 games; 0 unfinished."):
        assert f'<p class="caption">{caption}</p>' in text
    assert text.count("<details>") == 6 and text.count('class="sortable"') == 6
    assert "<pre>games: 20,000</pre>" in text
    specs = specs_of(text)
    assert len(specs) == 6 and all(f'id="{name}"' in text for name in specs)
    assert "vegaEmbed" in text and bundle[:200] in text


def write(charts: list[Chart], directory: Path, tables: list[Table] | None = None) -> str:
    """The page of ``charts`` (without their PNGs and PDF, which take longer); its text."""
    directory.mkdir(parents=True, exist_ok=True)
    return page.write_page(charts, directory, "Game", tables or []).read_text(encoding="utf-8")


def test_the_page_is_self_contained(tmp_path: Path, bundle) -> None:
    text = write(a_report(), tmp_path)
    assert not re.search(r"<script[^>]*\bsrc=", text)
    assert not re.search(r"<link[^>]*href=[\"']?(https?:)?//", text)
    assert not re.search(r"<img[^>]*src=[\"']?(https?:)?//", text)
    assert not re.search(r"url\((https?:)?//", text)
    # Every chart's data inline, in its spec.
    for spec in specs_of(text).values():
        assert "url" not in spec.get("data", {})
        assert all(isinstance(rows, list) and rows for rows in spec["datasets"].values())


def test_the_page_does_not_grow_with_the_games(tmp_path: Path, bundle) -> None:
    small = len(write(a_report(1_000), tmp_path / "small").encode())
    large = len(write(a_report(1_000_000), tmp_path / "large").encode())
    # A few more lengths in the histogram, never a row a game.
    assert large - small < 5_000, (small, large)
    assert large < 5_000_000


def test_without_the_pages_extra_the_charts_are_pictures(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(page, "interactive", lambda: False)
    monkeypatch.setattr(page, "vega_bundle", lambda: pytest.fail("no bundle without the extra"))
    report = a_report()
    for chart in report:  # the PNGs write_charts writes first, smaller
        chart.figure.savefig(tmp_path / f"{chart.name}.png", dpi=20)
    text = write(report, tmp_path)
    pictures = re.findall(r'<img class="png" alt="[^"]*" src="data:image/png;base64,', text)
    assert len(pictures) == 6  # every chart but the findings and the title page
    assert specs_of(text) == {} and 'class="chart"' not in text
    assert "pip install 'balance[pages]'" in text
    assert text.count('class="sortable"') == 6 and "function sortBy" in text
    assert text.index("Seat 2 wins least") < text.index("<img")


def test_a_chart_without_a_view_is_its_picture(tmp_path: Path, bundle) -> None:
    from matplotlib.figure import Figure

    figure = Figure()
    figure.subplots(1, 2)
    figure.savefig(tmp_path / "01-panels.png", dpi=20)
    text = write([Chart("01-panels", figure)], tmp_path)
    assert text.count('<img class="png" alt="panels"') == 1 and specs_of(text) == {}
    figure.axes[0].set_title("holes made")
    assert '<img class="png" alt="holes made"' in write([Chart("01-panels", figure)], tmp_path)


def test_tables_are_sortable_and_their_rows_have_ids(tmp_path: Path, bundle) -> None:
    frame = pd.DataFrame({"point": [3, 7], "players": [4, 5], "verdict": ["pass", "fail"]})
    table = Table("points", "Points", frame, key="point", caption="600 games a point")
    text = write([Chart("01-rates", rates_figure())], tmp_path, [table])
    assert '<tr id="points-3">' in text and '<tr id="points-7">' in text
    assert '<section id="points"><h2>Points</h2>' in text
    assert '<a href="#points">Points</a>' in text
    assert '<p class="caption">600 games a point</p>' in text


def test_labels_are_escaped(tmp_path: Path, bundle) -> None:
    labels = ["<b>bold</b>", 'say "hi" & go', "</script><script>alert(1)</script>"]
    text = write([Chart("01-rates", rates_figure(labels))], tmp_path)
    assert "<b>bold</b>" not in text and "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "say &quot;hi&quot; &amp; go" in text
    assert "<script>alert(1)" not in text
    spec = specs_of(text)["vis1"]
    assert [row["label"] for row in next(iter(spec["datasets"].values()))] == labels


# --- in a browser ---------------------------------------------------------------------------


def _browser() -> tuple[str, str] | str:
    """chromium's and chromedriver's paths, or why they cannot be used."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    chromium = next(
        (p for n in ("chromium", "chromium-browser", "google-chrome") if (p := shutil.which(n))),
        None,
    )
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return "chromium or chromedriver is missing (apt-get install chromium chromium-driver)"
    return chromium, driver


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """A headless chromium, its console log kept; skips without one, except on CI."""
    found = _browser()
    if isinstance(found, str):
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {found}")
        pytest.skip(found)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000"):
        options.add_argument(argument)
    options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND")  # no network
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(executable_path=found[1]))
    try:
        yield browser
    finally:
        browser.quit()


def open_page(driver: Any, path: Path) -> dict[str, Any]:
    """Load ``path``, wait until every chart is drawn; returns the page's specs. Fails on
    any console error."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # forget an earlier page's messages
    driver.get(path.as_uri())
    specs = specs_of(path.read_text(encoding="utf-8"))
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return window.chartsDrawn") == len(specs)
    )
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe
    # Self-contained: nothing fetched (the browser reaches no network: see ``driver``).
    fetched = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert not [f for f in fetched if not f.startswith(("data:", "blob:"))], fetched
    return specs


def assert_drawn(driver: Any, specs: dict[str, Any]) -> None:
    """Every chart has marks (the page is not blank) and every picture has loaded."""
    for name in specs:
        marks = driver.execute_script(
            "return document.querySelectorAll("
            "`#${arguments[0]} svg g.role-mark path, #${arguments[0]} svg g.role-mark line`"
            ").length",
            name,
        )
        assert marks > 0, name
    broken = driver.execute_script(
        "return Array.from(document.images).filter(i => !i.complete || !i.naturalWidth).length"
    )
    assert broken == 0


#: The marks a hover reads: bars, cells and points (a line's path covers no single figure).
HOVERED = "svg g.role-mark.mark-rect > path, svg g.role-mark.mark-symbol > path"


def hovered_charts(driver: Any, specs: dict[str, Any]) -> list[str]:
    """The charts with a bar, cell or point to hover."""
    return [
        name
        for name in specs
        if driver.execute_script(
            "return document.querySelectorAll(arguments[0]).length",
            ", ".join(f"#{name} {part.strip()}" for part in HOVERED.split(",")),
        )
    ]


def hover_shows_interval(driver: Any, chart: str) -> str:
    """Hover the first bar, cell or point of ``chart``; returns the tooltip's text."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    selector = ", ".join(f"#{chart} {part.strip()}" for part in HOVERED.split(","))
    mark = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", mark)
    ActionChains(driver).move_to_element(mark).perform()

    def tooltip(d: Any) -> str | bool:
        found = d.find_elements(By.CSS_SELECTOR, "#vg-tooltip-element.visible")
        return found[0].get_attribute("textContent") if found else False

    return WebDriverWait(driver, 10).until(tooltip)


def assert_sorts(driver: Any) -> None:
    """Clicking a table's 'figure' heading sorts its rows by the figure, both ways."""
    from selenium.webdriver.common.by import By

    tables = driver.find_elements(By.CSS_SELECTOR, "table.sortable")
    table = next(
        t
        for t in tables
        if "figure" in [h.get_attribute("textContent") for h in t.find_elements(By.TAG_NAME, "th")]
        and len(t.find_elements(By.CSS_SELECTOR, "tbody tr")) > 1
    )
    driver.execute_script("const d = arguments[0].closest('details'); if (d) d.open = true", table)
    headings = table.find_elements(By.TAG_NAME, "th")
    column = [h.get_attribute("textContent") for h in headings].index("figure")
    key = (
        "return Array.from(arguments[0].tBodies[0].rows).map(r => parseFloat("
        "r.cells[arguments[1]].textContent.replace(/\\u2212/g, '-').replace(/[^0-9.+-]/g, '')))"
    )
    driver.execute_script("arguments[0].scrollIntoView()", headings[column])
    headings[column].click()
    up = driver.execute_script(key, table, column)
    assert up == sorted(up) and "sorted-up" in headings[column].get_attribute("class")
    headings[column].click()
    down = driver.execute_script(key, table, column)
    assert down == sorted(up, reverse=True)


def assert_legend_toggles(driver: Any, chart: str) -> None:
    """Clicking a legend entry dims the marks of every other series."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    opacity = (
        "return Array.from(document.querySelector(`#${arguments[0]} svg g.role-mark`)"
        ".children).map(p => parseFloat(p.getAttribute('opacity') ?? "
        "getComputedStyle(p).opacity))"
    )
    before = driver.execute_script(opacity, chart)
    assert before and all(o == 1 for o in before), before
    entry = driver.find_element(By.CSS_SELECTOR, f"#{chart} svg g.role-legend-label text")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", entry)
    ActionChains(driver).move_to_element(entry).click().perform()
    after = driver.execute_script(opacity, chart)
    assert 1 in after and min(after) < 0.5, after
    ActionChains(driver).move_to_element(entry).click().perform()  # shows them all again


def assert_cell_links_to_its_row(driver: Any, chart: str) -> None:
    """Clicking a heat map's cell goes to its point's row, which exists."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    cell = driver.find_element(By.CSS_SELECTOR, f"#{chart} svg g.role-mark.mark-rect > path")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    ActionChains(driver).move_to_element(cell).click().perform()
    WebDriverWait(driver, 10).until(lambda d: "#" in d.current_url)
    target = driver.current_url.split("#", 1)[1]
    row = driver.find_elements(By.ID, target)
    assert row and row[0].tag_name == "tr", target


def toggled_chart(driver: Any, specs: dict[str, Any]) -> str | None:
    """The first chart with a legend to click of two entries or more, each a mark of its
    first layer (bars, or lines a series each)."""
    count = (
        "return [document.querySelectorAll(`#${arguments[0]} svg g.role-legend-label text`)"
        ".length, document.querySelector(`#${arguments[0]} svg g.role-mark`)"
        "?.children.length ?? 0]"
    )
    for name, spec in specs.items():
        if has_legend_toggle(spec):
            entries, marks = driver.execute_script(count, name)
            if entries >= 2 and marks >= 2:
                return name
    return None


def first_of(specs: dict[str, Any], *marks: str) -> str | None:
    """The first chart whose first layer draws one of ``marks`` and has a legend."""
    for name, spec in specs.items():
        layer = spec["layer"][0]
        mark = layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
        if mark in marks and has_legend_toggle(spec):
            return name
    return None


@pytest.fixture(scope="module")
def report_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small Walk the Plank run's report page."""
    from balance import api
    from balance.analyses.run_report import write_report

    run = tmp_path_factory.mktemp("pages") / "run"
    api.simulate("walk-the-plank", players=3, games=1000, seed=3, out=run, threads=2)
    return write_report(run, run / "report")[-1]


def test_a_report_page_in_a_browser(driver, report_page: Path) -> None:
    specs = open_page(driver, report_page)
    assert len(specs) >= 5
    assert_drawn(driver, specs)
    bars = first_of(specs, "bar")
    assert bars is not None
    shown = hover_shows_interval(driver, bars)
    assert "95% interval" in shown and "%" in shown and "1,000 games" in shown, shown
    assert_legend_toggles(driver, bars)
    assert_sorts(driver)


# --- every other kind of page, made by the command line ---------------------------------------

WTP = ["walk-the-plank", "-s", "2", "-t", "2"]
KINDS = {
    "compare": ["compare", *WTP, "-p", "3", "-g", "300", "-v", "base", "-v", "kraken"],
    "cards": ["cards", *WTP, "-p", "3", "-g", "300", "--card", "charge", "--card", "run"],
    "sweep": ["sweep", *WTP, "--players", "3", "--axis", "plank_max=3,4", "--games", "300"],
    "tune": [
        *["tune", *WTP, "-p", "4", "--axis", "plank_max=3..5"],
        *["--target", "length_mean=7.8..9", "--block", "256", "--max-games", "1024"],
    ],
    "tournament": [
        *["tournament", *WTP, "-p", "2", "--strategy", "random"],
        *["--strategy", "aggressor", "-g", "100"],
    ],
    "skill": ["skill", *WTP, "-p", "2", "--rung", "random", "--rung", "greedy", "-g", "40"],
    "matchup": [
        *["matchup", "battle-of-thieves", "--deck", "cannon-battery"],
        *["--deck", "boarding-party", "-g", "40", "-s", "2", "-t", "2"],
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_of_page_in_a_browser(driver, kind: str, tmp_path: Path) -> None:
    out = tmp_path / kind
    invoke(*KINDS[kind], "--out", out)
    pages = sorted(out.rglob("index.html"))
    assert pages, f"{kind} wrote no page"
    hovered: list[str] = []
    for path in pages:
        specs = open_page(driver, path)
        assert_drawn(driver, specs)
        for chart in hovered_charts(driver, specs)[:3]:
            shown = hover_shows_interval(driver, chart)
            assert "figure" in shown or "games" in shown, (path, chart, shown)
            hovered.append(chart)
        if (toggled := toggled_chart(driver, specs)) is not None:
            assert_legend_toggles(driver, toggled)
        for chart, spec in specs.items():
            if any("href" in layer.get("encoding", {}) for layer in spec.get("layer", [])):
                assert_cell_links_to_its_row(driver, chart)
                break
        if driver.find_elements("css selector", "table.sortable th"):
            headings = driver.find_elements("css selector", "table.sortable th")
            driver.execute_script(
                "const d = arguments[0].closest('details'); if (d) d.open = true", headings[0]
            )
            driver.execute_script("arguments[0].scrollIntoView()", headings[0])
            headings[0].click()
            assert "sorted-up" in headings[0].get_attribute("class")
