from django.urls import path

from botapi import views

urlpatterns = [path("bots/", views.bots, name="bots")]
