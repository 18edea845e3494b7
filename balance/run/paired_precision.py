"""``compare --precision H``: play every variant on the same games, block by block, until
each paired difference of a rate has a 95% anytime-valid interval at most H either side.

The variants play the same game indices in chunks of blocks; after each block (every
variant's games ``i .. i + 4095``) the differences game by game feed a confidence
sequence (:mod:`balance.stats.confseq`), so the stop falls on a whole block, in game order, the
same for any number of threads. The deciding figures are the differences of the rates
every game records (each seat's win rate, the share of games finished before the cap,
the shares of games with 0, 1 and 2 winners); the difference of the mean game length
gets an anytime-valid interval too, but a length in rounds is not held to a precision
meant for rates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from balance.core.errors import BalanceError
from balance.core.game import Block, Lineup, Setup
from balance.games import get_game
from balance.run.precision import BLOCK, Figure, PrecisionTracker
from balance.run.runner import RunResult, Sink, run_games
from balance.stats.confseq import BettingCS

#: Most blocks each variant plays before the next variant takes its turn (the first
#: turn plays 2 blocks, each turn after it twice as many, up to this).
CHUNK_BLOCKS = 16


def paired_names(players: int) -> list[str]:
    """The deciding rates, named as :func:`balance.stats.metrics.common_per_game` names them."""
    names = [f"seat {s} win rate" for s in range(players)]
    names.append("finished before the cap")
    names += [f"games with {k} winner{'s' if k != 1 else ''}" for k in range(min(players, 2) + 1)]
    return names


def _rates(block: Block) -> np.ndarray:
    """``(G, len(paired_names))`` per-game values of the deciding rates."""
    won = block.won.astype(float)
    winners = block.won.sum(axis=1)
    n = won.shape[1]
    columns = [won, block.finished.astype(float)[:, None]]
    columns += [(winners == k).astype(float)[:, None] for k in range(min(n, 2) + 1)]
    return np.concatenate(columns, axis=1)


def restricted_wins(won: np.ndarray, lineup: Lineup, first_game: int = 0) -> np.ndarray:
    """Whether the restricted seat of each game won: ``won[i, lineup.restriction_seat(i)]``.

    Parameters
    ----------
    won : bool ``(G, n)``, which seats won each of the games ``first_game ..``.
    lineup : the line-up of the restricted runs (its seating and ``n`` decide the seat;
        ``restricted`` may be empty, as in the unrestricted run it is paired with).

    Returns
    -------
    bool ``(G,)``.
    """
    won = np.asarray(won, dtype=bool)
    games, n = won.shape
    if n != len(lineup.seats):
        raise BalanceError(f"{n} seats of records for a line-up of {len(lineup.seats)}")
    seat = lineup.restriction_seat(first_game + np.arange(games))
    return won[np.arange(games), seat]


class CardTracker(PrecisionTracker):
    """Restricted play: for each card, the restricted seat's win in the run without the
    card minus the same seat's win in the unrestricted run, game by game."""

    def __init__(self, setups: Mapping[str, Setup], precision: float) -> None:
        super().__init__(precision)
        self.base, *self.cards = list(setups)
        self.lineups = {label: setup.lineup for label, setup in setups.items()}
        self.values = BettingCS(len(self.cards), -1.0, 1.0, target=precision)

    def sequences(self) -> Sequence[BettingCS]:
        return (self.values,)

    def update_pair(self, blocks: Mapping[str, Block]) -> None:
        first = blocks[self.base].first_game
        base = restricted_wins(blocks[self.base].won, self.lineups[self.base], first)
        columns = [
            restricted_wins(blocks[card].won, self.lineups[card], first).astype(float)
            - base.astype(float)
            for card in self.cards
        ]
        self.values.update(np.stack(columns, axis=1))

    def figures(self) -> list[Figure]:
        value = self.values.estimate
        low, high = self.values.interval()
        return [
            Figure(card, float(value[i]), float(low[i]), float(high[i]))
            for i, card in enumerate(self.cards)
        ]


class PairedTracker(PrecisionTracker):
    """Each later variant's paired differences from the first, game by game."""

    def __init__(
        self, labels: Sequence[str], players: int, cap: int | None, precision: float
    ) -> None:
        super().__init__(precision)
        self.base, *self.others = labels
        self.names = paired_names(players)
        self.rates = {
            label: BettingCS(len(self.names), -1.0, 1.0, target=precision) for label in self.others
        }
        self.cap = cap
        self.length = (
            {label: BettingCS(1, -float(cap), float(cap)) for label in self.others} if cap else {}
        )

    def sequences(self) -> Sequence[BettingCS]:
        return list(self.rates.values())

    def update_pair(self, blocks: Mapping[str, Block]) -> None:
        base = blocks[self.base]
        base_rates = _rates(base)
        for label in self.others:
            self.rates[label].update(_rates(blocks[label]) - base_rates)
            if self.cap:
                length = blocks[label].length.astype(float) - base.length.astype(float)
                self.length[label].update(length)

    def figures(self) -> list[Figure]:
        figures = []
        for label, cs in self.rates.items():
            value = cs.estimate
            low, high = cs.interval()
            figures += [
                Figure(f"{name}, {label}", float(value[i]), float(low[i]), float(high[i]))
                for i, name in enumerate(self.names)
            ]
        return figures

    def finish(self) -> None:
        super().finish()
        for cs in self.length.values():
            cs.refine()

    def intervals(self) -> dict[tuple[str, str], tuple[float, float]]:
        """``(variant, metric) -> (low, high)`` of every anytime-valid difference."""
        found = {}
        for label, cs in self.rates.items():
            low, high = cs.interval()
            for i, name in enumerate(self.names):
                found[(label, name)] = (float(low[i]), float(high[i]))
        for label, cs in self.length.items():
            low, high = cs.interval()
            found[(label, "game length")] = (float(low[0]), float(high[0]))
        return found


class LockstepTracker(Protocol):
    """What :func:`play_lockstep_until` follows: every set-up's block ``j`` together."""

    def update_pair(self, blocks: Mapping[str, Block]) -> None: ...

    def done(self) -> bool: ...

    def finish(self) -> None: ...


def play_paired_until(
    setups: Mapping[str, Setup],
    precision: float,
    max_games: int,
    *,
    threads: int | None = None,
    writers: Mapping[str, Sink] | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> tuple[dict[str, RunResult], PairedTracker]:
    """Play ``setups`` (a comparison's variants) on the same games until
    :class:`PairedTracker` is done or ``max_games``."""
    labels = list(setups)
    first = setups[labels[0]]
    cap = get_game(first.game).length_cap(first.rules)
    tracker = PairedTracker(labels, first.players, cap, precision)
    results = play_lockstep_until(
        setups,
        tracker,
        max_games,
        threads=threads,
        writers=writers,
        progress=progress,
        on_compile=on_compile,
    )
    return results, tracker


def play_lockstep_until(
    setups: Mapping[str, Setup],
    tracker: LockstepTracker,
    max_games: int,
    *,
    threads: int | None = None,
    writers: Mapping[str, Sink] | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> dict[str, RunResult]:
    """Play every set-up on the same game indices, in turns of whole blocks, and give
    ``tracker`` each block ``j`` of all of them together until it is done or
    ``max_games``; each result holds the kept blocks (slim) in game order, and
    ``writers`` (by label) get the kept blocks in full."""
    labels = list(setups)
    game = get_game(setups[labels[0]].game)
    results = {
        label: RunResult(setup=setup, requested=max_games, keep_records=False)
        for label, setup in setups.items()
    }
    start = 0
    done = False
    turn = 0
    while start < max_games and not done:
        size = min(BLOCK * min(CHUNK_BLOCKS, 2 << turn), max_games - start)
        turn += 1
        chunk: dict[str, RunResult] = {}
        for label, setup in setups.items():
            chunk[label] = run_games(
                setup,
                size,
                threads=threads,
                batch=BLOCK,
                progress=progress,
                on_compile=on_compile,
                first_game=start,
            )
            results[label].threads = chunk[label].threads
            results[label].elapsed_s += chunk[label].elapsed_s
            if chunk[label].partial:
                break
        common = min(len(played.blocks) for played in chunk.values())
        interrupted = len(chunk) < len(setups) or any(p.partial for p in chunk.values())
        for j in range(common if len(chunk) == len(setups) else 0):
            blocks = {label: chunk[label].blocks[j] for label in labels}
            tracker.update_pair(blocks)
            for label, block in blocks.items():
                results[label].blocks.append(game.slim(block))
                if writers and label in writers:
                    writers[label](block)
            if tracker.done():
                done = True
                break
        if interrupted:
            for result in results.values():
                result.partial = True
            break
        start += size
    tracker.finish()
    return results


def apply_anytime(table: Any, tracker: PairedTracker) -> None:
    """Replace the paired-t intervals of ``table`` (:func:`balance.stats.metrics.paired_table`)
    with the tracker's anytime-valid ones, where it has them; marks them ``anytime``.

    Each stays at least as wide as the paired t interval it replaces, on either side (a
    sequence valid at every number of games is wider than an interval valid at one; were
    it narrower on a side, the t bound is kept there), so it always holds its estimate.
    Such a row stays ``significant`` only if its anytime-valid interval is clear of 0 too.
    """
    found = tracker.intervals()
    keys = list(zip(table["run"], table["metric"], strict=True))
    here = np.array([key in found for key in keys], dtype=bool)
    table["anytime"] = here
    if here.any():
        bounds = np.array([found[key] for key, hit in zip(keys, here, strict=True) if hit])
        table.loc[here, "diff_low"] = np.fmin(bounds[:, 0], table.loc[here, "diff_low"])
        table.loc[here, "diff_high"] = np.fmax(bounds[:, 1], table.loc[here, "diff_high"])
        if "significant" in table:
            # A star (a filled point) never sits on an interval that holds 0: a row with an
            # anytime-valid interval stays significant only if that interval is clear of 0.
            clear = (table["diff_low"] > 0) | (table["diff_high"] < 0)
            table["significant"] = table["significant"].astype(bool) & (~here | clear)
