"""docs/strategies.md is a reference a designer writes a strategy from: each game's kit
helpers with their signatures as the code has them, its ``obs`` (or ``view``) entry by
entry, the slots and constants it indexes them with, and import lines that work.

Nothing here compiles: the helpers' signatures come from their Python functions, the
observations from the bridges that pack them for the reference engine.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from numba.core.dispatcher import Dispatcher

from balance.games import MODULES

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "strategies.md").read_text()

#: Each game's section title on the page and its package.
GAMES = {
    "walk-the-plank": ("Walk the Plank", "walk_the_plank"),
    "la-planche": ("La Planche", "la_planche"),
    "lifeboats": ("Lifeboats", "lifeboats"),
    "battle-of-thieves": ("Battle of Thieves", "battle_of_thieves"),
}

#: The slot tuples each game's arrays are indexed with, as a strategy names them: every
#: field of each must be on the page.
SLOTS = {
    "walk-the-plank": ("State", "Rule", "Card", "Weight"),
    "la-planche": ("State", "Rule"),
    "lifeboats": ("Boat", "Seat", "State", "Rule"),
    "battle-of-thieves": ("VIEW", "SIDE", "PIRATE", "STATE", "RULE", "PLAN", "EFFECT", "WEAPON"),
}
#: Each game's rules class (in ``balance.games.<game>.rules``).
RULES = {
    "walk-the-plank": "WalkThePlankRules",
    "la-planche": "LaPlancheRules",
    "lifeboats": "LifeboatsRules",
    "battle-of-thieves": "BattleRules",
}
#: Where a game's constants live besides its kit (the page imports from both).
LAYOUTS = {
    "walk-the-plank": ("moves_nb", "cards"),
    "la-planche": ("moves_nb",),
    "lifeboats": ("layout",),
    "battle-of-thieves": ("layout",),
}


def test_every_game_has_a_section() -> None:
    assert set(GAMES) == set(MODULES)


def section(game: str) -> str:
    """The page's ``### <Game>`` section, up to the next heading of its level or above."""
    title = GAMES[game][0]
    found = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^### |^## |\Z)", PAGE, re.S | re.M)
    assert found, f"docs/strategies.md has no section '### {title}'"
    return found.group(1)


def kit(game: str) -> ModuleType:
    return importlib.import_module(f"balance.games.{GAMES[game][1]}.kit")


def helpers(game: str) -> dict[str, Dispatcher]:
    """The kit's public compiled functions: what ``from ...kit import name`` gives."""
    return {
        name: value
        for name, value in vars(kit(game)).items()
        if isinstance(value, Dispatcher) and not name.startswith("_")
    }


def names(game: str) -> dict[str, object]:
    """Every name a strategy may import from the game's kit or its layout modules."""
    package = f"balance.games.{GAMES[game][1]}"
    found: dict[str, object] = {}
    for module in LAYOUTS[game]:
        found.update(vars(importlib.import_module(f"{package}.{module}")))
    found.update(vars(kit(game)))
    return found


def signature(function: Dispatcher) -> str:
    return str(inspect.signature(function.py_func))


def table(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose header row starts with ``header``."""
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


@pytest.mark.parametrize("game", list(GAMES))
def test_every_kit_helper_is_listed_with_its_signature(game: str) -> None:
    """Each public compiled function of the kit has a row ``| `name(arguments)` |`` in its
    game's kit table, its arguments exactly as the code names them; and every row names a
    helper the kit has, with that signature."""
    text = section(game)
    rows = {row[0] for row in table(text, "| helper | returns |")}
    listed = {}
    for cell in rows:
        found = re.fullmatch(r"`(\w+)(\(.*\))`", cell)
        assert found, f"{game}: a kit row that is not `name(arguments)`: {cell}"
        listed[found.group(1)] = found.group(2)
    expected = {name: signature(function) for name, function in helpers(game).items()}
    missing = sorted(f"{name}{sig}" for name, sig in expected.items() if listed.get(name) != sig)
    assert not missing, f"{game}: docs/strategies.md lists no row for: {', '.join(missing)}"
    unknown = sorted(f"{name}{sig}" for name, sig in listed.items() if expected.get(name) != sig)
    assert not unknown, f"{game}: rows for helpers the kit does not have: {', '.join(unknown)}"


@pytest.mark.parametrize("game", list(GAMES))
def test_the_helpers_outside_bounds_checks_are_named(game: str) -> None:
    """A helper compiled out of line is not covered by a strategy's bounds checks: the
    page names exactly those, or says that there are none."""
    text = " ".join(section(game).split())
    out_of_line = {
        name
        for name, function in helpers(game).items()
        if function.targetoptions.get("inline") != "always"
    }
    marker = "Compiled out of line, so outside your bounds checks:"
    if not out_of_line:
        assert marker not in text
        assert "All of them are compiled into your functions" in text
        return
    sentence = text.split(marker, 1)[1].split(".", 1)[0]
    sentence = re.sub(r"\([^)]*\)", "", sentence)  # "(and so ...)" names callers, not them
    assert set(re.findall(r"`(\w+)`", sentence)) == out_of_line


def obs_names(game: str) -> list[str]:
    """The entries of the tuple a decision receives, as the code names them."""
    package = f"balance.games.{GAMES[game][1]}"
    if game == "battle-of-thieves":
        view = importlib.import_module(f"{package}.layout").VIEW
        return [f"VIEW.{field}" for field in view._fields if field != "SIZE"]
    if game == "lifeboats":
        doc = importlib.import_module(f"{package}.layout").__doc__
        found = re.search(r"``obs``, is a tuple ``\(([^)]*)\)``", doc)
        return [name.strip() for name in found.group(1).split(",")]
    # The game loop builds it from named buffers: ``obs = (pirates, living, ...)``.
    tree = ast.parse(inspect.getsource(importlib.import_module(f"{package}.engine_nb")))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "obs"
            and isinstance(node.value, ast.Tuple)
        ):
            return [element.id for element in node.value.elts]
    raise AssertionError(f"{package}.engine_nb builds no obs tuple")


def packed_obs(game: str) -> tuple:
    """A real ``obs`` (``view``) of the game's opening position, as the bridges pack it."""
    package = f"balance.games.{GAMES[game][1]}"
    if game == "battle-of-thieves":
        from balance.games.battle_of_thieves.cards import matchup_content
        from balance.games.battle_of_thieves.engine_nb import new_position
        from balance.games.battle_of_thieves.rules import BattleRules

        rules = BattleRules()
        pos = new_position()
        return (*pos[:7], rules.to_array(), matchup_content(rules.decks).arrays())
    bridge = importlib.import_module(f"{package}.bridge")
    reference = importlib.import_module(f"{package}.reference")
    rules = getattr(importlib.import_module(f"{package}.rules"), RULES[game])()
    pos = reference.Position.start(rules, 3)
    if game == "lifeboats":
        return bridge.pack_position(pos)
    return bridge.pack_position(pos, rules)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_obs_table_is_the_tuple_the_strategy_receives(game: str) -> None:
    """Entry by entry: the index, the name the code gives it, its dtype and its number of
    dimensions."""
    rows = table(section(game), "| index | entry | type |")
    assert [(int(row[0]), row[1].strip("`")) for row in rows] == list(enumerate(obs_names(game)))
    if game == "battle-of-thieves":
        view = importlib.import_module("balance.games.battle_of_thieves.layout").VIEW
        assert [getattr(view, row[1].strip("`")[5:]) for row in rows] == list(range(len(rows)))
    packed = packed_obs(game)
    assert len(packed) == len(rows)
    for row, value in zip(rows, packed, strict=True):
        kind = row[2]
        if kind == "int":
            assert isinstance(value, int), row
            continue
        if kind.startswith("tuple of "):
            assert isinstance(value, tuple), row
            assert len(value) == int(kind.split()[2]), row
            continue
        dtype, shape = re.fullmatch(r"(int64|float64) `\((.*)\)`", kind).groups()
        assert isinstance(value, np.ndarray) and value.dtype == np.dtype(dtype), row
        assert value.ndim == len([axis for axis in shape.split(",") if axis.strip()]), row


def test_battle_of_thieves_content_table_is_the_content_tuple() -> None:
    from balance.games.battle_of_thieves.cards import matchup_content
    from balance.games.battle_of_thieves.content import ARRAY_FIELDS, C
    from balance.games.battle_of_thieves.rules import BattleRules

    rows = table(section("battle-of-thieves"), "| index | name | shape |")
    assert [(int(row[0]), row[1].strip("`")) for row in rows] == [
        (C[name], name) for name in ARRAY_FIELDS
    ]
    arrays = matchup_content(BattleRules().decks).arrays()
    for row, array in zip(rows, arrays, strict=True):
        shape = row[2].strip("`()")
        assert array.ndim == len([axis for axis in shape.split(",") if axis.strip()]), row


@pytest.mark.parametrize("game", list(GAMES))
def test_every_slot_the_page_names_exists_and_every_slot_is_named(game: str) -> None:
    text = section(game)
    known = names(game)
    for owner, field in re.findall(r"\b([A-Z][A-Za-z]*)\.([A-Z][A-Z0-9_]*)\b", text):
        assert owner in known, f"{game}: the page indexes with {owner}, which the kit has not"
        assert field in known[owner]._fields, f"{game}: {owner}.{field} does not exist"
    for owner in SLOTS[game]:
        fields = [field for field in known[owner]._fields if field != "SIZE"]
        missing = [field for field in fields if f"{owner}.{field}" not in text]
        assert not missing, f"{game}: the page does not name {owner}.{', .'.join(missing)}"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_constant_the_page_gives_a_value_has_it(game: str) -> None:
    """``NAME`` = value on the page is the value of the kit's (or layout's) ``NAME``."""
    known = names(game)
    stated = re.findall(r"`([A-Z][A-Z0-9_]*)` =\s+(-?\d+)\b", section(game))
    assert len(stated) >= 5
    wrong = [f"{name} = {value}" for name, value in stated if known.get(name) != int(value)]
    assert not wrong, f"{game}: {', '.join(wrong)}"


def test_the_import_lines_shown_work() -> None:
    """Every import in the page's Python blocks runs."""
    imports = []
    for block in re.findall(r"```python\n(.*?)```", PAGE, re.S):
        for node in ast.parse(block).body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                imports.append(ast.unparse(node))
    assert sum("kit import" in line for line in imports) >= 4
    for line in imports:
        exec(line, {})  # a name it imports that does not exist raises ImportError
