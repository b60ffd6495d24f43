from django.urls import path

from live import streams, views

app_name = "live"

urlpatterns = [
    path("console/board/", views.board_pick, name="board"),
    path("console/board/<slug:slug>/", views.board, name="board_event"),
    path("console/board/<slug:slug>/allowance", views.allowance_give, name="allowance"),
    path("console/tables/<int:table_id>/call", views.call_referee, name="call"),
    path("console/calls/<int:call_id>/take", views.call_take, name="call_take"),
    path("console/calls/<int:call_id>/close", views.call_close, name="call_close"),
    path("events/<slug:slug>/live", streams.event_live, name="event_live"),
    path("console/tables/<int:table_id>/live", streams.table_live, name="table_live"),
]
