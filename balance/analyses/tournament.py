"""Tournaments: every contestant against every other, seats rotated, on common random numbers.

A contestant is a strategy (any ``--strategy`` value: a shipped strategy with parameters,
or a user's ``FILE.py:NAME``) or, in Battle of Thieves, a deck. Every pairing plays the
same game indices of the same seed, so every pairing meets the same deals, dice and
random streams (common random numbers, see ``docs/tournament.md``).

* **Two players**: each pair of contestants plays every deal twice, once in each seat
  order (game ``i`` with A in seat 0, and game ``i`` with B in seat 0). The row's win rate
  against the column is the share of those games the row won; its 95% interval is
  Wilson's at the effective number of games, the two games of a deal counted as one
  cluster (:func:`balance.stats.intervals.share_interval`).
* **Three or more players**: each contestant plays a table of the *field* (one strategy in
  every other seat) on its own, and each pair of contestants shares a table with the field
  in the remaining seats (a *mixed table*); seats are rotated over every order round the
  table (:func:`balance.core.game.seating_orders`). The row beats the column in a game
  of their mixed table when the row won it and the column did not.

Each pair's **gap** (:func:`pair_gap`) is the Elo-scale log-odds of the row's share of
the pair's *decided* games (one of the two won, the other did not), with the Wilson
interval of that share at the effective number of games (clustered by deal), carried to
the Elo scale: it rests on the pair's own games, so it agrees with the matrix.
Bradley–Terry ratings (:func:`bradley_terry`) pool every pair: fitted by maximum
likelihood to the decided games, as a binomial GLM with a logit link (statsmodels), with
95% Wald intervals from the fit; they do not exist when some contestants never lost to
some others.

This module plays and computes; :mod:`balance.analyses.tournament_report` writes text, charts and
files from what it returns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import sparse, special, stats
from scipy.sparse.csgraph import connected_components

from balance.core.errors import BalanceError, Interrupted
from balance.core.game import Setup
from balance.games import get_game
from balance.run.play import make_setup
from balance.run.runner import RunResult, check_run, run_games
from balance.stats.caveats import capped_warning
from balance.stats.intervals import LEVEL, share_interval, wilson_interval

#: Elo points per unit of log-odds: a rating gap of ``d`` Elo points means the stronger
#: contestant wins ``1 / (1 + 10 ** (-d / 400))`` of the games one of the two wins.
ELO = 400 / math.log(10)
RATING_METHOD = (
    "Bradley-Terry, maximum likelihood (binomial GLM, logit link) on the games one of a pair "
    "won and the other did not; Elo scale (400 log10 odds), mean 0; 95% Wald intervals"
)
GAP_METHOD = (
    "Elo-scale log-odds (400 log10 odds) of the first's share of the pair's decided games "
    "(one of the two won, the other did not); 95% Wilson interval of that share at the "
    "effective number of games (games of one deal are one cluster), carried to the Elo scale"
)
MATRIX_METHOD = (
    "95% Wilson intervals at the effective number of games (games of one deal are one cluster)"
)


@dataclass(frozen=True)
class Pairing:
    """One run of a tournament: its set-up and which contestants hold line-up entries 0
    and 1 (``second`` is -1 for a contestant alone against the field)."""

    first: int
    second: int
    setup: Setup

    @property
    def kind(self) -> str:
        return "field" if self.second < 0 else "pair"


@dataclass(frozen=True)
class Tournament:
    """What a tournament played, and its statistics.

    ``records``: one row a game played: ``pairing`` (its index), ``kind`` (``pair`` or
    ``field``), ``first`` and ``second`` (contestant names of line-up entries 0 and 1;
    ``second`` empty against the field), ``game`` (game index: the deal), ``first_seat``
    and ``second_seat`` (-1 if none), ``first_won``, ``second_won``, ``finished``,
    ``length``.

    ``matrix``: one row an ordered pair of distinct contestants: ``contestant``,
    ``against``, ``games``, ``wins`` (the row won, the column did not), ``losses``,
    ``neither`` (games neither of the two won), ``both`` (a win both shared), ``rate``
    with ``low``/``high`` (95%); with two players also ``first_rate``, ``first_low``,
    ``first_high`` (the row in seat 0) and ``second_*`` (in seat 1), ``games_per_seat_order``.

    ``ratings``: ``contestant``, ``rating`` (Elo scale, mean 0), ``low``, ``high``,
    ``decisive_games``; NaN where the ratings do not exist (:func:`bradley_terry`).

    ``pair_gaps``: one row an unordered pair, the one with more decided games won first
    (:func:`pair_gap`): ``contestant``, ``against``, ``decided``, ``wins``, ``share``,
    ``share_low``, ``share_high``, ``gap``, ``low``, ``high`` (Elo points; ``gap`` and
    ``high`` are +inf where ``contestant`` won every decided game, everything NaN where
    no game was decided).

    ``vs_field`` (three or more players): ``contestant``, ``games``, ``wins``, ``rate``,
    ``low``, ``high`` (Wilson), ``fair_share`` (``1 / players``).
    """

    game: str
    players: int
    contestants: tuple[str, ...]
    kind: str  # "strategies" or "decks"
    strategies: tuple[str, ...]  # with decks: the strategies by seat; else the contestants
    field: str | None
    seed: int
    games: int  # games a pairing (both seat orders with two players)
    requested: int
    partial: bool
    records: pd.DataFrame
    matrix: pd.DataFrame
    ratings: pd.DataFrame
    pair_gaps: pd.DataFrame
    vs_field: pd.DataFrame | None
    rating_note: str = ""
    #: The pairs the ratings put where their own games rule out (:func:`misfit_pairs`).
    rating_misfit: str = ""
    variants: tuple[str, ...] = ()
    rules: dict[str, Any] | None = None
    #: The length at which a game stops unfinished (:meth:`Game.length_cap`), if any.
    cap: int | None = None
    #: Pairings whose games often stopped at the cap (:mod:`balance.stats.caveats`), printed
    #: first, each on a line beginning ``warning:``.
    warnings: tuple[str, ...] = ()
    #: Strategies as contestants in Battle of Thieves: the deck each seat held in every
    #: game (rule ``decks``), so a seat order's rate is its deck's too. Else empty.
    decks: tuple[str, ...] = ()

    @property
    def measured_against(self) -> str:
        """What the ratings and pair gaps were measured against: with three or more
        players they hold for mixed tables of this field only."""
        if self.players == 2:
            return "each other, head to head"
        return f"the field {self.field} (mixed tables of {self.players})"

    def cell(self, row: str, column: str) -> pd.Series:
        """The matrix row of ``row`` against ``column``."""
        table = self.matrix.set_index(["contestant", "against"])
        return table.loc[(row, column)]

    def square(self, column: str = "rate") -> pd.DataFrame:
        """``column`` of the matrix as contestants (rows) by contestants (columns); the
        diagonal is NaN."""
        table = self.matrix.pivot(index="contestant", columns="against", values=column)
        names = list(self.contestants)
        return table.reindex(index=names, columns=names)

    def to_json(self) -> dict[str, Any]:
        """The tournament as ``balance tournament --json`` prints it: ``game``,
        ``players``, ``games`` (a pairing), ``contestants``, ``matrix`` (row beats column:
        ``{"rate", "ci95"}``, null on the diagonal), ``ratings`` (``name``, ``rating``,
        ``ci95``); then ``seed``, ``field``, ``partial``, ``methods`` and, with three or
        more players, ``vs_field``; ``pair_gaps`` (``contestant``, ``against``,
        ``gap``, ``ci95``, ``decided_games``: ``gap`` null and ``ci95`` ``[X, null]`` for
        "at least X", all null with no decided game) and ``measured_against``."""
        cells = self.matrix.set_index(["contestant", "against"])
        matrix: list[list[dict[str, Any] | None]] = []
        for row in self.contestants:
            line: list[dict[str, Any] | None] = []
            for column in self.contestants:
                if row == column:
                    line.append(None)
                    continue
                cell = cells.loc[(row, column)]
                line.append(
                    {
                        "rate": float(cell["rate"]),
                        "ci95": [float(cell["low"]), float(cell["high"])],
                        "games": int(cell["games"]),
                    }
                )
            matrix.append(line)
        record: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "contestants": list(self.contestants),
            "matrix": matrix,
            "ratings": [
                {
                    "name": row.contestant,
                    "rating": float(row.rating),
                    "ci95": [float(row.low), float(row.high)],
                }
                for row in self.ratings.itertuples()
            ],
            "pair_gaps": [
                {
                    "contestant": row.contestant,
                    "against": row.against,
                    "gap": float(row.gap),
                    "ci95": [float(row.low), float(row.high)],
                    "decided_games": int(row.decided),
                }
                for row in self.pair_gaps.itertuples()
            ],
            "measured_against": self.measured_against,
            "seed": self.seed,
            "field": self.field,
            "partial": self.partial,
            "methods": {"matrix": MATRIX_METHOD, "ratings": RATING_METHOD, "pair_gaps": GAP_METHOD},
        }
        if self.rating_note or self.rating_misfit:
            record["ratings_note"] = "; ".join(filter(None, [self.rating_note, self.rating_misfit]))
        record["warnings"] = list(self.warnings)
        if self.decks:
            record["decks"] = list(self.decks)  # by seat, in every game
        elif self.kind == "decks":
            record["strategies"] = list(self.strategies)  # by seat (one: both seats)
        if self.vs_field is not None:
            record["vs_field"] = [
                {
                    "name": row.contestant,
                    "rate": float(row.rate),
                    "ci95": [float(row.low), float(row.high)],
                    "games": int(row.games),
                    "fair_share": float(row.fair_share),
                }
                for row in self.vs_field.itertuples()
            ]
        return record


def bradley_terry(names: Sequence[str], wins: np.ndarray) -> tuple[pd.DataFrame, str]:
    """Bradley–Terry ratings by maximum likelihood, with 95% Wald intervals.

    ``P(i beats j) = 1 / (1 + exp(r_j - r_i))``, fitted as a binomial GLM with a logit
    link (statsmodels) on every pair's counts, the ratings coded to sum to zero; each
    rating's interval comes from the fit's covariance (Wald). Ratings are given on the
    Elo scale (:data:`ELO` points per unit of log-odds).

    Parameters
    ----------
    names : the ``K`` contestants.
    wins : int ``(K, K)``: ``wins[i, j]`` games ``i`` won against ``j`` (the diagonal is
        ignored).

    Returns
    -------
    ``(table, note)``: ``contestant``, ``rating``, ``low``, ``high``, ``decisive_games``
    (one row a contestant, in the order given) and a note, empty when every rating
    exists. A contestant without a decided game has no rating (NaN). When some group of
    contestants never lost a game to the others, the likelihood grows without bound as
    their gap grows: no finite ratings fit the games, every rating is NaN, and the note
    says so (:func:`pair_gap` then says "at least").
    """
    wins = np.asarray(wins, dtype=float)
    k = len(names)
    if wins.shape != (k, k):
        raise BalanceError(f"a win matrix of shape {wins.shape} for {k} contestants")
    wins = wins * (1 - np.eye(k))
    decisive = (wins + wins.T).sum(axis=1)
    table = pd.DataFrame(
        {
            "contestant": list(names),
            "rating": np.nan,
            "low": np.nan,
            "high": np.nan,
            "decisive_games": decisive.astype(np.int64),
        }
    )
    rated = np.flatnonzero(decisive > 0)
    notes = []
    if len(rated) < k:
        unrated = ", ".join(names[i] for i in range(k) if decisive[i] == 0)
        notes.append(f"no decided game, so no rating: {unrated}")
    if len(rated) < 2:
        return table, "; ".join(notes)
    wins = wins[np.ix_(rated, rated)]
    m = len(rated)
    graph = sparse.csr_matrix(wins > 0)
    parts, _ = connected_components(graph, directed=True, connection="strong")
    if parts > 1:
        notes.append(
            "some contestants never lost a game to some others, so no finite ratings fit "
            "these games (maximum likelihood sets them infinitely apart) and none are given; "
            "the pair gaps measure each pair"
        )
        return table, "; ".join(notes)
    rows, endog, weights = [], [], []
    for i in range(m):
        for j in range(i + 1, m):
            if wins[i, j] + wins[j, i] > 0:  # one row for i's wins, one for j's
                row = np.zeros(m)
                row[i], row[j] = 1.0, -1.0
                rows += [row, row]
                endog += [1.0, 0.0]
                weights += [wins[i, j], wins[j, i]]
    # Sum-to-zero coding: r = C @ beta, the last rating minus the sum of the others.
    coding = np.vstack([np.eye(m - 1), -np.ones((1, m - 1))])
    design = np.asarray(rows) @ coding
    model = sm.GLM(
        np.asarray(endog), design, family=sm.families.Binomial(), freq_weights=np.asarray(weights)
    )
    fit = model.fit()
    ratings = coding @ np.asarray(fit.params)
    covariance = coding @ np.asarray(fit.cov_params()) @ coding.T
    z = float(stats.norm.ppf(0.5 + LEVEL / 2))
    spread = z * np.sqrt(np.clip(np.diag(covariance), 0, None))
    table.loc[rated, "rating"] = ELO * ratings
    table.loc[rated, "low"] = ELO * (ratings - spread)
    table.loc[rated, "high"] = ELO * (ratings + spread)
    return table, "; ".join(notes)


def pair_gap(row_won: np.ndarray, column_won: np.ndarray, deal: np.ndarray) -> dict[str, float]:
    """The gap between two contestants on the Elo scale, from their own games.

    The row's share ``p`` of the decided games (one of the two won, the other did not)
    has its Wilson interval at the effective number of games, the games of one deal one
    cluster (:func:`balance.stats.intervals.share_interval`); the gap is ``ELO * logit(p)`` and its
    interval the ends of the share's, carried over (a monotone map keeps the coverage).
    Under Bradley–Terry strengths the gap is ``r_row - r_column``.

    Parameters
    ----------
    row_won, column_won : bool ``(G,)``: whether the row, and the column, won each game.
    deal : int ``(G,)``: each game's deal (game index).

    Returns
    -------
    ``decided``, ``wins`` (the row's), ``share``, ``share_low``, ``share_high``,
    ``gap``, ``low``, ``high``. Where the row won every decided game ``gap`` and
    ``high`` are +inf and ``low`` is the least gap the games allow ("at least"); where
    it won none, the mirror image; with no decided game every figure but the counts is
    NaN.
    """
    row_won = np.asarray(row_won, dtype=bool)
    column_won = np.asarray(column_won, dtype=bool)
    beat = row_won & ~column_won
    decided = beat | (column_won & ~row_won)
    _, cluster = np.unique(np.asarray(deal)[decided], return_inverse=True)
    share, share_low, share_high = share_interval(
        np.bincount(cluster, weights=beat[decided].astype(float)), np.bincount(cluster)
    )
    with np.errstate(divide="ignore"):
        gap, low, high = (ELO * float(special.logit(p)) for p in (share, share_low, share_high))
    return {
        "decided": int(decided.sum()),
        "wins": int(beat.sum()),
        "share": share,
        "share_low": share_low,
        "share_high": share_high,
        "gap": gap,
        "low": low,
        "high": high,
    }


def tournament(
    game: str,
    players: int | None = None,
    strategies: Sequence[str] = (),
    decks: Sequence[str] = (),
    field: str | None = None,
    games: int = 10_000,
    seed: int = 0,
    variants: Sequence[str] = (),
    rules: Iterable[tuple[str, str]] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> Tournament:
    """Play every contestant against every other and compute the matrix and ratings.

    Parameters
    ----------
    game : a game id.
    players : players a table (default: the game's only count, or 4).
    strategies : the contestants (two or more ``--strategy`` values); with ``decks``, the
        strategy of every seat (one, or one per seat; default random).
    decks : Battle of Thieves decks (names or files) as the contestants.
    field : with three or more players, the strategy of the seats no contestant holds
        (default random).
    games : games a pairing; with two players, half in each seat order (rounded up).

    Returns
    -------
    :class:`Tournament`: every game played (``records``), the matrix, the ratings and,
    with three or more players, each contestant alone against the field. Every set-up is
    checked (a one-line :class:`BalanceError`) before the first game is played.
    """
    rules = list(rules)
    chosen = get_game(game)
    if players is None:
        players = chosen.min_players if chosen.min_players == chosen.max_players else 4
    chosen.check_players(players)
    check_run(games, threads, None)
    decks = tuple(decks)
    if decks:
        contestants, kind = decks, "decks"
        seat_strategies = tuple(strategies) or ("random",)
        for name, _ in rules:
            if name.strip().replace("-", "_") == "decks":
                raise BalanceError("give the decks with --deck, not --rule decks=...")
        if field is not None:
            raise BalanceError("--field is for games of three or more players")
    else:
        contestants, kind = tuple(strategies), "strategies"
        seat_strategies = ()
    noun = "decks (--deck A --deck B ...)" if decks else "strategies (--strategy A --strategy B)"
    if len(contestants) < 2:
        raise BalanceError(f"a tournament needs at least two contestants: give at least two {noun}")
    if len(set(contestants)) != len(contestants):
        raise BalanceError(f"a contestant is given twice: {', '.join(contestants)}")
    if players == 2 and field is not None:
        raise BalanceError("--field is for games of three or more players; this table has two")
    field_text = field if field is not None else "random"

    def setup(lineup: Sequence[str], rotate: bool, pair: tuple[str, str] | None = None) -> Setup:
        extra = [("decks", ",".join(pair))] if pair else []
        return make_setup(game, players, seed, lineup, variants, [*rules, *extra], rotate)

    pairings: list[Pairing] = []
    k = len(contestants)
    if decks:
        for a in range(k):
            for b in range(k):
                if a != b:
                    pair = (decks[a], decks[b])
                    pairings.append(Pairing(a, b, setup(seat_strategies, False, pair)))
        labels = _deck_names(pairings, k)
    elif players == 2:
        for a in range(k):
            for b in range(k):
                if a != b:
                    pairings.append(Pairing(a, b, setup((contestants[a], contestants[b]), False)))
        labels = _strategy_labels(pairings, k)
    else:
        rest = [field_text] * (players - 2)
        for a in range(k):
            pairings.append(Pairing(a, -1, setup([contestants[a], field_text, *rest], True)))
        for a in range(k):
            for b in range(a + 1, k):
                lineup = [contestants[a], contestants[b], *rest]
                pairings.append(Pairing(a, b, setup(lineup, True)))
        labels = _strategy_labels(pairings, k)
    if len(set(labels)) != len(labels):
        raise BalanceError(f"two {kind} share a name: {', '.join(labels)}")

    per_run = -(-games // 2) if players == 2 else games
    said: set[str] = set()

    def say_once(message: str) -> None:  # one message, however many pairings compile
        if on_compile is not None and message not in said:
            said.add(message)
            on_compile(message)

    results: list[RunResult] = []
    for pairing in pairings:  # every set-up was checked before the first game
        result = run_games(
            pairing.setup,
            per_run,
            threads=threads,
            keep_records=False,
            progress=progress,
            on_compile=say_once,
        )
        results.append(result)
        if result.partial or not result.blocks:
            break
    if len(results) < len(pairings) or min(r.games for r in results) == 0:
        raise Interrupted("interrupted before every pairing was played")
    played = min(r.games for r in results)
    records = _records(pairings, results, labels, played)
    matrix = _matrix(records, labels, players)
    wins = np.zeros((k, k), dtype=np.int64)
    index = {name: i for i, name in enumerate(labels)}
    for row in matrix.itertuples():
        wins[index[row.contestant], index[row.against]] = row.wins
    ratings, note = bradley_terry(labels, wins)
    pair_gaps = _pair_gaps(records, labels)
    vs_field = _vs_field(records, labels, players) if players > 2 else None
    first_setup = pairings[0].setup
    shared = _shared_rules(first_setup, decks)  # with the decks when strategies play them
    return Tournament(
        game=chosen.id,
        players=players,
        contestants=tuple(labels),
        kind=kind,
        strategies=tuple(seat_strategies) if decks else tuple(labels),
        field=field_text if players > 2 else None,
        seed=seed,
        games=played * 2 if players == 2 else played,
        requested=games,
        partial=played < per_run,
        records=records,
        matrix=matrix,
        ratings=ratings,
        pair_gaps=pair_gaps,
        vs_field=vs_field,
        rating_note=note,
        rating_misfit=misfit_pairs(ratings, pair_gaps),
        variants=tuple(first_setup.rules.variants),
        rules=shared,
        cap=chosen.length_cap(first_setup.rules),
        warnings=_warnings(records, chosen.length_cap(first_setup.rules), chosen.length_unit),
        decks=tuple(first_setup.rules.content().deck_names) if "decks" in shared else (),
    )


def _warnings(records: pd.DataFrame, cap: int | None, unit: str) -> tuple[str, ...]:
    """A warning for each pairing whose games often stopped at the cap (unordered pairs
    of two players pooled over their two seat orders)."""
    found = []
    frame = records.assign(
        who=[
            f"{a} alone against the field" if not b else " and ".join(sorted((a, b)))
            for a, b in zip(records["first"], records["second"], strict=True)
        ]
    )
    for who, games in frame.groupby("who", sort=False):
        warned = capped_warning(int((~games["finished"]).sum()), len(games), cap, unit)
        if warned is not None:
            found.append(f"{who}: {warned}")
    return tuple(found)


def _shared_rules(setup: Setup, decks: Sequence[str]) -> dict[str, Any]:
    """The rules every pairing plays (without the decks, which differ by pairing)."""
    values = dict(setup.rules.to_dict())
    if decks:
        values.pop("decks", None)
    return values


def _strategy_labels(pairings: Sequence[Pairing], k: int) -> list[str]:
    labels = [""] * k
    for pairing in pairings:
        seats = pairing.setup.lineup.seats
        labels[pairing.first] = seats[0].label
        if pairing.second >= 0:
            labels[pairing.second] = seats[1].label
    return labels


def _deck_names(pairings: Sequence[Pairing], k: int) -> list[str]:
    labels = [""] * k
    for pairing in pairings:
        names = pairing.setup.rules.content().deck_names
        labels[pairing.first], labels[pairing.second] = names[0], names[1]
    return labels


def _records(
    pairings: Sequence[Pairing], results: Sequence[RunResult], labels: Sequence[str], games: int
) -> pd.DataFrame:
    """One row a game of every pairing, its first ``games`` games (see :class:`Tournament`)."""
    frames = []
    index = np.arange(games, dtype=np.int64)
    for number, (pairing, result) in enumerate(zip(pairings, results, strict=True)):
        blocks = sorted(result.blocks, key=lambda block: block.first_game)
        won = np.concatenate([block.won for block in blocks])[:games]
        finished = np.concatenate([block.finished for block in blocks])[:games]
        length = np.concatenate([block.length for block in blocks])[:games]
        lineup = pairing.setup.lineup
        seat_entry = np.stack(
            [lineup.strategy_index(index, seat) for seat in range(pairing.setup.players)], axis=1
        )  # (G, n): the line-up entry in each seat
        first_seat = np.argmax(seat_entry == 0, axis=1)
        rows = np.arange(games)
        frame = {
            "pairing": number,
            "kind": pairing.kind,
            "first": labels[pairing.first],
            "second": labels[pairing.second] if pairing.second >= 0 else "",
            "game": index,
            "first_seat": first_seat,
            "second_seat": -np.ones(games, dtype=np.int64),
            "first_won": won[rows, first_seat],
            "second_won": np.zeros(games, dtype=bool),
            "finished": finished.astype(bool),
            "length": np.asarray(length, dtype=np.int64),
        }
        if pairing.second >= 0:
            second_seat = np.argmax(seat_entry == 1, axis=1)
            frame["second_seat"] = second_seat
            frame["second_won"] = won[rows, second_seat]
        frames.append(pd.DataFrame(frame))
    return pd.concat(frames, ignore_index=True)


def _matrix(records: pd.DataFrame, labels: Sequence[str], players: int) -> pd.DataFrame:
    """Every ordered pair's rate from the mixed (or two-player) games, clustered by deal."""
    games = records[records["kind"] == "pair"]
    out = []
    for row in labels:
        for column in labels:
            if row == column:
                continue
            mine, theirs, (row_won, column_won, deal) = _pair_games(games, row, column)
            beat = row_won & ~column_won
            _, cluster = np.unique(deal, return_inverse=True)
            numerators = np.bincount(cluster, weights=beat.astype(float))
            denominators = np.bincount(cluster).astype(float)
            rate, low, high = share_interval(numerators, denominators)
            n = len(beat)
            entry = {
                "contestant": row,
                "against": column,
                "games": n,
                "wins": int(beat.sum()),
                "losses": int((column_won & ~row_won).sum()),
                "neither": int((~row_won & ~column_won).sum()),
                "both": int((row_won & column_won).sum()),
                "rate": rate,
                "low": low,
                "high": high,
            }
            if players == 2:
                entry["games_per_seat_order"] = len(mine)
                for order, part, count in (
                    ("first", mine, int(beat[: len(mine)].sum())),
                    ("second", theirs, int(beat[len(mine) :].sum())),
                ):
                    order_low, order_high = wilson_interval(count, len(part))
                    entry[f"{order}_rate"] = count / len(part)
                    entry[f"{order}_low"] = float(order_low)
                    entry[f"{order}_high"] = float(order_high)
            out.append(entry)
    return pd.DataFrame(out)


def misfit_pairs(ratings: pd.DataFrame, pair_gaps: pd.DataFrame) -> str:
    """The pairs whose gap by the ratings falls outside the interval of their own games'
    gap (:func:`pair_gap`), in a sentence; empty when there are none (or no ratings).

    The ratings give every contestant one strength; when strength is not one number (A
    beats B, B beats C, C beats A, or one pair decides far fewer games than the others),
    they can put a pair where its own games rule out, and the pair gap is the one to read.
    """
    rating = ratings.set_index("contestant")["rating"]
    found = []
    for row in pair_gaps.itertuples():
        by_ratings = rating[row.contestant] - rating[row.against]
        known = by_ratings == by_ratings and row.low == row.low and row.high == row.high
        if known and not row.low <= by_ratings <= row.high:
            own = (
                f"at least {row.low:+,.0f}"
                if math.isinf(row.gap)
                else f"{row.gap:+,.0f} [{row.low:+,.0f}, {row.high:+,.0f}]"
            )
            found.append(
                f"{row.contestant} over {row.against} {round(by_ratings):+,d} by the ratings, "
                f"{own} by their own games"
            )
    if not found:
        return ""
    return (
        "the ratings put some pairs where their own games rule out (one strength a "
        "contestant does not fit these games), read the pair gaps for them: " + "; ".join(found)
    )


def _pair_games(
    games: pd.DataFrame, row: str, column: str
) -> tuple[pd.DataFrame, pd.DataFrame, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The mixed (or two-player) games of ``row`` and ``column``: those with ``row`` as
    line-up entry 0, those with ``column``, and over both, ``(row_won, column_won,
    deal)``, each ``(G,)``."""
    mine = games[(games["first"] == row) & (games["second"] == column)]
    theirs = games[(games["first"] == column) & (games["second"] == row)]
    row_won = np.concatenate([mine["first_won"], theirs["second_won"]]).astype(bool)
    column_won = np.concatenate([mine["second_won"], theirs["first_won"]]).astype(bool)
    deal = np.concatenate([mine["game"], theirs["game"]])
    return mine, theirs, (row_won, column_won, deal)


def _pair_gaps(records: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Every unordered pair's gap (:func:`pair_gap`), the one that won more of their
    decided games first (the order given on a tie)."""
    games = records[records["kind"] == "pair"]
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            first, second = a, b
            gap = pair_gap(*_pair_games(games, a, b)[2])
            if 2 * gap["wins"] < gap["decided"]:
                first, second = b, a
                gap = pair_gap(*_pair_games(games, b, a)[2])
            out.append({"contestant": first, "against": second, **gap})
    return pd.DataFrame(out)


def _vs_field(records: pd.DataFrame, labels: Sequence[str], players: int) -> pd.DataFrame:
    """Each contestant's win rate alone at a table of the field, with its Wilson interval."""
    games = records[records["kind"] == "field"]
    out = []
    for name in labels:
        mine = games[games["first"] == name]
        wins = int(mine["first_won"].sum())
        low, high = wilson_interval(wins, len(mine))
        out.append(
            {
                "contestant": name,
                "games": len(mine),
                "wins": wins,
                "rate": wins / len(mine),
                "low": float(low),
                "high": float(high),
                "fair_share": 1 / players,
            }
        )
    return pd.DataFrame(out)
