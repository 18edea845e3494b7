"""The layers import one way, as docs/architecture.md draws them: a module imports from its
own layer and the layers below, never above, and no module reaches itself. Imports are
read from the source with :mod:`ast` (those inside functions too), nothing is executed.
An import under ``if TYPE_CHECKING:`` names a type for annotations: it counts for the
layers but runs nothing, so it cannot close a circle."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "balance"
GAMES = PACKAGE / "games"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "strategies":
        parts = ["balance", *parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(name: str) -> Path | None:
    """The source file of a ``balance`` module (the shipped strategies live in
    ``strategies/``: pyproject's ``package-dir``)."""
    parts = name.split(".")
    if parts[:2] == ["balance", "strategies"]:
        parts = ["strategies", *parts[2:]]
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


@functools.cache  # a file is read once: the circle test follows every chain from every import
def imports(path: Path, annotations: bool = True) -> frozenset[str]:
    """Every ``balance`` module ``path`` imports, anywhere in its body, by full name (a
    ``from package import name`` counts the submodule ``package.name`` when it is one);
    without ``annotations``, not those under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    found: set[str] = set()
    skipped: set[int] = set()
    if not annotations:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
                skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            found.add(source)
            for alias in node.names:
                if module_path(f"{source}.{alias.name}") is not None:
                    found.add(f"{source}.{alias.name}")
    return frozenset(n for n in found if n == "balance" or n.startswith("balance."))


def reaches(start: str, annotations: bool = True) -> dict[str, list[str]]:
    """Every ``balance`` module reachable from ``start`` by imports, with the chain that
    reaches it."""
    chains = {start: [start]}
    todo = [start]
    while todo:
        name = todo.pop()
        path = module_path(name)
        if path is None:
            continue
        for target in sorted(imports(path, annotations)):
            if target not in chains:
                chains[target] = [*chains[name], target]
                todo.append(target)
    return chains


#: The layers, lowest first: a module imports only from its own layer or those below.
LAYERS = ("core", "stats", "reports", "games", "run", "analyses", "authoring", "cli")
#: Modules directly in ``balance/``: public names above the layers (``api`` is the
#: notebook's facade, ``strategy`` and ``random_nb`` the names strategy files import
#: from the core).
FACADES = {
    "balance": "core",
    "balance.api": "cli",
    "balance.strategy": "core",
    "balance.random_nb": "core",
    "balance.tune": "cli",
}


def layer_of(name: str) -> str:
    """The layer a ``balance`` module belongs to, by its folder."""
    if name in FACADES:
        return FACADES[name]
    part = name.split(".")[1]
    if part == "strategies":  # the shipped strategies: a game's own
        return "games"
    if part == "templates":
        return "authoring"
    if part not in LAYERS:
        raise AssertionError(f"{name} sits in no layer: move it into one of {LAYERS}")
    return part


def all_modules() -> list[str]:
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "strategies").glob("*.py")]
    return sorted(module_name(path) for path in paths if "__pycache__" not in path.parts)


MODULES = all_modules()
GAME_MODULES = [name for name in MODULES if layer_of(name) == "games"]


def test_the_scan_finds_imports_the_rules_forbid() -> None:
    """The parser sees a function-level import (the kind this test exists for)."""
    found = imports(PACKAGE / "analyses" / "restricted.py")
    assert "balance.run.runner" in found
    assert "balance.games" in found
    assert "balance.core.strategy" in imports(ROOT / "strategies" / "walk_the_plank.py")
    assert "balance.analyses.tournament_report" in imports(PACKAGE / "cli" / "tournament.py")
    assert "balance.games.walk_the_plank.engine_nb" in reaches("balance.strategies.walk_the_plank")
    assert len(GAME_MODULES) > 40


@pytest.mark.parametrize("module", MODULES)
def test_a_module_imports_only_its_own_layer_and_those_below(module: str) -> None:
    """Imports inside functions count: a deferred import upwards is still upwards."""
    path = module_path(module)
    assert path is not None
    rank = LAYERS.index(layer_of(module))
    above = sorted(name for name in imports(path) if LAYERS.index(layer_of(name)) > rank)
    assert not above, f"{module} ({layer_of(module)}) imports {above} from layers above"


def test_no_import_circle() -> None:
    """No module reaches itself, deferred imports included."""
    circles = []
    for module in MODULES:
        path = module_path(module)
        assert path is not None
        for target in imports(path, annotations=False):
            chains = reaches(target, annotations=False)
            if target != module and module in chains:
                circles.append(" -> ".join([module, *chains[module]]))
    assert not circles, "\n".join(circles)


def test_few_modules_directly_in_the_package() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


def test_no_late_import() -> None:
    late = [
        str(path.relative_to(ROOT))
        for path in [*PACKAGE.rglob("*.py"), *(ROOT / "strategies").glob("*.py")]
        if "noqa: E402" in path.read_text()
    ]
    assert not late, late


def test_the_public_names_lead_to_the_layers() -> None:
    """``balance.api`` gives every analysis a notebook calls, and strategy files written
    from earlier templates find their draws where those templates looked."""
    import balance.api as api
    import balance.core.random_nb as core_random
    import balance.random_nb as old_random
    from balance.analyses import check, compare, restricted, run_report, sweep, tournament
    from balance.core import errors
    from balance.run import results, runner

    assert api.compare is compare.compare and api.restricted_play is restricted.restricted_play
    assert api.write_report is run_report.write_report and api.sweep is sweep.sweep
    assert api.tournament is tournament.tournament and api.run_games is runner.run_games
    assert api.load_run is results.load_run and api.BalanceError is errors.BalanceError
    assert api.run_checks is check.run_checks
    assert set(api.__all__) >= {"compare", "load_run", "simulate", "make_setup"}
    with pytest.raises(AttributeError, match="no attribute 'comparison'"):
        api.comparison  # noqa: B018
    assert old_random.below_nb is core_random.below_nb
    assert old_random.next_u64_nb is core_random.next_u64_nb
