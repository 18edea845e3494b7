"""``balance check FILE.toml``: a designer's targets, decided like tests.

Each scenario of the file is a table of games (game, players, variants, rules,
strategies); each of its targets is a band for one figure of ``simulate --json``
(``length_mean`` from 7 to 8.5, ``seat_win_rate.0`` at least 0.3). Blocks of games are
played and every target is decided as soon as its 95% anytime-valid interval
(:mod:`balance.stats.confseq`) lies inside its band (**pass**) or outside it (**fail**); a
target still straddling an edge at the scenario's ``max_games`` is **undecided**. The
scenario stops once all its targets are decided. Because the intervals stay valid at any
stopping time, deciding each target at the first block that settles it keeps its 95%.

With a baseline (a saved ``balance check --json``, best from ``--save-baseline``), every
target's figure is also compared with its saved value once, over as many games as the
baseline rests on (fixed before the run): the 95% interval of the difference of the two
estimates, from both standard errors, inside ``+/- tolerance`` is **unchanged** (two
one-sided tests at 2.5% each), entirely outside it **moved**, else **undecided**.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.core.errors import BalanceError
from balance.core.game import Block, Setup
from balance.games import get_game
from balance.run.moments import RunSums
from balance.run.precision import DEFAULT_MAX_GAMES, play_until
from balance.run.results import json_safe, output_file, write_output
from balance.run.runner import MAX_GAMES
from balance.stats.confseq import BettingCS, gap_interval
from balance.stats.intervals import LEVEL, normal_quantile

SCENARIO_KEYS = {
    "name",
    "game",
    "players",
    "variants",
    "rules",
    "strategies",
    "rotate_seats",
    "max_games",
    "seed",
    "target",
}
TARGET_KEYS = {"metric", "min", "max", "tolerance"}
PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"
#: Default tolerance of a baseline comparison: a point for a share, two for the balance
#: index (its uncertainty spans two seats); for the mean length, 1% of the saved value.
SHARE_TOLERANCE, INDEX_TOLERANCE, LENGTH_TOLERANCE = 0.01, 0.02, 0.01
#: ``--save-baseline`` plays until every figure's 95% half-width is at most this share of
#: its tolerance, so that a rerun of as many games can be found unchanged.
BASELINE_PRECISION = 1 / 3


# -- where in the file ------------------------------------------------------------------
class Where:
    """Finds the line of a key of the ``i``-th scenario (or of its ``j``-th target) in
    the file's text: ``tomllib`` gives lines for syntax errors only."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.scenarios = [
            n for n, line in enumerate(self.lines) if re.match(r"\s*\[\[\s*scenario\s*\]\]", line)
        ]
        self.targets = [
            n
            for n, line in enumerate(self.lines)
            if re.match(r"\s*\[\[\s*scenario\s*\.\s*target\s*\]\]", line)
        ]

    def _span(self, scenario: int, target: int | None) -> tuple[int, int]:
        if scenario >= len(self.scenarios):
            return 0, len(self.lines)
        start = self.scenarios[scenario]
        end = (
            self.scenarios[scenario + 1] if scenario + 1 < len(self.scenarios) else len(self.lines)
        )
        own = [n for n in self.targets if start < n < end]
        if target is None:
            return start, own[0] if own else end
        if target >= len(own):
            return start, end
        stop = own[target + 1] if target + 1 < len(own) else end
        return own[target], stop

    def line(self, scenario: int, key: str | None = None, target: int | None = None) -> int:
        """1-based line of ``key`` (or of the section's header)."""
        start, end = self._span(scenario, target)
        if key is not None:
            # ``key = ...`` or a table header ``[[scenario.key]]`` (a misspelt one too).
            name = rf"[\"']?{re.escape(key)}[\"']?"
            pattern = re.compile(rf"\s*(?:{name}\s*=|\[\[?\s*scenario\s*\.\s*{name}\s*\]\]?)")
            for n in range(start, end):
                if pattern.match(self.lines[n]):
                    return n + 1
        return start + 1

    def error(
        self, reason: str, scenario: int, key: str | None = None, target: int | None = None
    ) -> BalanceError:
        return BalanceError(f"{self.path}:{self.line(scenario, key, target)}: {reason}")


# -- metrics ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """A checkable figure: how to read its per-game values from a block, and their range."""

    name: str
    read: Callable[[Block], np.ndarray] | None  # (G,) values; None: the balance index
    low: float = 0.0
    high: float = 1.0
    binary: bool = True


def checkable(setup: Setup) -> list[str]:
    """The metric names a target may use for ``setup``'s game and players."""
    n = setup.players
    names = [f"seat_win_rate.{s}" for s in range(n)]
    names += [f"winner_count.{k}" for k in range(n + 1)]
    names += ["balance_index", "finished_rate"]
    if get_game(setup.game).length_cap(setup.rules) is not None:
        names.append("length_mean")
    return names


def metric_for(name: str, setup: Setup) -> Metric:
    """The :class:`Metric` called ``name``; :class:`KeyError` if there is none."""
    if name not in checkable(setup):
        raise KeyError(name)
    kind, _, index = name.partition(".")
    if kind == "seat_win_rate":
        seat = int(index)
        return Metric(name, lambda b: b.won[:, seat].astype(float))
    if kind == "winner_count":
        k = int(index)
        return Metric(name, lambda b: (b.won.sum(axis=1) == k).astype(float))
    if kind == "finished_rate":
        return Metric(name, lambda b: b.finished.astype(float))
    if kind == "length_mean":
        cap = get_game(setup.game).length_cap(setup.rules)
        return Metric(name, lambda b: b.length.astype(float), 0.0, float(max(cap, 1)), binary=False)
    return Metric(name, None)


def per_game(metric: Metric, block: Block) -> np.ndarray:
    """The metric's per-game values in ``block``, ``(G, 1)``; the seats' wins ``(G, n)``
    for the balance index."""
    if metric.read is None:
        return np.asarray(block.won, dtype=float)
    return metric.read(block)[:, None]


def estimate_se(metric: Metric, sums: RunSums) -> tuple[float, float]:
    """The figure over the games of ``sums`` and its fixed-n standard error.

    The balance index's is the delta method's at the seats with the highest and lowest
    rates (exact when they are clear of the others, too wide near a tie).
    """
    g = sums.games
    if g == 0:
        return float("nan"), float("nan")
    total = [int(x) for x in sums.total]

    def se(pairs: Sequence[tuple[int, int, int]]) -> float:
        """From the covariances ``sign * cov(a, b)``, exact in integers, then divided."""
        if g < 2:
            return float("nan")
        scaled = sum(
            sign * (g * int(sums.cross[a, b]) - total[a] * total[b]) for sign, a, b in pairs
        )
        return math.sqrt(max(scaled, 0) / (g * (g - 1)) / g)

    if metric.read is not None:
        return total[0] / g, se([(1, 0, 0)])
    rates = np.array(total) / g
    if not (rates > 0).any():
        return float("nan"), float("nan")
    a, b = int(rates.argmax()), int(rates.argmin())
    return float(1 - (rates[a] - rates[b])), se([(1, a, a), (1, b, b), (-2, a, b)])


def default_tolerance(metric: str, value: float) -> float:
    """The tolerance of a comparison with a saved ``value`` when the target gives none."""
    if metric == "length_mean":
        return LENGTH_TOLERANCE * abs(value) if value == value and value else 1.0
    return INDEX_TOLERANCE if metric == "balance_index" else SHARE_TOLERANCE


#: The least half-width a sized bet aims at, as a share of the values' range.
STAKE_FLOOR = 3e-5
#: The normal quantile of a two-sided 95% interval.
Z = normal_quantile(0.5 + LEVEL / 2)


# -- targets ----------------------------------------------------------------------------
@dataclass
class Target:
    """A band for one figure, decided sequentially."""

    metric: Metric
    low: float | None
    high: float | None
    players: int
    tolerance: float | None = None  # of a comparison with a baseline; None: the default
    #: Coverage of the target's sequence: lower than 95% when it is one of several that
    #: must hold together (``balance tune`` splits 5% over a candidate's targets).
    level: float = LEVEL
    verdict: str = UNDECIDED
    decided_at: int | None = None
    cs: BettingCS = field(init=False)
    sums: RunSums = field(init=False)  # every game's, for the fixed-n standard error

    def __post_init__(self) -> None:
        if self.metric.read is None:  # the balance index: a union bound over the seats
            self.cs = BettingCS(
                self.players, level=1 - (1 - self.level) / self.players, binary=True
            )
        else:
            self.cs = BettingCS(
                1, self.metric.low, self.metric.high, level=self.level, binary=self.metric.binary
            )
        self.sums = _empty_sums(self.metric, self.players)

    def update(self, block: Block) -> None:
        values = per_game(self.metric, block)
        self.cs.update(values)
        self.sums.merge(RunSums.of_block(block.size, values, self.sums.columns, {}))

    def feed(self, size: int, total: np.ndarray, squares: np.ndarray, sized: bool = False) -> None:
        """Add a block from its sums alone (``(k,)`` each, of the values rescaled to
        ``[0, 1]``, as :meth:`BettingCS.update_sums` takes them): the sequence moves, the
        fixed-n sums behind :meth:`value` do not.

        ``sized``: the block's bet aims at the distance from the estimate so far to the
        band's nearest edge (:meth:`stake_target`), where the verdict is decided
        (hedged with the plug-in bet: :meth:`BettingCS._stake`).
        """
        target = self.stake_target() if sized else None
        self.cs.update_sums(size, total, squares, target)

    def stake_target(self) -> float | None:
        """The half-width worth betting on before the next block: the estimate's distance
        to the band's nearest edge (halved for the balance index, whose two extreme seats
        share it), from the blocks so far only; at least :data:`STAKE_FLOOR` of the
        values' range (a length's range is its cap, far wider than its spread). None
        before any game."""
        if not self.cs.games:
            return None
        share = 0.5 if self.metric.read is None else 1.0
        edges = [e for e in (self.low, self.high) if e is not None]
        distance = min(abs(self.running_estimate() - e) for e in edges)
        return max(share * distance, STAKE_FLOOR * self.cs.span)

    def running_estimate(self) -> float:
        """The figure over every game the sequence has seen (fed blocks included; NaN
        before any): the mean, or for the balance index 1 - the widest gap of seats."""
        means = self.cs.estimate
        if self.metric.read is None:
            return 1 - float(means.max() - means.min())
        return float(means[0])

    def allowed(self) -> float:
        """The tolerance of a comparison with this figure: the target's or the default."""
        return self.tolerance or default_tolerance(self.metric.name, self.value())

    def precise_enough(self) -> bool:
        """Whether the fixed-n 95% half-width is within :data:`BASELINE_PRECISION` of the
        tolerance: a baseline saved now can find a rerun unchanged."""
        return Z * estimate_se(self.metric, self.sums)[1] <= BASELINE_PRECISION * self.allowed()

    def value(self) -> float:
        return estimate_se(self.metric, self.sums)[0]

    def interval(self) -> tuple[float, float]:
        low, high = self.cs.interval()
        if self.metric.read is None:
            return gap_interval(low, high)
        return float(low[0]), float(high[0])

    def _judge(self) -> str:
        low, high = self.interval()
        band_low = -math.inf if self.low is None else self.low
        band_high = math.inf if self.high is None else self.high
        if band_low <= low and high <= band_high:
            return PASS
        if high < band_low or low > band_high:
            return FAIL
        return UNDECIDED

    def decide(self) -> bool:
        """Decide the target if its interval now settles it; True once decided."""
        if self.verdict != UNDECIDED:
            return True
        verdict = self._judge()
        if verdict == UNDECIDED and self._near_an_edge():
            self.cs.refine()
            verdict = self._judge()
        if verdict != UNDECIDED:
            self.verdict = verdict
            self.decided_at = self.cs.games
            return True
        return False

    def _near_an_edge(self) -> bool:
        slack = 4 * self.cs.step * self.cs.span
        low, high = self.interval()
        edges = [e for e in (self.low, self.high) if e is not None]
        return any(abs(low - e) < slack or abs(high - e) < slack for e in edges)

    def row(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "metric": self.metric.name,
            "min": self.low,
            "max": self.high,
            "value": self.value(),
            "interval": [low, high],
            "se": estimate_se(self.metric, self.sums)[1],
            "tolerance": self.allowed(),
            "verdict": self.verdict,
            "games": self.decided_at if self.decided_at is not None else self.cs.games,
            "games_played": self.cs.games,
        }


def _empty_sums(metric: Metric, players: int) -> RunSums:
    columns = [f"seat {s}" for s in range(players)] if metric.read is None else [metric.name]
    return RunSums(tuple(columns))


@dataclass
class Comparison:
    """A figure compared with its saved value over the first ``games`` games of the run.

    ``games`` is fixed before the run (the games the saved value rests on), so the
    difference's fixed-n interval holds whenever the run stops after them.
    """

    metric: Metric
    players: int
    saved: float
    saved_se: float
    saved_games: int
    tolerance: float
    games: int
    verdict: str = UNDECIDED
    sums: RunSums = field(init=False)

    def __post_init__(self) -> None:
        self.sums = _empty_sums(self.metric, self.players)

    def update(self, block: Block) -> None:
        wanted = self.games - self.sums.games
        if wanted > 0:
            values = per_game(self.metric, block)[:wanted]
            self.sums.merge(RunSums.of_block(len(values), values, self.sums.columns, {}))

    def difference(self) -> tuple[float, float, float]:
        """The estimate minus the saved value, and its 95% interval ``(d, low, high)``
        from both standard errors (the two runs taken as independent)."""
        value, se = estimate_se(self.metric, self.sums)
        d = value - self.saved
        half = Z * math.hypot(se, self.saved_se)
        return d, d - half, d + half

    def decide(self) -> bool:
        """Judge once the games are in: unchanged (pass), moved (fail) or undecided."""
        if self.sums.games < self.games:
            return False
        if self.verdict == UNDECIDED:
            _, low, high = self.difference()
            if -self.tolerance <= low and high <= self.tolerance:
                self.verdict = PASS
            elif low > self.tolerance or high < -self.tolerance:
                self.verdict = FAIL
        return True

    def row(self) -> dict[str, Any]:
        value, se = estimate_se(self.metric, self.sums)
        d, low, high = self.difference()
        return {
            "metric": self.metric.name,
            "baseline": self.saved,
            "baseline_se": self.saved_se,
            "baseline_games": self.saved_games,
            "tolerance": self.tolerance,
            "value": value,
            "se": se,
            "difference": d,
            "interval": [low, high],
            "verdict": self.verdict,
            "games": self.sums.games,
        }


class CheckTracker:
    """Follows a scenario's targets and comparisons; done once every one is decided (and,
    for a baseline to save, every figure is precise enough)."""

    def __init__(
        self,
        targets: Sequence[Target],
        comparisons: Sequence[Comparison] = (),
        precise: bool = False,
    ) -> None:
        self.targets = list(targets)
        self.comparisons = list(comparisons)
        self.precise = precise

    def update(self, block: Block) -> None:
        # Decided targets keep narrowing: their verdicts stand (the intervals are running
        # intersections), their estimates use every game of the scenario.
        for item in [*self.targets, *self.comparisons]:
            item.update(block)

    def done(self) -> bool:
        decided = all([item.decide() for item in [*self.targets, *self.comparisons]])
        return decided and (not self.precise or all(t.precise_enough() for t in self.targets))


# -- the file ---------------------------------------------------------------------------
@dataclass
class Scenario:
    name: str
    setup: Setup
    max_games: int
    targets: list[Target]
    line: int
    games: int = 0
    comparisons: list[Comparison] = field(default_factory=list)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def load_checks(path: str | Path) -> list[Scenario]:
    """Read and validate a targets file; a ``FILE:LINE: reason`` error for any mistake."""
    from balance.run.play import make_setup

    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise BalanceError(f"cannot read {path}: {reason}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        if reason.startswith("Cannot overwrite a value"):
            reason = (
                "a key given twice, or a [table] where [[scenario]] or [[scenario.target]] "
                "(double brackets) is meant"
            )
        raise BalanceError(f"{path}:{found.group(1) if found else 1}: {reason}") from None
    where = Where(str(path), text)
    extra = sorted(set(data) - {"scenario"})
    if extra:
        raise BalanceError(f"{path}:1: unknown field {extra[0]!r}; a file holds [[scenario]]s")
    scenarios = data.get("scenario")
    if isinstance(scenarios, dict):  # [scenario]: a single table, not one of a list
        line = next(
            (
                n
                for n, text in enumerate(where.lines, 1)
                if re.match(r"\s*\[\s*scenario\s*\]", text)
            ),
            1,
        )
        raise BalanceError(f"{path}:{line}: write [[scenario]], with double brackets")
    if not isinstance(scenarios, list) or not scenarios:
        raise BalanceError(f"{path}:1: no [[scenario]] in the file")
    names: set[str] = set()
    loaded = []
    for i, raw in enumerate(scenarios):
        if not isinstance(raw, dict):
            raise where.error("each scenario must be a table: [[scenario]]", i)
        for key in raw:
            if key not in SCENARIO_KEYS:
                raise where.error(
                    f"unknown field {key!r} in a scenario; fields: "
                    + ", ".join(sorted(SCENARIO_KEYS)),
                    i,
                    key,
                )
        for key in ("name", "game"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                raise where.error(f"a scenario needs a {key} (text)", i, key)
        name = raw["name"]
        if name in names:
            raise where.error(f"two scenarios are named {name!r}", i, "name")
        names.add(name)
        try:
            game = get_game(raw["game"])
        except BalanceError as error:
            raise where.error(str(error), i, "game") from None
        players = raw.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise where.error(f"players must be a whole number, not {players!r}", i, "players")
        variants = raw.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise where.error("variants must be a list of names", i, "variants")
        rules = raw.get("rules", {})
        if not isinstance(rules, dict):
            raise where.error("rules must be a table: rules = { name = value }", i, "rules")
        strategies = raw.get("strategies", ["random"])
        if isinstance(strategies, str):
            strategies = [strategies]
        if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
            raise where.error("strategies must be a list of names", i, "strategies")
        rotate = raw.get("rotate_seats", False)
        if not isinstance(rotate, bool):
            raise where.error("rotate_seats must be true or false", i, "rotate_seats")
        seed = raw.get("seed", 0)
        max_games = raw.get("max_games", DEFAULT_MAX_GAMES)
        if isinstance(max_games, bool) or not isinstance(max_games, int):
            raise where.error(
                f"max_games must be a whole number, not {max_games!r}", i, "max_games"
            )
        if not 1 <= max_games <= MAX_GAMES:
            raise where.error(f"max_games must be from 1 to {MAX_GAMES:,}", i, "max_games")
        # Each piece on its own, so that a mistake points at its own line.
        try:
            make_setup(game.id, players, 0)
        except BalanceError as error:
            raise where.error(str(error), i, "players") from None
        # Each step adds one piece to those before it, so the last set-up has them all.
        step: dict[str, Any] = {"rotate_seats": rotate}
        for key, value in (
            ("seed", seed),
            ("variants", variants),
            ("rules", rules),
            ("strategies", strategies),
        ):
            step[key] = value
            try:
                setup = make_setup(game.id, players, **step)
            except BalanceError as error:
                raise where.error(str(error), i, key) from None
        targets_raw = raw.get("target")
        if isinstance(targets_raw, dict):  # [scenario.target]: a table, not one of a list
            raise where.error("write [[scenario.target]], with double brackets", i, "target")
        if not isinstance(targets_raw, list) or not targets_raw:
            raise where.error("a scenario needs at least one [[scenario.target]]", i)
        targets = []
        for j, t in enumerate(targets_raw):
            targets.append(_target(t, setup, where, i, j))
        loaded.append(Scenario(name, setup, max_games, targets, where.line(i)))
    return loaded


def _top(metric: Metric) -> float:
    """The largest band edge taken: 1 for a share; none for a length (a band above the
    cap is simply passed)."""
    return math.inf if metric.name == "length_mean" else metric.high


def _target(raw: Any, setup: Setup, where: Where, i: int, j: int) -> Target:
    if not isinstance(raw, dict):
        raise where.error("each target must be a table: [[scenario.target]]", i, "target")
    for key in raw:
        if key not in TARGET_KEYS:
            raise where.error(
                f"unknown field {key!r} in a target; fields: metric, min, max, tolerance",
                i,
                key,
                j,
            )
    name = raw.get("metric")
    if not isinstance(name, str):
        raise where.error("a target needs a metric (text)", i, "metric", j)
    try:
        metric = metric_for(name, setup)
    except KeyError:
        raise where.error(
            f"{setup.game} with {setup.players} players has no checkable metric {name!r}; "
            f"checkable: {', '.join(checkable(setup))}",
            i,
            "metric",
            j,
        ) from None
    low, high = raw.get("min"), raw.get("max")
    if low is None and high is None:
        raise where.error("a target needs min, max or both", i, "metric", j)
    for key, value in (("min", low), ("max", high)):
        if value is None:
            continue
        if not _number(value) or not math.isfinite(value):
            raise where.error(f"{key} must be a number, not {value!r}", i, key, j)
        if not metric.low <= value <= _top(metric):
            if metric.name == "length_mean":
                raise where.error(
                    f"{key} of length_mean must be 0 or more, not {value:g}", i, key, j
                )
            hint = f" (write {value / 100:g} for {value:g}%)" if 1 < value <= 100 else ""
            raise where.error(
                f"{key} of {name} is a share from 0 to 1, not {value:g}{hint}", i, key, j
            )
    if low is not None and high is not None and low > high:
        raise where.error(f"min ({low:g}) is above max ({high:g})", i, "min", j)
    tolerance = raw.get("tolerance")
    if tolerance is not None and (not _number(tolerance) or not 0 < tolerance < _top(metric)):
        below = "" if _top(metric) == math.inf else f" and below {_top(metric):g}"
        raise where.error(
            f"tolerance of {name} must be a number above 0{below} (in its own units), "
            f"not {tolerance!r}",
            i,
            "tolerance",
            j,
        )
    return Target(metric, low, high, setup.players, tolerance)


def add_baseline(scenarios: Sequence[Scenario], path: str | Path) -> None:
    """Give each scenario a comparison of each of its targets' figures with its value in
    a saved ``balance check --json``, over as many games as that value rests on."""
    try:
        saved = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise BalanceError(f"cannot read {path}: {reason}") from None
    except json.JSONDecodeError as error:
        raise BalanceError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("scenarios"), list):
        raise BalanceError(f"{path}: not a saved 'balance check --json' (no scenarios)")
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for scenario in saved["scenarios"]:
        for row in scenario.get("targets", []):
            if "baseline" not in row:  # a comparison of that run: not a saved figure
                rows[(scenario.get("name"), row.get("metric"))] = row
    for scenario in scenarios:
        for metric in dict.fromkeys(t.metric.name for t in scenario.targets):
            row = rows.get((scenario.name, metric))
            if row is None:
                raise BalanceError(
                    f"{path}: no saved value of {metric} for scenario {scenario.name!r}"
                )
            if "se" not in row:
                raise BalanceError(
                    f"{path}: saved by an earlier balance check, without standard errors; "
                    f"save it again: balance check FILE --save-baseline {path}"
                )
            value, se, games = row["value"], row["se"], row.get("games_played")
            if not all(_number(x) for x in (value, se, games)) or games < 2:
                raise BalanceError(
                    f"{path}: no estimate of {metric} for scenario {scenario.name!r} "
                    "(value, se and games_played)"
                )
            # Of the first target of that figure (two bands of one figure are one figure).
            given = next(t.tolerance for t in scenario.targets if t.metric.name == metric)
            scenario.comparisons.append(
                Comparison(
                    metric_for(metric, scenario.setup),
                    scenario.setup.players,
                    float(value),
                    float(se),
                    int(games),
                    given or default_tolerance(metric, float(value)),
                    min(int(games), scenario.max_games),
                )
            )


def imprecise(result: Mapping[str, Any]) -> list[str]:
    """A line for each figure of a result too imprecise to serve as a baseline (its 95%
    half-width above :data:`BASELINE_PRECISION` of its tolerance), for ``--save-baseline``."""
    lines = []
    for s in result["scenarios"]:
        for row in s["targets"]:
            if "baseline" in row:
                continue
            metric, half = row["metric"], Z * row["se"]
            tolerance = row["tolerance"]
            if not half <= BASELINE_PRECISION * tolerance:
                lines.append(
                    f"{s['name']}: {metric} rests on {row['games_played']:,} games, "
                    f"+/-{half:.4g} (95%), above a third of its tolerance {tolerance:g}: "
                    "a rerun may be undecided against it (raise max_games)"
                )
    return lines


def run_checks(
    scenarios: Sequence[Scenario],
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
    precise: bool = False,
) -> dict[str, Any]:
    """Play each scenario until its targets and comparisons are decided (and, with
    ``precise``, every figure precise enough for a baseline); the ``check --json``
    result."""
    out = []
    for scenario in scenarios:
        tracker = CheckTracker(scenario.targets, scenario.comparisons, precise)
        result = play_until(
            scenario.setup,
            tracker,
            scenario.max_games,
            threads=threads,
            progress=progress,
            on_compile=on_compile,
            sums_only=True,  # the trackers read every block; the run keeps only its sums
        )
        scenario.games = result.games
        for target in scenario.targets:
            target.cs.refine()
        out.append(
            {
                "name": scenario.name,
                "game": scenario.setup.game,
                "players": scenario.setup.players,
                "seed": scenario.setup.seed,
                "games": result.games,
                "max_games": scenario.max_games,
                "partial": result.partial,
                "targets": [target.row() for target in scenario.targets]
                + [comparison.row() for comparison in scenario.comparisons],
            }
        )
        if result.partial:
            break
    result: dict[str, Any] = {"scenarios": out, "anytime_valid": True, "level": LEVEL}
    if precise:
        result["baseline_precision"] = BASELINE_PRECISION
    return result


def exit_code(result: Mapping[str, Any]) -> int:
    """0 when every target passed, 1 when any failed, 3 when none failed but some are
    undecided."""
    verdicts = [t["verdict"] for s in result["scenarios"] for t in s["targets"]]
    if FAIL in verdicts:
        return 1
    return 3 if UNDECIDED in verdicts else 0


# -- output -----------------------------------------------------------------------------
def _is_share(metric: str) -> bool:
    return not metric.startswith(("length_mean", "balance_index"))


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return ""
    if value != value:
        return "n/a"
    return f"{100 * value:.2f}%" if _is_share(metric) else f"{value:.3f}"


def band_text(row: Mapping[str, Any]) -> str:
    metric = row["metric"]
    low, high = row["min"], row["max"]
    if low is not None and high is not None:
        return f"{_fmt(low, metric)} to {_fmt(high, metric)}"
    return f">= {_fmt(low, metric)}" if low is not None else f"<= {_fmt(high, metric)}"


def _pm(value: float | None, metric: str) -> str:
    """A half-width or a difference: points for a share."""
    if value is None or value != value:
        return "n/a"
    return f"{100 * value:+.2f} pp" if _is_share(metric) else f"{value:+.3f}"


def _compared(row: Mapping[str, Any]) -> bool:
    return "baseline" in row


def _cells(row: Mapping[str, Any]) -> list[str]:
    metric = row["metric"]
    low, high = row["interval"]
    if _compared(row):
        verdict = {PASS: "unchanged", FAIL: "MOVED"}.get(row["verdict"], "undecided")
        se = [x if x is None else Z * x for x in (row["baseline_se"], row["se"])]
        return [
            metric,
            f"{_fmt(row['baseline'], metric)} +/- {_pm(se[0], metric)[1:]}",
            f"{_fmt(row['value'], metric)} +/- {_pm(se[1], metric)[1:]}",
            f"{_pm(row['difference'], metric)} [{_pm(low, metric)}, {_pm(high, metric)}]",
            f"+/- {_pm(row['tolerance'], metric)[1:]}",
            verdict,
            f"{row['baseline_games']:,} / {row['games']:,}",
        ]
    return [
        metric,
        band_text(row),
        _fmt(row["value"], metric),
        f"[{_fmt(low, metric)}, {_fmt(high, metric)}]",
        row["verdict"].upper() if row["verdict"] != PASS else "pass",
        f"{row['games']:,}",
    ]


HEADER = ["target", "band", "estimate", "95% anytime interval", "verdict", "games"]
COMPARED = [
    "against the baseline",
    "baseline (95%)",
    "now (95%)",
    "difference [95% interval]",
    "tolerance",
    "verdict",
    "games (baseline / now)",
]


def _counts(result: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The verdicts of the targets, then those of the comparisons with a baseline."""
    rows = [t for s in result["scenarios"] for t in s["targets"]]
    return (
        [t["verdict"] for t in rows if not _compared(t)],
        [t["verdict"] for t in rows if _compared(t)],
    )


def _tables(s: Mapping[str, Any]) -> list[tuple[list[str], list[Mapping[str, Any]]]]:
    """A scenario's tables: its targets, then its comparisons (if any)."""
    targets = [row for row in s["targets"] if not _compared(row)]
    compared = [row for row in s["targets"] if _compared(row)]
    return [(HEADER, targets)] + ([(COMPARED, compared)] if compared else [])


def check_text(result: Mapping[str, Any]) -> str:
    """The result as text: a table per scenario, then the counts."""
    lines = []
    for s in result["scenarios"]:
        seed = f", seed {s['seed']}" if "seed" in s else ""
        lines.append(
            f"{s['name']}: {s['game']}, {s['players']} players{seed}, {s['games']:,} games "
            f"(at most {s['max_games']:,})"
        )
        for header, table in _tables(s):
            rows = [header] + [_cells(row) for row in table]
            widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
            for r in rows:
                cells = (cell.ljust(w) for cell, w in zip(r, widths, strict=True))
                lines.append(("  " + "  ".join(cells)).rstrip())
        lines.append("")
    verdicts, compared = _counts(result)
    lines.append(
        f"{verdicts.count(PASS)} passed, {verdicts.count(FAIL)} failed, "
        f"{verdicts.count(UNDECIDED)} undecided. Each target was decided at the first block "
        "(4,096 games) whose 95% anytime-valid interval lay inside its band (pass) or "
        "outside it (fail); games: when it was decided; estimates and intervals: from "
        "every game of its scenario."
    )
    if "baseline_precision" in result:
        lines.append(
            "Saved as a baseline: each scenario played on until every figure's 95% "
            "half-width (fixed number of games) was at most a third of its tolerance, or "
            "to max_games."
        )
    if compared:
        lines.append(
            f"Against the baseline: {compared.count(PASS)} unchanged, {compared.count(FAIL)} "
            f"moved, {compared.count(UNDECIDED)} undecided. Each figure over as many games as "
            "its saved value rests on, minus that value; the difference's 95% interval (fixed "
            "number of games, from both standard errors) inside +/- tolerance: unchanged; "
            "entirely outside: moved; else undecided."
        )
        lines += _undecided_lines(result)
    return "\n".join(lines)


def _undecided_lines(result: Mapping[str, Any]) -> list[str]:
    """Why each undecided comparison is undecided: an interval too wide for its tolerance
    (more than half as wide as +/- tolerance), or, on a narrower one, a difference close
    to the tolerance (within half of it either way)."""
    wide, close = [], []
    for s in result["scenarios"]:
        for row in s["targets"]:
            if not _compared(row) or row["verdict"] != UNDECIDED:
                continue
            low, high = row["interval"]
            name = f"{s['name']}: {row['metric']}"
            if not (high - low) / 2 <= row["tolerance"] / 2:
                wide.append(name)
            else:
                close.append(name)
    lines = []
    if wide:
        lines.append(
            "Undecided for want of games (the difference's 95% interval reaches more than "
            "half the tolerance either side): "
            + "; ".join(wide)
            + ". A baseline saved with --save-baseline, and a rerun as long as it "
            "(max_games), would tell."
        )
    if close:
        lines.append(
            "Undecided because the difference lies close to the tolerance (its interval "
            "straddles +/- tolerance: the figure moved by about as much as the tolerance): "
            + "; ".join(close)
            + "."
        )
    return lines


def check_markdown(result: Mapping[str, Any]) -> str:
    """The result as Markdown tables, for a pull-request comment."""
    verdicts, compared = _counts(result)
    summary = (
        f"**balance check**: {verdicts.count(PASS)} passed, {verdicts.count(FAIL)} failed, "
        f"{verdicts.count(UNDECIDED)} undecided (95% anytime-valid intervals)"
    )
    if compared:
        summary += (
            f"; against the baseline {compared.count(PASS)} unchanged, "
            f"{compared.count(FAIL)} moved, {compared.count(UNDECIDED)} undecided"
        )
    lines = [summary, ""]
    for s in result["scenarios"]:
        lines += [
            f"#### {s['name']} ({s['game']}, {s['players']} players, {s['games']:,} games)",
            "",
        ]
        for header, table in _tables(s):
            lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            for row in table:
                cells = _cells(row)
                mark = {PASS: "✅ ", FAIL: "❌ "}.get(row["verdict"], "⚠️ ")
                cells[-2] = mark + cells[-2].lower()
                lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
            lines.append("")
    return "\n".join(lines)


def check_junit(result: Mapping[str, Any]) -> str:
    """The result as JUnit XML: a test suite per scenario, a test case per target and per
    comparison with the baseline."""
    suites = ET.Element("testsuites", name="balance check")
    for s in result["scenarios"]:
        rows = s["targets"]
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=s["name"],
            tests=str(len(rows)),
            failures=str(sum(r["verdict"] == FAIL for r in rows)),
            skipped=str(sum(r["verdict"] == UNDECIDED for r in rows)),
            errors="0",
        )
        for row in rows:
            cells = _cells(row)
            if _compared(row):
                name = f"{row['metric']} = baseline {cells[4]}"
                detail = (
                    f"baseline {cells[1]}, now {cells[2]}, difference {cells[3]} (95%), "
                    f"games {cells[6]}"
                )
                failure, skipped = "moved by more than the tolerance", "undecided"
            else:
                name = f"{row['metric']} {cells[1]}"
                detail = f"estimate {cells[2]}, 95% anytime interval {cells[3]}, {cells[5]} games"
                failure, skipped = f"outside {cells[1]}", "undecided at max_games"
            case = ET.SubElement(suite, "testcase", classname=s["name"], name=name)
            if row["verdict"] == FAIL:
                ET.SubElement(case, "failure", message=f"{failure}: {detail}")
            elif row["verdict"] == UNDECIDED:
                ET.SubElement(case, "skipped", message=f"{skipped}: {detail}")
            else:
                ET.SubElement(case, "system-out").text = detail
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def check_outputs(
    junit: Path | None, markdown: Path | None, save_baseline: Path | None = None
) -> None:
    """Make sure ``--junit``, ``--markdown`` and ``--save-baseline`` can be written before
    any game is played: a one-line error (exit code 2), never taken for a failed target
    (exit code 1)."""
    if save_baseline is not None:
        output_file(save_baseline, "--save-baseline")
    if junit is not None:
        output_file(junit, "--junit")
    if markdown is not None:
        output_file(markdown, "--markdown")


def write_outputs(
    result: Mapping[str, Any],
    junit: Path | None,
    markdown: Path | None,
    save_baseline: Path | None = None,
) -> None:
    """The result as JUnit XML in ``junit``, as Markdown in ``markdown`` and as JSON (a
    baseline) in ``save_baseline``, if given."""
    if save_baseline is not None:
        write_output(Path(save_baseline), json.dumps(json_safe(result)) + "\n")
    if junit is not None:
        write_output(Path(junit), check_junit(json_safe(result)))
    if markdown is not None:
        write_output(Path(markdown), check_markdown(json_safe(result)))
