"""Uploaded bot code: every version kept, so a match always knows exactly what played it."""

from django.conf import settings
from django.db import models


class BotCode(models.Model):
    bot = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="code_versions")
    version = models.PositiveIntegerField()
    source = models.TextField()
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    moves = models.PositiveIntegerField(default=0, help_text="Moves it has answered in matches.")
    failures = models.PositiveIntegerField(default=0, help_text="Moves it failed (crash, timeout, illegal answer).")
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["bot", "version"], name="one_code_per_bot_version")]

    def __str__(self) -> str:
        return f"{self.bot.username} v{self.version}"
