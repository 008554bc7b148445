"""Per-sentence view of a parsed GE document: proteins, trigger candidates and gold labels.

Triggers and arguments live on tokens. A trigger *node* is ``(token index, event type)``
(one token may anchor events of two types); a protein node is its ``.a1`` id. Multi-token
gold triggers map to their content head token (:func:`trigger_head`), and a predicted
trigger's span is its token's span without leading/trailing punctuation.
Events whose trigger and arguments lie in different sentences are out of reach (dropped).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

import networkx as nx

from relx.doc import (
    GE_EVENT_TYPES,
    REGULATION_TYPES,
    Sentence,
    StandoffDocument,
    TextBound,
    base_role,
)
from relx.ge.data import GEDoc
from relx.structures import entity_head, sentence_graph

#: POS tags that never head a trigger (function words)
FUNCTION_POS = frozenset({"IN", "TO", "DT", "CC", "PRP", "PRP$", "WDT", "WP", "EX", "POS",
                          "MD", "RP", "-LRB-", "-RRB-", ",", ".", ":", "``", "''", "HYPH",
                          "SYM", "LS"})
#: argument roles of the core task (task 1)
ROLES = ("Theme", "Cause")
_STRIP = "-/+.,;:()[]'\"`"

Node = tuple[int, str]  # (token index, event type): a trigger node


@dataclass
class SentenceView:
    """One parsed sentence with what the event stages need about it."""

    doc_id: str
    sentence: Sentence
    graph: nx.MultiDiGraph
    protein_head: dict[str, int]                # protein id -> head token
    protein_tokens: set[int]                    # tokens inside any protein
    gold_triggers: dict[int, set[str]] = field(default_factory=dict)   # token -> types
    gold_edges: dict[tuple[Node, object], str] = field(default_factory=dict)
    gold_bindings: dict[int, list[frozenset[str]]] = field(default_factory=dict)  # tok -> themes
    _undirected: nx.Graph | None = None

    @property
    def tokens(self):
        return self.sentence.tokens

    def undirected(self) -> nx.Graph:
        if self._undirected is None:
            self._undirected = nx.Graph(self.graph.to_undirected(as_view=True))
        return self._undirected

    def candidates(self) -> list[int]:
        """Trigger candidate tokens: outside proteins, containing a letter."""
        return [t.index for t in self.tokens
                if t.index not in self.protein_tokens and any(c.isalpha() for c in t.text)]

    def proteins_at(self) -> dict[int, list[str]]:
        out: dict[int, list[str]] = defaultdict(list)
        for pid, tok in self.protein_head.items():
            out[tok].append(pid)
        return out

    def token_span(self, tok: int) -> tuple[int, int]:
        """Character span of a token without leading/trailing punctuation."""
        t = self.tokens[tok]
        text, start = t.text, t.start
        left = len(text) - len(text.lstrip(_STRIP))
        stripped = text.strip(_STRIP)
        if not stripped:
            return t.start, t.end
        return start + left, start + left + len(stripped)


def trigger_head(view: SentenceView, tb: TextBound) -> int | None:
    """The token that anchors a (possibly multi-token) gold trigger: its content head."""
    toks = [t.index for t in view.tokens
            if any(t.start < s.end and s.start < t.end for s in tb.spans)]
    if not toks:
        return None
    content = [t for t in toks if (view.tokens[t].pos or "") not in FUNCTION_POS
               and t not in view.protein_tokens] or toks
    inside = set(toks)
    heads = [t for t in content if not any(h in inside for h in view.graph.predecessors(t))]
    return (heads or content)[-1]


def build_views(doc: GEDoc, gold: bool = True) -> list[SentenceView]:
    """Sentence views of one document; with ``gold``, trigger and edge labels from its ``.a2``."""
    views = []
    for s in doc.parsed.sentences:
        g = sentence_graph(s)   # shared with the pair scorer's stages (read-only)
        heads: dict[str, int] = {}
        inside: set[int] = set()
        for e in s.entities:
            h = entity_head(s, e, g)
            if h is not None:
                heads[e.id] = h
            inside |= {t.index for t in s.tokens
                       if any(t.start < sp.end and sp.start < t.end for sp in e.spans)}
        views.append(SentenceView(doc.id, s, g, heads, inside))
    if gold:
        _attach_gold(views, doc.standoff)
    return views


def _sentence_of(views: list[SentenceView], offset: int) -> int | None:
    for i, v in enumerate(views):
        if v.sentence.start <= offset < v.sentence.end:
            return i
    return None


def _attach_gold(views: list[SentenceView], so: StandoffDocument) -> None:
    """Gold trigger nodes and Theme/Cause edges (within one sentence) onto the views."""
    tbs = so.textbounds()
    events = so.event_map()
    node_of: dict[str, tuple[int, Node]] = {}   # trigger T id + type -> (sentence, node)
    for e in so.events:
        if e.type not in GE_EVENT_TYPES or e.trigger not in tbs:
            continue
        tb = tbs[e.trigger]
        si = _sentence_of(views, tb.start)
        if si is None:
            continue
        tok = trigger_head(views[si], tb)
        if tok is None:
            continue
        views[si].gold_triggers.setdefault(tok, set()).add(e.type)
        node_of[e.id] = (si, (tok, e.type))
    for e in so.events:
        if e.id not in node_of:
            continue
        si, src = node_of[e.id]
        view = views[si]
        if e.type == "Binding":
            themes = frozenset(r for r in e.refs("Theme") if r in view.protein_head)
            if themes:
                view.gold_bindings.setdefault(src[0], []).append(themes)
        for role, ref in e.arguments:
            role = base_role(role)
            if role not in ROLES:
                continue
            if ref in events:
                if ref not in node_of or node_of[ref][0] != si:
                    continue
                dst: object = node_of[ref][1]
            elif ref in view.protein_head:
                dst = ref
            else:
                continue
            view.gold_edges[(src, dst)] = role


def edge_targets(view: SentenceView, src: Node, nodes: list[Node]) -> Iterator[object]:
    """Possible argument nodes of trigger node ``src``: proteins; other triggers for regulations."""
    yield from view.protein_head
    if src[1] in REGULATION_TYPES:
        for n in nodes:
            if n != src:
                yield n


def allowed_roles(src_type: str) -> tuple[str, ...]:
    return ROLES if src_type in REGULATION_TYPES else ("Theme",)
