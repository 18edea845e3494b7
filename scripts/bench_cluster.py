"""What playing on a Dask cluster costs against local threads, on this machine.

Starts a LocalCluster of worker processes (one thread each, as many as local threads),
then measures, each the best of ``--repeat`` runs taken in turn:

* Dask's own cost per task: ``--noop`` tasks that do nothing, submitted at once;
* a whole run, local threads against the cluster: ``balance.api.simulate`` of
  ``--games`` games of 5-player random Walk the Plank (running sums only, as
  ``balance simulate`` keeps them), and the same with ``--out`` (every record sent back
  to be saved);
* a tournament of two strategies, whose many short runs pay the per-run cost.

Prints the machine and a table; ``--markdown`` prints it as docs/cluster.md shows it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _noop(i: int) -> int:
    return i


def best_of(repeat: int, measure: Callable[[], float]) -> float:
    return min(measure() for _ in range(repeat))


def timed(work: Callable[[], object]) -> float:
    clock = time.perf_counter()
    work()
    return time.perf_counter() - clock


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--noop", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    from balance import api
    from balance.run.cluster import on_cluster
    from balance.run.machine import one_line as machine

    games, threads = args.games, args.threads
    print(machine(), file=sys.stderr)
    rows: list[tuple[str, float, float]] = []
    with LocalCluster(
        n_workers=threads,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        env={"NUMBA_NUM_THREADS": "1"},
    ) as cluster:
        address = cluster.scheduler_address
        with Client(address, set_as_default=False) as client:

            def noop() -> float:
                clock = time.perf_counter()
                client.gather(client.map(_noop, range(args.noop), pure=False))
                return time.perf_counter() - clock

            noop()  # the workers' first import
            per_task = best_of(args.repeat, noop) / args.noop

        def simulate(out: Path | None = None, **where: object) -> Callable[[], object]:
            return lambda: api.simulate(
                "walk-the-plank", players=5, games=games, keep_records=False, out=out, **where
            )

        def on(work: Callable[[], object]) -> Callable[[], object]:
            def run() -> object:
                with on_cluster(address):
                    return work()

            return run

        on(simulate())()  # compile or load the engine everywhere first
        with tempfile.TemporaryDirectory() as scratch:
            saved = Path(scratch)
            cases = {
                f"simulate, {games:,} games": (
                    simulate(threads=threads),
                    on(simulate()),
                ),
                f"simulate --out, {games:,} games": (
                    simulate(saved / "local", threads=threads),
                    on(simulate(saved / "dask")),
                ),
                "tournament, 2 strategies, 3 players, 20,000 games a pairing": (
                    lambda: api.tournament(
                        "walk-the-plank",
                        3,
                        ["random", "aggressor"],
                        games=20_000,
                        threads=threads,
                    ),
                    on(
                        lambda: api.tournament(
                            "walk-the-plank", 3, ["random", "aggressor"], games=20_000
                        )
                    ),
                ),
            }
            for name, (local, remote) in cases.items():
                times = {"local": [], "dask": []}
                for _ in range(args.repeat):  # in turns, so a change of load falls on both
                    times["local"].append(timed(local))
                    times["dask"].append(timed(remote))
                rows.append((name, min(times["local"]), min(times["dask"])))

    print(f"Dask's own cost per task (no-op tasks, {args.noop:,} at once): {per_task * 1e3:.2f} ms")
    head = f"| run ({threads} local threads, or {threads} worker processes of one thread) "
    print(head + "| local | Dask | Dask / local |")
    print("|---|---:|---:|---:|")
    for name, local, remote in rows:
        print(f"| {name} | {local:.2f} s | {remote:.2f} s | {remote / local:.2f} |")


if __name__ == "__main__":
    main()
