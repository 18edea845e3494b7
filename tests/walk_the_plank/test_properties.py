"""Invariants of Walk the Plank games and positions, over rules and seeds Hypothesis picks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.games.walk_the_plank import engine
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank import reference as ref
from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.games.walk_the_plank.rules import PLANK_LIMIT, WalkThePlankRules


@st.composite
def rule_sets(draw: st.DrawFn) -> WalkThePlankRules:
    plank_min = draw(st.integers(1, 4))
    plank_max = draw(st.integers(plank_min, PLANK_LIMIT))
    return WalkThePlankRules(
        pirates_per_player=draw(st.integers(1, 5)),
        plank_min=plank_min,
        plank_max=plank_max,
        plank_start=draw(st.integers(plank_min, plank_max)),
        rest=tuple(draw(st.sets(st.sampled_from(CARD_NAMES)))),
        round_cap=draw(st.integers(1, 40)),
        ghost=draw(st.booleans()),
        dolphin=draw(st.booleans()),
        kraken=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1))
def test_game_records_keep_the_rules(rules: WalkThePlankRules, players: int, seed: int) -> None:
    records = engine.play_games(rules, players, seed, 30)
    games, cards, seats = records.games, records.cards.astype(int), records.seats.astype(int)
    won, left = seats[:, :, 0], seats[:, :, 1]
    rounds = games[:, nb.GameStat.ROUNDS]
    finished = games[:, nb.GameStat.FINISHED].astype(bool)
    stat = nb.CardStat

    assert ((left >= 0) & (left <= rules.pirates_per_player)).all()
    assert ((rounds >= 1) & (rounds <= rules.round_cap)).all()
    # Every pirate that is not left died through a card or was taken by the Kraken.
    deaths = cards[:, :, :, stat.KILLED_OWN].sum((1, 2)) + cards[:, :, :, stat.KILLED_OTHERS].sum(
        (1, 2)
    )
    deaths = deaths + games[:, nb.GameStat.KRAKEN_KILLED]
    assert (players * rules.pirates_per_player - left.sum(1) == deaths).all()
    for g in range(len(records)):
        assert finished[g] == engine.game_over(left[g].tolist()) or rounds[g] == rules.round_cap
        if finished[g]:
            assert engine.game_over(left[g].tolist())
            assert (won[g] == (left[g] > 0)).all()
        else:
            assert rounds[g] == rules.round_cap and won[g].sum() == 0
    # A card is revealed at most once a round, and has an effect only when revealed.
    assert (cards[:, :, :, stat.REVEALED] <= rounds[:, None, None]).all()
    assert (cards[:, :, :, stat.EFFECT] <= cards[:, :, :, stat.REVEALED]).all()
    ghost = games[:, nb.GameStat.GHOST_SEAT]
    if rules.ghost:
        has_ghost = ghost >= 0
        assert (left[has_ghost, ghost[has_ghost]] == 0).all()
        assert (won[has_ghost, ghost[has_ghost]] == 0).all()
    else:
        assert (ghost == -1).all()
    if not rules.dolphin:
        assert (games[:, nb.GameStat.DOLPHIN_FACE] == -1).all()
    if not rules.kraken:
        assert (games[:, nb.GameStat.KRAKEN_CALM : nb.GameStat.KRAKEN_KILLED + 1] == 0).all()


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1))
def test_same_seed_same_games_whatever_the_block(
    rules: WalkThePlankRules, players: int, seed: int
) -> None:
    whole = engine.play_games(rules, players, seed, 24)
    again = engine.play_games(rules, players, seed, 24)
    tail = engine.play_games(rules, players, seed, 14, first_game=10)
    for name in ("games", "cards", "seats"):
        assert np.array_equal(getattr(whole, name), getattr(again, name))
        assert np.array_equal(getattr(whole, name)[10:], getattr(tail, name))


class _ScriptedTable:
    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.dice: list[int] = []
        self.choices: list[int] = []

    def roll(self) -> int:
        self.dice.append(self.draw(st.integers(0, 5)))
        return self.dice[-1]

    def choose_dolphin_step(self, seat: int, pos: ref.Position, options: list) -> int:
        self.choices.append(self.draw(st.integers(0, len(options) - 1)))
        return self.choices[-1]


@settings(max_examples=5, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 5), data=st.data())
def test_every_step_keeps_pirates_and_agrees(
    rules: WalkThePlankRules, players: int, data: st.DataObject
) -> None:
    """Random legal moves from the start: pirates conserved, bounds kept, both engines agree."""
    every_step_keeps_pirates_and_agrees(rules, players, data)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 5), data=st.data())
def test_every_step_keeps_pirates_and_agrees_over_many_more_games(
    rules: WalkThePlankRules, players: int, data: st.DataObject
) -> None:
    every_step_keeps_pirates_and_agrees(rules, players, data)


def every_step_keeps_pirates_and_agrees(
    rules: WalkThePlankRules, players: int, data: st.DataObject
) -> None:
    """The checks of the two tests above, on one drawn game."""
    pos = ref.Position.start(rules, players)
    dead = [0] * players
    for _ in range(data.draw(st.integers(1, 60))):
        seats = [s for s in range(players) if pos.living(s) > 0 or pos.is_ghost(s)]
        if not seats or ref.game_over([pos.living(s) for s in range(players)]):
            break
        seat = data.draw(st.sampled_from(seats))
        pos.ghost_active = pos.ghost_seat >= 0
        card = data.draw(st.sampled_from(ref.available_cards(pos, seat)))
        slot = data.draw(st.integers(0, 2))
        options = ref.legal_options(pos, rules, seat, card, slot)
        assert engine.legal_options(pos, rules, seat, card, slot) == options
        if not options:
            continue
        option = data.draw(st.sampled_from(options))
        table = _ScriptedTable(data.draw)
        before = pos.copy()
        outcome = ref.resolve_card(pos, rules, seat, card, option, table)
        compiled_pos, compiled_outcome = engine.resolve_card(
            before, rules, seat, card, option, dice=table.dice, choices=table.choices
        )
        assert compiled_pos == pos
        assert compiled_outcome == outcome

        for s in range(players):
            dead[s] += before.living(s) - pos.living(s)
            assert pos.living(s) + dead[s] == rules.pirates_per_player
            assert all(count >= 0 for count in pos.pirates[s])
            assert sum(pos.pirates[s][pos.plank + 1 :]) == 0  # nobody beyond the plank
        assert rules.plank_min <= pos.plank <= rules.plank_max
        assert outcome.killed_own + outcome.killed_others + outcome.kraken_killed == sum(
            before.living(s) - pos.living(s) for s in range(players)
        )
        if pos.ghost_seat >= 0:
            assert rules.ghost and 0 <= pos.ghost_tile <= pos.plank
            assert pos.living(pos.ghost_seat) == 0
