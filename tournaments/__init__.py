"""Tournaments that organizers schedule; Celery runs them (see the tournaments issue)."""
