r"""My La Planche strategy: edit the functions, then run

    balance strategy check mine.py:mine --game la-planche
    balance simulate la-planche -p 4 --rotate-seats --strategy mine.py:mine \
        --strategy random --strategy random --strategy random

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside a function (it then
runs as plain Python).
"""

from balance.games.la_planche.kit import Rule, apply_option_nb, below_nb, copy_into_nb, njit
from balance.strategy import Strategy


@njit
def symbol(obs, seat, colour, first, second, params, rng):
    """Return 0 to play the symbol ``first``, 1 to play ``second`` (asked only when both
    have options: never about the skull, which has none)."""
    return below_nb(rng, 2)


@njit
def choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    """Return the index (0 to count-1) of the option of ``symbol`` to play: here the one
    after which my colour's prisoners stand nearest the ship (space 0), none fallen."""
    line, state, rules = obs[0], obs[1], obs[2]
    after, after_state = obs[7], obs[8]  # scratch copies: never change line or state
    best, best_danger = 0, 1 << 30
    for k in range(count):
        copy_into_nb(after, line)
        copy_into_nb(after_state, state)
        fallen = apply_option_nb(after, after_state, rules, symbol, opt_a[k], opt_b[k])
        danger = 1000 if fallen == colour else 0
        for space in range(rules[Rule.SPACES]):
            if after[space] == colour:
                danger += space
        if danger < best_danger:
            best, best_danger = k, danger
    return best


mine = Strategy(
    game="la-planche",
    name="mine",
    description=(
        "Plays the option that keeps its colour's prisoners nearest the ship; "
        "picks the symbol at random."
    ),
    decisions={"symbol": symbol, "choose": choose},
)
