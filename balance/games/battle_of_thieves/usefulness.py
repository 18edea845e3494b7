"""How useful each card of a deck is: drawn, played, and the games it was played in.

The compiled engine records, per game, seat and distinct card of the seat's deck, the
copies drawn and played and the turns they were held (``cards`` records, int32
``(G, 2, DECK_SIZE, CardStat.SIZE)``). A long run keeps only their sums
(:func:`card_totals`, one ``(2, DECK_SIZE, Total.SIZE)`` array a block), from which
:func:`card_table` gives each card's means and win rates with 95% intervals.

Win rate when played against drawn-and-held compares games in which the deck's player
played at least one copy with games in which it drew one and played none. The two groups
are chosen by the game, not at random (a card played more in winning positions looks
better), so the difference is a description; restricted play (the card replaced by a
blank card, on the same seeds) measures the card's value.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import confint_proportions_2indep

from balance.games.battle_of_thieves.layout import CARD_STAT
from balance.stats import LEVEL, wilson_interval


class Total(NamedTuple):
    """Slots of the per-card sums over the games of a block."""

    GAMES: int = 0
    DRAWN: int = 1
    DRAWN_SQ: int = 2
    PLAYED: int = 3
    PLAYED_SQ: int = 4
    HELD: int = 5
    HELD_SQ: int = 6
    PLAYED_GAMES: int = 7  # games with at least one copy played
    PLAYED_WON: int = 8
    HELD_GAMES: int = 9  # games with a copy drawn and none played
    HELD_WON: int = 10
    SIZE: int = 11


TOTAL = Total()


def card_totals(cards: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Per-card sums over a block of games.

    Parameters
    ----------
    cards : int ``(G, 2, R, CardStat.SIZE)``, the per-card records.
    won : bool ``(G, 2)``.

    Returns
    -------
    float64 ``(2, R, Total.SIZE)``.
    """
    cards = np.asarray(cards, dtype=np.float64)
    won = np.asarray(won, dtype=bool)[:, :, None]
    drawn = cards[..., CARD_STAT.DRAWN]
    played = cards[..., CARD_STAT.PLAYED]
    held = cards[..., CARD_STAT.HELD]
    was_played = played > 0
    was_held = (drawn > 0) & ~was_played
    out = np.zeros((*cards.shape[1:3], TOTAL.SIZE))
    out[..., TOTAL.GAMES] = cards.shape[0]
    out[..., TOTAL.DRAWN] = drawn.sum(0)
    out[..., TOTAL.DRAWN_SQ] = (drawn**2).sum(0)
    out[..., TOTAL.PLAYED] = played.sum(0)
    out[..., TOTAL.PLAYED_SQ] = (played**2).sum(0)
    out[..., TOTAL.HELD] = held.sum(0)
    out[..., TOTAL.HELD_SQ] = (held**2).sum(0)
    out[..., TOTAL.PLAYED_GAMES] = was_played.sum(0)
    out[..., TOTAL.PLAYED_WON] = (was_played & won).sum(0)
    out[..., TOTAL.HELD_GAMES] = was_held.sum(0)
    out[..., TOTAL.HELD_WON] = (was_held & won).sum(0)
    return out


def _mean_from_sums(total: float, squares: float, n: float) -> tuple[float, float, float]:
    """Mean with a Student-t 95% interval from a sum and a sum of squares over n games."""
    if n < 1:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = float(scipy_stats.t.ppf(0.5 + LEVEL / 2, n - 1)) * np.sqrt(variance / n)
    return mean, mean - half, mean + half


def rate_difference(
    wins_a: int, games_a: int, wins_b: int, games_b: int
) -> tuple[float, float, float]:
    """``wins_a / games_a - wins_b / games_b`` with Newcombe's 95% interval (NaN if a group
    is empty)."""
    if games_a == 0 or games_b == 0:
        return float("nan"), float("nan"), float("nan")
    low, high = confint_proportions_2indep(
        wins_a, games_a, wins_b, games_b, method="newcomb", compare="diff", alpha=1 - LEVEL
    )
    return wins_a / games_a - wins_b / games_b, float(low), float(high)


def card_figures(t: np.ndarray) -> dict[str, Any]:
    """A card's figures from its sums ``t`` (``(Total.SIZE,)``), with 95% intervals as
    ``NAME_low`` and ``NAME_high``."""
    n = t[TOTAL.GAMES]
    row: dict[str, Any] = {"games": int(n)}
    for name, total, squares in (
        ("drawn_per_game", TOTAL.DRAWN, TOTAL.DRAWN_SQ),
        ("played_per_game", TOTAL.PLAYED, TOTAL.PLAYED_SQ),
        ("held_turns_per_game", TOTAL.HELD, TOTAL.HELD_SQ),
    ):
        mean, low, high = _mean_from_sums(t[total], t[squares], n)
        row[name], row[f"{name}_low"], row[f"{name}_high"] = mean, low, high
    for name, games, wins in (
        ("played", TOTAL.PLAYED_GAMES, TOTAL.PLAYED_WON),
        ("held", TOTAL.HELD_GAMES, TOTAL.HELD_WON),
    ):
        g, w = int(t[games]), int(t[wins])
        low, high = wilson_interval(w, g)
        row[f"{name}_games"] = g
        row[f"{name}_won"] = w
        row[f"win_rate_{name}"] = w / g if g else float("nan")
        row[f"win_rate_{name}_low"] = float(low)
        row[f"win_rate_{name}_high"] = float(high)
    diff, low, high = rate_difference(
        int(t[TOTAL.PLAYED_WON]),
        int(t[TOTAL.PLAYED_GAMES]),
        int(t[TOTAL.HELD_WON]),
        int(t[TOTAL.HELD_GAMES]),
    )
    row["played_minus_held"] = diff
    row["played_minus_held_low"] = low
    row["played_minus_held_high"] = high
    return row


def card_table(
    totals: np.ndarray, deck_cards: np.ndarray, names: tuple[str, ...], decks: tuple[str, str]
) -> pd.DataFrame:
    """One row for each distinct card of each seat's deck, with 95% intervals.

    Parameters
    ----------
    totals : ``(2, R, Total.SIZE)``, sums of :func:`card_totals` over the run's blocks.
    deck_cards : int ``(2, R)``, the card id of each row (-1 past the deck's cards).
    names : card names by id; decks : the decks' names.

    Returns
    -------
    DataFrame: ``seat``, ``deck``, ``card``, then :func:`card_figures`: ``games``,
    ``drawn_per_game`` (``_low``, ``_high``), ``played_per_game`` (...),
    ``held_turns_per_game`` (...), ``played_games``, ``played_won``, ``win_rate_played``
    (...), ``held_games``, ``held_won``, ``win_rate_held`` (...), ``played_minus_held``
    (...).
    """
    rows = []
    for seat in range(totals.shape[0]):
        for r, card in enumerate(deck_cards[seat]):
            if card >= 0:
                head = {"seat": seat, "deck": decks[seat], "card": names[card]}
                rows.append({**head, **card_figures(totals[seat, r])})
    return pd.DataFrame(rows)


def card_keys(
    deck_cards: np.ndarray, names: tuple[str, ...], decks: tuple[str, str], mirror: bool
) -> dict[str, list[tuple[int, int]]]:
    """The keys of a summary's ``cards``: each card's (seat, row) records, by key.

    A card is keyed by its name. A card in both decks is pooled under its name in a
    ``mirror`` match (both seats play the very same deck); otherwise it is kept apart, as
    ``NAME (DECK)``, or ``NAME (seat S)`` when two different decks share a name.
    """
    seats_of: dict[str, list[tuple[int, int]]] = {}
    for seat in range(deck_cards.shape[0]):
        for r, card in enumerate(deck_cards[seat]):
            if card >= 0:
                seats_of.setdefault(names[card], []).append((seat, r))
    keys: dict[str, list[tuple[int, int]]] = {}
    for name, where in seats_of.items():
        if len(where) == 1 or mirror:
            keys[name] = where
        else:
            for seat, r in where:
                label = decks[seat] if decks[0] != decks[1] else f"seat {seat}"
                keys[f"{name} ({label})"] = [(seat, r)]
    return keys


def cards_summary(
    totals: np.ndarray,
    deck_cards: np.ndarray,
    names: tuple[str, ...],
    decks: tuple[str, str],
    mirror: bool,
) -> dict[str, dict[str, Any]]:
    """Each card's figures by :func:`card_keys` key, as ``balance simulate --json`` gives
    them: means with ``_ci95``, win rates with ``_ci95`` and the groups' game counts.

    A card pooled over both seats of a mirror match counts each seat's games once (two
    observations a game).
    """
    out: dict[str, dict[str, Any]] = {}
    for key, where in card_keys(deck_cards, names, decks, mirror).items():
        pooled = sum(totals[seat, r] for seat, r in where)
        row = card_figures(pooled)
        entry: dict[str, Any] = {
            "seats": [seat for seat, _ in where],
            "deck": decks[where[0][0]],
        }
        for name, value in row.items():
            if name.endswith("_low"):
                entry[name[: -len("_low")] + "_ci95"] = [value, row[name[:-4] + "_high"]]
            elif not name.endswith("_high") and not name.endswith("_won"):
                entry[name] = value
        out[key] = entry
    return out
