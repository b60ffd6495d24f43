from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("rulesets/", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<slug:slug>/table/", views.ruleset_score_table, name="score_table"),
]
