"""How rule values read in text: the CLI's summaries and the reports' title pages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def rule_value(value: Any) -> str:
    """A rule's value as ``--rule`` takes it: lists joined by commas, booleans lower-case."""
    if isinstance(value, list | tuple):
        return ",".join(value) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_text(rules: Mapping[str, Any]) -> str:
    """Every rule as ``name=value``, comma-separated."""
    return ", ".join(f"{name}={rule_value(value)}" for name, value in rules.items())
