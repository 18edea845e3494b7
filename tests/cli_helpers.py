"""What every game's end-to-end tests use to drive the ``balance`` command and read its
output: in-process runs, one-line errors, PDF pages, interval checks."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from balance.cli import cli, main


def invoke(*args: object) -> str:
    """Run the CLI in-process; it must succeed. Returns stdout."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def simulate_json(game: str, *args: object) -> dict:
    """``balance simulate GAME ARGS --json``: one JSON object on one line."""
    text = invoke("simulate", game, *args, "--json")
    assert text.count("\n") == 1 and text.endswith("}\n")  # one JSON object, one line
    return json.loads(text)


def call_main(monkeypatch: pytest.MonkeyPatch, capsys, *args: object) -> tuple[int, str, str]:
    """``balance ARGS`` through ``main()``, in this process; returns (code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["balance", *[str(a) for a in args]])
    with pytest.raises(SystemExit) as done:
        main()
    out, err = capsys.readouterr()
    return done.value.code, out, err


def assert_one_line_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert out == ""
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def forbid_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make playing any game fail the test: for errors that must come before
    the first game is played (every compiled engine plays through its ``play_games``)."""
    from balance.games import registry

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the error")

    for game in registry().values():
        monkeypatch.setattr(game.compiled, "play_games", played)


def pdf_pages(path: Path) -> int:
    """Pages of a PDF: with pypdf if installed, else the page objects in its bytes."""
    try:
        from pypdf import PdfReader
    except ImportError:
        data = path.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data))
    return len(PdfReader(path).pages)


def within(pair: list[float], value: float, slack: float = 1e-12) -> bool:
    return pair[0] - slack <= value <= pair[1] + slack
