"""Signing out reaches the sockets the session opened, not only its next request."""

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from games.matches import broadcast


@receiver(user_logged_out)
def close_the_sessions_sockets(sender, request, user, **kwargs):
    """Its pages' sockets open again as a visitor's (a session signed out on a shared computer
    must not go on playing, or hearing its notices, through a tab left open)."""
    key = request.session.session_key if request is not None else None
    if key:
        broadcast.close_session_sockets(key)
