"""relx's AMR-style sentence graphs (:func:`relx.parse.amr.semantic_graph`) as PENMAN
notation and as JSON graphs, for ``relx parse --format penman`` / ``amr-json`` and the API.

PENMAN (one graph per sentence, ``# ::id`` and ``# ::snt`` metadata): a node per concept,
its variable ``t<k>`` from its head token ``k``; the concept is written as a symbol
(characters PENMAN reserves become ``_``), the surface text as ``:text``, a protein's entity
id as ``:entity``, negation as ``:polarity -``. A sentence's graph may fall apart into
several pieces; a top node ``(g / sentence-graph :part ...)`` holds each piece's root so
every sentence is one PENMAN graph. JSON: ``{"sentence_id", "text", "nodes": [{"id",
"concept", "text", "tokens", "event", "entity", "polarity"}], "edges": [{"source",
"target", "label"}]}``, node ids being head token indices.
"""

from __future__ import annotations

import json
import re
from typing import Any, TextIO

from relx.doc import Document, Sentence

_RESERVED = re.compile(r'[\s()/:~^"]+')
TOP_CONCEPT = "sentence-graph"


def _symbol(text: str) -> str:
    return _RESERVED.sub("_", text).strip("_") or "_"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def sentence_graph_json(sentence: Sentence) -> dict[str, Any]:
    """One sentence's semantic graph as plain JSON data (nodes and labelled edges)."""
    from relx.parse.amr import semantic_graph

    g = semantic_graph(sentence)
    nodes = [{"id": n, "concept": a["concept"], "text": a["text"], "tokens": a["tokens"],
              "event": a["event"], "entity": a["entity"], "polarity": a["polarity"]}
             for n, a in sorted(g.nodes(data=True))]
    edges = [{"source": h, "target": d, "label": _symbol(a["label"])}
             for h, d, a in sorted(g.edges(data=True), key=lambda e: (e[0], e[1], e[2]["label"]))]
    return {"sentence_id": sentence.id, "text": sentence.text, "nodes": nodes, "edges": edges}


def document_graphs_json(doc: Document) -> dict[str, Any]:
    """Every sentence graph of a parsed document."""
    return {"document_id": doc.id, "sentences": [sentence_graph_json(s) for s in doc.sentences]}


def _roots(graph: dict[str, Any]) -> list[int]:
    """One root per weakly connected piece: a node no edge enters, else its first node."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(n["id"] for n in graph["nodes"])
    g.add_edges_from((e["source"], e["target"]) for e in graph["edges"])
    roots = []
    for piece in nx.weakly_connected_components(g):
        entry = sorted(n for n in piece if g.in_degree(n) == 0)
        roots.append(entry[0] if entry else min(piece))
    return sorted(roots)


def sentence_penman(sentence: Sentence) -> str:
    """One sentence's semantic graph in PENMAN notation (with ``# ::`` metadata lines)."""
    graph = sentence_graph_json(sentence)
    lines = [f"# ::id {sentence.id}", f"# ::snt {' '.join(sentence.text.split())}"]
    var = {n["id"]: f"t{n['id']}" for n in graph["nodes"]}
    out_edges: dict[int, list[tuple[str, int]]] = {}
    for e in graph["edges"]:
        out_edges.setdefault(e["source"], []).append((e["label"], e["target"]))
    by_id = {n["id"]: n for n in graph["nodes"]}
    written: set[int] = set()

    def node(k: int, depth: int) -> str:
        if k in written:                       # a re-entrancy: the variable alone
            return var[k]
        written.add(k)
        n = by_id[k]
        parts = [f"({var[k]} / {_symbol(n['concept'])}", f":text {_quote(n['text'])}"]
        if n["entity"]:
            parts.append(f":entity {_quote(n['entity'])}")
        if n["polarity"] == "-":
            parts.append(":polarity -")
        pad = "\n" + "   " * (depth + 1)
        for label, target in out_edges.get(k, []):
            parts.append(f":{_symbol(label)} {node(target, depth + 1)}")
        return pad.join(parts) + ")"

    pieces = [node(r, 1) for r in _roots(graph)]
    pieces += [node(k, 1) for k in sorted(by_id) if k not in written]  # cycles' leftovers
    body = "".join(f"\n   :part {p}" for p in pieces)
    return "\n".join(lines) + f"\n(g / {TOP_CONCEPT}{body})\n"


def write_penman(doc: Document, fh: TextIO) -> None:
    """Every sentence graph of ``doc`` in PENMAN, a blank line between graphs."""
    for s in doc.sentences:
        fh.write(sentence_penman(s) + "\n")


def write_amr_json(doc: Document, fh: TextIO) -> None:
    """The document's sentence graphs as one JSON line."""
    fh.write(json.dumps(document_graphs_json(doc), ensure_ascii=False) + "\n")
