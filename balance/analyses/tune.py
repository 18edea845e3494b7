"""``balance tune``: find the rule sets that meet the design targets, racing them.

A sweep plays every point the same number of games; most are decided after a few
thousand (a game three rounds long is no six-to-ten-round game) and a few near a band's
edge need far more. A tune plays each candidate rule set block by block on common random
numbers (candidate games ``0, 1, ...`` of the seed, as ``balance simulate`` and ``balance
sweep`` play them) and decides it with anytime-valid intervals
(:mod:`balance.analyses.tune_race`): dropped as soon as one target's interval lies outside
its band, confirmed once every target's lies inside, and the next blocks go to the
candidates still open. A candidate that reaches ``--max-games`` (or its share of a
``--budget``) first is undecided, with what it would need. Small grids are raced whole;
larger spaces are searched by an optimiser (:mod:`balance.analyses.tune_propose`).

>>> from balance.analyses.tune import tune
>>> result = tune("walk-the-plank", players=[5], axes=["plank_max=3..6"],
...               targets=["length_mean=6..10"])          # doctest: +SKIP
>>> result.feasible()                                       # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance import __version__
from balance.analyses.sweep import (
    MANIFEST,
    Backend,
    BlockCollector,
    axis_column_names,
    axis_columns,
    plan_space,
    point_entry,
    point_label,
    prepare_out,
    run_local,
    save_tally,
    setup_for,
    tidy_table,
)
from balance.analyses.sweep_design import (
    PLAYERS,
    Axis,
    Target,
    figure_of,
    parse_target,
)
from balance.analyses.sweep_tally import CORE, Tally, Task
from balance.analyses.tune_propose import PROPOSALS, make_search
from balance.analyses.tune_race import (
    ERROR,
    CandidateRace,
    changed_rules,
    shortfall,
    target_scale,
)
from balance.core.errors import BalanceError, Interrupted
from balance.core.game import Setup
from balance.games import get_game
from balance.run.cluster import scheduler_address
from balance.run.results import json_safe, output_dir, write_json
from balance.run.runner import _deferred_interrupt, one_blas_thread

#: Games a block plays: a candidate is judged after each (docs/tune.md, "Efficiency":
#: 4,096-game blocks cost about 80% more games on Walk the Plank than 1,024).
TUNE_BLOCK = 1_024
#: Games a candidate plays at most before it is called undecided.
TUNE_MAX_GAMES = 262_144
#: Batches of proposals raced at once: the next is played while the last blocks of the
#: one before are still out, so that no core waits on a batch's slowest rule set.
BATCHES_AHEAD = 2
#: Games a rule set may play at least when a budget is shared (unless less is left).
MIN_SHARE = 16 * TUNE_BLOCK
#: Games an optimiser's search spends without ``--budget``.
DEFAULT_BUDGET = 5_000_000
CANDIDATES_DIR = "candidates"
RANKING = (
    "fewest rule changes from the game's defaults (each swept rule whose value differs, "
    "each variant switched on), then closest to the middle of the two-sided bands (mean "
    "distance in half-bands), then candidate number"
)


@dataclass
class TuneResult:
    """A finished (or interrupted) tune: every raced candidate with its verdict.

    Attributes
    ----------
    points : one JSON object a candidate (a sweep's point, plus ``verdict``,
        ``verdicts``, ``intervals``, ``decided_by``, ``reason``, ``changes``,
        ``middle_distance``, ``needs``, ``rank``), in candidate order.
    table : the tidy table, as a sweep's (one row a candidate and figure).
    verdicts : one row a (candidate, target): axis columns, ``target``, ``figure``,
        ``verdict``.
    """

    game: str
    seed: int
    search: str
    axes: list[Axis]
    targets: list[Target]
    block: int
    max_games: int
    budget: int | None
    backend: str
    elapsed_s: float
    points: list[dict[str, Any]]
    table: pd.DataFrame
    verdicts: pd.DataFrame
    explored: dict[str, Any]
    strategies: list[str] = field(default_factory=list)
    partial: bool = False
    games_played: int = 0

    @property
    def games_total(self) -> int:
        """Games the verdicts rest on: each candidate's games up to its stop."""
        return sum(p["games"] for p in self.points)

    def feasible(self) -> list[dict[str, Any]]:
        """The candidates that pass every target, best first (:data:`RANKING`)."""
        return sorted((p for p in self.points if p["verdict"] == "pass"), key=lambda p: p["rank"])

    def closest(self) -> dict[str, Any] | None:
        """The candidate nearest to passing, its estimates least outside the bands
        (:func:`balance.analyses.tune_race.shortfall`; ties: the first raced)."""
        if not self.points:
            return None
        return min(self.points, key=lambda p: (shortfall(p, self.targets), p["point"]))

    def to_json(self) -> dict[str, Any]:
        """What ``balance tune --json`` prints."""
        return json_safe(
            {
                "game": self.game,
                "seed": self.seed,
                "search": self.search,
                "axes": {a.name: _axis_text(a) for a in self.axes},
                "targets": [t.text for t in self.targets],
                "strategies": self.strategies,
                "block": self.block,
                "max_games": self.max_games,
                "budget": self.budget,
                "level": 1 - ERROR,
                "per_candidate_error": ERROR,
                "interval_method": "95% anytime-valid intervals (betting confidence "
                f"sequences) for the targeted figures, {ERROR:.0%} split over a candidate's "
                "targets (and the balance index's seats), so each candidate's verdict is "
                f"wrong with at most {ERROR:.0%} chance; other figures' intervals are fixed-n "
                "as in balance sweep",
                "ranking": RANKING,
                "backend": self.backend,
                "elapsed_s": self.elapsed_s,
                "partial": self.partial,
                "games_total": self.games_total,
                "games_played": self.games_played,
                "explored": self.explored,
                "points": self.points,
                "feasible": [
                    {
                        "point": p["point"],
                        "players": p["players"],
                        "rules": p["rules"],
                        "variant_label": p["variant_label"],
                        "games": p["games"],
                        "intervals": p["intervals"],
                        "changes": p["changes"],
                        "middle_distance": p["middle_distance"],
                    }
                    for p in self.feasible()
                ],
            }
        )

    def text(self, limit: int = 20) -> str:
        """The tune as a designer reads it in a terminal."""
        counts = {v: sum(p["verdict"] == v for p in self.points) for v in VERDICTS}
        explored = self.explored
        space = explored["space"]
        lines = [
            f"{self.game}: raced {len(self.points):,} of {space:,} rule sets "
            f"({explored['share']:.1%}, {_search_text(self)}); {self.games_total:,} games in "
            f"all, {self.backend}, {self.elapsed_s:.1f} s"
            + (" (interrupted: --resume --out DIR goes on)" if self.partial else ""),
            "axes: " + " | ".join(f"{a.name} = {_axis_text(a, 6)}" for a in self.axes),
            f"targets: {'; '.join(t.text for t in self.targets)}",
            f"Each candidate played blocks of {self.block:,} games (game indices from 0 of "
            f"seed {self.seed}) until every target was decided or {self.max_games:,} games: "
            f"its verdict is wrong with at most {ERROR:.0%} chance (95% anytime-valid "
            "intervals, shown below; not a guarantee for all candidates at once).",
        ]
        if set(self.strategies) == {"random"}:
            lines.append(
                "note: every seat plays at random; the figures are random play's, not a "
                "table of thoughtful players' (--strategy)"
            )
        lines.append(
            f"{counts['pass']} pass, {counts['fail']} fail, {counts['undecided']} undecided."
        )
        feasible = self.feasible()
        if feasible:
            lines.append(
                "\nRule sets that meet every target, best first (fewest rule changes from "
                "the defaults, then closest to the bands' middles):"
            )
            for p in feasible[:limit]:
                same = p.get("same_games_as")
                lines.append(
                    f"  {p['rank']}. {point_label(p)}: {_changes(p)}, {p['games']:,} games; "
                    + "; ".join(_interval_text(t, p) for t in self.targets)
                    + (f" (plays the same games as candidate {same})" if same is not None else "")
                )
                lines += [f"     {w}" for w in p.get("warnings", [])]
            if len(feasible) > limit:
                lines.append(f"  ... {len(feasible) - limit:,} more (--json or --out)")
        else:
            lines.append("\nNo rule set raced meets every target.")
            closest = self.closest()
            assert closest is not None  # a result holds at least one candidate
            lines.append(
                f"  The closest: candidate {closest['point']} ({point_label(closest)}), "
                f"{closest['games']:,} games: "
                + "; ".join(_interval_text(t, closest) + f" for {t.text}" for t in self.targets)
            )
        undecided = [p for p in self.points if p["verdict"] == "undecided"]
        if undecided:
            lines.append("\nUndecided (an interval still straddles a band's edge):")
            for p in undecided[:limit]:
                why = "its share of the budget" if p["capped_by"] == "budget" else "--max-games"
                lines.append(
                    f"  candidate {p['point']} ({point_label(p)}), stopped at {why} after "
                    f"{p['games']:,} games:"
                )
                for target, need in p["needs"].items():
                    lines.append(f"     {target}: {need['reason']}")
        dropped: dict[str, int] = {}
        for p in self.points:
            if p["verdict"] == "fail":
                dropped[p["decided_by"]] = dropped.get(p["decided_by"], 0) + 1
        if dropped:
            lines.append(
                f"\nDropped {counts['fail']}: "
                + "; ".join(f"{n} outside {t}" for t, n in dropped.items())
                + " (one line each in --json)"
            )
        return "\n".join(lines)


VERDICTS = ("pass", "fail", "undecided")


def _search_text(result: TuneResult) -> str:
    if result.search == "grid":
        return "every rule set of the grid"
    e = result.explored
    return (
        f"proposed by optuna's TPE sampler: {e['proposals']:,} proposals, {e['repeats']:,} repeats"
    )


def _axis_text(axis: Axis, shown: int | None = None) -> str:
    """The axis's values as given (``shown``: at most that many, then how many)."""
    if axis.sampled is not None:
        return f"{int(axis.sampled[0])}:{int(axis.sampled[1])} (sampled)"
    separator = "; " if any("," in v for v in axis.values) else ", "
    values = list(axis.values)
    if shown is not None and len(values) > shown:
        return separator.join(values[:shown]) + f"{separator}... ({len(values)} values)"
    return separator.join(values)


def _changes(point: Mapping[str, Any]) -> str:
    n = point["changes"]
    return "the defaults" if n == 0 else f"{n} change{'s' if n != 1 else ''}"


def _interval_text(target: Target, point: Mapping[str, Any]) -> str:
    value = figure_of(point["metrics"], target.figure)[0]
    low, high = point["intervals"][target.text]
    return f"{target.figure} {value:.3f} [{low:.3f}, {high:.3f}]"


# --- the race ----------------------------------------------------------------------


@dataclass
class Space:
    """What a tune explores: the game, its axes, the rules fixed everywhere, and how the
    seats are played (as a sweep's points are set up)."""

    game: str
    axes: list[Axis]
    fixed: list[tuple[str, str]]
    seed: int
    strategies: Sequence[str]
    rotate_seats: bool
    cache: dict[tuple, Setup] = field(default_factory=dict)

    def setup(self, values: Mapping[str, str]) -> Setup:
        """The set-up of the rule set with these axis values (a one-line error naming
        them if the rules refuse it)."""
        return setup_for(
            self.game, values, self.fixed, self.seed, self.strategies, self.rotate_seats, self.cache
        )


@dataclass
class Candidate:
    """A rule set in the race: its number (order of first proposal), values and set-up."""

    number: int
    values: dict[str, str]
    setup: Setup
    cap: int
    race: CandidateRace | None = None  # None: read back from --out


class Race:
    """The tasks of a tune, handed out as the backend asks for them.

    An iterator that may run dry for a while: when every open candidate has its next
    block in flight, it has nothing to give until a result comes back (the backends ask
    again after each).
    """

    def __init__(self, tuner: Tuner) -> None:
        self.tuner = tuner
        self.handed: dict[int, int] = {}
        self.turn = 0
        self.over = False

    def __iter__(self) -> Race:
        return self

    def __next__(self) -> Task:
        tuner = self.tuner
        if self.over or not tuner.advance():
            self.over = True
            raise StopIteration
        # The candidate with the fewest blocks in flight, the oldest batch's first, in
        # turn within a batch: every open candidate gets a block before any gets two.
        best: tuple | None = None
        for age, batch in enumerate(tuner.active):
            for place, c in enumerate(batch):
                start = self.handed.get(c.number, 0)
                if tuner.is_decided(c.number) or start >= c.cap:
                    continue
                assert c.race is not None
                key = (start - c.race.games, age, (place - self.turn) % len(batch))
                if best is None or key < best[0]:
                    best = (key, c, start)
        if best is not None:
            _, candidate, start = best
            self.turn += 1
            self.handed[candidate.number] = start + tuner.block
            size = min(tuner.block, candidate.cap - start)
            return Task(candidate.number, start, size, candidate.setup, None)
        raise StopIteration  # for now: every open candidate's blocks are in flight


class Tuner:
    """The tune's state: the candidates, their outcomes, the search and the budget."""

    def __init__(
        self,
        space: Space,
        targets: list[Target],
        search: Any,
        block: int,
        max_games: int,
        budget: int | None,
        done: Mapping[int, tuple[Tally, dict[str, Any]]],
        on_decided: Callable[[Candidate, Tally, dict[str, Any]], None],
    ) -> None:
        self.space = space
        self.targets = targets
        self.search = search
        self.block = block
        self.max_games = max_games
        self.budget = budget
        self.done = dict(done)  # read back from --out, by number
        self.on_decided = on_decided
        self.candidates: list[Candidate] = []
        self.races: dict[int, CandidateRace] = {}  # the collector's trackers
        self.finished: dict[int, Tally] = {}
        self.outcomes: dict[int, dict[str, Any]] = {}
        self.entries: dict[int, dict[str, Any]] = {}  # each decided one's figures, once
        self.active: list[list[Candidate]] = []  # open batches, oldest first
        self.told_games = 0  # games of the candidates told to the search
        self.over = False  # the search has nothing more to propose
        self.stopped_by_budget = False

    def is_decided(self, number: int) -> bool:
        return number in self.outcomes

    def advance(self) -> bool:
        """Tell the search the outcomes of the oldest batches once decided (in order)
        and race its next proposals, keeping :data:`BATCHES_AHEAD` batches open; False
        once nothing is left to race.

        A batch is asked for right after the one two before it is told, and told only
        after the next one was asked, so each proposal depends on the verdicts alone,
        never on which blocks finished first. Candidates already decided in ``--out``
        are read back, not raced.
        """
        while True:
            while len(self.active) < BATCHES_AHEAD and self._ask():
                pass
            if self.active and all(c.number in self.outcomes for c in self.active[0]):
                batch = self.active.pop(0)
                self._tell(batch)
                self.told_games += sum(self.finished[c.number].games for c in batch)
                continue
            return bool(self.active)

    def _ask(self) -> bool:
        """Start the search's next batch, if the space and the budget allow one."""
        if self.over or self.search.exhausted():
            self.over = True
            return False
        count, cap = PROPOSALS, self.max_games
        if self.budget is not None:
            # Every rule set may spend the same share of the budget (enough for the
            # batches in flight to hold their caps at once), at least MIN_SHARE games;
            # what the open batches hold is set aside, and what a rule set decided sooner
            # leaves comes back once it is told. Near the end fewer rule sets are raced,
            # on what is left, rather than many raced too briefly to decide.
            share = max(self.budget // (BATCHES_AHEAD * PROPOSALS), MIN_SHARE)
            reserved = sum(c.cap for batch in self.active for c in batch)
            left = self.budget - self.told_games - reserved
            cap = min(cap, share, left)
            cap -= cap % self.block
            count = min(PROPOSALS, left // cap) if cap >= self.block else 0
            if count == 0:
                self.stopped_by_budget = not self.active
                return False
        proposals = self.search.ask(count)
        if not proposals:
            self.over = True
            return False
        batch = []
        for values in proposals:
            number = len(self.candidates)
            candidate = Candidate(number, dict(values), self.space.setup(values), cap)
            self.candidates.append(candidate)
            batch.append(candidate)
            if number in self.done:
                self._read_back(candidate)
            else:
                candidate.race = CandidateRace(candidate.setup, self.targets, cap)
                self.races[number] = candidate.race
        self.active.append(batch)
        return True

    def _tell(self, batch: Sequence[Candidate]) -> None:
        """Tell a search that learns the decided candidates' outcomes, in order."""
        if self.search.learns:
            for candidate in batch:
                if candidate.number in self.outcomes:
                    self.search.tell(candidate.values, *self.told(candidate))

    def _read_back(self, candidate: Candidate) -> None:
        tally, outcome = self.done[candidate.number]
        if outcome.get("axis_values") != candidate.values:
            raise BalanceError(
                f"--resume: candidate {candidate.number} in --out has "
                f"{outcome.get('axis_values')}, but the search proposed {candidate.values} "
                "this time (was optuna's version changed?); write to a new --out"
            )
        self.finished[candidate.number] = tally
        self.outcomes[candidate.number] = outcome

    def decided(self, number: int, tally: Tally) -> None:
        """A raced candidate is decided (or capped): keep its outcome."""
        candidate = self.candidates[number]
        assert candidate.race is not None
        outcome = {
            **candidate.race.outcome(),
            "axis_values": candidate.values,
            "cap": candidate.cap,
            "capped_by": None,
        }
        if outcome["verdict"] == "undecided":
            budget_cap = self.budget is not None and candidate.cap < self.max_games
            outcome["capped_by"] = "budget" if budget_cap else "max_games"
        self.finished[number] = tally
        self.outcomes[number] = outcome
        self.on_decided(candidate, tally, outcome)

    def entry(self, number: int) -> dict[str, Any]:
        """A decided candidate's point (:func:`balance.analyses.sweep.point_entry`),
        computed once for what the search is told and for the result."""
        if number not in self.entries:
            candidate = self.candidates[number]
            tally = self.finished[number]
            self.entries[number] = point_entry(number, candidate.values, candidate.setup, tally)
        return self.entries[number]

    def told(self, candidate: Candidate) -> tuple[float, list[float]]:
        """What the search learns of a decided candidate: its objective (rule changes,
        plus how far its figures sit from the bands' middles, squeezed below 1) and one
        constraint a target (at most 0: inside the band)."""
        entry = self.entry(candidate.number)
        outcome = self.outcomes[candidate.number]
        changes = len(changed_rules(self.space.game, entry, self.space.axes))
        middle = middle_distance(entry["metrics"], self.targets)
        constraints = []
        for target in self.targets:
            value = figure_of(entry["metrics"], target.figure)[0]
            inside = max(target.low - value, value - target.high)
            c = inside / target_scale(target) if math.isfinite(inside) else 1.0
            if outcome["verdicts"][target.text] == "fail":
                c = max(c, 1e-6)
            constraints.append(c if math.isfinite(c) else 1.0)
        return changes + math.tanh(middle), constraints


def middle_distance(metrics: Mapping[str, Any], targets: Sequence[Target]) -> float:
    """Mean over the two-sided bands of ``|figure - middle| / half-band`` (0 without one)."""
    distances = []
    for target in targets:
        if math.isfinite(target.low) and math.isfinite(target.high):
            half = (target.high - target.low) / 2
            value = figure_of(metrics, target.figure)[0]
            middle = (target.low + target.high) / 2
            distances.append(abs(value - middle) / half if half > 0 else 0.0)
    return float(sum(distances) / len(distances)) if distances else 0.0


# --- the tune ----------------------------------------------------------------------


def tune(
    game: str,
    players: Sequence[int] | str | None = None,
    axes: Sequence[str | Axis] = (),
    targets: Sequence[str | Target] = (),
    strategies: Sequence[str] = ("random",),
    rotate_seats: bool = False,
    rules: Mapping[str, Any] | Iterable[tuple[str, str]] = (),
    seed: int = 0,
    search: str = "auto",
    budget: int | None = None,
    max_games: int | None = None,
    block: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    charts: bool = True,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> TuneResult:
    """Race the rule sets of a space against the design targets; report the feasible ones.

    Parameters
    ----------
    game : the game's id.
    players, axes, strategies, rotate_seats, rules, seed : as :func:`balance.analyses.sweep.
        sweep`; an axis may also be ``NAME=LO:HI``, a whole-number range the optimiser
        samples rather than lists.
    targets : bands such as ``balance_index>=0.95`` or ``length_mean=6..10`` (at least one)
        on figures with known bounds: seat win rates, winner counts, the balance index,
        the share of games finished, and the mean length of a game with a length cap.
    search : ``grid`` (race every rule set), ``optuna`` (TPE proposals) or ``auto``.
    budget : games the search may spend in all (``optuna``; default
        :data:`DEFAULT_BUDGET` there, none for a grid).
    max_games : games a candidate plays at most (default :data:`TUNE_MAX_GAMES`).
    block : games between two looks at a candidate (default :data:`TUNE_BLOCK`).
    threads, scheduler : local threads, or a Dask scheduler's address (default
        ``DASK_SCHEDULER_ADDRESS``); the result does not depend on them.
    out, resume : write the result, charts and each decided candidate there; ``resume``
        races only the candidates not yet decided.

    Returns
    -------
    TuneResult
    """
    from balance.analyses.tune_propose import choose_search

    if not targets:
        raise BalanceError(
            'tune needs at least one --target, such as "balance_index>=0.95" or "length_mean=6..10"'
        )
    block = TUNE_BLOCK if block is None else block
    if isinstance(block, bool) or not 1 <= block <= 10**7:
        raise BalanceError(f"--block must be from 1 to 10000000 games, not {block}")
    max_games = TUNE_MAX_GAMES if max_games is None else max_games
    if isinstance(max_games, bool) or max_games < block:
        raise BalanceError(
            f"--max-games must be at least one block ({block:,} games), not {max_games:,}"
        )
    max_games -= max_games % block
    if budget is not None and (isinstance(budget, bool) or budget < block):
        raise BalanceError(f"--budget must be at least one block ({block:,} games), not {budget}")
    if threads is not None and not 1 <= threads <= 1024:
        raise BalanceError(f"threads must be from 1 to 1024, not {threads}")
    game, parsed, fixed, _ = plan_space(game, players, axes, rules)
    parsed_targets = [parse_target(t) if isinstance(t, str) else t for t in targets]
    chosen_search = choose_search(search, parsed, budget)
    if chosen_search == "optuna" and budget is None:
        budget = DEFAULT_BUDGET
    space = Space(game, parsed, fixed, seed, strategies, rotate_seats)
    _check_space(space, parsed_targets)
    spec = {
        "game": game,
        "seed": seed,
        "axes": {a.name: _axis_text(a) for a in parsed},
        "rules": dict(fixed),
        "strategies": list(strategies),
        "rotate_seats": rotate_seats,
        "targets": [t.text for t in parsed_targets],
        "search": chosen_search,
        "budget": budget,
        "max_games": max_games,
        "block": block,
    }
    out_dir = Path(out) if out is not None else None
    done: dict[int, tuple[Tally, dict[str, Any]]] = {}
    if out_dir is not None:
        tallies = prepare_out(out_dir, spec, resume, CANDIDATES_DIR, "tune")
        for number, tally in tallies.items():
            path = out_dir / CANDIDATES_DIR / f"{number:05d}.json"
            try:
                done[number] = (tally, json.loads(path.read_text()))
            except (OSError, json.JSONDecodeError) as error:
                raise BalanceError(f"--resume: cannot read {path}: {error}") from None
    elif resume:
        raise BalanceError("--resume needs the --out directory of the tune to resume")

    def on_decided(candidate: Candidate, tally: Tally, outcome: dict[str, Any]) -> None:
        if out_dir is not None:
            write_json(out_dir / CANDIDATES_DIR / f"{candidate.number:05d}.json", outcome)
            save_tally(out_dir / CANDIDATES_DIR / f"{candidate.number:05d}.npz", tally)

    proposer = make_search(chosen_search, parsed, seed, budget)
    tuner = Tuner(space, parsed_targets, proposer, block, max_games, budget, done, on_decided)
    collector = BlockCollector(max_games, tuner.decided, tuner.races)
    address = scheduler_address(scheduler)
    first = space.setup(_first_values(parsed))
    backend: Backend
    if address:
        from balance.analyses.cluster import run_dask

        backend_name, backend = "dask", run_dask(address, first)
    else:
        backend_name, backend = "local", run_local(threads)
        chosen = get_game(game)
        if on_compile and not chosen.is_compiled(first):
            on_compile(
                "compiling the game engine (first run only; later runs load it from the cache)..."
            )
        chosen.prepare(first)
    from tqdm import tqdm

    bar = tqdm(unit="block", delay=2.0, disable=not progress, leave=False)
    played = [0]

    def on_result(task: Task, tally: Tally) -> None:
        played[0] += tally.games
        collector.add(task, tally)
        bar.update(1)

    clock = time.perf_counter()
    stream = Race(tuner)
    with _deferred_interrupt() as interrupted, one_blas_thread():
        try:
            backend(stream, on_result, interrupted)
        except KeyboardInterrupt:
            pass
        finally:
            bar.close()
    elapsed = time.perf_counter() - clock
    partial = not stream.over
    result = build_tune(tuner, backend_name, elapsed, partial)
    result.games_played = played[0]
    if out_dir is not None:
        write_tune(result, spec, out_dir, charts=charts)
    if not result.points:
        raise Interrupted("interrupted before any candidate was decided")
    return result


def _first_values(axes: Sequence[Axis]) -> dict[str, str]:
    return {a.name: a.values[0] if a.values else str(int(a.sampled[0])) for a in axes}  # type: ignore[index]


def _check_space(space: Space, targets: list[Target]) -> None:
    """One-line errors before any game: a sampled range on a rule that does not take
    whole numbers, a range end the rule refuses, a target on a figure without bounds."""
    defaults = get_game(space.game).default_rules().to_dict()
    corners = [_first_values(space.axes)]
    for axis in space.axes:
        if axis.kind == PLAYERS:  # a seat's target must exist at every player count
            corners += [{**corners[0], PLAYERS: value} for value in axis.values[1:]]
        if axis.sampled is None:
            continue
        default = defaults[axis.name]
        if isinstance(default, bool) or not isinstance(default, int):
            raise BalanceError(
                f"--axis {axis.name}: a range LO:HI samples numbers, and {axis.name} takes "
                f"{type(default).__name__} values: list them instead"
            )
        low, high = axis.sampled
        if not (low.is_integer() and high.is_integer()):
            raise BalanceError(
                f"--axis {axis.name}: {axis.name} takes whole numbers: write "
                f"{math.floor(low)}:{math.ceil(high)} (sampled) or "
                f"{math.floor(low)}..{math.ceil(high)} (every value)"
            )
        for end in (low, high):
            corners.append({**corners[0], axis.name: str(int(end))})
    setups = [space.setup(c) for c in corners]
    from balance.analyses.tune_race import sequential_target

    for target in targets:
        for setup in setups:
            sequential_target(target, setup, 0.95)


def build_tune(tuner: Tuner, backend: str, elapsed: float, partial: bool) -> TuneResult:
    """Every decided candidate's JSON, ranked, with the tables."""
    points: list[dict[str, Any]] = []
    for number in sorted(tuner.outcomes):
        candidate = tuner.candidates[number]
        outcome = tuner.outcomes[number]
        entry = tuner.entry(number)
        for target in tuner.targets:  # the targeted figures: their anytime intervals
            _set_interval(entry["metrics"], target.figure, outcome["intervals"][target.text])
        entry["anytime_figures"] = sorted({t.figure for t in tuner.targets})
        entry["verdict"] = outcome["verdict"]
        entry["verdicts"] = outcome["verdicts"]
        entry["intervals"] = outcome["intervals"]
        entry["decided_by"] = outcome["decided_by"]
        entry["needs"] = outcome["needs"]
        entry["capped_by"] = outcome.get("capped_by")
        entry["reason"] = _reason(entry, tuner.targets)
        entry["changes"] = len(changed_rules(tuner.space.game, entry, tuner.space.axes))
        entry["middle_distance"] = middle_distance(entry["metrics"], tuner.targets)
        entry["warnings"] = _warnings(entry, candidate.setup)
        points.append(entry)
    _mark_same_games(points, tuner.finished)
    ranked = sorted(
        (p for p in points if p["verdict"] == "pass"),
        key=lambda p: (p["changes"], p["middle_distance"], p["point"]),
    )
    for rank, p in enumerate(ranked, 1):
        p["rank"] = rank
    for p in points:
        p.setdefault("rank", None)
    search = tuner.search
    size = search.size
    explored = {
        "search": search.name,
        "sampler": "TPE" if search.name == "optuna" else None,
        "space": size,
        "candidates": len(points),
        "share": len(points) / size if size else math.nan,
        "proposals": search.proposals,
        "repeats": search.repeats,
        "stopped_by_budget": tuner.stopped_by_budget,
    }
    # No paired differences in a tune: the sweep's p_holm column would stay empty.
    table = tidy_table(points, tuner.space.axes).drop(columns="p_holm")
    verdicts = pd.DataFrame(
        [
            {
                **axis_columns(p, tuner.space.axes),
                "target": t.text,
                "figure": t.figure,
                "verdict": p["verdicts"][t.text],
                "candidate_verdict": p["verdict"],
                "games": p["games"],
            }
            for p in points
            for t in tuner.targets
        ],
        columns=[
            *axis_column_names(tuner.space.axes),
            "target",
            "figure",
            "verdict",
            "candidate_verdict",
            "games",
        ],
    )
    return TuneResult(
        game=tuner.space.game,
        seed=tuner.space.seed,
        search=search.name,
        axes=tuner.space.axes,
        targets=tuner.targets,
        block=tuner.block,
        max_games=tuner.max_games,
        budget=tuner.budget,
        backend=backend,
        elapsed_s=elapsed,
        points=points,
        table=table,
        verdicts=verdicts,
        explored=explored,
        strategies=list(tuner.space.strategies),
        partial=partial,
    )


def _mark_same_games(points: list[dict[str, Any]], tallies: Mapping[int, Tally]) -> None:
    """Mark each candidate whose games came out exactly as another's (``same_games_as``:
    the one of them with the fewest rule changes, then the first raced). On common
    random numbers that means their rules play the same game: Battle of Thieves' water
    moves in tens, so ``sink_water`` 91 to 100 do."""
    groups: dict[bytes, list[dict[str, Any]]] = {}
    for point in points:
        core = tallies[point["point"]].groups[CORE]
        groups.setdefault(core.rows.tobytes() + b"|" + core.counts.tobytes(), []).append(point)
    for group in groups.values():
        first = min(group, key=lambda p: (p["changes"], p["point"]))
        for point in group:
            point["same_games_as"] = None if point is first else first["point"]


def _set_interval(metrics: dict[str, Any], figure: str, interval: Sequence[float]) -> None:
    kind, _, index = figure.partition(".")
    node = metrics[kind]
    if isinstance(node, list):
        node = next(row for row in node if row["seat"] == int(index))
    elif index:
        node = node[index]
    node["ci95"] = [float(interval[0]), float(interval[1])]


def _reason(entry: Mapping[str, Any], targets: Sequence[Target]) -> str:
    """One line: why the candidate got its verdict."""
    if entry["verdict"] == "pass":
        return "every target's interval lies inside its band"
    if entry["verdict"] == "fail":
        target = next(t for t in targets if t.text == entry["decided_by"])
        low, high = entry["intervals"][target.text]
        return (
            f"dropped after {entry['games']:,} games: {target.figure} [{low:.3f}, "
            f"{high:.3f}] lies outside {target.text}"
        )
    why = "its share of the budget" if entry["capped_by"] == "budget" else "--max-games"
    return f"undecided at {why} ({entry['games']:,} games): " + "; ".join(
        f"{t} {n['reason']}" for t, n in entry["needs"].items()
    )


def _warnings(entry: Mapping[str, Any], setup: Setup) -> list[str]:
    from balance.stats.caveats import capped_warning

    game = get_game(setup.game)
    games = entry["games"]
    unfinished = games - round(entry["metrics"]["finished_rate"]["value"] * games)
    warning = capped_warning(unfinished, games, game.length_cap(setup.rules), game.length_unit)
    return [f"warning: {warning}"] if warning else []


def write_tune(
    result: TuneResult, spec: Mapping[str, Any], out_dir: Path, charts: bool = True
) -> None:
    """The JSON, the tidy table (Parquet, CSV), the verdicts, the manifest, the charts
    and the PDF."""
    output_dir(out_dir)
    write_json(out_dir / "tune.json", result.to_json())
    result.table.to_parquet(out_dir / "tune.parquet", index=False)
    result.table.to_csv(out_dir / "tune.csv", index=False)
    result.verdicts.to_csv(out_dir / "verdicts.csv", index=False)
    write_json(
        out_dir / MANIFEST,
        {
            "spec": json_safe(dict(spec)),
            "complete": not result.partial,
            "candidates_done": len(result.points),
            "version": __version__,
            "rerun": "balance tune with the choices in spec; --resume on this directory "
            "races only the candidates not yet decided",
        },
    )
    if charts and result.points:
        from balance.analyses.tune_charts import write_tune_charts

        write_tune_charts(result, out_dir)


def load_tune(out_dir: str | Path) -> dict[str, Any]:
    """A saved tune's JSON."""
    path = Path(out_dir) / "tune.json"
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise BalanceError(f"cannot read {path}: {error}") from None


__all__ = ["TuneResult", "load_tune", "tune"]
