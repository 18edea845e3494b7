"""Throughput of the game engines: games per second per engine, strategy and thread count.

Run from the project root:

    python scripts/bench.py                          # every game (a few minutes once compiled)
    python scripts/bench.py --quick                  # fewer games, for a quick look
    python scripts/bench.py --game la-planche --players 4
    python scripts/bench.py --json runs/bench.json   # also keep one record per measurement
    python scripts/bench.py --markdown               # also write docs/performance.md
    python scripts/bench.py --compare old.json       # measure, then print new / old ratios
    python scripts/bench.py --compare old.json new.json   # compare two records, no run
    python scripts/bench.py --sweep                  # a sweep against simulate, Dask's task cost
    python scripts/bench.py --tune                   # tune's games against exhaustive sweeps
    python scripts/bench.py --search --skill         # search players; a skill ladder's time
    python scripts/bench.py --saving                 # only what saving (--out) costs, per game

It prints the machine it ran on first, so that figures from different machines are
never compared blindly; every JSON record carries the machine, the versions and the
commit. Compilation is done (or loaded from the cache) before timing. Besides the
engines, it times two whole commands in a fresh interpreter: start-up (``balance games``)
and a million-game ``balance simulate``; and the peak memory and time of a run that saves
nothing and of one that saves (``--out``), at two numbers of games, and for every game the
wall and CPU time a run that saves takes against the same run saving nothing, in turns
(``--no-memory`` skips both; ``--saving`` measures only the latter).
With Walk the Plank at 5 players it also plays the same uniform-random games with
``scripts/wtp_fast.py`` (a minimal implementation of the rules written only for speed) in
turns with balance, and prints balance's share of its speed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.run.machine import describe as describe_machine

ROOT = Path(__file__).resolve().parents[1]

#: What each game is measured on: players, and (strategies, variants) cases. Strategies
#: joined by "+" fill the seats in order (the last one repeated, the surplus dropped),
#: rotated round the table. Battle of Thieves' cases name the decks as a variant
#: ("decks=A,B", a rule).
BOT_DECKS = "decks=cannon-battery,boarding-party"
PLAN: dict[str, tuple[tuple[int, ...], list[tuple[str, tuple[str, ...]]]]] = {
    "battle-of-thieves": (
        (2,),
        [
            ("random", (BOT_DECKS,)),
            ("random", ("decks=boarding-party,island-raiders",)),
            ("cannoneer", (BOT_DECKS,)),
            ("boarder", (BOT_DECKS,)),
            ("bailer", (BOT_DECKS,)),
            ("cannoneer+bailer", (BOT_DECKS,)),
        ],
    ),
    "walk-the-plank": (
        (3, 5),
        [
            ("random", ()),
            ("aggressor", ()),
            # A table of survivors never ends (nobody pushes): every game plays the round
            # cap. One survivor among random players plays games of ordinary length.
            ("survivor", ()),
            ("survivor+random", ()),
            ("greedy", ()),
            ("random", ("ghost", "dolphin", "kraken")),
        ],
    ),
    "la-planche": (
        (2, 4),
        [
            ("random", ()),
            ("protector", ()),
            ("detective", ()),
            ("detective+random", ()),
            ("random", ("rounds",)),
        ],
    ),
    "lifeboats": (
        (3, 5),
        [
            ("random", ()),
            ("steward", ()),
            ("hatkeeper", ()),
            ("swimmer", ()),
            ("steward+hatkeeper+swimmer+random", ()),
        ],
    ),
}
#: Games per measurement (before --quick), where a case's games are slow to play.
GAMES = {
    "cannoneer": 20_000,
    "boarder": 20_000,
    "bailer": 20_000,
    "cannoneer+bailer": 20_000,
    "protector": 100_000,
    "detective": 100_000,
    "detective+random": 100_000,
    "steward": 50_000,
    "hatkeeper": 50_000,
    "swimmer": 50_000,
    "steward+hatkeeper+swimmer+random": 50_000,
}
#: Whole commands timed in a fresh interpreter (wall clock, best of the repeats).
COMMANDS = (
    "balance games",
    "balance simulate walk-the-plank -p 5 -g 1000000",
)

#: Runs whose peak memory and time are measured in a fresh interpreter, without and with
#: saving (``--out``): games, and the games of ``--quick``. A run that saves nothing keeps
#: running sums only, so its peak should not grow with the games.
MEMORY_RUN = "balance simulate walk-the-plank -p 5 --json -g"
MEMORY_GAMES = ((1_000_000, 3_000_000), (100_000, 300_000))

#: Runs timed without and with saving (``--out``), in turns: game, its options (each
#: game's default players, rules and strategies but Walk the Plank's 5 players, the run
#: above) and games (a tenth with ``--quick``), so that each plain run lasts a few seconds.
SAVING_RUNS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("walk-the-plank", ("-p", "5"), 1_000_000),
    ("la-planche", (), 1_000_000),
    ("lifeboats", (), 300_000),
    ("battle-of-thieves", (), 100_000),
)

#: The yardstick: balance's Walk the Plank against ``scripts/wtp_fast.py``, a minimal
#: single-file implementation of the same rules, on the same games per measurement.
YARDSTICK_PLAYERS = 5
YARDSTICK_GAMES = 1_000_000
#: The variants the yardstick's command-line rows switch on (the yardstick plays base rules).
YARDSTICK_VARIANTS: tuple[tuple[str, ...], ...] = ((), ("kraken",))

#: What identifies a measurement across runs (the rest is its result and context).
KEY = ("kind", "engine", "game", "players", "strategies", "variants", "threads", "command")


# --- context: machine, versions, commit ----------------------------------------------------


def machine() -> dict[str, Any]:
    """The processor, its cores, the operating system and the load when the run started."""
    about = describe_machine()
    return {key: about[key] for key in ("cpu", "cores", "system", "load")}


def versions() -> dict[str, str]:
    """Python's and the libraries' versions that decide the engines' speed."""
    import numba
    import numpy as np

    import balance

    return {
        "balance": balance.__version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
    }


def commit() -> str:
    """The git commit measured, with ``+changes`` when the work tree differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def context(quick: bool) -> dict[str, Any]:
    """What every record of this run carries besides its own measurement."""
    return {
        "machine": machine(),
        "versions": versions(),
        "commit": commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "quick": quick,
    }


def machine_line(ctx: Mapping[str, Any]) -> str:
    """The machine, versions, commit and date as one line."""
    m, v = ctx["machine"], ctx["versions"]
    return (
        f"machine: {m['cpu']}, {m['cores']} cores, {m['system']}; Python {v['python']}, "
        f"numba {v['numba']}, numpy {v['numpy']}; balance {v['balance']} at commit "
        f"{ctx['commit']}; {ctx['date']}" + (" (--quick)" if ctx["quick"] else "")
    )


# --- measurements --------------------------------------------------------------------------


def best_rate(setup: Any, games: int, threads: int, repeat: int) -> float:
    """Best of ``repeat`` runs, in games per second (the least disturbed by the machine)."""
    from balance.run.runner import run_games

    rates = []
    for _ in range(repeat):
        result = run_games(setup, games, threads=threads, progress=False, keep_records=False)
        rates.append(result.games / result.elapsed_s)
    return max(rates)


def bot_reference(rules: Any, players: int, seed: int, game: int) -> Any:
    """A Battle of Thieves game on the reference engine, both seats random."""
    from balance.games.battle_of_thieves import reference as bot

    content = rules.content()
    return bot.play_game(
        rules, content, seed, game, make_player=lambda seat, stream: bot.RandomPlayer(stream)
    )


def reference_player(game_id: str) -> Callable[..., Any]:
    """``play(rules, players, seed, game)`` on the game's readable reference engine."""
    if game_id == "battle-of-thieves":
        return bot_reference
    if game_id == "walk-the-plank":
        from balance.games.walk_the_plank.reference import play_game
    elif game_id == "la-planche":
        from balance.games.la_planche.reference import play_game
    else:
        from balance.games.lifeboats.reference import play_game
    return play_game


def record(
    ctx: Mapping[str, Any], kind: str, rate: float | None = None, **fields: Any
) -> dict[str, Any]:
    """One measurement: its key fields, its result and the run's context."""
    out: dict[str, Any] = {name: fields.get(name) for name in KEY if name != "kind"}
    out["kind"] = kind
    out.update({k: v for k, v in fields.items() if k not in out})
    if rate is not None:
        out["games_per_s"] = rate
    out.update(ctx)
    return out


def engine_records(
    ctx: Mapping[str, Any],
    game_ids: Sequence[str],
    players_asked: Sequence[int] | None,
    threads_list: Sequence[int],
    scale: float,
    repeat: int,
) -> Iterable[dict[str, Any]]:
    """Each engine measurement of the plan, as it is made."""
    from balance.api import make_setup
    from balance.games import get_game

    for game_id in game_ids:
        game = get_game(game_id)
        counts, cases = PLAN[game_id]
        for players in players_asked or counts:
            for strategy, variants in cases:
                lineup = strategy.split("+")
                lineup = (lineup + [lineup[-1]] * players)[:players]
                rules = [tuple(v.split("=", 1)) for v in variants if "=" in v]
                named = [v for v in variants if "=" not in v]
                setup = make_setup(
                    game.id, players, 1, lineup, named, rules, rotate_seats=len(set(lineup)) > 1
                )
                game.prepare(setup)
                games = max(200, int(GAMES.get(strategy, 1_000_000) * scale))
                for threads in threads_list:
                    yield record(
                        ctx,
                        "engine",
                        best_rate(setup, games, threads, repeat),
                        engine="compiled",
                        game=game.id,
                        players=players,
                        strategies=strategy,
                        variants="+".join(variants) or "base",
                        threads=threads,
                        games=games,
                        repeats=repeat,
                    )
            first = cases[0][1]
            rules = [tuple(v.split("=", 1)) for v in first if "=" in v]
            setup = make_setup(game.id, players, 1, ["random"], (), rules)
            play = reference_player(game_id)
            count = max(200, int(2_000 * scale))
            clock = time.perf_counter()
            for g in range(count):
                play(setup.rules, players, 1, g)
            yield record(
                ctx,
                "engine",
                count / (time.perf_counter() - clock),
                engine="reference",
                game=game.id,
                players=players,
                strategies="random",
                variants="+".join(first) or "base",
                threads=1,
                games=count,
                repeats=1,
            )


def load_yardstick() -> Any:
    """``scripts/wtp_fast.py`` as a module (beside this script; the library never uses it)."""
    import importlib.util

    if "wtp_fast" not in sys.modules:
        spec = importlib.util.spec_from_file_location("wtp_fast", ROOT / "scripts" / "wtp_fast.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["wtp_fast"] = module  # numba finds compiled functions' module by name
        spec.loader.exec_module(module)
    return sys.modules["wtp_fast"]


def yardstick_records(
    ctx: Mapping[str, Any],
    scale: float,
    repeat: int,
    players: int = YARDSTICK_PLAYERS,
    variants_list: Sequence[tuple[str, ...]] = YARDSTICK_VARIANTS,
) -> Iterable[dict[str, Any]]:
    """Balance against the yardstick: uniform-random Walk the Plank, base rules, one thread.

    Balance plays through the runner as ``balance simulate --threads 1`` does (records kept
    as a plain simulate keeps them: per game, and the per-card counts its summary prints);
    ``scripts/wtp_fast.py`` plays the same number of games with none of that. The two take
    turns, ``repeat`` times each, so that both meet the same load; each rate is the best of
    its turns, and the ratio is balance's over the yardstick's (``cpu_ratio``: the same
    from processor time, which other work on the machine disturbs less).
    """
    from balance.api import make_setup
    from balance.games import get_game

    fast = load_yardstick()
    setup = make_setup("walk-the-plank", players, 1, ["random"] * players, (), ())
    get_game("walk-the-plank").prepare(setup)
    fast.play(players, 10)  # compile, or load from numba's cache
    games = max(200, int(YARDSTICK_GAMES * scale))
    from balance.run.runner import run_games

    def yardstick_turn(theirs: list[float], theirs_cpu: list[float]) -> None:
        cpu, clock = time.process_time(), time.perf_counter()
        fast.play(players, games)
        theirs_cpu.append(games / (time.process_time() - cpu))
        theirs.append(games / (time.perf_counter() - clock))

    def yardstick_record(rate: float, theirs: list[float], **fields: Any) -> dict[str, Any]:
        return record(
            ctx,
            "yardstick",
            rate,
            engine="compiled",
            game="walk-the-plank",
            players=players,
            strategies="random",
            threads=1,
            games=games,
            repeats=repeat,
            yardstick="scripts/wtp_fast.py",
            yardstick_games_per_s=max(theirs),
            ratio=rate / max(theirs),
            **fields,
        )

    ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
    for _ in range(repeat):
        cpu = time.process_time()
        result = run_games(setup, games, threads=1, progress=False, keep_records=False)
        ours_cpu.append(games / (time.process_time() - cpu))
        ours.append(games / result.elapsed_s)
        yardstick_turn(theirs, theirs_cpu)
    yield yardstick_record(
        max(ours),
        theirs,
        variants="base",
        # The same per second of processor time: steadier than the wall clock on a
        # machine busy with other work, which takes turns on the cores.
        cpu_ratio=max(ours_cpu) / max(theirs_cpu),
    )
    # Through the command line as a designer runs it, its summary's per-card figures
    # included, base rules and with a variant: the rate the command itself reports
    # (start-up and compiling are the "command" rows' business), in turns with the
    # yardstick's base rules.
    cli = [sys.executable, "-c", "from balance.cli import main; main()"]
    for variants in variants_list:
        switched = [a for v in variants for a in ("-v", v)]
        simulate = ["simulate", "walk-the-plank", "-p", str(players), "--threads", "1", "--json"]
        args = [*simulate, "-g", str(games), *switched]
        program = [*cli, *args]
        warm = [*cli, *simulate, "-g", "100", *switched]
        subprocess.run(warm, capture_output=True, check=True)  # compile or load once
        ours, theirs, theirs_cpu = [], [], []
        for _ in range(repeat):
            done = subprocess.run(program, capture_output=True, check=True, text=True)
            ours.append(float(json.loads(done.stdout)["games_per_s"]))
            yardstick_turn(theirs, theirs_cpu)
        yield yardstick_record(
            max(ours),
            theirs,
            variants="+".join(variants) or "base",
            command="balance " + " ".join(args),
        )


def command_records(ctx: Mapping[str, Any], repeat: int, quick: bool) -> Iterable[dict[str, Any]]:
    """Wall time of whole commands, each in a fresh interpreter (best of ``repeat``)."""
    for command in COMMANDS:
        args = command.split()
        if quick:
            args = [("100000" if a == "1000000" else a) for a in args]
        program = [sys.executable, "-c", "from balance.cli import main; main()", *args[1:]]
        subprocess.run(program, capture_output=True, check=True)  # compile or load once
        times = []
        for _ in range(repeat):
            clock = time.perf_counter()
            subprocess.run(program, capture_output=True, check=True)
            times.append(time.perf_counter() - clock)
        games = next((int(a) for a in args if a.isdigit() and int(a) >= 1000), None)
        yield record(
            ctx,
            "command",
            None,
            command=" ".join(args),
            seconds=min(times),
            games=games,
            repeats=repeat,
        )


#: Put before a measured child's code: at exit it writes its peak resident memory (Linux's
#: VmHWM, in KB) to the file named by ``BENCH_PEAK``. The resource usage ``wait4`` gives
#: would not do: a child's ru_maxrss starts at its parent's size when it was spawned.
PEAK_PREFIX = """
import atexit, os
def _peak():
    with open("/proc/self/status") as status:
        kb = next(line.split()[1] for line in status if line.startswith("VmHWM"))
    with open(os.environ["BENCH_PEAK"], "w") as out:
        out.write(kb)
if os.path.exists("/proc/self/status"):
    atexit.register(_peak)
"""


#: A fresh interpreter's ``balance`` command line.
CLI = "from balance.cli import main; main()"


def measure_child(code: str, args: Sequence[str] = ()) -> tuple[float, float, float]:
    """Run ``python -c code args`` to its end: ``(wall seconds, CPU seconds, peak resident
    MB)`` of that process alone (its own peak where /proc tells it, else ru_maxrss)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="balance-bench-") as where:
        peak_file = Path(where) / "peak"
        env = dict(os.environ, BENCH_PEAK=str(peak_file))
        program = [sys.executable, "-c", PEAK_PREFIX + code, *args]
        with tempfile.TemporaryFile() as errors:
            clock = time.perf_counter()
            with subprocess.Popen(
                program, stdout=subprocess.DEVNULL, stderr=errors, env=env
            ) as child:
                _, status, usage = os.wait4(child.pid, 0)
                wall = time.perf_counter() - clock
                child.returncode = os.waitstatus_to_exitcode(status)
            errors.seek(0)
            error = errors.read().decode(errors="replace")
        if child.returncode != 0:
            raise SystemExit(f"error: {' '.join(args)} failed: {error.strip()[-300:]}")
        if peak_file.exists():
            peak = int(peak_file.read_text()) / 1024
        else:  # no /proc: ru_maxrss, KB on Linux and bytes on macOS
            peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return wall, usage.ru_utime + usage.ru_stime, peak


def memory_records(ctx: Mapping[str, Any], quick: bool) -> Iterable[dict[str, Any]]:
    """Peak memory and time of a run that saves nothing and of one that saves its records
    (``--out``), at two numbers of games, each in a fresh interpreter (compiled)."""
    import tempfile

    for games in MEMORY_GAMES[1 if quick else 0]:
        with tempfile.TemporaryDirectory(prefix="balance-bench-") as where:
            for saving in (False, True):
                args = [*MEMORY_RUN.split()[1:], str(games)]
                args += ["--out", str(Path(where) / "run")] if saving else []
                wall, cpu, peak = measure_child(CLI, args)
                saved = sum(p.stat().st_size for p in (Path(where) / "run").glob("*"))
                yield record(
                    ctx,
                    "memory",
                    None,
                    command=f"{MEMORY_RUN} {games}" + (" --out DIR" if saving else ""),
                    games=games,
                    saving=saving,
                    seconds=wall,
                    cpu_seconds=cpu,
                    peak_mb=peak,
                    saved_mb=saved / 1e6 if saving else 0.0,
                )


def saving_records(
    ctx: Mapping[str, Any], repeat: int, quick: bool, only: Sequence[str] | None = None
) -> Iterable[dict[str, Any]]:
    """Per game of :data:`SAVING_RUNS` (those ``only`` names, if given): ``balance simulate
    --json`` without and with ``--out``, in turns in fresh interpreters (compiled),
    ``repeat`` times each; the least wall time, CPU time and peak memory of each (so that
    other work on the machine cancels in the ratios), and the Parquet each table of the
    saved run takes."""
    import tempfile

    for game, options, games in SAVING_RUNS:
        if only and game not in only:
            continue
        games = games // 10 if quick else games
        args = ["simulate", game, *options, "--json", "-g", str(games)]
        # Per run, without and with saving: the least wall, CPU and peak memory seen.
        best = {saving: [math.inf, math.inf, math.inf] for saving in (False, True)}
        with tempfile.TemporaryDirectory(prefix="balance-bench-") as where:
            out = Path(where) / "run"
            for saves in ([], ["--out", str(out)]):  # compiled (or loaded) before the clock
                few = [*args[:-1], "1000", *saves]
                subprocess.run([sys.executable, "-c", CLI, *few], capture_output=True, check=True)
            for _ in range(repeat):
                for saving in (False, True):
                    saves = ["--out", str(out)] if saving else []
                    measured = measure_child(CLI, [*args, *saves])
                    best[saving] = [min(pair) for pair in zip(best[saving], measured, strict=True)]
            parquet = {p.stem: p.stat().st_size / 1e6 for p in sorted(out.glob("*.parquet"))}
        (plain_wall, plain_cpu, plain_peak), (saved_wall, saved_cpu, saved_peak) = best.values()
        yield record(
            ctx,
            "saving",
            None,
            game=game,
            players=int(options[1]) if options else None,
            command="balance " + " ".join(args),
            games=games,
            repeats=repeat,
            seconds=plain_wall,
            cpu_seconds=plain_cpu,
            saving_seconds=saved_wall,
            saving_cpu_seconds=saved_cpu,
            wall_ratio=saved_wall / plain_wall,
            cpu_ratio=saved_cpu / plain_cpu,
            peak_mb=plain_peak,
            saving_peak_mb=saved_peak,
            parquet_mb=parquet,
        )


def save_costs(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per number of games, what saving (``--out``) adds to the same run: wall time and
    CPU time, as a share of the run that saves nothing."""
    runs = {(r["games"], r["saving"]): r for r in records if r["kind"] == "memory"}
    costs = []
    for (games, saving), saved in sorted(runs.items()):
        plain = runs.get((games, False))
        if not saving or plain is None:
            continue
        costs.append(
            {
                "games": games,
                "wall": saved["seconds"] / plain["seconds"] - 1.0,
                "cpu": saved["cpu_seconds"] / plain["cpu_seconds"] - 1.0,
                "saved_mb": saved["saved_mb"],
            }
        )
    return costs


# --- text, Markdown and comparison ---------------------------------------------------------


def row_text(r: Mapping[str, Any]) -> str:
    """One measurement as a line of the printed table."""
    if r["kind"] == "command":
        return f"{'command':<10} {r['command']:<97} {r['seconds']:>10.2f} s"
    if r["kind"] == "memory":
        return (
            f"{'memory':<10} {r['command']:<71} {r['peak_mb']:>8,.0f} MB peak "
            f"{r['seconds']:>7.2f} s {r['cpu_seconds']:>7.2f} s CPU"
        )
    if r["kind"] == "saving":
        tables = ", ".join(f"{name} {mb:,.1f}" for name, mb in r["parquet_mb"].items())
        peak = ""
        if "peak_mb" in r:  # records of every run but the first --saving ones
            peak = f"peak {r['saving_peak_mb']:,.0f} / {r['peak_mb']:,.0f} MB; "
        return (
            f"{'saving':<10} {r['command']:<71} {r['seconds']:>6.2f} s, with --out "
            f"{r['saving_seconds']:>6.2f} s: {r['wall_ratio']:.2f}x wall, "
            f"{r['cpu_ratio']:.2f}x CPU ({r['saving_cpu_seconds']:.2f} / "
            f"{r['cpu_seconds']:.2f} s); {peak}Parquet MB: {tables}"
        )
    if r["kind"] == "yardstick":
        return (
            f"{'yardstick':<10} {r['game']} {r['players']}p {r['strategies']} {r['variants']}"
            + (" (command line)" if r.get("command") else " (runner)")
            + ", "
            f"{r['threads']} thread, {r['games']:,} games: balance {r['games_per_s']:,.0f} "
            f"games/s, {r['yardstick']} {r['yardstick_games_per_s']:,.0f} games/s, "
            f"ratio {r['ratio']:.2f}"
            + (f" (processor time: {r['cpu_ratio']:.2f})" if "cpu_ratio" in r else "")
        )
    return (
        f"{r['engine']:<10} {r['game']:<17} {r['players']:>7} {r['strategies']:<34} "
        f"{r['variants']:<36} {r['threads']:>7} {r['games_per_s']:>12,.0f}"
    )


def thread_scaling(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """For each engine measurement taken at one thread and at more: how many times one
    thread's games a second the more threads give (2 threads: 2.0 is perfect)."""
    ones = {
        (r["game"], r["engine"], r["players"], r["strategies"], r["variants"]): r
        for r in records
        if r["kind"] == "engine" and r["threads"] == 1
    }
    scaling = []
    for r in records:
        key = (r.get("game"), r.get("engine"), r.get("players"), r.get("strategies"))
        one = ones.get((*key, r.get("variants")))
        if r["kind"] == "engine" and r["threads"] > 1 and one is not None:
            scaling.append({**r, "ratio": r["games_per_s"] / one["games_per_s"]})
    return scaling


def scaling_text(s: Mapping[str, Any]) -> str:
    return (
        f"{'scaling':<10} {s['game']} {s['players']}p {s['strategies']} {s['variants']}: "
        f"{s['threads']} threads give {s['ratio']:.2f} times one thread's games a second"
    )


HEADER = (
    f"{'engine':<10} {'game':<17} {'players':>7} {'strategy':<34} {'variants':<36} "
    f"{'threads':>7} {'games/s':>12}"
)

INTRO = """# Performance

How many games a second each engine plays, per game, player count, strategy, variants and
thread count. Written by `python scripts/bench.py --markdown`: rerun it on your machine
(`--json FILE` keeps the records, `--compare OLD.json` prints the ratios against an earlier
run). Figures depend on the machine and on its load; compare runs of one machine only.
"""

NOTES = """
## Reading the table

Each strategy fills every seat; "survivor + random" is one survivor among random players,
"detective + random" one detective among random players, "steward + hatkeeper + swimmer +
random" Lifeboats' four strategies at one table (the surplus dropped at 3 players; rotated
round the table). Battle of Thieves is measured on the example decks (the "variants"
column names them). Each figure is the best of its repeats, through the runner
(`balance.run.runner.run_games`, no records kept), after the engine is compiled or loaded from
numba's cache.

Games per second depend on how long games last. A table of survivors never finishes
(nobody pushes), so each of its games plays the full 100-round cap; even one survivor
among four random players stretches a game several-fold. Lifeboats' heuristics estimate
every boat's landing chance at every decision, which makes them three to seven times
slower than random play; Battle of Thieves' heuristics bail and repair well enough
that most of their games run to the 200-turn cap (random games last about 20 turns).

The "reference" rows play the readable Python reference engines (the tests' oracle): the
compiled engines play the same games, record for record, a few hundred times faster.
The "command" rows are whole commands in a fresh interpreter, start-up included, with the
engine already compiled: `balance games` imports no engine, and a `balance simulate`
loads only its own game.

The yardstick row plays uniform-random Walk the Plank (base rules) twice in turns:
through balance's runner on one thread, recording what `balance simulate` records, and
with `scripts/wtp_fast.py`, a minimal single-file implementation of the same rules
written only for speed (a random stream in four local words, the board in one 64-bit
word, no per-game or per-card records beyond winners and length; the test suite checks
that its win rates and game lengths agree with balance's). The ratio says how close
balance comes to the speed the rules allow on this machine; its processor-time twin
divides games by the processor time each spent, which other work on a busy machine
disturbs less than the wall clock. The `balance simulate` rows run the command line in a
fresh interpreter, as a designer does (base rules, then the Kraken variant, the summary's
per-card figures included), and take the rate the command reports for its games, in turns
with the yardstick on base rules.

The first run on a new machine compiles each game's engine: on this 2-core machine with
nothing else running, about 80 s for Walk the Plank, 45 s for La Planche, a minute for
Lifeboats and 95 to 130 s for Battle of Thieves (several times longer on a busy machine);
later runs load it from numba's cache. `balance` says when it compiles.

Each row is measured on its own, minutes after the one above it: on a machine whose speed
drifts (this one's does, by a third), a two-thread figure can come out more than twice
its one-thread twin. Compare rows of one run with care, and runs of one machine only.
"""


MEMORY_NOTES = """
Peak memory is the largest resident set of the whole process (Python, numba, the libraries
and the blocks of games in flight). A run that saves nothing keeps running sums only
(counts, sums, sums of squares and cross-products, length histograms: see
docs/memory.md), so its peak does not grow with the games; one that saves writes a Parquet
row group of each table per block as blocks arrive, so its peak stops growing once the
blocks reach their full size (32,768 games). Saving costs CPU time, which on 2 busy cores
shows as wall time too: encoding and compressing a 5-player game's 16 rows (the game, its
5 seats and its 10 cards summed over the seats, some 110 values; Parquet spends 10 to 25
ns a value) and building them take about half the processor time playing the game does.
"Saving adds" is against the whole command, start-up (about a second) included: against
the playing alone, saving costs more.
"""


#: The line of ``docs/performance.md`` from which ``--markdown`` keeps the page as it is:
#: sections measured by hand (with their own date and load) below the generated tables.
KEEP_MARK = "<!-- bench.py --markdown keeps everything below this line -->"


def kept_sections(path: Path) -> str:
    """What ``path`` holds from :data:`KEEP_MARK` on (the mark included), or nothing."""
    if not path.is_file():
        return ""
    text = path.read_text()
    at = text.find(KEEP_MARK)
    return "" if at < 0 else "\n" + text[at:]


def markdown(records: Sequence[Mapping[str, Any]], note: str = "") -> str:
    """``docs/performance.md``: the machine, date and versions, then the tables."""
    if not records:
        raise SystemExit("no measurements to write")
    ctx = records[0]
    v, m = ctx["versions"], ctx["machine"]
    lines = [
        INTRO,
        f"Measured on {m['cpu']}, {m['cores']} cores, {m['system']}; Python {v['python']}, "
        f"numba {v['numba']}, numpy {v['numpy']}, balance {v['balance']} (commit "
        f"{ctx['commit']}), {ctx['date']}.",
    ]
    load = m.get("load")
    if load is not None:
        lines.append(
            f"\nLoad average when the run started: {load:g} on {m['cores']} cores"
            + (
                " (the machine was busy with other work: every figure below is lower than "
                "the same machine gives when quiet)."
                if load > m["cores"]
                else "."
            )
        )
    if ctx["quick"]:
        lines.append(
            "\nThese figures come from a `--quick` run (a tenth of the games a measurement, "
            "best of two): rougher than a full run."
        )
    if note:
        lines.append(f"\n{note}")
    engines = [r for r in records if r["kind"] == "engine"]
    if engines:
        lines += [
            "",
            "| game | engine | players | strategy | variants | threads | games | games/s |",
            "|---|---|---:|---|---|---:|---:|---:|",
        ]
        for r in engines:
            strategy = r["strategies"].replace("+", " + ")
            variants = r["variants"].replace("decks=", "").replace(",", " v ")
            lines.append(
                f"| {r['game']} | {r['engine']} | {r['players']} | {strategy} | {variants} | "
                f"{r['threads']} | {r['games']:,} | {r['games_per_s']:,.0f} |"
            )
    scaling = thread_scaling(records)
    if scaling:
        lines += [
            "",
            "Threads against one thread, the same engine, strategy and variants (numpy's BLAS "
            "is kept to one thread while games play, so that it does not spin on the game "
            "threads' cores):",
            "",
            "| game | engine | players | strategy | variants | threads | times one thread |",
            "|---|---|---:|---|---|---:|---:|",
        ]
        for r in scaling:
            lines.append(
                f"| {r['game']} | {r['engine']} | {r['players']} | {r['strategies']} | "
                f"{r['variants']} | {r['threads']} | {r['ratio']:.2f} |"
            )
    yardsticks = [r for r in records if r["kind"] == "yardstick"]
    if yardsticks:
        lines += [
            "",
            "Against the yardstick, `scripts/wtp_fast.py` (see below), in turns in one run:",
            "",
            "| game | players | strategy | variants | through | threads | games "
            "| balance games/s | yardstick games/s | ratio | ratio, processor time |",
            "|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in yardsticks:
            lines.append(
                f"| {r['game']} | {r['players']} | {r['strategies']} | {r['variants']} | "
                + ("`balance simulate`" if r.get("command") else "runner")
                + f" | {r['threads']} | {r['games']:,} | {r['games_per_s']:,.0f} | "
                f"{r['yardstick_games_per_s']:,.0f} | {r['ratio']:.2f} | "
                + (f"{r['cpu_ratio']:.2f} |" if "cpu_ratio" in r else "– |")
            )
    commands = [r for r in records if r["kind"] == "command"]
    if commands:
        lines += ["", "| command (fresh interpreter, compiled) | wall time |", "|---|---:|"]
        for r in commands:
            lines.append(f"| `{r['command']}` | {r['seconds']:.2f} s |")
    memory = [r for r in records if r["kind"] == "memory"]
    saving = [r for r in records if r["kind"] == "saving"]
    if memory or saving:
        lines += ["", "## Memory and the cost of saving"]
    if memory:
        lines += [
            "",
            "| command (fresh interpreter, compiled) | peak memory | wall time | CPU time |",
            "|---|---:|---:|---:|",
        ]
        for r in memory:
            lines.append(
                f"| `{r['command']}` | {r['peak_mb']:,.0f} MB | {r['seconds']:.2f} s | "
                f"{r['cpu_seconds']:.2f} s |"
            )
        lines += ["", "| games | saving adds (wall) | saving adds (CPU) | Parquet written |"]
        lines.append("|---:|---:|---:|---:|")
        for c in save_costs(records):
            lines.append(
                f"| {c['games']:,} | {c['wall']:+.0%} | {c['cpu']:+.0%} | {c['saved_mb']:,.0f} MB |"
            )
        lines.append(MEMORY_NOTES)
    if saving:
        lines += [
            "",
            "Each game's `balance simulate --json` with `--out DIR` against the same run "
            "saving nothing, in turns in fresh interpreters (best of "
            f"{saving[0]['repeats']} each; each game's default players, rules and strategies):",
            "",
            "| command | games | wall time | with `--out` | ratio | CPU ratio | Parquet written |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in saving:
            lines.append(
                f"| `{r['command']}` | {r['games']:,} | {r['seconds']:.2f} s | "
                f"{r['saving_seconds']:.2f} s | {r['wall_ratio']:.2f} | {r['cpu_ratio']:.2f} | "
                f"{sum(r['parquet_mb'].values()):,.1f} MB |"
            )
    lines.append(NOTES)
    return "\n".join(lines)


def key_of(r: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(r.get(name) for name in KEY)


def _without_load(machine: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in machine.items() if k != "load"}


def comparison(old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> str:
    """Each measurement in both runs: old, new and new / old (above 1: faster now)."""
    before = {key_of(r): r for r in old}
    lines = []
    if old and new:
        lines += [f"old: {machine_line(old[0])}", f"new: {machine_line(new[0])}"]
        # The load average is the run's weather, not the machine.
        if _without_load(old[0]["machine"]) != _without_load(new[0]["machine"]):
            lines.append("warning: different machines; the ratios compare machines too")
    lines.append(f"{'measurement':<90} {'old':>12} {'new':>12} {'speed-up':>9}")
    matched = 0
    for r in new:
        o = before.get(key_of(r))
        if o is None:
            continue
        matched += 1
        if r["kind"] == "memory":
            name = f"peak memory: {r['command']}"
            old_v, new_v = o["peak_mb"], r["peak_mb"]
            ratio = old_v / new_v if new_v > 0 else math.nan
            shown = f"{old_v:>9,.0f} MB {new_v:>9,.0f} MB"
        elif r["kind"] == "saving":
            name = f"saving (time with --out / without): {r['command']}"
            old_v, new_v = o["wall_ratio"], r["wall_ratio"]
            ratio = old_v / new_v if new_v > 0 else math.nan
            shown = f"{old_v:>11.2f}x {new_v:>11.2f}x"
        elif r["kind"] == "command":
            name = f"command: {r['command']}"
            old_v, new_v = o["seconds"], r["seconds"]
            ratio = old_v / new_v if new_v > 0 else math.nan
            shown = f"{old_v:>10.2f} s {new_v:>10.2f} s"
        else:
            name = (
                ("yardstick: " if r["kind"] == "yardstick" else "")
                + f"{r['engine']} {r['game']} {r['players']}p {r['strategies']} "
                f"{r['variants']} {r['threads']}t"
            )
            old_v, new_v = o["games_per_s"], r["games_per_s"]
            ratio = new_v / old_v if old_v > 0 else math.nan
            shown = f"{old_v:>12,.0f} {new_v:>12,.0f}"
        lines.append(f"{name:<90} {shown} {ratio:>8.2f}x")
    lines.append(
        f"{matched} measurements in both runs ({len(new) - matched} only in the new, "
        f"{len(old) - matched} only in the old); speed-up = old time / new time"
    )
    return "\n".join(lines)


def load(path: Path) -> list[dict[str, Any]]:
    """Records written by ``--json``; a one-line error if the file is not such a list."""
    try:
        records = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise SystemExit(f"error: cannot read {path}: {error}") from None
    if (
        not isinstance(records, list)
        or not records
        or not all(isinstance(r, dict) and "kind" in r for r in records)
    ):
        raise SystemExit(f"error: {path} does not hold bench.py --json records")
    return records


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games per measurement")
    parser.add_argument("--game", choices=sorted(PLAN), nargs="*", default=None)
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: per game)")
    parser.add_argument("--threads", type=int, nargs="*", help="thread counts (default: 1, all)")
    parser.add_argument("--no-commands", action="store_true", help="skip the command timings")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip peak memory and the cost of saving"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the records here")
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="JSON",
        help="measure nothing: take the records of an earlier --json run (for --markdown)",
    )
    parser.add_argument(
        "--markdown",
        type=Path,
        nargs="?",
        const=ROOT / "docs" / "performance.md",
        metavar="FILE",
        help="write the tables as Markdown (default file: docs/performance.md)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        nargs="+",
        metavar="JSON",
        help="OLD: print new / old ratios after measuring; OLD NEW: compare two files only",
    )
    parser.add_argument(
        "--note", default="", help="a paragraph the Markdown page adds under its header"
    )
    parser.add_argument(
        "--sweep", action="store_true", help="measure balance sweep instead (bench_sweep.py)"
    )
    parser.add_argument(
        "--tune",
        action="store_true",
        help="measure balance tune's games against exhaustive sweeps instead (bench_tune.py)",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="measure the search players instead (bench_search.py); with --skill, the ladder too",
    )
    parser.add_argument(
        "--skill",
        action="store_true",
        help="time a five-rung skill ladder of 4-player Walk the Plank (bench_search.py)",
    )
    parser.add_argument(
        "--saving",
        action="store_true",
        help="measure only what saving (--out) costs each game, in turns with runs that do not",
    )
    args = parser.parse_args(argv)
    if args.search or args.skill:
        import bench_search  # beside this script

        ctx = context(args.quick)
        print(machine_line(ctx))
        found = bench_search.measure(
            quick=args.quick, games=args.game, skill=args.skill, search=args.search
        )
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps([{**r, **ctx} for r in found], indent=1) + "\n")
            print(f"wrote {len(found)} records to {args.json}")
        return
    if args.sweep:
        import bench_sweep  # beside this script

        print(machine_line(context(args.quick)))
        bench_sweep.measure(quick=args.quick)
        return
    if args.tune:
        import bench_tune  # beside this script

        print(machine_line(context(args.quick)))
        sys.exit(0 if bench_tune.measure(quick=args.quick) else 1)
    if args.compare and len(args.compare) > 2:
        parser.error("--compare takes OLD.json, or OLD.json NEW.json")
    old = load(args.compare[0]) if args.compare else None
    if args.compare and len(args.compare) == 2:
        print(comparison(old or [], load(args.compare[1])))
        return

    if args.source:
        records = load(args.source)
        print("\n".join([machine_line(records[0]), HEADER, *map(row_text, records)]))
        finish(args, records, old)
        return

    from balance.run.runner import default_threads

    ctx = context(args.quick)
    repeat = 2 if args.quick else 3
    if args.saving:
        if args.markdown:
            parser.error("--markdown writes a full run's page; --saving measures one part")
        print(machine_line(ctx))
        records = []
        for r in saving_records(ctx, repeat, args.quick, args.game):
            print(row_text(r), flush=True)
            records.append(r)
        finish(args, records, old)
        return
    scale = 0.1 if args.quick else 1.0
    threads_list = args.threads or sorted({1, default_threads()})
    games = args.game or sorted(PLAN, reverse=True)
    if args.players:  # a count a game does not play: one line and exit 2, before measuring
        from balance.core.errors import BalanceError
        from balance.games import get_game

        for game in map(get_game, games):
            try:
                for players in args.players:
                    game.check_players(players)
            except BalanceError as error:
                parser.error(str(error))
    print(machine_line(ctx))
    print(HEADER)
    records = []
    for r in engine_records(ctx, games, args.players, threads_list, scale, repeat):
        print(row_text(r), flush=True)
        records.append(r)
    for s in thread_scaling(records):
        print(scaling_text(s))
    if "walk-the-plank" in games and YARDSTICK_PLAYERS in (args.players or [YARDSTICK_PLAYERS]):
        for r in yardstick_records(ctx, scale, repeat):
            print(row_text(r), flush=True)
            records.append(r)
    if not args.no_commands:
        for r in command_records(ctx, repeat, args.quick):
            print(row_text(r), flush=True)
            records.append(r)
    if not args.no_memory:
        for r in memory_records(ctx, args.quick):
            print(row_text(r), flush=True)
            records.append(r)
        for c in save_costs(records):
            print(
                f"{'saving':<10} --out adds {c['wall']:+.0%} wall, {c['cpu']:+.0%} CPU at "
                f"{c['games']:,} games ({c['saved_mb']:,.0f} MB of Parquet)"
            )
        for r in saving_records(ctx, repeat, args.quick, args.game):
            print(row_text(r), flush=True)
            records.append(r)
    finish(args, records, old)


def finish(
    args: argparse.Namespace,
    records: Sequence[Mapping[str, Any]],
    old: Sequence[Mapping[str, Any]] | None,
) -> None:
    """Write the records as JSON and Markdown, and compare them, as asked."""
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(records, indent=1) + "\n")
        print(f"wrote {len(records)} records to {args.json}")
    if args.markdown:
        args.markdown.write_text(markdown(records, args.note) + kept_sections(args.markdown))
        print(f"wrote {args.markdown}")
    if old is not None:
        print(comparison(old, records))


if __name__ == "__main__":
    main()
