"""Indexes that only cost writes: the log's and the seats' on their match, which the unique
(match, seq) and (match, number) indexes start with, and on PostgreSQL the pattern index Django
adds to the unique socket name, which no query matches by pattern. Every move inserts a log row,
every socket's opening a socket row (docs/performance.md). Only the indexes are dropped: the
foreign keys stay, and the tables are not rebuilt (Django's AlterField would rebuild SQLite's)."""

import django.db.models.deletion
from django.db import migrations, models

DROPPED = ["matches_matchaction_match_id_16d1fe44", "matches_seat_match_id_778e1dae"]
PATTERN_INDEX = "matches_seatsocket_channel_name_ced1d751_like"
RECREATED = [
    'CREATE INDEX "matches_matchaction_match_id_16d1fe44" ON "matches_matchaction" ("match_id")',
    'CREATE INDEX "matches_seat_match_id_778e1dae" ON "matches_seat" ("match_id")',
]


def drop_pattern_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{PATTERN_INDEX}"')


def create_pattern_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX "{PATTERN_INDEX}" ON "matches_seatsocket" ("channel_name" varchar_pattern_ops)'
        )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0014_snapshot_compressed_with_lz4"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{name}"', created)
                for name, created in zip(DROPPED, RECREATED, strict=True)
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="matchaction",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="actions",
                        to="matches.match",
                    ),
                ),
                migrations.AlterField(
                    model_name="seat",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="matches.match",
                    ),
                ),
            ],
        ),
        migrations.RunPython(drop_pattern_index, create_pattern_index),
    ]
