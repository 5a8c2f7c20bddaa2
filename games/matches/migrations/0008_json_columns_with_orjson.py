"""The JSON columns of matches and their log are written and read with orjson (jsoncolumns).
The stored JSON is the same kind of text, so nothing changes in the database: the operations
only tell Django's idea of the fields (SQLite would otherwise copy the whole table to alter
them)."""

from django.db import migrations, models

from games.matches.jsoncolumns import Decoder, Encoder


def codec(**options):
    return models.JSONField(encoder=Encoder, decoder=Decoder, **options)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_seat_resigned"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField("match", "options", codec(blank=True, default=dict)),
                migrations.AlterField("match", "result", codec(blank=True, null=True)),
                migrations.AlterField(
                    "match",
                    "state",
                    codec(
                        blank=True,
                        null=True,
                        help_text="game.dump() after the last action, its history cut to the last entries.",
                    ),
                ),
                migrations.AlterField("matchaction", "action", codec()),
                migrations.AlterField(
                    "matchaction", "events", codec(default=list, help_text="The history entries this action added.")
                ),
            ]
        )
    ]
