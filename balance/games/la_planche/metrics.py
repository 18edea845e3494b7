"""La Planche's own figures: pure functions from the ``games`` and ``actions`` tables.

The ``games`` table has one row a game with ``last_colour`` (the colour of the last
prisoner on the plank; null when the game is unfinished); the ``actions`` table has one
row a game, seat and action (swap, advance, move, nothing, push) with ``done``,
``fell_own`` and ``fell_other`` (prisoners of the seat's own and of other colours the
action made fall), as :meth:`LaPlanche.tables` writes them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.stats import mean_interval, ratio_interval, wilson_interval


def last_colour_rates(games: pd.DataFrame, colours: list[str]) -> pd.DataFrame:
    """Share of all games in which each colour is the last prisoner on the plank.

    Returns
    -------
    DataFrame, one row a colour in the order given: ``colour``, ``games``, ``last``
    (games it was last), ``rate``, ``low``, ``high`` (Wilson).
    """
    last = games["last_colour"].astype(object)
    total = len(games)
    rows = []
    for colour in colours:
        hits = int((last == colour).sum())
        low, high = wilson_interval(hits, total)
        rate = hits / total if total else float("nan")
        rows.append(
            {
                "colour": colour,
                "games": total,
                "last": hits,
                "rate": rate,
                "low": float(low),
                "high": float(high),
            }
        )
    return pd.DataFrame(rows)


def action_usefulness(actions: pd.DataFrame) -> pd.DataFrame:
    """Per action: uses per game (all seats) and prisoners fallen per use.

    Uses per game get a Student-t interval over games; prisoners of the user's own and
    of other colours fallen per use are ratios of sums over games (delta-method
    intervals, games as clusters).

    Returns
    -------
    DataFrame, one row an action in the table's order: ``action``, ``games``,
    ``per_game`` and ``fell_own_per_use``, ``fell_other_per_use``, each with
    ``_low``/``_high``.
    """
    names = (
        list(actions["action"].cat.categories)
        if isinstance(actions["action"].dtype, pd.CategoricalDtype)
        else list(pd.unique(actions["action"]))
    )
    games = actions["game"].nunique()
    rows = []
    for name in names:
        here = actions[actions["action"] == name]
        per_game = here.groupby("game")[["done", "fell_own", "fell_other"]].sum()
        done = per_game["done"].to_numpy() if len(per_game) else np.zeros(0)
        row: dict[str, object] = {"action": name, "games": games}
        for label, estimate in (
            ("per_game", mean_interval(done)),
            ("fell_own_per_use", ratio_interval(per_game["fell_own"], done)),
            ("fell_other_per_use", ratio_interval(per_game["fell_other"], done)),
        ):
            row[label], row[f"{label}_low"], row[f"{label}_high"] = (float(x) for x in estimate)
        rows.append(row)
    return pd.DataFrame(rows)
