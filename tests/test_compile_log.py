"""The compile log (tests/compile_log.py) and its report (scripts/compile_report.py): what
numba compiled, nested compiles counted once, and the same function compiled twice shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from compile_log import CompileLog
from numba import njit
from numba.core import event as numba_event

ROOT = Path(__file__).resolve().parents[1]


def test_a_compile_and_the_callee_it_compiles_are_logged_once_each(tmp_path: Path) -> None:
    @njit
    def callee(x):
        return x + 1

    @njit
    def caller(x):
        return callee(x) * 2

    log = CompileLog(tmp_path, "w0")
    log.test = "tests/test_x.py::test_y"
    numba_event.register("numba:compile", log)
    try:
        assert caller(1) == 4
        assert caller(2) == 6  # compiled already: not logged again
    finally:
        numba_event.unregister("numba:compile", log)
    lines = [json.loads(line) for line in log.path.read_text().splitlines()]
    names = [line["function"].rpartition(".")[2] for line in lines]
    assert names == ["callee", "caller"]  # the callee ends first
    inner, outer = lines
    assert {line["test"] for line in lines} == {"tests/test_x.py::test_y"}
    assert {line["process"] for line in lines} == {"w0"}
    assert inner["signature"] == outer["signature"] == "int64"
    assert inner["own_seconds"] == inner["seconds"]
    assert outer["own_seconds"] < outer["seconds"]
    assert abs(outer["seconds"] - outer["own_seconds"] - inner["seconds"]) < 0.01


def test_the_report_ranks_functions_and_counts_a_second_compile(tmp_path: Path) -> None:
    rows = {
        "1.jsonl": [
            ("engine.loop", "int64", "", 30.0, "warm-up"),
            ("kit.chance", "int64", "t::a", 2.0, "gw0"),
        ],
        "2.jsonl": [
            ("engine.loop", "int64", "t::b", 25.0, "gw1"),
            ("kit.chance", "float64", "t::c", 1.5, "gw1"),
        ],
    }
    for name, lines in rows.items():
        (tmp_path / name).write_text(
            "".join(
                json.dumps(
                    {"function": f, "signature": g, "test": t, "seconds": s}
                    | {"own_seconds": s, "process": p}
                )
                + "\n"
                for f, g, t, s, p in lines
            )
        )
    script = str(ROOT / "scripts" / "compile_report.py")
    done = subprocess.run(
        [sys.executable, script, str(tmp_path), "--function", "chance"],
        capture_output=True,
        text=True,
        check=True,
    )
    out = done.stdout
    assert "4 compiles, 58 s of compiling in all" in out
    assert "    55.0     2     2     1  engine.loop" in out
    assert "     3.5     2     2     2  kit.chance" in out  # two argument types
    assert out.index("engine.loop") < out.index("kit.chance")
    assert "         2.0 s  (int64)\n         1.5 s  (float64)" in out
    assert "compiled again for the same types: 25 s beyond the first compile of each" in out
    assert "30.0  (before the tests)" in out


def test_the_report_of_an_empty_directory_says_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "compile_report.py"), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "no compile logged" in done.stderr
