"""Every write of the profiles app: merging a duplicate player into the one kept, undoing it, and a player
switching their public profile off or on.

A merge moves the duplicate's entries (and so everything hung on them: seats, results, hands, penalties,
sign-ups, standings rows) to the kept player, with the account link and the external id (such as an EMA
number) when only the duplicate has them. ``Entry`` is the only key to ``Player`` in the project besides
the player's own ``user``; the duplicate's row is never deleted: the ``PlayerMerge`` row marks it merged,
and undoing moves exactly the entries it lists back. Both players are locked first, in id order, then
their entries.

Who may merge (:func:`may_merge`): players are shared by every event, so a merge is an organizer's only when
they organize every event in which either player has an entry; otherwise a superuser's.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Player
from profiles import selectors
from profiles.models import PlayerMerge, ProfileSetting
from taikai.errors import Conflict, Forbidden, TaikaiError
from tournament import access
from tournament.models import Entry
from tournament.services.standings import standings_schedule_recompute

# --- who may ------------------------------------------------------------------------------------------


def may_merge(actor: access.Actor, *, kept: Player, merged: Player) -> bool:
    """Players are shared by events: an organizer of every event either is in (``access.may_manage_every``;
    two players in no event are still an organizer's business only)."""
    return access.may_manage_every(actor, selectors.player_event_ids(kept, merged))


def may_undo(actor: access.Actor, merge: PlayerMerge) -> bool:
    return access.may_manage_every(actor, selectors.merge_event_ids(merge))


# --- merging ------------------------------------------------------------------------------------------


def _lock_players(*ids: int) -> dict[int, Player]:
    """The players' rows, locked in id order (the order every write here takes them in)."""
    rows = Player.objects.select_for_update(no_key=True).filter(pk__in=sorted(set(ids))).order_by("pk")
    return {player.pk: player for player in rows}


@transaction.atomic
def player_merge(*, kept: Player, merged: Player, by=None, move_account: bool = False) -> PlayerMerge:
    """Merge ``merged`` (the duplicate) into ``kept``: refused, with nothing written, for a player merged
    into themself, into a player already merged away, a duplicate already merged away, two players with an
    entry in the same event, two account links or two different external ids. The duplicate's account link
    moves only with ``move_account`` (a superuser's merge: an organizer links no account); otherwise a
    duplicate with an account is refused (merge the other way, keeping the player with the account)."""
    locked = _lock_players(kept.pk, merged.pk)
    kept, merged = locked[kept.pk], locked[merged.pk]
    preview = selectors.merge_preview(kept=kept, merged=merged)
    if preview.problems:
        raise preview.problems[0]
    if preview.moves_account and not move_account:
        raise Forbidden(
            "merge_moves_account",
            _("%(player)s is linked to an account: keep that player instead, or ask a superuser") % {"player": merged},
            field="merged",
        )
    entries = list(Entry.objects.select_for_update(no_key=True).filter(player=merged).order_by("pk"))
    moved = [entry.pk for entry in entries]
    record = PlayerMerge(kept=kept, merged=merged, entry_ids=moved, by=by if getattr(by, "pk", None) else None)
    Entry.objects.filter(pk__in=moved).update(player=kept)
    if preview.moves_account:
        record.moved_user_id = merged.user_id
        Player.objects.filter(pk=merged.pk).update(user=None)
        Player.objects.filter(pk=kept.pk).update(user_id=record.moved_user_id)
    if preview.moves_external_id:
        record.moved_external_id = preview.moves_external_id
        Player.objects.filter(pk=merged.pk).update(external_id=None)  # first: the id is unique
        Player.objects.filter(pk=kept.pk).update(external_id=record.moved_external_id)
    record.full_clean()
    record.save()
    for event_id in sorted({entry.event_id for entry in entries}):
        standings_schedule_recompute(event_id=event_id)  # the standings show the kept player's name
    return record


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, by=None) -> PlayerMerge:
    """Move exactly the entries the merge moved back to the duplicate (and the account link and external id
    it moved), and mark it undone. Refused when already undone, when the kept player was merged away since
    (undo that merge first), or when an entry moved no longer belongs to the kept player."""
    merge = PlayerMerge.objects.select_for_update(no_key=True).get(pk=merge.pk)
    locked = _lock_players(merge.kept_id, merge.merged_id)
    kept, merged = locked[merge.kept_id], locked[merge.merged_id]
    if merge.undone_at is not None:
        raise Conflict("merge_undone", _("this merge was already undone"), field="merge")
    if selectors.merge_in_force_of(kept) is not None:
        raise TaikaiError(
            "merge_kept_merged",
            _("%(player)s was merged away since: undo that merge first") % {"player": kept},
            field="merge",
        )
    entries = list(Entry.objects.select_for_update(no_key=True).filter(pk__in=merge.entry_ids).order_by("pk"))
    if len(entries) != len(merge.entry_ids) or any(entry.player_id != kept.pk for entry in entries):
        raise TaikaiError(
            "merge_entries_changed", _("an entry this merge moved was changed or removed since"), field="merge"
        )
    clash = Entry.objects.filter(player=merged, event_id__in=[e.event_id for e in entries]).first()
    if clash is not None:
        raise TaikaiError(
            "merge_same_event",
            _("%(player)s has an entry in %(event)s again") % {"player": merged, "event": clash.event},
            field="merge",
        )
    Entry.objects.filter(pk__in=merge.entry_ids).update(player=merged)
    if merge.moved_user_id is not None and kept.user_id == merge.moved_user_id:
        Player.objects.filter(pk=kept.pk).update(user=None)
        Player.objects.filter(pk=merged.pk).update(user_id=merge.moved_user_id)
    if merge.moved_external_id and kept.external_id == merge.moved_external_id:
        Player.objects.filter(pk=kept.pk).update(external_id=None)
        Player.objects.filter(pk=merged.pk).update(external_id=merge.moved_external_id)
    merge.undone_at, merge.undone_by = timezone.now(), by if getattr(by, "pk", None) else None
    merge.save(update_fields=["undone_at", "undone_by"])
    for event_id in sorted({entry.event_id for entry in entries}):
        standings_schedule_recompute(event_id=event_id)
    return merge


# --- the player's own choice --------------------------------------------------------------------------


@transaction.atomic
def profile_listed_set(*, player: Player, user, listed: bool) -> ProfileSetting:
    """The player (``user`` is the account linked to them) shows or hides their public profile."""
    if user is None or not getattr(user, "is_authenticated", False) or player.user_id != user.pk:
        raise Forbidden("not_your_profile", _("only the player, signed in with their own account, changes this"))
    setting, _created = ProfileSetting.objects.update_or_create(player=player, defaults={"listed": bool(listed)})
    return setting
