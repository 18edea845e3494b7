"""The summary of a run: the numbers ``balance simulate`` prints, each with its uncertainty.

The keys every game shares are computed here from the columns every game records
(length, finished, won); the game adds its own keys (:meth:`Game.summarize`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.caveats import run_warnings, run_warnings_from_counts
from balance.games import get_game
from balance.games.base import seat_labels
from balance.metrics import (
    balance_index_from_moments,
    balance_index_interval,
    length_summary,
    length_summary_from_counts,
)
from balance.moments import RunSums
from balance.run import RunResult
from balance.stats import share_interval, wilson_interval


def summarize(result: RunResult) -> dict[str, Any]:
    """JSON-ready summary of ``result`` (see README for every key).

    A run that kept running sums only (``result.sums``) gives the same figures as its
    records would (:mod:`balance.moments`).
    """
    if result.sums is not None:
        return _summarize_sums(result, result.sums)
    setup = result.setup
    game = get_game(setup.game)
    n = setup.players
    blocks = result.blocks
    games = result.games
    if games == 0:
        length = np.zeros(0)
        finished = np.zeros(0, dtype=bool)
        won = np.zeros((0, n), dtype=bool)
        index = np.zeros(0, dtype=np.int64)
    else:
        length = np.concatenate([b.length for b in blocks]).astype(float)
        finished = np.concatenate([b.finished for b in blocks])
        won = np.concatenate([b.won for b in blocks])
        index = np.concatenate(
            [np.arange(b.first_game, b.first_game + b.size, dtype=np.int64) for b in blocks]
        )
    winners = np.bincount(won.sum(axis=1).astype(np.int64), minlength=3)
    summary = _common(
        result,
        warnings=run_warnings(finished, won, game.length_cap(setup.rules), game.length_unit),
        finished=int(finished.sum()),
        lengths=length_summary(length, finished),
        winners=winners,
        seat_wins=won.sum(axis=0),
        balance=balance_index_interval(won),
    )
    if setup.lineup.mixed:
        summary["strategy_win_rate"] = _strategy_rates(setup, index, won)
    summary.update(game.summarize(blocks, setup))
    summary["elapsed_s"] = result.elapsed_s
    summary["games_per_s"] = result.games_per_s
    return summary


def _summarize_sums(result: RunResult, sums: RunSums) -> dict[str, Any]:
    """:func:`summarize` from a run's running sums (no records kept)."""
    setup = result.setup
    game = get_game(setup.game)
    n = setup.players
    games = sums.games
    won_columns = [f"won_{s}" for s in range(n)]
    seat_wins = np.array([sums.sum(c) for c in won_columns], dtype=np.int64)
    ended, stopped = sums.count("length_ended"), sums.count("length_stopped")
    finished = int(ended.sum())
    covariance = sums.covariance(won_columns) if games >= 2 else None
    summary = _common(
        result,
        warnings=run_warnings_from_counts(
            games,
            games - finished,
            int(seat_wins.sum()),
            game.length_cap(setup.rules),
            game.length_unit,
        ),
        finished=finished,
        lengths=length_summary_from_counts(ended, stopped),
        winners=sums.count("winners"),
        seat_wins=seat_wins,
        balance=balance_index_from_moments(games, sums.rates(won_columns), covariance),
    )
    if setup.lineup.mixed:
        rows = []
        for k, label in enumerate(dict.fromkeys(setup.lineup.labels)):
            rate, low, high = sums.share_interval(f"wins_{k}", f"plays_{k}")
            rows.append(
                {
                    "strategy": label,
                    "seats_played": sums.sum(f"plays_{k}"),
                    "rate": rate,
                    "ci95": [low, high],
                }
            )
        summary["strategy_win_rate"] = rows
    summary.update(game.summarize_sums(sums, setup))
    summary["elapsed_s"] = result.elapsed_s
    summary["games_per_s"] = result.games_per_s
    return summary


def _common(
    result: RunResult,
    *,
    warnings: list[str],
    finished: int,
    lengths: dict[str, Any],
    winners: np.ndarray,
    seat_wins: np.ndarray,
    balance: dict[str, Any],
) -> dict[str, Any]:
    """The keys every game shares, from counts over the run's games.

    Parameters
    ----------
    finished : games that ended by the rules.
    lengths : :func:`balance.metrics.length_summary`'s figures.
    winners : int ``(m,)``, games with ``0 .. m - 1`` winners.
    seat_wins : int ``(n,)``, games each seat won.
    balance : :func:`balance.metrics.balance_index_interval`'s figures.
    """
    setup = result.setup
    game = get_game(setup.game)
    n = setup.players
    games = result.games
    low, high = wilson_interval(finished, games)
    winner_count = {}
    for k in range(0, max(2, n) + 1):
        count = int(winners[k]) if k < winners.size else 0
        if k > 2 and not count:
            continue
        w_low, w_high = wilson_interval(count, games)
        winner_count[str(k)] = {"rate": _rate(count, games), "ci95": [float(w_low), float(w_high)]}
    seat_rows = []
    for seat in range(n):
        wins = int(seat_wins[seat])
        s_low, s_high = wilson_interval(wins, games)
        seat_rows.append(
            {"seat": seat, "rate": _rate(wins, games), "ci95": [float(s_low), float(s_high)]}
        )
    return {
        "warnings": warnings,
        "game": setup.game,
        "players": n,
        "games": games,
        "requested_games": result.requested,
        "partial": result.partial,
        "seed": setup.seed,
        "variants": list(setup.rules.variants),
        "rules": setup.rules.to_dict(),
        "strategies": setup.lineup.labels,
        "rotate_seats": setup.lineup.rotate,
        "seating": setup.lineup.seating_text(),
        "restricted": list(setup.lineup.restricted),
        "threads": result.threads,
        "finished_rate": _rate(finished, games),
        "finished_ci95": [float(low), float(high)],
        "length_mean": lengths["mean"],
        "length_ci95": [lengths["mean_low"], lengths["mean_high"]],
        "length_sd": lengths["sd"],
        "length_unfinished": lengths["unfinished"],
        "length_mean_is_lower_bound": lengths["mean_is_lower_bound"],
        "length_median": lengths["median"],
        "length_median_ci95": [lengths["median_low"], lengths["median_high"]],
        "length_restricted": lengths["restricted_mean"],
        "length_restricted_ci95": [lengths["restricted_low"], lengths["restricted_high"]],
        "length_restricted_to": lengths["restricted_to"],
        "length_unit": game.length_unit,
        "length_cap": game.length_cap(setup.rules),
        "winner_count": {k: v["rate"] for k, v in winner_count.items()},
        "winner_count_ci95": {k: v["ci95"] for k, v in winner_count.items()},
        "seat_win_rate": seat_rows,
        "seat_labels": seat_labels(game, setup),
        "balance_index": balance["value"],
        "balance_index_ci95": [balance["low"], balance["high"]],
        "interval_method": "95%: Wilson for rates over games; Student t for means; "
        "delta method over games for ratios of counts; Wilson at the effective number of "
        "trials (design effect over games) for shares of trials; Kaplan-Meier with "
        "Greenwood's variance for the median and restricted mean length; simultaneous "
        "intervals of the seat differences for the balance index",
    }


def _rate(count: int, total: int) -> float:
    return count / total if total else float("nan")


def _strategy_rates(setup, index: np.ndarray, won: np.ndarray) -> list[dict[str, Any]]:
    """Win rate per strategy label over every seat it played; games are the clusters."""
    labels = setup.lineup.labels
    unique = list(dict.fromkeys(labels))
    label_of = np.array([unique.index(label) for label in labels])
    seat_labels = np.stack(
        [label_of[setup.lineup.strategy_index(index, seat)] for seat in range(setup.players)],
        axis=1,
    )
    rows = []
    for k, label in enumerate(unique):
        here = seat_labels == k
        plays = here.sum(axis=1)
        wins = (here & won).sum(axis=1)
        rate, low, high = share_interval(wins, plays)
        rows.append(
            {"strategy": label, "seats_played": int(plays.sum()), "rate": rate, "ci95": [low, high]}
        )
    return rows
