"""Walk the Plank in plain Python: the readable reference engine.

This module is written to be read by a designer checking a rule against
the rules in ``docs/walk-the-plank.md``. It plays the same games as the compiled
engine (:mod:`balance.games.walk_the_plank.engine_nb`): for the same seed and
game index both draw the same random numbers in the same order and produce the
same record, which the test suite checks on many thousands of games. It is also
the engine that narrates a single game move by move.

Order of random draws (both engines follow it):

* stream 0 of a game is the dice: one draw ``below(6)`` per Dolphin or Kraken roll;
* stream ``1 + seat`` belongs to that seat's strategy. The uniform-random strategy
  programs with three draws ``below(m)``, ``below(m - 1)``, ``below(m - 2)`` over its
  available cards in card order, and picks an option with one draw ``below(k)``.
  A decision with a single option is forced and draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from balance.core.random_ref import Stream
from balance.games.walk_the_plank.cards import (
    CARD_TITLES,
    GHOST_SET_ASIDE_MASK,
    N_CARDS,
    Card,
    card_mask,
)
from balance.games.walk_the_plank.rules import PLANK_LIMIT, WalkThePlankRules

SHIP = 0
#: Option arguments that are not a seat.
NOBODY = -1  # Charge onto an empty tile
JUMP = -2  # Charge from the last tile: your pirate jumps
TOWARD_SHIP = 0  # Run
TOWARD_SEA = 1  # Run
#: The Dolphin die's "stop" option.
STOP = (-1, -1)

# Dolphin die faces, in the order ``below(6)`` picks them.
DOLPHIN_FACES = ("2", "3", "4", "5", "shark", "dolphin")
SHARK = 4
DOLPHIN = 5
# Kraken die: three calm faces, two giant waves, one kraken.
KRAKEN_FACES = ("calm", "calm", "calm", "giant wave", "giant wave", "kraken")
CALM, GIANT_WAVE, KRAKEN = 0, 1, 2
KRAKEN_OUTCOME = (CALM, CALM, CALM, GIANT_WAVE, GIANT_WAVE, KRAKEN)

Option = tuple[int, int]


@dataclass
class Position:
    """Everything that describes a Walk the Plank game between two cards.

    Pirates of one player on one tile are interchangeable, so ``pirates[seat][tile]``
    counts one player's living pirates on each tile (tile 0 is the ship).
    """

    players: int
    plank: int
    pirates: list[list[int]]
    captain: int = 0
    round: int = 1
    resting: list[int] = field(default_factory=list)  # bit mask of resting cards per seat
    ghost_seat: int = -1
    ghost_tile: int = SHIP
    ghost_active: bool = False  # the ghost plays cards from the round after it appeared
    dolphin_rolled: bool = False
    retract_blocked_through: int = 0  # Retract Plank has no effect up to this round
    shown: list[list[int]] = field(default_factory=list)  # cards revealed this round, -1 if not

    @classmethod
    def start(cls, rules: WalkThePlankRules, players: int) -> Position:
        pirates = [[0] * (PLANK_LIMIT + 1) for _ in range(players)]
        for seat in range(players):
            pirates[seat][SHIP] = rules.pirates_per_player
        return cls(players=players, plank=rules.plank_start, pirates=pirates, resting=[0] * players)

    def copy(self) -> Position:
        return Position(
            players=self.players,
            plank=self.plank,
            pirates=[row[:] for row in self.pirates],
            captain=self.captain,
            round=self.round,
            resting=self.resting[:],
            ghost_seat=self.ghost_seat,
            ghost_tile=self.ghost_tile,
            ghost_active=self.ghost_active,
            dolphin_rolled=self.dolphin_rolled,
            retract_blocked_through=self.retract_blocked_through,
            shown=[row[:] for row in self.shown],
        )

    def living(self, seat: int) -> int:
        return sum(self.pirates[seat])

    def is_ghost(self, seat: int) -> bool:
        return seat == self.ghost_seat

    def in_game(self, seat: int) -> bool:
        """Has living pirates, or plays on as the ghost."""
        return self.living(seat) > 0 or (self.is_ghost(seat) and self.ghost_active)

    def has_pirate(self, seat: int, tile: int) -> bool:
        """'Your pirate at t': a living pirate, or the ghost for the ghost's player."""
        if self.is_ghost(seat):
            return self.ghost_tile == tile
        return self.pirates[seat][tile] > 0

    def your_tiles(self, seat: int) -> list[int]:
        return [t for t in range(self.plank + 1) if self.has_pirate(seat, t)]


# ---------------------------------------------------------------------------
# Legal options
# ---------------------------------------------------------------------------


def neighbour_with_pirates(pos: Position, seat: int, step: int) -> int:
    """Nearest other player with living pirates, stepping +1 (left) or -1 (right); -1 if none."""
    for k in range(1, pos.players):
        other = (seat + step * k) % pos.players
        if pos.living(other) > 0:
            return other
    return -1


def legal_options(
    pos: Position, rules: WalkThePlankRules, seat: int, card: int, slot: int
) -> list[Option]:
    """The canonical option list of ``card`` played by ``seat`` in ``slot`` (0, 1 or 2).

    Tiles ascending, then players ascending, then direction (ship first).
    """
    n, plank = pos.players, pos.plank
    mine = pos.your_tiles(seat)
    others = [q for q in range(n) if q != seat]

    if card in (Card.SHOVE_LEFT, Card.SHOVE_RIGHT):
        target = neighbour_with_pirates(pos, seat, +1 if card == Card.SHOVE_LEFT else -1)
        if target < 0:
            return []
        return [(t, target) for t in mine if pos.pirates[target][t] > 0]

    if card == Card.SHOVE_ANYONE:
        options = [(t, q) for t in mine for q in others if pos.pirates[q][t] > 0]
        if not options:  # only your own pirates to shove: you must shove one
            options = [(t, seat) for t in mine if pos.pirates[seat][t] >= 2]
        return options

    if card == Card.EXTEND_PLANK:
        return [(plank + 1, NOBODY)] if plank < rules.plank_max else []

    if card == Card.RETRACT_PLANK:
        blocked = pos.round <= pos.retract_blocked_through
        return [(plank, NOBODY)] if plank > rules.plank_min and not blocked else []

    if card in (Card.DRAG_TO_SEA, Card.PULL_TO_SHIP):
        lowest = SHIP if card == Card.DRAG_TO_SEA else 1
        options = []
        for t in mine:
            if t < lowest:
                continue
            for q in range(n):
                # The other pirate: any player's, yours only if you have a second one there.
                needed = 2 if q == seat else 1
                if pos.pirates[q][t] >= needed:
                    options.append((t, q))
        return options

    if card == Card.RUN:
        options = []
        for t in mine:
            if t >= 1:
                options.append((t, TOWARD_SHIP))
            if not (pos.is_ghost(seat) and t == plank):  # the ghost never falls
                options.append((t, TOWARD_SEA))
        return options

    if card == Card.NOT_ME:
        return [(t, d) for t in mine if t >= 1 for d in (1, 2) if t - d >= SHIP]

    if card == Card.CHARGE:
        if slot == 0:
            return []
        options = []
        for t in mine:
            if t == plank:
                if not pos.is_ghost(seat):
                    options.append((t, JUMP))
                continue
            arrival = t + 1
            victims = [(t, q) for q in others if pos.pirates[q][arrival] > 0]
            if victims:
                options.extend(victims)
            elif pos.pirates[seat][arrival] > 0:
                options.append((t, seat))
            else:
                options.append((t, NOBODY))
        return options

    raise ValueError(f"unknown card {card}")


def dolphin_options(pos: Position, moved: list[list[int]]) -> list[Option]:
    """Dolphin die steps: (t, q) for a not-yet-moved pirate of q on a tile t < L, then stop."""
    options = [
        (t, q)
        for t in range(pos.plank)
        for q in range(pos.players)
        if pos.pirates[q][t] - moved[q][t] > 0
    ]
    options.append(STOP)
    return options


# ---------------------------------------------------------------------------
# Chance and choices during a card
# ---------------------------------------------------------------------------


class Table(Protocol):
    """Where a card's resolution gets dice and the Dolphin owner's choices from."""

    def roll(self) -> int:
        """One six-sided die roll, 0..5."""

    def choose_dolphin_step(self, seat: int, pos: Position, options: list[Option]) -> int:
        """Index into ``options`` chosen by ``seat`` (only called with ≥ 2 options)."""


@dataclass
class CardOutcome:
    """What one resolved card did, for the records."""

    killed_own: int = 0
    killed_others: int = 0
    saved: int = 0
    kraken_killed: int = 0
    kraken_rolls: list[int] = field(default_factory=lambda: [0, 0, 0])  # calm, wave, kraken
    dolphin_face: int = -1
    eliminated: list[int] = field(default_factory=list)


Narrator = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def resolve_card(
    pos: Position,
    rules: WalkThePlankRules,
    seat: int,
    card: int,
    option: Option,
    table: Table,
    narrate: Narrator = _quiet,
) -> CardOutcome:
    """Carry out one legal ``option`` of ``card`` for ``seat``; changes ``pos`` in place."""
    out = CardOutcome()
    n, plank = pos.players, pos.plank
    had_pirates = [pos.living(s) > 0 for s in range(n)]
    fallen: list[int] = []  # owners of pirates that fell through the card, in order
    tile, arg = option

    def to_sea(owner: int, t: int) -> None:
        """One of ``owner``'s living pirates steps from t toward the Locker."""
        pos.pirates[owner][t] -= 1
        if t == pos.plank:
            fallen.append(owner)
        else:
            pos.pirates[owner][t + 1] += 1

    def to_ship(owner: int, t: int, steps: int = 1) -> None:
        pos.pirates[owner][t] -= 1
        pos.pirates[owner][t - steps] += 1
        out.saved += 1

    def yours_to_sea(t: int) -> None:
        """Your pirate (or your ghost, which never falls) steps toward the Locker."""
        if pos.is_ghost(seat):
            pos.ghost_tile = min(t + 1, pos.plank)
        else:
            to_sea(seat, t)

    def yours_to_ship(t: int, steps: int = 1) -> None:
        if pos.is_ghost(seat):
            pos.ghost_tile = t - steps
        else:
            to_ship(seat, t, steps)

    if card in (Card.SHOVE_LEFT, Card.SHOVE_RIGHT, Card.SHOVE_ANYONE):
        to_sea(arg, tile)
    elif card == Card.EXTEND_PLANK:
        pos.plank = plank + 1
    elif card == Card.RETRACT_PLANK:
        for owner in range(n):
            for _ in range(pos.pirates[owner][plank]):
                fallen.append(owner)
            pos.pirates[owner][plank] = 0
        if pos.ghost_seat >= 0 and pos.ghost_tile == plank:
            pos.ghost_tile = plank - 1
        pos.plank = plank - 1
    elif card == Card.DRAG_TO_SEA:
        yours_to_sea(tile)
        to_sea(arg, tile)
    elif card == Card.PULL_TO_SHIP:
        yours_to_ship(tile)
        to_ship(arg, tile)
    elif card == Card.RUN:
        if arg == TOWARD_SHIP:
            yours_to_ship(tile)
        else:
            yours_to_sea(tile)
    elif card == Card.NOT_ME:
        yours_to_ship(tile, arg)
    elif card == Card.CHARGE:
        if arg == JUMP:
            to_sea(seat, tile)
        else:
            yours_to_sea(tile)
            if arg != NOBODY:
                to_sea(arg, tile + 1)

    # Fallen pirates meet the dice: owners clockwise from the acting player.
    fallen.sort(key=lambda owner: (owner - seat) % n)
    for owner in fallen:
        narrate(f"  a pirate of seat {owner} falls into the sea")
        lost = True
        if rules.dolphin and not pos.dolphin_rolled:
            pos.dolphin_rolled = True
            face = table.roll()
            out.dolphin_face = face
            narrate(f"  the Dolphin die for seat {owner}'s pirate shows {DOLPHIN_FACES[face]}")
            if face == DOLPHIN:
                # Back onto the last tile; Retract Plank is blocked to the end of next round.
                pos.pirates[owner][pos.plank] += 1
                pos.retract_blocked_through = pos.round + 1
                lost = False
            elif face != SHARK:
                dolphin_push(pos, owner, int(DOLPHIN_FACES[face]), table, narrate)
        if not lost:
            continue
        if owner == seat:
            out.killed_own += 1
        else:
            out.killed_others += 1
        if rules.kraken:
            # Who is out by now was out before the Kraken struck.
            note_eliminations(pos, rules, seat, had_pirates, out, narrate)
            outcome = KRAKEN_OUTCOME[table.roll()]
            out.kraken_rolls[outcome] += 1
            narrate(f"  the Kraken die shows {('calm sea', 'a giant wave', 'the Kraken')[outcome]}")
            if outcome == GIANT_WAVE:
                washed = giant_wave(pos)
                if washed:
                    narrate(f"  the wave washes every pirate on tile {washed} back to the ship")
            elif outcome == KRAKEN:
                taken = kraken_attack(pos)
                out.kraken_killed += taken
                narrate(f"  the Kraken drags {taken} pirate(s) off tile {pos.plank}")
                note_eliminations(pos, rules, seat, had_pirates, out, narrate)

    note_eliminations(pos, rules, seat, had_pirates, out, narrate)
    # Listed clockwise from the acting player, whatever the order they went out in.
    out.eliminated.sort(key=lambda s: (s - seat) % n)
    return out


def note_eliminations(
    pos: Position,
    rules: WalkThePlankRules,
    seat: int,
    had_pirates: list[bool],
    out: CardOutcome,
    narrate: Narrator,
) -> None:
    """Players whose last pirate has died since the card began are out at once.

    The first player out in the game gets the ghost (Ghost variant); players who go out
    at the same moment are taken clockwise from the acting player, acting player first.
    """
    n = pos.players
    for s in ((seat + k) % n for k in range(n)):
        if had_pirates[s] and pos.living(s) == 0 and s not in out.eliminated:
            out.eliminated.append(s)
            narrate(f"  seat {s} has lost their last pirate and is out")
            if rules.ghost and pos.ghost_seat < 0:
                pos.ghost_seat = s
                pos.ghost_tile = SHIP
                pos.ghost_active = False
                narrate(f"  seat {s} returns as the ghost, on the ship")


def dolphin_push(pos: Position, owner: int, steps: int, table: Table, narrate: Narrator) -> None:
    """Dolphin die number face: the owner moves up to ``steps`` distinct pirates seaward."""
    moved = [[0] * (PLANK_LIMIT + 1) for _ in range(pos.players)]
    for _ in range(steps):
        options = dolphin_options(pos, moved)
        if len(options) == 1:
            break  # nothing left to move but "stop"
        t, q = options[table.choose_dolphin_step(owner, pos, options)]
        if (t, q) == STOP:
            break
        pos.pirates[q][t] -= 1
        pos.pirates[q][t + 1] += 1
        moved[q][t + 1] += 1
        narrate(f"  seat {owner} pushes a pirate of seat {q} from tile {t} to tile {t + 1}")


def giant_wave(pos: Position) -> int:
    """All pirates on the farthest occupied plank tile go back to the ship (not the ghost).

    Returns the tile it washed, or 0 if no plank tile held a pirate.
    """
    for t in range(pos.plank, 0, -1):
        if any(pos.pirates[q][t] > 0 for q in range(pos.players)):
            for q in range(pos.players):
                pos.pirates[q][SHIP] += pos.pirates[q][t]
                pos.pirates[q][t] = 0
            return t
    return 0


def kraken_attack(pos: Position) -> int:
    """Every pirate on the last tile falls; returns how many. The ghost is untouched."""
    taken = 0
    for q in range(pos.players):
        taken += pos.pirates[q][pos.plank]
        pos.pirates[q][pos.plank] = 0
    return taken


# ---------------------------------------------------------------------------
# Strategies and whole games
# ---------------------------------------------------------------------------


class Player(Protocol):
    """A seat's decision maker, drawing from its own random stream."""

    def program(self, pos: Position, seat: int, available: list[int]) -> list[int]: ...

    def choose(
        self, pos: Position, seat: int, card: int, slot: int, options: Sequence[Option]
    ) -> int: ...

    def choose_dolphin_step(self, pos: Position, seat: int, options: Sequence[Option]) -> int: ...


class RandomStrategy:
    """The uniform-random strategy of the rules page, drawing from its seat's stream."""

    name = "random"

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def program(self, pos: Position, seat: int, available: list[int]) -> list[int]:
        """Three distinct cards in order: a uniformly random ordered triple."""
        hand = list(available)
        return [hand.pop(self.stream.below(len(hand))) for _ in range(3)]

    def choose(
        self, pos: Position, seat: int, card: int, slot: int, options: Sequence[Option]
    ) -> int:
        return self.stream.below(len(options))

    def choose_dolphin_step(self, pos: Position, seat: int, options: Sequence[Option]) -> int:
        return self.stream.below(len(options))


def game_over(living: Sequence[int]) -> bool:
    """At most 2 pirates live, or all living pirates belong to one player."""
    return sum(living) <= 2 or sum(1 for x in living if x > 0) <= 1


def available_cards(pos: Position, seat: int, forbidden: int = 0) -> list[int]:
    """Cards ``seat`` may program this round, in card order.

    ``forbidden`` is a mask of cards this seat may never program (restricted play).
    """
    blocked = pos.resting[seat] | forbidden
    if pos.is_ghost(seat):
        blocked |= GHOST_SET_ASIDE_MASK
    return [c for c in range(N_CARDS) if not blocked >> c & 1]


@dataclass
class GameRecord:
    """Per-game record; the same fields as the compiled engine's record arrays."""

    rounds: int
    finished: bool
    winners: list[bool]
    pirates_left: list[int]
    revealed: list[list[int]]  # [seat][card]
    effect: list[list[int]]
    killed_own: list[list[int]]
    killed_others: list[list[int]]
    saved: list[list[int]]
    ghost_seat: int
    dolphin_face: int
    kraken_rolls: list[int]  # calm, giant wave, kraken
    kraken_killed: int


class _GameTable:
    """Dice from the game's chance stream; Dolphin choices from the owner's strategy."""

    def __init__(self, dice: Stream, strategies: list[Player]) -> None:
        self.dice = dice
        self.strategies = strategies

    def roll(self) -> int:
        return self.dice.below(6)

    def choose_dolphin_step(self, seat: int, pos: Position, options: list[Option]) -> int:
        return self.strategies[seat].choose_dolphin_step(pos, seat, options)


def play_game(
    rules: WalkThePlankRules,
    players: int,
    seed: int,
    game: int,
    narrate: Narrator = _quiet,
    make_player: Callable[[int, Stream], Player] | None = None,
    forbidden: Sequence[int] = (),
) -> GameRecord:
    """Play game number ``game`` of the run seeded ``seed``.

    ``make_player(seat, stream)`` gives each seat its decision maker; by default every
    seat is uniform-random. ``forbidden`` holds, per seat, a mask of cards that seat may
    never program (restricted play); empty means none.
    """
    n = players
    pos = Position.start(rules, n)
    make_player = make_player or (lambda seat, stream: RandomStrategy(stream))
    strategies = [make_player(s, Stream(seed, game, 1 + s)) for s in range(n)]
    table = _GameTable(Stream(seed, game, 0), strategies)
    rest_mask = card_mask(rules.rest)
    forbidden_of = list(forbidden) or [0] * n

    zeros = lambda: [[0] * N_CARDS for _ in range(n)]  # noqa: E731
    revealed, effect, killed_own, killed_others, saved = zeros(), zeros(), zeros(), zeros(), zeros()
    kraken_rolls = [0, 0, 0]
    kraken_killed = 0
    dolphin_face = -1

    while True:
        narrate(
            f"Round {pos.round}: seat {pos.captain} holds the Captain's Favor, "
            f"the plank has {pos.plank} tile{'' if pos.plank == 1 else 's'}"
        )
        pos.shown = [[-1] * 3 for _ in range(n)]
        programs = {
            s: strategies[s].program(pos, s, available_cards(pos, s, forbidden_of[s]))
            for s in range(n)
            if pos.in_game(s)
        }
        rested = [0] * n
        for slot in range(3):
            for k in range(n):
                s = (pos.captain + k) % n
                if not pos.in_game(s):
                    continue
                card = programs[s][slot]
                pos.shown[s][slot] = card
                revealed[s][card] += 1
                rested[s] |= rest_mask & (1 << card)
                options = legal_options(pos, rules, s, card, slot)
                if not options:
                    narrate(f" seat {s} reveals {CARD_TITLES[card]}: no effect")
                    continue
                effect[s][card] += 1
                pick = 0 if len(options) == 1 else strategies[s].choose(pos, s, card, slot, options)
                narrate(
                    f" seat {s} reveals {CARD_TITLES[card]}: "
                    f"{describe(card, options[pick], pos.is_ghost(s))}"
                )
                out = resolve_card(pos, rules, s, card, options[pick], table, narrate)
                killed_own[s][card] += out.killed_own
                killed_others[s][card] += out.killed_others
                saved[s][card] += out.saved
                kraken_killed += out.kraken_killed
                kraken_rolls = [a + b for a, b in zip(kraken_rolls, out.kraken_rolls, strict=True)]
                if out.dolphin_face >= 0:
                    dolphin_face = out.dolphin_face

        # End of the round: rest cards, the ghost wakes, the Captain's Favor passes right.
        pos.resting = rested
        if pos.ghost_seat >= 0:
            pos.ghost_active = True
        for k in range(1, n + 1):
            c = (pos.captain - k) % n
            if pos.in_game(c):
                pos.captain = c
                break

        living = [pos.living(s) for s in range(n)]
        finished = game_over(living)
        if finished or pos.round >= rules.round_cap:
            break
        pos.round += 1

    winners = [finished and living[s] > 0 for s in range(n)]
    narrate(
        f"Game over after {pos.round} rounds: "
        + (
            ("winners: " + ", ".join(f"seat {s}" for s in range(n) if winners[s]))
            if any(winners)
            else ("no winner" if finished else "round cap reached, unfinished")
        )
    )
    return GameRecord(
        rounds=pos.round,
        finished=finished,
        winners=winners,
        pirates_left=living,
        revealed=revealed,
        effect=effect,
        killed_own=killed_own,
        killed_others=killed_others,
        saved=saved,
        ghost_seat=pos.ghost_seat,
        dolphin_face=dolphin_face,
        kraken_rolls=kraken_rolls,
        kraken_killed=kraken_killed,
    )


def describe(card: int, option: Option, ghost: bool = False) -> str:
    """An option in words, for narration (``ghost``: the ghost's player is acting)."""
    tile, arg = option
    mover = "the ghost" if ghost else "its pirate"  # the revealing seat's
    if card in (Card.EXTEND_PLANK, Card.RETRACT_PLANK):
        return f"the plank now ends at tile {tile if card == Card.EXTEND_PLANK else tile - 1}"
    if card == Card.RUN:
        return f"{mover} on tile {tile} runs toward the {'ship' if arg == TOWARD_SHIP else 'sea'}"
    if card == Card.NOT_ME:
        return f"{mover} on tile {tile} retreats {arg} toward the ship"
    if card == Card.CHARGE:
        if arg == JUMP:
            return f"its pirate on tile {tile} jumps"
        if arg == NOBODY:
            return f"{mover} charges from tile {tile} onto an empty tile"
        return f"{mover} charges from tile {tile} into seat {arg}'s pirate"
    if card in (Card.DRAG_TO_SEA, Card.PULL_TO_SHIP):
        verb = "drags" if card == Card.DRAG_TO_SEA else "pulls"
        return f"{mover} on tile {tile} {verb} a pirate of seat {arg}"
    return f"{mover} on tile {tile} shoves a pirate of seat {arg}"
