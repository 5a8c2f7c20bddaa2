from django.urls import path

from games.matches import views

urlpatterns = [
    path("match/<id:match_id>/", views.table, name="table"),
    path("match/<id:match_id>/replay/", views.replay, name="replay"),
    path("fair-play/verifier.pyz", views.deal_verifier, name="deal-verifier"),
]
