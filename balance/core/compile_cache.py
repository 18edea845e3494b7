"""Numba's on-disk cache, keyed by every source a compiled function is built from.

Numba keys a cached function on the file that defines it, alone. A game loop in
``engine_nb.py`` inlines helpers from ``kit.py``, ``moves_nb.py``, ``random_nb.py`` and the
shipped strategies, and freezes their constants: edit one of those (or pull a change to
it, with an editable install) and numba would go on loading the old loop, playing the old
rules without a word. Every kernel module of balance imports :func:`njit` from here, which
first puts :class:`PackageSourcesLocator` ahead of numba's own cache locators: for a
function defined in balance, the cache's freshness stamp is the defining file's stamp
together with a sha256 of every balance source the file imports, directly or not
(deferred imports included), so an edit to any of them compiles the function afresh.
Functions defined elsewhere (a user's strategy file, the dispatchers generated for it)
are left to numba's locators.

Importing it also makes numba's inliner copy a callee's variables once per inlining
(:mod:`balance.core.numba_inliner`): compiling a game loop takes some 40% less time.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
from pathlib import Path

from numba import njit
from numba.core import caching
from numba.core.caching import _CacheLocator

from balance.core.numba_inliner import share_scope_copies

#: The class whose ``_locator_classes`` numba tries in order (renamed in numba 0.62).
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl

__all__ = ["PackageSourcesLocator", "njit", "sources_digest"]

#: ``from X import a, b`` (parenthesised over lines or not) and ``import X, Y as Z``,
#: at any indentation: deferred imports count, and a false match only adds a file.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)|import[ \t]+([^\n#]+))",
    re.MULTILINE,
)


@functools.cache
def package_roots() -> tuple[tuple[str, Path], ...]:
    """``(package name, directory)`` of balance and of its shipped strategies (installed
    as ``balance.strategies`` from their own folder), the strategies first."""
    here = Path(__file__).resolve().parents[1]  # balance/, above balance/core/
    roots = [("balance", here)]
    spec = importlib.util.find_spec("balance.strategies")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            roots.insert(0, ("balance.strategies", Path(location).resolve()))
    return (*_game_package_roots(), *roots)


def _game_package_roots() -> list[tuple[str, Path]]:
    """``(package, directory)`` of every installed game package besides balance (those
    registered in the ``balance.games`` entry point group), found without importing them:
    a designer's engine is keyed on its own helpers as balance's are."""
    from importlib import metadata

    roots = []
    for point in metadata.entry_points(group="balance.games"):
        top = point.value.split(":")[0].split(".")[0]
        if top == "balance":
            continue
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):  # a broken package: the registry says so
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            roots.append((top, Path(location).resolve()))
    return roots


def _module_name(path: Path, roots: tuple[tuple[str, Path], ...]) -> str | None:
    """The dotted name ``path`` is imported under, or None outside ``roots``."""
    for package, root in roots:
        if path.is_relative_to(root):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join([package, *parts])
    return None


@functools.cache
def _module_file(name: str, roots: tuple[tuple[str, Path], ...]) -> Path | None:
    """The source file of module ``name`` under ``roots``, or None (outside, or no file)."""
    for package, root in roots:
        if name != package and not name.startswith(package + "."):
            continue
        rest = name[len(package) + 1 :].split(".") if name != package else []
        module = [root.joinpath(*rest).with_suffix(".py")] if rest else []
        for candidate in (*module, root.joinpath(*rest, "__init__.py")):
            if candidate.is_file():
                return candidate
        return None
    return None


@functools.cache
def _imported(path: Path, roots: tuple[tuple[str, Path], ...]) -> frozenset[Path]:
    """The files of ``roots`` that ``path`` imports, and the packages' ``__init__`` files
    those imports run."""
    own = _module_name(path, roots)
    if own is None:
        return frozenset()
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    names: set[str] = set()
    for source, listed, plain in _IMPORT.findall(path.read_text(encoding="utf-8")):
        if plain:
            names.update(item.split(" as ")[0].strip() for item in plain.split(","))
            continue
        if source.startswith("."):
            dots = len(source) - len(source.lstrip("."))
            base = package.split(".")[: len(package.split(".")) - (dots - 1)]
            source = ".".join([*base, source.lstrip(".")]).rstrip(".")
        names.add(source)
        for item in listed.strip("()").replace("\n", " ").split(","):
            item = item.split(" as ")[0].strip()
            if item and item != "*":
                names.add(f"{source}.{item}")  # a submodule, when it is one
    files = set()
    for name in names:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):  # the packages on the way run their __init__
            found = _module_file(".".join(parts[:end]), roots)
            if found is not None:
                files.add(found)
    return frozenset(files)


def sources_digest(path: Path, roots: tuple[tuple[str, Path], ...] | None = None) -> str:
    """sha256 of ``path`` and of every file of ``roots`` (default: balance and its shipped
    strategies) it imports, directly or not, each with its path relative to its root."""
    roots = package_roots() if roots is None else roots
    return _digest(Path(path).resolve(), roots)


@functools.cache
def _digest(path: Path, roots: tuple[tuple[str, Path], ...]) -> str:
    seen = {path}
    todo = [path]
    while todo:
        for found in _imported(todo.pop(), roots):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    digest = hashlib.sha256()
    for name, found in sorted((_module_name(f, roots) or str(f), f) for f in seen):
        digest.update(name.encode() + b"\0" + _file_digest(found))
    return digest.hexdigest()


@functools.cache
def _file_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


class PackageSourcesLocator(_CacheLocator):
    """Numba's own locator for a function of balance (where its cache lives), with a
    freshness stamp that also covers every balance source its file imports."""

    #: numba's locators, tried in their order for where the cache lives.
    numba_locators: tuple[type[_CacheLocator], ...] = ()

    def __init__(self, inner: _CacheLocator, py_file: str) -> None:
        self._inner = inner
        self._py_file = py_file

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self) -> tuple[object, str]:
        return self._inner.get_source_stamp(), sources_digest(Path(self._py_file))

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file: str) -> PackageSourcesLocator | None:
        path = Path(py_file)
        if not path.is_file() or _module_name(path.resolve(), package_roots()) is None:
            return None
        for locator in cls.numba_locators:
            inner = locator.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, py_file)
        return None


def install() -> None:
    """Put :class:`PackageSourcesLocator` first among numba's cache locators (once)."""
    locators = _CACHE_IMPL._locator_classes
    if PackageSourcesLocator not in locators:
        PackageSourcesLocator.numba_locators = tuple(locators)
        locators.insert(0, PackageSourcesLocator)


install()
share_scope_copies()
