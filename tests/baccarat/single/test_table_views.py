from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from baccarat.models import Bet, Play, Round, Table
from tests.baccarat.conftest import practice_for
from wallet import services as wallet
from wallet.models import Transaction

HTMX = {"HTTP_HX_REQUEST": "true"}
DEAL_QUERY_BUDGET = 40


def _url(name: str, table: Table) -> str:
    return reverse(f"baccarat:{name}", args=[table.slug])


def _bet(client: Any, table: Table, kind: str = "player", amount: Any = 500) -> Any:
    return client.post(_url("table_bet", table), {"kind": kind, "amount": amount}, **HTMX)


def test_table_page_full_and_partial(client_alice: Any, table: Table) -> None:
    full = client_alice.get(_url("table", table))
    assert full.status_code == 200
    assert b"<html" in full.content and b'id="board"' in full.content
    partial = client_alice.get(_url("table", table), **HTMX)
    assert b"<html" not in partial.content and b'id="board"' in partial.content


def test_table_page_query_budget(
    client_alice: Any, table: Table, django_assert_max_num_queries: Any
) -> None:
    _bet(client_alice, table)
    client_alice.post(_url("table_deal", table), {}, **HTMX)
    _bet(client_alice, table)
    with django_assert_max_num_queries(12):
        client_alice.get(_url("table", table))


def test_bet_then_deal_settles_one_round(client_alice: Any, table: Table, seated: Any) -> None:
    response = _bet(client_alice, table, "player", 500)
    assert response.status_code == 200
    round = Round.objects.get()
    response = client_alice.post(_url("table_deal", table), {"round": round.pk}, **HTMX)
    assert response.status_code == 200
    assert b"result-banner" in response.content
    again = client_alice.post(_url("table_deal", table), {"round": round.pk}, **HTMX)
    assert again.status_code == 200
    assert Round.objects.count() == 1
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert Transaction.objects.filter(kind="settle").count() == 1


def test_deal_query_budget(
    client_alice: Any, alice: Any, table: Table, django_assert_max_num_queries: Any
) -> None:
    # Warm up: alice's escrow and house accounts here are created by her first round.
    _bet(client_alice, table)
    client_alice.post(_url("table_deal", table), {}, **HTMX)
    wallet.house_account(player=alice, table=table)  # not opened yet if that round was a tie
    _bet(client_alice, table)
    # Session, user, table, the round; lock 12 + deal 2 + settle 13 (see
    # test_query_budget.py); the board (stack, statistics) from the settled plays.
    with django_assert_max_num_queries(DEAL_QUERY_BUDGET):
        client_alice.post(_url("table_deal", table), {}, **HTMX)
    assert set(Round.objects.values_list("state", flat=True)) == {Round.State.SETTLED}


@pytest.mark.parametrize(
    ("kind", "amount"),
    [("joker", 500), ("player", -500), ("player", "ten"), ("player", 333), ("player", "")],
)
def test_bad_bet_changes_nothing(client_alice: Any, table: Table, kind: str, amount: Any) -> None:
    response = _bet(client_alice, table, kind, amount)
    assert response.status_code == 200
    assert b"form-errors" in response.content
    assert not Bet.objects.exists()


def test_player_and_banker_together_message(client_alice: Any, table: Table) -> None:
    _bet(client_alice, table, "player")
    response = _bet(client_alice, table, "banker")
    assert b"player and banker in the same round" in response.content
    assert list(Bet.objects.values_list("kind", flat=True)) == ["player"]


def test_deal_without_bet_is_refused(client_alice: Any, table: Table) -> None:
    response = client_alice.post(_url("table_deal", table), {}, **HTMX)
    assert b"Place a bet first." in response.content
    assert not Transaction.objects.filter(kind="stake").exists()


def test_bet_on_a_locked_round_is_refused(client_alice: Any, table: Table, seated: Any) -> None:
    from baccarat.play import rounds

    _bet(client_alice, table)
    round = Round.objects.get()
    rounds.round_lock(round_id=round.pk)
    response = _bet(client_alice, table, "tie", 100)
    assert b"form-errors" in response.content
    play = Play.objects.get(round=round)
    play.refresh_from_db()
    assert play.stake_total == 500
    assert Round.objects.count() == 1


def test_deal_of_another_players_round_is_refused(
    client: Any, seated: Any, bob: Any, table: Table
) -> None:
    from baccarat.play import betting
    from wallet import services as wallet

    wallet.wallet_rebuy(player=bob, table=table, amount=50_00, reference="bob")
    bobs = betting.round_open(table=table, player=bob)
    betting.bet_place(round=bobs, player=bob, kind="tie", amount=100)
    client.force_login(seated)
    response = client.post(_url("table_deal", table), {"round": bobs.pk}, **HTMX)
    assert b"form-errors" in response.content
    bobs.refresh_from_db()
    assert bobs.state == Round.State.BETTING


def test_unknown_or_foreign_table_is_404(client_alice: Any, bob: Any) -> None:
    session = practice_for(bob)
    assert client_alice.get(reverse("baccarat:table", args=["nope"])).status_code == 404
    foreign = reverse("baccarat:table_bet", args=[session.table.slug])
    assert client_alice.post(foreign, {"kind": "player", "amount": 100}).status_code == 404
    assert not Bet.objects.exists()


def test_rebuy_and_exit(client_alice: Any, table: Table, seated: Any, stack_of: Any) -> None:
    response = client_alice.post(
        _url("table_rebuy", table), {"amount": 20, "token": "abc123"}, **HTMX
    )
    assert response.status_code == 200
    client_alice.post(_url("table_rebuy", table), {"amount": 20, "token": "abc123"}, **HTMX)
    assert stack_of(seated, table) == 120_00
    bad = client_alice.post(_url("table_rebuy", table), {"amount": -5, "token": "x"}, **HTMX)
    assert b"error" in bad.content
    assert stack_of(seated, table) == 120_00
    response = client_alice.post(_url("table_exit", table), {})
    assert response.status_code == 302
    assert stack_of(seated, table) == 0


def test_exit_beside_the_last_rounds_bets_shown_again_asks_nothing(
    client_alice: Any, table: Table, seated: Any, stack_of: Any
) -> None:
    """After a round its bets lie on the layout again (seed 002's repeat), but nothing is
    staked: EXIT leaves at once, with the page's script (no chip laid out) or without."""
    _bet(client_alice, table, "player", 1100)
    client_alice.post(_url("table_deal", table), {}, **HTMX)
    board = client_alice.get(_url("table", table), **HTMX)
    assert b"data-carried" in board.content and b'data-stake="1100"' in board.content
    left = client_alice.post(_url("table_exit", table), {}, **HTMX)
    assert left.status_code == 200 and b"exit-confirm" not in left.content
    assert left.headers["HX-Redirect"] == reverse("lobby")
    assert stack_of(seated, table) == 0


@pytest.mark.parametrize("laid_out", [None, 0, 500])
def test_exit_asks_first_with_chips_staked_on_the_server(
    client_alice: Any, table: Table, seated: Any, stack_of: Any, laid_out: int | None
) -> None:
    """Without the page's script every chip is a bet of a round open for bets: EXIT asks
    first and names them, whatever the page says it laid out; leaving changes nothing yet."""
    _bet(client_alice, table, "player", 1100)
    data = {} if laid_out is None else {"layout_stake": laid_out}
    asked = client_alice.post(_url("table_exit", table), data, **HTMX)
    assert b"exit-confirm" in asked.content and b"\xe2\x82\xac11.00" in asked.content
    assert stack_of(seated, table) == 100_00
    assert Bet.objects.get().stake == 1100


def test_rebet_repeats_the_last_bets(client_alice: Any, table: Table) -> None:
    _bet(client_alice, table, "banker", 2500)
    client_alice.post(_url("table_deal", table), {}, **HTMX)
    client_alice.post(_url("table_rebet", table), {}, **HTMX)
    current = Round.objects.get(state=Round.State.BETTING)
    assert list(Bet.objects.filter(play__round=current).values_list("kind", "stake")) == [
        ("banker", 2500)
    ]


@pytest.mark.parametrize(
    ("codes", "title", "line"),
    [
        ("9H 9D TC TS", "Tie, 9 to 9", "Tie: Player and Banker bets are returned"),
        ("9H 8D TC TS", "Player wins, 9 to 8", "Player 9 – Banker 8"),
        ("8H 9D TC TS", "Banker wins, 9 to 8", "Banker 9 – Player 8"),
    ],
)
def test_result_banner_names_the_outcome_once(
    client: Any, alice: Any, cut_table: Table, rigged_shoe: Any, codes: str, title: str, line: str
) -> None:
    """The croupier's call, then the score in words (a tie: what it does to the bets)."""
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=100_00, reference="banner-rebuy")
    rigged_shoe(cut_table, codes, alice)
    client.force_login(alice)
    _bet(client, cut_table, "player", 500)
    html = client.post(_url("table_deal", cut_table), {}, **HTMX).content.decode()
    banner = html.split('class="result-title croupier-call">', 1)[1].split(" <span", 1)[0]
    assert banner == title
    assert f'<p class="score">{line}</p>' in html


def test_a_chip_that_cannot_join_the_repeated_bet_replaces_it(
    client_alice: Any, table: Table
) -> None:
    _bet(client_alice, table, "player", 500)
    client_alice.post(_url("table_deal", table), {}, **HTMX)
    page = client_alice.get(_url("table", table)).content.decode()
    assert "Your last bet is on the table again" in page
    _bet(client_alice, table, "banker", 100)  # the player's bet stood on the layout
    round = Round.objects.get(state=Round.State.BETTING)
    assert {b.kind: b.stake for b in round.plays.get().bets.all()} == {"banker": 100}
    # Once the player has touched this round's layout, the rule holds as ever.
    response = _bet(client_alice, table, "player", 100)
    assert "You cannot bet on player and banker in the same round." in response.content.decode()
    assert {b.kind: b.stake for b in round.plays.get().bets.all()} == {"banker": 100}


def test_an_edit_of_the_layout_leaves_the_buy_in_panel_as_it_is(
    client_alice: Any, table: Table
) -> None:
    """A chip moves no money, a DEAL none of the wallet's: with the stack at the table
    minimum or above, their answers do not draw the buy-in panel again."""
    bet = _bet(client_alice, table)
    assert bet.status_code == 200 and b'id="buy-in"' not in bet.content
    deal = client_alice.post(_url("table_deal", table), {}, **HTMX)
    assert b"result-banner" in deal.content and b'id="buy-in"' not in deal.content


def test_a_deal_that_leaves_the_stack_below_the_minimum_opens_the_buy_in_panel(
    client: Any, alice: Any, cut_table: Table, rigged_shoe: Any
) -> None:
    """The whole stack on Player, and Banker wins: the answer draws the panel again, to be
    opened when the cards have turned (an open panel would tell the loss before them; the
    lost bet stays on the layout, seed 002's repeat, but the stack cannot play it)."""
    rigged_shoe(cut_table, "2S 9H 3D 9C", alice)  # Player 5, Banker 8: both stand
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=100, reference="last-chips")
    client.force_login(alice)
    _bet(client, cut_table, "player", 100)
    deal = client.post(_url("table_deal", cut_table), {}, **HTMX)
    assert Round.objects.get().outcome == Round.Outcome.BANKER
    assert b'id="buy-in"' in deal.content
    panel = deal.content.split(b'id="buy-in"', 1)[1].split(b">", 1)[0]
    assert b"data-opens-after-reveal" in panel and b" open" not in panel
    page = client.get(_url("table", cut_table))
    assert b" open" in page.content.split(b'id="buy-in"', 1)[1][:40]


def test_the_result_is_told_in_words_the_winner_first_and_the_score_has_no_colon(
    client: Any, alice: Any, cut_table: Table, rigged_shoe: Any
) -> None:
    """The banner: the croupier's call and the score, winner first; the status bar's last
    result and the round's page the same; nowhere a score written as odds (5:8)."""
    rigged_shoe(cut_table, "2S 9H 3D 9C", alice)  # Player 5, Banker 8: both stand
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=100_00, reference="words")
    client.force_login(alice)
    _bet(client, cut_table, "banker", 1000)
    deal = client.post(_url("table_deal", cut_table), {}, **HTMX).content.decode()
    banner = deal.split('class="result-banner', 1)[1].split("</div>", 1)[0]
    assert 'croupier-call">Banker wins, 8 to 5 <span class="natural">' in banner
    assert ">Banker 8 – Player 5<" in banner
    last = deal.split('id="last-outcome"', 1)[1].split("</strong>", 1)[0]
    assert "Banker 8 – Player 5 · +€9.50" in last
    announced = deal.split('id="reveal-announcement">', 1)[1].split("</template>", 1)[0]
    assert "Banker wins, 8 to 5." in announced
    round = Round.objects.get()
    detail = client.get(reverse("baccarat:protocol_detail", args=[round.pk])).content.decode()
    assert "<strong>Banker 8 – Player 5</strong>" in detail
    for text in (banner, last, announced, detail):
        assert not re.search(r"\b[0-9]:[0-9]\b", text), text


def test_an_edit_below_the_minimum_shows_the_buy_in_panel_open(
    client: Any, alice: Any, table: Table
) -> None:
    """Without chips to bet with, an edit's answer draws the panel, open."""
    client.force_login(alice)
    answer = client.post(_url("table_clear", table), {}, **HTMX)
    assert answer.status_code == 200
    panel = answer.content.split(b'id="buy-in"', 1)
    assert len(panel) == 2 and b" open" in answer.content.split(b"<details", 1)[1][:80]


def test_a_deals_answer_carries_the_result_in_words_for_a_screen_reader(
    client_alice: Any, table: Table
) -> None:
    from wallet.formatting import format_money

    _bet(client_alice, table)
    answer = client_alice.post(_url("table_deal", table), {}, **HTMX).content.decode()
    play = Play.objects.select_related("round").get()
    said = answer.split('<template id="reveal-announcement">', 1)[1].split("</template>", 1)[0]
    assert said.startswith("Player: ") and f"total {play.round.player_total}." in said
    assert f"total {play.round.banker_total}." in said
    assert said.endswith(f"Net: {format_money(play.net, sign=True)}.")
