"""Rule parameters: defaults are the printed game, bad values are refused by name."""

import pytest

from balance.core.errors import BalanceError
from balance.games.la_planche.rules import LaPlancheRules, Rule


def test_defaults_are_the_printed_game() -> None:
    rules = LaPlancheRules()
    assert rules.spaces == 18
    assert rules.start_order == "YRGBYRGBYRGBYRGB"
    assert rules.spinner_weights == (1, 1, 1, 1)
    assert (rules.rounds, rules.target, rules.turn_cap, rules.round_cap) == (False, 12, 1000, 100)
    assert (rules.push, rules.points) == ("unbroken", (5, 3, 1))
    assert rules.variants == ()
    assert LaPlancheRules(rounds=True).variants == ("rounds",)


def test_packing_for_the_kernels() -> None:
    rules = LaPlancheRules(spaces=20, start_order="BBBBGGGGRRRRYYYY", spinner_weights=(2, 0, 3, 1))
    packed = rules.to_array()
    assert packed[Rule.SPACES] == 20
    assert list(packed[Rule.W_SWAP : Rule.W_SKULL + 1]) == [2, 0, 3, 1]
    assert list(packed[Rule.START : Rule.START + 16]) == [3] * 4 + [2] * 4 + [1] * 4 + [0] * 4
    assert packed.shape == (Rule.SIZE,)
    packed = LaPlancheRules(points=(7, 0, 2), push="whole").to_array()
    assert list(packed[Rule.POINTS : Rule.POINTS + 3]) == [7, 0, 2]
    assert packed[Rule.PUSH] == 1


def test_text_forms() -> None:
    rules = LaPlancheRules()
    assert rules.with_text("spinner-weights", "1, 2,3,0").spinner_weights == (1, 2, 3, 0)
    assert rules.with_text("start_order", "yyyyrrrrggggbbbb").start_order == "YYYYRRRRGGGGBBBB"
    assert rules.with_text("rounds", "yes").rounds is True
    assert rules.with_text("spaces", "24").spaces == 24
    assert LaPlancheRules(spinner_weights="0,1,0,0").spinner_weights == (0, 1, 0, 0)
    assert rules.to_dict()["spinner_weights"] == [1, 1, 1, 1]
    described = {row["name"]: row for row in LaPlancheRules.describe()}
    assert described["spinner_weights"]["default"] == "1,1,1,1"
    assert described["start_order"]["default"] == "YRGBYRGBYRGBYRGB"
    assert described["rounds"]["default"] == "false"
    assert rules.with_text("points", "6, 2,1").points == (6, 2, 1)
    assert described["points"]["default"] == "5,3,1"
    assert described["push"]["default"] == "unbroken"
    assert rules.to_dict()["points"] == [5, 3, 1]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"spaces": 15}, "'spaces': 15 is outside the allowed range 16..32"),
        ({"spaces": 33}, "'spaces': 33 is outside the allowed range 16..32"),
        ({"start_order": "YRGB"}, "'start_order': 'YRGB' is not 16 letters from YRGB"),
        ({"start_order": "YYYYYRGBRGBRGBRG"}, "has 5 of Y, not 4 of each colour"),
        ({"start_order": "YRGBYRGBYRGBYRGX"}, "'start_order'"),
        ({"spinner_weights": (1, 1, 1)}, "'spinner_weights': 3 weights given, not 4"),
        ({"spinner_weights": (1, -1, 1, 1)}, "'spinner_weights': -1 is not a whole number >= 0"),
        ({"spinner_weights": (0, 0, 0, 5)}, "swap, advance and move cannot all weigh 0"),
        ({"spinner_weights": (1.5, 1, 1, 1)}, "'spinner_weights': 1.5"),
        ({"rounds": "yes"}, "'rounds': must be true or false"),
        ({"target": 0}, "'target': 0 is outside the allowed range"),
        ({"turn_cap": 0}, "'turn_cap': 0 is outside the allowed range"),
        ({"round_cap": True}, "'round_cap': True is not a whole number"),
        ({"points": (5, 3)}, "'points': 2 numbers given, not 3"),
        ({"points": (0, 0, 0)}, "'points': the three points cannot all be 0"),
        ({"points": (5, -3, 1)}, "'points': -3 is outside the allowed range 0..1000"),
        ({"points": (5, 3.5, 1)}, "'points': 3.5 is not a whole number"),
        ({"push": "all"}, "'push': 'all' is not one of unbroken, whole"),
    ],
)
def test_bad_values_are_refused_by_name(values, message: str) -> None:
    with pytest.raises(BalanceError, match=message.replace("(", r"\(")) as caught:
        LaPlancheRules(**values)
    assert "\n" not in str(caught.value)


def test_bad_text_is_refused_by_name() -> None:
    with pytest.raises(BalanceError, match="unknown rule 'bridge'"):
        LaPlancheRules().with_text("bridge", "1")
    with pytest.raises(BalanceError, match="'spinner_weights': 'a,b' is not four"):
        LaPlancheRules().with_text("spinner_weights", "a,b")
    with pytest.raises(BalanceError, match="'target': 'ten' is not a whole number"):
        LaPlancheRules().with_text("target", "ten")
    with pytest.raises(BalanceError, match="'points': '5;3;1' is not three"):
        LaPlancheRules().with_text("points", "5;3;1")
    with pytest.raises(BalanceError, match="'rounds': 'maybe' is not true or false"):
        LaPlancheRules().with_text("rounds", "maybe")
