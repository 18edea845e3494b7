"""What several commands of the command line share: reading ``--rule`` and ``--deck``, and
saying on stderr when a game compiles. The commands' own modules (``cli``, ``sweep_cli``,
``skill_cli``) import it; it imports none of them."""

from __future__ import annotations

import click

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
