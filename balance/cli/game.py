"""``balance game``: your own games. ``new`` writes a game's package to start from;
``check`` puts an installed game through the conformance suite."""

from __future__ import annotations

import sys
from pathlib import Path

import click

#: The seed ``balance game check`` plays from unless told (that of the contract suite).
DEFAULT_SEED = 20261128


@click.group(
    "game",
    epilog="""
\b
Examples:
  balance game new my-game my-game
  balance game check la-planche --games 50
""",
)
def game_group() -> None:
    """Your own games: write one, check one.

    How to write one, step by step: docs/new-game.md.
    """


@game_group.command(
    "new",
    epilog="""
\b
Example:
  balance game new my-game my-game
  pip install -e my-game
  balance simulate my-game --players 3 --games 20000
""",
)
@click.argument("name")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def game_new(name: str, directory: Path) -> None:
    """Write the package of a new game NAME into DIRECTORY: a small complete game (its
    rules, records, reference and compiled engines, two strategies, a rules page and
    tests) that installs and plays as it is. Its README says what to change first."""
    from balance.authoring.new_game import new_game

    written = new_game(name, directory)
    click.echo(f"wrote {len(written)} files in {directory}; next:")
    click.echo(f"  pip install -e {directory}")
    click.echo(f"  balance simulate {name} --players 3 --games 20000")
    click.echo(f"  balance game check {name}")
    click.echo(f"  cd {directory} && pytest")


@game_group.command(
    "check",
    epilog="""
\b
Examples:
  balance game check la-planche
  balance game check my-game --games 1000 --seed 7
\b
Prints a line for each failure ("FAIL <check>: <what>"), then how many checks passed;
exits 0 if all passed, 1 if any failed, 2 for an unknown game.
""",
)
@click.argument("name")
@click.option(
    "-g",
    "--games",
    "n_games",
    type=click.IntRange(min=2),
    default=200,
    show_default=True,
    help="Games each case plays (each declared rule set at each player count on both "
    "engines, each run).",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True, help="Seed."
)
@click.option("-v", "--verbose", is_flag=True, help="Also print every check that passed.")
def game_check(name: str, n_games: int, seed: int, verbose: bool) -> None:
    """Check that the game NAME keeps the contract of every game.

    Its declaration and capabilities, its shipped strategies, its record tables and
    summary, both engines playing the same games, the same records at any number of
    threads, replay, and bad rule values refused in one line (docs/command-line.md).
    """
    from balance.authoring.conformance import check_game, report_lines
    from balance.games import get_game

    game = get_game(name)
    findings = check_game(
        game, games=n_games, seed=seed, progress=lambda line: click.echo(line, err=True)
    )
    for line in report_lines(game.id, findings, every=verbose):
        click.echo(line)
    if not all(finding.ok for finding in findings):
        sys.exit(1)
