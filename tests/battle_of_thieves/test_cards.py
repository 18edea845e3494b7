"""Battle of Thieves' card files: the examples compile to what they say, and every mistake
is one line naming the file, the line and the reason."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.core.errors import BalanceError
from balance.games.battle_of_thieves import cards
from balance.games.battle_of_thieves import layout as L
from balance.games.battle_of_thieves.rules import BattleRules

MARK = "# <-"

# A small library the deck tests build on: 2 cards of copy limit 10 make 20.
LIBRARY = """
[[card]]
name = "Broadside"
type = "event"
copies = 10
[[card.effect]]
do = "hole"
target = "enemy_ship"

[[card]]
name = "Plug the Leaks"
type = "event"
copies = 10
[[card.effect]]
do = "repair"
target = "own_ship"

[[card]]
name = "Kraken"
type = "legendary"
[[card.effect]]
do = "hole"
target = "enemy_ship"
amount = 2

[[weapon]]
name = "Cutlass"
hits_on = 4
damage = 1

[[weapon]]
name = "Dagger"
hits_on = 3
damage = 1

[[pirate]]
name = "Anne"

[[pirate]]
name = "Jack"

[[ship]]
name = "Brig"
"""

GOOD_DECK = """
[[deck]]
name = "test-deck"
ship = "Brig"
pirates = [
    { name = "Anne", weapons = ["Cutlass", "Dagger"] },
    { name = "Jack", weapons = ["Dagger", "Cutlass"] },
]

[deck.cards]
"Broadside" = 10
"Plug the Leaks" = 10

[deck.provisions]
planks = 10
cannonballs = 12
food = 4
chaos_balls = 2
incendiary_balls = 2
"""


@pytest.fixture(autouse=True)
def fresh_cache():
    cards.clear_cache()
    yield
    cards.clear_cache()


def write(tmp_path: Path, text: str, name: str = "bad.toml") -> tuple[Path, int]:
    """Write ``text`` and return its path and the line marked ``# <-`` (0 if none)."""
    text = textwrap.dedent(text).lstrip("\n")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    marked = [i for i, line in enumerate(text.splitlines(), 1) if MARK in line]
    return path, (marked[0] if marked else 0)


def error_of(path: Path) -> str:
    with pytest.raises(BalanceError) as caught:
        cards.load_file(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


def card_text(*lines: str, header: str = "[[card]]") -> str:
    return "\n".join([header, *lines]) + "\n"


# --- the examples ------------------------------------------------------------------------


def example(name: str) -> Path:
    return cards.EXAMPLES / name


def test_example_files_are_labelled_as_examples() -> None:
    files = sorted(cards.EXAMPLES.glob("*.toml"))
    assert {f.name for f in files} == {
        "cards.toml",
        "crew.toml",
        "cannon-battery.toml",
        "boarding-party.toml",
        "island-raiders.toml",
        "designer-kit.toml",
    }
    for file in files:
        first = file.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# Example content for balance, not the published game's cards."


def test_example_decks_are_named_after_their_files() -> None:
    decks = cards.example_decks()
    assert list(decks) == ["boarding-party", "cannon-battery", "designer-kit", "island-raiders"]
    for name, path in decks.items():
        assert path.stem == name
        assert cards.load_file(path).own_decks == (name,)


def test_example_library_covers_the_vocabulary() -> None:
    library = cards.load_file(example("cards.toml"))
    crew = cards.load_file(example("crew.toml"))
    assert len(library.cards) >= 30
    assert len(crew.pirates) == 6 and len(crew.weapons) == 8 and 2 <= len(crew.ships) <= 3
    types = {c.type for c in library.cards.values()}
    assert types == set(range(1, len(L.CARD_TYPES))) - {L.SHIP}
    assert any(s.trigger == L.WATER_AT_LEAST for s in crew.ships.values())
    # the designer's kit includes both and adds a piece for each of the newer fields
    kit = cards.load_file(example("designer-kit.toml"))
    rows = [row for c in kit.cards.values() for row in c.program]
    assert {r[0] for r in rows} == set(range(1, len(L.OPS)))
    # the pirates that set a program off are named in abilities and weapons' effects only
    rows += [row for c in kit.cards.values() for _, program in c.triggers for row in program]
    rows += [row for p in kit.pirates.values() for _, program in p.triggers for row in program]
    rows += [row for w in kit.weapons.values() for row in w.program]
    assert {r[1] for r in rows} - {L.NO_TARGET} == set(range(1, len(L.TARGETS)))
    assert {r[4] for r in rows if r[0] == L.STATUS} == set(range(1, len(L.STATUSES)))
    assert {r[5] for r in rows} == set(range(len(L.CONDITIONS)))
    events = {e for c in kit.cards.values() for e, _ in c.triggers}
    events |= {e for p in kit.pirates.values() for e, _ in p.triggers}
    assert events >= {L.ON_HIT, L.ON_BOARDED, L.ON_HITS}
    assert {w.reach for w in kit.weapons.values()} >= {L.REACH_HERE, L.REACH_SHIP}
    assert {s.trigger for s in kit.ships.values()} >= {L.WATER_AT_LEAST, L.OWN_MAST_BROKEN}
    sins = {c.sin: c for c in library.cards.values() if c.sin >= 0}
    assert sorted(sins) == list(range(len(L.SINS)))
    for sin, card in sins.items():
        assert card.name == L.SINS[sin] and card.program  # playable sin cards
    mods = {m[0] for c in library.cards.values() for m in c.mods}
    mods |= {m[0] for p in crew.pirates.values() for m in p.mods}
    assert mods == set(range(1, len(L.MOD_STATS)))
    animals = [c for c in library.cards.values() if c.type == L.ANIMAL]
    assert all(c.mods and not c.program for c in animals)


def test_examples_check_ok() -> None:
    lines = cards.check_files(["cannon-battery", "boarding-party", "island-raiders"])
    assert len(lines) == 3
    assert lines[0].startswith("cannon-battery (")
    assert lines[0].endswith(": 20 cards, 13 distinct, 30 provisions, ok")
    assert all(line.endswith(", ok") for line in lines)


def test_matchup_content_matches_the_files() -> None:
    content = cards.matchup_content(("cannon-battery", "boarding-party"), ())
    assert content.names[0] == "(blank)"
    assert content.deck_names == ("cannon-battery", "boarding-party")
    assert content.ship_names == ("Iron Maiden", "Sea Hound")
    assert content.pirate_names == (("Gunner Hob", "Bosun Bart"), ("Red Morgane", "One-Eyed Sal"))
    assert content.weapon_names[1] == (("Boarding Axe", "Cutlass"), ("Blunderbuss", "Dagger"))
    assert content.sources == ("cannon-battery", "boarding-party")
    # Card ids: seat 0's cards in file order, then seat 1's new ones.
    assert content.names[1:4] == ("Broadside", "Chain Shot", "Grapeshot")
    assert content.names[14] == "Drop Anchor!"
    assert len(content.names) == 1 + 13 + 12  # Broadside is in both decks
    assert list(content.deck[0][:5]) == [1, 2, 2, 3, 3]
    assert content.deck_card_names(0)[-1] == "Parley Flag"
    assert list(content.provisions[0]) == [8, 10, 2, 6, 4]
    assert list(content.provisions[1]) == [8, 12, 6, 2, 2]
    # Weapons (hits on, damage) by seat, pirate, weapon.
    assert content.weapons[0, ..., :2].tolist() == [[[5, 2], [4, 1]], [[4, 2], [3, 1]]]
    assert content.weapons[1, 1, :, :2].tolist() == [[6, 3], [3, 1]]
    # Pirates' and ships' modifiers.
    assert content.pirate_mods_len[1].tolist() == [1, 2]
    assert content.pirate_mods[1, 1, :2].tolist() == [
        [L.WEAPON_DAMAGE, 1],
        [L.ATTACK_ROLL, -1],
    ]
    assert content.ship_mods_len.tolist() == [0, 1]
    assert content.ship_mods[1, 0].tolist() == [L.BAIL, 10]
    assert content.ship_trigger.tolist() == [[L.WATER_AT_LEAST, 60], [L.NO_TRIGGER, 0]]
    assert content.ship_program_len.tolist() == [2, 0]
    assert content.ship_program[0, :2].tolist() == [
        [L.REPAIR, L.OWN_SHIP, 2, 0, 0, L.ALWAYS, L.NO_CONDITION, 0, L.GAME_TURNS],
        [L.GAIN, L.OWN, 2, 0, L.PLANK, L.ALWAYS, L.NO_CONDITION, 0, L.GAME_TURNS],
    ]


def program(content, name: str) -> list[list[int]]:
    """A card's effects, each without its condition fields, which must be empty (no
    condition: the example decks' cards have none)."""
    c = content.card_id(name)
    rows = content.program[c, : content.program_len[c]].tolist()
    assert all(row[L.EFFECT.IF :] == [L.NO_CONDITION, 0, L.GAME_TURNS] for row in rows), rows
    return [row[: L.EFFECT.IF] for row in rows]


def test_card_programs_match_the_files() -> None:
    content = cards.matchup_content(("cannon-battery", "boarding-party"), ())
    c = content.card_id
    assert program(content, "Broadside") == [[L.HOLE, L.ENEMY_SHIP, 1, 0, 0, 0]]
    # A chain shot breaks the mast only on a hit; a stink ball poisons hit or miss.
    assert program(content, "Chain Shot") == [[L.MAST_BROKEN, L.ENEMY_SHIP, 0, 2, 0, L.IF_HIT]]
    assert program(content, "Stink Ball") == [[L.STATUS, L.PIRATES_ENEMY_SHIP, 0, 0, L.POISON, 0]]
    assert program(content, "Fog Bank") == [[L.CANNON_MODIFIER, L.ENEMY_SHIP, -1, 2, 0, 0]]
    assert program(content, "Kedge Ball") == [[L.ANCHOR_DOWN, L.ENEMY_SHIP, 0, 0, 0, L.IF_HIT]]
    assert program(content, "Orgueil") == [
        [L.INSULT, L.NO_TARGET, 0, 0, 0, L.ALWAYS],
        [L.HOLE, L.ENEMY_SHIP, 1, 0, 0, L.IF_WON],
        [L.HOLE, L.OWN_SHIP, 1, 0, 0, L.IF_LOST],
    ]
    assert program(content, "Bolas") == [[L.STATUS, L.ENEMY_PIRATE_HERE, 0, 2, L.IMMOBILISED, 0]]
    assert program(content, "Saboteurs") == [
        [L.STATUS, L.PIRATES_ENEMY_SHIP, 0, 2, L.NO_BUCKET, 0],
        [L.STATUS, L.PIRATES_ENEMY_SHIP, 0, 2, L.NO_REPAIR, 0],
    ]
    assert program(content, "Colère") == [
        [L.DAMAGE, L.ENEMY_PIRATE_HERE, 1, 0, 0, 0],
        [L.STATUS, L.ENEMY_PIRATE_HERE, 0, 0, L.BURN, 0],
    ]
    assert program(content, "Davy Jones' Locker") == [[L.REVIVE, L.OWN_PIRATE, 0, 0, 0, 0]]
    # Types, sins, flags, choices and modifiers.
    assert content.card_type[c("Chain Shot")] == L.CURSED_BALL
    assert content.card_type[c("Ship's Parrot")] == L.ANIMAL
    assert content.card_type[c("Davy Jones' Locker")] == L.LEGENDARY
    assert content.card_sin[c("Colère")] == L.SINS.index("Colère")
    assert content.card_sin[c("Broadside")] == -1
    assert content.card_flags[c("Spyglass")] == L.TARGETABLE
    assert content.card_flags[c("Gangplank")] == L.ACTIVABLE | L.TARGETABLE | L.REUSABLE
    assert content.card_choice[c("Bolas")] == L.ENEMY_PIRATE_HERE
    assert content.card_choice[c("Davy Jones' Locker")] == L.OWN_PIRATE
    assert content.card_choice[c("Broadside")] == 0
    assert content.mods[c("Ship's Parrot"), : content.mods_len[c("Ship's Parrot")]].tolist() == [
        [L.ATTACK_ROLL, 1]
    ]
    assert content.mods_len[c("Broadside")] == 0


def test_other_example_programs() -> None:
    content = cards.matchup_content(("island-raiders", "cannon-battery"), ())
    assert program(content, "Treasure Map") == [
        [L.DRAW, L.OWN, 1, 0, 0, 0],
        [L.GAIN, L.OWN, 1, 0, L.CANNONBALL, 0],
    ]
    assert program(content, "Envie") == [[L.STEAL, L.ENEMY, 2, 0, L.PLANK, 0]]
    assert program(content, "Clear the Beach") == [
        [L.CLEAR_ISLAND, L.THE_ISLAND, 0, 0, 0, 0],
        [L.GAIN, L.OWN, 1, 0, L.FOOD_PROVISION, 0],
    ]
    assert program(content, "Salted Pork") == []
    bilge = cards.load_file(example("cards.toml")).cards["Bilge Monkey"]
    assert bilge.mods == ((L.BAIL, 10),)


def test_a_cursed_balls_hit_only_effects_load(tmp_path: Path) -> None:
    # on = "hit" marks the effects that need the shot to hit; the others come with any
    # shot; an insult's won/lost branches still work beside it.
    path, _ = write(
        tmp_path,
        """
        [[card]]
        name = "Boarding Hook"
        type = "cursed_ball"
        [[card.effect]]
        do = "water"
        target = "enemy_ship"
        amount = 10
        [[card.effect]]
        do = "mast_broken"
        target = "enemy_ship"
        turns = 2
        on = "hit"
        [[card.effect]]
        do = "insult"
        [[card.effect]]
        do = "hole"
        target = "enemy_ship"
        on = "won"
        """,
        "hook.toml",
    )
    card = cards.load_file(path).cards["Boarding Hook"]
    assert [row[L.EFFECT.ON] for row in card.program] == [
        L.ALWAYS,
        L.IF_HIT,
        L.ALWAYS,
        L.IF_WON,
    ]


def test_a_ships_or_triggers_hit_only_effect_is_refused(tmp_path: Path) -> None:
    ship = """
        [[ship]]
        name = "Sloop"
        when = "water_at_least"
        value = 50
        [[ship.effect]]
        do = "repair"
        target = "own_ship"
        on = "hit"  # <-
        """
    path, line = write(tmp_path, ship)
    message = error_of(path)
    assert message.startswith(f"{path}:{line}: ship 'Sloop', effect 1: on = 'hit' is"), message
    assert "not for a ship's trigger's" in message
    animal = """
        [[card]]
        name = "Gull"
        type = "animal"
        [[card.trigger]]
        on = "hit"
        [[card.trigger.effect]]
        do = "heal"
        target = "self"
        on = "hit"  # <-
        """
    path, line = write(tmp_path, animal)
    message = error_of(path)
    assert message.startswith(f"{path}:{line}: "), message
    assert "on = 'hit' is only for a cursed ball's effects" in message
    assert "not for a triggered ability's" in message


def test_a_cards_cost_reaches_the_engines(tmp_path: Path) -> None:
    path, _ = write(
        tmp_path,
        """
        [[card]]
        name = "Costly Shot"
        type = "event"
        cost = { cannonballs = 2, action = true }
        [[card.effect]]
        do = "hole"
        target = "enemy_ship"
        """,
        "costly.toml",
    )
    card = cards.load_file(path).cards["Costly Shot"]
    assert card.cost == (0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0)
    free = cards.load_file(example("cards.toml")).cards["Broadside"]
    assert free.cost == (0,) * L.COST_SIZE


def test_deck_content_is_the_deck_in_both_seats() -> None:
    content = cards.deck_content("island-raiders")
    assert content.deck_names == ("island-raiders", "island-raiders")
    assert np.array_equal(content.deck[0], content.deck[1])
    assert len(content.names) == 13


def test_rules_content_uses_the_loader() -> None:
    content = BattleRules().content()
    assert content.deck_names == ("boarding-party", "island-raiders")
    assert BattleRules().content() is content  # cached


# --- references, blanks, caching ---------------------------------------------------------


def test_deck_references(tmp_path: Path) -> None:
    path, _ = write(tmp_path, LIBRARY + GOOD_DECK, "mine.toml")
    content = cards.matchup_content((str(path), "boarding-party"), ())
    assert content.deck_names == ("test-deck", "boarding-party")
    two = LIBRARY + GOOD_DECK + GOOD_DECK.replace("test-deck", "other")
    many, _ = write(tmp_path, two, "many.toml")
    with pytest.raises(BalanceError, match=r"holds 2 decks \(test-deck, other\)"):
        cards.matchup_content((str(many), str(path)), ())
    content = cards.matchup_content((f"{many}:other", f"{many}:test-deck"), ())
    assert content.deck_names == ("other", "test-deck")
    with pytest.raises(BalanceError, match=r"no deck 'othr' \(did you mean 'other'\?\)"):
        cards.matchup_content((f"{many}:othr", str(path)), ())
    with pytest.raises(BalanceError, match=r"did you mean 'cannon-battery'"):
        cards.matchup_content(("canon-battery", str(path)), ())
    with pytest.raises(BalanceError, match="no such file"):
        cards.matchup_content((str(tmp_path / "gone.toml"), str(path)), ())


def test_cards_defined_differently_by_two_decks_are_refused(tmp_path: Path) -> None:
    mine, _ = write(tmp_path, LIBRARY + GOOD_DECK, "mine.toml")
    other = LIBRARY.replace('target = "own_ship"', 'target = "own_ship"\namount = 2')
    theirs, _ = write(tmp_path, other + GOOD_DECK.replace("test-deck", "b"), "theirs.toml")
    with pytest.raises(BalanceError, match="card 'Plug the Leaks' is defined differently at"):
        cards.matchup_content((str(mine), str(theirs)), ())
    same, _ = write(tmp_path, LIBRARY + GOOD_DECK.replace("test-deck", "c"), "same.toml")
    assert len(cards.matchup_content((str(mine), str(same)), ()).names) == 3


def test_blanks() -> None:
    plain = cards.matchup_content(("cannon-battery", "boarding-party"), ())
    content = cards.matchup_content(
        ("cannon-battery", "boarding-party"), ((0, "Chain Shot"), (1, "Saboteurs"))
    )
    chain, saboteurs = content.card_id("Chain Shot"), content.card_id("Saboteurs")
    assert chain not in content.deck[0] and saboteurs not in content.deck[1]
    assert (content.deck[0] == 0).sum() == 2 and (content.deck[1] == 0).sum() == 2
    assert np.array_equal(content.deck_cards, plain.deck_cards)  # records keep their rows
    kept = plain.deck[0][plain.deck[0] != chain]
    assert np.array_equal(kept, np.delete(content.deck[0], [1, 2]))
    with pytest.raises(BalanceError, match=r"blank 0:Brodside: no card 'Brodside' \(did you"):
        cards.matchup_content(("cannon-battery", "boarding-party"), ((0, "Brodside"),))
    with pytest.raises(BalanceError, match="seat 1's deck 'boarding-party' has no card 'Spyglass'"):
        cards.matchup_content(("cannon-battery", "boarding-party"), ((1, "Spyglass"),))
    with pytest.raises(BalanceError, match="seat 0's deck 'cannon-battery' has no card 'Lookout'"):
        cards.matchup_content(("cannon-battery", "boarding-party"), ((0, "Lookout"),))
    rules = BattleRules(decks=("cannon-battery", "boarding-party"), blanks=("1:Saboteurs",))
    assert saboteurs not in rules.content().deck[1]


def test_includes_are_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    write(tmp_path, LIBRARY, "lib/library.toml")
    deck, _ = write(tmp_path, 'include = ["lib/library.toml"]\n' + GOOD_DECK, "deck.toml")
    library = cards.load_file(deck)
    assert library.own_decks == ("test-deck",)
    assert set(library.cards) == {"Broadside", "Plug the Leaks", "Kraken"}
    assert library.files[-1] == deck.resolve()
    # A diamond (two files including the same library) loads it once.
    write(tmp_path, 'include = ["library.toml"]\n', "lib/a.toml")
    write(tmp_path, 'include = ["library.toml"]\n', "lib/b.toml")
    top, _ = write(tmp_path, 'include = ["lib/a.toml", "lib/b.toml"]\n' + GOOD_DECK, "top.toml")
    assert len(cards.load_file(top).files) == 4


def test_cache_follows_the_files(tmp_path: Path) -> None:
    (tmp_path / "library.toml").write_text(LIBRARY)
    deck, _ = write(tmp_path, 'include = ["library.toml"]\n' + GOOD_DECK, "deck.toml")
    first = cards.matchup_content((str(deck), str(deck)), ())
    assert cards.matchup_content((str(deck), str(deck)), ()) is first
    assert cards.load_file(deck) is cards.load_file(deck)
    # A change in an included file is seen.
    library = tmp_path / "library.toml"
    library.write_text(
        LIBRARY.replace(
            'do = "hole"\ntarget = "enemy_ship"',
            'do = "hole"\ntarget = "enemy_ship"\namount = 3',
            1,
        )
    )
    stat = library.stat()
    os.utime(library, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = cards.matchup_content((str(deck), str(deck)), ())
    assert second is not first
    assert program(second, "Broadside") == [[L.HOLE, L.ENEMY_SHIP, 3, 0, 0, 0]]
    # A mistake written into the deck file is seen too.
    deck.write_text(deck.read_text().replace('"Broadside" = 10', '"Broadside" = 9'))
    stat = deck.stat()
    os.utime(deck, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    with pytest.raises(BalanceError, match="19 cards"):
        cards.matchup_content((str(deck), str(deck)), ())


# --- mistakes: each names the file, the line and the reason ------------------------------


def check(tmp_path: Path, text: str, reason: str) -> str:
    """The mistake ``load_file`` finds at the marked line (a file's mistakes come in file
    order: one at a table's header, such as a missing field, comes before its fields')."""
    path, line = write(tmp_path, text)
    assert line, "the test text needs a '# <-' mark"
    error_of(path)  # one line
    with pytest.raises(BalanceError) as caught:
        cards.load_file(path)
    found = getattr(caught.value, "lines", [str(caught.value)])
    at = [message for message in found if message.startswith(f"{path}:{line}: ")]
    assert at, found
    assert any(reason in message for message in at), at
    return next(message for message in at if reason in message)


EVENT = ['name = "Test"', 'type = "event"']


def effect(*lines: str, card: tuple[str, ...] = tuple(EVENT)) -> str:
    return card_text(*card) + card_text(*lines, header="[[card.effect]]")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # TOML syntax
        ('[[card]]\nname = "X"\ntype = event  # <-\n', "TOML syntax error: Invalid value"),
        ('[[card]]\nname = "X"\nname = "Y"  # <-\n', "TOML syntax error: Cannot overwrite"),
        # unknown fields
        ("[[cards]]  # <-\n", "unknown field 'cards' (did you mean 'card'?); allowed: include,"),
        (card_text(*EVENT, "damge = 1  # <-"), "card 'Test': unknown field 'damge'; allowed: na"),
        (effect('do = "hole"', 'target = "enemy_ship"', "amout = 1  # <-"), "unknown field 'am"),
        (card_text(*EVENT, "targetable = true  # <-"), "only items have 'targetable'"),
        # unknown names
        (effect('do = "sink"  # <-'), "unknown do 'sink'; one of: water, hole, repair,"),
        (effect('do = "hole"', 'target = "enemy_boat"  # <-'), "unknown target 'enemy_boat'"),
        (
            effect('do = "status"', 'target = "enemy_pirate"', 'status = "sleepy"  # <-'),
            "unknown status 'sleepy'; one of: burn, immobilised, drunk",
        ),
        (
            effect('do = "gain"', 'target = "own"', 'provision = "rum"  # <-'),
            "unknown provision 'rum'; one of: planks, cannonballs",
        ),
        (
            effect('do = "move"', 'target = "own_pirate"', 'to = "shore"  # <-'),
            "unknown to 'shore'; one of: own_ship, enemy_ship, island",
        ),
        (
            effect('do = "insult"', 'on = "lose"  # <-'),
            "unknown on 'lose' (did you mean 'lost'?); one of: always, won, lost",
        ),
        (
            card_text('name = "T"', 'type = "animal"')
            + card_text('stat = "luck"  # <-', "amount = 1", header="[[card.modifier]]"),
            "unknown stat 'luck'; one of: attack_roll, cannon_roll, bail",
        ),
        (card_text(*EVENT, 'sin = "Greed"  # <-'), "unknown sin 'Greed'; one of: Luxure,"),
        (card_text('name = "T"', 'type = "trap"  # <-'), "unknown type 'trap'; one of: animal,"),
        (card_text('name = "T"', 'type = "ship"  # <-'), "write it as a [[ship]] table"),
        # targets an op does not take
        (
            effect('do = "damage"', 'target = "enemy_ship"  # <-'),
            "damage cannot target 'enemy_ship'; it takes: own_pirate, own_pirate_here, "
            "enemy_pirate, enemy_pirate_here, pirates_own_ship, pirates_enemy_ship, "
            "pirates_island",
        ),
        (effect('do = "hole"', 'target = "enemy"  # <-'), "takes: own_ship, enemy_ship"),
        (effect('do = "draw"', 'target = "own_ship"  # <-'), "draw cannot target 'own_ship'"),
        (
            effect('do = "steal"', 'target = "own"  # <-', 'provision = "food"'),
            "steal cannot target 'own'; it takes: enemy",
        ),
        (effect('do = "revive"', 'target = "enemy_pirate"  # <-'), "it takes: own_pirate"),
        (
            effect('do = "extra_action"', 'target = "pirates_own_ship"  # <-'),
            "it takes: own_pirate, own_pirate_here",
        ),
        (effect('do = "clear_island"', 'target = "enemy_ship"  # <-'), "it takes: island"),
        (card_text(*EVENT, "cost = 2  # <-"), "'cost' must be a table, e.g. cost = {"),
        (card_text(*EVENT, "cost = { rum = 1 }  # <-"), "unknown field 'rum'"),
        (card_text(*EVENT, "cost = { planks = 0 }  # <-"), "'planks' = 0 is out of range"),
        (card_text(*EVENT, "cost = {}  # <-"), "an empty cost: name provisions"),
        (
            card_text('name = "T"', 'type = "item"', "cost = { action = true }  # <-"),
            "an item already costs the action of the pirate it goes to",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'if = "raining"  # <-'),
            "unknown if 'raining'; one of: own_water_at_least, enemy_anchor_down,",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'if = "own_water_at_least"'),
            "missing 'value': the water level (1..999)",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', "value = 50  # <-"),
            "'value' is the number of a condition ('own_water_at_least', 'own_holes_at_least', "
            "'enemy_holes_at_least', 'enemy_water_at_least'): there is no 'if'",
        ),
        (
            effect(
                'do = "hole"',
                'target = "enemy_ship"',
                'if = "enemy_anchor_down"',
                "value = 5  # <-",
            ),
            "if = 'enemy_anchor_down' takes none",
        ),
        (
            effect('do = "heal"', 'target = "self"  # <-'),
            "an event has no holder: 'self' is the pirate holding an item",
        ),
        (
            effect('do = "extra_action"', 'target = "random_enemy_pirate"  # <-'),
            "extra_action cannot target 'random_enemy_pirate'; it takes: own_pirate, "
            "own_pirate_here, self",
        ),
        (effect('do = "insult"', 'target = "enemy"  # <-'), "insult takes no target"),
        # missing fields
        (card_text('name = "T"'), "card 'T': missing 'type'"),
        (card_text('type = "event"'), "missing 'name'"),
        (effect('target = "own"'), "missing 'do'"),
        (effect('do = "hole"'), "missing 'target'; hole takes one of: own_ship, enemy_ship"),
        (effect('do = "status"', 'target = "enemy_pirate"'), "missing 'status'; one of: burn,"),
        (effect('do = "gain"', 'target = "own"'), "missing 'provision'; one of: planks,"),
        (effect('do = "move"', 'target = "own_pirate"'), "missing 'to'; one of: own_ship,"),
        (effect('do = "water"', 'target = "own_ship"'), "missing 'amount' (-999..999, not 0)"),
        (
            effect('do = "pacify_cannons"', 'target = "enemy_ship"'),
            "missing 'turns': pacify_cannons lasts 1..99 turns",
        ),
        (
            effect('do = "status"', 'target = "enemy_pirate"', 'status = "drunk"'),
            "missing 'turns': drunk status lasts 1..99 turns",
        ),
        (effect('do = "strip"', 'target = "enemy"'), "missing 'turns': strip lasts 1..99 turns"),
        (
            effect('do = "cannon_modifier"', 'target = "own_ship"', "amount = 1"),
            "missing 'turns': cannon_modifier lasts",
        ),
        # amounts and turns out of range, or not taken
        (
            effect('do = "pacify_cannons"', 'target = "enemy_ship"', "turns = 0  # <-"),
            "'turns' = 0 is out of range: allowed 1..99",
        ),
        (
            effect('do = "damage"', 'target = "enemy_pirate"', "amount = 0  # <-"),
            "'amount' = 0 is out of range: allowed 1..99",
        ),
        (
            effect('do = "water"', 'target = "enemy_ship"', "amount = 0  # <-"),
            "allowed -999..999, not 0",
        ),
        (
            effect('do = "anchor_down"', 'target = "enemy_ship"', "turns = -1  # <-"),
            "allowed 0..99",
        ),
        (
            effect('do = "status"', 'target = "enemy_pirate"', 'status = "burn"', "turns = 0 # <-"),
            "'turns' = 0 is out of range: allowed 1..99",
        ),
        (effect('do = "damage"', 'target = "enemy_pirate"', "turns = 2  # <-"), "takes no 'turns'"),
        (effect('do = "revive"', 'target = "own_pirate"', "amount = 1  # <-"), "takes no 'amount'"),
        (effect('do = "hole"', 'target = "enemy_ship"', 'status = "burn"  # <-'), "no 'status'"),
        (
            effect('do = "damage"', 'target = "enemy_pirate"', 'amount = "two"  # <-'),
            "'amount' must be a whole number, not 'two'",
        ),
        (
            effect('do = "damage"', 'target = "enemy_pirate"', "amount = true  # <-"),
            "'amount' must be a whole number, not true",
        ),
        (card_text(*EVENT, "copies = 0  # <-"), "'copies' = 0 is out of range: allowed 1..20"),
        (card_text("name = 3  # <-", 'type = "event"'), "'name' must be a quoted string, not 3"),
        # programs
        (
            effect('do = "damage"', 'target = "enemy_pirate"')
            + card_text('do = "heal"', 'target = "own_pirate"  # <-', header="[[card.effect]]"),
            "'own_pirate' but an earlier effect chooses 'enemy_pirate'; a card chooses one",
        ),
        (
            effect(
                'do = "damage"',
                'target = "enemy_pirate"  # <-',
                card=('name = "T"', 'type = "cursed_ball"'),
            ),
            "a cursed ball cannot choose a pirate ('enemy_pirate'): use pirates_own_ship",
        ),
        (
            effect(
                'do = "heal"', 'target = "own_pirate"  # <-', card=('name = "T"', 'type = "island"')
            ),
            "an island card cannot choose a pirate ('own_pirate')",
        ),
        (
            effect(
                'do = "damage"',
                'target = "enemy_pirate"  # <-',
                card=('name = "T"', 'type = "food"'),
            ),
            "food acts on the pirate it feeds: use 'own_pirate'",
        ),
        (
            effect(
                'do = "revive"  # <-', 'target = "own_pirate"', card=('name = "T"', 'type = "food"')
            ),
            "food cannot revive",
        ),
        (
            card_text('name = "T"', 'type = "animal"')
            + card_text('do = "hole"', header="[[card.effect]]  # <-"),
            "an animal has no effects, only [[card.modifier]] tables",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'on = "won"  # <-'),
            "on = 'won' needs an insult effect before it",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'on = "hit"  # <-'),
            "card 'Test', effect 1: on = 'hit' is only for a cursed ball's effects (those that "
            "need its shot to hit), not for an event's",
        ),
        (
            effect(
                'do = "heal"',
                'target = "own_pirate"',
                'on = "hit"  # <-',
                card=('name = "T"', 'type = "food"'),
            ),
            "on = 'hit' is only for a cursed ball's effects",
        ),
        (card_text(*EVENT), "an event needs at least one [[card.effect]] (applied when played)"),
        (
            card_text(*EVENT)
            + card_text('stat = "bail"', "amount = 1", header="[[card.modifier]]  # <-"),
            "an event has no modifiers (only animals and items do)",
        ),
        (
            card_text('name = "T"', 'type = "item"', "reusable = true  # <-"),
            "'reusable' needs an activation",
        ),
        (
            card_text(*EVENT) + '[card.effect]  # <-\ndo = "draw"\ntarget = "own"\n',
            "write [[card.effect]] (double brackets), one for each effect",
        ),
    ],
)
def test_card_mistakes(tmp_path: Path, text: str, reason: str) -> None:
    check(tmp_path, mark_last_header(text), reason)


def mark_last_header(text: str) -> str:
    """Without a mark, expect the error at the last table header (a missing field)."""
    if MARK in text:
        return text
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("["))
    lines[last] += "  " + MARK
    return "\n".join(lines) + "\n"


def test_too_many_effects_and_modifiers(tmp_path: Path) -> None:
    hole = card_text('do = "hole"', 'target = "enemy_ship"', header="[[card.effect]]")
    text = card_text(*EVENT) + hole * 8 + hole.replace("]]", "]]  # <-", 1)
    check(tmp_path, text, "card 'Test', effect 9: 9 effects; at most 8")
    mod = card_text('stat = "bail"', "amount = 10", header="[[pirate.modifier]]")
    text = card_text('name = "P"', header="[[pirate]]") + mod * 4 + mod.replace("]]", "]] # <-", 1)
    check(tmp_path, text, "pirate 'P', modifier 5: 5 modifiers; at most 4 on one pirate")


def test_weapons_pirates_ships(tmp_path: Path) -> None:
    check(tmp_path, '[[weapon]]\nname = "W"\nhits_on = 7  # <-\ndamage = 1\n', "allowed 1..6")
    check(tmp_path, '[[weapon]]\nname = "W"\nhits_on = 4\ndamage = 0  # <-\n', "allowed 1..9")
    check(tmp_path, '[[weapon]]  # <-\nname = "W"\ndamage = 1\n', "missing 'hits_on' (1..6)")
    check(tmp_path, '[[pirate]]\nname = "P"\nlife = 3  # <-\n', "unknown field 'life'")
    check(
        tmp_path,
        '[[ship]]\nname = "S"\nwhen = "water_at_least"  # <-\nvalue = 50\n',
        "a trigger needs [[ship.effect]] tables",
    )
    check(
        tmp_path,
        '[[ship]]  # <-\nname = "S"\nwhen = "water_at_least"\n'
        '[[ship.effect]]\ndo = "repair"\ntarget = "own_ship"\n',
        "ship 'S': missing 'value' (1..999)",
    )
    check(tmp_path, '[[ship]]\nname = "S"\nvalue = 50  # <-\n', "'value' needs a trigger")
    check(
        tmp_path,
        '[[ship]]\nname = "S"\n[[ship.effect]]  # <-\ndo = "repair"\ntarget = "own_ship"\n',
        "ship effects need a trigger",
    )
    check(
        tmp_path,
        '[[ship]]\nname = "S"\nwhen = "water_at_least"\nvalue = 50\n'
        '[[ship.effect]]\ndo = "damage"\ntarget = "own_pirate"  # <-\n',
        "a ship's trigger cannot choose a pirate",
    )
    check(tmp_path, '[[ship]]\nname = "S"\nwhen = "sinking"  # <-\n', "one of: water_at_least")


def test_duplicate_names(tmp_path: Path) -> None:
    text = card_text(*EVENT) + card_text('do = "draw"', 'target = "own"', header="[[card.effect]]")
    marked = text.replace("[[card]]", "[[card]]  # <-", 1)
    message = check(tmp_path, text + marked, "card 'Test' is defined twice (first at ")
    assert message.endswith(f"{tmp_path / 'bad.toml'}:1)")
    write(tmp_path, text, "library.toml")
    message = check(tmp_path, 'include = ["library.toml"]\n' + marked, "is defined twice")
    assert message.endswith(f"{tmp_path / 'library.toml'}:1)")
    check(
        tmp_path,
        '[[weapon]]\nname = "W"\nhits_on = 4\ndamage = 1\n' * 1
        + '[[weapon]]  # <-\nname = "W"\nhits_on = 4\ndamage = 1\n',
        "weapon 'W' is defined",
    )


def test_includes_mistakes(tmp_path: Path) -> None:
    check(tmp_path, 'include = ["nowhere.toml"]  # <-\n', "include 1: no file 'nowhere.toml'")
    (tmp_path / "a.toml").write_text("")
    check(
        tmp_path,
        'include = [\n    "a.toml",\n    "missing.toml",  # <-\n]\n',
        "include 2: no file 'missing.toml'",
    )
    write(tmp_path, 'include = ["b.toml"]\n', "a.toml")
    b, _ = write(tmp_path, '# b includes a\ninclude = ["a.toml"]\n', "b.toml")
    with pytest.raises(BalanceError) as caught:
        cards.load_file(tmp_path / "a.toml")
    assert str(caught.value) == f"{b}:2: include cycle: a.toml -> b.toml -> a.toml"
    check(tmp_path, 'include = ["bad.toml"]  # <-\n', "include cycle: bad.toml -> bad.toml")
    check(tmp_path, "include = 3  # <-\n", "'include' must be a list of file paths")
    # A mistake in an included file names that file.
    write(tmp_path, '[[card]]\nname = "X"\ntype = "evnt"\n', "broken.toml")
    top, _ = write(tmp_path, 'include = ["broken.toml"]\n', "top.toml")
    with pytest.raises(BalanceError, match=r"broken\.toml:3: card 'X': unknown type 'evnt'"):
        cards.load_file(top)


def deck_check(tmp_path: Path, deck: str, reason: str) -> str:
    (tmp_path / "library.toml").write_text(LIBRARY)
    return check(tmp_path, 'include = ["library.toml"]\n' + deck, reason)


def replace(old: str, new: str) -> str:
    assert old in GOOD_DECK
    return GOOD_DECK.replace(old, new)


@pytest.mark.parametrize(
    ("deck", "reason"),
    [
        (replace('"Broadside" = 10', '"Broadside" = 9'), "deck 'test-deck': 19 cards; a deck ha"),
        (
            replace('"Broadside" = 10', '"Broadside" = 9\n"Kraken" = 2  # <-'),
            "2 copies of 'Kraken', above its copy limit of 1 (set copies = 2 on the card and "
            "play with --rule legendary_copies=2)",
        ),
        (
            replace(
                '"Broadside" = 10\n"Plug the Leaks" = 10',
                '"Plug the Leaks" = 9\n"Broadside" = 11  # <-',
            ),
            "11 copies of 'Broadside', above its copy limit of 10 (set copies = N on the "
            "card to change it)",
        ),
        (
            replace('"Broadside" = 10', '"Brodside" = 10  # <-'),
            "unknown card 'Brodside' (did you mean 'Broadside'?)",
        ),
        (replace('"Broadside" = 10', '"Broadside" = 0  # <-'), "copies must be a whole number"),
        (replace('ship = "Brig"', 'ship = "Brg"  # <-'), "unknown ship 'Brg' (did you mean 'Br"),
        (
            replace(
                '{ name = "Jack", weapons = ["Dagger", "Cutlass"] },',
                '{ name = "Jak", weapons = ["Dagger", "Cutlass"] },  # <-',
            ),
            "pirate 2: unknown pirate 'Jak' (did you mean 'Jack'?)",
        ),
        (
            replace(
                '{ name = "Jack", weapons = ["Dagger", "Cutlass"] },',
                '{ name = "Anne", weapons = ["Dagger", "Cutlass"] },  # <-',
            ),
            "'Anne' is already this deck's other pirate",
        ),
        (
            replace('["Dagger", "Cutlass"] },', '["Dagger", "Dagger"] },  # <-'),
            "'Jack' has 'Dagger' twice; a pirate has 2 different weapons",
        ),
        (
            replace('["Cutlass", "Dagger"] },', '["Cutlass", "Sabre"] },  # <-'),
            "unknown weapon 'Sabre'",
        ),
        (replace('["Cutlass", "Dagger"] },', '["Cutlass"] },  # <-'), "a pirate has 2 weapons, no"),
        (
            replace("pirates = [", "pirates = [  # <-").replace(
                '"Cutlass"] },\n]', '"Cutlass"] },\n    { name = "Anne", weapons = [] },\n]'
            ),
            "a deck has 2 pirates, not 3",
        ),
        (replace("planks = 10", "planks = 80"), "100 provisions; a reserve holds at most 99"),
        (replace("food = 4", "food = -1  # <-"), "'food' = -1 is out of range: allowed 0..99"),
        (replace("food = 4", "mangue = 100  # <-"), "'mangue' = 100 is out of range"),
        (
            replace("food = 4", "mangos = 4  # <-"),
            "unknown provision 'mangos' (did you mean 'mangue'?); one of: planks, cannonballs, "
            "food, chaos_balls, incendiary_balls, or a kind of food: banane, noix_de_coco, "
            "grenade, mangue, ananas",
        ),
        (
            replace("food = 4", 'noix_de_coco = 2\n"Noix de coco" = 2  # <-'),
            "'Noix de coco' names noix_de_coco again ('noix_de_coco')",
        ),
        (replace("food = 4", "rum = 4  # <-"), "unknown provision 'rum'; one of: planks,"),
        (
            replace('name = "test-deck"', 'name = "test-deck"\ncolour = "red"  # <-'),
            "deck 'test-deck': unknown field 'colour'; allowed: name, text, ship, pirates,",
        ),
        (
            replace("[[deck]]", "[[deck]]  # <-").split("[deck.provisions]")[0],
            "deck 'test-deck': missing 'provisions'",
        ),
    ],
)
def test_deck_mistakes(tmp_path: Path, deck: str, reason: str) -> None:
    if "# <-" not in deck:
        # Size and provision totals are reported at their table's header.
        header = "[deck.provisions]" if "provisions" in reason else "[deck.cards]"
        deck = deck.replace(header, header + "  # <-")
    deck_check(tmp_path, deck, reason)


def test_deck_mistake_lines_with_inline_tables(tmp_path: Path) -> None:
    inline = """
    [[deck]]
    name = "inline"
    ship = "Brig"
    pirates = [{ name = "Anne", weapons = ["Cutlass", "Dagger"] },
        { name = "Jack", weapons = ["Dagger", "Cutlass"] }]
    cards = { "Broadside" = 10, "Plug the Leaks" = 9 }  # <-
    provisions = { planks = 10 }
    """
    deck_check(tmp_path, inline, "deck 'inline': 19 cards")
    deck_check(
        tmp_path,
        inline.replace("= 9 }  # <-", "= 10 }").replace("{ planks = 10 }", "{ rum = 1 }  # <-"),
        "unknown provision 'rum'",
    )
    deck_check(
        tmp_path,
        inline.replace("# <-", "").replace('"Cutlass"] }]', '"Dagger"] }]  # <-'),
        "deck 'inline', pirate 2: 'Jack' has 'Dagger' twice",
    )


def test_deck_check_refuses_what_simulate_refuses(tmp_path: Path, monkeypatch) -> None:
    """A legendary card whose own copy limit is raised to 2 still plays one copy a deck
    (rule ``legendary_copies``): deck check says so at the deck's line, and simulate
    refuses the deck unless the rule is raised."""
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(
        LIBRARY.replace('type = "legendary"', 'type = "legendary"\ncopies = 2')
    )
    deck = replace('"Broadside" = 10', '"Broadside" = 8\n"Kraken" = 2')
    Path("deck.toml").write_text('include = ["library.toml"]\n' + textwrap.dedent(deck))
    line = Path("deck.toml").read_text().splitlines().index('"Kraken" = 2') + 1
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"deck.toml:{line}: deck 'test-deck', cards: 2 copies of the legendary card 'Kraken'; "
        "the rule legendary_copies allows 1 (to play it: --rule legendary_copies=2)"
    ]
    assert result.stdout == ""
    rules = BattleRules(decks=("deck.toml", "deck.toml"))
    with pytest.raises(BalanceError, match="legendary_copies allows 1"):
        rules.content()
    BattleRules(decks=("deck.toml", "deck.toml"), legendary_copies=2).content()  # it plays


def test_deck_check_holds_decks_to_the_rules_with_rule(tmp_path: Path, monkeypatch) -> None:
    """``deck check --rule`` holds a deck to the rules as ``simulate --rule`` does: the
    same file refused by both under the defaults, accepted by both under the rule."""
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(
        LIBRARY.replace('type = "legendary"', 'type = "legendary"\ncopies = 2')
    )
    deck = replace('"Broadside" = 10', '"Broadside" = 8\n"Kraken" = 2')
    Path("deck.toml").write_text('include = ["library.toml"]\n' + textwrap.dedent(deck))
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml", "--rule", "legendary_copies=2"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("test-deck (deck.toml): 20 cards, 3 distinct, 30 provisions")
    BattleRules(decks=("deck.toml", "deck.toml"), legendary_copies=2).content()
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml", "-r", "legendary_copies=3"])
    assert result.exit_code == 0
    # A wrong --rule is a one-line error, as for simulate (exit code 2 in `balance`).
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml", "--rule", "legendary=2"])
    assert isinstance(result.exception, BalanceError)
    assert str(result.exception).startswith(
        "--rule legendary: deck check holds a deck to reserve_size and legendary_copies "
        "only (did you mean 'legendary_copies'?)"
    )


def test_a_reserve_holds_exactly_reserve_size(tmp_path: Path, monkeypatch) -> None:
    """A deck whose starting reserve is not 30 loads, but deck check and simulate refuse
    it with the same reason (deck check at its provisions table) unless reserve_size says
    so."""
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(LIBRARY)
    deck = replace("planks = 10", "planks = 6")  # 26 provisions
    Path("deck.toml").write_text('include = ["library.toml"]\n' + textwrap.dedent(deck))
    line = Path("deck.toml").read_text().splitlines().index("[deck.provisions]") + 1
    reason = (
        "26 provisions; the rule reserve_size asks exactly 30 in a starting reserve (to play "
        "it: --rule reserve_size=26)"
    )
    assert sum(cards.load_file("deck.toml").decks["test-deck"].provisions) == 26
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"deck.toml:{line}: deck 'test-deck', provisions: {reason}"
    ]
    with pytest.raises(BalanceError) as caught:
        BattleRules(decks=("deck.toml", "deck.toml")).content()
    assert str(caught.value) == f"deck 'test-deck': {reason}"
    result = CliRunner().invoke(cli, ["deck", "check", "deck.toml", "--rule", "reserve_size=26"])
    assert result.exit_code == 0, result.stderr
    assert "26 provisions, ok" in result.stdout
    content = BattleRules(decks=("deck.toml", "deck.toml"), reserve_size=26).content()
    assert list(content.provisions[0]) == [6, 12, 4, 2, 2]
    # The rule's range, and every example deck (and the documented one) holds 30.
    with pytest.raises(BalanceError, match="reserve_size"):
        BattleRules(reserve_size=100)
    for name in ("cannon-battery", "boarding-party", "island-raiders"):
        assert int(cards.deck_content(name).provisions[0].sum()) == 30, name


def test_legendary_and_reserve_mistakes_come_in_file_order(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(
        LIBRARY.replace('type = "legendary"', 'type = "legendary"\ncopies = 2')
    )
    first = replace('"Broadside" = 10', '"Broadside" = 8\n"Kraken" = 2')
    first = first.replace("planks = 10", "planks = 9")  # 29 provisions
    second = replace('name = "test-deck"', 'name = "second"').replace("food = 4", "food = 5")
    # The first deck's provisions come before its cards.
    cards_part, provisions_part = first.split("[deck.provisions]")
    first = cards_part.replace(
        "[deck.cards]", "[deck.provisions]" + provisions_part + "\n[deck.cards]"
    )
    Path("decks.toml").write_text('include = ["library.toml"]\n' + first + second)
    text = Path("decks.toml").read_text().splitlines()
    found = [line for ok, line in cards.check_each(["decks.toml"]) if not ok]
    numbers = [int(line.split(":")[1]) for line in found]
    assert numbers == sorted(numbers) and len(found) == 3, found
    assert "deck 'test-deck', provisions: 29 provisions" in found[0]
    assert text[numbers[0] - 1] == "[deck.provisions]"
    assert "deck 'test-deck', cards: 2 copies of the legendary card 'Kraken'" in found[1]
    assert text[numbers[1] - 1] == '"Kraken" = 2'
    assert "deck 'second', provisions: 31 provisions" in found[2]
    # With a mistake elsewhere in the file (before and after), the decks read without one
    # are still held to the rules, every mistake in file order.
    broken = '[[weapon]]\nname = "Hook"\nhits_on = 9\ndamage = 1\n'
    Path("decks.toml").write_text(
        'include = ["library.toml"]\n' + broken + first + second + broken.replace("Hook", "Gaff")
    )
    found = [line for ok, line in cards.check_each(["decks.toml"]) if not ok]
    assert len(found) == 5, found
    assert "weapon 'Hook'" in found[0] and "weapon 'Gaff'" in found[4]
    assert "29 provisions" in found[1] and "legendary card 'Kraken'" in found[2]
    assert "31 provisions" in found[3]


def test_mistakes_come_in_file_order(tmp_path: Path, monkeypatch) -> None:
    """A file's mistakes in the order of its lines, whatever the kind of table (a weapon
    before a card, a deck's provisions before its cards); an include's first."""
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(LIBRARY.replace("hits_on = 4", "hits_on = 0"))
    text = """
    include = ["library.toml"]
    [[weapon]]
    name = "Hook"
    hits_on = 7  # <-1
    damage = 1

    [[card]]
    name = "Leaky"
    type = "event"
    colour = "red"  # <-2
    [[card.effect]]
    do = "hole"
    target = "enemy_shp"  # <-3

    [[deck]]
    name = "many"
    ship = "Brig"
    pirates = [
        { name = "Anne", weapons = ["Cutlass", "Dagger"] },
        { name = "Jack", weapons = ["Dagger", "Cutlas"] },  # <-4
    ]

    [deck.provisions]
    planks = 10
    rum = 2  # <-5

    [deck.cards]
    "Broadside" = 10
    "Plug the Leaks" = 8
    "Leaky" = 2
    "Sea Serpent" = 1  # <-6
    """
    path, _ = write(tmp_path, text, "order.toml")
    lines = path.read_text().splitlines()
    marks = {int(line.split("# <-")[1]): n for n, line in enumerate(lines, 1) if "# <-" in line}
    found = [line for ok, line in cards.check_each(["order.toml"]) if not ok]
    assert found[0].startswith("library.toml:"), found
    assert [int(line.split(":")[1]) for line in found[1:]] == [marks[k] for k in range(1, 7)]
    assert "unknown card 'Sea Serpent'" in found[-1]


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("drunk", L.DRUNK),
        ("ivresse", L.DRUNK),
        ("Ivresse", L.DRUNK),
        ("ivre", L.DRUNK),
        ("brûlure", L.BURN),
        ("brulure", L.BURN),
        ("Brûlure", L.BURN),
        ("poison", L.POISON),
        ("immobilisé", L.IMMOBILISED),
        ("immobilise", L.IMMOBILISED),
        ("immobilisme", L.IMMOBILISED),
        ("désarmé", L.DISARMED),
        ("desarme", L.DISARMED),
        ("pas de canon", L.NO_CANNON),
        ("pas_de_réparation", L.NO_REPAIR),
        ("pas de seau", L.NO_BUCKET),
        ("pas de sceau", L.NO_BUCKET),
    ],
)
def test_statuses_by_their_french_names(tmp_path: Path, written: str, status: int) -> None:
    turns = "" if status in (L.BURN, L.POISON) else "turns = 2\n"
    path, _ = write(
        tmp_path,
        card_text(*EVENT)
        + card_text(
            'do = "status"',
            'target = "enemy_pirate"',
            f'status = "{written}"',
            turns,
            header="[[card.effect]]",
        ),
    )
    (row,) = cards.load_file(path).cards["Test"].program
    assert row[L.EFFECT.ARG] == status


def test_an_unknown_status_is_hinted_in_french_too(tmp_path: Path) -> None:
    text = effect('do = "status"', 'target = "enemy_pirate"', 'status = "brulur"  # <-')
    message = check(tmp_path, text, "unknown status 'brulur' (did you mean 'burn'?)")
    assert "(in French: brûlure, immobilisé, ivresse, poison, désarmé, pas de canon," in message
    check(tmp_path, text.replace("brulur", "ivrese"), "(did you mean 'drunk'?)")


def test_food_kinds_in_a_deck_a_cost_and_an_effect(tmp_path: Path, monkeypatch) -> None:
    """``food = N`` is dealt over the five kinds in turn; a kind named adds to its count
    (accents, case and spaces do not matter); a cost or a gain may name a kind."""
    monkeypatch.chdir(tmp_path)
    library = LIBRARY + textwrap.dedent(
        """
        [[card]]
        name = "Fruit Salad"
        type = "event"
        cost = { food = 1, "Noix de coco" = 1, mangue = 2, action = true }
        [[card.effect]]
        do = "gain"
        target = "own"
        provision = "Mangue"
        [[card.effect]]
        do = "steal"
        target = "enemy"
        provision = "noix de coco"
        amount = 2
        [[card.effect]]
        do = "lose"
        target = "enemy"
        provision = "food"
        """
    )
    Path("library.toml").write_text(library)
    deck = replace("food = 4", 'food = 4\nmangue = 2\n"noix de coco" = 1').replace(
        "planks = 10", "planks = 7"
    )
    deck = deck.replace('"Broadside" = 10', '"Broadside" = 8\n"Fruit Salad" = 2')
    Path("deck.toml").write_text('include = ["library.toml"]\n' + textwrap.dedent(deck))
    loaded = cards.load_file("deck.toml")
    salad = loaded.cards["Fruit Salad"]
    # The food slot holds all the food it costs; the kinds named follow the action.
    assert salad.cost == (0, 0, 4, 0, 0, 1, 0, 1, 0, 2, 0)
    assert [row[L.EFFECT.ARG] for row in salad.program] == [
        L.FOOD_KIND_ARG + 3,
        L.FOOD_KIND_ARG + 1,
        L.FOOD_PROVISION,
    ]
    found = loaded.decks["test-deck"]
    assert found.provisions == (7, 12, 7, 2, 2)
    assert found.food_kinds == (1, 2, 1, 3, 0)  # (1, 1, 1, 1, 0) dealt, then the named
    content = BattleRules(decks=("deck.toml", "deck.toml")).content()
    assert content.food_kinds.tolist() == [[1, 2, 1, 3, 0]] * 2
    assert content.card_cost[content.card_id("Fruit Salad")].tolist() == list(salad.cost)
    # Food of no named kind only: the kinds dealt in turn (the examples' content).
    raiders = cards.deck_content("island-raiders")
    assert raiders.food_kinds[0].tolist() == [2, 1, 1, 1, 1]  # food = 6


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            effect('do = "gain"', 'target = "own"', 'provision = "mango"'),
            "",  # an English name is read too
        ),
        (
            effect('do = "gain"', 'target = "own"', 'provision = "mangoes"  # <-'),
            "unknown provision 'mangoes' (did you mean 'mangue'?); one of: planks,",
        ),
        (
            card_text(*EVENT, "cost = { kiwi = 1 }  # <-"),
            "unknown field 'kiwi'; allowed: planks, cannonballs, food, chaos_balls, "
            "incendiary_balls, banane, noix_de_coco, grenade, mangue, ananas, action",
        ),
        (
            card_text(*EVENT, "cost = { ananas = 0 }  # <-"),
            "'ananas' = 0 is out of range: allowed 1..30",
        ),
        (
            card_text(*EVENT, "cost = { mangue = 1, Mangue = 1 }  # <-"),
            "'Mangue' names mangue again ('mangue')",
        ),
    ],
)
def test_food_kind_mistakes(tmp_path: Path, text: str, reason: str) -> None:
    if not reason:
        path, _ = write(tmp_path, text)
        (row,) = cards.load_file(path).cards["Test"].program
        assert row[L.EFFECT.ARG] == L.FOOD_KIND_ARG + 3
        return
    check(tmp_path, text, reason)


def test_duplicate_deck_names(tmp_path: Path) -> None:
    deck_check(
        tmp_path,
        GOOD_DECK + GOOD_DECK.replace("[[deck]]", "[[deck]]  # <-", 1),
        "deck 'test-deck' is defined twice",
    )


def test_line_numbers_skip_multiline_strings_and_arrays(tmp_path: Path) -> None:
    text = '''
    [[card]]
    name = "Tricky"
    type = "event"
    text = """Looks like a table:
    [[card]]
    do = "nothing"
    """
    [[card.effect]]
    do = "hole"
    target = "enemy_ship"
    [[card.effect]]
    do = "damage"
    target = [  # <-
        "enemy_pirate",
    ]
    '''
    check(tmp_path, text, "card 'Tricky', effect 2: 'target' must be a quoted name, not a list")


# --- the command line --------------------------------------------------------------------


def test_cli_check_ok(tmp_path: Path) -> None:
    (tmp_path / "library.toml").write_text(LIBRARY)
    path, _ = write(tmp_path, 'include = ["library.toml"]\n' + GOOD_DECK, "deck.toml")
    result = CliRunner().invoke(cli, ["deck", "check", str(path), "cannon-battery"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"test-deck ({path}): 20 cards, 2 distinct, 30 provisions, ok"
    assert lines[1].startswith("cannon-battery (") and lines[1].endswith(", ok")
    result = CliRunner().invoke(cli, ["deck", "check", str(tmp_path / "library.toml")])
    assert result.exit_code == 0
    assert result.output.strip().endswith("3 cards, 2 pirates, 2 weapons, 1 ship, no decks, ok")


def test_cli_check_reports_every_bad_file(tmp_path: Path) -> None:
    bad, line = write(tmp_path, '[[card]]\nname = "X"\ntype = "evnt"  # <-\n')
    worse, _ = write(tmp_path, "[[card]\n", "worse.toml")
    result = CliRunner().invoke(
        cli, ["deck", "check", str(bad), "boarding-party", str(worse), "nonsense"]
    )
    assert result.exit_code == 2  # 'nonsense' names nothing: bad input, as a missing file
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr.splitlines() == [
        f"{bad}:{line}: card 'X': unknown type 'evnt' (did you mean 'event'?); one of: animal, "
        "cursed_ball, event, island, food, item, special, legendary",
        f"{worse}:1: TOML syntax error: Expected ']]' at the end of an array declaration "
        "(column 7)",
        "nonsense: no such file, nor an example deck; example decks: boarding-party, "
        "cannon-battery, designer-kit, island-raiders",
    ]
    assert result.stdout.splitlines()[0].startswith("boarding-party (")


def test_cli_check_of_a_missing_file_is_bad_input(tmp_path: Path, monkeypatch) -> None:
    # Exit code 1 says a file has mistakes; a file that is not there is bad input: 2.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["deck", "check", "my-deck.toml"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr == "my-deck.toml: no such file\n"
    bad, _ = write(tmp_path, '[[card]]\nname = "X"\ntype = "evnt"\n')
    assert CliRunner().invoke(cli, ["deck", "check", str(bad)]).exit_code == 1
    assert CliRunner().invoke(cli, ["deck", "check", str(bad), "my-deck.toml"]).exit_code == 2
    assert CliRunner().invoke(cli, ["deck", "check", str(tmp_path)]).exit_code == 2


#: A deck file with six mistakes, each marked with its number: every one is reported in one
#: reading, in file order, and nothing else (the deck's use of the refused card 'Leaky' is
#: not reported again, nor its cards' count).
MANY_MISTAKES = """
include = ["library.toml"]
[[card]]
name = "Leaky"
type = "event"
colour = "red"  # <-1
[[card.effect]]
do = "hole"
target = "enemy_shp"  # <-2
[[card.effect]]
do = "damage"
target = "enemy_pirate"
amount = 0  # <-3

[[weapon]]
name = "Hook"
hits_on = 7  # <-4
damage = 1

[[deck]]
name = "many"
ship = "Brig"
pirates = [
    { name = "Anne", weapons = ["Cutlass", "Dagger"] },
    { name = "Jack", weapons = ["Dagger", "Cutlas"] },  # <-5
]

[deck.cards]
"Broadside" = 10
"Leaky" = 2
"Plug the Leaks" = 8

[deck.provisions]
planks = 10
rum = 2  # <-6
"""


def test_every_mistake_of_a_file_in_one_reading(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("library.toml").write_text(LIBRARY)
    path, _ = write(tmp_path, MANY_MISTAKES, "many.toml")
    text = path.read_text().splitlines()
    lines = {int(line.split("# <-")[1]): n for n, line in enumerate(text, 1) if "# <-" in line}
    with pytest.raises(cards.FileMistakes) as caught:
        cards.load_file("many.toml")
    found = caught.value.lines
    expected = [
        (1, "card 'Leaky': unknown field 'colour'"),
        (2, "card 'Leaky', effect 1: unknown target 'enemy_shp' (did you mean 'enemy_ship'?)"),
        (3, "card 'Leaky', effect 2: 'amount' = 0 is out of range"),
        (4, "weapon 'Hook': 'hits_on' = 7 is out of range: allowed 1..6"),
        (5, "deck 'many', pirate 2: unknown weapon 'Cutlas' (did you mean 'Cutlass'?)"),
        (6, "deck 'many', provisions: unknown provision 'rum'"),
    ]
    assert len(found) == len(expected), found
    for line, (mark, reason) in zip(found, expected, strict=True):
        assert line.startswith(f"many.toml:{lines[mark]}: {reason}"), (mark, line)
    # A run names the first, says how many more, and how to list them: one line.
    message = str(caught.value)
    assert "\n" not in message
    assert message == f"{found[0]} (and 5 more mistakes: balance deck check many.toml)"
    # balance deck check prints them all, a line each, and exits with 1.
    result = CliRunner().invoke(cli, ["deck", "check", "many.toml", "boarding-party"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == found
    assert result.stdout.startswith("boarding-party (")


def test_mistakes_in_an_include_are_reported_with_its_own_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    broken = LIBRARY.replace("hits_on = 4", "hits_on = 0").replace(
        "damage = 1\n\n[[pirate]]", 'damage = "one"\n\n[[pirate]]'
    )
    Path("library.toml").write_text(broken)
    deck = GOOD_DECK.replace('"Plug the Leaks" = 10', '"Plug the Leaks" = 10\n"Kraken" = 2')
    Path("deck.toml").write_text('include = ["library.toml"]\n' + deck)
    found = [line for ok, line in cards.check_each(["deck.toml"]) if not ok]
    assert [line.split(": ", 1)[0].split(":")[0] for line in found] == [
        "library.toml",
        "library.toml",
        "deck.toml",
    ], found
    assert "weapon 'Cutlass': 'hits_on' = 0 is out of range" in found[0]
    assert "weapon 'Dagger': 'damage' must be a whole number, not 'one'" in found[1]
    assert "2 copies of 'Kraken', above its copy limit of 1" in found[2]
    # A library that does not parse gets the parser's line; the deck's names taken from it
    # are not reported unknown, its own count still is.
    Path("library.toml").write_text("[[card]\n" + LIBRARY)
    cards.clear_cache()
    found = [line for ok, line in cards.check_each(["deck.toml"]) if not ok]
    header = Path("deck.toml").read_text().splitlines().index("[deck.cards]") + 1
    assert found == [
        "library.toml:1: TOML syntax error: Expected ']]' at the end of an array declaration "
        "(column 7)",
        f"deck.toml:{header}: deck 'test-deck': 22 cards; a deck has exactly 20",
    ]


def test_a_single_mistake_is_one_line_as_before(tmp_path: Path) -> None:
    path, line = write(tmp_path, '[[card]]\nname = "X"\ntype = "evnt"  # <-\n')
    with pytest.raises(cards.FileMistakes) as caught:
        cards.load_file(path)
    assert caught.value.lines == [str(caught.value)]
    assert str(caught.value).startswith(f"{path}:{line}: card 'X': unknown type 'evnt'")


def test_cli_list() -> None:
    result = CliRunner().invoke(cli, ["deck", "list"])
    assert result.exit_code == 0
    for name in ("cannon-battery", "boarding-party", "island-raiders"):
        assert f"{name}.toml" in result.output
    assert "not the published game's cards" in result.output


# --- the format's documentation ----------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "battle-of-thieves-cards.md"


def test_the_documented_deck_file_and_its_messages(tmp_path: Path, monkeypatch) -> None:
    import re

    doc = DOCS.read_text(encoding="utf-8")
    example_file = re.search(r"```toml\n(.*?)```", doc, re.S).group(1)
    errors = re.findall(r"^(my-deck\.toml:\d+: .*)$", doc, re.M)
    monkeypatch.chdir(tmp_path)
    Path("my-deck.toml").write_text(example_file, encoding="utf-8")
    shown = "my-deck (my-deck.toml): 20 cards, 4 distinct, 30 provisions, ok"
    assert cards.check_files(["my-deck.toml"]) == [shown]
    assert f"`{shown}`" in doc
    # The two documented mistakes, made in copies of the file.
    mistakes = [
        ('status = "drunk"\nturns = 2\n', 'status = "drunk"\n'),
        ('"Broadside" = 8', '"Brodside" = 8'),
    ]
    for (old, new), expected in zip(mistakes, errors, strict=True):
        Path("my-deck.toml").write_text(example_file.replace(old, new), encoding="utf-8")
        cards.clear_cache()
        assert cards.check_each(["my-deck.toml"]) == [(False, expected)]


def test_the_documented_operations_match_the_loader() -> None:
    doc = DOCS.read_text(encoding="utf-8")
    section = doc.split("### Operations", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| `")][1:]  # after the header
    assert [r.split("`")[1] for r in rows] == list(L.OPS[1:])
    classes = {
        "ship": cards.SHIP_TARGETS,
        "side": cards.SIDE_TARGETS,
        "chosen or zone pirates": cards.PIRATE_TARGETS,
        "none": (),
    }
    for op, row in enumerate(rows, start=1):
        column = row.split(" | ")[1].strip()
        if column in classes:
            documented = classes[column]
        else:
            documented = tuple(L.TARGETS.index(t) for t in column.split("`")[1::2])
        assert documented == cards.OP_SPECS[op].targets, row
        spec = cards.OP_SPECS[op]
        amount, turns = row.split(" | ")[2], row.split(" | ")[3]
        for text, span in ((amount, spec.amount), (turns, spec.turns)):
            if span is None:
                assert text.strip() == "—" or "burn" in text, row
            else:
                low = str(span.low).replace("-", "−")
                assert text.startswith(f"{low}..{span.high}"), row
                assert ("required" in text) == (span.default is None), row
    statuses = doc.split("## Statuses", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in statuses.splitlines() if r.startswith("| `")][1:]
    assert {r.split("`")[1] for r in rows} == set(L.STATUSES[1:])
    targets = doc.split("### Targets", 1)[1].split("\n### ", 1)[0]
    named = {t for r in targets.splitlines() if r.startswith("| `") for t in r.split("`")[1::2]}
    assert set(L.TARGETS[1:]) <= named


# --- triggered abilities ------------------------------------------------------------------

TRIGGERS = """
[[card]]
name = "Guard Dog"
type = "animal"
[[card.trigger]]
on = "boarded"
[[card.trigger.effect]]
do = "damage"
target = "random_enemy_pirate"
[[card.trigger]]
on = "turn_start"
text = "an extra action, if the ship is flooding"
[[card.trigger.effect]]
do = "extra_action"
target = "self"
if = "own_water_at_least"
value = 40

[[pirate]]
name = "Tough Tom"
trigger = [{ on = "hit", effect = [{ do = "heal", target = "self" }] }]
"""


def test_triggered_abilities_reach_the_engines(tmp_path: Path) -> None:
    path, _ = write(tmp_path, TRIGGERS, "triggers.toml")
    library = cards.load_file(path)
    dog = library.cards["Guard Dog"]
    assert dog.triggers == (
        (L.ON_BOARDED, ((L.DAMAGE, L.RANDOM_ENEMY_PIRATE, 1, 0, 0, 0, 0, 0, 0),)),
        (L.ON_TURN_START, ((L.EXTRA_ACTION, L.SELF, 1, 0, 0, 0, L.OWN_WATER_AT_LEAST, 40, 0),)),
    )
    tom = library.pirates["Tough Tom"]
    assert tom.triggers == ((L.ON_HIT, ((L.HEAL, L.SELF, 1, 0, 0, 0, 0, 0, 0),)),)
    from balance.games.battle_of_thieves.cards import Deck, _compile

    deck = Deck(
        "d", "Brig", (("Tough Tom", ("Cutlass", "Dagger")),) * 2, (("Guard Dog", 20),), (0,) * 5
    )
    lib = cards.load_file(write(tmp_path, LIBRARY + TRIGGERS, "all.toml")[0])
    content = _compile([(deck, lib), (deck, lib)], ("a", "b"))
    dog_id = content.card_id("Guard Dog")
    assert list(content.card_trigger[dog_id]) == [L.ON_BOARDED, L.ON_TURN_START, 0, 0]
    assert list(content.card_trigger_len[dog_id]) == [1, 1, 0, 0]
    assert list(content.card_trigger_program[dog_id, 1, 0]) == [
        L.EXTRA_ACTION,
        L.SELF,
        1,
        0,
        0,
        0,
        1,
        40,
        L.GAME_TURNS,
    ]
    assert content.pirate_trigger[1, 0, 0] == L.ON_HIT
    assert list(content.pirate_trigger_program[1, 0, 0, 0]) == [L.HEAL, L.SELF, 1, 0, 0, 0, 0, 0, 0]
    assert content.is_mirror()  # the same deck in both seats, abilities included


def trigger(
    *lines: str, on: str = 'on = "hit"', card: tuple[str, ...] = ('name = "T"', 'type = "item"')
) -> str:
    return (
        card_text(*card)
        + card_text(on, header="[[card.trigger]]")
        + card_text(*lines, header="[[card.trigger.effect]]")
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            trigger('do = "heal"', 'target = "self"', on='on = "attacked"  # <-'),
            "unknown on 'attacked'",
        ),
        (
            card_text('name = "T"', 'type = "item"') + card_text(header="[[card.trigger]]  # <-"),
            "card 'T', trigger 1: missing 'on'; one of: hit, boarded, turn_start, hits",
        ),
        (
            card_text('name = "T"', 'type = "item"')
            + card_text('on = "hit"', header="[[card.trigger]]  # <-"),
            "card 'T', trigger 1: a trigger needs at least one [[card.trigger.effect]]",
        ),
        (
            trigger('do = "heal"', 'target = "own_pirate"  # <-'),
            "card 'T', trigger 1, effect 1: a triggered ability cannot choose a pirate "
            "('own_pirate'): use self, attacker, random_enemy_pirate,",
        ),
        (
            trigger('do = "heal"', 'target = "self"', "amount = 0  # <-"),
            "'amount' = 0 is out of range",
        ),
        (
            trigger('do = "heal"', 'target = "self"', on='on = "hit"\nwhen = 3  # <-'),
            "unknown field 'when'; allowed: on, text, effect",
        ),
        (
            card_text(*EVENT, 'trigger = [{ on = "hit" }]  # <-'),
            "an event has no triggered abilities (only animals, items and pirates",
        ),
        (
            card_text(*EVENT)
            + card_text('do = "heal"', 'target = "self"  # <-', header="[[card.effect]]"),
            "an event has no holder: 'self' is the pirate holding an item, or the holder of a "
            "triggered ability",
        ),
        (
            card_text('name = "P"', header="[[pirate]]")
            + card_text('on = "turn_start"', header="[[pirate.trigger]]")
            + card_text(
                'do = "revive"', 'target = "own_pirate"  # <-', header="[[pirate.trigger.effect]]"
            ),
            "pirate 'P', trigger 1, effect 1: a triggered ability cannot choose a pirate",
        ),
        (
            card_text('name = "T"', 'type = "item"', 'trigger = { on = "hit" }  # <-'),
            "write [[card.trigger]] (double brackets), one for each trigger",
        ),
    ],
)
def test_trigger_mistakes(tmp_path: Path, text: str, reason: str) -> None:
    check(tmp_path, text, reason)


def test_too_many_triggers_and_every_trigger_mistake_in_one_reading(tmp_path: Path) -> None:
    one = card_text('on = "hit"', header="[[card.trigger]]") + card_text(
        'do = "heal"', 'target = "self"', header="[[card.trigger.effect]]"
    )
    text = card_text('name = "T"', 'type = "animal"') + one * 4 + one.replace("]]", "]]  # <-", 1)
    check(tmp_path, text, "card 'T', trigger 5: 5 triggers; at most 4")
    text = (
        card_text('name = "T"', 'type = "animal"')
        + card_text('on = "hot"', header="[[card.trigger]]")
        + card_text('do = "heal"', 'target = "own_pirate"', header="[[card.trigger.effect]]")
        + card_text('on = "hit"', header="[[card.trigger]]")
        + card_text('do = "heal"', 'target = "enemy_pirate"', header="[[card.trigger.effect]]")
    )
    path, _ = write(tmp_path, text)
    with pytest.raises(cards.FileMistakes) as caught:
        cards.load_file(path)
    assert caught.value.lines == [
        f"{path}:5: card 'T', trigger 1: unknown on 'hot'; one of: hit, boarded, turn_start, hits",
        f"{path}:8: card 'T', trigger 1, effect 1: a triggered ability cannot choose a pirate "
        "('own_pirate'): use self, random_enemy_pirate, pirates_own_ship, pirates_enemy_ship "
        "or pirates_island",
        f"{path}:13: card 'T', trigger 2, effect 1: a triggered ability cannot choose a pirate "
        "('enemy_pirate'): use self, attacker, random_enemy_pirate, pirates_own_ship, "
        "pirates_enemy_ship or pirates_island",
    ]


def test_the_documented_trigger_example_loads(tmp_path: Path) -> None:
    import re

    doc = DOCS.read_text(encoding="utf-8")
    section = doc.split("## Triggered abilities", 1)[1].split("\n## ", 1)[0]
    example_text = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    path, _ = write(tmp_path, example_text, "abilities.toml")
    library = cards.load_file(path)
    assert library.cards["Watch Dog"].triggers == (
        (L.ON_BOARDED, ((L.DAMAGE, L.RANDOM_ENEMY_PIRATE, 1, 0, 0, 0, 0, 0, 0),)),
    )
    assert library.pirates["Old Salt"].triggers == (
        (L.ON_TURN_START, ((L.EXTRA_ACTION, L.SELF, 1, 0, 0, 0, L.OWN_WATER_AT_LEAST, 40, 0),)),
    )
    rows = re.findall(r"^\| `(\w+)` \| ", section, re.M)
    assert rows == ["on", *L.TRIGGER_EVENTS[1:]]  # the header, then each event
    dog = cards.load_file(example("cards.toml")).cards["Watch Dog"]  # the example card
    assert dog.triggers == library.cards["Watch Dog"].triggers and dog.mods


# --- combat: weapons' reach and effects, hits abilities, the pirates that set them off ---

#: The designer's combat pieces, as the docs write them.
COMBAT = """
[[weapon]]
name = "Poisoned Dagger"
text = "Its hits poison."
hits_on = 4
damage = 1
[[weapon.effect]]
do = "status"
target = "hit_pirate"
status = "poison"

[[weapon]]
name = "Long Pistol"
text = "Fires from your own ship at a pirate aboard the enemy's ship."
hits_on = 5
damage = 1
reach = "enemy_ship"

[[pirate]]
name = "Stabby Pete"
text = "His hits poison."
[[pirate.trigger]]
on = "hits"
[[pirate.trigger.effect]]
do = "status"
target = "hit_pirate"
status = "poison"

[[card]]
name = "Fire Salamander"
type = "animal"
copies = 20
text = "Whoever hits its host burns."
[[card.trigger]]
on = "hit"
[[card.trigger.effect]]
do = "status"
target = "attacker"
status = "burn"
"""


def test_the_designers_combat_pieces_load_and_compile(tmp_path: Path) -> None:
    from balance.games.battle_of_thieves import reference
    from balance.games.battle_of_thieves.cards import Deck, _compile

    path, _ = write(tmp_path, LIBRARY + COMBAT, "combat.toml")
    library = cards.load_file(path)
    poison = (L.STATUS, L.HIT_PIRATE, 0, 0, L.POISON, 0, 0, 0, L.GAME_TURNS)
    dagger, pistol = library.weapons["Poisoned Dagger"], library.weapons["Long Pistol"]
    assert (dagger.hits_on, dagger.damage, dagger.reach, dagger.program) == (
        4,
        1,
        L.REACH_HERE,
        (poison,),
    )
    assert (pistol.hits_on, pistol.damage, pistol.reach, pistol.program) == (5, 1, L.REACH_SHIP, ())
    assert library.weapons["Cutlass"].reach == L.REACH_HERE  # the default
    assert library.pirates["Stabby Pete"].triggers == ((L.ON_HITS, (poison,)),)
    burn = (L.STATUS, L.ATTACKER, 0, 0, L.BURN, 0, 0, 0, L.GAME_TURNS)
    assert library.cards["Fire Salamander"].triggers == ((L.ON_HIT, (burn,)),)
    crew = (("Stabby Pete", ("Poisoned Dagger", "Long Pistol")), ("Anne", ("Cutlass", "Dagger")))
    deck = Deck("d", "Brig", crew, (("Fire Salamander", 20),), (10, 12, 4, 2, 2))
    content = _compile([(deck, library), (deck, library)], ("a", "b"))
    assert content.weapons[1, 0].tolist() == [[4, 1, L.REACH_HERE], [5, 1, L.REACH_SHIP]]
    assert content.weapons[1, 1].tolist() == [[4, 1, L.REACH_HERE], [3, 1, L.REACH_HERE]]
    assert content.weapon_program_len[1].tolist() == [[1, 0], [0, 0]]
    assert tuple(content.weapon_program[1, 0, 0, 0]) == poison
    assert content.pirate_trigger[1, 0, 0] == L.ON_HITS
    assert tuple(content.pirate_trigger_program[1, 0, 0, 0]) == poison
    salamander = content.card_id("Fire Salamander")
    assert content.card_trigger[salamander, 0] == L.ON_HIT
    assert tuple(content.card_trigger_program[salamander, 0, 0]) == burn
    assert content.is_mirror()
    record = reference.play_game(BattleRules(), content, 1, 0)  # and the engine plays it
    assert record.seats[0][L.SEAT_STAT.ATTACKS] + record.seats[1][L.SEAT_STAT.ATTACKS] > 0


def weapon(*lines: str, effect: tuple[str, ...] = ()) -> str:
    text = card_text('name = "W"', "hits_on = 4", "damage = 1", *lines, header="[[weapon]]")
    return text + (card_text(*effect, header="[[weapon.effect]]") if effect else "")


# --- cures, durations, draw-pile discards, conditions, the visitor -------------------------

#: The designer's cards the format now writes (as the example deck will have them).
DESIGNER = """
[[card]]
name = "Pomegranate"
type = "food"
text = "Heals, and cures the fed pirate's poison."
[[card.effect]]
do = "cure"
target = "own_pirate"
status = "poison"

[[card]]
name = "Greek Fire"
type = "cursed_ball"
text = "Its burn lasts 3 turns."
[[card.effect]]
do = "status"
target = "random_enemy_pirate"
status = "burn"
turns = 3

[[card]]
name = "Whirlpool"
type = "event"
text = "The enemy discards 2 from its draw pile."
[[card.effect]]
do = "discard_deck"
target = "enemy"
amount = 2

[[card]]
name = "Siren Rock"
type = "island"
text = "Heals the visitor."
[[card.effect]]
do = "heal"
target = "visitor"

[[card]]
name = "Sitting Duck"
type = "event"
text = "A hole, if the enemy's anchor is down."
[[card.effect]]
do = "hole"
target = "enemy_ship"
if = "enemy_anchor_down"

[[card]]
name = "Long Grog"
type = "event"
[[card.effect]]
do = "status"
target = "enemy_pirate"
status = "drunk"
own_turns = 2

[[ship]]
name = "Phantom"
text = "When her mast is broken: 1 damage to a random enemy pirate."
when = "mast_broken"
[[ship.effect]]
do = "damage"
target = "random_enemy_pirate"
"""


def test_the_designers_cards_load_and_compile(tmp_path: Path) -> None:
    path, _ = write(tmp_path, LIBRARY + DESIGNER, "designer.toml")
    library = cards.load_file(path)
    rows = {name: library.cards[name].program for name in library.cards}
    assert rows["Pomegranate"] == ((L.CURE, L.OWN_PIRATE, 0, 0, L.POISON, 0, 0, 0, 0),)
    assert rows["Greek Fire"] == ((L.STATUS, L.RANDOM_ENEMY_PIRATE, 0, 3, L.BURN, 0, 0, 0, 0),)
    assert rows["Whirlpool"] == ((L.DISCARD_DECK, L.ENEMY, 2, 0, 0, 0, 0, 0, 0),)
    assert rows["Siren Rock"] == ((L.HEAL, L.VISITOR, 1, 0, 0, 0, 0, 0, 0),)
    duck = (L.HOLE, L.ENEMY_SHIP, 1, 0, 0, 0, L.ENEMY_ANCHOR_DOWN, 0, 0)
    assert rows["Sitting Duck"] == (duck,)
    grog = (L.STATUS, L.ENEMY_PIRATE, 0, 2, L.DRUNK, 0, 0, 0, L.OWN_TURNS)
    assert rows["Long Grog"] == (grog,)
    phantom = library.ships["Phantom"]
    assert (phantom.trigger, phantom.value) == (L.OWN_MAST_BROKEN, 0)
    from balance.games.battle_of_thieves.cards import Deck, _compile

    names = ("Pomegranate", "Greek Fire", "Whirlpool", "Siren Rock", "Sitting Duck")
    deck = Deck(
        "designer",
        "Phantom",
        (("Anne", ("Cutlass", "Dagger")), ("Jack", ("Dagger", "Cutlass"))),
        (*((name, 2) for name in names), ("Broadside", 10)),
        (10, 12, 4, 2, 2),
    )
    content = _compile([(deck, library), (deck, library)], ("a", "b"))
    assert list(content.ship_trigger[0]) == [L.OWN_MAST_BROKEN, 0]
    assert list(content.program[content.card_id("Whirlpool"), 0]) == list(rows["Whirlpool"][0])


def test_a_burn_or_poison_without_turns_strikes_once_as_before(tmp_path: Path) -> None:
    text = effect('do = "status"', 'target = "enemy_pirate"', 'status = "poison"')
    library = cards.load_file(write(tmp_path, text, "ok.toml")[0])
    assert library.cards["Test"].program == (
        (L.STATUS, L.ENEMY_PIRATE, 0, 0, L.POISON, 0, 0, 0, 0),
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            weapon('reach = "far"  # <-'),
            "weapon 'W': unknown reach 'far'; one of: here, enemy_ship, any",
        ),
        (
            weapon('range = "any"  # <-'),
            "unknown field 'range'; allowed: name, text, hits_on, damage, reach, effect",
        ),
        (
            weapon(effect=('do = "damage"', 'target = "enemy_pirate"  # <-')),
            "weapon 'W', effect 1: a weapon's hit cannot choose a pirate ('enemy_pirate'): use "
            "hit_pirate, self, random_enemy_pirate, pirates_own_ship, pirates_enemy_ship or "
            "pirates_island",
        ),
        (
            weapon(effect=('do = "damage"', 'target = "attacker"  # <-')),
            "weapon 'W', effect 1: a weapon's hit has no 'attacker': it is the enemy pirate "
            "whose attack hit the holder; only a 'hit' ability may name it",
        ),
        (
            weapon(effect=('do = "revive"', 'target = "own_pirate"  # <-')),
            "a weapon's hit cannot choose a pirate ('own_pirate')",
        ),
        (
            weapon(effect=('do = "hole"', 'target = "enemy_ship"', 'on = "won"  # <-')),
            "on = 'won' needs an insult effect before it",
        ),
        (
            weapon('effect = { do = "hole", target = "enemy_ship" }  # <-'),
            "write [[weapon.effect]] (double brackets), one for each effect",
        ),
        (
            trigger('do = "damage"', 'target = "attacker"  # <-', on='on = "turn_start"'),
            "card 'T', trigger 1, effect 1: a 'turn_start' ability has no 'attacker': it is the "
            "enemy pirate whose attack hit the holder; only a 'hit' ability may name it",
        ),
        (
            trigger('do = "damage"', 'target = "boarder"  # <-'),
            "a 'hit' ability has no 'boarder': it is the enemy pirate that boarded; only a "
            "'boarded' ability may name it",
        ),
        (
            trigger('do = "damage"', 'target = "hit_pirate"  # <-', on='on = "boarded"'),
            "a 'boarded' ability has no 'hit_pirate': it is the enemy pirate a hit struck; only "
            "a weapon's effects and a 'hits' ability may name it",
        ),
        (
            trigger('do = "damage"', 'target = "attacker"  # <-', on='on = "hits"'),
            "a 'hits' ability has no 'attacker'",
        ),
        (
            trigger('do = "heal"', 'target = "own_pirate"  # <-', on='on = "hits"'),
            "a triggered ability cannot choose a pirate ('own_pirate'): use self, hit_pirate, "
            "random_enemy_pirate,",
        ),
        (
            effect('do = "status"', 'target = "hit_pirate"  # <-', 'status = "poison"'),
            "card 'Test', effect 1: an event has no 'hit_pirate': it is the enemy pirate a hit "
            "struck; only a weapon's effects and a 'hits' ability may name it",
        ),
        (
            '[[ship]]\nname = "S"\nwhen = "water_at_least"\nvalue = 50\n'
            '[[ship.effect]]\ndo = "damage"\ntarget = "boarder"  # <-\n',
            "ship 'S', effect 1: a ship's trigger has no 'boarder'",
        ),
        (
            card_text('name = "K"', 'type = "item"')
            + card_text('do = "damage"', 'target = "attacker"  # <-', header="[[card.effect]]"),
            "card 'K', effect 1: an item has no 'attacker'",
        ),
    ],
)
def test_combat_mistakes(tmp_path: Path, text: str, reason: str) -> None:
    check(tmp_path, text, reason)


def test_too_many_weapon_effects_and_every_weapon_mistake_in_one_reading(tmp_path: Path) -> None:
    hole = card_text('do = "hole"', 'target = "enemy_ship"', header="[[weapon.effect]]")
    text = weapon() + hole * 8 + hole.replace("]]", "]]  # <-", 1)
    check(tmp_path, text, "weapon 'W', effect 9: 9 effects; at most 8")
    text = (
        '[[weapon]]\nname = "W"\nhits_on = 7\ndamage = 1\nreach = "far"\n'
        '[[weapon.effect]]\ndo = "heal"\ntarget = "boarder"\n'
    )
    path, _ = write(tmp_path, text)
    with pytest.raises(cards.FileMistakes) as caught:
        cards.load_file(path)
    assert caught.value.lines == [
        f"{path}:3: weapon 'W': 'hits_on' = 7 is out of range: allowed 1..6",
        f"{path}:5: weapon 'W': unknown reach 'far'; one of: here, enemy_ship, any",
        f"{path}:8: weapon 'W', effect 1: a weapon's hit has no 'boarder': it is the enemy "
        "pirate that boarded; only a 'boarded' ability may name it",
    ]


def test_what_a_weapons_effects_and_the_cause_targets_may_name(tmp_path: Path) -> None:
    more = "[[weapon.effect]]"
    text = (
        weapon('reach = "any"', effect=('do = "extra_action"', 'target = "self"'))
        + card_text('do = "move"', 'target = "hit_pirate"', 'to = "island"', header=more)
        + card_text('do = "damage"', 'target = "random_enemy_pirate"', header=more)
        + trigger('do = "move"', 'target = "boarder"', 'to = "enemy_ship"', on='on = "boarded"')
    )
    path, _ = write(tmp_path, text, "good.toml")
    library = cards.load_file(path)
    assert library.weapons["W"].reach == L.REACH_ANY
    assert [row[:2] for row in library.weapons["W"].program] == [
        (L.EXTRA_ACTION, L.SELF),
        (L.MOVE, L.HIT_PIRATE),
        (L.DAMAGE, L.RANDOM_ENEMY_PIRATE),
    ]
    assert library.cards["T"].triggers[0][1][0][:2] == (L.MOVE, L.BOARDER)


def test_the_documented_weapon_example_loads(tmp_path: Path) -> None:
    import re

    doc = DOCS.read_text(encoding="utf-8")
    section = doc.split("### Weapons: reach and effects", 1)[1].split("\n## ", 1)[0]
    example_text = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    path, _ = write(tmp_path, example_text, "weapons.toml")
    library = cards.load_file(path)
    assert library.weapons == cards.load_file(write(tmp_path, COMBAT, "combat.toml")[0]).weapons
    rows = re.findall(r"^\| `(\w+)`", section, re.M)
    assert rows == ["reach", *L.REACHES]  # the header, then each reach


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            effect('do = "cure"', 'target = "own_pirate"'),
            "missing 'status'; one of: all, burn, immobilised",
        ),
        (
            effect('do = "cure"', 'target = "own_pirate"', 'status = "poisn"  # <-'),
            "unknown status 'poisn' (did you mean 'poison'?)",
        ),
        (
            effect('do = "cure"', 'target = "own_pirate"', 'status = "all"', "turns = 2  # <-"),
            "cure takes no 'turns'",
        ),
        (
            effect('do = "cure"', 'target = "own_ship"  # <-', 'status = "all"'),
            "cure cannot target 'own_ship'",
        ),
        (
            effect(
                'do = "status"', 'target = "enemy_pirate"', 'status = "poison"', "turns = 100 # <-"
            ),
            "'turns' = 100 is out of range: allowed 1..99",
        ),
        (
            effect(
                'do = "status"', 'target = "enemy_pirate"', 'status = "burn"', "own_turns = 2 # <-"
            ),
            "burn strikes in game turns (at the end of each of the N after it was applied): "
            "write 'turns'",
        ),
        (
            effect(
                'do = "status"',
                'target = "enemy_pirate"',
                'status = "drunk"',
                "turns = 2",
                "own_turns = 2  # <-",
            ),
            "write 'turns' (game turns) or 'own_turns', not both",
        ),
        (
            effect('do = "damage"', 'target = "enemy_pirate"', "own_turns = 2  # <-"),
            "damage takes no 'own_turns'",
        ),
        (
            effect('do = "anchor_down"', 'target = "enemy_ship"', "own_turns = 0  # <-"),
            "'own_turns' = 0 is out of range: allowed 1..99",
        ),
        (
            effect('do = "discard_deck"', 'target = "enemy_ship"  # <-'),
            "discard_deck cannot target 'enemy_ship'; it takes: own, enemy",
        ),
        (
            effect('do = "discard_deck"', 'target = "enemy"', "amount = 100  # <-"),
            "allowed 1..99",
        ),
        (
            effect('do = "heal"', 'target = "visitor"  # <-'),
            "an event has no visitor: 'visitor' is the pirate visiting the island",
        ),
        (
            effect(
                'do = "heal"', 'target = "self"  # <-', card=('name = "Test"', 'type = "island"')
            ),
            "('visitor' is the pirate visiting the island)",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'if = "own_holes_at_least"'),
            "missing 'value': the number of holes (1..20)",
        ),
        (
            effect(
                'do = "hole"',
                'target = "enemy_ship"',
                'if = "enemy_holes_at_least"',
                "value = 21  # <-",
            ),
            "'value' = 21 is out of range: allowed 1..20",
        ),
        (
            effect(
                'do = "hole"',
                'target = "enemy_ship"',
                'if = "enemy_water_at_least"',
                "value = 1000  # <-",
            ),
            "allowed 1..999",
        ),
        (
            effect('do = "hole"', 'target = "enemy_ship"', 'if = "enemy_red_sae"  # <-'),
            "unknown if 'enemy_red_sae' (did you mean 'enemy_red_sea'?)",
        ),
    ],
)
def test_effect_and_condition_mistakes(tmp_path: Path, text: str, reason: str) -> None:
    if MARK not in text:  # a missing field: the line of its table's header
        text = text.replace("[[card.effect]]", f"[[card.effect]]  {MARK}")
    check(tmp_path, text, reason)


def test_ship_conditions(tmp_path: Path) -> None:
    repair = '[[ship.effect]]\ndo = "repair"\ntarget = "own_ship"\n'
    for when, code in (
        ("mast_broken", L.OWN_MAST_BROKEN),
        ("anchor_down", L.OWN_ANCHOR_DOWN),
        ("pirate_dead", L.OWN_PIRATE_DEAD),
        ("red_sea", L.OWN_RED_SEA),
    ):
        path, _ = write(tmp_path, f'[[ship]]\nname = "S"\nwhen = "{when}"\n{repair}', "ok.toml")
        ship = cards.load_file(path).ships["S"]
        assert (ship.trigger, ship.value) == (code, 0)
        cards.clear_cache()
    path, _ = write(tmp_path, f'[[ship]]\nname = "S"\nwhen = "holes_at_least"\nvalue = 3\n{repair}')
    ship = cards.load_file(path).ships["S"]
    assert (ship.trigger, ship.value) == (L.OWN_HOLES_AT_LEAST, 3)
    check(
        tmp_path,
        f'[[ship]]  # <-\nname = "S"\nwhen = "holes_at_least"\n{repair}',
        "ship 'S': missing 'value' (1..20)",
    )
    check(
        tmp_path,
        f'[[ship]]\nname = "S"\nwhen = "mast_broken"\nvalue = 3  # <-\n{repair}',
        "when = 'mast_broken' takes no 'value'",
    )
    check(
        tmp_path,
        '[[ship]]\nname = "S"\nwhen = "mast_broke"  # <-\n',
        "unknown when 'mast_broke' (did you mean 'mast_broken'?); one of: water_at_least, "
        "anchor_down, mast_broken, holes_at_least, pirate_dead, red_sea",
    )


def test_the_documented_cursed_ball_example_loads(tmp_path: Path) -> None:
    import re

    doc = DOCS.read_text(encoding="utf-8")
    section = doc.split("\n## Effects\n", 1)[1].split("\n## ", 1)[0]
    example_text = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    path, _ = write(tmp_path, example_text, "hook.toml")
    hook = cards.load_file(path).cards["Boarding Hook"]
    assert [row[: L.EFFECT.IF] for row in hook.program] == [
        (L.WATER, L.ENEMY_SHIP, 10, 0, 0, L.ALWAYS),
        (L.MAST_BROKEN, L.ENEMY_SHIP, 0, 2, 0, L.IF_HIT),
    ]
    library = cards.load_file(example("cards.toml")).cards
    hit_only = {
        name
        for name, card in library.items()
        if card.type == L.CURSED_BALL and any(row[L.EFFECT.ON] == L.IF_HIT for row in card.program)
    }
    assert hit_only == {"Chain Shot", "Kedge Ball"}  # as the page says
