"""Roles in an event: co-organizers and referees (granted and revoked, never deleted), the scorekeepers'
table keys (a link and a PIN, no account), and the staff groups that carry the admin's model permissions.

A role says *which event* (and which tables) someone acts on; the model permissions of the groups say
*what kind of record* they may touch in the admin. The admin asks for both; the console and the API ask
for the role. Granting a role gives the person staff status and the matching group, so they can sign in
to the admin; their lists there show only the events they hold a role in.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import SignInCode
from taikai.errors import TaikaiError
from tournament.models import Event, EventRole, ScorekeeperKey, Table
from tournament.options import table_numbers_parse
from tournament.services.common import recorder
from tournament.services.locks import lock_event

ORGANIZERS_GROUP = "Organizers"
REFEREES_GROUP = "Referees"

TOURNAMENT_MODELS = (
    "event",
    "eventrole",
    "entry",
    "round",
    "table",
    "seat",
    "hand",
    "handversion",
    "seatresult",
    "standingssnapshot",
    "penalty",
    "ruling",
    "tableclock",
    "seatingjob",
    "scorekeeperkey",
    "apitoken",
    "team",
    "teammember",
)

GROUP_PERMISSIONS: dict[str, list[str]] = {
    ORGANIZERS_GROUP: [
        *(f"tournament.{verb}_{model}" for model in TOURNAMENT_MODELS for verb in ("add", "change", "view")),
        "tournament.delete_eventrole",  # revoking: the row stays, marked revoked
        "tournament.delete_entry",  # a registration made by mistake, before the player is seated
        "tournament.delete_team",
        "tournament.delete_teammember",  # teams are re-formed; results stay per player
        "players.add_player",
        "players.change_player",
        "players.view_player",
        "scoring.add_ruleset",
        "scoring.change_ruleset",
        "scoring.view_ruleset",
        # registration (an app built on this one, named here only as permissions)
        *(
            f"registration.{verb}_{model}"
            for model in ("registration", "signup", "blockedemail")
            for verb in ("add", "change", "view")
        ),
        "registration.delete_blockedemail",
        "registration.view_signupchange",
        "registration.view_signupmessage",
        # online games (gamelogs, an app built on this one) and the players' accounts there
        "gamelogs.view_gamelogimport",
        "gamelogs.view_disagreement",
        *(f"gamelogs.{verb}_onlineleague" for verb in ("add", "change", "view")),
        *(f"gamelogs.{verb}_confirmationwindow" for verb in ("add", "change", "view")),
        "gamelogs.view_playconfirmation",
        *(f"gamelogs.{verb}_onlinetable" for verb in ("add", "change", "delete", "view")),
        *(f"players.{verb}_onlineaccount" for verb in ("add", "change", "view", "delete")),
    ],
    REFEREES_GROUP: [
        *(
            f"tournament.view_{model}"
            for model in TOURNAMENT_MODELS
            if model not in ("eventrole", "scorekeeperkey", "apitoken")
        ),
        "tournament.add_penalty",
        "tournament.change_penalty",
        "tournament.add_ruling",
        "players.view_player",
        "scoring.view_ruleset",
        "gamelogs.view_gamelogimport",
        "gamelogs.view_disagreement",
    ],
}

ROLE_GROUP = {EventRole.Kind.ORGANIZER: ORGANIZERS_GROUP, EventRole.Kind.REFEREE: REFEREES_GROUP}


def staff_groups_install() -> None:
    """Create or update the Organizers and Referees groups with their model permissions (idempotent). The
    permissions are read in one query: this runs after every migrate, and so after each flush of a test
    database, where one query per permission was most of the flush's time."""
    named = {tuple(perm.split(".")) for perms in GROUP_PERMISSIONS.values() for perm in perms}
    pks_of: dict[tuple[str, str], set[int]] = {}
    for pk, app_label, codename in Permission.objects.filter(
        content_type__app_label__in={app_label for app_label, _codename in named},
        codename__in={codename for _app_label, codename in named},
    ).values_list("pk", "content_type__app_label", "codename"):
        pks_of.setdefault((app_label, codename), set()).add(pk)
    for name, perms in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.set({pk for perm in perms for pk in pks_of.get(tuple(perm.split(".")), ())})


def _staff_for(user, kind: str) -> None:
    """The admin needs staff status and the group's model permissions; the role limits them to the event."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    group = Group.objects.filter(name=ROLE_GROUP[kind]).first()
    if group is not None:
        user.groups.add(group)


ROLES_GENERATION_SECONDS = 86400


def roles_generation(event_id: int) -> str:
    """A token that changes whenever a role in the event is granted or revoked (after the commit): what a
    long-lived reader (a live stream) compares to know, with one cache read, when to ask the roles again.
    A token lost by the cache reads as ``""``, itself a change."""
    return cache.get(f"roles:generation:{event_id}") or ""


def _roles_changed(event_id: int) -> None:
    transaction.on_commit(
        lambda: cache.set(f"roles:generation:{event_id}", secrets.token_hex(8), ROLES_GENERATION_SECONDS)
    )


@transaction.atomic
def role_grant(*, event: Event, user, kind: str, tables: str = "", head: bool = False, by=None) -> EventRole:
    """Give ``user`` a role in ``event``. Changing a referee's tables (or whether they are a head referee)
    revokes the old grant and makes a new one. A head referee may also unlock a checked round."""
    if kind not in EventRole.Kind.values:
        raise TaikaiError(
            "invalid_role",
            _("the role is one of %(roles)s") % {"roles": ", ".join(EventRole.Kind.values)},
            field="kind",
        )
    if not user.is_active:
        raise TaikaiError(
            "user_inactive",
            _("%(user)s cannot sign in; activate the account first") % {"user": user},
            field="user",
        )
    try:
        numbers = table_numbers_parse(tables)
    except ValueError as exc:
        raise TaikaiError("invalid_tables", str(exc), field="tables") from exc
    if numbers and kind == EventRole.Kind.ORGANIZER:
        raise TaikaiError("invalid_tables", _("an organizer covers the whole event"), field="tables")
    if head and kind != EventRole.Kind.REFEREE:
        raise TaikaiError("invalid_head", _("only a referee is a head referee"), field="head")
    event = lock_event(event.pk)
    if kind == EventRole.Kind.ORGANIZER and event.owner_id == user.pk:
        raise TaikaiError(
            "role_held", _("%(user)s owns this event and organizes it already") % {"user": user}, field="user"
        )
    held = EventRole.objects.filter(event=event, user=user, kind=kind, revoked_at__isnull=True).first()
    if held is not None:
        if table_numbers_parse(held.tables) == numbers and held.head == bool(head):
            return held
        held.revoke(recorder(by))
    role = EventRole.objects.create(
        event=event, user=user, kind=kind, tables=tables.strip(), head=bool(head), granted_by=recorder(by)
    )
    _staff_for(user, kind)
    _roles_changed(event.pk)
    return role


@transaction.atomic
def role_revoke(*, role: EventRole, by=None) -> EventRole:
    """End a role; the row stays, naming who revoked it and when."""
    lock_event(role.event_id)
    role = EventRole.objects.select_for_update(no_key=True, of=("self",)).get(pk=role.pk)
    role.revoke(recorder(by))
    _roles_changed(role.event_id)
    return role


@dataclass(frozen=True)
class IssuedKey:
    """A table's new key as printed on its card: shown once, only digests are kept."""

    table: Table
    token: str
    pin: str


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _pin_digest(digest: str, pin: str) -> str:
    """A keyed digest of the PIN: the link's token is the secret, the PIN a second factor with few tries."""
    return hmac.new(settings.SECRET_KEY.encode(), f"{digest}:{pin}".encode(), hashlib.sha256).hexdigest()


@transaction.atomic
def scorekeeper_keys_issue(*, tables: list[Table], by=None) -> list[IssuedKey]:
    """A new link and PIN for each table; the table's earlier keys stop working."""
    if not tables:
        raise TaikaiError("no_tables", _("choose at least one table that is still playing"), field="tables")
    now = timezone.now()
    ScorekeeperKey.objects.filter(table__in=tables, revoked_at__isnull=True).update(
        revoked_at=now, revoked_by=recorder(by)
    )
    issued, rows = [], []
    for table in tables:
        token, pin = secrets.token_urlsafe(24), f"{secrets.randbelow(10**6):06d}"
        digest = token_digest(token)
        rows.append(
            ScorekeeperKey(table=table, token_digest=digest, pin_hash=_pin_digest(digest, pin), issued_by=recorder(by))
        )
        issued.append(IssuedKey(table=table, token=token, pin=pin))
    ScorekeeperKey.objects.bulk_create(rows)
    return issued


def scorekeeper_key_unlock(*, token: str, pin: str) -> ScorekeeperKey:
    """The key a table card's link and PIN open. A wrong PIN counts; after five the key is locked."""
    digest = token_digest(token)
    with transaction.atomic():
        key = (
            ScorekeeperKey.objects.select_for_update(no_key=True, of=("self",))
            .select_related("table__round__event")
            .filter(token_digest=digest)
            .first()
        )
        if key is None or key.revoked_at is not None:
            raise TaikaiError("key_invalid", _("this table card is no longer valid; ask a referee for a new one"))
        if key.locked:
            raise TaikaiError("key_locked", _("too many wrong PINs: ask a referee for a new table card"), field="pin")
        right = hmac.compare_digest(key.pin_hash, _pin_digest(digest, (pin or "").strip()))
        if not right:
            key.failed_pins += 1
            key.save(update_fields=["failed_pins"])
    if not right:
        left = key.MAX_FAILED_PINS - key.failed_pins
        if left:
            # The singular keeps today's English ("1 tries left"), which the pages are tested on.
            message = ngettext("wrong PIN (%(left)s tries left)", "wrong PIN (%(left)s tries left)", left) % {
                "left": left
            }
        else:
            message = _("wrong PIN: this card is now locked")
        raise TaikaiError("pin_wrong", message, field="pin")
    return key


@transaction.atomic
def scorekeeper_key_revoke(*, key: ScorekeeperKey, by=None) -> ScorekeeperKey:
    key = ScorekeeperKey.objects.select_for_update(no_key=True, of=("self",)).get(pk=key.pk)
    key.revoke(recorder(by))
    return key


SIGNIN_CODE_MINUTES = 30
SIGNIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud or off a phone


@dataclass(frozen=True)
class IssuedSigninCode:
    """A one-time sign-in code as the organizer reads it to the person: shown once, only a digest is kept."""

    role: EventRole
    code: str
    expires_at: object


def _organizes(user, event: Event) -> bool:
    if user is None:
        return False
    return (
        user.is_superuser
        or event.owner_id == user.pk
        or EventRole.objects.filter(
            event=event, user=user, kind=EventRole.Kind.ORGANIZER, revoked_at__isnull=True
        ).exists()
    )


@transaction.atomic
def signin_code_issue(*, role: EventRole, by) -> IssuedSigninCode:
    """A one-time code that lets the holder of ``role`` in through a sign-in lock, with their own password,
    within ``SIGNIN_CODE_MINUTES``. The organizer of the role's event gives it in person; the account's
    earlier unused codes stop working. Never for a superuser's account unless a superuser issues it."""
    role = EventRole.objects.select_related("event", "user").get(pk=role.pk)
    if not _organizes(by, role.event):
        raise TaikaiError("forbidden", _("only an organizer of %(event)s gives sign-in codes") % {"event": role.event})
    if role.revoked_at is not None:
        raise TaikaiError("role_revoked", _("%(user)s no longer holds this role") % {"user": role.user}, field="role")
    if role.user.is_superuser and not by.is_superuser:
        raise TaikaiError("superuser_account", _("only a superuser gives a sign-in code to a superuser"), field="role")
    now = timezone.now()
    SignInCode.objects.filter(user=role.user, used_at__isnull=True, void_at__isnull=True).update(void_at=now)
    code = "".join(secrets.choice(SIGNIN_CODE_ALPHABET) for _ in range(8))
    expires_at = now + timedelta(minutes=SIGNIN_CODE_MINUTES)
    SignInCode.objects.create(
        user=role.user, digest=SignInCode.digest_of(role.user.pk, code), issued_by=by, expires_at=expires_at
    )
    return IssuedSigninCode(role=role, code=f"{code[:4]}-{code[4:]}", expires_at=expires_at)
