"""A tune's report: the findings in plain words, the verdict map and the games spent.

What a designer relies on: the findings page answers the question asked (which rule sets
meet the targets) with the warnings first, says plainly when none does and what the
undecided ones need; the table behind the charts holds one row a candidate; the report
is written as PNGs and one PDF with the findings first.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from balance.analyses.sweep_design import Axis, parse_target
from balance.analyses.tune import TuneResult, tune
from balance.analyses.tune_charts import (
    findings_lines,
    games_text,
    map_pages,
    positions,
    tune_charts,
    uncrowded,
    verdict_frame,
)
from balance.analyses.tune_race import shortfall

GAME = "walk-the-plank"
TARGETS = [parse_target("balance_index>=0.95"), parse_target("length_mean=6..10")]
PLANK = Axis("plank_max", ("3", "4", "5"))
PLAYERS5 = Axis("players", ("5",), "players")


def _point(
    number: int,
    plank: int,
    verdict: str,
    games: int,
    index: tuple[float, float, float],
    length: tuple[float, float, float],
    **extra: Any,
) -> dict[str, Any]:
    """A candidate's JSON as a tune keeps it: five players, one swept rule."""
    verdicts = extra.pop("verdicts", None) or {t.text: verdict for t in TARGETS}
    point = {
        "point": number,
        "players": 5,
        "rules": {"plank_max": plank},
        "variants": [],
        "variant_label": None,
        "axis_values": {"players": "5", "plank_max": str(plank)},
        "games": games,
        "metrics": {
            "balance_index": {"value": index[0], "ci95": [index[1], index[2]]},
            "length_mean": {"value": length[0], "ci95": [length[1], length[2]]},
        },
        "verdict": verdict,
        "verdicts": verdicts,
        "intervals": {
            TARGETS[0].text: [index[1], index[2]],
            TARGETS[1].text: [length[1], length[2]],
        },
        "decided_by": None,
        "needs": {},
        "capped_by": None,
        "reason": "",
        "changes": int(plank != 3),
        "middle_distance": abs(length[0] - 8) / 2,
        "rank": None,
        "warnings": [],
    }
    point.update(extra)
    return point


def _result(points: list[dict[str, Any]], **extra: Any) -> TuneResult:
    """A hand-built tune of ``plank_max`` 3..5 for five players."""
    fields: dict[str, Any] = dict(
        game=GAME,
        seed=0,
        search="grid",
        axes=[PLAYERS5, PLANK],
        targets=TARGETS,
        block=1024,
        max_games=4096,
        budget=None,
        backend="local",
        elapsed_s=0.5,
        points=points,
        table=pd.DataFrame(),
        verdicts=pd.DataFrame(),
        explored={"search": "grid", "space": 3, "candidates": len(points), "share": 1.0},
        strategies=["random"],
        games_played=sum(p["games"] for p in points),
    )
    fields.update(extra)
    return TuneResult(**fields)


DROPPED = dict(decided_by="length_mean=6..10")
LOW_INDEX = dict(decided_by="balance_index>=0.95")


@pytest.fixture
def feasible() -> TuneResult:
    return _result(
        [
            _point(0, 3, "pass", 9216, (0.994, 0.952, 1.0), (8.13, 7.99, 8.26), rank=1),
            _point(1, 4, "fail", 3072, (0.97, 0.90, 1.0), (10.6, 10.2, 11.0), **DROPPED),
            _point(2, 5, "fail", 1024, (0.96, 0.85, 1.0), (14.4, 13.1, 15.6), **DROPPED),
        ]
    )


@pytest.fixture
def none_feasible() -> TuneResult:
    return _result(
        [
            _point(0, 3, "fail", 2048, (0.75, 0.70, 0.80), (8.1, 7.9, 8.3), **LOW_INDEX),
            _point(1, 4, "fail", 3072, (0.97, 0.90, 1.0), (10.6, 10.2, 11.0), **DROPPED),
            _point(2, 5, "fail", 1024, (0.96, 0.85, 1.0), (14.4, 13.1, 15.6), **DROPPED),
        ]
    )  # fmt: skip


@pytest.fixture
def undecided() -> TuneResult:
    need = {"games": 56_000, "reason": "about 56,000 games in all: ..."}
    return _result(
        [
            _point(
                0, 3, "undecided", 4096, (0.982, 0.923, 1.0), (8.08, 7.83, 8.35),
                verdicts={TARGETS[0].text: "undecided", TARGETS[1].text: "pass"},
                needs={TARGETS[0].text: need}, capped_by="max_games",
            ),
            _point(1, 4, "fail", 3072, (0.97, 0.90, 1.0), (10.6, 10.2, 11.0), **DROPPED),
            _point(2, 5, "fail", 1024, (0.96, 0.85, 1.0), (14.4, 13.1, 15.6), **DROPPED),
        ]
    )  # fmt: skip


def test_the_verdict_frame_holds_one_row_a_candidate(undecided) -> None:
    frame = verdict_frame(undecided)
    assert list(frame["point"]) == [0, 1, 2]
    assert list(frame["plank_max"]) == ["3", "4", "5"]
    assert list(frame["verdict"]) == ["undecided", "fail", "fail"]
    assert list(frame["games"]) == [4096, 3072, 1024]
    assert frame["decided_by"].isna().tolist() == [True, False, False]
    assert frame.loc[1, "decided_by"] == "length_mean=6..10"
    assert frame.loc[0, "needs"] == 56_000 and np.isnan(frame.loc[1, "needs"])
    assert frame.loc[1, "length_mean"] == 10.6
    assert (frame.loc[0, "balance_index_low"], frame.loc[0, "balance_index_high"]) == (0.923, 1.0)
    assert frame["rank"].isna().all()


def test_the_findings_name_the_best_rule_set_with_its_intervals_and_changes(feasible) -> None:
    lines = findings_lines(feasible)
    assert lines[0].startswith("warning: every seat plays at random")
    text = "\n".join(lines)
    assert lines[1] == (
        "Which rule sets of Walk the Plank for 5 players with plank_max 3..5, 3 rule sets, "
        "meet balance_index>=0.95 and length_mean=6..10?"
    )
    assert "The tune raced all 3 rule sets of the grid." in text
    assert "1 pass every target, 2 fail one and 0 are undecided" in text
    assert "The best is plank_max=3: the game's defaults, balance_index 0.994 [0.952, 1.000]" in (
        text
    )
    assert "2 outside length_mean=6..10" in text
    assert "expect up to 0.15 (5%) to be wrong" in text
    assert "13,312 games in all" in text


def test_the_findings_say_plainly_when_no_rule_set_meets_the_targets(none_feasible) -> None:
    text = "\n".join(findings_lines(none_feasible))
    assert "No rule set raced meets every target; the closest was plank_max=4 (candidate 1)" in (
        text
    )
    assert "because its length_mean interval [10.20, 11.00] lies outside length_mean=6..10" in (
        text
    )
    assert "The best" not in text and "undecided:" not in text


def test_the_findings_say_what_the_undecided_need(undecided) -> None:
    lines = findings_lines(undecided)
    text = "\n".join(lines)
    assert "the closest was plank_max=3 (candidate 0)" in text
    assert "1 rule set is undecided: an interval still straddles a band's edge at --max-games" in (
        text
    )
    assert "balance_index>=0.95: about 56,000 games in all would decide it" in text
    assert "about 52,000 more games in all (a tune with --max-games 56,320)" in text


def test_warnings_come_before_the_numbers(undecided) -> None:
    capped = "warning: 900 of 4,096 games (22.0% [20.7%, 23.3%]) stopped unfinished at the cap"
    undecided.points[1]["warnings"] = [capped]
    undecided.partial = True
    lines = findings_lines(undecided)
    warned = [k for k, line in enumerate(lines) if line.startswith("warning:")]
    assert warned == [0, 1, 2]
    assert "candidate 1 (plank_max=4): 900 of 4,096 games" in lines[1]
    assert "interrupted" in lines[2]


def test_the_closest_candidate_is_the_least_outside_its_bands(none_feasible) -> None:
    values = [shortfall(p, TARGETS) for p in none_feasible.points]
    # 0.2 below 0.95 (a share: unit 1); 0.6 and 4.4 above 10 (the band is 4 wide).
    assert values == pytest.approx([0.2, 0.15, 1.1])


def test_games_read_short_in_cells() -> None:
    assert [games_text(g) for g in (512, 1024, 9216, 56_023, 1_250_000)] == [
        "512",
        "1k",
        "9.2k",
        "56k",
        "1.2M",
    ]
    assert games_text(math.nan) == "?"


def test_crowded_numbers_are_left_out_in_proposal_order() -> None:
    x = np.array([0.0, 0.0, 0.0, 5.0])
    y = np.array([10.0, 10.2, 30.0, 10.0])
    shown = uncrowded(x, y, [(-0.5, 9.5), (0.0, 100.0)], font=6)
    assert shown.tolist() == [True, False, True, True]


def test_a_sampled_range_lays_candidates_at_their_numbers() -> None:
    sampled = Axis("sink_water", (), sampled=(60.0, 200.0))
    points = [
        {**_point(k, 3, "pass", 1024, (0.99, 0.96, 1.0), (8, 7.5, 8.5), rank=k + 1)}
        for k in range(3)
    ]
    for k, water in enumerate((75, 140, 199)):
        points[k]["axis_values"] = {"players": "5", "plank_max": "3", "sink_water": str(water)}
        points[k]["rules"] = {"plank_max": 3, "sink_water": water}
    result = _result(points, axes=[PLAYERS5, Axis("plank_max", ("3", "4")), sampled])
    assert positions(result, sampled).tolist() == [75.0, 140.0, 199.0]
    assert positions(result, result.axes[1]).tolist() == [0.0, 0.0, 0.0]
    [(suffix, heading, rows)] = map_pages(result)
    assert (suffix, heading, rows.tolist()) == ("", "5 players", [True, True, True])
    names = [chart.name for chart in tune_charts(result)]
    assert names == ["01-verdicts", "02-games", "03-summary"]


@pytest.fixture(scope="module")
def two_axes(tmp_path_factory) -> tuple[TuneResult, Any]:
    out = tmp_path_factory.mktemp("tune")
    result = tune(
        GAME,
        players=[5],
        axes=["plank_max=3..4", "pirates_per_player=2..3"],
        targets=["balance_index>=0.95", "length_mean=6..10"],
        block=512,
        max_games=2048,
        threads=1,
        out=out,
    )
    return result, out


def test_a_tune_writes_its_report_findings_first(two_axes) -> None:
    result, out = two_axes
    names = sorted(path.name for path in out.glob("[0-9][0-9]-*.png"))
    assert names == ["00-findings.png", "01-verdicts.png", "02-games.png", "03-summary.png"]
    pdf = (out / "tune.pdf").read_bytes()
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= len(names)
    frame = verdict_frame(result)
    assert len(frame) == len(result.points) == 4
    assert set(frame.columns) >= {"pirates_per_player", "plank_max", "verdict", "games"}


def test_a_third_axis_splits_the_map_into_pages() -> None:
    result = tune(
        GAME,
        players=[5],
        axes=["plank_max=3..4", "pirates_per_player=2..3", "kraken=false,true"],
        targets=["length_mean=6..10"],
        block=512,
        max_games=1024,
        threads=1,
        charts=False,
    )
    pages = map_pages(result)
    assert [(suffix, heading) for suffix, heading, _ in pages] == [
        ("5p-kraken-false", "5 players, kraken=false"),
        ("5p-kraken-true", "5 players, kraken=true"),
    ]
    assert sum(rows.sum() for _, _, rows in pages) == len(result.points) == 8
    names = [chart.name for chart in tune_charts(result)]
    assert names[:3] == ["01-verdicts-5p-kraken-false", "02-verdicts-5p-kraken-true", "03-games"]
