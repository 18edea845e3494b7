"""The strategies a game ships, listed without compiling or importing their code.

``balance strategies GAME`` shows each shipped strategy's name, sentence and parameters.
Those are plain literals in the game's strategy module (``strategies/<game>.py``), but
importing the module loads numba and defines its compiled functions, which takes longer
than the listing itself. So the listing reads the module's source: every
``name = Strategy(GAME, "name", "sentence", {...}, params=(...))`` that the
module's ``SHIPPED`` tuple names. A module written any other way is imported instead.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
from typing import Any, NamedTuple


class ListedStrategy(NamedTuple):
    """What ``balance strategies`` shows of one strategy."""

    name: str
    description: str
    params: tuple[tuple[str, float], ...]
    param_docs: dict[str, tuple[str, str]]
    param_choices: dict[str, dict[str, float]]


def listed_strategies(game: Any) -> list[ListedStrategy]:
    """The strategies ``game`` ships, in its ``SHIPPED`` order.

    Read from the source of ``game.strategies_module`` when every strategy there is
    written with literal values; otherwise (or for a game without such a module) taken
    from the imported strategies.
    """
    module = game.strategies_module
    if module is not None:
        listed = _read_source(module)
        if listed is not None:
            return listed
    return [
        ListedStrategy(
            s.name,
            s.description,
            tuple(s.params),
            dict(s.param_docs),
            {k: dict(v) for k, v in s.param_choices.items()},
        )
        for s in game.strategies().values()
    ]


def _read_source(module: str) -> list[ListedStrategy] | None:
    """The shipped strategies of ``module`` read from its source, or None if not literal."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    with open(spec.origin, encoding="utf-8") as source:
        tree = ast.parse(source.read(), spec.origin)
    made: dict[str, ListedStrategy] = {}
    constants: dict[str, Any] = {}  # module-level literals, e.g. shared parameter docs
    shipped: list[str] | None = None
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        with contextlib.suppress(ValueError, TypeError, SyntaxError):
            constants[target.id] = ast.literal_eval(node.value)
        if target.id == "SHIPPED":
            if not isinstance(node.value, ast.Tuple | ast.List):
                return None
            shipped = [item.id for item in node.value.elts if isinstance(item, ast.Name)]
            if len(shipped) != len(node.value.elts):
                return None
        elif (
            isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "Strategy"
        ):
            listed = _literal_strategy(node.value, constants)
            if listed is not None:
                made[target.id] = listed
    if shipped is None or any(name not in made for name in shipped):
        return None
    return [made[name] for name in shipped]


def _literal_value(node: ast.expr, constants: dict[str, Any]) -> Any:
    """A literal, a module-level literal by name, ``dict(NAME)`` of one, or a dict that
    unpacks one."""
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.Dict):  # may unpack another: {**SHARED, "name": (...)}
        out: dict[Any, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                out.update(_literal_value(value, constants))
            else:
                out[ast.literal_eval(key)] = _literal_value(value, constants)
        return out
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "dict"
        and len(node.args) == 1
        and not node.keywords
    ):
        return dict(_literal_value(node.args[0], constants))
    return ast.literal_eval(node)


def _literal_strategy(call: ast.Call, constants: dict[str, Any]) -> ListedStrategy | None:
    """Name, sentence, parameters and their docs of a ``Strategy(...)`` call, if all are
    literals (or module-level literals named in it)."""
    fields = ("game", "name", "description", "decisions")
    given: dict[str, ast.expr] = dict(zip(fields, call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    try:
        name = ast.literal_eval(given["name"])
        description = ast.literal_eval(given["description"])
        params = ast.literal_eval(given["params"]) if "params" in given else ()
        docs = _literal_value(given["param_docs"], constants) if "param_docs" in given else {}
        param_docs = {str(k): (str(v[0]), str(v[1])) for k, v in dict(docs).items()}
    except (KeyError, ValueError, TypeError, SyntaxError, IndexError):
        return None
    if not (isinstance(name, str) and isinstance(description, str)):
        return None
    try:
        params = tuple((str(key), float(value)) for key, value in params)
    except (TypeError, ValueError):
        return None
    try:
        given_choices = given.get("param_choices")
        chosen = _literal_value(given_choices, constants) if given_choices is not None else {}
        choices = {
            str(k): {str(w): float(x) for w, x in dict(v).items()} for k, v in chosen.items()
        }
    except (KeyError, ValueError, TypeError, SyntaxError, AttributeError):
        return None  # words not written as literals: the imported strategies say them
    return ListedStrategy(name, description, params, param_docs, choices)
