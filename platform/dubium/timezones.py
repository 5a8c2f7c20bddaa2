"""Times in the visitor's own zone. Every page's script puts the browser's zone in a cookie
(site.js), and each request renders dates, and reads the organizer's "starts at", in it.
Without the cookie (a first page, a bot, a script-less browser) times stay in UTC, and every
page names the zone it shows ("CET", "UTC"), so a time is never read in the wrong one."""

import zoneinfo
from functools import cache

from django.utils import timezone

COOKIE = "tz"


@cache
def known_zones() -> frozenset[str]:
    """The zone names a cookie may carry: anything else (a path, junk) is ignored."""
    return frozenset(zoneinfo.available_timezones())


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = request.COOKIES.get(COOKIE, "")
        if name in known_zones():
            timezone.activate(zoneinfo.ZoneInfo(name))
        else:
            timezone.deactivate()
        return self.get_response(request)
