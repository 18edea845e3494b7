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


def test_quick_start_says_how_long_each_command_takes() -> None:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    after_analysis, after_tests = section.split("```bash", 2)[1:]
    assert re.search(r"about \d+ s on two cores", after_analysis)
    assert re.search(r"about \d+ minutes from a fresh clone, compiling", after_tests)
    assert "`pytest -n auto -m slow`, about" in after_tests


def test_readme_fits_on_a_screen_and_links_pages_that_exist() -> None:
    assert len(README.splitlines()) <= 200
    linked = set(re.findall(r"docs/[\w-]+\.md", README))
    assert {"docs/command-line.md", "docs/reports.md", "docs/python-api.md"} <= linked
    for page in linked:
        assert (ROOT / page).is_file(), page


def test_command_tour_lists_real_commands() -> None:
    from balance.cli import cli

    tour = README.split("## Command tour", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^- `balance ([\w-]+)[^`]*`: ", tour, re.M)
    assert len(items) >= 10
    assert set(items) <= set(cli.commands)
    listed = set(items) | {"deck"}  # deck's subcommands share one line
    missing = sorted(set(cli.commands) - listed)
    assert not missing, f"README's command tour needs a line for: {', '.join(missing)}"


def test_strategy_page_example_is_the_example_file() -> None:
    page = (ROOT / "docs" / "strategies.md").read_text()
    shown = page.split("This is `examples/cautious.py`:", 1)[1]
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
