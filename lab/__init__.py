"""The lab: experiments, selection and the recipes that build relx's shipped files.

Not part of the relx package (``setup.py`` installs ``relx`` only; ``tests/test_layout.py``
checks that no relx module imports from here). Run from the repository root:
``python -m lab.ge ...``, ``python -m lab.results ...``; the ``Makefile`` targets that build
shipped files (``hedging``, ``lexicon``, ``calibration``, models) name their recipes.
"""
