"""Paper-level tagging: a short form defined anywhere in a paper is a mention wherever the
paper uses it.

In a paper the tagger sees ``apolipoprotein B mRNA-editing enzyme 3G (APOBEC3G)`` once and
then ``A3G`` forty times, some of them in sentences too short or too odd for it. When the
abbreviation detector (scispacy's, on the whole paper) links a short form to a long form
the tagger took for a protein, every occurrence of the short form it lists becomes a
mention too, and so is every occurrence it lists of a short form the tagger took for a
protein elsewhere in the paper (one sense per paper), unless it overlaps a mention already.

Only for full text (a document with a layout, or with a section other than its title and
abstract): abstracts keep exactly the tagger's mentions. A text longer than the parser's
block (:data:`relx.parse.spacy_docs.BLOCK_CHARS`) is tagged block by block, and so are its
short forms: within the block that defines them.
"""

from __future__ import annotations

import re
from typing import Any

from relx.doc import Document, Entity, Span
from relx.genes.lexicon import is_family_name

#: what a short form must look like to be made a mention: no space, a capital or a digit,
#: at most 15 characters (not ``cells``, ``Th`` + words, a supplier's name in parentheses)
_NAME = re.compile(r"^(?=.*[A-Z0-9])[A-Za-z0-9][\w/+.:-]{0,14}$")
#: the share of the long form a tagged mention must cover
COVER = 0.6
#: the entity type of a tagged mention written as a FamPlex family/complex name
#: (``NF-kappaB``, ``PI3K``, ``ERK1/2``), as BioNLP-ST GE types families and complexes
FAMILY_TYPE = "Protein_family_or_group"


def mention_type(text: str) -> str:
    """``Protein``, or :data:`FAMILY_TYPE` for a family/complex name (shipped lexicon)."""
    return FAMILY_TYPE if is_family_name(text) else "Protein"


#: how the last word of a disease's name ends (``xanthomatosis``, ``Alzheimer's disease``)
_DISEASE_END = re.compile(
    r"(?:osis|itis|emia|aemia|opathy|omas?|plasia|trophy|syndrome|disease|disorder|"
    r"deficiency)$", re.IGNORECASE)


def names_a_disease(text: str) -> bool:
    """``text`` (a mention) ends in a word of letters that ends as a disease's name does
    (``Cerebrotendinous xanthomatosis``, ``von Willebrand disease``; not ``FXI-deficiency``,
    a gene with a word around it)."""
    words = text.split()
    return bool(words) and words[-1].isalpha() and bool(_DISEASE_END.search(words[-1]))


def mention_span(ent: Any) -> tuple[int, int]:
    """The character span of a predicted mention (a spaCy ``Span``), without whitespace
    tokens at its ends (the tagger can end a title's last name on the blank line after it:
    ``IRS2\n\n``) and without the full stop the tokenizer leaves on a sentence's last word
    when no suffix rule splits it (``NF-kappaB.``: a period after a lower-upper pair stays
    on the token). An all-whitespace mention gives an empty span."""
    text = ent.text
    start, end = ent.start_char, ent.end_char
    kept = text.rstrip()
    end -= len(text) - len(kept)
    text = kept.lstrip()
    start += len(kept) - len(text)
    if len(text) > 1 and text.endswith(".") and text[-2].isalnum():
        end -= 1
    return start, max(start, end)


def is_full_text(doc: Document) -> bool:
    """A paper's full text: laid out (PDF), or with sections besides title and abstract."""
    return bool(doc.layout) or any(s.type not in ("TITLE", "ABSTRACT") for s in doc.sections)


def _covers(ents: list[tuple[int, int]], start: int, end: int) -> bool:
    n = max(1, end - start)
    return any(min(b, end) - max(a, start) >= COVER * n for a, b in ents)


def short_form_mentions(doc: Document, sdoc: Any, tagged: list[Entity], base: int = 0,
                        first: int = 0) -> list[Entity]:
    """``tagged`` (the tagger's mentions of ``doc``'s text block at ``base``, parsed as
    the spaCy ``sdoc``; numbered from ``first``) and a mention for each occurrence of a
    short form whose long form is tagged or that is tagged elsewhere (see the module
    docstring); ids continue ``tagged``'s (``<doc>.e<k>``). Unchanged for an abstract."""
    if not is_full_text(doc) or not sdoc.has_extension("abbreviations"):
        return tagged
    spans = [(e.start - base, e.end - base) for e in tagged]
    names = {e.text for e in tagged}
    extra: dict[tuple[int, int], str] = {}
    for a in sdoc._.abbreviations:
        if isinstance(a, dict):
            short = sdoc[a["short_start"]:a["short_end"]]
            long = sdoc[a["long_start"]:a["long_end"]]
        else:
            short, long = a, a._.long_form
        s, e = short.start_char, short.end_char
        if (s, e) in extra or not _NAME.match(short.text) or \
                any(x < e and s < y for x, y in spans):
            continue
        if short.text in names or _covers(spans, long.start_char, long.end_char):
            extra[(s, e)] = short.text
    if not extra:
        return tagged
    n = first + len(tagged)
    return [*tagged, *(Entity(id=f"{doc.id}.e{n + k}", spans=[Span(start=base + s,
                                                                  end=base + e)],
                              type=mention_type(text), text=text)
                       for k, ((s, e), text) in enumerate(sorted(extra.items())))]
