"""Gene names written with Greek letters that the tagger misses: they differ from its
training words in prefix and shape. A name that begins with a Greek letter or a letter's
name and a hyphen (``α-synuclein``, ``beta-Klotho``, ``β-arrestin 2``: docs/genes.md, round
34), that ends in one (``eIF2α``, ``PKCδ``: round 49; ``PPAR gamma``, after a space: round
64), or, as PubMed's ASCII texts write them, in one written as its Latin initial (``TNFa``,
``PPARg``: round 52; ``a-synuclein``: round 53), is a mention when it grounds as a whole to
one gene."""

from __future__ import annotations

import re
from collections.abc import Callable

from relx.genes.lexicon import Grounder, default_grounder
from relx.genes.more_mentions import gene_ids, take_span

__all__ = ["with_greek_names"]

#: a word that begins with a Greek letter or a letter's name and a hyphen (``β-catenin``,
#: ``alpha-actinin-4``), and a number after a space when one follows (``β-arrestin 2``)
_GREEK_FIRST = re.compile(
    r"(?<![\w-])(?P<word>(?:[\u0391-\u03a9\u03b1-\u03c9]|"
    r"(?:alpha|beta|gamma|delta|epsilon|kappa)-)[\w-]*\w)(?P<number>\s\d+\b)?",
    re.IGNORECASE)
#: a unit written with a micro sign (``μM``, ``µg``, ``μmol``): no name (round 51a)
_MICRO_UNIT = re.compile(r"[\u00b5\u03bc](?:[mnpf]?(?:M|mol)|[gLlmsAVJ]|Ci|Gy|Pa)")
#: a word that ends in a Greek letter after two characters or more, the first a Latin
#: letter (``eIF2α``, ``PKCδ``, ``HIF-1α``; not ``Hβ``)
_GREEK_LAST = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9-][\u03b1-\u03c9](?![\w-])")
#: a word ending in a Greek letter written as its Latin initial (``TNFa``, ``PPARg``,
#: ``IkBa``): PubMed's ASCII texts (round 52)
_LATIN_GREEK = re.compile(r"(?<![\w-])(?P<base>[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])(?P<letter>[abgdk])"
                          r"(?![\w-])")
_GREEK_OF = {"a": "alpha", "b": "beta", "g": "gamma", "d": "delta", "k": "kappa"}
#: a symbol (two capitals, or a capital and a digit) and a Greek letter or its name after a
#: space (``PPAR gamma``, ``PI3K γ``; round 64): a mention when the letter names another
#: gene than the symbol alone (not the ``IL-2`` of ``IL-2 gamma chain``)
_GREEK_AFTER = re.compile(
    r"(?<![\w-])(?=[\w-]*[A-Z][\w-]*[A-Z0-9])[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9] "
    r"(?:alpha|beta|gamma|delta|epsilon|kappa|[\u03b1-\u03b5\u03ba])(?![\w-])")
#: a Greek letter written as its Latin initial and a hyphen before a name (``a-synuclein``,
#: ``b-arrestin 2``; round 53)
_LATIN_GREEK_FIRST = re.compile(
    r"(?<![\w-])(?P<letter>[abgdk])-(?P<word>[A-Za-z][\w-]*\w)(?P<number>\s\d+\b)?")


def with_greek_names(text: str, spans: list[tuple[int, int]], *,
                     grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with the names that begin with a Greek letter
    or a letter's name and a hyphen (``α-synuclein``, ``beta-Klotho``; with a number after
    them when one follows: ``β-arrestin 2``) or end in a Greek letter after a Latin one
    (``eIF2α``, ``PKCδ``) or follow a symbol after a space (``PPAR gamma``, when the letter
    names another gene than the symbol), or end in one written as its Latin initial after
    two capitals or a digit (``TNFa``, ``PPARg``) or begin with one and a hyphen
    (``a-synuclein``), in text order, when the name (the Latin initial spelled out) as a
    whole grounds to one gene (human lexicon, lexicon or spelling route; not a family): added
    when no mention reaches outside it, replacing the mentions inside it. The tagger misses
    such words: they differ from its training words in prefix and shape."""
    g = grounder or default_grounder()
    out = sorted(set(spans))
    for m in _GREEK_FIRST.finditer(text):
        if not _MICRO_UNIT.fullmatch(m.group("word")):
            out = _with_first_name(g, out, m, lambda end, m=m: text[m.start():end])
    for m in _GREEK_LAST.finditer(text):
        if gene_ids(g, m.group(), whole=True, families=False):
            out = take_span(out, m.span())
    for m in _GREEK_AFTER.finditer(text):     # the letter names another gene (not IL-2's)
        ids = gene_ids(g, m.group(), whole=True, families=False)
        if ids and ids[0] not in gene_ids(g, m.group().rsplit(" ", 1)[0])[:1]:
            out = take_span(out, m.span())
    for m in _LATIN_GREEK_FIRST.finditer(text):
        out = _with_first_name(g, out, m, lambda end, m=m: _GREEK_OF[m.group("letter")]
                               + text[m.end("letter"):end])
    for m in _LATIN_GREEK.finditer(text):
        base = m.group("base")
        if sum(c.isupper() for c in base) < 2 and not any(c.isdigit() for c in base):
            continue
        if gene_ids(g, base + _GREEK_OF[m.group("letter")], whole=True, families=False):
            out = take_span(out, m.span())
    return out


def _with_first_name(g: Grounder, out: list[tuple[int, int]], m: re.Match[str],
                     name: Callable[[int], str]) -> list[tuple[int, int]]:
    """``out`` with the span from ``m``'s start to its end, or else to its word's end (a
    number after the word: ``β-arrestin 2``), taken when ``name(end)`` grounds as a whole
    to one gene."""
    for end in (m.end(), m.end("word")) if m.group("number") else (m.end(),):
        if gene_ids(g, name(end), whole=True, families=False):
            return take_span(out, (m.start(), end))
    return out
