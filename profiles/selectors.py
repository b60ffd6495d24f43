"""Every read of the profiles app: a player's public profile (their events, places, points and hands), the
search over every player, and what a merge of two players would move.

Public means: the player has an entry in a public event, has not switched their profile off
(``ProfileSetting.listed``) and is not merged away into another player (a ``PlayerMerge`` in force). Only
public events are shown, and of an event that hides its last rounds' standings, only the hands of the
rounds its public standings show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from players.countries import country_code
from players.models import Player
from players.ordering import player_name_order
from players.reading import search_needle
from profiles.models import PlayerMerge, ProfileSetting
from taikai.errors import TaikaiError
from tournament.models import Entry, Event, HandVersion, Round, Seat

WINNING = (HandVersion.Outcome.RON, HandVersion.Outcome.TSUMO)
STANDING_FIELDS = ("rank", "total_points", "games")


# --- Who is shown ---------------------------------------------------------------------------------------


def merges_in_force() -> QuerySet:
    return PlayerMerge.objects.filter(undone_at__isnull=True)


def _merged_away(path: str = "pk") -> Exists:
    return Exists(merges_in_force().filter(merged_id=OuterRef(path)))


def _opted_out(path: str = "pk") -> Exists:
    return Exists(ProfileSetting.objects.filter(player_id=OuterRef(path), listed=False))


def _in_a_public_event(path: str = "pk") -> Exists:
    return Exists(Entry.objects.filter(player_id=OuterRef(path), event__is_public=True))


@dataclass(frozen=True)
class ProfileHead:
    """What decides whether and how a profile is shown, read in one query."""

    player: Player
    listed: bool  # the player's choice (no setting: listed)
    merged_into: int | None  # the kept player's id while this one is merged away
    public: bool  # has an entry in a public event


def profile_head(player_id: int) -> ProfileHead | None:
    kept = merges_in_force().filter(merged_id=OuterRef("pk")).values("kept_id")[:1]
    player = (
        Player.objects.filter(pk=player_id)
        .annotate(merged_into=Subquery(kept), opted_out=_opted_out(), public=_in_a_public_event())
        .first()
    )
    if player is None:
        return None
    return ProfileHead(player, not player.opted_out, player.merged_into, player.public)


def player_is_listed(player_id: int) -> bool:
    return not ProfileSetting.objects.filter(player_id=player_id, listed=False).exists()


# --- The profile page -----------------------------------------------------------------------------------


def player_public_entries(player: Player) -> QuerySet:
    """The player's entries in public events, newest event first, each with its event and its line of the
    standings (``standing_rank``, ``standing_total_points``, ``standing_games``: None before any): a queryset
    the caller pages (one query a page, and a count)."""
    lines = {f"standing_{name}": F(f"standings_rows__{name}") for name in STANDING_FIELDS}
    return (
        Entry.objects.filter(player=player, event__is_public=True)
        .select_related("event")
        .annotate(**lines)
        .order_by(F("event__starts_on").desc(nulls_last=True), "-event_id")
    )


@dataclass
class HandCounts:
    """A player's hands in one event (or several), from the hands recorded hand by hand, in force."""

    wins: int = 0
    tsumo: int = 0
    ron: int = 0
    deal_ins: int = 0  # 放銃: won from by ron on the player's discard
    yaku: Counter = field(default_factory=Counter)  # yaku key → wins that named it

    def add(self, other: HandCounts) -> None:
        self.wins += other.wins
        self.tsumo += other.tsumo
        self.ron += other.ron
        self.deal_ins += other.deal_ins
        self.yaku.update(other.yaku)

    @property
    def yaku_rows(self) -> list[tuple[str, int]]:
        """(yaku key, count), most frequent first."""
        return sorted(self.yaku.items(), key=lambda item: (-item[1], item[0]))


def entries_hand_counts(entries: list[Entry]) -> dict[int, HandCounts]:
    """Entry id → ``HandCounts`` for the entries given (a page of a profile): two queries whatever their
    number, reading the seats of their tables and the winning hands in force there (never a draft round,
    nor a round the event's public standings hide). A seat's number in a hand is its place among the game's
    seats (art. 42: a player absent before the game is not one), as the hand services record it."""
    ids = [entry.pk for entry in entries if entry.event.entry_mode == Event.EntryMode.HANDS]
    counts = {entry.pk: HandCounts() for entry in entries}
    if not ids:
        return counts
    shown = ~Q(round__status=Round.Status.DRAFT) & (
        Q(round__event__standings_snapshot__hidden_from_round__isnull=True)
        | Q(round__number__lt=F("round__event__standings_snapshot__hidden_from_round"))
    )
    seats = (
        Seat.objects.filter(shown, table_id__in=Seat.objects.filter(entry_id__in=ids).values("table_id"))
        .exclude(absence=Seat.Absence.ABSENT_BEFORE)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    )
    index: dict[int, list[tuple[int, int]]] = {}  # table id → (entry id, its place among the game's seats)
    game: dict[int, int] = {}
    for table_id, entry_id in seats:
        place = game.get(table_id, 0)
        game[table_id] = place + 1
        if entry_id in counts:
            index.setdefault(table_id, []).append((entry_id, place))
    if not index:
        return counts
    wins = (
        HandVersion.objects.in_force()
        .filter(hand__table_id__in=list(index), outcome__in=WINNING)
        .values_list("hand__table_id", "wins")
    )
    for table_id, hand_wins in wins:
        for entry_id, own in index[table_id]:
            _tally_wins(counts[entry_id], hand_wins or (), own)
    return counts


def _tally_wins(tally: HandCounts, wins, own: int) -> None:
    for win in wins:
        if win.get("winner") == own:
            tally.wins += 1
            if win.get("discarder") is None:
                tally.tsumo += 1
            else:
                tally.ron += 1
            tally.yaku.update(str(y[0]) for y in win.get("yaku") or () if y)
        elif win.get("discarder") == own:
            tally.deal_ins += 1


# --- Search ---------------------------------------------------------------------------------------------

QUERY_LENGTH = 80  # of a search, in characters: the rest is left out


def search_query(raw: str | None) -> str:
    """A search as typed (the page's box, the API's ``q``), trimmed and cut to ``QUERY_LENGTH``."""
    return (raw or "").strip()[:QUERY_LENGTH]


def players_search(query: str) -> QuerySet:
    """Players shown publicly whose name or reading (kanji, kana, romaji), club, country (a code or a name:
    JP, JPN, Japan, 日本) or external id such as an EMA number matches ``query``; in the reader's name order.
    A queryset the caller pages. An empty query finds nobody."""
    query = " ".join(query.split())
    needle = search_needle(query)
    if not needle:
        return Player.objects.none()
    matches = Q(search__contains=needle) | Q(club__icontains=query) | Q(external_id__iexact=query)
    code = country_code(query)
    if code:
        matches |= Q(country=code)
    return (
        Player.objects.filter(matches)
        .filter(_in_a_public_event())
        .exclude(_merged_away())
        .exclude(_opted_out())
        .order_by(*player_name_order())
    )


def with_public_history(players: QuerySet) -> QuerySet:
    """``players`` each with what tells namesakes apart: their newest public event (``latest_event_name``,
    ``latest_event_starts_on``; the one their profile lists first) and how many public events they entered
    (``public_events``). Subqueries of the same query: a page of players is read in one query, whatever
    their history. A private event is never named nor counted."""
    public = Entry.objects.filter(player_id=OuterRef("pk"), event__is_public=True)
    newest = public.order_by(F("event__starts_on").desc(nulls_last=True), "-event_id")
    counted = public.order_by().values("player_id").annotate(n=Count("event_id", distinct=True)).values("n")
    return players.annotate(
        latest_event_name=Subquery(newest.values("event__name")[:1]),
        latest_event_starts_on=Subquery(newest.values("event__starts_on")[:1]),
        public_events=Subquery(counted),
    )


# --- Merging --------------------------------------------------------------------------------------------


def player_event_ids(*players: Player) -> set[int]:
    """The events in which any of ``players`` has an entry (whoever organizes them)."""
    return set(Entry.objects.filter(player__in=players).values_list("event_id", flat=True))


def merge_in_force_of(player: Player) -> PlayerMerge | None:
    """The merge that took ``player`` away into another, while in force."""
    return merges_in_force().filter(merged=player).first()


@dataclass(frozen=True)
class MovedEntry:
    entry: Entry
    refusal: str  # why it cannot move ("" : it can)


@dataclass(frozen=True)
class MergePreview:
    kept: Player
    merged: Player
    entries: list[MovedEntry]  # each entry of the duplicate, with its event
    problems: list[TaikaiError]  # the refusals; empty: the merge may go ahead
    moves_account: bool  # the duplicate's account link goes to the kept player
    moves_external_id: str  # the duplicate's external id goes to the kept player ("": none)

    @property
    def allowed(self) -> bool:
        return not self.problems


def merge_preview(*, kept: Player, merged: Player) -> MergePreview:
    """What merging ``merged`` into ``kept`` would move, and every reason it would be refused."""
    entries = list(Entry.objects.filter(player=merged).select_related("event").order_by("event__starts_on", "event_id"))
    shared = set(
        Entry.objects.filter(player=kept, event_id__in=[e.event_id for e in entries]).values_list("event_id", flat=True)
    )
    problems: list[TaikaiError] = []
    if kept.pk == merged.pk:
        problems.append(TaikaiError("merge_same_player", _("a player cannot be merged into themself"), field="merged"))
    if merges_in_force().filter(merged=kept).exists():
        problems.append(
            TaikaiError(
                "merge_into_merged",
                _("%(player)s is merged away into another player: merge into that player") % {"player": kept},
                field="kept",
            )
        )
    if kept.pk != merged.pk and merges_in_force().filter(merged=merged).exists():
        problems.append(
            TaikaiError(
                "merge_already_merged", _("%(player)s is already merged away") % {"player": merged}, field="merged"
            )
        )
    rows = []
    for entry in entries:
        refusal = ""
        if entry.event_id in shared and kept.pk != merged.pk:
            refusal = _("both players have an entry in %(event)s") % {"event": entry.event}
            problems.append(TaikaiError("merge_same_event", refusal, field="merged"))
        rows.append(MovedEntry(entry, refusal))
    if merged.user_id is not None and kept.user_id is not None and merged.user_id != kept.user_id:
        problems.append(TaikaiError("merge_both_linked", _("both players are linked to an account"), field="merged"))
    if merged.external_id and kept.external_id and merged.external_id != kept.external_id:
        problems.append(
            TaikaiError(
                "merge_external_ids_differ",
                _("the players have different external ids (%(kept)s, %(merged)s)")
                % {"kept": kept.external_id, "merged": merged.external_id},
                field="merged",
            )
        )
    return MergePreview(
        kept,
        merged,
        rows,
        problems,
        moves_account=merged.user_id is not None and kept.user_id is None,
        moves_external_id=merged.external_id or "" if not kept.external_id else "",
    )


def merge_event_ids(merge: PlayerMerge) -> set[int]:
    """The events an undo touches: those of the moved entries and every event of both players now."""
    moved = set(Entry.objects.filter(pk__in=merge.entry_ids).values_list("event_id", flat=True))
    return moved | player_event_ids(merge.kept, merge.merged)


def merges_visible(where_events: Q | None) -> QuerySet:
    """Merges for the admin's list: every one (``where_events`` None), or those whose kept or merged player
    has an entry in the events ``where_events`` (a filter on an entry's ``event_id``) names."""
    merges = PlayerMerge.objects.select_related("kept", "merged", "by", "undone_by")
    if where_events is None:
        return merges
    entries = Entry.objects.filter(where_events)
    return merges.filter(
        Exists(entries.filter(player_id=OuterRef("kept_id"))) | Exists(entries.filter(player_id=OuterRef("merged_id")))
    )
