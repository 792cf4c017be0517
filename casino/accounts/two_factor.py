"""The second factor of staff: who needs it, enrolment, and checking a code.

Staff and superusers enrol an authenticator app (TOTP, django-otp's ``otp_totp``) and get
recovery codes (``otp_static``); the code is asked after the password, and /admin/ and
/support/ stay closed to a session that has not given it (``casino.security.middleware``).
"""

from __future__ import annotations

from base64 import b32encode
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp import verify_token
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.accounts.roles import is_support

TOTP_DEVICE_NAME = "Authenticator app"
RECOVERY_DEVICE_NAME = "Recovery codes"
RECOVERY_DIGEST_SALT = "casino.accounts.recovery-code"  # also in migration 0003


def is_staff_member(user: Any) -> bool:
    """Staff flag or superuser: read from the user row, no query."""
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser))


def needs_second_factor(user: Any) -> bool:
    """Whoever can reach /admin/ or /support/: staff, superusers, the Support group."""
    return is_staff_member(user) or is_support(user)


def second_factor_enforced(user: Any) -> bool:
    return bool(settings.CASINO_STAFF_OTP_REQUIRED) and needs_second_factor(user)


def is_verified(user: Any) -> bool:
    """This session's second factor was given (django-otp's middleware tells; a user just
    logged in by the password has not given it)."""
    check = getattr(user, "is_verified", None)
    return bool(check is not None and check())


def has_authenticator(user: Any) -> bool:
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


def second_factor_url(user: Any, next_url: str) -> str:
    """Where a session that still lacks the second factor goes: enrolment, or the code."""
    name = "accounts:two_factor_verify" if has_authenticator(user) else "accounts:two_factor_setup"
    return f"{reverse(name)}?{urlencode({'next': next_url})}"


def totp_device_pending(*, user: Any) -> TOTPDevice:
    """The authenticator being enrolled: the same secret on every visit until confirmed."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, confirmed=False)
    return device


def totp_secret(device: TOTPDevice) -> str:
    """The secret as authenticator apps take it by hand: base32, in groups of four."""
    secret = b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def totp_qr_svg(device: TOTPDevice, *, title: str) -> SafeString:
    """The enrolment QR code as inline SVG, made here: the secret goes to no other service."""
    svg = segno.make(device.config_url, error="m").svg_inline(
        scale=5, border=4, dark="#000", light="#fff", title=title, svgclass="qr-code"
    )
    return mark_safe(svg)  # noqa: S308  (segno's own markup; the title is escaped by it)


@dataclass(frozen=True)
class CodeCheck:
    """What a code did: the device that accepted it, or why it was refused."""

    device: Device | None = None
    error: str = ""


def totp_confirm(*, user: Any, device: TOTPDevice, code: str) -> tuple[CodeCheck, list[str]]:
    """Confirm the enrolled authenticator with its first code; then issue new recovery codes.

    Returns the check and, when it passed, the recovery codes, to be shown this once.
    """
    token = _digits(code)
    check = _check(user=user, device=device, token=token)
    if check.device is None:
        return check, []
    with transaction.atomic():
        TOTPDevice.objects.filter(pk=device.pk).update(confirmed=True)
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        codes = recovery_codes_issue(user=user)
    device.refresh_from_db()
    return CodeCheck(device=device), codes


def recovery_code_digest(code: str) -> str:
    """What is stored of a recovery code: a keyed digest (HMAC-SHA256 under the secret key,
    its first 16 hex digits: the width of django-otp's token column), so the table holds
    nothing a person could type; the codes themselves are shown once, when issued. A new
    ``SECRET_KEY`` retires the codes: staff then ask for new ones."""
    return salted_hmac(RECOVERY_DIGEST_SALT, code, algorithm="sha256").hexdigest()[:16]


def recovery_codes_issue(*, user: Any) -> list[str]:
    """New recovery codes for ``user``; the old ones stop working."""
    with transaction.atomic():
        device, _created = StaticDevice.objects.get_or_create(
            user=user, name=RECOVERY_DEVICE_NAME, defaults={"confirmed": True}
        )
        device.token_set.all().delete()
        codes = [StaticToken.random_token() for _ in range(settings.CASINO_RECOVERY_CODES)]
        StaticToken.objects.bulk_create(
            StaticToken(device=device, token=recovery_code_digest(code)) for code in codes
        )
    return codes


def recovery_codes_left(user: Any) -> int:
    return int(StaticToken.objects.filter(device__user=user, device__confirmed=True).count())


def second_factor_check(*, user: Any, code: str) -> CodeCheck:
    """A code from the authenticator (six digits) or a recovery code, for a signed-in user."""
    token = _digits(code)
    if token.isdigit():
        device: Device | None = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    else:
        token = recovery_code_digest("".join(code.split()).lower())
        device = StaticDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        return CodeCheck(error=_("This code is not valid. Please try again."))
    return _check(user=user, device=device, token=token)


def _check(*, user: Any, device: Device, token: str) -> CodeCheck:
    allowed, why = device.verify_is_allowed()
    if not allowed:
        return CodeCheck(error=_wait_message(why))
    accepted = verify_token(user, device.persistent_id, token)
    if accepted is None:
        return CodeCheck(error=_("This code is not valid. Please try again."))
    return CodeCheck(device=accepted)


def _wait_message(why: dict[str, Any] | None) -> str:
    locked_until = (why or {}).get("locked_until")
    seconds = 1
    if locked_until is not None:
        seconds = max(1, int((locked_until - timezone.now()).total_seconds()) + 1)
    return ngettext(
        "Too many wrong codes. Please wait %(seconds)s second and try again.",
        "Too many wrong codes. Please wait %(seconds)s seconds and try again.",
        seconds,
    ) % {"seconds": seconds}


def _digits(code: str) -> str:
    """Authenticator codes are often typed with a space or hyphen in the middle."""
    return "".join(ch for ch in code if ch not in " -\t")
