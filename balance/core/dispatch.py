"""How a game's compiled loop calls the strategies of a run, shipped or a user's own.

Shipped strategies carry an integer code that the game's cached dispatcher knows
(``program_nb(code, ...)`` and so on), so the loop cached on disk serves them. A user's
strategies join through dispatchers generated for the run: a user's code gets
``USER_CODES + i`` and is tried first, the shipped dispatcher after. The functions of the
game's kernel module that call a dispatcher are then recompiled with the new
dispatchers bound in their globals (numba freezes globals at compile time).

That loop is compiled once per version of the strategies' files, not once per run: the
generated dispatchers are written to a module file under
``<cache>/strategies/<key>/`` (:func:`cache_root`), ``key`` a hash of the strategy files'
contents, the sources of balance and the versions of Python, numba and numpy, and the
loop's functions are compiled with ``cache=True`` as if they lived in that file, so
that numba's on-disk cache keys on a file that never changes. A run of an unchanged
strategy file loads the loop from there; an edited file gets a new key and compiles once.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import njit

import balance
from balance.core.errors import BalanceError
from balance.core.strategy import Strategy, strategy_origin
from balance.games.base import Lineup

#: Environment variable naming the directory of compiled user strategies.
CACHE_ENV = "BALANCE_CACHE_DIR"


def check_strategy(
    strategy: Strategy, game: str, decisions: Sequence[str], required: Sequence[str]
) -> None:
    """A user's strategy gives ``@njit`` functions for the ``required`` decisions, and no
    decision the game does not know."""
    for decision in required:
        if decision not in strategy.decisions:
            raise BalanceError(f"strategy {strategy.name!r} gives no {decision!r} function")
    for decision, function in strategy.decisions.items():
        if decision not in decisions:
            raise BalanceError(
                f"strategy {strategy.name!r}: unknown decision {decision!r}; "
                f"{game} decisions: {', '.join(decisions)}"
            )
        if not hasattr(function, "py_func"):
            raise BalanceError(
                f"strategy {strategy.name!r}: its {decision!r} function must be @njit-compiled"
            )


def cache_root() -> Path:
    """Where compiled user strategies are kept: ``$BALANCE_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/balance``, else ``~/.cache/balance``."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "balance"


@functools.cache
def _sources_digest() -> str:
    """sha256 of every Python source of balance (the engines, kits and shipped strategies)."""
    digest = hashlib.sha256()
    roots = [Path(balance.__file__).parent]
    try:
        import balance.strategies as shipped

        roots += [Path(p) for p in shipped.__path__]
    except ImportError:  # pragma: no cover - an installation without shipped strategies
        pass
    for root in dict.fromkeys(r.resolve() for r in roots):
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@dataclass
class Dispatch:
    """The compiled loops of one game, by the user strategies they can call.

    Attributes
    ----------
    module : the game's kernel module (``engine_nb``): it holds the shipped dispatchers
        ``<decision>_nb``, ``USER_CODES`` and the functions named in ``callers``.
    arguments : decision -> the argument list its functions take after ``code``.
    callers : the module's functions that call a dispatcher, directly or not, callees
        first; the last one is the game loop the runner calls.
    fallback : decision -> the function a user's strategy that gives none plays.
    """

    module: Any
    arguments: Mapping[str, str]
    callers: Sequence[str]
    fallback: Mapping[str, Callable] = field(default_factory=dict)
    _kernels: dict[tuple[Strategy, ...], Callable] = field(default_factory=dict)

    def kernel_for(self, lineup: Lineup) -> Callable:
        """The game loop that can call every strategy of ``lineup``."""
        users = lineup.user_strategies()
        if not users:
            return getattr(self.module, self.callers[-1])
        if users not in self._kernels:
            self._kernels[users] = self._build(users)
        return self._kernels[users]

    def forget(self) -> None:
        """Drop the loops built in this process (the next run loads them from disk)."""
        self._kernels.clear()

    def cache_key(self, users: Sequence[Strategy]) -> str | None:
        """The hash that names the compiled loop of ``users`` on disk; None if a strategy
        was not loaded from a file (it is then compiled in every process)."""
        digest = hashlib.sha256()
        for part in (
            self.module.__name__,
            sys.version,
            numba.__version__,
            np.__version__,
            _sources_digest(),
        ):
            digest.update(part.encode() + b"\0")
        for strategy in users:
            origin = strategy_origin(strategy)
            if origin is not None:
                digest.update(f"{origin.path}\0{origin.digest}\0{strategy.name}\0".encode())
            elif _in_balance(strategy):  # shipped without a code (a search player)
                digest.update(f"{strategy.game}\0{strategy.name}\0".encode())
            else:
                return None
            for decision in self.arguments:
                function = strategy.decisions.get(decision, self.fallback.get(decision))
                name = getattr(getattr(function, "py_func", function), "__qualname__", "")
                digest.update(f"{decision}={name}\0".encode())
        return digest.hexdigest()

    def _source(self, users: Sequence[Strategy]) -> str:
        """The generated module: one dispatcher per decision, user codes first."""
        nb = self.module
        lines = [
            '"""Dispatchers generated by balance for the strategies:',
            *(f"    {s.name} ({_where(s)})" for s in users),
            f'called from the game loop of {nb.__name__}."""',
            "",
        ]
        for decision, args in self.arguments.items():
            lines.append("")
            lines.append(f"def {decision}_dispatch(code, {args}):")
            for i in range(len(users)):
                lines.append(f"    if code == {nb.USER_CODES + i}:")
                lines.append(f"        return user{i}_{decision}({args})")
            lines.append(f"    return shipped_{decision}(code, {args})")
            lines.append("")
        return "\n".join(lines)

    def _build(self, users: Sequence[Strategy]) -> Callable:
        nb = self.module
        source = self._source(users)
        key = self.cache_key(users)
        path = _materialise(key, source) if key else None
        name = f"balance_loop_{key[:16]}" if key else f"balance_loop_{id(users):x}"
        module = types.ModuleType(name)
        bound = module.__dict__
        bound.update({k: v for k, v in vars(nb).items() if not k.startswith("__")})
        bound["__name__"] = name
        if path is not None:
            bound["__file__"] = str(path)
        for decision in self.arguments:
            bound[f"shipped_{decision}"] = getattr(nb, f"{decision}_nb")
            for i, strategy in enumerate(users):
                function = strategy.decisions.get(decision, self.fallback.get(decision))
                bound[f"user{i}_{decision}"] = function
        exec(compile(source, str(path) if path else "<balance dispatch>", "exec"), bound)
        for decision in self.arguments:
            bound[f"{decision}_nb"] = njit(inline="always")(bound[f"{decision}_dispatch"])
        # numba rebuilds a cached function's environment by importing its module.
        sys.modules[name] = module
        # A user's strategy may allocate, so the loop keeps numba's reference counting.
        for caller in self.callers:
            original = getattr(nb, caller)
            options = {
                k: v
                for k, v in original.targetoptions.items()
                if k not in ("cache", "_nrt", "nopython")
            }
            code = original.py_func.__code__
            if path is not None:
                # Compiled as if it lived in the generated file, whose content the key
                # fixes: numba's cache then keys on that file, not on the game's module.
                code = code.replace(co_filename=str(path))
            function = types.FunctionType(code, bound, caller, original.py_func.__defaults__)
            bound[caller] = njit(cache=path is not None, **options)(function)
        return bound[self.callers[-1]]


def _in_balance(strategy: Strategy) -> bool:
    """Whether every decision of ``strategy`` is defined in balance's own modules, whose
    sources :func:`_sources_digest` already covers (a shipped strategy without a code)."""
    return all(
        getattr(getattr(f, "py_func", f), "__module__", "").startswith("balance.")
        for f in strategy.decisions.values()
    )


def _where(strategy: Strategy) -> str:
    origin = strategy_origin(strategy)
    return f"{origin.path}, sha256 {origin.digest[:16]}" if origin else "built in Python"


def _materialise(key: str, source: str) -> Path | None:
    """Write the generated module under the cache directory (once); None if it cannot
    be written, in which case the loop is compiled in memory for this process."""
    directory = cache_root() / "strategies" / key
    path = directory / f"loop_{key[:16]}.py"
    try:
        if not path.is_file() or path.read_text() != source:
            directory.mkdir(parents=True, exist_ok=True)
            partial = directory / f".{path.name}.{os.getpid()}.tmp"
            partial.write_text(source)
            os.replace(partial, path)
    except OSError:
        return None
    return path


def compiled_from_cache(kernel: Any) -> bool | None:
    """Whether numba loaded ``kernel`` from its on-disk cache the last time it was
    compiled: True (loaded), False (compiled), None (not compiled yet in this process)."""
    stats = getattr(kernel, "stats", None)
    if stats is None or not kernel.signatures:
        return None
    return bool(stats.cache_hits) and not stats.cache_misses


def signature_text(function: Callable) -> str:
    """``name(arg, ...)`` of a user's decision function, as its file spells it."""
    py = getattr(function, "py_func", function)
    return f"{py.__name__}{inspect.signature(py)}"
