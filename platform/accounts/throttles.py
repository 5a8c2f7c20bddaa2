"""How many requests the API takes: per account (its token or its session) and per client address.

Every API operation counts against two pairs of DRF rates (settings.REST_FRAMEWORK, "API
limits" in docs/security.md): a short window that stops a burst and a minute's window that
stops a steady stream, for the signed-in account and for the address it comes from (signed in
or not, so more accounts do not buy more room). Past any of them the answer is 429 with
`Retry-After`. Some operations have their own scope on top (new accounts, token logins, code
uploads). The counts live in the cache: Redis on the real stack, shared by every process;
each process's memory embedded.
"""

import hashlib

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class RateThrottle(SimpleRateThrottle):
    """Reads its rate when it is made, not when the module was imported, so a changed setting
    (an operator's, or a test's) counts at once."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]


class AddressThrottle(RateThrottle):
    """Requests per client address, signed in or not (a session or token must not lift it)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AccountThrottle(RateThrottle):
    """Requests per signed-in account, whichever token or session signs them; none for visitors
    (their address counts them)."""

    def get_cache_key(self, request, view):
        if not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class AccountBurstThrottle(AccountThrottle):
    scope = "account_burst"


class AccountSustainedThrottle(AccountThrottle):
    scope = "account_sustained"


class AddressBurstThrottle(AddressThrottle):
    scope = "address_burst"


class AddressSustainedThrottle(AddressThrottle):
    scope = "address_sustained"


# Every API operation's (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]); a view that adds a scope of
# its own lists these first, since DRF's throttle_classes replaces the default list.
API_THROTTLES = [AccountBurstThrottle, AccountSustainedThrottle, AddressBurstThrottle, AddressSustainedThrottle]


class RegisterThrottle(AddressThrottle):
    """New accounts per address, on the web form and the API together. The API counts its requests
    (DRF's `allow_request`); the form counts only the accounts it makes (`full`, then `count`): a
    tester's mistyped sign-ups used up the limit, and "Too many new accounts" came at the 8th."""

    scope = "register"

    def full(self, request) -> bool:
        """Whether the address is at its limit, this request not counted (`wait` says for how long)."""
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) >= self.num_requests

    def count(self) -> None:
        """An account was made: one more against the address (after `full`)."""
        self.throttle_success()


class TokenThrottle(AddressThrottle):
    """Token logins per address."""

    scope = "token"


class ResetRequestThrottle(AddressThrottle):
    """Password-reset requests per address (the web form)."""

    scope = "reset_request"


class ResetMailThrottle(RateThrottle):
    """Password-reset mails to one e-mail address, whoever asks for them. Keyed by a hash, so the
    cache holds no address."""

    scope = "reset_mail"

    def __init__(self, email: str):
        super().__init__()
        self.recipient = hashlib.sha256(email.strip().casefold().encode()).hexdigest()

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.recipient}
