"""Demo data for ``make run``: staff, two players and a few tables. Safe to run twice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from baccarat.models import Table
from casino.accounts.models import User
from wallet.services import wallet_open_for_new_player

DEMO_USERS = [
    # username, password, role, language
    ("tableadmin", "tableadmin-demo-pass", "Table admin", "en"),
    ("support", "support-demo-pass", "Support", "en"),
    ("alice", "alice-demo-pass", None, "de"),
    ("bob", "bob-demo-pass", None, "it"),
]

DEMO_TABLES: list[dict[str, Any]] = [
    {
        "slug": "golden",
        "name": "Golden Baccarat",
        "kind": Table.Kind.SINGLE,
        "decks": 1,
        "reshuffle": Table.Reshuffle.EVERY_COUP,
        "burn": Table.Burn.NONE,
        "sort_order": 1,
    },
    {
        "slug": "high-roller",
        "name": "High Roller",
        "kind": Table.Kind.SINGLE,
        "decks": 1,
        "reshuffle": Table.Reshuffle.EVERY_COUP,
        "burn": Table.Burn.NONE,
        "tie_pays": 9,
        "min_player": 2500,
        "min_banker": 2500,
        "min_tie": 500,
        "max_player": 500000,
        "max_banker": 500000,
        "max_tie": 50000,
        "sort_order": 2,
    },
    {
        "slug": "salon-prive",
        "name": "Salon Privé",
        "kind": Table.Kind.FULL,
        "seats": 8,
        "decks": 8,
        "reshuffle": Table.Reshuffle.CUT_CARD,
        "burn": Table.Burn.FIRST_CARD,
        "pairs_enabled": True,
        "allow_player_and_banker": True,
        # Seed 000's table: 5 to 300 per bet, chips 1 to 500, 15 seconds to bet.
        "min_player": 500,
        "min_banker": 500,
        "min_tie": 500,
        "min_pair": 500,
        "max_player": 30000,
        "max_banker": 30000,
        "max_tie": 30000,
        "max_pair": 30000,
        "betting_seconds": 15,
        "sort_order": 3,
    },
]


class Command(BaseCommand):
    help = "Create demo users and tables (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        for slug_fields in DEMO_TABLES:
            fields = dict(slug_fields)
            slug = fields.pop("slug")
            Table.objects.update_or_create(slug=slug, defaults=fields)
        self.stdout.write("Demo accounts (user / password):")
        for username, password, role, language in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"language": language}
            )
            if created:
                user.set_password(password)
                user.is_staff = role is not None
                user.save()
            if role is not None:
                group, _ = Group.objects.get_or_create(name=role)
                user.groups.add(group)
            else:
                wallet_open_for_new_player(player=user)
            label = role or "player"
            self.stdout.write(f"  {username:<11} / {password:<22} ({label})")
