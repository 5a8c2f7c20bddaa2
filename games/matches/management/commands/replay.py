import json

from django.core.management.base import BaseCommand, CommandError

from games.matches import replays
from games.matches.models import Match


class Command(BaseCommand):
    help = "Verify replays: an export file (from /api/matches/<id>/replay/) or finished matches in the database."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="a replay export (JSON)")
        parser.add_argument("--match", type=int, action="append", default=[], help="a finished match id")
        parser.add_argument("--all", action="store_true", help="every finished match")

    def handle(self, *args, **opts):
        exports = []
        if opts["file"]:
            with open(opts["file"]) as handle:
                exports.append(json.load(handle))
        matches = Match.objects.filter(status=Match.Status.FINISHED)
        if not opts["all"]:
            matches = matches.filter(pk__in=opts["match"])
        exports += [replays.export(match) for match in matches.order_by("pk")]
        if not exports:
            raise CommandError("Nothing to verify: give a file, --match ID or --all.")
        failures = 0
        for data in exports:
            ok, detail = replays.verify(data)
            failures += not ok
            self.stdout.write(f"{'ok' if ok else 'MISMATCH'} {data['game']} match {data.get('match')}: {detail}")
        if failures:
            raise CommandError(f"{failures} of {len(exports)} replays do not reproduce their result.")
        self.stdout.write(f"{len(exports)} replays verified.")
