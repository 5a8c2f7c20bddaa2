"""Times in the visitor's own zone: the page's script sets the `tz` cookie, every page shows and
the organizer's form reads times in it, and names the zone; without it, UTC."""

from datetime import UTC, datetime

import pytest

from tests.tournaments.test_dashboard import form_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_organizer_in_paris_schedules_in_paris_time_and_players_see_their_own(client, olga, alice):
    client.force_login(olga)
    client.cookies["tz"] = "Europe/Paris"
    form = client.get("/organize/new/dudo/").content.decode()
    assert "Starts at (Europe/Paris time)" in form
    client.post("/organize/new/dudo/", form_data(starts_at="2031-01-10T19:30"))
    cup = Tournament.objects.get(name="Friday Dudo")
    assert cup.starts_at == datetime(2031, 1, 10, 18, 30, tzinfo=UTC), "19:30 in Paris in winter"
    assert "starts Fri 10 Jan 2031, 19:30 CET" in client.get(f"/tournaments/{cup.pk}/").content.decode()

    client.force_login(alice)
    client.cookies["tz"] = "America/New_York"
    assert "starts Fri 10 Jan 2031, 13:30 EST" in client.get(f"/tournaments/{cup.pk}/").content.decode()


@pytest.mark.parametrize("cookie", [None, "Mars/Olympus", "../../etc/passwd", ""])
def test_without_a_zone_the_browser_names_times_are_in_utc(client, olga, cookie):
    cup = Tournament.objects.create(
        name="Cup", game="dudo", organizer=olga, starts_at=datetime(2031, 7, 1, 9, 5, tzinfo=UTC)
    )
    if cookie is not None:
        client.cookies["tz"] = cookie
    assert "starts Tue 1 Jul 2031, 09:05 UTC" in client.get(f"/tournaments/{cup.pk}/").content.decode()
