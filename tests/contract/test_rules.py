"""A game's rules: described, read back from a manifest, and bad values refused in one line
(exit 2 through the command line) before any game is played."""

from __future__ import annotations

import pytest
from cli_helpers import assert_one_line_error, call_main, forbid_games

from balance import api
from balance.authoring.conformance import BAD_TEXTS
from balance.core.errors import BalanceError
from balance.core.game import Game
from contract.helpers import GAME_IDS, registered


def test_every_rule_is_described_and_read_back(game: Game) -> None:
    described = [row["name"] for row in game.describe_rules()]
    defaults = game.default_rules()
    assert described == list(defaults.to_dict())
    assert all(row["meaning"] for row in game.describe_rules())
    for rule_set in game.checked_rules:
        rules = game.make_rules(rule_set.variants, rule_set.rules)
        assert game.rules_from_dict(rules.to_dict()) == rules, rule_set.name
        assert list(rules.variants) == [v for v in game.variants if v in rule_set.variants]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_rule_values_are_one_line_errors_naming_the_rule(game_id: str) -> None:
    game = registered(game_id)
    for name in game.default_rules().to_dict():
        for text in BAD_TEXTS:
            with pytest.raises(BalanceError) as refused:
                api.make_setup(game_id, game.max_players, rules=[(name, text)])
            message = str(refused.value)
            assert "\n" not in message and name in message, (name, text, message)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_unknown_rules_and_variants_are_one_line_errors(game_id: str) -> None:
    game = registered(game_id)
    for options in (dict(rules=[("no_such_rule", "1")]), dict(variants=["no-such-variant"])):
        with pytest.raises(BalanceError) as refused:
            api.make_setup(game_id, game.max_players, **options)
        assert "\n" not in str(refused.value) and "no" in str(refused.value)
    with pytest.raises(BalanceError, match="players"):
        api.make_setup(game_id, game.max_players + 1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_bad_rule_exits_2_in_one_line_before_any_game(
    game_id: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = registered(game_id)
    forbid_games(monkeypatch)
    name = next(iter(game.default_rules().to_dict()))
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", game_id, "-g", 10, "--rule", f"{name}=%%"
    )
    assert_one_line_error(code, out, err, name)
    code, out, err = call_main(monkeypatch, capsys, "simulate", game_id, "--rule", "no_such=1")
    assert_one_line_error(code, out, err, "no_such")


def test_a_rule_that_switches_off_a_variant_asked_for_is_refused(game: Game) -> None:
    for variant in game.variants:
        field = variant.replace("-", "_")
        with pytest.raises(BalanceError, match=f"switches off the variant '{variant}'"):
            game.make_rules([variant], [(field, "false")])
        assert game.make_rules([variant], [(field, "true")]) == game.make_rules([variant], [])
