"""Dependency graphs of sentences and the walks the structures need: shortest paths, the
nodes within a few steps, distances, and step labels.

A graph has the tokens as nodes and ``head -> dependent`` edges labelled with the relation.
A parser's graph is a tree (one governor per token); there a path is unique and found
through the lowest common ancestor without a graph search. Other graphs (collapsed
dependencies, AMR) are searched with networkx, whose results the tree shortcuts equal.
"""

from __future__ import annotations

from collections.abc import Callable

import networkx as nx

from relx.doc import Sentence


def dependency_graph(sentence: Sentence) -> nx.MultiDiGraph:
    """Tokens as nodes (``text``, ``lemma``, ``pos``); edges ``head -> dependent`` with ``label``.

    Filled through networkx's adjacency dicts, as ``add_node`` / ``add_edge`` fill them
    (same nodes, edges, keys and orders; tested against them), ~6x faster: the per-call
    checks of networkx's API were a twentieth of extracting from an abstract."""
    g = nx.MultiDiGraph()
    if not _PLAIN_DICTS:
        return _graph_by_api(g, sentence)
    node, succ, pred = g._node, g._succ, g._pred
    for t in sentence.tokens:
        node[t.index] = {"text": t.text, "lemma": t.lemma or t.text.lower(), "pos": t.pos or ""}
        succ[t.index], pred[t.index] = {}, {}
    for d in sentence.dependencies:
        h, c = d.head, d.dependent
        for n in (h, c):
            if n not in succ:  # an index without a token: a bare node, as add_edge makes
                node[n], succ[n], pred[n] = {}, {}, {}
        keys = succ[h].get(c)
        if keys is None:
            keys = succ[h][c] = pred[c][h] = {}
        k = len(keys)
        while k in keys:
            k += 1
        keys[k] = {"label": d.label}
    return g


def _graph_by_api(g: nx.MultiDiGraph, sentence: Sentence) -> nx.MultiDiGraph:
    for t in sentence.tokens:
        g.add_node(t.index, text=t.text, lemma=t.lemma or t.text.lower(), pos=t.pos or "")
    for d in sentence.dependencies:
        g.add_edge(d.head, d.dependent, label=d.label)
    return g


def _plain_dicts() -> bool:
    """networkx keeps a MultiDiGraph in plain dicts (``_succ`` is ``_adj``; node, edge-key
    and edge-data dicts are ``dict``), so they can be filled directly."""
    g = nx.MultiDiGraph()
    return (g._succ is g._adj and type(g._node) is dict and type(g._pred) is dict
            and all(f is dict for f in (g.node_dict_factory, g.node_attr_dict_factory,
                                        g.adjlist_outer_dict_factory,
                                        g.adjlist_inner_dict_factory,
                                        g.edge_key_dict_factory, g.edge_attr_dict_factory)))


_PLAIN_DICTS = _plain_dicts()


_FOREST_KEY = "relx_forest"  # graph attribute: (node count, governor map or None)


def _governors(graph: nx.MultiDiGraph) -> dict[int, int] | None:
    """Each node's governor when the undirected graph is a forest (at most one governor per
    node, no cycle: a parser's dependency tree), else None. Kept on the graph (graphs are
    not modified once built; a changed node count recomputes it)."""
    hit = graph.graph.get(_FOREST_KEY)
    if hit is not None and hit[0] == len(graph):
        return hit[1]
    governor: dict[int, int] | None = {}
    for n, preds in graph.pred.items():
        if len(preds) > 1 or n in preds:
            governor = None
            break
        for h in preds:
            governor[n] = h  # type: ignore[index]
    if governor is not None:
        done: set[int] = set()
        for n in governor:
            chain = set()
            while n in governor and n not in done:
                if n in chain:
                    governor = None  # a cycle
                    break
                chain.add(n)
                n = governor[n]
            if governor is None:
                break
            done |= chain
    graph.graph[_FOREST_KEY] = (len(graph), governor)
    return governor


def undirected_path(graph: nx.MultiDiGraph, a: int, b: int,
                    undirected: Callable[[], nx.Graph] | None = None) -> list[int]:
    """Nodes of the shortest path from ``a`` to ``b`` ignoring edge direction, as
    ``nx.shortest_path(graph.to_undirected(as_view=True), a, b)`` finds it (or over
    ``undirected()``, an undirected copy of ``graph``), raising its ``NodeNotFound`` /
    ``NetworkXNoPath``.
    In a dependency tree the path is unique: up from ``a`` to the lowest common ancestor,
    then down to ``b``, found without a graph search."""
    governor = _governors(graph)
    if governor is None:
        return nx.shortest_path(graph.to_undirected(as_view=True) if undirected is None
                                else undirected(), a, b)
    if a not in graph or b not in graph:
        raise nx.NodeNotFound(f"Either source {a} or target {b} is not in G")
    up, rank = [a], {a: 0}
    while up[-1] in governor:
        rank[governor[up[-1]]] = len(up)
        up.append(governor[up[-1]])
    down, n = [], b
    while n not in rank:
        down.append(n)
        if n not in governor:
            raise nx.NetworkXNoPath(f"No path between {a} and {b}.")
        n = governor[n]
    return up[:rank[n] + 1] + down[::-1]


def _tree_neighbours(graph: nx.MultiDiGraph, governor: dict[int, int], u: int) -> list[int]:
    """``u``'s dependents in order, then its governor (the order networkx's undirected view
    has no say in: a tree's paths are unique)."""
    near = list(graph.succ[u])
    if u in governor:
        near.append(governor[u])
    return near


def paths_within(graph: nx.MultiDiGraph, source: int, cutoff: int,
                 undirected: Callable[[], nx.Graph] | None = None) -> dict[int, list[int]]:
    """``{node: path from source}`` for the nodes at most ``cutoff`` undirected edges away,
    the paths ``nx.single_source_shortest_path`` finds (in a dependency tree the only ones;
    the dict's order may differ)."""
    governor = _governors(graph)
    if governor is None:
        return nx.single_source_shortest_path(
            graph.to_undirected(as_view=True) if undirected is None else undirected(),
            source, cutoff=cutoff)
    out = {source: [source]}
    frontier = [source]
    for _ in range(cutoff):
        nxt = []
        for u in frontier:
            for v in _tree_neighbours(graph, governor, u):
                if v not in out:
                    out[v] = out[u] + [v]
                    nxt.append(v)
        frontier = nxt
    return out


def distances_from(graph: nx.MultiDiGraph, source: int) -> dict[int, int]:
    """``{node: undirected edges from source}`` for the nodes connected to ``source``, as
    ``nx.single_source_shortest_path_length`` gives them (the dict's order may differ)."""
    governor = _governors(graph)
    if governor is None:
        return nx.single_source_shortest_path_length(graph.to_undirected(as_view=True), source)
    out, frontier, d = {source: 0}, [source], 0
    while frontier:
        d += 1
        nxt = []
        for u in frontier:
            for v in _tree_neighbours(graph, governor, u):
                if v not in out:
                    out[v] = d
                    nxt.append(v)
        frontier = nxt
    return out


_LABELS_KEY = "relx_step_labels"  # graph attribute: (node count, {(u, v): label})


def edge_label(graph: nx.MultiDiGraph, u: int, v: int) -> str:
    """The label of the step ``u -> v`` between adjacent nodes: ``label>`` down a
    ``u -> v`` edge, ``<label`` up a ``v -> u`` edge (the first label in sorted order when
    several edges join them). Remembered on the graph (graphs are not modified once built)."""
    memo = graph.graph.get(_LABELS_KEY)
    if memo is None or memo[0] != len(graph):
        memo = graph.graph[_LABELS_KEY] = (len(graph), {})
    out = memo[1].get((u, v))
    if out is None:
        if graph.has_edge(u, v):
            out = sorted(d["label"] for d in graph.get_edge_data(u, v).values())[0] + ">"
        else:
            out = "<" + sorted(d["label"] for d in graph.get_edge_data(v, u).values())[0]
        memo[1][u, v] = out
    return out
