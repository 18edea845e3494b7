"""How useful each card of a deck is: drawn, played, and the games it was played in.

The compiled engine records, per game, seat and distinct card of the seat's deck, the
copies drawn and played and the turns they were held (``cards`` records, int32
``(G, 2, DECK_SIZE, CardStat.SIZE)``). A long run keeps only their sums
(:func:`card_totals`, one ``(2, DECK_SIZE, Total.SIZE)`` array a block, and
:func:`pair_totals` for a mirror match), from which :func:`card_table` and
:func:`cards_summary` give each card's means and win rates with 95% intervals.

**The game is the unit.** A card pooled over both seats of a mirror match is observed
twice in a game, and the two seats' counts in one game go together (they share its
length and its shuffles; exactly one of them wins). So the sums are kept game by game:
per game, the two seats' copies drawn, and the seats that played a copy with how many
of them won. A mean per seat and game then has the variance of the per-game sums (a
Student-t interval over games); a win rate is a ratio of per-game sums, with the
cluster-robust (delta-method) variance of a ratio estimator over games, and a Wilson
interval at the effective number of observations that variance implies (Kish's design
effect); the difference of two win rates is Newcombe's hybrid score interval with the
correlation of the two rates over games (MOVER, Zou and Donner 2008). For a card of one
seat (one observation a game) these are the ordinary t, Wilson and Newcombe intervals.

Win rate when played against drawn-and-held compares games in which the deck's player
played at least one copy with games in which it drew one and played none. The two groups
are chosen by the game, not at random (a card played more in winning positions looks
better), so the difference is a description; restricted play (the card replaced by a
blank card, on the same seeds) measures the card's value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from balance.core.lazy import LazyModule
from balance.games.battle_of_thieves.layout import CARD_STAT
from balance.stats.intervals import LEVEL, wilson_interval

if TYPE_CHECKING:
    import pandas as pd
    from scipy import stats as scipy_stats
else:  # loaded when cards are first tallied, not when balance starts
    pd = LazyModule("pandas")
    scipy_stats = LazyModule("scipy.stats")


class Total(NamedTuple):
    """Slots of the per-card sums over the games of a block.

    A unit is one seat's card, or in a mirror match the card of both seats, game by game.
    Per game ``g`` a unit has ``m`` observations (``m`` = 1 or 2 seats); ``x_g`` is the
    sum of a count over them, ``N_g`` how many of them played a copy (``H_g``: drew one and
    played none) and ``W_g`` (``V_g``) how many of those won.
    """

    GAMES: int = 0  # games (clusters)
    OBSERVED: int = 1  # m times the games: seat-games observed
    DRAWN: int = 2  # sum of x_g
    DRAWN_SQ: int = 3  # sum of x_g squared
    PLAYED: int = 4
    PLAYED_SQ: int = 5
    HELD: int = 6
    HELD_SQ: int = 7
    PLAYED_GAMES: int = 8  # sum of N_g: seat-games with at least one copy played
    PLAYED_WON: int = 9  # sum of W_g
    PLAYED_GAMES_SQ: int = 10  # sum of N_g squared
    PLAYED_WON_SQ: int = 11  # sum of W_g squared
    PLAYED_CROSS: int = 12  # sum of N_g W_g
    PLAYED_ANY: int = 13  # games with N_g > 0
    HELD_GAMES: int = 14  # sum of H_g: seat-games with a copy drawn and none played
    HELD_WON: int = 15  # sum of V_g
    HELD_GAMES_SQ: int = 16
    HELD_WON_SQ: int = 17
    HELD_CROSS: int = 18  # sum of H_g V_g
    HELD_ANY: int = 19
    N_H: int = 20  # sum of N_g H_g (the two groups in one game)
    N_V: int = 21  # sum of N_g V_g
    W_H: int = 22  # sum of W_g H_g
    W_V: int = 23  # sum of W_g V_g
    SIZE: int = 24


TOTAL = Total()


def unit_totals(cards: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Sums over games of the per-game sums of the ``m`` observations of each unit.

    Parameters
    ----------
    cards : int ``(G, m, R, CardStat.SIZE)``: per game, the ``m`` observations (seats)
        pooled into each of ``R`` units.
    won : bool ``(G, m)``, or ``(G, m, R)`` when the units differ in who won.

    Returns
    -------
    float64 ``(R, Total.SIZE)``.
    """
    cards = np.asarray(cards, dtype=np.float64)
    games, m, units = cards.shape[:3]
    won = np.asarray(won, dtype=bool)
    if won.ndim == 2:
        won = won[:, :, None]
    drawn = cards[..., CARD_STAT.DRAWN]
    played = cards[..., CARD_STAT.PLAYED]
    held = cards[..., CARD_STAT.HELD]
    was_played = played > 0
    was_held = (drawn > 0) & ~was_played
    n = was_played.sum(1, dtype=np.float64)  # (G, R)
    w = (was_played & won).sum(1, dtype=np.float64)
    h = was_held.sum(1, dtype=np.float64)
    v = (was_held & won).sum(1, dtype=np.float64)
    out = np.zeros((units, TOTAL.SIZE))
    out[:, TOTAL.GAMES] = games
    out[:, TOTAL.OBSERVED] = games * m
    for slot, square, values in (
        (TOTAL.DRAWN, TOTAL.DRAWN_SQ, drawn),
        (TOTAL.PLAYED, TOTAL.PLAYED_SQ, played),
        (TOTAL.HELD, TOTAL.HELD_SQ, held),
    ):
        per_game = values.sum(1)
        out[:, slot] = per_game.sum(0)
        out[:, square] = (per_game**2).sum(0)
    for first, names in (
        (n, ("PLAYED_GAMES", "PLAYED_WON", "PLAYED_GAMES_SQ", "PLAYED_WON_SQ", "PLAYED_CROSS")),
        (h, ("HELD_GAMES", "HELD_WON", "HELD_GAMES_SQ", "HELD_WON_SQ", "HELD_CROSS")),
    ):
        wins = w if first is n else v
        for name, values in zip(names, (first, wins, first**2, wins**2, first * wins), strict=True):
            out[:, getattr(TOTAL, name)] = values.sum(0)
    out[:, TOTAL.PLAYED_ANY] = (n > 0).sum(0)
    out[:, TOTAL.HELD_ANY] = (h > 0).sum(0)
    out[:, TOTAL.N_H] = (n * h).sum(0)
    out[:, TOTAL.N_V] = (n * v).sum(0)
    out[:, TOTAL.W_H] = (w * h).sum(0)
    out[:, TOTAL.W_V] = (w * v).sum(0)
    return out


def card_totals(cards: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Per-card sums over a block of games, each seat's card its own unit.

    Parameters
    ----------
    cards : int ``(G, 2, R, CardStat.SIZE)``, the per-card records.
    won : bool ``(G, 2)`` (or ``(G, 2, R)``).

    Returns
    -------
    float64 ``(2, R, Total.SIZE)``.
    """
    won = np.asarray(won, dtype=bool)
    return np.stack(
        [unit_totals(cards[:, seat : seat + 1], won[:, seat : seat + 1]) for seat in range(2)]
    )


def pair_totals(cards: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Per-card sums over a block of games with both seats' row ``r`` one unit, game by
    game: the sums a mirror match pools (both decks are the same, row for row).

    Parameters
    ----------
    cards : int ``(G, 2, R, CardStat.SIZE)``; won : bool ``(G, 2)`` (or ``(G, 2, R)``).

    Returns
    -------
    float64 ``(R, Total.SIZE)``.
    """
    return unit_totals(cards, won)


def _z() -> float:
    return float(scipy_stats.norm.ppf(0.5 + LEVEL / 2))


def _mean_from_sums(
    t: np.ndarray, total: int, squares: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean per observation with a Student-t 95% interval over games (the per-game sums'
    variance), from a unit's sums ``t`` (``(..., Total.SIZE)``)."""
    games = t[..., TOTAL.GAMES]
    observed = t[..., TOTAL.OBSERVED]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = t[..., total] / observed
        per_game = t[..., total] / games
        variance = np.maximum(0.0, (t[..., squares] - games * per_game**2) / (games - 1))
        per_obs = observed / games  # m
        half = scipy_stats.t.ppf(0.5 + LEVEL / 2, np.maximum(games - 1, 1)) * np.sqrt(
            variance / games
        )
        half = np.where(games >= 2, half / per_obs, np.nan)
    mean = np.where(observed >= 1, mean, np.nan)
    # Counts: a bound below zero is impossible (NaN stays NaN).
    return mean, np.maximum(mean - half, 0.0), mean + half


def _rate_from_sums(
    t: np.ndarray, group: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A win rate ``sum W_g / sum N_g`` with a Wilson interval at the effective number of
    observations of its cluster-robust variance: ``(rate, low, high, variance)``.

    The variance of the ratio over games is ``sum (W_g - r N_g)**2 / (sum N_g)**2``; a
    binomial of ``n`` observations has ``r (1 - r) / n``, so the effective ``n`` is
    ``r (1 - r)`` over that variance (``sum N_g`` itself when each game holds at most one
    observation). At a rate of 0 or 1 every residual is 0 and the effective ``n`` is the
    number of games with an observation (the most a game's observations could agree).
    """
    n = t[..., getattr(TOTAL, f"{group}_GAMES")]
    w = t[..., getattr(TOTAL, f"{group}_WON")]
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, w / n, np.nan)
        r = np.nan_to_num(rate)
        squares = (
            t[..., getattr(TOTAL, f"{group}_WON_SQ")]
            - 2 * r * t[..., getattr(TOTAL, f"{group}_CROSS")]
            + r**2 * t[..., getattr(TOTAL, f"{group}_GAMES_SQ")]
        )
        variance = np.where(n > 0, np.maximum(squares, 0.0) / n**2, np.nan)
        inner = (r > 0) & (r < 1)
        effective = np.where(
            inner & (variance > 0),
            r * (1 - r) / np.where(variance > 0, variance, 1.0),
            t[..., getattr(TOTAL, f"{group}_ANY")],
        )
    effective = np.where(n > 0, effective, 0.0)
    low, high = wilson_interval(r * effective, effective)
    # A rate strictly inside (0, 1) whose residuals all vanish is known exactly.
    exact = (n > 0) & inner & ~(variance > 0)
    low = np.where(exact, r, low)
    high = np.where(exact, r, high)
    return rate, low, high, variance


def _difference_from_sums(
    t: np.ndarray,
    played: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    held: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rate played - rate held`` with Newcombe's hybrid score interval, the two Wilson
    intervals combined with the rates' correlation over games (MOVER: Zou and Donner,
    2008; no correlation for a card of one seat, whose two groups are different games).
    NaN if a group is empty."""
    rp, lp, up, var_p = played
    rh, lh, uh, var_h = held
    n_p, n_h = t[..., TOTAL.PLAYED_GAMES], t[..., TOTAL.HELD_GAMES]
    with np.errstate(invalid="ignore", divide="ignore"):
        a, b = np.nan_to_num(rp), np.nan_to_num(rh)
        cross = (
            t[..., TOTAL.W_V]
            - b * t[..., TOTAL.W_H]
            - a * t[..., TOTAL.N_V]
            + a * b * t[..., TOTAL.N_H]
        )
        covariance = cross / (n_p * n_h)
        scale = np.sqrt(var_p * var_h)
        rho = np.where(scale > 0, np.clip(covariance / np.where(scale > 0, scale, 1.0), -1, 1), 0)
        diff = rp - rh
        down_p, up_p = rp - lp, up - rp
        down_h, up_h = rh - lh, uh - rh
        low = diff - np.sqrt(np.maximum(down_p**2 + up_h**2 - 2 * rho * down_p * up_h, 0.0))
        high = diff + np.sqrt(np.maximum(up_p**2 + down_h**2 - 2 * rho * up_p * down_h, 0.0))
    empty = (n_p == 0) | (n_h == 0)
    return (
        np.where(empty, np.nan, diff),
        np.where(empty, np.nan, low),
        np.where(empty, np.nan, high),
    )


def figures(t: np.ndarray) -> dict[str, np.ndarray]:
    """Every figure of units' sums ``t`` (``(..., Total.SIZE)``), arrays of shape ``(...)``,
    with 95% intervals as ``NAME_low`` and ``NAME_high``: see :func:`card_figures`."""
    t = np.asarray(t, dtype=np.float64)
    out: dict[str, np.ndarray] = {
        "games": t[..., TOTAL.OBSERVED],
        "in_games": t[..., TOTAL.GAMES],
    }
    for name, total, squares in (
        ("drawn_per_game", TOTAL.DRAWN, TOTAL.DRAWN_SQ),
        ("played_per_game", TOTAL.PLAYED, TOTAL.PLAYED_SQ),
        ("held_turns_per_game", TOTAL.HELD, TOTAL.HELD_SQ),
    ):
        out[name], out[f"{name}_low"], out[f"{name}_high"] = _mean_from_sums(t, total, squares)
    rates = {}
    for name, group in (("played", "PLAYED"), ("held", "HELD")):
        rates[name] = _rate_from_sums(t, group)
        out[f"{name}_games"] = t[..., getattr(TOTAL, f"{group}_GAMES")]
        out[f"{name}_won"] = t[..., getattr(TOTAL, f"{group}_WON")]
        out[f"{name}_in_games"] = t[..., getattr(TOTAL, f"{group}_ANY")]
        rate, low, high, _ = rates[name]
        out[f"win_rate_{name}"] = rate
        out[f"win_rate_{name}_low"] = low
        out[f"win_rate_{name}_high"] = high
    diff, low, high = _difference_from_sums(t, rates["played"], rates["held"])
    out["played_minus_held"] = diff
    out["played_minus_held_low"] = low
    out["played_minus_held_high"] = high
    return out


_COUNTS = (
    "games",
    "in_games",
    "played_games",
    "played_won",
    "played_in_games",
    "held_games",
    "held_won",
    "held_in_games",
)


def card_figures(t: np.ndarray) -> dict[str, Any]:
    """A card's figures from its unit's sums ``t`` (``(Total.SIZE,)``), with 95% intervals
    as ``NAME_low`` and ``NAME_high``.

    ``games``: seat-games observed (twice the games for a card pooled over a mirror
    match's two seats), ``in_games``: the games they come from; means per seat and game
    (``drawn_per_game``, ``played_per_game``, ``held_turns_per_game``); ``played_games``
    (seat-games with a copy played; ``played_in_games``: games with one), ``played_won``,
    ``win_rate_played``; the same for ``held`` (drawn, none played); and
    ``played_minus_held``.
    """
    row: dict[str, Any] = {}
    for name, value in figures(t).items():
        row[name] = int(value) if name in _COUNTS else float(value)
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
    pairs: np.ndarray | None = None,
) -> dict[str, dict[str, Any]]:
    """Each card's figures by :func:`card_keys` key, as ``balance simulate --json`` gives
    them: means with ``_ci95``, win rates with ``_ci95`` and the groups' game counts.

    A card pooled over both seats of a mirror match counts each seat's games once (two
    observations a game, ``games``; ``in_games`` the games), with intervals over games
    from ``pairs`` (``(R, Total.SIZE)``, sums of :func:`pair_totals` over the run's blocks;
    required in a mirror match).
    """
    out: dict[str, dict[str, Any]] = {}
    for key, where in card_keys(deck_cards, names, decks, mirror).items():
        if len(where) == 1:
            unit = totals[where[0]]
        else:
            rows = {r for _, r in where}
            if pairs is None or len(rows) != 1:
                raise ValueError(f"{key}: a card pooled over two seats needs their pair sums")
            unit = pairs[rows.pop()]
        row = card_figures(unit)
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
