"""The runner: plays N games of any game in parallel blocks and hands them on in order.

Each game draws only from streams seeded by (run seed, game index, stream), so what a
run records does not depend on the number of threads or the block size. Blocks are
played on a thread pool (the compiled game loops release the GIL) and passed to the
sinks strictly in game order. Ctrl-C stops the run after the blocks in flight: the
games finished before the first unfinished block are kept and the run is marked partial.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from tqdm import tqdm

from balance.core.errors import BalanceError
from balance.core.game import Block, Game, Setup
from balance.core.strategy import Strategy
from balance.games import get_game
from balance.run.cluster import active_cluster
from balance.run.moments import RunSums, block_sums, supports_sums
from balance.run.strategy_check import (
    check_decisions,
    compile_error,
    debug_error,
    debug_lineup,
    first_failing_game,
    is_numba_error,
    runtime_error,
)

#: Most games a single run may ask for.
MAX_GAMES = 10**10
#: Fewest games in a block handed to a cluster's worker, when the block is not given: a
#: task's round trip costs a few milliseconds, a few hundred games' play.
CLUSTER_MIN_BATCH = 2048

Sink = Callable[[Block], None]


@dataclass
class RunResult:
    """What a run played: its set-up, its blocks in game order and how it went."""

    setup: Setup
    requested: int
    blocks: list[Block] = field(default_factory=list)
    threads: int = 1
    elapsed_s: float = 0.0
    compiled: bool = False
    partial: bool = False
    keep_records: bool = True  # False: blocks hold only what the summary reads
    #: A run that kept running sums only (no blocks): what its summary reads.
    sums: RunSums | None = None
    #: Where the games were played: "local" threads or a "dask" cluster's workers.
    backend: str = "local"

    @property
    def games(self) -> int:
        """Games played (all of them unless the run was interrupted)."""
        if self.sums is not None:
            return self.sums.games
        return sum(block.size for block in self.blocks)

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed_s if self.elapsed_s > 0 else float("nan")


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_run(games: int, threads: int | None, batch: int | None) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise BalanceError(f"games must be a whole number from 1 to {MAX_GAMES}, not {games!r}")
    if threads is not None and not 1 <= threads <= 1024:
        raise BalanceError(f"threads must be from 1 to 1024, not {threads}")
    if batch is not None and not 1 <= batch <= 10**7:
        raise BalanceError(f"batch must be from 1 to 10000000 games, not {batch}")


def run_games(
    setup: Setup,
    games: int,
    *,
    threads: int | None = None,
    batch: int | None = None,
    sinks: Sequence[Sink] = (),
    keep_records: bool = True,
    progress: bool = True,
    on_compile: Callable[[str], None] | None = None,
    stop: Callable[[], bool] | None = None,
    first_game: int = 0,
    sums_only: bool = False,
    slim_sinks: bool = False,
) -> RunResult:
    """Play games ``first_game .. first_game + games - 1`` of ``setup`` (from 0 unless
    told: a run that grows block by block goes on where it stopped).

    Parameters
    ----------
    sinks : called with each block, in game order, as soon as it and all before it are done.
    keep_records : keep every record in the result; otherwise keep only what the summary
        reads (the game's ``slim`` form), which a very long run needs.
    progress : show a progress bar on stderr if the run lasts more than two seconds.
    on_compile : called with a message before the game's engine compiles, if it must.
    stop : asked after each block has reached the sinks, in game order; when it answers
        True the run ends there (games after that block are not kept, whatever the
        threads had already played), so a stop decided on the blocks is the same for any
        number of threads as long as the batch is.
    sums_only : with ``keep_records`` False, keep no blocks at all but the running sums
        every summary figure needs (``result.sums``, :mod:`balance.run.moments`), so memory
        does not grow with games; each block is reduced on the thread that played it.
        A game that cannot summarise from sums keeps its slim blocks instead.
    slim_sinks : the sinks read only what the summary reads (a precision run's tracker),
        so that, without ``keep_records``, blocks are played (and sent back from a
        cluster) in their slim form.
    """
    check_run(games, threads, batch)
    game = get_game(setup.game)
    # Inside balance.run.cluster.on_cluster, blocks go to the cluster's workers (a
    # --debug run stays here: its strategies are this process's Python functions).
    cluster = None if setup.debug else active_cluster()
    if cluster is not None:
        threads = cluster.threads
        batch = batch or max(CLUSTER_MIN_BATCH, min(32_768, -(-games // (threads * 4))))
    threads = threads or default_threads()
    batch = batch or max(256, min(32_768, -(-games // (threads * 4))))
    result = RunResult(setup=setup, requested=games, threads=threads, keep_records=keep_records)
    if cluster is not None:
        result.backend = "dask"
    users = setup.lineup.user_strategies()
    if setup.debug:
        # Python strategies on the reference engine: nothing to compile.
        setup = dataclasses.replace(setup, lineup=debug_lineup(setup.lineup))
        result.setup = setup
        threads = result.threads = 1  # a breakpoint in a strategy stops the only worker
        if on_compile:
            on_compile("debug: playing on the reference engine, your strategies as Python...")
    elif not game.is_compiled(setup):
        result.compiled = True
        for strategy in users:  # each decision alone, its mistakes named at their lines
            check_decisions(strategy)
        if on_compile:
            uniform = game.compiled.uniform_lineup(setup.players)
            if not game.is_compiled(dataclasses.replace(setup, lineup=uniform)):
                on_compile(
                    "compiling the game engine (first run only; later runs load it "
                    "from the cache)..."
                )
            if any(seat.source for seat in setup.lineup.seats):
                on_compile(
                    "compiling your strategies' functions (once per version of your "
                    "strategy files; later runs load them from the cache)..."
                )
            elif users:  # shipped search players join the loop as a user's file does
                on_compile(
                    "compiling the search players (first run only; later runs load them "
                    "from the cache)..."
                )
        _prepare(game, setup, users)
    else:
        _prepare(game, setup, users)
    if cluster is not None:
        cluster.prepare(setup)
    # A run that keeps no records and hands blocks to no sink needs only their slim form,
    # which a game's engine may record directly, faster than the whole record.
    slim_play = not keep_records and (slim_sinks or not sinks) and not setup.debug
    how = "reference" if setup.debug else "slim" if slim_play else "full"
    reduce = sums_only and not keep_records and supports_sums(game)
    # A block reduced to its sums is not sent back unless a sink reads it.
    send_block = not reduce or bool(sinks)

    finished: dict[int, tuple[Block | None, RunSums | None]] = {}
    failed: dict[int, BaseException] = {}
    if isinstance(first_game, bool) or not isinstance(first_game, int) or first_game < 0:
        raise BalanceError(f"first_game must be a whole number from 0, not {first_game!r}")
    end = first_game + games
    next_start = first_game  # first game not yet handed to the sinks
    queue = iter(range(first_game, end, batch))
    bar = tqdm(
        total=games, unit="game", unit_scale=True, delay=2.0, disable=not progress, leave=False
    )
    clock = time.perf_counter()
    pool: Any = cluster
    if cluster is None:
        pool = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="balance", initializer=_ignore_ctrl_c_here
        )
    running: dict[Future[tuple[Block | None, RunSums | None]], int] = {}
    sizes: dict[int, int] = {}
    stopped = False

    def submit_next() -> None:
        start = next(queue, None)
        if start is not None:
            sizes[start] = size = min(batch, end - start)
            future = pool.submit(play_part, setup, start, size, how, reduce, send_block)
            running[future] = start

    with _deferred_interrupt() as interrupted, one_blas_thread():
        try:
            for _ in range(threads * 2):
                submit_next()
            while running:
                done, _ = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in done:
                    start = running.pop(future)
                    error = future.exception()
                    if error is not None:
                        failed[start] = error
                        continue
                    finished[start] = future.result()
                    bar.update(sizes[start])
                    if not failed and not interrupted() and not stopped:
                        submit_next()
                while not stopped and next_start in finished:
                    block, sums = finished.pop(next_start)
                    # Counted first: a block any sink has seen belongs to the run.
                    if sums is None:
                        assert block is not None
                        result.blocks.append(
                            block if keep_records or slim_play else game.slim(block)
                        )
                    elif result.sums is None:
                        result.sums = sums
                    else:
                        result.sums.merge(sums)
                    next_start += sizes.pop(next_start)
                    for sink in sinks:
                        sink(block)
                    if stop is not None and not stopped and stop():
                        stopped = True
                        finished.clear()
                        break
                if stopped:
                    finished.clear()
                if interrupted() or failed or stopped:
                    for future in running:
                        future.cancel()
                    running = {f: s for f, s in running.items() if not f.cancelled()}
        except KeyboardInterrupt:
            result.partial = True
            for future in running:
                future.cancel()
        finally:
            if cluster is None:
                pool.shutdown(wait=True, cancel_futures=True)
            else:  # the cluster's client outlives the run: only this run's tasks go
                for future in running:
                    future.cancel()
            bar.close()
            result.elapsed_s = time.perf_counter() - clock
    if failed and not stopped:  # a block after the stop does not belong to the run
        # The earliest failing game, whatever the order in which the threads noticed it.
        start = min(failed)
        error = failed[start]
        if users and not isinstance(error, BalanceError):
            size = min(batch, end - start)
            index = first_failing_game(lambda a, k: game.play_block(setup, a, k), start, size)
            if not setup.debug:
                raise runtime_error(setup, index, error) from None
            found = debug_error(setup, index, error)  # the traceback stays its cause
            if found is not None:
                raise found from error
        raise error
    if interrupted():
        result.partial = True
    return result


def play_part(
    setup: Setup, start: int, size: int, how: str, reduce: bool, send_block: bool
) -> tuple[Block | None, RunSums | None]:
    """Play games ``start .. start + size - 1`` of ``setup`` where this runs (a local
    thread or a cluster's worker).

    ``how`` is "full" (every record), "slim" (what the summary reads, as the engine records
    it directly) or "reference" (the Python reference engine: ``--debug``). ``reduce``
    also returns the block's running sums; ``send_block`` False then drops the block.
    """
    game = get_game(setup.game)
    if how == "reference":
        block = game.reference_block(setup, start, size)
    elif how == "slim":
        block = game.play_slim_block(setup, start, size)
    else:
        block = game.play_block(setup, start, size)
    sums = block_sums(setup, block) if reduce else None
    return (block if send_block else None), sums


def _prepare(game: Game, setup: Setup, users: Sequence[Strategy]) -> None:
    """Compile (or load) the game loop; numba failing on a user's code, in plain words."""
    try:
        game.prepare(setup)
    except BalanceError:
        raise
    except Exception as exc:
        if not users:
            raise
        if not is_numba_error(exc):  # the warm-up game (game 0) failed as it played
            raise runtime_error(setup, 0, exc) from None
        # The decision whose file numba names last (the innermost), else the first.
        text = str(exc)
        found = [
            (text.rfind(function.py_func.__code__.co_filename), strategy, decision, function)
            for strategy in users
            for decision, function in strategy.decisions.items()
        ]
        _, strategy, decision, function = max(found, key=lambda item: item[0])
        raise compile_error(strategy, decision, function.py_func, exc) from None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Keep numpy's BLAS on the calling thread while games play.

    Each block's running sums take a cross-product (``values.T @ values``); a BLAS thread
    pool woken for it spins on the cores the game threads need (two threads then gave
    1.2 times one thread's games a second instead of 2). The sums are small, so one
    BLAS thread loses nothing; the user's own setting is restored afterwards.
    """
    global _THREADPOOLS
    if _THREADPOOLS is None:
        # Finding the loaded libraries takes most of a millisecond; numpy's BLAS, the
        # one the sums use, is loaded by then, so the first look serves every run.
        from threadpoolctl import ThreadpoolController

        _THREADPOOLS = ThreadpoolController()
    with _THREADPOOLS.limit(limits=1, user_api="blas"):
        yield


_THREADPOOLS: Any = None


def _ignore_ctrl_c_here() -> None:
    """Block SIGINT in a worker thread, so that Ctrl-C reaches the main thread.

    A signal taken by another thread reaches its Python handler only when the main
    thread next runs Python code with the interpreter's attention flag still set, which
    a busy worker can clear: the stop could come many blocks late.
    """
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


@contextmanager
def _deferred_interrupt() -> Iterator[Callable[[], bool]]:
    """Turn Ctrl-C into a flag the runner reads between blocks.

    A block being handed to the sinks (written to disk, say) is never cut in half. Off
    the main thread, where signals cannot be caught, Ctrl-C stays an exception.
    """
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed.is_set
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        pressed.set()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield pressed.is_set
    finally:
        signal.signal(signal.SIGINT, previous)
