"""Lemmas for tokens that come with Penn Treebank POS tags but no lemma (corpus parses)."""

from __future__ import annotations

from functools import lru_cache

from lemminflect import getLemma

_UPOS = {"N": "NOUN", "V": "VERB", "J": "ADJ", "R": "ADV"}


@lru_cache(maxsize=200_000)
def lemmatize(word: str, ptb_tag: str | None) -> str:
    """Lower-cased lemma of ``word`` given its PTB tag (``NNS`` -> noun, ``VBD`` -> verb...)."""
    low = word.lower()
    if not ptb_tag:
        return low
    if ptb_tag.startswith("NNP"):
        return low
    upos = _UPOS.get(ptb_tag[0])
    if upos is None:
        return low
    lemmas = getLemma(low, upos=upos, lemmatize_oov=True)
    return lemmas[0].lower() if lemmas else low
