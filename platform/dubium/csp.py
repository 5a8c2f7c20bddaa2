"""Content-Security-Policy: the site's pages run only scripts and styles it serves itself.

Our templates have no inline script, style or event handler (data for scripts travels in
`json_script` blocks, which are not run), so an injected `<script>` or `onerror=` runs
nowhere. Sockets may connect only back to the host the page came from. The API reference
pages (Swagger UI and ReDoc, served from the sidecar package) style themselves inline and
ReDoc starts a worker from a blob, so those two pages get exactly those allowances more.
With DEBUG on (`make run`), Django's own error pages (its 404 and 500 explanations) are
inline-styled and scripted, so error responses get inline styles and scripts there, and
nowhere else.
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
DEBUG_ERROR_PAGE_ALLOWANCES = {"style-src": "'self' 'unsafe-inline'", "script-src": "'self' 'unsafe-inline'"}


def policy_for(path: str, host: str, debug_error_page: bool = False) -> str:
    policy = dict(BASE_POLICY, **{"connect-src": f"'self' ws://{host} wss://{host}"})
    if path.startswith(API_REFERENCE_PAGES):
        policy.update(API_REFERENCE_ALLOWANCES)
    if debug_error_page:
        policy.update(DEBUG_ERROR_PAGE_ALLOWANCES)
    return "; ".join(f"{name} {value}" for name, value in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response and settings.CONTENT_SECURITY_POLICY:
            debug_error_page = settings.DEBUG and response.status_code in (404, 500)
            response["Content-Security-Policy"] = policy_for(request.path, request.get_host(), debug_error_page)
        return response
