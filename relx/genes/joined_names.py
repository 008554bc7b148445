"""Gene names joined into one tagged mention, split apart: by an en dash (``CCL2\u2013CCR2``,
naming round 48) or by a hyphen (``Keap1-Nrf2``, ``TMPRSS2-ERG fusion``, round 97)."""

from __future__ import annotations

import re

from relx.genes.lexicon import Grounder, default_grounder
from relx.genes.more_mentions import gene_ids

__all__ = ["joined_names_left_out", "split_en_dashes", "split_hyphen_joined"]

#: the mention's first word, with its hyphens (the words after it: ``fusion``, ``axis``)
_FIRST_WORD = re.compile(r"\S+")
#: a part of a joined word: a letter, then letters (Greek too), digits and hyphens
_PART = re.compile(r"[^\W\d_][^\W_]*(?:-[^\W_]+)*")
#: the next word says what two joined names do together (round 97b)
_TOGETHER = re.compile(
    r"\s+(?:axis|pathways?|signall?ing|interactions?|(?:hetero)?complex(?:es)?|"
    r"(?:hetero)?dimers?|fusions?|loops?|cascades?|ligases?|binding|crosstalk|interplay|"
    r"modules?|circuits?)\b", re.IGNORECASE)


def split_en_dashes(text: str, spans: list[tuple[int, int]], *,
                    grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with each mention that holds an en dash between
    names (``CCL2–CCR2``, ``IL-6–STAT3``, ``Beclin-1–Vps34 complex``) split into them, when
    every part grounds to a gene or FamPlex entry out of context; a part grounded through
    a part of it keeps that part (``Vps34`` of ``Vps34 complex``)."""
    from relx.genes.document import resolve

    g = grounder or default_grounder()
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if "\u2013" not in text[a:b]:
            out.append((a, b))
            continue
        parts, at = [], a
        for piece in text[a:b].split("\u2013"):
            lead = len(piece) - len(piece.lstrip())
            start, end = at + lead, at + len(piece.rstrip())
            at += len(piece) + 1
            if end <= start or not gene_ids(g, text[start:end]):
                parts = []
                break
            inner = resolve(text[start:end], grounder=g).span   # memoised: no second lookup
            parts.append((start + inner[0], start + inner[1]) if inner else (start, end))
        out += parts or [(a, b)]
    return sorted(out)


def _name(g: Grounder, word: str) -> tuple[str, ...]:
    """The ids ``word`` grounds to as a whole name (a lexicon key, not through a part), when
    it is written as a name (a letter first; letters, digits, hyphens) of two letters or
    more, five without a capital; else ``()``."""
    letters = sum(c.isalpha() for c in word)
    if not _PART.fullmatch(word) or letters < 2 or (
            letters < 5 and not any(c.isupper() for c in word)):   # "pan-", "beta-MHC"
        return ()
    return gene_ids(g, word, whole=True)


def _joined(g: Grounder, text: str, a: int, word: str) -> list[tuple[int, int]]:
    """The two names of ``word`` (at ``a`` in ``text``) when it is two names a hyphen joins
    before a word that says what they do together (rounds 97b and 98), else ``[]``."""
    if "-" not in word.strip("-") or not _TOGETHER.match(text, a + len(word)) or \
            gene_ids(g, word, whole=True):
        return []
    for cut in (i for i, c in enumerate(word) if c == "-"):
        first, second = _name(g, word[:cut]), _name(g, word[cut + 1:])
        if first and second and first[0] != second[0]:
            return [(a, a + cut), (a + cut + 1, a + len(word))]
    return []


#: a hyphenated word of the text (letters, Greek letters, digits), not inside a longer one
_JOINED_WORD = re.compile(r"(?<![\w-])[^\W_]+(?:-[^\W_]+)+(?![\w-])")


def joined_names_left_out(text: str, spans: list[tuple[int, int]], *,
                          grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` with the two names of each hyphenated word no span overlaps that joins two
    names before a word saying what they do together (``the TLR4-MyD88 axis``,
    ``HMGB1-RAGE signaling``; naming round 98), as two mentions."""
    g = grounder or default_grounder()
    added: list[tuple[int, int]] = []
    for m in _JOINED_WORD.finditer(text):
        if _TOGETHER.match(text, m.end()) and \
                not any(a < m.end() and m.start() < b for a, b in spans):
            added += _joined(g, text, m.start(), m.group())
    return sorted([*spans, *added])


def split_hyphen_joined(text: str, spans: list[tuple[int, int]], *,
                        grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with each mention whose first word is two names
    a hyphen joins, followed by a word that says what they do together (``Keap1-Nrf2
    pathway``, ``PD-1-PD-L1 interaction``, ``TMPRSS2-ERG fusion``), split into the two
    names (naming round 97b): at the first hyphen where the words on both sides are names
    of different genes (:func:`_name`) and the whole word is none (``HLA-B``, ``PD-L1``,
    ``Cbl-b`` stay whole). The words after it are left out."""
    g = grounder or default_grounder()
    out: list[tuple[int, int]] = []
    for a, b in spans:
        m = _FIRST_WORD.match(text, a, b)
        out += _joined(g, text, a, m.group() if m else "") or [(a, b)]
    return sorted(out)
