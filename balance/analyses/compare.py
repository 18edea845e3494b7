"""``balance compare``: rule variants played on the same games, with paired differences.

Every variant plays the same game indices from the same seed. Each game draws its dice
and each seat's choices from streams of their own (see :mod:`balance.run.runner`), so the
variants share every random number they can (common random numbers), and the
difference between two variants is measured game by game: its interval is far narrower
than that of two independent runs. Each variant's difference from the first is tested,
and Holm's correction over the whole table says which differences stay significant.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from balance.core.errors import BalanceError, Interrupted
from balance.core.formatting import changed_rules, rules_text
from balance.core.game import Setup
from balance.games import get_game
from balance.reports import findings
from balance.reports.charts import (
    Chart,
    findings_page,
    flag,
    plot_grouped,
    plot_intervals,
    plot_still_running,
    title_page,
    write_charts,
)
from balance.run.play import make_setup
from balance.run.results import MANIFEST, RunWriter, manifest_for, output_dir, write_json
from balance.run.runner import RunResult, check_run, run_games
from balance.run.summary import summarize
from balance.stats import metrics
from balance.stats.caveats import run_warnings, warning_lines

BASE = "base"


@dataclass(frozen=True)
class VariantSpec:
    """One arm of a comparison: variants switched on and rules set, named by its text.

    The text joins parts with ``+``: ``base`` (nothing changed), a variant's name
    (``kraken``) or a rule (``rest=charge,run``), e.g. ``ghost+kraken+plank_max=4``.
    """

    label: str
    variants: tuple[str, ...]
    rules: tuple[tuple[str, str], ...]


def parse_variant(text: str) -> VariantSpec:
    """A ``--variant`` text as a :class:`VariantSpec`; a one-line error if malformed."""
    label = text.strip()
    if not label:
        raise BalanceError("--variant needs a name: base, a variant, NAME=VALUE, or a+b")
    variants: list[str] = []
    rules: list[tuple[str, str]] = []
    for part in label.split("+"):
        part = part.strip()
        name, eq, value = part.partition("=")
        if not part:
            raise BalanceError(f"--variant {text!r} has an empty part")
        if eq:
            if not name.strip():
                raise BalanceError(f"--variant {text!r}: {part!r} needs NAME=VALUE")
            rules.append((name.strip(), value.strip()))
        elif part != BASE:
            variants.append(part)
    return VariantSpec(label, tuple(variants), tuple(rules))


@dataclass
class Comparison:
    """The runs of a comparison and its table (see :func:`balance.stats.metrics.paired_table`)."""

    game: str
    setups: dict[str, Setup]
    per_game: dict[str, pd.DataFrame]
    table: pd.DataFrame
    requested: int
    partial: bool
    elapsed_s: float
    summaries: dict[str, dict[str, Any]]
    precision: dict[str, Any] | None = None  # compare --precision: how the run stopped
    min_effect: float = findings.MIN_EFFECT  # the smallest change that matters, in points

    @property
    def labels(self) -> list[str]:
        return list(self.setups)

    @property
    def games(self) -> int:
        return len(next(iter(self.per_game.values())))

    @property
    def first(self) -> Setup:
        return self.setups[self.labels[0]]

    @property
    def warnings(self) -> list[str]:
        """Each variant's warnings (games stopped at the cap, no winner), named by label."""
        game = get_game(self.game)
        found: list[str] = []
        for label, frame in self.per_game.items():
            won = frame[[f"won_{seat}" for seat in range(self.first.players)]].to_numpy(bool)
            cap = game.length_cap(self.setups[label].rules)
            found += run_warnings(
                frame["finished"].to_numpy(bool), won, cap, game.length_unit, label
            )
        return found

    def shared_wins(self) -> bool:
        """Whether any game of any variant had two or more winners."""
        for table in self.per_game.values():
            won = table[[column for column in table if column.startswith("won_")]]
            if (won.sum(axis=1) >= 2).any():
                return True
        return False

    def _precision_lines(self) -> list[str]:
        if self.precision is None:
            return []
        h = self.precision["precision"]
        if self.precision["stopped_by"] == "max_games":
            head = (
                f"stopped at --max-games ({self.games:,} games) before every paired difference "
                f"of a rate reached +/-{h:g}"
            )
        else:
            head = (
                f"stopped after {self.games:,} games: every paired difference of a rate within "
                f"+/-{h:g} (the last to get there: {self.precision['stopped_by']})"
            )
        return [
            head,
            "differences of rates and of game length: 95% anytime-valid intervals "
            "(confidence sequences); other intervals and the p-values are fixed-n",
        ]

    def text(self) -> str:
        """The comparison as a designer reads it in a terminal."""
        setup = self.first
        game = get_game(self.game)
        lines = [
            *warning_lines(self.warnings),
            f"{self.game}: {len(self.labels)} variants compared on the same {self.games:,} games "
            f"(seed {setup.seed}, {setup.players} players)"
            + (f"; interrupted, {self.requested:,} asked" if self.partial else ""),
            f"strategies: {', '.join(setup.lineup.labels)}; {setup.lineup.seating_text()}",
            *self._precision_lines(),
            "rules each variant changes from the defaults:",
        ]
        defaults = game.default_rules().to_dict()
        for label, each in self.setups.items():
            shown = rules_text(changed_rules(each.rules.to_dict(), defaults)) or "none"
            lines.append(f"  {label}: {shown}")
        base = self.labels[0]
        lines.append(
            "\nEach row: the variant's value, the same for "
            f"{base!r}, and the paired difference with its 95% interval."
        )
        lines.append(
            "* = significant at 5% after Holm's correction over the "
            f"{int(self.table['p'].notna().sum())} differences of this table"
            + (
                ", and for a difference with an anytime-valid interval, that interval clear of 0."
                if self.precision
                else "."
            )
        )
        shared = self.shared_wins
        if shared:
            lines.append(
                "Every winner of a shared win counts a win, so a win rate also moves with the "
                "share of games with two or more winners; 'shared' is the part of a win-rate "
                "difference that comes from shared wins, and a row whose difference is clear of "
                "zero (its 95% interval excludes 0) is marked 'driven by shared wins' when "
                "that part is at least half of the difference."
            )
        width = max(len(m) for m in self.table["metric"]) + 2
        for label in self.labels[1:]:
            rows = self.table[self.table["run"] == label]
            lines.append(f"\n{label} vs {base}:")
            lines.append(
                f"  {'metric':<{width}} {label[:24]:<24} {base[:24]:<24} "
                f"{'difference [95% interval]':<34} {'p (Holm)':>9}"
            )
            base_rows = self.table[self.table["run"] == base].set_index("metric")
            for row in rows.itertuples():
                ref = base_rows.loc[row.metric]
                lines.append(
                    f"  {row.metric:<{width}} {_fmt(row.value, row.low, row.high, row.kind):<24} "
                    f"{_fmt(ref['value'], ref['low'], ref['high'], row.kind):<24} "
                    f"{_diff(row.difference, row.diff_low, row.diff_high, row.kind, row.unit):<34} "
                    f"{_p(row.p_holm, row.p_is_bound):>9}{' *' if row.significant else ''}"
                    + (_shared_note(row._asdict()) if shared else "")
                )
        capped = {
            label: int((~frame["finished"].astype(bool)).sum())
            for label, frame in self.per_game.items()
        }
        if any(capped.values()):
            counts = ", ".join(f"{label} {count:,}" for label, count in capped.items())
            lines.append(
                f"\nUnfinished games (of {self.games:,}): {counts}. They count at the length "
                "where the cap stopped them, so each game length is a mean restricted to the "
                "cap: a lower bound of the uncapped mean."
            )
        differences = (
            "differences of rates and of game length anytime-valid (confidence sequences), "
            "other differences paired t over games. "
            if self.precision
            else "differences paired t over games. "
        )
        lines.append(
            "\nIntervals: rates per variant Wilson, a strategy's rate over its seats the delta "
            "method with games as clusters, means Student t; "
            + differences
            + "Balance index: simultaneous intervals of the seat differences; its difference: "
            "simultaneous intervals of the paired differences between the two variants' "
            "seat gaps. Near a tie the index understates balance by about the noise (two "
            "truly equal seats over 1,000 games average 0.975), and the difference's "
            "interval is conservative there (it held the truth in 97-99.95% of simulated "
            "runs near a tie, against 95% nominal; docs/reports.md)."
        )
        lines.append("\nFindings:")
        lines += [f"  {line}" for line in comparison_findings(self)]
        return "\n".join(lines)


def compare(
    game: str,
    players: int | None,
    games: int,
    variants: Sequence[str],
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    rules: Iterable[tuple[str, str]] = (),
    rotate_seats: bool = False,
    threads: int | None = None,
    out: str | Path | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    min_effect: float = findings.MIN_EFFECT,
) -> Comparison:
    """Play every variant on the same ``games`` game indices and compare them in pairs.

    With ``precision`` H, ``games`` is ignored: blocks are played until every paired
    difference of a rate has a 95% anytime-valid interval at most H either side, or
    until ``max_games`` (:mod:`balance.run.paired_precision`).

    ``variants`` are :func:`parse_variant` texts, the first being the one the others are
    compared with; ``rules`` apply to every variant, before the variant's own. With
    ``out``, each variant's run is saved under ``out/runs/LABEL`` and the comparison's
    charts, table (``comparison.csv``) and PDF are written to ``out``. ``min_effect`` is
    the smallest change the findings count as mattering (:func:`findings.difference_sentences`).
    """
    findings.check_min_effect(min_effect)
    specs = [parse_variant(text) for text in variants]
    if len(specs) < 2:
        raise BalanceError(
            "compare needs at least two --variant, e.g. --variant base --variant kraken"
        )
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise BalanceError(f"each --variant must differ; given: {', '.join(labels)}")
    common = list(rules)
    setups = {
        spec.label: make_setup(
            game, players, seed, strategies, spec.variants, common + list(spec.rules), rotate_seats
        )
        for spec in specs
    }
    if precision is not None:
        from balance.run.precision import DEFAULT_MAX_GAMES, check_precision

        games = DEFAULT_MAX_GAMES if max_games is None else max_games
        check_precision(precision, games)
    check_run(games, threads, None)
    out_dir = output_dir(out) if out is not None else None
    if out_dir is not None:
        _clear_previous(out_dir)
    results: dict[str, RunResult] = {}
    summaries: dict[str, dict[str, Any]] = {}
    clock = time.perf_counter()
    tracker = None
    if precision is not None:
        from balance.run.paired_precision import play_paired_until

        writers = {
            label: RunWriter(out_dir / "runs" / _safe(label), setup)
            for label, setup in setups.items()
            if out_dir
        }
        results, tracker = play_paired_until(
            setups,
            precision,
            games,
            threads=threads,
            writers=writers,
            progress=progress,
            on_compile=on_compile,
        )
        for label, result in results.items():
            summaries[label] = summarize(result)
            if label in writers:
                writers[label].close(
                    manifest_for(
                        setups[label], games, result.partial, threads=result.threads,
                        precision=precision,
                    ),
                    summaries[label],
                )  # fmt: skip
    else:
        for label, setup in setups.items():
            writer = RunWriter(out_dir / "runs" / _safe(label), setup) if out_dir else None
            result = run_games(
                setup,
                games,
                threads=threads,
                sinks=[writer] if writer else [],
                keep_records=False,
                progress=progress,
                on_compile=on_compile,
            )
            results[label] = result
            summaries[label] = summarize(result)
            if writer is not None:
                writer.close(
                    manifest_for(setup, games, result.partial, threads=result.threads),
                    summaries[label],
                )
            if result.partial:
                break
    elapsed = time.perf_counter() - clock
    played = min(result.games for result in results.values())
    partial = (played < games and tracker is None) or len(results) < len(setups)
    partial = partial or any(result.partial for result in results.values())
    if partial and (played == 0 or len(results) < 2):
        raise Interrupted("interrupted before two variants had played any game")
    setups = {label: setups[label] for label in results}
    per_game, chosen, won_columns = {}, [], []
    for label, result in results.items():
        per_game[label], chosen, won_columns = _per_game(result, played)
    comparison = Comparison(
        game=get_game(game).id,
        setups=setups,
        per_game=per_game,
        table=metrics.paired_table(per_game, chosen, won_columns),
        requested=games,
        partial=partial,
        elapsed_s=elapsed,
        summaries=summaries,
        min_effect=min_effect,
    )
    if tracker is not None:
        from balance.run.paired_precision import apply_anytime

        apply_anytime(comparison.table, tracker)
        comparison.precision = {
            "precision": precision,
            "max_games": games,
            "stopped_by": tracker.stopped_by,
            "anytime_valid": True,
        }
    if out_dir is not None:
        write_comparison(comparison, out_dir)
    return comparison


def _per_game(
    result: RunResult, games: int
) -> tuple[pd.DataFrame, list[metrics.Metric], list[str]]:
    """The first ``games`` games of a run as one row a game, and the metrics to test."""
    game = get_game(result.setup.game)
    blocks = sorted(result.blocks, key=lambda block: block.first_game)
    length = np.concatenate([b.length for b in blocks])[:games]
    finished = np.concatenate([b.finished for b in blocks])[:games]
    won = np.concatenate([b.won for b in blocks])[:games]
    index = np.concatenate(
        [np.arange(b.first_game, b.first_game + b.size, dtype=np.int64) for b in blocks]
    )[:games]
    common, chosen = metrics.common_per_game(length, finished, won, game.length_unit)
    own, own_chosen = game.per_game(blocks)
    own = own.iloc[:games].reset_index(drop=True)
    n = won.shape[1]
    shared = won & (won.sum(axis=1) >= 2)[:, None]
    for seat in range(n):
        common[f"shared_won_{seat}"] = shared[:, seat]
    chosen = [
        replace(metric, shared=f"shared_{metric.column}")
        if metric.column.startswith("won_")
        else metric
        for metric in chosen
    ]
    strategies, strategy_chosen = _strategy_per_game(result.setup, index, won, own)
    table = pd.concat([common, own, strategies], axis=1)
    won_columns = [f"won_{seat}" for seat in range(n)]
    return table, chosen + strategy_chosen + own_chosen, won_columns


def _strategy_per_game(
    setup: Setup, index: np.ndarray, won: np.ndarray, own: pd.DataFrame
) -> tuple[pd.DataFrame, list[metrics.Metric]]:
    """Per game, each strategy's share of its seats that won (and its mean score).

    Only when strategies differ: every strategy's win rate over the seats it played
    (games as clusters, as in the summary), the part of it won together with another
    winner, and, where the game records a score for every seat (``score_SEAT``), its
    mean score over those seats.

    Parameters
    ----------
    setup : the run's set-up (line-up and rotation).
    index : int ``(G,)``, the game indices; won : bool ``(G, n)``; own : the game's own
        per-game table, ``G`` rows.

    Returns
    -------
    DataFrame of ``G`` rows (no columns when every seat plays the same strategy) and
    the metrics on it.
    """
    lineup = setup.lineup
    if not lineup.mixed:
        return pd.DataFrame(index=range(len(index))), []
    n = won.shape[1]
    unique = list(dict.fromkeys(lineup.labels))
    code = np.array([unique.index(label) for label in lineup.labels])
    # Strategy of every seat of every game: (G, n) codes into ``unique``.
    played = np.stack([code[lineup.strategy_index(index, seat)] for seat in range(n)], axis=1)
    shared = won & (won.sum(axis=1) >= 2)[:, None]
    scores = [f"score_{seat}" for seat in range(n)]
    score = own[scores].to_numpy(dtype=float) if all(c in own for c in scores) else None
    columns: dict[str, np.ndarray] = {}
    chosen = []
    for k, label in enumerate(unique):
        here = played == k
        plays = here.sum(axis=1)
        columns[f"strategy_won_{k}"] = (here & won).sum(axis=1) / plays
        columns[f"strategy_shared_won_{k}"] = (here & shared).sum(axis=1) / plays
        chosen.append(
            metrics.Metric(
                f"strategy {label} win rate",
                f"strategy_won_{k}",
                "seat share",
                shared=f"strategy_shared_won_{k}",
                seats=int(plays[0]),  # every seating order gives a strategy as many seats
            )
        )
        if score is not None:
            columns[f"strategy_score_{k}"] = np.where(here, score, 0.0).sum(axis=1) / plays
            chosen.append(
                metrics.Metric(f"strategy {label} score", f"strategy_score_{k}", "mean", "points")
            )
    return pd.DataFrame(columns), chosen


def comparison_charts(comparison: Comparison) -> list[Chart]:
    """Title page, seat win rates by variant, game length, and the paired differences."""
    first = comparison.first
    game = get_game(comparison.game)
    unit = game.length_unit
    n_games = comparison.games
    table = comparison.table
    labels = comparison.labels
    base = labels[0]
    holm_note = (
        f"Filled points: significant at 5% after Holm's correction over the "
        f"{int(table['p'].notna().sum())} paired differences of the comparison"
        + (", and an anytime-valid interval clear of 0." if comparison.precision else ".")
    )
    charts = [
        Chart("00-title", title_page(f"{game.title}: variants compared", _title_lines(comparison)))
    ]

    seats = [f"seat {s}" for s in range(first.players)]
    series = {}
    for label in labels:
        rows = table[
            (table["run"] == label)
            & table["metric"].str.startswith("seat ")
            & table["metric"].str.endswith(" win rate")
        ]
        series[label] = (rows["value"], rows["low"], rows["high"])
    charts.append(
        Chart(
            "01-seat-win-rates",
            plot_grouped(
                seats,
                series,
                title="win rate by seat, per variant",
                ylabel="games won",
                xlabel="seat",
                note=f"{n_games:,} games per variant, the same game indices and seed for "
                "every variant; 95% Wilson intervals.",
            ),
        )
    )
    index_rows = table[table["metric"] == "balance index"]
    charts.append(
        Chart(
            "02-balance-index",
            plot_intervals(
                [
                    label if value == value else f"{label} (n/a)"
                    for label, value in zip(index_rows["run"], index_rows["value"], strict=True)
                ],
                index_rows["value"],
                index_rows["low"],
                index_rows["high"],
                title="balance index per variant (1 - largest gap between seat win rates)",
                xlabel="balance index (1 = every seat wins equally often)",
                zero=None,
                note=f"{n_games:,} games per variant; 95% intervals from simultaneous "
                "intervals of the differences between seats' win rates (they reach 1 when "
                "no seat is significantly ahead). Near a tie the index understates balance "
                "by about the noise: two truly equal seats over 1,000 games average 0.975."
                + (
                    " n/a: no game had a winner, so there is no index."
                    if index_rows["value"].isna().any()
                    else ""
                ),
            ),
        )
    )
    curves = {}
    for label in labels:
        frame = comparison.per_game[label]
        curves[label] = metrics.still_running(
            pd.DataFrame({unit: frame["length"], "finished": frame["finished"]}), unit
        )
    charts.append(
        Chart(
            "03-games-still-running",
            plot_still_running(
                curves,
                unit,
                title="share of games still running, per variant",
                note=f"{n_games:,} games per variant; 95% Wilson intervals (grey bands). "
                f"Unfinished games (stopped by the cap) count as running.",
            ),
        )
    )
    later = table[table["run"] != base]
    own = later[(later["kind"] == "mean") & (later["metric"] != "game length")]
    # One panel a unit: a page never sets rounds beside index points, or hats beside pawns.
    groups = [
        (
            "04-differences-rates",
            "paired differences from {base}: rates",
            [(later["kind"].isin(metrics.RATE_KINDS), "", "percentage points of games", True)],
        ),
        (
            "05-differences-length-balance",
            "paired differences from {base}: game length, balance index",
            [
                (later["metric"] == "game length", "game length", unit, False),
                (later["kind"].isin(["index"]), "balance index", "index points", False),
            ],
        ),
        (
            "06-differences-game-own",
            "paired differences from {base}: " + _own_title(own),
            [
                (later.index.isin(own.index) & (later["unit"] == u), u or "counts", u, False)
                for u in sorted(set(own["unit"]))
            ],
        ),
    ]
    note = (
        f"{n_games:,} paired games (same seed and game indices); 95% "
        + (
            "intervals: anytime-valid for differences of rates and game length, "
            "otherwise paired t over games"
            if comparison.precision
            else "intervals: paired t over games"
        )
        + " (balance index difference: simultaneous intervals of the paired seat-gap "
        "differences, conservative near a tie: 97-99.95% coverage). " + holm_note
    )
    for name, title, panels in groups:
        shown = [(later[mask], label, u, pct) for mask, label, u, pct in panels if mask.any()]
        if shown:
            charts.append(Chart(name, _difference_panels(shown, title.format(base=base), note)))
    return charts


def _difference_panels(
    panels: Sequence[tuple[pd.DataFrame, str, str, bool]], title: str, note: str
) -> Any:
    """Forest plots of paired differences, one panel (stacked) a unit.

    Each panel is ``(rows of the comparison table, panel title, unit, percent)``; a
    single panel takes the whole page.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    from balance.reports.charts import CAPTION_SPACE, HEIGHT, WIDTH

    counts = [len(rows) for rows, _, _, _ in panels]
    height = max(HEIGHT, 1.2 + 0.32 * sum(counts) + 0.9 * len(panels))
    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    bottom = CAPTION_SPACE * HEIGHT / height
    figure.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    axes = figure.subplots(len(panels), 1, squeeze=False, height_ratios=[c + 1 for c in counts])
    for k, ((rows, label, unit, in_points), ax) in enumerate(zip(panels, axes[:, 0], strict=True)):
        plot_intervals(
            [
                f"{r.run}: {r.metric}" + ("" if r.difference == r.difference else " (n/a)")
                for r in rows.itertuples()
            ],
            rows["difference"],
            rows["diff_low"],
            rows["diff_high"],
            title=title if len(panels) == 1 else "",
            xlabel=f"difference ({unit})" if unit else "difference per game",
            marked=rows["significant"].to_numpy(bool),
            marked_label="significant after Holm",
            points=in_points,
            note=note if k == len(panels) - 1 else "",
            ax=ax,
        )
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6))  # ticks that never collide
        if len(panels) > 1:
            ax.set_title(label, fontsize=9)
    if len(panels) > 1:
        figure.suptitle(title)
    return figure


def comparison_findings(comparison: Comparison) -> list[str]:
    """The findings page's sentences: each variant's seats, then what each changes.

    Each restates a figure of the comparison's table with its interval and games.
    """
    table = comparison.table
    base = comparison.labels[0]
    seats = [f"seat {s}" for s in range(comparison.first.players)]
    found = findings.random_play_sentences(
        comparison.first.lineup.labels, "the seats' win rates and what each variant changes"
    )
    for label in comparison.labels:
        rows = table[table["run"] == label].set_index("metric")
        rates = rows.loc[[f"{seat} win rate" for seat in seats]]
        index = rows.loc["balance index"]
        found.append(
            f"{label}: "
            + findings.seat_sentence(
                seats, rates["value"], rates["low"], rates["high"], index, comparison.games
            )
        )
    for label in comparison.labels[1:]:
        found += findings.difference_sentences(
            table[table["run"] == label], label, base, comparison.min_effect
        )
    return found


def findings_chart(comparison: Comparison) -> Chart:
    """The comparison's first page: its warnings and findings in plain sentences."""
    game = get_game(comparison.game)
    lines = [
        *comparison_findings(comparison),
        f"{comparison.games:,} games per variant, the same seed and game indices for every "
        "variant. Rates: 95% Wilson intervals; differences: paired over games, 95% "
        + (
            "anytime-valid intervals for rates and game length, Student t for the others"
            if comparison.precision
            else "Student t intervals"
        )
        + "; significance after Holm's correction over the "
        f"{int(comparison.table['p'].notna().sum())} differences of the comparison.",
    ]
    return Chart(
        "00-findings",
        findings_page(
            f"{game.title}: variants compared, findings", warning_lines(comparison.warnings), lines
        ),
    )


def comparison_pages(comparison: Comparison) -> list[Chart]:
    """The findings page, then :func:`comparison_charts`, each with the warnings on top."""
    charts = comparison_charts(comparison)
    warned = warning_lines(comparison.warnings)
    for chart in charts:
        flag(chart.figure, warned)
    return [findings_chart(comparison), *charts]


def write_comparison(comparison: Comparison, out: Path) -> list[Path]:
    """Charts (PNG and ``comparison.pdf``), ``comparison.csv`` and ``comparison.json``.

    The PDF opens with the findings page; every later page carries the warnings."""
    written = write_charts(comparison_pages(comparison), out, "comparison.pdf")
    comparison.table.to_csv(out / "comparison.csv", index=False)
    write_json(
        out / "comparison.json",
        {
            "game": comparison.game,
            "games": comparison.games,
            "requested_games": comparison.requested,
            "partial": comparison.partial,
            "variants": comparison.labels,
            "warnings": comparison.warnings,
            "min_effect": comparison.min_effect,
            **({"precision": comparison.precision} if comparison.precision else {}),
            "rows": comparison.table.replace({np.nan: None}).to_dict(orient="records"),
        },
    )
    return [*written, out / "comparison.csv", out / "comparison.json"]


def _title_lines(comparison: Comparison) -> list[str]:
    first = comparison.first
    game = get_game(comparison.game)
    lines = [
        f"game: {game.title} ({game.id}), {first.players} players",
        f"games: {comparison.games:,} per variant, the same game indices and seed "
        f"({first.seed}) for every variant"
        + (" (interrupted: partial)" if comparison.partial else ""),
        "strategies by seat: " + ", ".join(first.lineup.labels),
        first.lineup.seating_text(),
        f"compared with: {comparison.labels[0]}",
        "",
        "variants (every rule parameter):",
    ]
    for label, setup in comparison.setups.items():
        lines.append(f"  {label}: {rules_text(setup.rules.to_dict())}")
    from balance import __version__

    lines += ["", f"balance version: {__version__}", ""]
    if comparison.precision:
        lines += [
            *comparison._precision_lines(),
            "",
            "Rates: 95% Wilson intervals. Differences: paired over games; of rates and of",
            "game length 95% anytime-valid intervals, of the others 95% Student t intervals.",
        ]
    else:
        lines += [
            "Rates: 95% Wilson intervals. Differences: paired over games, 95% Student t",
            "intervals.",
        ]
    lines += [
        "Balance index: simultaneous intervals of the seat differences; its difference:",
        "simultaneous intervals of the paired seat-gap differences.",
        "Significance: Holm's correction over every difference in the comparison"
        + (", and an anytime-valid interval clear of 0." if comparison.precision else "."),
    ]
    return lines


def _own_title(rows: pd.DataFrame) -> str:
    """What the game's own per-game counts are, from their units: ``reveals per game``."""
    units = sorted({unit for unit in rows["unit"] if unit})
    return (", ".join(units) or "counts") + " per game"


def _clear_previous(out: Path) -> None:
    """Remove an older comparison's runs from ``out``, so that no stale variant remains."""
    if not (out / "comparison.json").exists():
        return
    for manifest in out.glob(f"runs/*/{MANIFEST}"):
        shutil.rmtree(manifest.parent)
    for name in ("comparison.json", "comparison.csv"):
        (out / name).unlink(missing_ok=True)


def _safe(label: str) -> str:
    """A label as a directory name."""
    return re.sub(r"[^A-Za-z0-9_.,=+-]", "_", label)


def _fmt(value: float, low: float, high: float, kind: str) -> str:
    """A value and its interval, compactly: ``34.42% [34.1, 34.7]``."""
    if value != value:
        return "n/a"
    if kind in metrics.RATE_KINDS:
        return f"{100 * value:.2f}% [{100 * low:.1f}, {100 * high:.1f}]"
    if low != low:
        return f"{value:.3f}"
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def _diff(value: float, low: float, high: float, kind: str, unit: str) -> str:
    if value != value:
        return "n/a"
    if kind in metrics.RATE_KINDS:
        return f"{100 * value:+.2f} pp [{100 * low:+.2f}, {100 * high:+.2f}]"
    return f"{value:+.3f} [{low:+.3f}, {high:+.3f}]" + (f" {unit}" if unit else "")


def _shared_note(row: dict[str, Any]) -> str:
    """``  shared +1.20 pp, driven by shared wins`` for a win rate's difference, or ``""``.

    ``row`` holds ``difference``, its interval ``diff_low``/``diff_high`` and
    ``shared_difference``."""
    part = row.get("shared_difference", float("nan"))
    if part != part:
        return ""
    note = f"  shared {100 * part:+.2f} pp"
    difference = row["difference"]
    # Only a difference clear of zero is driven by anything: on one whose interval holds
    # zero, half of a null difference is noise too.
    clear = row["diff_low"] > 0 or row["diff_high"] < 0
    if clear and abs(part) >= abs(difference) / 2:
        note += ", driven by shared wins"
    return note


def _p(p: float, bound: bool = False) -> str:
    """A p-value as printed; a resampled one no draw reached is a bound (``<5e-05``)."""
    if p != p:
        return "n/a"
    if bound:
        return f"<{p:.2g}"
    return "<0.001" if p < 0.001 else f"{p:.3f}"
