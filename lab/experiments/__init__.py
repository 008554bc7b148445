"""Experiments and selection runs behind relx's configs and shipped settings (each module
runs as ``python -m lab.experiments.<name>``; its docstring says what it chose and how)."""
