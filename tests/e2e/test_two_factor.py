"""A new support member enrols an authenticator app on the first login and reaches the
support area; the next login asks for the code, and a wrong one is refused."""

from __future__ import annotations

import re

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.otp import code, code_for_secret

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _second_factor_required(settings):
    settings.CASINO_STAFF_OTP_REQUIRED = True
    # A person types the right code after a wrong one more slowly than django-otp's
    # one-second wait; tests/casino/accounts/test_two_factor.py checks that wait.
    settings.OTP_TOTP_THROTTLE_FACTOR = 0


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/?next=/support/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")


def test_support_member_enrols_then_gives_the_code_at_the_next_login(page, support_user):
    log_in(page, support_user.username)
    expect(page.locator("h1")).to_have_text("Set up your second factor")
    expect(page.locator("figure.qr svg.qr-code")).to_be_visible()
    secret = page.locator("#otp-secret").inner_text()
    assert re.fullmatch(r"[A-Z2-7]{4}( [A-Z2-7]{1,4})+", secret)
    page.fill("#id_code", code_for_secret(secret))
    page.get_by_role("button", name="Confirm").click()

    expect(page.locator("h1")).to_have_text("Your recovery codes")
    expect(page.locator("#recovery-codes li")).to_have_count(10)
    page.get_by_role("link", name="I have saved them, continue").click()
    expect(page).to_have_url(re.compile(r"/support/$"))
    expect(page.get_by_role("navigation", name="Support queues")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    log_in(page, support_user.username)
    expect(page.locator("h1")).to_have_text("Enter your code")
    page.goto("/support/")  # not without the code
    expect(page.locator("h1")).to_have_text("Enter your code")
    # The enrolment's code is spent: the next step's, as the server's device counts steps
    # (an enrolment across a 30 s boundary leaves it a drift of one step).
    right = code(TOTPDevice.objects.get(user=support_user, confirmed=True), steps_ahead=1)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    page.fill("#id_code", wrong)
    page.get_by_role("button", name="Continue").click()
    expect(page.locator(".field .error")).to_have_text("This code is not valid. Please try again.")
    page.fill("#id_code", right)
    page.get_by_role("button", name="Continue").click()
    expect(page).to_have_url(re.compile(r"/support/$"))
