"""The summary of a run: the numbers ``balance simulate`` prints, each with its uncertainty.

The keys every game shares are computed here from the columns every game records
(length, finished, won); the game adds its own keys (:meth:`Game.summarize`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.caveats import run_warnings
from balance.games import get_game
from balance.metrics import balance_index_interval, length_summary
from balance.run import RunResult
from balance.stats import share_interval, wilson_interval


def summarize(result: RunResult) -> dict[str, Any]:
    """JSON-ready summary of ``result`` (see README for every key)."""
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

    low, high = wilson_interval(finished.sum(), games)
    lengths = length_summary(length, finished)
    winners = won.sum(axis=1)
    winner_count = {}
    for k in range(0, max(2, n) + 1):
        if k > 2 and not (winners == k).any():
            continue
        count = int((winners == k).sum())
        w_low, w_high = wilson_interval(count, games)
        winner_count[str(k)] = {"rate": _rate(count, games), "ci95": [float(w_low), float(w_high)]}

    seat_rows = []
    for seat in range(n):
        wins = int(won[:, seat].sum())
        s_low, s_high = wilson_interval(wins, games)
        seat_rows.append(
            {"seat": seat, "rate": _rate(wins, games), "ci95": [float(s_low), float(s_high)]}
        )
    balance = balance_index_interval(won)

    summary: dict[str, Any] = {
        "warnings": run_warnings(finished, won, game.length_cap(setup.rules), game.length_unit),
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
        "finished_rate": _rate(int(finished.sum()), games),
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
        "balance_index": balance["value"],
        "balance_index_ci95": [balance["low"], balance["high"]],
        "interval_method": "95%: Wilson for rates over games; Student t for means; "
        "delta method over games for ratios of counts; Wilson at the effective number of "
        "trials (design effect over games) for shares of trials; Kaplan-Meier with "
        "Greenwood's variance for the median and restricted mean length; simultaneous "
        "intervals of the seat differences for the balance index",
    }
    if setup.lineup.mixed:
        summary["strategy_win_rate"] = _strategy_rates(setup, index, won)
    summary.update(game.summarize(blocks, setup))
    summary["elapsed_s"] = result.elapsed_s
    summary["games_per_s"] = result.games_per_s
    return summary


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
