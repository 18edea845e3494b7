"""Battle of Thieves rule by rule: hand-built positions, scripted dice, the exact result.

Every expected value is worked out by hand from the rules and decisions that
``docs/battle-of-thieves.md`` states, never read off an engine. Each
scenario runs on both engines (the ``engine`` fixture). Positions come from ``build``
(see ``conftest.py``): decks unshuffled, both ships as at set-up, pirates 0 and 1 (seat 0)
aboard ship 0, pirates 2 and 3 (seat 1) aboard ship 1, no actions until ``ready``.
Game turn 1, 3, 5... is seat 0's; 2, 4, 6... seat 1's. Default rules: hits on 4, 5 hole
tokens, sinks at 100, 10 water a hole, bail 50, island take 5, reserve 30, anchor -2,
chaos -1. Test weapons hit on 4 for 1 damage. Starting reserve 10 planks, 12 cannonballs,
4 food, 2 chaos balls, 2 incendiary balls.
"""

from __future__ import annotations

import pytest

from balance.core.random_ref import Stream
from balance.games.battle_of_thieves import reference
from balance.games.battle_of_thieves.content import make_content
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ACTIVATE,
    ALL_SINS,
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
    BAIL_WATER,
    BOARDER,
    BURN,
    BY_SIN,
    BY_WATER,
    CANNON_MODIFIER,
    CANNONBALL,
    CAPPED,
    CARD_STAT,
    CHAOS_BALL,
    CLEAR_ISLAND,
    CURSED_BALL,
    DAMAGE,
    DEAD,
    DISARMED,
    DISCARD,
    DRAW,
    DRUNK,
    EAT,
    EFFECT,
    END_TURN,
    ENEMY,
    ENEMY_ANCHOR_DOWN,
    ENEMY_PIRATE,
    ENEMY_SHIP,
    EVENT,
    EXTRA_ACTION,
    FIRE,
    FOOD_PROVISION,
    GAIN,
    GAME_STAT,
    HEAL,
    HIT_PIRATE,
    HOLE,
    IF_HIT,
    IF_WON,
    IMMOBILISED,
    INCENDIARY_BALL,
    INSULT,
    ISLAND,
    ISLAND_TAKE,
    ITEM,
    LOSE,
    MAST_BROKEN,
    MAX_CANNON_MODS,
    MOVE,
    MOVE_TO,
    NO_BUCKET,
    NO_CANNON,
    NO_REPAIR,
    ON_BOARDED,
    ON_HIT,
    ON_HITS,
    ON_TURN_START,
    OWN,
    OWN_PIRATE,
    OWN_PIRATE_BOARDING,
    OWN_PIRATE_ON_ISLAND,
    OWN_SHIP,
    OWN_WATER_AT_LEAST,
    PACIFY_CANNONS,
    PIRATES_ENEMY_SHIP,
    PIRATES_ISLAND,
    PIRATES_OWN_SHIP,
    PLANK,
    PLAY,
    POISON,
    RAISE_ANCHOR,
    RANDOM_ENEMY_PIRATE,
    REACH_ANY,
    REACH_HERE,
    REACH_SHIP,
    REPAIR,
    REPAIR_HOLE,
    REPAIR_MAST,
    SEAT_STAT,
    SELF,
    STATUS,
    STEAL,
    STRIP,
    TAKE,
    THE_ISLAND,
    TO_ENEMY_SHIP,
    TO_ISLAND,
    TO_OWN_SHIP,
    VISIT,
    WATER,
    WATER_AT_LEAST,
)
from balance.games.battle_of_thieves.reference import IllegalChoice, ScriptError
from balance.games.battle_of_thieves.rules import BattleRules

from .conftest import (
    CARDS,
    CONTENT,
    DECK_0,
    DECK_1,
    PROVISIONS,
    RULES,
    build,
    build_content,
    card,
    dice,
    kill,
    pirate,
    ready,
    set_status,
    used_up,
)

END = (END_TURN, -1, -1, -1)


# --- options in words -------------------------------------------------------


def move(who: int, zone: int) -> tuple[int, int, int, int]:
    return (MOVE_TO, who, zone, -1)


def bail(who: int) -> tuple[int, int, int, int]:
    return (BAIL_WATER, who, -1, -1)


def repair_hole(who: int) -> tuple[int, int, int, int]:
    return (REPAIR_HOLE, who, -1, -1)


def repair_mast(who: int) -> tuple[int, int, int, int]:
    return (REPAIR_MAST, who, -1, -1)


def raise_anchor(who: int) -> tuple[int, int, int, int]:
    return (RAISE_ANCHOR, who, -1, -1)


def fire(who: int, ammo: int = AMMO_CANNONBALL) -> tuple[int, int, int, int]:
    return (FIRE, who, ammo, -1)


def attack(who: int, weapon: int, target: int) -> tuple[int, int, int, int]:
    return (ATTACK, who, weapon, target)


def visit(who: int) -> tuple[int, int, int, int]:
    return (VISIT, who, -1, -1)


def activate(who: int, target: int = -1) -> tuple[int, int, int, int]:
    return (ACTIVATE, who, -1, target)


def eat(code: int) -> tuple[int, int, int, int]:
    return (EAT, -1, -1, code)


def play(name: str, target: int = -1) -> tuple[int, int, int, int]:
    return (PLAY, -1, card(name), target)


def options(engine, pos) -> list[tuple[int, int, int, int]]:
    """The legal options as plain tuples; listing them must not change the position."""
    before = pos.copy()
    found = [tuple(int(v) for v in option) for option in engine.legal_options(pos)]
    assert pos == before, "legal_options changed the position"
    return found


def do(engine, pos, option, *results: int) -> None:
    """Apply a legal option with these dice results, every one of them used."""
    d = dice(*results)
    engine.apply_option(pos, option, d)
    assert used_up(d), f"{d.left} scripted dice results left unused"


def program(engine, pos, seat, rows, choice=-1, *results: int, holder=-1, other=-1) -> None:
    """Apply program ``rows`` for ``seat`` with these dice results, all used (``other``:
    the pirate that set it off)."""
    d = dice(*results)
    rows = [list(r) + [0] * (EFFECT.SIZE - len(r)) for r in rows]
    engine.apply_program(pos, seat, rows, choice, holder, d, other=other)
    assert used_up(d), f"{d.left} scripted dice results left unused"


def stat(pos, seat: int, slot: int) -> int:
    return pos.seat_stats[seat][slot]


def next_turn(engine, pos, *results: int) -> None:
    """End the current turn and start the next one."""
    d = dice(*results)
    engine.end_turn(pos, d)
    engine.start_turn(pos, d)
    assert used_up(d)


def pirate_options(engine, pos, who: int) -> list[tuple[int, int, int, int]]:
    return [o for o in options(engine, pos) if o[1] == who and o[0] < EAT]


# ---------------------------------------------------------------------------
# Cannons: when, how often, what changes the roll
# ---------------------------------------------------------------------------


def test_no_cannon_fire_on_game_turn_1(engine) -> None:
    pos = ready(build(turn=1))
    # Both pirates aboard ship 0 with an action, nothing else to do but move.
    assert options(engine, pos) == [move(0, 1), move(0, 2), move(1, 1), move(1, 2), END]


def test_one_shot_only_on_game_turn_2(engine) -> None:
    pos = ready(build(turn=2))  # seat 1: pirates 2 and 3 aboard ship 1
    assert options(engine, pos) == [
        move(0, 0),
        move(0, 2),
        fire(0, AMMO_CANNONBALL),
        fire(0, AMMO_INCENDIARY),
        fire(0, AMMO_CHAOS),
        move(1, 0),
        move(1, 2),
        fire(1, AMMO_CANNONBALL),
        fire(1, AMMO_INCENDIARY),
        fire(1, AMMO_CHAOS),
        END,
    ]
    do(engine, pos, fire(0), 4)
    assert pos.sides[0].holes == 1
    # Pirate 0 has spent its action; pirate 1 may not fire a second shot on turn 2.
    assert options(engine, pos) == [move(1, 0), move(1, 2), END]


def test_two_shots_on_game_turn_3_with_two_pirates(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0), 3)  # 3 < 4: a miss
    assert fire(1) in options(engine, pos)
    do(engine, pos, fire(1), 6)
    assert pos.shots == 2
    assert pos.sides[1].holes == 1
    assert pos.sides[0].provisions[CANNONBALL] == 10
    assert stat(pos, 0, SEAT_STAT.SHOTS) == 2
    assert stat(pos, 0, SEAT_STAT.HITS) == 1


def test_a_shot_in_full(engine) -> None:
    pos = ready(build(turn=3))
    expected = pos.copy()
    do(engine, pos, fire(0), 5)
    expected.shots = 1
    expected.sides[0].pirates[0].actions = 0
    expected.sides[0].provisions[CANNONBALL] = 11
    expected.sides[1].intact = 4
    expected.sides[1].holes = 1
    expected.seat_stats[0][SEAT_STAT.SHOTS] = 1
    expected.seat_stats[0][SEAT_STAT.HITS] = 1
    expected.seat_stats[0][SEAT_STAT.HOLES_MADE] = 1
    expected.seat_stats[1][SEAT_STAT.HOLES_TAKEN] = 1
    assert pos == expected


@pytest.mark.parametrize(("roll", "hit"), [(4, True), (3, False)])
def test_a_shot_hits_exactly_at_cannon_hits_on(engine, roll, hit) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0), roll)
    assert pos.sides[1].holes == int(hit)
    assert stat(pos, 0, SEAT_STAT.HITS) == int(hit)
    assert stat(pos, 0, SEAT_STAT.SHOTS) == 1


@pytest.mark.parametrize(("roll", "hit"), [(6, True), (5, False)])
def test_a_non_default_cannon_hits_on(engine, roll, hit) -> None:
    pos = ready(build(turn=3, rules=BattleRules(cannon_hits_on=6)))
    do(engine, pos, fire(0), roll)
    assert pos.sides[1].holes == int(hit)


@pytest.mark.parametrize("anchor", [0, 2])  # untimed and timed: both -2
@pytest.mark.parametrize(("roll", "hit"), [(6, True), (5, False)])
def test_own_anchor_down_takes_2_off_cannon_rolls(engine, anchor, roll, hit) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].anchor = anchor
    do(engine, pos, fire(0), roll)  # 6 - 2 = 4 hits; 5 - 2 = 3 misses
    assert pos.sides[1].holes == int(hit)


def test_the_enemy_anchor_does_not_change_ones_rolls(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[1].anchor = 0
    do(engine, pos, fire(0), 4)
    assert pos.sides[1].holes == 1


def test_chaos_ball_takes_1_off_the_enemy_rolls_on_its_next_turn_only(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0, AMMO_CHAOS))  # no roll
    assert pos.sides[0].provisions[CHAOS_BALL] == 1
    assert pos.sides[1].chaos_turn == 4
    assert stat(pos, 0, SEAT_STAT.CHAOS_SHOTS) == 1
    assert stat(pos, 0, SEAT_STAT.SHOTS) == 0
    assert pos.shots == 1
    next_turn(engine, pos)  # turn 4, seat 1
    do(engine, pos, fire(0), 4)  # 4 - 1 = 3: a miss
    assert pos.sides[0].holes == 0
    do(engine, pos, fire(1), 5)  # 5 - 1 = 4: a hit
    assert pos.sides[0].holes == 1
    next_turn(engine, pos)  # turn 5, seat 0 (1 hole: water 10)
    next_turn(engine, pos)  # turn 6, seat 1: the penalty is over
    do(engine, pos, fire(0), 4)
    assert pos.sides[0].holes == 2


def test_the_chaos_penalty_does_not_touch_the_shooter(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0, AMMO_CHAOS))
    do(engine, pos, fire(1), 4)  # seat 0's own second shot: no penalty
    assert pos.sides[1].holes == 1


@pytest.mark.parametrize(("roll", "hit"), [(3, True), (4, False)])
def test_a_drunk_gunner_reads_the_die_upside_down(engine, roll, hit) -> None:
    pos = ready(build(turn=3))
    set_status(pos, 0, DRUNK, 2)
    do(engine, pos, fire(0), roll)  # 3 reads 4: a hit; 4 reads 3: a miss
    assert pos.sides[1].holes == int(hit)


@pytest.mark.parametrize(("roll", "hit"), [(2, True), (5, False)])
def test_a_drunk_attacker_reads_the_die_upside_down(engine, roll, hit) -> None:
    pos = ready(build(turn=1))
    pirate(pos, 0).zone = 1  # aboard the enemy ship, with pirates 2 and 3
    set_status(pos, 0, DRUNK, 1)
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), roll)  # 2 reads 5; 5 reads 2
    assert pirate(pos, 2).life == (1 if hit else 2)
    assert stat(pos, 0, SEAT_STAT.ATTACKS) == 1
    assert stat(pos, 0, SEAT_STAT.ATTACK_HITS) == int(hit)
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == int(hit)


def test_timed_cannon_modifiers_add_to_the_roll(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].cannon_mods = [[2, 1], [-1, 3]]
    do(engine, pos, fire(0), 3)  # 3 + 2 - 1 = 4: a hit
    assert pos.sides[1].holes == 1


def test_pacified_cannons_cannot_fire(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].pacified = 1
    assert [o for o in options(engine, pos) if o[0] == FIRE] == []


# ---------------------------------------------------------------------------
# Special ammunition
# ---------------------------------------------------------------------------


def test_incendiary_hit_burns_one_of_two_pirates_aboard_at_random(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0, AMMO_INCENDIARY), 4, 1)  # hit; below(2) = 1: pirate 3
    assert pos.sides[0].provisions[INCENDIARY_BALL] == 1
    assert pos.sides[1].holes == 1
    assert pirate(pos, 3).statuses == [[BURN, 3], [0, 0]]
    assert pirate(pos, 2).statuses == [[0, 0], [0, 0]]
    assert stat(pos, 0, SEAT_STAT.SHOTS) == 1


def test_incendiary_hit_burns_the_only_pirate_aboard_without_a_draw(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 2).zone = ISLAND
    do(engine, pos, fire(0, AMMO_INCENDIARY), 4)
    assert pirate(pos, 3).statuses[0] == [BURN, 3]
    assert pirate(pos, 2).statuses[0] == [0, 0]


def test_incendiary_hit_with_nobody_aboard_burns_nobody(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 2).zone = ISLAND
    kill(pos, 3)
    pirate(pos, 1).zone = 1  # own pirates aboard the enemy ship are not victims
    do(engine, pos, fire(0, AMMO_INCENDIARY), 5)
    assert pos.sides[1].holes == 1
    for code in range(4):
        assert pirate(pos, code).statuses == [[0, 0], [0, 0]]


def test_incendiary_miss_burns_nobody(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0, AMMO_INCENDIARY), 3)
    assert pos.sides[0].provisions[INCENDIARY_BALL] == 1
    assert pirate(pos, 2).statuses[0] == [0, 0]
    assert pirate(pos, 3).statuses[0] == [0, 0]


def test_cursed_ball_loads_then_is_the_only_ammunition(engine) -> None:
    pos = ready(build(turn=3, hands=[["Cursed Ball", "Cursed Ball"], []]))
    assert play("Cursed Ball") in options(engine, pos)
    do(engine, pos, play("Cursed Ball"))
    assert pos.sides[0].loaded == card("Cursed Ball")
    assert pos.sides[0].hand == [card("Cursed Ball")]
    assert stat(pos, 0, SEAT_STAT.CARDS_PLAYED) == 1
    assert pos.card_stats[0][5][CARD_STAT.PLAYED] == 1  # row 5 of deck 0
    # Loaded: only the cursed ball can be fired, and no second one can be loaded.
    assert options(engine, pos) == [
        move(0, 1),
        move(0, 2),
        fire(0, AMMO_CURSED),
        move(1, 1),
        move(1, 2),
        fire(1, AMMO_CURSED),
        END,
    ]


def test_cursed_ball_hit_makes_a_hole_then_applies_its_card(engine) -> None:
    pos = ready(build(turn=3, hands=[["Cursed Ball"], []]))
    do(engine, pos, play("Cursed Ball"))
    do(engine, pos, fire(1, AMMO_CURSED), 4)
    assert pos.sides[1].holes == 1
    assert pos.sides[1].water == 20
    assert pos.sides[0].loaded == -1
    assert pos.sides[0].discard == [card("Cursed Ball")]
    assert pos.sides[0].provisions[CANNONBALL] == 12  # no cannonball spent
    assert stat(pos, 0, SEAT_STAT.SHOTS) == 1
    assert stat(pos, 0, SEAT_STAT.HITS) == 1
    # The ball is fired: cannonballs may be fired again by the other pirate.
    assert fire(0, AMMO_CANNONBALL) in options(engine, pos)


def test_cursed_ball_miss_applies_its_card_without_a_hole(engine) -> None:
    # "le tir aura un effet indiqué sur la carte": the effect comes with the shot.
    pos = ready(build(turn=3, hands=[["Cursed Ball"], []]))
    do(engine, pos, play("Cursed Ball"))
    do(engine, pos, fire(0, AMMO_CURSED), 3)
    assert pos.sides[1].holes == 0
    assert pos.sides[1].water == 20
    assert pos.sides[0].discard == [card("Cursed Ball")]
    assert pos.sides[0].loaded == -1
    assert (stat(pos, 0, SEAT_STAT.SHOTS), stat(pos, 0, SEAT_STAT.HITS)) == (1, 0)


#: Cursed balls with effects that need a hit: 20 water with any shot, and on a hit the
#: mast broken for 2 turns; one that repairs the enemy ship (the hole comes first).
HIT_BALLS = [
    {
        "name": "Hook Ball",
        "type": CURSED_BALL,
        "program": [(WATER, ENEMY_SHIP, 20), (MAST_BROKEN, ENEMY_SHIP, 0, 2, 0, IF_HIT)],
    },
    {"name": "Mending Ball", "type": CURSED_BALL, "program": [(REPAIR, ENEMY_SHIP, 1)]},
    {"name": "Flood Ball", "type": CURSED_BALL, "program": [(WATER, ENEMY_SHIP, 100)]},
]


def hit_ball_position(name: str):
    content = make_content([*CARDS, *HIT_BALLS], [DECK_0, DECK_1], provisions=PROVISIONS)
    pos = ready(build(turn=3, content=content))
    pos.sides[0].hand = [content.card_id(name)]
    return pos, content


@pytest.mark.parametrize(("roll", "hit"), [(4, True), (3, False)])
def test_a_cursed_balls_hit_only_effect_needs_the_hit(engine, roll, hit) -> None:
    pos, content = hit_ball_position("Hook Ball")
    do(engine, pos, (PLAY, -1, content.card_id("Hook Ball"), -1))
    do(engine, pos, fire(0, AMMO_CURSED), roll)
    assert pos.sides[1].holes == int(hit)
    assert pos.sides[1].water == 20  # with any shot
    assert pos.sides[1].mast == (2 if hit else -1)  # on = "hit" only
    assert pos.sides[0].discard == [content.card_id("Hook Ball")]


def test_a_cursed_balls_hit_makes_its_hole_before_its_effect(engine) -> None:
    pos, content = hit_ball_position("Mending Ball")
    do(engine, pos, (PLAY, -1, content.card_id("Mending Ball"), -1))
    do(engine, pos, fire(0, AMMO_CURSED), 5)
    # The hole first (4 intact, 1 hole), then the repair of that hole.
    assert (pos.sides[1].holes, pos.sides[1].intact) == (0, 5)
    assert stat(pos, 0, SEAT_STAT.HITS) == 1


def test_a_cursed_balls_missed_shot_can_sink_the_enemy(engine) -> None:
    pos, content = hit_ball_position("Flood Ball")
    do(engine, pos, (PLAY, -1, content.card_id("Flood Ball"), -1))
    do(engine, pos, fire(0, AMMO_CURSED), 1)  # a miss: still 100 water
    assert (pos.over, pos.winner, pos.reason) == (True, 0, BY_WATER)
    assert pos.sides[1].holes == 0


def test_an_unfired_cursed_ball_is_discarded_at_the_end_of_the_turn(engine) -> None:
    pos = ready(build(turn=3, hands=[["Cursed Ball"], []]))
    do(engine, pos, play("Cursed Ball"))
    engine.end_turn(pos, dice())
    assert pos.sides[0].loaded == -1
    assert pos.sides[0].discard == [card("Cursed Ball")]
    assert pos.turn == 4


def test_a_cursed_ball_may_be_loaded_on_turn_1_but_not_fired(engine) -> None:
    pos = ready(build(turn=1, hands=[["Cursed Ball"], []]))
    do(engine, pos, play("Cursed Ball"))
    assert options(engine, pos) == [move(0, 1), move(0, 2), move(1, 1), move(1, 2), END]


# ---------------------------------------------------------------------------
# Deaths and revivals
# ---------------------------------------------------------------------------


def test_killed_on_the_enemy_turn_revives_at_the_owners_second_turn_after(engine) -> None:
    pos = ready(build(turn=2))  # seat 1's turn
    pirate(pos, 2).zone = 0  # pirate 2 boarded ship 0
    pirate(pos, 0).life = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 4)
    assert pirate(pos, 0).zone == DEAD
    assert pirate(pos, 0).life == 0
    assert stat(pos, 0, SEAT_STAT.DEATHS) == 1
    assert stat(pos, 1, SEAT_STAT.DAMAGE_DEALT) == 1
    next_turn(engine, pos)  # turn 3, seat 0: one marker back, still dead
    assert (pirate(pos, 0).zone, pirate(pos, 0).markers) == (DEAD, 1)
    assert pirate(pos, 0).actions == 0
    assert [o for o in options(engine, pos) if o[1] == 0] == []
    next_turn(engine, pos)  # turn 4, seat 1: no marker for seat 0
    assert pirate(pos, 0).markers == 1
    next_turn(engine, pos)  # turn 5, seat 0: both markers back, revives with an action
    p = pirate(pos, 0)
    assert (p.zone, p.life, p.markers, p.actions) == (0, 2, 0, 1)
    assert move(0, 1) in options(engine, pos)


def test_a_dead_pirate_has_no_options(engine) -> None:
    pos = ready(build(turn=3))
    kill(pos, 1)
    pirate(pos, 1).animal = card("Parrot")
    assert [o for o in options(engine, pos) if o[1] == 1] == []


# ---------------------------------------------------------------------------
# The start of a turn
# ---------------------------------------------------------------------------


def test_start_of_turn_in_full(engine) -> None:
    pos = build(turn=3, hands=[["Rum"], []])
    pos.sides[0].holes, pos.sides[0].intact = 2, 3
    pos.shots, pos.sides[0].special_used = 2, 1  # left over from the previous turn
    expected = pos.copy()
    engine.start_turn(pos, dice())
    expected.shots, expected.sides[0].special_used = 0, 0
    expected.sides[0].water = 20
    expected.sides[0].hand = [card("Rum"), card("Broadside")]
    expected.sides[0].deck_pos = 1
    expected.sides[0].pirates[0].actions = 1
    expected.sides[0].pirates[1].actions = 1
    expected.seat_stats[0][SEAT_STAT.CARDS_DRAWN] = 1
    expected.card_stats[0][0][CARD_STAT.DRAWN] = 1  # Broadside: row 0
    expected.card_stats[0][0][CARD_STAT.HELD] = 1
    expected.card_stats[0][3][CARD_STAT.HELD] = 1  # Rum: row 3
    assert pos == expected


def test_the_water_rises_first_and_can_sink_the_ship(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].holes, pos.sides[0].intact, pos.sides[0].water = 3, 2, 70
    engine.start_turn(pos, dice())
    assert pos.sides[0].water == 100
    assert (pos.over, pos.winner, pos.reason, pos.turn) == (True, 1, BY_WATER, 3)
    assert pos.sides[0].deck_pos == 0  # nothing after the loss: no draw


def test_red_sea_takes_a_hole_when_the_deck_is_empty(engine) -> None:
    pos = build(turn=3, deck_pos=(20, 0))
    engine.start_turn(pos, dice())
    assert pos.sides[0].hand == []
    assert (pos.sides[0].intact, pos.sides[0].holes, pos.sides[0].water) == (4, 1, 0)
    assert stat(pos, 0, SEAT_STAT.RED_SEA) == 1
    assert stat(pos, 0, SEAT_STAT.HOLES_TAKEN) == 1
    assert stat(pos, 1, SEAT_STAT.HOLES_MADE) == 0
    assert stat(pos, 0, SEAT_STAT.CARDS_DRAWN) == 0


def test_red_sea_with_no_intact_token_raises_the_water(engine) -> None:
    pos = build(turn=3, deck_pos=(20, 0))
    pos.sides[0].holes, pos.sides[0].intact = 5, 0
    engine.start_turn(pos, dice())
    assert pos.sides[0].water == 60  # 5 holes x 10, then 10 for the Red Sea
    assert pos.sides[0].holes == 5
    assert stat(pos, 0, SEAT_STAT.HOLES_TAKEN) == 0
    assert stat(pos, 0, SEAT_STAT.RED_SEA) == 1
    assert not pos.over


def test_red_sea_can_sink_the_ship(engine) -> None:
    pos = build(turn=3, deck_pos=(20, 0))
    pos.sides[0].holes, pos.sides[0].intact, pos.sides[0].water = 5, 0, 40
    engine.start_turn(pos, dice())
    assert pos.sides[0].water == 100
    assert (pos.over, pos.winner, pos.reason) == (True, 1, BY_WATER)
    assert pirate(pos, 0).actions == 0  # the turn never began


def test_held_counts_every_copy_in_hand_after_the_draw(engine) -> None:
    pos = build(turn=1, hands=[["Rum", "Broadside"], []])
    engine.start_turn(pos, dice())  # draws Broadside (the top of deck 0)
    assert pos.card_stats[0][0][CARD_STAT.HELD] == 2  # two Broadsides
    assert pos.card_stats[0][3][CARD_STAT.HELD] == 1
    assert pos.card_stats[1][0][CARD_STAT.HELD] == 0


def test_ship_trigger_fires_once_when_the_water_reaches_its_level(engine) -> None:
    content = build_content(
        ship_trigger=((1, 30), (0, 0)),  # WATER_AT_LEAST 30
        ship_program=(((GAIN, OWN, 3, 0, PLANK),), ()),
    )
    pos = build(turn=3, content=content)
    pos.sides[0].provisions[PLANK] = 5
    pos.sides[0].holes, pos.sides[0].intact, pos.sides[0].water = 1, 4, 10
    engine.start_turn(pos, dice())  # water 20: not yet
    assert (pos.sides[0].provisions[PLANK], pos.sides[0].triggered) == (5, False)
    pos.turn = 5
    engine.start_turn(pos, dice())  # water 30: fires
    assert (pos.sides[0].provisions[PLANK], pos.sides[0].triggered) == (8, True)
    pos.turn = 7
    engine.start_turn(pos, dice())  # water 40: already fired
    assert pos.sides[0].provisions[PLANK] == 8


# ---------------------------------------------------------------------------
# Bailing, repairing, the anchor
# ---------------------------------------------------------------------------


def test_bailing_stops_at_zero(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].water = 30
    do(engine, pos, bail(0))
    assert pos.sides[0].water == 0
    assert stat(pos, 0, SEAT_STAT.WATER_BAILED) == 30
    assert pirate(pos, 0).actions == 0
    assert bail(1) not in options(engine, pos)  # nothing left to bail


def test_bailing_adds_the_pirates_bail_modifiers(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].water = 90
    pirate(pos, 1).animal = card("Hound")  # bails 20 more
    do(engine, pos, bail(1))
    assert pos.sides[0].water == 20
    assert stat(pos, 0, SEAT_STAT.WATER_BAILED) == 70


def test_bailing_with_a_ship_modifier(engine) -> None:
    from balance.games.battle_of_thieves.layout import BAIL

    content = build_content(ship_mods=(((BAIL, -30),), ()))
    pos = ready(build(turn=3, content=content))
    pos.sides[0].water = 90
    do(engine, pos, bail(0))
    assert pos.sides[0].water == 70  # 50 - 30 = 20 bailed


def test_bailing_needs_the_pirate_aboard_its_own_ship(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].water = 30
    pirate(pos, 0).zone = ISLAND
    assert bail(0) not in options(engine, pos)
    assert bail(1) in options(engine, pos)


def test_repairing_a_hole_in_full(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].holes, pos.sides[0].intact = 2, 3
    expected = pos.copy()
    do(engine, pos, repair_hole(0))
    expected.sides[0].holes, expected.sides[0].intact = 1, 4
    expected.sides[0].provisions[PLANK] = 9
    expected.sides[0].pirates[0].actions = 0
    expected.seat_stats[0][SEAT_STAT.HOLES_REPAIRED] = 1
    assert pos == expected


@pytest.mark.parametrize(
    ("rule", "mast", "offered"),
    [("untimed", 0, True), ("untimed", 2, False), ("always", 0, True), ("always", 2, True)],
)
def test_repairing_the_mast_by_the_rule_mast_repair(engine, rule, mast, offered) -> None:
    # untimed (the default): only a mast broken with no time limit may be repaired ("vous
    # ne pouvez le faire que si l'état ... n'est pas soumis à une limite de temps").
    pos = ready(build(turn=3, rules=BattleRules(mast_repair=rule)))
    assert repair_mast(0) not in options(engine, pos)  # intact
    pos.sides[0].mast = mast  # broken with no time limit, or for 2 more turns
    assert (repair_mast(0) in options(engine, pos)) == offered
    if not offered:
        with pytest.raises(IllegalChoice):
            engine.apply_option(pos, repair_mast(0), dice())
        return
    do(engine, pos, repair_mast(0))
    assert pos.sides[0].mast == -1
    assert pos.sides[0].provisions[PLANK] == 9
    assert pirate(pos, 0).actions == 0


def test_a_mast_broken_for_2_turns_mends_by_itself_unrepaired(engine) -> None:
    pos = ready(build(turn=2))  # seat 1 breaks seat 0's mast for 2 turns: turns 2 and 3
    program(engine, pos, 1, [(MAST_BROKEN, ENEMY_SHIP, 0, 2)])
    assert pos.sides[0].mast == 2
    next_turn(engine, pos)  # turn 3, seat 0: broken 1 more turn, planks to spare
    assert pos.sides[0].mast == 1
    assert REPAIR_MAST not in {o[0] for o in options(engine, pos)}
    next_turn(engine, pos)  # turn 4: mended
    assert pos.sides[0].mast == -1
    assert pos.sides[0].provisions[PLANK] == 10


def test_no_repair_without_planks(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].holes, pos.sides[0].intact, pos.sides[0].mast = 1, 4, 0
    pos.sides[0].provisions[PLANK] = 0
    kinds = {o[0] for o in options(engine, pos)}
    assert REPAIR_HOLE not in kinds and REPAIR_MAST not in kinds


def test_raising_the_anchor_only_when_lowered_without_a_time_limit(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].anchor = 3
    assert raise_anchor(0) not in options(engine, pos)
    pos.sides[0].anchor = 0
    assert raise_anchor(0) in options(engine, pos)
    do(engine, pos, raise_anchor(0))
    assert pos.sides[0].anchor == -1
    assert pirate(pos, 0).actions == 0


# ---------------------------------------------------------------------------
# Moving and boarding
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("anchor", "mast"), [(0, -1), (2, -1), (-1, 0), (-1, 3)])
def test_free_boarding_with_the_enemy_anchor_down_or_mast_broken(engine, anchor, mast) -> None:
    pos = build(turn=3)  # no actions
    pos.sides[1].anchor, pos.sides[1].mast = anchor, mast
    assert options(engine, pos) == [move(0, 1), move(1, 1), END]
    do(engine, pos, move(0, 1))
    assert pirate(pos, 0).zone == 1
    assert pirate(pos, 0).actions == 0
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 1


def test_free_boarding_keeps_the_pirates_action(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[1].anchor = 0
    do(engine, pos, move(0, 1))
    assert pirate(pos, 0).actions == 1
    # Aboard the enemy ship it may still act: back home costs the action.
    do(engine, pos, move(0, 0))
    assert pirate(pos, 0).actions == 0
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 1


def test_boarding_costs_an_action_otherwise(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].anchor = 0  # one's own anchor does not make boarding free
    assert options(engine, pos) == [END]
    ready(pos)
    do(engine, pos, move(1, 1))
    assert pirate(pos, 1).actions == 0
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 1


def test_free_boarding_only_from_ones_own_ship(engine) -> None:
    pos = build(turn=3)
    pos.sides[1].anchor = 0
    pirate(pos, 0).zone = ISLAND
    assert options(engine, pos) == [move(1, 1), END]


def test_moving_to_the_island_is_not_a_boarding(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, move(0, ISLAND))
    assert pirate(pos, 0).zone == ISLAND
    assert pirate(pos, 0).actions == 0
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 0


def test_from_the_island_to_the_enemy_ship_is_not_a_boarding(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = ISLAND
    pos.sides[1].anchor = 0  # and not free either: it does not leave its own ship
    do(engine, pos, move(0, 1))
    assert pirate(pos, 0).zone == 1
    assert pirate(pos, 0).actions == 0
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 0


# ---------------------------------------------------------------------------
# Statuses: what they take away, when they act, how long they last
# ---------------------------------------------------------------------------


def busy_position():
    """Seat 0's turn 3: pirate 0 aboard with water, a hole, a broken mast, and enemy
    pirate 2 aboard too, so that every kind of action is open to it."""
    pos = ready(build(turn=3))
    pos.sides[0].water = 20
    pos.sides[0].holes, pos.sides[0].intact = 1, 4
    pos.sides[0].mast = 0
    pirate(pos, 2).zone = 0
    return pos


ALL_PIRATE_0 = [
    move(0, 1),
    move(0, 2),
    bail(0),
    repair_hole(0),
    repair_mast(0),
    fire(0, AMMO_CANNONBALL),
    fire(0, AMMO_INCENDIARY),
    fire(0, AMMO_CHAOS),
    attack(0, 0, ATTACK_PIRATE + 0),
    attack(0, 1, ATTACK_PIRATE + 0),
]


def test_a_pirate_without_statuses_has_every_action(engine) -> None:
    assert pirate_options(engine, busy_position(), 0) == ALL_PIRATE_0


@pytest.mark.parametrize(
    ("status", "removed"),
    [
        (IMMOBILISED, [move(0, 1), move(0, 2)]),
        (DISARMED, [attack(0, 0, 0), attack(0, 1, 0)]),
        (NO_CANNON, [fire(0, AMMO_CANNONBALL), fire(0, AMMO_INCENDIARY), fire(0, AMMO_CHAOS)]),
        (NO_REPAIR, [repair_hole(0), repair_mast(0)]),
        (NO_BUCKET, [bail(0)]),
    ],
)
def test_each_status_removes_its_options(engine, status, removed) -> None:
    pos = busy_position()
    set_status(pos, 0, status, 1, slot=1)
    assert pirate_options(engine, pos, 0) == [o for o in ALL_PIRATE_0 if o not in removed]


def test_immobilised_pirates_still_move_by_card(engine) -> None:
    pos = build(turn=3)
    set_status(pos, 2, IMMOBILISED, 2)
    program(engine, pos, 0, [(MOVE, ENEMY_PIRATE, 0, 0, TO_ISLAND)], 2)
    assert pirate(pos, 2).zone == ISLAND


def test_burn_hurts_at_the_end_of_the_next_game_turn(engine) -> None:
    pos = ready(build(turn=3, hands=[["Firebrand"], []]))
    pirate(pos, 0).zone = 1  # Firebrand needs an enemy where one of ours is
    do(engine, pos, play("Firebrand", 2))
    assert pirate(pos, 2).statuses[0] == [BURN, 3]
    next_turn(engine, pos)  # end of turn 3: not yet
    assert pirate(pos, 2).life == 2
    assert pirate(pos, 2).statuses[0] == [BURN, 3]
    engine.end_turn(pos, dice())  # end of turn 4: 1 damage, the burn is gone
    assert pirate(pos, 2).life == 1
    assert pirate(pos, 2).statuses[0] == [0, 0]
    # Seat 1's own pirate burned in seat 1's turn: no damage dealt by anybody.
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 0
    assert stat(pos, 1, SEAT_STAT.DAMAGE_DEALT) == 0


def test_burns_hurt_on_both_sides_at_the_end_of_the_turn(engine) -> None:
    pos = ready(build(turn=4))  # seat 1's turn; both burns were applied in turn 3
    set_status(pos, 0, BURN, 3)
    set_status(pos, 2, BURN, 3)
    set_status(pos, 3, BURN, 4)  # applied this turn: burns at the end of the next
    engine.end_turn(pos, dice())
    assert [pirate(pos, c).life for c in range(4)] == [1, 2, 1, 2]
    assert pirate(pos, 3).statuses[0] == [BURN, 4]
    assert stat(pos, 1, SEAT_STAT.DAMAGE_DEALT) == 1  # seat 0's pirate, in seat 1's turn
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 0


def test_death_clears_statuses_regeneration_and_actions(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 1).life, pirate(pos, 1).regen = 1, True
    set_status(pos, 1, DRUNK, 2)
    set_status(pos, 1, BURN, 3, slot=1)
    program(engine, pos, 0, [(DAMAGE, PIRATES_OWN_SHIP, 1)])
    p = pirate(pos, 1)
    assert (p.life, p.zone, p.actions, p.markers, p.regen) == (0, DEAD, 0, 0, False)
    assert p.statuses == [[0, 0], [0, 0]]
    assert pirate(pos, 0).life == 1


def test_a_dead_pirates_regeneration_is_lost(engine) -> None:
    pos = build(turn=3)
    kill(pos, 1)
    pirate(pos, 1).regen = True
    engine.start_turn(pos, dice())
    assert (pirate(pos, 1).regen, pirate(pos, 1).life, pirate(pos, 1).markers) == (False, 0, 1)


def test_poison_hurts_at_the_start_of_the_next_game_turn(engine) -> None:
    pos = ready(build(turn=3, hands=[["Poison Dart"], []]))
    do(engine, pos, play("Poison Dart", 3))
    assert pirate(pos, 3).statuses[0] == [POISON, 3]
    engine.end_turn(pos, dice())
    assert pirate(pos, 3).life == 2
    engine.start_turn(pos, dice())  # start of turn 4
    assert pirate(pos, 3).life == 1
    assert pirate(pos, 3).statuses[0] == [0, 0]


def test_poison_can_kill_before_the_actions_are_given(engine) -> None:
    pos = build(turn=4)
    pirate(pos, 2).life = 1
    set_status(pos, 2, POISON, 3)
    engine.start_turn(pos, dice())
    assert pirate(pos, 2).zone == DEAD
    assert pirate(pos, 2).actions == 0
    assert pirate(pos, 2).markers == 1  # died this start of turn, then a marker back
    assert stat(pos, 1, SEAT_STAT.DEATHS) == 1


def test_a_timed_status_lasts_through_turn_k_plus_n_minus_1(engine) -> None:
    pos = ready(build(turn=3, hands=[["Grog"], []]))
    do(engine, pos, play("Grog", 2))  # drunk for 2 turns, played in turn 3
    assert pirate(pos, 2).statuses[0] == [DRUNK, 2]
    next_turn(engine, pos)  # turn 4: still drunk
    assert pirate(pos, 2).statuses[0] == [DRUNK, 1]
    next_turn(engine, pos)  # turn 5: over
    assert pirate(pos, 2).statuses[0] == [0, 0]


def test_drunk_for_one_turn_lasts_only_the_turn_it_is_played(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 1, DRUNK)], 2)
    assert pirate(pos, 2).statuses[0] == [DRUNK, 1]
    next_turn(engine, pos)
    assert pirate(pos, 2).statuses[0] == [0, 0]


def test_a_third_status_is_ignored_and_the_same_status_refreshes(engine) -> None:
    pos = build(turn=5)
    set_status(pos, 2, BURN, 4, slot=0)
    set_status(pos, 2, DRUNK, 2, slot=1)
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 3, POISON)], 2)
    assert pirate(pos, 2).statuses == [[BURN, 4], [DRUNK, 2]]
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 3, DRUNK)], 2)
    assert pirate(pos, 2).statuses == [[BURN, 4], [DRUNK, 3]]
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 1, DRUNK)], 2)
    assert pirate(pos, 2).statuses == [[BURN, 4], [DRUNK, 3]]  # the longer time stays
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 0, BURN)], 2)
    assert pirate(pos, 2).statuses == [[BURN, 5], [DRUNK, 3]]  # stamped again: turn 5


def test_a_status_goes_to_the_first_empty_slot(engine) -> None:
    pos = build(turn=3)
    set_status(pos, 2, DRUNK, 2, slot=1)
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 2, DISARMED)], 2)
    assert pirate(pos, 2).statuses == [[DISARMED, 2], [DRUNK, 2]]


def test_dead_pirates_take_no_status(engine) -> None:
    pos = build(turn=3)
    kill(pos, 2)
    program(engine, pos, 0, [(STATUS, PIRATES_ENEMY_SHIP, 0, 2, DRUNK)])
    assert pirate(pos, 2).statuses == [[0, 0], [0, 0]]
    assert pirate(pos, 3).statuses == [[DRUNK, 2], [0, 0]]


def test_stripped_blocks_spending_provisions_until_it_wears_off(engine) -> None:
    pos = ready(build(turn=3, hands=[["Cursed Ball"], []]))
    pos.sides[0].stripped = 1
    pos.sides[0].holes, pos.sides[0].intact, pos.sides[0].water = 1, 4, 10
    pirate(pos, 0).life = 1
    # No repair, no cannon-, incendiary or chaos ball, no eating; bailing is no spending.
    assert options(engine, pos) == [
        move(0, 1),
        move(0, 2),
        bail(0),
        move(1, 1),
        move(1, 2),
        bail(1),
        play("Cursed Ball"),
        END,
    ]
    do(engine, pos, play("Cursed Ball"))
    assert fire(0, AMMO_CURSED) in options(engine, pos)  # a card, not a provision
    next_turn(engine, pos)  # turn 4: the strip wore off
    assert pos.sides[0].stripped == 0


# ---------------------------------------------------------------------------
# The island, food, animals and items
# ---------------------------------------------------------------------------


def take(kind: int) -> tuple[int, int, int, int]:
    return (TAKE, -1, kind, -1)


def ashore(pos, code: int) -> None:
    """Pirate ``code`` on the island since the start of its owner's turn."""
    pirate(pos, code).zone = ISLAND
    pirate(pos, code).ashore = True


def test_moving_onto_the_island_is_a_visit(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].provisions = [8, 11, 4, 2, 2]  # 2 planks and a cannonball short
    do(engine, pos, move(0, ISLAND))
    assert (pirate(pos, 0).zone, pirate(pos, 0).actions) == (ISLAND, 0)
    assert stat(pos, 0, SEAT_STAT.ISLAND_VISITS) == 1
    assert pos.taking == 3
    # The player chooses each provision among the kinds it is short of.
    assert options(engine, pos) == [take(PLANK), take(CANNONBALL)]
    do(engine, pos, take(CANNONBALL))
    assert options(engine, pos) == [take(PLANK)]
    do(engine, pos, take(PLANK))
    do(engine, pos, take(PLANK))
    assert pos.taking == 0
    assert pos.sides[0].provisions == [10, 12, 4, 2, 2]
    assert [stat(pos, 0, SEAT_STAT.TAKEN_PLANKS + k) for k in range(5)] == [2, 1, 0, 0, 0]
    # Back to the turn: the pirate that moved there this turn may not visit again.
    assert visit(0) not in options(engine, pos)
    assert options(engine, pos)[-1] == END


def test_a_pirate_on_the_island_at_the_start_of_its_turn_may_visit_again(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = ISLAND
    pos.sides[0].provisions[PLANK] = 9
    assert visit(0) not in options(engine, pos)  # it did not start the turn there
    pos.turn = 5
    engine.start_turn(pos, dice())
    assert pirate(pos, 0).ashore and not pirate(pos, 1).ashore
    assert visit(0) in options(engine, pos)
    do(engine, pos, visit(0))
    assert pirate(pos, 0).actions == 0
    assert options(engine, pos) == [take(PLANK)]  # one kind: no choice to make
    do(engine, pos, take(PLANK))
    assert pos.sides[0].provisions[PLANK] == 10
    assert stat(pos, 0, SEAT_STAT.ISLAND_VISITS) == 1


def test_a_visit_that_changes_nothing_is_not_offered(engine) -> None:
    pos = ready(build(turn=3))
    ashore(pos, 0)  # the reserve is full (30): nothing to take back
    assert visit(0) not in options(engine, pos)
    pos.island = [(card("Leaky Wreck"), 1)]  # an island card in play: worth a visit
    assert visit(0) in options(engine, pos)
    do(engine, pos, visit(0))
    assert pos.taking == 0
    assert pos.sides[0].water == 10  # the island card at once
    pos = ready(build(turn=3, rules=BattleRules(island_take=0)))
    ashore(pos, 0)
    pos.sides[0].provisions[PLANK] = 0
    assert visit(0) not in options(engine, pos)  # a take of 0 takes nothing


def test_moving_onto_the_island_with_nothing_to_take_brings_the_island_cards(engine) -> None:
    pos = ready(build(turn=3))
    pos.island = [(card("Leaky Wreck"), 1)]
    do(engine, pos, move(1, ISLAND))
    assert (pos.taking, pos.sides[0].water) == (0, 10)
    assert stat(pos, 0, SEAT_STAT.ISLAND_VISITS) == 1


def test_carried_to_the_island_by_a_card_is_no_visit(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[0].provisions[PLANK] = 5
    program(engine, pos, 0, [(MOVE, OWN_PIRATE, 0, 0, TO_ISLAND)], 0)
    assert pirate(pos, 0).zone == ISLAND
    assert (pos.taking, stat(pos, 0, SEAT_STAT.ISLAND_VISITS)) == (0, 0)
    assert visit(0) not in options(engine, pos)


def test_island_visit_takes_up_to_island_take_and_the_reserve_limit(engine) -> None:
    pos = ready(build(turn=3, rules=BattleRules(reserve_max=29)))
    ashore(pos, 0)
    pos.sides[0].provisions = [10, 12, 4, 0, 0]  # 26: room for 3 of the 4 short
    do(engine, pos, visit(0))
    assert pos.taking == 3
    assert options(engine, pos) == [take(CHAOS_BALL), take(INCENDIARY_BALL)]
    do(engine, pos, take(INCENDIARY_BALL))
    do(engine, pos, take(INCENDIARY_BALL))
    assert options(engine, pos) == [take(CHAOS_BALL)]  # incendiary balls back to 2
    do(engine, pos, take(CHAOS_BALL))
    assert pos.sides[0].provisions == [10, 12, 4, 1, 2]
    assert options(engine, pos)[-1] == END
    pos = ready(build(turn=3))
    ashore(pos, 0)
    pos.sides[0].provisions = [0, 12, 4, 2, 2]
    do(engine, pos, visit(0))
    assert pos.taking == 5  # island_take


def test_island_visit_takes_more_with_an_island_take_modifier(engine) -> None:
    content = build_content(pirate_mods=[[[(ISLAND_TAKE, 2)], []], [[], []]])
    pos = ready(build(turn=3, content=content))
    pos.sides[0].provisions = [0, 12, 4, 2, 2]
    do(engine, pos, move(0, ISLAND))
    assert pos.taking == 7
    pos = ready(build(turn=3, content=content))
    pos.sides[0].provisions = [0, 12, 4, 2, 2]
    do(engine, pos, move(1, ISLAND))  # pirate 1 has no modifier
    assert pos.taking == 5


def test_island_cards_in_play_work_for_the_visitor_in_the_order_played(engine) -> None:
    pos = ready(build(turn=3, rules=BattleRules(reserve_max=28, island_take=2)))
    ashore(pos, 1)
    pos.island = [(card("Treasure Cove"), 1), (card("Leaky Wreck"), 0)]
    pos.sides[0].provisions = [10, 8, 4, 2, 2]  # 26, 4 cannonballs short
    do(engine, pos, visit(1))
    do(engine, pos, take(CANNONBALL))
    assert pos.sides[0].water == 0  # the island cards come after the last provision
    do(engine, pos, take(CANNONBALL))
    # The refill first (2 cannonballs: 28, the limit), then Treasure Cove (+1 chaos ball,
    # no room left), then Leaky Wreck (10 water into the visitor's ship). Had the card
    # come first, the reserve would be [10, 9, 4, 3, 2].
    assert pos.sides[0].provisions == [10, 10, 4, 2, 2]
    assert pos.sides[0].water == 10
    assert pos.sides[1].provisions == [10, 12, 4, 2, 2]
    assert pos.island == [(card("Treasure Cove"), 1), (card("Leaky Wreck"), 0)]


def test_playing_an_island_card_puts_it_in_play(engine) -> None:
    pos = ready(build(turn=3, hands=[["Treasure Cove"], []]))
    pos.island = [(card("Leaky Wreck"), 1)]
    do(engine, pos, play("Treasure Cove"))
    assert pos.island == [(card("Leaky Wreck"), 1), (card("Treasure Cove"), 0)]
    assert pos.sides[0].discard == []
    assert pos.sides[0].hand == []


def test_eating_heals_one_and_costs_no_action(engine) -> None:
    pos = build(turn=3)  # no actions at all
    pirate(pos, 1).life = 1
    assert options(engine, pos) == [eat(1), END]
    do(engine, pos, eat(1))
    assert pirate(pos, 1).life == 2
    assert pos.sides[0].provisions[FOOD_PROVISION] == 3
    assert options(engine, pos) == [END]


def test_no_eating_without_food(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 1).life = 1
    pos.sides[0].provisions[FOOD_PROVISION] = 0
    assert options(engine, pos) == [END]


def test_a_food_card_heals_now_and_once_more_at_the_next_own_turn(engine) -> None:
    pos = ready(build(turn=3, hands=[["Stew"], []]))
    pirate(pos, 0).life = 1
    assert play("Stew", 0) in options(engine, pos)
    assert play("Stew", 1) not in options(engine, pos)  # not wounded
    do(engine, pos, play("Stew", 0))
    assert (pirate(pos, 0).life, pirate(pos, 0).regen) == (2, True)
    assert pos.sides[0].discard == [card("Stew")]
    next_turn(engine, pos)  # turn 4: seat 1 wounds pirate 0
    pirate(pos, 2).zone = 0
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 6)
    assert pirate(pos, 0).life == 1
    assert pirate(pos, 0).regen  # not seat 1's turn: nothing yet
    next_turn(engine, pos)  # turn 5: heals 1 at the start
    assert (pirate(pos, 0).life, pirate(pos, 0).regen) == (2, False)


def test_a_food_cards_program_acts_on_the_fed_pirate(engine) -> None:
    pos = ready(build(turn=3, hands=[["Spiced Stew"], []]))
    pirate(pos, 1).life = 1
    do(engine, pos, play("Spiced Stew", 1))
    assert pirate(pos, 1).life == 2
    assert pirate(pos, 1).actions == 2
    assert pirate(pos, 0).actions == 1


def test_an_animal_goes_to_an_own_pirate_without_one(engine) -> None:
    pos = ready(build(turn=3, hands=[["Parrot", "Hound"], []]))
    pirate(pos, 1).zone = ISLAND  # animals go anywhere
    pirate(pos, 0).animal = card("Hound")
    assert [o for o in options(engine, pos) if o[0] == PLAY] == [
        play("Parrot", 1),
        play("Hound", 1),
    ]
    do(engine, pos, play("Parrot", 1))
    assert pirate(pos, 1).animal == card("Parrot")
    assert pirate(pos, 1).actions == 1  # no action spent


def test_an_animals_modifiers_help_its_pirate(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).animal = card("Parrot")  # +1 attack, +1 cannon
    do(engine, pos, fire(0), 3)  # 3 + 1 = 4
    assert pos.sides[1].holes == 1
    pirate(pos, 1).zone = 1
    pirate(pos, 1).animal = card("Parrot")
    do(engine, pos, attack(1, 0, ATTACK_PIRATE + 1), 3)  # 3 + 1 = 4
    assert pirate(pos, 3).life == 1


def test_an_item_goes_to_an_own_pirate_aboard_with_an_action_and_costs_it(engine) -> None:
    pos = ready(build(turn=3, hands=[["Cutlass"], []]))
    pirate(pos, 1).zone = ISLAND
    assert [o for o in options(engine, pos) if o[0] == PLAY] == [play("Cutlass", 0)]
    do(engine, pos, play("Cutlass", 0))
    assert pirate(pos, 0).item == card("Cutlass")
    assert pirate(pos, 0).actions == 0


def test_no_item_for_a_pirate_without_an_action_or_with_an_item(engine) -> None:
    pos = build(turn=3, hands=[["Cutlass"], []])  # pirate 0: aboard, no action
    pirate(pos, 1).actions = 1
    pirate(pos, 1).item = card("Powder Keg")  # pirate 1: an action, but an item already
    assert [o for o in options(engine, pos) if o[0] == PLAY] == []


def test_an_items_weapon_damage_modifier(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = 1
    pirate(pos, 0).item = card("Cutlass")  # +1 damage
    assert [o for o in options(engine, pos) if o[0] == ACTIVATE] == []  # not activable
    do(engine, pos, attack(0, 1, ATTACK_PIRATE + 0), 4)
    assert pirate(pos, 2).zone == DEAD  # 2 damage
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 2
    assert stat(pos, 1, SEAT_STAT.DEATHS) == 1


def test_a_single_use_item_is_discarded_after_activation(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).item = card("Powder Keg")
    assert activate(0) in options(engine, pos)
    do(engine, pos, activate(0))
    assert pos.sides[1].holes == 1
    assert stat(pos, 0, SEAT_STAT.HOLES_MADE) == 1
    assert pirate(pos, 0).item == -1
    assert pirate(pos, 0).actions == 0
    assert pos.sides[0].discard == [card("Powder Keg")]


def test_a_reusable_item_stays_and_aims_at_the_holders_zone(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = 1
    pirate(pos, 0).item = card("Pistol")
    pirate(pos, 3).zone = ISLAND
    pirate(pos, 1).zone = ISLAND  # "here" is the holder's zone, not any own pirate's
    assert [o for o in options(engine, pos) if o[0] == ACTIVATE] == [activate(0, 2)]
    do(engine, pos, activate(0, 2))
    assert pirate(pos, 2).life == 1
    assert pirate(pos, 0).item == card("Pistol")
    assert pos.sides[0].discard == []
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 1


def test_an_own_pirate_here_item_aims_at_own_pirates_in_the_holders_zone(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = ISLAND
    pirate(pos, 0).item = card("Medic Kit")
    pirate(pos, 0).life = 1
    pirate(pos, 1).life = 1  # aboard ship 0: not "here"
    assert [o for o in options(engine, pos) if o[0] == ACTIVATE] == [activate(0, 0)]
    pirate(pos, 1).zone = ISLAND
    assert [o for o in options(engine, pos) if o[0] == ACTIVATE] == [
        activate(0, 0),
        activate(0, 1),
    ]
    do(engine, pos, activate(0, 1))
    assert (pirate(pos, 0).life, pirate(pos, 1).life) == (1, 2)
    assert pirate(pos, 0).item == card("Medic Kit")


def test_an_own_pirate_here_card_may_name_any_own_living_pirate(engine) -> None:
    pos = ready(build(turn=3, hands=[["Rally Cry"], []]))
    pirate(pos, 0).zone = ISLAND
    assert [o for o in options(engine, pos) if o[0] == PLAY] == [
        play("Rally Cry", 0),
        play("Rally Cry", 1),
    ]
    do(engine, pos, play("Rally Cry", 0))
    assert pirate(pos, 0).actions == 2
    assert stat(pos, 0, SEAT_STAT.CARDS_PLAYED) == 1  # a card in no deck: no card row
    assert all(row == [0, 0, 0] for row in pos.card_stats[0])


def test_an_item_that_kills_its_holder(engine) -> None:
    # The action is spent before the program runs; the dead holder's single-use item is
    # still discarded.
    pos = ready(build(turn=3))
    pirate(pos, 0).item = card("Bomb Vest")
    pirate(pos, 2).zone = 0
    do(engine, pos, activate(0))
    for code in (0, 1, 2):
        p = pirate(pos, code)
        assert (p.life, p.zone, p.actions) == (0, DEAD, 0)
    assert pirate(pos, 0).item == -1
    assert pos.sides[0].discard == [card("Bomb Vest")]
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 2


def test_an_item_with_no_target_cannot_be_activated(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).item = card("Pistol")  # aboard ship 0: no enemy there
    assert [o for o in options(engine, pos) if o[0] == ACTIVATE] == []


def test_attacking_animals_and_targetable_items(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = 1
    pirate(pos, 2).animal = card("Parrot")
    pirate(pos, 2).item = card("Cutlass")  # targetable
    pirate(pos, 3).item = card("Pistol")  # not targetable
    assert pirate_options(engine, pos, 0) == [
        move(0, 0),
        move(0, 2),
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 0, ATTACK_PIRATE + 1),
        attack(0, 0, ATTACK_ANIMAL + 0),
        attack(0, 0, ATTACK_ITEM + 0),
        attack(0, 1, ATTACK_PIRATE + 0),
        attack(0, 1, ATTACK_PIRATE + 1),
        attack(0, 1, ATTACK_ANIMAL + 0),
        attack(0, 1, ATTACK_ITEM + 0),
    ]
    do(engine, pos, attack(0, 0, ATTACK_ANIMAL + 0), 4)
    assert pirate(pos, 2).animal == -1
    assert pirate(pos, 2).life == 2
    assert pos.sides[1].discard == [card("Parrot")]
    pirate(pos, 1).zone, pirate(pos, 1).actions = 1, 1
    do(engine, pos, attack(1, 1, ATTACK_ITEM + 0), 4)
    assert pirate(pos, 2).item == -1
    assert pos.sides[1].discard == [card("Parrot"), card("Cutlass")]


def test_a_missed_attack_on_an_animal(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = 1
    pirate(pos, 2).animal = card("Parrot")
    do(engine, pos, attack(0, 0, ATTACK_ANIMAL + 0), 3)
    assert pirate(pos, 2).animal == card("Parrot")
    assert stat(pos, 0, SEAT_STAT.ATTACKS) == 1
    assert stat(pos, 0, SEAT_STAT.ATTACK_HITS) == 0


def test_weapons_hit_on_and_damage_come_from_the_weapon_data(engine) -> None:
    # Seat 0's pirate 0: weapon 0 hits on 6 for 1, weapon 1 hits on 2 for 2.
    weapons = [[[(6, 1), (2, 2)], [(4, 1), (4, 1)]], [[(4, 1), (4, 1)], [(4, 1), (4, 1)]]]
    pos = ready(build(turn=3, content=build_content(weapons=weapons)))
    pirate(pos, 0).zone = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 5)
    assert pirate(pos, 2).life == 2
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 1, ATTACK_PIRATE + 1), 2)
    assert pirate(pos, 3).zone == DEAD


# ---------------------------------------------------------------------------
# Specials, legendaries, original sin, insults
# ---------------------------------------------------------------------------


def test_a_special_once_per_turn(engine) -> None:
    pos = ready(build(turn=3, hands=[["Broadside", "Broadside"], []]))
    do(engine, pos, play("Broadside"))
    assert pos.sides[1].holes == 1
    assert pos.sides[0].special_used == 1
    assert play("Broadside") not in options(engine, pos)
    next_turn(engine, pos)
    next_turn(engine, pos)  # turn 5: seat 0 again
    assert play("Broadside") in options(engine, pos)


def test_a_legendary_once_per_game(engine) -> None:
    pos = ready(build(turn=3, hands=[["Kraken", "Kraken"], []]))
    do(engine, pos, play("Kraken"))
    assert pos.sides[1].holes == 2
    assert stat(pos, 0, SEAT_STAT.HOLES_MADE) == 2
    assert play("Kraken") not in options(engine, pos)
    next_turn(engine, pos)
    next_turn(engine, pos)
    assert play("Kraken") not in options(engine, pos)
    assert pos.sides[0].hand.count(card("Kraken")) == 1


def test_the_seventh_sin_in_the_discard_pile_loses(engine) -> None:
    pos = ready(build(turn=2, hands=[[], ["Orgueil", "Rum"]]))
    pos.sides[1].sins = ALL_SINS & ~(1 << 6)  # every sin but Orgueil
    do(engine, pos, play("Orgueil"))
    assert pos.sides[1].sins == ALL_SINS
    assert (pos.over, pos.winner, pos.reason, pos.turn) == (True, 0, BY_SIN, 2)


def test_six_sins_do_not_lose(engine) -> None:
    pos = ready(build(turn=2, hands=[[], ["Luxure"]]))
    pos.sides[1].sins = 0b0111110  # sins 1-5
    do(engine, pos, play("Luxure"))
    assert pos.sides[1].sins == 0b0111111
    assert not pos.over


def test_a_forced_discard_can_make_the_enemy_lose_by_original_sin(engine) -> None:
    pos = ready(build(turn=3, hands=[["Pickpocket"], ["Rum", "Orgueil"]]))
    pos.sides[1].sins = ALL_SINS & ~(1 << 6)
    do(engine, pos, play("Pickpocket"), 1)  # below(2) = 1: Orgueil
    assert pos.sides[1].hand == [card("Rum")]
    assert (pos.over, pos.winner, pos.reason) == (True, 0, BY_SIN)
    assert pos.sides[0].discard == []  # the game ended before Pickpocket was discarded


def test_insult_battle_won_after_a_tie(engine) -> None:
    pos = ready(build(turn=3, hands=[["Insult"], []]))
    do(engine, pos, play("Insult"), 3, 3, 5, 2)  # 3-3 rolled again; 5 > 2: won
    assert pos.sides[1].holes == 1
    assert pos.sides[0].water == 0
    assert pos.sides[0].discard == [card("Insult")]


def test_insult_battle_lost(engine) -> None:
    pos = ready(build(turn=3, hands=[["Insult"], []]))
    do(engine, pos, play("Insult"), 2, 6)
    assert pos.sides[1].holes == 0
    assert pos.sides[0].water == 10


def test_sinking_mid_turn_ends_the_game_at_once(engine) -> None:
    pos = ready(build(turn=3))
    pos.sides[1].holes, pos.sides[1].intact, pos.sides[1].water = 5, 0, 90
    do(engine, pos, fire(0, AMMO_INCENDIARY), 4)  # no token left: +10 water, sunk
    assert pos.sides[1].water == 100
    assert (pos.over, pos.winner, pos.reason, pos.turn) == (True, 0, BY_WATER, 3)
    assert pirate(pos, 2).statuses[0] == [0, 0]  # no burn: the game was over
    assert pirate(pos, 3).statuses[0] == [0, 0]


def test_the_turn_cap_ends_the_game_unfinished(engine) -> None:
    pos = ready(build(turn=2, rules=BattleRules(turn_cap=2)))
    engine.end_turn(pos, dice())
    assert (pos.over, pos.winner, pos.reason, pos.turn) == (True, -1, CAPPED, 2)
    assert pirate(pos, 2).actions == 0


def test_the_turn_before_the_cap_goes_on(engine) -> None:
    pos = ready(build(turn=1, rules=BattleRules(turn_cap=2)))
    engine.end_turn(pos, dice())
    assert (pos.over, pos.turn) == (False, 2)


def test_illegal_options_are_refused(engine) -> None:
    pos = ready(build(turn=1))
    with pytest.raises(IllegalChoice):
        engine.apply_option(pos, fire(0), dice(6))


def test_scripted_dice_that_run_out_raise(engine) -> None:
    pos = ready(build(turn=3))
    with pytest.raises(ScriptError):
        engine.apply_option(pos, fire(0), dice())


# ---------------------------------------------------------------------------
# One test per effect of the card vocabulary (seat 0 acting in its turn 3)
# ---------------------------------------------------------------------------


def test_effect_water(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].water = 20
    program(engine, pos, 0, [(WATER, ENEMY_SHIP, 30), (WATER, OWN_SHIP, -50)])
    assert (pos.sides[0].water, pos.sides[1].water) == (0, 30)
    program(engine, pos, 0, [(WATER, ENEMY_SHIP, 70), (WATER, OWN_SHIP, 10)])
    assert pos.sides[1].water == 100
    assert (pos.over, pos.winner, pos.reason) == (True, 0, BY_WATER)
    assert pos.sides[0].water == 0  # the row after the sinking was not applied


def test_effect_hole_overflows_into_water(engine) -> None:
    pos = build(turn=3)
    pos.sides[1].holes, pos.sides[1].intact = 3, 2
    program(engine, pos, 0, [(HOLE, ENEMY_SHIP, 3)])
    assert (pos.sides[1].holes, pos.sides[1].intact, pos.sides[1].water) == (5, 0, 10)
    assert stat(pos, 1, SEAT_STAT.HOLES_TAKEN) == 2
    assert stat(pos, 0, SEAT_STAT.HOLES_MADE) == 2
    program(engine, pos, 0, [(HOLE, OWN_SHIP, 1)])
    assert (pos.sides[0].holes, pos.sides[0].intact) == (1, 4)
    assert stat(pos, 0, SEAT_STAT.HOLES_TAKEN) == 1
    assert stat(pos, 0, SEAT_STAT.HOLES_MADE) == 2  # one's own ship: not "made"


def test_effect_repair(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].holes, pos.sides[0].intact = 1, 4
    program(engine, pos, 0, [(REPAIR, OWN_SHIP, 2)])
    assert (pos.sides[0].holes, pos.sides[0].intact) == (0, 5)
    assert stat(pos, 0, SEAT_STAT.HOLES_REPAIRED) == 1
    assert pos.sides[0].provisions[PLANK] == 10  # a card repairs without planks


def test_effect_damage_hits_every_pirate_in_the_zone(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 1).zone = 1  # seat 0's pirate 1 aboard the enemy ship too
    pirate(pos, 3).life = 1
    program(engine, pos, 0, [(DAMAGE, PIRATES_ENEMY_SHIP, 2)])
    for code in (1, 2, 3):
        assert pirate(pos, code).zone == DEAD
    assert pirate(pos, 0).life == 2
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 3  # 2 + 1 enemy life points
    assert (stat(pos, 0, SEAT_STAT.DEATHS), stat(pos, 1, SEAT_STAT.DEATHS)) == (1, 2)


def test_effect_damage_on_a_chosen_enemy(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(DAMAGE, ENEMY_PIRATE, 1)], 3)
    assert (pirate(pos, 2).life, pirate(pos, 3).life) == (2, 1)


def test_effect_heal(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 0).life = 1
    pirate(pos, 2).zone, pirate(pos, 2).life = 0, 1
    kill(pos, 1)
    program(engine, pos, 0, [(HEAL, PIRATES_OWN_SHIP, 5)])
    assert (pirate(pos, 0).life, pirate(pos, 2).life) == (2, 2)  # both seats, up to 2
    assert (pirate(pos, 1).life, pirate(pos, 1).zone) == (0, DEAD)


def test_effect_revive_chooses_among_dead_own_pirates(engine) -> None:
    pos = ready(build(turn=3, hands=[["Second Wind"], []]))
    assert play("Second Wind", 0) not in options(engine, pos)
    kill(pos, 1, markers=1)
    kill(pos, 2)
    assert [o for o in options(engine, pos) if o[0] == PLAY] == [play("Second Wind", 1)]
    do(engine, pos, play("Second Wind", 1))
    p = pirate(pos, 1)
    assert (p.life, p.zone, p.markers, p.actions) == (2, 0, 0, 0)


def test_effect_status(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 2, NO_CANNON)], 3)
    assert pirate(pos, 3).statuses == [[NO_CANNON, 2], [0, 0]]
    program(engine, pos, 0, [(STATUS, ENEMY_PIRATE, 0, 0, POISON)], 3)
    assert pirate(pos, 3).statuses == [[NO_CANNON, 2], [POISON, 3]]


@pytest.mark.parametrize(("op", "field"), [(ANCHOR_DOWN, "anchor"), (MAST_BROKEN, "mast")])
@pytest.mark.parametrize(
    ("before", "turns", "after"),
    [
        (-1, 0, 0),  # up → down with no time limit
        (-1, 2, 2),  # up → down for 2 turns
        (0, 3, 3),  # untimed → the timed effect replaces it
        (2, 3, 3),  # timed → the longer time
        (3, 2, 3),
        (2, 0, 2),  # timed, untimed effect → unchanged
        (0, 0, 0),
    ],
)
def test_effect_anchor_down_and_mast_broken(engine, op, field, before, turns, after) -> None:
    pos = build(turn=3)
    setattr(pos.sides[1], field, before)
    program(engine, pos, 0, [(op, ENEMY_SHIP, 0, turns)])
    assert getattr(pos.sides[1], field) == after


def test_a_timed_anchor_goes_up_when_its_time_is_over(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(ANCHOR_DOWN, ENEMY_SHIP, 0, 2), (MAST_BROKEN, ENEMY_SHIP, 0, 1)])
    next_turn(engine, pos)  # turn 4
    assert (pos.sides[1].anchor, pos.sides[1].mast) == (1, -1)
    next_turn(engine, pos)  # turn 5
    assert pos.sides[1].anchor == -1


def test_effect_pacify_cannons(engine) -> None:
    pos = build(turn=3)
    pos.sides[1].pacified = 2
    program(engine, pos, 0, [(PACIFY_CANNONS, ENEMY_SHIP, 0, 1)])
    assert pos.sides[1].pacified == 2
    program(engine, pos, 0, [(PACIFY_CANNONS, ENEMY_SHIP, 0, 3)])
    assert pos.sides[1].pacified == 3
    next_turn(engine, pos)  # turn 4: 2 left, seat 1 may not fire
    assert pos.sides[1].pacified == 2
    assert [o for o in options(engine, pos) if o[0] == FIRE] == []


def test_effect_strip(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(STRIP, ENEMY, 0, 2), (STRIP, ENEMY, 0, 1)])
    assert pos.sides[1].stripped == 2


def test_effect_gain_is_limited_by_the_reserve(engine) -> None:
    pos = build(turn=3)  # 30 provisions: full
    program(engine, pos, 0, [(GAIN, OWN, 3, 0, PLANK)])
    assert pos.sides[0].provisions == [10, 12, 4, 2, 2]
    pos.sides[0].provisions = [5, 12, 4, 2, 2]  # 25
    program(engine, pos, 0, [(GAIN, OWN, 8, 0, CHAOS_BALL)])
    assert pos.sides[0].provisions == [5, 12, 4, 7, 2]


def test_effect_lose(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(LOSE, ENEMY, 3, 0, INCENDIARY_BALL), (LOSE, ENEMY, 5, 0, PLANK)])
    assert pos.sides[1].provisions == [5, 12, 4, 2, 0]


def test_effect_steal(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].provisions = [10, 6, 4, 2, 2]  # 24: room for 6
    pos.sides[1].provisions = [10, 12, 4, 2, 2]
    program(engine, pos, 0, [(STEAL, ENEMY, 3, 0, INCENDIARY_BALL)])  # only 2 to steal
    assert pos.sides[0].provisions == [10, 6, 4, 2, 4]
    assert pos.sides[1].provisions == [10, 12, 4, 2, 0]
    program(engine, pos, 0, [(STEAL, ENEMY, 9, 0, CANNONBALL)])  # room for 4 more
    assert pos.sides[0].provisions == [10, 10, 4, 2, 4]
    assert pos.sides[1].provisions == [10, 8, 4, 2, 0]


def test_effect_draw_stops_at_an_empty_deck(engine) -> None:
    pos = build(turn=3, deck_pos=(18, 0))
    program(engine, pos, 0, [(DRAW, OWN, 3)])
    assert pos.sides[0].hand == [card("Pickpocket"), card("Medic Kit")]  # cards 19 and 20
    assert pos.sides[0].deck_pos == 20
    assert (pos.sides[0].holes, pos.sides[0].water) == (0, 0)  # no Red Sea
    assert stat(pos, 0, SEAT_STAT.CARDS_DRAWN) == 2
    assert pos.card_stats[0][18][CARD_STAT.DRAWN] == 1  # Pickpocket
    assert pos.card_stats[0][19][CARD_STAT.DRAWN] == 1  # Medic Kit
    program(engine, pos, 0, [(DRAW, ENEMY, 2)])
    assert pos.sides[1].hand == [card("Rum"), card("Insult")]
    assert stat(pos, 1, SEAT_STAT.CARDS_DRAWN) == 2


def test_effect_discard_picks_at_random_on_the_dice(engine) -> None:
    pos = build(turn=3, hands=[[], ["Rum", "Insult", "Grog"]])
    program(engine, pos, 0, [(DISCARD, ENEMY, 2)], -1, 1, 0)  # below(3) = 1, below(2) = 0
    assert pos.sides[1].discard == [card("Insult"), card("Rum")]
    assert pos.sides[1].hand == [card("Grog")]
    program(engine, pos, 0, [(DISCARD, ENEMY, 3)])  # one card: no draw; then none left
    assert pos.sides[1].hand == []
    assert pos.sides[1].discard == [card("Insult"), card("Rum"), card("Grog")]


def test_effect_cannon_modifier_timing_and_cap(engine) -> None:
    pos = build(turn=3)
    program(
        engine, pos, 0, [(CANNON_MODIFIER, OWN_SHIP, 2, 1), (CANNON_MODIFIER, ENEMY_SHIP, -1, 2)]
    )
    assert pos.sides[0].cannon_mods == [[2, 1]]
    assert pos.sides[1].cannon_mods == [[-1, 2]]
    ready(pos)
    do(engine, pos, fire(0), 2)  # 2 + 2 = 4: a hit in the turn it was played
    assert pos.sides[1].holes == 1
    next_turn(engine, pos)  # turn 4: seat 0's +2 is over, seat 1's -1 still on
    assert pos.sides[0].cannon_mods == []
    assert pos.sides[1].cannon_mods == [[-1, 1]]
    do(engine, pos, fire(0), 4)  # 4 - 1 = 3: a miss
    assert pos.sides[0].holes == 0
    pos.sides[1].cannon_mods = []
    rows = [(CANNON_MODIFIER, ENEMY_SHIP, k, 3) for k in range(1, MAX_CANNON_MODS + 2)]
    program(engine, pos, 0, rows)
    assert pos.sides[1].cannon_mods == [[k, 3] for k in range(1, MAX_CANNON_MODS + 1)]


def test_effect_extra_action(engine) -> None:
    pos = ready(build(turn=3))
    program(engine, pos, 0, [(EXTRA_ACTION, OWN_PIRATE, 2)], 1)
    assert (pirate(pos, 0).actions, pirate(pos, 1).actions) == (1, 3)
    kill(pos, 0)
    program(engine, pos, 0, [(EXTRA_ACTION, OWN_PIRATE, 2)], 0)
    assert pirate(pos, 0).actions == 0


def test_effect_move_ignores_the_dead(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 0).zone = ISLAND
    kill(pos, 3)
    program(engine, pos, 0, [(MOVE, PIRATES_ENEMY_SHIP, 0, 0, TO_ISLAND)])
    assert [pirate(pos, c).zone for c in range(4)] == [ISLAND, 0, ISLAND, DEAD]
    program(engine, pos, 0, [(MOVE, PIRATES_ISLAND, 0, 0, TO_ENEMY_SHIP)])
    assert [pirate(pos, c).zone for c in range(4)] == [1, 0, 1, DEAD]
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 0  # not a boarding
    program(engine, pos, 0, [(MOVE, ENEMY_PIRATE, 0, 0, TO_OWN_SHIP)], 2)
    assert pirate(pos, 2).zone == 0  # the acting player's ship
    program(engine, pos, 0, [(MOVE, ENEMY_PIRATE, 0, 0, TO_OWN_SHIP)], 3)
    assert (pirate(pos, 3).zone, pirate(pos, 3).life) == (DEAD, 0)  # the dead stay dead


def test_effect_insult_conditions(engine) -> None:
    rows = [
        (INSULT, 0),
        (WATER, ENEMY_SHIP, 10, 0, 0, 1),  # if won
        (WATER, OWN_SHIP, 20, 0, 0, 2),  # if lost
        (INSULT, 0),
        (WATER, ENEMY_SHIP, 5, 0, 0, 1),
        (WATER, OWN_SHIP, 7, 0, 0, 2),
    ]
    pos = build(turn=4)  # seat 1 acts in its own turn
    program(engine, pos, 1, rows, -1, 1, 1, 4, 2, 1, 6)
    # Seat 1 wins the first (4 > 2 after a tie), loses the second (1 < 6).
    assert (pos.sides[0].water, pos.sides[1].water) == (10, 7)


def test_effect_conditions_without_an_insult_never_apply(engine) -> None:
    pos = build(turn=3)
    program(engine, pos, 0, [(WATER, ENEMY_SHIP, 10, 0, 0, 1), (WATER, ENEMY_SHIP, 20, 0, 0, 2)])
    assert pos.sides[1].water == 0


def test_effect_clear_island(engine) -> None:
    pos = build(turn=3)
    pos.island = [(card("Leaky Wreck"), 1), (card("Treasure Cove"), 0), (card("Rum"), 1)]
    program(engine, pos, 0, [(CLEAR_ISLAND, THE_ISLAND)])
    assert pos.island == []
    assert pos.sides[0].discard == [card("Treasure Cove")]
    assert pos.sides[1].discard == [card("Leaky Wreck"), card("Rum")]


def test_clearing_the_island_can_complete_the_owners_sins(engine) -> None:
    pos = build(turn=3)
    pos.sides[1].sins = ALL_SINS & ~1
    pos.island = [(card("Luxure"), 1), (card("Rum"), 1)]
    program(engine, pos, 0, [(CLEAR_ISLAND, THE_ISLAND)])
    assert (pos.over, pos.winner, pos.reason) == (True, 0, BY_SIN)
    assert pos.sides[1].discard == [card("Luxure")]  # nothing after the loss


# ---------------------------------------------------------------------------
# Timed effects from every source; actions that change nothing; the page's decisions
# ---------------------------------------------------------------------------

#: Timed effects seat 0 applies for 2 turns, and how to see that each is in force.
TIMED = {
    "mast_broken": ((MAST_BROKEN, ENEMY_SHIP, 0, 2), lambda pos: pos.sides[1].mast >= 0),
    "anchor_down": ((ANCHOR_DOWN, ENEMY_SHIP, 0, 2), lambda pos: pos.sides[1].anchor >= 0),
    "pacify": ((PACIFY_CANNONS, ENEMY_SHIP, 0, 2), lambda pos: pos.sides[1].pacified > 0),
    "strip": ((STRIP, ENEMY, 0, 2), lambda pos: pos.sides[1].stripped > 0),
    "cannon_modifier": (
        (CANNON_MODIFIER, ENEMY_SHIP, -1, 2),
        lambda pos: pos.sides[1].cannon_mods != [],
    ),
    "status": ((STATUS, PIRATES_ENEMY_SHIP, 0, 2, DRUNK), lambda pos: pirate(pos, 2).has(DRUNK)),
}


def timed_content(row, source: str):
    """The test content with an event and a cursed ball applying ``row``, and for the
    source "trigger" seat 0's ship applying it once its water reaches 10."""
    extra = [
        {"name": "Timed Event", "type": EVENT, "program": [row]},
        {"name": "Timed Ball", "type": CURSED_BALL, "program": [row]},
    ]
    trigger = source == "trigger"
    return make_content(
        [*CARDS, *extra],
        [DECK_0, DECK_1],
        provisions=PROVISIONS,
        ship_trigger=((WATER_AT_LEAST, 10), (0, 0)) if trigger else ((0, 0), (0, 0)),
        ship_program=((row,), ()) if trigger else ((), ()),
    )


@pytest.mark.parametrize("source", ["card", "hit", "trigger"])
@pytest.mark.parametrize("effect", list(TIMED))
def test_a_timed_effect_lasts_its_full_n_turns_from_every_source(engine, source, effect) -> None:
    row, in_force = TIMED[effect]
    content = timed_content(row, source)
    hand = {"card": ["Timed Event"], "hit": ["Timed Ball"], "trigger": []}[source]
    pos = build(turn=3, content=content, hands=[hand, []])
    if source == "trigger":
        pos.sides[0].holes, pos.sides[0].intact = 1, 4  # water 10 at the start of turn 3
    engine.start_turn(pos, dice())
    assert pos.sides[0].triggered == (source == "trigger")
    if source == "card":
        do(engine, pos, (PLAY, -1, content.card_id("Timed Event"), -1))
    elif source == "hit":
        do(engine, pos, (PLAY, -1, content.card_id("Timed Ball"), -1))
        do(engine, pos, fire(0, AMMO_CURSED), 6)
    assert in_force(pos)  # applied in turn 3 for 2 turns: in force in turn 3...
    next_turn(engine, pos)
    assert in_force(pos)  # ... and in turn 4 ...
    next_turn(engine, pos)
    assert not in_force(pos)  # ... and over at the start of turn 5


def test_a_triggers_one_turn_pacification_lasts_its_turn(engine) -> None:
    content = build_content(
        ship_trigger=((WATER_AT_LEAST, 10), (0, 0)),
        ship_program=(((PACIFY_CANNONS, OWN_SHIP, 0, 1), (ANCHOR_DOWN, OWN_SHIP, 0, 2)), ()),
    )
    pos = build(turn=3, content=content)
    pos.sides[0].holes, pos.sides[0].intact = 1, 4
    engine.start_turn(pos, dice())
    assert [o for o in options(engine, pos) if o[0] == FIRE] == []  # pacified this turn
    assert pos.sides[0].anchor >= 0
    next_turn(engine, pos)  # turn 4: the pacification is over, the anchor still down
    assert (pos.sides[0].pacified, pos.sides[0].anchor >= 0) == (0, True)
    next_turn(engine, pos)  # turn 5: the anchor is up
    assert pos.sides[0].anchor == -1
    assert fire(0) in options(engine, pos)


def test_an_attack_that_cannot_hit_is_not_offered(engine) -> None:
    # Pirate 0's first weapon hits on 6 and the pirate takes 1 off its attack rolls: it
    # would need a 7. Its second weapon hits on 4 (5 with the -1).
    weapons = [[[(6, 1), (4, 1)], [(4, 1), (4, 1)]], [[(4, 1), (4, 1)], [(4, 1), (4, 1)]]]
    content = build_content(weapons=weapons, pirate_mods=[[[(ATTACK_ROLL, -1)], []], [[], []]])
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = 1  # aboard the enemy ship, with pirates 2 and 3
    attacks = [o for o in options(engine, pos) if o[0] == ATTACK]
    assert attacks == [attack(0, 1, ATTACK_PIRATE + 0), attack(0, 1, ATTACK_PIRATE + 1)]
    pirate(pos, 0).animal = card("Parrot", content)  # +1: the first weapon needs a 6 again
    attacks = [o for o in options(engine, pos) if o[0] == ATTACK]
    assert attacks == [attack(0, w, ATTACK_PIRATE + j) for w in (0, 1) for j in (0, 1)]


def test_an_immobilised_pirate_does_not_board_even_for_free(engine) -> None:
    pos = build(turn=3)  # no actions: only free boarding
    pos.sides[1].anchor = 0
    set_status(pos, 0, IMMOBILISED, 2)
    assert options(engine, pos) == [move(1, 1), END]


def test_a_dead_pirates_animal_and_item_are_out_of_play_until_it_revives(engine) -> None:
    pos = ready(build(turn=3))
    pirate(pos, 0).zone = 1  # seat 0's pirate aboard the enemy ship
    pirate(pos, 2).animal = card("Parrot")  # +1 to its cannon rolls
    pirate(pos, 2).item = card("Cutlass")  # targetable
    kill(pos, 2, markers=1)
    pirate(pos, 3).zone = ISLAND
    assert [o for o in options(engine, pos) if o[0] == ATTACK] == []
    next_turn(engine, pos)  # turn 4: the second marker turns back, pirate 2 revives
    assert (pirate(pos, 2).zone, pirate(pos, 2).actions) == (1, 1)
    assert (pirate(pos, 2).animal, pirate(pos, 2).item) == (card("Parrot"), card("Cutlass"))
    do(engine, pos, fire(0), 3)  # 3 + 1 (the Parrot, working again) = 4: a hit
    assert pos.sides[0].holes == 1


def test_a_chaos_ball_is_the_single_shot_of_game_turn_2(engine) -> None:
    pos = ready(build(turn=2))
    do(engine, pos, fire(0, AMMO_CHAOS))
    assert [o for o in options(engine, pos) if o[0] == FIRE] == []
    assert pos.sides[0].chaos_turn == 3


@pytest.mark.parametrize(("stack", "roll", "hit"), [(True, 5, False), (True, 6, True)])
def test_two_chaos_balls_in_one_turn_take_the_penalty_twice(engine, stack, roll, hit) -> None:
    # "diminuer de 1 ... pour son prochain tour", per ball: two balls take 2 off.
    pos = ready(build(turn=3, rules=BattleRules(chaos_stack=stack)))
    do(engine, pos, fire(0, AMMO_CHAOS))
    do(engine, pos, fire(1, AMMO_CHAOS))
    assert (pos.sides[0].provisions[CHAOS_BALL], pos.sides[1].chaos_turn) == (0, 4)
    assert pos.sides[1].chaos_count == 2
    assert stat(pos, 0, SEAT_STAT.CHAOS_SHOTS) == 2
    next_turn(engine, pos)
    do(engine, pos, fire(0), roll)  # 5 - 2 = 3 misses; 6 - 2 = 4 hits
    assert pos.sides[0].holes == int(hit)


@pytest.mark.parametrize(("roll", "hit"), [(5, True), (4, False)])
def test_two_chaos_balls_take_the_penalty_once_without_chaos_stack(engine, roll, hit) -> None:
    pos = ready(build(turn=3, rules=BattleRules(chaos_stack=False)))
    do(engine, pos, fire(0, AMMO_CHAOS))
    do(engine, pos, fire(1, AMMO_CHAOS))
    next_turn(engine, pos)
    do(engine, pos, fire(0), roll)  # 5 - 1 = 4: a hit (the penalty is 1, not 2)
    assert pos.sides[0].holes == int(hit)


def test_stacked_chaos_balls_multiply_the_chaos_penalty(engine) -> None:
    pos = ready(build(turn=3, rules=BattleRules(chaos_penalty=2)))
    do(engine, pos, fire(0, AMMO_CHAOS))
    do(engine, pos, fire(1, AMMO_CHAOS))
    next_turn(engine, pos)  # turn 4: 2 balls x 2 = -4; a 6 reads 2
    pirate(pos, 2).animal = card("Parrot")  # +1: 6 + 1 - 4 = 3, still a miss
    do(engine, pos, fire(0), 6)
    assert pos.sides[0].holes == 0


def test_a_chaos_ball_of_a_later_turn_counts_afresh(engine) -> None:
    pos = ready(build(turn=3))
    do(engine, pos, fire(0, AMMO_CHAOS))
    do(engine, pos, fire(1, AMMO_CHAOS))
    next_turn(engine, pos)  # turn 4
    next_turn(engine, pos)  # turn 5, seat 0: one more ball, for turn 6 alone
    pos.sides[0].provisions[CHAOS_BALL] = 1
    do(engine, pos, fire(0, AMMO_CHAOS))
    assert (pos.sides[1].chaos_turn, pos.sides[1].chaos_count) == (6, 1)
    next_turn(engine, pos)  # turn 6: -1 only
    do(engine, pos, fire(0), 5)  # 5 - 1 = 4: a hit
    assert pos.sides[0].holes == 1


@pytest.mark.parametrize("ammo", [AMMO_CANNONBALL, AMMO_CHAOS])
def test_cannon_start_own_counts_each_players_own_turns(engine, ammo) -> None:
    # "L'utilisation des canons est impossible au premier tour" / "limitée à un tir au
    # deuxième tour", read as each player's own first and second turns.
    own = BattleRules(cannon_start="own")
    for turn in (1, 2):  # each seat's own first turn: no fire at all
        pos = ready(build(turn=turn, rules=own))
        assert [o for o in options(engine, pos) if o[0] == FIRE] == []
    for turn in (3, 4):  # each seat's own second turn: one shot
        pos = ready(build(turn=turn, rules=own))
        assert [o for o in options(engine, pos) if o[0] == FIRE] == [
            fire(who, kind)
            for who in (0, 1)
            for kind in (AMMO_CANNONBALL, AMMO_INCENDIARY, AMMO_CHAOS)
        ]
        do(engine, pos, fire(0, ammo), *([4] if ammo == AMMO_CANNONBALL else []))
        assert [o for o in options(engine, pos) if o[0] == FIRE] == []
    pos = ready(build(turn=5, rules=own))  # seat 0's own third turn: two shots
    do(engine, pos, fire(0, ammo), *([4] if ammo == AMMO_CANNONBALL else []))
    assert fire(1, ammo) in options(engine, pos)


def test_cannon_start_game_lets_seat_1_fire_on_its_own_first_turn(engine) -> None:
    pos = ready(build(turn=2))  # game turn 2: seat 1's first turn, one shot
    do(engine, pos, fire(0), 4)
    assert [o for o in options(engine, pos) if o[0] == FIRE] == []
    pos = ready(build(turn=3))  # game turn 3: seat 0's second turn, no limit
    do(engine, pos, fire(0), 4)
    assert fire(1) in options(engine, pos)


def test_seat_0_plays_game_turn_1(engine) -> None:
    pos = engine.set_up(RULES, CONTENT, 3, 0)
    assert (pos.turn, pos.player) == (1, 0)
    engine.start_turn(pos, dice())
    assert [p.actions for p in pos.sides[0].pirates] == [1, 1]
    assert [p.actions for p in pos.sides[1].pirates] == [0, 0]
    assert (len(pos.sides[0].hand), len(pos.sides[1].hand)) == (3, 2)


def test_specials_a_turn_and_legendaries_a_game_are_rules(engine) -> None:
    rules = BattleRules(specials_per_turn=2, legendaries_per_game=0)
    hand = ["Broadside", "Broadside", "Broadside", "Kraken"]
    pos = ready(build(turn=3, rules=rules, hands=[hand, []]))
    assert play("Kraken") not in options(engine, pos)
    do(engine, pos, play("Broadside"))
    do(engine, pos, play("Broadside"))
    assert (pos.sides[0].special_used, pos.sides[1].holes) == (2, 2)
    assert play("Broadside") not in options(engine, pos)


def test_a_deck_holds_at_most_legendary_copies_of_a_legendary() -> None:
    from balance.core.errors import BalanceError
    from balance.games.battle_of_thieves.rules import check_legendary_copies

    deck = [("Kraken" if name == "Rum" else name) for name in DECK_0]  # two Krakens
    content = make_content(CARDS, [deck, DECK_1], provisions=PROVISIONS)
    with pytest.raises(BalanceError, match="holds 2 copies of the legendary card 'Kraken'"):
        check_legendary_copies(content, 1)
    check_legendary_copies(content, 2)
    check_legendary_copies(CONTENT, 1)
    with pytest.raises(BalanceError, match="legendary_copies"):
        BattleRules(legendary_copies=0)


# ---------------------------------------------------------------------------
# Targets "self" (an item's holder) and "random_enemy_pirate"
# ---------------------------------------------------------------------------


def test_self_is_the_holder_of_the_item(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 1).life = 1
    program(engine, pos, 0, [(HEAL, SELF, 1), (STATUS, SELF, 0, 2, DRUNK)], holder=1)
    assert (pirate(pos, 1).life, pirate(pos, 1).statuses[0]) == (2, [DRUNK, 2])
    assert pirate(pos, 0).statuses[0] == [0, 0]
    program(engine, pos, 0, [(DAMAGE, SELF, 1)])  # no holder (not an item): nobody
    assert [pirate(pos, c).life for c in range(4)] == [2, 2, 2, 2]


def test_an_item_aimed_at_self_is_activated_without_a_choice(engine) -> None:
    flask = {
        "name": "Hip Flask",
        "type": ITEM,
        "flags": ACTIVABLE,
        "program": [(HEAL, SELF, 1), (EXTRA_ACTION, SELF, 1)],
    }
    content = make_content([*CARDS, flask], [DECK_0, DECK_1], provisions=PROVISIONS)
    pos = ready(build(turn=3, content=content))
    pirate(pos, 1).item = content.card_id("Hip Flask")
    pirate(pos, 1).life = 1
    assert activate(1) in options(engine, pos)
    do(engine, pos, activate(1))
    p = pirate(pos, 1)
    assert (p.life, p.actions, p.item) == (2, 1, -1)  # healed, an action back, used up
    assert pos.sides[0].discard == [content.card_id("Hip Flask")]


@pytest.mark.parametrize(("drawn", "victim"), [(0, 2), (1, 3)])
def test_a_random_enemy_pirate_is_drawn_on_the_dice(engine, drawn, victim) -> None:
    pos = build(turn=3)
    pirate(pos, 2).zone = ISLAND  # anywhere
    program(engine, pos, 0, [(DAMAGE, RANDOM_ENEMY_PIRATE, 1)], -1, drawn)
    assert [pirate(pos, c).life for c in range(4)] == [2, 2, *(1 + (c != victim) for c in (2, 3))]
    assert stat(pos, 0, SEAT_STAT.DAMAGE_DEALT) == 1


def test_a_random_enemy_pirate_is_drawn_afresh_for_each_effect(engine) -> None:
    pos = build(turn=3)
    rows = [(DAMAGE, RANDOM_ENEMY_PIRATE, 1), (STATUS, RANDOM_ENEMY_PIRATE, 0, 2, DRUNK)]
    program(engine, pos, 0, rows, -1, 1, 0)  # pirate 3 is hurt, pirate 2 made drunk
    assert (pirate(pos, 3).life, pirate(pos, 2).statuses[0]) == (1, [DRUNK, 2])


def test_a_random_enemy_pirate_needs_no_draw_for_one_and_finds_none_when_all_dead(engine) -> None:
    pos = build(turn=3)
    kill(pos, 2)
    program(engine, pos, 0, [(DAMAGE, RANDOM_ENEMY_PIRATE, 1)])  # no dice: pirate 3
    assert pirate(pos, 3).life == 1
    kill(pos, 3)
    program(engine, pos, 0, [(DAMAGE, RANDOM_ENEMY_PIRATE, 1)])  # nobody, no dice
    assert [pirate(pos, c).life for c in range(2)] == [2, 2]


# ---------------------------------------------------------------------------
# Conditions on an effect ("if")
# ---------------------------------------------------------------------------


def test_an_effect_with_a_water_condition_applies_only_from_that_water(engine) -> None:
    rows = [(HOLE, ENEMY_SHIP, 1, 0, 0, 0, OWN_WATER_AT_LEAST, 40), (HOLE, ENEMY_SHIP, 1)]
    pos = build(turn=3)
    pos.sides[0].water = 30
    program(engine, pos, 0, rows)
    assert pos.sides[1].holes == 1  # only the unconditional hole
    pos.sides[0].water = 40
    program(engine, pos, 0, rows)
    assert pos.sides[1].holes == 3


def test_an_effect_on_the_enemy_anchor(engine) -> None:
    rows = [(WATER, ENEMY_SHIP, 20, 0, 0, 0, ENEMY_ANCHOR_DOWN)]
    pos = build(turn=3)
    program(engine, pos, 0, rows)
    assert pos.sides[1].water == 0
    pos.sides[1].anchor = 2  # down for 2 turns: down all the same
    program(engine, pos, 0, rows)
    assert pos.sides[1].water == 20


@pytest.mark.parametrize(
    ("condition", "zone", "holds"),
    [
        (OWN_PIRATE_ON_ISLAND, ISLAND, True),
        (OWN_PIRATE_ON_ISLAND, 1, False),
        (OWN_PIRATE_BOARDING, 1, True),
        (OWN_PIRATE_BOARDING, ISLAND, False),
    ],
)
def test_an_effect_on_where_ones_pirates_are(engine, condition, zone, holds) -> None:
    pos = build(turn=3)
    pirate(pos, 1).zone = zone
    pos.sides[0].provisions[CHAOS_BALL] = 0  # room in the reserve for one
    program(engine, pos, 0, [(GAIN, OWN, 1, 0, CHAOS_BALL, 0, condition)])
    assert pos.sides[0].provisions[CHAOS_BALL] == int(holds)
    kill(pos, 1)  # a dead pirate is nowhere
    program(engine, pos, 0, [(GAIN, OWN, 1, 0, CHAOS_BALL, 0, condition)])
    assert pos.sides[0].provisions[CHAOS_BALL] == int(holds)


def test_a_condition_is_checked_as_its_effect_applies_and_with_an_insult(engine) -> None:
    rows = [
        (WATER, OWN_SHIP, 50),
        (HOLE, ENEMY_SHIP, 1, 0, 0, 0, OWN_WATER_AT_LEAST, 50),  # the water just rose
        (INSULT, 0),
        (HOLE, ENEMY_SHIP, 1, 0, 0, IF_WON, OWN_WATER_AT_LEAST, 60),  # won, but water 50
        (HOLE, ENEMY_SHIP, 1, 0, 0, IF_WON, OWN_WATER_AT_LEAST, 50),
    ]
    pos = build(turn=3)
    program(engine, pos, 0, rows, -1, 6, 1)  # the insult battle is won
    assert pos.sides[1].holes == 2


# ---------------------------------------------------------------------------
# A card's cost
# ---------------------------------------------------------------------------

COSTLY = [
    # two cannonballs: a hole in the enemy ship
    {"name": "Costly Shot", "type": EVENT, "program": [(HOLE, ENEMY_SHIP, 1)], "cost": (0, 2)},
    # an action of one's pirates: 20 water out of one's ship
    {
        "name": "Heave Ho",
        "type": EVENT,
        "program": [(WATER, OWN_SHIP, -20)],
        "cost": (0, 0, 0, 0, 0, 1),
    },
]


def costly(hand: list[str]):
    content = make_content([*CARDS, *COSTLY], [DECK_0, DECK_1], provisions=PROVISIONS)
    return content, ready(build(turn=3, content=content, hands=[hand, []]))


def test_a_card_costing_provisions_is_played_only_when_they_can_be_spent(engine) -> None:
    content, pos = costly(["Costly Shot"])
    shot = (PLAY, -1, content.card_id("Costly Shot"), -1)
    pos.sides[0].provisions[CANNONBALL] = 1
    assert shot not in options(engine, pos)
    pos.sides[0].provisions[CANNONBALL] = 2
    pos.sides[0].stripped = 1  # no provision can be spent
    assert shot not in options(engine, pos)
    pos.sides[0].stripped = 0
    do(engine, pos, shot)
    assert (pos.sides[0].provisions[CANNONBALL], pos.sides[1].holes) == (0, 1)
    assert [pirate(pos, c).actions for c in (0, 1)] == [1, 1]


def test_a_card_costing_an_action_takes_the_first_pirate_with_one(engine) -> None:
    content, pos = costly(["Heave Ho", "Heave Ho", "Heave Ho"])
    heave = (PLAY, -1, content.card_id("Heave Ho"), -1)
    pos.sides[0].water = 60
    do(engine, pos, heave)
    assert ([pirate(pos, c).actions for c in (0, 1)], pos.sides[0].water) == ([0, 1], 40)
    do(engine, pos, heave)  # pirate 0 has none left: pirate 1 pays
    assert ([pirate(pos, c).actions for c in (0, 1)], pos.sides[0].water) == ([0, 0], 20)
    assert heave not in options(engine, pos)  # no action left to pay with
    assert pos.sides[0].provisions == [10, 12, 4, 2, 2]


# ---------------------------------------------------------------------------
# Triggered abilities of pirates, animals and items
# ---------------------------------------------------------------------------

TRIGGERED = [
    # at the start of its owner's turn: its holder gets an action more and is drunk 2 turns
    {
        "name": "Compass",
        "type": ITEM,
        "triggers": [(ON_TURN_START, [(EXTRA_ACTION, SELF, 1), (STATUS, SELF, 0, 2, DRUNK)])],
    },
    # when its holder is hit (and lives): it heals 1; when boarded: 20 water out
    {
        "name": "Lucky Charm",
        "type": ITEM,
        "triggers": [(ON_HIT, [(HEAL, SELF, 1)]), (ON_BOARDED, [(WATER, OWN_SHIP, -20)])],
    },
    # when its host's ship is boarded with the host aboard: 1 damage to a random enemy
    {
        "name": "Guard Dog",
        "type": ANIMAL,
        "triggers": [(ON_BOARDED, [(DAMAGE, RANDOM_ENEMY_PIRATE, 1)])],
    },
    # at the start of its owner's turn: its host may not repair for 3 turns; 30 water out
    {
        "name": "Bilge Rat",
        "type": ANIMAL,
        "triggers": [(ON_TURN_START, [(STATUS, SELF, 0, 3, NO_REPAIR), (WATER, OWN_SHIP, -30)])],
    },
]


def triggered(pirate_triggers=None, **changes):
    """The test content with :data:`TRIGGERED` (in no deck) and ``pirate_triggers``."""
    return make_content(
        [*CARDS, *TRIGGERED],
        [DECK_0, DECK_1],
        provisions=PROVISIONS,
        pirate_triggers=pirate_triggers,
        **changes,
    )


def no_triggers():
    return [[[], []], [[], []]]


def test_turn_start_abilities_fire_after_the_actions_and_last_their_turns(engine) -> None:
    content = triggered()
    pos = build(turn=3, content=content)
    pirate(pos, 1).item = content.card_id("Compass")
    pirate(pos, 3).item = content.card_id("Compass")  # the enemy's: not on seat 0's turn
    engine.start_turn(pos, dice())
    # the extra action comes after the start of turn's one action
    assert [pirate(pos, c).actions for c in range(4)] == [1, 2, 0, 0]
    assert pirate(pos, 1).statuses[0] == [DRUNK, 2]
    assert pirate(pos, 3).statuses[0] == [0, 0]
    next_turn(engine, pos)  # turn 4, seat 1's: pirate 3's Compass, pirate 1 still drunk
    assert pirate(pos, 1).statuses[0] == [DRUNK, 1]
    assert (pirate(pos, 3).actions, pirate(pos, 3).statuses[0]) == (2, [DRUNK, 2])
    next_turn(engine, pos)  # turn 5: the 2 turns are over, and the Compass fires again
    assert pirate(pos, 1).statuses[0] == [DRUNK, 2]


def test_turn_start_abilities_fire_pirate_by_pirate_own_then_animal_then_item(engine) -> None:
    # A pirate has two status slots, so the order shows in the statuses that got in.
    pirates = no_triggers()
    pirates[0][0] = [(ON_TURN_START, [(STATUS, SELF, 0, 3, IMMOBILISED)])]
    pirates[0][1] = [(ON_TURN_START, [(STATUS, PIRATES_OWN_SHIP, 0, 1, NO_CANNON)])]
    content = triggered(pirates)
    pos = build(turn=3, content=content)
    pos.sides[0].water = 10
    pirate(pos, 0).animal = content.card_id("Bilge Rat")  # no repair 3 turns, 30 water out
    pirate(pos, 0).item = content.card_id("Compass")  # an action more; drunk: no slot left
    engine.start_turn(pos, dice())
    assert pirate(pos, 0).statuses == [[IMMOBILISED, 3], [NO_REPAIR, 3]]
    assert pirate(pos, 0).actions == 2
    assert pirate(pos, 1).statuses == [[NO_CANNON, 1], [0, 0]]  # pirate 1's came last
    assert pos.sides[0].water == 0


def test_a_dead_holder_does_not_fire_and_a_revived_one_does(engine) -> None:
    content = triggered()
    pos = build(turn=3, content=content)
    pirate(pos, 0).item = content.card_id("Compass")
    pirate(pos, 1).item = content.card_id("Compass")
    kill(pos, 0, markers=0)  # turns its first marker back: still dead
    kill(pos, 1, markers=1)  # both markers back now: revived at step 6, before the abilities
    engine.start_turn(pos, dice())
    assert (pirate(pos, 0).zone, pirate(pos, 0).actions) == (-1, 0)
    assert (pirate(pos, 1).zone, pirate(pos, 1).actions) == (0, 2)
    assert pirate(pos, 1).statuses[0] == [DRUNK, 2]


def test_a_turn_start_ability_may_sink_its_own_ship(engine) -> None:
    pirates = no_triggers()
    pirates[0][0] = [(ON_TURN_START, [(WATER, OWN_SHIP, 60), (HOLE, ENEMY_SHIP, 1)])]
    pos = build(turn=3, content=triggered(pirates))
    pos.sides[0].water = 40
    engine.start_turn(pos, dice())
    assert (pos.over, pos.winner, pos.reason) == (True, 1, BY_WATER)
    assert pos.sides[1].holes == 0  # nothing after the loss


def test_a_hit_fires_the_victims_abilities_for_its_owner_if_it_lives(engine) -> None:
    pirates = no_triggers()
    pirates[1][0] = [(ON_HIT, [(HOLE, ENEMY_SHIP, 1), (STATUS, SELF, 0, 1, NO_BUCKET)])]
    content = triggered(pirates)
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = pirate(pos, 1).zone = 1  # aboard the enemy ship, with 2 and 3
    pirate(pos, 2).item = content.card_id("Lucky Charm")
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 4)  # hits pirate 2 for 1
    # its own ability first (a hole in seat 0's ship, made by seat 1), then the charm's heal
    assert (pirate(pos, 2).life, pos.sides[0].holes) == (2, 1)
    assert pirate(pos, 2).statuses[0] == [NO_BUCKET, 1]
    assert (stat(pos, 1, SEAT_STAT.HOLES_MADE), stat(pos, 0, SEAT_STAT.DAMAGE_DEALT)) == (1, 1)
    do(engine, pos, attack(1, 0, ATTACK_PIRATE + 0), 3)  # a miss fires nothing
    assert (pirate(pos, 2).life, pos.sides[0].holes) == (2, 1)


def test_a_hit_that_kills_fires_nothing_nor_does_a_hit_on_the_animal(engine) -> None:
    pirates = no_triggers()
    pirates[1][0] = [(ON_HIT, [(HOLE, ENEMY_SHIP, 1)])]
    content = triggered(pirates, weapons=[[[(4, 2), (4, 1)], [(4, 1), (4, 1)]]] * 2)
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = pirate(pos, 1).zone = 1
    pirate(pos, 2).animal = content.card_id("Guard Dog")
    do(engine, pos, attack(1, 0, ATTACK_ANIMAL + 0), 6)  # the dog dies, not a hit on pirate 2
    assert (pirate(pos, 2).animal, pos.sides[0].holes) == (-1, 0)
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 5)  # 2 damage: pirate 2 dies
    assert (pirate(pos, 2).alive, pos.sides[0].holes) == (False, 0)


def test_boarding_fires_the_abilities_of_the_pirates_aboard_the_boarded_ship(engine) -> None:
    content = triggered()
    pos = ready(build(turn=3, content=content))
    pos.sides[1].water = 50
    pirate(pos, 2).animal = content.card_id("Guard Dog")
    pirate(pos, 3).item = content.card_id("Lucky Charm")
    pirate(pos, 3).zone = ISLAND  # not aboard: its charm stays quiet
    do(engine, pos, move(0, 1), 1)  # the dog draws pirate 1 of seat 0's two living pirates
    assert [pirate(pos, c).life for c in (0, 1)] == [2, 1]
    assert pos.sides[1].water == 50
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 1
    pirate(pos, 0).zone = 0
    pirate(pos, 3).zone = 1
    do(engine, pos, move(1, 1), 0)  # the dog bites pirate 0; then the charm: 50 - 20
    assert [pirate(pos, c).life for c in (0, 1)] == [1, 1]
    assert pos.sides[1].water == 30


def test_a_free_boarding_fires_them_and_a_carried_pirate_does_not(engine) -> None:
    content = triggered()
    pos = build(turn=3, content=content)  # no actions: only a free boarding is possible
    pos.sides[1].anchor = 0
    pirate(pos, 2).animal = content.card_id("Guard Dog")
    kill(pos, 1)
    do(engine, pos, move(0, 1))  # one living enemy: no draw
    assert pirate(pos, 0).life == 1
    pirate(pos, 0).zone = 0
    program(engine, pos, 0, [(MOVE, PIRATES_OWN_SHIP, 0, 0, TO_ENEMY_SHIP)])  # carried
    assert (pirate(pos, 0).zone, pirate(pos, 0).life) == (1, 1)


# ---------------------------------------------------------------------------
# Combat: weapons' reach and effects, "hits" abilities, attacker, boarder, hit_pirate
# ---------------------------------------------------------------------------

#: The designer's combat pieces (``docs/battle-of-thieves-cards.md``): Poisoned Dagger
#: (4+, 1 damage, its hits poison), Long Pistol (5+, 1 damage, from one's own ship at the
#: enemy's ship), Stabby Pete (his hits poison), Fire Salamander (whoever hits its host
#: burns).
DAGGER = (4, 1, REACH_HERE)
DAGGER_HIT = [(STATUS, HIT_PIRATE, 0, 0, POISON)]
PISTOL = (5, 1, REACH_SHIP)
PETE = [(ON_HITS, [(STATUS, HIT_PIRATE, 0, 0, POISON)])]
SALAMANDER = {
    "name": "Fire Salamander",
    "type": ANIMAL,
    "triggers": [(ON_HIT, [(STATUS, ATTACKER, 0, 0, BURN)])],
}
PLAIN = (4, 1, REACH_HERE)


def armed(first=(PLAIN, PLAIN), effects=([], []), pete=False, victim=(), triggers=None, **changes):
    """The test content with pirate 0's two weapons ``first`` (and their ``effects`` on a
    hit), pirate 0's abilities Stabby Pete's if ``pete``, pirate 2's ``victim``
    abilities (or every pirate's ``triggers``), and the Fire Salamander (in no deck);
    every other weapon hits on 4 for 1."""
    weapons = [[list(first), [PLAIN, PLAIN]], [[PLAIN, PLAIN], [PLAIN, PLAIN]]]
    programs = [[list(effects), [[], []]], [[[], []], [[], []]]]
    if triggers is None:
        triggers = [[PETE if pete else [], []], [list(victim), []]]
    return make_content(
        [*CARDS, SALAMANDER],
        [DECK_0, DECK_1],
        provisions=PROVISIONS,
        weapons=weapons,
        weapon_programs=programs,
        pirate_triggers=triggers,
        **changes,
    )


def attacks_of(engine, pos, who: int = 0) -> list[tuple[int, int, int, int]]:
    return [o for o in options(engine, pos) if o[0] == ATTACK and o[1] == who]


def test_a_long_pistol_fires_from_its_own_ship_at_the_enemy_ship_only(engine) -> None:
    content = armed((PISTOL, DAGGER))
    pos = ready(build(turn=3, content=content))
    pirate(pos, 3).zone = ISLAND
    # pirate 0 aboard its own ship: the pistol reaches pirate 2 aboard the enemy's ship,
    # not pirate 3 on the island; the dagger reaches nobody
    assert attacks_of(engine, pos) == [attack(0, 0, ATTACK_PIRATE + 0)]
    # pirate 2's animal and targetable item come after the pirates, as for any weapon
    pirate(pos, 2).animal = card("Parrot", content)
    pirate(pos, 2).item = card("Cutlass", content)
    pirate(pos, 3).zone = 0  # pirate 3 boards seat 0's ship: both weapons reach it
    assert attacks_of(engine, pos) == [
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 0, ATTACK_PIRATE + 1),
        attack(0, 0, ATTACK_ANIMAL + 0),
        attack(0, 0, ATTACK_ITEM + 0),
        attack(0, 1, ATTACK_PIRATE + 1),
    ]
    # from the island or aboard the enemy's ship, the pistol reaches only its own zone
    pirate(pos, 0).zone = ISLAND
    assert attacks_of(engine, pos) == []
    pirate(pos, 0).zone = 1
    assert attacks_of(engine, pos) == [
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 0, ATTACK_ANIMAL + 0),
        attack(0, 0, ATTACK_ITEM + 0),
        attack(0, 1, ATTACK_PIRATE + 0),
        attack(0, 1, ATTACK_ANIMAL + 0),
        attack(0, 1, ATTACK_ITEM + 0),
    ]


def test_a_weapon_of_any_reach_reaches_every_zone_but_not_the_dead(engine) -> None:
    pos = ready(build(turn=3, content=armed(((4, 1, REACH_ANY), PLAIN))))
    pirate(pos, 0).zone = ISLAND
    pirate(pos, 3).zone = 0  # aboard seat 0's ship; pirate 2 aboard its own
    assert attacks_of(engine, pos) == [
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 0, ATTACK_PIRATE + 1),
    ]
    kill(pos, 2)
    assert attacks_of(engine, pos) == [attack(0, 0, ATTACK_PIRATE + 1)]


def test_a_reach_attack_still_needs_the_action_a_hit_and_no_disarm(engine) -> None:
    content = armed((PISTOL, (6, 1, REACH_ANY)), pirate_mods=[[[(ATTACK_ROLL, -1)], []], [[], []]])
    pos = ready(build(turn=3, content=content))
    # the pistol needs 5 + 1 = 6; the second weapon a 7: not offered
    assert attacks_of(engine, pos) == [
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 0, ATTACK_PIRATE + 1),
    ]
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 1), 5)  # 5 - 1 = 4: a miss
    assert (pirate(pos, 3).life, pirate(pos, 0).actions) == (2, 0)
    assert attacks_of(engine, pos) == []  # no action left
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 1), 6)  # 6 - 1 = 5: a hit, from afar
    assert (pirate(pos, 3).life, pirate(pos, 0).zone) == (1, 0)
    assert (stat(pos, 0, SEAT_STAT.ATTACK_HITS), stat(pos, 0, SEAT_STAT.DAMAGE_DEALT)) == (1, 1)
    pirate(pos, 0).actions = 1
    set_status(pos, 0, DISARMED, 2)
    assert attacks_of(engine, pos) == []


def test_a_poisoned_dagger_poisons_the_pirate_it_hits(engine) -> None:
    pos = ready(build(turn=3, content=armed((DAGGER, PLAIN), (DAGGER_HIT, []))))
    pirate(pos, 0).zone = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 1), 3)  # a miss: nothing
    assert (pirate(pos, 3).life, pirate(pos, 3).statuses[0]) == (2, [0, 0])
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 1), 4)  # a hit: 1 damage, then poison
    assert (pirate(pos, 3).life, pirate(pos, 3).statuses[0]) == (1, [POISON, 3])
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 1, ATTACK_PIRATE + 0), 6)  # the other weapon: no poison
    assert (pirate(pos, 2).life, pirate(pos, 2).statuses[0]) == (1, [0, 0])
    # the poison bites at the start of the next game turn (turn 4): pirate 3 dies
    next_turn(engine, pos)
    assert (pirate(pos, 3).alive, pirate(pos, 2).life) == (False, 1)


def test_a_weapons_effects_follow_a_kill_but_not_a_hit_on_an_animal(engine) -> None:
    # on a hit: a hole in the enemy ship, the attacker heals 1, the pirate hit is poisoned
    effects = [(HOLE, ENEMY_SHIP, 1), (HEAL, SELF, 1), (STATUS, HIT_PIRATE, 0, 0, POISON)]
    content = armed(((4, 2, REACH_HERE), PLAIN), (effects, []))
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = 1
    pirate(pos, 0).life = 1
    pirate(pos, 2).animal = card("Parrot", content)
    do(engine, pos, attack(0, 0, ATTACK_ANIMAL + 0), 4)  # the parrot dies; no effects
    assert (pirate(pos, 2).animal, pos.sides[1].holes, pirate(pos, 0).life) == (-1, 0, 1)
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 4)  # 2 damage: pirate 2 dies
    assert (pirate(pos, 2).alive, pirate(pos, 2).statuses[0]) == (False, [0, 0])
    assert (pos.sides[1].holes, pirate(pos, 0).life) == (1, 2)  # the effects still apply
    assert stat(pos, 0, SEAT_STAT.HOLES_MADE) == 1


def test_stabby_petes_hits_poison(engine) -> None:
    content = armed(pete=True)
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = pirate(pos, 1).zone = 1
    pirate(pos, 3).animal = card("Parrot", content)
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 3)  # a miss: nothing
    assert pirate(pos, 2).statuses[0] == [0, 0]
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 0, ATTACK_ANIMAL + 1), 4)  # a hit on an animal: nothing
    assert pirate(pos, 3).statuses[0] == [0, 0]
    pirate(pos, 0).actions = 1
    do(engine, pos, attack(0, 1, ATTACK_PIRATE + 0), 4)  # his hit poisons, any weapon
    assert (pirate(pos, 2).life, pirate(pos, 2).statuses[0]) == (1, [POISON, 3])
    do(engine, pos, attack(1, 0, ATTACK_PIRATE + 1), 4)  # pirate 1 is not Pete
    assert (pirate(pos, 3).life, pirate(pos, 3).statuses[0]) == (1, [0, 0])


def test_a_fire_salamander_burns_whoever_hits_its_host_if_the_host_lives(engine) -> None:
    content = armed(((4, 2, REACH_HERE), PLAIN))
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = pirate(pos, 1).zone = 1
    pirate(pos, 2).animal = card("Fire Salamander", content)
    do(engine, pos, attack(1, 0, ATTACK_PIRATE + 0), 4)  # pirate 1 hits the host: burns
    assert (pirate(pos, 2).life, pirate(pos, 1).statuses[0]) == (1, [BURN, 3])
    assert pirate(pos, 0).statuses[0] == [0, 0]
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 4)  # 2 damage kills the host: no burn
    assert (pirate(pos, 2).alive, pirate(pos, 0).statuses[0]) == (False, [0, 0])


def test_the_order_of_one_hit_damage_weapon_hits_then_hit(engine) -> None:
    # The weapon makes the pirate hit drunk; Pete's hits then want it unable to bail and
    # to repair, but a pirate has two status slots: the weapon's came first. Then Pete's
    # second ability pours 10 water into seat 1's ship (0 → 10) and, last, the victim's
    # hit ability bails 20 out of it (10 → 0; the other way round it would end at 10).
    content = armed(
        (PLAIN, PLAIN),
        ([(STATUS, HIT_PIRATE, 0, 2, DRUNK)], []),
        triggers=[
            [
                [
                    (ON_HITS, [(STATUS, HIT_PIRATE, 0, 2, NO_BUCKET)]),
                    (ON_HITS, [(STATUS, HIT_PIRATE, 0, 2, NO_REPAIR), (WATER, ENEMY_SHIP, 10)]),
                ],
                [],
            ],
            [[(ON_HIT, [(WATER, OWN_SHIP, -20), (STATUS, ATTACKER, 0, 1, IMMOBILISED)])], []],
        ],
    )
    pos = ready(build(turn=3, content=content))
    pirate(pos, 0).zone = 1
    do(engine, pos, attack(0, 0, ATTACK_PIRATE + 0), 4)
    assert pirate(pos, 2).life == 1
    assert pirate(pos, 2).statuses == [[DRUNK, 2], [NO_BUCKET, 2]]
    assert pos.sides[1].water == 0
    assert pirate(pos, 0).statuses[0] == [IMMOBILISED, 1]  # "attacker": pirate 0


def test_a_boarded_ability_names_the_boarder(engine) -> None:
    content = armed(victim=[(ON_BOARDED, [(STATUS, BOARDER, 0, 2, DISARMED)])])
    pos = ready(build(turn=3, content=content))
    do(engine, pos, move(1, 1))  # pirate 1 boards: it is disarmed, not pirate 0
    assert (pirate(pos, 1).statuses[0], pirate(pos, 0).statuses[0]) == ([DISARMED, 2], [0, 0])
    pirate(pos, 1).actions = 1
    assert attacks_of(engine, pos, 1) == []  # disarmed, aboard with pirates 2 and 3


def test_a_boarder_thrown_back_to_its_own_ship(engine) -> None:
    content = armed(victim=[(ON_BOARDED, [(MOVE, BOARDER, 0, 0, TO_ENEMY_SHIP)])])
    pos = ready(build(turn=3, content=content))
    do(engine, pos, move(0, 1))  # seat 1's "enemy ship" is seat 0's: pirate 0 is back
    assert (pirate(pos, 0).zone, pirate(pos, 0).actions) == (0, 0)
    assert stat(pos, 0, SEAT_STAT.BOARDINGS) == 1


def test_a_cause_target_touches_its_pirate_only_while_it_lives(engine) -> None:
    pos = build(turn=3)
    for target in (ATTACKER, BOARDER, HIT_PIRATE):
        program(engine, pos, 1, [(DAMAGE, target, 1)], other=0)
    assert [pirate(pos, c).life for c in range(4)] == [0, 2, 2, 2]  # 3 damage, dead at 0
    program(engine, pos, 1, [(HEAL, ATTACKER, 1), (STATUS, HIT_PIRATE, 0, 2, DRUNK)], other=0)
    assert (pirate(pos, 0).life, pirate(pos, 0).statuses[0]) == (0, [0, 0])
    program(engine, pos, 1, [(DAMAGE, ATTACKER, 1)])  # nobody set it off: nothing
    assert [pirate(pos, c).life for c in range(4)] == [0, 2, 2, 2]


# ---------------------------------------------------------------------------
# The canonical order of the options
# ---------------------------------------------------------------------------


def test_canonical_order_of_many_options(engine) -> None:
    hand = [
        "Grog",
        "Stew",
        "Grog",
        "Parrot",
        "Cutlass",
        "Cursed Ball",
        "Treasure Cove",
        "Second Wind",
        "Firebrand",
        "Broadside",
        "Kraken",
    ]
    pos = ready(build(turn=3, hands=[hand, []]))
    side = pos.sides[0]
    side.water, side.holes, side.intact, side.mast, side.anchor = 20, 1, 4, 0, 0
    side.legendary_used = 1
    pirate(pos, 0).life = 1
    pirate(pos, 0).item = card("Powder Keg")
    pirate(pos, 1).zone = 1
    pirate(pos, 1).item = card("Pistol")
    pirate(pos, 2).animal = card("Parrot")  # pirate 2 aboard ship 1
    pirate(pos, 3).zone = 0
    pirate(pos, 3).item = card("Cutlass")  # targetable
    assert options(engine, pos) == [
        # pirate 0, aboard its own ship
        move(0, 1),
        move(0, 2),
        bail(0),
        repair_hole(0),
        repair_mast(0),
        raise_anchor(0),
        fire(0, AMMO_CANNONBALL),
        fire(0, AMMO_INCENDIARY),
        fire(0, AMMO_CHAOS),
        attack(0, 0, ATTACK_PIRATE + 1),
        attack(0, 0, ATTACK_ITEM + 1),
        attack(0, 1, ATTACK_PIRATE + 1),
        attack(0, 1, ATTACK_ITEM + 1),
        activate(0, -1),
        # pirate 1, aboard the enemy ship
        move(1, 0),
        move(1, 2),
        attack(1, 0, ATTACK_PIRATE + 0),
        attack(1, 0, ATTACK_ANIMAL + 0),
        attack(1, 1, ATTACK_PIRATE + 0),
        attack(1, 1, ATTACK_ANIMAL + 0),
        activate(1, 2),
        # free actions and cards
        eat(0),
        play("Grog", 2),
        play("Grog", 3),
        play("Stew", 0),
        play("Parrot", 0),
        play("Parrot", 1),
        play("Cursed Ball"),
        play("Treasure Cove"),
        play("Firebrand", 2),
        play("Firebrand", 3),
        play("Broadside"),
        END,
    ]


def test_canonical_order_on_the_island_and_enemy_here_targets(engine) -> None:
    pos = ready(build(turn=4, hands=[[], ["Firebrand", "Rum", "Pickpocket"]]))
    pirate(pos, 2).zone, pirate(pos, 2).ashore = ISLAND, True
    pos.sides[1].provisions[PLANK] = 9  # something to take back: a visit is offered
    pirate(pos, 0).zone = ISLAND
    pirate(pos, 3).life = 1
    assert options(engine, pos) == [
        move(0, 0),
        move(0, 1),
        attack(0, 0, ATTACK_PIRATE + 0),
        attack(0, 1, ATTACK_PIRATE + 0),
        visit(0),
        move(1, 0),
        move(1, 2),
        fire(1, AMMO_CANNONBALL),
        fire(1, AMMO_INCENDIARY),
        fire(1, AMMO_CHAOS),
        eat(3),
        play("Firebrand", 0),  # pirate 0 is on the island with pirate 2; pirate 1 is not
        play("Rum"),
        play("Pickpocket"),
        END,
    ]


# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def test_set_up_shuffles_and_deals(engine) -> None:
    from balance.core.random_ref import Stream

    from .conftest import CONTENT, RULES

    pos = engine.set_up(RULES, CONTENT, 7, 3)
    for s in range(2):
        deck = [int(c) for c in CONTENT.deck[s]]
        stream = Stream(7, 3, s)
        for i in range(19, 0, -1):
            j = stream.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        side = pos.sides[s]
        assert side.deck == deck
        assert side.hand == deck[:2]
        assert side.deck_pos == 2
        assert side.provisions == [10, 12, 4, 2, 2]
        assert (side.water, side.intact, side.holes, side.anchor, side.mast) == (0, 5, 0, -1, -1)
        assert [(p.zone, p.life, p.actions) for p in side.pirates] == [(s, 2, 0), (s, 2, 0)]
        assert stat(pos, s, SEAT_STAT.CARDS_DRAWN) == 2
        assert sum(row[CARD_STAT.DRAWN] for row in pos.card_stats[s]) == 2
    assert (pos.turn, pos.over) == (1, False)


# ---------------------------------------------------------------------------
# Whole games (the reference engine's play_game)
# ---------------------------------------------------------------------------


class EndsTurns:
    """A player that always ends its turn at once (END_TURN is the last option)."""

    def choose(self, pos, options) -> int:
        assert options[-1] == END
        return len(options) - 1


def check_record(record, rules: BattleRules) -> None:
    """What every game record must satisfy, whoever played."""
    g = record.games
    assert 1 <= g[GAME_STAT.TURNS] <= rules.turn_cap
    if g[GAME_STAT.FINISHED]:
        winner = g[GAME_STAT.WINNER]
        assert winner in (0, 1)
        assert g[GAME_STAT.REASON] in (BY_WATER, BY_SIN)
        assert [record.seats[s][SEAT_STAT.WON] for s in (0, 1)] == [
            int(s == winner) for s in (0, 1)
        ]
        if g[GAME_STAT.REASON] == BY_WATER:
            assert g[GAME_STAT.WATER_0 + 1 - winner] >= rules.sink_water
    else:
        assert (g[GAME_STAT.WINNER], g[GAME_STAT.REASON]) == (-1, CAPPED)
        assert g[GAME_STAT.TURNS] == rules.turn_cap
        assert [record.seats[s][SEAT_STAT.WON] for s in (0, 1)] == [0, 0]
    for s in (0, 1):
        seat, rows = record.seats[s], record.cards[s]
        assert seat[SEAT_STAT.FINAL_WATER] == g[GAME_STAT.WATER_0 + s]
        assert seat[SEAT_STAT.CARDS_DRAWN] == sum(row[CARD_STAT.DRAWN] for row in rows)
        assert seat[SEAT_STAT.CARDS_PLAYED] == sum(row[CARD_STAT.PLAYED] for row in rows)
        assert 2 <= seat[SEAT_STAT.CARDS_DRAWN] <= 20
        assert all(row[CARD_STAT.PLAYED] <= row[CARD_STAT.DRAWN] for row in rows)
        assert seat[SEAT_STAT.HITS] <= seat[SEAT_STAT.SHOTS]
        assert seat[SEAT_STAT.ATTACK_HITS] <= seat[SEAT_STAT.ATTACKS]
        # Holes taken by one ship: made by the enemy's shots and cards, or the Red Sea, or
        # its own cards; never fewer than the enemy made.
        assert seat[SEAT_STAT.HOLES_TAKEN] >= record.seats[1 - s][SEAT_STAT.HOLES_MADE]


def test_random_games_end_and_their_records_add_up() -> None:
    finished = 0
    for game in range(30):
        record = reference.play_game(RULES, CONTENT, 11, game)
        check_record(record, RULES)
        finished += record.games[GAME_STAT.FINISHED]
    assert finished >= 1


def test_random_games_under_a_short_cap_end_capped() -> None:
    rules = BattleRules(turn_cap=4)
    capped = 0
    for game in range(20):
        record = reference.play_game(rules, CONTENT, 5, game)
        check_record(record, rules)
        capped += record.games[GAME_STAT.FINISHED] == 0
    assert capped >= 15  # a ship barely takes water in four turns


def test_the_same_seed_plays_the_same_game() -> None:
    assert reference.play_game(RULES, CONTENT, 3, 4) == reference.play_game(RULES, CONTENT, 3, 4)


def test_different_seeds_play_different_games() -> None:
    records = [reference.play_game(RULES, CONTENT, seed, 0) for seed in range(10)]
    distinct = {repr(r) for r in records}
    assert len(distinct) >= 8
    by_game = {repr(reference.play_game(RULES, CONTENT, 3, game)) for game in range(10)}
    assert len(by_game) >= 8


def test_a_game_of_players_who_only_end_their_turns() -> None:
    rules = BattleRules(turn_cap=2)
    record = reference.play_game(rules, CONTENT, 1, 0, make_player=lambda s, _: EndsTurns())
    assert record.games == [2, 0, -1, CAPPED, 0, 0]
    for s in (0, 1):
        # 2 starting cards and 1 drawn in one's turn, each held once, none played.
        assert record.seats[s][SEAT_STAT.CARDS_DRAWN] == 3
        assert record.seats[s][SEAT_STAT.CARDS_PLAYED] == 0
        assert sum(row[CARD_STAT.HELD] for row in record.cards[s]) == 3
        assert sum(record.seats[s]) == 3


def test_a_scripted_player_out_of_answers_raises() -> None:
    with pytest.raises(ScriptError):
        reference.play_game(RULES, CONTENT, 1, 0, make_player=lambda s, _: reference.Scripted([]))


def test_an_answer_out_of_range_is_an_illegal_choice() -> None:
    with pytest.raises(IllegalChoice):
        reference.play_game(RULES, CONTENT, 1, 0, make_player=lambda s, _: reference.Scripted([99]))


def test_the_random_player_draws_only_among_two_options_or_more() -> None:
    player = reference.RandomPlayer(Stream(1, 0, 3))
    assert player.choose(None, [END]) == 0
    fresh = Stream(1, 0, 3)
    assert player.choose(None, [END, END, END]) == fresh.below(3)


def test_a_game_is_narrated() -> None:
    lines: list[str] = []
    record = reference.play_game(RULES, CONTENT, 2, 0, narrate=lines.append)
    assert lines[0] == "deck 0 (seat 0) against deck 1 (seat 1); " + lines[0].split("; ", 1)[1]
    assert lines[1].startswith("turn 1, seat 0: water 0 (0 holes)")
    assert any(line.startswith("turn 2, seat 1") for line in lines)
    end = lines[-1]
    if record.games[GAME_STAT.FINISHED]:
        assert end.startswith(f"Game over in turn {record.games[GAME_STAT.TURNS]}: seat ")
    else:
        assert end.startswith("Turn cap")
    # Narrating does not change the game.
    assert record == reference.play_game(RULES, CONTENT, 2, 0)


def test_a_visit_that_takes_nothing_back_says_why() -> None:
    # A full reserve (30 at set-up): "nothing to take back", not "0 provisions".
    lines: list[str] = []
    pos = ready(build(turn=3))
    reference.visit(pos, 0, reference.Dice(script=[]), say=lines.append)
    assert lines == ["  nothing to take back (the reserve is full at 30)"]
    # Room in the reserve, but nothing spent: still nothing to take back.
    pos = ready(build(turn=3, rules=BattleRules(reserve_max=40)))
    lines.clear()
    reference.visit(pos, 0, reference.Dice(script=[]), say=lines.append)
    assert lines == ["  nothing to take back (no provision is below its starting count)"]


def test_a_gain_cut_short_by_a_full_reserve_says_so() -> None:
    lines: list[str] = []
    pos = build(turn=3)  # 30 provisions: full
    reference.apply_effect(pos, 0, GAIN, OWN, 3, 0, PLANK, -1, dice(), say=lines.append)
    assert lines == ["  seat 0 gains 0 planks (the reserve is full at 30)"]
    pos.sides[0].provisions = [5, 12, 4, 2, 2]  # 25: room for all 3
    lines.clear()
    reference.apply_effect(pos, 0, GAIN, OWN, 3, 0, PLANK, -1, dice(), say=lines.append)
    assert lines == ["  seat 0 gains 3 planks"]
