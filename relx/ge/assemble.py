"""Event assembly: trigger nodes + Theme/Cause edges -> ``.a2`` events, bottom-up.

* simple types (Gene_expression ... Localization): one event per protein Theme;
* Binding: the protein Themes of a trigger grouped by ``binding``, a callable
  ``(view, token, themes) -> groups``: :func:`side_groups` (themes left x right of the
  trigger pairwise when both sides have any, else one event per theme; the strategy
  ``side``, which relx ships; the other groupings measured are :mod:`lab.ge.binding`);
* regulations: one event per Theme (a protein, or each event of a theme trigger) and per
  Cause (likewise, or none), built recursively so nested events exist before their parents;
  cycles and events without a theme are dropped.

Trigger ids continue after the highest ``.a1`` protein number; event ids count from E1.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from relx.doc import REGULATION_TYPES, Event, Span, StandoffDocument, TextBound, id_key
from relx.ge.edges import EdgeCandidate
from relx.ge.sentences import Node, SentenceView

SIMPLE_TYPES = frozenset({"Gene_expression", "Transcription", "Protein_catabolism",
                          "Phosphorylation", "Localization"})
Arg = tuple[str, str]  # (role, ref id)
Grouping = Callable[[SentenceView, int, list[str]], list[list[str]]]


def side_groups(view: SentenceView, trigger_tok: int, themes: list[str]) -> list[list[str]]:
    """Theme sets of the Binding events of one trigger (the ``side`` strategy): the themes
    left x right of the trigger pairwise when both sides have any, else one event each."""
    themes = sorted(dict.fromkeys(themes), key=lambda p: view.protein_head[p])
    left = [p for p in themes if view.protein_head[p] < trigger_tok]
    right = [p for p in themes if view.protein_head[p] >= trigger_tok]
    if len(themes) > 1 and left and right:
        return [[a, b] for a in left for b in right]
    return [[p] for p in themes]


#: the Binding strategies of relx's configs, by name
BINDING_GROUPINGS: Mapping[str, Grouping] = {"side": side_groups}


class _Builder:
    """Collects text-bounds and events of one document with consistent ids."""

    def __init__(self, so: StandoffDocument, max_events_per_trigger: int = 30) -> None:
        self.so = so
        nums = [id_key(p.id)[1] for p in so.proteins if id_key(p.id)[0] == "T"]
        self.next_t = max(nums, default=0) + 1
        self.triggers: dict[tuple[int, int, str], TextBound] = {}
        self.events: list[Event] = []
        self.seen: dict[tuple, str] = {}
        self.scores: dict[str, float] = {}     # event id -> score (predicted edges only)
        self.cap = max_events_per_trigger

    def trigger(self, span: tuple[int, int], typ: str) -> str:
        key = (*span, typ)
        if key not in self.triggers:
            self.triggers[key] = TextBound(id=f"T{self.next_t}", type=typ,
                                           spans=[Span(start=span[0], end=span[1])],
                                           text=self.so.text[span[0]:span[1]])
            self.next_t += 1
        return self.triggers[key].id

    def event(self, typ: str, trig: str, args: list[Arg], score: float | None = None) -> str:
        sig = (typ, trig, tuple(sorted(args)))
        if sig not in self.seen:
            eid = f"E{len(self.events) + 1}"
            self.events.append(Event(id=eid, type=typ, trigger=trig, arguments=args))
            self.seen[sig] = eid
        eid = self.seen[sig]
        if score is not None:
            self.scores[eid] = max(score, self.scores.get(eid, score))
        return eid

    def document(self) -> StandoffDocument:
        events = [e.model_copy(update={"score": round(self.scores[e.id], 4)})
                  if e.id in self.scores else e for e in self.events]
        return StandoffDocument(id=self.so.id, text=self.so.text, proteins=list(self.so.proteins),
                                triggers=list(self.triggers.values()), events=events,
                                source="relx")


def assemble_sentence(b: _Builder, view: SentenceView, edges: Sequence[tuple[EdgeCandidate, str]],
                      binding: Grouping = side_groups,
                      edge_scores: Mapping[EdgeCandidate, float] | None = None) -> None:
    """Add the events of one sentence's nodes and edges to ``b``; with ``edge_scores``
    (edge -> probability of its role) each event is scored by its weakest edge, nested
    events' scores included."""
    out: dict[Node, list[tuple[object, str, float | None]]] = {}
    for c, role in edges:
        out.setdefault(c.src, []).append(
            (c.dst, role, None if edge_scores is None else edge_scores.get(c)))
    memo: dict[Node, list[str]] = {}
    visiting: set[Node] = set()

    def events_of(node: Node) -> list[str]:
        if node in memo:
            return memo[node]
        if node in visiting:
            return []
        visiting.add(node)
        tok, typ = node
        args = out.get(node, [])
        ids: list[str] = []
        trig = None

        def tid() -> str:
            nonlocal trig
            trig = trig or b.trigger(view.token_span(tok), typ)
            return trig

        if typ in REGULATION_TYPES:
            themes = _refs(args, "Theme", events_of, b.scores)
            causes = _refs(args, "Cause", events_of, b.scores) or {None: None}
            for th, ca in list(itertools.product(themes, causes))[:b.cap]:
                a: list[Arg] = [("Theme", th)] + ([("Cause", ca)] if ca else [])
                ids.append(b.event(typ, tid(), a, _weakest(themes[th], causes[ca])))
        else:
            prot_score = {d: s for d, r, s in args if r == "Theme" and isinstance(d, str)}
            prots = [d for d, r, _ in args if r == "Theme" and isinstance(d, str)]
            if typ != "Binding":
                groups = [[p] for p in dict.fromkeys(prots)]
            else:
                groups = binding(view, tok, prots)
            for grp in groups[:b.cap]:
                a = [("Theme" if k == 0 else f"Theme{k + 1}", p) for k, p in enumerate(grp)]
                ids.append(b.event(typ, tid(), a, _weakest(*(prot_score.get(p) for p in grp))))
        visiting.discard(node)
        memo[node] = ids
        return ids

    for node in sorted(out):
        events_of(node)


def _weakest(*scores: float | None) -> float | None:
    """The lowest of the known scores (None when none is known)."""
    known = [s for s in scores if s is not None]
    return min(known) if known else None


def _refs(args: list[tuple[object, str, float | None]], role: str, events_of,
          event_scores: Mapping[str, float]) -> dict[str, float | None]:
    """Ref id -> score of the ``role`` arguments (a nested event's: the weaker of its edge
    and its own score), in order."""
    refs: dict[str, float | None] = {}
    for dst, r, s in args:
        if r != role:
            continue
        found = [(dst, s)] if isinstance(dst, str) else \
            [(e, _weakest(s, event_scores.get(e))) for e in events_of(dst)]
        for ref, score in found:
            if ref not in refs or (score is not None and (refs[ref] is None
                                                          or score > refs[ref])):
                refs[ref] = score
    return refs


def assemble_document(so: StandoffDocument, views: Sequence[SentenceView],
                      edges_per_view: Sequence[Sequence[tuple[EdgeCandidate, str]]],
                      binding: Grouping = side_groups,
                      edge_scores: Mapping[EdgeCandidate, float] | None = None
                      ) -> StandoffDocument:
    """A predicted :class:`StandoffDocument` (the ``.a1`` proteins plus predicted events,
    scored when ``edge_scores`` is given)."""
    b = _Builder(so)
    for view, edges in zip(views, edges_per_view, strict=True):
        assemble_sentence(b, view, edges, binding, edge_scores)
    return b.document()
