"""``balance sweep``: flags in, one call to :func:`balance.analyses.sweep.sweep`, results out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.analyses.sweep_design import DESIGNS
from balance.cli.options import rule_pairs, say_compiling, scheduler_option
from balance.core.errors import BalanceError

EPILOG = """
\b
Examples:
  balance sweep walk-the-plank --players 5 --axis plank_max=3..6 \\
      --axis pirates_per_player=2..4 --games 20000 \\
      --target "balance_index>=0.95" --target "length_mean=6..10" --out sweeps/plank
  balance sweep walk-the-plank --players 3,4,5 --axis variant=base,kraken,ghost+dolphin
  balance sweep walk-the-plank --axis plank_max=3..8 --axis pirates_per_player=1..4 \\
      --axis "rest=none;charge;charge,run" --design lhs --points 40 --json
  balance sweep walk-the-plank --axis plank_max=3..6 --scheduler tcp://10.0.0.5:8786
  balance sweep walk-the-plank --axis plank_max=3..6 --precision 0.01
\b
An axis is NAME=V1,V2,... (NAME=A;B when a value holds commas), NAME=LO..HI (every
whole number), or variant=base,kraken,ghost+dolphin. docs/sweeps.md explains the charts.
"""


@click.command(epilog=EPILOG)
@click.argument("game")
@click.option("-p", "--players", default=None, help="Player counts: 4, 3,4,5 or 3..5.")
@click.option("-a", "--axis", "axis_texts", multiple=True, help="A swept rule or variant.")
@click.option(
    "--design", type=click.Choice(DESIGNS), default="grid", show_default=True, help="Design."
)
@click.option("--points", type=int, default=None, help="Points of an lhs or sobol design.")
@click.option(
    "-g",
    "--games",
    "n_games",
    type=int,
    default=None,
    help="Games a point plays (the same indices at every point; default 10,000; not with "
    "--precision).",
)
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option(
    "--strategy",
    "strategy_texts",
    multiple=True,
    help="Once for every seat, or once per seat (as simulate). Default: random.",
)
@click.option("--rotate-seats", is_flag=True, help="Seat the strategies in every order.")
@click.option("-r", "--rule", "rule_texts", multiple=True, help="A rule fixed at every point.")
@click.option("--deck", "decks", multiple=True, help="Battle of Thieves: one deck a seat.")
@click.option(
    "--baseline",
    default=None,
    help='Pair every point with this one: "plank_max=3,pirates_per_player=3".',
)
@click.option(
    "--target",
    "target_texts",
    multiple=True,
    help='A band for a figure: "balance_index>=0.97", "length_mean=6..10".',
)
@click.option("-t", "--threads", type=int, default=None, help="Local threads (default: all).")
@click.option("--block", type=int, default=None, help="Games a task plays (default 20,000).")
@scheduler_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the table, JSON, manifest, charts and PDF here.",
)
@click.option("--resume", is_flag=True, help="Play only the points missing from --out.")
@click.option(
    "--keep-runs",
    is_flag=True,
    help="With --out: also save every point's per-game records (runs/NNNNN).",
)
@click.option("--yes", is_flag=True, help="Play a grid of more than 10,000 points.")
@click.option("--json", "as_json", is_flag=True, help="Print the sweep as JSON only.")
@click.option(
    "--precision",
    type=float,
    default=None,
    metavar="H",
    help="Play each point block by block until its seat win rates and balance index have "
    "95% anytime-valid intervals at most H either side; replaces --games. "
    "See docs/precision.md.",
)
@click.option(
    "--max-games",
    type=int,
    default=None,
    help="With --precision: a point stops here even if not yet precise enough "
    "(default 10,000,000).",
)
def sweep(
    game: str,
    players: str | None,
    axis_texts: tuple[str, ...],
    design: str,
    points: int | None,
    n_games: int | None,
    seed: int,
    strategy_texts: tuple[str, ...],
    rotate_seats: bool,
    rule_texts: tuple[str, ...],
    decks: tuple[str, ...],
    baseline: str | None,
    target_texts: tuple[str, ...],
    threads: int | None,
    block: int | None,
    scheduler: str | None,
    out: Path | None,
    resume: bool,
    keep_runs: bool,
    yes: bool,
    as_json: bool,
    precision: float | None,
    max_games: int | None,
) -> None:
    """Play GAME at every point of a design of rules and report where it is fair."""
    from balance.analyses.sweep import keep_point_runs
    from balance.analyses.sweep import sweep as run_sweep

    if keep_runs and out is None:
        raise BalanceError("--keep-runs needs --out")
    result = run_sweep(
        game,
        players=players,
        axes=axis_texts,
        design=design,
        points=points,
        games=n_games,
        seed=seed,
        strategies=strategy_texts or ("random",),
        rotate_seats=rotate_seats,
        rules=rule_pairs(rule_texts, decks),
        baseline=baseline,
        targets=target_texts,
        threads=threads,
        block=block,
        scheduler=scheduler,
        out=out,
        resume=resume,
        yes=yes,
        progress=sys.stderr.isatty(),
        on_compile=say_compiling,
        precision=precision,
        max_games=max_games,
    )
    if keep_runs and out is not None and not result.partial:
        keep_point_runs(result, out, threads=threads)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(result.text())
        if out is not None:
            click.echo(
                "\nsaved sweep.parquet, sweep.csv, sweep.json, the charts, sweep.pdf and "
                f"index.html in {out}"
            )
    if result.partial:
        where = f"; --resume --out {out} plays the rest" if out else ""
        click.echo(
            f"interrupted: kept the {len(result.points):,} finished points of "
            f"{result.requested_points:,}{where}",
            err=True,
        )
        sys.exit(130)
