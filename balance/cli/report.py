"""``balance report RUN``: a saved run's charts and findings."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from balance.cli.options import (
    say_compiling,
)


@click.command(
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
    """Chart the run saved in DIRECTORY: one PNG per chart, report.pdf
    and index.html, the page to explore in a browser."""
    from balance.analyses.run_report import write_report

    written = write_report(
        directory,
        out,
        restricted_games=restricted_games,
        threads=threads,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
    )
    click.echo(f"wrote {len(written) - 2} pages as PNG, {written[-2]} and {written[-1]}")
