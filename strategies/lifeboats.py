"""The Lifeboats strategies that ship with balance.

This file is written exactly like a user's strategy file: ``--strategy
strategies/lifeboats.py:steward`` loads it by path. Shipped strategies also carry a
``code`` so that the compiled game loop, cached on disk, can call them without
compiling anything per run.

A Lifeboats strategy is one ``@njit`` function ``decide(obs, seat, kind, options, count,
params, rng) -> int`` that answers every kind of decision (see
:mod:`balance.games.lifeboats.layout` for ``obs`` and the kinds): it returns an index in
``0..count - 1`` into ``options``. It is only asked when ``count >= 2``.
"""

from numba import njit

from balance.random_nb import below_nb
from balance.strategy import Strategy

GAME = "lifeboats"


# --- random: the rules page's uniform-random player -------------------------------------


@njit(inline="always", cache=True)
def random_decide(obs, seat, kind, options, count, params, rng):
    return below_nb(rng, count)


random = Strategy(
    GAME,
    "random",
    "Picks uniformly among the legal options of every decision (the rules page's player).",
    {"decide": random_decide},
    code=0,
)

SHIPPED = (random,)
