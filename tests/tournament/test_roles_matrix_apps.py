"""Every write of teams and of the apps built on the tournament (registration, seasons, profiles) against every
role: who may write is allowed, everyone else is refused (403, or sent to sign in) with nothing written. The
world and the check are ``roles_matrix_world``'s; ``test_roles_matrix.py`` checks that every write path is in
one of these lists.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from gamelogs.models import ConfirmationWindow, Disagreement, GameLogImport, OnlineLeague, OnlineTable
from profiles.models import PlayerMerge
from registration.models import BlockedEmail, Registration, SignUp
from seasons.models import Series
from tests.fixtures.tournament import built_once
from tests.tournament.roles_matrix_world import (
    ORGANIZERS,
    REFEREES_AT_1,
    REFEREES_AT_2,
    ROLES,
    W,
    World,
    add,
    admin_action,
    api,
    build_world,
    change,
    delete,
    event_slug,
    event_url,
    merge_players,
    post,
    series,
    series_form,
    signed,
    table_pk,
    v1,
    write_checks_the_role,
)
from tournament.models import Team

pytestmark = [pytest.mark.django_db, pytest.mark.once]

APP_WRITES = [
    # teams (団体戦)
    W(
        "read the event's teams from CSV",
        post(
            event_url("teams_csv"),
            lambda w: {
                "csv_file": SimpleUploadedFile(
                    "t.csv",
                    f"team,player\nRed,{w.event.entries.first().player.display_name}\n".encode(),
                    content_type="text/csv",
                )
            },
        ),
        ORGANIZERS,
        "admin:tournament_event_teams_csv",
    ),
    W(
        "seat a substitute at table 1",
        post(
            lambda w: reverse("admin:tournament_table_substitute", args=[w.table_1.pk]),
            lambda w: {"seat": w.table_1.seats.get(position=3).pk, "name": "Stand In"},
        ),
        ORGANIZERS,
        "admin:tournament_table_substitute",
    ),
    W(
        "seat a substitute at table 1 from the console",
        post(
            lambda w: reverse("console:substitute", args=[w.table_1.pk]),
            lambda w: {"seat": w.table_1.seats.get(position=3).pk, "name": "Stand In"},
        ),
        REFEREES_AT_1,
        "console:substitute",
    ),
    W(
        "seat a substitute at table 2 from the console (a hand played: refused, but only for its referees)",
        post(
            lambda w: reverse("console:substitute", args=[w.table_2.pk]),
            lambda w: {"seat": w.table_2.seats.get(position=0).pk, "name": "Stand In"},
        ),
        REFEREES_AT_2,
        "console:substitute",
    ),
    W(
        "check round 1 through the API (locks it)",
        api(v1("round_check", event_slug, lambda w: 1)),
        REFEREES_AT_1,
        "api_v1:round_check",
    ),
    W(
        "unlock round 1 through the API, saying why",
        api(v1("round_unlock", event_slug, lambda w: 1), {"reason": "a result was typed wrong"}),
        {"owner", "superuser", "referee"},
        "api_v1:round_unlock",
    ),
    W(
        "seat the next round through the API (round 1 still playing: refused, but only for organizers)",
        api(v1("event_rounds", event_slug)),
        ORGANIZERS,
        "api_v1:event_rounds",
    ),
    W(
        "seat the next round through the API overriding its guards, with a reason",
        api(v1("event_rounds", event_slug), {"override": ["previous_round_unfinished"], "reason": "overtime"}),
        ORGANIZERS,
        "api_v1:event_rounds",
    ),
    W(
        "set round 1's announced start on its admin page",
        post(
            lambda w: reverse("admin:tournament_round_start", args=[w.round.pk]),
            lambda w: {"starts_at": "2030-05-01T10:00"},
        ),
        ORGANIZERS,
        "admin:tournament_round_start",
    ),
    W(
        'say "I am here" from a player\'s own page',
        post(lambda w: reverse("tournament:player_here", args=[w.event.slug, w.event.entries.first().pk])),
        {"player"},
    ),
    W(
        "check round 1 on its admin page (locks it)",
        post(lambda w: reverse("admin:tournament_round_check", args=[w.round.pk])),
        REFEREES_AT_1,
        "admin:tournament_round_check",
    ),
    W(
        "unlock round 1 on its admin page, saying why",
        post(
            lambda w: reverse("admin:tournament_round_unlock", args=[w.round.pk]),
            lambda w: {"reason": "a result was typed wrong"},
        ),
        {"owner", "superuser", "referee"},
        "admin:tournament_round_unlock",
    ),
    W(
        "seat a substitute at table 1 through the API",
        api(v1("table_substitutes", table_pk("table_1")), {"position": 3, "name": "Stand In"}),
        REFEREES_AT_1,
        "api_v1:table_substitutes",
    ),
    W(
        "seat a substitute at table 2 through the API",
        api(v1("table_substitutes", table_pk("table_2")), {"position": 0, "name": "Stand In"}),
        REFEREES_AT_2,
        "api_v1:table_substitutes",
    ),
    W(
        "import the event's fixed schedule",
        post(
            event_url("schedule"),
            lambda w: {
                "winds": "keep",
                "file": SimpleUploadedFile("s.csv", b"round,table,east,south,west,north\n", content_type="text/csv"),
            },
        ),
        ORGANIZERS,
        "admin:tournament_event_schedule",
    ),
    W(
        "bring a reserve of the team in",
        post(
            lambda w: reverse("admin:tournament_team_reserve_in", args=[w.event.teams.get().pk]),
            lambda w: {"round_number": 9, "member": 0, "reserve": 0},
        ),
        ORGANIZERS,
        "admin:tournament_team_reserve_in",
    ),
    W(
        "plan the whole event now",
        post(event_url("schedule"), lambda w: {"plan": "1"}),
        ORGANIZERS,
        "admin:tournament_event_schedule",
    ),
    W(
        "add a team to the event",
        add(
            Team, lambda w: {"event": w.event.pk, "name": "Blue", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0}
        ),
        ORGANIZERS,
        "add:tournament.team",
    ),
    W(
        "add a team to the other event",
        add(
            Team, lambda w: {"event": w.other.pk, "name": "Blue", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0}
        ),
        {"superuser", "organizer_elsewhere"},
    ),
    W(
        "rename the event's team",
        change(
            Team,
            lambda w: w.event.teams.get(),
            lambda w: {"event": w.event.pk, "name": "Renamed", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0},
        ),
        ORGANIZERS,
        "change:tournament.team",
    ),
    W("delete the event's team", delete(Team, lambda w: w.event.teams.get()), ORGANIZERS, "delete:tournament.team"),
    W(
        "delete teams",
        admin_action(Team, "delete_selected", lambda w: [w.event.teams.get().pk]),
        ORGANIZERS,
        "action:tournament.team.delete_selected",
    ),
    # registration: signing up is anyone's; the private link is only its sign-up's (NOT_ROLE_WRITES)
    W(
        "sign up for the event",
        post(
            lambda w: reverse("registration:sign_up", args=[w.event.slug]),
            lambda w: {"name": "New Face", "email": "new@example.org"},
        ),
        set(ROLES),
        "registration:sign_up",
    ),
    W(
        "check a player in at the desk",
        post(
            lambda w: reverse("registration:desk", args=[w.event.slug]),
            lambda w: {"action": "check_in", "sign_up": signed("Signed Confirmed")(w)[0]},
        ),
        ORGANIZERS,
        "registration:desk",
    ),
    W(
        "undo a check-in at the desk",
        post(
            lambda w: reverse("registration:desk", args=[w.event.slug]),
            lambda w: {"action": "undo_check_in", "sign_up": signed("Signed Confirmed")(w)[0]},
        ),
        ORGANIZERS,
    ),
    W(
        "approve a sign-up",
        admin_action(SignUp, "approve", signed("Signed Pending")),
        ORGANIZERS,
        "action:registration.signup.approve",
    ),
    W(
        "refuse a sign-up",
        admin_action(SignUp, "refuse", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.refuse",
    ),
    W(
        "refuse a sign-up of the other event",
        admin_action(SignUp, "refuse", signed("Signed Elsewhere")),
        {"superuser", "organizer_elsewhere"},
    ),
    W(
        "refuse a sign-up and block its address",
        admin_action(SignUp, "refuse_and_block", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.refuse_and_block",
    ),
    W(
        "move a sign-up to the top of the waiting list",
        admin_action(SignUp, "move_to_top", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.move_to_top",
    ),
    W(
        "merge a sign-up with its likely stored player",
        admin_action(SignUp, "merge_with_likely", signed("Signed Confirmed")),
        ORGANIZERS,
        "action:registration.signup.merge_with_likely",
    ),
    W(
        "confirm a sign-up's EMA number",
        admin_action(SignUp, "confirm_external_id", signed("Signed Confirmed")),
        ORGANIZERS,
        "action:registration.signup.confirm_external_id",
    ),
    W(
        "renew a sign-up's private link",
        admin_action(SignUp, "renew_link", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.renew_link",
    ),
    W(
        "export sign-ups",
        admin_action(SignUp, "export_csv", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.export_csv",
    ),
    W(
        "send the registration's reminders",
        admin_action(Registration, "send_reminders", lambda w: [w.event.registration.pk]),
        ORGANIZERS,
        "action:registration.registration.send_reminders",
    ),
    W(
        "open the other event's registration",
        add(
            Registration,
            lambda w: {
                "event": w.other.pk,
                "opens_at_0": "2026-01-01",
                "opens_at_1": "00:00",
                "closes_at_0": "2026-01-02",
                "closes_at_1": "00:00",
                "cap": 4,
                "asked": ["reading"],
                "required": [],
                "pending_per_email": 2,
            },
        ),
        {"superuser", "organizer_elsewhere"},
        "add:registration.registration",
    ),
    W(
        "change the event's registration",
        change(
            Registration,
            lambda w: w.event.registration,
            lambda w: {
                "event": w.event.pk,
                "opens_at_0": "2026-01-01",
                "opens_at_1": "00:00",
                "closes_at_0": "2030-01-02",
                "closes_at_1": "00:00",
                "cap": 3,
                "asked": ["reading"],
                "required": ["reading"],
                "pending_per_email": 2,
            },
        ),
        ORGANIZERS,
        "change:registration.registration",
    ),
    W(
        "block an address for the event",
        add(BlockedEmail, lambda w: {"event": w.event.pk, "email": "bot@example.org", "reason": "spam"}),
        ORGANIZERS,
        "add:registration.blockedemail",
    ),
    W(
        "change a blocked address",
        change(
            BlockedEmail,
            lambda w: w.event.blocked_emails.get(),
            lambda w: {"event": w.event.pk, "email": "spam2@example.org", "reason": "spam"},
        ),
        ORGANIZERS,
        "change:registration.blockedemail",
    ),
    W(
        "unblock an address",
        post(
            lambda w: reverse("admin:registration_blockedemail_delete", args=[w.event.blocked_emails.get().pk]),
            lambda w: {"post": "yes"},
        ),
        ORGANIZERS,
        "delete:registration.blockedemail",
    ),
    W(
        "unblock addresses",
        admin_action(BlockedEmail, "delete_selected", lambda w: [w.event.blocked_emails.get().pk]),
        ORGANIZERS,
        "action:registration.blockedemail.delete_selected",
    ),
    # seasons: a series is shared by its events; only an organizer of every one of them (or a superuser)
    # writes it, and an organizer adds only their own events
    W("add a series of the event", add(Series, series_form("event")), ORGANIZERS, "add:seasons.series"),
    W(
        "add a series of the other event",
        add(Series, series_form("other")),
        {"superuser", "organizer_elsewhere"},
        "add:seasons.series",
    ),
    W("add a series of both events", add(Series, series_form("event", "other")), {"superuser"}, "add:seasons.series"),
    W(
        "change the event's series",
        change(Series, series("event-series"), series_form("event")),
        ORGANIZERS,
        "change:seasons.series",
    ),
    W(
        "add the other event to the event's series",
        change(Series, series("event-series"), series_form("event", "other")),
        {"superuser"},
        "change:seasons.series",
    ),
    W(
        "change the series shared with the other event",
        change(Series, series("shared-series"), series_form("event", "other")),
        {"superuser"},
        "change:seasons.series",
    ),
    W(
        "delete the event's series",
        post(
            lambda w: reverse("admin:seasons_series_delete", args=[Series.objects.get(slug="event-series").pk]),
            lambda w: {"post": "yes"},
        ),
        ORGANIZERS,
        "delete:seasons.series",
    ),
    W(
        "delete the shared series",
        post(
            lambda w: reverse("admin:seasons_series_delete", args=[Series.objects.get(slug="shared-series").pk]),
            lambda w: {"post": "yes"},
        ),
        {"superuser"},
        "delete:seasons.series",
    ),
    W(
        "compute the event's series again",
        admin_action(Series, "recompute", lambda w: [series("event-series")(w).pk]),
        ORGANIZERS,
        "action:seasons.series.recompute",
    ),
    W(
        "compute the shared series again",
        admin_action(Series, "recompute", lambda w: [series("shared-series")(w).pk]),
        {"superuser"},
        "action:seasons.series.recompute",
    ),
    W(
        "delete the event's series from the list",
        admin_action(Series, "delete_selected", lambda w: [series("event-series")(w).pk]),
        ORGANIZERS,
        "action:seasons.series.delete_selected",
    ),
    W(
        "delete the shared series from the list",
        admin_action(Series, "delete_selected", lambda w: [series("shared-series")(w).pk]),
        {"superuser"},
        "action:seasons.series.delete_selected",
    ),
    # profiles: a player is shared by every event, so merging two is for an organizer of every event either
    # player has an entry in (or a superuser); switching a profile off is the player's own (tests/profiles)
    W(
        "merge a player of the event into a player of no event",
        merge_players(lambda w: w.newcomer_entry.player, lambda w: w.newcomer),
        ORGANIZERS,
        "admin:profiles_playermerge_merge",
    ),
    W(
        "merge a player of the other event into a player of the event",
        merge_players(lambda w: w.other.entries.first().player, lambda w: w.newcomer_entry.player),
        {"superuser"},
        "admin:profiles_playermerge_merge",
    ),
    W(
        "merge a player of the other event into a player of no event",
        merge_players(lambda w: w.other.entries.first().player, lambda w: w.newcomer),
        {"superuser", "organizer_elsewhere"},
        "admin:profiles_playermerge_merge",
    ),
    W(
        "undo a merge of a player of the event",
        admin_action(PlayerMerge, "undo", lambda w: [PlayerMerge.objects.get().pk]),
        ORGANIZERS,
        "action:profiles.playermerge.undo",
    ),
    W(
        "switch a player's public profile off",
        post(
            lambda w: reverse("profiles:player_listed", args=[w.event.entries.first().player_id]),
            lambda w: {"listed": "0"},
        ),
        set(),
        "profiles:player_listed",
    ),
]

GAME_LOG_WRITES = [
    W(
        "import a game log from the console (a log that is none: refused after the role, 400)",
        post(lambda w: reverse("gamelogs:console_import"), lambda w: {"event": w.event.pk, "log_text": "<x/>"}),
        REFEREES_AT_1,
        "gamelogs:console_import",
    ),
    W(
        "import a game log in the admin (a log that is none: refused after the role, 400)",
        post(
            lambda w: reverse("admin:gamelogs_gamelogimport_import"),
            lambda w: {"event": w.event.pk, "log_text": "<x/>"},
        ),
        REFEREES_AT_1,
        "admin:gamelogs_gamelogimport_import",
    ),
    W(
        "accept the log's scoring of a hand at table 1 from the console (no hand to confirm: refused after the role)",
        post(
            lambda w: reverse(
                "gamelogs:console_disagreement", args=[GameLogImport.objects.get().pk, Disagreement.objects.get().pk]
            ),
            lambda w: {"state": "accepted"},
        ),
        REFEREES_AT_1,
        "gamelogs:console_disagreement",
    ),
    W(
        "accept the log's scoring of a hand at table 1 in the admin",
        admin_action(Disagreement, "accept", lambda w: [Disagreement.objects.get().pk]),
        REFEREES_AT_1,
        "action:gamelogs.disagreement.accept",
    ),
    W(
        "mark a hand at table 1 corrected in the admin (not corrected: refused after the role)",
        admin_action(Disagreement, "mark_corrected", lambda w: [Disagreement.objects.get().pk]),
        REFEREES_AT_1,
        "action:gamelogs.disagreement.mark_corrected",
    ),
    W(
        "set up the event's online league (it has one: the form says so, 200)",
        add(OnlineLeague, lambda w: {"event": w.event.pk, "lobby": "1234"}),
        ORGANIZERS,
        "add:gamelogs.onlineleague",
    ),
    W(
        "name the online league's lobby",
        change(
            OnlineLeague,
            lambda w: w.event.online_league,
            lambda w: {
                "lobby": "1234",
                "max_log_age_days": "30",
                "platform": "tenhou",
                "table_start": "tournament_lobby",
                "lobby_adapter": "manual",
                "unconfirmed": "left_out",
            },
        ),
        ORGANIZERS,
        "change:gamelogs.onlineleague",
    ),
    W(
        "open a confirmation window for round 2",
        add(
            ConfirmationWindow,
            lambda w: {"event": w.event.pk, "round_number": 2, "closes_at_0": "2030-01-01", "closes_at_1": "20:00"},
        ),
        ORGANIZERS,
        "add:gamelogs.confirmationwindow",
    ),
    W(
        "move the close of round 2's confirmation window",
        change(
            ConfirmationWindow,
            lambda w: ConfirmationWindow.objects.get(event=w.event),
            lambda w: {"event": w.event.pk, "round_number": 2, "closes_at_0": "2030-01-02", "closes_at_1": "20:00"},
        ),
        ORGANIZERS,
        "change:gamelogs.confirmationwindow",
    ),
    W(
        "close round 2's confirmation window (not due: refused after the role)",
        admin_action(ConfirmationWindow, "close_now", lambda w: [ConfirmationWindow.objects.get(event=w.event).pk]),
        ORGANIZERS,
        "action:gamelogs.confirmationwindow.close_now",
    ),
    W(
        "flag table 2 online (a hybrid round)",
        add(OnlineTable, lambda w: {"table": w.table_2.pk}),
        ORGANIZERS,
        "add:gamelogs.onlinetable",
    ),
]
APP_WRITES += GAME_LOG_WRITES

CASES = [(write, role) for write in APP_WRITES for role in ROLES]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module; each case runs in a savepoint rolled back after it, so every write is
    tried against the world exactly as built."""
    yield from built_once(django_db_blocker, build_world)


@pytest.mark.parametrize(("write", "role"), CASES, ids=[f"{w.name} as {r}" for w, r in CASES])
def test_write_path_checks_the_role(world, write, role):
    write_checks_the_role(world, write, role)
