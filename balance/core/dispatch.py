"""How a game's compiled code calls the strategies of a run, shipped or a user's own.

A game's kernel module (``engine_nb``) never imports its strategies. It declares each
decision it asks a seat's strategy for as a :class:`Decision` (Walk the Plank's
``program_nb = Decision("program", "obs, seat, available, params, rng, out")``) and
calls it by the seat's code: ``program_nb(code, obs, ...)``. :class:`Dispatch` generates
one dispatcher per decision from the game's ``SHIPPED`` tuple (code ``k`` plays its
``k``-th strategy, a run's own strategy ``i`` plays code ``USER_CODES + i``, any other
code raises) and compiles again, with the dispatchers bound in their globals (numba
freezes globals when it compiles), every function that calls a decision, directly or
through other functions or modules: the game loop, and the search players' playouts.
Those functions are found by walking the globals the compiled functions read.

Compiled once, loaded from numba's on-disk cache by every later process:

* the code of the shipped strategies is compiled as if it lived in the file that
  declares the game's :class:`Dispatch` (its ``engine.py``), which imports the kernels
  and the strategies: :mod:`balance.core.compile_cache` then keys it on that file and on
  every source it imports (the kernels, the kit, the strategies, the search modules);
* a loop that also calls a run's own strategies (a user's file, or a search player,
  compiled only for a run that seats it) is compiled as if it lived in a module file
  generated under ``<cache>/strategies/<key>/`` (:func:`cache_root`), ``key`` a hash of
  the strategy files' contents, the sources of balance and the versions of Python, numba
  and numpy. A run of an unchanged file loads that loop; an edited file compiles once.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import linecache
import os
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba.core.dispatcher import Dispatcher

from balance.core.compile_cache import njit, package_roots
from balance.core.errors import BalanceError
from balance.core.strategy import Strategy, strategy_origin

#: Environment variable naming the directory of compiled user strategies.
CACHE_ENV = "BALANCE_CACHE_DIR"
#: Codes from here on belong to a run's own strategies, in the order it seats them.
USER_CODES = 100
#: Suffix of a generated function that dispatches the shipped strategies out of line.
OUT_OF_LINE = "_out_of_line"


class Decision:
    """A decision a game's compiled code asks a seat's strategy for, by the seat's code.

    A kernel module binds one to the name it calls (``program_nb = Decision(...)``);
    :class:`Dispatch` compiles its callers with a generated dispatcher in its place.

    Attributes
    ----------
    name : the decision's name in a :class:`~balance.core.strategy.Strategy`.
    arguments : the argument list its functions take, as Python spells it.
    """

    def __init__(self, name: str, arguments: str) -> None:
        self.name = name
        self.arguments = arguments

    def __repr__(self) -> str:
        return f"Decision({self.name!r}: code, {self.arguments})"


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
    for root in dict.fromkeys(root for _, root in package_roots()):
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _read_names(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code reads (nested code included)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _read_names(const)
    return names


def _ours(module: types.ModuleType) -> bool:
    """Whether ``module`` may hold functions that call a decision: balance's own (its
    shipped strategies too) or a user's strategy file, not numpy or numba."""
    name = module.__name__
    return name.startswith(("balance.", "balance_")) or name == "balance"


class _Calls:
    """Which compiled functions call a decision, directly or not (the same for every
    binding): a function's callees are the compiled functions its globals name, and
    those it reads as attributes of a module it names."""

    def __init__(self) -> None:
        # By identity; each function is kept, so that its identity is never another's.
        self._calls: dict[int, tuple[Dispatcher, bool]] = {}

    def references(self, function: Dispatcher) -> Iterator[tuple[str, Any]]:
        """``(name, value)`` of each global ``function`` reads; a module's attributes it
        reads come as ``(module name.attribute, value)``."""
        py = function.py_func
        names = _read_names(py.__code__)
        for name in names:
            if name not in py.__globals__:
                continue
            value = py.__globals__[name]
            yield name, value
            if isinstance(value, types.ModuleType) and _ours(value):
                for attribute in names:
                    if attribute in vars(value):
                        yield f"{name}.{attribute}", vars(value)[attribute]

    def asks(self, value: Any) -> bool:
        """Whether ``value`` is a decision or a compiled function that calls one."""
        if isinstance(value, Decision):
            return True
        if not isinstance(value, Dispatcher):
            return False
        key = id(value)
        if key not in self._calls:
            self._calls[key] = (value, False)  # a function calling itself adds nothing
            self._calls[key] = (value, any(self.asks(v) for _, v in self.references(value)))
        return self._calls[key][1]

    def asked(self, value: Any) -> Decision | None:
        """A decision ``value`` calls, directly or not (or is); None if it calls none."""
        if isinstance(value, Decision) or not self.asks(value):
            return value if isinstance(value, Decision) else None
        return next(d for d in map(self.asked, (v for _, v in self.references(value))) if d)

    def module_asks(self, module: types.ModuleType) -> bool:
        return _ours(module) and any(
            isinstance(v, Dispatcher) and self.asks(v) for v in vars(module).values()
        )


_CALLS = _Calls()


class _Binding:
    """Generated dispatchers, and copies of the functions that call a decision compiled
    with them in their globals.

    Each module with such a function gets a copy (a module named ``<name>_<module>``,
    registered in ``sys.modules``: numba finds a cached function's globals there) whose
    globals hold the dispatchers, the bound copies of the functions it calls and the
    copies of the modules it reads them from.

    Parameters
    ----------
    name : prefix of the copies' module names (the same in every process: numba's
        cache names the module of each function it saved).
    source : the generated dispatchers' source, one ``<decision>_dispatch`` each.
    decisions : the decisions the source dispatches.
    bound : names the source reads (the strategies' functions), by name.
    path : the file the copies are compiled as if they lived in: numba's cache keys on
        it. None: not cached, compiled in every process.
    keep_options : whether the copies keep the options of the originals (the shipped
        strategies never allocate) or are compiled with numba's reference counting (a
        user's strategy may allocate).
    """

    def __init__(
        self,
        name: str,
        source: str,
        decisions: Sequence[Decision],
        bound: Mapping[str, Any],
        path: Path | None,
        keep_options: bool,
    ) -> None:
        self.name = name
        self.path = path
        self.keep_options = keep_options
        filename = str(path) if path is not None else f"<dispatchers {name}>"
        # Readable tracebacks of the generated code (its file may not exist).
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        # A module numba finds by name: an out-of-line dispatcher is compiled, and
        # cached, as a function of its own, whose globals numba looks up there.
        generated = types.ModuleType(name, source)
        if path is not None:
            generated.__file__ = str(path)
        sys.modules[name] = generated
        namespace = generated.__dict__
        namespace.update(bound)
        exec(compile(source, filename, "exec"), namespace)
        for key, value in list(namespace.items()):
            if key.endswith(OUT_OF_LINE):  # the shipped strategies never allocate
                namespace[key] = njit(_nrt=False, error_model="numpy")(value)
        self.dispatchers = {
            id(d): njit(inline="always")(namespace[f"{d.name}_dispatch"]) for d in decisions
        }
        self._copies: dict[int, Any] = {}
        self._modules: dict[int, types.ModuleType] = {}
        #: The modules whose functions were copied, by name, in the order copied.
        self.sources: list[str] = []

    def bind(self, value: Any) -> Any:
        """``value`` as this binding plays it: a decision's dispatcher, a bound copy of a
        compiled function that calls one (or of a module holding such functions), or
        ``value`` itself."""
        if isinstance(value, Decision):
            return self.dispatchers[id(value)]
        if isinstance(value, types.ModuleType):
            return self.module(vars(value)) if _CALLS.module_asks(value) else value
        if not (isinstance(value, Dispatcher) and _CALLS.asks(value)):
            return value
        if id(value) not in self._copies:
            self._copies[id(value)] = self._copy(value)
        return self._copies[id(value)]

    def module(self, namespace: dict[str, Any]) -> types.ModuleType:
        """The copy of the module of globals ``namespace`` whose compiled functions call
        this binding's dispatchers."""
        if id(namespace) not in self._modules:
            tail = namespace["__name__"].replace(".", "_")
            copy = types.ModuleType(f"{self.name}_{tail}", namespace.get("__doc__"))
            copy.__dict__.update({k: v for k, v in namespace.items() if k != "__name__"})
            if self.path is not None:
                copy.__file__ = str(self.path)
            self._modules[id(namespace)] = copy
            self.sources.append(namespace["__name__"])
            sys.modules[copy.__name__] = copy
            for key, value in namespace.items():
                if not key.startswith("__"):
                    copy.__dict__[key] = self.bind(value)
        return self._modules[id(namespace)]

    def _copy(self, function: Dispatcher) -> Dispatcher:
        py = function.py_func
        namespace = self.module(py.__globals__).__dict__
        code = py.__code__
        if self.path is not None:
            code = code.replace(co_filename=str(self.path))
        copy = types.FunctionType(code, namespace, py.__name__, py.__defaults__, py.__closure__)
        # One file holds the copies of every module: the module's name keeps the names
        # of numba's cache files apart.
        copy.__qualname__ = ".".join([*py.__module__.split(".")[-2:], py.__qualname__])
        options = dict(function.targetoptions)
        options.pop("nopython", None)
        if not self.keep_options:
            options.pop("_nrt", None)
        return njit(cache=self.path is not None, **options)(copy)


#: The dispatch of the game that declares each decision, by the decision's identity.
_DECLARED: dict[int, Dispatch] = {}


def playable(function: Callable) -> Callable:
    """``function`` (a strategy's decision function) as Python may call it: a search
    player's, which calls its game's decisions in its playouts, comes as its copy with
    the game's shipped strategies bound in (:meth:`Dispatch.bound`); any other as itself.
    """
    decision = _CALLS.asked(function)
    if decision is None:
        return function
    if id(decision) not in _DECLARED:
        raise BalanceError(f"{decision!r}: no game's dispatch declares it (load its engine)")
    return _DECLARED[id(decision)].bound(function)


class Dispatch:
    """The compiled code of one game, by the strategies it can call.

    Parameters
    ----------
    module : the game's kernel module (``engine_nb``): the :class:`Decision` values it
        holds are the decisions, in their order there.
    strategies : the game's strategies module (``strategies/<game>.py``): its
        ``SHIPPED`` tuple lists the shipped strategies, their codes their places in it.
    home : the file that declares this dispatch (``__file__``), which imports (directly
        or not, deferred imports included) every module whose functions call a decision:
        the shipped strategies' code is compiled as if it lived there, so that numba's
        cache is keyed on every source it is built from.
    loop : the name of the module's game loop, the function the runner calls.
    fallback : decision -> the function a user's strategy that gives none plays.
    extra : code -> decision -> function: codes of the module's own that its callers
        may ask besides the strategies' (a scenario test's scripted answers).
    in_line : the shipped strategies called from the dispatchers numba inlines at every
        call site (None: all of them); the others are called from one function of their
        own per decision, out of line: each of their decisions costs far more than a
        call, and one call site keeps the inlined game loop's compile time down.
    """

    def __init__(
        self,
        module: types.ModuleType,
        strategies: types.ModuleType,
        home: str,
        loop: str = "play_games_nb",
        fallback: Mapping[str, Callable] | None = None,
        extra: Mapping[int, Mapping[str, Callable]] | None = None,
        in_line: Sequence[Strategy] | None = None,
    ) -> None:
        self.module = module
        self.strategies = strategies
        self.home = Path(home).resolve()
        self.loop = loop
        self.fallback = dict(fallback or {})
        self.extra = dict(extra or {})
        self.in_line = in_line
        self.decisions = tuple(v for v in vars(module).values() if isinstance(v, Decision))
        self.shipped = tuple(s for s in strategies.SHIPPED if s.code is not None)
        for code, strategy in enumerate(self.shipped):
            if strategy.code != code:  # balance.core.strategy.ship gives them in order
                raise BalanceError(
                    f"strategy {strategy.name!r} has code {strategy.code}, not {code}"
                )
        self._kernels: dict[tuple[Strategy, ...], Callable] = {}
        _DECLARED.update((id(d), self) for d in self.decisions)

    @property
    def arguments(self) -> dict[str, str]:
        """decision -> the argument list its functions take after ``code``."""
        return {d.name: d.arguments for d in self.decisions}

    @functools.cached_property
    def _shipped(self) -> _Binding:
        for strategy in self.shipped:
            if any(_CALLS.asks(f) for f in strategy.decisions.values()):
                raise BalanceError(
                    f"shipped strategy {strategy.name!r} calls the game's decisions (a search "
                    "player): it must join the loop without a code"
                )
        return self._binding(
            f"balance_shipped_{self.module.__name__.replace('.', '_')}",
            [(f"{s.name}", s) for s in self.shipped],
            self.home,
            keep_options=True,
        )

    def bound(self, value: Any) -> Any:
        """``value`` (a compiled function or a module of them) as the shipped strategies
        play it: its copy that calls their dispatchers, if it calls a decision at all.

        The kernel module's functions and the search modules' that call a decision
        cannot be compiled themselves (a :class:`Decision` is no compiled function):
        Python calls them through this, e.g. ``DISPATCH.bound(search_nb).advance_nb``.
        """
        return self._shipped.bind(value)

    def bound_modules(self) -> list[str]:
        """The modules whose functions the shipped strategies' code has compiled again
        (with their dispatchers) in this process so far, by name."""
        return list(self._shipped.sources)

    def kernel_for(self, strategies: Sequence[Strategy]) -> Callable:
        """The game loop that can call every one of ``strategies`` (a run's, seat by
        seat): shipped ones by their codes, the others by ``USER_CODES + i`` in the
        order they first come. A code no shipped strategy has is refused."""
        users: list[Strategy] = []
        for strategy in strategies:
            if strategy.code is None:
                if strategy not in users:
                    users.append(strategy)
            elif not 0 <= strategy.code < len(self.shipped):
                raise BalanceError(
                    f"strategy {strategy.name!r} has code {strategy.code}, which no shipped "
                    f"strategy of {self.shipped[0].game} has (0 to {len(self.shipped) - 1})"
                )
        key = tuple(users)
        if key not in self._kernels:
            self._kernels[key] = self._build(key)
        return self._kernels[key]

    def forget(self) -> None:
        """Drop the loops with users' strategies built in this process (the next run
        loads them from disk)."""
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
            if origin is None:
                return None
            # the module's name says whether its indices are checked (bounds_checked)
            part = f"{origin.path}\0{origin.digest}\0{origin.module}\0{strategy.name}\0"
            digest.update(part.encode())
            for decision in self.decisions:
                function = self._function(strategy, decision.name)
                name = getattr(getattr(function, "py_func", function), "__qualname__", "")
                digest.update(f"{decision.name}={name}\0".encode())
        return digest.hexdigest()

    def _function(self, strategy: Strategy, decision: str) -> Callable:
        return strategy.decisions.get(decision, self.fallback.get(decision))

    def _build(self, users: tuple[Strategy, ...]) -> Callable:
        loop = getattr(self.module, self.loop)
        if not users:
            return self._shipped.bind(loop)
        key = self.cache_key(users)
        name = f"balance_loop_{key[:16]}" if key else f"balance_loop_{id(users):x}"
        named = [(s.name, s) for s in self.shipped]
        named += [(f"{s.name} ({_where(s)})", s) for s in users]
        source = self._source(named)
        path = _materialise(key, source) if key else None
        binding = self._binding(name, named, path, keep_options=False, source=source)
        return binding.bind(loop)

    def _source(self, named: Sequence[tuple[str, Strategy]]) -> str:
        """The generated module: one dispatcher per decision, a branch per code (and one
        more function per decision for the shipped strategies not :attr:`in_line`)."""
        lines = [
            '"""Dispatchers generated by balance for the strategies:',
            *(f"    {self._code(k)}: {name}" for k, (name, _) in enumerate(named)),
            f'called from the game loop of {self.module.__name__}."""',
            "",
        ]
        for decision in self.decisions:
            name, args = decision.name, decision.arguments
            apart = [
                k
                for k, (_, strategy) in enumerate(named)
                if self.in_line is not None
                and k < len(self.shipped)
                and strategy not in self.in_line
            ]
            lines += ["", f"def {name}_dispatch(code, {args}):"]
            for k in range(len(named)):
                if k not in apart:
                    lines.append(f"    if code == {self._code(k)}:")
                    lines.append(f"        return strategy{k}_{name}({args})")
            for j, code in enumerate(self.extra):
                lines.append(f"    if code == {code}:")
                lines.append(f"        return extra{j}_{name}({args})")
            if apart:
                lines += [f"    return {name}{OUT_OF_LINE}(code, {args})", ""]
                lines += ["", f"def {name}{OUT_OF_LINE}(code, {args}):"]
                for k in apart:
                    lines.append(f"    if code == {self._code(k)}:")
                    lines.append(f"        return strategy{k}_{name}({args})")
            lines += [f'    raise ValueError("no strategy has this code ({name})")', ""]
        return "\n".join(lines)

    def _code(self, k: int) -> int:
        return k if k < len(self.shipped) else USER_CODES + k - len(self.shipped)

    def _binding(
        self,
        name: str,
        named: Sequence[tuple[str, Strategy]],
        path: Path | None,
        keep_options: bool,
        source: str | None = None,
    ) -> _Binding:
        bound: dict[str, Any] = {}
        for k, (_, strategy) in enumerate(named):
            for decision in self.decisions:
                # A search player's function calls the shipped strategies in its playouts.
                function = self._function(strategy, decision.name)
                if k >= len(self.shipped):
                    function = self.bound(function)
                bound[f"strategy{k}_{decision.name}"] = function
        for j, functions in enumerate(self.extra.values()):
            for decision, function in functions.items():
                bound[f"extra{j}_{decision}"] = function
        return _Binding(
            name,
            source if source is not None else self._source(named),
            self.decisions,
            bound,
            path,
            keep_options,
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
