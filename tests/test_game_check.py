"""``balance game check``: the conformance suite on any installed game, as a command.

A built-in game passes; games broken on purpose (a built-in game's class with one thing
wrong) fail the check that should catch them, each failure one line.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, call_main
from click.testing import CliRunner

import balance.games
from balance.authoring.conformance import CHECKS, Finding, check_game, report_lines
from balance.cli import cli
from balance.core.errors import BalanceError
from balance.core.game import Block, Game, Setup
from balance.games import MODULES, get_game

GAME = "la-planche"  # the quickest built-in game to check
GAMES = 20
LaPlanche: Any = type(get_game(GAME))


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Callable[[Game], Game]:
    """Have the registry give a game in place of the registered game of its id, for the
    test: the runs find a game by its id, wherever they import ``get_game``."""
    real = balance.games.get_game

    def register(game: Game) -> Game:
        def get_game(game_id: str) -> Game:
            return game if game_id == game.id else real(game_id)

        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith("balance"):
                continue
            if vars(module).get("get_game") is real:
                monkeypatch.setattr(module, "get_game", get_game)
        return game

    return register


def failed(findings: Sequence[Finding]) -> dict[str, list[str]]:
    """The failing findings' messages, by check."""
    out: dict[str, list[str]] = {}
    for finding in findings:
        if not finding.ok:
            out.setdefault(finding.check, []).append(finding.message)
    return out


def assert_one_line_each(findings: Sequence[Finding]) -> None:
    for finding in findings:
        assert finding.message and "\n" not in finding.message, finding


def check(*args: object) -> tuple[int, str, str]:
    """``balance game check ARGS`` in this process: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(cli, ["game", "check", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_a_built_in_game_passes() -> None:
    code, out, err = check(GAME, "--games", GAMES)
    assert code == 0, out
    assert "FAIL" not in out and out.count("\n") == 1, out
    summary = re.fullmatch(r"la-planche: (\d+) checks passed, 0 failed \((.*)\)\n", out)
    assert summary, out
    named = dict(part.split(" ") for part in summary.group(2).split(", "))
    assert list(named) == list(CHECKS)  # every check ran, in order
    assert int(summary.group(1)) == sum(int(n) for n in named.values())
    assert "checking engines" in err  # progress goes to stderr


def test_an_unknown_game_is_a_one_line_error(monkeypatch, capsys) -> None:
    code, out, err = call_main(monkeypatch, capsys, "game", "check", "no-such-game")
    assert_one_line_error(code, out, err, "unknown game 'no-such-game'")


class SummaryFails(LaPlanche):
    """Its own summary raises, with a message of several lines."""

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        raise RuntimeError("no summary today\n  a second line nobody should see")


class ReferenceFlipsAWinner(LaPlanche):
    """Its reference engine hands the first win of every block to the next seat."""

    def reference_block(self, setup: Setup, first_game: int, size: int) -> Block:
        block = super().reference_block(setup, first_game, size)
        won = block.won.copy()
        game = int(np.flatnonzero(won.any(axis=1))[0])
        won[game] = np.roll(won[game], 1)
        return dataclasses.replace(block, won=won)


class RulesSwallowBadValues(LaPlanche):
    """A bad turn cap is silently dropped; a bad target breaks with a ValueError."""

    def make_rules(self, variants: Sequence[str], rules: Sequence[tuple[str, str]]) -> Any:
        for name, text in rules:
            if name == "target" and not text.isdigit():
                raise ValueError(f"invalid literal for int() with base 10: {text!r}")
        try:
            return super().make_rules(variants, rules)
        except BalanceError:
            if any(name == "turn_cap" for name, _ in rules):
                return self.default_rules()
            raise


class DeclaresSlimRecords(LaPlanche):
    """Declares that its engine records slim blocks, and does not."""

    capabilities = dataclasses.replace(LaPlanche.capabilities, slim_records=True)


def test_a_game_whose_summary_raises_fails_the_records_check(stand_in) -> None:
    findings = check_game(stand_in(SummaryFails()), games=GAMES)
    assert_one_line_each(findings)
    failures = failed(findings)
    assert set(failures) == {"records"}, failures
    summary = [m for m in failures["records"] if m.startswith("summary keys")]
    assert summary == [
        "summary keys and types, the game's own keys and lines: RuntimeError: no summary today"
    ]


def test_a_reference_engine_that_disagrees_fails_the_engines_check(stand_in) -> None:
    findings = check_game(stand_in(ReferenceFlipsAWinner()), games=GAMES)
    assert_one_line_each(findings)
    failures = failed(findings)
    assert set(failures) == {"engines"}, failures
    engines = [f for f in findings if f.check == "engines"]
    assert len(failures["engines"]) == len(engines) > 1  # every case
    assert re.search(
        r"rules 'defaults' at 2 players: the engines play other games: won differs first in "
        r"game 10\d\d: \[.*\] in compiled, \[.*\] in reference$",
        failures["engines"][0],
    ), failures["engines"][0]


def test_rules_that_take_bad_values_fail_the_rules_check(stand_in) -> None:
    findings = check_game(stand_in(RulesSwallowBadValues()), games=GAMES)
    assert_one_line_each(findings)
    failures = failed(findings)
    assert set(failures) == {"rules"}, failures
    assert failures["rules"] == [
        "target=%%, target=-1, target=maybe refused in one line naming target: target=%% "
        "raises ValueError: invalid literal for int() with base 10: '%%', not a one-line "
        "BalanceError",
        "turn_cap=%%, turn_cap=-1, turn_cap=maybe refused in one line naming turn_cap: "
        "turn_cap=%% is accepted",
    ]


def test_a_capability_declared_but_not_implemented_fails_the_declaration(stand_in) -> None:
    findings = check_game(stand_in(DeclaresSlimRecords()), games=GAMES)
    failures = failed(findings)
    assert failures == {
        "declaration": [
            "capabilities declared as implemented: la-planche declares slim_records but "
            "does not implement it"
        ]
    }


def test_a_failing_game_exits_1_with_a_line_a_failure(stand_in) -> None:
    stand_in(DeclaresSlimRecords())
    code, out, _ = check(GAME, "-g", GAMES)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (
        "FAIL declaration: capabilities declared as implemented: la-planche declares "
        "slim_records but does not implement it"
    )
    assert re.fullmatch(r"la-planche: \d+ checks passed, 1 failed \(declaration 3, .*\)", lines[1])
    assert len(lines) == 2


class PlainPython(LaPlanche):
    """La Planche as a game without a compiled engine: played on its reference engine,
    its records declared as a game without one must."""

    has_compiled_engine = False
    records = get_game(GAME).compiled.layout
    record_class = get_game(GAME).compiled.record_class


def test_a_game_without_a_compiled_engine_is_checked_on_its_reference_engine(stand_in) -> None:
    findings = check_game(stand_in(PlainPython()), games=GAMES)
    assert failed(findings) == {}
    engines = [f.message for f in findings if f.check == "engines"]
    assert engines == ["no compiled engine: the reference engine is the game"]


def test_a_game_the_registry_does_not_give_is_not_checked() -> None:
    findings = check_game(SummaryFails(), games=GAMES)
    assert [(f.check, f.ok) for f in findings] == [("registry", False)]
    assert "get_game('la-planche') gives another game" in findings[0].message


def test_the_report_counts_each_check() -> None:
    findings = [
        Finding("declaration", True, "identity"),
        Finding("engines", False, "rules 'defaults' at 2 players: the engines differ"),
        Finding("engines", True, "rules 'defaults' at 3 players"),
    ]
    assert report_lines("pig", findings) == [
        "FAIL engines: rules 'defaults' at 2 players: the engines differ",
        "pig: 2 checks passed, 1 failed (declaration 1, engines 2)",
    ]
    assert report_lines("pig", findings[:1], every=True) == [
        "ok declaration: identity",
        "pig: 1 check passed, 0 failed (declaration 1)",
    ]


@pytest.mark.slow  # Battle of Thieves compiles for minutes the first time
@pytest.mark.parametrize("game_id", list(MODULES))
def test_every_built_in_game_passes(game_id: str) -> None:
    code, out, _ = check(game_id)
    assert code == 0, out
    assert out.startswith(f"{game_id}: ") and ", 0 failed (" in out
