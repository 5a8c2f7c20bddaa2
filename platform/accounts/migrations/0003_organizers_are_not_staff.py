"""Organizers were made staff to reach the admin; the organizer role is now its own permission."""

from django.db import migrations


def organizers_are_not_staff(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(role="organizer", is_superuser=False).update(is_staff=False)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_username_key")]

    operations = [migrations.RunPython(organizers_are_not_staff, migrations.RunPython.noop)]
