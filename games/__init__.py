"""Dubium's games: pure rule engines (one folder per game) and the Django side of matches."""
