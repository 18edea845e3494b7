"""The Python API: the CLI's runs in a few lines of a notebook, as pandas DataFrames.

>>> from balance import api
>>> run = api.simulate("walk-the-plank", players=4, games=20_000, variants=["kraken"])
>>> run.summary()["seat_win_rate"]          # doctest: +SKIP
>>> run.seats.groupby("seat")["won"].mean()  # doctest: +SKIP

The analyses are here too, by the names of the layers that hold them (imported when first
used, so that ``import balance.api`` stays quick): ``api.compare``, ``api.restricted_play``,
``api.write_report``, ``api.sweep``, ``api.tune``, ``api.tournament``, ``api.run_checks``,
``api.run_games``, ``api.load_run`` and ``api.BalanceError``; every run inside
``with api.on_cluster("tcp://HOST:PORT"):`` plays on that Dask cluster (docs/cluster.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from balance.core.game import Setup
from balance.games import get_game
from balance.run.play import Run, make_setup, simulate

#: The analyses' public functions, by name: the module each is imported from when first used.
_ANALYSES = {
    "compare": "balance.analyses.compare",
    "restricted_play": "balance.analyses.restricted",
    "write_report": "balance.analyses.run_report",
    "sweep": "balance.analyses.sweep",
    "tune": "balance.analyses.tune",
    "tournament": "balance.analyses.tournament",
    "run_checks": "balance.analyses.check",
    "run_games": "balance.run.runner",
    "on_cluster": "balance.run.cluster",
    "load_run": "balance.run.results",
    "BalanceError": "balance.core.errors",
}

__all__ = [
    "Run",
    "add_card_values",
    "card_values",
    "check_card_values",
    "make_setup",
    "simulate",
    *_ANALYSES,
]


def __getattr__(name: str) -> Any:
    if name in _ANALYSES:
        return getattr(importlib.import_module(_ANALYSES[name]), name)
    raise AttributeError(f"module 'balance.api' has no attribute {name!r}")


def check_card_values(game: str) -> None:
    """A one-line error unless restricted play can value ``game``'s cards (La Planche's
    symbols cannot be restricted yet)."""
    from balance.analyses.restricted import check_card_values as check

    check(game)


def card_values(
    setup: Setup,
    games: int,
    cards: Sequence[str] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Each card's value by restricted play, ``games`` paired games a card, as
    ``balance cards --json`` prints it (:func:`balance.analyses.restricted.card_value_json`)."""
    from balance.analyses.restricted import card_value_json, restricted_play

    value = restricted_play(setup, games, cards, threads, progress, on_compile)
    return card_value_json(value)


def add_card_values(
    summary: dict[str, Any],
    setup: Setup,
    games: int,
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> None:
    """Each card's restricted-play value (``games`` paired games a card) in ``summary``'s
    ``card_value`` (as ``balance cards --json`` gives it), in every game that has
    restricted play; Battle of Thieves also puts each card's value in its ``cards``."""
    from balance.analyses.restricted import card_value_json, restricted_play

    check_card_values(setup.game)
    value = restricted_play(setup, games, (), threads, progress, on_compile)
    summary["card_value"] = card_value_json(value)
    game = get_game(setup.game)
    if game.capabilities.decks:
        game.add_card_values(summary, value)
