"""The snapshot's column holds its JSON as text rather than `jsonb` (jsoncolumns.JSONText):
PostgreSQL parsed the 5 KB document at every move's write and printed it back at every read.
`jsonb`'s text is valid JSON, so the rows keep their values. Changing a column's type resets its
compression, so the lz4 of migration 0014 is set again, either way. SQLite keeps JSON as text
already: its table is rebuilt without the column's JSON_VALID check, a parse at every write too."""

import importlib

from django.db import migrations

import games.matches.jsoncolumns

compressed = importlib.import_module("games.matches.migrations.0014_snapshot_compressed_with_lz4")
lz4 = compressed.compress(compressed.LZ4)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0015_no_index_a_unique_one_starts_with"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, lz4),
        migrations.AlterField(
            model_name="match",
            name="state",
            field=games.matches.jsoncolumns.JSONText(
                blank=True,
                decoder=games.matches.jsoncolumns.Decoder,
                encoder=games.matches.jsoncolumns.Encoder,
                help_text="game.dump() after the last action, its history cut to the last entries.",
                null=True,
            ),
        ),
        migrations.RunPython(lz4, migrations.RunPython.noop),
    ]
