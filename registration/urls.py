from django.urls import path

from registration import views

app_name = "registration"

urlpatterns = [
    path("events/<slug:slug>/register/", views.sign_up, name="sign_up"),
    path("r/<str:token>/", views.private, name="private"),
    path("console/events/<slug:slug>/check-in/", views.desk, name="desk"),
]
