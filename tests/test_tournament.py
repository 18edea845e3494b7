"""``balance tournament``: the pairings it plays (seats rotated, common random numbers),
the matrix and its intervals, Bradley–Terry ratings against an independent fit, the
field at tables of more than two, the files, the JSON and one-line errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke, pdf_pages
from scipy import optimize

from balance import api
from balance.analyses.tournament import ELO, bradley_terry, misfit_pairs, pair_gap, tournament
from balance.stats.intervals import share_interval, wilson_interval

GAME = "walk-the-plank"
SEED = 7


def won_by_game(run: api.Run) -> np.ndarray:
    """Which seats won each game: bool ``(G, n)``."""
    seats = run.seats.sort_values(["game", "seat"])
    return seats["won"].to_numpy(bool).reshape(run.games_played, run.setup.players)


# --- Bradley–Terry ------------------------------------------------------------------------


def test_two_contestants_rate_half_the_log_odds_each_way_with_wald_intervals() -> None:
    table, note = bradley_terry(["a", "b"], np.array([[0, 60], [40, 0]]))
    assert note == ""
    gap = math.log(60 / 40)
    assert table["rating"].to_numpy() == pytest.approx([ELO * gap / 2, -ELO * gap / 2])
    half_width = 1.959963984540054 * math.sqrt(1 / 60 + 1 / 40) / 2  # Wald, log-odds scale
    assert (table["high"] - table["rating"]).to_numpy() == pytest.approx([ELO * half_width] * 2)
    assert table["decisive_games"].tolist() == [100, 100]


def test_ratings_match_an_independent_maximum_likelihood_fit() -> None:
    wins = np.array([[0, 30, 50, 12], [20, 0, 33, 9], [10, 27, 0, 4], [8, 11, 6, 0]])
    table, _ = bradley_terry(list("abcd"), wins)

    def minus_log_likelihood(free: np.ndarray) -> float:
        r = np.append(free, -free.sum())
        gap = r[:, None] - r[None, :]
        return float((wins * np.logaddexp(0, -gap)).sum())

    fit = optimize.minimize(minus_log_likelihood, np.zeros(3), method="BFGS", tol=1e-12)
    expected = np.append(fit.x, -fit.x.sum()) * ELO
    assert table["rating"].to_numpy() == pytest.approx(expected, abs=1e-3)
    assert table["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert (table["low"] < table["rating"]).all() and (table["rating"] < table["high"]).all()


def test_no_ratings_where_some_contestants_never_lost_to_others() -> None:
    """No maximum-likelihood ratings exist: none are given (a finite fit would print a
    gap the matrix rules out), and the note says why."""
    wins = np.array([[0, 5, 4], [0, 0, 3], [0, 2, 0]])
    table, note = bradley_terry(list("abc"), wins)
    assert "never lost" in note and "pair gaps" in note
    assert table[["rating", "low", "high"]].isna().all().all()
    assert table["decisive_games"].tolist() == [9, 10, 9]  # the games as played


def test_a_contestant_without_a_decided_game_has_no_rating() -> None:
    table, note = bradley_terry(list("ab"), np.zeros((2, 2)))
    assert table["rating"].isna().all() and "no decided game" in note
    wins = np.array([[0, 60, 0], [40, 0, 0], [0, 0, 0]])
    table, note = bradley_terry(list("abc"), wins)
    expected, _ = bradley_terry(list("ab"), wins[:2, :2])
    assert table["rating"].iloc[:2].tolist() == pytest.approx(expected["rating"].tolist())
    assert math.isnan(table["rating"].iloc[2]) and note == "no decided game, so no rating: c"


def test_pair_gap_is_the_elo_log_odds_of_the_decided_share_clustered_by_deal() -> None:
    rng = np.random.default_rng(5)
    first = rng.random(600) < 0.55
    second = ~first & (rng.random(600) < 0.8)
    deal = np.repeat(np.arange(300), 2)
    found = pair_gap(first, second, deal)
    decided = first ^ second
    assert found["decided"] == decided.sum() and found["wins"] == (first & ~second).sum()
    by_deal = np.bincount(deal[decided], weights=first[decided].astype(float), minlength=300)
    trials = np.bincount(deal[decided], minlength=300)
    share, low, high = share_interval(by_deal[trials > 0], trials[trials > 0])
    assert [found["share"], found["share_low"], found["share_high"]] == pytest.approx(
        [share, low, high]
    )
    logit = [math.log(p / (1 - p)) * ELO for p in (share, low, high)]
    assert [found["gap"], found["low"], found["high"]] == pytest.approx(logit)
    nothing = pair_gap(np.zeros(10, bool), np.zeros(10, bool), np.arange(10))
    assert nothing["decided"] == 0 and math.isnan(nothing["gap"])
    from balance.analyses.tournament_report import gap_text

    assert gap_text(pd.Series(nothing)) == "n/a (no decided game)"
    assert gap_text(pd.Series(found)).startswith(
        f"{found['gap']:+,.0f} [{found['low']:+,.0f}, {found['high']:+,.0f}] from "
        f"{found['decided']:,} decided games"
    )


def test_ratings_that_put_a_pair_where_its_own_games_rule_out_say_so() -> None:
    """A beats B, B beats C and C beats A, each 70 to 30: one strength each puts every
    pair level, which each pair's own games rule out."""
    deal = np.arange(100)
    won = np.arange(100) < 70
    gaps = pd.DataFrame(
        [
            {"contestant": a, "against": b, **pair_gap(won, ~won, deal)}
            for a, b in (("a", "b"), ("b", "c"), ("c", "a"))
        ]
    )
    ratings, _ = bradley_terry(list("abc"), np.array([[0, 70, 30], [30, 0, 70], [70, 30, 0]]))
    assert ratings["rating"].to_numpy() == pytest.approx([0, 0, 0], abs=1e-6)
    said = misfit_pairs(ratings, gaps)
    assert said.startswith("the ratings put some pairs where their own games rule out")
    low, high = gaps.loc[0, "low"], gaps.loc[0, "high"]
    assert (
        f"a over b +0 by the ratings, +147 [{low:+,.0f}, {high:+,.0f}] by their own games" in said
    )
    assert said.count("by their own games") == 3
    fitting, _ = bradley_terry(list("ab"), np.array([[0, 70], [30, 0]]))
    assert misfit_pairs(fitting, gaps.iloc[:1]) == ""


# --- two players ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def duel() -> object:
    return tournament(
        GAME, 2, strategies=("random", "aggressor", "survivor"), games=400, seed=SEED, threads=2
    )


def test_two_players_play_each_deal_in_both_seat_orders_on_the_same_deals(duel) -> None:
    """Every ordered pair is one fixed run of 200 games on game indices 0..199; the row's
    rate pools its two seat orders, clustered by deal."""
    assert duel.contestants == ("random", "aggressor", "survivor")
    assert duel.games == 400
    first = won_by_game(api.simulate(GAME, 2, 200, SEED, ("aggressor", "survivor"), threads=2))
    second = won_by_game(api.simulate(GAME, 2, 200, SEED, ("survivor", "aggressor"), threads=2))
    cell = duel.cell("aggressor", "survivor")
    beat = np.stack([first[:, 0] & ~first[:, 1], second[:, 1] & ~second[:, 0]], axis=1)
    assert cell["games"] == 400 and cell["games_per_seat_order"] == 200
    assert cell["wins"] == beat.sum()
    rate, low, high = share_interval(beat.sum(axis=1).astype(float), np.full(200, 2.0))
    assert [cell["rate"], cell["low"], cell["high"]] == pytest.approx([rate, low, high])
    assert cell["first_rate"] == pytest.approx(beat[:, 0].mean())
    assert [cell["second_low"], cell["second_high"]] == pytest.approx(
        list(wilson_interval(int(beat[:, 1].sum()), 200))
    )
    # The two rates of a pair and the games neither won make up every game.
    other = duel.cell("survivor", "aggressor")
    assert cell["wins"] + other["wins"] + cell["neither"] + cell["both"] == 400
    assert other["wins"] == cell["losses"]


def test_every_contestant_sits_every_seat_equally_often(duel) -> None:
    records = duel.records
    for name in duel.contestants:
        seats = np.concatenate(
            [
                records.loc[records["first"] == name, "first_seat"],
                records.loc[records["second"] == name, "second_seat"],
            ]
        )
        assert np.bincount(seats).tolist() == [400, 400]
    # Common random numbers: every pairing plays the same game indices.
    assert all(
        group.tolist() == list(range(200)) for _, group in records.groupby("pairing")["game"]
    )


def test_ratings_are_fitted_to_the_matrix_wins(duel) -> None:
    names = list(duel.contestants)
    wins = duel.square("wins").fillna(0).to_numpy()
    expected, _ = bradley_terry(names, wins)
    pd.testing.assert_frame_equal(duel.ratings, expected)
    best = duel.ratings.sort_values("rating")["contestant"].iloc[-1]
    rates = duel.square("rate")
    assert rates.loc[best].drop(best).mean() == rates.mean(axis=1).max()


def test_the_json_is_shaped_as_documented(duel) -> None:
    record = json.loads(json.dumps(duel.to_json()))
    assert list(record)[:6] == ["game", "players", "games", "contestants", "matrix", "ratings"]
    assert (record["game"], record["players"], record["games"]) == (GAME, 2, 400)
    k = len(record["contestants"])
    assert len(record["matrix"]) == k and all(len(row) == k for row in record["matrix"])
    for i, row in enumerate(record["matrix"]):
        for j, cell in enumerate(row):
            if i == j:
                assert cell is None
                continue
            assert cell["ci95"][0] <= cell["rate"] <= cell["ci95"][1]
            expected = duel.cell(record["contestants"][i], record["contestants"][j])
            assert cell["rate"] == pytest.approx(expected["rate"])
    assert [r["name"] for r in record["ratings"]] == record["contestants"]
    for entry in record["ratings"]:
        assert set(entry) == {"name", "rating", "ci95"}
    assert record["measured_against"] == "each other, head to head"
    assert len(record["pair_gaps"]) == k * (k - 1) // 2
    for entry in record["pair_gaps"]:
        assert set(entry) == {"contestant", "against", "gap", "ci95", "decided_games"}


def test_a_pair_one_side_always_won_has_a_gap_of_at_least_and_no_ratings(duel) -> None:
    """survivor never loses to aggressor: the pair gap is a lower bound that agrees with
    the matrix, and the ratings are not given (a finite fit would contradict it)."""
    from balance.analyses import tournament_report
    from balance.run.results import json_safe

    gaps = duel.pair_gaps.set_index(["contestant", "against"])
    gap = gaps.loc[("survivor", "aggressor")]
    decided = int(duel.cell("survivor", "aggressor")["wins"])
    assert duel.cell("aggressor", "survivor")["wins"] == 0 and gap["decided"] == decided
    assert gap["gap"] == math.inf
    # The least gap leaves aggressor the Wilson upper end of 0 of the decided games.
    most = float(wilson_interval(0, decided)[1])
    assert 1 / (1 + 10 ** (gap["low"] / 400)) == pytest.approx(most)
    assert duel.ratings["rating"].isna().all()
    text = tournament_report.text(duel)
    assert f"at least {gap['low']:+,.0f} (won all {decided:,} decided games)" in text
    ratings = text[text.index("Ratings (") :]
    assert "note: some contestants never lost" in ratings.splitlines()[1]
    assert "n/a" in ratings.splitlines()[2]
    entry = next(
        e
        for e in json_safe(duel.to_json())["pair_gaps"]
        if (e["contestant"], e["against"]) == ("survivor", "aggressor")
    )
    assert entry["gap"] is None and entry["ci95"] == [pytest.approx(gap["low"]), None]


# --- more players: the field and mixed tables ---------------------------------------------------


@pytest.fixture(scope="module")
def table_of_three() -> object:
    return tournament(
        GAME, 3, strategies=("aggressor", "survivor"), field="random", games=120, seed=SEED
    )


def test_a_contestant_alone_against_the_field_is_a_rotated_run(table_of_three) -> None:
    run = api.simulate(
        GAME, 3, 120, SEED, ("survivor", "random", "random"), rotate_seats=True, threads=2
    )
    won = won_by_game(run)
    lineup = run.setup.lineup
    seat = np.array(
        [list(lineup.strategy_index(g, s) for s in range(3)).index(0) for g in range(120)]
    )
    assert np.bincount(seat).tolist() == [40, 40, 40]  # 120 games: every seat 40 times
    wins = int(won[np.arange(120), seat].sum())
    row = table_of_three.vs_field.set_index("contestant").loc["survivor"]
    assert (row["games"], row["wins"]) == (120, wins)
    assert [row["low"], row["high"]] == pytest.approx(list(wilson_interval(wins, 120)))
    assert row["fair_share"] == pytest.approx(1 / 3)


def test_mixed_tables_seat_both_contestants_with_the_field(table_of_three) -> None:
    records = table_of_three.records
    mixed = records[records["kind"] == "pair"]
    assert len(mixed) == 120 and (mixed["first_seat"] != mixed["second_seat"]).all()
    assert np.bincount(mixed["first_seat"]).tolist() == [40, 40, 40]
    cell = table_of_three.cell("aggressor", "survivor")
    beat = mixed["first_won"] & ~mixed["second_won"]
    assert cell["wins"] == beat.sum() and cell["games"] == 120
    assert [cell["low"], cell["high"]] == pytest.approx(list(wilson_interval(int(beat.sum()), 120)))
    record = table_of_three.to_json()
    assert record["field"] == "random" and len(record["vs_field"]) == 2


def test_ratings_and_gaps_say_which_field_they_were_measured_against(table_of_three) -> None:
    from balance.analyses import tournament_report

    said = "the field random (mixed tables of 3)"
    assert table_of_three.to_json()["measured_against"] == said
    text = tournament_report.text(table_of_three)
    assert f"Measured against {said}: against another field" in text
    assert text.index("Measured against") < text.index("Ratings (")


def test_pairings_that_stall_at_the_cap_are_warned_about_first() -> None:
    from balance.analyses import tournament_report

    result = tournament(
        GAME, 2, strategies=("random", "survivor"), games=40, seed=SEED, rules=[("round_cap", "2")]
    )
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("random and survivor: ")
    assert "stopped unfinished at the cap of 2 rounds" in result.warnings[0]
    assert tournament_report.text(result).startswith("warning: random and survivor: ")
    assert result.to_json()["warnings"] == list(result.warnings)
    assert result.cell("random", "survivor")["neither"] >= 0.05 * 40


# --- the command ----------------------------------------------------------------------------


def test_the_command_prints_writes_and_answers_in_json(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", GAME, "-p", 2, "--strategy", "random", "--strategy", "aggressor"]
    args += ["-g", 100, "-s", SEED, "-t", 2]
    text = invoke(*args, "--out", out)
    assert text.startswith(
        "Walk the Plank tournament: 2 strategies, 2 players, 100 games a pairing (seed 7)."
    )
    assert "Ratings (Bradley-Terry" in text and "By seat order" in text
    names = {path.name for path in out.iterdir()}
    assert {"tournament.json", "tournament-games.parquet", "tournament.pdf"} <= names
    assert {"00-title.png", "01-matrix.png", "03-pair-gaps.png"} <= names
    assert {"tournament-pair-gaps.csv", "tournament-pair-gaps.parquet"} <= names
    pages = 4 if "02-ratings.png" in names else 3
    assert pdf_pages(out / "tournament.pdf") == pages
    games = pd.read_parquet(out / "tournament-games.parquet")
    assert len(games) == 100  # both seat orders of one pair, 50 games each
    assert games.groupby("first")["game"].apply(list).tolist() == [list(range(50))] * 2
    printed = json.loads(invoke(*args, "--json"))
    assert printed == json.loads((out / "tournament.json").read_text())
    assert printed["contestants"] == ["random", "aggressor"]


ERRORS = [
    (["--strategy", "random"], ["at least two contestants"]),
    (["--strategy", "random", "--strategy", "nobody"], ["unknown strategy 'nobody'"]),
    (["--strategy", "random", "--strategy", "weighted:nerve=2"], ["weighted"]),
    (["--strategy", "random", "--strategy", "random"], ["given twice"]),
    (["--strategy", "random", "--strategy", "greedy", "-p", "2", "--field", "random"], ["--field"]),
    (["--strategy", "random", "--strategy", "greedy", "--field", "nobody"], ["nobody"]),
    (["--strategy", "random", "--strategy", "greedy", "-g", "0"], ["games"]),
    (["--deck", "cannon-battery", "--deck", "boarding-party"], ["battle-of-thieves"]),
    (["--strategy", "random", "--strategy", "examples/cautious.py:nobody"], ["nobody"]),
]


@pytest.mark.parametrize(("args", "fragments"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_bad_input_is_one_line(monkeypatch, capsys, args, fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, "tournament", GAME, "-g", 10, *args)
    assert_one_line_error(code, out, err, *fragments)


@pytest.mark.slow
def test_a_strategy_file_is_a_contestant_like_any_other() -> None:
    """A user's ``FILE.py:NAME`` joins the tournament (its engine compiles once)."""
    example = Path(__file__).resolve().parents[1] / "examples" / "cautious.py"
    result = tournament(
        GAME, 3, strategies=(f"{example}:cautious", "greedy"), games=60, seed=SEED, threads=2
    )
    assert result.contestants == ("cautious", "greedy")
    run = api.simulate(
        GAME, 3, 60, SEED, (f"{example}:cautious", "random", "random"), rotate_seats=True
    )
    row = result.vs_field.set_index("contestant").loc["cautious"]
    lineup = run.setup.lineup
    seat = [[lineup.strategy_index(g, s) for s in range(3)].index(0) for g in range(60)]
    assert row["wins"] == won_by_game(run)[np.arange(60), seat].sum()
