"""Battle of Thieves' shared vocabulary: codes of the card data, the position and the records.

The card loader (:mod:`.cards`), the reference engine (:mod:`.reference`), the compiled
engine (:mod:`.engine_nb`), the bridge between them and the strategies all use these
codes. ``NamedTuple`` instances are read by numba as compile-time constants.

Zones are absolute: ``0`` is seat 0's ship, ``1`` seat 1's ship, ``2`` the island; a dead
pirate is in zone ``DEAD`` (-1). A pirate is named by ``seat * 2 + index``.
"""

from typing import NamedTuple

import numpy as np

from balance.core.records import SEAT, Axis, Derived, RecordArray, RecordLayout, Stat

PLAYERS = 2
PIRATES = 2  # per player
WEAPONS = 2  # per pirate
DECK_SIZE = 20
MAX_HAND = 24
MAX_ISLAND = 40  # island cards in play, both players together
MAX_EFFECTS = 8  # effects of one program
MAX_MODS = 4  # passive modifiers of one card, pirate or ship
MAX_CANNON_MODS = 4  # timed cannon-roll modifiers on one side at once
MAX_OPTIONS = 256
MAX_LIFE = 2
STATUS_SLOTS = 2
SINS = ("Luxure", "Gourmandise", "Envie", "Avarice", "Paresse", "Colère", "Orgueil")
ALL_SINS = (1 << len(SINS)) - 1

# Zones.
DEAD = -1
ISLAND = 2

# Card types (BLANK: the card restricted play puts in a card's place; never playable).
BLANK = 0
ANIMAL = 1
CURSED_BALL = 2
EVENT = 3
ISLAND_CARD = 4
FOOD = 5
ITEM = 6
SPECIAL = 7
LEGENDARY = 8
SHIP = 9
#: Copies of one legendary card a deck may hold by default (the rule ``legendary_copies``).
LEGENDARY_COPIES = 1
#: Provisions a deck's starting reserve holds by default (the rule ``reserve_size``).
RESERVE_SIZE = 30
CARD_TYPES = (
    "blank",
    "animal",
    "cursed_ball",
    "event",
    "island",
    "food",
    "item",
    "special",
    "legendary",
    "ship",
)

# Provisions, in reserve order.
PLANK = 0
CANNONBALL = 1
FOOD_PROVISION = 2
CHAOS_BALL = 3
INCENDIARY_BALL = 4
PROVISIONS = ("planks", "cannonballs", "food", "chaos_balls", "incendiary_balls")

# Statuses (0: an empty slot).
NO_STATUS = 0
BURN = 1
IMMOBILISED = 2
DRUNK = 3
POISON = 4
DISARMED = 5
NO_CANNON = 6
NO_REPAIR = 7
NO_BUCKET = 8
STATUSES = (
    "",
    "burn",
    "immobilised",
    "drunk",
    "poison",
    "disarmed",
    "no_cannon",
    "no_repair",
    "no_bucket",
)

# Effect operations (the vocabulary of card programs).
WATER = 1
HOLE = 2
REPAIR = 3
DAMAGE = 4
HEAL = 5
REVIVE = 6
STATUS = 7
ANCHOR_DOWN = 8
MAST_BROKEN = 9
PACIFY_CANNONS = 10
STRIP = 11
GAIN = 12
LOSE = 13
STEAL = 14
DRAW = 15
DISCARD = 16
CANNON_MODIFIER = 17
EXTRA_ACTION = 18
MOVE = 19
INSULT = 20
CLEAR_ISLAND = 21
CURE = 22  # ARG: the status removed (NO_STATUS: every status)
DISCARD_DECK = 23  # the top AMOUNT cards of a side's draw pile go to its discard pile
OPS = (
    "",
    "water",
    "hole",
    "repair",
    "damage",
    "heal",
    "revive",
    "status",
    "anchor_down",
    "mast_broken",
    "pacify_cannons",
    "strip",
    "gain",
    "lose",
    "steal",
    "draw",
    "discard",
    "cannon_modifier",
    "extra_action",
    "move",
    "insult",
    "clear_island",
    "cure",
    "discard_deck",
)

# Effect targets, from the point of view of the player the effect acts for.
NO_TARGET = 0
OWN_SHIP = 1
ENEMY_SHIP = 2
OWN = 3  # the player's side: reserve, hand, deck
ENEMY = 4
OWN_PIRATE = 5  # chosen: any own pirate
OWN_PIRATE_HERE = 6  # chosen: an own pirate in a zone where one of ours is
ENEMY_PIRATE = 7  # chosen: any enemy pirate
ENEMY_PIRATE_HERE = 8  # chosen: an enemy pirate in a zone where one of ours is
PIRATES_OWN_SHIP = 9  # every living pirate, both sides, on the player's ship
PIRATES_ENEMY_SHIP = 10
PIRATES_ISLAND = 11
THE_ISLAND = 12
SELF = 13  # the card's holder: the pirate holding the item activated
RANDOM_ENEMY_PIRATE = 14  # a living enemy pirate drawn at random (anywhere), per effect
ATTACKER = 15  # a ``hit`` ability's enemy pirate whose attack hit the holder
BOARDER = 16  # a ``boarded`` ability's enemy pirate that boarded
VISITOR = 17  # an island card's visiting pirate
HIT_PIRATE = 18  # the pirate a weapon (a ``hits`` ability's holder) hit
TARGETS = (
    "",
    "own_ship",
    "enemy_ship",
    "own",
    "enemy",
    "own_pirate",
    "own_pirate_here",
    "enemy_pirate",
    "enemy_pirate_here",
    "pirates_own_ship",
    "pirates_enemy_ship",
    "pirates_island",
    "island",
    "self",
    "random_enemy_pirate",
    "attacker",
    "boarder",
    "visitor",
    "hit_pirate",
)
CHOSEN_TARGETS = (OWN_PIRATE, OWN_PIRATE_HERE, ENEMY_PIRATE, ENEMY_PIRATE_HERE)

# When an effect applies, after an insult battle of the same program.
ALWAYS = 0
IF_WON = 1
IF_LOST = 2
IF_HIT = 3  # a cursed ball's effect that needs its shot to hit
CONDITIONS = ("always", "won", "lost", "hit")

# Conditions on the position an effect may need (Effect.IF), for the acting player.
NO_CONDITION = 0
OWN_WATER_AT_LEAST = 1  # its ship holds at least IF_VALUE water
ENEMY_ANCHOR_DOWN = 2  # the enemy's anchor is down (timed or not)
OWN_PIRATE_ON_ISLAND = 3  # one of its living pirates is on the island
OWN_PIRATE_BOARDING = 4  # one of its living pirates is aboard the enemy's ship
OWN_ANCHOR_DOWN = 5
OWN_MAST_BROKEN = 6
ENEMY_MAST_BROKEN = 7
OWN_HOLES_AT_LEAST = 8  # IF_VALUE holes at least
ENEMY_HOLES_AT_LEAST = 9
OWN_PIRATE_DEAD = 10  # one of its pirates is dead
ENEMY_PIRATE_DEAD = 11
OWN_RED_SEA = 12  # its draw pile is empty
ENEMY_RED_SEA = 13
ENEMY_WATER_AT_LEAST = 14
IF_CONDITIONS = (
    "",
    "own_water_at_least",
    "enemy_anchor_down",
    "own_pirate_on_island",
    "own_pirate_boarding",
    "own_anchor_down",
    "own_mast_broken",
    "enemy_mast_broken",
    "own_holes_at_least",
    "enemy_holes_at_least",
    "own_pirate_dead",
    "enemy_pirate_dead",
    "own_red_sea",
    "enemy_red_sea",
    "enemy_water_at_least",
)
#: The conditions that take a number (``value``).
VALUED_CONDITIONS = (
    OWN_WATER_AT_LEAST,
    OWN_HOLES_AT_LEAST,
    ENEMY_HOLES_AT_LEAST,
    ENEMY_WATER_AT_LEAST,
)

# Passive modifiers: what they add to.
ATTACK_ROLL = 1
CANNON_ROLL = 2
BAIL = 3  # extra water bailed
WEAPON_DAMAGE = 4
ISLAND_TAKE = 5  # extra provisions taken at an island visit
MOD_STATS = ("", "attack_roll", "cannon_roll", "bail", "weapon_damage", "island_take")

# Ship triggers (``Content.ship_trigger``): the ship's condition, coded as the effect
# condition of the same name for its owner (``when = "mast_broken"`` is OWN_MAST_BROKEN).
NO_TRIGGER = 0
WATER_AT_LEAST = OWN_WATER_AT_LEAST
#: ``when`` names by code (the own_ condition of the same name; "" for codes no ship uses).
TRIGGERS = tuple(
    {
        OWN_WATER_AT_LEAST: "water_at_least",
        OWN_ANCHOR_DOWN: "anchor_down",
        OWN_MAST_BROKEN: "mast_broken",
        OWN_HOLES_AT_LEAST: "holes_at_least",
        OWN_PIRATE_DEAD: "pirate_dead",
        OWN_RED_SEA: "red_sea",
    }.get(code, "")
    for code in range(OWN_RED_SEA + 1)
)

# Triggered abilities of pirates, animals and items (``Content.card_trigger`` and
# ``pirate_trigger``): when each fires, for its holder's owner (docs/battle-of-thieves-cards.md).
NO_EVENT = 0
ON_HIT = 1  # an enemy's attack hits the holder, and the holder lives
ON_BOARDED = 2  # an enemy pirate boards the ship the holder is aboard (its own)
ON_TURN_START = 3  # the last step of the start of its owner's turn
ON_HITS = 4  # the holder's attack hits an enemy pirate
TRIGGER_EVENTS = ("", "hit", "boarded", "turn_start", "hits")
MAX_TRIGGERS = 4  # triggers of one card or pirate


class Effect(NamedTuple):
    """Fields of one effect, a row of a program: int64 ``(MAX_EFFECTS, Effect.SIZE)``."""

    OP: int = 0
    TARGET: int = 1
    AMOUNT: int = 2
    TURNS: int = 3
    ARG: int = 4  # STATUS: status code; GAIN/LOSE/STEAL: provision; MOVE: zone code
    ON: int = 5  # ALWAYS, IF_WON, IF_LOST
    IF: int = 6  # a condition on the position (IF_CONDITIONS), checked as the effect applies
    IF_VALUE: int = 7  # the condition's number (OWN_WATER_AT_LEAST: the water level)
    CLOCK: int = 8  # TURNS counts GAME_TURNS, or OWN_TURNS of the target's owner
    SIZE: int = 9


EFFECT = Effect()

# How an effect's TURNS count (Effect.CLOCK).
GAME_TURNS = 0
OWN_TURNS = 1

# --- issue 32, effects and conditions: a BURN/POISON status slot's value ---------------------
#: A burn or poison that strikes N times (``turns = N``) holds ``applied turn +
#: STRIKES_STEP * (N - 1)``: one strike (the rulebook's default) holds the turn, as before.
STRIKES_STEP = 100_000


class Weapon(NamedTuple):
    """Fields of one weapon of ``Content.weapons``, int64 ``(2, PIRATES, WEAPONS, SIZE)``."""

    HITS_ON: int = 0
    DAMAGE: int = 1
    REACH: int = 2  # REACH_HERE, REACH_SHIP, REACH_ANY
    SIZE: int = 3


WEAPON = Weapon()

# A weapon's reach: whom its holder may attack.
REACH_HERE = 0  # an enemy in the holder's zone
REACH_SHIP = 1  # also, from the holder's own ship, an enemy aboard the enemy's ship
REACH_ANY = 2  # an enemy in any zone
REACHES = ("here", "enemy_ship", "any")

# Food kinds (the rulebook's five): the reserve's food counts them all together;
# ``Side.FOOD_KINDS`` holds how many of each.
FOOD_KINDS = ("banane", "noix_de_coco", "grenade", "mangue", "ananas")
# GAIN, LOSE and STEAL of a named food kind: Effect.ARG = FOOD_KIND_ARG + the kind's index
# in FOOD_KINDS (ARG 0..4 are the PROVISIONS; FOOD_PROVISION is food of no named kind).
FOOD_KIND_ARG = 5

# MOVE's destination (Effect.ARG), from the point of view of the player it acts for.
TO_OWN_SHIP = 0
TO_ENEMY_SHIP = 1
TO_ISLAND = 2
DESTINATIONS = ("own_ship", "enemy_ship", "island")

# A card's cost (``Content.card_cost``, int64 ``(K, COST_SIZE)``): provisions by kind
# (PROVISIONS order), then COST_ACTION (1: an action of one's pirates).
COST_ACTION = 5
COST_FOOD_KINDS = 6  # 5 slots: food of a named kind (FOOD_KINDS order)
COST_SIZE = 11

# Card flags.
ACTIVABLE = 1  # an item with an activation program
TARGETABLE = 2  # an item enemy pirates may attack
REUSABLE = 4  # an item that stays after activation

# Choice of a card's program (what the player picks when playing or activating it).
CHOICE_NONE = 0

# Option kinds: a legal move is int64 ``(4,)``: kind, who, what, target.
MOVE_TO = 0  # who: pirate index (0/1 of the mover's seat), what: zone
BAIL_WATER = 1  # who: pirate
REPAIR_HOLE = 2  # who: pirate
REPAIR_MAST = 3  # who: pirate
RAISE_ANCHOR = 4  # who: pirate
FIRE = 5  # who: pirate, what: ammunition (AMMO_*)
ATTACK = 6  # who: pirate, what: weapon, target: ATTACK_* code
VISIT = 7  # who: pirate
ACTIVATE = 8  # who: pirate, target: chosen pirate code or -1
EAT = 9  # target: own pirate code (seat * 2 + index)
PLAY = 10  # what: card id, target: pirate code or -1
END_TURN = 11
TAKE = 12  # what: the provision kind an island visit takes back (the visit's own steps)
OPTION_KINDS = (
    "move",
    "bail",
    "repair hole",
    "repair mast",
    "raise anchor",
    "fire",
    "attack",
    "visit island",
    "activate item",
    "eat food",
    "play",
    "end turn",
    "take provision",
)

# Ammunition of a shot.
AMMO_CURSED = 0
AMMO_CANNONBALL = 1
AMMO_INCENDIARY = 2
AMMO_CHAOS = 3
AMMO = ("cursed ball", "cannonball", "incendiary ball", "chaos ball")

# Attack targets (relative to the enemy): pirate 0/1, animal of pirate 0/1, item of 0/1.
ATTACK_PIRATE = 0
ATTACK_ANIMAL = 2
ATTACK_ITEM = 4

# How a game ended.
CAPPED = 0
BY_WATER = 1
BY_SIN = 2
WIN_REASONS = ("cap", "water", "original sin")


#: The records a block of games fills: kernels index them with the slots below, and
#: the engine and the record tables read them from here. The reference engine keeps
#: each array of a game whole (``GameRecord.games``, ``.seats``, ``.cards``).
RECORDS = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("turns", table=np.int16),  # game turns played
                Stat("finished", flag=True),
                Stat("winner", table=np.int8, missing=True),  # seat, -1 if capped
                Stat("reason", labels=WIN_REASONS, column="win_reason"),  # CAPPED, BY_...
                Stat("water_0", table=np.int16),  # final water levels
                Stat("water_1", table=np.int16),
            ),
            record="games",
            slots_module=__name__,
        ),
        RecordArray(
            "seats",
            np.int32,
            axes=(SEAT,),
            entries=(
                Derived("strategy"),
                Derived("deck"),
                Stat("won", flag=True),
                Stat("shots"),  # cannon shots with a hit roll (cannonball, incendiary, cursed)
                Stat("hits"),
                Stat("chaos_shots"),
                Stat("holes_made"),  # holes this seat's shots and cards made in the enemy ship
                Stat("holes_taken"),  # holes in this seat's ship from any source (Red Sea too)
                Stat("holes_repaired"),
                Stat("water_bailed"),  # water actually removed by bailing
                Stat("attacks"),
                Stat("attack_hits"),
                Stat("damage_dealt"),  # life points enemy pirates lost in this seat's turns
                Stat("deaths"),  # deaths of this seat's pirates
                Stat("boardings"),
                Stat("island_visits"),
                Stat("cards_drawn"),
                Stat("cards_played"),
                Stat("red_sea"),  # turns that drew no card
                Stat("final_water"),
                Stat("taken_planks"),  # provisions island visits took back (PROVISIONS order)
                Stat("taken_cannonballs"),
                Stat("taken_food"),
                Stat("taken_chaos_balls"),
                Stat("taken_incendiary_balls"),
            ),
            record="seats",
            slots_module=__name__,
        ),
        # One row for each distinct card of the seat's deck, in the deck's order (rows
        # beyond it stay zero); its table has a row a card of the deck (game.py).
        RecordArray(
            "cards",
            np.int32,
            axes=(SEAT, Axis("card", DECK_SIZE)),
            entries=(
                Stat("drawn"),
                Stat("played"),
                Stat("held"),  # own turns the copies spent in hand (counted after the draw)
            ),
            record="cards",
            slots_module=__name__,
        ),
    ),
    tables=("games", "seats"),
    length=("games", "turns"),
)
GAME_STAT = RECORDS["games"].slots
SEAT_STAT = RECORDS["seats"].slots
CARD_STAT = RECORDS["cards"].slots


class Rule(NamedTuple):
    """Slots of the packed rule parameters, int64 ``(Rule.SIZE,)`` (``BattleRules.to_array``)."""

    CANNON_HITS_ON: int = 0
    HOLE_TOKENS: int = 1
    SINK_WATER: int = 2
    WATER_PER_HOLE: int = 3
    BAIL: int = 4
    ISLAND_TAKE: int = 5
    RESERVE_MAX: int = 6
    STARTING_HAND: int = 7
    TURN_CAP: int = 8
    ANCHOR_PENALTY: int = 9
    CHAOS_PENALTY: int = 10
    SPECIALS_PER_TURN: int = 11
    LEGENDARIES_PER_GAME: int = 12
    MAST_REPAIR: int = 13  # MAST_UNTIMED or MAST_ALWAYS
    CHAOS_STACK: int = 14  # 1: each chaos ball takes its penalty; 0: once a turn
    CANNON_START: int = 15  # START_GAME or START_OWN
    SIZE: int = 16


RULE = Rule()

# ``mast_repair``: a broken mast may be repaired only when its breaking has no time limit,
# or always.
MAST_UNTIMED = 0
MAST_ALWAYS = 1
MAST_REPAIRS = ("untimed", "always")
# ``cannon_start``: no fire on game turn 1 and one shot on game turn 2, or on each
# player's own first and second turns.
START_GAME = 0
START_OWN = 1
CANNON_STARTS = ("game", "own")


# --- The compiled engine's position (balance.games.battle_of_thieves.engine_nb) -----------
# A position is a tuple of int64 arrays: ``side (2, Side.SIZE)``, ``pirate (4, Pirate.SIZE)``
# (row = pirate code), ``deck (2, DECK_SIZE)``, ``hand (2, MAX_HAND)``, ``discard (2,
# MAX_HAND)``, ``island (MAX_ISLAND, 2)`` ((card, owner) in play order), ``state
# (State.SIZE,)``, ``seat_stat (2, SeatStat.SIZE)`` and ``card_stat (2, DECK_SIZE,
# CardStat.SIZE)``, in that order (:class:`Pos`).


class Side(NamedTuple):
    """Slots of one seat's row of the compiled ``side`` array, int64 ``(2, Side.SIZE)``."""

    WATER: int = 0
    INTACT: int = 1  # intact hole tokens
    HOLES: int = 2
    ANCHOR: int = 3  # -1 up, 0 down untimed, > 0 down for that many more turns
    MAST: int = 4  # -1 intact, 0 broken untimed, > 0 broken for that many more turns
    PACIFIED: int = 5  # turns the cannons stay pacified (0: ready)
    STRIPPED: int = 6  # turns provisions stay unspendable (0: not stripped)
    CHAOS_TURN: int = 7  # game turn whose cannon rolls take the chaos penalty
    LOADED: int = 8  # card id of the loaded cursed ball, -1 if none
    SPECIAL_USED: int = 9  # specials played this turn
    LEGENDARY_USED: int = 10  # legendaries played this game
    SINS: int = 11  # bit mask of the sins in the discard pile
    TRIGGERED: int = 12  # the ship's trigger has fired (0/1)
    PROVISIONS: int = 13  # 5 slots, layout.PROVISIONS order
    MODS_LEN: int = 18  # timed cannon modifiers in force
    MODS: int = 19  # MAX_CANNON_MODS pairs (amount, turns left), in the order added
    DECK_POS: int = 27  # next card of the deck to draw
    HAND_LEN: int = 28
    DISCARD_LEN: int = 29
    CHAOS_COUNT: int = 30  # chaos balls fired at this side for CHAOS_TURN
    FOOD_KINDS: int = 31  # 5 slots: the reserve's food by kind (FOOD_KINDS order)
    SIZE: int = 36


class Pirate(NamedTuple):
    """Slots of one pirate's row of the compiled ``pirate`` array, int64 ``(4, Pirate.SIZE)``."""

    LIFE: int = 0
    ZONE: int = 1  # 0/1 a ship, 2 the island, -1 dead
    MARKERS: int = 2  # death markers turned back
    ACTIONS: int = 3
    STATUS: int = 4  # STATUS_SLOTS pairs (kind, value): value = turns left, or for a
    # BURN/POISON the game turn it was applied + STRIKES_STEP * (strikes - 1); kind 0 = empty
    ANIMAL: int = 8  # card id or -1
    ITEM: int = 9  # card id or -1
    REGEN: int = 10  # healed by food on its owner's turn: heals 1 more next own turn
    ASHORE: int = 11  # on the island since the start of its owner's turn (may visit again)
    SIZE: int = 12


class State(NamedTuple):
    """Slots of the compiled ``state`` array, int64 ``(State.SIZE,)``."""

    TURN: int = 0  # game turn, 1-based
    SHOTS: int = 1  # cannon shots fired this turn (chaos balls included)
    ISLAND_LEN: int = 2  # island cards in play
    OVER: int = 3
    WINNER: int = 4  # -1 while playing or if capped
    REASON: int = 5  # CAPPED, BY_WATER, BY_SIN
    TAKING: int = 6  # provisions the island visit under way has still to take back
    VISITOR: int = 7  # the pirate (code) of the island visit under way, -1 for none
    SIZE: int = 8


class Pos(NamedTuple):
    """Indices of the arrays of a compiled position tuple."""

    SIDE: int = 0
    PIRATE: int = 1
    DECK: int = 2
    HAND: int = 3
    DISCARD: int = 4
    ISLAND: int = 5
    STATE: int = 6
    SEAT_STAT: int = 7
    CARD_STAT: int = 8
    SIZE: int = 9


class View(NamedTuple):
    """What a compiled strategy's ``decide(view, options, count, seat, params, rng)`` sees:
    indices of the ``view`` tuple. The arrays are the position's (:class:`Pos`), except
    that ``hand`` shows -1 for each card of the enemy's hand and ``deck`` shows -1 for the
    cards already drawn and the cards still to draw sorted by id (their order hidden).
    ``content`` is :meth:`Content.arrays` (``content.ARRAY_FIELDS`` order), ``rules`` the
    packed :class:`Rule` array."""

    SIDE: int = 0
    PIRATE: int = 1
    DECK: int = 2
    HAND: int = 3
    DISCARD: int = 4
    ISLAND: int = 5
    STATE: int = 6
    RULES: int = 7
    CONTENT: int = 8
    SIZE: int = 9


SIDE = Side()
PIRATE = Pirate()
STATE = State()
POS = Pos()
VIEW = View()
