"""Every balance command plays Crazy Eights, installed as a package: a few games each,
through the command line as a designer runs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from balance.cli import cli
from click.testing import CliRunner

TARGETS = Path(__file__).parents[1] / "examples" / "targets.toml"


def run(*args: object) -> str:
    """``balance ARGS``: it must succeed; returns what it printed."""
    done = CliRunner().invoke(cli, [str(a) for a in args])
    assert done.exit_code == 0, (done.output, done.exception)
    return done.stdout


def test_it_is_listed_with_its_package() -> None:
    assert "crazy-eights  (Crazy Eights, 2-6 players; package balance-crazy-eights" in run("games")


def test_simulate_saves_a_run_that_replays_and_reports(tmp_path: Path) -> None:
    out = run(
        "simulate",
        "crazy-eights",
        "-p",
        3,
        "-g",
        2000,
        "--strategy",
        "eights-last",
        "--strategy",
        "random",
        "--strategy",
        "dump-points",
        "--rotate-seats",
        "--out",
        tmp_path / "run",
    )
    assert "2,000 games" in out and "Plays per game of each rank" in out
    replayed = run("replay", tmp_path / "run", 17)
    assert replayed.startswith("Crazy Eights, game 17 of the run seeded 0")
    run("report", tmp_path / "run", "--out", tmp_path / "report")
    assert (tmp_path / "report" / "report.pdf").stat().st_size > 0


def test_compare_a_house_rule() -> None:
    out = run(
        "compare",
        "crazy-eights",
        "-p",
        3,
        "-g",
        2000,
        "--variant",
        "base",
        "--variant",
        "twos-draw-two",
    )
    assert "twos-draw-two against base (2,000 paired games" in out


def test_cards_values_each_rank_by_restricted_play() -> None:
    out = run("cards", "crazy-eights", "-p", 3, "-g", 2000, "--strategy", "eights-last")
    assert "eight" in out and "queen" in out


def test_sweep_a_rule() -> None:
    out = run("sweep", "crazy-eights", "-p", 3, "-g", 500, "--axis", "hand_size=5..7")
    assert "hand_size" in out


def test_check_design_targets() -> None:
    done = CliRunner().invoke(cli, ["check", str(TARGETS)])
    assert done.exit_code in (0, 1, 3), (done.output, done.exception)  # decided or not
    assert "three players, house rule twos-draw-two" in done.stdout


@pytest.mark.parametrize("command", ["tournament", "skill"])
def test_strategies_against_each_other(command: str) -> None:
    if command == "tournament":
        args = ["--strategy", "random", "--strategy", "eights-last", "--strategy", "dump-points"]
    else:
        args = ["--rung", "random", "--rung", "dump-points", "--rung", "eights-last"]
    out = run(command, "crazy-eights", "-p", 2, "-g", 400, *args)
    assert "eights-last" in out
