"""Lifeboats as the shared runner, results, reports and CLI see it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.core.formatting import interval, percent
from balance.core.game import Block, Capabilities, EngineGame, RuleSet, Setup
from balance.core.lazy import LazyModule, pd
from balance.core.records import labels_column
from balance.games.lifeboats.layout import (
    HAT_ROUND_COLUMNS,
    HAT_ROUNDS,
    ISLAND_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TIE_RULES,
    BoatStat,
    GameStat,
    SeatStat,
)
from balance.games.lifeboats.rules import LifeboatsRules
from balance.stats.intervals import mean_interval, mean_interval_from_sums, wilson_interval

if TYPE_CHECKING:
    from balance.stats.metrics import Metric

engine = LazyModule("balance.games.lifeboats.engine")

#: What each seat record adds up to in the summary, per game over all seats.
_PER_GAME_SEATS = {
    "pawns_saved": (SeatStat.SAVED_OFFICERS, SeatStat.SAVED_SAILORS),
    "hats_used": (SeatStat.HATS_USED,),
    "pawns_overboard": (SeatStat.OVERBOARD,),
    "pawns_sunk": (SeatStat.SUNK,),
    "pawns_no_seat": (SeatStat.NO_SEAT,),
}
#: What each per-game count counts, so that a comparison never charts hats beside pawns.
_UNITS = {
    "pawns_saved": "pawns",
    "hats_used": "hats",
    "pawns_overboard": "pawns",
    "pawns_sunk": "pawns",
    "pawns_no_seat": "pawns",
    "boats_sunk": "boats",
    "boats_landed": "boats",
    "ballots": "ballots",
    "hat_decided": "ballots",
    "ties_broken": "ballots",
    "revotes": "ballots",
}
_PER_GAME_GAMES = {
    "boats_sunk": GameStat.BOATS_SUNK,
    "boats_landed": GameStat.BOATS_LANDED,
    "ballots": GameStat.VOTES,
    "hat_decided": GameStat.HAT_DECIDED,
    "ties_broken": GameStat.TIES_BROKEN,
    "revotes": GameStat.REVOTES,
}


class Lifeboats(EngineGame):
    """Rette sich wer kann (Lifeboats, Ronald Wettering), 3-6 players."""

    id = "lifeboats"
    title = "Lifeboats (Rette sich wer kann)"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    length_unit = "rounds"
    variants: Mapping[str, str] = {}
    seat_note = "seat (0 places its boat first and leads round 1)"
    # Restricted play forbids the captain's hat: a seat that never plays one.
    action_noun = "vote option"
    action_verb = "play"
    capabilities = Capabilities(
        restricted_actions=True,
        search=True,
        reference_engine=True,
        replay=True,
        running_sums=True,
    )

    rules_class = LifeboatsRules
    checked_rules = (
        RuleSet("defaults"),
        RuleSet(
            "fewer-seats",
            rules=(("seats_per_boat", "4"), ("officers", "1,1,1,1"), ("sailors", "3,3,2,2")),
        ),
        RuleSet(
            "cramped",
            rules=(("seats_per_boat", "3"), ("officers", "1,1,1,1"), ("sailors", "2,2,2,2")),
        ),
        RuleSet("longer-track", rules=(("track_length", "6"),)),
        RuleSet("fewer-leaks", rules=(("leaks", "4"),)),
        RuleSet("no-leaks", rules=(("leaks", "0"), ("track_length", "2"))),
        RuleSet("no-hats", rules=(("hats", "0"),)),
        RuleSet("many-hats", rules=(("hats", "9"),)),
        RuleSet(
            "other-islands",
            rules=(
                ("lane_islands", "3,0,1,2,3,2,1,0,0"),
                ("officer_points", "9,7,5,3"),
                ("sailor_points", "5,4,3,0"),
            ),
        ),
        RuleSet(
            "seven-lanes-one-island",
            rules=(
                ("lane_islands", "0,0,0,0,0,0,0"),
                ("officer_points", "3"),
                ("sailor_points", "3"),
            ),
        ),
        RuleSet("round-cap-5", rules=(("round_cap", "5"),)),
        RuleSet("stay-without-seat", rules=(("stay_without_seat", "true"),)),
    )

    def length_cap(self, rules: LifeboatsRules) -> int:
        """The round cap: games with a boat still afloat then are unfinished."""
        return rules.round_cap

    def actions(self) -> tuple[str, ...]:
        """What restricted play may forbid: the hat (the seat keeps its hats unplayed)."""
        return engine.RESTRICTABLE

    def check_restricted(self, names: Sequence[str]) -> None:
        engine.check_restricted(names)

    def derived_columns(self, block: Block, setup: Setup) -> dict[str, dict[str, Any]]:
        """The winners and strategies; the boats by name, the first to land, each boat's
        island."""
        derived = super().derived_columns(block, setup)
        g_count, n = block.won.shape
        names = boat_labels(n)
        first = block.extra["games"][:, GameStat.FIRST_LANDED]
        derived["games"]["first_landed"] = labels_column(first, names)
        lanes = block.extra["boats"][:, :, BoatStat.LANE].ravel()
        island_of_lane = np.asarray(setup.rules.lane_islands)
        derived["boats"] = {
            "boat": labels_column(np.tile(np.arange(n + 1), g_count), names),
            "island": labels_column(island_of_lane[lanes], list(ISLAND_NAMES)),
        }
        return derived

    def slim(self, block: Block) -> Block:
        """The block with only what :meth:`summarize` reads: of the per-boat records, only
        the lane of each player's own boat (``lanes``, int ``(G, n)``)."""
        if "boats" not in block.extra:
            return block
        n = block.won.shape[1]
        extra = {
            "games": block.extra["games"],
            "seats": block.extra["seats"],
            "lanes": block.extra["boats"][:, :n, BoatStat.LANE].astype(np.int8),
        }
        return dataclasses.replace(block, extra=extra)

    def per_game(self, blocks: Sequence[Block]) -> tuple[pd.DataFrame, list[Metric]]:
        """Per game: every seat's score, and the totals the summary reports."""
        from balance.stats.metrics import Metric

        games = np.concatenate([b.extra["games"] for b in blocks])
        seats = np.concatenate([b.extra["seats"] for b in blocks])
        columns: dict[str, np.ndarray] = {}
        chosen = []
        for seat in range(seats.shape[1]):
            columns[f"score_{seat}"] = seats[:, seat, SeatStat.SCORE]
            chosen.append(Metric(f"seat {seat} score", f"score_{seat}", "mean", "points"))
        won = seats[:, :, SeatStat.WON].sum(axis=1)
        columns["shared_win"] = won >= 2
        chosen.append(Metric("shared win", "shared_win", "share"))
        for name, slots in _PER_GAME_SEATS.items():
            columns[name] = sum(seats[:, :, slot].sum(axis=1) for slot in slots)
            chosen.append(Metric(name.replace("_", " ") + " per game", name, "mean", _UNITS[name]))
        for name, slot in _PER_GAME_GAMES.items():
            columns[name] = games[:, slot]
            chosen.append(Metric(name.replace("_", " ") + " per game", name, "mean", _UNITS[name]))
        return pd.DataFrame(columns), chosen

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """Scores per seat, pawns saved, boats sunk, hats used and shared wins, per game."""
        if not blocks:
            return {
                "score_mean": [float("nan")] * setup.players,
                "shared_win_rate": float("nan"),
            }
        slim = [self.slim(b) for b in blocks]
        table, _ = self.per_game(slim)
        count = len(table)
        summary: dict[str, Any] = {"score_mean": [], "score_ci95": []}
        for seat in range(setup.players):
            mean, low, high = mean_interval(table[f"score_{seat}"].to_numpy(), floor=0.0)
            summary["score_mean"].append(mean)
            summary["score_ci95"].append([low, high])
        for name in (*_PER_GAME_SEATS, *_PER_GAME_GAMES):
            mean, low, high = mean_interval(table[name].to_numpy(), floor=0.0)
            summary[f"{name}_mean"] = mean
            summary[f"{name}_ci95"] = [low, high]
        shared = int(table["shared_win"].sum())
        low, high = wilson_interval(shared, count)
        summary["shared_win_rate"] = shared / count
        summary["shared_win_ci95"] = [float(low), float(high)]
        games = np.concatenate([b.extra["games"] for b in slim])
        rule = games[:, GameStat.TIE_RULE]
        finished = int((rule >= 0).sum())
        summary["tie_rule"] = {}
        summary["tie_rule_ci95"] = {}
        summary["tie_rule_games"] = finished
        for k, name in enumerate(TIE_RULES):
            hits = int((rule == k).sum())
            r_low, r_high = wilson_interval(hits, finished)
            summary["tie_rule"][name] = hits / finished if finished else float("nan")
            summary["tie_rule_ci95"][name] = [float(r_low), float(r_high)]
        summary.update(_choices_summary(slim, setup))
        return summary

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """What :meth:`summarize_sums` reads of a block, one row a game.

        Columns: each seat's score; the per-game totals of the summary (pawns saved,
        overboard..., boats sunk, ballots...); the hats played in each round (the last
        counting every later round), zero in games that did not reach it. Histograms:
        ``rounds`` (games by rounds played: the games that reached each round),
        ``tie_rule`` (finished games by how the winner was decided), ``lane_seats`` and
        ``lane_wins`` (seats, and winning seats, by the lane of their own boat, at
        ``lane + 1``).

        Returns
        -------
        ``(columns, values, counts)``: names ``(k,)``, whole numbers as float64 ``(G, k)``
        and histograms.
        """
        slim = self.slim(block)
        games, seats = slim.extra["games"], slim.extra["seats"]
        n = seats.shape[1]
        columns = [f"score_{s}" for s in range(n)]
        parts = [seats[:, :, SeatStat.SCORE]]
        for name, slots in _PER_GAME_SEATS.items():
            columns.append(name)
            parts.append(sum(seats[:, :, slot].sum(axis=1) for slot in slots)[:, None])
        for name, slot in _PER_GAME_GAMES.items():
            columns.append(name)
            parts.append(games[:, slot, None])
        rounds = games[:, GameStat.ROUNDS].astype(np.int64)
        reached = rounds[:, None] >= np.arange(1, HAT_ROUNDS + 1)[None, :]
        hats = games[:, GameStat.HATS_ROUND : GameStat.HATS_ROUND + HAT_ROUNDS]
        columns += HAT_ROUND_COLUMNS
        parts.append(hats * reached)
        rule = games[:, GameStat.TIE_RULE].astype(np.int64)
        lanes = slim.extra["lanes"].astype(np.int64).ravel() + 1
        counts = {
            "rounds": np.bincount(rounds),
            "tie_rule": np.bincount(rule[rule >= 0], minlength=len(TIE_RULES)),
            "lane_seats": np.bincount(lanes),
            "lane_wins": np.bincount(lanes[slim.won.ravel()]),
        }
        values = np.concatenate(parts, axis=1, dtype=np.float64, casting="same_kind")
        return columns, values, counts

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """:meth:`summarize` from a run's running sums (:class:`balance.run.moments.RunSums`)."""
        count = sums.games
        if not count:
            return {
                "score_mean": [float("nan")] * setup.players,
                "shared_win_rate": float("nan"),
            }
        summary: dict[str, Any] = {"score_mean": [], "score_ci95": []}
        for seat in range(setup.players):
            mean, low, high = sums.mean_interval(f"score_{seat}", floor=0.0)
            summary["score_mean"].append(mean)
            summary["score_ci95"].append([low, high])
        for name in (*_PER_GAME_SEATS, *_PER_GAME_GAMES):
            mean, low, high = sums.mean_interval(name, floor=0.0)
            summary[f"{name}_mean"] = mean
            summary[f"{name}_ci95"] = [low, high]
        shared = int(sums.count("winners")[2:].sum())
        low, high = wilson_interval(shared, count)
        summary["shared_win_rate"] = shared / count
        summary["shared_win_ci95"] = [float(low), float(high)]
        rule = sums.count("tie_rule")
        finished = int(rule.sum())
        summary["tie_rule"] = {}
        summary["tie_rule_ci95"] = {}
        summary["tie_rule_games"] = finished
        for k, name in enumerate(TIE_RULES):
            hits = int(rule[k]) if k < rule.size else 0
            r_low, r_high = wilson_interval(hits, finished)
            summary["tie_rule"][name] = hits / finished if finished else float("nan")
            summary["tie_rule_ci95"][name] = [float(r_low), float(r_high)]
        summary.update(_choices_from_sums(sums, setup))
        return summary

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own part of ``balance simulate``'s text: scores, pawns, boats, hats."""
        lines = ["Mean score by seat:"]
        for seat, (mean, ci) in enumerate(
            zip(summary["score_mean"], summary["score_ci95"], strict=True)
        ):
            lines.append(f"  seat {seat}  {mean:6.2f}  {interval(ci, as_percent=False)}")
        lines.append(
            f"Shared wins (a tie nobody's boat could break): {percent(summary['shared_win_rate'])} "
            f"{interval(summary['shared_win_ci95'])}"
        )
        lines.append("Per game, all seats together:")
        for name, label in (
            ("pawns_saved", "pawns saved (landed)"),
            ("pawns_overboard", "pawns thrown overboard"),
            ("pawns_sunk", "pawns sunk with a boat"),
            ("pawns_no_seat", "swimmers with no seat"),
            ("boats_landed", "boats landed"),
            ("boats_sunk", "boats sunk"),
            ("ballots", "ballots (revotes included)"),
            ("hats_used", "captain's hats played"),
            ("hat_decided", "ballots a lone hat decided"),
            ("ties_broken", "ties the first player broke"),
        ):
            lines.append(
                f"  {label:<28} {summary[f'{name}_mean']:6.2f} "
                f"{interval(summary[f'{name}_ci95'], as_percent=False)}"
            )
        lines += _choices_lines(summary)
        lines.append(
            f"How the winner was decided ({summary.get('tie_rule_games', 0):,} finished games, "
            "95% Wilson intervals):"
        )
        for name, rate in summary["tie_rule"].items():
            lines.append(
                f"  {name:<32} {percent(rate):>6}  {interval(summary['tie_rule_ci95'][name])}"
            )
        return lines

    replay_title = "Lifeboats"

    def restrictions(self, setup: Setup, game_index: int) -> dict[str, Any]:
        """The seat that may never play a hat (-1: none)."""
        return {"hatless": engine.hatless_seat(setup.lineup, game_index)}


def _choices_summary(blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
    """Win rate by the lane each player chose for their boat, and hats played by round.

    ``lane_win_rate`` maps a lane (as text) to the win rate of the seats whose own boat
    started on it (``lane_win_ci95`` Wilson, ``lane_seats`` the seats it rests on, and
    ``lane_island``); ``hats_by_round_mean`` lists, for round 1, 2, ..., ``HAT_ROUNDS``
    and later, the hats played in that round per game that reached it (``_ci95`` Student
    t, ``hats_by_round_games`` the games that reached it).
    """
    from balance.games.lifeboats.metrics import hats_by_round

    out: dict[str, Any] = {
        "lane_win_rate": {},
        "lane_win_ci95": {},
        "lane_seats": {},
        "lane_island": {},
    }
    if all("lanes" in b.extra for b in blocks):
        lanes = np.concatenate([b.extra["lanes"] for b in blocks]).ravel()
        won = np.concatenate([b.won for b in blocks]).ravel()
        for lane in np.unique(lanes):
            here = lanes == lane
            count, wins = int(here.sum()), int(won[here].sum())
            low, high = wilson_interval(wins, count)
            key = str(int(lane))
            out["lane_win_rate"][key] = wins / count
            out["lane_win_ci95"][key] = [float(low), float(high)]
            out["lane_seats"][key] = count
            out["lane_island"][key] = ISLAND_NAMES[setup.rules.lane_islands[int(lane)]]
    games = np.concatenate([b.extra["games"] for b in blocks])
    table = pd.DataFrame(
        games[:, GameStat.HATS_ROUND : GameStat.HATS_ROUND + HAT_ROUNDS], columns=HAT_ROUND_COLUMNS
    ).assign(rounds=games[:, GameStat.ROUNDS])
    rounds = hats_by_round(table, HAT_ROUND_COLUMNS)
    out["hats_by_round"] = list(rounds["round"])
    out["hats_by_round_mean"] = [float(x) for x in rounds["mean"]]
    out["hats_by_round_ci95"] = [
        [float(lo), float(hi)] for lo, hi in zip(rounds["low"], rounds["high"], strict=True)
    ]
    out["hats_by_round_games"] = [int(x) for x in rounds["games"]]
    return out


def _choices_from_sums(sums: Any, setup: Setup) -> dict[str, Any]:
    """:func:`_choices_summary` from running sums (:meth:`Lifeboats.sum_columns`)."""
    out: dict[str, Any] = {
        "lane_win_rate": {},
        "lane_win_ci95": {},
        "lane_seats": {},
        "lane_island": {},
    }
    seats, wins = sums.count("lane_seats"), sums.count("lane_wins")
    for shifted in np.flatnonzero(seats):
        lane = int(shifted) - 1
        count = int(seats[shifted])
        won = int(wins[shifted]) if shifted < wins.size else 0
        low, high = wilson_interval(won, count)
        key = str(lane)
        out["lane_win_rate"][key] = won / count
        out["lane_win_ci95"][key] = [float(low), float(high)]
        out["lane_seats"][key] = count
        out["lane_island"][key] = ISLAND_NAMES[setup.rules.lane_islands[lane]]
    rounds = sums.count("rounds")
    out["hats_by_round"] = []
    out["hats_by_round_mean"] = []
    out["hats_by_round_ci95"] = []
    out["hats_by_round_games"] = []
    for k, column in enumerate(HAT_ROUND_COLUMNS):
        reached = int(rounds[k + 1 :].sum())
        mean, low, high = mean_interval_from_sums(
            reached, sums.sum(column), sums.product(column, column), floor=0.0
        )
        out["hats_by_round"].append(f"{k + 1}+" if k + 1 == HAT_ROUNDS else str(k + 1))
        out["hats_by_round_mean"].append(float(mean))
        out["hats_by_round_ci95"].append([float(low), float(high)])
        out["hats_by_round_games"].append(reached)
    return out


def _choices_lines(summary: Mapping[str, Any]) -> list[str]:
    """The text of :func:`_choices_summary`."""
    lines = []
    if summary.get("lane_win_rate"):
        lines.append("Win rate by the lane a player chose for their boat (95% Wilson intervals):")
        for lane, rate in summary["lane_win_rate"].items():
            lines.append(
                f"  lane {lane} (island {summary['lane_island'][lane]})  {percent(rate):>6}  "
                f"{interval(summary['lane_win_ci95'][lane])}  "
                f"{summary['lane_seats'][lane]:,} seats"
            )
    if not summary.get("hats_by_round"):
        return lines
    lines.append(
        "Captain's hats played per game in each round, of the games that reached it "
        "(95% Student t intervals):"
    )
    for name, mean, ci, games in zip(
        summary["hats_by_round"],
        summary["hats_by_round_mean"],
        summary["hats_by_round_ci95"],
        summary["hats_by_round_games"],
        strict=True,
    ):
        if games:
            lines.append(
                f"  round {name:<4} {mean:5.2f}  {interval(ci, as_percent=False)}  {games:,} games"
            )
    return lines


def boat_labels(players: int) -> list[str]:
    """The boats' names: each seat's boat by its owner, then the black boat."""
    return [f"seat {s}" for s in range(players)] + ["black"]


GAME = Lifeboats()
