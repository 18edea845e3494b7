"""One interface for card value in every game: ``balance cards GAME --json`` and
``balance simulate GAME --restricted-play GAMES``, against runs recomputed by hand.

Each value is recomputed from two runs of the Python API on the same seed (one with the
card forbidden to seat ``i mod n`` of game ``i``, one without), paired game by game with
scipy's paired t-test and statsmodels' Holm correction, never copied from an output.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from cli_helpers import invoke, simulate_json
from scipy import stats
from statsmodels.stats.multitest import multipletests

from balance import api
from balance.analyses.restricted import RestrictedPlay, card_value_json, value_table
from balance.api import make_setup
from balance.run.summary import format_summary

GAMES = 300
SEED = 5


def by_hand(game: str, players: int, strategy: str, cards: list[str]) -> list[dict]:
    """Each card's value from two API runs, paired by game: value, interval, p, Holm."""
    base = api.simulate(game, players, GAMES, SEED, [strategy], threads=2).seats
    rows = []
    for card in cards:
        run = api.simulate(game, players, GAMES, SEED, [strategy], restricted=[card], threads=2)
        restricted = run.seats
        chosen = restricted["game"] % players == restricted["seat"]
        wins = restricted[chosen].sort_values("game")["won"].to_numpy(float)
        same = base[chosen.to_numpy()].sort_values("game")["won"].to_numpy(float)
        delta = wins - same
        half = stats.t.ppf(0.975, GAMES - 1) * stats.sem(delta)
        p = stats.ttest_rel(wins, same).pvalue if delta.std() > 0 else 1.0
        rows.append(
            {
                "card": card,
                "value": delta.mean(),
                "ci95": [delta.mean() - half, delta.mean() + half],
                "p": p,
                "win_rate_without": wins.mean(),
                "win_rate_with": same.mean(),
            }
        )
    holm = multipletests([row["p"] for row in rows], method="holm")[1]
    for row, adjusted in zip(rows, holm, strict=True):
        row["p_holm"] = adjusted
    return rows


def check_against(printed: dict, expected: list[dict]) -> None:
    assert printed["games"] == GAMES and not printed["partial"]
    assert [row["card"] for row in printed["cards"]] == [row["card"] for row in expected]
    for row, want in zip(printed["cards"], expected, strict=True):
        assert row["games"] == GAMES
        for key in ("value", "p", "p_holm", "win_rate_without", "win_rate_with"):
            assert row[key] == pytest.approx(want[key], abs=1e-12), (row["card"], key)
        assert row["ci95"] == pytest.approx(want["ci95"], abs=1e-12), row["card"]
        assert row["significant"] == (want["p_holm"] < 0.05)


def test_cards_json_walk_the_plank() -> None:
    text = invoke(
        "cards", "walk-the-plank", "-p", 3, "-g", GAMES, "-s", SEED, "-t", 2,
        "--card", "charge", "--card", "run", "--json",
    )  # fmt: skip
    printed = json.loads(text)
    assert (printed["game"], printed["noun"], printed["players"]) == ("walk-the-plank", "card", 3)
    assert "restricted play" in printed["method"] and printed["strategies"] == ["random"] * 3
    check_against(printed, by_hand("walk-the-plank", 3, "random", ["charge", "run"]))


def test_cards_json_lifeboats() -> None:
    text = invoke("cards", "lifeboats", "-p", 4, "-g", GAMES, "-s", SEED, "-t", 2, "--json")
    printed = json.loads(text)
    assert printed["noun"] == "vote option"
    check_against(printed, by_hand("lifeboats", 4, "random", ["hat"]))


def test_simulate_restricted_play_adds_the_same_card_values() -> None:
    args = ("-p", 3, "-g", 200, "-s", SEED, "-t", 2)
    summary = simulate_json("walk-the-plank", *args, "--restricted-play", GAMES)
    cards = json.loads(
        invoke("cards", "walk-the-plank", *args[:2], "-g", GAMES, *args[4:], "--json")
    )
    assert summary["games"] == 200
    assert summary["card_value"] == cards
    text = format_summary(summary)
    first = cards["cards"][0]
    assert f"Card value by {cards['method']}, {GAMES:,} paired games a card:" in text
    assert f"  {first['card']:<30} {100 * first['value']:+6.2f} pp" in text


@pytest.mark.parametrize(
    "args",
    [
        ("cards", "la-planche", "-p", "4", "-g", "50", "--json"),
        ("simulate", "la-planche", "-p", "4", "-g", "50", "--restricted-play", "50"),
    ],
)
def test_la_planche_values_its_symbols(args: tuple[str, ...]) -> None:
    out = invoke(*args)
    if "--json" in args:
        values = json.loads(out)
        assert values["noun"] == "symbol" and values["games"] == 50
        assert [card["card"] for card in values["cards"]] == ["swap", "advance", "move"]
    else:
        for symbol in ("swap", "advance", "move"):
            assert re.search(rf"^  {symbol} +[+-]\d+\.\d\d pp", out, re.M), out


def made_value(rows: list[tuple[dict, np.ndarray, np.ndarray]]) -> RestrictedPlay:
    setup = make_setup("walk-the-plank", 3)
    return RestrictedPlay(setup=setup, table=value_table(rows), requested=4, partial=False)


def test_card_value_json_reads_the_table() -> None:
    wins = np.array([0, 0, 1, 0], dtype=bool)
    base = np.array([1, 0, 1, 1], dtype=bool)
    labelled = {"seat": 1, "deck": "d", "card": "Rum"}
    value = made_value([({"action": "charge"}, wins, base), (labelled, base, base)])
    printed = card_value_json(value)
    first, second = printed["cards"]
    assert first["card"] == "charge" and "seat" not in first
    assert first["value"] == pytest.approx(-0.5)
    assert first["win_rate_without"] == 0.25 and first["win_rate_with"] == 0.75
    p = stats.ttest_rel(wins.astype(float), base.astype(float)).pvalue
    assert first["p"] == pytest.approx(p)
    assert first["p_holm"] == pytest.approx(min(1.0, 2 * p))  # the other p is 1
    assert (second["card"], second["seat"], second["deck"]) == ("Rum", 1, "d")
    assert (second["value"], second["p"], second["p_holm"]) == (0.0, 1.0, 1.0)
    assert printed["games"] == 4 and printed["requested_games"] == 4
    assert json.loads(json.dumps(printed)) == printed  # plain JSON types throughout


def test_value_table_pairs_each_row_with_its_own_base() -> None:
    a = np.array([1.0, 0.0, 0.5])
    table = value_table([({"card": "x"}, a, a - 0.5), ({"card": "y"}, a, a)])
    assert isinstance(table, pd.DataFrame)
    assert table["difference"].tolist() == [0.5, 0.0]
    assert table["games"].tolist() == [3, 3]


def test_card_values_among_random_players_say_so_before_the_findings() -> None:
    from balance.analyses.restricted import restricted_play
    from balance.reports.findings import random_field_sentences

    setup = make_setup("walk-the-plank", 3, SEED)
    text = restricted_play(setup, 200, ["charge"], threads=2).text()
    findings = text.split("Findings:")[1]
    assert "uniform-random player" in findings.splitlines()[1]
    assert random_field_sentences(["random", "greedy", "random"], "card") == []
