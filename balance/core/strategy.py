"""Strategies: named sets of compiled decision functions, with parameters.

A game says which decisions a strategy makes (Walk the Plank: ``program``, ``choose``,
``push``) and what each receives; a :class:`Strategy` names one ``@njit`` function per
decision. Shipped strategies carry a small integer ``code``, their place in the game's
list of shipped strategies, from which its compiled dispatchers are generated; a user's
strategy joins through dispatchers generated for the run.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import sys
import traceback
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, ModuleType
from typing import TYPE_CHECKING

import numpy as np

from balance.core.errors import BalanceError

if TYPE_CHECKING:
    from balance.core.catalog import ListedStrategy

#: Most parameters a strategy may take.
MAX_PARAMS = 8


@dataclass(frozen=True, eq=False)  # compared and hashed by identity
class Strategy:
    """A strategy of one game.

    Attributes
    ----------
    game : id of the game it plays.
    name : short name, as given to ``--strategy``.
    description : one sentence a designer understands.
    decisions : decision name -> ``@njit`` function.
    params : parameter names with their defaults, in the order the functions read them.
    code : the game's dispatcher code for a shipped strategy, its place in the game's
        ``SHIPPED`` tuple (given by :func:`ship`); None for a user's strategy or a
        search player.
    param_docs : parameter name -> ``(range, meaning)``: the values that make sense and
        what the parameter does (every shipped strategy documents every parameter).
    param_choices : parameter name -> ``{word: value}``: words a parameter also accepts
        on the command line, e.g. a search player's ``rollout=greedy`` for the code of
        the strategy its playouts use; the label shows the word back.
    param_bounds : parameter name -> ``(lowest, highest)``: values outside are refused
        when the command line gives them (a search player's budget of 0, say); ``inf``
        as highest for a range without one ("0 and up"). Every range ``param_docs``
        states is enforced here (tests/test_cli.py checks the shipped strategies).
    param_whole : parameters that count something (a budget, a width): the command line
        must give them whole numbers. A parameter with words (``param_choices``) takes a
        word or a whole number too.
    """

    game: str
    name: str
    description: str
    decisions: Mapping[str, Callable] = field(repr=False)
    params: tuple[tuple[str, float], ...] = ()
    code: int | None = None
    param_docs: Mapping[str, tuple[str, str]] = field(default_factory=dict, repr=False)
    param_choices: Mapping[str, Mapping[str, float]] = field(default_factory=dict, repr=False)
    param_bounds: Mapping[str, tuple[float, float]] = field(default_factory=dict, repr=False)
    param_whole: frozenset[str] = field(default_factory=frozenset, repr=False)

    def __post_init__(self) -> None:
        if len(self.params) > MAX_PARAMS:
            raise BalanceError(f"strategy {self.name!r}: at most {MAX_PARAMS} parameters")
        names = {name for name, _ in self.params}
        unknown = sorted(set(self.param_docs) - names)
        if unknown:
            raise BalanceError(
                f"strategy {self.name!r}: documents parameters it does not take: "
                + ", ".join(unknown)
            )
        unknown = sorted(
            (set(self.param_choices) | set(self.param_bounds) | set(self.param_whole)) - names
        )
        if unknown:
            raise BalanceError(
                f"strategy {self.name!r}: names values of parameters it does not take: "
                + ", ".join(unknown)
            )


def param_lines(strategy: Strategy | ListedStrategy) -> list[str]:
    """One line per parameter: ``name = default  (range)  meaning``, as ``balance
    strategies`` shows it; a parameter without documentation shows its default alone."""
    lines = []
    for name, default in strategy.params:
        allowed, meaning = strategy.param_docs.get(name, ("", ""))
        words = getattr(strategy, "param_choices", {}).get(name, {})
        said = next((w for w, v in words.items() if v == default), _number(default))
        line = f"{name} = {said}"
        if allowed:
            line += f"  ({allowed})"
        if meaning:
            line += f"  {meaning}"
        lines.append(line)
    return lines


@dataclass(frozen=True)
class SeatStrategy:
    """A strategy with its parameter values, as one seat plays it."""

    strategy: Strategy
    values: tuple[float, ...]
    source: str = ""  # the file it came from, for a user's strategy

    @property
    def label(self) -> str:
        """Name with any parameter that differs from its default, e.g. ``weighted(leader=2)``."""
        changed = [
            f"{name}={_word(self.strategy, name, value)}"
            for (name, default), value in zip(self.strategy.params, self.values, strict=True)
            if value != default
        ]
        return self.strategy.name + (f"({','.join(changed)})" if changed else "")

    def vector(self) -> np.ndarray:
        """Parameter values as float64, shape ``(MAX_PARAMS,)``, zero-padded."""
        out = np.zeros(MAX_PARAMS, dtype=np.float64)
        out[: len(self.values)] = self.values
        return out


def _number(value: float) -> str:
    return f"{value:g}"


def _bounds_text(low: float, high: float) -> str:
    """``from 1 to 65536``, ``0 or more`` (no highest) or ``10 or less`` (no lowest)."""
    if high == np.inf:
        return f"{_number(low)} or more"
    if low == -np.inf:
        return f"{_number(high)} or less"
    return f"from {_number(low)} to {_number(high)}"


def _word(strategy: Strategy, name: str, value: float) -> str:
    """A parameter's value as the command line spells it: its word if it has one."""
    for word, number in strategy.param_choices.get(name, {}).items():
        if number == value:
            return word
    return _number(value)


def parse_strategy(text: str, shipped: Mapping[str, Strategy], game: str) -> SeatStrategy:
    """Read a ``--strategy`` value: ``NAME``, ``NAME:k=v,...``, ``FILE.py:NAME[:k=v,...]``."""
    text = text.strip()
    match = re.fullmatch(r"(?P<file>.+?\.py):(?P<name>[A-Za-z_]\w*)(?::(?P<params>.*))?", text)
    if match:
        strategy = load_strategy_file(Path(match["file"]), match["name"], game)
        params, source = match["params"], str(Path(match["file"]).resolve())
    else:
        name, _, params = text.partition(":")
        if name not in shipped:
            raise BalanceError(
                f"unknown strategy {name!r} for {game}; strategies: {', '.join(shipped)}"
                " (or path/to/file.py:name)"
            )
        strategy, source = shipped[name], ""
    return SeatStrategy(strategy, _parse_params(strategy, params or ""), source)


def _parse_params(strategy: Strategy, text: str) -> tuple[float, ...]:
    values = dict(strategy.params)
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or key not in values:
            known = ", ".join(values) or "none"
            raise BalanceError(
                f"strategy {strategy.name!r}: bad parameter {part!r}; parameters: {known}"
            )
        choices = strategy.param_choices.get(key, {})
        if raw.strip() in choices:
            values[key] = float(choices[raw.strip()])
            continue
        try:
            values[key] = float(raw)
        except ValueError:
            words = f" or one of {', '.join(choices)}" if choices else ""
            raise BalanceError(
                f"strategy {strategy.name!r}: parameter {key!r} needs a number{words}, not {raw!r}"
            ) from None
        if not np.isfinite(values[key]):
            raise BalanceError(f"strategy {strategy.name!r}: parameter {key!r} must be finite")
        if (key in strategy.param_whole or choices) and not values[key].is_integer():
            words = f" or one of {', '.join(choices)}" if choices else ""
            raise BalanceError(
                f"strategy {strategy.name!r}: parameter {key!r} needs a whole number{words}, "
                f"not {raw.strip()}"
            )
        if key in strategy.param_bounds:
            low, high = strategy.param_bounds[key]
            if not low <= values[key] <= high:
                raise BalanceError(
                    f"strategy {strategy.name!r}: parameter {key!r} must be "
                    f"{_bounds_text(low, high)}, not {raw.strip()}"
                )
    return tuple(values[name] for name, _ in strategy.params)


@dataclass(frozen=True)
class Origin:
    """Where a user's strategy came from.

    Attributes
    ----------
    path : the strategy file, resolved.
    digest : sha256 (hex) of the file's bytes when it was loaded.
    module : the name it was imported under (``balance_user_<hash[:16]>``, of its path
        and :attr:`code`): the same for the same file and code in every process, so that
        numba's on-disk cache of a function (``@njit(cache=True)``, and the functions
        the game loop calls) finds its module again.
    code : :func:`code_digest` of the file: what names its compiled functions on disk.
    """

    path: Path
    digest: str
    module: str
    code: str


def code_digest(source: bytes) -> str:
    """sha256 (hex) of a Python file's code: its syntax tree without docstrings, so that
    an edit of a comment, a docstring or the layout leaves it as it was."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]  # a docstring alone leaves a body
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


#: The file each strategy loaded by :func:`load_strategy_file` came from, by identity.
_ORIGINS: weakref.WeakKeyDictionary[Strategy, Origin] = weakref.WeakKeyDictionary()


def strategy_origin(strategy: Strategy) -> Origin | None:
    """The file a user's strategy was loaded from; None for one built in Python."""
    return _ORIGINS.get(strategy)


def check_strategy(
    strategy: Strategy,
    game: str,
    decisions: Sequence[str],
    required: Sequence[str],
    compiled: bool = True,
) -> None:
    """A user's strategy gives functions for the ``required`` decisions, and no decision
    the game does not know; ``@njit`` functions where the game has a compiled engine
    (``compiled``), any function where it plays on its reference engine alone."""
    for decision in required:
        if not callable(strategy.decisions.get(decision)):
            raise BalanceError(f"strategy {strategy.name!r} gives no {decision!r} function")
    for decision, function in strategy.decisions.items():
        if decision not in decisions:
            raise BalanceError(
                f"strategy {strategy.name!r}: unknown decision {decision!r}; "
                f"{game} decisions: {', '.join(decisions)}"
            )
        if compiled and not hasattr(function, "py_func"):
            code = getattr(function, "__code__", None)
            where = f" ({code.co_filename}, line {code.co_firstlineno})" if code else ""
            raise BalanceError(
                f"strategy {strategy.name!r}: its {decision!r} function{where} must be "
                "@njit-compiled: put @njit on the line above its def"
            )


def ship(shipped: Sequence[Strategy], joining: Sequence[Strategy], module: str) -> None:
    """Give the strategies a game ships (its ``SHIPPED`` tuple) their codes: the k-th
    plays code k in the dispatchers generated from that tuple (:mod:`balance.core.dispatch`).

    The strategies of ``joining`` (the search players) get no code and must come last:
    they join the game loop only in a run that seats them, as a user's strategy does, so
    that a run without them never compiles them; they are marked as coming from the file
    of ``module`` (the strategies module itself) so that such a loop is cached on disk.
    Codes are given here only: a strategy given another code by hand is refused.
    """
    coded = [s for s in shipped if s not in joining]
    if list(shipped[: len(coded)]) != coded:
        raise BalanceError("shipped strategies: the search players must come last")
    for code, strategy in enumerate(coded):
        if strategy.code not in (None, code):
            raise BalanceError(
                f"strategy {strategy.name!r}: code {strategy.code} given by hand, but it is "
                f"number {code} of the shipped strategies"
            )
        # The one place a shipped strategy's code is set (a Strategy is otherwise frozen).
        object.__setattr__(strategy, "code", code)
    if joining:
        path = Path(sys.modules[module].__file__ or "").resolve()
        content = path.read_bytes()
        digest = hashlib.sha256(content).hexdigest()
        for strategy in joining:
            _ORIGINS[strategy] = Origin(path, digest, module, code_digest(content))


#: Environment variable that turns off the bounds checks of users' strategies ("0"); the
#: command line's ``balance --no-bounds-check`` sets it.
BOUNDS_CHECK_ENV = "BALANCE_BOUNDS_CHECK"


def bounds_checked() -> bool:
    """Whether users' strategy files are compiled with numba's bounds checks (the
    default): an index out of range then stops the run, where unchecked it reads or
    writes memory past the array's end."""
    return os.environ.get(BOUNDS_CHECK_ENV, "1") != "0"


def load_strategy_file(path: Path, name: str, game: str) -> Strategy:
    """Import a user's strategy file and return its :class:`Strategy` called ``name``.

    The file is imported once per process and content, under a module name made from
    its path and code (:func:`code_digest`); a file that fails to import is reported in
    one line naming the file, the line and the reason. Its compiled functions check their indices
    (:func:`bounds_checked`).
    """
    if not path.is_file():
        raise BalanceError(f"strategy file {str(path)!r} does not exist")
    path = path.resolve()
    content = path.read_bytes()
    digest = hashlib.sha256(content).hexdigest()
    try:
        code = code_digest(content)
    except (SyntaxError, ValueError):
        code = digest  # the import says what is wrong
    # Named by its code, not its bytes: numba's cached functions of an unchanged code
    # (a comment edited) find their module again by that name.
    named = hashlib.sha256(str(path).encode() + b"\0" + code.encode()).hexdigest()
    checked = bounds_checked()
    module_name = f"balance_user_{named[:16]}" + ("" if checked else "_unchecked")
    module = sys.modules.get(module_name)
    if module is None or getattr(module, "__balance_digest__", None) != digest:
        module = _import_file(path, module_name)  # again if only comments changed
        module.__balance_digest__ = digest
        if checked:
            _check_bounds(module)
    found = [v for v in vars(module).values() if isinstance(v, Strategy)]
    by_name = {s.name: s for s in found}
    if name in by_name:
        strategy = by_name[name]
    elif isinstance(getattr(module, name, None), Strategy):
        strategy = getattr(module, name)
    else:
        names = ", ".join(sorted(by_name)) or "none"
        raise BalanceError(
            f"strategy file {str(path)!r} has no strategy {name!r} (it has: {names})"
        )
    if strategy.game != game:
        raise BalanceError(f"strategy {name!r} in {str(path)!r} plays {strategy.game}, not {game}")
    _ORIGINS[strategy] = Origin(path, digest, module_name, code)
    return strategy


def _check_bounds(module: ModuleType) -> None:
    """Compile every ``@njit`` function defined in a user's file with numba's bounds
    checks, and its strategies' decisions with them: an index out of range raises
    IndexError, which the runner traces to the game, file and line. Each is its own
    compiled function (never inlined), so the checks cover the user's code only."""
    from numba.core.caching import NullCache  # numba only when a file loads
    from numba.core.dispatcher import Dispatcher

    from balance.core.compile_cache import njit

    checked: dict[int, Dispatcher] = {}
    for name, value in list(vars(module).items()):
        if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
            skip = ("nopython", "inline", "boundscheck")
            options = {k: v for k, v in value.targetoptions.items() if k not in skip}
            cache = not isinstance(value._cache, NullCache)  # @njit(cache=True) kept
            py = value.py_func
            # numba's cache tells functions apart by name, not by their checks: the
            # checked one's own name keeps an unchecked run's cached code out
            copy = FunctionType(
                py.__code__, py.__globals__, py.__name__, py.__defaults__, py.__closure__
            )
            copy.__qualname__ = f"{py.__qualname__}__bounds_checked"
            copy.__module__ = py.__module__
            copy.__doc__ = py.__doc__
            checked[id(value)] = njit(boundscheck=True, cache=cache, **options)(copy)
            # The functions' globals are the module's: calls between them resolve to
            # the checked ones when they compile.
            module.__dict__[name] = checked[id(value)]
    for value in list(vars(module).values()):
        if isinstance(value, Strategy):
            decisions = {d: checked.get(id(f), f) for d, f in value.decisions.items()}
            object.__setattr__(value, "decisions", decisions)


def _import_file(path: Path, module_name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BalanceError(f"strategy file {str(path)!r} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BalanceError:
        del sys.modules[module_name]
        raise
    except SyntaxError as exc:
        del sys.modules[module_name]
        raise BalanceError(
            f"strategy file {path}, line {exc.lineno} failed to load: SyntaxError: {exc.msg}"
        ) from None
    except Exception as exc:  # the user's code: report any failure in one line
        del sys.modules[module_name]
        line = _line_in(exc, path)
        where = f"{path}, line {line}" if line else str(path)
        raise BalanceError(
            f"strategy file {where} failed to load: {type(exc).__name__}: {exc}"
        ) from None
    return module


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The last line of ``path`` in the traceback of ``exc``, if any."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename) == path:
            line = frame.lineno
    return line
