from django.urls import path

from tournament import views

app_name = "tournament"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("manifest.webmanifest", views.web_manifest, name="web_manifest"),
    path("events/<slug:slug>/", views.event_home, name="event"),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path("events/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/teams/", views.teams, name="teams"),
    path("events/<slug:slug>/teams.csv", views.teams_csv, name="teams_csv"),
    path("events/<slug:slug>/hands.csv", views.hands_csv, name="hands_csv"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_seating, name="round"),
    path("events/<slug:slug>/venue/", views.venue, name="venue"),
    path("events/<slug:slug>/players/<int:entry_id>/", views.player_page, name="player"),
    path(
        "events/<slug:slug>/players/<int:entry_id>/account",
        views.player_account_link,
        name="player_account_link",
    ),
    path("events/<slug:slug>/players/<int:entry_id>/here", views.player_here, name="player_here"),
    path("me/<str:token>/", views.player_link, name="player_link"),
    path("events/<slug:slug>/ema/", views.ema_results, name="ema"),
]
