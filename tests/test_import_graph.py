"""The layers import one way: a game package (``balance/games/**``) never imports the
runner, the API or the reports, directly or through a shared module it imports, so the
game packages and the runner never import each other in a circle. Imports are read from
the source with :mod:`ast` (those inside functions too), nothing is executed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "balance"
GAMES = PACKAGE / "games"
#: The layers above the games: the runner and everything built on it.
FORBIDDEN = ("balance.run", "balance.api", "balance.report")


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


def imports(path: Path) -> set[str]:
    """Every ``balance`` module ``path`` imports, anywhere in its body, by full name (a
    ``from package import name`` counts the submodule ``package.name`` when it is one)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    found: set[str] = set()
    for node in ast.walk(tree):
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
    return {name for name in found if name == "balance" or name.startswith("balance.")}


def reaches(start: str) -> dict[str, list[str]]:
    """Every ``balance`` module reachable from ``start`` by imports, with the chain that
    reaches it."""
    chains = {start: [start]}
    todo = [start]
    while todo:
        name = todo.pop()
        path = module_path(name)
        if path is None:
            continue
        for target in sorted(imports(path)):
            if target not in chains:
                chains[target] = [*chains[name], target]
                todo.append(target)
    return chains


GAME_MODULES = sorted(module_name(path) for path in GAMES.rglob("*.py"))
#: The shipped strategies of each game (``strategies/<game>.py``).
SHIPPED_MODULES = sorted(
    module_name(path) for path in (ROOT / "strategies").glob("*.py") if path.stem != "__init__"
)


def test_the_scan_finds_imports_the_rules_forbid() -> None:
    """The parser sees a function-level import (the kind this test exists for)."""
    found = imports(PACKAGE / "restricted.py")
    assert "balance.run" in found
    assert "balance.games.base" in found
    assert "balance.games" in found
    assert "balance.core.strategy" in imports(ROOT / "strategies" / "walk_the_plank.py")
    assert "balance.games.walk_the_plank.engine_nb" in reaches("balance.strategies.walk_the_plank")
    assert len(GAME_MODULES) > 40


@pytest.mark.parametrize("module", GAME_MODULES)
def test_a_game_module_never_reaches_the_runner(module: str) -> None:
    chains = reaches(module)
    bad = {name: chain for name, chain in chains.items() if name in FORBIDDEN}
    assert not bad, "; ".join(" -> ".join(chain) for chain in bad.values())


@pytest.mark.parametrize("strategies", SHIPPED_MODULES)
def test_no_import_circle_runs_through_the_shipped_strategies(strategies: str) -> None:
    """The strategies import the kit, the kernels and the search players; none of those
    imports them back, even inside a function: the kernels take the shipped strategies'
    dispatchers from balance.core.dispatch, generated from the ``SHIPPED`` tuple."""
    chains = reaches(strategies)
    back = {
        name: chain
        for name, chain in chains.items()
        if name != strategies and strategies in reaches(name)
    }
    assert not back, "; ".join(" -> ".join([*chain, strategies]) for chain in back.values())
