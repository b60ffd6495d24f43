from django.urls import path

from tournament.api import ClockView

app_name = "tournament_api"

urlpatterns = [
    path("tables/<int:table_id>/clock", ClockView.as_view(action="state"), name="clock"),
    path("tables/<int:table_id>/clock/start", ClockView.as_view(action="start"), name="clock_start"),
    path("tables/<int:table_id>/clock/press", ClockView.as_view(action="press"), name="clock_press"),
    path("tables/<int:table_id>/clock/pause", ClockView.as_view(action="pause"), name="clock_pause"),
    path("tables/<int:table_id>/clock/resume", ClockView.as_view(action="resume"), name="clock_resume"),
    path("tables/<int:table_id>/clock/flag", ClockView.as_view(action="flag"), name="clock_flag"),
    path("tables/<int:table_id>/clock/replay", ClockView.as_view(action="replay"), name="clock_replay"),
]
