"""Every shipped strategy, held to the same contract (in the spirit of Axelrod's TestPlayer).

A strategy plays every player count and variant without error, is deterministic given
the seed, sees only public information, and plays the same games in the compiled engine
and in the readable reference engine. User strategy files are checked for illegal
choices, missing compilation and their parameters.
"""

from __future__ import annotations

import copy
import inspect
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from balance.strategies.walk_the_plank import SHIPPED

from balance import api
from balance.core.errors import BalanceError
from balance.core.game import Lineup, Setup
from balance.core.strategy import SeatStrategy, load_strategy_file, parse_strategy
from balance.games.walk_the_plank import engine, kit
from balance.games.walk_the_plank.bridge import lineup_player_factory
from balance.games.walk_the_plank.cards import CARD_NAMES, CARD_TITLES
from balance.games.walk_the_plank.reference import RandomStrategy, play_game
from balance.games.walk_the_plank.rules import WalkThePlankRules
from balance.run.runner import run_games

ROOT = Path(__file__).resolve().parents[2]
ALL_VARIANTS = ("ghost", "dolphin", "kraken")


def records(setup: Setup, games: int) -> dict[str, np.ndarray]:
    result = run_games(setup, games, threads=2, progress=False)
    return {
        name: np.concatenate([block.extra[name] for block in result.blocks])
        for name in ("games", "cards", "seats")
    }


def setup_for(names: list[str], seed: int = 0, variants=ALL_VARIANTS, rotate: bool = False):
    return api.make_setup(
        "walk-the-plank",
        len(names),
        seed=seed,
        strategies=names,
        variants=variants,
        rotate_seats=rotate,
    )


def documented_signatures() -> dict[str, list[str]]:
    """The decisions' arguments as kit.py's docstring documents them."""
    found = re.findall(r"``(program|choose|push)\(([^)]*)\)", kit.__doc__)
    return {name: [a.strip() for a in args.split(",")] for name, args in found}


def check_records(rec: dict[str, np.ndarray], players: int, round_cap: int = 100) -> None:
    """What every game must satisfy whatever the strategies."""
    games, cards, seats = rec["games"], rec["cards"], rec["seats"]
    rounds, finished = games[:, 0], games[:, 1].astype(bool)
    won, left = seats[:, :, 0].astype(bool), seats[:, :, 1]
    assert cards.shape[1:3] == (players, len(CARD_NAMES))
    assert np.all((rounds >= 1) & (rounds <= round_cap))
    assert np.all(rounds[~finished] == round_cap)  # only the cap leaves a game open
    assert not won[~finished].any()  # an unfinished game has no winner
    np.testing.assert_array_equal(won[finished], left[finished] > 0)
    revealed, effect = cards[..., 0], cards[..., 1]
    assert np.all(effect <= revealed)
    assert np.all(revealed <= rounds[:, None, None])  # a card at most once a round
    assert np.all(revealed.sum(axis=2) <= 3 * rounds[:, None])
    assert np.all(revealed[:, 0].sum(axis=1) >= 1)  # seat 0 opens round 1


#: The shipped heuristics; the search players (no code: they join the game loop as a
#: user's strategy does) keep the same contract in test_search.py, at small budgets.
HEURISTICS = [s for s in SHIPPED if s.code is not None]


@pytest.mark.parametrize("strategy", HEURISTICS, ids=lambda s: s.name)
class TestShippedStrategy:
    """The contract every shipped heuristic keeps."""

    @pytest.mark.parametrize("players", [2, 3, 5])
    def test_plays_every_seat_with_all_variants(self, strategy, players: int) -> None:
        rec = records(setup_for([strategy.name] * players, seed=players), 300)
        check_records(rec, players)

    @pytest.mark.parametrize("players", [2, 3, 5])
    def test_plays_mixed_with_random(self, strategy, players: int) -> None:
        names = [strategy.name] + ["random"] * (players - 1)
        setup = setup_for(names, seed=10 + players, rotate=True)
        rec = records(setup, 300)
        check_records(rec, players)
        if strategy.name != "random":
            summary = api.Run(run_games(setup, 300, progress=False)).summary()
            rates = {row["strategy"]: row for row in summary["strategy_win_rate"]}
            assert rates[strategy.name]["seats_played"] == 300

    def test_is_deterministic_given_the_seed(self, strategy) -> None:
        names = [strategy.name, "random", strategy.name]
        first = records(setup_for(names, seed=77), 300)
        second = records(setup_for(names, seed=77), 300)
        other = records(setup_for(names, seed=78), 300)
        for name in first:
            np.testing.assert_array_equal(first[name], second[name])
        assert not np.array_equal(first["cards"], other["cards"])

    def test_plays_differently_from_random(self, strategy) -> None:
        if strategy.name == "random":
            pytest.skip("random is the baseline")
        mine = records(setup_for([strategy.name] * 3, seed=5), 300)
        baseline = records(setup_for(["random"] * 3, seed=5), 300)
        assert not np.array_equal(mine["cards"], baseline["cards"])

    def test_decisions_take_exactly_the_documented_arguments(self, strategy) -> None:
        documented = documented_signatures()
        assert set(documented) == {"program", "choose", "push"}
        assert set(strategy.decisions) == set(documented)
        for decision, function in strategy.decisions.items():
            assert hasattr(function, "py_func"), f"{decision} is not @njit"
            parameters = list(inspect.signature(function.py_func).parameters)
            assert parameters == documented[decision], decision

    def test_sees_only_cards_already_revealed(self, strategy) -> None:
        """At each decision the ``shown`` cards are exactly those revealed so far this round."""
        rules = WalkThePlankRules(ghost=True, dolphin=True)
        setup = setup_for([strategy.name, "greedy", "random"], seed=3, variants=rules.variants)
        decisions = 0
        for game in range(15):
            events: list[tuple] = []
            factory = lineup_player_factory(setup.lineup, setup.rules, game)

            def make_player(seat, stream, factory=factory, events=events):
                return Watched(factory(seat, stream), events)

            play_game(
                setup.rules, 3, setup.seed, game, narrate=events.append, make_player=make_player
            )
            decisions += check_shown(events, 3)
        assert decisions > 100

    def test_engines_agree_with_the_strategy_in_every_seat(self, strategy) -> None:
        setup = setup_for([strategy.name] * 4, seed=2024)
        assert_engines_agree(setup, 50)

    def test_engines_agree_with_the_strategy_mixed_and_rotated(self, strategy) -> None:
        names = [strategy.name, "random", "survivor"]
        setup = setup_for(names, seed=9, variants=("ghost", "dolphin"), rotate=True)
        assert_engines_agree(setup, 60)


class Watched:
    """A reference-engine player that records the ``shown`` cards it is given."""

    def __init__(self, player, events: list) -> None:
        self.player, self.events = player, events

    def program(self, pos, seat, available):
        self.events.append(("program", seat, None, copy.deepcopy(pos.shown)))
        return self.player.program(pos, seat, available)

    def choose(self, pos, seat, card, slot, options):
        self.events.append(("choose", seat, (slot, card), copy.deepcopy(pos.shown)))
        return self.player.choose(pos, seat, card, slot, options)

    def choose_dolphin_step(self, pos, seat, options):
        self.events.append(("push", seat, None, copy.deepcopy(pos.shown)))
        return self.player.choose_dolphin_step(pos, seat, options)


REVEAL = re.compile(r"^ seat (\d+) reveals (.+?): ")


def check_shown(events: list, n: int) -> int:
    """Replay the narration: revealed cards must be exactly the shown ones at each decision."""
    revealed: dict[tuple[int, int], int] = {}
    decisions = 0
    for event in events:
        if isinstance(event, str):
            if event.startswith("Round "):
                revealed = {}
            elif match := REVEAL.match(event):
                seat = int(match[1])
                slot = sum(1 for s, _ in revealed if s == seat)
                revealed[(seat, slot)] = CARD_TITLES.index(match[2])
            continue
        kind, seat, current, shown = event
        visible = dict(revealed)
        if kind == "choose":  # chosen before its reveal is narrated, after it is shown
            slot, card = current
            visible[(seat, slot)] = card
        expected = [[-1] * 3 for _ in range(n)]
        for (s, slot), card in visible.items():
            expected[s][slot] = card
        assert shown == expected, (kind, seat, event)
        decisions += 1
    return decisions


def assert_engines_agree(setup: Setup, games: int) -> None:
    compiled = engine.play_games(setup.rules, setup.players, setup.seed, games, 0, setup.lineup)
    for g in range(games):
        expected = play_game(
            setup.rules,
            setup.players,
            setup.seed,
            g,
            make_player=lineup_player_factory(setup.lineup, setup.rules, g),
        )
        assert compiled.game_record(g) == expected, f"game {g} differs"


# --- parameters --------------------------------------------------------------------------


def test_weighted_with_its_defaults_plays_like_greedy() -> None:
    # weighted's default weights are greedy's weights, and they share their code.
    greedy = records(setup_for(["greedy"] * 4, seed=6), 400)
    weighted = records(setup_for(["weighted"] * 4, seed=6), 400)
    explicit = records(setup_for(["weighted:own_alive=4,leader=0.5"] * 4, seed=6), 400)
    for name in greedy:
        np.testing.assert_array_equal(greedy[name], weighted[name])
        np.testing.assert_array_equal(greedy[name], explicit[name])


def test_weighted_parameters_change_its_play() -> None:
    default = records(setup_for(["weighted"] * 4, seed=6), 400)
    leader = records(setup_for(["weighted:leader=3"] * 4, seed=6), 400)
    assert not np.array_equal(default["cards"], leader["cards"])
    setup = setup_for(["weighted:leader=3", "weighted"], seed=1)
    assert setup.lineup.labels == ["weighted(leader=3)", "weighted"]
    assert setup.lineup.seats[0].values == (4.0, 1.0, 2.0, 0.5, 3.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("weighted:bravery=2", "bad parameter 'bravery=2'; parameters: own_alive"),
        ("weighted:leader", "bad parameter 'leader'"),
        ("weighted:leader=lots", "parameter 'leader' needs a number, not 'lots'"),
        ("weighted:leader=inf", "parameter 'leader' must be finite"),
        ("weighted:leader=nan", "parameter 'leader' must be finite"),
        ("greedy:leader=3", "strategy 'greedy': bad parameter 'leader=3'; parameters: none"),
    ],
)
def test_bad_strategy_parameters(text: str, message: str) -> None:
    with pytest.raises(BalanceError, match=re.escape(message)) as caught:
        setup_for([text, "random"])
    assert "\n" not in str(caught.value)


# --- user strategy files -----------------------------------------------------------------

HEADER = """\
from balance.games.walk_the_plank.kit import State, below_nb, njit, random_program_nb
from balance.strategy import Strategy
"""

# Plays exactly like random in mood 0; from round 5 on it repeats a card in its program
# (mood 1) or chooses option ``count`` (mood 2).
MOODY = (
    HEADER
    + """

@njit
def program(obs, seat, available, params, rng, out):
    random_program_nb(available, rng, out)
    if params[0] == 1.0 and obs[2][State.ROUND] >= 5:
        out[2] = out[0]


@njit
def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    pick = below_nb(rng, count)
    if params[0] == 2.0 and obs[2][State.ROUND] >= 5:
        return count
    return pick


moody = Strategy(
    "walk-the-plank",
    "moody",
    "Random, until round 5 in a bad mood.",
    {"program": program, "choose": choose},
    params=(("mood", 0.0),),
)
"""
)

NOT_COMPILED = (
    HEADER
    + """

@njit
def program(obs, seat, available, params, rng, out):
    random_program_nb(available, rng, out)


def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):
    return 0


plain = Strategy("walk-the-plank", "plain", "Forgot @njit.", {"program": program, "choose": choose})
no_choose = Strategy("walk-the-plank", "no_choose", "Only programs.", {"program": program})
bluffer = Strategy(
    "walk-the-plank", "bluffer", "Has an extra decision.",
    {"program": program, "choose": program, "bluff": program},
)
"""
)


def test_a_strategy_function_that_is_not_compiled_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.py"
    path.write_text(NOT_COMPILED)
    with pytest.raises(BalanceError) as caught:
        setup_for([f"{path}:plain", "random"])
    message = str(caught.value)
    line = (
        NOT_COMPILED.splitlines().index(
            "def choose(obs, seat, card, slot, opt_tile, opt_arg, count, params, rng):"
        )
        + 1
    )
    assert message == (
        f"strategy 'plain': its 'choose' function ({path.resolve()}, line {line}) must be "
        "@njit-compiled: put @njit on the line above its def"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no_choose", "strategy 'no_choose' gives no 'choose' function"),
        ("bluffer", "strategy 'bluffer': unknown decision 'bluff'"),
    ],
)
def test_a_strategy_with_wrong_decisions_is_refused(tmp_path: Path, name, message) -> None:
    path = tmp_path / "wrong.py"
    path.write_text(NOT_COMPILED)
    with pytest.raises(BalanceError, match=re.escape(message)):
        setup_for([f"{path}:{name}", "random"])


def test_a_strategy_of_another_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chess.py"
    path.write_text(NOT_COMPILED.replace('"walk-the-plank", "plain"', '"chess", "plain"'))
    with pytest.raises(BalanceError, match=r"'plain' in .* plays chess, not walk-the-plank"):
        setup_for([f"{path}:plain", "random"])


def test_the_example_strategy_loads() -> None:
    example = ROOT / "examples" / "cautious.py"
    cautious = load_strategy_file(example, "cautious", "walk-the-plank")
    assert cautious.name == "cautious" and cautious.code is None
    assert set(cautious.decisions) == {"program", "choose"}  # push is optional
    engine.ENGINE.check_strategy(cautious)
    documented = documented_signatures()
    for decision, function in cautious.decisions.items():
        assert list(inspect.signature(function.py_func).parameters) == documented[decision]
    seat = parse_strategy(f"{example}:cautious", {}, "walk-the-plank")
    assert seat.label == "cautious" and seat.source == str(example)


@pytest.fixture(scope="module")
def moody(tmp_path_factory: pytest.TempPathFactory):
    """The moody strategy, loaded once, with its game loop compiled once (about 30 s)."""
    path = tmp_path_factory.mktemp("strategies") / "moody.py"
    path.write_text(MOODY)
    strategy = load_strategy_file(path, "moody", "walk-the-plank")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lineup = Lineup((SeatStrategy(strategy, (0.0,), str(path)),) * 2)
        engine.play_games(WalkThePlankRules(), 2, 0, 1, 0, lineup)
    return strategy, path, caught


def moody_setup(moody, mood: float, players: int, variants=ALL_VARIANTS) -> Setup:
    strategy, path, _ = moody
    seats = [SeatStrategy(strategy, (mood,), str(path))] * players
    rules = WalkThePlankRules(**dict.fromkeys(variants, True))
    return Setup("walk-the-plank", players, rules, Lineup(tuple(seats)), seed=12)


def first_decision(setup: Setup, kind: str, games: int, start: int = 0) -> tuple[int, int, object]:
    """First (game, seat, detail) at which a random player makes a ``kind`` decision in
    round 5 or later, found with the reference engine."""
    for game in range(start, start + games):
        found = []

        def make_player(seat, stream, found=found):
            player = RandomStrategy(stream)

            class Logged:
                def program(self, pos, seat, available):
                    cards = player.program(pos, seat, available)
                    if pos.round >= 5:
                        found.append(("program", seat, cards))
                    return cards

                def choose(self, pos, seat, card, slot, options):
                    if pos.round >= 5:
                        found.append(("choose", seat, (card, len(options))))
                    return player.choose(pos, seat, card, slot, options)

                def choose_dolphin_step(self, pos, seat, options):
                    return player.choose_dolphin_step(pos, seat, options)

            return Logged()

        play_game(setup.rules, setup.players, setup.seed, game, make_player=make_player)
        for what, seat, detail in found:
            if what == kind:
                return game, seat, detail
    raise AssertionError(f"no {kind} decision in round 5 or later")


@pytest.mark.slow
def test_a_user_strategy_that_plays_like_random_gives_random_games(moody) -> None:
    setup = moody_setup(moody, 0.0, 3)
    mine = records(setup, 300)
    random_games = records(setup_for(["random"] * 3, seed=12), 300)
    for name in mine:
        np.testing.assert_array_equal(mine[name], random_games[name])
    assert_engines_agree(setup, 40)


@pytest.mark.slow
def test_an_illegal_option_stops_the_run_naming_strategy_decision_and_game(moody) -> None:
    setup = moody_setup(moody, 2.0, 3)
    game, seat, (card, count) = first_decision(setup, "choose", 200)
    assert game > 0  # the error is not simply in the first game
    with pytest.raises(BalanceError) as caught:
        run_games(setup, 200, threads=1, batch=200, progress=False)
    assert str(caught.value) == (
        f"strategy 'moody(mood=2)' (seat {seat}) made an illegal 'choose' decision in game "
        f"{game}: chose option {count} of {CARD_NAMES[card]}, outside its options (0 to count-1)"
    )


@pytest.mark.slow
def test_a_program_that_repeats_a_card_stops_the_run(moody) -> None:
    setup = moody_setup(moody, 1.0, 4)
    game, seat, cards = first_decision(setup, "program", 200)
    assert game > 0
    with pytest.raises(BalanceError) as caught:
        run_games(setup, 200, threads=1, batch=200, progress=False)
    repeated = ", ".join(CARD_NAMES[c] for c in (cards[0], cards[1], cards[0]))
    assert str(caught.value) == (
        f"strategy 'moody(mood=1)' (seat {seat}) made an illegal 'program' decision in game "
        f"{game}: programmed {repeated}, not three different cards from its hand (cards "
        "resting or forbidden to it may not be programmed)"
    )


@pytest.mark.slow
def test_an_illegal_choice_far_into_a_run_names_its_own_game(moody) -> None:
    setup = moody_setup(moody, 2.0, 3)
    game, seat, (_, count) = first_decision(setup, "choose", 200, start=10**6)
    assert game >= 10**6  # the run's own game index, not the block's
    with pytest.raises(BalanceError) as caught:
        engine.play_games(setup.rules, 3, setup.seed, 200, 10**6, setup.lineup)
    expected = f"(seat {seat}) made an illegal 'choose' decision in game {game}: chose option"
    assert f"{expected} {count}" in str(caught.value)


@pytest.mark.slow
def test_compiling_a_user_strategy_emits_no_warning(moody) -> None:
    _, _, caught = moody
    assert [str(w.message) for w in caught] == []


@pytest.mark.slow
def test_the_example_strategy_plays() -> None:
    example = ROOT / "examples" / "cautious.py"
    names = [f"{example}:cautious", "random", "greedy"]
    setup = setup_for(names, seed=8, rotate=True)
    result = run_games(setup, 300, threads=2, progress=False)
    summary = api.Run(result).summary()
    rows = {row["strategy"]: row for row in summary["strategy_win_rate"]}
    assert set(rows) == {"cautious", "random", "greedy"}
    assert all(row["seats_played"] == 300 for row in rows.values())
    rec = {
        name: np.concatenate([b.extra[name] for b in result.blocks])
        for name in ("games", "cards", "seats")
    }
    check_records(rec, 3)
    # It has no push function: the Dolphin steps are random in both engines alike.
    assert_engines_agree(setup, 30)


def test_every_heuristic_passes_its_weights_as_weighted_passes_its_parameters() -> None:
    """Aggressor, survivor, greedy and weighted share one compiled evaluation: the built-in
    weights have the type weighted's parameters are turned into (a global array would be
    read-only and a parameter row writable: numba would compile the evaluation twice in
    every game loop)."""
    import numba
    from balance.strategies import walk_the_plank as shipped

    params = np.array([4.0, 1.0, 2.0, 0.5, 0.5, 9.0, 9.0, 9.0])
    passed = shipped.weights_of(params)
    assert passed == (4.0, 1.0, 2.0, 0.5, 0.5)  # the first five, in Weight's order
    assert [passed[kit.Weight.LEADER], passed[kit.Weight.OWN_ALIVE]] == [0.5, 4.0]
    for weights in (shipped.AGGRESSOR_WEIGHTS, shipped.SURVIVOR_WEIGHTS, shipped.GREEDY_WEIGHTS):
        assert (
            numba.typeof(weights)
            == numba.typeof(passed)
            == numba.types.UniTuple(numba.float64, kit.Weight.SIZE)
        )
