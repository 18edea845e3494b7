"""``balance tune``: flags in, one call to :func:`balance.analyses.tune.tune`, results out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.analyses.tune_propose import SEARCHES
from balance.cli.options import rule_pairs, say_compiling, scheduler_option

EPILOG = """
\b
Examples:
  balance tune walk-the-plank --players 5 --axis plank_max=3..6 \\
      --axis pirates_per_player=2..4 \\
      --target "balance_index>=0.95" --target "length_mean=6..10" --out tunes/plank
  balance tune battle-of-thieves --players 2 --axis cannon_hits_on=2..6 \\
      --axis sink_water=60:200 --target "balance_index>=0.9" --budget 2000000
\b
An axis is NAME=V1,V2,... (NAME=A;B when a value holds commas), NAME=LO..HI (every
whole number, raced), NAME=LO:HI (whole numbers the optimiser samples), or
variant=base,kraken. A target is a band for a seat win rate, a winner count, the balance
index, the share of games finished or the mean length. docs/tune.md explains the race.
"""


@click.command(epilog=EPILOG)
@click.argument("game")
@click.option("-p", "--players", default=None, help="Player counts: 4, 3,4,5 or 3..5.")
@click.option("-a", "--axis", "axis_texts", multiple=True, help="A rule or variant to tune.")
@click.option(
    "--target",
    "target_texts",
    multiple=True,
    help='A band a rule set must meet: "balance_index>=0.95", "length_mean=6..10".',
)
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option(
    "--strategy",
    "strategy_texts",
    multiple=True,
    help="Once for every seat, or once per seat (as simulate). Default: random.",
)
@click.option("--rotate-seats", is_flag=True, help="Seat the strategies in every order.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="A rule fixed everywhere.")
@click.option("--deck", "decks", multiple=True, help="Battle of Thieves: one deck a seat.")
@click.option(
    "--search",
    type=click.Choice(SEARCHES),
    default="auto",
    show_default=True,
    help="Race every rule set (grid) or the optimiser's proposals (optuna); auto: the "
    "optimiser for a sampled range, more than 512 rule sets or a --budget.",
)
@click.option(
    "--budget",
    type=int,
    default=None,
    help="Games the optimiser's search may spend in all (default 5,000,000).",
)
@click.option(
    "--max-games",
    type=int,
    default=None,
    help="Games a rule set plays at most before it is called undecided (default 262,144).",
)
@click.option(
    "--block", type=int, default=None, help="Games between two looks at a rule set (1,024)."
)
@click.option("-t", "--threads", type=int, default=None, help="Local threads (default: all).")
@scheduler_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the JSON, tables, charts and PDF here, and each decided rule set.",
)
@click.option("--resume", is_flag=True, help="Race only the rule sets --out has not decided.")
@click.option("--json", "as_json", is_flag=True, help="Print the tune as JSON only.")
def tune(
    game: str,
    players: str | None,
    axis_texts: tuple[str, ...],
    target_texts: tuple[str, ...],
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    rule_texts: tuple[str, ...],
    decks: tuple[str, ...],
    search: str,
    budget: int | None,
    max_games: int | None,
    block: int | None,
    threads: int | None,
    scheduler: str | None,
    out: Path | None,
    resume: bool,
    as_json: bool,
) -> None:
    """Find GAME's rule sets that meet the design targets, racing them."""
    from balance.analyses.tune import tune as run_tune

    result = run_tune(
        game,
        players=players,
        axes=axis_texts,
        targets=target_texts,
        strategies=strategy_texts or ("random",),
        rotate_seats=rotate_seats,
        rules=rule_pairs(rule_texts, decks),
        seed=seed,
        search=search,
        budget=budget,
        max_games=max_games,
        block=block,
        threads=threads,
        scheduler=scheduler,
        out=out,
        resume=resume,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(result.text())
        if out is not None:
            click.echo(
                "\nsaved tune.json, tune.parquet, tune.csv, the charts, tune.pdf and index.html "
                f"in {out}"
            )
    if result.partial:
        where = f"; --resume --out {out} races the rest" if out else ""
        click.echo(
            f"interrupted: kept the {len(result.points):,} decided rule sets{where}", err=True
        )
        sys.exit(130)
