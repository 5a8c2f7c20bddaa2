"""Dubito: build four rows, each with its own rule."""
