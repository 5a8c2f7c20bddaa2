from django.urls import path

from accounts import api

urlpatterns = [
    path("accounts/register/", api.register, name="api-register"),
    path("accounts/token/", api.token, name="api-token"),
    path("accounts/me/", api.me, name="api-me"),
    path("accounts/<str:username>/", api.account, name="api-account"),
]
