"""``balance tournament`` and ``balance matchup``: strategies and decks against each other."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.cli.options import (
    on_cluster_option,
    rule_pair,
    say_compiling,
)
from balance.core.errors import BalanceError
from balance.games import get_game


@click.command(
    epilog="""
\b
Examples:
  balance tournament la-planche -p 2 --strategy random --strategy greedy --games 4000
  balance tournament walk-the-plank -p 4 --strategy random --strategy cautious \\
      --strategy my.py:bold --field random --out reports/tournament
  balance tournament battle-of-thieves --deck cannon-battery --deck boarding-party \\
      --deck island-raiders --json
"""
)
@click.argument("game")
@click.option(
    "-p",
    "--players",
    type=int,
    default=None,
    help="Players a table (default: 4, or the game's only player count).",
)
@click.option(
    "--strategy",
    "strategy_texts",
    multiple=True,
    help="A contestant (give two or more): NAME, NAME:k=v,... or FILE.py:NAME. "
    "With --deck: the strategy of both seats, or of each seat.",
)
@click.option("--deck", "decks", multiple=True, help="A Battle of Thieves deck as a contestant.")
@click.option(
    "--field",
    default=None,
    help="Three or more players: the strategy of the seats no contestant holds (default random).",
)
@click.option(
    "-g",
    "--games",
    "n_games",
    type=int,
    default=10_000,
    show_default=True,
    help="Games a pairing (two players: half in each seat order).",
)
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("-t", "--threads", type=int, default=None, help="Threads (default: all cores).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write Parquet, JSON, PNG and PDF here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tournament as JSON only.")
@on_cluster_option
def tournament(
    game: str,
    players: int | None,
    strategy_texts: tuple[str, ...],
    decks: tuple[str, ...],
    field: str | None,
    n_games: int,
    seed: int,
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Every contestant against every other, seats rotated, on common random numbers.

    The win-rate matrix with 95% intervals, Bradley-Terry ratings with intervals, and with
    three or more players each contestant alone against the field. See docs/tournament.md.
    """
    _play_tournament(
        game,
        players,
        strategy_texts,
        decks,
        field,
        n_games,
        seed,
        variants,
        rule_texts,
        threads,
        out,
        as_json,
    )


def _play_tournament(
    game: str,
    players: int | None,
    strategy_texts: tuple[str, ...],
    decks: tuple[str, ...],
    field: str | None,
    n_games: int,
    seed: int,
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    from balance.analyses import tournament_report
    from balance.analyses.tournament import tournament as play
    from balance.run.results import json_safe, output_dir

    if out is not None:
        output_dir(out)  # before any game is played
    result = play(
        game,
        players,
        strategies=strategy_texts,
        decks=decks,
        field=field,
        games=n_games,
        seed=seed,
        variants=variants,
        rules=[rule_pair(text) for text in rule_texts],
        threads=threads,
        progress=sys.stderr.isatty() and not as_json,
        on_compile=say_compiling,
    )
    if as_json:
        click.echo(json.dumps(json_safe(result.to_json()), indent=2))
    else:
        click.echo(tournament_report.text(result))
    if out is not None:
        tournament_report.write(result, out)
        if not as_json:
            click.echo(
                f"\nsaved the games, matrix, ratings and pair gaps (Parquet; pair gaps also "
                f"CSV), JSON, charts, tournament.pdf and index.html in {out}"
            )
    if result.partial:
        click.echo(f"interrupted: {result.games:,} games a pairing", err=True)
        sys.exit(130)


@click.command(
    epilog="""
\b
Examples:
  balance matchup battle-of-thieves --deck cannon-battery --deck boarding-party \\
      --deck island-raiders --games 20000 --out reports/matchup
  balance matchup battle-of-thieves --deck my-deck.toml --deck cannon-battery --strategy cannoneer
"""
)
@click.argument("game")
@click.option("--deck", "decks", multiple=True, required=True, help="A deck (at least two).")
@click.option(
    "-g",
    "--games",
    "n_games",
    type=int,
    default=20_000,
    show_default=True,
    help="Games in each seat order of every pair.",
)
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option(
    "--strategy",
    "strategy_texts",
    multiple=True,
    help="Once for both seats, or once per seat in seat order. Default: random.",
)
@click.option("-r", "--rule", "rule_texts", multiple=True, help="A rule for every pair.")
@click.option("-t", "--threads", type=int, default=None, help="Threads (default: all cores).")
@click.option(
    "--out", type=click.Path(path_type=Path), default=None, help="Write the files and charts here."
)
@click.option("--json", "as_json", is_flag=True, help="Print the tournament as JSON only.")
@on_cluster_option
def matchup(
    game: str,
    decks: tuple[str, ...],
    n_games: int,
    seed: int,
    strategy_texts: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Decks against decks: 'balance tournament GAME --deck ...' (GAMES a seat order)."""
    if not get_game(game).capabilities.decks:
        raise BalanceError(f"matchups are between Battle of Thieves decks, not {game} tables")
    _play_tournament(
        game,
        2,
        strategy_texts,
        decks,
        None,
        2 * n_games if n_games > 0 else n_games,
        seed,
        (),
        rule_texts,
        threads,
        out,
        as_json,
    )
