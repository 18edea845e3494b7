"""Python face of the compiled Walk the Plank engine: validated calls, typed records.

:func:`play_games` runs the compiled game loop over a block of game indices and
returns a :class:`Records`; :func:`legal_options` and :func:`resolve_card` run
single steps of the compiled engine on a hand-built :class:`Position`, so that
scenario tests hold the compiled rules to the same positions as the reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from balance.core.dispatch import Dispatch
from balance.core.engine import CompiledEngine
from balance.core.game import Lineup, lineup_arrays
from balance.core.random_nb import seed_stream_nb
from balance.core.records import Records
from balance.core.strategy import MAX_PARAMS
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank import moves_nb
from balance.games.walk_the_plank.bridge import pack_position, unpack_position
from balance.games.walk_the_plank.cards import CARD_NAMES, N_CARDS, card_mask
from balance.games.walk_the_plank.reference import CardOutcome, GameRecord, Position
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.strategies import walk_the_plank as shipped
from balance.strategies.walk_the_plank import random as random_strategy

# ---------------------------------------------------------------------------
# Line-ups: which strategy plays which seat
# ---------------------------------------------------------------------------


def forbidden_by_seat(lineup: Lineup, game: np.ndarray | int) -> np.ndarray:
    """Mask of the cards each seat may never program, per game: int64 ``(..., n)``."""
    return lineup.forbidden(game, card_mask(lineup.restricted), none=0)


DISPATCH = Dispatch(
    nb,
    shipped,
    __file__,
    # push is optional: without it a user's strategy takes the Dolphin steps at random.
    fallback={"push": random_strategy.decisions["push"]},
)


class Engine(CompiledEngine):
    """Walk the Plank's game loop; the seats' forbidden cards ride in ``seats_of``."""

    dispatch = DISPATCH
    min_players = 2
    max_players = 5
    layout = nb.RECORDS
    record_class = GameRecord
    required = ("program", "choose")  # without push: the fallback pushes at random

    def kernel_inputs(self, lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``seats_of`` (R, 2n): each seat's strategy, then each seat's forbidden cards."""
        codes, params, rows, strategies = lineup_arrays(lineup, self.dispatch.code)
        return codes, params, np.hstack([strategies, forbidden_by_seat(lineup, rows)])

    def empty_records(
        self, players: int, n_games: int, first_game: int = 0, per_seat_cards: bool = True
    ) -> Records:
        """With ``per_seat_cards=False`` the records' ``cards`` hold only what a summary
        reads: int16 ``(G, 1, 10, 2)``, per card the reveals and the reveals with an effect,
        summed over the seats (a tenth of the memory; such records have no
        :meth:`~balance.core.records.Records.game_record`)."""
        if per_seat_cards:
            return super().empty_records(players, n_games, first_game)
        arrays = {
            array.name: array.empty(n_games, players)
            if array.name != "cards"
            else np.zeros((n_games, 1, N_CARDS, 2), dtype=np.int16)
            for array in self.layout.arrays
        }
        return Records(self.layout, first_game, arrays, self.record_class)

    def play_games(
        self,
        rules: WalkThePlankRules,
        players: int,
        seed: int,
        n_games: int,
        first_game: int = 0,
        lineup: Lineup | None = None,
        per_seat_cards: bool = True,
    ) -> Records:
        """:meth:`CompiledEngine.play_games`; with ``per_seat_cards=False`` the records'
        ``cards`` are int16 ``(G, 10, 2)`` (:meth:`empty_records`)."""
        records = super().play_games(
            rules, players, seed, n_games, first_game, lineup, per_seat_cards=per_seat_cards
        )
        if not per_seat_cards:
            records.arrays["cards"] = records.cards[:, 0]
        return records

    def illegal_choice(self, decision: str, error: np.ndarray) -> str:
        value = int(error[nb.Error.VALUE])
        if decision == "program":
            cards = [
                _card_name(value // 10000),
                _card_name(value // 100 % 100),
                _card_name(value % 100),
            ]
            return (
                f"programmed {', '.join(cards)}, not three different cards from its hand "
                "(cards resting or forbidden to it may not be programmed)"
            )
        if decision == "choose":
            card = CARD_NAMES[int(error[nb.Error.CARD])]
            return f"chose option {value} of {card}, outside its options (0 to count-1)"
        return (
            f"chose Dolphin step {value}, outside its options (0 to count-1: a pirate "
            "to push, or the last option to stop)"
        )


def _card_name(card: int) -> str:
    """A card by its name on the rules page, or what the strategy wrote if no card."""
    return CARD_NAMES[card] if 0 <= card < N_CARDS else f"card number {card} (no such card)"


ENGINE = Engine()
play_games = ENGINE.play_games


# ---------------------------------------------------------------------------
# Single steps on hand-built positions
# ---------------------------------------------------------------------------


def legal_options(
    pos: Position, rules: WalkThePlankRules, seat: int, card: int, slot: int
) -> list[tuple[int, int]]:
    """The compiled engine's option list for ``card`` played by ``seat`` in ``slot``."""
    pirates, living, state, _, _, packed, n, opt_tile, opt_arg = pack_position(pos, rules)
    count = moves_nb.legal_options_nb(
        pirates, living, state, packed, n, seat, card, slot, opt_tile, opt_arg
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
    script runs out, dice come from stream 0 of game 0 of seed 0 and choices are random.
    """
    obs = pack_position(pos, rules)
    n = pos.players
    rng = np.zeros((n + 1, 4), dtype=np.uint64)
    for stream in range(n + 1):
        seed_stream_nb(rng[stream], 0, 0, stream)
    outcome = np.zeros(moves_nb.Outcome.SIZE, dtype=np.int64)
    scratch = (
        outcome,
        np.zeros(moves_nb.MAX_FALLEN, dtype=np.int64),
        np.zeros((n, moves_nb.TILES), dtype=np.int64),
    )
    error = np.full(nb.Error.SIZE, -1, dtype=np.int64)
    DISPATCH.bound(nb.resolve_card_nb, playing=(random_strategy,))(
        obs,
        seat,
        card,
        option[0],
        option[1],
        np.full(n, nb.RANDOM, dtype=np.int64),  # once the script runs out
        np.zeros((n, MAX_PARAMS), dtype=np.float64),
        rng,
        np.asarray(dice, dtype=np.int64),
        np.asarray(choices, dtype=np.int64),
        scratch,
        error,
    )
    pirates, living, state = obs[0], obs[1], obs[2]
    if not np.array_equal(living, pirates.sum(axis=1)):
        raise AssertionError("compiled engine lost count of living pirates")
    occupied = slice(moves_nb.State.SEATS, moves_nb.State.SIZE)
    expected = pack_position(unpack_position(pos, obs), rules)[2][occupied]
    if not np.array_equal(expected, state[occupied]):
        raise AssertionError("compiled engine lost track of which seats occupy which tiles")
    mask = int(outcome[moves_nb.Outcome.ELIMINATED_MASK])
    result = CardOutcome(
        killed_own=int(outcome[moves_nb.Outcome.KILLED_OWN]),
        killed_others=int(outcome[moves_nb.Outcome.KILLED_OTHERS]),
        saved=int(outcome[moves_nb.Outcome.SAVED]),
        kraken_killed=int(outcome[moves_nb.Outcome.KRAKEN_KILLED]),
        kraken_rolls=[
            int(outcome[moves_nb.Outcome.KRAKEN_CALM]),
            int(outcome[moves_nb.Outcome.KRAKEN_WAVE]),
            int(outcome[moves_nb.Outcome.KRAKEN_KRAKEN]),
        ],
        dolphin_face=int(outcome[moves_nb.Outcome.DOLPHIN_FACE]),
        eliminated=[(seat + k) % n for k in range(n) if mask >> ((seat + k) % n) & 1],
    )
    return unpack_position(pos, obs), result


def game_over(living: Sequence[int]) -> bool:
    """The compiled end condition on living pirates per seat."""
    return bool(moves_nb.game_over_nb(np.asarray(living, dtype=np.int64), len(living)))
