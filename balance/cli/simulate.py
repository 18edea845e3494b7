"""``balance simulate``: a game played many times, its balance printed with intervals."""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import click

from balance.cli.options import (
    check_max_games,
    on_cluster_option,
    precision_options,
    rule_pairs,
    say_compiling,
    table_options,
)
from balance.core.errors import BalanceError


@click.command(
    epilog="""
\b
Examples:
  balance simulate walk-the-plank --players 5 --games 1000000
  balance simulate walk-the-plank -p 4 -g 200000 --variant kraken --rule rest=charge,run
  balance simulate walk-the-plank -p 3 --strategy aggressor --strategy random \\
      --strategy greedy --rotate-seats --json
  balance simulate walk-the-plank -p 4 --strategy my_strategies.py:cautious --out runs/cautious
  balance simulate walk-the-plank -p 4 --precision 0.005
"""
)
@table_options
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Save the run here.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON only.")
@click.option(
    "--restricted-play",
    "restricted_games",
    type=int,
    default=None,
    metavar="GAMES",
    help="Add each card's value by restricted play (as 'balance cards' gives it), GAMES "
    "paired games a card.",
)
@precision_options
@click.option(
    "--debug",
    is_flag=True,
    help="Play on the reference engine with your strategy as plain Python, so print() and "
    "breakpoints in it work; the same games as without, a few hundred a second.",
)
@click.option(
    "--traceback",
    "show_traceback",
    is_flag=True,
    help="With --debug: an exception in your strategy shows Python's traceback, not one line.",
)
@on_cluster_option
def simulate(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
    restricted_games: int | None,
    precision: float | None,
    max_games: int | None,
    debug: bool,
    show_traceback: bool,
) -> None:
    """Play many games of GAME and summarise them (or, with --precision, play until every
    seat's win rate and the balance index are known that closely)."""
    from balance import api
    from balance.run.summary import format_summary

    if restricted_games is not None:
        api.check_card_values(game)
    check_max_games(precision, max_games)

    try:
        run = api.simulate(
            game,
            players=players,
            games=n_games,
            seed=seed,
            strategies=strategy_texts or ("random",),
            variants=variants,
            rules=rule_pairs(rule_texts, decks),
            rotate_seats=rotate_seats,
            threads=threads,
            out=out,
            progress=sys.stderr.isatty(),
            keep_records=False,
            on_compile=say_compiling,
            precision=precision,
            max_games=max_games,
            debug=debug,
        )
    except BalanceError as error:
        if show_traceback and error.__cause__ is not None:  # the strategy's own, as Python
            traceback.print_exception(error.__cause__)
        raise
    summary = run.summary()
    if restricted_games is not None and not run.result.partial:
        api.add_card_values(
            summary,
            run.setup,
            restricted_games,
            threads=threads,
            progress=sys.stderr.isatty(),
            on_compile=say_compiling,
        )
    if as_json:
        from balance.run.results import json_safe

        click.echo(json.dumps(json_safe(summary)))
    else:
        click.echo(format_summary(summary))
    if run.result.partial:
        where = f"; saved in {out}" if out else ""
        click.echo(f"interrupted: kept the {run.games_played:,} finished games{where}", err=True)
        sys.exit(130)
    elif out is not None and not as_json:
        click.echo(f"saved in {out}")
