"""Support voids a settled round for a malfunction in a browser without JavaScript: the
form, the confirmation showing what will move, and the record of what was reversed; the
player is told on their next page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import Client
from playwright.sync_api import expect

from baccarat.integrity.audit import audit_violations
from baccarat.models import Reversal, Round, Table
from baccarat.play import betting, rounds
from casino.accounts.models import User
from wallet.services import wallet_rebuy


def staff_context(browser, live_server, *, javascript: bool = True):
    """A browser context signed in as a member of the support staff."""
    user = User.objects.create_user(username="sam", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="Support")[0])
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        base_url=live_server.url, locale="en-US", java_script_enabled=javascript
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    context.set_default_timeout(10_000)
    return context


@pytest.mark.django_db(transaction=True)
def test_support_voids_a_settled_round_through_the_confirmation(
    browser, live_server, page, signed_in
):
    player = signed_in("carla")
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    wallet_rebuy(player=player, table=table, amount=50_00, reference="e2e-rebuy")
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="banker", amount=500)
    rounds.round_play(round_id=round.pk)

    context = staff_context(browser, live_server, javascript=False)
    staff = context.new_page()
    staff.goto(f"/support/rounds/{round.pk}/")
    expect(staff.get_by_role("heading", name="Void this settled round")).to_be_visible()
    expect(staff.get_by_label("Malfunction")).to_be_checked()  # the only cause here
    staff.get_by_label("What happened").fill("The card reader froze during the deal.")
    staff.get_by_role("button", name="Review the void").click()

    expect(staff.get_by_role("heading", name=f"Void round #{round.pk}?")).to_be_visible()
    expect(staff.get_by_role("cell", name="carla")).to_be_visible()
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED  # nothing moved yet
    staff.get_by_role("button", name=f"Void round #{round.pk}").click()

    expect(staff.get_by_text("The round is void; what was reversed is below.")).to_be_visible()
    expect(staff.get_by_role("heading", name="What the void reversed")).to_be_visible()
    expect(staff.get_by_text("Malfunction: The card reader froze during the deal.")).to_be_visible()
    round.refresh_from_db()
    assert round.state == Round.State.VOID
    assert Reversal.objects.filter(round=round).count() == 1
    assert audit_violations() == []
    context.close()

    page.goto("/")
    expect(
        page.get_by_text(f"Your round #{round.pk} at Golden Baccarat was voided")
    ).to_be_visible()
    page.get_by_role("link", name="See the round").first.click()
    expect(
        page.get_by_text("Void: Malfunction · The card reader froze during the deal.")
    ).to_be_visible()
