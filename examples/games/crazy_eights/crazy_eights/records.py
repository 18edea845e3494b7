"""Crazy Eights' records, declared once for both engines and the record tables."""

from __future__ import annotations

import numpy as np
from balance.core.records import SEAT, Axis, Derived, RecordArray, RecordLayout, Stat

from crazy_eights.rules import RANKS

RECORDS = RecordLayout(
    arrays=(
        RecordArray(
            "games",
            np.int32,
            entries=(
                Stat("turns"),
                Stat("finished", flag=True),
                Derived("winners"),
                Stat("winner", table=np.int8, missing=True),  # who emptied their hand, or -1
                Stat("blocked", flag=True),  # ended by a full round of passes
                Stat("reshuffles", table=np.int16),
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
                Stat("points", table=np.int16),  # penalty points held at the end
                Stat("turns", record="turns_taken"),
                Stat("played"),
                Stat("drawn"),
                Stat("eights"),  # eights played
                Stat("passes"),  # turns it could neither play nor draw
            ),
            slots_module=__name__,
        ),
        RecordArray(
            "cards",
            np.int32,
            axes=(SEAT, Axis("rank", len(RANKS), labels=RANKS)),
            entries=(Stat("plays"),),
            slots_module=__name__,
        ),
    ),
    tables=("games", "seats", "cards"),
    length=("games", "turns"),
)
GameStat = RECORDS["games"].slots
SeatStat = RECORDS["seats"].slots


#: turns, finished, winner, blocked, reshuffles; per seat won, points, turns_taken,
#: played, drawn, eights, passes; per seat and rank plays.
GameRecord = RECORDS.record_class(module=__name__)
