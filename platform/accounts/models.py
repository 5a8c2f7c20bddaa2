"""Accounts: people, organizers, staff and the bots that programmers own."""

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models, transaction
from django.db.models.functions import Lower
from rest_framework.authtoken.models import Token

from accounts.usernames import username_key
from games.matches import broadcast


class CaseInsensitiveUserManager(UserManager):
    """Logins find "Alice" when she typed "alice" (or "ALICE", or "aIice"): a username is compared
    in its one normalized form (accounts/usernames.py)."""

    def get_by_natural_key(self, username):
        """The account of that key. Accounts made before keys existed may share one: then the one
        whose name is the typed one ignoring case (docs/security.md, "Usernames")."""
        found = list(self.filter(username_key=username_key(username))[:10])
        if len(found) > 1:
            found = [user for user in found if user.username.casefold() == username.strip().casefold()]
        if len(found) != 1:
            raise self.model.DoesNotExist(f"No single account is called {username!r}.")
        return found[0]


class User(AbstractUser):
    class Role(models.TextChoices):
        PLAYER = "player", "Player"
        ORGANIZER = "organizer", "Organizer"
        STAFF = "staff", "Staff"

    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    is_bot = models.BooleanField(default=False, help_text="A house bot or an uploaded bot, not a person.")
    bot_owner = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="owned_bots"
    )
    bio = models.CharField(max_length=280, blank=True)
    # The username in the form sign-up, sign-in and login lockouts compare (accounts/usernames.py).
    username_key = models.CharField(max_length=150, db_index=True, editable=False, default="")

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case")]

    def __str__(self) -> str:
        return self.username

    def save(self, *args, **kwargs):
        """A new password (changed, or reset from the e-mailed link) also retires the account's
        API token: whoever held the old password may hold the token too. The next token login
        gets a new one."""
        password_changed = self._password is not None and self.pk is not None
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)
        if password_changed:
            Token.objects.filter(user=self).delete()
            # Every socket closes and opens again with what still signs it in (docs/security.md).
            transaction.on_commit(lambda: broadcast.close_account_sockets(self.pk))

    @property
    def display_name(self) -> str:
        """The full name when the person gave one, else the username."""
        return self.get_full_name() or self.username

    @property
    def can_organize(self) -> bool:
        """Organizers and staff may create and run tournaments (an organizer is not staff)."""
        return self.role in (self.Role.ORGANIZER, self.Role.STAFF) or self.is_staff
