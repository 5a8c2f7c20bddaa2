from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from dubium import views

urlpatterns = [
    path("", views.home, name="home"),
    path("welcome/", views.welcome, name="welcome"),
    path("play/", views.play, name="play"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages without a <link rel=icon> (error pages, raw API responses).
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.matches.urls")),
    path("", include("games.lobby.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
    path("", include("botapi.urls")),
    path("", include("fairplay.urls")),
    path("api/", include("ratings.api_urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("games.matches.api_urls")),
    path("api/", include("games.lobby.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("botapi.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # Last: any other /api/ path is JSON's 404, also with DEBUG on (Django would answer its HTML
    # page listing every URL pattern).
    re_path(r"^api/", views.no_such_api_path),
]
handler404 = "dubium.views.not_found"
