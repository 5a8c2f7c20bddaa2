"""I Doubt It (Cheat): shed your cards, lie when you must, doubt when they lie."""
