"""Walk the Plank's ten cards, their names and numbering.

A card is a small integer everywhere in compiled code; these constants and
names are the single place that says which integer is which card.
"""

from typing import NamedTuple


class CardIds(NamedTuple):
    SHOVE_LEFT: int = 0
    SHOVE_RIGHT: int = 1
    SHOVE_ANYONE: int = 2
    EXTEND_PLANK: int = 3
    RETRACT_PLANK: int = 4
    DRAG_TO_SEA: int = 5
    PULL_TO_SHIP: int = 6
    RUN: int = 7
    NOT_ME: int = 8  # "I Don't Want to Die"
    CHARGE: int = 9


Card = CardIds()
N_CARDS = 10

#: Card names as users type them and as every record and report prints them.
CARD_NAMES: tuple[str, ...] = (
    "shove-left",
    "shove-right",
    "shove-anyone",
    "extend-plank",
    "retract-plank",
    "drag-to-sea",
    "pull-to-ship",
    "run",
    "not-me",
    "charge",
)

#: The names printed on the cards, for narration.
CARD_TITLES: tuple[str, ...] = (
    "Shove Left",
    "Shove Right",
    "Shove Anyone",
    "Extend Plank",
    "Retract Plank",
    "Drag to Sea",
    "Pull to Ship",
    "Run",
    "I Don't Want to Die",
    "Charge",
)

#: Cards a ghost player sets aside (Ghost variant).
GHOST_SET_ASIDE: frozenset[int] = frozenset({Card.EXTEND_PLANK, Card.RETRACT_PLANK})
GHOST_SET_ASIDE_MASK: int = sum(1 << c for c in GHOST_SET_ASIDE)

#: Default rest set: the "strong twin" of a weaker card each.
DEFAULT_REST: tuple[str, ...] = ("shove-anyone", "retract-plank", "drag-to-sea", "not-me")


def card_mask(names: "tuple[str, ...] | frozenset[str]") -> int:
    """Bit mask with bit ``c`` set for every card named; names must be valid."""
    mask = 0
    for name in names:
        mask |= 1 << CARD_NAMES.index(name)
    return mask
