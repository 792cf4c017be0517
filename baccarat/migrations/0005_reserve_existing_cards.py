from django.db import migrations
from django.utils import timezone

OPEN = ("betting", "locked")

def reserve_existing_cards(apps, schema_editor):
    """Give every round dealt before this migration its cards in deal order, and every
    LOCKED round its cards from its shoe; finish the shoes still open, so each new
    round draws from a shoe under the reservation rule; reveal ended shoes."""
    from baccarat.engine import Shoe as Dealer, codes_of, deal_coup

    Round = apps.get_model("baccarat", "Round")
    Shoe = apps.get_model("baccarat", "Shoe")
    for round in Round.objects.exclude(state="betting").exclude(player_cards="").iterator():
        player, banker = round.player_cards.split(), round.banker_cards.split()
        order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
        round.reserved_cards = "".join(order)
        if round.start_position is not None:
            round.end_position = round.start_position + len(order)
        round.save(update_fields=["reserved_cards", "end_position"])
    for round in Round.objects.filter(state="locked", player_cards="").select_related("shoe"):
        dealer = Dealer.from_state(round.shoe.state)
        dealer.position = round.start_position
        coup = deal_coup(dealer.draw)
        round.reserved_cards = codes_of(coup.dealt_order)
        round.end_position = dealer.position
        round.save(update_fields=["reserved_cards", "end_position"])
    now = timezone.now()
    Shoe.objects.filter(is_finished=False).update(is_finished=True, finished_at=now)
    Shoe.objects.exclude(rounds__state__in=OPEN).update(revealed_at=now)




class Migration(migrations.Migration):

    dependencies = [
        ("baccarat", "0004_card_reservation"),
    ]

    operations = [
        migrations.RunPython(reserve_existing_cards, migrations.RunPython.noop),
    ]
