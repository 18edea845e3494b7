"""Walk the Plank as the shared runner, results and CLI see it."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.core.errors import BalanceError
from balance.core.formatting import interval, percent
from balance.core.game import Block, Capabilities, EngineGame, RuleSet, Setup
from balance.core.lazy import LazyModule, pd
from balance.core.records import Derived, RecordArray, labels_column
from balance.games.walk_the_plank.cards import CARD_NAMES, N_CARDS
from balance.games.walk_the_plank.reference import DOLPHIN_FACES
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.stats.intervals import mean_interval, share_interval, wilson_interval

if TYPE_CHECKING:
    from balance.stats.metrics import Metric

engine = LazyModule("balance.games.walk_the_plank.engine")
nb = LazyModule("balance.games.walk_the_plank.engine_nb")


class WalkThePlank(EngineGame):
    """Walk the Plank (Shane Steely and Jared Tinney), 2-5 players."""

    id = "walk-the-plank"
    title = "Walk the Plank"
    min_players = 2
    max_players = 5
    length_unit = "rounds"
    variants: Mapping[str, str] = {
        "ghost": "the first player out keeps playing with a ghost that never falls",
        "dolphin": "a die rolled for the first pirate to fall: 2-5 pushes, shark or dolphin",
        "kraken": "a die rolled for each pirate that falls: calm, giant wave or kraken",
    }

    #: How the report's seat axis reads, and the words for what restricted play forbids.
    seat_note = "seat (0 holds the first captain's favor)"
    action_noun = "card"
    action_verb = "program"
    #: The engine records per card only what the summary prints (slim records).
    capabilities = Capabilities(
        restricted_actions=True,
        search=True,
        reference_engine=True,
        replay=True,
        running_sums=True,
        slim_records=True,
    )

    rules_class = WalkThePlankRules
    checked_rules = (
        *(
            RuleSet("+".join(on) or "defaults", on)
            for on in (
                (),
                ("ghost",),
                ("dolphin",),
                ("kraken",),
                ("ghost", "dolphin"),
                ("ghost", "kraken"),
                ("dolphin", "kraken"),
                ("ghost", "dolphin", "kraken"),
            )
        ),
        RuleSet("no-rest", rules=(("rest", ""),)),
        RuleSet("other-rest", rules=(("rest", "charge,run,shove-left"),)),
        RuleSet(
            "long-plank",
            rules=(
                ("pirates_per_player", "5"),
                ("plank_max", "6"),
                ("plank_start", "4"),
                ("plank_min", "2"),
            ),
        ),
        RuleSet(
            "one-pirate",
            ("ghost", "kraken"),
            (("pirates_per_player", "1"), ("plank_start", "1")),
        ),
        RuleSet("round-cap-2", ("dolphin",), (("round_cap", "2"),)),
    )

    def length_cap(self, rules: WalkThePlankRules) -> int:
        """The round cap: games still running then are unfinished."""
        return rules.round_cap

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own part of ``balance simulate``'s text: cards and the ghost."""
        lines = ["Cards: reveals per game (all seats) and share of reveals with an effect:"]
        for name, row in summary.get("cards", {}).items():
            lines.append(
                f"  {name:<14} {row['reveals_per_game']:5.2f} "
                f"{interval(row['reveals_per_game_ci95'], as_percent=False):<14} "
                f"{percent(row['effect_rate']):>6} {interval(row['effect_rate_ci95'])}"
            )
        if "ghost_rate" in summary:
            ghost = summary["ghost_rate"]
            lines.append(f"Games with a ghost: {percent(ghost['rate'])} {interval(ghost['ci95'])}")
        return lines

    def play_slim_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """:meth:`slim` of :meth:`play_block`'s block, recorded so by the engine: per card,
        only the reveals and effects of all seats (what the summary prints)."""
        records = engine.play_games(
            setup.rules,
            setup.players,
            setup.seed,
            size,
            first_game,
            setup.lineup,
            per_seat_cards=False,
        )
        extra = {"games": records.games, "cards": records.cards.astype(np.int32)}
        return dataclasses.replace(self.block(records), extra=extra)

    def derived_columns(self, block: Block, setup: Setup) -> dict[str, dict[str, Any]]:
        """The winners, the strategies, the dolphin die's face (null if not rolled), and
        the cards each seat revealed with an effect (:func:`cards_with_effect`)."""
        derived = super().derived_columns(block, setup)
        faces = block.extra["games"][:, nb.GameStat.DOLPHIN_FACE]
        derived["games"]["dolphin_face"] = labels_column(faces, DOLPHIN_FACES)
        derived["seats"]["cards_with_effect"] = cards_with_effect(block.extra["cards"]).ravel()
        return derived

    def table_records(self, block: Block) -> dict[str, tuple[RecordArray, np.ndarray]]:
        """The engine's records, but the ``cards`` summed over the seats (int32: 5 seats'
        reveals of a card over up to 10,000 rounds pass int16) and a ``seats`` column of
        the cards each seat revealed with an effect (:func:`saved_tables`)."""
        seats, cards = saved_tables()
        return {
            **super().table_records(block),
            "seats": (seats, block.extra["seats"]),
            "cards": (cards, block.extra["cards"].sum(axis=1, dtype=np.int32)),
        }

    def slim(self, block: Block) -> Block:
        """The block with only what :meth:`summarize` reads: card counts summed over seats."""
        cards = block.extra["cards"]
        if cards.ndim == 3:
            return block
        # Seat by seat over contiguous rows: a third of the time of one strided sum, which
        # the runner would spend holding up the next block.
        g_count, n, n_cards = cards.shape[:3]
        rows = cards.reshape(g_count, n, -1)
        totals = rows[:, 0].astype(np.int32)
        for seat in range(1, n):
            totals += rows[:, seat]
        per_card = totals.reshape(g_count, n_cards, -1)[..., : nb.CardStat.EFFECT + 1]
        totals = np.ascontiguousarray(per_card)
        extra = {"games": block.extra["games"], "cards": totals}
        return dataclasses.replace(block, extra=extra)

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """Per card: reveals per game and the share of reveals that had an effect."""
        if not blocks:
            return {"cards": {}}
        cards = np.concatenate([self.slim(b).extra["cards"] for b in blocks])
        revealed = cards[:, :, nb.CardStat.REVEALED]
        effect = cards[:, :, nb.CardStat.EFFECT]
        games = revealed.shape[0]
        summary: dict[str, Any] = {}
        for c, name in enumerate(CARD_NAMES):
            mean, mean_low, mean_high = mean_interval(revealed[:, c], floor=0.0)
            rate, low, high = share_interval(effect[:, c], revealed[:, c])
            summary[name] = {
                "reveals_per_game": mean,
                "reveals_per_game_ci95": [mean_low, mean_high],
                "effect_rate": rate,
                "effect_rate_ci95": [low, high],
            }
        extra: dict[str, Any] = {"cards": summary, "rest": list(setup.rules.rest)}
        if setup.rules.ghost:
            ghost = np.concatenate([b.extra["games"][:, nb.GameStat.GHOST_SEAT] for b in blocks])
            count = int((ghost >= 0).sum())
            low, high = wilson_interval(count, games)
            extra["ghost_rate"] = {"rate": count / games, "ci95": [float(low), float(high)]}
        if setup.rules.dolphin:
            dolphin = np.concatenate(
                [b.extra["games"][:, nb.GameStat.DOLPHIN_FACE] for b in blocks]
            )
            extra["dolphin_faces"] = {
                face: int((dolphin == k).sum()) for k, face in enumerate(DOLPHIN_FACES)
            }
        return extra

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """What :meth:`summarize_sums` reads of a block, one row a game: each card's
        reveals and reveals with an effect (all seats), whether a ghost played; and a
        histogram of the dolphin die's faces.

        Returns
        -------
        ``(columns, values, counts)``: names ``(k,)``, whole numbers as float64 ``(G, k)``
        and histograms.
        """
        cards = self.slim(block).extra["cards"]
        stat = nb.CardStat
        columns = [f"revealed_{c}" for c in range(N_CARDS)] + [
            f"effect_{c}" for c in range(N_CARDS)
        ]
        parts = [cards[:, :, stat.REVEALED], cards[:, :, stat.EFFECT]]
        games = block.extra["games"]
        counts: dict[str, np.ndarray] = {}
        if setup.rules.ghost:
            columns.append("ghost")
            parts.append((games[:, nb.GameStat.GHOST_SEAT] >= 0)[:, None])
        if setup.rules.dolphin:
            faces = games[:, nb.GameStat.DOLPHIN_FACE].astype(np.int64)
            counts["dolphin"] = np.bincount(faces[faces >= 0], minlength=len(DOLPHIN_FACES))
        values = np.concatenate(parts, axis=1, dtype=np.float64, casting="same_kind")
        return columns, values, counts

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """:meth:`summarize` from a run's running sums (:class:`balance.run.moments.RunSums`)."""
        if not sums.games:
            return {"cards": {}}
        summary: dict[str, Any] = {}
        for c, name in enumerate(CARD_NAMES):
            mean, mean_low, mean_high = sums.mean_interval(f"revealed_{c}", floor=0.0)
            rate, low, high = sums.share_interval(f"effect_{c}", f"revealed_{c}")
            summary[name] = {
                "reveals_per_game": mean,
                "reveals_per_game_ci95": [mean_low, mean_high],
                "effect_rate": rate,
                "effect_rate_ci95": [low, high],
            }
        extra: dict[str, Any] = {"cards": summary, "rest": list(setup.rules.rest)}
        if setup.rules.ghost:
            count = sums.sum("ghost")
            low, high = wilson_interval(count, sums.games)
            extra["ghost_rate"] = {"rate": count / sums.games, "ci95": [float(low), float(high)]}
        if setup.rules.dolphin:
            faces = sums.count("dolphin")
            extra["dolphin_faces"] = {
                face: int(faces[k]) if k < faces.size else 0 for k, face in enumerate(DOLPHIN_FACES)
            }
        return extra

    def actions(self) -> tuple[str, ...]:
        """The cards, in card order: what restricted play may forbid."""
        return tuple(CARD_NAMES)

    def check_restricted(self, names: Sequence[str]) -> None:
        """At most two distinct known cards, so that a seat always has 3 cards to program.

        A hand of 10 loses at most 3 resting cards, and a ghost 2 more set aside:
        forbidding 2 still leaves 3.
        """
        for name in names:
            if name not in CARD_NAMES:
                raise BalanceError(f"unknown card {name!r}; cards: {', '.join(CARD_NAMES)}")
        if len(set(names)) != len(names):
            raise BalanceError(f"restricted cards repeat: {', '.join(names)}")
        if len(names) > 2:
            raise BalanceError("restricted play forbids at most 2 cards at once")

    def per_game(self, blocks: Sequence[Block]) -> tuple[pd.DataFrame, list[Metric]]:
        """Per game, the reveals of each card (all seats): what a comparison tests per card."""
        from balance.stats.metrics import Metric

        cards = np.concatenate([self.slim(b).extra["cards"] for b in blocks])
        revealed = cards[:, :, nb.CardStat.REVEALED]
        table = pd.DataFrame(
            {f"reveals_{name}": revealed[:, c] for c, name in enumerate(CARD_NAMES)}
        )
        chosen = [
            Metric(f"{name} reveals per game", f"reveals_{name}", "mean", "reveals")
            for name in CARD_NAMES
        ]
        return table, chosen

    replay_title = "Walk the Plank"

    def restrictions(self, setup: Setup, game_index: int) -> dict[str, Any]:
        """The card each seat may never program (-1: none)."""
        return {"forbidden": [int(m) for m in engine.forbidden_by_seat(setup.lineup, game_index)]}


@functools.cache
def saved_tables() -> tuple[RecordArray, RecordArray]:
    """The ``seats`` and ``cards`` tables a run saves, declared from the engine's records.

    ``seats``: the engine's, with ``cards_with_effect`` (:func:`cards_with_effect`).
    ``cards``: a row a game and card, the engine's per-seat records summed over the seats.
    A row a seat and card would be five times the rows at 5 players, and Parquet spent
    more time encoding them than the engine playing the games; what the report reads of
    each seat's cards (which it revealed with an effect) fits in one number a seat.
    """
    seats, cards = nb.RECORDS["seats"], nb.RECORDS["cards"]
    return (
        dataclasses.replace(seats, entries=(*seats.entries, Derived("cards_with_effect"))),
        dataclasses.replace(cards, axes=cards.axes[1:]),  # the seat axis summed
    )


def cards_with_effect(cards: np.ndarray) -> np.ndarray:
    """The cards each seat revealed with an effect at least once in a game, as bits: bit
    ``c`` for card ``c`` of :data:`CARD_NAMES` (1 for shove-left, 2 for shove-right, ...).

    Parameters
    ----------
    cards : the engine's card records, int16 ``(G, n, 10, CardStat.SIZE)``.

    Returns
    -------
    uint16 ``(G, n)``.
    """
    effect = cards[..., nb.CardStat.EFFECT] > 0
    bits = np.packbits(effect, axis=-1, bitorder="little")  # (G, n, 2) bytes, card 0 first
    return bits.view("<u2")[..., 0]


GAME = WalkThePlank()
