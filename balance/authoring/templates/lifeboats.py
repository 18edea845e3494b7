r"""My Lifeboats strategy: edit the function, then run

    balance strategy check mine.py:mine --game lifeboats
    balance simulate lifeboats -p 4 --rotate-seats --strategy mine.py:mine \
        --strategy random --strategy random --strategy random

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside the function (it then
runs as plain Python).
"""

from balance.games.lifeboats.kit import HAT, below_nb, njit
from balance.strategy import Strategy


@njit
def decide(obs, seat, kind, options, count, params, rng):
    """Return the index (0 to count-1) of the option to take in a decision of ``kind``."""
    others = 0  # options other than playing a hat
    for k in range(count):
        if options[k] != HAT:
            others += 1
    if others == 0:
        return below_nb(rng, count)
    pick = below_nb(rng, others)  # never plays a hat while it has another choice
    for k in range(count):
        if options[k] != HAT:
            if pick == 0:
                return k
            pick -= 1
    return 0


mine = Strategy(
    game="lifeboats",
    name="mine",
    description="Votes and moves at random, and never plays a hat.",
    decisions={"decide": decide},
)
