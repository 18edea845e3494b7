"""Battle of Thieves' compiled engine: the position, card programs, options, the game loop.

The rules are those of :mod:`.reference`, which says them in readable Python
(``docs/battle-of-thieves.md`` states every decision); this module says them again for
speed and must agree with it game for game and step for step (the test suite checks both).
Nothing here allocates inside the game loop: every buffer is made once per block of games.

The smaller decisions are taken as the reference's docstring lists them (chosen targets
belong to a side, nothing bailed or gained below 0, timed statuses need a time, ship cards
are never playable, island cards apply while in play, damage dealt counts every source).

The tuples passed around:

* ``pos``: the position, int64 arrays (``layout.Pos`` order): ``side (2, SIDE.SIZE)``,
  ``pirate (4, PIRATE.SIZE)`` (row = pirate code ``seat * 2 + index``), ``deck (2,
  DECK_SIZE)`` (shuffled; ``SIDE.DECK_POS`` is the next card), ``hand (2, MAX_HAND)``,
  ``discard (2, MAX_HAND)`` (lengths in ``Side``), ``island (MAX_ISLAND, 2)`` ((card,
  owner) in play order, length ``STATE.ISLAND_LEN``), ``state (STATE.SIZE,)``, and the
  running records ``seat_stat (2, SEAT_STAT.SIZE)``, ``card_stat (2, DECK_SIZE,
  CARD_STAT.SIZE)``.
* ``content``: :meth:`Content.arrays`, in ``content.ARRAY_FIELDS`` order.
* ``derived``: ``(row_of (2, K), play_kind (K,), choice_kind (K,), pirate_base (2, 2, 5),
  card_mod (K, 2), gate (K, MAX_EFFECTS, 2), gate_len (K,))`` from :func:`derive_nb`:
  each card's per-card record row in each seat's deck (-1 if none), the kind of target
  list (``TL_*``) of playing it and of its program's choice, each pirate's fixed numbers
  (what each weapon needs on the die after the ship's and the pirate's ATTACK_ROLL
  modifiers, their ISLAND_TAKE modifiers, then each weapon's reach: ``[0..1]``, ``[2]``,
  ``[3..4]``), each card's ATTACK_ROLL and ISLAND_TAKE modifiers (for an animal or item
  held), and each card's gate: the ``(if, value)`` of its effects when every one has an
  ``if`` (``gate_len`` 0: always offered).
* ``rules``: int64 ``(RULE.SIZE,)``, :meth:`BattleRules.to_array`.
* ``dice``: ``(rng, script, cursor)``: uint64 ``(4,)`` the dice stream (stream 2), int64
  ``(L,)`` a script of dice results (read instead of the stream when ``L > 0``: d6 results
  1..6 and ``below(n)`` results as given), int64 ``(2,)`` the script's next index and an
  error flag: 1 when the script ran out, 2 for a result out of range (the result then
  read is a dummy: the step's outcome is void, and the caller must report the error).
* ``options``: int64 ``(MAX_OPTIONS, 4)``, rows ``(kind, who, what, target)``.
"""

import numpy as np

from balance.core import dispatch
from balance.core.compile_cache import njit
from balance.core.lineup_nb import seat_lineup_nb
from balance.core.llvm_nb import hold_nb, hold_when_nb
from balance.core.random_nb import below_nb, seed_stream_nb
from balance.core.records import error_slots
from balance.core.strategy import MAX_PARAMS
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
    ATTACK_ROLL,
    ATTACKER,
    BAIL,
    BAIL_WATER,
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
    COST_ACTION,
    COST_FOOD_KINDS,
    CURE,
    CURSED_BALL,
    DAMAGE,
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
    ISLAND,
    ISLAND_CARD,
    ISLAND_TAKE,
    ITEM,
    LEGENDARY,
    LOSE,
    MAST_ALWAYS,
    MAST_BROKEN,
    MAX_CANNON_MODS,
    MAX_EFFECTS,
    MAX_HAND,
    MAX_ISLAND,
    MAX_LIFE,
    MAX_OPTIONS,
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
    PIRATE,
    PIRATES_ENEMY_SHIP,
    PIRATES_ISLAND,
    PIRATES_OWN_SHIP,
    PLANK,
    PLAY,
    POISON,
    RAISE_ANCHOR,
    RANDOM_ENEMY_PIRATE,
    REACH_ANY,
    REACH_SHIP,
    REPAIR,
    REPAIR_HOLE,
    REPAIR_MAST,
    REUSABLE,
    REVIVE,
    RULE,
    SEAT_STAT,
    SELF,
    SIDE,
    SPECIAL,
    START_GAME,
    STATE,
    STATUS,
    STEAL,
    STRIKES_STEP,
    STRIP,
    TAKE,
    TARGETABLE,
    TO_ENEMY_SHIP,
    TO_ISLAND,
    TO_OWN_SHIP,
    VISIT,
    VISITOR,
    WATER,
    WEAPON,
    WEAPON_DAMAGE,
)

# --- target lists (what a card's play or its program's choice may target) -----------------
TL_NONE = 0  # one option, target -1
TL_OWN_LIVING = 1
TL_OWN_DEAD = 2  # a program that revives a chosen own pirate
TL_OWN_HERE = 3  # own living pirates (activation: in the holder's zone)
TL_ENEMY_LIVING = 4
TL_ENEMY_HERE = 5  # enemy living pirates in a zone with a living own pirate (activation:
# the holder's zone)
TL_ANIMAL = 6  # own living pirates without an animal
TL_ITEM = 7  # own living pirates on own ship with an action and no item
TL_FOOD = 8  # own living wounded pirates
TL_CURSED = 9  # one option (only while no cursed ball is loaded)
TL_NEVER = 10  # blank and ship cards


Error = error_slots(__name__)

#: Strategy code that answers from a script of option indices in its parameters (tests):
#: ``params[0]`` answers used, ``params[1]`` script length L, ``params[2 : 2 + L]`` the
#: indices (a run out script answers -1, an illegal answer).
SCRIPTED = -1
#: The codes of the shipped strategies the plain game loop plays: the uniform-random
#: player and the heuristics (the search players play in search_nb's loop).
SHIPPED_CODES = (0, 1, 2, 3, 4)
#: Codes 1..HEURISTICS are the shipped heuristics, which only read their view (so the
#: game loop may keep it from one decision to the next: :func:`ask_in_game_nb`).
HEURISTICS = 4

# Streams of a game: 0/1 the seats' shuffles, 2 the dice, 3 + s seat s's strategy.
DICE_STREAM = 2
STRATEGY_STREAM = 3
N_STREAMS = 5


# --- small readers -------------------------------------------------------------------------


@njit(inline="always", cache=True)
def has_status_nb(pirate, p, kind):
    return pirate[p, PIRATE.STATUS] == kind or pirate[p, PIRATE.STATUS + 2] == kind


# A compiled call passes a tuple of arrays as all of their fields (``content`` alone is
# several hundred), so the functions called on every action take the few arrays they read,
# behind an inlined wrapper that unpacks the tuples.
@njit(inline="always", cache=True)
def mod_sum_nb(content, pirate, p, stat):
    """Sum of the passive modifiers of ``stat`` for pirate ``p``: its ship's, and while it
    is alive its own, its animal's and its item's."""
    # The stat as an int64: passed as a constant, it would compile the function per stat.
    c = content
    return mod_sum_of_nb(c[6], c[7], c[11], c[12], c[14], c[15], pirate, p, np.int64(stat))


@njit(cache=True, _nrt=False, error_model="numpy")
def mod_sum_of_nb(
    mods, mods_len, pirate_mods, pirate_mods_len, ship_mods, ship_mods_len, pirate, p, stat
):
    """:func:`mod_sum_nb` on the arrays it reads."""
    s = p // 2
    i = p % 2
    total = 0
    for m in range(ship_mods_len[s]):
        if ship_mods[s, m, 0] == stat:
            total += ship_mods[s, m, 1]
    if pirate[p, PIRATE.ZONE] < 0:
        return total
    for m in range(pirate_mods_len[s, i]):
        if pirate_mods[s, i, m, 0] == stat:
            total += pirate_mods[s, i, m, 1]
    card = pirate[p, PIRATE.ANIMAL]
    if card >= 0:
        for m in range(mods_len[card]):
            if mods[card, m, 0] == stat:
                total += mods[card, m, 1]
    card = pirate[p, PIRATE.ITEM]
    if card >= 0:
        for m in range(mods_len[card]):
            if mods[card, m, 0] == stat:
                total += mods[card, m, 1]
    return total


# --- dice ----------------------------------------------------------------------------------


@njit(inline="always", cache=True)
def scripted_nb(dice, low, high, dummy):
    """The script's next result, which must be in ``low..high``; a script run out or a
    result out of range sets the error flag (1, 2) and gives ``dummy``."""
    script, cursor = dice[1], dice[2]
    k = cursor[0]
    if k >= script.shape[0]:
        cursor[1] = 1
        return dummy
    value = script[k]
    if value < low or value > high:
        cursor[1] = 2
        return dummy
    cursor[0] = k + 1
    return value


@njit(inline="always", cache=True)
def dice_below_nb(dice, n):
    """``below(n)`` on the dice stream, or the script's next value."""
    if dice[1].shape[0] == 0:
        return below_nb(dice[0], n)
    return scripted_nb(dice, np.int64(0), n - 1, np.int64(0))


@njit(inline="always", cache=True)
def d6_nb(dice):
    """A d6 (``below(6) + 1`` on the dice stream), or the script's next value."""
    if dice[1].shape[0] == 0:
        return below_nb(dice[0], 6) + 1
    return scripted_nb(dice, np.int64(1), np.int64(6), np.int64(1))


# --- position changes shared by actions and effects ----------------------------------------


@njit(inline="always", cache=True)
def lose_nb(state, seat, reason):
    state[STATE.OVER] = 1
    state[STATE.WINNER] = 1 - seat
    state[STATE.REASON] = reason


@njit(inline="always", cache=True)
def check_sinking_nb(side, state, rules, s):
    if side[s, SIDE.WATER] >= rules[RULE.SINK_WATER]:
        lose_nb(state, s, BY_WATER)


@njit(inline="always", cache=True)
def to_discard_nb(pos, content, s, card):
    """``card`` enters seat ``s``'s discard pile; the sin check may end the game."""
    side, discard, state = pos[0], pos[4], pos[6]
    n = side[s, SIDE.DISCARD_LEN]
    discard[s, n] = card
    side[s, SIDE.DISCARD_LEN] = n + 1
    sin = content[1][card]
    if sin >= 0:
        side[s, SIDE.SINS] |= np.int64(1) << sin
        if side[s, SIDE.SINS] == ALL_SINS:
            lose_nb(state, s, BY_SIN)


@njit(cache=True, _nrt=False, error_model="numpy")
def draw_nb(pos, derived, s):
    """Seat ``s`` draws a card; False if its deck is empty."""
    side, deck, hand, seat_stat, card_stat = pos[0], pos[2], pos[3], pos[7], pos[8]
    k = side[s, SIDE.DECK_POS]
    if k >= DECK_SIZE:
        return False
    card = deck[s, k]
    side[s, SIDE.DECK_POS] = k + 1
    n = side[s, SIDE.HAND_LEN]
    hand[s, n] = card
    side[s, SIDE.HAND_LEN] = n + 1
    seat_stat[s, SEAT_STAT.CARDS_DRAWN] += 1
    row = derived[0][s, card]
    if row >= 0:
        card_stat[s, row, CARD_STAT.DRAWN] += 1
    return True


@njit(inline="always", cache=True)
def hand_remove_nb(side, hand, s, index):
    """Take the card at ``index`` out of seat ``s``'s hand, keeping the order."""
    n = side[s, SIDE.HAND_LEN]
    card = hand[s, index]
    for k in range(index, n - 1):
        hand[s, k] = hand[s, k + 1]
    hand[s, n - 1] = -1
    side[s, SIDE.HAND_LEN] = n - 1
    return card


@njit(cache=True, _nrt=False, error_model="numpy")
def hole_nb(pos, rules, actor, s):
    """Seat ``s``'s ship takes a hole (the water rises instead with no intact token)."""
    side, state, seat_stat = pos[0], pos[6], pos[7]
    if side[s, SIDE.INTACT] >= 1:
        side[s, SIDE.INTACT] -= 1
        side[s, SIDE.HOLES] += 1
        seat_stat[s, SEAT_STAT.HOLES_TAKEN] += 1
        if s != actor:
            seat_stat[actor, SEAT_STAT.HOLES_MADE] += 1
    else:
        side[s, SIDE.WATER] += rules[RULE.WATER_PER_HOLE]
        check_sinking_nb(side, state, rules, s)


@njit(inline="always", cache=True)
def clear_pirate_nb(pirate, p):
    """Statuses, actions, markers and regeneration back to nothing."""
    pirate[p, PIRATE.STATUS] = 0
    pirate[p, PIRATE.STATUS + 1] = 0
    pirate[p, PIRATE.STATUS + 2] = 0
    pirate[p, PIRATE.STATUS + 3] = 0
    pirate[p, PIRATE.ACTIONS] = 0
    pirate[p, PIRATE.MARKERS] = 0
    pirate[p, PIRATE.REGEN] = 0
    pirate[p, PIRATE.ASHORE] = 0


@njit(cache=True, _nrt=False, error_model="numpy")
def damage_nb(pos, p, amount):
    """Living pirate ``p`` loses ``amount`` life (floor 0) and dies at 0."""
    pirate, state, seat_stat = pos[1], pos[6], pos[7]
    life = pirate[p, PIRATE.LIFE]
    lost = min(max(amount, 0), life)
    pirate[p, PIRATE.LIFE] = life - lost
    mover = (state[STATE.TURN] - 1) % 2
    if p // 2 != mover:
        seat_stat[mover, SEAT_STAT.DAMAGE_DEALT] += lost
    if life - lost <= 0:
        pirate[p, PIRATE.LIFE] = 0
        pirate[p, PIRATE.ZONE] = -1
        clear_pirate_nb(pirate, p)
        seat_stat[p // 2, SEAT_STAT.DEATHS] += 1


@njit(inline="always", cache=True)
def heal_nb(pirate, p, amount):
    """A living pirate regains ``amount`` life, up to the maximum."""
    if pirate[p, PIRATE.ZONE] >= 0 and amount > 0:
        pirate[p, PIRATE.LIFE] = min(MAX_LIFE, pirate[p, PIRATE.LIFE] + amount)


@njit(inline="always", cache=True)
def revive_nb(pirate, p):
    pirate[p, PIRATE.LIFE] = MAX_LIFE
    pirate[p, PIRATE.ZONE] = p // 2
    clear_pirate_nb(pirate, p)


@njit(cache=True, _nrt=False, error_model="numpy")
def apply_status_nb(pirate, p, kind, turns, turn):
    """Status ``kind`` on living pirate ``p`` (BURN/POISON: stamped with the game turn,
    striking ``turns`` times, at least once)."""
    if pirate[p, PIRATE.ZONE] < 0 or kind == NO_STATUS:
        return
    timed = kind != BURN and kind != POISON
    if timed and turns < 1:
        return
    stamp = turn + STRIKES_STEP * (max(turns, 1) - 1)
    for slot in range(2):
        k = PIRATE.STATUS + 2 * slot
        if pirate[p, k] == kind:
            if timed:
                pirate[p, k + 1] = max(pirate[p, k + 1], turns)
            else:
                pirate[p, k + 1] = stamp
            return
    for slot in range(2):
        k = PIRATE.STATUS + 2 * slot
        if pirate[p, k] == NO_STATUS:
            pirate[p, k] = kind
            pirate[p, k + 1] = turns if timed else stamp
            return


@njit(inline="always", cache=True)
def strike_nb(pirate, p, kind, turn):
    """Whether pirate ``p``'s BURN/POISON ``kind`` strikes in game turn ``turn`` (one of
    the N turns after the one it was applied in); its last strike clears it."""
    for slot in range(2):
        k = PIRATE.STATUS + 2 * slot
        if pirate[p, k] == kind:
            value = pirate[p, k + 1]
            since = turn - value % STRIKES_STEP
            strikes = value // STRIKES_STEP + 1
            if since < 1 or since > strikes:
                return False
            if since == strikes:
                pirate[p, k] = 0
                pirate[p, k + 1] = 0
            return True
    return False


@njit(inline="always", cache=True)
def cure_nb(pirate, p, kind):
    """Pirate ``p`` loses status ``kind`` (NO_STATUS: every status)."""
    for slot in range(2):
        k = PIRATE.STATUS + 2 * slot
        if pirate[p, k] != NO_STATUS and (kind == NO_STATUS or pirate[p, k] == kind):
            pirate[p, k] = 0
            pirate[p, k + 1] = 0


@njit(inline="always", cache=True)
def game_turns_nb(turns, clock, owner, mover, longer):
    """An effect's ``turns`` in game turns: OWN_TURNS are the turns of ``owner`` (2N - 1
    game turns in its own turn, 2N in the enemy's), then ``longer`` is added; untimed (0)
    stays so."""
    if turns <= 0:
        return turns
    if clock == OWN_TURNS:
        turns = 2 * turns - 1 if owner == mover else 2 * turns
    return turns + longer


@njit(inline="always", cache=True)
def lower_nb(current, turns):
    """Anchor down / mast broken: the field's new value (-1 up/intact, 0 untimed)."""
    if current <= 0:
        return turns
    if turns > 0:
        return max(current, turns)
    return current


# --- effects -------------------------------------------------------------------------------


@njit(inline="always", cache=True)
def target_seat_nb(target, seat):
    """The seat a ship or side target names, -1 for another target."""
    if target == OWN_SHIP or target == OWN:
        return seat
    if target == ENEMY_SHIP or target == ENEMY:
        return 1 - seat
    return np.int64(-1)


@njit(inline="always", cache=True)
def is_chosen_nb(target, seat, choice, p):
    """Whether ``p`` is the chosen pirate of a chosen target, on the side the target names
    (a row aimed at a chosen own pirate never touches an enemy one, and the reverse)."""
    if p != choice:
        return False
    if target == OWN_PIRATE or target == OWN_PIRATE_HERE:
        return p // 2 == seat
    if target == ENEMY_PIRATE or target == ENEMY_PIRATE_HERE:
        return p // 2 == 1 - seat
    return False


@njit(inline="always", cache=True)
def condition_nb(side, pirate, seat, condition, value):
    """Whether an effect's condition (``Effect.IF`` with ``value``) holds for ``seat``."""
    if condition == OWN_WATER_AT_LEAST:
        return side[seat, SIDE.WATER] >= value
    if condition == ENEMY_ANCHOR_DOWN:
        return side[1 - seat, SIDE.ANCHOR] >= 0
    if condition == OWN_PIRATE_ON_ISLAND or condition == OWN_PIRATE_BOARDING:
        zone = ISLAND if condition == OWN_PIRATE_ON_ISLAND else 1 - seat
        return pirate[2 * seat, PIRATE.ZONE] == zone or pirate[2 * seat + 1, PIRATE.ZONE] == zone
    if condition == NO_CONDITION:
        return True
    # the own_/enemy_ pairs: the side they name
    s = seat
    if (
        condition == ENEMY_MAST_BROKEN
        or condition == ENEMY_HOLES_AT_LEAST
        or condition == ENEMY_PIRATE_DEAD
        or condition == ENEMY_RED_SEA
        or condition == ENEMY_WATER_AT_LEAST
    ):
        s = 1 - seat
    if condition == OWN_ANCHOR_DOWN:
        return side[s, SIDE.ANCHOR] >= 0
    if condition == OWN_MAST_BROKEN or condition == ENEMY_MAST_BROKEN:
        return side[s, SIDE.MAST] >= 0
    if condition == OWN_HOLES_AT_LEAST or condition == ENEMY_HOLES_AT_LEAST:
        return side[s, SIDE.HOLES] >= value
    if condition == OWN_PIRATE_DEAD or condition == ENEMY_PIRATE_DEAD:
        return pirate[2 * s, PIRATE.ZONE] < 0 or pirate[2 * s + 1, PIRATE.ZONE] < 0
    if condition == OWN_RED_SEA or condition == ENEMY_RED_SEA:
        return side[s, SIDE.DECK_POS] >= DECK_SIZE
    if condition == ENEMY_WATER_AT_LEAST:
        return side[s, SIDE.WATER] >= value
    return True


@njit(inline="always", cache=True)
def offered_nb(side, pirate, seat, gate, gate_len, card):
    """Whether ``card`` may be offered (played, or its item activated) now: unless every
    one of its effects has an ``if``, and none of them holds (``derive_nb``'s gate)."""
    n = gate_len[card]
    if n == 0:
        return True
    for g in range(n):
        if condition_nb(side, pirate, seat, gate[card, g, 0], gate[card, g, 1]):
            return True
    return False


@njit(inline="always", cache=True)
def random_enemy_nb(pirate, dice, seat):
    """A living enemy pirate of ``seat`` drawn on the dice (``below(2)`` when both live,
    no draw for one), -1 for none."""
    a = 2 * (1 - seat)
    on_a = pirate[a, PIRATE.ZONE] >= 0
    on_b = pirate[a + 1, PIRATE.ZONE] >= 0
    if on_a and on_b:
        return a + dice_below_nb(dice, 2)
    if on_a:
        return np.int64(a)
    if on_b:
        return np.int64(a + 1)
    return np.int64(-1)


@njit(inline="always", cache=True)
def is_target_nb(pirate, target, seat, choice, p):
    """Whether pirate ``p`` is among a pirate target's living pirates (for ``self``,
    ``random_enemy_pirate``, ``attacker``, ``boarder`` and ``hit_pirate``, ``choice`` is the
    holder, the pirate drawn or the pirate that set the program off)."""
    zone = pirate[p, PIRATE.ZONE]
    if zone < 0:
        return False
    if (
        target == SELF
        or target == RANDOM_ENEMY_PIRATE
        or target == ATTACKER
        or target == BOARDER
        or target == HIT_PIRATE
        or target == VISITOR
    ):
        return p == choice
    if target == PIRATES_OWN_SHIP:
        return zone == seat
    if target == PIRATES_ENEMY_SHIP:
        return zone == 1 - seat
    if target == PIRATES_ISLAND:
        return zone == ISLAND
    return is_chosen_nb(target, seat, choice, p)


@njit(inline="always", cache=True)
def most_held_food_nb(side, s):
    """The kind of food seat ``s`` spends when none is named: the kind held most (ties:
    the first in ``FOOD_KINDS`` order)."""
    best = 0
    for k in range(1, 5):
        if side[s, SIDE.FOOD_KINDS + k] > side[s, SIDE.FOOD_KINDS + best]:
            best = k
    return best


@njit(inline="always", cache=True)
def spend_food_nb(side, s, count):
    """Seat ``s`` spends ``count`` food of no named kind, each of the kind held most."""
    for _ in range(count):
        side[s, SIDE.FOOD_KINDS + most_held_food_nb(side, s)] -= 1
        side[s, SIDE.PROVISIONS + FOOD_PROVISION] -= 1


@njit(inline="always", cache=True)
def gain_food_nb(side, start_kinds, s, count):
    """Seat ``s`` gains ``count`` food of no named kind, each of the kind furthest below
    its starting count ``start_kinds[s]`` (ties: the first in ``FOOD_KINDS`` order)."""
    for _ in range(count):
        best = 0
        for k in range(1, 5):
            if (
                start_kinds[s, k] - side[s, SIDE.FOOD_KINDS + k]
                > start_kinds[s, best] - side[s, SIDE.FOOD_KINDS + best]
            ):
                best = k
        side[s, SIDE.FOOD_KINDS + best] += 1
        side[s, SIDE.PROVISIONS + FOOD_PROVISION] += 1


@njit(inline="always", cache=True)
def apply_program_nb(
    pos, content, derived, rules, dice, seat, program, length, choice, holder, longer, other, hit
):
    """:func:`_apply_program_nb`, compiled once: numba would compile it again for every
    pattern of constants its callers pass (some 100 s of compiling, six patterns)."""
    _apply_program_nb(
        pos,
        content,
        derived,
        rules,
        dice,
        np.int64(seat),
        program,
        np.int64(length),
        np.int64(choice),
        np.int64(holder),
        np.int64(longer),
        np.int64(other),
        np.int64(hit),
    )


@njit(cache=True, _nrt=False, error_model="numpy")
def _apply_program_nb(
    pos, content, derived, rules, dice, seat, program, length, choice, holder, longer, other, hit
):
    """Apply ``length`` rows of ``program`` acting for ``seat``; ``choice`` is the chosen
    pirate (code, -1 if none). Stops at once when the game ends. ``longer`` turns are
    added to every timed effect (1 for a ship's trigger, which fires before the countdown).

    A row aimed at a chosen own (enemy) pirate touches the chosen pirate only if it is
    ``seat``'s (the enemy's). ``holder`` is the pirate holding the item activated (-1
    otherwise), or the visiting pirate for an island card's program: the targets ``self``
    and ``visitor``. A ``random_enemy_pirate`` row draws its pirate first. Turns counted
    in OWN_TURNS (``Effect.CLOCK``) are converted for the owner of what each row lands on.
    ``other`` is the pirate that set the program off (the attacker, the boarder, the pirate
    hit: the targets ``attacker``, ``boarder``, ``hit_pirate``; -1 for none) and ``hit`` 1
    when a cursed ball's shot hit (rows ``on = "hit"`` apply only then).
    """
    side, pirate, hand, island, state = pos[0], pos[1], pos[3], pos[5], pos[6]
    seat_stat = pos[7]
    turn = state[STATE.TURN]
    mover = (turn - 1) % 2
    insult = 0  # 0 none yet, 1 won, 2 lost
    for r in range(length):
        on = program[r, EFFECT.ON]
        if on == IF_WON and insult != 1:
            continue
        if on == IF_LOST and insult != 2:
            continue
        if on == IF_HIT and hit == 0:
            continue
        if not condition_nb(side, pirate, seat, program[r, EFFECT.IF], program[r, EFFECT.IF_VALUE]):
            continue
        op = program[r, EFFECT.OP]
        target = program[r, EFFECT.TARGET]
        amount = program[r, EFFECT.AMOUNT]
        raw = program[r, EFFECT.TURNS]
        clock = program[r, EFFECT.CLOCK]
        arg = program[r, EFFECT.ARG]
        s = target_seat_nb(target, seat)
        turns = game_turns_nb(raw, clock, s, mover, longer)
        chosen = choice
        if target == SELF or target == VISITOR:
            chosen = holder
        elif target == RANDOM_ENEMY_PIRATE:
            chosen = random_enemy_nb(pirate, dice, seat)
        elif target == ATTACKER or target == BOARDER or target == HIT_PIRATE:
            chosen = other
        if op == WATER:
            if s >= 0:
                side[s, SIDE.WATER] = max(0, side[s, SIDE.WATER] + amount)
                check_sinking_nb(side, state, rules, s)
        elif op == HOLE:
            if s >= 0:
                for _ in range(amount):
                    hole_nb(pos, rules, seat, s)
                    if state[STATE.OVER]:
                        return
        elif op == REPAIR:
            if s >= 0:
                for _ in range(amount):
                    if side[s, SIDE.HOLES] >= 1:
                        side[s, SIDE.HOLES] -= 1
                        side[s, SIDE.INTACT] += 1
                        seat_stat[s, SEAT_STAT.HOLES_REPAIRED] += 1
        elif op == DAMAGE:
            for p in range(4):
                if is_target_nb(pirate, target, seat, chosen, p):
                    damage_nb(pos, p, amount)
        elif op == HEAL:
            for p in range(4):
                if is_target_nb(pirate, target, seat, chosen, p):
                    heal_nb(pirate, p, amount)
        elif op == REVIVE:
            alive = choice >= 0 and pirate[choice, PIRATE.ZONE] >= 0
            if choice >= 0 and not alive and is_chosen_nb(target, seat, choice, choice):
                revive_nb(pirate, choice)
        elif op == STATUS:
            for p in range(4):
                if is_target_nb(pirate, target, seat, chosen, p):
                    if arg == BURN or arg == POISON:  # strikes, in game turns
                        apply_status_nb(pirate, p, arg, raw, turn)
                    else:
                        timed = game_turns_nb(raw, clock, p // 2, mover, longer)
                        apply_status_nb(pirate, p, arg, timed, turn)
        elif op == CURE:
            for p in range(4):
                if is_target_nb(pirate, target, seat, chosen, p):
                    cure_nb(pirate, p, arg)
        elif op == DISCARD_DECK:
            if s >= 0:
                for _ in range(amount):
                    k = side[s, SIDE.DECK_POS]
                    if k >= DECK_SIZE:
                        break
                    side[s, SIDE.DECK_POS] = k + 1
                    to_discard_nb(pos, content, s, pos[2][s, k])
                    if state[STATE.OVER]:
                        return
        elif op == ANCHOR_DOWN:
            if s >= 0:
                side[s, SIDE.ANCHOR] = lower_nb(side[s, SIDE.ANCHOR], turns)
        elif op == MAST_BROKEN:
            if s >= 0:
                side[s, SIDE.MAST] = lower_nb(side[s, SIDE.MAST], turns)
        elif op == PACIFY_CANNONS:
            if s >= 0:
                side[s, SIDE.PACIFIED] = max(side[s, SIDE.PACIFIED], turns)
        elif op == STRIP:
            if s >= 0:
                side[s, SIDE.STRIPPED] = max(side[s, SIDE.STRIPPED], turns)
        elif op == GAIN:
            if s >= 0:
                total = 0
                for k in range(5):
                    total += side[s, SIDE.PROVISIONS + k]
                gained = max(0, min(amount, rules[RULE.RESERVE_MAX] - total))
                if arg >= FOOD_KIND_ARG:  # a named kind of food
                    side[s, SIDE.FOOD_KINDS + arg - FOOD_KIND_ARG] += gained
                    side[s, SIDE.PROVISIONS + FOOD_PROVISION] += gained
                elif arg == FOOD_PROVISION:
                    gain_food_nb(side, content[28], s, gained)
                else:
                    side[s, SIDE.PROVISIONS + arg] += gained
        elif op == LOSE:
            if s >= 0:
                if arg >= FOOD_KIND_ARG:
                    lost = max(0, min(amount, side[s, SIDE.FOOD_KINDS + arg - FOOD_KIND_ARG]))
                    side[s, SIDE.FOOD_KINDS + arg - FOOD_KIND_ARG] -= lost
                    side[s, SIDE.PROVISIONS + FOOD_PROVISION] -= lost
                else:
                    lost = max(0, min(amount, side[s, SIDE.PROVISIONS + arg]))
                    if arg == FOOD_PROVISION:
                        spend_food_nb(side, s, lost)
                    else:
                        side[s, SIDE.PROVISIONS + arg] -= lost
        elif op == STEAL:
            if s >= 0:
                total = 0
                for k in range(5):
                    total += side[seat, SIDE.PROVISIONS + k]
                if arg >= FOOD_KIND_ARG:
                    held = side[s, SIDE.FOOD_KINDS + arg - FOOD_KIND_ARG]
                else:
                    held = side[s, SIDE.PROVISIONS + arg]
                moved = max(0, min(amount, held, rules[RULE.RESERVE_MAX] - total))
                if arg >= FOOD_KIND_ARG or arg == FOOD_PROVISION:
                    for _ in range(moved):  # each food moves as the kind it is
                        kind = arg - FOOD_KIND_ARG
                        if arg == FOOD_PROVISION:
                            kind = most_held_food_nb(side, s)
                        side[s, SIDE.FOOD_KINDS + kind] -= 1
                        side[seat, SIDE.FOOD_KINDS + kind] += 1
                    side[s, SIDE.PROVISIONS + FOOD_PROVISION] -= moved
                    side[seat, SIDE.PROVISIONS + FOOD_PROVISION] += moved
                else:
                    side[s, SIDE.PROVISIONS + arg] -= moved
                    side[seat, SIDE.PROVISIONS + arg] += moved
        elif op == DRAW:
            if s >= 0:
                for _ in range(amount):
                    if not draw_nb(pos, derived, s):
                        break
        elif op == DISCARD:
            if s >= 0:
                for _ in range(amount):
                    n = side[s, SIDE.HAND_LEN]
                    if n == 0:
                        break
                    index = dice_below_nb(dice, n) if n >= 2 else np.int64(0)
                    card = hand_remove_nb(side, hand, s, index)
                    to_discard_nb(pos, content, s, card)
                    if state[STATE.OVER]:
                        return
        elif op == CANNON_MODIFIER:
            if s >= 0:
                n = side[s, SIDE.MODS_LEN]
                if n < MAX_CANNON_MODS:
                    side[s, SIDE.MODS + 2 * n] = amount
                    side[s, SIDE.MODS + 2 * n + 1] = turns
                    side[s, SIDE.MODS_LEN] = n + 1
        elif op == EXTRA_ACTION:
            for p in range(4):
                if is_target_nb(pirate, target, seat, chosen, p):
                    pirate[p, PIRATE.ACTIONS] += amount
        elif op == MOVE:
            zone = np.int64(ISLAND)
            if arg == TO_OWN_SHIP:
                zone = seat
            elif arg == TO_ENEMY_SHIP:
                zone = 1 - seat
            elif arg != TO_ISLAND:
                zone = np.int64(-1)
            if zone >= 0:
                for p in range(4):
                    if is_target_nb(pirate, target, seat, chosen, p):
                        pirate[p, PIRATE.ZONE] = zone
                        pirate[p, PIRATE.ASHORE] = 0  # carried: no visit
        elif op == INSULT:
            while True:
                mine = d6_nb(dice)
                theirs = d6_nb(dice)
                if dice[2][1] != 0:
                    break
                if mine != theirs:
                    insult = 1 if mine > theirs else 2
                    break
        elif op == CLEAR_ISLAND:
            n = state[STATE.ISLAND_LEN]
            for k in range(n):
                state[STATE.ISLAND_LEN] = n - 1 - k
                to_discard_nb(pos, content, island[k, 1], island[k, 0])
                if state[STATE.OVER]:
                    # the cards not yet discarded stay in play
                    for j in range(n - 1 - k):
                        island[j, 0] = island[k + 1 + j, 0]
                        island[j, 1] = island[k + 1 + j, 1]
                    return
        if state[STATE.OVER]:
            return


# --- triggered abilities -------------------------------------------------------------------


@njit(inline="always", cache=True)
def has_trigger_nb(content, pirate, p, event):
    """Whether pirate ``p``, its animal or its item has an ability of ``event``."""
    card_trigger, own_trigger = content[20], content[23]
    for t in range(MAX_TRIGGERS):
        if own_trigger[p // 2, p % 2, t] == event:
            return True
    for card in (pirate[p, PIRATE.ANIMAL], pirate[p, PIRATE.ITEM]):
        if card >= 0:
            for t in range(MAX_TRIGGERS):
                if card_trigger[card, t] == event:
                    return True
    return False


@njit(inline="always", cache=True)
def fire_triggers_nb(pos, content, derived, rules, dice, p, event, other):
    """Pirate ``p``'s triggered abilities of ``event`` (``layout.ON_*``): its own, then its
    animal's, then its item's, each in file order, acting for its owner with ``p`` as
    ``self`` and ``other`` as the pirate that set them off (-1 for none). Each fires only
    if ``p`` then lives (and, for ON_BOARDED, is aboard its own ship). Stops at once when
    the game ends. The call is made only for a pirate with such an ability: most have
    none."""
    if has_trigger_nb(content, pos[1], p, event):
        # int64, not the callers' constants: one compiled version, not one per pattern.
        run_triggers_nb(
            pos, content, derived, rules, dice, np.int64(p), np.int64(event), np.int64(other)
        )


@njit(cache=True, _nrt=False, error_model="numpy")
def run_triggers_nb(pos, content, derived, rules, dice, p, event, other):
    """:func:`fire_triggers_nb`'s work."""
    pirate, state = pos[1], pos[6]
    s = p // 2
    i = p % 2
    card_trigger, card_program, card_len = content[20], content[21], content[22]
    own_trigger, own_program, own_len = content[23], content[24], content[25]
    for source in range(3):
        for t in range(MAX_TRIGGERS):
            card = np.int64(-1)
            if source == 0:
                if own_trigger[s, i, t] != event:
                    continue
            else:
                card = pirate[p, PIRATE.ANIMAL] if source == 1 else pirate[p, PIRATE.ITEM]
                if card < 0 or card_trigger[card, t] != event:
                    continue
            zone = pirate[p, PIRATE.ZONE]
            if zone < 0 or (event == ON_BOARDED and zone != s):
                return
            if source == 0:
                apply_program_nb(
                    pos,
                    content,
                    derived,
                    rules,
                    dice,
                    s,
                    own_program[s, i, t],
                    own_len[s, i, t],
                    -1,
                    p,
                    0,
                    other,
                    0,
                )
            else:
                apply_program_nb(
                    pos,
                    content,
                    derived,
                    rules,
                    dice,
                    s,
                    card_program[card, t],
                    card_len[card, t],
                    -1,
                    p,
                    0,
                    other,
                    0,
                )
            if state[STATE.OVER]:
                return


@njit(cache=True, _nrt=False, error_model="numpy")
def fire_side_nb(pos, content, derived, rules, dice, seat, event, other):
    """The triggered abilities of ``event`` of ``seat``'s pirates, pirate 0's first (set
    off by ``other``)."""
    for p in range(2 * seat, 2 * seat + 2):
        fire_triggers_nb(pos, content, derived, rules, dice, p, event, other)
        if pos[6][STATE.OVER]:
            return


# --- start and end of a turn ---------------------------------------------------------------


@njit(cache=True, _nrt=False, error_model="numpy")
def start_turn_nb(pos, content, derived, rules, dice):
    """Start of the turn (water, start-of-turn effects, timers, markers, draw, revivals,
    actions, cards held, then the turn_start abilities). May end the game."""
    side, pirate, hand, state = pos[0], pos[1], pos[3], pos[6]
    seat_stat, card_stat = pos[7], pos[8]
    turn = state[STATE.TURN]
    me = (turn - 1) % 2
    # 1. water, then the ship's trigger
    side[me, SIDE.WATER] += rules[RULE.WATER_PER_HOLE] * side[me, SIDE.HOLES]
    if side[me, SIDE.WATER] >= rules[RULE.SINK_WATER]:
        lose_nb(state, me, BY_WATER)
        return
    trigger = content[16]
    if (
        trigger[me, 0] != NO_TRIGGER
        and side[me, SIDE.TRIGGERED] == 0
        and condition_nb(side, pirate, me, trigger[me, 0], trigger[me, 1])
    ):
        side[me, SIDE.TRIGGERED] = 1
        apply_program_nb(
            pos,
            content,
            derived,
            rules,
            dice,
            me,
            content[17][me],
            content[18][me],
            -1,
            -1,
            1,
            -1,
            0,
        )
        if state[STATE.OVER]:
            return
    # 2. poison (both seats), then regeneration (own pirates)
    for p in range(4):
        if pirate[p, PIRATE.ZONE] < 0:
            continue
        if strike_nb(pirate, p, POISON, turn):
            damage_nb(pos, p, np.int64(1))
    for p in range(2 * me, 2 * me + 2):
        if pirate[p, PIRATE.REGEN]:
            if pirate[p, PIRATE.ZONE] >= 0:
                heal_nb(pirate, p, 1)
            pirate[p, PIRATE.REGEN] = 0
    # 3. timed effects lose a turn
    for p in range(4):
        for slot in range(2):
            k = PIRATE.STATUS + 2 * slot
            kind = pirate[p, k]
            if kind != NO_STATUS and kind != BURN and kind != POISON:
                pirate[p, k + 1] -= 1
                if pirate[p, k + 1] <= 0:
                    pirate[p, k] = 0
                    pirate[p, k + 1] = 0
    for s in range(2):
        if side[s, SIDE.ANCHOR] > 0:
            side[s, SIDE.ANCHOR] -= 1
            if side[s, SIDE.ANCHOR] == 0:
                side[s, SIDE.ANCHOR] = -1
        if side[s, SIDE.MAST] > 0:
            side[s, SIDE.MAST] -= 1
            if side[s, SIDE.MAST] == 0:
                side[s, SIDE.MAST] = -1
        if side[s, SIDE.PACIFIED] > 0:
            side[s, SIDE.PACIFIED] -= 1
        if side[s, SIDE.STRIPPED] > 0:
            side[s, SIDE.STRIPPED] -= 1
        n = side[s, SIDE.MODS_LEN]
        kept = 0
        for m in range(n):
            amount = side[s, SIDE.MODS + 2 * m]
            left = side[s, SIDE.MODS + 2 * m + 1] - 1
            if left > 0:
                side[s, SIDE.MODS + 2 * kept] = amount
                side[s, SIDE.MODS + 2 * kept + 1] = left
                kept += 1
        for m in range(kept, n):
            side[s, SIDE.MODS + 2 * m] = 0
            side[s, SIDE.MODS + 2 * m + 1] = 0
        side[s, SIDE.MODS_LEN] = kept
    # 4. death markers
    for p in range(2 * me, 2 * me + 2):
        if pirate[p, PIRATE.ZONE] < 0:
            pirate[p, PIRATE.MARKERS] += 1
    # 5. draw, or the Red Sea
    if not draw_nb(pos, derived, me):
        seat_stat[me, SEAT_STAT.RED_SEA] += 1
        hole_nb(pos, rules, me, me)
        if state[STATE.OVER]:
            return
    # 6. revivals
    for p in range(2 * me, 2 * me + 2):
        if pirate[p, PIRATE.ZONE] < 0 and pirate[p, PIRATE.MARKERS] >= 2:
            revive_nb(pirate, p)
    # 7. actions (and a visit again for a pirate on the island), counters, cards held
    for p in range(2 * me, 2 * me + 2):
        if pirate[p, PIRATE.ZONE] >= 0:
            pirate[p, PIRATE.ACTIONS] = 1
        pirate[p, PIRATE.ASHORE] = pirate[p, PIRATE.ZONE] == ISLAND
    state[STATE.SHOTS] = 0
    side[me, SIDE.SPECIAL_USED] = 0
    row_of = derived[0]
    for k in range(side[me, SIDE.HAND_LEN]):
        row = row_of[me, hand[me, k]]
        if row >= 0:
            card_stat[me, row, CARD_STAT.HELD] += 1
    # 8. the turn_start abilities of the player's pirates, their animals and items
    fire_side_nb(pos, content, derived, rules, dice, me, np.int64(ON_TURN_START), np.int64(-1))


@njit(cache=True, _nrt=False, error_model="numpy")
def end_turn_nb(pos, content, rules):
    """End of the turn: an unfired cursed ball to the discard, burns, actions lost, the cap,
    then the next game turn."""
    side, pirate, state = pos[0], pos[1], pos[6]
    turn = state[STATE.TURN]
    me = (turn - 1) % 2
    loaded = side[me, SIDE.LOADED]
    if loaded >= 0:
        side[me, SIDE.LOADED] = -1
        to_discard_nb(pos, content, me, loaded)
        if state[STATE.OVER]:
            return
    for p in range(4):
        if pirate[p, PIRATE.ZONE] < 0:
            continue
        if strike_nb(pirate, p, BURN, turn):
            damage_nb(pos, p, np.int64(1))
    for p in range(2 * me, 2 * me + 2):
        pirate[p, PIRATE.ACTIONS] = 0
    if turn >= rules[RULE.TURN_CAP]:
        state[STATE.OVER] = 1
        state[STATE.WINNER] = -1
        state[STATE.REASON] = CAPPED
        return
    state[STATE.TURN] = turn + 1


# --- legal options -------------------------------------------------------------------------


@njit(inline="always", cache=True)
def add_option_nb(options, n, kind, who, what, target):
    options[n, 0] = kind
    options[n, 1] = who
    options[n, 2] = what
    options[n, 3] = target
    return n + 1


@njit(inline="always", cache=True)
def add_targets_nb(pirate, me, list_kind, here, options, n, kind, who, what):
    """Append one option ``(kind, who, what, target)`` for each target of ``list_kind``
    (pirate code order); ``here`` is an activating holder's zone (-1 when playing)."""
    if list_kind == TL_NONE or list_kind == TL_CURSED:
        return add_option_nb(options, n, kind, who, what, -1)
    for p in range(4):
        zone = pirate[p, PIRATE.ZONE]
        own = p // 2 == me
        ok = False
        if list_kind == TL_OWN_DEAD:
            ok = own and zone < 0
        elif zone < 0:
            ok = False
        elif list_kind == TL_OWN_LIVING:
            ok = own
        elif list_kind == TL_OWN_HERE:
            ok = own and (here < 0 or zone == here)
        elif list_kind == TL_ENEMY_LIVING:
            ok = not own
        elif list_kind == TL_ENEMY_HERE:
            if not own:
                if here >= 0:
                    ok = zone == here
                else:
                    ok = (
                        pirate[2 * me, PIRATE.ZONE] == zone
                        or pirate[2 * me + 1, PIRATE.ZONE] == zone
                    )
        elif list_kind == TL_ANIMAL:
            ok = own and pirate[p, PIRATE.ANIMAL] < 0
        elif list_kind == TL_ITEM:
            ok = (
                own and zone == me and pirate[p, PIRATE.ACTIONS] >= 1 and pirate[p, PIRATE.ITEM] < 0
            )
        elif list_kind == TL_FOOD:
            ok = own and pirate[p, PIRATE.LIFE] < MAX_LIFE
        if ok:
            n = add_option_nb(options, n, kind, who, what, p)
    return n


@njit(cache=True, _nrt=False, error_model="numpy")
def legal_options_nb(pos, content, derived, rules, options):
    """Write the player's legal options in canonical order; returns their count."""
    return options_nb(
        pos[0],
        pos[1],
        pos[3],
        pos[6],
        content[0],
        content[2],
        content[10],
        derived[1],
        derived[2],
        derived[3],
        derived[4],
        content[19],
        derived[5],
        derived[6],
        rules,
        options,
    )


@njit(inline="always", cache=True)
def can_take_nb(side, pirate, start, pirate_base, card_mod, rules, p):
    """Provisions a visit of pirate ``p`` would take back: up to ``island_take`` plus its
    ISLAND_TAKE modifiers, within the reserve's room and the kinds' shortfalls."""
    me = p // 2
    take = rules[RULE.ISLAND_TAKE] + pirate_base[me, p % 2, 2]
    card = pirate[p, PIRATE.ANIMAL]
    if card >= 0:
        take += card_mod[card, 1]
    card = pirate[p, PIRATE.ITEM]
    if card >= 0:
        take += card_mod[card, 1]
    total = 0
    short = 0
    for k in range(5):
        have = side[me, SIDE.PROVISIONS + k]
        total += have
        if start[me, k] > have:
            short += start[me, k] - have
    return max(0, min(take, rules[RULE.RESERVE_MAX] - total, short))


@njit(inline="always", cache=True)
def can_pay_nb(side, pirate, card_cost, me, card):
    """Whether seat ``me`` can pay ``card``'s cost (provisions, none while stripped; an
    action of a living pirate)."""
    spends = False
    for k in range(5):
        need = card_cost[card, k]
        if need > 0:
            spends = True
            if side[me, SIDE.PROVISIONS + k] < need:
                return False
    if spends and side[me, SIDE.STRIPPED] > 0:
        return False
    for k in range(5):
        if side[me, SIDE.FOOD_KINDS + k] < card_cost[card, COST_FOOD_KINDS + k]:
            return False
    if card_cost[card, COST_ACTION] == 0:
        return True
    for p in range(2 * me, 2 * me + 2):
        if pirate[p, PIRATE.ZONE] >= 0 and pirate[p, PIRATE.ACTIONS] >= 1:
            return True
    return False


@njit(inline="always", cache=True)
def cannon_turn_nb(turn, rules):
    """The turn ``cannon_start`` counts: the game turn, or the player's own (1 its first)."""
    if rules[RULE.CANNON_START] == START_GAME:
        return turn
    return (turn + 1) // 2


@njit(inline="always", cache=True)
def chaos_penalty_nb(side, s, turn, rules):
    """What the enemy's chaos balls take off ``s``'s cannon rolls in game ``turn``: the
    penalty for each ball (``chaos_stack``) or once."""
    if side[s, SIDE.CHAOS_TURN] != turn:
        return 0
    if rules[RULE.CHAOS_STACK] != 0:
        return rules[RULE.CHAOS_PENALTY] * side[s, SIDE.CHAOS_COUNT]
    return rules[RULE.CHAOS_PENALTY]


@njit(cache=True, _nrt=False, error_model="numpy")
def options_nb(
    side,
    pirate,
    hand,
    state,
    card_type,
    card_flags,
    start,
    play_kind,
    choice_kind,
    pirate_base,
    card_mod,
    card_cost,
    gate,
    gate_len,
    rules,
    options,
):
    """:func:`legal_options_nb` on the arrays it reads (the game loop's hot path: a call
    with every array of the position and the content costs as much as the work)."""
    turn = state[STATE.TURN]
    me = (turn - 1) % 2
    enemy = 1 - me
    stripped = side[me, SIDE.STRIPPED] > 0
    n = 0
    if state[STATE.TAKING] > 0:  # an island visit under way: the kinds it may take back
        for k in range(5):
            if side[me, SIDE.PROVISIONS + k] < start[me, k]:
                n = add_option_nb(options, n, TAKE, -1, k, -1)
        return n
    for i in range(2):
        p = 2 * me + i
        zone = pirate[p, PIRATE.ZONE]
        if zone < 0:
            continue
        acts = pirate[p, PIRATE.ACTIONS]
        k0 = pirate[p, PIRATE.STATUS]
        k1 = pirate[p, PIRATE.STATUS + 2]
        # a. moves
        if k0 != IMMOBILISED and k1 != IMMOBILISED:
            boarding_free = zone == me and (
                side[enemy, SIDE.ANCHOR] >= 0 or side[enemy, SIDE.MAST] >= 0
            )
            for z in range(3):
                if z != zone and (acts >= 1 or (boarding_free and z == enemy)):
                    n = add_option_nb(options, n, MOVE_TO, i, z, -1)
        if acts < 1:
            continue
        if zone == me:
            # b. bail
            if side[me, SIDE.WATER] > 0 and k0 != NO_BUCKET and k1 != NO_BUCKET:
                n = add_option_nb(options, n, BAIL_WATER, i, -1, -1)
            # c., d. repairs
            if (
                k0 != NO_REPAIR
                and k1 != NO_REPAIR
                and side[me, SIDE.PROVISIONS + PLANK] >= 1
                and not stripped
            ):
                if side[me, SIDE.HOLES] >= 1:
                    n = add_option_nb(options, n, REPAIR_HOLE, i, -1, -1)
                mast = side[me, SIDE.MAST]  # a timed break only under mast_repair = always
                if mast == 0 or (mast > 0 and rules[RULE.MAST_REPAIR] == MAST_ALWAYS):
                    n = add_option_nb(options, n, REPAIR_MAST, i, -1, -1)
            # e. raise the anchor
            if side[me, SIDE.ANCHOR] == 0:
                n = add_option_nb(options, n, RAISE_ANCHOR, i, -1, -1)
            # f. fire (none on the first turn, one shot on the second: cannon_start)
            cannon = cannon_turn_nb(turn, rules)
            if (
                k0 != NO_CANNON
                and k1 != NO_CANNON
                and side[me, SIDE.PACIFIED] == 0
                and cannon >= 2
                and (cannon != 2 or state[STATE.SHOTS] == 0)
            ):
                if side[me, SIDE.LOADED] >= 0:
                    n = add_option_nb(options, n, FIRE, i, AMMO_CURSED, -1)
                elif not stripped:
                    if side[me, SIDE.PROVISIONS + CANNONBALL] >= 1:
                        n = add_option_nb(options, n, FIRE, i, AMMO_CANNONBALL, -1)
                    if side[me, SIDE.PROVISIONS + INCENDIARY_BALL] >= 1:
                        n = add_option_nb(options, n, FIRE, i, AMMO_INCENDIARY, -1)
                    if side[me, SIDE.PROVISIONS + CHAOS_BALL] >= 1:
                        n = add_option_nb(options, n, FIRE, i, AMMO_CHAOS, -1)
        # g. attacks (not with a weapon that needs more than 6 after modifiers)
        bonus = np.int64(0)
        animal = pirate[p, PIRATE.ANIMAL]
        if animal >= 0:
            bonus += card_mod[animal, 0]
        own_item = pirate[p, PIRATE.ITEM]
        if own_item >= 0:
            bonus += card_mod[own_item, 0]
        if k0 != DISARMED and k1 != DISARMED:
            for w in range(2):
                if pirate_base[me, i, w] - bonus > 6:
                    continue
                # the enemies in the weapon's reach: its zone; from its own ship, the
                # enemy's ship too (REACH_SHIP); any zone (REACH_ANY)
                reach = pirate_base[me, i, 3 + w]
                near = 0  # bit j: enemy pirate j is in reach
                for j in range(2):
                    there = pirate[2 * enemy + j, PIRATE.ZONE]
                    if there >= 0 and (
                        there == zone
                        or reach == REACH_ANY
                        or (reach == REACH_SHIP and zone == me and there == enemy)
                    ):
                        near |= 1 << j
                for j in range(2):
                    if near & (1 << j):
                        n = add_option_nb(options, n, ATTACK, i, w, j)
                for j in range(2):
                    q = 2 * enemy + j
                    if near & (1 << j) and pirate[q, PIRATE.ANIMAL] >= 0:
                        n = add_option_nb(options, n, ATTACK, i, w, ATTACK_ANIMAL + j)
                for j in range(2):
                    q = 2 * enemy + j
                    item = pirate[q, PIRATE.ITEM]
                    if near & (1 << j) and item >= 0 and (card_flags[item] & TARGETABLE) != 0:
                        n = add_option_nb(options, n, ATTACK, i, w, ATTACK_ITEM + j)
        # h. visit again (not when it would change nothing)
        ashore = zone == ISLAND and pirate[p, PIRATE.ASHORE] != 0
        if ashore and (
            state[STATE.ISLAND_LEN] > 0
            or can_take_nb(side, pirate, start, pirate_base, card_mod, rules, p) > 0
        ):
            n = add_option_nb(options, n, VISIT, i, -1, -1)
        # i. activate
        if (
            own_item >= 0
            and (card_flags[own_item] & ACTIVABLE) != 0
            and offered_nb(side, pirate, me, gate, gate_len, own_item)
        ):
            n = add_targets_nb(pirate, me, choice_kind[own_item], zone, options, n, ACTIVATE, i, -1)
    # j. eat
    if side[me, SIDE.PROVISIONS + FOOD_PROVISION] >= 1 and not stripped:
        for p in range(2 * me, 2 * me + 2):
            if pirate[p, PIRATE.ZONE] >= 0 and pirate[p, PIRATE.LIFE] < MAX_LIFE:
                n = add_option_nb(options, n, EAT, -1, -1, p)
    # k. play
    length = side[me, SIDE.HAND_LEN]
    for k in range(length):
        card = hand[me, k]
        seen = False
        for j in range(k):
            if hand[me, j] == card:
                seen = True
                break
        if seen:
            continue
        kind = play_kind[card]
        if kind == TL_NEVER:
            continue
        ctype = card_type[card]
        if ctype == SPECIAL and side[me, SIDE.SPECIAL_USED] >= rules[RULE.SPECIALS_PER_TURN]:
            continue
        if ctype == LEGENDARY and (
            side[me, SIDE.LEGENDARY_USED] >= rules[RULE.LEGENDARIES_PER_GAME]
        ):
            continue
        if kind == TL_CURSED and side[me, SIDE.LOADED] >= 0:
            continue
        if not can_pay_nb(side, pirate, card_cost, me, card):
            continue
        if ctype != ITEM and not offered_nb(side, pirate, me, gate, gate_len, card):
            continue
        n = add_targets_nb(pirate, me, kind, -1, options, n, PLAY, -1, card)
    # l. end the turn
    return add_option_nb(options, n, END_TURN, -1, -1, -1)


# --- applying an option --------------------------------------------------------------------


# fire_nb, attack_nb and take_nb are compiled out of line: inlined in apply_option_nb
# with the calls they make (each passing the position, the content and the rest field
# by field), they made the game loop about 2.5 times slower (scripts/bench.py); so did
# fire_side_nb inlined in the game loop, even behind a test that skips its call.
@njit(cache=True, _nrt=False, error_model="numpy")
def fire_nb(pos, content, derived, rules, dice, p, ammo):
    side, pirate, state, seat_stat = pos[0], pos[1], pos[6], pos[7]
    turn = state[STATE.TURN]
    me = p // 2
    enemy = 1 - me
    pirate[p, PIRATE.ACTIONS] -= 1
    state[STATE.SHOTS] += 1
    if ammo == AMMO_CHAOS:
        side[me, SIDE.PROVISIONS + CHAOS_BALL] -= 1
        if side[enemy, SIDE.CHAOS_TURN] == turn + 1:
            side[enemy, SIDE.CHAOS_COUNT] += 1
        else:
            side[enemy, SIDE.CHAOS_TURN] = turn + 1
            side[enemy, SIDE.CHAOS_COUNT] = 1
        seat_stat[me, SEAT_STAT.CHAOS_SHOTS] += 1
        return
    cursed = np.int64(-1)
    if ammo == AMMO_CANNONBALL:
        side[me, SIDE.PROVISIONS + CANNONBALL] -= 1
    elif ammo == AMMO_INCENDIARY:
        side[me, SIDE.PROVISIONS + INCENDIARY_BALL] -= 1
    else:
        cursed = side[me, SIDE.LOADED]
        side[me, SIDE.LOADED] = -1
    seat_stat[me, SEAT_STAT.SHOTS] += 1
    roll = d6_nb(dice)
    if has_status_nb(pirate, p, DRUNK):
        roll = 7 - roll
    if side[me, SIDE.ANCHOR] >= 0:
        roll -= rules[RULE.ANCHOR_PENALTY]
    roll -= chaos_penalty_nb(side, me, turn, rules)
    roll += mod_sum_nb(content, pirate, p, CANNON_ROLL)
    for m in range(side[me, SIDE.MODS_LEN]):
        roll += side[me, SIDE.MODS + 2 * m]
    hit = roll >= rules[RULE.CANNON_HITS_ON]
    if hit:
        seat_stat[me, SEAT_STAT.HITS] += 1
        hole_nb(pos, rules, me, enemy)
        if state[STATE.OVER]:
            return
        if ammo == AMMO_INCENDIARY:
            a = 2 * enemy
            b = 2 * enemy + 1
            on_a = pirate[a, PIRATE.ZONE] == enemy
            on_b = pirate[b, PIRATE.ZONE] == enemy
            victim = np.int64(-1)
            if on_a and on_b:
                victim = a + dice_below_nb(dice, 2)
            elif on_a:
                victim = a
            elif on_b:
                victim = b
            if victim >= 0:
                apply_status_nb(pirate, victim, np.int64(BURN), np.int64(0), turn)
    if cursed >= 0:  # the shot's effect, hit or not; rows on = "hit" only on a hit
        apply_program_nb(
            pos,
            content,
            derived,
            rules,
            dice,
            me,
            content[4][cursed],
            content[5][cursed],
            -1,
            -1,
            0,
            -1,
            np.int64(1 if hit else 0),
        )
        if state[STATE.OVER]:
            return
        to_discard_nb(pos, content, me, cursed)


@njit(cache=True, _nrt=False, error_model="numpy")
def attack_nb(pos, content, derived, rules, dice, p, weapon, target):
    pirate, seat_stat = pos[1], pos[7]
    me = p // 2
    enemy = 1 - me
    weapons = content[13]
    pirate[p, PIRATE.ACTIONS] -= 1
    seat_stat[me, SEAT_STAT.ATTACKS] += 1
    roll = d6_nb(dice)
    if has_status_nb(pirate, p, DRUNK):
        roll = 7 - roll
    roll += mod_sum_nb(content, pirate, p, ATTACK_ROLL)
    if roll < weapons[me, p % 2, weapon, WEAPON.HITS_ON]:
        return
    seat_stat[me, SEAT_STAT.ATTACK_HITS] += 1
    q = 2 * enemy + target % 2
    if target < ATTACK_ANIMAL:
        # the damage, the weapon's effects, p's hits abilities, q's hit abilities if it lives
        damage = weapons[me, p % 2, weapon, WEAPON.DAMAGE]
        damage += mod_sum_nb(content, pirate, p, WEAPON_DAMAGE)
        damage_nb(pos, q, max(damage, 0))
        length = content[27][me, p % 2, weapon]
        if length > 0:
            apply_program_nb(
                pos,
                content,
                derived,
                rules,
                dice,
                me,
                content[26][me, p % 2, weapon],
                length,
                -1,
                p,
                0,
                q,
                0,
            )
            if pos[6][STATE.OVER]:
                return
        fire_triggers_nb(pos, content, derived, rules, dice, p, ON_HITS, q)
        if pos[6][STATE.OVER]:
            return
        fire_triggers_nb(pos, content, derived, rules, dice, q, ON_HIT, p)  # if q lives
    elif target < ATTACK_ITEM:
        card = pirate[q, PIRATE.ANIMAL]
        pirate[q, PIRATE.ANIMAL] = -1
        to_discard_nb(pos, content, enemy, card)
    else:
        card = pirate[q, PIRATE.ITEM]
        pirate[q, PIRATE.ITEM] = -1
        to_discard_nb(pos, content, enemy, card)


@njit(cache=True, _nrt=False, error_model="numpy")
def island_cards_nb(pos, content, derived, rules, dice, me, visitor):
    """Every island card in play works for the visiting seat ``me``, in the order played
    (a card that clears the island ends the list); ``visitor`` is the visiting pirate (the
    target ``visitor``)."""
    island, state = pos[5], pos[6]
    k = 0
    while k < state[STATE.ISLAND_LEN]:
        card = island[k, 0]
        apply_program_nb(
            pos,
            content,
            derived,
            rules,
            dice,
            me,
            content[4][card],
            content[5][card],
            -1,
            visitor,
            0,
            -1,
            0,
        )
        if state[STATE.OVER]:
            return
        k += 1


@njit(cache=True, _nrt=False, error_model="numpy")
def visit_nb(pos, content, derived, rules, dice, p):
    """An island visit by pirate ``p`` (its action, if any, already spent): the player
    then takes back its provisions one at a time (TAKE options), and the island cards
    work for it after the last one (at once if there is none)."""
    side, pirate, state, seat_stat = pos[0], pos[1], pos[6], pos[7]
    me = p // 2
    seat_stat[me, SEAT_STAT.ISLAND_VISITS] += 1
    taking = can_take_nb(side, pirate, content[10], derived[3], derived[4], rules, p)
    state[STATE.TAKING] = taking
    if taking == 0:
        island_cards_nb(pos, content, derived, rules, dice, me, p)
    else:
        state[STATE.VISITOR] = p


@njit(cache=True, _nrt=False, error_model="numpy")
def take_nb(pos, content, derived, rules, dice, kind):
    """TAKE: one provision of ``kind`` back; the visit's last brings the island cards."""
    side, state, seat_stat = pos[0], pos[6], pos[7]
    me = (state[STATE.TURN] - 1) % 2
    if kind == FOOD_PROVISION:
        gain_food_nb(side, content[28], me, 1)  # the kind furthest below its start
    else:
        side[me, SIDE.PROVISIONS + kind] += 1
    seat_stat[me, SEAT_STAT.TAKEN_PLANKS + kind] += 1
    state[STATE.TAKING] -= 1
    if state[STATE.TAKING] == 0:
        visitor = state[STATE.VISITOR]
        state[STATE.VISITOR] = -1
        island_cards_nb(pos, content, derived, rules, dice, me, visitor)


@njit(inline="always", cache=True)
def play_card_nb(pos, content, derived, rules, dice, card, target):
    side, pirate, hand, island, state = pos[0], pos[1], pos[3], pos[5], pos[6]
    seat_stat, card_stat = pos[7], pos[8]
    me = (state[STATE.TURN] - 1) % 2
    for k in range(side[me, SIDE.HAND_LEN]):
        if hand[me, k] == card:
            hand_remove_nb(side, hand, me, k)
            break
    card_cost = content[19]
    named = 0  # the kinds of food it names first, then its other food from the most held
    for k in range(5):
        if k != FOOD_PROVISION:
            side[me, SIDE.PROVISIONS + k] -= card_cost[card, k]
        side[me, SIDE.FOOD_KINDS + k] -= card_cost[card, COST_FOOD_KINDS + k]
        named += card_cost[card, COST_FOOD_KINDS + k]
    side[me, SIDE.PROVISIONS + FOOD_PROVISION] -= named
    spend_food_nb(side, me, card_cost[card, FOOD_PROVISION] - named)
    if card_cost[card, COST_ACTION] != 0:
        for p in range(2 * me, 2 * me + 2):
            if pirate[p, PIRATE.ZONE] >= 0 and pirate[p, PIRATE.ACTIONS] >= 1:
                pirate[p, PIRATE.ACTIONS] -= 1
                break
    seat_stat[me, SEAT_STAT.CARDS_PLAYED] += 1
    row = derived[0][me, card]
    if row >= 0:
        card_stat[me, row, CARD_STAT.PLAYED] += 1
    ctype = content[0][card]
    if ctype == EVENT or ctype == SPECIAL or ctype == LEGENDARY or ctype == FOOD:
        if ctype == SPECIAL:
            side[me, SIDE.SPECIAL_USED] += 1
        elif ctype == LEGENDARY:
            side[me, SIDE.LEGENDARY_USED] += 1
        elif ctype == FOOD:
            heal_nb(pirate, target, 1)
            pirate[target, PIRATE.REGEN] = 1
        apply_program_nb(
            pos,
            content,
            derived,
            rules,
            dice,
            me,
            content[4][card],
            content[5][card],
            target,
            -1,
            0,
            -1,
            0,
        )
        if state[STATE.OVER]:
            return
        to_discard_nb(pos, content, me, card)
    elif ctype == ISLAND_CARD:
        n = state[STATE.ISLAND_LEN]
        island[n, 0] = card
        island[n, 1] = me
        state[STATE.ISLAND_LEN] = n + 1
    elif ctype == ANIMAL:
        pirate[target, PIRATE.ANIMAL] = card
    elif ctype == ITEM:
        pirate[target, PIRATE.ACTIONS] -= 1
        pirate[target, PIRATE.ITEM] = card
    elif ctype == CURSED_BALL:
        side[me, SIDE.LOADED] = card


@njit(inline="always", cache=True)
def move_nb(side, pirate, seat_stat, me, who, zone):
    """MOVE_TO: pirate ``who`` of the player ``me`` moves; one action unless it is a free
    boarding; a boarding is counted either way."""
    p = 2 * me + who
    enemy = 1 - me
    boarding = pirate[p, PIRATE.ZONE] == me and zone == enemy
    free = boarding and (side[enemy, SIDE.ANCHOR] >= 0 or side[enemy, SIDE.MAST] >= 0)
    if not free:
        pirate[p, PIRATE.ACTIONS] -= 1
    pirate[p, PIRATE.ZONE] = zone
    pirate[p, PIRATE.ASHORE] = 0
    if boarding:
        seat_stat[me, SEAT_STAT.BOARDINGS] += 1


@njit(cache=True, _nrt=False, error_model="numpy")
def apply_option_nb(pos, content, derived, rules, dice, kind, who, what, target):
    """Apply the player's option ``(kind, who, what, target)`` (assumed legal)."""
    side, pirate, state, seat_stat = pos[0], pos[1], pos[6], pos[7]
    me = (state[STATE.TURN] - 1) % 2
    if kind == END_TURN:
        return
    if kind == PLAY:
        play_card_nb(pos, content, derived, rules, dice, what, target)
        return
    if kind == EAT:
        spend_food_nb(side, me, 1)
        heal_nb(pirate, target, 1)
        return
    if kind == TAKE:
        take_nb(pos, content, derived, rules, dice, what)
        return
    p = 2 * me + who
    if kind == MOVE_TO:
        boarding = pirate[p, PIRATE.ZONE] == me and what == 1 - me
        move_nb(side, pirate, seat_stat, me, who, what)
        if what == ISLAND:  # moving onto the island is itself a visit
            visit_nb(pos, content, derived, rules, dice, p)
        elif boarding:  # the enemy's abilities on being boarded
            fire_side_nb(pos, content, derived, rules, dice, 1 - me, np.int64(ON_BOARDED), p)
    elif kind == BAIL_WATER:
        pirate[p, PIRATE.ACTIONS] -= 1
        bail = rules[RULE.BAIL] + mod_sum_nb(content, pirate, p, BAIL)
        removed = max(0, min(side[me, SIDE.WATER], bail))
        side[me, SIDE.WATER] -= removed
        seat_stat[me, SEAT_STAT.WATER_BAILED] += removed
    elif kind == REPAIR_HOLE:
        pirate[p, PIRATE.ACTIONS] -= 1
        side[me, SIDE.PROVISIONS + PLANK] -= 1
        side[me, SIDE.HOLES] -= 1
        side[me, SIDE.INTACT] += 1
        seat_stat[me, SEAT_STAT.HOLES_REPAIRED] += 1
    elif kind == REPAIR_MAST:
        pirate[p, PIRATE.ACTIONS] -= 1
        side[me, SIDE.PROVISIONS + PLANK] -= 1
        side[me, SIDE.MAST] = -1
    elif kind == RAISE_ANCHOR:
        pirate[p, PIRATE.ACTIONS] -= 1
        side[me, SIDE.ANCHOR] = -1
    elif kind == FIRE:
        fire_nb(pos, content, derived, rules, dice, p, what)
    elif kind == ATTACK:
        attack_nb(pos, content, derived, rules, dice, p, what, target)
    elif kind == VISIT:
        pirate[p, PIRATE.ACTIONS] -= 1
        visit_nb(pos, content, derived, rules, dice, p)
    elif kind == ACTIVATE:
        pirate[p, PIRATE.ACTIONS] -= 1
        item = pirate[p, PIRATE.ITEM]
        apply_program_nb(
            pos,
            content,
            derived,
            rules,
            dice,
            me,
            content[4][item],
            content[5][item],
            target,
            p,
            0,
            -1,
            0,
        )
        if state[STATE.OVER]:
            return
        if (content[2][item] & REUSABLE) == 0:
            pirate[p, PIRATE.ITEM] = -1
            to_discard_nb(pos, content, me, item)


# --- set-up --------------------------------------------------------------------------------


@njit(cache=True)
def derive_nb(content):
    """``(row_of (2, K), play_kind (K,), choice_kind (K,), pirate_base (2, 2, 5), card_mod
    (K, 2), gate (K, MAX_EFFECTS, 2), gate_len (K,))`` for ``content`` (allocates; see the
    module's docstring)."""
    card_type, card_choice, program, program_len = content[0], content[3], content[4], content[5]
    deck_cards = content[9]
    cards = card_type.shape[0]
    row_of = np.full((2, cards), -1, dtype=np.int64)
    for s in range(2):
        for r in range(DECK_SIZE):
            card = deck_cards[s, r]
            if card >= 0:
                row_of[s, card] = r
    play_kind = np.zeros(cards, dtype=np.int64)
    choice_kind = np.zeros(cards, dtype=np.int64)
    for c in range(cards):
        choice = card_choice[c]
        kind = TL_NONE
        if choice == OWN_PIRATE:
            kind = TL_OWN_LIVING
            for r in range(program_len[c]):
                if (
                    program[c, r, EFFECT.OP] == REVIVE
                    and program[c, r, EFFECT.TARGET] == OWN_PIRATE
                ):
                    kind = TL_OWN_DEAD
        elif choice == OWN_PIRATE_HERE:
            kind = TL_OWN_HERE
        elif choice == ENEMY_PIRATE:
            kind = TL_ENEMY_LIVING
        elif choice == ENEMY_PIRATE_HERE:
            kind = TL_ENEMY_HERE
        choice_kind[c] = kind
        ctype = card_type[c]
        if ctype == ANIMAL:
            play_kind[c] = TL_ANIMAL
        elif ctype == ITEM:
            play_kind[c] = TL_ITEM
        elif ctype == FOOD:
            play_kind[c] = TL_FOOD
        elif ctype == CURSED_BALL:
            play_kind[c] = TL_CURSED
        elif ctype == ISLAND_CARD:
            play_kind[c] = TL_NONE
        elif ctype == EVENT or ctype == SPECIAL or ctype == LEGENDARY:
            play_kind[c] = kind
        else:  # BLANK, SHIP
            play_kind[c] = TL_NEVER
    mods, mods_len = content[6], content[7]
    card_mod = np.zeros((cards, 2), dtype=np.int64)
    for c in range(cards):
        for m in range(mods_len[c]):
            if mods[c, m, 0] == ATTACK_ROLL:
                card_mod[c, 0] += mods[c, m, 1]
            elif mods[c, m, 0] == ISLAND_TAKE:
                card_mod[c, 1] += mods[c, m, 1]
    pirate_mods, pirate_mods_len = content[11], content[12]
    weapons, ship_mods, ship_mods_len = content[13], content[14], content[15]
    pirate_base = np.zeros((2, 2, 5), dtype=np.int64)
    for s in range(2):
        attack = 0
        take = 0
        for m in range(ship_mods_len[s]):
            if ship_mods[s, m, 0] == ATTACK_ROLL:
                attack += ship_mods[s, m, 1]
            elif ship_mods[s, m, 0] == ISLAND_TAKE:
                take += ship_mods[s, m, 1]
        for i in range(2):
            own_attack = attack
            own_take = take
            for m in range(pirate_mods_len[s, i]):
                if pirate_mods[s, i, m, 0] == ATTACK_ROLL:
                    own_attack += pirate_mods[s, i, m, 1]
                elif pirate_mods[s, i, m, 0] == ISLAND_TAKE:
                    own_take += pirate_mods[s, i, m, 1]
            for w in range(2):
                pirate_base[s, i, w] = weapons[s, i, w, WEAPON.HITS_ON] - own_attack
                pirate_base[s, i, 3 + w] = weapons[s, i, w, WEAPON.REACH]
            pirate_base[s, i, 2] = own_take
    # the gate: an event, special or legendary card (an item's activation) every one of
    # whose effects has an ``if`` is offered only while one of those conditions holds
    gate = np.zeros((cards, MAX_EFFECTS, 2), dtype=np.int64)
    gate_len = np.zeros(cards, dtype=np.int64)
    for c in range(cards):
        ctype = card_type[c]
        if ctype != EVENT and ctype != SPECIAL and ctype != LEGENDARY and ctype != ITEM:
            continue
        n = program_len[c]
        gated = n > 0
        for r in range(n):
            if program[c, r, EFFECT.IF] == NO_CONDITION:
                gated = False
        if gated:
            for r in range(n):
                gate[c, r, 0] = program[c, r, EFFECT.IF]
                gate[c, r, 1] = program[c, r, EFFECT.IF_VALUE]
            gate_len[c] = n
    return row_of, play_kind, choice_kind, pirate_base, card_mod, gate, gate_len


@njit(cache=True, _nrt=False, error_model="numpy")
def set_up_nb(pos, content, derived, rules, rng):
    """The position of a new game: ``rng`` uint64 ``(N_STREAMS, 4)`` are the game's
    streams, already seeded (streams 0 and 1 shuffle the decks)."""
    side, pirate, deck, hand, discard, island, state, seat_stat, card_stat = pos
    for s in range(2):
        for k in range(SIDE.SIZE):
            side[s, k] = 0
        side[s, SIDE.INTACT] = rules[RULE.HOLE_TOKENS]
        side[s, SIDE.ANCHOR] = -1
        side[s, SIDE.MAST] = -1
        side[s, SIDE.LOADED] = -1
        for k in range(5):
            side[s, SIDE.PROVISIONS + k] = content[10][s, k]
            side[s, SIDE.FOOD_KINDS + k] = content[28][s, k]
        for k in range(DECK_SIZE):
            deck[s, k] = content[8][s, k]
        for k in range(MAX_HAND):
            hand[s, k] = -1
            discard[s, k] = -1
        for k in range(SEAT_STAT.SIZE):
            seat_stat[s, k] = 0
        for r in range(DECK_SIZE):
            for k in range(CARD_STAT.SIZE):
                card_stat[s, r, k] = 0
    for s in range(2):
        stream = rng[s]
        for i in range(DECK_SIZE - 1, 0, -1):
            j = below_nb(stream, i + 1)
            card = deck[s, i]
            deck[s, i] = deck[s, j]
            deck[s, j] = card
    for p in range(4):
        for k in range(PIRATE.SIZE):
            pirate[p, k] = 0
        pirate[p, PIRATE.LIFE] = MAX_LIFE
        pirate[p, PIRATE.ZONE] = p // 2
        pirate[p, PIRATE.ANIMAL] = -1
        pirate[p, PIRATE.ITEM] = -1
    for k in range(MAX_ISLAND):
        island[k, 0] = -1
        island[k, 1] = -1
    for k in range(STATE.SIZE):
        state[k] = 0
    state[STATE.TURN] = 1
    state[STATE.VISITOR] = -1
    state[STATE.WINNER] = -1
    state[STATE.REASON] = CAPPED
    for s in range(2):
        for _ in range(rules[RULE.STARTING_HAND]):
            draw_nb(pos, derived, s)


# --- strategies ----------------------------------------------------------------------------


#: The decision a seat's strategy makes, called by the seat's code: the dispatchers of the
#: shipped strategies (strategies/battle_of_thieves.py) and a run's own are bound here when
#: the loop is built (balance.core.dispatch.Dispatch). Index of the chosen option among
#: ``count >= 2``.
#: The view is the game's own, read-only to a strategy; it may advance its stream. The
#: game's code passes the view by address (:func:`hold_nb`), held once a game in its loop:
#: passed as a value, each call copied its some 360 words.
decide_nb = dispatch.Decision(
    "decide", "view, options, count, seat, params, rng", writable="rng", held="view"
)


@njit(inline="always", cache=True)
def scripted_decide(view, options, count, seat, params, rng):
    """The :data:`SCRIPTED` code's next answer (an index), -1 once the script has run out."""
    used = np.int64(params[0])
    if used >= np.int64(params[1]):
        return np.int64(-1)
    params[0] = used + 1
    return np.int64(params[2 + used])


@njit(cache=True, _nrt=False, error_model="numpy")
def fill_view_nb(pos, seat, deck_view, hand_view):
    """The hidden parts of the position as ``seat`` sees them: the enemy's hand (-1 for
    each card) and both decks (-1 for the cards drawn, the rest sorted by id)."""
    side, deck, hand = pos[0], pos[2], pos[3]
    for s in range(2):
        for k in range(MAX_HAND):
            hand_view[s, k] = hand[s, k] if s == seat else -1
        deck_row_view_nb(deck[s], side[s, SIDE.DECK_POS], deck_view[s])


@njit(inline="always", cache=True)
def deck_row_view_nb(deck, top, row):
    """``row`` as a player sees ``deck`` whose top is ``top``: -1 for each card drawn,
    then the cards still to draw sorted by id (their order is hidden)."""
    for k in range(DECK_SIZE):
        row[k] = -1 if k < top else deck[k]
    for k in range(top + 1, DECK_SIZE):  # insertion sort of the cards still to draw
        card = row[k]
        j = k - 1
        while j >= top and row[j] > card:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = card


@njit(cache=True, _nrt=False, error_model="numpy")
def refresh_view_nb(pos, seat, deck_view, hand_view):
    """:func:`fill_view_nb`, sorting again only the deck rows whose draws have moved on.

    Within one game a deck's order never changes after the set-up; only its top
    (``SIDE.DECK_POS``) moves. A row filled for top ``t`` holds exactly ``t`` leading -1s
    and card ids (0 or more: a deck holds ``DECK_SIZE`` cards) after them, so it is kept
    while that still matches the deck's top; any other row (one filled for another top,
    or marked stale by :func:`forget_view_nb`) is filled again. The caller must mark the
    rows stale whenever the position is replaced by another (a new game) or the rows may
    have been written by anyone else.
    """
    side, deck, hand = pos[0], pos[2], pos[3]
    for s in range(2):
        for k in range(MAX_HAND):
            hand_view[s, k] = hand[s, k] if s == seat else -1
        top = side[s, SIDE.DECK_POS]
        if (top == 0 or deck_view[s, top - 1] == -1) and (
            top >= DECK_SIZE or deck_view[s, top] >= 0
        ):
            continue  # filled for this very top
        deck_row_view_nb(deck[s], top, deck_view[s])


@njit(inline="always", cache=True)
def forget_view_nb(deck_view):
    """Mark both deck rows of a view stale (-2 fills no real row): the next
    :func:`refresh_view_nb` fills them again."""
    for s in range(2):
        for k in range(DECK_SIZE):
            deck_view[s, k] = -2


@njit(inline="always", cache=True)
def sees_view_nb(code):
    """Whether the strategy of ``code`` reads the view: all but the uniform-random player
    and a scenario's script."""
    return code != 0 and code != SCRIPTED


@njit(inline="always", cache=True)
def ask_nb(pos, content, rules, views, options, count, seat, players, error):
    """The index ``seat``'s strategy chooses among ``count >= 2`` options; an answer
    outside ``0..count-1`` fills ``error`` (the caller must then stop)."""
    codes, params, rng = players
    code = codes[seat]
    if sees_view_nb(code):
        fill_view_nb(pos, seat, views[0], views[1])
    view = (pos[0], pos[1], views[0], views[1], pos[4], pos[5], pos[6], rules, content)
    held = hold_nb(view)
    k = decide_nb(code, held, options, np.int64(count), np.int64(seat), params[seat], rng[seat])
    return checked_nb(k, count, seat, error)


@njit(inline="always", cache=True)
def ask_in_game_nb(pos, held, views, options, count, seat, players, error):
    """:func:`ask_nb` within :func:`play_game_nb`'s own loop, whose position stays the
    same game: a shipped heuristic's view is refreshed (:func:`refresh_view_nb`), not
    filled from scratch; after any other strategy that sees a view (a user's, which
    might write to it) the view is marked stale. The rows must be stale when the
    game's loop starts. ``held`` is the view's address, which the game's loop made."""
    codes, params, rng = players
    code = codes[seat]
    if code >= 1 and code <= HEURISTICS:
        refresh_view_nb(pos, seat, views[0], views[1])
    elif sees_view_nb(code):
        fill_view_nb(pos, seat, views[0], views[1])
    k = decide_nb(code, held, options, np.int64(count), np.int64(seat), params[seat], rng[seat])
    if code > HEURISTICS:
        forget_view_nb(views[0])
    return checked_nb(k, count, seat, error)


@njit(inline="always", cache=True)
def checked_nb(k, count, seat, error):
    """``k`` if it indexes one of ``count`` options; else 0, with ``error`` filled (the
    caller must then stop)."""
    if k < 0 or k >= count:
        error[Error.SEAT] = seat
        error[Error.VALUE] = k
        error[Error.COUNT] = count
        return np.int64(0)
    return k


# --- the game loop -------------------------------------------------------------------------


@njit(cache=True, _nrt=False, error_model="numpy")
def play_game_nb(pos, content, derived, rules, dice, players, views, options, error):
    """One whole game from the set-up position; False if a strategy answered outside its
    options (``error`` then says how)."""
    side, pirate, hand, state, seat_stat = pos[0], pos[1], pos[3], pos[6], pos[7]
    card_type, card_flags, start, card_cost = content[0], content[2], content[10], content[19]
    play_kind, choice_kind, pirate_base, card_mod = derived[1], derived[2], derived[3], derived[4]
    gate, gate_len = derived[5], derived[6]
    forget_view_nb(views[0])  # filled for another position, maybe
    # The view by address, made once a game (a copy at every decision cost the
    # heuristics a third of their speed); only for a seat that reads it (the copy cost
    # random play 3%). The dispatcher reads it back for random and scripted seats too,
    # unused: harmless here, where no references are counted (_nrt=False).
    codes = players[0]
    view = (pos[0], pos[1], views[0], views[1], pos[4], pos[5], pos[6], rules, content)
    held = hold_when_nb(view, sees_view_nb(codes[0]) or sees_view_nb(codes[1]))
    while not state[STATE.OVER]:
        start_turn_nb(pos, content, derived, rules, dice)
        if state[STATE.OVER]:
            break
        me = (state[STATE.TURN] - 1) % 2
        while True:
            count = options_nb(
                side,
                pirate,
                hand,
                state,
                card_type,
                card_flags,
                start,
                play_kind,
                choice_kind,
                pirate_base,
                card_mod,
                card_cost,
                gate,
                gate_len,
                rules,
                options,
            )
            k = np.int64(0)
            if count >= 2:
                k = ask_in_game_nb(pos, held, views, options, count, me, players, error)
                if error[Error.SEAT] >= 0:
                    return False
            kind = options[k, 0]
            if kind == END_TURN:  # nothing to apply
                end_turn_nb(pos, content, rules)
                break
            if kind == MOVE_TO and options[k, 2] != ISLAND:  # the commonest option, on the
                # few arrays it changes (moving onto the island is a visit: applied below)
                mover = 2 * me + options[k, 1]
                boarding = pirate[mover, PIRATE.ZONE] == me and options[k, 2] != me
                move_nb(side, pirate, seat_stat, me, options[k, 1], options[k, 2])
                if boarding:  # the enemy's abilities on being boarded
                    fire_side_nb(
                        pos, content, derived, rules, dice, 1 - me, np.int64(ON_BOARDED), mover
                    )
                    if state[STATE.OVER]:
                        break
                continue
            apply_option_nb(
                pos,
                content,
                derived,
                rules,
                dice,
                kind,
                options[k, 1],
                options[k, 2],
                options[k, 3],
            )
            if state[STATE.OVER]:
                break
    return True


@njit(inline="always", cache=True)
def write_records_nb(g, pos, games, seats, cards):
    """Game ``g``'s rows of the record arrays from the final position."""
    side, state, seat_stat, card_stat = pos[0], pos[6], pos[7], pos[8]
    winner = state[STATE.WINNER]
    games[g, GAME_STAT.TURNS] = state[STATE.TURN]
    games[g, GAME_STAT.FINISHED] = state[STATE.REASON] != CAPPED
    games[g, GAME_STAT.WINNER] = winner
    games[g, GAME_STAT.REASON] = state[STATE.REASON]
    games[g, GAME_STAT.WATER_0] = side[0, SIDE.WATER]
    games[g, GAME_STAT.WATER_1] = side[1, SIDE.WATER]
    for s in range(2):
        for k in range(SEAT_STAT.SIZE):
            seats[g, s, k] = seat_stat[s, k]
        seats[g, s, SEAT_STAT.WON] = winner == s
        seats[g, s, SEAT_STAT.FINAL_WATER] = side[s, SIDE.WATER]
        for r in range(DECK_SIZE):
            for k in range(CARD_STAT.SIZE):
                cards[g, s, r, k] = card_stat[s, r, k]


def new_position():
    """Zeroed arrays of a compiled position (``layout.Pos`` order)."""
    return (
        np.zeros((2, SIDE.SIZE), dtype=np.int64),
        np.zeros((4, PIRATE.SIZE), dtype=np.int64),
        np.zeros((2, DECK_SIZE), dtype=np.int64),
        np.full((2, MAX_HAND), -1, dtype=np.int64),
        np.full((2, MAX_HAND), -1, dtype=np.int64),
        np.full((MAX_ISLAND, 2), -1, dtype=np.int64),
        np.zeros(STATE.SIZE, dtype=np.int64),
        np.zeros((2, SEAT_STAT.SIZE), dtype=np.int64),
        np.zeros((2, DECK_SIZE, CARD_STAT.SIZE), dtype=np.int64),
    )


new_position_nb = njit(cache=True)(new_position)


@njit(cache=True, nogil=True)
def play_games_nb(
    rules, content, codes, params, seats_of, seed, first_game, games, seats, cards, error
):
    """Play games ``first_game .. first_game + G - 1`` of the run seeded ``seed``.

    Parameters
    ----------
    rules : int64 ``(RULE.SIZE,)``, packed rule parameters.
    content : :meth:`Content.arrays`.
    codes : int64 ``(K,)``, strategy code of each of the run's K strategies.
    params : float64 ``(K, P)``, their parameters (``P >= MAX_PARAMS``).
    seats_of : int64 ``(R, 2)``: in game ``i``, row ``i % R`` holds which strategy sits in
        each seat.
    games : int32 ``(G, GAME_STAT.SIZE)``, per-game record, written here.
    seats : int32 ``(G, 2, SEAT_STAT.SIZE)``, per seat, written here.
    cards : int32 ``(G, 2, DECK_SIZE, CARD_STAT.SIZE)``, per seat and deck card, written here.
    error : int64 ``(Error.SIZE,)``: ``SEAT`` stays -1 unless a strategy answered outside
        its options; then it names the game, seat, answer and option count, and play stops.

    Returns the number of games completed (``G`` unless a strategy erred).
    """
    pos = new_position_nb()
    derived = derive_nb(content)
    players = (
        np.zeros(2, dtype=np.int64),
        np.zeros((2, max(params.shape[1], MAX_PARAMS)), dtype=np.float64),
        np.zeros((2, 4), dtype=np.uint64),
    )
    views = (
        np.zeros((2, DECK_SIZE), dtype=np.int64),
        np.zeros((2, MAX_HAND), dtype=np.int64),
    )
    rng = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    dice = (rng[DICE_STREAM], np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64))
    options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
    return _play_nb(
        rules,
        content,
        derived,
        codes,
        params,
        seats_of,
        seed,
        first_game,
        pos,
        players,
        views,
        rng,
        dice,
        options,
        games,
        seats,
        cards,
        error,
    )


@njit(cache=True, nogil=True, _nrt=False, error_model="numpy")
def _play_nb(
    rules,
    content,
    derived,
    codes,
    params,
    seats_of,
    seed,
    first_game,
    pos,
    players,
    views,
    rng,
    dice,
    options,
    games,
    seats,
    cards,
    error,
):
    """The game loop of :func:`play_games_nb`, over the buffers it made.

    Compiled without numba's runtime: nothing here (or in a shipped strategy it calls)
    may allocate an array.
    """
    seat_codes, seat_params, seat_rng = players
    error[:] = -1
    for g in range(games.shape[0]):
        game = first_game + g
        seat_lineup_nb(game, codes, params, seats_of, 2, seat_codes, seat_params)
        for stream in range(N_STREAMS):
            seed_stream_nb(rng[stream], seed, game, stream)
        for s in range(2):
            for k in range(4):
                seat_rng[s, k] = rng[STRATEGY_STREAM + s, k]
        set_up_nb(pos, content, derived, rules, rng)
        if not play_game_nb(pos, content, derived, rules, dice, players, views, options, error):
            error[Error.GAME] = game
            return g
        write_records_nb(g, pos, games, seats, cards)
    return games.shape[0]
