from django.urls import path

from fairplay import views

urlpatterns = [
    path("staff/fair-play/", views.review, name="fairplay-review"),
    path("staff/fair-play/<id:flag_id>/", views.act, name="fairplay-act"),
]
