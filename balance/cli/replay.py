"""``balance replay RUN INDEX``: one saved game narrated move by move."""

from __future__ import annotations

from pathlib import Path

import click

from balance.core.errors import BalanceError
from balance.games import get_game


@click.command(
    epilog="\b\nExample:\n  balance replay runs/kraken 17",
    # A negative GAME_INDEX is an argument (refused below), not an unknown option.
    context_settings={"ignore_unknown_options": True},
)
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("game_index", type=int)
def replay(directory: Path, game_index: int) -> None:
    """Narrate game GAME_INDEX of the run saved in DIRECTORY, move by move."""
    from balance.run.results import load_run

    saved = load_run(directory)
    if not 0 <= game_index < saved.games:
        raise BalanceError(
            f"game index {game_index} is outside the run's games 0..{saved.games - 1}"
        )
    click.echo(get_game(saved.setup.game).replay(saved.setup, game_index))
