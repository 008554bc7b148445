"""Gene names with their abbreviation written inside them, before the number or letter that
ends the name: ``toll-like receptor (TLR)4``, ``hepatocyte nuclear factor (HNF)-6``,
``Surfactant protein (SP)-A``, ``uroplakin (UP) III`` (docs/genes.md, round 54). BioRED
annotates the whole span as one mention; the tagger finds none of these but the hyphenated
``(HNF)-6``."""

from __future__ import annotations

import re

from relx.genes.lexicon import Grounder, default_grounder
from relx.genes.more_mentions import gene_ids, take_span

__all__ = ["with_bracketed_names"]

#: ``(SHORT)`` and the end of the name after it: right after it, or after a hyphen or a
#: space; a number (with a letter), a capital, a Roman numeral or a Greek letter
_INSIDE = re.compile(
    r"\((?P<short>[A-Za-z][A-Za-z0-9]{0,9})\)(?P<sep>-|\s)?"
    r"(?P<end>\d+[A-Za-z]?|[IVX]+|[A-Z]|alpha|beta|gamma|delta|kappaB|kappa|\u03baB|[\u03b1-\u03c9])"
    r"(?![\w-])")
#: how far back (characters) a long form is looked for
_REACH = 200


def with_bracketed_names(text: str, spans: list[tuple[int, int]], *,
                         grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with each name written as ``long form
    (SHORT)end`` as one mention, from the long form's start to the end, in text order: when
    the words before the bracket are the short form's long form, the short form with its
    end as written (``TLR4``, ``SP-A``) grounds to a gene or FamPlex entry out of context,
    and the whole span grounds to the same best id. Added when no mention reaches outside
    it, replacing the mentions inside it."""
    from relx.genes.document import resolve
    from relx.parse.abbreviations import long_form_before

    g = grounder or default_grounder()
    out = sorted(set(spans))
    for m in _INSIDE.finditer(text):
        short = m.group("short") + (m.group("sep") or "") + m.group("end")
        ids = gene_ids(g, short)
        if not ids:
            continue
        long = long_form_before(m.group("short"), text, m.start(), _REACH)
        if long is None:
            continue
        start = long[0]
        whole = resolve(text[start:m.end()], grounder=g).ids
        if whole[:1] == ids[:1]:
            out = take_span(out, (start, m.end()))
    return out
