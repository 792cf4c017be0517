"""Provably fair shoes: the commitment shown from the first hand, the order revealed when
the shoe has ended, the public verify page (found by the commitment, which nobody can
guess; by number only its own player) and ``manage.py verify_shoe``."""

from __future__ import annotations

import hashlib
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from baccarat import engine
from baccarat.integrity import shoes
from baccarat.integrity.fairness import shoe_verification
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from wallet import services as wallet


def _play(table: Table, player: Any) -> Round:
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="player", amount=500)
    rounds.round_play(round_id=round.pk)
    return Round.objects.select_related("shoe").get(pk=round.pk)


@pytest.fixture
def played(seated: Any, table: Table) -> Round:
    """A round at the one-deck table: its shoe served it alone and is revealed."""
    return _play(table, seated)


def test_a_one_deck_shoe_is_revealed_after_its_coup_and_verifies(played: Round) -> None:
    shoe = played.shoe
    assert shoe.is_finished and shoe.is_revealed
    report = shoe_verification(shoe)
    assert report.ok, (report.problems, [r.problems for r in report.rounds])
    # The scheme as the rules page tells it: SHA-256 of "<salt>:<order before the cut>".
    text = f"{report.salt}:{report.order}"
    assert hashlib.sha256(text.encode()).hexdigest() == shoe.commitment
    cut = report.cut
    assert cut is not None
    order = engine.cards_from_codes(report.order)
    assert report.dealing_order == (*order[cut:], *order[:cut])
    [check] = report.rounds
    assert check.expected == played.reserved_cards


def test_an_open_shoe_shows_only_its_commitment(client: Any, cut_table: Table, alice: Any) -> None:
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=50_00, reference="r")
    round = _play(cut_table, alice)
    shoe = round.shoe
    assert not shoe.is_finished and not shoe.is_revealed
    page = client.get(reverse("baccarat:shoe_verify", args=[shoe.commitment])).content.decode()
    assert shoe.commitment in page
    order = engine.Shoe.from_state(shoe.state).reveal()["order"]
    assert order not in page and order[:40] not in page
    assert shoe.state["salt"] not in page
    assert round.reserved_cards not in page and round.player_cards not in page
    assert not shoe_verification(shoe).revealed
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("verify_shoe", str(shoe.pk), stdout=out)
    assert error.value.returncode == 2
    assert "still in play" in out.getvalue()


def test_the_verify_page_of_an_ended_shoe_shows_everything_to_anyone(
    client: Any, played: Round
) -> None:
    shoe = played.shoe
    response = client.get(reverse("baccarat:shoe_verify", args=[shoe.commitment]))
    page = response.content.decode()
    assert response.status_code == 200
    report = shoe_verification(shoe)
    assert f"{report.salt}:{report.order}" in page
    assert played.reserved_cards in page
    assert "Verified" in page


def test_a_tampered_round_fails_the_page_and_the_command(client: Any, played: Round) -> None:
    Round.objects.filter(pk=played.pk).update(player_cards="AS AH")
    assert not shoe_verification(played.shoe).ok
    page = client.get(
        reverse("baccarat:shoe_verify", args=[played.shoe.commitment])
    ).content.decode()
    assert "does not verify" in page
    with pytest.raises(CommandError) as error:
        call_command("verify_shoe", str(played.shoe_id), stdout=StringIO())
    assert error.value.returncode == 1


def test_a_tampered_order_breaks_the_commitment(played: Round) -> None:
    shoe = played.shoe
    state = dict(shoe.state)
    order = state["order"]
    state["order"] = order[2:4] + order[0:2] + order[4:]  # swap the first two cards
    Shoe.objects.filter(pk=shoe.pk).update(state=state)
    shoe.refresh_from_db()
    report = shoe_verification(shoe)
    assert not report.commitment_matches and not report.ok


def test_verify_shoe_command_passes_on_every_revealed_shoe(seated: Any, table: Table) -> None:
    for _ in range(3):
        _play(table, seated)
    out = StringIO()
    call_command("verify_shoe", "--all", stdout=out)
    assert "3 shoe(s) verified" in out.getvalue()
    assert out.getvalue().count("commitment matches") == 3


def test_unknown_and_huge_shoe_ids_are_404(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert client.get("/shoes/999999/").status_code == 404
    assert client.get("/shoes/99999999999999999999999999/").status_code == 404
    assert client.get("/shoes/9223372036854775808/").status_code == 404
    assert client.get(f"/shoes/{'0' * 64}/").status_code == 404
    assert client.get(f"/shoes/{'a' * 63}/").status_code == 404


def test_a_private_shoe_is_found_by_its_commitment_not_by_its_number(
    client: Any, played: Round, bob: Any, salon: Table
) -> None:
    """Numbers come one after another: anyone could walk through every player's shoes.
    The commitment nobody can guess is the address; the number leads its own player on."""
    shoe = played.shoe
    by_number = f"/shoes/{shoe.pk}/"
    public = reverse("baccarat:shoe_verify", args=[shoe.commitment])
    assert public == f"/shoes/{shoe.commitment}/"

    anonymous = client.get(by_number)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert shoe.commitment not in client.get(by_number, follow=True).content.decode()
    client.force_login(bob)
    assert client.get(by_number).status_code == 404
    client.force_login(played.plays.get().player)
    assert client.get(by_number)["Location"] == public
    # Whoever holds the link checks the shoe, signed in or not, in capitals or not.
    client.logout()
    assert "Verified" in client.get(public).content.decode()
    assert client.get(public.upper().replace("/SHOES/", "/shoes/")).status_code == 200
    # A full table's shoe has no player: by number it is nobody's.
    full_shoe = shoes.shoe_open(table=salon, player=None)
    client.force_login(bob)
    assert client.get(f"/shoes/{full_shoe.pk}/").status_code == 404
    assert client.get(f"/shoes/{full_shoe.commitment}/").status_code == 200


def test_the_table_and_the_protocol_show_the_commitment(
    client: Any, seated: Any, table: Table, played: Round
) -> None:
    client.force_login(seated)
    next_shoe = shoes.shoe_open(table=table, player=seated)
    table_page = client.get(reverse("baccarat:table", args=[table.slug])).content.decode()
    assert next_shoe.commitment in table_page
    assert reverse("baccarat:shoe_verify", args=[next_shoe.commitment]) in table_page
    protocol = client.get(reverse("baccarat:protocol_detail", args=[played.pk])).content.decode()
    assert played.shoe.commitment in protocol
    assert reverse("baccarat:shoe_verify", args=[played.shoe.commitment]) in protocol


def test_the_admin_never_shows_or_filters_a_shoe_order(admin_client: Any, cut_table: Table) -> None:
    shoe = shoes.shoe_open(table=cut_table, player=None)
    first = shoe.state["order"][:2]
    listing = admin_client.get(reverse("admin:baccarat_shoe_changelist"))
    assert shoe.state["order"] not in listing.content.decode()
    change = admin_client.get(reverse("admin:baccarat_shoe_change", args=[shoe.pk]))
    assert shoe.state["order"] not in change.content.decode()
    probe = admin_client.get(
        reverse("admin:baccarat_shoe_changelist"), {"state__order__startswith": first}
    )
    # A lookup into the secret order is refused, whatever it would have matched.
    assert probe.status_code == 400
    round_probe = admin_client.get(
        reverse("admin:baccarat_round_changelist"), {"reserved_cards__startswith": "A"}
    )
    assert round_probe.status_code == 400
