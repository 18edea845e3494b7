"""The contract suite: every registered game (``balance.games.MODULES``), one by one."""

from __future__ import annotations

import pytest

from balance.core.game import Game
from contract.helpers import GAME_IDS, registered


@pytest.fixture(params=GAME_IDS)
def game(request: pytest.FixtureRequest) -> Game:
    return registered(request.param)
