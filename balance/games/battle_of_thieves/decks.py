"""Deck against deck: the value of a card by restricted play, and the matchup matrix.

**A card's value** (restricted play, Jaffe et al., AIIDE 2012, applied to a deck): the
deck is played again with every copy of the card replaced by a blank card that can
never be played, on the same seeds and game indices. The deck's player's win in each
game is paired with its win in the same game with the real card; the mean of those
differences is the card's value (negative when the card helps), with a paired t
interval and Holm's correction over the cards. The blank card keeps the deck at 20
cards and the draw order unchanged, so only the card's play differs.

**A matchup** plays every pair of given decks in both seat orders and gives each deck's
win rate against each other deck, pooled over the two seat orders, with a Wilson
interval. Capped games count as wins for neither deck; the share of each pair's games
stopped by the turn cap is shown with its interval (text, chart, JSON and CSV).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from balance.caveats import warning_lines
from balance.charts import (
    Chart,
    caption,
    flag,
    new_axes,
    plot_intervals,
    title_page,
    write_charts,
)
from balance.errors import BalanceError, Interrupted
from balance.formatting import rules_text
from balance.games.base import Setup
from balance.games.battle_of_thieves.report import capped_text
from balance.games.battle_of_thieves.usefulness import card_keys
from balance.restricted import restricted_warnings, value_table, won_by_game
from balance.results import json_safe
from balance.run import check_run, run_games
from balance.stats import mean_interval, wilson_interval

METHOD = "restricted play with a blank card (Jaffe et al., AIIDE 2012)"


def _won(setup: Setup, games: int, **run: Any) -> tuple[np.ndarray, bool]:
    """Which seat won each game of ``setup``: bool ``(G, 2)``, and whether interrupted."""
    result = run_games(setup, games, keep_records=False, **run)
    return won_by_game(result), result.partial or not result.blocks


@dataclass(frozen=True)
class CardValues:
    """Each card's restricted-play value for the deck that holds it."""

    setup: Setup
    table: pd.DataFrame
    games: int
    partial: bool
    requested: int = 0
    method: str = METHOD
    #: Per (seat, card): the deck's win with the blank card minus its win with the card,
    #: game by game (float ``(games,)``).
    differences: dict[tuple[int, str], np.ndarray] = dataclasses.field(default_factory=dict)
    #: Games of the run with every real card stopped at the turn cap (see
    #: :mod:`balance.caveats`); printed first, each on a line beginning ``warning:``.
    warnings: list[str] = dataclasses.field(default_factory=list)

    def chart(self, name: str = "20-card-value") -> Chart:
        """The forest plot of every card's value, seat 0's deck first."""
        decks = self.setup.rules.content().deck_names
        table = self.table
        return Chart(
            name,
            plot_intervals(
                [f"{row.card} ({decks[row.seat]})" for row in table.itertuples()],
                table["difference"],
                table["low"],
                table["high"],
                title=f"card value by {METHOD}",
                xlabel="change in the deck's win rate with the card replaced by a blank card "
                "(percentage points)",
                marked=table["significant"].to_numpy(bool),
                marked_label="significant after Holm",
                percent=True,
                note=f"{self.games:,} games per card, each paired with the same game (same "
                f"seed and index) played with the real card; strategies "
                f"{', '.join(self.setup.lineup.labels)}. Negative: the card helps its deck. "
                "95% paired t intervals; filled points stay significant after Holm's "
                "correction over the cards.",
            ),
        )

    def write(self, out: Path) -> list[Path]:
        """The chart as PNG and ``card-value.pdf``, and the table as ``card-value.csv``."""
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise BalanceError(f"--out {out} is a file, not a directory")
        out.mkdir(parents=True, exist_ok=True)
        lines = [
            *self.text().splitlines()[len(self.warnings) :][:2],
            "rules: " + rules_text(self.setup.rules.to_dict()),
            "strategies by seat: " + ", ".join(self.setup.lineup.labels),
        ]
        charts = [
            Chart("00-title", title_page("Card value by restricted play", lines)),
            self.chart(),
        ]
        for chart in charts:
            flag(chart.figure, warning_lines(self.warnings))
        written = write_charts(charts, out, "card-value.pdf")
        self.table.to_csv(out / "card-value.csv", index=False)
        return [*written, out / "card-value.csv"]

    def text(self) -> str:
        decks = self.setup.rules.content().deck_names
        lines = [
            *warning_lines(self.warnings),
            f"Card value by {METHOD}: {self.games:,} paired games a card, "
            f"decks {decks[0]} (seat 0) and {decks[1]} (seat 1); seed {self.setup.seed}, "
            f"strategies {', '.join(self.setup.lineup.labels)}"
            + (f"; {self.setup.lineup.seating_text()}" if self.setup.lineup.rotate else "")
            + (f" (interrupted: {self.requested:,} asked)" if self.partial else "")
            + ".",
            "A negative difference: the deck wins less without the card (the card helps).",
            "",
            f"{'seat':<5}{'card':<26}{'with blank [95%]':<22}{'with card [95%]':<22}"
            f"  {'difference (pp) [95%]':<26}{'Holm p':>10}",
        ]
        for row in self.table.itertuples():
            mark = " *" if row.significant else ""
            interval = f"[{row.low * 100:+.2f}, {row.high * 100:+.2f}]"
            rates = [_rate_text(rate, row.games) for rate in (row.win_rate, row.base_win_rate)]
            lines.append(
                f"{row.seat:<5}{row.card[:25]:<26}{rates[0]:<22}{rates[1]:<22}"
                f"{row.difference * 100:>+9.2f} {interval:<17}{_p_text(row.p_holm):>10}{mark}"
            )
        lines.append(
            "* significant at 95% after Holm's correction over the cards. Win rates: Wilson "
            "intervals over the paired games; differences: paired t."
        )
        return "\n".join(lines)


def _rate_text(rate: float, games: int) -> str:
    """A deck's win rate over ``games`` with its Wilson interval: ``51.2% [50.5, 51.9]``."""
    if rate != rate or not games:
        return "n/a"
    low, high = wilson_interval(round(rate * games), games)
    return f"{rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"


def _p_text(p: float) -> str:
    """A p-value as printed: never 0 (a p-value is only ever below a bound)."""
    if p != p:
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def card_values(
    setup: Setup,
    games: int,
    cards: Sequence[str] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> CardValues:
    """Value every card of both decks (or only ``cards``) by restricted play.

    Returns a :class:`CardValues` whose table has one row for each (seat, card):
    ``seat``, ``deck``, ``card``, ``games``, ``win_rate`` (with the blank card),
    ``base_win_rate``, ``difference``, ``low``, ``high``, ``p``, ``p_holm``,
    ``significant``.
    """
    check_run(games, threads, None)
    content = setup.rules.content()
    wanted = list(cards)
    known = set(content.deck_card_names(0)) | set(content.deck_card_names(1))
    for name in wanted:
        if name not in known:
            raise BalanceError(
                f"card {name!r} is in neither deck; cards: {', '.join(sorted(known))}"
            )
    run = {"threads": threads, "progress": progress, "on_compile": on_compile}
    unrestricted = run_games(setup, games, keep_records=False, **run)
    base, partial = won_by_game(unrestricted), unrestricted.partial or not unrestricted.blocks
    rows = []
    played = len(base)
    for seat in range(2):
        for name in content.deck_card_names(seat):
            if wanted and name not in wanted:
                continue
            if partial:
                break
            rules = dataclasses.replace(setup.rules, blanks=(*setup.rules.blanks, f"{seat}:{name}"))
            won, partial = _won(dataclasses.replace(setup, rules=rules), games, **run)
            played = min(played, len(won))
            rows.append((seat, content.deck_names[seat], name, won[:, seat]))
    if not rows:
        raise Interrupted("interrupted before any card was valued")
    differences = {}
    paired = []
    for seat, deck, name, wins in rows:
        differences[seat, name] = wins[:played].astype(float) - base[:played, seat]
        labels = {"seat": seat, "deck": deck, "card": name}
        paired.append((labels, wins[:played], base[:played, seat]))
    frame = value_table(paired)
    warned = restricted_warnings(unrestricted, {}, played)
    return CardValues(
        setup, frame, played, partial, requested=games, differences=differences, warnings=warned
    )


def add_card_values(summary: dict[str, Any], values: CardValues) -> None:
    """Put each card's ``restricted_play_delta`` (with ``restricted_play_ci95`` and
    ``restricted_play_games``) into a summary's ``cards``, under the keys of
    :func:`usefulness.card_keys`. A card pooled over the two seats of a mirror match gets
    the game-by-game mean of its two seats' differences (both are paired with the same
    games), with a paired t interval."""
    content = values.setup.rules.content()
    keys = card_keys(content.deck_cards, content.names, content.deck_names, content.is_mirror())
    for key, where in keys.items():
        chosen = [(seat, content.names[content.deck_cards[seat, r]]) for seat, r in where]
        if not all(pair in values.differences for pair in chosen):
            continue  # a card not valued (--card named others)
        per_game = np.mean([values.differences[pair] for pair in chosen], axis=0)
        mean, low, high = mean_interval(per_game)
        entry = summary["cards"].setdefault(key, {})
        entry["restricted_play_delta"] = mean
        entry["restricted_play_ci95"] = [low, high]
        entry["restricted_play_games"] = len(per_game)
    summary["restricted_play_method"] = METHOD


# --- matchups -------------------------------------------------------------------------


@dataclass(frozen=True)
class Matchup:
    """Every pair of decks played in both seat orders.

    ``pairs``: one row for each ordered pair of distinct decks: ``deck``, ``against``,
    ``games`` (both seat orders), ``wins``, ``rate``, ``low``, ``high``, ``first_rate``
    (the deck's win rate when it played first) and ``second_rate``, each with its Wilson
    interval (``first_low``/``first_high``, ``second_low``/``second_high``) over
    ``games_per_seat_order`` games; ``capped`` (games of
    the pair, both seat orders, stopped by the turn cap: neither deck won), ``capped_rate``,
    ``capped_low`` and ``capped_high`` (95% Wilson interval).
    """

    decks: tuple[str, ...]
    pairs: pd.DataFrame
    games: int  # games per seat order
    seed: int
    strategies: tuple[str, ...]
    partial: bool
    turn_cap: int = 200

    def capped_lines(self) -> list[str]:
        """A line for each pair of decks: the share of its games stopped by the cap."""
        lines = []
        for row in self.pairs.itertuples():
            if self.decks.index(row.deck) < self.decks.index(row.against):
                text = capped_text(row.capped, row.games, self.turn_cap)
                lines.append(f"  {row.deck} and {row.against}: {text}")
        return lines

    def matrix(self, column: str = "rate") -> pd.DataFrame:
        """Deck (rows) against deck (columns); the diagonal is empty."""
        table = self.pairs.pivot(index="deck", columns="against", values=column)
        return table.reindex(index=list(self.decks), columns=list(self.decks))

    def text(self) -> str:
        width = max(12, *(len(d) + 2 for d in self.decks))
        lines = [
            f"Battle of Thieves matchups: {self.games:,} games in each seat order of every "
            f"pair (seed {self.seed}; strategies {', '.join(self.strategies)}).",
            "Win rate of the row's deck against the column's, both seat orders pooled, "
            "with 95% Wilson intervals; capped games are wins for neither.",
            "",
            " " * width + "".join(f"{d[:22]:>24}" for d in self.decks),
        ]
        rates, lows, highs = self.matrix("rate"), self.matrix("low"), self.matrix("high")
        for deck in self.decks:
            cells = []
            for against in self.decks:
                if deck == against:
                    cells.append(f"{'-':>24}")
                else:
                    r, lo, hi = (
                        rates.at[deck, against],
                        lows.at[deck, against],
                        highs.at[deck, against],
                    )
                    cells.append(f"{r * 100:>8.1f}% [{lo * 100:4.1f}, {hi * 100:4.1f}]")
            lines.append(f"{deck:<{width}}" + "".join(cells))
        lines += [
            "",
            f"By seat order ({self.games:,} games each, 95% Wilson intervals): the row's deck "
            "playing first (seat 0), then second (seat 1).",
        ]
        for row in self.pairs.itertuples():
            lines.append(
                f"  {row.deck[:22]:<22} vs {row.against[:22]:<22} first "
                f"{row.first_rate * 100:5.1f}% [{row.first_low * 100:4.1f}, "
                f"{row.first_high * 100:4.1f}]  second {row.second_rate * 100:5.1f}% "
                f"[{row.second_low * 100:4.1f}, {row.second_high * 100:4.1f}]"
            )
        lines += ["", "Games stopped by the turn cap, both seat orders (95% Wilson intervals):"]
        lines += self.capped_lines()
        return "\n".join(lines)

    def chart(self) -> Chart:
        """The matrix as a grey heat map with each cell's rate and interval."""
        n = len(self.decks)
        figure, ax = new_axes(height=max(4.0, 1.2 * n + 2))
        rates = self.matrix("rate").to_numpy(dtype=float)
        lows, highs = self.matrix("low").to_numpy(float), self.matrix("high").to_numpy(float)
        ax.imshow(np.nan_to_num(rates, nan=0.5), cmap="Greys", vmin=0, vmax=1)
        for i in range(n):
            for j in range(n):
                if i == j:
                    ax.text(j, i, "—", ha="center", va="center")
                    continue
                shade = "white" if rates[i, j] > 0.6 else "black"
                ax.text(
                    j,
                    i,
                    f"{rates[i, j] * 100:.1f}%\n[{lows[i, j] * 100:.1f}, {highs[i, j] * 100:.1f}]",
                    ha="center",
                    va="center",
                    color=shade,
                    fontsize=9,
                )
        ax.set_xticks(range(n), self.decks, rotation=20, ha="right")
        ax.set_yticks(range(n), self.decks)
        ax.set_xlabel("against this deck")
        ax.set_ylabel("win rate of this deck")
        ax.set_title("deck against deck: win rate, both seat orders pooled")
        caption(
            figure,
            f"{2 * self.games:,} games a pair ({self.games:,} in each seat order); "
            f"strategies {', '.join(self.strategies)}; 95% Wilson intervals. Capped games are "
            "wins for neither deck, so a pair's two rates can sum to less than 100%. Games "
            + "; ".join(line.strip() for line in self.capped_lines())
            + ".",
        )
        return Chart("01-matchup", figure)

    def write(self, out: Path) -> list[Path]:
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise BalanceError(f"--out {out} is a file, not a directory")
        out.mkdir(parents=True, exist_ok=True)
        self.pairs.to_csv(out / "matchup.csv", index=False)
        record = {
            "decks": list(self.decks),
            "games_per_seat_order": self.games,
            "seed": self.seed,
            "strategies": list(self.strategies),
            "partial": self.partial,
            "turn_cap": self.turn_cap,
            "pairs": self.pairs.to_dict(orient="records"),
        }
        (out / "matchup.json").write_text(json.dumps(json_safe(record), indent=2) + "\n")
        title = title_page("Battle of Thieves: deck matchups", self.text().splitlines()[:2])
        return write_charts([Chart("00-title", title), self.chart()], out, "matchup.pdf")


def matchup(
    decks: Sequence[str],
    games: int,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    rules: Sequence[tuple[str, str]] = (),
    threads: int | None = None,
    progress: bool = False,
    on_compile: Callable[[str], None] | None = None,
) -> Matchup:
    """Play every pair of ``decks`` (names or files) in both seat orders, ``games`` each."""
    from balance.api import make_setup

    decks = tuple(decks)
    if len(decks) < 2:
        raise BalanceError("a matchup needs at least two decks (--deck A --deck B ...)")
    if len(set(decks)) != len(decks):
        raise BalanceError(f"a deck is given twice: {', '.join(decks)}")
    for name, _ in rules:
        if name.strip().replace("-", "_") == "decks":
            raise BalanceError("give the decks with --deck, not --rule decks=...")
    check_run(games, threads, None)
    run = {"threads": threads, "progress": progress, "on_compile": on_compile}
    setups = {}
    names: dict[str, str] = {}  # each deck's own name, as seat 0 plays it
    for first in decks:  # every set-up is checked before the first game is played
        for second in decks:
            if first != second:
                pairs = [*rules, ("decks", f"{first},{second}")]
                setups[first, second] = make_setup(
                    "battle-of-thieves", 2, seed, strategies, (), pairs
                )
                names[first] = setups[first, second].rules.content().deck_names[0]
    labels = tuple(names[d] for d in decks)
    if len(set(labels)) != len(labels):
        raise BalanceError(f"two decks share a name: {', '.join(labels)}")
    won: dict[tuple[str, str], np.ndarray] = {}
    partial = False
    for key, setup in setups.items():
        won[key], partial = _won(setup, games, **run)
        if partial:
            break
    if not won or (partial and len(won) < len(setups)):
        raise Interrupted("interrupted before every pair of decks was played")
    played = min(len(w) for w in won.values())
    rows = []
    for deck in decks:
        for against in decks:
            if deck == against:
                continue
            first = won[deck, against][:played, 0]
            second = won[against, deck][:played, 1]
            wins = int(first.sum() + second.sum())
            low, high = wilson_interval(wins, 2 * played)
            first_low, first_high = wilson_interval(int(first.sum()), played)
            second_low, second_high = wilson_interval(int(second.sum()), played)
            capped = int(
                (~won[deck, against][:played].any(axis=1)).sum()
                + (~won[against, deck][:played].any(axis=1)).sum()
            )
            capped_low, capped_high = wilson_interval(capped, 2 * played)
            rows.append(
                {
                    "deck": names[deck],
                    "against": names[against],
                    "games": 2 * played,
                    "wins": wins,
                    "rate": wins / (2 * played),
                    "low": float(low),
                    "high": float(high),
                    "first_rate": float(first.mean()),
                    "first_low": float(first_low),
                    "first_high": float(first_high),
                    "second_rate": float(second.mean()),
                    "second_low": float(second_low),
                    "second_high": float(second_high),
                    "games_per_seat_order": played,
                    "capped": capped,
                    "capped_rate": capped / (2 * played),
                    "capped_low": float(capped_low),
                    "capped_high": float(capped_high),
                }
            )
    turn_cap = next(iter(setups.values())).rules.turn_cap
    return Matchup(labels, pd.DataFrame(rows), played, seed, tuple(strategies), partial, turn_cap)
