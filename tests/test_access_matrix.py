"""Every URL × every role: who gets the page, who is sent to log in, who is refused.

A new URL without a row here fails ``test_every_url_is_in_the_matrix``.
"""

from __future__ import annotations

import logging
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from baccarat import recovery
from baccarat.models import ChatMessage, ChatReport, Round, Table
from baccarat.play import betting, rounds
from casino.accounts.models import User
from tests.baccarat.conftest import practice_for
from tests.otp import authenticator, login_verified
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db
STAFF_ROLES = ("support", "tableadmin", "superuser")


@pytest.fixture(autouse=True)
def _second_factor_required(settings):
    # The matrix runs as production does: staff sign in with their second factor.
    settings.CASINO_STAFF_OTP_REQUIRED = True


def sign_in(client, objects, role) -> None:
    if role in STAFF_ROLES:
        login_verified(client, objects[role])
    elif role != "anonymous":
        client.force_login(objects[role])


ROLES = ["anonymous", "alice", "bob", "support", "tableadmin", "superuser"]
OK, LOGIN, FORBIDDEN, MISSING, NOT_ALLOWED, AWAY = 200, "login", 403, 404, 405, 302


def row(anonymous, alice, bob, support, tableadmin, superuser):
    return dict(zip(ROLES, [anonymous, alice, bob, support, tableadmin, superuser], strict=True))


EVERYONE = row(OK, OK, OK, OK, OK, OK)
SIGNED_IN = row(LOGIN, OK, OK, OK, OK, OK)
ALICE_ONLY = row(LOGIN, OK, MISSING, MISSING, MISSING, MISSING)
SUPPORT_ONLY = row(LOGIN, FORBIDDEN, FORBIDDEN, OK, FORBIDDEN, OK)
POST_ONLY = row(LOGIN, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED)
POST_ONLY_OPEN = row(NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED, NOT_ALLOWED)
ANONYMOUS_ONLY = row(OK, AWAY, AWAY, AWAY, AWAY, AWAY)
# The second factor's pages: staff only (a verified session goes on to where it was going).
STAFF_SECOND_FACTOR = row(LOGIN, FORBIDDEN, FORBIDDEN, AWAY, AWAY, AWAY)
STAFF_ADMIN = row(AWAY, AWAY, AWAY, OK, OK, OK)

# url name -> (kwargs builder, expected per role)
MATRIX = {
    "lobby": (None, EVERYONE),
    "health": (None, EVERYONE),
    "health_live": (None, EVERYONE),
    "health_ready": (None, EVERYONE),
    "table_rules": (lambda o: {"slug": o["table"].slug}, EVERYONE),
    "accounts:signup": (None, ANONYMOUS_ONLY),
    "accounts:login": (None, ANONYMOUS_ONLY),
    "accounts:logout": (None, POST_ONLY_OPEN),
    "accounts:two_factor_setup": (None, STAFF_SECOND_FACTOR),
    "accounts:two_factor_verify": (None, STAFF_SECOND_FACTOR),
    "accounts:preferences": (None, SIGNED_IN),
    "accounts:set_language": (None, POST_ONLY_OPEN),
    "accounts:sound": (None, POST_ONLY),
    "accounts:responsible_play": (None, SIGNED_IN),
    "accounts:responsible_reality": (None, POST_ONLY),
    "accounts:responsible_limits": (None, POST_ONLY),
    "accounts:responsible_break": (lambda o: {"kind": "break"}, POST_ONLY),
    "accounts:password_change": (None, SIGNED_IN),
    "accounts:password_change_done": (None, SIGNED_IN),
    "accounts:password_reset": (None, EVERYONE),
    "accounts:password_reset_done": (None, EVERYONE),
    "accounts:password_reset_confirm": (lambda o: {"uidb64": "MQ", "token": "bad-token"}, EVERYONE),
    "accounts:password_reset_complete": (None, EVERYONE),
    "wallet:cashier": (None, SIGNED_IN),
    "wallet:deposit": (None, POST_ONLY),
    "wallet:limit": (None, POST_ONLY),
    "wallet:history": (None, SIGNED_IN),
    "baccarat:table": (lambda o: {"slug": o["table"].slug}, SIGNED_IN),
    "baccarat:table_coups": (lambda o: {"slug": o["table"].slug}, SIGNED_IN),
    "baccarat:table_bet": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_clear": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_rebet": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_deal": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_rebuy": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_exit": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_reality_check": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_sit": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_layout": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_pass": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    "baccarat:table_cut": (lambda o: {"slug": o["table"].slug}, POST_ONLY),
    # Live events of a full table: signed-in players and spectators (a single table: 404).
    "baccarat:table_events": (
        lambda o: {"slug": o["salon"].slug},
        row(FORBIDDEN, OK, OK, OK, OK, OK),
    ),
    # The chat of a full table: everyone signed in reads; writing and reporting are POSTs.
    "baccarat:chat": (lambda o: {"slug": o["salon"].slug}, SIGNED_IN),
    "baccarat:chat_send": (lambda o: {"slug": o["salon"].slug}, POST_ONLY),
    "baccarat:chat_report": (
        lambda o: {"slug": o["salon"].slug, "message_id": o["message"].pk},
        POST_ONLY,
    ),
    "baccarat:practice_new": (None, SIGNED_IN),
    "baccarat:practice_summary": (lambda o: {"pk": o["practice"].pk}, ALICE_ONLY),
    "baccarat:protocol_list": (None, SIGNED_IN),
    "baccarat:protocol_export": (None, SIGNED_IN),
    "baccarat:protocol_detail": (lambda o: {"round_id": o["round"].pk}, ALICE_ONLY),
    "baccarat:protocol_replay": (lambda o: {"round_id": o["round"].pk}, ALICE_ONLY),
    "baccarat:protocol_statistics": (None, SIGNED_IN),
    # Public: a shoe's commitment, and its order once it has ended, at the address its
    # commitment makes (nobody can guess it); by number only for the shoe's own player.
    "baccarat:shoe_verify": (
        lambda o: {"commitment": Round.objects.get(pk=o["round"].pk).shoe.commitment},
        EVERYONE,
    ),
    "baccarat:shoe_verify_by_number": (
        lambda o: {"shoe_id": Round.objects.get(pk=o["round"].pk).shoe_id},
        row(LOGIN, AWAY, MISSING, MISSING, MISSING, MISSING),
    ),
    "support:search": (None, SUPPORT_ONLY),
    "support:round": (lambda o: {"round_id": o["round"].pk}, SUPPORT_ONLY),
    "support:player": (lambda o: {"player_id": o["alice"].pk}, SUPPORT_ONLY),
    "support:chat_queue": (None, SUPPORT_ONLY),
    "support:chat_case": (lambda o: {"message_id": o["message"].pk}, SUPPORT_ONLY),
    "support:void": (
        lambda o: {"round_id": o["round"].pk},
        row(LOGIN, FORBIDDEN, FORBIDDEN, NOT_ALLOWED, FORBIDDEN, NOT_ALLOWED),
    ),
    "support:mute_lift": (
        lambda o: {"message_id": o["message"].pk, "mute_id": 1},
        row(LOGIN, FORBIDDEN, FORBIDDEN, NOT_ALLOWED, FORBIDDEN, NOT_ALLOWED),
    ),
    "support:tickets": (None, SUPPORT_ONLY),
    "support:ticket": (lambda o: {"ticket_id": alice_ticket(o).pk}, SUPPORT_ONLY),
    # Players' requests for help: each player's own; anyone else's is a 404 (staff too).
    "help:tickets": (None, SIGNED_IN),
    "help:ticket": (lambda o: {"ticket_id": alice_ticket(o).pk}, ALICE_ONLY),
    "help:report": (lambda o: {"round_id": o["round"].pk}, ALICE_ONLY),
    # The Django admin, for table admins (and read-only for support).
    "admin:index": (None, STAFF_ADMIN),
    "admin:baccarat_table_changelist": (None, STAFF_ADMIN),
    "admin:baccarat_table_add": (None, row(AWAY, AWAY, AWAY, FORBIDDEN, OK, OK)),
    "admin:baccarat_table_change": (
        lambda o: {"object_id": o["table"].pk},
        STAFF_ADMIN,
    ),
    "admin:support_tablechange_changelist": (None, row(AWAY, AWAY, AWAY, FORBIDDEN, OK, OK)),
    # What staff did: superusers read it, nobody else.
    "admin:support_staffaction_changelist": (
        None,
        row(AWAY, AWAY, AWAY, FORBIDDEN, FORBIDDEN, OK),
    ),
}


def alice_ticket(objects):
    """Alice's request about her round (made once per test)."""
    from casino.support.models import Ticket

    ticket, _created = Ticket.objects.get_or_create(
        player=objects["alice"], round=objects["round"], defaults={"subject": "other"}
    )
    return ticket


def url_names(resolver=None, namespace="") -> set[str]:
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= url_names(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(f"{namespace}{pattern.name}")
    return names


def test_every_url_is_in_the_matrix():
    ours = {name for name in url_names() if not name.startswith("admin:")}
    assert ours - set(MATRIX) == set()


@pytest.fixture
def objects(alice, bob, single_table):
    superuser = User.objects.create_superuser(username="root", password="root-pass-123")
    support = User.objects.create_user(username="sam", is_staff=True)
    support.groups.add(Group.objects.get(name="Support"))
    tableadmin = User.objects.create_user(username="tara", is_staff=True)
    tableadmin.groups.add(Group.objects.get(name="Table admin"))
    wallet_rebuy(player=alice, table=single_table, amount=100_00, reference="matrix-rebuy")
    round = betting.round_open(table=single_table, player=alice)
    betting.bet_place(round=round, player=alice, kind="banker", amount=500)
    rounds.round_play(round_id=round.pk)
    recovery.heartbeat_beat()  # the sweep ran: /health/ answers 200
    session = practice_for(alice)
    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )
    message = ChatMessage.objects.create(table=salon, player=bob, seat=1, text="hello")
    ChatReport.objects.create(message=message, reporter=alice)
    return {
        "alice": alice,
        "bob": bob,
        "support": support,
        "tableadmin": tableadmin,
        "superuser": superuser,
        "table": single_table,
        "salon": salon,
        "message": message,
        "round": round,
        "practice": session,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_access(client, objects, caplog, name, role):
    kwargs_of, expected = MATRIX[name]
    url = reverse(name, kwargs=kwargs_of(objects) if kwargs_of else None)
    sign_in(client, objects, role)
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        response = client.get(url)
    want = expected[role]
    if want == LOGIN:
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("accounts:login")), url
    else:
        assert response.status_code == want, (url, role, response.status_code)
    if want in (LOGIN, FORBIDDEN, MISSING, NOT_ALLOWED):
        assert f"denied {response.status_code} GET {url}" in caplog.text, (url, role)


HUGE = str(10**30)
PROBES = ["page", "p", "table", "round", "player", "after", "dealt", "id", "o", "part"]


@pytest.mark.parametrize("role", ["alice", "superuser"])
def test_no_url_answers_500_to_numbers_no_key_can_hold(client, objects, role):
    """Every page and every admin list, with query parameters beyond 64 bits: a page, a
    404, a form error or the admin's "?e=1", never a server error."""
    from django.contrib import admin

    sign_in(client, objects, role)
    urls = [
        reverse(name, kwargs=kwargs_of(objects) if kwargs_of else None)
        for name, (kwargs_of, _expected) in MATRIX.items()
        if name not in ("baccarat:table_events",)  # a stream: probed in tests/baccarat
    ]
    urls += [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]
    for url in urls:
        for key in PROBES:
            response = client.get(url, {key: HUGE, f"{key}__in": f"1,{HUGE}"})
            assert response.status_code < 500, (url, key, response.status_code)


GUARDED = ["support:search", "support:chat_queue", "admin:index", "admin:baccarat_table_changelist"]


def step(name: str, url: str) -> str:
    return f"{reverse(name)}?{urlencode({'next': url})}"


@pytest.mark.parametrize("role", STAFF_ROLES)
@pytest.mark.parametrize("name", GUARDED)
def test_staff_without_second_factor_are_sent_to_enrol(client, objects, caplog, name, role):
    url = reverse(name)
    client.force_login(objects[role])
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == step("accounts:two_factor_setup", url)
    assert f"second factor required: GET {url}" in caplog.text


@pytest.mark.parametrize("role", STAFF_ROLES)
@pytest.mark.parametrize("name", GUARDED)
def test_staff_with_an_authenticator_are_asked_for_the_code(client, objects, name, role):
    url = reverse(name)
    authenticator(objects[role])
    client.force_login(objects[role])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == step("accounts:two_factor_verify", url)
