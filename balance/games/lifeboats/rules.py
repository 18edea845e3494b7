"""Lifeboats' rule parameters: one validated, documented object.

Every decision in ``docs/lifeboats.md`` that a designer may want to change
is a field here (the board, the pawns, the hats, the leaks, the round cap). At the
kernel boundary the object is packed into a small ``int64`` array
(:meth:`LifeboatsRules.to_array`), indexed by the slots of
:data:`balance.games.lifeboats.layout.Rule`; kernels never read module globals.

Some checks depend on the number of players (enough lanes for every boat, enough seats
for every pawn): :meth:`LifeboatsRules.check_players` makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from balance.core.errors import BalanceError
from balance.core.rule_fields import RuleFields, check_int
from balance.games.lifeboats.layout import (
    MAX_ISLANDS,
    MAX_LANES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Rule,
)

SEATS_LIMIT = 99
TRACK_LIMIT = 100
POINTS_LIMIT = 1_000
PAWNS_LIMIT = 99
HATS_LIMIT = 99
LEAKS_LIMIT = 999
ROUND_CAP_LIMIT = 10_000
#: Player counts the per-count fields (``officers``, ``sailors``) give a value for.
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
#: Fields held as tuples of whole numbers (lists in JSON, comma-separated on the command line).
LIST_FIELDS = (
    "lane_islands",
    "officer_points",
    "sailor_points",
    "officers",
    "sailors",
    "sailors_by_seat",
)


def _help(text: str, allowed: str) -> dict[str, str]:
    return {"help": text, "allowed": allowed}


@dataclass(frozen=True)
class LifeboatsRules(RuleFields):
    """Rule parameters of Lifeboats; the defaults are the rules page's."""

    LISTS: ClassVar[tuple[str, ...]] = LIST_FIELDS

    def parse_value(self, key: str, text: str) -> Any:
        if key in LIST_FIELDS:
            return _parse_numbers(key, text)
        return super().parse_value(key, text)

    seats_per_boat: int = field(
        default=6,
        metadata=_help(
            "Seats in every boat; a seat holds one pawn or one leak marker.",
            f"1..{SEATS_LIMIT}",
        ),
    )
    lane_islands: tuple[int, ...] = field(
        default=(0, 0, 1, 1, 2, 2, 2),
        metadata=_help(
            "The island (0 = A, 1 = B, ...) each starting lane leads to; one entry a lane.",
            f"{MIN_PLAYERS + 1}..{MAX_LANES} island numbers, at least players + 1 lanes",
        ),
    )
    officer_points: tuple[int, ...] = field(
        default=(8, 6, 7),
        metadata=_help(
            "Points of an officer landed on each island (A, B, C, ...).",
            f"1..{MAX_ISLANDS} numbers 0..{POINTS_LIMIT}, one an island",
        ),
    )
    sailor_points: tuple[int, ...] = field(
        default=(6, 4, 5),
        metadata=_help(
            "Points of a sailor landed on each island (A, B, C, ...).",
            f"as many numbers 0..{POINTS_LIMIT} as officer_points",
        ),
    )
    track_length: int = field(
        default=3,
        metadata=_help(
            "Moves a boat makes from its starting lane to its island; it lands on the last.",
            f"1..{TRACK_LIMIT}",
        ),
    )
    officers: tuple[int, ...] = field(
        default=(2, 2, 2, 2),
        metadata=_help(
            "Officers per player with 3, 4, 5 and 6 players.",
            f"four numbers 0..{PAWNS_LIMIT}",
        ),
    )
    sailors: tuple[int, ...] = field(
        default=(5, 5, 4, 4),
        metadata=_help(
            "Sailors per player with 3, 4, 5 and 6 players; every player needs a pawn, and "
            "all pawns must fit in the boats.",
            f"four numbers 0..{PAWNS_LIMIT}",
        ),
    )
    sailors_by_seat: tuple[int, ...] = field(
        default=(),
        metadata=_help(
            "Sailors of each seat (0, 1, ...), overriding 'sailors' for a table of exactly "
            "that many players; e.g. 5,5,5,5,4,4 is the printed set (white and yellow have 4).",
            f"empty, or one number 0..{PAWNS_LIMIT} a seat",
        ),
    )
    hats: int = field(
        default=3,
        metadata=_help(
            "Captain's hats per player; one is spent each time it is played in a vote.",
            f"0..{HATS_LIMIT}",
        ),
    )
    leaks: int = field(
        default=15,
        metadata=_help(
            "Leak markers in all; once all are on boats the leak phase is skipped.",
            f"0..{LEAKS_LIMIT}",
        ),
    )
    stay_without_seat: bool = field(
        default=False,
        metadata=_help(
            "Swimming out stays compulsory, except out of a boat when no other boat afloat "
            "has a free seat: that pawn stays (the rulebook makes it swim and drown).",
            "true or false",
        ),
    )
    round_cap: int = field(
        default=60,
        metadata=_help(
            "Rounds after which a game with a boat still afloat ends unfinished, with no winner.",
            f"1..{ROUND_CAP_LIMIT}",
        ),
    )

    def __post_init__(self) -> None:
        for name in LIST_FIELDS:
            object.__setattr__(self, name, _numbers(name, getattr(self, name)))
        check_int("seats_per_boat", self.seats_per_boat, 1, SEATS_LIMIT)
        check_int("track_length", self.track_length, 1, TRACK_LIMIT)
        check_int("hats", self.hats, 0, HATS_LIMIT)
        check_int("leaks", self.leaks, 0, LEAKS_LIMIT)
        check_int("round_cap", self.round_cap, 1, ROUND_CAP_LIMIT)
        if not isinstance(self.stay_without_seat, bool):
            raise BalanceError(
                f"rule 'stay_without_seat': {self.stay_without_seat!r} is not true or false"
            )
        if len(self.sailors_by_seat) > MAX_PLAYERS:
            raise BalanceError(
                f"rule 'sailors_by_seat': {len(self.sailors_by_seat)} seats given, "
                f"at most {MAX_PLAYERS}"
            )
        for value in self.sailors_by_seat:
            check_int("sailors_by_seat", value, 0, PAWNS_LIMIT)
        islands = len(self.officer_points)
        if not 1 <= islands <= MAX_ISLANDS:
            raise BalanceError(
                f"rule 'officer_points': {islands} islands given, not 1..{MAX_ISLANDS}"
            )
        if len(self.sailor_points) != islands:
            raise BalanceError(
                f"rule 'sailor_points': {len(self.sailor_points)} values given for "
                f"{islands} islands (one an island, as officer_points)"
            )
        for name in ("officer_points", "sailor_points"):
            for value in getattr(self, name):
                check_int(name, value, 0, POINTS_LIMIT)
        lanes = len(self.lane_islands)
        if not MIN_PLAYERS + 1 <= lanes <= MAX_LANES:
            raise BalanceError(
                f"rule 'lane_islands': {lanes} lanes given, not {MIN_PLAYERS + 1}..{MAX_LANES}"
            )
        for lane, island in enumerate(self.lane_islands):
            if not 0 <= island < islands:
                raise BalanceError(
                    f"rule 'lane_islands': lane {lane} leads to island {island}, but only "
                    f"islands 0..{islands - 1} have points"
                )
        for name in ("officers", "sailors"):
            values = getattr(self, name)
            if len(values) != len(PLAYER_COUNTS):
                raise BalanceError(
                    f"rule {name!r}: {len(values)} values given, not 4 (for 3, 4, 5 and 6 players)"
                )
            for value in values:
                check_int(name, value, 0, PAWNS_LIMIT)
        for players, officers, sailors in zip(
            PLAYER_COUNTS, self.officers, self.sailors, strict=True
        ):
            if officers + sailors < 1:
                raise BalanceError(
                    f"rules 'officers' and 'sailors': with {players} players a player has no pawn"
                )

    @property
    def lanes(self) -> int:
        return len(self.lane_islands)

    @property
    def islands(self) -> int:
        return len(self.officer_points)

    def pawns(self, players: int) -> tuple[int, int]:
        """Officers and sailors per player with ``players`` players."""
        k = players - MIN_PLAYERS
        return self.officers[k], self.sailors[k]

    def seat_pawns(self, players: int) -> list[tuple[int, int]]:
        """Officers and sailors of each seat with ``players`` players (``sailors_by_seat``
        when given, else ``sailors`` for that count)."""
        officers, sailors = self.pawns(players)
        if not self.sailors_by_seat:
            return [(officers, sailors)] * players
        return [(officers, k) for k in self.sailors_by_seat]

    def check_players(self, players: int) -> None:
        """A one-line error unless these rules can seat ``players`` players.

        Every boat (one a player and the black one) needs a lane, and every pawn a seat.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise BalanceError(
                f"lifeboats plays {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        if self.lanes < players + 1:
            raise BalanceError(
                f"rule 'lane_islands': {self.lanes} lanes cannot hold the {players + 1} boats "
                f"of {players} players"
            )
        if self.sailors_by_seat and len(self.sailors_by_seat) != players:
            raise BalanceError(
                f"rule 'sailors_by_seat': {len(self.sailors_by_seat)} seats given for "
                f"{players} players (one number a seat)"
            )
        for seat, (officers, sailors) in enumerate(self.seat_pawns(players)):
            if officers + sailors < 1:
                raise BalanceError(
                    f"rules 'officers' and 'sailors_by_seat': seat {seat} has no pawn"
                )
        pawns = sum(officers + sailors for officers, sailors in self.seat_pawns(players))
        seats = (players + 1) * self.seats_per_boat
        if pawns > seats:
            raise BalanceError(
                f"rule 'seats_per_boat': {players} players' {pawns} pawns do not fit in "
                f"{players + 1} boats of {self.seats_per_boat} seats"
            )

    def to_array(self, players: int) -> np.ndarray:
        """Pack for the kernels with ``players`` players: ``int64`` ``(Rule.SIZE,)``."""
        self.check_players(players)
        packed = np.zeros(Rule.SIZE, dtype=np.int64)
        packed[Rule.SEATS] = self.seats_per_boat
        packed[Rule.TRACK] = self.track_length
        packed[Rule.LANES] = self.lanes
        packed[Rule.HATS] = self.hats
        packed[Rule.LEAKS] = self.leaks
        packed[Rule.ROUND_CAP] = self.round_cap
        packed[Rule.OFFICERS], packed[Rule.SAILORS] = self.pawns(players)
        packed[Rule.STAY_WITHOUT_SEAT] = self.stay_without_seat
        for seat, (_, sailors) in enumerate(self.seat_pawns(players)):
            packed[Rule.SEAT_SAILORS + seat] = sailors
        packed[Rule.ISLANDS] = self.islands
        packed[Rule.LANE_ISLAND : Rule.LANE_ISLAND + self.lanes] = self.lane_islands
        packed[Rule.OFFICER_POINTS : Rule.OFFICER_POINTS + self.islands] = self.officer_points
        packed[Rule.SAILOR_POINTS : Rule.SAILOR_POINTS + self.islands] = self.sailor_points
        return packed


def _numbers(name: str, value: object) -> tuple[int, ...]:
    """A list field's value as a tuple of ints (a string is read as comma-separated)."""
    if isinstance(value, str):
        return _parse_numbers(name, value)
    if not isinstance(value, tuple | list):
        raise BalanceError(f"rule {name!r}: {value!r} is not a list of whole numbers")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | np.integer):
            raise BalanceError(f"rule {name!r}: {item!r} is not a whole number")
    return tuple(int(item) for item in value)


def _parse_numbers(name: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BalanceError(
            f"rule {name!r}: {text!r} is not comma-separated whole numbers"
        ) from None
