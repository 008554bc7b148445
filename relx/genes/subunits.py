"""A complex's subunit written by its mass after the complex's name (naming round 90,
docs/genes.md): ``IL-12 p40`` is IL12B, ``IL-23 p19`` IL23A, ``NF-kappaB p65`` RELA,
``CDK5 p35`` CDK5R1. The tagger makes two mentions of such a name (``IL-12``, a family,
and ``p40``, a short name of many genes) or leaves the mass out; :func:`with_subunits`
makes one mention of the two when together they are a lexicon name of one gene or family,
and (round 90b) one of a tagged mass and the word before it (``persistent IL-23 p19``:
only ``p19`` tagged).
"""

from __future__ import annotations

import re

from relx.genes.lexicon import Grounder, default_grounder, normalize_key

__all__ = ["with_subunits"]

#: a subunit's mass: ``p`` and two or three digits, a Greek or isoform letter (``p110α``)
_MASS_TEXT = r"p\d{2,3}(?:alpha|beta|gamma|delta|[α-δ]|[a-d])?"
#: a mass after a name: one space or hyphen, the mass, then no more of the word
_MASS = re.compile(rf"[ -]({_MASS_TEXT})(?![\w])")
#: a mass as a whole mention, and the word before it (one space or hyphen between)
_MASS_WORD = re.compile(_MASS_TEXT)
_WORD_BEFORE = re.compile(r"(?<![\w-])[A-Za-z][\w-]*[A-Za-z0-9][ -]$")


def with_subunits(text: str, spans: list[tuple[int, int]], *,
                  grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``, sorted or not) with each mention followed by a
    subunit mass (:data:`_MASS`) joined to it, in place of the mass's own mention, when the
    joined text is a lexicon key of one gene or family (any species, any source); and each
    mention that is a mass alone joined so to the one word before it; sorted."""
    g = grounder or default_grounder()
    out = sorted(set(spans))

    def one_name(a: int, b: int) -> bool:
        rows = g.index.get(normalize_key(text[a:b]))
        return bool(rows) and len({cid for cid, _, _ in rows}) == 1

    for a, b in list(out):
        if not _MASS_WORD.fullmatch(text, a, b):
            continue
        w = _WORD_BEFORE.search(text, max(0, a - 40), a)
        if w is None or any(s < a and w.start() < e for s, e in out) or \
                not one_name(w.start(), b):
            continue
        out = sorted({*(s for s in out if s != (a, b)), (w.start(), b)})
    for a, b in list(out):
        m = _MASS.match(text, b)
        if m is None or (a, b) not in out:
            continue
        if not one_name(a, m.end()):
            continue
        inside = [(s, e) for s, e in out if a <= s and e <= m.end()]
        if any(s < m.end() and a < e for s, e in out if (s, e) not in inside):
            continue   # a mention reaching outside the joined name: leave both
        out = sorted({*(s for s in out if s not in inside), (a, m.end())})
    return out
