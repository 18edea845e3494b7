"""The findings page: a report's and a comparison's figures said in plain sentences.

Every sentence restates a figure the report already shows, with its 95% interval and
the number of games behind it; nothing here computes a new statistic. The seat
sentence turns the balance index into the gap between the seats that win most and
least (the gap is 1 - the index, in percentage points, and so is its interval). A
comparison's and a card value's sentences sort the differences by a smallest change that
matters (``--min-effect``): those whose interval lies beyond it, those beyond chance but
too small to matter, those too small to matter (with the largest change their interval
allows: a null result with its bound), and those the games cannot settle.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from balance.core.errors import BalanceError
from balance.core.formatting import index_text, percent

#: At most this many differences of a kind are spelled out per variant.
SHOWN = 5
#: The smallest change that matters when none is given (``--min-effect``): one
#: percentage point of a rate or of the balance index, 1% of the reference's mean.
MIN_EFFECT = 1.0


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
    index : :func:`balance.stats.metrics.balance_index_interval`'s ``value``, ``low``, ``high``.
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
    table : :func:`balance.stats.metrics.strategy_win_rates`, one row a strategy.
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


def check_min_effect(min_effect: float) -> None:
    """A one-line error unless ``min_effect`` is a change that may matter (``--min-effect``)."""
    if isinstance(min_effect, bool) or not isinstance(min_effect, int | float):
        raise BalanceError(f"--min-effect must be a number, not {min_effect!r}")
    if not 0 < min_effect < 100:
        raise BalanceError(
            "--min-effect is the smallest change that matters, in percentage points of a "
            f"rate (1: one point), above 0 and below 100, not {min_effect:g}"
        )


def _points(amount: float) -> str:
    return "point" if amount == 1 else "points"


def effect_text(min_effect: float) -> str:
    """``a change matters from 1 point of a rate, 0.01 of the balance index and 1% of a
    mean ...``."""
    return (
        f"a change matters from {min_effect:g} {_points(min_effect)} of a rate, "
        f"{min_effect / 100:g} of the balance index and {min_effect:g}% of a mean such as "
        "the game length (--min-effect)"
    )


def _matters(rows: pd.DataFrame, min_effect: float) -> np.ndarray:
    """``(len(rows),)`` the smallest change of each row that matters, in its units: the
    points of a rate or index, the percent of the reference's value of a mean."""
    share = min_effect / 100
    relative = share * rows["base_value"].abs().to_numpy(dtype=float)
    return np.where(rows["kind"].to_numpy() == "mean", relative, share)


def _bounded(row) -> str:
    """A row and the largest change its interval allows: ``games with 1 winner 0.78 points``."""
    bound = max(abs(row.diff_low), abs(row.diff_high))
    if row.kind == "mean":
        return f"{row.metric} {bound:.3f}{f' {row.unit}' if row.unit else ''}"
    return f"{row.metric} {points(bound)} points"


def _named(rows: pd.DataFrame, say) -> str:
    """At most :data:`SHOWN` rows said by ``say``, joined; how many more are in the table."""
    said = "; ".join(say(row) for row in rows.head(SHOWN).itertuples())
    return said + (f"; {len(rows) - SHOWN} more in the table" if len(rows) > SHOWN else "")


def difference_sentences(
    table: pd.DataFrame, label: str, base: str, min_effect: float = MIN_EFFECT
) -> list[str]:
    """What changes from ``base`` to ``label``, sorted by whether it matters.

    A difference *matters* when it is significant after Holm's correction and its whole
    95% interval lies beyond ``min_effect`` (points of a rate or the balance index, percent
    of the reference's value of a mean), and is *too small to matter* when its whole
    interval lies within it; otherwise the games cannot tell. After a heading naming the
    games and ``min_effect``: whether the variant changes who wins (the seats' win rates
    and the balance index), with the bound of their intervals; then the changes that
    matter, those beyond chance that may be too small, those beyond chance but too small,
    the other rows too small to matter and those not settled, each with its interval or
    bound, at most :data:`SHOWN` of each, in the table's order.

    Parameters
    ----------
    table : :func:`balance.stats.metrics.paired_table`'s rows of run ``label`` (every metric).
    min_effect : the smallest change that matters, in points of a rate (1: one point).
    """
    rows = table[table["p"].notna()]
    if rows.empty:
        return [f"{label} against {base}: no paired difference could be measured."]
    games = int(rows["games"].iloc[0])
    matters = _matters(rows, min_effect)
    low, high = rows["diff_low"].to_numpy(float), rows["diff_high"].to_numpy(float)
    # Beyond chance: significant after Holm's correction, and the interval shown clear of
    # zero (under --precision the interval is anytime-valid, the p-value fixed-n). Only
    # such a change matters: one row's interval alone may clear the threshold by the luck
    # of many tests.
    beyond = rows["significant"].to_numpy(bool) & ((low > 0) | (high < 0))
    big = beyond & ((low >= matters) | (high <= -matters))
    small = (low >= -matters) & (high <= matters)
    seats = rows["metric"].str.fullmatch(r"seat \d+ win rate").to_numpy() | (
        rows["kind"].to_numpy() == "index"
    )
    found = [f"{label} against {base} ({games:,} paired games; {effect_text(min_effect)}):"]
    who = rows[seats]
    reach = np.fmax(who["diff_low"].abs(), who["diff_high"].abs())
    on_seats = reach[who["kind"] != "index"].max()
    on_index = reach[who["kind"] == "index"].max()
    reaches = f"{points(on_seats)} points for a seat's win rate" + (
        f", {on_index:.3f} for the balance index" if on_index == on_index else ""
    )
    if len(who) and small[seats].all():
        found.append(
            f"{label} does not change who wins: the 95% intervals of the changes reach at "
            f"most {reaches}, under what matters."
        )
    elif len(who) and not beyond[seats].any():
        found.append(
            f"Whether {label} changes who wins is not settled: no seat's win rate moves "
            f"beyond chance, but the 95% intervals reach {reaches}, more than what matters; "
            "more games would tell."
        )
    bounded = "(the largest change each allows)"
    for heading, these, say in (
        ("Changes that matter", big, _change),
        ("Beyond chance, perhaps too small to matter", beyond & ~big & ~small, _change),
        ("Beyond chance but too small to matter", beyond & small, _change),
        (f"Too small to matter {bounded}", ~seats & ~beyond & small, _bounded),
        (
            "Not settled, no change beyond chance but one that matters cannot be ruled out "
            + bounded,
            ~seats & ~beyond & ~small,
            _bounded,
        ),
    ):
        if these.any():
            found.append(f"{heading}: {_named(rows[these], say)}.")
    return found


def _change(row) -> str:
    """One difference in words: what rises or falls, from what to what."""
    if row.kind in ("share", "seat share"):
        values = f"from {100 * row.base_value:.2f}% to {100 * row.value:.2f}%"
        amount = (
            f"{100 * row.difference:+.2f} points [{100 * row.diff_low:+.2f}, "
            f"{100 * row.diff_high:+.2f}]"
        )
    else:
        unit = f" {row.unit}" if row.unit else ""
        values = f"from {row.base_value:.3f} to {row.value:.3f}{unit}"
        amount = f"{row.difference:+.3f}{unit} [{row.diff_low:+.3f}, {row.diff_high:+.3f}]"
        if row.kind == "mean" and row.base_value:
            amount += f", {100 * row.difference / abs(row.base_value):+.1f}%"
    if row.metric == "game length":
        verb = "games last longer" if row.difference > 0 else "games get shorter"
        return f"{verb}, {values} ({amount})"
    verb = "rises" if row.difference > 0 else "falls"
    # "games with 2 winners" is a share of games: it is the share that rises or falls.
    subject = f"the share of {row.metric}" if row.metric.startswith("games ") else row.metric
    return f"{subject} {verb} {values} ({amount})"


def random_play_sentences(strategies: Sequence[str], what: str) -> list[str]:
    """A sentence before a run's or a comparison's findings when every seat plays the
    rules' uniform-random player: ``what`` (its figures) describes random play."""
    if not strategies or any(s != "random" for s in strategies):
        return []
    return [
        f"Every seat plays the uniform-random player: {what} are those of random play, not "
        "of players who choose well (--strategy seats others)."
    ]


def random_field_sentences(strategies: Sequence[str], noun: str) -> list[str]:
    """A sentence before a restricted play's findings when every seat plays the rules'
    uniform-random player: a value is then what the action is worth played at random
    among random players, not to a player who uses it well."""
    if not strategies or any(s != "random" for s in strategies):
        return []
    return [
        f"Every seat plays the uniform-random player: each value is what the {noun} is "
        f"worth played at random among random players, not to a player who uses it well; "
        "a strategy that plays well (--strategy) may value it otherwise."
    ]


def restricted_play_sentences(
    table: pd.DataFrame,
    noun: str,
    labels: Sequence[str] | None = None,
    subject: str = "the restricted seat",
    min_effect: float = MIN_EFFECT,
) -> list[str]:
    """What restricted play found: the actions worth most to the player who has them,
    those that cost their holder, those too small to matter and those not settled.

    Parameters
    ----------
    table : :func:`balance.analyses.restricted.value_table`'s rows, one an action (``action``,
        ``games``, ``win_rate`` without it, ``base_win_rate`` with it, ``difference`` =
        without - with, ``low``, ``high``, ``significant`` after Holm's correction).
    noun : what an action is called in the game (``card``, ``symbol``).
    labels : ``(len(table),)`` names of the rows (default: ``action``).
    subject : who plays without the action (Battle of Thieves: the deck, its card blanked).
    min_effect : the smallest change of the win rate that matters, in points; a value
        whose whole 95% interval lies within it is too small to matter.
    """
    table = table.assign(label=list(table["action"] if labels is None else labels))
    rows = table[table["difference"].notna()]
    if rows.empty:
        return [f"No {noun} was measured."]
    games = int(rows["games"].min())
    plural = f"{noun}s" if len(rows) != 1 else noun
    matters = min_effect / 100
    small = (rows["low"] >= -matters) & (rows["high"] <= matters)
    # As in a comparison: significant, and the interval shown (anytime-valid under
    # --precision) clear of zero.
    beyond = rows["significant"].astype(bool) & ((rows["low"] > 0) | (rows["high"] < 0))
    moved = rows[beyond & ~small]
    helps = moved[moved["difference"] < 0].sort_values("difference")
    hurts = moved[moved["difference"] > 0].sort_values("difference", ascending=False)

    def said(row) -> str:
        perhaps = "" if row.low >= matters or row.high <= -matters else ", perhaps too small"
        return (
            f"{row.label} ({points(row.difference)} points: {subject} wins "
            f"{100 * row.win_rate:.2f}% without it, {100 * row.base_win_rate:.2f}% with it; "
            f"change {100 * row.difference:+.2f} [{100 * row.low:+.2f}, {100 * row.high:+.2f}]"
            f"{perhaps})"
        )

    def bounded(row) -> str:
        note = " (beyond chance)" if row.significant else ""
        return f"{row.label} {points(max(abs(row.low), abs(row.high)))}{note}"

    found = [
        f"{int(beyond.sum())} of the {len(rows)} {plural} "
        f"{'changes' if beyond.sum() == 1 else 'change'} the win rate of {subject} "
        f"without them beyond chance ({games:,} paired games a {noun}, 5% after Holm's "
        f"correction); a change matters from {min_effect:g} {_points(min_effect)} "
        "(--min-effect)."
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
    for heading, these in (
        (
            f"Too small to matter, each within +/-{min_effect:g} {_points(min_effect)} (the "
            "largest change each allows)",
            rows[small],
        ),
        (
            "Not settled, no change beyond chance but one that matters cannot be ruled out "
            "(the largest change each allows)",
            rows[~beyond & ~small],
        ),
    ):
        if len(these):
            ordered = these.assign(
                widest=np.fmax(these["low"].abs(), these["high"].abs())
            ).sort_values("widest", ascending=False)
            found.append(f"{heading}: {_named(ordered, bounded)}.")
    return found
