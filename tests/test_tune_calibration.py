"""Calibration of ``balance tune``'s race from known truth: wrong verdicts stay under 5%.

The tune's promise: on a space with known truth, the rate of wrong verdicts stays below
5% per candidate, as the sequences promise. A candidate's targets each get a confidence
sequence at level ``1 - 0.05 / T`` (:class:`balance.analyses.tune_race.CandidateRace`),
so all of them hold together with probability at least 95% at every number of games,
and a verdict taken at the first block that settles it is wrong (pass with a truth
outside its band, fail with every truth inside) at most 5% of the time.

No game is played: a candidate is a known truth (the seat-0 win rate and the mean length
of a synthetic four-seat game), and its blocks of 1,024 games are tallies
(:class:`balance.analyses.sweep_tally.Tally`, as ``play_tally`` makes them) drawn from it
with numpy and fed to a real :class:`CandidateRace` until it is done, as the tune's
collector feeds it. Each candidate's blocks come from its own seed, so every procedure
below sees the same games. The space holds 1,000 candidates:

- 200 *decisive* ones, each truth 0.006 to 0.02 (rescaled to the figure's range) inside
  or outside its band, settled in some 5 to 60 blocks: the race must give nearly all of
  them the right verdict (a race that never decided would never be wrong);
- 800 *on an edge*, both truths inside their bands but within 0.001 of an edge, the
  race stopping undecided after 64 blocks: the hardest case for the promise, where either
  sequence leaving its truth on the far side fails the candidate. At the decisive
  distances alone no procedure below, not even peeking, gave a single wrong verdict in
  1,000 candidates: a wrong verdict needs an interval to leave its truth by more than
  the truth's distance to the edge, so only truths at an edge can tell a miscalibrated
  procedure from a calibrated one.

The check must be able to fail, so it is run, through the same race (the decisions are
the race's own; only the level or the intervals change), on procedures known to be
miscalibrated, and must catch them:

- the race at a per-candidate error of 0.5 instead of 0.05 (too loose a level): wrong
  clearly more often than the real race on the same games;
- the race deciding on fixed-n Wilson and Student t intervals at the same per-target
  level, read after every block ("peeking"): more than 5% wrong;
- the race's intervals shrunk about their middle. The sequences are conservative by
  design (Ville's inequality bounds the chance of *ever* leaving the truth; the betting
  sequences leave it far less often: here the real race failed 2 of the 800 candidates
  on an edge, where the bound allows up to 2.5%), so intervals 20% too narrow still keep
  the 5% promise (under 2% wrong here) and no test of the promise can, or should, fail
  them; even the error of 0.5 stays under 5%. Telling a sequence 20% too narrow from a
  right one needs an independent reference for its width, which
  ``tests/calibration/test_confseq.py`` gives the sequences themselves. Here the test
  shows what the promise can see: intervals half as wide break it, and 20% narrower
  ones are wrong clearly more often than the real race on the same games.

Measured (seed fixed): real 0.2% wrong, too loose 3.7%, peeking 10.8%, 20% narrower
1.8%, half as wide 14.7%; the whole file takes about 95 seconds on one core.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from scipy import stats

from balance.analyses import check, tune_race
from balance.analyses.check import FAIL, PASS, metric_for
from balance.analyses.sweep_design import parse_target
from balance.analyses.sweep_tally import CORE, Group, Tally, compact
from balance.analyses.tune_race import CandidateRace
from balance.core.game import Setup
from balance.run.play import make_setup
from balance.stats.intervals import mean_interval_from_sums, wilson_interval

#: The promise: a candidate's verdict is wrong at most this often.
PROMISE = 0.05
SEATS = 4
#: Games a block (the tune's own ``TUNE_BLOCK``).
BLOCK = 1_024
#: Blocks after which a candidate stops undecided.
CAP_BLOCKS = 64
#: Candidates in the space, and the share of them that is decisive (the rest: on an edge).
CANDIDATES = 1_000
DECISIVE_SHARE = 0.2
SEED = 20_240_611
#: The bands: the seat-0 win rate, and the mean length in rounds (Walk the Plank's lengths
#: lie in ``[0, 100]``, so a distance in rounds is 100 times one on the rescaled scale).
SEAT_BAND = (0.22, 0.30)
LENGTH_BAND = (40.0, 55.0)
TARGETS = (
    parse_target(f"seat_win_rate.0={SEAT_BAND[0]}..{SEAT_BAND[1]}"),
    parse_target(f"length_mean={LENGTH_BAND[0]:g}..{LENGTH_BAND[1]:g}"),
)
#: Distances of a truth from its band's edge, on the rescaled scale ([0, 1]).
DECISIVE = (0.006, 0.02)
EDGE = (0.0001, 0.001)
#: Walk the Plank's length cap (rounds): lengths 0 to 100.
CAP = 100
LENGTHS = np.arange(CAP + 1)
#: Two spread-out length laws (uniform on 0-60 and on 40-100, means 30 and 70): their
#: mixture has any mean from 30 to 70 exactly, and a spread (about 26 rounds) of the
#: order of a real game's.
SHORT = (LENGTHS <= 60) / np.count_nonzero(LENGTHS <= 60)
LONG = (LENGTHS >= 40) / np.count_nonzero(LENGTHS >= 40)


@cache
def setup() -> Setup:
    """A real four-seat setup: the race reads only its game's length cap (100 rounds)."""
    return make_setup("walk-the-plank", SEATS, 0, ("random",), (), [], False)


@dataclass(frozen=True)
class Candidate:
    """A candidate's known truth: the seat-0 win rate and the mean length in rounds."""

    win_rate: float
    length_mean: float

    def inside(self) -> tuple[bool, bool]:
        """Whether each truth lies in its band (the bands are closed)."""
        return (
            SEAT_BAND[0] <= self.win_rate <= SEAT_BAND[1],
            LENGTH_BAND[0] <= self.length_mean <= LENGTH_BAND[1],
        )

    def wrong(self, verdict: str) -> bool:
        """A pass with a truth outside its band, or a fail with every truth inside."""
        if verdict == PASS:
            return not all(self.inside())
        return verdict == FAIL and all(self.inside())

    def right(self, verdict: str) -> bool:
        return verdict in (PASS, FAIL) and not self.wrong(verdict)


def candidate_space(count: int, seed: int) -> list[Candidate]:
    """``count`` candidates: the first :data:`DECISIVE_SHARE` decisive, the rest on an edge.

    A decisive candidate has both truths inside their bands (every other one: a wrong
    verdict is a fail) or one outside (seat rate and length in turn: a wrong verdict is a
    pass), each at a distance from :data:`DECISIVE` inside or outside the band's lower or
    upper edge (at random). A candidate on the edge has both truths inside, each within
    :data:`EDGE` of an edge: the hardest case for the promise, where either sequence
    leaving its truth on the far side fails the candidate.
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        edge = i >= DECISIVE_SHARE * count
        outside = -1 if edge or i % 2 == 0 else (i // 2) % 2
        truths = []
        for t, ((low, high), scale) in enumerate(((SEAT_BAND, 1.0), (LENGTH_BAND, float(CAP)))):
            d = scale * rng.uniform(*(EDGE if edge else DECISIVE))
            d *= -1 if t == outside else 1
            truths.append(low + d if rng.random() < 0.5 else high - d)
        out.append(Candidate(*truths))
    return out


def outcomes(candidate: Candidate) -> tuple[np.ndarray, np.ndarray]:
    """Every outcome of a game, rows of the core group (length, finished, won_0..won_3)
    in the canonical order :func:`balance.analyses.sweep_tally.compact` gives them, and
    each one's chance (length independent of the winner; one winner a game; a game
    reaching the cap unfinished)."""
    win = np.full(SEATS, (1 - candidate.win_rate) / (SEATS - 1))
    win[0] = candidate.win_rate
    weight = (candidate.length_mean - SHORT @ LENGTHS) / (LONG @ LENGTHS - SHORT @ LENGTHS)
    length = (1 - weight) * SHORT + weight * LONG
    rows = np.column_stack(
        [
            np.repeat(LENGTHS, SEATS),
            np.repeat(LENGTHS < CAP, SEATS),
            np.tile(np.eye(SEATS), (len(LENGTHS), 1)),
        ]
    ).astype(float)
    chance = np.outer(length, win).ravel()
    order = np.lexsort(rows.T[::-1])
    return rows[order], chance[order]


def blocks(candidate: Candidate, seed: int) -> Iterator[Tally]:
    """The candidate's blocks of :data:`BLOCK` games, as tallies: the outcomes' counts."""
    rng = np.random.default_rng(seed)
    rows, chance = outcomes(candidate)
    columns = ("length", "finished", *(f"won_{s}" for s in range(SEATS)))
    while True:
        counts = rng.multinomial(BLOCK, chance)
        seen = counts > 0
        group = Group(columns, rows[seen], counts[seen].astype(np.int64))
        yield Tally({CORE: group}, (), columns[2:])


def race(candidate: Candidate, seed: int) -> str:
    """The candidate's verdict, its blocks fed to a :class:`CandidateRace` until done."""
    tracker = CandidateRace(setup(), TARGETS, CAP_BLOCKS * BLOCK)
    for tally in blocks(candidate, seed):
        tracker.update_tally(tally)
        if tracker.done():
            return tracker.verdict
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Rates:
    """What a procedure did on the space: which candidates got a wrong verdict, and how
    many of the decisive ones the right one."""

    wrong: tuple[bool, ...]  # one flag a candidate, in the space's order
    right_decisive: float  # share of the decisive candidates given the right verdict

    @property
    def rate(self) -> float:
        """The share of all candidates with a wrong verdict."""
        return sum(self.wrong) / len(self.wrong)

    def line(self, name: str) -> str:
        edge = self.wrong[int(DECISIVE_SHARE * len(self.wrong)) :]
        return (
            f"{name}: {self.rate:.1%} wrong ({sum(edge) / len(edge):.1%} of those on an "
            f"edge), {self.right_decisive:.1%} of the decisive ones right"
        )


def shrunk(factor: float) -> Callable[[check.Target], tuple[float, float]]:
    """:meth:`check.Target.interval` shrunk by ``factor`` about its middle."""
    interval = check.Target.interval

    def narrower(self: check.Target) -> tuple[float, float]:
        low, high = interval(self)
        middle, half = (low + high) / 2, (high - low) / 2
        return middle - factor * half, middle + factor * half

    return narrower


def fixed_n(self: check.Target) -> tuple[float, float]:
    """The fixed-n interval of the target's games so far, at the target's level: Wilson
    for a share, Student t for the mean length (from the sums its sequence holds)."""
    cs = self.cs
    total, squares = float(cs._total[0]), float(cs._squares[0])
    if self.metric.binary:
        low, high = (float(v) for v in wilson_interval(total, cs.games, self.level))
    else:
        _, low, high = mean_interval_from_sums(cs.games, total, squares, self.level)
    return cs.low + cs.span * low, cs.low + cs.span * high


#: The procedures raced, as patches of the real race: only the level or the intervals
#: change, the decisions are the race's own.
PROCEDURES: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "real": lambda patch: None,
    "too loose": lambda patch: patch.setattr(tune_race, "ERROR", 0.5),
    "peeking": lambda patch: patch.setattr(check.Target, "interval", fixed_n),
    "20% narrower": lambda patch: patch.setattr(check.Target, "interval", shrunk(0.8)),
    "half as wide": lambda patch: patch.setattr(check.Target, "interval", shrunk(0.5)),
}


@cache
def rates(procedure: str) -> Rates:
    """Race every candidate of the space under ``procedure`` (cached: the tests share the
    real race's)."""
    space = candidate_space(CANDIDATES, SEED)
    with pytest.MonkeyPatch.context() as patch:
        PROCEDURES[procedure](patch)
        verdicts = [race(c, SEED + 1 + i) for i, c in enumerate(space)]
    decisive = int(DECISIVE_SHARE * len(space))
    right = [c.right(v) for c, v in zip(space[:decisive], verdicts[:decisive], strict=True)]
    wrong = tuple(c.wrong(v) for c, v in zip(space, verdicts, strict=True))
    return Rates(wrong, sum(right) / decisive)


def standard_error(rate: float, count: int = CANDIDATES) -> float:
    return math.sqrt(rate * (1 - rate) / count)


#: The most wrong verdicts a calibrated race may show: 5% and three standard errors.
BOUND = PROMISE + 3 * standard_error(PROMISE)


def more_often_wrong(control: Rates, real: Rates) -> float:
    """One-sided p-value of the control being wrong no more often than the real race, on
    the same games: an exact sign test on the candidates only one of them got wrong."""
    pairs = list(zip(control.wrong, real.wrong, strict=True))
    only_control = sum(c and not r for c, r in pairs)
    only_real = sum(r and not c for c, r in pairs)
    return float(stats.binomtest(only_control, only_control + only_real, 0.5, "greater").pvalue)


@pytest.mark.slow
def test_the_race_keeps_its_promise() -> None:
    """The real race's wrong-verdict rate stays within 5% (plus three standard errors of
    1,000 candidates), and the race has power: it gives the right verdict to nearly every
    decisive candidate (a race that never decided would never be wrong)."""
    real = rates("real")
    assert real.rate <= BOUND, real.line("real")
    assert real.right_decisive >= 0.9, real.line("real")


@pytest.mark.slow
def test_a_too_loose_level_is_caught() -> None:
    """At a per-candidate error of 0.5 (each target's sequence at level 0.75), the same
    race on the same games is wrong clearly more often than the real one: the check sees
    the level."""
    real, loose = rates("real"), rates("too loose")
    lines = f"{real.line('real')}; {loose.line('too loose')}"
    assert more_often_wrong(loose, real) < 0.001, lines


@pytest.mark.slow
def test_peeking_at_fixed_n_intervals_is_caught() -> None:
    """Deciding on fixed-n intervals (Wilson, Student t) read after every block, at the
    race's own per-target level, breaks the promise: more than 5% wrong verdicts, beyond
    three standard errors."""
    peeking = rates("peeking")
    assert peeking.rate > BOUND, peeking.line("peeking")


@pytest.mark.slow
def test_narrowed_intervals_are_caught_as_far_as_the_promise_can_see() -> None:
    """Intervals half as wide break the promise (more than 5% wrong, beyond three
    standard errors). Intervals 20% too narrow keep it: the sequences' slack (see the
    module's docstring) absorbs them, so the promise cannot catch them; on the same
    games they are still wrong clearly more often than the real race."""
    real, narrower, half = rates("real"), rates("20% narrower"), rates("half as wide")
    lines = "; ".join(r.line(n) for n, r in (("real", real), ("20%", narrower), ("half", half)))
    assert half.rate > BOUND, lines
    assert more_often_wrong(narrower, real) < 0.001, lines


def test_the_synthetic_source_has_the_known_truth() -> None:
    """The tallies fed to the race are what ``compact`` makes of the same games (rows in
    its canonical order), and their outcomes' chances give exactly the candidate's truths:
    the truth the calibration judges against is the source's."""
    assert metric_for("length_mean", setup()).high == CAP  # the race rescales by it
    candidate = Candidate(0.2345, 47.25)
    rows, chance = outcomes(candidate)
    assert chance.sum() == pytest.approx(1.0)
    assert chance @ rows[:, 2] == pytest.approx(candidate.win_rate)
    assert chance @ rows[:, 0] == pytest.approx(candidate.length_mean)
    tally = next(blocks(candidate, 7))
    games = tally.groups[CORE].values()
    columns = {
        name: games[:, k].astype(np.int64) for k, name in enumerate(tally.groups[CORE].columns)
    }
    again = compact(columns, (), tally.won_columns).groups[CORE]
    assert tally.games == BLOCK
    assert again.columns == tally.groups[CORE].columns
    np.testing.assert_array_equal(again.rows, tally.groups[CORE].rows)
    np.testing.assert_array_equal(again.counts, tally.groups[CORE].counts)


def test_the_error_is_split_over_targets_and_the_index_seats() -> None:
    """With two targets, each sequence is at level ``1 - 0.05 / 2`` and the balance
    index's seats at ``1 - 0.05 / (2 n)`` each (a union bound over the ``n`` seats), so
    the candidate's sequences hold together with probability 95%."""
    targets = [parse_target("seat_win_rate.0=0.2..0.3"), parse_target("balance_index>=0.9")]
    tracker = CandidateRace(setup(), targets, CAP_BLOCKS * BLOCK)
    seat, index = tracker.sequences
    assert seat.level == pytest.approx(1 - PROMISE / 2)
    assert seat.cs.alpha == pytest.approx(PROMISE / 2)
    assert seat.cs.k == 1
    assert index.level == pytest.approx(1 - PROMISE / 2)
    assert index.cs.alpha == pytest.approx(PROMISE / (2 * SEATS))
    assert index.cs.k == SEATS
