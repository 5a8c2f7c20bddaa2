from django.urls import path

from games.lobby import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<str:game>/", views.lobby, name="lobby"),
    path("rules/<str:game>/", views.rules, name="rules"),
]
