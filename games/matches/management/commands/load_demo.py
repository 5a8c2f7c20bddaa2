from django.core.management.base import BaseCommand

from games.matches import demo


class Command(BaseCommand):
    help = "Load the demo data of seeds/demo.json (safe to run again: nothing is duplicated)."

    def handle(self, *args, **options):
        counts = demo.load(log=self.stdout.write)
        self.stdout.write(
            f"Demo data: {counts['users']} new accounts, {counts['tournaments']} new tournaments, "
            f"{counts['matches']} new bot matches (password for demo accounts: see seeds/demo.json)."
        )
