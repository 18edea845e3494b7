"""Card value by restricted play (Jaffe, Miller, Andersen, Liu, Karlin, Popović and
Popović: "Evaluating competitive game balance with restricted play", AIIDE 2012).

A card's value is how much a player loses when they may never play it. For each
action (card) of the game, one run is played in which one seat of every game may never
choose it (:meth:`balance.core.game.Lineup.restricted_seat`, chosen so that every (seat,
strategy) pair is restricted equally often), against the same opponents, on the same seed
and game indices as an unrestricted run. The restricted seat's win in each game is paired
with the same seat's win in the same game of the unrestricted run: the mean of those
paired differences is the card's value, with a paired t interval, and Holm's correction
over the cards says which values stay significant.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from balance.core.errors import BalanceError, Interrupted
from balance.core.formatting import interval, percent, rules_text
from balance.core.game import Setup, no_restricted_play
from balance.games import get_game
from balance.reports.charts import (
    Chart,
    findings_page,
    flag,
    plot_intervals,
    title_page,
    write_charts,
)
from balance.reports.findings import (
    MIN_EFFECT,
    check_min_effect,
    random_field_sentences,
    restricted_play_sentences,
)
from balance.run.paired_precision import CardTracker, play_lockstep_until, restricted_wins
from balance.run.results import output_dir
from balance.run.runner import RunResult, check_run, run_games
from balance.stats import metrics
from balance.stats.caveats import CAP_SHARE, capped_warning, warning_lines
from balance.stats.intervals import wilson_interval

METHOD = "restricted play (Jaffe et al., AIIDE 2012)"


def value_table(
    rows: Sequence[tuple[Mapping[str, Any], np.ndarray, np.ndarray]],
) -> pd.DataFrame:
    """Each card's restricted-play value from paired per-game wins: the one computation
    of card value for every game.

    Parameters
    ----------
    rows : per card, ``(labels, restricted, unrestricted)``: the columns that name the
        card (e.g. ``{"action": "charge"}``, or a deck's ``seat``, ``deck`` and ``card``),
        then float or bool ``(G,)`` arrays: the restricted player's win (or share of a win)
        in game ``i`` of the restricted run, and in game ``i`` of the unrestricted run.

    Returns
    -------
    DataFrame, one row a card, in the order given: the labels, ``games``, ``win_rate``
    (restricted) and ``base_win_rate`` (unrestricted), each with its Wilson interval
    (``win_rate_low``/``_high``, ``base_win_rate_low``/``_high``; a shared win counts as its
    share), ``difference`` (restricted minus
    unrestricted: negative when the card helps its player) with ``low``/``high`` (paired
    t), ``p`` (paired t-test), ``p_holm`` and ``significant`` (Holm over the rows).
    """
    out = []
    for labels, wins, base in rows:
        diff = metrics.paired_difference(wins, base, bounds=(-1.0, 1.0))
        games = len(wins)
        low, high = wilson_interval(float(np.sum(wins)), games)
        base_low, base_high = wilson_interval(float(np.sum(base[:games])), games)
        out.append(
            {
                **labels,
                "games": diff["games"],
                "win_rate": float(np.mean(wins)) if games else float("nan"),
                "win_rate_low": float(low),
                "win_rate_high": float(high),
                "base_win_rate": float(np.mean(base)) if games else float("nan"),
                "base_win_rate_low": float(base_low),
                "base_win_rate_high": float(base_high),
                "difference": diff["difference"],
                "low": diff["low"],
                "high": diff["high"],
                "p": diff["p"],
            }
        )
    table = pd.DataFrame(out)
    table["p_holm"], table["significant"] = metrics.holm(table["p"].to_numpy())
    return table


def restricted_play_table(
    unrestricted: np.ndarray, restricted: dict[str, np.ndarray]
) -> pd.DataFrame:
    """Each action's restricted-play value from paired per-game wins of the restricted seat
    (:func:`value_table` with an ``action`` column).

    Parameters
    ----------
    unrestricted : bool ``(G,)``, whether the seat restricted in game ``i`` won game ``i``
        of the unrestricted run.
    restricted : per action, bool ``(G,)``: whether that seat won game ``i`` of the run in
        which it could not choose the action.

    Returns
    -------
    DataFrame, one row an action, in the order given: ``action``, then the columns of
    :func:`value_table`.
    """
    return value_table(
        [({"action": action}, wins, unrestricted) for action, wins in restricted.items()]
    )


@dataclass
class RestrictedPlay:
    """The unrestricted run's set-up and every action's restricted-play value."""

    setup: Setup
    table: pd.DataFrame
    requested: int
    partial: bool
    method: str = METHOD
    #: ``cards --precision``: the precision, ``max_games``, ``stopped_by``; the value
    #: intervals are then anytime-valid.
    precision: dict[str, Any] | None = None
    #: Games stopped at the cap, in the unrestricted run or a restricted one (see
    #: :mod:`balance.stats.caveats`); printed first, each on a line beginning ``warning:``.
    warnings: list[str] = dataclasses.field(default_factory=list)
    #: The smallest change of a win rate that matters, in points (``--min-effect``).
    min_effect: float = MIN_EFFECT

    @property
    def games(self) -> int:
        return int(self.table["games"].min()) if len(self.table) else 0

    def text(self) -> str:
        """The table as a designer reads it in a terminal."""
        setup = self.setup
        game = get_game(setup.game)
        noun = game.action_noun
        lines = [
            *warning_lines(self.warnings),
            f"{game.id}: {noun} value by {METHOD}",
            f"{self.games:,} games per {noun}, {setup.players} players, seed {setup.seed}; "
            f"variants: {', '.join(setup.rules.variants) or 'none (base game)'}; "
            f"strategies: {', '.join(setup.lineup.labels)}"
            + (f" (interrupted: {self.requested:,} asked)" if self.partial else ""),
            setup.lineup.seating_text(),
            f"One seat a game may never {game.action_verb} the {noun} "
            f"({setup.lineup.restriction_text()}); its win rate is paired, game by game, with "
            "the same seat's in the unrestricted run.",
            "",
            f"  {noun:<16} {'without it [95%]':<24} {'with it [95%]':<24} "
            f"{'change in win rate [95% interval]':<36} {'p (Holm)':>9}",
        ]
        for row in self.table.itertuples():
            change = f"{100 * row.difference:+.2f} pp [{100 * row.low:+.2f}, {100 * row.high:+.2f}]"
            p = (
                "n/a"
                if row.p_holm != row.p_holm
                else ("<0.001" if row.p_holm < 0.001 else f"{row.p_holm:.3f}")
            )
            without = _rate(row.win_rate, row.win_rate_low, row.win_rate_high)
            with_it = _rate(row.base_win_rate, row.base_win_rate_low, row.base_win_rate_high)
            lines.append(
                f"  {row.action:<16} {without:<24} {with_it:<24} "
                f"{change:<36} {p:>9}{' *' if row.significant else ''}"
            )
        change = "paired t over games for the change."
        if self.precision is not None:
            change = (
                "95% anytime-valid intervals (confidence sequences) for the change; the "
                "p-values are fixed-n, and a * also needs the interval clear of 0."
            )
        lines.append(
            f"\nA negative change: the {noun} helps the player who has it. * = significant at "
            f"5% after Holm's correction over {len(self.table)} {noun}(s). Intervals: Wilson "
            f"for the win rates, over the {self.games:,} games; {change}"
        )
        if self.precision is not None:
            h = self.precision["precision"]
            by = self.precision["stopped_by"]
            lines.append(
                f"Stopped at --max-games before every value reached +/-{h:g}."
                if by == "max_games"
                else f"Stopped after {self.games:,} games a {noun}: every value within "
                f"+/-{h:g} (the last to get there: {by})."
            )
        lines.append("\nFindings:")
        found = random_field_sentences(self.setup.lineup.labels, noun)
        found += restricted_play_sentences(self.table, noun, min_effect=self.min_effect)
        lines += [f"  {line}" for line in found]
        return "\n".join(lines)


def _rate(rate: float, low: float, high: float) -> str:
    """A win rate and its interval: ``24.31% [23.9, 24.7]``."""
    if rate != rate:
        return "n/a"
    return f"{100 * rate:.2f}% [{100 * low:.1f}, {100 * high:.1f}]"


def restricted_play(
    setup: Setup,
    games: int,
    actions: Sequence[str] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    min_effect: float = MIN_EFFECT,
) -> RestrictedPlay:
    """Play ``setup`` unrestricted and once per action restricted, and pair the runs.

    ``actions`` defaults to every action of the game (:meth:`Game.actions`). Build
    ``setup`` with :func:`balance.api.make_setup`, or take a saved run's. With
    ``precision`` H, ``games`` is ignored: the runs play the same games block by block
    until every card's value has a 95% anytime-valid interval at most H either side, or
    until ``max_games`` (:mod:`balance.run.paired_precision`). ``min_effect``: the smallest
    change of a win rate, in points, that the findings count as mattering.
    """
    check_min_effect(min_effect)
    value = _restricted_play(
        setup, games, actions, threads, progress, on_compile, precision, max_games
    )
    return dataclasses.replace(value, min_effect=min_effect)


def _restricted_play(
    setup: Setup,
    games: int,
    actions: Sequence[str],
    threads: int | None,
    progress: bool,
    on_compile: Callable[[str], None] | None,
    precision: float | None,
    max_games: int | None,
) -> RestrictedPlay:
    game = get_game(setup.game)
    if game.capabilities.decks:  # a deck without the card
        if precision is not None:
            raise BalanceError(
                f"--precision is not available for {game.id}'s card values yet; use --games"
            )
        return _blanked_play(setup, games, actions, threads, progress, on_compile)
    if not game.capabilities.restricted_actions:
        raise BalanceError(no_restricted_play(game.id))
    chosen = list(actions) or list(game.actions())
    for action in chosen:
        game.check_restricted([action])
    if len(set(chosen)) != len(chosen):
        raise BalanceError(f"a {game.action_noun} is named twice: {', '.join(chosen)}")
    if precision is not None:
        from balance.run.precision import DEFAULT_MAX_GAMES, check_precision

        games = DEFAULT_MAX_GAMES if max_games is None else max_games
        check_precision(precision, games)
    check_run(games, threads, None)
    base = dataclasses.replace(setup, lineup=dataclasses.replace(setup.lineup, restricted=()))
    if precision is not None:
        return _restricted_play_until(base, chosen, precision, games, threads, progress, on_compile)

    def play(each: Setup) -> RunResult:
        return run_games(
            each,
            games,
            threads=threads,
            keep_records=False,
            progress=progress,
            on_compile=on_compile,
        )

    unrestricted = play(base)
    results: dict[str, RunResult] = {}
    if not unrestricted.partial:
        for action in chosen:
            lineup = dataclasses.replace(base.lineup, restricted=(action,))
            results[action] = play(dataclasses.replace(base, lineup=lineup))
            if results[action].partial:
                break
    if not results or min(r.games for r in results.values()) == 0:
        raise Interrupted("interrupted before a restricted run had played any game")
    played = min(result.games for result in [unrestricted, *results.values()])
    base_wins = restricted_wins(won_by_game(unrestricted)[:played], base.lineup)
    table = restricted_play_table(
        base_wins,
        {
            action: restricted_wins(won_by_game(result)[:played], result.setup.lineup)
            for action, result in results.items()
        },
    )
    partial = played < games or len(results) < len(chosen)
    return RestrictedPlay(
        setup=base,
        table=table,
        requested=games,
        partial=partial,
        warnings=restricted_warnings(unrestricted, results, played),
    )


def _restricted_play_until(
    base: Setup,
    chosen: Sequence[str],
    precision: float,
    max_games: int,
    threads: int | None,
    progress: bool,
    on_compile: Callable[[str], None] | None,
) -> RestrictedPlay:
    """:func:`restricted_play` with ``precision``: the runs in lockstep, anytime-valid."""
    setups = {"": base}
    for action in chosen:
        lineup = dataclasses.replace(base.lineup, restricted=(action,))
        setups[action] = dataclasses.replace(base, lineup=lineup)
    tracker = CardTracker(setups, precision)
    results = play_lockstep_until(
        setups, tracker, max_games, threads=threads, progress=progress, on_compile=on_compile
    )
    unrestricted = results.pop("")
    played = unrestricted.games
    if played == 0:
        raise Interrupted("interrupted before a restricted run had played any game")
    base_wins = restricted_wins(won_by_game(unrestricted), base.lineup)
    table = restricted_play_table(
        base_wins,
        {
            action: restricted_wins(won_by_game(result), result.setup.lineup)
            for action, result in results.items()
        },
    )
    # Anytime-valid, and never narrower than the paired t interval at the same games.
    low, high = tracker.values.interval()
    table["low"], table["high"] = np.fmin(low, table["low"]), np.fmax(high, table["high"])
    # A star (a filled point) never sits on an interval that holds 0.
    clear = (table["low"] > 0) | (table["high"] < 0)
    table["significant"] = table["significant"].astype(bool) & clear
    return RestrictedPlay(
        setup=base,
        table=table,
        requested=max_games,
        partial=unrestricted.partial,
        warnings=restricted_warnings(unrestricted, results, played),
        precision={
            "precision": precision,
            "max_games": max_games,
            "stopped_by": tracker.stopped_by,
            "anytime_valid": True,
        },
    )


def _blanked_play(
    setup: Setup,
    games: int,
    cards: Sequence[str],
    threads: int | None,
    progress: bool,
    on_compile: Callable[[str], None] | None,
) -> Any:
    """Restricted play for a game that takes a card out of a deck (``game.blank_setups``):
    the deck's player's win in each game with a blank card in place of every copy of the
    card, paired with its win in the same game with the real card; the game presents the
    table (``game.card_values``)."""
    game = get_game(setup.game)
    check_run(games, threads, None)
    blanked = game.blank_setups(setup, cards)

    def play(each: Setup) -> RunResult:
        return run_games(
            each,
            games,
            threads=threads,
            keep_records=False,
            progress=progress,
            on_compile=on_compile,
        )

    unrestricted = play(setup)
    base = won_by_game(unrestricted)
    partial = unrestricted.partial or not unrestricted.blocks
    played = len(base)
    rows = []
    for seat, deck, name, each in blanked:
        if partial:
            break
        result = play(each)
        won = won_by_game(result)
        partial = result.partial or not result.blocks
        played = min(played, len(won))
        rows.append((seat, deck, name, won[:, seat]))
    if not rows:
        raise Interrupted("interrupted before any card was valued")
    differences = {}
    paired = []
    for seat, deck, name, wins in rows:
        differences[seat, name] = wins[:played].astype(float) - base[:played, seat]
        paired.append(
            ({"seat": seat, "deck": deck, "card": name}, wins[:played], base[:played, seat])
        )
    return game.card_values(
        setup,
        value_table(paired),
        played,
        partial,
        requested=games,
        differences=differences,
        warnings=restricted_warnings(unrestricted, {}, played),
    )


def restricted_warnings(
    unrestricted: RunResult, restricted: dict[str, RunResult], games: int
) -> list[str]:
    """Warnings for runs of restricted play whose first ``games`` games often hit the cap.

    The unrestricted run gets :func:`balance.stats.caveats.capped_warning` (and a warning when
    nobody won any game: every value is then 0); the restricted runs that reach the
    threshold share one line that names each with its share and interval.
    """
    game = get_game(unrestricted.setup.game)
    cap = game.length_cap(unrestricted.setup.rules)
    unit = game.length_unit
    base = _unfinished(unrestricted, games)
    found = []
    warned = capped_warning(base, games, cap, unit)
    if warned is not None:
        found.append(f"unrestricted run: {warned}")
    if games and not won_by_game(unrestricted)[:games].any():
        found.append(
            f"nobody won any of the {games:,} games of the unrestricted run: every value is 0 "
            "because nothing can be lost"
        )
    capped = []
    for action, result in restricted.items():
        count = _unfinished(result, games)
        if capped_warning(count, games, cap, unit) is not None:
            low, high = wilson_interval(count, games)
            capped.append(f"{action} {percent(count / games)} {interval([low, high])}")
    if capped:
        found.append(
            f"runs without a {game.action_noun} in which {CAP_SHARE:.0%} or more of the "
            f"{games:,} games "
            f"stopped unfinished at the cap of {cap} {unit}: " + ", ".join(capped)
        )
    return found


def _unfinished(result: RunResult, games: int) -> int:
    """How many of the first ``games`` games of ``result`` stopped at the cap."""
    blocks = sorted(result.blocks, key=lambda block: block.first_game)
    if not blocks:
        return 0
    return int((~np.concatenate([block.finished for block in blocks])[:games]).sum())


def won_by_game(result: RunResult) -> np.ndarray:
    """Which seats won each game of ``result``, in game order: bool ``(G, n)``."""
    blocks = sorted(result.blocks, key=lambda block: block.first_game)
    if not blocks:
        return np.zeros((0, result.setup.players), dtype=bool)
    return np.concatenate([block.won for block in blocks])


def restricted_play_chart(
    value: RestrictedPlay, name: str = "20-value-by-restricted-play"
) -> Chart:
    """The forest plot of every action's restricted-play value."""
    if hasattr(value, "chart"):  # a game's own card values draw themselves
        return value.chart(name)
    table = value.table
    game = get_game(value.setup.game)
    noun = game.action_noun
    return Chart(
        name,
        plot_intervals(
            list(table["action"]),
            table["difference"],
            table["low"],
            table["high"],
            title=f"{noun} value by {METHOD}",
            xlabel=f"change in the win rate of a seat that may never {game.action_verb} the "
            f"{noun} "
            "(percentage points)",
            marked=table["significant"].to_numpy(bool),
            marked_label="significant after Holm",
            points=True,
            note=f"{value.games:,} games per {noun}, each paired with the same game of the "
            f"unrestricted run (same seed, same opponents); {game.title}, "
            f"{value.setup.players} players, strategies {', '.join(value.setup.lineup.labels)}; "
            f"{value.setup.lineup.seating_text()}; {value.setup.lineup.restriction_text()}. "
            f"Negative: the {noun} helps the "
            "player who has it. "
            + (
                "95% anytime-valid intervals (confidence sequences); filled points stay "
                f"significant after Holm's correction over the {noun}s, their interval clear "
                "of 0."
                if value.precision is not None
                else "95% paired t intervals; filled points stay significant after "
                f"Holm's correction over the {noun}s."
            ),
        ),
    )


def write_restricted_play(value: RestrictedPlay, out: Path) -> list[Path]:
    """The chart as PNG and ``restricted-play.pdf``, and the table as CSV."""
    out = output_dir(out)
    if hasattr(value, "write"):  # a game's own card values write themselves
        return value.write(out)
    noun = get_game(value.setup.game).action_noun
    lines = [
        f"game: {value.setup.game}, {value.setup.players} players, seed {value.setup.seed}",
        f"games per {noun}: {value.games:,}" + (" (interrupted: partial)" if value.partial else ""),
        f"variants: {', '.join(value.setup.rules.variants) or 'none (base game)'}",
        "rules: " + rules_text(value.setup.rules.to_dict()),
        "strategies by seat: " + ", ".join(value.setup.lineup.labels),
        value.setup.lineup.seating_text(),
        f"restricted seat: {value.setup.lineup.restriction_text()}",
        f"method: {METHOD}",
    ]
    warned = warning_lines(value.warnings)
    findings = findings_page(
        f"{noun.capitalize()} value by restricted play: findings",
        warned,
        random_field_sentences(value.setup.lineup.labels, noun)
        + restricted_play_sentences(value.table, noun, min_effect=value.min_effect),
    )
    charts = [
        Chart("00-title", title_page(f"{noun.capitalize()} value by restricted play", lines)),
        restricted_play_chart(value),
    ]
    for chart in charts:
        flag(chart.figure, warned)  # the findings page states the warnings itself
    charts.insert(0, Chart("00-findings", findings))
    written = write_charts(charts, out, "restricted-play.pdf")
    value.table.to_csv(out / "restricted-play.csv", index=False)
    return [*written, out / "restricted-play.csv"]


def card_value_json(value: Any) -> dict[str, Any]:
    """Card values as ``balance cards --json`` prints them, the same for every game.

    ``value`` is what :func:`restricted_play` returns. Keys: ``game``, ``method``,
    ``noun`` (what is valued: a card, a hat), ``players``, ``seed``, ``variants``,
    ``rules``, ``strategies``, ``games`` (paired games behind every value),
    ``requested_games``, ``partial``, and ``cards``: one entry a card, in the table's
    order, with ``card`` (and, for a game that values a deck's cards, ``seat`` and
    ``deck``), ``value`` (the change in the win rate of the player without the card:
    negative when the card helps), ``ci95`` (paired t), ``games``, ``p``, ``p_holm``,
    ``significant`` (after Holm over the cards), ``win_rate_without`` and
    ``win_rate_with``.
    """
    setup = value.setup
    game = get_game(setup.game)
    cards = []
    for row in value.table.to_dict(orient="records"):
        card = row.get("card")
        entry: dict[str, Any] = {"card": card if isinstance(card, str) else row.get("action")}
        if isinstance(row.get("deck"), str):  # a deck's card: its seat and deck
            entry["seat"] = int(row["seat"])
            entry["deck"] = row["deck"]
        entry.update(
            {
                "value": float(row["difference"]),
                "ci95": [float(row["low"]), float(row["high"])],
                "games": int(row["games"]),
                "p": float(row["p"]),
                "p_holm": float(row["p_holm"]),
                "significant": bool(row["significant"]),
                "win_rate_without": float(row["win_rate"]),
                "win_rate_with": float(row["base_win_rate"]),
            }
        )
        cards.append(entry)
    return {
        "game": setup.game,
        "method": value.method,
        "noun": game.action_noun,
        "players": setup.players,
        "seed": setup.seed,
        "variants": list(setup.rules.variants),
        "rules": setup.rules.to_dict(),
        "strategies": setup.lineup.labels,
        "games": value.games,
        "requested_games": value.requested,
        "partial": value.partial,
        "cards": cards,
        **_precision_json(value),
    }


def _precision_json(value: Any) -> dict[str, Any]:
    """``anytime_valid``, ``stopped_by``, ``precision``, ``max_games`` of a run with
    ``--precision``; nothing otherwise."""
    found = getattr(value, "precision", None)
    return dict(found) if found else {}


def check_card_values(game_id: str) -> None:
    """A one-line error unless restricted play can value ``game_id``'s cards."""
    game = get_game(game_id)
    if game.capabilities.decks:
        return
    if not game.capabilities.restricted_actions:
        raise BalanceError(no_restricted_play(game.id))
    game.check_restricted(list(game.actions())[:1])
