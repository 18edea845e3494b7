"""Compile every game's engine once, before the test workers start, and give the tests
that compile the same code to one worker.

numba keeps compiled engines on disk (``cache=True``, next to their sources), but
pytest-xdist workers that start together would each compile every engine they need,
doing the slowest work of a fresh run twice. The controller compiles them first, the
games split between two processes, so that every worker loads them from the cache; the
code only some tests compile (search players, scenario copies) is compiled by the one
worker that runs them all (:data:`SAME_CODE`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from balance.games import MODULES

#: Each process plays a few games of its games (with the uniform-random strategy, whose
#: engine is the one every game's shipped strategies share), which compiles and caches it.
WARM = (
    "import sys\nsys.path.insert(0, {tests!r})\n"
    "from compile_log import install\ninstall('warm-up {group}')\n"
    "from balance import api\nfor game in {games!r}:\n    api.simulate(game, None, 20, threads=1)"
)
#: Every registered game, dealt in turn to one of two groups (the registry's order,
#: Walk the Plank, La Planche, Lifeboats, Battle of Thieves, pairs the slowest compile,
#: Battle of Thieves', with the quickest, La Planche's).
GROUPS = (tuple(MODULES)[0::2], tuple(MODULES)[1::2])


#: Tests that compile the same code, by their node ids: a group runs on one test worker,
#: whose first test compiles what the others load (two workers would each compile it at
#: once). A game's search tests compile its search players (minutes in the slow suite);
#: its compiled scenarios (the ``engine`` fixture's compiled case, the step-by-step
#: agreements), the engine's scenario copy.
SAME_CODE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern.format(folder=game.replace("-", "_"), game=re.escape(game))), group)
    for game in MODULES
    for pattern, group in (
        (
            r"tests/{folder}/test_search|tests/contract/test_strategies\.py"
            r"::test_every_shipped_search_player_plays\[{game}\]",
            f"{game} search",
        ),
        (
            r"tests/{folder}/(test_properties\.py|test_agreement\.py::test_every_compiled_phase"
            r"|test_\w+\.py::.*\[compiled)",
            f"{game} scenarios",
        ),
    )
)


def same_code_group(nodeid: str) -> str | None:
    """The :data:`SAME_CODE` group of the test ``nodeid``, if any."""
    return next((group for pattern, group in SAME_CODE if pattern.match(nodeid)), None)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's scheduling by scope: each :data:`SAME_CODE` group to one worker
    whole, the other tests one by one (xdist's ``loadgroup`` would group by markers, but
    it does not read them under this pytest)."""
    if config.getvalue("dist") != "load":
        return None  # another --dist asked for: as asked
    from xdist.scheduler import LoadScopeScheduling

    class SameCodeScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return same_code_group(nodeid) or nodeid

    return SameCodeScheduling(config, log)


#: The compile log of this process (``BALANCE_COMPILE_LOG``, :mod:`compile_log`), if kept.
_COMPILE_LOG: list[Any] = []

_MADE_CACHE = pytest.StashKey[str]()
_WARMING_S = pytest.StashKey[float]()


def pytest_configure(config: pytest.Config) -> None:
    """Game loops compiled with a user's strategy go to one cache for the session (shared
    by its workers, which inherit the variable), never to the user's own cache."""
    if os.environ.get("BALANCE_COMPILE_LOG") and not _COMPILE_LOG:
        from compile_log import install

        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        _COMPILE_LOG.append(install(worker))
    if "BALANCE_CACHE_DIR" not in os.environ:
        from balance.core.dispatch import cache_root

        users = cache_root() / "pages"
        os.environ["BALANCE_CACHE_DIR"] = tempfile.mkdtemp(prefix="balance-test-cache-")
        config.stash[_MADE_CACHE] = os.environ["BALANCE_CACHE_DIR"]
        # The report pages' vega-embed bundle takes vl-convert some 20 s to build: the
        # session starts from the user's copy, when there is one.
        if users.is_dir():
            shutil.copytree(users, cache_root() / "pages")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for log in _COMPILE_LOG:
        log.test = item.nodeid


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(_MADE_CACHE, None)
    if made is not None:  # the process that made it, after its workers have finished
        shutil.rmtree(made, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or a run without workers: nothing to share
    if config.option.collectonly:
        return
    clock = time.perf_counter()
    warming = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WARM.format(games=games, group=group, tests=str(Path(__file__).parent)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for group, games in enumerate(GROUPS, 1)
    ]
    for process in warming:
        # A failure here is not the tests' verdict: the workers then compile for themselves
        # and the tests that reach the fault report it.
        try:
            process.communicate(timeout=1200)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
    config.stash[_WARMING_S] = time.perf_counter() - clock


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Say how long the engines took to compile (or load) before the tests started: the
    time pytest reports after it leaves that out."""
    warming = config.stash.get(_WARMING_S, None)
    if warming is not None:
        terminalreporter.write_line(
            f"engines compiled or loaded before the tests in {warming:.0f} s "
            "(not in the time below)"
        )


@pytest.fixture
def dask_processes() -> Iterator[Any]:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, stopped after."""
    from dask_helpers import DaskProcesses

    processes = DaskProcesses()
    try:
        yield processes
    finally:
        processes.stop()
