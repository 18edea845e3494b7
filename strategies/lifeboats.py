"""The Lifeboats strategies that ship with balance.

This file is written exactly like a user's strategy file: ``--strategy
strategies/lifeboats.py:steward`` loads it by path. The game's compiled dispatchers are
generated from ``SHIPPED``: a shipped strategy's code is its place there, so that the
game loop, cached on disk, calls them without compiling anything per run.

A Lifeboats strategy is one ``@njit`` function ``decide(obs, seat, kind, options, count,
params, rng) -> int`` that answers every kind of decision (see
:mod:`balance.games.lifeboats.layout` for ``obs`` and the kinds): it returns an index in
``0..count - 1`` into ``options``. It is only asked when ``count >= 2``. The helpers of
:mod:`balance.games.lifeboats.kit` estimate stakes, landing chances and rivals' votes.
"""

import math

import numpy as np

from balance.core.strategy import MAX_PARAMS, Strategy, ship
from balance.games.lifeboats import search_nb
from balance.games.lifeboats.kit import (
    CHANCE,
    CHANCE_AFTER,
    HAT,
    LANE,
    LEAK_VOTE,
    LOSE_PAWN,
    MOVE_VOTE,
    NEVER,
    OFFICER,
    OVERBOARD_VOTE,
    PLACE,
    SAILOR,
    SWIM_IN,
    SWIM_OUT,
    VALUES,
    Seat,
    State,
    below_nb,
    best_entry_nb,
    best_index_nb,
    best_seat_nb,
    enter_gain_nb,
    fill_chances_nb,
    fill_vote_nb,
    has_hat_nb,
    is_ballot_nb,
    lane_value_nb,
    leave_loss_nb,
    lose_pawn_nb,
    njit,
    own_of_nb,
    pawn_points_nb,
    predict_tally_nb,
    predicted_outcome_nb,
    predicted_sinking_nb,
    rival_mean_of_nb,
    stake_nb,
    steps_left_nb,
    vote_kind_nb,
    weight_nb,
)

GAME = "lifeboats"


# --- random: the rules page's uniform-random player -------------------------------------


@njit(inline="always", cache=True)
def random_decide(obs, seat, kind, options, count, params, rng):
    return below_nb(rng, count)


# --- steward: votes by expected points, never plays a hat --------------------------------
# params: spite  weight of the rivals' mean expected points against its own in leak, move
#                and swim decisions (0: ignores rivals)
#         spread points a placement is marked down for each of its pawns already in the boat


@njit(inline="always", cache=True)
def _vote_table(obs, kind, options, count):
    """The vote a ballot (or the choice after one) is, with its table (kit) filled: the
    overboard vote's values need none."""
    vote = vote_kind_nb(kind)
    if vote != OVERBOARD_VOTE:
        fill_vote_nb(obs, kind, options, count)
    return vote


@njit(inline="always", cache=True)
def _steward_vote_values(obs, seat, kind, options, count, spite):
    """Fill the option values (kit.VALUES) of a vote, or of the choice after one, by which
    the steward and the hatkeeper choose. Compiled into their decisions: the voters of a
    ballot share its tables, so a vote costs little more than this loop."""
    values, state = obs[6], obs[3]
    vote = _vote_table(obs, kind, options, count)
    for k in range(count):
        code = options[k]
        if code == HAT:
            value = NEVER
        elif vote == OVERBOARD_VOTE:
            value = -1.0 if code == seat else float(weight_nb(obs, code, state[State.BOAT]))
        else:  # leak or move: own expected points, less spite for rivals'
            value = own_of_nb(obs, seat, k) - spite * rival_mean_of_nb(obs, seat, k)
        values[VALUES + k] = value


@njit(inline="always", cache=True)
def _steward_values(obs, seat, kind, options, count, spite, spread):
    """Fill the option values (kit.VALUES) the steward and the hatkeeper choose by, for a
    decision other than a vote (:func:`_steward_vote_values`)."""
    values, crew, state = obs[6], obs[1], obs[3]
    fill_chances_nb(obs, kind)
    for k in range(count):
        code = options[k]
        value = 0.0
        if kind == LANE:
            value = lane_value_nb(obs, code)
        elif kind == PLACE:
            boat = code // 2
            mine = crew[boat, seat, OFFICER] + crew[boat, seat, SAILOR]
            value = enter_gain_nb(obs, seat, boat, code % 2) - spread * mine
        elif kind == SWIM_OUT:
            boat, pawn = code // 2, code % 2
            value = best_entry_nb(obs, seat, pawn, boat) - leave_loss_nb(
                obs, seat, boat, pawn, seat
            )
            rivals = 0.0
            for q in range(state[State.PLAYERS]):
                if q != seat:
                    rivals += leave_loss_nb(obs, q, boat, pawn, seat)
            value += spite * rivals / max(state[State.PLAYERS] - 1, 1)
        elif kind == SWIM_IN:
            value = enter_gain_nb(obs, seat, code, obs[2][seat, Seat.SWIMMING])
        values[VALUES + k] = value


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def steward_decide(obs, seat, kind, options, count, params, rng):
    if kind == LOSE_PAWN:
        return lose_pawn_nb(obs, options, count)
    if is_ballot_nb(vote_kind_nb(kind)):
        _steward_vote_values(obs, seat, kind, options, count, params[0])
    else:
        _steward_values(obs, seat, kind, options, count, params[0], params[1])
    return best_index_nb(obs, count, rng)


# --- hatkeeper: the steward, with a hat for a vote it predicts it would lose ---------------
# params: spite, spread (as the steward's)
#         stake  expected points the predicted outcome must cost it, against its own choice,
#                before it plays a hat


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def hatkeeper_decide(obs, seat, kind, options, count, params, rng):
    if kind == LOSE_PAWN:
        return lose_pawn_nb(obs, options, count)
    if is_ballot_nb(vote_kind_nb(kind)):
        _steward_vote_values(obs, seat, kind, options, count, params[0])
    else:
        _steward_values(obs, seat, kind, options, count, params[0], params[1])
    pick = best_index_nb(obs, count, rng)
    if is_ballot_nb(kind) and has_hat_nb(obs, seat, options, count):
        fill_vote_nb(obs, kind, options, count)  # the table the prediction reads
        mine = own_of_nb(obs, seat, pick)  # option_value_nb, from the table
        # The predicted outcome is worth the mean of some options' values: no less than
        # the worst. When even that costs less than the stake (a margin above rounding),
        # no prediction can call for the hat, and none is made.
        worst = mine
        for k in range(count - 1):  # the last option is the hat
            worst = min(worst, own_of_nb(obs, seat, k))
        if mine - worst + 1e-9 < params[2]:
            return pick
        weight = 1.0
        if kind == OVERBOARD_VOTE:
            weight = float(weight_nb(obs, seat, obs[3][State.BOAT]))
        predict_tally_nb(obs, seat, kind, options, count)
        outcome = predicted_outcome_nb(obs, seat, kind, options, count, pick, weight)
        if mine - outcome >= params[2]:
            return count - 1
    return pick


# --- swimmer: moves its pawns to the best boats, advances those closest to landing ---------
# params: stake  points of its own a boat must hold before it plays a hat to keep a
#                predicted sinking leak off it


@njit(inline="always", cache=True)
def _swimmer_vote_values(obs, seat, kind, options, count):
    """Fill the swimmer's option values (kit.VALUES) of a vote, or of the choice after one
    (compiled into its decision, as the steward's)."""
    values, state = obs[6], obs[3]
    vote = _vote_table(obs, kind, options, count)
    for k in range(count):
        code = options[k]
        if code == HAT:
            value = NEVER
        elif vote == LEAK_VOTE:
            if stake_nb(obs, seat, code) == 0.0:
                value = 1000.0 - rival_mean_of_nb(obs, seat, k)
            else:
                value = own_of_nb(obs, seat, k)
        elif vote == MOVE_VOTE:
            stake = stake_nb(obs, seat, code)
            if stake > 0.0:
                value = 1000.0 - 100.0 * steps_left_nb(obs, code) + stake
            else:
                value = -rival_mean_of_nb(obs, seat, k)
        else:  # overboard
            value = -1.0 if code == seat else float(weight_nb(obs, code, state[State.BOAT]))
        values[VALUES + k] = value


@njit(inline="always", cache=True)
def _swimmer_values(obs, seat, kind, options, count):
    """Fill the swimmer's option values (kit.VALUES) for a decision other than a vote
    (:func:`_swimmer_vote_values`)."""
    values = obs[6]
    fill_chances_nb(obs, kind)
    for k in range(count):
        code = options[k]
        value = 0.0
        if kind == LANE:
            value = lane_value_nb(obs, code)
        elif kind == PLACE:
            boat = code // 2
            value = pawn_points_nb(obs, boat, code % 2) + values[CHANCE_AFTER + boat]
        elif kind == SWIM_OUT:
            boat, pawn = code // 2, code % 2
            value = best_seat_nb(obs, pawn, boat) - (
                pawn_points_nb(obs, boat, pawn) * values[CHANCE + boat]
            )
        elif kind == SWIM_IN:
            pawn = obs[2][seat, Seat.SWIMMING]
            value = pawn_points_nb(obs, code, pawn) * values[CHANCE_AFTER + code]
        values[VALUES + k] = value


@njit(inline="always", cache=True, _nrt=False, error_model="numpy")
def swimmer_decide(obs, seat, kind, options, count, params, rng):
    if kind == LOSE_PAWN:
        return lose_pawn_nb(obs, options, count)
    if is_ballot_nb(vote_kind_nb(kind)):
        _swimmer_vote_values(obs, seat, kind, options, count)
    else:
        _swimmer_values(obs, seat, kind, options, count)
    pick = best_index_nb(obs, count, rng)
    if kind == LEAK_VOTE and has_hat_nb(obs, seat, options, count):
        predict_tally_nb(obs, seat, kind, options, count)
        if predicted_sinking_nb(obs, seat, options, count, pick, params[0]):
            return count - 1
    return pick


random = Strategy(
    GAME,
    "random",
    "Picks uniformly among the legal options of every decision (the rules page's player).",
    {"decide": random_decide},
)
steward = Strategy(
    GAME,
    "steward",
    "Votes by expected points: advances the boat whose move adds most to its own points "
    "weighted by landing chance, leaks the boat where a leak costs it least and rivals most, "
    "throws out the rival with the most weight, places its pawns where they add most "
    "expected points (less `spread` for each of its pawns already aboard), swims from risky "
    "boats into safe valuable ones, and never plays a hat.",
    {"decide": steward_decide},
    params=(("spite", 1.0), ("spread", 1.0)),
    param_docs={
        "spite": (
            "any number; 0..2 makes sense",
            "weight of the rivals' mean expected points against its own in leak, move and "
            "swim decisions: 0 ignores rivals, 1 weighs a rival's point as its own, "
            "below 0 helps them",
        ),
        "spread": (
            "0 and up, in points",
            "expected points a placement is marked down for each of its own pawns already "
            "in that boat: 0 crowds its pawns together, larger spreads them over boats",
        ),
    },
    param_bounds={"spread": (0.0, math.inf)},
)
hatkeeper = Strategy(
    GAME,
    "hatkeeper",
    "Plays like the steward but predicts each rival's vote from that rival's own pawns "
    "aboard, and plays a hat when the vote it expects to lose would cost it at least "
    "`stake` expected points.",
    {"decide": hatkeeper_decide},
    params=(("spite", 1.0), ("spread", 1.0), ("stake", 2.0)),
    param_docs={
        "spite": ("any number; 0..2 makes sense", "as the steward's"),
        "spread": ("0 and up, in points", "as the steward's"),
        "stake": (
            "0 and up, in expected points",
            "what the outcome it predicts for a vote must cost it, against its own choice, "
            "before it plays a hat: 0 plays a hat on any predicted loss, large values keep "
            "them (with hats=0 it plays exactly as the steward)",
        ),
    },
    param_bounds={"spread": (0.0, math.inf), "stake": (0.0, math.inf)},
)
swimmer = Strategy(
    GAME,
    "swimmer",
    "Places its pawns on boats of high-value islands, swims them into the boat with room "
    "worth most (points times landing chance), advances its own boats closest to landing, "
    "leaks boats it has no pawn in, and plays a hat when it predicts a leak would sink a "
    "boat holding at least `stake` of its points.",
    {"decide": swimmer_decide},
    params=(("stake", 3.0),),
    param_docs={
        "stake": (
            "0 and up, in points",
            "points of its own a boat must hold before it plays a hat to keep a leak it "
            "predicts would sink that boat off it; larger values keep its hats longer",
        ),
    },
    param_bounds={"stake": (0.0, math.inf)},
)


# --- search players: flat Monte Carlo and ISMCTS (balance.games.lifeboats.search_nb) ------
# They play out whole games from a position with the shipped heuristics above, so they
# come last; they carry no ``code`` and join a run's loop as a user's strategy does (the
# plain loop never compiles the search). See docs/lifeboats.md, "Search players".

#: The strategies a search player's playouts may use (``rollout=NAME``), by code.
ROLLOUTS = (random, steward, hatkeeper, swimmer)
#: Their default parameters, float64 ``(len(ROLLOUTS), MAX_PARAMS)``, row = code (they
#: are the first strategies of ``SHIPPED``, in its order).
ROLLOUT_PARAMS = np.zeros((len(ROLLOUTS), MAX_PARAMS), dtype=np.float64)
for _code, _rollout in enumerate(ROLLOUTS):
    ROLLOUT_PARAMS[_code, : len(_rollout.params)] = [v for _, v in _rollout.params]
#: The words of `rollout` (written out: `balance strategies` reads them from this source).
_ROLLOUT_WORDS = {"random": 0.0, "steward": 1.0, "hatkeeper": 2.0, "swimmer": 3.0}
#: The words of `tiebreak` (mc): search_nb.TIEBREAK_RANDOM and TIEBREAK_ROLLOUT.
_TIEBREAK_WORDS = {"random": 0.0, "rollout": 1.0}
_ROLLOUT_DOC = (
    "random, steward, hatkeeper or swimmer",
    "the strategy every seat plays in the playouts (with its default parameters); "
    "random is fastest",
)


@njit(cache=True)
def mc_decide(obs, seat, kind, options, count, params, rng):
    return search_nb.mc_decide_nb(obs, seat, kind, options, count, params, rng, ROLLOUT_PARAMS)


@njit(cache=True)
def ismcts_decide(obs, seat, kind, options, count, params, rng):
    return search_nb.ismcts_decide_nb(obs, seat, kind, options, count, params, rng, ROLLOUT_PARAMS)


mc = Strategy(
    GAME,
    "mc",
    "Flat Monte Carlo with determinization: tries every option of a decision in "
    "`playouts` games played on to the end by the `rollout` strategy in every seat, each "
    "from the position with the hidden votes of the ballot drawn afresh, and plays the "
    "option that won most (ties: at random, or with `tiebreak=rollout` the rollout "
    "strategy's own choice).",
    {"decide": mc_decide},
    params=(("playouts", 16.0), ("rollout", 0.0), ("tiebreak", 0.0)),
    param_docs={
        "playouts": ("1..65536", "playouts per option of every decision"),
        "rollout": _ROLLOUT_DOC,
        "tiebreak": (
            "random or rollout",
            "which option it plays when several won equally often: one at random, or the "
            "one the rollout strategy itself would play, kept unless another option won "
            "strictly more playouts (the rollout algorithm; with rollout=hatkeeper it "
            "beats the hatkeeper, docs/lifeboats.md)",
        ),
    },
    param_choices={"rollout": _ROLLOUT_WORDS, "tiebreak": _TIEBREAK_WORDS},
    param_whole=frozenset({"playouts"}),
    param_bounds={"playouts": (1, 65536), "rollout": (0, len(ROLLOUTS) - 1), "tiebreak": (0, 1)},
)
ismcts = Strategy(
    GAME,
    "ismcts",
    "Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012): "
    "`iterations` games from freshly drawn hidden votes, each down a tree of every "
    "player's decisions chosen by UCB1 (exploration `c`), one new node, then played out "
    "by the `rollout` strategy; plays the option tried most.",
    {"decide": ismcts_decide},
    params=(("iterations", 256.0), ("rollout", 0.0), ("c", 0.7)),
    param_docs={
        "iterations": ("1..65536", "games searched per decision"),
        "rollout": _ROLLOUT_DOC,
        "c": ("0 to 100; 0.5..1 makes sense", "UCB1's exploration constant (results in 0..1)"),
    },
    param_choices={"rollout": _ROLLOUT_WORDS},
    param_whole=frozenset({"iterations"}),
    param_bounds={"iterations": (1, 65536), "rollout": (0, len(ROLLOUTS) - 1), "c": (0, 100)},
)

SEARCH = (mc, ismcts)
SHIPPED = (random, steward, hatkeeper, swimmer, mc, ismcts)  # written out: read from source
ship(SHIPPED, joining=SEARCH, module=__name__)
