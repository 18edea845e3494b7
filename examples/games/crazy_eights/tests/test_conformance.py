"""balance's conformance suite on Crazy Eights (what ``balance game check crazy-eights``
runs): the declaration, strategies, records, both engines alike, threads, replay, rules."""

from __future__ import annotations

from balance.authoring.conformance import check_game

from crazy_eights.game import GAME


def test_crazy_eights_passes_the_conformance_suite() -> None:
    failed = [f"{f.check}: {f.message}" for f in check_game(GAME, games=100) if not f.ok]
    assert not failed, "\n".join(failed)
