"""Forms for the table, practice sessions and the protocol filters.

Domain errors (engine codes, wallet errors, refused round actions) become translated
form errors through :func:`add_domain_error`.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms
from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from baccarat import engine
from baccarat.errors import RoundError
from baccarat.models import Bet, Table
from wallet.errors import WalletError

ENGINE_MESSAGES: dict[str, Any] = {
    "no_bet": _("Place a bet first."),
    "unknown_bet_kind": _("There is no such betting spot at this table."),
    "invalid_stake": _("Stakes must be whole chips."),
    "non_positive_stake": _("Stakes must be positive."),
    "pairs_disabled": _("This table has no pair bets."),
    "combination_not_allowed": _("You cannot bet on player and banker in the same round."),
    "stake_not_commissionable": _("Banker stakes must be whole chips."),
}

# What the page's script may refuse of a chip laid out in the browser, in the words the
# server refuses it with (the page carries them; the server checks it all again).
LAYOUT_REFUSALS = (
    ("above_max", RoundError.messages["above_max"]),
    ("stack_short", RoundError.messages["stack_short"]),
    ("not_a_chip", RoundError.messages["not_a_chip"]),
    ("no_previous_bets", RoundError.messages["no_previous_bets"]),
    ("combination_not_allowed", ENGINE_MESSAGES["combination_not_allowed"]),
    ("stake_not_commissionable", ENGINE_MESSAGES["stake_not_commissionable"]),
)


def add_domain_error(form: forms.Form, error: Exception) -> None:
    """Show a refused action as a translated, non-field form error."""
    if isinstance(error, engine.EngineError):
        message = ENGINE_MESSAGES.get(error.code, _("This bet is not possible."))
    elif isinstance(error, RoundError | WalletError):
        message = error.message
    else:
        raise error
    form.add_error(None, message)


class PressForm(forms.Form):
    """A change of the layout sent to the server: CLEAR, REBET, and the base of a chip.

    ``token``: the press's idempotency key (the page's, or one its script makes per
    press): a repeat with it (a client's retry, a double submit) changes nothing and is
    answered with the table as it is, whatever the other fields say."""

    token = forms.SlugField(max_length=40, required=False, widget=forms.HiddenInput)


class BetForm(PressForm):
    """Chips on a spot (``kind``) or back from one (``remove`` names the spot)."""

    kind = forms.ChoiceField(
        label=_("Spot"),
        choices=Bet.Kind.choices,
        required=False,
        error_messages={"invalid_choice": _("There is no such betting spot.")},
    )
    remove = forms.ChoiceField(
        label=_("Remove from"),
        choices=Bet.Kind.choices,
        required=False,
        error_messages={"invalid_choice": _("There is no such betting spot.")},
    )
    # Without an amount, ``remove`` takes the whole bet back (a right-click on the spot).
    amount = forms.IntegerField(
        label=_("Chip"),
        min_value=1,
        required=False,
        error_messages={
            "invalid": _("Choose one of the chips."),
            "min_value": _("Choose one of the chips."),
        },
    )

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def clean_amount(self) -> int | None:
        amount = self.cleaned_data["amount"]
        if amount is None:
            return None
        unit = min(self.table.chip_values)
        # Any whole number of the smallest chip, up to ten of the largest (keyboard steps).
        if amount % unit or amount > max(self.table.chip_values) * 10:
            raise forms.ValidationError(_("Choose one of the chips."), code="not_a_chip")
        return int(amount)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        add, remove = cleaned.get("kind"), cleaned.get("remove")
        if not self.errors and bool(add) == bool(remove):
            raise forms.ValidationError(_("Choose one betting spot."), code="no_spot")
        if not self.errors and add and cleaned.get("amount") is None:
            raise forms.ValidationError(_("Choose one of the chips."), code="no_chip")
        cleaned["spot"] = add or remove
        cleaned["take_back"] = bool(remove)
        return cleaned


MAX_ID = 2**63 - 1


class DecideForm(forms.Form):
    """Deal or Pass at a full table; the base of the single seat's DEAL.

    ``token``: the press's idempotency key, issued with the form (the page's board and
    controls carry a fresh one with every answer, so one press is one key): a repeat
    with it (a client's retry) moves nothing and is answered as the first press was,
    whatever the other fields say. As the rebuy's and the seat's ``token``."""

    token = forms.SlugField(max_length=40, required=False, widget=forms.HiddenInput)


class LayoutForm(DecideForm):
    """A layout laid out in the browser (the page's script): ``layout`` set and a
    ``stake_<spot>`` in cents for each spot with chips (:attr:`stakes`). Sent with DEAL,
    and at a full table also on its own after a pause in the player's chips, so that
    every seat sees them. Without ``layout`` the bets the server holds are played (each
    chip a POST of its own, as without JavaScript)."""

    layout = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in Bet.Kind.values:
            self.fields[f"stake_{kind}"] = forms.IntegerField(
                required=False,
                min_value=0,
                max_value=settings.CASINO_MAX_LIMIT,
                widget=forms.HiddenInput,
                error_messages={
                    "invalid": _("Stakes must be whole chips."),
                    "min_value": _("Stakes must be positive."),
                    "max_value": _("This bet is above the table maximum."),
                },
            )

    @property
    def stakes(self) -> dict[str, int] | None:
        """The layout sent (spot to cents, chips only), or None if none was."""
        if not self.cleaned_data.get("layout"):
            return None
        stakes = {kind: self.cleaned_data.get(f"stake_{kind}") for kind in Bet.Kind.values}
        return {kind: stake for kind, stake in stakes.items() if stake}


class DealForm(LayoutForm):
    """DEAL names the round it deals (``round``), or, when the layout repeats the last
    round's bets, that last round (``after``): a double submit deals one round only."""

    round = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, widget=forms.HiddenInput
    )
    after = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, widget=forms.HiddenInput
    )


class EmptyForm(forms.Form):
    """CLEAR and REBET carry nothing but the CSRF token."""


class RealityCheckForm(forms.Form):
    """The reality check's answer (``confirm``: leaving asks nothing more)."""

    answer = forms.ChoiceField(
        choices=[("continue", "continue"), ("leave", "leave"), ("protocol", "protocol")]
    )


class ExitForm(forms.Form):
    """EXIT; ``confirm`` when the player agreed to leave with chips on the layout.
    ``layout_stake``: the chips the player laid out in the page (its script keeps the
    layout; the last round's bets shown again and untouched are none), so that EXIT asks
    about what the player staked."""

    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    layout_stake = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_ID, widget=forms.HiddenInput
    )


class RebuyForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Amount"),
        min_value=1,
        max_value=settings.CASINO_MAX_LIMIT // 100,
        help_text=_("Whole units, moved from your wallet to your stack at this table."),
        error_messages={
            "required": _("Enter an amount."),
            "invalid": _("Enter a whole amount."),
            "min_value": _("Enter an amount of at least 1."),
        },
    )
    # Issued with the form: a double submit of the same form rebuys once.
    token = forms.SlugField(max_length=40, widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        return int(self.cleaned_data["amount"]) * 100

    def for_retry(self) -> RebuyForm:
        """The refused form, shown again usable: a fresh token, the amount kept, and every
        error in words, a broken hidden token's included."""
        retry = RebuyForm(
            initial={"token": secrets.token_hex(8), "amount": self.data.get("amount", "")}
        )
        errors = list(self.non_field_errors()) + [
            error for name in ("amount",) for error in self.errors.get(name, [])
        ]
        if "token" in self.errors:
            errors.append(_("This form had expired. Please press the button again."))
        retry._retry_errors = errors  # type: ignore[attr-defined]
        return retry

    @property
    def retry_errors(self) -> list[str]:
        return getattr(self, "_retry_errors", [])


class PracticeForm(forms.Form):
    decks = forms.TypedChoiceField(
        label=_("Decks"), choices=[(6, "6"), (8, "8")], coerce=int, initial=8
    )
    STARTING_CHIPS = (1000, 2000, 5000)  # euros

    starting_chips = forms.TypedChoiceField(
        label=_("Starting chips"),
        choices=[(chips, str(chips)) for chips in STARTING_CHIPS],
        coerce=int,
        initial=1000,
    )
    hands = forms.TypedChoiceField(
        label=_("Hands"), choices=[(10, "10"), (20, "20"), (50, "50")], coerce=int, initial=20
    )
    tie_pays = forms.TypedChoiceField(
        label=_("Tie pays"), choices=[(8, "8:1"), (9, "9:1")], coerce=int, initial=8
    )
    pairs_enabled = forms.BooleanField(label=_("Pair bets"), required=False)
    commission = forms.ChoiceField(
        label=_("Banker payout"),
        choices=Table.Commission.choices,
        initial=Table.Commission.FIVE_PERCENT,
    )
    # The start's idempotency key, fresh with every form (it names the practice table): a
    # repeated start opens one session. One that is not such a key is no key.
    token = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["token"].initial = secrets.token_hex(8)
        # Grouped as the player reads numbers ("1.000" in German), so built per form in
        # the language active now, not once at import.
        self.fields["starting_chips"].choices = [  # type: ignore[attr-defined]
            (chips, number_format(chips, force_grouping=True)) for chips in self.STARTING_CHIPS
        ]

    def clean_starting_chips(self) -> int:
        return int(self.cleaned_data["starting_chips"]) * 100

    def clean_token(self) -> str:
        token = self.cleaned_data["token"]
        return token if re.fullmatch(r"[0-9a-f]{16}", token) else ""


class SitForm(forms.Form):
    """Sit down at a full table: a seat (the next free one if taken meanwhile) and chips
    from the wallet (whole units; 0 to sit down with chips already at the table)."""

    seat = forms.TypedChoiceField(
        label=_("Seat"),
        coerce=int,
        choices=[(n, str(n)) for n in range(1, 9)],
        error_messages={"invalid_choice": _("There is no such seat.")},
    )
    amount = forms.IntegerField(
        label=_("Chips to bring"),
        min_value=0,
        max_value=settings.CASINO_MAX_LIMIT // 100,
        error_messages={
            "required": _("Enter an amount."),
            "invalid": _("Enter a whole amount."),
            "min_value": _("Enter an amount of at least 1."),
        },
    )
    token = forms.SlugField(max_length=40, widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        return int(self.cleaned_data["amount"]) * 100


class CutForm(forms.Form):
    """The new shoe offered to the player: cut it (at ``position``) or pass it on."""

    accept = forms.TypedChoiceField(
        coerce=lambda value: value == "yes", choices=[("yes", "yes"), ("no", "no")]
    )
    position = forms.IntegerField(required=False, min_value=0, max_value=416)


class ChatForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=200,
        error_messages={
            "required": _("Write a message first."),
            "max_length": _("A message has at most 200 characters."),
        },
    )


class ChatReportForm(forms.Form):
    reason = forms.CharField(label=_("What is wrong with it?"), max_length=200, required=False)
