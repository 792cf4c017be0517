from __future__ import annotations

from django.contrib import admin

from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "decks", "reshuffle", "commission", "is_active", "sort_order"]
    list_filter = ["kind", "is_active", "decks"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]


@admin.register(Shoe)
class ShoeAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "hands_dealt", "is_finished", "started_at"]
    list_filter = ["is_finished"]
    # The card order is secret while the shoe is in play.
    exclude = ["state"]
    readonly_fields = ["table", "number", "commitment", "hands_dealt", "is_finished", "finished_at"]


class BetInline(admin.TabularInline):
    model = Bet
    extra = 0
    readonly_fields = ["kind", "stake", "payout", "commission"]
    can_delete = False


class PlayInline(admin.TabularInline):
    model = Play
    extra = 0
    readonly_fields = ["player", "stake_total", "payout_total", "commission_total"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["pk", "table", "state", "completion", "outcome", "created_at"]
    list_filter = ["state", "completion", "table"]
    list_select_related = ["table"]
    inlines = [PlayInline]
    readonly_fields = [f.name for f in Round._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = ["round", "player", "stake_total", "payout_total", "created_at"]
    list_select_related = ["round", "player"]
    inlines = [BetInline]
    readonly_fields = [f.name for f in Play._meta.fields]


@admin.register(PracticeSession)
class PracticeSessionAdmin(admin.ModelAdmin):
    list_display = ["player", "state", "hands_played", "hands", "net", "created_at"]
    list_filter = ["state"]
    list_select_related = ["player"]
