"""Walk the Plank's card usefulness: pure functions from the ``cards`` and ``seats`` tables.

The ``cards`` table has one row a game, seat and card: ``revealed``, ``effect`` (reveals
with an effect), ``killed_own``, ``killed_others`` (pirates sent to the Locker) and
``saved`` (pirates moved toward the ship), as :meth:`WalkThePlank.tables` writes it.
"""

from __future__ import annotations

import pandas as pd

from balance.stats.intervals import mean_interval, ratio_interval, share_interval, wilson_interval

#: Per-reveal figures: column of the ``cards`` table → name in the usefulness table.
PER_REVEAL = {
    "effect": "effect_share",
    "killed_others": "others_sent_off_per_reveal",
    "killed_own": "own_sent_off_per_reveal",
    "saved": "saved_per_reveal",
}


def card_usefulness(cards: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per card: how often it is revealed, what it does, and how its users fare.

    Reveals per game are summed over seats, with a Student-t interval over games. The
    per-reveal figures are ratios of sums over games (delta-method intervals, games as
    clusters); the effect share, a share of reveals, has Wilson's interval at the effective
    number of reveals (:func:`balance.stats.intervals.share_interval`), within 0 and 1. The two win
    rates compare the seats that revealed the card with an effect at least once in a game
    against the seats that did not (Wilson intervals over seat-games).

    Parameters
    ----------
    cards : one row a game, seat and card (see the module docstring).
    seats : one row a game and seat, with ``won``.

    Returns
    -------
    DataFrame, one row a card in the table's card order: ``card``, ``games``,
    ``reveals_per_game`` with ``_low``/``_high``, each :data:`PER_REVEAL` figure with
    ``_low``/``_high``, and ``win_rate_with_effect``/``win_rate_without`` with
    ``_low``/``_high`` and their seat-game counts ``seats_with_effect``/``seats_without``.
    """
    won = seats.set_index(["game", "seat"])["won"]
    names = (
        list(cards["card"].cat.categories)
        if isinstance(cards["card"].dtype, pd.CategoricalDtype)
        else list(pd.unique(cards["card"]))
    )
    rows = []
    for name in names:
        here = cards[cards["card"] == name]
        per_game = here.groupby("game")[["revealed", *PER_REVEAL]].sum()
        row: dict[str, object] = {"card": name, "games": len(per_game)}
        _put(row, "reveals_per_game", mean_interval(per_game["revealed"].to_numpy(), floor=0.0))
        for column, label in PER_REVEAL.items():
            # The effect share is a share of reveals (within 0 and 1); the rest count pirates.
            y, x = per_game[column], per_game["revealed"]
            if column == "effect":
                _put(row, label, share_interval(y, x))
            else:
                _put(row, label, ratio_interval(y, x, floor=0.0))
        with_effect = (here.set_index(["game", "seat"])["effect"] > 0).reindex(
            won.index, fill_value=False
        )
        for label, mask in (("with_effect", with_effect), ("without", ~with_effect)):
            trials = int(mask.sum())
            wins = int(won[mask].sum())
            low, high = wilson_interval(wins, trials)
            row[f"win_rate_{label}"] = wins / trials if trials else float("nan")
            row[f"win_rate_{label}_low"] = float(low)
            row[f"win_rate_{label}_high"] = float(high)
            row[f"seats_{label}"] = trials
        rows.append(row)
    return pd.DataFrame(rows)


def _put(row: dict[str, object], name: str, estimate: tuple[float, float, float]) -> None:
    row[name], row[f"{name}_low"], row[f"{name}_high"] = (float(x) for x in estimate)
