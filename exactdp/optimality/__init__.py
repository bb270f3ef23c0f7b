"""optimality."""
