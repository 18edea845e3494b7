"""Lifeboats (Rette sich wer kann) in plain Python: the readable reference engine.

This module is written to be read by a designer checking a rule against
the rules in ``docs/lifeboats.md``. It plays the same games as the compiled engine
(:mod:`balance.games.lifeboats.engine_nb`): for the same seed and game index both draw
the same random numbers in the same order and produce the same record, which the test
suite checks on many thousands of games. It also narrates a game phase by phase
(``narrate=``), which ``balance replay`` shows.

Decisions the rules page leaves to the analyser, as this engine plays them (D1-D16 of
``docs/lifeboats.md``, then the ones this engine had to add):

* **Boats (D1).** Boat ``s`` (0..n-1) belongs to seat ``s`` (a player's colour is their
  seat); boat ``n`` is the black boat, owned by nobody. Only counts matter in a boat:
  pawns of each seat by type, and leak markers. Free seats = ``seats_per_boat`` - pawns -
  leaks.
* **Random streams (D2).** There are no dice: every random number is a strategy's. Seat
  ``s`` draws from stream ``s + 1`` of ``(seed, game)``; stream 0 is kept for chance and
  unused. Streams belong to the seat, not to the strategy.
* **Forced decisions (D3).** A decision with a single option is taken without asking and
  draws nothing. The uniform-random player answers any other with ``below(count)``.
* **Option order (D4)**, which fixes the indices:

  - lane placement: free lanes ascending;
  - pawn placement: boats ascending (black boat ``n`` last), for each boat with a free
    seat officer (type 0) then sailor (type 1), each only if the player still has one in
    reserve; code ``boat * 2 + type``;
  - leak vote, move vote: boats afloat ascending, then :data:`HAT` (-1) if the voter has
    a hat left;
  - overboard vote: colours (seats) ascending with a pawn in the boat, then :data:`HAT`;
  - choosing an outcome (a lone hat, or F breaking a tie): the eligible options
    ascending (all of them for a hat, the tied ones for F), coded as in the vote;
  - losing a pawn: officer (0) then sailor (1), whichever the owner has in that boat;
  - swimming out: boats afloat ascending that no pawn has left yet this phase, for each
    officer then sailor if the player has one there; code ``boat * 2 + type``;
  - swimming in: boats afloat ascending, not the one the swimmer left, with a free seat.

* **Secret votes (D5).** Every voter is asked, from F clockwise (voters only), with the
  position as it stood before the ballot: nobody sees a vote or a hat of the same
  ballot; the hats played are spent only once the whole ballot is collected.
* **Resolving a vote (D6)**, one ballot at a time (:func:`resolve_vote`):

  1. collect every vote; spend one hat for each hat played (per seat ``hats_used``);
  2. exactly one hat: that player alone chooses among *all* the eligible options
     (decision CHOOSE_*); the ballot is "decided by a hat";
  3. every voter played a hat (two or more voters): a new ballot of the same voters and
     options (a voter with a hat left may play one again; hats stay spent): a revote;
  4. otherwise the other votes are tallied (weighted in an overboard vote: a voter
     weighs 2 x their officers + their sailors in that boat; 1 in other votes). A single
     top option wins; otherwise F chooses among the tied top options (decision CHOOSE_*,
     even if F did not vote), a "tie broken".

* **Leak supply (D7).** ``leaks`` markers in all; a marker never returns (those on sunk
  or landed boats stay out). With none left, the leak phase is skipped.
* **Overboard (D8).** When the boat chosen for a leak has no free seat, its pawns'
  owners vote (from F clockwise) for a colour present in it; the chosen colour's owner
  picks officer or sailor among their pawns there (LOSE_PAWN; forced if one type); that
  pawn is lost and the leak takes its seat.
* **Sinking (D9).** After each phase (leak, move, swim) every boat afloat with more
  leaks than pawns sinks, in boat order, and its pawns drown. A boat with no pawns and
  no leak floats (it may even land, scoring nothing).
* **Landing (D10).** The chosen boat moves one step; after ``track_length`` steps it
  lands at once: each pawn scores its island's officer or sailor points for its owner,
  the boat leaves the water, and its landing order (1, 2, ...) is recorded; the first
  boat to land is remembered.
* **Swimming (D11).** From F clockwise each player with a legal swim-out option swims
  out (compulsory when possible). Then every seat from F-1 counter-clockwise (F-1, F-2,
  ..., F) that swam out puts its swimmer into a free seat of another boat afloat; with
  no such seat the swimmer drowns ("no seat"). Seats freed by swimmers count as free for
  the others. Sinking is checked once all swimmers are placed.
* **The end (D12).** After every phase, if no boat is afloat the game ends at once; the
  record's rounds are the round it ended in. A game with a boat afloat after
  ``round_cap`` rounds ends unfinished: nobody wins (scores are still recorded).
* **Winner (D13).** The highest score wins. Tied players: among those whose own boat
  landed, the one whose boat landed first wins. If none did, count clockwise from the
  owner of the first *player's* boat to land (the black boat has no owner and is
  skipped): the first tied player after that owner wins. If no player's boat landed
  (even if the black one did), the tie is shared. Tie rule recorded: 0 no tie, 1 own boat
  landed first, 2 clockwise from the first lander, 3 shared, -1 unfinished.
* **Round start (D14).** Round ``r`` (from 1) is led by seat ``F = (r - 1) mod n``.
* **Set-up (D15).** Lanes from seat 0 clockwise, then seat 0 places the black boat (a
  second LANE decision of seat 0). Pawns from seat 0 clockwise, round and round, one pawn
  a turn; a player with none left passes, until all are placed. No sinking in set-up.
* **Restricted play.** A seat may be barred from hats (``Position.hatless``): the hat is
  then never among its vote options, though it keeps its hats (others see them).
* **Validation (D16)** is :class:`~balance.games.lifeboats.rules.LifeboatsRules`'.

Decisions this engine adds where the rules are silent:

* **Who votes.** Every player votes in the leak and move votes, whether or not they still
  have a pawn in a boat; only the owners of pawns in the boat vote on who goes overboard.
* **Every ballot counts.** ``votes`` counts every ballot, revotes and ballots where every
  voter had a single option included; ``hat_decided`` counts a lone hat even when only
  one option was eligible (then its player is not asked).
* **What a chooser sees.** A lone hat's player and F breaking a tie are asked after the
  ballot's hats are spent; a revote is asked with the previous ballot's hats spent.
* **The boat in question.** ``Position.boat`` (``state[BOAT]`` in the compiled
  position) is the boat of the overboard vote, of its choice and of the pawn loss, -1
  otherwise (a LANE decision does not name the boat placed: seat 0's second LANE
  decision, once its own boat has a lane, places the black boat).
  ``Position.swim_from`` is the boat the asked swimmer left, during their SWIM_IN
  decision only.
* **The swim phase's marks.** ``left`` (per boat) and ``swimming`` (per seat) are
  cleared when the swim phase starts and again when it ends: they are only seen during
  it.
* **Pawns leave the boat.** When a boat lands or sinks its crew is emptied (the pawns
  scored or drowned); its leak markers stay with it. The record keeps how many were
  aboard (``boat_aboard``); for a boat still afloat at the round cap that is the pawns
  aboard at the end, as ``boat_leaks`` is its leaks at the end.
* **The round cap.** A game that still has a boat afloat after round ``round_cap``'s
  swim phase ends unfinished; its record's rounds are ``round_cap``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from balance.core.random_ref import Stream
from balance.games.lifeboats.layout import (
    AFLOAT,
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    CLOCKWISE,
    HAT,
    HAT_ROUNDS,
    ISLAND_NAMES,
    KINDS,
    LANDED,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MOVE_VOTE,
    NO_TIE,
    OFFICER,
    OVERBOARD_VOTE,
    OWN_BOAT_FIRST,
    PLACE,
    SAILOR,
    SHARED,
    SUNK,
    SWIM_IN,
    SWIM_OUT,
    TIE_RULES,
    UNFINISHED,
)
from balance.games.lifeboats.rules import LifeboatsRules

#: The decision an outcome of each vote is chosen with (a lone hat, or F breaking a tie).
CHOOSE_KIND = {LEAK_VOTE: CHOOSE_LEAK, MOVE_VOTE: CHOOSE_MOVE, OVERBOARD_VOTE: CHOOSE_OVERBOARD}
VOTE_NAMES = {LEAK_VOTE: "leak vote", MOVE_VOTE: "move vote", OVERBOARD_VOTE: "overboard vote"}

Narrator = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


# ---------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------


@dataclass
class Position:
    """Everything public about a Lifeboats game in progress, and its running tallies.

    Boats are indexed ``0..n`` (boat ``s`` is seat ``s``'s, boat ``n`` the black boat),
    seats ``0..n-1``, pawn types :data:`OFFICER` (0) and :data:`SAILOR` (1). Lists left
    empty when a position is built by hand are filled with their starting values.
    """

    players: int
    rules: LifeboatsRules
    lane: list[int]  # per boat, -1 before it is placed
    steps: list[int]  # per boat: moves made
    state: list[int]  # per boat: AFLOAT, LANDED or SUNK
    leaks: list[int]  # per boat: leak markers aboard (they stay when it leaves the water)
    crew: list[list[list[int]]]  # [boat][seat][type]: pawns aboard
    hats: list[int]  # per seat: hats left
    score: list[int]  # per seat
    reserve: list[list[int]]  # [seat][type]: pawns not yet placed
    leaks_left: int  # leak markers not yet on a boat
    round: int = 1
    first_landed: int = -1  # the first boat to land, -1 while none has
    landing_order: list[int] = field(default_factory=list)  # per boat: 1, 2, ...; 0 if not
    # What the asked player is deciding about (public; see the module docstring).
    boat: int = -1  # the boat of an overboard vote and its pawn loss
    swim_from: int = -1  # the boat the asked swimmer left
    swimming: list[int] = field(default_factory=list)  # per seat: type in the water, or -1
    left: list[int] = field(default_factory=list)  # per boat: 1 + the seat that swam out of
    # it this phase, 0 if none
    hatless: list[int] = field(default_factory=list)  # per seat: 1 if it may never play a hat
    # Tallies for the record.
    placed: list[list[int]] = field(default_factory=list)  # [seat][type]
    saved: list[list[int]] = field(default_factory=list)  # [seat][type]: landed on an island
    overboard: list[int] = field(default_factory=list)  # per seat: pawns lost overboard
    sunk: list[int] = field(default_factory=list)  # per seat: pawns drowned in a sinking boat
    no_seat: list[int] = field(default_factory=list)  # per seat: swimmers with nowhere to go
    hats_used: list[int] = field(default_factory=list)  # per seat
    hats_decisive: list[int] = field(default_factory=list)  # per seat: ballots a lone hat won
    fate_round: list[int] = field(default_factory=list)  # per boat: round it landed or sank
    aboard: list[int] = field(default_factory=list)  # per boat: pawns when it landed or sank
    votes: int = 0  # ballots, revotes included
    hat_decided: int = 0  # ballots a lone hat decided
    revotes: int = 0  # ballots where every voter played a hat
    ties_broken: int = 0  # ballots F's choice decided
    hats_by_round: list[int] = field(default_factory=list)  # hats played in round 1, 2, ...
    # (HAT_ROUNDS entries, the last counting that round and every later one)

    def __post_init__(self) -> None:
        n, boats = self.players, self.players + 1
        for name, size, value in (
            ("landing_order", boats, 0),
            ("swimming", n, -1),
            ("left", boats, 0),
            ("hatless", n, 0),
            ("overboard", n, 0),
            ("sunk", n, 0),
            ("no_seat", n, 0),
            ("hats_used", n, 0),
            ("hats_decisive", n, 0),
            ("fate_round", boats, 0),
            ("aboard", boats, 0),
            ("hats_by_round", HAT_ROUNDS, 0),
        ):
            if not getattr(self, name):
                setattr(self, name, [value] * size)
        for name in ("placed", "saved"):
            if not getattr(self, name):
                setattr(self, name, [[0, 0] for _ in range(n)])

    @classmethod
    def start(cls, rules: LifeboatsRules, players: int) -> Position:
        """The position before set-up: boats unplaced and empty, every pawn in reserve."""
        n = players
        return cls(
            players=n,
            rules=rules,
            lane=[-1] * (n + 1),
            steps=[0] * (n + 1),
            state=[AFLOAT] * (n + 1),
            leaks=[0] * (n + 1),
            crew=[[[0, 0] for _ in range(n)] for _ in range(n + 1)],
            hats=[rules.hats] * n,
            score=[0] * n,
            reserve=[list(pawns) for pawns in rules.seat_pawns(n)],
            leaks_left=rules.leaks,
        )

    def copy(self) -> Position:
        return copy.deepcopy(self)

    def first(self) -> int:
        """F, the first player of the current round."""
        return (self.round - 1) % self.players

    def pawns(self, boat: int) -> int:
        """Pawns aboard ``boat``, all seats and types."""
        return sum(sum(row) for row in self.crew[boat])

    def free(self, boat: int) -> int:
        """Free seats of ``boat``: seats less pawns less leaks."""
        return self.rules.seats_per_boat - self.pawns(boat) - self.leaks[boat]

    def afloat(self) -> list[int]:
        """Boats still on the water, ascending."""
        return [b for b in range(self.players + 1) if self.state[b] == AFLOAT]

    def island(self, boat: int) -> int:
        """The island ``boat``'s lane leads to (-1 before it is placed)."""
        lane = self.lane[boat]
        return -1 if lane < 0 else self.rules.lane_islands[lane]

    def landed(self) -> int:
        """Boats landed so far."""
        return sum(1 for s in self.state if s == LANDED)

    def clockwise(self, start: int) -> list[int]:
        """All seats from ``start`` clockwise."""
        return [(start + k) % self.players for k in range(self.players)]


# ---------------------------------------------------------------------------
# Words for the narration
# ---------------------------------------------------------------------------


def boat_name(pos: Position, boat: int) -> str:
    return "the black boat" if boat == pos.players else f"seat {boat}'s boat"


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def crew_text(pos: Position, boat: int) -> str:
    """Who is aboard, e.g. ``seat 0: 1 officer, 2 sailors; seat 3: 1 sailor``."""
    parts = []
    for s, (o, sl) in enumerate(pos.crew[boat]):
        if o or sl:
            kinds = [_count(k, noun) for k, noun in ((o, "officer"), (sl, "sailor")) if k]
            parts.append(f"seat {s}: " + ", ".join(kinds))
    return "; ".join(parts) or "nobody"


def boat_text(pos: Position, boat: int) -> str:
    """A boat afloat in one line: where it heads, how far it is, who and what is aboard."""
    island = pos.island(boat)
    where = f"lane {pos.lane[boat]} to island {ISLAND_NAMES[island]}" if island >= 0 else "unplaced"
    return (
        f"{boat_name(pos, boat)} ({where}, step {pos.steps[boat]}/{pos.rules.track_length}): "
        f"{crew_text(pos, boat)}; {_count(pos.leaks[boat], 'leak')}, {pos.free(boat)} free"
    )


def ballot_text(
    pos: Position, kind: int, voters: Sequence[int], ballot: Sequence[int], weights: Sequence[int]
) -> str:
    """A ballot in words: ``seat 1 for the black boat, seat 2 plays a hat, ...``."""
    parts = []
    for s, vote, weight in zip(voters, ballot, weights, strict=True):
        who = f"seat {s}" + (f" (weight {weight})" if kind == OVERBOARD_VOTE else "")
        parts.append(
            f"{who} plays a hat" if vote == HAT else f"{who} for {option_text(pos, kind, vote)}"
        )
    return ", ".join(parts)


def option_text(pos: Position, kind: int, code: int) -> str:
    """An option code of decision ``kind`` in words."""
    if code == HAT:
        return "a hat"
    if kind == LANE:
        return f"lane {code} (island {ISLAND_NAMES[pos.rules.lane_islands[code]]})"
    if kind in (PLACE, SWIM_OUT):
        return (
            f"{'an officer' if code % 2 == OFFICER else 'a sailor'} in {boat_name(pos, code // 2)}"
        )
    if kind in (OVERBOARD_VOTE, CHOOSE_OVERBOARD):
        return f"seat {code}"
    if kind == LOSE_PAWN:
        return "an officer" if code == OFFICER else "a sailor"
    return boat_name(pos, code)


# ---------------------------------------------------------------------------
# Legal options
# ---------------------------------------------------------------------------


def legal_options(
    pos: Position,
    seat: int,
    kind: int,
    boat: int = -1,
    swim_from: int = -1,
    tied: Sequence[int] | None = None,
) -> list[int]:
    """The canonical option codes of decision ``kind`` for ``seat`` (order: D4).

    ``boat`` is the boat of an overboard vote, its choice, or a pawn loss; ``swim_from``
    the boat a swimmer left; ``tied`` the tied options F chooses among (a CHOOSE_* kind
    without ``tied`` lists every eligible option, as a lone hat's player chooses).
    """
    n = pos.players
    hat = [HAT] if pos.hats[seat] > 0 and not pos.hatless[seat] else []
    if kind == LANE:
        taken = set(pos.lane)
        return [lane for lane in range(pos.rules.lanes) if lane not in taken]
    if kind == PLACE:
        return [
            b * 2 + t
            for b in range(n + 1)
            if pos.free(b) > 0
            for t in (OFFICER, SAILOR)
            if pos.reserve[seat][t] > 0
        ]
    if kind in (LEAK_VOTE, MOVE_VOTE):
        return pos.afloat() + hat
    if kind == OVERBOARD_VOTE:
        return [c for c in range(n) if sum(pos.crew[boat][c]) > 0] + hat
    if kind in (CHOOSE_LEAK, CHOOSE_MOVE):
        return sorted(tied) if tied is not None else pos.afloat()
    if kind == CHOOSE_OVERBOARD:
        if tied is not None:
            return sorted(tied)
        return [c for c in range(n) if sum(pos.crew[boat][c]) > 0]
    if kind == LOSE_PAWN:
        return [t for t in (OFFICER, SAILOR) if pos.crew[boat][seat][t] > 0]
    if kind == SWIM_OUT:
        return [
            b * 2 + t
            for b in pos.afloat()
            if not pos.left[b] and (not pos.rules.stay_without_seat or _room_elsewhere(pos, b))
            for t in (OFFICER, SAILOR)
            if pos.crew[b][seat][t] > 0
        ]
    if kind == SWIM_IN:
        return [b for b in pos.afloat() if b != swim_from and pos.free(b) > 0]
    raise ValueError(f"unknown decision kind {kind}")


def _room_elsewhere(pos: Position, boat: int) -> bool:
    """True if a boat afloat other than ``boat`` has a free seat (``stay_without_seat``)."""
    return any(pos.free(b) > 0 for b in pos.afloat() if b != boat)


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------


class Player(Protocol):
    """A seat's decision maker: returns an index into ``options`` (two or more)."""

    def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int: ...


class RandomPlayer:
    """The uniform-random player of the rules page, drawing from its seat's stream."""

    name = "random"

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int:
        return self.stream.below(len(options))


class ScriptError(AssertionError):
    """A scripted player was asked something its script does not answer."""


class Scripted:
    """A player answering from a fixed list of option codes, one a decision it is asked.

    It is only asked real decisions (two or more options). ``asked`` lists the kinds it
    was asked, ``used`` how many answers it gave.
    """

    name = "scripted"

    def __init__(self, codes: Sequence[int] = ()) -> None:
        self.codes = [int(c) for c in codes]
        self.used = 0
        self.asked: list[int] = []

    def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int:
        self.asked.append(kind)
        if self.used >= len(self.codes):
            raise ScriptError(
                f"seat {seat} was asked a {KINDS[kind]} decision among {options} "
                f"after its {len(self.codes)} scripted answers"
            )
        code = self.codes[self.used]
        self.used += 1
        if code not in options:
            raise ScriptError(
                f"seat {seat}'s scripted answer {code} to a {KINDS[kind]} decision "
                f"is not among its options {options}"
            )
        return options.index(code)


class IllegalChoice(Exception):
    """A strategy answered outside its options."""

    def __init__(self, seat: int, kind: int, value: object, count: int) -> None:
        super().__init__(
            f"seat {seat} answered {value!r} to a {KINDS[kind]} decision of {count} options"
        )
        self.seat, self.kind, self.value, self.count = seat, kind, value, count


def ask(pos: Position, players: Sequence[Player], seat: int, kind: int, options: list[int]) -> int:
    """The option code ``seat`` chooses; a single option is taken without asking (D3)."""
    if len(options) == 1:
        return options[0]
    k = players[seat].decide(pos, seat, kind, options)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(options):
        raise IllegalChoice(seat, kind, k, len(options))
    return options[k]


# ---------------------------------------------------------------------------
# Votes
# ---------------------------------------------------------------------------


def resolve_vote(
    pos: Position,
    kind: int,
    voters: Sequence[int],
    players: Sequence[Player],
    weights: Sequence[int] | None = None,
    boat: int = -1,
    narrate: Narrator = _quiet,
) -> int:
    """Resolve a vote (D6) of ``kind`` (LEAK_VOTE, MOVE_VOTE or OVERBOARD_VOTE).

    ``voters`` are asked in their order (the phases pass them from F clockwise);
    ``boat`` is the boat of an overboard vote. ``weights`` (one a voter) weigh the
    tally; by default 1, and in an overboard vote 2 x officers + sailors in ``boat``.
    Returns the outcome: a boat, or in an overboard vote a colour (seat).
    """
    choose = CHOOSE_KIND[kind]
    if weights is None:
        if kind == OVERBOARD_VOTE:
            weights = [2 * pos.crew[boat][s][OFFICER] + pos.crew[boat][s][SAILOR] for s in voters]
        else:
            weights = [1] * len(voters)
    name = VOTE_NAMES[kind]
    while True:
        pos.votes += 1
        # Every voter is asked before anything of the ballot is revealed or spent (D5).
        ballot = [
            ask(pos, players, s, kind, legal_options(pos, s, kind, boat=boat)) for s in voters
        ]
        narrate(f"  {name}: " + ballot_text(pos, kind, voters, ballot, weights))
        hatters = [s for s, v in zip(voters, ballot, strict=True) if v == HAT]
        for s in hatters:
            pos.hats[s] -= 1
            pos.hats_used[s] += 1
            pos.hats_by_round[min(pos.round, HAT_ROUNDS) - 1] += 1
        if len(hatters) == 1:
            chooser = hatters[0]
            pos.hat_decided += 1
            pos.hats_decisive[chooser] += 1
            outcome = ask(pos, players, chooser, choose, legal_options(pos, chooser, choose, boat))
            narrate(f"  seat {chooser}'s lone hat chooses {option_text(pos, kind, outcome)}")
            return outcome
        if len(hatters) == len(voters):
            pos.revotes += 1
            narrate("  every voter played a hat: they vote again")
            continue
        if hatters:
            narrate(f"  {len(hatters)} hats cancel out: the other votes decide")
        tally: dict[int, int] = {}
        for v, w in zip(ballot, weights, strict=True):
            if v != HAT:
                tally[v] = tally.get(v, 0) + w
        top = max(tally.values())
        tied = sorted(v for v, count in tally.items() if count == top)
        if len(tied) == 1:
            return tied[0]
        pos.ties_broken += 1
        f = pos.first()
        outcome = ask(pos, players, f, choose, legal_options(pos, f, choose, boat, tied=tied))
        narrate(
            f"  tie between {', '.join(option_text(pos, kind, v) for v in tied)}: "
            f"seat {f} (first player) chooses {option_text(pos, kind, outcome)}"
        )
        return outcome


# ---------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------


def set_up(pos: Position, players: Sequence[Player], narrate: Narrator = _quiet) -> None:
    """Boats on lanes, then pawns into boats (D15). No sinking is checked."""
    n = pos.players
    # Each seat its own boat, then seat 0 the black boat.
    for s, boat in [*((s, s) for s in range(n)), (0, n)]:
        lane = ask(pos, players, s, LANE, legal_options(pos, s, LANE))
        pos.lane[boat] = lane
        narrate(f"Set-up: seat {s} puts {boat_name(pos, boat)} on {option_text(pos, LANE, lane)}")
    seat = 0
    placements = 0
    while any(sum(row) for row in pos.reserve):
        if sum(pos.reserve[seat]) > 0:
            code = ask(pos, players, seat, PLACE, legal_options(pos, seat, PLACE))
            boat, kind = divmod(code, 2)
            pos.reserve[seat][kind] -= 1
            pos.crew[boat][seat][kind] += 1
            pos.placed[seat][kind] += 1
            placements += 1
            free = _count(pos.free(boat), "free seat")
            narrate(
                f"Set-up: placement {placements}: seat {seat} puts "
                f"{option_text(pos, PLACE, code)} ({free} left there)"
            )
        seat = (seat + 1) % n


def sink_boats(pos: Position, narrate: Narrator = _quiet) -> list[int]:
    """Sink every boat afloat with more leaks than pawns, in boat order (D9)."""
    sunk = []
    for b in pos.afloat():
        pawns = pos.pawns(b)
        if pos.leaks[b] > pawns:
            narrate(
                f"  {boat_name(pos, b)} sinks with {_count(pawns, 'pawn')} aboard"
                + (f" ({crew_text(pos, b)})" if pawns else "")
            )
            pos.state[b] = SUNK
            pos.fate_round[b] = pos.round
            pos.aboard[b] = pawns
            for s in range(pos.players):
                pos.sunk[s] += sum(pos.crew[b][s])
                pos.crew[b][s] = [0, 0]
            sunk.append(b)
    return sunk


def leak_phase(pos: Position, players: Sequence[Player], narrate: Narrator = _quiet) -> None:
    """The leak vote, anyone overboard, the leak, then sinking (D6-D9)."""
    if pos.leaks_left == 0:
        narrate("  no leak marker left: no leak vote")
        sink_boats(pos, narrate)
        return
    voters = pos.clockwise(pos.first())
    target = resolve_vote(pos, LEAK_VOTE, voters, players, narrate=narrate)
    if pos.free(target) == 0:
        narrate(f"  {boat_name(pos, target)} is full: someone goes overboard")
        owners = [s for s in voters if sum(pos.crew[target][s]) > 0]
        pos.boat = target
        colour = resolve_vote(pos, OVERBOARD_VOTE, owners, players, boat=target, narrate=narrate)
        kind = ask(pos, players, colour, LOSE_PAWN, legal_options(pos, colour, LOSE_PAWN, target))
        pos.boat = -1
        pos.crew[target][colour][kind] -= 1
        pos.overboard[colour] += 1
        narrate(f"  seat {colour} loses {option_text(pos, LOSE_PAWN, kind)} overboard")
    pos.leaks[target] += 1
    pos.leaks_left -= 1
    narrate(
        f"  {boat_name(pos, target)} takes a leak: {_count(pos.leaks[target], 'leak')}, "
        f"{_count(pos.pawns(target), 'pawn')} aboard ({_count(pos.leaks_left, 'marker')} left)"
    )
    sink_boats(pos, narrate)


def land(pos: Position, boat: int, narrate: Narrator = _quiet) -> None:
    """``boat`` reaches its island: every pawn aboard scores for its owner (D10)."""
    island = pos.island(boat)
    points = (pos.rules.officer_points[island], pos.rules.sailor_points[island])
    gains = []
    for s in range(pos.players):
        officers, sailors = pos.crew[boat][s]
        if officers or sailors:
            gain = officers * points[OFFICER] + sailors * points[SAILOR]
            pos.score[s] += gain
            pos.saved[s][OFFICER] += officers
            pos.saved[s][SAILOR] += sailors
            gains.append(f"seat {s} +{gain}")
    pos.aboard[boat] = pos.pawns(boat)
    pos.landing_order[boat] = pos.landed() + 1
    pos.state[boat] = LANDED
    pos.fate_round[boat] = pos.round
    if pos.first_landed < 0:
        pos.first_landed = boat
    pos.crew[boat] = [[0, 0] for _ in range(pos.players)]
    narrate(
        f"  {boat_name(pos, boat)} lands on island {ISLAND_NAMES[island]} "
        f"(number {pos.landing_order[boat]} to land): " + (", ".join(gains) or "nobody aboard")
    )


def move_phase(pos: Position, players: Sequence[Player], narrate: Narrator = _quiet) -> None:
    """The move vote, the move (and landing), then sinking."""
    target = resolve_vote(pos, MOVE_VOTE, pos.clockwise(pos.first()), players, narrate=narrate)
    pos.steps[target] += 1
    if pos.steps[target] >= pos.rules.track_length:
        land(pos, target, narrate)
    else:
        narrate(
            f"  {boat_name(pos, target)} moves to step {pos.steps[target]}/{pos.rules.track_length}"
        )
    sink_boats(pos, narrate)


def swim_phase(pos: Position, players: Sequence[Player], narrate: Narrator = _quiet) -> None:
    """Swimmers out from F clockwise, in from F-1 counter-clockwise, then sinking (D11)."""
    n = pos.players
    f = pos.first()
    pos.left = [0] * (n + 1)
    pos.swimming = [-1] * n
    swam_from = [-1] * n
    for s in pos.clockwise(f):
        options = legal_options(pos, s, SWIM_OUT)
        if not options:
            if pos.rules.stay_without_seat and any(
                sum(pos.crew[b][s]) > 0 and not pos.left[b] for b in pos.afloat()
            ):
                narrate(f"  seat {s} stays: no other boat afloat has a free seat")
            continue
        boat, kind = divmod(ask(pos, players, s, SWIM_OUT, options), 2)
        pos.crew[boat][s][kind] -= 1
        pos.left[boat] = 1 + s  # public: who swam out of which boat
        pos.swimming[s] = kind
        swam_from[s] = boat
        narrate(
            f"  seat {s} swims out of {boat_name(pos, boat)} ({option_text(pos, LOSE_PAWN, kind)})"
        )
    for k in range(1, n + 1):
        s = (f - k) % n
        kind = pos.swimming[s]
        if kind < 0:
            continue
        pos.swim_from = swam_from[s]
        options = legal_options(pos, s, SWIM_IN, swim_from=swam_from[s])
        if options:
            boat = ask(pos, players, s, SWIM_IN, options)
            pos.crew[boat][s][kind] += 1
            narrate(f"  seat {s}'s swimmer climbs into {boat_name(pos, boat)}")
        else:
            pos.no_seat[s] += 1
            narrate(f"  seat {s}'s swimmer finds no free seat and drowns")
        pos.swim_from = -1
        pos.swimming[s] = -1
    pos.left = [0] * (n + 1)
    sink_boats(pos, narrate)


# ---------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------


def winners(pos: Position, finished: bool) -> tuple[list[int], int]:
    """The winning seats and the tie rule that chose them (D13)."""
    if not finished:
        return [], UNFINISHED
    n = pos.players
    best = max(pos.score)
    tied = [s for s in range(n) if pos.score[s] == best]
    if len(tied) == 1:
        return tied, NO_TIE
    own = [s for s in tied if pos.state[s] == LANDED]
    if own:
        return [min(own, key=lambda s: pos.landing_order[s])], OWN_BOAT_FIRST
    landers = [b for b in range(n) if pos.state[b] == LANDED]
    if landers:
        owner = min(landers, key=lambda b: pos.landing_order[b])
        for k in range(1, n):
            s = (owner + k) % n
            if s in tied:
                return [s], CLOCKWISE
    return tied, SHARED


@dataclass
class GameRecord:
    """Per-game record; the same fields as the compiled engine's record arrays."""

    rounds: int
    finished: bool
    winners: int
    first_landed: int
    boats_landed: int
    boats_sunk: int
    hat_decided: int
    revotes: int
    ties_broken: int
    votes: int
    tie_rule: int
    hats_by_round: list[int]  # hats played in rounds 1, 2, ..., the last entry and later
    # per seat
    won: list[bool]
    score: list[int]
    placed_officers: list[int]
    placed_sailors: list[int]
    saved_officers: list[int]
    saved_sailors: list[int]
    overboard: list[int]
    sunk: list[int]
    no_seat: list[int]
    hats_used: list[int]
    hats_decisive: list[int]
    # per boat (the black boat last)
    boat_lane: list[int]
    boat_fate: list[int]
    boat_round: list[int]
    boat_aboard: list[int]
    boat_order: list[int]
    boat_leaks: list[int]


def game_record(pos: Position, finished: bool) -> GameRecord:
    """The record of a game that ended in ``pos``."""
    n = pos.players
    won, tie_rule = winners(pos, finished)
    return GameRecord(
        rounds=pos.round,
        finished=finished,
        winners=len(won),
        first_landed=pos.first_landed,
        boats_landed=pos.landed(),
        boats_sunk=sum(1 for s in pos.state if s == SUNK),
        hat_decided=pos.hat_decided,
        revotes=pos.revotes,
        ties_broken=pos.ties_broken,
        votes=pos.votes,
        tie_rule=tie_rule,
        hats_by_round=list(pos.hats_by_round),
        won=[s in won for s in range(n)],
        score=list(pos.score),
        placed_officers=[row[OFFICER] for row in pos.placed],
        placed_sailors=[row[SAILOR] for row in pos.placed],
        saved_officers=[row[OFFICER] for row in pos.saved],
        saved_sailors=[row[SAILOR] for row in pos.saved],
        overboard=list(pos.overboard),
        sunk=list(pos.sunk),
        no_seat=list(pos.no_seat),
        hats_used=list(pos.hats_used),
        hats_decisive=list(pos.hats_decisive),
        boat_lane=list(pos.lane),
        boat_fate=list(pos.state),
        boat_round=list(pos.fate_round),
        boat_aboard=[
            pos.aboard[b] if pos.state[b] != AFLOAT else pos.pawns(b) for b in range(n + 1)
        ],
        boat_order=list(pos.landing_order),
        boat_leaks=list(pos.leaks),
    )


def play_game(
    rules: LifeboatsRules,
    players: int,
    seed: int,
    game: int,
    make_player: Callable[[int, Stream], Player] | None = None,
    narrate: Narrator | None = None,
    hatless: int = -1,
) -> GameRecord:
    """Play game number ``game`` of the run seeded ``seed``.

    ``make_player(seat, stream)`` gives each seat its decision maker (``stream`` is the
    seat's, D2); by default every seat is uniform-random. Seat ``hatless`` (if any) may
    never play a hat: the hat is not among its vote options (restricted play).
    """
    rules.check_players(players)
    narrate = narrate or _quiet
    make_player = make_player or (lambda seat, stream: RandomPlayer(stream))
    seated = [make_player(s, Stream(seed, game, 1 + s)) for s in range(players)]
    pos = Position.start(rules, players)
    if hatless >= 0:
        pos.hatless[hatless] = 1
        narrate(f"Restricted play: seat {hatless} may never play a hat")
    set_up(pos, seated, narrate)
    finished = False
    while True:
        narrate(
            f"Round {pos.round} (seat {pos.first()} first; hats left {pos.hats}, "
            f"scores {pos.score}, {_count(pos.leaks_left, 'leak marker')} left)"
        )
        for b in pos.afloat():
            narrate(f"  {boat_text(pos, b)}")
        for phase in (leak_phase, move_phase, swim_phase):
            phase(pos, seated, narrate)
            if not pos.afloat():
                finished = True
                break
        if finished or pos.round >= rules.round_cap:
            break
        pos.round += 1
    record = game_record(pos, finished)
    if finished:
        won = [s for s in range(players) if record.won[s]]
        narrate(
            f"Game over in round {pos.round}: scores {pos.score}; "
            + ", ".join(f"seat {s}" for s in won)
            + (" win" if len(won) > 1 else " wins")
            + (f" ({TIE_RULES[record.tie_rule]})" if record.tie_rule != NO_TIE else "")
        )
    else:
        afloat = ", ".join(boat_name(pos, b) for b in pos.afloat())
        narrate(
            f"Round cap of {rules.round_cap} reached with {afloat} afloat: the game ends "
            f"unfinished; scores {pos.score}"
        )
    return record
