from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = "Bots"

    def ready(self) -> None:
        """Answer for the seats of bots that play here; tell webhook bots when their matches end."""
        from botapi import players, receivers
        from games.matches import seat_players, signals

        seat_players.register(players.HostedBot())
        signals.match_finished.connect(receivers.tell_webhooks_the_end, dispatch_uid="botapi")
