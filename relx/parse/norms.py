"""Token features for text as publishers write it.

The tagger embeds each token by its NORM, PREFIX, SUFFIX and SHAPE and learned genes from
corpora that spell Greek letters out and hyphenate with ``-`` (``TNF-alpha``), while PubMed
XML, PMC and PDFs write ``TNF‐α`` (U+2010 and the letter). :func:`spell_greek_features`
gives such a word the four features of its spelled-out, ASCII-hyphenated form
(docs/genes.md, naming rounds 12, 14 and 38).
"""

from __future__ import annotations

from typing import Any

from relx.genes.lexicon import GREEK_TABLE

__all__ = ["HYPHENS", "spell_greek_features"]

#: hyphens and minus signs publishers write in names (``IL‐6``: U+2010) -> ``-``
HYPHENS = "\u2010\u2011\u2012\u2212"
#: Greek letters spelled out as the lexicon spells them, publishers' hyphens as ``-``
_SPELLED = {**GREEK_TABLE, **{ord(c): "-" for c in HYPHENS}}
#: the lexeme features the tagger embeds a token by, as spaCy's attribute names
_FEATURES = ("NORM", "PREFIX", "SUFFIX", "SHAPE")


def spell_greek_features(nlp: Any) -> None:
    """Give a word with Greek letters or Unicode hyphens the NORM, PREFIX, SUFFIX and SHAPE
    of its spelled-out, ASCII-hyphenated form (``TRα`` reads as ``TRalpha``: ``tralpha``,
    ``T``, ``pha``, ``XXxxxx``): the tagger learned genes from corpora that write
    ``TRalpha``, while PubMed, PMC and PDFs write the letters and publishers' hyphens.
    Other words keep their features (idempotent)."""
    from spacy import attrs

    getters = nlp.vocab.lex_attr_getters
    for name in _FEATURES:
        attr = getattr(attrs, name)
        getter = getters.get(attr)
        if getter is None or getattr(getter, "spells_greek", False):
            continue
        getters[attr] = _spelling(getter)
    spelled = {name: getters[getattr(attrs, name)] for name in _FEATURES
               if getattr(attrs, name) in getters}
    for lex in nlp.vocab:       # lexemes made before (the model's own vocabulary)
        if _to_spell(lex.orth_):
            for name, getter in spelled.items():
                setattr(lex, name.lower() + "_", getter(lex.orth_))


def _spelling(getter: Any) -> Any:
    def spelled(text: str) -> str:
        return getter(text.translate(_SPELLED)) if _to_spell(text) else getter(text)

    spelled.spells_greek = True   # type: ignore[attr-defined]
    return spelled


def _to_spell(text: str) -> bool:
    return any("\u0370" <= c <= "\u03ff" or c in HYPHENS for c in text)
