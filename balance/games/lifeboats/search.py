"""Python face of :mod:`.search_nb`: play a Lifeboats game on from a readable position.

:func:`play_on` continues a reference :class:`~balance.games.lifeboats.reference.Position`
after a decision in compiled code, and :func:`determinize` shows what a search player's
determinization draws. Tests hold both to the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.dispatch import read_only_view
from balance.core.strategy import MAX_PARAMS
from balance.games.lifeboats import search_nb
from balance.games.lifeboats.bridge import pack_position, pack_stats, unpack_position
from balance.games.lifeboats.engine import DISPATCH, ENGINE
from balance.games.lifeboats.engine_nb import Error
from balance.games.lifeboats.layout import (
    LEAK_VOTE,
    MAX_BOATS,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MOVE_VOTE,
    OVERBOARD_VOTE,
)
from balance.games.lifeboats.reference import GameRecord, Position


def _buffers(pos: Position, codes: Sequence[int], streams: Sequence[Sequence[int]]):
    """``obs, players, work, stats, error`` for ``pos``: seat ``s`` plays strategy code
    ``codes[s]`` (default parameters 0) from stream state ``streams[s]`` (4 integers)."""
    n = pos.players
    obs = pack_position(pos)
    # The rules read-only, as a search player's position holds them in a run (the loop
    # passes it the game's arrays read-only): the search is compiled once for both.
    obs = (*obs[:4], read_only_view(obs[4]), *obs[5:])
    stats = pack_stats(pos)
    seat_codes = np.zeros(MAX_PLAYERS, dtype=np.int64)
    seat_codes[:n] = codes
    rng = np.zeros((MAX_PLAYERS + 1, 4), dtype=np.uint64)
    for s in range(n):
        rng[1 + s] = np.array(streams[s], dtype=np.uint64)
    players = (seat_codes, np.zeros((MAX_PLAYERS, MAX_PARAMS), dtype=np.float64), rng)
    work = (
        np.zeros(MAX_OPTIONS, dtype=np.int64),
        *(np.zeros(MAX_BOATS + 1, dtype=np.int64) for _ in range(6)),
    )
    error = np.full(5, -1, dtype=np.int64)
    return obs, players, work, stats, error


def play_on(
    pos: Position,
    seat: int,
    kind: int,
    choice: int,
    ballot: Sequence[int],
    streams: Sequence[Sequence[int]],
    codes: Sequence[int] | None = None,
) -> GameRecord:
    """The record of the game played on from ``pos`` after ``seat`` chose ``choice``.

    Parameters
    ----------
    pos : the position as ``seat`` was asked a decision of ``kind`` (not changed).
    choice : the option code chosen.
    ballot : in a ballot, the votes of the voters asked before ``seat`` (in their order).
    streams : each seat's random stream state after the decision (4 integers a seat).
    codes : each seat's shipped strategy code (default parameters); all random if None.
    """
    n = pos.players
    obs, players, work, stats, error = _buffers(pos, codes or [0] * n, streams)
    work[1][: len(ballot)] = ballot
    records = ENGINE.empty_records(n, 1)
    arrays = (records.games, records.seats, records.boats)
    DISPATCH.bound(search_nb).play_on_record_nb(
        obs, kind, seat, choice, players, work, stats, error, arrays
    )
    if error[Error.SEAT] >= 0:
        raise RuntimeError(f"seat {error[Error.SEAT]} answered outside its options")
    return records.game_record(0)


def determinize(
    pos: Position, seat: int, kind: int, streams: Sequence[Sequence[int]], rollout: int = 0
) -> tuple[Position, list[int]]:
    """What a search player of ``seat``, asked a decision of ``kind`` at ``pos``, draws for
    what it cannot see: the position it then plays from, and the votes cast before its
    own in the ballot (each voter playing strategy code ``rollout`` from ``streams``)."""
    n = pos.players
    obs, players, work, stats, error = _buffers(pos, [rollout] * n, streams)
    DISPATCH.bound(search_nb).determinize_nb(obs, seat, kind, players, work, error)
    nvoters = (
        DISPATCH.bound(search_nb).voters_nb(obs, kind, work)
        if kind in (LEAK_VOTE, MOVE_VOTE, OVERBOARD_VOTE)
        else 0
    )
    before = int(DISPATCH.bound(search_nb).voter_index_nb(work, nvoters, seat)) if nvoters else 0
    return unpack_position(pos, obs, stats), [int(v) for v in work[1][:before]]
