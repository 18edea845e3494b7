"""``balance sweep``: designs, common random numbers, tallies, targets, files, errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from balance import api
from balance.analyses.compare import compare
from balance.analyses.sweep import sweep
from balance.analyses.sweep_charts import main_effects, point_frame, sensitivity, sweep_charts
from balance.analyses.sweep_design import (
    Axis,
    design_points,
    figure_of,
    parse_axis,
    parse_target,
)
from balance.analyses.sweep_tally import BASE, compact, merge
from balance.core.errors import BalanceError
from balance.stats.metrics import Metric

GAME = "walk-the-plank"
GAMES = 1500


# --- parsing and designs (no games played) --------------------------------------------


def test_axes_parse_lists_ranges_and_values_with_commas() -> None:
    assert parse_axis("plank_max=3..6").values == ("3", "4", "5", "6")
    assert parse_axis("plank_max=3,5").values == ("3", "5")
    assert parse_axis("rest=charge,run;none").values == ("charge,run", "none")
    assert parse_axis("variant=base,kraken,ghost+dolphin").kind == "variant"
    assert parse_axis("plank_max=3..6").numeric
    for bad, fragment in [
        ("plank_max=6..3", "empty"),
        ("plank_max", "NAME="),
        ("plank_max=3,,4", "empty value"),
        ("plank_max=3,3", "twice"),
        ("plank_max=3..x", "range"),
    ]:
        with pytest.raises(BalanceError, match=fragment):
            parse_axis(bad)


def test_grid_is_every_combination_first_axis_slowest() -> None:
    axes = [Axis("a", ("1", "2")), Axis("b", ("x", "y", "z"))]
    points = design_points(axes, "grid")
    assert len(points) == 6
    assert points[0] == {"a": "1", "b": "x"} and points[3] == {"a": "2", "b": "x"}


@pytest.mark.parametrize("design", ["lhs", "sobol"])
def test_sampled_designs_are_seeded_merge_duplicates_and_use_allowed_levels(design) -> None:
    axes = [Axis("a", tuple(str(v) for v in range(3, 9))), Axis("b", ("1", "2"))]
    first = design_points(axes, design, points=40, seed=5)
    assert first == design_points(axes, design, points=40, seed=5)
    assert first != design_points(axes, design, points=40, seed=6)
    keys = [tuple(p.items()) for p in first]
    assert len(keys) == len(set(keys)) <= 12  # 6 x 2 levels: duplicates merged
    assert all(p["a"] in axes[0].values and p["b"] in axes[1].values for p in first)
    # 40 draws over 12 cells: a stratified sample reaches every level of each axis
    assert {p["a"] for p in first} == set(axes[0].values)


def test_targets_parse_and_give_verdicts_from_intervals() -> None:
    at_least = parse_target("balance_index>=0.97")
    assert at_least.verdict(0.975, 0.99) == "pass"
    assert at_least.verdict(0.90, 0.96) == "fail"
    assert at_least.verdict(0.96, 0.99) == "undecided"
    band = parse_target("length_mean=6..10")
    assert (band.low, band.high) == (6, 10)
    assert band.verdict(7, 9) == "pass" and band.verdict(10.5, 11) == "fail"
    assert band.verdict(9, 10.5) == "undecided" and band.verdict(math.nan, 1) == "undecided"
    assert parse_target("seat_win_rate.0<=0.3").figure == "seat_win_rate.0"
    for bad in ["balance_index", "balance_index>=x", "length_mean=10..6", ">=3"]:
        with pytest.raises(BalanceError):
            parse_target(bad)


def test_the_target_syntax_message_lists_every_operator_taken() -> None:
    with pytest.raises(BalanceError) as error:
        parse_target("balance_index")
    for op in (">=", "<=", ">", "<"):
        assert parse_target(f"balance_index{op}0.5").figure == "balance_index"
        assert f"FIGURE{op}X" in str(error.value), str(error.value)
    assert "FIGURE=LO..HI" in str(error.value)


def test_figures_are_found_by_dotted_name() -> None:
    metrics = {
        "balance_index": {"value": 0.9, "ci95": [0.8, 1.0]},
        "seat_win_rate": [{"seat": 0, "rate": 0.3, "ci95": [0.2, 0.4]}],
        "winner_count": {"1": {"value": 0.5, "ci95": [0.4, 0.6]}},
    }
    assert figure_of(metrics, "seat_win_rate.0") == (0.3, 0.2, 0.4)
    assert figure_of(metrics, "winner_count.1") == (0.5, 0.4, 0.6)
    with pytest.raises(BalanceError, match="balance_index"):
        figure_of(metrics, "nothing")


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.booleans(), st.booleans()), min_size=1, max_size=60),
    st.integers(1, 10),
)
def test_tallies_merge_to_the_same_counts_whatever_the_split(rows, cut) -> None:
    frame = pd.DataFrame(rows, columns=["length", "finished", "won_0"]).astype(float)
    frame["score"] = frame["length"] * 0.5  # not whole numbers: the other way of sorting
    chosen = (Metric("game length", "length", "mean"), Metric("score", "score", "mean"))
    whole = compact(frame, chosen, ["won_0"])
    parts = [compact(frame.iloc[k : k + cut], chosen, ["won_0"]) for k in range(0, len(rows), cut)]
    merged = merge(parts[::-1])
    assert set(merged.groups) == {"core", "score"} and merged.games == len(rows)
    for name, group in whole.groups.items():
        assert np.array_equal(merged.groups[name].rows, group.rows)
        assert np.array_equal(merged.groups[name].counts, group.counts)
    core = merged.values("core")
    expected = frame[["length", "finished", "won_0"]].sort_values(list(core.columns))
    assert np.array_equal(core.to_numpy(), expected.to_numpy())


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.booleans(), st.integers(0, 5000)), min_size=1),
    st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8]),
)
def test_whole_columns_are_counted_as_the_float_rows_are(rows, dtype) -> None:
    from balance.analyses.sweep_tally import _count_whole_rows, _unique_rows

    small = np.array([r[0] for r in rows]).astype(dtype)
    flags = np.array([r[1] for r in rows])
    wide = np.array([r[2] for r in rows], dtype=np.int64)
    ones = np.ones(len(rows), dtype=np.int64)
    for arrays in ([small], [small, flags], [wide, small, flags], [wide * 1000, wide]):
        expected = _unique_rows(np.column_stack(arrays).astype(np.float64), ones)
        counted = _count_whole_rows(arrays)
        assert counted is not None
        np.testing.assert_array_equal(counted[0], expected[0])
        np.testing.assert_array_equal(counted[1], expected[1])
        assert counted[0].dtype == np.float64 and counted[1].dtype == np.int64
    assert _count_whole_rows([small.astype(float)]) is None
    assert _count_whole_rows([-1 - small.astype(np.int64)]) is None


def test_a_task_counts_the_engine_s_slim_block_as_the_whole_block_s_games() -> None:
    """play_tally reads the block the engine records slim, as integers; the tally is the
    one of the whole block's per-game columns as floats."""
    from balance.analyses.sweep_tally import play_tally
    from balance.games import get_game
    from balance.stats.metrics import common_per_game

    game = get_game(GAME)
    setup = api.make_setup(GAME, 4, rules={"plank_max": 4}, variants=["kraken"], seed=3)
    block = game.play_block(setup, 100, 700)
    won = np.asarray(block.won)
    frame, chosen = common_per_game(block.length, block.finished, won, game.length_unit)
    for seat in range(4):
        frame[f"won_{seat}"] = won[:, seat]
    own, own_chosen = game.per_game([block])
    frame = pd.concat([frame, own], axis=1).astype(float)
    expected = compact(frame, chosen + own_chosen, [f"won_{s}" for s in range(4)])
    tally = play_tally(setup, 100, 700)
    assert tally.groups.keys() == expected.groups.keys() and tally.games == 700
    for name, group in expected.groups.items():
        assert tally.groups[name].columns == group.columns
        np.testing.assert_array_equal(tally.groups[name].rows, group.rows)
        np.testing.assert_array_equal(tally.groups[name].counts, group.counts)


# --- playing --------------------------------------------------------------------------


def test_a_point_is_simulate_with_its_rules_and_seed() -> None:
    result = sweep(GAME, players=[4], axes=["plank_max=3,5"], games=GAMES, seed=7, block=400)
    for point, plank in zip(result.points, (3, 5), strict=True):
        assert point["rules"] == {"plank_max": plank}
        summary = api.simulate(
            GAME, 4, GAMES, seed=7, rules={"plank_max": plank}, keep_records=False
        ).summary()
        m = point["metrics"]
        assert m["balance_index"]["value"] == summary["balance_index"]
        assert m["balance_index"]["ci95"] == pytest.approx(summary["balance_index_ci95"], 1e-12)
        assert m["length_mean"]["value"] == summary["length_mean"]
        assert m["length_mean"]["ci95"] == pytest.approx(summary["length_ci95"], rel=1e-12)
        assert m["finished_rate"]["value"] == summary["finished_rate"]
        assert m["seat_win_rate"] == summary["seat_win_rate"]
        for k, rate in summary["winner_count"].items():
            assert m["winner_count"][k]["value"] == rate
            assert m["winner_count"][k]["ci95"] == summary["winner_count_ci95"][k]


def test_results_do_not_depend_on_block_size_or_threads() -> None:
    args = dict(players="3,4", axes=["variant=base,kraken"], games=1000, seed=2)
    one = sweep(GAME, **args, block=1000, threads=1)
    many = sweep(GAME, **args, block=137, threads=2)
    pd.testing.assert_frame_equal(one.table, many.table)
    assert [p["rules"] for p in one.points] == [{}] * 4
    assert [p["variants"] for p in one.points] == [[], ["kraken"], [], ["kraken"]]


def test_baseline_differences_are_compare_s_paired_differences() -> None:
    result = sweep(
        GAME, players=[3], axes=["plank_max=3,4"], games=1200, seed=1, baseline="plank_max=3"
    )
    at_base, other = result.points
    assert at_base["difference"]["length_mean"]["value"] == 0.0
    compared = compare(GAME, 3, 1200, ["plank_max=3", "plank_max=4"], seed=1)
    row = compared.table.set_index(["run", "metric"]).loc[("plank_max=4", "game length")]
    diff = other["difference"]["length_mean"]
    assert diff["value"] == pytest.approx(row["difference"], rel=1e-12)
    assert diff["ci95"] == pytest.approx([row["diff_low"], row["diff_high"]], rel=1e-9)
    assert diff["p"] == pytest.approx(row["p"], rel=1e-9, abs=1e-300)
    # Holm over every difference of the sweep: adjusted p-values are never smaller
    cells = [d for p in result.points for d in p["difference"].values()]
    assert all(d["p_holm"] >= d["p"] for d in cells if d["p"] == d["p"])
    # The baseline against itself is no test: it does not count in Holm's correction.
    assert all(d["p"] != d["p"] for d in at_base["difference"].values())
    tests = len(other["difference"])
    assert f"Holm's correction over the sweep's {tests:,} differences" in result.text()
    assert "\n  point 0 (3 players, plank_max=3): the baseline\n" in result.text()
    assert result.table["figure"].str.startswith("difference.").any()


def _paired_tally(rng, rates, games: int = 3000, own: int = 10):
    """A point's tally on ``games`` synthetic games of three seats, paired with a fair
    baseline: each game one winner, the point's the baseline's in half of the games (as
    common random numbers pair them) and else drawn from ``rates``; ``own`` per-game
    counts of the game's own, the same at the point and the baseline."""
    from balance.stats.metrics import common_per_game

    base = rng.integers(0, 3, games)
    point = np.where(rng.random(games) < 0.5, base, rng.choice(3, games, p=rates))
    length = rng.poisson(8, games)
    columns = {"length": length, "finished": np.ones(games, dtype=bool)}
    _, chosen = common_per_game(np.zeros(0), np.zeros(0, bool), np.zeros((0, 3), bool), "r")
    for seat in range(3):
        columns[f"won_{seat}"] = point == seat
    for k in range(own):
        columns[f"count_{k}"] = rng.poisson(2, games)
        chosen.append(Metric(f"count {k}", f"count_{k}", "mean"))
    for name, values in list(columns.items()):
        columns[BASE + name] = (base == int(name[4:])) if name.startswith("won_") else values
    return compact(columns, chosen, [f"won_{s}" for s in range(3)])


def test_one_clearly_different_point_of_sixty_is_significant_after_holm() -> None:
    """60 points, 19 differences each: Holm over 1,140 differences needs p-values far below
    1 / 20,000 (the resampled balance index's draws) to find anything."""
    from balance.analyses.sweep import build_result, plan_sweep

    plan = plan_sweep(
        GAME,
        players=[3],
        axes=["plank_max=3..8", "pirates_per_player=1..5", "variant=base,kraken"],
        games=3000,
        baseline="plank_max=3,pirates_per_player=3,variant=base",
    )
    rng = np.random.default_rng(5)
    different = 41
    tallies = {
        point: _paired_tally(rng, [0.6, 0.2, 0.2] if point == different else [1 / 3] * 3)
        for point in range(len(plan.values))
    }
    result = build_result(plan, tallies, [], "local", 1.0)
    cells = [d for p in result.points for d in p["difference"].values()]
    assert len(result.points) == 60 and len(cells) > 1000
    index = {p["point"]: p["difference"]["balance_index"] for p in result.points}
    assert index[different]["value"] < -0.1 and index[different]["significant"]
    assert index[different]["p"] < 0.05 / len(cells)
    assert not any(index[p]["significant"] for p in index if p != different)
    # 59 points of 19 differences: the baseline against itself is not counted.
    assert "significant at 5% after Holm's correction over the sweep's 1,121" in result.text()


def test_a_balance_index_p_value_below_the_draws_is_a_close_upper_bound() -> None:
    """2,000 draws resolve p-values down to 0.05; below, the Bonferroni tail gives a
    p-value no smaller than 400,000 draws find (valid), and not much larger."""
    from balance.stats.metrics import balance_index_difference

    rng = np.random.default_rng(3)
    base = rng.random(3000) < 0.5
    point = np.where(rng.random(3000) < 0.5, base, rng.random(3000) < 0.555)
    pair = (np.column_stack([point, ~point]), np.column_stack([base, ~base]))
    many = balance_index_difference(*pair, draws=400_000)["p"]
    few = balance_index_difference(*pair, draws=2_000, resolve_tail=True)["p"]
    assert 0.0005 < many < 0.002 and many <= few <= 2 * many


def test_targets_rank_the_points_that_pass() -> None:
    result = sweep(
        GAME,
        players=[5],
        axes=["plank_max=3..5"],
        games=GAMES,
        targets=["length_mean=6..10", "balance_index>=0.9"],
    )
    lengths = {p["rules"]["plank_max"]: p["metrics"]["length_mean"] for p in result.points}
    for point in result.points:
        low, high = point["metrics"]["length_mean"]["ci95"]
        expected = (
            "pass" if low >= 6 and high <= 10 else "fail" if high < 6 or low > 10 else "undecided"
        )
        assert point["verdicts"]["length_mean=6..10"] == expected
    assert lengths[3]["ci95"][1] < 10 < lengths[5]["ci95"][0]  # short planks, short games
    passing = result.passing()
    assert passing and all(set(p["verdicts"].values()) == {"pass"} for p in passing)
    result.passing = lambda: passing[:1]  # a single point passing is said in the singular
    assert "\n1 point passes every target:\n" in result.text()
    result.passing = lambda: passing[:1] * 2
    assert "\n2 points pass every target, best first:\n" in result.text()
    assert len(result.verdicts) == 2 * len(result.points)
    assert set(result.verdicts["verdict"]) <= {"pass", "fail", "undecided"}


def test_out_writes_the_tidy_table_manifest_charts_and_resume_plays_only_missing(
    tmp_path,
) -> None:
    out = tmp_path / "sweep"
    args = dict(players=[4], axes=["plank_max=3,4,5"], games=800, seed=4)
    first = sweep(GAME, **args, out=out)
    table = pd.read_parquet(out / "sweep.parquet")
    pd.testing.assert_frame_equal(table, first.table)
    assert {
        "point",
        "players",
        "plank_max",
        "figure",
        "value",
        "ci_low",
        "ci_high",
        "games",
    } <= set(pd.read_csv(out / "sweep.csv").columns)
    assert set(table["figure"]) >= {"balance_index", "length_mean", "seat_win_rate.3"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["spec"]["axes"] == {
        "players": ["4"],
        "plank_max": ["3", "4", "5"],
    }
    assert (out / "sweep.pdf").exists() and (out / "01-balance-index.png").exists()
    (out / "points" / "00001.npz").unlink()  # as if Ctrl-C had stopped it there
    resumed = sweep(GAME, **args, out=out, resume=True, charts=False)
    assert resumed.played_games == 800  # one point played again, two read back
    pd.testing.assert_frame_equal(resumed.table, first.table)
    with pytest.raises(BalanceError, match="differs in games"):
        sweep(GAME, **{**args, "games": 900}, out=out, resume=True)


def test_a_sample_says_what_it_merged_and_tables_name_points_and_axes() -> None:
    """30 draws over 6 cells of levels: the text says 24 were merged; the text table leads
    with the point numbers; the verdicts carry each point's axis values."""
    result = sweep(
        GAME,
        players=[4],
        axes=["plank_max=3..5", "pirates_per_player=2,3"],
        design="lhs",
        points=30,
        games=60,
        targets=["length_mean<=8"],
    )
    assert len(result.points) == 6 and result.to_json()["points_asked"] == 30
    assert "6 points (lhs of 30 drawn: 24 landed on the levels of another and were merged)" in (
        result.text()
    )
    lines = result.text().splitlines()
    header = next(k for k, line in enumerate(lines) if line.startswith("point"))
    assert [line.split()[:3] for line in lines[header + 1 : header + 7]] == [
        [str(p["point"]), str(p["rules"]["plank_max"]), str(p["rules"]["pirates_per_player"])]
        for p in result.points
    ]
    verdicts = result.verdicts
    assert list(verdicts.columns[:4]) == ["point", "players", "plank_max", "pirates_per_player"]
    table = result.table.drop_duplicates("point").set_index("point")
    for row in verdicts.itertuples():
        assert row.plank_max == table.loc[row.point, "plank_max"]
    grid = sweep(GAME, players=[4], axes=["plank_max=3,4"], games=60)
    assert "merged" not in grid.text()


def test_json_has_every_key_the_designers_tools_read() -> None:
    out = invoke(
        "sweep", GAME, "--players", "3", "--axis", "plank_max=3,4", "--games", 600, "--json"
    )
    assert out.count("\n") == 1
    data = json.loads(out)
    assert {
        "game",
        "seed",
        "games",
        "design",
        "axes",
        "backend",
        "elapsed_s",
        "games_per_s",
    } <= set(data)
    assert data["backend"] == "local" and data["axes"]["plank_max"] == ["3", "4"]
    point = data["points"][0]
    assert {"point", "players", "rules", "variants", "games", "metrics"} <= set(point)
    m = point["metrics"]
    for key in ("balance_index", "length_mean", "finished_rate"):
        assert set(m[key]) >= {"value", "ci95"} and len(m[key]["ci95"]) == 2
    assert [row["seat"] for row in m["seat_win_rate"]] == [0, 1, 2]
    assert "reveals_charge" in m  # the game's own figures


def test_own_figures_of_la_planche() -> None:
    result = sweep("la-planche", players=[3], games=400)
    metrics = result.points[0]["metrics"]
    colours = [k for k in metrics if k.startswith("last_")]
    assert colours and all(0 <= metrics[k]["value"] <= 1 for k in colours)
    assert sum(metrics[k]["value"] for k in colours) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--axis", "nonsense=1,2"], "unknown axis 'nonsense'"),
        (["--axis", "plank_max=99"], "plank_max"),
        (["--axis", "plank_max=5..3"], "empty"),
        (["--players", "9"], "player"),
        (["--target", "balance_index>>1"], "--target"),
        (["--target", "nothing>=1"], "no figure"),
        (["--axis", "plank_max=1..200", "--axis", "pirates_per_player=1..60"], "--yes"),
        (["--design", "lhs"], "--points"),
        (["--axis", "plank_max=3,4", "--rule", "plank_max=3"], "both swept"),
        (["--baseline", "nothing=3"], "unknown rule"),
        (["--precision", 0.05], "--games and --precision exclude each other"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, args, fragment) -> None:
    code, out, err = call_main(monkeypatch, capsys, "sweep", GAME, "--games", 50, *args)
    assert_one_line_error(code, out, err, fragment)


# --- charts ---------------------------------------------------------------------------


def test_sensitivity_names_the_axis_that_moves_a_figure() -> None:
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    rng = np.random.default_rng(0)
    axes = [Axis("a", ("1", "2", "3")), Axis("b", ("x", "y")), Axis("c", ("p", "q"))]
    rows = []
    for a in axes[0].values:
        for b in axes[1].values:
            for c in axes[2].values:
                rows.append(
                    {"players": 4, "a": a, "b": b, "c": c,
                     "f": int(a) * 1.0 + (b == "y") * 0.1 + rng.normal(0, 0.01), "f_se": 0.01}
                )  # fmt: skip
    frame = pd.DataFrame(rows)
    shares = sensitivity(frame, axes, "f")
    assert list(shares["axis"])[:2] == ["a", "b"] and shares["share"].iloc[0] > 0.9
    assert list(shares["beyond_noise"]) == [True, True, False]
    # The shares are statsmodels' type-II sums of squares over the total, on an
    # unbalanced design too.
    part = frame.drop(index=[0, 5, 7])
    fitted = ols("f ~ C(a) + C(b) + C(c)", data=part).fit()
    table = sm.stats.anova_lm(fitted, typ=2)
    total = float(((part["f"] - part["f"].mean()) ** 2).sum())
    got = sensitivity(part, axes, "f").set_index("axis")["share"]
    for name in "abc":
        assert got[name] == pytest.approx(table.loc[f"C({name})", "sum_sq"] / total, rel=1e-9)
    effects = main_effects(frame, axes, "f")
    a_means = effects[effects["axis"] == "a"]["mean"].to_numpy()
    assert np.all(np.diff(a_means) > 0.9) and (effects["points"] == [4, 4, 4, 6, 6, 6, 6]).all()


def _noise_sweeps(rng, effect: float = 0.0, draws: int = 2000):
    """``draws`` sweeps of a 4 x 3 x 3 grid (one point missing), each point's figure
    its truth plus normal noise of its own standard error (0.005 to 0.02): the truth is
    flat, or moved by ``effect`` standard errors of the typical point along axis ``a``."""
    from balance.analyses.sweep_charts import _main_effect_bases

    axes = [Axis("a", ("1", "2", "3", "4")), Axis("b", ("x", "y", "z")), Axis("c", tuple("pqr"))]
    grid = pd.DataFrame(
        [{"players": 4, "a": a, "b": b, "c": c} for a in "1234" for b in "xyz" for c in "pqr"]
    ).iloc[1:]
    se = rng.uniform(0.005, 0.02, len(grid))
    truth = 0.98 + effect * 0.0125 * (grid["a"].astype(int).to_numpy() - 2.5) / 1.5
    y = truth[:, None] + se[:, None] * rng.standard_normal((len(grid), draws))
    return _main_effect_bases(grid, [a.name for a in axes]), y, se


@pytest.mark.parametrize(("scale", "calibrated"), [(1.0, True), (0.8, False), (1.3, False)])
def test_pure_noise_sweeps_are_called_noise_in_95_percent_of_draws(scale, calibrated) -> None:
    """Known truth: a flat figure. No axis passes its noise reference in 95% of sweeps
    (Bonferroni over three axes: 4.9%); references from standard errors 20% too small
    or 30% too large miss that by far (checked so that the test can fail)."""
    from balance.analyses.sweep_charts import NOISE_LEVEL, noise_test

    bases, y, se = _noise_sweeps(np.random.default_rng(11), draws=20_000)
    _, _, p = noise_test(bases, y, se * scale)
    called = (p < NOISE_LEVEL / 3).any(axis=0).mean()  # 20,000 sweeps: +/-0.15% at 5%
    assert bool(0.04 <= called <= 0.053) == calibrated, called


def test_a_real_effect_passes_its_noise_reference_and_only_it() -> None:
    """Known truth: axis ``a`` moves the figure by two typical standard errors end to
    end; the flat axes stay within their references (5%/3 of sweeps each)."""
    from balance.analyses.sweep_charts import NOISE_LEVEL, noise_test

    bases, y, se = _noise_sweeps(np.random.default_rng(12), effect=2.0)
    _, _, p = noise_test(bases, y, se)
    found = p < NOISE_LEVEL / 3
    assert found[0].mean() > 0.95 and found[1:].mean() < 0.03


@pytest.mark.parametrize(("scale", "calibrated"), [(1.0, True), (0.8, False), (1.3, False)])
def test_framed_cells_hold_the_best_point_in_95_percent_of_sweeps(scale, calibrated) -> None:
    """Known truth, the least favourable one: twelve points tied for best, each with its
    own standard error. Each is framed in 95-98.5% of sweeps (Bonferroni over eleven
    rivals is a little conservative); standard errors 20% too small or 30% too large
    leave that band."""
    from balance.analyses.sweep_charts import best_cells

    rng = np.random.default_rng(13)
    se = rng.uniform(0.01, 0.02, 12)
    values = 0.98 + se * rng.standard_normal((3000, 12))
    framed = np.array([best_cells(row, se * scale) for row in values])
    assert bool(0.95 <= framed.mean() <= 0.985) == calibrated, framed.mean()
    # A point 6 standard errors below the rest is never framed.
    assert not best_cells(np.array([0.98, 0.98, 0.98 - 6 * 0.02]), np.full(3, 0.01))[2]


def test_the_balance_index_standard_error_is_its_spread_over_repeated_games() -> None:
    """Known truth: 300 runs of 2,000 games; the mean standard error is the spread of the
    index within 12% apart from a tie, and no smaller than it at a tie (where it is
    conservative)."""
    from balance.analyses.sweep import _index_se
    from balance.stats.metrics import balance_index

    rng = np.random.default_rng(14)
    for rates, band in [
        ([0.4, 0.3, 0.2, 0.1], (0.88, 1.12)),
        ([0.55, 0.45], (0.88, 1.12)),
        ([0.25] * 4, (1.0, 1.6)),
    ]:
        index, se = [], []
        for _ in range(300):
            won = rng.multinomial(2000, rates) / 2000
            covariance = (np.diag(won) - np.outer(won, won)) * 2000 / 1999
            index.append(balance_index(won))
            se.append(_index_se(2000, won, covariance))
        ratio = np.mean(se) / np.std(index, ddof=1)
        assert band[0] <= ratio <= band[1], (rates, ratio)


@pytest.mark.parametrize(
    "axes",
    [
        ["plank_max=3,4"],
        ["plank_max=3,4", "pirates_per_player=2,3"],
        ["plank_max=3,4", "pirates_per_player=2,3", "variant=base,kraken"],
    ],
)
def test_chart_pages_follow_the_number_of_axes(axes) -> None:
    result = sweep(GAME, players=[4], axes=axes, games=300, targets=["balance_index>=0.5"])
    frame = point_frame(result)
    assert len(frame) == len(result.points) and frame["passes"].dtype == bool
    charts = {chart.name: chart.figure for chart in sweep_charts(result)}
    expected = {1: "01-balance-index", 2: "01-heat-balance-index-4p", 3: "04-sensitivity"}
    assert next(iter(charts)) == "00-title" and expected[len(axes)] in charts
    captions = {
        name: " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
        for name, fig in charts.items()
    }
    if len(axes) == 2:  # 300 games: every cell is within noise of the best
        assert "Framed: the cells that cannot be told from the best" in captions[expected[2]]
        assert "no cell can be told from the best" in charts[expected[2]].axes[0].get_title()
    if len(axes) == 3:
        # The ranges the main effects draw are not intervals, and the caption says so.
        effects = captions["01-main-effects-balance-index"]
        assert "95% interval" not in effects.split("not an interval")[0]
        assert "smallest to the largest point" in effects
        # 300 games a point: the balance index's differences are within its noise.
        labels = [t.get_text() for t in charts[expected[3]].axes[0].get_yticklabels()]
        assert "indistinguishable from noise" in labels[0] and labels[0].startswith("balance")
        assert "Tick: the share the points' own noise" in captions[expected[3]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 30)), min_size=1, max_size=12))
def test_a_mean_from_counts_is_the_mean_of_the_games(rows) -> None:
    from balance.analyses.sweep import _weighted_mean_interval
    from balance.stats.intervals import mean_interval

    values = np.array([v for v, _ in rows], dtype=float)
    counts = np.array([c for _, c in rows])
    expected = mean_interval(np.repeat(values, counts))
    assert _weighted_mean_interval(values, counts) == pytest.approx(expected, rel=1e-9, nan_ok=True)
    floored = mean_interval(np.repeat(values, counts), floor=0.0)
    assert _weighted_mean_interval(values, counts, 0.0) == pytest.approx(
        floored, rel=1e-9, nan_ok=True
    )


def test_no_count_of_a_three_game_point_reaches_below_zero() -> None:
    """Three games leave wide t intervals: a card's reveals a game are cut at 0, as
    simulate cuts them; only seat 0's advantage (a difference) may be negative."""
    metrics = sweep(GAME, players=[4], games=3, seed=1).points[0]["metrics"]
    own = {k: v for k, v in metrics.items() if k.startswith("reveals_")}
    lows = [v["ci95"][0] for v in own.values() if not math.isnan(v["ci95"][0])]
    assert lows and min(lows) == 0.0  # some interval was cut, none reaches below
    assert all(low >= 0.0 for low in lows)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 25), st.booleans(), st.integers(0, 7), st.integers(1, 40)),
        min_size=1,
        max_size=40,
    ),
    st.integers(2, 3),
)
def test_a_point_s_figures_from_counts_are_those_of_its_games(rows, n) -> None:
    """point_metrics reads a point's counts; the same figures from one row a game."""
    from balance.analyses.sweep import point_metrics
    from balance.run.moments import RunSums
    from balance.stats.intervals import mean_interval, wilson_interval
    from balance.stats.metrics import balance_index_from_moments, length_summary

    games = np.repeat(
        [[r[0], r[1], *((r[2] >> s) & 1 for s in range(n))] for r in rows],
        [r[3] for r in rows],
        axis=0,
    ).astype(float)
    won_columns = [f"won_{s}" for s in range(n)]
    frame = pd.DataFrame(games, columns=["length", "finished", *won_columns])
    tally = compact(frame, (Metric("game length", "length", "mean"),), won_columns)
    m = point_metrics(tally, n)
    won, length, finished = games[:, 2:].astype(bool), games[:, 0], games[:, 1].astype(bool)
    close = dict(rel=1e-12, abs=1e-15, nan_ok=True)
    # The balance index as simulate computes it without records: from the seats' exact
    # integer sums (np.cov's rounding can flip the moment selection at a knife edge).
    sums = RunSums.of_block(len(won), won.astype(float), won_columns, {})
    covariance = sums.covariance(won_columns) if len(won) >= 2 else None
    index = balance_index_from_moments(len(won), sums.rates(won_columns), covariance)
    assert m["balance_index"]["value"] == pytest.approx(index["value"], **close)
    assert m["balance_index"]["ci95"] == pytest.approx([index["low"], index["high"]], **close)
    if len(won) >= 2:
        np.testing.assert_allclose(covariance, np.cov(won, rowvar=False), atol=1e-15)
    lengths = length_summary(length, finished)
    assert m["length_mean"]["value"] == pytest.approx(lengths["mean"], **close)
    assert m["length_mean"]["ci95"] == pytest.approx(
        [lengths["mean_low"], lengths["mean_high"]], **close
    )
    assert m["length_median"]["value"] == pytest.approx(lengths["median"], **close)
    assert m["length_median"]["ci95"] == pytest.approx(
        [lengths["median_low"], lengths["median_high"]], **close
    )
    assert m["finished_rate"]["value"] == finished.mean()
    for seat in range(n):
        assert m["seat_win_rate"][seat]["rate"] == won[:, seat].mean()
        assert m["seat_win_rate"][seat]["ci95"] == list(
            wilson_interval(won[:, seat].sum(), len(won))
        )
    winners = won.sum(axis=1)
    for k, node in m["winner_count"].items():
        assert node["value"] == (winners == int(k)).mean()
    value, low, high = mean_interval(won[:, 0] - won.mean(axis=1))
    most = (n - 1) / n  # the interval is cut to what a game's value can take
    advantage = [value, max(low, -most), min(high, most)]
    assert [m["seat0_advantage"]["value"], *m["seat0_advantage"]["ci95"]] == pytest.approx(
        advantage, **close
    )


def test_keep_runs_saves_the_games_each_point_counted(tmp_path) -> None:
    from balance.analyses.sweep import keep_point_runs
    from balance.run.results import load_run

    out = tmp_path / "sweep"
    result = sweep(GAME, players=[3], axes=["plank_max=3,4"], games=300, out=out, charts=False)
    keep_point_runs(result, out, threads=1)
    for point in result.points:
        saved = json.loads((out / "runs" / f"{point['point']:05d}" / "summary.json").read_text())
        assert saved["rules"]["plank_max"] == point["rules"]["plank_max"]
        assert saved["seat_win_rate"] == point["metrics"]["seat_win_rate"]
        assert saved["length_mean"] == point["metrics"]["length_mean"]["value"]
        assert load_run(out / "runs" / f"{point['point']:05d}").games == 300


def test_own_figures_of_battle_of_thieves_include_win_reasons_and_their_differences() -> None:
    result = sweep(
        "battle-of-thieves",
        axes=["variant=decks=cannon-battery,boarding-party;decks=cannon-battery,island-raiders"],
        games=300,
        baseline="variant=decks=cannon-battery,boarding-party",
    )
    metrics = result.points[0]["metrics"]
    reasons = [k for k in metrics if k.startswith("won_by_")]
    assert reasons and "seat_win_rate" in metrics and len(metrics["seat_win_rate"]) == 2
    assert set(reasons) <= set(result.points[1]["difference"])
    assert result.points[0]["difference"][reasons[0]]["value"] == 0.0


# --- --precision: each point played until its intervals are narrow enough -------------


def _simulated(plank_max: str, precision: float, max_games: int | None = None) -> dict:
    """``balance simulate --precision`` of one point, as its JSON summary."""
    run = api.simulate(
        GAME,
        players=4,
        rules=[("plank_max", plank_max)],
        precision=precision,
        max_games=max_games,
        keep_records=False,
        threads=1,
    )
    return run.summary()


@pytest.mark.parametrize(("precision", "max_games"), [(0.02, None), (0.01, 5000)])
def test_precision_point_stops_where_simulate_does(precision, max_games) -> None:
    result = sweep(
        GAME,
        players=[4],
        axes=["plank_max=3,5"],
        precision=precision,
        max_games=max_games,
        threads=2,
    )
    assert result.precision == precision and len(result.points) == 2
    for point in result.points:
        alone = _simulated(point["rules"]["plank_max"], precision, max_games)
        assert point["anytime_valid"] and point["games"] == alone["games"]
        assert point["stopped_by"] == alone["stopped_by"]
        metrics = point["metrics"]
        assert metrics["balance_index"]["ci95"] == alone["balance_index_ci95"]
        assert [r["ci95"] for r in metrics["seat_win_rate"]] == [
            r["ci95"] for r in alone["seat_win_rate"]
        ]
        assert point["widest_half_width"] == pytest.approx(alone["widest_half_width"])
        if max_games is None:  # several blocks of 4,096, each interval within +/-H
            assert point["games"] > 4096 and point["games"] % 4096 == 0
            assert point["widest_half_width"] <= precision
        else:  # stopped by the cap, in the middle of the second block
            assert point["games"] == max_games and point["stopped_by"] == "max_games"
            assert point["widest_half_width"] > precision


def test_precision_sweep_is_the_same_on_any_number_of_threads(tmp_path) -> None:
    one = sweep(GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, threads=1)
    two = sweep(GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, threads=2)
    assert one.points == two.points
    # Resumed from --out, the points read back keep their anytime-valid intervals.
    out = tmp_path / "sweep"
    sweep(GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, out=out, charts=False)
    (out / "points" / "00001.npz").unlink()
    again = sweep(
        GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, out=out, resume=True,
        charts=False,
    )  # fmt: skip
    assert again.points == one.points


def test_precision_sweep_json_and_text_say_anytime_valid() -> None:
    args = ["sweep", GAME, "--players", 3, "--axis", "plank_max=3,4", "--precision", 0.05]
    data = json.loads(invoke(*args, "--max-games", 8000, "--json"))
    assert data["precision"] == 0.05 and data["max_games"] == 8000
    for point in data["points"]:
        assert point["anytime_valid"] is True and point["stopped_by"]
        assert 0 < point["games"] <= 8000
    text = invoke(*args)
    assert "95% anytime-valid intervals" in text and "stopped by" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--precision", 0.7], "--precision is the half-width"),
        (["--precision", 0], "--precision is the half-width"),
        (["--max-games", 5000], "--max-games goes with --precision"),
        (["--precision", 0.05, "--max-games", 0], "--max-games must be from 1"),
    ],
)
def test_bad_precision_is_one_line_as_in_simulate(monkeypatch, capsys, args, fragment) -> None:
    code, out, err = call_main(monkeypatch, capsys, "sweep", GAME, "--axis", "plank_max=3,4", *args)
    assert_one_line_error(code, out, err, fragment)
    code, out, err = call_main(monkeypatch, capsys, "simulate", GAME, *args)
    assert_one_line_error(code, out, err, fragment)


def test_a_precision_sweep_whose_points_played_alike_says_so_once() -> None:
    from types import SimpleNamespace

    from balance.analyses.sweep import precision_sweep_lines

    alike = [{"games": 8192, "stopped_by": "balance index"}] * 3
    (line, _) = precision_sweep_lines(SimpleNamespace(precision=0.03, points=alike))
    assert "8,192 games at every point" in line and "8,192 to 8,192" not in line
    apart = [*alike, {"games": 12288, "stopped_by": "max_games"}]
    (line, _) = precision_sweep_lines(SimpleNamespace(precision=0.03, points=apart))
    assert "8,192 to 12,288 games a point; 1 of 4 stopped at --max-games" in line
