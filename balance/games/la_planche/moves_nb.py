"""La Planche's moves in compiled code: the line, legal options, pushes.

Pure ``@njit`` functions over small integer arrays, shared by the game loop
(:mod:`.engine_nb`) and by strategies that look one move ahead. The rules are those
of :mod:`.reference`, which says them in readable Python (option order included).

Shapes used throughout:

* ``line``   int64 ``(SPACES_LIMIT,)``: colour on each space (0 = ship end), ``EMPTY`` if none;
  only spaces ``0..rules[Rule.SPACES] - 1`` are on the plank
* ``state``  int64 ``(State.SIZE,)``: prisoners left, per colour, round, turn, scores
* ``rules``  int64 ``(Rule.SIZE,)``: the packed :class:`LaPlancheRules`
"""

from typing import NamedTuple

import numpy as np

from balance.core.compile_cache import njit
from balance.games.la_planche.rules import N_COLOURS, SPACES_LIMIT, Rule


class StateSlots(NamedTuple):
    PRISONERS: int = 0  # prisoners on the plank
    LEFT: int = 1  # LEFT + c: prisoners of colour c on the plank
    ROUND: int = 5  # 1 for the first round
    TURN: int = 6  # turns played in this round, the current one included
    FIRST_SEAT: int = 7  # the seat that played first in this round
    SCORE: int = 8  # SCORE + s: seat s's score (rounds variant)
    SIZE: int = 12


State = StateSlots()

EMPTY = -1
NONE = -1
SWAP = 0
ADVANCE = 1
MOVE = 2
SKULL = 3
NOTHING = 3
PUSH = 4
N_ACTIONS = 5
#: Swap pairs are the most options: 16 prisoners, C(16, 2) = 120.
MAX_OPTIONS = 128
#: Falls in a round: every prisoner but one.
MAX_FALLS = 15
LINE_SIZE = SPACES_LIMIT


@njit(inline="always", cache=True)
def rear_nb(line, spaces):
    """The lowest occupied space (the rearmost prisoner); -1 if the plank is empty."""
    for k in range(spaces):
        if line[k] != EMPTY:
            return k
    return -1


@njit(inline="always", cache=True)
def push_nb(line, state, rules, space):
    """Push the prisoner on ``space`` one space on, with the prisoners in front of him.

    Under ``push = unbroken`` (``rules[Rule.PUSH] == 0``) those are the unbroken row
    directly in front of him; under ``push = whole`` every prisoner in front of him, gaps
    kept. Returns the colour that fell (the front prisoner, if he stood on the last space)
    or EMPTY.
    """
    spaces = rules[Rule.SPACES]
    last = spaces - 1
    front = space
    if rules[Rule.PUSH] == 1:
        for k in range(space + 1, spaces):
            if line[k] != EMPTY:
                front = k
    else:
        while front < last and line[front + 1] != EMPTY:
            front += 1
    fallen = EMPTY
    if front == last:
        fallen = line[last]
        line[last] = EMPTY
        front -= 1
        state[State.PRISONERS] -= 1
        state[State.LEFT + fallen] -= 1
    for k in range(front + 1, space, -1):  # spaces space..front move on by one, gaps kept
        line[k] = line[k - 1]
    line[space] = EMPTY
    return fallen


@njit(inline="always", cache=True)
def mandatory_push_nb(line, state, rules):
    """The push that ends every turn: the rearmost prisoner. Returns the fallen colour."""
    return push_nb(line, state, rules, rear_nb(line, rules[Rule.SPACES]))


@njit(inline="always", cache=True)
def apply_option_nb(line, state, rules, symbol, a, b):
    """Carry out the legal option ``(a, b)`` of ``symbol``; returns the fallen colour or EMPTY."""
    if symbol == SWAP:
        c = line[a]
        line[a] = line[b]
        line[b] = c
        return EMPTY
    if symbol == ADVANCE:
        return push_nb(line, state, rules, a)
    line[b] = line[a]  # MOVE
    line[a] = EMPTY
    return EMPTY


@njit(inline="always", cache=True)
def _extremes_nb(line, spaces):
    """The two lowest and the two highest occupied spaces (at least two prisoners)."""
    r1 = -1
    r2 = -1
    for k in range(spaces):
        if line[k] != EMPTY:
            if r1 < 0:
                r1 = k
            else:
                r2 = k
                break
    t1 = -1
    t2 = -1
    for k in range(spaces - 1, -1, -1):
        if line[k] != EMPTY:
            if t1 < 0:
                t1 = k
            else:
                t2 = k
                break
    return r1, r2, t2, t1


@njit(inline="always", cache=True)
def count_options_nb(line, state, rules, symbol):
    """How many options ``symbol`` has, without listing them."""
    n = state[State.PRISONERS]
    if symbol == SWAP:
        total = n * (n - 1) // 2
        for c in range(N_COLOURS):
            left = state[State.LEFT + c]
            total -= left * (left - 1) // 2
        return total
    if symbol == ADVANCE:
        return n
    if symbol == MOVE:
        if n < 2:
            return 0
        spaces = rules[Rule.SPACES]
        r1, r2, t2, t1 = _extremes_nb(line, spaces)
        # Any prisoner but the front one may go ahead of the front (if there is room), the
        # front one ahead of the next (if there is a gap); the same behind the rear.
        total = 0
        if t1 + 1 <= spaces - 1:
            total += n - 1
        if t2 + 1 != t1:
            total += 1
        if r1 >= 1:
            total += n - 1
        if r2 - 1 != r1:
            total += 1
        return total
    return 0


@njit(inline="always", cache=True)
def legal_options_nb(line, state, rules, symbol, opt_a, opt_b):
    """Fill ``opt_a``/``opt_b`` (int64, ``(MAX_OPTIONS,)``) with the canonical options.

    Swap ``(i, j)``, Advance ``(i, NONE)``, Move ``(i, destination)``; returns the count.
    """
    spaces = rules[Rule.SPACES]
    # An int64 from the start: a plain 0 is typed as the constant 0 on the way to the
    # loop's type, and numba would compile the strategies that get the count for it too.
    count = np.int64(0)
    if symbol == SWAP:
        for i in range(spaces):
            ci = line[i]
            if ci == EMPTY:
                continue
            for j in range(i + 1, spaces):
                cj = line[j]
                if cj != EMPTY and cj != ci:
                    opt_a[count] = i
                    opt_b[count] = j
                    count += 1
        return count
    if symbol == ADVANCE:
        for i in range(spaces):
            if line[i] != EMPTY:
                opt_a[count] = i
                opt_b[count] = NONE
                count += 1
        return count
    if symbol == MOVE:
        if state[State.PRISONERS] < 2:
            return count  # none
        r1, r2, t2, t1 = _extremes_nb(line, spaces)
        for i in range(spaces):
            if line[i] == EMPTY:
                continue
            ahead = t1 + 1 if i != t1 else t2 + 1
            behind = r1 - 1 if i != r1 else r2 - 1
            if ahead <= spaces - 1 and ahead != i:
                opt_a[count] = i
                opt_b[count] = ahead
                count += 1
            if behind >= 0 and behind != i:
                opt_a[count] = i
                opt_b[count] = behind
                count += 1
        return count
    return count


@njit(inline="always", cache=True)
def evidence_nb(line, rules, row, symbol, a, b):
    """Add to ``row`` (int64 ``(4,)``, one seat's evidence) what the option shows.

    +1 per prisoner of a colour moved toward the ship, -1 per prisoner toward the shark;
    call it before :func:`apply_option_nb`.
    """
    if symbol == SWAP:
        row[line[a]] -= 1
        row[line[b]] += 1
    elif symbol == ADVANCE:
        whole = rules[Rule.PUSH] == 1
        for k in range(a, rules[Rule.SPACES]):
            if line[k] != EMPTY:
                row[line[k]] -= 1
            elif not whole:
                break
    elif symbol == MOVE:
        if b < a:
            row[line[a]] += 1
        else:
            row[line[a]] -= 1


@njit(inline="always", cache=True)
def start_line_nb(line, state, rules):
    """The opening line of a round: the start order on spaces 0..15, the rest empty."""
    line[:] = EMPTY
    for k in range(N_COLOURS * 4):
        line[k] = rules[Rule.START + k]
    state[State.PRISONERS] = N_COLOURS * 4
    for c in range(N_COLOURS):
        state[State.LEFT + c] = 4
