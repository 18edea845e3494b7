r"""My Walk the Plank strategy: edit the functions, then run

    balance strategy check mine.py:mine --game walk-the-plank
    balance simulate walk-the-plank -p 3 --rotate-seats --strategy mine.py:mine \
        --strategy random --strategy random

Give --strategy once per seat, or once for every seat. docs/strategies.md says what every
argument holds. Run with --debug to print() or set a breakpoint inside a function (it then
runs as plain Python).
"""

import numpy as np

from balance.games.walk_the_plank.kit import Card, below_nb, best_option_nb, kth_card_nb, njit
from balance.strategy import Strategy

# Weights of the one-step evaluator (kit.Weight): own alive, own safety, others alive,
# others safety, leader.
WEIGHTS = np.array([10.0, 2.0, 1.0, 0.2, 0.0])


@njit
def program(obs, seat, available, params, rng, out):
    """Write three distinct cards from the bit mask ``available`` into ``out``."""
    for slot in range(3):
        if slot == 0 and (available >> Card.NOT_ME) & 1:
            card = Card.NOT_ME  # retreat first when I can
        else:
            count = 0
            for c in range(10):
                count += (available >> c) & 1
            card = kth_card_nb(available, below_nb(rng, count))
        out[slot] = card
        available &= ~(1 << card)


@njit
def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    """Return the index (0 to count-1) of the option of ``card`` to play."""
    return best_option_nb(obs, seat, card, opt_tile, opt_arg, count, WEIGHTS, rng)


@njit
def push(obs, seat, opt_tile, opt_arg, count, params, rng):
    """Dolphin die: return the index of the pirate to push, or count-1 to stop."""
    return below_nb(rng, count)


mine = Strategy(
    game="walk-the-plank",
    name="mine",
    description="Retreats first with I Don't Want to Die, then plays safe.",
    decisions={"program": program, "choose": choose, "push": push},
)
