"""Tables, shoes, rounds and bets.

A round belongs to a table, not to a player: a single-player table is a table
with one seat. Each player's part in a round is a ``Play`` holding their bets.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def default_chip_values() -> list[int]:
    return [100, 500, 2500, 10000, 50000]


class Table(models.Model):
    class Kind(models.TextChoices):
        SINGLE = "single", _("Single-player table")
        FULL = "full", _("Full table")
        PRACTICE = "practice", _("Practice session")

    class Reshuffle(models.TextChoices):
        EVERY_COUP = "every_coup", _("Before every coup")
        CUT_CARD = "cut_card", _("At the cut card")

    class Burn(models.TextChoices):
        FIRST_CARD = "first_card", _("By the first card")
        NONE = "none", _("No burn")

    class Commission(models.TextChoices):
        FIVE_PERCENT = "five_percent", _("Banker wins pay 1:1 less 5%")
        BANKER_SEVEN = "banker_seven", _("No commission, banker three-card 7 pushes")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.SINGLE)
    seats = models.PositiveSmallIntegerField(_("seats"), default=1)
    decks = models.PositiveSmallIntegerField(_("decks"), default=1)
    reshuffle = models.CharField(
        _("reshuffle"), max_length=16, choices=Reshuffle.choices, default=Reshuffle.EVERY_COUP
    )
    penetration_percent = models.PositiveSmallIntegerField(_("cut card at (%)"), default=89)
    burn = models.CharField(_("burn"), max_length=16, choices=Burn.choices, default=Burn.NONE)
    commission = models.CharField(
        _("banker payout"),
        max_length=16,
        choices=Commission.choices,
        default=Commission.FIVE_PERCENT,
    )
    tie_pays = models.PositiveSmallIntegerField(_("tie pays (to 1)"), default=8)
    pairs_enabled = models.BooleanField(_("pair bets"), default=False)
    allow_player_and_banker = models.BooleanField(_("player and banker together"), default=False)
    # Limits per bet kind, integer cents.
    min_player = models.BigIntegerField(_("player minimum"), default=100)
    max_player = models.BigIntegerField(_("player maximum"), default=50000)
    min_banker = models.BigIntegerField(_("banker minimum"), default=100)
    max_banker = models.BigIntegerField(_("banker maximum"), default=50000)
    min_tie = models.BigIntegerField(_("tie minimum"), default=100)
    max_tie = models.BigIntegerField(_("tie maximum"), default=10000)
    min_pair = models.BigIntegerField(_("pair minimum"), default=100)
    max_pair = models.BigIntegerField(_("pair maximum"), default=5000)
    chip_values = models.JSONField(_("chip values (cents)"), default=default_chip_values)
    betting_seconds = models.PositiveSmallIntegerField(_("betting seconds"), default=15)
    cycle_seconds = models.PositiveSmallIntegerField(
        _("seconds between game cycles"),
        default=5,
        help_text=_("Full tables: the pause between a result and the next round's betting."),
    )
    # Full tables: the last event's number (a gap-free sequence per table, see TableEvent).
    event_seq = models.BigIntegerField(default=0, editable=False)
    # Full tables: the moment the croupier's timer was last sent for (its Celery task with
    # an ETA). A tick that finds that moment due next sends nothing more: one task is on
    # its way for it (baccarat.full.croupier.table_tick).
    tick_due = models.DateTimeField(null=True, blank=True, editable=False)
    is_active = models.BooleanField(_("open"), default=True)
    sort_order = models.PositiveSmallIntegerField(_("order in the lobby"), default=0)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="practice_tables",
        help_text=_("Only for practice sessions: the player the table belongs to."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["sort_order", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(seats__in=[1, 8]), name="table_seats_1_or_8"),
            models.CheckConstraint(condition=Q(decks__in=[1, 6, 8]), name="table_decks_1_6_8"),
            models.CheckConstraint(condition=Q(tie_pays__in=[8, 9]), name="table_tie_pays_8_or_9"),
            models.CheckConstraint(
                condition=Q(min_player__gt=0, min_banker__gt=0, min_tie__gt=0, min_pair__gt=0),
                name="table_minimums_positive",
            ),
            models.CheckConstraint(
                condition=Q(
                    min_player__lte=models.F("max_player"),
                    min_banker__lte=models.F("max_banker"),
                    min_tie__lte=models.F("max_tie"),
                    min_pair__lte=models.F("max_pair"),
                ),
                name="table_min_not_above_max",
            ),
            models.CheckConstraint(
                condition=Q(kind="practice") | Q(owner__isnull=True),
                name="table_only_practice_has_owner",
            ),
        ]
        indexes = [models.Index(fields=["kind", "is_active", "sort_order"])]

    def __str__(self) -> str:
        return self.name

    def limits(self) -> dict[str, tuple[int, int]]:
        """Minimum and maximum stake in cents per bet kind."""
        limits = {
            "player": (self.min_player, self.max_player),
            "banker": (self.min_banker, self.max_banker),
            "tie": (self.min_tie, self.max_tie),
        }
        if self.pairs_enabled:
            limits["player_pair"] = (self.min_pair, self.max_pair)
            limits["banker_pair"] = (self.min_pair, self.max_pair)
        return limits

    def chip_rack(self) -> list[tuple[int, bool]]:
        """Each chip value with whether any bet here can take it (seed 000 racks a 500 €
        chip beside a 300 € maximum: shown, never placeable)."""
        highest = max(high for _low, high in self.limits().values())
        return [(value, value <= highest) for value in self.chip_values]

    def rule_snapshot(self) -> dict[str, Any]:
        """The rule values a round is played under, copied into the round."""
        return {
            "decks": self.decks,
            "reshuffle": self.reshuffle,
            "penetration_percent": self.penetration_percent,
            "burn": self.burn,
            "commission": self.commission,
            "tie_pays": self.tie_pays,
            "pairs_enabled": self.pairs_enabled,
            "allow_player_and_banker": self.allow_player_and_banker,
            "limits": {kind: list(pair) for kind, pair in self.limits().items()},
            "seats": self.seats,
        }


class Shoe(models.Model):
    """A shuffled shoe: its full card order is stored server-side from the start.

    A full table deals every round from one shared shoe; at a single-player table each
    player has shoes of their own (``player``), as single-player games do, so one
    player's rounds never wait for another's. Either way a card position is dealt to
    at most one round: ``DealtCard`` holds one row per position taken, unique per shoe.

    The order (in ``state``) is secret until the shoe has ended and every round dealt
    from it is final; then ``revealed_at`` is set and anyone can check it against the
    ``commitment`` published from the first hand.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="shoes",
        help_text=_("The player whose own shoe this is, at a single-player table."),
    )
    number = models.PositiveIntegerField(_("shoe number"))
    state = models.JSONField(_("engine state"))
    commitment = models.CharField(_("SHA-256 commitment"), max_length=64)
    cut_position = models.PositiveIntegerField(_("cut at"), null=True, blank=True)
    # Full tables: who cut (empty: the croupier), and the seat the cut is offered to now.
    cut_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("cut by"),
    )
    cut_offer_seat = models.PositiveSmallIntegerField(
        _("cut offered to seat"), null=True, blank=True
    )
    cut_offer_until = models.DateTimeField(_("cut offer ends"), null=True, blank=True)
    burn_card = models.CharField(_("burn card"), max_length=2, blank=True)
    burned_count = models.PositiveSmallIntegerField(_("cards burned"), default=0)
    hands_dealt = models.PositiveIntegerField(_("hands dealt"), default=0)
    is_finished = models.BooleanField(_("finished"), default=False)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    revealed_at = models.DateTimeField(_("order revealed"), null=True, blank=True)

    class Meta:
        verbose_name = _("shoe")
        verbose_name_plural = _("shoes")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(player__isnull=True),
                name="shoe_number_per_table",
            ),
            models.UniqueConstraint(
                fields=["table", "player", "number"],
                condition=Q(player__isnull=False),
                name="shoe_number_per_player",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(is_finished=False, player__isnull=True),
                name="one_open_shoe_per_table",
            ),
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=Q(is_finished=False, player__isnull=False),
                name="one_open_shoe_per_player",
            ),
            models.CheckConstraint(
                condition=Q(revealed_at__isnull=True) | Q(is_finished=True),
                name="shoe_revealed_only_when_finished",
            ),
        ]
        # The verify page is found by its commitment: an address nobody can guess.
        indexes = [models.Index(fields=["commitment"], name="shoe_commitment")]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class DealtCard(models.Model):
    """A card position taken from a shoe: dealt to a round, or burned (no round).

    The unique (shoe, position) pair is the database's guard that no card of a shoe
    ever reaches two rounds, whatever the code above it does.
    """

    # No index of its own: card_dealt_once (shoe, position) starts with it, and every
    # index is one more write per card dealt.
    shoe = models.ForeignKey(
        Shoe, on_delete=models.PROTECT, related_name="dealt_cards", db_index=False
    )
    position = models.PositiveSmallIntegerField(_("position"))
    round = models.ForeignKey(
        "Round", on_delete=models.PROTECT, null=True, blank=True, related_name="dealt_cards"
    )

    class Meta:
        verbose_name = _("dealt card")
        verbose_name_plural = _("dealt cards")
        constraints = [
            models.UniqueConstraint(fields=["shoe", "position"], name="card_dealt_once"),
        ]

    def __str__(self) -> str:
        return f"{self.shoe_id}:{self.position}"


class Round(models.Model):
    """One coup at one table."""

    class State(models.TextChoices):
        BETTING = "betting", _("Betting")
        LOCKED = "locked", _("Locked")
        SETTLED = "settled", _("Settled")
        VOID = "void", _("Void")
        # A full table's round nobody played: betting closed without a stake, no cards.
        CLOSED = "closed", _("Closed without a deal")

    # The states a round never leaves (but a settled round voided for a malfunction).
    FINAL_STATES = (State.SETTLED, State.VOID, State.CLOSED)

    class Completion(models.TextChoices):
        PLAYED = "played", _("Played")
        SERVER = "server", _("Completed by the server")
        VOID = "void", _("Void")

    class Outcome(models.TextChoices):
        PLAYER = "player", _("Player")
        BANKER = "banker", _("Banker")
        TIE = "tie", _("Tie")

    class VoidCause(models.TextChoices):
        """Why staff voided a round. Only a malfunction voids a settled round: seed 002,
        "malfunctions void all pays and plays"."""

        MALFUNCTION = "malfunction", _("Malfunction")
        DEALING_ERROR = "dealing_error", _("Dealing error")
        COMPLAINT_UPHELD = "complaint_upheld", _("Player complaint upheld")
        OTHER = "other", _("Other")
        # The server's own: recovery gave up on a round (never a staff member's choice).
        NOT_COMPLETED = "not_completed", _("Not completed by the server")

    # No index of its own: round_table_recent (table, -created_at) starts with it.
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="rounds", db_index=False
    )
    shoe = models.ForeignKey(
        Shoe, on_delete=models.PROTECT, related_name="rounds", null=True, blank=True
    )
    hand_number = models.PositiveIntegerField(_("hand number"), default=0)
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.BETTING
    )
    completion = models.CharField(
        _("completion"), max_length=16, choices=Completion.choices, blank=True
    )
    rules = models.JSONField(_("rules"))
    # A full table's round: every seated player plays in it (one at a time per table).
    shared = models.BooleanField(_("full table round"), default=False)
    # The coup's cards are drawn when the round locks: positions start (included) to end
    # (excluded) of the shoe's dealing order, and the cards in deal order, which nobody
    # sees before the deal copies them into the hands below.
    start_position = models.PositiveIntegerField(null=True, blank=True)
    end_position = models.PositiveIntegerField(null=True, blank=True)
    reserved_cards = models.CharField(max_length=12, blank=True, editable=False)
    player_cards = models.CharField(_("player cards"), max_length=16, blank=True)
    banker_cards = models.CharField(_("banker cards"), max_length=16, blank=True)
    player_total = models.PositiveSmallIntegerField(_("player total"), null=True, blank=True)
    banker_total = models.PositiveSmallIntegerField(_("banker total"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, blank=True)
    natural = models.BooleanField(_("natural"), default=False)
    void_reason = models.TextField(_("void reason"), blank=True)
    # Blank for a void the server made on its own (recovery).
    void_cause = models.CharField(
        _("void cause"), max_length=16, choices=VoidCause.choices, blank=True
    )
    recovery_note = models.TextField(_("recovery trail"), blank=True)
    recovery_attempts = models.PositiveSmallIntegerField(_("recovery attempts"), default=0)
    needs_attention = models.BooleanField(
        _("needs attention"),
        default=False,
        help_text=_("Voided by the server after its completion kept failing; support looks."),
    )
    deadline = models.DateTimeField(_("betting deadline"), null=True, blank=True)
    created_at = models.DateTimeField(_("started"), auto_now_add=True, db_index=True)
    locked_at = models.DateTimeField(_("locked"), null=True, blank=True)
    dealt_at = models.DateTimeField(_("dealt"), null=True, blank=True)
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.CheckConstraint(
                condition=~Q(state="void") | ~Q(void_reason=""),
                name="void_round_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["betting", "void", "closed"]) | ~Q(reserved_cards=""),
                name="locked_round_has_its_cards",
            ),
            # A full table deals one round at a time.
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(state__in=["betting", "locked"], shared=True),
                name="one_open_round_per_full_table",
            ),
            models.CheckConstraint(
                condition=Q(end_position__isnull=True) | Q(end_position__gt=F("start_position")),
                name="round_positions_ascend",
            ),
        ]
        indexes = [
            # The recovery sweep's and /health/'s unfinished rounds. Only those: a settled
            # round leaves it, so the settle writes one index less, and no read of settled
            # rounds can be planned through an index of nearly every round.
            models.Index(
                fields=["state", "locked_at"],
                condition=Q(state__in=["betting", "locked"]),
                name="round_open_state",
            ),
            models.Index(fields=["table", "-created_at"], name="round_table_recent"),
            models.Index(
                fields=["shoe"],
                condition=Q(state__in=["betting", "locked"]),
                name="round_open_per_shoe",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk}"

    @property
    def is_final(self) -> bool:
        return self.state in self.FINAL_STATES

    @property
    def void_explanation(self) -> str:
        """Why the round was voided, for the player: staff's own words, or the server's
        in the reader's language (the stored reason is the server's record, in English)."""
        if self.void_cause == self.VoidCause.NOT_COMPLETED:
            return str(_("The server could not complete this round; every stake was returned."))
        return self.void_reason


class Play(models.Model):
    """One player's part in one round: their bets and what they brought home."""

    # Neither has an index of its own: one_play_per_player (round, player) and
    # play_player_recent (player, -created_at) start with them.
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="plays", db_index=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="plays", db_index=False
    )
    # The round's table, kept beside the player: "my latest plays at this table" (the
    # layout on every chip and DEAL, the statistics, the protocol's table filter) is one
    # ordered index walk (play_player_table_round), whatever the table's history and
    # whether or not PostgreSQL has statistics. Through the round alone that read took
    # every round of the table. Its own index would serve nothing (PROTECT's check on
    # deleting a table, which rounds refuse first).
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="+", db_index=False, editable=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"), default=1)
    stake_total = models.BigIntegerField(_("stake"), default=0)
    payout_total = models.BigIntegerField(_("paid"), default=0)
    commission_total = models.BigIntegerField(_("commission"), default=0)
    balance_before = models.BigIntegerField(_("balance before"), null=True, blank=True)
    balance_after = models.BigIntegerField(_("balance after"), null=True, blank=True)
    created_at = models.DateTimeField(_("date"), auto_now_add=True)
    # Set when the server completed the round; cleared once the player was told.
    server_notice = models.BooleanField(default=False)

    class Decision(models.TextChoices):
        DEAL = "deal", _("Deal")
        PASS = "pass", _("Pass")
        TIMED_OUT = "timeout", _("No decision in time")

    # Full tables: what the seated player chose before the cards came.
    decision = models.CharField(_("decision"), max_length=8, choices=Decision.choices, blank=True)
    # The idempotency key of the DEAL (a full table's Deal or Pass) that committed this
    # play, made by the page once per press (``DealForm.token``): a repeat with it deals
    # nothing and is answered with this play's round. Written with the stake's lock.
    deal_token = models.CharField(max_length=40, blank=True, default="", editable=False)
    # The idempotency keys of the latest chips, Clear and Same bet that changed this play's
    # bets (``BetForm.token``, one per press), newest last, space-separated: a repeat with
    # one changes nothing (:func:`baccarat.play.betting.play_edit`). Written with the bets.
    chip_keys = models.CharField(max_length=420, blank=True, default="", editable=False)

    class Meta:
        verbose_name = _("play")
        verbose_name_plural = _("plays")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_play_per_player"),
            # Settles two DEALs with one key racing where no other lock orders them.
            models.UniqueConstraint(
                fields=["player", "deal_token"],
                condition=~Q(deal_token=""),
                name="one_deal_per_token",
            ),
            models.CheckConstraint(condition=Q(stake_total__gte=0), name="play_stake_nonneg"),
        ]
        indexes = [
            models.Index(fields=["player", "-created_at"], name="play_player_recent"),
            models.Index(fields=["player", "table", "round"], name="play_player_table_round"),
            models.Index(
                fields=["player"], condition=Q(server_notice=True), name="play_server_notice"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}"

    @property
    def net(self) -> int:
        return self.payout_total - self.stake_total


class Bet(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        BANKER = "banker", _("Banker")
        TIE = "tie", _("Tie")
        PLAYER_PAIR = "player_pair", _("Player pair")
        BANKER_PAIR = "banker_pair", _("Banker pair")

    # No index of its own: one_bet_per_spot (play, kind) starts with it.
    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="bets", db_index=False)
    kind = models.CharField(_("spot"), max_length=16, choices=Kind.choices)
    stake = models.BigIntegerField(_("stake"))
    payout = models.BigIntegerField(_("paid"), default=0)
    commission = models.BigIntegerField(_("commission"), default=0)

    class Meta:
        verbose_name = _("bet")
        verbose_name_plural = _("bets")
        constraints = [
            models.UniqueConstraint(fields=["play", "kind"], name="one_bet_per_spot"),
            models.CheckConstraint(condition=Q(stake__gt=0), name="bet_stake_positive"),
            models.CheckConstraint(condition=Q(payout__gte=0), name="bet_payout_nonneg"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.stake}"


class Reversal(models.Model):
    """What voiding a round did to one player's money, written with the void.

    A round voided before its settlement gives the escrowed stake back (``payout_paid``
    is 0). A settled round voided for a malfunction gives the stake back from the house
    and takes the payout back, from the table stack first, then from the wallet; what
    neither holds any more is ``written_off``: the house bears it and the player keeps
    it, since no player account ever goes below zero. The ledger holds the same figures
    as transactions of the round (``baccarat.integrity.audit`` checks them against this row).
    """

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="reversals")
    play = models.OneToOneField(Play, on_delete=models.PROTECT, related_name="reversal")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    stake_refunded = models.BigIntegerField(_("stake refunded"), default=0)
    payout_paid = models.BigIntegerField(_("payout paid"), default=0)
    taken_from_stack = models.BigIntegerField(_("taken back from the stack"), default=0)
    taken_from_wallet = models.BigIntegerField(_("taken back from the wallet"), default=0)
    written_off = models.BigIntegerField(_("written off"), default=0)
    created_at = models.DateTimeField(_("date"), auto_now_add=True)

    class Meta:
        verbose_name = _("reversal")
        verbose_name_plural = _("reversals")
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    stake_refunded__gte=0,
                    payout_paid__gte=0,
                    taken_from_stack__gte=0,
                    taken_from_wallet__gte=0,
                    written_off__gte=0,
                ),
                name="reversal_amounts_nonneg",
            ),
            # Every cent of the payout is either taken back or written off.
            models.CheckConstraint(
                condition=Q(
                    payout_paid=F("taken_from_stack") + F("taken_from_wallet") + F("written_off")
                ),
                name="reversal_payout_accounted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}"

    @property
    def payout_taken_back(self) -> int:
        return self.taken_from_stack + self.taken_from_wallet


class PracticeSession(models.Model):
    """A practice run at a player's own table with chips that never touch the wallet."""

    class State(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_sessions"
    )
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="practice")
    starting_chips = models.BigIntegerField(_("starting chips"))
    hands = models.PositiveSmallIntegerField(_("hands"))
    state = models.CharField(_("state"), max_length=16, choices=State.choices, default=State.ACTIVE)
    hands_played = models.PositiveSmallIntegerField(_("hands played"), default=0)
    hands_won = models.PositiveSmallIntegerField(_("hands won"), default=0)
    hands_lost = models.PositiveSmallIntegerField(_("hands lost"), default=0)
    hands_pushed = models.PositiveSmallIntegerField(_("pushes"), default=0)
    net = models.BigIntegerField(_("net"), default=0)
    biggest_win = models.BigIntegerField(_("biggest win"), default=0)
    final_chips = models.BigIntegerField(_("chips at the end"), null=True, blank=True)
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("practice session")
        verbose_name_plural = _("practice sessions")
        constraints = [
            models.CheckConstraint(
                condition=Q(hands__in=[10, 20, 50]), name="practice_hands_10_20_50"
            ),
            models.CheckConstraint(
                condition=Q(starting_chips__gt=0), name="practice_chips_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.pk}"

    @property
    def is_active(self) -> bool:
        return self.state == self.State.ACTIVE


class Seat(models.Model):
    """A player in one of a full table's eight seats (seeds 000/001).

    The constraints settle every race: one player per seat, one seat per player and
    table, so two players choosing the same seat at once get one each, never the same.
    """

    NUMBERS = range(1, 9)

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats_taken")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    sat_at = models.DateTimeField(_("sat down"), auto_now_add=True)
    # Rounds in a row the player let pass without deciding; three stand them up.
    missed = models.PositiveSmallIntegerField(_("rounds missed"), default=0)
    # The player's page was last connected (its event stream): a long silence stands
    # them up between rounds.
    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=8), name="seat_number_1_to_8"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}: {self.player}"


class TableEvent(models.Model):
    """Something that happened at a full table, written with the change it describes.

    ``seq`` is gap-free per table (taken from ``Table.event_seq`` under the table's row
    lock, in the same transaction): a browser that reconnects with the last number it
    saw gets exactly the events it missed. The rows are the truth; the transport only
    says that there are more. They are deleted after ``CASINO_TABLE_EVENT_RETENTION_DAYS``
    (a ``chat`` event with its message), by ``created_at``.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    seq = models.BigIntegerField()
    kind = models.CharField(max_length=24)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_per_table"),
        ]
        indexes = [models.Index(fields=["created_at"], name="event_created")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


class ChatMessage(models.Model):
    """A message in a full table's chat (seeds 000/001): written by a seated player,
    read by everyone at the table. Support may remove it; it is kept for
    ``CASINO_CHAT_RETENTION_DAYS`` and then deleted by a periodic task."""

    MAX_LENGTH = 200

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    text = models.CharField(_("message"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("written"), default=timezone.now, db_index=True)
    removed_at = models.DateTimeField(_("removed"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["table", "-created_at"], name="chat_table_recent")]

    def __str__(self) -> str:
        return f"{self.player}: {self.text[:40]}"


class ChatReport(models.Model):
    """A player's report of a chat message, for support's queue."""

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        ACTED = "acted", _("Acted on")

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_reports"
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(_("reported"), default=timezone.now)
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]
        indexes = [
            models.Index(fields=["created_at"], condition=Q(state="open"), name="report_open")
        ]

    def __str__(self) -> str:
        return f"{self.reporter} on {self.message_id}"


class ChatMute(models.Model):
    """A player may not write in the chat of ``table`` (or of every table: no table)
    until ``until``; they see why and until when."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_mutes"
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="chat_mutes"
    )
    until = models.DateTimeField(_("muted until"))
    reason = models.CharField(_("reason"), max_length=200)
    muted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("muted at"), default=timezone.now)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        indexes = [models.Index(fields=["player", "until"], name="mute_player_until")]

    def __str__(self) -> str:
        return f"{self.player} until {self.until:%Y-%m-%d %H:%M}"


class Heartbeat(models.Model):
    """When a periodic job last ran; ``/health/`` reads it to catch a dead beat."""

    name = models.CharField(max_length=40, unique=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} {self.at.isoformat()}"


# The statistics page's hours ---------------------------------------------------------------
# A player's figures of hours that are over, summed once (baccarat.protocol.hours) so the
# page adds up a row per hour played instead of counting every round again.


def hour_floor(when: datetime) -> datetime:
    """The start (UTC) of the hour ``when`` is in: the hours the statistics are summed by."""
    return when.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


class StatisticsMark(models.Model):
    """How far a player's hours are summed: every hour before ``through`` has its rows
    (an hour without a counted round or a posting has none). ``waiting`` lists the
    player's plays dated before ``through`` whose rounds were not over when their hour
    was summed; their hours are summed again once they are. ``revision`` counts the
    summings."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="statistics_mark",
    )
    through = models.DateTimeField()
    waiting = models.JSONField(default=list, blank=True)
    # One more each time hours are summed: what was read from them is kept under it.
    revision = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.player_id} through {self.through.isoformat()}"

    @classmethod
    def forget(cls, plays: Any) -> None:
        """The hours of ``plays`` are to be summed again (their round was voided after
        its settlement): their players' marks go back to the earliest of those hours."""
        earliest: dict[int, datetime] = {}
        for play in plays:
            hour = hour_floor(play.created_at)
            earliest[play.player_id] = min(hour, earliest.get(play.player_id, hour))
        for player_id, hour in earliest.items():
            cls.objects.filter(player_id=player_id, through__gt=hour).update(through=hour)


class StatisticsHour(models.Model):
    """A player's counted rounds (settled, with a stake) at one table that began in one
    hour (UTC): how many, the minutes in which they began (bit n: minute n, so the
    minutes of several tables in the same hour are counted once), staked and paid back,
    and the bets grouped as the page groups them: ``[kind, decks, commission, tie_pays,
    bets, staked, paid]``."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    hour = models.DateTimeField()
    rounds = models.PositiveIntegerField()
    minutes = models.BigIntegerField()  # a bit per minute of the hour
    staked = models.BigIntegerField()
    paid = models.BigIntegerField()
    bets = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "hour", "table"], name="stats_hour_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.table_id} {self.hour.isoformat()}"


class StatisticsBalance(models.Model):
    """A player's wallet or table stack at the end of an hour (UTC) in which it moved:
    the balance after its last entry of that hour."""

    account = models.ForeignKey("wallet.Account", on_delete=models.CASCADE, related_name="+")
    hour = models.DateTimeField()
    balance = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "hour"], name="stats_balance_unique")
        ]

    def __str__(self) -> str:
        return f"{self.account_id} {self.hour.isoformat()}"
