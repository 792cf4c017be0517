"""The statistics panel: counts, the five roads as SVG with words, Ask Player / Ask Banker
and each coup with its cards; rendered with the page and a deal, never on a bet."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from baccarat.board.statistics import cards_shown
from baccarat.models import Round, Table
from baccarat.play import betting, rounds

HTMX = {"HTTP_HX_REQUEST": "true"}


def play(table: Table, player: Any, kind: str = "banker") -> Round:
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind=kind, amount=100)
    rounds.round_play(round_id=round.pk)
    return Round.objects.get(pk=round.pk)


def test_the_panel_shows_counts_roads_asks_and_coups(
    client: Any, seated: Any, cut_table: Table
) -> None:
    from wallet import services as wallet

    wallet.wallet_rebuy(player=seated, table=cut_table, amount=50_00, reference="stats")
    played = [play(cut_table, seated) for _ in range(8)]
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[cut_table.slug])).content.decode()
    panel = page.split('id="shoe-stats"', 1)[1]
    banker = sum(1 for r in played if r.outcome == "banker")
    assert f"<dt>Banker</dt><dd>{banker} " in panel
    for caption in ("Bead plate", "Big road", "Big eye boy", "Small road", "Cockroach pig"):
        assert f"<figcaption>{caption}</figcaption>" in panel
    assert panel.count('<svg role="img"') == 5
    assert "Ask Player" in panel and "Ask Banker" in panel
    # The table of coups comes when it is opened: its own URL, for htmx and as a page.
    coups_url = reverse("baccarat:table_coups", args=[cut_table.slug])
    assert f'hx-get="{coups_url}"' in panel and f'href="{coups_url}"' in panel
    assert "<tbody>" not in panel
    coups = client.get(coups_url, **HTMX).content.decode()
    assert "<html" not in coups
    assert "<html" in client.get(coups_url).content.decode()
    for r in played:
        row = coups.split(f'<td class="num">{r.hand_number}</td>', 1)[1].split("</tr>", 1)[0]
        # The cards as cards (10♥ 9♠), their names for a screen reader; never the codes.
        assert f'<span aria-hidden="true">{cards_shown(r.player_cards)}</span>' in row
        assert f'<span aria-hidden="true">{cards_shown(r.banker_cards)}</span>' in row
        assert r.player_cards not in row and "\u2660" in cards_shown("AS")
        assert f"({r.player_total})" in row and f"({r.banker_total})" in row
        assert r.get_outcome_display() in row and ("Natural" in row) == r.natural
    # The big road in words, for a screen reader.
    assert "<desc id=" in panel


def test_a_multi_deck_shoe_shows_every_coup_however_many(
    client: Any, seated: Any, cut_table: Table
) -> None:
    """Seeds 000/001: "alle Ergebnisse des aktuellen Kartenspiels". Past 60 coups the
    first ones stay on the counts, the roads, the coups and the lobby's road."""
    from baccarat import engine
    from baccarat.board.selectors import STATS_LENGTH
    from baccarat.models import Shoe
    from wallet import services as wallet

    wallet.wallet_rebuy(player=seated, table=cut_table, amount=200_00, reference="whole")
    # The yellow card near the end: the shoe lasts more than 75 coups.
    cards = engine.fresh_cards(8)
    dealer = engine.Shoe.from_cards(cards, cut_card_index=len(cards) - 6, decks=8)
    Shoe.objects.create(
        table=cut_table,
        player=seated,
        number=1,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=0,
    )
    played = [play(cut_table, seated, kind="player") for _ in range(STATS_LENGTH + 15)]
    assert len({r.shoe_id for r in played}) == 1  # one shoe, 75 coups
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[cut_table.slug])).content.decode()
    panel = page.split('id="shoe-stats"', 1)[1]
    wins = {kind: sum(1 for r in played if r.outcome == kind) for kind in ("player", "banker")}
    assert f"<dt>Player</dt><dd>{wins['player']} " in panel
    assert f"<dt>Banker</dt><dd>{wins['banker']} " in panel
    coups = client.get(reverse("baccarat:table_coups", args=[cut_table.slug]), **HTMX)
    numbers = [r.hand_number for r in played]
    for number in (numbers[0], numbers[-1]):
        assert f'<td class="num">{number}</td>' in coups.content.decode()
    assert coups.content.decode().count('<td class="num">') == len(played)
    # The bead plate holds a mark for every coup.
    bead = panel.split("road road-bead", 1)[1].split("</figure>", 1)[0]
    coups_drawn = bead.split('<g class="ask-preview', 1)[0]  # the asks come last
    assert coups_drawn.count('class="bead bead-') == len(played)


def test_a_bet_does_not_render_the_panel_a_deal_does(
    client: Any, seated: Any, table: Table
) -> None:
    client.force_login(seated)
    url = reverse("baccarat:table_bet", args=[table.slug])
    bet = client.post(url, {"kind": "player", "amount": 100}, **HTMX).content.decode()
    assert 'id="shoe-stats"' not in bet
    deal = client.post(
        reverse("baccarat:table_deal", args=[table.slug]), {}, **HTMX
    ).content.decode()
    assert 'id="shoe-stats"' in deal and 'hx-swap-oob="true"' in deal
    # Until the cards are turned the panel from before the coup shows.
    stats = (
        deal.split('id="shoe-stats"', 1)[0].rsplit("<section", 1)[1]
        + deal.split('id="shoe-stats"', 1)[1]
    )
    assert 'class="before"' in stats and 'class="outcome"' in stats
    # The page holds that panel: the answer leaves the "before" empty for the script to
    # fill from it and draws the board once (the five roads, not ten).
    assert '<div class="before" data-previous></div>' in stats
    assert stats.count('<svg role="img"') == 5 and stats.count('class="coups"') == 1
    assert "<tbody>" not in stats  # the coups' rows come when the table is opened


def test_the_lobby_shows_each_tables_big_road(client: Any, seated: Any, table: Table) -> None:
    for _ in range(3):
        play(table, seated)
    client.force_login(seated)
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'class="lobby-road"' in lobby and "<figcaption>Big road</figcaption>" in lobby


def test_ties_before_the_first_coup_show_on_the_big_road() -> None:
    from types import SimpleNamespace

    from baccarat.board.statistics import shoe_board

    def coup(outcome: str) -> Any:
        return SimpleNamespace(
            pk=1, outcome=outcome, natural=False, player_cards="2S 3H", banker_cards="4C 5D"
        )

    big = shoe_board([coup("tie"), coup("tie")]).big
    assert (big.cells, big.pending_ties, big.description) == ([], 2, "2 ties")
    big = shoe_board([coup("tie"), coup("tie"), coup("player")]).big
    assert big.pending_ties == 0 and big.cells[0].ties == 2
    assert big.description == "Player 1 (2 ties)"


def _coups(*outcomes: str) -> list[Any]:
    from types import SimpleNamespace

    return [
        SimpleNamespace(
            pk=i, outcome=o, natural=i % 3 == 0, player_cards="2S 2H", banker_cards="4C 5D"
        )
        for i, o in enumerate(outcomes, start=1)
    ]


def test_the_marks_carry_letters_shapes_and_ties() -> None:
    from baccarat.board.statistics import shoe_board

    board = shoe_board(_coups("banker", "tie", "tie", "banker", "player", "player", "banker"))
    # The coups' marks (the Ask previews come after them).
    svg = {road.name: str(road.svg_marks()).split("<g class=")[0] for road in board.roads}
    assert svg["bead"].count('<circle class="bead bead-B"') == 3
    assert '<text class="bead-letter" x="10" y="14" text-anchor="middle">B</text>' in svg["bead"]
    # Two ties on the first banker entry: the slash and the count beside it.
    assert svg["big"].count('class="tie-mark"') == 1 and ">2</text>" in svg["big"]
    for name, shape in (("big_eye_boy", "eye"), ("small_road", "small")):
        cells = board.road(name).cells
        assert svg[name].count(f'<circle class="{shape} {shape}-') == len(cells)
        blue = sum(cell.value == "blue" for cell in cells)
        assert svg[name].count('class="dot') == blue
    assert svg["cockroach_pig"].count('<line class="roach roach-') == len(
        board.road("cockroach_pig").cells
    )


def test_pairs_and_naturals_are_marked_on_the_bead_plate_and_the_big_road() -> None:
    """A banker pair: a red dot at the top left; a player pair: a blue dot at the bottom
    right; a natural: a gold dot at the top right; in the words of the bead plate too."""
    from types import SimpleNamespace

    from baccarat.board.statistics import shoe_board

    def coup(pk: int, outcome: str, natural: bool, player: str, banker: str) -> Any:
        return SimpleNamespace(
            pk=pk, outcome=outcome, natural=natural, player_cards=player, banker_cards=banker
        )

    coups = [
        coup(1, "banker", True, "2S 2H", "4C 4D"),
        coup(2, "tie", False, "3S 4H", "KC 7D"),
        coup(3, "player", False, "5S 9H 3C", "QC QD 6S"),
    ]
    board = shoe_board(coups)
    bead, big = board.road("bead"), board.road("big")
    bead_svg = str(bead.svg_marks()).split("<g class=")[0]
    big_svg = str(big.svg_marks()).split("<g class=")[0]
    # Coup 1 in the first cell (centre 10, 10): both pairs and a natural.
    for svg in (bead_svg, big_svg):
        assert '<circle class="pair-dot pair-B" cx="4" cy="4" r="3">' in svg
        assert '<circle class="pair-dot pair-P" cx="16" cy="16" r="3">' in svg
        assert '<circle class="natural-dot" cx="16" cy="4" r="3">' in svg
    # Coup 3's banker pair: the bead plate's third cell; the big road's second entry.
    assert '<circle class="pair-dot pair-B" cx="4" cy="44" r="3">' in bead_svg
    assert '<circle class="pair-dot pair-B" cx="24" cy="4" r="3">' in big_svg
    assert bead_svg.count("pair-dot") == 3 and bead_svg.count("natural-dot") == 1
    assert bead.description.startswith("Banker (player pair, banker pair, natural), Tie, Player (")


def test_ask_player_and_ask_banker_are_drawn_on_the_roads() -> None:
    """The mark each road would get from one more Player or Banker win, on the road
    itself, where that mark would go; the words beside say the same."""
    from baccarat.board.statistics import shoe_board

    board = shoe_board(_coups("banker", "banker", "player", "player", "banker", "player"))
    for road in board.roads:
        svg = str(road.svg_marks())
        for side in ("P", "B"):
            if road.name in ("bead", "big"):
                assert f'<g class="ask-preview ask-{side}">' in svg
    big = board.road("big")
    # Banker, Banker | Player, Player | Banker | Player: a Player win lengthens the last
    # column (column 3, row 1), a Banker win starts column 4.
    assert (big.asks["P"].column, big.asks["P"].row, big.asks["P"].value) == (3, 1, "P")
    assert (big.asks["B"].column, big.asks["B"].row, big.asks["B"].value) == (4, 0, "B")
    for name in ("big_eye_boy", "small_road", "cockroach_pig"):
        road = board.road(name)
        for side in ("P", "B"):
            expected = board.asks[side][name]
            if expected is None:
                assert side not in (road.asks or {})
            else:
                assert road.asks[side].value == expected
                assert f'<g class="ask-preview ask-{side}">' in str(road.svg_marks())


def test_boards_that_show_the_same_share_a_signature() -> None:
    """The roads' fragment is cached by what it shows: the same outcomes, naturals and
    pairs give the same signature whatever the rounds' cards or ids; any change differs."""
    from baccarat.board.statistics import shoe_board

    a, b = _coups("player", "banker"), _coups("player", "banker")
    for coup in b:
        coup.pk += 100
        coup.banker_cards = "6C 7D"  # other cards, still no pair
    assert shoe_board(a).signature == shoe_board(b).signature
    b[0].banker_cards = "7C 7D"  # a banker pair now
    assert shoe_board(a).signature != shoe_board(b).signature
    assert shoe_board(a).signature != shoe_board(_coups("player", "tie")).signature


def test_the_board_before_a_coup_is_the_previous_panel() -> None:
    """With a window of the last N coups, the panel shown until the cards are turned is
    exactly the one the previous deal showed (so its cached fragments serve again)."""
    from baccarat.board.statistics import results_context

    coups = _coups(*["player", "banker", "tie"] * 30)  # 90 coups, a window of 60
    before = results_context(coups[:-1], key="k", just_dealt=False, window=60)
    after = results_context(coups, key="k", just_dealt=True, window=60)
    assert len(after["board"].rounds) == 60 and after["board"].rounds[-1] is coups[-1]
    assert after["board_before"].rounds == before["board"].rounds
    assert after["board_before"].signature == before["board"].signature


def test_a_road_figure_escapes_its_key_and_its_words() -> None:
    """The figure is written out in Python: what is not a number or a known name is
    escaped (the key names a page's board; the description is translated text)."""
    from django.utils import translation

    from baccarat.board.statistics import RoadView

    road = RoadView("big", [], 'Player <2> & "Banker"')
    with translation.override("de"):
        figure = road.figure('t1"<p2')
    assert "<figcaption>Big Road</figcaption>" in figure
    assert 'id="road-big-t1&quot;&lt;p2-desc"' in figure
    assert "<desc" in figure and "Player &lt;2&gt; &amp; &quot;Banker&quot;" in figure
    assert "<2>" not in figure and 't1"<' not in figure


def test_a_single_player_panel_is_drawn_uncached(client: Any, seated: Any, table: Table) -> None:
    """One browser draws a single-player board, once, and the next coup changes it: the
    DEAL's answer asks the cache nothing for it. A full table's board (many browsers draw
    the same) is kept: the same context, cached, asks the cache for both fragments."""
    from unittest import mock

    from django.core.cache import caches
    from django.template.loader import render_to_string

    from baccarat.board.selectors import STATS_LENGTH, shoe_results
    from baccarat.board.statistics import results_context

    client.force_login(seated)
    bet = reverse("baccarat:table_bet", args=[table.slug])
    client.post(bet, {"kind": "player", "amount": 100}, **HTMX)
    kind = type(caches["default"])
    with (
        mock.patch.object(kind, "get", autospec=True, side_effect=kind.get) as get,
        mock.patch.object(kind, "set", autospec=True, side_effect=kind.set) as put,
    ):
        deal = client.post(reverse("baccarat:table_deal", args=[table.slug]), {}, **HTMX)
        assert 'id="shoe-stats"' in deal.content.decode()
        asked = [call.args[1] for call in get.call_args_list + put.call_args_list]
        assert not [key for key in asked if "shoe_board" in key]
        rounds = shoe_results(table=table, player=seated)[-STATS_LENGTH:]
        context = results_context(rounds, key=f"t{table.pk}:p{seated.pk}", just_dealt=False)
        render_to_string("baccarat/shoe_board.html", {**context, "table": table})
        render_to_string("baccarat/parts/coups.html", context)
        asked = [call.args[1] for call in get.call_args_list]
        assert len([key for key in asked if "shoe_board" in key]) == 2


def test_a_full_tables_coups_are_its_shoes_kept_per_what_they_show(
    client: Any, salon: Table
) -> None:
    """Every browser at a full table reads the same shoe: its coups are drawn once per
    shoe as it stands (its coups and their cards) and language, and a visitor who is not
    seated may read them too."""
    from unittest import mock

    from django.core.cache import caches

    from baccarat.full import croupier
    from tests.baccarat.conftest import make_player, ready, sit

    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    dealt = Round.objects.get(pk=round.pk)
    assert dealt.state == Round.State.SETTLED
    client.force_login(make_player("watcher"))
    url = reverse("baccarat:table_coups", args=[salon.slug])
    kind = type(caches["default"])
    with mock.patch.object(kind, "set", autospec=True, side_effect=kind.set) as put:
        first = client.get(url, **HTMX).content.decode()
        again = client.get(url, **HTMX).content.decode()
    assert f'<td class="num">{dealt.hand_number}</td>' in first
    assert cards_shown(dealt.player_cards) in first
    assert again == first
    assert len([c for c in put.call_args_list if "shoe_board_coups" in c.args[1]]) == 1


def test_a_full_tables_cached_coups_follow_the_cards_not_only_the_ids(
    client: Any, salon: Table
) -> None:
    """A database recreated or restored hands the same round ids out again while Redis
    still holds what the old rounds showed: the cached table of coups is keyed on the
    coups' cards, so the new cards are shown."""
    from baccarat.full import croupier
    from tests.baccarat.conftest import make_player, ready, sit

    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    client.force_login(make_player("watcher"))
    url = reverse("baccarat:table_coups", args=[salon.slug])
    dealt = Round.objects.get(pk=round.pk)
    assert cards_shown(dealt.player_cards) in client.get(url, **HTMX).content.decode()
    # The same id, other cards (what a recreated database may hold under it).
    other = "QS 7D" if dealt.player_cards != "QS 7D" else "JC 8D"
    Round.objects.filter(pk=round.pk).update(player_cards=other)
    shown = client.get(url, **HTMX).content.decode()
    assert cards_shown(other) in shown and cards_shown(dealt.player_cards) not in shown


def test_coups_of_another_players_practice_table_are_not_found(client: Any, alice, bob) -> None:
    from tests.baccarat.conftest import practice_for

    session = practice_for(alice)
    client.force_login(bob)
    url = reverse("baccarat:table_coups", args=[session.table.slug])
    assert client.get(url, **HTMX).status_code == 404
    assert client.get(reverse("baccarat:table_coups", args=["no-such-table"])).status_code == 404
    client.force_login(alice)
    assert "No coups yet." in client.get(url, **HTMX).content.decode()


def test_a_table_that_reshuffles_every_coup_shows_the_players_own_sequence(
    client: Any, seated: Any, table: Table
) -> None:
    """Every coup there is the first of its shoe: the panel, the coups and the rules say
    it is the player's own sequence of coups, numbered in order, with cards as cards."""
    assert table.reshuffle == Table.Reshuffle.EVERY_COUP
    played = [play(table, seated) for _ in range(3)]
    assert {r.hand_number for r in played} == {1}
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[table.slug])).content.decode()
    assert "Your last coups at this table" in page and "Every coup of the current shoe" not in page
    assert "Your last coups here, with their cards" in page
    coups = client.get(reverse("baccarat:table_coups", args=[table.slug]), **HTMX)
    rows = coups.content.decode().split("<tbody>", 1)[1]
    for number, r in enumerate(played, start=1):
        row = rows.split(f'<td class="num">{number}</td>', 1)[1].split("</tr>", 1)[0]
        assert cards_shown(r.player_cards) in row
    rules = client.get(reverse("table_rules", args=[table.slug])).content.decode()
    assert "shuffled before every coup, so there is no shoe to follow" in rules
    lobby = client.get(reverse("lobby")).content.decode()
    assert "Your last coups here" in lobby


def test_a_cut_card_shoe_says_it_is_the_shoe(client: Any, seated: Any, cut_table: Table) -> None:
    from wallet import services as wallet

    wallet.wallet_rebuy(player=seated, table=cut_table, amount=10_00, reference="scope")
    play(cut_table, seated)
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[cut_table.slug])).content.decode()
    assert "Every coup of the current shoe." in page and "Your last coups" not in page
    rules = client.get(reverse("table_rules", args=[cut_table.slug])).content.decode()
    assert "results of the current shoe" in rules
