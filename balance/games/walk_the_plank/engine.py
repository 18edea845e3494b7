"""Python face of the compiled Walk the Plank engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and
returns a :class:`Records`; :func:`legal_options` and :func:`resolve_card` run
single steps of the compiled engine on a hand-built :class:`Position`, so that
scenario tests hold the compiled rules to the same positions as the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from balance.errors import BalanceError
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank.cards import N_CARDS
from balance.games.walk_the_plank.reference import CardOutcome, GameRecord, Position
from balance.games.walk_the_plank.rules import WalkThePlankRules

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise BalanceError(f"players: {players!r} is not a whole number")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BalanceError(
            f"walk-the-plank plays {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )


@dataclass(frozen=True)
class Records:
    """Per-game records of a block of games, as the compiled engine writes them.

    Attributes
    ----------
    first_game : index of the first game of the block.
    games : int32 ``(G, GameStat.SIZE)``: rounds, finished, ghost seat, Dolphin face,
        Kraken faces (calm, giant wave, kraken) and pirates the Kraken took.
    cards : int16 ``(G, n, 10, CardStat.SIZE)``: per seat and card: revealed, had an
        effect, own pirates killed, others' pirates killed, pirates saved.
    seats : int8 ``(G, n, 2)``: per seat: won (0/1), pirates left.
    """

    first_game: int
    games: np.ndarray
    cards: np.ndarray
    seats: np.ndarray

    def __len__(self) -> int:
        return self.games.shape[0]

    def game_record(self, g: int) -> GameRecord:
        """Game ``g`` of the block in the reference engine's record form."""
        row, cards, seats = self.games[g], self.cards[g], self.seats[g]
        stat = nb.CardStat

        def per_card(column: int) -> list[list[int]]:
            return cards[:, :, column].astype(int).tolist()

        return GameRecord(
            rounds=int(row[nb.GameStat.ROUNDS]),
            finished=bool(row[nb.GameStat.FINISHED]),
            winners=[bool(x) for x in seats[:, 0]],
            pirates_left=[int(x) for x in seats[:, 1]],
            revealed=per_card(stat.REVEALED),
            effect=per_card(stat.EFFECT),
            killed_own=per_card(stat.KILLED_OWN),
            killed_others=per_card(stat.KILLED_OTHERS),
            saved=per_card(stat.SAVED),
            ghost_seat=int(row[nb.GameStat.GHOST_SEAT]),
            dolphin_face=int(row[nb.GameStat.DOLPHIN_FACE]),
            kraken_rolls=[
                int(row[nb.GameStat.KRAKEN_CALM]),
                int(row[nb.GameStat.KRAKEN_WAVE]),
                int(row[nb.GameStat.KRAKEN_KRAKEN]),
            ],
            kraken_killed=int(row[nb.GameStat.KRAKEN_KILLED]),
        )


def play_games(
    rules: WalkThePlankRules,
    players: int,
    seed: int,
    n_games: int,
    first_game: int = 0,
) -> Records:
    """Play ``n_games`` uniform-random games, indices ``first_game ..``, in compiled code."""
    check_players(players)
    if n_games < 0 or first_game < 0 or seed < 0:
        raise BalanceError("games, first game and seed must not be negative")
    games = np.zeros((n_games, nb.GameStat.SIZE), dtype=np.int32)
    cards = np.zeros((n_games, players, N_CARDS, nb.CardStat.SIZE), dtype=np.int16)
    seats = np.zeros((n_games, players, 2), dtype=np.int8)
    codes = np.full(players, nb.RANDOM, dtype=np.int64)
    nb.play_games_nb(players, rules.to_array(), codes, seed, first_game, games, cards, seats)
    return Records(first_game=first_game, games=games, cards=cards, seats=seats)


# ---------------------------------------------------------------------------
# Single steps on hand-built positions
# ---------------------------------------------------------------------------


def _pack(pos: Position) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pirates = np.zeros((pos.players, nb.TILES), dtype=np.int64)
    for seat, row in enumerate(pos.pirates):
        pirates[seat, : len(row)] = row
    living = pirates.sum(axis=1)
    state = np.zeros(nb.State.SIZE, dtype=np.int64)
    state[nb.State.PLANK] = pos.plank
    state[nb.State.CAPTAIN] = pos.captain
    state[nb.State.ROUND] = pos.round
    state[nb.State.GHOST_SEAT] = pos.ghost_seat
    state[nb.State.GHOST_TILE] = pos.ghost_tile
    state[nb.State.GHOST_ACTIVE] = pos.ghost_active
    state[nb.State.DOLPHIN_ROLLED] = pos.dolphin_rolled
    state[nb.State.RETRACT_BLOCKED_THROUGH] = pos.retract_blocked_through
    return pirates, living, state


def _unpack(pos: Position, pirates: np.ndarray, state: np.ndarray) -> Position:
    out = pos.copy()
    width = len(pos.pirates[0])
    out.pirates = [[int(x) for x in row[:width]] for row in pirates]
    out.plank = int(state[nb.State.PLANK])
    out.ghost_seat = int(state[nb.State.GHOST_SEAT])
    out.ghost_tile = int(state[nb.State.GHOST_TILE])
    out.ghost_active = bool(state[nb.State.GHOST_ACTIVE])
    out.dolphin_rolled = bool(state[nb.State.DOLPHIN_ROLLED])
    out.retract_blocked_through = int(state[nb.State.RETRACT_BLOCKED_THROUGH])
    return out


def legal_options(
    pos: Position, rules: WalkThePlankRules, seat: int, card: int, slot: int
) -> list[tuple[int, int]]:
    """The compiled engine's option list for ``card`` played by ``seat`` in ``slot``."""
    pirates, living, state = _pack(pos)
    opt_tile = np.zeros(nb.MAX_OPTIONS, dtype=np.int64)
    opt_arg = np.zeros(nb.MAX_OPTIONS, dtype=np.int64)
    count = nb.legal_options_nb(
        pirates, living, state, rules.to_array(), pos.players, seat, card, slot, opt_tile, opt_arg
    )
    return [(int(opt_tile[k]), int(opt_arg[k])) for k in range(count)]


def resolve_card(
    pos: Position,
    rules: WalkThePlankRules,
    seat: int,
    card: int,
    option: tuple[int, int],
    dice: Sequence[int] = (),
    choices: Sequence[int] = (),
) -> tuple[Position, CardOutcome]:
    """Resolve one card in compiled code; dice faces and Dolphin choices are scripted.

    Returns the new position (``pos`` is not changed) and what the card did. Once the
    script runs out, dice come from stream 0 of game 0 of seed 0.
    """
    pirates, living, state = _pack(pos)
    n = pos.players
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        nb.seed_stream_nb(rng[stream], 0, 0, stream)
    outcome = np.zeros(nb.Outcome.SIZE, dtype=np.int64)
    nb.resolve_card_nb(
        pirates,
        living,
        state,
        rules.to_array(),
        n,
        seat,
        card,
        option[0],
        option[1],
        np.full(n, nb.SCRIPTED, dtype=np.int64),
        rng,
        np.asarray(dice, dtype=np.int64),
        np.asarray(choices, dtype=np.int64),
        outcome,
        np.zeros(nb.MAX_FALLEN, dtype=np.int64),
        np.zeros((n, nb.TILES), dtype=np.int64),
        np.zeros(nb.MAX_OPTIONS, dtype=np.int64),
        np.zeros(nb.MAX_OPTIONS, dtype=np.int64),
    )
    if not np.array_equal(living, pirates.sum(axis=1)):
        raise AssertionError("compiled engine lost count of living pirates")
    mask = int(outcome[nb.Outcome.ELIMINATED_MASK])
    result = CardOutcome(
        killed_own=int(outcome[nb.Outcome.KILLED_OWN]),
        killed_others=int(outcome[nb.Outcome.KILLED_OTHERS]),
        saved=int(outcome[nb.Outcome.SAVED]),
        kraken_killed=int(outcome[nb.Outcome.KRAKEN_KILLED]),
        kraken_rolls=[
            int(outcome[nb.Outcome.KRAKEN_CALM]),
            int(outcome[nb.Outcome.KRAKEN_WAVE]),
            int(outcome[nb.Outcome.KRAKEN_KRAKEN]),
        ],
        dolphin_face=int(outcome[nb.Outcome.DOLPHIN_FACE]),
        eliminated=[(seat + k) % n for k in range(n) if mask >> ((seat + k) % n) & 1],
    )
    return _unpack(pos, pirates, state), result
