"""Which rule sets a tune races: every point of a small grid, or an optimiser's proposals.

A grid small enough to race whole is raced whole. A larger space (more than
:data:`MAX_RACED` rule sets, a range ``LO:HI`` that is sampled rather than listed, or a
``--budget`` of games) is searched by optuna's TPE sampler (the optional extra ``tune``):
it proposes :data:`PROPOSALS` rule sets at a time, each is raced to its verdict, and the
sampler is told each one's distance from the design (its rule changes and how near the
bands' middles its figures are) with one constraint a target (inside the band or not),
so that it learns where the feasible rule sets lie. docs/tune.md says why TPE.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from balance.analyses.sweep_design import Axis, design_points
from balance.core.errors import BalanceError

#: Rule sets a grid may hold and still be raced whole (``--search auto``).
MAX_RACED = 512
#: Rule sets an optimiser proposes, and the race plays, at a time: a constant, never the
#: number of workers, so that the same seed proposes the same rule sets anywhere.
PROPOSALS = 8
#: Proposals in a row that repeat a rule set already raced before the search stops.
MAX_REPEATS = 64
INSTALL_HINT = 'pip install -e ".[tune]" (or pip install "optuna>=5,<6")'
SEARCHES = ("auto", "grid", "optuna")


def choose_search(search: str, axes: Sequence[Axis], budget: int | None) -> str:
    """``grid`` or ``optuna`` for ``--search`` (``auto``: the optimiser for a sampled
    range, a grid of more than :data:`MAX_RACED` rule sets or a budget)."""
    if search not in SEARCHES:
        raise BalanceError(f"--search is one of {', '.join(SEARCHES)}, not {search!r}")
    sampled = [a for a in axes if a.sampled is not None]
    if search == "grid":
        if sampled:
            raise BalanceError(
                f"--axis {sampled[0].name} is a range LO:HI, which is sampled: use "
                "--search optuna (or auto), or list its values with LO..HI"
            )
        return "grid"
    if search == "optuna":
        return "optuna"
    size = math.prod(a.size for a in axes)
    return "optuna" if sampled or size > MAX_RACED or budget is not None else "grid"


class GridSearch:
    """Every rule set of the grid, in one batch (with a budget: in grid order, as many
    at a time as the budget shares out)."""

    name = "grid"
    learns = False

    def __init__(self, axes: Sequence[Axis], batched: bool) -> None:
        self.points = design_points(axes, "grid")
        self.size = len(self.points)
        self.batched = batched
        self.given = 0
        self.proposals = 0
        self.repeats = 0

    def ask(self, count: int) -> list[dict[str, str]]:
        """The next ``count`` rule sets (without a budget: all of them)."""
        count = count if self.batched else self.size
        batch = self.points[self.given : self.given + count]
        self.given += len(batch)
        self.proposals += len(batch)
        return batch

    def exhausted(self) -> bool:
        return self.given >= self.size


class OptunaSearch:
    """Proposals from optuna's TPE sampler, seeded: the same seed and the same verdicts
    give the same proposals. A proposal already raced is told its outcome again at no
    cost (a repeat)."""

    name = "optuna"
    learns = True

    def __init__(self, axes: Sequence[Axis], seed: int) -> None:
        try:
            import optuna
        except ImportError:
            raise BalanceError(
                f"searching a large space needs optuna (the extra 'tune'): {INSTALL_HINT}; "
                "or race a smaller grid (--search grid, listed values)"
            ) from None
        from optuna.distributions import CategoricalDistribution, IntDistribution

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.axes = list(axes)
        self.distributions: dict[str, Any] = {}
        for axis in self.axes:
            if axis.sampled is not None:
                low, high = (int(v) for v in axis.sampled)
                self.distributions[axis.name] = IntDistribution(low, high)
            elif _consecutive(axis.values):
                # The order of whole numbers is information the sampler can use.
                values = [int(v) for v in axis.values]
                self.distributions[axis.name] = IntDistribution(min(values), max(values))
            else:
                self.distributions[axis.name] = CategoricalDistribution(list(axis.values))
        sampler = optuna.samplers.TPESampler(
            seed=seed,
            multivariate=True,
            n_startup_trials=max(10, 2 * len(self.axes)),
            constant_liar=True,
        )
        self.study = optuna.create_study(sampler=sampler)
        self.size = math.prod(a.size for a in self.axes)
        self.seen: dict[tuple, tuple[float, list[float]]] = {}
        self.open: dict[tuple, list[Any]] = {}
        self.proposals = 0
        self.repeats = 0
        self.in_a_row = 0

    def _values(self, params: Mapping[str, Any]) -> dict[str, str]:
        return {a.name: str(params[a.name]) for a in self.axes}

    def ask(self, count: int) -> list[dict[str, str]]:
        """Up to ``count`` rule sets not raced before (repeats told at once)."""
        batch: list[dict[str, str]] = []
        while len(batch) < count and not self.exhausted():
            trial = self.study.ask(self.distributions)
            self.proposals += 1
            values = self._values(trial.params)
            key = tuple(values.items())
            if key in self.seen:
                self.repeats += 1
                self.in_a_row += 1
                self._tell(trial, *self.seen[key])
                continue
            self.in_a_row = 0
            if key in self.open:  # proposed twice in one batch: told with the first
                self.open[key].append(trial)
                self.repeats += 1
                continue
            self.open[key] = [trial]
            batch.append(values)
        return batch

    def tell(self, values: Mapping[str, str], objective: float, constraints: list[float]) -> None:
        key = tuple((a.name, values[a.name]) for a in self.axes)
        self.seen[key] = (objective, constraints)
        for trial in self.open.pop(key, []):
            self._tell(trial, objective, constraints)

    def _tell(self, trial: Any, objective: float, constraints: list[float]) -> None:
        for k, value in enumerate(constraints):
            trial.set_constraint(f"target {k}", float(value))
        self.study.tell(trial, objective)

    def exhausted(self) -> bool:
        return len(self.seen) + len(self.open) >= self.size or self.in_a_row >= MAX_REPEATS


def _consecutive(values: Sequence[str]) -> bool:
    """Whole numbers, each one more than the last (``LO..HI``)."""
    try:
        numbers = [int(v) for v in values]
    except ValueError:
        return False
    return len(numbers) > 1 and numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def make_search(search: str, axes: Sequence[Axis], seed: int, budget: int | None) -> Any:
    """The proposer a tune races from (see :func:`choose_search`)."""
    if search == "grid":
        return GridSearch(axes, batched=budget is not None)
    return OptunaSearch(axes, seed)
