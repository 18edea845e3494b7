"""Fixtures for the Battle of Thieves scenario tests: both engines, readable positions.

Every scenario runs on the readable reference engine and on the compiled engine through
the ``engine`` fixture (the compiled one through ``bridge.COMPILED``). Positions are built
by hand from a small test content (:data:`CONTENT`): decks in file order (unshuffled, the
top card first), hands empty, both ships as at set-up, every pirate aboard its own ship
with no action. Tests then change what they need with the helpers below, and script the
dice: ``dice(5, 2)`` rolls a 5 then a 2 (a ``below(n)`` draw takes the next value as it
is, 0..n-1).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from balance.games.battle_of_thieves import reference
from balance.games.battle_of_thieves.content import Content, make_content
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ANCHOR_DOWN,
    ANIMAL,
    ATTACK_ROLL,
    BAIL,
    BURN,
    CANNON_ROLL,
    CHAOS_BALL,
    CLEAR_ISLAND,
    CURSED_BALL,
    DAMAGE,
    DISCARD,
    DRUNK,
    ENEMY,
    ENEMY_PIRATE,
    ENEMY_PIRATE_HERE,
    ENEMY_SHIP,
    EVENT,
    EXTRA_ACTION,
    FOOD,
    GAIN,
    HEAL,
    HOLE,
    IF_LOST,
    IF_WON,
    INSULT,
    ISLAND_CARD,
    ITEM,
    LEGENDARY,
    OWN,
    OWN_PIRATE,
    OWN_PIRATE_HERE,
    OWN_SHIP,
    PIRATES,
    PIRATES_OWN_SHIP,
    PLAYERS,
    POISON,
    REUSABLE,
    REVIVE,
    SINS,
    SPECIAL,
    STATUS,
    TARGETABLE,
    THE_ISLAND,
    WATER,
    WEAPON_DAMAGE,
)
from balance.games.battle_of_thieves.reference import Dice, Pirate, Position, Side
from balance.games.battle_of_thieves.rules import BattleRules

RULES = BattleRules()

#: The test cards: what each does is in its name's comment; programs are
#: ``(op, target, amount, turns, arg, on)``.
CARDS = [
    {"name": "Rum", "type": EVENT},  # does nothing: filler
    *({"name": sin, "type": EVENT, "sin": k} for k, sin in enumerate(SINS)),  # sins, no effect
    # +1 to attack and cannon rolls
    {"name": "Parrot", "type": ANIMAL, "mods": [(ATTACK_ROLL, 1), (CANNON_ROLL, 1)]},
    {"name": "Hound", "type": ANIMAL, "mods": [(BAIL, 20)]},  # bails 20 more
    # +1 weapon damage; enemies may attack it
    {"name": "Cutlass", "type": ITEM, "flags": TARGETABLE, "mods": [(WEAPON_DAMAGE, 1)]},
    # one use: a hole in the enemy ship
    {"name": "Powder Keg", "type": ITEM, "flags": ACTIVABLE, "program": [(HOLE, ENEMY_SHIP, 1)]},
    # reusable: 1 damage to an enemy pirate in the holder's zone
    {
        "name": "Pistol",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "program": [(DAMAGE, ENEMY_PIRATE_HERE, 1)],
    },
    # on a hit: 20 water into the enemy ship
    {"name": "Cursed Ball", "type": CURSED_BALL, "program": [(WATER, ENEMY_SHIP, 20)]},
    # at a visit: the visitor gains a chaos ball
    {"name": "Treasure Cove", "type": ISLAND_CARD, "program": [(GAIN, OWN, 1, 0, CHAOS_BALL)]},
    # at a visit: 10 water into the visitor's ship
    {"name": "Leaky Wreck", "type": ISLAND_CARD, "program": [(WATER, OWN_SHIP, 10)]},
    {"name": "Stew", "type": FOOD},  # heal 1 (+1 next turn), nothing else
    # heal 1 (+1 next turn) and an extra action for the fed pirate
    {"name": "Spiced Stew", "type": FOOD, "program": [(EXTRA_ACTION, OWN_PIRATE, 1)]},
    {"name": "Broadside", "type": SPECIAL, "program": [(HOLE, ENEMY_SHIP, 1)]},
    {"name": "Kraken", "type": LEGENDARY, "program": [(HOLE, ENEMY_SHIP, 2)]},
    # insult battle: won → a hole in the enemy ship; lost → 10 water in one's own
    {
        "name": "Insult",
        "type": EVENT,
        "program": [
            (INSULT, 0),
            (HOLE, ENEMY_SHIP, 1, 0, 0, IF_WON),
            (WATER, OWN_SHIP, 10, 0, 0, IF_LOST),
        ],
    },
    {"name": "Second Wind", "type": EVENT, "program": [(REVIVE, OWN_PIRATE)]},
    {"name": "Poison Dart", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE, 0, 0, POISON)]},
    {"name": "Firebrand", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE_HERE, 0, 0, BURN)]},
    {"name": "Grog", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE, 0, 2, DRUNK)]},
    {"name": "Drop Anchor", "type": EVENT, "program": [(ANCHOR_DOWN, ENEMY_SHIP, 0, 0)]},
    {"name": "Clear Skies", "type": EVENT, "program": [(CLEAR_ISLAND, THE_ISLAND)]},
    {"name": "Pickpocket", "type": EVENT, "program": [(DISCARD, ENEMY, 1)]},
    # reusable: heals an own pirate in the holder's zone
    {
        "name": "Medic Kit",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "program": [(HEAL, OWN_PIRATE_HERE, 1)],
    },
    # an extra action for an own pirate "where one of ours is" (any own pirate); in no deck
    {"name": "Rally Cry", "type": EVENT, "program": [(EXTRA_ACTION, OWN_PIRATE_HERE, 1)]},
    # one use: 2 damage to every pirate aboard the holder's own ship (itself included)
    {
        "name": "Bomb Vest",
        "type": ITEM,
        "flags": ACTIVABLE,
        "program": [(DAMAGE, PIRATES_OWN_SHIP, 2)],
    },
]

#: Deck 0 and deck 1 in file order (the top card first in a hand-built position).
DECK_0 = [
    "Broadside",
    "Parrot",
    "Stew",
    "Rum",
    "Powder Keg",
    "Cursed Ball",
    "Treasure Cove",
    "Insult",
    "Second Wind",
    "Poison Dart",
    "Firebrand",
    "Grog",
    "Drop Anchor",
    "Kraken",
    "Cutlass",
    "Pistol",
    "Hound",
    "Spiced Stew",
    "Pickpocket",
    "Medic Kit",
]
DECK_1 = [
    "Rum",
    "Insult",
    "Grog",
    "Luxure",
    "Gourmandise",
    "Envie",
    "Avarice",
    "Paresse",
    "Colère",
    "Orgueil",
    "Leaky Wreck",
    "Clear Skies",
    "Broadside",
    "Parrot",
    "Stew",
    "Cursed Ball",
    "Powder Keg",
    "Firebrand",
    "Second Wind",
    "Pickpocket",
]
#: Starting reserves: planks, cannonballs, food, chaos balls, incendiary balls.
PROVISIONS = ((10, 12, 4, 2, 2), (10, 12, 4, 2, 2))


def build_content(**changes) -> Content:
    """The test content; ``changes`` go to :func:`make_content` (weapons, mods, ...)."""
    changes.setdefault("provisions", PROVISIONS)
    return make_content(CARDS, [DECK_0, DECK_1], **changes)


CONTENT = build_content()


def card(name: str, content: Content = CONTENT) -> int:
    """A card's id."""
    return content.card_id(name)


def build(
    *,
    turn: int = 1,
    content: Content = CONTENT,
    rules: BattleRules = RULES,
    hands: Sequence[Sequence[str]] = ((), ()),
    deck_pos: Sequence[int] = (0, 0),
) -> Position:
    """A hand-built position: ships as at set-up, decks unshuffled, hands as named, every
    pirate aboard its own ship with 2 life and no action."""
    sides = []
    for s in range(PLAYERS):
        side = Side(
            intact=rules.hole_tokens,
            provisions=[int(v) for v in content.provisions[s]],
            food_kinds=[int(v) for v in content.food_kinds[s]],
            deck=[int(c) for c in content.deck[s]],
            deck_pos=deck_pos[s],
            hand=[card(name, content) for name in hands[s]],
            pirates=[Pirate(zone=s) for _ in range(PIRATES)],
        )
        sides.append(side)
    return Position(rules=rules, content=content, turn=turn, sides=sides)


def ready(pos: Position) -> Position:
    """Give the player's living pirates their action, as the start of a turn does."""
    for pirate in pos.sides[pos.player].pirates:
        if pirate.alive:
            pirate.actions = 1
    return pos


def pirate(pos: Position, code: int) -> Pirate:
    """Pirate ``seat * 2 + index``."""
    return pos.sides[code // PIRATES].pirates[code % PIRATES]


def set_status(pos: Position, code: int, kind: int, value: int, slot: int = 0) -> None:
    """Put status ``kind`` with ``value`` in a slot of pirate ``code``."""
    pirate(pos, code).statuses[slot] = [kind, value]


def kill(pos: Position, code: int, markers: int = 0) -> None:
    """Pirate ``code`` dead with ``markers`` death markers turned back."""
    p = pirate(pos, code)
    p.life, p.zone, p.markers, p.actions = 0, -1, markers, 0


def dice(*results: int) -> Dice:
    """Scripted dice: d6 faces (1..6) and ``below(n)`` values (0..n-1), in order."""
    return Dice(script=list(results))


def used_up(d: Dice) -> bool:
    """Every scripted result was taken."""
    return d.left == 0


def _compiled():
    from balance.games.battle_of_thieves.bridge import COMPILED

    return COMPILED


@pytest.fixture(params=["reference", "compiled"])
def engine(request: pytest.FixtureRequest):
    """The reference module itself, or the compiled engine behind the same functions:
    ``set_up``, ``start_turn``, ``legal_options``, ``apply_option``, ``end_turn``,
    ``apply_program`` (each updates the reference ``Position`` and ``Dice`` it is given)."""
    if request.param == "reference":
        return reference
    return _compiled()
