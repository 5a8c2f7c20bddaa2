from django.urls import path

from ratings import api

urlpatterns = [
    path("leaderboards/<str:game>/", api.Leaderboard.as_view(), name="api-leaderboard"),
    path("high-scores/<str:game>/", api.HighScores.as_view(), name="api-high-scores"),
    path("ratings/<str:username>/", api.AccountRatings.as_view(), name="api-account-ratings"),
    path("bluffs/<str:username>/", api.AccountBluffs.as_view(), name="api-account-bluffs"),
    path("ratings/<str:username>/<str:game>/", api.AccountHistory.as_view(), name="api-account-history"),
]
