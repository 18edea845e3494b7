"""Battle of Thieves' cards, weapons, pirates, ships and decks, read from TOML files.

The designer writes the game's content in TOML (``docs/battle-of-thieves-cards.md``
describes the format); this module checks it and compiles two decks into the
:class:`~balance.games.battle_of_thieves.content.Content` both engines play. Every
mistake in a file is one line, ``FILE:LINE: what: reason``, pointing at the ``key =``
line of the value at fault (or the header of its table when the value is not on a line
of its own). Reading goes on after a mistake, table by table (each effect, modifier,
pirate, card line and provision of a deck on its own), so that every mistake of a file
and of its includes is found in one reading: :class:`FileMistakes` carries them all.
A name whose definition was refused is not reported again where a deck uses it.

A file may hold any of ``include = [...]``, ``[[card]]``, ``[[weapon]]``, ``[[pirate]]``,
``[[ship]]`` and ``[[deck]]``. A deck refers to cards, weapons, pirates and a ship by
name, from its own file or from a file it includes (paths relative to the including
file), so a deck file can reuse a shared card library.

Entry points: :func:`load_file` (a file and its includes, checked), :func:`check_files`
and :func:`check_each` (``balance deck check``), :func:`example_decks` (``balance deck
list``), :func:`deck_content` and :func:`matchup_content` (``BattleRules.content()``).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, TypeVar

from balance.core.errors import BalanceError
from balance.games.battle_of_thieves import layout as L
from balance.games.battle_of_thieves.content import Content, blanked, deal_food, make_content


class FileMistakes(BalanceError):
    """Every mistake found in reading a file and its includes, one ``FILE:LINE: what:
    reason`` line each, in file order, an include's before the file's (``lines``). As a
    message it is the first line, with the count of the others and the command that lists
    them. ``partial``: what the file defines that was read without a mistake (for the
    checks of :func:`check_each` that need the rules), or None."""

    def __init__(
        self, lines: Sequence[str], shown: str = "", partial: Library | None = None
    ) -> None:
        self.lines = list(dict.fromkeys(lines))
        self.partial = partial
        more = len(self.lines) - 1
        text = self.lines[0]
        if more:
            mistakes = "mistake" if more == 1 else "mistakes"
            text += f" (and {more} more {mistakes}: balance deck check {shown})"
        super().__init__(text)


T = TypeVar("T")


def _attempt(errors: list[BalanceError], read: Callable[[], T]) -> T | None:
    """``read()``, or None with its mistakes added to ``errors``."""
    try:
        return read()
    except BalanceError as error:
        errors.append(error)
        return None


def _lines_of(error: BalanceError) -> list[str]:
    return error.lines if isinstance(error, FileMistakes) else [str(error)]


def _gather(errors: Sequence[BalanceError]) -> None:
    """Raise every mistake of ``errors`` as one :class:`FileMistakes` (if any)."""
    if errors:
        raise FileMistakes([line for error in errors for line in _lines_of(error)])


#: The example content shipped with balance (not the published game's cards).
EXAMPLES = Path(__file__).resolve().parent / "examples"

#: Most provisions of one kind, and in all, a deck's starting reserve may hold: the most
#: the rule ``reserve_size`` allows (its default, 30, is checked with the rules:
#: :func:`check_each`, ``BattleRules.content``).
MAX_RESERVE = 99
#: Copy limit of a card that gives none (legendary cards: 1).
DEFAULT_COPIES = 2
BLANK_NAME = "(blank)"

# --- the vocabulary ---------------------------------------------------------------------

#: Card types a ``[[card]]`` may have (ships are ``[[ship]]`` tables; blank is internal).
CARD_TYPE_NAMES = tuple(n for n in L.CARD_TYPES if n not in ("blank", "ship"))

SHIP_TARGETS = (L.OWN_SHIP, L.ENEMY_SHIP)
SIDE_TARGETS = (L.OWN, L.ENEMY)
ZONE_TARGETS = (L.PIRATES_OWN_SHIP, L.PIRATES_ENEMY_SHIP, L.PIRATES_ISLAND)
#: The pirates that set a program off: who may name them (``_program``'s checks).
CAUSE_TARGETS = (L.ATTACKER, L.BOARDER, L.HIT_PIRATE)
PIRATE_TARGETS = (
    *L.CHOSEN_TARGETS,
    *ZONE_TARGETS,
    L.SELF,
    L.RANDOM_ENEMY_PIRATE,
    *CAUSE_TARGETS,
    L.VISITOR,
)
OWN_CHOSEN = (L.OWN_PIRATE, L.OWN_PIRATE_HERE)

#: Statuses that strike by turn number: their ``turns`` counts strikes (default 1).
UNTIMED_STATUSES = (L.BURN, L.POISON)


class Range(NamedTuple):
    """Allowed whole numbers of an effect's ``amount`` or ``turns``."""

    low: int
    high: int
    default: int | None  # None: required
    nonzero: bool = False

    def text(self) -> str:
        span = f"{self.low}..{self.high}"
        return f"{span}, not 0" if self.nonzero else span


class OpSpec(NamedTuple):
    """What one effect operation takes."""

    targets: tuple[int, ...]  # allowed targets; () = no target
    default_target: int | None  # used when ``target`` is left out (None: required)
    amount: Range | None  # None: takes no amount
    turns: Range | None  # None: takes no turns (status: by the status)
    arg: str = ""  # "status", "provision" or "to": the field ARG comes from
    meaning: str = ""  # for the docs


COUNT = Range(1, 99, 1)
SIGNED = Range(-999, 999, None, nonzero=True)
TIMED = Range(1, 99, None)
UNTIL_UNDONE = Range(0, 99, 0)
#: How many game turns a burn or poison strikes in (``turns``; 0 in the row: the default 1).
STRIKES = Range(1, 99, 1)
#: What ``status`` may name in a ``cure``: a status, or ``all`` (ARG 0).
CURE_NAMES = ("all", *L.STATUSES[1:])
#: Operations whose ``turns`` may be counted in the owner's turns (``own_turns``).
OWN_TURNS_OPS = (
    L.STATUS,
    L.ANCHOR_DOWN,
    L.MAST_BROKEN,
    L.PACIFY_CANNONS,
    L.STRIP,
    L.CANNON_MODIFIER,
)
OWN_TURNS = Range(1, 99, None)

OP_SPECS: dict[int, OpSpec] = {
    L.WATER: OpSpec(SHIP_TARGETS, None, SIGNED, None, meaning="water level +amount (never < 0)"),
    L.HOLE: OpSpec(SHIP_TARGETS, None, COUNT, None, meaning="amount holes"),
    L.REPAIR: OpSpec(SHIP_TARGETS, None, COUNT, None, meaning="repair amount holes"),
    L.DAMAGE: OpSpec(PIRATE_TARGETS, None, COUNT, None, meaning="each target loses amount life"),
    L.HEAL: OpSpec(PIRATE_TARGETS, None, COUNT, None, meaning="each target heals amount (max 2)"),
    L.REVIVE: OpSpec((L.OWN_PIRATE,), None, None, None, meaning="a dead own pirate returns"),
    L.STATUS: OpSpec(PIRATE_TARGETS, None, None, TIMED, "status", "apply a status"),
    L.ANCHOR_DOWN: OpSpec(SHIP_TARGETS, None, None, UNTIL_UNDONE, meaning="anchor down"),
    L.MAST_BROKEN: OpSpec(SHIP_TARGETS, None, None, UNTIL_UNDONE, meaning="mast broken"),
    L.PACIFY_CANNONS: OpSpec(SHIP_TARGETS, None, None, TIMED, meaning="no cannon fire"),
    L.STRIP: OpSpec(SIDE_TARGETS, None, None, TIMED, meaning="no provision can be spent"),
    L.GAIN: OpSpec(SIDE_TARGETS, None, COUNT, None, "provision", "gain provisions"),
    L.LOSE: OpSpec(SIDE_TARGETS, None, COUNT, None, "provision", "lose provisions"),
    L.STEAL: OpSpec((L.ENEMY,), None, COUNT, None, "provision", "take the enemy's provisions"),
    L.DRAW: OpSpec(SIDE_TARGETS, None, COUNT, None, meaning="draw amount cards"),
    L.DISCARD: OpSpec(SIDE_TARGETS, None, COUNT, None, meaning="discard amount random cards"),
    L.CANNON_MODIFIER: OpSpec(
        SHIP_TARGETS, None, Range(-12, 12, None, nonzero=True), TIMED, meaning="cannon rolls"
    ),
    L.EXTRA_ACTION: OpSpec(
        (*OWN_CHOSEN, L.SELF, L.VISITOR), None, COUNT, None, meaning="amount more actions"
    ),
    L.MOVE: OpSpec(PIRATE_TARGETS, None, None, None, "to", "move pirates"),
    L.INSULT: OpSpec((), None, None, None, meaning="insult battle"),
    L.CLEAR_ISLAND: OpSpec((L.THE_ISLAND,), L.THE_ISLAND, None, None, meaning="clear island"),
    L.CURE: OpSpec(PIRATE_TARGETS, None, None, None, "status", "remove a status, or all"),
    L.DISCARD_DECK: OpSpec(SIDE_TARGETS, None, COUNT, None, meaning="discard from the draw pile"),
}

MOD_AMOUNT = Range(-999, 999, None, nonzero=True)
HITS_ON = Range(1, 6, None)
WEAPON_DAMAGE = Range(1, 9, None)
TRIGGER_VALUE = Range(1, 999, None)
#: What a ship's ``value`` is for each ``when`` that takes one.
SHIP_VALUES = {L.WATER_AT_LEAST: TRIGGER_VALUE, L.OWN_HOLES_AT_LEAST: Range(1, 20, None)}
COPIES = Range(1, L.DECK_SIZE, None)

ROOT_FIELDS = ("include", "card", "weapon", "pirate", "ship", "deck")
CARD_FIELDS = ("name", "type", "copies", "sin", "text", "effect", "modifier", "cost", "trigger")
#: What a card's ``cost`` table may name: the provisions, the kinds of food, and ``action``.
COST_FIELDS = (*L.PROVISIONS, *L.FOOD_KINDS, "action")
COST_AMOUNT = Range(1, 30, None)
ITEM_FIELDS = (*CARD_FIELDS, "targetable", "reusable")
EFFECT_FIELDS = (
    "do",
    "target",
    "amount",
    "turns",
    "own_turns",
    "status",
    "provision",
    "to",
    "on",
    "if",
    "value",
)
#: The water level ``if = "own_water_at_least"`` compares with.
IF_WATER = Range(1, 999, None)
#: The holes ``if = "own_holes_at_least"`` (a ship's ``when = "holes_at_least"``) needs.
IF_HOLES = Range(1, 20, None)
#: What ``value`` is for each condition that takes one (``layout.VALUED_CONDITIONS``).
CONDITION_VALUES = {
    L.OWN_WATER_AT_LEAST: ("the water level", IF_WATER),
    L.ENEMY_WATER_AT_LEAST: ("the water level", IF_WATER),
    L.OWN_HOLES_AT_LEAST: ("the number of holes", IF_HOLES),
    L.ENEMY_HOLES_AT_LEAST: ("the number of holes", IF_HOLES),
}
MODIFIER_FIELDS = ("stat", "amount")
WEAPON_FIELDS = ("name", "text", "hits_on", "damage", "reach", "effect")
PIRATE_FIELDS = ("name", "text", "modifier", "trigger")
#: A triggered ability's fields (``[[card.trigger]]``, ``[[pirate.trigger]]``).
TRIGGER_FIELDS = ("on", "text", "effect")
#: Card types that may have triggered abilities (they stay in play with a holder).
TRIGGERED_TYPES = (L.ANIMAL, L.ITEM)
SHIP_FIELDS = ("name", "text", "modifier", "when", "value", "effect")
DECK_FIELDS = ("name", "text", "ship", "pirates", "cards", "provisions")
DECK_PIRATE_FIELDS = ("name", "weapons")

#: Card types whose program may choose a pirate, and which chosen targets they may use.
CHOOSERS: dict[int, tuple[int, ...]] = {
    L.EVENT: L.CHOSEN_TARGETS,
    L.SPECIAL: L.CHOSEN_TARGETS,
    L.LEGENDARY: L.CHOSEN_TARGETS,
    L.ITEM: L.CHOSEN_TARGETS,
    L.FOOD: (L.OWN_PIRATE,),  # the pirate it feeds
}
#: Card types with a program, and what the program is for (in messages).
PROGRAM_OF = {
    L.CURSED_BALL: "applied when the ball hits",
    L.EVENT: "applied when played",
    L.ISLAND_CARD: "applied at each island visit",
    L.FOOD: "applied after the heal",
    L.ITEM: "applied when the item is activated",
    L.SPECIAL: "applied when played",
    L.LEGENDARY: "applied when played",
}
MODIFIED_TYPES = (L.ANIMAL, L.ITEM)

_KIND_NAMES = {t: L.CARD_TYPES[t].replace("_", " ") for t in range(len(L.CARD_TYPES))}
_KIND_NAMES[L.ISLAND_CARD] = "island card"


def _a(kind: int) -> str:
    """'a cursed ball', 'an event': the card type with its article."""
    name = _KIND_NAMES[kind]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


# --- where things are in a file -----------------------------------------------------------

_KEY_PART_TEXT = r"""[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'"""
_KEY_PART = re.compile(_KEY_PART_TEXT)
_DOTTED = rf"(?:{_KEY_PART_TEXT})(?:\s*\.\s*(?:{_KEY_PART_TEXT}))*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY_LINE = re.compile(rf"^\s*({_DOTTED})\s*=")


def _key_names(dotted: str) -> tuple[str, ...]:
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in _KEY_PART.findall(dotted))


Address = tuple[tuple[str, int | None], ...]


class Source:
    """A TOML file's text, indexed so that a parsed value can be traced to its line.

    ``tomllib`` keeps no positions, so the text is scanned: the header line of every
    table (``[[card]]``, ``[[card.effect]]``, ``[deck.cards]``...) and the key of every
    ``key = value`` line that starts at the top level of a table, skipping multi-line
    strings and arrays. Lines are 1-based.
    """

    def __init__(self, path: Path, shown: str, text: str) -> None:
        self.path = path
        self.shown = shown
        self.lines = text.splitlines()
        self.keys: dict[int, str] = {}  # line -> first part of the key set on it
        self.headers: list[int] = []  # header lines, ascending
        self.address: dict[Address, int] = {}  # table address -> header line
        self._scan()

    def _scan(self) -> None:
        depth = 0
        quote = ""  # the open multi-line string's delimiter
        last: dict[tuple[Any, ...], int] = {}  # array of tables -> its last index
        for number, line in enumerate(self.lines, start=1):
            if not quote and depth == 0:
                header = _HEADER.match(line)
                if header:
                    self.headers.append(number)
                    self._add_header(number, header.group(1) == "[[", header.group(2), last)
                    continue
                key = _KEY_LINE.match(line)
                if key:
                    self.keys[number] = _key_names(key.group(1))[0]
            depth, quote = _track(line, depth, quote)

    def _add_header(
        self, number: int, is_array: bool, dotted: str, last: dict[tuple[Any, ...], int]
    ) -> None:
        names = _key_names(dotted)
        address: Address = ()
        for name in names[:-1]:
            index = last.get((*address, name))
            address = (*address, (name, index))
        if is_array:
            index = last.get((*address, names[-1]), -1) + 1
            last[(*address, names[-1])] = index
            address = (*address, (names[-1], index))
        else:
            address = (*address, (names[-1], None))
        self.address[address] = number

    def end_of(self, header: int) -> int:
        """The last line of the table whose header is on line ``header`` (0: the root)."""
        for line in self.headers:
            if line > header:
                return line - 1
        return len(self.lines)

    def text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


def _track(line: str, depth: int, quote: str) -> tuple[int, str]:
    """Bracket depth and open multi-line string after ``line`` (comments and strings skipped)."""
    i, n = 0, len(line)
    while i < n:
        if quote:
            end = line.find(quote, i)
            if end < 0:
                return depth, quote
            i, quote = end + 3, ""
            continue
        char = line[i]
        if char == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            quote = line[i : i + 3]
            i += 3
        elif char in "\"'":
            i += 1
            while i < n and line[i] != char:
                i += 2 if char == '"' and line[i] == "\\" else 1
            i += 1
        else:
            if char in "[{":
                depth += 1
            elif char in "]}":
                depth = max(0, depth - 1)
            i += 1
    return depth, quote


class Table:
    """One parsed TOML table and where it is: errors name its file and line."""

    def __init__(
        self,
        source: Source,
        data: Any,
        label: str,
        header: int,
        first: int,
        last: int,
        address: Address | None,
    ) -> None:
        self.source = source
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        self.label = label  # "card 'Broadside'", used in front of a reason
        self.header = header  # the line of its header (or of the inline table)
        self.first, self.last = first, last  # lines holding its own keys
        self.address = address  # None: an inline table

    # -- lines --------------------------------------------------------------------------

    def line(self, key: str | None = None) -> int:
        """The line of ``key = ...`` in this table, else the table's header line."""
        if key is None:
            return self.header
        for number in range(self.first, self.last + 1):
            if self.source.keys.get(number) == key:
                return number
        if self.address is not None:
            for index in (None, 0):
                header = self.source.address.get((*self.address, (key, index)))
                if header is not None:
                    return header
        inline = re.compile(
            rf"""(?:^|[{{,\s])(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
        )
        for number in range(self.first, self.last + 1):
            if inline.search(self.source.text(number)):
                return number
        return self.header

    def literal_line(self, value: str, key: str | None = None, nth: int = 1) -> int:
        """The line holding the ``nth`` quoted ``value`` at or after ``key``'s line."""
        start = self.line(key) if key else self.first
        quoted = (f'"{value}"', f"'{value}'")
        seen = 0
        for number in range(start, max(self.last, start) + 1):
            text = self.source.text(number)
            seen += sum(text.count(q) for q in quoted)
            if seen >= nth:
                return number
        return self.line(key)

    def fail(self, key: str | None, reason: str, line: int | None = None) -> NoReturn:
        where = line if line is not None else self.line(key)
        what = f"{self.label}: " if self.label else ""
        raise BalanceError(f"{self.source.shown}:{where}: {what}{reason}")

    # -- nested tables ------------------------------------------------------------------

    def child(self, key: str, label: str) -> Table:
        """The sub-table ``key`` (``[deck.cards]`` or ``cards = {...}``)."""
        data = self.data.get(key)
        if self.address is not None:
            address = (*self.address, (key, None))
            if address in self.source.address:
                return self._at(address, data, label)
        line = self.line(key)
        return Table(self.source, data, label, line, line, self._value_end(line), None)

    def items(self, key: str, label: str) -> list[Table]:
        """The tables of the array ``key`` (``[[card.effect]]`` or ``effect = [{...}]``)."""
        values = self.data.get(key)
        if not isinstance(values, list):
            return []
        out = []
        inline_line = self.line(key)
        braces = 0
        for index, value in enumerate(values):
            address = None if self.address is None else (*self.address, (key, index))
            each = label.format(n=index + 1)
            if address is not None and address in self.source.address:
                out.append(self._at(address, value, each))
                continue
            # Inline: the line of the index-th "{" after the key.
            line, braces = self._brace_line(inline_line, braces + 1)
            out.append(Table(self.source, value, each, line, line, line, None))
        return out

    def _at(self, address: Address, data: Any, label: str) -> Table:
        header = self.source.address[address]
        return Table(
            self.source, data, label, header, header + 1, self.source.end_of(header), address
        )

    def _brace_line(self, start: int, nth: int) -> tuple[int, int]:
        seen = 0
        for number in range(start, max(self.last, start) + 1):
            for char in _code(self.source.text(number)):
                if char == "{":
                    seen += 1
                    if seen == nth:
                        return number, nth
        return start, nth

    def _value_end(self, line: int) -> int:
        """The last line of the value that starts on ``line`` (multi-line arrays)."""
        depth, quote = 0, ""
        for number in range(line, max(self.last, line) + 1):
            depth, quote = _track(self.source.text(number), depth, quote)
            if depth == 0 and not quote:
                return number
        return line

    # -- values -------------------------------------------------------------------------

    def only(self, allowed: Sequence[str], why: Mapping[str, str] | None = None) -> None:
        """Fail on every key that is not in ``allowed`` (one line each)."""
        errors = []
        for key in self.data:
            if key in allowed:
                continue
            reason = why[key] if why and key in why else None
            if reason is None:
                hint = _suggest(key, allowed)
                reason = f"unknown field '{key}'{hint}; allowed: {', '.join(allowed)}"
            try:
                self.fail(key, reason)
            except BalanceError as error:
                errors.append(error)
        _gather(errors)

    def string(self, key: str, required: bool = True) -> str | None:
        if key not in self.data:
            if required:
                self.fail(None, f"missing '{key}'")
            return None
        value = self.data[key]
        if not isinstance(value, str):
            self.fail(key, f"'{key}' must be a quoted string, not {_show(value)}")
        if required and not value.strip():
            self.fail(key, f"'{key}' is empty")
        return value

    def whole(self, key: str, span: Range) -> int:
        """A whole number in ``span`` (its default when missing; required if none)."""
        if key not in self.data:
            if span.default is None:
                self.fail(None, f"missing '{key}' ({span.text()})")
            return span.default
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"'{key}' must be a whole number, not {_show(value)}")
        if not span.low <= value <= span.high or (span.nonzero and value == 0):
            self.fail(key, f"'{key}' = {value} is out of range: allowed {span.text()}")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, f"'{key}' must be true or false, not {_show(value)}")
        return value

    def choice(self, key: str, names: Sequence[str], required: bool = True) -> int | None:
        """The index in ``names`` of the value of ``key`` (None when missing, if allowed)."""
        if key not in self.data:
            if required:
                self.fail(None, f"missing '{key}'; one of: {', '.join(n for n in names if n)}")
            return None
        value = self.data[key]
        if not isinstance(value, str):
            self.fail(key, f"'{key}' must be a quoted name, not {_show(value)}")
        if value in names and value:
            return names.index(value)
        allowed = [n for n in names if n]
        self.fail(
            key, f"unknown {key} '{value}'{_suggest(value, allowed)}; one of: {', '.join(allowed)}"
        )

    def tables(self, key: str, header: str) -> None:
        """``key`` must be an array of tables (``[[header]]``), if present."""
        value = self.data.get(key)
        if value is None:
            return
        if isinstance(value, dict):
            self.fail(key, f"write [[{header}]] (double brackets), one for each {key}")
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(key, f"'{key}' must be [[{header}]] tables")


def _code(line: str) -> str:
    """``line`` without its strings and comment."""
    out = []
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if char == "#":
            break
        if char in "\"'":
            i += 1
            while i < n and line[i] != char:
                i += 2 if char == '"' and line[i] == "\\" else 1
            i += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _suggest(word: str, names: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.7)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _fold(text: str) -> str:
    """Lower case without accents: 'Colere' and 'colère' read as 'Colère'."""
    return "".join(
        c
        for c in unicodedata.normalize("NFD", text.strip().lower())
        if not unicodedata.combining(c)
    )


def _folded_name(text: str) -> str:
    """A name as read: case, accents, spaces, hyphens and underscores do not matter
    ('Noix de coco', 'noix-de-coco' and 'noix_de_coco' are one name)."""
    return re.sub(r"[\s_-]+", "_", _fold(text))


#: Food kinds by other names (besides case, accents and spaces): the English ones.
FOOD_KIND_ALIASES = {"banana": 0, "coconut": 1, "pomegranate": 2, "mango": 3, "pineapple": 4}
#: The statuses by the rulebook's French names (case, accents and spaces do not matter).
STATUS_FRENCH = {
    L.BURN: "brûlure",
    L.IMMOBILISED: "immobilisé",
    L.DRUNK: "ivresse",
    L.POISON: "poison",
    L.DISARMED: "désarmé",
    L.NO_CANNON: "pas de canon",
    L.NO_REPAIR: "pas de réparation",
    L.NO_BUCKET: "pas de seau",
}
STATUS_ALIASES = {
    **{_folded_name(name): status for status, name in STATUS_FRENCH.items()},
    "immobilisme": L.IMMOBILISED,  # the rulebook's heading
    "ivre": L.DRUNK,
    "pas_de_sceau": L.NO_BUCKET,  # the rulebook's spelling
    "immobilized": L.IMMOBILISED,
}


def _lookup(value: str, names: Sequence[str], aliases: Mapping[str, int]) -> int | None:
    """The index of ``value`` among ``names`` or ``aliases`` as :func:`_folded_name` reads
    it, or None."""
    folded = _folded_name(value)
    for index, name in enumerate(names):
        if name and _folded_name(name) == folded:
            return index
    return aliases.get(folded)


def _suggest_named(value: str, names: Sequence[str], aliases: Mapping[str, int]) -> str:
    """' (did you mean 'burn'?)' for a close name or alias (shown by its own name)."""
    by_folded = {_folded_name(n): n for n in names if n}
    by_folded.update({alias: names[index] for alias, index in aliases.items()})
    close = difflib.get_close_matches(_folded_name(value), list(by_folded), n=1, cutoff=0.7)
    return f" (did you mean '{by_folded[close[0]]}'?)" if close else ""


#: Food kinds' other names as indices into provision names (``PROVISIONS``, then
#: ``FOOD_KINDS``), for suggestions.
_PROVISION_ALIASES = {alias: len(L.PROVISIONS) + k for alias, k in FOOD_KIND_ALIASES.items()}


def _status_arg(table: Table, names: Sequence[str] = L.STATUSES) -> int:
    """The ``status`` of an effect, its index in ``names`` (``layout.STATUSES``, or a list
    whose index 0 names something else, such as a cure's "all"): an English name or the
    rulebook's French one."""
    value = table.data.get("status")
    if not isinstance(value, str):
        return table.choice("status", names)  # missing, or not a name: its message
    found = _lookup(value, names, STATUS_ALIASES)
    if found is not None:
        return found
    allowed = [n for n in names if n]
    french = ", ".join(STATUS_FRENCH[L.STATUSES.index(n)] for n in allowed if n in L.STATUSES)
    table.fail(
        "status",
        f"unknown status '{value}'{_suggest_named(value, names, STATUS_ALIASES)}; one of: "
        f"{', '.join(allowed)} (in French: {french})",
    )


def _food_kind(value: str) -> int | None:
    """The index in ``FOOD_KINDS`` of a food kind's name ('noix de coco'), or None."""
    return _lookup(value, L.FOOD_KINDS, FOOD_KIND_ALIASES)


def _provision_names() -> str:
    return f"{', '.join(L.PROVISIONS)}, or a kind of food: {', '.join(L.FOOD_KINDS)}"


def _provision_arg(table: Table) -> int:
    """The ``provision`` of a gain, lose or steal: ``PROVISIONS`` index, or
    ``FOOD_KIND_ARG`` + the kind of food it names."""
    value = table.data.get("provision")
    if not isinstance(value, str):
        return table.choice("provision", L.PROVISIONS)  # missing, or not a name: its message
    if value in L.PROVISIONS:
        return L.PROVISIONS.index(value)
    kind = _food_kind(value)
    if kind is not None:
        return L.FOOD_KIND_ARG + kind
    hint = _suggest_named(value, (*L.PROVISIONS, *L.FOOD_KINDS), _PROVISION_ALIASES)
    table.fail("provision", f"unknown provision '{value}'{hint}; one of: {_provision_names()}")


# --- definitions --------------------------------------------------------------------------


Row = tuple[int, int, int, int, int, int, int, int]
Mod = tuple[int, int]
Trigger = tuple[int, tuple[Row, ...]]  # (layout.ON_* event, its program)


@dataclass(frozen=True)
class Card:
    name: str
    type: int
    copies: int = field(compare=False)  # a deck-building limit: not part of what is played
    sin: int
    flags: int
    program: tuple[Row, ...]
    mods: tuple[Mod, ...]
    text: str = field(default="", compare=False)
    where: str = field(default="", compare=False)  # "file:line"
    cost: tuple[int, ...] = (0,) * L.COST_SIZE  # provisions by kind, then 1 for an action
    triggers: tuple[Trigger, ...] = ()


@dataclass(frozen=True)
class Weapon:
    name: str
    hits_on: int
    damage: int
    text: str = field(default="", compare=False)
    where: str = field(default="", compare=False)
    reach: int = L.REACH_HERE  # layout.REACH_*
    program: tuple[Row, ...] = ()  # its effects on a hit on an enemy pirate


@dataclass(frozen=True)
class Pirate:
    name: str
    mods: tuple[Mod, ...]
    text: str = field(default="", compare=False)
    where: str = field(default="", compare=False)
    triggers: tuple[Trigger, ...] = ()


@dataclass(frozen=True)
class Ship:
    name: str
    mods: tuple[Mod, ...]
    trigger: int
    value: int
    program: tuple[Row, ...]
    text: str = field(default="", compare=False)
    where: str = field(default="", compare=False)


@dataclass(frozen=True)
class Deck:
    name: str
    ship: str
    pirates: tuple[tuple[str, tuple[str, str]], ...]  # (pirate, (weapon, weapon)) × 2
    cards: tuple[tuple[str, int], ...]  # (card, copies) in file order
    provisions: tuple[int, ...]  # in layout.PROVISIONS order (food: all its kinds)
    text: str = field(default="", compare=False)
    where: str = field(default="", compare=False)
    file: str = field(default="", compare=False)  # the file as shown in messages
    card_lines: tuple[int, ...] = field(default=(), compare=False)  # each card's line
    food_kinds: tuple[int, ...] = (0,) * len(L.FOOD_KINDS)  # the food by kind
    provisions_line: int = field(default=0, compare=False)  # its provisions table's line

    def card_list(self) -> list[str]:
        """The 20 cards, copies in a row, in the file's order."""
        return [name for name, copies in self.cards for _ in range(copies)]


KINDS = ("card", "weapon", "pirate", "ship", "deck")


@dataclass(frozen=True)
class Library:
    """Everything a file defines, with everything its includes define.

    ``own_decks`` are the decks written in the file itself (not in its includes);
    ``files`` the file and every file it includes, resolved, in load order.
    """

    path: Path
    shown: str
    cards: Mapping[str, Card]
    weapons: Mapping[str, Weapon]
    pirates: Mapping[str, Pirate]
    ships: Mapping[str, Ship]
    decks: Mapping[str, Deck]
    own_decks: tuple[str, ...]
    files: tuple[Path, ...]

    def deck(self, name: str) -> Deck:
        return self.decks[name]


# --- reading one file ---------------------------------------------------------------------


def _modifiers(table: Table, key: str, header: str) -> tuple[Mod, ...]:
    table.tables(key, header)
    entries = table.items(key, f"{table.label}, modifier {{n}}")
    mods = []
    errors: list[BalanceError] = []

    def modifier(entry: Table) -> Mod:
        entry.only(MODIFIER_FIELDS)
        return entry.choice("stat", L.MOD_STATS), entry.whole("amount", MOD_AMOUNT)

    for entry in entries:
        mod = _attempt(errors, lambda entry=entry: modifier(entry))
        if mod is not None:
            mods.append(mod)
    if len(entries) > L.MAX_MODS:
        _attempt(
            errors,
            lambda: entries[L.MAX_MODS].fail(
                None,
                f"{len(entries)} modifiers; at most {L.MAX_MODS} on one {header.split('.')[0]}",
            ),
        )
    _gather(errors)
    return tuple(mods)


def _effect(table: Table) -> Row:
    table.only(EFFECT_FIELDS)
    op = table.choice("do", L.OPS)
    spec = OP_SPECS[op]
    name = L.OPS[op]
    allowed_targets = ", ".join(L.TARGETS[t] for t in spec.targets)
    target = table.choice("target", L.TARGETS, required=False)
    if not spec.targets:
        if target is not None:
            table.fail("target", f"{name} takes no target")
        target = L.NO_TARGET
    elif target is None:
        if spec.default_target is None:
            table.fail(None, f"missing 'target'; {name} takes one of: {allowed_targets}")
        target = spec.default_target
    elif target not in spec.targets:
        table.fail(
            "target",
            f"{name} cannot target '{L.TARGETS[target]}'; it takes: {allowed_targets}",
        )
    arg = 0
    for key in ("status", "provision", "to"):
        if key in table.data and spec.arg != key:
            table.fail(key, f"{name} takes no '{key}'")
    if spec.arg == "status":
        arg = _status_arg(table, CURE_NAMES if op == L.CURE else L.STATUSES)
    elif spec.arg == "provision":
        arg = _provision_arg(table)
    elif spec.arg == "to":
        arg = table.choice("to", L.DESTINATIONS)
    amount = 0
    if spec.amount is None:
        if "amount" in table.data:
            table.fail("amount", f"{name} takes no 'amount'")
    else:
        amount = table.whole("amount", spec.amount)
    turns_span = spec.turns
    stamped = op == L.STATUS and arg in UNTIMED_STATUSES
    if stamped:
        turns_span = STRIKES
    turns = 0
    clock = L.GAME_TURNS
    if "own_turns" in table.data:
        if stamped:
            table.fail(
                "own_turns",
                f"{L.STATUSES[arg]} strikes in game turns (at the "
                f"{'end' if arg == L.BURN else 'start'} of each of the N after it was "
                "applied): write 'turns'",
            )
        if turns_span is None or op not in OWN_TURNS_OPS:
            table.fail("own_turns", f"{name} takes no 'own_turns'")
        if "turns" in table.data:
            table.fail("own_turns", "write 'turns' (game turns) or 'own_turns', not both")
        turns = table.whole("own_turns", OWN_TURNS)
        clock = L.OWN_TURNS
    elif turns_span is None:
        if "turns" in table.data:
            table.fail("turns", f"{name} takes no 'turns'")
    elif stamped:
        # 0 in the row: the default single strike (content without 'turns' stays as it was)
        turns = table.whole("turns", STRIKES) if "turns" in table.data else 0
    else:
        if "turns" not in table.data and turns_span.default is None:
            what = f"{L.STATUSES[arg]} status" if op == L.STATUS else name
            own = " (or 'own_turns': its owner's turns)" if op in OWN_TURNS_OPS else ""
            table.fail(None, f"missing 'turns': {what} lasts {turns_span.text()} turns{own}")
        turns = table.whole("turns", turns_span)
    on = table.choice("on", L.CONDITIONS, required=False) or L.ALWAYS
    condition = table.choice("if", L.IF_CONDITIONS, required=False) or L.NO_CONDITION
    value = 0
    if condition in CONDITION_VALUES:
        what, span = CONDITION_VALUES[condition]
        if "value" not in table.data:
            table.fail(None, f"missing 'value': {what} ({span.text()})")
        value = table.whole("value", span)
    elif "value" in table.data:
        valued = ", ".join(f"'{L.IF_CONDITIONS[c]}'" for c in L.VALUED_CONDITIONS)
        why = f"if = '{L.IF_CONDITIONS[condition]}' takes none" if condition else "there is no 'if'"
        table.fail("value", f"'value' is the number of a condition ({valued}): {why}")
    return (op, target, amount, turns, arg, on, condition, value, clock)


#: Who may name each pirate that sets a program off: (the ability's event, what it is).
CAUSES = {
    L.ATTACKER: (L.ON_HIT, "the enemy pirate whose attack hit the holder"),
    L.BOARDER: (L.ON_BOARDED, "the enemy pirate that boarded"),
    L.HIT_PIRATE: (L.ON_HITS, "the enemy pirate a hit struck"),
}


def _cause_hint(target: int) -> str:
    """Where ``target`` (one of :data:`CAUSE_TARGETS`) may be used, for messages."""
    event = L.TRIGGER_EVENTS[CAUSES[target][0]]
    weapon = "a weapon's effects and " if target == L.HIT_PIRATE else ""
    return f"only {weapon}a '{event}' ability may name it"


def _program(
    table: Table, key: str, header: str, kind: int | str, event: int | None = L.NO_EVENT
) -> tuple[Row, ...]:
    """The effects ``key`` of a card (``kind`` its type), a ship trigger (``"ship"``), a
    triggered ability (``"trigger"``, ``event`` its ``on``, None if unreadable) or a
    weapon's hit (``"weapon"``)."""
    table.tables(key, header)
    entries = table.items(key, f"{table.label}, effect {{n}}")
    errors: list[BalanceError] = []
    read = [_attempt(errors, lambda entry=entry: _effect(entry)) for entry in entries]
    if len(entries) > L.MAX_EFFECTS:
        _attempt(
            errors,
            lambda: entries[L.MAX_EFFECTS].fail(
                None, f"{len(entries)} effects; at most {L.MAX_EFFECTS}"
            ),
        )
    _gather(errors)  # the checks across effects need every effect read
    rows = [row for row in read if row is not None]
    choosers = CHOOSERS.get(kind, ()) if isinstance(kind, int) else ()
    chosen = 0
    insult = False

    names = {
        "ship": "a ship's trigger",
        "trigger": "a triggered ability",
        "weapon": "a weapon's hit",
    }
    what = names.get(str(kind), _a(kind) if isinstance(kind, int) else str(kind))
    cause = next((t for t, (ev, _) in CAUSES.items() if kind == "trigger" and ev == event), 0)

    def across(entry: Table, row: Row) -> None:
        nonlocal chosen
        op, target, on = row[0], row[1], row[5]
        if target == L.VISITOR and kind != L.ISLAND_CARD:
            entry.fail(
                "target",
                f"{what} has no visitor: 'visitor' is the pirate visiting the island, for "
                "island cards",
            )
        if target == L.SELF and kind not in (L.ITEM, "trigger", "weapon"):
            visitor = ""
            if kind == L.ISLAND_CARD:
                visitor = " ('visitor' is the pirate visiting the island)"
            entry.fail(
                "target",
                f"{what} has no holder: 'self' is the pirate holding an item, or the "
                f"holder of a triggered ability, or the pirate attacking with a weapon{visitor}",
            )
        if target in CAUSE_TARGETS and not (
            target == cause
            or (kind == "weapon" and target == L.HIT_PIRATE)
            or (kind == "trigger" and event is None)  # its 'on' is wrong: said already
        ):
            whose = f"a '{L.TRIGGER_EVENTS[event]}' ability" if kind == "trigger" else what
            name = L.TARGETS[target]
            entry.fail(
                "target",
                f"{whose} has no '{name}': it is {CAUSES[target][1]}; {_cause_hint(target)}",
            )
        if target in L.CHOSEN_TARGETS:
            if not choosers:
                others = ""
                if kind == "trigger":
                    others = f"self, {L.TARGETS[cause]}, " if cause else "self, "
                    others += "random_enemy_pirate, "
                elif kind == "weapon":
                    others = "hit_pirate, self, random_enemy_pirate, "
                entry.fail(
                    "target",
                    f"{what} cannot choose a pirate ('{L.TARGETS[target]}'): "
                    f"use {others}pirates_own_ship, pirates_enemy_ship or pirates_island",
                )
            if target not in choosers:
                entry.fail(
                    "target",
                    f"food acts on the pirate it feeds: use 'own_pirate', not "
                    f"'{L.TARGETS[target]}'",
                )
            if kind == L.FOOD and op == L.REVIVE:
                entry.fail("do", "food cannot revive: it feeds a living pirate")
            if chosen and target != chosen:
                entry.fail(
                    "target",
                    f"'{L.TARGETS[target]}' but an earlier effect chooses "
                    f"'{L.TARGETS[chosen]}'; a card chooses one pirate",
                )
            chosen = target
        if on == L.IF_HIT and kind != L.CURSED_BALL:
            whose = "a weapon's effects" if kind == "weapon" else f"{what}'s"
            entry.fail(
                "on",
                f"on = 'hit' is only for a cursed ball's effects (those that need its shot to "
                f"hit), not for {whose}",
            )
        if on in (L.IF_WON, L.IF_LOST) and not insult:
            entry.fail("on", f"on = '{L.CONDITIONS[on]}' needs an insult effect before it")

    for entry, row in zip(entries, rows, strict=True):
        _attempt(errors, lambda entry=entry, row=row: across(entry, row))
        insult = insult or row[0] == L.INSULT
    _gather(errors)
    return tuple(rows)


def _triggers(table: Table, header: str) -> tuple[Trigger, ...]:
    """The triggered abilities ``[[HEADER]]`` (``card.trigger`` or ``pirate.trigger``) of a
    card or pirate: each an ``on`` event and ``[[HEADER.effect]]`` tables (1..8)."""
    table.tables("trigger", header)
    entries = table.items("trigger", f"{table.label}, trigger {{n}}")
    errors: list[BalanceError] = []

    def one(entry: Table) -> Trigger:
        mistakes: list[BalanceError] = []  # each field checked even when another is wrong
        _attempt(mistakes, lambda: entry.only(TRIGGER_FIELDS))
        event = _attempt(mistakes, lambda: entry.choice("on", L.TRIGGER_EVENTS))
        _attempt(mistakes, lambda: entry.string("text", required=False))
        program = _attempt(
            mistakes, lambda: _program(entry, "effect", f"{header}.effect", "trigger", event)
        )
        if program is not None and not program:
            _attempt(
                mistakes,
                lambda: entry.fail(
                    None,
                    f"a trigger needs at least one [[{header}.effect]] (what it does when it "
                    "fires)",
                ),
            )
        _gather(mistakes)
        assert event is not None and program is not None
        return event, program

    triggers = []
    for entry in entries:
        trigger = _attempt(errors, lambda entry=entry: one(entry))
        if trigger is not None:
            triggers.append(trigger)
    if len(entries) > L.MAX_TRIGGERS:
        _attempt(
            errors,
            lambda: entries[L.MAX_TRIGGERS].fail(
                None, f"{len(entries)} triggers; at most {L.MAX_TRIGGERS}"
            ),
        )
    _gather(errors)
    return tuple(triggers)


def _card(table: Table) -> Card:
    name = table.string("name")
    table.label = f"card '{name}'"
    if name == BLANK_NAME:
        table.fail("name", f"the name '{BLANK_NAME}' is reserved for the blank card")
    if table.data.get("type") == "ship":
        table.fail("type", "a ship is not a card: write it as a [[ship]] table")
    kind = L.CARD_TYPES.index(CARD_TYPE_NAMES[table.choice("type", CARD_TYPE_NAMES)])
    # From here on, each field is checked even when another is wrong.
    errors: list[BalanceError] = []
    only_items = {k: f"only items have '{k}'" for k in ("targetable", "reusable")}
    _attempt(errors, lambda: table.only(ITEM_FIELDS if kind == L.ITEM else CARD_FIELDS, only_items))
    default = 1 if kind == L.LEGENDARY else DEFAULT_COPIES
    copies = _attempt(errors, lambda: table.whole("copies", COPIES._replace(default=default)))
    cost = _attempt(errors, lambda: _cost(table, kind))

    def read_sin() -> int:
        if "sin" not in table.data:
            return -1
        value = table.string("sin")
        folded = [_fold(s) for s in L.SINS]
        if _fold(value) not in folded:
            hint = _suggest(value, L.SINS)
            table.fail("sin", f"unknown sin '{value}'{hint}; one of: {', '.join(L.SINS)}")
        return folded.index(_fold(value))

    sin = _attempt(errors, read_sin)
    text = _attempt(errors, lambda: table.string("text", required=False)) or ""
    program: tuple[Row, ...] | None = ()
    if kind == L.ANIMAL and "effect" in table.data:
        _attempt(
            errors,
            lambda: table.fail("effect", "an animal has no effects, only [[card.modifier]] tables"),
        )
    else:
        program = _attempt(errors, lambda: _program(table, "effect", "card.effect", kind))
    mods: tuple[Mod, ...] | None = ()
    if kind not in MODIFIED_TYPES and "modifier" in table.data:
        _attempt(
            errors,
            lambda: table.fail(
                "modifier", f"{_a(kind)} has no modifiers (only animals and items do)"
            ),
        )
    else:
        mods = _attempt(errors, lambda: _modifiers(table, "modifier", "card.modifier"))
    triggers: tuple[Trigger, ...] | None = ()
    if "trigger" in table.data and kind not in TRIGGERED_TYPES:
        _attempt(
            errors,
            lambda: table.fail(
                "trigger",
                f"{_a(kind)} has no triggered abilities (only animals, items and pirates, "
                "which stay in play with a holder, do)",
            ),
        )
    else:
        triggers = _attempt(errors, lambda: _triggers(table, "card.trigger"))
    needs = (L.EVENT, L.SPECIAL, L.LEGENDARY, L.CURSED_BALL, L.ISLAND_CARD)
    if kind in needs and program is not None and not program:
        _attempt(
            errors,
            lambda: table.fail(
                None, f"{_a(kind)} needs at least one [[card.effect]] ({PROGRAM_OF[kind]})"
            ),
        )

    def read_flags() -> int:
        if kind != L.ITEM:
            return 0
        activable = program is None or bool(program)  # None: refused effects, said already
        reusable = table.flag("reusable")
        if reusable and not activable:
            table.fail("reusable", "'reusable' needs an activation: add [[card.effect]] tables")
        flags = (L.ACTIVABLE if activable else 0) | (
            L.TARGETABLE if table.flag("targetable") else 0
        )
        return flags | (L.REUSABLE if reusable else 0)

    flags = _attempt(errors, read_flags)
    _gather(errors)
    assert copies is not None and sin is not None and program is not None and mods is not None
    assert flags is not None and cost is not None and triggers is not None
    where = f"{table.source.shown}:{table.header}"
    return Card(name, kind, copies, sin, flags, program, mods, text, where, cost, triggers)


def _cost(table: Table, kind: int) -> tuple[int, ...]:
    """A card's ``cost = { planks = 1, action = true, ... }`` (all 0 when there is none)."""
    if "cost" not in table.data:
        return (0,) * L.COST_SIZE
    data = table.data["cost"]
    if not isinstance(data, dict):
        table.fail("cost", "'cost' must be a table, e.g. cost = { cannonballs = 2, action = true }")
    entry = table.child("cost", f"{table.label}, cost")
    kinds = [0] * len(L.FOOD_KINDS)
    named: dict[int, str] = {}  # kind -> the key that named it
    for key in data:
        kind_of = None if key in COST_FIELDS[: len(L.PROVISIONS)] else _food_kind(key)
        if kind_of is None:
            continue
        if kind_of in named:
            entry.fail(key, f"'{key}' names {L.FOOD_KINDS[kind_of]} again ('{named[kind_of]}')")
        named[kind_of] = key
        kinds[kind_of] = entry.whole(key, COST_AMOUNT)
    errors: list[BalanceError] = []
    for key in data:
        if key not in (*L.PROVISIONS, "action") and _food_kind(key) is None:
            hint = _suggest_named(key, COST_FIELDS, _PROVISION_ALIASES)
            reason = f"unknown field '{key}'{hint}; allowed: {', '.join(COST_FIELDS)}"
            _attempt(errors, lambda key=key, reason=reason: entry.fail(key, reason))
    _gather(errors)
    cost = [entry.whole(name, COST_AMOUNT) if name in data else 0 for name in L.PROVISIONS]
    # The food slot holds all the food the card costs: no kind named, and the kinds named.
    cost[L.FOOD_PROVISION] += sum(kinds)
    action = entry.flag("action")
    if action and kind == L.ITEM:
        entry.fail("action", "an item already costs the action of the pirate it goes to")
    if not any(cost) and not action:
        table.fail("cost", "an empty cost: name provisions (1..30 each) or action = true")
    return (*cost, int(action), *kinds)


def _weapon(table: Table) -> Weapon:
    name = table.string("name")
    table.label = f"weapon '{name}'"
    errors: list[BalanceError] = []
    _attempt(errors, lambda: table.only(WEAPON_FIELDS))
    hits_on = _attempt(errors, lambda: table.whole("hits_on", HITS_ON))
    damage = _attempt(errors, lambda: table.whole("damage", WEAPON_DAMAGE))
    text = _attempt(errors, lambda: table.string("text", required=False)) or ""
    reach = _attempt(errors, lambda: table.choice("reach", L.REACHES, required=False))
    program = _attempt(errors, lambda: _program(table, "effect", "weapon.effect", "weapon"))
    _gather(errors)
    assert hits_on is not None and damage is not None and program is not None
    where = f"{table.source.shown}:{table.header}"
    reach = L.REACH_HERE if reach is None else reach
    return Weapon(name, hits_on, damage, text, where, reach, program)


def _pirate(table: Table) -> Pirate:
    name = table.string("name")
    table.label = f"pirate '{name}'"
    errors: list[BalanceError] = []
    _attempt(errors, lambda: table.only(PIRATE_FIELDS))
    mods = _attempt(errors, lambda: _modifiers(table, "modifier", "pirate.modifier"))
    triggers = _attempt(errors, lambda: _triggers(table, "pirate.trigger"))
    text = _attempt(errors, lambda: table.string("text", required=False)) or ""
    _gather(errors)
    assert mods is not None and triggers is not None
    return Pirate(name, mods, text, f"{table.source.shown}:{table.header}", triggers)


def _ship(table: Table) -> Ship:
    name = table.string("name")
    table.label = f"ship '{name}'"
    errors: list[BalanceError] = []
    _attempt(errors, lambda: table.only(SHIP_FIELDS))
    mods = _attempt(errors, lambda: _modifiers(table, "modifier", "ship.modifier"))

    def read_trigger() -> tuple[int, int]:
        trigger = table.choice("when", L.TRIGGERS, required=False) or L.NO_TRIGGER
        if trigger in SHIP_VALUES:
            return trigger, table.whole("value", SHIP_VALUES[trigger])
        if "value" in table.data:
            if trigger:
                table.fail("value", f"when = '{L.TRIGGERS[trigger]}' takes no 'value'")
            table.fail("value", "'value' needs a trigger: when = 'water_at_least'")
        return trigger, 0

    when = _attempt(errors, read_trigger)
    program = _attempt(errors, lambda: _program(table, "effect", "ship.effect", "ship"))
    if when is not None and program is not None:
        trigger = when[0]
        if trigger and not program:
            _attempt(
                errors,
                lambda: table.fail(
                    "when", "a trigger needs [[ship.effect]] tables: what happens when it fires"
                ),
            )
        if program and not trigger:
            _attempt(
                errors,
                lambda: table.fail(
                    "effect",
                    "ship effects need a trigger: when = "
                    + ", ".join(f"'{n}'" for n in L.TRIGGERS if n),
                ),
            )
    text = _attempt(errors, lambda: table.string("text", required=False)) or ""
    _gather(errors)
    assert mods is not None and when is not None and program is not None
    trigger, value = when
    return Ship(name, mods, trigger, value, program, text, f"{table.source.shown}:{table.header}")


def _deck_shape(table: Table, errors: list[BalanceError]) -> dict[str, Any]:
    """A deck's own fields, checked for form (names are checked against the library later);
    a field in error is None (its mistake in ``errors``)."""
    name = table.string("name")
    table.label = f"deck '{name}'"
    _attempt(errors, lambda: table.only(DECK_FIELDS))
    text = _attempt(errors, lambda: table.string("text", required=False)) or ""
    ship = _attempt(errors, lambda: table.string("ship"))
    for key in ("pirates", "cards", "provisions"):
        if key not in table.data:
            _attempt(errors, lambda key=key: table.fail(None, f"missing '{key}'"))
    return {"name": name, "ship": ship, "text": text}


def _unknown(library: _Defs, kind: str, name: str) -> bool:
    """Whether a deck's ``name`` of a ``kind`` is unknown and not yet reported: neither
    defined nor refused (a refused definition was reported where it is written), and every
    file of the library read (an unreadable include was reported too)."""
    known = name in library.of(kind) or name in library.broken.get(kind, set())
    return not known and not library.partial


def _deck_pirates(table: Table, library: _Defs, errors: list[BalanceError]) -> list[Any]:
    """The deck's 2 pirates with their weapons (each pirate's mistakes in ``errors``)."""
    raw = table.data["pirates"]
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        table.fail("pirates", "'pirates' must be a list of {name = ..., weapons = [..., ...]}")
    if len(raw) != L.PIRATES:
        table.fail("pirates", f"a deck has {L.PIRATES} pirates, not {len(raw)}")
    pirates: list[Any] = []

    def one(entry: Table) -> tuple[str, tuple[str, str]]:
        entry.only(DECK_PIRATE_FIELDS)
        who = entry.string("name")
        if _unknown(library, "pirate", who):
            entry.fail(
                "name",
                f"unknown pirate '{who}'{_suggest(who, library.pirates)}"
                f"; pirates: {', '.join(library.pirates) or 'none defined'}",
            )
        if any(who == p for p, _ in pirates):
            entry.fail(
                "name",
                f"'{who}' is already this deck's other pirate; a deck has 2 different pirates",
            )
        weapons = entry.data.get("weapons")
        if weapons is None:
            entry.fail(None, "missing 'weapons' (a list of 2 weapon names)")
        if not isinstance(weapons, list) or not all(isinstance(w, str) for w in weapons):
            entry.fail("weapons", "'weapons' must be a list of 2 weapon names")
        if len(weapons) != L.WEAPONS:
            entry.fail("weapons", f"a pirate has {L.WEAPONS} weapons, not {len(weapons)}")
        for weapon in weapons:
            if _unknown(library, "weapon", weapon):
                entry.fail(
                    "weapons",
                    f"unknown weapon '{weapon}'"
                    f"{_suggest(weapon, library.weapons)}"
                    f"; weapons: {', '.join(library.weapons) or 'none defined'}",
                )
        if weapons[0] == weapons[1]:
            entry.fail(
                "weapons", f"'{who}' has '{weapons[0]}' twice; a pirate has 2 different weapons"
            )
        return who, (weapons[0], weapons[1])

    for entry in table.items("pirates", f"{table.label}, pirate {{n}}"):
        pirate = _attempt(errors, lambda entry=entry: one(entry))
        if pirate is not None:
            pirates.append(pirate)
    return pirates


def _deck_cards(
    table: Table, library: _Defs, errors: list[BalanceError]
) -> tuple[list[Any], list[int]]:
    """The deck's (card, copies) lines (each line's mistakes in ``errors``), 20 in all,
    and the line each is on."""
    cards_table = table.child("cards", f"{table.label}, cards")
    if not isinstance(table.data["cards"], dict):
        table.fail("cards", "'cards' must be a table of \"card name\" = copies")
    cards: list[Any] = []
    lines: list[int] = []

    def one(card_name: str, copies: Any) -> tuple[str, int]:
        line = cards_table.line(card_name)
        lines.append(line)
        if _unknown(library, "card", card_name):
            cards_table.fail(
                None, f"unknown card '{card_name}'{_suggest(card_name, library.cards)}", line
            )
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            cards_table.fail(
                None,
                f"'{card_name}' = {_show(copies)}: copies must be a whole number of at least 1",
                line,
            )
        limit = library.cards[card_name].copies if card_name in library.cards else copies
        if copies > limit:
            # A legendary card is held to the rule legendary_copies as well as to its limit.
            legendary = card_name in library.cards and library.cards[card_name].type == L.LEGENDARY
            how = (
                f"set copies = {copies} on the card and play with --rule legendary_copies={copies}"
                if legendary
                else "set copies = N on the card to change it"
            )
            cards_table.fail(
                None,
                f"{copies} copies of '{card_name}', above its copy limit of {limit} ({how})",
                line,
            )
        return card_name, copies

    before = len(errors)
    for card_name, copies in cards_table.data.items():
        cards.append(_attempt(errors, lambda n=card_name, c=copies: one(n, c)))
    if len(errors) == before:  # the count means something only when every line is right
        total = sum(c for _, c in cards)
        if total != L.DECK_SIZE:
            table.fail(None, f"{total} cards; a deck has exactly {L.DECK_SIZE}", cards_table.header)
    return cards, lines


def _deck_provisions(table: Table, errors: list[BalanceError]) -> tuple[list[int], list[int], int]:
    """The deck's starting reserve, in ``layout.PROVISIONS`` order (the food slot holds all
    its food), its food by kind (``layout.FOOD_KINDS`` order) and the line of its table
    (mistakes in ``errors``).

    ``food = N`` is food of no named kind, dealt over the kinds one of each in turn
    (:func:`~.content.deal_food`); a kind named (``mangue = 2``) adds to its count."""
    prov_table = table.child("provisions", f"{table.label}, provisions")
    if not isinstance(table.data["provisions"], dict):
        table.fail("provisions", "'provisions' must be a table: planks = .., cannonballs = ..")
    counts = [0] * len(L.PROVISIONS)
    kinds = [0] * len(L.FOOD_KINDS)
    named: dict[int, str] = {}  # kind -> the key that named it
    span = Range(0, MAX_RESERVE, 0)

    def one(key: str) -> None:
        if key in L.PROVISIONS:
            counts[L.PROVISIONS.index(key)] = prov_table.whole(key, span)
            return
        kind = _food_kind(key)
        if kind is None:
            hint = _suggest_named(key, (*L.PROVISIONS, *L.FOOD_KINDS), _PROVISION_ALIASES)
            prov_table.fail(key, f"unknown provision '{key}'{hint}; one of: {_provision_names()}")
        if kind in named:
            prov_table.fail(key, f"'{key}' names {L.FOOD_KINDS[kind]} again ('{named[kind]}')")
        named[kind] = key
        kinds[kind] = prov_table.whole(key, span)

    before = len(errors)
    for key in prov_table.data:
        _attempt(errors, lambda key=key: one(key))
    dealt = deal_food(counts[L.FOOD_PROVISION])
    kinds = [a + b for a, b in zip(dealt, kinds, strict=True)]
    counts[L.FOOD_PROVISION] = sum(kinds)
    if len(errors) == before and sum(counts) > MAX_RESERVE:
        prov_table.fail(None, f"{sum(counts)} provisions; a reserve holds at most {MAX_RESERVE}")
    return counts, kinds, prov_table.header


def _deck(table: Table, library: _Defs) -> Deck:
    errors: list[BalanceError] = []
    shape = _deck_shape(table, errors)
    ship = shape["ship"]
    if ship is not None and _unknown(library, "ship", ship):
        _attempt(
            errors,
            lambda: table.fail(
                "ship",
                f"unknown ship '{ship}'{_suggest(ship, library.ships)}"
                f"; ships: {', '.join(library.ships) or 'none defined'}",
            ),
        )
    pirates = cards = provisions = None
    if "pirates" in table.data:
        pirates = _attempt(errors, lambda: _deck_pirates(table, library, errors))
    if "cards" in table.data:
        cards = _attempt(errors, lambda: _deck_cards(table, library, errors))
    if "provisions" in table.data:
        provisions = _attempt(errors, lambda: _deck_provisions(table, errors))
    _gather(errors)
    assert pirates is not None and cards is not None and provisions is not None
    where = f"{table.source.shown}:{table.header}"
    return Deck(
        shape["name"],
        ship,
        tuple(pirates),
        tuple(cards[0]),
        tuple(provisions[0]),
        shape["text"],
        where,
        table.source.shown,
        tuple(cards[1]),
        tuple(provisions[1]),
        provisions[2],
    )


@dataclass
class _Defs:
    """Definitions by kind, name -> definition (in order); ``broken``: by kind, the names
    of definitions refused for a mistake; ``partial``: an include could not be read."""

    cards: dict[str, Card] = field(default_factory=dict)
    weapons: dict[str, Weapon] = field(default_factory=dict)
    pirates: dict[str, Pirate] = field(default_factory=dict)
    ships: dict[str, Ship] = field(default_factory=dict)
    decks: dict[str, Deck] = field(default_factory=dict)
    broken: dict[str, set[str]] = field(default_factory=dict)
    partial: bool = False

    def of(self, kind: str) -> dict[str, Any]:
        return getattr(self, kind + "s")

    def merge(self, other: _Defs, problems: list[str]) -> None:
        """Add ``other``'s definitions; a name defined twice is a mistake in ``problems``."""
        for kind in KINDS:
            mine = self.of(kind)
            for name, thing in other.of(kind).items():
                if name in mine and mine[name].where != thing.where:
                    problems.append(_duplicate(kind, name, thing.where, mine[name].where))
                    continue
                mine[name] = thing
        for kind, names in other.broken.items():
            self.broken.setdefault(kind, set()).update(names)
        self.partial = self.partial or other.partial


def _duplicate(kind: str, name: str, where: str, first: str) -> str:
    return f"{where}: {kind} '{name}' is defined twice (first at {first})"


@dataclass
class _File:
    path: Path
    source: Source
    root: Table
    includes: list[Path]
    own: _Defs


class _Loader:
    """Reads files once each, follows includes, refuses cycles; every mistake of a file's
    content goes to ``problems`` and reading goes on."""

    def __init__(self) -> None:
        self.files: dict[Path, _File] = {}
        self.order: list[Path] = []
        self.problems: list[str] = []

    def _note(self, error: BalanceError) -> None:
        self.problems.extend(_lines_of(error))

    def load(self, path: Path, shown: str, stack: tuple[Path, ...] = ()) -> _File:
        """Read one file; raises only when the file itself cannot be read or parsed."""
        real = path.resolve()
        if real in stack:
            chain = " -> ".join(p.name for p in (*stack[stack.index(real) :], real))
            raise BalanceError(f"{shown}: include cycle: {chain}")
        if real in self.files:
            return self.files[real]
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise BalanceError(f"{shown}: no such file") from None
        except IsADirectoryError:
            raise BalanceError(f"{shown}: is a directory, not a TOML file") from None
        except OSError as error:
            raise BalanceError(f"{shown}: cannot read: {error.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            raise BalanceError(f"{shown}:{line}: not UTF-8 text (save the file as UTF-8)") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise BalanceError(_syntax(shown, str(error))) from None
        source = Source(real, shown, text)
        root = Table(
            source,
            data,
            "",
            1,
            1,
            source.headers[0] - 1 if source.headers else len(source.lines),
            (),
        )
        errors: list[BalanceError] = []
        _attempt(errors, lambda: root.only(ROOT_FIELDS))
        own = _Defs()
        includes = self._includes(root, path, shown, (*stack, real), own, errors)
        for key, reader in (
            ("card", _card),
            ("weapon", _weapon),
            ("pirate", _pirate),
            ("ship", _ship),
        ):
            before = len(errors)
            _attempt(errors, lambda key=key: root.tables(key, key))
            if len(errors) > before:
                continue
            for table in root.items(key, f"{key} {{n}}"):
                thing = _attempt(errors, lambda reader=reader, table=table: reader(table))
                if thing is None:
                    name = table.data.get("name")
                    if isinstance(name, str):
                        own.broken.setdefault(key, set()).add(name)
                    continue
                defs = own.of(key)
                if thing.name in defs:
                    errors.append(
                        BalanceError(
                            _duplicate(key, thing.name, thing.where, defs[thing.name].where)
                        )
                    )
                    continue
                defs[thing.name] = thing
        loaded = _File(real, source, root, includes, own)
        self.files[real] = loaded
        # Decks are checked against this file and everything it includes.
        merged: list[str] = []  # names defined twice across the includes
        library = self.defs(real, merged)
        before = len(errors)
        _attempt(errors, lambda: root.tables("deck", "deck"))
        if len(errors) == before:
            for table in root.items("deck", "deck {n}"):
                deck = _attempt(errors, lambda table=table: _deck(table, library))
                if deck is None:
                    continue
                for defined in (own.decks, library.decks):
                    if deck.name in defined:
                        first = defined[deck.name].where
                        errors.append(
                            BalanceError(_duplicate("deck", deck.name, deck.where, first))
                        )
                        break
                else:
                    own.decks[deck.name] = deck
        # In file order: the mistakes of other files first (an include that does not
        # parse, a name its includes define twice), then this file's by line.
        lines = merged + [line for error in errors for line in _lines_of(error)]
        self.problems.extend(_in_file_order(lines, shown))
        self.order.append(real)
        return loaded

    def _includes(
        self,
        root: Table,
        path: Path,
        shown: str,
        stack: tuple[Path, ...],
        own: _Defs,
        errors: list[BalanceError],
    ) -> list[Path]:
        """Load the files ``root`` includes; one that cannot be read is a mistake in
        ``errors`` and leaves ``own`` partial (its names are not reported unknown)."""
        value = root.data.get("include", [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            own.partial = True
            _attempt(
                errors,
                lambda: root.fail(
                    "include", "'include' must be a list of file paths: include = [\"cards.toml\"]"
                ),
            )
            return []
        out = []
        for index, name in enumerate(value, start=1):
            target = path.parent / name
            line = root.literal_line(name, "include")
            shown_target = os.path.normpath(os.path.join(os.path.dirname(shown), name))
            if not target.is_file():
                own.partial = True
                errors.append(
                    BalanceError(
                        f"{shown}:{line}: include {index}: no file '{name}' (looked for {target})"
                    )
                )
                continue
            if target.resolve() in stack:
                chain = " -> ".join(
                    p.name for p in (*stack[stack.index(target.resolve()) :], target.resolve())
                )
                own.partial = True
                errors.append(BalanceError(f"{shown}:{line}: include cycle: {chain}"))
                continue
            try:
                self.load(target, shown_target, stack)
            except BalanceError as error:
                own.partial = True
                errors.append(error)
                continue
            out.append(target.resolve())
        return out

    def closure(self, real: Path) -> list[Path]:
        """``real`` and every file it includes, includes first, each once."""
        out: list[Path] = []

        def visit(p: Path) -> None:
            if p in out:
                return
            for inc in self.files[p].includes:
                visit(inc)
            out.append(p)

        visit(real)
        return out

    def defs(self, real: Path, problems: list[str] | None = None) -> _Defs:
        """The definitions of ``real`` and its includes; a name defined twice goes to
        ``problems`` (None: already noted as the file was loaded)."""
        merged = _Defs()
        for p in self.closure(real):
            merged.merge(self.files[p].own, [] if problems is None else problems)
        return merged


def _line_in(line: str, shown: str) -> int | None:
    """The line number a ``FILE:LINE: ...`` mistake gives in file ``shown`` (0 for one
    about the whole file), or None when it is about another file."""
    if not line.startswith(f"{shown}:"):
        return None
    found = re.match(r"(\d+):", line[len(shown) + 1 :])
    return int(found.group(1)) if found else 0


def _in_file_order(lines: Sequence[str], shown: str) -> list[str]:
    """The mistakes found in reading file ``shown``, in file order: those about other
    files first (as found), then the file's own by line (those on one line as found)."""
    others = [line for line in lines if _line_in(line, shown) is None]
    own = [line for line in lines if _line_in(line, shown) is not None]
    return others + sorted(own, key=lambda line: _line_in(line, shown) or 0)


def _syntax(shown: str, message: str) -> str:
    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    if found:
        reason = message[: found.start()].strip()
        return f"{shown}:{found.group(1)}: TOML syntax error: {reason} (column {found.group(2)})"
    at_end = message.replace("(at end of document)", "").strip()
    return f"{shown}: TOML syntax error at the end of the file: {at_end}"


def _read(path: Path, shown: str) -> Library:
    loader = _Loader()
    loaded = loader.load(path, shown)
    defs = loader.defs(loaded.path)
    library = Library(
        path=loaded.path,
        shown=shown,
        cards=defs.cards,
        weapons=defs.weapons,
        pirates=defs.pirates,
        ships=defs.ships,
        decks=defs.decks,
        own_decks=tuple(loaded.own.decks),
        files=tuple(loader.closure(loaded.path)),
    )
    if loader.problems:
        raise FileMistakes(loader.problems, shown, partial=library)
    return library


# --- caching ------------------------------------------------------------------------------

_LIBRARIES: dict[tuple[Path, str], tuple[tuple[Any, ...], Library]] = {}
_CONTENTS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Content]] = {}


def _stamp(files: Iterable[Path]) -> tuple[Any, ...]:
    """Modification time and size of each file (None if it is gone)."""
    out = []
    for p in files:
        try:
            st = p.stat()
            out.append((p, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((p, None, None))
    return tuple(out)


def load_file(path: str | os.PathLike[str]) -> Library:
    """Every definition of a TOML file and of the files it includes, checked.

    Cached until one of the files changes (modification time or size). Raises
    :class:`FileMistakes` with every mistake found (its message is the first, one line
    ``FILE:LINE: what: reason``, with the count of the others), or a one-line
    :class:`BalanceError` when the file cannot be read or parsed.
    """
    shown = _shown(Path(path))
    key = (Path(path).resolve(), shown)
    cached = _LIBRARIES.get(key)
    if cached is not None and _stamp(f for f, _, _ in cached[0]) == cached[0]:
        return cached[1]
    library = _read(Path(path), shown)
    _LIBRARIES[key] = (_stamp(library.files), library)
    return library


def clear_cache() -> None:
    """Forget every loaded file and compiled matchup."""
    _LIBRARIES.clear()
    _CONTENTS.clear()


def _shown(path: Path) -> str:
    """How a file is named in messages: as given, or relative to the working directory."""
    if not path.is_absolute():
        return str(path)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --- deck references ----------------------------------------------------------------------


def example_decks() -> dict[str, Path]:
    """The example decks shipped with balance: name -> file."""
    out: dict[str, Path] = {}
    for path in sorted(EXAMPLES.glob("*.toml")):
        for name in load_file(path).own_decks:
            out[name] = path
    return out


def _resolve(reference: str) -> tuple[Path, str | None]:
    """A deck reference as (file, deck name or None for "the file's only deck")."""
    text = reference.strip()
    if ".toml:" in text:
        file, _, name = text.rpartition(".toml:")
        return Path(file + ".toml"), name.strip()
    path = Path(text)
    if path.suffix == ".toml" or os.sep in text or "/" in text:
        if not path.is_file():
            raise BalanceError(f"deck {reference!r}: no such file")
        return path, None
    examples = example_decks()
    if text in examples:
        return examples[text], text
    if path.is_file():
        return path, None
    raise BalanceError(
        f"deck {reference!r}: no example deck of that name{_suggest(text, examples)} and no such "
        f"file; example decks: {', '.join(examples)}"
    )


def load_deck(reference: str) -> tuple[Deck, Library]:
    """The deck a reference names: an example deck's name, a TOML file holding one
    ``[[deck]]``, or ``FILE.toml:DECK NAME``."""
    path, name = _resolve(reference)
    if not path.is_file():
        raise BalanceError(f"deck {reference!r}: no such file {path}")
    library = load_file(path)
    if name is None:
        own = library.own_decks
        if len(own) != 1:
            decks = f" ({', '.join(own)})" if own else ""
            raise BalanceError(
                f"{library.shown}: holds {len(own)} decks{decks}; a deck file holds exactly one "
                f"[[deck]], or name one: {library.shown}:DECK NAME"
            )
        name = own[0]
    if name not in library.decks:
        raise BalanceError(
            f"{library.shown}: no deck '{name}'{_suggest(name, library.decks)}; decks: "
            f"{', '.join(library.decks) or 'none'}"
        )
    return library.decks[name], library


def deck_content(reference: str) -> Content:
    """One deck compiled, playing against itself (the same deck in both seats)."""
    return matchup_content((reference, reference), ())


def matchup_content(decks: Sequence[str], blanks: Sequence[tuple[int, str]] = ()) -> Content:
    """Two decks (seat 0's first) compiled for the engines, with ``blanks``: (seat, card)
    pairs whose every copy in that seat's deck becomes the blank card.

    Card ids are the cards of both decks in order of first appearance (seat 0's deck
    first), after card 0, the blank card. Cached until a file involved changes.
    """
    if len(decks) != L.PLAYERS:
        raise BalanceError(f"a matchup needs {L.PLAYERS} decks, {len(decks)} given")
    resolved = tuple(_resolve(r) for r in decks)
    key = (tuple((p.resolve(), n) for p, n in resolved), tuple(decks), tuple(blanks))
    cached = _CONTENTS.get(key)
    if cached is not None and _stamp(f for f, _, _ in cached[0]) == cached[0]:
        return cached[1]
    seats = [load_deck(r) for r in decks]
    content = _compile(seats, tuple(decks))
    for seat, card in blanks:
        content = _blank(content, seats, seat, card)
    files = {f: None for _, library in seats for f in library.files}
    _CONTENTS[key] = (_stamp(files), content)
    return content


def _compile(seats: Sequence[tuple[Deck, Library]], sources: tuple[str, ...]) -> Content:
    chosen: dict[str, Card] = {}
    for deck, library in seats:
        for name, _ in deck.cards:
            card = library.cards[name]
            if name in chosen and chosen[name] != card:
                raise BalanceError(
                    f"card '{name}' is defined differently at {chosen[name].where} and "
                    f"{card.where}; the two decks must agree on a card or use another name"
                )
            chosen.setdefault(name, card)
    cards = [
        {
            "name": c.name,
            "type": c.type,
            "sin": c.sin,
            "flags": c.flags,
            "program": c.program,
            "mods": c.mods,
            "cost": c.cost,
            "triggers": c.triggers,
        }
        for c in chosen.values()
    ]
    weapons = []
    weapon_programs = []
    pirate_mods = []
    pirate_triggers = []
    ship_mods = []
    triggers = []
    ship_programs = []
    for deck, library in seats:
        arms_of = [[library.weapons[w] for w in arms] for _, arms in deck.pirates]
        weapons.append([[[w.hits_on, w.damage, w.reach] for w in arms] for arms in arms_of])
        weapon_programs.append([[w.program for w in arms] for arms in arms_of])
        pirate_mods.append([library.pirates[p].mods for p, _ in deck.pirates])
        pirate_triggers.append([library.pirates[p].triggers for p, _ in deck.pirates])
        ship = library.ships[deck.ship]
        ship_mods.append(ship.mods)
        triggers.append((ship.trigger, ship.value))
        ship_programs.append(ship.program)
    return make_content(
        cards,
        [deck.card_list() for deck, _ in seats],
        provisions=[deck.provisions for deck, _ in seats],
        food_kinds=[deck.food_kinds for deck, _ in seats],
        weapons=weapons,
        weapon_programs=weapon_programs,
        pirate_mods=pirate_mods,
        pirate_triggers=pirate_triggers,
        ship_mods=ship_mods,
        ship_trigger=triggers,
        ship_program=ship_programs,
        deck_names=(seats[0][0].name, seats[1][0].name),
        ship_names=(seats[0][0].ship, seats[1][0].ship),
        pirate_names=tuple(tuple(p for p, _ in deck.pirates) for deck, _ in seats),
        weapon_names=tuple(tuple(arms for _, arms in deck.pirates) for deck, _ in seats),
        sources=sources,
    )


def _blank(
    content: Content, seats: Sequence[tuple[Deck, Library]], seat: int, card: str
) -> Content:
    if seat not in (0, 1):
        raise BalanceError(f"blank {seat}:{card}: the seat is 0 or 1")
    deck = seats[seat][0]
    if card not in dict(deck.cards):
        known = [name for name, _ in deck.cards]
        if card in content.names[1:] or card in seats[seat][1].cards:
            reason = f"seat {seat}'s deck '{deck.name}' has no card '{card}'"
        else:
            reason = f"no card '{card}'{_suggest(card, known)}"
        raise BalanceError(f"blank {seat}:{card}: {reason}; its cards: {', '.join(known)}")
    return blanked(content, seat, card)


# --- checking files for the CLI -----------------------------------------------------------


def _file_of(reference: str) -> Path:
    """A file to check: a path, or an example deck's name."""
    path = Path(reference)
    if path.is_file() or path.suffix == ".toml" or "/" in reference or os.sep in reference:
        return path
    examples = example_decks()
    if reference in examples:
        return examples[reference]
    raise BalanceError(
        f"{reference}: no such file, nor an example deck{_suggest(reference, examples)}; "
        f"example decks: {', '.join(examples)}"
    )


def _summary(library: Library) -> list[str]:
    if not library.own_decks:
        counts = [
            _many(len(library.cards), "card"),
            _many(len(library.pirates), "pirate"),
            _many(len(library.weapons), "weapon"),
            _many(len(library.ships), "ship"),
        ]
        decks = f"{_many(len(library.decks), 'deck')} (included)" if library.decks else "no decks"
        return [f"{library.shown}: {', '.join(counts)}, {decks}, ok"]
    lines = []
    for name in library.own_decks:
        deck = library.decks[name]
        total = sum(c for _, c in deck.cards)
        lines.append(
            f"{name} ({library.shown}): {total} cards, {len(deck.cards)} distinct, "
            f"{sum(deck.provisions)} provisions, ok"
        )
    return lines


def _many(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def check_each(
    references: Sequence[str],
    legendary_copies: int = L.LEGENDARY_COPIES,
    reserve_size: int = L.RESERVE_SIZE,
) -> list[tuple[bool, str]]:
    """Check every file (or example deck name): (True, a line per deck) for a good file,
    (False, a line per mistake) for a bad one. Never raises for a bad file.

    A deck is held to the rules ``legendary_copies`` and ``reserve_size`` (their
    defaults unless given) as ``simulate`` holds it."""
    rules = (legendary_copies, reserve_size)
    out: list[tuple[bool, str]] = []
    for reference in references:
        try:
            library = load_file(_file_of(reference))
        except BalanceError as error:
            lines = _lines_of(error)
            partial = getattr(error, "partial", None)
            if partial is not None:  # the decks read without a mistake, held to the rules
                lines = _in_file_order(lines + _rule_mistakes(partial, rules), partial.shown)
            out.extend((False, line) for line in lines)
            continue
        mistakes = _rule_mistakes(library, rules)
        out.extend((False, line) for line in mistakes)
        if not mistakes:
            out.extend((True, line) for line in _summary(library))
    return out


def _rule_mistakes(library: Library, rules: tuple[int, int]) -> list[str]:
    """A FILE:LINE line, in file order, for each deck of the file (read without a mistake)
    that ``simulate`` would refuse under ``rules``: more copies of a legendary card
    than the rule ``legendary_copies`` allows, a starting reserve of other than
    ``reserve_size`` provisions. The same reasons as ``simulate`` gives, at the deck's
    card line or provisions table. ``rules``: ``legendary_copies`` and ``reserve_size``."""
    limit, size = rules
    found: list[tuple[int, str]] = []
    for name in library.own_decks:
        deck = library.decks[name]
        for (card, copies), line in zip(deck.cards, deck.card_lines, strict=True):
            legendary = card in library.cards and library.cards[card].type == L.LEGENDARY
            if legendary and copies > limit:
                reason = legendary_reason(copies, card, limit)
                found.append((line, f"{deck.file}:{line}: deck '{name}', cards: {reason}"))
        total = sum(deck.provisions)
        if total != size:
            line = deck.provisions_line
            reason = reserve_reason(total, size)
            found.append((line, f"{deck.file}:{line}: deck '{name}', provisions: {reason}"))
    return [text for _, text in sorted(found, key=lambda pair: pair[0])]


def legendary_reason(copies: int, card: str, limit: int) -> str:
    """Why a deck holding ``copies`` of the legendary ``card`` is refused (``simulate`` and
    ``balance deck check`` say the same)."""
    return (
        f"{copies} copies of the legendary card '{card}'; the rule legendary_copies allows "
        f"{limit} (to play it: --rule legendary_copies={copies})"
    )


def reserve_reason(total: int, size: int) -> str:
    """Why a deck whose starting reserve holds ``total`` provisions is refused under the
    rule ``reserve_size`` = ``size`` (``simulate`` and ``balance deck check`` say the
    same)."""
    return (
        f"{total} provisions; the rule reserve_size asks exactly {size} in a starting reserve "
        f"(to play it: --rule reserve_size={total})"
    )


def check_exit_code(references: Sequence[str], results: Sequence[tuple[bool, str]]) -> int:
    """``balance deck check``'s exit code: 2 (bad input) when a reference is neither a
    file nor an example deck's name, else 1 when a file is bad (``results`` of
    :func:`check_each`), else 0."""
    for reference in references:
        try:
            path = _file_of(reference)
        except BalanceError:
            return 2
        if not path.is_file():
            return 2
    return 0 if all(ok for ok, _ in results) else 1


def check_files(references: Sequence[str]) -> list[str]:
    """A line per deck of each file (or example deck name), e.g.
    ``cannon-battery (…/cannon-battery.toml): 20 cards, 12 distinct, 30 provisions, ok``;
    raises the first file's error."""
    lines = []
    for reference in references:
        lines.extend(_summary(load_file(_file_of(reference))))
    return lines


def example_list() -> list[tuple[str, str, str]]:
    """The example decks: (name, file as shown, the deck's text)."""
    out = []
    for name, path in example_decks().items():
        library = load_file(path)
        out.append((name, library.shown, library.decks[name].text))
    return out
