"""``balance deck``: Battle of Thieves decks checked and listed."""

from __future__ import annotations

import sys

import click


@click.group(
    epilog="""
\b
Examples:
  balance deck list
  balance deck check my-cards.toml my-deck.toml
  balance deck check cannon-battery
"""
)
def deck() -> None:
    """Battle of Thieves' card and deck files (TOML): check them, list the examples.

    The format: docs/battle-of-thieves-cards.md.
    """


@deck.command(
    "check",
    epilog="""
\b
Examples:
  balance deck check my-deck.toml
  balance deck check cards.toml crew.toml decks/*.toml
  balance deck check island-raiders
  balance deck check my-deck.toml --rule reserve_size=26
\b
A good file prints a line per deck; a bad one prints every mistake, one FILE:LINE: reason
line each, in file order. A deck is held to the rules as 'balance simulate' holds it:
a starting reserve of exactly reserve_size provisions (30), at most legendary_copies
copies of a legendary card (1); --rule sets them as it does for simulate. The exit code
is 1 when any file is bad, 2 when a FILE does not exist (nor names an example deck) or a
--rule is wrong.
""",
)
@click.argument("files", nargs=-1, required=True)
@click.option(
    "-r",
    "--rule",
    "rule_texts",
    multiple=True,
    help="A rule the decks are held to, as for simulate: NAME=VALUE (reserve_size, "
    "legendary_copies).",
)
def deck_check(files: tuple[str, ...], rule_texts: tuple[str, ...]) -> None:
    """Check card and deck FILES (or example deck names): every mistake with its line."""
    from balance.cli.options import rule_pair
    from balance.core.errors import BalanceError
    from balance.games.battle_of_thieves import cards as card_files
    from balance.games.battle_of_thieves.rules import DECK_RULES, BattleRules, deck_rule_mistake

    rules = BattleRules()
    for text in rule_texts:
        name, value = rule_pair(text)
        if name not in DECK_RULES:
            raise BalanceError(deck_rule_mistake(name))
        rules = rules.with_text(name, value)
    results = card_files.check_each(files, rules.legendary_copies, rules.reserve_size)
    for ok, line in results:
        click.echo(line, err=not ok)
    sys.exit(card_files.check_exit_code(files, results))


@deck.command("list", epilog="\b\nExample:\n  balance deck list")
def deck_list() -> None:
    """List the example decks and their files (examples, not the published game's cards)."""
    from balance.games.battle_of_thieves import cards as card_files

    for name, path, text in card_files.example_list():
        click.echo(f"{name:<16} {path}")
        if text:
            click.echo(f"    {text}")
    click.echo(
        "\nExample content, not the published game's cards. Copy a file, edit it, "
        "then: balance deck check FILE"
    )
