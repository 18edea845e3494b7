r"""My La Planche strategy: edit the functions, then run

    balance strategy check mine.py:mine --game la-planche
    balance simulate la-planche -p 4 --rotate-seats --strategy mine.py:mine \
        --strategy random --strategy random --strategy random

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside a function (it then
runs as plain Python).
"""

from balance.games.la_planche.kit import SKULL, State, below_nb, njit
from balance.strategy import Strategy


@njit
def symbol(obs, seat, colour, first, second, params, rng):
    """Return 0 to play the symbol ``first``, 1 to play ``second``."""
    if first == SKULL and obs[1][State.LEFT + colour] > 1:
        return 1  # keep my own colour's prisoners away from the skull while I can
    return below_nb(rng, 2)


@njit
def choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    """Return the index (0 to count-1) of the option of ``symbol`` to play."""
    return below_nb(rng, count)


mine = Strategy(
    game="la-planche",
    name="mine",
    description="Avoids the skull while its colour has prisoners left; otherwise random.",
    decisions={"symbol": symbol, "choose": choose},
)
