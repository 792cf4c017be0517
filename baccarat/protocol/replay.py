"""A round of the protocol dealt again: its cards in deal order and the player's bets on
the spots, drawn by the table's own board parts (``templates/jinja2/baccarat/``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from baccarat.board.selectors import DealView, SpotView, TableState, deal_view, layout_spots
from baccarat.models import Play, Round, Table


@dataclass(frozen=True)
class Replay:
    """What the replay of a settled round shows."""

    play: Play  # the player's part in it, with its round, table, shoe and bets
    deal: DealView  # the two hands, card by card in deal order
    spots: list[SpotView]  # the spots the round offered, the player's bets and their results

    @property
    def round(self) -> Round:
        return self.play.round

    @property
    def dealt_order(self) -> list[str]:
        """The cards' codes in the order they came out of the shoe."""
        cards = [*self.deal.player.cards, *self.deal.banker.cards]
        return [card.code for card in sorted(cards, key=lambda card: card.step)]


def is_replayable(round: Round) -> bool:
    """Only a settled round plays again: a locked one is still being dealt (its cards are
    not the player's to see yet) and a void one did not count."""
    return round.state == Round.State.SETTLED and round.dealt_at is not None


def table_as_played(round: Round) -> Table:
    """The round's table with the rule values the round was played under (its snapshot),
    not the ones it may have now: the spots, their odds and their limits. Not saved."""
    table = copy.copy(round.table)
    rules = round.rules or {}
    table.commission = rules.get("commission", table.commission)
    table.tie_pays = rules.get("tie_pays", table.tie_pays)
    table.pairs_enabled = rules.get("pairs_enabled", table.pairs_enabled)
    limits = rules.get("limits", {})
    for kind, field in (("player", "player"), ("banker", "banker"), ("tie", "tie")):
        if kind in limits:
            setattr(table, f"min_{field}", limits[kind][0])
            setattr(table, f"max_{field}", limits[kind][1])
    if "player_pair" in limits:
        table.min_pair, table.max_pair = limits["player_pair"]
    return table


def round_replay(play: Play) -> Replay:
    """The replay of the player's settled round ``play`` (see :func:`is_replayable`), from
    what :func:`baccarat.protocol.selectors.protocol_play` loaded: no query."""
    round = play.round
    bets = list(play.bets.all())
    state = TableState(
        table=table_as_played(round),
        stack=0,
        wallet=0,
        play=None,
        stakes={bet.kind: bet.stake for bet in bets},
        carried=False,
        last=play,
        in_play=None,
    )
    return Replay(play=play, deal=deal_view(round), spots=layout_spots(state, just_dealt=True))
