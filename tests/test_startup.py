"""Commands that play no game load no engine: what each command imports, not how long.

``balance --help``, ``games``, ``rules`` and ``strategies`` need names, variants and rule
parameters only; numba (the engines and strategies), pandas, pyarrow, scipy, statsmodels
and matplotlib load when a game plays or a report is drawn. A run loads its own game only.
Each command runs in a fresh interpreter that prints the modules it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from balance.core.catalog import ListedStrategy, _read_source, listed_strategies
from balance.core.lazy import LazyModule
from balance.games import MODULES, get_game, registry

GAMES = list(MODULES)
HEAVY = ("numba", "llvmlite", "pandas", "pyarrow", "scipy", "statsmodels", "matplotlib")

#: Runs the command line on ``sys.argv[1:]`` and prints, as JSON, every module then loaded.
RUN = """
import json, sys
from balance.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="balance", standalone_mode=False)
except SystemExit:
    pass
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""


def imported_by(*args: str) -> set[str]:
    """The modules a fresh interpreter has loaded after ``balance ARGS``."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.rsplit("\nMODULES ", 1)[1]
    return set(json.loads(line))


def heavy(modules: set[str]) -> list[str]:
    """The heavy libraries, and any game's engine or strategies, among ``modules``."""
    found = sorted({m.split(".")[0] for m in modules if m.split(".")[0] in HEAVY})
    ours = sorted(
        m
        for m in modules
        if m.startswith("balance.strategies.")
        or m.endswith((".engine", ".engine_nb", ".kit", ".moves_nb", ".bridge"))
    )
    return found + ours


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["games"],
        ["rules", "walk-the-plank"],
        ["rules", "battle-of-thieves"],
        ["strategies", "lifeboats"],
    ],
    ids=" ".join,
)
def test_listing_commands_load_no_engine(args: list[str]) -> None:
    assert heavy(imported_by(*args)) == []


def test_a_run_loads_only_its_own_game() -> None:
    modules = imported_by("simulate", "la-planche", "-p", "2", "-g", "20", "-t", "1")
    played = {m.split(".")[2] for m in modules if m.startswith("balance.games.") and "." in m[14:]}
    assert played == {"la_planche"}
    assert "balance.games.la_planche.engine_nb" in modules  # it did play


def test_a_run_that_saves_nothing_loads_no_table_or_test_library() -> None:
    # Running sums and their intervals need numpy and scipy.special only.
    modules = imported_by("simulate", "walk-the-plank", "-p", "3", "-g", "50", "-t", "1")
    assert "balance.games.walk_the_plank.engine_nb" in modules  # it did play
    loaded = {m.split(".")[0] for m in modules} | {m for m in modules if m.startswith("scipy.")}
    assert not loaded & {"pandas", "pyarrow", "statsmodels", "matplotlib", "scipy.stats"}


@pytest.mark.parametrize("game_id", GAMES)
def test_listed_strategies_read_from_source_are_the_shipped_ones(game_id: str) -> None:
    game = get_game(game_id)
    shipped = [
        ListedStrategy(
            s.name,
            s.description,
            s.params,
            dict(s.param_docs),
            {k: dict(v) for k, v in s.param_choices.items()},
        )
        for s in game.shipped
    ]
    assert _read_source(game.strategies_module) == shipped
    assert listed_strategies(game) == shipped


def test_strategies_written_otherwise_are_imported(tmp_path, monkeypatch) -> None:
    (tmp_path / "odd_strategies.py").write_text(
        "from balance.strategy import Strategy\n"
        "SENTENCE = 'Plays ' + 'oddly.'\n"
        "odd = Strategy('walk-the-plank', 'odd', SENTENCE, {}, code=None)\n"
        "SHIPPED = (odd,)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    class Odd:
        strategies_module = "odd_strategies"

        def strategies(self) -> dict:
            from odd_strategies import SHIPPED

            return {s.name: s for s in SHIPPED}

    assert _read_source("odd_strategies") is None
    assert listed_strategies(Odd()) == [ListedStrategy("odd", "Plays oddly.", (), {}, {})]


@pytest.mark.parametrize("game_id", GAMES)
def test_player_counts_are_the_engines(game_id: str) -> None:
    game = registry()[game_id]
    assert game.id == game_id
    game.check_players(game.min_players)
    game.check_players(game.max_players)
    for outside in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(Exception, match="players"):
            game.check_players(outside)


def test_lazy_module_loads_on_first_attribute() -> None:
    lazy = LazyModule("json")
    assert "not loaded yet" in repr(lazy)
    assert lazy.dumps([1]) == "[1]"
    assert "loaded" in repr(lazy) and "not" not in repr(lazy)
    with pytest.raises(AttributeError):
        _ = lazy.no_such_name
