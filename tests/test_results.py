"""Runs on disk: Parquet records, manifest and summary, read back and rerun."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from balance import api
from balance.core.errors import BalanceError
from balance.core.game import seating_orders
from balance.games import get_game
from balance.games.walk_the_plank.cards import CARD_NAMES
from balance.run import play
from balance.run.results import RunWriter, load_run
from balance.run.runner import run_games

GAME = get_game("walk-the-plank")
RUN_FILES = {"games.parquet", "seats.parquet", "cards.parquet", "manifest.json", "summary.json"}
GAMES_COLUMNS = [
    "game",
    "rounds",
    "finished",
    "winners",
    "ghost_seat",
    "dolphin_face",
    "kraken_calm",
    "kraken_wave",
    "kraken_kraken",
    "kraken_killed",
]
SEATS_COLUMNS = ["game", "seat", "strategy", "won", "pirates_left", "cards_with_effect"]
CARDS_COLUMNS = ["game", "card", "revealed", "effect", "killed_own", "killed_others", "saved"]

OPTIONS = dict(
    players=4,
    games=700,
    seed=31,
    strategies=["aggressor", "weighted:leader=3,own_safety=0.5", "random", "survivor"],
    variants=["ghost", "kraken"],
    rules={"rest": "charge,run", "plank_max": 4, "round_cap": 60},
    rotate_seats=True,
    threads=2,
    batch=128,
)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory):
    directory = tmp_path_factory.mktemp("run") / "kraken"  # does not exist yet
    run = api.simulate("walk-the-plank", out=directory, **OPTIONS)
    return run, directory


def test_a_run_directory_holds_records_manifest_and_summary(saved) -> None:
    _, directory = saved
    assert {p.name for p in directory.iterdir()} == RUN_FILES
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["game"] == "walk-the-plank"
    assert (manifest["players"], manifest["seed"]) == (4, 31)
    assert manifest["games"] == manifest["requested_games"] == 700
    assert manifest["partial"] is False
    assert manifest["variants"] == ["ghost", "kraken"]
    assert manifest["rules"]["rest"] == ["run", "charge"]  # card order
    assert manifest["rules"]["plank_max"] == 4 and manifest["rules"]["kraken"] is True
    assert manifest["rotate_seats"] is True
    assert manifest["tables"] == ["cards", "games", "seats"]
    assert [s["label"] for s in manifest["strategies"]] == [
        "aggressor",
        "weighted(own_safety=0.5,leader=3)",
        "random",
        "survivor",
    ]
    assert manifest["strategies"][1]["params"]["leader"] == 3.0
    assert manifest["strategies"][1]["params"]["own_alive"] == 4.0  # default kept
    assert manifest["balance_version"]


def test_load_run_rebuilds_the_setup(saved) -> None:
    run, directory = saved
    loaded = load_run(directory)
    setup = loaded.setup
    assert setup.rules == run.setup.rules
    assert setup.rules.plank_max == 4 and setup.rules.rest == ("run", "charge")
    assert setup.players == 4 and setup.seed == 31
    assert setup.lineup.labels == run.setup.lineup.labels
    assert setup.lineup.rotate is True
    assert [s.values for s in setup.lineup.seats] == [s.values for s in run.setup.lineup.seats]
    assert setup == run.setup
    assert loaded.games == 700


def test_the_loaded_setup_replays_the_same_games(saved) -> None:
    _, directory = saved
    loaded = load_run(directory)
    again = api.Run(run_games(loaded.setup, loaded.games, progress=False, threads=1))
    for name in ("games", "seats", "cards"):
        pd.testing.assert_frame_equal(again._table(name), loaded.table(name), check_like=False)


def test_tables_have_a_row_per_game_seat_or_card(saved) -> None:
    run, directory = saved
    loaded = load_run(directory)
    games, seats, cards = (loaded.table(name) for name in ("games", "seats", "cards"))
    assert list(games.columns) == GAMES_COLUMNS
    assert list(seats.columns) == SEATS_COLUMNS
    assert list(cards.columns) == CARDS_COLUMNS
    assert len(games) == 700 and len(seats) == 700 * 4 and len(cards) == 700 * 10
    assert games["game"].tolist() == list(range(700))
    assert sorted(cards["card"].astype(str).unique()) == sorted(CARD_NAMES)
    # The tables on disk are the run's own tables.
    pd.testing.assert_frame_equal(games, run.games)
    pd.testing.assert_frame_equal(seats, run.seats)
    pd.testing.assert_frame_equal(cards, run.cards)


def test_tables_agree_with_each_other(saved) -> None:
    _, directory = saved
    loaded = load_run(directory)
    games, seats = loaded.table("games"), loaded.table("seats")
    winners = seats.groupby("game")["won"].sum()
    assert winners.tolist() == games["winners"].tolist()
    # A card had an effect in a game if and only if some seat has its bit, and at least
    # once for each such seat.
    cards = loaded.table("cards").set_index(["game", "card"])
    bits = seats["cards_with_effect"].to_numpy()
    for c, name in enumerate(CARD_NAMES):
        seats_with = pd.Series((bits >> c) & 1, index=seats["game"]).groupby(level=0).sum()
        effects = cards.xs(name, level="card")["effect"]
        assert ((effects > 0) == (seats_with > 0)).all(), name
        assert (effects >= seats_with).all(), name
    assert (bits > 0).any()
    # Rotation: game i plays order i % 24 of the 4 strategies (every order once in 24).
    labels = loaded.setup.lineup.labels
    orders = seating_orders(4)
    expected = [labels[orders[g % 24, s]] for g in range(700) for s in range(4)]
    assert seats["strategy"].astype(str).tolist() == expected


def test_seat_wins_on_disk_match_the_summary(saved) -> None:
    _, directory = saved
    summary = json.loads((directory / "summary.json").read_text())
    seats = load_run(directory).table("seats")
    wins = seats.groupby("seat")["won"].sum()
    for row in summary["seat_win_rate"]:
        assert wins[row["seat"]] == round(row["rate"] * summary["games"])
    assert summary["games"] == 700
    assert wins.sum() > 0


def test_summary_json_is_the_run_summary(saved) -> None:
    run, directory = saved
    on_disk = json.loads((directory / "summary.json").read_text())
    expected = json.loads(json.dumps(run.summary(), allow_nan=True))
    for key in ("elapsed_s", "games_per_s"):
        on_disk.pop(key), expected.pop(key)
    assert on_disk.keys() == expected.keys()
    for key in on_disk:
        assert json.dumps(on_disk[key]) == json.dumps(expected[key]), key


def one_line_error(excinfo: pytest.ExceptionInfo) -> str:
    message = str(excinfo.value)
    assert message and "\n" not in message
    return message


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(BalanceError, match="does not exist") as caught:
        load_run(tmp_path / "nowhere")
    assert "nowhere" in one_line_error(caught)


def test_directory_without_manifest(tmp_path: Path) -> None:
    (tmp_path / "games.parquet").write_bytes(b"")
    with pytest.raises(BalanceError, match=r"not a balance run.*manifest\.json") as caught:
        load_run(tmp_path)
    one_line_error(caught)


@pytest.mark.parametrize(
    "text",
    ["{not json", "", "[]", "null", '{"game": "walk-the-plank"}'],
    ids=["syntax", "empty", "list", "null", "incomplete"],
)
def test_corrupt_manifest(tmp_path: Path, text: str) -> None:
    (tmp_path / "manifest.json").write_text(text)
    with pytest.raises(BalanceError, match="is corrupt") as caught:
        load_run(tmp_path)
    assert "manifest.json" in one_line_error(caught)


def copy_run(directory: Path, target: Path, **changes) -> Path:
    target.mkdir()
    for path in directory.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update(changes)
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target


def test_manifest_with_an_unknown_game(saved, tmp_path: Path) -> None:
    _, directory = saved
    copy = copy_run(directory, tmp_path / "chess", game="chess")
    with pytest.raises(BalanceError, match="unknown game 'chess'") as caught:
        load_run(copy)
    one_line_error(caught)


def test_manifest_with_an_invalid_rule(saved, tmp_path: Path) -> None:
    _, directory = saved
    rules = dict(json.loads((directory / "manifest.json").read_text())["rules"], plank_max=99)
    copy = copy_run(directory, tmp_path / "rules", rules=rules)
    with pytest.raises(BalanceError, match="plank_max") as caught:
        load_run(copy)
    one_line_error(caught)


def test_missing_table(saved, tmp_path: Path) -> None:
    _, directory = saved
    copy = copy_run(directory, tmp_path / "no-cards")
    (copy / "cards.parquet").unlink()
    loaded = load_run(copy)  # the manifest alone is fine
    assert len(loaded.table("games")) == 700
    with pytest.raises(BalanceError, match=r"no cards records \(cards.parquet\)") as caught:
        loaded.table("cards")
    one_line_error(caught)


def test_unreadable_table(saved, tmp_path: Path) -> None:
    _, directory = saved
    copy = copy_run(directory, tmp_path / "garbage")
    (copy / "seats.parquet").write_bytes(b"this is not parquet at all")
    with pytest.raises(BalanceError, match="not a readable Parquet file") as caught:
        load_run(copy).table("seats")
    one_line_error(caught)


def test_a_new_run_replaces_the_old_one(tmp_path: Path) -> None:
    directory = tmp_path / "again"
    api.simulate("walk-the-plank", players=4, games=500, seed=1, out=directory)
    api.simulate("walk-the-plank", players=3, games=200, seed=2, out=directory, variants=["ghost"])
    assert {p.name for p in directory.iterdir()} == RUN_FILES
    loaded = load_run(directory)
    assert (loaded.games, loaded.setup.players, loaded.setup.seed) == (200, 3, 2)
    assert loaded.setup.rules.ghost is True
    assert len(loaded.table("games")) == 200
    assert len(loaded.table("seats")) == 200 * 3
    assert len(loaded.table("cards")) == 200 * 10
    summary = json.loads((directory / "summary.json").read_text())
    assert (summary["games"], summary["players"]) == (200, 3)


def test_saving_a_run_does_not_import_pandas(tmp_path: Path) -> None:
    """Records become Arrow arrays from their buffers: pyarrow's own conversion would
    import pandas (half a second of CPU time) though nothing a saved run does reads it."""
    code = (
        "import sys\nfrom balance import api\n"
        f"api.simulate('walk-the-plank', players=3, games=300, out={str(tmp_path)!r}, threads=1)\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cards.parquet").exists()
    assert done.stdout.strip() == "False"


def test_a_run_into_a_new_nested_directory(tmp_path: Path) -> None:
    directory = tmp_path / "a" / "b" / "c"
    api.simulate("walk-the-plank", players=2, games=50, out=directory)
    assert load_run(directory).games == 50


def test_a_run_directory_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(BalanceError, match="cannot create") as caught:
        api.simulate("walk-the-plank", players=2, games=50, out=blocker / "run")
    one_line_error(caught)


def fail_in_block(monkeypatch: pytest.MonkeyPatch, bad: int) -> None:
    """Make the block that starts at game ``bad`` stop with a user error, as an illegal
    choice does."""
    original = GAME.play_block

    def play_block(setup, first_game, size):
        if first_game == bad:
            raise BalanceError(f"strategy 'x' made an illegal choice in game {first_game}")
        return original(setup, first_game, size)

    monkeypatch.setattr(GAME, "play_block", play_block)


def test_a_run_stopped_by_an_error_is_saved_as_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_in_block(monkeypatch, 300)
    with pytest.raises(BalanceError, match="illegal choice in game 300"):
        api.simulate("walk-the-plank", players=3, games=1000, batch=100, threads=1, out=tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["partial"] is True
    assert "illegal choice in game 300" in manifest["error"]
    assert manifest["games"] in (100, 200, 300)  # blocks before the error, as far as handed on
    assert len(load_run(tmp_path).table("games")) == manifest["games"]


def test_a_run_stopped_by_an_error_leaves_no_summary_of_an_older_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api.simulate("walk-the-plank", players=3, games=5000, out=tmp_path)
    fail_in_block(monkeypatch, 300)
    with pytest.raises(BalanceError):
        api.simulate("walk-the-plank", players=3, games=1000, batch=100, threads=1, out=tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    summary_path = tmp_path / "summary.json"
    assert (
        not summary_path.exists()
        or json.loads(summary_path.read_text())["games"] == manifest["games"]
    )


def test_a_refused_run_leaves_an_existing_run_alone(tmp_path: Path) -> None:
    api.simulate("walk-the-plank", players=3, games=400, out=tmp_path)
    with pytest.raises(BalanceError, match="games must be"):
        api.simulate("walk-the-plank", players=3, games=0, out=tmp_path)
    assert (tmp_path / "games.parquet").exists()
    assert load_run(tmp_path).games == 400


def test_an_interruption_while_saving_keeps_records_and_summary_consistent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class InterruptedWriter(RunWriter):
        def __call__(self, block) -> None:
            super().__call__(block)
            if self.games >= 300:  # Ctrl-C lands just as the third block is written
                raise KeyboardInterrupt

    monkeypatch.setattr(play, "RunWriter", InterruptedWriter)
    run = api.simulate("walk-the-plank", players=3, games=1000, batch=100, threads=1, out=tmp_path)
    assert run.result.partial  # the interruption itself is handled
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert manifest["partial"] is True and summary["partial"] is True
    rows = len(load_run(tmp_path).table("games"))
    assert summary["games"] == manifest["games"] == rows


def test_summary_json_is_standard_json(tmp_path: Path) -> None:
    api.simulate("walk-the-plank", players=3, games=1, out=tmp_path)
    text = (tmp_path / "summary.json").read_text()

    def refuse(constant: str):
        raise ValueError(f"non-standard JSON constant {constant}")

    summary = json.loads(text, parse_constant=refuse)
    assert summary["length_sd"] is None


def test_a_manifest_with_too_few_strategies_is_a_one_line_error(saved, tmp_path: Path) -> None:
    _, directory = saved
    strategies = json.loads((directory / "manifest.json").read_text())["strategies"][:2]
    copy = copy_run(directory, tmp_path / "short", strategies=strategies, rotate_seats=False)
    with pytest.raises(BalanceError):
        loaded = load_run(copy)
        GAME.replay(loaded.setup, 0)


def test_tables_of_a_run_without_records_say_so() -> None:
    run = api.simulate("walk-the-plank", players=3, games=200, keep_records=False)
    assert math.isfinite(run.summary()["length_mean"])
    with pytest.raises(BalanceError):
        run.seats  # noqa: B018


def test_seats_table_of_a_run_where_seats_share_a_strategy() -> None:
    run = api.simulate(
        "walk-the-plank",
        players=4,
        games=200,
        strategies=["aggressor", "random", "random", "random"],
        rotate_seats=True,
    )
    assert len(run.games) == 200 and len(run.cards) == 200 * 10  # these tables work
    seats = run.seats
    assert len(seats) == 800
    assert sorted(seats["strategy"].astype(str).unique()) == ["aggressor", "random"]


def test_saved_seats_table_where_seats_share_a_strategy(tmp_path: Path) -> None:
    # The same records read back from Parquet are fine: the dictionary is rebuilt.
    run = api.simulate("walk-the-plank", players=2, games=64, seed=9, out=tmp_path)
    seats = load_run(tmp_path).table("seats")
    assert len(seats) == 128 and set(seats["strategy"].astype(str)) == {"random"}
    assert seats["won"].dtype == np.bool_
    assert seats["won"].sum() == round(sum(r["rate"] * 64 for r in run.summary()["seat_win_rate"]))


def test_a_parameter_takes_a_word_and_the_label_shows_it_back() -> None:
    """A parameter with named values (a search player's rollout strategy) reads a word
    or a number, shows the word in the label, and names its words when given neither."""
    from balance.core.errors import BalanceError
    from balance.core.strategy import Strategy, parse_strategy

    searcher = Strategy(
        "walk-the-plank",
        "searcher",
        "test strategy",
        {},
        params=(("playouts", 8.0), ("rollout", 0.0)),
        code=99,
        param_choices={"rollout": {"random": 0.0, "greedy": 3.0}},
        param_bounds={"playouts": (1, 4096)},
    )
    shipped = {"searcher": searcher}
    seat = parse_strategy("searcher:rollout=greedy,playouts=4", shipped, "walk-the-plank")
    assert seat.values == (4.0, 3.0)
    assert seat.label == "searcher(playouts=4,rollout=greedy)"
    assert parse_strategy("searcher:rollout=3", shipped, "walk-the-plank").values == (8.0, 3.0)
    with pytest.raises(BalanceError, match="number or one of random, greedy, not 'best'"):
        parse_strategy("searcher:rollout=best", shipped, "walk-the-plank")
    with pytest.raises(BalanceError, match="'playouts' must be from 1 to 4096, not 0"):
        parse_strategy("searcher:playouts=0", shipped, "walk-the-plank")
    with pytest.raises(BalanceError, match="does not take: depth"):
        Strategy("walk-the-plank", "x", "x", {}, param_choices={"depth": {"a": 1.0}})
