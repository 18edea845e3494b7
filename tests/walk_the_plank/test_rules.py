"""Rule parameters: defaults are the printed game, bad values are refused by name."""

import pytest

from balance.core.errors import BalanceError
from balance.games.walk_the_plank.cards import card_mask
from balance.games.walk_the_plank.rules import Rule, WalkThePlankRules


def test_defaults_are_the_printed_game() -> None:
    rules = WalkThePlankRules()
    assert (rules.pirates_per_player, rules.plank_start, rules.plank_min, rules.plank_max) == (
        3,
        3,
        1,
        3,
    )
    assert rules.rest == ("shove-anyone", "retract-plank", "drag-to-sea", "not-me")
    assert rules.round_cap == 100
    assert rules.variants == ()


def test_packing_for_the_kernels() -> None:
    rules = WalkThePlankRules(rest=("run", "charge"), kraken=True, round_cap=7)
    packed = rules.to_array()
    assert packed[Rule.REST_MASK] == (1 << 7) | (1 << 9) == card_mask(("charge", "run"))
    assert packed[Rule.KRAKEN] == 1 and packed[Rule.GHOST] == 0 and packed[Rule.ROUND_CAP] == 7


def test_rest_set_is_canonical() -> None:
    assert WalkThePlankRules(rest=("charge", "run", "charge")).rest == ("run", "charge")
    assert WalkThePlankRules().with_text("rest", "none").rest == ()
    assert WalkThePlankRules().with_text("rest", " charge , run").rest == ("run", "charge")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"pirates_per_player": 0}, "'pirates_per_player': 0 is outside the allowed range 1..9"),
        ({"plank_max": 9}, "'plank_max': 9 is outside the allowed range 1..8"),
        ({"plank_min": 3, "plank_max": 2}, "'plank_max': 2 is outside the allowed range 3..8"),
        ({"plank_start": 0}, "'plank_start': 0 is outside the allowed range 1..3"),
        ({"round_cap": 0}, "'round_cap': 0 is outside the allowed range 1..10000"),
        ({"rest": ("jump",)}, "rule 'rest': unknown card 'jump'"),
        ({"kraken": "yes"}, "rule 'kraken': must be true or false"),
        ({"pirates_per_player": 2.5}, "'pirates_per_player': 2.5 is not a whole number"),
    ],
)
def test_invalid_values_name_the_parameter(values: dict, message: str) -> None:
    with pytest.raises(BalanceError, match=message.replace("(", r"\(").replace(".", r"\.")):
        WalkThePlankRules(**values)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("planks", "3", "unknown rule 'planks'"),
        ("round_cap", "many", "'round_cap': 'many' is not a whole number"),
        ("ghost", "perhaps", "'ghost': 'perhaps' is not true or false"),
        ("plank-max", "12", "'plank_max': 12 is outside"),
    ],
)
def test_text_values_are_checked(name: str, text: str, message: str) -> None:
    with pytest.raises(BalanceError, match=message):
        WalkThePlankRules().with_text(name, text)


def test_text_values_parse() -> None:
    rules = WalkThePlankRules().with_text("ghost", "on").with_text("plank-max", "5")
    assert rules.ghost and rules.plank_max == 5


def test_every_parameter_is_described() -> None:
    rows = WalkThePlankRules.describe()
    assert [row["name"] for row in rows] == list(WalkThePlankRules().to_dict())
    assert all(row["meaning"] and row["allowed"] for row in rows)
