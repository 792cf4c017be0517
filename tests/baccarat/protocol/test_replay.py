"""A round of the protocol dealt again: its cards in the order they were dealt, the
player's bets and what each paid, the shoe's commitment and, once the shoe is revealed,
the link that verifies it; only the player's own settled rounds."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat import engine
from baccarat.full import croupier
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import practice_for, ready, sit
from wallet import services as wallet

pytestmark = pytest.mark.django_db

# Deal order: Player, Banker, Player, Banker, then the third cards.
PLAYER_9_TO_8 = "2S KD 3H 5C 4D 3C"  # six cards, Player wins 9 to 8
BANKER_7_TO_3 = "KS 2D KH 5C 3D"  # five cards: the player's third, then none for the banker


@pytest.fixture
def shoe_table(db: None) -> Table:
    """A single-seat table whose shoe lasts to the cut card (not revealed after a coup)."""
    return Table.objects.create(
        name="Golden Shoe", slug="golden-shoe", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )


def played(player: Any, table: Table, bets: dict[str, int]) -> Round:
    round = betting.round_open(table=table, player=player)
    for kind, amount in bets.items():
        betting.bet_place(round=round, player=player, kind=kind, amount=amount)
    return rounds.round_play(round_id=round.pk).round


def replay_url(round: Round) -> str:
    return reverse("baccarat:protocol_replay", args=[round.pk])


def board_of(html: str) -> str:
    return html.split('id="board"', 1)[1].split('class="table-controls', 1)[0]


def cards_on_board(html: str) -> list[tuple[int, str]]:
    """(deal step, card's name) of each card on the board, as the page lays them."""
    return [
        (int(step), name)
        for step, name in re.findall(
            r'class="playing-card step-(\d)[^"]*">.*?<span class="visually-hidden">([^<]+)</span>',
            board_of(html),
        )
    ]


def test_the_cards_lie_in_the_order_they_were_dealt(
    client: Any, alice: Any, shoe_table: Table, rigged_shoe: Any
) -> None:
    wallet.wallet_rebuy(player=alice, table=shoe_table, amount=100_00, reference="r")
    rigged_shoe(shoe_table, PLAYER_9_TO_8, alice)
    round = played(alice, shoe_table, {"player": 500})
    assert round.reserved_cards == "2SKD3H5C4D3C"
    client.force_login(alice)
    html = client.get(replay_url(round)).content.decode()
    dealt = engine.deal_cards(engine.cards_from_codes(round.reserved_cards)).dealt_order
    names = [
        "Two of spades",
        "King of diamonds",
        "Three of hearts",
        "Five of clubs",
        "Four of diamonds",
        "Three of clubs",
    ]
    assert [card.code for card in dealt] == PLAYER_9_TO_8.split()
    assert sorted(cards_on_board(html)) == list(enumerate(names))
    # Player's hand first on the felt: its cards at steps 0, 2, 4, the banker's at 1, 3, 5.
    assert [step for step, _name in cards_on_board(html)] == [0, 2, 4, 1, 3, 5]
    # Each hand's total follows its cards: Player 2, 5, 9; Banker 0, 5, 8.
    totals = re.findall(r'<span class="t step-(\d)[^"]*">(\d)</span>', html)
    assert totals == [("0", "2"), ("2", "5"), ("4", "9"), ("1", "0"), ("3", "5"), ("5", "8")]
    # Six steps: the reveal waits for the sixth card.
    assert 'data-steps="6"' in html and f'data-round="{round.pk}"' in html


def test_a_banker_without_a_third_card_is_dealt_after_the_players_third(
    client: Any, alice: Any, shoe_table: Table, rigged_shoe: Any
) -> None:
    wallet.wallet_rebuy(player=alice, table=shoe_table, amount=100_00, reference="r")
    rigged_shoe(shoe_table, BANKER_7_TO_3, alice)
    round = played(alice, shoe_table, {"banker": 1000})
    client.force_login(alice)
    html = client.get(replay_url(round)).content.decode()
    assert [step for step, _name in cards_on_board(html)] == [0, 2, 4, 1, 3]
    assert 'data-steps="5"' in html
    assert "Banker wins, 7 to 3" in html


def test_the_bets_lie_on_their_spots_with_what_each_paid(
    client: Any, alice: Any, shoe_table: Table, rigged_shoe: Any
) -> None:
    wallet.wallet_rebuy(player=alice, table=shoe_table, amount=100_00, reference="r")
    rigged_shoe(shoe_table, PLAYER_9_TO_8, alice)
    round = played(alice, shoe_table, {"player": 1000, "tie": 500})
    client.force_login(alice)
    board = board_of(client.get(replay_url(round)).content.decode())
    player = board.split('data-kind="player"', 1)[1].split('data-kind="tie"', 1)[0]
    tie = board.split('data-kind="tie"', 1)[1].split('data-kind="banker"', 1)[0]
    banker = board.split('data-kind="banker"', 1)[1].split("</div>", 1)[0]
    assert 'class="spot spot-player has-stake result-win"' in board
    assert '<span class="amount">€10.00</span>' in player and "Paid €20.00" in player
    assert 'class="spot spot-tie has-stake result-lose"' in board
    assert '<span class="amount">€5.00</span>' in tie and "Lost" in tie
    assert "No bet" in banker
    # Stake, paid and net; the paid and the net wait for the reveal (.outcome).
    figures = board.split('class="felt"', 1)[0]
    assert "€15.00" in figures
    assert '<strong class="outcome">€20.00</strong>' in figures
    assert '<strong class="outcome">+€5.00</strong>' in figures
    # Read only: nothing on the board posts a bet.
    assert "<form" not in board and "<button" not in board


def test_the_spots_are_those_the_round_was_played_under(
    client: Any, alice: Any, shoe_table: Table, rigged_shoe: Any
) -> None:
    """A table's rules changed after the round (pairs on, tie 9:1) leave its replay as it
    was: the round's own rule snapshot draws the spots and their odds."""
    wallet.wallet_rebuy(player=alice, table=shoe_table, amount=100_00, reference="r")
    rigged_shoe(shoe_table, PLAYER_9_TO_8, alice)
    round = played(alice, shoe_table, {"player": 500})
    Table.objects.filter(pk=shoe_table.pk).update(pairs_enabled=True, tie_pays=9)
    client.force_login(alice)
    board = board_of(client.get(replay_url(round)).content.decode())
    assert "spot-player_pair" not in board
    assert '<span class="spot-odds">8:1</span>' in board


def test_the_commitment_shows_and_the_verify_link_only_once_the_shoe_is_revealed(
    client: Any, alice: Any, shoe_table: Table, rigged_shoe: Any
) -> None:
    wallet.wallet_rebuy(player=alice, table=shoe_table, amount=100_00, reference="r")
    shoe = rigged_shoe(shoe_table, PLAYER_9_TO_8, alice)
    round = played(alice, shoe_table, {"player": 500})
    verify = reverse("baccarat:shoe_verify", args=[shoe.commitment])
    client.force_login(alice)
    html = client.get(replay_url(round)).content.decode()
    assert f'<code class="hash">{shoe.commitment}</code>' in html
    assert verify not in html  # the shoe is still in play
    assert "The shoe's order is revealed when the shoe has ended" in html
    Shoe.objects.filter(pk=shoe.pk).update(is_finished=True, revealed_at=timezone.now())
    html = client.get(replay_url(round)).content.decode()
    assert f'<code class="hash">{shoe.commitment}</code>' in html
    assert f'href="{verify}"' in html


def test_a_shoe_of_one_coup_is_revealed_with_it_and_verifiable(
    client: Any, seated: Any, table: Table
) -> None:
    round = played(seated, table, {"banker": 1000})
    round.refresh_from_db()
    assert round.shoe.revealed_at is not None
    client.force_login(seated)
    html = client.get(replay_url(round)).content.decode()
    assert f'href="{reverse("baccarat:shoe_verify", args=[round.shoe.commitment])}"' in html


def test_the_page_without_a_script_shows_the_round_dealt(
    client: Any, seated: Any, table: Table
) -> None:
    """The board is drawn as the round ended: no data-dealing (the script sets it); the
    replay button is hidden until the script shows it."""
    round = played(seated, table, {"player": 500})
    client.force_login(seated)
    html = client.get(replay_url(round)).content.decode()
    assert "data-dealing" not in html
    assert re.search(r'<button type="button" class="primary" id="replay-again" hidden>', html)
    assert 'src="/static/js/replay.js"' in html and "table.js" not in html
    assert '<template id="reveal-announcement">' in html


def test_a_full_table_round_shows_the_players_own_bets(client: Any, salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    croupier.full_bet(table=salon, player=ben, kind="tie", amount=700, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.full_decide(table=salon, player=ben, deal=True)
    croupier.table_tick(table_id=salon.pk)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    client.force_login(anna)
    answer = client.get(replay_url(round))
    assert answer.status_code == 200
    board = board_of(answer.content.decode())
    assert '<span class="amount">€10.00</span>' in board
    assert "€7.00" not in board  # ben's tie is his own
    dealt = engine.deal_cards(engine.cards_from_codes(round.reserved_cards)).dealt_order
    assert len(cards_on_board(answer.content.decode())) == len(dealt)


def test_a_practice_round_plays_again(client: Any, alice: Any) -> None:
    session = practice_for(alice)
    round = played(alice, session.table, {"banker": 1000})
    client.force_login(alice)
    answer = client.get(replay_url(round))
    assert answer.status_code == 200
    heading = answer.content.decode().split('class="table-kind">', 1)[1].split("</p>", 1)[0]
    assert heading.startswith("Practice · ")


def test_another_players_round_is_404(client: Any, seated: Any, bob: Any, table: Table) -> None:
    round = played(seated, table, {"player": 500})
    client.force_login(bob)
    assert client.get(replay_url(round)).status_code == 404
    assert client.get(reverse("baccarat:protocol_replay", args=[10**9])).status_code == 404


def test_anonymous_is_sent_to_log_in(client: Any, seated: Any, table: Table) -> None:
    round = played(seated, table, {"player": 500})
    answer = client.get(replay_url(round))
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("accounts:login"))


def test_only_a_get(client: Any, seated: Any, table: Table) -> None:
    round = played(seated, table, {"player": 500})
    client.force_login(seated)
    assert client.post(replay_url(round)).status_code == 405


def test_a_round_still_being_dealt_says_so_and_shows_no_card(
    client: Any, seated: Any, table: Table
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="player", amount=500)
    rounds.round_lock(round_id=round.pk)  # its cards are reserved, not dealt
    round.refresh_from_db()
    client.force_login(seated)
    answer = client.get(replay_url(round))
    html = answer.content.decode()
    assert answer.status_code == 404
    assert "This round is still being dealt" in html
    assert "playing-card" not in html and 'id="board"' not in html
    for code in re.findall("..", round.reserved_cards):
        assert f"court-{code}" not in html


def test_a_void_round_says_it_has_nothing_to_replay(
    client: Any, seated: Any, support: Any, table: Table
) -> None:
    round = played(seated, table, {"player": 500})
    rounds.round_void(round_id=round.pk, reason="Shuffler jam", by=support, cause="malfunction")
    client.force_login(seated)
    answer = client.get(replay_url(round))
    assert answer.status_code == 404
    assert "This round was void" in answer.content.decode()
    assert 'id="board"' not in answer.content.decode()


def test_the_protocol_links_the_replay_of_settled_rounds_only(
    client: Any, seated: Any, support: Any, table: Table
) -> None:
    settled = played(seated, table, {"player": 500})
    voided = played(seated, table, {"player": 500})
    rounds.round_void(round_id=voided.pk, reason="Shuffler jam", by=support, cause="malfunction")
    client.force_login(seated)
    listing = client.get(reverse("baccarat:protocol_list")).content.decode()
    assert f'href="{replay_url(settled)}"' in listing
    assert f'href="{replay_url(voided)}"' not in listing
    detail = client.get(reverse("baccarat:protocol_detail", args=[settled.pk])).content.decode()
    assert f'href="{replay_url(settled)}"' in detail
    detail = client.get(reverse("baccarat:protocol_detail", args=[voided.pk])).content.decode()
    assert f'href="{replay_url(voided)}"' not in detail


def test_the_replay_speaks_the_players_language(client: Any, seated: Any, table: Table) -> None:
    round = played(seated, table, {"player": 500})
    client.force_login(seated)
    client.cookies["django_language"] = "de"
    html = client.get(replay_url(round)).content.decode()
    assert "Prüfwert (SHA-256)" in html and "Spieler" in html


# The session, its user, the play with its round, table and shoe, its bets.
REPLAY_BUDGET = 4


def test_the_replay_reads_a_fixed_number_of_queries(
    client: Any, seated: Any, table: Table, django_assert_max_num_queries: Any
) -> None:
    round = played(seated, table, {"player": 500, "tie": 500})
    client.force_login(seated)
    with django_assert_max_num_queries(REPLAY_BUDGET):
        answer = client.get(replay_url(round))
    assert answer.status_code == 200
