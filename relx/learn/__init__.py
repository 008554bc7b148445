"""Classifiers: random-subspace forest on hashcodes, kernel baselines."""
