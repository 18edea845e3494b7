"""Walk the Plank's rule parameters: one validated, documented object.

Every decision that the rules in ``docs/walk-the-plank.md`` leave to the analyser
and that a designer may want to change is a field here. At the kernel boundary the
object is packed into a small ``int64`` array (:meth:`WalkThePlankRules.to_array`),
indexed by the constants in :data:`Rule`; kernels never read module globals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np

from balance.core.errors import BalanceError
from balance.core.rule_fields import RuleFields, check_int
from balance.games.walk_the_plank.cards import CARD_NAMES, DEFAULT_REST, card_mask

#: Largest plank the compiled engine has room for (positions 0..PLANK_LIMIT).
PLANK_LIMIT = 8
#: Most pirates a player may have.
PIRATES_LIMIT = 9
#: Longest game the engine will play before calling it unfinished.
ROUND_CAP_LIMIT = 10_000

VARIANTS: tuple[str, ...] = ("ghost", "dolphin", "kraken")


class RuleSlots(NamedTuple):
    PIRATES: int = 0
    PLANK_START: int = 1
    PLANK_MIN: int = 2
    PLANK_MAX: int = 3
    ROUND_CAP: int = 4
    REST_MASK: int = 5
    GHOST: int = 6
    DOLPHIN: int = 7
    KRAKEN: int = 8
    SIZE: int = 9


Rule = RuleSlots()


def _help(text: str, allowed: str) -> dict[str, str]:
    return {"help": text, "allowed": allowed}


@dataclass(frozen=True)
class WalkThePlankRules(RuleFields):
    """Rule parameters of Walk the Plank; the defaults are the printed game."""

    LISTS: ClassVar[tuple[str, ...]] = ("rest",)
    VARIANTS: ClassVar[tuple[str, ...]] = VARIANTS

    def parse_value(self, key: str, text: str) -> Any:
        return _parse_rest(text) if key == "rest" else super().parse_value(key, text)

    pirates_per_player: int = field(
        default=3,
        metadata=_help("Pirates each player starts with, all on the ship.", f"1..{PIRATES_LIMIT}"),
    )
    plank_start: int = field(
        default=3, metadata=_help("Plank tiles at the start of the game.", "plank_min..plank_max")
    )
    plank_min: int = field(
        default=1,
        metadata=_help("Fewest plank tiles: Retract Plank has no effect at this length.", "1.."),
    )
    plank_max: int = field(
        default=3,
        metadata=_help(
            "Most plank tiles: Extend Plank has no effect at this length.",
            f"plank_min..{PLANK_LIMIT}",
        ),
    )
    rest: tuple[str, ...] = field(
        default=DEFAULT_REST,
        metadata=_help(
            "Cards with the rest symbol: revealed in one round, they sit out the next. "
            "No printed source says which cards carry it; the default is the strong twin "
            "of a weaker card each.",
            "comma-separated card names, or 'none'",
        ),
    )
    round_cap: int = field(
        default=100,
        metadata=_help(
            "Rounds after which a game still running ends unfinished, with no winner.",
            f"1..{ROUND_CAP_LIMIT}",
        ),
    )
    ghost: bool = field(
        default=False,
        metadata=_help(
            "Ghost variant: the first player out keeps playing with a ghost that never falls.",
            "true/false",
        ),
    )
    dolphin: bool = field(
        default=False,
        metadata=_help(
            "Dolphin die: rolled once, for the first pirate to fall (2-5, shark, dolphin).",
            "true/false",
        ),
    )
    kraken: bool = field(
        default=False,
        metadata=_help(
            "Kraken die: rolled for each pirate that falls through a card (calm, wave, kraken).",
            "true/false",
        ),
    )

    def __post_init__(self) -> None:
        rest = self.rest
        if isinstance(rest, str):
            rest = _parse_rest(rest)
        unknown = [name for name in rest if name not in CARD_NAMES]
        if unknown:
            raise BalanceError(
                f"rule 'rest': unknown card {unknown[0]!r}; allowed: {', '.join(CARD_NAMES)}"
            )
        # One canonical spelling: card order, no repeats.
        object.__setattr__(self, "rest", tuple(name for name in CARD_NAMES if name in rest))
        check_int("pirates_per_player", self.pirates_per_player, 1, PIRATES_LIMIT)
        check_int("plank_min", self.plank_min, 1, PLANK_LIMIT)
        check_int("plank_max", self.plank_max, self.plank_min, PLANK_LIMIT)
        check_int("plank_start", self.plank_start, self.plank_min, self.plank_max)
        check_int("round_cap", self.round_cap, 1, ROUND_CAP_LIMIT)
        for name in VARIANTS:
            if not isinstance(getattr(self, name), bool):
                raise BalanceError(f"rule {name!r}: must be true or false")

    def to_array(self) -> np.ndarray:
        """Pack for the kernels: ``int64`` array of shape ``(Rule.SIZE,)``."""
        packed = np.zeros(Rule.SIZE, dtype=np.int64)
        packed[Rule.PIRATES] = self.pirates_per_player
        packed[Rule.PLANK_START] = self.plank_start
        packed[Rule.PLANK_MIN] = self.plank_min
        packed[Rule.PLANK_MAX] = self.plank_max
        packed[Rule.ROUND_CAP] = self.round_cap
        packed[Rule.REST_MASK] = card_mask(self.rest)
        packed[Rule.GHOST] = self.ghost
        packed[Rule.DOLPHIN] = self.dolphin
        packed[Rule.KRAKEN] = self.kraken
        return packed


def _parse_rest(text: str) -> tuple[str, ...]:
    text = text.strip()
    if text.lower() in ("", "none"):
        return ()
    return tuple(part.strip() for part in text.split(","))
