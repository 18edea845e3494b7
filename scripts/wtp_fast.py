"""Walk the Plank, base rules, 2-5 uniform-random players: as fast as one file can play it.

A yardstick for ``scripts/bench.py``, not part of balance (the library never imports
it): the same rules as ``docs/walk-the-plank.md`` with its default rule parameters
(3 pirates each, a plank of 1..3 tiles starting at 3, the default rest set, a 100-round
cap) and no variants, played by uniform-random players with every speed trick in
``shared`` design notes and nothing else: a xoshiro256** stream held in four local
words and drawn with Lemire's bounded integers, no allocation, no per-card records,
and the whole board in one 64-bit word.

The board word holds, for every tile ``t`` (0 is the ship) and seat ``q``, the number
of ``q``'s living pirates on ``t`` (0..3) in the two bits ``16 t + 2 q``. Moving a
pirate is one subtraction and one addition; who is where, who has two, how many
pirates each seat has left are a few masks, shifts and one multiplication. The legal
options of a card are a bit mask in the same layout (a seat's option on tile ``t`` is
bit ``16 t + 2 q``; directions, distances and Charge's lone option are bits 10..12 of
the tile's field), and the uniform-random player picks "the k-th set bit".

Each game draws from one stream seeded by splitmix64 from ``(seed, game index)``, so
its games are not balance's games: they follow the same rules, and the test suite
(``tests/walk_the_plank/test_fast_reference.py``) checks that seat win rates and game
lengths agree with balance's within sampling noise.

    python scripts/wtp_fast.py --players 5 --games 1000000
"""

# numba code compares integers one by one, as balance's *_nb.py modules do:
# ruff: noqa: SIM109

from __future__ import annotations

import argparse
import time

import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.extending import intrinsic

# Default rules (docs/walk-the-plank.md, "Rule parameters").
PIRATES = 3
PLANK_START = 3
PLANK_MIN = 1
PLANK_MAX = 3
ROUND_CAP = 100
SHOVE_LEFT, SHOVE_RIGHT, SHOVE_ANYONE, EXTEND, RETRACT = 0, 1, 2, 3, 4
DRAG, PULL, RUN, NOT_ME, CHARGE = 5, 6, 7, 8, 9
#: Shove Anyone, Retract Plank, Drag to Sea and I Don't Want to Die rest.
REST = (1 << SHOVE_ANYONE) | (1 << RETRACT) | (1 << DRAG) | (1 << NOT_ME)
ALL_CARDS = (1 << 10) - 1

#: Bit 0 of every tile's 16-bit field (tiles 0..3).
TILE = 0x0001_0001_0001_0001
#: Low bit of every seat's 2-bit count, every tile; the high bit.
LOW = 0x0155 * TILE
HIGH = 0x02AA * TILE
#: Extra option bits of a tile's field: Run toward the ship / I Don't Want to Die one
#: step (bit 10), Run toward the sea / two steps (11), Charge's lone option (12).
X1, X2, ALONE = 10, 11, 12

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@intrinsic
def _popcount(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _lowest_bit(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@njit(inline="always")
def _mix(z):
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@njit(inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always")
def _below(n, s0, s1, s2, s3):
    """A uniform integer in ``[0, n)`` and the stream's next state (Lemire, unbiased)."""
    bound = uint64(n)
    while True:
        out = _rotl(s1 * uint64(5), 7) * uint64(9)
        t = s1 << uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        m = (out >> uint64(32)) * bound
        low = m & _LOW32
        # The division only when the low word is small (rarely): it costs more than a draw.
        if low >= bound or low >= (uint64(0x100000000) - bound) % bound:
            return np.int64(m >> uint64(32)), s0, s1, s2, s3


@njit(inline="always")
def _kth_bit(mask, k):
    for _ in range(k):
        mask &= mask - 1
    return _lowest_bit(mask)


@njit(inline="always")
def _one(t, q):
    """One pirate of seat ``q`` on tile ``t``, as a count to add to the board."""
    return np.int64(1) << (16 * t + 2 * q)


@njit(inline="always")
def _seaward(board, t, q, plank):
    """Seat ``q``'s pirate on ``t`` steps toward the Locker: the board, and 1 if it fell."""
    if t == plank:
        return board - _one(t, q), 1
    return board - _one(t, q) + _one(t + 1, q), 0


@njit(inline="always")
def _left_of(board, seat):
    """Pirates left per seat ``seat``: the four tile fields of its count, summed."""
    return (((board >> (2 * seat)) & (3 * TILE)) * TILE) >> 48


@njit(inline="always")
def _options(board, seat, card, slot, plank, n):
    """The legal options of ``card`` for ``seat`` as a bit mask (see the module docstring)."""
    occupied = (board | (board >> 1)) & LOW  # bit 16 t + 2 q: q has a pirate on t
    pairs = (board >> 1) & LOW  # two or more (counts are at most 3)
    me = TILE << (2 * seat)
    mine = (occupied >> (2 * seat)) & TILE  # bit 16 t: you have a pirate on t
    with_mine = mine * 0x3FF
    if card == SHOVE_LEFT or card == SHOVE_RIGHT:
        step = 1 if card == SHOVE_LEFT else n - 1
        q = seat
        for _ in range(n - 1):
            q += step
            if q >= n:
                q -= n
            if _left_of(board, q) > 0:
                return occupied & with_mine & (TILE << (2 * q))
        return 0
    if card == SHOVE_ANYONE:
        others = occupied & with_mine & ~me
        return others if others else pairs & me
    if card == EXTEND:
        return 1 if plank < PLANK_MAX else 0
    if card == RETRACT:
        return 1 if plank > PLANK_MIN else 0
    if card == DRAG or card == PULL:
        victims = (occupied & with_mine & ~me) | (pairs & me)
        return victims & ~0xFFFF if card == PULL else victims
    if card == RUN:
        return ((mine & ~1) << X1) | (mine << X2)
    if card == NOT_ME:
        return ((mine & ~1) << X1) | ((mine & ~0x1_FFFF) << X2)
    if slot == 0:  # Charge has no effect as the first card
        return 0
    others = occupied & ~me
    victims = (others >> 16) & with_mine  # others on t + 1, seen from t
    # Each tile of yours with no other player on t + 1 (or the last tile: jump): one option.
    # A field (at most 0x3FF) plus 0x7FFF carries into its bit 15 unless it is 0.
    crowded = ((victims + 0x7FFF * TILE) >> 15) & TILE
    return victims | ((mine & ~crowded) << ALONE)


@njit(inline="always")
def _resolve(board, seat, card, bit, plank):
    """Carry out option ``bit`` of ``card``: the board, the plank and how many fell."""
    t = bit >> 4
    x = bit & 15
    if card <= SHOVE_ANYONE:
        board, fell = _seaward(board, t, x >> 1, plank)
        return board, plank, fell
    if card == EXTEND:
        return board, plank + 1, 0
    if card == RETRACT:
        field = (board >> (16 * plank)) & 0x3FF
        fell = _popcount(field & 0x155) + 2 * _popcount(field & 0x2AA)
        return board & ~(np.int64(0xFFFF) << (16 * plank)), plank - 1, fell
    if card == DRAG:
        board, a = _seaward(board, t, seat, plank)
        board, b = _seaward(board, t, x >> 1, plank)
        return board, plank, a + b
    if card == PULL:
        return (
            board - _one(t, seat) - _one(t, x >> 1) + _one(t - 1, seat) + _one(t - 1, x >> 1),
            plank,
            0,
        )
    if card == RUN:
        if x == X1:
            return board - _one(t, seat) + _one(t - 1, seat), plank, 0
        board, fell = _seaward(board, t, seat, plank)
        return board, plank, fell
    if card == NOT_ME:
        return board - _one(t, seat) + _one(t - (x - X1 + 1), seat), plank, 0
    # Charge: onto t + 1, then the pirate chosen there one step further.
    board, fell = _seaward(board, t, seat, plank)
    if fell:  # from the last tile: a jump
        return board, plank, 1
    if x < 10:
        board, fell = _seaward(board, t + 1, x >> 1, plank)
    elif (board >> (16 * (t + 1) + 2 * seat)) & 3 >= 2:  # you had a pirate there already
        board, fell = _seaward(board, t + 1, seat, plank)
    return board, plank, fell


@njit(cache=True, nogil=True)
def play_nb(n, seed, first_game, rounds, finished, won):
    """Play games ``first_game ..`` of the run seeded ``seed`` into the records.

    Parameters
    ----------
    n : players, 2..5.
    rounds : int32 ``(G,)``, rounds played, written here.
    finished : int8 ``(G,)``, 1 if the game ended before the round cap.
    won : int8 ``(G, n)``, 1 for each winner.
    """
    start = 0
    for q in range(n):
        start += PIRATES * _one(0, q)
    for g in range(rounds.shape[0]):
        key = _mix(_mix(uint64(seed) + _GOLDEN) + uint64(first_game + g) + _GOLDEN)
        s0 = _mix(key + _GOLDEN)
        s1 = _mix(key + uint64(2) * _GOLDEN)
        s2 = _mix(key + uint64(3) * _GOLDEN)
        s3 = _mix(key + uint64(4) * _GOLDEN)
        board = start
        plank = PLANK_START
        captain = 0
        resting = np.int64(0)  # 10 bits per seat
        alive = (1 << n) - 1  # seats with living pirates
        total = PIRATES * n
        rnd = 1
        over = False
        while True:
            programs = np.int64(0)  # 4 bits per (seat, slot): seat 12 s + 4 slot
            for s in range(n):
                if (alive >> s) & 1:
                    available = ALL_CARDS & ~(resting >> (10 * s))
                    m = _popcount(available)
                    for slot in range(3):
                        k, s0, s1, s2, s3 = _below(m - slot, s0, s1, s2, s3)
                        card = _kth_bit(available, k)
                        available &= ~(1 << card)
                        programs |= card << (12 * s + 4 * slot)
            resting = 0
            for slot in range(3):
                s = captain
                for _ in range(n):
                    if (alive >> s) & 1:
                        card = (programs >> (12 * s + 4 * slot)) & 15
                        resting |= ((REST >> card) & 1) << (10 * s + card)
                        mask = _options(board, s, card, slot, plank, n)
                        if mask:
                            k = 0
                            if mask & (mask - 1):
                                k, s0, s1, s2, s3 = _below(_popcount(mask), s0, s1, s2, s3)
                            bit = _kth_bit(mask, k)
                            board, plank, fell = _resolve(board, s, card, bit, plank)
                            if fell:
                                total -= fell
                                for q in range(n):
                                    if (alive >> q) & 1 and _left_of(board, q) == 0:
                                        alive &= ~(1 << q)
                    s = s + 1 if s + 1 < n else 0
            for _ in range(n):  # the Captain's Favor passes right, to a player still in
                captain = captain - 1 if captain > 0 else n - 1
                if (alive >> captain) & 1:
                    break
            over = total <= 2 or _popcount(alive) <= 1
            if over or rnd >= ROUND_CAP:
                break
            rnd += 1
        rounds[g] = rnd
        finished[g] = over
        for q in range(n):
            won[g, q] = 1 if over and (alive >> q) & 1 else 0
    return rounds.shape[0]


def play(players: int, games: int, seed: int = 1, first_game: int = 0) -> tuple[np.ndarray, ...]:
    """``games`` games at ``players`` seats: rounds ``(G,)``, finished ``(G,)``, won ``(G, n)``."""
    if not 2 <= players <= 5:
        raise SystemExit(f"error: players must be 2 to 5, not {players}")
    rounds = np.zeros(games, dtype=np.int32)
    finished = np.zeros(games, dtype=np.int8)
    won = np.zeros((games, players), dtype=np.int8)
    play_nb(players, seed, first_game, rounds, finished, won)
    return rounds, finished, won


def games_per_s(players: int, games: int, repeat: int = 3) -> float:
    """Best of ``repeat`` timings of ``games`` games, one thread, after compiling."""
    play(players, 10)
    best = 0.0
    for _ in range(repeat):
        clock = time.perf_counter()
        play(players, games)
        best = max(best, games / (time.perf_counter() - clock))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=1_000_000)
    args = parser.parse_args()
    rate = games_per_s(args.players, args.games)
    rounds, finished, won = play(args.players, args.games)
    print(f"{args.players} players, {args.games:,} games: {rate:,.0f} games/s (1 thread)")
    print(f"mean rounds {rounds.mean():.3f}, finished {finished.mean():.4f}")
    print("seat win rates:", " ".join(f"{w:.4f}" for w in won.mean(axis=0)))


if __name__ == "__main__":
    main()
