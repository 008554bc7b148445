"""Which species' lexicon names a gene mention of a species relx has no lexicon for.

relx's gene lexicons are human, mouse and rat. A mention of another species is named as
its human orthologs (the entity keeps its species; the confidence is the ortholog's):

* a mammal (sheep, dog, pig...), always (naming round 3);
* a eukaryotic model organism (fruit fly, yeast, worm, zebrafish, frog, chicken) when its
  document names human too -- a fly extract or a yeast assay in a human study (round 68);
* budding or fission yeast when the mention is not written as a yeast gene (``Bcl-2``
  expressed in yeast; yeast writes ``MSH2``, ``Aip1p``, ``YJL184w``; round 72).
"""

from __future__ import annotations

import re

from relx.genes.lexicon import GENE_NAMESPACE
from relx.genes.species import MAMMALS
from relx.ids import HUMAN

__all__ = ["MODEL_ORGANISMS", "YEASTS", "lexicon_taxon"]

#: eukaryotic model organisms with no gene lexicon here: fruit fly, budding and fission
#: yeast, worm, zebrafish, frogs, chicken
MODEL_ORGANISMS = frozenset(f"NCBITaxon:{t}" for t in (7227, 4932, 4896, 6239, 7955, 8355,
                                                        8364, 9031))
#: budding and fission yeast
YEASTS = frozenset({"NCBITaxon:4932", "NCBITaxon:4896"})
#: a gene written as yeast writes its genes: three letters and a number (``MSH2``,
#: ``Rad51``, ``Aip1p``) or an ORF name (``YJL184w``)
_YEAST_STYLE = re.compile(r"^(?:[A-Za-z]{3}\d{1,3}[A-Za-z]?|Y[A-P][LR]\d{3}[WCwc](?:-[A-Z])?)$")


def lexicon_taxon(taxon: str | None, human_named: bool = False, text: str | None = None
                  ) -> str | None:
    """The species whose lexicon names a mention of ``taxon`` (written ``text``, when
    given) in a document that names human (``human_named``) or not: see the module."""
    if taxon in MAMMALS and taxon not in GENE_NAMESPACE:
        return HUMAN
    if text is not None and taxon in YEASTS and not _YEAST_STYLE.match(text.strip()):
        return HUMAN
    return HUMAN if human_named and taxon in MODEL_ORGANISMS else taxon
