"""Battle of Thieves as the shared runner, results, reports and CLI see it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.core.errors import BalanceError
from balance.core.formatting import interval, percent
from balance.core.game import Block, Capabilities, EngineGame, RuleSet, Setup, player_factory
from balance.core.lazy import LazyModule, pa, pd
from balance.games.battle_of_thieves.layout import (
    CARD_STAT,
    GAME_STAT,
    SEAT_STAT,
    WIN_REASONS,
)
from balance.games.battle_of_thieves.rules import BattleRules
from balance.games.battle_of_thieves.usefulness import (
    TOTAL,
    card_totals,
    cards_summary,
    pair_totals,
)
from balance.stats.intervals import mean_interval, share_interval, wilson_interval

if TYPE_CHECKING:
    from balance.stats.metrics import Metric

engine = LazyModule("balance.games.battle_of_thieves.engine")

#: Per-seat records the summary gives as means per game, with their labels.
SEAT_MEANS = {
    "shots": "cannon shots",
    "hits": "hits",
    "chaos_shots": "chaos balls fired",
    "holes_made": "holes made in the enemy ship",
    "holes_taken": "holes taken",
    "holes_repaired": "holes repaired",
    "water_bailed": "water bailed",
    "attacks": "attacks",
    "attack_hits": "attacks that hit",
    "damage_dealt": "damage dealt to enemy pirates",
    "deaths": "own pirates killed",
    "boardings": "boardings",
    "island_visits": "island visits",
    "cards_drawn": "cards drawn",
    "cards_played": "cards played",
    "red_sea": "turns in the Red Sea",
    "final_water": "water at the end",
    "taken_planks": "planks taken back (island)",
    "taken_cannonballs": "cannonballs taken back",
    "taken_food": "food taken back",
    "taken_chaos_balls": "chaos balls taken back",
    "taken_incendiary_balls": "incendiary balls taken back",
}


class BattleOfThieves(EngineGame):
    """Battle of Thieves, 2 players, with cards, pirates, weapons and decks from data files."""

    id = "battle-of-thieves"
    title = "Battle of Thieves"
    min_players = 2
    max_players = 2
    length_unit = "turns"
    variants: Mapping[str, str] = {}
    seat_note = "seat (0 plays game turn 1)"
    action_noun = "card"
    action_verb = "play"
    single_winner = True  # the other player's ship sank, or their sins are all discarded
    #: Restricted play takes a card out of a deck, not an action out of a seat's choices.
    capabilities = Capabilities(
        decks=True,
        search=True,
        reference_engine=True,
        replay=True,
        running_sums=True,
    )

    rules_class = BattleRules
    #: The decks' own paths (other rule values are checked on richer, made-up cards by
    #: tests/battle_of_thieves/test_agreement.py).
    checked_rules = (
        RuleSet("defaults"),
        RuleSet("mirror", rules=(("decks", "cannon-battery,cannon-battery"),)),
        RuleSet("blank", rules=(("blanks", "1:Plunder"),)),
        RuleSet("turn-cap-12", rules=(("turn_cap", "12"),)),
        RuleSet(
            "deep-hull",
            rules=(("sink_water", "400"), ("water_per_hole", "5"), ("turn_cap", "150")),
        ),
    )

    def manifest_extra(self, setup: Setup) -> dict[str, Any]:
        """The decks' digest: a run read back must play the same cards."""
        return {"deck_digest": setup.rules.content().digest()}

    def check_saved(self, setup: Setup, manifest: Mapping[str, Any], directory: Any) -> None:
        """A one-line error if a deck file changed since the run was saved."""
        saved = manifest.get("deck_digest")
        if saved is not None and saved != setup.rules.content().digest():
            raise BalanceError(
                f"the decks of the run in {str(directory)!r} ({', '.join(setup.rules.decks)}) "
                "have changed since it was saved; restore the deck files, or play the run again"
            )

    def seat_holdings(self, setup: Setup) -> list[str]:
        """Each seat's deck and, with seats fixed, its strategy: a seat's results are its
        deck's and its strategy's as much as its place's."""
        decks = [f"{deck} deck" for deck in setup.rules.content().deck_names]
        if setup.lineup.rotate:
            return decks
        return [f"{deck}, {label}" for deck, label in zip(decks, setup.lineup.labels, strict=True)]

    def check_rules(self, rules: BattleRules, players: int) -> None:
        """The decks must load: a bad deck file is a one-line error before anything runs."""
        rules.content()

    def length_cap(self, rules: BattleRules) -> int:
        return rules.turn_cap

    def actions(self) -> tuple[str, ...]:
        """Restricted play takes a card out of a deck (rule ``blanks``), not out of a seat's
        choices: see :mod:`balance.games.battle_of_thieves.usefulness`."""
        return ()

    def check_restricted(self, names: Sequence[str]) -> None:
        engine.check_restricted(names)

    def blank_setups(self, setup: Setup, cards: Sequence[str] = ()) -> list[Any]:
        """Restricted play takes a card out of a deck: for each card (or only ``cards``), the
        set-up with every copy of it replaced by a blank card, as ``(seat, deck, card,
        setup)``; :func:`balance.analyses.restricted.restricted_play` plays them."""
        from balance.games.battle_of_thieves.decks import blank_setups

        return blank_setups(setup, cards)

    def card_values(self, setup: Setup, table: Any, games: int, partial: bool, **extra: Any) -> Any:
        """Each card's value to its deck, as text, chart and files present it
        (:class:`~balance.games.battle_of_thieves.decks.CardValues`)."""
        from balance.games.battle_of_thieves.decks import CardValues

        return CardValues(setup, table, games, partial, **extra)

    def add_card_values(self, summary: dict[str, Any], values: Any) -> None:
        """Each card's value in the summary's ``cards`` (``restricted_play_delta``)."""
        from balance.games.battle_of_thieves.decks import add_card_values

        add_card_values(summary, values)

    def slim(self, block: Block) -> Block:
        """Per-card records summed over the block (a long run cannot keep them per game)."""
        if "cards" not in block.extra:
            return block
        extra = {
            "games": block.extra["games"],
            "seats": block.extra["seats"],
            "card_totals": card_totals(block.extra["cards"], block.won),
            "pair_totals": pair_totals(block.extra["cards"], block.won),
        }
        return dataclasses.replace(block, extra=extra)

    def derived_columns(self, block: Block, setup: Setup) -> dict[str, dict[str, Any]]:
        """The strategies, and each seat's deck by name (a mirror match names one)."""
        derived = super().derived_columns(block, setup)
        names = setup.rules.content().deck_names
        labels = list(dict.fromkeys(names))
        deck_of_seat = np.array([labels.index(d) for d in names], np.int32)
        derived["seats"]["deck"] = pa.DictionaryArray.from_arrays(
            pa.array(np.tile(deck_of_seat, block.size)), pa.array(labels)
        )
        return derived

    def tables(self, block: Block, setup: Setup) -> dict[str, pa.Table]:
        """Per-game records: ``games``, ``seats`` (a seat a game) and ``cards`` (a card of a
        seat's deck a game)."""
        game_index = np.arange(block.first_game, block.first_game + block.size, dtype=np.int64)
        cards = _cards_table(block, setup.rules.content(), game_index)
        return {**super().tables(block, setup), "cards": cards}

    def per_game(self, blocks: Sequence[Block]) -> tuple[pd.DataFrame, list[Metric]]:
        """Per game: how it ended and each seat's shots, holes, damage and cards."""
        from balance.stats.metrics import Metric

        games = np.concatenate([b.extra["games"] for b in blocks])
        seats = np.concatenate([b.extra["seats"] for b in blocks])
        columns: dict[str, np.ndarray] = {}
        chosen = []
        for k, reason in enumerate(WIN_REASONS):
            key = "won_by_" + reason.replace(" ", "_")
            columns[key] = games[:, GAME_STAT.REASON] == k
            if reason != "cap":
                chosen.append(Metric(f"won by {reason}", key, "share"))
        for name in SEAT_MEANS:
            slot = getattr(SEAT_STAT, name.upper())
            for seat in range(2):
                columns[f"{name}_{seat}"] = seats[:, seat, slot]
        for name in ("holes_made", "damage_dealt", "cards_played"):
            for seat in range(2):
                chosen.append(Metric(f"seat {seat} {SEAT_MEANS[name]}", f"{name}_{seat}", "mean"))
        return pd.DataFrame(columns), chosen

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """How games were won, each seat's play per game, and each card's usefulness."""
        content = setup.rules.content()
        summary: dict[str, Any] = {"decks": list(content.deck_names)}
        if not blocks:
            summary["win_reason"] = {reason: float("nan") for reason in WIN_REASONS}
            return summary
        games = np.concatenate([b.extra["games"] for b in blocks])
        seats = np.concatenate([b.extra["seats"] for b in blocks])
        count = len(games)
        reason = games[:, GAME_STAT.REASON]
        summary["win_reason"] = {}
        summary["win_reason_ci95"] = {}
        for k, name in enumerate(WIN_REASONS):
            hits = int((reason == k).sum())
            low, high = wilson_interval(hits, count)
            summary["win_reason"][name] = hits / count
            summary["win_reason_ci95"][name] = [float(low), float(high)]
        # Stopped by the cap: a finding of its own (neither ship sank), see the docs.
        summary["capped_games"] = int((reason == WIN_REASONS.index("cap")).sum())
        summary["capped_rate"] = summary["win_reason"]["cap"]
        summary["capped_ci95"] = summary["win_reason_ci95"]["cap"]
        for name in SEAT_MEANS:
            slot = getattr(SEAT_STAT, name.upper())
            summary[f"{name}_mean"] = []
            summary[f"{name}_ci95"] = []
            for seat in range(2):
                mean, low, high = mean_interval(seats[:, seat, slot], floor=0.0)
                summary[f"{name}_mean"].append(mean)
                summary[f"{name}_ci95"].append([low, high])
        summary["hit_rate"] = []
        summary["hit_rate_ci95"] = []
        for seat in range(2):
            rate, low, high = share_interval(
                seats[:, seat, SEAT_STAT.HITS], seats[:, seat, SEAT_STAT.SHOTS]
            )
            summary["hit_rate"].append(rate)
            summary["hit_rate_ci95"].append([low, high])
        totals = sum(_block_totals(b) for b in blocks)
        pairs = sum(_block_totals(b, "pair_totals") for b in blocks)
        summary["cards"] = cards_summary(
            totals,
            content.deck_cards,
            content.names,
            content.deck_names,
            content.is_mirror(),
            pairs,
        )
        return summary

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """What :meth:`summarize_sums` reads of a block, one row a game.

        Columns: each seat's figures of :data:`SEAT_MEANS` (shots and hits among them, for
        the hit rate). Histograms: ``win_reason`` (games by how they ended). The per-card
        sums the card table rests on are already sums over the block's games (each card's
        draws, plays and wins with their squares and products, :func:`card_totals`); they
        are kept, flattened, as ``card_totals`` (``(2, R, Total.SIZE)``) and
        ``pair_totals`` (``(R, Total.SIZE)``), which add up block by block as histograms do.

        Returns
        -------
        ``(columns, values, counts)``: names ``(k,)``, whole numbers as float64 ``(G, k)``
        and histograms.
        """
        slim = self.slim(block)
        games, seats = slim.extra["games"], slim.extra["seats"]
        columns: list[str] = []
        parts: list[np.ndarray] = []
        for name in SEAT_MEANS:
            columns += [f"{name}_{seat}" for seat in range(2)]
            parts.append(seats[:, :, getattr(SEAT_STAT, name.upper())])
        reason = games[:, GAME_STAT.REASON].astype(np.int64)
        counts = {
            "win_reason": np.bincount(reason, minlength=len(WIN_REASONS)),
            "card_totals": _whole(_block_totals(slim)),
            "pair_totals": _whole(_block_totals(slim, "pair_totals")),
        }
        values = np.concatenate(parts, axis=1, dtype=np.float64, casting="same_kind")
        return columns, values, counts

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """:meth:`summarize` from a run's running sums (:class:`balance.run.moments.RunSums`)."""
        content = setup.rules.content()
        summary: dict[str, Any] = {"decks": list(content.deck_names)}
        count = sums.games
        if not count:
            summary["win_reason"] = {reason: float("nan") for reason in WIN_REASONS}
            return summary
        reason = sums.count("win_reason")
        summary["win_reason"] = {}
        summary["win_reason_ci95"] = {}
        for k, name in enumerate(WIN_REASONS):
            hits = int(reason[k]) if k < reason.size else 0
            low, high = wilson_interval(hits, count)
            summary["win_reason"][name] = hits / count
            summary["win_reason_ci95"][name] = [float(low), float(high)]
        cap = WIN_REASONS.index("cap")
        summary["capped_games"] = int(reason[cap]) if cap < reason.size else 0
        summary["capped_rate"] = summary["win_reason"]["cap"]
        summary["capped_ci95"] = summary["win_reason_ci95"]["cap"]
        for name in SEAT_MEANS:
            summary[f"{name}_mean"] = []
            summary[f"{name}_ci95"] = []
            for seat in range(2):
                mean, low, high = sums.mean_interval(f"{name}_{seat}", floor=0.0)
                summary[f"{name}_mean"].append(mean)
                summary[f"{name}_ci95"].append([low, high])
        summary["hit_rate"] = []
        summary["hit_rate_ci95"] = []
        for seat in range(2):
            rate, low, high = sums.share_interval(f"hits_{seat}", f"shots_{seat}")
            summary["hit_rate"].append(rate)
            summary["hit_rate_ci95"].append([low, high])
        size = TOTAL.SIZE
        totals = sums.count("card_totals").astype(np.float64).reshape(2, -1, size)
        pairs = sums.count("pair_totals").astype(np.float64).reshape(-1, size)
        summary["cards"] = cards_summary(
            totals,
            content.deck_cards,
            content.names,
            content.deck_names,
            content.is_mirror(),
            pairs,
        )
        return summary

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own part of ``balance simulate``'s text: how games ended, play, cards."""
        decks = summary["decks"]
        lines = [f"Decks: seat 0 {decks[0]}, seat 1 {decks[1]}"]
        if "win_reason_ci95" not in summary:
            return lines
        lines.append(capped_line(summary))
        lines.append("How games ended:")
        for name, rate in summary["win_reason"].items():
            label = "capped (no winner)" if name == "cap" else f"lost by {name}"
            lines.append(
                f"  {label:<22} {percent(rate):>6}  {interval(summary['win_reason_ci95'][name])}"
            )
        lines.append("Per game, by seat:             seat 0                   seat 1")
        for name, label in SEAT_MEANS.items():
            cells = [
                f"{mean:7.2f} {interval(ci, as_percent=False):<15}"
                for mean, ci in zip(summary[f"{name}_mean"], summary[f"{name}_ci95"], strict=True)
            ]
            lines.append(f"  {label:<28} {'  '.join(cells)}")
        cells = [
            f"{percent(rate):>7} {interval(ci):<15}"
            for rate, ci in zip(summary["hit_rate"], summary["hit_rate_ci95"], strict=True)
        ]
        lines.append(f"  {'cannon hit rate':<28} {'  '.join(cells)}")
        lines.append(
            f"Cards ({summary.get('games', 0):,} games), per game of the deck that holds them "
            "(95% intervals); win rate in the "
            "games it was played, and in those it was drawn and held. Those games are chosen "
            "by play, not at random (a card played in winning positions looks better): a "
            "card's value is measured by restricted play, balance cards battle-of-thieves."
        )
        for name, row in summary["cards"].items():
            seats = "/".join(str(s) for s in row["seats"])
            played = row["played_per_game"]
            ci = row.get("played_per_game_ci95")
            spread = f" {interval(ci, as_percent=False)}" if ci else ""
            pooled = len(row["seats"]) > 1  # a mirror match: a seat-game is one observation
            counts = {
                group: f"{row[f'{group}_games']:,} seat-games ({row[f'{group}_in_games']:,} games)"
                if pooled
                else f"{row[f'{group}_games']:,} games"
                for group in ("played", "held")
            }
            ci = row.get("drawn_per_game_ci95")
            drawn = f" {interval(ci, as_percent=False)}" if ci else ""
            lines.append(
                f"  {name[:24]:<24} seat {seats:<3} played {played:5.2f}{spread} of "
                f"{row['drawn_per_game']:.2f}{drawn} drawn; won {percent(row['win_rate_played'])} "
                f"{interval(row['win_rate_played_ci95'])} of {counts['played']} played, "
                f"{percent(row['win_rate_held'])} {interval(row['win_rate_held_ci95'])} "
                f"of {counts['held']} held"
            )
        return lines

    replay_title = "Battle of Thieves"

    def narrate(self, setup: Setup, game_index: int, say: Any) -> Any:
        """Game ``game_index`` narrated action by action by the reference engine."""
        from balance.games.battle_of_thieves import reference
        from balance.games.battle_of_thieves.bridge import compiled_player

        return reference.play_game(
            setup.rules,
            setup.rules.content(),
            setup.seed,
            game_index,
            make_player=player_factory(
                setup.lineup, game_index, reference.RandomPlayer, compiled_player
            ),
            narrate=say,
        )


def capped_line(summary: Mapping[str, Any]) -> str:
    """:func:`capped_text` for a run's summary, with where the docs explain it."""
    from balance.games.battle_of_thieves.report import capped_text

    text = capped_text(summary["capped_games"], summary["games"], summary["rules"]["turn_cap"])
    return f"Games {text} (why: docs/battle-of-thieves.md, 'Games that stall')"


def _whole(totals: np.ndarray) -> np.ndarray:
    """Per-card sums (float64 whole numbers, any shape) flattened to int64 ``(m,)``, exact."""
    flat = np.asarray(totals, dtype=np.float64).ravel()
    whole = np.rint(flat).astype(np.int64)
    if not np.array_equal(whole, flat):
        raise ValueError("per-card sums must be whole numbers")
    return whole


def _block_totals(block: Block, name: str = "card_totals") -> np.ndarray:
    """A block's per-card sums (:func:`card_totals`, or ``pair_totals``: both seats pooled
    game by game), kept by a slim block or summed from its records."""
    if name in block.extra:
        return block.extra[name]
    made = card_totals if name == "card_totals" else pair_totals
    return made(block.extra["cards"], block.won)


def _cards_table(block: Block, content: Any, game_index: np.ndarray) -> pa.Table:
    """One row per game, seat and distinct card of the seat's deck."""
    cards = block.extra["cards"]
    parts = []
    names = list(content.names)
    for seat in range(2):
        ids = content.deck_cards[seat]
        rows = int((ids >= 0).sum())
        parts.append(
            {
                "game": np.repeat(game_index, rows),
                "seat": np.full(rows * block.size, seat, dtype=np.int8),
                "card": np.tile(ids[:rows].astype(np.int32), block.size),
                "drawn": cards[:, seat, :rows, CARD_STAT.DRAWN].ravel(),
                "played": cards[:, seat, :rows, CARD_STAT.PLAYED].ravel(),
                "held_turns": cards[:, seat, :rows, CARD_STAT.HELD].ravel(),
                "won": np.repeat(block.won[:, seat], rows),
            }
        )
    merged = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    order = np.lexsort((merged["seat"], merged["game"]))
    merged = {key: value[order] for key, value in merged.items()}
    return pa.table(
        {
            "game": merged["game"],
            "seat": merged["seat"],
            "card": pa.DictionaryArray.from_arrays(pa.array(merged["card"]), pa.array(names)),
            "drawn": merged["drawn"].astype(np.int16),
            "played": merged["played"].astype(np.int16),
            "held_turns": merged["held_turns"].astype(np.int16),
            "won": merged["won"],
        }
    )


GAME = BattleOfThieves()
