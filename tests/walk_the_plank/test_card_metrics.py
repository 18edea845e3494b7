"""Card usefulness on a hand-made cards table, checked against balance.stats.intervals by hand,
in both of the table's layouts: a row a game and card (as runs save it) and a row a game,
seat and card (as runs were saved before); and on played games, the same figures from both."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from scipy import stats

from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank.cards import N_CARDS
from balance.games.walk_the_plank.game import GAME, cards_with_effect
from balance.games.walk_the_plank.metrics import PER_REVEAL, card_usefulness, per_game_cards
from balance.run.play import make_setup
from balance.stats.intervals import mean_interval, ratio_interval, share_interval, wilson_interval

Z = stats.norm.ppf(0.975)

# Card order of the table: not alphabetical, so the result must follow the categories.
ORDER = ["shove-left", "extend-plank"]
COLUMNS = ["revealed", "effect", "killed_own", "killed_others", "saved"]

# Three games, two seats, two cards. (game, seat): revealed, effect, killed_own,
# killed_others, saved.
ROWS = {
    "shove-left": {
        (0, 0): (2, 1, 0, 1, 0),
        (0, 1): (1, 1, 1, 0, 0),
        (1, 0): (0, 0, 0, 0, 0),
        (1, 1): (1, 0, 0, 0, 0),  # revealed without an effect
        (2, 0): (1, 1, 0, 2, 0),
        (2, 1): (0, 0, 0, 0, 0),
    },
    "extend-plank": {
        (0, 0): (0, 0, 0, 0, 0),
        (0, 1): (2, 2, 0, 0, 3),
        (1, 0): (1, 1, 1, 0, 1),
        (1, 1): (0, 0, 0, 0, 0),
        (2, 0): (0, 0, 0, 0, 0),
        (2, 1): (1, 0, 0, 0, 0),  # revealed without an effect
    },
}
# Seat 0 won games 0 and 2, seat 1 won game 1.
WINNERS = {(0, 0), (1, 1), (2, 0)}


def make_tables(
    rows: dict[str, dict[tuple[int, int], tuple[int, ...]]] = ROWS,
    categories: list[str] | None = None,
    per_seat: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``cards`` and ``seats`` tables as the game writes them (rows shuffled): the
    cards a row a game and card, summed here by hand, and each seat's cards with an
    effect as bits; or (``per_seat``) as runs saved them before, the cards a row a game,
    seat and card, and no bits."""
    categories = categories or list(rows)
    records = [
        {"game": game, "seat": seat, "card": card, **dict(zip(COLUMNS, values, strict=True))}
        for card, by_seat in rows.items()
        for (game, seat), values in by_seat.items()
    ]
    bits = dict.fromkeys(((g, s) for g in range(3) for s in range(2)), 0)
    if not per_seat:  # summed over the seats by hand
        summed: dict[tuple[int, str], dict[str, Any]] = {}
        for record in records:
            game, card = record["game"], record["card"]
            row = summed.setdefault((game, card), {"game": game, "card": card})
            for column in COLUMNS:
                row[column] = row.get(column, 0) + record[column]
            if record["effect"] > 0:
                bits[game, record["seat"]] |= 1 << categories.index(card)
        records = list(summed.values())
    cards = pd.DataFrame(records)
    if per_seat:
        cards["seat"] = cards["seat"].astype(np.int8)
    cards["card"] = pd.Categorical(cards["card"], categories=categories)
    # The order of rows carries no meaning: later cards first, games shuffled.
    order = np.random.default_rng(0).permutation(len(cards))
    cards = cards.iloc[order[::-1]].reset_index(drop=True)
    seats = pd.DataFrame(
        {
            "game": np.repeat([0, 1, 2], 2),
            "seat": np.tile(np.array([0, 1], dtype=np.int8), 3),
            "won": [(g, s) in WINNERS for g in range(3) for s in range(2)],
        }
    )
    if not per_seat:
        seats["cards_with_effect"] = np.array(list(bits.values()), dtype=np.uint16)
    return cards, seats


@pytest.fixture(params=["summed", "per-seat"])
def make(request: pytest.FixtureRequest) -> Callable[..., tuple[pd.DataFrame, pd.DataFrame]]:
    """:func:`make_tables` in each layout of the ``cards`` table."""
    return functools.partial(make_tables, per_seat=request.param == "per-seat")


def hand_ratio(y: list[float], x: list[float]) -> tuple[float, float, float]:
    """Ratio of sums with the delta-method interval, written out for three games, cut at
    zero (a count per use cannot be negative)."""
    ratio = sum(y) / sum(x)
    residuals = [a - ratio * b for a, b in zip(y, x, strict=True)]
    variance = 3 / 2 * sum(r * r for r in residuals) / sum(x) ** 2
    half = Z * math.sqrt(variance)
    return ratio, max(ratio - half, 0.0), ratio + half


def triple(row: pd.Series, name: str) -> tuple[float, float, float]:
    return row[name], row[f"{name}_low"], row[f"{name}_high"]


def test_card_usefulness_follows_the_card_order(make) -> None:
    table = card_usefulness(*make())
    assert table["card"].tolist() == ORDER
    assert table["games"].tolist() == [3, 3]


def test_reveals_per_game_sum_seats_and_average_games(make) -> None:
    table = card_usefulness(*make()).set_index("card")
    # Shove left: 3, 1, 1 reveals in games 0, 1, 2 -> 5/3. Deviations 4/3, -2/3, -2/3:
    # variance (16 + 4 + 4) / 9 / 2 = 4/3, standard error sqrt(4/3 / 3) = 2/3.
    t2 = 4.302652729911275  # t(0.975, 2), 4.3027 in printed tables
    # The t interval reaches below zero (5/3 - 2.87); a count's stops at zero.
    expected = (5 / 3, 0.0, 5 / 3 + t2 * 2 / 3)
    assert triple(table.loc["shove-left"], "reveals_per_game") == pytest.approx(expected)
    assert triple(table.loc["shove-left"], "reveals_per_game") == pytest.approx(
        mean_interval(np.array([3, 1, 1]), floor=0.0), rel=1e-12
    )
    # Extend plank: 2, 1, 1 -> 4/3, standard error 1/3 (4/3 - t2 / 3 = -0.10: cut at zero).
    expected = (4 / 3, 0.0, 4 / 3 + t2 / 3)
    assert triple(table.loc["extend-plank"], "reveals_per_game") == pytest.approx(expected)


# Per-game sums (y over x = reveals) of every per-reveal figure, by hand from ROWS.
PER_GAME = {
    "shove-left": {
        "revealed": [3, 1, 1],
        "effect": [2, 0, 1],  # 3/5 = 0.6
        "killed_others": [1, 0, 2],  # 3/5 = 0.6
        "killed_own": [1, 0, 0],  # 1/5 = 0.2
        "saved": [0, 0, 0],  # 0
    },
    "extend-plank": {
        "revealed": [2, 1, 1],
        "effect": [2, 1, 0],  # 3/4
        "killed_others": [0, 0, 0],  # 0
        "killed_own": [0, 1, 0],  # 1/4
        "saved": [3, 1, 0],  # 4/4 = 1
    },
}


@pytest.mark.parametrize("card", ORDER)
@pytest.mark.parametrize("column", list(PER_REVEAL))
def test_per_reveal_figures_are_ratios_of_sums(make, card: str, column: str) -> None:
    table = card_usefulness(*make()).set_index("card")
    got = triple(table.loc[card], PER_REVEAL[column])
    y, x = PER_GAME[card][column], PER_GAME[card]["revealed"]
    if column == "effect":  # a share of reveals: Wilson at the effective number of reveals
        assert got[0] == pytest.approx(hand_ratio(y, x)[0], abs=1e-12)
        assert got == pytest.approx(share_interval(np.array(y), np.array(x)), abs=1e-12)
        return
    assert got == pytest.approx(hand_ratio(y, x), abs=1e-12)
    assert got == pytest.approx(ratio_interval(np.array(y), np.array(x), floor=0.0), abs=1e-12)


def test_per_reveal_figures_worked_by_hand(make) -> None:
    table = card_usefulness(*make()).set_index("card")
    row = table.loc["shove-left"]
    # Effects 2, 0, 1 over reveals 3, 1, 1: share 0.6; residuals 0.2, -0.6, 0.4 (squares
    # 0.56); variance 3/2 × 0.56 / 25 = 0.0336 against 0.6 × 0.4 / 5 = 0.048 for 5
    # independent reveals: a design effect of 0.7, counted as 1, so Wilson on 3 of 5.
    low, high = wilson_interval(3, 5)
    assert triple(row, "effect_share") == pytest.approx((0.6, float(low), float(high)))
    # Own pirates 1, 0, 0: ratio 0.2; residuals 0.4, -0.2, -0.2 (squares 0.24); variance
    # 3/2 × 0.24 / 25 = 0.0144, standard error 0.12; the low end (-0.035) is cut at 0.
    assert triple(row, "own_sent_off_per_reveal") == pytest.approx((0.2, 0.0, 0.2 + Z * 0.12))
    # Never saved anyone: 0 with a zero-width interval.
    assert triple(row, "saved_per_reveal") == (0.0, 0.0, 0.0)
    # Extend plank saved 3, 1, 0 over reveals 2, 1, 1: 1 a reveal; residuals 1, 0, -1;
    # variance 3/2 × 2 / 16 = 0.1875.
    half = Z * math.sqrt(0.1875)
    assert triple(table.loc["extend-plank"], "saved_per_reveal") == pytest.approx(
        (1.0, 1.0 - half, 1.0 + half)
    )


def test_win_rates_with_and_without_an_effect(make) -> None:
    table = card_usefulness(*make()).set_index("card")
    # Shove left had an effect for (0, 0) won, (0, 1) lost, (2, 0) won: 2 of 3.
    # Without: (1, 0) lost, (1, 1) won (revealed, no effect), (2, 1) lost: 1 of 3.
    # Extend plank had an effect for (0, 1) lost, (1, 0) lost: 0 of 2.
    # Without: (0, 0) won, (1, 1) won, (2, 0) won, (2, 1) lost (revealed, no effect): 3 of 4.
    expected = {
        "shove-left": {"with_effect": (2, 3), "without": (1, 3)},
        "extend-plank": {"with_effect": (0, 2), "without": (3, 4)},
    }
    for card, by_label in expected.items():
        row = table.loc[card]
        for label, (wins, trials) in by_label.items():
            assert row[f"seats_{label}"] == trials, (card, label)
            low, high = wilson_interval(wins, trials)
            assert triple(row, f"win_rate_{label}") == pytest.approx(
                (wins / trials, float(low), float(high)), abs=1e-12
            ), (card, label)
    # Every seat-game is in exactly one of the two groups.
    assert (table["seats_with_effect"] + table["seats_without"]).tolist() == [6, 6]
    assert table.loc["extend-plank", "win_rate_with_effect_low"] == 0.0


def test_a_card_never_revealed_gives_nan_ratios(make) -> None:
    rows = {**ROWS, "charge": dict.fromkeys(ROWS["shove-left"], (0, 0, 0, 0, 0))}
    table = card_usefulness(*make(rows)).set_index("card")
    assert list(table.index) == [*ORDER, "charge"]
    row = table.loc["charge"]
    assert row["games"] == 3
    assert triple(row, "reveals_per_game") == (0.0, 0.0, 0.0)
    for label in PER_REVEAL.values():
        assert all(math.isnan(v) for v in triple(row, label)), label
    # No seat ever had an effect: no rate, the uninformative interval.
    assert row["seats_with_effect"] == 0
    assert math.isnan(row["win_rate_with_effect"])
    assert (row["win_rate_with_effect_low"], row["win_rate_with_effect_high"]) == (0.0, 1.0)
    # Every seat-game is "without": 3 wins in 6.
    assert row["seats_without"] == 6 and row["win_rate_without"] == 0.5
    # The other cards are unchanged by the extra card.
    assert table.loc["shove-left", "effect_share"] == pytest.approx(0.6)


def test_a_card_without_rows_does_not_break_the_table(make) -> None:
    cards, seats = make(categories=[*ORDER, "run"])
    table = card_usefulness(cards, seats).set_index("card")
    assert table.loc["shove-left", "effect_share"] == pytest.approx(0.6)


def test_cards_with_effect_are_bits_in_card_order() -> None:
    cards = np.zeros((2, 3, N_CARDS, nb.CardStat.SIZE), np.int16)
    cards[0, 0, [0, 9], nb.CardStat.EFFECT] = (1, 4)  # shove-left and charge
    cards[0, 2, :, nb.CardStat.EFFECT] = 2  # every card
    cards[1, 1, 3, nb.CardStat.REVEALED] = 5  # revealed, never with an effect
    assert cards_with_effect(cards).tolist() == [[1 + 2**9, 0, 2**10 - 1], [0, 0, 0]]


@pytest.mark.parametrize("variants", [(), ("ghost", "kraken")])
def test_played_games_give_the_same_figures_summed_as_per_seat(variants: tuple[str, ...]) -> None:
    """The tables as a run saves them (cards a row a game and card, each seat's cards with
    an effect as bits) give every figure that the cards saved a row a game, seat and card
    (the engine's records as they are, as runs saved them before) give, exactly; and the
    latter turn into the former."""
    setup = make_setup(
        "walk-the-plank",
        4,
        seed=3,
        strategies=["aggressor", "random", "survivor", "random"],
        variants=variants,
        rotate_seats=True,
    )
    block = GAME.play_block(setup, 0, 3000)
    tables = {name: table.to_pandas() for name, table in GAME.tables(block, setup).items()}
    summed, seats = tables["cards"], tables["seats"]
    per_seat = pa.table(nb.RECORDS["cards"].columns(block.extra["cards"], 0)).to_pandas()
    assert len(summed) == 3000 * 10 and len(per_seat) == 3000 * 4 * 10
    assert summed["revealed"].sum() == per_seat["revealed"].sum() > 0
    old_seats = seats.drop(columns="cards_with_effect")
    expected = card_usefulness(per_seat, old_seats)
    pd.testing.assert_frame_equal(card_usefulness(summed, seats), expected, check_exact=True)
    made_cards, made_seats = per_game_cards(per_seat, old_seats)
    made_cards = made_cards.sort_values(["game", "card"], ignore_index=True)
    pd.testing.assert_frame_equal(made_cards, summed[made_cards.columns], check_dtype=False)
    pd.testing.assert_frame_equal(made_seats, seats)
