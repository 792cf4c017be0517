"""Accessibility checked by a tool: axe-core in the browser on the pages a player uses,
in every language, before and after a round. No serious or critical violation."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from baccarat.full import chat, seats
from baccarat.models import Round, Table
from baccarat.play import betting, rounds
from wallet import services as wallet

LANGUAGES = ["en", "de", "it", "nl"]
BLOCKING = {"serious", "critical"}
AXE = Axe()


def blocking_violations(page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:5])
        for v in results.response["violations"]
        if v.get("impact") in BLOCKING
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_serious_violation_on_the_players_pages(page, signed_in, language):
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    player = signed_in(f"ally-{language}", language=language)
    player.reduced_motion = True  # the result at once; the colours are what they become
    player.save()
    wallet.wallet_rebuy(player=player, table=table, amount=100_00, reference="a11y")
    played = betting.round_open(table=table, player=player)
    betting.bet_place(round=played, player=player, kind="banker", amount=500)
    rounds.round_play(round_id=played.pk)
    round_id = Round.objects.get(pk=played.pk).pk

    problems: dict[str, list[str]] = {}

    def check(name: str, url: str | None = None) -> None:
        if url is not None:
            page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        found = blocking_violations(page)
        if found:
            problems[name] = found

    check("lobby", "/")
    check("table, before a round", "/tables/golden/")
    page.locator(".spot-player .spot-add").click()
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    page.locator("#btn-deal").click()
    expect(page.locator("#board.revealed")).to_have_count(1)
    check("table, after a round")
    check("rules", "/tables/golden/rules/")
    check("protocol", "/protocol/")
    check("protocol detail", f"/protocol/{round_id}/")
    check("cashier", "/cashier/")
    # The full table with a seat taken and the chat in use.
    salon = Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )  # fmt: skip
    other = get_user_model().objects.create_user(username=f"other-{language}")
    wallet.wallet_open_for_new_player(player=other)
    for number, who in enumerate((player, other), start=1):
        seats.seat_take(
            table=salon, player=who, number=number, buy_in=50_00, reference=f"s{number}"
        )
    chat.chat_post(table=salon, player=other, text="Good luck!")
    check("full table with chat", "/tables/salon/")
    check("preferences", "/accounts/preferences/")
    assert problems == {}, problems
