"""Battle of Thieves' five kinds of food, on both engines (the ``engine`` fixture).

The reserve's food comes in the rulebook's kinds (banane, noix de coco, grenade, mangue,
ananas, ``FOOD_KINDS`` order), alike unless a card names one. The decisions
(``docs/battle-of-thieves.md``): food spent without a named kind (eating, a ``food`` cost,
``lose`` or ``steal`` of ``food``) is of the kind held most; food gained without a named
kind (an island visit's take-back, ``gain`` of ``food``) is of the kind furthest below its
starting count; ties go to the first kind in ``FOOD_KINDS`` order; a steal moves each food
as the kind it is. The test content starts with 4 food dealt one of each in turn:
1 banane, 1 noix de coco, 1 grenade, 1 mangue (``[1, 1, 1, 1, 0]``). Expected values are
worked out by hand from those decisions.
"""

from __future__ import annotations

from balance.strategies.battle_of_thieves import bailer, cannoneer

from balance.core.game import Lineup
from balance.core.strategy import SeatStrategy
from balance.games.battle_of_thieves import engine as compiled
from balance.games.battle_of_thieves.content import deal_food, make_content
from balance.games.battle_of_thieves.layout import (
    CARD_STAT,
    COST_ACTION,
    COST_FOOD_KINDS,
    COST_SIZE,
    DRAW,
    ENEMY,
    ENEMY_SHIP,
    EVENT,
    FOOD_KIND_ARG,
    FOOD_KINDS,
    FOOD_PROVISION,
    GAIN,
    HOLE,
    ISLAND_CARD,
    LOSE,
    OWN,
    PLAY,
    STEAL,
    WATER,
)

from .conftest import CARDS, DECK_0, DECK_1, PROVISIONS, RULES, build, card, pirate, ready
from .test_agreement import RICH_CARDS, RICH_DECKS, assert_agree, plays, walk_game
from .test_scenarios import END, ashore, do, eat, options, program, take, visit

BANANE, NOIX, GRENADE, MANGUE, ANANAS = range(len(FOOD_KINDS))


def kind(k: int) -> int:
    """A gain, lose or steal's ``provision`` naming food kind ``k``."""
    return FOOD_KIND_ARG + k


def set_food(pos, seat: int, kinds: list[int]) -> None:
    """Seat ``seat``'s reserve holds ``kinds`` food by kind (the food total follows)."""
    pos.sides[seat].food_kinds = list(kinds)
    pos.sides[seat].provisions[FOOD_PROVISION] = sum(kinds)


def food(pos, seat: int) -> tuple[int, list[int]]:
    side = pos.sides[seat]
    return side.provisions[FOOD_PROVISION], side.food_kinds


def test_the_starting_food_is_dealt_one_of_each_kind_in_turn(engine) -> None:
    assert deal_food(4) == (1, 1, 1, 1, 0)
    assert deal_food(7) == (2, 2, 1, 1, 1)
    pos = build(turn=3)
    assert food(pos, 0) == (4, [1, 1, 1, 1, 0])


def test_eating_spends_the_kind_held_most(engine) -> None:
    pos = build(turn=3)
    pirate(pos, 1).life = 1
    do(engine, pos, eat(1))  # four kinds held once each: the first, banane
    assert food(pos, 0) == (3, [0, 1, 1, 1, 0])
    set_food(pos, 0, [0, 1, 1, 3, 0])
    pirate(pos, 1).life = 1
    do(engine, pos, eat(1))
    assert food(pos, 0) == (4, [0, 1, 1, 2, 0])


def test_gaining_food_gives_the_kind_furthest_below_its_start(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].provisions = [10, 12, 0, 2, 2]
    set_food(pos, 0, [1, 0, 1, 0, 0])  # 28: room for 2
    program(engine, pos, 0, [(GAIN, OWN, 3, 0, FOOD_PROVISION)])
    # noix de coco and mangue are 1 below their start: noix de coco first, then mangue.
    assert food(pos, 0) == (4, [1, 1, 1, 1, 0])
    assert sum(pos.sides[0].provisions) == 30
    # None below its start: the least above it, ties to the first kind.
    pos.sides[0].provisions = [10, 12, 4, 0, 0]
    program(engine, pos, 0, [(GAIN, OWN, 2, 0, FOOD_PROVISION)])
    assert food(pos, 0) == (6, [2, 2, 1, 1, 0])


def test_a_named_kind_is_gained_lost_and_stolen_as_itself(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].provisions[1] = 11  # 29: room for 1
    program(engine, pos, 0, [(GAIN, OWN, 2, 0, kind(ANANAS))])
    assert food(pos, 0) == (5, [1, 1, 1, 1, 1])
    set_food(pos, 1, [0, 2, 0, 3, 1])
    program(engine, pos, 0, [(LOSE, ENEMY, 5, 0, kind(MANGUE))])
    assert food(pos, 1) == (3, [0, 2, 0, 0, 1])
    pos.sides[0].provisions[1] = 8  # 27: room for 3
    program(engine, pos, 0, [(STEAL, ENEMY, 3, 0, kind(NOIX))])  # only 2 to steal
    assert food(pos, 1) == (1, [0, 0, 0, 0, 1])
    assert food(pos, 0) == (7, [1, 3, 1, 1, 1])


def test_losing_food_loses_the_kinds_held_most(engine) -> None:
    pos = build(turn=3)
    set_food(pos, 1, [0, 2, 0, 3, 1])
    program(engine, pos, 0, [(LOSE, ENEMY, 3, 0, FOOD_PROVISION)])
    # mangue (3), then noix de coco and mangue tie at 2: noix de coco, then mangue (2).
    assert food(pos, 1) == (3, [0, 1, 0, 1, 1])


def test_stealing_food_moves_the_kinds_the_enemy_holds_most(engine) -> None:
    pos = build(turn=3)
    pos.sides[0].provisions = [10, 10, 4, 2, 2]  # 28: room for 2
    set_food(pos, 1, [0, 0, 3, 1, 2])
    program(engine, pos, 0, [(STEAL, ENEMY, 3, 0, FOOD_PROVISION)])
    # grenade (3), then grenade and ananas tie at 2: grenade again.
    assert food(pos, 1) == (4, [0, 0, 1, 1, 2])
    assert food(pos, 0) == (6, [1, 1, 3, 1, 0])


def test_an_island_visit_takes_back_the_kinds_below_their_start(engine) -> None:
    pos = ready(build(turn=3))
    ashore(pos, 0)
    pos.sides[0].provisions = [10, 12, 0, 2, 2]
    set_food(pos, 0, [1, 0, 1, 0, 0])  # noix de coco and mangue spent
    do(engine, pos, visit(0))
    assert options(engine, pos) == [take(FOOD_PROVISION)]  # the options are as ever
    do(engine, pos, take(FOOD_PROVISION))
    assert food(pos, 0) == (3, [1, 1, 1, 0, 0])
    do(engine, pos, take(FOOD_PROVISION))
    assert food(pos, 0) == (4, [1, 1, 1, 1, 0])


def feast_content():
    """The test content with "Mango Feast" (an event costing a mangue and one more food:
    10 water into the enemy ship) in the place of deck 0's "Rum"."""
    cost = [0] * COST_SIZE
    cost[FOOD_PROVISION] = 2  # all the food it costs
    cost[COST_FOOD_KINDS + MANGUE] = 1  # of which a mangue
    feast = {"name": "Mango Feast", "type": EVENT, "cost": cost}
    feast["program"] = [(WATER, ENEMY_SHIP, 10)]
    deck = ["Mango Feast" if name == "Rum" else name for name in DECK_0]
    return make_content([*CARDS, feast], [deck, DECK_1], provisions=PROVISIONS)


def test_a_cost_pays_its_named_kind_first_then_the_kind_held_most(engine) -> None:
    content = feast_content()
    assert content.card_cost[card("Mango Feast", content), COST_ACTION] == 0
    pos = ready(build(turn=3, content=content, hands=[["Mango Feast"], []]))
    feast = (PLAY, -1, card("Mango Feast", content), -1)
    assert feast in options(engine, pos)
    do(engine, pos, feast)
    # A mangue, then one food of the kind held most: banane (the first of three at 1).
    assert food(pos, 0) == (2, [0, 1, 1, 0, 0])
    assert pos.sides[1].water == 10


def test_a_card_naming_a_kind_is_not_offered_without_it(engine) -> None:
    content = feast_content()
    pos = ready(build(turn=3, content=content, hands=[["Mango Feast"], []]))
    set_food(pos, 0, [2, 1, 1, 0, 0])  # 4 food, no mangue
    feast = card("Mango Feast", content)
    assert all(option[2] != feast for option in options(engine, pos))
    assert options(engine, pos)[-1] == END


# --- both engines, game for game ----------------------------------------------------------

#: Cards that name kinds of food, and cards that gain, lose and steal food of no named kind.
FOOD_CARDS = [
    # a mangue and one more food: a hole in the enemy ship
    {
        "name": "Fruit Basket",
        "type": EVENT,
        "cost": (0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0),
        "program": [(HOLE, ENEMY_SHIP, 1)],
    },
    # an ananas: draw a card
    {
        "name": "Pineapple Tax",
        "type": EVENT,
        "cost": (0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1),
        "program": [(DRAW, OWN, 1)],
    },
    {
        "name": "Coconut Raid",
        "type": EVENT,
        "program": [(STEAL, ENEMY, 2, 0, kind(NOIX)), (LOSE, ENEMY, 1, 0, FOOD_PROVISION)],
    },
    {
        "name": "Food Thief",
        "type": EVENT,
        "program": [(STEAL, ENEMY, 2, 0, FOOD_PROVISION), (LOSE, ENEMY, 1, 0, kind(ANANAS))],
    },
    {
        "name": "Banana Boat",
        "type": ISLAND_CARD,
        "program": [(GAIN, OWN, 2, 0, FOOD_PROVISION), (GAIN, OWN, 1, 0, kind(BANANE))],
    },
]
_FOOD_IN = (
    {
        "Grog": "Fruit Basket",
        "Swept Overboard": "Coconut Raid",
        "Spyglass": "Banana Boat",
        "Rum Barrel": "Food Thief",
    },
    {
        "Hurricane": "Pineapple Tax",
        "Shore Leave": "Food Thief",
        "Whirlpool": "Fruit Basket",
        "Monkey": "Banana Boat",
    },
)
RICH_FOOD = make_content(
    [*RICH_CARDS, *FOOD_CARDS],
    [[_FOOD_IN[s].get(c, c) for c in deck] for s, deck in enumerate(RICH_DECKS)],
    provisions=((8, 10, 6, 3, 3), (12, 8, 6, 2, 2)),
    food_kinds=((0, 1, 0, 4, 1), (2, 0, 1, 2, 1)),
)


def test_engines_agree_with_food_kinds() -> None:
    records = assert_agree(RULES, RICH_FOOD, 9, games=60)
    played = plays(records, RICH_FOOD, (card["name"] for card in FOOD_CARDS))
    assert all(n > 0 for n in played.values()), played


def test_every_step_agrees_along_random_games_with_food_kinds() -> None:
    """Step by step, positions compared whole (the food by kind included)."""
    seen: dict[str, int] = {}
    for game in range(8):
        for option_kind, n in walk_game(RULES, RICH_FOOD, 41, game).items():
            seen[option_kind] = seen.get(option_kind, 0) + n
    assert {"eat food", "take provision", "play"} <= set(seen), seen


def test_the_heuristics_pay_the_kinds_a_card_names() -> None:
    """The shipped heuristics play the cards that cost a named kind (the engine offers
    them only while the kind is held) and every game ends in order."""
    seats = tuple(SeatStrategy(s, tuple(v for _, v in s.params)) for s in (cannoneer, bailer))
    played = compiled.play_games(RULES, 2, 5, 80, lineup=Lineup(seats), content=RICH_FOOD)
    names = [RICH_FOOD.deck_card_names(seat) for seat in range(2)]
    rows = {(s, names[s].index(n)) for s in range(2) for n in ("Fruit Basket",) if n in names[s]}
    total = sum(
        played.game_record(g).cards[s][row][CARD_STAT.PLAYED] for g in range(80) for s, row in rows
    )
    assert total > 0
