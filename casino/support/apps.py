from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SupportConfig(AppConfig):
    name = "casino.support"
    label = "support"
    verbose_name = _("Support")

    def ready(self) -> None:
        # The game tells players what happened to their rounds; the support area adds
        # its answers to their requests to the same notices (the game cannot import it).
        from baccarat.admin import table_config_changed
        from baccarat.full.chat import chat_expired
        from baccarat.protocol.notices import NoticeSource, notice_source_register
        from casino.support import moderation, tickets
        from casino.support.models import table_change_record

        notice_source_register(
            "tickets",
            NoticeSource(waiting=tickets.ticket_notices_waiting, take=tickets.ticket_notices),
        )
        # The table admin's saves, in the audit log (in the save's transaction).
        table_config_changed.connect(table_change_record, dispatch_uid="table-change-audit")
        # Chat text leaves staff records when the chat's retention ends for it.
        chat_expired.connect(
            moderation.records_chat_text_expire, dispatch_uid="chat-text-in-staff-records"
        )
