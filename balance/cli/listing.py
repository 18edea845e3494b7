"""``balance games``, ``balance rules GAME``, ``balance strategies GAME``: what there is."""

from __future__ import annotations

import click

from balance.games import get_game


@click.command(epilog="\b\nExample:\n  balance games")
def games() -> None:
    """List the games, their player counts, variants and where each comes from."""
    from balance.games import origin, problems, registry

    for game in registry().values():
        counts = (
            f"{game.min_players}"
            if game.min_players == game.max_players
            else f"{game.min_players}-{game.max_players}"
        )
        click.echo(f"{game.id}  ({game.title}, {counts} players; {origin(game.id)})")
        for name, meaning in game.variants.items():
            click.echo(f"  variant {name:<10} {meaning}")
    for problem in problems():
        click.echo(f"warning: {problem}", err=True)


@click.command(epilog="\b\nExample:\n  balance rules walk-the-plank")
@click.argument("game")
def rules(game: str) -> None:
    """List every rule parameter of GAME: default, allowed values, meaning."""

    rows = get_game(game).describe_rules()
    for row in rows:
        click.echo(f"{row['name']}  (default {row['default']}; allowed {row['allowed']})")
        click.echo(f"    {row['meaning']}")
    example = rows[0]
    click.echo(
        f"\nSet one with --rule NAME=VALUE, e.g. --rule {example['name']}={example['default']}"
    )


@click.command(epilog="\b\nExample:\n  balance strategies walk-the-plank")
@click.argument("game")
def strategies(game: str) -> None:
    """List the strategies that ship for GAME, one sentence each, and their parameters."""
    from balance.core.catalog import listed_strategies
    from balance.core.strategy import param_lines

    for strategy in listed_strategies(get_game(game)):
        click.echo(f"{strategy.name}")
        click.echo(f"    {strategy.description}")
        if strategy.params:
            click.echo("    parameters (default, range, meaning):")
            for line in param_lines(strategy):
                click.echo(f"      {line}")
    click.echo("\nSet parameters with --strategy NAME:PARAM=VALUE,....")
    click.echo("Your own: --strategy path/to/file.py:name (see docs/strategies.md).")
