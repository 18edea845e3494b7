"""Games ``balance tune`` spends against an exhaustive ``balance sweep`` of the same space,
with the same verdicts.

Run from the project root (``scripts/bench.py --tune`` runs it too):

    python scripts/bench_tune.py            # spaces A, B and C (a few minutes)
    python scripts/bench_tune.py --quick    # spaces A and B, the exhaustive sweep only

For each space it plays, on all cores:

1. ``balance tune`` (every rule set raced: ``--search grid``);
2. the exhaustive sweep the docs show, 20,000 games a rule set, judged on its fixed-n
   intervals as ``balance sweep --target`` judges them;
3. (not with ``--quick``) the cheapest fixed-n sweep in hindsight: 1,024 x 2^k games a
   rule set, the first k whose verdicts settle every rule set the tune settled.

It prints the verdicts' agreement on every rule set both decided (anything short of all
is a failure: exit 1), the games each used and tune's share of them, and the seconds.
The goal: under 30% of the exhaustive sweep's games on spaces A and B.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from typing import Any

from bench import context, machine_line  # beside this script

from balance.analyses.sweep import sweep
from balance.analyses.tune import tune

#: Games a rule set of the exhaustive sweep plays (docs/sweeps.md's example).
EXHAUSTIVE = 20_000


@dataclass(frozen=True)
class Space:
    name: str
    game: str
    players: int
    axes: tuple[str, ...]
    targets: tuple[str, ...]


def _sailors() -> str:
    """Every list of 4 or 5 sailors for six seats (64 lists), Lifeboats' ``sailors_by_seat``."""
    return ";".join(",".join(map(str, seats)) for seats in itertools.product((5, 4), repeat=6))


SPACES = (
    Space(
        "A",
        "walk-the-plank",
        5,
        ("plank_max=3..6", "pirates_per_player=2..4"),
        ("balance_index>=0.95", "length_mean=6..10"),
    ),
    Space("B", "lifeboats", 6, (f"sailors_by_seat={_sailors()}",), ("balance_index>=0.95",)),
    Space(
        "C",
        "walk-the-plank",
        4,
        ("plank_max=3..8", "pirates_per_player=1..6"),
        ("length_mean=7.5..8.5",),
    ),
)


def verdict(verdicts: dict[str, str]) -> str:
    """A rule set's verdict from its targets': fail if any fails, pass if all pass."""
    values = set(verdicts.values())
    return "fail" if "fail" in values else "pass" if values == {"pass"} else "undecided"


def swept(space: Space, games: int) -> tuple[list[str], int, float]:
    clock = time.perf_counter()
    result = sweep(
        space.game,
        players=[space.players],
        axes=list(space.axes),
        targets=list(space.targets),
        games=games,
        charts=False,
    )
    seconds = time.perf_counter() - clock
    return [verdict(p["verdicts"]) for p in result.points], games * len(result.points), seconds


def agreement(tuned: list[str], other: list[str]) -> tuple[int, int]:
    """(rule sets decided by both, of which the verdicts agree)."""
    both = [(a, b) for a, b in zip(tuned, other, strict=True) if "undecided" not in (a, b)]
    return len(both), sum(a == b for a, b in both)


def measure_space(space: Space, quick: bool) -> dict[str, Any]:
    clock = time.perf_counter()
    result = tune(
        space.game,
        players=[space.players],
        axes=list(space.axes),
        targets=list(space.targets),
        search="grid",
        charts=False,
    )
    seconds = time.perf_counter() - clock
    tuned = [p["verdict"] for p in result.points]
    counts = {v: tuned.count(v) for v in ("pass", "fail", "undecided")}
    print(
        f"\nspace {space.name}: {space.game}, {space.players} players, "
        f"{len(tuned)} rule sets; targets {'; '.join(space.targets)}"
    )
    print(
        f"  tune: {result.games_total:,} games ({result.games_played:,} played with the "
        f"look-ahead), {seconds:.1f} s; {counts['pass']} pass, {counts['fail']} fail, "
        f"{counts['undecided']} undecided"
    )
    row: dict[str, Any] = {"space": space.name, "tune_games": result.games_total, "ok": True}
    exhaustive, games, sweep_seconds = swept(space, EXHAUSTIVE)
    both, same = agreement(tuned, exhaustive)
    row["ok"] &= both == same
    row["share"] = result.games_total / games
    print(
        f"  sweep, {EXHAUSTIVE:,} a rule set: {games:,} games, {sweep_seconds:.1f} s; "
        f"verdicts agree on {same} of the {both} rule sets both decided; tune used "
        f"{row['share']:.0%} of its games"
    )
    if quick:
        return row
    for k in range(0, 7):
        each = 1_024 * 2**k
        verdicts, games, sweep_seconds = swept(space, each)
        both, same = agreement(tuned, verdicts)
        settled = all(
            v != "undecided" for t, v in zip(tuned, verdicts, strict=True) if t != "undecided"
        )
        if settled or k == 6:
            row["ok"] &= both == same
            print(
                f"  cheapest sweep that settles what tune settled: {each:,} a rule set"
                + ("" if settled else " (the largest tried; still not all settled)")
                + f", {games:,} games, {sweep_seconds:.1f} s; verdicts agree on {same} of "
                f"{both}; tune used {result.games_total / games:.0%} of its games"
            )
            break
    return row


def measure(quick: bool = False) -> bool:
    """Every space, printed; False if any verdicts disagree or the goal is missed."""
    rows = [measure_space(s, quick) for s in (SPACES[:2] if quick else SPACES)]
    ok = all(r["ok"] for r in rows)
    for r in rows:
        if r["space"] in ("A", "B") and r["share"] >= 0.3:
            print(
                f"space {r['space']}: tune used {r['share']:.0%} of the sweep's games (goal < 30%)"
            )
            ok = False
    print("\nall verdicts agree; goal met" if ok else "\nFAILED: see above")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="spaces A and B, one sweep each")
    args = parser.parse_args()
    print(machine_line(context(args.quick)))
    sys.exit(0 if measure(args.quick) else 1)


if __name__ == "__main__":
    main()
