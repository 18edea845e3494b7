"""``balance game new``: a package of a designer's own game that installs and plays as
it is, to change step by step (``docs/new-game.md``).

The package is written from the templates in ``templates/game/``: a small complete game
(Pig) with its rules, records, reference engine, compiled engine, two strategies, a rules
page and tests, renamed to the new game's id, package and title.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from pathlib import Path

from balance.core.errors import BalanceError

#: Where the template files live: each ``*.tmpl`` is written without that suffix.
TEMPLATES = Path(__file__).parent / "templates" / "game"

#: A game id: lower-case words of letters and digits joined by hyphens.
ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def package_name(game_id: str) -> str:
    """The Python package of ``game_id``: ``my-game`` becomes ``my_game``."""
    return game_id.replace("-", "_")


def new_game(game_id: str, directory: Path) -> list[Path]:
    """Write the package of a new game ``game_id`` into ``directory``.

    Parameters
    ----------
    game_id : the game's id, as commands name it (``my-game``).
    directory : where the package goes; it must not exist or be empty.

    Returns
    -------
    The files written, in ``directory``.
    """
    if not ID.fullmatch(game_id):
        raise BalanceError(
            f"game id {game_id!r}: use lower-case letters, digits and hyphens, starting "
            "with a letter (e.g. my-game)"
        )
    from balance.games import entries

    if game_id in entries():
        raise BalanceError(f"a game {game_id!r} is already installed: choose another id")
    package = package_name(game_id)
    if keyword.iskeyword(package) or importlib.util.find_spec(package) is not None:
        raise BalanceError(
            f"game id {game_id!r}: its package would be named {package!r}, which Python "
            "already uses: choose another id"
        )
    directory = Path(directory)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise BalanceError(f"{str(directory)!r} already exists and is not an empty directory")
    try:
        return _write(game_id, package, directory)
    except OSError as error:
        raise BalanceError(f"cannot write the game into {str(directory)!r}: {error}") from None


def _write(game_id: str, package: str, directory: Path) -> list[Path]:
    """Write each template file into ``directory``, renamed for the game."""
    words = {
        "{{id}}": game_id,
        "{{package}}": package,
        "{{title}}": game_id.replace("-", " ").title(),
    }
    written = []
    for template in sorted(TEMPLATES.rglob("*.tmpl")):
        relative = template.relative_to(TEMPLATES).with_suffix("")  # drops ``.tmpl``
        parts = [package if p == "package" else p for p in relative.parts]
        if relative == Path("docs/rules.md"):
            parts = ["docs", f"{game_id}.md"]
        text = template.read_text(encoding="utf-8")
        for word, value in words.items():
            text = text.replace(word, value)
        target = directory.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
