"""``balance check FILE.toml``: a designer's targets, decided like tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from balance.cli.options import on_cluster_option, say_compiling
from balance.core.errors import BalanceError


@click.command(
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
@on_cluster_option
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
    from balance.analyses import check as checks
    from balance.run.results import json_safe

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
