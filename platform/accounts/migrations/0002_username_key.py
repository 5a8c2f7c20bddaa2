"""Every account gets the key its username is compared by (accounts/usernames.py).

Accounts made before keys existed may share one ("bill" and "biII"). They are kept as they are,
and said here: each still signs in by its own name as typed ignoring case, both count against one
login lockout, and no new account may take that key (docs/security.md, "Usernames"). The demo
data has none.
"""

from collections import defaultdict

from django.db import migrations, models

from accounts.usernames import username_key


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    names_by_key = defaultdict(list)
    for user in User.objects.only("pk", "username").iterator():
        user.username_key = username_key(user.username)
        user.save(update_fields=["username_key"])
        names_by_key[user.username_key].append(user.username)
    for names in names_by_key.values():
        if len(names) > 1:
            print(f"\n  These accounts' names read alike and share one login lockout: {', '.join(sorted(names))}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=150),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
