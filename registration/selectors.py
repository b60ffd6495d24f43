"""Every read of registration, for the pages, the admin and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, Exists, OuterRef, Q, Value, When
from django.utils.translation import gettext

from players.models import Player
from players.reading import search_keys, search_needle, search_text
from profiles.models import PlayerMerge
from registration.models import Registration, SignUp
from tournament.models import Entry, Event, Round, Seat

State = SignUp.State
MISSING_SHOWN = 200  # the check-in page lists at most this many players still missing


@dataclass(frozen=True)
class Counts:
    pending: int
    confirmed: int
    waiting: int
    withdrawn: int
    refused: int
    checked_in: int


def registration_of(event: Event) -> Registration | None:
    return Registration.objects.filter(event=event).first()


def sign_up_counts(event: Event) -> Counts:
    counts = SignUp.objects.filter(event=event).aggregate(
        **{state: Count("pk", filter=Q(state=state)) for state in State.values},
        checked_in=Count("pk", filter=Q(state=State.CONFIRMED, checked_in_at__isnull=False)),
    )
    return Counts(**counts)


def places_left(registration: Registration) -> int:
    """The places not taken by a confirmed sign-up (below 0 after the cap was lowered)."""
    return registration.cap - SignUp.objects.filter(event_id=registration.event_id, state=State.CONFIRMED).count()


def waiting_first(registration: Registration) -> list[SignUp]:
    """The waiting players the places left would go to, in the waiting list's order."""
    places = max(0, places_left(registration))
    waiting = SignUp.objects.filter(event_id=registration.event_id, state=State.WAITING).select_related("event")
    return list(waiting.order_by("rank")[:places]) if places else []


def registration_under_way(registration: Registration) -> bool:
    """Check-in is closed or round 1 is seated: a place freed now is not a place at the start, so the waiting
    list is no longer promoted by itself (the desk gives a free place to a waiting player who comes, or an
    organizer promotes knowingly, told who would be promoted)."""
    started = (Event.Status.RUNNING, Event.Status.FINISHED)
    return (
        registration.checkin_closed_at is not None
        or Event.objects.filter(pk=registration.event_id, status__in=started).exists()
    )


def waiting_place(sign_up: SignUp) -> int | None:
    """Where a waiting sign-up stands in the waiting list (1: next to get a place)."""
    if sign_up.state != State.WAITING:
        return None
    return SignUp.objects.filter(event_id=sign_up.event_id, state=State.WAITING, rank__lte=sign_up.rank).count()


def missing_at_check_in(event: Event) -> list[SignUp]:
    return list(
        SignUp.objects.filter(event=event, state=State.CONFIRMED, checked_in_at__isnull=True).order_by(
            "reading", "name"
        )[:MISSING_SHOWN]
    )


def checked_in_sign_up(event: Event, pk: str | None) -> SignUp | None:
    """The sign-up ``pk`` of the event, if it is checked in (the desk offers to undo a tap)."""
    if not (pk or "").isdigit():
        return None
    return SignUp.objects.filter(event=event, pk=int(pk), checked_in_at__isnull=False).first()


def sign_ups_found(event: Event, query: str, *, limit: int = 20) -> list[SignUp]:
    """The desk's search, matched as the public pages match a player (``players.reading``: the name, its kana
    reading in hiragana or katakana, its romaji, folded), or the club, or the e-mail address exactly; confirmed
    first, then waiting. The event's sign-ups are matched here, not in the database: a waiting one has no
    player (and so no stored search keys) yet."""
    needle = search_needle(query)
    if not needle:
        return []
    address = query.strip().lower()
    candidates = (
        SignUp.objects.filter(event=event, state__in=(State.CONFIRMED, State.WAITING))
        .select_related("entry")
        .order_by("state", "reading", "name")
    )
    found = []
    for sign_up in candidates.iterator(chunk_size=500):
        if needle in search_text(sign_up.name, sign_up.reading, sign_up.club) or sign_up.email == address:
            found.append(sign_up)
            if len(found) == limit:
                break
    return found


def _same_name(sign_up: SignUp) -> Q:
    """Stored players named as the sign-up is, in the public search's normal form (``players.reading``): the
    name, the reading in kana or in romaji (long vowels written out or not), case, width and spaces aside;
    so 「鈴木一郎」, 「すずき いちろう」 and "Suzuki Ichiro" name 鈴木 一郎 read すずき いちろう. ``Player.search``
    holds a player's keys separated by spaces: a key is matched whole, never as a part of a longer one."""
    same = Q(pk__in=[])
    for key in search_keys(sign_up.name, sign_up.reading):
        same |= (
            Q(search=key)
            | Q(search__startswith=f"{key} ")
            | Q(search__endswith=f" {key}")
            | Q(search__contains=f" {key} ")
        )
    return same


def likely_matches(sign_up: SignUp, *, limit: int = 5) -> list[Player]:
    """Stored players who may be this person, for the organizer to merge or keep apart (never merged by
    itself): first the one holding the EMA number or other id the sign-up gives (a claim, never a link by
    itself), then those of the same name or reading (``_same_name``), those of the same club first. A player
    merged away into another, or already a player of the event, is not offered by name (they cannot be
    merged with). None once the sign-up is merged with a stored player."""
    if sign_up.entry_id and not sign_up.own_player:
        return []
    merged_away = Exists(PlayerMerge.objects.filter(undone_at__isnull=True, merged_id=OuterRef("pk")))
    entered = Exists(Entry.objects.filter(event_id=sign_up.event_id, player_id=OuterRef("pk")))
    other_club = Value(1)
    if sign_up.club:
        other_club = Case(When(club__iexact=sign_up.club, then=Value(0)), default=Value(1))
    by_name = (
        Player.objects.filter(_same_name(sign_up))
        .exclude(merged_away)
        .exclude(entered)
        .annotate(other_club=other_club)
        .order_by("other_club", "pk")
    )
    by_id = Player.objects.filter(external_id=sign_up.external_id) if sign_up.external_id else Player.objects.none()
    if sign_up.entry_id:
        by_id = by_id.exclude(pk=sign_up.entry.player_id)
    found = list(by_id[:1])
    return found + [p for p in by_name[:limit] if p not in found][: limit - len(found)]


def likely_reason(sign_up: SignUp, player: Player) -> str:
    """Why ``player`` is offered for ``sign_up``: the same EMA number, the same name, or the same reading."""
    if sign_up.external_id and player.external_id == sign_up.external_id:
        return gettext("same EMA number")
    if search_needle(sign_up.name) in search_keys(player.display_name):
        return gettext("same name")
    return gettext("same reading")


def sign_up_seat(sign_up: SignUp) -> Seat | None:
    """Where the player sits in the latest published round, once it is published."""
    if sign_up.entry_id is None:
        return None
    shown = (Round.Status.PUBLISHED, Round.Status.PLAYING, Round.Status.COMPLETED)
    return (
        Seat.objects.filter(entry_id=sign_up.entry_id, table__round__status__in=shown)
        .select_related("table__round")
        .order_by("-table__round__number")
        .first()
    )
