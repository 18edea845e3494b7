"""A tune's report: the findings in plain words, the explored space with its verdicts, and
the games each candidate cost.

The PDF opens with the findings (:func:`findings_lines`): the warnings, then the
designer's question answered in sentences. As everywhere in balance, a dataset function
(tested) computes what a chart shows and a ``plot_*`` function draws only that. The
verdict map follows the tuned axes (rule and variant axes with more than one value, and
sampled ranges; one page per player count):

* none or one: a strip of each candidate's verdict along the axis, above one panel a
  target with the targeted figure, its interval and the band shaded;
* two or more, all listed: a map of the first two, one cell a rule set, coloured by its
  verdict and labelled with its games (one page per value of the other axes, up to
  :data:`MAX_MAP_PAGES`);
* a sampled range (the optimiser's) or a grid too large for labelled cells: the raced
  rule sets as points in the plane of the first two, numbered in proposal order, over
  the whole space, so that what was never raced shows as empty.

Then the games each candidate took (a bar each, log scale, the ``--max-games`` cap
drawn) and the tune as the terminal prints it. The verdicts keep apart in grey-scale
print: pass is dark and round, fail light and crossed, undecided white, hatched and
marked ``?``.
"""

from __future__ import annotations

import itertools
import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from balance.analyses.sweep import axis_column_names, axis_columns
from balance.analyses.sweep_charts import room_for_caption
from balance.analyses.sweep_design import PLAYERS, Axis, Target, figure_of
from balance.analyses.tune_race import ERROR, changed_rules
from balance.core.formatting import rule_value
from balance.games import get_game
from balance.reports.charts import (
    WIDTH,
    Chart,
    caption,
    findings_page,
    flag,
    keep,
    new_axes,
    title_page,
    write_charts,
)
from balance.reports.views import Table, View
from balance.stats.caveats import warning_lines

if TYPE_CHECKING:
    from balance.analyses.tune import TuneResult

VERDICTS = ("pass", "fail", "undecided")
#: How each verdict is drawn: dark blue and round, light orange and crossed, white,
#: hatched and ``?``: apart by lightness and shape as well as hue.
STYLE: dict[str, dict[str, Any]] = {
    "pass": {"face": "#2166ac", "hatch": "", "marker": "o", "ink": "white", "size": 6},
    "fail": {"face": "#f4a582", "hatch": "", "marker": "X", "ink": "black", "size": 7},
    "undecided": {"face": "white", "hatch": "///", "marker": "$?$", "ink": "black", "size": 8},
}
#: Where a cell holds no raced rule set.
NOT_RACED = "0.93"
#: Verdict-map pages at most (one a player count and value of the axes past two).
MAX_MAP_PAGES = 12
#: Cells a labelled verdict map holds at most; a larger grid is drawn as points.
MAX_CELLS = 150
#: Rule sets named one by one on the findings page, of each kind.
SHOWN = 3


# --- what the charts show ----------------------------------------------------------


def verdict_frame(result: TuneResult) -> pd.DataFrame:
    """One row a raced candidate, in candidate (proposal) order.

    Returns
    -------
    DataFrame: the axis columns (``point``, ``players``, each rule axis, ``variant``),
    ``verdict``, ``games``, ``decided_by`` (the target that dropped it, or None),
    ``capped_by`` (``max_games`` or ``budget`` for an undecided one), ``changes`` (rule
    changes from the defaults), ``rank`` (among those that pass), ``needs`` (about how
    many games in all would decide an undecided one; NaN when unknown or decided), and for
    each targeted figure ``F``: ``F``, ``F_low``, ``F_high`` (its anytime-valid interval).
    """
    figures = list(dict.fromkeys(t.figure for t in result.targets))
    rows = []
    for point in result.points:
        row = axis_columns(point, result.axes)
        row.update(
            verdict=point["verdict"],
            games=point["games"],
            decided_by=point["decided_by"],
            capped_by=point.get("capped_by"),
            changes=point["changes"],
            rank=point["rank"],
            needs=_needed(point),
        )
        for name in figures:
            target = next(t for t in result.targets if t.figure == name)
            row[name] = figure_of(point["metrics"], name)[0]
            row[f"{name}_low"], row[f"{name}_high"] = point["intervals"][target.text]
        rows.append(row)
    columns = [
        *axis_column_names(result.axes),
        "verdict",
        "games",
        "decided_by",
        "capped_by",
        "changes",
        "rank",
        "needs",
        *(f"{name}{end}" for name in figures for end in ("", "_low", "_high")),
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame["rank"] = frame["rank"].astype("Int64")
    frame["needs"] = frame["needs"].astype(float)
    return frame


def _needed(point: Mapping[str, Any]) -> float:
    """The most games any open target of an undecided candidate would need (NaN if none
    can say)."""
    wanted = [n["games"] for n in point.get("needs", {}).values() if n.get("games")]
    return float(max(wanted)) if wanted else math.nan


def map_axes(axes: Sequence[Axis]) -> list[Axis]:
    """The axes a verdict map spreads the candidates over: rule and variant axes with
    more than one value, and sampled ranges."""
    return [a for a in axes if a.kind != PLAYERS and (a.sampled is not None or len(a.values) > 1)]


def positions(result: TuneResult, axis: Axis) -> np.ndarray:
    """Each candidate's place along ``axis`` (candidate order): a listed value's index, a
    sampled range's number.

    Returns
    -------
    float ``(N,)``.
    """
    if axis.kind == PLAYERS:
        values = sorted({str(p["players"]) for p in result.points}, key=int)
        return np.array([values.index(str(p["players"])) for p in result.points], float)
    texts = [p["axis_values"][axis.name] for p in result.points]
    if axis.sampled is not None:
        return np.array([float(t) for t in texts])
    return np.array([axis.values.index(t) for t in texts], float)


def _tick_labels(result: TuneResult, axis: Axis) -> list[str]:
    if axis.kind == PLAYERS:
        return sorted({str(p["players"]) for p in result.points}, key=int)
    return list(axis.values)


def map_pages(result: TuneResult) -> list[tuple[str, str, np.ndarray]]:
    """How the candidates are spread over the verdict map's pages: one page a player
    count and (on a map of listed values) a combination of the values of the axes past
    the first two; at most :data:`MAX_MAP_PAGES`.

    Returns
    -------
    ``(suffix, heading, rows)`` a page: a file-name suffix (``""`` for a single page), the
    page's words (``5 players, ghost=true``) and bool ``(N,)``, its candidates.
    """
    dims = map_axes(result.axes)
    players = np.array([p["players"] for p in result.points])
    counts = sorted(set(players.tolist()))
    # Past two axes, a map of listed values splits by theirs; points are projected.
    split = dims[2:] if len(dims) > 2 and _labelled(dims) else []
    pages = []
    for count in counts:
        for combo in itertools.product(*(a.values for a in split)):
            rows = players == count
            for axis, value in zip(split, combo, strict=True):
                rows &= np.array([p["axis_values"][axis.name] == value for p in result.points])
            if not rows.any():
                continue
            words = [f"{count} players"] + [
                f"{a.name}={v}" for a, v in zip(split, combo, strict=True)
            ]
            pages.append((_slug(words), ", ".join(words), rows))
    if len(pages) == 1:
        return [("", pages[0][1], pages[0][2])]
    return pages[:MAX_MAP_PAGES]


def _labelled(dims: Sequence[Axis]) -> bool:
    """A map of labelled cells: every axis listed (a sampled one would put many rule sets
    in a cell) and the first two's grid small enough."""
    cells = math.prod(len(a.values) for a in dims[:2])
    return all(a.sampled is None for a in dims) and cells <= MAX_CELLS


def _slug(words: Sequence[str]) -> str:
    text = "-".join(w.replace(" players", "p") for w in words)
    return re.sub(r"[^A-Za-z0-9=.+-]+", "-", text).replace("=", "-").strip("-")


def games_text(games: float) -> str:
    """A number of games as a cell label: ``512``, ``9.2k``, ``56k``, ``1.2M``."""
    if not math.isfinite(games):
        return "?"
    if games < 1_000:
        return f"{games:.0f}"
    if games < 10_000:
        return f"{games / 1e3:.1f}".rstrip("0").rstrip(".") + "k"
    if games < 1_000_000:
        return f"{games / 1e3:.0f}k"
    return f"{games / 1e6:.1f}".rstrip("0").rstrip(".") + "M"


# --- the findings --------------------------------------------------------------------


def tune_warnings(result: TuneResult) -> list[str]:
    """What can make the verdicts mean less than they seem, each line ``warning: ...``:
    random players, games stopped at the length cap, an interrupted tune."""
    found = []
    if set(result.strategies) == {"random"}:
        found.append(
            "every seat plays at random: the figures, and so the verdicts, are random "
            "play's, not a table of thoughtful players' (--strategy)"
        )
    capped = [p for p in result.points if p.get("warnings")]
    if len(capped) == 1:
        p = capped[0]
        text = p["warnings"][0].removeprefix("warning: ")
        found.append(f"candidate {p['point']} ({_rule_set(result, p)}): {text}")
    elif capped:
        numbers = ", ".join(str(p["point"]) for p in capped[:10])
        more = f" and {len(capped) - 10} more" if len(capped) > 10 else ""
        found.append(
            f"{len(capped)} of {len(result.points)} candidates (numbers {numbers}{more}) "
            "stopped at least 5% of their games unfinished at the length cap: nobody won "
            "those games, so their seats' win rates count them as losses, the balance "
            "index looks fairer than play is and the mean length is the cap's"
        )
    if result.partial:
        found.append(
            f"the tune was interrupted: only the {len(result.points)} candidates decided "
            "so far are below (--resume --out DIR races the rest)"
        )
    return warning_lines(found)


def findings_lines(result: TuneResult) -> list[str]:
    """The tune in plain sentences: its warnings first (``warning: ...``), then the
    designer's question, how much of the space was raced, the verdicts' counts, the best
    rule sets that pass (or, when none does, the closest one and why it missed), what the
    undecided ones would need, what the verdicts guarantee and the games spent."""
    return [*tune_warnings(result), *_findings(result)]


def _findings(result: TuneResult) -> list[str]:
    points = result.points
    counts = {v: sum(p["verdict"] == v for p in points) for v in VERDICTS}
    explored = result.explored
    lines = [
        f"Which rule sets of {_space_text(result)} meet {_targets_text(result.targets)}?",
        _explored_sentence(result),
        f"Of the {len(points):,} raced, {counts['pass']:,} pass every target, "
        f"{counts['fail']:,} fail one and {counts['undecided']:,} are undecided.",
    ]
    feasible = sorted((p for p in points if p["verdict"] == "pass"), key=lambda p: p["rank"])
    if feasible:
        best = feasible[0]
        lines.append(
            f"The best is {_rule_set(result, best)}: {_changes_text(result, best)}, "
            f"{_intervals_text(result, best)}, after {best['games']:,} games. The ranking: "
            "fewest rule changes from the game's defaults, then "
            + (
                "closest to the middle of the two-sided bands."
                if any(math.isfinite(t.low) and math.isfinite(t.high) for t in result.targets)
                else "candidate number."
            )
        )
        for p in feasible[1:SHOWN]:
            lines.append(
                f"Next, {p['rank']}. {_rule_set(result, p)}: {_changes_text(result, p)}, "
                f"{_intervals_text(result, p)}, after {p['games']:,} games."
            )
        if len(feasible) > SHOWN:
            lines.append(
                f"And {len(feasible) - SHOWN:,} more pass (tune.json lists them all, best first)."
            )
    else:
        closest = result.closest()
        lines.append(
            "No rule set raced meets every target"
            + (
                "."
                if closest is None
                else f"; the closest was {_rule_set(result, closest)} (candidate "
                f"{closest['point']}): {_intervals_text(result, closest)}, "
                f"{_because(result, closest)}."
            )
        )
    fails = [p for p in points if p["verdict"] == "fail"]
    if fails:
        by = {t.text: sum(p["decided_by"] == t.text for p in fails) for t in result.targets}
        games = [p["games"] for p in fails]
        lines.append(
            f"The {len(fails):,} that fail were dropped as soon as one target's interval lay "
            f"outside its band, after {_span(games)} games: "
            + "; ".join(f"{n:,} outside {t}" for t, n in by.items() if n)
            + "."
        )
    lines += _undecided_sentences(result)
    same = [p for p in points if p.get("same_games_as") is not None]
    if same:
        groups = len({p["same_games_as"] for p in same})
        lines.append(
            f"{len(same):,} of the rule sets raced play exactly the games of another "
            f"(same_games_as in tune.json; {groups:,} such groups): their rules differ only "
            "where these games never go, so they are one rule set to the game."
        )
    decided = counts["pass"] + counts["fail"]
    lines.append(
        f"Each verdict is wrong with at most {ERROR:.0%} chance (95% anytime-valid "
        "intervals"
        + (
            f", the {ERROR:.0%} split over a candidate's {len(result.targets)} targets"
            if len(result.targets) > 1
            else ""
        )
        + "), for each candidate alone, not "
        f"all at once: of the {decided:,} decided, expect up to {_about(ERROR * decided)} "
        f"({ERROR:.0%}) to be wrong, so play the chosen rule set again before trusting it."
    )
    games = [p["games"] for p in points]
    played = (
        f"; {result.games_played:,} were played, the rest in blocks still running when "
        "their candidate was decided"
        if result.games_played > result.games_total
        else ""
    )
    lines.append(
        f"{result.games_total:,} games in all decided these verdicts ({_span(games)} a "
        f"candidate, in blocks of {result.block:,}, game indices from 0 of seed "
        f"{result.seed}; at most {result.max_games:,} a candidate"
        + (f", {result.budget:,} in all" if result.budget is not None else "")
        + f"){played}. {explored.get('candidates', len(points)):,} candidates, "
        f"{result.elapsed_s:.1f} s on the {result.backend} backend."
    )
    return lines


def _about(count: float) -> str:
    """An expected count: two figures below 10 (``0.15``, ``2.4``), whole above."""
    return f"{count:.2g}" if count < 10 else f"{count:,.0f}"


def _space_text(result: TuneResult) -> str:
    """``Walk the Plank for 5 players with plank_max 3..6 × pirates_per_player 2..4, 12
    rule sets,``."""
    title = get_game(result.game).title
    counts = sorted({p["players"] for p in result.points}) or [
        int(v) for a in result.axes if a.kind == PLAYERS for v in a.values
    ]
    players = _or_list([str(c) for c in counts]) + " players"
    swept = [a for a in result.axes if a.kind != PLAYERS]
    size = result.explored.get("space", 0)
    if not swept:
        return f"{title} for {players}"
    axes = " × ".join(f"{a.name} {_values_text(a)}" for a in swept)
    return f"{title} for {players} with {axes}, {size:,} rule set{'s' if size != 1 else ''},"


def _values_text(axis: Axis) -> str:
    if axis.sampled is not None:
        return f"{int(axis.sampled[0])}..{int(axis.sampled[1])} (sampled)"
    if len(axis.values) > 2 and axis.numeric:
        numbers = [int(v) for v in axis.values]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{numbers[0]}..{numbers[-1]}"
    return _or_list(list(axis.values))


def _or_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _targets_text(targets: Sequence[Target]) -> str:
    texts = [t.text for t in targets]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def _explored_sentence(result: TuneResult) -> str:
    e = result.explored
    raced, space = len(result.points), e.get("space", len(result.points))
    if result.search == "grid":
        if raced >= space:
            return f"The tune raced all {space:,} rule sets of the grid."
        return f"The tune raced {raced:,} of the grid's {space:,} rule sets before it stopped."
    why = (
        f" The search stopped when the --budget of {result.budget:,} games ran out."
        if e.get("stopped_by_budget") and result.budget is not None
        else ""
    )
    return (
        f"Optuna's TPE sampler proposed {e.get('proposals', raced):,} rule sets "
        f"({e.get('repeats', 0):,} of them repeats, told their verdict again at no cost); "
        f"the tune raced {raced:,} of the {space:,} in the space ({e.get('share', 0):.1%}). "
        "The rest were never played, so a rule set not raced may meet the targets too." + why
    )


def _rule_set(result: TuneResult, point: Mapping[str, Any]) -> str:
    """``plank_max=4, pirates_per_player=2`` (with the players when they vary)."""
    parts = [f"{name}={rule_value(value)}" for name, value in point["rules"].items()]
    if point.get("variant_label") is not None:
        parts.append(f"variant {point['variant_label']}")
    if len({p["players"] for p in result.points}) > 1 or not parts:
        parts.insert(0, f"{point['players']} players")
    return ", ".join(parts)


def _changes_text(result: TuneResult, point: Mapping[str, Any]) -> str:
    """``the defaults`` or ``2 changes from the defaults (plank_max 3 → 4, ...)``."""
    changed = changed_rules(result.game, point, result.axes)
    if not changed:
        return "the game's defaults"
    n = len(changed)
    return f"{n} change{'s' if n != 1 else ''} from the defaults ({', '.join(changed)})"


def _digits(figure: str) -> int:
    return 2 if figure.startswith("length") else 3


def _intervals_text(result: TuneResult, point: Mapping[str, Any]) -> str:
    """``balance_index 0.994 [0.952, 1.000], length_mean 8.13 [7.99, 8.26]``."""
    parts = []
    for target in result.targets:
        value = figure_of(point["metrics"], target.figure)[0]
        low, high = point["intervals"][target.text]
        d = _digits(target.figure)
        parts.append(f"{target.figure} {value:.{d}f} [{low:.{d}f}, {high:.{d}f}]")
    return ", ".join(dict.fromkeys(parts))


def _span(games: Sequence[int]) -> str:
    low, high = min(games), max(games)
    return f"{low:,}" if low == high else f"{low:,} to {high:,}"


def _because(result: TuneResult, point: Mapping[str, Any]) -> str:
    """Why a candidate that does not pass missed: the target that dropped it, or the
    targets still open and what they need."""
    if point["verdict"] == "fail":
        target = next(t for t in result.targets if t.text == point["decided_by"])
        low, high = point["intervals"][target.text]
        d = _digits(target.figure)
        return (
            f"dropped after {point['games']:,} games because its {target.figure} interval "
            f"[{low:.{d}f}, {high:.{d}f}] lies outside {target.text}"
        )
    return f"undecided after {point['games']:,} games because " + "; ".join(
        f"its {t} interval straddles the band's edge ({_need_text(n)})"
        for t, n in point["needs"].items()
    )


def _need_text(need: Mapping[str, Any]) -> str:
    if need.get("games"):
        return f"about {need['games']:,} games in all would decide it"
    return need.get("reason", "no estimate")


def _undecided_sentences(result: TuneResult) -> list[str]:
    undecided = [p for p in result.points if p["verdict"] == "undecided"]
    if not undecided:
        return []
    by_budget = [p for p in undecided if p.get("capped_by") == "budget"]
    at = (
        f"--max-games ({result.max_games:,} games)"
        if not by_budget
        else "their share of the --budget"
        if len(by_budget) == len(undecided)
        else f"--max-games ({result.max_games:,}) or their share of the --budget"
    )
    lines = [
        f"{len(undecided):,} rule set{' is' if len(undecided) == 1 else 's are'} undecided: "
        f"an interval still straddles a band's edge at {at}."
    ]
    ordered = sorted(undecided, key=lambda p: (math.isnan(_needed(p)), _needed(p), p["point"]))
    for p in ordered[:SHOWN]:
        needs = "; ".join(f"{t}: {_need_text(n)}" for t, n in p["needs"].items())
        lines.append(
            f"Candidate {p['point']} ({_rule_set(result, p)}, {p['games']:,} games): {needs}."
        )
    if len(undecided) > SHOWN:
        lines.append(f"And {len(undecided) - SHOWN:,} more (tune.json: each one's needs).")
    more = [p for p in undecided if math.isfinite(_needed(p))]
    if more:
        top = int(math.ceil(max(_needed(p) for p in more) / result.block) * result.block)
        # "About": two figures, as the games each one needs are given.
        extra = float(f"{sum(max(_needed(p) - p['games'], 0) for p in more):.2g}")
        advice = []
        if top > result.max_games:
            advice.append(f"--max-games {top:,}")
        if by_budget:
            advice.append(f"a --budget about {extra:,.0f} games larger")
        lines.append(
            f"Deciding {'it' if len(more) == 1 else 'them'} would take about {extra:,.0f} "
            "more games in all"
            + (f" (a tune with {' and '.join(advice)})" if advice else "")
            + "; these are estimates from the intervals so far."
        )
    if any(not n.get("games") for p in undecided for n in p["needs"].values()):
        lines.append(
            "A rule set whose figure sits on a band's edge is decided by no practical number "
            "of games: move the band or the rules instead."
        )
    return lines


# --- the charts ----------------------------------------------------------------------


def _verdict_legend(
    ax: Axes, counts: Mapping[str, int], extra: Sequence[tuple[Any, str]] = (), **where: Any
) -> None:
    """The verdicts' patches with their counts (then ``extra`` handles and labels)."""
    from matplotlib.patches import Patch

    handles = [
        Patch(facecolor=STYLE[v]["face"], hatch=STYLE[v]["hatch"], edgecolor="black", lw=0.6)
        for v in VERDICTS
    ]
    labels = [f"{v} ({counts.get(v, 0):,})" for v in VERDICTS]
    ax.legend(
        [*handles, *(h for h, _ in extra)], [*labels, *(t for _, t in extra)], fontsize=8, **where
    )


def _cell_text(row: Mapping[str, Any]) -> str:
    """A cell's words: its verdict (with its rank, the target that dropped it, or what
    it needs) and its games."""
    verdict = row["verdict"]
    if verdict == "pass":
        head = f"pass #{row['rank']}"
    elif verdict == "fail":
        head = "fail\n" + str(row["decided_by"]).split(">")[0].split("<")[0].split("=")[0]
    else:
        needs = row["needs"]
        head = "? undecided\n" + (
            f"needs ~{games_text(needs)}" if math.isfinite(needs) else "on the edge"
        )
    return f"{head}\n{games_text(row['games'])} games"


#: A verdict's shade on the report page's map (grey scale: pass dark, undecided white).
SHADE = {"pass": 1.0, "fail": 0.4, "undecided": 0.0}


def _figures_text(row: Mapping[str, Any], figures: Sequence[str]) -> str:
    """``balance_index 0.994 [0.952, 1.000]; length_mean 8.13 [7.99, 8.26]``."""
    parts = []
    for name in figures:
        d = _digits(name)
        value, low, high = (float(row[name + end]) for end in ("", "_low", "_high"))
        parts.append(f"{name} {value:.{d}f} [{low:.{d}f}, {high:.{d}f}]")
    return "; ".join(parts)


def _verdict_words(row: Mapping[str, Any]) -> str:
    """``pass #1``, ``fail: balance_index>=0.95`` or ``undecided: needs ~40k games``."""
    if row["verdict"] == "pass":
        return f"pass #{row['rank']}"
    if row["verdict"] == "fail":
        return f"fail: {row['decided_by']}"
    needs = row["needs"]
    return "undecided: " + (
        f"needs ~{games_text(needs)} games" if math.isfinite(needs) else "on a band's edge"
    )


def verdict_cells(
    frame: pd.DataFrame, x_axis: Axis, y_axis: Axis, figures: Sequence[str]
) -> pd.DataFrame:
    """The verdict map's cells as the report's page draws them, one row a candidate of
    ``frame`` (:func:`verdict_frame`'s rows with ``x`` and ``y``, :func:`positions`):
    ``x``, ``y`` (the axes' values), ``value`` (the verdict's shade, :data:`SHADE`),
    ``value_text`` (the verdict in words), ``interval_text`` (each targeted figure with
    its anytime-valid interval), ``cell_text`` (the cell's first line in the PDF),
    ``dark`` (a pass: white text), ``point``, ``href`` (``#candidates-<point>``: its row
    of :func:`candidates_table`), ``verdict`` (``pass``, ``fail``, ``undecided``) and
    ``games``."""
    rows = []
    for row in frame.to_dict("records"):
        rows.append(
            {
                "x": x_axis.values[int(row["x"])],
                "y": y_axis.values[int(row["y"])],
                "value": SHADE[row["verdict"]],
                "value_text": _verdict_words(row),
                "interval_text": _figures_text(row, figures),
                "cell_text": _cell_text(row).split("\n")[0],
                "dark": row["verdict"] == "pass",
                "point": int(row["point"]),
                "href": f"#candidates-{int(row['point'])}",
                "verdict": row["verdict"],
                "games": f"{int(row['games']):,}",
            }
        )
    return pd.DataFrame(rows)


def candidates_table(result: TuneResult) -> pd.DataFrame:
    """The report page's table of candidates, one row a raced rule set in proposal order
    (its anchor ``candidates-<point>``): ``point``, the rule set, its verdict (with its
    rank, the target that dropped it, or what it needs), each targeted figure with its
    95% anytime-valid interval, and its games."""
    frame = verdict_frame(result)
    figures = list(dict.fromkeys(t.figure for t in result.targets))
    rows = []
    for point, row in zip(result.points, frame.to_dict("records"), strict=True):
        entry = {
            "point": int(row["point"]),
            "rule set": _rule_set(result, point),
            "verdict": _verdict_words(row),
        }
        for name in figures:
            entry[name] = _figures_text(row, [name]).removeprefix(f"{name} ")
        entry["games"] = int(row["games"])
        rows.append(entry)
    return pd.DataFrame(rows)


def plot_verdict_map(
    frame: pd.DataFrame,
    x_axis: Axis,
    y_axis: Axis,
    *,
    title: str,
    note: str,
    ax: Axes | None = None,
) -> Figure:
    """A cell a rule set of two listed axes, coloured by its verdict and labelled with
    it and its games; cells no candidate raced are grey.

    ``frame`` holds :func:`verdict_frame`'s rows of one page with ``x`` and ``y``, the
    candidates' value indices (:func:`positions`).
    """
    from matplotlib.patches import Rectangle

    fig, ax = new_axes(ax, height=5.5)
    if fig.axes == [ax]:
        room_for_caption(fig, note)
    figures = [c for c in frame.columns if f"{c}_low" in frame and f"{c}_high" in frame]
    keep(
        fig,
        ax,
        View(
            "heatmap",
            title,
            verdict_cells(frame, x_axis, y_axis, figures),
            x_axis.name,
            y_axis.name,
            # As the PDF: the first value at the bottom; the shades of SHADE.
            options={
                "x_order": list(x_axis.values),
                "y_order": list(reversed(y_axis.values)),
                "domain": [0.0, 1.0],
                "interval_title": "95% anytime-valid intervals",
                "legend": False,
            },
        ),
    )
    nx, ny = len(x_axis.values), len(y_axis.values)
    size = 7.5 if nx * ny <= 20 else 6 if nx * ny <= 42 else 4.5
    raced = set()
    for row in frame.to_dict("records"):
        style = STYLE[row["verdict"]]
        x, y = int(row["x"]), int(row["y"])
        raced.add((x, y))
        ax.add_patch(
            Rectangle(
                (x - 0.5, y - 0.5),
                1,
                1,
                facecolor=style["face"],
                hatch=style["hatch"],
                edgecolor="0.35",
                lw=0.8,
            )
        )
        box = {"facecolor": "white", "edgecolor": "none", "pad": 1.2} if style["hatch"] else None
        ax.text(
            x, y, _cell_text(row), ha="center", va="center", fontsize=size, color=style["ink"],
            bbox=box,
        )  # fmt: skip
    for x, y in itertools.product(range(nx), range(ny)):
        if (x, y) not in raced:
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=NOT_RACED, lw=0))
            ax.text(x, y, "not raced", ha="center", va="center", fontsize=size, color="0.4")
    ax.set_xlim(-0.5, nx - 0.5)
    ax.set_ylim(-0.5, ny - 0.5)
    _category_ticks(ax, list(x_axis.values))
    ax.set_yticks(range(ny), list(y_axis.values))
    ax.set_xlabel(x_axis.name)
    ax.set_ylabel(y_axis.name)
    ax.set_title(title)
    counts = frame["verdict"].value_counts().to_dict()
    _verdict_legend(ax, counts, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    caption(fig, note)
    return fig


def plot_verdict_points(
    frame: pd.DataFrame,
    x_axis: Axis,
    y_axis: Axis,
    *,
    title: str,
    note: str,
    ax: Axes | None = None,
) -> Figure:
    """The raced rule sets as points in the plane of two axes (a sampled range or a large
    grid), marked by verdict and numbered in proposal order, over the whole space: a
    listed axis's values as grey rails, a sampled range's ends as the frame, so that the
    rule sets never raced show as empty space.

    ``frame`` holds :func:`verdict_frame`'s rows of one page with ``x`` and ``y``
    (:func:`positions`).
    """
    fig, ax = new_axes(ax, height=5.5)
    if fig.axes == [ax]:
        room_for_caption(fig, note)
    spans = []
    for axis in (x_axis, y_axis):
        if axis.sampled is not None:
            spans.append((axis.sampled[0] - 0.5, axis.sampled[1] + 0.5))
        else:
            spans.append((-0.5, len(axis.values) - 0.5))
    ax.add_patch(
        _box(spans[0], spans[1], facecolor="0.97", edgecolor="0.6", lw=0.8, ls="--", zorder=0)
    )
    for k, axis in enumerate((x_axis, y_axis)):
        if axis.sampled is None and len(axis.values) <= 60:
            for v in range(len(axis.values)):
                line = ax.axvline if k == 0 else ax.axhline
                line(v, color="0.85", lw=0.8, zorder=1)
    labelled = len(frame) <= 300
    font = 6 if len(frame) <= 60 else 4.5
    for verdict in VERDICTS:
        rows = frame[frame["verdict"] == verdict]
        style = STYLE[verdict]
        ax.scatter(
            rows["x"],
            rows["y"],
            s=style["size"] ** 2,
            marker=style["marker"],
            c=style["face"] if verdict != "undecided" else "black",
            edgecolors="black" if verdict != "undecided" else "none",
            linewidths=0.5,
            zorder=3,
            label=f"{verdict} ({len(rows):,})",
        )
    if labelled:
        shown = uncrowded(frame["x"].to_numpy(float), frame["y"].to_numpy(float), spans, font)
        for row in frame[shown].itertuples(index=False):
            ax.annotate(
                str(row.point),
                (row.x, row.y),
                xytext=(3, 2),
                textcoords="offset points",
                fontsize=font,
                color="0.25",
                zorder=4,
            )
    for axis, (low, high), set_lim, set_ticks in (
        (x_axis, spans[0], ax.set_xlim, ax.set_xticks),
        (y_axis, spans[1], ax.set_ylim, ax.set_yticks),
    ):
        room = 0.03 * (high - low)
        set_lim(low - room, high + room)
        if axis.sampled is None:
            step = max(1, len(axis.values) // 15)
            ticks = range(0, len(axis.values), step)
            set_ticks(list(ticks), [axis.values[t] for t in ticks])
    ax.set_xlabel(x_axis.name + (" (sampled)" if x_axis.sampled is not None else ""))
    ax.set_ylabel(y_axis.name + (" (sampled)" if y_axis.sampled is not None else ""))
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), markerscale=1.2)
    caption(fig, note)
    return fig


def uncrowded(
    x: np.ndarray, y: np.ndarray, spans: Sequence[tuple[float, float]], font: float
) -> np.ndarray:
    """Which points (in proposal order) get their number: each one whose label would not
    cover an earlier label, on a plot about 6 by 3.5 inches of the axes' ``spans``.

    Returns
    -------
    bool ``(N,)``.
    """
    (x0, x1), (y0, y1) = spans
    # In inches: a label is about 2.5 digits wide and one line tall.
    u = (x - x0) / max(x1 - x0, 1e-12) * 6.0
    v = (y - y0) / max(y1 - y0, 1e-12) * 3.5
    wide, tall = 2.5 * 0.6 * font / 72, 1.1 * font / 72
    shown = np.zeros(len(x), bool)
    for k in range(len(x)):
        near = (np.abs(u[:k] - u[k]) < wide) & (np.abs(v[:k] - v[k]) < tall) & shown[:k]
        shown[k] = not near.any()
    return shown


def _box(xs: tuple[float, float], ys: tuple[float, float], **style: Any) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((xs[0], ys[0]), xs[1] - xs[0], ys[1] - ys[0], **style)


def plot_verdict_strip(
    frame: pd.DataFrame,
    axis: Axis,
    ticks: Sequence[str],
    targets: Sequence[Target],
    *,
    title: str,
    note: str,
) -> Figure:
    """The candidates along one axis: a strip of their verdicts (with their games) above
    one panel a target, each candidate's figure and anytime-valid interval marked by its
    verdict on that target, the band shaded.

    ``frame`` holds :func:`verdict_frame`'s rows with ``x`` (:func:`positions`) and, for
    each target, ``verdict <target text>``, the candidate's verdict on it.
    """
    height = 2.6 + 1.9 * len(targets)
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    room_for_caption(fig, note)
    panels = fig.subplots(
        1 + len(targets),
        1,
        sharex=True,
        gridspec_kw={"height_ratios": [0.55] + [2.0] * len(targets)},
        squeeze=False,
    )[:, 0]
    strip = panels[0]
    span = axis.sampled  # a sampled range: candidates at their numbers, else at indices
    sampled = span is not None
    width = 0.9 if span is None else max(0.6, (span[1] - span[0]) / 150)
    words = len(frame) <= 16 and not sampled
    for row in frame.to_dict("records"):
        style = STYLE[row["verdict"]]
        strip.bar(
            row["x"],
            1,
            width=width,
            color=style["face"],
            hatch=style["hatch"],
            edgecolor="0.3",
            lw=0.6,
        )
        if words:
            box = {"facecolor": "white", "edgecolor": "none", "pad": 1} if style["hatch"] else None
            label = {"pass": "pass", "fail": "fail", "undecided": "?"}[row["verdict"]]
            strip.text(
                row["x"], 0.5, f"{label}\n{games_text(row['games'])} games", ha="center",
                va="center", fontsize=7, color=style["ink"], bbox=box,
            )  # fmt: skip
    strip.set_ylim(0, 1)
    strip.set_yticks([])
    strip.set_ylabel("verdict", fontsize=8)
    counts = frame["verdict"].value_counts().to_dict()
    _verdict_legend(strip, counts, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    strip.set_title(title)
    for panel, target in zip(panels[1:], targets, strict=True):
        name = target.figure
        values = frame[name].to_numpy(float)
        low, high = frame[f"{name}_low"].to_numpy(float), frame[f"{name}_high"].to_numpy(float)
        x = frame["x"].to_numpy(float)
        panel.vlines(x, low, high, color="0.3", lw=1.2, zorder=2)
        for verdict in VERDICTS:
            here = (frame[f"verdict {target.text}"] == verdict).to_numpy()
            style = STYLE[verdict]
            panel.scatter(
                x[here],
                values[here],
                s=style["size"] ** 2 * 1.3,
                marker=style["marker"],
                c=style["face"] if verdict != "undecided" else "black",
                edgecolors="black" if verdict != "undecided" else "none",
                linewidths=0.6,
                zorder=3,
            )
        if not sampled and len(frame) > 1:
            order = np.argsort(x)
            panel.plot(x[order], values[order], color="0.6", lw=0.8, zorder=1)
        finite = [v for v in (*low, *high, target.low, target.high) if np.isfinite(v)]
        bottom, top = min(finite), max(finite)
        room = 0.08 * (top - bottom or 1.0)
        panel.set_ylim(bottom - room, top + room)
        shade_low = target.low if np.isfinite(target.low) else bottom - room
        shade_high = target.high if np.isfinite(target.high) else top + room
        panel.axhspan(shade_low, shade_high, color="0.5", alpha=0.15, hatch="//", lw=0, zorder=0)
        for edge in (target.low, target.high):
            if np.isfinite(edge):
                panel.axhline(edge, color="0.3", ls="--", lw=0.8, zorder=1)
        panel.set_ylabel(name)
        panel.set_title(f"target {target.text} (shaded); marks: the verdict on it", fontsize=9)
        panel.grid(color="0.92")
    last = panels[-1]
    if span is not None:
        last.set_xlim(span[0] - 1, span[1] + 1)
    else:
        _category_ticks(last, list(ticks))
        last.set_xlim(-0.6, len(ticks) - 0.4)
    last.set_xlabel(axis.name + (" (sampled)" if sampled else ""))
    caption(fig, note)
    return fig


#: Category labels that fit side by side on an axis; more are turned upright and thinned.
FLAT_LABELS = 12
UPRIGHT_LABELS = 40


def _category_ticks(ax: Axes, labels: list[str]) -> None:
    """Label each category along x: flat when few and short, upright when more, and
    only every k-th (the rest unlabelled ticks) when too many to read."""
    ax.set_xticks(range(len(labels)))
    step = max(1, math.ceil(len(labels) / UPRIGHT_LABELS))
    shown = [text if k % step == 0 else "" for k, text in enumerate(labels)]
    longest = max((len(t) for t in labels), default=0)
    upright = len(labels) > FLAT_LABELS or longest * len(labels) > 80
    ax.set_xticklabels(shown, rotation=90 if upright else 0, fontsize=7 if upright else None)


def plot_games(
    frame: pd.DataFrame,
    labels: Sequence[str],
    *,
    max_games: int,
    title: str,
    note: str,
) -> Figure:
    """Games a candidate played before its verdict: one horizontal bar a candidate (the
    first on top, log scale) marked by its verdict, the ``--max-games`` cap drawn.

    ``frame`` holds :func:`verdict_frame`'s rows in candidate order; ``labels`` names
    them.
    """
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    n = len(frame)
    named = n <= 40
    height = max(5.0, 1.9 + (0.2 if named else 0.045) * n) if n <= 200 else 11.0
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    room_for_caption(fig, note)
    ax = fig.add_subplot()
    y = -np.arange(n, dtype=float)
    games = frame["games"].to_numpy(float)
    for verdict in VERDICTS:
        here = (frame["verdict"] == verdict).to_numpy()
        style = STYLE[verdict]
        ax.barh(
            y[here],
            games[here],
            height=0.8,
            color=style["face"],
            hatch=style["hatch"],
            # Crowded bars lose their edges, but for the white undecided ones.
            edgecolor="0.3" if n <= 120 or verdict == "undecided" else "none",
            lw=0.5 if n <= 120 else 0.3,
        )
    if named:
        for yi, g in zip(y, games, strict=True):
            ax.text(g * 1.06, yi, f"{g:,.0f}", va="center", fontsize=6.5)
        ax.set_yticks(y, labels, fontsize=7 if n <= 20 else 5.5)
    else:
        step = max(1, round(n / 30))
        ax.set_yticks(y[::step], [str(p) for p in frame["point"].to_numpy()[::step]], fontsize=6)
        ax.set_ylabel("candidate (proposal order)")
    ax.set_ylim(-n + 0.3, 0.7)
    ax.set_xscale("log")
    low = float(games.min()) if n else 1.0
    top = max(max_games, float(games.max(initial=1.0))) * 1.5
    ax.set_xlim(max(1.0, low / 3), top)
    # Round ticks (1k, 2k, 5k, ...) rather than the blocks' powers of two: they read at once.
    ticks = [m * 10.0**e for e in range(0, 10) for m in (1, 2, 5)]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: games_text(v)))
    cap = ax.axvline(max_games, color="black", ls="--", lw=1.1)
    ax.set_xlabel("games played before the verdict (log scale)")
    ax.set_title(title)
    counts = frame["verdict"].value_counts().to_dict()
    _verdict_legend(
        ax,
        counts,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        extra=[(cap, f"--max-games\n({max_games:,})")],
    )
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)
    caption(fig, note)
    return fig


def _method_note(result: TuneResult) -> str:
    cap = f"--max-games ({result.max_games:,})" + (
        f" or its share of the --budget of {result.budget:,}" if result.budget is not None else ""
    )
    return (
        f"Each candidate played blocks of {result.block:,} games (game indices from 0 of seed "
        f"{result.seed}) until every target was decided or {cap}; "
        f"{result.games_total:,} games in all. Verdicts rest on 95% anytime-valid intervals "
        "(betting confidence sequences) for the targeted figures"
        + (f", the {ERROR:.0%} split over a candidate's targets" if len(result.targets) > 1 else "")
        + f": each candidate's verdict is wrong with at most {ERROR:.0%} chance."
    )


def _map_charts(result: TuneResult, frame: pd.DataFrame, first: int) -> list[Chart]:
    """The verdict map's pages, numbered from ``first``."""
    dims = map_axes(result.axes)
    method = _method_note(result)
    targets = _targets_text(result.targets)
    pages = map_pages(result)
    dropped = len(pages) < _page_count(result)
    charts = []
    if len(dims) <= 1:
        if dims:
            axis = dims[0]
        else:  # nothing but the player count varies: lay the candidates along it
            axis = next((a for a in result.axes if a.kind == PLAYERS), Axis(PLAYERS, (), PLAYERS))
        data = frame.assign(x=positions(result, axis))
        for target in result.targets:
            data[f"verdict {target.text}"] = [p["verdicts"][target.text] for p in result.points]
        pages = [("", "", np.ones(len(data), bool))] if not dims else pages
        for k, (suffix, heading, rows) in enumerate(pages):
            name = f"{first + k:02d}-verdicts" + (f"-{suffix}" if suffix else "")
            figure = plot_verdict_strip(
                data[rows],
                axis,
                _tick_labels(result, axis),
                result.targets,
                title=_map_title(targets, heading),
                note=method + " Top: each candidate's verdict and the games it took. Below, "
                "one panel a target: the figure (mark) and its interval (line), the band "
                "shaded; a candidate dropped on one target may be open on another.",
            )
            charts.append(Chart(name, figure))
        return charts
    x_axis, y_axis = dims[0], dims[1]
    data = frame.assign(x=positions(result, x_axis), y=positions(result, y_axis))
    labelled = _labelled(dims)
    rest = [a.name for a in dims[2:]]
    for k, (suffix, heading, rows) in enumerate(pages):
        name = f"{first + k:02d}-verdicts" + (f"-{suffix}" if suffix else "")
        title = _map_title(targets, heading)
        if labelled:
            split = (
                f" One page a value of {', '.join(rest)}."
                + (
                    f" The first {len(pages)} of {_page_count(result)} pages; every "
                    "candidate is in verdicts.csv and on the games page."
                    if dropped
                    else ""
                )
                if rest
                else ""
            )
            figure = plot_verdict_map(
                data[rows],
                x_axis,
                y_axis,
                title=title,
                note=method + " A cell a rule set: its verdict ('pass #k': its rank; 'fail': "
                "the figure whose interval left its band; '?': an interval still straddles a "
                "band's edge, with about the games in all that would decide it) and the "
                "games it took; grey: not raced." + split,
            )
        else:
            projected = f" Projected over {', '.join(rest)}: points may overlap." if rest else ""
            numbered = (
                " Numbers: the proposal order (left out where they would cover another)."
                if len(data[rows]) <= 300
                else " Too many to number; the games page lists them in proposal order."
            )
            figure = plot_verdict_points(
                data[rows],
                x_axis,
                y_axis,
                title=title,
                note=method + f" A point a raced rule set, marked by its verdict.{numbered} "
                "The dashed frame is the space searched (grey lines: a listed axis's "
                "values); where it holds no point, no rule set was raced."
                f" Raced {len(result.points):,} of {result.explored.get('space', 0):,} rule "
                "sets." + projected,
            )
        charts.append(Chart(name, figure))
    return charts


def _map_title(targets: str, heading: str) -> str:
    """``which rule sets meet <targets>`` (wrapped), then the page's heading."""
    return textwrap.fill(f"which rule sets meet {targets}", 75) + (
        f"\n{heading}" if heading else ""
    )


def _page_count(result: TuneResult) -> int:
    """Verdict-map pages before :data:`MAX_MAP_PAGES` cuts them."""
    dims = map_axes(result.axes)
    counts = len({p["players"] for p in result.points})
    if len(dims) > 2 and _labelled(dims):
        seen = {
            (p["players"], *(p["axis_values"][a.name] for a in dims[2:])) for p in result.points
        }
        return len(seen)
    return counts


def tune_charts(result: TuneResult) -> list[Chart]:
    """Every page of a tune's report after the findings: the verdict map, the games each
    candidate took, and the tune as the terminal prints it."""
    frame = verdict_frame(result)
    charts = _map_charts(result, frame, 1)
    labels = [f"{p['point']}: {_rule_set(result, p)}" for p in result.points]
    budget = f" (budget {result.budget:,})" if result.budget is not None else ""
    charts.append(
        Chart(
            f"{len(charts) + 1:02d}-games",
            plot_games(
                frame,
                labels,
                max_games=result.max_games,
                title=f"games spent per candidate: {result.games_total:,} in all{budget}",
                note=_method_note(result) + " A bar a candidate, in proposal order (the "
                "first on top), on a log scale: the games it played before its verdict; "
                "dashed: --max-games, where an open candidate stops undecided.",
            ),
        )
    )
    title = get_game(result.game).title
    charts.append(
        Chart(
            f"{len(charts) + 1:02d}-summary",
            title_page(f"{title}: tune", result.text(limit=20).splitlines()[:60]),
        )
    )
    return charts


def tune_pages(result: TuneResult) -> list[Chart]:
    """The findings page, then :func:`tune_charts`, each with the warnings on top."""
    charts = tune_charts(result)
    warned = tune_warnings(result)
    for chart in charts[:-1]:  # the summary page states the warnings itself
        flag(chart.figure, warned)
    title = get_game(result.game).title
    findings = Chart(
        "00-findings", findings_page(f"{title}: tune, findings", warned, _findings(result))
    )
    return [findings, *charts]


def write_tune_charts(result: TuneResult, directory: Path) -> list[Path]:
    """Each page as a PNG (``00-findings.png``, ``01-verdicts.png``, ..., ``NN-games.png``),
    all of them, the findings first, as ``tune.pdf``, and the report's page,
    ``index.html``, with the candidates' table, in ``directory``."""
    candidates = Table(
        "candidates",
        "Candidates",
        candidates_table(result),
        key="point",
        caption=_method_note(result) + " One row a raced rule set, in proposal order; a "
        "cell of the verdict map links to its row.",
    )
    return write_charts(tune_pages(result), Path(directory), "tune.pdf", tables=[candidates])
