"""Modules imported on first use, so that commands that play no game start at once.

``balance games``, ``balance rules GAME`` and ``--help`` need a game's name, variants and
rule parameters, not its compiled engine (numba), nor pandas, scipy or matplotlib. A
module that needs those only inside its functions names them with :class:`LazyModule`;
the import happens the first time one of their attributes is read.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any


class LazyModule:
    """A module imported the first time one of its attributes is read.

    The import goes through :func:`importlib.import_module`, whose module locks make it
    safe when threads reach it together (a thread that arrives while another imports
    waits for the module to finish loading).

    Parameters
    ----------
    name : the module's full name, e.g. ``"balance.games.walk_the_plank.engine"``.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = importlib.import_module(self._name)
            self._module = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r} ({state})>"


# The libraries the game and run modules read records with: ``from balance.core.lazy
# import pd, pa`` gives them lazily, and as the modules themselves to a type checker.
if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
else:
    pd = LazyModule("pandas")
    pa = LazyModule("pyarrow")
