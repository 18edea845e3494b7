"""Crazy Eights' cards, rule parameters and the table every engine and strategy reads.

Every rule of ``docs/crazy-eights.md`` a designer may want to change is a field of
:class:`CrazyEightsRules`; at the kernel boundary it is packed into an ``int64`` array
(:meth:`CrazyEightsRules.to_array`), indexed by :data:`Rule`. Imports no numba.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from balance.core.errors import BalanceError
from balance.core.rule_fields import RuleFields, check_int, rule_slots

#: Card ``c`` is rank ``c % 13`` of suit ``c // 13``.
SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
RANKS += ("jack", "queen", "king")
N_CARDS = 52
#: Penalty points of a card left in hand, by rank: eight 50, court cards 10, ace 1.
POINTS = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10)
#: What a ``play`` option may be besides a card: drawing.
DRAW = 52
#: Most options of a ``play`` decision: every card of a hand of 51, and the draw.
MAX_OPTIONS = 52
#: Most cards a player may be dealt: the stock must keep five cards, so that a starter
#: that is not an eight can always be turned.
HAND_LIMIT = 15
TURN_CAP_LIMIT = 100_000

#: The house rules, as ``--variant`` names them (each a boolean field, ``-`` for ``_``).
HOUSE_RULES = {
    "draw-one": "a player who cannot play draws one card only, and plays it if it can",
    "twos-draw-two": "a two makes the next player draw two (stacking: answer with a two)",
    "queens-skip": "a queen skips the next player",
    "aces-reverse": "an ace reverses the direction of play",
}
VARIANTS = tuple(HOUSE_RULES)


class TableSlots(NamedTuple):
    """The public table a strategy sees (int64 ``(SIZE,)``, ``view[1]``)."""

    TOP: int = 0  # the top card of the discard pile
    SUIT: int = 1  # the suit in force (an eight's named suit, else the top card's)
    PENDING: int = 2  # twos-draw-two: cards the player to play must draw unless it plays a two
    DIRECTION: int = 3  # +1 toward higher seats, -1 after an odd number of aces (aces-reverse)
    STOCK: int = 4  # cards in the stock
    PILE: int = 5  # cards in the discard pile, the top included
    SEAT: int = 6  # the seat to play
    PLAYERS: int = 7
    TURN: int = 8  # turns played before this one
    DRAWN: int = 9  # cards the seat to play has drawn in this turn
    SIZE: int = 10


Table = TableSlots()


class RankSlots(NamedTuple):
    """The ranks that do something (``card % 13``)."""

    ACE: int = 0  # aces-reverse
    TWO: int = 1  # twos-draw-two
    EIGHT: int = 7  # wild
    QUEEN: int = 11  # queens-skip


Rank = RankSlots()


def _rule(default: int | bool, text: str, allowed: str = "true/false") -> Any:
    return field(default=default, metadata={"help": text, "allowed": allowed})


def _sentence(variant: str) -> str:
    """A house rule's line as a rule's sentence: ``House rule (draw-one): a player ...``."""
    return f"House rule (--variant {variant}): {HOUSE_RULES[variant]}."


@dataclass(frozen=True)
class CrazyEightsRules(RuleFields):
    """Rule parameters of Crazy Eights; the defaults are the standard game."""

    VARIANTS: ClassVar[tuple[str, ...]] = VARIANTS

    hand_size: int = _rule(
        0,
        "Cards dealt to each player; 0 deals 7 with two players and 5 with more.",
        f"0..{HAND_LIMIT}, at most 47 cards dealt in all",
    )
    turn_cap: int = _rule(
        1000,
        "Turns after which a game still running ends unfinished, with no winner.",
        f"1..{TURN_CAP_LIMIT}",
    )
    reshuffle: bool = _rule(
        True,
        "When the stock is empty, the discard pile but its top card is shuffled into a new "
        "stock; false: nothing more can be drawn.",
    )
    draw_when_able: bool = _rule(
        False, "A player who could play a card may draw instead (until a card it can play)."
    )
    draw_one: bool = _rule(False, _sentence("draw-one"))
    twos_draw_two: bool = _rule(False, _sentence("twos-draw-two"))
    queens_skip: bool = _rule(False, _sentence("queens-skip"))
    aces_reverse: bool = _rule(False, _sentence("aces-reverse"))

    def __post_init__(self) -> None:
        check_int("hand_size", self.hand_size, 0, HAND_LIMIT)
        check_int("turn_cap", self.turn_cap, 1, TURN_CAP_LIMIT)
        for name in ("reshuffle", "draw_when_able", *(v.replace("-", "_") for v in VARIANTS)):
            if not isinstance(getattr(self, name), bool):
                raise BalanceError(f"rule {name!r}: must be true or false")

    def dealt(self, players: int) -> int:
        """Cards dealt to each of ``players``."""
        return self.hand_size or (7 if players == 2 else 5)

    def check_players(self, players: int) -> None:
        """A one-line error unless the deal leaves five cards in the stock."""
        if self.dealt(players) * players > N_CARDS - 5:
            raise BalanceError(
                f"rule 'hand_size': {self.dealt(players)} cards each to {players} players "
                f"leaves fewer than 5 of the {N_CARDS} cards in the stock"
            )


#: The packed rules' slots (``CrazyEightsRules.to_array``): each field in capitals.
Rule = rule_slots(CrazyEightsRules)
