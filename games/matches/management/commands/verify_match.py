from django.core.management.base import BaseCommand, CommandError

from games import verify_deal
from games.matches import replays
from games.matches.models import Match


class Command(BaseCommand):
    help = (
        "Check finished matches' deals as a player would (games/verify_deal.py): the seed and salt hash to the "
        "published commitment, every chance event follows from the seed, the replay reaches the result."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_ids", nargs="+", type=int, metavar="ID")

    def handle(self, *args, **opts):
        failures = 0
        for match_id in opts["match_ids"]:
            match = Match.objects.filter(pk=match_id).first()
            if match is None or match.status != Match.Status.FINISHED:
                raise CommandError(f"Match {match_id} is not a finished match: its deal is still secret.")
            record = replays.export(match)
            verdict = verify_deal.verify(record)
            failures += not verdict.ok
            self.stdout.write(verify_deal.report(record, verdict))
        if failures:
            raise CommandError(f"{failures} of {len(opts['match_ids'])} matches are not verified.")
