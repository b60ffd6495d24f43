"""Play a whole simulated event hand by hand through the services and print a summary."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tournament.simulation import (
    SEATING_CHOICES,
    Incidents,
    event_create,
    event_simulate,
    simulated_players,
)

CLOCK_BANK_SECONDS = 60  # 持ち時間 per hand of a simulated event with incidents (art. 38)
CLOCK_INCREMENT_SECONDS = 5


class Command(BaseCommand):
    help = "Simulate an event: random but legal hands, recorded through the tournament services."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", help="default: sim-<players>x<rounds>-s<seed>")
        parser.add_argument("--ruleset", default="standard", help="ruleset slug (default: standard)")
        parser.add_argument("--table-size", type=int, default=4, choices=[3, 4])
        parser.add_argument(
            "--seating",
            default="auto",
            choices=SEATING_CHOICES,
            help="auto: the pairing engine when installed, else a seeded shuffle",
        )
        parser.add_argument("--public", action="store_true", help="show the event on the public pages")
        parser.add_argument(
            "--penalties",
            action="store_true",
            help="now and then a foul (arts. 35–37): lost rights, replayed hands, disqualification",
        )
        parser.add_argument(
            "--absences",
            action="store_true",
            help="now and then a player absent before a game or leaving during it (art. 42)",
        )
        parser.add_argument(
            "--overtime",
            action="store_true",
            help="enable overtime (art. 39): undecided games play overtime hands; the event "
            "ends with a final (art. 40) of --final-games games",
        )
        parser.add_argument(
            "--final-games", type=int, default=2, help="games in the final with --overtime (art. 40 ①; default 2)"
        )

    def handle(
        self,
        *args,
        players,
        rounds,
        seed,
        slug,
        ruleset,
        table_size,
        seating,
        public,
        penalties,
        absences,
        overtime,
        final_games,
        **options,
    ):
        if players < 2 or rounds < 1 or final_games < 1:
            message = _("at least 2 players, 1 round and 1 final game")
            raise CommandError(f"invalid_arguments: {message}")
        ruleset_row = Ruleset.objects.filter(slug=ruleset).first()
        if ruleset_row is None:
            message = _("no ruleset with the slug %(slug)s") % {"slug": repr(ruleset)}
            raise CommandError(f"unknown_ruleset: {message}")
        slug = slug or f"sim-{players}x{rounds}-s{seed}"
        try:
            event = event_create(
                slug=slug,
                name=_("Simulated %(players)s players × %(rounds)s rounds (seed %(seed)s)")
                % {"players": players, "rounds": rounds, "seed": seed},
                players=simulated_players(players),
                ruleset=ruleset_row,
                planned_rounds=rounds,
                table_size=table_size,
                is_public=public,
                overtime_enabled=overtime,
                final_games=final_games,
                # a time bank, so that incident hands are played on the clock (art. 38)
                clock_bank_seconds=CLOCK_BANK_SECONDS if penalties or absences else None,
                clock_increment_seconds=CLOCK_INCREMENT_SECONDS if penalties or absences else 0,
            )
            incidents = Incidents(penalties=penalties, absences=absences, overtime=overtime, final=overtime)
            summary = event_simulate(event, rounds=rounds, seed=seed, seating=seating, incidents=incidents)
        except TaikaiError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(self.style.SUCCESS(summary.text()))
        self.stdout.write(_("Check it with: %(command)s") % {"command": f"python manage.py audit_event {slug}"})
