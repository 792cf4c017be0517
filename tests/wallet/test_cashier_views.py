from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from baccarat.models import Round
from tests.wallet.conftest import add_play, new_round
from wallet.models import Account, DepositLimit, Entry, Transaction
from wallet.services import wallet_account, wallet_rebuy

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
START = 1_000_00


@pytest.fixture
def client_alice(client, alice):
    client.force_login(alice)
    return client


def reference_from(html: str) -> str:
    match = re.search(r'name="reference" value="([0-9a-f-]{36})"', html)
    assert match, "the deposit form renders a reference"
    return match.group(1)


def deposit(client, amount="25", reference=None, **extra):
    data = {"reference": reference or str(uuid.uuid4()), "amount": amount}
    return client.post(reverse("wallet:deposit"), data, **extra)


def wallet_balance(player) -> int:
    account = wallet_account(player=player)
    account.refresh_from_db()
    return account.balance


def test_cashier_needs_login(client):
    response = client.get(reverse("wallet:cashier"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_cashier_full_page_shows_balances_and_forms(client_alice, alice, table):
    wallet_rebuy(player=alice, table=table, amount=200_00, reference="r1")
    response = client_alice.get(reverse("wallet:cashier"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "€800.00" in html
    assert "Golden Baccarat" in html and "€200.00" in html
    assert "Free play money only" in html
    # The presets in euros, as every amount on the page.
    for amount in ("€100.00", "€500.00", "€1,000.00"):
        assert f'">{amount}</button>' in html
    assert " units" not in html
    reference_from(html)


def test_cashier_htmx_partial_has_no_layout(client_alice):
    response = client_alice.get(reverse("wallet:cashier"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="cashier"' in html


def test_each_render_has_a_new_reference(client_alice):
    first = reference_from(client_alice.get(reverse("wallet:cashier")).content.decode())
    second = reference_from(client_alice.get(reverse("wallet:cashier")).content.decode())
    assert first != second


def test_deposit_custom_amount_in_units(client_alice, alice):
    response = deposit(client_alice, "25")
    assert response.status_code == 302
    assert wallet_balance(alice) == START + 25_00


def test_deposit_preset_button(client_alice, alice):
    client_alice.post(
        reverse("wallet:deposit"), {"reference": str(uuid.uuid4()), "preset": "500", "amount": ""}
    )
    assert wallet_balance(alice) == START + 500_00


def test_deposit_htmx_returns_partial_with_notice(client_alice, alice):
    response = deposit(client_alice, "25", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "€25.00 of play money added" in html
    assert wallet_balance(alice) == START + 25_00


def test_double_submit_moves_money_once(client_alice, alice):
    reference = reference_from(client_alice.get(reverse("wallet:cashier")).content.decode())
    deposit(client_alice, "25", reference)
    response = deposit(client_alice, "25", reference)
    assert response.status_code == 302
    assert wallet_balance(alice) == START + 25_00
    assert Transaction.objects.filter(kind=Transaction.Kind.DEPOSIT).count() == 1


def test_same_reference_other_amount_shows_conflict(client_alice, alice):
    reference = str(uuid.uuid4())
    deposit(client_alice, "25", reference)
    response = deposit(client_alice, "30", reference, **HTMX)
    assert "already used for a different amount" in response.content.decode()
    assert wallet_balance(alice) == START + 25_00


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("-5", "greater than zero"),
        ("0", "greater than zero"),
        ("2.5", "whole number"),
        ("2,5", "whole number"),
        ("abc", "whole number"),
        ("", "Choose an amount"),
        ("99999999999", "at most"),
        ("9" * 40, "at most"),
        ("\u0661\u0660", "whole number"),  # Arabic-Indic digits,
    ],
)
def test_bad_amount_is_a_form_error_and_moves_nothing(client_alice, alice, amount, message):
    account = wallet_account(player=alice)
    entries = Entry.objects.count()
    response = deposit(client_alice, amount, **HTMX)
    assert response.status_code == 200
    assert message in response.content.decode()
    account.refresh_from_db()
    assert account.balance == START
    assert Entry.objects.count() == entries


def test_bad_preset_and_reference_are_form_errors(client_alice, alice):
    response = client_alice.post(
        reverse("wallet:deposit"), {"reference": "not-a-uuid", "preset": "7"}
    )
    assert response.status_code == 200
    assert wallet_balance(alice) == START


def test_deposit_over_limit_shows_error(client_alice, alice, settings):
    settings.CASINO_DEPOSIT_CAP_PER_DAY = 100_00
    response = deposit(client_alice, "100", **HTMX)
    assert response.status_code == 200
    assert "at most 100 euros" not in response.content.decode()
    assert wallet_balance(alice) == START + 100_00
    response = deposit(client_alice, "1", **HTMX)
    assert "exceed your limit" in response.content.decode()
    assert wallet_balance(alice) == START + 100_00


def test_deposit_during_round_in_play_shows_error(client_alice, alice, table):
    add_play(new_round(table, Round.State.LOCKED), alice)
    response = deposit(client_alice, "10", **HTMX)
    assert "finish your round" in response.content.decode()
    assert wallet_balance(alice) == START


def test_set_limit_lower_then_raise(client_alice, alice):
    response = client_alice.post(reverse("wallet:limit"), {"amount": "300"}, **HTMX)
    assert "applies now" in response.content.decode()
    response = client_alice.post(reverse("wallet:limit"), {"amount": "800"}, **HTMX)
    html = response.content.decode()
    assert "applies in 24 hours" in html
    assert "€800.00 applies from" in html
    limit = DepositLimit.objects.get(player=alice)
    assert (limit.amount, limit.pending_amount) == (300_00, 800_00)


@pytest.mark.parametrize("amount", ["-1", "0", "1.5", "x", "", "100001"])
def test_bad_limit_changes_nothing(client_alice, alice, amount):
    response = client_alice.post(reverse("wallet:limit"), {"amount": amount})
    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert not DepositLimit.objects.filter(player=alice).exists()


def test_get_on_post_views_is_refused(client_alice):
    assert client_alice.get(reverse("wallet:deposit")).status_code == 405
    assert client_alice.get(reverse("wallet:limit")).status_code == 405


def test_csrf_is_enforced(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = deposit(client, "25")
    assert response.status_code == 403
    assert wallet_balance(alice) == START


def test_history_shows_own_entries_with_round_link(client_alice, alice, bob, table):
    wallet_rebuy(player=alice, table=table, amount=200_00, reference="a1")
    wallet_rebuy(player=bob, table=table, amount=333_00, reference="b1")
    from wallet.services import wallet_stake

    round = new_round(table)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference="a2")
    html = client_alice.get(reverse("wallet:history")).content.decode()
    assert "\u2212€200.00" in html and "+€200.00" in html
    assert f'href="/protocol/{round.pk}/"' in html
    assert "333.00" not in html


def test_history_paginates_and_htmx_partial(client_alice, alice, table):
    for n in range(30):
        wallet_rebuy(player=alice, table=table, amount=1_00, reference=f"r{n}")
    page1 = client_alice.get(reverse("wallet:history")).content.decode()
    assert "Page 1 of 3" in page1
    response = client_alice.get(reverse("wallet:history") + "?page=3", **HTMX)
    html = response.content.decode()
    assert "<html" not in html and 'id="history"' in html
    assert "Page 3 of 3" in html
    assert html.count("<tr>") == 1 + 61 - 50  # header + 61 entries (start + 60) minus two pages


def test_cashier_shows_only_own_stacks(client_alice, bob, other_table):
    wallet_rebuy(player=bob, table=other_table, amount=200_00, reference="b1")
    html = client_alice.get(reverse("wallet:cashier")).content.decode()
    assert "Silver Baccarat" not in html
    assert Account.objects.filter(owner=bob, kind="stack").exists()


def test_cashier_query_budget(client_alice, alice, table, django_assert_max_num_queries):
    wallet_rebuy(player=alice, table=table, amount=200_00, reference="r1")
    with django_assert_max_num_queries(12):
        client_alice.get(reverse("wallet:cashier"))
