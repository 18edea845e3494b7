"""The summary of a run: the numbers ``balance simulate`` prints, each with its uncertainty.

The keys every game shares are computed here from the columns every game records
(length, finished, won); the game adds its own keys (:meth:`Game.summarize`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.core.formatting import index_text, interval, percent, rules_text
from balance.core.game import seat_labels
from balance.games import get_game
from balance.run.moments import RunSums
from balance.run.precision import precision_lines
from balance.run.runner import RunResult
from balance.stats.caveats import run_warnings, run_warnings_from_counts, warning_lines
from balance.stats.intervals import share_interval, wilson_interval
from balance.stats.metrics import (
    balance_index_from_moments,
    balance_index_interval,
    length_summary,
    length_summary_from_counts,
)


def summarize(result: RunResult) -> dict[str, Any]:
    """JSON-ready summary of ``result`` (see README for every key).

    A run that kept running sums only (``result.sums``) gives the same figures as its
    records would (:mod:`balance.run.moments`).
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
    lengths : :func:`balance.stats.metrics.length_summary`'s figures.
    winners : int ``(m,)``, games with ``0 .. m - 1`` winners.
    seat_wins : int ``(n,)``, games each seat won.
    balance : :func:`balance.stats.metrics.balance_index_interval`'s figures.
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
        "backend": result.backend,
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


def format_summary(s: dict[str, Any]) -> str:
    """The summary as a designer reads it in a terminal."""
    n_games = s["games"]
    lines = [
        *warning_lines(s.get("warnings", [])),
        *(precision_lines(s) if s.get("anytime_valid") else []),
        f"{s['game']}: {n_games:,} games, {s['players']} players, seed {s['seed']}"
        + (f" (interrupted: {s['requested_games']:,} asked)" if s["partial"] else ""),
        f"variants: {', '.join(s['variants']) or 'none (base game)'}",
        "rules: " + rules_text(s["rules"]),
        f"strategies: {', '.join(s['strategies'])}",
        s["seating"],
        "",
        f"Seat win rates ({n_games:,} games, 95% "
        f"{'anytime-valid' if s.get('anytime_valid') else 'Wilson'} intervals):",
    ]
    width = max(len(label) for label in s["seat_labels"])
    for row, label in zip(s["seat_win_rate"], s["seat_labels"], strict=True):
        lines.append(f"  {label:<{width}}  {percent(row['rate']):>6}  {interval(row['ci95'])}")
    lines.append(
        f"  balance index (1 - largest gap between seats): {index_text(s['balance_index'])} "
        + (
            f"{interval(s['balance_index_ci95'], as_percent=False, digits=3)}"
            if s["balance_index"] == s["balance_index"]
            else "(no game had a winner)"
        )
    )
    if "strategy_win_rate" in s:
        lines.append("Win rate per strategy (over every seat it played):")
        for row in s["strategy_win_rate"]:
            lines.append(
                f"  {row['strategy']:<24} {percent(row['rate']):>6}  {interval(row['ci95'])}"
                f"  ({row['seats_played']:,} seats)"
            )
    lines += winner_lines(s)
    lines += length_lines(s)
    lines.append(
        f"Finished before the cap: {percent(s['finished_rate'])} {interval(s['finished_ci95'])}"
    )
    lines += get_game(s["game"]).summary_lines(s)
    if "card_value" in s:
        lines += card_value_lines(s["card_value"])
    lines.append(
        f"\n{n_games:,} games in {s['elapsed_s']:.2f} s ({s['games_per_s']:,.0f} games/s, "
        f"{s['threads']} thread{'' if s['threads'] == 1 else 's'}"
        f"{' on a Dask cluster' if s.get('backend') == 'dask' else ''})"
    )
    return "\n".join(lines)


def winner_lines(s: dict[str, Any]) -> list[str]:
    """Games by how many players won them: ``no winner``, ``one winner``, ``2 winners``
    ...; a game that has at most one winner shows only the first two."""
    single = get_game(s["game"]).single_winner
    lines = ["Games with no winner and with a winner:" if single else "Games by number of winners:"]
    for k, rate in s["winner_count"].items():
        if single and int(k) > 1:
            continue
        label = {"0": "no winner", "1": "a winner" if single else "one winner"}.get(
            k, f"{k} winners"
        )
        lines.append(f"  {label:<11} {percent(rate):>6}  {interval(s['winner_count_ci95'][k])}")
    return lines


def card_value_lines(value: dict[str, Any]) -> list[str]:
    """``card_value`` of a summary (``simulate --restricted-play``) as text lines."""
    noun = value["noun"]
    lines = [
        f"{noun.capitalize()} value by {value['method']}, {value['games']:,} paired games a {noun}:"
    ]
    for row in value["cards"]:
        name = row["card"] if "seat" not in row else f"{row['card']} (seat {row['seat']})"
        low, high = row["ci95"]
        p = "<0.001" if row["p_holm"] < 0.001 else f"{row['p_holm']:.3f}"
        lines.append(
            f"  {name[:30]:<30} {100 * row['value']:+6.2f} pp [{100 * low:+.2f}, "
            f"{100 * high:+.2f}]  p {p}{' *' if row['significant'] else ''}"
        )
    lines.append(
        f"  change in the win rate without the {noun} [95% paired t interval], Holm's p; "
        f"negative: it helps; * significant"
    )
    return lines


def length_lines(s: dict[str, Any]) -> list[str]:
    """Game length: mean, median and, with unfinished games, the restricted mean.

    A game stopped unfinished counts at the length it was stopped, so with unfinished
    games the mean is only a lower bound, and says so."""
    unit = s["length_unit"]
    n_games = s["games"]
    if not n_games:
        return ["Game length: no games"]
    unfinished = s.get("length_unfinished", 0)
    median = s.get("length_median", float("nan"))
    limit = s.get("length_restricted_to")
    if median == median:
        low, high = s["length_median_ci95"]
        shown = "n/a" if low != low else f"{low:.1f}"
        upper = f"beyond {limit}" if high != high else f"{high:.1f}"
        median_text = f"median {median:.1f} [{shown}, {upper}] {unit}"
        reading = "where the share still running crosses 50%"
    else:
        median_text = f"median beyond {limit} {unit}"
        reading = "more than half the games were still running at the end"
    spread = f"{interval(s['length_ci95'], as_percent=False)}, sd {s['length_sd']:.2f}"
    if not unfinished:
        return [
            f"Game length: mean {s['length_mean']:.2f} {unit} {spread}; {median_text} "
            f"({n_games:,} games)"
        ]
    cap = s.get("length_cap")
    where = f"at the cap of {cap} {unit}" if cap is not None else "by a cap"
    return [
        f"Game length ({n_games:,} games; {unfinished:,} stopped unfinished {where}):",
        f"  {median_text} ({reading})",
        f"  restricted mean to {limit} {unit}: {s['length_restricted']:.2f} "
        f"{interval(s['length_restricted_ci95'], as_percent=False)}"
        " (area under the still-running curve)",
        f"  mean: at least {s['length_mean']:.2f} {unit} {spread} (a lower bound: "
        "unfinished games count where they stopped)",
    ]
