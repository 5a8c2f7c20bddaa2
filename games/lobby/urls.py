from django.urls import path

from games.lobby import views

urlpatterns = [
    path("challenges/", views.challenge_notice, name="challenge-notice"),
    path("play/<str:game>/", views.lobby, name="lobby"),
    path("play/<str:game>/computer/", views.play_computer, name="play-computer"),
    path("play/<str:game>/table/", views.new_table, name="new-table"),
    path("play/<str:game>/queue/", views.join_queue, name="join-queue"),
    path("play/<str:game>/queue/leave/", views.leave_queue, name="leave-queue"),
    path("play/<str:game>/challenge/", views.send_challenge, name="send-challenge"),
    path("play/<str:game>/challenge/<id:challenge_id>/", views.answer_challenge, name="answer-challenge"),
    path("play/<str:game>/challenge/<id:challenge_id>/cancel/", views.cancel_challenge, name="cancel-challenge"),
    path("match/<id:match_id>/rematch/", views.rematch, name="rematch"),
    path("rules/<str:game>/", views.rules, name="rules"),
]
