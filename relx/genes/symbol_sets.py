"""Symbols of a lexicon as written. The approved HGNC symbols (``FASN``, ``F11R``): what
mention completion (:mod:`relx.genes.more_mentions`) adds as mentions and what a variant
notation may also look like (:mod:`relx.genes.variants`). The mouse and rat symbols in
rodent nomenclature (``Tet2``, ``Il6ra``): what says a mention names a rodent's gene
(:func:`relx.genes.species.assign_species`). Kept apart from their users so that grounding
(:mod:`relx.genes.document`) can read them without an import cycle."""

from __future__ import annotations

import re

from relx.array_cache import code_version
from relx.genes.lexicon import Grounder
from relx.genes.lexicon_table import LexiconRows
from relx.genes.species import MOUSE, RAT

__all__ = ["approved_symbols", "rodent_symbols"]

#: rodent nomenclature: a capital, then lower-case letters and digits, at least one letter
_RODENT_STYLE = re.compile(r"[A-Z][a-z0-9]*[a-z][a-z0-9]*")


def approved_symbols(grounder: Grounder) -> frozenset[str]:
    """The approved HGNC symbols of ``grounder``'s lexicon as written (``FASN``), made once
    per grounder (:meth:`Grounder.derived_strings`)."""
    return grounder.derived_strings(
        f"approved-symbols-{code_version(__file__)}",
        lambda: {form for _, (cid, _, form) in grounder.index.rows_of_sources(("symbol",))
                 if cid.startswith("HGNC:")})


def hyphenated_symbols(grounder: Grounder) -> frozenset[str]:
    """The approved HGNC symbols written with a hyphen, as HGNC writes them (``HLA-B``,
    ``NKX2-1``, ``CDKN2B-AS1``): their compact form in :func:`approved_symbols` drops it
    (naming round 94), made once per grounder. Not a read-through of approved symbols
    (``INS-IGF2``, ``CCL15-CCL14``): written so, it names the two genes."""
    def build() -> set[str]:
        approved = approved_symbols(grounder)
        out = set()
        for _, (cid, _, _) in grounder.index.rows_of_sources(("symbol",)):
            symbol = grounder.symbol(cid) or "" if cid.startswith("HGNC:") else ""
            if "-" in symbol and not all(p in approved for p in symbol.split("-")):
                out.add(symbol)
        return out

    return grounder.derived_strings(f"hyphenated-symbols-{code_version(__file__)}", build)


def rodent_symbols(grounder: Grounder) -> frozenset[str]:
    """The approved MGI and RGD symbols of ``grounder``'s lexicon written in rodent
    nomenclature (``Tet2``, ``Il6ra``, ``Tuba1a``) that are not approved HGNC symbols as
    written, made once per grounder."""
    def build() -> set[str]:
        human = approved_symbols(grounder)
        tables = [grounder.species_index(taxon) for taxon in (MOUSE, RAT)]
        return {form for rows in tables if isinstance(rows, LexiconRows)
                for _, (_, _, form) in rows.rows_of_sources(("symbol",))
                if _RODENT_STYLE.fullmatch(form) and form not in human}

    return grounder.derived_strings(f"rodent-symbols-{code_version(__file__)}", build)
