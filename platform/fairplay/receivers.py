"""How fair play hears of finished matches and sign-ins (apps.py connects these)."""

from django.db import transaction

from accounts.addresses import client_address
from fairplay import actions
from fairplay.middleware import BROWSER_COOKIE
from fairplay.models import Sighting
from fairplay.tasks import review_match


def review_finished_match(sender, match_id: int, **kwargs) -> None:
    """Queue the match's reading (never on the scoring path), and void its rating changes at once
    where an account whose rated play was stopped sat."""
    actions.void_stopped_players(match_id)
    transaction.on_commit(lambda: review_match.delay(match_id))


def note_sighting(sender, request, user, **kwargs) -> None:
    """Remember where the account signed in from (address, browser cookie), for farming's evidence."""
    if request is None:
        return
    address = client_address(request) or None
    browser = request.COOKIES.get(BROWSER_COOKIE, "")[:32]
    sighting, created = Sighting.objects.get_or_create(user=user, address=address, browser=browser)
    if not created:
        sighting.save(update_fields=["last_seen"])
