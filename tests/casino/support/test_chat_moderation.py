"""Support's queue of reported chat messages: the context around a message, and the
decisions (dismiss, remove, mute at the table or everywhere), each recorded once, even
when two members of staff decide at the same moment."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full import chat, seats
from baccarat.models import ChatMessage, ChatMute, ChatReport, Table, TableEvent
from casino.support import moderation
from casino.support.models import StaffAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def salon() -> Table:
    return Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )  # fmt: skip


@pytest.fixture
def reported(salon: Table, alice: Any, bob: Any) -> ChatMessage:
    """Ten messages at the salon; bob reported alice's sixth."""
    seats.seat_take(table=salon, player=alice, number=1, buy_in=50_00, reference="a")
    seats.seat_take(table=salon, player=bob, number=2, buy_in=50_00, reference="b")
    start = timezone.now() - timedelta(minutes=10)
    for number in range(10):
        ChatMessage.objects.create(
            table=salon,
            player=alice if number % 2 else bob,
            seat=1 if number % 2 else 2,
            text=f"line {number}",
            created_at=start + timedelta(seconds=number),
        )
    message = ChatMessage.objects.get(text="line 5")
    chat.chat_report(message_id=message.pk, table=salon, reporter=bob, reason="rude")
    return message


def test_the_queue_shows_reported_messages_and_their_context(
    client: Any, support_user: Any, reported: ChatMessage
) -> None:
    client.force_login(support_user)
    queue = client.get(reverse("support:chat_queue")).content.decode()
    assert "line 5" in queue and "line 4" not in queue
    page = client.get(reverse("support:chat_case", args=[reported.pk])).content.decode()
    for number in range(10):
        assert f"line {number}" in page  # five before, five after
    assert "<mark>line 5</mark>" in page
    assert "rude" in page and "Salon" in page


def test_dismiss_keeps_the_message_and_records_who_and_why(
    client: Any, support_user: Any, reported: ChatMessage
) -> None:
    client.force_login(support_user)
    url = reverse("support:chat_case", args=[reported.pk])
    response = client.post(url, {"action": "dismiss", "reason": "banter"})
    assert response.status_code == 302
    reported.refresh_from_db()
    assert reported.removed_at is None
    assert ChatReport.objects.get().state == ChatReport.State.DISMISSED
    action = StaffAction.objects.get()
    assert (action.actor, action.kind, action.subject_id, action.reason) == (
        support_user, StaffAction.Kind.REPORT_DISMISSED, reported.player_id, "banter"
    )  # fmt: skip
    assert action.details["text"] == "line 5"
    queue = client.get(reverse("support:chat_queue")).content.decode()
    assert "No report is waiting." in queue


def test_mute_removes_the_message_and_the_writer_sees_why(
    client: Any, support_user: Any, reported: ChatMessage, salon: Table, alice: Any
) -> None:
    client.force_login(support_user)
    url = reverse("support:chat_case", args=[reported.pk])
    response = client.post(
        url, {"action": "mute", "everywhere": "all", "minutes": "60", "reason": "Insults"}
    )
    assert response.status_code == 302
    reported.refresh_from_db()
    assert reported.removed_at is not None
    mute = ChatMute.objects.get()
    assert (mute.player, mute.table, mute.reason) == (alice, None, "Insults")
    assert timedelta(minutes=59) < mute.until - timezone.now() <= timedelta(minutes=60)
    assert StaffAction.objects.get().kind == StaffAction.Kind.PLAYER_MUTED
    removed = TableEvent.objects.get(table=salon, kind="chat_removed")
    assert removed.data == {"message": reported.pk, "player": "alice"}
    with pytest.raises(chat.ChatRefused, match="Insults"):
        chat.chat_post(table=salon, player=alice, text="sorry")


@pytest.mark.parametrize(
    "data",
    [
        {"action": "remove", "reason": ""},
        {"action": "mute", "minutes": "60", "reason": "   "},
        {"action": "mute", "minutes": "7", "reason": "spam"},
        {"action": "explode", "reason": "x"},
        {"action": "remove", "reason": "x" * 201},
    ],
)
def test_a_bad_decision_changes_nothing(
    client: Any, support_user: Any, reported: ChatMessage, data: dict[str, str]
) -> None:
    client.force_login(support_user)
    response = client.post(reverse("support:chat_case", args=[reported.pk]), data)
    assert response.status_code == 400
    reported.refresh_from_db()
    assert reported.removed_at is None
    assert ChatReport.objects.get().state == ChatReport.State.OPEN
    assert not StaffAction.objects.exists() and not ChatMute.objects.exists()


def test_a_decision_on_handled_reports_changes_nothing(
    client: Any, support_user: Any, reported: ChatMessage
) -> None:
    client.force_login(support_user)
    url = reverse("support:chat_case", args=[reported.pk])
    client.post(url, {"action": "remove", "reason": "rude"})
    response = client.post(url, {"action": "mute", "minutes": "60", "reason": "rude"}, follow=True)
    assert "These reports were handled already; nothing changed." in response.content.decode()
    assert StaffAction.objects.count() == 1 and not ChatMute.objects.exists()


def test_players_cannot_moderate(client: Any, bob: Any, reported: ChatMessage) -> None:
    client.force_login(bob)
    url = reverse("support:chat_case", args=[reported.pk])
    assert client.post(url, {"action": "remove", "reason": "x"}).status_code == 403
    reported.refresh_from_db()
    assert reported.removed_at is None and not StaffAction.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_staff_deciding_at_once_make_one_decision(
    support_user: Any, reported: ChatMessage, racers: Any
) -> None:
    def decide(action: str) -> str:
        try:
            moderation.report_decide(
                message_id=reported.pk, action=action, by=support_user, reason="x", minutes=15
            )
        except moderation.AlreadyHandled:
            return "handled"
        return "done"

    results = racers.run([lambda: decide("remove"), lambda: decide("mute")])
    assert sorted(results) == ["done", "handled"]
    assert StaffAction.objects.count() == 1
    muted = StaffAction.objects.get().kind == StaffAction.Kind.PLAYER_MUTED
    assert ChatMute.objects.count() == (1 if muted else 0)


@pytest.fixture
def muted(client: Any, support_user: Any, reported: ChatMessage) -> ChatMute:
    """alice muted in every chat for a day over the reported message."""
    client.force_login(support_user)
    url = reverse("support:chat_case", args=[reported.pk])
    data = {"action": "mute", "everywhere": "all", "minutes": str(24 * 60), "reason": "Insults"}
    assert client.post(url, data).status_code == 302
    return ChatMute.objects.get()


def test_support_lifts_a_mute_early_and_the_player_writes_again(
    client: Any, support_user: Any, reported: ChatMessage, muted: ChatMute, salon: Table, alice: Any
) -> None:
    case = reverse("support:chat_case", args=[reported.pk])
    lift = reverse("support:mute_lift", args=[reported.pk, muted.pk])
    assert f'action="{lift}"' in client.get(case).content.decode()
    response = client.post(lift, {"reason": "Apologised by mail"}, follow=True)
    assert response.redirect_chain[-1][0] == case
    assert "The mute is lifted: the player may write again." in response.content.decode()
    muted.refresh_from_db()
    assert muted.until <= timezone.now()
    action = StaffAction.objects.filter(kind=StaffAction.Kind.MUTE_LIFTED).get()
    assert (action.actor, action.subject, action.reason) == (
        support_user, alice, "Apologised by mail"
    )  # fmt: skip
    assert action.details["mute"] == muted.pk
    assert chat.chat_post(table=salon, player=alice, text="sorry").text == "sorry"
    assert f'action="{lift}"' not in client.get(case).content.decode()  # ended: no button
    # alice sits at the salon: her page there looks at its chat again.
    unmuted = TableEvent.objects.get(table=salon, kind="chat_unmuted")
    assert unmuted.data == {"player": "alice"}


@pytest.mark.parametrize("reason", ["", "   ", "x" * 201])
def test_a_lift_without_a_good_reason_changes_nothing(
    client: Any, reported: ChatMessage, muted: ChatMute, reason: str
) -> None:
    until = muted.until
    lift = reverse("support:mute_lift", args=[reported.pk, muted.pk])
    response = client.post(lift, {"reason": reason})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    muted.refresh_from_db()
    assert muted.until == until
    assert not StaffAction.objects.filter(kind=StaffAction.Kind.MUTE_LIFTED).exists()


def test_a_second_lift_changes_nothing(client: Any, reported: ChatMessage, muted: ChatMute) -> None:
    lift = reverse("support:mute_lift", args=[reported.pk, muted.pk])
    client.post(lift, {"reason": "ok"})
    muted.refresh_from_db()
    lifted_at = muted.until
    response = client.post(lift, {"reason": "again"}, follow=True)
    assert "That mute had ended already; nothing changed." in response.content.decode()
    muted.refresh_from_db()
    assert muted.until == lifted_at
    assert StaffAction.objects.filter(kind=StaffAction.Kind.MUTE_LIFTED).count() == 1


def test_a_lift_needs_the_writers_own_mute_a_post_and_staff(
    client: Any, bob: Any, salon: Table, reported: ChatMessage, muted: ChatMute, support_user: Any
) -> None:
    other = chat.player_mute(
        player=bob, table=salon, until=timezone.now() + timedelta(hours=1), reason="x",
        by=support_user,
    )  # fmt: skip
    for message_id, mute_id in [(reported.pk, other.pk), (reported.pk, 10**12), (10**12, muted.pk)]:
        url = reverse("support:mute_lift", args=[message_id, mute_id])
        assert client.post(url, {"reason": "ok"}).status_code == 404
    lift = reverse("support:mute_lift", args=[reported.pk, muted.pk])
    assert client.get(lift).status_code == 405
    client.force_login(bob)
    assert client.post(lift, {"reason": "ok"}).status_code == 403
    for mute in (muted, other):
        until = mute.until
        mute.refresh_from_db()
        assert mute.until == until
    assert not StaffAction.objects.filter(kind=StaffAction.Kind.MUTE_LIFTED).exists()


@pytest.mark.django_db(transaction=True)
def test_two_staff_lifting_at_once_make_one_lift(
    support_user: Any, reported: ChatMessage, muted: ChatMute, racers: Any
) -> None:
    def lift() -> str:
        try:
            moderation.mute_lift(
                message_id=reported.pk, mute_id=muted.pk, by=support_user, reason="ok"
            )
        except moderation.AlreadyHandled:
            return "handled"
        return "done"

    assert sorted(racers.run([lift, lift])) == ["done", "handled"]
    assert StaffAction.objects.filter(kind=StaffAction.Kind.MUTE_LIFTED).count() == 1
