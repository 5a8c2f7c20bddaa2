from django.urls import path

from games.lobby import api

urlpatterns = [
    path("lobby/<str:game>/", api.lobby, name="api-lobby"),
    path("queue/", api.queue, name="api-queue"),
]
