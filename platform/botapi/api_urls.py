from django.urls import path

from botapi import api

urlpatterns = [
    path("bots/", api.bots, name="api-bots"),
    path("bots/<str:name>/", api.bot_detail, name="api-bot"),
    path("bots/<str:name>/code/", api.upload, name="api-bot-code"),
    path("bots/<str:name>/matches/", api.challenge, name="api-bot-matches"),
]
