"""Token norms for text as publishers write it.

The tagger embeds each token by its NORM (with prefix, suffix and shape) and learned genes
from corpora that spell Greek letters out and hyphenate with ``-`` (``TNF-alpha``), while
PubMed XML, PMC and PDFs write ``TNF‐α`` (U+2010 and the letter). :func:`spell_greek_norms`
gives such a word the NORM of its spelled-out, ASCII-hyphenated form (docs/genes.md, naming
rounds 12 and 14).
"""

from __future__ import annotations

from typing import Any

from relx.genes.lexicon import GREEK_TABLE

__all__ = ["HYPHENS", "spell_greek_norms"]

#: hyphens and minus signs publishers write in names (``IL‐6``: U+2010) -> ``-``
HYPHENS = "\u2010\u2011\u2012\u2212"
#: Greek letters spelled out as the lexicon spells them, publishers' hyphens as ``-``
_SPELLED = {**GREEK_TABLE, **{ord(c): "-" for c in HYPHENS}}


def spell_greek_norms(nlp: Any) -> None:
    """Give a word with Greek letters or Unicode hyphens the NORM of its spelled-out,
    ASCII-hyphenated form (``TNF‐α`` -> ``tnf-alpha``): the tagger embeds tokens by NORM
    and learned genes from corpora that write ``TNF-alpha``, while PubMed, PMC and PDFs
    write the letters and publishers' hyphens. Other words keep their norms (idempotent)."""
    from spacy.attrs import NORM

    getters = nlp.vocab.lex_attr_getters
    norm = getters.get(NORM)
    if norm is None or getattr(norm, "spells_greek", False):
        return

    def spelled(text: str) -> str:
        return norm(text.translate(_SPELLED)) if _to_spell(text) else norm(text)

    spelled.spells_greek = True   # type: ignore[attr-defined]
    getters[NORM] = spelled
    for lex in nlp.vocab:       # lexemes made before (the model's own vocabulary)
        if _to_spell(lex.orth_):
            lex.norm_ = spelled(lex.orth_)


def _to_spell(text: str) -> bool:
    return any("\u0370" <= c <= "\u03ff" or c in HYPHENS for c in text)
