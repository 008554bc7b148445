"""Representations of structures: kernel hashcodes (KLSH) and structure extraction."""
