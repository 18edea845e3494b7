"""The compiled engine and the readable reference play identical games from the same seeds.

Whole games are compared record for record (:meth:`Records.game_record` against the
reference's :class:`GameRecord`), on a rich test content that uses every card type, every
effect and every target, and on every pairing of the example decks. Single steps are
compared position for position: along random reference games, each step (start of turn,
options, applying one, end of turn, and card programs applied out of turn) is also run on
the compiled engine from the same position and dice, and must give the same position.
"""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest
from numba import njit

from balance.core.errors import BalanceError
from balance.core.game import Lineup, player_factory
from balance.core.random_nb import below_nb
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy, Strategy
from balance.games.battle_of_thieves import engine as compiled
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves import reference
from balance.games.battle_of_thieves.bridge import (
    COMPILED,
    compiled_player,
    pack_position,
    unpack_position,
)
from balance.games.battle_of_thieves.content import Content, blanked, make_content
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ANCHOR_DOWN,
    ANIMAL,
    ATTACK,
    ATTACK_ROLL,
    ATTACKER,
    BAIL,
    BOARDER,
    BURN,
    BY_SIN,
    BY_WATER,
    CANNON_MODIFIER,
    CANNON_ROLL,
    CANNONBALL,
    CAPPED,
    CARD_STAT,
    CHAOS_BALL,
    CLEAR_ISLAND,
    CURE,
    CURSED_BALL,
    DAMAGE,
    DISARMED,
    DISCARD,
    DISCARD_DECK,
    DRAW,
    DRUNK,
    END_TURN,
    ENEMY,
    ENEMY_ANCHOR_DOWN,
    ENEMY_HOLES_AT_LEAST,
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
    FOOD_PROVISION,
    GAIN,
    GAME_STAT,
    HEAL,
    HIT_PIRATE,
    HOLE,
    IF_HIT,
    IF_LOST,
    IF_WON,
    IMMOBILISED,
    INCENDIARY_BALL,
    INSULT,
    ISLAND_CARD,
    ISLAND_TAKE,
    ITEM,
    LEGENDARY,
    LOSE,
    MAST_BROKEN,
    MAX_HAND,
    MOVE,
    NO_BUCKET,
    NO_CANNON,
    NO_REPAIR,
    NO_STATUS,
    ON_BOARDED,
    ON_HIT,
    ON_HITS,
    ON_TURN_START,
    OPTION_KINDS,
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
    PIRATES_ENEMY_SHIP,
    PIRATES_ISLAND,
    PIRATES_OWN_SHIP,
    PLANK,
    POISON,
    RANDOM_ENEMY_PIRATE,
    REACH_ANY,
    REACH_HERE,
    REACH_SHIP,
    REPAIR,
    REUSABLE,
    REVIVE,
    SEAT_STAT,
    SELF,
    SHIP,
    SIDE,
    SPECIAL,
    STATUS,
    STEAL,
    STRIP,
    TARGETABLE,
    THE_ISLAND,
    TO_ENEMY_SHIP,
    TO_ISLAND,
    TO_OWN_SHIP,
    TRIGGER_EVENTS,
    VIEW,
    VISITOR,
    WATER,
    WATER_AT_LEAST,
    WEAPON_DAMAGE,
)
from balance.games.battle_of_thieves.reference import Dice, RandomPlayer
from balance.games.battle_of_thieves.rules import BattleRules

# ---------------------------------------------------------------------------
# A rich content: every card type, every effect, every target
# ---------------------------------------------------------------------------

#: Programs are (op, target, amount, turns, arg, on).
RICH_CARDS = [
    # The seven sins, each doing something as well.
    {
        "name": "Broadside",
        "type": EVENT,
        "sin": 0,
        "program": [(HOLE, ENEMY_SHIP, 1), (WATER, ENEMY_SHIP, 10)],
    },
    {
        "name": "Patch Up",
        "type": EVENT,
        "sin": 1,
        "program": [(WATER, OWN_SHIP, -20), (REPAIR, OWN_SHIP, 1)],
    },
    {
        "name": "Cutlass Duel",
        "type": EVENT,
        "sin": 2,
        "program": [(DAMAGE, ENEMY_PIRATE_HERE, 1), (STATUS, ENEMY_PIRATE_HERE, 0, 2, DISARMED)],
    },
    {
        "name": "Storm",
        "type": SPECIAL,
        "sin": 3,
        "program": [
            (ANCHOR_DOWN, ENEMY_SHIP, 0, 2),
            (MAST_BROKEN, ENEMY_SHIP, 0, 0),
            (PACIFY_CANNONS, ENEMY_SHIP, 0, 1),
        ],
    },
    {
        "name": "Mutiny",
        "type": EVENT,
        "sin": 4,
        "program": [
            (STRIP, ENEMY, 0, 2),
            (LOSE, ENEMY, 2, 0, CANNONBALL),
            (STEAL, ENEMY, 2, 0, PLANK),
            (GAIN, OWN, 1, 0, FOOD_PROVISION),
        ],
    },
    {
        "name": "Parley",
        "type": EVENT,
        "sin": 5,
        "program": [
            (INSULT, 0),
            (DRAW, OWN, 2, 0, 0, IF_WON),
            (DISCARD, ENEMY, 1, 0, 0, IF_WON),
            (DISCARD, OWN, 2, 0, 0, IF_LOST),
        ],
    },
    {
        "name": "Gunnery Drill",
        "type": EVENT,
        "sin": 6,
        "program": [(CANNON_MODIFIER, OWN_SHIP, 1, 2), (CANNON_MODIFIER, ENEMY_SHIP, -1, 3)],
    },
    # Events without a sin.
    {
        "name": "Grog",
        "type": EVENT,
        "program": [(STATUS, OWN_PIRATE, 0, 2, DRUNK), (HEAL, OWN_PIRATE, 1)],
    },
    {
        "name": "Swept Overboard",
        "type": EVENT,
        "program": [
            (MOVE, PIRATES_ENEMY_SHIP, 0, 0, TO_ISLAND),
            (STATUS, PIRATES_ISLAND, 0, 0, POISON),
        ],
    },
    {
        "name": "Hurricane",
        "type": EVENT,
        "program": [
            (CLEAR_ISLAND, THE_ISLAND),
            (STATUS, PIRATES_OWN_SHIP, 0, 1, IMMOBILISED),
            (STATUS, PIRATES_ENEMY_SHIP, 0, 2, NO_CANNON),
        ],
    },
    {
        "name": "Boarding Hook",
        "type": EVENT,
        "program": [(MOVE, OWN_PIRATE, 0, 0, TO_ENEMY_SHIP), (EXTRA_ACTION, OWN_PIRATE, 1)],
    },
    {
        "name": "Shore Leave",
        "type": EVENT,
        "program": [
            (MOVE, OWN_PIRATE_HERE, 0, 0, TO_ISLAND),
            (STATUS, OWN_PIRATE_HERE, 0, 1, NO_REPAIR),
        ],
    },
    {
        "name": "Poison Dart",
        "type": EVENT,
        "program": [(STATUS, ENEMY_PIRATE, 0, 0, POISON), (STATUS, ENEMY_PIRATE, 0, 3, NO_BUCKET)],
    },
    {
        "name": "Firebrand",
        "type": EVENT,
        "program": [
            (STATUS, PIRATES_ENEMY_SHIP, 0, 0, BURN),
            (MOVE, PIRATES_ISLAND, 0, 0, TO_OWN_SHIP),
        ],
    },
    {
        "name": "Doldrums",
        "type": SPECIAL,
        "program": [(ANCHOR_DOWN, OWN_SHIP, 0, 0), (MAST_BROKEN, OWN_SHIP, 0, 2)],
    },
    {
        "name": "Resurrection",
        "type": LEGENDARY,
        "program": [(REVIVE, OWN_PIRATE), (EXTRA_ACTION, OWN_PIRATE, 1)],
    },
    {
        "name": "Dead Man's Chest",
        "type": LEGENDARY,
        "program": [(DAMAGE, ENEMY_PIRATE, 2), (WATER, ENEMY_SHIP, 30), (HOLE, ENEMY_SHIP, 2)],
    },
    # Island cards.
    {
        "name": "Kraken Reef",
        "type": ISLAND_CARD,
        "program": [(DAMAGE, PIRATES_ISLAND, 1), (GAIN, OWN, 1, 0, INCENDIARY_BALL)],
    },
    {
        "name": "Treasure Cove",
        "type": ISLAND_CARD,
        "program": [(GAIN, OWN, 2, 0, CANNONBALL), (HEAL, PIRATES_OWN_SHIP, 1)],
    },
    {
        "name": "Whirlpool",
        "type": ISLAND_CARD,
        "program": [(CLEAR_ISLAND, THE_ISLAND), (GAIN, OWN, 1, 0, CHAOS_BALL)],
    },
    # Animals, food, items, cursed balls.
    {"name": "Parrot", "type": ANIMAL, "mods": [(ATTACK_ROLL, 1), (BAIL, 10)]},
    {"name": "Monkey", "type": ANIMAL, "mods": [(CANNON_ROLL, 1), (ISLAND_TAKE, -1)]},
    {"name": "Stew", "type": FOOD},
    {"name": "Hardtack", "type": FOOD, "program": [(EXTRA_ACTION, OWN_PIRATE, 1)]},
    {
        "name": "Spyglass",
        "type": ITEM,
        "flags": ACTIVABLE | TARGETABLE | REUSABLE,
        "mods": [(CANNON_ROLL, 1)],
        "program": [(DAMAGE, ENEMY_PIRATE_HERE, 1)],
    },
    {
        "name": "Rum Barrel",
        "type": ITEM,
        "flags": ACTIVABLE,
        "program": [
            (STATUS, OWN_PIRATE_HERE, 0, 1, NO_BUCKET),
            (WATER, OWN_SHIP, -30),
            (HEAL, OWN_PIRATE_HERE, 2),
        ],
    },
    {
        "name": "Lucky Boots",
        "type": ITEM,
        "flags": TARGETABLE,
        "mods": [(ISLAND_TAKE, 2), (WEAPON_DAMAGE, 1), (BAIL, -70)],
    },
    {"name": "Powder Keg", "type": ITEM, "flags": ACTIVABLE, "program": [(HOLE, ENEMY_SHIP, 1)]},
    {
        "name": "Cursed Ball",
        "type": CURSED_BALL,
        # a hole only if the shot hits; the burn with any shot
        "program": [(HOLE, ENEMY_SHIP, 1, 0, 0, IF_HIT), (STATUS, PIRATES_ENEMY_SHIP, 0, 0, BURN)],
    },
    {
        "name": "Black Spot",
        "type": CURSED_BALL,
        "sin": 1,
        "program": [(DRAW, ENEMY, 1), (MOVE, PIRATES_ENEMY_SHIP, 0, 0, TO_OWN_SHIP)],
    },
]

SIN_CARDS = ["Broadside", "Patch Up", "Cutlass Duel", "Storm", "Mutiny", "Parley", "Gunnery Drill"]
RICH_DECKS = [
    [
        *SIN_CARDS,
        "Grog",
        "Swept Overboard",
        "Boarding Hook",
        "Resurrection",
        "Kraken Reef",
        "Treasure Cove",
        "Parrot",
        "Stew",
        "Spyglass",
        "Rum Barrel",
        "Cursed Ball",
        "Doldrums",
        "Hardtack",
    ],
    [
        *SIN_CARDS,
        "Hurricane",
        "Shore Leave",
        "Poison Dart",
        "Firebrand",
        "Dead Man's Chest",
        "Whirlpool",
        "Monkey",
        "Lucky Boots",
        "Powder Keg",
        "Black Spot",
        "Hardtack",
        "Stew",
        "Treasure Cove",
    ],
]


def rich_content(**changes) -> Content:
    """The rich test content; ``changes`` go to :func:`make_content`."""
    settings = {
        "provisions": ((8, 10, 4, 3, 3), (12, 8, 5, 2, 2)),
        "weapons": (
            (((3, 1), (5, 2)), ((4, 1), (6, 3))),
            (((4, 1), (2, 1)), ((5, 2), (4, 1))),
        ),
        "pirate_mods": (([(ATTACK_ROLL, 1)], []), ([], [(CANNON_ROLL, -1), (BAIL, 20)])),
        "ship_mods": ([(WEAPON_DAMAGE, 1)], [(ISLAND_TAKE, 1)]),
        "ship_trigger": ((WATER_AT_LEAST, 40), (WATER_AT_LEAST, 60)),
        "ship_program": (
            [(WATER, OWN_SHIP, -20), (GAIN, OWN, 3, 0, PLANK)],
            [
                (INSULT, 0),
                (HOLE, ENEMY_SHIP, 1, 0, 0, IF_WON),
                (PACIFY_CANNONS, OWN_SHIP, 0, 2, 0, IF_LOST),
            ],
        ),
    }
    settings.update(changes)
    return make_content(RICH_CARDS, RICH_DECKS, **settings)


RICH = rich_content()
#: The decks the other way round: seat 1 gets the first deck and the other ship; seat 0
#: holds a ship card in place of its Stew (never playable).
RICH_SWAPPED = make_content(
    [*RICH_CARDS, {"name": "Figurehead", "type": SHIP, "mods": [(BAIL, 10)]}],
    [[c if c != "Stew" else "Figurehead" for c in RICH_DECKS[1]], RICH_DECKS[0]],
    provisions=((12, 8, 5, 2, 2), (8, 10, 4, 3, 3)),
    ship_trigger=((WATER_AT_LEAST, 30), (0, 0)),
    ship_program=([(DISCARD, ENEMY, 2), (REPAIR, OWN_SHIP, 2)], []),
)
#: Seat 0 without its sin "Storm" and without Spyglass (restricted play's blank card).
RICH_BLANKED = blanked(blanked(RICH, 0, "Storm"), 0, "Spyglass")

#: Cards with costs, conditions and the targets "self" and "random_enemy_pirate".
NEW_CARDS = [
    {
        "name": "Costly Broadside",
        "type": EVENT,
        "cost": (0, 2),
        "program": [(HOLE, ENEMY_SHIP, 1, 0, 0, 0, OWN_WATER_AT_LEAST, 20), (HOLE, ENEMY_SHIP, 1)],
    },
    {
        "name": "Heave Ho",
        "type": EVENT,
        "cost": (0, 0, 0, 0, 0, 1),
        "program": [(WATER, OWN_SHIP, -30), (GAIN, OWN, 2, 0, PLANK, 0, OWN_PIRATE_ON_ISLAND)],
    },
    {
        "name": "Stray Shot",
        "type": EVENT,
        "program": [
            (DAMAGE, RANDOM_ENEMY_PIRATE, 1),
            (STATUS, RANDOM_ENEMY_PIRATE, 0, 2, DRUNK, 0, ENEMY_ANCHOR_DOWN),
        ],
    },
    {
        "name": "Hip Flask",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "cost": (0, 0, 1),
        "program": [(HEAL, SELF, 1), (EXTRA_ACTION, SELF, 1, 0, 0, 0, OWN_PIRATE_BOARDING)],
    },
]
_NEW_IN = {
    "Grog": "Costly Broadside",
    "Swept Overboard": "Heave Ho",
    "Spyglass": "Stray Shot",
    "Rum Barrel": "Hip Flask",
    "Hurricane": "Costly Broadside",
    "Shore Leave": "Heave Ho",
    "Whirlpool": "Stray Shot",
    "Monkey": "Hip Flask",
}
RICH_NEW = make_content(
    [*RICH_CARDS, *NEW_CARDS],
    [[_NEW_IN.get(c, c) for c in deck] for deck in RICH_DECKS],
    provisions=((8, 10, 4, 3, 3), (12, 8, 5, 2, 2)),
)

#: Animals, items and pirates with triggered abilities of every kind: on a hit, on hitting,
#: when boarded, at the start of the owner's turn (with insults, conditions, drawn targets
#: and the pirates that set them off); weapons of every reach, with effects on a hit.
TRIGGER_CARDS = [
    {
        "name": "Watch Dog",
        "type": ANIMAL,
        "mods": [(ATTACK_ROLL, 1)],
        "triggers": [
            (
                ON_BOARDED,
                [
                    (INSULT, 0),
                    (DAMAGE, RANDOM_ENEMY_PIRATE, 1, 0, 0, IF_WON),
                    (STATUS, SELF, 0, 2, DRUNK, IF_LOST),
                ],
            ),
            (ON_TURN_START, [(HEAL, SELF, 1, 0, 0, 0, OWN_PIRATE_BOARDING)]),
            (ON_BOARDED, [(STATUS, BOARDER, 0, 2, DISARMED)]),
        ],
    },
    {
        "name": "Iron Vest",
        "type": ITEM,
        "flags": TARGETABLE,
        "triggers": [
            (ON_HIT, [(HEAL, SELF, 1), (CANNON_MODIFIER, OWN_SHIP, 1, 2)]),
            (ON_TURN_START, [(GAIN, OWN, 1, 0, PLANK, 0, OWN_WATER_AT_LEAST, 30)]),
        ],
    },
    {
        "name": "Powder Monkey",
        "type": ANIMAL,
        "triggers": [
            (
                ON_TURN_START,
                [(EXTRA_ACTION, SELF, 1), (DISCARD, ENEMY, 1, 0, 0, 0, ENEMY_ANCHOR_DOWN)],
            ),
            (ON_HIT, [(HOLE, ENEMY_SHIP, 1), (STATUS, ATTACKER, 0, 0, BURN)]),
            (ON_HITS, [(STATUS, HIT_PIRATE, 0, 0, POISON), (GAIN, OWN, 1, 0, CANNONBALL)]),
        ],
    },
    {
        "name": "Ship's Bell",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "program": [(WATER, OWN_SHIP, -20)],
        "triggers": [
            (
                ON_BOARDED,
                [(ANCHOR_DOWN, ENEMY_SHIP, 0, 2), (STATUS, PIRATES_OWN_SHIP, 0, 1, NO_CANNON)],
            )
        ],
    },
]
_TRIGGER_IN = (
    {"Parrot": "Watch Dog", "Spyglass": "Iron Vest", "Stew": "Powder Monkey"},
    {"Monkey": "Powder Monkey", "Lucky Boots": "Ship's Bell", "Stew": "Watch Dog"},
)
RICH_TRIGGERS = make_content(
    [*RICH_CARDS, *TRIGGER_CARDS],
    [[_TRIGGER_IN[s].get(c, c) for c in deck] for s, deck in enumerate(RICH_DECKS)],
    provisions=((8, 10, 4, 3, 3), (12, 8, 5, 2, 2)),
    weapons=(
        (((3, 1, REACH_SHIP), (5, 2, REACH_HERE)), ((4, 1, REACH_ANY), (6, 3, REACH_HERE))),
        (((4, 1, REACH_HERE), (3, 1, REACH_SHIP)), ((5, 2, REACH_ANY), (4, 1, REACH_HERE))),
    ),
    weapon_programs=(
        (
            ([(STATUS, HIT_PIRATE, 0, 0, POISON)], []),
            (
                [
                    (INSULT, 0),
                    (DAMAGE, HIT_PIRATE, 1, 0, 0, IF_WON),
                    (HEAL, SELF, 1, 0, 0, IF_LOST),
                ],
                [(HOLE, ENEMY_SHIP, 1, 0, 0, 0, OWN_WATER_AT_LEAST, 20)],
            ),
        ),
        (
            ([], [(MOVE, HIT_PIRATE, 0, 0, TO_ISLAND), (WATER, ENEMY_SHIP, 10)]),
            ([(STATUS, SELF, 0, 2, DRUNK), (DAMAGE, RANDOM_ENEMY_PIRATE, 1)], []),
        ),
    ),
    pirate_triggers=(
        (
            [(ON_HIT, [(STATUS, RANDOM_ENEMY_PIRATE, 0, 0, BURN), (DAMAGE, ATTACKER, 1)])],
            [
                (ON_TURN_START, [(WATER, OWN_SHIP, -10)]),
                (ON_HITS, [(STATUS, HIT_PIRATE, 0, 0, POISON), (EXTRA_ACTION, SELF, 1)]),
            ],
        ),
        (
            [
                (ON_BOARDED, [(DAMAGE, PIRATES_OWN_SHIP, 1)]),
                (ON_BOARDED, [(MOVE, BOARDER, 0, 0, TO_ENEMY_SHIP)]),
                (ON_HITS, [(DAMAGE, HIT_PIRATE, 1), (HEAL, SELF, 1)]),
            ],
            [
                (
                    ON_HIT,
                    [(DRAW, OWN, 1), (WATER, ENEMY_SHIP, 10), (STATUS, ATTACKER, 0, 1, NO_REPAIR)],
                )
            ],
        ),
    ),
)

#: Cures, burns and poisons of N turns, turns counted in the owner's turns, draw-pile
#: discards, every ``if`` condition, the island's visitor, gated cards and ship triggers on
#: a broken mast and a dead pirate.
EFFECT_CARDS = [
    {"name": "Pomegranate", "type": FOOD, "program": [(CURE, OWN_PIRATE, 0, 0, POISON)]},
    {
        "name": "Purge",
        "type": EVENT,
        "program": [
            (CURE, PIRATES_OWN_SHIP, 0, 0, NO_STATUS),
            (STATUS, ENEMY_PIRATE, 0, 2, POISON),
        ],
    },
    {
        "name": "Greek Fire",
        "type": CURSED_BALL,
        "program": [
            (STATUS, RANDOM_ENEMY_PIRATE, 0, 3, BURN),
            (STATUS, PIRATES_ENEMY_SHIP, 0, 2, DRUNK, 0, 0, 0, OWN_TURNS),
        ],
    },
    {
        "name": "Maelstrom",
        "type": EVENT,
        "program": [(DISCARD_DECK, ENEMY, 2), (DISCARD_DECK, OWN, 1, 0, 0, 0, ENEMY_RED_SEA)],
    },
    {
        "name": "Sitting Duck",
        "type": EVENT,
        "program": [
            (HOLE, ENEMY_SHIP, 1, 0, 0, 0, ENEMY_ANCHOR_DOWN),
            (GAIN, OWN, 1, 0, PLANK, 0, OWN_MAST_BROKEN),
        ],
    },
    {
        "name": "Siren Rock",
        "type": ISLAND_CARD,
        "program": [
            (HEAL, VISITOR, 1),
            (CURE, VISITOR, 0, 0, NO_STATUS),
            (EXTRA_ACTION, VISITOR, 1, 0, 0, 0, ENEMY_HOLES_AT_LEAST, 1),
        ],
    },
    {
        "name": "Long Anchor",
        "type": SPECIAL,
        "program": [
            (ANCHOR_DOWN, ENEMY_SHIP, 0, 2, 0, 0, 0, 0, OWN_TURNS),
            (PACIFY_CANNONS, ENEMY_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS),
            (STRIP, ENEMY, 0, 1, 0, 0, ENEMY_WATER_AT_LEAST, 30, OWN_TURNS),
            (CANNON_MODIFIER, OWN_SHIP, 1, 2, 0, 0, 0, 0, OWN_TURNS),
            (MAST_BROKEN, ENEMY_SHIP, 0, 1, 0, 0, ENEMY_PIRATE_DEAD, 0, OWN_TURNS),
        ],
    },
    {
        "name": "Signal Flag",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "program": [
            (EXTRA_ACTION, SELF, 1, 0, 0, 0, OWN_HOLES_AT_LEAST, 2),
            (WATER, OWN_SHIP, -20, 0, 0, 0, OWN_RED_SEA),
            (REPAIR, OWN_SHIP, 1, 0, 0, 0, OWN_ANCHOR_DOWN),
        ],
    },
]
_EFFECTS_IN = (
    {
        "Grog": "Purge",
        "Swept Overboard": "Maelstrom",
        "Kraken Reef": "Siren Rock",
        "Stew": "Pomegranate",
        "Spyglass": "Signal Flag",
        "Cursed Ball": "Greek Fire",
        "Doldrums": "Long Anchor",
        "Hardtack": "Sitting Duck",
    },
    {
        "Hurricane": "Sitting Duck",
        "Shore Leave": "Maelstrom",
        "Poison Dart": "Purge",
        "Whirlpool": "Siren Rock",
        "Black Spot": "Greek Fire",
        "Lucky Boots": "Signal Flag",
        "Stew": "Pomegranate",
        "Firebrand": "Long Anchor",
    },
)
RICH_EFFECTS = make_content(
    [*RICH_CARDS, *EFFECT_CARDS],
    [[_EFFECTS_IN[s].get(c, c) for c in deck] for s, deck in enumerate(RICH_DECKS)],
    provisions=((8, 10, 4, 3, 3), (12, 8, 5, 2, 2)),
    ship_trigger=((OWN_MAST_BROKEN, 0), (OWN_PIRATE_DEAD, 0)),
    ship_program=(
        [
            (REPAIR, OWN_SHIP, 1),
            (PACIFY_CANNONS, ENEMY_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS),
            (STATUS, RANDOM_ENEMY_PIRATE, 0, 2, BURN),
        ],
        [(HEAL, PIRATES_OWN_SHIP, 1), (ANCHOR_DOWN, ENEMY_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS)],
    ),
)

RULES = BattleRules()


def assert_agree(
    rules: BattleRules,
    content: Content,
    seed: int,
    games: int,
    first: int = 0,
) -> list[reference.GameRecord]:
    """Play ``games`` games on both engines; every record must be the same. Returns them."""
    played = compiled.play_games(rules, 2, seed, games, first_game=first, content=content)
    records = []
    for g in range(games):
        expected = reference.play_game(rules, content, seed, first + g)
        assert played.game_record(g) == expected, f"game {first + g} (seed {seed}) differs"
        records.append(expected)
    return records


def _reasons(records: list[reference.GameRecord]) -> set[int]:
    return {r.games[GAME_STAT.REASON] for r in records}


def _any_seat(records: list[reference.GameRecord], slot: int) -> bool:
    return any(r.seats[s][slot] > 0 for r in records for s in range(2))


def plays(records: list[reference.GameRecord], content: Content, names) -> dict[str, int]:
    """Copies of each card of ``names`` played in ``records``, both seats together."""
    played = dict.fromkeys(names, 0)
    for seat in range(2):
        for row, name in enumerate(content.deck_card_names(seat)):
            if name in played:
                played[name] += sum(r.cards[seat][row][CARD_STAT.PLAYED] for r in records)
    return played


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 20261126])
def test_engines_agree_on_rich_content(seed: int) -> None:
    records = assert_agree(RULES, RICH, seed, games=150)
    assert _reasons(records) >= {BY_WATER, BY_SIN}
    for slot in (
        SEAT_STAT.HITS,
        SEAT_STAT.CHAOS_SHOTS,
        SEAT_STAT.HOLES_REPAIRED,
        SEAT_STAT.WATER_BAILED,
        SEAT_STAT.ATTACK_HITS,
        SEAT_STAT.DAMAGE_DEALT,
        SEAT_STAT.DEATHS,
        SEAT_STAT.BOARDINGS,
        SEAT_STAT.ISLAND_VISITS,
    ):
        assert _any_seat(records, slot), SEAT_STAT._fields[slot]


def test_engines_agree_with_costs_conditions_and_new_targets() -> None:
    records = assert_agree(RULES, RICH_NEW, 6, games=40)
    played = plays(records, RICH_NEW, _NEW_IN.values())
    assert all(n > 0 for n in played.values()), played


def test_engines_agree_with_triggered_abilities() -> None:
    assert_agree(RULES, RICH_TRIGGERS, 7, games=60)
    fired = dict.fromkeys(TRIGGER_EVENTS[1:], 0)
    weapons = 0

    def note(line: str) -> None:
        nonlocal weapons
        for event in fired:
            fired[event] += line.endswith(f"({event}) acts for seat 0") or line.endswith(
                f"({event}) acts for seat 1"
            )
        weapons += "'s hit acts for seat" in line

    for game in range(20):
        reference.play_game(RULES, RICH_TRIGGERS, 7, game, narrate=note)
    assert all(n > 0 for n in fired.values()), fired
    assert weapons > 0  # a weapon's effects on a hit


def test_weapons_reach_beyond_their_zone_in_the_rich_content() -> None:
    """Random games of the triggered content attack from afar (a weapon's reach beyond the
    attacker's zone): the reach is played, not only listed."""
    far = 0
    for game in range(20):
        pos = reference.set_up(RULES, RICH_TRIGGERS, 7, game)
        dice = Dice(Stream(7, game, 2))
        players = [RandomPlayer(Stream(7, game, 3 + s)) for s in range(2)]
        while not pos.over:
            reference.start_turn(pos, dice)
            if pos.over:
                break
            while True:
                options = reference.legal_options(pos)
                option = options[players[pos.player].choose(pos, options)]
                kind, who, _, target = option
                if kind == ATTACK:
                    zone = pos.sides[pos.player].pirates[who].zone
                    far += pos.sides[1 - pos.player].pirates[target % 2].zone != zone
                reference.apply_option(pos, option, dice)
                if pos.over:
                    break
                if kind == END_TURN:
                    reference.end_turn(pos, dice)
                    break
    assert far > 0


def test_engines_agree_with_effects_and_conditions() -> None:
    records = assert_agree(RULES, RICH_EFFECTS, 8, games=60)
    played = plays(records, RICH_EFFECTS, (c["name"] for c in EFFECT_CARDS))
    assert all(n > 0 for n in played.values()), played
    fired = {"mast_broken": 0, "pirate_dead": 0, "cured": 0, "draw pile": 0}

    def note(line: str) -> None:
        for what in fired:
            fired[what] += what in line

    for game in range(20):
        reference.play_game(RULES, RICH_EFFECTS, 8, game, narrate=note)
    assert all(n > 0 for n in fired.values()), fired


@pytest.mark.slow
def test_engines_agree_on_many_games_with_triggered_abilities() -> None:
    assert_agree(RULES, RICH_TRIGGERS, 17, games=1_500)
    assert_agree(BattleRules(turn_cap=40, cannon_hits_on=3), RICH_TRIGGERS, 18, games=500)


def test_engines_agree_with_decks_swapped_and_blank_cards() -> None:
    assert_agree(RULES, RICH_SWAPPED, 3, games=80)
    assert_agree(RULES, RICH_BLANKED, 4, games=80)


RULE_SETS = {
    "turn-cap-30": BattleRules(turn_cap=30),
    "hits-on-3": BattleRules(cannon_hits_on=3),
    "one-hole-token": BattleRules(hole_tokens=1),
    "deep-hull": BattleRules(sink_water=400, water_per_hole=5, turn_cap=150),
    "small-reserve": BattleRules(reserve_max=12, island_take=8, bail=20),
    "big-hands": BattleRules(starting_hand=7, anchor_penalty=4, chaos_penalty=3),
    "no-tokens": BattleRules(hole_tokens=0, water_per_hole=3, sink_water=60),
    "mast-always-chaos-once": BattleRules(mast_repair="always", chaos_stack=False),
    "own-cannon-start": BattleRules(cannon_start="own", chaos_penalty=2),
}


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_engines_agree_on_other_rule_values(rules: BattleRules) -> None:
    assert_agree(rules, RICH, seed=99, games=150, first=1_000)


def test_a_turn_cap_ends_games_unfinished_on_both_engines() -> None:
    records = assert_agree(BattleRules(turn_cap=12), RICH, seed=5, games=200)
    capped = [r for r in records if r.games[GAME_STAT.REASON] == CAPPED]
    assert capped and len(capped) < len(records)
    for r in capped:
        assert r.games[GAME_STAT.TURNS] == 12
        assert r.games[GAME_STAT.WINNER] == -1 and not r.games[GAME_STAT.FINISHED]
        assert r.seats[0][SEAT_STAT.WON] == r.seats[1][SEAT_STAT.WON] == 0


def test_long_games_reach_the_red_sea_on_both_engines() -> None:
    records = assert_agree(BattleRules(sink_water=600, turn_cap=120), RICH, seed=8, games=60)
    assert _any_seat(records, SEAT_STAT.RED_SEA)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_engines_agree_on_many_rich_games(seed: int) -> None:
    assert_agree(RULES, RICH, seed, games=2_000)
    assert_agree(BattleRules(turn_cap=30, cannon_hits_on=3, hole_tokens=1), RICH, seed, 1_000)


# --- the example decks ------------------------------------------------------------------


def _example_pairs() -> list[tuple[str, str]]:
    from balance.games.battle_of_thieves.cards import example_decks

    names = sorted(example_decks())
    return list(itertools.product(names, names))


EXAMPLE_PAIRS = _example_pairs()


def test_every_example_deck_is_paired_with_every_other_in_both_seats() -> None:
    assert len(EXAMPLE_PAIRS) == 16  # four example decks, both seat orders and mirrors


@pytest.mark.parametrize("decks", EXAMPLE_PAIRS, ids=["-vs-".join(p) for p in EXAMPLE_PAIRS])
def test_engines_agree_on_every_pairing_of_the_example_decks(decks: tuple[str, str]) -> None:
    from balance.games.battle_of_thieves.cards import matchup_content

    rules = BattleRules(decks=decks)
    assert_agree(rules, matchup_content(decks, ()), seed=12, games=40)
    # content=None reads the decks from the rules
    played = compiled.play_games(rules, 2, 12, 5)
    assert played.game_record(4) == reference.play_game(rules, rules.content(), 12, 4)


@pytest.mark.slow
@pytest.mark.parametrize("decks", EXAMPLE_PAIRS, ids=["-vs-".join(p) for p in EXAMPLE_PAIRS])
def test_engines_agree_on_many_games_of_the_example_decks(decks: tuple[str, str]) -> None:
    from balance.games.battle_of_thieves.cards import matchup_content

    content = matchup_content(decks, ())
    assert_agree(BattleRules(decks=decks), content, seed=13, games=800)
    assert_agree(BattleRules(decks=decks, turn_cap=25, cannon_hits_on=3), content, 14, 500)


# ---------------------------------------------------------------------------
# Single steps along random games
# ---------------------------------------------------------------------------


def _twin(dice: Dice) -> Dice:
    return copy.deepcopy(dice)


def _same(mine: reference.Position, theirs: reference.Position, what: str) -> None:
    if mine != theirs:
        for name in ("turn", "shots", "island", "over", "winner", "reason", "seat_stats"):
            assert getattr(mine, name) == getattr(theirs, name), f"{what}: {name}"
        for s in range(2):
            for key, value in vars(theirs.sides[s]).items():
                assert getattr(mine.sides[s], key) == value, f"{what}: seat {s}'s {key}"
        assert mine.card_stats == theirs.card_stats, f"{what}: card_stats"
    assert mine == theirs, what


def _step(name: str, pos: reference.Position, dice: Dice, *args, **options) -> None:
    """Run step ``name`` on the reference (in place) and on the compiled engine from the
    same position and dice: both must end in the same position and dice state."""
    mine, my_dice = pos.copy(), _twin(dice)
    getattr(reference, name)(pos, *args, dice, **options)
    getattr(COMPILED, name)(mine, *args, my_dice, **options)
    _same(mine, pos, f"{name}{args} in turn {pos.turn}")
    assert my_dice.stream.state == dice.stream.state, f"{name}: dice stream"


def _programs(content: Content) -> list[tuple[str, list[list[int]]]]:
    """Every card, ship, ability and weapon program of ``content``, by name."""
    out = []
    for card in range(1, len(content.names)):
        rows = reference.card_rows(content, card)
        if rows:
            out.append((content.names[card], rows))
        for event, rows in reference.card_trigger_rows(content, card):
            out.append((f"{content.names[card]} ({TRIGGER_EVENTS[event]})", rows))
    for seat in range(2):
        rows = reference.ship_rows(content, seat)
        if rows:
            out.append((f"ship {seat}", rows))
    for code in range(4):
        for event, rows in reference.pirate_trigger_rows(content, code):
            out.append((f"pirate {code} ({TRIGGER_EVENTS[event]})", rows))
        for w in range(2):
            rows = reference.weapon_rows(content, code, w)
            if rows:
                out.append((f"pirate {code}'s weapon {w}", rows))
    return out


#: Pirates a program might be given as its choice (its holder, the pirate that set it off):
#: none, or any, even a dead one or one of the side its rows do not name (the program must
#: then leave it alone).
CHOICES = [-1, 0, 1, 2, 3]


def walk_game(rules: BattleRules, content: Content, seed: int, game: int) -> dict[str, int]:
    """Play a random reference game, checking every step against the compiled engine, and
    every program of the content applied out of turn at some positions on the way."""
    dice = Dice(Stream(seed, game, 2))
    players = [RandomPlayer(Stream(seed, game, 3 + s)) for s in range(2)]
    pos = reference.set_up(rules, content, seed, game)
    _same(COMPILED.set_up(rules, content, seed, game), pos, "set_up")
    assert unpack_position(pack_position(pos), like=pos) == pos
    programs = _programs(content)
    side_rng = np.random.default_rng(seed * 1_000 + game)
    kinds: dict[str, int] = {}
    while not pos.over:
        _step("start_turn", pos, dice)
        if pos.over:
            break
        while True:
            options = reference.legal_options(pos)
            assert COMPILED.legal_options(pos) == options, f"options in turn {pos.turn}"
            if side_rng.random() < 0.2:
                _, rows = programs[side_rng.integers(len(programs))]
                seat = pos.player if side_rng.random() < 0.8 else 1 - pos.player
                choice, holder, other = (int(c) for c in side_rng.choice(CHOICES, 3))
                trial, trial_dice = pos.copy(), Dice(Stream(seed, game, 100 + pos.turn))
                _step("apply_program", trial, trial_dice, seat, rows, choice, holder, other=other)
            index = players[pos.player].choose(pos, options)
            option = options[index]
            kinds[OPTION_KINDS[option[0]]] = kinds.get(OPTION_KINDS[option[0]], 0) + 1
            _step("apply_option", pos, dice, option)
            if pos.over:
                break
            if option[0] == END_TURN:
                _step("end_turn", pos, dice)
                break
    return kinds


@pytest.mark.parametrize(
    ("content", "rules"),
    [
        (RICH, RULES),
        (RICH_SWAPPED, BattleRules(hole_tokens=2)),
        (RICH_BLANKED, BattleRules(sink_water=300, turn_cap=80)),
        (RICH_NEW, RULES),
        (RICH_TRIGGERS, RULES),
        (RICH_EFFECTS, RULES),
    ],
    ids=[
        "rich",
        "swapped",
        "blanked-long",
        "new-card-features",
        "triggered-abilities",
        "effects-and-conditions",
    ],
)
def test_every_step_agrees_along_random_games(content: Content, rules: BattleRules) -> None:
    seen: dict[str, int] = {}
    for game in range(8):
        for kind, n in walk_game(rules, content, 31, game).items():
            seen[kind] = seen.get(kind, 0) + n
    assert set(seen) >= {"move", "fire", "attack", "play", "end turn"}


@pytest.mark.slow
def test_every_step_agrees_along_many_random_games() -> None:
    for game in range(60):
        walk_game(RULES, RICH, 77, game)
        walk_game(BattleRules(sink_water=300, turn_cap=100), RICH_SWAPPED, 78, game)


# ---------------------------------------------------------------------------
# The Python face
# ---------------------------------------------------------------------------


def test_play_games_checks_its_block() -> None:
    with pytest.raises(BalanceError):
        compiled.play_games(RULES, 3, 1, 10, content=RICH)
    with pytest.raises(BalanceError):
        compiled.play_games(RULES, 2, 1, -1, content=RICH)
    seat = SeatStrategy(compiled.random_strategy, ())
    with pytest.raises(BalanceError, match="blanks"):
        compiled.play_games(
            RULES, 2, 1, 1, lineup=Lineup((seat, seat), restricted=("Storm",)), content=RICH
        )


def test_records_have_the_documented_shapes() -> None:
    records = compiled.play_games(RULES, 2, 1, 7, first_game=3, content=RICH)
    assert len(records) == 7 and records.first_game == 3
    assert records.games.dtype == np.int32 and records.games.shape == (7, GAME_STAT.SIZE)
    assert records.seats.shape == (7, 2, SEAT_STAT.SIZE)
    assert records.cards.shape[:3] == (7, 2, 20)
    won = records.seats[:, :, SEAT_STAT.WON]
    finished = records.games[:, GAME_STAT.FINISHED] == 1
    assert (won.sum(axis=1) == finished).all()


class _Recording(RandomPlayer):
    """The random player, writing its answers down."""

    def __init__(self, stream: Stream, answers: list[int]) -> None:
        super().__init__(stream)
        self.answers = answers

    def choose(self, pos: reference.Position, options) -> int:
        index = super().choose(pos, options)
        self.answers.append(index)
        return index


def test_a_scripted_compiled_game_is_the_reference_scripted_game() -> None:
    """The answers of a random reference game, given as scripts to the compiled engine's
    scripted players, replay the same game; a script cut short is an error."""
    scripts: list[list[int]] = [[], []]
    expected = reference.play_game(
        RULES, RICH, 9, 0, make_player=lambda seat, stream: _Recording(stream, scripts[seat])
    )
    assert compiled.play_scripted(RULES, RICH, 9, 0, scripts) == expected
    replayed = reference.play_game(
        RULES, RICH, 9, 0, make_player=lambda seat, stream: reference.Scripted(scripts[seat])
    )
    assert replayed == expected
    with pytest.raises(BalanceError, match="ran out"):
        compiled.play_scripted(RULES, RICH, 9, 0, [scripts[0][:3], scripts[1]])


# ---------------------------------------------------------------------------
# A user's strategy in the compiled loop and in the reference engine
# ---------------------------------------------------------------------------


# Tuple indices must be plain module constants for numba.
V_SIDE, V_DECK, V_HAND = VIEW.SIDE, VIEW.DECK, VIEW.HAND


@njit
def _gunner(view, options, count, seat, params, rng):
    """Fires first when it can (``params[0]`` > 0), else random; answers ``count`` (an
    illegal answer) if ``params[1]`` is set, and -1 if it ever sees a card of the enemy's
    hand or of a deck it should not see."""
    if params[1] > 0:
        return count
    side, deck, hand = view[V_SIDE], view[V_DECK], view[V_HAND]
    enemy = 1 - seat
    for k in range(hand.shape[1]):
        if hand[enemy, k] != -1:
            return -1
    for s in range(2):
        top = side[s, SIDE.DECK_POS]
        for k in range(deck.shape[1]):
            if (k < top) != (deck[s, k] == -1):
                return -1
            if top <= k < deck.shape[1] - 1 and deck[s, k] > deck[s, k + 1]:
                return -1
    if params[0] > 0:
        for k in range(count):
            if options[k, 0] == FIRE:
                return k
    return below_nb(rng, count)


GUNNER = Strategy(
    "battle-of-thieves",
    "gunner",
    "Fires whenever it can.",
    {"decide": _gunner},
    params=(("fire", 1.0), ("illegal", 0.0)),
)


def _agree_with_lineup(lineup: Lineup, seed: int, games: int) -> None:
    played = compiled.play_games(RULES, 2, seed, games, lineup=lineup, content=RICH)
    for g in range(games):
        make_player = player_factory(lineup, g, RandomPlayer, compiled_player)
        expected = reference.play_game(RULES, RICH, seed, g, make_player=make_player)
        assert played.game_record(g) == expected, f"game {g} differs"


@pytest.mark.slow
def test_engines_agree_with_a_users_strategy() -> None:
    seats = (SeatStrategy(GUNNER, (1.0, 0.0)), SeatStrategy(compiled.random_strategy, ()))
    _agree_with_lineup(Lineup(seats, rotate=True), seed=21, games=150)
    # A user's strategy that plays at random is the shipped random strategy.
    plain = compiled.play_games(RULES, 2, 22, 100, content=RICH)
    users = compiled.play_games(
        RULES, 2, 22, 100, lineup=Lineup((SeatStrategy(GUNNER, (0.0, 0.0)),) * 2), content=RICH
    )
    assert np.array_equal(plain.games, users.games)
    assert np.array_equal(plain.cards, users.cards)


@pytest.mark.slow
def test_a_users_illegal_answer_stops_the_run_naming_it() -> None:
    lineup = Lineup((SeatStrategy(compiled.random_strategy, ()), SeatStrategy(GUNNER, (1.0, 1.0))))
    with pytest.raises(BalanceError, match=r"strategy 'gunner\(illegal=1\)' \(seat 1\)"):
        compiled.play_games(RULES, 2, 1, 10, lineup=lineup, content=RICH)


def test_the_shipped_random_strategy_is_the_reference_random_player_in_both_engines() -> None:
    """Through :func:`compiled_player`, the compiled random ``decide`` plays the reference
    engine's games exactly as the reference's own random player."""
    seat = SeatStrategy(compiled.random_strategy, ())
    for g in range(5):
        player = lambda s, stream: compiled_player(seat, stream)  # noqa: E731
        assert reference.play_game(RULES, RICH, 3, g, make_player=player) == (
            reference.play_game(RULES, RICH, 3, g)
        )


def test_the_view_hides_the_enemys_hand_and_the_decks_order() -> None:
    pos = reference.set_up(RULES, RICH, 5, 0)
    reference.start_turn(pos, Dice(Stream(5, 0, 2)))
    arrays = pack_position(pos)
    deck_view = np.zeros((2, 20), dtype=np.int64)
    hand_view = np.zeros((2, MAX_HAND), dtype=np.int64)
    nb.fill_view_nb(arrays, 0, deck_view, hand_view)
    own = pos.sides[0].hand
    assert list(hand_view[0, : len(own)]) == own
    assert (hand_view[1] == -1).all()
    for s in range(2):
        top = pos.sides[s].deck_pos
        assert (deck_view[s, :top] == -1).all()
        assert list(deck_view[s, top:]) == sorted(pos.sides[s].deck[top:])
