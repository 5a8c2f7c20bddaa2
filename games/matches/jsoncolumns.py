"""How the match tables' JSON columns are written and read: with orjson, through the encoder
and decoder hooks Django's JSONField offers, so every backend and every query keeps Django's
own handling. A move reads its match's snapshot (about 5 KB) and writes it back with its log
row; the standard library took 50 µs to write the snapshot and 33 µs to read it, orjson 7 and 15
(docs/performance.md). Same JSON: keys that are not strings become strings, as json.dumps makes
them, and orjson's JSONDecodeError is the standard one's subclass, which Django catches."""

import json

import orjson


class Encoder(json.JSONEncoder):
    def encode(self, value) -> str:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class Decoder(json.JSONDecoder):
    def __init__(self, **options):
        """Nothing of the standard decoder's is used: its scanner was built for every value read."""

    def decode(self, text, _w=None):
        return orjson.loads(text)
