"""The API's token header: `Authorization: Token <key>`, DRF's own, or `Bearer <key>`, which most
HTTP clients and bot kits send; both name the same token."""

from rest_framework.authentication import TokenAuthentication, get_authorization_header


class TokenOrBearerAuthentication(TokenAuthentication):
    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if parts and parts[0].lower() == b"bearer":
            self.keyword = "Bearer"  # this request's scheme, for DRF's checks of the header
        return super().authenticate(request)
