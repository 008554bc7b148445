"""Why a gene mention has no id: the reason relx writes beside a mention it leaves ungrounded.

After every naming pass (:func:`relx.genes.document.ground_document`), a gene or protein
mention without an id carries ``norm_reason``, one of :data:`REASONS`, checked in this
order:

``no_letter``
    the mention has no letter (``-4`` of ``IL-2, -4``): no name to look up;
``no_lexicon``
    its species has no gene lexicon in relx (human, mouse and rat have) and no human
    ortholog was found for it (a fly or yeast gene in a document that names no person);
``class_name``
    a class phrase that names no one gene (``transcription factor``, ``kinases``);
``short_name``
    a name of fewer than ``MIN_RANKED`` characters that no lexicon lists as written (such
    names are matched exactly only);
``below_threshold``
    the nearest lexicon names (character 3-gram search) are not near enough: the learned
    ranker's probability of its best candidate is below its threshold
    (:mod:`relx.genes.ranker`);
``no_match``
    no lexicon name is near it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from relx.doc import Document, Entity
from relx.genes.lexicon import Grounder, normalize_key, taxon_id, with_entity_updates
from relx.genes.ranker import NameRanker, candidates
from relx.ids import HUMAN, MOUSE, RAT, is_protein_type

__all__ = ["REASONS", "REASON_TEXT", "no_id_reason", "with_reasons"]

REASONS = ("no_letter", "no_lexicon", "class_name", "short_name", "below_threshold",
           "no_match")
#: each reason in a few words, for people (the HTML report)
REASON_TEXT = {"no_letter": "no letter in it", "no_lexicon": "no lexicon for its species",
               "class_name": "a class name", "short_name": "short, and in no lexicon as written",
               "below_threshold": "the nearest lexicon names are too far",
               "no_match": "no lexicon name near it"}
_LEXICON_TAXA = frozenset({HUMAN, MOUSE, RAT})
_LETTER = re.compile(r"[^\W\d_]")


def no_id_reason(g: Grounder, ranker: NameRanker | None, text: str, taxon: str | None,
                 document_ids: frozenset[str] = frozenset(), *, min_ranked: int = 4,
                 class_name: Callable[[str], bool] = lambda _: False,
                 searched: bool | None = None) -> str:
    """The reason (one of :data:`REASONS`) a mention ``text`` of ``taxon`` has no id;
    ``document_ids``: the ids of the document's other mentions (the ranker reads them);
    ``searched``: whether the ranker's search found candidates for it, when it ran."""
    if not _LETTER.search(text):
        return "no_letter"
    if (taxon_id(taxon) or HUMAN) not in _LEXICON_TAXA:
        return "no_lexicon"
    if class_name(text):
        return "class_name"
    if len(normalize_key(text)) < min_ranked:   # as the ranker pass measures it
        return "short_name"
    if searched is None:
        searched = ranker is not None and bool(candidates(g, text, taxon, document_ids))
    if searched:
        return "below_threshold"
    return "no_match"


def with_reasons(doc: Document, reason: Callable[[str, str | None, frozenset[str]], str],
                 text_of: Callable[[Entity], str]) -> Document:
    """``doc`` with ``norm_reason`` on each gene or protein mention that relx grounded to
    no id (``reason(text, taxon, document_ids)``, once per surface form and species) and
    on no other; entities that change are copies."""
    ents = [e for s in doc.sentences for e in s.entities]
    context = frozenset(e.norm_ids[0] for e in ents if e.norm_ids)
    memo: dict[tuple[str, str | None], str] = {}

    def update(e: Entity) -> dict[str, object]:
        if e.norm_ids or e.grounded is None or not is_protein_type(e.type):
            return {"norm_reason": None} if e.norm_reason is not None else {}
        text = text_of(e)
        key = (text, e.taxon)
        if key not in memo:
            memo[key] = reason(text, e.taxon, context)
        return {"norm_reason": memo[key]} if memo[key] != e.norm_reason else {}

    return with_entity_updates(doc, update, copy_unchanged=False)
