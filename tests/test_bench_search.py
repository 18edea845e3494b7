"""scripts/bench_search.py: the search-player measurement's code path, with a heuristic
standing in for a search player (the search players ship per game), and the skill
ladder's rungs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from balance.games import get_game

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("bench_search", ROOT / "scripts" / "bench_search.py")
assert SPEC is not None and SPEC.loader is not None
bench_search = importlib.util.module_from_spec(SPEC)
sys.modules["bench_search"] = bench_search
SPEC.loader.exec_module(bench_search)


def test_a_heuristic_in_the_search_seat_is_measured_like_a_search_player() -> None:
    r = bench_search.measure_case("walk-the-plank", 4, "greedy", 16, "random", 48, 1)
    assert r["strategy"] == "greedy" and r["budget"] is None and r["games"] == 48
    assert r["games_per_s"] > 0 and r["decisions_per_game"] > 0
    assert r["decisions_per_s"] == pytest.approx(r["games_per_s"] * r["decisions_per_game"])
    assert "greedy" in bench_search.row_text(r)


def test_search_specs_name_the_budget_and_the_rollout() -> None:
    assert bench_search.spec("ismcts", 64, "greedy") == "ismcts:iterations=64,rollout=greedy"
    assert bench_search.spec("mc", 16, "random") == "mc:playouts=16,rollout=random"
    assert bench_search.spec("greedy", 16, "random") == "greedy"


def test_games_without_search_players_are_skipped_with_a_note(monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench_search, "search_players", lambda game: [])
    records = list(bench_search.search_records(["la-planche", "lifeboats"], (16,), True, 1))
    assert records == []
    out = capsys.readouterr().out
    assert "la-planche: ships no search player" in out and "lifeboats: ships no" in out


def test_a_game_with_a_search_player_measures_it_at_every_budget(monkeypatch) -> None:
    monkeypatch.setattr(bench_search, "search_players", lambda game: ["greedy"])
    records = list(bench_search.search_records(["walk-the-plank"], (16, 64), True, 1))
    assert [r["strategy"] for r in records] == ["greedy", "greedy"]
    assert all(r["games_per_s"] > 0 for r in records)


def test_the_skill_ladder_has_five_rungs_of_walk_the_plank() -> None:
    rungs, note = bench_search.skill_rungs()
    assert len(rungs) == 5 and rungs[0] == "random"
    shipped = get_game("walk-the-plank").strategies()
    assert all(r.partition(":")[0] in shipped for r in rungs)
    assert (note == "") == ("ismcts" in shipped)
