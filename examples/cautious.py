"""A Walk the Plank strategy of your own: run it with

    balance simulate walk-the-plank --players 3 --rotate-seats \
        --strategy examples/cautious.py:cautious --strategy random --strategy greedy

It programs I Don't Want to Die whenever it holds it, otherwise picks cards at random,
and always takes the option that leaves its own pirates farthest from the Locker.
"""

import numpy as np

from balance.games.walk_the_plank.kit import (
    Card,
    below_nb,
    best_option_nb,
    kth_card_nb,
    njit,
)
from balance.strategy import Strategy

# Weights of the one-step evaluator: own alive, own safety, others alive, others safety, leader.
CAREFUL = np.array([10.0, 2.0, 1.0, 0.2, 0.0])


@njit
def program(obs, seat, available, params, rng, out):
    """Three distinct cards from the bit mask ``available``, written into ``out``."""
    for slot in range(3):
        if slot == 0 and (available >> Card.NOT_ME) & 1:
            card = Card.NOT_ME
        else:
            count = 0
            for c in range(10):
                count += (available >> c) & 1
            card = kth_card_nb(available, below_nb(rng, count))
        out[slot] = card
        available &= ~(1 << card)


@njit
def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    """Index of the option to play, among ``count`` options."""
    return best_option_nb(obs, seat, card, opt_tile, opt_arg, count, CAREFUL, rng)


cautious = Strategy(
    game="walk-the-plank",
    name="cautious",
    description="Retreats first with I Don't Want to Die, then plays safe.",
    decisions={"program": program, "choose": choose},
)
