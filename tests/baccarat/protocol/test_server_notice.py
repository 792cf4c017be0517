from __future__ import annotations

import pytest
from django.urls import reverse

from baccarat import recovery
from baccarat.models import Play, Round
from baccarat.play import betting, rounds
from tests.conftest import PASSWORD
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db


@pytest.fixture
def recovered_round(alice, table):
    wallet_rebuy(player=alice, table=table, amount=50_00, reference="notice-rebuy")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=500)
    rounds.round_lock(round_id=round.pk)  # the browser went away here
    assert recovery.recover_rounds(grace_seconds=0).completed == [round.pk]
    round.refresh_from_db()
    assert round.completion == Round.Completion.SERVER
    return round


def test_notice_after_signing_in_again_shown_once(client, alice, recovered_round):
    alice.set_password(PASSWORD)
    alice.save()
    response = client.post(
        reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert f"Your round #{recovered_round.pk} at Golden was completed by the server" in html
    assert reverse("baccarat:protocol_detail", args=[recovered_round.pk]) in html
    assert "completed by the server" not in client.get(reverse("lobby")).content.decode()
    assert not Play.objects.filter(server_notice=True).exists()


def test_notice_on_the_lobby_for_a_signed_in_player(client, alice, recovered_round):
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    assert "was completed by the server while you were away" in html


def test_no_notice_for_rounds_the_player_finished(client, alice, table):
    wallet_rebuy(player=alice, table=table, amount=50_00, reference="notice-rebuy-2")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=500)
    rounds.round_play(round_id=round.pk)
    client.force_login(alice)
    assert "completed by the server" not in client.get(reverse("lobby")).content.decode()


def test_notice_for_another_player_is_not_shown(client, bob, recovered_round):
    client.force_login(bob)
    assert "completed by the server" not in client.get(reverse("lobby")).content.decode()
