"""On PostgreSQL the snapshot (about 5 KB of JSON, rewritten by every move) is compressed with lz4
rather than the default pglz: pglz took about half of PostgreSQL's CPU for a move's write
(docs/performance.md). Only new values are compressed so; the next move rewrites each running
match's. A server built without lz4 keeps pglz. Nothing changes on other databases."""

from django.db import migrations

LZ4 = """
DO $$ BEGIN
    EXECUTE 'ALTER TABLE matches_match ALTER COLUMN state SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE USING MESSAGE = 'the snapshot keeps pglz: ' || SQLERRM;
END $$
"""
PGLZ = "ALTER TABLE matches_match ALTER COLUMN state SET COMPRESSION pglz"


def compress(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0013_seat_counted_out"),
    ]

    operations = [migrations.RunPython(compress(LZ4), compress(PGLZ))]
