from django.urls import path

from tournament import views

app_name = "tournament"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("events/<slug:slug>/", views.event_home, name="event"),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path("events/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/hands.csv", views.hands_csv, name="hands_csv"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_seating, name="round"),
    path("events/<slug:slug>/venue/", views.venue, name="venue"),
    path("events/<slug:slug>/players/<int:entry_id>/", views.player_page, name="player"),
    path("me/<str:token>/", views.player_link, name="player_link"),
]
