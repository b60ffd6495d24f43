"""Build a large finished event in bulk, with its standings, for the benchmarks."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Ruleset
from tournament.simulation.bulk import bench_event_build
from tournament.simulation.game import SimulationError


class Command(BaseCommand):
    help = "Bulk-build a finished synthetic event (random legal table results) with its standings."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--replace", action="store_true", help="delete an existing event with this slug first")
        parser.add_argument(
            "--next-round",
            action="store_true",
            help="also seat and publish the next round, not played (the event keeps running)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ruleset", default="standard", help="ruleset slug (default: standard)")
        parser.add_argument("--owner", help="username of the organizer who owns the event")

    def handle(self, *args, players, rounds, slug, replace, next_round, seed, ruleset, owner, **options):
        ruleset_row = Ruleset.objects.filter(slug=ruleset).first()
        if ruleset_row is None:
            raise CommandError(f"unknown_ruleset: no ruleset with the slug {ruleset!r}")
        owner_row = None
        if owner:
            owner_row = get_user_model().objects.filter(username=owner).first()
            if owner_row is None:
                raise CommandError(f"unknown_user: no user named {owner!r}")
        try:
            summary = bench_event_build(
                players=players,
                rounds=rounds,
                slug=slug,
                replace=replace,
                next_round=next_round,
                seed=seed,
                ruleset=ruleset_row,
                owner=owner_row,
            )
        except SimulationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(self.style.SUCCESS(summary.text()))
