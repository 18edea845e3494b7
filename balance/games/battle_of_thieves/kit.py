"""Helpers for Battle of Thieves strategies: what an option is worth to a plan.

Every shipped heuristic scores each legal option with :func:`option_value_nb` under its
own weights (a *plan*), and takes the best option if it is worth more than ending the turn
(:func:`best_option_nb`). During an island visit it takes back the provision it needs
most (:func:`take_need_nb`). The helpers read only what a strategy may see (``layout.View``):
the public position, its own hand, and the card data of both decks.

A plan is a tuple of ``Plan.SIZE`` floats, weights and thresholds (a tuple, so that the
compiled strategies allocate nothing); the strategies in ``strategies/battle_of_thieves.py``
build it from their parameters.

The small helpers an option's worth is made of are compiled into
:func:`option_value_nb` (``inline="always"``), and it into the one choosing loop,
:func:`choose_by_plan_nb`: each call of a compiled function passes every array of its arguments
field by field (the kit's view is some 260 numbers), which cost a heuristic more than the
scoring itself when every option made such a call. Both kinds of choice
(:func:`choose_option_nb`, :func:`choose_finishing_option_nb`) go through that one loop,
so that the scoring is compiled once: with a loop of its own for each, the game loop's
first compile grew by 25 s instead of 9 s, for 8 to 15% more speed (docs/performance.md).
For the same reason the choosing loop works on the kit's view (:func:`kit_view_nb`),
which leaves out what the kit never reads: with the whole view, the heuristics played
half as fast.

numba compiles the choosing loop once; LLVM then copies it into each heuristic that calls
it (:func:`~balance.core.llvm_nb.inlined_by_llvm_nb`), so that a decision passes the view
to no call at all. numba's own inlining (``inline="always"``) would type and lower the
loop again in every heuristic, some 20 s of first compile each.
"""

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.core.llvm_nb import inlined_by_llvm_nb
from balance.core.random_nb import below_nb as below_nb  # what a strategy file draws with
from balance.games.battle_of_thieves.content import C
from balance.games.battle_of_thieves.engine_nb import condition_nb
from balance.games.battle_of_thieves.layout import (
    ACTIVABLE,
    ACTIVATE,
    ALWAYS,
    AMMO_CHAOS,
    AMMO_CURSED,
    AMMO_INCENDIARY,
    ANCHOR_DOWN,
    ANIMAL,
    ATTACK,
    ATTACKER,
    BAIL,
    BAIL_WATER,
    BOARDER,
    BURN,
    CANNON_MODIFIER,
    CANNON_ROLL,
    CANNONBALL,
    CLEAR_ISLAND,
    CURE,
    CURSED_BALL,
    DAMAGE,
    DECK_SIZE,
    DISCARD,
    DISCARD_DECK,
    DRAW,
    EAT,
    EFFECT,
    ENEMY,
    ENEMY_PIRATE,
    ENEMY_PIRATE_HERE,
    ENEMY_SHIP,
    EXTRA_ACTION,
    FIRE,
    FOOD,
    FOOD_PROVISION,
    GAIN,
    HEAL,
    HIT_PIRATE,
    HOLE,
    ISLAND,
    ISLAND_CARD,
    ITEM,
    LOSE,
    MAST_ALWAYS,
    MAST_BROKEN,
    MAX_HAND,
    MAX_LIFE,
    MOVE_TO,
    NO_BUCKET,
    NO_STATUS,
    ON_HITS,
    OWN,
    OWN_SHIP,
    PACIFY_CANNONS,
    PIRATE,
    PIRATES_ENEMY_SHIP,
    PIRATES_ISLAND,
    PIRATES_OWN_SHIP,
    PLANK,
    PLAY,
    POISON,
    RAISE_ANCHOR,
    RANDOM_ENEMY_PIRATE,
    REPAIR,
    REPAIR_HOLE,
    REPAIR_MAST,
    REUSABLE,
    REVIVE,
    RULE,
    SELF,
    SIDE,
    STATE,
    STATUS,
    STEAL,
    STRIP,
    TAKE,
    VISIT,
    VISITOR,
    WATER,
    WEAPON,
)

# Indices into the view tuple and into its content tuple (``content.ARRAY_FIELDS``, whose
# index of each array is ``content.C``).
V_SIDE, V_PIRATE, V_HAND, V_STATE, V_RULES, V_CONTENT = 0, 1, 3, 6, 7, 8
C_TYPE, C_SIN, C_FLAGS = C["card_type"], C["card_sin"], C["card_flags"]
C_PROGRAM, C_PROGRAM_LEN = C["program"], C["program_len"]
C_MODS, C_MODS_LEN = C["mods"], C["mods_len"]
C_WEAPONS = C["weapons"]
C_PROVISIONS = C["provisions"]
C_COST = C["card_cost"]
C_TRIGGER, C_TRIGGER_PROGRAM, C_TRIGGER_LEN = (
    C["card_trigger"],
    C["card_trigger_program"],
    C["card_trigger_len"],
)
C_PIRATE_TRIGGER, C_PIRATE_TRIGGER_PROGRAM, C_PIRATE_TRIGGER_LEN = (
    C["pirate_trigger"],
    C["pirate_trigger_program"],
    C["pirate_trigger_len"],
)
C_WEAPON_PROGRAM, C_WEAPON_PROGRAM_LEN = C["weapon_program"], C["weapon_program_len"]
C_PIRATE_MODS, C_PIRATE_MODS_LEN = C["pirate_mods"], C["pirate_mods_len"]
C_SHIP_MODS, C_SHIP_MODS_LEN = C["ship_mods"], C["ship_mods_len"]
#: The content arrays :func:`kit_view_nb` keeps: every one the kit reads.
KIT_CONTENT = frozenset(
    (
        *(C_TYPE, C_SIN, C_FLAGS, C_PROGRAM, C_PROGRAM_LEN, C_MODS, C_MODS_LEN, C_PROVISIONS),
        *(C_PIRATE_MODS, C_PIRATE_MODS_LEN, C_WEAPONS, C_SHIP_MODS, C_SHIP_MODS_LEN, C_COST),
        *(C_TRIGGER, C_TRIGGER_PROGRAM, C_TRIGGER_LEN),
        *(C_PIRATE_TRIGGER, C_PIRATE_TRIGGER_PROGRAM, C_PIRATE_TRIGGER_LEN),
        *(C_WEAPON_PROGRAM, C_WEAPON_PROGRAM_LEN),
    )
)


class Plan(NamedTuple):
    """Slots of a plan: what each kind of option is worth (ending the turn is worth 0)."""

    PANIC_WATER: int = 0  # water at which bailing comes first
    BAIL: int = 1  # worth of bailing at the panic level
    REPAIR: int = 2  # worth of repairing a hole
    FIRE: int = 3  # worth of a cannon shot
    BOARD: int = 4  # worth of moving a pirate to the enemy ship
    ATTACK: int = 5  # worth of an attack, times its expected damage
    ISLAND: int = 6  # worth of going to the island and visiting it for provisions
    RELOAD: int = 7  # cannonballs below which the island is worth a trip (or no plank)
    CARDS: int = 8  # weight of a card's effects
    CARD_BAR: int = 9  # least worth of a card before it is played
    HOME: int = 10  # worth of bringing a pirate home to its own ship
    SIZE: int = 11


PLAN = Plan()
NEVER = -1.0e9


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def kit_view_nb(view):
    """The view with ``None`` for what the kit never reads (the enemy's view rows, the
    discard piles, the island; the cards' choices, the decks, the ships' programs and the
    food kinds): the same indices, some 100 numbers fewer to pass to each call.
    ``KIT_CONTENT`` names the content arrays kept."""
    c = view[V_CONTENT]
    content = (
        c[0], c[1], c[2], None, c[4], c[5], c[6], c[7], None, None, c[10], c[11], c[12],
        c[13], c[14], c[15], None, None, None, c[19], c[20], c[21], c[22], c[23], c[24],
        c[25], c[26], c[27], None,
    )  # fmt: skip
    return (view[0], view[1], None, view[3], None, None, view[6], view[7], content)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def condition_now_nb(view, seat, condition, value):
    """Whether an effect's condition (``Effect.IF`` with ``value``) holds for ``seat`` now
    (the engines' own test: every condition reads the public position)."""
    return condition_nb(view[V_SIDE], view[V_PIRATE], seat, condition, value)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def effect_worth_nb(view, seat, row, target):
    """What one effect row is worth to ``seat``: positive when it helps it.

    ``target`` is the chosen pirate code (or -1). Units: a hole is worth 3, a life point of
    a pirate 2, 10 water 1.
    """
    side = view[V_SIDE]
    op, where, amount = row[EFFECT.OP], row[EFFECT.TARGET], row[EFFECT.AMOUNT]
    enemy = 1 - seat
    # Whose thing the effect touches: +1 own, -1 enemy's, 0 both/none.
    sign = 0.0
    if where == OWN_SHIP or where == OWN:
        sign = 1.0
    elif where == ENEMY_SHIP or where == ENEMY:
        sign = -1.0
    elif where == ENEMY_PIRATE or where == ENEMY_PIRATE_HERE or where == RANDOM_ENEMY_PIRATE:
        sign = -1.0
    elif where == HIT_PIRATE or where == ATTACKER or where == BOARDER:
        sign = -1.0  # the enemy pirate that set the ability (the weapon's hit) off
    elif where == SELF or where == VISITOR:
        sign = 1.0  # the item's holder, the island's visitor
    elif where == PIRATES_ENEMY_SHIP:
        sign = -0.5  # mostly the enemy's crew
    elif where == PIRATES_OWN_SHIP or where == PIRATES_ISLAND:
        sign = 0.0
    elif target >= 0:
        sign = 1.0 if target // 2 == seat else -1.0
    value = 0.0
    if op == WATER:
        value = -amount / 10.0
    elif op == HOLE:
        value = -3.0 * amount
    elif op == REPAIR:
        holes = side[seat if sign > 0 else enemy, SIDE.HOLES]
        value = 3.0 * min(amount, holes)
    elif op == DAMAGE:
        value = -2.0 * amount
    elif op == HEAL:
        value = 1.0 * amount
    elif op == REVIVE:
        value = 4.0
    elif op == STATUS:
        value = -1.0
        if row[EFFECT.ARG] == BURN or row[EFFECT.ARG] == POISON:
            value *= max(row[EFFECT.TURNS], 1)  # one strike a turn it lasts
    elif op == ANCHOR_DOWN or op == MAST_BROKEN or op == PACIFY_CANNONS or op == STRIP:
        value = -1.5
    elif op == GAIN:
        value = 0.3 * amount
    elif op == LOSE:
        value = -0.3 * amount
    elif op == STEAL:
        return 0.6 * amount
    elif op == DRAW:
        value = 1.0 * amount
    elif op == DISCARD:
        value = -1.0 * amount
    elif op == CANNON_MODIFIER:
        value = 0.5 * amount
    elif op == EXTRA_ACTION:
        return 1.5 * amount
    elif op == CLEAR_ISLAND:
        return 0.3
    elif op == CURE:
        # what the statuses it removes would cost: a life point (2) for a burn or a poison,
        # 1 for another; a pirate not known yet (not chosen): 1
        value = 1.0
        if target >= 0 and where != SELF and where != VISITOR:
            pirate = view[V_PIRATE]
            value = 0.0
            for slot in range(2):
                kind = pirate[target, PIRATE.STATUS + 2 * slot]
                if kind != NO_STATUS and (row[EFFECT.ARG] == NO_STATUS or kind == row[EFFECT.ARG]):
                    value += 2.0 if kind == BURN or kind == POISON else 1.0
    elif op == DISCARD_DECK:
        value = -0.4 * amount  # a little: cards lost, a step toward the Red Sea
    if row[EFFECT.ON] != ALWAYS:
        value *= 0.5  # an insult battle's branch, or a cursed ball's hit: about even
    if not condition_now_nb(view, seat, row[EFFECT.IF], row[EFFECT.IF_VALUE]):
        return 0.0  # its condition does not hold now (the position is public)
    return sign * value


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def sin_cost_nb(view, seat, card):
    """What sending ``card`` to ``seat``'s discard pile costs: NEVER for the seventh sin
    (original sin loses the game), else 0.5 a sin the pile would then hold."""
    sin = view[V_CONTENT][C_SIN][card]
    if sin < 0:
        return 0.0
    mask = view[V_SIDE][seat, SIDE.SINS] | (1 << sin)
    if mask == (1 << 7) - 1:
        return NEVER
    count = 0
    for k in range(7):
        count += (mask >> k) & 1
    return -0.5 * count


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def card_worth_nb(view, seat, card, target):
    """What playing ``card`` (on ``target``) is worth to ``seat``, by its type and effects."""
    content = view[V_CONTENT]
    kind = content[C_TYPE][card]
    worth = 0.0
    if kind == ANIMAL or kind == ITEM:
        for m in range(content[C_MODS_LEN][card]):
            worth += 1.0 * content[C_MODS][card, m, 1]
        if kind == ITEM and content[C_FLAGS][card] & ACTIVABLE:
            worth += 1.0
        if kind == ANIMAL:
            worth += 0.5
        # its triggered abilities: half their effects' worth each (they fire later, maybe)
        for t in range(content[C_TRIGGER].shape[1]):
            if content[C_TRIGGER][card, t] != 0:
                rows = content[C_TRIGGER_PROGRAM][card, t]
                for e in range(content[C_TRIGGER_LEN][card, t]):
                    worth += 0.5 * effect_worth_nb(view, seat, rows[e], -1)
    elif kind == CURSED_BALL:
        worth = 2.0
    elif kind == ISLAND_CARD:
        worth = 1.0
    elif kind == FOOD:
        worth = 2.0
    if kind != ANIMAL and kind != ITEM:
        program = content[C_PROGRAM][card]
        for e in range(content[C_PROGRAM_LEN][card]):
            worth += effect_worth_nb(view, seat, program[e], target)
    cost = content[C_COST][card]  # its cost: 0.3 a provision (as GAIN), 1.5 an action
    for k in range(5):
        worth -= 0.3 * cost[k]
    worth -= 1.5 * cost[5]
    return worth + sin_cost_nb(view, seat, card)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def pirate_mod_nb(view, code, stat):
    """Sum of a pirate's passive modifiers for ``stat`` (pirate card, animal, item, ship)."""
    content = view[V_CONTENT]
    pirate = view[V_PIRATE]
    seat, index = code // 2, code % 2
    total = 0
    for m in range(content[C_PIRATE_MODS_LEN][seat, index]):
        if content[C_PIRATE_MODS][seat, index, m, 0] == stat:
            total += content[C_PIRATE_MODS][seat, index, m, 1]
    for slot in (PIRATE.ANIMAL, PIRATE.ITEM):
        card = pirate[code, slot]
        if card >= 0:
            for m in range(content[C_MODS_LEN][card]):
                if content[C_MODS][card, m, 0] == stat:
                    total += content[C_MODS][card, m, 1]
    for m in range(content[C_SHIP_MODS_LEN][seat]):
        if content[C_SHIP_MODS][seat, m, 0] == stat:
            total += content[C_SHIP_MODS][seat, m, 1]
    return total


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def hit_chance_nb(needed):
    """Chance that a d6 reaches ``needed``."""
    if needed <= 1:
        return 1.0
    if needed > 6:
        return 0.0
    return (7 - needed) / 6.0


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def chaos_taken_nb(view, seat):
    """What the enemy's chaos balls take off ``seat``'s cannon rolls this turn: the
    ``chaos_penalty`` for each ball fired for it (``chaos_stack``), or once."""
    side, state, rules = view[V_SIDE], view[V_STATE], view[V_RULES]
    if side[seat, SIDE.CHAOS_TURN] != state[STATE.TURN]:
        return 0
    if rules[RULE.CHAOS_STACK] != 0:
        return rules[RULE.CHAOS_PENALTY] * side[seat, SIDE.CHAOS_COUNT]
    return rules[RULE.CHAOS_PENALTY]


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def shot_chance_nb(view, code, seat):
    """Chance that a cannon shot of pirate ``code`` (of ``seat``) hits, with its modifiers,
    the anchor's and the chaos ball's penalties."""
    side, rules = view[V_SIDE], view[V_RULES]
    needed = rules[RULE.CANNON_HITS_ON] - pirate_mod_nb(view, code, CANNON_ROLL)
    if side[seat, SIDE.ANCHOR] >= 0:
        needed += rules[RULE.ANCHOR_PENALTY]
    needed += chaos_taken_nb(view, seat)
    return hit_chance_nb(needed)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def take_need_nb(view, seat, kind, plan):
    """How much ``seat`` needs a provision of ``kind`` back (a visit's TAKE choice).

    The share of the kind's starting count it is short of, plus 2 for planks while the
    reserve holds fewer planks than the ship has holes (and a broken mast it may repair),
    plus 2 for cannonballs below the plan's ``RELOAD``, plus 1 for food while an own
    pirate is wounded.
    """
    side, pirate = view[V_SIDE], view[V_PIRATE]
    start = view[V_CONTENT][C_PROVISIONS][seat, kind]
    have = side[seat, SIDE.PROVISIONS + kind]
    need = (start - have) / max(start, 1)
    if kind == PLANK:
        mast = side[seat, SIDE.MAST]  # a timed break only under mast_repair = always
        rules = view[V_RULES]
        repairable = mast == 0 or (mast > 0 and rules[RULE.MAST_REPAIR] == MAST_ALWAYS)
        wanted = side[seat, SIDE.HOLES] + (1 if repairable else 0)
        if have < wanted:
            need += 2.0
    elif kind == CANNONBALL:
        if have < plan[PLAN.RELOAD]:
            need += 2.0
    elif kind == FOOD_PROVISION:
        for p in range(2 * seat, 2 * seat + 2):
            if pirate[p, PIRATE.ZONE] >= 0 and pirate[p, PIRATE.LIFE] < MAX_LIFE:
                need += 1.0
                break
    return need


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def option_value_nb(view, option, seat, plan):
    """What ``option`` (a row: kind, who, what, target) is worth to ``seat`` under ``plan``."""
    side, pirate, rules = view[V_SIDE], view[V_PIRATE], view[V_RULES]
    kind, who, what, target = option[0], option[1], option[2], option[3]
    enemy = 1 - seat
    code = seat * 2 + who
    water = side[seat, SIDE.WATER]
    # Panic counts the water the holes let in at the start of the next own turn.
    coming = side[seat, SIDE.HOLES] * rules[RULE.WATER_PER_HOLE]
    panic = water > 0 and water + coming >= plan[PLAN.PANIC_WATER]
    if kind == BAIL_WATER:
        removed = min(water, rules[RULE.BAIL] + pirate_mod_nb(view, code, BAIL))
        scale = removed / max(rules[RULE.BAIL], 1)
        return plan[PLAN.BAIL] * scale * (1.0 if panic else 0.3)
    if kind == REPAIR_HOLE:
        return plan[PLAN.REPAIR] * (1.0 + 0.2 * side[seat, SIDE.HOLES])
    if kind == REPAIR_MAST:
        return 0.5 * plan[PLAN.REPAIR]
    if kind == RAISE_ANCHOR:
        return 0.6 * plan[PLAN.FIRE] + 1.0
    if kind == FIRE:
        if panic:
            return 0.2 * plan[PLAN.FIRE]
        if what == AMMO_CHAOS:
            return 0.25 * plan[PLAN.FIRE]
        needed = rules[RULE.CANNON_HITS_ON] - pirate_mod_nb(view, code, CANNON_ROLL)
        if side[seat, SIDE.ANCHOR] >= 0:
            needed += rules[RULE.ANCHOR_PENALTY]
        needed += chaos_taken_nb(view, seat)
        bonus = 1.2 if what == AMMO_CURSED or what == AMMO_INCENDIARY else 1.0
        return plan[PLAN.FIRE] * bonus * (0.25 + hit_chance_nb(needed))
    if kind == ATTACK:
        content = view[V_CONTENT]
        weapons = content[C_WEAPONS]
        needed = weapons[seat, who, what, WEAPON.HITS_ON] - pirate_mod_nb(view, code, 1)
        damage = weapons[seat, who, what, WEAPON.DAMAGE]
        worth = hit_chance_nb(needed) * damage
        if target < 2:  # a pirate: the more wounded, the closer a kill
            victim = enemy * 2 + target
            if pirate[victim, PIRATE.LIFE] <= damage:
                worth *= 1.5
            # the weapon's effects on a hit and the attacker's hits abilities (its own, its
            # animal's, its item's), at half a card's units (a life is 2 there)
            extra = 0.0
            program = content[C_WEAPON_PROGRAM][seat, who, what]
            for e in range(content[C_WEAPON_PROGRAM_LEN][seat, who, what]):
                extra += effect_worth_nb(view, seat, program[e], victim)
            for t in range(content[C_PIRATE_TRIGGER].shape[2]):
                if content[C_PIRATE_TRIGGER][seat, who, t] == ON_HITS:
                    rows = content[C_PIRATE_TRIGGER_PROGRAM][seat, who, t]
                    for e in range(content[C_PIRATE_TRIGGER_LEN][seat, who, t]):
                        extra += effect_worth_nb(view, seat, rows[e], victim)
            for slot in (PIRATE.ANIMAL, PIRATE.ITEM):
                card = pirate[code, slot]
                if card >= 0:
                    for t in range(content[C_TRIGGER].shape[1]):
                        if content[C_TRIGGER][card, t] == ON_HITS:
                            rows = content[C_TRIGGER_PROGRAM][card, t]
                            for e in range(content[C_TRIGGER_LEN][card, t]):
                                extra += effect_worth_nb(view, seat, rows[e], victim)
            worth += hit_chance_nb(needed) * 0.5 * extra
            # from afar (a reach beyond its zone), the attacker stays where it is: aboard
            # its own ship, still there to bail
            if pirate[victim, PIRATE.ZONE] != pirate[code, PIRATE.ZONE]:
                worth *= 1.1
        else:
            worth *= 0.4
        return plan[PLAN.ATTACK] * worth * (0.3 if panic else 1.0)
    if kind == MOVE_TO:
        here = pirate[code, PIRATE.ZONE]
        if what == enemy:
            free = side[enemy, SIDE.ANCHOR] >= 0 or side[enemy, SIDE.MAST] >= 0
            if panic:
                return -1.0
            aboard = 0  # enemy pirates on their own ship: what a boarding can fight
            for j in range(2):
                if pirate[enemy * 2 + j, PIRATE.ZONE] == enemy:
                    aboard += 1
            worth = plan[PLAN.BOARD] * (1.0 if aboard > 0 else 0.3)
            return worth + (1.0 if free else 0.0)
        if what == ISLAND:
            short = side[seat, SIDE.PROVISIONS + CANNONBALL] < plan[PLAN.RELOAD]
            short = short or side[seat, SIDE.PROVISIONS + PLANK] < 1
            return 0.8 * plan[PLAN.ISLAND] if short and not panic else -1.0
        if what == seat and here != seat:
            if panic:
                return 0.9 * plan[PLAN.BAIL]
            if plan[PLAN.BOARD] > 0 and side[seat, SIDE.HOLES] == 0 and water == 0:
                return -1.0  # a boarding plan stays out while its ship is dry and whole
            return plan[PLAN.HOME]
        return -1.0
    if kind == VISIT:
        total = 0
        for p in range(5):
            total += side[seat, SIDE.PROVISIONS + p]
        room = rules[RULE.RESERVE_MAX] - total
        if room <= 0:
            return 0.0
        # Worth more than going home: a trip to the island is made for this visit.
        worth = plan[PLAN.ISLAND] * min(room, rules[RULE.ISLAND_TAKE]) / 5.0
        return max(worth, plan[PLAN.HOME] + 1.0)
    if kind == EAT:
        return 2.0 * plan[PLAN.CARDS]
    if kind == TAKE:
        return take_need_nb(view, seat, what, plan)
    if kind == PLAY:
        worth = card_worth_nb(view, seat, what, target)
        if worth < plan[PLAN.CARD_BAR]:
            return -1.0
        return plan[PLAN.CARDS] * worth
    if kind == ACTIVATE:
        card = pirate[code, PIRATE.ITEM]
        content = view[V_CONTENT]
        worth = 0.0
        for e in range(content[C_PROGRAM_LEN][card]):
            worth += effect_worth_nb(view, seat, content[C_PROGRAM][card, e], target)
        if not content[C_FLAGS][card] & REUSABLE:
            worth += sin_cost_nb(view, seat, card)  # a used item goes to the discard pile
        return plan[PLAN.CARDS] * worth - 0.5
    return 0.0  # END_TURN


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def best_option_nb(view, options, count, seat, plan):
    """The best option under ``plan``: the first of the highest worth, if above 0; else
    "end the turn" (always the last option). During an island visit (TAKE options, no
    "end the turn") the provision needed most, the first of the kinds on ties."""
    return choose_option_nb(kit_view_nb(view), options, count, seat, plan)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def choose_option_nb(view, options, count, seat, plan):
    """:func:`best_option_nb`'s choice, on the kit's view."""
    # np.bool_: a literal False would have numba compile the loop again, scoring and all
    return choose_by_plan_nb(view, options, count, seat, plan, np.bool_(False), 0.0, 0.0)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def aboard_nb(view, seat, zone):
    """How many of ``seat``'s living pirates are in ``zone`` (0/1 a ship, 2 the island)."""
    pirate = view[V_PIRATE]
    count = 0
    for j in range(2):
        if pirate[seat * 2 + j, PIRATE.ZONE] == zone:
            count += 1
    return count


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def next_water_nb(view, side_of):
    """The water ``side_of``'s ship will hold after the rise at the start of its next turn,
    before anyone bails: 10 a hole, and 10 more when its deck is empty and no intact hole
    token is left (the Red Sea's hole becomes water). Each hit on it before then adds 10
    (a new hole, or water when no token is left)."""
    side, rules = view[V_SIDE], view[V_RULES]
    rise = side[side_of, SIDE.HOLES] * rules[RULE.WATER_PER_HOLE]
    if side[side_of, SIDE.DECK_POS] >= DECK_SIZE and side[side_of, SIDE.INTACT] == 0:
        rise += rules[RULE.WATER_PER_HOLE]
    return side[side_of, SIDE.WATER] + rise


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def hits_to_sink_nb(view, seat):
    """Hits on the enemy ship, this turn, that would sink it at the start of its next turn
    (0: it sinks anyway)."""
    rules = view[V_RULES]
    short = rules[RULE.SINK_WATER] - next_water_nb(view, 1 - seat)
    if short <= 0:
        return 0
    per_hit = max(rules[RULE.WATER_PER_HOLE], 1)
    return (short + per_hit - 1) // per_hit


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def sink_water_nb(view, seat, card):
    """Water that playing ``card`` adds towards sinking ``seat``'s enemy by the start of
    its next turn but one: water poured into the enemy ship, 10 a hole made in it, and,
    for bailing forbidden to the pirates aboard it through the enemy's next turn (no
    bucket for 2 turns or more), one more rise of its water (half of one when the card
    stops a single pirate). 0 for a card that does none of these."""
    content, side, rules = view[V_CONTENT], view[V_SIDE], view[V_RULES]
    enemy = 1 - seat
    rise = next_water_nb(view, enemy) - side[enemy, SIDE.WATER]
    program = content[C_PROGRAM][card]
    total = 0
    for e in range(content[C_PROGRAM_LEN][card]):
        row = program[e]
        if row[EFFECT.ON] != ALWAYS:
            continue
        op, where = row[EFFECT.OP], row[EFFECT.TARGET]
        if op == WATER and where == ENEMY_SHIP and row[EFFECT.AMOUNT] > 0:
            total += row[EFFECT.AMOUNT]
        elif op == HOLE and where == ENEMY_SHIP:
            total += row[EFFECT.AMOUNT] * rules[RULE.WATER_PER_HOLE]
        elif op == STATUS and row[EFFECT.ARG] == NO_BUCKET and row[EFFECT.TURNS] >= 2:
            if where == PIRATES_ENEMY_SHIP and aboard_nb(view, enemy, enemy) > 0:
                total += rise
            elif where == ENEMY_PIRATE or where == ENEMY_PIRATE_HERE:
                total += rise // 2
    return total


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def hand_sink_water_nb(view, seat):
    """:func:`sink_water_nb` summed over the cards of ``seat``'s hand (its first
    ``HAND_LEN`` slots: the slots after them are not cleared)."""
    hand = view[V_HAND]
    total = 0
    for h in range(min(view[V_SIDE][seat, SIDE.HAND_LEN], MAX_HAND)):
        total += sink_water_nb(view, seat, hand[seat, h])
    return total


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def sinking_nb(view, seat, hole_goal):
    """Whether ``seat``'s enemy ship is ready to be sunk: ``hole_goal`` holes or more, or
    water that its rise will take to half the sinking level at the start of its turn.

    Once one of ``seat``'s pirates is aboard the enemy ship, the bar is two holes lower,
    so that a boarding goes on while the enemy repairs a hole or two.
    """
    side, rules = view[V_SIDE], view[V_RULES]
    enemy = 1 - seat
    holes = side[enemy, SIDE.HOLES]
    goal = hole_goal
    if aboard_nb(view, seat, enemy) > 0:
        goal -= 2
    return holes >= goal or 2 * next_water_nb(view, enemy) >= rules[RULE.SINK_WATER]


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def safe_without_nb(view, seat, code, room):
    """Whether ``seat``'s ship stays ``room`` below sinking at its next rise (room for the
    enemy's shots) if pirate ``code`` does not bail this turn: its other pirates aboard it
    with an action bail what they can."""
    side, pirate, rules = view[V_SIDE], view[V_PIRATE], view[V_RULES]
    helpers = 0
    for j in range(2):
        other = seat * 2 + j
        if (
            other != code
            and pirate[other, PIRATE.ZONE] == seat
            and pirate[other, PIRATE.ACTIONS] > 0
        ):
            helpers += 1
    water = side[seat, SIDE.WATER]
    left = max(water - helpers * rules[RULE.BAIL], 0)
    return left + next_water_nb(view, seat) - water + room < rules[RULE.SINK_WATER]


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def best_finishing_option_nb(view, options, count, seat, plan, boarders, room):
    """:func:`best_option_nb` for a crew that plays to sink the enemy (see
    :func:`choose_finishing_option_nb`)."""
    return choose_finishing_option_nb(kit_view_nb(view), options, count, seat, plan, boarders, room)


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def choose_finishing_option_nb(view, options, count, seat, plan, boarders, room):
    """:func:`best_option_nb` for a crew that plays to sink the enemy:

    - a shot that can sink the enemy ship (one or two hits from its sinking water at the
      start of its next turn, :func:`hits_to_sink_nb`) comes before anything but saving
      its own ship from sinking at the start of its own next turn;
    - cards that pour water or holes into the enemy ship, or stop its crew bailing
      (:func:`sink_water_nb`), are kept in hand until together they would sink it, then
      played, the strongest first;
    - a boarding is offered to at most ``boarders`` pirates at a time;
    - an attack on an enemy pirate aboard its own ship (a bailer) is worth twice as much
      as one on a pirate elsewhere, more when the enemy ship is close to sinking, and
      three times as much when it is the only pirate left aboard to bail it;
    - a pirate boards, or stays aboard the enemy ship, even with water in its own ship,
      as long as the pirates left at home can bail enough for its own ship not to come
      within ``room`` of sinking at its next rise (:func:`safe_without_nb`).
    """
    # np.bool_: a literal True would have numba compile the loop again, scoring and all
    return choose_by_plan_nb(view, options, count, seat, plan, np.bool_(True), boarders, room)


@njit(cache=True, _nrt=False, error_model="numpy")
def choose_by_plan_nb(view, options, count, seat, plan, finishing, boarders, room):
    """:func:`choose_option_nb`'s choice, or with ``finishing``
    :func:`choose_finishing_option_nb`'s (``boarders`` and ``room`` are read only then):
    one function, so that the scoring compiled into it (:func:`option_value_nb`, inlined:
    a call an option passed the kit's view each time) is compiled once. ``finishing``
    must be a bool variable (``np.bool_``): a literal one compiles a copy of its own.
    LLVM copies the compiled loop into its callers: calling it passes no view."""
    inlined_by_llvm_nb()
    # The finisher never had the island visit's rule (the provision needed most): its
    # games are kept as they were.
    if not finishing and options[count - 1, 0] == TAKE:
        best, best_value = 0, NEVER
        for k in range(count):
            value = take_need_nb(view, seat, options[k, 2], plan)
            if value > best_value:
                best, best_value = k, value
        return best
    side, pirate, rules = view[V_SIDE], view[V_PIRATE], view[V_RULES]
    enemy = 1 - seat
    away, doomed, hits, lone, lethal_hand = 0, False, 0, False, False  # read when finishing
    if finishing:
        away = aboard_nb(view, seat, enemy)
        doomed = next_water_nb(view, seat) >= rules[RULE.SINK_WATER] and side[seat, SIDE.WATER] > 0
        hits = hits_to_sink_nb(view, seat)
        lone = aboard_nb(view, enemy, enemy) == 1
        lethal_hand = (
            next_water_nb(view, enemy) + hand_sink_water_nb(view, seat) >= rules[RULE.SINK_WATER]
        )
    best, best_value = count - 1, 0.0
    for k in range(count - 1):
        kind, what, target = options[k, 0], options[k, 2], options[k, 3]
        if finishing and kind == MOVE_TO and what == enemy and away >= boarders:
            continue
        value = option_value_nb(view, options[k], seat, plan)
        if finishing:
            if kind == MOVE_TO and boarders > 0 and not doomed:
                code = seat * 2 + options[k, 1]
                if what == enemy and safe_without_nb(view, seat, code, room):
                    value = max(value, plan[PLAN.BOARD] * (2.0 if lone else 1.0))
                elif (
                    what == seat
                    and pirate[code, PIRATE.ZONE] == enemy
                    and safe_without_nb(view, seat, code, room)
                ):
                    continue  # it stays aboard the enemy ship
            if kind == PLAY:
                water = sink_water_nb(view, seat, what)
                if water > 0:
                    if not lethal_hand:
                        continue  # kept for the turn it sinks the enemy
                    value = 500.0 + water + sin_cost_nb(view, seat, what)
            if kind == FIRE and what != AMMO_CHAOS and not doomed and 1 <= hits <= 2:
                chance = shot_chance_nb(view, seat * 2 + options[k, 1], seat)
                if chance > 0:
                    value = (400.0 if hits == 1 else 250.0) * chance
            if kind == ATTACK and 0 <= target < 2:
                if pirate[enemy * 2 + target, PIRATE.ZONE] != enemy:
                    value *= 0.5
                elif lone:
                    value *= 3.0
                elif hits <= 5:
                    value *= 1.5  # a bailer down when the enemy ship is close to sinking
        if value > best_value:
            best, best_value = k, value
    return best
