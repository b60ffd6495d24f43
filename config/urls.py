from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog

from config.health import healthz
from config.login_throttle import ThrottledAdminAuthenticationForm, ThrottledAuthenticationForm
from config.statement import accessibility_statement
from ops.metrics import metrics
from ops.probes import livez

admin.site.site_header = _("Taikai administration")
admin.site.site_title = "Taikai"
admin.site.index_title = _("Run your events")
admin.site.login_form = ThrottledAdminAuthenticationForm

# The ``api_v1`` namespace: the tournament's API, and registration's and the archive's (built on tournament)
# beside it.
API_V1 = [
    path("", include("tournament.urls_api_v1")),
    path("events/<slug:slug>/", include("registration.api")),
    path("", include("archive.api")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("metrics", metrics, name="metrics"),
    path("i18n/", include("accounts.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript_catalog"),
    path("accessibility/", accessibility_statement, name="accessibility"),
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=ThrottledAuthenticationForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournament.urls_console")),
    path("", include("gamelogs.views")),
    path("", include("live.urls")),
    path("", include("registration.urls")),
    path("", include("seasons.urls")),
    path("api/v1/series/", include("seasons.api")),  # before api/v1/: seasons is built on tournament
    path("api/v1/profiles/", include("profiles.api")),  # before api/v1/: profiles is built on tournament
    path("api/v1/", include("gamelogs.api")),  # before tournament's api/v1/: gamelogs is built on tournament
    path("", include("profiles.urls")),
    path("api/v1/", include((API_V1, "api_v1"))),
    path("api/", include("tournament.urls_api")),
    path("scoring/", include("scoring.urls")),
    path("", include("tournament.urls_public")),
]

handler400 = "config.middleware.bad_request"
handler404 = "config.middleware.page_not_found"
