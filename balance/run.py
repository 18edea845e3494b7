"""The runner: plays N games of any game in parallel blocks and hands them on in order.

Each game draws only from streams seeded by (run seed, game index, stream), so what a
run records does not depend on the number of threads or the block size. Blocks are
played on a thread pool (the compiled game loops release the GIL) and passed to the
sinks strictly in game order. Ctrl-C stops the run after the blocks in flight: the
games finished before the first unfinished block are kept and the run is marked partial.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from tqdm import tqdm

from balance.errors import BalanceError
from balance.games import get_game
from balance.games.base import Block, Setup

#: Most games a single run may ask for.
MAX_GAMES = 10**10

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

    @property
    def games(self) -> int:
        """Games played (all of them unless the run was interrupted)."""
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
    on_compile: Callable[[], None] | None = None,
) -> RunResult:
    """Play games ``0 .. games - 1`` of ``setup``.

    Parameters
    ----------
    sinks : called with each block, in game order, as soon as it and all before it are done.
    keep_records : keep every record in the result; otherwise keep only what the summary
        reads (the game's ``slim`` form), which a very long run needs.
    progress : show a progress bar on stderr if the run lasts more than two seconds.
    on_compile : called before the first compilation of the game's engine, if one is needed.
    """
    check_run(games, threads, batch)
    game = get_game(setup.game)
    threads = threads or default_threads()
    batch = batch or max(256, min(32_768, -(-games // (threads * 4))))
    result = RunResult(setup=setup, requested=games, threads=threads)
    if not game.is_compiled(setup):
        result.compiled = True
        if on_compile:
            on_compile()
    game.prepare(setup)

    starts = list(range(0, games, batch))
    finished: dict[int, Block] = {}
    next_start = 0  # first game not yet handed to the sinks
    bar = tqdm(
        total=games, unit="game", unit_scale=True, delay=2.0, disable=not progress, leave=False
    )
    clock = time.perf_counter()
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="balance")
    running: dict[Future[Block], int] = {}
    try:
        queue = iter(starts)
        for start in queue:
            running[pool.submit(game.play_block, setup, start, min(batch, games - start))] = start
            if len(running) >= threads * 2:
                break
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                start = running.pop(future)
                finished[start] = future.result()
                bar.update(finished[start].size)
                following = next(queue, None)
                if following is not None:
                    size = min(batch, games - following)
                    running[pool.submit(game.play_block, setup, following, size)] = following
            while next_start in finished:
                block = finished.pop(next_start)
                for sink in sinks:
                    sink(block)
                result.blocks.append(block if keep_records else game.slim(block))
                next_start += block.size
    except KeyboardInterrupt:
        result.partial = True
        for future in running:
            future.cancel()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
        result.elapsed_s = time.perf_counter() - clock
    return result
