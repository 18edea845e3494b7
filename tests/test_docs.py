"""README and docs say what the code does."""

import re
import shlex
from pathlib import Path

import pytest

from balance.core.errors import BalanceError
from balance.games import MODULES, get_game

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_quick_start_has_the_two_commands_ci_relies_on() -> None:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    quick = 'pip install -e ".[pages]" && balance compare walk-the-plank'
    assert blocks[0].strip().startswith(quick)
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


@pytest.mark.parametrize("game", list(MODULES))
def test_rules_table_in_docs_matches_the_parameters(game: str) -> None:
    docs = (ROOT / "docs" / f"{game}.md").read_text()
    docs = docs.split("## Rule parameters", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", docs, re.M)
    described = {row["name"]: row["default"] for row in get_game(game).describe_rules()}
    assert [name for name, _ in rows] == list(described)
    for name, default in rows:
        assert default.strip().replace(", ", ",") == described[name]


#: Commands whose line-up (``--strategy``), players, variants and rules go to make_setup.
SET_UP = ("simulate", "cards")


def shown_commands(text: str) -> list[str]:
    """The ``balance simulate`` and ``balance cards`` commands of a game that a page or
    docstring shows: lines of code blocks (continued with ``\\``) and inline code spans,
    one string each (not those with arguments left out, ``...``)."""
    text = re.sub(r"\\\n\s*", " ", text)
    spans = [
        " ".join(span.split())
        for span in re.findall(rf"(?<!`)`(balance (?:{'|'.join(SET_UP)})\b[^`]*)`", text)
    ]
    lines = re.findall(rf"^\s*(?:\$ )?(balance (?:{'|'.join(SET_UP)})\b.*)$", text, re.M)
    commands = spans + [re.split(r"\s+(?:#|&&|\||>)", line)[0].strip() for line in lines]
    return [
        command
        for command in commands
        if command.split()[2:3]
        and command.split()[2] in MODULES
        and "..." not in command.replace("--strategy ...", "")  # not an elided command
    ]


def set_up(command: str, folder: Path) -> None:
    """Parse ``command`` as the CLI does and set up its run with make_setup, as the command
    does before it plays (no game is played, nothing compiled). A strategy file that is
    not in the repository is the game's template, written into ``folder`` (the working
    directory) under that name; ``...`` or a capital letter (``A``) stands for any
    strategy."""
    from balance.api import make_setup
    from balance.authoring.strategy_tools import template
    from balance.cli import cli
    from balance.cli.options import rule_pairs

    args = shlex.split(command)
    assert args[0] == "balance" and args[1] in SET_UP, command
    params = cli.commands[args[1]].make_context(args[1], args[2:]).params
    texts = []
    for text in params["strategy_texts"]:
        found = re.fullmatch(r"(?P<file>.+?\.py):(?P<name>\w+)(?P<rest>:.*)?", text)
        if text == "..." or re.fullmatch(r"[A-Z]", text):
            text = "random"
        elif found and (ROOT / found["file"]).is_file():
            text = f"{ROOT / found['file']}:{found['name']}{found['rest'] or ''}"
        elif found and not (folder / found["file"]).is_file():
            path = folder / found["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            mine = template(params["game"])
            path.write_text(mine.replace('name="mine"', f'name="{found["name"]}"'))
        texts.append(text)
    make_setup(
        params["game"],
        params["players"],
        params["seed"],
        texts or ["random"],
        params["variants"],
        rule_pairs(params["rule_texts"], params["decks"]),
        params["rotate_seats"],
    )


@pytest.mark.parametrize("game", list(MODULES))
def test_the_template_suggests_commands_that_run(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``balance strategy new GAME > mine.py``, then the commands its docstring shows: each
    gives a valid line-up (one strategy for every seat, or one per seat)."""
    from click.testing import CliRunner

    from balance.cli import cli

    made = CliRunner().invoke(cli, ["strategy", "new", game])
    assert made.exit_code == 0, made.output
    (tmp_path / "mine.py").write_text(made.stdout)
    monkeypatch.chdir(tmp_path)
    docstring = made.stdout.split('"""', 2)[1]
    commands = shown_commands(docstring)
    assert any("mine.py:mine" in command for command in commands), docstring
    for command in commands:
        set_up(command, tmp_path)


def test_pages_and_examples_show_commands_that_set_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``balance simulate`` and ``balance cards`` command shown in the README, the
    docs, the examples and the commands' own help parses and sets up its run."""
    import click

    from balance.cli import cli

    shown = {"README.md": README}
    for path in [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*.py"))]:
        shown[str(path.relative_to(ROOT))] = path.read_text()
    commands = [("balance", cli)]
    while commands:
        name, command = commands.pop()
        if isinstance(command, click.Group):
            commands.extend((f"{name} {sub}", c) for sub, c in command.commands.items())
        shown[f"{name} --help"] = command.epilog or ""
    cards = (ROOT / "docs" / "battle-of-thieves-cards.md").read_text()
    deck = re.search(r"```toml\n(# my-deck\.toml\n.*?)```", cards, re.S).group(1)
    (tmp_path / "my-deck.toml").write_text(deck)  # the deck file the pages play
    monkeypatch.chdir(tmp_path)
    failed, checked = [], 0
    for where, text in shown.items():
        for command in shown_commands(text):
            checked += 1
            try:
                set_up(command, tmp_path)
            except (BalanceError, click.ClickException) as exc:
                failed.append(f"{where}: {command}\n    {exc}")
    assert checked >= 20
    assert not failed, "\n".join(failed)
