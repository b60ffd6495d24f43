from django.urls import path

from scoring import api, views

app_name = "scoring"

urlpatterns = [
    path("rulesets/", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<slug:slug>/table/", views.ruleset_score_table, name="score_table"),
    path("calculator/", views.calculator, name="calculator"),
    path("yaku-names/", views.yaku_names_choose, name="yaku_names"),
    path("api/evaluate", api.EvaluateView.as_view(), name="api_evaluate"),
    path("api/shape", api.ShapeView.as_view(), name="api_shape"),
]
