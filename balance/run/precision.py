"""Play until precise enough: blocks of games until every headline figure's anytime-valid
95% interval is at most ``H`` either side of its estimate, or until a most games.

The intervals are confidence sequences (:mod:`balance.stats.confseq`): they may be read after
every block and the run stopped on what they show without losing their 95%. The blocks
have a fixed size and the stop is decided on whole blocks in game order, so a seed gives
the same games, figures and stop whatever the number of threads.

:func:`play_until` is the loop; a *tracker* says what is followed and when it is enough.
:class:`SeatTracker` follows the seats' win rates and the balance index
(``balance simulate --precision``); ``balance sweep --precision`` feeds one a point with
its blocks' tallies (:meth:`SeatTracker.update_counts`), in game order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from balance.core.errors import BalanceError
from balance.core.game import Block, Setup
from balance.run.runner import MAX_GAMES, RunResult, Sink, run_games
from balance.stats.confseq import BettingCS, LargestGapCS
from balance.stats.intervals import LEVEL

#: Games a block: the stop is looked at after each one.
BLOCK = 4096
#: The most games a run may play when none is given.
DEFAULT_MAX_GAMES = 10_000_000
#: The finest precision taken: a share near 1/2 would need about 10^8 games below it.
FINEST = 1e-4
#: The coarsest: half of the range of a share.
COARSEST = 0.5


def check_precision(precision: float, max_games: int) -> None:
    """A one-line error unless ``precision`` is a sensible half-width and ``max_games`` a
    number of games the runner takes."""
    if isinstance(precision, bool) or not isinstance(precision, int | float):
        raise BalanceError(f"--precision must be a number, not {precision!r}")
    if not precision == precision or not FINEST <= precision < COARSEST:
        raise BalanceError(
            f"--precision is the half-width of the 95% intervals (0.005: half a point), "
            f"from {FINEST:g} to below {COARSEST:g}, not {precision:g}"
        )
    if isinstance(max_games, bool) or not isinstance(max_games, int):
        raise BalanceError(f"--max-games must be a whole number, not {max_games!r}")
    if not 1 <= max_games <= MAX_GAMES:
        raise BalanceError(f"--max-games must be from 1 to {MAX_GAMES:,}, not {max_games:,}")


@dataclass(frozen=True)
class Figure:
    """One followed figure: its estimate and its anytime-valid interval."""

    name: str
    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


class Tracker(Protocol):
    """What :func:`play_until` follows: fed every block in game order, asked after each."""

    def update(self, block: Block) -> None: ...

    def done(self) -> bool: ...


class PrecisionTracker:
    """Base of the trackers that stop at a precision: subclasses feed confidence
    sequences and list their figures; this class decides the stop.

    Attributes
    ----------
    precision : the half-width every figure must reach.
    stopped_by : after the stop, the figure that reached it last (the widest one then),
        or ``"max_games"`` when the run ended first.
    """

    def __init__(self, precision: float) -> None:
        self.precision = precision
        self.stopped_by: str | None = None

    def sequences(self) -> Sequence[BettingCS]:
        raise NotImplementedError

    def update(self, block: Block) -> None:
        raise NotImplementedError

    def figures(self) -> list[Figure]:
        raise NotImplementedError

    def done(self) -> bool:
        """True once every figure is within the precision (refining the edges first when
        the grid alone leaves it in doubt)."""
        slack = max(2 * cs.step * cs.span for cs in self.sequences())
        widest = max(f.half_width for f in self.figures())
        if widest > self.precision + 2 * slack:
            return False
        for cs in self.sequences():
            cs.refine()
        figures = self.figures()
        widest_figure = max(figures, key=lambda f: f.half_width)
        if widest_figure.half_width <= self.precision:
            self.stopped_by = widest_figure.name
            return True
        return False

    def finish(self) -> None:
        """Refine every interval once the run is over; name ``max_games`` if it decided."""
        for cs in self.sequences():
            cs.refine()
        if self.stopped_by is None:
            self.stopped_by = "max_games"


class SeatTracker(PrecisionTracker):
    """The seats' win rates, each at 95%, and the balance index at 95% on a sequence of
    its own (:class:`~balance.stats.confseq.LargestGapCS`: the pairs of seats' win
    differences, no union bound over the seats).

    Every stake is sized for the run's planned stop (:meth:`planned_games`, from the
    blocks before it): the games after which every interval should be within the
    precision, where a bet sized for that many games reaches furthest.
    """

    def __init__(self, players: int, precision: float) -> None:
        super().__init__(precision)
        self.players = players
        self.seats = BettingCS(players, binary=True)
        self.gap = LargestGapCS(players)

    def sequences(self) -> Sequence[BettingCS]:
        return (self.seats, *self.gap.sequences())

    def update(self, block: Block) -> None:
        won = np.asarray(block.won, dtype=float)
        self.update_counts(won.shape[0], won.sum(axis=0), won.T @ won)

    def planned_games(self) -> float:
        """Games after which every interval should be within the precision, from the
        blocks so far: a seat's when its bet, sized for that many games, reaches ``H``
        (``2 log(2 / alpha) variance / H^2``), the index's by
        :meth:`~balance.stats.confseq.LargestGapCS.planned_games`."""
        alpha = 1 - LEVEL
        seats = 2 * math.log(2 / alpha) * float(self.seats.variance().max()) / self.precision**2
        return max(seats, self.gap.planned_games(self.precision))

    def update_counts(self, games: int, wins: np.ndarray, both: np.ndarray | None = None) -> None:
        """Add a block of ``games`` games from each seat's wins in it, ``(players,)``, and
        the games each pair of seats both won, ``(players, players)``.

        A win is 0 or 1, so a block's sum and sum of squares are both its count of wins:
        a sweep feeds its blocks' tallies here and stops where ``simulate`` would. Without
        ``both`` (shared wins unknown) the index's sequence assumes as few shared wins as
        the counts allow: still valid, wider for a game where seats win together.
        """
        if games:
            planned = max(self.planned_games(), float(self.seats.games + games))
            wins = np.asarray(wins, dtype=float)
            stake = self.seats.planned_stake(planned, (1 - LEVEL) / 2)
            self.seats.update_sums(games, wins, wins, stake=stake)
            self.gap.update_counts(games, wins, both, planned)

    def figures(self) -> list[Figure]:
        rate = self.seats.estimate
        low, high = self.seats.interval()
        figures = [
            Figure(f"seat {s}", float(rate[s]), float(low[s]), float(high[s]))
            for s in range(self.players)
        ]
        index = float("nan")
        if self.seats.games and (rate > 0).any():
            index = float(1 - (rate.max() - rate.min()))
        index_low, index_high = self.gap.index_interval()
        figures.append(Figure("balance index", index, index_low, index_high))
        return figures


def play_until(
    setup: Setup,
    tracker: Tracker,
    max_games: int = DEFAULT_MAX_GAMES,
    *,
    threads: int | None = None,
    sinks: Sequence[Sink] = (),
    keep_records: bool = False,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
    sums_only: bool = False,
) -> RunResult:
    """Play blocks of :data:`BLOCK` games of ``setup`` until ``tracker.done()`` or
    ``max_games``; ``tracker.update`` sees every block kept, in game order.

    ``sums_only`` keeps running sums instead of slim blocks (:func:`balance.run.runner.run_games`).
    ``result.requested`` is ``max_games``; the run is not partial when the tracker
    stopped it.
    """
    return run_games(
        setup,
        max_games,
        threads=threads,
        batch=BLOCK,
        sinks=[*sinks, tracker.update],
        keep_records=keep_records,
        progress=progress,
        on_compile=on_compile,
        stop=tracker.done,
        sums_only=sums_only,
        slim_sinks=not sinks,  # the tracker reads what the summary reads
    )


def add_precision(summary: dict[str, Any], tracker: SeatTracker, max_games: int) -> None:
    """Put the anytime-valid intervals of the seats and the balance index in ``summary``
    (``simulate --json``), with ``anytime_valid``, ``stopped_by``, ``precision``."""
    figures = tracker.figures()
    for row, figure in zip(summary["seat_win_rate"], figures, strict=False):
        row["ci95"] = [figure.low, figure.high]
    index = figures[-1]
    if summary["balance_index"] == summary["balance_index"]:
        summary["balance_index_ci95"] = [index.low, index.high]
    summary["anytime_valid"] = True
    summary["anytime_figures"] = ["seat_win_rate", "balance_index"]
    summary["precision"] = tracker.precision
    summary["max_games"] = max_games
    summary["stopped_by"] = tracker.stopped_by
    summary["widest_half_width"] = max(f.half_width for f in figures)


def precision_lines(summary: dict[str, Any]) -> list[str]:
    """How a precision run stopped, for the text summary."""
    h = summary["precision"]
    games = summary["games"]
    if summary["stopped_by"] == "max_games":
        return [
            f"Stopped at --max-games ({games:,} games) before every figure reached "
            f"+/-{h:g}: the widest is +/-{summary['widest_half_width']:.4f}.",
            "Seat win rates and balance index: 95% anytime-valid intervals "
            "(confidence sequences); other intervals are fixed-n.",
        ]
    return [
        f"Stopped after {games:,} games: every seat win rate and the balance index within "
        f"+/-{h:g} (the last to get there: {summary['stopped_by']}).",
        "Seat win rates and balance index: 95% anytime-valid intervals "
        "(confidence sequences); other intervals are fixed-n.",
    ]
