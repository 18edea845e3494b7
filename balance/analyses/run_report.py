"""``balance report``: a saved run's charts, one PNG each and one multi-page PDF.

The common pages (title, seat and strategy win rates, game length) come from the
columns every game records; the game adds its own pages (:meth:`Game.report_charts`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance.analyses.restricted import restricted_play, restricted_play_chart
from balance.core.errors import BalanceError
from balance.core.formatting import changed_rules, rule_value, rules_text
from balance.core.game import Setup, seat_labels
from balance.games import get_game
from balance.reports import findings
from balance.reports.charts import (
    Chart,
    findings_page,
    flag,
    plot_length_histogram,
    plot_rates,
    plot_still_running,
    title_page,
    write_charts,
)
from balance.run.results import SavedRun, load_run, output_dir
from balance.stats import metrics
from balance.stats.caveats import run_warnings, warning_lines
from balance.stats.intervals import mean_interval, wilson_interval

WILSON = "95% Wilson intervals"


@dataclass
class RunTables:
    """A run's set-up, its manifest and its record tables as DataFrames, read once each."""

    setup: Setup
    manifest: Mapping[str, Any]
    source: SavedRun | None = None
    given: dict[str, pd.DataFrame] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self.given:
            if self.source is None:
                raise BalanceError(f"the run has no {name} records")
            self.given[name] = self.source.table(name)
        return self.given[name]

    def require(self, name: str, *columns: str) -> pd.DataFrame:
        """Table ``name``, with a one-line error if a column is missing (a corrupt run)."""
        table = self[name]
        missing = [column for column in columns if column not in table.columns]
        if missing:
            where = self.source.directory if self.source else "the run"
            raise BalanceError(
                f"{str(where)!r} is corrupt: its {name} records have no {missing[0]!r} column"
            )
        return table

    def check_rows(self, name: str, rows: int, expected: int) -> None:
        """A one-line error unless table ``name`` holds ``expected`` rows."""
        if rows != expected:
            where = self.source.directory if self.source else "the run"
            raise BalanceError(
                f"{str(where)!r} is corrupt: its {name} records hold {rows:,} rows, "
                f"not {expected:,}"
            )

    @property
    def games(self) -> int:
        return len(self["games"])

    @classmethod
    def read(cls, directory: str | Path) -> RunTables:
        """A saved run; one-line errors if it is missing, empty or corrupt."""
        saved = load_run(directory)
        if saved.games == 0:
            raise BalanceError(f"{str(directory)!r} holds no games: the run saved none")
        tables = cls(saved.setup, saved.manifest, source=saved)
        unit = get_game(saved.setup.game).report_length(saved.setup.rules)[0]
        games = tables.require("games", "game", unit, "finished")
        seats = tables.require("seats", "game", "seat", "strategy", "won")
        if len(games) == 0:
            raise BalanceError(f"{str(directory)!r} holds no games")
        if len(games) != saved.games:
            raise BalanceError(
                f"{str(directory)!r} is corrupt: the manifest counts {saved.games:,} games, "
                f"the records hold {len(games):,}"
            )
        tables.check_rows("seats", len(seats), saved.games * saved.setup.players)
        return tables


def describe_run(tables: RunTables) -> list[str]:
    """The title page's lines: everything that decides what the charts show."""
    setup = tables.setup
    game = get_game(setup.game)
    manifest = tables.manifest
    rules = setup.rules.to_dict()
    lines = [
        f"game: {game.title} ({game.id}), {setup.players} players",
        f"games: {tables.games:,}"
        + (" (interrupted run: partial)" if manifest.get("partial") else ""),
        f"seed: {setup.seed}",
        f"variants: {', '.join(setup.rules.variants) or 'none (base game)'}",
        "strategies by seat: " + ", ".join(setup.lineup.labels),
        setup.lineup.seating_text(),
        *(
            [
                f"restricted play: {setup.lineup.restriction_text()}; it may never choose "
                f"{', '.join(setup.lineup.restricted)}"
            ]
            if setup.lineup.restricted
            else []
        ),
        f"balance version: {manifest.get('balance_version', 'unknown')}"
        + (f", run created {manifest['created']}" if manifest.get("created") else ""),
        "",
        "rules (every parameter):",
    ]
    lines += [f"  {name} = {rule_value(value)}" for name, value in rules.items()]
    lines += [
        "",
        "Every rate comes with a 95% interval: Wilson for shares of games or seats,",
        "Wilson at the effective number of trials for shares of trials clustered in games",
        "(design effect over games), Student t for means over games, the delta method",
        "(games as clusters) for other ratios, Kaplan-Meier for the median game length.",
    ]
    return lines


def common_charts(tables: RunTables, label: str = "") -> list[Chart]:
    """Title page, seat win rates, strategy win rates (when they differ), game length."""
    setup = tables.setup
    game = get_game(setup.game)
    n_games = tables.games
    unit, cap = game.report_length(setup.rules)
    prefix = f"{label}: " if label else ""
    charts = [Chart("00-title", title_page(f"{game.title}: balance report", describe_run(tables)))]

    seats = tables["seats"]
    rates = metrics.seat_win_rates(seats)
    index = metrics.balance_index_interval(metrics.won_matrix(seats))
    winners = (
        "A game has at most one winner; games without one make the rates sum to less than 100%."
        if game.single_winner
        else "A game may have several winners, so the rates need not sum to 100%."
    )
    charts.append(
        Chart(
            "01-seat-win-rates",
            plot_rates(
                seat_labels(game, setup),
                rates["rate"],
                rates["low"],
                rates["high"],
                title=f"{prefix}win rate by seat (balance index {index['value']:.3f}, "
                f"95% interval {index['low']:.3f} to {index['high']:.3f})"
                if index["value"] == index["value"]
                else f"{prefix}win rate by seat (balance index n/a: no game had a winner)",
                ylabel="games won",
                xlabel=game.seat_note,
                reference=float(rates["rate"].mean()),
                reference_label="mean over seats",
                note=f"{n_games:,} games; {WILSON}. Balance index = 1 - the largest gap "
                "between two seats' win rates; its interval comes from simultaneous "
                "intervals of the differences between seats. Near a tie the index "
                "understates balance by about the noise (two truly equal seats over 1,000 "
                f"games average 0.975). {winners}",
            ),
        )
    )
    if setup.lineup.mixed:
        table = metrics.strategy_win_rates(seats)
        charts.append(
            Chart(
                "02-strategy-win-rates",
                plot_rates(
                    list(table["strategy"]),
                    table["rate"],
                    table["low"],
                    table["high"],
                    title=f"{prefix}win rate by strategy",
                    ylabel="seats won",
                    xlabel="strategy",
                    note=f"{n_games:,} games; win rate over every seat the strategy played; "
                    "95% Wilson intervals at the effective number of seats (games as "
                    "clusters).",
                ),
            )
        )

    games = tables["games"]
    unfinished = int((~games["finished"].astype(bool)).sum())
    length_note = (
        f"{n_games:,} games; {unfinished:,} unfinished "
        f"({100 * unfinished / n_games:.2f}%): still running at the cap of {cap} {unit}"
        if cap is not None
        else f"{n_games:,} games; {unfinished:,} unfinished"
    )
    histogram = metrics.length_distribution(games, unit)
    figures = metrics.length_summary(games[unit].to_numpy(), games["finished"].to_numpy())
    charts.append(
        Chart(
            "03-game-length",
            plot_length_histogram(
                histogram,
                unit,
                title=f"{prefix}game length\n{metrics.length_text(figures, unit)}",
                note=length_note + ". 95% intervals: Student t for the mean; the median "
                "(where the share still running crosses 50%) and the restricted mean (area "
                "under that curve up to the longest game) from the Kaplan-Meier curve, "
                "unfinished games counted as running where they stopped"
                + (", so the plain mean is only a lower bound." if unfinished else "."),
            ),
        )
    )
    charts.append(
        Chart(
            "04-games-still-running",
            plot_still_running(
                {label or "all games": metrics.still_running(games, unit)},
                unit,
                title=f"{prefix}share of games still running",
                cap=cap if unfinished else None,
                note=length_note + f"; {WILSON} (grey band).",
            ),
        )
    )
    return charts


def run_caveats(tables: RunTables) -> list[str]:
    """The run's warnings (see :mod:`balance.stats.caveats`), without the ``warning:`` prefix."""
    game = get_game(tables.setup.game)
    finished = tables["games"]["finished"].to_numpy(bool)
    won = metrics.won_matrix(tables["seats"])
    unit, cap = game.report_length(tables.setup.rules)
    return run_warnings(finished, won, cap, unit)


def run_findings(tables: RunTables) -> list[str]:
    """The findings page's sentences: seats, strategies, winners and game length.

    Each restates a figure of the report's charts with its interval and games.
    """
    setup = tables.setup
    game = get_game(setup.game)
    seats = tables["seats"]
    n_games = tables.games
    rates = metrics.seat_win_rates(seats)
    won = metrics.won_matrix(seats)
    labels = seat_labels(game, setup)
    held = findings.held_sentence(labels, game.seat_holdings(setup))
    found = findings.random_play_sentences(
        setup.lineup.labels, "the gaps between seats, the winners and the game lengths"
    )
    found += [] if held is None else [held]
    found.append(
        findings.seat_sentence(
            labels,
            rates["rate"],
            rates["low"],
            rates["high"],
            metrics.balance_index_interval(won),
            n_games,
        )
    )
    if setup.lineup.mixed:
        found.append(findings.strategy_sentence(metrics.strategy_win_rates(seats)))
    nobody = int((~won.any(axis=1)).sum())
    no_winner = findings.no_winner_sentence(nobody, wilson_interval(nobody, n_games), n_games)
    if no_winner is not None:
        found.append(no_winner)
    games = tables["games"]
    unfinished = int((~games["finished"].astype(bool)).sum())
    unit, cap = game.report_length(setup.rules)
    found.append(
        findings.length_sentence(
            mean_interval(games[unit].to_numpy(), floor=0.0),
            unfinished,
            wilson_interval(unfinished, n_games),
            n_games,
            unit,
            cap,
        )
    )
    return found


def findings_chart(tables: RunTables) -> Chart:
    """The report's first page: its warnings and findings in plain sentences."""
    game = get_game(tables.setup.game)
    changed = changed_rules(tables.setup.rules.to_dict(), game.default_rules().to_dict())
    rules = (
        "rules changed from the defaults: " + rules_text(changed) if changed else "default rules"
    )
    lines = [
        *run_findings(tables),
        f"{game.title}, {tables.setup.players} players, {rules}, strategies "
        f"{', '.join(tables.setup.lineup.labels)}. Intervals are 95%: Wilson for rates over "
        "games, Wilson at the effective number of seats (games as clusters) for a "
        "strategy's rate over its seats, "
        "Student t for means, simultaneous intervals of the seat differences for the gap "
        "between seats. The pages after the title page show each figure.",
    ]
    return Chart(
        "00-findings",
        findings_page(f"{game.title}: findings", warning_lines(run_caveats(tables)), lines),
    )


def report_charts(tables: RunTables) -> list[Chart]:
    """Every chart of a run's report, in page order: the findings page first.

    Every page after the findings page carries the run's warnings at its top.
    """
    game = get_game(tables.setup.game)
    charts = [*common_charts(tables), *game.report_charts(tables)]
    warned = warning_lines(run_caveats(tables))
    for chart in charts:
        flag(chart.figure, warned)
    return [findings_chart(tables), *charts]


def write_report(
    directory: str | Path,
    out: str | Path,
    restricted_games: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> list[Path]:
    """Read the run saved in ``directory`` and write its report to ``out``.

    With ``restricted_games``, the report adds card value by restricted play
    (:mod:`balance.analyses.restricted`), played anew on the run's set-up with that many games
    per card; its table is written as ``restricted-play.csv``.
    """
    tables = RunTables.read(directory)
    out = output_dir(out)
    charts = report_charts(tables)
    value = None
    if restricted_games is not None:
        value = restricted_play(
            tables.setup,
            restricted_games,
            threads=threads,
            progress=progress,
            on_compile=on_compile,
        )
        charts.append(restricted_play_chart(value))
        flag(charts[-1].figure, warning_lines(run_caveats(tables)))
    written = write_charts(charts, out, "report.pdf")
    (out / "restricted-play.csv").unlink(missing_ok=True)  # an older report's
    if value is not None:
        value.table.to_csv(out / "restricted-play.csv", index=False)
    return written
