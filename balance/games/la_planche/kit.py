"""What a La Planche strategy is made of: the decision signatures and compiled helpers.

A strategy is two ``@njit`` functions, one per kind of decision, and a
:class:`~balance.core.strategy.Strategy` that names them. They receive only what their
player may know: the public position, the public evidence, their own colour and
their own random stream. Other seats' colours are never passed.

``obs`` is a tuple ``(line, state, rules, n, evidence, scratch_a, scratch_b, scratch_line,
scratch_state, scratch_value)``:

* ``line`` int64 ``(LINE_SIZE,)``: colour on each space (0 = ship end), ``EMPTY`` (-1) if
  none; the plank is spaces ``0..rules[Rule.SPACES] - 1``
* ``state`` int64 ``(State.SIZE,)``: ``State.PRISONERS`` left, ``State.LEFT + c`` of colour
  ``c``, ``State.ROUND``, ``State.TURN``, ``State.FIRST_SEAT``, ``State.SCORE + s``
* ``rules`` int64 ``(Rule.SIZE,)``: the rule parameters
* ``n``: number of players
* ``evidence`` int64 ``(n, 4)``: per seat and colour, prisoners of that colour the seat's
  actions (this round) moved toward the ship minus those moved toward the shark
* ``scratch_a``, ``scratch_b`` int64 ``(MAX_OPTIONS,)``, ``scratch_line`` int64
  ``(LINE_SIZE,)``, ``scratch_state`` int64 ``(State.SIZE,)``, ``scratch_value`` float64
  ``(4,)``: buffers the strategy may use (the game loop allocates nothing)

The decisions (``colour`` is the seat's own colour, ``params`` its float64 parameter
vector, ``rng`` its stream):

``symbol(obs, seat, colour, first, second, params, rng) -> int``
    0 to play ``first``, 1 to play ``second`` (two different symbols, both with options)
``choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng) -> int``
    pick one of ``count >= 2`` options of ``symbol`` (``opt_a[k]``, ``opt_b[k]``)

Any other answer stops the run with an error naming the strategy.
"""

import math

from balance.core.compile_cache import njit
from balance.core.random_nb import below_nb
from balance.core.search_nb import offer_nb
from balance.games.la_planche.moves_nb import (
    ADVANCE,
    EMPTY,
    LINE_SIZE,
    MAX_OPTIONS,
    MOVE,
    NONE,
    SKULL,
    SWAP,
    State,
    apply_option_nb,
    count_options_nb,
    legal_options_nb,
    mandatory_push_nb,
)
from balance.games.la_planche.rules import N_COLOURS, Rule

__all__ = [
    "ADVANCE",
    "EMPTY",
    "LINE_SIZE",
    "MAX_OPTIONS",
    "MOVE",
    "NONE",
    "N_COLOURS",
    "SKULL",
    "SWAP",
    "Rule",
    "State",
    "apply_option_nb",
    "below_nb",
    "best_option_nb",
    "best_symbol_nb",
    "copy_into_nb",
    "count_options_nb",
    "detective_values_nb",
    "evaluate_option_nb",
    "legal_options_nb",
    "njit",
]


@njit(cache=True)
def copy_into_nb(target, source):
    """Copy ``source`` into ``target`` (at least as long), e.g. the line into a scratch
    buffer; writes ``target``. numba compiles ``target[:] = source`` anew in every run
    (about a second and a half); this is compiled once and kept on disk."""
    if target.shape[0] < source.shape[0]:
        raise IndexError("copy_into_nb: the target is shorter than the source")
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(inline="always", cache=True)
def line_value_nb(line, state, spaces, values, alive, win):
    """Sum over prisoners of ``values[colour] * (alive + spaces - space)``.

    A prisoner is worth ``alive`` for being on the plank and one for every space between
    him and the shark; the last prisoner left is worth ``win`` more.
    """
    total = 0.0
    for k in range(spaces):
        c = line[k]
        if c != EMPTY:
            total += values[c] * (alive + spaces - k)
            if state[State.PRISONERS] == 1:
                total += values[c] * win
    return total


@njit(inline="always", cache=True)
def evaluate_option_nb(obs, symbol, a, b, values, alive, win):
    """:func:`line_value_nb` after the option and the mandatory push that follows it."""
    line, state, rules = obs[0], obs[1], obs[2]
    after, after_state = obs[7], obs[8]
    spaces = rules[Rule.SPACES]
    for k in range(spaces):
        after[k] = line[k]
    for k in range(State.SIZE):
        after_state[k] = state[k]
    apply_option_nb(after, after_state, rules, symbol, a, b)
    if after_state[State.PRISONERS] > 1:
        mandatory_push_nb(after, after_state, rules)
    return line_value_nb(after, after_state, spaces, values, alive, win)


@njit(inline="always", cache=True)
def best_option_nb(obs, symbol, opt_a, opt_b, count, values, alive, win, rng):
    """Index of the option with the highest evaluation; ties drawn at random."""
    best = 0
    top = -1e300
    ties = 0
    for k in range(count):
        value = evaluate_option_nb(obs, symbol, opt_a[k], opt_b[k], values, alive, win)
        taken, top, ties = offer_nb(value, top, ties, rng, 1e-9)
        if taken:
            best = k
    return best


@njit(inline="always", cache=True)
def _best_value_nb(obs, symbol, values, alive, win):
    line, state, rules = obs[0], obs[1], obs[2]
    opt_a, opt_b = obs[5], obs[6]
    count = legal_options_nb(line, state, rules, symbol, opt_a, opt_b)
    best = -1e300
    for k in range(count):
        value = evaluate_option_nb(obs, symbol, opt_a[k], opt_b[k], values, alive, win)
        if value > best:
            best = value
    return best


@njit(inline="always", cache=True)
def best_symbol_nb(obs, first, second, values, alive, win, rng):
    """0 or 1: the symbol whose best option evaluates higher; a tie drawn at random."""
    one = _best_value_nb(obs, first, values, alive, win)
    two = _best_value_nb(obs, second, values, alive, win)
    if one > two + 1e-9:
        return 0
    if two > one + 1e-9:
        return 1
    return below_nb(rng, 2)


@njit(inline="always", cache=True)
def detective_values_nb(obs, seat, colour, own, other, sharpness, values):
    """Fill ``values`` (float64 ``(4,)``) with the worth to ``seat`` of each colour's prisoners.

    Its own colour is worth ``own``. Each other seat is believed to own colour ``c`` with
    probability proportional to ``exp(sharpness * evidence[seat, c])`` among the colours
    that are not ``seat``'s own; a colour is worth ``-other`` times the believed number of
    opponents owning it (at most one).
    """
    evidence, n = obs[4], obs[3]
    for c in range(N_COLOURS):
        values[c] = 0.0
    for q in range(n):
        if q == seat:
            continue
        top = -1e300
        for c in range(N_COLOURS):
            if c != colour and evidence[q, c] > top:
                top = evidence[q, c]
        total = 0.0
        for c in range(N_COLOURS):
            if c != colour:
                total += math.exp(sharpness * (evidence[q, c] - top))
        for c in range(N_COLOURS):
            if c != colour:
                values[c] += math.exp(sharpness * (evidence[q, c] - top)) / total
    for c in range(N_COLOURS):
        if c == colour:
            values[c] = own
        else:
            values[c] = -other * min(values[c], 1.0)
