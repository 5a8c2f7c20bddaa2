"""Registration, public profiles and the password change (which counts as a login attempt); login, logout and
password resets are Django's auth views (see urls.py)."""

import math

from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.core.paginator import Paginator
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import GuardedPasswordChangeForm, RegistrationForm
from accounts.throttles import RegisterThrottle, ResetMailThrottle, ResetRequestThrottle
from games.matches.played import games_counted, listed, seats_of
from ratings.bluffs import player_bluffs
from ratings.profile import profile_ratings, with_rating_changes
from tournaments.history import player_tournaments

PROFILE_GAMES = 10  # the profile lists the latest; the games page has them all
GAMES_PAGE = 50


@require_http_methods(["GET", "POST"])
def register(request):
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.username)
    throttle = RegisterThrottle()  # the API's limit on new accounts from one address, counted together with it
    if request.method == "POST" and throttle.full(request):
        return refused(request, throttle.wait())
    form = RegistrationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        throttle.count()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("welcome")
    return render(request, "registration/register.html", {"form": form})


def refused(request, wait: float | None):
    """The form again, with the name and address typed kept (never the passwords) and why it waits
    in words: the page stays where it was, signed out, and says when to try again."""
    kept = {field: request.POST.get(field, "") for field in ("username", "email")}
    context = {"form": RegistrationForm(initial=kept), "wait": in_minutes(wait)}
    response = render(request, "registration/register.html", context, status=429)
    response["Retry-After"] = str(math.ceil(wait or 60))
    return response


def in_minutes(seconds: float | None) -> str:
    minutes = math.ceil((seconds or 60) / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


@require_GET
def profile(request, username: str):
    person = get_object_or_404(get_user_model(), username__iexact=username)
    tournaments, entered = player_tournaments(person, everything=request.GET.get("tournaments") == "all")
    return render(request, "accounts/profile.html", {
        "person": person,
        "bots": person.owned_bots.order_by("username"),
        "ratings": profile_ratings(person),
        "bluffs": player_bluffs(person),
        "tournaments": tournaments,
        "tournaments_entered": entered,
        "games": with_rating_changes(person, listed(seats_of(person)[:PROFILE_GAMES])),
        "games_played": seats_of(person).count(),
    })


@require_GET
def games(request, username: str):
    """Every game the account has played, or those of one game (?game=dudo), newest first, a page
    at a time."""
    person = get_object_or_404(get_user_model(), username__iexact=username)
    counted = games_counted(person)
    game = next((slug for slug, _, _ in counted if slug == request.GET.get("game")), None)
    page = Paginator(seats_of(person, game), GAMES_PAGE).get_page(request.GET.get("page"))
    games = with_rating_changes(person, listed(page))
    return render(request, "accounts/games.html", {
        "person": person, "page": page, "games": games, "counted": counted, "game": game,
        "game_name": next((name for slug, name, _ in counted if slug == game), None),
        "total": sum(count for _, _, count in counted),
    })  # fmt: skip


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, with the current password counted as a login attempt (GuardedPasswordChangeForm)."""

    form_class = GuardedPasswordChangeForm

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"request": self.request}


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, limited (a page could send one person thirty mails a second): RESET_REQUEST_RATE
    requests per client address, then a page that says how long to wait; RESET_MAIL_RATE mails to
    one e-mail address, past which the page says the same as ever and nothing is sent, so it never
    tells whether the address has an account."""

    def form_valid(self, form):
        per_address = ResetRequestThrottle()
        if not per_address.allow_request(self.request, None):
            context = self.get_context_data(form=form, wait=in_minutes(per_address.wait()))
            return self.render_to_response(context, status=429)
        if not ResetMailThrottle(form.cleaned_data["email"]).allow_request(self.request, None):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
