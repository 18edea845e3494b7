"""Games ``balance simulate --precision H`` plays, against the games a fixed-n interval needs.

For each case (a game, its players, every seat the uniform-random player) and each H, the
run plays blocks of 4,096 games until every seat's win rate and the balance index have a
95% anytime-valid interval at most H either side (:func:`balance.run.precision.play_until`
with a :class:`~balance.run.precision.SeatTracker`), from a few seeds; the balance index
decides the stop. The fixed-n count is the number of games at which the run's own fixed-n
interval of the index (:func:`balance.stats.metrics.balance_index_from_moments`,
simultaneous normal intervals of the seats' gaps) is H either side, found by bisection
(to 1%) from the true outcomes: each pattern of winners' share of the games of a long
reference run from another seed. ``fixed-n`` is where the median half-width over 100 data
sets drawn from those outcomes reaches H: what a fixed-n run needs. ``at truth`` is
where the half-width computed at the true rates themselves does, fewer games when seats
are nearly tied (the largest of several noisy gaps overshoots the true largest, which
the first count includes and this one leaves out). Each ratio is the mean of the games
played over that count.

Run from the repository root::

    python scripts/bench_precision.py             # 10 seeds, as docs/precision.md shows
    python scripts/bench_precision.py --seeds 3 --reference-games 1000000   # quicker

It prints the machine, then one row a case and H: the games each seed played, their mean,
the two fixed-n counts with their ratios, and which figure stopped the runs; then the
seconds the sequences' bookkeeping took (the games themselves excluded). About 20 minutes
on two cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from balance.core.game import Block, Setup
from balance.run.machine import one_line as machine
from balance.run.play import make_setup
from balance.run.precision import BLOCK, SeatTracker, play_until
from balance.stats.metrics import balance_index_from_moments

#: (game, players): every seat the uniform-random player.
CASES = [("walk-the-plank", 4), ("walk-the-plank", 5), ("lifeboats", 4)]
PRECISIONS = [0.01, 0.005]
#: The reference run's seed: far from the seeds the precision runs use.
REFERENCE_SEED = 2**40
#: Data sets drawn from the true outcomes for each fixed-n half-width.
SAMPLES = 100


@dataclass
class Outcomes:
    """Sink of a reference run: how many games each pattern of winners had (a pattern a
    bit mask of the seats that won)."""

    players: int
    counts: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.counts = np.zeros(2**self.players)

    def update(self, block: Block) -> None:
        code = np.asarray(block.won, dtype=np.int64) @ (1 << np.arange(self.players))
        self.counts += np.bincount(code, minlength=self.counts.size)

    def done(self) -> bool:
        return False

    def truth(self) -> tuple[np.ndarray, np.ndarray]:
        """Each pattern's share of games ``(2^n,)`` and the patterns, 0/1 ``(2^n, n)``."""
        patterns = (np.arange(self.counts.size)[:, None] >> np.arange(self.players)) & 1
        return self.counts / self.counts.sum(), patterns.astype(float)


def half_width(games: int, wins: np.ndarray, both: np.ndarray) -> float:
    """The fixed-n index interval's half-width from ``games`` games' seat wins and shared
    wins (exact covariance, as ``balance simulate`` computes it)."""
    rates = wins / games
    covariance = (both - games * np.outer(rates, rates)) / (games - 1)
    result = balance_index_from_moments(games, rates, covariance, draws=4_000, seed=0)
    return (result["high"] - result["low"]) / 2


def fewest_games(width: Callable[[int], float], precision: float) -> int:
    """The fewest games whose ``width(games)`` is at most ``precision`` (bisection, 1%)."""
    low, high = 64, 2**26
    while high > 1.01 * low:
        middle = int(math.sqrt(low * high))
        low, high = (low, middle) if width(middle) <= precision else (middle, high)
    return high


def fixed_games(chances: np.ndarray, patterns: np.ndarray, precision: float) -> tuple[int, int]:
    """Games the fixed-n index interval needs for ``precision``: the median half-width
    over :data:`SAMPLES` data sets drawn from the true outcomes, and the half-width at
    the true rates themselves (which leaves out how the largest of several noisy gaps
    overshoots the true one when seats are nearly tied)."""

    def sampled(games: int) -> float:
        rng = np.random.default_rng(0)
        widths = []
        for _ in range(SAMPLES):
            counts = rng.multinomial(games, chances)
            wins = counts @ patterns
            widths.append(half_width(games, wins, patterns.T @ (counts[:, None] * patterns)))
        return float(np.median(widths))

    def at_truth(games: int) -> float:
        wins = games * (chances @ patterns)
        return half_width(games, wins, games * (patterns.T @ (chances[:, None] * patterns)))

    return fewest_games(sampled, precision), fewest_games(at_truth, precision)


def reference(setup: Setup, games: int) -> tuple[np.ndarray, np.ndarray]:
    outcomes = Outcomes(setup.players)
    seeded = dataclasses.replace(setup, seed=REFERENCE_SEED)
    play_until(seeded, outcomes, games, sums_only=True)
    return outcomes.truth()


class Timed(SeatTracker):
    """A :class:`SeatTracker` that counts the seconds its bookkeeping takes."""

    seconds = 0.0

    def update(self, block: Block) -> None:
        start = time.perf_counter()
        super().update(block)
        Timed.seconds += time.perf_counter() - start

    def done(self) -> bool:
        start = time.perf_counter()
        answer = super().done()
        Timed.seconds += time.perf_counter() - start
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="precision runs a case and H")
    parser.add_argument("--reference-games", type=int, default=2_000_000)
    parser.add_argument("--max-games", type=int, default=4_000_000)
    args = parser.parse_args()

    print(machine())
    print(
        f"blocks of {BLOCK:,} games; fixed-n from {args.reference_games:,} reference games "
        f"(seed {REFERENCE_SEED}); {args.seeds} seeds a row"
    )
    print(
        f"{'case':<20} {'H':>6}  {'games a seed':<30} {'mean':>8} {'fixed-n':>8} {'ratio':>6}"
        f"  {'at truth':>8} {'ratio':>6}  stopped by"
    )
    ratios = []
    for game, players in CASES:
        setup = make_setup(game, players)
        chances, patterns = reference(setup, args.reference_games)
        for h in PRECISIONS:
            played, stops = [], []
            for seed in range(args.seeds):
                tracker = Timed(players, h)
                run = play_until(
                    dataclasses.replace(setup, seed=seed),
                    tracker,
                    args.max_games,
                    threads=2,
                    sums_only=True,
                )
                tracker.finish()
                played.append(run.games)
                stops.append(tracker.stopped_by)
            mean = float(np.mean(played))
            fixed, at_truth = fixed_games(chances, patterns, h)
            ratios.append(mean / fixed)
            stopped = ", ".join(sorted(set(map(str, stops))))
            games_text = " ".join(f"{g:,}" for g in played)
            print(
                f"{game + ' ' + str(players) + 'p':<20} {h:>6g}  {games_text:<30} {mean:>8,.0f} "
                f"{fixed:>8,} {mean / fixed:>6.2f}  {at_truth:>8,} {mean / at_truth:>6.2f}  "
                f"{stopped}"
            )
    print(
        f"games played / fixed-n: mean {np.mean(ratios):.2f}, largest {max(ratios):.2f}; "
        f"the sequences' bookkeeping took {Timed.seconds:.1f} s"
    )


if __name__ == "__main__":
    main()
