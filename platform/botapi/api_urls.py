from django.urls import path

from botapi import api, events

urlpatterns = [
    path("stream/event", events.stream_event, name="api-stream-event"),
    path("bots/", api.bots, name="api-bots"),
    path("bots/challenges/", api.challenges, name="api-bot-challenges"),
    path("bots/challenges/<id:challenge_id>/accept/", api.answer_challenge, {"answer": "accept"}),
    path("bots/challenges/<id:challenge_id>/decline/", api.answer_challenge, {"answer": "decline"}),
    path("bots/<str:name>/", api.bot_detail, name="api-bot"),
    path("bots/<str:name>/token/", api.token, name="api-bot-token"),
    path("bots/<str:name>/code/", api.upload, name="api-bot-code"),
    path("bots/<str:name>/webhook/", api.webhook, name="api-bot-webhook"),
    path("bots/<str:name>/ladder/", api.ladder, name="api-bot-ladder"),
    path("bots/<str:name>/matches/", api.challenge, name="api-bot-matches"),
]
