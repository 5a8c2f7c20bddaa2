import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import GAMES, IllegalAction
from games.simulate_report import simulate


class Command(BaseCommand):
    help = "Play bot games through the rule engine and print win rates and speed."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=sorted(GAMES))
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="heuristic,random", help="comma-separated, repeated to fill the seats")
        parser.add_argument("--options", default="{}", help="table options as JSON")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        names = [name.strip() for name in opts["bots"].split(",") if name.strip()]
        if not names or opts["players"] < 1 or opts["games"] < 1:
            raise CommandError("Give at least one bot, one player and one game.")
        seats = [names[i % len(names)] for i in range(opts["players"])]
        try:
            report = simulate(opts["game"], seats, opts["games"], opts["seed"], json.loads(opts["options"]))
        except (IllegalAction, KeyError, ValueError) as error:
            raise CommandError(str(error)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"{report['game']}: {report['games']} games, {report['players']} players ({', '.join(seats)})"
        )
        for name, rate in report["win_rate"].items():
            self.stdout.write(f"  {name:>12}: wins {rate:6.1%} per seat, shared {report['shared_win_rate'][name]:6.1%}")
        self.stdout.write(
            f"  {report['average_actions']:.1f} actions per game, {report['games_per_second']:.1f} games/s, "
            f"{report['actions_per_second']:.0f} actions/s"
        )
