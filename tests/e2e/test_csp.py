"""The Content-Security-Policy in a real browser: every main page, used as people use it,
reports no violation (no inline script or style, nothing from elsewhere); and a request
refused by a rate limit shows its message in the page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from baccarat.models import Round, Table
from casino.accounts.models import User
from tests.otp import login_verified
from wallet.services import wallet_open_for_new_player

pytestmark = pytest.mark.django_db(transaction=True)

WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.cspViolations.push(
    event.violatedDirective + " blocked " + (event.blockedURI || "inline") + " in " +
    (event.sourceFile || document.location.pathname) + ":" + event.lineNumber
  );
}, true);
"""


class Watched:
    """A browser page whose CSP violations and console errors are collected."""

    def __init__(self, browser, base: str, user=None, *, staff: bool = False) -> None:
        self.context = browser.new_context(
            base_url=base, locale="en-US", viewport={"width": 1280, "height": 1000}
        )
        self.context.add_init_script(WATCH)
        if user is not None:
            client = Client()
            login_verified(client, user) if staff else client.force_login(user)
            self.context.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                        "url": base,
                    }
                ]
            )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.console: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        self.seen: list[str] = []

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Permissions-Policy" in text:
            self.console.append(f"{message.type}: {text}")

    def visit(self, path: str) -> None:
        self.check()
        response = self.page.goto(path)
        assert response is not None and response.status == 200, (path, response)
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        self.seen.append(path)

    def check(self) -> None:
        """No violation on the page as it is now (after whatever was done on it)."""
        violations = self.page.evaluate("window.cspViolations || []")
        assert violations == [], (self.seen[-1:], violations)
        assert self.console == [], (self.seen[-1:], self.console)


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def player(username: str):
    user = get_user_model().objects.create_user(username=username, language="en")
    wallet_open_for_new_player(player=user)
    return user


@pytest.fixture
def watched(browser, asgi_server):
    opened: list[Watched] = []

    def open_(user=None, *, staff: bool = False) -> Watched:
        w = Watched(browser, asgi_server, user, staff=staff)
        opened.append(w)
        return w

    yield open_
    for w in opened:
        w.context.close()


@pytest.fixture
def tables(db):
    golden = Table.objects.create(name="Golden Baccarat", slug="golden")
    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        betting_seconds=8,
        cycle_seconds=1,
    )
    return golden, salon


def test_pages_for_visitors_report_no_violation(watched, tables):
    w = watched()
    for path in (
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/tables/golden/rules/",
        "/tables/salon/rules/",
        "/accounts/password/reset/",
        "/admin/login/",
    ):
        w.visit(path)
    # A form error re-rendered, and the language switcher (a script submits the form).
    w.visit("/accounts/login/")
    w.page.fill("#id_username", "nobody")
    w.page.fill("#id_password", "wrong-password")
    w.page.click("button[type=submit].primary")
    expect(w.page.locator(".form-errors")).to_be_visible()
    # The switcher's script (deferred) runs before DOMContentLoaded: a choice made before
    # it would change the select and submit nothing.
    w.page.wait_for_load_state("domcontentloaded")
    w.page.select_option("#language-select", "de")
    expect(w.page.locator("html")).to_have_attribute("lang", "de")
    w.check()


def test_a_player_plays_and_reports_no_violation(watched, tables):
    salon = tables[1]
    w = watched(player("petra"))
    page = w.page
    w.visit("/")
    # The single table: buy in, a chip on Player, DEAL, the cards turned.
    w.visit("/tables/golden/")
    page.locator("#buy-in .buy-in-presets button").first.click()
    settled(page)
    page.locator(".spot-player .spot-add").click()
    settled(page)
    page.locator("#btn-deal").click()
    expect(page.locator("#board.revealed")).to_have_count(1, timeout=15_000)
    w.check()
    # The full table: sit, decline the cut, bet and deal; events arrive live.
    w.visit("/tables/salon/")
    page.select_option("#id_seat", "1")
    page.fill("#id_sit_amount", "100")
    page.locator(".sit-form button[type=submit]").click()
    expect(page.locator(".seat.mine[data-seat='1']")).to_have_count(1)
    expect(page.locator(".cut-offer")).to_be_visible()
    page.locator(".cut-offer form.inline button").click()
    expect(page.locator(".betting-timer[data-deadline]")).to_be_visible()
    page.locator(".spot-banker .spot-add").click()
    settled(page)
    page.locator("#btn-deal").click()
    round = Round.objects.filter(table=salon).order_by("pk").first()
    expect(page.locator(f"#board[data-round='{round.pk}'] .result-banner")).to_be_visible(
        timeout=20_000
    )
    assert len(page.evaluate("window.tableEvents.seqs")) > 5  # live, over the stream
    page.locator(".chat-toggle").click()
    page.fill("#chat-text", "good luck")
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-log")).to_contain_text("good luck")
    w.check()
    # Protocol, a round in it, cashier (a deposit), preferences, practice.
    w.visit("/protocol/")
    page.locator("#results tbody tr a").first.click()
    expect(page.locator("h1")).to_be_visible()
    w.check()
    w.visit("/cashier/")
    page.fill("#cashier #id_amount", "5")
    page.locator("#cashier form[action$='/deposit/'] button.primary").click()
    expect(page.locator("#cashier .message.success")).to_be_visible()
    w.check()
    w.visit("/accounts/preferences/")
    w.visit("/practice/")
    w.visit("/accounts/password/change/")
    w.check()


def test_staff_pages_report_no_violation(watched, tables):
    admin = User.objects.create_superuser(username="root", password="root-pass-123")
    w = watched(admin, staff=True)
    for path in (
        "/admin/",
        "/admin/baccarat/table/",
        "/admin/baccarat/table/add/",
        f"/admin/baccarat/table/{tables[0].pk}/change/",
        "/admin/accounts/user/",
        "/admin/otp_totp/totpdevice/",
        "/support/",
        "/support/?q=petra",
        "/support/chat/",
    ):
        w.visit(path)
    # The admin's own scripts at work: a list filter and the table form's fieldsets.
    w.visit("/admin/baccarat/table/")
    w.page.locator("#changelist-search input[type=text]").fill("Golden")
    w.page.locator("#changelist-search input[type=submit]").click()
    expect(w.page.locator("#result_list")).to_contain_text("Golden Baccarat")
    w.check()


def test_a_refused_table_action_shows_its_message(watched, tables, settings):
    # Per hour, not per minute: the limit's windows are fixed (django-ratelimit), and the
    # three clicks take seconds in a browser; a minute's edge fell between them once.
    settings.CASINO_RATE_TABLE = "2/h"
    w = watched(player("rita"))
    page = w.page
    w.visit("/tables/golden/")
    page.locator("#buy-in .buy-in-presets button").first.click()  # one
    settled(page)
    page.locator(".spot-player .spot-add").click()  # laid out in the page: no request
    page.locator("#btn-deal").click()  # two
    settled(page)
    expect(page.locator("#board.revealed")).to_have_count(1, timeout=15_000)
    stack = page.locator("#stack").inner_text()
    page.locator("#btn-deal").click()  # three: refused
    error = page.locator("#request-error")
    expect(error).to_be_visible()
    expect(error).to_have_text(
        "That was faster than the table allows. Please wait a moment and try again."
    )
    settled(page)
    expect(page.locator("#stack")).to_have_text(stack, use_inner_text=True)  # as it was
    assert Round.objects.filter(state=Round.State.SETTLED).count() == 1
    w.check()


def test_the_watch_sees_a_violation(watched, tables):
    """The checks above can fail: an inline style (as htmx would insert one without its
    config) is blocked and reported."""
    w = watched()
    w.visit("/")
    w.page.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>.x{color:red}</style>')")
    w.page.wait_for_function("window.cspViolations.length > 0")
    with pytest.raises(AssertionError, match="style-src"):
        w.check()
