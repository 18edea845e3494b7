"""Battle of Thieves' rule parameters: the core rules' numbers and the two decks.

Every **[decision]** of ``docs/battle-of-thieves.md`` that a designer may want to change is
a field here. The decks are rules too: ``decks`` names one deck per seat (an
example deck's name or a TOML file), so that a run's manifest says which decks played and
``balance compare`` can set deck against deck. ``blanks`` takes cards out of a deck
(restricted play): each ``SEAT:CARD`` replaces every copy of CARD in that seat's deck by
a blank card that can never be played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from balance.core.errors import BalanceError
from balance.core.rule_fields import RuleFields, check_int
from balance.games.battle_of_thieves.layout import (
    CANNON_STARTS,
    LEGENDARY,
    LEGENDARY_COPIES,
    MAST_REPAIRS,
    RESERVE_SIZE,
    RULE,
)

#: Fields held as tuples of strings (lists in JSON, comma-separated on the command line).
LIST_FIELDS = ("decks", "blanks")
#: Fields that take one of a few names: the names allowed, in code order.
CHOICE_FIELDS = {"mast_repair": MAST_REPAIRS, "cannon_start": CANNON_STARTS}
DEFAULT_DECKS = ("boarding-party", "island-raiders")


def _help(text: str, allowed: str) -> dict[str, str]:
    return {"help": text, "allowed": allowed}


@dataclass(frozen=True)
class BattleRules(RuleFields):
    """Rule parameters of Battle of Thieves; the defaults are the rules page's."""

    LISTS: ClassVar[tuple[str, ...]] = LIST_FIELDS

    def parse_value(self, key: str, text: str) -> Any:
        if key in CHOICE_FIELDS:
            return text.strip()
        return _names(key, text) if key in LIST_FIELDS else super().parse_value(key, text)

    decks: tuple[str, ...] = field(
        default=DEFAULT_DECKS,
        metadata=_help(
            "One deck a seat, seat 0's first: an example deck's name or a deck file (TOML).",
            "two deck names or paths, comma-separated",
        ),
    )
    blanks: tuple[str, ...] = field(
        default=(),
        metadata=_help(
            "Cards taken out of a deck (restricted play): SEAT:CARD replaces every copy of "
            "CARD in that seat's deck by a blank card that cannot be played.",
            "none, or comma-separated SEAT:CARD",
        ),
    )
    cannon_hits_on: int = field(
        default=4,
        metadata=_help("A cannon shot hits when its modified d6 is at least this.", "1..12"),
    )
    hole_tokens: int = field(
        default=5,
        metadata=_help(
            "Hole tokens a ship has; a hole with none left intact raises water instead.",
            "0..20",
        ),
    )
    sink_water: int = field(
        default=100, metadata=_help("Water level at which a player loses.", "10..1000")
    )
    water_per_hole: int = field(
        default=10,
        metadata=_help("Water each hole lets in at the start of its owner's turn.", "0..100"),
    )
    bail: int = field(default=50, metadata=_help("Water one bailing action removes.", "0..1000"))
    island_take: int = field(
        default=5, metadata=_help("Provisions an island visit takes back.", "0..30")
    )
    reserve_size: int = field(
        default=RESERVE_SIZE,
        metadata=_help(
            "Provisions a deck's starting reserve holds, exactly (the rulebook: 30); a deck "
            "whose reserve holds another number is refused.",
            "0..99",
        ),
    )
    reserve_max: int = field(
        default=30, metadata=_help("Most provisions a reserve may hold.", "0..99")
    )
    starting_hand: int = field(
        default=2, metadata=_help("Cards each player draws before the first turn.", "0..20")
    )
    turn_cap: int = field(
        default=200,
        metadata=_help(
            "Game turns after which a game ends unfinished, with no winner.", "2..10000"
        ),
    )
    anchor_penalty: int = field(
        default=2,
        metadata=_help("Taken off one's cannon rolls while one's own anchor is down.", "0..6"),
    )
    chaos_penalty: int = field(
        default=1,
        metadata=_help(
            "Taken off one's cannon rolls on the turn after the enemy fired a chaos ball, "
            "for each ball (chaos_stack).",
            "0..6",
        ),
    )
    chaos_stack: bool = field(
        default=True,
        metadata=_help(
            "Each chaos ball fired takes chaos_penalty off the enemy's cannon rolls on its "
            "next turn (two balls: twice); false: once, however many were fired.",
            "true, false",
        ),
    )
    mast_repair: str = field(
        default="untimed",
        metadata=_help(
            "untimed: a broken mast may be repaired only when its breaking has no time "
            "limit (a mast broken for N turns mends by itself); always: whether timed or not.",
            "untimed, always",
        ),
    )
    cannon_start: str = field(
        default="game",
        metadata=_help(
            "game: no cannon fire on game turn 1 and one shot on game turn 2; own: on each "
            "player's own first turn none, on its own second turn one shot.",
            "game, own",
        ),
    )

    specials_per_turn: int = field(
        default=1,
        metadata=_help("Special cards a player may play in one turn.", "0..20"),
    )
    legendaries_per_game: int = field(
        default=1,
        metadata=_help("Legendary cards a player may play in one game.", "0..20"),
    )
    legendary_copies: int = field(
        default=LEGENDARY_COPIES,
        metadata=_help("Copies of one legendary card a deck may hold.", "1..20"),
    )

    def __post_init__(self) -> None:
        for name in LIST_FIELDS:
            object.__setattr__(self, name, _names(name, getattr(self, name)))
        # A deck file is kept by its absolute path, so that a saved run's manifest still
        # finds it from another directory (report, replay).
        object.__setattr__(self, "decks", tuple(absolute_deck(d) for d in self.decks))
        if len(self.decks) != 2:
            raise BalanceError(
                f"rule 'decks': Battle of Thieves needs one deck a seat, {len(self.decks)} given"
            )
        for entry in self.blanks:
            seat, colon, card = entry.partition(":")
            if not colon or seat.strip() not in ("0", "1") or not card.strip():
                raise BalanceError(f"rule 'blanks': {entry!r} is not SEAT:CARD with seat 0 or 1")
        limits = {
            "cannon_hits_on": (1, 12),
            "hole_tokens": (0, 20),
            "sink_water": (10, 1000),
            "water_per_hole": (0, 100),
            "bail": (0, 1000),
            "island_take": (0, 30),
            "reserve_size": (0, 99),
            "reserve_max": (0, 99),
            "starting_hand": (0, 20),
            "turn_cap": (2, 10_000),
            "anchor_penalty": (0, 6),
            "chaos_penalty": (0, 6),
            "specials_per_turn": (0, 20),
            "legendaries_per_game": (0, 20),
            "legendary_copies": (1, 20),
        }
        for name, (low, high) in limits.items():
            check_int(name, getattr(self, name), low, high)
        if not isinstance(self.chaos_stack, bool):
            raise BalanceError(f"rule 'chaos_stack': {self.chaos_stack!r} is not true or false")
        for name, allowed in CHOICE_FIELDS.items():
            value = getattr(self, name)
            if value not in allowed:
                raise BalanceError(f"rule {name!r}: {value!r} is not one of {', '.join(allowed)}")

    def blanked(self) -> tuple[tuple[int, str], ...]:
        """``blanks`` as (seat, card name) pairs."""
        pairs = []
        for entry in self.blanks:
            seat, _, card = entry.partition(":")
            pairs.append((int(seat), card.strip()))
        return tuple(pairs)

    def content(self) -> Any:
        """The two decks compiled for the engines (loaded once per distinct rules)."""
        from balance.games.battle_of_thieves.cards import matchup_content

        content = matchup_content(self.decks, self.blanked())
        check_legendary_copies(content, self.legendary_copies)
        check_reserve_size(content, self.reserve_size)
        return content

    def to_array(self) -> np.ndarray:
        """Pack for the kernels: ``int64`` ``(Rule.SIZE,)``, slots of :class:`layout.Rule`."""
        packed = np.zeros(RULE.SIZE, dtype=np.int64)
        packed[RULE.CANNON_HITS_ON] = self.cannon_hits_on
        packed[RULE.HOLE_TOKENS] = self.hole_tokens
        packed[RULE.SINK_WATER] = self.sink_water
        packed[RULE.WATER_PER_HOLE] = self.water_per_hole
        packed[RULE.BAIL] = self.bail
        packed[RULE.ISLAND_TAKE] = self.island_take
        packed[RULE.RESERVE_MAX] = self.reserve_max
        packed[RULE.STARTING_HAND] = self.starting_hand
        packed[RULE.TURN_CAP] = self.turn_cap
        packed[RULE.ANCHOR_PENALTY] = self.anchor_penalty
        packed[RULE.CHAOS_PENALTY] = self.chaos_penalty
        packed[RULE.SPECIALS_PER_TURN] = self.specials_per_turn
        packed[RULE.LEGENDARIES_PER_GAME] = self.legendaries_per_game
        packed[RULE.MAST_REPAIR] = MAST_REPAIRS.index(self.mast_repair)
        packed[RULE.CHAOS_STACK] = int(self.chaos_stack)
        packed[RULE.CANNON_START] = CANNON_STARTS.index(self.cannon_start)
        return packed


#: The rules a deck is held to on its own (``balance deck check --rule``).
DECK_RULES = ("reserve_size", "legendary_copies")


def deck_rule_mistake(name: str) -> str:
    """Why ``deck check`` refuses ``--rule NAME=...``: a rule of the game, not of a deck."""
    import difflib

    close = difflib.get_close_matches(name, DECK_RULES, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return (
        f"--rule {name}: deck check holds a deck to {' and '.join(DECK_RULES)} only{hint}; "
        "the other rules are the game's (give them to simulate)"
    )


def check_legendary_copies(content: Any, limit: int) -> None:
    """A one-line error if a deck holds more than ``limit`` copies of a legendary card
    (the rule ``legendary_copies``).

    Parameters
    ----------
    content : the two decks compiled (:class:`~.content.Content`): ``deck`` int64
        ``(2, DECK_SIZE)`` card ids, ``card_type`` int64 ``(K,)``.
    limit : the most copies of one legendary card a deck may hold.
    """
    from balance.games.battle_of_thieves.cards import legendary_reason

    for seat in range(2):
        ids, counts = np.unique(content.deck[seat], return_counts=True)
        for card, copies in zip(ids, counts, strict=True):
            if content.card_type[card] == LEGENDARY and copies > limit:
                raise BalanceError(
                    f"deck '{content.deck_names[seat]}' holds "
                    + legendary_reason(int(copies), content.names[card], limit)
                )


def check_reserve_size(content: Any, size: int) -> None:
    """A one-line error if a deck's starting reserve does not hold exactly ``size``
    provisions (the rule ``reserve_size``).

    Parameters
    ----------
    content : the two decks compiled (:class:`~.content.Content`): ``provisions`` int64
        ``(2, 5)``, each seat's starting reserve.
    size : the provisions a starting reserve holds.
    """
    from balance.games.battle_of_thieves.cards import reserve_reason

    for seat in range(2):
        total = int(content.provisions[seat].sum())
        if total != size:
            raise BalanceError(f"deck '{content.deck_names[seat]}': " + reserve_reason(total, size))


def absolute_deck(reference: str) -> str:
    """A deck reference with a relative file path made absolute (names stay as they are)."""
    text = reference.strip()
    file, suffix = text, ""
    if ".toml:" in text:
        head, _, name = text.rpartition(".toml:")
        file, suffix = head + ".toml", ":" + name
    path = Path(file)
    if path.suffix == ".toml" and not path.is_absolute() and path.is_file():
        return str(path.resolve()) + suffix
    return text


def _names(name: str, value: object) -> tuple[str, ...]:
    """A list field's value as a tuple of strings (a string is read as comma-separated)."""
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("", "none"):
            return ()
        return tuple(part.strip() for part in text.split(","))
    if not isinstance(value, tuple | list):
        raise BalanceError(f"rule {name!r}: {value!r} is not a list of names")
    for item in value:
        if not isinstance(item, str):
            raise BalanceError(f"rule {name!r}: {item!r} is not a name")
    return tuple(value)
