"""Compile every game's engine once, before the test workers start.

numba keeps compiled engines on disk (``cache=True``, next to their sources), but
pytest-xdist workers that start together would each compile every engine they need,
doing the slowest work of a fresh run twice. The controller compiles them first, the
games split between two processes, so that every worker loads them from the cache.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Each process plays a few games of its games (with the uniform-random strategy, whose
#: engine is the one every game's shipped strategies share), which compiles and caches it.
WARM = (
    "from balance import api\nfor game in {games!r}:\n    api.simulate(game, None, 20, threads=1)"
)
GROUPS = (("walk-the-plank", "la-planche"), ("battle-of-thieves", "lifeboats"))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or a run without workers: nothing to share
    if config.option.collectonly:
        return
    warming = [
        subprocess.Popen(
            [sys.executable, "-c", WARM.format(games=games)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for games in GROUPS
    ]
    for process in warming:
        # A failure here is not the tests' verdict: the workers then compile for themselves
        # and the tests that reach the fault report it.
        try:
            process.communicate(timeout=1200)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
