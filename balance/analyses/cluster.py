"""Sweeps and tunes on a Dask distributed cluster (the optional extra ``cluster``; the
connection, its security and its errors are :mod:`balance.run.cluster`'s).

Each task is (point, block of games) and returns a small
:class:`balance.analyses.sweep_tally.Tally`; tasks are retried when a worker dies (the same
games give the same tally wherever they are played), and each worker compiles or loads
the game's engine once before the first task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from typing import Any

from balance.analyses.sweep_tally import Tally, Task, play_tally
from balance.core.game import Setup
from balance.run.cluster import RETRIES, connect, one_numba_thread, prepare_here, worker_threads


def run_dask(
    address: str, setup: Setup
) -> Callable[[Iterable[Task], Callable[[Task, Tally], None], Callable[[], bool]], None]:
    """A sweep backend that plays tasks on the Dask cluster at ``address``."""
    client = connect(address)

    def run(
        tasks: Iterable[Task], on_result: Callable[[Task, Tally], None], stop: Callable[[], bool]
    ) -> None:
        from distributed import as_completed

        futures: dict[Any, Task] = {}

        def submit(task: Task) -> Any:
            future = client.submit(
                play_tally,
                task.setup,
                task.start,
                task.size,
                task.baseline,
                pure=False,
                retries=RETRIES,
            )
            futures[future] = task
            return future

        try:
            queue = iter(tasks)
            first = next(queue, None)
            if first is None:
                return
            client.run(one_numba_thread)
            client.run(prepare_here, setup)  # compile or load the engine once per worker
            # A list is handed out whole; a stream (--precision, balance tune: a point's
            # later blocks may not be needed) a few tasks a worker thread ahead.
            ahead = None if isinstance(tasks, Sequence) else 4 * worker_threads(client)
            pending = as_completed(
                [submit(first), *(submit(t) for t in islice(queue, ahead))], loop=client.loop
            )
            for future in pending:
                on_result(futures.pop(future), future.result())
                if stop():
                    for other in futures:
                        other.cancel()
                    break
                # Refill to the look-ahead: a stream may have had nothing to give for a
                # while (a tune's open candidates all had their next blocks in flight).
                while ahead is not None and len(futures) <= ahead:
                    following = next(queue, None)
                    if following is None:
                        break
                    pending.add(submit(following))
        finally:
            client.close()

    return run
