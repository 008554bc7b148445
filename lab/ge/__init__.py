"""GENIA event levers measured and not shipped, the selection code that chose the shipped
settings, and ``python -m lab.ge`` (docs/ge-events.md)."""
