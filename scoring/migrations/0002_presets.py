from django.db import migrations


def install(apps, schema_editor):
    from scoring.presets import install_presets

    install_presets(apps.get_model("scoring", "Ruleset"))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]
    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
