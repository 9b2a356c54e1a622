"""The simulated apps: one module per app, built from the view toolkit."""
