"""A double-entry ledger of play money, in integer cents.

Every balance change is a ``Transaction`` whose ``Entry`` rows sum to zero.
``Account.balance`` caches the sum of an account's entries and is updated in
the same database transaction; ``manage.py audit_ledger`` proves both.

A player's play at a table has three accounts of its own: the stack, the stakes in play
(escrow) and the house's side (house). A round moves money only between the accounts of
its players, so players at one table never wait for each other's row locks; what the
house won at a table is the sum of its house accounts there. (Databases from before
migration 0003 also keep one escrow and one house account per table with no owner: the
escrow emptied by that migration, the house holding what it won before.)
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Account(models.Model):
    class Kind(models.TextChoices):
        WALLET = "wallet", _("Wallet")
        STACK = "stack", _("Table stack")
        ESCROW = "escrow", _("Stakes in play")
        HOUSE = "house", _("House")
        ISSUER = "issuer", _("Play-money issuer")

    # Accounts that hold a player's money never go below zero; the house and the
    # issuer are the other side of every win and every deposit.
    NON_NEGATIVE_KINDS = (Kind.WALLET, Kind.STACK, Kind.ESCROW)

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="accounts",
    )
    table = models.ForeignKey(
        "baccarat.Table",
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="accounts",
    )
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind__in=["house", "issuer"]),
                name="account_player_side_nonnegative",
            ),
            models.UniqueConstraint(
                fields=["owner"], condition=Q(kind="wallet"), name="one_wallet_per_player"
            ),
            models.UniqueConstraint(
                fields=["owner", "table"],
                condition=Q(kind="stack"),
                name="one_stack_per_player_and_table",
            ),
            models.UniqueConstraint(
                fields=["kind", "owner", "table"],
                condition=Q(kind__in=["escrow", "house"]),
                name="one_escrow_and_house_per_player_and_table",
            ),
            models.UniqueConstraint(fields=["kind"], condition=Q(kind="issuer"), name="one_issuer"),
        ]

    def __str__(self) -> str:
        parts = [self.get_kind_display()]
        if self.owner_id:
            parts.append(str(self.owner))
        if self.table_id:
            parts.append(str(self.table))
        return " / ".join(parts)


class Transaction(models.Model):
    class Kind(models.TextChoices):
        STARTING_CHIPS = "starting_chips", _("Starting chips")
        DEPOSIT = "deposit", _("Deposit")
        REBUY = "rebuy", _("Rebuy")
        CASH_OUT = "cash_out", _("Cash-out")
        STAKE = "stake", _("Stake")
        SETTLE = "settle", _("Settlement")
        REFUND = "refund", _("Refund")
        TAKE_BACK = "take_back", _("Payout taken back (void)")
        PRACTICE_FUND = "practice_fund", _("Practice chips issued")
        PRACTICE_RETURN = "practice_return", _("Practice chips returned")
        # Migration 0003 only: a stake in play moved from its table's shared escrow.
        ESCROW_MOVE = "escrow_move", _("Stake in play moved to the player's own account")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # Unique by a constraint (txn_reference_unique), not ``unique=True``: on PostgreSQL
    # that adds a second index for LIKE, which nothing asks and every posting writes.
    reference = models.CharField(_("reference"), max_length=120)
    # No index of its own: txn_player_recent (player, -created_at) starts with it.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transactions",
        db_index=False,
    )
    round = models.ForeignKey(
        "baccarat.Round",
        verbose_name=_("round"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_transactions",
    )
    created_at = models.DateTimeField(_("date"), auto_now_add=True)

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        constraints = [models.UniqueConstraint(fields=["reference"], name="txn_reference_unique")]
        indexes = [
            models.Index(fields=["player", "-created_at"], name="txn_player_recent"),
            models.Index(fields=["player", "kind", "created_at"], name="txn_player_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.reference}"


class Entry(models.Model):
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="entries")
    # No index of its own: entry_account_recent (account, -id) starts with it.
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    amount = models.BigIntegerField(_("amount"))
    balance_after = models.BigIntegerField(_("balance after"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="entry_amount_nonzero"),
        ]
        indexes = [models.Index(fields=["account", "-id"], name="entry_account_recent")]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount}"


class DepositLimit(models.Model):
    """A player's own limit on deposits per 24 hours.

    Lowering applies at once; raising waits 24 hours (``pending_*``).
    """

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deposit_limit"
    )
    amount = models.BigIntegerField(_("limit per 24 hours"))
    pending_amount = models.BigIntegerField(null=True, blank=True)
    pending_from = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("deposit limit")
        verbose_name_plural = _("deposit limits")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_limit_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.amount}"


class PlayLimit(models.Model):
    """A limit the player set on their own play: losses or time, per day or per week.

    Lowering applies at once; raising or removing waits 24 hours (``pending_*``), as the
    deposit limit does. Losses in cents, time in minutes."""

    class Kind(models.TextChoices):
        LOSS_DAY = "loss_day", _("Loss limit per day")
        LOSS_WEEK = "loss_week", _("Loss limit per week")
        TIME_DAY = "time_day", _("Play time per day")
        TIME_WEEK = "time_week", _("Play time per week")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_limits"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    amount = models.BigIntegerField(_("limit"))
    # A raise (or, with pending_remove, the removal) that applies from pending_from on.
    pending_amount = models.BigIntegerField(null=True, blank=True)
    pending_remove = models.BooleanField(default=False)
    pending_from = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("play limit")
        verbose_name_plural = _("play limits")
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="one_play_limit_per_kind"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="play_limit_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.kind} {self.amount}"


class PlayBreak(models.Model):
    """A break the player took, or their self-exclusion: no bets, deposits, rebuys or
    chat until ``ends_at``. Nobody can end it early: there is no service that does."""

    class Kind(models.TextChoices):
        BREAK = "break", _("Break")
        EXCLUSION = "exclusion", _("Self-exclusion")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_breaks"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    started_at = models.DateTimeField(_("started"))
    ends_at = models.DateTimeField(_("ends"))

    class Meta:
        verbose_name = _("break from play")
        verbose_name_plural = _("breaks from play")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("started_at")), name="break_ends_later"
            ),
        ]
        indexes = [models.Index(fields=["player", "-ends_at"], name="break_player_ends")]

    def __str__(self) -> str:
        return f"{self.player}: {self.kind} until {self.ends_at}"
