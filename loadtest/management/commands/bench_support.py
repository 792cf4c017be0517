"""Scale benchmark: load N rounds into PostgreSQL, then time the support search by
player and date range and a player's protocol page, through the real views.

    python manage.py bench_support --rounds 1000000

Data is generated inside PostgreSQL with generate_series (a million rounds load in
well under a minute) under a dedicated table and players named ``bench-support-*`` (not
``bench-<i>``, the players ``manage.py bench`` keeps in the same database); it is
removed afterwards unless ``--keep`` is given.
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Model
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice

from baccarat.models import Bet, Play, Round, Table
from casino.accounts.models import User
from casino.support.models import StaffAction

SLUG = "bench-table"
UNUSABLE = make_password(None)
PREFIX = "bench-support-"


def _insert_select(model: type[Model], expressions: dict[str, str], series: str) -> None:
    """INSERT INTO model SELECT ... FROM generate_series: every column, known ones by
    expression, the rest by the field's default (so new fields don't break this)."""
    columns, values, params = [], [], []
    for field in model._meta.concrete_fields:
        if field.primary_key and field.column not in expressions:
            continue
        columns.append(connection.ops.quote_name(field.column))
        if field.column in expressions:
            values.append(expressions[field.column].replace("%", "%%"))
        else:
            values.append("%s")
            params.append(field.get_db_prep_save(field.get_default(), connection))
    # Table and column names come from the models, values from this command: no user input.
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} "  # noqa: S608
        f"({', '.join(columns)}) SELECT {', '.join(values)} FROM {series}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _as_production() -> override_settings:
    """Measure as production runs: no per-query debug bookkeeping; the test client's
    host answered whatever ALLOWED_HOSTS the environment gives."""
    return override_settings(DEBUG=False, ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"])


class Command(BaseCommand):
    help = "Load many rounds and time the support search and the protocol page."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rounds", type=int, default=1_000_000)
        parser.add_argument("--players", type=int, default=2_000)
        parser.add_argument("--repeat", type=int, default=20)
        parser.add_argument("--keep", action="store_true", help="Keep the generated data.")
        parser.add_argument(
            "--reuse", action="store_true", help="Measure data kept by an earlier --keep run."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("This benchmark needs PostgreSQL (set DATABASE_URL).")
        rounds, players = options["rounds"], options["players"]
        if options["reuse"] and Table.objects.filter(slug=SLUG).exists():
            table = Table.objects.get(slug=SLUG)
            first_round = (
                Round.objects.filter(table=table).order_by("pk").values_list("pk", flat=True)[0]
            )
            with _as_production():
                self._measure(table=table, first_round=first_round, repeat=options["repeat"])
            return
        self._cleanup()
        started = time.perf_counter()
        table, first_round = self._load(rounds=rounds, players=players)
        self.stdout.write(
            f"loaded {rounds:,} rounds, {rounds:,} plays, {rounds:,} bets for {players:,} players "
            f"in {time.perf_counter() - started:.1f} s"
        )
        try:
            with _as_production():
                self._measure(table=table, first_round=first_round, repeat=options["repeat"])
        finally:
            if not options["keep"]:
                self._cleanup()

    def _load(self, *, rounds: int, players: int) -> tuple[Table, int]:
        with transaction.atomic():
            table = Table.objects.create(name="Benchmark", slug=SLUG, is_active=False)
            User.objects.bulk_create(
                [User(username=f"{PREFIX}{n:05d}", password=UNUSABLE) for n in range(players)],
                batch_size=5000,
            )
            first_user = User.objects.filter(username__startswith=PREFIX).order_by("pk").first()
            assert first_user is not None
            with connection.cursor() as cursor:
                # After the rows already there; a full table's round has several plays,
                # so the plays' ids run ahead of the rounds'.
                cursor.execute("SELECT COALESCE(MAX(id), 0) FROM baccarat_round")
                first_round = cursor.fetchone()[0] + 1
                cursor.execute("SELECT COALESCE(MAX(id), 0) FROM baccarat_play")
                first_play = cursor.fetchone()[0] + 1
            now = timezone.now()
            # Spread over a year; each player plays every `players`-th round.
            seconds = f"(g::bigint * 31536000) / {max(rounds, 1)}"
            created = f"%s::timestamptz - (({seconds}) || ' seconds')::interval"
            _insert_select(
                Round,
                {
                    "id": f"{first_round - 1} + g",
                    "table_id": str(table.pk),
                    "hand_number": "g % 60 + 1",
                    "state": "'settled'",
                    "completion": "CASE WHEN g % 500 = 0 THEN 'server' ELSE 'played' END",
                    "rules": f"'{_json(table.rule_snapshot())}'::jsonb",
                    "reserved_cards": "'9HKD7C5S2C'",
                    "player_cards": "'9H 7C'",
                    "banker_cards": "'KD 5S 2C'",
                    "player_total": "6",
                    "banker_total": "7",
                    "outcome": "CASE WHEN g % 2 = 0 THEN 'banker' ELSE 'player' END",
                    "created_at": created.replace("%s", f"'{now.isoformat()}'"),
                    "locked_at": created.replace("%s", f"'{now.isoformat()}'"),
                    "settled_at": created.replace("%s", f"'{now.isoformat()}'"),
                },
                f"generate_series(1, {rounds}) AS g",
            )
            _insert_select(
                Play,
                {
                    "id": f"{first_play - 1} + g",
                    "round_id": f"{first_round - 1} + g",
                    "table_id": str(table.pk),
                    "player_id": f"{first_user.pk} + g % {players}",
                    "seat": "1",
                    "stake_total": "500",
                    "payout_total": "CASE WHEN g % 2 = 0 THEN 975 ELSE 0 END",
                    "commission_total": "CASE WHEN g % 2 = 0 THEN 25 ELSE 0 END",
                    "balance_before": "100000",
                    "balance_after": "CASE WHEN g % 2 = 0 THEN 100475 ELSE 99500 END",
                    "created_at": created.replace("%s", f"'{now.isoformat()}'"),
                },
                f"generate_series(1, {rounds}) AS g",
            )
            _insert_select(
                Bet,
                {
                    "play_id": f"{first_play - 1} + g",
                    "kind": "'banker'",
                    "stake": "500",
                    "payout": "CASE WHEN g % 2 = 0 THEN 975 ELSE 0 END",
                    "commission": "CASE WHEN g % 2 = 0 THEN 25 ELSE 0 END",
                },
                f"generate_series(1, {rounds}) AS g",
            )
            with connection.cursor() as cursor:
                for model in (Round, Play, Bet):
                    cursor.execute(
                        "SELECT setval(pg_get_serial_sequence(%s, 'id'), "  # noqa: S608
                        f"(SELECT MAX(id) FROM {model._meta.db_table}))",
                        [model._meta.db_table],
                    )
        with connection.cursor() as cursor:
            for model in (Round, Play, Bet, User):
                cursor.execute(f"ANALYZE {model._meta.db_table}")
        return table, first_round

    def _measure(self, *, table: Table, first_round: int, repeat: int) -> None:
        staff, _ = User.objects.get_or_create(
            username=f"{PREFIX}staff", defaults={"is_staff": True}
        )
        staff.is_superuser = True
        staff.save()
        player = User.objects.get(username=f"{PREFIX}00042")
        today = timezone.localdate()
        search = {
            "player": player.username,
            "date_from": (today - timedelta(days=30)).isoformat(),
            "date_to": today.isoformat(),
        }
        support_client = Client()
        support_client.force_login(staff)
        # As after the second factor: staff pages ask for it (CASINO_STAFF_OTP_REQUIRED).
        device, _ = TOTPDevice.objects.get_or_create(
            user=staff, name="Benchmark", defaults={"confirmed": True}
        )
        session = support_client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
        player_client = Client()
        player_client.force_login(player)
        cases = [
            ("support search: player + 30 days", support_client, reverse("support:search"), search),
            (
                "support search: round id",
                support_client,
                reverse("support:search"),
                {"round_id": first_round + 4711},
            ),
            (
                "support: round detail",
                support_client,
                reverse("support:round", args=[first_round + 4711]),
                {},
            ),
            ("player protocol page 1", player_client, reverse("baccarat:protocol_list"), {}),
            (
                "player protocol page 5",
                player_client,
                reverse("baccarat:protocol_list"),
                {"page": 5},
            ),
        ]
        self.stdout.write(f"{'request':<36} {'median':>9} {'p95':>9} {'max':>9}")
        for label, client, url, params in cases:
            timings = []
            for _ in range(repeat):
                began = time.perf_counter()
                response = client.get(url, params)
                timings.append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    raise CommandError(f"{label}: HTTP {response.status_code}")
            timings.sort()
            p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
            median = statistics.median(timings)
            self.stdout.write(f"{label:<36} {median:>7.1f}ms {p95:>7.1f}ms {timings[-1]:>7.1f}ms")

    def _cleanup(self) -> None:
        table = Table.objects.filter(slug=SLUG).first()
        with transaction.atomic():
            if table is not None:
                # Deleted as they were loaded, by statements: the ORM's delete would first
                # fetch every one of the million rows to collect what refers to them.
                bets, plays, rounds = (m._meta.db_table for m in (Bet, Play, Round))
                with connection.cursor() as cursor:
                    # Table names from the models; the table's id as a parameter.
                    cursor.execute(
                        f"DELETE FROM {bets} WHERE play_id IN"  # noqa: S608
                        f" (SELECT id FROM {plays} WHERE table_id = %s)",
                        [table.pk],
                    )
                    cursor.execute(f"DELETE FROM {plays} WHERE table_id = %s", [table.pk])  # noqa: S608
                    cursor.execute(f"DELETE FROM {rounds} WHERE table_id = %s", [table.pk])  # noqa: S608
                table.delete()
            # What the bench's support member read is recorded (support's reads are audited):
            # the bench's own records go with its users.
            StaffAction.objects.filter(actor__username__startswith=PREFIX).delete()
            User.objects.filter(username__startswith=PREFIX).delete()


def _json(value: Any) -> str:
    import json

    return json.dumps(value).replace("'", "''")
