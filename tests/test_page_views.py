"""The report pages' views of sweeps, tunes, tournaments and skill ladders.

What a reader of ``index.html`` relies on: each interactive chart shows the figures the
PDF prints (the same values, intervals and cell texts, from the chart's own dataset
function), and a heat map's cell links to a row that exists in the page's table of
points, candidates or pairings, which holds the same figures. Hand-built results: no
game is played.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pytest

from balance.analyses.skill_report import matches_table
from balance.analyses.sweep import SweepResult
from balance.analyses.sweep_charts import (
    main_effects,
    plot_against_axis,
    plot_heat_map,
    plot_main_effects,
    plot_sensitivity,
    point_frame,
    points_table,
    sensitivity,
)
from balance.analyses.sweep_design import Axis, parse_target
from balance.analyses.tournament import Tournament
from balance.analyses.tournament_report import heat_map, pairings_table
from balance.analyses.tune import TuneResult
from balance.analyses.tune_charts import (
    candidates_table,
    plot_verdict_map,
    positions,
    verdict_frame,
)
from balance.games.lifeboats.report import plot_score_panels
from balance.reports.page import table_html
from balance.reports.views import view_of

PLANK = Axis("plank_max", ("3", "4", "5"))
PIRATES = Axis("pirates_per_player", ("2", "3"))
TARGET = parse_target("balance_index>=0.9")


def _sweep(players: tuple[int, ...], axes: list[Axis], seed: int = 1) -> SweepResult:
    """A sweep of ``axes`` at each player count, its figures drawn at random."""
    rng = np.random.default_rng(seed)
    grid = pd.MultiIndex.from_product([players, *(a.values for a in axes)]).tolist()
    points = []
    for number, (count, *values) in enumerate(grid):
        index = rng.uniform(0.8, 1.0)
        half = rng.uniform(0.01, 0.08)
        low, high = index - half, min(index + half, 1.0)
        verdict = TARGET.verdict(low, high)
        length = rng.uniform(6, 12)
        points.append(
            {
                "point": number,
                "players": count,
                "axis_values": {
                    "players": str(count),
                    **{a.name: v for a, v in zip(axes, values, strict=True)},
                },
                "rules": {a.name: int(v) for a, v in zip(axes, values, strict=True)},
                "variants": [],
                "variant_label": None,
                "games": 1000 + 10 * number,
                "metrics": {
                    "balance_index": {"value": index, "ci95": [low, high], "se": half / 1.96},
                    "seat0_advantage": {"value": index - 0.9, "ci95": [low - 0.9, high - 0.9]},
                    "length_mean": {"value": length, "ci95": [length - 0.3, length + 0.3]},
                    "finished_rate": {"rate": 0.99, "ci95": [0.98, 0.995]},
                },
                "verdicts": {TARGET.text: verdict},
            }
        )
    player_axis = Axis("players", tuple(str(p) for p in players), "players")
    return SweepResult(
        game="walk-the-plank",
        seed=0,
        games=1000,
        design="grid",
        axes=[player_axis, *axes],
        backend="local",
        elapsed_s=1.0,
        points=points,
        table=pd.DataFrame(),
        verdicts=pd.DataFrame(),
        targets=[TARGET],
    )


def _texts(figure: Any) -> dict[tuple[int, int], Any]:
    """The texts drawn in a chart's cells, by their (column, row) place."""
    return {
        (round(t.get_position()[0]), round(t.get_position()[1])): t for t in figure.axes[0].texts
    }


def test_a_sweep_heat_map_cell_shows_what_the_pdf_prints_and_links_to_its_point() -> None:
    result = _sweep((4,), [PLANK, PIRATES])
    frame = point_frame(result)
    framed = (frame["balance_index"] > frame["balance_index"].median()).to_numpy()
    figure = plot_heat_map(
        frame, PLANK, PIRATES, "balance_index", title="t", note="n", framed=framed
    )
    view = view_of(figure)
    assert view is not None and view.kind == "heatmap" and view.caption == "n"
    # The cells the PDF frames (a patch each) are those the page frames.
    assert len(figure.axes[0].patches) == view.data["framed"].sum() == framed.sum() > 0
    assert view.data.set_index("point").loc[frame["point"], "framed"].tolist() == framed.tolist()
    cells = view.data.set_index("point")
    drawn = _texts(figure)
    table = points_table(result).set_index("point")
    page = table_html(points_table(result), "point", "points")
    for row in frame.itertuples(index=False):
        cell = cells.loc[row.point]
        assert (cell["value"], cell["low"], cell["high"]) == (
            row.balance_index,
            row.balance_index_low,
            row.balance_index_high,
        )
        text = drawn[(PLANK.values.index(cell["x"]), PIRATES.values.index(cell["y"]))]
        first, second = text.get_text().split("\n")
        assert cell["cell_text"] == first and cell["interval_text"] == second
        assert cell["dark"] == (text.get_color() == "white")
        # The link lands on the point's row, which holds the same figure and verdict.
        assert cell["href"] == f"#points-{row.point}" and f'id="points-{row.point}"' in page
        assert table.loc[row.point, "balance_index"] == cell["value_text"]
        assert table.loc[row.point, "balance_index 95% interval"] == cell["interval_text"]
        assert table.loc[row.point, TARGET.text] in cell["verdict"]
        assert cell["games"] == f"{row.games:,}" and table.loc[row.point, "games"] == row.games
    assert set(view.options["y_order"]) == set(PIRATES.values)


def test_a_line_a_player_count_holds_each_point_s_figure() -> None:
    result = _sweep((4, 5), [PLANK])
    frame = point_frame(result)
    figure = plot_against_axis(frame, PLANK, "length_mean", ylabel="length", note="n")
    view = view_of(figure)
    assert view is not None and view.kind == "lines"
    assert set(view.data["label"]) == {"4 players", "5 players"}  # the legend's toggles
    lines = view.data.set_index("point")
    for row in frame.itertuples(index=False):
        line = lines.loc[row.point]
        assert line["label"] == f"{row.players} players" and line["x"] == row.plank_max
        assert (line["value"], line["low"], line["high"]) == (
            row.length_mean,
            row.length_mean_low,
            row.length_mean_high,
        )
    # The drawn line of 4 players is the view's, in the axis's order.
    drawn = figure.axes[0].lines[0].get_ydata()
    np.testing.assert_array_equal(drawn, lines[lines["label"] == "4 players"]["value"])


def test_main_effects_and_sensitivity_views_are_their_dataset_functions() -> None:
    result = _sweep((4,), [PLANK, PIRATES])
    frame = point_frame(result)
    effects = main_effects(frame, [PLANK, PIRATES], "balance_index")
    view = view_of(plot_main_effects(effects, ylabel="balance index", note="n"))
    assert view is not None and view.kind == "intervals"
    np.testing.assert_array_equal(view.data["value"], effects["mean"])
    np.testing.assert_array_equal(view.data[["low", "high"]], effects[["low", "high"]])
    assert "95%" not in view.options["interval_title"]  # a range, not an interval
    shares = {"balance index": sensitivity(frame, [PLANK, PIRATES], "balance_index")}
    view = view_of(plot_sensitivity(shares, note="n"))
    assert view is not None and view.kind == "grouped"
    bars = view.data.set_index("series")
    for row in shares["balance index"].itertuples():
        assert bars.loc[row.axis, "value"] == row.share
        assert bars.loc[row.axis, "low"] == min(row.noise_share, 1.0)


def _tournament() -> Tournament:
    names = ("random", "cautious", "greedy")
    rng = np.random.default_rng(3)
    rows = []
    for a in names:
        for b in names:
            if a != b:
                rate = rng.uniform(0.2, 0.8)
                rows.append(
                    {"contestant": a, "against": b, "games": 1000, "wins": int(1000 * rate),
                     "losses": 300, "neither": 50, "both": 10, "rate": rate,
                     "low": rate - 0.03, "high": rate + 0.03}
                )  # fmt: skip
    empty = pd.DataFrame()
    return Tournament(
        game="walk-the-plank", players=4, contestants=names, kind="strategies",
        strategies=names, field="random", seed=0, games=1000, requested=1000, partial=False,
        records=empty, matrix=pd.DataFrame(rows), ratings=empty, pair_gaps=empty, vs_field=None,
    )  # fmt: skip


def test_a_tournament_matrix_cell_is_the_pdf_s_and_links_to_its_pairing() -> None:
    result = _tournament()
    figure = heat_map(result)
    view = view_of(figure)
    assert view is not None and view.kind == "heatmap"
    assert view.options["domain"] == [0.0, 1.0]
    names = list(result.contestants)
    drawn = _texts(figure)
    table = pairings_table(result).set_index("pairing")
    page = table_html(pairings_table(result), "pairing", "pairings")
    assert len(view.data) == len(result.matrix) == len(names) * (len(names) - 1)
    for cell in view.data.to_dict("records"):
        text = drawn[(names.index(cell["x"]), names.index(cell["y"]))]
        first, second = text.get_text().split("\n")
        assert cell["cell_text"] == cell["value_text"] == first
        assert cell["interval_text"] == second
        assert cell["dark"] == (text.get_color() == "white")
        key = cell["href"].removeprefix("#pairings-")
        assert f'id="pairings-{key}"' in page
        row = table.loc[key]
        assert (row["contestant"], row["against"]) == (cell["y"], cell["x"])
        assert row["win rate"] == cell["value_text"] and row["95% interval"] == second


NEED = {"games": 40_000, "reason": "about 40,000 games in all would decide it"}


def _tune() -> TuneResult:
    """A hand-built tune of two rules for five players: one rule set a verdict."""
    targets = [TARGET]
    verdicts = ["pass", "fail", "undecided", "fail", "pass"]  # the sixth cell not raced
    points = []
    for number, (verdict, (plank, pirates)) in enumerate(
        zip(verdicts, [(3, 2), (4, 2), (5, 2), (3, 3), (4, 3)], strict=False)
    ):
        low = {"pass": 0.92, "fail": 0.7, "undecided": 0.88}[verdict]
        points.append(
            {
                "point": number, "players": 5, "variants": [], "variant_label": None,
                "rules": {"plank_max": plank, "pirates_per_player": pirates},
                "axis_values": {"players": "5", "plank_max": str(plank),
                                "pirates_per_player": str(pirates)},
                "games": 1024 * (number + 1),
                "metrics": {"balance_index": {"value": low + 0.03, "ci95": [low, low + 0.06]}},
                "verdict": verdict, "verdicts": {TARGET.text: verdict},
                "intervals": {TARGET.text: [low, low + 0.06]},
                "decided_by": TARGET.text if verdict == "fail" else None,
                "needs": {TARGET.text: NEED} if verdict == "undecided" else {},
                "capped_by": "max_games" if verdict == "undecided" else None,
                "reason": "", "changes": 1, "middle_distance": 0.0,
                "rank": {0: 2, 4: 1}.get(number), "warnings": [],
            }
        )  # fmt: skip
    return TuneResult(
        game="walk-the-plank", seed=0, search="grid",
        axes=[Axis("players", ("5",), "players"), PLANK, PIRATES], targets=targets,
        block=1024, max_games=8192, budget=None, backend="local", elapsed_s=0.5,
        points=points, table=pd.DataFrame(), verdicts=pd.DataFrame(),
        explored={"search": "grid", "space": 6, "candidates": 5, "share": 5 / 6},
        strategies=["random"], games_played=sum(p["games"] for p in points),
    )  # fmt: skip


def test_a_verdict_map_cell_is_the_pdf_s_and_links_to_its_candidate() -> None:
    result = _tune()
    frame = verdict_frame(result)
    data = frame.assign(x=positions(result, PLANK), y=positions(result, PIRATES))
    figure = plot_verdict_map(data, PLANK, PIRATES, title="t", note="n")
    view = view_of(figure)
    assert view is not None and view.kind == "heatmap"
    drawn = _texts(figure)
    table = candidates_table(result).set_index("point")
    page = table_html(candidates_table(result), "point", "candidates")
    assert len(view.data) == len(result.points)  # the cell not raced has no link
    for cell, row in zip(view.data.to_dict("records"), frame.to_dict("records"), strict=True):
        assert cell["point"] == row["point"] and cell["verdict"] == row["verdict"]
        text = drawn[(PLANK.values.index(cell["x"]), PIRATES.values.index(cell["y"]))]
        assert text.get_text().split("\n")[0] == cell["cell_text"]
        assert cell["dark"] == (row["verdict"] == "pass")
        assert f'id="candidates-{row["point"]}"' in page and cell["href"].endswith(
            f"-{row['point']}"
        )
        candidate = table.loc[row["point"]]
        assert candidate["verdict"] == cell["value_text"] and candidate["games"] == row["games"]
        assert cell["interval_text"].endswith(candidate["balance_index"])
        assert candidate["balance_index"] == (
            f"{row['balance_index']:.3f} [{row['balance_index_low']:.3f}, "
            f"{row['balance_index_high']:.3f}]"
        )


def test_the_skill_page_lists_every_match() -> None:
    matches = pd.DataFrame(
        {"rung": ["greedy", "mc"], "against": ["random", "greedy"],
         "role": ["vs_below", "vs_below"], "games": [1000, 1000], "wins": [400, 500],
         "rate": [0.4, 0.5], "low": [0.37, 0.47], "high": [0.43, 0.53],
         "fair_share": [0.25, 0.25], "ahead": [0.3, 0.0], "behind": [0.2, 0.0],
         "share": [0.6, np.nan], "share_low": [0.55, np.nan], "share_high": [0.65, np.nan],
         "effective": [900.0, 900.0], "p_value": [0.04, np.nan], "p_down": [0.9, np.nan]}
    )  # fmt: skip

    class Ladder:
        pass

    ladder = Ladder()
    ladder.matches = matches  # type: ignore[attr-defined]
    table = matches_table(ladder)  # type: ignore[arg-type]
    assert table["win rate"].tolist() == ["40.0% [37.0, 43.0]", "50.0% [47.0, 53.0]"]
    assert table["head to head"].tolist() == ["60.0% [55.0, 65.0]", "n/a"]


def test_lifeboats_score_panels_keep_a_line_a_group() -> None:
    curves = {
        "seat 0": pd.DataFrame({"score": [0, 1, 2], "share": [0.2, 0.5, 0.3]}),
        "seat 1": pd.DataFrame({"score": [0, 1, 2], "share": [0.4, 0.4, 0.2]}),
    }
    pooled = pd.DataFrame({"score": [0, 1, 2], "share": [0.3, 0.45, 0.25]})
    figure = plot_score_panels(curves, pooled=pooled, title="t", xlabel="x", ylabel="y", note="n")
    view = view_of(figure)
    assert view is not None and view.kind == "lines" and view.caption == "n"
    for label, table in [*curves.items(), ("every seat", pooled)]:
        line = view.data[view.data["label"] == label]
        np.testing.assert_array_equal(line["value"], table["share"])


def test_every_view_is_a_vega_lite_specification() -> None:
    pytest.importorskip("altair")
    from balance.reports.page import vega_spec

    sweep = _sweep((4,), [PLANK, PIRATES])
    frame = point_frame(sweep)
    figures = [
        plot_heat_map(frame, PLANK, PIRATES, "balance_index", title="t", note="n"),
        plot_against_axis(point_frame(_sweep((4, 5), [PLANK])), PLANK, "balance_index",
                          ylabel="y", note="n"),
        plot_main_effects(main_effects(frame, [PLANK, PIRATES], "length_mean"),
                          ylabel="length", note="n"),
        plot_sensitivity({"bi": sensitivity(frame, [PLANK, PIRATES], "balance_index")}, note="n"),
        heat_map(_tournament()),
    ]  # fmt: skip
    for figure in figures:
        spec = vega_spec(view_of(figure))
        assert spec is not None
        text = json.dumps(spec)
        if view_of(figure).kind == "heatmap":
            assert '"href"' in text and "#p" in text
