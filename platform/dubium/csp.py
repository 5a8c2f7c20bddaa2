"""Content-Security-Policy: the site's pages run only scripts and styles it serves itself.

Our templates have no inline script, style or event handler (data for scripts travels in
`json_script` blocks, which are not run), so an injected `<script>` or `onerror=` runs
nowhere. Sockets may connect only back to the host the page came from. The API reference
pages (Swagger UI and ReDoc, served from the sidecar package) style themselves inline and
ReDoc starts a worker from a blob, so those two pages get exactly those allowances more.
"""

from django.conf import settings

BASE_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
API_REFERENCE_PAGES = ("/api/docs/", "/api/redoc/")
API_REFERENCE_ALLOWANCES = {"style-src": "'self' 'unsafe-inline'", "worker-src": "'self' blob:"}


def policy_for(path: str, host: str) -> str:
    policy = dict(BASE_POLICY, **{"connect-src": f"'self' ws://{host} wss://{host}"})
    if path.startswith(API_REFERENCE_PAGES):
        policy.update(API_REFERENCE_ALLOWANCES)
    return "; ".join(f"{name} {value}" for name, value in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response and settings.CONTENT_SECURITY_POLICY:
            response["Content-Security-Policy"] = policy_for(request.path, request.get_host())
        return response
