"""Between the reference engine's readable positions and the compiled engine's arrays.

:func:`pack_position` turns a reference :class:`~.reference.Position` into the compiled
position tuple (``layout.Pos``), :func:`unpack_position` reads one back. :data:`COMPILED`
plays the single steps of the compiled engine on reference positions, with the same
functions as the reference module (``set_up``, ``start_turn``, ``legal_options``,
``apply_option``, ``end_turn``, ``apply_program``), so that scenario tests run on both
engines. :func:`compiled_player` lets the reference engine play a compiled strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from balance.core.engine import CompiledStrategy as SeatCompiledStrategy
from balance.core.random_ref import Stream
from balance.core.strategy import SeatStrategy
from balance.games.battle_of_thieves import engine_nb as nb
from balance.games.battle_of_thieves.content import Content
from balance.games.battle_of_thieves.layout import (
    DECK_SIZE,
    EFFECT,
    FOOD_KINDS,
    MAX_CANNON_MODS,
    MAX_HAND,
    MAX_ISLAND,
    MAX_OPTIONS,
    PIRATE,
    PIRATES,
    PLAYERS,
    PROVISIONS,
    SIDE,
    STATE,
    STATUS_SLOTS,
)
from balance.games.battle_of_thieves.reference import (
    Dice,
    IllegalChoice,
    Option,
    Pirate,
    Position,
    ScriptError,
    Side,
)
from balance.games.battle_of_thieves.rules import BattleRules

#: The compiled position: side, pirate, deck, hand, discard, island, state, seat_stat,
#: card_stat (``layout.Pos`` order).
Arrays = tuple[np.ndarray, ...]


def pack_position(pos: Position) -> Arrays:
    """The compiled engine's position arrays for ``pos`` (see :mod:`.engine_nb`)."""
    side, pirate, deck, hand, discard, island, state, seat_stat, card_stat = nb.new_position()
    for s, sd in enumerate(pos.sides):
        row = side[s]
        row[SIDE.WATER] = sd.water
        row[SIDE.INTACT] = sd.intact
        row[SIDE.HOLES] = sd.holes
        row[SIDE.ANCHOR] = sd.anchor
        row[SIDE.MAST] = sd.mast
        row[SIDE.PACIFIED] = sd.pacified
        row[SIDE.STRIPPED] = sd.stripped
        row[SIDE.CHAOS_TURN] = sd.chaos_turn
        row[SIDE.CHAOS_COUNT] = sd.chaos_count
        row[SIDE.LOADED] = sd.loaded
        row[SIDE.SPECIAL_USED] = sd.special_used
        row[SIDE.LEGENDARY_USED] = sd.legendary_used
        row[SIDE.SINS] = sd.sins
        row[SIDE.TRIGGERED] = int(sd.triggered)
        row[SIDE.PROVISIONS : SIDE.PROVISIONS + len(PROVISIONS)] = sd.provisions
        row[SIDE.FOOD_KINDS : SIDE.FOOD_KINDS + len(FOOD_KINDS)] = sd.food_kinds
        if len(sd.cannon_mods) > MAX_CANNON_MODS:
            raise ValueError(f"seat {s} has more than {MAX_CANNON_MODS} cannon modifiers")
        row[SIDE.MODS_LEN] = len(sd.cannon_mods)
        for m, (amount, turns) in enumerate(sd.cannon_mods):
            row[SIDE.MODS + 2 * m] = amount
            row[SIDE.MODS + 2 * m + 1] = turns
        if len(sd.deck) != DECK_SIZE:
            raise ValueError(f"seat {s}'s deck has {len(sd.deck)} cards, not {DECK_SIZE}")
        deck[s] = sd.deck
        row[SIDE.DECK_POS] = sd.deck_pos
        for name, pile, array in (("hand", sd.hand, hand), ("discard", sd.discard, discard)):
            if len(pile) > MAX_HAND:
                raise ValueError(f"seat {s}'s {name} holds more than {MAX_HAND} cards")
            array[s, : len(pile)] = pile
        row[SIDE.HAND_LEN] = len(sd.hand)
        row[SIDE.DISCARD_LEN] = len(sd.discard)
        for i, pr in enumerate(sd.pirates):
            r = pirate[s * PIRATES + i]
            r[PIRATE.LIFE] = pr.life
            r[PIRATE.ZONE] = pr.zone
            r[PIRATE.MARKERS] = pr.markers
            r[PIRATE.ACTIONS] = pr.actions
            for k, (kind, value) in enumerate(pr.statuses):
                r[PIRATE.STATUS + 2 * k] = kind
                r[PIRATE.STATUS + 2 * k + 1] = value
            r[PIRATE.ANIMAL] = pr.animal
            r[PIRATE.ITEM] = pr.item
            r[PIRATE.REGEN] = int(pr.regen)
            r[PIRATE.ASHORE] = int(pr.ashore)
    if len(pos.island) > MAX_ISLAND:
        raise ValueError(f"more than {MAX_ISLAND} island cards in play")
    for k, (card, owner) in enumerate(pos.island):
        island[k] = (card, owner)
    state[STATE.TURN] = pos.turn
    state[STATE.SHOTS] = pos.shots
    state[STATE.TAKING] = pos.taking
    state[STATE.VISITOR] = pos.visitor
    state[STATE.ISLAND_LEN] = len(pos.island)
    state[STATE.OVER] = int(pos.over)
    state[STATE.WINNER] = pos.winner
    state[STATE.REASON] = pos.reason
    seat_stat[:] = pos.seat_stats
    card_stat[:] = pos.card_stats
    return side, pirate, deck, hand, discard, island, state, seat_stat, card_stat


def _ints(values: Any) -> list[int]:
    return [int(v) for v in values]


def write_position(pos: Position, arrays: Arrays) -> Position:
    """Overwrite ``pos`` (in place) with the compiled position ``arrays``; returns it."""
    side, pirate, deck, hand, discard, island, state, seat_stat, card_stat = arrays
    sides = []
    for s in range(PLAYERS):
        row = side[s]
        n_mods = int(row[SIDE.MODS_LEN])
        pirates = []
        for i in range(PIRATES):
            r = pirate[s * PIRATES + i]
            pirates.append(
                Pirate(
                    life=int(r[PIRATE.LIFE]),
                    zone=int(r[PIRATE.ZONE]),
                    markers=int(r[PIRATE.MARKERS]),
                    actions=int(r[PIRATE.ACTIONS]),
                    statuses=[
                        [int(r[PIRATE.STATUS + 2 * k]), int(r[PIRATE.STATUS + 2 * k + 1])]
                        for k in range(STATUS_SLOTS)
                    ],
                    animal=int(r[PIRATE.ANIMAL]),
                    item=int(r[PIRATE.ITEM]),
                    regen=bool(r[PIRATE.REGEN]),
                    ashore=bool(r[PIRATE.ASHORE]),
                )
            )
        sides.append(
            Side(
                water=int(row[SIDE.WATER]),
                intact=int(row[SIDE.INTACT]),
                holes=int(row[SIDE.HOLES]),
                anchor=int(row[SIDE.ANCHOR]),
                mast=int(row[SIDE.MAST]),
                pacified=int(row[SIDE.PACIFIED]),
                stripped=int(row[SIDE.STRIPPED]),
                chaos_turn=int(row[SIDE.CHAOS_TURN]),
                chaos_count=int(row[SIDE.CHAOS_COUNT]),
                cannon_mods=[
                    [int(row[SIDE.MODS + 2 * m]), int(row[SIDE.MODS + 2 * m + 1])]
                    for m in range(n_mods)
                ],
                loaded=int(row[SIDE.LOADED]),
                special_used=int(row[SIDE.SPECIAL_USED]),
                legendary_used=int(row[SIDE.LEGENDARY_USED]),
                sins=int(row[SIDE.SINS]),
                triggered=bool(row[SIDE.TRIGGERED]),
                provisions=_ints(row[SIDE.PROVISIONS : SIDE.PROVISIONS + len(PROVISIONS)]),
                food_kinds=_ints(row[SIDE.FOOD_KINDS : SIDE.FOOD_KINDS + len(FOOD_KINDS)]),
                deck=_ints(deck[s]),
                deck_pos=int(row[SIDE.DECK_POS]),
                hand=_ints(hand[s, : row[SIDE.HAND_LEN]]),
                discard=_ints(discard[s, : row[SIDE.DISCARD_LEN]]),
                pirates=pirates,
            )
        )
    pos.sides = sides
    pos.turn = int(state[STATE.TURN])
    pos.shots = int(state[STATE.SHOTS])
    pos.taking = int(state[STATE.TAKING])
    pos.visitor = int(state[STATE.VISITOR])
    pos.island = [(int(c), int(o)) for c, o in island[: state[STATE.ISLAND_LEN]]]
    pos.over = bool(state[STATE.OVER])
    pos.winner = int(state[STATE.WINNER])
    pos.reason = int(state[STATE.REASON])
    pos.seat_stats = seat_stat.astype(int).tolist()
    pos.card_stats = card_stat.astype(int).tolist()
    return pos


def unpack_position(arrays: Arrays, like: Position) -> Position:
    """A new reference position holding the compiled position ``arrays``, with the rules
    and content of ``like``."""
    return write_position(Position(rules=like.rules, content=like.content), arrays)


# ---------------------------------------------------------------------------
# The compiled steps on reference positions
# ---------------------------------------------------------------------------


class _Packed:
    """The compiled arrays of a content and rules, made once per object."""

    def __init__(self) -> None:
        self._content: dict[int, tuple[Content, tuple, tuple]] = {}
        self._rules: dict[int, tuple[BattleRules, np.ndarray]] = {}

    def content(self, content: Content) -> tuple[tuple, tuple]:
        entry = self._content.get(id(content))
        if entry is None or entry[0] is not content:
            arrays = tuple(np.ascontiguousarray(a, dtype=np.int64) for a in content.arrays())
            entry = (content, arrays, nb.derive_nb(arrays))
            self._content[id(content)] = entry
        return entry[1], entry[2]

    def rules(self, rules: BattleRules) -> np.ndarray:
        entry = self._rules.get(id(rules))
        if entry is None or entry[0] is not rules:
            entry = (rules, rules.to_array())
            self._rules[id(rules)] = entry
        return entry[1]


class _DiceArrays:
    """A reference :class:`Dice` as the compiled engine's ``dice`` tuple, and back."""

    def __init__(self, dice: Dice | None) -> None:
        self.dice = dice
        rng = np.zeros(4, dtype=np.uint64)
        cursor = np.zeros(2, dtype=np.int64)
        if dice is None or dice.script is None:
            script = np.zeros(0, dtype=np.int64)
            if dice is not None and dice.stream is not None:
                rng[:] = dice.stream.state
        else:
            # A leading placeholder keeps the array non-empty (an empty array means "roll
            # the stream"), so that an empty script runs out as it should.
            script = np.array([0, *dice.script], dtype=np.int64)
            cursor[0] = 1 + dice.used
        self.arrays = (rng, script, cursor)

    def finish(self) -> None:
        """Bring the reference dice up to date; raise :class:`ScriptError` if the script
        ran out or held a result out of range."""
        rng, _, cursor = self.arrays
        dice = self.dice
        if dice is None:
            return
        if dice.script is None:
            if dice.stream is not None:
                dice.stream.state = [int(x) for x in rng]
            return
        dice.used = int(cursor[0]) - 1
        if cursor[1] == 1:
            raise ScriptError(
                f"the compiled engine rolled after {len(dice.script)} scripted results"
            )
        if cursor[1] == 2:
            raise ScriptError(
                f"scripted result {dice.script[dice.used]} does not fit what was rolled"
            )


class CompiledEngine:
    """The compiled engine's steps with the reference module's functions: each packs the
    reference position, runs the compiled step and writes the result back into the same
    position (and the dice's stream state or script position)."""

    def __init__(self) -> None:
        self._packed = _Packed()
        self._options = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)

    def _inputs(self, pos: Position) -> tuple[Arrays, tuple, tuple, np.ndarray]:
        content, derived = self._packed.content(pos.content)
        return pack_position(pos), content, derived, self._packed.rules(pos.rules)

    def set_up(self, rules: BattleRules, content: Content, seed: int, game: int) -> Position:
        arrays = nb.new_position()
        content_arrays, derived = self._packed.content(content)
        rng = np.zeros((nb.N_STREAMS, 4), dtype=np.uint64)
        for s in range(nb.N_STREAMS):
            rng[s] = Stream(seed, game, s).state
        nb.set_up_nb(arrays, content_arrays, derived, self._packed.rules(rules), rng)
        return write_position(Position(rules=rules, content=content), arrays)

    def start_turn(self, pos: Position, dice: Dice, narrate: Any = None) -> None:
        arrays, content, derived, rules = self._inputs(pos)
        rolled = _DiceArrays(dice)
        nb.start_turn_nb(arrays, content, derived, rules, rolled.arrays)
        rolled.finish()
        write_position(pos, arrays)

    def legal_options(self, pos: Position) -> list[Option]:
        arrays, content, derived, rules = self._inputs(pos)
        count = nb.legal_options_nb(arrays, content, derived, rules, self._options)
        return [tuple(int(v) for v in row) for row in self._options[:count]]  # type: ignore[misc]

    def apply_option(
        self, pos: Position, option: Sequence[int], dice: Dice, narrate: Any = None
    ) -> None:
        opt = tuple(int(v) for v in option)
        if pos.over or opt not in self.legal_options(pos):
            raise IllegalChoice(f"{opt} is not a legal option in turn {pos.turn}")
        arrays, content, derived, rules = self._inputs(pos)
        rolled = _DiceArrays(dice)
        nb.apply_option_nb(arrays, content, derived, rules, rolled.arrays, *opt)
        rolled.finish()
        write_position(pos, arrays)

    def end_turn(self, pos: Position, dice: Dice | None = None, narrate: Any = None) -> None:
        arrays, content, _, rules = self._inputs(pos)
        nb.end_turn_nb(arrays, content, rules)
        write_position(pos, arrays)

    def apply_program(
        self,
        pos: Position,
        seat: int,
        rows: Sequence[Sequence[int]],
        choice: int,
        holder: int,
        dice: Dice,
        narrate: Any = None,
        longer: int = 0,
        other: int = -1,
        hit: int = 0,
    ) -> None:
        program = np.zeros((max(len(rows), 1), EFFECT.SIZE), dtype=np.int64)
        for r, row in enumerate(rows):
            values = [int(v) for v in row[: EFFECT.SIZE]]
            program[r, : len(values)] = values
        arrays, content, derived, rules = self._inputs(pos)
        rolled = _DiceArrays(dice)
        nb.apply_program_nb(
            arrays,
            content,
            derived,
            rules,
            rolled.arrays,
            seat,
            program,
            len(rows),
            choice,
            holder,
            longer,
            other,
            hit,
        )
        rolled.finish()
        write_position(pos, arrays)


#: The compiled engine behind the reference module's step functions.
COMPILED = CompiledEngine()


# ---------------------------------------------------------------------------
# A compiled strategy in a reference game
# ---------------------------------------------------------------------------


class CompiledStrategy(SeatCompiledStrategy):
    """A compiled strategy seen from the reference engine: each decision shows the packed
    position as the seat sees it (``layout.View``)."""

    def __init__(self, seat: SeatStrategy, stream: Stream) -> None:
        super().__init__(seat, stream)
        self.code = seat.strategy.code
        self._packed = _Packed()
        self._deck_view = np.zeros((PLAYERS, DECK_SIZE), dtype=np.int64)
        self._hand_view = np.zeros((PLAYERS, MAX_HAND), dtype=np.int64)

    def choose(self, pos: Position, options: Sequence[Option]) -> int:
        content, _ = self._packed.content(pos.content)
        rules = self._packed.rules(pos.rules)
        arrays = pack_position(pos)
        seat = pos.player
        nb.fill_view_nb(arrays, seat, self._deck_view, self._hand_view)
        side, pirate, _, _, discard, island, state = arrays[:7]
        view = (side, pirate, self._deck_view, self._hand_view, discard, island, state)
        table = np.zeros((MAX_OPTIONS, 4), dtype=np.int64)
        table[: len(options)] = options
        if self.code in _search_codes():  # searches the whole position (search_nb)
            from balance.games.battle_of_thieves import engine, search_nb

            return int(
                self.call(
                    engine.DISPATCH.bound(search_nb).search_choice_nb,
                    *(self.code, arrays, content, rules, table, len(options), seat),
                    tail=(engine.rollout_params(),),
                )
            )
        decide = self.decisions["decide"]
        return int(self.call(decide, (*view, rules, content), table, len(options), seat))


def _search_codes() -> tuple[int, ...]:
    from balance.games.battle_of_thieves.search_nb import SEARCH_CODES

    return SEARCH_CODES


def compiled_player(chosen: SeatStrategy, stream: Stream) -> CompiledStrategy:
    """``make_player``'s compiled half for :func:`balance.core.game.player_factory`."""
    return CompiledStrategy(chosen, stream)
