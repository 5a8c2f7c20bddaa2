"""What every page's header shows from the lobby: the challenges waiting for the user's answer,
so a player challenged by name sees it wherever they are, not only in that game's lobby."""

from games.lobby import invitations


def challenges(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"challenges_for_me": invitations.pending_for(user)}
