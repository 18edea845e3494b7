"""How a game's compiled code calls the strategies of a run, shipped or a user's own.

A game's kernel module (``engine_nb``) never imports its strategies. It declares each
decision it asks a seat's strategy for as a :class:`Decision` (Walk the Plank's
``program_nb = Decision("program", "obs, seat, available, params, rng, out", ...)``) and
calls it by the seat's code: ``program_nb(code, obs, ...)``. :class:`Dispatch` generates
one dispatcher per decision from the game's ``SHIPPED`` tuple (code ``k`` plays its
``k``-th strategy, any code without a strategy raises) and compiles again, with the
dispatchers bound in their globals (numba freezes globals when it compiles), every
function that calls a decision, directly or through other functions or modules: the game
loop, and the search players' playouts. Those functions are found by walking the globals
the compiled functions read.

A strategy without a code (a user's file, a shipped search player) is not compiled into
the game loop. Its decision functions are compiled alone, for the argument types the loop
passes (which the loop's compiled code carries, :func:`_decision_types`), with the game's
own arrays read-only (:attr:`Decision.writable`), and the loop calls them by address:
code ``USER_CODES + slot`` reads the function's address from a table of the process
(:class:`_UserTable`) and calls it as numba calls any compiled function, so that its
exceptions reach the loop's caller. The game loop is therefore compiled once, whoever
plays; a user's file compiles only its own functions.

Compiled once, loaded from numba's on-disk cache by every later process:

* the game loop, and the shipped strategies' code, are compiled as if they lived in the
  file that declares the game's :class:`Dispatch` (its ``engine.py``), which imports the
  kernels and the strategies: :mod:`balance.core.compile_cache` then keys them on that
  file and on every source it imports (the kernels, the kit, the strategies, the search
  modules);
* a strategy's decision functions as the loop calls them are compiled as if they lived in
  a module file generated under ``<cache>/strategies/<key>/`` (:func:`cache_root`),
  ``key`` a hash of the strategy's file with its comments, docstrings and layout left out
  (:func:`code_digest`), the sources of balance and the versions of Python, numba and
  numpy. A run of an unchanged file loads them, and so does a run after an edit of a
  comment; an edit of the code compiles them once, in seconds.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import inspect
import linecache
import os
import pickle
import sys
import threading
import types
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba.core import types as nbtypes
from numba.core.dispatcher import Dispatcher
from numba.extending import intrinsic

from balance.core.compile_cache import njit, package_roots
from balance.core.errors import BalanceError
from balance.core.llvm_nb import hold_nb, unheld_nb
from balance.core.strategy import Strategy, strategy_origin

#: Environment variable naming the directory of compiled user strategies.
CACHE_ENV = "BALANCE_CACHE_DIR"
#: Codes from here on belong to the strategies without a code (users' files, search
#: players): ``USER_CODES + slot``, the slot each was given in this process.
USER_CODES = 100
#: Most strategies without a code one process can seat (slots are never given back).
USER_SLOTS = 4096
#: Suffix of a generated function that dispatches the shipped strategies out of line.
OUT_OF_LINE = "_out_of_line"
#: Suffix of a generated function that calls a strategy without a code by its address.
BY_ADDRESS = "_by_address"
#: Suffix of a generated function that calls :data:`OUT_OF_LINE` with a decision's
#: :attr:`~Decision.held` arguments given as values, as Python gives them.
FROM_PYTHON = "_from_python"


class Decision:
    """A decision a game's compiled code asks a seat's strategy for, by the seat's code.

    A kernel module binds one to the name it calls (``program_nb = Decision(...)``);
    :class:`Dispatch` compiles its callers with a generated dispatcher in its place.

    Attributes
    ----------
    name : the decision's name in a :class:`~balance.core.strategy.Strategy`.
    arguments : the argument list its functions take, as Python spells it.
    writable : the arrays a strategy may write into, as arguments (``rng``, ``out``) or
        entries of a tuple argument (``obs[7]``): its scratch buffers and its answer.
        Every other array is the game's own, passed to a strategy without a code
        read-only, so that writing into it is refused when the strategy compiles.
    returns_index : whether its functions return an option's index (int64); else they
        write their answer into an array and return nothing.
    held : the arguments the game's code passes by address (:func:`hold_nb`): wide
        tuples that stay the same from one decision to the next (Battle of Thieves'
        view, some 360 words), which a call would otherwise pass word by word. The
        dispatchers read them back (:func:`unheld_nb`) before they call a strategy, so
        that strategies take them as values.
    """

    def __init__(
        self,
        name: str,
        arguments: str,
        writable: str = "",
        returns_index: bool = True,
        held: str = "",
    ) -> None:
        self.name = name
        self.arguments = arguments
        self.writable = frozenset(w.strip() for w in writable.split(",") if w.strip())
        self.returns_index = returns_index
        self.held = frozenset(h.strip() for h in held.split(",") if h.strip())
        unknown = ({w.split("[")[0] for w in self.writable} | self.held) - set(self.names)
        if unknown:
            raise BalanceError(f"decision {name!r}: writable or held names no argument: {unknown}")

    @property
    def names(self) -> tuple[str, ...]:
        """The argument names, in order."""
        return tuple(a.strip() for a in self.arguments.split(","))

    def passed(self, held_through: str) -> str:
        """The argument list as generated code passes it on, each :attr:`held` argument
        through the function named ``held_through`` (``unheld_nb``: as a value;
        ``hold_nb``: by address)."""
        return ", ".join(f"{held_through}({a})" if a in self.held else a for a in self.names)

    def read_only(self, argtypes: Sequence[Any]) -> tuple[Any, ...]:
        """``argtypes`` (numba types, one per argument) with every array that is not
        :attr:`writable` made read-only, in tuples too (nested ones wholly)."""
        return tuple(
            _read_only(kind, name, self.writable)
            for name, kind in zip(self.names, argtypes, strict=True)
        )

    def as_called(self, arguments: Sequence[Any]) -> tuple[Any, ...]:
        """``arguments`` (values, one per argument) as the game loop passes them to a
        strategy without a code: every array that is not :attr:`writable` a read-only
        view (:meth:`read_only`'s types), in tuples too. Called so from Python, such a
        strategy is compiled for the types a run compiles it for, not a second time."""
        return tuple(
            _read_only_value(value, name, self.writable)
            for name, value in zip(self.names, arguments, strict=True)
        )

    def __repr__(self) -> str:
        return f"Decision({self.name!r}: code, {self.arguments})"


def _read_only(kind: Any, path: str, writable: frozenset[str]) -> Any:
    """``kind`` with its arrays read-only unless ``path`` (``obs``, ``obs[7]``) is writable."""
    if path in writable:
        return kind
    if isinstance(kind, nbtypes.Array):
        return kind.copy(readonly=True)
    if isinstance(kind, nbtypes.BaseTuple):
        members = [_read_only(k, f"{path}[{i}]", writable) for i, k in enumerate(kind.types)]
        # the call passes a tuple member by member: its grouping may change, not its parts
        return nbtypes.BaseTuple.from_types(members)
    return kind


def read_only_view(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array``: numba types it a read-only array, as a run passes
    the game's own arrays to a strategy without a code (:meth:`Decision.as_called`)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _read_only_value(value: Any, path: str, writable: frozenset[str]) -> Any:
    """``value`` with its arrays read-only views unless ``path`` is writable
    (:func:`_read_only` for values)."""
    if path in writable:
        return value
    if isinstance(value, np.ndarray):
        return read_only_view(value)
    if isinstance(value, tuple):
        return tuple(_read_only_value(v, f"{path}[{i}]", writable) for i, v in enumerate(value))
    return value


class _UserTable:
    """The compiled decision functions of the strategies without a code, by slot: the
    addresses the game loop calls (``cells[slot * width + column]``, 0 where none).

    The table lives in this process and is named to the loop's compiled code by a symbol
    (``llvm.add_symbol``), so a loop loaded from numba's cache finds it again.
    """

    def __init__(self, symbol: str, decisions: Sequence[Decision]) -> None:
        self.symbol = symbol
        self.width = len(decisions)
        self.cells = (ctypes.c_void_p * (USER_SLOTS * self.width))()
        llvm.add_symbol(symbol, ctypes.addressof(self.cells))


def _types_symbol(table: str, decision: Decision) -> str:
    """The symbol under which a loop's compiled code keeps a decision's argument types."""
    return f"{table}_{decision.name}_types"


#: Argument types each decision's call was compiled with in this process, by symbol.
_TYPED: dict[str, tuple[Any, ...]] = {}


def _held(table: str, decision: Decision) -> Any:
    """An intrinsic ``held(arguments)``: the address of the tuple ``arguments``, kept on
    the caller's stack for a call by address (:func:`_user_call`).

    A call passes every array of a tuple field by field (Battle of Thieves' view is some
    360 words); an address is one. It keeps the arguments' types in the compiled code
    (:func:`_decision_types`), where the strategies' functions are compiled for them: a
    decision is called with one set of types. A :attr:`Decision.held` argument comes as
    the address :func:`hold_nb` gave (not copied again), its type kept as its value's.
    """
    symbol = _types_symbol(table, decision)

    @intrinsic
    def held(typingctx: Any, arguments: Any) -> Any:
        argtypes = tuple(nbtypes.unliteral(t) for t in arguments.types)
        values = tuple(
            kind.dtype if name in decision.held and isinstance(kind, nbtypes.CPointer) else kind
            for name, kind in zip(decision.names, argtypes, strict=True)
        )

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if _TYPED.setdefault(symbol, values) != values:
                raise BalanceError(
                    f"decision {decision.name!r} is called with other argument types than "
                    f"before ({values} against {_TYPED[symbol]}): every call of a "
                    "decision must pass the same types"
                )
            _keep_types(builder.module, symbol, pickle.dumps(values))
            stored = cgutils.alloca_once_value(builder, args[0])
            return builder.bitcast(stored, cgutils.voidptr_t)

        return nbtypes.voidptr(nbtypes.BaseTuple.from_types(argtypes)), codegen

    return held


def _user_call(table: str, width: int, column: int, decision: Decision) -> Any:
    """An intrinsic ``call(slot, arguments)``: the decision function of the strategy in
    ``slot`` of ``table``, called by its address with ``arguments``, the address of its
    arguments (:func:`_held`; read back by :func:`_arguments_at`). It raises if the slot
    holds no function and propagates the function's exceptions.
    """
    restype = nbtypes.int64 if decision.returns_index else nbtypes.none

    @intrinsic
    def call(typingctx: Any, slot: Any, arguments: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            # Never inlined by LLVM: inlined at every call site, the call slowed the
            # code around it (Lifeboats' heuristics by a fifth).
            builder.function.attributes.add("noinline")
            module = builder.module
            cells = _global(module, table, ir.ArrayType(cgutils.voidptr_t, USER_SLOTS * width))
            slot_value = args[0]
            index = builder.add(
                builder.mul(slot_value, ir.Constant(slot_value.type, width)),
                ir.Constant(slot_value.type, column),
            )
            address = builder.load(builder.gep(cells, [cgutils.int32_t(0), index]))
            with cgutils.if_unlikely(builder, cgutils.is_null(builder, address)):
                context.call_conv.return_user_exc(
                    builder, ValueError, (f"no strategy has this code ({decision.name})",)
                )
            by_pointer = (nbtypes.voidptr,)
            function_type = context.call_conv.get_function_type(restype, by_pointer)
            function = builder.bitcast(address, function_type.as_pointer())
            status, result = context.call_conv.call_function(
                builder, function, restype, by_pointer, (args[1],)
            )
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return restype(nbtypes.int64, nbtypes.voidptr), codegen

    return call


def _arguments_at(kind: Any) -> Any:
    """An intrinsic ``arguments(pointer)``: the tuple of type ``kind`` that
    :func:`_held` left at ``pointer`` (its arrays borrowed: compile its caller
    without reference counting). ``kind`` may differ from the stored tuple's type in
    what numba alone sees (arrays read-only, a tuple of like members grouped), never in
    the values it holds."""

    @intrinsic
    def arguments(typingctx: Any, pointer: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            value_type = context.get_value_type(kind)
            return builder.load(builder.bitcast(args[0], value_type.as_pointer()))

        return kind(nbtypes.voidptr), codegen

    return arguments


def _global(module: ir.Module, name: str, kind: ir.Type) -> ir.GlobalVariable:
    """The table ``name`` declared in ``module`` (defined by :class:`_UserTable`)."""
    try:
        return module.get_global(name)
    except KeyError:
        table = ir.GlobalVariable(module, kind, name)
        table.linkage = "external"
        return table


def _keep_types(module: ir.Module, symbol: str, payload: bytes) -> None:
    """``payload`` as constant ``symbol`` of ``module``: its length (8 bytes) then itself;
    weak, so that every function of a loop may hold it once."""
    try:
        module.get_global(symbol)
    except KeyError:
        data = bytearray(len(payload).to_bytes(8, "little") + payload)
        kind = ir.ArrayType(ir.IntType(8), len(data))
        constant = ir.GlobalVariable(module, kind, symbol)
        constant.initializer = ir.Constant(kind, data)
        constant.global_constant = True
        constant.linkage = "weak_odr"


def _decision_types(library: Any, symbol: str) -> tuple[Any, ...] | None:
    """The argument types a compiled loop (its numba code ``library``) calls a decision
    with, from the constant :func:`_held` left in it; None if it never calls it."""
    address = library.get_pointer_to_function(symbol)
    if not address:
        return None
    size = int.from_bytes(ctypes.string_at(address, 8), "little")
    return pickle.loads(ctypes.string_at(address + 8, size))


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


def read_names(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code reads (nested code included)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= read_names(const)
    return names


def _ours(module: types.ModuleType) -> bool:
    """Whether ``module`` may hold functions that call a decision: balance's own (its
    shipped strategies too), a game package's (``balance.games`` entry points) or a
    user's strategy file, not numpy or numba."""
    name = module.__name__
    top = name.partition(".")[0]
    return name.startswith(("balance.", "balance_")) or top in ("balance", *_game_packages())


@functools.cache
def _game_packages() -> tuple[str, ...]:
    """The top-level packages of the installed games besides balance's own."""
    return tuple(
        root for root, _ in package_roots() if root not in ("balance", "balance.strategies")
    )


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
        names = read_names(py.__code__)
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
    tag : the copies' qualified names start with it: two bindings compiled as if in the
        same file keep apart in numba's cache.
    source : the generated dispatchers' source, one ``<decision>_dispatch`` each.
    decisions : the decisions the source dispatches.
    bound : names the source reads (the strategies' functions), by name.
    path : the file the copies are compiled as if they lived in: numba's cache keys on it.
    """

    def __init__(
        self,
        name: str,
        tag: str,
        source: str,
        decisions: Sequence[Decision],
        bound: Mapping[str, Any],
        path: Path,
    ) -> None:
        self.name = name
        self.tag = tag
        self.path = path
        # A module numba finds by name: an out-of-line dispatcher is compiled, and
        # cached, as a function of its own, whose globals numba looks up there.
        namespace = _generated_module(name, source, bound, path).__dict__
        #: ``<decision>_out_of_line(code, ...)`` by decision name, where there is one.
        self.out_of_line: dict[str, Dispatcher] = {}
        #: ``<decision>_from_python(code, ...)``, where the decision has held arguments.
        self.from_python: dict[str, Dispatcher] = {}
        for key, value in list(namespace.items()):
            if key.endswith(OUT_OF_LINE):  # the shipped strategies never allocate
                value.__qualname__ = f"{tag}.{key}"
                # Cached as well as compiled into the loop: Python calls it too
                # (:meth:`Dispatch.loop_decision`).
                namespace[key] = njit(_nrt=False, error_model="numpy", cache=True)(value)
                self.out_of_line[key.removesuffix(OUT_OF_LINE)] = namespace[key]
            elif key.endswith(FROM_PYTHON):
                value.__qualname__ = f"{tag}.{key}"
                namespace[key] = njit(_nrt=False, cache=True)(value)
                self.from_python[key.removesuffix(FROM_PYTHON)] = namespace[key]
            elif key.endswith(BY_ADDRESS):  # the arguments are borrowed for the call
                value.__qualname__ = f"{tag}.{key}"
                namespace[key] = njit(_nrt=False)(value)
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
        code = py.__code__.replace(co_filename=str(self.path))
        copy = types.FunctionType(code, namespace, py.__name__, py.__defaults__, py.__closure__)
        # One file holds the copies of every module, of each binding: the binding's tag
        # and the module's name keep the names of numba's cache files apart.
        copy.__qualname__ = ".".join([self.tag, *py.__module__.split(".")[-2:], py.__qualname__])
        options = dict(function.targetoptions)
        options.pop("nopython", None)
        return njit(cache=True, **options)(copy)


#: The dispatch of the game that declares each decision, by the decision's identity.
_DECLARED: dict[int, Dispatch] = {}
#: The dispatch of the game of each shipped strategy with a code.
_SHIPPING: dict[Strategy, Dispatch] = {}


def playable(
    function: Callable, strategy: Strategy | None = None, name: str = "", as_in_a_run: bool = False
) -> Callable:
    """``function`` (a strategy's decision function) as Python may call it: a search
    player's, which calls its game's decisions in its playouts, comes as its copy with
    the game's shipped strategies bound in (:meth:`Dispatch.bound`); any other as itself.

    Given the ``strategy`` and the ``name`` of the decision it is the function of, a
    shipped strategy the game loop calls out of line comes as the loop's own compiled code
    (:meth:`Dispatch.loop_decision`), which is not compiled again (for held arguments,
    through a small wrapper).

    With ``as_in_a_run``, a search player's function comes as a Python function that
    passes it the game's arrays read-only where a run does (:meth:`Decision.as_called`),
    so that it is compiled (and cached) once for both.
    """
    shipping = _SHIPPING.get(strategy) if strategy is not None else None
    if shipping is not None and (found := shipping.loop_decision(strategy, name)):
        return found
    decision = _CALLS.asked(function)
    if decision is None:
        return function
    if id(decision) not in _DECLARED:
        raise BalanceError(f"{decision!r}: no game's dispatch declares it (load its engine)")
    dispatch = _DECLARED[id(decision)]
    bound = dispatch.bound(function)
    if not as_in_a_run:
        return bound
    # A run passes a search player the game's arrays read-only, as any strategy without
    # a code: the decision it answers is the one whose arguments it takes.
    names = tuple(inspect.signature(function.py_func).parameters)
    answered = [d for d in dispatch.decisions if d.names == names]
    if len(answered) != 1:
        return bound
    (answers,) = answered

    @functools.wraps(function.py_func)
    def as_called(*arguments: Any) -> Any:
        return bound(*answers.as_called(arguments))

    return as_called


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
    wide_arguments : the decisions' arguments are wide (Battle of Thieves' view, some
        360 words): the game loop passes their address to the function that calls a
        strategy without a code, not the arguments word by word.
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
        wide_arguments: bool = False,
    ) -> None:
        self.module = module
        self.wide_arguments = wide_arguments
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
        self._table = _UserTable(f"balance_users_{_flat(module.__name__)}", self.decisions)
        # The strategies without a code by slot (kept, so that a slot is never reused);
        # the compiled functions of those that joined (kept: the table holds their
        # addresses), and whether they came from numba's cache.
        self._slots: dict[Strategy, int] = {}
        self._joined: dict[Strategy, tuple[list[Dispatcher], bool]] = {}
        self._functions: weakref.WeakKeyDictionary[Strategy, dict[str, Dispatcher]] = (
            weakref.WeakKeyDictionary()
        )
        # Blocks of one run may start on several threads: a strategy gets one slot.
        self._lock = threading.RLock()
        # The bindings of :meth:`bound` that play some shipped strategies, by their codes.
        self._playing: dict[tuple[int, ...], _Binding] = {}
        _DECLARED.update((id(d), self) for d in self.decisions)
        _SHIPPING.update((s, self) for s in self.shipped)

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
        return self._binding("shipped", users=False)

    @functools.cached_property
    def _main(self) -> _Binding:
        """The game loop's binding: the shipped strategies, and the strategies without a
        code by their slots in the table."""
        return self._binding("main", users=True)

    def bound(self, value: Any, playing: Sequence[Strategy] | None = None) -> Any:
        """``value`` (a compiled function or a module of them) as the shipped strategies
        play it: its copy that calls their dispatchers, if it calls a decision at all.

        The kernel module's functions and the search modules' that call a decision
        cannot be compiled themselves (a :class:`Decision` is no compiled function):
        Python calls them through this, e.g. ``DISPATCH.bound(search_nb).advance_nb``.

        ``playing``: the shipped strategies the caller's seats can play (None: all of
        them). Its copy's dispatchers call only those and the module's :attr:`extra`
        codes (any other code raises), so that a scenario's random and scripted seats
        compile no heuristic.
        """
        if playing is None:
            return self._shipped.bind(value)
        codes = tuple(sorted({self._shipped_code(s) for s in playing}))
        with self._lock:
            if codes not in self._playing:
                tag = "playing" + "_".join(map(str, codes))
                self._playing[codes] = self._binding(tag, users=False, codes=codes)
        return self._playing[codes].bind(value)

    def with_loop(self, value: Any) -> Any:
        """``value`` bound as the game loop is (:meth:`kernel_for`): the functions it
        shares with the loop are the loop's own compiled code, which numba loads from its
        cache once any run has compiled the loop, not a copy compiled again."""
        return self._main.bind(value)

    def loop_decision(self, strategy: Strategy, name: str) -> Callable | None:
        """The game loop's own compiled function of a shipped ``strategy``'s decision
        ``name`` (same arguments), if the loop calls it out of line (not :attr:`in_line`),
        else None: numba loads it from its cache once any run has compiled the loop, so
        that a reference engine's seat playing it does not compile the strategy again.
        For a decision with :attr:`~Decision.held` arguments it is a small wrapper that
        holds them (``<decision>_from_python``), whose first compile links the loop's
        function into its own code (cached then)."""
        if self.in_line is None or strategy in self.in_line or strategy not in self.shipped:
            return None
        function = self._main.from_python.get(name, self._main.out_of_line.get(name))
        if function is None:
            return None
        return functools.partial(function, self._shipped_code(strategy))

    def _shipped_code(self, strategy: Strategy) -> int:
        if strategy not in self.shipped:
            raise BalanceError(
                f"strategy {strategy.name!r} is no shipped strategy of {self.module.__name__}"
            )
        return self.shipped.index(strategy)

    def bound_modules(self) -> list[str]:
        """The modules whose functions the shipped strategies' code has compiled again
        (with their dispatchers) in this process so far, by name."""
        playing = [m for binding in self._playing.values() for m in binding.sources]
        return list(self._shipped.sources) + list(self._main.sources) + playing

    def kernel_for(self, strategies: Sequence[Strategy]) -> Callable:
        """The game loop, which can call every one of ``strategies`` (a run's, seat by
        seat): shipped ones by their codes, the others by :meth:`code` once
        :meth:`prepare` has compiled their functions. A code no shipped strategy has is
        refused."""
        for strategy in strategies:
            if strategy.code is not None and not 0 <= strategy.code < len(self.shipped):
                raise BalanceError(
                    f"strategy {strategy.name!r} has code {strategy.code}, which no shipped "
                    f"strategy of {self.shipped[0].game} has (0 to {len(self.shipped) - 1})"
                )
        return self._main.bind(getattr(self.module, self.loop))

    def code(self, strategy: Strategy) -> int:
        """The code the game loop calls ``strategy`` by: a shipped strategy's own, else
        ``USER_CODES`` plus the slot it is given in this process (the first time)."""
        if strategy.code is not None:
            return strategy.code
        with self._lock:
            if strategy not in self._slots:
                if len(self._slots) == USER_SLOTS:
                    raise BalanceError(
                        f"one process seats at most {USER_SLOTS} strategies of files or "
                        "search players; start another"
                    )
                self._slots[strategy] = len(self._slots)
            return USER_CODES + self._slots[strategy]

    def prepare(
        self, kernel: Dispatcher, arguments: Sequence[Any], strategies: Sequence[Strategy]
    ) -> None:
        """Make ready the game loop ``kernel`` for a call with ``arguments`` and the
        decision functions of each strategy without a code among ``strategies``: compile
        (or load) the loop, then each strategy's functions for the argument types the
        loop passes, and give the loop their addresses."""
        users = [s for s in dict.fromkeys(strategies) if s.code is None and s not in self._joined]
        if not users:
            return
        signature = tuple(kernel.typeof_pyval(a) for a in arguments)
        kernel.compile(signature)
        library = kernel.overloads[signature].library
        with self._lock:
            for strategy in users:
                if strategy not in self._joined:
                    self._join(strategy, library)

    def is_ready(self, strategies: Sequence[Strategy], kernel: Dispatcher | None = None) -> bool:
        """Whether the game loop (or ``kernel``, a loop of the game's own) and the
        functions of ``strategies`` without a code are compiled in this process or cached
        on disk (else a run compiles them first)."""
        if not _has_cache(kernel or self.kernel_for(strategies)):
            return False
        return all(
            s in self._joined or all(map(_has_cache, self._compiled(s).values()))
            for s in strategies
            if s.code is None
        )

    def from_cache(self, strategy: Strategy) -> bool | None:
        """Whether the functions of ``strategy`` (without a code) came from numba's cache
        when they joined: True, False if compiled, None if they have not joined."""
        joined = self._joined.get(strategy)
        return None if joined is None else joined[1]

    def forget(self) -> None:
        """Let the strategies without a code join again on their next run, as in a new
        process (their functions load from disk; their slots stay theirs)."""
        self._joined.clear()
        self._functions.clear()
        ctypes.memset(self._table.cells, 0, ctypes.sizeof(self._table.cells))

    def strategy_key(self, strategy: Strategy) -> str | None:
        """The hash that names a strategy's compiled decision functions on disk; None if
        it was not loaded from a file (they are then compiled in every process).

        A comment, a docstring or the layout of the file do not change it
        (:func:`balance.core.strategy.code_digest`); any change of its code does.
        """
        origin = strategy_origin(strategy)
        if origin is None:
            return None
        digest = hashlib.sha256()
        checked = "unchecked" if origin.module.endswith("_unchecked") else "checked"
        for part in (
            self.module.__name__,
            sys.version,
            numba.__version__,
            np.__version__,
            _sources_digest(),
            str(origin.path),
            origin.code,
            checked,  # bounds_checked(): the user's functions compile with checks or not
            strategy.name,
        ):
            digest.update(part.encode() + b"\0")
        for decision in self.decisions:
            function = self._function(strategy, decision.name)
            name = getattr(getattr(function, "py_func", function), "__qualname__", "")
            digest.update(f"{decision.name}={name}\0".encode())
        return digest.hexdigest()

    def _function(self, strategy: Strategy, decision: str) -> Callable | None:
        return strategy.decisions.get(decision, self.fallback.get(decision))

    def _compiled(self, strategy: Strategy) -> dict[str, Dispatcher]:
        """decision -> the function the loop calls for ``strategy`` (not yet compiled):
        its decision function called with the loop's arguments, in a module generated
        under the cache directory (:func:`_materialise`) so that numba caches it."""
        if strategy in self._functions:
            return self._functions[strategy]
        key = self.strategy_key(strategy)
        tag = key[:16] if key else f"{id(strategy):x}"
        origin = strategy_origin(strategy)
        # (not the file's sha256: a comment's edit leaves this module, and its cache, be)
        where = origin.path if origin else "built in Python"
        lines = [
            f'"""The decisions of strategy {strategy.name!r} ({where}) as the game loop '
            f'of {self.module.__name__} calls them."""',
            "",
            "import numpy as np",
        ]
        bound: dict[str, Any] = {"unheld_nb": unheld_nb}
        for decision in self.decisions:
            function = self._function(strategy, decision.name)
            if function is None:
                continue
            # A search player's function calls the shipped strategies in its playouts.
            bound[f"strategy_{decision.name}"] = _called(self.bound(function))
            call = f"strategy_{decision.name}({decision.passed('unheld_nb')})"
            lines += [
                "",
                "",
                f"def {decision.name}_as_called(arguments):",
                f"    {decision.arguments} = arguments_of_{decision.name}(arguments)",
                f"    return np.int64({call})" if decision.returns_index else f"    {call}",
            ]
        source = "\n".join(lines) + "\n"
        path = _materialise(key, source, f"decisions_{tag}.py") if key else None
        module = _generated_module(f"balance_decisions_{tag}", source, bound, path)
        # No reference counting: the arguments are the loop's, borrowed for the call.
        functions = {
            d: njit(cache=path is not None, _nrt=False)(module.__dict__[f"{d}_as_called"])
            for d in (decision.name for decision in self.decisions)
            if f"{d}_as_called" in module.__dict__
        }
        self._functions[strategy] = functions
        return functions

    def _join(self, strategy: Strategy, library: Any) -> None:
        """Compile (or load) the functions of ``strategy`` for the argument types the
        loop (numba code ``library``) passes, and write their addresses in its slot."""
        slot = self.code(strategy) - USER_CODES
        functions = self._compiled(strategy)
        kept, cached = [], True
        for column, decision in enumerate(self.decisions):
            argtypes = _decision_types(library, _types_symbol(self._table.symbol, decision))
            if argtypes is None or decision.name not in functions:
                continue
            signature = decision.read_only(argtypes)
            function = functions[decision.name]
            packed = tuple(  # as :func:`_held` packed them: the held ones by address
                nbtypes.CPointer(kind) if name in decision.held else kind
                for name, kind in zip(decision.names, signature, strict=True)
            )
            reader = _arguments_at(nbtypes.BaseTuple.from_types(packed))
            function.py_func.__globals__[f"arguments_of_{decision.name}"] = reader
            if not _has_cache(function):
                # The decision compiled first with its own options: compiled within the
                # function the loop calls (no reference counting), numpy's allocating
                # functions would refuse to compile (a search player's, unless warm).
                decided = function.py_func.__globals__[f"strategy_{decision.name}"]
                decided.compile(signature)
            function.compile((nbtypes.voidptr,))
            cached = cached and compiled_from_cache(function) is True
            if decision.returns_index:
                _check_index(strategy, decision, self._function(strategy, decision.name), signature)
            compiled = function.overloads[(nbtypes.voidptr,)]
            address = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
            self._table.cells[slot * self._table.width + column] = address
            kept.append(function)
        self._joined[strategy] = (kept, cached)

    def _source(
        self,
        named: Sequence[tuple[str, Strategy]],
        users: bool,
        codes: Sequence[int] | None = None,
    ) -> str:
        """The generated module: one dispatcher per decision, a branch per code (only
        ``codes``, if given), one more function per decision for the shipped strategies
        not :attr:`in_line`, and with ``users`` a branch for the codes of the strategies
        without one."""
        codes = range(len(named)) if codes is None else codes
        lines = [
            '"""Dispatchers generated by balance for the strategies:',
            *(f"    {k}: {name}" for k, (name, _) in enumerate(named) if k in codes),
            *([f"    {USER_CODES} on: the strategies without a code, by slot"] if users else []),
            f'called from the game loop of {self.module.__name__}."""',
            "",
        ]
        for decision in self.decisions:
            name, args = decision.name, decision.arguments
            apart = [
                k
                for k, (_, strategy) in enumerate(named)
                if k in codes and self.in_line is not None and strategy not in self.in_line
            ]
            # the held arguments as values, as the strategies take them; by address to
            # the out-of-line function, whoever calls (compiled once, for the address)
            plain, addressed = decision.passed("unheld_nb"), decision.passed("hold_nb")
            lines += ["", f"def {name}_dispatch(code, {args}):"]
            for k in codes:
                if k not in apart:
                    lines.append(f"    if code == {k}:")
                    lines.append(f"        return strategy{k}_{name}({plain})")
            for j, code in enumerate(self.extra):
                lines.append(f"    if code == {code}:")
                lines.append(f"        return extra{j}_{name}({plain})")
            if users:
                lines.append(f"    if code >= {USER_CODES} and code < {USER_CODES + USER_SLOTS}:")
                held = f"held_{name}(({addressed},))"
                passed = held if self.wide_arguments else args
                lines.append(f"        return {name}{BY_ADDRESS}(code - {USER_CODES}, {passed})")
            if apart:
                lines += [f"    return {name}{OUT_OF_LINE}(code, {addressed})", ""]
                lines += ["", f"def {name}{OUT_OF_LINE}(code, {args}):"]
                for k in apart:
                    lines.append(f"    if code == {k}:")
                    lines.append(f"        return strategy{k}_{name}({plain})")
            lines += [f'    raise ValueError("no strategy has this code ({name})")', ""]
            if apart and decision.held:  # Python passes values (:meth:`loop_decision`)
                lines += ["", f"def {name}{FROM_PYTHON}(code, {args}):"]
                lines += [f"    return {name}{OUT_OF_LINE}(code, {addressed})", ""]
            if users:  # out of line (:func:`_user_call`)
                # The arguments' address made in the game loop (wide arguments: a call
                # would pass them word by word), or here (narrow ones: made in the loop,
                # it slowed Lifeboats' heuristics by a fifth).
                # (``user_slot``: no decision has an argument of that name)
                if self.wide_arguments:
                    call = f"user_{name}(user_slot, arguments)"
                    lines += ["", f"def {name}{BY_ADDRESS}(user_slot, arguments):"]
                else:
                    call = f"user_{name}(user_slot, {held})"
                    lines += ["", f"def {name}{BY_ADDRESS}(user_slot, {args}):"]
                lines += [f"    return {call}"] if decision.returns_index else [f"    {call}"]
                lines.append("")
        return "\n".join(lines)

    def _binding(self, tag: str, users: bool, codes: Sequence[int] | None = None) -> _Binding:
        named = [(s.name, s) for s in self.shipped]
        bound: dict[str, Any] = {"hold_nb": hold_nb, "unheld_nb": unheld_nb}
        for k, (_, strategy) in enumerate(named):
            for decision in self.decisions:
                bound[f"strategy{k}_{decision.name}"] = self._function(strategy, decision.name)
        for j, functions in enumerate(self.extra.values()):
            for decision, function in functions.items():
                bound[f"extra{j}_{decision}"] = function
        if users:
            width = len(self.decisions)
            for column, decision in enumerate(self.decisions):
                call = _user_call(self._table.symbol, width, column, decision)
                bound[f"user_{decision.name}"] = call
                bound[f"held_{decision.name}"] = _held(self._table.symbol, decision)
        return _Binding(
            f"balance_{tag}_{_flat(self.module.__name__)}",
            tag,
            self._source(named, users, codes),
            self.decisions,
            bound,
            self.home,
        )


def _called(function: Any) -> Any:
    """``function`` as a function of its own: a copy of it if numba would inline it, which
    in a caller compiled without reference counting could not allocate."""
    options = dict(getattr(function, "targetoptions", {}))
    if options.get("inline") != "always":
        return function
    options = {k: v for k, v in options.items() if k not in ("inline", "nopython", "cache")}
    return njit(**options)(function.py_func)


def _flat(name: str) -> str:
    return name.replace(".", "_")


def _check_index(strategy: Strategy, decision: Decision, function: Any, signature: Any) -> None:
    """A one-line error if ``function``, compiled for ``signature``, returns no integer
    (numba would turn a bool or a float into one without a word)."""
    overload = getattr(function, "overloads", {}).get(tuple(signature))
    if overload is None:  # loaded from numba's cache: checked when it was compiled
        return
    result = overload.signature.return_type
    if not isinstance(result, nbtypes.Integer):
        raise BalanceError(
            f"strategy {strategy.name!r}, decision {decision.name!r}: "
            f"{function.py_func.__name__} returns {result}, not an option's index (an integer)"
        )


def _has_cache(function: Any) -> bool:
    """Whether numba has ``function`` compiled in memory or cached on disk."""
    if function.signatures:
        return True
    try:
        return Path(function._cache._cache_file._index_path).exists()
    except AttributeError:  # compiled in memory only
        return False


def _generated_module(
    name: str, source: str, bound: Mapping[str, Any], path: Path | None
) -> types.ModuleType:
    """Run generated ``source`` as the module ``name`` (registered, so that numba finds
    its functions' globals by name), with the names of ``bound`` defined in it, as if it
    lived in ``path`` (numba's cache keys on it; None: in memory only). Its tracebacks
    quote the source."""
    filename = str(path) if path is not None else f"<generated {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    module = types.ModuleType(name, source)
    if path is not None:
        module.__file__ = str(path)
    sys.modules[name] = module
    module.__dict__.update(bound)
    exec(compile(source, filename, "exec"), module.__dict__)
    return module


def _materialise(key: str, source: str, name: str) -> Path | None:
    """Write a generated module under the cache directory (once); None if it cannot be
    written, in which case its functions are compiled in memory for this process."""
    directory = cache_root() / "strategies" / key
    path = directory / name
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
