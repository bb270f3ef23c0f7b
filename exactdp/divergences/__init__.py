"""divergences."""
