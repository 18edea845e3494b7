"""``balance cards``: each card's value by restricted play."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.cli.options import (
    check_max_games,
    min_effect_option,
    on_cluster_option,
    precision_options,
    rule_pairs,
    say_compiling,
    table_options,
)


@click.command(
    epilog="""
\b
Examples:
  balance cards walk-the-plank --players 4 --games 100000
  balance cards walk-the-plank -p 5 --strategy greedy --variant kraken --card charge \\
      --card run --out reports/card-value
  balance cards lifeboats -p 4 --strategy hatkeeper --json
  balance cards walk-the-plank -p 4 --card charge --card run --precision 0.01
"""
)
@table_options
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("-c", "--card", "cards", multiple=True, help="A card to value (default: every card).")
@click.option(
    "--out", type=click.Path(path_type=Path), default=None, help="Write the chart and table here."
)
@click.option("--json", "as_json", is_flag=True, help="Print the card values as JSON only.")
@precision_options
@min_effect_option
@on_cluster_option
def cards(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    threads: int | None,
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    cards: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    precision: float | None,
    max_games: int | None,
    min_effect: float,
) -> None:
    """Value each card of GAME by restricted play: a seat that may never use it."""
    from balance.analyses.restricted import card_value_json, restricted_play, write_restricted_play
    from balance.api import check_card_values, make_setup
    from balance.run.results import json_safe, output_dir

    setup = make_setup(
        game,
        players,
        seed,
        strategy_texts or ("random",),
        variants,
        rule_pairs(rule_texts, decks),
        rotate_seats,
    )
    check_card_values(game)
    check_max_games(precision, max_games)
    if out is not None:
        output_dir(out)  # before any game is played
    value = restricted_play(
        setup,
        n_games,
        actions=cards,
        threads=threads,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
        min_effect=min_effect,
    )
    if as_json:
        click.echo(json.dumps(json_safe(card_value_json(value))))
    else:
        click.echo(value.text())
    if out is not None:
        written = write_restricted_play(value, out)
        if not as_json:
            click.echo(f"\nsaved {', '.join(path.name for path in written)} in {out}")
    if value.partial:
        click.echo(f"interrupted: valued the cards on {value.games:,} games", err=True)
        sys.exit(130)
