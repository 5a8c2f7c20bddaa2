from django.urls import path

from botapi import views

urlpatterns = [
    path("bots/", views.bots, name="bots"),
    path("bots/new/", views.create, name="bot-create"),
    path("bots/client/dubium_bot.py", views.client_file, name="bot-client"),
    path("bots/client/examples/<str:example>.py", views.client_file, name="bot-client-example"),
    path("bots/protocol/", views.protocol, name="bot-protocol"),
    path("bots/protocol/<str:game>/", views.protocol, name="bot-protocol-game"),
    path("bots/<str:name>/token/", views.token, name="bot-token"),
    path("bots/<str:name>/code/", views.upload, name="bot-upload"),
    path("bots/<str:name>/webhook/", views.webhook, name="bot-webhook"),
    path("bots/<str:name>/ladder/", views.ladder, name="bot-ladder"),
    path("bots/<str:name>/challenge/", views.challenge, name="bot-challenge"),
]
