"""Staff's second factor: enrolment on the first login, the code on every login after it,
recovery codes, throttling; players are never asked."""

from __future__ import annotations

import importlib
import re
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.accounts.models import User
from casino.accounts.two_factor import recovery_code_digest
from tests.conftest import PASSWORD
from tests.otp import authenticator, code, code_for_secret

pytestmark = pytest.mark.django_db

SETUP = reverse("accounts:two_factor_setup")
VERIFY = reverse("accounts:two_factor_verify")
SUPPORT = reverse("support:search")


@pytest.fixture(autouse=True)
def _second_factor_required(settings):
    settings.CASINO_STAFF_OTP_REQUIRED = True


def login(client, user, next_url=""):
    data = {"username": user.username, "password": PASSWORD}
    url = reverse("accounts:login") + (f"?{urlencode({'next': next_url})}" if next_url else "")
    return client.post(url, data)


def secret_on(page: str) -> str:
    found = re.search(r'<code class="otp-secret" id="otp-secret">([A-Z2-7 ]+)</code>', page)
    assert found, page
    return found.group(1)


def enrol(client, user) -> list[str]:
    page = client.get(SETUP).content.decode()
    response = client.post(SETUP, {"code": code_for_secret(secret_on(page))})
    assert response.status_code == 200
    return re.findall(r"<li><code>([a-z2-7]{8})</code></li>", response.content.decode())


def test_first_staff_login_goes_to_enrolment_and_back(client, support_user):
    response = login(client, support_user, next_url=SUPPORT)
    assert response["Location"] == f"{SETUP}?{urlencode({'next': SUPPORT})}"
    page = client.get(response["Location"]).content.decode()
    assert '<svg width="' in page and 'class="qr-code"' in page  # inline, made here
    assert "<img" not in page
    secret = secret_on(page)
    response = client.post(response["Location"], {"code": code_for_secret(secret)})
    assert response.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", response.content.decode())
    assert len(codes) == 10 and len(set(codes)) == 10
    assert f'href="{SUPPORT}"' in response.content.decode()
    assert response["Cache-Control"].startswith("max-age=0")
    assert client.get(SUPPORT).status_code == 200
    device = TOTPDevice.objects.get(user=support_user)
    assert device.confirmed


def test_the_secret_stays_the_same_until_confirmed(client, support_user):
    client.force_login(support_user)
    first = secret_on(client.get(SETUP).content.decode())
    assert secret_on(client.get(SETUP).content.decode()) == first
    assert TOTPDevice.objects.filter(user=support_user).count() == 1


def test_a_wrong_enrolment_code_is_refused_and_confirms_nothing(client, support_user):
    client.force_login(support_user)
    secret = secret_on(client.get(SETUP).content.decode())
    wrong = f"{(int(code_for_secret(secret)) + 1) % 1_000_000:06d}"
    response = client.post(SETUP, {"code": wrong})
    assert response.status_code == 200
    assert "This code is not valid. Please try again." in response.content.decode()
    assert not TOTPDevice.objects.get(user=support_user).confirmed
    assert not StaticToken.objects.exists()
    assert DEVICE_ID_SESSION_KEY not in client.session
    assert client.get(SUPPORT)["Location"].startswith(SETUP)


def test_staff_with_an_authenticator_give_the_code_after_the_password(client, support_user):
    device = authenticator(support_user)
    response = login(client, support_user, next_url=SUPPORT)
    assert response["Location"] == f"{VERIFY}?{urlencode({'next': SUPPORT})}"
    assert client.get(SUPPORT)["Location"].startswith(VERIFY)  # not before the code
    response = client.post(response["Location"], {"code": code(device)})
    assert response["Location"] == SUPPORT
    assert client.get(SUPPORT).status_code == 200


def test_a_wrong_code_is_refused_with_a_message(client, support_user):
    device = authenticator(support_user)
    login(client, support_user)
    wrong = f"{(int(code(device)) + 1) % 1_000_000:06d}"
    response = client.post(VERIFY, {"code": wrong})
    assert response.status_code == 200
    assert "This code is not valid. Please try again." in response.content.decode()
    assert client.get(SUPPORT)["Location"].startswith(VERIFY)


def test_after_a_wrong_code_the_next_try_must_wait(client, support_user):
    device = authenticator(support_user)
    login(client, support_user)
    client.post(VERIFY, {"code": "000000" if code(device) != "000000" else "111111"})
    response = client.post(VERIFY, {"code": code(device)})  # right, but too soon
    assert response.status_code == 200
    assert "Too many wrong codes. Please wait 1 second and try again." in (
        response.content.decode()
    )


def test_a_code_is_accepted_once(client, support_user):
    device = authenticator(support_user)
    login(client, support_user)
    used = code(device)
    assert client.post(VERIFY, {"code": used}).status_code == 302
    client.post(reverse("accounts:logout"))
    login(client, support_user)
    response = client.post(VERIFY, {"code": used})
    assert response.status_code == 200
    assert "This code is not valid" in response.content.decode()


def test_a_recovery_code_works_once_and_says_how_many_are_left(client, support_user):
    client.force_login(support_user)
    codes = enrol(client, support_user)
    client.post(reverse("accounts:logout"))
    login(client, support_user)
    response = client.post(VERIFY, {"code": codes[0].upper()}, follow=True)
    assert response.redirect_chain[0][0] == reverse("lobby")
    assert "You used a recovery code; 9 are left." in response.content.decode()
    client.post(reverse("accounts:logout"))
    login(client, support_user)
    response = client.post(VERIFY, {"code": codes[0]})
    assert response.status_code == 200
    assert "This code is not valid" in response.content.decode()


def test_recovery_codes_are_stored_as_keyed_digests(client, support_user):
    client.force_login(support_user)
    codes = enrol(client, support_user)
    stored = set(StaticToken.objects.values_list("token", flat=True))
    assert len(stored) == 10 and not stored & set(codes)
    assert all(re.fullmatch(r"[0-9a-f]{16}", token) for token in stored)
    assert stored == {recovery_code_digest(code) for code in codes}


def test_codes_issued_before_the_digests_keep_working(client, support_user):
    """Migration 0003 digests the plain codes in place."""
    from django.apps import apps

    migration = importlib.import_module("casino.accounts.migrations.0003_recovery_codes_digested")
    client.force_login(support_user)
    enrol(client, support_user)
    device = StaticToken.objects.first().device
    device.token_set.all().delete()
    StaticToken.objects.create(device=device, token="abcd2345")  # as django-otp stored it
    migration.digest_plain_codes(apps, None)
    migration.digest_plain_codes(apps, None)  # twice: a digest is left as it is
    assert list(device.token_set.values_list("token", flat=True)) == [
        recovery_code_digest("abcd2345")
    ]
    client.post(reverse("accounts:logout"))
    login(client, support_user)
    response = client.post(VERIFY, {"code": "ABCD 2345"}, follow=True)
    assert "You used a recovery code; 0 are left." in response.content.decode()


def test_a_new_login_asks_for_the_code_again(client, support_user):
    device = authenticator(support_user)
    login(client, support_user)
    client.post(VERIFY, {"code": code(device)})
    assert client.get(SUPPORT).status_code == 200
    client.post(reverse("accounts:logout"))
    login(client, support_user)
    assert client.get(SUPPORT)["Location"].startswith(VERIFY)


def test_players_are_never_asked(client, alice):
    response = login(client, alice)
    assert response["Location"] == reverse("lobby")
    assert client.get(SETUP).status_code == 403
    assert client.get(VERIFY).status_code == 403
    assert not TOTPDevice.objects.exists()


def test_a_support_member_without_the_staff_flag_is_asked_too(client, db):
    user = User.objects.create_user(username="sue", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Support"))
    client.force_login(user)
    assert client.get(SUPPORT)["Location"].startswith(SETUP)


def test_the_admin_login_leads_to_the_code_too(client, table_admin):
    authenticator(table_admin)
    admin = reverse("admin:index")
    response = client.post(
        reverse("admin:login") + f"?next={admin}",
        {"username": table_admin.username, "password": PASSWORD, "next": admin},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == f"{VERIFY}?{urlencode({'next': admin})}"


def test_next_never_leads_off_the_site(client, support_user):
    device = authenticator(support_user)
    client.force_login(support_user)
    response = client.post(f"{VERIFY}?next=https://evil.example/", {"code": code(device)})
    assert response["Location"] == "/"


def test_an_htmx_request_is_sent_to_the_code_as_a_whole_page(client, support_user):
    authenticator(support_user)
    client.force_login(support_user)
    response = client.get(SUPPORT, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == f"{VERIFY}?{urlencode({'next': SUPPORT})}"


def test_code_attempts_are_rate_limited(client, support_user, settings):
    settings.CASINO_RATE_TWO_FACTOR = "3/h"  # hours: a minute's edge can fall between them
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # django-otp's own throttle is tested above
    authenticator(support_user)
    client.force_login(support_user)
    for _ in range(3):
        assert client.post(VERIFY, {"code": "12345"}).status_code == 200
    response = client.post(VERIFY, {"code": "12345"})
    assert response.status_code == 429
    assert "Too many codes entered." in response.content.decode()


def test_when_not_required_staff_go_straight_on(client, support_user, settings):
    settings.CASINO_STAFF_OTP_REQUIRED = False
    response = login(client, support_user, next_url=SUPPORT)
    assert response["Location"] == SUPPORT
    assert client.get(SUPPORT).status_code == 200
