"""The runner: records independent of threads and block size, blocks in order, clean stops."""

from __future__ import annotations

import math
import re
import signal
import threading
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

from balance import api
from balance.core.errors import BalanceError
from balance.core.game import Block, seating_orders
from balance.games import get_game
from balance.games.walk_the_plank import engine_nb as nb
from balance.games.walk_the_plank.bridge import lineup_player_factory
from balance.games.walk_the_plank.engine import play_games
from balance.games.walk_the_plank.reference import play_game
from balance.run.runner import RunResult, run_games
from balance.run.summary import summarize

ROOT = Path(__file__).resolve().parents[1]
GAME = get_game("walk-the-plank")
ALL_VARIANTS = ("ghost", "dolphin", "kraken")


def uniform_setup(players: int = 4, seed: int = 11, variants=ALL_VARIANTS):
    return api.make_setup("walk-the-plank", players, seed=seed, variants=variants)


def mixed_setup(seed: int = 5):
    return api.make_setup(
        "walk-the-plank",
        4,
        seed=seed,
        strategies=["aggressor", "random", "greedy", "weighted:leader=2"],
        variants=("dolphin", "kraken"),
        rotate_seats=True,
    )


def arrays(result: RunResult) -> dict[str, np.ndarray]:
    """Every recorded array of the run, blocks joined in order."""
    blocks = result.blocks
    joined = {
        "length": np.concatenate([b.length for b in blocks]),
        "finished": np.concatenate([b.finished for b in blocks]),
        "won": np.concatenate([b.won for b in blocks]),
    }
    for name in ("games", "cards", "seats"):
        joined[name] = np.concatenate([b.extra[name] for b in blocks])
    return joined


def assert_same_records(a: RunResult, b: RunResult) -> None:
    left, right = arrays(a), arrays(b)
    assert left.keys() == right.keys()
    for name in left:
        assert left[name].shape == right[name].shape, name
        assert left[name].dtype == right[name].dtype, name
        np.testing.assert_array_equal(left[name], right[name], err_msg=name)


def assert_contiguous(blocks: list[Block], games: int) -> None:
    start = 0
    for block in blocks:
        assert block.first_game == start
        start += block.size
    assert start == games


def run(setup, games, **options) -> RunResult:
    return run_games(setup, games, progress=False, **options)


@pytest.mark.parametrize("make_setup", [uniform_setup, mixed_setup], ids=["random", "mixed"])
def test_records_do_not_depend_on_threads_or_batch(make_setup) -> None:
    setup = make_setup()
    games = 2000
    reference = run(setup, games, threads=1)
    assert_contiguous(reference.blocks, games)
    for threads, batch in [(1, 97), (2, 97), (2, 1000), (2, None)]:
        other = run(setup, games, threads=threads, batch=batch)
        assert other.threads == threads
        assert not other.partial
        assert_contiguous(other.blocks, games)
        if batch is not None:
            assert [b.size for b in other.blocks] == [batch] * (games // batch) + (
                [games % batch] if games % batch else []
            )
        assert_same_records(reference, other)


def test_a_different_seed_plays_different_games() -> None:
    # The comparison above would pass trivially if the seed were ignored.
    a = arrays(run(uniform_setup(seed=1), 300, threads=1))
    b = arrays(run(uniform_setup(seed=2), 300, threads=1))
    assert not np.array_equal(a["cards"], b["cards"])
    assert not np.array_equal(a["length"], b["length"])


def test_a_game_is_the_same_whatever_the_run_length() -> None:
    setup = mixed_setup()
    short = arrays(run(setup, 300, threads=2, batch=64))
    long = arrays(run(setup, 1000, threads=2, batch=256))
    for name, values in short.items():
        np.testing.assert_array_equal(values, long[name][:300], err_msg=name)


def test_blocks_are_the_engine_games_at_their_indices() -> None:
    setup = mixed_setup()
    result = run(setup, 500, threads=2, batch=97)
    block = result.blocks[3]
    assert block.first_game == 3 * 97
    direct = play_games(setup.rules, 4, setup.seed, block.size, block.first_game, setup.lineup)
    np.testing.assert_array_equal(block.extra["games"], direct.games)
    np.testing.assert_array_equal(block.extra["cards"], direct.cards)
    np.testing.assert_array_equal(block.extra["seats"], direct.seats)
    np.testing.assert_array_equal(block.length, direct.games[:, nb.GameStat.ROUNDS])
    np.testing.assert_array_equal(block.won, direct.seats[:, :, 0] == 1)


def test_rotation_seats_order_i_mod_n_factorial_in_game_i() -> None:
    names = ["aggressor", "survivor", "greedy"]
    rotated = api.make_setup("walk-the-plank", 3, seed=3, strategies=names, rotate_seats=True)
    records = arrays(run(rotated, 60, threads=1))
    orders = seating_orders(3)
    for game in (0, 1, 2, 3, 31, 59):
        # Game i plays order i % 3!: the same as a fixed line-up so ordered.
        fixed_names = [names[k] for k in orders[game % 6]]
        fixed = api.make_setup("walk-the-plank", 3, seed=3, strategies=fixed_names)
        direct = play_games(fixed.rules, 3, 3, 1, game, fixed.lineup)
        np.testing.assert_array_equal(records["cards"][game], direct.cards[0])
        np.testing.assert_array_equal(records["games"][game], direct.games[0])
    # And the rotation matters: game 1 of the rotated run is not game 1 of the fixed line-up.
    unrotated = api.make_setup("walk-the-plank", 3, seed=3, strategies=names)
    direct = play_games(unrotated.rules, 3, 3, 1, 1, unrotated.lineup)
    assert not np.array_equal(records["cards"][1], direct.cards[0])


def test_a_calm_kraken_die_changes_nothing() -> None:
    """The dice have their own stream: a Kraken game whose rolls were all calm is the base game."""
    base = arrays(run(uniform_setup(players=2, seed=8, variants=()), 3000, threads=2))
    kraken = arrays(run(uniform_setup(players=2, seed=8, variants=("kraken",)), 3000, threads=2))
    stat = nb.GameStat
    calm = (kraken["games"][:, stat.KRAKEN_WAVE] == 0) & (
        kraken["games"][:, stat.KRAKEN_KRAKEN] == 0
    )
    assert calm.sum() >= 20 and (~calm).sum() >= 20
    assert np.all(kraken["games"][calm, stat.KRAKEN_CALM] >= 1)  # the die was rolled
    without_calm = kraken["games"].copy()
    without_calm[:, stat.KRAKEN_CALM] = 0
    for name in ("length", "finished", "won", "cards", "seats"):
        np.testing.assert_array_equal(kraken[name][calm], base[name][calm], err_msg=name)
    np.testing.assert_array_equal(without_calm[calm], base["games"][calm])
    # Waves and krakens do change games.
    changed = [
        g for g in np.flatnonzero(~calm) if not np.array_equal(kraken["cards"][g], base["cards"][g])
    ]
    assert len(changed) > 0.5 * (~calm).sum()


class ProgramLog:
    """Wraps each seat's player in the reference engine and records its programs."""

    def __init__(self, lineup, rules, game: int) -> None:
        self.programs: list[tuple[int, int, list[int]]] = []
        self.factory = lineup_player_factory(lineup, rules, game)

    def make_player(self, seat, stream):
        player = self.factory(seat, stream)
        log = self.programs

        class Logged:
            def program(self, pos, seat, available):
                cards = player.program(pos, seat, available)
                log.append((pos.round, seat, list(cards)))
                return cards

            def choose(self, *args):
                return player.choose(*args)

            def choose_dolphin_step(self, *args):
                return player.choose_dolphin_step(*args)

        return Logged()


def test_switching_the_kraken_on_keeps_the_first_round_programs() -> None:
    later_rounds_differ = 0
    for game in range(20):
        logs = []
        for variants in ((), ("kraken",)):
            setup = api.make_setup(
                "walk-the-plank",
                3,
                seed=4,
                strategies=["random", "greedy", "survivor"],
                variants=variants,
            )
            log = ProgramLog(setup.lineup, setup.rules, game)
            play_game(setup.rules, 3, setup.seed, game, make_player=log.make_player)
            logs.append(log.programs)
        base, kraken = logs
        first = [entry for entry in base if entry[0] == 1]
        assert len(first) == 3
        assert [entry for entry in kraken if entry[0] == 1] == first
        later_rounds_differ += base != kraken
    assert later_rounds_differ > 0  # the Kraken does change later rounds


def summaries_equal(a: dict, b: dict) -> None:
    def clean(value):
        if isinstance(value, float) and math.isnan(value):
            return "nan"
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [clean(v) for v in value]
        if isinstance(value, np.floating):
            return clean(float(value))
        return value

    skip = {"elapsed_s", "games_per_s"}
    assert clean({k: v for k, v in a.items() if k not in skip}) == clean(
        {k: v for k, v in b.items() if k not in skip}
    )


@pytest.mark.parametrize("make_setup", [uniform_setup, mixed_setup], ids=["random", "mixed"])
def test_keeping_no_records_keeps_the_summary(make_setup) -> None:
    setup = make_setup()
    full = run(setup, 1500, threads=2, batch=200, keep_records=True)
    slim = run(setup, 1500, threads=2, batch=200, keep_records=False)
    # The slim run really dropped the per-seat records.
    assert "seats" not in slim.blocks[0].extra
    assert slim.blocks[0].extra["cards"].ndim < full.blocks[0].extra["cards"].ndim
    summary = summarize(full)
    summaries_equal(summary, summarize(slim))
    assert summary["games"] == 1500
    if setup.lineup.mixed:
        assert "strategy_win_rate" in summary
    else:
        assert {"ghost_rate", "dolphin_faces"} <= summary.keys()


def test_sinks_receive_blocks_in_game_order(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = uniform_setup()
    original = GAME.play_block
    finished_order: list[int] = []
    lock = threading.Lock()

    def slow_early_blocks(setup, first_game, size):
        if first_game < 300:  # the first blocks finish last
            time.sleep(0.3)
        block = original(setup, first_game, size)
        with lock:
            finished_order.append(first_game)
        return block

    monkeypatch.setattr(GAME, "play_block", slow_early_blocks)
    seen: list[Block] = []
    also_seen: list[int] = []
    result = run(
        setup,
        2000,
        threads=2,
        batch=100,
        sinks=[seen.append, lambda block: also_seen.append(block.first_game)],
    )
    assert finished_order != sorted(finished_order)  # blocks did finish out of order
    starts = [block.first_game for block in seen]
    assert starts == sorted(starts) == list(range(0, 2000, 100))
    assert also_seen == starts
    assert_contiguous(seen, 2000)
    assert [b.first_game for b in result.blocks] == starts
    for given, kept in zip(seen, result.blocks, strict=True):
        np.testing.assert_array_equal(given.extra["cards"], kept.extra["cards"])


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"games": 0}, r"games must be .* not 0"),
        ({"games": -5}, r"games must be .* not -5"),
        ({"games": True}, r"games must be .* not True"),
        ({"games": 2.5}, r"games must be .* not 2\.5"),
        ({"games": 10, "threads": 0}, r"threads must be .* not 0"),
        ({"games": 10, "threads": -1}, r"threads must be .* not -1"),
        ({"games": 10, "batch": 0}, r"batch must be .* not 0"),
    ],
)
def test_bad_run_sizes_are_refused(options: dict, pattern: str) -> None:
    calls = []
    with pytest.raises(BalanceError, match=pattern) as caught:
        run_games(uniform_setup(), sinks=[calls.append], progress=False, **options)
    assert "\n" not in str(caught.value)
    assert calls == []


def test_an_interruption_keeps_the_blocks_handed_over_before_it() -> None:
    setup = mixed_setup()
    handed: list[int] = []

    def interrupting_sink(block: Block) -> None:
        handed.append(block.first_game)
        if len(handed) == 2:
            raise KeyboardInterrupt

    result = run(setup, 3000, threads=2, batch=100, sinks=[interrupting_sink])  # no exception
    assert result.partial
    assert result.requested == 3000
    assert handed == [0, 100]
    # A block a sink has seen (saved to disk, say) belongs to the run, even if the
    # interruption came while the sink held it.
    assert [block.first_game for block in result.blocks] == [0, 100]
    assert result.games == 200
    complete = run(setup, 3000, threads=1, batch=100)
    for kept, whole in zip(result.blocks, complete.blocks[:2], strict=True):
        for name in ("games", "cards", "seats"):
            np.testing.assert_array_equal(kept.extra[name], whole.extra[name])
    # The pool's threads are gone once the runner returns.
    assert not [t for t in threading.enumerate() if t.name.startswith("balance")]
    summary = summarize(result)
    assert summary["partial"] is True
    assert (summary["games"], summary["requested_games"]) == (200, 3000)


def test_an_interruption_in_the_first_block_keeps_only_that_block() -> None:
    def interrupt_at_once(block: Block) -> None:
        raise KeyboardInterrupt

    result = run(uniform_setup(), 1000, threads=2, batch=100, sinks=[interrupt_at_once])
    assert result.partial and [b.first_game for b in result.blocks] == [0]
    assert summarize(result)["games"] == 100


def test_ctrl_c_stops_between_blocks_and_keeps_a_whole_prefix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handed: list[int] = []
    played: list[int] = []
    pressed = threading.Event()
    original = GAME.play_block

    def play_block(setup, first_game, size):
        played.append(first_game)
        # Blocks after the first two wait for Ctrl-C, so exactly six blocks are handed to
        # the pool before it: four at the start, one more as each of blocks 0 and 100 ends.
        if first_game >= 200:
            assert pressed.wait(timeout=120)
        return original(setup, first_game, size)

    def sink(block: Block) -> None:
        handed.append(block.first_game)
        if len(handed) == 2:
            # The user presses Ctrl-C. raise_signal delivers it to this thread and runs the
            # handler before returning, so the stop never races the thread pool (os.kill
            # may hand it to any thread, whose handler then runs some blocks later).
            signal.raise_signal(signal.SIGINT)
            pressed.set()
            handed.append(-1)  # the sink itself is not cut short

    monkeypatch.setattr(GAME, "play_block", play_block)
    # A process started in the background by a shell inherits Ctrl-C ignored; the run must
    # give back whatever handler it found, so the test starts from Python's usual one.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = run(uniform_setup(), 100_000, threads=2, batch=100, sinks=[sink])
        after = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, before)
    assert result.partial
    starts = [block.first_game for block in result.blocks]
    # A whole prefix, in order: blocks 0 and 100, then those of blocks 200-500 that were
    # already running when Ctrl-C came (which, depends on the threads; no more are started).
    assert starts == list(range(0, 100 * len(starts), 100))
    assert 2 <= len(starts) <= 6
    assert handed == [0, 100, -1, *starts[2:]]
    assert max(played) <= 500
    assert result.games == 100 * len(starts)
    assert after is signal.default_int_handler


def test_an_error_names_the_earliest_failing_game(monkeypatch: pytest.MonkeyPatch) -> None:
    original = GAME.play_block

    def play_block(setup, first_game, size):
        if first_game == 300:
            time.sleep(0.5)  # the earlier failing block is slower to fail
        if first_game in (300, 400):
            raise BalanceError(f"illegal choice in game {first_game}")
        return original(setup, first_game, size)

    monkeypatch.setattr(GAME, "play_block", play_block)
    with pytest.raises(BalanceError) as caught:
        run(uniform_setup(), 1000, threads=2, batch=100)
    assert str(caught.value) == "illegal choice in game 300"


def test_timing_is_recorded() -> None:
    result = run(uniform_setup(), 1000, threads=2)
    assert result.elapsed_s > 0
    assert result.games_per_s == pytest.approx(1000 / result.elapsed_s)
    assert not result.partial and result.games == 1000


def test_tqdm_used_by_the_runner_is_a_declared_dependency() -> None:
    runner = (ROOT / "balance" / "run" / "runner.py").read_text()
    assert re.search(r"^from tqdm import", runner, re.M)
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[\s<>=!~;\[]", d, maxsplit=1)[0].lower() for d in dependencies}
    assert "tqdm" in names


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class _Stopped(Exception):
    pass


@pytest.mark.parametrize(
    ("strategies", "expected", "not_expected"),
    [
        (("mc", "random"), "the search players", "your strategies"),
        ((f"{EXAMPLES / 'cautious.py'}:cautious", "random"), "your strategies", "search"),
    ],
)
def test_the_compile_message_says_whose_strategies_are_compiled(
    monkeypatch, strategies, expected, not_expected
) -> None:
    """A shipped search player joins the game loop as a user's file does; the message
    names it as the game's own, not as the user's strategies."""
    setup = api.make_setup("walk-the-plank", 2, 0, strategies)
    game = get_game("walk-the-plank")
    # the loop cached, the strategies without a code not yet
    monkeypatch.setattr(
        type(game),
        "is_compiled",
        lambda self, setup: all(seat.strategy.code is not None for seat in setup.lineup.seats),
    )
    monkeypatch.setattr("balance.run.runner.check_decisions", lambda strategy: None)
    messages: list[str] = []

    def stop(message: str) -> None:  # before anything compiles
        messages.append(message)
        raise _Stopped

    with pytest.raises(_Stopped):
        run_games(setup, 10, threads=1, on_compile=stop)
    assert expected in messages[0] and not_expected not in messages[0]


def test_blas_keeps_to_one_thread_while_games_play_and_is_restored_after() -> None:
    """A block's running sums take a BLAS cross-product; a BLAS pool of two threads
    spinning beside two game threads halves their speed, so a run holds BLAS to one
    thread and gives back the setting it found."""
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_threads() -> set[int]:
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    seen: list[set[int]] = []
    with threadpool_limits(limits=2, user_api="blas"):
        if blas_threads() != {2}:
            pytest.skip("numpy's BLAS here cannot run two threads")
        run_games(
            uniform_setup(),
            400,
            threads=2,
            batch=100,
            sinks=[lambda b: seen.append(blas_threads())],
        )
        after = blas_threads()
    assert seen and all(s == {1} for s in seen)
    assert after == {2}
