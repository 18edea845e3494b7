"""My Battle of Thieves strategy: edit the function, then run

    balance strategy check mine.py:mine --game battle-of-thieves
    balance simulate battle-of-thieves --strategy mine.py:mine --strategy random --rotate-seats

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside the function (it then
runs as plain Python).
"""

from numba import njit

from balance.games.battle_of_thieves.kit import below_nb
from balance.games.battle_of_thieves.layout import FIRE
from balance.strategy import Strategy


@njit
def decide(view, options, count, seat, params, rng):
    """Return the index (0 to count-1) of the row of ``options`` to take."""
    for k in range(count):
        if options[k, 0] == FIRE:  # fire whenever a cannon can
            return k
    return below_nb(rng, count)


mine = Strategy(
    game="battle-of-thieves",
    name="mine",
    description="Fires whenever it can; otherwise picks at random.",
    decisions={"decide": decide},
)
