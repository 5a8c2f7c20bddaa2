"""The staff review page: flagged accounts with their evidence, and the actions on them.

Anyone but staff gets the site's plain "not found": players never learn of flags."""

from functools import wraps

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from fairplay import actions
from fairplay.charts import bars_svg
from fairplay.models import Flag, ReviewAction
from games.matches.models import Match

SHOWN = 200


def staff_only(view):
    @wraps(view)
    def checked(request, *args, **kwargs):
        if not request.user.is_staff:
            raise Http404
        return view(request, *args, **kwargs)

    return checked


@staff_only
def review(request):
    status = request.GET.get("status", Flag.Status.OPEN)
    flags = Flag.objects.filter(status=status).select_related("user", "partner")[:SHOWN]
    rows = [
        {
            "flag": flag,
            "figures": {k: v for k, v in flag.evidence.items() if k != "chart"},
            "chart": bars_svg(flag.evidence.get("chart"), f"{flag.get_kind_display()}: {flag.user.username}"),
            "matches": recent_matches(flag),
        }
        for flag in flags
    ]
    return render(
        request,
        "fairplay/review.html",
        {"rows": rows, "status": status, "statuses": Flag.Status.choices, "log": ReviewAction.objects.all()[:50]},
    )


def recent_matches(flag: Flag) -> list[Match]:
    """The flagged account's latest rated matches (with its partner, for a pair): those one may void."""
    found = Match.objects.filter(seats__user=flag.user, ranked=True, rating_changes__isnull=False)
    if flag.partner_id:
        found = found.filter(pk__in=Match.objects.filter(seats__user=flag.partner_id).values("pk"))
    return list(found.distinct().order_by("-finished_at")[:10])


@require_POST
@staff_only
def act(request, flag_id: int):
    flag = get_object_or_404(Flag.objects.select_related("user"), pk=flag_id)
    what, note = request.POST.get("action"), request.POST.get("note", "")[:300]
    if what == "dismiss":
        actions.dismiss(flag, request.user, note)
        messages.success(request, f"Dismissed the flag on {flag.user.username}.")
    elif what == "void":
        match = get_object_or_404(Match, pk=request.POST.get("match"), seats__user=flag.user)
        undone = actions.void_match(match, flag.user, request.user, flag, note)
        messages.success(request, f"Voided {match}: {undone} rating changes undone, ratings recomputed.")
    elif what == "stop":
        actions.stop_rated_play(flag.user, request.user, flag, note)
        messages.success(request, f"{flag.user.username} may no longer play rated games.")
    else:
        messages.error(request, "Choose dismiss, void a match or stop rated play.")
    return redirect("fairplay-review")
