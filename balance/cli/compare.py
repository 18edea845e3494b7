"""``balance compare``: rule variants on the same games, with paired differences."""

from __future__ import annotations

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
  balance compare walk-the-plank --players 4 --games 200000 \\
      --variant base --variant kraken --variant dolphin --out reports/kraken-dolphin
  balance compare walk-the-plank -p 5 -g 100000 --variant base --variant rest=charge,run \\
      --variant ghost+kraken --strategy greedy
  balance compare walk-the-plank -p 4 --variant base --variant kraken --precision 0.01
\b
A variant is "base", a variant's name, a rule NAME=VALUE, or several joined by "+".
"""
)
@table_options
@click.option(
    "-v",
    "--variant",
    "variant_texts",
    multiple=True,
    required=True,
    help="A variant to compare (at least two; the first is the reference).",
)
@click.option("-r", "--rule", "rule_texts", multiple=True, help="A rule for every variant.")
@click.option(
    "--out", type=click.Path(path_type=Path), default=None, help="Write runs, charts, PDF here."
)
@precision_options
@min_effect_option
@on_cluster_option
def compare(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    variant_texts: tuple[str, ...],
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    precision: float | None,
    max_games: int | None,
    min_effect: float,
) -> None:
    """Play variants of GAME on the same games and test their paired differences."""
    from balance.analyses.compare import compare as run_comparison

    check_max_games(precision, max_games)
    comparison = run_comparison(
        game,
        players=players,
        games=n_games,
        variants=variant_texts,
        seed=seed,
        strategies=strategy_texts or ("random",),
        rules=rule_pairs(rule_texts, decks),
        rotate_seats=rotate_seats,
        threads=threads,
        out=out,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
        min_effect=min_effect,
    )
    click.echo(comparison.text())
    if out is not None:
        click.echo(
            f"\nsaved the runs, charts, comparison.csv, comparison.pdf and index.html in {out}"
        )
    if comparison.partial:
        click.echo(
            f"interrupted: compared the {comparison.games:,} games every variant played", err=True
        )
        sys.exit(130)
