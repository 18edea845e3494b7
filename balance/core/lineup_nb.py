"""The compiled step a game loop takes at the start of each game: seat its table.

A run's line-up reaches a game loop as ``codes`` int64 ``(K,)`` and ``params`` float64
``(K, P)``, one row per strategy, and ``seats_of`` int64 ``(R, n + ...)``: game ``i``
seats strategy ``seats_of[i % R, s]`` in seat ``s`` (columns after ``n`` hold what the game
adds per seat, such as what restricted play forbids it).
"""

from __future__ import annotations

from balance.core.compile_cache import njit


@njit(inline="always")
def seat_lineup_nb(game, codes, params, seats_of, n, seat_codes, seat_params):
    """Seat game ``game``'s table: ``seat_codes`` int64 ``(n,)`` and ``seat_params``
    float64 ``(n, P)`` get each seat's strategy code and parameters. Returns the game's row
    of ``seats_of``."""
    row = seats_of[game % seats_of.shape[0]]
    width = min(params.shape[1], seat_params.shape[1])
    for s in range(n):
        seat_codes[s] = codes[row[s]]
        for k in range(width):
            seat_params[s, k] = params[row[s], k]
    return row
