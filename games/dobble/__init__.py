"""Dobble (Spot it!): the deck, the five real-time mini-games, tournament points and bots."""
