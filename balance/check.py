"""``balance check FILE.toml``: a designer's targets, decided like tests.

Each scenario of the file is a table of games (game, players, variants, rules,
strategies); each of its targets is a band for one figure of ``simulate --json``
(``length_mean`` from 7 to 8.5, ``seat_win_rate.0`` at least 0.3). Blocks of games are
played and every target is decided as soon as its 95% anytime-valid interval
(:mod:`balance.confseq`) lies inside its band (**pass**) or outside it (**fail**); a
target still straddling an edge at the scenario's ``max_games`` is **undecided**. The
scenario stops once all its targets are decided. Because the intervals stay valid at any
stopping time, deciding each target at the first block that settles it keeps its 95%.

With a baseline (a saved ``balance check --json``), every target's figure is also
checked for equivalence with its saved value: two one-sided tests that it moved by less
than the tolerance, decided the same way on the band ``value +/- tolerance``.
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

from balance.confseq import BettingCS, gap_interval
from balance.errors import BalanceError
from balance.games import get_game
from balance.games.base import Block, Setup
from balance.precision import DEFAULT_MAX_GAMES, play_until
from balance.results import json_safe, output_file, write_output
from balance.run import MAX_GAMES
from balance.stats import LEVEL

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
TARGET_KEYS = {"metric", "min", "max"}
PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"


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


# -- targets ----------------------------------------------------------------------------
@dataclass
class Target:
    """A band for one figure, decided sequentially."""

    metric: Metric
    low: float | None
    high: float | None
    players: int
    baseline: float | None = None
    tolerance: float | None = None
    verdict: str = UNDECIDED
    decided_at: int | None = None
    cs: BettingCS = field(init=False)

    def __post_init__(self) -> None:
        if self.metric.read is None:  # the balance index: a union bound over the seats
            self.cs = BettingCS(self.players, level=1 - (1 - LEVEL) / self.players, binary=True)
        else:
            self.cs = BettingCS(1, self.metric.low, self.metric.high, binary=self.metric.binary)

    def update(self, block: Block) -> None:
        if self.metric.read is None:
            self.cs.update(block.won.astype(float))
        else:
            self.cs.update(self.metric.read(block))

    def value(self) -> float:
        estimate = self.cs.estimate
        if self.metric.read is not None:
            return float(estimate[0])
        if not self.cs.games or not (estimate > 0).any():
            return float("nan")
        return float(1 - (estimate.max() - estimate.min()))

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
        row: dict[str, Any] = {
            "metric": self.metric.name,
            "min": self.low,
            "max": self.high,
            "value": self.value(),
            "interval": [low, high],
            "verdict": self.verdict,
            "games": self.decided_at if self.decided_at is not None else self.cs.games,
            "games_played": self.cs.games,
        }
        if self.baseline is not None:
            row["baseline"] = self.baseline
            row["tolerance"] = self.tolerance
        return row


class CheckTracker:
    """Follows a scenario's targets; done once every one is decided."""

    def __init__(self, targets: Sequence[Target]) -> None:
        self.targets = list(targets)

    def update(self, block: Block) -> None:
        # Decided targets keep narrowing: their verdicts stand (the intervals are running
        # intersections), their estimates use every game of the scenario.
        for target in self.targets:
            target.update(block)

    def done(self) -> bool:
        return all([target.decide() for target in self.targets])


# -- the file ---------------------------------------------------------------------------
@dataclass
class Scenario:
    name: str
    setup: Setup
    max_games: int
    targets: list[Target]
    line: int
    games: int = 0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def load_checks(path: str | Path) -> list[Scenario]:
    """Read and validate a targets file; a ``FILE:LINE: reason`` error for any mistake."""
    from balance.api import make_setup

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
        raise BalanceError(f"{path}:{found.group(1) if found else 1}: {reason}") from None
    where = Where(str(path), text)
    extra = sorted(set(data) - {"scenario"})
    if extra:
        raise BalanceError(f"{path}:1: unknown field {extra[0]!r}; a file holds [[scenario]]s")
    scenarios = data.get("scenario")
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
                f"unknown field {key!r} in a target; fields: metric, min, max", i, key, j
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
        if value is not None and (not _number(value) or not math.isfinite(value)):
            raise where.error(f"{key} must be a number, not {value!r}", i, key, j)
    for key, value in (("min", low), ("max", high)):
        if value is not None and not metric.low <= value <= _top(metric):
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
    return Target(metric, low, high, setup.players)


def add_baseline(scenarios: Sequence[Scenario], path: str | Path, tolerance: float) -> None:
    """Add to each scenario a regression target for each of its targets' figures: the
    band ``saved value +/- tolerance`` of a saved ``balance check --json``."""
    if not _number(tolerance) or not 0 < tolerance < 1e6:
        raise BalanceError(f"--tolerance must be a positive number, not {tolerance!r}")
    try:
        saved = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise BalanceError(f"cannot read {path}: {reason}") from None
    except json.JSONDecodeError as error:
        raise BalanceError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("scenarios"), list):
        raise BalanceError(f"{path}: not a saved 'balance check --json' (no scenarios)")
    values: dict[tuple[str, str], float] = {}
    for scenario in saved["scenarios"]:
        for row in scenario.get("targets", []):
            if row.get("baseline") is None and _number(row.get("value")):
                values[(scenario.get("name"), row.get("metric"))] = float(row["value"])
    for scenario in scenarios:
        for metric in dict.fromkeys(t.metric.name for t in list(scenario.targets)):
            if (scenario.name, metric) not in values:
                raise BalanceError(
                    f"{path}: no saved value of {metric} for scenario {scenario.name!r}"
                )
            value = values[(scenario.name, metric)]
            scenario.targets.append(
                Target(
                    metric_for(metric, scenario.setup),
                    value - tolerance,
                    value + tolerance,
                    scenario.setup.players,
                    baseline=value,
                    tolerance=tolerance,
                )
            )


def run_checks(
    scenarios: Sequence[Scenario],
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play each scenario until its targets are decided; the ``check --json`` result."""
    out = []
    for scenario in scenarios:
        tracker = CheckTracker(scenario.targets)
        result = play_until(
            scenario.setup,
            tracker,
            scenario.max_games,
            threads=threads,
            progress=progress,
            on_compile=on_compile,
        )
        scenario.games = result.games
        for target in scenario.targets:
            target.cs.refine()
        out.append(
            {
                "name": scenario.name,
                "game": scenario.setup.game,
                "players": scenario.setup.players,
                "games": result.games,
                "max_games": scenario.max_games,
                "partial": result.partial,
                "targets": [target.row() for target in scenario.targets],
            }
        )
        if result.partial:
            break
    return {"scenarios": out, "anytime_valid": True, "level": LEVEL}


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
    if row.get("baseline") is not None:
        tol = row["tolerance"]
        shown = f"{100 * tol:g} pp" if _is_share(metric) else f"{tol:g}"
        return f"= {_fmt(row['baseline'], metric)} +/- {shown} (baseline)"
    low, high = row["min"], row["max"]
    if low is not None and high is not None:
        return f"{_fmt(low, metric)} to {_fmt(high, metric)}"
    return f">= {_fmt(low, metric)}" if low is not None else f"<= {_fmt(high, metric)}"


def _cells(row: Mapping[str, Any]) -> list[str]:
    metric = row["metric"]
    low, high = row["interval"]
    return [
        metric,
        band_text(row),
        _fmt(row["value"], metric),
        f"[{_fmt(low, metric)}, {_fmt(high, metric)}]",
        row["verdict"].upper() if row["verdict"] != PASS else "pass",
        f"{row['games']:,}",
    ]


HEADER = ["target", "band", "estimate", "95% anytime interval", "verdict", "games"]


def check_text(result: Mapping[str, Any]) -> str:
    """The result as text: a table per scenario, then the counts."""
    lines = []
    for s in result["scenarios"]:
        lines.append(
            f"{s['name']}: {s['game']}, {s['players']} players, {s['games']:,} games "
            f"(at most {s['max_games']:,})"
        )
        rows = [HEADER] + [_cells(row) for row in s["targets"]]
        widths = [max(len(r[c]) for r in rows) for c in range(len(HEADER))]
        for r in rows:
            cells = (cell.ljust(w) for cell, w in zip(r, widths, strict=True))
            lines.append(("  " + "  ".join(cells)).rstrip())
        lines.append("")
    verdicts = [t["verdict"] for s in result["scenarios"] for t in s["targets"]]
    lines.append(
        f"{verdicts.count(PASS)} passed, {verdicts.count(FAIL)} failed, "
        f"{verdicts.count(UNDECIDED)} undecided. Each target was decided at the first block "
        "(4,096 games) whose 95% anytime-valid interval lay inside its band (pass) or "
        "outside it (fail); games: when it was decided; estimates and intervals: from "
        "every game of its scenario."
    )
    return "\n".join(lines)


def check_markdown(result: Mapping[str, Any]) -> str:
    """The result as Markdown tables, for a pull-request comment."""
    verdicts = [t["verdict"] for s in result["scenarios"] for t in s["targets"]]
    lines = [
        f"**balance check**: {verdicts.count(PASS)} passed, {verdicts.count(FAIL)} failed, "
        f"{verdicts.count(UNDECIDED)} undecided (95% anytime-valid intervals)",
        "",
    ]
    for s in result["scenarios"]:
        lines += [
            f"#### {s['name']} ({s['game']}, {s['players']} players, {s['games']:,} games)",
            "",
            "| " + " | ".join(HEADER) + " |",
            "|" + "---|" * len(HEADER),
        ]
        for row in s["targets"]:
            cells = _cells(row)
            cells[4] = {PASS: "✅ pass", FAIL: "❌ fail"}.get(row["verdict"], "⚠️ undecided")
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def check_junit(result: Mapping[str, Any]) -> str:
    """The result as JUnit XML: a test suite per scenario, a test case per target."""
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
            case = ET.SubElement(
                suite, "testcase", classname=s["name"], name=f"{row['metric']} {cells[1]}"
            )
            detail = f"estimate {cells[2]}, 95% anytime interval {cells[3]}, {cells[5]} games"
            if row["verdict"] == FAIL:
                ET.SubElement(case, "failure", message=f"outside {cells[1]}: {detail}")
            elif row["verdict"] == UNDECIDED:
                ET.SubElement(case, "skipped", message=f"undecided at max_games: {detail}")
            else:
                ET.SubElement(case, "system-out").text = detail
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def check_outputs(junit: Path | None, markdown: Path | None) -> None:
    """Make sure ``--junit`` and ``--markdown`` can be written before any game is played:
    a one-line error (exit code 2), never taken for a failed target (exit code 1)."""
    if junit is not None:
        output_file(junit, "--junit")
    if markdown is not None:
        output_file(markdown, "--markdown")


def write_outputs(result: Mapping[str, Any], junit: Path | None, markdown: Path | None) -> None:
    """The result as JUnit XML in ``junit`` and as Markdown in ``markdown``, if given."""
    if junit is not None:
        write_output(Path(junit), check_junit(json_safe(result)))
    if markdown is not None:
        write_output(Path(markdown), check_markdown(json_safe(result)))
