"""Sweeps on Dask distributed, with real parts: worker processes, a scheduler and workers
started as commands on 127.0.0.1, a worker killed mid-sweep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main
from dask_helpers import free_port

from balance.analyses.sweep import sweep
from balance.run import cluster

pytest.importorskip("distributed")

GAME = "walk-the-plank"
ARGS = dict(players="3,4", axes=["plank_max=3,4"], games=600, seed=9)


def local_table(**extra: object) -> pd.DataFrame:
    return sweep(GAME, **{**ARGS, **extra}, threads=1).table


def test_scheduler_without_dask_installed_is_one_line_error(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, out, err = call_main(
        monkeypatch, capsys, "sweep", GAME, "--games", 10, "--scheduler", "tcp://127.0.0.1:9"
    )
    assert_one_line_error(code, out, err, 'pip install -e ".[cluster]"')


def test_unreachable_scheduler_is_one_line_error_within_the_timeout(monkeypatch, capsys) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    clock = time.perf_counter()
    code, out, err = call_main(
        monkeypatch,
        capsys,
        "sweep",
        GAME,
        "--games",
        10,
        "--scheduler",
        f"tcp://127.0.0.1:{free_port()}",
    )
    assert_one_line_error(code, out, err, "cannot reach the Dask scheduler")
    assert time.perf_counter() - clock < 10


def test_dask_backend_in_process_gives_the_local_results() -> None:
    """The fast version: the Dask backend with two in-process workers (threads)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local_cluster:
        remote = sweep(GAME, **ARGS, block=150, scheduler=local_cluster.scheduler_address)
        # --precision: tasks handed out a few at a time, each point stopped on whole blocks.
        stopped = sweep(
            GAME, players=[3], axes=["plank_max=3,4"], precision=0.04,
            scheduler=local_cluster.scheduler_address,
        )  # fmt: skip
    assert remote.backend == "dask"
    pd.testing.assert_frame_equal(remote.table, local_table())
    local = sweep(GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, threads=1)
    assert stopped.points == local.points and local.points[0]["anytime_valid"]


@pytest.mark.slow
def test_local_cluster_of_worker_processes_gives_the_local_results() -> None:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        env={"NUMBA_NUM_THREADS": "1"},
    ) as local_cluster:
        remote = sweep(GAME, **ARGS, block=150, scheduler=local_cluster.scheduler_address)
        # --precision: tasks handed out a few at a time, each point stopped on whole blocks.
        stopped = sweep(
            GAME, players=[3], axes=["plank_max=3,4"], precision=0.04,
            scheduler=local_cluster.scheduler_address,
        )  # fmt: skip
    assert remote.backend == "dask"
    pd.testing.assert_frame_equal(remote.table, local_table())
    local = sweep(GAME, players=[3], axes=["plank_max=3,4"], precision=0.04, threads=1)
    assert stopped.points == local.points and local.points[0]["anytime_valid"]


def _figures(data: dict) -> list:
    return [
        (p["point"], p["players"], p["rules"], p["games"], p["metrics"]) for p in data["points"]
    ]


@pytest.mark.slow
def test_cli_on_a_scheduler_and_two_worker_commands_equals_the_local_run(dask_processes) -> None:
    command = [
        str(Path(sys.executable).with_name("balance")),
        "sweep",
        GAME,
        "--players",
        "3,4",
        "--axis",
        "plank_max=3,4",
        "--games",
        "600",
        "--seed",
        "9",
        "--json",
    ]
    local = subprocess.run([*command, "--threads", "1"], capture_output=True, text=True, check=True)
    remote = subprocess.run(
        [*command, "--block", "300"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DASK_SCHEDULER_ADDRESS": dask_processes.address},
    )
    local_data, remote_data = json.loads(local.stdout), json.loads(remote.stdout)
    assert (local_data["backend"], remote_data["backend"]) == ("local", "dask")
    assert _figures(remote_data) == _figures(local_data)


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_is_replaced_and_the_results_stay(
    dask_processes, tmp_path
) -> None:
    out = tmp_path / "sweep"
    args = {**ARGS, "axes": ["plank_max=3..6"], "games": 2000}
    found: dict = {}

    def run() -> None:
        found["result"] = sweep(
            GAME, **args, block=100, scheduler=dask_processes.address, out=out, charts=False
        )

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 300
    while not list((out / "points").glob("*.npz")) and time.monotonic() < deadline:
        time.sleep(0.05)
    victim = dask_processes.workers[0]
    victim.kill()
    victim.wait()
    thread.join(timeout=600)
    assert not thread.is_alive()
    result = found["result"]
    assert len(result.points) == 8 and not result.partial
    assert len(list((out / "points").glob("*.npz"))) == 8
    pd.testing.assert_frame_equal(result.table, local_table(axes=args["axes"], games=2000))


TUNE = dict(
    players=[4], axes=["plank_max=3..5"], targets=["length_mean=7.8..9"], block=512,
    max_games=8192, charts=False,
)  # fmt: skip


def _tune_stable(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("elapsed_s", "backend", "games_played")}


def test_a_tune_on_dask_in_process_equals_the_local_tune() -> None:
    """Racing hands out a stream of blocks a few at a time; the verdicts, games and
    figures depend only on each candidate's games, not on where they were played."""
    from distributed import LocalCluster

    from balance.analyses.tune import tune

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local_cluster:
        remote = tune(GAME, **TUNE, scheduler=local_cluster.scheduler_address)
    local = tune(GAME, **TUNE, threads=1)
    assert (remote.backend, local.backend) == ("dask", "local")
    assert _tune_stable(remote.to_json()) == _tune_stable(local.to_json())


@pytest.mark.slow
def test_tune_cli_on_a_scheduler_and_two_worker_commands_equals_the_local_run(
    dask_processes,
) -> None:
    command = [
        str(Path(sys.executable).with_name("balance")),
        "tune",
        GAME,
        "--players",
        "5",
        "--axis",
        "plank_max=3..6",
        "--axis",
        "pirates_per_player=2..4",
        "--target",
        "balance_index>=0.95",
        "--target",
        "length_mean=6..10",
        "--json",
    ]
    local = subprocess.run([*command, "--threads", "1"], capture_output=True, text=True, check=True)
    remote = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DASK_SCHEDULER_ADDRESS": dask_processes.address},
    )
    local_data, remote_data = json.loads(local.stdout), json.loads(remote.stdout)
    assert (local_data["backend"], remote_data["backend"]) == ("local", "dask")
    assert _tune_stable(remote_data) == _tune_stable(local_data)
