"""How a game's compiled loop calls the strategies of a run, shipped or a user's own.

Shipped strategies carry an integer code that the game's cached dispatcher knows
(``program_nb(code, ...)`` and so on), so the loop cached on disk serves them. A user's
strategies join through dispatchers generated for the run: a user's code gets
``USER_CODES + i`` and is tried first, the shipped dispatcher after. The functions of the
game's kernel module that call a dispatcher are then recompiled with the new
dispatchers bound in their globals (numba freezes globals at compile time), once per
set of user strategies and process.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from numba import njit

from balance.errors import BalanceError
from balance.games.base import Lineup
from balance.strategy import Strategy


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

    def _build(self, users: Sequence[Strategy]) -> Callable:
        nb = self.module
        namespace: dict[str, object] = {
            f"shipped_{decision}": getattr(nb, f"{decision}_nb") for decision in self.arguments
        }
        source = []
        for decision, args in self.arguments.items():
            lines = [f"def {decision}_dispatch(code, {args}):"]
            for i, strategy in enumerate(users):
                function = strategy.decisions.get(decision, self.fallback.get(decision))
                namespace[f"user{i}_{decision}"] = function
                lines.append(f"    if code == {nb.USER_CODES + i}:")
                lines.append(f"        return user{i}_{decision}({args})")
            lines.append(f"    return shipped_{decision}(code, {args})")
            source.append("\n".join(lines))
        exec("\n\n".join(source), namespace)

        bound = dict(vars(nb))
        for decision in self.arguments:
            bound[f"{decision}_nb"] = njit(inline="always")(namespace[f"{decision}_dispatch"])
        # A user's strategy may allocate, so the loop keeps numba's reference counting.
        for name in self.callers:
            original = getattr(nb, name)
            options = {
                k: v
                for k, v in original.targetoptions.items()
                if k not in ("cache", "_nrt", "nopython")
            }
            function = types.FunctionType(original.py_func.__code__, bound, name)
            bound[name] = njit(**options)(function)
        return bound[self.callers[-1]]
