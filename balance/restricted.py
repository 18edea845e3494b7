"""Card value by restricted play (Jaffe, Miller, Andersen, Liu, Karlin, Popović and
Popović: "Evaluating competitive game balance with restricted play", AIIDE 2012).

A card's value is how much a player loses when they may never play it. For each
action (card) of the game, one run is played in which one seat of every game may never
choose it (seat ``i % n`` in game ``i``, so that the restriction visits every seat
equally), against the same opponents, on the same seed and game indices as an
unrestricted run. The restricted seat's win in each game is paired with the same seat's
win in the same game of the unrestricted run: the mean of those paired differences is
the card's value, with a paired t interval, and Holm's correction over the cards says
which values stay significant.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from balance import metrics
from balance.charts import Chart, plot_intervals, title_page, write_charts
from balance.errors import BalanceError, Interrupted
from balance.formatting import rules_text
from balance.games import get_game
from balance.games.base import Setup
from balance.run import RunResult, check_run, run_games
from balance.stats import wilson_interval

METHOD = "restricted play (Jaffe et al., AIIDE 2012)"


def restricted_wins(won: np.ndarray, first_game: int = 0) -> np.ndarray:
    """Whether the restricted seat of each game won: ``won[i, (first_game + i) % n]``.

    Parameters
    ----------
    won : bool ``(G, n)``, which seats won each of the games ``first_game ..``.

    Returns
    -------
    bool ``(G,)``.
    """
    won = np.asarray(won, dtype=bool)
    games, n = won.shape
    seat = (first_game + np.arange(games)) % n
    return won[np.arange(games), seat]


def restricted_play_table(
    unrestricted: np.ndarray, restricted: dict[str, np.ndarray]
) -> pd.DataFrame:
    """Each action's restricted-play value from paired per-game wins of the restricted seat.

    Parameters
    ----------
    unrestricted : bool ``(G,)``, whether the seat restricted in game ``i`` won game ``i``
        of the unrestricted run.
    restricted : per action, bool ``(G,)``: whether that seat won game ``i`` of the run in
        which it could not choose the action.

    Returns
    -------
    DataFrame, one row an action, in the order given: ``action``, ``games``,
    ``win_rate`` (restricted) and ``base_win_rate`` (the same seats, unrestricted), each
    with its Wilson interval (``win_rate_low``/``_high``, ``base_win_rate_low``/``_high``),
    ``difference`` (restricted minus unrestricted: negative when the action helps its
    player) with ``low``/``high``, ``p``, ``p_holm`` and ``significant``.
    """
    rows = []
    for action, wins in restricted.items():
        diff = metrics.paired_difference(wins, unrestricted)
        games = len(wins)
        low, high = wilson_interval(int(np.sum(wins)), games)
        base_low, base_high = wilson_interval(int(np.sum(unrestricted[:games])), games)
        rows.append(
            {
                "action": action,
                "games": diff["games"],
                "win_rate": float(np.mean(wins)) if games else float("nan"),
                "win_rate_low": float(low),
                "win_rate_high": float(high),
                "base_win_rate": float(np.mean(unrestricted)) if games else float("nan"),
                "base_win_rate_low": float(base_low),
                "base_win_rate_high": float(base_high),
                "difference": diff["difference"],
                "low": diff["low"],
                "high": diff["high"],
                "p": diff["p"],
            }
        )
    table = pd.DataFrame(rows)
    table["p_holm"], table["significant"] = metrics.holm(table["p"].to_numpy())
    return table


@dataclass
class RestrictedPlay:
    """The unrestricted run's set-up and every action's restricted-play value."""

    setup: Setup
    table: pd.DataFrame
    requested: int
    partial: bool

    @property
    def games(self) -> int:
        return int(self.table["games"].min()) if len(self.table) else 0

    def text(self) -> str:
        """The table as a designer reads it in a terminal."""
        setup = self.setup
        game = get_game(setup.game)
        noun = game.action_noun
        lines = [
            f"{game.id}: {noun} value by {METHOD}",
            f"{self.games:,} games per {noun}, {setup.players} players, seed {setup.seed}; "
            f"variants: {', '.join(setup.rules.variants) or 'none (base game)'}; "
            f"strategies: {', '.join(setup.lineup.labels)}"
            + (f" (interrupted: {self.requested:,} asked)" if self.partial else ""),
            f"In game i, seat i mod n may never {game.action_verb} the {noun}; its win rate "
            "is paired, "
            "game by game, with the same seat's in the unrestricted run.",
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
        lines.append(
            f"\nA negative change: the {noun} helps the player who has it. * = significant at "
            f"5% after Holm's correction over {len(self.table)} {noun}(s). Intervals: Wilson "
            f"for the win rates, over the {self.games:,} games; paired t over games for the "
            "change."
        )
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
) -> RestrictedPlay:
    """Play ``setup`` unrestricted and once per action restricted, and pair the runs.

    ``actions`` defaults to every action of the game (:meth:`Game.actions`). Build
    ``setup`` with :func:`balance.api.make_setup`, or take a saved run's.
    """
    game = get_game(setup.game)
    own = getattr(game, "value_cards", None)
    if own is not None:  # a game that values cards its own way (a deck without the card)
        return own(setup, games, actions, threads, progress, on_compile)
    chosen = list(actions) or list(game.actions())
    for action in chosen:
        game.check_restricted([action])
    if len(set(chosen)) != len(chosen):
        raise BalanceError(f"a {game.action_noun} is named twice: {', '.join(chosen)}")
    check_run(games, threads, None)
    base = dataclasses.replace(setup, lineup=dataclasses.replace(setup.lineup, restricted=()))

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
    base_wins = restricted_wins(won_by_game(unrestricted)[:played])
    table = restricted_play_table(
        base_wins,
        {
            action: restricted_wins(won_by_game(result)[:played])
            for action, result in results.items()
        },
    )
    partial = played < games or len(results) < len(chosen)
    return RestrictedPlay(setup=base, table=table, requested=games, partial=partial)


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
            percent=True,
            note=f"{value.games:,} games per {noun}, each paired with the same game of the "
            f"unrestricted run (same seed, same opponents); {game.title}, "
            f"{value.setup.players} players, strategies {', '.join(value.setup.lineup.labels)}. "
            f"In game i the restricted seat is seat i mod n. Negative: the {noun} helps the "
            "player who has it. 95% paired t intervals; filled points stay significant after "
            f"Holm's correction over the {noun}s.",
        ),
    )


def write_restricted_play(value: RestrictedPlay, out: Path) -> list[Path]:
    """The chart as PNG and ``restricted-play.pdf``, and the table as CSV."""
    if hasattr(value, "write"):  # a game's own card values write themselves
        return value.write(out)
    noun = get_game(value.setup.game).action_noun
    lines = [
        f"game: {value.setup.game}, {value.setup.players} players, seed {value.setup.seed}",
        f"games per {noun}: {value.games:,}" + (" (interrupted: partial)" if value.partial else ""),
        f"variants: {', '.join(value.setup.rules.variants) or 'none (base game)'}",
        "rules: " + rules_text(value.setup.rules.to_dict()),
        "strategies by seat: " + ", ".join(value.setup.lineup.labels),
        f"method: {METHOD}",
    ]
    charts = [
        Chart("00-title", title_page(f"{noun.capitalize()} value by restricted play", lines)),
        restricted_play_chart(value),
    ]
    written = write_charts(charts, out, "restricted-play.pdf")
    value.table.to_csv(out / "restricted-play.csv", index=False)
    return [*written, out / "restricted-play.csv"]
