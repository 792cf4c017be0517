"""Domain errors of the wallet. Each carries a translated, player-facing message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class WalletError(Exception):
    """Base class: ``message`` is safe to show to the player."""

    code = "wallet_error"
    default_message = _("The transaction could not be completed.")

    def __init__(self, message: object | None = None) -> None:
        self.message = message if message is not None else self.default_message
        super().__init__(str(self.message))


class InvalidAmount(WalletError):
    code = "invalid_amount"
    default_message = _("Please enter a positive whole amount.")


class InsufficientFunds(WalletError):
    code = "insufficient_funds"
    default_message = _("There is not enough money for this.")


class ReferenceConflict(WalletError):
    code = "reference_conflict"
    default_message = _("This request was already used for a different amount.")


class DepositLimitReached(WalletError):
    code = "deposit_limit"
    default_message = _("This deposit would exceed your limit for 24 hours.")


class RoundInPlay(WalletError):
    code = "round_in_play"
    default_message = _("Please finish your round in play first.")
