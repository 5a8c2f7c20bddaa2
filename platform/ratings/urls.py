from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:game>/", views.leaderboard, name="leaderboard"),
]
