"""A designer's own strategy: compiled once per version of its file, its mistakes reported in
a few lines naming the decision, file and line, ``--debug`` playing it as Python on the
reference engine with the same results, and ``balance strategy new/check``.

The tests that compile a whole game loop with a user's strategy (a minute or more) are
slow; each has a fast counterpart that checks the same thing without the game loop.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import call_main, invoke

from balance import api
from balance.authoring.strategy_tools import template
from balance.core.errors import BalanceError
from balance.core.game import Setup
from balance.core.strategy import BOUNDS_CHECK_ENV, load_strategy_file, strategy_origin
from balance.games import MODULES, get_game
from balance.run.results import json_safe
from balance.run.strategy_check import (
    check_decisions,
    debug_lineup,
    first_failing_game,
    runtime_error,
)

GAMES = tuple(MODULES)

#: A small La Planche strategy: its functions compile alone in about a second.
PLAIN = """
from balance.games.la_planche.kit import below_nb, njit
from balance.strategy import Strategy


@njit{options}
def symbol(obs, seat, colour, first, second, params, rng):
    return below_nb(rng, 2)


@njit{options}
def choose(obs, seat, colour, symbol, opt_a, opt_b, count, params, rng):
    {body}


plain = Strategy("la-planche", "plain", "Random.", {{"symbol": symbol, "choose": choose}})
"""


def plain(tmp_path: Path, body: str = "return below_nb(rng, count)", options: str = "") -> Path:
    path = tmp_path / "plain.py"
    path.write_text(PLAIN.format(body=body, options=options))
    return path


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Compiled user strategies go to a directory of the test's own."""
    directory = tmp_path_factory.mktemp("balance-cache")
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(directory))
    return directory


def check_error(monkeypatch, capsys, path: Path, name: str, *fragments: str) -> str:
    """``balance strategy check`` of a broken file: a short message and exit code 2."""
    code, out, err = call_main(
        monkeypatch, capsys, "strategy", "check", f"{path}:{name}", "--game", "la-planche"
    )
    assert code == 2, (code, err)
    assert out == "" and "Traceback" not in err and err.startswith("error: ")
    assert 1 <= err.count("\n") <= 4, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


# --- each kind of mistake: a short message naming the decision, file and line -------------


def test_a_syntax_error_names_the_file_and_line(monkeypatch, capsys, tmp_path: Path) -> None:
    path = plain(tmp_path, body="return below_nb(rng, count))")
    check_error(monkeypatch, capsys, path, "plain", f"{path.resolve()}, line 13", "SyntaxError")


def test_an_undefined_name_names_decision_file_line_and_name(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    path = plain(tmp_path, body="return below_nb(rng, cuont)")
    err = check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        "strategy 'plain', decision 'choose'",
        f"({path.resolve()}, line 13)",
        "uses the name 'cuont', which is not defined",
    )
    assert err.splitlines()[1].strip() == "return below_nb(rng, cuont)"


def test_a_float_answer_is_caught_before_the_game_loop_compiles(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    path = plain(tmp_path, body="return 0.5")
    check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        f"choose ({path.resolve()}, line 13) returns a float; return the index of an "
        "option, an integer from 0 to count-1",
    )


@pytest.mark.parametrize(
    ("body", "wrong", "says"),
    [
        (
            "return int(statistics.mean([1, 2]))",
            "statistics.mean",
            "calls statistics.mean, from a Python library compiled code cannot call: use "
            "numpy's functions on arrays, or write it as a loop",
        ),
        (
            "x = [1]\n    x.append('a')\n    return 0",
            "x.append",
            "adds to a list of int64 an item of another type: a list holds one type",
        ),
        (
            "d = {}\n    d[1] = 2\n    d['a'] = 3\n    return 0",
            "d['a']",
            "stores in a dict of int64 keys and int64 values a key or a value of another "
            "type: a dict's keys have one type, its values one type",
        ),
        (
            "return int(np.mean([1, 2]))",
            "np.mean",
            "calls mean on a list: make it a numpy array first (np.array)",
        ),
    ],
    ids=["python library", "list of two types", "dict of two types", "numpy on a list"],
)
def test_common_numba_refusals_say_what_to_use_instead(
    monkeypatch, capsys, tmp_path: Path, body: str, wrong: str, says: str
) -> None:
    path = plain(tmp_path, body=body)
    path.write_text("import statistics\n\nimport numpy as np\n" + path.read_text())
    lines = path.read_text().splitlines()
    line = next(k for k, text in enumerate(lines, 1) if wrong in text)  # the wrong line
    check_error(monkeypatch, capsys, path, "plain", f"({path.resolve()}, line {line})", says)


@pytest.mark.parametrize(
    ("body", "line", "says"),
    [
        ("if count > 2:\n        return 0\n    return 0.5", 15, "returns a float"),
        ("if count > 2:\n        return 0\n    return count > 1", 15, "returns True or False"),
        ("if count > 2:\n        return 0", 13, "returns nothing (None) on a path through"),
    ],
    ids=["float", "bool", "nothing"],
)
def test_a_wrong_return_among_several_is_named_at_its_own_line(
    monkeypatch, capsys, tmp_path: Path, body: str, line: int, says: str
) -> None:
    # numba unifies a bool or a float on one path with the integers of the others: each
    # return is checked as written, before the game loop compiles
    path = plain(tmp_path, body=body)
    check_error(monkeypatch, capsys, path, "plain", f"({path.resolve()}, line {line})", says)


def with_helpers(path: Path, helpers: str) -> Path:
    """``path`` with ``helpers`` (functions and module-level names) between its imports
    and its decisions."""
    text = path.read_text()
    at = text.index("@njit")
    path.write_text(text[:at] + textwrap.dedent(helpers).strip() + "\n\n\n" + text[at:])
    return path


def line_of(path: Path, text: str) -> int:
    """The number of the first line of ``path`` that holds ``text``."""
    lines = path.read_text().splitlines()
    return next(k for k, line in enumerate(lines, 1) if text in line)


#: A helper without @njit, called by a compiled helper.
UNCOMPILED = """
def pick(rng, count):
    return below_nb(rng, count)


@njit
def middle(rng, count):
    return pick(rng, count)
"""


@pytest.mark.parametrize(
    "call", ["pick(rng, count)", "middle(rng, count)"], ids=["directly", "through a helper"]
)
def test_a_helper_without_njit_is_named_at_its_def(
    monkeypatch, capsys, tmp_path: Path, call: str
) -> None:
    # numba names the line that calls it, in the decision's helper chain: the helper's
    # own def is what lacks the decorator
    path = with_helpers(plain(tmp_path, body=f"return {call}"), UNCOMPILED)
    line = line_of(path, "def pick(")
    err = check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        "strategy 'plain', decision 'choose': pick "
        f"({path.resolve()}, line {line}) has no @njit: put @njit on the line above its def",
    )
    assert err.splitlines()[1].strip() == "def pick(rng, count):"


def test_an_undefined_name_in_a_helper_is_named_at_its_line(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    # numba loses the helper's line here, and names the helper it was typing
    helper = "@njit\ndef pick(rng, count):\n    k = 1\n    return below_nb(rng, cuont)"
    path = with_helpers(plain(tmp_path, body="return pick(rng, count)"), helper)
    line = line_of(path, "cuont")
    check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        f"pick ({path.resolve()}, line {line}) does not compile: uses the name 'cuont', "
        "which is not defined",
    )


#: Module-level Python containers, and a compiled helper that reads them.
GLOBALS = """
WEIGHTS = [1, 2, 3]
TABLE = {1: 2}


@njit
def weight(k):
    w = 0
    w += WEIGHTS[k % 3]
    return w


@njit
def table(k):
    return TABLE[1] + k
"""


@pytest.mark.parametrize(
    ("body", "reader", "wrong", "says"),
    [
        (
            "return WEIGHTS[count % 3] % count",
            "choose",
            "WEIGHTS[count",
            "reads WEIGHTS, a Python list outside the function, which compiled code "
            "cannot read: make it a tuple",
        ),
        (
            "return weight(count) % count",
            "weight",
            "WEIGHTS[k",
            "reads WEIGHTS, a Python list outside the function, which compiled code "
            "cannot read: make it a tuple",
        ),
        (
            "return table(count) % count",
            "table",
            "TABLE[1]",
            "reads TABLE, a Python dict outside the function, which compiled code cannot read: ",
        ),
    ],
    ids=["list in the decision", "list in a helper", "dict in a helper"],
)
def test_a_global_list_is_named_where_it_is_read(
    monkeypatch, capsys, tmp_path: Path, body: str, reader: str, wrong: str, says: str
) -> None:
    path = with_helpers(plain(tmp_path, body=body), GLOBALS)
    line = line_of(path, wrong)
    check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        f"{reader} ({path.resolve()}, line {line}) does not compile: {says}",
        "numpy array",
    )


#: A compiled helper with a dict of two key types and one that imports.
REFUSED = """
@njit
def mixed(k):
    e = {"b": 2, 3: 4}
    return e["b"] + k


@njit
def imports(k):
    import cmath
    return k
"""

MIXED_DICT = "builds a dict whose keys or values are of two types: a dict has one type of key"
IMPORT = "imports inside a compiled function: move the import to the top of the file"


@pytest.mark.parametrize(
    ("body", "function", "wrong", "says"),
    [
        ('d = {1: 2, "a": 3}\n    return d[1] % count', "choose", "d = {1: 2, ", MIXED_DICT),
        ('d = {1: 2, 2: "a"}\n    return d[1] % count', "choose", "d = {1: 2, 2:", MIXED_DICT),
        ("return mixed(count) % count", "mixed", "e = {", MIXED_DICT),
        ("import math\n    return below_nb(rng, count)", "choose", "    import math", IMPORT),
        ("from math import floor\n    return below_nb(rng, count)", "choose", "from m", IMPORT),
        ("return imports(count) % count", "imports", "import cmath", IMPORT),
    ],
    ids=[
        "dict keys",
        "dict values",
        "dict in a helper",
        "import",
        "from import",
        "import in a helper",
    ],
)
def test_a_dict_of_two_types_and_an_import_are_named_at_their_line(
    monkeypatch, capsys, recwarn, tmp_path: Path, body: str, function: str, wrong: str, says: str
) -> None:
    path = with_helpers(plain(tmp_path, body=body), REFUSED)
    line = line_of(path, wrong)
    err = check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        f"{function} ({path.resolve()}, line {line}) does not compile: {says}",
    )
    assert wrong.strip() in err.splitlines()[1]
    # nothing above the error: numba's warning of an unsafe cast into the dict says less
    assert [w.message for w in recwarn if w.category.__module__.startswith("numba")] == []


def test_a_wrong_number_of_arguments_names_the_expected_ones(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    path = plain(tmp_path)
    path.write_text(path.read_text().replace("count, params, rng):", "count, params):"))
    check_error(
        monkeypatch,
        capsys,
        path,
        "plain",
        "takes 8 arguments; it must take 9: obs, seat, colour, symbol, opt_a, opt_b, count, "
        "params, rng",
        "line 12",
    )


def test_the_first_failing_game_is_found_by_halving_the_block() -> None:
    failing = {11, 12, 40}

    def play(first: int, size: int) -> None:
        if failing & set(range(first, first + size)):
            raise ZeroDivisionError("division by zero")

    assert first_failing_game(play, 0, 64) == 11
    assert first_failing_game(play, 13, 51) == 40


def test_a_run_time_exception_is_traced_to_its_line_in_python(tmp_path: Path) -> None:
    # The compiled loop says only which exception; its game is played again as Python.
    path = plain(tmp_path, body="return count // (count - count)")
    setup = api.make_setup("la-planche", 2, 0, [f"{path}:plain", "random"])
    error = runtime_error(setup, 3, ZeroDivisionError("division by zero"))
    assert str(error).splitlines() == [
        f"strategy 'plain', decision 'choose': choose ({path.resolve()}, line 13) failed in "
        "game 3: ZeroDivisionError: integer division or modulo by zero",
        "    return count // (count - count)",
    ]


def test_debug_names_the_failing_game_and_line_in_one_line(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    # played as Python, an exception is one line naming the game, file and line, as in
    # the compiled run; --traceback shows Python's own above it
    path = plain(tmp_path, body="return count // (count - count)")
    args = ["simulate", "la-planche", "-p", "2", "-g", "20", "--debug"]
    args += ["--strategy", f"{path}:plain", "--strategy", "random"]
    code, _, err = call_main(monkeypatch, capsys, *args)
    assert code == 2 and "Traceback" not in err and err.count("\n") <= 3, err
    assert f"choose ({path.resolve()}, line 13) failed in game 0: ZeroDivisionError" in err
    code, _, err = call_main(monkeypatch, capsys, *args, "--traceback")
    assert code == 2 and "Traceback (most recent call last)" in err, err
    assert f'File "{path.resolve()}", line 13, in choose' in err
    assert "error: strategy 'plain', decision 'choose'" in err


@pytest.mark.slow
def test_a_run_time_exception_in_the_compiled_loop_is_one_short_message(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    path = plain(tmp_path, body="return count // (count - count)")
    code, _, err = call_main(
        monkeypatch,
        capsys,
        "simulate",
        "la-planche",
        "-p",
        "2",
        "-g",
        "50",
        "--strategy",
        f"{path}:plain",
        "--strategy",
        "random",
    )
    assert code == 2 and "Traceback" not in err
    assert f"choose ({path.resolve()}, line 13) failed in game 0: ZeroDivisionError" in err


# --- bounds checks ---------------------------------------------------------------------------

PEEK = """
@njit
def peek(values, k):
    return values[k]


@njit
def peek_twice(values, k):
    return peek(values, k) + peek(values, 0)
"""


def test_a_user_file_is_compiled_with_bounds_checks(tmp_path: Path, monkeypatch) -> None:
    # an index past the end raises instead of reading memory after the array, in the
    # decisions and in every other compiled function of the file (helpers included)
    monkeypatch.delenv(BOUNDS_CHECK_ENV, raising=False)
    path = plain(tmp_path)
    path.write_text(path.read_text() + PEEK)
    strategy = load_strategy_file(path, "plain", "la-planche")
    origin = strategy_origin(strategy)
    assert origin is not None
    module = sys.modules[origin.module]
    values = np.arange(3)
    assert module.peek_twice(values, 2) == 2
    with pytest.raises(IndexError):
        module.peek_twice(values, 3)
    for function in strategy.decisions.values():
        assert function.targetoptions["boundscheck"] is True
    dispatch = get_game("la-planche").engine.DISPATCH
    checked_key = dispatch.strategy_key(strategy)
    # turned off (balance --no-bounds-check): another module, other compiled functions
    monkeypatch.setenv(BOUNDS_CHECK_ENV, "0")
    unchecked = load_strategy_file(path, "plain", "la-planche")
    again = strategy_origin(unchecked)
    assert again is not None and again.module == origin.module + "_unchecked"
    assert not unchecked.decisions["choose"].targetoptions.get("boundscheck")
    assert dispatch.strategy_key(unchecked) != checked_key


def test_no_bounds_check_is_a_flag_of_balance(monkeypatch) -> None:
    monkeypatch.delenv(BOUNDS_CHECK_ENV, raising=False)
    invoke("--no-bounds-check", "strategy", "new", "la-planche")
    assert os.environ[BOUNDS_CHECK_ENV] == "0"


@pytest.mark.slow
def test_an_index_out_of_range_stops_the_run_naming_its_line(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    monkeypatch.delenv(BOUNDS_CHECK_ENV, raising=False)
    path = plain(tmp_path, body="return opt_a[count + 200] % count")
    for command in (
        ["simulate", "la-planche", "-p", "2", "-g", "500"],
        ["strategy", "check"],
    ):
        args = [*command, "--strategy", f"{path}:plain", "--strategy", "random"]
        if command[0] == "strategy":
            args = [*command, f"{path}:plain", "--game", "la-planche"]
        code, _, err = call_main(monkeypatch, capsys, *args)
        assert code == 2 and "Traceback" not in err and err.count("\n") <= 3, err
        assert f"choose ({path.resolve()}, line 13) failed in game" in err
        assert "IndexError: index" in err and "out of bounds" in err


@pytest.mark.parametrize(
    ("body", "line", "quoted"),
    [
        ("obs[0][0] = 3\n    return 0", 13, "obs[0][0] = 3"),
        # inside a kit helper that writes into its arguments: the user's call is named
        (
            "apply_option_nb(obs[0], obs[1], obs[2], symbol, opt_a[0], opt_b[0])\n    return 0",
            13,
            "apply_option_nb(obs[0], obs[1]",
        ),
        ("return below_nb(opt_a, count)", 13, "below_nb(opt_a, count)"),  # an option as rng
    ],
)
def test_writing_into_the_games_arrays_is_refused_at_its_line(
    monkeypatch, capsys, tmp_path: Path, body: str, line: int, quoted: str
) -> None:
    path = plain(tmp_path, body=body)
    text = path.read_text().replace("import below_nb,", "import apply_option_nb, below_nb,")
    path.write_text(text)
    err = check_error(monkeypatch, capsys, path, "plain", f"line {line})", "game's own arrays")
    assert quoted in err
    args = ["simulate", "la-planche", "-p", "2", "-g", "50", "--strategy", f"{path}:plain"]
    code, _, err = call_main(monkeypatch, capsys, *args, "--strategy", "random")
    assert code == 2 and f"line {line})" in err and "game's own arrays" in err, err


def test_the_scratch_buffers_stay_writable(tmp_path: Path) -> None:
    body = "obs[7][:] = obs[0]\n    obs[9][0] = 1.5\n    return below_nb(rng, count)"
    path = plain(tmp_path, body=body)
    out = invoke("strategy", "check", f"{path}:plain", "--game", "la-planche")
    assert out.startswith("ok: plain compiles")


def test_the_file_is_imported_under_a_name_fixed_by_its_content(tmp_path: Path) -> None:
    path = plain(tmp_path)
    first = strategy_origin(load_strategy_file(path, "plain", "la-planche"))
    again = strategy_origin(load_strategy_file(path, "plain", "la-planche"))
    assert first is not None and again is not None
    assert first.module == again.module and first.module.startswith("balance_user_")
    path.write_text(path.read_text().replace("Random.", "Random!"))
    edited = strategy_origin(load_strategy_file(path, "plain", "la-planche"))
    assert edited is not None and edited.module != first.module
    # a comment: the same name (numba's cached functions find it again), imported afresh
    path.write_text(path.read_text() + "\n# a comment\n")
    commented = load_strategy_file(path, "plain", "la-planche")
    origin = strategy_origin(commented)
    assert origin is not None and origin.module == edited.module
    assert origin.digest != edited.digest
    assert sys.modules[origin.module].__balance_digest__ == origin.digest


def test_cache_true_in_a_user_file_loads_again_without_a_crash(tmp_path: Path) -> None:
    # numba's cache rebuilds a function by importing its module by name: a file imported
    # under a new name each process crashed the second run. Loaded again (as a new
    # process would, under the same name), the function comes from numba's cache.
    import sys

    path = plain(tmp_path, options="(cache=True)")
    strategy = load_strategy_file(path, "plain", "la-planche")
    check_decisions(strategy)
    origin = strategy_origin(strategy)
    assert origin is not None
    del sys.modules[origin.module]  # as if this were the next process
    again = load_strategy_file(path, "plain", "la-planche")
    assert again is not strategy
    check_decisions(again)
    assert again.decisions["choose"].stats.cache_hits


# --- compiled once per version of the file --------------------------------------------------


def test_the_cache_key_follows_the_code_not_its_comments(tmp_path: Path) -> None:
    dispatch = get_game("la-planche").engine.DISPATCH
    path = plain(tmp_path)
    key = dispatch.strategy_key(load_strategy_file(path, "plain", "la-planche"))
    again = dispatch.strategy_key(load_strategy_file(path, "plain", "la-planche"))
    assert key is not None and key == again
    text = path.read_text()
    # a comment, a docstring, blank lines: the same compiled functions
    commented = text.replace("@njit\ndef choose(", "# a comment\n\n\n@njit\ndef choose(", 1)
    commented = commented.replace(
        "):\n    return below_nb", '):\n    """Says why."""\n    return below_nb', 1
    )
    assert commented != text
    path.write_text(commented)
    assert dispatch.strategy_key(load_strategy_file(path, "plain", "la-planche")) == key
    path.write_text(text.replace("return below_nb(rng, count)", "return below_nb(rng, count - 1)"))
    edited = dispatch.strategy_key(load_strategy_file(path, "plain", "la-planche"))
    assert edited != key
    built = dataclasses.replace(load_strategy_file(path, "plain", "la-planche"))
    assert dispatch.strategy_key(built) is None  # not from a file: compiled in memory


@pytest.mark.slow
def test_a_second_run_of_an_unchanged_file_loads_its_functions(tmp_path: Path) -> None:
    path = plain(tmp_path)
    strategies = [f"{path}:plain", "random"]
    first = api.simulate("la-planche", 2, 200, strategies=strategies, threads=1)
    assert first.result.compiled
    dispatch = get_game("la-planche").engine.DISPATCH
    mine = first.setup.lineup.seats[0].strategy
    assert dispatch.from_cache(mine) is False
    dispatch.forget()  # its functions join the loop again, as in a new process
    second = api.simulate("la-planche", 2, 200, strategies=strategies, threads=1)
    assert not second.result.compiled
    assert dispatch.from_cache(second.setup.lineup.seats[0].strategy) is True
    np.testing.assert_array_equal(
        np.concatenate([b.won for b in first.result.blocks]),
        np.concatenate([b.won for b in second.result.blocks]),
    )


# --- --debug: the same games, the strategy as Python -----------------------------------------


#: A Walk the Plank strategy that compiles alone in a second (the template's evaluator
#: takes most of a minute): the fast tests' stand-in for its template.
QUICK_WALK = """
from balance.games.walk_the_plank.kit import below_nb, njit, random_program_nb
from balance.strategy import Strategy


@njit
def program(obs, seat, available, params, rng, out):
    random_program_nb(available, rng, out)


@njit
def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return count - 1 if obs[1][seat] > 2 else below_nb(rng, count)


mine = Strategy("walk-the-plank", "mine", "Quick.", {"program": program, "choose": choose})
"""


def quick_file(game: str, tmp_path: Path) -> Path:
    """A strategy file named ``mine`` for ``game``: its template, or for Walk the Plank a
    strategy that compiles faster."""
    path = tmp_path / "mine.py"
    path.write_text(QUICK_WALK if game == "walk-the-plank" else template(game))
    return path


def reference_records(setup: Setup, games: int) -> list:
    game = get_game(setup.game)
    return [game.narrate(setup, g, lambda line: None) for g in range(games)]


@pytest.mark.parametrize("game", GAMES)
def test_debug_plays_the_same_games_as_the_compiled_functions(game: str, tmp_path: Path) -> None:
    # Fast counterpart of the compiled-run comparison: on the reference engine, the
    # template's functions as Python give the games its compiled functions give.
    path = quick_file(game, tmp_path)
    players = 2 if game != "lifeboats" else 3
    setup = api.make_setup(
        game,
        players,
        5,
        [f"{path}:mine", "random"][:players] + ["random"] * (players - 2),
        rotate_seats=True,
    )
    debug = dataclasses.replace(setup, lineup=debug_lineup(setup.lineup))
    assert reference_records(debug, 4) == reference_records(setup, 4)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_debug_run_equals_the_compiled_run(game: str, tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(template(game))
    players = 2 if game != "lifeboats" else 3
    strategies = [f"{path}:mine"] + ["random"] * (players - 1)
    compiled = api.simulate(game, players, 60, seed=7, strategies=strategies, threads=1)
    debug = api.simulate(game, players, 60, seed=7, strategies=strategies, debug=True)
    for a, b in zip(compiled.result.blocks, debug.result.blocks, strict=True):
        for name in ("won", "length", "finished"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert a.extra.keys() == b.extra.keys()
        for name in a.extra:
            np.testing.assert_array_equal(a.extra[name], b.extra[name], err_msg=name)
    # The summaries too, but for their timings (NaN, for a card never played, as null).
    timing = ("games_per_s", "elapsed_s")
    without = [
        json_safe({k: v for k, v in r.summary().items() if k not in timing})
        for r in (compiled, debug)
    ]
    assert without[0] == without[1]


@pytest.mark.parametrize("game", GAMES)
def test_the_template_plays_better_than_random(game: str, tmp_path: Path) -> None:
    # a template is an example to start from: what its description says it does must
    # show against random players (seats rotated), not be random play under another name
    path = tmp_path / "mine.py"
    path.write_text(template(game))
    players = 2 if game in ("la-planche", "battle-of-thieves") else 3
    strategies = [f"{path}:mine"] + ["random"] * (players - 1)
    run = api.simulate(
        game, players, 150, seed=5, strategies=strategies, debug=True, rotate_seats=True
    )
    rates = {row["strategy"]: row for row in run.summary()["strategy_win_rate"]}
    assert rates["mine"]["ci95"][0] > rates["random"]["ci95"][1], rates


def test_debug_reports_a_float_answer_in_plain_words(tmp_path: Path) -> None:
    path = plain(tmp_path, body="return 0.5")
    with pytest.raises(BalanceError, match=re.escape("returned a float; return the index")):
        api.simulate("la-planche", 2, 5, strategies=[f"{path}:plain", "random"], debug=True)


# --- balance strategy new / check ------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [pytest.param("walk-the-plank", marks=pytest.mark.slow), *GAMES[1:]],
)
def test_every_template_type_checks(game: str, tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(template(game))
    strategy = load_strategy_file(path, "mine", game)
    get_game(game).check_strategy(strategy)
    check_decisions(strategy)


def test_strategy_new_prints_the_template(monkeypatch, capsys) -> None:
    assert invoke("strategy", "new", "lifeboats") == template("lifeboats")
    code, _, err = call_main(monkeypatch, capsys, "strategy", "new", "chess")
    assert code == 2 and "unknown game 'chess'" in err


@pytest.mark.slow
def test_strategy_check_says_ok(monkeypatch, capsys, tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(template("la-planche"))
    out = invoke("strategy", "check", f"{path}:mine", "--game", "la-planche")
    assert out.startswith("ok: mine compiles, and plays 100 games against random at 2 players")
    assert "base rules, then again with every variant (rounds)" in out
    assert re.search(
        r"won \d+ of 100 games of the base rules \(\d+%, 95% interval \d+% to \d+%", out
    )


@pytest.mark.slow
def test_strategy_check_plays_the_decisions_only_a_variant_asks(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    """Walk the Plank's base game never asks 'push' (the dolphin die does): a strategy
    whose push answers out of range passes the base rules and fails the check."""
    path = tmp_path / "mine.py"
    text = template("walk-the-plank")
    start = text.index("def push(")
    body = text.index("    return", start)
    end = text.index("\n", body)
    path.write_text(text[:body] + "    return count + 5" + text[end:])
    code, out, err = call_main(
        monkeypatch, capsys, "strategy", "check", f"{path}:mine", "--game", "walk-the-plank"
    )
    assert code == 2 and out == "" and "Traceback" not in err
    error = err[err.index("error: ") :]  # after the line that says the loop compiles
    assert error.startswith("error: with every variant (ghost, dolphin, kraken): ")
    assert "'push'" in error and error.count("\n") <= 3


def test_strategy_check_plays_every_variant_after_the_base_rules(
    monkeypatch, tmp_path: Path
) -> None:
    """The check's runs, without playing: the base rules on both engines, then every
    variant at once; an error in the variant run says so."""
    from balance.authoring import strategy_tools

    path = tmp_path / "mine.py"
    path.write_text(template("walk-the-plank"))
    asked: list[tuple[tuple[str, ...], bool]] = []

    class Played:
        blocks = ()

    def run_games(setup, games, **kwargs):
        asked.append((tuple(setup.rules.variants), setup.debug))
        if setup.rules.variants and not setup.debug:
            raise BalanceError("strategy 'mine' (seat 0) made an illegal 'push' decision")
        return Played()

    monkeypatch.setattr(strategy_tools, "run_games", run_games)
    with pytest.raises(BalanceError, match=r"^with every variant \(ghost, dolphin, kraken\): "):
        strategy_tools.check(f"{path}:mine", "walk-the-plank", 10)
    assert asked == [((), False), ((), True), (("ghost", "dolphin", "kraken"), False)]
