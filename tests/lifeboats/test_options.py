"""Option lists and their order (D4) on hand-built positions, on both engines.

Each case names a decision on a hand-built position and the option codes it must offer,
in order; the reference engine and the compiled engine must both list exactly those.
Then every option list of many random games is checked on the compiled engine too.
"""

from __future__ import annotations

import pytest

from balance.games.lifeboats import engine as compiled
from balance.games.lifeboats import reference
from balance.games.lifeboats.layout import (
    CHOOSE_LEAK,
    CHOOSE_MOVE,
    CHOOSE_OVERBOARD,
    HAT,
    KINDS,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MOVE_VOTE,
    OFFICER,
    OVERBOARD_VOTE,
    PLACE,
    SAILOR,
    SWIM_IN,
    SWIM_OUT,
)
from balance.games.lifeboats.reference import Position, RandomPlayer
from balance.games.lifeboats.rules import LifeboatsRules

from .conftest import build_position

# Three players, boats 0..2 and the black boat 3; four seats a boat unless said otherwise.
CASES = {
    # Lanes: boats 0 and 3 on lanes 0 and 3, boats 1 and 2 not yet placed.
    "lane": (dict(lanes=(0, -1, -1, 3)), 1, LANE, {}, [1, 2, 4, 5, 6]),
    "lane-last": (dict(lanes=(0, 1, 2, -1), lane_islands=(0, 1, 2, 0)), 0, LANE, {}, [3]),
    # Placing: boats with a free seat ascending, officer then sailor from the reserve.
    "place-both": (
        dict(
            boats=["Aabb", "Bc", "", "CCcc"],
            reserve=((1, 2), (0, 0), (0, 0)),
            officers=(2, 2, 2, 2),
            sailors=(3, 3, 3, 3),
        ),
        0,
        PLACE,
        {},
        [2, 3, 4, 5],
    ),
    "place-sailors-only": (
        dict(
            boats=["Aa", "Bb*", "", "Cccc"], reserve=((0, 1), (0, 0), (0, 0)), sailors=(3, 3, 3, 3)
        ),
        0,
        PLACE,
        {},
        [1, 3, 5],
    ),
    # Votes: boats afloat ascending, then the hat if the voter has one.
    "leak-vote-hat": (
        dict(boats=["Aa", "sunk", "Bb", "landed"], hats=(1, 0, 0)),
        0,
        LEAK_VOTE,
        {},
        [0, 2, HAT],
    ),
    "leak-vote-no-hat": (
        dict(boats=["Aa", "sunk", "Bb", "Cc"], hats=(0, 2, 0)),
        0,
        LEAK_VOTE,
        {},
        [0, 2, 3],
    ),
    "move-vote": (dict(boats=["landed", "Aa", "Bb", ""], hats=2), 2, MOVE_VOTE, {}, [1, 2, 3, HAT]),
    # Overboard: colours with a pawn in the boat, then the hat.
    "overboard-vote": (
        dict(boats=["Aacc", "Bb", "Cc", ""], hats=1),
        1,
        OVERBOARD_VOTE,
        {"boat": 0},
        [0, 2, HAT],
    ),
    "overboard-vote-one-colour": (
        dict(boats=["Aa**", "Bb", "Cc", ""]),
        0,
        OVERBOARD_VOTE,
        {"boat": 0},
        [0],
    ),
    # Choosing: every eligible outcome (a lone hat), or the tied ones (F).
    "choose-leak-all": (
        dict(boats=["Aa", "sunk", "Bb", "Cc"], hats=0),
        1,
        CHOOSE_LEAK,
        {},
        [0, 2, 3],
    ),
    "choose-move-tied": (
        dict(boats=["Aa", "Bb", "Cc", ""]),
        0,
        CHOOSE_MOVE,
        {"tied": [3, 1]},
        [1, 3],
    ),
    "choose-overboard-all": (
        dict(boats=["Bbcc", "Aa", "Cc", ""], hats=3),
        2,
        CHOOSE_OVERBOARD,
        {"boat": 0},
        [1, 2],
    ),
    "choose-overboard-tied": (
        dict(boats=["Aabc", "Bb", "Cc", ""]),
        2,
        CHOOSE_OVERBOARD,
        {"boat": 0, "tied": [2, 0]},
        [0, 2],
    ),
    # Losing a pawn: officer then sailor, whichever the owner has there.
    "lose-both": (
        dict(boats=["Aa**", "Bb", "Cc", ""]),
        0,
        LOSE_PAWN,
        {"boat": 0},
        [OFFICER, SAILOR],
    ),
    "lose-sailor": (
        dict(boats=["Baa*", "b", "Cc", ""], sailors=(2, 2, 2, 2)),
        0,
        LOSE_PAWN,
        {"boat": 0},
        [SAILOR],
    ),
    # Swimming out: boats afloat not yet left, officer then sailor of the swimmer.
    "swim-out": (dict(boats=["Aa", "b", "a*", "Bc"]), 0, SWIM_OUT, {}, [0, 1, 5]),
    "swim-out-left": (dict(boats=["Aa", "b", "a*", "Bc"], left=(1, 0, 0, 0)), 0, SWIM_OUT, {}, [5]),
    "swim-out-none": (dict(boats=["Aa", "b", "a*", "Bc"], left=(1, 0, 1, 0)), 0, SWIM_OUT, {}, []),
    # stay_without_seat: no swimming out of boat 0, the only boat with a free seat, nor
    # out of any boat when every boat afloat is full.
    "swim-out-compulsory": (dict(boats=["A", "bc", "aa", "cc"], seats=2), 0, SWIM_OUT, {}, [0, 5]),
    "swim-out-stay": (
        dict(boats=["A", "bc", "aa", "cc"], seats=2, stay_without_seat=True),
        0,
        SWIM_OUT,
        {},
        [5],
    ),
    "swim-out-stay-nowhere": (
        dict(boats=["Ab", "bc", "aa", "sunk"], seats=2, stay_without_seat=True),
        2,
        SWIM_OUT,
        {},
        [],
    ),
    # Swimming in: boats afloat with a free seat, not the one left.
    "swim-in": (dict(boats=["Aabb", "B", "C*", "landed"]), 0, SWIM_IN, {"swim_from": 1}, [2]),
    "swim-in-nowhere": (
        dict(boats=["Aabb", "B", "Cc**", "sunk"]),
        1,
        SWIM_IN,
        {"swim_from": 1},
        [],
    ),
}


def _position(values: dict) -> Position:
    values = dict(values)
    boats = values.pop("boats", ["", "", "", ""])
    return build_position(boats, **values)


@pytest.mark.parametrize(
    ("values", "seat", "kind", "extra", "expected"), list(CASES.values()), ids=list(CASES)
)
def test_option_lists(values: dict, seat: int, kind: int, extra: dict, expected: list) -> None:
    pos = _position(values)
    before = pos.copy()
    assert reference.legal_options(pos, seat, kind, **extra) == expected, KINDS[kind]
    assert compiled.legal_options(pos, seat, kind, **extra) == expected, KINDS[kind]
    assert pos == before, "listing options changed the position"


def test_every_option_list_of_random_games_is_the_compiled_engines() -> None:
    """At every question of a few random games the compiled engine lists the same options."""

    class Checking(RandomPlayer):
        asked = 0

        def decide(self, pos: Position, seat: int, kind: int, options: list[int]) -> int:
            if kind not in (CHOOSE_LEAK, CHOOSE_MOVE, CHOOSE_OVERBOARD):  # ties: see below
                listed = compiled.legal_options(
                    pos, seat, kind, boat=pos.boat, swim_from=pos.swim_from
                )
                assert listed == options, (KINDS[kind], listed, options)
                Checking.asked += 1
            else:
                eligible = compiled.legal_options(pos, seat, kind, boat=pos.boat)
                assert set(options) <= set(eligible)
                assert compiled.legal_options(pos, seat, kind, boat=pos.boat, tied=options) == (
                    options
                )
            return super().decide(pos, seat, kind, options)

    for players in (3, 6):
        for game in range(4):
            reference.play_game(
                LifeboatsRules(), players, 3, game, make_player=lambda s, stream: Checking(stream)
            )
    assert Checking.asked > 500


def test_scripted_players_answer_by_code_on_both_engines() -> None:
    pos = build_position(["Aa", "Bb", "Cc", ""], hats=(0, 1, 0))
    # Seat 1 plays its hat and, alone with one, chooses boat 2 for the leak.
    ref_players = [reference.Scripted(s) for s in ([1], [HAT, 2], [3])]
    ref = pos.copy()
    reference.leak_phase(ref, ref_players)
    com_players = [reference.Scripted(s) for s in ([1], [HAT, 2], [3])]
    got = compiled.leak_phase(pos, com_players)
    assert got == ref
    assert got.leaks == [0, 0, 1, 0] and got.hats == [0, 0, 0] and got.hat_decided == 1
    for r, c in zip(ref_players, com_players, strict=True):
        assert (r.used, r.asked) == (c.used, c.asked)
    assert com_players[1].asked == [LEAK_VOTE, CHOOSE_LEAK]


@pytest.mark.parametrize(
    ("scripts", "message"),
    [
        ([[7], [1], [1]], "seat 0's scripted answer 7 to a leak vote decision is not among"),
        ([[1], [1]], "seat 2 was asked a leak vote decision among \\[0, 1, 2, 3\\] after its 0"),
        ([[1, 2], [1], [1]], "scripted answers never asked for, by seat: {0: \\[2\\]}"),
    ],
)
def test_a_script_that_does_not_fit_fails_on_the_compiled_engine(scripts, message) -> None:
    pos = build_position(["Aa", "Bb", "Cc", ""])
    with pytest.raises(reference.ScriptError, match=message):
        compiled.leak_phase(pos, scripts)
