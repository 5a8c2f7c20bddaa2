"""Events the match service publishes for the apps above it (ratings, tournaments, bots).

The match service never imports those apps: they connect their receivers in their
AppConfig.ready(), and the service sends the event.
"""

from django.dispatch import Signal

# Sent once a finished match is handed on for scoring (tasks.settle), with `match_id`.
# Receivers must be idempotent: a lost task is settled again by the sweep, so a match can be
# announced twice. An exception leaves the match unsettled, and the sweep tries again.
match_finished = Signal()
