"""The sentences of ``docs/crazy-eights.md``, each tested from a hand-built deal on both
engines (the ``turn`` fixture plays the turn on each and checks they agree)."""

from __future__ import annotations

import numpy as np
import pytest
from balance.core.errors import BalanceError
from balance.core.random_ref import Stream
from conftest import card, compiled_turn, deal

from crazy_eights import reference
from crazy_eights.game import GAME
from crazy_eights.records import GameStat, SeatStat
from crazy_eights.reference import DREW, PASSED, PLAYED, WENT_OUT
from crazy_eights.rules import DRAW, CrazyEightsRules, Table

RULES = CrazyEightsRules()


def test_a_card_of_the_suit_in_force_or_the_top_rank_or_an_eight_may_be_played(turn) -> None:
    # top: the five of diamonds; the seven of clubs matches nothing and is not offered
    played = turn(deal(["5C 7C 9D 8S", "2H"], "5D"), answers=(0, 0, 0))
    assert played.player.offered == [[card(c) for c in ("5C", "9D", "8S")]]
    assert played.outcome == PLAYED and played.top == "5C" and played.table[Table.SUIT] == 0


def test_an_eight_names_the_suit_in_force(turn) -> None:
    played = turn(deal(["8S 3C", "2H"], "5D"), answers=(0, 0, 2))
    assert played.top == "8S" and played.table[Table.SUIT] == 2  # hearts


def test_a_player_who_plays_its_last_card_wins_and_names_no_suit(turn) -> None:
    played = turn(deal(["8S", "2H"], "5D"), answers=(0, 0, 9))  # a suit of 9 is never asked
    assert played.outcome == WENT_OUT and played.state.sizes[0] == 0


def test_a_player_who_cannot_play_draws_until_it_can_then_chooses(turn) -> None:
    # the stock's top is last: it draws KC, then 3H (hearts: playable), then chooses 3H
    played = turn(deal(["7C", "2H"], "5H", "4D 3H KC"))
    assert played.player.offered == []  # one option each time: forced, nothing asked
    assert played.top == "3H" and played.hand(0) == {"7C", "KC"}
    assert played.rec["seats"][0, 0, SeatStat.DRAWN] == 2


def test_draw_when_able_offers_the_draw_after_the_cards(turn) -> None:
    state = deal(["5C 7C", "2H"], "5D", "4D 3H KC")
    played = turn(state, CrazyEightsRules(draw_when_able=True), answers=(1, 1, 0))
    assert played.player.offered[0] == [card("5C"), DRAW]
    # it drew KC (no), 3H (no), 4D (a diamond: it may play it), then chose among 5C, 4D
    assert played.player.offered[1] == [card("5C"), card("4D")] and played.top == "4D"


def test_without_draw_when_able_a_player_holding_a_playable_card_must_play(turn) -> None:
    played = turn(deal(["5C 7C", "2H"], "5D", "4D"))
    assert played.outcome == PLAYED and played.top == "5C" and played.table[Table.STOCK] == 1


def test_draw_one_draws_a_single_card_and_plays_it_only_if_it_can(turn) -> None:
    rules = CrazyEightsRules(draw_one=True)
    kept = turn(deal(["7C", "2H"], "5H", "3H KC"), rules)
    assert kept.outcome == DREW and kept.hand(0) == {"7C", "KC"} and kept.top == "5H"
    played = turn(deal(["7C", "2H"], "5H", "KC 3H"), rules)
    assert played.outcome == PLAYED and played.top == "3H"


def test_an_empty_stock_is_the_pile_but_its_top_shuffled(turn) -> None:
    played = turn(deal(["7C", "2H"], "4S 9D QS 5H", ""), chance=3)
    assert played.rec["games"][0, GameStat.RESHUFFLES] == 1
    assert played.table[Table.PILE] >= 1 and played.state.pile[0] == card("5H")
    held = (
        played.hand(0)
        | set(played.top.split())
        | {reference.short(int(c)) for c in played.state.stock[: played.table[Table.STOCK]]}
    )
    assert {"4S", "9D", "QS", "5H", "7C"} <= held


def test_with_no_reshuffle_a_player_who_cannot_play_nor_draw_passes(turn) -> None:
    played = turn(deal(["7C", "2H"], "4S 9D QS 5H", ""), CrazyEightsRules(reshuffle=False))
    assert played.outcome == PASSED and played.table[Table.SEAT] == 1
    alone = turn(deal(["7C", "2H"], "5H", ""))  # nothing under the top to reshuffle
    assert alone.outcome == PASSED


def test_a_two_makes_the_next_player_draw_two_unless_it_plays_a_two(turn) -> None:
    rules = CrazyEightsRules(twos_draw_two=True)
    two = turn(deal(["2D 9C", "4H"], "5D"), rules)
    assert two.table[Table.PENDING] == 2 and two.table[Table.SEAT] == 1
    stacked = turn(deal(["2C 9D 8S", "4H"], "2D", pending=2), rules)
    assert stacked.player.offered == [[card("2C"), DRAW]] and stacked.table[Table.PENDING] == 4
    drew = turn(deal(["9D 8S", "4H"], "2D", "KC QC JC TC 3H", pending=4), rules)
    assert drew.outcome == DREW and drew.state.sizes[0] == 6 and drew.table[Table.PENDING] == 0
    assert drew.table[Table.SEAT] == 1  # the penalty ends the turn


def test_a_queen_skips_the_next_player(turn) -> None:
    rules = CrazyEightsRules(queens_skip=True)
    assert turn(deal(["QD 9C", "4H", "4S"], "5D"), rules).table[Table.SEAT] == 2
    assert turn(deal(["QD 9C", "4H", "4S"], "5D")).table[Table.SEAT] == 1


def test_an_ace_reverses_the_direction(turn) -> None:
    rules = CrazyEightsRules(aces_reverse=True)
    played = turn(deal(["AD 9C", "4H", "4S"], "5D", seat=0), rules)
    assert played.table[Table.DIRECTION] == -1 and played.table[Table.SEAT] == 2
    back = turn(deal(["4H", "AD 9C", "4S"], "5D", seat=1, direction=-1), rules)
    assert back.table[Table.DIRECTION] == 1 and back.table[Table.SEAT] == 2


@pytest.mark.parametrize("variant", ["twos-draw-two", "queens-skip", "aces-reverse"])
def test_house_rules_do_not_apply_to_the_starter(variant: str) -> None:
    rules = GAME.make_rules([variant], [])
    for game in range(40):
        state = reference.deal(rules, 3, Stream(1, game, 0))
        assert state.table[Table.PENDING] == 0 and state.table[Table.DIRECTION] == 1
        assert state.table[Table.SEAT] == 0


def test_a_starter_eight_is_buried_in_the_stock_and_every_card_is_somewhere() -> None:
    buried = 0
    for game in range(300):
        lines: list[str] = []
        state = reference.deal(RULES, 4, Stream(2, game, 0), lines.append)
        buried += any("buried" in line for line in lines)
        assert state.table[Table.TOP] % 13 != 7 and state.sizes.tolist() == [5] * 4
        stock = state.stock[: state.table[Table.STOCK]]
        every = np.concatenate([np.flatnonzero(state.hands.sum(axis=0)), stock, [state.pile[0]]])
        assert sorted(every.tolist()) == list(range(52))
    assert buried > 0


def test_a_forbidden_rank_is_never_offered(turn) -> None:
    # restricted play forbids eights: the eight of spades is no option, the five is forced
    played = turn(deal(["8S 5C", "2H"], "5D"), forbidden=7)
    assert played.player.offered == [] and played.top == "5C"
    drew = turn(deal(["8S 7C", "2H"], "5D", "9H 6D"), forbidden=7)
    assert drew.top == "6D" and drew.hand(0) == {"8S", "7C"}


def test_an_answer_outside_the_options_is_refused_by_both_engines() -> None:
    state = deal(["5C 9D", "2H"], "5D")
    with pytest.raises(BalanceError):
        compiled_turn(state, RULES, answers=(5, 0, 0))
    with pytest.raises(BalanceError):
        reference.play_turn(state, RULES, _Answer(5), Stream(0, 0, 0), _records())


class _Answer:
    def __init__(self, k: int) -> None:
        self.k = k

    def play(self, view, options, count) -> int:
        return self.k


def _records():
    from crazy_eights.records import RECORDS

    return RECORDS.empty(1, 2)


def test_the_deal_is_seven_cards_with_two_players_five_with_more_or_the_rule() -> None:
    for players, dealt in ((2, 7), (3, 5), (6, 5)):
        state = reference.deal(RULES, players, Stream(0, 0, 0))
        assert state.sizes.tolist() == [dealt] * players
    state = reference.deal(CrazyEightsRules(hand_size=8), 5, Stream(0, 0, 0))
    assert state.sizes.tolist() == [8] * 5
    with pytest.raises(BalanceError):
        GAME.check_rules(CrazyEightsRules(hand_size=8), 6)


def test_the_winner_holds_no_points_and_a_blocked_game_goes_to_the_lowest_points() -> None:
    rules = CrazyEightsRules(reshuffle=False)
    blocked = 0
    for game in range(300):
        record = reference.play_game(rules, 2, 5, game)
        assert record.finished
        if record.blocked:
            blocked += 1
            assert record.winner == -1
            assert record.won == [p == min(record.points) for p in record.points]
        else:
            assert record.points[record.winner] == 0 and sum(record.won) == 1
    assert blocked > 0


def test_penalty_points_eight_50_court_10_ace_1_others_face_value() -> None:
    state = deal(["8S KD QH JC AC 9S 2D", "3H"], "5D")
    assert int(state.hands[0] @ reference.CARD_POINTS) == 50 + 30 + 1 + 9 + 2


def test_a_game_reaching_the_turn_cap_is_unfinished_without_a_winner() -> None:
    record = reference.play_game(CrazyEightsRules(turn_cap=3), 3, 0, 0)
    assert record.turns == 3 and not record.finished and not any(record.won)
    assert record.winner == -1


@pytest.mark.parametrize("rule", ["hand_size=16", "hand_size=x", "turn_cap=0", "reshuffle=maybe"])
def test_bad_rule_values_are_one_line_errors(rule: str) -> None:
    name, _, value = rule.partition("=")
    with pytest.raises(BalanceError):
        GAME.make_rules([], [(name, value)])
