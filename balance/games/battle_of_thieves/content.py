"""The cards, pirates, weapons, ships and decks of one game, compiled into arrays.

:func:`balance.games.battle_of_thieves.cards.matchup_content` turns two decks into a
:class:`Content`; both engines read only this object. Card ``0`` is always the blank
card (restricted play puts it in the place of a card it takes out of a deck).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.games.battle_of_thieves.layout import (
    BLANK,
    CHOICE_NONE,
    CHOSEN_TARGETS,
    COST_SIZE,
    DECK_SIZE,
    EFFECT,
    MAX_EFFECTS,
    MAX_MODS,
    MAX_TRIGGERS,
    PIRATES,
    PLAYERS,
    WEAPON,
    WEAPONS,
)


@dataclass(frozen=True, eq=False)
class Content:
    """Two decks ready to play, seat 0's first.

    Cards (``K`` distinct cards over both decks, card 0 the blank card):

    names : tuple of K str.
    card_type : int64 ``(K,)``, a ``layout`` card type.
    card_sin : int64 ``(K,)``, index into ``layout.SINS`` or -1.
    card_flags : int64 ``(K,)``, ``ACTIVABLE | TARGETABLE | REUSABLE`` for items.
    card_choice : int64 ``(K,)``, the chosen-pirate target its program uses
        (``layout.CHOSEN_TARGETS``) or 0; ``REVIVE`` on ``OWN_PIRATE`` chooses among dead
        own pirates.
    program : int64 ``(K, MAX_EFFECTS, Effect.SIZE)`` and ``program_len`` ``(K,)``: the
        effects played (events, specials, legendaries, food), applied with the shot, hit
        or miss (cursed balls; rows ``on = "hit"`` only on a hit), at a visit (island
        cards) or at activation (items), in order.
    mods : int64 ``(K, MAX_MODS, 2)`` (stat, amount) and ``mods_len`` ``(K,)``: passive
        modifiers of animals and items for the pirate that holds them.
    card_cost : int64 ``(K, COST_SIZE)``: what playing the card costs, provisions by kind
        (the food slot holds all the food it costs, the kinds it names included), then 1
        for an action of one of the player's pirates (``layout.COST_ACTION``), then the
        food of each named kind (``layout.COST_FOOD_KINDS``, ``FOOD_KINDS`` order).
    card_trigger : int64 ``(K, MAX_TRIGGERS)``: the event of each triggered ability of an
        animal or item (``layout.ON_*``; 0 for none), ``card_trigger_program`` ``(K,
        MAX_TRIGGERS, MAX_EFFECTS, Effect.SIZE)`` and ``card_trigger_len`` ``(K,
        MAX_TRIGGERS)``: their programs, applied for the holder's owner.

    Seats (``s`` = 0, 1):

    deck : int64 ``(2, DECK_SIZE)``, card ids in the file's order (before shuffling).
    deck_cards : int64 ``(2, DECK_SIZE)``, the distinct card ids of each deck in the
        file's order, -1 padded: row ``r`` of the per-card records is card
        ``deck_cards[s, r]``.
    provisions : int64 ``(2, 5)``, the starting reserve in ``layout.PROVISIONS`` order.
    pirate_mods : int64 ``(2, PIRATES, MAX_MODS, 2)``, ``pirate_mods_len`` ``(2, PIRATES)``.
    weapons : int64 ``(2, PIRATES, WEAPONS, Weapon.SIZE)``: hits on, damage, reach
        (``layout.Weapon``).
    weapon_program : int64 ``(2, PIRATES, WEAPONS, MAX_EFFECTS, Effect.SIZE)`` and
        ``weapon_program_len`` ``(2, PIRATES, WEAPONS)``: each weapon's effects on a hit,
        applied for its holder's owner after the damage.
    food_kinds : int64 ``(2, 5)``: the starting reserve's food by kind
        (``layout.FOOD_KINDS`` order); sums to ``provisions[:, FOOD_PROVISION]``.
    ship_mods : int64 ``(2, MAX_MODS, 2)``, ``ship_mods_len`` ``(2,)``: for every own pirate.
    ship_trigger : int64 ``(2, 2)``: (``layout`` trigger, value).
    ship_program : int64 ``(2, MAX_EFFECTS, Effect.SIZE)``, ``ship_program_len`` ``(2,)``:
        applied once, the first time the trigger holds.
    pirate_trigger : int64 ``(2, PIRATES, MAX_TRIGGERS)``, ``pirate_trigger_program``
        ``(2, PIRATES, MAX_TRIGGERS, MAX_EFFECTS, Effect.SIZE)``, ``pirate_trigger_len``
        ``(2, PIRATES, MAX_TRIGGERS)``: the pirates' triggered abilities, as for cards.

    Names for reports: ``deck_names``, ``ship_names`` (2,), ``pirate_names`` (2, 2),
    ``weapon_names`` (2, 2, 2); ``sources`` the two files (or example names).
    """

    names: tuple[str, ...]
    card_type: np.ndarray
    card_sin: np.ndarray
    card_flags: np.ndarray
    card_choice: np.ndarray
    program: np.ndarray
    program_len: np.ndarray
    mods: np.ndarray
    mods_len: np.ndarray
    deck: np.ndarray
    deck_cards: np.ndarray
    provisions: np.ndarray
    pirate_mods: np.ndarray
    pirate_mods_len: np.ndarray
    weapons: np.ndarray
    ship_mods: np.ndarray
    ship_mods_len: np.ndarray
    ship_trigger: np.ndarray
    ship_program: np.ndarray
    ship_program_len: np.ndarray
    card_cost: np.ndarray
    card_trigger: np.ndarray
    card_trigger_program: np.ndarray
    card_trigger_len: np.ndarray
    pirate_trigger: np.ndarray
    pirate_trigger_program: np.ndarray
    pirate_trigger_len: np.ndarray
    weapon_program: np.ndarray
    weapon_program_len: np.ndarray
    food_kinds: np.ndarray
    deck_names: tuple[str, str]
    ship_names: tuple[str, str]
    pirate_names: tuple[tuple[str, str], tuple[str, str]]
    weapon_names: tuple[tuple[tuple[str, str], tuple[str, str]], ...]
    sources: tuple[str, str] = ("", "")

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the compiled engine takes, in :data:`ARRAY_FIELDS` order."""
        return tuple(getattr(self, name) for name in ARRAY_FIELDS)

    def digest(self) -> str:
        """SHA-256 of everything the engines read: the same digest plays the same games."""
        import hashlib

        hashed = hashlib.sha256("\x1f".join(self.names).encode())
        for array in self.arrays():
            hashed.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        return hashed.hexdigest()

    def is_mirror(self) -> bool:
        """Whether both seats play the very same deck (cards in order, provisions, crew,
        ship): a mirror match, whose per-card figures pool the two seats."""
        same = self.deck_names[0] == self.deck_names[1]
        for name in SEAT_FIELDS:
            array = getattr(self, name)
            same = same and np.array_equal(array[0], array[1])
        return bool(same)

    def card_id(self, name: str) -> int:
        return self.names.index(name)

    def deck_card_names(self, seat: int) -> list[str]:
        """The distinct cards of ``seat``'s deck, in the order of its per-card records."""
        return [self.names[c] for c in self.deck_cards[seat] if c >= 0]


ARRAY_FIELDS = (
    "card_type",
    "card_sin",
    "card_flags",
    "card_choice",
    "program",
    "program_len",
    "mods",
    "mods_len",
    "deck",
    "deck_cards",
    "provisions",
    "pirate_mods",
    "pirate_mods_len",
    "weapons",
    "ship_mods",
    "ship_mods_len",
    "ship_trigger",
    "ship_program",
    "ship_program_len",
    "card_cost",
    "card_trigger",
    "card_trigger_program",
    "card_trigger_len",
    "pirate_trigger",
    "pirate_trigger_program",
    "pirate_trigger_len",
    "weapon_program",
    "weapon_program_len",
    "food_kinds",
)
#: Index of each array in :meth:`Content.arrays` (the compiled engine's ``content`` tuple).
C = {name: k for k, name in enumerate(ARRAY_FIELDS)}


#: The arrays with one row a seat.
SEAT_FIELDS = (
    *ARRAY_FIELDS[ARRAY_FIELDS.index("deck") : ARRAY_FIELDS.index("card_cost")],
    "pirate_trigger",
    "pirate_trigger_program",
    "pirate_trigger_len",
    "weapon_program",
    "weapon_program_len",
    "food_kinds",
)


def empty_arrays(cards: int) -> dict[str, np.ndarray]:
    """Zeroed arrays for ``cards`` distinct cards (the blank card included), to fill in."""
    z = np.zeros
    out = {
        "card_type": z(cards, np.int64),
        "card_sin": np.full(cards, -1, np.int64),
        "card_flags": z(cards, np.int64),
        "card_choice": z(cards, np.int64),
        "program": z((cards, MAX_EFFECTS, EFFECT.SIZE), np.int64),
        "program_len": z(cards, np.int64),
        "mods": z((cards, MAX_MODS, 2), np.int64),
        "mods_len": z(cards, np.int64),
        "deck": z((PLAYERS, DECK_SIZE), np.int64),
        "deck_cards": np.full((PLAYERS, DECK_SIZE), -1, np.int64),
        "provisions": z((PLAYERS, 5), np.int64),
        "pirate_mods": z((PLAYERS, PIRATES, MAX_MODS, 2), np.int64),
        "pirate_mods_len": z((PLAYERS, PIRATES), np.int64),
        "weapons": z((PLAYERS, PIRATES, WEAPONS, WEAPON.SIZE), np.int64),
        "ship_mods": z((PLAYERS, MAX_MODS, 2), np.int64),
        "ship_mods_len": z(PLAYERS, np.int64),
        "ship_trigger": z((PLAYERS, 2), np.int64),
        "ship_program": z((PLAYERS, MAX_EFFECTS, EFFECT.SIZE), np.int64),
        "ship_program_len": z(PLAYERS, np.int64),
        "card_cost": z((cards, COST_SIZE), np.int64),
        "card_trigger": z((cards, MAX_TRIGGERS), np.int64),
        "card_trigger_program": z((cards, MAX_TRIGGERS, MAX_EFFECTS, EFFECT.SIZE), np.int64),
        "card_trigger_len": z((cards, MAX_TRIGGERS), np.int64),
        "pirate_trigger": z((PLAYERS, PIRATES, MAX_TRIGGERS), np.int64),
        "pirate_trigger_program": z(
            (PLAYERS, PIRATES, MAX_TRIGGERS, MAX_EFFECTS, EFFECT.SIZE), np.int64
        ),
        "pirate_trigger_len": z((PLAYERS, PIRATES, MAX_TRIGGERS), np.int64),
        "weapon_program": z((PLAYERS, PIRATES, WEAPONS, MAX_EFFECTS, EFFECT.SIZE), np.int64),
        "weapon_program_len": z((PLAYERS, PIRATES, WEAPONS), np.int64),
        "food_kinds": z((PLAYERS, 5), np.int64),
    }
    out["card_type"][0] = BLANK
    return out


def blanked(content: Content, seat: int, name: str) -> Content:
    """``content`` with every copy of card ``name`` in ``seat``'s deck replaced by the
    blank card (restricted play). The per-card records keep the card's row."""
    import dataclasses

    card = content.card_id(name)
    deck = content.deck.copy()
    deck[seat][deck[seat] == card] = 0
    return dataclasses.replace(content, deck=deck)


def program_choice(card_type: int, program: Sequence[Sequence[int]]) -> int:
    """The chosen-pirate target a program uses (0 if none): the first chosen target of its
    rows. The card loader rejects programs that mix two chosen targets."""
    for row in program:
        if row[EFFECT.TARGET] in CHOSEN_TARGETS:
            return int(row[EFFECT.TARGET])
    return CHOICE_NONE


def _put_triggers(
    triggers: Sequence[tuple[int, Sequence[Sequence[int]]]],
    events: np.ndarray,
    programs: np.ndarray,
    lengths: np.ndarray,
) -> None:
    """Write (event, rows) pairs into one card's or pirate's ``(MAX_TRIGGERS,)`` events,
    ``(MAX_TRIGGERS, MAX_EFFECTS, Effect.SIZE)`` programs and ``(MAX_TRIGGERS,)`` lengths
    (missing trailing fields of a row are 0)."""
    if len(triggers) > MAX_TRIGGERS:
        raise ValueError(f"{len(triggers)} triggers; at most {MAX_TRIGGERS}")
    for t, (event, rows) in enumerate(triggers):
        events[t] = event
        for e, row in enumerate(rows):
            programs[t, e] = tuple(row) + (0,) * (EFFECT.SIZE - len(row))
        lengths[t] = len(rows)


def deal_food(count: int) -> tuple[int, ...]:
    """``count`` food of no named kind dealt over the five kinds in ``FOOD_KINDS`` order,
    one of each in turn (4 food: one banane, noix de coco, grenade and mangue)."""
    return tuple(count // 5 + (1 if k < count % 5 else 0) for k in range(5))


def make_content(
    cards: Sequence[Mapping[str, Any]],
    decks: Sequence[Sequence[str]],
    *,
    provisions: Sequence[Sequence[int]] = ((10, 12, 4, 2, 2), (10, 12, 4, 2, 2)),
    weapons: Sequence[Any] | None = None,
    pirate_mods: Sequence[Any] | None = None,
    pirate_triggers: Sequence[Any] | None = None,
    weapon_programs: Sequence[Any] | None = None,
    food_kinds: Sequence[Sequence[int]] | None = None,
    ship_mods: Sequence[Sequence[tuple[int, int]]] = ((), ()),
    ship_trigger: Sequence[tuple[int, int]] = ((0, 0), (0, 0)),
    ship_program: Sequence[Sequence[Sequence[int]]] = ((), ()),
    deck_names: tuple[str, str] = ("deck 0", "deck 1"),
    ship_names: tuple[str, str] = ("ship 0", "ship 1"),
    pirate_names: Sequence[Sequence[str]] = (("pirate 0", "pirate 1"), ("pirate 2", "pirate 3")),
    weapon_names: Sequence[Sequence[Sequence[str]]] = (
        (("w0", "w1"), ("w0", "w1")),
        (("w0", "w1"), ("w0", "w1")),
    ),
    sources: tuple[str, str] = ("", ""),
) -> Content:
    """A :class:`Content` from already-coded values (tests, and the card loader's last step).

    Parameters
    ----------
    cards : one mapping a card: ``name``; ``type`` (layout card type); optional ``sin``
        (index into ``SINS``), ``flags``, ``program`` (rows of up to ``Effect.SIZE`` ints:
        op, target, amount, turns, arg, on, if, if value; missing trailing fields are 0),
        ``mods`` ((stat, amount) pairs), ``cost`` (``COST_SIZE`` ints) and ``triggers``
        ((event, rows) pairs, ``layout.ON_*`` events). Card 0 (the blank card) is added in
        front.
    decks : two lists of ``DECK_SIZE`` card names (seat 0's first), in file order.
    weapons : ``(2, 2, 2, 2)`` (hits on, damage) or ``(2, 2, 2, 3)`` (and reach) by seat,
        pirate, weapon; default 4+ for 1, same zone.
    weapon_programs : ``(2, 2, 2)`` lists of rows: each weapon's effects on a hit.
    food_kinds : ``(2, 5)`` the starting food by kind; default the food dealt in
        ``FOOD_KINDS`` order, one kind after the other (:func:`deal_food`).
    pirate_mods : ``(2, 2)`` lists of (stat, amount) pairs.
    pirate_triggers : ``(2, 2)`` lists of (event, rows) pairs, as a card's ``triggers``.
    ship_names, pirate_names, weapon_names, sources : names for reports (``(2,)``,
        ``(2, 2)``, ``(2, 2, 2)``) and the two decks' files; placeholders by default.
    """
    k = len(cards) + 1
    arrays = empty_arrays(k)
    names = ["(blank)"]
    for c, card in enumerate(cards, start=1):
        names.append(card["name"])
        arrays["card_type"][c] = card["type"]
        arrays["card_sin"][c] = card.get("sin", -1)
        arrays["card_flags"][c] = card.get("flags", 0)
        program = [tuple(row) + (0,) * (EFFECT.SIZE - len(row)) for row in card.get("program", ())]
        for e, row in enumerate(program):
            arrays["program"][c, e] = row
        arrays["program_len"][c] = len(program)
        arrays["card_choice"][c] = program_choice(card["type"], program)
        for m, mod in enumerate(card.get("mods", ())):
            arrays["mods"][c, m] = mod
        arrays["mods_len"][c] = len(card.get("mods", ()))
        cost = tuple(card.get("cost", ()))  # missing trailing fields are 0
        arrays["card_cost"][c] = cost + (0,) * (COST_SIZE - len(cost))
        _put_triggers(
            card.get("triggers", ()),
            arrays["card_trigger"][c],
            arrays["card_trigger_program"][c],
            arrays["card_trigger_len"][c],
        )
    for s, deck in enumerate(decks):
        if len(deck) != DECK_SIZE:
            raise ValueError(f"deck {s} has {len(deck)} cards, not {DECK_SIZE}")
        ids = [names.index(name) for name in deck]
        arrays["deck"][s] = ids
        distinct = list(dict.fromkeys(ids))
        arrays["deck_cards"][s, : len(distinct)] = distinct
        arrays["provisions"][s] = provisions[s]
        for m, mod in enumerate(ship_mods[s]):
            arrays["ship_mods"][s, m] = mod
        arrays["ship_mods_len"][s] = len(ship_mods[s])
        arrays["ship_trigger"][s] = ship_trigger[s]
        rows = [tuple(r) + (0,) * (EFFECT.SIZE - len(r)) for r in ship_program[s]]
        for e, row in enumerate(rows):
            arrays["ship_program"][s, e] = row
        arrays["ship_program_len"][s] = len(rows)
    if weapons is None:
        arrays["weapons"][...] = (4, 1, 0)
    else:
        given = np.asarray(weapons, dtype=np.int64)
        arrays["weapons"][..., : given.shape[-1]] = given
    if weapon_programs is not None:
        for s in range(PLAYERS):
            for i in range(PIRATES):
                for w in range(2):
                    rows = [
                        tuple(r) + (0,) * (EFFECT.SIZE - len(r)) for r in weapon_programs[s][i][w]
                    ]
                    for e, row in enumerate(rows):
                        arrays["weapon_program"][s, i, w, e] = row
                    arrays["weapon_program_len"][s, i, w] = len(rows)
    for s in range(PLAYERS):
        arrays["food_kinds"][s] = (
            deal_food(int(arrays["provisions"][s, 2])) if food_kinds is None else food_kinds[s]
        )
    if pirate_mods is not None:
        for s in range(PLAYERS):
            for i in range(PIRATES):
                for m, mod in enumerate(pirate_mods[s][i]):
                    arrays["pirate_mods"][s, i, m] = mod
                arrays["pirate_mods_len"][s, i] = len(pirate_mods[s][i])
    if pirate_triggers is not None:
        for s in range(PLAYERS):
            for i in range(PIRATES):
                _put_triggers(
                    pirate_triggers[s][i],
                    arrays["pirate_trigger"][s, i],
                    arrays["pirate_trigger_program"][s, i],
                    arrays["pirate_trigger_len"][s, i],
                )
    return Content(
        names=tuple(names),
        deck_names=(deck_names[0], deck_names[1]),
        ship_names=(ship_names[0], ship_names[1]),
        pirate_names=tuple((p[0], p[1]) for p in pirate_names),
        weapon_names=tuple(tuple((w[0], w[1]) for w in seat) for seat in weapon_names),
        sources=(sources[0], sources[1]),
        **arrays,
    )
