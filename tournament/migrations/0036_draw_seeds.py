"""The draw seeds: every event keeps the seed its draws by lot follow from, and every round the seed its seating
was drawn with. Events there already get the seed derived from their slug; rounds seated already keep their
tables and are given the seed they were drawn with (the one their report names, else the one derived then)."""

import zlib

from django.db import migrations, models

import tournament.models.events


def seeds_backfill(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    Round = apps.get_model("tournament", "Round")
    for event in Event.objects.filter(draw_seed__isnull=True).only("pk", "slug"):
        Event.objects.filter(pk=event.pk).update(draw_seed=zlib.crc32(event.slug.encode()))
    for round_ in Round.objects.select_related("event").only("pk", "number", "seating_report", "event__slug"):
        report = round_.seating_report or {}
        if report.get("mode") not in ("swiss", "random", "interval"):
            continue  # by hand, a fixed schedule or a final: no draw
        seed = report.get("seed", zlib.crc32(f"{round_.event.slug}:{round_.number}".encode()))
        Round.objects.filter(pk=round_.pk).update(draw_seed=seed)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0035_late_players_round_guards"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="draw_seed",
            field=models.BigIntegerField(null=True, verbose_name="draw seed"),
        ),
        migrations.AddField(
            model_name="round",
            name="draw_seed",
            field=models.BigIntegerField(
                blank=True,
                editable=False,
                help_text="The seed the seating was drawn with (empty: seated by hand or from a fixed schedule).",
                null=True,
                verbose_name="draw seed",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="seating_request",
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name="seating request"),
        ),
        migrations.RunPython(seeds_backfill, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="event",
            name="draw_seed",
            field=models.BigIntegerField(
                default=tournament.models.events.draw_seed_new,
                help_text=(
                    "Every draw by lot 抽選 of the event (random seating, ties broken by lot) follows from this "
                    "number: each round's seed is derived from it and the round's number, so anyone can draw again "
                    "and compare."
                ),
                verbose_name="draw seed",
            ),
        ),
    ]
