"""Evidence aggregated across documents: one edge per grounded pair, type and direction.

:func:`aggregate` streams extracted relations (the dicts of ``relations.jsonl``) into a
:class:`NetworkSummary`: nodes are proteins (:func:`node_key`: the first HGNC/FamPlex id, else
the first namespaced id, else ``text:`` + the lower-cased mention), and each edge -- a node pair with a relation ``type``
(``Interaction`` unless the record names one: ``Complex``, ``Phosphorylation``,
``Activation``...) and a direction (``entity1->entity2``, ``entity2->entity1`` or ``none``)
-- carries the number of relations and documents behind it, the PMIDs, its best evidence
sentences (highest probability first), the max and mean probability, and the negated and
speculated evidence counted apart. Negated relations are left out of the edges unless
``keep_negated``; an edge whose only evidence is negated then disappears.

Writers: :func:`write_graphml` (``networkx.read_graphml`` and Cytoscape read it),
:func:`write_cyjs` (Cytoscape.js JSON, ``{"elements": {"nodes": [...], "edges": [...]}}``,
which Cytoscape desktop imports too) and :func:`write_sif` (``source<TAB>type<TAB>target``);
:func:`write_networks` writes all three from a batch folder's ``relations.jsonl``.

Document-level gene relations (the dicts of ``gene_relations.jsonl``, told by their
``gene1``) are read as one relation each (:func:`gene_relation_record`): nodes are their gene
ids (``NCBIGene:7157``; :func:`relx.ids.gene_namespaced`), the edge type is BioRED's
(undirected), the evidence their best sentence, and edges also count their ``novel``
relations (a ``novel`` column then appears in every writer's edges).

Memory grows with the number of edges and of (edge, document) pairs, not of relations: a
document's relations are contiguous in ``relations.jsonl``, so an edge counts a document
when its id differs from the last one it saw (a document repeated in two inputs counts twice).
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from relx.errors import ConfigError
from relx.ids import (
    ID_SEPARATOR,
    gene_namespaced,
    is_protein_type,
    namespace_of,
    namespaced_ids,
    pmid_of,
)
from relx.io.atomic import atomic_open

__all__ = ["DIRECTIONS", "EdgeSummary", "NetworkSummary", "aggregate", "edge_key",
           "gene_relation_record", "node_key", "read_relations", "write_cyjs", "write_graphml",
           "write_networks", "write_sif"]

DIRECTIONS = ("entity1->entity2", "entity2->entity1", "none")
DEFAULT_TYPE = "Interaction"
NETWORK_FILES = ("network.graphml", "network.cyjs", "network.sif")


def node_key(entity: Mapping[str, Any]) -> str:
    """Network node of an entity: its first HGNC or FamPlex id, else its first namespaced id,
    else ``text:`` + the lower-cased text. (HGNC first, so that a PubTator mention with its
    own ``NCBIGene:7157`` and the lexicon's ``HGNC:11998`` meets the same protein of a plain
    text input.) A gene relation's gene (:func:`gene_relation_record`) names its ``node``:
    its own gene id."""
    if entity.get("node"):
        return str(entity["node"])
    ids = namespaced_ids([str(i) for i in entity.get("norm_ids") or ()], entity.get("type"))
    if ids:
        return next((i for i in ids if i.startswith(("HGNC:", "FPLX:"))), ids[0])
    return "text:" + " ".join(str(entity.get("text", "")).split()).lower()


def _cached_key(ent: Mapping[str, Any], cache: dict[tuple, str]) -> str:
    """:func:`node_key`, memoised on the entity's ids and type (or text when it has none)."""
    ids = ent.get("norm_ids")
    k = (tuple(ids), ent.get("type"), ent.get("node")) if ids else ("", ent.get("text"))
    key = cache.get(k)
    if key is None:
        key = cache[k] = node_key(ent)
        if len(cache) > 1_000_000:
            cache.clear()
    return key


def _probability(rel: Mapping[str, Any]) -> float:
    """The record's probability (``probability`` when calibrated, else ``score``); NaN if none."""
    for k in ("probability", "score"):
        v = rel.get(k)
        if isinstance(v, int | float) and not isinstance(v, bool) and not math.isnan(v):
            return float(v)
    return math.nan


def edge_key(rel: Mapping[str, Any]) -> tuple[str, str, str, bool]:
    """``(source, target, type, directed)`` of a relation; an undirected pair in sorted order."""
    return _key(node_key(rel.get("entity1") or {}), node_key(rel.get("entity2") or {}), rel)


def _key(a: str, b: str, rel: Mapping[str, Any]) -> tuple[str, str, str, bool]:
    typ = str(rel.get("type") or DEFAULT_TYPE)
    if typ == "PPI":
        typ = DEFAULT_TYPE
    direction = str(rel.get("direction") or "none")
    if direction == "entity1->entity2":
        return a, b, typ, True
    if direction == "entity2->entity1":
        return b, a, typ, True
    if direction != "none":
        raise ConfigError(f"direction {direction!r}: expected one of {DIRECTIONS}")
    return (a, b, typ, False) if a <= b else (b, a, typ, False)


@dataclass
class EdgeSummary:
    """The evidence behind one edge; ``evidence``: the best relations, ``(probability, -seq,
    dict)`` in a min-heap of at most ``top`` entries."""

    source: str
    target: str
    type: str
    directed: bool
    relations: int = 0
    documents: list[str] = field(default_factory=list)
    probability_sum: float = 0.0
    probability_n: int = 0
    max_probability: float | None = None
    negated: int = 0
    speculated: int = 0
    evidence: list[tuple[float, int, dict]] = field(default_factory=list)
    novel: int | None = None          # novel relations (gene relations only)

    @property
    def mean_probability(self) -> float | None:
        return self.probability_sum / self.probability_n if self.probability_n else None

    @property
    def pmids(self) -> list[str]:
        return [p for p in (pmid_of(d) for d in self.documents) if p]

    def best_evidence(self) -> list[dict]:
        """The kept evidence, highest probability first (earlier relations first on ties)."""
        return [ev for _, _, ev in sorted(self.evidence, key=lambda t: (-t[0], -t[1]))]


@dataclass
class NetworkSummary:
    """Nodes (``labels``, ``types``, ``ncbi``: NCBI Gene ids, ``mentions``: relations a node
    is in) and edges by key."""

    labels: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    ncbi: dict[str, str] = field(default_factory=dict)   # node -> its ;-joined NCBI Gene ids
    mentions: dict[str, int] = field(default_factory=dict)
    edges: dict[tuple[str, str, str, bool], EdgeSummary] = field(default_factory=dict)
    relations_read: int = 0
    negated_left_out: int = 0

    def kept_edges(self) -> list[EdgeSummary]:
        """Edges with evidence, strongest first: most documents, then best probability."""
        kept = [e for e in self.edges.values() if e.relations]
        return sorted(kept, key=lambda e: (-len(e.documents), -(e.max_probability or 0.0),
                                           e.source, e.target, e.type))

    def nodes(self) -> list[str]:
        """Nodes that some kept edge touches, sorted."""
        return sorted({n for e in self.kept_edges() for n in (e.source, e.target)})


def aggregate(relations: Iterable[Mapping[str, Any]], *, keep_negated: bool = False,
              top: int = 3, symbol: Callable[[str], str | None] | None = None
              ) -> NetworkSummary:
    """Stream relation dicts into a :class:`NetworkSummary` (see the module docstring).

    ``top``: evidence sentences kept per edge; ``symbol``: display symbol of a grounded id
    (node labels; default the mention text).
    """
    net = NetworkSummary()
    keys: dict[tuple, str] = {}
    last_doc: str | None = None
    for seq, rel in enumerate(relations):
        net.relations_read += 1
        if "gene1" in rel:
            rel = gene_relation_record(rel)
        doc = str(rel.get("document_id") or "")
        if doc == last_doc:
            doc = last_doc   # one shared string per document
        last_doc = doc
        e1, e2 = rel.get("entity1") or {}, rel.get("entity2") or {}
        ka, kb = _cached_key(e1, keys), _cached_key(e2, keys)
        for ent, nk in ((e1, ka), (e2, kb)):
            if nk not in net.labels:
                net.labels[nk] = _label(ent, nk, symbol)
                typ = str(ent.get("type") or "Protein")
                net.types[nk] = "Protein" if is_protein_type(typ) else typ
            if nk not in net.ncbi and ent.get("ncbi_ids"):
                found = _node_ncbi(ent, nk)
                if found:
                    net.ncbi[nk] = found
        key = _key(ka, kb, rel)
        edge = net.edges.get(key)
        if edge is None:
            edge = net.edges[key] = EdgeSummary(*key)
        negated = bool(rel.get("negated"))
        if negated:
            edge.negated += 1
            if not keep_negated:
                net.negated_left_out += 1
                continue
        if rel.get("speculated"):
            edge.speculated += 1
        if "novel" in rel:
            edge.novel = (edge.novel or 0) + bool(rel["novel"])
        edge.relations += 1
        for nk in {key[0], key[1]}:
            net.mentions[nk] = net.mentions.get(nk, 0) + 1
        if not edge.documents or edge.documents[-1] != doc:
            edge.documents.append(doc)
        p = _probability(rel)
        if not math.isnan(p):
            edge.probability_sum += p
            edge.probability_n += 1
            edge.max_probability = p if edge.max_probability is None else max(
                edge.max_probability, p)
        if top > 0:
            _keep_evidence(edge.evidence, (-1.0 if math.isnan(p) else p, -seq), rel, p, doc,
                           top)
    return net


def gene_relation_record(rel: Mapping[str, Any]) -> dict[str, Any]:
    """A gene relation dict (``gene_relations.jsonl``) as a relation dict of the
    ``relations.jsonl`` shape: the genes as entities (``norm_ids`` their ``ids``, the
    namespaced gene id first; ``text`` their first name), BioRED's type, undirected, its
    best evidence sentence."""
    ev = (rel.get("evidence") or [{}])[0]
    ents = []
    for g in (rel.get("gene1") or {}, rel.get("gene2") or {}):
        gid = str(g.get("id") or "")
        cid = gene_namespaced(gid)
        names = g.get("names") or []
        ent: dict[str, Any] = {"id": gid, "text": names[0] if names else gid.removeprefix(
            "text:"), "type": "Gene", "norm_ids": list(g.get("ids") or ([cid] if cid else []))}
        if cid:
            ent["node"] = cid
        if cid and cid.startswith("NCBIGene:"):
            ent["ncbi_ids"] = [cid]
        ents.append(ent)
    return {"document_id": rel.get("document_id"), "sentence_id": ev.get("sentence_id"),
            "sentence": ev.get("sentence"), "entity1": ents[0], "entity2": ents[1],
            "type": rel.get("type"), "direction": None, "probability": rel.get("probability"),
            "novel": bool(rel.get("novel")), "model": rel.get("model"),
            "model_version": rel.get("model_version")}


def _node_ncbi(ent: Mapping[str, Any], node: str) -> str:
    """The NCBI Gene ids (``;``-joined) of a node from one of its mentions' ``ncbi_ids``: the
    node's own when it is one, those of its HGNC/MGI id, else none (a FamPlex node)."""
    ncbi = [str(i) for i in ent.get("ncbi_ids") or ()]
    if node.startswith("NCBIGene:"):
        return node
    if not node.startswith(("HGNC:", "MGI:")):
        return ""
    from relx.genes.ncbi_gene import default_ncbi_gene

    return ID_SEPARATOR.join(i for i in default_ncbi_gene().of(node) if i in ncbi)


def _keep_evidence(heap: list[tuple[float, int, dict]], rank: tuple[float, int],
                   rel: Mapping[str, Any], p: float, doc: str, top: int) -> None:
    """Keep the ``top`` best relations of an edge, one per sentence (its best pair)."""
    sid = rel.get("sentence_id")
    same = next((i for i, (_, _, ev) in enumerate(heap)
                 if ev["sentence_id"] == sid and ev["document_id"] == doc), None)
    if same is not None:
        if rank > heap[same][:2]:
            heap[same] = (*rank, _evidence(rel, p, doc))
            heapq.heapify(heap)
    elif len(heap) < top:
        heapq.heappush(heap, (*rank, _evidence(rel, p, doc)))
    elif rank > heap[0][:2]:
        heapq.heapreplace(heap, (*rank, _evidence(rel, p, doc)))


def _label(ent: Mapping[str, Any], key: str, symbol: Callable[[str], str | None] | None
           ) -> str:
    if key.startswith("text:"):
        return key[5:]
    if symbol is not None:   # the first id with a symbol: an input's own id may have none
        ids = namespaced_ids([str(i) for i in ent.get("norm_ids") or ()], ent.get("type"))
        for i in ids:
            s = symbol(i)
            if s:
                return s
    return str(ent.get("text") or key)


def _evidence(rel: Mapping[str, Any], p: float, doc: str) -> dict:
    return {"document_id": doc, "pmid": pmid_of(doc), "sentence_id": rel.get("sentence_id"),
            "sentence": rel.get("sentence"), "probability": None if math.isnan(p) else p,
            "entity1": (rel.get("entity1") or {}).get("text"),
            "entity2": (rel.get("entity2") or {}).get("text"),
            "negated": bool(rel.get("negated")), "speculated": bool(rel.get("speculated"))}


# --- reading ---------------------------------------------------------------------------


def read_relations(path: str | Path) -> Iterator[dict]:
    """Stream the relation dicts of a ``relations.jsonl`` file, line by line (blank lines
    skipped; a line that is not a JSON object raises ``ValueError`` naming the line)."""
    path = Path(path)
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{path}: line {lineno}: not JSON ({exc.msg})") from None
            if not isinstance(rec, dict):
                raise ConfigError(f"{path}: line {lineno}: not a relation object")
            yield rec


# --- writers ---------------------------------------------------------------------------


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _node_data(net: NetworkSummary, n: str) -> dict[str, Any]:
    grounded = not n.startswith("text:")
    return {"id": n, "name": net.labels.get(n, n), "namespace": namespace_of(n) or "",
            "grounded": grounded, "entity_type": net.types.get(n, "Protein"),
            "relations": net.mentions.get(n, 0), "ncbi_gene": net.ncbi.get(n, "")}


def _edge_data(e: EdgeSummary) -> dict[str, Any]:
    ev = e.best_evidence()
    return {"source": e.source, "target": e.target, "interaction": e.type,
            "directed": e.directed, "relations": e.relations, "documents": len(e.documents),
            "pmids": e.pmids, "max_probability": _round(e.max_probability),
            "mean_probability": _round(e.mean_probability), "negated": e.negated,
            "speculated": e.speculated,
            "evidence": [x["sentence"] or "" for x in ev],
            "evidence_documents": [x["document_id"] for x in ev],
            "evidence_probabilities": [_round(x["probability"]) for x in ev],
            **({} if e.novel is None else {"novel": e.novel})}


def write_cyjs(net: NetworkSummary, path: str | Path, *, name: str = "relx network",
               edges: list[EdgeSummary] | None = None) -> None:
    """Cytoscape.js JSON (list-valued fields: ``pmids``, ``evidence``...), atomically and
    one element at a time (``edges``: ``net.kept_edges()`` when already computed)."""
    edges = net.kept_edges() if edges is None else edges
    head = {"format_version": "1.0", "generated_by": "relx",
            "target_cytoscapejs_version": "~2.1", "data": {"name": name}}
    with atomic_open(path) as fh:
        fh.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "elements": {"nodes": [')
        for k, n in enumerate(_nodes(edges)):
            fh.write(("," if k else "") + "\n" + json.dumps({"data": _node_data(net, n)},
                                                            ensure_ascii=False))
        fh.write('], "edges": [')
        for k, e in enumerate(edges, 1):
            data = {"id": f"e{k}", "name": f"{e.source} ({e.type}) {e.target}",
                    **_edge_data(e)}
            fh.write(("," if k > 1 else "") + "\n" + json.dumps({"data": data},
                                                                ensure_ascii=False))
        fh.write("]}}\n")


def _nodes(edges: list[EdgeSummary]) -> list[str]:
    return sorted({n for e in edges for n in (e.source, e.target)})


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_NODE_KEYS = (("name", "string"), ("namespace", "string"), ("grounded", "boolean"),
              ("entity_type", "string"), ("relations", "int"), ("ncbi_gene", "string"))
_EDGE_KEYS = (("interaction", "string"), ("directed", "boolean"), ("relations", "int"),
              ("documents", "int"), ("pmids", "string"), ("max_probability", "double"),
              ("mean_probability", "double"), ("negated", "int"), ("speculated", "int"))


def _xml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return xml_escape(_NOT_XML.sub(" ", str(value)))


def _data(key: str, value: object) -> str:
    return f'<data key="{key}">{_xml(value)}</data>'


def write_graphml(net: NetworkSummary, path: str | Path, *,
                  edges: list[EdgeSummary] | None = None, top: int = 3) -> None:
    """GraphML, streamed and atomic: a directed multigraph whose edges carry ``directed``
    (false for undirected pairs) and the evidence counts; lists are ``;``-joined, the
    best evidence sentences are attributes ``evidence_1``... (``_document``,
    ``_probability``). ``networkx.read_graphml`` and Cytoscape read it."""
    edges = net.kept_edges() if edges is None else edges
    edge_keys = _EDGE_KEYS + ((("novel", "int"),) if any(e.novel is not None for e in edges)
                              else ())
    keys = [(f"n_{k}", "node", k, t) for k, t in _NODE_KEYS]
    keys += [(f"e_{k}", "edge", k, t) for k, t in edge_keys]
    for i in range(1, top + 1):
        keys += [(f"e_evidence_{i}{x}", "edge", f"evidence_{i}{x}", t) for x, t in
                 (("", "string"), ("_document", "string"), ("_probability", "double"))]
    with atomic_open(path) as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                 'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                 'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
        for kid, domain, name, typ in keys:
            fh.write(f'<key id="{kid}" for="{domain}" attr.name="{name}" '
                     f'attr.type="{typ}"/>\n')
        fh.write('<graph id="relx-network" edgedefault="directed">\n')
        for n in _nodes(edges):
            d = _node_data(net, n)
            fh.write(f"<node id={quoteattr(_NOT_XML.sub(' ', n))}>"
                     + "".join(_data(f"n_{k}", d[k]) for k, _ in _NODE_KEYS) + "</node>\n")
        for k, e in enumerate(edges, 1):
            d = _edge_data(e)
            d["pmids"] = ID_SEPARATOR.join(d["pmids"])
            body = [_data(f"e_{name}", d[name]) for name, _ in edge_keys
                    if d.get(name) is not None]
            for i, (sent, doc, p) in enumerate(zip(d["evidence"], d["evidence_documents"],
                                                   d["evidence_probabilities"],
                                                   strict=True), 1):
                body += [_data(f"e_evidence_{i}", sent), _data(f"e_evidence_{i}_document", doc)]
                if p is not None:
                    body.append(_data(f"e_evidence_{i}_probability", p))
            fh.write(f'<edge id="e{k}" source={quoteattr(_NOT_XML.sub(" ", e.source))} '
                     f'target={quoteattr(_NOT_XML.sub(" ", e.target))}>' + "".join(body)
                     + "</edge>\n")
        fh.write("</graph>\n</graphml>\n")


def write_sif(net: NetworkSummary, path: str | Path, *,
              edges: list[EdgeSummary] | None = None) -> None:
    """SIF, ``source<TAB>type<TAB>target`` per edge (tabs: ids may hold spaces), atomically."""
    edges = net.kept_edges() if edges is None else edges
    with atomic_open(path) as fh:
        for e in edges:
            fh.write(f"{e.source}\t{e.type}\t{e.target}\n")


def write_networks(out_dir: str | Path, *, keep_negated: bool = False, top: int = 3,
                   relations: str | Path | None = None,
                   symbol: Callable[[str], str | None] | None = None) -> dict[str, Any]:
    """Aggregate ``out_dir/relations.jsonl`` (or ``relations``; else the folder's
    ``gene_relations.jsonl``) and write ``network.graphml``,
    ``network.cyjs`` and ``network.sif`` into ``out_dir``; returns counts for a summary.

    Node labels are the grounded ids' symbols from the shipped lexicon unless ``symbol``
    is given.
    """
    out = Path(out_dir)
    src = Path(relations) if relations is not None else out / "relations.jsonl"
    if relations is None and not src.is_file() and (out / "gene_relations.jsonl").is_file():
        src = out / "gene_relations.jsonl"
    if not src.is_file():
        raise FileNotFoundError(f"{src}: no relations.jsonl (run relx extract --out {out})")
    if symbol is None:
        from relx.genes.lexicon import default_grounder

        symbol = default_grounder().symbol
    net = aggregate(read_relations(src), keep_negated=keep_negated, top=top, symbol=symbol)
    edges = net.kept_edges()
    write_graphml(net, out / "network.graphml", edges=edges, top=top)
    write_cyjs(net, out / "network.cyjs", edges=edges)
    write_sif(net, out / "network.sif", edges=edges)
    return {"relations": net.relations_read, "nodes": len(_nodes(edges)), "edges": len(edges),
            "negated_left_out": net.negated_left_out, "keep_negated": keep_negated,
            "files": [str(out / f) for f in NETWORK_FILES]}
