"""What several commands of the command line share: the options that set up a table of
games, ``--precision``, ``--min-effect`` and ``--scheduler``, reading ``--rule`` and
``--deck``, and saying on stderr when a game compiles. The commands' own modules import
it; it imports none of them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click
from click.core import ParameterSource

from balance.core.errors import BalanceError


def rule_pair(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as ``(name, value)``; a one-line error without ``=`` or a name."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise BalanceError(f"--rule needs NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def rule_pairs(rule_texts: tuple[str, ...], decks: tuple[str, ...]) -> list[tuple[str, str]]:
    """``--rule`` values, with ``--deck`` as the rule ``decks``."""
    pairs = [rule_pair(text) for text in rule_texts]
    if decks:
        pairs.append(("decks", ",".join(decks)))
    return pairs


def say_compiling(message: str) -> None:
    """Say on stderr that a game's loop compiles (it takes a minute or more)."""
    click.echo(message, err=True)


def table_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options that set up a table of games: game, players, games, seed, strategies."""
    options = [
        click.argument("game"),
        click.option(
            "-p",
            "--players",
            type=int,
            default=None,
            help="Players (default: 4, or the game's only player count).",
        ),
        click.option(
            "-g",
            "--games",
            "n_games",
            type=int,
            default=100_000,
            show_default=True,
            help="Games to play (not with --precision, which plays until precise enough).",
        ),
        click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed."),
        click.option(
            "--strategy",
            "strategy_texts",
            multiple=True,
            help="Once for every seat, or once per seat in seat order: NAME, NAME:k=v,... "
            "or path/to/file.py:NAME. Default: random.",
        ),
        click.option(
            "--rotate-seats",
            is_flag=True,
            help="Seat the strategies in every order round the table, each order equally "
            "often (all n! orders, game i playing order i mod n!).",
        ),
        click.option(
            "--deck",
            "decks",
            multiple=True,
            help="Battle of Thieves: one deck a seat, seat 0's first (an example deck's name "
            "or a TOML file).",
        ),
        click.option(
            "-t", "--threads", type=int, default=None, help="Threads (default: all cores)."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def precision_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--precision H`` and ``--max-games N``: play until precise enough."""
    command = click.option(
        "--max-games",
        type=int,
        default=None,
        help="With --precision: stop here even if not yet precise enough (default 10,000,000).",
    )(command)
    return click.option(
        "--precision",
        type=float,
        default=None,
        metavar="H",
        help="Play blocks of games until every headline figure's 95% anytime-valid "
        "interval is at most H either side (0.005: half a point); replaces --games. "
        "See docs/precision.md.",
    )(command)


def min_effect_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--min-effect PP``: the smallest change the findings count as mattering."""
    return click.option(
        "--min-effect",
        type=float,
        default=1.0,
        show_default=True,
        metavar="PP",
        help="The smallest change that matters: PP percentage points of a rate, PP/100 of "
        "the balance index, PP percent of the reference's value of a mean such as the game "
        "length. The findings say whether each difference is bigger, smaller, or not "
        "settled.",
    )(command)


def check_max_games(precision: float | None, max_games: int | None) -> None:
    """``--max-games`` only bounds a run that plays until ``--precision``, and
    ``--games`` only sets the games of one that does not."""
    if max_games is not None and precision is None:
        raise BalanceError("--max-games goes with --precision; without it, use --games")
    source = click.get_current_context().get_parameter_source("n_games")
    if precision is not None and source not in (None, ParameterSource.DEFAULT):
        raise BalanceError(
            "--games and --precision exclude each other: --precision plays until precise "
            "enough; bound it with --max-games"
        )


def scheduler_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--scheduler ADDRESS``: the Dask cluster to play on."""
    return click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT, or tls://HOST:PORT with the certificates in Dask's "
        "configuration); default: $DASK_SCHEDULER_ADDRESS. See docs/cluster.md.",
    )(command)


def on_cluster_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--scheduler``, every run of the command played on that cluster
    (:func:`balance.run.cluster.on_cluster`)."""

    @functools.wraps(command)
    def run(*args: Any, scheduler: str | None, **kwargs: Any) -> Any:
        from balance.run.cluster import on_cluster

        with on_cluster(scheduler):
            return command(*args, **kwargs)

    return scheduler_option(run)
