"""Battle of Thieves end to end, as a designer uses it: ``balance simulate`` with decks
(names, files, ``file.toml:deck name``) and ``--restricted-play``, the saved records,
``matchup``, ``cards``, ``report``, ``replay``, rules and strategies, threads and one-line
errors. Every figure is recomputed from the records (or from runs of the Python API on
the same seeds), never copied from an earlier output.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import tomllib
from functools import cache
from pathlib import Path

import cli_helpers
import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from balance.strategies.battle_of_thieves import SHIPPED
from cli_helpers import assert_one_line_error, call_main, invoke, pdf_pages, within
from click.testing import CliRunner
from statsmodels.stats.proportion import confint_proportions_2indep

from balance import api
from balance.analyses.run_report import RunTables
from balance.cli import cli
from balance.core.errors import BalanceError
from balance.games.battle_of_thieves import layout as L
from balance.games.battle_of_thieves.game import GAME, SEAT_MEANS
from balance.games.battle_of_thieves.rules import BattleRules
from balance.run.results import load_run
from balance.run.summary import format_summary
from balance.stats.intervals import mean_interval, share_interval, wilson_interval

GAME_ID = "battle-of-thieves"
ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs" / "battle-of-thieves.md"
EXAMPLES = ROOT / "balance" / "games" / "battle_of_thieves" / "examples"
CANNON, BOARDING, ISLAND = "cannon-battery", "boarding-party", "island-raiders"
GAMES = 1000
SEED = 7
DEFAULTS = BattleRules()
RULE_NAMES = [f.name for f in dataclasses.fields(BattleRules)]
STRATEGIES = ["random", "cannoneer", "boarder", "bailer", "finisher", "mc", "ismcts"]
REASONS = ["cap", "water", "original sin"]
SINS = ["Luxure", "Gourmandise", "Envie", "Avarice", "Paresse", "Colère", "Orgueil"]
#: The per-seat records the docs list under "by seat, means per game with intervals".
PER_SEAT = (
    "shots",
    "hits",
    "chaos_shots",
    "holes_made",
    "holes_taken",
    "holes_repaired",
    "water_bailed",
    "attacks",
    "attack_hits",
    "damage_dealt",
    "deaths",
    "boardings",
    "island_visits",
    "cards_drawn",
    "cards_played",
    "red_sea",
    "final_water",
    "taken_planks",
    "taken_cannonballs",
    "taken_food",
    "taken_chaos_balls",
    "taken_incendiary_balls",
)
COMMON_KEYS = {
    "game",
    "players",
    "games",
    "requested_games",
    "partial",
    "seed",
    "variants",
    "rules",
    "strategies",
    "rotate_seats",
    "seating",
    "restricted",
    "threads",
    "finished_rate",
    "finished_ci95",
    "length_mean",
    "length_ci95",
    "length_sd",
    "length_unit",
    "winner_count",
    "winner_count_ci95",
    "seat_win_rate",
    "balance_index",
    "balance_index_ci95",
    "elapsed_s",
    "games_per_s",
}
OWN_KEYS = {
    "decks",
    "win_reason",
    "win_reason_ci95",
    "capped_games",
    "capped_rate",
    "capped_ci95",
    "hit_rate",
    "hit_rate_ci95",
    "cards",
    *(f"{name}_mean" for name in PER_SEAT),
    *(f"{name}_ci95" for name in PER_SEAT),
}
TIMING = {"threads", "elapsed_s", "games_per_s"}
GAMES_COLUMNS = ["game", "turns", "finished", "winner", "win_reason", "water_0", "water_1"]
SEATS_COLUMNS = ["game", "seat", "strategy", "deck", "won", *PER_SEAT]
CARDS_COLUMNS = ["game", "seat", "card", "drawn", "played", "held_turns", "won"]
COMMON_PAGES = [
    "00-findings",
    "00-title",
    "01-seat-win-rates",
    "03-game-length",
    "04-games-still-running",
]
OWN_PAGES = ["10-how-games-ended", "11-play-by-seat", "12-cards-played", "13-cards-played-vs-held"]
#: A deck holding all seven sins, from the example library: it can lose by original sin.
SINNER = """\
include = ["{examples}/cards.toml", "{examples}/crew.toml"]

[[deck]]
name = "seven sins"
ship = "Iron Maiden"
pirates = [
    {{ name = "Gunner Hob", weapons = ["Musket", "Cutlass"] }},
    {{ name = "Bosun Bart", weapons = ["Flintlock Pistol", "Dagger"] }},
]

[deck.cards]
"Luxure" = 1
"Gourmandise" = 1
"Envie" = 1
"Avarice" = 1
"Paresse" = 1
"Colère" = 1
"Orgueil" = 1
"Broadside" = 2
"Plug the Leaks" = 2
"Manned Pumps" = 2
"Powder Monkeys" = 2
"Fog Bank" = 2
"Rum Barrel" = 2
"Wet Powder" = 1

[deck.provisions]
planks = 8
cannonballs = 10
food = 2
chaos_balls = 6
incendiary_balls = 4
"""
SINNER_TURN_CAP = 40
#: A user's strategy file, written like strategies/battle_of_thieves.py's ``random``.
USER_STRATEGY = """\
from numba import njit

from balance.games.battle_of_thieves.kit import below_nb
from balance.strategy import Strategy


@njit
def uniform_decide(view, options, count, seat, params, rng):
    return below_nb(rng, count)


uniform = Strategy(
    "battle-of-thieves",
    "uniform",
    "Picks uniformly among the legal options, as the shipped random does.",
    {"decide": uniform_decide},
)
"""


# --- helpers -------------------------------------------------------------------------------


simulate_json = functools.partial(cli_helpers.simulate_json, GAME_ID)


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the only line of ``path`` that contains ``text``."""
    lines = [k for k, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]


@cache
def deck_cards(deck: str) -> dict[str, int]:
    """An example deck's ``[deck.cards]``, read straight from its TOML file."""
    (entry,) = tomllib.loads((EXAMPLES / f"{deck}.toml").read_text())["deck"]
    return dict(entry["cards"])


def sinner_cards() -> dict[str, int]:
    (entry,) = tomllib.loads(SINNER.format(examples=EXAMPLES))["deck"]
    return dict(entry["cards"])


@cache
def seat_wins(
    decks: tuple[str, str], games: int, seed: int, blanks: tuple[str, ...] = (), **rules
) -> np.ndarray:
    """Which seat won each game: bool ``(games, 2)``, from the API's records (the games
    table: ``run.seats`` fails on a mirror match, see
    ``test_the_api_reads_the_seats_of_a_mirror_match``)."""
    run = api.simulate(
        GAME_ID,
        players=None,
        games=games,
        seed=seed,
        rules={"decks": list(decks), "blanks": list(blanks), **rules},
        threads=2,
    )
    records = run.games
    assert records["game"].tolist() == list(range(games))
    winner = records["winner"].to_numpy(dtype=float)  # NaN: capped, nobody won
    return winner[:, None] == np.array([0.0, 1.0])


def blank_delta(decks: tuple[str, str], seat: int, card: str, games: int, seed: int) -> dict:
    """A card's restricted-play value by hand: the deck's wins with the card blanked
    minus its wins in the same games with the card."""
    base = seat_wins(decks, games, seed)[:, seat]
    blank = seat_wins(decks, games, seed, (f"{seat}:{card}",))[:, seat]
    delta = blank.astype(float) - base
    mean, low, high = mean_interval(delta)
    return {
        "difference": mean,
        "low": low,
        "high": high,
        "win_rate": blank.mean(),
        "base_win_rate": base.mean(),
    }


# --- saved runs --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sinner_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("decks") / "sinner.toml"
    path.write_text(SINNER.format(examples=EXAMPLES))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, sinner_file: Path) -> dict:
    """Saved runs (``simulate --json --out DIR -t 2``), played when first asked:

    - ``ab``: cannon-battery against boarding-party (Broadside is in both decks: kept
      apart, one key a deck);
    - ``mirror``: cannon-battery against itself (every card pooled over both seats);
    - ``sins``: a seven-sin deck file against island-raiders with a turn cap of 40, so
      that games end by water, by original sin and by the cap;
    - ``heuristic``: cannoneer against bailer.
    """
    args = {
        "ab": ("--deck", CANNON, "--deck", BOARDING, "-g", GAMES),
        "mirror": ("--deck", CANNON, "--deck", CANNON, "-g", 500),
        "sins": (
            "--deck",
            sinner_file,
            "--deck",
            ISLAND,
            "-g",
            GAMES,
            "--rule",
            f"turn_cap={SINNER_TURN_CAP}",
        ),
        "heuristic": (
            "--deck",
            CANNON,
            "--deck",
            BOARDING,
            "-g",
            300,
            "--strategy",
            "cannoneer",
            "--strategy",
            "bailer",
        ),
    }

    class Lazy(dict):
        def __missing__(self, name: str) -> tuple[dict, Path]:
            directory = tmp_path_factory.mktemp("bot") / name
            summary = simulate_json(*args[name], "-s", SEED, "-t", 2, "--out", directory)
            self[name] = summary, directory
            return self[name]

    return Lazy()


def decks_of(name: str) -> tuple[dict[str, int], dict[str, int]]:
    """Each seat's ``[deck.cards]`` in the run ``name``."""
    return {
        "ab": (deck_cards(CANNON), deck_cards(BOARDING)),
        "mirror": (deck_cards(CANNON), deck_cards(CANNON)),
        "sins": (sinner_cards(), deck_cards(ISLAND)),
        "heuristic": (deck_cards(CANNON), deck_cards(BOARDING)),
    }[name]


RUN_NAMES = ["ab", "mirror", "sins", "heuristic"]


@pytest.fixture(params=RUN_NAMES)
def run(request: pytest.FixtureRequest, runs) -> tuple[str, dict, Path]:
    return (request.param, *runs[request.param])


def tables(directory: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    saved = load_run(directory)
    return saved.table("games"), saved.table("seats"), saved.table("cards")


# --- simulate --json: the keys -------------------------------------------------------------


def test_json_has_every_key(runs) -> None:
    summary, _ = runs["ab"]
    assert summary.keys() >= COMMON_KEYS | OWN_KEYS, (COMMON_KEYS | OWN_KEYS) - summary.keys()
    assert summary["game"] == GAME_ID
    assert summary["players"] == 2  # no --players given: the game's only count
    assert (summary["games"], summary["seed"], summary["threads"]) == (GAMES, SEED, 2)
    assert summary["requested_games"] == GAMES and summary["partial"] is False
    assert summary["length_unit"] == "turns"
    assert summary["variants"] == [] and summary["restricted"] == []
    assert list(summary["rules"]) == RULE_NAMES
    assert summary["rules"] == {**DEFAULTS.to_dict(), "decks": [CANNON, BOARDING]}
    assert summary["strategies"] == ["random", "random"]
    assert summary["decks"] == [CANNON, BOARDING]
    assert [row["seat"] for row in summary["seat_win_rate"]] == [0, 1]
    for row in summary["seat_win_rate"]:
        assert within(row["ci95"], row["rate"]) and row["ci95"][0] < row["ci95"][1]
    assert list(summary["win_reason"]) == REASONS
    assert list(summary["win_reason_ci95"]) == REASONS
    assert sum(summary["win_reason"].values()) == pytest.approx(1.0, abs=1e-12)
    for name in PER_SEAT:
        means, cis = summary[f"{name}_mean"], summary[f"{name}_ci95"]
        assert len(means) == len(cis) == 2, name
        for mean, pair in zip(means, cis, strict=True):
            assert isinstance(mean, float) and within(pair, mean), name
    for rate, pair in zip(summary["hit_rate"], summary["hit_rate_ci95"], strict=True):
        assert 0 < rate < 1 and within(pair, rate)
    assert "restricted_play_method" not in summary
    for name, card in summary["cards"].items():
        assert not any(key.startswith("restricted_play") for key in card), name
    assert summary["elapsed_s"] > 0 and summary["games_per_s"] > 0


def documented(paragraph_start: str) -> str:
    """The docs' list item (or paragraph) that starts with ``paragraph_start``."""
    text = DOCS.read_text()
    assert paragraph_start in text, paragraph_start
    return re.split(r"\n(?:- |\n)", text.split(paragraph_start, 1)[1], maxsplit=1)[0]


def test_json_keys_are_the_documented_ones(runs) -> None:
    summary, _ = runs["ab"]
    per_seat = re.findall(r"`(\w+)`", documented("- by seat, means per game with intervals:"))
    assert tuple(n for n in per_seat if not n.startswith(("NAME", "hit_rate"))) == PER_SEAT
    means = {key[: -len("_mean")] for key in summary if key.endswith("_mean")}
    assert means - {"length"} == set(PER_SEAT)
    assert "hit_rate" in per_seat and "hit_rate_ci95" in summary
    reasons = re.findall(r"`([\w ]+)`", documented("- `win_reason` with `win_reason_ci95`:"))
    assert set(REASONS) <= set(reasons)
    card_keys = re.findall(r"`(\w+)`", documented("- `cards`: per card name,"))
    assert {"drawn_per_game", "win_rate_played", "played_minus_held"} <= set(card_keys)
    single = summary["cards"]["Chain Shot"]  # in one deck only
    for key in card_keys:
        if key.startswith("restricted_play"):
            continue
        assert key in single, key
        assert f"{key}_ci95" in single, key  # every documented figure has its interval


# --- simulate --json: the figures against the records ----------------------------------------


def test_records_have_a_row_per_game_seat_and_card(run) -> None:
    name, summary, directory = run
    assert {p.name for p in directory.iterdir()} == {
        "games.parquet",
        "seats.parquet",
        "cards.parquet",
        "manifest.json",
        "summary.json",
    }
    saved = json.loads((directory / "summary.json").read_text())
    assert {k: v for k, v in saved.items() if k not in TIMING} == {
        k: v for k, v in summary.items() if k not in TIMING
    }
    games, seats, cards = tables(directory)
    n = summary["games"]
    decks = decks_of(name)
    assert list(games.columns) == GAMES_COLUMNS
    assert list(seats.columns) == SEATS_COLUMNS
    assert list(cards.columns) == CARDS_COLUMNS
    assert games["game"].tolist() == list(range(n))
    assert seats["game"].tolist() == np.repeat(np.arange(n), 2).tolist()
    assert seats["seat"].tolist() == [0, 1] * n
    assert seats["deck"].astype(str).tolist() == summary["decks"] * n
    assert seats["strategy"].astype(str).tolist() == summary["strategies"] * n
    assert len(cards) == n * (len(decks[0]) + len(decks[1]))
    for seat in (0, 1):
        mine = cards[cards["seat"] == seat]
        assert mine.groupby("game").size().eq(len(decks[seat])).all()
        assert set(mine["card"].astype(str)) == set(decks[seat])
    assert list(games["win_reason"].cat.categories) == REASONS


def test_summary_matches_the_records(run) -> None:
    _, summary, directory = run
    games, seats, _ = tables(directory)
    n = summary["games"]
    assert summary["length_mean"] == pytest.approx(games["turns"].mean(), rel=1e-12)
    finished = int(games["finished"].sum())
    assert summary["finished_rate"] == finished / n
    assert summary["finished_ci95"] == pytest.approx(list(wilson_interval(finished, n)))
    for row in summary["seat_win_rate"]:
        wins = int(seats.loc[seats["seat"] == row["seat"], "won"].sum())
        assert row["rate"] == wins / n
        assert row["ci95"] == pytest.approx(list(wilson_interval(wins, n)))
    reasons = games["win_reason"].astype(str)
    for reason in REASONS:
        hits = int((reasons == reason).sum())
        assert summary["win_reason"][reason] == hits / n, reason
        assert summary["win_reason_ci95"][reason] == pytest.approx(
            list(wilson_interval(hits, n))
        ), reason
    assert summary["winner_count"]["0"] == summary["win_reason"]["cap"]
    capped = int((reasons == "cap").sum())
    assert summary["capped_games"] == capped
    assert summary["capped_rate"] == capped / n
    assert summary["capped_ci95"] == pytest.approx(list(wilson_interval(capped, n)))
    assert summary["winner_count"]["2"] == 0.0
    for name in PER_SEAT:
        for seat in (0, 1):
            values = seats.loc[seats["seat"] == seat, name].to_numpy()
            mean, low, high = mean_interval(values, floor=0.0)  # a count: not below 0
            assert summary[f"{name}_mean"][seat] == pytest.approx(mean, rel=1e-12), name
            assert summary[f"{name}_ci95"][seat] == pytest.approx(
                [low, high], rel=1e-9, abs=1e-12
            ), name
    for seat in (0, 1):
        mine = seats[seats["seat"] == seat]
        # A share of shots, clustered by game: Wilson at the effective number of shots.
        rate, low, high = share_interval(mine["hits"].to_numpy(), mine["shots"].to_numpy())
        assert rate == pytest.approx(mine["hits"].sum() / mine["shots"].sum())
        assert summary["hit_rate"][seat] == pytest.approx(rate, rel=1e-12)
        assert summary["hit_rate_ci95"][seat] == pytest.approx([low, high], rel=1e-9)


def test_the_records_obey_the_rules(run) -> None:
    name, summary, directory = run
    games, seats, cards = tables(directory)
    rules = summary["rules"]
    reason = games["win_reason"].astype(str)
    capped = reason == "cap"
    # A game ends with a winner unless the cap stops it.
    assert (games["finished"] == ~capped).all()
    assert (games["winner"].isna() == capped).all()
    assert (games.loc[capped, "turns"] == rules["turn_cap"]).all()
    assert (games.loc[~capped, "turns"] <= rules["turn_cap"]).all()
    won = seats.pivot(index="game", columns="seat", values="won")
    winner = games["winner"].to_numpy(dtype=float)
    assert (won[0].to_numpy() == (winner == 0)).all() and (won[1].to_numpy() == (winner == 1)).all()
    for seat in (0, 1):
        final = seats.loc[seats["seat"] == seat, "final_water"].to_numpy()
        assert (final == games[f"water_{seat}"].to_numpy()).all(), seat
    # Lost by water: the loser's water reached sink_water, the winner's did not.
    sunk = games[reason == "water"]
    loser_water = np.where(sunk["winner"] == 0, sunk["water_1"], sunk["water_0"])
    winner_water = np.where(sunk["winner"] == 0, sunk["water_0"], sunk["water_1"])
    assert (loser_water >= rules["sink_water"]).all()
    assert (winner_water < rules["sink_water"]).all()
    # Cards: what each seat drew and played is the sum of its cards' records.
    by_seat = cards.groupby(["game", "seat"])[["drawn", "played"]].sum()
    assert (by_seat["played"].to_numpy() == seats["cards_played"].to_numpy()).all()
    assert (by_seat["drawn"].to_numpy() == seats["cards_drawn"].to_numpy()).all()
    assert (cards["played"] <= cards["drawn"]).all()
    decks = decks_of(name)
    copies = np.array([decks[s][str(c)] for s, c in zip(cards["seat"], cards["card"], strict=True)])
    assert (cards["drawn"].to_numpy() <= copies).all()
    assert (
        cards["won"].to_numpy()
        == seats.set_index(["game", "seat"])
        .loc[list(zip(cards["game"], cards["seat"], strict=True)), "won"]
        .to_numpy()
    ).all()
    if name == "sins":
        # Every ending happens, and only the seven-sin deck can lose by original sin,
        # having drawn every one of its sins.
        assert all(summary["win_reason"][r] > 0 for r in REASONS), summary["win_reason"]
        sinned = games.loc[reason == "original sin", "game"]
        assert (games.loc[reason == "original sin", "winner"] == 1).all()
        drawn = cards[(cards["seat"] == 0) & cards["card"].astype(str).isin(SINS)]
        drawn = drawn[drawn["game"].isin(sinned)]
        assert len(drawn) == 7 * len(sinned)
        assert (drawn["drawn"] >= 1).all()
    else:
        assert summary["win_reason"]["original sin"] == 0.0  # no example deck has 7 sins


def newcombe(w_a: int, n_a: int, w_b: int, n_b: int) -> list[float]:
    low, high = confint_proportions_2indep(w_a, n_a, w_b, n_b, method="newcomb", compare="diff")
    return [float(low), float(high)]


def expected_cards(summary: dict, name: str) -> dict[str, tuple[str, str, list[int]]]:
    """The keys of the run ``name``'s ``cards``, worked out from its decks' card lists:
    key → (card, deck, seats). A card in one deck is keyed by its name; a card in both is
    pooled under its name in a mirror match, else kept apart as ``NAME (DECK)``."""
    decks, names = decks_of(name), summary["decks"]
    out = {}
    for card in {**decks[0], **decks[1]}:
        seats = [s for s in (0, 1) if card in decks[s]]
        if len(seats) == 1 or names[0] == names[1]:
            out[card] = (card, names[seats[0]], seats)
        else:
            for seat in seats:
                out[f"{card} ({names[seat]})"] = (card, names[seat], [seat])
    return out


def clustered(rows: pd.DataFrame) -> dict[str, list[float]]:
    """A pooled card's 95% intervals with the game as the unit, recomputed with statsmodels
    from its rows (two a game): means from the per-game sums, win rates by OLS with
    cluster-robust variances over games (a Wilson interval at the effective number of
    observations), their difference by MOVER with the rates' correlation."""
    per_game = rows.groupby("game")[["drawn", "played", "held_turns"]].sum()
    out = {}
    for figure, column in (
        ("drawn_per_game", "drawn"),
        ("played_per_game", "played"),
        ("held_turns_per_game", "held_turns"),
    ):
        _, low, high = mean_interval(per_game[column].to_numpy() / 2)
        out[figure] = [low, high]
    groups = pd.DataFrame(
        {
            "played": (rows["played"] > 0).astype(float),
            "held": ((rows["drawn"] > 0) & (rows["played"] == 0)).astype(float),
        }
    )
    either = (groups["played"] + groups["held"]).to_numpy() > 0
    fit = sm.OLS(rows["won"].to_numpy(float)[either], groups.to_numpy()[either]).fit(
        cov_type="cluster",
        cov_kwds={"groups": rows["game"].to_numpy()[either], "use_correction": False},
    )
    rates, cov = fit.params, fit.cov_params()
    bounds = []
    for k, group in enumerate(("played", "held")):
        rate, effective = rates[k], rates[k] * (1 - rates[k]) / cov[k, k]
        bounds.append(wilson_interval(rate * effective, effective))
        out[f"win_rate_{group}"] = [float(bounds[k][0]), float(bounds[k][1])]
    rho = cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1])
    (lp, up), (lh, uh) = bounds
    (rp, rh), diff = rates, rates[0] - rates[1]
    out["played_minus_held"] = [
        diff - np.sqrt((rp - lp) ** 2 + (uh - rh) ** 2 - 2 * rho * (rp - lp) * (uh - rh)),
        diff + np.sqrt((up - rp) ** 2 + (rh - lh) ** 2 - 2 * rho * (up - rp) * (rh - lh)),
    ]
    return out


def test_cards_match_the_records(run) -> None:
    name, summary, directory = run
    _, _, cards = tables(directory)
    expected_keys = expected_cards(summary, name)
    assert set(summary["cards"]) == set(expected_keys)
    shared = set(decks_of(name)[0]) & set(decks_of(name)[1])
    if name != "mirror":  # a card in both decks of different names is kept apart
        assert shared and not shared & set(summary["cards"]), shared
    for key, entry in summary["cards"].items():
        card, deck, seats = expected_keys[key]
        rows = cards[(cards["card"].astype(str) == card) & cards["seat"].isin(seats)]
        assert (entry["seats"], entry["deck"]) == (seats, deck), key
        # Pooled over both seats, each seat's games count once: 2 x games observations.
        assert entry["games"] == len(rows) == summary["games"] * len(seats), key
        assert entry["in_games"] == summary["games"], key
        pooled = clustered(rows) if len(seats) == 2 else {}
        for figure, column in (
            ("drawn_per_game", "drawn"),
            ("played_per_game", "played"),
            ("held_turns_per_game", "held_turns"),
        ):
            mean, low, high = mean_interval(rows[column].to_numpy())
            assert entry[figure] == pytest.approx(mean, rel=1e-12), (key, figure)
            expected = pooled.get(figure, [low, high])
            assert entry[f"{figure}_ci95"] == pytest.approx(expected, rel=1e-9), (key, figure)
        played = rows[rows["played"] > 0]
        held = rows[(rows["drawn"] > 0) & (rows["played"] == 0)]
        groups = {"played": played, "held": held}
        for group, chosen in groups.items():
            wins, count = int(chosen["won"].sum()), len(chosen)
            assert entry[f"{group}_games"] == count, (key, group)
            assert entry[f"{group}_in_games"] == chosen["game"].nunique(), (key, group)
            rate = entry[f"win_rate_{group}"]
            if count:
                assert rate == pytest.approx(wins / count), (key, group)
            else:
                assert rate is None, (key, group)  # NaN: null in JSON
            if not pooled:
                expected = list(wilson_interval(wins, count))
            elif 0 < wins < count:
                expected = pooled[f"win_rate_{group}"]
            else:  # at 0 or 1, as many observations as games could agree
                games = chosen["game"].nunique()
                expected = list(wilson_interval(games * wins / max(count, 1), games))
            assert entry[f"win_rate_{group}_ci95"] == pytest.approx(expected), (key, group)
        if len(played) and len(held):
            difference = played["won"].mean() - held["won"].mean()
            assert entry["played_minus_held"] == pytest.approx(difference), key
            inside = all(0 < g["won"].mean() < 1 for g in (played, held))
            if not pooled:
                expected = newcombe(
                    int(played["won"].sum()), len(played), int(held["won"].sum()), len(held)
                )
            elif inside:
                expected = pooled["played_minus_held"]
            else:  # a pooled rate at 0 or 1: tests/battle_of_thieves/test_usefulness.py
                continue
            assert entry["played_minus_held_ci95"] == pytest.approx(expected, rel=1e-9), key
        else:
            assert entry["played_minus_held"] is None, key  # no difference without both


def test_a_mirror_match_pools_every_card_over_both_seats(runs) -> None:
    summary, directory = runs["mirror"]
    _, _, cards = tables(directory)
    assert summary["decks"] == [CANNON, CANNON]
    assert set(summary["cards"]) == set(deck_cards(CANNON))
    for card, entry in summary["cards"].items():
        assert (entry["seats"], entry["deck"]) == ([0, 1], CANNON), card
        rows = cards[cards["card"].astype(str) == card]
        by_seat = [rows[rows["seat"] == s]["played"].mean() for s in (0, 1)]
        # Pooled: the mean over both seats' games, not either seat's.
        assert entry["played_per_game"] == pytest.approx(np.mean(by_seat)), card
        assert entry["games"] == 2 * summary["games"]


def test_pooled_cards_keep_their_intervals(runs) -> None:
    # docs/battle-of-thieves.md promises every card figure "with intervals", pooled or not.
    summary, _ = runs["mirror"]
    documented_keys = re.findall(r"`(\w+)`", documented("- `cards`: per card name,"))
    figures = [k for k in documented_keys if k.endswith(("_per_game", "played_minus_held"))]
    assert {"drawn_per_game", "played_per_game", "played_minus_held"} <= set(figures)
    for card, entry in summary["cards"].items():
        assert entry["seats"] == [0, 1], card
        for key in figures:
            assert f"{key}_ci95" in entry, (card, key)
            if entry[key] is not None:
                assert within(entry[f"{key}_ci95"], entry[key]), (card, key)
                assert entry[f"{key}_ci95"][0] < entry[f"{key}_ci95"][1], (card, key)


def test_text_of_a_mirror_match_counts_seat_games_and_games(runs) -> None:
    summary, _ = runs["mirror"]
    text = format_summary(summary)
    for card, entry in summary["cards"].items():
        played = f"of {entry['played_games']:,} seat-games ({entry['played_in_games']:,} games)"
        assert f"{played} played" in text, card
        # A game holds one or two of a card's seat-games.
        assert entry["played_in_games"] <= entry["played_games"] <= 2 * entry["played_in_games"]
        assert entry["played_in_games"] <= summary["games"], card


def test_text_names_what_each_seat_held_and_counts_games_with_a_winner() -> None:
    """Seat 0 holds one deck and one strategy in every game: its win rate is theirs as
    much as the seat's, so the text names them; a game has at most one winner."""

    def summary(strategies: list[str], rotate: bool) -> dict:
        rules = {"decks": [CANNON, BOARDING]}
        return api.simulate(
            GAME_ID, None, 40, SEED, strategies, rules=rules, rotate_seats=rotate, threads=1
        ).summary()

    fixed = summary(["cannoneer", "bailer"], False)
    labels = ["seat 0 (cannon-battery deck, cannoneer)", "seat 1 (boarding-party deck, bailer)"]
    assert fixed["seat_labels"] == labels
    text = format_summary(fixed)
    for row, label in zip(fixed["seat_win_rate"], labels, strict=True):
        assert re.search(rf"^  {re.escape(label)}  +{row['rate']:.1%}  \[", text, re.M)
    counts = text.split("Games with no winner and with a winner:\n")[1].splitlines()[:3]
    capped = fixed["winner_count"]["0"]
    assert 0 < capped < 1
    assert re.match(rf"  no winner +{capped:.1%}  \[", counts[0]), counts
    assert re.match(rf"  a winner +{1 - capped:.1%}  \[", counts[1]), counts
    assert not counts[2].startswith("  "), counts  # no row for two winners
    # Seats rotated: the decks stay in their seats, the strategies do not.
    rotated = summary(["random", "random"], True)
    labels = ["seat 0 (cannon-battery deck)", "seat 1 (boarding-party deck)"]
    assert rotated["seat_labels"] == labels


def test_the_api_reads_the_seats_of_a_mirror_match(runs) -> None:
    _, directory = runs["mirror"]
    run = api.simulate(
        GAME_ID, players=None, games=50, seed=SEED, rules={"decks": [CANNON, CANNON]}, threads=2
    )
    seats = run.seats
    assert seats["deck"].astype(str).tolist() == [CANNON] * 100
    _, saved, _ = tables(directory)  # the same seed: the saved run's first 50 games
    assert seats["won"].tolist() == saved.loc[saved["game"] < 50, "won"].tolist()


def test_two_different_decks_of_one_name_are_not_pooled(tmp_path: Path) -> None:
    copy = copy_example(tmp_path, BOARDING, CANNON)  # a boarding deck named cannon-battery
    args = ["simulate", GAME_ID, "--deck", CANNON, "--deck", str(copy), "-g", 50, "--json"]
    result = CliRunner().invoke(cli, args)
    if isinstance(result.exception, BalanceError):  # refusing, saying why, is fine
        assert CANNON in str(result.exception) and "\n" not in str(result.exception)
        return
    assert result.exit_code == 0, (result.output, result.exception)
    cards = json.loads(result.stdout)["cards"]
    pooled = [key for key, entry in cards.items() if entry["seats"] == [0, 1]]
    assert pooled == [], pooled


def test_text_summary_agrees_with_the_json(runs) -> None:
    summary, _ = runs["ab"]
    out = invoke("simulate", GAME_ID, "--deck", CANNON, "--deck", BOARDING, "-g", GAMES, "-s", SEED)
    assert out.startswith(f"{GAME_ID}: {GAMES:,} games, 2 players, seed {SEED}\n")
    assert f"\nDecks: seat 0 {CANNON}, seat 1 {BOARDING}\n" in out
    assert f"Seat win rates ({GAMES:,} games, 95% Wilson intervals):" in out
    for label, reason in (("lost by water", "water"), ("capped (no winner)", "cap")):
        shown = re.search(rf"^  {re.escape(label)}\s+(\d+\.\d)%", out, re.M)
        assert shown, label
        assert float(shown[1]) == pytest.approx(100 * summary["win_reason"][reason], abs=0.051)
    shots = re.search(r"^  cannon shots\s+(\d+\.\d\d) \[.*?\]\s+(\d+\.\d\d) \[", out, re.M)
    assert shots
    assert [float(shots[1]), float(shots[2])] == pytest.approx(summary["shots_mean"], abs=0.006)
    assert "Chain Shot" in out and "Drop Anchor!" in out
    # The share stopped by the cap is a line of its own, with its interval and n.
    low, high = (100 * x for x in summary["capped_ci95"])
    assert (
        f"\nGames stopped by the 200-turn cap (neither ship sank): "
        f"{100 * summary['capped_rate']:.1f}% [{low:.1f}%, {high:.1f}%] of {GAMES:,} games (why: "
        "docs/battle-of-thieves.md, 'Games that stall')\n"
    ) in out


# --- --restricted-play -------------------------------------------------------------------------

RESTRICTED = 300


@pytest.fixture(scope="module")
def restricted_summary() -> dict:
    return simulate_json(
        "--deck",
        CANNON,
        "--deck",
        BOARDING,
        "-g",
        200,
        "-s",
        SEED,
        "-t",
        2,
        "--restricted-play",
        RESTRICTED,
    )


def test_restricted_play_values_every_card(restricted_summary) -> None:
    summary = restricted_summary
    assert summary["games"] == 200
    assert "restricted play" in summary["restricted_play_method"]
    for card, entry in summary["cards"].items():
        assert isinstance(entry["restricted_play_delta"], float), card
        assert within(entry["restricted_play_ci95"], entry["restricted_play_delta"]), card
        assert entry["restricted_play_ci95"][0] < entry["restricted_play_ci95"][1], card
        assert entry["restricted_play_games"] == RESTRICTED, card


@pytest.mark.parametrize(
    ("key", "card", "seat"),
    [
        ("Chain Shot", "Chain Shot", 0),
        ("Rum Barrel", "Rum Barrel", 1),
        # A card in both decks is kept apart: each key gets its own seat's value.
        (f"Broadside ({CANNON})", "Broadside", 0),
        (f"Broadside ({BOARDING})", "Broadside", 1),
    ],
)
def test_restricted_play_delta_by_hand(restricted_summary, key: str, card: str, seat: int) -> None:
    assert "Broadside" not in restricted_summary["cards"]
    entry = restricted_summary["cards"][key]
    assert entry["seats"] == [seat]
    expected = blank_delta((CANNON, BOARDING), seat, card, RESTRICTED, SEED)
    assert entry["restricted_play_delta"] == pytest.approx(expected["difference"], abs=1e-12)
    assert entry["restricted_play_ci95"] == pytest.approx([expected["low"], expected["high"]])


@pytest.fixture(scope="module")
def mirror_restricted_summary() -> dict:
    return simulate_json(
        "--deck", CANNON, "--deck", CANNON, "-g", 100, "-s", SEED, "-t", 2,
        "--restricted-play", RESTRICTED,
    )  # fmt: skip


def test_restricted_play_of_a_pooled_card_is_the_mean_of_both_seats(
    mirror_restricted_summary,
) -> None:
    summary = mirror_restricted_summary
    assert set(summary["cards"]) == set(deck_cards(CANNON))
    for card in ("Broadside", "Chain Shot"):
        entry = summary["cards"][card]
        assert entry["seats"] == [0, 1]
        # Game by game, the mean of the two seats' differences (blanked win - base win),
        # both paired with the same games; a Student t interval over those games.
        base = seat_wins((CANNON, CANNON), RESTRICTED, SEED)
        differences = [
            seat_wins((CANNON, CANNON), RESTRICTED, SEED, (f"{s}:{card}",))[:, s].astype(float)
            - base[:, s]
            for s in (0, 1)
        ]
        mean, low, high = mean_interval(np.mean(differences, axis=0))
        assert entry["restricted_play_delta"] == pytest.approx(mean, abs=1e-12), card
        assert entry["restricted_play_ci95"] == pytest.approx([low, high], rel=1e-9), card
        assert entry["restricted_play_games"] == RESTRICTED, card


def test_a_blanked_card_is_never_drawn_nor_played() -> None:
    rules = {"decks": [CANNON, BOARDING], "blanks": ["0:Chain Shot"]}
    run = api.simulate(GAME_ID, players=None, games=300, seed=SEED, rules=rules, threads=2)
    assert run.summary()["rules"]["blanks"] == ["0:Chain Shot"]
    cards = run.cards
    blanked = cards[(cards["seat"] == 0) & (cards["card"].astype(str) == "Chain Shot")]
    assert len(blanked) == 300
    assert (blanked["drawn"] == 0).all() and (blanked["played"] == 0).all()
    # The other cards are still drawn and played; the deck still holds 20 cards.
    others = cards[(cards["seat"] == 0) & (cards["card"].astype(str) != "Chain Shot")]
    assert others["played"].sum() > 0
    seats = run.seats
    assert (seats["cards_drawn"] <= 20).all()
    assert seats.loc[seats["seat"] == 0, "cards_drawn"].max() == 20  # blanks are drawn too


# --- deck files ---------------------------------------------------------------------------------


def copy_example(directory: Path, deck: str, name: str) -> Path:
    """An example deck file copied to ``directory``, its includes made absolute and the
    deck renamed."""
    text = (EXAMPLES / f"{deck}.toml").read_text()
    text = text.replace(
        'include = ["cards.toml", "crew.toml"]',
        f'include = ["{EXAMPLES}/cards.toml", "{EXAMPLES}/crew.toml"]',
    )
    assert f'name = "{deck}"' in text
    path = directory / f"{name}.toml"
    path.write_text(text.replace(f'name = "{deck}"', f'name = "{name}"'))
    return path


def renamed(cards: dict[str, dict], names: dict[str, str]) -> dict[str, dict]:
    """A summary's ``cards`` with its decks renamed (``old name: new name``): in each
    entry's ``deck`` and in the ``NAME (DECK)`` keys of cards kept apart."""
    out = {}
    for key, entry in cards.items():
        deck = entry["deck"]
        if key.endswith(f" ({deck})"):
            key = f"{key[: -len(deck) - 3]} ({names[deck]})"
        out[key] = {**entry, "deck": names[deck]}
    return out


def test_a_deck_file_plays_as_the_example_it_copies(tmp_path: Path, runs) -> None:
    summary, _ = runs["ab"]
    path = copy_example(tmp_path, CANNON, "my-battery")
    assert invoke("deck", "check", path) == (
        f"my-battery ({path}): 20 cards, 13 distinct, 30 provisions, ok\n"
    )
    mine = simulate_json("--deck", path, "--deck", BOARDING, "-g", GAMES, "-s", SEED, "-t", 2)
    assert mine["decks"] == ["my-battery", BOARDING]
    assert mine["rules"]["decks"] == [str(path), BOARDING]
    assert mine["seat_labels"][0] == "seat 0 (my-battery deck, random)"
    skip = TIMING | {"decks", "rules", "cards", "seat_labels"}
    assert {k: v for k, v in mine.items() if k not in skip} == {
        k: v for k, v in summary.items() if k not in skip
    }
    # The same card figures, under the copy's name (Broadside, in both decks, is keyed by it).
    assert "Broadside (my-battery)" in mine["cards"]
    assert mine["cards"] == renamed(summary["cards"], {CANNON: "my-battery", BOARDING: BOARDING})


def test_a_deck_named_in_a_file_of_several(tmp_path: Path, monkeypatch, capsys) -> None:
    first = copy_example(tmp_path, CANNON, "one").read_text()
    second = copy_example(tmp_path, ISLAND, "two").read_text()
    second = second.replace('name = "two"', 'name = "island raiders two"')
    second = "\n".join(line for line in second.splitlines() if not line.startswith("include"))
    path = tmp_path / "both.toml"
    path.write_text(first + "\n" + second + "\n")
    summary = simulate_json(
        "--deck", f"{path}:island raiders two", "--deck", f"{path}:one", "-g", 200, "-s", SEED
    )
    assert summary["decks"] == ["island raiders two", "one"]
    assert not set(deck_cards(ISLAND)) & set(deck_cards(CANNON))  # every card keyed by name
    assert set(summary["cards"]) == set(deck_cards(ISLAND)) | set(deck_cards(CANNON))
    # The same games as the two example decks.
    example = simulate_json("--deck", ISLAND, "--deck", CANNON, "-g", 200, "-s", SEED)
    assert summary["seat_win_rate"] == example["seat_win_rate"]
    names = {ISLAND: "island raiders two", CANNON: "one"}
    assert summary["cards"] == renamed(example["cards"], names)
    monkeypatch.chdir(tmp_path)
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", GAME_ID, "--deck", "both.toml", "--deck", CANNON
    )
    assert_one_line_error(
        code, out, err, "both.toml", "2 decks", "one", "island raiders two", "both.toml:"
    )
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", GAME_ID, "--deck", "both.toml:three", "--deck", CANNON
    )
    assert_one_line_error(code, out, err, "both.toml", "no deck 'three'", "island raiders two")


def test_a_relative_deck_file_is_kept_by_its_absolute_path(tmp_path: Path, monkeypatch) -> None:
    battery = copy_example(tmp_path, CANNON, "my-battery").resolve()
    party = copy_example(tmp_path, BOARDING, "my-party").resolve()
    monkeypatch.chdir(tmp_path)
    args = ("--deck", battery.name, "--deck", f"{party.name}:my-party", "-g", 50, "-s", SEED)
    summary = simulate_json(*args, "--out", "run")
    directory = tmp_path / "run"
    decks = [str(battery), f"{party}:my-party"]
    assert summary["rules"]["decks"] == decks
    assert json.loads((directory / "manifest.json").read_text())["rules"]["decks"] == decks
    # Read back from another directory, the saved run still finds its decks.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_run(directory).setup.rules.decks == tuple(decks)
    check_replay(directory, 0)
    pages = len(COMMON_PAGES + OWN_PAGES)
    text = invoke("report", directory, "--out", "report")
    report = Path("report")
    assert (
        text == f"wrote {pages} pages as PNG, {report / 'report.pdf'} and {report / 'index.html'}\n"
    )
    assert len(list((elsewhere / "report").glob("*.png"))) == pages


def broken_decks(directory: Path) -> dict[str, tuple[Path, list[str]]]:
    """Deck files with one mistake each, and what their error line must say."""
    good = copy_example(directory, CANNON, "my-deck")
    text = good.read_text()
    out = {}

    def write(name: str, old: str, new: str) -> Path:
        assert old in text
        path = directory / f"{name}.toml"
        path.write_text(text.replace(old, new, 1))
        return path

    path = write("broken", "planks = 8", "planks = = 8")
    out["broken"] = (path, [f"broken.toml:{line_of(path, 'planks = = 8')}: TOML syntax error"])
    path = write("short", '"Chain Shot" = 2', '"Chain Shot" = 1')
    out["short"] = (
        path,
        [f"short.toml:{line_of(path, '[deck.cards]')}: deck 'my-deck': 19 cards", "20"],
    )
    path = write("long", '"Chain Shot" = 2', '"Chain Shot" = 2\n"Heavy Seas" = 1')
    out["long"] = (path, [f"long.toml:{line_of(path, '[deck.cards]')}: ", "21 cards", "20"])
    path = write("typo", '"Grapeshot" = 2', '"Grapshot" = 2')
    out["typo"] = (
        path,
        [
            f"typo.toml:{line_of(path, 'Grapshot')}: deck 'my-deck', cards: unknown card "
            "'Grapshot' (did you mean 'Grapeshot'?)"
        ],
    )
    path = write("over", '"Grapeshot" = 2', '"Grapeshot" = 3')
    out["over"] = (path, [f"over.toml:{line_of(path, 'Grapeshot')}: ", "copy limit of 2"])
    return out


@pytest.mark.parametrize("mistake", ["broken", "short", "long", "typo", "over"])
def test_a_bad_deck_file_is_one_line_with_its_line(
    tmp_path: Path, monkeypatch, capsys, mistake: str
) -> None:
    path, fragments = broken_decks(tmp_path)[mistake]
    monkeypatch.chdir(tmp_path)
    args = ["simulate", GAME_ID, "--deck", CANNON, "--deck", path.name, "-g", 10]
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, *fragments)
    assert err.startswith(f"error: {path.name}:")
    # deck check says the same, without "error:", and exits with 1.
    result = CliRunner().invoke(cli, ["deck", "check", path.name])
    assert result.exit_code == 1
    assert result.stderr == err[len("error: ") :]


DECK_ERRORS = [
    (["--deck", "kraken-fleet", "--deck", CANNON], ["deck 'kraken-fleet'", CANNON, ISLAND]),
    (["--deck", "nowhere.toml", "--deck", CANNON], ["deck 'nowhere.toml': no such file"]),
    (["--deck", CANNON], ["rule 'decks'", "one deck a seat, 1 given"]),
    (["--deck", CANNON, "--deck", BOARDING, "--deck", ISLAND], ["3 given"]),
    (["-p", "3"], ["battle-of-thieves", "not 3"]),
    (["--rule", "blanks=0:Kraken Tentacle"], ["blank 0:Kraken Tentacle", "no card"]),
    (["--rule", "blanks=2:Broadside"], ["rule 'blanks'", "seat 0 or 1"]),
    (["--rule", "turn_cap=1"], ["rule 'turn_cap'", "2..10000"]),
    (["--strategy", "pirate"], ["unknown strategy 'pirate'", *STRATEGIES]),
    (["--strategy", "cannoneer:panic=40"], ["strategy 'cannoneer'", "panic_water"]),
    (["--strategy", "cannoneer:panic_water=lots"], ["panic_water", "'lots'"]),
    (["--strategy", "random"] * 3, ["3 given for 2 players"]),
    (["--variant", "kraken"], ["unknown variant 'kraken'"]),
]


@pytest.mark.parametrize(
    ("args", "fragments"), DECK_ERRORS, ids=[" ".join(a) for a, _ in DECK_ERRORS]
)
def test_user_errors_are_one_line(monkeypatch, capsys, args: list[str], fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, "simulate", GAME_ID, "-g", 10, *args)
    assert_one_line_error(code, out, err, *fragments)


# --- matchup -----------------------------------------------------------------------------------

MATCHUP_DECKS = (CANNON, BOARDING, ISLAND)
MATCHUP_GAMES = 300
MATCHUP_CAP = 30  # short enough for some capped games: wins for neither deck


@pytest.fixture(scope="module")
def matchup_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("matchup") / "matchup"
    args = ["matchup", GAME_ID, *[x for d in MATCHUP_DECKS for x in ("--deck", d)]]
    args += ["-g", MATCHUP_GAMES, "-s", SEED, "-t", 2, "--rule", f"turn_cap={MATCHUP_CAP}"]
    return invoke(*args, "--out", out), out


def matchup_by_hand() -> pd.DataFrame:
    """Each ordered pair's wins from two API runs (both seat orders, the same seed)."""
    rows = []
    for deck in MATCHUP_DECKS:
        for against in MATCHUP_DECKS:
            if deck == against:
                continue
            first = seat_wins((deck, against), MATCHUP_GAMES, SEED, turn_cap=MATCHUP_CAP)
            second = seat_wins((against, deck), MATCHUP_GAMES, SEED, turn_cap=MATCHUP_CAP)
            wins = int(first[:, 0].sum() + second[:, 1].sum())
            capped = int((~first.any(axis=1)).sum() + (~second.any(axis=1)).sum())
            low, high = wilson_interval(wins, 2 * MATCHUP_GAMES)
            rows.append(
                {
                    "deck": deck,
                    "against": against,
                    "games": 2 * MATCHUP_GAMES,
                    "wins": wins,
                    "rate": wins / (2 * MATCHUP_GAMES),
                    "low": float(low),
                    "high": float(high),
                    "first_rate": first[:, 0].mean(),
                    "second_rate": second[:, 1].mean(),
                    "capped": capped / (2 * MATCHUP_GAMES),
                }
            )
    return pd.DataFrame(rows)


def test_matchup_is_the_tournament_of_the_decks(matchup_run) -> None:
    """``balance matchup`` plays ``balance tournament --deck ...`` with GAMES in each seat
    order, and writes the tournament's files."""
    out_text, out = matchup_run
    assert out_text.endswith(
        "\nsaved the games, matrix, ratings and pair gaps (Parquet; pair gaps also CSV), JSON, "
        f"charts, tournament.pdf and index.html in {out}\n"
    )
    assert {p.name for p in out.iterdir()} == {
        "tournament.json",
        "tournament-games.parquet",
        "tournament-matrix.parquet",
        "tournament-ratings.parquet",
        "tournament-pair-gaps.parquet",
        "tournament-pair-gaps.csv",
        "tournament.pdf",
        "00-title.png",
        "01-matrix.png",
        "02-ratings.png",
        "03-pair-gaps.png",
        "index.html",
    }
    for page in ("00-title", "01-matrix", "02-ratings", "03-pair-gaps"):
        assert (out / f"{page}.png").read_bytes().startswith(b"\x89PNG"), page
    assert pdf_pages(out / "tournament.pdf") == 4
    record = json.loads((out / "tournament.json").read_text())
    assert record["contestants"] == list(MATCHUP_DECKS)
    assert (record["game"], record["players"], record["games"]) == (GAME_ID, 2, 2 * MATCHUP_GAMES)
    assert (record["seed"], record["partial"]) == (SEED, False)
    args = ["tournament", GAME_ID, *[x for d in MATCHUP_DECKS for x in ("--deck", d)]]
    args += ["-g", 2 * MATCHUP_GAMES, "-s", SEED, "-t", 2, "--rule", f"turn_cap={MATCHUP_CAP}"]
    assert json.loads(invoke(*args, "--json")) == record


def test_matchup_rates_are_the_two_seat_orders_pooled(matchup_run) -> None:
    _, out = matchup_run
    table = pd.read_parquet(out / "tournament-matrix.parquet")
    expected = matchup_by_hand()
    assert len(table) == 6
    pairs = table[["contestant", "against"]].values.tolist()
    assert pairs == expected[["deck", "against"]].values.tolist()
    assert (table["games"] == expected["games"]).all()
    assert (table["wins"] == expected["wins"]).all()
    for column in ("rate", "first_rate", "second_rate"):
        assert table[column].to_numpy() == pytest.approx(expected[column].to_numpy()), column
    # The pooled rate's interval: Wilson at the effective number of games, the two games
    # of a deal (one in each seat order) one cluster.
    for row, (deck, against) in zip(table.itertuples(), pairs, strict=True):
        first = seat_wins((deck, against), MATCHUP_GAMES, SEED, turn_cap=MATCHUP_CAP)[:, 0]
        second = seat_wins((against, deck), MATCHUP_GAMES, SEED, turn_cap=MATCHUP_CAP)[:, 1]
        by_deal = first.astype(float) + second
        _, low, high = share_interval(by_deal, np.full(MATCHUP_GAMES, 2.0))
        assert [row.low, row.high] == pytest.approx([low, high], abs=1e-12)
    # Each seat order's rate has its Wilson interval over the games of that order.
    assert (table["games_per_seat_order"] == table["games"] // 2).all()
    for order in ("first", "second"):
        n = table["games_per_seat_order"].to_numpy()
        low, high = wilson_interval(np.rint(expected[f"{order}_rate"].to_numpy() * n), n)
        assert table[f"{order}_low"].to_numpy() == pytest.approx(low, abs=1e-9), order
        assert table[f"{order}_high"].to_numpy() == pytest.approx(high, abs=1e-9), order
    # The two rates of a pair sum to 1 minus the pair's capped games (wins for neither).
    assert expected["capped"].max() > 0  # the short cap makes the check bite
    rates = table.set_index(["contestant", "against"])["rate"]
    capped = expected.set_index(["deck", "against"])["capped"]
    for (deck, against), rate in rates.items():
        assert rate + rates[against, deck] == pytest.approx(1 - capped[deck, against])
    assert table["neither"].to_numpy() == pytest.approx(expected["capped"] * expected["games"])
    assert (table["both"] == 0).all()  # one ship sinks: a win is never shared


def test_matchup_prints_the_matrix(matchup_run) -> None:
    text, out = matchup_run
    # The short cap stops many games: a warning for each pair so stalled comes first.
    warned = [line for line in text.splitlines() if line.startswith("warning: ")]
    assert warned and text.startswith("\n".join(warned) + "\n")
    assert all(f"stopped unfinished at the cap of {MATCHUP_CAP} turns" in w for w in warned)
    text = text.split("\n", len(warned))[-1]
    assert text.startswith(
        f"Battle of Thieves tournament: 3 decks, 2 players, {2 * MATCHUP_GAMES:,} games a "
        f"pairing (seed {SEED}).\nStrategies by seat: random."
    )
    table = pd.read_parquet(out / "tournament-matrix.parquet").set_index(["contestant", "against"])
    lines = text.splitlines()
    header = next(k for k, line in enumerate(lines) if line.split() == list(MATCHUP_DECKS))
    for row, deck in zip(lines[header + 1 : header + 4], MATCHUP_DECKS, strict=True):
        assert row.startswith(deck + " ")
        cells = re.findall(
            r"(-|(\d+\.\d)% \[\s*(\d+\.\d),\s*(\d+\.\d)\])(?=\s|$)", row[len(deck) :]
        )
        assert len(cells) == 3, row
        for against, (cell, rate, low, high) in zip(MATCHUP_DECKS, cells, strict=True):
            if against == deck:
                assert cell == "-"
                continue
            figures = table.loc[(deck, against), ["rate", "low", "high"]].to_numpy() * 100
            assert [float(rate), float(low), float(high)] == pytest.approx(figures, abs=0.051)
    # Each seat order's rate, its interval and its games, one line an ordered pair.
    for (deck, against), row in table.iterrows():
        expected = (
            f"first {100 * row['first_rate']:5.1f}% [{100 * row['first_low']:4.1f}, "
            f"{100 * row['first_high']:4.1f}]  second {100 * row['second_rate']:5.1f}% "
            f"[{100 * row['second_low']:4.1f}, {100 * row['second_high']:4.1f}]  "
            f"({MATCHUP_GAMES:,} games each)"
        )
        assert any(line.startswith(f"  {deck:<22} vs {against:<22} {expected}") for line in lines)
    # Then the share of each pair's games stopped by the cap, one line a pair.
    start = next(k for k, line in enumerate(lines) if line.startswith("Games neither won"))
    assert lines[start].startswith(
        f"Games neither won (stopped unfinished at the cap of {MATCHUP_CAP} turns"
    )
    shown = lines[start + 1 : start + 4]
    assert not lines[start + 4].strip()  # one line a pair, then the saved files
    for line, (deck, against) in zip(
        shown, [(CANNON, BOARDING), (CANNON, ISLAND), (BOARDING, ISLAND)], strict=True
    ):
        row = table.loc[(deck, against)]
        low, high = wilson_interval(row["neither"], row["games"])
        assert line == (
            f"  {deck} and {against}: neither {row['neither'] / row['games']:.1%} "
            f"[{low:.1%}, {high:.1%}] of {2 * MATCHUP_GAMES:,} games"
        )


def test_tournaments_name_what_each_seat_held() -> None:
    """Strategies playing the rule ``decks``: seat 0 holds one deck in every game, so the
    text, JSON and matrix chart name each seat's deck and each seat order's rate says
    which deck it played; a matchup names the strategies by seat. Two players: no field."""
    import matplotlib.pyplot as plt

    from balance.analyses import tournament_report
    from balance.analyses.tournament import tournament

    def caption(result) -> str:
        figure = tournament_report.heat_map(result)
        plt.close(figure)
        return " ".join(t.get_text() for t in figure.texts).replace("\n", " ")

    rules = [("decks", f"{CANNON},{BOARDING}")]
    result = tournament(GAME_ID, None, ("cannoneer", "bailer"), games=20, seed=SEED, rules=rules)
    assert result.to_json()["decks"] == [CANNON, BOARDING]
    text = tournament_report.text(result)
    assert f"\nDecks by seat, in every game: seat 0 {CANNON}, seat 1 {BOARDING}; " in text
    for row in result.matrix.itertuples():
        assert (
            f"  {row.contestant:<22} vs {row.against:<22} first ({CANNON}) "
            f"{100 * row.first_rate:5.1f}% [{100 * row.first_low:4.1f}, "
            f"{100 * row.first_high:4.1f}]  second ({BOARDING}) {100 * row.second_rate:5.1f}% "
        ) in text
    said = caption(result)
    assert f"decks by seat {CANNON}, {BOARDING}" in said and "field player" not in said
    decks = tournament(GAME_ID, None, ("cannoneer", "bailer"), (CANNON, BOARDING), games=20)
    assert (
        decks.to_json()["strategies"] == ["cannoneer", "bailer"] and "decks" not in decks.to_json()
    )
    said = caption(decks)
    assert "strategies by seat cannoneer, bailer" in said and "field player" not in said


MATCHUP_ERRORS = [
    ([GAME_ID, "--deck", CANNON], ["at least two decks"]),
    ([GAME_ID, "--deck", CANNON, "--deck", BOARDING, "--strategy", "nobody"], ["'nobody'"]),
    ([GAME_ID, "--deck", CANNON, "--deck", BOARDING, "--deck", CANNON], ["given twice", CANNON]),
    (["walk-the-plank", "--deck", CANNON, "--deck", BOARDING], ["Battle of Thieves", "walk"]),
    ([GAME_ID, "--deck", CANNON, "--deck", "nowhere"], ["deck 'nowhere'"]),
    ([GAME_ID, "--deck", CANNON, "--deck", BOARDING, "--rule", "decks=a,b"], ["--deck"]),
]


@pytest.mark.parametrize(
    ("args", "fragments"), MATCHUP_ERRORS, ids=[" ".join(a) for a, _ in MATCHUP_ERRORS]
)
def test_matchup_errors_are_one_line(monkeypatch, capsys, args, fragments) -> None:
    code, out, err = call_main(monkeypatch, capsys, "matchup", *args, "-g", 10)
    assert_one_line_error(code, out, err, *fragments)


def test_matchup_refuses_two_decks_of_one_name(tmp_path: Path, monkeypatch, capsys) -> None:
    copy = copy_example(tmp_path, BOARDING, CANNON)  # a file whose deck is named cannon-battery
    args = ["matchup", GAME_ID, "--deck", CANNON, "--deck", copy, "-g", 10]
    code, out, err = call_main(monkeypatch, capsys, *args)
    assert_one_line_error(code, out, err, "two decks share a name", CANNON)


# --- cards ------------------------------------------------------------------------------------

CARD_GAMES = 300
#: A card's row: seat, card, win rate with the blank card and with the card (each with its
#: Wilson interval), the difference with its interval, Holm's p.
CARD_ROW = re.compile(
    r"^(\d)    (.{25}) *(\d+\.\d)% \[[\d.]+, [\d.]+\] +(\d+\.\d)% \[[\d.]+, [\d.]+\] +"
    r"([+-]\d+\.\d\d) \[([+-]\d+\.\d\d), ([+-]\d+\.\d\d)\] +(\S+)( \*)?$"
)


def card_args(*extra: object) -> list[object]:
    return [
        "cards",
        GAME_ID,
        "--deck",
        CANNON,
        "--deck",
        BOARDING,
        "-g",
        CARD_GAMES,
        "-s",
        SEED,
        "-t",
        2,
        *extra,
    ]


def test_cards_prints_each_seats_value_of_a_card() -> None:
    text = invoke(*card_args("--card", "Broadside"))
    assert f"{CARD_GAMES:,} paired games a card" in text
    assert f"decks {CANNON} (seat 0) and {BOARDING} (seat 1)" in text
    rows = [m for line in text.splitlines() if (m := CARD_ROW.match(line))]
    assert [(int(m[1]), m[2].strip()) for m in rows] == [(0, "Broadside"), (1, "Broadside")]
    for m in rows:
        expected = blank_delta((CANNON, BOARDING), int(m[1]), "Broadside", CARD_GAMES, SEED)
        assert float(m[3]) == pytest.approx(100 * expected["win_rate"], abs=0.051)
        assert float(m[4]) == pytest.approx(100 * expected["base_win_rate"], abs=0.051)
        shown = [float(m[5]), float(m[6]), float(m[7])]
        figures = [100 * expected[k] for k in ("difference", "low", "high")]
        assert shown == pytest.approx(figures, abs=0.0051)


def test_cards_json_gives_each_seats_value_with_holm() -> None:
    printed = json.loads(
        invoke(*card_args("--card", "Broadside", "--card", "Chain Shot", "--json"))
    )
    assert (printed["game"], printed["noun"], printed["games"]) == (GAME_ID, "card", CARD_GAMES)
    rows = [(row["seat"], row["deck"], row["card"]) for row in printed["cards"]]
    assert rows == [(0, CANNON, "Broadside"), (0, CANNON, "Chain Shot"), (1, BOARDING, "Broadside")]
    expected = [blank_delta((CANNON, BOARDING), s, c, CARD_GAMES, SEED) for s, _, c in rows]
    p_values = []
    for row, want in zip(printed["cards"], expected, strict=True):
        assert row["value"] == pytest.approx(want["difference"], abs=1e-12)
        assert row["ci95"] == pytest.approx([want["low"], want["high"]], abs=1e-12)
        assert row["win_rate_without"] == pytest.approx(want["win_rate"])
        assert row["games"] == CARD_GAMES
        p_values.append(row["p"])
    holm = [min(1.0, max(sorted(p_values)[: k + 1][-1] * (3 - k) for k in range(i + 1)))
            for i in range(3)]  # fmt: skip
    by_rank = dict(zip(sorted(range(3), key=lambda i: p_values[i]), holm, strict=True))
    for i, row in enumerate(printed["cards"]):
        assert row["p_holm"] == pytest.approx(by_rank[i])


def test_cards_of_one_deck_only() -> None:
    text = invoke(*card_args("--card", "Chain Shot", "--card", "Rum Barrel"))
    rows = [m for line in text.splitlines() if (m := CARD_ROW.match(line))]
    assert [(int(m[1]), m[2].strip()) for m in rows] == [(0, "Chain Shot"), (1, "Rum Barrel")]


def test_cards_writes_the_chart_and_table(tmp_path: Path) -> None:
    out = tmp_path / "value"
    invoke(*card_args("--card", "Broadside", "--card", "Chain Shot", "--out", out))
    assert {p.name for p in out.iterdir()} == {
        "00-findings.png",
        "00-title.png",
        "20-card-value.png",
        "card-value.csv",
        "card-value.pdf",
        "index.html",
    }
    assert pdf_pages(out / "card-value.pdf") == 3
    table = pd.read_csv(out / "card-value.csv")
    assert table[["seat", "deck", "card"]].values.tolist() == [
        [0, CANNON, "Broadside"],
        [0, CANNON, "Chain Shot"],
        [1, BOARDING, "Broadside"],
    ]
    assert (table["games"] == CARD_GAMES).all()
    for row in table.itertuples():
        expected = blank_delta((CANNON, BOARDING), row.seat, row.card, CARD_GAMES, SEED)
        for key in ("difference", "low", "high", "win_rate", "base_win_rate"):
            assert getattr(row, key) == pytest.approx(expected[key], abs=1e-12), (row.card, key)


def test_cards_says_which_files_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "value"
    text = invoke(*card_args("--card", "Chain Shot", "--out", out))
    said = text.rstrip("\n").splitlines()[-1]
    assert said.startswith("saved ") and said.endswith(f" in {out}"), said
    named = said[len("saved ") : -len(f" in {out}")].split(", ")
    # Every file it wrote, by name, and only those.
    assert sorted(named) == sorted(p.name for p in out.iterdir()), said
    assert {"card-value.csv", "card-value.pdf"} <= set(named)


def test_cards_refuses_an_unknown_card(monkeypatch, capsys) -> None:
    code, out, err = call_main(monkeypatch, capsys, *card_args("--card", "Brodside"))
    assert_one_line_error(code, out, err, "card 'Brodside' is in neither deck", "Broadside")


# --- report -----------------------------------------------------------------------------------


def test_report_writes_the_pages(runs, tmp_path: Path) -> None:
    _, directory = runs["ab"]
    out = tmp_path / "report"
    pages = sorted(COMMON_PAGES + OWN_PAGES)
    assert invoke("report", directory, "--out", out) == (
        f"wrote {len(pages)} pages as PNG, {out / 'report.pdf'} and {out / 'index.html'}\n"
    )
    assert sorted(p.stem for p in out.glob("*.png")) == pages
    for page in pages:
        data = (out / f"{page}.png").read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, page
    assert pdf_pages(out / "report.pdf") == len(pages)
    assert not (out / "restricted-play.csv").exists()


def test_report_charts_show_the_records(runs) -> None:
    import matplotlib.pyplot as plt

    summary, directory = runs["sins"]
    _, _, cards = tables(directory)
    charts = {chart.name: chart for chart in GAME.report_charts(RunTables.read(directory))}
    try:
        assert list(charts) == OWN_PAGES
        ended = charts["10-how-games-ended"].figure.axes[0]
        heights = [bar.get_height() for bar in ended.patches]
        expected = [summary["win_reason"][r] for r in ("water", "original sin", "cap")]
        assert heights == pytest.approx(expected)
        assert all(h > 0 for h in heights)
        # The capped share in the title, with its interval and n in the note.
        capped = summary["capped_rate"]
        assert ended.get_title() == f"how games ended: {100 * capped:.1f}% stopped by the " + (
            f"{summary['rules']['turn_cap']}-turn cap"
        )
        low, high = (100 * x for x in summary["capped_ci95"])
        note = " ".join(t.get_text() for t in charts["10-how-games-ended"].figure.texts)
        assert (
            f"{100 * capped:.1f}% [{low:.1f}%, {high:.1f}%] of {summary['games']:,} games" in note
        )
        played = charts["12-cards-played"].figure.axes[0]
        labels = [label.get_text() for label in played.get_yticklabels()]
        points = {}
        for line in played.get_lines():
            for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True):
                points[round(float(y))] = float(x)
        decks = decks_of("sins")
        assert len(labels) == len(decks[0]) + len(decks[1])
        for y, label in zip(played.get_yticks(), labels, strict=True):
            card, seat = re.fullmatch(r"(.+) \(seat (\d)\)", label).groups()
            rows = cards[(cards["card"].astype(str) == card) & (cards["seat"] == int(seat))]
            assert points[round(float(y))] == pytest.approx(rows["played"].mean()), label
        by_seat = charts["11-play-by-seat"].figure.axes[0]
        assert summary["decks"][0] in " ".join(t.get_text() for t in by_seat.get_legend().texts)
    finally:
        for chart in charts.values():
            plt.close(chart.figure)


def test_report_names_what_each_seat_held(runs) -> None:
    """The seat chart and the findings name each seat's deck and strategy (a seat held
    them in every game) and say a game has at most one winner."""
    import matplotlib.pyplot as plt

    from balance.analyses.run_report import common_charts, run_findings

    summary, directory = runs["heuristic"]
    run = RunTables.read(directory)
    labels = ["seat 0 (cannon-battery deck, cannoneer)", "seat 1 (boarding-party deck, bailer)"]
    seats = next(c for c in common_charts(run) if c.name == "01-seat-win-rates").figure
    play = next(c for c in GAME.report_charts(run) if c.name == "11-play-by-seat").figure
    try:
        ticks = [label.get_text() for label in seats.axes[0].get_xticklabels()]
        assert ticks == labels
        note = " ".join(t.get_text() for t in seats.texts).replace("\n", " ")
        assert "at most one winner" in note and "several winners" not in note
        assert [t.get_text() for t in play.axes[0].get_legend().texts] == labels
    finally:
        plt.close(seats)
        plt.close(play)
    held, gap = run_findings(run)[:2]
    assert held.startswith(f"Every game gave each seat the same: {labels[0]}, {labels[1]}.")
    rates = [row["rate"] for row in summary["seat_win_rate"]]
    low, high = sorted(range(2), key=lambda s: rates[s])
    assert gap.startswith(f"{labels[low].capitalize()} wins ")
    assert f"percentage points less often than {labels[high]}:" in gap


def test_report_with_restricted_play(runs, tmp_path: Path) -> None:
    _, directory = runs["ab"]
    out = tmp_path / "report"
    pages = sorted([*COMMON_PAGES, *OWN_PAGES, "20-value-by-restricted-play"])
    text = invoke("report", directory, "--out", out, "--restricted-play", 100, "-t", 2)
    assert (
        text == f"wrote {len(pages)} pages as PNG, {out / 'report.pdf'} and {out / 'index.html'}\n"
    )
    assert sorted(p.stem for p in out.glob("*.png")) == pages
    assert pdf_pages(out / "report.pdf") == len(pages)
    table = pd.read_csv(out / "restricted-play.csv")
    expected_rows = [[0, c] for c in deck_cards(CANNON)] + [[1, c] for c in deck_cards(BOARDING)]
    assert table[["seat", "card"]].values.tolist() == expected_rows
    assert (table["games"] == 100).all()
    row = table[(table["seat"] == 1) & (table["card"] == "Broadside")].iloc[0]
    expected = blank_delta((CANNON, BOARDING), 1, "Broadside", 100, SEED)
    assert row["difference"] == pytest.approx(expected["difference"], abs=1e-12)
    assert [row["low"], row["high"]] == pytest.approx([expected["low"], expected["high"]])


# --- replay ------------------------------------------------------------------------------------


def check_replay(directory: Path, index: int) -> str:
    """Replay game ``index`` and hold the narration to the saved records of that game."""
    text = invoke("replay", directory, index)
    setup = load_run(directory).setup
    games, seats, cards = tables(directory)
    game = games.set_index("game").loc[index]
    seats = seats[seats["game"] == index].set_index("seat").sort_index()
    cards = cards[cards["game"] == index]
    decks = list(setup.rules.content().deck_names)
    assert text.startswith(f"Battle of Thieves, game {index} of the run seeded {setup.seed}\n")
    labels = ", ".join(f"seat {s}: {seats.loc[s, 'strategy']}" for s in (0, 1))
    assert f"\n2 players ({labels})\n" in text
    hands = re.search(
        rf"^{re.escape(decks[0])} \(seat 0\) against {re.escape(decks[1])} \(seat 1\); "
        r"hands \[(.*)\] and \[(.*)\]$",
        text,
        re.M,
    )
    assert hands, text[:500]
    start = [len(re.findall(r"'[^']*'|\"[^\"]*\"", hands[k])) for k in (1, 2)]
    assert start == [setup.rules.starting_hand] * 2
    # Turn by turn, seats alternating from seat 0, as many turns as the record.
    heads = re.findall(r"^turn (\d+), seat (\d): water \d+", text, re.M)
    turns = int(game["turns"])
    assert [int(t) for t, _ in heads] == list(range(1, turns + 1))
    assert [int(s) for _, s in heads] == [(t - 1) % 2 for t in range(1, turns + 1)]
    # Each seat's draws, plays, shots, hits and attacks during its own turns.
    names = sorted({str(c) for c in cards["card"]}, key=len, reverse=True)
    count = {key: [0, 0] for key in ("shots", "chaos_shots", "hits", "attacks", "attack_hits")}
    drawn, played = [start[0], start[1]], [{}, {}]
    # Each provision an island visit took back is said once, in the game's words.
    kinds = {"plank": "planks", "cannonball": "cannonballs", "food": "food"}
    kinds |= {"chaos ball": "chaos_balls", "incendiary ball": "incendiary_balls"}
    taken = {f"taken_{kind}": [0, 0] for kind in kinds.values()}
    seat = None
    for line in text.splitlines():
        if head := re.match(r"turn \d+, seat (\d)", line):
            seat = int(head[1])
        if seat is None:
            continue
        if draw := re.match(r"  seat (\d) draws ", line):
            drawn[int(draw[1])] += 1
        elif play := re.match(r"  seat (\d) plays (.*)$", line):
            card = next(n for n in names if play[2] == n or play[2].startswith(n + " on "))
            played[int(play[1])][card] = played[int(play[1])].get(card, 0) + 1
        elif take := re.match(r"  seat (\d) takes back one (.+)$", line):
            taken[f"taken_{kinds[take[2]]}"][int(take[1])] += 1
        elif re.match(r"  .+ fires an? (cannonball|incendiary ball|cursed ball)$", line):
            count["shots"][seat] += 1
        elif re.match(r"  .+ fires a chaos ball$", line):
            count["chaos_shots"][seat] += 1
        elif re.match(r"  rolled \d+ \(modified -?\d+\) → hit$", line):
            count["hits"][seat] += 1
        elif re.match(r"  .+ attacks .+ with ", line):
            count["attacks"][seat] += 1
        elif re.match(r"  rolled \d+ \(modified -?\d+, needs \d+\) → hit$", line):
            count["attack_hits"][seat] += 1
    assert drawn == seats["cards_drawn"].tolist()
    for key, values in (count | taken).items():
        assert values == seats[key].tolist(), key
    for s in (0, 1):
        mine = cards[(cards["seat"] == s) & (cards["played"] > 0)]
        assert played[s] == dict(zip(mine["card"].astype(str), mine["played"], strict=True)), s
        assert sum(played[s].values()) == seats.loc[s, "cards_played"]
    # The last line: the record's end.
    last = text.rstrip("\n").splitlines()[-1]
    water = f"water {game['water_0']} and {game['water_1']}"
    if game["finished"]:
        reason = str(game["win_reason"])
        winner = int(game["winner"])
        assert last == f"Game over in turn {turns}: seat {winner} wins ({reason}); {water}"
        assert f"\n  seat {1 - winner} loses ({reason}): seat {winner} wins\n" in text
    else:
        cap = setup.rules.turn_cap
        assert last == f"Turn cap of {cap} reached: the game ends unfinished; {water}"
    return text


@pytest.mark.parametrize("index", [0, 3, GAMES - 1])
def test_replay_of_random_play(runs, index: int) -> None:
    _, directory = runs["ab"]
    text = check_replay(directory, index)
    assert "2 players (seat 0: random, seat 1: random)" in text


@pytest.mark.parametrize("index", [3, 11])
def test_replay_of_heuristic_play(runs, index: int) -> None:
    _, directory = runs["heuristic"]
    text = check_replay(directory, index)
    assert "2 players (seat 0: cannoneer, seat 1: bailer)" in text


@pytest.mark.parametrize("reason", ["original sin", "cap"])
def test_replay_of_other_endings(runs, reason: str) -> None:
    _, directory = runs["sins"]
    games = load_run(directory).table("games")
    index = int(games.loc[games["win_reason"].astype(str) == reason, "game"].min())
    text = check_replay(directory, index)
    if reason == "original sin":
        assert "\n  all seven sins are in seat 0's discard pile\n" in text


def test_replay_of_a_game_outside_the_run(monkeypatch, capsys, runs) -> None:
    _, directory = runs["ab"]
    code, out, err = call_main(monkeypatch, capsys, "replay", directory, GAMES)
    assert_one_line_error(code, out, err, f"game index {GAMES}", f"0..{GAMES - 1}")


def test_a_run_whose_deck_file_changed_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    path = copy_example(tmp_path, CANNON, "my-battery")
    original = path.read_text()
    directory = tmp_path / "run"
    simulate_json("--deck", path, "--deck", BOARDING, "-g", 50, "-s", SEED, "--out", directory)
    digest = json.loads((directory / "manifest.json").read_text())["deck_digest"]
    assert re.fullmatch(r"[0-9a-f]{64}", digest), digest
    check_replay(directory, 0)
    # A change that plays other games (the reserve still 30): replay and report refuse the
    # run in one line.
    path.write_text(
        original.replace("cannonballs = 10", "cannonballs = 0").replace("planks = 8", "planks = 18")
    )
    out = tmp_path / "report"
    for args in (("replay", directory, 0), ("report", directory, "--out", out)):
        code, stdout, err = call_main(monkeypatch, capsys, *args)
        assert_one_line_error(
            code, stdout, err, str(directory), str(path), "changed since it was saved"
        )
    assert not out.exists()
    # The digest is of the compiled decks: a comment changes nothing; restored, it reads back.
    path.write_text(original + "\n# a comment\n")
    check_replay(directory, 0)
    path.write_text(original)
    check_replay(directory, 3)


# --- rules and strategies ---------------------------------------------------------------------


def docs_section(title: str) -> str:
    """The docs' section headed ``## title``, up to the next section."""
    text = DOCS.read_text()
    assert f"\n## {title}\n" in text, title
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def docs_rule_table() -> dict[str, tuple[str, str]]:
    """The docs' rule table: name → (default, allowed)."""
    rows = re.findall(
        r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|", docs_section("Rule parameters"), re.M
    )
    return {name: (default.strip(), allowed.strip()) for name, default, allowed in rows}


def test_rules_lists_every_parameter() -> None:
    text = invoke("rules", GAME_ID)
    listed = re.findall(r"^(\w+)  \(default (.*?); allowed (.*)\)$", text, re.M)
    assert [name for name, _, _ in listed] == RULE_NAMES
    docs = docs_rule_table()
    assert list(docs) == RULE_NAMES
    for name, default, allowed in listed:
        value = getattr(DEFAULTS, name)
        shown = ",".join(value) if isinstance(value, tuple) else str(value)
        shown = shown.lower() if isinstance(value, bool) else shown
        assert default == (shown or "none") == docs[name][0], name
        if isinstance(value, int):
            assert allowed == docs[name][1], name
    assert "\nSet one with --rule NAME=VALUE" in text


def test_the_rulebooks_readings_are_rules_with_named_values() -> None:
    rules = DEFAULTS.with_text("mast_repair", "always").with_text("cannon_start", " own ")
    rules = rules.with_text("chaos-stack", "false")
    assert (rules.mast_repair, rules.cannon_start, rules.chaos_stack) == ("always", "own", False)
    packed = rules.to_array()
    assert packed[L.RULE.MAST_REPAIR] == L.MAST_ALWAYS
    assert packed[L.RULE.CANNON_START] == L.START_OWN
    assert packed[L.RULE.CHAOS_STACK] == 0
    defaults = DEFAULTS.to_array()
    assert (defaults[L.RULE.MAST_REPAIR], defaults[L.RULE.CHAOS_STACK]) == (L.MAST_UNTIMED, 1)
    assert defaults[L.RULE.CANNON_START] == L.START_GAME
    for name, text, reason in [
        ("mast_repair", "often", "rule 'mast_repair': 'often' is not one of untimed, always"),
        ("cannon_start", "Own", "rule 'cannon_start': 'Own' is not one of game, own"),
        ("chaos_stack", "twice", "rule 'chaos_stack': 'twice' is not true or false"),
    ]:
        with pytest.raises(BalanceError) as caught:
            DEFAULTS.with_text(name, text)
        assert str(caught.value) == reason
    with pytest.raises(BalanceError, match="'chaos_stack': 2 is not true or false"):
        BattleRules(chaos_stack=2)
    result = CliRunner().invoke(
        cli, ["simulate", GAME_ID, "-g", 20, "--rule", "cannon_start=later", "--json"]
    )
    assert result.exit_code != 0
    assert "rule 'cannon_start': 'later' is not one of game, own" in str(result.output) + str(
        result.exception
    )


def test_strategies_lists_the_shipped_ones() -> None:
    text = invoke("strategies", GAME_ID)
    assert re.findall(r"^(\w+)$", text, re.M) == STRATEGIES
    blocks = re.split(r"^(?=\w+$)", text, flags=re.M)
    for strategy in SHIPPED:
        block = next(b for b in blocks if b.startswith(strategy.name + "\n"))
        if strategy.params:
            for name, value in strategy.params:
                words = {v: w for w, v in strategy.param_choices.get(name, {}).items()}
                assert f"      {name} = {words.get(value, f'{value:g}')}  (" in block, strategy.name
        else:
            assert "parameters" not in block
    assert [s.name for s in SHIPPED] == STRATEGIES
    # The docs' table names the same strategies and parameters, with the same defaults.
    rows = re.findall(
        r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|$", docs_section("Options and strategies"), re.M
    )
    assert [name for name, _ in rows] == STRATEGIES
    for strategy, (_, params) in zip(SHIPPED, rows, strict=True):
        documented = re.findall(r"`(\w+)` ([\d.]+)", params)
        assert documented == [(n, f"{v:g}") for n, v in strategy.params], strategy.name


def test_a_strategy_parameter_is_used(runs) -> None:
    args = ("--deck", CANNON, "--deck", BOARDING, "-g", 300, "-s", SEED, "-t", 2)
    base = simulate_json(*args, "--strategy", "cannoneer", "--strategy", "bailer")
    same = simulate_json(*args, "--strategy", "cannoneer:panic_water=60", "--strategy", "bailer")
    moved = simulate_json(*args, "--strategy", "cannoneer:panic_water=40", "--strategy", "bailer")
    assert moved["strategies"] == ["cannoneer(panic_water=40)", "bailer"]
    skip = TIMING | {"strategies", "seat_labels"}
    # Its default value plays the same games; another value plays other games.
    assert {k: v for k, v in same.items() if k not in skip} == {
        k: v for k, v in base.items() if k not in skip
    }
    changed = [k for k in base if k not in skip and base[k] != moved[k]]
    assert "water_bailed_mean" in changed or "length_mean" in changed, changed
    summary, _ = runs["heuristic"]  # the saved run: the same line-up, seed and decks
    assert summary["seat_win_rate"] == base["seat_win_rate"]


@pytest.mark.slow  # compiles the game loop with a user file (its mechanism: test_user_strategy.py)
def test_a_users_strategy_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(USER_STRATEGY)
    args = ("--deck", ISLAND, "--deck", CANNON, "-g", 300, "-s", SEED, "-t", 2)
    mine = simulate_json(*args, "--strategy", f"{path}:uniform")
    shipped = simulate_json(*args)
    assert mine["strategies"] == ["uniform", "uniform"]
    # The same uniform choices from the seat's stream: the games of the shipped random.
    skip = TIMING | {"strategies", "seat_labels"}
    assert {k: v for k, v in mine.items() if k not in skip} == {
        k: v for k, v in shipped.items() if k not in skip
    }


def test_the_listings_name_the_game_and_its_decks() -> None:
    assert "\nbattle-of-thieves  (Battle of Thieves, 2 players; built in)\n" in "\n" + invoke(
        "games"
    )
    listed = invoke("deck", "list")
    for deck in (CANNON, BOARDING, ISLAND):
        shown = re.search(rf"^{deck} +(\S+)$", listed, re.M)
        assert shown and Path(shown[1]).resolve() == EXAMPLES / f"{deck}.toml", deck
    assert "not the published game's cards" in listed


# --- threads ----------------------------------------------------------------------------------


def test_threads_do_not_change_the_results() -> None:
    args = ("--deck", CANNON, "--deck", ISLAND, "-g", 3000, "-s", SEED, "--restricted-play", 100)
    one = simulate_json(*args, "-t", 1)
    two = simulate_json(*args, "-t", 2)
    assert (one["threads"], two["threads"]) == (1, 2)
    assert {k: v for k, v in one.items() if k not in TIMING} == {
        k: v for k, v in two.items() if k not in TIMING
    }


def test_summary_lines_print_drawn_per_game_with_its_interval() -> None:
    card = {
        "seats": [0],
        "played_per_game": 1.5,
        "played_per_game_ci95": [1.4, 1.6],
        "drawn_per_game": 2.25,
        "drawn_per_game_ci95": [2.2, 2.3],
        "win_rate_played": 0.5,
        "win_rate_played_ci95": [0.45, 0.55],
        "played_games": 900,
        "win_rate_held": 0.4,
        "win_rate_held_ci95": [0.3, 0.5],
        "held_games": 100,
    }
    summary = {
        "games": 1000,
        "capped_games": 0,
        "rules": {"turn_cap": 200},
        "decks": ["a", "b"],
        "win_reason": {},
        "win_reason_ci95": {},
        "hit_rate": [],
        "hit_rate_ci95": [],
        "cards": {"Spyglass": card},
        **{f"{name}_mean": [] for name in SEAT_MEANS},
        **{f"{name}_ci95": [] for name in SEAT_MEANS},
    }
    lines = GAME.summary_lines(summary)
    assert any(line.startswith("Cards (1,000 games), per game") for line in lines)
    # Before the rates: they are not a card's value.
    header = next(line for line in lines if line.startswith("Cards ("))
    assert "not at random" in header and "balance cards battle-of-thieves" in header
    row = next(line for line in lines if "Spyglass" in line)
    assert "played  1.50 [1.40, 1.60] of 2.25 [2.20, 2.30] drawn" in row


def test_card_value_text_never_prints_a_p_value_of_zero() -> None:
    from balance.games.battle_of_thieves.decks import CardValues

    setup = api.make_setup(
        "battle-of-thieves", 2, 0, ("random",), (), [("decks", "cannon-battery,boarding-party")]
    )
    row = {
        "seat": 0,
        "deck": "cannon-battery",
        "card": "Spyglass",
        "games": 400,
        "win_rate": 0.25,
        "base_win_rate": 0.5,
        "difference": -0.25,
        "low": -0.3,
        "high": -0.2,
        "p": 0.0,
        "p_holm": 0.0,
        "significant": True,
    }
    text = CardValues(setup, pd.DataFrame([row]), 400, False, 400).text()
    line = next(line for line in text.splitlines() if "Spyglass" in line)
    assert line.rstrip().endswith("<0.001 *") and " 0 *" not in line
    low, high = wilson_interval(100, 400)
    assert f"25.0% [{100 * low:.1f}, {100 * high:.1f}]" in line
