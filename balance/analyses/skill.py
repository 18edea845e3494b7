"""The skill ladder: does playing well matter in a game, how much, and do its balance
figures hold when players are good?

A *ladder* is a list of strategies (*rungs*) from weak to strong: by default ``random``,
then the game's shipped heuristics ordered by their win rate against random in the same
run, then, where the game ships the search player ``ismcts``, search at growing budgets
(``ismcts:iterations=2^k,rollout=<best heuristic>``, ``k`` from ``budgets``). Each rung
plays against the rung below and against random, seats rotated, on common random numbers
(every match plays game indices ``0, 1, ...`` of the same seed, so every match meets the
same deals):

* **two players**: head to head, every deal once in each seat order (a deal's two games
  are one cluster in the intervals, as in :mod:`balance.analyses.tournament`); the rung's rate is
  the share of games it won and the other did not;
* **three or more players**: the rung in one seat against a *field* of the other
  strategy in every other seat, seats rotated over every order round the table (the
  tournament's "alone against the field"); the rung's rate is the share of games it won.

From these: each rung's rate against the rung below and against random with 95% Wilson
intervals, compared with the fair share ``1/N``; the **skill depth** (how many rungs beat
the rung below by a head-to-head share significantly above 55%, Holm over the rungs);
the rungs that lose to the rung below (a ladder that goes down, and perhaps back up);
**games to tell** (how many games the strongest rung needs to be ahead of random, and of
the best heuristic, with 95% probability); and the headline balance figures (seat win
rates, balance index, game length) of a table played by each rung in
every seat. ``docs/skill.md`` defines each measure. :mod:`balance.analyses.skill_report` writes
text, charts and files from what :func:`skill` returns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

from balance.analyses.tournament import Pairing, _records
from balance.core.errors import BalanceError, Interrupted
from balance.core.game import Setup
from balance.games import get_game
from balance.run.play import make_setup
from balance.run.runner import RunResult, check_run, run_games
from balance.stats.caveats import capped_warning
from balance.stats.intervals import LEVEL, ratio_interval, wilson_interval
from balance.stats.metrics import balance_index_interval, length_summary

#: Names of the shipped search players; every other shipped strategy but ``random`` is a
#: heuristic.
SEARCH = ("ismcts", "mc")
#: The search player the default ladder climbs with.
LADDER_SEARCH = "ismcts"
#: Default budget exponents: ``ismcts`` at 2^4, 2^6 and 2^8 iterations.
DEFAULT_BUDGETS = (2, 4)
#: Largest budget exponent (2^20 iterations a decision).
MAX_BUDGET = 20
#: The head-to-head share a rung must reach against the rung below, whatever the players.
SHARE_MARGIN = 0.55
#: Family-wise error rate of the skill-depth tests (Holm over the rungs).
ALPHA = 0.05
#: The share of the games of its own table (every seat it) a heuristic must finish before
#: the cap to play the default ladder's search playouts.
MIN_ROLLOUT_FINISHED = 0.5
#: Probability with which the strongest rung must be ahead for "games to tell".
TELL = 0.95
#: Most games "games to tell" looks at; beyond, it says "more than".
TELL_LIMIT = 10**8

METHODS = {
    "rates": "95% Wilson intervals; two players: at the effective number of games (the two "
    "games of a deal, one in each seat order, are one cluster)",
    "share": "head to head: the rung's share of the games that separate it from one seat "
    "of the other strategy (one of the two won, the other did not); 95% Wilson intervals at "
    "the effective number of games",
    "skill_depth": "one-sided score test of H0 'the rung's head-to-head share against the "
    "rung below is at most 55%' at the effective number of games (statsmodels "
    "proportions_ztest), Holm over the rungs at 5% (statsmodels multipletests); a rung "
    "counts when H0 is rejected",
    "steps_down": "one-sided score test of H0 'the share is at least 1/2', Holm over the "
    "rungs at 5%: a rung that rejects it loses to the rung below",
    "games_to_tell": "smallest n with P(S_n > 0) >= 0.95, S_n the rung's games ahead of one "
    "seat of the other strategy after n games (+1 a game it won and that seat did not, -1 "
    "the reverse), at the estimated rates; exact to 4,000 games, normal beyond; its "
    "interval takes the ends of the share's 95% interval",
    "balance": "every seat played by the rung: seat win rates (Wilson), balance index "
    "(simultaneous intervals of the seat gaps), mean length (Student t)",
}


@dataclass(frozen=True)
class Match:
    """One rung against one other strategy, over ``games`` games.

    ``rate`` (95% ``low``, ``high``): the share of games the rung won (two players: and
    the other did not), compared with the fair share ``1/N``.

    ``ahead`` and ``behind``: the rung's rate of beating, and of being beaten by, one
    seat of the other strategy at the same table (two players: the other player; more:
    a field seat, averaged over the field's seats): games one of the two won and the
    other did not. ``share`` (``share_low``, ``share_high``): ``ahead / (ahead +
    behind)``, the rung's share of the games that separate it from the other player,
    fair at 1/2 whatever the game's shared wins or games nobody wins; its 95% interval
    is Wilson's at ``effective`` games (clustered by deal). ``p_value`` is the one-sided
    score test of H0 ``share <= 55%`` (:data:`SHARE_MARGIN`: a step of skill) and
    ``p_down`` of H0 ``share >= 1/2`` (a step down).
    """

    rung: str
    against: str
    games: int
    wins: int
    rate: float
    low: float
    high: float
    fair_share: float
    ahead: float
    behind: float
    share: float
    share_low: float
    share_high: float
    effective: float
    p_value: float
    p_down: float


@dataclass(frozen=True)
class Skill:
    """What a ladder played, and its statistics.

    ``rungs``: one row a rung, weakest first: ``rung`` (label), ``kind`` (``random``,
    ``search`` for ``mc`` and ``ismcts``, else ``heuristic``, a user's file included);
    ``vs_below_*`` and ``vs_random_*``: ``rate``, ``low``, ``high``, ``share``,
    ``share_low``, ``share_high`` (see :class:`Match`; NaN below the first rung) and
    ``games``; ``p_value`` and ``p_holm`` (one-sided, of H0 "the head-to-head share
    against the rung below is at most 55%"; Holm over the rungs), ``beats_below`` (the
    rung counts in the skill depth); ``p_down_holm`` (of H0 "the share is at least one
    half", Holm over the rungs) and ``loses_to_below``.

    ``matches``: one row a match played (``rung``, ``against``, ``role``: ``vs_below``,
    ``vs_random`` or ``vs_best_heuristic``, then as :class:`Match`).

    ``records``: one row a game of every match: ``match`` (its index in ``matches``),
    ``game`` (game index: the deal), ``rung_seat``, ``rung_won``, ``others_won`` (seats
    of the other strategy that won), ``finished``, ``length``.

    ``balance``: one row a rung: ``rung``, ``games``, ``balance_index`` with ``bi_low``/
    ``bi_high``, ``length`` (mean) with ``length_low``/``length_high``,
    ``length_is_lower_bound``, ``finished``; ``seats``: ``rung``, ``seat``, ``rate``,
    ``low``, ``high`` (every seat played by the rung).

    ``games_to_tell``: ``vs_random`` and ``vs_best_heuristic``, each None or a dict
    (:func:`tell_record`).
    """

    game: str
    players: int
    seed: int
    games: int
    requested: int
    names: tuple[str, ...]
    rungs: pd.DataFrame
    matches: pd.DataFrame
    records: pd.DataFrame
    balance: pd.DataFrame
    seats: pd.DataFrame
    skill_depth: int
    threshold: float
    games_to_tell: dict[str, dict[str, Any] | None]
    best_heuristic: str | None
    ordering: str
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    #: Where the ladder goes down (:func:`dip_sentences`), said before the numbers.
    dips: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)
    length_unit: str = "turns"

    @property
    def fair_share(self) -> float:
        """``1 / players``."""
        return 1 / self.players

    @property
    def strongest(self) -> str:
        """The top rung."""
        return self.names[-1]

    def to_json(self) -> dict[str, Any]:
        """The ladder as ``balance skill --json`` prints it: ``game``, ``players``,
        ``rungs`` (``name``, ``vs_below`` ``{"rate", "ci95", ...}`` or null,
        ``vs_random``), ``skill_depth``, ``goes_down`` (sentences), ``games_to_tell``
        (``vs_random``, ``vs_best_heuristic``: ``{"games", "ci95", ...}`` or null); then
        ``games`` (a match), ``seed``, ``fair_share``, ``threshold``, ``best_heuristic``,
        ``balance_by_rung``, ``notes``, ``warnings`` and ``methods``."""
        matches = self.matches.set_index(["rung", "role"])
        rungs = []
        for row in self.rungs.itertuples():
            entry: dict[str, Any] = {"name": row.rung, "kind": row.kind}
            for role in ("vs_below", "vs_random"):
                if (row.rung, role) in matches.index:
                    match = matches.loc[(row.rung, role)]
                    entry[role] = {
                        "rate": float(match["rate"]),
                        "ci95": [float(match["low"]), float(match["high"])],
                        "games": int(match["games"]),
                        "against": str(match["against"]),
                        "share": float(match["share"]),
                        "share_ci95": [float(match["share_low"]), float(match["share_high"])],
                    }
                else:
                    entry[role] = None
            if entry["vs_below"] is not None:
                entry["vs_below"]["p_holm"] = float(row.p_holm)
                entry["vs_below"]["beats_below"] = bool(row.beats_below)
                entry["vs_below"]["p_down_holm"] = float(row.p_down_holm)
                entry["vs_below"]["loses_to_below"] = bool(row.loses_to_below)
            rungs.append(entry)
        seats = self.seats.groupby("rung", sort=False)
        balance = []
        for row in self.balance.itertuples():
            table = seats.get_group(row.rung)
            balance.append(
                {
                    "name": row.rung,
                    "games": int(row.games),
                    "seat_win_rate": [
                        {"seat": int(s.seat), "rate": float(s.rate), "ci95": [s.low, s.high]}
                        for s in table.itertuples()
                    ],
                    "balance_index": {
                        "value": float(row.balance_index),
                        "ci95": [float(row.bi_low), float(row.bi_high)],
                    },
                    "length": {
                        "mean": float(row.length),
                        "ci95": [float(row.length_low), float(row.length_high)],
                        "unit": self.length_unit,
                        "mean_is_lower_bound": bool(row.length_is_lower_bound),
                    },
                    "finished": float(row.finished),
                }
            )
        return {
            "game": self.game,
            "players": self.players,
            "rungs": rungs,
            "skill_depth": self.skill_depth,
            "goes_down": list(self.dips),
            "games_to_tell": self.games_to_tell,
            "games": self.games,
            "seed": self.seed,
            "fair_share": self.fair_share,
            "threshold": self.threshold,
            "best_heuristic": self.best_heuristic,
            "ordering": self.ordering,
            "balance_by_rung": balance,
            "variants": list(self.variants),
            "partial": self.games < self.requested,
            "notes": list(self.notes),
            "warnings": list(self.warnings),
            "methods": METHODS,
        }


# --- statistics ---------------------------------------------------------------------------


def effective_games(numerators: np.ndarray, denominators: np.ndarray) -> float:
    """The effective number of games of a share whose games come in clusters.

    As :func:`balance.stats.intervals.share_interval`: the games divided by the design effect (the
    delta-method variance over clusters, :func:`balance.stats.intervals.ratio_interval`, over the
    binomial variance of as many independent games), never more than the games.

    Parameters
    ----------
    numerators : ``(C,)`` wins of each cluster; denominators : ``(C,)`` its games.
    """
    y = np.asarray(numerators, dtype=float)
    x = np.asarray(denominators, dtype=float)
    trials = float(x.sum())
    share, low, high = ratio_interval(y, x)
    if not (share == share and low == low):
        return trials
    z = float(stats.norm.ppf(0.5 + LEVEL / 2))
    variance = ((high - low) / (2 * z)) ** 2
    binomial = share * (1 - share) / trials
    if variance > 0 and binomial > 0:
        return min(trials, trials * binomial / variance)
    return trials


def score_p_value(rate: float, effective: float, fair_share: float) -> float:
    """One-sided p-value of ``rate > fair_share``: the score test (the test the Wilson
    interval inverts) at ``effective`` games, by statsmodels' ``proportions_ztest``."""
    if effective <= 0:
        return 1.0
    if rate == fair_share:
        return 0.5
    _, p = proportions_ztest(
        rate * effective, effective, fair_share, alternative="larger", prop_var=fair_share
    )
    return float(p)


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction (statsmodels ``multipletests``): ``(rejected,
    adjusted)``, each shape ``(len(p_values),)``."""
    if len(p_values) == 0:
        return np.zeros(0, dtype=bool), np.zeros(0)
    rejected, adjusted, _, _ = multipletests(np.asarray(p_values, float), alpha, method="holm")
    return np.asarray(rejected, dtype=bool), np.asarray(adjusted, dtype=float)


def skill_depth(
    p_values: Sequence[float], alpha: float = ALPHA
) -> tuple[int, np.ndarray, np.ndarray]:
    """How many rungs beat the rung below: H0 "the head-to-head share is at most
    :data:`SHARE_MARGIN` (55%)" rejected after Holm over the rungs, so that the chance of
    counting any rung whose true share is 55% or less is at most ``alpha``.

    Parameters
    ----------
    p_values : ``(R,)`` each rung's one-sided p-value of H0 against the rung below
        (:attr:`Match.p_value`; the rungs above the first).

    Returns
    -------
    ``(depth, beats, adjusted)``: the count, which rungs count (bool ``(R,)``) and the
    Holm-adjusted p-values ``(R,)``.
    """
    beats, adjusted = holm(p_values, alpha)
    return int(beats.sum()), beats, adjusted


#: Games to tell is summed exactly up to this many games, then by the normal
#: approximation (with a continuity correction), which is then accurate to well under a
#: game in a hundred.
EXACT_GAMES = 4_000


def games_to_tell(
    ahead: float, behind: float, probability: float = TELL, limit: int = TELL_LIMIT
) -> int | None:
    """The smallest ``n`` with ``P(S_n > 0) >= probability``, ``S_n`` the sum of ``n``
    independent games that each add 1 (the player won and its opponent did not, with
    probability ``ahead``), subtract 1 (``behind``) or add 0: how many games a player
    needs to have won more of them than its opponent, with that probability.

    With no game won by neither or both (``ahead + behind = 1``) this is the smallest
    ``n`` with ``P(Binomial(n, ahead) > n / 2) >= probability``.

    None when ``ahead`` is not above ``behind`` (no number of games will do), or when no
    ``n`` up to ``limit`` does.
    """
    if not ahead > behind:
        return None
    tie = 1.0 - ahead - behind
    dist = np.ones(1)  # P(S_n = k) for k = -n .. n
    for n in range(1, min(EXACT_GAMES, limit) + 1):
        grown = np.zeros(dist.size + 2)
        grown[2:] += ahead * dist
        grown[1:-1] += tie * dist
        grown[:-2] += behind * dist
        dist = grown
        if dist[n + 1 :].sum() >= probability:
            return n
    mean = ahead - behind
    sd = math.sqrt(ahead + behind - mean**2)
    z = float(stats.norm.ppf(probability))
    # P(S_n >= 1) ~ P(Z > (0.5 - n mean) / (sd sqrt(n))) >= probability: n mean - z sd
    # sqrt(n) >= 0.5, a quadratic in sqrt(n).
    root = (z * sd + math.sqrt((z * sd) ** 2 + 2 * mean)) / (2 * mean)
    n = max(EXACT_GAMES + 1, math.ceil(root**2))
    return n if n <= limit else None


def tell_record(match: Match | None) -> dict[str, Any] | None:
    """Games to tell from one match: ``{"games", "ci95", "ahead", "behind", "share",
    "share_ci95", "against", "games_played"}``; ``games`` and the ends of ``ci95`` are
    None (JSON null) where no number of games will do. The interval takes the ends of
    the share's 95% interval at the same rate of games that separate the two. None
    without a match."""
    if match is None:
        return None
    separate = match.ahead + match.behind
    return {
        "games": games_to_tell(match.ahead, match.behind),
        "ci95": [
            games_to_tell(separate * match.share_high, separate * (1 - match.share_high)),
            games_to_tell(separate * match.share_low, separate * (1 - match.share_low)),
        ],
        "ahead": match.ahead,
        "behind": match.behind,
        "share": match.share,
        "share_ci95": [match.share_low, match.share_high],
        "against": match.against,
        "games_played": match.games,
    }


# --- the ladder ---------------------------------------------------------------------------


def check_budgets(budgets: Iterable[int]) -> tuple[int, ...]:
    """The budget exponents, each a whole number from 1 to :data:`MAX_BUDGET`, at least
    one, none twice."""
    out = tuple(budgets)
    if not out:
        raise BalanceError("--budgets needs at least one exponent k (2^k iterations), e.g. 4,6,8")
    for k in out:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_BUDGET:
            raise BalanceError(
                f"a budget exponent k (2^k iterations) must be a whole number from 1 to "
                f"{MAX_BUDGET}, not {k!r}"
            )
    if len(set(out)) != len(out):
        raise BalanceError(f"a budget is given twice: {', '.join(map(str, out))}")
    return tuple(sorted(out))


def parse_budgets(text: str) -> tuple[int, ...]:
    """``"4,6,8"`` as exponents ``(4, 6, 8)``, checked (:func:`check_budgets`)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise BalanceError(
                f"--budgets takes whole-number exponents k (2^k iterations) separated by "
                f"commas, e.g. 4,6,8; not {text!r}"
            ) from None
    return check_budgets(values)


def _kind(name: str) -> str:
    if name == "random":
        return "random"
    return "search" if name in SEARCH else "heuristic"


def skill(
    game: str,
    players: int | None = None,
    rungs: Sequence[str] = (),
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    games: int = 2_000,
    seed: int = 0,
    variants: Sequence[str] = (),
    rules: Iterable[tuple[str, str]] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> Skill:
    """Climb a skill ladder and measure it.

    Parameters
    ----------
    game : a game id.
    players : players a table (default: the game's only count, or 4).
    rungs : an explicit ladder, weakest first (two or more ``--strategy`` values); empty
        for the default ladder (random, the heuristics by their rate against random,
        ``ismcts`` at ``2^k`` iterations for ``k`` in ``budgets`` if the game ships it).
    budgets : budget exponents of the default ladder's search rungs.
    games : games a match (two players: half in each seat order, rounded up), and games
        of each rung's own table (every seat played by the rung).

    Returns
    -------
    :class:`Skill`. Every rung is checked (a one-line :class:`BalanceError`) before the
    first game is played.
    """
    rules = list(rules)
    chosen = get_game(game)
    if players is None:
        players = chosen.min_players if chosen.min_players == chosen.max_players else 4
    chosen.check_players(players)
    check_run(games, threads, None)
    budgets = check_budgets(budgets)
    shipped = chosen.strategies()
    notes: list[str] = []
    given = bool(rungs)
    if given:
        texts = [text.strip() for text in rungs]
        if len(texts) < 2:
            raise BalanceError("a skill ladder needs at least two rungs: give --rung twice or more")
        ordering = "as given (--rung)"
    else:
        heuristics = [name for name in shipped if name != "random" and name not in SEARCH]
        texts = ["random", *heuristics]
        ordering = "random, then the heuristics by their rate against random in this run"
        if LADDER_SEARCH not in shipped:
            notes.append(
                f"{chosen.title} ships no search player ({LADDER_SEARCH}) yet: the ladder "
                "stops at the heuristics"
            )

    def setup(lineup: Sequence[str], rotate: bool = False) -> Setup:
        return make_setup(game, players, seed, lineup, variants, rules, rotate)

    def label(text: str) -> str:
        return setup([text]).lineup.seats[0].label

    labels = [label(text) for text in texts]  # every rung checked before any game
    if len(set(labels)) != len(labels):
        raise BalanceError(f"a rung is given twice: {', '.join(labels)}")
    random_label = label("random")
    kinds = [_kind(setup([text]).lineup.seats[0].strategy.name) for text in texts]

    said: set[str] = set()

    def say_once(message: str) -> None:
        if on_compile is not None and message not in said:
            said.add(message)
            on_compile(message)

    per_run = -(-games // 2) if players == 2 else games
    played: dict[tuple[str, str], tuple[Match, pd.DataFrame]] = {}
    results_seen: list[RunResult] = []

    def run(lineup_setup: Setup, count: int) -> RunResult:
        result = run_games(
            lineup_setup,
            count,
            threads=threads,
            keep_records=False,
            progress=progress,
            on_compile=say_once,
        )
        results_seen.append(result)
        if result.partial or not result.blocks:
            raise Interrupted("interrupted before every match of the ladder was played")
        return result

    def match(a: str, b: str) -> tuple[Match, pd.DataFrame]:
        key = (a, b)
        if key not in played:
            played[key] = _play_match(a, b, texts_by_label, players, setup, run, per_run)
        return played[key]

    own_tables: dict[str, RunResult] = {}

    def own_table(name: str, text: str) -> RunResult:
        """The table a rung plays in every seat (its balance figures)."""
        if name not in own_tables:
            own_tables[name] = run(setup([text]), games)
        return own_tables[name]

    texts_by_label = dict(zip(labels, texts, strict=True))
    texts_by_label[random_label] = "random"
    if not given:  # heuristics ordered by their rate against random, weakest first
        order = sorted(range(1, len(labels)), key=lambda i: match(labels[i], random_label)[0].rate)
        labels = [labels[0], *(labels[i] for i in order)]
        texts = [texts[0], *(texts[i] for i in order)]
        kinds = [kinds[0], *(kinds[i] for i in order)]
        if LADDER_SEARCH in shipped:
            # A rollout plays every seat of a playout: a heuristic whose own table (every
            # seat it) mostly runs to the cap, one that never attacks, would make every
            # playout a capped game, slow and with no winner to learn from.
            ending = []
            for name, text in zip(labels[:0:-1], texts[:0:-1], strict=True):
                blocks = own_table(name, text).blocks
                finished = float(np.concatenate([b.finished for b in blocks]).mean())
                if finished >= MIN_ROLLOUT_FINISHED:
                    ending.append(text)
                else:
                    notes.append(
                        f"{name} plays no search playouts: {finished:.0%} of the games of "
                        "its own table finished before the cap"
                    )
            rollout = _rollout_word(shipped[LADDER_SEARCH], ending)
            for k in budgets:
                text = f"{LADDER_SEARCH}:iterations={2**k}" + (
                    f",rollout={rollout}" if rollout else ""
                )
                texts.append(text)
                labels.append(label(text))
                kinds.append("search")
                texts_by_label[labels[-1]] = text
            notes.append(
                f"search rungs: {LADDER_SEARCH} at 2^k iterations for k in "
                f"{', '.join(map(str, budgets))}, playouts by {rollout or 'its default rollout'}"
            )

    heuristic_rungs = [
        name
        for name, text in zip(labels, texts, strict=True)
        if name != random_label
        and setup([text]).lineup.seats[0].strategy.name not in (*SEARCH, "random")
    ]
    rows: list[dict[str, Any]] = []
    frames: list[pd.DataFrame] = []

    def note(role: str, a: str, b: str) -> None:
        found, games_frame = match(a, b)
        rows.append({"rung": a, "role": role, **found.__dict__})
        frames.append(games_frame.assign(match=len(rows) - 1))

    for i, name in enumerate(labels):
        note("vs_random", name, random_label)
        if i > 0:
            note("vs_below", name, labels[i - 1])
    vs_random = {name: match(name, random_label)[0] for name in labels}
    # the best heuristic: the highest rate against random, a tie to the higher rung
    best_heuristic = max(
        heuristic_rungs, key=lambda n: (vs_random[n].rate, labels.index(n)), default=None
    )
    strongest = labels[-1]
    tell_best: Match | None = None
    if best_heuristic is not None and best_heuristic != strongest:
        note("vs_best_heuristic", strongest, best_heuristic)
        tell_best = match(strongest, best_heuristic)[0]
    elif best_heuristic is None:
        notes.append("no heuristic among the rungs: games to tell the best heuristic is not given")
    else:
        notes.append(
            f"the strongest rung is the best heuristic ({strongest}): games to tell it from "
            "the best heuristic is not given"
        )
    matches = pd.DataFrame(rows)
    below = matches[matches["role"] == "vs_below"]
    depth, beats, adjusted = skill_depth(below["p_value"])
    down, down_adjusted = holm(below["p_down"])
    rung_rows = []
    for i, name in enumerate(labels):
        entry: dict[str, Any] = {"rung": name, "kind": kinds[i]}
        for role, found in (
            ("vs_below", match(name, labels[i - 1])[0] if i else None),
            ("vs_random", vs_random[name]),
        ):
            for column in ("rate", "low", "high", "share", "share_low", "share_high"):
                entry[f"{role}_{column}"] = getattr(found, column) if found else np.nan
            entry[f"{role}_games"] = found.games if found else 0
        entry["p_value"] = float(below["p_value"].iloc[i - 1]) if i else np.nan
        entry["p_holm"] = float(adjusted[i - 1]) if i else np.nan
        entry["beats_below"] = bool(beats[i - 1]) if i else False
        entry["p_down_holm"] = float(down_adjusted[i - 1]) if i else np.nan
        entry["loses_to_below"] = bool(down[i - 1]) if i else False
        rung_rows.append(entry)

    rungs_table = pd.DataFrame(rung_rows)
    balance_rows, seat_rows = [], []
    for name, text in zip(labels, texts, strict=True):
        balance, seats = _balance(name, own_table(name, text))
        balance_rows.append(balance)
        seat_rows.extend(seats)
    first = setup(["random"])
    cap = chosen.length_cap(first.rules)
    records = pd.concat(frames, ignore_index=True)
    return Skill(
        game=chosen.id,
        players=players,
        seed=seed,
        games=int(matches["games"].min()),
        requested=games,
        names=tuple(labels),
        rungs=rungs_table,
        matches=matches,
        records=records,
        balance=pd.DataFrame(balance_rows),
        seats=pd.DataFrame(seat_rows),
        skill_depth=depth,
        threshold=SHARE_MARGIN,
        games_to_tell={
            "vs_random": tell_record(vs_random[strongest] if strongest != random_label else None),
            "vs_best_heuristic": tell_record(tell_best),
        },
        best_heuristic=best_heuristic,
        ordering=ordering,
        notes=tuple(notes),
        warnings=_warnings(records, matches, cap, chosen.length_unit),
        dips=tuple(dip_sentences(rungs_table, depth)),
        variants=tuple(first.rules.variants),
        rules=dict(first.rules.to_dict()),
        length_unit=chosen.length_unit,
    )


def _rollout_word(search: Any, strongest_first: Sequence[str]) -> str:
    """The word of ``search``'s ``rollout`` parameter for the strongest heuristic it takes
    (``strongest_first``: the heuristics' ``--strategy`` texts, strongest first), else
    ``random``, else empty (the search player's default)."""
    choices = dict(getattr(search, "param_choices", {}).get("rollout", {}))
    for text in strongest_first:
        name = text.partition(":")[0]
        if name in choices:
            return name
    return "random" if "random" in choices else ""


def _play_match(
    a: str,
    b: str,
    texts: dict[str, str],
    players: int,
    setup: Callable[..., Setup],
    run: Callable[[Setup, int], RunResult],
    per_run: int,
) -> tuple[Match, pd.DataFrame]:
    """Play ``a`` against ``b``: two players head to head in both seat orders, more
    players ``a`` alone against a field of ``b``, seats rotated. Returns the match and
    one row a game (``game``, ``rung_seat``, ``rung_won``, ``others_won``, ``finished``,
    ``length``)."""
    fair = 1 / players
    if players == 2:
        pairings = [
            Pairing(0, 1, setup([texts[a], texts[b]])),
            Pairing(1, 0, setup([texts[b], texts[a]])),
        ]
    else:
        pairings = [Pairing(0, -1, setup([texts[a], *[texts[b]] * (players - 1)], True))]
    results = [run(pairing.setup, per_run) for pairing in pairings]
    played = min(result.games for result in results)
    records = _records(pairings, results, [a, b], played)
    mine = (records["pairing"] == 0).to_numpy()
    rung_seat = np.where(mine, records["first_seat"], records["second_seat"])
    won = np.concatenate(
        [
            np.concatenate([block.won for block in sorted(r.blocks, key=lambda x: x.first_game)])[
                :played
            ]
            for r in results
        ]
    ).astype(bool)  # (G, N), the games in the order of ``records``
    rows = np.arange(len(won))
    rung_won = won[rows, rung_seat]
    others_won = won.sum(axis=1) - rung_won  # seats of the other strategy that won
    frame = pd.DataFrame(
        {
            "game": records["game"],
            "rung_seat": rung_seat,
            "rung_won": rung_won,
            "others_won": others_won,
            "finished": records["finished"],
            "length": records["length"],
        }
    )
    found = Match(
        rung=a,
        against=b,
        fair_share=fair,
        **head_to_head(rung_won, others_won, frame["game"].to_numpy(), players),
    )
    return found, frame


def head_to_head(
    rung_won: np.ndarray, others_won: np.ndarray, deal: np.ndarray, players: int
) -> dict[str, Any]:
    """The statistics of a match (:class:`Match`, but for its names and fair share) from
    its games.

    Parameters
    ----------
    rung_won : bool ``(G,)``: whether the rung won each game.
    others_won : int ``(G,)``: how many seats of the other strategy won it (``players -
        1`` seats).
    deal : int ``(G,)``: each game's deal (game index); a deal's games are one cluster.
    players : players a table.
    """
    rung_won = np.asarray(rung_won, dtype=bool)
    others_won = np.asarray(others_won)
    other_rate = others_won / (players - 1)  # a seat of it, on average
    beat = rung_won & (others_won == 0) if players == 2 else rung_won
    ahead = rung_won * (1 - other_rate)  # beat one seat of the other strategy
    behind = ~rung_won * other_rate  # beaten by it
    n = len(beat)
    _, cluster = np.unique(deal, return_inverse=True)

    def by_cluster(values: np.ndarray) -> np.ndarray:
        return np.bincount(cluster, weights=np.asarray(values, dtype=float))

    size = by_cluster(np.ones(n))
    rate_effective = effective_games(by_cluster(beat), size)
    rate = float(beat.mean())
    low, high = wilson_interval(rate * rate_effective, rate_effective)
    separated = by_cluster(ahead + behind)
    if separated.sum() > 0:
        share = float(ahead.sum() / separated.sum())
        effective = effective_games(by_cluster(ahead), separated)
        share_low, share_high = (float(x) for x in wilson_interval(share * effective, effective))
    else:  # no game separated the two
        share, effective, share_low, share_high = 0.5, 0.0, 0.0, 1.0
    return {
        "games": n,
        "wins": int(beat.sum()),
        "rate": rate,
        "low": float(low),
        "high": float(high),
        "ahead": float(ahead.mean()),
        "behind": float(behind.mean()),
        "share": share,
        "share_low": share_low,
        "share_high": share_high,
        "effective": effective,
        "p_value": score_p_value(share, effective, SHARE_MARGIN),
        "p_down": score_p_value(1 - share, effective, 0.5),
    }


def _balance(name: str, result: RunResult) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The headline balance figures of a table played by one rung in every seat."""
    blocks = sorted(result.blocks, key=lambda block: block.first_game)
    won = np.concatenate([block.won for block in blocks]).astype(bool)
    finished = np.concatenate([block.finished for block in blocks]).astype(bool)
    length = np.concatenate([block.length for block in blocks]).astype(float)
    games = len(finished)
    index = balance_index_interval(won)
    lengths = length_summary(length, finished)
    low, high = wilson_interval(won.sum(axis=0), games)
    seats = [
        {
            "rung": name,
            "seat": seat,
            "rate": float(won[:, seat].mean()),
            "low": float(low[seat]),
            "high": float(high[seat]),
        }
        for seat in range(won.shape[1])
    ]
    row = {
        "rung": name,
        "games": games,
        "balance_index": float(index["value"]),
        "bi_low": float(index["low"]),
        "bi_high": float(index["high"]),
        "length": float(lengths["mean"]),
        "length_low": float(lengths["mean_low"]),
        "length_high": float(lengths["mean_high"]),
        "length_is_lower_bound": bool(lengths["mean_is_lower_bound"]),
        "finished": float(finished.mean()),
    }
    return row, seats


def _warnings(
    records: pd.DataFrame, matches: pd.DataFrame, cap: int | None, unit: str
) -> tuple[str, ...]:
    """A warning for each match whose games often stopped at the length cap."""
    found = []
    seen: set[tuple[str, str]] = set()
    for number, row in enumerate(matches.itertuples()):
        key = (row.rung, row.against)
        if key in seen:
            continue
        seen.add(key)
        games = records[records["match"] == number]
        warned = capped_warning(int((~games["finished"]).sum()), len(games), cap, unit)
        if warned is not None:
            found.append(f"{row.rung} against {row.against}: {warned}")
    return tuple(found)


def dip_sentences(rungs: pd.DataFrame, depth: int) -> list[str]:
    """One sentence for each rung that loses to the rung below (``loses_to_below``), saying
    when a later rung climbs back: the skill depth counts steps between neighbours, so a
    step up from a rung that lost is no step above the rung it lost to.

    Parameters
    ----------
    rungs : :attr:`Skill.rungs` (``rung``, ``vs_below_share*``, ``p_down_holm``,
        ``loses_to_below``, ``beats_below``), weakest first.
    depth : the skill depth.
    """
    names = rungs["rung"].tolist()
    out = []
    for i in np.flatnonzero(rungs["loses_to_below"].to_numpy(bool)):
        row = rungs.iloc[i]
        p = "<1e-15" if row.p_down_holm < 1e-15 else f"{row.p_down_holm:.2g}"
        text = (
            f"{names[i]} loses to the rung below, {names[i - 1]}: head to head "
            f"{row.vs_below_share:.1%} [{row.vs_below_share_low:.1%}, "
            f"{row.vs_below_share_high:.1%}] (Holm p {p})"
        )
        later = [names[j] for j in range(i + 1, len(names)) if rungs["beats_below"].iloc[j]]
        if later:
            text += (
                f"; the ladder goes down here and back up ({', '.join(later)} beating the rung "
                f"below): a step up from {names[i]} says nothing of {names[i - 1]}, so the "
                f"skill depth ({depth} of {len(names) - 1}) counts steps between neighbours, "
                "not levels of skill above random"
            )
        out.append(text)
    return out


def describe_threshold() -> str:
    """The skill depth's margin in words."""
    return (
        f"a head-to-head share significantly above {SHARE_MARGIN:.0%} (the share of the games "
        "that separate the two: one won, the other did not)"
    )
