"""``QueuedTask`` is the core app's now (``core.0001_initial``): the state only, the table stays."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0028_round_checks"),
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="QueuedTask")],
            database_operations=[],
        ),
    ]
