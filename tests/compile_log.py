"""What numba compiles during a test run, for ``scripts/compile_report.py``.

With ``BALANCE_COMPILE_LOG`` naming a directory, every test process (and each process
that compiles the engines before the tests, :mod:`conftest`) appends one JSON line per
function numba compiles there, in a file of its own: the function and its argument types,
the test running, the seconds the compile took with and without the functions it compiled
on the way (its callees), and the process. A function a process loads from numba's cache
is not compiled and not written.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from numba.core import event as numba_event

#: The environment variable naming the directory of the logs (unset: nothing is logged).
COMPILE_LOG = "BALANCE_COMPILE_LOG"


class CompileLog(numba_event.Listener):
    """A numba event listener writing each compile to ``<directory>/<pid>.jsonl``."""

    def __init__(self, directory: Path, process: str) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / f"{os.getpid()}.jsonl"
        self.process = process
        self.test = ""
        # [start, seconds of the compiles nested in it] of each compile under way.
        self._open: list[list[float]] = []

    def on_start(self, event: numba_event.Event) -> None:
        self._open.append([time.perf_counter(), 0.0])

    def on_end(self, event: numba_event.Event) -> None:
        start, nested = self._open.pop()
        seconds = time.perf_counter() - start
        if self._open:
            self._open[-1][1] += seconds
        function = event.data["dispatcher"].py_func
        line = {
            "function": f"{function.__module__}.{function.__qualname__}",
            "signature": ", ".join(map(str, event.data["args"])),
            "test": self.test,
            "seconds": round(seconds, 3),
            "own_seconds": round(seconds - nested, 3),
            "process": self.process,
        }
        with self.path.open("a") as log:
            log.write(json.dumps(line) + "\n")


def install(process: str) -> CompileLog | None:
    """Start logging this process's compiles, if ``BALANCE_COMPILE_LOG`` is set."""
    directory = os.environ.get(COMPILE_LOG)
    if not directory:
        return None
    log = CompileLog(Path(directory), process)
    numba_event.register("numba:compile", log)
    return log
