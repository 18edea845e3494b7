"""Every command that plays games, on a Dask cluster (``--scheduler``): the local run's
figures, whatever worker played which block; a worker killed mid-run; Ctrl-C keeping
what finished; a ``tls://`` cluster that admits only clients with its certificates."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main
from dask_helpers import DASK, WORKER_ENV, DaskProcesses, free_port

from balance.cli import main
from balance.core.game import Block
from balance.run import cluster
from balance.run.cluster import on_cluster
from balance.run.play import make_setup
from balance.run.runner import run_games
from balance.run.summary import summarize

distributed = pytest.importorskip("distributed")

#: What a run's output says about the clock and where it ran, not about its games.
WHERE_AND_WHEN = {"elapsed_s", "games_per_s", "backend", "threads", "elapsed"}

CHECK_FILE = """\
[[scenario]]
name = "three players"
game = "walk-the-plank"
players = 3
max_games = 20000

[[scenario.target]]
metric = "seat_win_rate.0"
min = 0.2
max = 0.5
"""

#: One small run of every command that plays games (the check file is written per test).
COMMANDS = {
    "simulate": ["simulate", "walk-the-plank", "-p", 3, "-g", 5000],
    "simulate --precision": ["simulate", "walk-the-plank", "-p", 3, "--precision", 0.04],
    "compare": ["compare", "walk-the-plank", "-p", 3, "-g", 3000, "-v", "base", "-v", "kraken"],
    "compare --precision": [
        *["compare", "walk-the-plank", "-p", 3, "-v", "base", "-v", "kraken"],
        *["--precision", 0.05],
    ],
    "cards": ["cards", "walk-the-plank", "-p", 3, "-g", 200, "-c", "run", "-c", "charge"],
    "tournament": [
        *["tournament", "walk-the-plank", "-p", 2, "-g", 300],
        *["--strategy", "random", "--strategy", "aggressor"],
    ],
    "matchup": [
        *["matchup", "battle-of-thieves", "-g", 60],
        *["--deck", "cannon-battery", "--deck", "island-raiders"],
    ],
    "skill": ["skill", "walk-the-plank", "-p", 2, "--rung", "random", "--rung", "greedy", "-g", 40],
    "check": ["check", "CHECK_FILE"],
}


def without_where_and_when(value: object) -> object:
    """``value`` with every key about the clock and the backend dropped, at any depth."""
    if isinstance(value, dict):
        return {k: without_where_and_when(v) for k, v in value.items() if k not in WHERE_AND_WHEN}
    if isinstance(value, list):
        return [without_where_and_when(v) for v in value]
    return value


@pytest.fixture(scope="module")
def in_process_cluster() -> Iterator[str]:
    """A scheduler and two single-thread workers in this process (threads)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local_cluster:
        yield local_cluster.scheduler_address


def command_json(monkeypatch, capsys, tmp_path: Path, args: list, *extra: object) -> object:
    """The command's JSON (compare's: its comparison table, from its --out)."""
    path = tmp_path / "targets.toml"
    path.write_text(CHECK_FILE)
    args = [path if a == "CHECK_FILE" else a for a in args]
    out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
    printed = ["--out", out] if args[0] == "compare" else ["--json"]
    monkeypatch.setattr(sys, "argv", ["balance", *map(str, [*args, "-t", 2, *printed, *extra])])
    code = 0
    try:
        main()
    except SystemExit as done:
        code = done.code
    printed_text, err = capsys.readouterr()
    assert code in (0, 1, 3), err  # check: 1 a target failed, 3 undecided
    if args[0] == "compare":
        return pd.read_csv(out / "comparison.csv")
    return json.loads(printed_text)


#: Commands the default suite runs on a cluster (the rest in the slow suite).
QUICK = ("simulate", "check")


@pytest.mark.parametrize(
    "name", [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in COMMANDS]
)
def test_every_command_on_a_cluster_gives_the_local_figures(
    name: str, in_process_cluster: str, monkeypatch, capsys, tmp_path: Path
) -> None:
    args = COMMANDS[name]
    local = command_json(monkeypatch, capsys, tmp_path, args)
    remote = command_json(monkeypatch, capsys, tmp_path, args, "--scheduler", in_process_cluster)
    assert_same_figures(remote, local)
    # The environment names the scheduler when --scheduler does not.
    monkeypatch.setenv(cluster.ADDRESS_VARIABLE, in_process_cluster)
    from_environment = command_json(monkeypatch, capsys, tmp_path, args)
    assert_same_figures(from_environment, local)
    if isinstance(local, dict) and "backend" in local:  # simulate says where it played
        assert (local["backend"], remote["backend"], from_environment["backend"]) == (
            "local",
            "dask",
            "dask",
        )


def assert_same_figures(found: object, expected: object) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(found, expected)
    else:
        assert without_where_and_when(found) == without_where_and_when(expected)


def test_a_simulation_says_where_it_played(in_process_cluster: str) -> None:
    setup = make_setup("walk-the-plank", 3, seed=4)
    with on_cluster(in_process_cluster) as connected:
        assert connected is not None and cluster.active_cluster() is connected
        remote = run_games(setup, 3000, keep_records=False, sums_only=True, progress=False)
    assert cluster.active_cluster() is None  # the context is left as it was
    local = run_games(setup, 3000, threads=2, keep_records=False, sums_only=True, progress=False)
    assert (remote.backend, local.backend) == ("dask", "local")
    assert remote.threads == 2 and remote.sums is not None and remote.blocks == []
    text = summarize(remote)
    assert text["backend"] == "dask"
    assert without_where_and_when(text) == without_where_and_when(summarize(local))


def test_records_and_sinks_come_back_from_the_workers_in_game_order(
    in_process_cluster: str,
) -> None:
    setup = make_setup("walk-the-plank", 4, seed=2, variants=["kraken"])
    seen: list[int] = []
    with on_cluster(in_process_cluster):
        remote = run_games(setup, 1000, batch=150, sinks=[lambda b: seen.append(b.first_game)])
    local = run_games(setup, 1000, threads=1, batch=1000)
    assert seen == list(range(0, 1000, 150))
    for name in ("games", "seats", "cards"):
        np.testing.assert_array_equal(
            np.concatenate([b.extra[name] for b in remote.blocks]), local.blocks[0].extra[name]
        )


def test_ctrl_c_on_a_cluster_keeps_the_blocks_handed_over_before_it(
    in_process_cluster: str,
) -> None:
    setup = make_setup("walk-the-plank", 3, seed=5)
    handed: list[int] = []

    def interrupting_sink(block: Block) -> None:
        handed.append(block.first_game)
        if len(handed) == 3:
            raise KeyboardInterrupt

    with on_cluster(in_process_cluster):
        result = run_games(setup, 20_000, batch=500, sinks=[interrupting_sink], progress=False)
    assert result.partial and handed == [0, 500, 1000] and result.games == 1500
    whole = run_games(setup, 1500, threads=1, batch=1500, progress=False)
    np.testing.assert_array_equal(
        np.concatenate([b.extra["seats"] for b in result.blocks]), whole.blocks[0].extra["seats"]
    )


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_an_unreachable_scheduler_is_one_line_for_every_command(
    command: str, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{free_port()}"
    variants = ["-v", "base", "-v", "kraken"] if command == "compare" else []
    code, out, err = call_main(
        monkeypatch, capsys, command, "walk-the-plank", "-g", 10, *variants, "--scheduler", address
    )
    assert_one_line_error(code, out, err, f"cannot reach the Dask scheduler at {address}")


def test_a_tls_address_without_certificates_says_which_settings_to_give(
    monkeypatch, capsys
) -> None:
    for name in ("CA_FILE", "CLIENT__CERT", "CLIENT__KEY"):
        monkeypatch.delenv(f"DASK_DISTRIBUTED__COMM__TLS__{name}", raising=False)
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "walk-the-plank", "--scheduler", "tls://127.0.0.1:9"
    )
    assert_one_line_error(
        code, out, err, "TLS scheduler", "distributed.comm.tls.ca-file", "TLS__CLIENT__KEY"
    )


# --- real processes: a worker killed mid-run, a TLS cluster ----------------------------------


@pytest.mark.slow
def test_a_worker_killed_mid_run_is_replaced_and_the_figures_stay(
    dask_processes: DaskProcesses,
) -> None:
    setup = make_setup("walk-the-plank", 5, seed=11, strategies=["survivor"] + ["random"] * 4)
    first_block = threading.Event()
    found: dict = {}

    def run() -> None:
        with on_cluster(dask_processes.address):
            found["result"] = run_games(
                setup, 400_000, batch=2000, keep_records=False, sums_only=True,
                sinks=[lambda block: first_block.set()], progress=False,
            )  # fmt: skip

    thread = threading.Thread(target=run)
    thread.start()
    assert first_block.wait(timeout=300)
    victim = dask_processes.workers[0]
    victim.kill()
    victim.wait()
    thread.join(timeout=600)
    assert not thread.is_alive()
    remote = found["result"]
    assert not remote.partial and remote.games == 400_000
    local = run_games(setup, 400_000, keep_records=False, sums_only=True, progress=False)
    assert without_where_and_when(summarize(remote)) == without_where_and_when(summarize(local))


def self_signed(directory: Path) -> dict[str, Path]:
    """A certificate authority and one certificate it signed for 127.0.0.1 (the
    scheduler's, the workers' and the client's alike), made with openssl."""
    ca_key, ca, key, request, cert = (
        directory / name for name in ("ca.key", "ca.pem", "key.pem", "req.csr", "cert.pem")
    )
    names = directory / "names.cnf"
    names.write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")

    def openssl(*args: object) -> None:
        subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", 2, "-subj", "/CN=test ca",
            "-keyout", ca_key, "-out", ca)  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", key, "-out", request)  # fmt: skip
    openssl("x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
            "-days", 2, "-extfile", names, "-out", cert)  # fmt: skip
    return {"ca": ca, "cert": cert, "key": key}


@pytest.mark.slow
def test_a_tls_cluster_gives_the_local_figures_and_refuses_a_client_without_its_certificates(
    tmp_path: Path,
) -> None:
    files = self_signed(tmp_path)
    port = free_port()
    address = f"tls://127.0.0.1:{port}"
    tls = ["--tls-ca-file", files["ca"], "--tls-cert", files["cert"], "--tls-key", files["key"]]
    started = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
             "--protocol", "tls", *map(str, tls)],
            env=WORKER_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]  # fmt: skip
    started.append(
        subprocess.Popen(
            [DASK, "worker", address, "--nthreads", "2", "--no-nanny", "--no-dashboard",
             "--host", "127.0.0.1", *map(str, tls)],
            env=WORKER_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    )  # fmt: skip
    environment = {
        "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(files["ca"]),
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(files["cert"]),
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(files["key"]),
    }
    args = ["simulate", "walk-the-plank", "-p", 4, "-g", 20_000, "-t", 2, "--json"]
    args = [str(a) for a in args]
    balance = str(Path(sys.executable).with_name("balance"))
    try:
        deadline = time.monotonic() + 120
        while True:  # until the worker has joined: a run then plays
            remote = subprocess.run(
                [balance, *args, "--scheduler", address],
                env={**os.environ, **environment}, capture_output=True, text=True,
            )  # fmt: skip
            if remote.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert remote.returncode == 0, remote.stderr
        # Without the certificates: one line, no game played.
        cluster_env = {k: v for k, v in os.environ.items() if "TLS" not in k}
        refused = subprocess.run(
            [balance, *args, "--scheduler", address], env=cluster_env,
            capture_output=True, text=True,
        )  # fmt: skip
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert "TLS scheduler" in refused.stderr
        # With a certificate the cluster's authority did not sign: refused as well.
        (tmp_path / "stranger").mkdir()
        stranger = self_signed(tmp_path / "stranger")
        strange_env = {
            **cluster_env,
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(stranger["ca"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(stranger["cert"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(stranger["key"]),
        }
        strange = subprocess.run(
            [balance, *args, "--scheduler", address], env=strange_env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert strange.returncode == 2 and strange.stderr.count("\n") == 1, strange.stderr
        assert "cannot reach the Dask scheduler" in strange.stderr
    finally:
        for process in reversed(started):
            process.send_signal(signal.SIGTERM)
        for process in reversed(started):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    local = subprocess.run([balance, *args], capture_output=True, text=True, check=True)
    assert without_where_and_when(json.loads(remote.stdout)) == without_where_and_when(
        json.loads(local.stdout)
    )
