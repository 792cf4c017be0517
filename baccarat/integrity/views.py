"""The public page that checks a shoe (provably fair shoes).

Its address is the shoe's commitment, which nobody can guess: a single-seat table's shoes
are one player's, and numbered addresses would let anyone walk through them. Whoever
holds the link (the player, or someone they gave it to) can check the shoe.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from baccarat.integrity import fairness
from baccarat.models import Shoe


@require_GET
def shoe_verify(request: HttpRequest, commitment: str) -> HttpResponse:
    """Public: a shoe's commitment, and once it has ended its order and every round dealt
    from it, re-derived and checked. Nothing of a shoe still in play is shown."""
    shoe = Shoe.objects.select_related("table").filter(commitment=commitment).order_by("pk").first()
    if shoe is None:
        raise Http404
    report = fairness.shoe_verification(shoe)
    return render(request, "baccarat/shoe_verify.html", {"shoe": shoe, "report": report})


@login_required
@require_GET
def shoe_verify_by_number(request: HttpRequest, shoe_id: int) -> HttpResponse:
    """An older link by the shoe's number: its own player goes on to the shoe's page;
    for anyone else no such shoe exists."""
    shoe = Shoe.objects.filter(pk=shoe_id, player=request.user.pk).only("commitment").first()
    if shoe is None:
        raise Http404
    return redirect("baccarat:shoe_verify", commitment=shoe.commitment)
