from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BaccaratConfig(AppConfig):
    name = "baccarat"
    verbose_name = _("Baccarat")

    def ready(self) -> None:
        from baccarat.board.selectors import player_has_round_in_play
        from baccarat.protocol import notices  # noqa: F401  (connects the login signal)
        from wallet.cashier import register_in_play_check

        # A deposit waits while one of the player's rounds is being dealt.
        register_in_play_check(player_has_round_in_play)
