"""utility."""
