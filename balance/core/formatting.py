"""How rule values read in text: the CLI's summaries and the reports' title pages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def rule_value(value: Any) -> str:
    """A rule's value as ``--rule`` takes it: lists joined by commas, booleans lower-case."""
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_text(rules: Mapping[str, Any]) -> str:
    """Every rule as ``name=value``, comma-separated."""
    return ", ".join(f"{name}={rule_value(value)}" for name, value in rules.items())


def changed_rules(rules: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The rules whose value differs from the game's default, in ``rules``' order."""
    return {name: value for name, value in rules.items() if defaults.get(name) != value}


def percent(rate: float) -> str:
    """A share as ``34.4%``; ``n/a`` when unknown.

    A share that is not exactly 0 or 1 never reads as ``0.0%`` or ``100.0%`` (one game
    stopped by the cap in a million is not "all finished"): it reads ``<0.1%`` or ``>99.9%``.
    """
    if rate != rate:
        return "n/a"
    if 0.0 < rate < 0.0005:
        return "<0.1%"
    if 0.9995 <= rate < 1.0:
        return ">99.9%"
    return f"{100 * rate:.1f}%"


def interval(pair: list[float], as_percent: bool = True, digits: int = 2) -> str:
    """An interval as ``[32.4%, 33.0%]`` or ``[8.27, 8.31]``."""
    low, high = pair
    if as_percent:
        return f"[{percent(low)}, {percent(high)}]"
    if low != low or high != high:
        return "[n/a]"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def index_text(value: float, digits: int = 3) -> str:
    """An index (the balance index) as ``0.991``; ``n/a`` when it is not a number."""
    return "n/a" if value != value else f"{value:.{digits}f}"
