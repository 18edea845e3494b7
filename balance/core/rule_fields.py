"""What every game's rules dataclass shares: checking, reading and describing its fields.

A game's rules are a frozen dataclass whose fields carry ``help`` and ``allowed`` in
their metadata; these helpers validate values, read a value's command-line spelling
(``--rule NAME=VALUE``) and list the fields for ``balance rules``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from balance.core.errors import BalanceError


def check_int(name: str, value: object, low: int, high: int) -> None:
    """A one-line error unless ``value`` is a whole number in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise BalanceError(f"rule {name!r}: {value!r} is not a whole number")
    if not low <= value <= high:
        raise BalanceError(f"rule {name!r}: {value} is outside the allowed range {low}..{high}")


def field_key(rules: Any, name: str) -> str:
    """The field ``name`` spells (``-`` for ``_``); a one-line error if there is none."""
    names = [f.name for f in dataclasses.fields(rules)]
    key = name.strip().replace("-", "_")
    if key not in names:
        raise BalanceError(f"unknown rule {name!r}; rules: {', '.join(names)}")
    return key


def parse_plain(name: str, current: object, text: str) -> bool | int:
    """``text`` as the value of a boolean or whole-number field whose value is ``current``."""
    if isinstance(current, bool):
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise BalanceError(f"rule {name!r}: {text!r} is not true or false")
    try:
        return int(text)
    except ValueError:
        raise BalanceError(f"rule {name!r}: {text!r} is not a whole number") from None


def describe_fields(cls: type) -> list[dict[str, str]]:
    """Name, default, allowed values and meaning of every field, as ``balance rules`` lists."""
    rows = []
    for f in dataclasses.fields(cls):
        default = f.default
        if isinstance(default, tuple):
            shown = ",".join(str(x) for x in default) if default else "none"
        else:
            shown = default if isinstance(default, str) else str(default).lower()
        rows.append(
            {
                "name": f.name,
                "default": shown,
                "allowed": f.metadata["allowed"],
                "meaning": f.metadata["help"],
            }
        )
    return rows


class RuleFields:
    """What every game's frozen rules dataclass shares: its JSON form, its command-line
    spelling and its description.

    A subclass names in :attr:`LISTS` the fields it holds as tuples (lists in JSON) and
    overrides :meth:`parse_value` for fields whose command-line spelling is its own.
    """

    #: Fields held as tuples (lists in JSON, comma-separated on the command line).
    LISTS: ClassVar[tuple[str, ...]] = ()
    #: The variants: boolean fields ``--variant NAME`` switches on (``-`` for ``_``).
    VARIANTS: ClassVar[tuple[str, ...]] = ()

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants switched on, in :attr:`VARIANTS` order."""
        return tuple(name for name in self.VARIANTS if getattr(self, name.replace("-", "_")))

    def to_dict(self) -> dict[str, Any]:
        """Every parameter's value, JSON-ready."""
        values = dataclasses.asdict(self)
        for name in self.LISTS:
            values[name] = list(getattr(self, name))
        return values

    def parse_value(self, key: str, text: str) -> Any:
        """Field ``key``'s value from its command-line spelling (booleans and numbers)."""
        return parse_plain(key, getattr(self, key), text)

    def parse_text(self, name: str, text: str) -> tuple[str, Any]:
        """A parameter's name and value from its command-line spelling (``NAME=VALUE``)."""
        key = field_key(self, name)
        return key, self.parse_value(key, text)

    def with_text(self, name: str, text: str) -> Any:
        """A copy with one parameter set from its command-line spelling (``NAME=VALUE``)."""
        return dataclasses.replace(self, **dict([self.parse_text(name, text)]))

    def to_array(self) -> np.ndarray:
        """The rules for the compiled engine: int64 ``(len(fields),)``, each field in its
        order (whole numbers and booleans; a game with other fields packs its own), at the
        slots :func:`rule_slots` names."""
        return np.array([getattr(self, f.name) for f in dataclasses.fields(self)], np.int64)

    @classmethod
    def describe(cls) -> list[dict[str, str]]:
        """Name, default, allowed values and meaning of every parameter."""
        return describe_fields(cls)


def rule_slots(cls: type) -> Any:
    """The slots of :meth:`RuleFields.to_array` for the rules dataclass ``cls``, as a
    ``NamedTuple`` instance the compiled code folds into constants: each field's name in
    capitals (``turn_cap`` at ``Rule.TURN_CAP``), then ``SIZE``."""
    import collections

    names = [f.name.upper() for f in dataclasses.fields(cls)]
    return collections.namedtuple("RuleSlots", [*names, "SIZE"], module=cls.__module__)(
        *range(len(names) + 1)
    )
