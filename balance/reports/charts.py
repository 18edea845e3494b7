"""Drawing: tables of numbers with intervals in, matplotlib figures out.

Every function draws what a metrics function computed (:mod:`balance.stats.metrics`) and
nothing else: ``plot_*(table, ..., ax=None) -> Figure``. Charts are meant for print:
grey bars with black edges, hatching and line styles instead of colour, a title, axis
labels with units, and a caption that gives the number of games and the interval method.
Figures are built without pyplot, so drawing needs no display and leaks no state.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from balance.reports.views import Table, View, attach, figure_rows, view_of

WIDTH, HEIGHT = 8.0, 5.0
GREYS = ("0.55", "0.85", "0.3", "0.7", "0.15", "0.95")
HATCHES = ("", "//", "..", "xx", "\\\\", "++")
LINES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
CAPTION_SPACE = 0.13  # share of the figure's height kept free for the caption


@dataclass(frozen=True)
class Chart:
    """One page of a report: a file name (without suffix) and its figure."""

    name: str
    figure: Figure


def new_axes(ax: Axes | None = None, height: float = HEIGHT) -> tuple[Figure, Axes]:
    """``ax`` and its figure, or a fresh print-sized figure with one axes."""
    if ax is not None:
        return ax.figure, ax
    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    bottom = CAPTION_SPACE * HEIGHT / height
    figure.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    return figure, figure.add_subplot()


def keep(figure: Figure, ax: Axes, view: View) -> None:
    """Keep ``view`` on ``figure`` for the report's page when ``ax`` is its only axes (a
    chart of its own); a panel of a larger figure appears on the page with its figure."""
    if figure.axes == [ax]:
        attach(figure, view)


def caption(figure: Figure, text: str) -> None:
    """Small text under the axes: number of games, interval method, notes."""
    view = view_of(figure)
    if view is not None:
        view.caption = text
    wrapped = "\n".join(textwrap.wrap(text, 120))
    figure.text(0.01, 0.01, wrapped, fontsize=7.5, va="bottom", ha="left", color="0.1")


def percent_axis(ax: Axes, axis: str = "y") -> None:
    from matplotlib.ticker import PercentFormatter

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(1.0))


def points_axis(ax: Axes, axis: str = "x") -> None:
    """Ticks of a difference of two shares in signed percentage points (``-4.5``, ``+1.5``):
    a difference of rates is not itself a rate, so it carries no ``%``."""
    from matplotlib.ticker import FuncFormatter

    def label(value: float, _position: int) -> str:
        text = f"{100 * value:+.1f}"
        return "0" if text in ("+0.0", "-0.0") else text.replace("-", "\u2212")

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(FuncFormatter(label))


def plot_rates(
    labels: Sequence[str],
    rate: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    title: str,
    ylabel: str,
    xlabel: str = "",
    note: str = "",
    reference: float | None = None,
    reference_label: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Bars of rates (shares in [0, 1]) with their interval as error bars.

    ``reference`` draws a dashed horizontal line (for instance the win rate every seat
    would have in a fair game).
    """
    figure, ax = new_axes(ax)
    keep(
        figure,
        ax,
        View(
            "bars",
            title,
            figure_rows(labels, rate, low, high, "percent"),
            xlabel,
            ylabel,
            "percent",
            reference=reference,
            options={"reference_label": reference_label},
        ),
    )
    rate = np.asarray(rate, dtype=float)
    x = np.arange(len(labels))
    errors = _errors(rate, low, high)
    ax.bar(x, rate, color=GREYS[0], edgecolor="black", width=0.6, zorder=2)
    ax.errorbar(x, rate, yerr=errors, fmt="none", ecolor="black", capsize=6, lw=1.2, zorder=3)
    for xi, value, top in zip(x, rate, np.asarray(high, dtype=float), strict=True):
        if np.isfinite(value):
            shown = top if np.isfinite(top) else value
            ax.annotate(
                f"{100 * value:.1f}%",
                (xi, shown),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                fontsize=8,
            )
    if reference is not None:
        ax.axhline(reference, color="black", ls="--", lw=1, label=reference_label, zorder=1)
        ax.legend(loc="lower right", fontsize=8, frameon=True)
    ax.set_xticks(x, labels)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    top = np.nanmax(np.asarray(high, dtype=float), initial=0.0)
    ax.set_ylim(0, min(1.0, max(top * 1.15, 0.05)))
    percent_axis(ax)
    ax.grid(axis="y", color="0.85", zorder=0)
    if note:
        caption(figure, note)
    return figure


def plot_length_histogram(
    table: pd.DataFrame, unit: str, *, title: str, note: str, ax: Axes | None = None
) -> Figure:
    """Stacked bars of games per length: finished games grey, unfinished ones hatched."""
    figure, ax = new_axes(ax)
    rows = table[["length", "finished", "unfinished"]].copy()
    keep(figure, ax, View("histogram", title, rows, f"game length ({unit})", "games"))
    ax.bar(
        table["length"],
        table["finished"],
        color=GREYS[0],
        edgecolor="black",
        lw=0.5,
        width=1.0,
        label="finished",
    )
    if table["unfinished"].any():
        ax.bar(
            table["length"],
            table["unfinished"],
            bottom=table["finished"],
            color="white",
            edgecolor="black",
            hatch="////",
            lw=0.5,
            width=1.0,
            label="unfinished (stopped by the cap)",
        )
    ax.legend(fontsize=8)
    ax.set_title(title)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.grid(axis="y", color="0.85", zorder=0)
    ax.set_axisbelow(True)
    caption(figure, note)
    return figure


def plot_still_running(
    curves: dict[str, pd.DataFrame],
    unit: str,
    *,
    title: str,
    note: str,
    cap: int | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Share of games still running after each round, one step line per run.

    Each table is what :func:`balance.stats.metrics.still_running` returns; the interval is a
    grey band. ``cap`` marks the length cap, where unfinished games stop.
    """
    figure, ax = new_axes(ax)
    steps = [
        figure_rows([label] * len(t), t["rate"], t["low"], t["high"], "percent", after=t["after"])
        for label, t in curves.items()
    ]
    keep(
        figure,
        ax,
        View(
            "steps",
            title,
            pd.concat(steps, ignore_index=True) if steps else None,
            f"after {unit} played",
            "games still running",
            "percent",
            options={"cap": cap},
        ),
    )
    for k, (label, table) in enumerate(curves.items()):
        ax.fill_between(table["after"], table["low"], table["high"], step="post", color="0.8", lw=0)
        ax.step(
            table["after"],
            table["rate"],
            where="post",
            color="black",
            ls=LINES[k % len(LINES)],
            lw=1.4,
            label=label,
        )
    if cap is not None:
        ax.axvline(cap, color="0.4", ls=":", lw=1)
        ax.annotate(
            "cap: unfinished games",
            (cap, 0.5),
            xytext=(-4, 0),
            textcoords="offset points",
            rotation=90,
            ha="right",
            va="center",
            fontsize=8,
        )
    if len(curves) > 1:
        ax.legend(fontsize=8)
    ax.set_ylim(0, 1.02)
    ax.set_xlim(left=0)
    percent_axis(ax)
    ax.set_title(title)
    ax.set_xlabel(f"after {unit} played")
    ax.set_ylabel("games still running")
    ax.grid(color="0.9")
    caption(figure, note)
    return figure


MARKERS = ("o", "s", "^", "D", "v", "x")


def plot_distributions(
    curves: dict[str, pd.DataFrame],
    *,
    value: str,
    title: str,
    xlabel: str,
    ylabel: str,
    note: str,
    ax: Axes | None = None,
) -> Figure:
    """Distributions of a whole-number quantity, one line per group.

    Each table has the column ``value`` and ``share`` (the share of the group taking that
    value); line styles and markers tell the groups apart in grey-scale print.
    """
    figure, ax = new_axes(ax)
    shares = [
        pd.DataFrame(
            {
                "label": str(label),
                "x": t[value].to_numpy(),
                "value": t["share"].to_numpy(dtype=float),
                "value_text": [f"{100 * v:.1f}%" for v in t["share"]],
            }
        )
        for label, t in curves.items()
    ]
    data = pd.concat(shares, ignore_index=True) if shares else None
    keep(figure, ax, View("lines", title, data, xlabel, ylabel, "percent"))
    for k, (label, table) in enumerate(curves.items()):
        ax.plot(
            table[value],
            table["share"],
            color="black" if k % 2 == 0 else "0.45",
            ls=LINES[k % len(LINES)],
            marker=MARKERS[k % len(MARKERS)],
            ms=3.5,
            mfc="white",
            lw=1.1,
            label=label,
        )
    ax.legend(fontsize=8, ncols=min(len(curves), 3))
    ax.set_ylim(bottom=0)
    percent_axis(ax)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(color="0.9")
    caption(figure, note)
    return figure


def plot_intervals(
    labels: Sequence[str],
    value: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    title: str,
    xlabel: str,
    note: str,
    zero: float | None = 0.0,
    marked: Sequence[bool] | None = None,
    marked_label: str = "",
    percent: bool = False,
    points: bool = False,
    ax: Axes | None = None,
) -> Figure:
    """A forest plot: one row a label, a point and its interval as a horizontal line.

    ``marked`` rows get a filled marker (for instance, significant after correction),
    the others an open one, so that the distinction survives grey-scale print. ``percent``
    labels the axis as shares (``34%``), ``points`` as differences of shares in signed
    percentage points (``+1.5``).
    """
    height = max(HEIGHT, 1.2 + 0.32 * len(labels))
    figure, ax = new_axes(ax, height=height)
    scale = "percent" if percent else "points" if points else "number"
    rows = figure_rows(
        labels,
        value,
        low,
        high,
        scale,
        marked=[bool(m) for m in (marked if marked is not None else [False] * len(labels))],
    )
    keep(
        figure,
        ax,
        View(
            "intervals",
            title,
            rows,
            xlabel,
            "",
            scale,
            reference=zero,
            options={"marked_label": marked_label},
        ),
    )
    y = np.arange(len(labels))[::-1]
    value = np.asarray(value, dtype=float)
    marked = np.zeros(len(labels), bool) if marked is None else np.asarray(marked, bool)
    ax.errorbar(
        value, y, xerr=_errors(value, low, high), fmt="none", ecolor="black", capsize=3, lw=1.1
    )
    ax.plot(value[~marked], y[~marked], "o", mfc="white", mec="black", ms=6, ls="none")
    if marked.any():
        ax.plot(value[marked], y[marked], "o", color="black", ms=6, ls="none", label=marked_label)
        ax.legend(fontsize=8, loc="best")
    if zero is not None:
        ax.axvline(zero, color="0.4", ls="--", lw=1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    if percent:
        percent_axis(ax, "x")
    if points:
        points_axis(ax, "x")
    ax.grid(axis="x", color="0.9")
    caption(figure, note)
    return figure


def plot_grouped(
    groups: Sequence[str],
    series: dict[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
    *,
    title: str,
    ylabel: str,
    xlabel: str,
    note: str,
    percent: bool = True,
    reference: float | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Grouped bars: one group a category, one bar per series (hatched greys), with intervals.

    ``series`` maps a series label to ``(values, lows, highs)`` in group order.
    """
    figure, ax = new_axes(ax)
    scale = "percent" if percent else "number"
    bars = [
        figure_rows(groups, v, lo, hi, scale, series=[label] * len(groups))
        for label, (v, lo, hi) in series.items()
    ]
    keep(
        figure,
        ax,
        View(
            "grouped",
            title,
            pd.concat(bars, ignore_index=True) if bars else None,
            xlabel,
            ylabel,
            scale,
            reference=reference,
        ),
    )
    x = np.arange(len(groups))
    width = 0.8 / max(len(series), 1)
    for k, (label, (value, low, high)) in enumerate(series.items()):
        value = np.asarray(value, dtype=float)
        where = x - 0.4 + width * (k + 0.5)
        ax.bar(
            where,
            value,
            width=width,
            color=GREYS[k % len(GREYS)],
            hatch=HATCHES[k % len(HATCHES)],
            edgecolor="black",
            lw=0.6,
            label=label,
            zorder=2,
        )
        ax.errorbar(
            where, value, yerr=_errors(value, low, high), fmt="none", ecolor="black", capsize=3
        )
    if reference is not None:
        ax.axhline(reference, color="black", ls="--", lw=1, zorder=1)
    # Headroom above the tallest interval, so that the legend covers no bar.
    tops = [np.nanmax(np.asarray(h, dtype=float), initial=0.0) for _, _, h in series.values()]
    ax.set_ylim(0, max(max(tops, default=0.0) * 1.3, 1e-9))
    ax.set_xticks(x, groups)
    if max((len(g) for g in groups), default=0) * len(groups) > 60:
        ax.tick_params(axis="x", labelrotation=30)
        for tick in ax.get_xticklabels():
            tick.set_horizontalalignment("right")
    ax.legend(fontsize=8, ncols=min(len(series), 4), loc="upper left")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    if percent:
        percent_axis(ax)
    ax.grid(axis="y", color="0.85", zorder=0)
    caption(figure, note)
    return figure


def title_page(title: str, lines: Sequence[str]) -> Figure:
    """A page of text: what the report is about, before any chart.

    The page is as tall as its text needs (at least a title page's height), so that a
    long text (a sweep's table of points) is never cut at the bottom of the page.
    """
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(textwrap.wrap(line, 95, subsequent_indent="    ") or [""])
    # inches: the title's top, the text's top, a line of 8.5-point text, the bottom margin
    title_top, text_top, line, bottom = 0.39, 0.845, 0.16, 0.3
    height = max(HEIGHT * 1.3, text_top + line * len(wrapped) + bottom)
    figure = Figure(figsize=(WIDTH, height))
    attach(figure, View("text", title, lines=list(lines)))
    figure.text(0.06, 1 - title_top / height, title, fontsize=16, weight="bold", va="top")
    figure.text(
        0.06,
        1 - text_top / height,
        "\n".join(wrapped),
        fontsize=8.5,
        va="top",
        family="monospace",
    )
    return figure


def findings_page(title: str, warnings: Sequence[str], findings: Sequence[str]) -> Figure:
    """A page of plain sentences: the warnings first (bold), then one paragraph a finding.

    The page is as tall as its text needs (at least a title page's height).
    """
    paragraphs = [(line, True) for line in warnings] + [(line, False) for line in findings]
    wrapped = [
        (textwrap.wrap(text, 100, subsequent_indent="    ") or [""], bold)
        for text, bold in paragraphs
    ]
    line, gap, top = 0.16, 0.1, 1.0  # inches: a line of text, between paragraphs, the title
    height = max(HEIGHT * 1.3, top + 0.4 + sum(line * len(w) + gap for w, _ in wrapped))
    figure = Figure(figsize=(WIDTH, height))
    attach(figure, View("findings", title, warnings=list(warnings), lines=list(findings)))
    figure.text(0.06, 1 - 0.4 / height, title, fontsize=16, weight="bold", va="top")
    y = top
    for lines, bold in wrapped:
        figure.text(
            0.06,
            1 - y / height,
            "\n".join(lines),
            fontsize=9,
            va="top",
            linespacing=1.3,
            weight="bold" if bold else "normal",
        )
        y += line * len(lines) + gap
    return figure


def flag(figure: Figure, warnings: Sequence[str]) -> None:
    """Print ``warnings`` (text lines) at the top of ``figure``, above everything else.

    The axes of a figure with a layout engine give up the room the warnings take; on a
    page of text (no engine), the page's text moves down by as much.
    """
    if not warnings:
        return
    view = view_of(figure)
    if view is not None and view.kind != "findings":
        view.warnings = list(warnings)
    wrapped = [part for line in warnings for part in textwrap.wrap(line, 115)]
    room = (0.14 * len(wrapped) + 0.12) / figure.get_figheight()
    engine = figure.get_layout_engine()
    if engine is not None:
        left, bottom, width, height = engine.get()["rect"]
        engine.set(rect=(left, bottom, width, height - room))
    else:
        for text in figure.texts:
            text.set_y(text.get_position()[1] - room)
    figure.text(0.01, 0.995, "\n".join(wrapped), fontsize=7.5, weight="bold", va="top", ha="left")


def write_charts(
    charts: Sequence[Chart],
    directory: Path,
    pdf_name: str,
    tables: Sequence[Table] = (),
    title: str | None = None,
) -> list[Path]:
    """Each chart as ``NAME.png`` (150 dpi), all of them, in order, as one PDF, and the
    report's web page, ``index.html`` (:mod:`balance.reports.page`), from the same charts
    and ``tables``; ``title`` is the page's (default: the first chart's title).

    A report written before into ``directory`` (its PDF is there) is removed first, so
    that no page of an older report survives beside the new one.
    """
    from balance.reports.page import write_page

    directory.mkdir(parents=True, exist_ok=True)
    if (directory / pdf_name).exists():
        for old in directory.glob("[0-9][0-9]-*.png"):
            old.unlink()
    written = []
    pdf_path = directory / pdf_name
    with PdfPages(pdf_path) as pdf:
        for chart in charts:
            path = directory / f"{chart.name}.png"
            chart.figure.savefig(path, dpi=150)
            written.append(path)
            # The layout the PNG's draw worked out is kept for the PDF page: worked out
            # again, it would cost a fifth of the report's time and move nothing.
            chart.figure.set_layout_engine("none")
            pdf.savefig(chart.figure)
    written.append(pdf_path)
    if title is None:
        first = view_of(charts[0].figure) if charts else None
        title = first.title if first and first.title else pdf_name
        title = title.removesuffix(": findings").removesuffix(", findings")
    written.append(write_page(charts, directory, title, tables))
    return written


def _errors(value: np.ndarray, low: Sequence[float], high: Sequence[float]) -> np.ndarray:
    """Error bar lengths below and above each value; zero where the interval is unknown."""
    value = np.asarray(value, dtype=float)
    below = np.nan_to_num(value - np.asarray(low, dtype=float))
    above = np.nan_to_num(np.asarray(high, dtype=float) - value)
    return np.vstack([np.clip(below, 0, None), np.clip(above, 0, None)])
