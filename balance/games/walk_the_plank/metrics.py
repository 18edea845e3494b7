"""Walk the Plank's card usefulness: pure functions from the ``cards`` and ``seats`` tables.

The ``cards`` table has one row a game and card, the seats' records summed: ``revealed``,
``effect`` (reveals with an effect), ``killed_own``, ``killed_others`` (pirates sent to the
Locker) and ``saved`` (pirates moved toward the ship). The ``seats`` table's
``cards_with_effect`` holds, as bits, the cards each seat revealed with an effect at least
once (bit ``c`` for the ``c``-th of the ``cards`` table's cards, in their order), as
:meth:`WalkThePlank.tables` writes them. A run saved before the cards were summed has
one row a game, seat and card instead (a ``seat`` column) and no ``cards_with_effect``:
:func:`per_game_cards` turns it into the same two tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.stats.intervals import mean_interval, ratio_interval, share_interval, wilson_interval

#: Per-reveal figures: column of the ``cards`` table → name in the usefulness table.
PER_REVEAL = {
    "effect": "effect_share",
    "killed_others": "others_sent_off_per_reveal",
    "killed_own": "own_sent_off_per_reveal",
    "saved": "saved_per_reveal",
}
#: The columns of a card's records, summed over the seats in the ``cards`` table.
SUMMED = ("revealed", *PER_REVEAL)


def card_names(cards: pd.DataFrame) -> list[str]:
    """The cards of the ``cards`` table in its order: its categories', else as they come."""
    if isinstance(cards["card"].dtype, pd.CategoricalDtype):
        return list(cards["card"].cat.categories)
    return list(pd.unique(cards["card"]))


def per_game_cards(cards: pd.DataFrame, seats: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``cards`` table a row a game and card and the ``seats`` table with
    ``cards_with_effect``: as they are, or made from a run saved a row a game, seat and
    card (its cards summed over the seats, each seat's effects turned into bits)."""
    if "seat" not in cards.columns:
        return cards, seats
    codes = pd.Categorical(cards["card"], categories=card_names(cards)).codes.astype(np.uint16)
    bits = np.where(cards["effect"].to_numpy() > 0, np.left_shift(np.uint16(1), codes), 0)
    # A seat's rows hold distinct cards: the sum of their bits is their union.
    by_seat = pd.Series(bits).groupby([cards["game"].to_numpy(), cards["seat"].to_numpy()]).sum()
    at = pd.MultiIndex.from_arrays([seats["game"], seats["seat"]])
    bits = by_seat.reindex(at, fill_value=0).to_numpy(dtype=np.uint16)
    summed = cards.groupby(["game", "card"], observed=True)[list(SUMMED)].sum().reset_index()
    return summed, seats.assign(cards_with_effect=bits)


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
    cards : one row a game and card (see the module docstring), or one row a game, seat
        and card (a run saved before the cards were summed over the seats).
    seats : one row a game and seat, with ``won`` and (unless ``cards`` has a row a seat
        and card) ``cards_with_effect``.

    Returns
    -------
    DataFrame, one row a card in the table's card order: ``card``, ``games``,
    ``reveals_per_game`` with ``_low``/``_high``, each :data:`PER_REVEAL` figure with
    ``_low``/``_high``, and ``win_rate_with_effect``/``win_rate_without`` with
    ``_low``/``_high`` and their seat-game counts ``seats_with_effect``/``seats_without``.
    """
    cards, seats = per_game_cards(cards, seats)
    won = seats["won"].to_numpy(dtype=bool)
    effects = seats["cards_with_effect"].to_numpy()
    rows = []
    for c, name in enumerate(card_names(cards)):
        here = cards[cards["card"] == name]
        per_game = here.groupby("game")[list(SUMMED)].sum()
        row: dict[str, object] = {"card": name, "games": len(per_game)}
        _put(row, "reveals_per_game", mean_interval(per_game["revealed"].to_numpy(), floor=0.0))
        for column, label in PER_REVEAL.items():
            # The effect share is a share of reveals (within 0 and 1); the rest count pirates.
            y, x = per_game[column], per_game["revealed"]
            if column == "effect":
                _put(row, label, share_interval(y, x))
            else:
                _put(row, label, ratio_interval(y, x, floor=0.0))
        with_effect = (effects >> c) & 1 == 1
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
