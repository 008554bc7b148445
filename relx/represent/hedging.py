"""Negation and speculation cues around a candidate pair, and the cue's scope.

A pair is described by the cue words of its sentence (a lexicon: the seed lists below plus
words learnt from training data, :func:`learn_cue_lexicon`) and by where each cue stands
relative to the pair:

- linear position: before both mentions, between them, after both; token distance to the
  nearer mention;
- dependency relation to the pair's shortest path (the path between the two mentions'
  heads, and its lowest common ancestor, the LCA): the cue is on the path, a dependent of a
  path word ("does *not* bind" - what :func:`relx.represent.pair_features.negated_pair`
  looks at), a governor of the LCA ("*failed* to bind"), or a dependent of such a governor
  ("we did *not* detect any interaction between A and B");
- scope by dependency subtree: a function-word cue (labels ``neg``, ``advmod``, ``aux``,
  ``det``, ``mark``, ``cc:preconj``) scopes over its governor's subtree, a content-word cue
  ("*lack* of binding", "*suggest*") over its own; the pair is in scope when both heads
  are in that subtree, half in scope when one is;
- sentence level: which cues occur anywhere in the sentence.

The position and scope features are counted per cue word and per cue class (``seed``: a
built-in cue; ``learnt``: a word of the learnt lexicon only), so the many weak learnt
cues do not dilute the strong built-in ones.

The features of one pair are a ``dict[str, float]`` (``neg:``/``spec:`` prefixed), read by
:class:`relx.learn.hedging.HedgingDetector`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

import networkx as nx

from relx.doc import Entity, Sentence
from relx.graphs import undirected_path
from relx.represent.instances import PairInstance
from relx.structures import entity_head, entity_tokens, sentence_graph

#: seed cue words of negation (lemmas or lower-cased words)
NEGATION_CUES = frozenset({
    "not", "no", "n't", "never", "without", "nor", "neither", "none", "lack", "lacking",
    "absence", "absent", "fail", "unable", "independent", "independently",
    "unaffected", "abolish", "cannot", "rather", "instead", "insensitive", "unchanged"})
#: seed cue words of speculation (hedges, and the verbs of an open question: "we tested")
SPECULATION_CUES = frozenset({
    "may", "might", "could", "can", "would", "should", "whether", "if", "suggest",
    "suggesting", "indicate", "possible", "possibly", "potential", "potentially", "likely",
    "unlikely", "probably", "putative", "hypothesis", "hypothesize", "propose", "investigate",
    "examine", "test", "determine", "study", "analyze", "address", "explore", "assess",
    "appear", "seem", "presumably", "role", "implicate", "believe", "think", "evaluate"})
HEDGING_TYPES = ("negated", "speculated")
SEED_CUES = {"negated": NEGATION_CUES, "speculated": SPECULATION_CUES}
PREFIX = {"negated": "neg", "speculated": "spec"}
#: a cue with one of these labels scopes over its governor's subtree, else over its own
FUNCTION_LABELS = frozenset({"neg", "advmod", "aux", "aux:pass", "auxpass", "det", "mark",
                             "cc:preconj", "preconj"})


def token_word(sentence: Sentence, i: int) -> str:
    """The lexicon key of token ``i``: its lower-cased lemma (or text)."""
    t = sentence.tokens[i]
    return (t.lemma or t.text).lower()


def _head(graph: nx.MultiDiGraph, i: int) -> int | None:
    preds = list(graph.predecessors(i))
    return preds[0] if preds else None


#: per sentence graph (shared and never modified, :func:`relx.structures.sentence_graph`):
#: its tokens' governors and cue scopes and its cue tokens, asked again for every pair of
#: the sentence
_MEMO: WeakKeyDictionary[nx.MultiDiGraph, dict[tuple[str, Hashable], Any]] = \
    WeakKeyDictionary()


def _memo(graph: nx.MultiDiGraph, kind: str, i: Hashable, compute: Callable[[], Any]) -> Any:
    table = _MEMO.get(graph)
    if table is None:
        table = _MEMO[graph] = {}
    hit = table.get((kind, i))
    if hit is None:
        hit = table[kind, i] = compute()
    return hit


def ancestors(graph: nx.MultiDiGraph, i: int) -> list[int]:
    """Governors of ``i`` up to the root, nearest first (cycles cut)."""
    return _memo(graph, "ancestors", i, lambda: _ancestors(graph, i))


def _ancestors(graph: nx.MultiDiGraph, i: int) -> list[int]:
    out, seen, cur = [], {i}, _head(graph, i)
    while cur is not None and cur not in seen:
        out.append(cur)
        seen.add(cur)
        cur = _head(graph, cur)
    return out


def subtree(graph: nx.MultiDiGraph, i: int) -> set[int]:
    """``i`` and every token it dominates."""
    return {i, *nx.descendants(graph, i)}


def cue_scope(graph: nx.MultiDiGraph, i: int) -> set[int]:
    """Tokens in the scope of cue token ``i`` (see the module doc); do not modify it."""
    return _memo(graph, "scope", i, lambda: _cue_scope(graph, i))


def _cue_scope(graph: nx.MultiDiGraph, i: int) -> set[int]:
    h = _head(graph, i)
    labels = {d.get("label", "") for d in graph.get_edge_data(h, i).values()} if h is not None \
        else set()
    if h is not None and labels & FUNCTION_LABELS:
        return subtree(graph, h)
    return subtree(graph, i)


def pair_path(sentence: Sentence, graph: nx.MultiDiGraph, e1: Entity, e2: Entity
              ) -> tuple[int | None, int | None, list[int], int | None]:
    """(head of e1, head of e2, shortest undirected path nodes, the path's LCA: the path node
    nearest the root); path and LCA empty / None without a connecting path."""
    h1, h2 = entity_head(sentence, e1, graph), entity_head(sentence, e2, graph)
    if h1 is None or h2 is None:
        return h1, h2, [], None
    try:
        nodes = undirected_path(graph, h1, h2)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return h1, h2, [], None
    lca = min(nodes, key=lambda n: len(ancestors(graph, n)))
    return h1, h2, nodes, lca


def _bin(n: int) -> str:
    return str(n) if n < 3 else ("3-5" if n <= 5 else "6+")


def cue_relations(sentence: Sentence, graph: nx.MultiDiGraph, cue: int, span1: list[int],
                  span2: list[int], h1: int | None, h2: int | None, path: list[int],
                  lca: int | None) -> list[str]:
    """Names of the relations of cue token ``cue`` to a pair (see the module doc)."""
    rel = []
    lo, hi = min(span1 + span2), max(span1 + span2)
    inner_lo, inner_hi = min(max(span1), max(span2)), max(min(span1), min(span2))
    if cue < lo:
        rel.append("pos=before")
    elif cue > hi:
        rel.append("pos=after")
    elif inner_lo < cue < inner_hi:
        rel.append("pos=between")
    dist = min(abs(cue - t) for t in span1 + span2)
    rel.append("dist=" + _bin(dist))
    on_path = set(path)
    head = _head(graph, cue)
    if cue in on_path:
        rel.append("on_path" if cue != lca else "is_lca")
    elif head is not None and head in on_path:
        rel.append("dep_of_path" if head != lca else "dep_of_lca")
    if lca is not None:
        above = ancestors(graph, lca)
        if cue in above:
            rel.append("governs_lca")
        elif head is not None and head in above:
            rel.append("dep_of_governor")
    scope = cue_scope(graph, cue)
    inside = (h1 in scope) + (h2 in scope)
    rel.append("scope=" + ("both" if inside == 2 else "one" if inside == 1 else "none"))
    return rel


def hedging_features(x: PairInstance, lexicons: dict[str, frozenset[str]]
                     ) -> dict[str, float]:
    """Cue features of one candidate pair for each type's lexicon (``{type: words}``)."""
    s = x.sentence
    e1, e2 = s.entity(x.relation.arg1), s.entity(x.relation.arg2)
    graph = sentence_graph(s)
    span1, span2 = entity_tokens(s, e1), entity_tokens(s, e2)
    f: dict[str, float] = {"bias_path=" + ("yes" if span1 and span2 else "no"): 1.0}
    if not span1 or not span2:
        return f
    h1, h2, path, lca = pair_path(s, graph, e1, e2)
    if lca is not None:
        f["lca=" + token_word(s, lca)] = 1.0
    mention = frozenset(span1) | frozenset(span2) | {t for e in s.entities
                                                      for t in entity_tokens(s, e)}
    cues = _memo(graph, "cues", (tuple(lexicons.items()), mention),
                 lambda: _cue_tokens(s, lexicons, mention))
    for typ, i, w, kind in cues:
        p = PREFIX[typ]
        f[f"{p}:sent:{kind}"] = 1.0
        f[f"{p}:cue={w}"] = 1.0
        for r in cue_relations(s, graph, i, span1, span2, h1, h2, path, lca):
            f[f"{p}:{kind}:{r}"] = 1.0
            if not r.startswith("dist="):
                f[f"{p}:cue={w}:{r}"] = 1.0
    return f


def _cue_tokens(s: Sentence, lexicons: dict[str, frozenset[str]], mention: frozenset[int]
                ) -> list[tuple[str, int, str, str]]:
    """``(type, token, word, "seed" / "learnt")`` of each token of ``s`` outside ``mention``
    that is a cue of a type's lexicon, by type then token: the same for every pair of the
    sentence (memoised per sentence graph by :func:`hedging_features`)."""
    out = []
    for typ, words in lexicons.items():
        for i, t in enumerate(s.tokens):
            w = token_word(s, i)
            if i in mention or (w not in words and t.text.lower() not in words):
                continue
            seed = w in SEED_CUES[typ] or t.text.lower() in SEED_CUES[typ]
            out.append((typ, i, w, "seed" if seed else "learnt"))
    return out


def learn_cue_lexicon(X: Sequence[PairInstance], y: Sequence[bool], *, min_count: int = 3,
                      min_lift: float = 2.0, seed: Iterable[str] = ()) -> frozenset[str]:
    """Words whose sentences hold ``y``-positive pairs at least ``min_lift`` times the base
    rate, in at least ``min_count`` positive pairs (counted per pair; mention tokens left out),
    plus the ``seed`` words."""
    y = [bool(v) for v in y]
    base = sum(y) / max(len(y), 1)
    pos, allc = Counter(), Counter()
    for x, lab in zip(X, y, strict=True):
        s = x.sentence
        mention = {t for e in s.entities for t in entity_tokens(s, e)}
        words = {token_word(s, i) for i in range(len(s.tokens)) if i not in mention}
        allc.update(words)
        if lab:
            pos.update(words)
    learnt = {w for w, n in pos.items()
              if n >= min_count and base > 0 and n / allc[w] >= min_lift * base
              and any(c.isalpha() for c in w)}
    return frozenset(learnt | set(seed))
