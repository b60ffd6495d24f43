"""``QueuedTask`` moves here from the tournament app: the state only, its table (``tournament_queuedtask``)
stays as it is, and its content type (so its permissions) follows it."""

from django.db import migrations, models


def content_type_move(apps, schema_editor, old="tournament", new="core"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label=new, model="queuedtask").exists():
        ContentType.objects.using(db).filter(app_label=old, model="queuedtask").update(app_label=new)


def content_type_back(apps, schema_editor):
    content_type_move(apps, schema_editor, old="core", new="tournament")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournament", "0028_round_checks"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="QueuedTask",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("task", models.CharField(max_length=100)),
                        ("args", models.JSONField(default=list)),
                        (
                            "commit_time",
                            models.BooleanField(default=False, help_text="the time it is sent is its last argument"),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("attempts", models.PositiveIntegerField(default=0)),
                        ("last_attempt_at", models.DateTimeField(blank=True, null=True)),
                        ("last_error", models.CharField(blank=True, max_length=300)),
                    ],
                    options={
                        "db_table": "tournament_queuedtask",
                        "ordering": ["id"],
                        "indexes": [models.Index(fields=["created_at"], name="tournament__created_daec40_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_move, content_type_back, elidable=False),
    ]
