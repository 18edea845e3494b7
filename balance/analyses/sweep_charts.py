"""A sweep's charts: figures against one axis, heat maps over two, main effects over more.

As everywhere in balance, a dataset function (tested) computes what a chart shows and
a ``plot_*`` function draws only that. The layout follows the number of swept rule
axes (axes other than the player count with more than one value):

* one: each figure against the axis, a line per player count, its 95% band;
* two: annotated heat maps per player count (balance index, seat-0 advantage, length),
  framing the cells that cannot be told from the best point (or, for seat 0's
  advantage, from none);
* three or more: main-effect plots (each axis's levels, the other axes averaged over
  the design's points) and a ranking of which rule moves each figure most (shares of
  the variance explained, from type-II sums of squares of a main-effects linear
  model), each share with the share the points' own noise could give it.

Targets on a charted figure are drawn as bands (line charts) or as marks on the cells
(heat maps): ``+`` for a point that passes every target, ``?`` for one whose interval
straddles a band's edge on that figure.

The noise a point's figure carries is its standard error (``F_se`` in
:func:`point_frame`): the balance index's own (:func:`balance.analyses.sweep.point_metrics`),
else the 95% interval's half-width over its quantile. Points are taken as independent:
common random numbers make neighbouring points' noise move together, so the noise
between points is smaller than this, and the charts' calls are conservative.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from balance.analyses.sweep_design import PLAYERS, Axis, figure_of, games_played_text
from balance.games import get_game
from balance.reports.charts import (
    LINES,
    Chart,
    caption,
    keep,
    new_axes,
    title_page,
    write_charts,
)
from balance.reports.views import Table, View, attach
from balance.stats.intervals import normal_quantile, t_quantile

if TYPE_CHECKING:
    from balance.analyses.sweep import SweepResult

#: Figures charted, with their axis labels.
FIGURES = {
    "balance_index": "balance index (1 = every seat wins equally often)",
    "seat0_advantage": "seat 0 advantage (its win rate − the mean)",
    "length_mean": "mean game length",
    "finished_rate": "games finished before the cap",
}
HEAT_FIGURES = ("balance_index", "seat0_advantage", "length_mean")
#: Chance that noise alone makes a figure look moved by some axis (sensitivity), or
#: leaves the best point out of the framed cells (heat maps).
NOISE_LEVEL = 0.05


def point_frame(result: SweepResult, figures: Sequence[str] = tuple(FIGURES)) -> pd.DataFrame:
    """One row a point: ``point``, ``players``, each axis's value text, and for each
    figure ``F``: ``F``, ``F_low``, ``F_high``, ``F_se`` (its standard error); ``passes``
    (every target) and, per figure, ``F_undecided`` (a target on it is undecided at
    that point); ``games`` (the point's) and ``verdicts`` (each target's verdict, in
    words)."""
    rows = []
    for point in result.points:
        row: dict[str, Any] = {"point": point["point"], "players": point["players"]}
        row.update({k: v for k, v in point["axis_values"].items() if k != PLAYERS})
        spread = t_quantile(0.975, point["games"] - 1) if point["games"] > 1 else np.nan
        for name in figures:
            value, low, high = figure_of(point["metrics"], name)
            row.update({name: value, f"{name}_low": low, f"{name}_high": high})
            node = point["metrics"].get(name, {})
            row[f"{name}_se"] = node["se"] if "se" in node else (high - low) / (2 * spread)
            row[f"{name}_undecided"] = any(
                point["verdicts"][t.text] == "undecided" for t in result.targets if t.figure == name
            )
        row["passes"] = bool(result.targets) and all(
            v == "pass" for v in point["verdicts"].values()
        )
        row["games"] = point["games"]
        row["verdicts"] = verdicts_text(point["verdicts"])
        rows.append(row)
    return pd.DataFrame(rows)


def verdicts_text(verdicts: dict[str, str]) -> str:
    """``balance_index>=0.95: pass; length_mean=6..10: undecided`` (``no targets``)."""
    return "; ".join(f"{t}: {v}" for t, v in verdicts.items()) or "no targets"


def figure_digits(figure: str) -> int:
    """Decimals a figure is printed with on the charts: 2 for lengths, else 3."""
    return 2 if figure.startswith("length") else 3


def points_table(result: SweepResult, figures: Sequence[str] = tuple(FIGURES)) -> pd.DataFrame:
    """The report page's table of points, one row a point (its anchor ``points-<point>``,
    which the heat maps' cells link to): ``point``, ``players``, each swept axis's value,
    each figure and its 95% interval as the charts print them, ``games``, and each
    target's verdict."""
    frame = point_frame(result, figures)
    names = [a.name for a in result.axes if a.kind != PLAYERS]
    table = frame[["point", "players", *names]].copy()
    for name in figures:
        d = figure_digits(name)
        table[name] = [f"{v:.{d}f}" if np.isfinite(v) else "–" for v in frame[name]]
        table[f"{name} 95% interval"] = [
            f"[{lo:.{d}f}, {hi:.{d}f}]" if np.isfinite(lo) and np.isfinite(hi) else "–"
            for lo, hi in zip(frame[f"{name}_low"], frame[f"{name}_high"], strict=True)
        ]
    table["games"] = frame["games"]
    for target in result.targets:
        table[target.text] = [p["verdicts"][target.text] for p in result.points]
    return table


def heat_map_cells(
    frame: pd.DataFrame,
    x_axis: Axis,
    y_axis: Axis,
    figure: str,
    digits: int,
    dark_above: float,
    framed: Sequence[bool] | None = None,
) -> pd.DataFrame:
    """A heat map's cells as the report's page draws them, one row a point of ``frame``
    (:func:`point_frame`): ``x``, ``y`` (the axes' values), ``value``, ``low``, ``high``,
    ``value_text``, ``interval_text``, ``cell_text`` (the value and its mark, ``+`` or
    ``?``, as the PDF prints it), ``dark`` (the cell's text is white: its value above
    ``dark_above``), ``point``, ``href`` (``#points-<point>``: its row of the points
    table), ``verdict`` (the point's verdicts in words), ``games`` and ``framed`` (the
    rows of ``frame`` that ``framed`` picks: the PDF frames them)."""
    picked = np.zeros(len(frame), bool) if framed is None else np.asarray(framed, bool)
    rows = []
    for data, frame_it in zip(frame.to_dict("records"), picked, strict=True):
        value, low, high = (float(data[figure + end]) for end in ("", "_low", "_high"))
        mark = " +" if data["passes"] else " ?" if data[f"{figure}_undecided"] else ""
        rows.append(
            {
                "x": str(data[x_axis.name]),
                "y": str(data[y_axis.name]),
                "value": value,
                "low": low,
                "high": high,
                "value_text": f"{value:.{digits}f}",
                "interval_text": f"[{low:.{digits}f}, {high:.{digits}f}]",
                "cell_text": f"{value:.{digits}f}{mark}",
                "dark": bool(value > dark_above),
                "point": int(data["point"]),
                "href": f"#points-{int(data['point'])}",
                "verdict": data.get("verdicts", ""),
                "games": f"{int(data['games']):,}" if "games" in data else "",
                "framed": bool(frame_it),
            }
        )
    return pd.DataFrame(rows)


def axis_lines(frame: pd.DataFrame, axis: Axis, figure: str) -> pd.DataFrame:
    """:func:`plot_against_axis`'s lines as the report's page draws them, one row a point:
    ``label`` (``N players``), ``x`` (the axis's value), ``value``, ``low``, ``high``,
    ``value_text``, ``interval_text``, ``point``, ``games`` and ``verdict``."""
    d = figure_digits(figure)
    rows = []
    for players, group in frame.groupby("players", sort=True):
        group = group.set_index(axis.name).reindex(list(axis.values)).reset_index()
        for data in group.to_dict("records"):
            value, low, high = (float(data[figure + end]) for end in ("", "_low", "_high"))
            if not np.isfinite(value):
                continue
            rows.append(
                {
                    "label": f"{players} players",
                    "x": str(data[axis.name]),
                    "value": value,
                    "low": low,
                    "high": high,
                    "value_text": f"{value:.{d}f}",
                    "interval_text": f"[{low:.{d}f}, {high:.{d}f}]",
                    "point": int(data["point"]),
                    "games": f"{int(data['games']):,}" if "games" in data else "",
                    "verdict": data.get("verdicts", ""),
                }
            )
    return pd.DataFrame(rows)


def swept_axes(axes: Sequence[Axis]) -> list[Axis]:
    """The rule and variant axes with more than one value."""
    return [a for a in axes if a.kind != PLAYERS and len(a.values) > 1]


def main_effects(frame: pd.DataFrame, axes: Sequence[Axis], figure: str) -> pd.DataFrame:
    """Each axis level's mean of ``figure`` over the points at that level (the other axes
    averaged over the design), with the spread of those points.

    Returns
    -------
    DataFrame: ``axis``, ``level``, ``mean``, ``low``, ``high`` (the smallest and largest
    point at that level), ``points``.
    """
    rows = []
    for axis in axes:
        for level in axis.values:
            here = frame.loc[frame[axis.name] == level, figure].dropna()
            rows.append(
                {
                    "axis": axis.name,
                    "level": level,
                    "mean": here.mean() if len(here) else np.nan,
                    "low": here.min() if len(here) else np.nan,
                    "high": here.max() if len(here) else np.nan,
                    "points": len(here),
                }
            )
    return pd.DataFrame(rows)


def sensitivity(
    frame: pd.DataFrame, axes: Sequence[Axis], figure: str, level: float = NOISE_LEVEL
) -> pd.DataFrame:
    """Share of the variance of ``figure`` across points that each axis explains, and the
    share the points' own noise could give it.

    Each axis's share is its type-II sum of squares (what its levels add to a least
    squares fit of every other axis, and the player count if it varies, as categorical
    main effects) over the total sum of squares; the rest is interaction and noise.
    Noise alone (independent normal errors of each point's standard error ``F_se``)
    gives that sum of squares a distribution of quadratic form, taken as a scaled
    chi-square with its first two moments (Satterthwaite; exact when the errors are
    equal). ``noise_share`` is its ``1 - level / k`` quantile over the total (``k`` the
    axes: Bonferroni), so that noise alone carries no axis of a figure past its noise
    share in more than ``level`` of sweeps; an axis short of it is indistinguishable
    from noise.

    Returns
    -------
    DataFrame: ``axis``, ``share`` (0..1), ``noise_share`` (may pass 1: noise alone could
    give more variance than the points show), ``p`` (noise alone giving at least that
    sum of squares) and ``beyond_noise``, largest share first. ``attrs``: ``points``,
    and ``noise``, the share of the total sum of squares that noise alone gives on
    average (above 1: the points agree more closely than their noise would suggest).
    """
    factors = [a.name for a in axes]
    if frame["players"].nunique() > 1:
        factors.append("players")
    data = frame.dropna(subset=[figure, f"{figure}_se"])
    y = data[figure].to_numpy(dtype=float)  # (N,)
    bases = _main_effect_bases(data, factors)
    summed, reference, p = noise_test(bases, y[:, None], data[f"{figure}_se"].to_numpy(), level)
    total = float(((y - y.mean()) ** 2).sum())
    variance = data[f"{figure}_se"].to_numpy(dtype=float) ** 2
    shares = pd.DataFrame(
        {
            "axis": factors,
            "share": summed[:, 0] / total if total > 0 else np.nan,
            "noise_share": reference / total if total > 0 else np.nan,
            "p": p[:, 0],
            "beyond_noise": (p[:, 0] < level / len(factors)) & (total > 0),
        }
    )
    shares = shares.sort_values("share", ascending=False, ignore_index=True)
    shares.attrs = {
        "points": len(y),
        "noise": variance.sum() * (1 - 1 / max(len(y), 1)) / total if total > 0 else np.nan,
    }
    return shares


def _main_effect_bases(data: pd.DataFrame, factors: Sequence[str]) -> list[np.ndarray]:
    """For each factor, an orthonormal basis ``(N, d)`` of what its levels add to an
    intercept and every other factor's levels (``d`` its degrees of freedom): the
    projection on it is the factor's type-II sum of squares."""
    from scipy.linalg import orth

    dummies = {
        f: pd.get_dummies(data[f].astype(str), drop_first=True).to_numpy(float) for f in factors
    }
    ones = np.ones((len(data), 1))
    bases = []
    for factor in factors:
        others = orth(np.hstack([ones, *(dummies[g] for g in factors if g != factor)]))
        added = dummies[factor] - others @ (others.T @ dummies[factor])
        bases.append(orth(added) if added.size else np.zeros((len(data), 0)))
    return bases


def noise_test(
    bases: Sequence[np.ndarray], y: np.ndarray, se: np.ndarray, level: float = NOISE_LEVEL
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each factor's sum of squares and what noise alone gives it.

    Parameters
    ----------
    bases : per factor, an orthonormal basis ``(N, d)`` (:func:`_main_effect_bases`).
    y : ``(N, D)``, ``D`` sweeps' values of a figure at the ``N`` points.
    se : ``(N,)``, each point's standard error.

    Returns
    -------
    ``(sums, reference, p)``: ``sums`` ``(k, D)``, each factor's sum of squares;
    ``reference`` ``(k,)``, the ``1 - level / k`` quantile of that sum under noise alone;
    ``p`` ``(k, D)``, the chance noise alone reaches ``sums``.
    """
    from scipy.stats import chi2

    variance = np.asarray(se, dtype=float) ** 2
    sums, reference, p = [], [], []
    for basis in bases:
        projected = basis.T @ y  # (d, D)
        summed = (projected**2).sum(axis=0)
        spread = basis.T @ (variance[:, None] * basis)  # (d, d): the projection's covariance
        first, second = float(np.trace(spread)), float((spread**2).sum())
        if first > 0:
            scale, df = second / first, first**2 / second
            reference.append(scale * chi2.isf(level / len(bases), df))
            p.append(chi2.sf(summed / scale, df))
        else:  # no noise, or no degree of freedom: any spread is real
            reference.append(0.0)
            p.append(np.where(summed > 0, 0.0, 1.0))
        sums.append(summed)
    return np.array(sums), np.array(reference), np.array(p)


def best_cells(value: np.ndarray, se: np.ndarray, level: float = NOISE_LEVEL) -> np.ndarray:
    """The points that cannot be told from the best (highest) one: a set that holds the
    truly best point with probability at least ``1 - level``.

    A point is left out when some other point is above it by more than ``c`` standard
    errors of their difference, ``c`` the one-sided normal quantile at ``level / (N -
    1)``: the best point is left out only if one of its ``N - 1`` differences errs by
    that much (Bonferroni; Gupta's subset selection with known errors).

    Parameters
    ----------
    value, se : float ``(N,)``.

    Returns
    -------
    bool ``(N,)``.
    """
    value = np.asarray(value, dtype=float)
    se = np.asarray(se, dtype=float)
    c = _rivals_quantile(len(value), level)
    gap = value[None, :] - value[:, None]  # (i, j): how far j is above i
    limit = c * np.sqrt(se[:, None] ** 2 + se[None, :] ** 2)
    return np.isfinite(value) & ~np.any(gap > limit, axis=1)


def _rivals_quantile(points: int, level: float = NOISE_LEVEL) -> float:
    """The one-sided normal quantile at ``level`` shared by a point's ``points - 1``
    rivals (Bonferroni)."""
    return normal_quantile(1 - level / max(points - 1, 1))


def framed_cells(rows: pd.DataFrame, figure: str) -> tuple[np.ndarray, str]:
    """Which points of one heat map to frame, and the caption's sentence on them: for the
    balance index those that cannot be told from the best point (:func:`best_cells`),
    for seat 0's advantage those whose interval holds 0; none for other figures.

    Returns
    -------
    bool ``(N,)`` over ``rows``, and the sentence.
    """
    if figure == "balance_index":
        critical = _rivals_quantile(len(rows))
        return best_cells(rows[figure].to_numpy(), rows[f"{figure}_se"].to_numpy()), (
            " Framed: the cells that cannot be told from the best (highest) point; together "
            f"they hold the best point in at least {1 - NOISE_LEVEL:.0%} of sweeps (a cell "
            f"is left out when another is above it by more than {critical:.2f} standard "
            "errors of their difference: Bonferroni over the map's cells)."
        )
    if figure == "seat0_advantage":
        low, high = rows[f"{figure}_low"].to_numpy(), rows[f"{figure}_high"].to_numpy()
        return (low <= 0) & (high >= 0), (
            " Framed: the cells whose 95% interval holds 0 (no advantage of seat 0 can be told)."
        )
    return np.zeros(len(rows), dtype=bool), ""


def _targets_on(result: SweepResult, figure: str) -> list[Any]:
    return [t for t in result.targets if t.figure == figure]


def plot_against_axis(
    frame: pd.DataFrame,
    axis: Axis,
    figure: str,
    *,
    ylabel: str,
    note: str,
    bands: Sequence[tuple[float, float]] = (),
    ax: Axes | None = None,
) -> Figure:
    """``figure`` against ``axis``: a line per player count with its 95% band; target
    bands shaded; passing points drawn filled."""
    fig, ax = new_axes(ax)
    keep(
        fig,
        ax,
        View(
            "lines",
            f"{ylabel} by {axis.name}",
            axis_lines(frame, axis, figure),
            axis.name,
            ylabel,
            options={"x_order": list(axis.values)},
        ),
    )
    x = np.arange(len(axis.values))
    for k, (players, rows) in enumerate(frame.groupby("players", sort=True)):
        rows = rows.set_index(axis.name).reindex(list(axis.values))
        value = rows[figure].to_numpy(dtype=float)
        ax.fill_between(
            x,
            rows[f"{figure}_low"].to_numpy(dtype=float),
            rows[f"{figure}_high"].to_numpy(dtype=float),
            color="0.8",
            alpha=0.6,
            lw=0,
        )
        ax.plot(
            x,
            value,
            color="black",
            ls=LINES[k % len(LINES)],
            marker="o",
            mfc="white",
            label=f"{players} players",
        )
        passes = rows["passes"].fillna(False).to_numpy(dtype=bool)
        if passes.any():
            ax.plot(x[passes], value[passes], "o", color="black", ls="none")
    for low, high in bands:
        bottom, top = ax.get_ylim()
        ax.axhspan(max(low, bottom), min(high, top), color="0.5", alpha=0.15, hatch="//", lw=0)
    ax.set_xticks(x, list(axis.values))
    ax.set_xlabel(axis.name)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{ylabel} by {axis.name}")
    ax.legend(fontsize=8)
    ax.grid(color="0.9")
    caption(fig, note)
    return fig


def plot_heat_map(
    frame: pd.DataFrame,
    x_axis: Axis,
    y_axis: Axis,
    figure: str,
    *,
    title: str,
    note: str,
    digits: int = 3,
    framed: Sequence[bool] | None = None,
    ax: Axes | None = None,
) -> Figure:
    """A heat map of ``figure`` over two axes, each cell annotated with its value and
    interval; ``+`` marks a point passing every target, ``?`` an undecided one, and a
    frame the rows of ``frame`` that ``framed`` ``(N,)`` picks. The grey scale spans
    at least four median standard errors (``F_se``), so that cells apart by no more
    than their noise look alike."""
    from matplotlib.patches import Rectangle

    fig, ax = new_axes(ax, height=5.5)
    if fig.axes == [ax]:
        room_for_caption(fig, note)
    grid = np.full((len(y_axis.values), len(x_axis.values)), np.nan)
    text = [["" for _ in x_axis.values] for _ in y_axis.values]
    boxed = np.zeros(grid.shape, dtype=bool)
    picked = np.zeros(len(frame), bool) if framed is None else np.asarray(framed, bool)
    for row, frame_it in zip(frame.itertuples(index=False), picked, strict=True):
        data = row._asdict()
        i = y_axis.values.index(str(data[y_axis.name]))
        j = x_axis.values.index(str(data[x_axis.name]))
        grid[i, j] = data[figure]
        boxed[i, j] = frame_it
        mark = " +" if data["passes"] else " ?" if data[f"{figure}_undecided"] else ""
        text[i][j] = (
            f"{data[figure]:.{digits}f}{mark}\n[{data[figure + '_low']:.{digits}f}, "
            f"{data[figure + '_high']:.{digits}f}]"
        )
    finite = grid[np.isfinite(grid)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    noise = float(np.nanmedian(frame[f"{figure}_se"])) if len(frame) else 0.0
    half = max((finite.max() - finite.min()) / 2 if finite.size else 0.0, 2 * noise, 1e-12)
    image = ax.imshow(
        grid, cmap="Greys", origin="lower", aspect="auto", vmin=middle - half, vmax=middle + half
    )
    keep(
        fig,
        ax,
        View(
            "heatmap",
            title,
            heat_map_cells(frame, x_axis, y_axis, figure, digits, middle + half / 3, picked),
            x_axis.name,
            y_axis.name,
            # The page's grey scale spans the PDF's; the lowest y value at the bottom.
            options={
                "x_order": list(x_axis.values),
                "y_order": list(reversed(y_axis.values)),
                "domain": [middle - half, middle + half],
            },
        ),
    )
    size = 7 if grid.size <= 30 else 5
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if text[i][j]:
                colour = "white" if grid[i, j] > middle + half / 3 else "black"
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=size, color=colour)
                if boxed[i, j]:
                    ax.add_patch(
                        Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, ec=colour, lw=1.6)
                    )
    ax.set_xticks(range(len(x_axis.values)), list(x_axis.values))
    ax.set_yticks(range(len(y_axis.values)), list(y_axis.values))
    ax.set_xlabel(x_axis.name)
    ax.set_ylabel(y_axis.name)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, shrink=0.8)
    caption(fig, note)
    return fig


def plot_main_effects(
    effects: pd.DataFrame, *, ylabel: str, note: str, ax: Axes | None = None
) -> Figure:
    """One panel an axis: the mean of a figure at each of its levels (others averaged),
    with the range of the points at that level."""
    axes_names = list(dict.fromkeys(effects["axis"]))
    fig = Figure(figsize=(8.0, 5.0), layout="constrained")
    room_for_caption(fig, note)
    panels = fig.subplots(1, len(axes_names), sharey=True, squeeze=False)[0]
    for panel, name in zip(panels, axes_names, strict=True):
        rows = effects[effects["axis"] == name]
        x = np.arange(len(rows))
        # The range of the points, drawn as a band rather than capped bars: not an interval.
        panel.vlines(x, rows["low"], rows["high"], color="0.75", lw=5)
        panel.plot(x, rows["mean"], color="black", marker="o")
        panel.set_xticks(x, rows["level"].tolist(), fontsize=7)
        panel.set_xlabel(name)
        panel.grid(color="0.9")
    panels[0].set_ylabel(ylabel)
    fig.suptitle(f"main effects: {ylabel}")
    attach(fig, main_effects_view(effects, ylabel))
    caption(fig, note)
    return fig


def main_effects_view(effects: pd.DataFrame, ylabel: str) -> View:
    """:func:`plot_main_effects` as the report's page draws it: a row a level of an axis
    (``axis=level``), its mean and the range of its points (not an interval)."""
    d = 2 if ylabel.startswith("mean game length") else 3
    rows = pd.DataFrame(
        {
            "label": [f"{a}={v}" for a, v in zip(effects["axis"], effects["level"], strict=True)],
            "value": effects["mean"].to_numpy(float),
            "low": effects["low"].to_numpy(float),
            "high": effects["high"].to_numpy(float),
            "value_text": [f"{v:.{d}f}" for v in effects["mean"]],
            "interval_text": [
                f"[{lo:.{d}f}, {hi:.{d}f}] over {n} points"
                for lo, hi, n in zip(
                    effects["low"], effects["high"], effects["points"], strict=True
                )
            ],
        }
    )
    return View(
        "intervals",
        f"main effects: {ylabel}",
        rows,
        ylabel,
        options={"interval_title": "range of the points", "zero": False},
    )


def sensitivity_bars(shares: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`plot_sensitivity`'s bars as the report's page draws them: ``label`` (the
    figure), ``series`` (the axis), ``value`` (its share), ``low`` = ``high`` (the share
    noise could give it, at most 1: the PDF's tick), ``value_text``, ``interval_text``
    (the noise share in words) and ``beyond_noise``."""
    rows = []
    for name, table in shares.items():
        for row in table.to_dict("records"):
            noise = float(row["noise_share"])
            tick = min(noise, 1.0) if np.isfinite(noise) else np.nan
            rows.append(
                {
                    "label": name,
                    "series": row["axis"],
                    "value": float(row["share"]),
                    "low": tick,
                    "high": tick,
                    "value_text": f"{row['share']:.0%}",
                    "interval_text": (f"{noise:.0%}" if np.isfinite(noise) else "–")
                    + ("" if row["beyond_noise"] else ", indistinguishable from noise"),
                    "beyond_noise": bool(row["beyond_noise"]),
                }
            )
    return pd.DataFrame(rows)


def room_for_caption(fig: Figure, note: str) -> None:
    """Keep the bottom of ``fig`` free for a caption of ``note``'s length (as
    :func:`balance.reports.charts.caption` wraps it)."""
    lines = len(textwrap.wrap(note, 120))
    bottom = (0.125 * lines + 0.15) / fig.get_figheight()
    fig.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))


def plot_sensitivity(
    shares: dict[str, pd.DataFrame], *, note: str, ax: Axes | None = None
) -> Figure:
    """Grouped horizontal bars: for each figure (:func:`sensitivity`), each axis's share
    of the variance, a tick at the share noise alone could give it, and ``noise`` on the
    bars short of their tick (hatched); a figure none of whose axes passes its tick is
    labelled indistinguishable from noise."""
    from matplotlib.patches import Patch
    from matplotlib.patheffects import Normal, Stroke

    fig, ax = new_axes(ax, height=5.5)
    if fig.axes == [ax]:
        room_for_caption(fig, note)
    keep(
        fig,
        ax,
        View(
            "grouped",
            "which rule matters most, for each figure",
            sensitivity_bars(shares),
            "",
            "share of the variance across points explained by the axis",
            "percent",
            options={"interval_title": "noise could give"},
        ),
    )
    figures = list(shares)
    factors = list(dict.fromkeys(a for table in shares.values() for a in table["axis"]))
    height = 0.8 / max(len(factors), 1)
    y = -np.arange(len(figures), dtype=float)  # the first figure on top
    for k, factor in enumerate(factors):
        rows = [table.set_index("axis").reindex([factor]).iloc[0] for table in shares.values()]
        share = np.array([row["share"] for row in rows], dtype=float)
        reference = np.array([row["noise_share"] for row in rows], dtype=float)
        beyond = np.array([bool(row["beyond_noise"]) for row in rows])
        centre = y + 0.4 - height * (k + 0.5)  # the first axis on top, as in the legend
        grey = f"{0.15 + 0.7 * k / max(len(factors), 1):.2f}"
        bars = ax.barh(centre, share, height=height, color=grey, edgecolor="black", lw=0.5)
        for bar, real in zip(bars, beyond, strict=True):
            bar.set_hatch("" if real else "////")
        tick = np.minimum(reference, 1.0)
        ticks = ax.errorbar(tick, centre, yerr=height / 2, fmt="none", ecolor="black", lw=2)
        ticks.lines[2][0].set_path_effects([Stroke(linewidth=4, foreground="white"), Normal()])
        for c, s_, r, real in zip(centre, share, reference, beyond, strict=True):
            if np.isfinite(r) and not real:
                word = "noise" + (" (reference past 100%)" if r > 1 else "")
                ax.text(min(max(s_, r), 1.0) + 0.01, c, word, va="center", fontsize=6.5)
    labels = []
    for name, table in shares.items():
        noise = table.attrs.get("noise", np.nan)
        label = f"{name}\nnoise, as if independent:\n{noise:.0%} of its variance"
        if not table["beyond_noise"].any():
            label += "\nindistinguishable from noise"
        labels.append(label)
    ax.set_yticks(y, labels, fontsize=7.5)
    ax.set_xlim(0, 1.25)
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.set_xlabel("share of the variance across points explained by the axis")
    ax.set_title("which rule matters most, for each figure; tick: what noise could give")
    greys = [f"{0.15 + 0.7 * k / max(len(factors), 1):.2f}" for k in range(len(factors))]
    ax.legend(
        [Patch(facecolor=g, edgecolor="black", lw=0.5) for g in greys],
        factors,
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    ax.grid(axis="x", color="0.9")
    caption(fig, note)
    return fig


def sweep_charts(result: SweepResult) -> list[Chart]:
    """Every page of a sweep's report, in order."""
    game = get_game(result.game)
    unit = game.length_unit
    labels = dict(FIGURES)
    labels["length_mean"] = f"mean game length ({unit})"
    frame = point_frame(result)
    axes = swept_axes(result.axes)
    games_note = (
        f"{result.games:,} games a point (game indices 0..{result.games - 1:,} of seed "
        f"{result.seed} at every point); {len(result.points)} points ({result.design})."
    )
    interval_note = (
        " 95% intervals: Wilson for rates, Student t for means, simultaneous intervals of "
        "the seat differences for the balance index."
    )
    if result.precision is not None:
        played = [p["games"] for p in result.points]
        games_note = (
            f"Each point played until its seat win rates and balance index were within "
            f"+/-{result.precision:g} (or {result.max_games:,} games): "
            f"{games_played_text(played)} (game indices from 0 of seed {result.seed}); "
            f"{len(result.points)} points ({result.design})."
        )
        interval_note = (
            " 95% intervals: anytime-valid (confidence sequences) for the seat win rates "
            "and the balance index; Wilson for other rates, Student t for means."
        )
    base_note = games_note + interval_note
    targets = "; ".join(t.text for t in result.targets)
    pages = [
        Chart(
            "00-title",
            title_page(
                f"{game.title}: sweep",
                [line for line in result.text(limit=25, narrow=True).splitlines()][:40],
            ),
        )
    ]
    if len(axes) <= 1:
        axis = (
            axes[0]
            if axes
            else Axis(PLAYERS, tuple(sorted({str(p) for p in frame["players"]}, key=int)), PLAYERS)
        )
        data = frame.copy()
        if not axes:
            data[PLAYERS + "_x"] = data["players"].astype(str)
            axis = Axis(PLAYERS + "_x", axis.values, PLAYERS)
            data["players"] = "all"
        for k, (name, label) in enumerate(labels.items(), start=1):
            bands = [(t.low, t.high) for t in _targets_on(result, name)]
            note = base_note + (
                f" Shaded: the target band ({targets}); filled points pass every target."
                if bands
                else ""
            )
            pages.append(
                Chart(
                    f"{k:02d}-{name.replace('_', '-')}",
                    plot_against_axis(data, axis, name, ylabel=label, note=note, bands=bands),
                )
            )
    elif len(axes) == 2:
        k = 1
        for players, rows in frame.groupby("players", sort=True):
            for name in HEAT_FIGURES:
                framed, framing = framed_cells(rows, name)
                note = (
                    base_note
                    + framing
                    + " The grey scale spans at least four standard errors of a point, so "
                    "cells within noise of each other look alike."
                    + (
                        f" Targets: {targets}; '+' passes every target, '?' is undecided on "
                        "this figure (its interval straddles the band's edge)."
                        if result.targets
                        else ""
                    )
                )
                pages.append(
                    Chart(
                        f"{k:02d}-heat-{name.replace('_', '-')}-{players}p",
                        plot_heat_map(
                            rows,
                            axes[0],
                            axes[1],
                            name,
                            title=f"{labels[name]}, {players} players"
                            + (
                                "\nno cell can be told from the best"
                                if name == "balance_index" and framed.all()
                                else ""
                            ),
                            note=note,
                            digits=2 if name == "length_mean" else 3,
                            framed=framed,
                        ),
                    )
                )
                k += 1
    else:
        k = 1
        for name in HEAT_FIGURES:
            effects = main_effects(frame, axes, name)
            pages.append(
                Chart(
                    f"{k:02d}-main-effects-{name.replace('_', '-')}",
                    plot_main_effects(
                        effects,
                        ylabel=labels[name],
                        note=games_note + " Each dot: the mean over the points at that level "
                        "(the other axes averaged over the design); grey bands: from the "
                        "smallest to the largest point at that level, the spread of the other "
                        "axes' effects and of noise together, not an interval (each point's "
                        "own 95% interval is in sweep.csv; the next page weighs each axis "
                        "against noise).",
                    ),
                )
            )
            k += 1
        shares = {
            labels[name].split(" (")[0]: sensitivity(frame, axes, name) for name in HEAT_FIGURES
        }
        pages.append(
            Chart(
                f"{k:02d}-sensitivity",
                plot_sensitivity(
                    shares,
                    note=games_note + " Bars: the share of each figure's variance across the "
                    "points that each axis explains (type-II sums of squares of a linear model "
                    "with every axis as a categorical main effect, over the total sum of "
                    "squares; the rest is interaction and noise). Tick: the share the points' "
                    "own noise (each point's standard error) gives the axis in no more than "
                    f"{NOISE_LEVEL:.0%} of sweeps over all the axes of a figure (Bonferroni; "
                    "Satterthwaite's scaled chi-square); a bar short of its tick is "
                    "indistinguishable from noise (hatched). 'Noise, as if independent': the "
                    "share of the variance the points' noise gives on average. Points are taken as "
                    "independent: common random numbers make their noise move together, so "
                    "the ticks are conservative.",
                ),
            )
        )
    return pages


def write_sweep_charts(result: SweepResult, directory: Path) -> list[Path]:
    """Each chart as a PNG, all of them as ``sweep.pdf`` and the report's page,
    ``index.html``, with the points' table, in ``directory``."""
    points = Table(
        "points",
        "Points",
        points_table(result),
        key="point",
        caption=f"One row a point: its figures with their 95% intervals, the games it "
        f"played and each target's verdict ({result.design} design, seed {result.seed}). "
        "A heat map's cell links to its point's row.",
    )
    return write_charts(sweep_charts(result), directory, "sweep.pdf", tables=[points])
