"""Lifeboats through the shared machinery: listings, simulate (JSON and text), the saved
records, rule parameters, strategies, report, replay, compare and one-line errors."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import cli_helpers
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke, pdf_pages, within

from balance import api
from balance.analyses.run_report import RunTables
from balance.core.errors import BalanceError
from balance.core.game import seating_orders
from balance.games.lifeboats.game import GAME, HAT_ROUND_COLUMNS
from balance.games.lifeboats.layout import ISLAND_NAMES, TIE_RULES
from balance.games.lifeboats.metrics import win_rate_by_lane
from balance.games.lifeboats.rules import LifeboatsRules
from balance.run.results import load_run
from balance.stats.intervals import mean_interval, wilson_interval

GAME_ID = "lifeboats"
GAMES = 2000
SEED = 7
DEFAULTS = LifeboatsRules()
RULE_NAMES = [row["name"] for row in LifeboatsRules.describe()]
STRATEGIES = ["random", "steward", "hatkeeper", "swimmer", "mc", "ismcts"]
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
#: The per-game totals the summary reports as ``NAME_mean`` with ``NAME_ci95``.
PER_GAME = (
    "pawns_saved",
    "pawns_overboard",
    "pawns_sunk",
    "pawns_no_seat",
    "hats_used",
    "boats_landed",
    "boats_sunk",
    "ballots",
    "hat_decided",
    "ties_broken",
    "revotes",
)
OWN_KEYS = {
    "score_mean",
    "score_ci95",
    "shared_win_rate",
    "shared_win_ci95",
    "tie_rule",
    "tie_rule_ci95",
    "tie_rule_games",
    *(f"{name}_mean" for name in PER_GAME),
    *(f"{name}_ci95" for name in PER_GAME),
}
GAMES_COLUMNS = [
    "game",
    "rounds",
    "finished",
    "winners",
    "first_landed",
    "boats_landed",
    "boats_sunk",
    "votes",
    "hat_decided",
    "revotes",
    "ties_broken",
    "tie_rule",
    *HAT_ROUND_COLUMNS,
]
SEATS_COLUMNS = [
    "game",
    "seat",
    "strategy",
    "won",
    "score",
    "placed_officers",
    "placed_sailors",
    "saved_officers",
    "saved_sailors",
    "overboard",
    "sunk",
    "no_seat",
    "hats_used",
    "hats_decisive",
]
BOATS_COLUMNS = ["game", "boat", "lane", "island", "fate", "round", "aboard", "order", "leaks"]
#: No player's boat can land (a track of 100, leaks without end, a pawn each in boats of
#: two seats): every boat sinks, every score is 0 and the tie is shared by all.
SINKING = (
    "track_length=100",
    "round_cap=1000",
    "leaks=999",
    "seats_per_boat=2",
    "officers=1,1,1,1",
    "sailors=0,0,0,0",
)
PLAIN_PAGES = [
    "00-findings",
    "00-title",
    "01-seat-win-rates",
    "03-game-length",
    "04-games-still-running",
    "10-score-by-seat",
    "11-score-distribution-by-seat",
    "14-boats-by-lane",
    "15-win-rate-by-hats-left",
    "16-how-the-winner-was-decided",
    "17-win-rate-by-lane",
    "18-hats-by-round",
]
MIXED_PAGES = sorted(
    [
        *PLAIN_PAGES,
        "02-strategy-win-rates",
        "12-score-by-strategy",
        "13-score-distribution-by-strategy",
    ]
)


simulate_json = functools.partial(cli_helpers.simulate_json, GAME_ID)


def rule_args(*rules: str) -> list[str]:
    return [x for rule in rules for x in ("--rule", rule)]


def read(directory: Path, name: str) -> pd.DataFrame:
    return pq.read_table(directory / f"{name}.parquet").to_pandas()


def saved_run(factory: pytest.TempPathFactory, name: str, *args: str) -> tuple[dict, Path]:
    """``simulate --json ... --out DIR`` on two threads: the summary and the directory."""
    directory = factory.mktemp("lifeboats") / name
    return simulate_json(*args, "-t", "2", "--out", directory), directory


def per_game_totals(seats: pd.DataFrame, *columns: str) -> np.ndarray:
    """The sum of ``columns`` over the seats of each game, in game order."""
    return seats.groupby("game")[list(columns)].sum().sum(axis=1).to_numpy()


def decide_winners(scores: np.ndarray, order: np.ndarray, n: int) -> tuple[str, list[int]]:
    """The winners by the documented end-of-game rules (D13 of docs/lifeboats.md).

    ``scores``: one a seat; ``order``: each boat's landing order (0: did not land), the
    seats' boats first.
    """
    top = scores.max()
    tied = [s for s in range(n) if scores[s] == top]
    if len(tied) == 1:
        return "no tie", tied
    landed = [s for s in tied if order[s] > 0]
    if landed:
        return "own boat landed first", [min(landed, key=lambda s: order[s])]
    players = [s for s in range(n) if order[s] > 0]
    if players:
        first = min(players, key=lambda s: order[s])
        after = [(first + k) % n for k in range(1, n + 1)]
        return "clockwise from the first lander", [next(s for s in after if s in tied)]
    return "shared", tied


# --- listings --------------------------------------------------------------------------------


def test_listings_name_lifeboats() -> None:
    assert "lifeboats  (Lifeboats (Rette sich wer kann), 3-6 players; built in)\n" in invoke(
        "games"
    )
    listed = re.findall(r"^(\w+)  \(default ", invoke("rules", GAME_ID), re.MULTILINE)
    assert listed == RULE_NAMES
    assert RULE_NAMES == [
        "seats_per_boat",
        "lane_islands",
        "officer_points",
        "sailor_points",
        "track_length",
        "officers",
        "sailors",
        "sailors_by_seat",
        "hats",
        "leaks",
        "stay_without_seat",
        "round_cap",
    ]
    rules = invoke("rules", GAME_ID)
    assert "lane_islands  (default 0,0,1,1,2,2,2; allowed " in rules
    assert "hats  (default 3; allowed 0..99)" in rules
    strategies = re.findall(r"^(\w+)$", invoke("strategies", GAME_ID), re.MULTILINE)
    assert strategies == STRATEGIES


# --- simulate --json for 3 to 6 players, with the records ------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[dict, Path]]:
    """A saved run of 2,000 random games for each player count, played when first asked."""

    class Lazy(dict):
        def __missing__(self, players: int) -> tuple[dict, Path]:
            args = ("-p", str(players), "-g", str(GAMES), "-s", str(SEED))
            self[players] = saved_run(tmp_path_factory, f"run-{players}p", *args)
            return self[players]

    return Lazy()


@pytest.fixture(params=[3, 4, 5, 6], ids=["3p", "4p", "5p", "6p"])
def run(request: pytest.FixtureRequest, runs) -> tuple[dict, Path]:
    return runs[request.param]


def test_json_has_every_key(run) -> None:
    summary, _ = run
    n = summary["players"]
    assert summary.keys() >= COMMON_KEYS | OWN_KEYS
    assert summary["game"] == GAME_ID
    assert (summary["games"], summary["seed"], summary["threads"]) == (GAMES, SEED, 2)
    assert summary["variants"] == []
    assert list(summary["rules"]) == RULE_NAMES
    assert summary["rules"] == DEFAULTS.to_dict()
    assert summary["rules"]["lane_islands"] == [0, 0, 1, 1, 2, 2, 2]
    assert summary["strategies"] == ["random"] * n
    assert summary["length_unit"] == "rounds"
    assert "strategy_win_rate" not in summary  # one strategy only
    assert [row["seat"] for row in summary["seat_win_rate"]] == list(range(n))
    assert len(summary["score_mean"]) == len(summary["score_ci95"]) == n
    assert all(isinstance(x, float) for x in summary["score_mean"])
    for mean, pair in zip(summary["score_mean"], summary["score_ci95"], strict=True):
        assert within(pair, mean) and pair[0] < pair[1]
    for name in PER_GAME:
        assert isinstance(summary[f"{name}_mean"], float), name
        assert within(summary[f"{name}_ci95"], summary[f"{name}_mean"]), name
    assert within(summary["shared_win_ci95"], summary["shared_win_rate"])
    assert list(summary["tie_rule"]) == list(TIE_RULES)
    assert list(summary["tie_rule_ci95"]) == list(TIE_RULES)
    assert summary["elapsed_s"] > 0 and summary["games_per_s"] > 0


def test_json_keys_are_the_documented_ones(runs) -> None:
    summary, _ = runs[4]
    docs = (Path(__file__).parents[2] / "docs" / "lifeboats.md").read_text()
    paragraph = docs.split("`balance simulate lifeboats --json` adds")[1].split("\n\n")[0]
    named = {name for name in re.findall(r"`(\w+)`", paragraph) if not name.startswith("_")}
    assert named >= {"score_mean", "pawns_saved_mean", "shared_win_rate", "tie_rule"}
    assert named <= summary.keys(), named - summary.keys()
    for name in named:
        if name.endswith("_mean") and name != "score_mean":
            assert f"{name[: -len('_mean')]}_ci95" in summary, name


def test_json_values_are_consistent(run) -> None:
    summary, _ = run
    n = summary["players"]
    assert summary["finished_rate"] == 1.0  # no random game reaches 60 rounds
    assert sum(summary["tie_rule"].values()) == pytest.approx(1.0, abs=1e-12)
    assert summary["tie_rule_games"] == summary["games"]  # every game finished
    # Somebody's boat always lands with the default rules: no win is ever shared.
    assert summary["tie_rule"]["shared"] == 0.0 and summary["shared_win_rate"] == 0.0
    assert summary["winner_count"]["1"] == 1.0
    wins = sum(row["rate"] for row in summary["seat_win_rate"])
    assert wins == pytest.approx(1.0, abs=1e-12)
    assert summary["boats_landed_mean"] + summary["boats_sunk_mean"] == pytest.approx(n + 1)
    officers, sailors = DEFAULTS.pawns(n)
    lost = sum(summary[f"{name}_mean"] for name in PER_GAME[:4])
    assert lost == pytest.approx(n * (officers + sailors))  # every pawn lands or is lost
    assert summary["hats_used_mean"] <= n * DEFAULTS.hats
    assert summary["hat_decided_mean"] <= summary["hats_used_mean"]
    # One leak vote and one move vote a round at least (revotes and overboard votes add).
    assert summary["ballots_mean"] >= 2 * summary["length_mean"] - 1


def test_summary_matches_the_records(run) -> None:
    summary, directory = run
    n = summary["players"]
    games, seats = read(directory, "games"), read(directory, "seats")
    assert json.loads((directory / "summary.json").read_text())["games"] == GAMES
    assert summary["length_mean"] == pytest.approx(games["rounds"].mean(), rel=1e-12)
    for seat in range(n):
        scores = seats.loc[seats["seat"] == seat, "score"].to_numpy()
        mean, low, high = mean_interval(scores)
        assert summary["score_mean"][seat] == pytest.approx(mean, rel=1e-12), seat
        assert summary["score_ci95"][seat] == pytest.approx([low, high], rel=1e-12), seat
    from_seats = {
        "pawns_saved": ("saved_officers", "saved_sailors"),
        "pawns_overboard": ("overboard",),
        "pawns_sunk": ("sunk",),
        "pawns_no_seat": ("no_seat",),
        "hats_used": ("hats_used",),
    }
    from_games = {
        "boats_landed": "boats_landed",
        "boats_sunk": "boats_sunk",
        "ballots": "votes",
        "hat_decided": "hat_decided",
        "ties_broken": "ties_broken",
        "revotes": "revotes",
    }
    assert set(from_seats) | set(from_games) == set(PER_GAME)
    for name in PER_GAME:
        if name in from_seats:
            values = per_game_totals(seats, *from_seats[name])
        else:
            values = games[from_games[name]].to_numpy()
        mean, low, high = mean_interval(values)
        assert summary[f"{name}_mean"] == pytest.approx(mean, rel=1e-12), name
        assert summary[f"{name}_ci95"] == pytest.approx([low, high], rel=1e-9, abs=1e-12), name
    shared = int((games["winners"] >= 2).sum())
    assert summary["shared_win_rate"] == shared / GAMES
    assert summary["shared_win_ci95"] == pytest.approx(list(wilson_interval(shared, GAMES)))
    rule = games["tie_rule"].astype(object)
    finished = int(rule.notna().sum())
    for name in TIE_RULES:
        hits = int((rule == name).sum())
        assert summary["tie_rule"][name] == pytest.approx(hits / finished), name
        expected = list(wilson_interval(hits, finished))
        assert summary["tie_rule_ci95"][name] == pytest.approx(expected), name
    wins = seats.groupby("seat")["won"].mean()
    for row in summary["seat_win_rate"]:
        assert row["rate"] == pytest.approx(wins[row["seat"]])
    for k, rate in summary["winner_count"].items():
        assert rate == pytest.approx((games["winners"] == int(k)).mean()), k


def test_records_have_a_row_per_game_seat_and_boat(run) -> None:
    summary, directory = run
    n = summary["players"]
    assert {p.name for p in directory.iterdir()} == {
        "games.parquet",
        "seats.parquet",
        "boats.parquet",
        "manifest.json",
        "summary.json",
    }
    games, seats, boats = (read(directory, name) for name in ("games", "seats", "boats"))
    assert list(games.columns) == GAMES_COLUMNS
    assert list(seats.columns) == SEATS_COLUMNS
    assert list(boats.columns) == BOATS_COLUMNS
    assert (len(games), len(seats), len(boats)) == (GAMES, GAMES * n, GAMES * (n + 1))
    assert games["game"].tolist() == list(range(GAMES))
    assert seats["game"].tolist() == np.repeat(np.arange(GAMES), n).tolist()
    assert seats["seat"].tolist() == list(range(n)) * GAMES
    assert boats["game"].tolist() == np.repeat(np.arange(GAMES), n + 1).tolist()
    names = [f"seat {s}" for s in range(n)] + ["black"]
    assert boats["boat"].astype(str).tolist() == names * GAMES
    assert list(boats["fate"].cat.categories) == ["afloat", "landed", "sunk"]
    assert list(games["tie_rule"].cat.categories) == list(TIE_RULES)
    assert list(boats["island"].cat.categories) == list(ISLAND_NAMES)
    assert (seats["strategy"].astype(str) == "random").all()


def test_records_match_the_documented_columns(runs) -> None:
    _, directory = runs[4]
    docs = (Path(__file__).parents[2] / "docs" / "lifeboats.md").read_text()
    for name, columns in (
        ("games", GAMES_COLUMNS),
        ("seats", SEATS_COLUMNS),
        ("boats", BOATS_COLUMNS),
    ):
        item = docs.split(f"- `{name}.parquet`: ")[1].split("\n- ")[0].split("\n\n")[0]
        item = re.sub(r"\([^)]*\)", "", item)  # what a column holds, in brackets
        assert re.findall(r"`(\w+)`", item) == columns, name
        assert list(read(directory, name).columns) == columns, name


def test_lane_win_rates_and_hats_by_round_match_the_records(run) -> None:
    summary, directory = run
    games, seats, boats = (
        read(directory, "games"),
        read(directory, "seats"),
        read(directory, "boats"),
    )
    table = win_rate_by_lane(seats, boats)
    assert summary["lane_win_rate"] == {
        str(lane): pytest.approx(rate)
        for lane, rate in zip(table["lane"], table["rate"], strict=True)
    }
    assert sum(summary["lane_seats"].values()) == len(seats)  # every player's boat, once
    # Every hat played is counted in one round, and none in a round the game did not reach.
    games = games.set_index("game")
    used = seats.groupby("game")["hats_used"].sum()
    assert (games[HAT_ROUND_COLUMNS].sum(axis=1) == used.loc[games.index]).all()
    for r, column in enumerate(HAT_ROUND_COLUMNS[:-1], start=1):
        assert (games.loc[games["rounds"] < r, column] == 0).all(), column
    assert summary["hats_by_round_games"][0] == len(games)
    first = games["hats_round_1"].mean()
    assert summary["hats_by_round_mean"][0] == pytest.approx(first)


def test_every_pawn_is_accounted_for(run) -> None:
    summary, directory = run
    n = summary["players"]
    seats, boats = read(directory, "seats"), read(directory, "boats")
    officers, sailors = DEFAULTS.pawns(n)
    # All pawns fit in the boats: every one is placed at the start.
    assert (seats["placed_officers"] == officers).all()
    assert (seats["placed_sailors"] == sailors).all()
    fate = boats["fate"].astype(str)

    def aboard(which: str) -> np.ndarray:
        here = boats[fate == which].groupby("game")["aboard"].sum()
        return here.reindex(range(GAMES), fill_value=0).to_numpy()

    placed = per_game_totals(seats, "placed_officers", "placed_sailors")
    saved = per_game_totals(seats, "saved_officers", "saved_sailors")
    lost = per_game_totals(seats, "overboard", "sunk", "no_seat")
    np.testing.assert_array_equal(placed, saved + lost + aboard("afloat"))
    # The pawns that land are those aboard the landed boats; those sunk, the sunk boats'.
    np.testing.assert_array_equal(saved, aboard("landed"))
    np.testing.assert_array_equal(per_game_totals(seats, "sunk"), aboard("sunk"))
    assert (seats["saved_officers"] <= officers).all()
    assert (seats["saved_sailors"] <= sailors).all()


def test_boats_land_or_sink_once_each(run) -> None:
    summary, directory = run
    n = summary["players"]
    games, boats = read(directory, "games"), read(directory, "boats")
    fate = boats["fate"].astype(str)
    counts = pd.crosstab(boats["game"], fate).reindex(columns=["afloat", "landed", "sunk"])
    counts = counts.fillna(0).astype(int)
    np.testing.assert_array_equal(counts["landed"], games["boats_landed"])
    np.testing.assert_array_equal(counts["sunk"], games["boats_sunk"])
    assert (counts.sum(axis=1) == n + 1).all()
    assert (counts["afloat"] == 0).all()  # every game finished
    # Each boat has a lane of its own, leading to the island the rules say.
    assert (boats.groupby("game")["lane"].nunique() == n + 1).all()
    assert boats["lane"].between(0, DEFAULTS.lanes - 1).all()
    expected = [ISLAND_NAMES[DEFAULTS.lane_islands[lane]] for lane in boats["lane"]]
    assert boats["island"].astype(str).tolist() == expected
    # Landing order 1, 2, ... over the landed boats; the first is the games' first_landed.
    landed = boats[fate == "landed"]
    assert (boats.loc[fate != "landed", "order"] == 0).all()
    orders = landed.groupby("game")["order"].agg(lambda o: sorted(o.tolist()))
    assert all(o == list(range(1, len(o) + 1)) for o in orders)
    first = landed[landed["order"] == 1].set_index("game")["boat"].astype(str)
    named = games.set_index("game")["first_landed"].astype(object)
    assert named.notna().equals(games.set_index("game")["boats_landed"] > 0)
    assert (named[first.index].astype(str) == first).all()
    # A boat leaves the water in a round of the game; the last one ends it.
    rounds = games.set_index("game")["rounds"]
    assert (boats["round"] >= 1).all()
    assert (boats["round"].to_numpy() <= np.repeat(rounds.to_numpy(), n + 1)).all()
    np.testing.assert_array_equal(boats.groupby("game")["round"].max(), rounds)
    # A landed boat never held more leaks than pawns; a sunk boat did.
    sunk = boats[fate == "sunk"]
    assert (landed["leaks"] <= landed["aboard"]).all()
    assert (sunk["leaks"] > sunk["aboard"]).all()
    # One leak a round until the markers run out, and leaks never leave the boats.
    leaks = boats.groupby("game")["leaks"].sum().to_numpy()
    np.testing.assert_array_equal(leaks, np.minimum(rounds.to_numpy(), DEFAULTS.leaks))


def test_the_winners_follow_the_scores_and_tie_breaks(run) -> None:
    summary, directory = run
    n = summary["players"]
    games, seats, boats = (read(directory, name) for name in ("games", "seats", "boats"))
    scores = seats["score"].to_numpy().reshape(GAMES, n)
    won = seats["won"].to_numpy().reshape(GAMES, n)
    order = boats["order"].to_numpy().reshape(GAMES, n + 1)
    np.testing.assert_array_equal(won.sum(axis=1), games["winners"])
    rules = games["tie_rule"].astype(str).tolist()
    for g in range(GAMES):
        rule, winners = decide_winners(scores[g], order[g], n)
        assert (rules[g], np.flatnonzero(won[g]).tolist()) == (rule, winners), (g, scores[g])
    # A finished game's winners have the top score.
    best = seats.groupby("game")["score"].transform("max")
    assert (seats.loc[seats["won"], "score"] == best[seats["won"]]).all()
    assert (games["winners"] == 1).all()


def test_tie_breaks_happen(runs) -> None:
    # Seed-fixed records: both tie-breaks decide some of the 4-player games.
    summary, _ = runs[4]
    assert 0 < summary["tie_rule"]["own boat landed first"] < 0.2
    assert 0 < summary["tie_rule"]["clockwise from the first lander"] < 0.05
    assert summary["tie_rule"]["no tie"] > 0.75


def test_scores_lie_between_the_island_values(run) -> None:
    # Officers score 6 to 8 and sailors 4 to 6, whichever island they reach.
    _, directory = run
    seats = read(directory, "seats")
    officers, sailors = seats["saved_officers"], seats["saved_sailors"]
    low = min(DEFAULTS.officer_points) * officers + min(DEFAULTS.sailor_points) * sailors
    high = max(DEFAULTS.officer_points) * officers + max(DEFAULTS.sailor_points) * sailors
    assert (seats["score"] >= low).all() and (seats["score"] <= high).all()
    assert ((seats["score"] == 0) == (officers + sailors == 0)).all()


def test_hats_in_the_records(run) -> None:
    _, directory = run
    games, seats = read(directory, "games"), read(directory, "seats")
    assert seats["hats_used"].between(0, DEFAULTS.hats).all()
    assert (seats["hats_decisive"] <= seats["hats_used"]).all()
    np.testing.assert_array_equal(per_game_totals(seats, "hats_decisive"), games["hat_decided"])
    assert (games["hat_decided"] + games["ties_broken"] + games["revotes"] <= games["votes"]).all()
    # Random players play a hat in most ballots they may: nearly all hats go.
    assert seats["hats_used"].mean() > 2.5


def test_the_api_gives_the_saved_records(runs) -> None:
    _, directory = runs[4]
    run = api.simulate(GAME_ID, players=4, games=GAMES, seed=SEED, threads=2)
    for name in ("games", "seats", "boats"):
        pd.testing.assert_frame_equal(run.table(name), read(directory, name))
    with pytest.raises(BalanceError, match="lifeboats records no 'cards' table"):
        _ = run.cards


# --- the text summary ------------------------------------------------------------------------


def test_text_summary_gives_scores_pawns_and_tie_rules() -> None:
    args = ("simulate", GAME_ID, "-p", "5", "-g", "1500", "-s", "4", "-t", "1")
    out = invoke(*args)
    summary = json.loads(invoke(*args, "--json"))
    assert out.startswith("lifeboats: 1,500 games, 5 players, seed 4\n")
    assert re.search(r"^Game length: mean \d+\.\d\d rounds \[", out, re.MULTILINE)
    assert "\nMean score by seat:\n" in out
    for seat, mean in enumerate(summary["score_mean"]):
        assert re.search(rf"^  seat {seat}\s+{mean:.2f}  \[", out, re.MULTILINE), seat
    rate = 100 * summary["shared_win_rate"]
    assert re.search(rf"^Shared wins \(.*\): {rate:.1f}% \[", out, re.MULTILINE)
    assert "\nPer game, all seats together:\n" in out
    labels = {
        "pawns_saved": "pawns saved (landed)",
        "pawns_overboard": "pawns thrown overboard",
        "pawns_sunk": "pawns sunk with a boat",
        "pawns_no_seat": "swimmers with no seat",
        "boats_landed": "boats landed",
        "boats_sunk": "boats sunk",
        "ballots": "ballots (revotes included)",
        "hats_used": "captain's hats played",
        "hat_decided": "ballots a lone hat decided",
        "ties_broken": "ties the first player broke",
    }
    for name, label in labels.items():
        mean = summary[f"{name}_mean"]
        assert re.search(rf"^  {re.escape(label)}\s+{mean:.2f} \[", out, re.MULTILINE), name
    finished = summary["tie_rule_games"]
    assert f"\nHow the winner was decided ({finished:,} finished games, 95% Wilson " in out
    for name, rate in summary["tie_rule"].items():
        assert re.search(rf"^  {name}\s+{100 * rate:.1f}%  \[", out, re.MULTILINE), name


# --- rule parameters on the command line -----------------------------------------------------


@pytest.fixture(scope="module", params=[3, 6], ids=["3p", "6p"])
def sinking(request, tmp_path_factory) -> tuple[dict, Path]:
    args = ("-p", str(request.param), "-g", "1000", "-s", "5", *rule_args(*SINKING))
    return saved_run(tmp_path_factory, f"sinking-{request.param}p", *args)


def test_the_sinking_rules_sink_every_boat(sinking) -> None:
    summary, directory = sinking
    n = summary["players"]
    expected = LifeboatsRules(
        track_length=100,
        round_cap=1000,
        leaks=999,
        seats_per_boat=2,
        officers=(1, 1, 1, 1),
        sailors=(0, 0, 0, 0),
    )
    assert summary["rules"] == expected.to_dict()
    assert load_run(directory).setup.rules == expected
    games, seats, boats = (read(directory, name) for name in ("games", "seats", "boats"))
    assert games["finished"].all() and (games["rounds"] < 100).all()
    assert (games["boats_sunk"] == n + 1).all() and (games["boats_landed"] == 0).all()
    assert (boats["fate"].astype(str) == "sunk").all()
    assert games["first_landed"].isna().all()
    assert (seats["score"] == 0).all()
    assert (seats["saved_officers"] + seats["saved_sailors"] == 0).all()
    lost = per_game_totals(seats, "overboard", "sunk", "no_seat")
    assert (lost == n).all()  # one pawn each, all drowned


def test_a_shared_win_counts_for_every_tied_winner(sinking) -> None:
    summary, directory = sinking
    n = summary["players"]
    assert summary["finished_rate"] == 1.0
    assert summary["shared_win_rate"] == 1.0
    assert summary["winner_count"][str(n)] == 1.0
    assert sum(summary["winner_count"].values()) == pytest.approx(1.0, abs=1e-12)
    assert all(row["rate"] == 1.0 for row in summary["seat_win_rate"])
    assert summary["tie_rule"] == {name: float(name == "shared") for name in TIE_RULES}
    assert summary["score_mean"] == [0.0] * n
    assert summary["boats_sunk_mean"] == n + 1 and summary["pawns_saved_mean"] == 0
    games, seats = read(directory, "games"), read(directory, "seats")
    assert seats["won"].all() and (games["winners"] == n).all()
    assert (games["tie_rule"].astype(str) == "shared").all()


def test_no_hats(runs) -> None:
    base, _ = runs[4]
    summary = simulate_json("-p", "4", "-g", str(GAMES), "-s", str(SEED), "--rule", "hats=0")
    assert summary["rules"]["hats"] == 0
    for name in ("hats_used", "hat_decided", "revotes"):
        assert summary[f"{name}_mean"] == 0.0, name
        assert summary[f"{name}_ci95"] == [0.0, 0.0], name
    assert base["hats_used_mean"] > 10 and base["hat_decided_mean"] > 5
    # Without hats the first player breaks more ties.
    assert summary["ties_broken_mean"] > base["ties_broken_mean"]


def test_no_leaks() -> None:
    n = 4
    summary = simulate_json("-p", str(n), "-g", "1000", "-s", "3", "--rule", "leaks=0")
    assert summary["rules"]["leaks"] == 0
    for name in ("boats_sunk", "pawns_overboard", "pawns_sunk"):
        assert summary[f"{name}_mean"] == 0.0, name
    # Nothing sinks: every boat lands, one step a round, three steps each.
    assert summary["boats_landed_mean"] == n + 1
    assert summary["length_mean"] == DEFAULTS.track_length * (n + 1)
    assert summary["length_sd"] == 0.0
    # A move vote a round, and the revotes: nothing else is put to the vote.
    moves = DEFAULTS.track_length * (n + 1)
    assert summary["ballots_mean"] == pytest.approx(moves + summary["revotes_mean"])
    officers, sailors = DEFAULTS.pawns(n)
    total = summary["pawns_saved_mean"] + summary["pawns_no_seat_mean"]
    assert total == pytest.approx(n * (officers + sailors))


@pytest.fixture(scope="module")
def capped(tmp_path_factory) -> tuple[dict, Path]:
    args = ("-p", "4", "-g", str(GAMES), "-s", str(SEED), "--rule", "round_cap=12")
    return saved_run(tmp_path_factory, "capped", *args)


def test_a_round_cap_leaves_games_unfinished(capped, runs) -> None:
    summary, directory = capped
    assert summary["rules"]["round_cap"] == 12
    assert 0 < summary["finished_rate"] < 1
    assert summary["winner_count"]["0"] == pytest.approx(1 - summary["finished_rate"])
    assert summary["winner_count"]["1"] == pytest.approx(summary["finished_rate"])
    wins = sum(row["rate"] for row in summary["seat_win_rate"])
    assert wins == pytest.approx(summary["finished_rate"])
    assert sum(summary["tie_rule"].values()) == pytest.approx(1.0, abs=1e-12)
    games, seats, boats = (read(directory, name) for name in ("games", "seats", "boats"))
    unfinished = games[~games["finished"]]
    assert len(unfinished) == round((1 - summary["finished_rate"]) * GAMES)
    assert (unfinished["rounds"] == 12).all() and (games["rounds"] <= 12).all()
    assert (unfinished["winners"] == 0).all() and unfinished["tie_rule"].isna().all()
    assert games.loc[games["finished"], "tie_rule"].notna().all()
    assert not seats.loc[seats["game"].isin(unfinished["game"]), "won"].any()
    fate = boats["fate"].astype(str)
    afloat = boats[fate == "afloat"].groupby("game").size()
    assert sorted(afloat.index) == unfinished["game"].tolist()
    assert (boats.loc[fate == "afloat", ["round", "order"]] == 0).all().all()
    # Pawns still aboard the boats afloat at the cap complete the count.
    placed = per_game_totals(seats, "placed_officers", "placed_sailors")
    gone = per_game_totals(seats, "saved_officers", "saved_sailors", "overboard", "sunk", "no_seat")
    aboard = boats[fate == "afloat"].groupby("game")["aboard"].sum()
    np.testing.assert_array_equal(placed - gone, aboard.reindex(range(GAMES), fill_value=0))
    # The same games up to the cap: those that ended by round 12 end alike.
    base = read(runs[4][1], "games")
    done = games["finished"].to_numpy()
    np.testing.assert_array_equal(done, (base["rounds"] <= 12).to_numpy())
    pd.testing.assert_frame_equal(games[done], base[done])


def test_two_rounds_finish_no_game() -> None:
    summary = simulate_json("-p", "4", "-g", "500", "--rule", "round_cap=2")
    assert summary["finished_rate"] == 0.0 and summary["winner_count"]["0"] == 1.0
    assert summary["length_mean"] == 2.0
    assert all(row["rate"] == 0.0 for row in summary["seat_win_rate"])
    assert summary["tie_rule"] == {name: None for name in TIE_RULES}  # no finished game


def test_equal_points_make_the_scores_exact(tmp_path: Path) -> None:
    # Every island worth 8 an officer and 6 a sailor: a score is 8 o + 6 s.
    directory = tmp_path / "flat"
    args = ["-p", "5", "-g", "1000", "-s", "9", "--out", directory]
    simulate_json(*args, *rule_args("officer_points=8,8,8", "sailor_points=6,6,6"))
    seats = read(directory, "seats")
    expected = 8 * seats["saved_officers"] + 6 * seats["saved_sailors"]
    np.testing.assert_array_equal(seats["score"], expected)


def test_one_value_per_island_gives_the_landed_boats_points(tmp_path: Path) -> None:
    # Officers and sailors worth the same: the points of a game are those of the pawns
    # aboard each landed boat, at its island's value.
    directory = tmp_path / "same"
    args = ["-p", "4", "-g", "1000", "-s", "9", "--out", directory]
    simulate_json(*args, *rule_args("officer_points=9,2,5", "sailor_points=9,2,5"))
    seats, boats = read(directory, "seats"), read(directory, "boats")
    landed = boats[boats["fate"].astype(str) == "landed"]
    value = {"A": 9, "B": 2, "C": 5}
    points = landed["aboard"] * landed["island"].astype(str).map(value)
    expected = points.groupby(landed["game"]).sum().reindex(range(1000), fill_value=0)
    np.testing.assert_array_equal(per_game_totals(seats, "score"), expected.to_numpy())


def test_the_number_of_islands_can_change() -> None:
    rules = ("lane_islands=0,0,0,0,0,0,0", "officer_points=8", "sailor_points=6")
    summary = simulate_json("-p", "3", "-g", "200", *rule_args(*rules))
    assert summary["rules"]["officer_points"] == [8]


# --- strategies ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> tuple[dict, Path]:
    lineup = ["steward", "hatkeeper", "swimmer", "random"]
    args = ["-p", "4", "-g", "3000", "-s", "11", "--rotate-seats"]
    args += [x for name in lineup for x in ("--strategy", name)]
    return saved_run(tmp_path_factory, "mixed", *args)


def test_rotated_strategies_get_their_own_win_rates(mixed) -> None:
    summary, directory = mixed
    assert summary["strategies"] == ["steward", "hatkeeper", "swimmer", "random"]
    assert summary["rotate_seats"] is True
    rows = summary["strategy_win_rate"]
    assert [row["strategy"] for row in rows] == summary["strategies"]
    assert all(row["seats_played"] == 3000 for row in rows)
    seats = read(directory, "seats")
    # Rotation: game g plays order g mod 24 of the 4 strategies.
    lineup = np.array(summary["strategies"])
    expected = lineup[seating_orders(4)[seats["game"].to_numpy() % 24, seats["seat"].to_numpy()]]
    assert (seats["strategy"].astype(str).to_numpy() == expected).all()
    wins = seats.groupby(seats["strategy"].astype(str))["won"].mean()
    for row in rows:
        assert row["rate"] == pytest.approx(wins[row["strategy"]]), row
        assert within(row["ci95"], row["rate"])
    total = sum(row["rate"] for row in rows)
    assert total == pytest.approx(sum(int(k) * r for k, r in summary["winner_count"].items()))


def test_the_heuristics_beat_random(mixed) -> None:
    summary, directory = mixed
    rates = {row["strategy"]: row for row in summary["strategy_win_rate"]}
    ceiling = rates["random"]["ci95"][1]
    for name in ("steward", "hatkeeper", "swimmer"):
        assert rates[name]["ci95"][0] > ceiling, (name, rates[name], ceiling)
        assert rates[name]["rate"] > 0.1, name
    seats = read(directory, "seats")
    scores = seats.groupby(seats["strategy"].astype(str))["score"].mean()
    assert scores.drop("random").min() > scores["random"] + 5


def test_the_steward_never_plays_a_hat(mixed) -> None:
    _, directory = mixed
    seats = read(directory, "seats")
    strategy = seats["strategy"].astype(str)
    steward = seats[strategy == "steward"]
    assert len(steward) == 3000
    assert (steward["hats_used"] == 0).all() and (steward["hats_decisive"] == 0).all()
    for name in ("hatkeeper", "swimmer", "random"):
        assert seats.loc[strategy == name, "hats_used"].sum() > 0, name


def test_text_summary_of_rotated_strategies(mixed) -> None:
    summary, _ = mixed
    args = ["simulate", GAME_ID, "-p", "4", "-g", "300", "-s", "11", "--rotate-seats"]
    for name in summary["strategies"]:
        args += ["--strategy", name]
    out = invoke(*args)
    assert "steward, hatkeeper, swimmer, random\nseats rotated over all 24 orders" in out
    assert "Win rate per strategy (over every seat it played):" in out
    for name in summary["strategies"]:
        assert re.search(rf"^  {name}\s+\d+\.\d%  \[.*\]  \(300 seats\)$", out, re.MULTILINE)


# --- balance report --------------------------------------------------------------------------


def test_report_of_a_mixed_line_up(mixed, tmp_path: Path) -> None:
    _, directory = mixed
    out = tmp_path / "report"
    text = invoke("report", directory, "--out", out)
    assert (
        text
        == f"wrote {len(MIXED_PAGES)} pages as PNG, {out / 'report.pdf'} and {out / 'index.html'}\n"
    )
    assert sorted(p.stem for p in out.glob("*.png")) == MIXED_PAGES
    for page in MIXED_PAGES:
        data = (out / f"{page}.png").read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, page
    assert pdf_pages(out / "report.pdf") == len(MIXED_PAGES)


# Slow: the default suite draws the mixed line-up's report here, and a one-strategy report
# (no strategy page) in tests/test_report.py.
@pytest.mark.slow
def test_report_of_one_strategy(runs, tmp_path: Path) -> None:
    _, directory = runs[4]
    out = tmp_path / "report"
    text = invoke("report", directory, "--out", out)
    assert (
        text
        == f"wrote {len(PLAIN_PAGES)} pages as PNG, {out / 'report.pdf'} and {out / 'index.html'}\n"
    )
    assert sorted(p.stem for p in out.glob("*.png")) == PLAIN_PAGES
    assert pdf_pages(out / "report.pdf") == len(PLAIN_PAGES)


def test_report_charts_show_the_summary(runs) -> None:
    import matplotlib.pyplot as plt

    summary, directory = runs[4]
    charts = {chart.name: chart for chart in GAME.report_charts(RunTables.read(directory))}
    try:
        assert list(charts) == [
            "10-score-by-seat",
            "11-score-distribution-by-seat",
            "14-boats-by-lane",
            "15-win-rate-by-hats-left",
            "16-how-the-winner-was-decided",
            "17-win-rate-by-lane",
            "18-hats-by-round",
        ]
        ties = charts["16-how-the-winner-was-decided"].figure.axes[0]
        labels = [label.get_text().replace("\n", " ") for label in ties.get_xticklabels()]
        assert labels == list(TIE_RULES)
        # Wrapped so that neighbours never collide: no line longer than 16 characters.
        assert all(
            len(line) <= 16 for t in ties.get_xticklabels() for line in t.get_text().split("\n")
        )
        heights = [bar.get_height() for bar in ties.patches]
        assert heights == pytest.approx(list(summary["tie_rule"].values()))
        lanes = charts["14-boats-by-lane"].figure.axes[0]
        labels = [label.get_text() for label in lanes.get_xticklabels()]
        islands = [ISLAND_NAMES[i] for i in DEFAULTS.lane_islands]
        placed = RunTables.read(directory).require("boats", "lane")["lane"].value_counts()
        assert labels == [
            f"lane {k}\n(island {i})\n{placed.get(k, 0):,} boats" for k, i in enumerate(islands)
        ]
        # Mean score by seat on an axis from 0.
        assert charts["10-score-by-seat"].figure.axes[0].get_xlim()[0] == 0
        # One score-distribution panel a seat.
        panels = [
            ax for ax in charts["11-score-distribution-by-seat"].figure.axes if ax.get_visible()
        ]
        assert [ax.get_title() for ax in panels] == [f"seat {s}" for s in range(4)]
        # Win rate by lane and hats by round: the summary's figures.
        by_lane = charts["17-win-rate-by-lane"].figure.axes[0]
        heights = [bar.get_height() for bar in by_lane.patches]
        assert heights == pytest.approx(list(summary["lane_win_rate"].values()))
        hats = charts["18-hats-by-round"].figure.axes[0]
        shown = [t.get_text().split("  ")[0] for t in hats.get_yticklabels()]
        reached = [
            r
            for r, g in zip(summary["hats_by_round"], summary["hats_by_round_games"], strict=True)
            if g
        ]
        assert shown == [f"round {r}" for r in reached]
    finally:
        for chart in charts.values():
            plt.close(chart.figure)


# --- balance replay --------------------------------------------------------------------------


def check_replay(directory: Path, index: int) -> str:
    """Replay game ``index`` and hold the narration to the saved records of that game."""
    text = invoke("replay", directory, index)
    setup = load_run(directory).setup
    n = setup.players
    game = read(directory, "games").set_index("game").loc[index]
    seats = read(directory, "seats")
    seats = seats[seats["game"] == index].set_index("seat").sort_index()
    boats = read(directory, "boats")
    boats = boats[boats["game"] == index].reset_index(drop=True)
    names = [f"seat {s}'s boat" for s in range(n)] + ["the black boat"]
    assert text.startswith(f"Lifeboats, game {index} of the run seeded {setup.seed}\n")
    labels = ", ".join(f"seat {s}: {seats.loc[s, 'strategy']}" for s in range(n))
    assert f"\n{n} players ({labels})\n" in text
    # Set-up: the lanes of the records.
    lanes = re.findall(r"^Set-up: seat \d puts (.*) on lane (\d+) \(island (\w)\)$", text, re.M)
    assert [name for name, _, _ in lanes] == names
    assert [int(lane) for _, lane, _ in lanes] == boats["lane"].tolist()
    assert [island for _, _, island in lanes] == boats["island"].astype(str).tolist()
    # Placements: numbered, one a line, as many of each seat and type as the records say.
    placed = re.findall(
        r"^Set-up: placement (\d+): seat (\d) puts an? (officer|sailor) in .* \(\d+ free seats? "
        r"left there\)$",
        text,
        re.M,
    )
    assert [int(k) for k, _, _ in placed] == list(range(1, len(placed) + 1))
    for s in range(n):
        for kind in ("officer", "sailor"):
            mine = [k for k, q, t in placed if int(q) == s and t == kind]
            assert len(mine) == seats.loc[s, f"placed_{kind}s"], (s, kind)
    # Rounds 1, 2, ... each led by the next seat; the game's first round with full hats.
    heads = re.findall(r"^Round (\d+) \(seat (\d) first; hats left \[(.*?)\]", text, re.M)
    rounds = int(game["rounds"])
    assert [int(r) for r, _, _ in heads] == list(range(1, rounds + 1))
    assert [int(f) for _, f, _ in heads] == [(r - 1) % n for r in range(1, rounds + 1)]
    assert heads[0][2] == ", ".join([str(setup.rules.hats)] * n)
    # Ballots, lone hats, ties and revotes: the game's counts.
    assert len(re.findall(r"^  (leak|move|overboard) vote: ", text, re.M)) == game["votes"]
    assert len(re.findall(r"^  seat \d's lone hat chooses ", text, re.M)) == game["hat_decided"]
    assert (
        len(re.findall(r"^  tie between .*: seat \d \(first player\)", text, re.M))
        == (game["ties_broken"])
    )
    assert text.count("\n  every voter played a hat: they vote again\n") == game["revotes"]
    for s in range(n):
        assert (
            len(re.findall(rf"\bseat {s}( \(weight \d+\))? plays a hat", text))
            == (seats.loc[s, "hats_used"])
        ), s
        lost = re.findall(rf"^  seat {s} loses an? \w+ overboard$", text, re.M)
        assert len(lost) == seats.loc[s, "overboard"], s
        drowned = re.findall(rf"^  seat {s}'s swimmer finds no free seat and drowns$", text, re.M)
        assert len(drowned) == seats.loc[s, "no_seat"], s
    # Landings and sinkings: which boat, in which round, with whom aboard.
    events = {}
    gains = [0] * n
    current = 0
    for line in text.splitlines():
        if head := re.match(r"Round (\d+) ", line):
            current = int(head[1])
        elif landing := re.match(
            r"  (.*) lands on island (\w) \(number (\d+) to land\): (.*)$", line
        ):
            events[landing[1]] = ("landed", current, landing[2], int(landing[3]))
            for seat, gain in re.findall(r"seat (\d) \+(\d+)", landing[4]):
                gains[int(seat)] += int(gain)
        elif sinking := re.match(r"  (.*) sinks with (\d+) pawns? aboard", line):
            events[sinking[1]] = ("sunk", current, int(sinking[2]))
    for b, name in enumerate(names):
        row = boats.loc[b]
        fate = str(row["fate"])
        if fate == "landed":
            assert events[name] == ("landed", row["round"], str(row["island"]), row["order"])
        elif fate == "sunk":
            assert events[name] == ("sunk", row["round"], row["aboard"])
        else:
            assert name not in events
    assert gains == seats["score"].tolist()
    # The last line: the scores and winners of the record.
    scores = ", ".join(str(x) for x in seats["score"])
    last = text.rstrip("\n").splitlines()[-1]
    if game["finished"]:
        won = [f"seat {s}" for s in range(n) if seats.loc[s, "won"]]
        rule = str(game["tie_rule"])
        expected = f"Game over in round {rounds}: scores [{scores}]; {', '.join(won)}"
        expected += " win" if len(won) > 1 else " wins"
        expected += f" ({rule})" if rule != "no tie" else ""
        assert last == expected
    else:
        assert last.startswith(f"Round cap of {setup.rules.round_cap} reached with ")
        assert last.endswith(f" afloat: the game ends unfinished; scores [{scores}]")
    return text


@pytest.mark.parametrize("index", [0, 3, 1999])
def test_replay_narrates_a_game(runs, index: int) -> None:
    _, directory = runs[4]
    text = check_replay(directory, index)
    assert "4 players (seat 0: random, seat 1: random, seat 2: random, seat 3: random)" in text
    assert "leak vote: " in text and "move vote: " in text and " swims out of " in text


def test_replay_with_six_players(runs) -> None:
    _, directory = runs[6]
    check_replay(directory, 17)


def test_replay_of_the_tie_breaks(runs) -> None:
    _, directory = runs[4]
    games = read(directory, "games")
    for rule in ("own boat landed first", "clockwise from the first lander"):
        index = int(games.loc[games["tie_rule"].astype(str) == rule, "game"].min())
        assert check_replay(directory, index).endswith(f" wins ({rule})\n"), rule


def test_replay_of_a_shared_win(sinking) -> None:
    summary, directory = sinking
    text = check_replay(directory, 0)
    n = summary["players"]
    winners = ", ".join(f"seat {s}" for s in range(n))
    assert text.endswith(f"scores [{', '.join(['0'] * n)}]; {winners} win (shared)\n")
    assert " lands on island " not in text


def test_replay_of_an_unfinished_game(capped) -> None:
    _, directory = capped
    games = read(directory, "games")
    index = int(games.loc[~games["finished"], "game"].min())
    assert "Round cap of 12 reached with " in check_replay(directory, index)


def test_replay_of_rotated_strategies(mixed) -> None:
    _, directory = mixed
    for index in (0, 1, 2):
        check_replay(directory, index)


def test_replay_of_a_game_outside_the_run(monkeypatch, capsys, runs) -> None:
    _, directory = runs[4]
    code, out, err = call_main(monkeypatch, capsys, "replay", directory, GAMES)
    assert_one_line_error(code, out, err, f"game index {GAMES}", f"0..{GAMES - 1}")


# --- balance compare -------------------------------------------------------------------------


def test_compare_without_hats() -> None:
    args = ["compare", GAME_ID, "-p", "4", "-g", "2000", "-t", "2"]
    out = invoke(*args, "--variant", "base", "--variant", "hats=0")
    assert out.startswith("lifeboats: 2 variants compared on the same 2,000 games")
    assert "  hats=0: hats=0\n" in out
    section = out.split("\nhats=0 vs base:\n")[1].split("\n\n")[0]
    rows = {line[2:].split("  ")[0].strip(): line for line in section.splitlines()[1:]}
    for seat in range(4):
        assert f"seat {seat} score" in rows, seat
        assert " points " in rows[f"seat {seat} score"], seat
    expected = {f"{name.replace('_', ' ')} per game" for name in PER_GAME}
    assert expected <= rows.keys(), expected - rows.keys()
    assert "shared win" in rows
    hats = rows["hats used per game"]
    numbers = re.findall(r"[-+]?\d+\.\d+", hats)
    assert numbers[:3] == ["0.000", "0.000", "0.000"]  # hats=0: none played
    base, difference = float(numbers[3]), float(numbers[6])
    assert base > 10 and difference == pytest.approx(-base, abs=1e-3)
    assert hats.endswith(" *")  # significant
    decided = re.findall(r"[-+]?\d+\.\d+", rows["hat decided per game"])
    assert float(decided[6]) < 0 and rows["hat decided per game"].endswith(" *")


def test_compare_pages_set_one_unit_a_panel() -> None:
    import matplotlib.pyplot as plt

    from balance.analyses.compare import compare, comparison_charts

    comparison = compare(GAME_ID, 3, 100, ["base", "stay_without_seat=true"], seed=2, threads=1)
    charts = {chart.name: chart.figure for chart in comparison_charts(comparison)}
    try:
        length = [ax for ax in charts["05-differences-length-balance"].axes if ax.get_visible()]
        assert [ax.get_title() for ax in length] == ["game length", "balance index"]
        assert [ax.get_xlabel() for ax in length] == [
            "difference (rounds)",
            "difference (index points)",
        ]
        own = [ax for ax in charts["06-differences-game-own"].axes if ax.get_visible()]
        assert [ax.get_title() for ax in own] == ["ballots", "boats", "hats", "pawns", "points"]
        table = comparison.table.set_index("metric")
        for ax in own:
            for label in ax.get_yticklabels():
                metric = label.get_text().split(": ", 1)[1]
                assert table.loc[metric, "unit"].iloc[0] == ax.get_title(), metric
        hats = [t.get_text() for t in own[2].get_yticklabels()]
        assert hats == ["stay_without_seat=true: hats used per game"]
    finally:
        for figure in charts.values():
            plt.close(figure)


# --- one-line errors -------------------------------------------------------------------------


ERRORS = [
    (["-p", "2"], ["lifeboats plays 3 to 6 players, not 2"]),
    (["-p", "7"], ["lifeboats plays 3 to 6 players, not 7"]),
    (["-p", "4", "--rule", "lane_islands=0,0,1"], ["lane_islands", "3 lanes"]),
    (
        ["-p", "6", "--rule", "lane_islands=0,0,1,1,2"],
        ["rule 'lane_islands': 5 lanes cannot hold the 7 boats of 6 players"],
    ),
    (
        ["-p", "6", "--rule", "seats_per_boat=2"],
        ["rule 'seats_per_boat'", "36 pawns do not fit in 7 boats of 2 seats"],
    ),
    (["--rule", "kraken=1"], ["unknown rule 'kraken'", "seats_per_boat", "round_cap"]),
    (
        ["--rule", "officer_points=a,b"],
        ["rule 'officer_points': 'a,b' is not comma-separated whole numbers"],
    ),
    (["--rule", "sailor_points=6,4"], ["rule 'sailor_points'", "2 values", "3 islands"]),
    (["--rule", "sailor_points=6,4,5,3"], ["rule 'sailor_points'", "4 values", "3 islands"]),
    (
        ["--rule", "lane_islands=0,0,1,1,2,2,3"],
        ["rule 'lane_islands'", "lane 6 leads to island 3"],
    ),
    (["--rule", "officers=1,2,3"], ["rule 'officers'", "3 values"]),
    (
        ["-p", "3", "--rule", "officers=0,2,2,2", "--rule", "sailors=0,5,4,4"],
        ["with 3 players a player has no pawn"],
    ),
    (["--rule", "hats=-1"], ["rule 'hats'", "-1", "0..99"]),
    (["--rule", "leaks=1000"], ["rule 'leaks'", "1000"]),
    (["--rule", "round_cap=0"], ["rule 'round_cap'", "0"]),
    (["--rule", "hats"], ["--rule needs NAME=VALUE"]),
    (
        ["--strategy", "greedy"],
        ["unknown strategy 'greedy'", "random, steward, hatkeeper, swimmer"],
    ),
    (["--strategy", "steward:bravery=2"], ["strategy 'steward'", "'bravery=2'"]),
    (["--strategy", "steward", "--strategy", "random"], ["2 given for 4 players"]),
    (["--variant", "kraken"], ["unknown variant 'kraken' for lifeboats"]),
]


@pytest.mark.parametrize(("args", "fragments"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_user_errors_are_one_line(monkeypatch, capsys, args: list[str], fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, "simulate", GAME_ID, "-g", "10", *args)
    assert_one_line_error(code, out, err, *fragments)


def test_compare_refuses_a_bad_variant(monkeypatch, capsys) -> None:
    args = ["compare", GAME_ID, "-g", "10", "--variant", "base", "--variant", "hats=many"]
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, "rule 'hats'", "'many'")


def test_summary_lines_say_how_many_finished_games_the_tie_rules_rest_on() -> None:
    names = ("pawns_saved", "pawns_overboard", "pawns_sunk", "pawns_no_seat")
    names += ("boats_landed", "boats_sunk", "ballots", "hats_used", "hat_decided")
    names += ("ties_broken",)
    summary = {
        "score_mean": [5.0],
        "score_ci95": [[4.5, 5.5]],
        "shared_win_rate": 0.01,
        "shared_win_ci95": [0.005, 0.02],
        **{f"{name}_mean": 1.0 for name in names},
        **{f"{name}_ci95": [0.9, 1.1] for name in names},
        "tie_rule": {name: 1 / len(TIE_RULES) for name in TIE_RULES},
        "tie_rule_ci95": {name: [0.1, 0.5] for name in TIE_RULES},
        "tie_rule_games": 1234,
    }
    lines = GAME.summary_lines(summary)
    assert "How the winner was decided (1,234 finished games, 95% Wilson intervals):" in lines
    summary |= {
        "lane_win_rate": {"2": 0.25},
        "lane_win_ci95": {"2": [0.2, 0.3]},
        "lane_seats": {"2": 1500},
        "lane_island": {"2": "B"},
        "hats_by_round": ["1", "2+"],
        "hats_by_round_mean": [1.5, 0.25],
        "hats_by_round_ci95": [[1.4, 1.6], [0.2, 0.3]],
        "hats_by_round_games": [1234, 0],
    }
    lines = GAME.summary_lines(summary)
    assert "  lane 2 (island B)   25.0%  [20.0%, 30.0%]  1,500 seats" in lines
    assert "  round 1     1.50  [1.40, 1.60]  1,234 games" in lines
    assert not any(line.startswith("  round 2+") for line in lines)  # no game reached it
