from django.urls import path

from tournament import console

app_name = "console"

urlpatterns = [
    path("console/", console.my_tables, name="my_tables"),
    path("console/sw.js", console.service_worker, name="service_worker"),
    path("console/manifest.webmanifest", console.console_manifest, name="manifest"),
    path("console/tables/<int:table_id>/", console.table_sheet, name="table"),
    path("console/tables/<int:table_id>/penalty/", console.table_penalty, name="penalty"),
    path("console/tables/<int:table_id>/clock/", console.table_clock, name="clock"),
    path("console/tables/<int:table_id>/substitute/", console.table_substitute, name="substitute"),
    path("console/clocks", console.clocks, name="clocks"),
    path("k/<str:token>/", console.table_card, name="table_card"),
]
