"""The lexicon's other ways of writing a name that grounds to nothing as written: a
receptor by ligand and subtype (``serotonin 2C receptor``: ``5-HT2C receptor``; naming
round 75) and a receptor or enzyme numbered as a type (``type I IL-1 receptor``: ``IL-1
receptor 1``; round 85)."""

from __future__ import annotations

from relx.genes.lexicon import Grounder, GroundingCandidate
from relx.genes.mention import receptor_forms, spelling_forms, type_forms

__all__ = ["other_form_candidates"]


def other_form_candidates(g: Grounder, text: str, taxon: str | None
                          ) -> list[GroundingCandidate]:
    """The candidates of the first other form of ``text`` that grounds (type forms also
    through relx's spellings: ``IL-1 receptor 1`` as ``IL-1R1``), else []."""
    for form in receptor_forms(text):
        cands = g.ground(form, taxon)
        if cands:
            return cands
    for form in type_forms(text):
        cands = g.ground(form, taxon) or next(
            (c for f in spelling_forms(form) if (c := g.ground(f, taxon))), [])
        if cands:
            return cands
    return []
