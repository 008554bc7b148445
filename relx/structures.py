"""Candidate structures: dependency graph, shortest path, token sequence; integer encoding.

A structure is a sequence of tuples ``(edge label, node)``; a node carries word, lemma and
POS labels. Entity mentions are blinded: the candidate's two entities become ``PROT1`` and
``PROT2``, any other entity ``PROT``. Edge labels keep direction: walking from governor to
dependent along ``nsubj`` gives ``nsubj>``, the other way ``<nsubj``.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from relx.doc import Entity, Sentence
from relx.graphs import (
    dependency_graph,
    edge_label,
    undirected_path,
)
from relx.packed_strings import pack_strings, unpack_strings

NONE = "<none>"  # id 0 in every vocabulary: "no label"
PROT1, PROT2, PROT = "PROT1", "PROT2", "PROT"
BOTH = "PROT1+PROT2"  # both entities share one head token

Tuple = tuple[str, str, str, str]  # (edge, word, lemma, pos)


# The dependency graphs of recently seen sentences, by sentence identity, each with the
# shortest paths found in it: the pipeline's stages (structures, pair features, word-vector
# features) read the same sentence objects in turn.
CACHE_SENTENCES = 1024


@dataclass
class _Cached:
    """A sentence's graph and paths, valid while its token, dependency and entity lists are
    the same list objects of the same lengths."""

    sentence: Sentence
    lists: tuple[list, list, list]
    sizes: tuple[int, int, int]
    graph: nx.MultiDiGraph
    paths: dict = field(default_factory=dict)
    roles: dict = field(default_factory=dict)   # (entity id, entity id) -> _roles
    heads: dict = field(default_factory=dict)   # entity id -> entity_head in graph

    def fits(self, s: Sentence) -> bool:
        now = _lists(s)
        return (self.sentence is s and all(a is b for a, b in zip(self.lists, now, strict=True))
                and self.sizes == tuple(map(len, now)))


def _lists(s: Sentence) -> tuple[list, list, list]:
    return s.tokens, s.dependencies, s.entities


_graph_cache: OrderedDict[int, _Cached] = OrderedDict()
# the same entries by token list identity: a sentence's copy (``model_copy`` with other
# entities, as the event typer makes) shares its token and dependency lists, and so can
# share its graph
_graph_by_tokens: dict[int, _Cached] = {}


def _same_parse(entry: _Cached, s: Sentence) -> bool:
    tokens, deps, _ = entry.lists
    return (tokens is s.tokens and deps is s.dependencies
            and entry.sizes[:2] == (len(s.tokens), len(s.dependencies)))


def _cached(sentence: Sentence) -> _Cached:
    hit = _graph_cache.get(id(sentence))
    if hit is not None and hit.fits(sentence):
        return hit
    lists = _lists(sentence)
    twin = _graph_by_tokens.get(id(sentence.tokens))
    graph = twin.graph if twin is not None and _same_parse(twin, sentence) \
        else dependency_graph(sentence)
    entry = _Cached(sentence, lists, tuple(map(len, lists)), graph)
    try:
        _graph_cache[id(sentence)] = entry
        _graph_by_tokens[id(sentence.tokens)] = entry
        while len(_graph_cache) > CACHE_SENTENCES:
            _, old = _graph_cache.popitem(last=False)
            if _graph_by_tokens.get(id(old.lists[0])) is old:
                del _graph_by_tokens[id(old.lists[0])]
        if len(_graph_by_tokens) > 2 * CACHE_SENTENCES:  # entries replaced in place
            live = {id(e.lists[0]): e for e in list(_graph_cache.values())}
            _graph_by_tokens.clear()
            _graph_by_tokens.update(live)
    except KeyError:  # another thread evicted the same entry first
        pass
    return entry


#: what :func:`forget_sentences` empties too: other modules' caches of the last batch
_ALSO_FORGET: list[Callable[[], None]] = []


def also_forget(clear: Callable[[], None]) -> None:
    """Have :func:`forget_sentences` call ``clear`` too (a cache of the last batch's
    sentences or pairs kept by another module)."""
    _ALSO_FORGET.append(clear)


def forget_sentences() -> None:
    """Empty the sentence-graph cache (and the caches named to :func:`also_forget`). For a
    long-running process between requests (``relx serve``) and before each batch
    (:meth:`relx.api.StreamingExtractor.annotate`): a finished batch's sentences are never
    read again, yet the cache would keep the last :data:`CACHE_SENTENCES` of them with
    their tokens and graphs (~70 MB). Call it while no other thread extracts (under
    :data:`relx.api.EXTRACTING`)."""
    _graph_cache.clear()
    _graph_by_tokens.clear()
    for clear in _ALSO_FORGET:
        clear()


def sentence_graph(sentence: Sentence) -> nx.MultiDiGraph:
    """:func:`dependency_graph` of ``sentence``, shared with the other stages that read the
    same sentence object (the last :data:`CACHE_SENTENCES` sentences). Do not modify it."""
    return _cached(sentence).graph


def entity_tokens(sentence: Sentence, entity: Entity) -> list[int]:
    """Indices of the tokens overlapping any span of ``entity``."""
    if len(entity.spans) == 1:  # the common case, without a generator per token
        start, end = entity.spans[0].start, entity.spans[0].end
        return [t.index for t in sentence.tokens if t.start < end and start < t.end]
    return [t.index for t in sentence.tokens
            if any(t.start < s.end and s.start < t.end for s in entity.spans)]


def _entry(sentence: Sentence) -> _Cached | None:
    """The cached entry of ``sentence`` if it is still valid (without building one)."""
    hit = _graph_cache.get(id(sentence))
    return hit if hit is not None and hit.fits(sentence) else None


def entity_head(sentence: Sentence, entity: Entity, graph: nx.MultiDiGraph) -> int | None:
    """The syntactic head of an entity mention: its token whose governor lies outside it.

    Ties (or no parse) go to the last such token, the usual head of an English noun phrase.
    """
    entry = _entry(sentence)
    if entry is None or entry.graph is not graph:
        return _entity_head(sentence, entity, graph)
    if entity.id not in entry.heads:
        entry.heads[entity.id] = _entity_head(sentence, entity, graph)
    return entry.heads[entity.id]


def _entity_head(sentence: Sentence, entity: Entity, graph: nx.MultiDiGraph) -> int | None:
    toks = entity_tokens(sentence, entity)
    if not toks:
        return None
    inside = set(toks)
    heads = [t for t in toks if not any(h in inside for h in graph.predecessors(t))]
    connected = [t for t in heads if graph.degree(t) > 0]
    return (connected or heads or toks)[-1]


def _node_labels(graph: nx.MultiDiGraph, node: int, roles: dict[int, str]) -> tuple[str, str, str]:
    if node in roles:
        r = roles[node]
        return r, r, "PROT"
    d = graph.nodes[node]
    return d["text"].lower(), d["lemma"], d["pos"]


def _roles(sentence: Sentence, e1: Entity, e2: Entity) -> dict[int, str]:
    """Token -> ``PROT1`` / ``PROT2`` / ``BOTH`` / ``PROT`` for the pair's and the other
    mentions' tokens (a new dict each call)."""
    entry = _entry(sentence)
    if entry is None:
        return _pair_roles(sentence, e1, e2)
    key = e1.id, e2.id
    if key not in entry.roles:
        entry.roles[key] = _pair_roles(sentence, e1, e2)
    return dict(entry.roles[key])


def _pair_roles(sentence: Sentence, e1: Entity, e2: Entity) -> dict[int, str]:
    roles: dict[int, str] = {}
    for e in sentence.entities:
        if e.id not in (e1.id, e2.id):
            for t in entity_tokens(sentence, e):
                roles[t] = PROT
    for t in entity_tokens(sentence, e1):
        roles[t] = PROT1
    for t in entity_tokens(sentence, e2):
        roles[t] = BOTH if roles.get(t) == PROT1 else PROT2
    return roles


def shortest_path(sentence: Sentence, e1: Entity, e2: Entity,
                  graph: nx.MultiDiGraph | None = None) -> list[Tuple]:
    """The shortest undirected dependency path from ``e1``'s head to ``e2``'s head.

    Returns ``[(edge, word, lemma, pos), ...]``; the first tuple's edge is ``<none>``.
    Without a connecting path the two heads are joined by a ``NOPATH`` edge.
    """
    hit = _graph_cache.get(id(sentence))
    if graph is None or (hit is not None and hit.graph is graph and hit.fits(sentence)):
        entry = _cached(sentence)  # the shared graph: shared paths too
        path = entry.paths.get((e1.id, e2.id))
        if path is None:
            path = entry.paths[e1.id, e2.id] = _shortest_path(sentence, e1, e2, entry.graph)
        return path  # do not modify it
    return _shortest_path(sentence, e1, e2, graph)


def _shortest_path(sentence: Sentence, e1: Entity, e2: Entity, graph: nx.MultiDiGraph
                   ) -> list[Tuple]:
    h1, h2 = entity_head(sentence, e1, graph), entity_head(sentence, e2, graph)
    roles = _roles(sentence, e1, e2)
    if h1 is not None and h2 is not None:
        roles[h1], roles[h2] = PROT1, PROT2
    return labelled_path(graph, h1, h2, lambda n: _node_labels(graph, n, roles))


def labelled_path(graph: nx.MultiDiGraph, a: int | None, b: int | None,
                  node_labels: Callable[[int], tuple[str, str, str]]) -> list[Tuple]:
    """The shortest undirected path from node ``a`` (the first entity's) to node ``b`` as
    tuples ``(edge, *node_labels(node))``, the first edge ``<none>``; two nodes joined by a
    ``NOPATH`` edge when no path connects them or an entity has no node (None: blinded as
    ``PROT1``/``PROT2``), one ``BOTH`` node when ``a == b``."""
    if a is None or b is None:
        return [(NONE, PROT1, PROT1, PROT), ("NOPATH", PROT2, PROT2, PROT)]
    if a == b:
        return [(NONE, BOTH, BOTH, PROT)]
    try:
        nodes = undirected_path(graph, a, b)
    except nx.NetworkXNoPath:
        return [(NONE, *node_labels(a)), ("NOPATH", *node_labels(b))]
    out: list[Tuple] = [(NONE, *node_labels(nodes[0]))]
    for u, v in zip(nodes, nodes[1:], strict=False):
        out.append((edge_label(graph, u, v), *node_labels(v)))
    return out


SUBTREE_CHILDREN = ("none", "entities", "all")


@dataclass
class Subtree:
    """A candidate's dependency subtree in canonical order (see :func:`dependency_subtree`).

    ``nodes[k]`` is ``(edge to parent, word, lemma, pos)`` (the root's edge is ``<none>``),
    ``parents[k]`` the index of node k's parent (-1 for the root), ``tokens[k]`` its sentence
    token index (-1 for none). Nodes are in breadth-first order from the root with each
    node's children in sentence order, so every node's children are contiguous and come
    after it.
    """

    nodes: list[Tuple]
    parents: list[int]
    tokens: list[int]

    def children(self, k: int) -> list[int]:
        return [c for c, p in enumerate(self.parents) if p == k]


def _up_bfs(graph: nx.MultiDiGraph, start: int) -> tuple[dict[int, int], dict[int, int]]:
    """Distances from ``start`` to its ancestors following dependent -> governor edges, and
    for each reached governor the dependent it was first reached from."""
    dist, back = {start: 0}, {}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        for h in sorted(graph.predecessors(u)):
            if h not in dist:
                dist[h], back[h] = dist[u] + 1, u
                queue.append(h)
    return dist, back


def _depths(graph: nx.MultiDiGraph) -> dict[int, int]:
    """Directed distance of every token from the nearest sentence root (in-degree 0)."""
    roots = sorted(n for n in graph if graph.in_degree(n) == 0)
    dist = dict.fromkeys(roots, 0)
    queue = deque(roots)
    while queue:
        u = queue.popleft()
        for v in sorted(graph.successors(u)):
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def _lca_tree(graph: nx.MultiDiGraph, h1: int, h2: int) -> tuple[int, dict[int, int]] | None:
    """Root and parent map of the union of ``h1``'s and ``h2``'s dependency paths up to their
    lowest common ancestor (the common governor-ancestor minimising the two path lengths;
    ties: the shorter longer path, then the earlier token). Collapsed dependencies make the
    graph a DAG (or worse), so the shortest governor chains are used. If the heads share no
    ancestor, the shortest undirected path between them rooted at its token nearest a
    sentence root; None when they are not connected at all."""
    d1, b1 = _up_bfs(graph, h1)
    d2, b2 = _up_bfs(graph, h2)
    common = d1.keys() & d2.keys()
    parent: dict[int, int] = {}
    if common:
        root = min(common, key=lambda a: (d1[a] + d2[a], max(d1[a], d2[a]), a))
        for back, head in ((b1, h1), (b2, h2)):
            u = root
            while u != head:
                parent[back[u]] = u
                u = back[u]
        return root, parent
    try:
        nodes = nx.shortest_path(graph.to_undirected(as_view=True), h1, h2)
    except nx.NetworkXNoPath:
        return None
    depth = _depths(graph)
    r = min(range(len(nodes)), key=lambda k: (depth.get(nodes[k], len(graph) + 1), k))
    for k in range(r):
        parent[nodes[k]] = nodes[k + 1]
    for k in range(r + 1, len(nodes)):
        parent[nodes[k]] = nodes[k - 1]
    return nodes[r], parent


def dependency_subtree(sentence: Sentence, e1: Entity, e2: Entity,
                       graph: nx.MultiDiGraph | None = None,
                       children: str = "none") -> Subtree:
    """The subgraph spanned by a pair: a tree rooted at the entity heads' lowest common ancestor.

    Nodes are the tokens on ``e1``'s and ``e2``'s head -> ancestor chains up to their lowest
    common ancestor (one node ``PROT1+PROT2`` when both share a head). ``children`` adds
    direct dependents (``punct`` and tokens of the same entity excluded): ``"entities"`` of
    the two entity heads, ``"all"`` of every node on the chains. Labels are blinded and
    edges directed as in :func:`shortest_path` (``nsubj>``: the parent governs the node;
    ``<nsubj``: the node governs its parent, only on the fallback path). Unconnected heads
    give ``PROT1`` with a ``NOPATH`` child ``PROT2``.
    """
    if children not in SUBTREE_CHILDREN:
        raise ValueError(f"children must be one of {SUBTREE_CHILDREN}, not {children!r}")
    graph = dependency_graph(sentence) if graph is None else graph
    h1, h2 = entity_head(sentence, e1, graph), entity_head(sentence, e2, graph)
    roles = _roles(sentence, e1, e2)
    if h1 is None or h2 is None:
        return Subtree([(NONE, PROT1, PROT1, "PROT"), ("NOPATH", PROT2, PROT2, "PROT")],
                       [-1, 0], [-1, -1])
    roles[h1], roles[h2] = PROT1, PROT2
    if h1 == h2:
        roles[h1] = BOTH
        root, parent = h1, {}
    else:
        found = _lca_tree(graph, h1, h2)
        if found is None:
            return Subtree([(NONE, *_node_labels(graph, h1, roles)),
                            ("NOPATH", *_node_labels(graph, h2, roles))], [-1, 0], [h1, h2])
        root, parent = found
    kids: dict[int, list[int]] = {}
    for v, u in parent.items():
        kids.setdefault(u, []).append(v)
    if children != "none":
        anchors = [root, *parent] if children == "all" else sorted({h1, h2})
        inside = {root, *parent}
        for u in anchors:
            for v in sorted(graph.successors(u)):
                labels = {d["label"] for d in graph.get_edge_data(u, v).values()}
                if v in inside or labels <= {"punct"}:
                    continue
                if roles.get(v) is not None and roles.get(v) == roles.get(u):
                    continue  # another token of the same entity mention
                inside.add(v)
                parent[v] = u
                kids.setdefault(u, []).append(v)
    nodes: list[Tuple] = [(NONE, *_node_labels(graph, root, roles))]
    parents, tokens = [-1], [root]
    queue = deque([(root, 0)])
    while queue:
        u, k = queue.popleft()
        for v in sorted(kids.get(u, ())):
            nodes.append((edge_label(graph, u, v), *_node_labels(graph, v, roles)))
            parents.append(k)
            tokens.append(v)
            queue.append((v, len(nodes) - 1))
    return Subtree(nodes, parents, tokens)


def token_sequence(sentence: Sentence, e1: Entity, e2: Entity, window: int = 3) -> list[Tuple]:
    """Tokens from ``window`` before the first entity to ``window`` after the second.

    Edge labels mark the region: ``B`` before, ``M`` between, ``A`` after, ``E`` entity.
    Consecutive tokens of one entity collapse into one blinded tuple.
    """
    roles = _roles(sentence, e1, e2)
    ents = sorted(t for t in roles if roles[t] in (PROT1, PROT2, BOTH))
    if not ents:
        return [(NONE, PROT1, PROT1, "PROT"), (NONE, PROT2, PROT2, "PROT")]
    first, last = ents[0], ents[-1]
    lo, hi = max(0, first - window), min(len(sentence.tokens), last + window + 1)
    out: list[Tuple] = []
    prev_role = None
    for t in sentence.tokens[lo:hi]:
        role = roles.get(t.index)
        if role is not None and role == prev_role:
            continue
        prev_role = role
        region = "E" if role in (PROT1, PROT2, BOTH) else "B" if t.index < first else "A" if t.index > last else "M"
        if role is not None:
            out.append((region, role, role, "PROT"))
        else:
            out.append((region, t.text.lower(), t.lemma or t.text.lower(), t.pos or ""))
    return out


class Vocab:
    """String -> int ids; id 0 is ``<none>``. Grows on demand unless frozen."""

    def __init__(self, items: Sequence[str] = ()) -> None:
        self.itos: list[str] = [NONE]
        self.stoi: dict[str, int] = {NONE: 0}
        for s in items:
            self.add(s)

    def add(self, s: str) -> int:
        i = self.stoi.get(s)
        if i is None:
            i = self.stoi[s] = len(self.itos)
            self.itos.append(s)
        return i

    def __len__(self) -> int:
        return len(self.itos)

    def __getstate__(self) -> dict:
        # a model file holds the strings as one byte array, not ~80,000 list and dict nodes
        return {"packed": pack_strings(self.itos[1:])}

    def __setstate__(self, state: dict) -> None:
        if "packed" not in state:  # models of format <= 2: the plain attributes
            self.__dict__.update(state)
            return
        itos = [NONE, *unpack_strings(state["packed"])]
        stoi = dict(zip(itos, range(len(itos)), strict=True))
        if len(stoi) == len(itos):   # distinct strings, as saved: ids are positions
            self.itos, self.stoi = itos, stoi
            return
        self.itos, self.stoi = [NONE], {NONE: 0}
        for s in itos[1:]:
            self.add(s)


@dataclass
class EncodedStructures:
    """N structures flattened into int arrays; structure i holds tuples ``offsets[i]:offsets[i+1]``.

    ``edges``, ``words``, ``lemmas``, ``pos`` are int32 arrays of length T (total tuples);
    ids index the vocabularies of the :class:`StructureEncoder` that made them.
    """

    offsets: np.ndarray
    edges: np.ndarray
    words: np.ndarray
    lemmas: np.ndarray
    pos: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def subset(self, idx: Sequence[int] | np.ndarray) -> EncodedStructures:
        idx = np.asarray(idx, dtype=np.int64)
        lens = (self.offsets[idx + 1] - self.offsets[idx]).astype(np.int64)
        offsets = np.zeros(len(idx) + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        take = np.concatenate([np.arange(self.offsets[i], self.offsets[i + 1]) for i in idx]) \
            if len(idx) else np.zeros(0, dtype=np.int64)
        return EncodedStructures(offsets, self.edges[take], self.words[take],
                                 self.lemmas[take], self.pos[take])

    def __getitem__(self, idx: Sequence[int] | np.ndarray | slice) -> EncodedStructures:
        if isinstance(idx, slice):
            idx = np.arange(len(self))[idx]
        return self.subset(idx)


@dataclass
class EncodedTrees(EncodedStructures):
    """N trees flattened like :class:`EncodedStructures` (one tuple per node, the node's edge
    label being the edge to its parent) plus the topology: node ``k`` of tree ``i`` (flat
    index ``offsets[i] + k``) has children ``child_start[.] .. child_start[.] + n_children[.]``,
    local indices within the tree. Nodes are in breadth-first order (root first), children
    in sentence order.
    """

    child_start: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    n_children: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    def subset(self, idx: Sequence[int] | np.ndarray) -> EncodedTrees:
        idx = np.asarray(idx, dtype=np.int64)
        lens = (self.offsets[idx + 1] - self.offsets[idx]).astype(np.int64)
        offsets = np.zeros(len(idx) + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        take = np.concatenate([np.arange(self.offsets[i], self.offsets[i + 1]) for i in idx]) \
            if len(idx) else np.zeros(0, dtype=np.int64)
        return EncodedTrees(offsets, self.edges[take], self.words[take], self.lemmas[take],
                            self.pos[take], self.child_start[take], self.n_children[take])

    def parents(self, i: int) -> list[int]:
        """Parent (local index, -1 for the root) of each node of tree ``i``."""
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        out = [-1] * (hi - lo)
        for k in range(hi - lo):
            c0 = int(self.child_start[lo + k])
            for c in range(c0, c0 + int(self.n_children[lo + k])):
                out[c] = k
        return out


def tree_topology(parents: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(child_start, n_children)`` int32 arrays of one tree given in breadth-first order
    (parents nondecreasing, root first with parent -1)."""
    p = np.asarray(parents, dtype=np.int64)
    n = len(p)
    if n and (p[0] != -1 or np.any(p[1:] < 0) or np.any(np.diff(p) < 0)
              or np.any(p[1:] >= np.arange(1, n))):
        raise ValueError(f"not a breadth-first parent list: {list(parents)}")
    ks = np.arange(n)
    start = np.searchsorted(p, ks, side="left").astype(np.int32)
    count = (np.searchsorted(p, ks, side="right") - start).astype(np.int32)
    return start, count


class StructureEncoder:
    """Maps tuple structures to :class:`EncodedStructures` with shared vocabularies."""

    def __init__(self) -> None:
        self.edges, self.words, self.lemmas, self.pos = Vocab(), Vocab(), Vocab(), Vocab()

    def encode(self, structures: Sequence[Sequence[Tuple]], grow: bool = True
               ) -> EncodedStructures:
        """Encode tuples; ``grow=False`` leaves the vocabularies as they are and gives unseen
        labels ids past the vocabulary that are valid within this call only (so extraction
        over millions of texts does not grow the model, and kernels against stored
        structures are unchanged: an unseen label matches nothing stored)."""
        lens = np.array([len(s) for s in structures], dtype=np.int64)
        offsets = np.zeros(len(structures) + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        flat = [t for s in structures for t in s]
        vocabs = (self.edges, self.words, self.lemmas, self.pos)
        if grow:
            cols = [np.fromiter((v.add(t[k]) for t in flat), dtype=np.int32, count=len(flat))
                    for k, v in enumerate(vocabs)]
        else:
            cols = []
            for k, v in enumerate(vocabs):
                extra: dict[str, int] = {}
                ids = [v.stoi.get(t[k]) for t in flat]
                cols.append(np.fromiter(
                    (i if i is not None else extra.setdefault(t[k], len(v) + len(extra))
                     for i, t in zip(ids, flat, strict=True)), dtype=np.int32, count=len(flat)))
        return EncodedStructures(offsets, *cols)

    def encode_trees(self, trees: Sequence[Subtree], grow: bool = True) -> EncodedTrees:
        """Encode :class:`Subtree` s (node tuples as :meth:`encode`, plus their topology)."""
        flat = self.encode([t.nodes for t in trees], grow=grow)
        tops = [tree_topology(t.parents) for t in trees]
        start, count = (np.concatenate([x[k] for x in tops]) if tops else np.zeros(0, np.int32)
                        for k in (0, 1))
        return EncodedTrees(flat.offsets, flat.edges, flat.words, flat.lemmas, flat.pos,
                            start, count)

    def to_dict(self) -> dict[str, list[str]]:
        return {k: getattr(self, k).itos[1:] for k in ("edges", "words", "lemmas", "pos")}

    @classmethod
    def from_dict(cls, d: dict[str, list[str]]) -> StructureEncoder:
        enc = cls()
        for k in ("edges", "words", "lemmas", "pos"):
            setattr(enc, k, Vocab(d[k]))
        return enc
