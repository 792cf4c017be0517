"""Staff sessions with their second factor, for tests that run with it required."""

from __future__ import annotations

from base64 import b32decode

from django.contrib.auth import SESSION_KEY
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice


def authenticator(user) -> TOTPDevice:
    """The user's confirmed authenticator app (made if missing)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="Test app", confirmed=True)


def code(device: TOTPDevice, *, steps_ahead: int = 0) -> str:
    """The code the app shows now (or that many 30 s steps later: a code is accepted once,
    and the next step's code is within the tolerance)."""
    value = totp(device.bin_key, device.step, device.t0, device.digits, device.drift + steps_ahead)
    return f"{value:0{device.digits}d}"


def code_for_secret(secret: str, *, steps_ahead: int = 0) -> str:
    """The code an app computes from the secret as the enrolment page shows it."""
    secret = "".join(secret.split())
    key = b32decode(secret + "=" * (-len(secret) % 8))
    return f"{totp(key, 30, 0, 6, steps_ahead):06d}"


def login_verified(client: Client, user) -> TOTPDevice:
    """``client.force_login(user)`` plus a confirmed authenticator that verified the session."""
    device = authenticator(user)
    client.force_login(user)
    session = client.session
    assert session[SESSION_KEY] == str(user.pk)
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device
