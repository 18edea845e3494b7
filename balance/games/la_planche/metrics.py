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

from balance.stats.intervals import mean_interval, ratio_interval, share_interval, wilson_interval


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
            ("per_game", mean_interval(done, floor=0.0)),
            ("fell_own_per_use", ratio_interval(per_game["fell_own"], done, floor=0.0)),
            ("fell_other_per_use", ratio_interval(per_game["fell_other"], done, floor=0.0)),
        ):
            row[label], row[f"{label}_low"], row[f"{label}_high"] = (float(x) for x in estimate)
        rows.append(row)
    return pd.DataFrame(rows)


def symbol_choice_rates(choices: pd.DataFrame, symbols: list[str]) -> pd.DataFrame:
    """Per strategy and symbol: how often the symbol is chosen when it is a choice.

    A choice is a turn whose two spun symbols differ and both have options: each is then
    ``offered`` once, and one of them is ``chosen``. The share chosen is a share of
    choices clustered in games: Wilson's interval at the effective number of choices
    (:func:`balance.stats.intervals.share_interval`, games as clusters).

    Parameters
    ----------
    choices : one row a game, seat and action: ``game``, ``strategy``, ``action``,
        ``offered``, ``chosen`` (the ``actions`` table with each seat's strategy; rows of a
        seat under restricted play left out by the caller).
    symbols : the symbols to report, in order.

    Returns
    -------
    DataFrame, one row a (strategy, symbol): ``strategy``, ``symbol``, ``games``,
    ``offered`` (choices it was in), ``offered_per_game`` (per seat of the strategy and
    game), ``chosen``, ``rate``, ``low``, ``high``.
    """
    rows = []
    labels = choices["strategy"].astype(str)
    for label in pd.unique(labels):
        mine = choices[(labels == label).to_numpy()]
        plays = len(mine) / max(mine["action"].nunique(), 1)  # (game, seat) pairs
        for symbol in symbols:
            here = mine[mine["action"].astype(str) == symbol]
            per_game = here.groupby("game")[["offered", "chosen"]].sum()
            offered = per_game["offered"].to_numpy()
            chosen = per_game["chosen"].to_numpy()
            rate, low, high = share_interval(chosen, offered)
            rows.append(
                {
                    "strategy": label,
                    "symbol": symbol,
                    "games": len(per_game),
                    "offered": int(offered.sum()),
                    "offered_per_game": float(offered.sum() / plays) if plays else float("nan"),
                    "chosen": int(chosen.sum()),
                    "rate": rate,
                    "low": low,
                    "high": high,
                }
            )
    return pd.DataFrame(rows)


def points_per_game(values: np.ndarray, names: list[str]) -> pd.DataFrame:
    """Mean points per game of each column of ``values`` (float ``(G, k)``), Student t.

    Returns
    -------
    DataFrame, one row a column in the order of ``names``: ``name``, ``games``, ``mean``,
    ``low``, ``high``.
    """
    rows = []
    for k, name in enumerate(names):
        mean, low, high = mean_interval(np.asarray(values[:, k], dtype=float), floor=0.0)
        rows.append(
            {"name": name, "games": int(values.shape[0]), "mean": mean, "low": low, "high": high}
        )
    return pd.DataFrame(rows)
