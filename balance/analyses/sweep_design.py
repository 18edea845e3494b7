"""What a sweep plays: its axes, its design points and its targets, parsed from text.

An axis is a player count, a rule parameter or the variants (``compare``'s spelling);
a design picks points from the axes' values: every combination (``grid``), or a
seeded Latin hypercube or Sobol sample of the axes' levels (``lhs``, ``sobol``) with
duplicates merged. A target is a band for one figure of a point (``balance_index>=0.97``,
``length_mean=6..10``); a point passes it when its 95% interval lies inside the band.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.core.errors import BalanceError

#: Designs a sweep knows.
DESIGNS = ("grid", "lhs", "sobol")
#: Largest grid a sweep plays without ``yes=True`` (``--yes``).
MAX_POINTS = 10_000
PLAYERS = "players"
VARIANT = "variant"


@dataclass(frozen=True)
class Axis:
    """One swept quantity and its values, as texts in the order given.

    ``kind`` is ``"players"``, ``"variant"`` (each value a ``compare`` variant text:
    ``base``, ``kraken``, ``ghost+dolphin``) or ``"rule"``; ``numeric`` says whether
    every value is a whole number (a range or numbers listed).
    """

    name: str
    values: tuple[str, ...]
    kind: str = "rule"
    #: ``NAME=LO:HI``: a range ``balance tune`` samples (no values listed); the bounds as
    #: given, checked against the rule by the tune.
    sampled: tuple[float, float] | None = None

    @property
    def numeric(self) -> bool:
        return all(re.fullmatch(r"-?\d+", value) for value in self.values)

    @property
    def size(self) -> int:
        """How many values the axis takes (a sampled range: its whole numbers)."""
        if self.sampled is not None:
            return int(self.sampled[1] - self.sampled[0]) + 1
        return len(self.values)


def _split_values(text: str, what: str) -> list[str]:
    """``LO..HI`` (every whole number), ``A;B;C`` or ``A,B,C``; a one-line error if empty."""
    text = text.strip()
    ranged = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if ranged:
        low, high = int(ranged.group(1)), int(ranged.group(2))
        if high < low:
            raise BalanceError(f"{what}: the range {text} is empty (write LO..HI with LO <= HI)")
        if high - low >= MAX_POINTS * 10:
            raise BalanceError(f"{what}: the range {text} is too long")
        return [str(v) for v in range(low, high + 1)]
    if ".." in text:
        raise BalanceError(f"{what}: a range is two whole numbers LO..HI, not {text!r}")
    separator = ";" if ";" in text else ","
    values = [value.strip() for value in text.split(separator)]
    if not text or any(not value for value in values):
        raise BalanceError(f"{what} has an empty value: {text!r}")
    if len(set(values)) != len(values):
        raise BalanceError(f"{what} lists a value twice: {text!r}")
    return values


#: ``LO:HI``, a range to sample (``balance tune``).
_SAMPLED = re.compile(r"\s*(-?\d+(?:\.\d*)?)\s*:\s*(-?\d+(?:\.\d*)?)\s*")


def parse_axis(text: str) -> Axis:
    """An ``--axis`` text: ``NAME=V1,V2,...``, ``NAME=LO..HI`` or ``NAME=A;B`` (values that
    hold commas themselves, such as ``rest=charge,run;none``); ``NAME=LO:HI`` is a range
    that ``balance tune`` samples rather than lists."""
    name, eq, values = text.partition("=")
    name = name.strip()
    if not eq or not name:
        raise BalanceError(f"--axis needs NAME=V1,V2,... or NAME=LO..HI, not {text!r}")
    kind = PLAYERS if name == PLAYERS else VARIANT if name == VARIANT else "rule"
    sampled = _SAMPLED.fullmatch(values)
    if sampled:
        low, high = float(sampled.group(1)), float(sampled.group(2))
        if high < low:
            raise BalanceError(
                f"--axis {name}: the range {values.strip()} is empty (write LO:HI with LO <= HI)"
            )
        if kind != "rule":
            raise BalanceError(
                f"--axis {name}: a range LO:HI samples a rule's numbers; list the "
                f"{'player counts' if kind == PLAYERS else 'variants'} instead"
            )
        return Axis(name, (), kind, (low, high))
    return Axis(name, tuple(_split_values(values, f"--axis {name}")), kind)


def refuse_sampled(axes: Sequence[Axis]) -> None:
    """A one-line error for a range ``LO:HI`` where every value must be listed."""
    for axis in axes:
        if axis.sampled is not None:
            low, high = (_number_text(v) for v in axis.sampled)
            raise BalanceError(
                f"--axis {axis.name}={low}:{high} is a range balance tune samples; a sweep "
                f"plays listed values: write {axis.name}={low}..{high}"
            )


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def players_axis(text: str) -> Axis:
    """``--players 3,4,5`` (or ``3..5``) as the sweep's player axis."""
    values = _split_values(text, "--players")
    for value in values:
        if not re.fullmatch(r"\d+", value):
            raise BalanceError(f"--players takes whole numbers, not {value!r}")
    return Axis(PLAYERS, tuple(values), PLAYERS)


def check_axes(axes: Sequence[Axis], rule_names: Sequence[str], game: str) -> None:
    """A one-line error for an unknown or repeated axis."""
    seen: set[str] = set()
    for axis in axes:
        if axis.name in seen:
            raise BalanceError(f"the axis {axis.name!r} is given twice")
        seen.add(axis.name)
        if axis.kind == "rule" and axis.name not in rule_names:
            raise BalanceError(
                f"unknown axis {axis.name!r} for {game}: an axis is players, variant or one "
                f"of its rules ({', '.join(rule_names)}; see balance rules {game})"
            )


def design_points(
    axes: Sequence[Axis], design: str = "grid", points: int | None = None, seed: int = 0
) -> list[dict[str, str]]:
    """The points of a design: each a mapping axis name -> value text, in play order.

    ``grid`` is every combination (the first axis varies slowest). ``lhs`` and ``sobol``
    draw ``points`` points of the unit cube (``scipy.stats.qmc``, scrambled and seeded by
    ``seed``) and map each coordinate to one of its axis's ``k`` levels (``floor(u * k)``:
    a numeric range's whole numbers or a list's values, all equally likely); points that
    land on the same levels are merged, so a sample may hold fewer than ``points``.
    """
    if design not in DESIGNS:
        raise BalanceError(f"--design is one of {', '.join(DESIGNS)}, not {design!r}")
    refuse_sampled(axes)
    if not axes:
        return [{}]
    if design == "grid":
        if points is not None:
            raise BalanceError("--points is for --design lhs or sobol; a grid plays every point")
        return [
            dict(zip([a.name for a in axes], combo, strict=True))
            for combo in itertools.product(*(a.values for a in axes))
        ]
    if points is None or isinstance(points, bool) or not 1 <= points <= MAX_POINTS:
        raise BalanceError(f"--design {design} needs --points N, N from 1 to {MAX_POINTS:,}")
    from scipy.stats import qmc

    rng = np.random.default_rng(seed)
    if design == "lhs":
        unit = qmc.LatinHypercube(d=len(axes), rng=rng).random(points)
    else:
        m = max(0, math.ceil(math.log2(points)))
        unit = qmc.Sobol(d=len(axes), scramble=True, rng=rng).random_base2(m)[:points]
    chosen: dict[tuple[int, ...], None] = {}
    sizes = np.array([len(a.values) for a in axes])
    levels = np.minimum(np.floor(unit * sizes).astype(np.int64), sizes - 1)
    for row in levels:
        chosen.setdefault(tuple(int(v) for v in row), None)
    return [
        {axis.name: axis.values[level] for axis, level in zip(axes, key, strict=True)}
        for key in chosen
    ]


def grid_size(axes: Sequence[Axis]) -> int:
    return math.prod(a.size for a in axes)


def parse_assignments(text: str, what: str) -> dict[str, str]:
    """``NAME=V,NAME=V`` (a value may hold commas: ``rest=charge,run,plank_max=3``)."""
    result: dict[str, str] = {}
    last: str | None = None
    for part in text.split(","):
        name, eq, value = part.partition("=")
        if eq and name.strip():
            last = name.strip()
            result[last] = value.strip()
        elif last is not None and part.strip():
            result[last] += "," + part.strip()
        else:
            raise BalanceError(f"{what} needs NAME=VALUE,..., not {text!r}")
    return result


#: Target comparison operators, longest first.
_OPS = (">=", "<=", "=", ">", "<")


@dataclass(frozen=True)
class Target:
    """A band for one figure: ``low <= figure <= high`` (either end may be open).

    ``figure`` names a figure of a point's ``metrics`` (dotted for nested ones:
    ``seat_win_rate.0``, ``winner_count.1``).
    """

    text: str
    figure: str
    low: float
    high: float

    def verdict(self, low: float, high: float) -> str:
        """``pass`` when the interval ``[low, high]`` lies in the band, ``fail`` when it
        lies wholly outside, ``undecided`` otherwise (or when it is unknown)."""
        if not (np.isfinite(low) and np.isfinite(high)):
            return "undecided"
        if low >= self.low and high <= self.high:
            return "pass"
        if high < self.low or low > self.high:
            return "fail"
        return "undecided"

    def distance(self, value: float) -> float:
        """How far inside the band ``value`` lies (negative outside), for ranking points."""
        return float(min(value - self.low, self.high - value))


def parse_target(text: str) -> Target:
    """``FIGURE>=X``, ``FIGURE<=X``, ``FIGURE>X``, ``FIGURE<X`` or ``FIGURE=LO..HI``."""
    match = re.fullmatch(r"\s*([A-Za-z_][\w.]*)\s*(>=|<=|=|>|<)\s*(.+?)\s*", text)
    if not match:
        raise BalanceError(
            f"--target needs FIGURE>=X, FIGURE<=X, FIGURE>X, FIGURE<X or FIGURE=LO..HI, "
            f"not {text!r}"
        )
    figure, op, value = match.groups()
    try:
        if op == "=":
            low_text, dots, high_text = value.partition("..")
            low, high = (float(low_text), float(high_text)) if dots else (float(value),) * 2
        else:
            low = high = float(value)
    except ValueError:
        raise BalanceError(f"--target {text!r}: {value!r} is not a number or LO..HI") from None
    if op in (">=", ">"):
        high = math.inf
    elif op in ("<=", "<"):
        low = -math.inf
    if low > high:
        raise BalanceError(f"--target {text!r}: the band is empty")
    return Target(text.strip(), figure, low, high)


def figure_of(metrics: Mapping[str, Any], name: str) -> tuple[float, float, float]:
    """``(value, low, high)`` of a figure of a point's metrics by its dotted name.

    Raises
    ------
    BalanceError
        If no such figure exists.
    """
    node: Any = metrics
    for part in name.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit():
            rows = [row for row in node if row.get("seat") == int(part)]
            if not rows:
                raise BalanceError(f"no figure {name!r}: no seat {part}")
            node = rows[0]
        else:
            raise BalanceError(f"no figure {name!r}; figures: {', '.join(figure_names(metrics))}")
    if not isinstance(node, Mapping) or "ci95" not in node:
        raise BalanceError(
            f"{name!r} is not one figure; figures: {', '.join(figure_names(metrics))}"
        )
    value = node.get("value", node.get("rate"))
    low, high = node["ci95"]
    return float(value), float(low), float(high)


def figure_names(metrics: Mapping[str, Any]) -> list[str]:
    """Every figure's dotted name in a point's metrics."""
    names = []
    for key, node in metrics.items():
        if isinstance(node, list):
            names += [f"{key}.{row['seat']}" for row in node]
        elif isinstance(node, Mapping) and "ci95" in node:
            names.append(key)
        elif isinstance(node, Mapping):
            names += [f"{key}.{sub}" for sub in node]
    return names


def games_played_text(games: Sequence[int]) -> str:
    """The games the points of a ``--precision`` sweep played: ``8,192 to 12,288 games a
    point``, or ``8,192 games at every point`` when they all played as many."""
    low, high = min(games, default=0), max(games, default=0)
    if low == high:
        return f"{low:,} games at every point"
    return f"{low:,} to {high:,} games a point"
