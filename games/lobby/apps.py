from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "games.lobby"
    label = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Lend the match pages' states a rematch asked for at their table."""
        from games.lobby import invitations
        from games.matches import broadcast

        broadcast.report_rematches(invitations.rematch_asked)
