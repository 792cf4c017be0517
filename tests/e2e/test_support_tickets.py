"""A player reports a problem with a round; support answers from the queue; the player
gets a notice and reads the answer."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Table
from baccarat.play import betting, rounds
from casino.support.models import StaffAction, Ticket
from tests.e2e.test_support_void import staff_context
from wallet.services import wallet_rebuy


@pytest.mark.django_db(transaction=True)
def test_report_answer_and_notice(browser, live_server, page, signed_in):
    player = signed_in("dora")
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    wallet_rebuy(player=player, table=table, amount=50_00, reference="e2e-rebuy")
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="player", amount=500)
    rounds.round_play(round_id=round.pk)

    page.goto(f"/protocol/{round.pk}/")
    page.get_by_role("link", name="Report a problem").click()
    page.get_by_label("What is it about?").select_option("payout")
    page.get_by_label("Your message").fill("My balance did not change after this round.")
    page.get_by_role("button", name="Send to support").click()
    expect(page.get_by_text("Thank you: your request was sent to support.")).to_be_visible()
    expect(page.get_by_text("Support has not answered yet.")).to_be_visible()
    ticket = Ticket.objects.get(player=player)

    context = staff_context(browser, live_server)
    staff = context.new_page()
    staff.goto("/support/")
    staff.get_by_role("link", name="Players' requests").click()
    staff.get_by_role("link", name=f"Request #{ticket.pk}").click()
    expect(staff.get_by_text("My balance did not change after this round.")).to_be_visible()
    expect(staff.get_by_role("link", name=f"Round #{round.pk}")).to_be_visible()
    staff.get_by_label("Answer:", exact=True).fill("We checked: your stack was paid correctly.")
    staff.get_by_role("button", name="Send the answer").click()
    expect(staff.get_by_text("Your answer was sent.")).to_be_visible()
    context.close()
    assert StaffAction.objects.filter(kind=StaffAction.Kind.TICKET_ANSWERED).count() == 1

    page.goto("/")
    notice = page.get_by_text(f"Support answered your request about round #{round.pk}.")
    expect(notice).to_be_visible()
    page.get_by_role("link", name="Read the answer").click()
    expect(page.get_by_text("We checked: your stack was paid correctly.")).to_be_visible()
    page.get_by_role("link", name="My requests").first.click()
    expect(page.get_by_role("cell", name="Answered")).to_be_visible()
