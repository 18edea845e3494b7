"""scripts/bench.py keeps its measurements as records, writes the performance page from
them and compares two runs; one small real measurement checks what a record holds."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench.py")
assert SPEC is not None and SPEC.loader is not None
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def context(cpu: str = "Test CPU", quick: bool = False) -> dict[str, Any]:
    return {
        "machine": {"cpu": cpu, "cores": 2, "system": "Linux x86_64"},
        "versions": {"balance": "0.1.0", "python": "3.11.7", "numba": "0.68.1", "numpy": "2"},
        "commit": "abc123",
        "date": "2026-11-26T12:00:00+00:00",
        "quick": quick,
    }


def engine_record(ctx: dict[str, Any], rate: float, threads: int = 1) -> dict[str, Any]:
    return bench.record(
        ctx,
        "engine",
        rate,
        engine="compiled",
        game="walk-the-plank",
        players=5,
        strategies="survivor+random",
        variants="base",
        threads=threads,
        games=1000,
        repeats=1,
    )


def command_record(ctx: dict[str, Any], seconds: float) -> dict[str, Any]:
    return bench.record(ctx, "command", None, command="balance games", seconds=seconds)


def test_a_real_measurement_makes_one_record_per_case(monkeypatch) -> None:
    cases = [("random", ()), ("aggressor+random", ("kraken",))]
    monkeypatch.setitem(bench.PLAN, "walk-the-plank", ((3,), cases))
    ctx = bench.context(quick=True)
    records = list(bench.engine_records(ctx, ["walk-the-plank"], None, [1], 0.0, 1))
    assert len(records) == len(cases) + 1  # every case compiled, and the reference engine
    assert [r["variants"] for r in records] == ["base", "kraken", "base"]
    assert len({bench.key_of(r) for r in records}) == len(records)
    for r in records:
        assert r["games_per_s"] > 0 and r["games"] == 200 and r["players"] == 3
        assert r["machine"]["cores"] >= 1 and r["versions"]["numba"] and r["commit"]
    assert [r["engine"] for r in records].count("reference") == 1
    json.dumps(records)  # every record is plain JSON


def test_the_page_says_where_and_when_it_was_measured() -> None:
    ctx = context(quick=True)
    page = bench.markdown([engine_record(ctx, 12345.6), command_record(ctx, 0.4)])
    assert page.startswith("# Performance")
    assert "Test CPU, 2 cores" in page and "numba 0.68.1" in page and "abc123" in page
    assert "2026-11-26" in page and "`--quick` run" in page
    assert "| walk-the-plank | compiled | 5 | survivor + random | base | 1 | 1,000 | 12,346 |" in (
        page
    )
    assert "| `balance games` | 0.40 s |" in page
    assert "`--quick` run" not in bench.markdown([engine_record(context(), 1.0)])


def test_the_page_says_how_busy_the_machine_was() -> None:
    busy = context()
    busy["machine"]["load"] = 9.5
    page = bench.markdown([engine_record(busy, 1.0)], note="A note on this run.")
    assert "Load average when the run started: 9.5 on 2 cores (the machine was busy" in page
    assert "\nA note on this run.\n" in page
    quiet = context()
    quiet["machine"]["load"] = 0.3
    assert "0.3 on 2 cores." in bench.markdown([engine_record(quiet, 1.0)])


def test_comparison_prints_speed_ups_of_matching_measurements() -> None:
    old = [engine_record(context(), 100.0), command_record(context(), 2.0)]
    new = [
        engine_record(context(), 150.0),
        engine_record(context(), 300.0, threads=2),
        command_record(context(), 0.5),
    ]
    text = bench.comparison(old, new)
    assert "1.50x" in text  # games/s: new / old
    assert "4.00x" in text  # seconds: old / new
    assert "2 measurements in both runs (1 only in the new, 0 only in the old)" in text
    assert "different machines" not in text
    assert "different machines" in bench.comparison(old, [engine_record(context("Other"), 1.0)])
    busy = context()
    busy["machine"]["load"] = 7.5
    assert "different machines" not in bench.comparison(old, [engine_record(busy, 1.0)])


def test_compare_two_files_from_the_command_line(tmp_path: Path, capsys) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps([engine_record(context(), 200.0)]))
    new.write_text(json.dumps([engine_record(context(), 100.0)]))
    bench.main(["--compare", str(old), str(new)])
    assert "0.50x" in capsys.readouterr().out
    page = tmp_path / "performance.md"
    bench.main(["--from", str(new), "--markdown", str(page)])
    assert "| 100 |" in page.read_text()


def test_a_player_count_a_game_does_not_play_is_one_line_before_measuring(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--game", "walk-the-plank", "la-planche", "--players", "5", "--threads", "1"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing measured, not even the machine line
    last = captured.err.splitlines()[-1]  # the program's name, then the error
    assert last.endswith(": error: la-planche plays 2 to 4 players, not 5")


@pytest.mark.parametrize("content", ["not json", "{}", "[]", '[{"game": 1}]'])
def test_a_file_that_holds_no_records_is_one_line_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "old.json"
    path.write_text(content)
    with pytest.raises(SystemExit, match=r"^error: .*old.json"):
        bench.load(path)


def memory_record(ctx: dict[str, Any], games: int, saving: bool, seconds: float, cpu: float):
    return bench.record(
        ctx,
        "memory",
        None,
        command=f"{bench.MEMORY_RUN} {games}" + (" --out DIR" if saving else ""),
        games=games,
        saving=saving,
        seconds=seconds,
        cpu_seconds=cpu,
        peak_mb=300.0,
        saved_mb=20.0 if saving else 0.0,
    )


def test_memory_rows_give_the_cost_of_saving() -> None:
    ctx = context()
    records = [
        memory_record(ctx, 1000, False, 2.0, 3.0),
        memory_record(ctx, 1000, True, 2.5, 4.5),
        memory_record(ctx, 3000, False, 4.0, 6.0),
    ]
    (cost,) = bench.save_costs(records)  # no saving run at 3,000 games: no cost there
    assert cost["games"] == 1000 and cost["wall"] == pytest.approx(0.25)
    assert cost["cpu"] == pytest.approx(0.5)
    page = bench.markdown(records)
    assert "## Memory and the cost of saving" in page
    assert f"| `{bench.MEMORY_RUN} 1000 --out DIR` | 300 MB | 2.50 s | 4.50 s |" in page
    assert "| 1,000 | +25% | +50% | 20 MB |" in page
    assert "peak memory" in bench.comparison(records, records)
    json.dumps(records)


def test_saving_rows_time_both_runs_in_turns_and_keep_the_least_of_each(monkeypatch) -> None:
    measured = iter([(4.0, 6.0, 200.0), (6.0, 8.0, 300.0), (3.0, 7.0, 210.0), (5.0, 9.0, 290.0)])
    saved = []

    def measure_child(code: str, args: list[str]) -> tuple[float, float, float]:
        saved.append("--out" in args)
        if "--out" in args:  # the run writes its tables
            out = Path(args[args.index("--out") + 1])
            out.mkdir(exist_ok=True)
            (out / "cards.parquet").write_bytes(bytes(2_000_000))
        return next(measured)

    monkeypatch.setattr(bench, "measure_child", measure_child)
    monkeypatch.setattr(bench.subprocess, "run", lambda *args, **kwargs: None)  # no warm-up
    monkeypatch.setattr(bench, "SAVING_RUNS", (("walk-the-plank", ("-p", "5"), 1000),))
    assert list(bench.saving_records(context(), 2, False, ["la-planche"])) == []
    (r,) = bench.saving_records(context(), 2, False)
    assert saved == [False, True, False, True]  # in turns
    assert (r["seconds"], r["cpu_seconds"], r["peak_mb"]) == (3.0, 6.0, 200.0)
    assert (r["saving_seconds"], r["saving_cpu_seconds"], r["saving_peak_mb"]) == (5.0, 8.0, 290.0)
    assert r["wall_ratio"] == pytest.approx(5 / 3) and r["cpu_ratio"] == pytest.approx(8 / 6)
    assert r["parquet_mb"] == {"cards": 2.0} and r["players"] == 5
    assert "1.67x wall, 1.33x CPU" in bench.row_text(r)
    page = bench.markdown([r])
    assert "## Memory and the cost of saving" in page
    row = "| `balance simulate walk-the-plank -p 5 --json -g 1000` | 1,000 | 3.00 s | 5.00 s |"
    assert f"{row} 1.67 | 1.33 | 2.0 MB |" in page
    better = {**r, "wall_ratio": 1.25}
    assert re.search(r"saving .* 1\.67x +1\.25x +1\.33x", bench.comparison([r], [better]))
    json.dumps(r)


def test_peak_memory_is_that_of_the_child_alone() -> None:
    import numpy as np

    ballast = np.ones(40_000_000)  # this process is 320 MB larger than its children
    grow = "import numpy as np; a = np.ones(20_000_000); print(a.sum())"  # 160 MB
    wall, cpu, peak = bench.measure_child(grow)
    small = bench.measure_child("import numpy")[2]
    assert small + 140 < peak < small + 200 and wall > 0 and cpu > 0
    assert ballast.sum() == 40_000_000
    with pytest.raises(SystemExit, match="failed"):
        bench.measure_child("1/0")


def test_the_yardstick_rows_play_both_in_turns_and_keep_the_ratio(tmp_path: Path) -> None:
    ctx = bench.context(quick=True)
    r, cli = bench.yardstick_records(ctx, 0.0, 1, players=3, variants_list=[("kraken",)])
    assert r["kind"] == "yardstick" and r["games"] == 200 and r["threads"] == 1
    assert r["games_per_s"] > 0 and r["yardstick_games_per_s"] > 0
    assert r["ratio"] == pytest.approx(r["games_per_s"] / r["yardstick_games_per_s"])
    assert r["cpu_ratio"] > 0
    assert "scripts/wtp_fast.py" in bench.row_text(r) and "ratio" in bench.row_text(r)
    # The command line's row: the rate `balance simulate` itself reports, with the variant.
    assert cli["command"].startswith("balance simulate walk-the-plank -p 3 --threads 1 --json")
    assert "-g 200" in cli["command"]
    assert cli["command"].endswith("-v kraken") and cli["variants"] == "kraken"
    assert cli["ratio"] == pytest.approx(cli["games_per_s"] / cli["yardstick_games_per_s"])
    assert "(command line)" in bench.row_text(cli) and "(runner)" in bench.row_text(r)
    json.dumps([r, cli])
    page = bench.markdown([r, cli])
    assert "| balance games/s | yardstick games/s | ratio | ratio, processor time |" in page
    assert f"| {r['ratio']:.2f} | {r['cpu_ratio']:.2f} |" in page
    assert f"| kraken | `balance simulate` | 1 | 200 | {cli['games_per_s']:,.0f} |" in page
    compared = bench.comparison([r, cli], [r, cli])
    assert "2 measurements in both runs" in compared and "yardstick: compiled" in compared


def test_markdown_keeps_the_hand_written_sections_below_the_mark(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    assert bench.kept_sections(page) == ""
    page.write_text("# old tables\n\n" + bench.KEEP_MARK + "\n\n## By hand\n\nkept\n")
    kept = bench.kept_sections(page)
    assert kept.startswith("\n" + bench.KEEP_MARK) and kept.endswith("## By hand\n\nkept\n")
    assert "old tables" not in kept
    page.write_text("# no mark\n")
    assert bench.kept_sections(page) == ""
