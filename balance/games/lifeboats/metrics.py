"""Lifeboats' own figures: pure functions from the ``games``, ``seats`` and ``boats`` tables.

The tables are those :meth:`Lifeboats.tables` writes: ``seats`` has one row a game and
seat (``score``, ``won``, ``hats_used``, ...), ``boats`` one row a game and boat
(``lane``, ``fate``: afloat, landed or sunk), ``games`` one row a game (``votes``,
``hat_decided``: ballots a lone captain's hat decided).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.stats.intervals import mean_interval, ratio_interval, share_interval, wilson_interval


def _order(values: pd.Series) -> list:
    """A column's categories in their own order (categorical) or sorted."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        return [c for c in values.cat.categories if (values == c).any()]
    return sorted(pd.unique(values))


def score_means(seats: pd.DataFrame, by: str) -> pd.DataFrame:
    """Mean score of each ``by`` group (``"seat"`` or ``"strategy"``) per seat played.

    A strategy may hold several seats of one game, so the mean is a ratio of sums over
    games (delta-method interval, games as clusters); for a seat it is the plain mean.

    Returns
    -------
    DataFrame, one row a group: ``group``, ``games``, ``seats_played``, ``mean``, ``low``,
    ``high``.
    """
    games = seats["game"].nunique()
    rows = []
    for group in _order(seats[by]):
        here = seats[seats[by] == group]
        per_game = here.groupby("game")["score"].agg(["sum", "size"])
        total = pd.DataFrame({"game": seats["game"].unique()}).merge(
            per_game, left_on="game", right_index=True, how="left"
        )
        total = total.fillna(0)
        mean, low, high = ratio_interval(
            total["sum"].to_numpy(), total["size"].to_numpy(), floor=0.0
        )
        rows.append(
            {
                "group": group,
                "games": games,
                "seats_played": int(per_game["size"].sum()),
                "mean": mean,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(rows)


def score_distribution(seats: pd.DataFrame, by: str) -> pd.DataFrame:
    """Share of a group's seats that ended with each score.

    Returns
    -------
    DataFrame, one row a (group, score): ``group``, ``score``, ``seats`` (seats of the
    group), ``count``, ``share``, ``low``, ``high`` (Wilson over seats).
    """
    rows = []
    for group in _order(seats[by]):
        scores = seats.loc[seats[by] == group, "score"].to_numpy()
        values, counts = np.unique(scores, return_counts=True)
        low, high = wilson_interval(counts, len(scores))
        for value, count, lo, hi in zip(values, counts, low, high, strict=True):
            rows.append(
                {
                    "group": group,
                    "score": int(value),
                    "seats": len(scores),
                    "count": int(count),
                    "share": count / len(scores),
                    "low": float(lo),
                    "high": float(hi),
                }
            )
    return pd.DataFrame(rows)


def boat_fates(boats: pd.DataFrame) -> pd.DataFrame:
    """Where the boats of each starting lane end up: landed, sunk, or afloat at the cap.

    Returns
    -------
    DataFrame, one row a lane that held a boat, in lane order: ``lane``, ``island``,
    ``boats``, then for each fate (``landed``, ``sunk``, ``afloat``) its count, share and
    Wilson ``_low``/``_high``.
    """
    rows = []
    for lane in sorted(pd.unique(boats["lane"])):
        here = boats[boats["lane"] == lane]
        row: dict[str, object] = {
            "lane": int(lane),
            "island": str(here["island"].iloc[0]),
            "boats": len(here),
        }
        fate = here["fate"].astype(str)
        for name in ("landed", "sunk", "afloat"):
            count = int((fate == name).sum())
            low, high = wilson_interval(count, len(here))
            row[name] = count
            row[f"{name}_rate"] = count / len(here)
            row[f"{name}_low"], row[f"{name}_high"] = float(low), float(high)
        rows.append(row)
    return pd.DataFrame(rows)


def hats_decisive(games: pd.DataFrame) -> dict[str, float]:
    """How often a lone captain's hat decided a ballot.

    Returns
    -------
    dict: ``games``, ``ballots_per_game`` (mean, with ``_low``/``_high``), ``share`` of
    ballots a lone hat decided (Wilson at the effective number of ballots, games as
    clusters: :func:`balance.stats.intervals.share_interval`) with ``share_low`` /
    ``share_high``, and ``per_game`` (such ballots per game, Student t) with bounds.
    """
    votes = games["votes"].to_numpy()
    decided = games["hat_decided"].to_numpy()
    share, low, high = share_interval(decided, votes)
    per_game, p_low, p_high = mean_interval(decided, floor=0.0)
    ballots, b_low, b_high = mean_interval(votes, floor=0.0)
    return {
        "games": len(games),
        "ballots_per_game": ballots,
        "ballots_per_game_low": b_low,
        "ballots_per_game_high": b_high,
        "share": share,
        "share_low": low,
        "share_high": high,
        "per_game": per_game,
        "per_game_low": p_low,
        "per_game_high": p_high,
    }


def win_rate_by_hats_left(seats: pd.DataFrame, hats: int) -> pd.DataFrame:
    """Win rate of the seats that ended the game with 0, 1, ... ``hats`` hats left.

    Returns
    -------
    DataFrame, one row a number of hats left: ``hats_left``, ``seats``, ``won``, ``rate``,
    ``low``, ``high`` (Wilson over seats).
    """
    left = hats - seats["hats_used"].to_numpy()
    won = seats["won"].to_numpy().astype(bool)
    rows = []
    for k in range(hats + 1):
        here = left == k
        count, wins = int(here.sum()), int(won[here].sum())
        low, high = wilson_interval(wins, count)
        rows.append(
            {
                "hats_left": k,
                "seats": count,
                "won": wins,
                "rate": wins / count if count else float("nan"),
                "low": float(low),
                "high": float(high),
            }
        )
    return pd.DataFrame(rows)


def tie_rules(games: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Share of finished games whose winner each end-of-game rule decided.

    Returns
    -------
    DataFrame, one row a rule in ``names`` order: ``rule``, ``games`` (finished games),
    ``count``, ``rate``, ``low``, ``high`` (Wilson).
    """
    rule = games["tie_rule"].astype(object)
    finished = rule.notna()
    total = int(finished.sum())
    rows = []
    for name in names:
        count = int((rule == name).sum())
        low, high = wilson_interval(count, total)
        rows.append(
            {
                "rule": name,
                "games": total,
                "count": count,
                "rate": count / total if total else float("nan"),
                "low": float(low),
                "high": float(high),
            }
        )
    return pd.DataFrame(rows)


def _boat_index(boat: pd.Series) -> np.ndarray:
    """Boat numbers (seat ``s``'s boat is ``s``, the black boat last) of a ``boat`` column
    holding labels (``seat 0``, ..., ``black``) or numbers; shape ``(rows,)``."""
    if isinstance(boat.dtype, pd.CategoricalDtype) or boat.dtype == object:
        text = boat.astype(str)
        return np.where(
            text.str.startswith("seat "),
            pd.to_numeric(text.str.slice(5), errors="coerce").fillna(-1),
            -1,
        ).astype(np.int64)
    return boat.to_numpy(dtype=np.int64)


def win_rate_by_lane(seats: pd.DataFrame, boats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of the seats whose own boat was set up on each starting lane.

    Each player puts their own boat on a free lane at set-up (seat 0 first); the black boat
    has no owner and is left out. Lanes differ within a game, so each game gives a lane at
    most one seat, and games are independent.

    Parameters
    ----------
    seats : one row a game and seat: ``game``, ``seat``, ``won``.
    boats : one row a game and boat: ``game``, ``boat`` (``seat 0``, ..., ``black``, or
        the boat's number), ``lane``, ``island``.

    Returns
    -------
    DataFrame, one row a lane a player chose: ``lane``, ``island``, ``seats``, ``won``,
    ``rate``, ``low``, ``high`` (Wilson over seats).
    """
    owner = _boat_index(boats["boat"])
    owned = owner >= 0
    own = boats.loc[owned, ["game", "lane", "island"]].assign(seat=owner[owned])
    merged = (
        seats[["game", "seat", "won"]]
        .astype({"seat": np.int64})
        .merge(own, on=["game", "seat"], how="inner")
    )
    rows = []
    for lane in sorted(pd.unique(merged["lane"])):
        here = merged[merged["lane"] == lane]
        count, wins = len(here), int(here["won"].sum())
        low, high = wilson_interval(wins, count)
        rows.append(
            {
                "lane": int(lane),
                "island": str(here["island"].iloc[0]),
                "seats": count,
                "won": wins,
                "rate": wins / count,
                "low": float(low),
                "high": float(high),
            }
        )
    return pd.DataFrame(rows)


def win_rate_by_setup_order(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate by a seat's place in the set-up order (1st: seat 0).

    Seat 0 puts its boat on a lane first and places the first pawn; the others follow
    clockwise (and seat 0 also places the black boat, last), so the set-up order is the
    seat's number plus one.

    Returns
    -------
    DataFrame, one row a place: ``order`` (1, 2, ...), ``seat``, ``seats`` (games),
    ``won``, ``rate``, ``low``, ``high`` (Wilson over games).
    """
    rows = []
    for seat in sorted(pd.unique(seats["seat"])):
        won = seats.loc[seats["seat"] == seat, "won"].to_numpy().astype(bool)
        wins = int(won.sum())
        low, high = wilson_interval(wins, len(won))
        rows.append(
            {
                "order": int(seat) + 1,
                "seat": int(seat),
                "seats": len(won),
                "won": wins,
                "rate": wins / len(won),
                "low": float(low),
                "high": float(high),
            }
        )
    return pd.DataFrame(rows)


def hats_by_round(games: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """When the captain's hats are played: hats per game in each round.

    Parameters
    ----------
    games : one row a game: ``rounds`` and, for each round in ``columns``, the hats played
        in it (the last column counts that round and every later one).
    columns : the per-round columns in round order.

    Returns
    -------
    DataFrame, one row a round: ``round`` (``"1"``, ..., ``"10+"``), ``games`` (games that
    reached it), ``hats`` (played in it), ``mean`` hats per game that reached it (Student
    t interval ``low``, ``high``), and ``share`` of all hats played (``share_low``,
    ``share_high``: Wilson at the effective number of hats, games as clusters).
    """
    rounds = games["rounds"].to_numpy()
    counts = games[columns].to_numpy(dtype=np.int64)
    total = counts.sum(axis=1)
    rows = []
    last = len(columns)
    for k in range(last):
        reached = rounds >= k + 1
        here = counts[reached, k]
        mean, low, high = mean_interval(here, floor=0.0)
        share, s_low, s_high = share_interval(counts[:, k], total)
        rows.append(
            {
                "round": f"{k + 1}+" if k + 1 == last else str(k + 1),
                "games": int(reached.sum()),
                "hats": int(here.sum()),
                "mean": mean,
                "low": low,
                "high": high,
                "share": share,
                "share_low": s_low,
                "share_high": s_high,
            }
        )
    return pd.DataFrame(rows)
