"""``balance skill``: the ladder's matches (seats rotated, common random numbers) against
independent runs, the statistics of skill depth and games to tell against hand-computed
cases, the JSON, the files and charts, and one-line errors."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_one_line_error, call_main, invoke, pdf_pages
from scipy import stats

from balance import api
from balance.analyses import skill_report
from balance.analyses.skill import (
    DEFAULT_BUDGETS,
    EXACT_GAMES,
    MIN_ROLLOUT_FINISHED,
    SHARE_MARGIN,
    dip_sentences,
    effective_games,
    games_to_tell,
    head_to_head,
    holm,
    parse_budgets,
    score_p_value,
    skill,
    skill_depth,
)
from balance.cli.skill import DEFAULT_BUDGET_TEXT
from balance.core.errors import BalanceError
from balance.games import get_game
from balance.stats.intervals import share_interval, wilson_interval

GAME = "walk-the-plank"
SEED = 11

# --- statistics ---------------------------------------------------------------------------


def brute_games_to_tell(ahead: float, behind: float, probability: float = 0.95) -> int:
    """The smallest n with P(more games ahead than behind) >= probability, summed by hand
    over every number of games ahead (a) and behind (b) of n (the rest neither)."""
    tie = 1 - ahead - behind
    n = 1
    while True:
        chance = sum(
            math.factorial(n)
            / (math.factorial(a) * math.factorial(b) * math.factorial(n - a - b))
            * ahead**a
            * behind**b
            * tie ** (n - a - b)
            for a in range(n + 1)
            for b in range(n + 1 - a)
            if a > b
        )
        if chance >= probability:
            return n
        n += 1


@pytest.mark.parametrize(
    ("ahead", "behind"), [(0.75, 0.25), (0.5, 0.2), (0.3, 0.1), (0.6, 0.1), (0.45, 0.15)]
)
def test_games_to_tell_sums_every_way_to_be_ahead(ahead: float, behind: float) -> None:
    assert games_to_tell(ahead, behind) == brute_games_to_tell(ahead, behind)


def test_without_ties_games_to_tell_is_the_binomial_majority() -> None:
    # 75% against 25%: P(Binomial(n, .75) > n / 2) for n = 1, 2, ... is .75, .5625,
    # .84375, .738, .896, .831, .929, .886, then at n = 9: P(X >= 5) = .9511.
    assert games_to_tell(0.75, 0.25) == 9
    assert stats.binom.sf(4, 9, 0.75) == pytest.approx(0.9510726928710938)
    assert stats.binom.sf(3, 7, 0.75) == pytest.approx(0.929443359375)
    for rate in (0.55, 0.62, 0.9):
        n = games_to_tell(rate, 1 - rate)
        assert stats.binom.sf(n // 2, n, rate) >= 0.95
        assert all(stats.binom.sf(m // 2, m, rate) < 0.95 for m in range(1, n))
    assert games_to_tell(0.99, 0.01) == 1 and games_to_tell(1.0, 0.0) == 1
    assert games_to_tell(0.5, 0.5) is None and games_to_tell(0.2, 0.3) is None


def test_beyond_the_exact_sums_games_to_tell_is_the_normal_approximation() -> None:
    n = games_to_tell(0.51, 0.49)
    assert n > EXACT_GAMES
    # P(S_n >= 1) with S_n = 2 X - n, X ~ Binomial(n, .51): the binomial itself
    assert stats.binom.sf(n // 2, n, 0.51) == pytest.approx(0.95, abs=2e-3)
    assert games_to_tell(0.52, 0.48) < n


def test_score_p_value_is_the_one_sided_score_test() -> None:
    # 60 of 100 against 50%: z = 0.1 / sqrt(0.25 / 100) = 2.
    assert score_p_value(0.6, 100, 0.5) == pytest.approx(stats.norm.sf(2.0))
    assert score_p_value(0.4, 100, 0.5) == pytest.approx(stats.norm.sf(-2.0))
    # four players: 35 of 200 against 25%: z = 0.1 / sqrt(0.25 * 0.75 / 200)
    z = 0.1 / math.sqrt(0.25 * 0.75 / 200)
    assert score_p_value(0.35, 200, 0.25) == pytest.approx(stats.norm.sf(z))


def test_holm_by_hand() -> None:
    rejected, adjusted = holm([0.01, 0.001, 0.02])
    assert adjusted.tolist() == pytest.approx([0.02, 0.003, 0.02])
    assert rejected.tolist() == [True, True, True]
    rejected, adjusted = holm([0.03, 0.04])  # each below 5% alone, neither after Holm
    assert adjusted.tolist() == pytest.approx([0.06, 0.06]) and not rejected.any()


def test_skill_depth_is_holm_over_the_step_tests() -> None:
    depth, beats, adjusted = skill_depth([0.01, 0.001, 0.02])
    assert beats.tolist() == [True, True, True] and depth == 3
    assert adjusted.tolist() == pytest.approx([0.02, 0.003, 0.02])
    depth, beats, _ = skill_depth([0.03, 0.04])
    assert depth == 0 and not beats.any()  # each significant alone, neither after Holm
    assert SHARE_MARGIN == 0.55


def simulated_match(
    rng: np.random.Generator, share: float, deals: int, players: int = 2
) -> dict[str, float]:
    """A match whose rung truly wins ``share`` of the games that separate it from the other
    player: two players, every deal in both seat orders (half the deals alike in both),
    a fifth of the games won by neither; or, with more players, a field of one strategy
    with a lone seat of the field as the other side, one game a deal. Its statistics as
    the ladder computes them (:func:`head_to_head`)."""
    games = deals * (2 if players == 2 else 1)
    u, v = rng.random(games), rng.random(games)
    if players == 2:
        alike = np.repeat(rng.random(deals) < 0.5, 2) & (np.arange(games) % 2 == 1)
        u[alike], v[alike] = u[np.flatnonzero(alike) - 1], v[np.flatnonzero(alike) - 1]
    decided = v >= 0.2
    rung_won = decided & (u < share)
    others_won = (decided & ~rung_won).astype(int) * (players - 1)
    deal = np.repeat(np.arange(deals), 2) if players == 2 else np.arange(games)
    return head_to_head(rung_won, others_won, deal, players)


def depth_error_and_power(players: int, ladders: int, seed: int) -> tuple[float, float]:
    """Known truth: ladders of three rungs, 2,000 games a match. The share of ladders of
    rungs that each win exactly 55% of the games that separate them from the rung below
    with a skill depth above 0 (the family-wise error), and the mean depth of ladders of
    rungs at 62% (out of 3: the power)."""
    rng = np.random.default_rng(seed)

    def ladder(share: float) -> int:
        return skill_depth(
            [simulated_match(rng, share, 1_000, players)["p_value"] for _ in range(3)]
        )[0]

    wrong = float(np.mean([ladder(0.55) > 0 for _ in range(ladders)]))
    power = float(np.mean([ladder(0.62) for _ in range(ladders // 4)]))
    return wrong, power


@pytest.fixture
def quick_holm(monkeypatch) -> None:
    """statsmodels' Holm correction runs a full garbage collection on every call, which
    in a test session holding many objects costs a tenth of a second; the correction is
    the same without it."""
    import gc

    monkeypatch.setattr(gc, "collect", lambda *args: 0)


def test_a_rung_at_the_margin_counts_in_at_most_five_ladders_in_a_hundred(quick_holm) -> None:
    """Three rungs at exactly 55%: the skill depth stays 0 in all but about 5% of ladders
    (Holm at 5%; a threshold on the point estimate counted nine ladders in ten). Rungs at
    62% count nearly always (the test has power)."""
    ladders = 300
    wrong, power = depth_error_and_power(2, ladders, seed=17)
    assert wrong <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / ladders), f"{wrong:.1%} of ladders"
    assert power >= 2.8


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_skill_depth_keeps_its_error_rate_at_every_table(quick_holm, players: int) -> None:
    ladders = 2_000
    wrong, power = depth_error_and_power(players, ladders, seed=players)
    assert 0.03 <= wrong <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / ladders), f"{wrong:.1%}"
    assert power >= 2.8


def test_effective_games_give_the_share_interval() -> None:
    rng = np.random.default_rng(3)
    wins = rng.integers(0, 3, size=400)  # a deal's two games: 0, 1 or 2 wins, clustered
    trials = np.full(400, 2)
    share, low, high = share_interval(wins, trials)
    effective = effective_games(wins, trials)
    assert 0 < effective <= 800
    w_low, w_high = wilson_interval(share * effective, effective)
    assert (float(w_low), float(w_high)) == pytest.approx((low, high))


def test_budgets_are_checked_exponents() -> None:
    assert parse_budgets(DEFAULT_BUDGET_TEXT) == DEFAULT_BUDGETS
    assert parse_budgets("8, 4") == (4, 8)
    for bad in ("0", "-2", "4,x", "", "4,4", "21"):
        with pytest.raises(BalanceError):
            parse_budgets(bad)


# --- the ladder ---------------------------------------------------------------------------


def beat_rate_two_players(a: str, b: str, games: int) -> float:
    """Share of the games ``a`` won and ``b`` did not, from two independent simulate
    runs (one in each seat order) of the same seed."""
    first = api.simulate(GAME, 2, games, SEED, strategies=[a, b])
    second = api.simulate(GAME, 2, games, SEED, strategies=[b, a])
    won_a = np.concatenate([first.result.blocks[0].won[:, 0], second.result.blocks[0].won[:, 1]])
    won_b = np.concatenate([first.result.blocks[0].won[:, 1], second.result.blocks[0].won[:, 0]])
    return float((won_a & ~won_b).mean())


@pytest.fixture(scope="module")
def two_player() -> object:
    return skill(GAME, 2, rungs=["random", "aggressor", "greedy"], games=60, seed=SEED, threads=1)


def test_two_player_matches_are_both_seat_orders_of_the_same_deals(two_player) -> None:
    result = two_player
    assert result.names == ("random", "aggressor", "greedy")
    matches = result.matches.set_index(["rung", "role"])
    assert matches.loc[("greedy", "vs_below"), "rate"] == pytest.approx(
        beat_rate_two_players("greedy", "aggressor", 30)
    )
    assert matches.loc[("aggressor", "vs_random"), "rate"] == pytest.approx(
        beat_rate_two_players("aggressor", "random", 30)
    )
    games = result.records[result.records["match"] == 0]
    assert len(games) == 60 and games["game"].value_counts().eq(2).all()  # two seat orders
    assert sorted(games["rung_seat"].value_counts().tolist()) == [30, 30]


def test_rungs_table_and_depth_agree(two_player) -> None:
    rungs = two_player.rungs
    assert rungs.loc[0, "vs_below_games"] == 0 and math.isnan(rungs.loc[0, "p_holm"])
    below = rungs.iloc[1:]
    depth, beats, adjusted = skill_depth(below["p_value"])
    assert two_player.skill_depth == depth and below["beats_below"].tolist() == beats.tolist()
    assert below["p_holm"].tolist() == pytest.approx(adjusted.tolist())
    matches = two_player.matches.set_index(["rung", "role"])
    p_down = [matches.loc[(name, "vs_below"), "p_down"] for name in below["rung"]]
    down, down_adjusted = holm(p_down)
    assert below["loses_to_below"].tolist() == down.tolist()
    assert below["p_down_holm"].tolist() == pytest.approx(down_adjusted.tolist())
    assert (
        (rungs["vs_random_low"] <= rungs["vs_random_rate"])
        & (rungs["vs_random_rate"] <= rungs["vs_random_high"])
    ).all()


def test_the_json_has_the_documented_shape(two_player) -> None:
    record = json.loads(json.dumps(two_player.to_json()))
    assert {"game", "players", "rungs", "skill_depth", "games_to_tell"} <= set(record)
    assert record["game"] == GAME and record["players"] == 2
    assert [r["name"] for r in record["rungs"]] == ["random", "aggressor", "greedy"]
    assert record["rungs"][0]["vs_below"] is None
    assert [r["kind"] for r in record["rungs"]] == ["random", "heuristic", "heuristic"]
    for rung in record["rungs"]:
        assert set(rung["vs_random"]) >= {"rate", "ci95"}
        low, high = rung["vs_random"]["ci95"]
        assert low <= rung["vs_random"]["rate"] <= high
    assert set(record["rungs"][2]["vs_below"]) >= {"rate", "ci95"}
    assert set(record["games_to_tell"]) == {"vs_random", "vs_best_heuristic"}
    tell = record["games_to_tell"]["vs_random"]
    match = two_player.matches.set_index(["rung", "role"]).loc[("greedy", "vs_random")]
    assert tell["games"] == games_to_tell(match["ahead"], match["behind"])
    # two players: ahead is the win rate (won, the other did not)
    assert match["ahead"] == pytest.approx(match["rate"])
    # greedy is the strongest rung; the best heuristic by its rate against random is
    # aggressor or greedy: a match against it is played only if it is not greedy itself
    best = record["best_heuristic"]
    assert (record["games_to_tell"]["vs_best_heuristic"] is None) == (best == "greedy")
    assert len(record["balance_by_rung"]) == 3


def test_balance_by_rung_is_a_table_of_the_rung(two_player) -> None:
    run = api.simulate(GAME, 2, 60, SEED, strategies=["aggressor"])
    summary = run.summary()
    row = two_player.balance.set_index("rung").loc["aggressor"]
    assert row["length"] == pytest.approx(summary["length_mean"])
    assert row["balance_index"] == pytest.approx(summary["balance_index"])
    seats = two_player.seats[two_player.seats["rung"] == "aggressor"]
    assert seats["rate"].tolist() == pytest.approx([s["rate"] for s in summary["seat_win_rate"]])


def test_four_players_each_rung_alone_against_a_field() -> None:
    result = skill(GAME, 4, rungs=["random", "aggressor"], games=48, seed=SEED, threads=1)
    run = api.simulate(
        GAME,
        4,
        48,
        SEED,
        strategies=["aggressor", "random", "random", "random"],
        rotate_seats=True,
    )
    seats = run.seats
    mine = seats[seats["strategy"] == "aggressor"].set_index("game")["won"].sort_index()
    field = seats[seats["strategy"] != "aggressor"].groupby("game")["won"].mean().sort_index()
    match = result.matches.set_index(["rung", "role"]).loc[("aggressor", "vs_below")]
    assert match["rate"] == pytest.approx(mine.mean())
    # ahead of one field seat: won while that seat did not, averaged over the field
    assert match["ahead"] == pytest.approx((mine * (1 - field)).mean())
    assert match["behind"] == pytest.approx((~mine * field).mean())
    assert match["share"] == pytest.approx(match["ahead"] / (match["ahead"] + match["behind"]))
    games = result.records[result.records["match"] == 1]
    assert games["rung_seat"].value_counts().tolist() == [12, 12, 12, 12]  # every seat in turn
    assert result.threshold == pytest.approx(0.55)
    text = skill_report.text(result)
    assert "Skill depth:" in text and "head to head" in text and "Games to tell" in text
    assert "alone against a field" in text


def test_the_text_says_when_no_game_separated_two_rungs_or_had_a_winner(two_player) -> None:
    # As a ladder of strategies that never finish (every game stopped by the cap) plays.
    matches = two_player.matches.copy()
    never = (matches["rung"] == "greedy") & (matches["role"] == "vs_below")
    matches.loc[never, ["ahead", "behind"]] = 0.0
    balance = two_player.balance.copy()
    balance.loc[balance["rung"] == "greedy", ["balance_index", "bi_low", "bi_high"]] = np.nan
    text = skill_report.text(dataclasses.replace(two_player, matches=matches, balance=balance))
    greedy = text[text.index("\n  greedy\n") :]
    assert "head to head n/a (no game separated them)" in greedy.splitlines()[2]
    assert "balance index n/a (no game had a winner)" in text
    record = {"games": None, "ci95": [None, None], "ahead": 0.0, "behind": 0.0, "share": 0.5}
    record |= {"share_ci95": [0.0, 1.0], "games_played": 200, "against": "survivor"}
    told = skill_report._tell_text(record, "ismcts", "against the best heuristic")
    assert "head to head n/a (no game separated them)" in told and "50.0%" not in told
    assert "nan" not in text.lower().replace("n/a", "")


def test_the_report_writes_tables_json_charts_and_a_pdf(two_player, tmp_path: Path) -> None:
    written = skill_report.write(two_player, tmp_path)
    assert all(path.exists() for path in written)
    assert pdf_pages(tmp_path / "skill.pdf") == 7
    names = {path.name for path in written}
    assert {
        "00-findings.png",
        "01-ladder.png",
        "02-head-to-head.png",
        "05-length.png",
        "skill.json",
    } <= names
    assert json.loads((tmp_path / "skill.json").read_text())["skill_depth"] == (
        two_player.skill_depth
    )
    rungs = pd.read_parquet(tmp_path / "skill-rungs.parquet")
    assert rungs["rung"].tolist() == list(two_player.names)


def rungs_going(down: list[bool], up: list[bool]) -> pd.DataFrame:
    """A rungs table (random first) with the verdicts given for the rungs above it."""
    names = ["random", "detective", "ismcts:iterations=4", "ismcts:iterations=16"][: len(up) + 1]
    return pd.DataFrame(
        {
            "rung": names,
            "vs_below_share": [np.nan, 0.9, 0.038, 0.8][: len(names)],
            "vs_below_share_low": [np.nan, 0.88, 0.03, 0.77][: len(names)],
            "vs_below_share_high": [np.nan, 0.92, 0.05, 0.83][: len(names)],
            "p_down_holm": [np.nan, 1.0, 1e-20, 1.0][: len(names)],
            "loses_to_below": [False, *down],
            "beats_below": [False, *up],
        }
    )


def test_a_ladder_that_goes_down_and_back_up_is_flagged_before_the_numbers(two_player) -> None:
    """As La Planche's default ladder played: ismcts at 4 iterations lost to detective,
    ismcts at 16 beat ismcts at 4; the depth of 2 counts no level above detective."""
    rungs = rungs_going([False, True, False], [True, False, True])
    (said,) = dip_sentences(rungs, 2)
    assert said.startswith(
        "ismcts:iterations=4 loses to the rung below, detective: head to head 3.8% [3.0%, 5.0%]"
    )
    assert "goes down here and back up (ismcts:iterations=16 beating" in said
    assert "skill depth (2 of 3) counts steps between neighbours" in said
    (only_down,) = dip_sentences(rungs_going([False, True], [True, False]), 1)
    assert "back up" not in only_down
    assert dip_sentences(rungs_going([False, False], [True, True]), 2) == []
    text = skill_report.text(dataclasses.replace(two_player, dips=(said,)))
    assert text.index(f"The ladder goes down: {said}.") < text.index("Each rung against")
    assert f"The ladder goes down: {said}." in skill_report.findings(
        dataclasses.replace(two_player, dips=(said,))
    )
    assert json.loads(json.dumps(two_player.to_json()))["goes_down"] == list(two_player.dips)


def test_the_report_opens_with_findings_in_sentences(two_player) -> None:
    said = skill_report.findings(two_player)
    depth = f"Skill depth {two_player.skill_depth} of 2"
    assert said[0].startswith(depth) and "significantly above 55%" in said[0]
    assert any(line.startswith("Games to tell: greedy needs") for line in said)
    assert any(line.startswith("Balance index") for line in said)
    first = skill_report.charts(two_player)[0]
    assert first.name == "00-findings"
    assert depth in " ".join(text.get_text() for text in first.figure.texts).replace("\n", " ")


def test_share_charts_stop_at_100_percent_and_fit_long_rung_names(two_player) -> None:
    long = {
        "aggressor": "ismcts(iterations=4,rollout=detective)",
        "greedy": "mc(playouts=128,rollout=detective,guess=evidence,width=4,margin=2)",
    }
    renamed = dataclasses.replace(
        two_player,
        names=tuple(long.get(name, name) for name in two_player.names),
        rungs=two_player.rungs.replace({"rung": long}),
        seats=two_player.seats.replace({"rung": long}),
        balance=two_player.balance.replace({"rung": long}),
        matches=two_player.matches.replace({"rung": long, "against": long}),
    )
    for chart in (skill_report.ladder_chart, skill_report.share_chart, skill_report.seats_chart):
        ax = chart(renamed).axes[0]
        assert ax.get_ylim() == (0, 1), chart.__name__
        labels = [tick.get_text() for tick in ax.get_xticklabels()]
        assert max(len(line) for label in labels for line in label.split("\n")) <= 18
        assert "".join(labels[-1].split("\n")) == long["greedy"]
    for chart in (skill_report.balance_chart, skill_report.length_chart):
        labels = [tick.get_text() for tick in chart(renamed).axes[0].get_yticklabels()]
        assert max(len(line) for label in labels for line in label.split("\n")) <= 34


def test_the_default_ladder_orders_the_heuristics_by_their_rate_against_random(
    monkeypatch,
) -> None:
    game = get_game(GAME)
    heuristics = {k: v for k, v in game.strategies().items() if k not in ("mc", "ismcts")}
    monkeypatch.setattr(type(game), "strategies", lambda self: heuristics)
    result = skill(GAME, 2, games=40, seed=SEED, threads=1)
    shipped = [name for name in heuristics if name != "random"]
    assert result.names[0] == "random" and sorted(result.names[1:]) == sorted(shipped)
    against_random = result.rungs["vs_random_rate"].iloc[1:].tolist()
    assert against_random == sorted(against_random)
    assert result.best_heuristic == result.names[-1]
    assert any("no search player" in note for note in result.notes)


def test_search_rungs_climb_the_budgets_with_the_best_heuristic_as_rollout(monkeypatch) -> None:
    """A stand-in for a search player (greedy's code under the name ismcts, with its
    parameters; fast, where the real one compiles its own game loop) checks how the default
    ladder names its search rungs."""
    game = get_game(GAME)
    shipped = {k: v for k, v in game.strategies().items() if k not in ("mc", "ismcts")}
    words = {name: float(i) for i, name in enumerate(shipped)}
    shipped["ismcts"] = dataclasses.replace(
        shipped["greedy"],
        name="ismcts",
        params=(("iterations", 64.0), ("rollout", 0.0)),
        param_docs={},
        param_choices={"rollout": words},
        param_bounds={"iterations": (1.0, 2.0**20)},
    )
    monkeypatch.setattr(type(game), "strategies", lambda self: shipped)
    result = skill(GAME, 2, budgets=(2, 3), games=20, seed=SEED, threads=1)
    search = result.rungs[result.rungs["kind"] == "search"]["rung"].tolist()
    best = result.best_heuristic
    assert len(search) == 2 and result.names[-2:] == tuple(search)
    assert "iterations=4" in search[0] and "iterations=8" in search[1]
    # The rollout is the strongest heuristic whose own table finishes its games: at two
    # players greedy's, weighted's and survivor's tables all run to the cap.
    finished = result.balance.set_index("rung")["finished"]
    heuristics = [name for name in result.names[1:] if name not in search]  # weakest first
    ending = [name for name in heuristics if finished[name] >= MIN_ROLLOUT_FINISHED]
    assert ending and ending != heuristics and best not in ending
    assert all(f"rollout={ending[-1]}" in name for name in search)
    for name in set(heuristics) - set(ending):
        assert any(note.startswith(f"{name} plays no search playouts") for note in result.notes)
    assert result.games_to_tell["vs_best_heuristic"]["against"] == best


# --- the command --------------------------------------------------------------------------


def test_the_command_prints_the_ladder_and_json(tmp_path: Path) -> None:
    out = invoke(
        "skill",
        GAME,
        "-p",
        "2",
        "--rung",
        "random",
        "--rung",
        "greedy",
        "-g",
        "20",
        "-t",
        "1",
        "--json",
    )
    record = json.loads(out)
    assert record["players"] == 2 and [r["name"] for r in record["rungs"]] == ["random", "greedy"]
    text = invoke("skill", GAME, "-p", "2", "--rung", "random", "--rung", "greedy", "-g", "20")
    assert "Skill depth" in text and "Balance by rung" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rung", "random", "--rung", "nosuch"], "unknown strategy 'nosuch'"),
        (["--rung", "random", "--rung", "weighted:nosuch=1"], "bad parameter"),
        (["--rung", "random"], "at least two rungs"),
        (["--budgets", "0"], "budget exponent"),
        (["--budgets", "-3"], "budget exponent"),
        (["--budgets", "four"], "--budgets"),
        (["--rung", "random", "--rung", "greedy", "--games", "0"], "games must be"),
        (["--rung", "random", "--rung", "random"], "given twice"),
        (["-p", "9"], "player"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, args, fragment) -> None:
    code, out, err = call_main(monkeypatch, capsys, "skill", GAME, *args)
    assert_one_line_error(code, out, err, fragment)
