"""A tournament as a designer reads it: text, charts (heat map, ratings, the field) and
files (Parquet, JSON, PNG and PDF). Drawing only: every number comes from a
:class:`balance.analyses.tournament.Tournament`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from balance.analyses.tournament import GAP_METHOD, MATRIX_METHOD, RATING_METHOD, Tournament
from balance.core.formatting import rules_text
from balance.games import get_game
from balance.reports.charts import (
    Chart,
    caption,
    flag,
    keep,
    new_axes,
    plot_intervals,
    title_page,
    write_charts,
)
from balance.reports.views import Table, View
from balance.run.results import output_dir, write_json
from balance.stats.caveats import warning_lines
from balance.stats.intervals import wilson_interval

FILES = (
    "tournament.json",
    "tournament-games.parquet",
    "tournament-matrix.parquet",
    "tournament-ratings.parquet",
    "tournament-pair-gaps.parquet",
    "tournament-pair-gaps.csv",
)


def describe(result: Tournament) -> list[str]:
    """The header lines: what was played, how the seats went, what the numbers rest on."""
    game = get_game(result.game)
    noun = "decks" if result.kind == "decks" else "strategies"
    lines = [
        f"{game.title} tournament: {len(result.contestants)} {noun}, {result.players} players, "
        f"{result.games:,} games a pairing (seed {result.seed})"
        + (f"; interrupted: {result.requested:,} asked" if result.partial else "")
        + ".",
    ]
    if result.kind == "decks":
        lines.append(f"Strategies by seat: {', '.join(result.strategies)}.")
    if result.decks:
        lines.append(
            f"Decks by seat, in every game: seat 0 {result.decks[0]}, seat 1 "
            f"{result.decks[1]}; a contestant's rate in a seat order is its deck's as much "
            "as the seat's."
        )
    if result.players == 2:
        lines.append(
            f"Every pair plays each deal twice, once in each seat order ({result.games // 2:,} "
            "deals); every pair meets the same deals (common random numbers)."
        )
    else:
        lines.append(
            f"Mixed tables: each pair of contestants with {result.players - 2} field "
            f"player(s) ({result.field}); alone against the field: each contestant with "
            f"{result.players - 1} field players. Seats rotated over every order round the "
            "table; every pairing plays the same game indices (common random numbers)."
        )
    return lines


def text(result: Tournament) -> str:
    """The matrix, the ratings and (more than two players) the field, with intervals."""
    names = list(result.contestants)
    width = max(14, *(len(name) + 2 for name in names))
    lines = [
        *warning_lines(result.warnings),
        *describe(result),
        "",
        "Win rate of the row against the column (games the row won and the column did not), "
        f"{MATRIX_METHOD}:",
        "",
        " " * width + "".join(f"{name[:22]:>24}" for name in names),
    ]
    rates, lows, highs = result.square("rate"), result.square("low"), result.square("high")
    for row in names:
        cells = []
        for column in names:
            if row == column:
                cells.append(f"{'-':>24}")
                continue
            rate, low, high = rates.at[row, column], lows.at[row, column], highs.at[row, column]
            cells.append(f"{rate * 100:>8.1f}% [{low * 100:4.1f}, {high * 100:4.1f}]")
        lines.append(f"{row[: width - 2]:<{width}}" + "".join(cells))
    lines += [
        "",
        f"Measured against {result.measured_against}"
        + (
            ": against another field (--field) the ratings and gaps differ."
            if result.players > 2
            else "."
        ),
        f"Ratings ({RATING_METHOD}):",
    ]
    lines += [f"  note: {note}." for note in (result.rating_note, result.rating_misfit) if note]
    for row in result.ratings.sort_values("rating", ascending=False).itertuples():
        rating = (
            f"{row.rating:+8.0f} [{row.low:+.0f}, {row.high:+.0f}]"
            if row.rating == row.rating
            else f"{'n/a':>8}"
        )
        lines.append(
            f"  {row.contestant[:30]:<32}{rating}  from {row.decisive_games:,} decided games"
        )
    lines += ["", f"Pair gaps ({GAP_METHOD}):"]
    for row in result.pair_gaps.itertuples():
        pair = f"{row.contestant[:24]} over {row.against[:24]}"
        lines.append(f"  {pair:<52}{gap_text(row)}")
    if result.players == 2:
        first, second = (f" ({deck})" for deck in result.decks) if result.decks else ("", "")
        lines += [
            "",
            "By seat order (95% Wilson intervals): the row playing first (seat 0), then second"
            + (" (seat 1), with the seat's deck" if result.decks else "")
            + ".",
        ]
        for row in result.matrix.itertuples():
            lines.append(
                f"  {row.contestant[:22]:<22} vs {row.against[:22]:<22} first{first} "
                f"{row.first_rate * 100:5.1f}% [{row.first_low * 100:4.1f}, "
                f"{row.first_high * 100:4.1f}]  second{second} {row.second_rate * 100:5.1f}% "
                f"[{row.second_low * 100:4.1f}, {row.second_high * 100:4.1f}]  "
                f"({row.games_per_seat_order:,} games each)"
            )
    if result.vs_field is not None:
        lines += [
            "",
            f"Alone against the field ({result.field}), win rate with its 95% Wilson interval "
            f"(a fair share is {1 / result.players:.1%} when every game has one winner; games "
            "won by several players, or by none, move an equal player's rate off it):",
        ]
        for row in result.vs_field.itertuples():
            lines.append(
                f"  {row.contestant[:30]:<32}{row.rate * 100:5.1f}% [{row.low * 100:4.1f}, "
                f"{row.high * 100:4.1f}] of {row.games:,} games"
            )
    lines += ["", *neither_lines(result)]
    return "\n".join(lines)


def gap_text(row: Any) -> str:
    """A pair gap in words: ``+412 [+380, +445] from 3,210 decided games (won 91.6%
    [90.5, 92.6])``, ``at least +1,180 ...`` where one side won every decided game, ``n/a``
    with none."""
    decided = int(row.decided)
    if not decided:
        return "n/a (no decided game)"
    won = f"won {_pct(row.share, row.share_low, row.share_high)}"
    if math.isinf(row.gap):
        return f"at least {row.low:+,.0f} (won all {decided:,} decided games)"
    if row.low != row.low:  # one deal held every decided game: no interval
        return f"{row.gap:+,.0f} [n/a] from {decided:,} decided games ({won})"
    return (
        f"{row.gap:+,.0f} [{row.low:+,.0f}, {row.high:+,.0f}] from {decided:,} decided "
        f"games ({won})"
    )


def _pct(share: float, low: float, high: float) -> str:
    return f"{share:.1%} [{low * 100:.1f}, {high * 100:.1f}]"


def neither_lines(result: Tournament) -> list[str]:
    """For each pair, the share of its games neither contestant won (a capped or drawn
    game, or, with more players, a field player's win) and, where any game was, the share
    both won (a shared win), each with its Wilson interval."""
    game = get_game(result.game)
    shared = bool(result.matrix["both"].any())
    if result.players == 2:
        cap = f" at the cap of {result.cap} {game.length_unit}" if result.cap else ""
        head = f"Games neither won (stopped unfinished{cap}, or lost by both)"
    else:
        head = "Games of a mixed table neither of the pair won"
    head += ", and games both won (a shared win)" if shared else ""
    lines = [head + ", 95% Wilson intervals:"]
    shown = set()
    for row in result.matrix.itertuples():
        key = frozenset((row.contestant, row.against))
        if key in shown:
            continue
        shown.add(key)
        line = f"  {row.contestant} and {row.against}: neither {_share(row.neither, row.games)}"
        if shared:
            line += f"; both {_share(row.both, row.games)}"
        lines.append(line + f" of {row.games:,} games")
    return lines


def _share(count: int, games: int) -> str:
    """``3.0% [2.4%, 3.9%]``: a count's share of ``games`` with its Wilson interval."""
    low, high = wilson_interval(count, games)
    return f"{count / games:.1%} [{float(low):.1%}, {float(high):.1%}]"


def pairing_key(contestant: str, against: str) -> str:
    """A pairing's anchor on the report's page: ``random-vs-greedy`` (no blanks)."""
    return "-".join(f"{contestant}-vs-{against}".split())


def matrix_cells(result: Tournament) -> pd.DataFrame:
    """The matrix's cells as the report's page draws them, one row an ordered pair (the
    diagonal has none): ``y`` (the row: its win rate), ``x`` (the column), ``value``
    (the rate), ``low``, ``high``, ``value_text``, ``interval_text``, ``cell_text`` (as
    the PDF prints the rate), ``dark`` (the cell's text is white, as in the PDF),
    ``games``, ``href`` (``#pairings-KEY``: the pairing's row of :func:`pairings_table`)."""
    rows = []
    for cell in result.matrix.itertuples(index=False):
        rate, low, high = float(cell.rate), float(cell.low), float(cell.high)
        rows.append(
            {
                "y": cell.contestant,
                "x": cell.against,
                "value": rate,
                "low": low,
                "high": high,
                "value_text": f"{rate:.1%}",
                "interval_text": f"[{low:.1%}, {high:.1%}]",
                "cell_text": f"{rate:.1%}",
                "dark": bool(rate > 0.6),
                "games": f"{int(cell.games):,}",
                "href": f"#pairings-{pairing_key(cell.contestant, cell.against)}",
            }
        )
    return pd.DataFrame(rows)


def pairings_table(result: Tournament) -> pd.DataFrame:
    """The report page's table of pairings, one row an ordered pair (its anchor
    ``pairings-KEY``, :func:`pairing_key`): the pair, games, wins, losses, neither,
    both, the rate and its 95% interval (with two players, also by seat order)."""
    rows = []
    for cell in result.matrix.to_dict("records"):
        row = {
            "pairing": pairing_key(cell["contestant"], cell["against"]),
            "contestant": cell["contestant"],
            "against": cell["against"],
            "games": int(cell["games"]),
            "won": int(cell["wins"]),
            "lost": int(cell["losses"]),
            "neither won": int(cell["neither"]),
            "both won": int(cell["both"]),
            "win rate": f"{cell['rate']:.1%}",
            "95% interval": f"[{cell['low']:.1%}, {cell['high']:.1%}]",
        }
        for order in ("first", "second"):
            if f"{order}_rate" in cell:
                row[f"as {order} seat"] = (
                    f"{cell[f'{order}_rate']:.1%} "
                    f"[{cell[f'{order}_low']:.1%}, {cell[f'{order}_high']:.1%}]"
                )
        rows.append(row)
    return pd.DataFrame(rows)


def heat_map(result: Tournament) -> Figure:
    """The matrix as a grey heat map, each cell's rate with its interval."""
    names = list(result.contestants)
    n = len(names)
    figure, ax = new_axes(height=max(4.0, 0.9 * n + 2.5))
    keep(
        figure,
        ax,
        View(
            "heatmap",
            "win rate of the row against the column",
            matrix_cells(result),
            "against this contestant",
            "win rate of this contestant",
            "percent",
            # As the PDF: contestants in order, the first row on top, 0..100% in grey.
            options={"x_order": names, "y_order": names, "domain": [0.0, 1.0]},
        ),
    )
    rates = result.square("rate").to_numpy(dtype=float)
    lows = result.square("low").to_numpy(dtype=float)
    highs = result.square("high").to_numpy(dtype=float)
    shades = matplotlib.colormaps["Greys"].with_extremes(bad="white")
    ax.imshow(np.ma.masked_invalid(rates), cmap=shades, vmin=0, vmax=1)
    size = 9 if n <= 5 else 7
    for i in range(n):
        for j in range(n):
            if i == j:
                ax.text(j, i, "—", ha="center", va="center")
                continue
            shade = "white" if rates[i, j] > 0.6 else "black"
            label = f"{rates[i, j]:.1%}\n[{lows[i, j]:.1%}, {highs[i, j]:.1%}]"
            ax.text(j, i, label, ha="center", va="center", color=shade, fontsize=size)
    ax.set_xticks(range(n), names, rotation=20, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("against this contestant")
    ax.set_ylabel("win rate of this contestant")
    ax.set_title("win rate of the row against the column")
    how = (
        f"{result.games:,} games a pair, half in each seat order, the same deals for every pair"
        + (f"; strategies by seat {', '.join(result.strategies)}" if result.kind == "decks" else "")
        + (f"; decks by seat {', '.join(result.decks)}" if result.decks else "")
        if result.players == 2
        else f"{result.games:,} games a pair at mixed tables of {result.players} (the other "
        f"seats: {result.field}), seats rotated"
    )
    neither = (
        "capped, drawn, or lost by both"
        if result.players == 2
        else "capped, drawn, or won by a field player"
    )
    caption(
        figure,
        f"{how}. A cell is the share of the pair's games the row won and the column did not; "
        f"{MATRIX_METHOD}. Games neither won ({neither}) count "
        "for neither, so a pair's two rates can sum to less than 100%.",
    )
    return figure


def ratings_chart(result: Tournament) -> Figure:
    """Each contestant's rating with its interval, strongest at the top."""
    table = result.ratings.sort_values("rating", ascending=False, na_position="last")
    note = (
        (f"Note: {result.rating_note}. " if result.rating_note else "")
        + (
            "Note: the ratings put some pairs where their own games rule out (the text names "
            "them): read the pair gaps for those. "
            if result.rating_misfit
            else ""
        )
        + f"Measured against {result.measured_against}. {RATING_METHOD}. A gap of 100 "
        "points: the stronger wins about 64% of the games one of the two wins. Each rating "
        "rests on the decided games it played "
        + ", ".join(f"{row.contestant} {row.decisive_games:,}" for row in table.itertuples())
        + f" ({result.games:,} games a pairing)."
    )
    return plot_intervals(
        list(table["contestant"]),
        table["rating"],
        table["low"],
        table["high"],
        title=f"Bradley-Terry ratings (Elo scale), against {result.measured_against}",
        xlabel="rating (Elo points, mean 0)",
        note=note,
    )


def pair_gaps_chart(result: Tournament) -> Figure:
    """Each pair's gap on the Elo scale with its interval; an arrow where the data give
    only a lower bound, nothing where no game was decided."""
    table = result.pair_gaps
    bounded = np.isinf(table["gap"].to_numpy(dtype=float))
    value = np.where(bounded, table["low"], table["gap"])
    labels = [
        f"{row.contestant} over {row.against}" + (" (n/a)" if not row.decided else "")
        for row in table.itertuples()
    ]
    figure = plot_intervals(
        labels,
        value,
        np.where(bounded, np.nan, table["low"]),
        np.where(bounded, np.nan, table["high"]),
        title=f"pair gaps (Elo points), against {result.measured_against}",
        xlabel="gap (Elo points): the first named ahead of the second",
        note=f"{GAP_METHOD}. An arrow: the first won every decided game, so the gap is at "
        "least the point drawn (the lower end of its 95% interval). A gap of 100 points: "
        "the first wins about 64% of the pair's decided games. Decided games: "
        + ", ".join(f"{row.contestant}-{row.against} {row.decided:,}" for row in table.itertuples())
        + f" ({result.games:,} games a pairing).",
    )
    ax = figure.axes[0]
    y = np.arange(len(labels))[::-1]
    span = np.nanmax(np.abs(value), initial=100.0) * 0.25
    for where, start in zip(y[bounded], value[bounded], strict=True):
        ax.annotate(
            "", (start + span, where), (start, where), arrowprops={"arrowstyle": "->", "lw": 1.1}
        )
    if bounded.any():
        ax.set_xlim(right=max(ax.get_xlim()[1], float(np.nanmax(value)) + 1.3 * span))
    return figure


def field_chart(result: Tournament) -> Figure:
    """Each contestant's win rate alone against the field, with the fair share marked."""
    assert result.vs_field is not None
    table = result.vs_field
    return plot_intervals(
        list(table["contestant"]),
        table["rate"],
        table["low"],
        table["high"],
        title=f"win rate alone against the field ({result.field})",
        xlabel="win rate",
        zero=1 / result.players,
        percent=True,
        note=f"{result.games:,} games a contestant at tables of {result.players}, the other "
        f"seats {result.field}, seats rotated over every order; 95% Wilson intervals. The "
        f"dashed line is a fair share, 1/{result.players}.",
    )


def charts(result: Tournament) -> list[Chart]:
    """Title page, heat map, ratings (where they exist), pair gaps and (more than two
    players) the field."""
    game = get_game(result.game)
    lines = [
        *describe(result),
        f"contestants: {', '.join(result.contestants)}",
        f"variants: {', '.join(result.variants) or 'none (base game)'}",
    ]
    if result.rules:
        lines.append("rules: " + rules_text(result.rules))
    pages = [
        Chart("00-title", title_page(f"{game.title}: tournament", lines)),
        Chart("01-matrix", heat_map(result)),
    ]
    if result.ratings["rating"].notna().any():
        pages.append(Chart("02-ratings", ratings_chart(result)))
    pages.append(Chart("03-pair-gaps", pair_gaps_chart(result)))
    if result.vs_field is not None:
        pages.append(Chart("04-field", field_chart(result)))
    for page in pages:
        flag(page.figure, warning_lines(result.warnings))
    return pages


def write(result: Tournament, out: Path) -> list[Path]:
    """Every game as Parquet (``tournament-games.parquet``), the matrix and ratings as
    Parquet, the pair gaps as Parquet and CSV, ``tournament.json`` (as ``--json`` prints
    it), the charts as PNG and ``tournament.pdf``."""
    out = output_dir(out)
    result.records.to_parquet(out / "tournament-games.parquet", index=False)
    result.matrix.to_parquet(out / "tournament-matrix.parquet", index=False)
    result.ratings.to_parquet(out / "tournament-ratings.parquet", index=False)
    result.pair_gaps.to_parquet(out / "tournament-pair-gaps.parquet", index=False)
    result.pair_gaps.to_csv(out / "tournament-pair-gaps.csv", index=False)
    written = [out / name for name in FILES]
    if result.vs_field is not None:
        result.vs_field.to_parquet(out / "tournament-field.parquet", index=False)
        written.append(out / "tournament-field.parquet")
    write_json(out / "tournament.json", result.to_json())
    pairings = Table(
        "pairings",
        "Pairings",
        pairings_table(result),
        key="pairing",
        caption=f"One row an ordered pair: the games the row won and the column did not, "
        f"and the other outcomes; {MATRIX_METHOD}. A cell of the matrix links to its row.",
    )
    charts_written = write_charts(charts(result), out, "tournament.pdf", tables=[pairings])
    return [*written, *charts_written]
