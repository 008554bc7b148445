"""Silver protein-protein interaction pairs from BioNLP-ST GE event annotation.

Every pair of ``.a1`` proteins in one sentence (distinct, non-overlapping spans, not
declared ``Equiv``) becomes a candidate relation. It is positive when the events connect
the two proteins directly:

- both are Themes of one ``Binding`` event;
- one is the Cause of a regulation event (``Regulation``, ``Positive_regulation``,
  ``Negative_regulation``) and the other its Theme - each side either the protein itself
  or a protein Theme of the event standing there (one level of nesting: "A induces the
  expression of B", "phosphorylated A activates B").

Positives are closed under the ``Equiv`` groups (a mention equivalent to a participant
participates). Everything else is negative. The labels are what the GE annotators
implied, not what a PPI corpus would annotate: AIMed marks physical interactions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from relx.doc import REGULATION_TYPES, Document, Relation, StandoffDocument


def _theme_proteins(ref: str, proteins: set[str], events: dict) -> set[str]:
    """The protein ``ref`` itself, or the protein Themes of event ``ref``."""
    if ref in proteins:
        return {ref}
    ev = events.get(ref)
    if ev is None:
        return set()
    return {r for r in ev.refs("Theme") if r in proteins}


def interacting_pairs(doc: StandoffDocument) -> set[frozenset[str]]:
    """Unordered protein-id pairs the document's events connect (see the module doc)."""
    proteins = {p.id for p in doc.proteins}
    events = doc.event_map()
    pairs: set[frozenset[str]] = set()
    for ev in doc.events:
        if ev.type == "Binding":
            themes = sorted(r for r in ev.refs("Theme") if r in proteins)
            pairs.update(frozenset(p) for p in combinations(themes, 2))
        elif ev.type in REGULATION_TYPES:
            causes = set().union(*(_theme_proteins(c, proteins, events) for c in ev.refs("Cause")))
            themes = set().union(*(_theme_proteins(t, proteins, events) for t in ev.refs("Theme")))
            pairs.update(frozenset((c, t)) for c in causes for t in themes if c != t)
    groups = doc.equiv_classes()
    return {frozenset(xy) for pair in pairs for xy in equivalent_pairs(pair, groups)}


def equivalent_pairs(pair: frozenset[str], groups: dict[str, set[str]]
                     ) -> Iterator[tuple[str, str]]:
    """``(x, y)`` for every mention ``x`` equivalent to the pair's first id (sorted) and
    ``y`` to its second, ``x != y`` (``groups``: :meth:`StandoffDocument.equiv_classes`)."""
    a, b = sorted(pair)
    for x in groups.get(a, {a}):
        for y in groups.get(b, {b}):
            if x != y:
                yield x, y


def _overlap(a, b) -> bool:
    return any(s.start < t.end and t.start < s.end for s in a.spans for t in b.spans)


def silver_ppi_document(standoff: StandoffDocument, parsed: Document) -> Document:
    """``parsed`` (relx's parse of ``standoff``'s text, proteins as entities) with every
    same-sentence protein pair as a labelled candidate relation."""
    positive = interacting_pairs(standoff)
    same = {}
    for eq in standoff.equivs:
        for m in eq.ids:
            same.setdefault(m, set()).update(eq.ids)
    sentences = []
    for s in parsed.sentences:
        rels = []
        for a, b in combinations(s.entities, 2):
            if b.id in same.get(a.id, ()) or _overlap(a, b):
                continue
            rels.append(Relation(id=f"{s.id}.p{len(rels)}", arg1=a.id, arg2=b.id,
                                 label=frozenset((a.id, b.id)) in positive,
                                 silver=True))
        sentences.append(s.model_copy(update={"relations": rels}))
    return parsed.model_copy(update={"sentences": sentences, "source": "GE-silver"})


def silver_ppi_documents(standoffs: Sequence[StandoffDocument], parsed: Iterable[Document]
                         ) -> list[Document]:
    """Silver PPI documents for aligned standoff annotations and their parses."""
    return [silver_ppi_document(s, p) for s, p in zip(standoffs, parsed, strict=True)]


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def drop_shared_documents(docs: Sequence[Document], others: Iterable[Document],
                          min_chars: int = 40) -> tuple[list[Document], list[str]]:
    """``docs`` without those sharing a sentence (of >= ``min_chars`` characters, compared
    on lower-cased letters and digits) with ``others`` - e.g. the PPI corpora a model is
    evaluated on; and the ids dropped."""
    seen = {_norm(s.text) for d in others for s in d.sentences if len(s.text) >= min_chars}
    kept, dropped = [], []
    for d in docs:
        shared = any(len(s.text) >= min_chars and _norm(s.text) in seen for s in d.sentences)
        (dropped if shared else kept).append(d if not shared else d.id)
    return kept, dropped
