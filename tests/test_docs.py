"""README and docs say what the code does."""

import re
from pathlib import Path

import pytest

from balance.games import get_game

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_quick_start_has_the_two_commands_ci_relies_on() -> None:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    assert blocks[0].strip().startswith("pip install -e . && balance compare walk-the-plank")
    assert "--out reports/" in blocks[0]
    assert blocks[1].strip() == 'pip install -e ".[test]" && pytest -n auto'
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install --quiet -e ".[test]"' in ci
    assert "\npytest -n auto\n" in ci


def test_readme_strategy_example_is_the_example_file() -> None:
    shown = README.split("This is `examples/cautious.py`:", 1)[1]
    code = re.search(r"```python\n(.*?)```", shown, re.S).group(1)
    assert code.strip() in (ROOT / "examples" / "cautious.py").read_text()


@pytest.mark.parametrize("game", ["walk-the-plank", "la-planche", "lifeboats", "battle-of-thieves"])
def test_rules_table_in_docs_matches_the_parameters(game: str) -> None:
    docs = (ROOT / "docs" / f"{game}.md").read_text()
    docs = docs.split("## Rule parameters", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", docs, re.M)
    described = {row["name"]: row["default"] for row in get_game(game).describe_rules()}
    assert [name for name, _ in rows] == list(described)
    for name, default in rows:
        assert default.strip().replace(", ", ",") == described[name]
