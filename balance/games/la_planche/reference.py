"""La Planche in plain Python: the readable reference engine.

This module is written to be read by a designer checking a rule against
``docs/la-planche.md``. It plays the same games as the compiled engine
(:mod:`balance.games.la_planche.engine_nb`): for the same seed and game index both
draw the same random numbers in the same order and produce the same record, which
the test suite checks on many thousands of games. It also narrates a game turn by
turn (``narrate=``).

Decisions the rules page leaves to the analyser, as this engine plays them:

* **Colour draw.** At the start of a game (and of each round in the rounds
  variant), from stream 0: ``perm = [0, 1, 2, 3]``; for ``i`` in 0..3,
  ``j = i + below(4 - i)`` and ``perm[i]``, ``perm[j]`` swap (four draws, the last
  one ``below(1)``). Seat ``s`` owns colour ``perm[s]``; the other colours belong
  to nobody.
* **Spinner.** Each of the two symbols is one draw ``below(total weight)`` from
  stream 0, mapped through the cumulative weights in the order swap, advance, move,
  skull (a symbol of weight 0 never comes up).
* **Symbol choice.** If both symbols have legal options and differ, the strategy
  chooses (uniform-random: ``below(2)`` from its seat's stream, 0 being the first
  symbol spun). If both are the same symbol, or only one has options, no draw. If
  neither has options (skulls, or symbols without options) nothing happens.
* **Restricted play.** A seat that may never choose a symbol (``forbidden``), offered
  it beside another usable symbol, plays the other one without being asked (no draw);
  when it is the only usable symbol it is no choice, and the seat plays it. Such a turn
  still counts as a choice offering both symbols in the records.
* **Option choice.** ``below(count)`` from the seat's stream; a decision with a
  single option is forced and draws nothing.
* **Option order** (it fixes the indices): Swap: pairs ``(i, j)`` of occupied spaces
  ``i < j`` whose prisoners differ in colour, ascending by ``i`` then ``j``. Advance:
  ``(i, -1)`` for every occupied space ascending. Move: occupied spaces ``i``
  ascending, and for each the destination ``(i, d)``: first the space ahead of the
  line's frontmost prisoner, then the space behind the line's rearmost, each only
  if it is on the plank (``0..S-1``) and is not his own space.
* **Push.** Rule ``push = unbroken`` (the default): the pushed prisoner and the
  unbroken row of prisoners on consecutive occupied spaces directly in front of him
  move one space toward the shark; a gap stops the push. Rule ``push = whole`` (the
  French rulebook's "bouscule toute la rangee" read literally): the pushed prisoner
  and every prisoner in front of him move one space on, the gaps between them kept.
  Either way, if the front prisoner moved stands on ``S-1``, he falls instead. The
  mandatory push of each turn pushes the rearmost prisoner (lowest occupied space).
* **End.** The game ends the moment a single prisoner is left: after the action
  (then there is no push) or after the push. Its colour's owner wins, or nobody.
  Length is counted in turns; the ending turn counts.
* **Turn cap.** A game (in the rounds variant: a round) that has played
  ``turn_cap`` turns without ending ends the game unfinished, with no winner.
* **Rounds variant.** Each round is played as a game. The owners of the last
  prisoner, of the last to fall and of the one that fell before it score the rule
  ``points`` (5, 3 and 1 by default; a colour owned by nobody scores for nobody, but
  the colour's points are recorded all the same). Colours are drawn anew each round;
  round ``r`` (counted from 0) starts with seat ``r mod n``. After a round, if some
  score is at least ``target``, the highest score wins and ties are shared. Turns
  add up over rounds. Reaching ``round_cap`` rounds without a winner ends the game
  unfinished.
* **Evidence.** Every seat's public actions are summed in an evidence matrix
  ``[seat][colour]``: +1 for each prisoner of that colour the action (swap,
  advance, move; not the mandatory push) moved toward the ship, -1 for each moved
  toward the shark (falling included). It restarts with each round. Strategies see
  it; they never see another seat's colour.
* **Records.** Per game: turns, finished, rounds played, the last prisoner's colour
  (-1 if the game is unfinished) and the colours in the order they fell in the last
  round. Per seat: won, colour in the last round, score (0 outside the rounds
  variant), turns taken. Per seat and action (swap, advance, move, nothing, push):
  times done, prisoners of its own colour (in that round) it made fall, prisoners
  of other colours (or nobody's) it made fall, times offered in a choice (two
  different symbols spun, both with options) and times chosen in one; all summed
  over rounds. Per colour (rounds variant): the points its prisoners scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from balance.core.random_ref import Stream
from balance.games.la_planche.rules import (
    ACTIONS,
    COLOUR_NAMES,
    COLOURS,
    N_COLOURS,
    SYMBOLS,
    LaPlancheRules,
)

EMPTY = -1
SWAP, ADVANCE, MOVE, SKULL = range(4)
#: Actions in the records: the three symbols, "nothing" and the mandatory push.
NOTHING, PUSH = 3, 4
#: The second number of an Advance option.
NONE = -1
#: What a push moves (rule ``push``).
UNBROKEN, WHOLE = "unbroken", "whole"

Option = tuple[int, int]


@dataclass
class Position:
    """Everything public about a La Planche round in progress.

    ``line[k]`` is the colour of the prisoner on space ``k`` (0 at the ship end,
    ``spaces - 1`` over the shark), :data:`EMPTY` where there is none.
    """

    players: int
    spaces: int
    line: list[int]
    evidence: list[list[int]] = field(default_factory=list)  # [seat][colour], public
    scores: list[int] = field(default_factory=list)
    round: int = 1
    turn: int = 0  # turns played so far in this round
    push: str = UNBROKEN  # rule ``push``: what a push moves

    @classmethod
    def start(
        cls, rules: LaPlancheRules, players: int, round: int = 1, scores: Sequence[int] = ()
    ) -> Position:
        line = list(rules.start_colours) + [EMPTY] * (rules.spaces - len(rules.start_colours))
        return cls(
            players=players,
            spaces=rules.spaces,
            line=line,
            evidence=[[0] * N_COLOURS for _ in range(players)],
            scores=list(scores) or [0] * players,
            round=round,
            push=rules.push,
        )

    def copy(self) -> Position:
        return Position(
            players=self.players,
            spaces=self.spaces,
            line=self.line[:],
            evidence=[row[:] for row in self.evidence],
            scores=self.scores[:],
            round=self.round,
            turn=self.turn,
            push=self.push,
        )

    def occupied(self) -> list[int]:
        """Occupied spaces, from the ship end."""
        return [k for k, c in enumerate(self.line) if c != EMPTY]

    def prisoners(self) -> int:
        return sum(1 for c in self.line if c != EMPTY)


def show(line: Sequence[int]) -> str:
    """A line in letters: ``ship |YRGB..| shark``."""
    return "ship |" + "".join("." if c == EMPTY else COLOURS[c] for c in line) + "| shark"


# ---------------------------------------------------------------------------
# Legal options and moves
# ---------------------------------------------------------------------------


def legal_options(pos: Position, symbol: int) -> list[Option]:
    """The canonical option list of ``symbol`` (see the module docstring for the order)."""
    line, last = pos.line, pos.spaces - 1
    occupied = pos.occupied()
    if symbol == SWAP:
        return [(i, j) for i in occupied for j in occupied if i < j and line[i] != line[j]]
    if symbol == ADVANCE:
        return [(i, NONE) for i in occupied]
    if symbol == MOVE:
        options = []
        for i in occupied:
            others = [k for k in occupied if k != i]
            if not others:
                continue
            for d in (max(others) + 1, min(others) - 1):  # ahead of the front, behind the rear
                if 0 <= d <= last and d != i:
                    options.append((i, d))
        return options
    return []  # the skull


def pushed_spaces(pos: Position, space: int) -> list[int]:
    """The occupied spaces a push of the prisoner on ``space`` moves, from him forward.

    ``push = unbroken``: he and the unbroken row directly in front of him (a gap stops
    the push). ``push = whole``: he and every prisoner in front of him.
    """
    line = pos.line
    moved = [space]
    for k in range(space + 1, pos.spaces):
        if line[k] != EMPTY:
            moved.append(k)
        elif pos.push == UNBROKEN:
            break
    return moved


def push(pos: Position, space: int) -> int:
    """Push the prisoner on ``space`` one space on, with those in front of him the rule
    ``push`` moves (:func:`pushed_spaces`).

    Returns the colour of the prisoner who fell (the front one, if he stood on the last
    space), or :data:`EMPTY`.
    """
    line, last = pos.line, pos.spaces - 1
    fallen = EMPTY
    for k in reversed(pushed_spaces(pos, space)):  # the front one first
        if k == last:
            fallen = line[k]
        else:
            line[k + 1] = line[k]
        line[k] = EMPTY
    return fallen


def mandatory_push(pos: Position) -> int:
    """The push that ends every turn: the rearmost prisoner. Returns the fallen colour."""
    return push(pos, pos.occupied()[0])


def apply_option(pos: Position, symbol: int, option: Option) -> int:
    """Carry out a legal ``option`` of ``symbol``; returns the fallen colour or EMPTY."""
    line = pos.line
    a, b = option
    if symbol == SWAP:
        line[a], line[b] = line[b], line[a]
        return EMPTY
    if symbol == ADVANCE:
        return push(pos, a)
    if symbol == MOVE:
        line[b], line[a] = line[a], EMPTY
        return EMPTY
    raise ValueError(f"symbol {symbol} has no options")


def evidence_of(pos: Position, symbol: int, option: Option) -> list[int]:
    """Per colour: prisoners the option moves toward the ship (+1) minus toward the shark."""
    line = pos.line
    delta = [0] * N_COLOURS
    a, b = option
    if symbol == SWAP:
        delta[line[a]] -= 1  # a < b: the prisoner on a goes toward the shark
        delta[line[b]] += 1
    elif symbol == ADVANCE:
        for k in pushed_spaces(pos, a):
            delta[line[k]] -= 1
    elif symbol == MOVE:
        delta[line[a]] += 1 if b < a else -1
    return delta


def spin(chance: Stream, weights: Sequence[int]) -> int:
    """One spinner symbol: ``below(total)`` through the cumulative weights."""
    r = chance.below(sum(weights))
    total = 0
    for symbol, w in enumerate(weights):
        total += w
        if r < total:
            return symbol
    raise AssertionError("unreachable: r < sum(weights)")


def draw_colours(chance: Stream, players: int) -> list[int]:
    """Each seat's secret colour: a uniformly random assignment without replacement."""
    perm = list(range(N_COLOURS))
    for i in range(N_COLOURS):
        j = i + chance.below(N_COLOURS - i)
        perm[i], perm[j] = perm[j], perm[i]
    return perm[:players]


# ---------------------------------------------------------------------------
# Strategies and turns
# ---------------------------------------------------------------------------


class Player(Protocol):
    """A seat's decision maker, drawing from its own random stream."""

    def choose_symbol(
        self, pos: Position, seat: int, colour: int, first: int, second: int
    ) -> int: ...

    def choose(
        self, pos: Position, seat: int, colour: int, symbol: int, options: Sequence[Option]
    ) -> int: ...


class RandomStrategy:
    """The uniform-random player of the rules page, drawing from its seat's stream."""

    name = "random"

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def choose_symbol(self, pos: Position, seat: int, colour: int, first: int, second: int) -> int:
        return self.stream.below(2)

    def choose(
        self, pos: Position, seat: int, colour: int, symbol: int, options: Sequence[Option]
    ) -> int:
        return self.stream.below(len(options))


class IllegalChoice(Exception):
    """A strategy chose outside its options (``decision`` is "symbol" or "choose")."""

    def __init__(self, decision: str, value: int, symbol: int = -1) -> None:
        super().__init__(f"illegal {decision} decision {value}")
        self.decision, self.value, self.symbol = decision, value, symbol


@dataclass
class TurnOutcome:
    """What one turn did."""

    action: int = NOTHING  # SWAP, ADVANCE, MOVE or NOTHING
    option: Option | None = None
    fell: int = EMPTY  # colour the action made fall
    pushed: bool = False
    fell_push: int = EMPTY  # colour the mandatory push made fall
    ended: bool = False  # a single prisoner is left
    choice: bool = False  # both symbols spun differ and have options


Narrator = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def usable_symbols(pos: Position, first: int, second: int) -> list[int]:
    """The symbols the player may choose among: those spun that have options, no repeats.

    Empty when neither has an option (skulls included): then nothing happens.
    """
    spun = [first] if first == second else [first, second]
    return [s for s in spun if legal_options(pos, s)]


def play_turn(
    pos: Position,
    seat: int,
    colour: int,
    first: int,
    second: int,
    player: Player,
    narrate: Narrator = _quiet,
    forbidden: int = -1,
) -> TurnOutcome:
    """One turn of ``seat`` after the spinner showed ``first`` and ``second``.

    ``forbidden`` is a symbol the seat may never choose when it has the choice
    (restricted play), or -1: offered it beside another usable symbol, the seat plays
    the other one without being asked (no random draw).
    """
    out = TurnOutcome()
    spun = [first] if first == second else [first, second]
    options_of = {s: legal_options(pos, s) for s in spun}
    usable = [s for s in spun if options_of[s]]  # as usable_symbols() says
    if not usable:
        narrate(f"  nothing happens ({SYMBOLS[first]} and {SYMBOLS[second]})")
    else:
        symbol = usable[0]
        if len(usable) == 2:
            out.choice = True
            if forbidden in usable:
                symbol = usable[1 - usable.index(forbidden)]
                narrate(f"  may never choose {SYMBOLS[forbidden]}: plays {SYMBOLS[symbol]}")
            else:
                pick = player.choose_symbol(pos, seat, colour, first, second)
                if pick not in (0, 1):
                    raise IllegalChoice("symbol", pick)
                symbol = usable[pick]
        options = options_of[symbol]
        k = 0
        if len(options) > 1:
            k = player.choose(pos, seat, colour, symbol, options)
            if not 0 <= k < len(options):
                raise IllegalChoice("choose", k, symbol)
        option = options[k]
        delta = evidence_of(pos, symbol, option)
        for c in range(N_COLOURS):
            pos.evidence[seat][c] += delta[c]
        narrate(f"  {describe(pos, symbol, option)}")
        out.action, out.option = symbol, option
        out.fell = apply_option(pos, symbol, option)
        if out.fell != EMPTY:
            narrate(f"  a {COLOUR_NAMES[out.fell]} prisoner falls to the shark")
    if pos.prisoners() == 1:
        out.ended = True
        return out
    out.pushed = True
    out.fell_push = mandatory_push(pos)
    narrate(f"  push: {show(pos.line)}")
    if out.fell_push != EMPTY:
        narrate(f"  a {COLOUR_NAMES[out.fell_push]} prisoner falls to the shark")
    out.ended = pos.prisoners() == 1
    return out


def describe(pos: Position, symbol: int, option: Option) -> str:
    """An option in words, before it is carried out."""
    a, b = option
    name = COLOUR_NAMES[pos.line[a]]
    if symbol == SWAP:
        return f"swaps the {name} prisoner on {a} with the {COLOUR_NAMES[pos.line[b]]} on {b}"
    if symbol == ADVANCE:
        return f"advances the {name} prisoner on {a}"
    return f"moves the {name} prisoner from {a} to {b}"


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


@dataclass
class GameRecord:
    """Per-game record; the same fields as the compiled engine's record arrays."""

    turns: int
    finished: bool
    rounds: int
    last_colour: int  # -1 if unfinished
    fell: list[int]  # colours in the order they fell, last round only
    won: list[bool]
    colour: list[int]  # per seat, in the last round
    score: list[int]
    turns_taken: list[int]
    done: list[list[int]]  # [seat][action]
    fell_own: list[list[int]]
    fell_other: list[list[int]]
    offered: list[list[int]]  # [seat][action]: spun beside another usable symbol
    chosen: list[list[int]]  # [seat][action]: chosen when so offered
    colour_points: list[int]  # [colour]: rounds variant, points its prisoners scored

    @property
    def falls(self) -> int:
        """Prisoners fallen in the last round."""
        return len(self.fell)


def play_game(
    rules: LaPlancheRules,
    players: int,
    seed: int,
    game: int,
    narrate: Narrator = _quiet,
    make_player: Callable[[int, Stream], Player] | None = None,
    forbidden: Sequence[int] = (),
    watch: Callable[[Position, Sequence[int]], None] | None = None,
) -> GameRecord:
    """Play game number ``game`` of the run seeded ``seed``.

    ``make_player(seat, stream)`` gives each seat its decision maker; by default every
    seat is uniform-random. ``forbidden`` holds, per seat, a symbol that seat may never
    choose when it has the choice (restricted play), or -1; empty means none.
    ``watch(pos, colours)``, if given, sees the position after every turn with the
    seats' colours in this round (it must not change them).
    """
    n = players
    chance = Stream(seed, game, 0)
    make_player = make_player or (lambda seat, stream: RandomStrategy(stream))
    strategies = [make_player(s, Stream(seed, game, 1 + s)) for s in range(n)]
    weights = rules.spinner_weights

    zeros = lambda: [[0] * len(ACTIONS) for _ in range(n)]  # noqa: E731
    done, fell_own, fell_other = zeros(), zeros(), zeros()
    offered, chosen = zeros(), zeros()
    colour_points = [0] * N_COLOURS
    forbidden = list(forbidden) or [-1] * n
    scores = [0] * n
    turns_taken = [0] * n
    turns = 0
    round = 0
    finished = False
    won = [False] * n
    last_colour = EMPTY

    while True:
        round += 1
        colours = draw_colours(chance, n)
        owner = [-1] * N_COLOURS
        for s, c in enumerate(colours):
            owner[c] = s
        pos = Position.start(rules, n, round, scores)
        fell: list[int] = []
        first_seat = (round - 1) % n
        narrate(
            (f"Round {round}, " if rules.rounds else "")
            + "colours: "
            + ", ".join(f"seat {s} {COLOUR_NAMES[c]}" for s, c in enumerate(colours))
        )
        narrate(f"  {show(pos.line)}")

        ended = False
        while not ended and pos.turn < rules.turn_cap:
            seat = (first_seat + pos.turn) % n
            pos.turn += 1
            turns += 1
            turns_taken[seat] += 1
            first, second = spin(chance, weights), spin(chance, weights)
            narrate(
                f"Turn {pos.turn}: seat {seat} ({COLOUR_NAMES[colours[seat]]}) spins "
                f"{SYMBOLS[first]} and {SYMBOLS[second]}"
            )
            out = play_turn(
                pos, seat, colours[seat], first, second, strategies[seat], narrate, forbidden[seat]
            )
            done[seat][out.action] += 1
            if out.choice:
                offered[seat][first] += 1
                offered[seat][second] += 1
                chosen[seat][out.action] += 1
            for action, colour in ((out.action, out.fell), (PUSH, out.fell_push)):
                if colour != EMPTY:
                    fell.append(colour)
                    if colour == colours[seat]:
                        fell_own[seat][action] += 1
                    else:
                        fell_other[seat][action] += 1
            if out.pushed:
                done[seat][PUSH] += 1
            ended = out.ended
            if watch is not None:
                watch(pos, colours)

        if not ended:
            narrate(f"Turn cap of {rules.turn_cap} reached: the game ends unfinished")
            break
        last = pos.line[pos.occupied()[0]]
        if not rules.rounds:
            finished = True
            last_colour = last
            won = [c == last for c in colours]
            break
        for colour, points in zip((last, fell[-1], fell[-2]), rules.points, strict=True):
            colour_points[colour] += points
            if owner[colour] >= 0:
                scores[owner[colour]] += points
        narrate(f"Round {round} ends, the last is {COLOUR_NAMES[last]}; scores {scores}")
        best = max(scores)
        if best >= rules.target:
            finished = True
            last_colour = last
            won = [x == best for x in scores]
            break
        if round >= rules.round_cap:
            narrate(f"Round cap of {rules.round_cap} reached: the game ends unfinished")
            break

    if finished:
        winners = [s for s in range(n) if won[s]]
        narrate(
            f"Game over after {turns} turns: "
            + (", ".join(f"seat {s}" for s in winners) + " wins" if winners else "nobody wins")
        )
    return GameRecord(
        turns=turns,
        finished=finished,
        rounds=round,
        last_colour=last_colour,
        fell=fell,
        won=won,
        colour=colours,
        score=scores if rules.rounds else [0] * n,
        turns_taken=turns_taken,
        done=done,
        fell_own=fell_own,
        fell_other=fell_other,
        offered=offered,
        chosen=chosen,
        colour_points=colour_points,
    )
