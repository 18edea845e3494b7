"""A user's strategy checked before the game loop compiles, and its failures in plain words.

Before the game loop is compiled with a user's strategy (a minute or so), each of its
decision functions is compiled alone with the argument types the loop will pass
(:func:`decision_types`, read off the reference engine playing a few games), so that a
mistake in it is reported in seconds: the strategy, the decision, the file and line, and
the reason (:func:`check_decisions`). A failure while the loop plays is traced to its
game by playing halves of the block again (:func:`first_failing_game`), and that game is
played again on the reference engine with the strategy as plain Python
(:func:`debug_lineup`) to find the line.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import site
import sys
import sysconfig
import textwrap
import traceback
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import numba
from numba.core import errors as numba_errors
from numba.core import types as nbtypes

from balance.core.dispatch import playable, read_names
from balance.core.errors import BalanceError
from balance.core.game import Lineup, Setup
from balance.core.strategy import SeatStrategy, Strategy, strategy_origin
from balance.games import get_game

#: What a decision that returns a choice must return, in the words of an error.
INDEX_WORDS = "return the index of an option, an integer from 0 to count-1"


@dataclass(frozen=True)
class DecisionType:
    """The argument types a game loop passes to one decision, and what it expects back.

    Attributes
    ----------
    arguments : the numba types of the arguments, in order.
    names : the argument names, as the game's kit documents them.
    returns : True if the decision returns an integer (an option's index), False if it
        writes its answer into an array and returns nothing.
    """

    arguments: tuple[Any, ...]
    names: tuple[str, ...]
    returns: bool


class _Recorder:
    """A decision function that notes the types it is called with."""

    def __init__(self, decision: str, function: Callable, seen: dict[str, Any]) -> None:
        self.decision, self.function, self.seen = decision, function, seen
        self.py_func = getattr(function, "py_func", function)

    def __call__(self, *args: Any) -> Any:
        result = self.function(*args)
        if self.decision not in self.seen:
            self.seen[self.decision] = (tuple(numba.typeof(a) for a in args), result is not None)
        return result


@functools.cache
def decision_types(game_id: str) -> Mapping[str, DecisionType]:
    """Each decision of ``game_id``: the types its functions receive, read off the
    reference engine playing its uniform-random strategy through the compiled-strategy
    bridge (the same packing the compiled loop's arguments have)."""
    game = get_game(game_id)
    random = game.strategies()["random"]
    seen: dict[str, Any] = {}
    recorder = Strategy(
        game=game_id,
        name="random",
        description="",
        decisions={d: _Recorder(d, f, seen) for d, f in random.decisions.items()},
        params=random.params,
    )
    players = max(game.min_players, min(4, game.max_players))
    seat = SeatStrategy(recorder, tuple(v for _, v in random.params))
    lineup = Lineup((seat,) * players)
    rule_sets = [game.default_rules()]
    for variant in game.variants:
        try:
            rule_sets.append(game.make_rules([variant], []))
        except BalanceError:
            continue
    for rules in rule_sets:
        setup = Setup(game_id, players, rules, lineup, 0)
        for index in range(20):
            game.narrate(setup, index, _quiet)
            if len(seen) == len(random.decisions):
                break
    # The game's own arrays read-only, as the loop passes them to a user's functions: the
    # functions compiled here are those the loop calls (tests/test_user_strategy.py).
    if not game.has_compiled_engine:  # nothing read-only to declare: the types as played
        return {
            decision: DecisionType(types, _parameters(random.decisions[decision]), returns)
            for decision, (types, returns) in seen.items()
        }
    declared = {d.name: d for d in game.compiled.dispatch.decisions}
    return {
        decision: DecisionType(
            declared[decision].read_only(types), declared[decision].names, returns
        )
        for decision, (types, returns) in seen.items()
    }


def _parameters(function: Callable) -> tuple[str, ...]:
    """The names of a decision function's parameters (a compiled one's Python's)."""
    return tuple(inspect.signature(getattr(function, "py_func", function)).parameters)


def _quiet(line: str) -> None:
    pass


def check_decisions(strategy: Strategy) -> None:
    """Compile each decision function of a user's ``strategy`` alone, with the types the
    game loop passes, and check what it returns; a one-line :class:`BalanceError` (and a
    second line quoting the source) naming the strategy, decision, file and line, if not.
    """
    expected = decision_types(strategy.game)
    for decision, function in strategy.decisions.items():
        if decision not in expected:
            continue  # a decision the recording games never reached: the loop checks it
        wanted = expected[decision]
        py = function.py_func
        count = len(inspect.signature(py).parameters)
        if count != len(wanted.names):
            raise StrategyError(
                strategy,
                decision,
                py,
                None,
                f"takes {count} arguments; it must take {len(wanted.names)}: "
                f"{', '.join(wanted.names)}",
            )
        function = playable(function)  # a search player's, with its playouts' strategies
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                function.compile(wanted.arguments)
            except Exception as exc:  # numba's typing and lowering errors, in plain words
                # what numba warned of on the way (an unsafe cast into a dict of two
                # types, say) would come above the one-line error: the error says it
                raise compile_error(strategy, decision, py, exc) from None
        for message, category, filename, lineno in dict.fromkeys(  # once each, as before
            (str(w.message), w.category, w.filename, w.lineno) for w in warned
        ):
            warnings.warn_explicit(message, category, filename, lineno)
        compiled = function.overloads[wanted.arguments]
        result = compiled.signature.return_type
        if not wanted.returns:
            continue
        # each return as written: numba unifies a bool or a float on one path with the
        # integers of the others, which the loop would only find playing
        for line, kind in _returns(compiled):
            if not isinstance(kind, nbtypes.Integer) or isinstance(kind, nbtypes.Boolean):
                what = _kind(kind) + (
                    " on a path through this line" if kind == nbtypes.none else ""
                )
                raise StrategyError(strategy, decision, py, line, f"returns {what}; {INDEX_WORDS}")
        if not isinstance(result, nbtypes.Integer):
            raise StrategyError(
                strategy,
                decision,
                py,
                _lines(py).get("return"),
                f"returns {_kind(result)}; {INDEX_WORDS}",
            )


def _returns(compiled: Any) -> list[tuple[int, Any]]:
    """``(line, type)`` of each ``return`` of a compiled function, the type its value
    had before numba unified the returns, in the order of the lines (none for a function
    loaded from numba's cache, checked when it was compiled)."""
    from numba.core import ir

    annotation = compiled.type_annotation
    found: list[tuple[int, Any]] = []
    if not hasattr(annotation, "blocks"):  # loaded from numba's cache: checked when compiled
        return found
    for block in annotation.blocks.values():
        returned = block.terminator
        if not isinstance(returned, ir.Return):
            continue
        for statement in block.body:
            value = getattr(statement, "value", None)
            if (
                isinstance(statement, ir.Assign)
                and statement.target.name == returned.value.name
                and isinstance(value, ir.Expr)
                and value.op == "cast"
            ):
                found.append((statement.loc.line, annotation.typemap[value.value.name]))
    return sorted(found, key=lambda item: item[0])


def _kind(result: Any) -> str:
    if isinstance(result, nbtypes.Float):
        return "a float"
    if isinstance(result, nbtypes.Boolean):
        return "True or False"
    if result == nbtypes.none:
        return "nothing (None)"
    if isinstance(result, nbtypes.Optional):
        return "nothing (None) on some path"
    return f"a {result}"


class StrategyError(BalanceError):
    """A user's strategy failed: its name, decision, file and line, and why."""

    def __init__(
        self,
        strategy: Strategy,
        decision: str,
        py_func: Callable | None,
        line: int | None,
        reason: str,
    ) -> None:
        path, first = None, None
        if py_func is not None:
            path, first = py_func.__code__.co_filename, _lines(py_func).get("def")
        else:
            origin = strategy_origin(strategy)
            path = str(origin.path) if origin else None
        line = line or first
        name = getattr(py_func, "__name__", decision)
        where = f" ({path}, line {line})" if path and line else f" ({path})" if path else ""
        text = f"strategy {strategy.name!r}, decision {decision!r}: {name}{where} {reason}"
        quoted = _source_line(path, line)
        if quoted:
            text += f"\n    {quoted}"
        super().__init__(text)


def _source_line(path: str | None, line: int | None) -> str:
    if not path or not line:
        return ""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _lines(py_func: Callable) -> dict[str, int]:
    """Line numbers in ``py_func``'s file: ``def`` (its ``def`` line), ``return`` (its
    first ``return`` with a value), ``name:X`` (the first line that uses name X) and
    ``call:X`` (the first that calls a function named X)."""
    try:
        source, start = inspect.getsourcelines(py_func)
        tree = ast.parse(textwrap.dedent("".join(source)))
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", None)
        if line is None:
            continue
        line += start - 1
        if isinstance(node, ast.FunctionDef) and "def" not in found:
            found["def"] = line
        elif isinstance(node, ast.Return) and node.value is not None:
            found["return"] = min(found.get("return", line), line)
        elif isinstance(node, ast.Name):
            key = f"name:{node.id}"
            found[key] = min(found.get(key, line), line)
        if isinstance(node, ast.Call):
            called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            key = f"call:{called}"
            found[key] = min(found.get(key, line), line)
    return found


#: Where numba places a failure, innermost first: ``File "path", line N`` (the path
#: relative to the working directory), ``... at path (N)`` and ``Raised from path (N)``;
#: or, where it lost the line of a name not defined, the compiled function it was typing.
_PLACE = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+)'
    r'|(?: at|Raised from) (?P<at>[^"\n]+?) \((?P<at_line>\d+)\)$'
    r"|resolving callee type: type\(CPUDispatcher\(<function (?P<callee>[\w.<>]+) at ",
    re.MULTILINE,
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_UNTYPED = re.compile(r"(?:Untyped global name|NameError: name) '(?P<name>\w+)'")
_MODULE_ATTRIBUTE = re.compile(
    r"Unknown attribute '(?P<fn>\w+)' of type Module\(<module '(?P<m>[\w.]+)'"
)

#: A call into a Python library, in the words of an error (``{m}.{fn}``, the function).
LIBRARY_WORDS = (
    "calls {m}.{fn}, from a Python library compiled code cannot call: use numpy's "
    "functions on arrays, or write it as a loop"
)


def compile_error(
    strategy: Strategy, decision: str, py_func: Callable, exc: BaseException
) -> StrategyError:
    """numba's error compiling ``py_func`` as one :class:`StrategyError`, at the line
    that is wrong: in the decision or in the helper it calls (directly or through others)
    where numba failed, or the ``def`` of a helper that lacks ``@njit``."""
    text = _ANSI.sub("", str(exc))
    name = _UNTYPED.search(text)
    undefined = name["name"] if name else None
    functions = _called_functions(py_func)
    found = _failing_place(text, functions, undefined)
    if found is None and _READ_ONLY.search(text):  # in a function the user's code calls
        found = _writing_call(text, functions)
    where, line = found or (py_func, None)
    called = _plain_function(text, where)
    reason = plain_reason(text)
    if called is not None:
        if _is_users(called.__code__.co_filename):
            # numba stops at the call; what is wrong is the helper's missing decorator
            at = f" at line {line}" if line else ""
            return StrategyError(
                strategy,
                decision,
                called,
                None,
                f"has no @njit: put @njit on the line above its def; {where.__name__} calls "
                f"it{at}, and compiled code can call only compiled functions",
            )
        reason = LIBRARY_WORDS.format(m=called.__module__, fn=called.__name__)
    if line is None and undefined:
        line = _lines(where).get(f"name:{undefined}")
    return StrategyError(strategy, decision, where, line, f"does not compile: {reason}")


def _called_functions(py_func: Callable) -> list[FunctionType]:
    """``py_func`` and the functions of users' files it calls, directly or through
    others: the names in their code, looked up in their globals (a compiled function by
    its Python function) and in the users' modules found there."""
    found: dict[Any, FunctionType] = {}
    todo = [py_func]
    while todo:
        function = todo.pop()
        if function.__code__ in found:
            continue
        found[function.__code__] = function
        names = read_names(function.__code__)
        for name in names:
            value = function.__globals__.get(name)
            values = [value]
            if isinstance(value, ModuleType) and _is_users(getattr(value, "__file__", None)):
                values = [getattr(value, attribute, None) for attribute in names]
            for called in values:
                called = getattr(called, "py_func", called)
                if isinstance(called, FunctionType) and _is_users(called.__code__.co_filename):
                    todo.append(called)
    return list(found.values())


@functools.cache
def _library_roots() -> tuple[Path, ...]:
    """The folders of Python's own library, of installed packages and of balance."""
    paths = sysconfig.get_paths()
    roots = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    roots += [*getattr(site, "getsitepackages", list)(), site.getusersitepackages()]
    roots.append(str(Path(__file__).resolve().parents[1]))  # balance/, its kits
    return tuple(Path(root).resolve() for root in roots if root)


def _is_users(filename: str | None) -> bool:
    """Whether ``filename`` is a user's file: not Python's, an installed package's or
    balance's."""
    if not filename or not Path(filename).is_absolute():
        return False
    path = Path(filename).resolve()
    return not any(path.is_relative_to(root) for root in _library_roots())


def _failing_place(
    text: str, functions: list[FunctionType], name: str | None
) -> tuple[FunctionType, int] | None:
    """The innermost place numba's ``text`` names in one of ``functions``: that
    function (the innermost, if defined in another) and the line; or the first function
    it was typing that uses ``name``, the name it could not type, and that line."""
    spans = []
    for function in functions:
        try:
            source, first = inspect.getsourcelines(function)
        except (OSError, TypeError):
            continue
        path = Path(function.__code__.co_filename).resolve()
        spans.append((path, first, first + len(source) - 1, function))
    for match in _PLACE.finditer(text):
        if match["callee"]:
            for function in functions:
                used = _lines(function).get(f"name:{name}") if name else None
                if used and function.__qualname__ == match["callee"]:
                    return function, used
            continue
        path = Path(match["file"] or match["at"]).resolve()
        line = int(match["line"] or match["at_line"])
        inside = [span for span in spans if span[0] == path and span[1] <= line <= span[2]]
        if inside:
            return min(inside, key=lambda span: span[2] - span[1])[3], line
    return None


def _plain_function(text: str, where: FunctionType) -> FunctionType | None:
    """The Python function, not compiled, that numba's ``text`` says ``where`` calls."""
    value = None
    if name := _UNTYPED.search(text):
        value = where.__globals__.get(name["name"])
    elif attribute := _MODULE_ATTRIBUTE.search(text):
        value = getattr(sys.modules.get(attribute["m"]), attribute["fn"], None)
    return value if isinstance(value, FunctionType) else None


#: numba refusing a write into a read-only array (the game's own, docs/strategies.md).
_READ_ONLY = re.compile(r"Cannot modify readonly array|setitem\(readonly array")
#: A function's ``def`` line in numba's quotation of its source.
_DEF = re.compile(r"^def (?P<name>\w+)\(", re.MULTILINE)


def _writing_call(text: str, functions: list[FunctionType]) -> tuple[FunctionType, int] | None:
    """Where one of ``functions`` calls the function (a kit's, say) that numba's
    ``text`` says wrote into a read-only array, directly or through the functions it
    calls: the first such call."""
    written = [match["name"] for match in _DEF.finditer(text)]
    for function in functions:
        calls = sorted(
            (line, key[5:]) for key, line in _lines(function).items() if key.startswith("call:")
        )
        for line, name in calls:
            if _reaches(function.__globals__.get(name), written, set()):
                return function, line
    return None


def _reaches(value: Any, names: list[str], seen: set[int]) -> bool:
    """Whether compiled function ``value`` is named one of ``names`` or calls one, through
    the compiled functions its globals name."""
    py = getattr(value, "py_func", None)
    if py is None or id(py) in seen:
        return False
    seen.add(id(py))
    if py.__name__ in names:
        return True
    return any(_reaches(py.__globals__.get(n), names, seen) for n in read_names(py.__code__))


#: numba's commonest refusals, each with what to use instead (``{names}`` from the match):
#: in its message, then in the arguments of a call it found no implementation for
#: (followed by the rest of the message: what numba was doing).
_REFUSED = (
    (_MODULE_ATTRIBUTE, LIBRARY_WORDS),
    (
        re.compile(
            r"reflected (?P<kind>list|set)\(.* type, assigned to variable '(?P<name>\w+)' "
            r"in globals"
        ),
        "reads {name}, a Python {kind} outside the function, which compiled code cannot "
        "read: make it a tuple, {name} = (...), or a numpy array, np.array([...])",
    ),
    (
        re.compile(r"unsupported opcode \(IMPORT_"),
        "imports inside a compiled function: move the import to the top of the file",
    ),
    (
        re.compile(r"BoundFunction\(list\.append for list\((?P<kind>[^)]+)\)"),
        "adds to a list of {kind} an item of another type: a list holds one type; keep a "
        "list (or a numpy array) for each, or a tuple",
    ),
)
_REFUSED_CALLS = (
    (
        re.compile(r"setitem\(readonly array"),
        "writes into one of the game's own arrays, which a strategy may only read: copy "
        "it into a scratch buffer first (docs/strategies.md names them, game by game)",
    ),
    (
        # a dict literal: numba types it by its first key and value, then adds the rest
        re.compile(r'setitem\(DictType\[.*During: lowering "[^"\n]*= build_map\(', re.DOTALL),
        "builds a dict whose keys or values are of two types: a dict has one type of key "
        "and one type of value; use one type for each, or numpy arrays",
    ),
    (
        re.compile(r"setitem\(DictType\[(?P<key>[^,\]]+),\s*(?P<value>[^\]]+)\]"),
        "stores in a dict of {key} keys and {value} values a key or a value of another "
        "type: a dict's keys have one type, its values one type",
    ),
    (
        re.compile(r"(?P<fn>\w+)\(list\("),
        "calls {fn} on a list: make it a numpy array first (np.array)",
    ),
)


def plain_reason(text: str) -> str:
    """The reason in a numba error, in one line of plain words."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    skip = ("Failed in ", "During:", "File ", "Enable logging", "This error may")
    useful = [ln for ln in lines if not ln.startswith(skip) and not ln.startswith("^")]
    if not useful:
        return text.strip().splitlines()[0] if text.strip() else "unknown error"
    first = useful[0]
    name = re.search(r"(?:Untyped global name|NameError: name) '(?P<name>\w+)'", first)
    if name:
        if "Cannot determine Numba type" in first and "NoneType" not in first:
            what = re.search(r"type of <class '(?P<cls>[^']+)'>", first)
            kind = what["cls"] if what else "Python object"
            if kind == "dict":
                return (
                    f"reads {name['name']}, a Python dict outside the function, which compiled "
                    "code cannot read: use a tuple, or numpy arrays indexed by number"
                )
            return f"uses {name['name']!r}, a {kind} that compiled code cannot use"
        return f"uses the name {name['name']!r}, which is not defined"
    for pattern, instead in _REFUSED:
        found = pattern.search(first)
        if found:
            return instead.format(**found.groupdict())
    call = re.search(r"No implementation of function (?P<fn>.+?) found for signature", first)
    if call:
        sig = next((ln.lstrip("> ") for ln in useful[1:] if ln.startswith(">>>")), "")
        for pattern, instead in _REFUSED_CALLS:
            found = pattern.match(f"{sig}\n{text}")
            if found:
                return instead.format(**found.groupdict())
        return f"compiled code cannot call {call['fn']} with these arguments: {sig}".rstrip(": ")
    return re.sub(r"^(TypingError|NumbaError|LoweringError|UnsupportedError):\s*", "", first)


def first_failing_game(play: Callable[[int, int], Any], start: int, size: int) -> int:
    """The first game of ``start .. start + size - 1`` whose play raises, found by playing
    halves of the block again (each game depends only on its index)."""
    low, high = start, start + size  # the failure is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        try:
            play(low, middle - low)
        except BalanceError:
            raise
        except Exception:
            high = middle
        else:
            low = middle
    return low


def debug_strategy(strategy: Strategy) -> Strategy:
    """``strategy`` with each decision as plain Python (its ``py_func``), checked: an
    answer that is not an integer stops the game with a :class:`StrategyError`."""
    if strategy.code is not None:
        return strategy
    plain = {
        # A search player's searches in compiled code (its playouts ask the game's
        # shipped strategies): it stays compiled.
        d: bound
        if (bound := playable(f)) is not f
        else _Plain(strategy, d, getattr(f, "py_func", f))
        for d, f in strategy.decisions.items()
    }
    return replace(strategy, decisions=plain)


class _Plain:
    """A decision function called as Python, with its answer checked."""

    def __init__(self, strategy: Strategy, decision: str, py_func: Callable) -> None:
        self.strategy, self.decision, self.py_func = strategy, decision, py_func
        expected = decision_types(strategy.game).get(decision)
        self.returns = expected.returns if expected else None

    def __call__(self, *args: Any) -> Any:
        result = self.py_func(*args)
        if self.returns and (isinstance(result, bool) or not _is_integer(result)):
            kind = "a float" if isinstance(result, float) else f"{type(result).__name__}"
            if result is None:
                kind = "nothing (None)"
            raise StrategyError(
                self.strategy,
                self.decision,
                self.py_func,
                _lines(self.py_func).get("return"),
                f"returned {kind}; {INDEX_WORDS}",
            )
        return result


def _is_integer(value: Any) -> bool:
    import numpy as np

    return isinstance(value, int | np.integer)


def debug_lineup(lineup: Lineup) -> Lineup:
    """``lineup`` with every user strategy's decisions as plain Python."""
    users = {s: debug_strategy(s) for s in lineup.user_strategies()}
    seats = tuple(
        replace(seat, strategy=users.get(seat.strategy, seat.strategy)) for seat in lineup.seats
    )
    return replace(lineup, seats=seats)


def runtime_error(setup: Setup, game_index: int, exc: BaseException) -> BalanceError:
    """A failure of a user's strategy in game ``game_index``, replayed on the reference
    engine with the strategies as Python to name the decision, file and line."""
    game = get_game(setup.game)
    debug = replace(setup, lineup=debug_lineup(setup.lineup))
    try:
        game.narrate(debug, game_index, _quiet)
    except StrategyError as error:
        return BalanceError(f"{error} (game {game_index})")
    except Exception as error:  # the user's code, as Python: find its frame
        found = debug_error(setup, game_index, error)
        if found is not None:
            return found
    return BalanceError(
        f"a strategy failed in game {game_index}: {type(exc).__name__}: {exc} "
        "(run with --debug to see where)"
    )


def debug_error(setup: Setup, game_index: int, exc: BaseException) -> BalanceError | None:
    """An exception of a user's code played as Python (``--debug``) as one line naming
    the decision, file, line and game; None if no user's frame raised it."""
    found = _user_frame(exc, setup.lineup)
    if found is None:
        return None
    strategy, decision, py_func, line = found
    return StrategyError(
        strategy,
        decision,
        py_func,
        line,
        f"failed in game {game_index}: {type(exc).__name__}: {exc}",
    )


def _user_frame(error: BaseException, lineup: Lineup) -> tuple | None:
    """The innermost frame of ``error``'s traceback in a user's decision function."""
    functions = {}
    for strategy in lineup.user_strategies():
        for decision, function in strategy.decisions.items():
            functions[function.py_func.__code__] = (strategy, decision, function.py_func)
    found = None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code in functions:
            found = (*functions[code], tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        # A helper of the user's file: the innermost frame in a user's file.
        files = {c.co_filename: v for c, v in functions.items()}
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename in files:
                found = (*files[frame.filename], frame.lineno)
    return found


def is_numba_error(exc: BaseException) -> bool:
    """Whether ``exc`` is numba failing to compile (rather than code failing as it runs)."""
    return isinstance(exc, numba_errors.NumbaError)
