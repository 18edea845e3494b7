"""Battle of Thieves' effects and conditions, rule by rule, on both engines.

Cures, burns and poisons that last N turns, durations in the owner's own turns, draw-pile
discards, the ``if`` conditions, ship triggers on any ship or crew state, the island's
visitor, and cards whose condition is false not offered (``docs/battle-of-thieves-cards.md``,
``docs/battle-of-thieves.md``). Positions are built by hand as in ``test_scenarios.py``
(``conftest.py``): every expected value is worked out from the docs. Game turns 1, 3, 5...
are seat 0's; 2, 4, 6... seat 1's.
"""

from __future__ import annotations

import pytest

from balance.games.battle_of_thieves import kit
from balance.games.battle_of_thieves.content import Content, make_content
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ACTIVATE,
    ALL_SINS,
    AMMO_CURSED,
    ANCHOR_DOWN,
    BURN,
    BY_SIN,
    CURE,
    CURSED_BALL,
    DAMAGE,
    DISCARD_DECK,
    DRUNK,
    END_TURN,
    ENEMY,
    ENEMY_ANCHOR_DOWN,
    ENEMY_HOLES_AT_LEAST,
    ENEMY_MAST_BROKEN,
    ENEMY_PIRATE,
    ENEMY_PIRATE_DEAD,
    ENEMY_RED_SEA,
    ENEMY_SHIP,
    ENEMY_WATER_AT_LEAST,
    EVENT,
    EXTRA_ACTION,
    FIRE,
    FOOD,
    GAIN,
    HEAL,
    HOLE,
    IMMOBILISED,
    ISLAND,
    ISLAND_CARD,
    ITEM,
    LOSE,
    MAST_BROKEN,
    MOVE_TO,
    NO_STATUS,
    OWN,
    OWN_ANCHOR_DOWN,
    OWN_HOLES_AT_LEAST,
    OWN_MAST_BROKEN,
    OWN_PIRATE,
    OWN_PIRATE_DEAD,
    OWN_RED_SEA,
    OWN_SHIP,
    OWN_TURNS,
    OWN_WATER_AT_LEAST,
    PACIFY_CANNONS,
    PIRATES_OWN_SHIP,
    PLANK,
    PLAY,
    POISON,
    RANDOM_ENEMY_PIRATE,
    REUSABLE,
    SEAT_STAT,
    SELF,
    SPECIAL,
    STATUS,
    STRIKES_STEP,
    TAKE,
    VISITOR,
)

from .conftest import CARDS, DECK_0, DECK_1, PROVISIONS, build, dice, kill, pirate, ready
from .conftest import set_status as put_status
from .test_scenarios import options
from .test_strategies import view_of

# Rows: (op, target, amount, turns, arg, on, if, if value, clock).
NEW_CARDS = [
    {"name": "Antidote", "type": EVENT, "program": [(CURE, OWN_PIRATE, 0, 0, POISON)]},
    {"name": "Purge", "type": EVENT, "program": [(CURE, OWN_PIRATE, 0, 0, NO_STATUS)]},
    # a food card that cures poison (the fed pirate)
    {"name": "Pomegranate", "type": FOOD, "program": [(CURE, OWN_PIRATE, 0, 0, POISON)]},
    # a cursed ball whose burn lasts 3 turns
    {
        "name": "Greek Fire",
        "type": CURSED_BALL,
        "program": [(STATUS, RANDOM_ENEMY_PIRATE, 0, 3, BURN)],
    },
    {"name": "Long Poison", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE, 0, 2, POISON)]},
    {"name": "Long Fire", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE, 0, 3, BURN)]},
    {"name": "Spark", "type": EVENT, "program": [(STATUS, ENEMY_PIRATE, 0, 0, BURN)]},
    # the enemy discards 2 from its draw pile
    {"name": "Whirlpool", "type": EVENT, "program": [(DISCARD_DECK, ENEMY, 2)]},
    {"name": "Jettison", "type": EVENT, "program": [(DISCARD_DECK, OWN, 1)]},
    # a hole if the enemy's anchor is down
    {
        "name": "Sitting Duck",
        "type": EVENT,
        "program": [(HOLE, ENEMY_SHIP, 1, 0, 0, 0, ENEMY_ANCHOR_DOWN)],
    },
    # two effects, each with its own condition: offered while either holds
    {
        "name": "Either Way",
        "type": SPECIAL,
        "program": [
            (HOLE, ENEMY_SHIP, 1, 0, 0, 0, ENEMY_MAST_BROKEN),
            (GAIN, OWN, 1, 0, PLANK, 0, OWN_HOLES_AT_LEAST, 2),
        ],
    },
    # one unconditional effect: always offered
    {
        "name": "Half Duck",
        "type": EVENT,
        "program": [(GAIN, OWN, 1, 0, PLANK), (HOLE, ENEMY_SHIP, 1, 0, 0, 0, ENEMY_ANCHOR_DOWN)],
    },
    # food with a condition: food always heals, so it is offered
    {
        "name": "Lucky Stew",
        "type": FOOD,
        "program": [(GAIN, OWN, 1, 0, PLANK, 0, ENEMY_ANCHOR_DOWN)],
    },
    # an island card and a cursed ball with conditions: they act later, so they are offered
    {
        "name": "Quiet Cove",
        "type": ISLAND_CARD,
        "program": [(GAIN, OWN, 1, 0, PLANK, 0, OWN_RED_SEA)],
    },
    {
        "name": "Lucky Shot",
        "type": CURSED_BALL,
        "program": [(HOLE, ENEMY_SHIP, 1, 0, 0, 0, ENEMY_MAST_BROKEN)],
    },
    # an item whose activation needs its own mast broken
    {
        "name": "Signal Flag",
        "type": ITEM,
        "flags": ACTIVABLE | REUSABLE,
        "program": [(EXTRA_ACTION, SELF, 1, 0, 0, 0, OWN_MAST_BROKEN)],
    },
    # an island card that heals the visitor
    {"name": "Siren Rock", "type": ISLAND_CARD, "program": [(HEAL, VISITOR, 1)]},
    # 2 damage to the visitor, then 1 more (to a visitor still alive)
    {
        "name": "Deadly Reef",
        "type": ISLAND_CARD,
        "program": [(DAMAGE, VISITOR, 2), (DAMAGE, VISITOR, 1)],
    },
    # drunk for 2 of its owner's turns; the anchor for 1 of its owner's turns
    {
        "name": "Long Grog",
        "type": EVENT,
        "program": [(STATUS, ENEMY_PIRATE, 0, 2, DRUNK, 0, 0, 0, OWN_TURNS)],
    },
    {
        "name": "Heavy Anchor",
        "type": EVENT,
        "program": [(ANCHOR_DOWN, ENEMY_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS)],
    },
    {
        "name": "Own Anchor",
        "type": EVENT,
        "program": [(ANCHOR_DOWN, OWN_SHIP, 0, 2, 0, 0, 0, 0, OWN_TURNS)],
    },
    # every pirate aboard one's own ship, immobilised for 1 of its owner's turns
    {
        "name": "Tar Deck",
        "type": EVENT,
        "program": [(STATUS, PIRATES_OWN_SHIP, 0, 1, IMMOBILISED, 0, 0, 0, OWN_TURNS)],
    },
]


def content(**changes) -> Content:
    """The test content with the new cards after its own (the test decks unchanged)."""
    changes.setdefault("provisions", PROVISIONS)
    return make_content([*CARDS, *NEW_CARDS], [DECK_0, DECK_1], **changes)


CONTENT = content()
END = (END_TURN, -1, -1, -1)


def card(name: str) -> int:
    return CONTENT.card_id(name)


def position(turn: int = 3, hands=((), ()), **kw):
    return build(turn=turn, content=kw.pop("content", CONTENT), hands=hands, **kw)


def play(name: str, target: int = -1) -> tuple[int, int, int, int]:
    return (PLAY, -1, card(name), target)


def do(engine, pos, option, *results: int) -> None:
    d = dice(*results)
    assert option in options(engine, pos), option
    engine.apply_option(pos, option, d)
    assert d.left == 0


def statuses(pos, code: int) -> list[list[int]]:
    return pirate(pos, code).statuses


# --- cures ----------------------------------------------------------------------------------


def test_a_cure_removes_the_named_status_only(engine) -> None:
    pos = ready(position(hands=[["Antidote", "Antidote"], []]))
    put_status(pos, 1, DRUNK, 2, slot=0)
    put_status(pos, 1, POISON, 2, slot=1)
    do(engine, pos, play("Antidote", 1))
    assert statuses(pos, 1) == [[DRUNK, 2], [0, 0]]
    do(engine, pos, play("Antidote", 1))  # no poison left: nothing changes
    assert statuses(pos, 1) == [[DRUNK, 2], [0, 0]]


def test_a_cure_of_all_removes_every_status(engine) -> None:
    pos = ready(position(hands=[["Purge"], []]))
    put_status(pos, 0, BURN, 3, slot=0)
    put_status(pos, 0, IMMOBILISED, 4, slot=1)
    put_status(pos, 1, DRUNK, 2)
    do(engine, pos, play("Purge", 0))
    assert statuses(pos, 0) == [[0, 0], [0, 0]]
    assert statuses(pos, 1) == [[DRUNK, 2], [0, 0]]  # only the chosen pirate


def test_pomegranate_heals_and_cures_the_fed_pirates_poison(engine) -> None:
    pos = ready(position(hands=[["Pomegranate"], []]))
    pirate(pos, 1).life = 1
    put_status(pos, 1, POISON, 3)  # applied this turn: it would bite at the start of 4
    assert options(engine, pos).count(play("Pomegranate", 1)) == 1
    do(engine, pos, play("Pomegranate", 1))
    assert pirate(pos, 1).life == 2
    assert statuses(pos, 1) == [[0, 0], [0, 0]]
    engine.end_turn(pos, dice())
    engine.start_turn(pos, dice())  # turn 4: no poison left to bite
    assert pirate(pos, 1).life == 2


# --- burns and poisons that last N turns ------------------------------------------------------


def test_a_burn_for_3_turns_hurts_at_the_end_of_each_of_the_next_3_game_turns(engine) -> None:
    pos = ready(position(hands=[["Long Fire"], []]))
    do(engine, pos, play("Long Fire", 3))
    assert statuses(pos, 3)[0] == [BURN, 3 + 2 * STRIKES_STEP]
    engine.end_turn(pos, dice())  # end of turn 3, the one it was applied in: nothing
    assert (pirate(pos, 3).life, pos.turn) == (2, 4)
    engine.end_turn(pos, dice())  # end of 4: 1 damage
    assert pirate(pos, 3).life == 1
    pirate(pos, 3).life = 2
    engine.end_turn(pos, dice())  # end of 5: 1 damage, still burning
    assert pirate(pos, 3).life == 1
    assert statuses(pos, 3)[0][0] == BURN
    pirate(pos, 3).life = 2
    engine.end_turn(pos, dice())  # end of 6, the last: 1 damage, then gone
    assert pirate(pos, 3).life == 1
    assert statuses(pos, 3) == [[0, 0], [0, 0]]
    engine.end_turn(pos, dice())  # end of 7: nothing
    assert pirate(pos, 3).life == 1


def test_a_poison_for_2_turns_bites_at_the_start_of_each_of_the_next_2(engine) -> None:
    pos = ready(position(hands=[["Long Poison"], []]))
    do(engine, pos, play("Long Poison", 2))
    assert statuses(pos, 2)[0] == [POISON, 3 + STRIKES_STEP]
    engine.end_turn(pos, dice())
    engine.start_turn(pos, dice())  # start of 4: bites
    assert pirate(pos, 2).life == 1
    assert statuses(pos, 2)[0][0] == POISON
    engine.end_turn(pos, dice())
    engine.start_turn(pos, dice())  # start of 5: bites again and is gone; 0 life: dead
    assert pirate(pos, 2).zone == -1
    assert statuses(pos, 2) == [[0, 0], [0, 0]]


def test_renewing_a_long_burn_applies_it_anew(engine) -> None:
    # A 3-turn burn applied in turn 3, renewed in turn 5 by a one-strike burn: it now
    # strikes once, at the end of turn 6 (not 4..6 any more, and not after).
    pos = ready(position(turn=5, hands=[["Spark"], []]))
    put_status(pos, 3, BURN, 3 + 2 * STRIKES_STEP)
    do(engine, pos, play("Spark", 3))
    assert statuses(pos, 3)[0] == [BURN, 5]
    engine.end_turn(pos, dice())  # end of 5: nothing (renewed this turn)
    assert pirate(pos, 3).life == 2
    engine.end_turn(pos, dice())  # end of 6: the one strike
    assert (pirate(pos, 3).life, statuses(pos, 3)[0]) == (1, [0, 0])


def test_greek_fire_burns_for_3_turns_on_a_hit(engine) -> None:
    pos = ready(position(hands=[["Greek Fire"], []]))
    do(engine, pos, play("Greek Fire"))
    do(engine, pos, (FIRE, 0, AMMO_CURSED, -1), 4, 1)  # hit; below(2) = 1: pirate 3
    assert pos.sides[1].holes == 1
    assert statuses(pos, 3)[0] == [BURN, 3 + 2 * STRIKES_STEP]
    for _ in range(3):  # the ends of turns 3, 4, 5
        engine.end_turn(pos, dice())
    assert pirate(pos, 3).zone == -1  # 2 strikes by the end of 5: dead


# --- turns counted in the owner's own turns ---------------------------------------------------


def test_own_turns_of_the_enemy_last_2n_game_turns(engine) -> None:
    # 2 turns of the enemy pirate's owner, played in turn 3 (ours): turns 4 and 6 are its
    # owner's, so 4 game turns (3 to 6).
    pos = ready(position(hands=[["Long Grog", "Heavy Anchor"], []]))
    do(engine, pos, play("Long Grog", 2))
    assert statuses(pos, 2)[0] == [DRUNK, 4]
    do(engine, pos, play("Heavy Anchor"))  # 1 enemy turn: 2 game turns (3, 4)
    assert pos.sides[1].anchor == 2


def test_own_turns_of_the_player_last_2n_minus_1_game_turns(engine) -> None:
    # 2 of our turns, played in our turn 3: turns 3 and 5, so 3 game turns.
    pos = ready(position(hands=[["Own Anchor"], []]))
    do(engine, pos, play("Own Anchor"))
    assert pos.sides[0].anchor == 3
    for turn in (4, 5):
        pos.turn = turn
        engine.start_turn(pos, dice())
        assert pos.sides[0].anchor >= 1, turn  # still down through our turn 5
    pos.turn = 6
    engine.start_turn(pos, dice())
    assert pos.sides[0].anchor == -1


def test_own_turns_are_converted_for_each_pirates_owner(engine) -> None:
    # Tar Deck: every pirate aboard our ship, immobilised for 1 of its owner's turns: our
    # pirate 0 for this turn (1 game turn), the enemy's pirate 2 for its next turn (2).
    pos = ready(position(hands=[["Tar Deck"], []]))
    pirate(pos, 1).zone = ISLAND
    pirate(pos, 2).zone = 0
    do(engine, pos, play("Tar Deck"))
    assert statuses(pos, 0)[0] == [IMMOBILISED, 1]
    assert statuses(pos, 2)[0] == [IMMOBILISED, 2]
    assert statuses(pos, 1)[0] == [0, 0]


def test_a_ship_trigger_counts_own_turns_from_the_turn_it_fires_in(engine) -> None:
    # The ship's trigger fires at the start of its owner's turn 5, before the countdown:
    # pacified for 1 enemy turn = 2 game turns (5, 6), + 1 for the countdown = 3, then 2
    # after it; the own anchor for 1 own turn = 1 game turn + 1, then 1: this turn only.
    rows = (
        (PACIFY_CANNONS, ENEMY_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS),
        (ANCHOR_DOWN, OWN_SHIP, 0, 1, 0, 0, 0, 0, OWN_TURNS),
    )
    c = content(ship_trigger=((OWN_WATER_AT_LEAST, 10), (0, 0)), ship_program=(rows, ()))
    pos = position(turn=5, content=c)
    pos.sides[0].water = 10
    engine.start_turn(pos, dice())
    assert (pos.sides[1].pacified, pos.sides[0].anchor) == (2, 1)


# --- draw-pile discards -----------------------------------------------------------------------


def test_whirlpool_sends_the_top_two_enemy_cards_to_its_discard_pile(engine) -> None:
    pos = ready(position(hands=[["Whirlpool"], []]))
    do(engine, pos, play("Whirlpool"))
    assert pos.sides[1].deck_pos == 2
    assert pos.sides[1].discard == [card("Rum"), card("Insult")]  # the top two, in order
    assert pos.sides[1].hand == []
    assert pos.sides[0].discard == [card("Whirlpool")]


def test_a_draw_pile_discard_stops_at_an_empty_pile(engine) -> None:
    pos = ready(position(hands=[["Whirlpool", "Jettison"], []], deck_pos=(20, 19)))
    do(engine, pos, play("Whirlpool"))
    assert pos.sides[1].deck_pos == 20
    assert pos.sides[1].discard == [card("Pickpocket")]
    do(engine, pos, play("Jettison"))  # our own pile is empty already: nothing
    assert pos.sides[0].deck_pos == 20
    assert pos.sides[0].discard == [card("Whirlpool"), card("Jettison")]


def test_a_draw_pile_discard_can_complete_the_enemys_original_sin(engine) -> None:
    pos = ready(position(hands=[["Whirlpool"], []], deck_pos=(0, 8)))  # Colère, Orgueil
    pos.sides[1].sins = ALL_SINS & ~(1 << 5) & ~(1 << 6)
    do(engine, pos, play("Whirlpool"))
    assert (pos.over, pos.winner, pos.reason) == (True, 0, BY_SIN)
    assert pos.sides[1].discard == [card("Colère"), card("Orgueil")]


def test_a_draw_pile_discard_brings_the_red_sea_nearer(engine) -> None:
    pos = ready(position(hands=[["Whirlpool"], []], deck_pos=(0, 18)))
    do(engine, pos, play("Whirlpool"))
    engine.end_turn(pos, dice())
    engine.start_turn(pos, dice())  # seat 1 draws nothing: the Red Sea, a hole
    assert (pos.sides[1].holes, pos.sides[1].hand) == (1, [])


# --- conditions -------------------------------------------------------------------------------


def _anchor(pos, s):
    pos.sides[s].anchor = 0


def _mast(pos, s):
    pos.sides[s].mast = 3


def _holes(pos, s):
    pos.sides[s].holes, pos.sides[s].intact = 2, 3


def _dead(pos, s):
    kill(pos, 2 * s + 1)


def _red_sea(pos, s):
    pos.sides[s].deck_pos = 20


def _water(pos, s):
    pos.sides[s].water = 40


CONDITIONS = [
    (OWN_ANCHOR_DOWN, 0, 0, _anchor),
    (ENEMY_ANCHOR_DOWN, 0, 1, _anchor),
    (OWN_MAST_BROKEN, 0, 0, _mast),
    (ENEMY_MAST_BROKEN, 0, 1, _mast),
    (OWN_HOLES_AT_LEAST, 2, 0, _holes),
    (ENEMY_HOLES_AT_LEAST, 2, 1, _holes),
    (OWN_PIRATE_DEAD, 0, 0, _dead),
    (ENEMY_PIRATE_DEAD, 0, 1, _dead),
    (OWN_RED_SEA, 0, 0, _red_sea),
    (ENEMY_RED_SEA, 0, 1, _red_sea),
    (OWN_WATER_AT_LEAST, 40, 0, _water),
    (ENEMY_WATER_AT_LEAST, 40, 1, _water),
]


@pytest.mark.parametrize(("condition", "value", "side", "make"), CONDITIONS)
def test_each_condition_holds_on_its_side_only(engine, condition, value, side, make) -> None:
    row = [(LOSE, OWN, 1, 0, PLANK, 0, condition, value)]
    pos = position()
    engine.apply_program(pos, 0, row, -1, -1, dice())
    assert pos.sides[0].provisions[PLANK] == 10  # not yet
    make(pos, 1 - side)  # the other side's state: still no
    engine.apply_program(pos, 0, row, -1, -1, dice())
    assert pos.sides[0].provisions[PLANK] == 10
    make(pos, side)
    engine.apply_program(pos, 0, row, -1, -1, dice())
    assert pos.sides[0].provisions[PLANK] == 9


@pytest.mark.parametrize("value", [2, 3])
def test_holes_at_least_counts_the_holes(engine, value) -> None:
    row = [(LOSE, OWN, 1, 0, PLANK, 0, ENEMY_HOLES_AT_LEAST, value)]
    pos = position()
    _holes(pos, 1)  # 2 holes
    engine.apply_program(pos, 0, row, -1, -1, dice())
    assert pos.sides[0].provisions[PLANK] == (9 if value == 2 else 10)


# --- ship triggers ----------------------------------------------------------------------------

SHIP_WHEN = [
    (OWN_MAST_BROKEN, 0, _mast),
    (OWN_ANCHOR_DOWN, 0, _anchor),
    (OWN_HOLES_AT_LEAST, 2, _holes),
    (OWN_PIRATE_DEAD, 0, _dead),
    (OWN_RED_SEA, 0, _red_sea),
]


@pytest.mark.parametrize(("when", "value", "make"), SHIP_WHEN)
def test_a_ship_trigger_fires_once_when_its_condition_first_holds(engine, when, value, make):
    c = content(
        ship_trigger=((when, value), (0, 0)), ship_program=(((GAIN, OWN, 3, 0, PLANK),), ())
    )
    pos = position(content=c)
    pos.sides[0].provisions[PLANK] = 5
    engine.start_turn(pos, dice())  # turn 3: not yet
    assert (pos.sides[0].provisions[PLANK], pos.sides[0].triggered) == (5, False)
    make(pos, 1)  # the enemy's state does not count
    pos.turn = 5
    engine.start_turn(pos, dice())
    assert pos.sides[0].provisions[PLANK] == 5
    make(pos, 0)
    pos.turn = 7
    engine.start_turn(pos, dice())  # fires, for its owner
    assert (pos.sides[0].provisions[PLANK], pos.sides[0].triggered) == (8, True)
    pos.turn = 9
    make(pos, 0)
    engine.start_turn(pos, dice())  # once a game
    assert pos.sides[0].provisions[PLANK] == 8


def test_phantom_fires_at_the_start_of_its_turn_after_its_mast_breaks(engine) -> None:
    # Phantom: when its mast is broken, it heals every pirate aboard and burns a random
    # enemy pirate. The enemy breaks the mast in its turn 4; the trigger fires at the start
    # of the owner's turn 5, not before.
    rows = ((HEAL, PIRATES_OWN_SHIP, 1), (STATUS, RANDOM_ENEMY_PIRATE, 0, 0, BURN))
    c = content(ship_trigger=((OWN_MAST_BROKEN, 0), (0, 0)), ship_program=(rows, ()))
    pos = position(turn=4, content=c)
    pirate(pos, 0).life = 1
    engine.apply_program(
        pos, 1, [(MAST_BROKEN, ENEMY_SHIP, 0, 0, 0, 0, 0, 0)], -1, -1, dice()
    )  # seat 1's
    assert pos.sides[0].mast == 0 and not pos.sides[0].triggered
    engine.end_turn(pos, dice())
    engine.start_turn(pos, dice(0))  # turn 5: below(2) = 0: pirate 2 burns
    assert pos.sides[0].triggered
    assert pirate(pos, 0).life == 2
    assert statuses(pos, 2)[0] == [BURN, 5]


# --- the island's visitor ---------------------------------------------------------------------


def test_siren_rock_heals_the_visitor_only(engine) -> None:
    pos = ready(position())
    pos.island = [(card("Siren Rock"), 1)]
    pirate(pos, 0).life = pirate(pos, 1).life = 1
    pirate(pos, 3).zone, pirate(pos, 3).life = ISLAND, 1  # an enemy on the island
    pos.sides[0].provisions = [10, 12, 4, 2, 2]  # nothing to take back: at once
    do(engine, pos, (MOVE_TO, 1, ISLAND, -1))
    assert [pirate(pos, c).life for c in range(4)] == [1, 2, 2, 1]


def test_the_visitor_is_healed_after_the_last_provision_taken(engine) -> None:
    pos = ready(position())
    pos.island = [(card("Siren Rock"), 1)]
    pirate(pos, 0).life = 1
    pos.sides[0].provisions = [10, 11, 4, 2, 2]  # one cannonball short
    do(engine, pos, (MOVE_TO, 0, ISLAND, -1))
    assert pirate(pos, 0).life == 1
    assert pos.visitor == 0
    do(engine, pos, (TAKE, -1, 1, -1))
    assert pirate(pos, 0).life == 2
    assert pos.visitor == -1


def test_a_visitor_killed_by_an_island_card_is_no_target_any_more(engine) -> None:
    pos = ready(position())
    pos.island = [(card("Deadly Reef"), 1), (card("Siren Rock"), 1)]
    do(engine, pos, (MOVE_TO, 1, ISLAND, -1))  # the reserve is full: the cards at once
    assert (pirate(pos, 1).zone, pirate(pos, 1).life) == (-1, 0)
    assert pos.seat_stats[0][SEAT_STAT.DEATHS] == 1  # it died once, and was not healed


# --- cards whose condition is false are not offered ------------------------------------------


def test_sitting_duck_is_offered_only_with_the_enemy_anchor_down(engine) -> None:
    pos = ready(position(hands=[["Sitting Duck"], []]))
    assert play("Sitting Duck") not in options(engine, pos)
    pos.sides[0].anchor = 0  # our own anchor does not count
    assert play("Sitting Duck") not in options(engine, pos)
    pos.sides[1].anchor = 2  # timed or not
    do(engine, pos, play("Sitting Duck"))
    assert pos.sides[1].holes == 1


def test_a_card_is_offered_while_any_of_its_conditions_holds(engine) -> None:
    pos = ready(position(hands=[["Either Way", "Half Duck"], []]))
    found = options(engine, pos)
    assert play("Either Way") not in found
    assert play("Half Duck") in found  # an effect without a condition
    _holes(pos, 0)  # the second effect's condition
    pos.sides[0].provisions[PLANK] = 9  # room in the reserve for the plank
    assert play("Either Way") in options(engine, pos)
    do(engine, pos, play("Either Way"))
    assert (pos.sides[1].holes, pos.sides[0].provisions[PLANK]) == (0, 10)


def test_food_is_offered_whatever_its_condition(engine) -> None:
    pos = ready(position(hands=[["Lucky Stew"], []]))
    pirate(pos, 0).life = 1
    do(engine, pos, play("Lucky Stew", 0))
    assert (pirate(pos, 0).life, pos.sides[0].provisions[PLANK]) == (2, 10)


def test_island_cards_and_cursed_balls_are_offered_whatever_their_conditions(engine) -> None:
    pos = ready(position(hands=[["Quiet Cove", "Lucky Shot"], []]))
    found = options(engine, pos)
    assert play("Quiet Cove") in found
    assert play("Lucky Shot") in found


def test_an_item_is_activated_only_while_its_condition_holds(engine) -> None:
    pos = ready(position())
    pirate(pos, 0).item = card("Signal Flag")
    assert not any(o[0] == ACTIVATE for o in options(engine, pos))
    pos.sides[0].mast = 0
    do(engine, pos, (ACTIVATE, 0, -1, -1))
    assert pirate(pos, 0).actions == 1  # spent, then one more


# --- what the heuristics think they are worth ------------------------------------------------


def test_a_card_whose_condition_is_false_is_worth_nothing() -> None:
    pos = ready(position())
    duck = card("Sitting Duck")
    assert kit.card_worth_nb(view_of(pos), 0, duck, -1) == 0.0
    pos.sides[1].anchor = 0
    assert kit.card_worth_nb(view_of(pos), 0, duck, -1) == 3.0  # a hole


def test_a_cure_is_worth_what_the_status_would_cost() -> None:
    pos = ready(position())
    pomegranate = card("Pomegranate")
    healthy = kit.card_worth_nb(view_of(pos), 0, pomegranate, 1)
    put_status(pos, 1, POISON, 3)
    assert kit.card_worth_nb(view_of(pos), 0, pomegranate, 1) == healthy + 2.0
    # a burn that strikes 3 times is worth 3 single ones to the enemy's cost
    one = kit.card_worth_nb(view_of(pos), 0, card("Spark"), 2)
    three = kit.card_worth_nb(view_of(pos), 0, card("Long Fire"), 2)
    assert (one, three) == (1.0, 3.0)
    whirlpool = kit.card_worth_nb(view_of(pos), 0, card("Whirlpool"), -1)
    jettison = kit.card_worth_nb(view_of(pos), 0, card("Jettison"), -1)
    assert whirlpool > 0.0 > jettison


def test_every_stat_is_summed_by_one_compiled_function() -> None:
    """The loop asks for the modifiers of one stat or another, each a constant: the sum is
    passed it as an int64, so that numba compiles the function once, not once a stat."""
    from numba import njit

    from balance.games.battle_of_thieves import engine_nb as nb
    from balance.games.battle_of_thieves.engine import content_arrays

    from .conftest import CONTENT

    cannon, bail = nb.CANNON_ROLL, nb.BAIL  # constants to the compiled code, as in the loop

    @njit
    def cannon_and_bail(content, pirate):
        return nb.mod_sum_nb(content, pirate, 0, cannon), nb.mod_sum_nb(content, pirate, 0, bail)

    pirate = nb.new_position()[1]
    assert cannon_and_bail(content_arrays(CONTENT), pirate) == (0, 0)  # no card in play
    assert {str(s[-1]) for s in nb.mod_sum_of_nb.signatures} == {"int64"}
