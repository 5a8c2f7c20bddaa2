"""Dudo (Kubdubo, liar's dice)."""
