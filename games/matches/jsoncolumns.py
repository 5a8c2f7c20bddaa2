"""How the match tables' JSON columns are written and read: with orjson, through the encoder
and decoder hooks Django's JSONField offers, so every backend and every query keeps Django's
own handling. A move reads its match's snapshot (about 5 KB) and writes it back with its log
row; the standard library took 50 µs to write the snapshot and 33 µs to read it, orjson 7 and 15
(docs/performance.md). Same JSON: keys that are not strings become strings, as json.dumps makes
them, and orjson's JSONDecodeError is the standard one's subclass, which Django catches. The
snapshot's column is text on every database (`JSONText`)."""

import json

import orjson
from django.db import models


class Encoder(json.JSONEncoder):
    def encode(self, value) -> str:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class Decoder(json.JSONDecoder):
    def __init__(self, **options):
        """Nothing of the standard decoder's is used: its scanner was built for every value read."""

    def decode(self, text, _w=None):
        return orjson.loads(text)


class JSONText(models.JSONField):
    """A JSON column kept as the text it was written as, on every database: the match's snapshot
    (about 5 KB, rewritten by every move and read whole, never queried inside). PostgreSQL
    parsed it into `jsonb` at every write and printed it back at every read: 330-400 against
    210-260 µs of its CPU an update on the bench machine (docs/performance.md). Values are
    written and read as a JSONField's are; lookups into the JSON (`state__key`) would need
    `jsonb` and are not offered."""

    def get_internal_type(self) -> str:
        return "TextField"  # its column's type, and how a migration changes a column's type to or from it

    def get_db_prep_value(self, value, connection, prepared=False):
        if not prepared:
            value = self.get_prep_value(value)
        return json.dumps(value, cls=self.encoder)  # the text itself: PostgreSQL's adapter would send jsonb
