"""python manage.py recompute_ratings [--game SLUG]: rebuild ratings by replaying every rated result."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from games.engine import GAMES
from ratings.recompute import ledger_games, recompute


class Bar:
    """A plain progress bar on stderr: [#####.....]  50%  500,000/1,000,000 results  12 s."""

    def __init__(self, label: str, stream=sys.stderr, width: int = 30):
        self.label, self.stream, self.width, self.started = label, stream, width, time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {100 * done // max(total, 1):3d}%"
            f"  {done:,}/{total:,} results  {time.monotonic() - self.started:.0f} s"
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


class Command(BaseCommand):
    help = "Rebuild every Elo and OpenSkill rating from the ledger of rated results, oldest first."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="Only this game's ladder (a game slug).")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args, game=None, quiet=False, **options):
        games = ledger_games()
        if game:
            if game not in GAMES and game not in games:
                raise CommandError(f"There is no game called {game!r}.")
            games = [game]
        for slug in games:
            report = recompute(slug, None if quiet else Bar(slug, self.stderr._out))
            self.stdout.write(
                f"{slug}: {report.results:,} results replayed in {report.seconds:.1f} s; rewrote "
                f"{report.changes_rewritten:,} ledger rows and {report.ratings_rewritten:,} ratings, "
                f"created {report.ratings_created:,}, deleted {report.ratings_deleted:,}."
            )
