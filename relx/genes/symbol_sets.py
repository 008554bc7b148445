"""The approved HGNC symbols of a lexicon as written (``FASN``, ``F11R``): what mention
completion (:mod:`relx.genes.more_mentions`) adds as mentions and what a variant notation
may also look like (:mod:`relx.genes.variants`), kept apart from both so that grounding
(:mod:`relx.genes.document`) can read it without an import cycle."""

from __future__ import annotations

from relx.array_cache import code_version
from relx.genes.lexicon import Grounder

__all__ = ["approved_symbols"]


def approved_symbols(grounder: Grounder) -> frozenset[str]:
    """The approved HGNC symbols of ``grounder``'s lexicon as written (``FASN``), made once
    per grounder (:meth:`Grounder.derived_strings`)."""
    return grounder.derived_strings(
        f"approved-symbols-{code_version(__file__)}",
        lambda: {form for _, (cid, _, form) in grounder.index.rows_of_sources(("symbol",))
                 if cid.startswith("HGNC:")})
