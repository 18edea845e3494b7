"""The ``balance`` command: listings, simulate (human and JSON), replay, one-line errors."""

from __future__ import annotations

import functools
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import cli_helpers
import pyarrow.parquet as pq
import pytest
from balance.strategies.walk_the_plank import SHIPPED
from cli_helpers import invoke

from balance.games import MODULES
from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.games.walk_the_plank.rules import WalkThePlankRules

SHIPPED_NAMES = ["random", "aggressor", "survivor", "greedy", "weighted", "mc", "ismcts"]
RULE_NAMES = [row["name"] for row in WalkThePlankRules.describe()]
REQUIRED_KEYS = {
    "game",
    "players",
    "games",
    "seed",
    "variants",
    "rules",
    "strategies",
    "threads",
    "finished_rate",
    "length_mean",
    "length_sd",
    "length_unit",
    "winner_count",
    "seat_win_rate",
    "cards",
    "elapsed_s",
    "games_per_s",
}


simulate_json = functools.partial(cli_helpers.simulate_json, "walk-the-plank")


def run_main(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m balance.cli`` (its ``main()``), as a user's shell does."""
    return subprocess.run(
        [sys.executable, "-m", "balance.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def assert_one_line_error(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr
    assert done.stdout == ""
    for fragment in fragments:
        assert fragment in done.stderr, (fragment, done.stderr)


def assert_error_in_process(monkeypatch, capsys, *args: str, fragments: list[str]) -> None:
    """``balance ARGS`` through ``main()`` in this process: exit code 2, one line on stderr."""
    code, out, err = cli_helpers.call_main(monkeypatch, capsys, *args)
    cli_helpers.assert_one_line_error(code, out, err, *fragments)


# --- listings ------------------------------------------------------------------------------


def test_games_lists_walk_the_plank_and_its_variants() -> None:
    out = invoke("games")
    assert out.startswith("walk-the-plank  (Walk the Plank, 2-5 players; built in)")
    for variant in ("ghost", "dolphin", "kraken"):
        assert re.search(rf"^  variant {variant}\s", out, re.MULTILINE), variant


def test_rules_lists_every_rule_parameter() -> None:
    out = invoke("rules", "walk-the-plank")
    listed = re.findall(r"^(\w+)  \(default ", out, re.MULTILINE)
    assert listed == RULE_NAMES
    assert set(RULE_NAMES) >= {"pirates_per_player", "plank_max", "rest", "round_cap", "kraken"}
    assert "pirates_per_player  (default 3; allowed 1..9)" in out
    assert "round_cap  (default 100;" in out


def test_strategies_lists_the_shipped_five() -> None:
    out = invoke("strategies", "walk-the-plank")
    names = re.findall(r"^(\w+)$", out, re.MULTILINE)
    assert names == SHIPPED_NAMES == [s.name for s in SHIPPED]
    for strategy in SHIPPED:
        assert f"    {strategy.description}" in out
    assert "parameters (default, range, meaning):\n      own_alive = 4  (0 and up)  worth" in out


@pytest.mark.parametrize("game", list(MODULES))
def test_strategies_explain_every_parameter_with_its_range(game: str) -> None:
    from balance.games import get_game

    out = invoke("strategies", game)
    for strategy in get_game(game).strategies().values():
        assert set(strategy.param_docs) == {name for name, _ in strategy.params}, strategy.name
        for name, default in strategy.params:
            allowed, meaning = strategy.param_docs[name]
            assert allowed and meaning, (strategy.name, name)
            words = {v: w for w, v in strategy.param_choices.get(name, {}).items()}
            said = words.get(default, f"{default:g}")  # a word where the parameter has one
            assert f"      {name} = {said}  ({allowed})  {meaning}\n" in out


@pytest.mark.parametrize("game", list(MODULES))
def test_counts_and_words_take_whole_numbers_only(game: str) -> None:
    """A budget, a width or a word's code given as 2.5 is refused, never truncated."""
    from balance.core.errors import BalanceError
    from balance.core.strategy import parse_strategy
    from balance.games import get_game

    shipped = get_game(game).strategies()
    checked = 0
    for strategy in shipped.values():
        for name, _ in strategy.params:
            if name in ("playouts", "iterations", "width") or name in strategy.param_choices:
                assert name in strategy.param_whole or name in strategy.param_choices
                with pytest.raises(BalanceError, match=f"'{name}' needs a whole number"):
                    parse_strategy(f"{strategy.name}:{name}=2.5", shipped, game)
                parse_strategy(f"{strategy.name}:{name}=1", shipped, game)  # a whole number is fine
                checked += 1
    assert checked >= 4  # mc and ismcts: a budget and a rollout each


def documented_range(allowed: str) -> tuple[float, float] | None:
    """The lowest and highest value a parameter's documented range states ("0 and up",
    "1 to 65536", "0..1, in results", "1 or 2", "any number; ..."), or None for words
    ("random, greedy or ..."). A range starting with a number must be one of these."""
    head = re.split(r"[,;(]", allowed, maxsplit=1)[0].strip()
    number = r"-?\d+(?:\.\d+)?"
    if head == "any number":
        return -math.inf, math.inf
    if found := re.fullmatch(rf"({number}) and up", head):
        return float(found[1]), math.inf
    if found := re.fullmatch(rf"({number}) ?(?:to|\.\.|or) ?({number})", head):
        return float(found[1]), float(found[2])
    assert not re.match(r"-?\d", head), f"a range that states no bounds: {allowed!r}"
    return None


def bounds_said(low: float, high: float) -> str:
    """A range as a refusal states it: "from 1 to 65536", "0 or more"."""
    if math.isinf(high):
        return f"{low:g} or more"
    return f"from {low:g} to {high:g}"


@pytest.mark.parametrize("game", list(MODULES))
def test_every_documented_range_is_enforced(game: str) -> None:
    """A value just outside the range a parameter's docs state is refused in one line, a
    value at a bound (or far inside a range without one) is taken: no strategy documents
    a range it does not enforce."""
    from balance.core.errors import BalanceError
    from balance.core.strategy import parse_strategy
    from balance.games import get_game

    shipped = get_game(game).strategies()

    def value_of(strategy, name: str, value: float) -> float:
        seat = parse_strategy(f"{strategy.name}:{name}={value:.10g}", shipped, game)
        return dict(zip([n for n, _ in strategy.params], seat.values, strict=True))[name]

    checked = 0
    for strategy in shipped.values():
        for name, _ in strategy.params:
            stated = documented_range(strategy.param_docs[name][0])
            bounds = strategy.param_bounds.get(name, (-math.inf, math.inf))
            if stated is None:  # words: their codes are the bounds
                codes = strategy.param_choices[name].values()
                assert bounds == (min(codes), max(codes)), (strategy.name, name)
                continue
            assert bounds == stated, (strategy.name, name, strategy.param_docs[name][0])
            step = 1.0 if name in strategy.param_whole else 0.01
            for bound, outside in ((stated[0], stated[0] - step), (stated[1], stated[1] + step)):
                if math.isinf(bound):  # no bound: a value far out that way is taken
                    far = math.copysign(1e6, bound)
                    assert value_of(strategy, name, far) == far, (strategy.name, name)
                    continue
                assert value_of(strategy, name, bound) == bound, (strategy.name, name)
                with pytest.raises(BalanceError) as refused:
                    value_of(strategy, name, outside)
                said = str(refused.value)
                assert "\n" not in said and f"{strategy.name!r}: parameter {name!r}" in said
                assert f"must be {bounds_said(*stated)}, not {outside:.10g}" in said, said
                checked += 1
    assert checked >= 8


def test_a_value_outside_its_range_is_a_one_line_error(monkeypatch, capsys) -> None:
    for text, said in (
        ("weighted:own_alive=-1", "parameter 'own_alive' must be 0 or more, not -1"),
        ("mc:playouts=0", "parameter 'playouts' must be from 1 to 65536, not 0"),
    ):
        assert_error_in_process(
            monkeypatch,
            capsys,
            "simulate",
            "walk-the-plank",
            "--strategy",
            text,
            fragments=[said],
        )


@pytest.mark.parametrize(
    "command",
    [[], ["games"], ["rules"], ["strategies"], ["simulate"], ["replay"]],
    ids=["balance", "games", "rules", "strategies", "simulate", "replay"],
)
def test_every_help_has_an_example(command: list[str]) -> None:
    out = invoke(*command, "--help")
    assert "Example" in out
    assert re.search(r"^\s+balance \w+", out, re.MULTILINE)  # the example is a command


def test_version() -> None:
    out = invoke("--version")
    assert re.fullmatch(r"balance, version \S+\n", out)


# --- simulate ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    directory = tmp_path_factory.mktemp("cli") / "run"
    summary = simulate_json("-p", "3", "-g", "1500", "-s", "21", "--out", str(directory))
    return summary, directory


def test_json_has_every_required_key(saved_run) -> None:
    summary, _ = saved_run
    assert summary.keys() >= REQUIRED_KEYS
    assert summary["game"] == "walk-the-plank"
    assert (summary["players"], summary["games"], summary["seed"]) == (3, 1500, 21)
    assert summary["variants"] == []
    assert list(summary["rules"]) == RULE_NAMES
    assert summary["rules"] == WalkThePlankRules().to_dict()
    assert summary["strategies"] == ["random"] * 3
    assert isinstance(summary["threads"], int) and summary["threads"] >= 1
    assert summary["length_unit"] == "rounds"
    assert {"0", "1", "2"} <= summary["winner_count"].keys()
    assert [row["seat"] for row in summary["seat_win_rate"]] == [0, 1, 2]
    assert list(summary["cards"]) == list(CARD_NAMES)
    assert list(CARD_NAMES) == [
        "shove-left",
        "shove-right",
        "shove-anyone",
        "extend-plank",
        "retract-plank",
        "drag-to-sea",
        "pull-to-ship",
        "run",
        "not-me",
        "charge",
    ]
    for row in summary["cards"].values():
        assert {"reveals_per_game", "effect_rate"} <= row.keys()
    assert summary["elapsed_s"] > 0 and summary["games_per_s"] > 0


def contains(interval: list[float], value: float, slack: float = 0.0) -> bool:
    low, high = interval
    return low - slack <= value <= high + slack


def test_json_values_are_consistent(saved_run) -> None:
    summary, _ = saved_run
    assert 0 <= summary["finished_rate"] <= 1
    # Slack of 1e-12 for rates of exactly 0 or 1 (see test_stats, exact bounds).
    assert contains(summary["finished_ci95"], summary["finished_rate"], 1e-12)
    for row in summary["seat_win_rate"]:
        assert 0 < row["rate"] < 1
        assert row["ci95"][0] < row["rate"] < row["ci95"][1]
    assert sum(summary["winner_count"].values()) == pytest.approx(1.0, abs=1e-12)
    for k, rate in summary["winner_count"].items():
        assert 0 <= rate <= 1
        assert contains(summary["winner_count_ci95"][k], rate, 1e-12)
    assert summary["length_mean"] >= 1 and summary["length_sd"] > 0
    assert contains(summary["length_ci95"], summary["length_mean"])
    for row in summary["cards"].values():
        assert 0 <= row["effect_rate"] <= 1
        assert contains(row["effect_rate_ci95"], row["effect_rate"], 1e-12)
        # A seat reveals a card at most once a round.
        assert 0 < row["reveals_per_game"] <= summary["players"] * summary["length_mean"]


def test_json_values_match_the_saved_records(saved_run) -> None:
    summary, directory = saved_run
    games = pq.read_table(directory / "games.parquet").to_pandas()
    seats = pq.read_table(directory / "seats.parquet").to_pandas()
    cards = pq.read_table(directory / "cards.parquet").to_pandas()
    n = len(games)
    assert n == summary["games"] == 1500
    assert summary["length_mean"] == pytest.approx(games["rounds"].mean(), rel=1e-12)
    assert summary["length_sd"] == pytest.approx(games["rounds"].std(ddof=1), rel=1e-12)
    assert summary["finished_rate"] == pytest.approx(games["finished"].mean())
    for k, rate in summary["winner_count"].items():
        assert rate == pytest.approx((games["winners"] == int(k)).mean()), k
    wins = seats.groupby("seat")["won"].mean()
    for row in summary["seat_win_rate"]:
        assert row["rate"] == pytest.approx(wins[row["seat"]])
    totals = cards.groupby("card", observed=True)[["revealed", "effect"]].sum()
    for name, row in summary["cards"].items():
        assert row["reveals_per_game"] == pytest.approx(totals.loc[name, "revealed"] / n)
        expected = totals.loc[name, "effect"] / totals.loc[name, "revealed"]
        assert row["effect_rate"] == pytest.approx(expected)


def test_human_summary() -> None:
    out = invoke("simulate", "walk-the-plank", "-p", "4", "-g", "1500", "-s", "2")
    assert out.startswith("walk-the-plank: 1,500 games, 4 players, seed 2\n")
    assert "Seat win rates (1,500 games, 95% Wilson intervals):" in out
    for seat in range(4):
        assert re.search(rf"^  seat {seat}\s+\d+\.\d%  \[\d+\.\d%, \d+\.\d%\]$", out, re.M)
    assert "Game length: mean" in out and "Games by number of winners:" in out
    assert re.search(r"^  no winner +\d+\.\d%", out, re.M) and "  2 winners " in out
    assert "Win rate per strategy" not in out  # one strategy only
    for name in CARD_NAMES:
        assert re.search(rf"^  {name}\s", out, re.MULTILINE), name


def test_human_summary_agrees_with_json() -> None:
    args = ("simulate", "walk-the-plank", "-p", "3", "-g", "800", "-s", "4", "-t", "1")
    out = invoke(*args)
    summary = json.loads(invoke(*args, "--json"))
    for row in summary["seat_win_rate"]:
        assert f"seat {row['seat']}  {100 * row['rate']:5.1f}%" in out
    assert f"Game length: mean {summary['length_mean']:.2f} rounds" in out


def test_game_length_with_games_stopped_at_the_cap() -> None:
    # A round cap of 9 stops about a quarter of the games: the mean is labelled a lower
    # bound, and the median and restricted mean come with their intervals.
    args = ("simulate", "walk-the-plank", "-p", "4", "-g", "600", "-s", "3", "-t", "1")
    args += ("--rule", "round_cap=9")
    summary = json.loads(invoke(*args, "--json"))
    unfinished = summary["length_unfinished"]
    assert unfinished == round(600 * (1 - summary["finished_rate"])) > 0
    assert summary["length_mean_is_lower_bound"] and summary["length_cap"] == 9
    assert summary["length_restricted_to"] == 9
    # One cap: the restricted mean to the cap is the mean of the lengths played.
    assert summary["length_restricted"] == pytest.approx(summary["length_mean"])
    low, high = summary["length_median_ci95"]
    assert low < summary["length_median"] < high <= 9.5
    out = invoke(*args)
    assert f"Game length (600 games; {unfinished:,} stopped unfinished at the cap of 9 " in out
    assert re.search(r"^  median \d\.\d \[\d\.\d, \d\.\d\] rounds", out, re.M)
    assert re.search(r"^  restricted mean to 9 rounds: \d\.\d\d \[\d\.\d\d, \d\.\d\d\]", out, re.M)
    assert f"mean: at least {summary['length_mean']:.2f} rounds [" in out
    assert "(a lower bound: unfinished games count where they stopped)" in out


def test_game_length_without_unfinished_games_gives_the_median() -> None:
    summary = simulate_json("-p", "4", "-g", "300", "-s", "5", "-t", "1")
    assert summary["length_unfinished"] == 0 and not summary["length_mean_is_lower_bound"]
    assert summary["length_restricted"] == pytest.approx(summary["length_mean"])
    low, high = summary["length_median_ci95"]
    assert low <= summary["length_median"] <= high


def test_out_then_replay(saved_run) -> None:
    _, directory = saved_run
    assert {"games.parquet", "manifest.json", "summary.json"} <= {
        p.name for p in directory.iterdir()
    }
    text = invoke("replay", str(directory), "3")
    assert text.startswith("Walk the Plank, game 3 of the run seeded 21\n")
    assert "Round 1" in text and "Game over" in text
    games = pq.read_table(directory / "games.parquet").to_pandas()
    seats = pq.read_table(directory / "seats.parquet").to_pandas()
    rounds = int(games.loc[3, "rounds"])
    winners = seats[(seats["game"] == 3) & seats["won"]]["seat"].tolist()
    assert f"Round {rounds}:" in text and f"Round {rounds + 1}:" not in text
    last = text.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"Game over after {rounds} rounds: ")
    if winners:
        assert last.endswith("winners: " + ", ".join(f"seat {s}" for s in winners))


def test_human_run_with_out_says_where(tmp_path: Path) -> None:
    out = invoke("simulate", "walk-the-plank", "-p", "2", "-g", "200", "--out", str(tmp_path / "r"))
    assert out.rstrip().endswith(f"saved in {tmp_path / 'r'}")


def test_one_strategy_for_every_seat() -> None:
    summary = simulate_json("-p", "3", "-g", "300", "--strategy", "survivor")
    assert summary["strategies"] == ["survivor"] * 3
    assert "strategy_win_rate" not in summary


def test_one_strategy_per_seat() -> None:
    args = "-p 3 -g 300 --strategy greedy --strategy random --strategy weighted:leader=2"
    summary = simulate_json(*args.split())
    assert summary["strategies"] == ["greedy", "random", "weighted(leader=2)"]
    assert summary["rotate_seats"] is False
    assert [row["strategy"] for row in summary["strategy_win_rate"]] == summary["strategies"]


def test_per_seat_strategies_change_the_games() -> None:
    same = simulate_json("-p", "3", "-g", "300", "-s", "1")
    mixed = simulate_json("-p", "3", "-g", "300", "-s", "1", "--strategy", "aggressor")
    assert same["seat_win_rate"] != mixed["seat_win_rate"]


def test_rotated_strategies() -> None:
    args = ["-p", "3", "-g", "600", "--rotate-seats"]
    for name in ("aggressor", "survivor", "greedy"):
        args += ["--strategy", name]
    out = invoke("simulate", "walk-the-plank", *args)
    assert "Win rate per strategy" in out
    assert "seats rotated over all 6 orders of the 3 strategies" in out
    summary = simulate_json(*args)
    rows = summary["strategy_win_rate"]
    assert [row["strategy"] for row in rows] == ["aggressor", "survivor", "greedy"]
    assert all(row["seats_played"] == 600 for row in rows)
    for row in rows:
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]


def test_variant_and_rule_reach_the_run() -> None:
    args = "-p 4 -g 300 --variant kraken --rule rest=charge,run --rule plank_max=4"
    summary = simulate_json(*args.split())
    assert summary["variants"] == ["kraken"]
    assert summary["rules"]["kraken"] is True
    assert summary["rules"]["ghost"] is False and summary["rules"]["dolphin"] is False
    assert summary["rules"]["rest"] == ["run", "charge"]
    assert summary["rules"]["plank_max"] == 4
    assert summary["rest"] == ["run", "charge"]


def test_threads_option_reaches_the_run() -> None:
    one = simulate_json("-p", "3", "-g", "500", "-t", "1")
    two = simulate_json("-p", "3", "-g", "500", "-t", "2")
    assert (one["threads"], two["threads"]) == (1, 2)
    for key in ("seat_win_rate", "length_mean", "cards", "winner_count"):
        assert one[key] == two[key], key


def test_json_of_a_single_game_is_standard() -> None:
    text = invoke("simulate", "walk-the-plank", "-p", "2", "-g", "1", "--json")

    def refuse(constant: str):
        raise ValueError(constant)

    summary = json.loads(text, parse_constant=refuse)
    assert summary["length_sd"] is None  # undefined for one game


# --- errors through main(): exit code 2 and one line on stderr ------------------------------

SYNTAX_ERROR = "from balance.strategy import Strategy\n\ndef program(:\n    pass\n"


ERROR_CASES = [
    (["simulate", "walk-the-plank", "-p", "7"], ["2 to 5 players", "7"]),
    (["simulate", "chess"], ["unknown game 'chess'", "walk-the-plank"]),
    (["simulate", "walk-the-plank", "--variant", "tsunami"], ["unknown variant 'tsunami'"]),
    (["simulate", "walk-the-plank", "--strategy", "coward"], ["unknown strategy 'coward'"]),
    (["simulate", "walk-the-plank", "--rule", "mast=2"], ["unknown rule 'mast'"]),
    (["simulate", "walk-the-plank", "--rule", "foo"], ["--rule needs NAME=VALUE", "'foo'"]),
    (["simulate", "walk-the-plank", "--rule", "plank_max=x"], ["plank_max", "'x'"]),
    (["simulate", "walk-the-plank", "--games", "0"], ["games must be", "not 0"]),
    (["simulate", "walk-the-plank", "--games", "-3"], ["games must be", "not -3"]),
    (["simulate", "walk-the-plank", "--players", "three"], ["'three'"]),
    (["simulate", "walk-the-plank", "--seed", "-1"], ["seed"]),
    (["simulate", "walk-the-plank", "-g", "10", "--threads", "0"], ["threads"]),
    (
        ["simulate", "walk-the-plank", "-p", "3", "--strategy", "random", "--strategy", "greedy"],
        ["2 given for 3 players"],
    ),
    (["simulate", "walk-the-plank", "--strategy", "weighted:bravery=2"], ["'bravery=2'"]),
    (["rules", "chess"], ["unknown game 'chess'"]),
    (["frobnicate"], ["No such command"]),
]


@pytest.mark.parametrize(
    ("args", "fragments"), ERROR_CASES, ids=[" ".join(a) for a, _ in ERROR_CASES]
)
def test_user_errors_are_one_line(
    args: list[str], fragments: list[str], monkeypatch, capsys
) -> None:
    # In this process, through main(); test_console_script checks a real process.
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


def test_missing_strategy_file(tmp_path: Path, monkeypatch, capsys) -> None:
    missing = tmp_path / "nowhere.py"
    args = ("simulate", "walk-the-plank", "--strategy", f"{missing}:cautious")
    assert_error_in_process(monkeypatch, capsys, *args, fragments=["does not exist", "nowhere.py"])


def test_strategy_file_with_a_syntax_error(tmp_path: Path, monkeypatch, capsys) -> None:
    path = tmp_path / "broken.py"
    path.write_text(SYNTAX_ERROR)
    args = ("simulate", "walk-the-plank", "--strategy", f"{path}:broken")
    fragments = ["broken.py", "failed to load", "SyntaxError"]
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


def test_strategy_file_without_that_strategy(monkeypatch, capsys) -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "cautious.py"
    args = ("simulate", "walk-the-plank", "--strategy", f"{example}:bold")
    fragments = ["has no strategy 'bold'", "cautious"]
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


def test_replay_of_a_missing_directory(tmp_path: Path, monkeypatch, capsys) -> None:
    args = ("replay", str(tmp_path / "gone"), "3")
    assert_error_in_process(monkeypatch, capsys, *args, fragments=["does not exist"])


@pytest.mark.parametrize("index", ["1500", "99999", "-1"])
def test_replay_index_out_of_range(saved_run, index: str, monkeypatch, capsys) -> None:
    _, directory = saved_run
    args = ("replay", str(directory), index)
    fragments = [f"game index {index}", "0..1499"]
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


def test_replay_of_a_directory_that_is_not_a_run(tmp_path: Path, monkeypatch, capsys) -> None:
    args = ("replay", str(tmp_path), "0")
    assert_error_in_process(monkeypatch, capsys, *args, fragments=["not a balance run"])


def test_replay_of_a_file(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / "afile").write_text("not a run")
    args = ("replay", str(tmp_path / "afile"), "0")
    fragments = ["is a file, not a run directory"]
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


#: Every command that writes files into --out, with the fewest games.
WRITERS = [
    ["simulate", "walk-the-plank", "-g", "10"],
    ["compare", "walk-the-plank", "-g", "10", "-v", "base", "-v", "kraken"],
    ["cards", "walk-the-plank", "-g", "10"],
    ["sweep", "walk-the-plank", "-g", "10", "--axis", "plank_max=3..4"],
    ["tournament", "walk-the-plank", "-g", "10", "--strategy", "random", "--strategy", "greedy"],
    [
        "matchup",
        "battle-of-thieves",
        "-g",
        "10",
        "--deck",
        "cannon-battery",
        "--deck",
        "island-raiders",
    ],
    ["skill", "la-planche", "-p", "2", "-g", "10"],
]


@pytest.mark.parametrize("args", WRITERS, ids=[a[0] for a in WRITERS])
def test_an_out_that_cannot_be_created_is_one_line_before_any_game(
    args: list[str], tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "afile").write_text("in the way")
    cli_helpers.forbid_games(monkeypatch)
    out = tmp_path / "afile" / "sub"
    fragments = ["cannot create", str(out)]
    assert_error_in_process(monkeypatch, capsys, *args, "--out", str(out), fragments=fragments)


def test_main_succeeds_quietly() -> None:
    done = run_main("simulate", "walk-the-plank", "-p", "2", "-g", "200", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 200
    assert "Traceback" not in done.stderr


def test_console_script() -> None:
    script = shutil.which("balance")
    if script is None:
        pytest.skip("the balance console script is not installed")
    done = subprocess.run(
        [script, "simulate", "walk-the-plank", "--players", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert_one_line_error(done, "2 to 5 players")


def test_a_deck_for_a_game_played_without_decks_is_a_one_line_error(monkeypatch, capsys) -> None:
    args = ("simulate", "lifeboats", "--deck", "cannon-battery", "-g", "10")
    fragments = ["--deck", "battle-of-thieves", "lifeboats"]
    assert_error_in_process(monkeypatch, capsys, *args, fragments=fragments)


def test_a_strategy_may_not_document_a_parameter_it_does_not_take() -> None:
    from balance.core.errors import BalanceError
    from balance.core.strategy import Strategy, param_lines

    with pytest.raises(BalanceError, match="does not take: bold"):
        Strategy("lifeboats", "x", "x", {}, params=(("stake", 1.0),), param_docs={"bold": ("", "")})
    plain = Strategy("lifeboats", "x", "x", {}, params=(("stake", 1.5),))
    assert param_lines(plain) == ["stake = 1.5"]


def test_replay_says_whose_pirate_acts_and_counts_tiles_in_words() -> None:
    from balance.games.walk_the_plank.cards import Card
    from balance.games.walk_the_plank.reference import describe, play_game
    from balance.games.walk_the_plank.rules import WalkThePlankRules

    # The narration line reads "seat 1 reveals Drag to Sea: its pirate on tile 0 drags ...".
    assert describe(Card.DRAG_TO_SEA, (0, 2)) == "its pirate on tile 0 drags a pirate of seat 2"
    assert describe(Card.DRAG_TO_SEA, (0, 2), ghost=True).startswith("the ghost on tile 0")
    lines: list[str] = []

    play_game(WalkThePlankRules(plank_start=1, plank_min=1), 3, 0, 0, narrate=lines.append)
    assert lines[0].endswith("the plank has 1 tile")


def test_out_onto_a_saved_run_says_it_replaces_it(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from balance.cli import cli

    out = tmp_path / "kraken"
    first = ["simulate", "walk-the-plank", "-p", "3", "-g", "60", "--variant", "kraken"]
    done = CliRunner().invoke(cli, [*first, "--out", str(out)])
    assert done.exit_code == 0 and "replacing" not in done.stderr
    second = ["simulate", "walk-the-plank", "-p", "3", "-g", "40", "--out", str(out)]
    done = CliRunner().invoke(cli, second)
    assert done.exit_code == 0
    said = f"replacing the run saved in {str(out)!r} (60 games of walk-the-plank, 3 players, "
    assert said + "variants kraken)" in done.stderr
    assert json.loads((out / "manifest.json").read_text())["games"] == 40
