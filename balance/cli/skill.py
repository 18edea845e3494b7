"""``balance skill``: flags in, one call to :func:`balance.analyses.skill.skill`, results out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.cli.options import on_cluster_option, rule_pairs, say_compiling

#: The default of --budgets: :data:`balance.analyses.skill.DEFAULT_BUDGETS`, written out so that
#: ``balance --help`` does not load the statistics.
DEFAULT_BUDGET_TEXT = "2,4"

EPILOG = """
\b
Examples:
  balance skill walk-the-plank -p 4 --games 2000
  balance skill la-planche -p 2 --budgets 4,6,8,10 --out reports/skill
  balance skill lifeboats -p 4 --rung random --rung steward --rung my.py:clever --json
  balance skill battle-of-thieves --deck cannon-battery --deck boarding-party
\b
The default ladder: random, the game's heuristics ordered by their win rate against
random, then ismcts at 2^k iterations for each exponent k of --budgets (if the game ships
it). docs/skill.md explains every figure.
"""


@click.command(epilog=EPILOG)
@click.argument("game")
@click.option(
    "-p",
    "--players",
    type=int,
    default=None,
    help="Players a table (default: 4, or the game's only player count).",
)
@click.option(
    "--rung",
    "rung_texts",
    multiple=True,
    help="A rung of an explicit ladder, weakest first (give two or more): NAME, "
    "NAME:k=v,... or FILE.py:NAME. Replaces the default ladder.",
)
@click.option(
    "--budgets",
    "budget_text",
    default=DEFAULT_BUDGET_TEXT,
    show_default=True,
    help="Exponents k of the search rungs: ismcts at 2^k iterations a decision.",
)
@click.option(
    "-g",
    "--games",
    "n_games",
    type=int,
    default=2_000,
    show_default=True,
    help="Games a match (two players: half in each seat order), and of each rung's table.",
)
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("--deck", "decks", multiple=True, help="Battle of Thieves: the decks, seat by seat.")
@click.option("-t", "--threads", type=int, default=None, help="Threads (default: all cores).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write Parquet, CSV, JSON, PNG and PDF here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON only.")
@on_cluster_option
def skill(
    game: str,
    players: int | None,
    rung_texts: tuple[str, ...],
    budget_text: str,
    n_games: int,
    seed: int,
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    decks: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Does playing well matter? A ladder of players from random to search, each rung
    against the one below and against random, seats rotated.

    Reports each rung's win rate with 95% intervals, the skill depth, games to tell, and
    the balance figures (seat win rates, balance index, length) by rung. See docs/skill.md.
    """
    from balance.analyses import skill_report
    from balance.analyses.skill import parse_budgets
    from balance.analyses.skill import skill as climb
    from balance.run.results import json_safe, output_dir

    budgets = parse_budgets(budget_text)
    if out is not None:
        output_dir(out)  # before any game is played
    result = climb(
        game,
        players,
        rungs=rung_texts,
        budgets=budgets,
        games=n_games,
        seed=seed,
        variants=variants,
        rules=rule_pairs(rule_texts, decks),
        threads=threads,
        progress=sys.stderr.isatty() and not as_json,
        on_compile=say_compiling,
    )
    if as_json:
        click.echo(json.dumps(json_safe(result.to_json()), indent=2))
    else:
        click.echo(skill_report.text(result))
    if out is not None:
        skill_report.write(result, out)
        if not as_json:
            click.echo(
                f"\nsaved the rungs, matches, games and balance (Parquet, CSV), JSON, "
                f"charts, skill.pdf and index.html in {out}"
            )
