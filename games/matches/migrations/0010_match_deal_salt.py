from django.db import migrations, models

import games.matches.models


class Migration(migrations.Migration):
    """Matches from before commitments keep an empty salt: they published none."""

    dependencies = [("matches", "0009_seat_gone_at")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="salt",
            field=models.CharField(blank=True, default="", max_length=32),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="match",
            name="salt",
            field=models.CharField(
                blank=True,
                default=games.matches.models.new_salt,
                help_text="Secret until the end; empty for matches before commitments.",
                max_length=32,
            ),
        ),
    ]
