"""Dudab Buba: shed cards onto shared columns, dodge collecting them; fewest points wins."""
