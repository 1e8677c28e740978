"""Widgets every screen shares: themed buttons and labels, the simulator banner, the game bar
with undo/redo, the history list, score tables."""
