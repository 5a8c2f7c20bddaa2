"""A browser cookie: a random name the browser keeps, so that two accounts signed in from the
same browser can be told apart from two people behind one address (farming's evidence)."""

import secrets

BROWSER_COOKIE = "dubium_browser"
ONE_YEAR = 365 * 24 * 3600


class BrowserCookieMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if BROWSER_COOKIE not in request.COOKIES:
            response.set_cookie(
                BROWSER_COOKIE, secrets.token_hex(16), max_age=ONE_YEAR, httponly=True, samesite="Lax",
                secure=request.is_secure(),
            )  # fmt: skip
        return response
