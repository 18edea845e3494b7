"""Rule parameters: defaults are the rules page's, bad values are refused by name (D16)."""

import pytest

from balance.core.errors import BalanceError
from balance.games.lifeboats.layout import MAX_LANES, Rule
from balance.games.lifeboats.rules import LifeboatsRules


def test_defaults_are_the_rules_page() -> None:
    rules = LifeboatsRules()
    assert rules.seats_per_boat == 6
    assert rules.lane_islands == (0, 0, 1, 1, 2, 2, 2)
    assert (rules.officer_points, rules.sailor_points) == ((8, 6, 7), (6, 4, 5))
    assert rules.track_length == 3
    assert [rules.pawns(n) for n in (3, 4, 5, 6)] == [(2, 5), (2, 5), (2, 4), (2, 4)]
    assert (rules.hats, rules.leaks, rules.round_cap) == (3, 15, 60)
    for players in (3, 4, 5, 6):
        rules.check_players(players)


def test_packing_for_the_kernels() -> None:
    rules = LifeboatsRules(
        lane_islands=(1, 0, 3, 2, 2),
        officer_points=(1, 2, 3, 4),
        sailor_points=(5, 6, 7, 8),
        officers=(1, 2, 3, 4),
        sailors=(4, 3, 2, 1),
        seats_per_boat=9,
    )
    packed = rules.to_array(4)
    assert packed.shape == (Rule.SIZE,)
    assert packed[Rule.SEATS] == 9
    assert (packed[Rule.TRACK], packed[Rule.HATS], packed[Rule.LEAKS]) == (3, 3, 15)
    assert (packed[Rule.ROUND_CAP], packed[Rule.LANES], packed[Rule.ISLANDS]) == (60, 5, 4)
    assert (packed[Rule.OFFICERS], packed[Rule.SAILORS]) == (2, 3)
    assert list(packed[Rule.LANE_ISLAND : Rule.LANE_ISLAND + MAX_LANES]) == [1, 0, 3, 2, 2] + [
        0
    ] * (MAX_LANES - 5)
    assert list(packed[Rule.OFFICER_POINTS : Rule.OFFICER_POINTS + 4]) == [1, 2, 3, 4]
    assert list(packed[Rule.SAILOR_POINTS : Rule.SAILOR_POINTS + 4]) == [5, 6, 7, 8]
    assert rules.to_array(3)[Rule.OFFICERS] == 1


def test_text_forms() -> None:
    rules = LifeboatsRules()
    assert rules.with_text("lane-islands", "0, 1,2,0").lane_islands == (0, 1, 2, 0)
    assert rules.with_text("seats_per_boat", "8").seats_per_boat == 8
    assert rules.with_text("officers", "1,1,1,1").officers == (1, 1, 1, 1)
    assert LifeboatsRules(sailor_points="1,2,3").sailor_points == (1, 2, 3)
    assert LifeboatsRules(officers=[3, 3, 2, 2]).officers == (3, 3, 2, 2)
    values = rules.to_dict()
    assert values["lane_islands"] == [0, 0, 1, 1, 2, 2, 2]
    assert values["hats"] == 3
    assert LifeboatsRules(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})
    described = {row["name"]: row for row in LifeboatsRules.describe()}
    assert described["lane_islands"]["default"] == "0,0,1,1,2,2,2"
    assert described["round_cap"]["default"] == "60"
    assert all(row["meaning"] and row["allowed"] for row in described.values())


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"seats_per_boat": 0}, "'seats_per_boat': 0 is outside the allowed range 1..99"),
        ({"track_length": 0}, "'track_length': 0 is outside the allowed range"),
        ({"round_cap": 0}, "'round_cap': 0 is outside the allowed range"),
        ({"hats": -1}, "'hats': -1 is outside the allowed range"),
        ({"leaks": -2}, "'leaks': -2 is outside the allowed range"),
        ({"hats": True}, "'hats': True is not a whole number"),
        ({"lane_islands": (0, 1, 2)}, "'lane_islands': 3 lanes given, not 4..12"),
        ({"lane_islands": (0,) * 13}, "'lane_islands': 13 lanes given"),
        ({"lane_islands": (0, 1, 2, 3)}, "lane 3 leads to island 3, but only islands 0..2"),
        ({"lane_islands": (0, 1, 2, -1)}, "lane 3 leads to island -1"),
        ({"lane_islands": "a,b"}, "'lane_islands': 'a,b' is not comma-separated whole numbers"),
        ({"lane_islands": (0, 1.5, 2, 0)}, "'lane_islands': 1.5 is not a whole number"),
        ({"officer_points": ()}, "'officer_points': 0 islands given"),
        ({"officer_points": (1, 2), "sailor_points": (1, 2, 3)}, "'sailor_points': 3 values"),
        ({"sailor_points": (6, -4, 5)}, "'sailor_points': -4 is outside the allowed range"),
        ({"officers": (2, 2, 2)}, "'officers': 3 values given, not 4"),
        ({"sailors": (5, 5, 4, -1)}, "'sailors': -1 is outside the allowed range"),
        ({"officers": (0, 2, 2, 2), "sailors": (0, 5, 4, 4)}, "with 3 players a player has no"),
    ],
)
def test_bad_values_are_refused_by_name(values, message: str) -> None:
    with pytest.raises(BalanceError, match=message.replace("(", r"\(")) as caught:
        LifeboatsRules(**values)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("values", "players", "message"),
    [
        ({"lane_islands": (0, 1, 2, 0, 1)}, 5, "5 lanes cannot hold the 6 boats of 5 players"),
        ({"seats_per_boat": 4}, 6, "6 players' 36 pawns do not fit in 7 boats of 4 seats"),
        ({"seats_per_boat": 5}, 3, "3 players' 21 pawns do not fit in 4 boats of 5 seats"),
        ({}, 7, "lifeboats plays 3 to 6 players, not 7"),
        ({}, 2, "lifeboats plays 3 to 6 players, not 2"),
    ],
)
def test_rules_that_cannot_seat_the_players_are_refused(values, players, message) -> None:
    rules = LifeboatsRules(**values)
    with pytest.raises(BalanceError, match=message) as caught:
        rules.check_players(players)
    assert "\n" not in str(caught.value)
    with pytest.raises(BalanceError, match=message):
        rules.to_array(players)


def test_the_tightest_fit_is_allowed() -> None:
    # 4 players of 1 officer and 4 sailors fill 5 boats of 4 seats exactly.
    rules = LifeboatsRules(seats_per_boat=4, officers=(1, 1, 1, 1), sailors=(4, 4, 4, 4))
    rules.check_players(4)
    with pytest.raises(BalanceError, match="do not fit"):
        rules.check_players(5)


def test_bad_text_is_refused_by_name() -> None:
    with pytest.raises(BalanceError, match="unknown rule 'boats'"):
        LifeboatsRules().with_text("boats", "1")
    with pytest.raises(BalanceError, match="'hats': 'many' is not a whole number"):
        LifeboatsRules().with_text("hats", "many")
    with pytest.raises(BalanceError, match="'officers': '2;2' is not comma-separated"):
        LifeboatsRules().with_text("officers", "2;2")


def test_sailors_by_seat_sets_each_seat_s_sailors() -> None:
    rules = LifeboatsRules(sailors_by_seat=(5, 5, 5, 5, 4, 4))
    assert rules.seat_pawns(6) == [(2, 5)] * 4 + [(2, 4)] * 2
    packed = rules.to_array(6)
    assert list(packed[Rule.SEAT_SAILORS : Rule.SEAT_SAILORS + 6]) == [5, 5, 5, 5, 4, 4]
    assert rules.with_text("sailors_by_seat", "1,2,3").sailors_by_seat == (1, 2, 3)
    # Without it, every seat has the player count's number.
    assert LifeboatsRules().seat_pawns(5) == [(2, 4)] * 5
    assert list(LifeboatsRules().to_array(5)[Rule.SEAT_SAILORS : Rule.SEAT_SAILORS + 5]) == [4] * 5


@pytest.mark.parametrize(
    ("values", "players", "message"),
    [
        ((5, 5, 5, 5, 4, 4), 5, "6 seats given for 5 players"),
        ((5, 5, 5), 4, "3 seats given for 4 players"),
        ((9, 9, 9), 3, "do not fit"),
    ],
)
def test_sailors_by_seat_must_fit_the_table(values, players, message) -> None:
    with pytest.raises(BalanceError, match=message):
        LifeboatsRules(sailors_by_seat=values).check_players(players)


def test_sailors_by_seat_rejects_a_seat_without_pawns_and_bad_numbers() -> None:
    with pytest.raises(BalanceError, match="seat 1 has no pawn"):
        LifeboatsRules(officers=(0, 0, 0, 0), sailors_by_seat=(1, 0, 1)).check_players(3)
    with pytest.raises(BalanceError, match="outside the allowed range"):
        LifeboatsRules(sailors_by_seat=(1, -1, 1))
    with pytest.raises(BalanceError, match="at most 6"):
        LifeboatsRules(sailors_by_seat=(1,) * 7)


def test_stay_without_seat_is_packed_and_read_from_text() -> None:
    assert LifeboatsRules().to_array(3)[Rule.STAY_WITHOUT_SEAT] == 0
    rules = LifeboatsRules().with_text("stay-without-seat", "true")
    assert rules.stay_without_seat is True
    assert rules.to_array(3)[Rule.STAY_WITHOUT_SEAT] == 1
    with pytest.raises(BalanceError, match="not true or false"):
        LifeboatsRules(stay_without_seat=1)
