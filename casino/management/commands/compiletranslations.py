"""Compile locale/*/LC_MESSAGES/*.po to .mo in pure Python (no GNU gettext needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the translation catalogs without GNU gettext."

    def handle(self, *args: Any, **options: Any) -> None:
        count = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
                count += 1
        self.stdout.write(f"{count} catalog(s) compiled.")
