"""Human genes tied on a case-folded alias, told apart by how mouse and rat write it (naming
round 84): HGNC gives PRDX2 and PRNP the alias ``PRP``, so ``PrP`` (the prion protein, as
papers write it) ties them; MGI writes Prnp's alias ``PrP`` and Prdx2's ``PRP``."""

from __future__ import annotations

from relx.genes.lexicon import SOURCE_WEIGHT, Grounder, GroundingCandidate
from relx.ids import MOUSE, RAT

__all__ = ["by_rodent_case", "matched_as_written"]


def matched_as_written(c: GroundingCandidate) -> bool:
    """Matched as written: no case folding, variant or ortholog lowered its score."""
    return c.score >= SOURCE_WEIGHT[c.source] - 1e-9


def by_rodent_case(g: Grounder, text: str, cands: list[GroundingCandidate]
                   ) -> list[GroundingCandidate]:
    """``cands`` (human, best first) with, when the best ones tie and none is written as
    ``text`` in its exact case, the one tied gene whose mouse or rat ortholog is (``PrP``:
    PRNP before PRDX2) first; else ``cands`` as they are."""
    if len(cands) < 2 or matched_as_written(cands[0]):
        return cands
    top = [c for c in cands if (c.score, c.source) == (cands[0].score, cands[0].source)]
    if len(top) < 2:
        return cands
    written = {h for taxon in (MOUSE, RAT) for c in g.ground(text, taxon) if matched_as_written(c)
               for h in g.orthologs.to_human(c.id)}
    hits = [c for c in top if c.id in written]
    if len(hits) != 1:
        return cands
    return [hits[0], *(c for c in cands if c is not hits[0])]
