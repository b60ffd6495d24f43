from django.db import migrations


def install(apps, schema_editor):
    from scoring.presets import install_presets

    install_presets(apps.get_model("scoring", "Ruleset"))  # adds the presets not there yet, leaves the others


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_ruleset_substitutes")]
    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
