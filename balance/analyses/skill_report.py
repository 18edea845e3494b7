"""A skill ladder as a designer reads it: text, charts (the ladder, balance by rung) and
files (Parquet, CSV, JSON, PNG and PDF). Drawing only: every number comes from a
:class:`balance.analyses.skill.Skill`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from balance.analyses.skill import ALPHA, TELL, Skill, describe_threshold
from balance.core.formatting import rules_text
from balance.games import get_game
from balance.reports.charts import (
    Chart,
    findings_page,
    flag,
    plot_grouped,
    plot_intervals,
    title_page,
    write_charts,
)
from balance.reports.views import Table
from balance.run.results import output_dir, write_json
from balance.stats.caveats import warning_lines

FILES = (
    "skill.json",
    "skill-rungs.parquet",
    "skill-rungs.csv",
    "skill-matches.parquet",
    "skill-games.parquet",
    "skill-balance.parquet",
    "skill-balance.csv",
    "skill-seats.parquet",
)


def _pct(rate: float, low: float, high: float) -> str:
    """``61.2% [58.1, 64.3]``."""
    return f"{rate * 100:5.1f}% [{low * 100:4.1f}, {high * 100:4.1f}]"


def rate_method(result: Skill) -> str:
    """How a rate's interval is made, for this many players."""
    if result.players == 2:
        return (
            "95% Wilson intervals at the effective number of games: the two games of a deal, "
            "one in each seat order, are one cluster"
        )
    return "95% Wilson intervals"


def describe(result: Skill) -> list[str]:
    """The header lines: what was played, how the seats went, what the numbers rest on."""
    game = get_game(result.game)
    n = result.players
    lines = [
        f"{game.title} skill ladder: {len(result.names)} rungs, {n} players, "
        f"{result.games:,} games a match (seed {result.seed})"
        + (f"; interrupted: {result.requested:,} asked" if result.games < result.requested else "")
        + ".",
        f"Rungs, weakest first: {result.ordering}.",
    ]
    if n == 2:
        lines.append(
            "Each rung plays the rung below and random head to head, every deal once in each "
            f"seat order ({result.games // 2:,} deals); every match meets the same deals "
            "(common random numbers)."
        )
    else:
        lines.append(
            f"Each rung plays alone against a field of the rung below, and of random, in the "
            f"other {n - 1} seats; seats rotated over every order round the table; every match "
            "plays the same game indices (common random numbers)."
        )
    return lines


def _tell_text(record: dict[str, Any] | None, strongest: str, what: str) -> str:
    if record is None:
        return f"  {what}: not given (see the notes)"
    games, (low, high) = record["games"], record["ci95"]

    def count(value: int | None) -> str:
        return "never" if value is None else f"{value:,}"

    noun = "game" if games == 1 else "games"
    share = _pct(record["share"], *record["share_ci95"]).strip()
    if record["ahead"] + record["behind"] == 0:
        share = "n/a (no game separated them)"
    basis = (
        f"ahead in {record['ahead']:.1%} of {record['games_played']:,} games, behind in "
        f"{record['behind']:.1%}; head to head {share}"
    )
    if games is None:
        return f"  {what} ({record['against']}): never; {strongest} is not ahead ({basis})"
    return (
        f"  {what} ({record['against']}): {count(games)} {noun} "
        f"[{count(low)}, {count(high)}] ({basis})"
    )


def text(result: Skill) -> str:
    """The ladder, the skill depth, games to tell and balance by rung, with intervals."""
    lines = [
        *warning_lines(result.warnings),
        *describe(result),
        *(f"The ladder goes down: {dip}." for dip in result.dips),
        "",
        "Each rung against the rung below and against random: its win rate (compare with the "
        f"fair share {result.fair_share:.1%}, an equal player's rate when every game has one "
        "winner: games won by several players, or by none, move it, so compare also with the "
        "first rung against random) and its head-to-head share (the games that "
        "separate it from one seat of the other: one won, the other did not; fair at 50%); "
        f"{rate_method(result)}:",
    ]
    # A head-to-head share rests on the games one of the two won and the other did not.
    separated = {(m.rung, m.role): m.ahead + m.behind > 0 for m in result.matches.itertuples()}
    for row in result.rungs.itertuples():
        lines.append(f"  {row.rung}")
        for role, name in (("vs_below", "vs the rung below"), ("vs_random", "vs random")):
            if not getattr(row, f"{role}_games"):
                continue
            rate = _pct(*(getattr(row, f"{role}_{c}") for c in ("rate", "low", "high")))
            share = _pct(
                *(getattr(row, f"{role}_{c}") for c in ("share", "share_low", "share_high"))
            )
            if not separated.get((row.rung, role), True):
                share = "n/a (no game separated them)"
            line = f"    {name:<18} win rate {rate}  head to head {share}"
            if role == "vs_below":
                p = "<1e-15" if row.p_holm < 1e-15 else f"{row.p_holm:.2g}"
                line += f"  a step of skill: {'yes' if row.beats_below else 'no'} (Holm p {p})"
            lines.append(line)
    lines += [
        "",
        f"Skill depth: {result.skill_depth} of {len(result.names) - 1} rungs beat the rung "
        f"below with {describe_threshold()}: one-sided score test of H0 'share at most "
        f"{result.threshold:.0%}', Holm over the rungs at {ALPHA:.0%}.",
        "",
        f"Games to tell: games {result.strongest} needs to be ahead (more games won than one "
        f"seat of the other) with {TELL:.0%} probability, [interval from the head-to-head "
        "share's 95% interval]:",
        _tell_text(result.games_to_tell["vs_random"], result.strongest, "against random"),
        _tell_text(
            result.games_to_tell["vs_best_heuristic"],
            result.strongest,
            "against the best heuristic",
        ),
        "",
        f"Balance by rung: every seat played by the rung, {result.balance['games'].min():,} "
        "games each (95% intervals):",
    ]
    seats = result.seats.groupby("rung", sort=False)
    unit = result.length_unit
    for row in result.balance.itertuples():
        table = seats.get_group(row.rung)
        seat_text = "  ".join(
            f"{s.seat}: {s.rate:.1%} [{s.low:.1%}, {s.high:.1%}]" for s in table.itertuples()
        )
        bound = (
            " (a lower bound: some games stopped at the cap)" if row.length_is_lower_bound else ""
        )
        lines += [
            f"  {row.rung}",
            f"    seat win rates  {seat_text}",
            "    balance index "
            + (
                f"{row.balance_index:.3f} [{row.bi_low:.3f}, {row.bi_high:.3f}]"
                if row.balance_index == row.balance_index
                else "n/a (no game had a winner)"
            )
            + f"; mean length {row.length:.2f} [{row.length_low:.2f}, {row.length_high:.2f}] "
            f"{unit}{bound}; finished {row.finished:.1%}",
        ]
    if result.notes:
        lines += ["", *(f"note: {note}." for note in result.notes)]
    return "\n".join(lines)


def findings(result: Skill) -> list[str]:
    """The report's first page in plain sentences: the skill depth and its steps, where
    the ladder goes down, games to tell, and balance under the weakest and strongest
    rung; every figure with its 95% interval and the games it rests on."""
    rungs = result.rungs.iloc[1:]
    steps = rungs[rungs["beats_below"]]
    test = (
        f"a head-to-head share against the rung below significantly above "
        f"{result.threshold:.0%} (Holm over the rungs at {ALPHA:.0%})"
    )
    depth = f"Skill depth {result.skill_depth} of {len(rungs)}"
    if steps.empty:
        said = [f"{depth}: no rung is a step of skill, {test}."]
    else:
        said = [
            f"{depth}: the steps of skill, {test}, are "
            + "; ".join(
                f"{row.rung} over {result.names[row.Index - 1]}, "
                f"{_pct(row.vs_below_share, row.vs_below_share_low, row.vs_below_share_high)}"
                for row in steps.itertuples()
            )
            + "."
        ]
    said += [f"The ladder goes down: {dip}." for dip in result.dips]
    tell = result.games_to_tell["vs_random"]
    if tell is not None:
        games, (low, high) = tell["games"], tell["ci95"]
        basis = (
            f"ahead in {tell['ahead']:.1%} of {tell['games_played']:,} games, behind in "
            f"{tell['behind']:.1%}"
        )
        said.append(
            f"{result.strongest} is never reliably ahead of random ({basis})."
            if games is None
            else f"Games to tell: {result.strongest} needs {games:,} "
            f"{'game' if games == 1 else 'games'} "
            f"[{low:,}, {'never' if high is None else f'{high:,}'}] to be ahead of random with "
            f"{TELL:.0%} probability ({basis})."
        )
    balance = result.balance.set_index("rung")
    ends = [result.names[0], result.strongest]
    shown = [
        f"{name} {balance.at[name, 'balance_index']:.3f} [{balance.at[name, 'bi_low']:.3f}, "
        f"{balance.at[name, 'bi_high']:.3f}]"
        for name in ends
        if balance.at[name, "balance_index"] == balance.at[name, "balance_index"]
    ]
    if shown:
        said.append(
            "Balance index (1: every seat wins equally often) with every seat played by "
            + " and by ".join(shown)
            + f", {balance['games'].min():,} games each."
        )
    said.append(
        f"{result.games:,} games a match. Head-to-head shares are of the games that separate "
        f"the two (one won, the other did not), with {rate_method(result)}. The pages after "
        "the title page show each figure."
    )
    return said


def ladder_chart(result: Skill) -> Figure:
    """Each rung's win rate against the rung below and against random, with intervals;
    the fair share dashed."""
    table = result.rungs
    figure = plot_grouped(
        list(table["rung"]),
        {
            "against the rung below": (
                table["vs_below_rate"],
                table["vs_below_low"],
                table["vs_below_high"],
            ),
            "against random": (
                table["vs_random_rate"],
                table["vs_random_low"],
                table["vs_random_high"],
            ),
        },
        title="the skill ladder: win rate of each rung",
        ylabel="win rate of the rung",
        xlabel="rung (weakest first)",
        reference=result.fair_share,
        note=f"{result.games:,} games a match; "
        + (
            "two players, head to head, half the games in each seat order, the same deals for "
            "every match. A rate is the share of games the rung won and the other did not. "
            if result.players == 2
            else f"the rung in one seat, the other strategy in the other {result.players - 1}, "
            "seats rotated, the same game indices for every match. A rate is the share of "
            "games the rung won. "
        )
        + f"{rate_method(result)}. Dashed: the fair share 1/{result.players} (games won by "
        "several players, or by nobody, move an equal player's rate off it: compare with the "
        "first rung against random). The first rung has no rung below.",
    )
    return _fit_shares(figure)


def _fit_shares(figure: Figure) -> Figure:
    """A chart of shares as the skill report draws them: the y axis from 0 to 100% (a
    share goes no higher), the legend above the axes where it covers no bar, and every
    rung's label on lines of at most 18 characters (a search rung's parameters are long)
    so that no label runs off the page."""
    ax = figure.axes[0]
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, ncols=4, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
    ax.set_title(ax.get_title(), pad=22)
    labels = [tick.get_text() for tick in ax.get_xticklabels()]
    ax.set_xticks(ax.get_xticks(), [_wrap(label) for label in labels], rotation=0, ha="center")
    return figure


def _wrap(label: str, width: int = 18) -> str:
    """``ismcts(iterations=16,rollout=detective)`` on lines of ``width``, broken after
    an opening bracket, a colon or a comma where it can."""
    lines = [""]
    for part in re.split(r"(?<=[(:,])", label):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def share_chart(result: Skill) -> Figure:
    """Each rung's head-to-head share against the rung below and against random, with
    intervals; one half dashed, the skill depth's margin dotted."""
    table = result.rungs.copy()
    # A match that no game separated has no share: no bar (the text says n/a).
    apart = {(m.rung, m.role): m.ahead + m.behind > 0 for m in result.matches.itertuples()}
    for role in ("vs_below", "vs_random"):
        none = [not apart.get((rung, role), True) for rung in table["rung"]]
        table.loc[none, [f"{role}_share", f"{role}_share_low", f"{role}_share_high"]] = np.nan
    figure = plot_grouped(
        list(table["rung"]),
        {
            "against the rung below": (
                table["vs_below_share"],
                table["vs_below_share_low"],
                table["vs_below_share_high"],
            ),
            "against random": (
                table["vs_random_share"],
                table["vs_random_share_low"],
                table["vs_random_share_high"],
            ),
        },
        title="the skill ladder: head to head",
        ylabel="head-to-head share",
        xlabel="rung (weakest first)",
        reference=0.5,
        note=f"{result.games:,} games a match. Head to head: of the games that separate the "
        "rung from one seat of the other strategy (one won, the other did not), the share the "
        f"rung won; {rate_method(result)}. Dashed: 50%, equal players; dotted: "
        f"{result.threshold:.0%}: a rung counts in the skill depth (here "
        f"{result.skill_depth}) when its share against the rung below is significantly above "
        "it (Holm over the rungs).",
    )
    figure.axes[0].axhline(result.threshold, color="black", ls=":", lw=1)
    return _fit_shares(figure)


def seats_chart(result: Skill) -> Figure:
    """Seat win rates of a table played by each rung, with intervals."""
    seats = result.seats
    series = {}
    for seat, table in seats.groupby("seat"):
        series[f"seat {seat}"] = (table["rate"], table["low"], table["high"])
    figure = plot_grouped(
        list(result.balance["rung"]),
        series,
        title="seat win rates with every seat played by the rung",
        ylabel="win rate",
        xlabel="rung (weakest first)",
        reference=result.fair_share,
        note=f"{result.balance['games'].min():,} games a rung, the same game indices for every "
        f"rung; 95% Wilson intervals. Dashed: the fair share 1/{result.players}.",
    )
    return _fit_shares(figure)


def balance_chart(result: Skill) -> Figure:
    """The balance index of a table played by each rung, with its interval."""
    table = result.balance
    return plot_intervals(
        [_wrap(name, 34) for name in table["rung"]],
        table["balance_index"],
        table["bi_low"],
        table["bi_high"],
        title="balance index with every seat played by the rung",
        xlabel="balance index (1 = every seat wins equally often)",
        zero=1.0,
        note=f"{table['games'].min():,} games a rung. Balance index: 1 minus the largest gap "
        "between two seats' win rates; 95% interval from simultaneous intervals of the seat "
        "gaps (docs/reports.md).",
    )


def length_chart(result: Skill) -> Figure:
    """The mean game length of a table played by each rung, with its interval."""
    table = result.balance
    capped = ", ".join(table.loc[table["length_is_lower_bound"], "rung"])
    return plot_intervals(
        [_wrap(name, 34) for name in table["rung"]],
        table["length"],
        table["length_low"],
        table["length_high"],
        title="game length with every seat played by the rung",
        xlabel=f"mean length ({result.length_unit})",
        zero=None,
        note=f"{table['games'].min():,} games a rung; 95% Student t intervals."
        + (f" Some games stopped at the cap (a lower bound): {capped}." if capped else ""),
    )


def charts(result: Skill) -> list[Chart]:
    """Findings, title page, the ladder (win rates, head to head), seat win rates, balance
    index and length by rung."""
    game = get_game(result.game)
    lines = [
        *describe(result),
        f"rungs: {', '.join(result.names)}",
        f"variants: {', '.join(result.variants) or 'none (base game)'}",
        f"skill depth: {result.skill_depth} of {len(result.names) - 1}",
    ]
    if result.rules:
        lines.append("rules: " + rules_text(result.rules))
    lines += [f"note: {note}" for note in result.notes]
    pages = [
        Chart(
            "00-findings",
            findings_page(
                f"{game.title}: skill ladder, findings",
                warning_lines(result.warnings),
                findings(result),
            ),
        ),
        Chart("00-title", title_page(f"{game.title}: skill ladder", lines)),
        Chart("01-ladder", ladder_chart(result)),
        Chart("02-head-to-head", share_chart(result)),
        Chart("03-seats", seats_chart(result)),
        Chart("04-balance-index", balance_chart(result)),
        Chart("05-length", length_chart(result)),
    ]
    for page in pages[1:]:  # the findings page says the warnings first
        flag(page.figure, warning_lines(result.warnings))
    return pages


def matches_table(result: Skill) -> pd.DataFrame:
    """The report page's table of matches, one row a match: the rung, its opponent and
    role, games, the rung's win rate and head-to-head share with their 95% intervals, and
    the one-sided p-value of a step of skill."""

    def pct(rate: float, low: float, high: float) -> str:
        return re.sub(r"\s+", " ", _pct(rate, low, high)).replace("[ ", "[").strip()

    rows = []
    for m in result.matches.itertuples(index=False):
        apart = m.ahead + m.behind > 0
        rows.append(
            {
                "rung": m.rung,
                "against": m.against,
                "as": str(m.role).replace("_", " "),
                "games": int(m.games),
                "win rate": pct(m.rate, m.low, m.high),
                "head to head": pct(m.share, m.share_low, m.share_high) if apart else "n/a",
                "p (a step of skill)": f"{m.p_value:.3g}" if np.isfinite(m.p_value) else "–",
            }
        )
    return pd.DataFrame(rows)


def write(result: Skill, out: Path) -> list[Path]:
    """The rungs, matches, games, balance and seats as Parquet (rungs and balance also as
    CSV), ``skill.json`` (as ``--json`` prints it), the charts as PNG and ``skill.pdf``."""
    out = output_dir(out)
    result.rungs.to_parquet(out / "skill-rungs.parquet", index=False)
    result.rungs.to_csv(out / "skill-rungs.csv", index=False)
    result.matches.to_parquet(out / "skill-matches.parquet", index=False)
    result.records.to_parquet(out / "skill-games.parquet", index=False)
    result.balance.to_parquet(out / "skill-balance.parquet", index=False)
    result.balance.to_csv(out / "skill-balance.csv", index=False)
    result.seats.to_parquet(out / "skill-seats.parquet", index=False)
    write_json(out / "skill.json", result.to_json())
    matches = Table(
        "matches",
        "Matches",
        matches_table(result),
        caption=f"One row a match of the ladder, {result.games:,} games a match; "
        f"{rate_method(result)}.",
    )
    written = write_charts(charts(result), out, "skill.pdf", tables=[matches])
    return [*(out / name for name in FILES), *written]
