from django.urls import path

from profiles import views

app_name = "profiles"

urlpatterns = [
    path("players/", views.player_search, name="search"),
    path("players/<int:player_id>/", views.player_profile, name="player"),
    path("players/<int:player_id>/listed", views.player_listed, name="player_listed"),
]
