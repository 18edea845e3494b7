"""La Planche's rule parameters: one validated, documented object.

Every decision of ``docs/la-planche.md`` that a designer may want to
change is a field here. At the kernel boundary the object is packed into a small
``int64`` array (:meth:`LaPlancheRules.to_array`), indexed by the constants in
:data:`Rule`; kernels never read module globals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np

from balance.core.errors import BalanceError
from balance.core.rule_fields import RuleFields, check_int

#: Colours in index order: Yellow, Red, Green, Blue.
COLOURS = "YRGB"
COLOUR_NAMES = ("yellow", "red", "green", "blue")
N_COLOURS = 4
#: Prisoners of each colour, and in all.
PER_COLOUR = 4
PRISONERS = N_COLOURS * PER_COLOUR
#: Fewest and most spaces on the plank (the compiled engine has room for SPACES_LIMIT).
SPACES_MIN = PRISONERS
SPACES_LIMIT = 32
#: Spinner symbols, in the order of the weights.
SYMBOLS = ("swap", "advance", "move", "skull")
#: What a turn did, as the records count it: a symbol's action, nothing, the closing push.
ACTIONS = ("swap", "advance", "move", "nothing", "push")
TURN_CAP_LIMIT = 100_000
ROUND_CAP_LIMIT = 10_000
TARGET_LIMIT = 1_000
POINTS_LIMIT = 1_000
#: What a push moves, in the order of their packed codes.
PUSHES = ("unbroken", "whole")

VARIANTS: tuple[str, ...] = ("rounds",)


class RuleSlots(NamedTuple):
    SPACES: int = 0
    W_SWAP: int = 1  # spinner weights, in symbol order
    W_ADVANCE: int = 2
    W_MOVE: int = 3
    W_SKULL: int = 4
    ROUNDS: int = 5
    TARGET: int = 6
    TURN_CAP: int = 7
    ROUND_CAP: int = 8
    PUSH: int = 9  # index in PUSHES: 0 the unbroken row, 1 the whole row
    POINTS: int = 10  # POINTS + k: rounds variant, points of the k-th last prisoner (k = 0, 1, 2)
    START: int = 13  # START + k: colour of the k-th prisoner from the ship end (space k)
    SIZE: int = 13 + PRISONERS


Rule = RuleSlots()

DEFAULT_START = "YRGB" * 4


def _help(text: str, allowed: str) -> dict[str, str]:
    return {"help": text, "allowed": allowed}


@dataclass(frozen=True)
class LaPlancheRules(RuleFields):
    """Rule parameters of La Planche; the defaults are the printed game (German set-up)."""

    LISTS: ClassVar[tuple[str, ...]] = ("spinner_weights", "points")
    VARIANTS: ClassVar[tuple[str, ...]] = VARIANTS

    def parse_value(self, key: str, text: str) -> Any:
        if key == "spinner_weights":
            return _parse_weights(text)
        if key == "points":
            return _parse_points(text)
        if key in ("start_order", "push"):
            return text
        return super().parse_value(key, text)

    spaces: int = field(
        default=18,
        metadata=_help(
            "Spaces on the plank, 0 at the ship end; the prisoners start on spaces 0..15 "
            "and the spaces beyond are empty.",
            f"{SPACES_MIN}..{SPACES_LIMIT}",
        ),
    )
    start_order: str = field(
        default=DEFAULT_START,
        metadata=_help(
            "Colours of the 16 prisoners from the ship end (Y, R, G, B), four of each.",
            "16 letters from YRGB, four of each",
        ),
    )
    spinner_weights: tuple[int, ...] = field(
        default=(1, 1, 1, 1),
        metadata=_help(
            "Weights of the spinner's symbols swap, advance, move, skull; each of the two "
            "symbols spun is drawn with these weights.",
            "four whole numbers >= 0, total > 0, swap+advance+move > 0",
        ),
    )
    push: str = field(
        default="unbroken",
        metadata=_help(
            "What a push (the mandatory push and Advance) moves: 'unbroken', the pushed "
            "prisoner and the unbroken row directly in front of him (a gap stops it); "
            "'whole', every prisoner from him to the front of the plank, gaps and all "
            "(the French rulebook's 'bouscule toute la rangee').",
            "unbroken, whole",
        ),
    )
    rounds: bool = field(
        default=False,
        metadata=_help(
            "Rounds variant: the owners of the last, second-last and third-last prisoners "
            "score the 'points' (5, 3 and 1); the game ends when someone reaches the target.",
            "true/false",
        ),
    )
    points: tuple[int, ...] = field(
        default=(5, 3, 1),
        metadata=_help(
            "Rounds variant: points scored by the owners of the last prisoner, of the "
            "last to fall and of the one that fell before it.",
            f"three whole numbers 0..{POINTS_LIMIT}, total > 0",
        ),
    )
    target: int = field(
        default=12,
        metadata=_help(
            "Rounds variant: the score that ends the game at the end of a round.",
            f"1..{TARGET_LIMIT}",
        ),
    )
    turn_cap: int = field(
        default=1000,
        metadata=_help(
            "Turns after which a game (or a round, in the rounds variant) still running "
            "ends the game unfinished, with no winner.",
            f"1..{TURN_CAP_LIMIT}",
        ),
    )
    round_cap: int = field(
        default=100,
        metadata=_help(
            "Rounds variant: rounds after which a game nobody has won ends unfinished, "
            "with no winner.",
            f"1..{ROUND_CAP_LIMIT}",
        ),
    )

    def __post_init__(self) -> None:
        check_int("spaces", self.spaces, SPACES_MIN, SPACES_LIMIT)
        order = self.start_order
        if not isinstance(order, str):
            raise BalanceError(f"rule 'start_order': {order!r} is not a string of 16 letters")
        order = order.strip().upper()
        if len(order) != PRISONERS or any(c not in COLOURS for c in order):
            raise BalanceError(
                f"rule 'start_order': {self.start_order!r} is not 16 letters from {COLOURS}"
            )
        for c in COLOURS:
            if order.count(c) != PER_COLOUR:
                raise BalanceError(
                    f"rule 'start_order': {order!r} has {order.count(c)} of {c}, "
                    f"not {PER_COLOUR} of each colour"
                )
        object.__setattr__(self, "start_order", order)
        weights = self.spinner_weights
        if isinstance(weights, str):
            weights = _parse_weights(weights)
        weights = tuple(weights)
        if len(weights) != len(SYMBOLS):
            raise BalanceError(
                f"rule 'spinner_weights': {len(weights)} weights given, not 4 "
                "(swap, advance, move, skull)"
            )
        for w in weights:
            if isinstance(w, bool) or not isinstance(w, int | np.integer) or w < 0:
                raise BalanceError(f"rule 'spinner_weights': {w!r} is not a whole number >= 0")
            if w > 1_000_000:
                raise BalanceError(f"rule 'spinner_weights': {w} is above 1000000")
        if sum(weights[:3]) == 0:
            raise BalanceError("rule 'spinner_weights': swap, advance and move cannot all weigh 0")
        object.__setattr__(self, "spinner_weights", tuple(int(w) for w in weights))
        push = self.push.strip().lower() if isinstance(self.push, str) else self.push
        if push not in PUSHES:
            raise BalanceError(f"rule 'push': {self.push!r} is not one of {', '.join(PUSHES)}")
        object.__setattr__(self, "push", push)
        points = self.points
        if isinstance(points, str):
            points = _parse_points(points)
        points = tuple(points)
        if len(points) != 3:
            raise BalanceError(
                f"rule 'points': {len(points)} numbers given, not 3 (last, second-last, "
                "third-last prisoner)"
            )
        for p in points:
            if isinstance(p, bool) or not isinstance(p, int | np.integer):
                raise BalanceError(f"rule 'points': {p!r} is not a whole number")
            if not 0 <= p <= POINTS_LIMIT:
                raise BalanceError(
                    f"rule 'points': {p} is outside the allowed range 0..{POINTS_LIMIT}"
                )
        if sum(points) == 0:
            raise BalanceError("rule 'points': the three points cannot all be 0")
        object.__setattr__(self, "points", tuple(int(p) for p in points))
        if not isinstance(self.rounds, bool):
            raise BalanceError("rule 'rounds': must be true or false")
        check_int("target", self.target, 1, TARGET_LIMIT)
        check_int("turn_cap", self.turn_cap, 1, TURN_CAP_LIMIT)
        check_int("round_cap", self.round_cap, 1, ROUND_CAP_LIMIT)

    @property
    def start_colours(self) -> tuple[int, ...]:
        """The starting colour indices from the ship end."""
        return tuple(COLOURS.index(c) for c in self.start_order)

    def to_array(self) -> np.ndarray:
        """Pack for the kernels: ``int64`` array of shape ``(Rule.SIZE,)``."""
        packed = np.zeros(Rule.SIZE, dtype=np.int64)
        packed[Rule.SPACES] = self.spaces
        for k, w in enumerate(self.spinner_weights):
            packed[Rule.W_SWAP + k] = w
        packed[Rule.PUSH] = PUSHES.index(self.push)
        for k, p in enumerate(self.points):
            packed[Rule.POINTS + k] = p
        packed[Rule.ROUNDS] = self.rounds
        packed[Rule.TARGET] = self.target
        packed[Rule.TURN_CAP] = self.turn_cap
        packed[Rule.ROUND_CAP] = self.round_cap
        packed[Rule.START : Rule.START + PRISONERS] = self.start_colours
        return packed


def _parse_weights(text: str) -> tuple[int, ...]:
    parts = [part.strip() for part in text.split(",")]
    try:
        return tuple(int(part) for part in parts)
    except ValueError:
        raise BalanceError(
            f"rule 'spinner_weights': {text!r} is not four comma-separated whole numbers"
        ) from None


def _parse_points(text: str) -> tuple[int, ...]:
    parts = [part.strip() for part in text.split(",")]
    try:
        return tuple(int(part) for part in parts)
    except ValueError:
        raise BalanceError(
            f"rule 'points': {text!r} is not three comma-separated whole numbers"
        ) from None
