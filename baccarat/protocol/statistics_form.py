"""The statistics page's filter: a period (the last 7 or 30 days, or all), dates, and one
of the player's own tables. Every filter narrows: the dates within the period."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from baccarat.protocol.forms import DateRangeForm
from baccarat.protocol.hours import Scope
from baccarat.protocol.statistics import statistics_tables

PERIODS = {"7": 7, "30": 30}


def day_start(day: date) -> datetime:
    """Midnight at the start of ``day`` in the active time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


class StatisticsFilterForm(DateRangeForm):
    field_order = ["period", "date_from", "date_to", "table"]

    period = forms.ChoiceField(
        label=_("Period"),
        required=False,
        choices=[("", _("All time")), ("7", _("Last 7 days")), ("30", _("Last 30 days"))],
    )
    table = forms.TypedChoiceField(
        label=_("Table"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=(),
        error_messages={"invalid_choice": _("You have played no rounds at that table.")},
    )

    def __init__(self, *args: Any, player: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        # The player's own tables, practice sessions aside: another id is no choice.
        self.fields["table"].choices = [  # type: ignore[attr-defined]
            ("", _("All tables")),
            *statistics_tables(player),
        ]

    def scope(self, *, today: date | None = None) -> Scope:
        """What the valid filter asks for (everything when it is not valid)."""
        if not self.is_valid():
            return Scope(player=self.player)
        data = self.cleaned_data
        today = today or timezone.localdate()
        starts, ends = [], []
        if data["period"]:
            starts.append(day_start(today - timedelta(days=PERIODS[data["period"]] - 1)))
        if data["date_from"]:
            starts.append(day_start(data["date_from"]))
        if data["date_to"]:
            ends.append(day_start(data["date_to"] + timedelta(days=1)))
        return Scope(
            player=self.player,
            start=max(starts, default=None),
            end=min(ends, default=None),
            table=data["table"],
        )
