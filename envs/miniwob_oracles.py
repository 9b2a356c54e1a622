"""Oracles for MiniWoB++ tasks: placeholder, filled below."""
ORACLES = {}
