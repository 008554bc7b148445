"""Protein-protein interactions: the relation model, extraction, evaluation, reports.

Built on the shared core (data model, io, parse, ground, structures, kernels, represent,
learn); the application layer (:mod:`relx.app`) drives it from the command line and batches.
"""
