"""Anytime-valid confidence sequences for means of bounded per-game values.

A fixed-n interval (Wilson, Student t) covers the truth 95% of the time only if the
number of games was fixed before looking. Looking after every block and stopping when
the interval is narrow enough, or as soon as it leaves a target band, covers far less
often. A *confidence sequence* holds the truth at every number of games at once with
probability 95%, so it may be read after every block and the run stopped whenever one
likes (Howard, Ramdas, McAuliffe and Sekhon, Annals of Statistics 49, 2021).

The sequences here are the *betting* confidence sequences of Waudby-Smith and Ramdas
(JRSS B 86, 2024; arXiv 2010.09686): for each candidate mean ``m`` a gambler bets
against it, game after game, with a stake fixed before the game is seen; the hedged
capital ``(K+(m) + K-(m)) / 2`` is a nonnegative martingale when ``m`` is the truth,
so by Ville's inequality it ever reaches ``1 / alpha`` with probability at most
``alpha``, and every ``m`` whose capital has done so is ruled out for good.

Games come in blocks, and the stake is the same for every game of a block (chosen from
the blocks before it), so the capital needs only each block's count, sum and sum of
squares. For values that are 0 or 1 (a seat won or not), or -1, 0 or 1 (one seat's win
less another's), the capital is exact; for other bounded values it is the lower bound of
Fan, Grama and Liu (2015),
``log(1 + u z) >= u z + (log(1 - u) + u) z^2`` for ``z >= -1`` and ``0 <= u < 1``, which
keeps the capital a nonnegative supermartingale: the sequence stays valid and a little
conservative. Candidate means live on a grid (rescaled to ``[0, 1]``); once the interval
spans few of its points, the grid is laid afresh over the interval alone and its
capital recomputed from the blocks' sums, so the interval can narrow far below the first
grid's step (a length difference over ``[-cap, cap]`` is known to hundredths of a round
long before its first grid, 2 cap / 2048 apart, could tell). The two edges are then
refined by bisection on the blocks' sums. The reported interval is the running
intersection of every interval so far.

The balance index, 1 - the largest gap between seats' win rates, is not a mean of one
value a game: :class:`LargestGapCS` builds its sequence from the pairs of seats' win
differences, at 95% on its own (no union bound over the seats).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from balance.stats.intervals import LEVEL

#: Candidate means on the grid (rescaled to [0, 1]); the edges are then refined.
GRID = 2049
#: Largest share of the capital a bet may stake against a candidate mean.
TRUNCATION = 0.5
#: Below this many surviving candidates, the grid is laid afresh over the interval.
FEW = 64


def _psi_over_square(u: np.ndarray) -> np.ndarray:
    """``(log(1 - u) + u) / u^2`` for ``0 <= u < 1``, -1/2 at 0; shape of ``u``."""
    u = np.asarray(u, dtype=float)
    small = u < 1e-4
    safe = np.where(small, 0.5, u)
    exact = (np.log1p(-safe) + safe) / safe**2
    return np.where(small, -0.5 - u / 3 - u**2 / 4, exact)


@dataclass(frozen=True)
class BlockSums:
    """What a block tells the gambler: ``(J,)`` counts and ``(J, k)`` sums, squares, stakes."""

    size: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    stake: np.ndarray


class BettingCS:
    """Confidence sequences for the means of ``k`` bounded streams, read after any block.

    Parameters
    ----------
    k : streams (figures) followed together, one value of each per game.
    low, high : bounds every value lies within (a seat's win is in ``[0, 1]``, a paired
        difference of wins in ``[-1, 1]``, a length in ``[0, cap]``).
    level : coverage over all times at once (0.95: the chance that the truth ever leaves
        the sequence is at most 5%).
    binary : values are only ``low`` or ``high``: the capital is then exact.
    ternary : values are only ``low``, ``high`` or halfway between (a difference of two
        wins, -1, 0 or 1): the capital is exact too, the three counts being known from a
        block's sum and sum of squares.
    target : the half-width (in the values' units) the run is meant to reach, if one is
        known: each bet is then sized to rule out means that far from the estimate as
        early as possible (``H / variance``). Without one, the stake shrinks with the
        games played as in Waudby-Smith and Ramdas's predictable plug-in
        ``sqrt(2 log(2 / alpha) / (variance t log(1 + t)))``. A block may instead be given
        its stakes (:meth:`update_sums`, :meth:`planned_stake`).
    sides : ``(alpha_low, alpha_high)`` instead of ``level``: two one-sided sequences,
        the lower edge passing above the truth at some time with probability at most
        ``alpha_low``, the upper edge below it with at most ``alpha_high``, each edge
        ruled by its own bet (``alpha_low`` or ``alpha_high`` 0: that edge stays at its
        bound). Without, the two bets are hedged, ``(K+ + K-) / 2``, at ``level``.
    """

    def __init__(
        self,
        k: int,
        low: float = 0.0,
        high: float = 1.0,
        *,
        level: float = LEVEL,
        binary: bool = False,
        ternary: bool = False,
        target: float | None = None,
        grid: int = GRID,
        sides: tuple[float, float] | None = None,
    ) -> None:
        if not high > low:
            raise ValueError(f"the bounds must satisfy low < high, not {low}, {high}")
        if not 0 < level < 1:
            raise ValueError(f"the level must be between 0 and 1, not {level}")
        if sides is not None and not (all(0 <= a < 1 for a in sides) and 0 < sum(sides) < 1):
            raise ValueError(f"each side's alpha must be in [0, 1), not {sides}")
        self.k = k
        self.low = float(low)
        self.span = float(high) - float(low)
        self.alpha = 1.0 - level if sides is None else float(sum(sides))
        self.binary = binary
        self.ternary = ternary and not binary
        self.sides = sides
        self.target = None if target is None else target / self.span
        # One grid a stream, ``(k, grid)``: each is laid afresh over its own interval.
        self.m = np.tile(np.linspace(0.0, 1.0, grid), (k, 1))
        self._threshold = math.log(1.0 / self.alpha)
        # One-sided: the log capital each bet must reach (inf: that side never rules out).
        self._side_thresholds = (
            None
            if sides is None
            else tuple(math.log(1.0 / a) if a > 0 else math.inf for a in sides)
        )
        self._log_plus = np.zeros((k, grid))
        self._log_minus = np.zeros((k, grid))
        self._ruled_out = np.zeros((k, grid), dtype=bool)
        self.games = 0
        self._total = np.zeros(k)
        self._squares = np.zeros(k)
        self._blocks: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        self._lo = np.zeros(k)  # running intersection, rescaled
        self._hi = np.ones(k)

    # -- betting ---------------------------------------------------------------------
    def variance(self) -> np.ndarray:
        """The running variance of each stream's values (rescaled to ``[0, 1]``) that the
        stakes are sized by, ``(k,)``: the games so far with a pseudo-game of variance
        1/4 (so a stream that never varied yet is not bet on as a certainty)."""
        n = self.games
        mean = (0.5 + self._total) / (n + 1)
        spread = np.maximum(self._squares - 2 * mean * self._total + n * mean**2, 0.0)
        return np.maximum((0.25 + spread) / (n + 1), 1e-6)

    def planned_stake(self, games: float, alpha: float) -> np.ndarray:
        """The stake, ``(k,)``, that rules out means farthest from the estimate after
        ``games`` games, one bet of error ``alpha``: ``sqrt(2 log(1 / alpha) / (games
        variance))``. Over ``n`` games at a fixed stake ``l`` a bet rules out means
        ``log(1 / alpha) / (l n) + l variance / 2`` from the mean (Gaussian
        approximation), least at this stake, ``sqrt(2 variance log(1 / alpha) / n)``.
        Sized from the blocks so far, it may be given to the next block
        (:meth:`update_sums`)."""
        return np.sqrt(2 * math.log(1 / alpha) / (max(games, 1.0) * self.variance()))

    def _stake(self, size: int, target: np.ndarray | float | None = None) -> np.ndarray:
        """The stake of the next block, ``(k,)``, from the blocks before it only.

        ``target``: a half-width (rescaled) this block aims at, such as the distance to a
        band's edge: the stake is then the geometric mean of the stake aimed at it and
        the plug-in stake, a hedge between betting for that distance alone (best when
        the estimate of it is good) and the plug-in's shrinking bets (best early on).
        """
        n = self.games
        variance = self.variance()
        if target is None and self.target is not None:
            return np.full(self.k, self.target) / variance
        t = n + size
        plug_in = np.sqrt(2 * math.log(2 / self.alpha) / (variance * t * math.log1p(t)))
        if target is None:
            return plug_in
        aimed = np.broadcast_to(np.asarray(target, dtype=float), (self.k,)) / variance
        return np.sqrt(aimed * plug_in)

    def _log_capital(
        self,
        m: np.ndarray,
        size: np.ndarray,
        total: np.ndarray,
        squares: np.ndarray,
        stake: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Log capital of the bets on ``m`` being too low (+) and too high (-).

        All arguments broadcast together (blocks on any axis the caller sums over).
        """
        with np.errstate(divide="ignore"):
            up = np.minimum(stake, np.where(m > 0, TRUNCATION / np.maximum(m, 1e-300), np.inf))
            down = np.minimum(
                stake, np.where(m < 1, TRUNCATION / np.maximum(1 - m, 1e-300), np.inf)
            )
        if self.binary:
            plus = total * np.log1p(up * (1 - m)) + (size - total) * np.log1p(-up * m)
            minus = total * np.log1p(-down * (1 - m)) + (size - total) * np.log1p(down * m)
            return plus, minus
        if self.ternary:  # counts of 1, 1/2 and 0 from the sums of x and of x^2
            ones = np.rint(2 * squares - total)
            halves = np.rint(4 * (total - squares))
            zeros = size - ones - halves
            plus = (
                ones * np.log1p(up * (1 - m))
                + halves * np.log1p(up * (0.5 - m))
                + zeros * np.log1p(-up * m)
            )
            minus = (
                ones * np.log1p(-down * (1 - m))
                + halves * np.log1p(-down * (0.5 - m))
                + zeros * np.log1p(down * m)
            )
            return plus, minus
        drift = total - size * m
        spread = squares - 2 * m * total + size * m**2
        plus = up * drift + up**2 * _psi_over_square(up * m) * spread
        minus = -down * drift + down**2 * _psi_over_square(down * (1 - m)) * spread
        return plus, minus

    def _rejects(self, plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
        if self._side_thresholds is not None:
            low_side, high_side = self._side_thresholds
            return (plus >= low_side) | (minus >= high_side)
        return np.logaddexp(plus, minus) - math.log(2.0) >= self._threshold

    def update(self, values: np.ndarray) -> None:
        """Add a block of games: ``values`` ``(b, k)`` (or ``(b,)`` when ``k`` is 1)."""
        x = (np.asarray(values, dtype=float) - self.low) / self.span
        if x.ndim == 1:
            x = x[:, None]
        if x.shape[1] != self.k:
            raise ValueError(f"expected {self.k} values a game, not {x.shape[1]}")
        if x.size and (x.min() < -1e-9 or x.max() > 1 + 1e-9):
            raise ValueError("a value lies outside the bounds given to the sequence")
        x = np.clip(x, 0.0, 1.0)
        if self.ternary and x.size and np.abs(2 * x - np.rint(2 * x)).max() > 1e-9:
            raise ValueError("a ternary sequence takes its bounds and their midpoint only")
        if x.shape[0]:
            self.update_sums(x.shape[0], x.sum(axis=0), (x * x).sum(axis=0))

    def update_sums(
        self,
        size: int,
        total: np.ndarray,
        squares: np.ndarray,
        target: np.ndarray | float | None = None,
        stake: np.ndarray | float | None = None,
    ) -> None:
        """Add a block of ``size`` games from its sums, ``(k,)`` each, of the values
        rescaled to ``[0, 1]`` (``(x - low) / (high - low)``) and of their squares.

        ``target``: the half-width, in the values' units, this block's bet aims at (a
        scalar or ``(k,)``; see :meth:`_stake`). ``stake``: the block's stakes themselves
        (``(k,)``, per unit of the rescaled values, such as :meth:`planned_stake`'s),
        instead. Either must be chosen before the block is seen (from the blocks before
        it), as every stake is: the sequence stays valid whatever it is.
        """
        total = np.broadcast_to(np.asarray(total, dtype=float), (self.k,))
        squares = np.broadcast_to(np.asarray(squares, dtype=float), (self.k,))
        if stake is None:
            goal = None if target is None else np.asarray(target, dtype=float) / self.span
            stake = self._stake(size, goal)
        else:
            stake = np.broadcast_to(np.asarray(stake, dtype=float), (self.k,)).copy()
        plus, minus = self._log_capital(
            self.m, size, total[:, None], squares[:, None], stake[:, None]
        )
        self._log_plus += plus
        self._log_minus += minus
        self._ruled_out |= self._rejects(self._log_plus, self._log_minus)
        self._blocks.append((size, total.copy(), squares.copy(), stake))
        self.games += size
        self._total += total
        self._squares += squares
        self._coarse()

    # -- reading ---------------------------------------------------------------------
    @property
    def step(self) -> float:
        """The widest grid step of any stream (rescaled to ``[0, 1]``)."""
        return float((self.m[:, 1] - self.m[:, 0]).max())

    def _coarse(self) -> None:
        """Narrow the running interval to the grid's surviving candidates (conservative),
        laying a finer grid over any interval that spans fewer than :data:`FEW` of them."""
        for _ in range(8):  # each pass narrows a crowded stream's step ~ grid / FEW times
            self._narrow()
            alive = (~self._ruled_out).sum(axis=1)
            crowded = np.flatnonzero((alive < FEW) & (self._hi - self._lo > 1e-12))
            if not crowded.size:
                return
            self._regrid(crowded)

    def _narrow(self) -> None:
        rows = np.arange(self.k)
        alive = ~self._ruled_out
        any_alive = alive.any(axis=1)
        size = self.m.shape[1]
        first = np.where(any_alive, alive.argmax(axis=1), 0)
        last = np.where(any_alive, size - 1 - alive[:, ::-1].argmax(axis=1), 0)
        if not any_alive.all():
            # Every candidate ruled out: the set (if any) lies between two neighbours of
            # the least-ruled-out one, where the capital is lowest.
            least = (np.logaddexp(self._log_plus, self._log_minus)).argmin(axis=1)
            first = np.where(any_alive, first, least)
            last = np.where(any_alive, last, least)
        lo = self.m[rows, np.maximum(first - 1, 0)]
        hi = self.m[rows, np.minimum(last + 1, size - 1)]
        self._lo = np.maximum(self._lo, lo)
        self._hi = np.minimum(self._hi, hi)
        self._hi = np.maximum(self._hi, self._lo)

    def _regrid(self, streams: np.ndarray) -> None:
        """Lay each of ``streams``' grid over its running interval and recompute its
        capital there, block by block, from every block so far: a new candidate is ruled
        out if its capital ever reached ``1 / alpha``, as if it had been on the grid from
        the start."""
        size = np.array([b[0] for b in self._blocks], dtype=float)[:, None]
        for i in streams:
            m = np.linspace(self._lo[i], self._hi[i], self.m.shape[1])
            plus = np.zeros_like(m)
            minus = np.zeros_like(m)
            ever = np.zeros(m.shape, dtype=bool)
            for start in range(0, len(self._blocks), 256):  # bounded memory
                part = self._blocks[start : start + 256]
                p, q = self._log_capital(
                    m[None, :],
                    size[start : start + 256],
                    np.array([b[1][i] for b in part])[:, None],
                    np.array([b[2][i] for b in part])[:, None],
                    np.array([b[3][i] for b in part])[:, None],
                )
                p, q = plus + np.cumsum(p, axis=0), minus + np.cumsum(q, axis=0)
                ever |= self._rejects(p, q).any(axis=0)
                plus, minus = p[-1], q[-1]
            self.m[i] = m
            self._log_plus[i] = plus
            self._log_minus[i] = minus
            self._ruled_out[i] = ever

    def within(self, low: np.ndarray | float, high: np.ndarray | float) -> None:
        """Intersect each running interval with ``[low, high]`` (values' units, scalars or
        ``(k,)``), known to hold what the sequence follows whenever some other sequence
        does; the grid is then laid afresh over what is left. A sequence that bets on one
        side only (one of ``sides`` 0) never moves its other edge by itself: this is how
        its grid comes to be fine near the edge that does move."""
        lo = (np.broadcast_to(np.asarray(low, dtype=float), (self.k,)) - self.low) / self.span
        hi = (np.broadcast_to(np.asarray(high, dtype=float), (self.k,)) - self.low) / self.span
        self._lo = np.clip(np.maximum(self._lo, lo), 0.0, 1.0)
        self._hi = np.clip(np.minimum(self._hi, hi), 0.0, 1.0)
        self._hi = np.maximum(self._hi, self._lo)
        self._ruled_out |= (self.m < self._lo[:, None]) | (self.m > self._hi[:, None])
        self._coarse()

    def refine(self, iterations: int = 30) -> None:
        """Bisect each edge of the running interval against the blocks' capital."""
        if not self._blocks:
            return
        size = np.array([b[0] for b in self._blocks], dtype=float)[:, None]
        total = np.stack([b[1] for b in self._blocks])
        squares = np.stack([b[2] for b in self._blocks])
        stake = np.stack([b[3] for b in self._blocks])

        def ruled_out(m: np.ndarray) -> np.ndarray:  # m (k,) -> (k,)
            plus, minus = self._log_capital(m[None, :], size, total, squares, stake)
            return self._rejects(plus.sum(axis=0), minus.sum(axis=0))

        for edge in ("lo", "hi"):
            outer = self._lo.copy() if edge == "lo" else self._hi.copy()
            step = self.m[:, 1] - self.m[:, 0]
            inner = np.clip(outer + (step if edge == "lo" else -step), 0.0, 1.0)
            inner = np.minimum(inner, self._hi) if edge == "lo" else np.maximum(inner, self._lo)
            # Only where the outer edge is ruled out now and the inner one is not.
            active = ruled_out(outer) & ~ruled_out(inner)
            a, b = outer.copy(), inner.copy()
            for _ in range(iterations):
                middle = (a + b) / 2
                out = ruled_out(middle)
                a = np.where(out, middle, a)
                b = np.where(out, b, middle)
            if edge == "lo":
                self._lo = np.where(active, np.maximum(self._lo, a), self._lo)
            else:
                self._hi = np.where(active, np.minimum(self._hi, a), self._hi)

    @property
    def estimate(self) -> np.ndarray:
        """The means so far, ``(k,)`` (NaN before any game)."""
        if not self.games:
            return np.full(self.k, np.nan)
        return self.low + self.span * self._total / self.games

    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        """The running interval, ``(low (k,), high (k,))`` in the values' units."""
        return self.low + self.span * self._lo, self.low + self.span * self._hi

    def half_width(self) -> np.ndarray:
        """Half the width of each interval, ``(k,)``, in the values' units."""
        return self.span * (self._hi - self._lo) / 2


#: The share of a largest gap's error spent on its upper edge (the balance index's lower
#: end); the rest goes to its lower edge. Half: a stop decided by both edges (seats
#: clear of each other) is then earliest; when seats are nearly tied the lower edge is
#: 0 and only the upper one counts, and 0.7 would stop them about 6% sooner, but those
#: stops are the early ones already (docs/precision.md).
UPPER_SHARE = 0.5


class LargestGapCS:
    """A confidence sequence of the largest gap between ``k`` shares won on the same
    games, ``G = max_ij (p_i - p_j)``: the balance index is ``1 - G``.

    Each pair of seats ``i < j`` has a sequence of the mean of ``w_i - w_j`` (-1, 0 or 1 a
    game: exact, :class:`BettingCS` ``ternary``), each of its edges one-sided at
    ``alpha_high`` (``UPPER_SHARE`` of ``alpha``). The largest gap is below the upper
    edge of its own pair's difference, so below the largest upper edge of every ordered
    pair unless that one pair's edge failed: the upper edge of ``G`` costs one one-sided
    bet, whatever the number of seats (no union bound). Its lower edge is one bet that
    ``G`` exceeds ``g``, staked each block on the ordered pair with the largest gap so far
    (chosen before the block): while ``G <= g`` every pair's difference is at most ``g``,
    so that capital is a nonnegative supermartingale whichever pair it bets on, and by
    Ville's inequality ``G`` leaves the sequence at some block with probability at most
    ``alpha_high + alpha_low = 1 - level``.

    Parameters
    ----------
    k : seats (at least 2).
    level : coverage of the gap at every block at once.
    upper_share : the share of ``1 - level`` spent on the upper edge.
    """

    def __init__(
        self, k: int, level: float = LEVEL, *, upper_share: float = UPPER_SHARE, grid: int = GRID
    ) -> None:
        if k < 2:
            raise ValueError(f"a gap needs at least two seats, not {k}")
        alpha = 1.0 - level
        self.k = k
        self.alpha_high = upper_share * alpha
        self.alpha_low = alpha - self.alpha_high
        first, second = np.triu_indices(k, 1)
        self.first, self.second = first, second  # pair p: the mean of w_first - w_second
        self.pairs = BettingCS(
            len(first), -1.0, 1.0, ternary=True, sides=(self.alpha_high,) * 2, grid=grid
        )
        self.leader = BettingCS(1, -1.0, 1.0, ternary=True, sides=(self.alpha_low, 0.0), grid=grid)
        #: The ordered pair each block's lower-edge bet was on, ``(winner, loser)``.
        self.bets: list[tuple[int, int]] = []

    @property
    def games(self) -> int:
        return self.pairs.games

    def sequences(self) -> tuple[BettingCS, BettingCS]:
        """The sequences behind the gap: the pairs', and the lower edge's."""
        return (self.pairs, self.leader)

    def _differences(self) -> np.ndarray:
        """Each pair's mean difference so far, ``(pairs,)`` (0 before any game)."""
        if not self.pairs.games:
            return np.zeros(self.pairs.k)
        return 2 * self.pairs._total / self.pairs.games - 1

    def _spread(self) -> np.ndarray:
        """Each pair's standard deviation of ``w_i - w_j`` the stakes are sized by."""
        return 2 * np.sqrt(self.pairs.variance())

    def _leading(self) -> tuple[int, bool]:
        """The pair with the largest gap so far and whether its first seat leads."""
        d = self._differences()
        p = int(np.abs(d).argmax())
        return p, bool(d[p] >= 0)

    def planned_games(self, half_width: float) -> float:
        """Games after which the index's interval should be ``half_width`` either side,
        from the blocks so far: each edge at the reach its bet has when staked for that
        many games (:meth:`BettingCS.planned_stake`), about the estimates so far (at most
        2^40)."""
        d = np.abs(self._differences())
        spread = self._spread()
        lead, _ = self._leading()
        c_high = math.sqrt(2 * math.log(1 / self.alpha_high))
        c_low = math.sqrt(2 * math.log(1 / self.alpha_low))

        def width(games: np.ndarray) -> np.ndarray:  # (g,) -> (g,)
            root = np.sqrt(games)[:, None]
            high = np.minimum((d + c_high * spread / root).max(axis=1), 1.0)
            low = np.maximum(d[lead] - c_low * spread[lead] / root[:, 0], 0.0)
            return (high - low) / 2

        exponents = np.linspace(0.0, 40.0, 401)  # games from 1 to 2^40, 1/10 octave apart
        enough = np.flatnonzero(width(2.0**exponents) <= half_width)
        return float(2.0 ** exponents[enough[0] if enough.size else -1])

    def update_counts(
        self,
        size: int,
        wins: np.ndarray,
        both: np.ndarray | None = None,
        planned: float | None = None,
    ) -> None:
        """Add a block of ``size`` games from each seat's wins in it, ``(k,)``, and the
        games each pair of seats both won, ``(k, k)`` (any diagonal).

        Without ``both``, each pair is taken to have shared as few wins as its counts
        allow: every capital is then a lower bound of the true one (a difference's spread
        is at its widest), and the sequence stays valid, wider when wins are shared.
        ``planned``: the number of games the stakes are sized for (chosen before the
        block, such as :meth:`planned_games`'s); by default, and at least, the games at
        the block's end.
        """
        wins = np.asarray(wins, dtype=float)
        i, j = self.first, self.second
        if both is None:
            shared = np.maximum(wins[i] + wins[j] - size, 0.0)
        else:
            shared = np.asarray(both, dtype=float)[i, j]
        ahead = wins[i] - shared  # games w_i - w_j = 1, rescaled to 1
        behind = wins[j] - shared  # -1, rescaled to 0; the others 0, rescaled to 1/2
        level = size - ahead - behind
        total = ahead + level / 2
        squares = ahead + level / 4
        planned = max(float(self.games + size), planned or 0.0)
        # The lower edge's bet: on the pair ahead so far, the leading seat first.
        lead, first_leads = self._leading()
        stake = self.pairs.planned_stake(planned, self.alpha_high)
        # No pair is known to lead before any game: a bet on one that trails would lose
        # at the gaps that matter, so the first block is not bet on.
        bet = 0.0
        if self.games:
            variance = self.pairs.variance()[lead]
            bet = math.sqrt(2 * math.log(1 / self.alpha_low) / (planned * variance))
        if first_leads:
            lead_total, lead_squares = total[lead], squares[lead]
            self.bets.append((int(i[lead]), int(j[lead])))
        else:  # 1 - y: the same games seen from the other seat
            lead_total = size - total[lead]
            lead_squares = size - 2 * total[lead] + squares[lead]
            self.bets.append((int(j[lead]), int(i[lead])))
        self.leader.update_sums(size, lead_total, lead_squares, stake=bet)
        self.pairs.update_sums(size, total, squares, stake=stake)
        # The leader's bet moves its lower edge only: its grid is laid below the gap's
        # upper edge, so that it is fine where its lower edge is.
        self.leader.within(-1.0, self.interval()[1])

    def refine(self) -> None:
        for cs in self.sequences():
            cs.refine()

    def interval(self) -> tuple[float, float]:
        """The largest gap's running interval ``(low, high)``, within ``[0, 1]``."""
        low, high = self.pairs.interval()
        top = float(min(max(high.max(), -low.min()), 1.0))
        bottom = float(max(self.leader.interval()[0][0], 0.0))
        return min(bottom, top), top

    def index_interval(self) -> tuple[float, float]:
        """The balance index's running interval, ``1 - `` the gap's."""
        low, high = self.interval()
        return 1.0 - high, 1.0 - low


def gap_interval(low: np.ndarray, high: np.ndarray) -> tuple[float, float]:
    """Bounds on ``1 - (max_s p_s - min_s p_s)`` (the balance index) from simultaneous
    intervals ``[low_s, high_s]`` of the seats' rates, ``(n,)`` each.

    The seats' intervals must hold together (each at level ``1 - alpha / n``: a union
    bound), and then so does the result.
    """
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    widest = float(high.max() - low.min())
    narrowest = max(0.0, float(low.max() - high.min()))
    return 1.0 - widest, 1.0 - narrowest


def fixed_games_needed(share: float, half_width: float, level: float = LEVEL) -> int:
    """Games a fixed-n normal interval of a share needs to reach ``half_width``."""
    from scipy import stats

    z = float(stats.norm.ppf(0.5 + level / 2))
    return math.ceil(z**2 * share * (1 - share) / half_width**2)


def anytime_games_needed(
    share: float,
    half_width: float,
    runs: int = 200,
    block: int = 4096,
    seed: int = 0,
    level: float = LEVEL,
) -> Sequence[int]:
    """Games a betting confidence sequence of a share took to reach ``half_width``, in
    ``runs`` simulated runs (blocks of ``block`` games of Bernoulli(``share``) wins),
    as the run would stop them; sorted, ``(runs,)``."""
    rng = np.random.default_rng(seed)
    needed = []
    for _ in range(runs):
        cs = BettingCS(1, level=level, binary=True, target=half_width)
        while True:
            wins = rng.binomial(block, share)
            cs.update_sums(block, wins, wins)
            if cs.half_width()[0] <= half_width + 2 * cs.step * cs.span:
                cs.refine()
            if cs.half_width()[0] <= half_width:
                break
        needed.append(cs.games)
    return sorted(needed)
