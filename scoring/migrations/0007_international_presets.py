from django.db import migrations


def install(apps, schema_editor):
    from scoring.presets import install_presets

    install_presets(apps.get_model("scoring", "Ruleset"))  # adds the EMA and WRC presets, leaves the others


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_ruleset_game_end_options")]
    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
