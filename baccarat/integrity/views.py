"""The public page that checks a shoe (provably fair shoes)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from baccarat.integrity import fairness
from baccarat.models import Shoe


@require_GET
def shoe_verify(request: HttpRequest, shoe_id: int) -> HttpResponse:
    """Public: a shoe's commitment, and once it has ended its order and every round dealt
    from it, re-derived and checked. Nothing of a shoe still in play is shown."""
    shoe = get_object_or_404(Shoe.objects.select_related("table"), pk=shoe_id)
    report = fairness.shoe_verification(shoe)
    return render(request, "baccarat/shoe_verify.html", {"shoe": shoe, "report": report})
