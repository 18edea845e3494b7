"""Games of one's own: found through the ``balance.games`` entry points, written by
``balance game new``, played on a reference engine alone, and refused in one line when
their package is broken while the other games keep working."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke
from click.testing import CliRunner

import balance.games as games
from balance.authoring.new_game import new_game
from balance.cli import cli
from balance.core.errors import BalanceError


def _clear() -> None:
    games._scan.cache_clear()


def install(site: Path, name: str, points: dict[str, str]) -> None:
    """Register ``points`` (game id -> ``module:GAME``) as the installed package ``name``
    would: a ``.dist-info`` directory on the path, read by ``importlib.metadata``."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = ["[balance.games]", *(f"{key} = {value}" for key, value in points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    _clear()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory of installed packages on the path; the registry reads it afresh."""
    where = tmp_path / "site"
    where.mkdir()
    monkeypatch.syspath_prepend(str(where))
    _clear()
    yield where
    _clear()
    for name, module in list(sys.modules.items()):  # the packages installed here go too
        if str(getattr(module, "__file__", None) or "").startswith(str(where)):
            del sys.modules[name]


@pytest.fixture
def python_game(site: Path) -> str:
    """A game of ``balance game new``'s package without its compiled engine, installed."""
    new_game("pig-test", site / "pig-test")
    package = site / "pig-test" / "pig_test"
    for compiled in ("engine.py", "engine_nb.py"):
        (package / compiled).unlink()
    shutil.move(package, site / "pig_test")
    install(site, "pig-test", {"pig-test": "pig_test.game:GAME"})
    return "pig-test"


def test_the_built_in_games_register_through_balance_own_entry_points() -> None:
    _clear()
    found = games.entries()
    assert list(found)[:4] == list(games.MODULES)
    for game_id, module in games.MODULES.items():
        assert found[game_id].target == f"{module}:GAME"
        assert games.origin(game_id) == "built in"


def test_a_package_game_is_listed_with_its_package(site, python_game, monkeypatch, capsys) -> None:
    out = invoke("games")
    assert "pig-test  (Pig Test, 2-6 players; package pig-test 1.0)" in out
    assert "walk-the-plank  (Walk the Plank, 2-5 players; built in)" in out


def test_a_game_without_compiled_engine_plays_on_its_reference_engine(python_game) -> None:
    game = games.get_game(python_game)
    assert not game.has_compiled_engine
    done = CliRunner().invoke(cli, ["simulate", python_game, "-g", "300", "-p", "3"])
    assert done.exit_code == 0, done.output
    assert "300 games" in done.stdout and "Seat win rates" in done.stdout
    # Its speed is said once, on stderr.
    err = done.stderr
    assert err.count("note: pig-test has no compiled engine") == 1 and "games/s" in err
    again = CliRunner().invoke(cli, ["simulate", python_game, "-g", "300", "-p", "3"])
    assert again.exit_code == 0 and "no compiled engine" not in again.stderr


def test_a_player_writes_a_strategy_for_a_game_without_compiled_engine(
    python_game, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text(invoke("strategy", "new", python_game))
    out = invoke("strategy", "check", f"{mine}:mine", "--game", python_game)
    assert out.startswith("ok: mine compiles, and plays 100 games against random")
    assert "as plain Python (--debug), on the game's reference engine" in out
    out = invoke("simulate", python_game, "-p", 2, "-g", 200, "--strategy", f"{mine}:mine")
    assert "strategies: mine, mine" in out


def test_the_reference_engine_plays_the_same_games_on_any_block(python_game) -> None:
    from balance.run.play import make_setup

    game = games.get_game(python_game)
    setup = make_setup(python_game, 3, seed=5, strategies=("hold-at", "random", "hold-at"))
    whole = game.play_block(setup, 0, 12)
    parts = [game.play_block(setup, first, 4) for first in (0, 4, 8)]
    for name, array in whole.extra.items():
        assert (array == np.concatenate([p.extra[name] for p in parts])).all()
    assert whole.won.sum() == 12  # a winner a game: the games were played


def test_a_package_that_fails_to_import_is_one_line_and_others_keep_working(
    site, monkeypatch, capsys
) -> None:
    install(site, "broken-game", {"broken": "no_such_module.game:GAME"})
    listed = CliRunner().invoke(cli, ["games"])
    out, err = listed.stdout, listed.stderr
    assert listed.exit_code == 0 and "la-planche" in out and "broken" not in out
    said = [line for line in err.splitlines() if "broken" in line]
    assert said == [
        "warning: game package 'broken-game' (broken = no_such_module.game:GAME): fails to "
        "import: ModuleNotFoundError: No module named 'no_such_module'"
    ]
    code, out, err = call_main(monkeypatch, capsys, "simulate", "broken", "-g", 10)
    assert_one_line_error(code, out, err, "game package 'broken-game'", "fails to import")
    assert "spaces" in invoke("rules", "la-planche")


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("GAME = object()", "its game has no id (str)"),
        (
            "from balance.games.la_planche.game import GAME",
            "its game's id is 'la-planche', not 'odd'",
        ),
        ("raise RuntimeError('rules file missing')", "fails to import: RuntimeError: rules file"),
    ],
)
def test_a_game_that_breaks_the_contract_is_named_in_one_line(
    site, monkeypatch, capsys, source, problem
) -> None:
    module = f"odd_game_{abs(hash(source))}"  # a module of its own: imports are kept
    (site / f"{module}.py").write_text(source + "\n")
    install(site, "odd-package", {"odd": f"{module}:GAME"})
    with pytest.raises(BalanceError, match="game package 'odd-package'") as raised:
        games.get_game("odd")
    assert problem in str(raised.value) and "\n" not in str(raised.value)
    assert "odd" not in games.registry() and "lifeboats" in games.registry()


def test_a_package_cannot_take_a_built_in_game_id(site, monkeypatch, capsys) -> None:
    install(site, "impostor", {"walk-the-plank": "impostor:GAME"})
    assert games.entries()["walk-the-plank"].package == "balance"
    assert (
        "game package 'impostor' (walk-the-plank = impostor:GAME): the id 'walk-the-plank' "
        "is already a game's"
    ) in games.problems()


@pytest.mark.parametrize(
    ("game_id", "message"),
    [
        ("My Game", "use lower-case letters, digits and hyphens"),
        ("2much", "use lower-case letters"),
        ("la-planche", "a game 'la-planche' is already installed"),
    ],
)
def test_game_new_refuses_a_bad_id(tmp_path: Path, game_id: str, message: str) -> None:
    with pytest.raises(BalanceError, match=message):
        new_game(game_id, tmp_path / "new")


@pytest.mark.parametrize(
    ("game_id", "package"), [("import", "import"), ("numpy", "numpy"), ("balance", "balance")]
)
def test_game_new_refuses_an_id_whose_package_python_already_uses(
    tmp_path: Path, game_id: str, package: str
) -> None:
    with pytest.raises(BalanceError, match=f"its package would be named '{package}'"):
        new_game(game_id, tmp_path / "new")
    assert not (tmp_path / "new").exists()


def test_game_new_says_in_one_line_where_it_cannot_write(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "mine.py").write_text("")
    code, out, err = call_main(
        monkeypatch, capsys, "game", "new", "dice-duel", tmp_path / "mine.py" / "sub"
    )
    assert_one_line_error(code, out, err, "cannot write the game into")


def test_a_module_of_a_game_that_fails_to_import_is_one_line(
    site: Path, monkeypatch, capsys
) -> None:
    new_game("dice-typo", site / "dice-typo")
    shutil.move(site / "dice-typo" / "dice_typo", site / "dice_typo")
    with (site / "dice_typo" / "engine_nb.py").open("a") as engine:
        engine.write("\ndef broken(:\n")
    install(site, "dice-typo", {"dice-typo": "dice_typo.game:GAME"})
    code, out, err = call_main(monkeypatch, capsys, "simulate", "dice-typo", "-g", 10)
    assert_one_line_error(
        code, out, err, "dice-typo: dice_typo.engine fails to import: SyntaxError: ", "line"
    )


def test_game_new_refuses_a_directory_with_files(tmp_path: Path) -> None:
    (tmp_path / "kept.txt").write_text("mine")
    with pytest.raises(BalanceError, match="already exists and is not an empty directory"):
        new_game("dice-duel", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_game_new_writes_a_whole_package(tmp_path: Path) -> None:
    written = {p.relative_to(tmp_path).as_posix() for p in new_game("my-game", tmp_path)}
    assert written == {
        "README.md",
        "pyproject.toml",
        "docs/my-game.md",
        "tests/test_rules.py",
        "tests/test_conformance.py",
        *(
            f"my_game/{name}.py"
            for name in (
                "__init__",
                "game",
                "rules",
                "records",
                "reference",
                "engine",
                "engine_nb",
                "strategies",
                "strategy_template",
            )
        ),
    }
    text = "".join((tmp_path / name).read_text() for name in written)
    assert "{{" not in text
    assert 'my-game = "my_game.game:GAME"' in (tmp_path / "pyproject.toml").read_text()


@pytest.mark.slow
def test_game_new_package_compiles_passes_the_checks_and_its_own_tests(
    site: Path, tmp_path: Path
) -> None:
    """The package as written: its compiled engine plays the reference engine's games,
    it passes ``game check`` and its own tests run green."""
    import os
    import subprocess
    import sys

    from balance.authoring.conformance import check_game

    new_game("dice-check", site / "dice-check")
    shutil.move(site / "dice-check" / "dice_check", site / "dice_check")
    install(site, "dice-check", {"dice-check": "dice_check.game:GAME"})
    game = games.get_game("dice-check")
    assert game.has_compiled_engine
    failed = [f"{f.check}: {f.message}" for f in check_game(game, games=100) if not f.ok]
    assert not failed, "\n".join(failed)
    mine = tmp_path / "mine.py"
    mine.write_text(invoke("strategy", "new", "dice-check"))
    out = invoke("strategy", "check", f"{mine}:mine", "--game", "dice-check")
    assert "on the compiled engine (compiled) and the reference engine" in out
    env = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=site / "dice-check",
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
