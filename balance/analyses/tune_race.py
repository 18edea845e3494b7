"""One candidate rule set raced against the design targets, block by block.

Each target of a candidate has a confidence sequence (:mod:`balance.stats.confseq`,
through :class:`balance.analyses.check.Target`, the machinery of ``balance check``) at
level ``1 - 0.05 / T`` for ``T`` targets (the balance index's seats share their target's
part again), so all of a candidate's sequences hold together with probability at least
95% at every number of games at once. A candidate therefore fails as soon as one target's
interval lies outside its band and passes once every target's lies inside: deciding at
the first block that settles it keeps the chance of a wrong verdict under 5% per
candidate. The blocks arrive as tallies (outcome counts), whose sums are all a sequence
needs. The measures a decided candidate is ranked and described by (its rule changes,
how far it falls outside the bands) are here too, shared by the tune and its pages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balance.analyses.check import FAIL, PASS, UNDECIDED, metric_for
from balance.analyses.check import Target as Sequential
from balance.analyses.sweep_design import VARIANT, Axis, Target, figure_of
from balance.analyses.sweep_tally import CORE, Tally
from balance.core.errors import BalanceError
from balance.core.formatting import rule_value
from balance.core.game import Setup
from balance.games import get_game

#: The chance of a wrong verdict a candidate may have (split over its targets).
ERROR = 0.05


def block_sums(tally: Tally, target: Sequential) -> tuple[np.ndarray, np.ndarray]:
    """A block's sums for a target's sequence, from the block's tally.

    Returns
    -------
    total, squares : float ``(k,)`` each: the sums over the block's games of the
        target's per-game values rescaled to ``[0, 1]`` and of their squares (``k`` is
        the number of seats for the balance index, else 1).
    """
    core = tally.groups[CORE]
    where = {name: k for k, name in enumerate(core.columns)}
    counts = core.counts.astype(float)  # (R,)
    won = core.rows[:, [where[c] for c in tally.won_columns]]  # (R, n)
    name = target.metric.name
    kind, _, index = name.partition(".")
    if kind == "balance_index":
        values = won  # (R, n), 0 or 1
    elif kind == "seat_win_rate":
        values = won[:, [int(index)]]
    elif kind == "winner_count":
        values = (won.sum(axis=1) == int(index)).astype(float)[:, None]
    elif kind == "finished_rate":
        values = (core.rows[:, where["finished"]] > 0).astype(float)[:, None]
    else:  # length_mean
        values = core.rows[:, [where["length"]]]
    metric = target.metric
    x = (values - metric.low) / (metric.high - metric.low)
    if x.size and (x.min() < -1e-9 or x.max() > 1 + 1e-9):  # as BettingCS.update refuses
        raise ValueError(f"a game's {name} lies outside its bounds [{metric.low}, {metric.high}]")
    x = np.clip(x, 0.0, 1.0)
    return counts @ x, counts @ (x * x)


def sequential_target(target: Target, setup: Setup, level: float) -> Sequential:
    """A tune target as ``balance check`` decides it, at ``level``; a one-line error for a
    figure without known bounds."""
    try:
        metric = metric_for(target.figure, setup)
    except KeyError:
        from balance.analyses.check import checkable

        raise BalanceError(
            f"--target {target.text!r}: tune decides targets on figures with known bounds "
            f"({', '.join(checkable(setup))} at {setup.players} players); {target.figure} "
            "is not one of them"
        ) from None
    low = None if math.isinf(target.low) else target.low
    high = None if math.isinf(target.high) else target.high
    return Sequential(metric, low, high, setup.players, level=level)


class CandidateRace:
    """A candidate's targets and their sequences: the tracker a tune's collector feeds.

    Parameters
    ----------
    setup : the candidate's rules and players.
    targets : the design targets.
    cap : games after which the candidate stops undecided (``--max-games`` or the
        budget's share).
    """

    def __init__(self, setup: Setup, targets: Sequence[Target], cap: int) -> None:
        self.targets = list(targets)
        level = 1 - ERROR / len(self.targets)
        self.sequences = [sequential_target(t, setup, level) for t in self.targets]
        self.cap = cap
        self.games = 0
        self.decided_by: str | None = None

    def update_tally(self, tally: Tally) -> None:
        for sequence in self.sequences:
            sequence.feed(tally.games, *block_sums(tally, sequence), sized=True)
        self.games += tally.games

    def done(self) -> bool:
        decided = [s.decide() for s in self.sequences]
        for target, sequence in zip(self.targets, self.sequences, strict=True):
            if sequence.verdict == FAIL and self.decided_by is None:
                self.decided_by = target.text
        return self.decided_by is not None or all(decided) or self.games >= self.cap

    def finish(self) -> None:
        """Nothing to close: the verdicts are read by :meth:`outcome`."""

    @property
    def verdict(self) -> str:
        if self.decided_by is not None:
            return FAIL
        if all(s.verdict == PASS for s in self.sequences):
            return PASS
        return UNDECIDED

    def outcome(self) -> dict[str, Any]:
        """What the candidate's JSON keeps of its race: the verdict, each target's
        verdict and anytime-valid interval, the deciding target, and for an undecided
        candidate what each open target would need."""
        pairs = list(zip(self.targets, self.sequences, strict=True))
        intervals = {t.text: list(s.interval()) for t, s in pairs}
        verdicts = {t.text: s.verdict for t, s in pairs}
        needs = {t.text: games_needed(s, t, self.games) for t, s in pairs if s.verdict == UNDECIDED}
        return {
            "verdict": self.verdict,
            "verdicts": verdicts,
            "intervals": intervals,
            "decided_by": self.decided_by,
            "needs": needs if self.verdict == UNDECIDED else {},
        }


#: Below this share of the half-width, an estimate sits on a band's edge.
ON_THE_EDGE = 1 / 64


def games_needed(sequence: Sequential, target: Target, games: int) -> dict[str, Any]:
    """About how many games an undecided target would need in all: ``n (w / d)^2`` (the
    interval's reach ``w`` from the estimate towards the edge it straddles shrinks as
    ``1 / sqrt(n)``; it must fall below ``d``, the estimate's distance to that edge), with
    a fifth more for the sequence's slower start; or why no practical number would do."""
    low, high = sequence.interval()
    if not (math.isfinite(low) and math.isfinite(high)) or games == 0:
        return {"games": None, "reason": "no games played"}
    estimate = sequence.running_estimate()
    straddled = [e for e in (target.low, target.high) if math.isfinite(e) and low <= e <= high]
    edge = min(straddled or [e for e in (target.low, target.high) if math.isfinite(e)],
               key=lambda e: abs(estimate - e))  # fmt: skip
    distance = abs(estimate - edge)
    # An interval cut at a bound (a balance index at 1) is narrower on that side: the
    # side facing the edge is the one that must shrink.
    reach = estimate - low if edge < estimate else high - estimate
    if distance < max(reach, 0.0) * ON_THE_EDGE or distance == 0:
        return {
            "games": None,
            "reason": f"{target.figure} is {estimate:.4g}, on the band's edge at {edge:g}: no "
            "practical number of games decides it; move the band or the rules",
        }
    wanted = max(games * (reach / distance) ** 2 * 1.2, games)
    wanted = float(f"{wanted:.2g}")  # "about": two figures
    return {
        "games": int(wanted),
        "reason": f"about {wanted:,.0f} games in all: {target.figure} is {estimate:.4g}, "
        f"{distance:.2g} from the band's edge at {edge:g}, and its interval reaches "
        f"{reach:.2g} towards it after {games:,}",
    }


def target_scale(target: Target) -> float:
    """The unit a figure's distance from a band is measured in: the band's width, else
    (a one-sided band) its edge's size, at least 1."""
    if math.isfinite(target.low) and math.isfinite(target.high) and target.high > target.low:
        return target.high - target.low
    edge = target.low if math.isfinite(target.low) else target.high
    return max(abs(edge), 1.0)


def shortfall(point: Mapping[str, Any], targets: Sequence[Target]) -> float:
    """How far a candidate's estimates fall outside the bands at worst, each in its
    target's unit (:func:`target_scale`); 0 when every estimate lies inside, infinite
    when one is unknown. The closest candidate when none passes has the least."""
    worst = 0.0
    for target in targets:
        value = figure_of(point["metrics"], target.figure)[0]
        if not math.isfinite(value):
            return math.inf
        outside = max(target.low - value, value - target.high, 0.0)
        worst = max(worst, outside / target_scale(target))
    return worst


def changed_rules(game: str, entry: Mapping[str, Any], axes: Sequence[Axis]) -> list[str]:
    """What a candidate changes from the game's defaults: each swept rule whose value
    differs (``plank_max 3 → 4``), and each variant switched on where variants are swept
    (``kraken on``); the player count is never a change. Their number ranks the
    feasible rule sets."""
    defaults = get_game(game).default_rules().to_dict()
    changed = [
        f"{name} {rule_value(defaults[name])} → {rule_value(value)}"
        for name, value in entry["rules"].items()
        if defaults.get(name) != value
    ]
    if any(a.kind == VARIANT for a in axes):
        changed += [f"{name} on" for name in entry["variants"]]
    return changed
