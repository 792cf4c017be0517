"""``save_all``: one plain UPDATE for one object, one bulk UPDATE for several;
``with_bets``: plays with their bets in one query, as the prefetch would leave them;
``player_plays``: a player's latest plays, written out, as the ORM reads them;
``insert_play``: a new play with its bets, one statement on PostgreSQL; ``write_together``:
a step's writes and a locking read, one statement on PostgreSQL, in order."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from baccarat.db import (
    insert_play,
    insert_statement,
    player_coups,
    player_plays,
    save_all,
    save_statements,
    update_statement,
    with_bets,
    write_together,
)
from baccarat.models import Bet, Play, Round, Shoe, Table
from baccarat.play import betting, rounds
from wallet import services as wallet


def fields(obj: Any) -> list[tuple[str, object, type]]:
    """Every column's value of ``obj`` with its type (a date read as text would differ)."""
    return [
        (f.attname, getattr(obj, f.attname), type(getattr(obj, f.attname)))
        for f in type(obj)._meta.concrete_fields
    ]


def test_one_object_is_one_plain_update(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bet = Bet.objects.get()
    bet.stake, bet.payout = 300, 7
    with django_assert_num_queries(1) as queries:
        save_all([bet], ["stake"])
    assert "CASE" not in queries.captured_queries[0]["sql"]
    assert Bet.objects.values_list("stake", "payout").get(pk=bet.pk) == (300, 0)


def test_several_objects_are_one_bulk_update(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="player", amount=100)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bets = list(Bet.objects.order_by("pk"))
    for n, bet in enumerate(bets):
        bet.stake = 200 + n
    with django_assert_num_queries(1):
        save_all(bets, ["stake"])
    with django_assert_num_queries(0):
        save_all([], ["stake"])
    assert list(Bet.objects.order_by("pk").values_list("stake", flat=True)) == [200, 201]


def test_several_objects_of_every_field_type_are_written_as_given(
    seated: Any, bob: Any, table: Table, django_assert_num_queries: Any
) -> None:
    """Numbers, nulls, booleans and text, several rows in one statement (on PostgreSQL
    written out, without a ``CASE`` per field and row): what is stored is what the objects
    hold, and nothing else changes."""
    round = betting.round_open(table=table, player=seated)
    plays = [
        Play.objects.get(round=round),
        Play.objects.create(round=round, table=table, player=bob, seat=2),
    ]
    plays[0].payout_total, plays[0].balance_after, plays[0].server_notice = 975, None, True
    plays[1].payout_total, plays[1].balance_after, plays[1].server_notice = 0, 12_345, False
    plays[0].decision, plays[1].decision = "deal", ""
    plays[1].stake_total = 999  # not among the fields written
    written = ["payout_total", "balance_after", "server_notice", "decision"]
    with django_assert_num_queries(1) as queries:
        save_all(plays, written)
    if connection.vendor == "postgresql":
        assert "CASE" not in queries.captured_queries[0]["sql"]
    stored = {play.pk: play for play in Play.objects.filter(round=round)}
    for play in plays:
        assert [getattr(stored[play.pk], name) for name in written] == [
            getattr(play, name) for name in written
        ]
    assert stored[plays[1].pk].stake_total == 0  # as created


def test_with_bets_reads_plays_and_their_bets_in_one_query(
    seated: Any, bob: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=200)
    betting.bet_place(round=round, player=seated, kind="player", amount=100)
    Play.objects.create(round=round, table=table, player=bob, seat=2)  # a play without bets
    with django_assert_num_queries(1):
        plays = with_bets(Play.objects.filter(round=round).order_by("player_id"))
        loaded = {play.player_id: list(play.bets.all()) for play in plays}
        assert all(bet.play is play for play in plays for bet in play.bets.all())
    expected = list(Bet.objects.filter(play__player=seated).order_by("pk"))

    assert [fields(bet) for bet in loaded[seated.pk]] == [fields(bet) for bet in expected]
    assert [b.kind for b in loaded[seated.pk]] == ["tie", "player"]  # as placed: by id
    assert loaded[bob.pk] == []
    # Loaded from the database as any model is: a save updates the row.
    bet = loaded[seated.pk][0]
    assert not bet._state.adding
    bet.payout = 1800
    bet.save()
    assert Bet.objects.count() == 2 and Bet.objects.get(pk=bet.pk).payout == 1800


def test_a_query_chained_on_loaded_bets_reads_that_plays_bets_only(
    seated: Any, bob: Any, table: Table, django_assert_num_queries: Any
) -> None:
    """The bets left on a play are a queryset whose filter on the play waits until a query
    is chained on it: reading them reads nothing, a chained query reads the play's only."""
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=200)
    other = Play.objects.create(round=round, table=table, player=bob, seat=2)
    Bet.objects.create(play=other, kind="player", stake=300)
    (play,) = with_bets(Play.objects.filter(round=round, player=seated))
    with django_assert_num_queries(0):
        assert [bet.kind for bet in play.bets.all()] == ["tie"]
    with django_assert_num_queries(1):
        assert list(play.bets.filter(stake__gt=0).values_list("kind", flat=True)) == ["tie"]
    assert play.bets.count() == 1 and other.bets.count() == 1


def test_player_plays_reads_what_the_orm_reads(
    seated: Any, bob: Any, table: Table, cut_table: Table, django_assert_num_queries: Any
) -> None:
    """Newest first, void rounds, other players and other tables left out; every column of
    the play, its round (JSON rules, dates, booleans), its bets and the open shoe as the
    ORM gives them, on SQLite and PostgreSQL."""
    settled = betting.round_open(table=table, player=seated)
    betting.bet_place(round=settled, player=seated, kind="banker", amount=300)
    rounds.round_play(round_id=settled.pk)  # one deck: its shoe ends, the next one opens
    void = betting.round_open(table=table, player=seated)
    betting.bet_place(round=void, player=seated, kind="player", amount=100)
    rounds.round_void(round_id=void.pk, reason="test", by="test")
    wallet.wallet_rebuy(player=bob, table=table, amount=50_00, reference="bob-rebuy")
    betting.bet_place(
        round=betting.round_open(table=table, player=bob), player=bob, kind="tie", amount=100
    )
    wallet.wallet_rebuy(player=seated, table=cut_table, amount=50_00, reference="cut-rebuy")
    elsewhere = betting.round_open(table=cut_table, player=seated)
    betting.bet_place(round=elsewhere, player=seated, kind="tie", amount=100)
    current = betting.round_open(table=table, player=seated)
    betting.bet_place(round=current, player=seated, kind="tie", amount=200)
    betting.bet_place(round=current, player=seated, kind="player", amount=100)

    with django_assert_num_queries(1):
        plays = player_plays(table=table, player_id=seated.pk, count=3)
        bets = [list(play.bets.all()) for play in plays]

    expected = list(
        Play.objects.filter(player=seated, round__table=table)
        .exclude(round__state=Round.State.VOID)
        .select_related("round")
        .order_by("-round_id")
    )
    assert [play.round_id for play in plays] == [current.pk, settled.pk]
    assert [fields(play) for play in plays] == [fields(play) for play in expected]
    assert [fields(play.round) for play in plays] == [fields(play.round) for play in expected]
    assert plays[1].round.rules == expected[1].round.rules and plays[1].round.rules
    assert [[fields(bet) for bet in found] for found in bets] == [
        [fields(bet) for bet in play.bets.order_by("pk")] for play in expected
    ]
    shoe = Shoe.objects.get(table=table, player=seated, is_finished=False)
    assert shoe.pk != expected[1].round.shoe_id  # the settled round's shoe ended
    assert all(fields(play.open_shoe) == fields(shoe) for play in plays)
    assert not plays[0].open_shoe._state.adding  # loaded as any model is

    assert player_plays(table=table, player_id=seated.pk, count=1)[0].pk == plays[0].pk
    Shoe.objects.filter(pk=shoe.pk).update(is_finished=True)
    assert not hasattr(player_plays(table=table, player_id=seated.pk, count=1)[0], "open_shoe")


def test_row_where_reads_what_the_orm_reads(table: Table, cut_table: Table) -> None:
    """Every column of the row (JSON, dates, booleans), as ``filter().first()`` gives it;
    ``None`` where no row matches."""
    from baccarat.db import row_where

    cut_table.is_active = False
    cut_table.save()
    for slug in (table.slug, cut_table.slug):
        found = row_where(Table, "slug", slug)
        assert found is not None and not found._state.adding
        assert fields(found) == fields(Table.objects.get(slug=slug))
    assert row_where(Table, "slug", "no-such-table") is None


def test_insert_play_stores_the_play_and_its_bets_as_the_orm_would(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    """A new play with its bets: one statement on PostgreSQL (two elsewhere); what it
    leaves on the objects is what is stored, and the bets belong to the play."""
    round = Round.objects.create(table=table, rules=table.rule_snapshot())
    play = Play(round=round, table=table, player=seated, seat=1, stake_total=300)
    bets = [Bet(play=play, kind="player", stake=100), Bet(play=play, kind="tie", stake=200)]
    statements = 1 if connection.vendor == "postgresql" else 2
    with django_assert_num_queries(statements):
        stored = insert_play(play, bets)
    assert play.pk is not None and not play._state.adding
    assert fields(play) == fields(Play.objects.get(pk=play.pk))
    assert sorted(fields(bet) for bet in stored) == sorted(
        fields(bet) for bet in Bet.objects.filter(play=play)
    )
    assert {bet.play_id for bet in stored} == {play.pk}
    # Without bets it is the play's own insert.
    other = Round.objects.create(table=table, rules=table.rule_snapshot())
    alone = Play(round=other, table=table, player=seated, seat=1)
    with django_assert_num_queries(1):
        assert insert_play(alone, []) == []
    assert fields(alone) == fields(Play.objects.get(pk=alone.pk))


def test_insert_play_stores_a_new_round_first_as_the_orm_would(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    """A chip that opens the round: round, play and bets in one statement on PostgreSQL
    (three elsewhere), each as ``save`` would store it, the play on the new round."""
    round = Round(table=table, rules=table.rule_snapshot())
    play = Play(round=round, table=table, player=seated, seat=1, stake_total=500)
    bets = [Bet(play=play, kind="banker", stake=500)]
    statements = 1 if connection.vendor == "postgresql" else 3
    with django_assert_num_queries(statements):
        insert_play(play, bets)
    assert round.pk is not None and not round._state.adding
    assert play.round_id == round.pk and bets[0].play_id == play.pk
    # The same values as stored (the state's default stays the enum, as after ``create``).
    stored = Round.objects.get(pk=round.pk)
    assert [field[:2] for field in fields(round)] == [field[:2] for field in fields(stored)]
    assert round.rules == stored.rules and round.created_at is not None
    assert fields(play) == fields(Play.objects.get(pk=play.pk))
    assert [fields(bet) for bet in bets] == [fields(Bet.objects.get(play=play))]


def test_insert_play_refuses_a_second_play_of_the_player_in_a_round(
    seated: Any, table: Table
) -> None:
    """The play's constraints hold for the one statement too: nothing of it is stored."""
    round = betting.round_open(table=table, player=seated)
    twin = Play(round=round, table=table, player=seated, seat=1, stake_total=100)
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_play(twin, [Bet(play=twin, kind="player", stake=100)])
    assert Play.objects.filter(round=round).count() == 1
    assert not Bet.objects.filter(play__round=round).exists()


@pytest.mark.parametrize("last_shoe", [True, False])
def test_player_coups_reads_what_the_orm_reads(
    seated: Any, bob: Any, table: Table, cut_table: Table, last_shoe: bool
) -> None:
    """The player's settled rounds at the table, newest first, as named rows with the
    ORM's types (SQLite's booleans): other players', other tables', unsettled and (with
    ``last_shoe``) older shoes' rounds left out."""
    from baccarat.board.selectors import STATS_FIELDS

    for player in (seated, bob):
        wallet.wallet_rebuy(player=player, table=table, amount=50_00, reference=f"c{player.pk}")
    wallet.wallet_rebuy(player=seated, table=cut_table, amount=50_00, reference="cut")
    for _ in range(3):  # one deck: a shoe per coup
        for player in (seated, bob):
            played = betting.round_open(table=table, player=player)
            betting.bet_place(round=played, player=player, kind="banker", amount=100)
            rounds.round_play(round_id=played.pk)
    elsewhere = betting.round_open(table=cut_table, player=seated)
    betting.bet_place(round=elsewhere, player=seated, kind="tie", amount=100)
    rounds.round_play(round_id=elsewhere.pk)
    betting.bet_place(
        round=betting.round_open(table=table, player=seated), player=seated, kind="tie", amount=100
    )

    found = player_coups(
        table=table, player_id=seated.pk, names=STATS_FIELDS, count=2, last_shoe=last_shoe
    )
    mine = Round.objects.filter(table=table, state=Round.State.SETTLED, plays__player=seated)
    if last_shoe:
        mine = mine.filter(shoe_id=mine.order_by("-pk").values_list("shoe_id")[:1])
    expected = list(mine.order_by("-pk").values_list(*STATS_FIELDS, named=True)[:2])
    assert len(found) == (1 if last_shoe else 2)
    assert found == expected
    assert [[type(v) for v in row] for row in found] == [[type(v) for v in row] for row in expected]
    assert found[0]._fields == STATS_FIELDS and isinstance(found[0].natural, bool)


def test_a_full_tables_board_reads_what_the_orm_reads(
    salon: Table, django_assert_num_queries: Any
) -> None:
    """The seats with their players, the newest shown rounds with their shoes (card order
    deferred) and those rounds' plays with their bets: every column as the ORM gives it,
    one query each, on SQLite and PostgreSQL."""
    from baccarat.db import newest_shared_rounds, round_plays, table_seats
    from baccarat.full import croupier
    from baccarat.full.state import SHOWN_STATES
    from baccarat.models import Seat
    from tests.baccarat.conftest import ready, sit

    anna, ben = sit(salon, "anna", 3), sit(salon, "ben", 1)
    first = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    croupier.full_bet(table=salon, player=ben, kind="tie", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.full_decide(table=salon, player=ben, deal=False)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    assert Round.objects.get(pk=first.pk).state == Round.State.SETTLED
    croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)

    with django_assert_num_queries(3):
        seats = table_seats(table_id=salon.pk)
        rounds_read = newest_shared_rounds(table_id=salon.pk, states=SHOWN_STATES, count=2)
        plays = round_plays(round_ids=[round.pk for round in rounds_read])
    expected_seats = list(Seat.objects.filter(table=salon).select_related("player"))
    assert sorted(fields(seat) for seat in seats) == sorted(fields(s) for s in expected_seats)
    by_number = {seat.number: seat for seat in expected_seats}
    assert [seat.number for seat in seats] == [1, 3]
    assert all(fields(seat.player) == fields(by_number[seat.number].player) for seat in seats)
    expected_rounds = list(
        Round.objects.filter(table=salon, shared=True, state__in=SHOWN_STATES)
        .select_related("shoe")
        .defer("shoe__state")
        .order_by("-pk")[:2]
    )
    assert [round.state for round in rounds_read] == ["betting", "settled"]
    assert [fields(round) for round in rounds_read] == [fields(r) for r in expected_rounds]
    shoe, expected_shoe = rounds_read[1].shoe, expected_rounds[1].shoe
    assert shoe is not None and expected_shoe is not None
    assert shoe.get_deferred_fields() == expected_shoe.get_deferred_fields() == {"state"}
    assert [getattr(shoe, f.attname) for f in Shoe._meta.concrete_fields if f.name != "state"] == [
        getattr(expected_shoe, f.attname) for f in Shoe._meta.concrete_fields if f.name != "state"
    ]
    assert rounds_read[0].shoe is None and expected_rounds[0].shoe is None
    expected_plays = with_bets(Play.objects.filter(round__in=expected_rounds))
    key = lambda play: play.pk  # noqa: E731
    assert [fields(p) for p in sorted(plays, key=key)] == [
        fields(p) for p in sorted(expected_plays, key=key)
    ]
    assert [[fields(b) for b in p.bets.all()] for p in sorted(plays, key=key)] == [
        [fields(b) for b in p.bets.all()] for p in sorted(expected_plays, key=key)
    ]
    assert round_plays(round_ids=[]) == []


def test_who_still_decides_a_round_is_what_the_orm_counts(
    salon: Table, django_assert_num_queries: Any
) -> None:
    """Of the seats taken when the round opened, those without a Deal or Pass in it: a
    seat taken later does not play the round, chips without a decision are no decision."""
    from django.db.models import Count, Exists, OuterRef

    from baccarat.db import round_deciders
    from baccarat.full import croupier
    from baccarat.models import Seat
    from tests.baccarat.conftest import ready, sit

    def orm(round: Round) -> tuple[int, int]:
        decided = Play.objects.filter(round=round, player_id=OuterRef("player_id")).exclude(
            decision=""
        )
        counts = Seat.objects.filter(
            table_id=round.table_id, sat_at__lte=round.created_at
        ).aggregate(playing=Count("pk"), undecided=Count("pk", filter=~Exists(decided)))
        return counts["playing"], counts["undecided"]

    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    sit(salon, "cleo", 3)
    first = ready(salon)
    assert round_deciders(round_id=first.pk) == orm(first) == (3, 3)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)
    Seat.objects.filter(table=salon, number=3).update(
        sat_at=first.created_at + timedelta(seconds=1)
    )
    sit(salon, "dora", 4)  # sat down after the round opened: waits for the next
    with django_assert_num_queries(1):
        counted = round_deciders(round_id=first.pk)
    assert counted == orm(first) == (2, 1)  # ben has chips and no decision
    croupier.full_decide(table=salon, player=ben, deal=False)
    assert round_deciders(round_id=first.pk) == orm(first) == (2, 0)
    Seat.objects.filter(table=salon).delete()
    assert round_deciders(round_id=first.pk) == orm(first) == (0, 0)


def test_a_tables_events_after_a_number_are_what_the_orm_reads(
    table: Table, cut_table: Table, django_assert_num_queries: Any
) -> None:
    from baccarat.db import events_after
    from baccarat.models import TableEvent

    for seq in (3, 1, 2, 4):
        TableEvent.objects.create(table=table, seq=seq, kind="bets", data={"seat": seq, "n": [1]})
    TableEvent.objects.create(table=cut_table, seq=2, kind="sit", data={})
    with django_assert_num_queries(1):
        read = events_after(table_id=table.pk, seq=1, limit=2)
    expected = list(TableEvent.objects.filter(table=table, seq__gt=1).order_by("seq")[:2])
    assert [fields(event) for event in read] == [fields(event) for event in expected]
    assert [event.seq for event in read] == [2, 3] and read[0].data == {"seat": 2, "n": [1]}
    assert events_after(table_id=table.pk, seq=4, limit=500) == []


def test_write_together_runs_the_writes_in_order_then_the_read(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    """An ended shoe finished and the next one stored in one go (one open shoe per table
    and owner: in this order only), the ids of what each changed, the read's rows by
    column name; one statement on PostgreSQL, one each elsewhere."""
    from baccarat.integrity import shoes

    old = shoes.shoe_open(table=table, player=seated)
    old.is_finished, old.finished_at = True, timezone.now()
    new = Shoe(
        table=table, player=seated, number=old.number + 1, state=old.state, commitment="c" * 64
    )
    missing = update_statement(Shoe.objects.filter(pk=old.pk, revealed_at__isnull=False), number=9)
    read = ('SELECT id, number FROM "baccarat_shoe" WHERE table_id = %s ORDER BY id', [table.pk])
    statements = 1 if connection.vendor == "postgresql" else 4
    with django_assert_num_queries(statements):
        changed, rows = write_together(
            "default",
            [
                *save_statements([old], ["is_finished", "finished_at"]),
                insert_statement([new]),
                missing,
            ],
            read,
        )
    (inserted,) = changed[1]
    assert changed == [[old.pk], [inserted], []]
    assert Shoe.objects.get(pk=old.pk).is_finished
    assert Shoe.objects.get(is_finished=False, table=table).pk == inserted
    # What the read saw: on PostgreSQL the rows as they were before the statement.
    expected = [{"id": old.pk, "number": old.number}]
    if connection.vendor != "postgresql":
        expected.append({"id": inserted, "number": new.number})
    assert rows == expected


def test_write_together_with_nothing_to_do_asks_nothing(
    db: None, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        assert write_together("default", []) == ([], [])


def test_a_write_that_fails_fails_them_all(seated: Any, table: Table) -> None:
    """The second open shoe of an owner stored before the first is finished: refused, and
    nothing of the statement stays."""
    from baccarat.integrity import shoes

    old = shoes.shoe_open(table=table, player=seated)
    old.is_finished = True
    new = Shoe(table=table, player=seated, number=old.number + 1, state=old.state)
    with pytest.raises(IntegrityError), transaction.atomic():
        write_together(
            "default",
            [insert_statement([new]), *save_statements([old], ["is_finished"])],
        )
    assert list(Shoe.objects.filter(table=table).values_list("pk", "is_finished")) == [
        (old.pk, False)
    ]


def test_several_objects_elsewhere_are_bulk_updates_case(seated: Any, table: Table) -> None:
    """Off PostgreSQL several objects are ``bulk_update``'s one statement (a ``CASE``)."""
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="player", amount=100)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bets = list(Bet.objects.order_by("pk"))
    (statement,) = save_statements(bets, ["stake", "payout"])
    assert ("CASE" in statement.sql) is (connection.vendor != "postgresql")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_player_plays_can_lock_the_open_shoe(table: Table, racers: Any) -> None:
    """A DEAL reads the layout with the open shoe's row lock: another transaction cannot
    take it until the DEAL's commits."""
    from django.db import DatabaseError

    from baccarat.integrity import shoes
    from tests.baccarat.conftest import make_player

    player = make_player("locker")
    wallet.wallet_rebuy(player=player, table=table, amount=50_00, reference="lock-rebuy")
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="banker", amount=100)
    shoe = shoes.shoe_open(table=table, player=player)

    def try_lock() -> object:
        with transaction.atomic():
            return Shoe.objects.select_for_update(nowait=True).get(pk=shoe.pk)

    with transaction.atomic():
        (play,) = player_plays(table=table, player_id=player.pk, count=2, lock_shoe=True)
        assert play.open_shoe.pk == shoe.pk and play.open_shoe.locked
        (refused,) = racers.run([try_lock])
        assert isinstance(refused, DatabaseError)
    (taken,) = racers.run([try_lock])
    assert isinstance(taken, Shoe)
    assert not player_plays(table=table, player_id=player.pk, count=1)[0].open_shoe.locked


def test_one_object_is_the_update_the_orm_would_run(seated: Any, table: Table) -> None:
    """A single row's ``UPDATE`` is written once per model and fields: the same statement
    and parameters as the ORM's for dates, JSON, text, booleans and a foreign key, and
    it stores what the object holds, nulls included (the ORM writes those as ``NULL``)."""
    from datetime import timedelta

    from django.utils import timezone

    round = betting.round_open(table=table, player=seated)
    other = betting.round_open(table=Table.objects.create(name="B", slug="b"), player=seated)
    round.locked_at = timezone.now() - timedelta(seconds=3)
    round.settled_at = timezone.now()
    round.rules = {"decks": 1, "tie_pays": 8, "note": "ä"}
    round.player_cards, round.natural, round.void_reason = "AS 9H", True, "x"
    round.table = other.table
    names = ["locked_at", "settled_at", "rules", "player_cards", "natural", "table"]
    (written,) = save_statements([round], [*names, "void_reason"])
    orm = update_statement(
        Round.objects.filter(pk=round.pk),
        **{name: getattr(round, name) for name in [*names, "void_reason"]},
    )
    assert (written.sql, written.key) == (orm.sql, orm.key)
    assert [str(p) for p in written.params] == [str(p) for p in orm.params]
    round.locked_at = round.settled_at = None
    save_all([round], names)
    stored = Round.objects.get(pk=round.pk)
    assert [getattr(stored, name) for name in names] == [getattr(round, name) for name in names]
    assert stored.void_reason == ""  # not among the fields written


def test_one_object_with_an_expression_is_the_orms_update(seated: Any, table: Table) -> None:
    from django.db.models import F

    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bet = Bet.objects.get()
    bet.stake = F("stake") + 200
    save_all([bet], ["stake"])
    assert Bet.objects.get(pk=bet.pk).stake == 300


def test_new_rows_are_stored_as_the_orms_insert_would_store_them(
    seated: Any, table: Table, cut_table: Table
) -> None:
    """The written-out ``INSERT`` (once per model and row count) stores what the ORM's
    ``bulk_create`` stores: dates set by ``auto_now_add``, JSON, text, nulls, foreign
    keys; ``write_together`` answers the new ids in order."""
    rows = [
        Round(table=table, rules=table.rule_snapshot(), player_cards="AS 9H", natural=True),
        Round(table=cut_table, rules={"decks": 8, "note": "ä"}, hand_number=3),
    ]
    (statement,) = [insert_statement(rows)]
    ((ids,), _) = write_together("default", [statement])
    orm = Round.objects.bulk_create(
        [
            Round(table=table, rules=table.rule_snapshot(), player_cards="AS 9H", natural=True),
            Round(table=cut_table, rules={"decks": 8, "note": "ä"}, hand_number=3),
        ]
    )
    ours = {row.pk: row for row in Round.objects.filter(pk__in=ids)}
    theirs = {row.pk: row for row in Round.objects.filter(pk__in=[row.pk for row in orm])}
    assert len(ids) == 2 and ids[0] < ids[1]
    skip = {"id", "created_at"}
    for mine, other in zip([ours[i] for i in ids], [theirs[row.pk] for row in orm], strict=True):
        assert [f for f in fields(mine) if f[0] not in skip] == [
            f for f in fields(other) if f[0] not in skip
        ]
    assert all(row.created_at is not None for row in rows)  # set on the objects, as the ORM


def test_a_conditional_row_update_is_the_orms_and_changes_nothing_when_the_row_moved(
    seated: Any, table: Table
) -> None:
    from django.utils import timezone

    from baccarat.db import update_row

    round = betting.round_open(table=table, player=seated)
    values = {"recovery_note": "noted", "settled_at": timezone.now(), "hand_number": 7}
    where = {"state": Round.State.BETTING, "hand_number": round.hand_number, "dealt_at": None}
    ours = update_row(Round, round.pk, values, where=where)
    orm = update_statement(
        Round.objects.filter(
            pk=round.pk,
            state=Round.State.BETTING,
            hand_number=round.hand_number,
            dealt_at__isnull=True,
        ),
        **values,
    )
    assert sorted(map(str, ours.params)) == sorted(map(str, orm.params))
    assert "IS NULL" in ours.sql and ours.key == orm.key
    assert write_together("default", [ours])[0] == [[round.pk]]
    stored = Round.objects.get(pk=round.pk)
    assert (stored.recovery_note, stored.hand_number) == ("noted", 7)
    # The row no longer matches (its hand number moved): the same update changes nothing.
    again = update_row(Round, round.pk, {"recovery_note": "again"}, where=where)
    assert write_together("default", [again])[0] == [[]]
    assert Round.objects.get(pk=round.pk).recovery_note == "noted"
