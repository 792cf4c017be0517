from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.dispatch import Signal
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from baccarat.admin_forms import TableConfigForm, chips_above_every_maximum, table_config
from baccarat.full import croupier
from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from baccarat.play import stacks
from wallet.formatting import format_money


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Table configuration for table admins. A change applies from the next round: each
    round copies the rules when it opens. Every save is written to the audit log."""

    form = TableConfigForm
    list_display = ["name", "kind", "decks", "reshuffle", "commission", "is_active", "sort_order"]
    list_filter = ["kind", "is_active", "decks"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "kind", "seats", "is_active", "sort_order"]}),
        (
            _("Shoe"),
            {"fields": ["decks", "reshuffle", "penetration_percent", "burn"]},
        ),
        (
            _("Payouts"),
            {"fields": ["commission", "tie_pays", "pairs_enabled", "allow_player_and_banker"]},
        ),
        (
            _("Limits and chips (€)"),
            {
                "fields": [
                    ("min_player", "max_player"),
                    ("min_banker", "max_banker"),
                    ("min_tie", "max_tie"),
                    ("min_pair", "max_pair"),
                    "chip_values",
                    "betting_seconds",
                ]
            },
        ),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        # Practice tables belong to players, not to the casino's configuration.
        return super().get_queryset(request).exclude(kind=Table.Kind.PRACTICE)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False  # rounds and ledger entries refer to tables; close them instead

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        with transaction.atomic():
            before = None
            if change:
                locked = Table.objects.select_for_update().get(pk=obj.pk)
                before = table_config(locked)
                # The form's object was read before this lock: what play at the table wrote
                # since (its event numbers, its planned tick) is kept, not written back.
                obj.event_seq, obj.tick_due = locked.event_seq, locked.tick_due
            super().save_model(request, obj, form, change)
            after = table_config(obj)
            if before != after:
                table_config_changed.send(
                    sender=Table, table=obj, changed_by=request.user, before=before, after=after
                )
            above = chips_above_every_maximum(obj)
            if above:
                messages.warning(
                    request,
                    ngettext(
                        "The %(chips)s chip is worth more than any bet at this table allows:"
                        " players see it in the rack, unusable, and bet with the others.",
                        "The %(chips)s chips are worth more than any bet at this table allows:"
                        " players see them in the rack, unusable, and bet with the others.",
                        len(above),
                    )
                    % {"chips": ", ".join(format_money(chip) for chip in above)},
                )
            if before and before["is_active"] and not obj.is_active:
                # Closed: the players' chips go back to their wallets now (the recovery
                # sweep finishes whatever a round in play holds back).
                transaction.on_commit(lambda: table_close_release(obj))


def table_close_release(table: Table) -> None:
    if table.kind == Table.Kind.FULL:
        croupier.table_tick(table_id=table.pk)  # stands the players up between rounds
    stacks.stacks_release_closed(table=table)


# Sent in the transaction of every admin save that changed a table's configuration
# (``table``, ``changed_by``, ``before``, ``after``): the support area keeps the audit
# log (``casino.support.models.TableChange``), and the game cannot import it.
table_config_changed = Signal()


class HistoryReadOnly(admin.ModelAdmin):
    """A record (game history, staff actions, table changes, players' requests): staff
    read it, nobody adds, changes or deletes it here (a correction is a new record: a
    void, a reversal)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# The card order of a shoe (``Shoe.state``) and a locked round's cards
# (``Round.reserved_cards``) are secret until dealt: no page, filter or lookup reaches them.
SECRET_FIELDS = {"state", "reserved_cards"}


class SecretsClosed(HistoryReadOnly):
    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if SECRET_FIELDS.intersection(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(Shoe)
class ShoeAdmin(SecretsClosed):
    list_display = ["table", "player", "number", "hands_dealt", "is_finished", "revealed_at"]
    list_filter = ["is_finished"]
    list_select_related = ["table", "player"]
    exclude = ["state"]
    readonly_fields = [
        "table",
        "player",
        "number",
        "commitment",
        "cut_position",
        "burn_card",
        "burned_count",
        "hands_dealt",
        "is_finished",
        "finished_at",
        "revealed_at",
    ]


def euros(field: str, label: Any) -> Any:
    """A column showing a cents field as money in the admin's language."""

    @admin.display(description=label, ordering=field)
    def show(obj: Any) -> str:
        return format_money(getattr(obj, field))

    return show


stake = euros("stake", _("stake"))
payout = euros("payout", _("payout"))
commission = euros("commission", _("commission"))
stake_total = euros("stake_total", _("stake"))
payout_total = euros("payout_total", _("payout"))
commission_total = euros("commission_total", _("commission"))


class BetInline(admin.TabularInline):
    model = Bet
    extra = 0
    fields = readonly_fields = ["kind", stake, payout, commission]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PlayInline(admin.TabularInline):
    model = Play
    extra = 0
    fields = readonly_fields = ["player", stake_total, payout_total, commission_total]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(SecretsClosed):
    list_display = ["pk", "table", "state", "completion", "outcome", "created_at"]
    list_filter = ["state", "completion", "needs_attention", "table"]
    list_select_related = ["table"]
    inlines = [PlayInline]
    exclude = ["reserved_cards"]
    readonly_fields = [f.name for f in Round._meta.fields if f.name not in SECRET_FIELDS]


@admin.register(Play)
class PlayAdmin(HistoryReadOnly):
    list_display = ["round", "player", stake_total, payout_total, "created_at"]
    list_select_related = ["round", "player"]
    inlines = [BetInline]
    readonly_fields = [f.name for f in Play._meta.fields]


@admin.register(PracticeSession)
class PracticeSessionAdmin(HistoryReadOnly):
    list_display = ["player", "state", "hands_played", "hands", "net", "created_at"]
    list_filter = ["state"]
    list_select_related = ["player"]
