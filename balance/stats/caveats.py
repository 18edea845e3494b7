"""When a run's numbers cannot mean what they seem: games stopped at the cap, no winner.

A game still running at its length cap stops unfinished and nobody wins it. When many
games stop there, the win rates mostly count those games as losses for every seat, the
balance index looks perfect because every seat lost alike, and the mean length is the
cap's rather than the game's. These functions turn the records every game keeps
(``finished``, ``won``) into plain warnings, which every text summary prints first
(each on a line beginning ``warning:``), the JSON carries as ``"warnings"`` and every
report page shows at its top.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.formatting import interval, percent
from balance.stats.intervals import wilson_interval

#: A run warns when at least this share of its games stopped at the cap.
CAP_SHARE = 0.05
PREFIX = "warning: "


def capped_warning(unfinished: int, games: int, cap: int | None, unit: str) -> str | None:
    """The warning for ``unfinished`` of ``games`` games stopped at the cap, or None.

    None below :data:`CAP_SHARE` (or with no games). The share comes with its Wilson
    interval and the number of games it rests on.
    """
    if games <= 0 or unfinished < CAP_SHARE * games:
        return None
    low, high = wilson_interval(unfinished, games)
    where = f"the cap of {cap} {unit}" if cap is not None else "the length cap"
    return (
        f"{unfinished:,} of {games:,} games ({percent(unfinished / games)} "
        f"{interval([float(low), float(high)])}) stopped unfinished at {where}: nobody won "
        "them, so every seat's win rate counts them as losses and their length is the "
        "cap's, not the game's"
    )


def no_winner_warning(won: np.ndarray) -> str | None:
    """The warning for a run in which no game had a winner, or None.

    Parameters
    ----------
    won : bool ``(G, n)``, which seats won each game.
    """
    won = np.asarray(won, dtype=bool)
    return _no_winner(int(won.shape[0]), bool(won.any()))


def _no_winner(games: int, any_win: bool) -> str | None:
    if games == 0 or any_win:
        return None
    return (
        f"none of the {games:,} games had a winner: the win rates cannot tell the "
        "seats apart and the balance index is not a number (n/a)"
    )


def run_warnings_from_counts(
    games: int, unfinished: int, wins: int, cap: int | None, unit: str
) -> list[str]:
    """:func:`run_warnings` from counts: ``games``, those ``unfinished`` and the seats'
    ``wins`` summed over games (a run that keeps no records)."""
    found = [capped_warning(unfinished, games, cap, unit), _no_winner(games, wins > 0)]
    return [text for text in found if text is not None]


def run_warnings(
    finished: np.ndarray, won: np.ndarray, cap: int | None, unit: str, label: str = ""
) -> list[str]:
    """Every warning about one run's games, without the ``warning:`` prefix.

    Parameters
    ----------
    finished : bool ``(G,)``, whether each game ended by the rules (not at the cap).
    won : bool ``(G, n)``, which seats won each game.
    cap : the length cap, in ``unit`` (None: the game has none).
    label : names the run in each warning (``"kraken: ..."``), for comparisons.
    """
    finished = np.asarray(finished, dtype=bool)
    found = [
        capped_warning(int((~finished).sum()), int(finished.size), cap, unit),
        no_winner_warning(won),
    ]
    return [f"{label}: {text}" if label else text for text in found if text is not None]


def warning_lines(warnings: Sequence[str]) -> list[str]:
    """The warnings as text lines, each beginning ``warning:``."""
    return [PREFIX + text for text in warnings]
