"""Typed, directed protein interactions from GENIA events, and an event typer for pairs.

:func:`typed_interactions` reads a standoff document's events as curator-level
interactions between two proteins:

* ``Binding`` of two protein Themes: ``Complex`` (undirected);
* a regulation event with a Cause (a protein, or the protein Themes of the event standing
  there: "phosphorylated A activates B") acts on each protein of its Theme:

  ============================  ===================  ====================  ==============
  Theme                         Positive_regulation  Negative_regulation   Regulation
  ============================  ===================  ====================  ==============
  protein, Binding,             Activation           Inhibition            Regulation
  Localization
  a modification of B           that modification    Inhibition            Regulation
  (``Phosphorylation``...)      (enzyme -> B)
  Gene_expression,              IncreaseAmount       DecreaseAmount        Regulation
  Transcription
  Protein_catabolism            DecreaseAmount       IncreaseAmount        Regulation
  a regulation of B             the signs combined   (+ x - = Inhibition)  Regulation
  ============================  ===================  ====================  ==============

  always directed Cause -> Theme, through one level of nesting; a modification event with
  a Cause (GE 2013) is that modification, Cause -> Theme (as :mod:`relx.ge.ppi_pairs`
  resolves silver pairs). A pair of a protein with itself is dropped.

:class:`EventTyper` runs an event model on the parse the pair scorer already made (the
sentences holding reported pairs only) and writes onto each reported :class:`Relation` the
best-scored interaction the events give it (``type``, ``direction``, ``event_score``); a
pair no event supports stays an untyped ``PPI``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relx.doc import REGULATION_TYPES, Document, StandoffDocument
from relx.errors import ConfigError
from relx.ge.extract import ge_document, is_protein, protein_ids, resolve_event_model
from relx.ge.pipeline import GEExtractor
from relx.ge.ppi_pairs import equivalent_pairs

#: GE modification event types (2011 and 2013 tasks) -> their Statement names
MODIFICATIONS = frozenset({"Phosphorylation", "Dephosphorylation", "Ubiquitination",
                           "Deubiquitination", "Acetylation", "Deacetylation", "Methylation",
                           "Demethylation", "Glycosylation", "Deglycosylation", "Hydroxylation",
                           "Dehydroxylation", "Protein_modification"})
AMOUNT_TYPES = frozenset({"Gene_expression", "Transcription"})
_SIGN = {"Positive_regulation": 1, "Negative_regulation": -1, "Regulation": 0}
_SIGNED = {1: "Activation", -1: "Inhibition", 0: "Regulation"}
_AMOUNT = {1: "IncreaseAmount", -1: "DecreaseAmount", 0: "Regulation"}
#: the more specific type wins a tie in event score
SPECIFICITY = ("Phosphorylation", "Ubiquitination", "Acetylation", "Deacetylation",
               "Methylation", "Glycosylation", "Hydroxylation", "Protein_modification",
               "Activation", "Inhibition", "IncreaseAmount", "DecreaseAmount", "Complex",
               "Regulation")
DIRECTED_TYPES = frozenset(SPECIFICITY) - {"Complex"}
#: the event model's ``None`` biases while typing pairs a PPI model already reports: chosen
#: by type F1 on the gold-connected pairs of 182 held-out GE 2011 train documents
#: (``lab/experiments/typed_bias.py``; 0.743 vs 0.493 with the model's own 0.7 / -0.2,
#: tuned to find events in all text). A pair already known to interact needs less evidence to be typed.
TYPING_TRIGGER_BIAS = 1.5
TYPING_EDGE_BIAS = 0.7


@dataclass(frozen=True)
class TypedInteraction:
    """One interaction between two proteins (``.a1`` ids): ``type``; ``agent`` -> ``target``
    when directed, else the two ``members`` only (``agent`` None); the id and score of the
    event it comes from (score None for gold events)."""

    type: str
    members: frozenset[str]
    agent: str | None
    target: str | None
    event: str
    score: float | None = None

    def rank(self) -> tuple[float, int]:
        """Sort key, best first: higher event score, then the more specific type."""
        spec = SPECIFICITY.index(self.type) if self.type in SPECIFICITY else len(SPECIFICITY)
        return (-(self.score if self.score is not None else 1.0), spec)


def _regulation_type(sign: int, theme_type: str | None) -> str:
    """The interaction type of a regulation of ``sign`` whose Theme is a protein (None) or
    an event of ``theme_type``."""
    if theme_type is None or theme_type in ("Binding", "Localization"):
        return _SIGNED[sign]
    if theme_type in MODIFICATIONS:
        mod = "Protein_modification" if theme_type == "Protein_modification" else theme_type
        return {1: mod, -1: "Inhibition", 0: "Regulation"}[sign]
    if theme_type in AMOUNT_TYPES:
        return _AMOUNT[sign]
    if theme_type == "Protein_catabolism":
        return _AMOUNT[-sign]
    if theme_type in REGULATION_TYPES:
        inner = _SIGN[theme_type]
        return _SIGNED[sign * inner]
    return "Regulation"


def typed_interactions(doc: StandoffDocument) -> dict[frozenset[str], list[TypedInteraction]]:
    """Unordered protein-id pair -> its interactions, best first (see the module doc)."""
    proteins = {p.id for p in doc.proteins}
    events = doc.event_map()
    found: dict[frozenset[str], list[TypedInteraction]] = {}

    def add(t: TypedInteraction) -> None:
        if len(t.members) == 2:
            found.setdefault(t.members, []).append(t)

    def theme_proteins(ref: str) -> list[str]:
        if ref in proteins:
            return [ref]
        ev = events.get(ref)
        return [r for r in ev.refs("Theme") if r in proteins] if ev is not None else []

    for ev in doc.events:
        if ev.type == "Binding":
            themes = sorted(dict.fromkeys(r for r in ev.refs("Theme") if r in proteins))
            for i, a in enumerate(themes):
                for b in themes[i + 1:]:
                    add(TypedInteraction("Complex", frozenset((a, b)), None, None, ev.id,
                                         ev.score))
        elif ev.type in MODIFICATIONS and ev.refs("Cause"):   # GE 2013: the enzyme as Cause
            for agent in (p for c in ev.refs("Cause") for p in theme_proteins(c)):
                for target in (r for r in ev.refs("Theme") if r in proteins):
                    add(TypedInteraction(ev.type, frozenset((agent, target)), agent, target,
                                         ev.id, ev.score))
        elif ev.type in REGULATION_TYPES:
            causes = [p for c in ev.refs("Cause") for p in theme_proteins(c)]
            for th in ev.refs("Theme"):
                nested = events.get(th)
                typ = _regulation_type(_SIGN[ev.type], nested.type if nested else None)
                for target in theme_proteins(th):
                    for agent in causes:
                        add(TypedInteraction(typ, frozenset((agent, target)), agent, target,
                                             ev.id, ev.score))
    for ts in found.values():
        ts.sort(key=TypedInteraction.rank)
    return found


def closed_under_equivs(found: dict[frozenset[str], list[TypedInteraction]],
                        doc: StandoffDocument) -> dict[frozenset[str], list[TypedInteraction]]:
    """``found`` with each interaction repeated for the mentions ``Equiv`` to its proteins
    (gold annotation names one mention of a group; an equivalent one takes part too)."""
    groups = doc.equiv_classes()
    out: dict[frozenset[str], list[TypedInteraction]] = {}
    for pair, ts in found.items():
        for x, y in equivalent_pairs(pair, groups):
            swap = dict(zip(sorted(pair), (x, y), strict=True))
            for t in ts:
                out.setdefault(frozenset((x, y)), []).append(TypedInteraction(
                    t.type, frozenset((x, y)), swap.get(t.agent) if t.agent else None,
                    swap.get(t.target) if t.target else None, t.event, t.score))
    for ts in out.values():
        ts.sort(key=TypedInteraction.rank)
    return out


def direction_of(t: TypedInteraction, arg1: str) -> str | None:
    """``entity1->entity2`` when ``t``'s agent is ``arg1``, ``entity2->entity1`` when it is
    the other member, None when ``t`` is undirected."""
    if t.agent is None:
        return None
    return "entity1->entity2" if t.agent == arg1 else "entity2->entity1"


class EventTyper:
    """Types the reported pairs of parsed documents with an event model, on their parse.

    ``model``: an event model directory, installed name (default ``ge-events``) or loaded
    :class:`GEExtractor`. Only sentences holding a reported pair (``Sentence.relations``)
    go through the model, and only proteins (:func:`relx.ge.extract.is_protein`) are its
    arguments; the events' Negation / Speculation are not judged (a relation's come from
    :mod:`relx.learn.hedging`). ``trigger_bias`` / ``edge_bias``: the model's ``None`` biases for triggers and
    argument edges while typing (default: :data:`TYPING_TRIGGER_BIAS` /
    :data:`TYPING_EDGE_BIAS`; None: the model's own, tuned for event extraction).
    """

    def __init__(self, model: str | Path | GEExtractor | None = None, *,
                 trigger_bias: float | None = TYPING_TRIGGER_BIAS,
                 edge_bias: float | None = TYPING_EDGE_BIAS) -> None:
        from relx.model_store import in_background

        self.trigger_bias = trigger_bias
        self.edge_bias = edge_bias
        self._model_ref = None if isinstance(model, GEExtractor) else model
        self._given = isinstance(model, GEExtractor)
        self._model: GEExtractor | None = model if self._given else None
        # loads beside whatever is loaded next (the interaction model); see :attr:`model`
        self._loading = None if self._given else in_background(resolve_event_model, model)

    @property
    def model(self) -> GEExtractor:
        """The event model (waits for it, or raises what loading it raised)."""
        if self._model is None:
            self._model = self._loading.result()
        return self._model

    @property
    def name(self) -> str:
        return str((getattr(self.model, "meta", None) or {}).get("name", "ge-events"))

    @property
    def version(self) -> str:
        return str((getattr(self.model, "meta", None) or {}).get("version", "0"))

    def __reduce__(self) -> tuple:
        """Pickled as its model's name or directory: a worker process loads its own copy."""
        if self._given:
            raise ConfigError("an EventTyper built from a model object cannot go to another "
                             "process: build it from the event model's name or directory")
        return (_rebuilt_typer, (self._model_ref, self.trigger_bias, self.edge_bias))

    def predict(self, docs: Sequence[Document]
                ) -> list[tuple[Document, dict[str, str], StandoffDocument]]:
        """Per document with a reported pair: the document, its entity id -> ``T`` id map
        and the events predicted on its sentences with pairs (documents without pairs are
        left out)."""
        todo = []
        for d in docs:
            sents = [s for s in d.sentences if s.relations]
            if not sents:
                continue
            part = d.model_copy(update={"sentences": sents})
            ids = protein_ids([e for s in sents for e in s.entities if is_protein(e)])
            todo.append((d, ids, ge_document(part)))
        preds = self.model.predict([g for _, _, g in todo], self.trigger_bias,
                                   self.edge_bias, modifications=False) if todo else []
        return [(d, ids, p) for (d, ids, _), p in zip(todo, preds, strict=True)]

    def type_relations(self, docs: Iterable[Document], instances: Sequence[Any] | None = None
                       ) -> None:
        """Set ``type`` / ``direction`` / ``event_score`` of every relation on the
        documents' sentences that an event supports (in place; ``instances``, the scored
        pairs, are not read: the events come from the sentences)."""
        for d, ids, pred in self.predict(list(docs)):
            found = typed_interactions(pred)
            for s in d.sentences:
                for r in s.relations:
                    best = found.get(frozenset((ids.get(r.arg1), ids.get(r.arg2))))
                    if not best:
                        continue
                    t = best[0]
                    r.type = t.type
                    r.direction = direction_of(t, ids[r.arg1])
                    r.event_score = t.score


def _rebuilt_typer(model: str | Path | None, trigger_bias: float | None,
                   edge_bias: float | None) -> EventTyper:
    return EventTyper(model, trigger_bias=trigger_bias, edge_bias=edge_bias)
