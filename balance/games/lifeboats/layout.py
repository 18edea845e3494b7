"""Lifeboats' array layouts: the slots of the compiled position, rules and records.

The compiled engine, the strategies and the bridge to the reference engine all index
the same small ``int64`` arrays; the slot names here are their shared vocabulary.
``NamedTuple`` instances are read by numba as compile-time constants.

What a strategy sees, ``obs``, is a tuple ``(boats, crew, seats, state, rules,
scratch_i, scratch_f)``:

* ``boats`` int64 ``(MAX_BOATS, Boat.SIZE)``: one row per boat (boat ``s`` is seat
  ``s``'s, boat ``n`` the black boat; rows beyond ``n`` have ``STATE == UNUSED``)
* ``crew`` int64 ``(MAX_BOATS, MAX_PLAYERS, 2)``: pawns of each seat aboard each boat, by
  type (:data:`OFFICER`, :data:`SAILOR`)
* ``seats`` int64 ``(MAX_PLAYERS, Seat.SIZE)``: hats left, score, reserve, swimmer,
  and whether the seat may play a hat at all (restricted play)
* ``state`` int64 ``(State.SIZE,)``: round, first player, leak supply, the boat in question
* ``rules`` int64 ``(Rule.SIZE,)``: the packed rule parameters
* ``scratch_i`` int64 ``(SCRATCH,)`` and ``scratch_f`` float64 ``(SCRATCH,)``: buffers a
  strategy may use below ``kit.CACHE`` (64; the game loop allocates nothing); the slots
  from there on hold the kit's landing-chance cache

Everything in ``obs`` is public: no strategy sees another player's vote of the same ballot.
"""

from typing import NamedTuple

import numpy as np

from balance.core.records import SEAT, Axis, Derived, RecordArray, RecordLayout, Stat

MAX_PLAYERS = 6
MIN_PLAYERS = 3
#: One boat per player and the black boat.
MAX_BOATS = MAX_PLAYERS + 1
MAX_LANES = 12
MAX_ISLANDS = 6
SCRATCH = 320
#: Longest option list: pawn placement and swimming out, two pawn types in every boat.
MAX_OPTIONS = 2 * MAX_BOATS + 1

#: Islands in index order, as the rules page names them.
ISLAND_NAMES = ("A", "B", "C", "D", "E", "F")

OFFICER = 0
SAILOR = 1
PAWN_TYPES = ("officer", "sailor")
#: The captain's hat, as an option of a vote.
HAT = -1

# Boat states.
AFLOAT = 0
LANDED = 1
SUNK = 2
UNUSED = 3
FATES = ("afloat", "landed", "sunk")

# Decision kinds: one strategy function answers them all (``decide``).
LANE = 0
PLACE = 1
LEAK_VOTE = 2
MOVE_VOTE = 3
OVERBOARD_VOTE = 4
CHOOSE_LEAK = 5
CHOOSE_MOVE = 6
CHOOSE_OVERBOARD = 7
LOSE_PAWN = 8
SWIM_OUT = 9
SWIM_IN = 10
KINDS = (
    "lane",
    "place",
    "leak vote",
    "move vote",
    "overboard vote",
    "choose leak",
    "choose move",
    "choose overboard",
    "lose pawn",
    "swim out",
    "swim in",
)

# Tie rules (D13 of docs/lifeboats.md).
UNFINISHED = -1
NO_TIE = 0
OWN_BOAT_FIRST = 1
CLOCKWISE = 2
SHARED = 3
TIE_RULES = ("no tie", "own boat landed first", "clockwise from the first lander", "shared")


class BoatSlots(NamedTuple):
    LANE: int = 0
    ISLAND: int = 1
    STEPS: int = 2  # moves made
    STATE: int = 3  # AFLOAT, LANDED, SUNK or UNUSED
    LEAKS: int = 4
    PAWNS: int = 5  # pawns aboard, all seats and types
    FREE: int = 6  # free seats
    LEFT: int = 7  # 1 + the seat whose pawn swam out of it in this swim phase, 0 if none
    ORDER: int = 8  # landing order from 1 (public: everyone saw it land), 0 if not landed
    SIZE: int = 9


class SeatSlots(NamedTuple):
    HATS: int = 0  # hats left
    SCORE: int = 1
    RESERVE_OFFICERS: int = 2  # not yet placed
    RESERVE_SAILORS: int = 3
    SWIMMING: int = 4  # type of the pawn in the water during the swim phase, -1 if none
    HATLESS: int = 5  # 1 if this seat may never play a hat (restricted play), else 0
    SIZE: int = 6


class StateSlots(NamedTuple):
    PLAYERS: int = 0
    ROUND: int = 1  # from 1
    FIRST: int = 2  # the first player F of this round
    LEAKS_LEFT: int = 3
    BOAT: int = 4  # the boat of the current overboard vote or pawn loss, -1 otherwise
    SWIM_FROM: int = 5  # the boat the asked swimmer left, -1 otherwise
    LANDED: int = 6  # boats landed so far
    FIRST_LANDED: int = 7  # boat index, -1 if none yet
    SIZE: int = 8


class RuleSlots(NamedTuple):
    SEATS: int = 0  # seats per boat
    TRACK: int = 1  # track length
    LANES: int = 2
    HATS: int = 3
    LEAKS: int = 4
    ROUND_CAP: int = 5
    OFFICERS: int = 6  # officers per player at this player count
    SAILORS: int = 7  # sailors per player at this player count (``sailors``; a seat's own
    # number, which ``sailors_by_seat`` may change, is SEAT_SAILORS + seat)
    ISLANDS: int = 8
    LANE_ISLAND: int = 9  # LANE_ISLAND + l: island of lane l
    OFFICER_POINTS: int = 9 + MAX_LANES  # OFFICER_POINTS + i: an officer landed on island i
    SAILOR_POINTS: int = 9 + MAX_LANES + MAX_ISLANDS
    STAY_WITHOUT_SEAT: int = 9 + MAX_LANES + 2 * MAX_ISLANDS  # 1: no swimming to no seat
    SEAT_SAILORS: int = 10 + MAX_LANES + 2 * MAX_ISLANDS  # SEAT_SAILORS + s: seat s's sailors
    SIZE: int = 10 + MAX_LANES + 2 * MAX_ISLANDS + MAX_PLAYERS


Boat = BoatSlots()
Seat = SeatSlots()
State = StateSlots()
Rule = RuleSlots()


#: Rounds the record counts the hats played in, one by one; the last also counts every
#: later round (``hats_round_10+``).
HAT_ROUNDS = 10
#: The games table's columns of hats played in round 1, 2, ...; the last counts that round
#: and every later one.
HAT_ROUND_COLUMNS = [f"hats_round_{r}" for r in range(1, HAT_ROUNDS + 1)]


#: The records a block of games fills: kernels index them with the slots below, and
#: the engine, the reference engine and the record tables read them from here.
RECORDS = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("rounds", table=np.int16),
                Stat("finished", flag=True),
                Stat("winners", column=None),
                Derived("winners"),
                Stat("first_landed", column=None),  # boat, -1 if none landed
                Derived("first_landed"),  # by the boat's name
                Stat("boats_landed", table=np.int8),
                Stat("boats_sunk", table=np.int8),
                Stat("hat_decided", table=np.int16),  # ballots decided by a lone hat
                Stat("revotes", table=np.int16),  # ballots where every voter played a hat
                Stat("ties_broken", table=np.int16),  # ballots the first player's choice decided
                Stat("votes", table=np.int16),  # ballots, revotes included
                Stat("tie_rule", labels=TIE_RULES),
                Stat(  # HATS_ROUND + r - 1: hats played in round r (the last: r and later)
                    "hats_round",
                    HAT_ROUNDS,
                    record="hats_by_round",
                    table=np.int16,
                    column=HAT_ROUND_COLUMNS,
                ),
            ),
            order=(
                "game",
                "rounds",
                "finished",
                "winners",
                "first_landed",
                "boats_landed",
                "boats_sunk",
                "votes",
                "hat_decided",
                "revotes",
                "ties_broken",
                "tie_rule",
                *HAT_ROUND_COLUMNS,
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "seats",
            np.int32,
            axes=(SEAT,),
            entries=(
                Derived("strategy"),
                Stat("won", flag=True),
                Stat("score", table=np.int16),
                Stat("placed_officers", table=np.int16),
                Stat("placed_sailors", table=np.int16),
                Stat("saved_officers", table=np.int16),
                Stat("saved_sailors", table=np.int16),
                Stat("overboard", table=np.int16),  # pawns lost to an overboard vote
                Stat("sunk", table=np.int16),  # pawns drowned with a sinking boat
                Stat("no_seat", table=np.int16),  # swimmers with no free seat to reach
                Stat("hats_used", table=np.int16),
                Stat("hats_decisive", table=np.int16),  # ballots this seat's lone hat decided
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "boats",
            np.int32,
            axes=(Axis("boat", 1, per_seat=1),),  # each seat's boat, then the black boat
            entries=(
                Stat("lane", table=np.int8),
                Derived("island"),  # the lane's
                Stat("fate", labels=FATES),  # AFLOAT (at the cap), LANDED or SUNK
                Stat("round", table=np.int16),  # of landing or sinking, 0 if afloat
                Stat("aboard", table=np.int8),  # pawns aboard when it landed or sank
                Stat("order", table=np.int8),  # landing order from 1, 0 if it did not land
                Stat("leaks", table=np.int8),  # leaks aboard at the end or when it left the water
            ),
            record_prefix="boat_",
            slots_module=__name__,
        ),
    ),
    tables=("games", "seats", "boats"),
    length=("games", "rounds"),
)
GameStat = RECORDS["games"].slots
SeatStat = RECORDS["seats"].slots
BoatStat = RECORDS["boats"].slots
