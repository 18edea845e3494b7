r"""My Lifeboats strategy: edit the function, then run

    balance strategy check mine.py:mine --game lifeboats
    balance simulate lifeboats -p 4 --rotate-seats --strategy mine.py:mine \
        --strategy random --strategy random --strategy random

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside the function (it then
runs as plain Python).
"""

from balance.games.lifeboats.kit import (
    HAT,
    LEAK_VOTE,
    MOVE_VOTE,
    NEVER,
    below_nb,
    fill_chances_nb,
    fill_own_values_nb,
    is_ballot_nb,
    njit,
    option_value_nb,
)
from balance.strategy import Strategy


@njit
def decide(obs, seat, kind, options, count, params, rng):
    """Return the index (0 to count-1) of the option to take in a decision of ``kind``:
    here, in a vote, the outcome worth most points to me, never a hat; any other decision
    at random."""
    if not is_ballot_nb(kind):
        return below_nb(rng, count)
    fill_chances_nb(obs, kind)  # the kit's tables that the values below read
    if kind in (LEAK_VOTE, MOVE_VOTE):
        fill_own_values_nb(obs, kind, options, count)
    best, best_value = 0, NEVER
    for k in range(count):
        if options[k] != HAT:
            value = option_value_nb(obs, seat, kind, options, k)
            if value > best_value:
                best, best_value = k, value
    return best


mine = Strategy(
    game="lifeboats",
    name="mine",
    description="Votes for the outcome worth most points to it, never with a hat; "
    "places, moves and swims at random.",
    decisions={"decide": decide},
)
