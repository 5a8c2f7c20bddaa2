from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from dubium import demo


class Command(BaseCommand):
    help = (
        "Load the demo data of seeds/demo.json (safe to run again: nothing is duplicated). "
        "New demo accounts get random passwords, printed once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo accounts even though DEBUG is false (they can log in, the staff one into the admin).",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "DEBUG is false: this looks like production, and the demo data creates accounts that can log in "
                "(one of them staff). Create your own with `manage.py createsuperuser`, or pass "
                "--allow-production if you really want the demo here."
            )
        counts = demo.load(log=self.stdout.write)
        self.stdout.write(
            f"Demo data: {counts['users']} new accounts, {counts['tournaments']} new tournaments, "
            f"{counts['series']} new hourly arena series, {counts['matches']} new bot matches."
        )
        if counts["users"]:
            self.stdout.write("Note the passwords above: they are shown only now and stored nowhere.")
