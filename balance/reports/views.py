"""What a chart shows, kept beside the figure that draws it, for the report's web page.

A ``plot_*`` function of :mod:`balance.reports.charts` draws a table of figures with
matplotlib for the PDF and PNGs; it also keeps that same table as a :class:`View` on the
figure (:func:`attach`), with the chart's title, axis titles, caption and warnings.
:mod:`balance.reports.page` draws each view again as an interactive chart of the page, so
the page and the PDF show one table, captioned alike. A figure drawn without a view (a
chart of an analysis's own) appears on the page as its PNG.

The table of a view is long: one row a mark, each with its figure's text as the PDF
prints it (``value_text``, ``interval_text``) and the games it rests on (``games``), so
that a hover reads what the page's reader would otherwise look up in the caption.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

#: The kinds of view the page can draw.
KINDS = (
    "bars",  # rates with intervals, one bar a label (a seat, a strategy)
    "intervals",  # a forest plot: a point and its interval, one row a label
    "grouped",  # bars grouped by ``label``, one bar a ``series``
    "histogram",  # games per length: finished and unfinished, stacked
    "steps",  # a step line a series with its band (games still running)
    "lines",  # a line a series over whole numbers (distributions)
    "heatmap",  # cells over two axes, each linking to its point
    "text",  # a page of text (a title page)
    "findings",  # warnings and findings in sentences
)


@dataclass
class View:
    """One chart's figures, as the page draws them.

    Parameters
    ----------
    kind : one of :data:`KINDS`.
    title : the chart's title.
    data : ``(marks, columns)`` the marks' table; its columns depend on ``kind`` (see
        the ``plot_*`` function that made it) and always hold ``value_text`` and
        ``interval_text`` where a mark has a figure.
    x_title, y_title : the axes' titles.
    scale : how figures read: ``"percent"`` (shares), ``"points"`` (differences of
        shares), or ``"number"``.
    caption : the caption under the chart (games, interval method, notes).
    warnings : what must be read before the figures (a cap, games without a winner).
    lines : a text page's lines, or a findings page's sentences.
    reference : a value drawn as a dashed rule (a fair seat's rate, zero).
    """

    kind: str
    title: str = ""
    data: pd.DataFrame | None = None
    x_title: str = ""
    y_title: str = ""
    scale: str = "number"
    caption: str = ""
    warnings: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    reference: float | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """A table the page shows beside its charts, sortable by any column.

    Parameters
    ----------
    name : the section's anchor (``points``): a row's anchor is ``NAME-ROW``, ``ROW``
        the value of column ``key``, which a heat map's cells link to.
    title : the section's heading.
    frame : ``(rows, columns)`` the table, as shown (text or numbers).
    key : the column that names a row for links, or None.
    caption : what the table rests on (games, interval method).
    """

    name: str
    title: str
    frame: pd.DataFrame
    key: str | None = None
    caption: str = ""


def attach(figure: Any, view: View) -> View:
    """Keep ``view`` on ``figure`` (a matplotlib figure) for the page; returns it."""
    figure.balance_view = view
    return view


def view_of(figure: Any) -> View | None:
    """The view kept on ``figure``, or None for a chart drawn without one."""
    return getattr(figure, "balance_view", None)


def figure_text(value: float, scale: str, digits: int = 1) -> str:
    """A figure as the charts print it: ``34.4%`` (percent), ``+1.5 points``, or a number."""
    if value is None or not np.isfinite(value):
        return "–"
    if scale == "percent":
        return f"{100 * value:.{digits}f}%"
    if scale == "points":
        text = f"{100 * value:+.{digits}f}"
        return ("0" if text in ("+0.0", "-0.0") else text.replace("-", "\u2212")) + " points"
    return f"{value:,.{max(digits, 2)}f}" if abs(value) < 100 else f"{value:,.1f}"


def interval_text(low: float, high: float, scale: str, digits: int = 1) -> str:
    """``[33.9%, 34.9%]``; a dash where the interval is unknown."""
    if low is None or high is None or not (np.isfinite(low) and np.isfinite(high)):
        return "–"
    return f"[{figure_text(low, scale, digits)}, {figure_text(high, scale, digits)}]".replace(
        " points,", ","
    )


GAMES_PHRASE = re.compile(r"(\d[\d,]*) games(?: (?:a|per|each) [a-z-]+)?")


def games_phrase(caption: str) -> str:
    """The games a chart rests on, as its caption first says them (``100,000 games``,
    ``2,000 games a match``); empty if the caption does not say."""
    found = GAMES_PHRASE.search(caption or "")
    return found.group(0) if found else ""


def figure_rows(
    labels: Sequence[str],
    value: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    scale: str,
    **columns: Sequence[Any],
) -> pd.DataFrame:
    """The long table of labelled figures with intervals: ``label``, ``value``, ``low``,
    ``high``, ``value_text``, ``interval_text`` and any further ``columns``."""
    value = np.asarray(value, dtype=float)
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    return pd.DataFrame(
        {
            "label": [str(label) for label in labels],
            "value": value,
            "low": low,
            "high": high,
            "value_text": [figure_text(v, scale) for v in value],
            "interval_text": [interval_text(a, b, scale) for a, b in zip(low, high, strict=True)],
            **{name: list(values) for name, values in columns.items()},
        }
    )
