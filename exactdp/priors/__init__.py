"""priors."""
