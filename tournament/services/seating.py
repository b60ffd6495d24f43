"""Seating an event's next round with the pairing engine: the ``../shared/seating-protocol.md`` request
built from the database, the engine run outside any transaction, and the round with all its tables
written in one (idempotent per round number). Organizers ask for it as a job that a Celery worker runs.

A running job beats every ``settings.SEATING_HEARTBEAT_SECONDS``. A job queued or running whose last beat is
older than ``settings.SEATING_STALE_SECONDS`` has lost its worker (killed, out of memory, its machine gone: the broker
would deliver the task again only after its visibility timeout); asking again re-queues it. That is safe:
the round is written once whatever the number of runs, and a run that was given up on no longer writes
on the job.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.dispatch import Signal
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.queue import enqueue_on_commit
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.engine.errors import TournamentError
from tournament.engine.pairing.protocol import seat_round
from tournament.engine.pairing.tables import plan_tables
from tournament.models import Entry, Event, Round, Seat, SeatingJob
from tournament.options import seating_settings
from tournament.services.common import recorder
from tournament.services.guards import round_guards_require
from tournament.services.locks import lock_event, lock_round, lock_seating_job
from tournament.services.rounds import round_create
from tournament.services.schedule import scheduled_tables
from tournament.services.standings import standings_rows
from tournament.services.teams import round_lineup_absent, round_lineup_present, seating_groups

# Sent as the players of a round's seating are read (``event``, ``round_number``): a receiver (an app built on the
# tournament) returns the entry ids it leaves out of that round (an online round's unconfirmed players), or
# raises a ``TaikaiError`` when the round may not be seated yet.
seating_leaves_out = Signal()

SEAT_NEXT_ROUND = "tournament.seat_next_round"  # the task's pinned name (tournament.tasks)
Progress = Callable[[int, str], None]


def seating_require_enough_players(event: Event, round_number: int) -> None:
    """Refuse to seat ``round_number`` when too few players are there to play it (``not_enough_players``):
    the active entries, less those who do not play it (substitutes, replaced members, reserves not in), must
    fill one table at least (one seat short where the event seats short tables, as the seating would). Says how
    many there are and what to do."""
    present = len(seating_request_for_players(event, round_number))
    try:
        plan_tables(present, event.table_size, event.seating_remainder)
    except TournamentError as exc:
        raise TaikaiError(
            "not_enough_players",
            _(
                "not enough players to seat round %(round)s: %(present)s active players, a table needs "
                "%(size)s; register or reinstate players first"
            )
            % {"round": round_number, "present": present, "size": event.table_size},
            field="event",
        ) from exc


def seating_request_for_players(event: Event, round_number: int) -> list[int]:
    """The entries the seating of ``round_number`` would seat."""
    players, absent = _players_and_absent(event, round_number)
    return [entry_id for entry_id in players if entry_id not in set(absent)]


def _players_and_absent(event: Event, round_number: int) -> tuple[list[int], list[int]]:
    """Every entry of the event, and those not to be seated in ``round_number``."""
    entries = selectors.event_entry_statuses(event)
    substitutes = selectors.event_substitutes(event)
    reserves_in, replaced = (
        round_lineup_present(event, round_number),
        round_lineup_absent(event, round_number),
    )
    reserves = selectors.event_team_reserves(event)  # a team's reserves play only when they come in
    # a substitute (代走) plays only where the organizer seats one; a team's reserve in for this round
    # plays instead of the member it replaces
    absent = [
        entry_id
        for entry_id, status in entries
        if (status != Entry.Status.ACTIVE and entry_id not in reserves_in)
        or entry_id in substitutes
        or entry_id in replaced
        or (entry_id in reserves and entry_id not in reserves_in)
    ]
    for _receiver, left_out in seating_leaves_out.send(sender=Event, event=event, round_number=round_number):
        absent += [entry_id for entry_id in left_out or () if entry_id not in absent]
    return [entry_id for entry_id, _ in entries], absent


def seating_request_for(
    event: Event, *, round_number: int, seed: int | None = None, time_limit_s: float | None = None
) -> dict:
    """The seating request for ``round_number`` of ``event``: every entry, the earlier rounds' tables,
    the standings order (Swiss), who is not to be seated, and the event's seating settings."""
    players, absent = _players_and_absent(event, round_number)
    history = selectors.event_seating_history(event, before_round=round_number)
    standings = [row["entry"] for row in standings_rows(event)] if history else []
    request = {
        "players": players,
        "history": history,
        "standings": standings,
        "absent": absent,
        **seating_settings(
            event, round_number=round_number, swiss_ready=bool(standings), seed=seed, time_limit_s=time_limit_s
        ),
    }
    if request["mode"] == "interval":
        request["step"] = max(1, len(request["players"]) // event.table_size)
    groups = seating_groups(event)
    if groups:
        request["groups"] = groups  # two players of one team never share a table when the numbers allow it
    return request


def seating_from_engine(request: dict) -> dict:
    """The engine's answer to a seating request; a refusal is a ``TaikaiError`` with its code."""
    response = seat_round(request)
    if "error" in response:
        raise TaikaiError(response["error"]["code"], response["error"]["message"], field="seating")
    return response


def round_seat_next(*, event: Event, round_number: int, progress: Progress | None = None) -> Round:
    """Seat ``round_number`` (the next round) as a draft with its quality report.

    Idempotent: if that round exists already, it is returned unchanged. The engine runs outside the
    transaction; the round and its tables are written in one transaction, so a crash leaves nothing.
    """
    report = progress or (lambda percent, message: None)
    existing = selectors.event_round(event, round_number)
    if existing is not None:
        return existing
    next_number = selectors.event_next_round_number(event)
    if round_number != next_number:
        raise TaikaiError(
            "not_the_next_round",
            _("the next round of %(event)s is %(round)s") % {"event": event, "round": next_number},
            field="round",
        )
    round_guards_require(event, round_number)  # overrides asked for with the job are recorded already
    seating_require_enough_players(event, round_number)
    report(10, _("reading standings and history"))
    started = time.monotonic()
    scheduled = scheduled_tables(event, round_number)
    if scheduled is not None:  # the event's fixed schedule
        request = {"mode": "schedule"}
        response = {"tables": scheduled, "byes": [], "report": {}}
    else:
        request = seating_request_for(event, round_number=round_number)
        report(30, _("seating %(count)s players") % {"count": len(request["players"]) - len(request["absent"])})
        response = seating_from_engine(request)
    report(80, _("writing the round"))
    quality = response["report"] | {
        "byes": response["byes"],
        "mode": request["mode"],
        "seconds": round(time.monotonic() - started, 3),
    }
    if "seed" in request:
        quality["seed"] = request["seed"]  # the draw by lot: its seed, so anyone can draw again
    try:
        with transaction.atomic():
            lock_event(event.pk)  # serialise with other seatings of the event
            existing = selectors.event_round(event, round_number)
            if existing is not None:
                return existing
            round_ = round_create(
                event=event,
                tables=response["tables"],
                report=quality,
                status=Round.Status.DRAFT,
                request=request if "seed" in request else None,
            )
    except IntegrityError:  # another run wrote the same round first
        return selectors.event_round(event, round_number)
    # Translators: the seating job's progress: finished.
    report(100, _("done"))
    return round_


def seating_job_stale(job: SeatingJob, *, now=None) -> bool:
    """Has the job, queued or running, gone without a sign of life for ``settings.SEATING_STALE_SECONDS``?"""
    if job.state not in (SeatingJob.State.QUEUED, SeatingJob.State.RUNNING):
        return False
    last = job.heartbeat_at or job.updated_at
    return last < (now or timezone.now()) - timedelta(seconds=settings.SEATING_STALE_SECONDS)


def seating_job_request(
    *, event: Event, user=None, override: list[str] | None = None, override_reason: str = ""
) -> SeatingJob:
    """Ask for the next round's seating; a second request for the same round returns the same job, and
    re-queues it if it failed or lost its worker (``seating_job_stale``). The guards before a round apply;
    ``override`` names those an organizer overrides, with ``override_reason`` (recorded with the request)."""
    round_number = selectors.event_next_round_number(event)
    with transaction.atomic():
        round_guards_require(event, round_number, override=override, reason=override_reason, user=user)
        seating_require_enough_players(event, round_number)
        job, created = SeatingJob.objects.get_or_create(
            event=event,
            round_number=round_number,
            defaults={
                "requested_by": recorder(user),
                "heartbeat_at": timezone.now(),
                "language": translation.get_language() or "",
            },
        )
        if not created:
            job = lock_seating_job(job.pk)  # two organizers asking again at once re-queue it once
            if job.state == SeatingJob.State.FAILED or seating_job_stale(job):
                job.state, job.percent, job.heartbeat_at = SeatingJob.State.QUEUED, 0, timezone.now()
                job.language = translation.get_language() or ""
                job.message = (
                    _("asked again after: %(message)s") % {"message": job.message} if job.message else _("asked again")
                )
                job.attempts += 1
                job.save(
                    update_fields=["state", "percent", "message", "language", "heartbeat_at", "attempts", "updated_at"]
                )
                created = True
        if created:
            enqueue_on_commit(SEAT_NEXT_ROUND, job.pk)
    return job


class _Heartbeat:
    """Beat on a job every ``every`` seconds from a thread of its own, while the engine runs."""

    def __init__(self, job_id: int, attempt: int, every: float | None):
        self.job_id, self.attempt, self.every = job_id, attempt, every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"seating-job-{job_id}-heartbeat", daemon=True)

    def __enter__(self):
        if self.every:
            self.thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)

    def _run(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                with contextlib.suppress(DatabaseError):  # a missed beat: the next one tries again
                    SeatingJob.objects.filter(pk=self.job_id, attempts=self.attempt).update(heartbeat_at=timezone.now())
        finally:
            connection.close()


def seating_job_run(*, job_id: int, heartbeat_every: float | None = None) -> dict:
    """Run a seating job (the Celery task's body): its progress and outcome are written on the job,
    in the language of whoever asked for it, with a heartbeat every ``heartbeat_every`` seconds. Safe to
    run twice: the second run finds the round and changes nothing. A run the organizer gave up on (the
    job was asked for again) writes nothing on the job."""
    job = SeatingJob.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        return {"job": job_id, "state": "missing"}
    with translation.override(job.language or settings.LANGUAGE_CODE):
        return _seating_job_run(job, heartbeat_every)


def _seating_job_run(job: SeatingJob, heartbeat_every: float | None) -> dict:
    job_id = job.pk
    this_run = SeatingJob.objects.filter(pk=job_id, attempts=job.attempts)

    def progress(percent: int, message: str) -> None:
        this_run.update(state=SeatingJob.State.RUNNING, percent=percent, message=message, heartbeat_at=timezone.now())

    try:
        with _Heartbeat(job_id, job.attempts, heartbeat_every):
            round_ = round_seat_next(event=job.event, round_number=job.round_number, progress=progress)
    except Exception as exc:
        code = getattr(exc, "code", exc.__class__.__name__)
        this_run.update(state=SeatingJob.State.FAILED, message=f"{code}: {exc}", heartbeat_at=timezone.now())
        raise
    tables = round_.tables.count()
    # The singular keeps today's English ("1 tables").
    message = ngettext("round %(round)s: %(tables)s tables", "round %(round)s: %(tables)s tables", tables) % {
        "round": round_.number,
        "tables": tables,
    }
    this_run.update(state=SeatingJob.State.DONE, percent=100, message=message, heartbeat_at=timezone.now())
    return {"job": job_id, "state": "done", "round": round_.number}


def round_seating_replay(*, round_: Round) -> dict:
    """Draw a round's seating again from its seed, writing nothing: ``{"tables", "stored", "equal", "seed",
    "rebuilt"}``. The request kept with the round is drawn again as it was given; a round seated before requests
    were kept is drawn from its request rebuilt from the records as they are now (``rebuilt``: a later
    correction or change of a player's status can make it differ). Refused for a round not drawn by lot."""
    if round_.draw_seed is None:
        raise TaikaiError(
            "round_not_drawn",
            _("round %(round)s was not drawn by lot (seated by hand, from a fixed schedule or as a final)")
            % {"round": round_.number},
            field="round",
        )
    request, rebuilt = round_.seating_request, False
    if not request:
        request, rebuilt = seating_request_for(round_.event, round_number=round_.number, seed=round_.draw_seed), True
    response = seating_from_engine(request)
    stored = selectors.round_seating_tables(round_)
    return {
        "tables": response["tables"],
        "stored": stored,
        "equal": response["tables"] == stored,
        "seed": request["seed"],
        "rebuilt": rebuilt,
    }


def round_draft_reroll(*, round_: Round, seed: int | None = None) -> Round:
    """Seat a draft round again with another seed (before it is published: nobody has seen it)."""
    round_ = selectors.event_round(round_.event, round_.number)
    if round_ is None or round_.status != Round.Status.DRAFT:
        raise TaikaiError("round_not_draft", _("only a seating draft can be seated again"), field="round")
    event = round_.event
    request = seating_request_for(
        event, round_number=round_.number, seed=secrets.randbelow(2**31) if seed is None else seed
    )
    started = time.monotonic()
    response = seating_from_engine(request)
    quality = response["report"] | {
        "byes": response["byes"],
        "mode": request["mode"],
        "seed": request["seed"],
        "seconds": round(time.monotonic() - started, 3),
    }
    with transaction.atomic():
        lock_event(event.pk)
        draft = (
            Round.objects.select_for_update(no_key=True, of=("self",))
            .filter(pk=round_.pk, status=Round.Status.DRAFT)
            .first()
        )
        if draft is None:
            raise TaikaiError("round_not_draft", _("the draft was published or seated again meanwhile"), field="round")
        draft.delete()  # a draft nobody has seen: its tables hold no hands (recording needs a published round)
        return round_create(
            event=event, tables=response["tables"], report=quality, status=Round.Status.DRAFT, request=request
        )


@transaction.atomic
def round_draft_swap(*, round_: Round, first: Entry, second: Entry) -> Round:
    """Swap two players' seats in a seating draft; the report says the draft was changed by hand."""
    round_ = lock_round(round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise TaikaiError("round_not_draft", _("only a seating draft can be changed"), field="round")
    seats = {
        seat.entry_id: seat
        for seat in Seat.objects.select_for_update(no_key=True, of=("self",)).filter(
            round=round_, entry_id__in=[first.pk, second.pk]
        )
    }
    if first.pk == second.pk or len(seats) != 2:
        raise TaikaiError("not_seated", _("choose two different players seated in this draft"), field="players")
    a, b = seats[first.pk], seats[second.pk]
    table_a, position_a = a.table_id, a.position
    # the unique (table, position) constraint: park one seat on a free position first
    a.table_id, a.position = b.table_id, b.position
    b.table_id, b.position = table_a, position_a
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [Seat(table_id=s.table_id, round=round_, entry_id=s.entry_id, position=s.position) for s in (a, b)]
    )
    swaps = [*round_.seating_report.get("swapped", []), [first.pk, second.pk]]
    round_.seating_report = {**round_.seating_report, "swapped": swaps}
    round_.save(update_fields=["seating_report"])
    return round_
