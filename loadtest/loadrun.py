"""What the load commands (``table_bots``, ``bench``, ``soak``) share: their players in
the server's database, and the end of their reports."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from wallet import services as wallet
from wallet.selectors import wallet_balance


def funded_player(username: str, hashed: str, *, buy_in: int, reference: str) -> Any:
    """A load-test player ``username`` with the run's password (``hashed``), active, and a
    wallet topped up to ``buy_in`` euros by a deposit of the run (``reference``)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    user.password = hashed
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    if created:
        wallet.wallet_open_for_new_player(player=user)
    short = buy_in * 100 - wallet_balance(player=user)
    if short > 0:
        wallet.wallet_deposit(player=user, amount=short, reference=f"{reference}:{user.pk}")
    return user


def report(command: BaseCommand, summary: dict[str, Any], *, as_json: bool) -> None:
    """Write a run's summary (one JSON object, or the command's own printout); fail the
    command on any error or ledger violation."""
    if as_json:
        command.stdout.write(json.dumps(summary))
    else:
        command._print(summary)  # type: ignore[attr-defined]
    violations = summary["ledger"]["violations"]
    if summary["errors"] or violations:
        first = (summary["error_samples"] + violations)[:3]
        raise CommandError(
            f"{summary['errors']} error(s), {len(violations)} ledger violation(s): {first}"
        )


def print_outcome(out: Any, s: dict[str, Any]) -> None:
    """The end of a run's printout: its errors by kind and the ledger audit."""
    out(f"Errors: {s['errors']}")
    for kind, count in s["error_kinds"].items():
        out(f"  {count:>5} x {kind}")
    ledger = s["ledger"]
    verdict = "clean" if ledger["clean"] else f"{len(ledger['violations'])} violation(s)"
    out(
        f"Ledger: {verdict} ({ledger['transactions']} transactions, {ledger['accounts']} "
        f"accounts, {ledger['rounds']} finished rounds checked)."
    )
    for violation in ledger["violations"][:20]:
        out(f"  {violation}")
