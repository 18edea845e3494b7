"""A card's value to its deck by restricted play: the blanked decks to play, and the table.

**A card's value** (restricted play, Jaffe et al., AIIDE 2012, applied to a deck): the
deck is played again with every copy of the card replaced by a blank card that can
never be played, on the same seeds and game indices. The deck's player's win in each
game is paired with its win in the same game with the real card; the mean of those
differences is the card's value (negative when the card helps), with a paired t
interval and Holm's correction over the cards. The blank card keeps the deck at 20
cards and the draw order unchanged, so only the card's play differs.

This module builds the set-ups (:func:`blank_setups`) and presents the values
(:class:`CardValues`); :func:`balance.analyses.restricted.restricted_play` plays them, so that the
game package never imports the runner. Decks against decks: ``balance tournament
battle-of-thieves --deck ...`` (:mod:`balance.analyses.tournament`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from balance.core.errors import BalanceError
from balance.core.formatting import rules_text
from balance.core.game import Setup
from balance.games.battle_of_thieves.usefulness import card_keys
from balance.reports.charts import (
    Chart,
    findings_page,
    flag,
    plot_intervals,
    title_page,
    write_charts,
)
from balance.reports.findings import MIN_EFFECT, random_field_sentences, restricted_play_sentences
from balance.stats.caveats import warning_lines
from balance.stats.intervals import mean_interval, wilson_interval

METHOD = "restricted play with a blank card (Jaffe et al., AIIDE 2012)"


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
    #: :mod:`balance.stats.caveats`); printed first, each on a line beginning ``warning:``.
    warnings: list[str] = dataclasses.field(default_factory=list)
    #: The smallest change of a win rate that matters, in points (``--min-effect``).
    min_effect: float = MIN_EFFECT

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
                points=True,
                note=f"{self.games:,} games per card, each paired with the same game (same "
                f"seed and index) played with the real card; strategies "
                f"{', '.join(self.setup.lineup.labels)}. Negative: the card helps its deck. "
                "95% paired t intervals; filled points stay significant after Holm's "
                "correction over the cards.",
            ),
        )

    def write(self, out: Path) -> list[Path]:
        """The findings and the chart as PNG and ``card-value.pdf``, and the table as
        ``card-value.csv``, in the directory ``out``, which
        :func:`balance.analyses.restricted.write_restricted_play` has created."""
        out = Path(out)
        lines = [
            *self.text().splitlines()[len(self.warnings) :][:2],
            "rules: " + rules_text(self.setup.rules.to_dict()),
            "strategies by seat: " + ", ".join(self.setup.lineup.labels),
        ]
        warned = warning_lines(self.warnings)
        charts = [
            Chart("00-title", title_page("Card value by restricted play", lines)),
            self.chart(),
        ]
        for chart in charts:
            flag(chart.figure, warned)
        findings = findings_page("Card value by restricted play: findings", warned, self.findings())
        charts.insert(0, Chart("00-findings", findings))
        written = write_charts(charts, out, "card-value.pdf")
        self.table.to_csv(out / "card-value.csv", index=False)
        return [*written, out / "card-value.csv"]

    def findings(self) -> list[str]:
        """The findings page's sentences (:mod:`balance.reports.findings`)."""
        decks = self.setup.rules.content().deck_names
        return random_field_sentences(self.setup.lineup.labels, "card") + restricted_play_sentences(
            self.table,
            "card",
            [f"{row.card} ({decks[row.seat]})" for row in self.table.itertuples()],
            subject="the deck",
            min_effect=self.min_effect,
        )

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
        lines.append("\nFindings:")
        lines += [f"  {line}" for line in self.findings()]
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


def blank_setups(setup: Setup, cards: Sequence[str] = ()) -> list[tuple[int, str, str, Setup]]:
    """The set-ups restricted play plays for each card of both decks (or only ``cards``):
    ``(seat, deck, card, setup)`` with every copy of the card in that seat's deck replaced
    by a blank card (rule ``blanks``), in deck order, seat 0 first.

    A card named that is in neither deck is a one-line error.
    """
    content = setup.rules.content()
    wanted = list(cards)
    known = set(content.deck_card_names(0)) | set(content.deck_card_names(1))
    for name in wanted:
        if name not in known:
            raise BalanceError(
                f"card {name!r} is in neither deck; cards: {', '.join(sorted(known))}"
            )
    out = []
    for seat in range(2):
        for name in content.deck_card_names(seat):
            if wanted and name not in wanted:
                continue
            rules = dataclasses.replace(setup.rules, blanks=(*setup.rules.blanks, f"{seat}:{name}"))
            blanked = dataclasses.replace(setup, rules=rules)
            out.append((seat, content.deck_names[seat], name, blanked))
    return out


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
