"""The findings page: a report's and a comparison's figures said in plain sentences.

Every sentence restates a figure the report already shows, with its 95% interval and
the number of games behind it; nothing here computes a new statistic. The seat
sentence turns the balance index into the gap between the seats that win most and
least (the gap is 1 - the index, in percentage points, and so is its interval); a
comparison's sentences list the differences that stay significant after Holm's
correction, and say how many did not move beyond chance.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from balance.formatting import index_text, percent

#: At most this many significant differences are spelled out per variant.
SHOWN = 5


def points(value: float) -> str:
    """A share difference in percentage points, without sign: ``1.63``."""
    return f"{100 * abs(value):.2f}"


def _rate(rate: float, low: float, high: float) -> str:
    """``34.35% [34.21%, 34.49%]``."""
    return f"{100 * rate:.2f}% [{100 * low:.2f}%, {100 * high:.2f}%]"


def seat_sentence(
    seats: Sequence[str],
    rate: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    index: dict,
    games: int,
) -> str:
    """Which seat wins most and which least, and whether the gap is more than chance.

    Parameters
    ----------
    seats : ``(n,)`` seat names; rate, low, high : ``(n,)`` win rates and Wilson bounds.
    index : :func:`balance.metrics.balance_index_interval`'s ``value``, ``low``, ``high``.
    games : games the rates rest on.
    """
    rate = np.asarray(rate, dtype=float)
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    if index["value"] != index["value"]:
        return (
            f"No seat won any of the {games:,} games, so the seats cannot be compared: "
            "the balance index is not a number (n/a)."
        )
    top, bottom = int(np.argmax(rate)), int(np.argmin(rate))
    if rate[top] == rate[bottom]:
        return (
            f"Every seat won {percent(rate[top])} of the {games:,} games "
            f"(balance index {index_text(index['value'])})."
        )
    gap_low, gap_high = 1.0 - index["high"], 1.0 - index["low"]
    ahead = index["high"] < 1.0
    verdict = (
        "so one seat is ahead of another by more than chance explains"
        if ahead
        else "so no seat is ahead of another by more than chance explains"
    )
    span = (
        f" lies between {points(gap_low)} and {points(gap_high)} points"
        if gap_low == gap_low
        else " has no interval (too few games)"
    )
    return (
        f"{seats[bottom].capitalize()} wins {points(rate[top] - rate[bottom])} percentage "
        f"points less often than {seats[top]}: "
        f"{_rate(rate[bottom], low[bottom], high[bottom])} of {games:,} games against "
        f"{_rate(rate[top], low[top], high[top])}. The largest gap between two seats{span} "
        f"(balance index {index_text(index['value'])} "
        f"[{index_text(index['low'])}, {index_text(index['high'])}]), {verdict}."
    )


def held_sentence(seats: Sequence[str], held: Sequence[str]) -> str | None:
    """Where the seats held different things in every game (a deck, a strategy), that a
    gap between seats is theirs as much as the seats'; None where they held the same.

    Parameters
    ----------
    seats : ``(n,)`` seat names, with what each held; held : ``(n,)`` what each held.
    """
    if len(set(held)) < 2:
        return None
    return (
        f"Every game gave each seat the same: {', '.join(seats)}. A gap between the seats "
        "measures what they held as much as their place at the table."
    )


def strategy_sentence(table: pd.DataFrame) -> str:
    """The strategies that win most and least often over the seats they played.

    Parameters
    ----------
    table : :func:`balance.metrics.strategy_win_rates`, one row a strategy.
    """
    ordered = table.sort_values("rate", ascending=False)
    best, worst = ordered.iloc[0], ordered.iloc[-1]

    def said(row: pd.Series) -> str:
        return (
            f"{row['strategy']} wins {_rate(row['rate'], row['low'], row['high'])} of the "
            f"{int(row['seats_played']):,} seats it played"
        )

    return f"Strategy {said(best)}; {said(worst)}."


def length_sentence(
    mean: tuple[float, float, float],
    unfinished: int,
    unfinished_interval: tuple[float, float],
    games: int,
    unit: str,
    cap: int | None,
) -> str:
    """How long games last, and how many stopped unfinished at the cap.

    ``mean`` is ``(mean, low, high)`` over the games' lengths (Student t); a game stopped
    at the cap would have gone on, so with any such game the mean is a lower bound.
    """
    value, low, high = mean
    at_least = "at least " if unfinished else ""
    where = f"the cap of {cap} {unit}" if cap is not None else "the length cap"
    return (
        f"Games last {at_least}{value:.2f} {unit} on average [{low:.2f}, {high:.2f}] over "
        f"{games:,} games; {unfinished:,} of them "
        f"({_rate(unfinished / games, *unfinished_interval)}) stopped unfinished at {where}."
    )


def no_winner_sentence(count: int, interval: tuple[float, float], games: int) -> str | None:
    """How often nobody wins, or None when every game had a winner."""
    if count == 0:
        return None
    return f"Nobody won {count:,} of the {games:,} games ({_rate(count / games, *interval)})."


def difference_sentences(table: pd.DataFrame, label: str, base: str) -> list[str]:
    """What changes from ``base`` to ``label``: the significant differences, then the rest.

    The significant differences are spelled out in the table's order (game length,
    finished share, seat win rates, winners, the game's own counts, balance index), at
    most :data:`SHOWN` of them.

    Parameters
    ----------
    table : :func:`balance.metrics.paired_table`'s rows of run ``label`` (every metric).
    """
    rows = table[table["p"].notna()]
    moved = rows[rows["significant"].astype(bool)]
    games = int(rows["games"].iloc[0]) if len(rows) else 0
    if moved.empty:
        return [
            f"{label} against {base}: nothing moved beyond chance; none of the {len(rows)} "
            f"paired differences ({games:,} games) is significant after Holm's correction."
        ]
    said = [_change(row) for row in moved.head(SHOWN).itertuples()]
    more = len(moved) - len(said)
    rest = len(rows) - len(moved)
    tail = (f"; {more} more significant differences are in the table" if more else "") + (
        f"; nothing else moved (the other {rest} of {len(rows)} differences are within "
        "chance after Holm's correction)"
        if rest
        else "; every difference is significant"
    )
    return [f"{label} against {base} ({games:,} paired games): " + "; ".join(said) + tail + "."]


def _change(row) -> str:
    """One significant difference in words: what rises or falls, from what to what."""
    if row.kind == "share":
        values = f"from {100 * row.base_value:.2f}% to {100 * row.value:.2f}%"
        amount = (
            f"{100 * row.difference:+.2f} points [{100 * row.diff_low:+.2f}, "
            f"{100 * row.diff_high:+.2f}]"
        )
    else:
        unit = f" {row.unit}" if row.unit else ""
        values = f"from {row.base_value:.3f} to {row.value:.3f}{unit}"
        amount = f"{row.difference:+.3f}{unit} [{row.diff_low:+.3f}, {row.diff_high:+.3f}]"
    if row.metric == "game length":
        verb = "games last longer" if row.difference > 0 else "games get shorter"
        return f"{verb}, {values} ({amount})"
    verb = "rises" if row.difference > 0 else "falls"
    return f"{row.metric} {verb} {values} ({amount})"


def restricted_play_sentences(
    table: pd.DataFrame,
    noun: str,
    labels: Sequence[str] | None = None,
    subject: str = "the restricted seat",
) -> list[str]:
    """What restricted play found: the actions worth most to the player who has them,
    those that cost their holder, and how many moved nothing beyond chance.

    Parameters
    ----------
    table : :func:`balance.restricted.value_table`'s rows, one an action (``action``,
        ``games``, ``win_rate`` without it, ``base_win_rate`` with it, ``difference`` =
        without - with, ``low``, ``high``, ``significant`` after Holm's correction).
    noun : what an action is called in the game (``card``, ``symbol``).
    labels : ``(len(table),)`` names of the rows (default: ``action``).
    subject : who plays without the action (Battle of Thieves: the deck, its card blanked).
    """
    table = table.assign(label=list(table["action"] if labels is None else labels))
    rows = table[table["difference"].notna()]
    if rows.empty:
        return [f"No {noun} was measured."]
    games = int(rows["games"].min())
    plural = f"{noun}s" if len(rows) != 1 else noun
    moved = rows[rows["significant"].astype(bool)]
    helps = moved[moved["difference"] < 0].sort_values("difference")
    hurts = moved[moved["difference"] > 0].sort_values("difference", ascending=False)

    def said(row) -> str:
        return (
            f"{row.label} ({points(row.difference)} points: {subject} wins "
            f"{100 * row.win_rate:.2f}% without it, {100 * row.base_win_rate:.2f}% with it; "
            f"change {100 * row.difference:+.2f} [{100 * row.low:+.2f}, {100 * row.high:+.2f}])"
        )

    found = [
        f"{len(moved)} of the {len(rows)} {plural} change the win rate of {subject} without "
        f"them beyond chance ({games:,} paired games a {noun}, 5% after Holm's correction)."
    ]
    for heading, these in (
        ("Worth most to the player who has them", helps),
        (f"Costly to their holder ({subject} wins more without them)", hurts),
    ):
        if len(these):
            found.append(
                f"{heading}: "
                + "; ".join(said(row) for row in these.head(SHOWN).itertuples())
                + (f"; {len(these) - SHOWN} more in the table" if len(these) > SHOWN else "")
                + "."
            )
    if len(moved) < len(rows):
        widest = float((rows["high"] - rows["low"]).max()) / 2
        rest = len(rows) - len(moved)
        others = f"The other {rest} {noun}s" if rest > 1 else f"The other {noun}"
        if moved.empty:
            others = f"All {len(rows)} {plural}" if len(rows) > 1 else f"The {noun}"
        found.append(
            f"{others} moved nothing beyond chance: at this number of games a change "
            f"smaller than about {100 * widest:.2f} points either way (the widest half "
            "interval) cannot be told apart from none."
        )
    return found
