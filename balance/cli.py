"""The ``balance`` command: flags in, one library call, results out. No logic of its own."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from balance.caveats import warning_lines
from balance.cli_shared import rule_pair, rule_pairs, say_compiling
from balance.cli_strategy import strategy_group
from balance.core.errors import BalanceError, Interrupted
from balance.core.formatting import index_text, interval, percent, rules_text
from balance.games import get_game

EXAMPLE = """
\b
Example:
  balance simulate walk-the-plank --players 4 --games 100000 --variant kraken
"""


@click.group(epilog=EXAMPLE, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="balance", prog_name="balance")
def cli() -> None:
    """Monte Carlo balance analysis of board and card games.

    Plays many games with compiled rules engines and pluggable strategies, and reports
    win rates, game lengths and card usefulness with 95% intervals.
    """


@cli.command(epilog="\b\nExample:\n  balance games")
def games() -> None:
    """List the games, their player counts and variants."""
    from balance.games import registry

    for game in registry().values():
        counts = (
            f"{game.min_players}"
            if game.min_players == game.max_players
            else f"{game.min_players}-{game.max_players}"
        )
        click.echo(f"{game.id}  ({game.title}, {counts} players)")
        for name, meaning in game.variants.items():
            click.echo(f"  variant {name:<10} {meaning}")


@cli.command(epilog="\b\nExample:\n  balance rules walk-the-plank")
@click.argument("game")
def rules(game: str) -> None:
    """List every rule parameter of GAME: default, allowed values, meaning."""
    from balance.games import get_game

    rows = get_game(game).describe_rules()
    for row in rows:
        click.echo(f"{row['name']}  (default {row['default']}; allowed {row['allowed']})")
        click.echo(f"    {row['meaning']}")
    example = rows[0]
    click.echo(
        f"\nSet one with --rule NAME=VALUE, e.g. --rule {example['name']}={example['default']}"
    )


@cli.command(epilog="\b\nExample:\n  balance strategies walk-the-plank")
@click.argument("game")
def strategies(game: str) -> None:
    """List the strategies that ship for GAME, one sentence each, and their parameters."""
    from balance.core.catalog import listed_strategies
    from balance.core.strategy import param_lines
    from balance.games import get_game

    for strategy in listed_strategies(get_game(game)):
        click.echo(f"{strategy.name}")
        click.echo(f"    {strategy.description}")
        if strategy.params:
            click.echo("    parameters (default, range, meaning):")
            for line in param_lines(strategy):
                click.echo(f"      {line}")
    click.echo("\nSet parameters with --strategy NAME:PARAM=VALUE,....")
    click.echo("Your own: --strategy path/to/file.py:name (see docs/strategies.md).")


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


@cli.command(
    epilog="""
\b
Examples:
  balance simulate walk-the-plank --players 5 --games 1000000
  balance simulate walk-the-plank -p 4 -g 200000 --variant kraken --rule rest=charge,run
  balance simulate walk-the-plank -p 3 --strategy aggressor --strategy random \\
      --strategy greedy --rotate-seats --json
  balance simulate walk-the-plank -p 4 --strategy my_strategies.py:cautious --out runs/cautious
  balance simulate walk-the-plank -p 4 --precision 0.005
"""
)
@table_options
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Save the run here.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON only.")
@click.option(
    "--restricted-play",
    "restricted_games",
    type=int,
    default=None,
    metavar="GAMES",
    help="Add each card's value by restricted play (as 'balance cards' gives it), GAMES "
    "paired games a card.",
)
@precision_options
@click.option(
    "--debug",
    is_flag=True,
    help="Play on the reference engine with your strategy as plain Python, so print() and "
    "breakpoints in it work; the same games as without, a few hundred a second.",
)
def simulate(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    as_json: bool,
    restricted_games: int | None,
    precision: float | None,
    max_games: int | None,
    debug: bool,
) -> None:
    """Play many games of GAME and summarise them (or, with --precision, play until every
    seat's win rate and the balance index are known that closely)."""
    from balance import api

    if restricted_games is not None:
        api.check_card_values(game)
    check_max_games(precision, max_games)

    run = api.simulate(
        game,
        players=players,
        games=n_games,
        seed=seed,
        strategies=strategy_texts or ("random",),
        variants=variants,
        rules=rule_pairs(rule_texts, decks),
        rotate_seats=rotate_seats,
        threads=threads,
        out=out,
        progress=sys.stderr.isatty(),
        keep_records=False,
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
        debug=debug,
    )
    summary = run.summary()
    if restricted_games is not None and not run.result.partial:
        api.add_card_values(
            summary,
            run.setup,
            restricted_games,
            threads=threads,
            progress=sys.stderr.isatty(),
            on_compile=say_compiling,
        )
    if as_json:
        from balance.results import json_safe

        click.echo(json.dumps(json_safe(summary)))
    else:
        click.echo(format_summary(summary))
    if run.result.partial:
        where = f"; saved in {out}" if out else ""
        click.echo(f"interrupted: kept the {run.games_played:,} finished games{where}", err=True)
        sys.exit(130)
    elif out is not None and not as_json:
        click.echo(f"saved in {out}")


@cli.command(
    epilog="\b\nExample:\n  balance replay runs/kraken 17",
    # A negative GAME_INDEX is an argument (refused below), not an unknown option.
    context_settings={"ignore_unknown_options": True},
)
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("game_index", type=int)
def replay(directory: Path, game_index: int) -> None:
    """Narrate game GAME_INDEX of the run saved in DIRECTORY, move by move."""
    from balance.games import get_game
    from balance.results import load_run

    saved = load_run(directory)
    if not 0 <= game_index < saved.games:
        raise BalanceError(
            f"game index {game_index} is outside the run's games 0..{saved.games - 1}"
        )
    click.echo(get_game(saved.setup.game).replay(saved.setup, game_index))


@cli.command(
    epilog="""
\b
Examples:
  balance report runs/kraken --out reports/kraken
  balance report runs/kraken --out reports/kraken --restricted-play 50000
"""
)
@click.argument("directory", type=click.Path(path_type=Path))
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Write the charts here."
)
@click.option(
    "--restricted-play",
    "restricted_games",
    type=int,
    default=None,
    metavar="GAMES",
    help="Add card value by restricted play, playing GAMES games per card (takes a while).",
)
@click.option("-t", "--threads", type=int, default=None, help="Threads (default: all cores).")
def report(directory: Path, out: Path, restricted_games: int | None, threads: int | None) -> None:
    """Chart the run saved in DIRECTORY: one PNG per chart and report.pdf."""
    from balance.report import write_report

    written = write_report(
        directory,
        out,
        restricted_games=restricted_games,
        threads=threads,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
    )
    click.echo(f"wrote {len(written) - 1} pages as PNG and {written[-1]}")


@cli.command(
    epilog="""
\b
Examples:
  balance cards walk-the-plank --players 4 --games 100000
  balance cards walk-the-plank -p 5 --strategy greedy --variant kraken --card charge \\
      --card run --out reports/card-value
  balance cards lifeboats -p 4 --strategy hatkeeper --json
  balance cards walk-the-plank -p 4 --card charge --card run --precision 0.01
"""
)
@table_options
@click.option("-v", "--variant", "variants", multiple=True, help="Switch a variant on.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="Set a rule: NAME=VALUE.")
@click.option("-c", "--card", "cards", multiple=True, help="A card to value (default: every card).")
@click.option(
    "--out", type=click.Path(path_type=Path), default=None, help="Write the chart and table here."
)
@click.option("--json", "as_json", is_flag=True, help="Print the card values as JSON only.")
@precision_options
@min_effect_option
def cards(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    threads: int | None,
    variants: tuple[str, ...],
    rule_texts: tuple[str, ...],
    cards: tuple[str, ...],
    out: Path | None,
    as_json: bool,
    precision: float | None,
    max_games: int | None,
    min_effect: float,
) -> None:
    """Value each card of GAME by restricted play: a seat that may never use it."""
    from balance.api import check_card_values, make_setup
    from balance.restricted import card_value_json, restricted_play, write_restricted_play
    from balance.results import json_safe, output_dir

    setup = make_setup(
        game,
        players,
        seed,
        strategy_texts or ("random",),
        variants,
        rule_pairs(rule_texts, decks),
        rotate_seats,
    )
    check_card_values(game)
    check_max_games(precision, max_games)
    if out is not None:
        output_dir(out)  # before any game is played
    value = restricted_play(
        setup,
        n_games,
        actions=cards,
        threads=threads,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
        min_effect=min_effect,
    )
    if as_json:
        click.echo(json.dumps(json_safe(card_value_json(value))))
    else:
        click.echo(value.text())
    if out is not None:
        written = write_restricted_play(value, out)
        if not as_json:
            click.echo(f"\nsaved {', '.join(path.name for path in written)} in {out}")
    if value.partial:
        click.echo(f"interrupted: valued the cards on {value.games:,} games", err=True)
        sys.exit(130)


@cli.command(
    epilog="""
\b
Examples:
  balance compare walk-the-plank --players 4 --games 200000 \\
      --variant base --variant kraken --variant dolphin --out reports/kraken-dolphin
  balance compare walk-the-plank -p 5 -g 100000 --variant base --variant rest=charge,run \\
      --variant ghost+kraken --strategy greedy
  balance compare walk-the-plank -p 4 --variant base --variant kraken --precision 0.01
\b
A variant is "base", a variant's name, a rule NAME=VALUE, or several joined by "+".
"""
)
@table_options
@click.option(
    "-v",
    "--variant",
    "variant_texts",
    multiple=True,
    required=True,
    help="A variant to compare (at least two; the first is the reference).",
)
@click.option("-r", "--rule", "rule_texts", multiple=True, help="A rule for every variant.")
@click.option(
    "--out", type=click.Path(path_type=Path), default=None, help="Write runs, charts, PDF here."
)
@precision_options
@min_effect_option
def compare(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    variant_texts: tuple[str, ...],
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    decks: tuple[str, ...],
    rule_texts: tuple[str, ...],
    threads: int | None,
    out: Path | None,
    precision: float | None,
    max_games: int | None,
    min_effect: float,
) -> None:
    """Play variants of GAME on the same games and test their paired differences."""
    from balance.compare import compare as run_comparison

    check_max_games(precision, max_games)
    comparison = run_comparison(
        game,
        players=players,
        games=n_games,
        variants=variant_texts,
        seed=seed,
        strategies=strategy_texts or ("random",),
        rules=rule_pairs(rule_texts, decks),
        rotate_seats=rotate_seats,
        threads=threads,
        out=out,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
        min_effect=min_effect,
    )
    click.echo(comparison.text())
    if out is not None:
        click.echo(f"\nsaved the runs, charts, comparison.csv and comparison.pdf in {out}")
    if comparison.partial:
        click.echo(
            f"interrupted: compared the {comparison.games:,} games every variant played", err=True
        )
        sys.exit(130)


@cli.command(
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
    from balance import tournament_report
    from balance.results import json_safe, output_dir
    from balance.tournament import tournament as play

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
                f"CSV), JSON, charts and tournament.pdf in {out}"
            )
    if result.partial:
        click.echo(f"interrupted: {result.games:,} games a pairing", err=True)
        sys.exit(130)


@cli.command(
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


@cli.command(
    "check",
    epilog="""
\b
Examples:
  balance check examples/targets.toml
  balance check examples/targets.toml --save-baseline baseline.json
  balance check examples/targets.toml --baseline baseline.json \\
      --junit check.xml --markdown check.md
\b
Exit code: 0 every target passed, 1 one failed, 3 none failed but some are undecided
(max_games reached first), 2 bad input. The file's format: docs/precision.md.
""",
)
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON only.")
@click.option(
    "--junit", type=click.Path(path_type=Path), default=None, help="Write JUnit XML here."
)
@click.option(
    "--markdown", type=click.Path(path_type=Path), default=None, help="Write a Markdown table here."
)
@click.option(
    "--save-baseline",
    type=click.Path(path_type=Path),
    default=None,
    help="Also play until every figure is precise enough for a baseline "
    "(95% half-width at most a third of its tolerance), and save the result here.",
)
@click.option(
    "--baseline",
    type=click.Path(path_type=Path),
    default=None,
    help="A saved 'balance check --json' (best from --save-baseline): also check every "
    "figure moved less than its target's tolerance.",
)
@click.option("--tolerance", type=float, default=None, hidden=True)
@click.option("-t", "--threads", type=int, default=None, help="Threads (default: all cores).")
def check(
    file: Path,
    as_json: bool,
    junit: Path | None,
    markdown: Path | None,
    save_baseline: Path | None,
    baseline: Path | None,
    tolerance: float | None,
    threads: int | None,
) -> None:
    """Decide the design targets in FILE (TOML) like tests: pass, fail or undecided."""
    from balance import check as checks
    from balance.results import json_safe

    if tolerance is not None:
        raise BalanceError(
            "--tolerance is given per target, in its metric's units: tolerance = 0.01 "
            f"under [[scenario.target]] in {file} (docs/precision.md)"
        )
    scenarios = checks.load_checks(file)
    if baseline is not None:
        checks.add_baseline(scenarios, baseline)
    checks.check_outputs(junit, markdown, save_baseline)
    result = checks.run_checks(
        scenarios,
        threads=threads,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precise=save_baseline is not None,
    )
    if as_json:
        click.echo(json.dumps(json_safe(result)))
    else:
        click.echo(checks.check_text(result))
    checks.write_outputs(result, junit, markdown, save_baseline)
    if save_baseline is not None:
        for line in checks.imprecise(result):
            click.echo(f"warning: {line}", err=True)
    if any(s["partial"] for s in result["scenarios"]):
        click.echo("interrupted: the verdicts so far are above", err=True)
        sys.exit(130)
    sys.exit(checks.exit_code(result))


@cli.group(
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
\b
A good file prints a line per deck; a bad one prints every mistake, one FILE:LINE: reason
line each. The exit code is 1 when any file is bad, 2 when a FILE does not exist (nor
names an example deck).
""",
)
@click.argument("files", nargs=-1, required=True)
def deck_check(files: tuple[str, ...]) -> None:
    """Check card and deck FILES (or example deck names): every mistake with its line."""
    from balance.games.battle_of_thieves import cards as card_files

    results = card_files.check_each(files)
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


def _precision_lines(s: dict[str, Any]) -> list[str]:
    from balance.precision import precision_lines

    return precision_lines(s)


def format_summary(s: dict[str, Any]) -> str:
    """The summary as a designer reads it in a terminal."""
    n_games = s["games"]
    lines = [
        *warning_lines(s.get("warnings", [])),
        *(_precision_lines(s) if s.get("anytime_valid") else []),
        f"{s['game']}: {n_games:,} games, {s['players']} players, seed {s['seed']}"
        + (f" (interrupted: {s['requested_games']:,} asked)" if s["partial"] else ""),
        f"variants: {', '.join(s['variants']) or 'none (base game)'}",
        "rules: " + rules_text(s["rules"]),
        f"strategies: {', '.join(s['strategies'])}",
        s["seating"],
        "",
        f"Seat win rates ({n_games:,} games, 95% "
        f"{'anytime-valid' if s.get('anytime_valid') else 'Wilson'} intervals):",
    ]
    width = max(len(label) for label in s["seat_labels"])
    for row, label in zip(s["seat_win_rate"], s["seat_labels"], strict=True):
        lines.append(f"  {label:<{width}}  {percent(row['rate']):>6}  {interval(row['ci95'])}")
    lines.append(
        f"  balance index (1 - largest gap between seats): {index_text(s['balance_index'])} "
        + (
            f"{interval(s['balance_index_ci95'], as_percent=False, digits=3)}"
            if s["balance_index"] == s["balance_index"]
            else "(no game had a winner)"
        )
    )
    if "strategy_win_rate" in s:
        lines.append("Win rate per strategy (over every seat it played):")
        for row in s["strategy_win_rate"]:
            lines.append(
                f"  {row['strategy']:<24} {percent(row['rate']):>6}  {interval(row['ci95'])}"
                f"  ({row['seats_played']:,} seats)"
            )
    lines += winner_lines(s)
    lines += length_lines(s)
    lines.append(
        f"Finished before the cap: {percent(s['finished_rate'])} {interval(s['finished_ci95'])}"
    )
    lines += get_game(s["game"]).summary_lines(s)
    if "card_value" in s:
        lines += card_value_lines(s["card_value"])
    lines.append(
        f"\n{n_games:,} games in {s['elapsed_s']:.2f} s ({s['games_per_s']:,.0f} games/s, "
        f"{s['threads']} thread{'' if s['threads'] == 1 else 's'})"
    )
    return "\n".join(lines)


def winner_lines(s: dict[str, Any]) -> list[str]:
    """Games by how many players won them: ``no winner``, ``one winner``, ``2 winners``
    ...; a game that has at most one winner shows only the first two."""
    single = get_game(s["game"]).single_winner
    lines = ["Games with no winner and with a winner:" if single else "Games by number of winners:"]
    for k, rate in s["winner_count"].items():
        if single and int(k) > 1:
            continue
        label = {"0": "no winner", "1": "a winner" if single else "one winner"}.get(
            k, f"{k} winners"
        )
        lines.append(f"  {label:<11} {percent(rate):>6}  {interval(s['winner_count_ci95'][k])}")
    return lines


def card_value_lines(value: dict[str, Any]) -> list[str]:
    """``card_value`` of a summary (``simulate --restricted-play``) as text lines."""
    noun = value["noun"]
    lines = [
        f"{noun.capitalize()} value by {value['method']}, {value['games']:,} paired games a {noun}:"
    ]
    for row in value["cards"]:
        name = row["card"] if "seat" not in row else f"{row['card']} (seat {row['seat']})"
        low, high = row["ci95"]
        p = "<0.001" if row["p_holm"] < 0.001 else f"{row['p_holm']:.3f}"
        lines.append(
            f"  {name[:30]:<30} {100 * row['value']:+6.2f} pp [{100 * low:+.2f}, "
            f"{100 * high:+.2f}]  p {p}{' *' if row['significant'] else ''}"
        )
    lines.append(
        f"  change in the win rate without the {noun} [95% paired t interval], Holm's p; "
        f"negative: it helps; * significant"
    )
    return lines


def length_lines(s: dict[str, Any]) -> list[str]:
    """Game length: mean, median and, with unfinished games, the restricted mean.

    A game stopped unfinished counts at the length it was stopped, so with unfinished
    games the mean is only a lower bound, and says so."""
    unit = s["length_unit"]
    n_games = s["games"]
    if not n_games:
        return ["Game length: no games"]
    unfinished = s.get("length_unfinished", 0)
    median = s.get("length_median", float("nan"))
    limit = s.get("length_restricted_to")
    if median == median:
        low, high = s["length_median_ci95"]
        shown = "n/a" if low != low else f"{low:.1f}"
        upper = f"beyond {limit}" if high != high else f"{high:.1f}"
        median_text = f"median {median:.1f} [{shown}, {upper}] {unit}"
        reading = "where the share still running crosses 50%"
    else:
        median_text = f"median beyond {limit} {unit}"
        reading = "more than half the games were still running at the end"
    spread = f"{interval(s['length_ci95'], as_percent=False)}, sd {s['length_sd']:.2f}"
    if not unfinished:
        return [
            f"Game length: mean {s['length_mean']:.2f} {unit} {spread}; {median_text} "
            f"({n_games:,} games)"
        ]
    cap = s.get("length_cap")
    where = f"at the cap of {cap} {unit}" if cap is not None else "by a cap"
    return [
        f"Game length ({n_games:,} games; {unfinished:,} stopped unfinished {where}):",
        f"  {median_text} ({reading})",
        f"  restricted mean to {limit} {unit}: {s['length_restricted']:.2f} "
        f"{interval(s['length_restricted_ci95'], as_percent=False)}"
        " (area under the still-running curve)",
        f"  mean: at least {s['length_mean']:.2f} {unit} {spread} (a lower bound: "
        "unfinished games count where they stopped)",
    ]


def _add_sweep() -> None:
    from balance.sweep_cli import sweep

    cli.add_command(sweep)


_add_sweep()


def _add_skill() -> None:
    from balance.skill_cli import skill

    cli.add_command(skill)


_add_skill()


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


cli.add_command(strategy_group)


if __name__ == "__main__":
    main()
