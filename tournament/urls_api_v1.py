"""``/api/v1/``: the tournament's REST API (:mod:`tournament.api_v1`), the OpenAPI schema of the whole API and
its docs page. ``config/urls.py`` mounts it in the ``api_v1`` namespace, with registration's paths beside it;
the path converters (``id``, ``n``) are ``core.converters``'."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournament.api_v1 import events, exports, tables, teams

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api_v1:schema"), name="docs"),
    path("events/", events.EventList.as_view(), name="events"),
    path("events/<slug:slug>/", events.EventDetail.as_view(), name="event"),
    path("events/<slug:slug>/rules", events.EventRules.as_view(), name="event_rules"),
    path("events/<slug:slug>/entries", events.EventEntries.as_view(), name="event_entries"),
    path("events/<slug:slug>/rounds", events.EventRounds.as_view(), name="event_rounds"),
    path("events/<slug:slug>/rounds/<n:number>/seating", events.RoundSeating.as_view(), name="round_seating"),
    path("events/<slug:slug>/rounds/<n:number>/check", events.RoundCheckView.as_view(), name="round_check"),
    path("events/<slug:slug>/rounds/<n:number>/unlock", events.RoundUnlockView.as_view(), name="round_unlock"),
    path("events/<slug:slug>/standings", events.EventStandings.as_view(), name="event_standings"),
    path("events/<slug:slug>/rulings", events.EventRulings.as_view(), name="event_rulings"),
    path("events/<slug:slug>/teams", teams.EventTeams.as_view(), name="event_teams"),
    path("events/<slug:slug>/team-standings", teams.EventTeamStandings.as_view(), name="event_team_standings"),
    path(
        "events/<slug:slug>/teams/<id:team_id>/reserve-in",
        teams.TeamReserveIn.as_view(),
        name="team_reserve_in",
    ),
    path("events/<slug:slug>/tokens", events.EventTokens.as_view(), name="event_tokens"),
    path(
        "events/<slug:slug>/tokens/<id:token_id>/revoke",
        events.EventTokenRevoke.as_view(),
        name="event_token_revoke",
    ),
    path("events/<slug:slug>/export.csv", exports.StandingsCsv.as_view(), name="export_csv"),
    path("events/<slug:slug>/results.ema", exports.ResultsEma.as_view(), name="results_ema"),
    path("players/", events.PlayerList.as_view(), name="players"),
    path("tables/<id:table_id>/", tables.TableDetail.as_view(), name="table"),
    path("tables/<id:table_id>/hands", tables.TableHands.as_view(), name="table_hands"),
    path("tables/<id:table_id>/hands/<n:number>/versions", tables.HandVersions.as_view(), name="hand_versions"),
    path("tables/<id:table_id>/hands/<n:number>/void", tables.HandVoid.as_view(), name="hand_void"),
    path("tables/<id:table_id>/result", tables.TableResult.as_view(), name="table_result"),
    path("tables/<id:table_id>/penalties", tables.TablePenalties.as_view(), name="table_penalties"),
    path("tables/<id:table_id>/absences", tables.TableAbsences.as_view(), name="table_absences"),
    path("tables/<id:table_id>/absences/<n:position>", tables.TableAbsence.as_view(), name="table_absence"),
    path("tables/<id:table_id>/rulings", tables.TableRulings.as_view(), name="table_rulings"),
    path("tables/<id:table_id>/substitutes", tables.TableSubstitutes.as_view(), name="table_substitutes"),
    path("tables/<id:table_id>/reseat", tables.TableReseatView.as_view(), name="table_reseat"),
    path("tables/<id:table_id>/clock", tables.ClockState.as_view(), name="clock"),
    path("tables/<id:table_id>/clock/start", tables.ClockStart.as_view(), name="clock_start"),
    path("tables/<id:table_id>/clock/press", tables.ClockPress.as_view(), name="clock_press"),
    path("tables/<id:table_id>/clock/pause", tables.ClockPause.as_view(), name="clock_pause"),
    path("tables/<id:table_id>/clock/resume", tables.ClockResume.as_view(), name="clock_resume"),
    path("tables/<id:table_id>/clock/flag", tables.ClockFlag.as_view(), name="clock_flag"),
]
