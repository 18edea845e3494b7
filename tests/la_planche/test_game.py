"""La Planche through the shared machinery: simulate (JSON and text), records, report,
replay, compare, rule parameters, strategies and one-line errors."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path

import cli_helpers
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke, pdf_pages, within

from balance import api
from balance.analyses import run_report as report_module
from balance.analyses.compare import compare
from balance.analyses.run_report import RunTables
from balance.core.errors import BalanceError
from balance.games.la_planche.game import GAME, fall_order
from balance.games.la_planche.metrics import action_usefulness, last_colour_rates
from balance.games.la_planche.reference import ACTIONS
from balance.games.la_planche.rules import COLOUR_NAMES, COLOURS, LaPlancheRules
from balance.run.results import load_run
from balance.stats.intervals import wilson_interval
from balance.stats.metrics import RATE_KINDS

GAME_ID = "la-planche"
GAMES = 3000
RULE_NAMES = [row["name"] for row in LaPlancheRules.describe()]
COMMON_KEYS = {
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
    "elapsed_s",
    "games_per_s",
}
OWN_KEYS = {"no_winner_rate", "no_winner_ci95", "colour_win_rate", "colour_win_rate_ci95"}
REPORT_PAGES = [
    "00-findings",
    "00-title",
    "01-seat-win-rates",
    "03-game-length",
    "04-games-still-running",
    "10-colour-win-rates",
    "11-action-uses",
    "12-action-prisoners-fallen",
    "13-symbol-choice",
]
COLOUR_OF = dict(zip(COLOURS, COLOUR_NAMES, strict=True))  # "Y" -> "yellow"


simulate_json = functools.partial(cli_helpers.simulate_json, GAME_ID)


# --- listings --------------------------------------------------------------------------------


def test_listings_name_la_planche() -> None:
    games = invoke("games")
    assert "la-planche  (La Planche, 2-4 players; built in)\n" in games
    assert re.search(r"^  variant rounds\s", games.split("la-planche")[1], re.MULTILINE)
    listed = re.findall(r"^(\w+)  \(default ", invoke("rules", GAME_ID), re.MULTILINE)
    assert listed == RULE_NAMES
    assert RULE_NAMES == [
        "spaces",
        "start_order",
        "spinner_weights",
        "push",
        "rounds",
        "points",
        "target",
        "turn_cap",
        "round_cap",
    ]
    strategies = re.findall(r"^(\w+)$", invoke("strategies", GAME_ID), re.MULTILINE)
    assert strategies == ["random", "protector", "detective", "mc", "ismcts"]


# --- simulate --json for 2, 3 and 4 players --------------------------------------------------


@pytest.fixture(scope="module")
def summaries() -> dict[int, dict]:
    """``simulate --json`` of 3,000 games for each player count, played when first asked."""

    class Lazy(dict):
        def __missing__(self, players: int) -> dict:
            self[players] = simulate_json("-p", str(players), "-g", str(GAMES), "-s", "7")
            return self[players]

    return Lazy()


@pytest.fixture(params=[2, 3, 4], ids=["2p", "3p", "4p"])
def summary(request: pytest.FixtureRequest, summaries) -> dict:
    return summaries[request.param]


def test_json_has_every_key(summary: dict) -> None:
    n = summary["players"]
    assert summary.keys() >= COMMON_KEYS | OWN_KEYS | {"actions"}
    assert summary["game"] == GAME_ID
    assert (summary["games"], summary["seed"]) == (GAMES, 7)
    assert isinstance(summary["threads"], int) and summary["threads"] >= 1
    assert summary["variants"] == []
    assert list(summary["rules"]) == RULE_NAMES
    assert summary["rules"] == LaPlancheRules().to_dict()
    assert summary["rules"]["spinner_weights"] == [1, 1, 1, 1]
    assert summary["rules"]["start_order"] == "YRGB" * 4
    assert summary["strategies"] == ["random"] * n
    assert summary["length_unit"] == "turns"
    assert {"0", "1", "2"} <= summary["winner_count"].keys()
    rows = summary["seat_win_rate"]
    assert [row["seat"] for row in rows] == list(range(n))
    assert all(row.keys() == {"seat", "rate", "ci95"} for row in rows)
    assert list(summary["colour_win_rate"]) == ["yellow", "red", "green", "blue"]
    assert list(summary["colour_win_rate_ci95"]) == ["yellow", "red", "green", "blue"]
    assert list(summary["actions"]) == list(ACTIONS)
    assert "rounds_mean" not in summary  # the rounds variant only
    assert "strategy_win_rate" not in summary  # one strategy only
    assert summary["elapsed_s"] > 0 and summary["games_per_s"] > 0


def test_json_values_are_consistent(summary: dict) -> None:
    assert summary["finished_rate"] == 1.0  # no random game reaches 1,000 turns
    # Every game has a last prisoner: the colours' shares add up to the finished share.
    assert sum(summary["colour_win_rate"].values()) == pytest.approx(summary["finished_rate"])
    for name, rate in summary["colour_win_rate"].items():
        low, high = wilson_interval(round(rate * GAMES), GAMES)
        assert summary["colour_win_rate_ci95"][name] == pytest.approx([low, high]), name
        assert 0.15 < rate < 0.35, name  # every colour is last now and then
    assert sum(summary["winner_count"].values()) == pytest.approx(1.0, abs=1e-12)
    assert summary["winner_count"]["0"] == pytest.approx(summary["no_winner_rate"])
    assert summary["winner_count"]["2"] == 0.0  # one colour is last: one owner at most
    assert within(summary["no_winner_ci95"], summary["no_winner_rate"])
    # Wins over the seats = the games' winners.
    wins = sum(row["rate"] for row in summary["seat_win_rate"])
    assert wins == pytest.approx(sum(int(k) * r for k, r in summary["winner_count"].items()))
    for row in summary["seat_win_rate"]:
        assert within(row["ci95"], row["rate"])
    assert within(summary["length_ci95"], summary["length_mean"])
    # Fifteen prisoners fall, at most two a turn (an advance, then the push); random
    # games take about 23 turns.
    assert 15 < summary["length_mean"] < 30 and summary["length_sd"] > 0
    actions = summary["actions"]
    uses = sum(actions[name]["per_game"] for name in ("swap", "advance", "move", "nothing"))
    assert uses == pytest.approx(summary["length_mean"])  # one symbol (or nothing) a turn
    assert actions["push"]["per_game"] <= summary["length_mean"]
    fallen = sum(
        row["per_game"] * (row["fell_own_per_use"] + row["fell_other_per_use"])
        for row in actions.values()
        if row["per_game"] > 0
    )
    assert fallen == pytest.approx(15.0)  # every game sends 15 prisoners to the shark
    for name in ("swap", "move"):
        assert actions[name]["fell_own_per_use"] == actions[name]["fell_other_per_use"] == 0


def test_four_players_always_have_exactly_one_winner(summaries) -> None:
    summary = summaries[4]
    assert summary["no_winner_rate"] == 0.0
    assert summary["winner_count"]["1"] == 1.0
    assert sum(row["rate"] for row in summary["seat_win_rate"]) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("players", "unowned"), [(2, 1 / 2), (3, 1 / 4)])
def test_no_winner_rate_is_the_share_of_colours_nobody_owns(
    summaries, players: int, unowned: float
) -> None:
    # Colours are dealt at random and random play is colour-blind: the last prisoner's
    # colour is nobody's with probability (4 - n) / 4. Standard error at 3,000 games is
    # at most 0.009; the band is five of them.
    summary = summaries[players]
    assert abs(summary["no_winner_rate"] - unowned) < 0.045, summary["no_winner_rate"]
    # Each seat owns one colour: it wins about a quarter of the games.
    for row in summary["seat_win_rate"]:
        assert abs(row["rate"] - 0.25) < 0.045, row


# --- the rounds variant -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def rounds_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    directory = tmp_path_factory.mktemp("la-planche") / "rounds"
    args = ("-p", "4", "-g", "2000", "-s", "3", "--variant", "rounds", "--out", directory)
    return simulate_json(*args), directory


def test_rounds_variant_reports_rounds(rounds_run) -> None:
    summary, directory = rounds_run
    assert summary["variants"] == ["rounds"] and summary["rules"]["rounds"] is True
    # A round gives a seat at most 5 + 3 + 1 = 9 points: reaching 12 takes two rounds.
    assert summary["rounds_mean"] >= 2
    assert within(summary["rounds_ci95"], summary["rounds_mean"])
    games = pq.read_table(directory / "games.parquet").to_pandas()
    assert summary["rounds_mean"] == pytest.approx(games["rounds"].mean())
    assert (games["rounds"] >= 2).all()
    assert summary["length_mean"] == pytest.approx(games["turns"].mean())
    # A shared win is possible: the winner counts follow the records, whatever they are.
    for k, rate in summary["winner_count"].items():
        assert rate == pytest.approx((games["winners"] == int(k)).mean()), k
    wins = sum(row["rate"] for row in summary["seat_win_rate"])
    assert wins == pytest.approx(sum(int(k) * r for k, r in summary["winner_count"].items()))
    assert summary["winner_count"]["0"] == 0.0  # all four colours owned: someone scores


def test_rounds_variant_scores_decide_the_winners(rounds_run) -> None:
    _, directory = rounds_run
    seats = pq.read_table(directory / "seats.parquet").to_pandas()
    best = seats.groupby("game")["score"].transform("max")
    assert (best >= 12).all()
    np.testing.assert_array_equal(seats["won"].to_numpy(), (seats["score"] == best).to_numpy())
    # Nine points a round when all four colours are owned.
    games = pq.read_table(directory / "games.parquet").to_pandas().set_index("game")
    totals = seats.groupby("game")["score"].sum()
    np.testing.assert_array_equal(totals.to_numpy(), 9 * games.loc[totals.index, "rounds"])


def test_rounds_variant_reports_points_and_shared_wins(rounds_run) -> None:
    summary, directory = rounds_run
    games = pq.read_table(directory / "games.parquet").to_pandas()
    seats = pq.read_table(directory / "seats.parquet").to_pandas()
    per_seat = seats.groupby("seat")["score"].mean()
    for seat, mean in summary["points_per_seat"].items():
        assert mean == pytest.approx(per_seat[int(seat)])
        assert within(summary["points_per_seat_ci95"][seat], mean)
    # Every colour owned: the colours' points are the seats' points, 9 a round.
    colours = [games[f"points_{name}"] for name in COLOUR_NAMES]
    np.testing.assert_array_equal(sum(colours), 9 * games["rounds"])
    for name, mean in summary["points_per_colour"].items():
        assert mean == pytest.approx(games[f"points_{name}"].mean())
    assert sum(summary["points_per_colour"].values()) == pytest.approx(
        sum(summary["points_per_seat"].values())
    )
    shared = (games["winners"] >= 2).mean()
    assert summary["shared_win_rate"] == pytest.approx(shared) and shared > 0
    assert within(summary["shared_win_ci95"], shared)


def test_rounds_variant_is_compared_per_round() -> None:
    # The rounds variant plays several rounds a game; per round, it does what the base
    # game does, so the counts of actions per round do not differ much.
    both = compare(GAME_ID, 4, 300, ["base", "rounds"], seed=4, threads=2)
    table = both.table[both.table["run"] == "rounds"].set_index("metric")
    rounds = both.per_game["rounds"]
    assert "swap per round" in table.index and "swap per game" not in table.index
    assert abs(table.loc["push per round", "difference"]) < 3
    assert rounds["done_push"].mean() < 30  # about 20 pushes a round, not 70 a game


def test_rounds_variant_report_counts_rounds_and_points(rounds_run) -> None:
    summary, directory = rounds_run
    tables = RunTables.read(directory)
    assert GAME.report_length(tables.setup.rules) == ("rounds", 100)
    games = tables["games"]
    length = {chart.name: chart for chart in report_module.common_charts(tables)}
    title = length["03-game-length"].figure.axes[0].get_title()
    assert f"mean {games['rounds'].mean():.2f}" in title and "rounds" in title
    charts = {chart.name: chart for chart in GAME.report_charts(tables)}
    assert "final round" in charts["10-colour-win-rates"].figure.axes[0].get_title()
    seat_axis = charts["14-points-by-seat"].figure.axes[0]
    assert [t.get_text() for t in seat_axis.get_yticklabels()] == [f"seat {s}" for s in range(4)]
    dots = next(line for line in seat_axis.lines if line.get_marker() == "o")
    assert list(dots.get_xdata()) == pytest.approx(list(summary["points_per_seat"].values()))
    colour_axis = charts["15-points-by-colour"].figure.axes[0]
    assert [t.get_text() for t in colour_axis.get_yticklabels()] == list(COLOUR_NAMES)


def test_rounds_as_a_rule_is_the_rounds_variant(rounds_run) -> None:
    summary, _ = rounds_run
    again = simulate_json("-p", "4", "-g", "2000", "-s", "3", "--rule", "rounds=true")
    assert again["variants"] == ["rounds"]
    for key in ("rules", "rounds_mean", "seat_win_rate", "winner_count", "colour_win_rate"):
        assert again[key] == summary[key], key


# --- the text summary ------------------------------------------------------------------------


def test_text_summary_names_the_colours_and_actions() -> None:
    args = ("simulate", GAME_ID, "-p", "3", "-g", "1500", "-s", "4", "-t", "1")
    out = invoke(*args)
    summary = json.loads(invoke(*args, "--json"))
    assert out.startswith("la-planche: 1,500 games, 3 players, seed 4\n")
    assert "Game length: mean" in out and " turns " in out
    rate = 100 * summary["no_winner_rate"]
    assert re.search(rf"^No winner .*: {rate:.1f}% \[", out, re.MULTILINE)
    assert "Colour of the last prisoner on the plank:" in out
    for name, rate in summary["colour_win_rate"].items():
        assert re.search(rf"^  {name}\s+{100 * rate:.1f}%  \[", out, re.MULTILINE), name
    for name, row in summary["actions"].items():
        line = rf"^  {name}\s+{row['per_game']:.2f} \[.*own {row['fell_own_per_use']:.3f} \["
        assert re.search(line, out, re.MULTILINE), name
        low, high = row["fell_other_per_use_ci95"]
        assert f"other {row['fell_other_per_use']:.3f} [{low:.3f}, {high:.3f}]" in out, name
    assert "Rounds per game" not in out
    rounds = invoke(*args, "--variant", "rounds")
    assert re.search(r"^Rounds per game \(1,500 games, .*\): \d+\.\d\d \[", rounds, re.M)
    assert re.search(r"^Points per game by seat: 0 \d+\.\d\d \[", rounds, re.MULTILINE)
    assert re.search(r"^Shared wins \(a tie at the top\): \d+\.\d%", rounds, re.MULTILINE)


# --- --out: the records ----------------------------------------------------------------------


def saved(tmp_path_factory: pytest.TempPathFactory, players: int) -> tuple[dict, Path]:
    directory = tmp_path_factory.mktemp("la-planche") / f"run-{players}p"
    args = ("-p", str(players), "-g", "2000", "-s", "21", "-t", "2", "--out", directory)
    return simulate_json(*args), directory


@pytest.fixture(scope="module")
def run4(tmp_path_factory) -> tuple[dict, Path]:
    return saved(tmp_path_factory, 4)


@pytest.fixture(scope="module")
def run2(tmp_path_factory) -> tuple[dict, Path]:
    return saved(tmp_path_factory, 2)


def read(directory: Path, name: str) -> pd.DataFrame:
    return pq.read_table(directory / f"{name}.parquet").to_pandas()


@pytest.mark.parametrize("which", ["run2", "run4"])
def test_records_have_a_row_per_game_seat_and_action(request, which: str) -> None:
    summary, directory = request.getfixturevalue(which)
    n, count = summary["players"], summary["games"]
    assert {p.name for p in directory.iterdir()} == {
        "games.parquet",
        "seats.parquet",
        "actions.parquet",
        "manifest.json",
        "summary.json",
    }
    games, seats, actions = (read(directory, name) for name in ("games", "seats", "actions"))
    assert list(games.columns) == [
        "game",
        "turns",
        "finished",
        "winners",
        "rounds",
        "last_colour",
        "fall_order",
        *[f"points_{name}" for name in COLOUR_NAMES],
    ]
    assert list(seats.columns) == ["game", "seat", "strategy", "won", "colour", "score", "turns"]
    assert list(actions.columns) == [
        "game",
        "seat",
        "action",
        "done",
        "fell_own",
        "fell_other",
        "offered",
        "chosen",
    ]
    assert (len(games), len(seats), len(actions)) == (count, count * n, count * n * 5)
    assert sorted(games["game"]) == list(range(count))
    assert list(games["last_colour"].cat.categories) == list(COLOUR_NAMES)
    assert list(seats["colour"].cat.categories) == list(COLOUR_NAMES)
    assert list(actions["action"].cat.categories) == list(ACTIONS)
    assert not actions.duplicated(["game", "seat", "action"]).any()
    assert not seats.duplicated(["game", "seat"]).any()
    assert (games["rounds"] == 1).all() and (seats["score"] == 0).all()
    assert (games[[f"points_{name}" for name in COLOUR_NAMES]] == 0).all().all()
    # A choice offers two symbols and chooses one of them; skulls, "nothing" and the push
    # are never offered.
    per_seat = actions.groupby(["game", "seat"])[["offered", "chosen"]].sum()
    np.testing.assert_array_equal(per_seat["offered"], 2 * per_seat["chosen"])
    never = actions["action"].isin(["nothing", "push"])
    assert (actions.loc[never, ["offered", "chosen"]] == 0).all().all()
    assert (actions["chosen"] <= actions["offered"]).all()
    assert (actions["chosen"] <= actions["done"]).all()


def test_fall_order_spells_each_games_fallen_colours_in_order() -> None:
    # Colour codes, -1 where none fell: anywhere in a row, a whole row, or none at all.
    fell = np.array([[2, 0, -1, 3], [-1, -1, -1, -1], [1, 1, 2, 0], [-1, 3, -1, -1]], np.int8)
    spelled = ["".join(COLOURS[c] for c in row if c >= 0) for row in fell]
    assert fall_order(fell).to_pylist() == spelled == ["GYB", "", "RRGY", "B"]
    assert fall_order(fell[:0]).to_pylist() == []


@pytest.mark.parametrize("which", ["run2", "run4"])
def test_fall_order_holds_the_fifteen_fallen_prisoners(request, which: str) -> None:
    _, directory = request.getfixturevalue(which)
    games = read(directory, "games")
    assert games["finished"].all() and games["last_colour"].notna().all()
    for order, last in zip(games["fall_order"], games["last_colour"], strict=True):
        assert re.fullmatch(r"[YRGB]{15}", order), order
        counts = Counter(COLOUR_OF[c] for c in order)
        # Four of each colour fell, but one of the last prisoner's colour is still there.
        assert counts == Counter({name: 4 - (name == last) for name in COLOUR_NAMES}), order


@pytest.mark.parametrize("which", ["run2", "run4"])
def test_the_winner_owns_the_last_prisoner_s_colour(request, which: str) -> None:
    summary, directory = request.getfixturevalue(which)
    n = summary["players"]
    games = read(directory, "games").set_index("game")
    seats = read(directory, "seats")
    joined = seats.join(games[["last_colour", "winners"]], on="game")
    owns = joined["colour"].astype(str) == joined["last_colour"].astype(str)
    np.testing.assert_array_equal(joined["won"].to_numpy(), owns.to_numpy())
    winners = seats.groupby("game")["won"].sum()
    np.testing.assert_array_equal(winners.to_numpy(), games.loc[winners.index, "winners"])
    # Each seat has a colour of its own: a permutation of the four with 4 players.
    dealt = seats.groupby("game")["colour"].agg(lambda c: tuple(sorted(c.astype(str))))
    assert (dealt.map(len) == n).all()
    assert dealt.map(lambda c: len(set(c)) == n).all()
    if n == 4:
        assert (dealt == tuple(sorted(COLOUR_NAMES))).all()
        assert (games["winners"] == 1).all()
    else:
        # With 2 players half the games end on a colour nobody owns.
        assert 0.4 < (games["winners"] == 0).mean() < 0.6


@pytest.mark.parametrize("which", ["run2", "run4"])
def test_action_records_add_up_to_the_turns(request, which: str) -> None:
    _, directory = request.getfixturevalue(which)
    games = read(directory, "games").set_index("game")
    seats = read(directory, "seats").set_index(["game", "seat"])
    actions = read(directory, "actions")
    done = actions.pivot_table(
        index=["game", "seat"], columns="action", values="done", aggfunc="sum", observed=True
    )
    # Each turn the player chooses one symbol or does nothing.
    chosen = done[["swap", "advance", "move", "nothing"]].sum(axis=1)
    np.testing.assert_array_equal(chosen.to_numpy(), seats.loc[chosen.index, "turns"].to_numpy())
    turns = seats["turns"].groupby("game").sum()
    np.testing.assert_array_equal(turns.to_numpy(), games.loc[turns.index, "turns"].to_numpy())
    # The mandatory push follows every turn but (perhaps) the last.
    pushes = done["push"].groupby("game").sum()
    assert (games.loc[pushes.index, "turns"] - pushes).between(0, 1).all()
    # Only advances and pushes make prisoners fall, fifteen in each game.
    fell = actions["fell_own"] + actions["fell_other"]
    assert (fell[actions["action"].isin(["swap", "move", "nothing"])] == 0).all()
    assert (fell.groupby(actions["game"]).sum() == 15).all()


def test_own_colour_falls_a_quarter_of_the_time(run4) -> None:
    # Random play does not know colours: a fallen prisoner is the acting seat's own
    # colour one time in four. 2,000 games × 15 falls; the band is about six errors wide.
    _, directory = run4
    actions = read(directory, "actions")
    own, other = actions["fell_own"].sum(), actions["fell_other"].sum()
    assert own + other == 15 * 2000
    assert abs(own / (own + other) - 0.25) < 0.02


@pytest.mark.parametrize("which", ["run2", "run4"])
def test_summary_matches_the_records(request, which: str) -> None:
    summary, directory = request.getfixturevalue(which)
    games, seats, actions = (read(directory, name) for name in ("games", "seats", "actions"))
    assert json.loads((directory / "summary.json").read_text())["games"] == summary["games"]
    assert summary["length_mean"] == pytest.approx(games["turns"].mean(), rel=1e-12)
    assert summary["no_winner_rate"] == pytest.approx((games["winners"] == 0).mean())
    wins = seats.groupby("seat")["won"].mean()
    for row in summary["seat_win_rate"]:
        assert row["rate"] == pytest.approx(wins[row["seat"]])
    # The report's functions on the records give the summary's numbers.
    colours = last_colour_rates(games, list(COLOUR_NAMES)).set_index("colour")
    for name, rate in summary["colour_win_rate"].items():
        assert rate == pytest.approx(colours.loc[name, "rate"], abs=1e-12), name
        expected = list(colours.loc[name, ["low", "high"]])
        assert summary["colour_win_rate_ci95"][name] == pytest.approx(expected, abs=1e-12)
    usefulness = action_usefulness(actions).set_index("action")
    assert list(usefulness.index) == list(summary["actions"])
    for name, row in summary["actions"].items():
        for key in ("per_game", "fell_own_per_use", "fell_other_per_use"):
            mine = usefulness.loc[name]
            expected = [mine[key], mine[f"{key}_low"], mine[f"{key}_high"]]
            got = [row[key], *row[f"{key}_ci95"]]
            got = [float("nan") if v is None else v for v in got]
            assert got == pytest.approx(expected, abs=1e-9, nan_ok=True), (name, key)


def test_the_manifest_reloads_the_rules(tmp_path: Path) -> None:
    directory = tmp_path / "custom"
    args = [
        "-p",
        "3",
        "-g",
        "300",
        "-s",
        "5",
        "--rule",
        "spinner_weights=2,1,3,0",
        "--rule",
        "start_order=bgrybgrybgrybgry",  # any case; kept in capitals
        "--rule",
        "spaces=20",
        "--strategy",
        "detective:sharpness=2",
        "--out",
        directory,
    ]
    summary = simulate_json(*args)
    expected = LaPlancheRules(
        spaces=20, start_order="BGRYBGRYBGRYBGRY", spinner_weights=(2, 1, 3, 0)
    )
    assert summary["rules"] == expected.to_dict()
    assert summary["rules"]["spinner_weights"] == [2, 1, 3, 0]
    run = load_run(directory)
    assert run.setup.game == GAME_ID
    assert run.setup.rules == expected
    assert run.setup.rules.spinner_weights == (2, 1, 3, 0)
    assert (run.setup.players, run.setup.seed, run.games) == (3, 5, 300)
    assert run.setup.lineup.labels == ["detective(sharpness=2)"] * 3
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["rules"] == expected.to_dict()
    assert sorted(manifest["tables"]) == ["actions", "games", "seats"]
    # Twenty spaces: the prisoners start on 0..15 and take longer to reach the shark.
    assert summary["length_mean"] > 20


def test_the_api_gives_the_actions_records(run4) -> None:
    _, directory = run4
    run = api.simulate(GAME_ID, players=4, games=2000, seed=21, threads=2)
    saved_actions = read(directory, "actions")
    pd.testing.assert_frame_equal(run.actions, saved_actions)
    assert run.table("actions") is run.actions  # read once
    with pytest.raises(BalanceError, match="la-planche records no 'cards' table"):
        _ = run.cards


# --- balance report --------------------------------------------------------------------------


def test_report_writes_the_colour_and_action_pages(run4, tmp_path: Path) -> None:
    _, directory = run4
    out = tmp_path / "report"
    text = invoke("report", directory, "--out", out)
    pdf, page = out / "report.pdf", out / "index.html"
    assert text == f"wrote {len(REPORT_PAGES)} pages as PNG, {pdf} and {page}\n"
    pngs = sorted(p.stem for p in out.glob("*.png"))
    assert pngs == REPORT_PAGES
    for page in ("10-colour-win-rates", "11-action-uses", "12-action-prisoners-fallen"):
        data = (out / f"{page}.png").read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, page
    assert pdf_pages(out / "report.pdf") == len(pngs)


def test_colour_chart_labels_follow_the_start_order(tmp_path: Path) -> None:
    directory = tmp_path / "order"
    order = "GGGGBBBBRRRRYYYY"
    summary = simulate_json(
        "-p", "2", "-g", "400", "--rule", f"start_order={order}", "--out", directory
    )
    charts = {chart.name: chart for chart in GAME.report_charts(RunTables.read(directory))}
    assert list(charts) == [
        "10-colour-win-rates",
        "11-action-uses",
        "12-action-prisoners-fallen",
        "13-symbol-choice",
    ]
    ax = charts["10-colour-win-rates"].figure.axes[0]
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels == [
        "yellow\n(starts on 12, 13, 14, 15)",
        "red\n(starts on 8, 9, 10, 11)",
        "green\n(starts on 0, 1, 2, 3)",
        "blue\n(starts on 4, 5, 6, 7)",
    ]
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == pytest.approx(list(summary["colour_win_rate"].values()))
    uses = charts["11-action-uses"].figure.axes[0]
    assert [label.get_text() for label in uses.get_yticklabels()] == list(ACTIONS)


# --- balance replay --------------------------------------------------------------------------


def check_replay(directory: Path, index: int) -> str:
    """Replay game ``index`` and hold the narration to the saved records of that game."""
    text = invoke("replay", directory, index)
    run = load_run(directory)
    game = read(directory, "games").set_index("game").loc[index]
    seats = read(directory, "seats")
    seats = seats[seats["game"] == index].sort_values("seat")
    assert text.startswith(f"La Planche, game {index} of the run seeded {run.setup.seed}\n")
    turns = int(game["turns"])
    numbers = [int(x) for x in re.findall(r"^Turn (\d+): seat \d ", text, re.MULTILINE)]
    assert numbers == list(range(1, turns + 1))
    colours = ", ".join(
        f"seat {s} {c}" for s, c in zip(seats["seat"], seats["colour"], strict=True)
    )
    assert f"\ncolours: {colours}\n" in text
    fell = re.findall(r"^  an? (\w+) prisoner falls to the shark$", text, re.MULTILINE)
    assert "".join(name[0].upper() for name in fell) == game["fall_order"]
    winners = seats.loc[seats["won"], "seat"].tolist()
    who = ", ".join(f"seat {s}" for s in winners) + " wins" if winners else "nobody wins"
    assert text.rstrip("\n").splitlines()[-1] == f"Game over after {turns} turns: {who}"
    return text


def test_replay_narrates_a_game(run4) -> None:
    _, directory = run4
    text = check_replay(directory, 3)
    assert "4 players (seat 0: random, seat 1: random, seat 2: random, seat 3: random)" in text
    assert "spins" in text and "push: ship |" in text


def test_replay_of_a_game_nobody_wins(run2) -> None:
    _, directory = run2
    games = read(directory, "games")
    index = int(games.loc[games["winners"] == 0, "game"].min())
    assert check_replay(directory, index).endswith("nobody wins\n")


def test_replay_of_rotated_strategies(tmp_path: Path) -> None:
    directory = tmp_path / "rotated"
    strategies = ["protector", "detective:sharpness=2", "random"]
    args = ["-p", "3", "-g", "30", "-s", "2", "--rotate-seats", "--out", directory]
    simulate_json(*args, *[x for name in strategies for x in ("--strategy", name)])
    seats = read(directory, "seats")
    for index in (0, 1, 2, 29):
        text = check_replay(directory, index)
        here = seats[seats["game"] == index].sort_values("seat")["strategy"].astype(str)
        listed = ", ".join(f"seat {s}: {label}" for s, label in enumerate(here))
        assert f"3 players ({listed})\n" in text


@pytest.mark.parametrize("index", [0, 5])
def test_replay_of_a_rounds_game(rounds_run, index: int) -> None:
    _, directory = rounds_run
    text = invoke("replay", directory, index)
    game = read(directory, "games").set_index("game").loc[index]
    seats = read(directory, "seats")
    seats = seats[seats["game"] == index].sort_values("seat")
    rounds = int(game["rounds"])
    starts = re.findall(r"^Round (\d+), colours: (.*)$", text, re.MULTILINE)
    assert [int(r) for r, _ in starts] == list(range(1, rounds + 1))
    # The records keep the last round's colours, falls and last prisoner.
    colours = ", ".join(
        f"seat {s} {c}" for s, c in zip(seats["seat"], seats["colour"], strict=True)
    )
    assert starts[-1][1] == colours
    ends = re.findall(r"^Round (\d+) ends, the last is (\w+); scores \[(.*)\]$", text, re.M)
    assert len(ends) == rounds
    assert ends[-1][1] == game["last_colour"]
    assert [int(x) for x in ends[-1][2].split(", ")] == seats["score"].tolist()
    last_round = text.split(f"\nRound {rounds}, colours: ")[1]
    fell = re.findall(r"^  an? (\w+) prisoner falls to the shark$", last_round, re.MULTILINE)
    assert "".join(name[0].upper() for name in fell) == game["fall_order"]
    assert len(re.findall(r"^Turn \d+: ", text, re.MULTILINE)) == game["turns"]
    winners = ", ".join(f"seat {s}" for s in seats.loc[seats["won"], "seat"])
    assert text.endswith(f"Game over after {game['turns']} turns: {winners} wins\n")


# --- balance compare -------------------------------------------------------------------------


def test_compare_through_the_cli() -> None:
    args = ["compare", GAME_ID, "-p", "4", "-g", "800", "-t", "2"]
    variants = ["--variant", "base", "--variant", "spinner_weights=1,1,1,0"]
    out = invoke(*args, *variants)
    assert out.startswith("la-planche: 2 variants compared on the same 800 games")
    assert "  spinner_weights=1,1,1,0: spinner_weights=1,1,1,0\n" in out
    section = out.split("\nspinner_weights=1,1,1,0 vs base:\n")[1].split("\n\n")[0]
    rows = [line.split("  ")[1].strip() for line in section.splitlines()[1:]]
    expected = [f"{name} is the last prisoner" for name in COLOUR_NAMES]
    expected += [f"{name} per round" for name in ACTIONS]
    assert set(expected) <= set(rows), rows
    # No skull: "nothing" happens far less, significantly so.
    nothing = next(line for line in section.splitlines() if "nothing per round" in line)
    assert nothing.endswith(" *") and " -" in nothing


def test_identical_rules_under_another_label_give_no_difference() -> None:
    assert LaPlancheRules().target == 12  # without the rounds variant, target changes nothing
    same = compare(GAME_ID, 4, 1000, ["base", "target=12"], seed=4, threads=2)
    pd.testing.assert_frame_equal(same.per_game["base"], same.per_game["target=12"])
    later = same.table[same.table["run"] == "target=12"]
    metrics = later["metric"].tolist()
    for name in COLOUR_NAMES:
        assert f"{name} is the last prisoner" in metrics
    for name in ACTIONS:
        assert f"{name} per round" in metrics
    assert (later["difference"] == 0).all()
    means = later[later["kind"] != "index"]
    # No game differed: a rate's interval is the exact bound of none in 1,000 games.
    rare = 1 - 0.025 ** (1 / 1000)
    rates = means["kind"].isin(RATE_KINDS).to_numpy()
    assert means["diff_low"][rates].to_numpy() == pytest.approx(-rare)
    assert means["diff_high"][rates].to_numpy() == pytest.approx(rare)
    assert (means["diff_low"][~rates] == 0).all() and (means["diff_high"][~rates] == 0).all()
    assert not same.table["significant"].any()


def test_a_spinner_without_skulls_changes_the_games() -> None:
    both = compare(GAME_ID, 4, 1000, ["base", "spinner_weights=1,1,1,0"], seed=4, threads=2)
    assert both.setups["spinner_weights=1,1,1,0"].rules.spinner_weights == (1, 1, 1, 0)
    table = both.table[both.table["run"] == "spinner_weights=1,1,1,0"].set_index("metric")
    assert table.loc["nothing per round", "difference"] < -1
    assert bool(table.loc["nothing per round", "significant"])
    assert table.loc["swap per round", "difference"] > 0


# --- rule parameters on the command line -----------------------------------------------------


@pytest.fixture(scope="module")
def base4() -> dict:
    return simulate_json("-p", "4", "-g", "4000", "-s", "13")


def test_the_colour_nearest_the_ship_wins_most(base4) -> None:
    rates = base4["colour_win_rate"]
    # Yellow starts on space 0, blue on 15: yellow is last most often, blue least.
    assert max(rates, key=rates.get) == "yellow"
    assert min(rates, key=rates.get) == "blue"
    assert rates["yellow"] - rates["blue"] > 0.03  # about five standard errors


@pytest.mark.parametrize("order", ["BGRYBGRYBGRYBGRY", "RBYGRBYGRBYGRBYG"])
def test_start_order_moves_the_advantage(base4, order: str) -> None:
    summary = simulate_json("-p", "4", "-g", "4000", "-s", "13", "--rule", f"start_order={order}")
    assert summary["rules"]["start_order"] == order
    rates = summary["colour_win_rate"]
    assert rates != base4["colour_win_rate"]
    assert max(rates, key=rates.get) == COLOUR_OF[order[0]]
    assert min(rates, key=rates.get) == COLOUR_OF[order[3]]
    # Random play is colour-blind: the same games with the colours relabelled.
    relabel = dict(zip("YRGB", order[:4], strict=True))
    for letter, rate in base4["colour_win_rate"].items():
        assert rates[COLOUR_OF[relabel[letter[0].upper()]]] == rate
    assert summary["length_mean"] == base4["length_mean"]


def test_more_spaces_change_the_games(base4) -> None:
    summary = simulate_json("-p", "4", "-g", "4000", "-s", "13", "--rule", "spaces=20")
    assert summary["rules"]["spaces"] == 20
    assert summary["colour_win_rate"] != base4["colour_win_rate"]
    # Two more spaces to cross before the first prisoner falls: about two more turns.
    assert summary["length_mean"] > base4["length_mean"] + 1


BAD_RULES = [
    ("spaces=10", ["spaces", "10", "16..32"]),
    ("spaces=33", ["spaces", "33"]),
    ("start_order=YYYY", ["start_order", "'YYYY'"]),
    ("start_order=YYYYRRRRGGGGBBBR", ["start_order", "5 of R"]),
    ("spinner_weights=0,0,0,1", ["spinner_weights", "cannot all weigh 0"]),
    ("spinner_weights=1,1,1", ["spinner_weights", "3 weights"]),
    ("spinner_weights=1,x,1,1", ["spinner_weights", "'1,x,1,1'"]),
    ("spinner_weights=-1,1,1,1", ["spinner_weights", "-1"]),
    ("turn_cap=0", ["turn_cap", "0"]),
    ("target=0", ["target"]),
    ("rounds=maybe", ["rounds", "'maybe'"]),
    ("plank_max=4", ["unknown rule 'plank_max'", "spaces"]),
    ("spaces", ["--rule needs NAME=VALUE"]),
]


@pytest.mark.parametrize(("rule", "fragments"), BAD_RULES, ids=[r for r, _ in BAD_RULES])
def test_bad_rule_values_are_one_line_errors(monkeypatch, capsys, rule: str, fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, "simulate", GAME_ID, "-g", "10", "--rule", rule)
    assert_one_line_error(code, out, err, *fragments)


def test_bad_variant_in_compare(monkeypatch, capsys) -> None:
    args = ["compare", GAME_ID, "-g", "10", "--variant", "base", "--variant", "kraken"]
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, "unknown variant 'kraken'", "rounds")


# --- what La Planche does not do ------------------------------------------------------------


ERRORS = [
    (["cards", GAME_ID, "-g", "10", "--card", "skull"], ["can forbid swap, advance, move"]),
    (
        ["cards", GAME_ID, "-g", "10", "--card", "push"],
        ["not 'push'"],
    ),
    (["cards", GAME_ID, "-p", "5"], ["la-planche plays 2 to 4 players, not 5"]),
    (["simulate", GAME_ID, "-p", "5"], ["la-planche plays 2 to 4 players, not 5"]),
    (["simulate", GAME_ID, "-p", "1"], ["2 to 4 players", "not 1"]),
    (["simulate", GAME_ID, "--variant", "kraken"], ["unknown variant 'kraken'", "rounds"]),
    (
        ["simulate", GAME_ID, "--strategy", "greedy"],
        ["unknown strategy 'greedy'", "protector", "detective"],
    ),
    (
        ["simulate", GAME_ID, "-p", "3", "--strategy", "protector", "--strategy", "random"],
        ["2 given for 3 players"],
    ),
    (["simulate", GAME_ID, "--strategy", "detective:bravery=2"], ["'bravery=2'"]),
]


@pytest.mark.parametrize(("args", "fragments"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_user_errors_are_one_line(monkeypatch, capsys, args: list[str], fragments) -> None:
    assert_one_line_error(*call_main(monkeypatch, capsys, *args), *fragments)


def test_report_with_restricted_play_adds_the_symbol_values(run2, tmp_path) -> None:
    _, directory = run2
    out = tmp_path / "restricted"
    invoke("report", str(directory), "--out", str(out), "--restricted-play", "40")
    table = pd.read_csv(out / "restricted-play.csv")
    assert list(table["action"]) == ["swap", "advance", "move"]
    assert (table["games"] == 40).all()
    assert (out / "20-value-by-restricted-play.png").exists()


# --- strategies ------------------------------------------------------------------------------


def test_rotated_strategies_get_their_own_win_rates() -> None:
    args = ["-p", "3", "-g", "1200", "-s", "6", "--rotate-seats"]
    for name in ("protector", "detective", "random"):
        args += ["--strategy", name]
    summary = simulate_json(*args)
    assert summary["strategies"] == ["protector", "detective", "random"]
    assert summary["rotate_seats"] is True
    rows = summary["strategy_win_rate"]
    assert [row["strategy"] for row in rows] == ["protector", "detective", "random"]
    assert all(row["seats_played"] == 1200 for row in rows)
    for row in rows:
        assert within(row["ci95"], row["rate"])
    # Every game won by someone is won by one of the three.
    won = sum(row["rate"] * row["seats_played"] for row in rows)
    assert won == pytest.approx(1200 * (1 - summary["no_winner_rate"]))
    # The strategies that look ahead beat the uniform player.
    rates = {row["strategy"]: row["rate"] for row in rows}
    assert rates["random"] < min(rates["protector"], rates["detective"])
    out = invoke("simulate", GAME_ID, *args)
    assert "Win rate per strategy" in out and "seats rotated over all 6 orders" in out


def test_summary_lines_print_the_intervals_of_prisoners_fallen_per_use() -> None:
    action = {
        "per_game": 5.25,
        "per_game_ci95": [5.0, 5.5],
        "fell_own_per_use": 0.125,
        "fell_own_per_use_ci95": [0.118, 0.132],
        "fell_other_per_use": 0.25,
        "fell_other_per_use_ci95": [0.241, 0.259],
    }
    summary = {
        "games": 4000,
        "no_winner_rate": 0.1,
        "no_winner_ci95": [0.09, 0.11],
        "colour_win_rate": {},
        "actions": {"push": action},
    }
    lines = GAME.summary_lines(summary)
    assert any("4,000 games, 95% intervals" in line for line in lines)
    row = next(line for line in lines if line.startswith("  push "))
    assert "own 0.125 [0.118, 0.132]" in row and "other 0.250 [0.241, 0.259]" in row
