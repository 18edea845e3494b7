"""The compiled code on disk follows every source it was built from, not only its own file.

Numba alone keys a cached function on the file that defines it: a game loop that inlines
a helper of another file would go on running the old helper after an edit. These tests
edit a helper in another file and see the result change, in a small package and in a
copy of balance playing real games.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import balance
from balance.core import compile_cache
from balance.core.compile_cache import PackageSourcesLocator, sources_digest
from balance.games import MODULES, get_game

ROOT = Path(balance.__file__).resolve().parent


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def test_digest_follows_every_import_and_nothing_else(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    write(pkg / "__init__.py", "")
    write(pkg / "loop.py", "from pkg.helper import step\nfrom .sub import constants\n")
    write(pkg / "helper.py", "def step():\n    from pkg import late  # deferred\n")
    write(pkg / "late.py", "X = 1\n")
    write(pkg / "sub" / "__init__.py", "")
    write(pkg / "sub" / "constants.py", "LIMIT = 3\n")
    write(pkg / "unrelated.py", "Y = 1\n")
    roots = (("pkg", pkg),)

    def digest() -> str:
        for cached in (compile_cache._digest, compile_cache._imported, compile_cache._file_digest):
            cached.cache_clear()  # read the files again, as a new process would
        return sources_digest(pkg / "loop.py", roots)

    before = digest()
    for name in ("helper.py", "late.py", "sub/constants.py", "sub/__init__.py"):
        (pkg / name).write_text((pkg / name).read_text() + "# edited\n")
        after = digest()
        assert after != before, name
        before = after
    (pkg / "unrelated.py").write_text("Y = 2\n")
    assert digest() == before


def test_every_cached_kernel_of_balance_is_keyed_by_its_imports() -> None:
    import balance.strategies as shipped
    from numba.core.registry import CPUDispatcher

    for game in MODULES:
        get_game(game)
        package = MODULES[game].rpartition(".")[0]
        importlib.import_module(f"{package}.engine_nb")  # its kernels and strategies
        importlib.import_module(f"{shipped.__name__}.{package.rpartition('.')[2]}")
    roots = compile_cache.package_roots()
    found = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("balance"):
            continue
        where = getattr(module, "__file__", None)
        # Only what the locator counts as balance's (not a test's own toy game, such as
        # tests/test_dispatch.py's, compiled elsewhere).
        if where is None or compile_cache._module_name(Path(where).resolve(), roots) is None:
            continue
        for value in vars(module).values():
            cache = getattr(value, "_cache", None)
            if not isinstance(value, CPUDispatcher) or not hasattr(cache, "_impl"):
                continue
            if value.py_func.__module__ != name:
                continue  # counted in its own module
            found += 1
            assert isinstance(cache._impl.locator, PackageSourcesLocator), name
    assert found > 100


def test_an_edited_helper_in_another_file_is_compiled_again(tmp_path: Path) -> None:
    # A package named balance in a folder of its own: its kernels use the locator.
    pkg = tmp_path / "balance"
    pkg.mkdir()
    shutil.copy(ROOT / "__init__.py", pkg / "__init__.py")
    (pkg / "core").mkdir()
    for name in ("__init__.py", "compile_cache.py", "numba_inliner.py"):
        shutil.copy(ROOT / "core" / name, pkg / "core" / name)
    write(
        pkg / "helper_nb.py",
        """
        from balance.core.compile_cache import njit

        @njit(cache=True)
        def step(x):
            return x + 1
        """,
    )
    write(
        pkg / "loop_nb.py",
        """
        from balance.core.compile_cache import njit
        from balance.helper_nb import step

        @njit(cache=True)
        def play():
            total = 0
            for i in range(10):
                total = step(total)
            return total
        """,
    )

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", "from balance.loop_nb import play; print(play())"],
            # the copy, not the installed balance
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run() == "10"
    assert list((pkg / "__pycache__").glob("loop_nb.play-*.nbi")), "the loop was not cached"
    # A longer file: Python's own bytecode cache trusts a file of the same size and second.
    (pkg / "helper_nb.py").write_text((pkg / "helper_nb.py").read_text().replace("+ 1", "+ 10"))
    assert run() == "100"


@pytest.mark.slow
def test_a_copy_of_balance_plays_an_edited_helper(tmp_path: Path) -> None:
    # The game loop of La Planche draws its chances through random_nb's helpers: change
    # how a stream is seeded and the games change, though engine_nb.py did not.
    copy = tmp_path / "balance"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT, copy, ignore=ignore)
    import balance.strategies as shipped

    shutil.copytree(Path(shipped.__path__[0]), copy / "strategies", ignore=ignore)
    script = (
        "import balance\n"
        "print(balance.__file__)\n"
        "from balance import api\n"
        "run = api.simulate('la-planche', players=3, games=200, seed=1, threads=1)\n"
        "print(run.games.to_csv(index=False))\n"
    )

    def play() -> str:
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
            timeout=900,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        where, games = done.stdout.split("\n", 1)
        assert where == str(copy / "__init__.py")  # the copy plays, not the installed one
        return games

    before = play()
    assert play() == before  # loaded from the cache: the same games
    random_nb = copy / "core" / "random_nb.py"
    text = random_nb.read_text()
    assert "0x9E3779B97F4A7C15" in text
    random_nb.write_text(text.replace("0x9E3779B97F4A7C15", "0x9E3779B97F4A7C15 ^ 2"))
    assert play() != before


def _closure(path: Path) -> set[Path]:
    """Every file of balance (and its shipped strategies) ``path`` imports, directly or not,
    deferred imports included: the files :func:`sources_digest` reads."""
    roots = compile_cache.package_roots()
    seen = {path.resolve()}
    todo = list(seen)
    while todo:
        for found in compile_cache._imported(todo.pop(), roots):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return seen


@pytest.mark.parametrize("game", list(MODULES))
def test_the_shipped_loop_is_keyed_by_every_module_it_is_built_from(game: str) -> None:
    """The shipped strategies' code is compiled as if it lived in the file declaring the
    game's dispatch: that file's digest must cover the kernels, the strategies and every
    module whose functions were compiled again with their dispatchers."""
    engine = get_game(game).engine
    dispatch = engine.DISPATCH
    loop = dispatch.kernel_for([s for s in dispatch.shipped])
    assert Path(loop.py_func.__code__.co_filename) == dispatch.home
    assert isinstance(loop._cache._impl.locator, PackageSourcesLocator)
    search = importlib.import_module(engine.__name__.rpartition(".")[0] + ".search_nb")
    dispatch.bound(search)  # the search players' playouts too
    built_from = {dispatch.module.__name__, dispatch.strategies.__name__, search.__name__}
    assert built_from <= set(dispatch.bound_modules()) | {dispatch.strategies.__name__}
    files = {Path(sys.modules[name].__file__).resolve() for name in built_from}
    assert files <= _closure(dispatch.home)


@pytest.mark.slow
@pytest.mark.parametrize("game", list(MODULES))
def test_a_second_process_loads_the_shipped_loop_from_disk(game: str) -> None:
    """The loop of the shipped strategies compiles once; a new process loads it, the
    dispatchers called out of line (Lifeboats, Battle of Thieves) included."""
    script = (
        "import sys\n"
        "from balance import api\n"
        "from balance.core.dispatch import compiled_from_cache\n"
        "from balance.games import get_game\n"
        "game = get_game(sys.argv[1])\n"
        "n = game.engine.ENGINE.min_players\n"
        "names = [s.name for s in game.engine.DISPATCH.shipped][:2] * n\n"
        "run = api.simulate(sys.argv[1], n, 10, strategies=names[:n], threads=1)\n"
        "print(compiled_from_cache(game.compiled.kernel_for(run.setup.lineup)))\n"
    )

    def play() -> str:
        done = subprocess.run(
            [sys.executable, "-c", script, game], capture_output=True, text=True, timeout=1800
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip().splitlines()[-1]

    play()  # compiles, unless an earlier process did
    assert play() == "True"
