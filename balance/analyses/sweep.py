"""``balance sweep``: explore rule space, point by point, locally or on a Dask cluster.

A sweep plays every point of a design (player counts, rule values, variants: see
:mod:`balance.analyses.sweep_design`) on the same game indices ``0 .. games - 1`` from the same
seed (common random numbers): a point is exactly ``balance simulate`` with its rules and
seed, and neighbouring points differ by their rules, not their dice. Work is split into
tasks of (point, block of games), each returning outcome counts
(:class:`balance.analyses.sweep_tally.Tally`), played on local threads or, with a scheduler, on
a Dask distributed cluster (:mod:`balance.analyses.cluster`); the figures do not depend on the
backend, the number of workers or the block size.

>>> from balance.analyses.sweep import sweep
>>> result = sweep("walk-the-plank", players=[5], axes=["plank_max=3..6"], games=2_000)
>>> result.table.head()      # doctest: +SKIP
>>> result.verdicts          # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from balance import __version__
from balance.analyses.compare import parse_variant
from balance.analyses.sweep_design import (
    DESIGNS,
    MAX_POINTS,
    PLAYERS,
    VARIANT,
    Axis,
    Target,
    check_axes,
    design_points,
    figure_of,
    games_played_text,
    grid_size,
    parse_assignments,
    parse_axis,
    parse_target,
    players_axis,
    refuse_sampled,
)
from balance.analyses.sweep_tally import BASE, CORE, WON, Group, Tally, Task, merge, play_tally
from balance.core.errors import BalanceError
from balance.core.game import Setup
from balance.games import get_game
from balance.run.cluster import scheduler_address
from balance.run.moments import exact_covariance
from balance.run.play import make_setup
from balance.run.precision import BLOCK as PRECISION_BLOCK
from balance.run.precision import DEFAULT_MAX_GAMES, SeatTracker, check_precision
from balance.run.results import json_safe, output_dir, write_json
from balance.run.runner import (
    _deferred_interrupt,
    _ignore_ctrl_c_here,
    check_run,
    default_threads,
    one_blas_thread,
)
from balance.stats.intervals import t_quantile, wilson_interval
from balance.stats.metrics import (
    DRAWS,
    RATE_KINDS,
    Metric,
    balance_index_difference,
    balance_index_from_moments,
    estimate,
    holm,
    length_summary_from_counts,
    paired_difference,
    seeded_normal,
)

#: Default games a task plays: chosen from the measured per-task cost (docs/sweeps.md,
#: "Speed"): a Dask task costs about 2 ms and a 20,000-game task's tally about 4 ms,
#: against 80-180 ms for playing 20,000 games of Walk the Plank.
DEFAULT_BLOCK = 20_000
#: Games a point plays without ``--games`` (or ``--precision``).
DEFAULT_GAMES = 10_000
MANIFEST = "manifest.json"
POINTS_DIR = "points"

#: The figures every point reports (besides the game's own), as the tidy table names them.
HEADLINE = ("balance_index", "length_mean", "finished_rate")


@dataclass
class SweepResult:
    """A finished (or interrupted) sweep: every point's figures, as JSON and as a table.

    Attributes
    ----------
    points : one JSON object a finished point (see :meth:`to_json`), in point order.
    table : the tidy table: one row a (point, figure) with the axis columns, ``value``,
        ``ci_low``, ``ci_high``, ``games`` (and ``p_holm`` for paired differences).
    verdicts : one row a (point, target): ``point``, ``target``, ``figure``, ``verdict``
        (``pass``, ``fail`` or ``undecided``).
    """

    game: str
    seed: int
    games: int
    design: str
    axes: list[Axis]
    backend: str
    elapsed_s: float
    points: list[dict[str, Any]]
    table: pd.DataFrame
    verdicts: pd.DataFrame
    targets: list[Target] = field(default_factory=list)
    requested_points: int = 0
    partial: bool = False
    points_asked: int | None = None
    baseline: dict[str, str] = field(default_factory=dict)
    played_games: int = 0
    precision: float | None = None
    max_games: int | None = None

    @property
    def games_per_s(self) -> float:
        return self.played_games / self.elapsed_s if self.elapsed_s > 0 else float("nan")

    def to_json(self) -> dict[str, Any]:
        """What ``balance sweep --json`` prints."""
        return json_safe(
            {
                "game": self.game,
                "seed": self.seed,
                "games": self.games,
                "design": self.design,
                "axes": {axis.name: list(axis.values) for axis in self.axes},
                "backend": self.backend,
                "elapsed_s": self.elapsed_s,
                "games_per_s": self.games_per_s,
                "requested_points": self.requested_points,
                "points_asked": self.points_asked,
                "partial": self.partial,
                "baseline": self.baseline or None,
                "targets": [t.text for t in self.targets],
                "precision": self.precision,
                "max_games": self.max_games,
                "interval_method": "95%: Wilson for rates, Student t for mean lengths, "
                "simultaneous intervals of the seat differences for the balance index "
                "(as balance simulate); paired differences from the baseline as balance "
                "compare, Holm's correction over every difference of the sweep"
                + (
                    "; with --precision, the seat win rates and the balance index have 95% "
                    "anytime-valid intervals (confidence sequences, as balance simulate "
                    "--precision)"
                    if self.precision is not None
                    else ""
                ),
                "points": self.points,
            }
        )

    def passing(self) -> list[dict[str, Any]]:
        """The points that pass every target, best first (largest margin inside the bands,
        in units of each figure's interval half-width)."""
        if not self.targets:
            return []
        chosen = []
        for point in self.points:
            if all(v == "pass" for v in point.get("verdicts", {}).values()):
                margins = []
                for target in self.targets:
                    value, low, high = figure_of(point["metrics"], target.figure)
                    half = max((high - low) / 2, 1e-12)
                    margins.append(target.distance(value) / half)
                chosen.append((min(margins), point))
        chosen.sort(key=lambda pair: -pair[0])
        return [point for _, point in chosen]

    def _merged(self) -> str:
        """How many of a sampled design's points landed on levels already drawn."""
        merged = (self.points_asked or 0) - self.requested_points
        if merged <= 0:
            return ""
        return (
            f" of {self.points_asked:,} drawn: {merged:,} landed on the levels of another "
            "and were merged"
        )

    def text(self, limit: int = 60, narrow: bool = False) -> str:
        """The sweep as a designer reads it in a terminal (``narrow``: without seat 0's
        win rate and the share of games finished, for a report's title page)."""
        game = get_game(self.game)
        swept = [a for a in self.axes if len(a.values) > 1 or a.kind != PLAYERS]
        if self.precision is None:
            each = (
                f"{self.games:,} games each (game indices 0..{self.games - 1:,} of seed "
                f"{self.seed} at every point)"
            )
        else:
            each = (
                f"each played until +/-{self.precision:g} or {self.max_games:,} games "
                f"(game indices from 0 of seed {self.seed} at every point)"
            )
        lines = [
            f"{self.game}: {len(self.points):,} points ({self.design}"
            + (f", {self.requested_points:,} asked; interrupted" if self.partial else "")
            + self._merged()
            + f"), {each}, "
            + (
                f"{self.backend}, {self.elapsed_s:.1f} s, {self.games_per_s:,.0f} games/s"
                if self.played_games
                else "every point read back from --out (none played)"
            ),
            "axes: " + "; ".join(f"{a.name} = {', '.join(a.values)}" for a in self.axes),
            "Each figure: value [95% interval] over the point's games; balance index = 1 - the "
            "largest gap between two seats' win rates.",
        ]
        if self.precision is not None:
            lines += precision_sweep_lines(self)
        names = [a.name for a in swept] or [PLAYERS]
        widths = {name: max(len(name), 6) for name in names}
        header = "point  " + "  ".join(f"{name:<{widths[name]}}" for name in names)
        header += f"  {'balance index':<24}  {'length (' + game.length_unit + ')':<24}"
        header += "" if narrow else f"  {'seat 0 wins':<22}  finished"
        if self.precision is not None:
            header += f"  {'games':>10}  stopped by"
        lines.append("")
        lines.append(header)
        for point in self.points[:limit]:
            values = {**point["rules"], PLAYERS: point["players"]}
            if VARIANT in names:
                values[VARIANT] = point["variant_label"]
            cells = f"{point['point']:<5}  " + "  ".join(
                f"{value_text(values.get(name)):<{widths[name]}}" for name in names
            )
            m = point["metrics"]
            seat0 = m["seat_win_rate"][0]
            lines.append(
                f"{cells}  {_fig(m['balance_index'], 3):<24}  {_fig(m['length_mean'], 2):<24}"
                + (
                    ""
                    if narrow
                    else f"  {_pct(seat0['rate'], seat0['ci95']):<22}  "
                    f"{m['finished_rate']['value']:.1%}"
                )
                + (
                    f"  {point['games']:>10,}  {point['stopped_by']}"
                    if self.precision is not None
                    else ""
                )
            )
        if len(self.points) > limit:
            lines.append(f"... {len(self.points) - limit:,} more points (--json or --out)")
        if self.baseline:
            shown = ", ".join(f"{k}={v}" for k, v in self.baseline.items())
            count = sum(
                d["p"] == d["p"] for p in self.points for d in p.get("difference", {}).values()
            )
            lines.append(
                f"\nPaired differences from the baseline ({shown}) at each point, on the same "
                f"games; * = significant at 5% after Holm's correction over the sweep's "
                f"{count:,} differences:"
            )
            for point in self.points[:limit]:
                diff = point.get("difference", {})
                if diff and all(d["p"] != d["p"] for d in diff.values()):
                    lines.append(f"  point {point['point']} ({point_label(point)}): the baseline")
                    continue
                parts = []
                for key in ("balance_index", "length_mean", "seat_win_rate.0"):
                    if key in diff:
                        d = diff[key]
                        star = " *" if d.get("significant") else ""
                        parts.append(
                            f"{key} {d['value']:+.3f} [{d['ci95'][0]:+.3f}, "
                            f"{d['ci95'][1]:+.3f}]{star}"
                        )
                lines.append(
                    f"  point {point['point']} ({point_label(point)}): " + "; ".join(parts)
                )
        if self.targets:
            passing = self.passing()
            counts = {
                verdict: int((self.verdicts["verdict"] == verdict).sum())
                for verdict in ("pass", "fail", "undecided")
            }
            lines.append(
                "\nTargets: "
                + "; ".join(t.text for t in self.targets)
                + f" (pass: the 95% interval lies inside the band; {counts['pass']} pass, "
                f"{counts['fail']} fail, {counts['undecided']} undecided over all points "
                "and targets)"
            )
            if passing:
                lines.append(
                    f"{len(passing)} points pass every target, best first:"
                    if len(passing) != 1
                    else "1 point passes every target:"
                )
                for point in passing[:limit]:
                    figures = "; ".join(
                        f"{t.figure} {_fig_named(point['metrics'], t.figure)}" for t in self.targets
                    )
                    lines.append(f"  point {point['point']} ({point_label(point)}): {figures}")
            else:
                lines.append("No point passes every target.")
        return "\n".join(lines)


def precision_sweep_lines(result: SweepResult) -> list[str]:
    """How the points of a ``--precision`` sweep stopped, for the text output."""
    h = result.precision
    games = [p["games"] for p in result.points]
    capped = sum(p["stopped_by"] == "max_games" for p in result.points)
    lines = [
        f"Each point played blocks of games until every seat win rate and the balance index "
        f"were within +/-{h:g}: {games_played_text(games)}; {capped} of {len(games)} stopped "
        "at --max-games first.",
        "Seat win rates and balance index: 95% anytime-valid intervals "
        "(confidence sequences); other intervals are fixed-n.",
    ]
    return lines


def anytime_of(tracker: SeatTracker) -> dict[str, Any]:
    """A stopped point's anytime-valid intervals and stop, as a point's JSON keeps them."""
    figures = tracker.figures()
    return {
        "seat_ci95": [[f.low, f.high] for f in figures[:-1]],
        "balance_index_ci95": [figures[-1].low, figures[-1].high],
        "stopped_by": tracker.stopped_by,
        "widest_half_width": max(f.half_width for f in figures),
    }


def _apply_anytime(entry: dict[str, Any], anytime: Mapping[str, Any]) -> None:
    """Put a point's anytime-valid intervals in place of its fixed-n ones."""
    metrics = entry["metrics"]
    for row, ci in zip(metrics["seat_win_rate"], anytime["seat_ci95"], strict=True):
        row["ci95"] = [float(ci[0]), float(ci[1])]
    index = metrics["balance_index"]
    if index["value"] == index["value"]:
        index["ci95"] = [float(v) for v in anytime["balance_index_ci95"]]
    entry["anytime_valid"] = True
    entry["anytime_figures"] = ["seat_win_rate", "balance_index"]
    entry["stopped_by"] = anytime["stopped_by"]
    entry["widest_half_width"] = float(anytime["widest_half_width"])


def value_text(value: Any) -> str:
    """A rule's value as a designer writes it (lists comma-separated, booleans in words)."""
    if isinstance(value, list | tuple):
        return ",".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def point_label(point: Mapping[str, Any]) -> str:
    """A point's players, swept rules and variant, for a line of text."""
    parts = [f"{point['players']} players"]
    parts += [f"{k}={value_text(v)}" for k, v in point["rules"].items()]
    if point.get("variant_label") is not None:
        parts.append(f"variant {point['variant_label']}")
    return ", ".join(parts)


def _fig(node: Mapping[str, Any], digits: int) -> str:
    low, high = node["ci95"]
    return f"{node['value']:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _pct(rate: float, ci: Sequence[float]) -> str:
    return f"{rate:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]"


def _fig_named(metrics: Mapping[str, Any], name: str) -> str:
    value, low, high = figure_of(metrics, name)
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


# --- a point's figures -------------------------------------------------------------


def _rate(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {"value": count / total if total else math.nan, "ci95": [float(low), float(high)]}


def point_metrics(tally: Tally, players: int) -> dict[str, Any]:
    """A point's figures from its tally, computed as ``balance simulate`` computes them.

    Returns
    -------
    dict: ``balance_index``, ``length_mean``, ``finished_rate`` (each ``{"value",
    "ci95"}``), ``seat_win_rate`` (``[{"seat", "rate", "ci95"}]``), ``winner_count``
    (by number of winners), ``length_median`` and the game's own per-game figures by
    column name (each with ``name``, ``unit``, ``value`` and ``ci95``).
    """
    core = tally.groups[CORE]
    counts = core.counts
    games = int(counts.sum())
    where = {name: k for k, name in enumerate(core.columns)}
    won = core.rows[:, [where[c] for c in tally.won_columns]].astype(np.int64)  # (R, n)
    length = np.rint(core.rows[:, where["length"]]).astype(np.int64)  # (R,)
    finished = core.rows[:, where["finished"]] > 0  # (R,)
    # Exact integer sums over the games, as balance simulate keeps them without records.
    seat_wins = won.T @ counts  # (n,)
    cross = won.T @ (won * counts[:, None])  # (n, n)
    rates = seat_wins / games if games else np.full(players, np.nan)
    covariance = exact_covariance(games, seat_wins, cross) if games >= 2 else None
    balance = balance_index_from_moments(games, rates, covariance)
    longest = int(length.max()) if games else -1
    ended = np.bincount(length[finished], weights=counts[finished], minlength=longest + 1)
    stopped = np.bincount(length, weights=counts, minlength=longest + 1)
    lengths = length_summary_from_counts(np.rint(ended), np.rint(stopped))
    winners = np.bincount(won.sum(axis=1), weights=counts, minlength=max(2, players) + 1)
    winner_count = {}
    for k in range(0, max(2, players) + 1):
        if k > 2 and not winners[k]:
            continue
        winner_count[str(k)] = _rate(int(winners[k]), games)
    finished_games = int(counts[finished].sum())
    metrics: dict[str, Any] = {
        "balance_index": {
            "value": balance["value"],
            "ci95": [balance["low"], balance["high"]],
            "se": _index_se(games, rates, covariance),
        },
        "length_mean": {
            "value": lengths["mean"],
            "ci95": [lengths["mean_low"], lengths["mean_high"]],
            "is_lower_bound": lengths["mean_is_lower_bound"],
        },
        "finished_rate": _rate(finished_games, games),
        "seat_win_rate": [
            {
                "seat": seat,
                "rate": float(seat_wins[seat] / games) if games else math.nan,
                "ci95": [float(v) for v in wilson_interval(int(seat_wins[seat]), games)],
            }
            for seat in range(players)
        ],
        "winner_count": winner_count,
        "seat0_advantage": _seat0_advantage(won, counts),
        "length_median": {
            "value": lengths["median"],
            "ci95": [lengths["median_low"], lengths["median_high"]],
        },
    }
    for metric in tally.metrics:
        if _figure_key(metric) is not None:
            continue
        group = tally.groups[metric.column]
        if metric.kind == "mean":  # a count a game (reveals, uses, damage): never below 0
            value, low, high = _weighted_mean_interval(group.rows[:, 0], group.counts, 0.0)
        else:
            value, low, high = estimate(group.values()[:, 0], metric.kind, metric.seats)
        metrics[metric.column] = {
            "name": metric.name,
            "unit": "share" if metric.kind in RATE_KINDS else metric.unit,
            "value": value,
            "ci95": [low, high],
        }
    return metrics


#: Normal draws of the seats' win rates behind a balance index's standard error.
SE_DRAWS = 4_000


def _index_se(games: int, rates: np.ndarray, covariance: np.ndarray | None) -> float:
    """The standard deviation of a point's balance index over repeated sweeps: of
    ``1 - (max - min)`` of the seats' win rates drawn from their normal approximation
    (mean ``rates`` ``(n,)``, covariance ``covariance / games`` ``(n, n)``; seeded). Unlike
    its interval's half-width, which covers the largest of several gaps at once, this
    is the index's own noise, which the charts compare the points' differences with.
    """
    if covariance is None or rates.size < 2 or not np.all(np.isfinite(rates)):
        return math.nan
    drawn = rates + seeded_normal(np.asarray(covariance, float) / games, SE_DRAWS, 0)
    return float(np.std(drawn.max(axis=1) - drawn.min(axis=1), ddof=1))


def _weighted_mean_interval(
    values: np.ndarray, counts: np.ndarray, floor: float = -math.inf
) -> tuple[float, float, float]:
    """Mean with a Student t interval of ``counts[k]`` games of value ``values[k]``: the
    same as :func:`balance.stats.intervals.mean_interval` of the games, from their counts, cut at
    ``floor`` as it is.

    Parameters
    ----------
    values : float ``(R,)``; counts : int ``(R,)``.
    """
    games = int(counts.sum())
    if games == 0:
        return math.nan, math.nan, math.nan
    mean = float(np.dot(values, counts) / games)
    if games < 2:
        return mean, math.nan, math.nan
    variance = float(np.dot(counts, (values - mean) ** 2) / (games - 1))
    half = float(t_quantile(0.975, games - 1) * math.sqrt(variance / games))
    return mean, max(mean - half, floor), mean + half


def _seat0_advantage(won: np.ndarray, counts: np.ndarray) -> dict[str, Any]:
    """Seat 0's win rate minus the mean win rate of all seats, with a Student t interval
    over games of the per-game difference ``won[:, 0] - won.mean(axis=1)``.

    Parameters
    ----------
    won : ``(R, n)``, distinct rows of the seats' wins; counts : int ``(R,)``, games
        with each row.
    """
    if counts.sum() == 0:
        return {"value": math.nan, "ci95": [math.nan, math.nan]}
    per_game = won[:, 0].astype(float) - won.mean(axis=1)
    value, low, high = _weighted_mean_interval(per_game, counts)
    # Each game's value lies within +/-(n - 1) / n: a t interval over few games can
    # reach beyond, and cutting off impossible values only raises the coverage.
    most = (won.shape[1] - 1) / won.shape[1]
    return {"value": float(value), "ci95": [max(float(low), -most), min(float(high), most)]}


def _figure_key(metric: Metric) -> str | None:
    """The headline figure a per-game column carries (None: one of the game's own)."""
    column = metric.column
    if column == "length":
        return "length_mean"
    if column == "finished":
        return "finished_rate"
    seat = re.fullmatch(r"won_(\d+)", column)
    if seat:
        return f"seat_win_rate.{seat.group(1)}"
    winners = re.fullmatch(r"winners_(\d+)", column)
    if winners:
        return f"winner_count.{winners.group(1)}"
    return None


def point_differences(tally: Tally) -> dict[str, dict[str, Any]]:
    """Each figure's paired difference (point - baseline) over the same games, with its
    95% interval and raw p-value, as ``balance compare`` computes them (paired t over
    games; the balance index's from the seat gaps, resampled, its p-value resolved
    below the draws by a Bonferroni bound: see
    :func:`balance.stats.metrics.balance_index_difference`)."""
    result: dict[str, dict[str, Any]] = {}
    won = tally.values(WON).to_numpy(dtype=float)
    n = len(tally.won_columns)
    point_won, base_won = won[:, :n], won[:, n:]
    for metric in tally.metrics:
        column = metric.column
        key = _figure_key(metric) or ""
        if key.startswith("seat_win_rate."):
            seat = int(key.split(".")[1])
            pair = (point_won[:, seat], base_won[:, seat])
        elif key.startswith("winner_count."):
            k = int(key.split(".")[1])
            pair = (point_won.sum(axis=1) == k, base_won.sum(axis=1) == k)
        else:
            values = tally.values(BASE + column)
            pair = (values[column].to_numpy(), values[BASE + column].to_numpy())
        diff = paired_difference(*pair)
        result[_figure_key(metric) or column] = {
            "value": float(diff["difference"]),
            "ci95": [float(diff["low"]), float(diff["high"])],
            "p": float(diff["p"]),
        }
    # Holm runs over every difference of the sweep, thousands of them: the resampled
    # p-value must resolve far below 1 / DRAWS for a difference to be found at all.
    index = balance_index_difference(point_won, base_won, draws=DRAWS, resolve_tail=True)
    result["balance_index"] = {
        "value": float(index["difference"]),
        "ci95": [float(index["low"]), float(index["high"])],
        "p": float(index["p"]),
    }
    return result


# --- the sweep's plan --------------------------------------------------------------


@dataclass
class Plan:
    """Every point of a sweep with its set-up (and its baseline's), validated."""

    game: str
    axes: list[Axis]
    design: str
    values: list[dict[str, str]]
    setups: list[Setup]
    baselines: list[Setup | None]
    spec: dict[str, Any]


def plan_sweep(
    game: str,
    players: Sequence[int] | str | None = None,
    axes: Sequence[str | Axis] = (),
    design: str = "grid",
    points: int | None = None,
    games: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    rotate_seats: bool = False,
    rules: Mapping[str, Any] | Iterable[tuple[str, str]] = (),
    baseline: str | Mapping[str, str] | None = None,
    yes: bool = False,
) -> Plan:
    """Validate a sweep's choices and build every point's set-up (one-line errors)."""
    check_run(games, None, None)
    game, parsed, fixed, rule_names = plan_space(game, players, axes, rules)
    refuse_sampled(parsed)
    chosen = get_game(game)
    if design == "grid" and grid_size(parsed) > MAX_POINTS and not yes:
        raise BalanceError(
            f"the grid has {grid_size(parsed):,} points (more than {MAX_POINTS:,}); "
            "narrow it, use --design lhs/sobol --points N, or add --yes"
        )
    values = design_points(parsed, design, points, seed)
    base_values = (
        parse_assignments(baseline, "--baseline") if isinstance(baseline, str) else baseline
    )
    if base_values:
        for name in base_values:
            if name == PLAYERS:
                raise BalanceError(
                    "--baseline names rules and variants; each point is paired with the "
                    "baseline at its own player count"
                )
            if name != VARIANT and name not in rule_names:
                raise BalanceError(f"--baseline: unknown rule {name!r} for {chosen.id}")
    setups, baselines = [], []
    cache: dict[tuple, Setup] = {}
    for point in values:
        setup = setup_for(chosen.id, point, fixed, seed, strategies, rotate_seats, cache)
        setups.append(setup)
        if base_values:
            paired = {**point, **base_values}
            baselines.append(
                setup_for(chosen.id, paired, fixed, seed, strategies, rotate_seats, cache)
            )
        else:
            baselines.append(None)
    spec = {
        "game": chosen.id,
        "seed": seed,
        "games": games,
        "design": design,
        "points_asked": points,
        "axes": {a.name: list(a.values) for a in parsed},
        "rules": dict(fixed),
        "strategies": list(strategies),
        "rotate_seats": rotate_seats,
        "baseline": dict(base_values or {}),
    }
    return Plan(chosen.id, parsed, design, values, setups, baselines, spec)


def plan_space(
    game: str,
    players: Sequence[int] | str | None,
    axes: Sequence[str | Axis],
    rules: Mapping[str, Any] | Iterable[tuple[str, str]],
) -> tuple[str, list[Axis], list[tuple[str, str]], list[str]]:
    """The space a sweep or a tune explores, checked (one-line errors).

    Returns
    -------
    The game's id; the axes, the player counts first (``--players``, or the game's usual
    count, unless given as an axis); the rules fixed everywhere as ``(name, text)``; the
    game's rule names.
    """
    chosen = get_game(game)
    parsed = [parse_axis(a) if isinstance(a, str) else a for a in axes]
    if any(a.kind == PLAYERS for a in parsed):
        if players is not None:
            raise BalanceError("give the player counts once: --players or --axis players=...")
    else:
        if players is None:
            count = chosen.min_players if chosen.min_players == chosen.max_players else 4
            players = [count]
        text = players if isinstance(players, str) else ",".join(str(p) for p in players)
        parsed.insert(0, players_axis(text))
    rule_names = list(chosen.default_rules().to_dict())
    check_axes(parsed, rule_names, chosen.id)
    fixed = list(rules.items()) if isinstance(rules, Mapping) else list(rules)
    fixed = [(str(k), str(v)) for k, v in fixed]
    for name, _ in fixed:
        if any(a.name == name for a in parsed):
            raise BalanceError(f"{name} is both swept (--axis) and fixed (--rule); pick one")
    return chosen.id, parsed, fixed, rule_names


def setup_for(
    game: str,
    point: Mapping[str, str],
    fixed: list[tuple[str, str]],
    seed: int,
    strategies: Sequence[str],
    rotate_seats: bool,
    cache: dict[tuple, Setup],
) -> Setup:
    key = tuple(sorted(point.items()))
    if key in cache:
        return cache[key]
    variants: tuple[str, ...] = ()
    rules = list(fixed)
    for name, text in point.items():
        if name == VARIANT:
            spec = parse_variant(text)
            variants = spec.variants
            rules += list(spec.rules)
        elif name != PLAYERS:
            rules.append((name, text))
    try:
        setup = make_setup(
            game, int(point[PLAYERS]), seed, strategies, variants, rules, rotate_seats
        )
    except BalanceError as error:
        shown = ", ".join(f"{k}={v}" for k, v in point.items())
        raise BalanceError(f"{error} (at the point {shown})") from None
    cache[key] = setup
    return setup


# --- playing -----------------------------------------------------------------------


#: Plays tasks (a list, or with --precision a stream that skips stopped points' blocks).
Backend = Callable[[Iterable[Task], Callable[[Task, Tally], None], Callable[[], bool]], None]


def run_local(threads: int | None) -> Backend:
    """A backend that plays tasks on ``threads`` local threads (the compiled game loops
    release the GIL), handing each tally back on the calling thread."""

    def run(
        tasks: Iterable[Task], on_result: Callable[[Task, Tally], None], stop: Callable[[], bool]
    ) -> None:
        workers = threads or default_threads()
        queue = iter(tasks)
        pool = ThreadPoolExecutor(workers, "balance-sweep", initializer=_ignore_ctrl_c_here)
        running: dict[Future[Tally], Task] = {}

        def fill() -> None:
            """Keep two tasks a thread in flight (a stream may have none to give for a
            while: a tune's open candidates all have their next blocks in flight)."""
            while len(running) < workers * 2:
                task = next(queue, None)
                if task is None:
                    return
                future = pool.submit(play_tally, task.setup, task.start, task.size, task.baseline)
                running[future] = task

        try:
            fill()
            while running:
                done, _ = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in done:
                    task = running.pop(future)
                    on_result(task, future.result())
                if not stop():
                    fill()
                if stop():
                    for future in running:
                        future.cancel()
                    running = {f: t for f, t in running.items() if not f.cancelled()}
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    return run


class Tracker(Protocol):
    """Follows a point's blocks in game order and says when it has seen enough."""

    def update_tally(self, tally: Tally) -> None: ...
    def done(self) -> bool: ...
    def finish(self) -> None: ...


class BlockCollector:
    """Collects tallies per point in game order and finishes a point when it is whole,
    or, with trackers (``--precision``, ``balance tune``), when its tracker is done with
    the games so far.

    A tracker sees a point's blocks strictly in game order, so what it decides depends on
    the games alone, never on the order in which threads or workers finished them.
    """

    def __init__(
        self,
        games: int,
        on_point: Callable[[int, Tally], None],
        trackers: Mapping[int, Tracker] | None = None,
    ) -> None:
        self.games = games
        self.on_point = on_point
        self.trackers = trackers if trackers is not None else {}
        self.waiting: dict[int, dict[int, Tally]] = {}
        self.folded: dict[int, Tally] = {}
        self.next_start: dict[int, int] = {}
        self.closed: set[int] = set()
        self.lock = threading.Lock()

    def is_closed(self, point: int) -> bool:
        """True once ``point`` has finished (its later blocks are not needed)."""
        with self.lock:
            return point in self.closed

    def add(self, task: Task, tally: Tally) -> None:
        finished = False
        with self.lock:
            if task.point in self.closed:  # played before the stop was known: not kept
                return
            waiting = self.waiting.setdefault(task.point, {})
            waiting[task.start] = tally
            start = self.next_start.get(task.point, 0)
            tracker = self.trackers.get(task.point)
            # Folded strictly in game order: games 0 .. start - 1 are in ``folded``, so a
            # point stopped early (precision reached) holds a prefix of the games, decided
            # on whole blocks whatever the order in which they were played.
            while start in waiting:
                block = waiting.pop(start)
                previous = self.folded.get(task.point)
                self.folded[task.point] = block if previous is None else merge([previous, block])
                start += block.games
                if tracker is not None:
                    tracker.update_tally(block)
                    if tracker.done():
                        finished = True
                        break
                if start >= self.games:
                    finished = True
                    break
            self.next_start[task.point] = start
            if finished:
                if tracker is not None:
                    tracker.finish()
                done = self.folded.pop(task.point)
                self.waiting.pop(task.point, None)
                self.closed.add(task.point)
        if finished:
            self.on_point(task.point, done)


class _SeatFeed:
    """A ``--precision`` point's :class:`SeatTracker`, fed from tallies."""

    def __init__(self, tracker: SeatTracker) -> None:
        self.tracker = tracker

    def update_tally(self, tally: Tally) -> None:
        self.tracker.update_counts(tally.games, *_wins(tally))

    def done(self) -> bool:
        return self.tracker.done()

    def finish(self) -> None:
        self.tracker.finish()


def _wins(tally: Tally) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's wins in a tally's games, float ``(players,)``, and the games each pair
    of seats both won, ``(players, players)``."""
    core = tally.groups[CORE]
    index = [core.columns.index(c) for c in tally.won_columns]
    won = core.rows[:, index]
    counted = won * core.counts[:, None]
    return counted.sum(axis=0), won.T @ counted


def sweep(
    game: str,
    players: Sequence[int] | str | None = None,
    axes: Sequence[str | Axis] = (),
    design: str = "grid",
    points: int | None = None,
    games: int | None = None,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    rotate_seats: bool = False,
    rules: Mapping[str, Any] | Iterable[tuple[str, str]] = (),
    baseline: str | Mapping[str, str] | None = None,
    targets: Sequence[str | Target] = (),
    threads: int | None = None,
    block: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    charts: bool = True,
    yes: bool = False,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
) -> SweepResult:
    """Play every point of a design on the same games and report each point's figures.

    Parameters
    ----------
    game : the game's id.
    players : player counts (a list, or text such as ``"3,4,5"`` or ``"3..5"``);
        default the game's usual count. Or give ``players=...`` as an axis.
    axes : ``NAME=V1,V2``, ``NAME=LO..HI``, ``NAME=A;B`` (values holding commas) or
        ``variant=base,kraken,ghost+dolphin``; see :func:`balance.analyses.sweep_design.parse_axis`.
    design : ``grid`` (every combination), ``lhs`` or ``sobol`` (``points`` points).
    games : games a point plays: indices ``0 .. games - 1`` of ``seed`` at every point
        (default 10,000; not with ``precision``, which decides each point's games).
    rules : rules fixed at every point.
    baseline : ``NAME=V,...``: each point's paired difference from the point with these
        values (its other values its own), Holm's correction over the sweep.
    targets : bands such as ``balance_index>=0.97`` or ``length_mean=6..10``.
    threads : local threads (default all cores); ignored on a Dask cluster.
    block : games a task plays (default :data:`DEFAULT_BLOCK`); the results do not
        depend on it.
    scheduler : ``tcp://HOST:PORT`` of a Dask scheduler (default: the environment's
        ``DASK_SCHEDULER_ADDRESS``; neither: local threads).
    out : write ``sweep.parquet``, ``sweep.csv``, ``sweep.json``, ``manifest.json``, the
        charts (PNG) and ``sweep.pdf`` here; each point's tally is kept under ``points/``
        as it finishes, so that ``resume`` plays only the missing points.
    precision : play each point block by block (``block`` games, default
        :data:`balance.run.precision.BLOCK`, in game order) until its seat win rates and
        balance index have 95% anytime-valid intervals at most this far either side,
        or ``max_games`` (default :data:`balance.run.precision.DEFAULT_MAX_GAMES`). A point
        stops where ``balance simulate --precision`` with its rules, seed and block size
        would.

    Returns
    -------
    SweepResult, with the tidy table (``.table``) and the verdicts (``.verdicts``).
    """
    if precision is not None:
        if games is not None:
            raise BalanceError(
                "--games and --precision exclude each other: with --precision each point "
                "plays until precise enough (--max-games caps its games)"
            )
        max_games = DEFAULT_MAX_GAMES if max_games is None else max_games
        check_precision(precision, max_games)
        games = max_games
    elif max_games is not None:
        raise BalanceError("--max-games goes with --precision; without it, use --games")
    games = DEFAULT_GAMES if games is None else games
    plan = plan_sweep(
        game,
        players,
        axes,
        design,
        points,
        games,
        seed,
        strategies,
        rotate_seats,
        rules,
        baseline,
        yes,
    )
    parsed_targets = [parse_target(t) if isinstance(t, str) else t for t in targets]
    if block is not None and (isinstance(block, bool) or not 1 <= block <= 10**7):
        raise BalanceError(f"--block must be from 1 to 10000000 games, not {block}")
    if threads is not None and not 1 <= threads <= 1024:
        raise BalanceError(f"threads must be from 1 to 1024, not {threads}")
    block = block or (PRECISION_BLOCK if precision is not None else DEFAULT_BLOCK)
    if precision is not None:
        plan.spec["precision"] = precision
        plan.spec["max_games"] = max_games
        plan.spec["block"] = block  # the stop, hence the games, depends on it
    address = scheduler_address(scheduler)
    out_dir = Path(out) if out is not None else None
    done: dict[int, Tally] = {}
    anytime: dict[int, dict[str, Any]] = {}
    if out_dir is not None:
        done = prepare_out(out_dir, plan.spec, resume)
        if precision is not None:
            anytime = {p: _load_anytime(out_dir, p) for p in done}
    elif resume:
        raise BalanceError("--resume needs the --out directory of the sweep to resume")

    trackers = {
        point: SeatTracker(setup.players, precision)
        for point, setup in enumerate(plan.setups)
        if precision is not None and point not in done
    }
    finished: dict[int, Tally] = dict(done)

    def on_point(point: int, tally: Tally) -> None:
        finished[point] = tally
        if point in trackers:
            anytime[point] = anytime_of(trackers[point])
        if out_dir is not None:
            if point in anytime:
                write_json(out_dir / POINTS_DIR / f"{point:05d}.json", anytime[point])
            save_tally(out_dir / POINTS_DIR / f"{point:05d}.npz", tally)

    collector = BlockCollector(games, on_point, {p: _SeatFeed(t) for p, t in trackers.items()})
    todo = [p for p in range(len(plan.setups)) if p not in done]

    def stream() -> Iterable[Task]:
        """Every point's tasks in game order; a point's are no longer handed out once it
        has stopped (``--precision``)."""
        for point in todo:
            setup, base = plan.setups[point], plan.baselines[point]
            for start in range(0, games, block):
                if collector.is_closed(point):
                    break
                yield Task(point, start, min(block, games - start), setup, base)

    tasks: Sequence[Task] | Iterable[Task]
    tasks = stream() if precision is not None else list(stream())
    if address:
        from balance.analyses.cluster import run_dask

        backend_name = "dask"
        backend: Backend = run_dask(address, plan.setups[0])
    else:
        backend_name = "local"
        backend = run_local(threads)
    if todo and not address:
        chosen = get_game(plan.game)
        if on_compile and not chosen.is_compiled(plan.setups[0]):
            on_compile(
                "compiling the game engine (first run only; later runs load it from the cache)..."
            )
        chosen.prepare(plan.setups[0])
    bar = _progress(len(tasks) if isinstance(tasks, list) else None, progress)
    clock = time.perf_counter()
    with _deferred_interrupt() as interrupted, one_blas_thread():
        try:
            backend(tasks, lambda t, tally: (collector.add(t, tally), bar.update(1)), interrupted)
        except KeyboardInterrupt:
            pass
        finally:
            bar.close()
    elapsed = time.perf_counter() - clock
    played = sum(finished[p].games for p in finished if p not in done)
    result = build_result(plan, finished, parsed_targets, backend_name, elapsed, anytime)
    result.played_games = played
    result.partial = len(finished) < len(plan.values)
    if out_dir is not None:
        write_sweep(result, plan, out_dir, charts=charts)
    if not result.points:
        from balance.core.errors import Interrupted

        raise Interrupted("interrupted before any point had played all its games")
    return result


def _progress(total: int | None, show: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="task", delay=2.0, disable=not show, leave=False)


def build_result(
    plan: Plan,
    finished: Mapping[int, Tally],
    targets: Sequence[Target],
    backend: str,
    elapsed: float,
    anytime: Mapping[int, Mapping[str, Any]] | None = None,
) -> SweepResult:
    """Every finished point's figures, differences (Holm over the sweep) and verdicts.

    ``anytime``: a ``--precision`` sweep's anytime-valid intervals and stop of each point
    (:func:`anytime_of`), which replace the fixed-n intervals of the seats' win rates
    and the balance index (the targets are then decided on them).
    """
    precision = plan.spec.get("precision")
    points: list[dict[str, Any]] = []
    for index in sorted(finished):
        tally = finished[index]
        setup = plan.setups[index]
        entry = point_entry(index, plan.values[index], setup, tally)
        if precision is not None and anytime is not None and index in anytime:
            _apply_anytime(entry, anytime[index])
        if plan.baselines[index] is not None:
            entry["difference"] = point_differences(tally)
            if plan.baselines[index] == setup:
                # The baseline against itself: every difference 0, and no test to count
                # in Holm's correction.
                for figure in entry["difference"].values():
                    figure["p"] = math.nan
        points.append(entry)
    _holm_over_sweep(points)
    for entry in points:
        entry["verdicts"] = {
            t.text: t.verdict(*figure_of(entry["metrics"], t.figure)[1:]) for t in targets
        }
    table = tidy_table(points, plan.axes)
    verdicts = pd.DataFrame(
        [
            {
                **axis_columns(p, plan.axes),
                "target": t.text,
                "figure": t.figure,
                "verdict": p["verdicts"][t.text],
            }
            for p in points
            for t in targets
        ],
        columns=[*axis_column_names(plan.axes), "target", "figure", "verdict"],
    )
    return SweepResult(
        game=plan.game,
        seed=plan.spec["seed"],
        games=plan.spec["games"],
        design=plan.design,
        axes=plan.axes,
        backend=backend,
        elapsed_s=elapsed,
        points=points,
        table=table,
        verdicts=verdicts,
        targets=list(targets),
        requested_points=len(plan.values),
        points_asked=plan.spec["points_asked"],
        baseline=dict(plan.spec["baseline"]),
        precision=precision,
        max_games=plan.spec.get("max_games"),
    )


def point_entry(
    index: int, values: Mapping[str, str], setup: Setup, tally: Tally
) -> dict[str, Any]:
    """A point's JSON: its number, players, swept rules' values, variants, the axis
    values as given, its games and its figures (:func:`point_metrics`)."""
    rules = setup.rules.to_dict()
    return {
        "point": index,
        "players": setup.players,
        "rules": {name: rules[name] for name in values if name not in (PLAYERS, VARIANT)},
        "variants": list(setup.rules.variants),
        "variant_label": values.get(VARIANT),
        "axis_values": dict(values),
        "games": tally.games,
        "metrics": point_metrics(tally, setup.players),
    }


def _holm_over_sweep(points: list[dict[str, Any]]) -> None:
    cells = [(p, key) for p in points for key in p.get("difference", {})]
    if not cells:
        return
    p_values = np.array([p["difference"][key]["p"] for p, key in cells], dtype=float)
    adjusted, significant = holm(p_values)
    for (p, key), adj, sig in zip(cells, adjusted, significant, strict=True):
        p["difference"][key]["p_holm"] = float(adj)
        p["difference"][key]["significant"] = bool(sig)


def _flat_figures(metrics: Mapping[str, Any]) -> list[tuple[str, float, float, float]]:
    rows = []
    for key, node in metrics.items():
        if isinstance(node, list):
            for row in node:
                rows.append((f"{key}.{row['seat']}", row["rate"], *row["ci95"]))
        elif isinstance(node, Mapping) and "ci95" in node:
            rows.append((key, node["value"], *node["ci95"]))
        elif isinstance(node, Mapping):
            for sub, inner in node.items():
                rows.append((f"{key}.{sub}", inner["value"], *inner["ci95"]))
    return rows


def axis_column_names(axes: Sequence[Axis]) -> list[str]:
    """``point``, ``players``, the rule axes and ``variant`` (if swept): a table's first
    columns."""
    names = ["point", PLAYERS, *(a.name for a in axes if a.kind == "rule")]
    return names + ([VARIANT] if any(a.kind == VARIANT for a in axes) else [])


def axis_columns(point: Mapping[str, Any], axes: Sequence[Axis]) -> dict[str, Any]:
    """A point's number and axis values, as :func:`_axis_column_names` names them."""
    row = {"point": point["point"], PLAYERS: point["players"]}
    row.update({a.name: value_text(point["rules"].get(a.name)) for a in axes if a.kind == "rule"})
    if any(a.kind == VARIANT for a in axes):
        row[VARIANT] = point["variant_label"]
    return row


def tidy_table(points: Sequence[Mapping[str, Any]], axes: Sequence[Axis]) -> pd.DataFrame:
    """One row a (point, figure): axis columns, ``figure``, ``value``, ``ci_low``,
    ``ci_high``, ``games``, ``p_holm`` (paired differences, named ``difference.FIGURE``)."""
    rows = []
    for point in points:
        base = axis_columns(point, axes)
        for figure, value, low, high in _flat_figures(point["metrics"]):
            rows.append(
                {
                    **base,
                    "figure": figure,
                    "value": value,
                    "ci_low": low,
                    "ci_high": high,
                    "games": point["games"],
                    "p_holm": math.nan,
                }
            )
        for figure, diff in point.get("difference", {}).items():
            rows.append(
                {
                    **base,
                    "figure": f"difference.{figure}",
                    "value": diff["value"],
                    "ci_low": diff["ci95"][0],
                    "ci_high": diff["ci95"][1],
                    "games": point["games"],
                    "p_holm": diff.get("p_holm", math.nan),
                }
            )
    columns = [*axis_column_names(axes), "figure", "value", "ci_low", "ci_high", "games", "p_holm"]
    return pd.DataFrame(rows, columns=columns)


# --- on disk -----------------------------------------------------------------------


def prepare_out(
    out_dir: Path,
    spec: Mapping[str, Any],
    resume: bool,
    parts: str = POINTS_DIR,
    what: str = "sweep",
) -> dict[int, Tally]:
    """Make ``out_dir`` ready; with ``resume``, the tallies of the points (``parts``)
    already played, after checking that the ``what`` there was asked the same."""
    manifest_path = out_dir / MANIFEST
    output_dir(out_dir, create=not resume)
    if resume:
        if not manifest_path.exists():
            raise BalanceError(f"--resume: no {what} in {out_dir} (no {MANIFEST})")
        try:
            old = json.loads(manifest_path.read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise BalanceError(f"--resume: cannot read {manifest_path}: {error}") from None
        mine = json_safe(dict(spec))
        theirs = {k: old.get("spec", {}).get(k) for k in mine}
        if theirs != mine:
            changed = [k for k in mine if theirs.get(k) != mine[k]]
            raise BalanceError(
                f"--resume: the {what} in {out_dir} differs in {', '.join(changed)}; "
                "resume it with the same choices, or write to a new --out"
            )
        done = {}
        for path in sorted((out_dir / parts).glob("*.npz")):
            done[int(path.stem)] = load_tally(path)
        return done
    if (out_dir / parts).exists():
        shutil.rmtree(out_dir / parts)
    (out_dir / parts).mkdir(parents=True, exist_ok=True)
    write_json(manifest_path, {"spec": json_safe(dict(spec)), "complete": False})
    return {}


def save_tally(path: Path, tally: Tally) -> None:
    meta = {
        "groups": {name: list(group.columns) for name, group in tally.groups.items()},
        "won_columns": list(tally.won_columns),
        "metrics": [m.__dict__ for m in tally.metrics],
    }
    arrays = {}
    for k, group in enumerate(tally.groups.values()):
        arrays[f"rows_{k}"] = group.rows
        arrays[f"counts_{k}"] = group.counts
    partial = path.with_suffix(".tmp.npz")
    np.savez(partial, meta=np.array(json.dumps(meta)), **arrays)
    partial.replace(path)  # a point on disk is whole


def _load_anytime(out_dir: Path, point: int) -> dict[str, Any]:
    """A resumed ``--precision`` point's anytime-valid intervals and stop."""
    path = out_dir / POINTS_DIR / f"{point:05d}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise BalanceError(f"--resume: cannot read {path}: {error}") from None


def load_tally(path: Path) -> Tally:
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        groups = {
            name: Group(tuple(columns), data[f"rows_{k}"], data[f"counts_{k}"])
            for k, (name, columns) in enumerate(meta["groups"].items())
        }
        return Tally(
            groups,
            tuple(Metric(**m) for m in meta["metrics"]),
            tuple(meta["won_columns"]),
        )


def write_sweep(result: SweepResult, plan: Plan, out_dir: Path, charts: bool = True) -> None:
    """The tidy table (Parquet, CSV), the JSON, the manifest, the charts and the PDF."""
    output_dir(out_dir)
    result.table.to_parquet(out_dir / "sweep.parquet", index=False)
    result.table.to_csv(out_dir / "sweep.csv", index=False)
    write_json(out_dir / "sweep.json", result.to_json())
    if not result.verdicts.empty:
        result.verdicts.to_csv(out_dir / "verdicts.csv", index=False)
    write_json(
        out_dir / MANIFEST,
        {
            "spec": json_safe(dict(plan.spec)),
            "complete": not result.partial,
            "points_done": len(result.points),
            "points": len(plan.values),
            "targets": [t.text for t in result.targets],
            "backend": result.backend,
            "version": __version__,
            "rerun": "balance sweep with the choices in spec (axes, rules, design, games, "
            "seed); --resume on this directory plays only the missing points",
        },
    )
    if charts and result.points:
        from balance.analyses.sweep_charts import write_sweep_charts

        write_sweep_charts(result, out_dir)


__all__ = [
    "DESIGNS",
    "SweepResult",
    "plan_sweep",
    "point_metrics",
    "sweep",
]


def keep_point_runs(result: SweepResult, out: str | Path, threads: int | None = None) -> None:
    """Save every point's per-game records under ``out/runs/NNNNN`` (``--keep-runs``).

    The records are played again locally, from the same seed and game indices, so they
    are the games the sweep tallied (a point equals ``balance simulate`` of its rules).
    """
    from balance.run.play import simulate

    spec = json.loads((Path(out) / MANIFEST).read_text())["spec"]
    for point in result.points:
        values = point["axis_values"]
        variants: list[str] = []
        rules = list(spec["rules"].items())
        for name, text in values.items():
            if name == VARIANT:
                parsed = parse_variant(text)
                variants += parsed.variants
                rules += list(parsed.rules)
            elif name != PLAYERS:
                rules.append((name, text))
        simulate(
            result.game,
            players=point["players"],
            games=point["games"],
            seed=result.seed,
            strategies=spec["strategies"],
            variants=variants,
            rules=rules,
            rotate_seats=spec["rotate_seats"],
            threads=threads,
            out=Path(out) / "runs" / f"{point['point']:05d}",
            keep_records=False,
        )
