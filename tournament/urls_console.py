from django.urls import path

from tournament.console import clock, discipline, offline, reseat, sheet, substitutes, tables

app_name = "console"

urlpatterns = [
    path("console/", tables.my_tables, name="my_tables"),
    path("console/sw.js", offline.service_worker, name="service_worker"),
    path("console/manifest.webmanifest", offline.console_manifest, name="manifest"),
    path("console/tables/<int:table_id>/", sheet.table_sheet, name="table"),
    path("console/tables/<int:table_id>/penalty/", discipline.table_penalty, name="penalty"),
    path("console/tables/<int:table_id>/clock/", clock.table_clock, name="clock"),
    path("console/tables/<int:table_id>/substitute/", substitutes.table_substitute, name="substitute"),
    path("console/tables/<int:table_id>/reseat/", reseat.table_reseat_page, name="reseat"),
    path("console/clocks", clock.clocks, name="clocks"),
    path("k/<str:token>/", tables.table_card, name="table_card"),
]
