"""A report's web page: ``index.html``, one self-contained file beside the PDF.

The page shows what the PDF shows, from the same tables (:mod:`balance.reports.views`),
findings and warnings first, each chart with its caption, and lets the reader explore:
hover a bar, point or cell to read its figure, interval and games; click a legend entry
to show or hide a seat, strategy or variant; open any chart's figures as a table and sort
it by a column; follow a heat map's cell to its point's row. Everything is inline (styles,
scripts, data and images), so the page opens from a mail attachment, a CI artifact or a
folder without a network.

Interactive charts are Vega-Lite specifications, written with altair and drawn by the
vega-embed bundle that ``vl-convert-python`` ships (both in the ``pages`` extra): a
declarative JSON specification per chart keeps the page small (the bundle is under 1 MB,
the data a few rows a chart, never a row a game) and its figures checkable. Without the
extra, every chart appears as the PNG the PDF's page was drawn from, and the tables, the
sorting and the links still work.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from balance import __version__
from balance.reports.views import Table, View, games_phrase, view_of

if TYPE_CHECKING:
    from balance.reports.charts import Chart

#: The page's file name, beside the PDF.
PAGE = "index.html"
#: Greys for series, dark to light, as the PDF's bars are (print in grey scale).
SERIES_GREYS = ("#555555", "#b0b0b0", "#222222", "#8a8a8a", "#d0d0d0", "#6e6e6e")
#: Marks a chart draws as a table row each: beyond this the page shows the PNG instead.
MAX_MARKS = 5_000


def interactive() -> bool:
    """Whether the ``pages`` extra (altair and vl-convert-python) is installed."""
    try:
        import altair  # noqa: F401
        import vl_convert  # noqa: F401
    except ImportError:
        return False
    return True


def vega_bundle() -> str:
    """The vega-embed bundle (vega, vega-lite, vega-embed) as one script, kept on disk:
    vl-convert builds it in about ten seconds, once per version."""
    import altair as alt
    import vl_convert as vlc

    from balance.core.dispatch import cache_root

    version = alt.SCHEMA_VERSION.lstrip("v").rsplit(".", 1)[0]
    path = cache_root() / "pages" / f"vega-embed-{vlc.__version__}-vl{version}.js"
    if path.exists():
        return path.read_text(encoding="utf-8")
    bundle = vlc.javascript_bundle(vl_version=version)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(bundle, encoding="utf-8")
    partial.replace(path)  # another process writing the same bundle writes the same bytes
    return bundle


# --- Vega-Lite specifications, one a kind of view --------------------------------------


def _tooltip(view: View, *first: Any) -> list[Any]:
    """What a hover shows: the mark's name, its figure, its interval and its games."""
    import altair as alt

    fields = [*first, alt.Tooltip("value_text:N", title="figure")]
    data = view.data if view.data is not None else pd.DataFrame()
    if "interval_text" in data:
        title = view.options.get("interval_title", "95% interval")
        fields.append(alt.Tooltip("interval_text:N", title=title))
    if "games" in data:
        fields.append(alt.Tooltip("games:N", title="games"))
    return fields


#: An interval's end ticks, a few pixels wide (Vega-Lite's default spans the whole bar).
TICKS = {"size": 10, "thickness": 1.2}


def _label_axis(labels: Sequence[str]) -> Any:
    """A category axis whose labels read level when they fit, slanted when they do not."""
    import altair as alt

    crowded = sum(len(str(label)) for label in labels) > 70
    if crowded:  # each label ends under its tick
        return alt.Axis(labelAngle=-35, labelAlign="right", labelBaseline="top", labelLimit=180)
    return alt.Axis(labelAngle=0, labelLimit=180)


def _axis_format(scale: str) -> dict[str, Any]:
    if scale == "percent":
        return {"format": ".0%"}
    if scale == "points":
        return {"labelExpr": "format(datum.value * 100, '+.1f')"}
    return {}


def vega_spec(view: View) -> dict[str, Any] | None:
    """The Vega-Lite specification of ``view``, or None for a kind drawn as text."""
    import altair as alt

    if view.kind in ("text", "findings") or view.data is None or view.data.empty:
        return None
    data = view.data.copy()
    if len(data) > MAX_MARKS:
        return None
    games = games_phrase(view.caption)
    if games and "games" not in data:
        data["games"] = games
    # The tooltips read the columns of the data drawn (games added from the caption).
    view = dataclasses.replace(view, data=data)
    base = alt.Chart(data)
    axis = _axis_format(view.scale)
    width = "container"
    if view.kind == "bars":
        labels = list(dict.fromkeys(data["label"]))
        pick = alt.selection_point(fields=["label"], bind="legend")
        y = alt.Y("value:Q", title=view.y_title, axis=alt.Axis(**axis))
        x = alt.X("label:N", title=view.x_title, sort=labels, axis=_label_axis(labels))
        bars = base.mark_bar(stroke="black", strokeWidth=0.6).encode(
            x=x,
            y=y,
            color=alt.Color(
                "label:N", scale=alt.Scale(domain=labels, range=list(SERIES_GREYS)), title=None
            ),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=_tooltip(view, alt.Tooltip("label:N", title=view.x_title or "bar")),
        )
        rules = base.mark_errorbar(ticks=TICKS, color="black").encode(
            x=x, y=alt.Y("low:Q", title=view.y_title), y2="high:Q"
        )
        layers = [bars.add_params(pick), rules]
    elif view.kind == "intervals":
        y = alt.Y("label:N", title=None, sort=None)
        # Option "zero": False scales x to the figures alone (means far from zero).
        zero = {} if view.options.get("zero", True) else {"scale": alt.Scale(zero=False)}
        x = alt.X("value:Q", title=view.x_title, axis=alt.Axis(**axis), **zero)
        rules = base.mark_rule(color="black").encode(y=y, x=alt.X("low:Q"), x2="high:Q")
        points = base.mark_point(filled=True, size=60, stroke="black").encode(
            y=y,
            x=x,
            fill=alt.condition("datum.marked", alt.value("black"), alt.value("white")),
            tooltip=_tooltip(view, alt.Tooltip("label:N", title="row")),
        )
        layers = [rules, points]
    elif view.kind == "grouped":
        labels = list(dict.fromkeys(data["label"]))
        series = list(dict.fromkeys(data["series"]))
        pick = alt.selection_point(fields=["series"], bind="legend")
        x = alt.X("label:N", title=view.x_title, sort=labels, axis=_label_axis(labels))
        offset = alt.XOffset("series:N", sort=series, scale=alt.Scale(domain=series))
        colour = alt.Color(
            "series:N", scale=alt.Scale(domain=series, range=list(SERIES_GREYS)), title=None
        )
        bars = base.mark_bar(stroke="black", strokeWidth=0.6).encode(
            x=x,
            xOffset=offset,
            y=alt.Y("value:Q", title=view.y_title, axis=alt.Axis(**axis)),
            color=colour,
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=_tooltip(
                view, alt.Tooltip("series:N", title="bar"), alt.Tooltip("label:N", title="group")
            ),
        )
        rules = base.mark_errorbar(ticks=TICKS, color="black").encode(
            x=x, xOffset=offset, y=alt.Y("low:Q", title=view.y_title), y2="high:Q"
        )
        layers = [bars.add_params(pick), rules.transform_filter(pick)]
    elif view.kind == "histogram":
        long = data.melt(
            id_vars=["length"], value_vars=["finished", "unfinished"], var_name="games as"
        )
        long = long[long["value"] > 0]
        long["value_text"] = long["value"].map(lambda v: f"{int(v):,} games")
        bars = (
            alt.Chart(long)
            .mark_bar(stroke="black", strokeWidth=0.3)
            .encode(
                x=alt.X("length:O", title=view.x_title, axis=alt.Axis(labelAngle=0)),
                y=alt.Y("value:Q", title=view.y_title, stack=True),
                color=alt.Color(
                    "games as:N",
                    scale=alt.Scale(domain=["finished", "unfinished"], range=["#8c8c8c", "white"]),
                ),
                tooltip=[
                    alt.Tooltip("length:O", title=view.x_title),
                    alt.Tooltip("games as:N"),
                    alt.Tooltip("value_text:N", title="games"),
                ],
            )
        )
        layers = [bars]
    elif view.kind in ("steps", "lines"):
        pick = alt.selection_point(fields=["label"], bind="legend")
        x_field = "after:Q" if view.kind == "steps" else "x:Q"
        # A line over named levels (a swept rule's values): in the levels' order.
        x_order = view.options.get("x_order")
        x_field = "x:O" if x_order is not None else x_field
        colour = alt.Color("label:N", scale=alt.Scale(range=list(SERIES_GREYS)), title=None)
        dash = alt.StrokeDash("label:N", title=None)
        y = alt.Y("value:Q", title=view.y_title, axis=alt.Axis(**axis))
        if x_order is not None:  # figures near each other, as the PDF scales them
            y = alt.Y(
                "value:Q", title=view.y_title, axis=alt.Axis(**axis), scale=alt.Scale(zero=False)
            )
        line = base.mark_line(
            interpolate="step-after" if view.kind == "steps" else "linear",
            point=view.kind == "lines",
        ).encode(
            x=alt.X(
                x_field,
                title=view.x_title,
                **({"sort": x_order, "axis": alt.Axis(labelAngle=0)} if x_order else {}),
            ),
            y=y,
            color=colour,
            strokeDash=dash,
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.1)),
            tooltip=_tooltip(
                view,
                alt.Tooltip("label:N", title="run"),
                alt.Tooltip(x_field, title=view.x_title),
            ),
        )
        layers = [line.add_params(pick)]
        if view.kind == "steps":
            band = base.mark_area(interpolate="step-after", opacity=0.25, color="#999999").encode(
                x=alt.X(x_field), y=alt.Y("low:Q"), y2="high:Q"
            )
            layers = [band.transform_filter(pick), *layers]
        elif x_order is not None and "low" in data:  # each point's interval
            rules = base.mark_rule(strokeWidth=2, opacity=0.5).encode(
                x=alt.X(x_field, sort=x_order),
                y=alt.Y("low:Q", title=view.y_title),
                y2="high:Q",
                color=alt.Color("label:N", scale=alt.Scale(range=list(SERIES_GREYS)), legend=None),
            )
            layers.append(rules.transform_filter(pick))
    elif view.kind == "heatmap":
        # Options: the axes' orders (lists of values; default as given, y descending)
        # and the grey scale's domain (default the values' range).
        x = alt.X(
            "x:O", title=view.x_title, sort=view.options.get("x_order"), axis=alt.Axis(labelAngle=0)
        )
        y = alt.Y("y:O", title=view.y_title, sort=view.options.get("y_order", "descending"))
        shades = alt.Scale(
            scheme="greys",
            **({"domain": view.options["domain"]} if "domain" in view.options else {}),
        )
        tooltip = _tooltip(
            view,
            *([alt.Tooltip("point:N", title="point")] if "point" in data else []),
            alt.Tooltip("x:O", title=view.x_title),
            alt.Tooltip("y:O", title=view.y_title),
            *([alt.Tooltip("verdict:N", title="targets")] if "verdict" in data else []),
        )
        # A legend of shades only where they read as a scale (not verdicts' shades).
        legend = {} if view.options.get("legend", True) else {"legend": None}
        cells = base.mark_rect(stroke="white").encode(
            x=x,
            y=y,
            color=alt.Color("value:Q", scale=shades, title=None, **legend),
            href="href:N",
            tooltip=tooltip,
        )
        # The cell's text covers its middle: it shows the same tooltip.
        text = base.mark_text(fontSize=10).encode(
            x=x,
            y=y,
            text="cell_text:N",
            color=alt.condition("datum.dark", alt.value("white"), alt.value("black")),
            href="href:N",
            tooltip=tooltip,
        )
        layers = [cells, text]
        if "framed" in data:  # the cells the PDF frames, framed in the text's ink
            frames = base.transform_filter("datum.framed").mark_rect(fill=None, strokeWidth=3)
            ink = alt.condition("datum.dark", alt.value("white"), alt.value("black"))
            layers.append(frames.encode(x=x, y=y, stroke=ink))
        width = "container"
    else:
        return None
    if view.reference is not None and view.kind in ("bars", "grouped", "intervals"):
        line = alt.Chart(pd.DataFrame({"reference": [view.reference]}))
        if view.kind == "intervals":
            layers.append(line.mark_rule(strokeDash=[4, 3], color="#666").encode(x="reference:Q"))
        else:
            layers.append(line.mark_rule(strokeDash=[4, 3], color="#333").encode(y="reference:Q"))
    height = 24 * len(data) if view.kind == "intervals" else 320
    chart = alt.layer(*layers).properties(width=width, height=max(120, min(height, 1200)))
    spec = chart.to_dict()
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    return spec


# --- the page -------------------------------------------------------------------------

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 62rem;
  padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.6rem; margin: .6rem 0 .2rem; } h2 { font-size: 1.15rem; margin: 0 0 .4rem; }
.meta, .caption { color: #444; font-size: .82rem; }
.warning { font-weight: 600; border-left: 4px solid #111; padding: .3rem .6rem; margin: .4rem 0;
  background: #f0f0f0; }
section { border-top: 1px solid #ccc; padding: 1rem 0; break-inside: avoid; }
nav ol { columns: 2; font-size: .85rem; padding-left: 1.2rem; }
.chart { width: 100%; } img.png { max-width: 100%; }
pre { font-size: .78rem; white-space: pre-wrap; background: #f6f6f6; padding: .6rem; }
table { border-collapse: collapse; font-size: .8rem; margin: .4rem 0; }
th, td { border: 1px solid #ccc; padding: .15rem .45rem; text-align: right; }
th { background: #eee; cursor: pointer; user-select: none; position: sticky; top: 0; }
th.sorted-up::after { content: " \\25B2"; } th.sorted-down::after { content: " \\25BC"; }
td:first-child, th:first-child { text-align: left; }
tr:target { outline: 3px solid #111; background: #e8e8e8; }
details summary { cursor: pointer; font-size: .85rem; color: #333; }
.table-wrap { max-height: 36rem; overflow: auto; }
#vg-tooltip-element { font: 13px system-ui, sans-serif; }
@media print {
  body { max-width: none; padding: 0; color: #000; filter: grayscale(1); }
  nav, details summary { display: none; } details { display: block; }
  details > :not(summary) { display: block; }
  section { page-break-inside: avoid; } .table-wrap { max-height: none; overflow: visible; }
}
"""

#: Sorts a table by the column whose heading is clicked (numbers by value, text by text;
#: a cell's ``data-sort`` wins), and draws each chart with vega-embed.
SCRIPT = """
function sortBy(th) {
  const table = th.closest('table'), body = table.tBodies[0];
  const col = Array.from(th.parentNode.children).indexOf(th);
  const up = !th.classList.contains('sorted-up');
  table.querySelectorAll('th').forEach(h => h.classList.remove('sorted-up', 'sorted-down'));
  th.classList.add(up ? 'sorted-up' : 'sorted-down');
  const key = td => { const s = td.dataset.sort ?? td.textContent.trim();
    const n = parseFloat(s.replace(/[,%\\u2212]/g, m => m === '\\u2212' ? '-' : ''));
    return isNaN(n) ? s.toLowerCase() : n; };
  const rows = Array.from(body.rows).sort((a, b) => {
    const x = key(a.cells[col]), y = key(b.cells[col]);
    return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1); });
  rows.forEach(r => body.appendChild(r));
}
document.querySelectorAll('table.sortable th').forEach(th =>
  th.addEventListener('click', () => sortBy(th)));
const specs = JSON.parse(document.getElementById('specs').textContent);
window.chartsDrawn = 0;
for (const [id, spec] of Object.entries(specs)) {
  if (typeof vegaEmbed === 'undefined') break;
  vegaEmbed('#' + id, spec, {renderer: 'svg', actions: false, tooltip: {theme: 'light'}})
    .then(() => { window.chartsDrawn += 1; }).catch(console.error);
}
"""


def _paragraphs(lines: Sequence[str], kind: str = "") -> str:
    css = f' class="{kind}"' if kind else ""
    return "".join(f"<p{css}>{html.escape(line)}</p>" for line in lines)


def table_html(frame: pd.DataFrame, key: str | None = None, anchor: str = "") -> str:
    """``frame`` as a sortable HTML table; with ``key``, each row's id is
    ``ANCHOR-VALUE`` so that links reach it."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        for value in record:
            if isinstance(value, float):
                text = "–" if value != value else f"{value:,.4g}"
                cells.append(f'<td data-sort="{value!r}">{html.escape(text)}</td>')
            else:
                cells.append(f"<td>{html.escape(str(value))}</td>")
        row_id = ""
        if key is not None:
            row_id = f' id="{anchor}-{html.escape(str(getattr(record, key, "")))}"'
        rows.append(f"<tr{row_id}>{''.join(cells)}</tr>")
    return (
        f'<div class="table-wrap"><table class="sortable"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _figures_table(view: View) -> str:
    """A chart's figures as a table under it, the columns a reader sorts by."""
    data = view.data
    if data is None or data.empty:
        return ""
    shown = [
        c for c in ("label", "series", "x", "y", "after", "length") if c in data and c != "label"
    ]
    columns = [c for c in ("label", *shown) if c in data]
    columns += [c for c in ("finished", "unfinished") if c in data]
    columns += [c for c in ("value_text", "interval_text", "games", "verdict") if c in data]
    names = {
        "label": "",
        "value_text": "figure",
        "interval_text": view.options.get("interval_title", "95% interval"),
        "x": view.x_title or "x",
        "y": view.y_title or "y",
        "after": view.x_title,
        "length": view.x_title,
    }
    frame = data[columns].rename(columns={c: names.get(c, c) or "name" for c in columns})
    return f"<details><summary>the figures as a table</summary>{table_html(frame)}</details>"


def _title_of(chart: Chart) -> str:
    """A chart drawn without a view: its figure's title, or its axes' first, else its
    file name without the page number (``02-games``: ``games``)."""
    figure = chart.figure
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        return suptitle.get_text()
    for ax in figure.axes:
        if ax.get_title():
            return ax.get_title()
    number, _, rest = chart.name.partition("-")
    return rest.replace("-", " ") if number.isdigit() and rest else chart.name


def write_page(
    charts: Sequence[Chart],
    directory: Path,
    title: str,
    tables: Sequence[Table] = (),
) -> Path:
    """Write ``directory/index.html``: the findings first, then every chart in order, as
    an interactive chart where it has a view (and the ``pages`` extra is installed), else
    as its PNG (``directory/NAME.png``, written before), then ``tables``."""
    lively = interactive()
    specs: dict[str, Any] = {}
    head: list[str] = []
    sections: list[str] = []
    contents: list[str] = []
    for number, chart in enumerate(charts, start=1):
        view = view_of(chart.figure)
        anchor = f"chart-{chart.name}"
        if view is not None and view.kind == "findings":
            head.append(
                f'<section id="{anchor}"><h2>{html.escape(view.title)}</h2>'
                + _paragraphs(view.warnings, "warning")
                + _paragraphs(view.lines)
                + "</section>"
            )
            continue
        name = html.escape(view.title if view is not None and view.title else _title_of(chart))
        name = name.replace("\n", " · ")
        contents.append(f'<li><a href="#{anchor}">{name}</a></li>')
        parts = [f'<section id="{anchor}"><h2>{name}</h2>']
        if view is not None:
            parts.append(_paragraphs(view.warnings, "warning"))
        spec = vega_spec(view) if (lively and view is not None) else None
        if view is not None and view.kind == "text":
            parts.append(f"<pre>{html.escape(chr(10).join(view.lines))}</pre>")
        elif spec is not None:
            specs[f"vis{number}"] = spec
            parts.append(f'<div class="chart" id="vis{number}"></div>')
        else:
            png = directory / f"{chart.name}.png"
            if png.exists():
                encoded = base64.b64encode(png.read_bytes()).decode("ascii")
                parts.append(
                    f'<img class="png" alt="{name}" src="data:image/png;base64,{encoded}">'
                )
        if view is not None:
            if view.caption:
                parts.append(f'<p class="caption">{html.escape(view.caption)}</p>')
            if view.kind != "text":
                parts.append(_figures_table(view))
        parts.append("</section>")
        sections.append("".join(parts))
    for table in tables:
        contents.append(f'<li><a href="#{table.name}">{html.escape(table.title)}</a></li>')
        sections.append(
            f'<section id="{table.name}"><h2>{html.escape(table.title)}</h2>'
            + (f'<p class="caption">{html.escape(table.caption)}</p>' if table.caption else "")
            + table_html(table.frame, table.key, table.name)
            + "</section>"
        )
    written = time.strftime("%Y-%m-%d %H:%M")
    note = (
        "Hover a bar, point or cell for its figure, interval and games; click a legend entry "
        "to show or hide a series; click a table's heading to sort it."
        if specs
        else "Charts are shown as pictures: install balance's 'pages' extra "
        "(pip install 'balance[pages]') for charts to explore."
    )
    bundle = vega_bundle() if specs else ""
    page = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
        + (f"<script>{bundle}</script>" if bundle else "")
        + "</head><body>"
        f"<header><h1>{html.escape(title)}</h1>"
        f'<p class="meta">Written by balance {__version__} on {written}. {note}</p></header>'
        + "".join(head)
        + f"<nav><ol>{''.join(contents)}</ol></nav>"
        + "".join(sections)
        + '<script type="application/json" id="specs">'
        + json.dumps(specs).replace("<", "\\u003c")  # no "</script>", no "<!--"
        + f"</script><script>{SCRIPT}</script></body></html>"
    )
    path = directory / PAGE
    path.write_text(page, encoding="utf-8")
    return path
