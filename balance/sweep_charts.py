"""A sweep's charts: figures against one axis, heat maps over two, main effects over more.

As everywhere in balance, a dataset function (tested) computes what a chart shows and
a ``plot_*`` function draws only that. The layout follows the number of swept rule
axes (axes other than the player count with more than one value):

* one: each figure against the axis, a line per player count, its 95% band;
* two: annotated heat maps per player count (balance index, seat-0 advantage, length);
* three or more: main-effect plots (each axis's levels, the other axes averaged over
  the design's points) and a ranking of which rule moves each figure most (shares of
  the variance explained, from type-II sums of squares of a main-effects linear model
  fitted with statsmodels).

Targets on a charted figure are drawn as bands (line charts) or as marks on the cells
(heat maps): ``+`` for a point that passes every target, ``?`` for one whose interval
straddles a band's edge on that figure.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from balance.charts import LINES, Chart, caption, new_axes, title_page, write_charts
from balance.games import get_game
from balance.sweep_design import PLAYERS, Axis, figure_of

if TYPE_CHECKING:
    from balance.sweep import SweepResult

#: Figures charted, with their axis labels.
FIGURES = {
    "balance_index": "balance index (1 = every seat wins equally often)",
    "seat0_advantage": "seat 0 advantage (its win rate − the mean)",
    "length_mean": "mean game length",
    "finished_rate": "games finished before the cap",
}
HEAT_FIGURES = ("balance_index", "seat0_advantage", "length_mean")


def point_frame(result: SweepResult, figures: Sequence[str] = tuple(FIGURES)) -> pd.DataFrame:
    """One row a point: ``point``, ``players``, each axis's value text, and for each
    figure ``F``: ``F``, ``F_low``, ``F_high``; ``passes`` (every target) and, per
    figure, ``F_undecided`` (a target on it is undecided at that point)."""
    rows = []
    for point in result.points:
        row: dict[str, Any] = {"point": point["point"], "players": point["players"]}
        row.update({k: v for k, v in point["axis_values"].items() if k != PLAYERS})
        for name in figures:
            value, low, high = figure_of(point["metrics"], name)
            row.update({name: value, f"{name}_low": low, f"{name}_high": high})
            row[f"{name}_undecided"] = any(
                point["verdicts"][t.text] == "undecided" for t in result.targets if t.figure == name
            )
        row["passes"] = bool(result.targets) and all(
            v == "pass" for v in point["verdicts"].values()
        )
        rows.append(row)
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


def sensitivity(frame: pd.DataFrame, axes: Sequence[Axis], figure: str) -> pd.DataFrame:
    """Share of the variance of ``figure`` across points that each axis explains.

    A linear model with every axis (and the player count, if it varies) as a
    categorical main effect is fitted by least squares (statsmodels); each axis's
    type-II sum of squares over the total sum of squares is its share. The rest is
    interaction and noise.

    Returns
    -------
    DataFrame: ``axis``, ``share`` (0..1), sorted by ``share``, largest first.
    """
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    data = frame.copy()
    factors = [a.name for a in axes]
    if data["players"].nunique() > 1:
        factors.append("players")
    names = {name: f"f{k}" for k, name in enumerate(factors)}
    data = data.rename(columns=names)
    data["y"] = data[figure]
    data = data.dropna(subset=["y"])
    total = float(((data["y"] - data["y"].mean()) ** 2).sum())
    if total == 0 or len(data) <= sum(frame[f].nunique() for f in factors):
        return pd.DataFrame({"axis": factors, "share": [np.nan] * len(factors)})
    formula = "y ~ " + " + ".join(f"C({names[f]})" for f in factors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = ols(formula, data=data.astype({names[f]: str for f in factors})).fit()
        table = sm.stats.anova_lm(model, typ=2)
    shares = [float(table.loc[f"C({names[f]})", "sum_sq"]) / total for f in factors]
    result = pd.DataFrame({"axis": factors, "share": shares})
    return result.sort_values("share", ascending=False, ignore_index=True)


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
    ax: Axes | None = None,
) -> Figure:
    """A heat map of ``figure`` over two axes, each cell annotated with its value and
    interval; ``+`` marks a point passing every target, ``?`` an undecided one."""
    fig, ax = new_axes(ax, height=5.5)
    grid = np.full((len(y_axis.values), len(x_axis.values)), np.nan)
    text = [["" for _ in x_axis.values] for _ in y_axis.values]
    for row in frame.itertuples(index=False):
        data = row._asdict()
        i = y_axis.values.index(str(data[y_axis.name]))
        j = x_axis.values.index(str(data[x_axis.name]))
        grid[i, j] = data[figure]
        mark = " +" if data["passes"] else " ?" if data[f"{figure}_undecided"] else ""
        text[i][j] = (
            f"{data[figure]:.{digits}f}{mark}\n[{data[figure + '_low']:.{digits}f}, "
            f"{data[figure + '_high']:.{digits}f}]"
        )
    image = ax.imshow(grid, cmap="Greys", origin="lower", aspect="auto")
    finite = grid[np.isfinite(grid)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0
    size = 7 if grid.size <= 30 else 5
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if text[i][j]:
                colour = "white" if grid[i, j] > middle else "black"
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=size, color=colour)
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
    fig.get_layout_engine().set(rect=(0, 0.13, 1, 0.87))
    panels = fig.subplots(1, len(axes_names), sharey=True, squeeze=False)[0]
    for panel, name in zip(panels, axes_names, strict=True):
        rows = effects[effects["axis"] == name]
        x = np.arange(len(rows))
        mean = rows["mean"].to_numpy(dtype=float)
        err = np.vstack([mean - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - mean])
        panel.errorbar(x, mean, yerr=np.nan_to_num(err), color="black", marker="o", capsize=3)
        panel.set_xticks(x, rows["level"].tolist(), fontsize=7)
        panel.set_xlabel(name)
        panel.grid(color="0.9")
    panels[0].set_ylabel(ylabel)
    fig.suptitle(f"main effects: {ylabel}")
    caption(fig, note)
    return fig


def plot_sensitivity(
    shares: dict[str, pd.DataFrame], *, note: str, ax: Axes | None = None
) -> Figure:
    """Grouped horizontal bars: for each figure, each axis's share of the variance."""
    fig, ax = new_axes(ax)
    figures = list(shares)
    factors = list(dict.fromkeys(a for table in shares.values() for a in table["axis"]))
    height = 0.8 / max(len(factors), 1)
    y = np.arange(len(figures))
    for k, factor in enumerate(factors):
        values = [
            float(table.set_index("axis")["share"].get(factor, np.nan)) for table in shares.values()
        ]
        grey = f"{0.15 + 0.7 * k / max(len(factors), 1):.2f}"
        ax.barh(
            y - 0.4 + height * (k + 0.5),
            values,
            height=height,
            color=grey,
            edgecolor="black",
            lw=0.5,
            label=factor,
        )
    ax.set_yticks(y, figures)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the variance across points explained by the axis")
    ax.set_title("which rule matters most, for each figure")
    ax.legend(fontsize=8)
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
    base_note = (
        f"{result.games:,} games a point (game indices 0..{result.games - 1:,} of seed "
        f"{result.seed} at every point); {len(result.points)} points ({result.design}). "
        "95% intervals: Wilson for rates, Student t for means, simultaneous intervals of "
        "the seat differences for the balance index."
    )
    if result.precision is not None:
        played = [p["games"] for p in result.points]
        base_note = (
            f"Each point played until its seat win rates and balance index were within "
            f"+/-{result.precision:g} (or {result.max_games:,} games): {min(played):,} to "
            f"{max(played):,} games a point (game indices from 0 of seed {result.seed}); "
            f"{len(result.points)} points ({result.design}). 95% intervals: anytime-valid "
            "(confidence sequences) for the seat win rates and the balance index; Wilson "
            "for other rates, Student t for means."
        )
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
                note = base_note + (
                    f" Targets: {targets}; '+' passes every target, '?' is undecided on this figure"
                    " (its interval straddles the band's edge)."
                    if result.targets
                    else ""
                )
                pages.append(
                    Chart(
                        f"{k:02d}-heat-{name.replace('_', '-')}-{players}p",
                        plot_heat_map(
                            rows,
                            axes[0],
                            axes[1],
                            name,
                            title=f"{labels[name]}, {players} players",
                            note=note,
                            digits=2 if name == "length_mean" else 3,
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
                        note=base_note + " Each dot: the mean over the points at that level "
                        "(the other axes averaged over the design); bars: the smallest and "
                        "largest point at that level.",
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
                    note=base_note + " Share of each figure's variance across the points "
                    "explained by each axis: type-II sums of squares of a linear model with "
                    "every axis as a categorical main effect (statsmodels anova_lm) over the "
                    "total sum of squares; the rest is interaction and noise.",
                ),
            )
        )
    return pages


def write_sweep_charts(result: SweepResult, directory: Path) -> list[Path]:
    """Each chart as a PNG and all of them as ``sweep.pdf`` in ``directory``."""
    return write_charts(sweep_charts(result), directory, "sweep.pdf")
