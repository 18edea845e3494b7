"""The ``balance`` command: flags in, one library call, results out. No logic of its own.

One module a command (or a family of commands); their shared options in
:mod:`balance.cli.options`. A command module imports what plays or draws only when it
runs, so that ``balance --help`` and the listings start at once.
"""

from __future__ import annotations

import os
import sys

import click

from balance.cli import (
    cards,
    check,
    compare,
    deck,
    game,
    listing,
    replay,
    report,
    simulate,
    skill,
    strategy,
    sweep,
    tournament,
    tune,
)
from balance.core.errors import BalanceError, Interrupted
from balance.core.strategy import BOUNDS_CHECK_ENV

EXAMPLE = """
\b
Example:
  balance simulate walk-the-plank --players 4 --games 100000 --variant kraken
"""


@click.group(epilog=EXAMPLE, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="balance", prog_name="balance")
@click.option(
    "--no-bounds-check",
    is_flag=True,
    help="Compile your strategy files without checking their indices (see "
    "docs/strategies.md for what it saves): an index out of range then reads or writes "
    "past the array's end, silently.",
)
def cli(no_bounds_check: bool) -> None:
    """Monte Carlo balance analysis of board and card games.

    Plays many games with compiled rules engines and pluggable strategies, and reports
    win rates, game lengths and card usefulness with 95% intervals.
    """
    if no_bounds_check:
        os.environ[BOUNDS_CHECK_ENV] = "0"


for command in (
    listing.games,
    listing.rules,
    listing.strategies,
    simulate.simulate,
    replay.replay,
    report.report,
    cards.cards,
    compare.compare,
    tournament.tournament,
    tournament.matchup,
    check.check,
    deck.deck,
    sweep.sweep,
    tune.tune,
    skill.skill,
    strategy.strategy_group,
    game.game_group,
):
    cli.add_command(command)


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2."""
    try:
        cli.main(standalone_mode=False)
    except Interrupted as error:
        click.echo(str(error), err=True)
        sys.exit(130)
    except BalanceError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else error.format_message())
    except click.ClickException as error:
        click.echo(f"error: {error.format_message()}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
