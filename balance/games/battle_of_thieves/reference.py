"""Battle of Thieves in plain Python: the readable reference engine.

This module is written to be read by a designer checking a rule against
``docs/battle-of-thieves.md``. It plays exactly the games of the compiled engine
(:mod:`balance.games.battle_of_thieves.engine_nb`): for the same seed and game index both
draw the same random numbers in the same order and produce the same record. Every rule
decision is stated on that page ("Decisions the rules page leaves open").

How a game goes:

* :func:`set_up` deals; then game turn 1 is seat 0's, turn 2 seat 1's, and so on.
* :func:`start_turn` plays the start of a turn (water, the ship's trigger, poison and
  regeneration, timed effects, death markers, the draw or the Red Sea, revivals, actions,
  then the turn_start abilities of the player's pirates, animals and items).
* :func:`legal_options` lists what the player may do, in the canonical order;
  :func:`apply_option` does one of them. The player picks until it ends its turn.
* :func:`end_turn` ends it (a cursed ball not fired, burns, the turn cap).
* Card programs go through :func:`apply_program`.

A loss ends the game at once, wherever it happens: every step below returns as soon as
``pos.over`` is set, so nothing after the loss is applied.

Random numbers: stream 0 and 1 shuffle the seats' decks, stream 2 is the dice (every d6,
the random discard, the incendiary ball's victim), stream ``3 + seat`` the seat's strategy.

Smaller decisions, also listed on ``docs/battle-of-thieves.md``:

* **Chosen targets belong to a side.** A program row aimed at a chosen own pirate
  (``OWN_PIRATE``, ``OWN_PIRATE_HERE``) only touches the chosen pirate if it is the acting
  player's; a row aimed at a chosen enemy pirate only if it is the enemy's. (A food card
  passes its own wounded pirate as the choice: its enemy rows touch nobody.)
* **Never negative.** Bailing removes ``min(water, max(0, bail + modifiers))``; an island
  visit with a negative take takes nothing; GAIN and STEAL move ``max(0, ...)``.
* **Timed statuses need a time.** A timed status applied with ``TURNS < 1`` has no effect.
* **Ship cards** (card type ``SHIP``) in a hand are never playable, like the blank card.
* **Island cards at a visit** are applied while they are in play: if one of them clears
  the island, the cards after it are not applied.
* **Scripted dice** hold results: a d6 takes the next value as its face (1..6), a
  ``below(n)`` draw takes it as its value (0..n-1).
* **An activated item's action** is spent before its program runs (an EXTRA_ACTION on the
  holder then gives it a fresh one); a single-use item is discarded after its program.
* **The turn cap** ends the game at the end of any turn ``t >= turn_cap``.
* **One hit on a pirate** (:func:`attack`): the damage, the weapon's effects, the
  attacker's ``hits`` abilities (these two even if the damage killed it), then the
  victim's ``hit`` abilities if it lives. ``attacker``, ``boarder`` and ``hit_pirate``
  touch their pirate only while it lives.
* **A card whose conditions are all false** (every effect of an event, special or
  legendary card, or of an item's activation, has an ``if`` that does not hold) is not
  offered: it would change nothing (:func:`offered`).
* **Damage dealt** (the record) counts the life lost by the enemy's pirates during the
  player's turn from every source: attacks, card damage, burns and poison.
* **Food kinds** (decision 23): food spent without a named kind is of the kind held most,
  food gained without one of the kind furthest below its starting count (ties: the first
  in ``FOOD_KINDS`` order); a steal moves each food as its kind; a cost pays the kinds
  it names first. The FOOD provision is always the sum of ``Side.food_kinds``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from balance.core.random_ref import Stream
from balance.games.battle_of_thieves.content import Content
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ACTIVATE,
    ALL_SINS,
    AMMO,
    AMMO_CANNONBALL,
    AMMO_CHAOS,
    AMMO_CURSED,
    AMMO_INCENDIARY,
    ANCHOR_DOWN,
    ANIMAL,
    ATTACK,
    ATTACK_ANIMAL,
    ATTACK_ITEM,
    ATTACK_PIRATE,
    ATTACK_ROLL,
    ATTACKER,
    BAIL,
    BAIL_WATER,
    BLANK,
    BOARDER,
    BURN,
    BY_SIN,
    BY_WATER,
    CANNON_MODIFIER,
    CANNON_ROLL,
    CANNONBALL,
    CAPPED,
    CARD_STAT,
    CARD_TYPES,
    CHAOS_BALL,
    CLEAR_ISLAND,
    COST_ACTION,
    COST_FOOD_KINDS,
    CURE,
    CURSED_BALL,
    DAMAGE,
    DEAD,
    DECK_SIZE,
    DISARMED,
    DISCARD,
    DISCARD_DECK,
    DRAW,
    DRUNK,
    EAT,
    EFFECT,
    END_TURN,
    ENEMY,
    ENEMY_ANCHOR_DOWN,
    ENEMY_HOLES_AT_LEAST,
    ENEMY_MAST_BROKEN,
    ENEMY_PIRATE,
    ENEMY_PIRATE_DEAD,
    ENEMY_PIRATE_HERE,
    ENEMY_RED_SEA,
    ENEMY_SHIP,
    ENEMY_WATER_AT_LEAST,
    EVENT,
    EXTRA_ACTION,
    FIRE,
    FOOD,
    FOOD_KIND_ARG,
    FOOD_KINDS,
    FOOD_PROVISION,
    GAIN,
    GAME_STAT,
    GAME_TURNS,
    HEAL,
    HIT_PIRATE,
    HOLE,
    IF_HIT,
    IF_LOST,
    IF_WON,
    IMMOBILISED,
    INCENDIARY_BALL,
    INSULT,
    ISLAND,
    ISLAND_CARD,
    ISLAND_TAKE,
    ITEM,
    LEGENDARY,
    LOSE,
    MAST_BROKEN,
    MAX_CANNON_MODS,
    MAX_LIFE,
    MAX_TRIGGERS,
    MOVE,
    MOVE_TO,
    NO_BUCKET,
    NO_CANNON,
    NO_CONDITION,
    NO_REPAIR,
    NO_STATUS,
    NO_TRIGGER,
    ON_BOARDED,
    ON_HIT,
    ON_HITS,
    ON_TURN_START,
    OWN,
    OWN_ANCHOR_DOWN,
    OWN_HOLES_AT_LEAST,
    OWN_MAST_BROKEN,
    OWN_PIRATE,
    OWN_PIRATE_BOARDING,
    OWN_PIRATE_DEAD,
    OWN_PIRATE_HERE,
    OWN_PIRATE_ON_ISLAND,
    OWN_RED_SEA,
    OWN_SHIP,
    OWN_TURNS,
    OWN_WATER_AT_LEAST,
    PACIFY_CANNONS,
    PIRATES,
    PIRATES_ENEMY_SHIP,
    PIRATES_ISLAND,
    PIRATES_OWN_SHIP,
    PLANK,
    PLAY,
    PLAYERS,
    POISON,
    PROVISIONS,
    RAISE_ANCHOR,
    RANDOM_ENEMY_PIRATE,
    REACH_ANY,
    REACH_SHIP,
    REPAIR,
    REPAIR_HOLE,
    REPAIR_MAST,
    REUSABLE,
    REVIVE,
    SEAT_STAT,
    SELF,
    SHIP,
    SINS,
    SPECIAL,
    STATUS,
    STATUS_SLOTS,
    STATUSES,
    STEAL,
    STRIKES_STEP,
    STRIP,
    TAKE,
    TARGETABLE,
    TO_ENEMY_SHIP,
    TO_ISLAND,
    TO_OWN_SHIP,
    TRIGGER_EVENTS,
    TRIGGERS,
    VISIT,
    VISITOR,
    WATER,
    WATER_AT_LEAST,
    WEAPON,
    WEAPON_DAMAGE,
    WEAPONS,
    WIN_REASONS,
)
from balance.games.battle_of_thieves.rules import BattleRules

Narrator = Callable[[str], None]
Option = tuple[int, int, int, int]  # kind, who, what, target (unused fields -1)
Row = Sequence[int]  # one effect: op, target, amount, turns, arg, on

#: What fires with each ammunition (FIRE's ``what``), and the provision it spends.
AMMO_PROVISION = {AMMO_CANNONBALL: CANNONBALL, AMMO_INCENDIARY: INCENDIARY_BALL}
AMMO_CHAOS_PROVISION = CHAOS_BALL

#: Statuses that fire by turn number instead of counting turns down.
TURN_STAMPED = (BURN, POISON)

#: Statuses in words, for the narration.
STATUS_WORDS = (
    "",
    "burning",
    "immobilised",
    "drunk",
    "poisoned",
    "disarmed",
    "kept from the cannons",
    "kept from repairs",
    "without a bucket",
)
assert len(STATUS_WORDS) == len(STATUSES)

# Insult battle results of one program run.
NO_INSULT, INSULT_WON, INSULT_LOST = 0, 1, 2


def _quiet(_: str) -> None:
    pass


# ---------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------


def _empty_slots() -> list[list[int]]:
    return [[NO_STATUS, 0] for _ in range(STATUS_SLOTS)]


@dataclass
class Pirate:
    """One pirate. ``zone``: 0/1 a ship (by seat), 2 the island, -1 dead.

    ``statuses`` holds two slots ``[kind, value]`` (``[0, 0]`` is empty): the value is the
    turns left for a timed status; for BURN and POISON, the game turn it was applied in
    plus ``STRIKES_STEP`` times the strikes after the first (:func:`stamp`).
    ``markers`` counts the death markers turned back (a dead pirate revives at 2);
    ``regen`` is set by a food card and heals 1 at the start of the owner's next turn.
    ``ashore``: the pirate has been on the island since the start of its owner's turn, so
    it may spend an action to visit the island again.
    """

    life: int = MAX_LIFE
    zone: int = 0
    markers: int = 0
    actions: int = 0
    statuses: list[list[int]] = field(default_factory=_empty_slots)
    animal: int = -1  # card id, -1 none
    item: int = -1
    regen: bool = False
    ashore: bool = False

    @property
    def alive(self) -> bool:
        return self.zone != DEAD

    def has(self, kind: int) -> bool:
        """Whether the pirate has status ``kind``."""
        return any(slot[0] == kind for slot in self.statuses)


@dataclass
class Side:
    """One seat's ship, reserve, cards and pirates.

    Ship states: ``anchor`` and ``mast`` are -1 (up / intact), 0 (down / broken with no
    time limit) or the turns left; ``pacified`` and ``stripped`` are turns left (0: not).
    ``chaos_turn`` is the game turn this seat's cannon rolls suffer the chaos penalty, and
    ``chaos_count`` the chaos balls the enemy fired for it (the rule ``chaos_stack``).
    ``cannon_mods`` are timed modifiers ``[amount, turns left]`` in the order added.
    ``loaded`` is the cursed ball card loaded this turn (-1 none). ``sins`` is the bit mask
    of the sins in the discard pile; ``triggered`` whether the ship's trigger has fired.
    ``provisions`` is the reserve in ``PROVISIONS`` order; ``food_kinds`` its food by kind
    (``FOOD_KINDS`` order), which sums to ``provisions[FOOD_PROVISION]``.
    """

    water: int = 0
    intact: int = 5
    holes: int = 0
    anchor: int = -1
    mast: int = -1
    pacified: int = 0
    stripped: int = 0
    chaos_turn: int = 0
    chaos_count: int = 0
    cannon_mods: list[list[int]] = field(default_factory=list)
    loaded: int = -1
    special_used: int = 0  # this turn
    legendary_used: int = 0  # this game
    sins: int = 0
    triggered: bool = False
    provisions: list[int] = field(default_factory=lambda: [0] * len(PROVISIONS))
    food_kinds: list[int] = field(default_factory=lambda: [0] * len(FOOD_KINDS))
    deck: list[int] = field(default_factory=list)  # shuffled, all 20; index 0 the top
    deck_pos: int = 0  # the next card drawn is deck[deck_pos]
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    pirates: list[Pirate] = field(default_factory=list)


@dataclass
class Position:
    """A game of Battle of Thieves in progress, with its running records.

    ``island`` lists the island cards in play as ``(card, owner)`` in the order played.
    ``taking`` counts the provisions the island visit under way has still to take back:
    while it is above 0 the player's only options are the kinds it may take; ``visitor``
    is then its pirate, the island cards' ``visitor`` once the last one is taken.
    ``seat_stats[s]`` is a ``SeatStat`` row, ``card_stats[s][r]`` a ``CardStat`` row for
    row ``r`` of seat ``s``'s deck (``content.deck_cards``).
    """

    rules: BattleRules
    content: Content
    turn: int = 1
    shots: int = 0  # shots fired this turn (any ammunition)
    taking: int = 0  # provisions still to take back in the visit under way
    visitor: int = -1  # the pirate (code) of the visit under way, -1 for none
    sides: list[Side] = field(default_factory=list)
    island: list[tuple[int, int]] = field(default_factory=list)
    over: bool = False
    winner: int = -1
    reason: int = CAPPED
    seat_stats: list[list[int]] = field(
        default_factory=lambda: [[0] * SEAT_STAT.SIZE for _ in range(PLAYERS)]
    )
    card_stats: list[list[list[int]]] = field(
        default_factory=lambda: [
            [[0] * CARD_STAT.SIZE for _ in range(DECK_SIZE)] for _ in range(PLAYERS)
        ]
    )

    @property
    def player(self) -> int:
        """The seat whose turn it is."""
        return (self.turn - 1) % 2

    def pirate(self, code: int) -> Pirate:
        """Pirate ``seat * 2 + index``."""
        return self.sides[code // PIRATES].pirates[code % PIRATES]

    def copy(self) -> Position:
        """A deep copy sharing only the (read-only) rules and content."""
        memo = {id(self.rules): self.rules, id(self.content): self.content}
        return copy.deepcopy(self, memo)


def new_side(rules: BattleRules, content: Content, seat: int) -> Side:
    """A side as it is before the deal: nothing drawn, the deck in file order."""
    return Side(
        intact=rules.hole_tokens,
        provisions=[int(v) for v in content.provisions[seat]],
        food_kinds=[int(v) for v in content.food_kinds[seat]],
        deck=[int(c) for c in content.deck[seat]],
        pirates=[Pirate(zone=seat) for _ in range(PIRATES)],
    )


# ---------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------


class ScriptError(AssertionError):
    """Scripted dice or a scripted player ran out of answers, or an answer does not fit."""


class IllegalChoice(Exception):
    """An option that is not legal in the position, or a player's answer out of range."""


class Dice:
    """The dice stream (stream 2), or a script of results for tests.

    ``Dice(script=[5, 1])``: the next d6 rolls 5, the one after is 1. A script holds
    *results*: a d6 takes its face (1..6), ``below(n)`` its value (0..n-1). With a script
    the stream is never used; ``used`` counts the results taken.
    """

    def __init__(self, stream: Stream | None = None, script: Sequence[int] | None = None):
        if stream is None and script is None:
            raise ValueError("Dice needs a stream or a script")
        self.stream = stream
        self.script = None if script is None else [int(v) for v in script]
        self.used = 0

    def _scripted(self, low: int, high: int, what: str) -> int:
        assert self.script is not None
        if self.used >= len(self.script):
            raise ScriptError(f"{what} asked after the {len(self.script)} scripted results")
        value = self.script[self.used]
        if not low <= value <= high:
            raise ScriptError(f"scripted result {value} does not fit {what}")
        self.used += 1
        return value

    def d6(self) -> int:
        """A die roll, 1..6."""
        if self.script is not None:
            return self._scripted(1, 6, "a d6")
        assert self.stream is not None
        return self.stream.below(6) + 1

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if self.script is not None:
            return self._scripted(0, n - 1, f"below({n})")
        assert self.stream is not None
        return self.stream.below(n)

    @property
    def left(self) -> int:
        """Scripted results not used yet (0 for a stream)."""
        return 0 if self.script is None else len(self.script) - self.used


# ---------------------------------------------------------------------------
# Words for the narration
# ---------------------------------------------------------------------------


def pirate_name(pos: Position, code: int) -> str:
    return pos.content.pirate_names[code // PIRATES][code % PIRATES]


def card_name(pos: Position, card: int) -> str:
    return pos.content.names[card]


#: One provision of each kind, in PROVISIONS order, as a narration says it.
PROVISION_NAMES = ("plank", "cannonball", "food", "chaos ball", "incendiary ball")


def zone_name(zone: int) -> str:
    if zone == DEAD:
        return "the dead"
    if zone == ISLAND:
        return "the island"
    return f"seat {zone}'s ship"


def option_text(pos: Position, option: Option) -> str:
    """An option in words, e.g. ``Anne fires a cannonball``."""
    kind, who, what, target = option
    p = pos.player
    name = pirate_name(pos, p * PIRATES + who) if who >= 0 else f"seat {p}"
    if kind == MOVE_TO:
        return f"{name} moves to {zone_name(what)}"
    if kind == BAIL_WATER:
        return f"{name} bails"
    if kind == REPAIR_HOLE:
        return f"{name} repairs a hole"
    if kind == REPAIR_MAST:
        return f"{name} repairs the mast"
    if kind == RAISE_ANCHOR:
        return f"{name} raises the anchor"
    if kind == FIRE:
        article = "an" if AMMO[what][0] in "aeiou" else "a"
        return f"{name} fires {article} {AMMO[what]}"
    if kind == ATTACK:
        weapon = pos.content.weapon_names[p][who][what]
        enemy = (1 - p) * PIRATES + target % PIRATES
        victim = pirate_name(pos, enemy)
        if target >= ATTACK_ITEM:
            victim = f"{victim}'s {card_name(pos, pos.pirate(enemy).item)}"
        elif target >= ATTACK_ANIMAL:
            victim = f"{victim}'s {card_name(pos, pos.pirate(enemy).animal)}"
        return f"{name} attacks {victim} with {weapon}"
    if kind == VISIT:
        return f"{name} visits the island again"
    if kind == TAKE:
        return f"seat {p} takes back one {PROVISION_NAMES[what]}"
    if kind == ACTIVATE:
        item = card_name(pos, pos.sides[p].pirates[who].item)
        on = f" on {pirate_name(pos, target)}" if target >= 0 else ""
        return f"{name} activates {item}{on}"
    if kind == EAT:
        return f"seat {p} feeds {pirate_name(pos, target)} a food provision"
    if kind == PLAY:
        on = f" on {pirate_name(pos, target)}" if target >= 0 else ""
        return f"seat {p} plays {card_name(pos, what)}{on}"
    return f"seat {p} ends the turn"


# ---------------------------------------------------------------------------
# Records and the end of the game
# ---------------------------------------------------------------------------


def count(pos: Position, seat: int, stat: int, amount: int = 1) -> None:
    """Add ``amount`` to ``seat``'s record ``stat`` (a ``SeatStat`` slot)."""
    pos.seat_stats[seat][stat] += amount


def card_row(pos: Position, seat: int, card: int) -> int:
    """The per-card record row of ``card`` in ``seat``'s deck, -1 if none (blank cards)."""
    for r, c in enumerate(pos.content.deck_cards[seat]):
        if c == card:
            return r
    return -1


def count_card(pos: Position, seat: int, card: int, stat: int) -> None:
    """Add 1 to ``card``'s record ``stat`` (a ``CardStat`` slot) if it has a row."""
    r = card_row(pos, seat, card)
    if r >= 0:
        pos.card_stats[seat][r][stat] += 1


def lose(pos: Position, seat: int, reason: int, say: Narrator = _quiet) -> None:
    """``seat`` loses: the game is over at once (the other seat wins)."""
    pos.over = True
    pos.winner = 1 - seat
    pos.reason = reason
    say(f"  seat {seat} loses ({WIN_REASONS[reason]}): seat {1 - seat} wins")


def check_sinking(pos: Position, seat: int, say: Narrator = _quiet) -> None:
    """A ship with water at ``sink_water`` or more sinks: its seat loses."""
    if pos.sides[seat].water >= pos.rules.sink_water:
        say(f"  seat {seat}'s ship fills with water ({pos.sides[seat].water}) and sinks")
        lose(pos, seat, BY_WATER, say)


# ---------------------------------------------------------------------------
# Rules used everywhere: holes, damage, statuses, cards leaving play, modifiers
# ---------------------------------------------------------------------------


def take_hole(pos: Position, seat: int, acting: int, say: Narrator = _quiet) -> None:
    """``seat``'s ship takes a hole; ``acting`` is the player the hole is made for.

    With no intact token left the ship lets in ``water_per_hole`` instead (and may sink).
    A hole in the enemy's ship counts as made by ``acting``.
    """
    side = pos.sides[seat]
    if side.intact >= 1:
        side.intact -= 1
        side.holes += 1
        count(pos, seat, SEAT_STAT.HOLES_TAKEN)
        if seat != acting:
            count(pos, acting, SEAT_STAT.HOLES_MADE)
        say(f"  seat {seat}'s ship takes a hole ({side.holes} now)")
    else:
        side.water += pos.rules.water_per_hole
        say(f"  seat {seat}'s ship has no intact hole token left: water rises to {side.water}")
        check_sinking(pos, seat, say)


def repair_hole(pos: Position, seat: int) -> None:
    """A hole of ``seat``'s ship back to an intact token."""
    side = pos.sides[seat]
    side.holes -= 1
    side.intact += 1
    count(pos, seat, SEAT_STAT.HOLES_REPAIRED)


def kill(pos: Position, code: int, say: Narrator = _quiet) -> None:
    """Pirate ``code`` dies: off the board, statuses, actions and markers cleared.

    Its animal and item stay attached but do nothing until it revives.
    """
    pirate = pos.pirate(code)
    pirate.life = 0
    pirate.zone = DEAD
    pirate.statuses = _empty_slots()
    pirate.actions = 0
    pirate.markers = 0
    pirate.regen = False
    pirate.ashore = False
    count(pos, code // PIRATES, SEAT_STAT.DEATHS)
    say(f"  {pirate_name(pos, code)} dies")


def deal_damage(pos: Position, code: int, amount: int, say: Narrator = _quiet) -> None:
    """Pirate ``code`` loses ``amount`` life (not below 0) and dies at 0.

    Life lost by a pirate of the seat whose turn it is *not* counts as damage dealt by the
    player (from any source: attacks, cards, burns, poison).
    """
    pirate = pos.pirate(code)
    if not pirate.alive or amount <= 0:
        return
    lost = min(amount, pirate.life)
    pirate.life -= lost
    if code // PIRATES != pos.player:
        count(pos, pos.player, SEAT_STAT.DAMAGE_DEALT, lost)
    say(f"  {pirate_name(pos, code)} loses {lost} life ({pirate.life} left)")
    if pirate.life == 0:
        kill(pos, code, say)


def heal(pos: Position, code: int, amount: int, say: Narrator = _quiet) -> None:
    """A living pirate regains ``amount`` life, up to the maximum (2)."""
    pirate = pos.pirate(code)
    if pirate.alive and amount > 0:
        pirate.life = min(MAX_LIFE, pirate.life + amount)
        say(f"  {pirate_name(pos, code)} heals to {pirate.life} life")


def revive(pos: Position, code: int, say: Narrator = _quiet) -> None:
    """A dead pirate comes back on its own ship with full life and nothing else."""
    pirate = pos.pirate(code)
    pirate.life = MAX_LIFE
    pirate.zone = code // PIRATES
    pirate.statuses = _empty_slots()
    pirate.markers = 0
    pirate.regen = False
    pirate.actions = 0
    pirate.ashore = False
    say(f"  {pirate_name(pos, code)} is back aboard with {MAX_LIFE} life")


def apply_status(pos: Position, code: int, kind: int, turns: int, say: Narrator = _quiet) -> None:
    """Status ``kind`` on pirate ``code``.

    A timed status lasts ``turns`` game turns (the turn it is applied in counts); BURN and
    POISON are stamped with the current turn and strike in each of the ``turns`` game
    turns after it (at least one; :func:`strikes`). A status the pirate already has is
    refreshed (timed: the longer time; burn/poison: stamped again, with its new
    ``turns``). A pirate with two other statuses takes no third. Dead pirates take no
    status.
    """
    pirate = pos.pirate(code)
    if not pirate.alive:
        return
    stamped = kind in TURN_STAMPED
    if not stamped and turns < 1:
        return  # a timed status needs a time (decision: never a 0-turn slot)
    value = stamp(pos.turn, turns) if stamped else turns
    for slot in pirate.statuses:
        if slot[0] == kind:
            slot[1] = value if stamped else max(slot[1], value)
            say(f"  {pirate_name(pos, code)} is {STATUS_WORDS[kind]} again")
            return
    for slot in pirate.statuses:
        if slot[0] == NO_STATUS:
            slot[0], slot[1] = kind, value
            say(f"  {pirate_name(pos, code)} is now {STATUS_WORDS[kind]}")
            return
    say(f"  {pirate_name(pos, code)} already has two statuses: not {STATUS_WORDS[kind]}")


def stamp(turn: int, turns: int) -> int:
    """A BURN or POISON slot's value: applied in game ``turn``, striking in each of the
    ``turns`` game turns after it (at least one; one strike holds just the turn)."""
    return turn + STRIKES_STEP * (max(turns, 1) - 1)


def strikes(pirate: Pirate, kind: int, turn: int) -> bool:
    """Whether the pirate's BURN or POISON ``kind`` strikes in game ``turn``: one of the N
    game turns after the one it was applied in. Its last strike removes it."""
    for slot in pirate.statuses:
        if slot[0] == kind:
            applied, extra = slot[1] % STRIKES_STEP, slot[1] // STRIKES_STEP
            since = turn - applied
            if not 1 <= since <= extra + 1:
                return False
            if since == extra + 1:
                slot[0], slot[1] = NO_STATUS, 0  # the last strike: gone
            return True
    return False


def remove_status(pirate: Pirate, kind: int) -> list[int]:
    """The pirate loses status ``kind`` (NO_STATUS: every status); returns those it lost."""
    lost = []
    for slot in pirate.statuses:
        if slot[0] != NO_STATUS and kind in (NO_STATUS, slot[0]):
            lost.append(slot[0])
            slot[0], slot[1] = NO_STATUS, 0
    return lost


def discard_card(pos: Position, seat: int, card: int, say: Narrator = _quiet) -> None:
    """``card`` goes to ``seat``'s discard pile; a sin card marks its sin.

    With all seven sins in its discard pile the seat loses (original sin) at once.
    """
    side = pos.sides[seat]
    side.discard.append(card)
    sin = int(pos.content.card_sin[card])
    if sin >= 0:
        side.sins |= 1 << sin
        say(f"  {card_name(pos, card)} (sin: {SINS[sin]}) joins seat {seat}'s discard pile")
        if side.sins == ALL_SINS:
            say(f"  all seven sins are in seat {seat}'s discard pile")
            lose(pos, seat, BY_SIN, say)


def _mods_sum(mods, length: int, stat: int) -> int:
    return sum(int(mods[m][1]) for m in range(length) if mods[m][0] == stat)


def modifier_sum(pos: Position, code: int, stat: int) -> int:
    """The pirate's passive modifiers to ``stat``: its own, its animal's and item's
    (only while it is alive) and its ship's."""
    c = pos.content
    seat, index = divmod(code, PIRATES)
    pirate = pos.pirate(code)
    total = _mods_sum(c.ship_mods[seat], int(c.ship_mods_len[seat]), stat)
    if not pirate.alive:
        return total
    total += _mods_sum(c.pirate_mods[seat, index], int(c.pirate_mods_len[seat, index]), stat)
    for card in (pirate.animal, pirate.item):
        if card >= 0:
            total += _mods_sum(c.mods[card], int(c.mods_len[card]), stat)
    return total


def roll_for(pos: Position, code: int, dice: Dice) -> int:
    """A d6 rolled for a pirate: a DRUNK pirate's 1..6 read 6..1."""
    roll = dice.d6()
    return 7 - roll if pos.pirate(code).has(DRUNK) else roll


def draw_card(pos: Position, seat: int, say: Narrator = _quiet) -> int:
    """``seat`` draws the top card to the end of its hand; -1 if its deck is empty."""
    side = pos.sides[seat]
    if side.deck_pos >= len(side.deck):
        return -1
    card = side.deck[side.deck_pos]
    side.deck_pos += 1
    side.hand.append(card)
    count(pos, seat, SEAT_STAT.CARDS_DRAWN)
    count_card(pos, seat, card, CARD_STAT.DRAWN)
    return card


def reserve_total(side: Side) -> int:
    return sum(side.provisions)


def most_held_food(side: Side) -> int:
    """The kind of food spent when no kind is named: the kind held most (ties: the first in
    ``FOOD_KINDS`` order)."""
    return max(range(len(FOOD_KINDS)), key=lambda k: side.food_kinds[k])


def spend_food(side: Side, count: int) -> None:
    """Spend ``count`` food of no named kind, one at a time, each of the kind held most."""
    for _ in range(count):
        side.food_kinds[most_held_food(side)] -= 1
        side.provisions[FOOD_PROVISION] -= 1


def gain_food(pos: Position, seat: int, count: int) -> None:
    """``seat`` gains ``count`` food of no named kind, one at a time, each of the kind
    furthest below its starting count (ties: the first in ``FOOD_KINDS`` order)."""
    side = pos.sides[seat]
    start = pos.content.food_kinds[seat]
    for _ in range(count):
        kind = max(range(len(FOOD_KINDS)), key=lambda k: int(start[k]) - side.food_kinds[k])
        side.food_kinds[kind] += 1
        side.provisions[FOOD_PROVISION] += 1


def provision_words(arg: int) -> str:
    """A gain, lose or steal's provision (its Effect.ARG) as the narration says it."""
    return FOOD_KINDS[arg - FOOD_KIND_ARG] if arg >= FOOD_KIND_ARG else PROVISIONS[arg]


def lower(current: int, turns: int) -> int:
    """The new anchor (or mast) field when an effect lowers (breaks) it for ``turns``
    (0: no time limit): -1 up, 0 down untimed, >0 down with that many turns left."""
    if current < 0 or current == 0:
        return turns  # up, or untimed: the new effect replaces it
    if turns > 0:
        return max(current, turns)
    return current  # timed, and an untimed effect does not make it longer


# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def shuffle(deck: list[int], stream: Stream) -> None:
    """Fisher-Yates from the last card down."""
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def set_up(rules: BattleRules, content: Content, seed: int, game: int) -> Position:
    """The position before game turn 1: shuffled decks, starting hands drawn.

    Parameters
    ----------
    rules : the rule parameters.
    content : the two decks, pirates and ships.
    seed, game : the run's seed and the game's index; seat ``s``'s deck is shuffled on
        stream ``s`` of ``(seed, game)``, seat 0's first.

    Returns
    -------
    Position
        Game turn 1, nobody's turn started yet; each seat has drawn ``starting_hand``
        cards (seat 0 first), counted in the records.
    """
    pos = Position(rules=rules, content=content)
    pos.sides = [new_side(rules, content, s) for s in range(PLAYERS)]
    for s in range(PLAYERS):
        shuffle(pos.sides[s].deck, Stream(seed, game, s))
    for s in range(PLAYERS):
        for _ in range(rules.starting_hand):
            draw_card(pos, s)
    return pos


# ---------------------------------------------------------------------------
# Start and end of a turn
# ---------------------------------------------------------------------------


def start_turn(pos: Position, dice: Dice, narrate: Narrator | None = None) -> None:
    """Steps 1-8 of the start of game turn ``pos.turn``, in place.

    Parameters
    ----------
    pos : the position after the previous turn's :func:`end_turn` (or :func:`set_up`).
    dice : the dice (only a ship trigger's or a triggered ability's program may roll here).
    narrate : optional, receives one line per event.

    The game may end here (water through the holes, the Red Sea, a ship trigger, a
    triggered ability).
    """
    say = narrate or _quiet
    t, p = pos.turn, pos.player
    side = pos.sides[p]
    rules = pos.rules
    # 1. Water comes in through the holes; a full ship sinks before anything else.
    side.water += rules.water_per_hole * side.holes
    holes = f"{side.holes} hole" + ("" if side.holes == 1 else "s")
    say(f"turn {t}, seat {p}: water {side.water} ({holes})")
    check_sinking(pos, p, say)
    if pos.over:
        return
    kind, level = (int(v) for v in pos.content.ship_trigger[p])
    if kind != NO_TRIGGER and not side.triggered and condition_holds(pos, p, kind, level):
        side.triggered = True
        why = f"water {side.water}" if kind == WATER_AT_LEAST else TRIGGERS[kind]
        say(f"  {pos.content.ship_names[p]}'s trigger fires ({why})")
        rows = ship_rows(pos.content, p)
        # It fires before step 3's countdown: its timed effects are set one turn longer,
        # so that they last their full N turns counting this one, like any other.
        apply_program(pos, p, rows, -1, -1, dice, narrate=say, longer=1)
        if pos.over:
            return
    # 2a. Poison applied on one of the N previous game turns bites now, on either side.
    for code in range(PLAYERS * PIRATES):
        pirate = pos.pirate(code)
        if pirate.alive and strikes(pirate, POISON, t):
            say(f"  poison bites {pirate_name(pos, code)}")
            deal_damage(pos, code, 1, say)
    # 2b. A food card eaten on the player's previous turn heals once more.
    for i, pirate in enumerate(side.pirates):
        if pirate.regen:
            pirate.regen = False
            if pirate.alive:
                heal(pos, p * PIRATES + i, 1, say)
    # 3. Every timed effect of both seats loses a turn (burn and poison go by turn number).
    for s in range(PLAYERS):
        count_down(pos.sides[s])
    # 4. Dead pirates turn one death marker back.
    for pirate in side.pirates:
        if not pirate.alive:
            pirate.markers += 1
    # 5. Draw, or the Red Sea when the deck is empty.
    card = draw_card(pos, p, say)
    say(f"  seat {p} draws {card_name(pos, card)}" if card >= 0 else "  Red Sea: no card to draw")
    if card < 0:
        count(pos, p, SEAT_STAT.RED_SEA)
        take_hole(pos, p, p, say)
        if pos.over:
            return
    # 6. A pirate with both markers back returns to its ship.
    for i, pirate in enumerate(side.pirates):
        if not pirate.alive and pirate.markers == 2:
            revive(pos, p * PIRATES + i, say)
    # 7. One action for each living pirate; this turn's counters start again. A pirate on
    # the island now may spend its action to visit it again.
    for pirate in side.pirates:
        if pirate.alive:
            pirate.actions = 1
        pirate.ashore = pirate.zone == ISLAND
    pos.shots = 0
    side.special_used = 0
    for card in side.hand:
        count_card(pos, p, card, CARD_STAT.HELD)
    # 8. The turn_start abilities of the player's pirates, their animals and items.
    fire_side(pos, p, ON_TURN_START, dice, say)


def count_down(side: Side) -> None:
    """One turn off every timed effect of ``side``, removing those at 0."""
    for pirate in side.pirates:
        for slot in pirate.statuses:
            if slot[0] != NO_STATUS and slot[0] not in TURN_STAMPED:
                slot[1] -= 1
                if slot[1] <= 0:
                    slot[0], slot[1] = NO_STATUS, 0
    if side.anchor > 0:
        side.anchor -= 1
        if side.anchor == 0:
            side.anchor = -1  # its time is up: raised (0 would mean "down, untimed")
    if side.mast > 0:
        side.mast -= 1
        if side.mast == 0:
            side.mast = -1
    side.pacified = max(0, side.pacified - 1)
    side.stripped = max(0, side.stripped - 1)
    for mod in side.cannon_mods:
        mod[1] -= 1
    side.cannon_mods = [mod for mod in side.cannon_mods if mod[1] > 0]


def end_turn(pos: Position, dice: Dice, narrate: Narrator | None = None) -> None:
    """The end of the turn, in place: an unfired cursed ball is discarded, burns
    applied on one of the N previous game turns hurt, actions are lost; then the turn cap ends an
    unfinished game, or the next game turn begins (``pos.turn += 1``).

    Parameters
    ----------
    pos : the position after the player chose END_TURN.
    dice : the dice (unused: nothing at the end of a turn is random).
    narrate : optional, receives one line per event.
    """
    say = narrate or _quiet
    t, p = pos.turn, pos.player
    side = pos.sides[p]
    if side.loaded >= 0:
        card, side.loaded = side.loaded, -1
        say(f"  the unfired {card_name(pos, card)} is discarded")
        discard_card(pos, p, card, say)
        if pos.over:
            return
    for code in range(PLAYERS * PIRATES):
        pirate = pos.pirate(code)
        if pirate.alive and strikes(pirate, BURN, t):
            say(f"  {pirate_name(pos, code)} burns")
            deal_damage(pos, code, 1, say)
    for pirate in side.pirates:
        pirate.actions = 0
    if t >= pos.rules.turn_cap:
        pos.over = True
        pos.winner = -1
        pos.reason = CAPPED
        return
    pos.turn += 1


# ---------------------------------------------------------------------------
# Triggered abilities
# ---------------------------------------------------------------------------


def _triggers(
    events: np.ndarray, programs: np.ndarray, lengths: np.ndarray
) -> list[tuple[int, list[list[int]]]]:
    """``(event, rows)`` of one card's or pirate's triggers: ``events`` and ``lengths``
    int64 ``(MAX_TRIGGERS,)``, ``programs`` ``(MAX_TRIGGERS, MAX_EFFECTS, Effect.SIZE)``."""
    out = []
    for t in range(MAX_TRIGGERS):
        if int(events[t]):
            rows = [[int(v) for v in programs[t, e]] for e in range(int(lengths[t]))]
            out.append((int(events[t]), rows))
    return out


def pirate_trigger_rows(content: Content, code: int) -> list[tuple[int, list[list[int]]]]:
    """Pirate ``code``'s own triggered abilities as ``(event, rows)``, in file order."""
    s, i = divmod(code, PIRATES)
    c = content
    return _triggers(
        c.pirate_trigger[s, i], c.pirate_trigger_program[s, i], c.pirate_trigger_len[s, i]
    )


def card_trigger_rows(content: Content, card: int) -> list[tuple[int, list[list[int]]]]:
    """``card``'s triggered abilities as ``(event, rows)``, in file order."""
    c = content
    return _triggers(c.card_trigger[card], c.card_trigger_program[card], c.card_trigger_len[card])


def fire_triggers(
    pos: Position, code: int, event: int, dice: Dice, say: Narrator = _quiet, other: int = -1
) -> None:
    """Pirate ``code``'s triggered abilities of ``event``: the pirate's own, then its
    animal's, then its item's, each in file order, acting for its owner with the pirate
    as ``self`` and ``other`` as the pirate that set them off (the attacker of a ``hit``,
    the boarder of a ``boarded``, the pirate hit of a ``hits``). Each fires only if, when
    its turn comes, the pirate lives (and, for ``boarded``, is aboard its own ship); its
    timed effects count the turn it fires in. Stops at once if the game ends."""
    seat = code // PIRATES
    pirate = pos.pirate(code)
    sources = [
        (pirate_name(pos, code), ev, rows) for ev, rows in pirate_trigger_rows(pos.content, code)
    ]
    for card in (pirate.animal, pirate.item):
        if card >= 0:
            sources.extend(
                (card_name(pos, card), ev, rows)
                for ev, rows in card_trigger_rows(pos.content, card)
            )
    for name, ev, rows in sources:
        if ev != event:
            continue
        if not pirate.alive or (event == ON_BOARDED and pirate.zone != seat):
            return
        say(f"  {name} ({TRIGGER_EVENTS[event]}) acts for seat {seat}")
        apply_program(pos, seat, rows, -1, code, dice, narrate=say, other=other)
        if pos.over:
            return


def fire_side(
    pos: Position, seat: int, event: int, dice: Dice, say: Narrator = _quiet, other: int = -1
) -> None:
    """The triggered abilities of ``event`` of ``seat``'s pirates, pirate 0's first
    (:func:`fire_triggers`, set off by ``other``)."""
    for code in range(seat * PIRATES, seat * PIRATES + PIRATES):
        fire_triggers(pos, code, event, dice, say, other)
        if pos.over:
            return


# ---------------------------------------------------------------------------
# Legal options
# ---------------------------------------------------------------------------


def free_boarding(pos: Position, pirate: Pirate, zone: int) -> bool:
    """A move from the player's ship to the enemy's while the enemy's anchor is down or
    its mast broken (timed or not) costs no action."""
    p = pos.player
    enemy = pos.sides[1 - p]
    return pirate.zone == p and zone == 1 - p and (enemy.anchor >= 0 or enemy.mast >= 0)


def living(pos: Position, seat: int) -> list[int]:
    """Codes of ``seat``'s living pirates, in index order."""
    return [seat * PIRATES + i for i, pr in enumerate(pos.sides[seat].pirates) if pr.alive]


def revives(content: Content, card: int) -> bool:
    """Whether the card's program revives a chosen own pirate (it then chooses the dead)."""
    return any(
        row[EFFECT.OP] == REVIVE and row[EFFECT.TARGET] == OWN_PIRATE
        for row in card_rows(content, card)
    )


def choice_targets(pos: Position, card: int, here: int = -1) -> list[int]:
    """The chosen pirates a program of ``card`` may name, in code order.

    ``here`` is the zone of the item's holder for an activation (-1 when playing a card).
    """
    p = pos.player
    choice = int(pos.content.card_choice[card])
    if choice == OWN_PIRATE:
        if revives(pos.content, card):
            return [p * PIRATES + i for i, pr in enumerate(pos.sides[p].pirates) if not pr.alive]
        return living(pos, p)
    if choice == OWN_PIRATE_HERE:
        if here < 0:
            return living(pos, p)  # every own living pirate is where an own pirate is
        return [code for code in living(pos, p) if pos.pirate(code).zone == here]
    if choice == ENEMY_PIRATE:
        return living(pos, 1 - p)
    if choice == ENEMY_PIRATE_HERE:
        zones = {pos.pirate(code).zone for code in living(pos, p)} if here < 0 else {here}
        return [code for code in living(pos, 1 - p) if pos.pirate(code).zone in zones]
    return [-1]


def can_pay(pos: Position, card: int) -> bool:
    """Whether the player can pay ``card``'s cost: the provisions it names (none while
    stripped), and an action if it asks one (a living pirate of the player with one)."""
    side = pos.sides[pos.player]
    cost = [int(v) for v in pos.content.card_cost[card]]
    provisions = cost[: len(PROVISIONS)]
    if any(provisions) and side.stripped:
        return False
    if any(side.provisions[k] < provisions[k] for k in range(len(PROVISIONS))):
        return False
    kinds = cost[COST_FOOD_KINDS : COST_FOOD_KINDS + len(FOOD_KINDS)]
    if any(side.food_kinds[k] < kinds[k] for k in range(len(FOOD_KINDS))):
        return False
    return not cost[COST_ACTION] or any(pr.alive and pr.actions >= 1 for pr in side.pirates)


def pay(pos: Position, card: int, say: Narrator = _quiet) -> None:
    """Pay ``card``'s cost: its provisions (the kinds of food it names first, then its food
    of no named kind from the kind held most), and the action of the player's first living
    pirate with one left (pirate 0 before pirate 1) if it asks an action."""
    side = pos.sides[pos.player]
    cost = [int(v) for v in pos.content.card_cost[card]]
    kinds = cost[COST_FOOD_KINDS : COST_FOOD_KINDS + len(FOOD_KINDS)]
    for k in range(len(PROVISIONS)):
        if k != FOOD_PROVISION:
            side.provisions[k] -= cost[k]
    for k in range(len(FOOD_KINDS)):
        side.food_kinds[k] -= kinds[k]
    side.provisions[FOOD_PROVISION] -= sum(kinds)
    spend_food(side, cost[FOOD_PROVISION] - sum(kinds))
    if cost[COST_ACTION]:
        for i, pirate in enumerate(side.pirates):
            if pirate.alive and pirate.actions >= 1:
                pirate.actions -= 1
                say(f"  {pirate_name(pos, pos.player * PIRATES + i)} spends its action on it")
                break


def card_targets(pos: Position, card: int) -> list[int]:
    """The legal targets of playing ``card`` now; empty if it cannot be played."""
    p = pos.player
    side = pos.sides[p]
    kind = int(pos.content.card_type[card])
    own = [(p * PIRATES + i, pr) for i, pr in enumerate(side.pirates) if pr.alive]
    if kind in (BLANK, SHIP) or not can_pay(pos, card):
        return []
    if kind == SPECIAL and side.special_used >= pos.rules.specials_per_turn:
        return []
    if kind == LEGENDARY and side.legendary_used >= pos.rules.legendaries_per_game:
        return []
    if kind == ANIMAL:
        return [code for code, pr in own if pr.animal < 0]
    if kind == ITEM:
        return [code for code, pr in own if pr.zone == p and pr.actions >= 1 and pr.item < 0]
    if kind == FOOD:
        return [code for code, pr in own if pr.life < MAX_LIFE]
    if kind == CURSED_BALL:
        return [-1] if side.loaded < 0 else []
    if kind == ISLAND_CARD:
        return [-1]
    if not offered(pos, card):
        return []
    return choice_targets(pos, card)


def offered(pos: Position, card: int) -> bool:
    """Whether the player may play the event, special or legendary ``card`` (activate the
    item) now: not when every one of its effects has an ``if`` and none of them holds, as
    it would change nothing (food heals anyway; cursed balls and island cards act later)."""
    rows = card_rows(pos.content, card)
    if not rows or any(row[EFFECT.IF] == NO_CONDITION for row in rows):
        return True
    return any(
        condition_holds(pos, pos.player, row[EFFECT.IF], row[EFFECT.IF_VALUE]) for row in rows
    )


def cannon_turn(pos: Position) -> int:
    """The turn the rule ``cannon_start`` counts: the game turn (``game``), or the
    player's own turn, 1 for its first (``own``)."""
    return pos.turn if pos.rules.cannon_start == "game" else (pos.turn + 1) // 2


def fire_options(pos: Position, i: int) -> list[Option]:
    """FIRE options of the player's pirate ``i`` (already known alive, with an action,
    on its own ship)."""
    p = pos.player
    side = pos.sides[p]
    pirate = side.pirates[i]
    t = cannon_turn(pos)
    if pirate.has(NO_CANNON) or side.pacified > 0 or t < 2 or (t == 2 and pos.shots > 0):
        return []  # no cannon on (own) turn 1, one shot on (own) turn 2: cannon_start
    if side.loaded >= 0:
        return [(FIRE, i, AMMO_CURSED, -1)]  # a loaded cursed ball must be fired first
    if side.stripped > 0:
        return []
    stock = {
        AMMO_CANNONBALL: side.provisions[CANNONBALL],
        AMMO_INCENDIARY: side.provisions[INCENDIARY_BALL],
        AMMO_CHAOS: side.provisions[CHAOS_BALL],
    }
    return [
        (FIRE, i, ammo, -1)
        for ammo in (AMMO_CANNONBALL, AMMO_INCENDIARY, AMMO_CHAOS)
        if stock[ammo] >= 1
    ]


def in_reach(reach: int, seat: int, zone: int, enemy_zone: int) -> bool:
    """Whether a weapon of ``reach`` held by a pirate of ``seat`` in ``zone`` reaches an
    enemy in ``enemy_zone``: the attacker's zone (``here``); also, from its own ship, the
    enemy's ship (``enemy_ship``); any zone (``any``)."""
    if enemy_zone == zone or reach == REACH_ANY:
        return True
    return reach == REACH_SHIP and zone == seat and enemy_zone == 1 - seat


def attack_options(pos: Position, i: int) -> list[Option]:
    """ATTACK options of the player's pirate ``i``: for each weapon, the enemy pirates in
    its reach (:func:`in_reach`), then their animals, then their targetable items. A weapon
    that cannot hit (it needs more than 6 after the pirate's modifiers) is not offered."""
    p = pos.player
    zone = pos.sides[p].pirates[i].zone
    enemies = pos.sides[1 - p].pirates
    flags = pos.content.card_flags
    bonus = modifier_sum(pos, p * PIRATES + i, ATTACK_ROLL)
    out = []
    for w in range(WEAPONS):
        if int(pos.content.weapons[p, i, w, WEAPON.HITS_ON]) - bonus > 6:
            continue  # an attack that cannot hit changes nothing
        reach = int(pos.content.weapons[p, i, w, WEAPON.REACH])
        near = [e.alive and in_reach(reach, p, zone, e.zone) for e in enemies]
        for j in range(PIRATES):
            if near[j]:
                out.append((ATTACK, i, w, ATTACK_PIRATE + j))
        for j, e in enumerate(enemies):
            if near[j] and e.animal >= 0:
                out.append((ATTACK, i, w, ATTACK_ANIMAL + j))
        for j, e in enumerate(enemies):
            if near[j] and e.item >= 0 and flags[e.item] & TARGETABLE:
                out.append((ATTACK, i, w, ATTACK_ITEM + j))
    return out


def mast_repairable(pos: Position, side: Side) -> bool:
    """Whether ``side``'s broken mast may be repaired: only a mast broken with no time
    limit (``mast_repair = untimed``), or one broken with a time limit or not (``always``)."""
    return side.mast == 0 or (side.mast > 0 and pos.rules.mast_repair == "always")


def pirate_options(pos: Position, i: int) -> list[Option]:
    """What the player's living pirate ``i`` may do."""
    p = pos.player
    side = pos.sides[p]
    pirate = side.pirates[i]
    acts = pirate.actions >= 1
    aboard = pirate.zone == p
    out: list[Option] = []
    if not pirate.has(IMMOBILISED):
        for zone in (0, 1, ISLAND):
            if zone != pirate.zone and (acts or free_boarding(pos, pirate, zone)):
                out.append((MOVE_TO, i, zone, -1))
    if not acts:
        return out
    if aboard and side.water > 0 and not pirate.has(NO_BUCKET):
        out.append((BAIL_WATER, i, -1, -1))
    can_repair = (
        aboard and not pirate.has(NO_REPAIR) and side.provisions[PLANK] >= 1 and not side.stripped
    )
    if can_repair and side.holes >= 1:
        out.append((REPAIR_HOLE, i, -1, -1))
    if can_repair and mast_repairable(pos, side):
        out.append((REPAIR_MAST, i, -1, -1))
    if aboard and side.anchor == 0:  # only an anchor lowered with no time limit
        out.append((RAISE_ANCHOR, i, -1, -1))
    if aboard:
        out.extend(fire_options(pos, i))
    if not pirate.has(DISARMED):
        out.extend(attack_options(pos, i))
    if pirate.ashore and pirate.zone == ISLAND and (pos.island or can_take(pos, i) > 0):
        out.append((VISIT, i, -1, -1))  # a visit that changes nothing is not offered
    activable = pirate.item >= 0 and pos.content.card_flags[pirate.item] & ACTIVABLE
    if activable and offered(pos, pirate.item):
        for target in choice_targets(pos, pirate.item, here=pirate.zone):
            out.append((ACTIVATE, i, -1, target))
    return out


def legal_options(pos: Position) -> list[Option]:
    """Every legal option of the player, in the canonical order.

    Returns
    -------
    list of (kind, who, what, target)
        Pirate 0's actions, pirate 1's, then eating, then cards in hand (each distinct
        card once, in hand order, with each legal target), END_TURN last (always there).
        During an island visit, only the provisions it may take back (TAKE by kind).
    """
    p = pos.player
    side = pos.sides[p]
    if pos.taking > 0:
        return take_options(pos)
    out: list[Option] = []
    for i, pirate in enumerate(side.pirates):
        if pirate.alive:
            out.extend(pirate_options(pos, i))
    if side.provisions[FOOD_PROVISION] >= 1 and not side.stripped:
        for code in living(pos, p):
            if pos.pirate(code).life < MAX_LIFE:
                out.append((EAT, -1, -1, code))
    for card in dict.fromkeys(side.hand):
        for target in card_targets(pos, card):
            out.append((PLAY, -1, card, target))
    out.append((END_TURN, -1, -1, -1))
    return out


# ---------------------------------------------------------------------------
# Applying an option
# ---------------------------------------------------------------------------


def apply_option(
    pos: Position, option: Sequence[int], dice: Dice, narrate: Narrator | None = None
) -> None:
    """Do ``option`` (one of :func:`legal_options`) in place.

    Parameters
    ----------
    pos : the position, in the player's decision loop.
    option : (kind, who, what, target) as :func:`legal_options` lists it.
    dice : the dice for the rolls, the random discard and the incendiary's victim.
    narrate : optional, receives one line per event.

    Raises
    ------
    IllegalChoice
        If ``option`` is not legal in ``pos`` (or the game is over).

    END_TURN changes nothing here: the caller then calls :func:`end_turn`.
    """
    opt: Option = tuple(int(v) for v in option)  # type: ignore[assignment]
    if pos.over or opt not in legal_options(pos):
        raise IllegalChoice(f"{opt} is not a legal option in turn {pos.turn}")
    _do_option(pos, opt, dice, narrate or _quiet)


def _do_option(pos: Position, opt: Option, dice: Dice, say: Narrator) -> None:
    """:func:`apply_option` of an option known to be legal (the game loop's, just listed
    by :func:`legal_options`: listing the options again would double its cost)."""
    kind, who, what, target = opt
    say(f"  {option_text(pos, opt)}")
    p = pos.player
    side = pos.sides[p]
    if kind in (BAIL_WATER, REPAIR_HOLE, REPAIR_MAST, RAISE_ANCHOR):
        side.pirates[who].actions -= 1  # these four always cost the pirate's action
    if kind == MOVE_TO:
        boarding = side.pirates[who].zone == p and what == 1 - p
        move_pirate(pos, who, what)
        if what == ISLAND:  # moving onto the island is itself a visit
            visit(pos, who, dice, say)
        elif boarding:  # the enemy's abilities on being boarded
            fire_side(pos, 1 - p, ON_BOARDED, dice, say, other=p * PIRATES + who)
    elif kind == TAKE:
        take_provision(pos, what, dice, say)
    elif kind == BAIL_WATER:
        bail(pos, p * PIRATES + who, say)
    elif kind == REPAIR_HOLE:
        side.provisions[PLANK] -= 1
        repair_hole(pos, p)
    elif kind == REPAIR_MAST:
        side.provisions[PLANK] -= 1
        side.mast = -1
    elif kind == RAISE_ANCHOR:
        side.anchor = -1
    elif kind == FIRE:
        fire(pos, who, what, dice, say)
    elif kind == ATTACK:
        attack(pos, who, what, target, dice, say)
    elif kind == VISIT:
        side.pirates[who].actions -= 1
        visit(pos, who, dice, say)
    elif kind == ACTIVATE:
        activate(pos, who, target, dice, say)
    elif kind == EAT:
        spend_food(side, 1)
        heal(pos, target, 1, say)
    elif kind == PLAY:
        play_card(pos, what, target, dice, say)


def move_pirate(pos: Position, i: int, zone: int) -> None:
    """MOVE_TO: one action, unless it is a free boarding; boarding is counted either way."""
    p = pos.player
    pirate = pos.sides[p].pirates[i]
    if not free_boarding(pos, pirate, zone):
        pirate.actions -= 1
    if pirate.zone == p and zone == 1 - p:
        count(pos, p, SEAT_STAT.BOARDINGS)
    pirate.zone = zone
    pirate.ashore = False


def bail(pos: Position, code: int, say: Narrator = _quiet) -> None:
    """Water off the pirate's ship: ``bail`` plus its BAIL modifiers, never below 0."""
    side = pos.sides[code // PIRATES]
    removed = min(side.water, max(0, pos.rules.bail + modifier_sum(pos, code, BAIL)))
    side.water -= removed
    count(pos, code // PIRATES, SEAT_STAT.WATER_BAILED, removed)
    say(f"  {removed} water bailed ({side.water} left)")


def cannon_modifiers(pos: Position, code: int) -> int:
    """Everything added to a cannon roll of pirate ``code``."""
    p = code // PIRATES
    side = pos.sides[p]
    total = modifier_sum(pos, code, CANNON_ROLL) + sum(mod[0] for mod in side.cannon_mods)
    if side.anchor >= 0:
        total -= pos.rules.anchor_penalty  # a ship at anchor fires badly
    if side.chaos_turn == pos.turn:  # the enemy fired chaos balls on its last turn
        balls = side.chaos_count if pos.rules.chaos_stack else 1
        total -= pos.rules.chaos_penalty * balls
    return total


def fire(pos: Position, i: int, ammo: int, dice: Dice, say: Narrator = _quiet) -> None:
    """FIRE with ``ammo``: a chaos ball has no roll; the others roll to hit. A hit makes a
    hole; then an incendiary ball burns, and a cursed ball's program applies hit or miss
    (its rows ``on = "hit"`` only on a hit)."""
    p = pos.player
    side = pos.sides[p]
    code = p * PIRATES + i
    side.pirates[i].actions -= 1
    pos.shots += 1
    if ammo == AMMO_CHAOS:
        side.provisions[AMMO_CHAOS_PROVISION] -= 1
        enemy = pos.sides[1 - p]
        if enemy.chaos_turn == pos.turn + 1:
            enemy.chaos_count += 1  # another ball for the same turn (chaos_stack)
        else:
            enemy.chaos_turn, enemy.chaos_count = pos.turn + 1, 1
        count(pos, p, SEAT_STAT.CHAOS_SHOTS)
        say(f"  seat {1 - p}'s cannons will fire worse next turn")
        return
    cursed = -1
    if ammo == AMMO_CURSED:
        cursed, side.loaded = side.loaded, -1
    else:
        side.provisions[AMMO_PROVISION[ammo]] -= 1
    count(pos, p, SEAT_STAT.SHOTS)
    roll = roll_for(pos, code, dice)
    modified = roll + cannon_modifiers(pos, code)
    hit = modified >= pos.rules.cannon_hits_on
    say(f"  rolled {roll} (modified {modified}) → {'hit' if hit else 'miss'}")
    if hit:
        count(pos, p, SEAT_STAT.HITS)
        take_hole(pos, 1 - p, p, say)
        if pos.over:
            return
        if ammo == AMMO_INCENDIARY:
            burn_someone(pos, dice, say)
    if cursed >= 0:  # the shot's effect, hit or not ("le tir aura un effet")
        rows = card_rows(pos.content, cursed)
        apply_program(pos, p, rows, -1, -1, dice, narrate=say, hit=int(hit))
        if pos.over:
            return
        discard_card(pos, p, cursed, say)


def burn_someone(pos: Position, dice: Dice, say: Narrator = _quiet) -> None:
    """An incendiary hit burns one enemy pirate aboard the enemy ship, at random if two."""
    enemy = 1 - pos.player
    aboard = [code for code in living(pos, enemy) if pos.pirate(code).zone == enemy]
    if not aboard:
        return
    victim = aboard[dice.below(2)] if len(aboard) == 2 else aboard[0]
    apply_status(pos, victim, BURN, 0, say)


def attack(pos: Position, i: int, w: int, target: int, dice: Dice, say: Narrator = _quiet) -> None:
    """ATTACK with weapon ``w``: a d6 against the weapon's "hits on"."""
    p = pos.player
    code = p * PIRATES + i
    pos.sides[p].pirates[i].actions -= 1
    count(pos, p, SEAT_STAT.ATTACKS)
    hits_on = int(pos.content.weapons[p, i, w, WEAPON.HITS_ON])
    damage = int(pos.content.weapons[p, i, w, WEAPON.DAMAGE])
    roll = roll_for(pos, code, dice)
    modified = roll + modifier_sum(pos, code, ATTACK_ROLL)
    hit = modified >= hits_on
    say(f"  rolled {roll} (modified {modified}, needs {hits_on}) → {'hit' if hit else 'miss'}")
    if not hit:
        return
    count(pos, p, SEAT_STAT.ATTACK_HITS)
    enemy = 1 - p
    victim_code = enemy * PIRATES + target % PIRATES
    victim = pos.pirate(victim_code)
    if target < ATTACK_ANIMAL:
        # A hit on a pirate: the damage, the weapon's effects, the attacker's ``hits``
        # abilities, then the victim's ``hit`` abilities (if it lives).
        deal_damage(pos, victim_code, max(0, damage + modifier_sum(pos, code, WEAPON_DAMAGE)), say)
        rows = weapon_rows(pos.content, code, w)
        if rows:
            say(f"  {pos.content.weapon_names[p][i][w]}'s hit acts for seat {p}")
            apply_program(pos, p, rows, -1, code, dice, narrate=say, other=victim_code)
            if pos.over:
                return
        fire_triggers(pos, code, ON_HITS, dice, say, other=victim_code)
        if pos.over:
            return
        fire_triggers(pos, victim_code, ON_HIT, dice, say, other=code)  # if the victim lives
    elif target < ATTACK_ITEM:
        card, victim.animal = victim.animal, -1
        say(f"  {card_name(pos, card)} is destroyed")
        discard_card(pos, enemy, card, say)
    else:
        card, victim.item = victim.item, -1
        say(f"  {card_name(pos, card)} is destroyed")
        discard_card(pos, enemy, card, say)


def can_take(pos: Position, i: int) -> int:
    """How many provisions a visit of the player's pirate ``i`` would take back: up to
    ``island_take`` (plus its ISLAND_TAKE modifiers), no more than the reserve has room
    for, nor than the kinds below their starting counts add up to."""
    p = pos.player
    side = pos.sides[p]
    take = pos.rules.island_take + modifier_sum(pos, p * PIRATES + i, ISLAND_TAKE)
    room = pos.rules.reserve_max - reserve_total(side)
    start = [int(v) for v in pos.content.provisions[p]]
    short = sum(max(0, start[k] - side.provisions[k]) for k in range(len(PROVISIONS)))
    return max(0, min(take, room, short))


def visit(pos: Position, i: int, dice: Dice, say: Narrator = _quiet) -> None:
    """An island visit by the player's pirate ``i`` (its action, if any, already spent).

    The player then takes back :func:`can_take` provisions one at a time, choosing each
    kind (TAKE options); after the last one (or at once if there are none) every island
    card in play works for the visitor (:func:`island_cards`).
    """
    count(pos, pos.player, SEAT_STAT.ISLAND_VISITS)
    pos.taking = can_take(pos, i)
    code = pos.player * PIRATES + i
    if pos.taking:
        pos.visitor = code
        say(f"  {pos.taking} provision{'' if pos.taking == 1 else 's'} to take back")
    else:
        say(f"  nothing to take back ({_why_nothing(pos)})")
        island_cards(pos, code, dice, say)


def _why_nothing(pos: Position) -> str:
    """Why an island visit takes nothing back, for the narration."""
    side = pos.sides[pos.player]
    if reserve_total(side) >= pos.rules.reserve_max:
        return f"the reserve is full at {pos.rules.reserve_max}"
    start = pos.content.provisions[pos.player]
    if all(side.provisions[k] >= start[k] for k in range(len(PROVISIONS))):
        return "no provision is below its starting count"
    return "this visit may take none"


def take_options(pos: Position) -> list[Option]:
    """The TAKE options of a visit under way: each kind below its starting count, in
    PROVISIONS order (the reserve has room: :func:`can_take` counted it)."""
    p = pos.player
    side = pos.sides[p]
    start = pos.content.provisions[p]
    return [(TAKE, -1, k, -1) for k in range(len(PROVISIONS)) if side.provisions[k] < start[k]]


def take_provision(pos: Position, kind: int, dice: Dice, say: Narrator = _quiet) -> None:
    """TAKE: one provision of ``kind`` back into the reserve; the last one of the visit
    brings the island cards in play."""
    p = pos.player
    if kind == FOOD_PROVISION:
        gain_food(pos, p, 1)  # the kind furthest below its starting count
    else:
        pos.sides[p].provisions[kind] += 1
    count(pos, p, SEAT_STAT.TAKEN_PLANKS + kind)
    pos.taking -= 1  # the TAKE option itself was narrated as it was chosen
    if pos.taking == 0:
        visitor, pos.visitor = pos.visitor, -1
        island_cards(pos, visitor, dice, say)


def island_cards(pos: Position, visitor: int, dice: Dice, say: Narrator = _quiet) -> None:
    """Every island card in play works for the visiting player, in the order played; one
    that clears the island ends the list. ``visitor`` (the visiting pirate's code) is the
    target ``visitor``."""
    p = pos.player
    k = 0
    while k < len(pos.island):
        card = pos.island[k][0]
        say(f"  the island's {card_name(pos, card)} works for seat {p}")
        apply_program(pos, p, card_rows(pos.content, card), -1, visitor, dice, narrate=say)
        if pos.over:
            return
        k += 1


def activate(pos: Position, i: int, target: int, dice: Dice, say: Narrator = _quiet) -> None:
    """ACTIVATE the item of pirate ``i``; a single-use item is then discarded."""
    p = pos.player
    pirate = pos.sides[p].pirates[i]
    item = pirate.item
    pirate.actions -= 1
    code = p * PIRATES + i
    apply_program(pos, p, card_rows(pos.content, item), target, code, dice, narrate=say)
    if pos.over:
        return
    if not pos.content.card_flags[item] & REUSABLE:
        pirate.item = -1
        discard_card(pos, p, item, say)


def play_card(pos: Position, card: int, target: int, dice: Dice, say: Narrator = _quiet) -> None:
    """PLAY the first copy of ``card`` in the hand."""
    p = pos.player
    side = pos.sides[p]
    side.hand.remove(card)  # the first occurrence; the others keep their order
    pay(pos, card, say)
    count(pos, p, SEAT_STAT.CARDS_PLAYED)
    count_card(pos, p, card, CARD_STAT.PLAYED)
    kind = int(pos.content.card_type[card])
    rows = card_rows(pos.content, card)
    if kind in (EVENT, SPECIAL, LEGENDARY):
        if kind == SPECIAL:
            side.special_used += 1
        elif kind == LEGENDARY:
            side.legendary_used += 1
        apply_program(pos, p, rows, target, -1, dice, narrate=say)
        if pos.over:
            return
        discard_card(pos, p, card, say)
    elif kind == ISLAND_CARD:
        pos.island.append((card, p))
    elif kind == FOOD:
        heal(pos, target, 1, say)
        pos.pirate(target).regen = True
        apply_program(pos, p, rows, target, -1, dice, narrate=say)
        if pos.over:
            return
        discard_card(pos, p, card, say)
    elif kind == ANIMAL:
        pos.pirate(target).animal = card
    elif kind == ITEM:
        holder = pos.pirate(target)
        holder.actions -= 1
        holder.item = card
    elif kind == CURSED_BALL:
        side.loaded = card
    else:  # pragma: no cover - card_targets never offers these
        raise IllegalChoice(f"{CARD_TYPES[kind]} cards cannot be played")


# ---------------------------------------------------------------------------
# Card programs
# ---------------------------------------------------------------------------


def weapon_rows(content: Content, code: int, w: int) -> list[list[int]]:
    """Pirate ``code``'s weapon ``w``'s effects on a hit, as rows."""
    s, i = divmod(code, PIRATES)
    program = content.weapon_program[s, i, w]
    return [[int(v) for v in program[e]] for e in range(int(content.weapon_program_len[s, i, w]))]


def card_rows(content: Content, card: int) -> list[list[int]]:
    """The effects of ``card``'s program, as lists of ints."""
    n = int(content.program_len[card])
    return [[int(v) for v in content.program[card, e]] for e in range(n)]


def ship_rows(content: Content, seat: int) -> list[list[int]]:
    """The effects of ``seat``'s ship trigger."""
    n = int(content.ship_program_len[seat])
    return [[int(v) for v in content.ship_program[seat, e]] for e in range(n)]


def _timed(value: int, state: str) -> str:
    """An anchor or mast field in words."""
    if value < 0:
        return "up" if state == "down" else "intact"
    return state if value == 0 else f"{state} for {value} turns"


def side_of(target: int, seat: int) -> int:
    """The seat a side or ship target names for the acting ``seat``."""
    if target in (OWN, OWN_SHIP):
        return seat
    if target in (ENEMY, ENEMY_SHIP):
        return 1 - seat
    raise ValueError(f"target {target} is not a side or a ship")


def pirate_targets(
    pos: Position,
    target: int,
    seat: int,
    choice: int,
    holder: int = -1,
    dice: Dice | None = None,
    other: int = -1,
) -> list[int]:
    """The pirates a row aimed at ``target`` touches, in code order.

    A chosen target is the chosen pirate, if it is on the side the row names; a zone
    target is every living pirate of both seats in that zone; ``self`` is the item's
    ``holder`` (a pirate code, -1 for none), ``visitor`` the island's visitor (passed as
    ``holder`` to an island card's program); ``random_enemy_pirate`` a living enemy pirate
    drawn on the dice (``below(2)`` when both live, no draw for one, nobody for none);
    ``attacker``, ``boarder`` and ``hit_pirate`` the pirate ``other`` that set the program
    off. Each only if it lives (an effect on a dead pirate does nothing).
    """
    if target in (SELF, VISITOR):
        return [holder] if holder >= 0 and pos.pirate(holder).alive else []
    if target in (ATTACKER, BOARDER, HIT_PIRATE):
        return [other] if other >= 0 and pos.pirate(other).alive else []
    if target == RANDOM_ENEMY_PIRATE:
        enemies = living(pos, 1 - seat)
        if len(enemies) == 2:
            assert dice is not None
            return [enemies[dice.below(2)]]
        return enemies
    if target in (OWN_PIRATE, OWN_PIRATE_HERE):
        return [choice] if choice >= 0 and choice // PIRATES == seat else []
    if target in (ENEMY_PIRATE, ENEMY_PIRATE_HERE):
        return [choice] if choice >= 0 and choice // PIRATES == 1 - seat else []
    zone = {PIRATES_OWN_SHIP: seat, PIRATES_ENEMY_SHIP: 1 - seat, PIRATES_ISLAND: ISLAND}.get(
        target
    )
    if zone is None:
        raise ValueError(f"target {target} does not name pirates")
    return [c for c in range(PLAYERS * PIRATES) if pos.pirate(c).zone == zone]


def condition_holds(pos: Position, seat: int, condition: int, value: int) -> bool:
    """Whether an effect's condition (``Effect.IF``, with ``value``) holds for the acting
    ``seat`` now: always for none. A ship's ``when`` is the own_ condition of its name,
    checked for its owner."""
    if condition == OWN_WATER_AT_LEAST:
        return pos.sides[seat].water >= value
    if condition == ENEMY_ANCHOR_DOWN:
        return pos.sides[1 - seat].anchor >= 0
    if condition == OWN_PIRATE_ON_ISLAND:
        return any(pos.pirate(code).zone == ISLAND for code in living(pos, seat))
    if condition == OWN_PIRATE_BOARDING:
        return any(pos.pirate(code).zone == 1 - seat for code in living(pos, seat))
    own, enemy = pos.sides[seat], pos.sides[1 - seat]
    if condition == OWN_ANCHOR_DOWN:
        return own.anchor >= 0  # timed or not
    if condition in (OWN_MAST_BROKEN, ENEMY_MAST_BROKEN):
        return (own if condition == OWN_MAST_BROKEN else enemy).mast >= 0
    if condition in (OWN_HOLES_AT_LEAST, ENEMY_HOLES_AT_LEAST):
        return (own if condition == OWN_HOLES_AT_LEAST else enemy).holes >= value
    if condition in (OWN_PIRATE_DEAD, ENEMY_PIRATE_DEAD):
        side = own if condition == OWN_PIRATE_DEAD else enemy
        return any(not pr.alive for pr in side.pirates)
    if condition in (OWN_RED_SEA, ENEMY_RED_SEA):
        side = own if condition == OWN_RED_SEA else enemy
        return side.deck_pos >= len(side.deck)  # its draw pile is empty
    if condition == ENEMY_WATER_AT_LEAST:
        return enemy.water >= value
    return True


def game_turns(pos: Position, turns: int, clock: int, owner: int, longer: int) -> int:
    """An effect's ``turns`` in game turns. Counted in its ``owner``'s turns (``clock``
    OWN_TURNS), N own turns are 2N - 1 game turns when it is now the owner's turn (this
    one counts), else 2N; then ``longer`` is added. An untimed effect (0) stays so."""
    if turns <= 0:
        return turns
    if clock == OWN_TURNS:
        turns = 2 * turns - 1 if owner == pos.player else 2 * turns
    return turns + longer


def insult_battle(pos: Position, seat: int, dice: Dice, say: Narrator = _quiet) -> bool:
    """Both roll a d6 (the acting player first), ties rolled again: whether ``seat`` won."""
    while True:
        mine, theirs = dice.d6(), dice.d6()
        say(f"  insult battle: seat {seat} rolls {mine}, seat {1 - seat} rolls {theirs}")
        if mine != theirs:
            return mine > theirs


def apply_program(
    pos: Position,
    seat: int,
    rows: Sequence[Row],
    choice: int,
    holder: int,
    dice: Dice,
    narrate: Narrator | None = None,
    longer: int = 0,
    other: int = -1,
    hit: int = 0,
) -> None:
    """Apply the effects ``rows`` in order for the acting ``seat``, in place.

    Parameters
    ----------
    pos : the position.
    seat : the acting player ("own" and "enemy" are from its point of view).
    rows : the program, rows ``(op, target, amount, turns, arg, on, if, if_value, clock)``:
        a row whose insult result (``on``) or condition (``if``) does not hold is skipped;
        its ``turns`` count game turns, or its target's owner's turns (``clock``
        OWN_TURNS: :func:`game_turns`).
    choice : the chosen pirate's code, -1 if none.
    holder : the pirate holding the item activated, or the island's visitor for an island
        card's program (its code; -1 otherwise): the targets ``self`` and ``visitor``.
    dice : the dice (insult battles, random discards).
    narrate : optional, receives one line per event.
    longer : turns added to every timed effect (1 for a ship's trigger, which fires
        before the start of turn's countdown; 0 otherwise). An untimed effect stays so.
    other : the pirate that set the program off (the targets ``attacker``, ``boarder``,
        ``hit_pirate``), -1 for none.
    hit : 1 when a cursed ball's shot hit: rows ``on = "hit"`` apply only then.

    Stops at once if the game ends.
    """
    say = narrate or _quiet
    insult = NO_INSULT
    for row in rows:
        op, target, amount, turns, arg, on, condition, value = (int(v) for v in row[: EFFECT.CLOCK])
        clock = int(row[EFFECT.CLOCK]) if len(row) > EFFECT.CLOCK else GAME_TURNS
        if on == IF_WON and insult != INSULT_WON:
            continue
        if on == IF_LOST and insult != INSULT_LOST:
            continue
        if on == IF_HIT and not hit:
            continue
        if not condition_holds(pos, seat, condition, value):
            continue
        if op == INSULT:
            insult = INSULT_WON if insult_battle(pos, seat, dice, say) else INSULT_LOST
        else:
            apply_effect(
                pos,
                seat,
                op,
                target,
                amount,
                turns,
                arg,
                choice,
                dice,
                say,
                holder,
                clock,
                longer,
                other,
            )
        if pos.over:
            return


def apply_effect(
    pos: Position,
    seat: int,
    op: int,
    target: int,
    amount: int,
    turns: int,
    arg: int,
    choice: int,
    dice: Dice,
    say: Narrator = _quiet,
    holder: int = -1,
    clock: int = GAME_TURNS,
    longer: int = 0,
    other: int = -1,
) -> None:
    """One effect of a program, for the acting ``seat`` (``holder``: an activated item's
    holder or the island's visitor, the targets ``self`` and ``visitor``; ``other``: the
    pirate that set the program off). ``turns`` is the row's, counted by ``clock``;
    ``longer`` is added to a timed effect's game turns (:func:`apply_program`). A burn's or
    poison's ``turns`` are its strikes, as written."""
    rules = pos.rules
    raw = turns
    if op != STATUS and target in (OWN, OWN_SHIP, ENEMY, ENEMY_SHIP):
        turns = game_turns(pos, raw, clock, side_of(target, seat), longer)
    if op == WATER:
        s = side_of(target, seat)
        pos.sides[s].water = max(0, pos.sides[s].water + amount)
        say(f"  seat {s}'s water: {pos.sides[s].water}")
        check_sinking(pos, s, say)
    elif op == HOLE:
        s = side_of(target, seat)
        for _ in range(amount):
            take_hole(pos, s, seat, say)
            if pos.over:
                return
    elif op == REPAIR:
        s = side_of(target, seat)
        for _ in range(amount):
            if pos.sides[s].holes >= 1:
                repair_hole(pos, s)
        say(f"  seat {s}'s ship is repaired to {pos.sides[s].holes} holes")
    elif op == DAMAGE:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            deal_damage(pos, code, amount, say)
    elif op == HEAL:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            heal(pos, code, amount, say)
    elif op == REVIVE:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            if not pos.pirate(code).alive:
                revive(pos, code, say)
    elif op == STATUS:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            if arg in TURN_STAMPED:
                apply_status(pos, code, arg, raw, say)  # strikes, in game turns
            else:
                timed = game_turns(pos, raw, clock, code // PIRATES, longer)
                apply_status(pos, code, arg, timed, say)
    elif op == CURE:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            pirate = pos.pirate(code)
            if pirate.alive:
                lost = remove_status(pirate, arg)
                if lost:  # a cure of a status it does not have changes nothing
                    what = " and ".join(STATUSES[kind] for kind in lost)
                    say(f"  {pirate_name(pos, code)} is cured of {what}")
    elif op == DISCARD_DECK:
        s = side_of(target, seat)
        side = pos.sides[s]
        for _ in range(amount):
            if side.deck_pos >= len(side.deck):
                break  # an empty draw pile stops it
            card = side.deck[side.deck_pos]
            side.deck_pos += 1
            say(f"  seat {s} discards {card_name(pos, card)} from its draw pile")
            discard_card(pos, s, card, say)
            if pos.over:
                return
    elif op == ANCHOR_DOWN:
        side = pos.sides[side_of(target, seat)]
        side.anchor = lower(side.anchor, turns)
        say(f"  seat {side_of(target, seat)}'s anchor: {_timed(side.anchor, 'down')}")
    elif op == MAST_BROKEN:
        side = pos.sides[side_of(target, seat)]
        side.mast = lower(side.mast, turns)
        say(f"  seat {side_of(target, seat)}'s mast: {_timed(side.mast, 'broken')}")
    elif op == PACIFY_CANNONS:
        side = pos.sides[side_of(target, seat)]
        side.pacified = max(side.pacified, turns)
        say(f"  seat {side_of(target, seat)}'s cannons pacified for {side.pacified} turns")
    elif op == STRIP:
        side = pos.sides[side_of(target, seat)]
        side.stripped = max(side.stripped, turns)
        say(f"  seat {side_of(target, seat)} is stripped for {side.stripped} turns")
    elif op == GAIN:
        s = side_of(target, seat)
        side = pos.sides[s]
        gained = max(0, min(amount, rules.reserve_max - reserve_total(side)))
        if arg >= FOOD_KIND_ARG:  # a named kind of food
            side.food_kinds[arg - FOOD_KIND_ARG] += gained
            side.provisions[FOOD_PROVISION] += gained
        elif arg == FOOD_PROVISION:
            gain_food(pos, s, gained)
        else:
            side.provisions[arg] += gained
        full = f" (the reserve is full at {rules.reserve_max})" if gained < amount else ""
        say(f"  seat {s} gains {gained} {provision_words(arg)}{full}")
    elif op == LOSE:
        side = pos.sides[side_of(target, seat)]
        if arg >= FOOD_KIND_ARG:
            lost = max(0, min(amount, side.food_kinds[arg - FOOD_KIND_ARG]))
            side.food_kinds[arg - FOOD_KIND_ARG] -= lost
            side.provisions[FOOD_PROVISION] -= lost
        else:
            lost = max(0, min(amount, side.provisions[arg]))
            if arg == FOOD_PROVISION:
                spend_food(side, lost)
            else:
                side.provisions[arg] -= lost
        say(f"  seat {side_of(target, seat)} loses {lost} {provision_words(arg)}")
    elif op == STEAL:
        victim = pos.sides[side_of(target, seat)]
        thief = pos.sides[seat]
        held = (
            victim.food_kinds[arg - FOOD_KIND_ARG]
            if arg >= FOOD_KIND_ARG
            else victim.provisions[arg]
        )
        moved = max(0, min(amount, held, rules.reserve_max - reserve_total(thief)))
        if arg >= FOOD_KIND_ARG or arg == FOOD_PROVISION:
            for _ in range(moved):  # each food moves as the kind it is
                kind = arg - FOOD_KIND_ARG if arg >= FOOD_KIND_ARG else most_held_food(victim)
                victim.food_kinds[kind] -= 1
                thief.food_kinds[kind] += 1
            victim.provisions[FOOD_PROVISION] -= moved
            thief.provisions[FOOD_PROVISION] += moved
        else:
            victim.provisions[arg] -= moved
            thief.provisions[arg] += moved
        say(f"  seat {seat} steals {moved} {provision_words(arg)}")
    elif op == DRAW:
        s = side_of(target, seat)
        for _ in range(amount):
            drawn = draw_card(pos, s, say)
            if drawn < 0:
                break  # an empty deck stops the draw; no Red Sea here
            say(f"  seat {s} draws {card_name(pos, drawn)}")
    elif op == DISCARD:
        s = side_of(target, seat)
        hand = pos.sides[s].hand
        for _ in range(amount):
            if not hand:
                break
            index = dice.below(len(hand)) if len(hand) >= 2 else 0
            card = hand.pop(index)
            say(f"  seat {s} discards {card_name(pos, card)}")
            discard_card(pos, s, card, say)
            if pos.over:
                return
    elif op == CANNON_MODIFIER:
        side = pos.sides[side_of(target, seat)]
        if len(side.cannon_mods) < MAX_CANNON_MODS:
            side.cannon_mods.append([amount, turns])
            say(f"  seat {side_of(target, seat)}'s cannon rolls {amount:+d} for {turns} turns")
    elif op == EXTRA_ACTION:
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            if pos.pirate(code).alive:
                pos.pirate(code).actions += amount
                say(f"  {pirate_name(pos, code)} gets {amount} more action(s)")
    elif op == MOVE:
        zone = {TO_OWN_SHIP: seat, TO_ENEMY_SHIP: 1 - seat, TO_ISLAND: ISLAND}[arg]
        for code in pirate_targets(pos, target, seat, choice, holder, dice, other):
            if pos.pirate(code).alive:
                pos.pirate(code).zone = zone
                pos.pirate(code).ashore = False  # carried is not moving: no visit
                say(f"  {pirate_name(pos, code)} is carried to {zone_name(zone)}")
    elif op == CLEAR_ISLAND:
        while pos.island:
            card, owner = pos.island.pop(0)
            discard_card(pos, owner, card, say)
            if pos.over:
                return
    else:
        raise ValueError(f"unknown effect operation {op}")


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------


class RandomPlayer:
    """The uniform-random strategy: ``below(count)`` on its seat's stream (count ≥ 2)."""

    name = "random"

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def choose(self, pos: Position, options: Sequence[Option]) -> int:
        return self.stream.below(len(options)) if len(options) >= 2 else 0


class Scripted:
    """A player answering from a list of indices into its options, one a question."""

    name = "scripted"

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers = [int(a) for a in answers]
        self.used = 0

    def choose(self, pos: Position, options: Sequence[Option]) -> int:
        if self.used >= len(self.answers):
            raise ScriptError(
                f"asked among {len(options)} options in turn {pos.turn} after "
                f"{len(self.answers)} scripted answers"
            )
        answer = self.answers[self.used]
        self.used += 1
        return answer


# ---------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game's records, as the compiled engine's arrays hold them (lists of ints).

    ``games``: a ``GameStat`` row; ``seats``: 2 ``SeatStat`` rows; ``cards``: 2 x 20
    ``CardStat`` rows.
    """

    games: list[int]
    seats: list[list[int]]
    cards: list[list[list[int]]]


def game_record(pos: Position) -> GameRecord:
    """The record of a game that ended in ``pos``."""
    games = [0] * GAME_STAT.SIZE
    games[GAME_STAT.TURNS] = pos.turn
    games[GAME_STAT.FINISHED] = int(pos.winner >= 0)
    games[GAME_STAT.WINNER] = pos.winner
    games[GAME_STAT.REASON] = pos.reason
    games[GAME_STAT.WATER_0] = pos.sides[0].water
    games[GAME_STAT.WATER_1] = pos.sides[1].water
    seats = [list(row) for row in pos.seat_stats]
    for s in range(PLAYERS):
        seats[s][SEAT_STAT.WON] = int(pos.winner == s)
        seats[s][SEAT_STAT.FINAL_WATER] = pos.sides[s].water
    cards = [[list(row) for row in rows] for rows in pos.card_stats]
    assert len(cards[0][0]) == CARD_STAT.SIZE
    return GameRecord(games=games, seats=seats, cards=cards)


class Player(Protocol):
    """A seat's decision maker: an index into ``options`` (asked with two or more)."""

    def choose(self, pos: Position, options: Sequence[Option]) -> int: ...


def play_game(
    rules: BattleRules,
    content: Content,
    seed: int,
    game: int,
    make_player: Callable[[int, Stream], Player] | None = None,
    narrate: Narrator | None = None,
) -> GameRecord:
    """Play game number ``game`` of the run seeded ``seed``.

    ``make_player(seat, stream)`` gives each seat its player (stream ``3 + seat``); by
    default both play uniformly at random. A player is asked only with two options or more.
    """
    say = narrate or _quiet
    make_player = make_player or (lambda seat, stream: RandomPlayer(stream))
    players = [make_player(s, Stream(seed, game, 3 + s)) for s in range(PLAYERS)]
    dice = Dice(Stream(seed, game, 2))
    pos = set_up(rules, content, seed, game)
    say(
        f"{content.deck_names[0]} (seat 0) against {content.deck_names[1]} (seat 1); "
        f"hands {[card_name(pos, c) for c in pos.sides[0].hand]} and "
        f"{[card_name(pos, c) for c in pos.sides[1].hand]}"
    )
    while not pos.over:
        start_turn(pos, dice, narrate=say)
        if pos.over:
            break
        player = players[pos.player]
        while True:
            options = legal_options(pos)
            index = player.choose(pos, options) if len(options) >= 2 else 0
            if isinstance(index, bool) or not isinstance(index, int):
                raise IllegalChoice(f"seat {pos.player} answered {index!r}")
            if not 0 <= index < len(options):
                raise IllegalChoice(
                    f"seat {pos.player} answered {index} among {len(options)} options"
                )
            option = options[index]
            _do_option(pos, option, dice, say)
            if pos.over:
                break
            if option[0] == END_TURN:
                end_turn(pos, dice, narrate=say)
                break
    if pos.winner >= 0:
        say(
            f"Game over in turn {pos.turn}: seat {pos.winner} wins "
            f"({WIN_REASONS[pos.reason]}); water {pos.sides[0].water} and {pos.sides[1].water}"
        )
    else:
        say(
            f"Turn cap of {rules.turn_cap} reached: the game ends unfinished; water "
            f"{pos.sides[0].water} and {pos.sides[1].water}"
        )
    return game_record(pos)
