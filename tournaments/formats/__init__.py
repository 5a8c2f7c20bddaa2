"""Tournament formats: one class per format (base.py says what a format decides), each in a module
of its own, all registered in tournaments/apps.py. Code asks `tournament.rules`, the format of a
tournament, instead of testing which format it is (docs/tournaments.md, "Formats")."""
