"""Sequence variants written where a gene name is expected: ``F508del``, ``G12D``.

The tagger takes some variant notations for gene mentions (``Kras G12D`` gives a mention
``G12D``), and a relation is then reported between a gene and its own variant.
:func:`is_variant` says whether a mention's text is wholly a variant notation; the
grounding (:func:`relx.genes.document.ground_document`) types such a mention
:data:`VARIANT_TYPE`, with no ids (docs/genes.md, round 17). Notations:

- HGVS: ``c.1775G>A``, ``g.3318``, ``p.Arg243His``, ``p.(Gly12Asp)``;
- a substitution with three-letter amino acids (``Tyr65X``, ``Arg243His``) or with
  one-letter ones and a position of two digits or more (``G12D``, ``V600E``, ``F508del``),
  unless the text is an approved HGNC symbol as written (``F11R``);
- dbSNP ids (``rs1801133``), intron positions (``IVS3``, ``IVS4+1G>A``), deletions and
  insertions (``30delG``) and alleles (``G/A``).
"""

from __future__ import annotations

import re
from collections.abc import Container

__all__ = ["SUBSTITUTION", "VARIANT_TYPE", "is_variant"]

#: the type a variant mention gets (PubTator's and BioRED's name)
VARIANT_TYPE = "SequenceVariant"

_AA1 = "ACDEFGHIKLMNPQRSTVWY"
_AA3 = "Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|Val|Sec|Ter"
_HGVS = re.compile(r"^(?:[cgmnr]\.[-*]?\d[\w>*+\-?()]*|p\.\(?(?:[A-Z][a-z]{2}|[A-Z])\d+[\w*]*\)?)$")
_THREE_LETTER = re.compile(rf"^(?:{_AA3})\d{{1,5}}(?:{_AA3}|X|\*|del|fs\w*)$")
#: a one-letter protein substitution as written onto a gene's name (``KrasG12D``,
#: ``SOD1G93A``; naming round 88): a pattern to build on
SUBSTITUTION = rf"[{_AA1}]\d{{2,4}}[{_AA1}]"
_ONE_LETTER = re.compile(rf"^[{_AA1}]\d{{2,5}}(?:[{_AA1}X*]|del|fs)$")
_OTHER = re.compile(r"^(?:rs\d{3,}|IVS\d+(?:[-+]\d+)?(?:[ACGT]>[ACGT])?|\d+(?:del|ins|dup)[ACGT]*|"
                    r"[ACGT]/[ACGT])$")


def is_variant(text: str, symbols: Container[str] = ()) -> bool:
    """``text`` is wholly a sequence variant notation; ``symbols``: approved gene symbols as
    written, which a one-letter substitution may also look like (``F11R``)."""
    text = text.strip()
    if _ONE_LETTER.match(text):
        return text not in symbols
    return bool(_HGVS.match(text) or _THREE_LETTER.match(text) or _OTHER.match(text))
