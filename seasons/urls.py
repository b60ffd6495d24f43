from django.urls import path

from seasons import views

app_name = "seasons"

urlpatterns = [
    path("series/<slug:slug>/", views.standings, name="standings"),
    path("series/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("series/<slug:slug>/rating/", views.rating, name="rating"),
]
