"""A Dask cluster of real processes for the tests: ``dask scheduler`` and ``dask worker``
commands on 127.0.0.1 (the ``dask_processes`` fixture in conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

#: The ``dask`` command of this environment.
DASK = str(Path(sys.executable).with_name("dask"))
WORKER_ENV = {**os.environ, "NUMBA_NUM_THREADS": "1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DaskProcesses:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""

    def __init__(self) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.scheduler = self._start(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"]
        )
        self.workers = [
            self._start(
                [
                    DASK,
                    "worker",
                    self.address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                ]
            )
            for _ in range(2)
        ]
        self._wait_for_workers(2)

    def _start(self, command: list[str]) -> subprocess.Popen:
        return subprocess.Popen(
            command, env=WORKER_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def _wait_for_workers(self, count: int, timeout: float = 120) -> None:
        from distributed import Client

        deadline = time.monotonic() + timeout
        with Client(self.address, timeout="30s", set_as_default=False) as client:
            client.wait_for_workers(count, timeout=max(1.0, deadline - time.monotonic()))

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process.poll() is None:
                process.terminate()
        for process in [*self.workers, self.scheduler]:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
