"""``balance strategy``: start a strategy file from a template, and check one."""

from __future__ import annotations

import click


@click.group(
    "strategy",
    epilog="""
\b
Examples:
  balance strategy new walk-the-plank > mine.py
  balance strategy check mine.py:mine --game walk-the-plank
  balance simulate walk-the-plank -p 3 --strategy mine.py:mine --strategy random \\
      --strategy random --debug
""",
)
def strategy_group() -> None:
    """Your own strategy: a template to start from, and a check that it plays.

    What every decision receives, game by game: docs/strategies.md.
    """


@strategy_group.command("new")
@click.argument("game")
def strategy_new(game: str) -> None:
    """Print a strategy file for GAME (named 'mine') that runs as it is."""
    from balance.authoring.strategy_tools import template

    click.echo(template(game), nl=False)


@strategy_group.command(
    "check",
    epilog="""
\b
Example:
  balance strategy check mine.py:mine --game la-planche
\b
Prints "ok: ..." and exits 0, or says what is wrong (the decision, file and line)
and exits 2.
""",
)
@click.argument("strategy")
@click.option("--game", "game", required=True, help="The game it plays (balance games lists them).")
@click.option(
    "-g", "--games", "n_games", type=int, default=100, show_default=True, help="Games to play."
)
def strategy_check(strategy: str, game: str, n_games: int) -> None:
    """Load, type-check and play STRATEGY (FILE.py:NAME) against random on both engines."""
    from balance.authoring.strategy_tools import check

    result = check(strategy, game, n_games, on_compile=lambda m: click.echo(m, err=True))
    for line in result.lines():
        click.echo(line)
