"""Runs on disk: per-game records as Parquet and a manifest that can rerun them.

A run directory holds one Parquet file per record table of the game (for Walk the
Plank: ``games``, ``seats``, ``cards``), ``manifest.json`` (game, players, rules,
variants, strategies, seating scheme, seed, games, version, whether the run was
interrupted) and ``summary.json`` (what ``balance simulate --json`` printed).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balance import __version__
from balance.core.errors import BalanceError
from balance.core.game import SEATINGS, Block, Lineup, Setup
from balance.core.lazy import pa, pd
from balance.core.strategy import SeatStrategy, load_strategy_file
from balance.games import get_game
from balance.run import machine

if TYPE_CHECKING:
    import pyarrow.parquet as pq
else:  # loaded when a run is saved or read back, not by a run that saves nothing
    from balance.core.lazy import LazyModule

    pq = LazyModule("pyarrow.parquet")

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
FORMAT = 1


class RunWriter:
    """Appends blocks to the run's Parquet files, a row group a block as blocks arrive;
    :meth:`close` waits for the last and writes the manifest."""

    def __init__(self, directory: Path, setup: Setup) -> None:
        self.directory = Path(directory)
        self.setup = setup
        self.game = get_game(setup.game)
        output_dir(self.directory)
        #: The run this one replaces, in words (``None`` if the directory held none).
        self.replaced: str | None = None
        if (self.directory / MANIFEST).exists():
            self.replaced = _described(self.directory / MANIFEST)
            # A new run replaces an old one wholesale; never mix two runs' records.
            for old in [*self.directory.glob("*.parquet"), self.directory / SUMMARY]:
                old.unlink(missing_ok=True)
            (self.directory / MANIFEST).unlink()
        self.writers: dict[str, pq.ParquetWriter] = {}
        # One thread a table: the tables of a block are encoded side by side (pyarrow
        # releases the GIL), each file's row groups in game order, while the next block's
        # tables are built; at most one block waits to be written, so memory stays flat.
        self._threads: dict[str, ThreadPoolExecutor] = {}
        self._pending: list[Future[None]] = []
        self.games = 0

    def __call__(self, block: Block) -> None:
        tables = self.game.tables(block, self.setup)
        self._wait()
        for name, table in tables.items():
            if name not in self.writers:
                self.writers[name] = pq.ParquetWriter(
                    self.directory / f"{name}.parquet", table.schema, **writer_options(table)
                )
                self._threads[name] = ThreadPoolExecutor(1, thread_name_prefix="parquet")
            write = self.writers[name].write_table
            self._pending.append(self._threads[name].submit(write, table))
        self.games += block.size

    def _wait(self) -> None:
        """Wait for the previous block's row groups; a failed write raises here."""
        pending, self._pending = self._pending, []
        for future in pending:
            future.result()

    def close(self, manifest: Mapping[str, Any], summary: Mapping[str, Any] | None) -> None:
        try:
            self._wait()
        finally:
            for thread in self._threads.values():
                thread.shutdown(wait=True)
            for writer in self.writers.values():
                writer.close()
        manifest = dict(manifest, games=self.games, tables=sorted(self.writers))
        write_json(self.directory / MANIFEST, manifest)
        if summary is not None:
            write_json(self.directory / SUMMARY, summary)


def writer_options(table: pa.Table) -> dict[str, Any]:
    """How a record table is written: zstd, integer columns delta-encoded (each value
    stored as its difference from the one before, in as few bits as the block needs), the
    others (labels) as dictionaries, and statistics for ``game`` alone (a reader can
    still skip row groups by game). Parquet's default, a dictionary and statistics for
    every column, took 1.5 to 1.8 times as long to encode every game's tables, for files
    of about the same size."""
    integers = [f.name for f in table.schema if pa.types.is_integer(f.type)]
    return {
        "compression": "zstd",
        "use_dictionary": [name for name in table.column_names if name not in integers],
        "column_encoding": dict.fromkeys(integers, "DELTA_BINARY_PACKED"),
        "write_statistics": ["game"] if "game" in table.column_names else False,
    }


def _described(path: Path) -> str:
    """A saved run in a few words, from its manifest: ``50,000 games of walk-the-plank,
    4 players, variants kraken``."""
    try:
        manifest = json.loads(path.read_text())
        variants = ", ".join(manifest.get("variants") or []) or "none"
        return (
            f"{int(manifest['games']):,} games of {manifest['game']}, "
            f"{manifest['players']} players, variants {variants}"
        )
    except (OSError, ValueError, KeyError, TypeError):
        return "a run whose manifest cannot be read"


def output_dir(out: str | Path, option: str = "--out", create: bool = True) -> Path:
    """The directory ``out`` that a command writes to, created (with its parents) before
    any game is played, so that a place that cannot be written is a one-line error
    (naming ``option``) at once, not a traceback after the games."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise BalanceError(f"{option} {str(path)!r} is a file, not a directory")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BalanceError(f"cannot create {str(path)!r}: {exc.strerror}") from None
    return path


def output_file(out: str | Path, option: str) -> Path:
    """The file ``out`` that a command writes to, checked before any game is played: its
    directory is created and the file opened for writing once (and removed again if it
    was not there), so that a file that cannot be written is a one-line error at once."""
    path = Path(out)
    if path.is_dir():
        raise BalanceError(f"{option} {str(path)!r} is a directory, not a file")
    if path.parent.exists() and not path.parent.is_dir():
        raise BalanceError(f"cannot write {str(path)!r}: {str(path.parent)!r} is a file")
    output_dir(path.parent, option)
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        raise BalanceError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    if not existed:
        path.unlink(missing_ok=True)
    return path


def write_output(path: Path, text: str) -> None:
    """Write ``text`` to the file ``path`` checked by :func:`output_file`; a failure
    (the disk full, the file removed from under us) is still a one-line error."""
    try:
        path.write_text(text)
    except OSError as exc:
        raise BalanceError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def json_safe(value: Any) -> Any:
    """NaN and infinities become null, so the JSON is standard."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(json_safe(data), indent=2, allow_nan=False) + "\n")


def manifest_for(setup: Setup, requested: int, partial: bool, **extra: Any) -> dict[str, Any]:
    """Everything needed to rerun ``setup``, with the package version and the machine.

    A game whose set-up depends on files (Battle of Thieves' decks) adds what identifies
    their contents (``Game.manifest_extra``), checked when the run is read back."""
    extra = {**get_game(setup.game).manifest_extra(setup), **extra}
    return {
        "format": FORMAT,
        "balance_version": __version__,
        "game": setup.game,
        "players": setup.players,
        "seed": setup.seed,
        "requested_games": requested,
        "partial": partial,
        "variants": list(setup.rules.variants),
        "rules": setup.rules.to_dict(),
        "strategies": [
            {
                "name": seat.strategy.name,
                "params": dict(zip((p for p, _ in seat.strategy.params), seat.values, strict=True)),
                "source": seat.source,
                "label": seat.label,
            }
            for seat in setup.lineup.seats
        ],
        "rotate_seats": setup.lineup.rotate,
        "seating": setup.lineup.seating,
        "restricted": list(setup.lineup.restricted),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine.one_line(with_load=False),
        **extra,
    }


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} is not a whole number: {value!r}")
    return value


def check_seating(manifest: Mapping[str, Any], lineup: Lineup, directory: Path) -> None:
    """A one-line error unless ``lineup`` seats the games as the saved run did.

    Manifests name their seating scheme (``seating``). One written before they did
    (balance 0.1.0) rotated seats cyclically, ``(s + i) % n``, and restricted seat
    ``i % n``: the same games as now only without rotation, or with two players and no
    restricted play; any other such run is refused, since its games cannot be replayed.
    """
    seating = manifest.get("seating")
    if seating is None:
        legacy_same = not lineup.rotate or (len(lineup.seats) <= 2 and not lineup.restricted)
        if not legacy_same:
            raise BalanceError(
                f"{str(directory)!r} was saved by an older balance that rotated seats "
                "cyclically (the same neighbours in every game); this version seats every "
                "order, so that run cannot be read back: play it again"
            )
    elif seating not in SEATINGS:
        raise ValueError(f"unknown seating {seating!r}; seatings: {', '.join(SEATINGS)}")
    elif seating != lineup.seating:
        raise ValueError(f"seating {seating!r} disagrees with rotate_seats")


@dataclass(frozen=True)
class SavedRun:
    """A run read back from disk."""

    directory: Path
    manifest: dict[str, Any]
    setup: Setup

    @property
    def games(self) -> int:
        return int(self.manifest["games"])

    def table(self, name: str) -> pd.DataFrame:
        """One record table as a DataFrame (categorical columns stay categorical)."""
        path = self.directory / f"{name}.parquet"
        if not path.exists():
            raise BalanceError(f"{str(self.directory)!r} has no {name} records ({path.name})")
        try:
            return pq.read_table(path).to_pandas()
        except (pa.ArrowInvalid, OSError) as exc:
            reason = " ".join(str(exc).split())  # pyarrow's messages may span lines
            reason = "".join(ch for ch in reason if ch.isprintable())
            raise BalanceError(f"{str(path)!r} is not a readable Parquet file: {reason}") from None


def load_run(directory: str | Path) -> SavedRun:
    """Read a run directory's manifest and rebuild its set-up; one-line errors if broken."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise BalanceError(f"{str(directory)!r} is a file, not a run directory")
    if not directory.is_dir():
        raise BalanceError(f"run directory {str(directory)!r} does not exist")
    path = directory / MANIFEST
    if not path.exists():
        inside = sorted(
            str(p.parent.relative_to(directory))
            for pattern in (f"*/{MANIFEST}", f"runs/*/{MANIFEST}")
            for p in directory.glob(pattern)
        )
        hint = f"; it holds the runs {', '.join(inside)}: name one of them" if inside else ""
        raise BalanceError(f"{str(directory)!r} is not a balance run: it has no {MANIFEST}{hint}")
    try:
        manifest = json.loads(path.read_text())
        game = get_game(manifest["game"])
        rules = game.rules_from_dict(manifest["rules"])
        shipped = game.strategies()
        seats = []
        for entry in manifest["strategies"]:
            if entry.get("source"):
                strategy = load_strategy_file(Path(entry["source"]), entry["name"], game.id)
            else:
                strategy = shipped[entry["name"]]
            values = tuple(float(entry["params"][name]) for name, _ in strategy.params)
            seats.append(SeatStrategy(strategy, values, entry.get("source", "")))
        players = _whole(manifest["players"], "players")
        if len(seats) != players:
            raise ValueError(f"{len(seats)} strategies for {players} players")
        if not isinstance(manifest["rotate_seats"], bool):
            raise ValueError("rotate_seats is not true or false")
        restricted = tuple(manifest.get("restricted", []))
        game.check_restricted(restricted)
        lineup = Lineup(tuple(seats), manifest["rotate_seats"], restricted)
        check_seating(manifest, lineup, directory)
        setup = Setup(
            game=game.id,
            players=players,
            rules=rules,
            lineup=lineup,
            seed=_whole(manifest["seed"], "seed"),
        )
        _whole(manifest["games"], "games")
        game.check_saved(setup, manifest, directory)
    except BalanceError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise BalanceError(f"{str(path)!r} is corrupt: {type(exc).__name__}: {exc}") from None
    return SavedRun(directory=directory, manifest=manifest, setup=setup)
