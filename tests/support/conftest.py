from __future__ import annotations

import pytest

from baccarat import betting, rounds
from baccarat.models import Round
from wallet.services import wallet_rebuy


@pytest.fixture
def play_round():
    """Play one settled round for ``player`` with ``stakes`` (cents per spot)."""

    def play(player, table, stakes=None, *, settle=True) -> Round:
        reference = f"rebuy-{player.pk}-{Round.objects.count()}"
        wallet_rebuy(player=player, table=table, amount=50_00, reference=reference)
        round = betting.round_open(table=table, player=player)
        for kind, amount in (stakes or {"player": 500}).items():
            betting.bet_place(round=round, player=player, kind=kind, amount=amount)
        if settle:
            rounds.round_play(round_id=round.pk)
        else:
            rounds.round_lock(round_id=round.pk)
        round.refresh_from_db()
        return round

    return play
