"""One document as the document-level pair model sees it: sentences, gene mentions with their
ids, and every scored same-sentence mention pair (JSON-ready, so a lab run can cache it).

:func:`doc_view` builds it from what :class:`relx.ppi.extract.Extractor` returns when it
reports every candidate pair (``threshold=-inf``, ``same_gene_pairs=True``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

from relx.doc import Document, Entity, Sentence
from relx.graphs import undirected_path
from relx.ids import is_protein_type
from relx.structures import entity_head, entity_tokens, sentence_graph


@dataclass(frozen=True)
class Mention:
    """A gene mention: document offsets (end exclusive), its sentence's index, its gene ids."""

    id: str
    start: int
    end: int
    sentence: int
    ids: tuple[str, ...]


@dataclass(frozen=True)
class MentionPair:
    """A scored same-sentence mention pair: the interaction model's raw ``score`` and
    calibrated ``probability``, the event typer's ``type`` (``Interaction``: none), flags."""

    a: str
    b: str
    sentence: int
    score: float
    probability: float | None = None
    type: str = "Interaction"
    event_score: float | None = None
    negated: bool = False
    speculated: bool = False
    same_gene: bool = False
    #: lowercased lemmas strictly between the two mentions' heads on the dependency path
    #: (other gene mentions as ``PROT``); empty without a connecting path
    path: tuple[str, ...] = ()


@dataclass
class DocView:
    """``sentences``: (start, end) document offsets in order; ``pairs``: every scored pair."""

    id: str
    text: str
    sentences: list[tuple[int, int]]
    mentions: list[Mention]
    pairs: list[MentionPair] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DocView:
        return cls(id=data["id"], text=data["text"],
                   sentences=[(int(a), int(b)) for a, b in data["sentences"]],
                   mentions=[Mention(**{**m, "ids": tuple(m["ids"])}) for m in data["mentions"]],
                   pairs=[MentionPair(**{**p, "path": tuple(p.get("path", ()))})
                          for p in data["pairs"]])

    def sentence_text(self, k: int) -> str:
        a, b = self.sentences[k]
        return self.text[a:b]


def dependency_path(sentence: Sentence, a: str, b: str, graphs: dict[Any, Any]
                    ) -> tuple[str, ...]:
    """The lowercased lemmas strictly between entities ``a`` and ``b``'s heads on the
    sentence's dependency path (tokens of other protein mentions as ``PROT``); ``graphs``
    caches one graph and its protein tokens per sentence id (the graph the pair scorer
    built for the same sentence object, :func:`relx.structures.sentence_graph`, with the
    entity heads it found)."""
    if not sentence.dependencies:
        return ()
    if sentence.id not in graphs:
        graphs[sentence.id] = sentence_graph(sentence)
    graph = graphs[sentence.id]
    e1, e2 = sentence.entity(a), sentence.entity(b)
    h1, h2 = entity_head(sentence, e1, graph), entity_head(sentence, e2, graph)
    if h1 is None or h2 is None or h1 == h2:
        return ()
    try:
        nodes = undirected_path(graph, h1, h2)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return ()
    prot = graphs.get(("prot", sentence.id))
    if prot is None:
        prot = graphs["prot", sentence.id] = {
            i for e in sentence.entities if is_protein_type(e.type)
            for i in entity_tokens(sentence, e)}
    return tuple("PROT" if n in prot else str(graph.nodes[n].get("lemma", "")).lower()
                 for n in nodes[1:-1])


def ncbi_gene_ids(e: Entity) -> tuple[str, ...]:
    """An entity's NCBI Gene ids, bare (``7157``): its ``ncbi_ids`` when grounding set them,
    else its ``NCBIGene:`` norm ids (an input's own ids)."""
    ids = e.ncbi_ids if e.ncbi_ids else [i for i in e.norm_ids if i.startswith("NCBIGene:")]
    return tuple(dict.fromkeys(i.split(":", 1)[1] for i in ids))


def doc_view(doc: Document, relations: Iterable[Any],
             ids_of: Callable[[Entity], tuple[str, ...]] = ncbi_gene_ids) -> DocView:
    """The view of a parsed ``doc`` and its extracted relations (records with
    ``sentence_id``, ``entity1.id``, ``entity2.id``, ``score``...): the protein mentions with
    ``ids_of(entity)`` as their ids."""
    index = {s.id: k for k, s in enumerate(doc.sentences)}
    mentions = [Mention(e.id, e.start, e.end, k, ids_of(e))
                for k, s in enumerate(doc.sentences) for e in s.entities
                if is_protein_type(e.type)]
    by_id = {s.id: s for s in doc.sentences}
    graphs: dict[Any, Any] = {}
    pairs = [MentionPair(r.entity1.id, r.entity2.id, index[r.sentence_id], float(r.score),
                         r.probability, r.type, r.event_score, bool(r.negated),
                         bool(r.speculated), r.same_gene is not None,
                         dependency_path(by_id[r.sentence_id], r.entity1.id, r.entity2.id,
                                         graphs))
             for r in relations]
    return DocView(doc.id, doc.text, [(s.start, s.end) for s in doc.sentences], mentions,
                   pairs)
