"""GENIA event extraction from any document relx reads (``relx extract --task events``).

    import relx
    ex = relx.load(task="events")          # the shipped models/ge-events
    for ev in ex.extract("IL-2 induces the phosphorylation of STAT5 in T cells."):
        print(ev.type, ev.trigger.text, [(a.role, a.text) for a in ev.arguments])

``extract`` and ``pipe`` take text, a path, a Document, ``(id, text)`` pairs or an iterable
of these (:mod:`relx.api`), like the relation extractor's.

Proteins: a document's own protein/gene annotations when it has any (a BioNLP-ST ``.a1``,
PubTator or BioC annotations), otherwise relx's protein NER (the parse stage). A document
read from BioNLP-ST standoff always uses its ``.a1``, even an empty one. Protein ids are
``T1``, ``T2``...: ``.a1`` ids are kept; other ids (NER, PubTator...) are renumbered in
text order. Trigger ids continue after the highest protein number, event ids count from
``E1`` (:mod:`relx.ge.assemble`).

Per document the outputs are a BioNLP-ST triple ``<id>.txt`` / ``<id>.a1`` (the proteins
used) / ``<id>.a2`` (predicted triggers and events), readable by
:func:`relx.io.standoff.read_standoff`, and one :class:`ExtractedEvent` JSON line per event.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import deque
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from relx.api import GIVEN_OBJECT, StreamingExtractor, is_none
from relx.doc import Document, Entity, Sentence, Span, StandoffDocument, TextBound
from relx.doc_limits import (
    DEFAULT_MAX_DOC_CHARS,
    DEFAULT_MAX_DOC_SECONDS,
    DocumentClock,
    batches,
)
from relx.errors import ConfigError
from relx.ge.data import GEDoc
from relx.ge.pipeline import EVENT_MODEL, GEExtractor
from relx.ids import is_protein_type
from relx.io.papers import DEFAULT_SECTIONS, restore_text, sections_option, select_stream
from relx.io.standoff import write_standoff
from relx.model_store import resolve_model
from relx.parse.pipeline import Parser

DEFAULT_EVENT_MODEL = "ge-events"
#: sources of documents read from BioNLP-ST standoff: their ``.a1`` is the protein list
STANDOFF_SOURCES = frozenset({"bionlp-st"})
_TID = re.compile(r"^T(\d+)$")


class EventTrigger(BaseModel):
    """The trigger of an event: its ``.a2`` id, text and document offsets (end-exclusive)."""

    id: str
    text: str
    start: int
    end: int


class EventArgument(BaseModel):
    """One argument: ``role`` (Theme, Theme2, Cause), the protein (``T`` id) or nested event
    (``E`` id, with ``text``/offsets of its trigger and its ``type``); a protein's
    ``norm_ids`` are its HGNC/FamPlex grounding candidates, best first (:mod:`relx.genes.lexicon`;
    empty when it does not ground or grounding is off), ``ncbi_ids`` their NCBI Gene ids
    (:attr:`relx.doc.Entity.ncbi_ids`; left out of the JSON when None), ``norm_span`` the
    part of the mention that was grounded when not all of it."""

    role: str
    id: str
    kind: str            # "protein" | "event"
    type: str            # Protein, or the nested event's type
    text: str
    start: int
    end: int
    norm_ids: list[str] = Field(default_factory=list)
    taxon: str | None = None               # a protein's species (NCBITaxon id)
    norm_confidence: float | None = None   # of norm_ids[0], in [0, 1]
    grounded: bool | None = None           # False: in no lexicon
    ncbi_ids: list[str] | None = Field(default=None, exclude_if=is_none)
    norm_span: Span | None = Field(default=None, exclude_if=is_none)   # the part grounded


class ExtractedEvent(BaseModel):
    """One predicted GENIA event (one JSONL line of ``relx extract --task events``);
    ``modifications``: ``Negation`` and/or ``Speculation`` when the model marks it so;
    ``score``: the weakest decision behind the event, in [0, 1] (the lowest probability of
    its argument edges, nested events included; not calibrated). From a paper: the
    sentence's ``section``, ``section_heading`` and (PDF) ``page`` and ``boxes`` (see
    :class:`relx.ppi.extract.ExtractedRelation`); left out of the JSON when None."""

    document_id: str
    event_id: str
    type: str
    score: float | None = None
    trigger: EventTrigger
    arguments: list[EventArgument]
    modifications: list[str] = Field(default_factory=list)   # Negation, Speculation
    sentence_id: str | None = None
    sentence: str | None = None
    sentence_start: int | None = None
    sentence_end: int | None = None
    model: str
    model_version: str
    section: str | None = Field(default=None, exclude_if=is_none)
    section_heading: str | None = Field(default=None, exclude_if=is_none)
    page: int | None = Field(default=None, exclude_if=is_none)
    boxes: list[list[float]] | None = Field(default=None, exclude_if=is_none)


def resolve_event_model(model: str | Path | GEExtractor | None) -> GEExtractor:
    """A loaded GE model from a model object, a directory or an installed model's name."""
    return resolve_model(model, GEExtractor, DEFAULT_EVENT_MODEL, EVENT_MODEL, _load_named)


def _load_named(path: Path) -> GEExtractor:
    """The GE model of folder ``path``, named after it if saved before models had names."""
    loaded = GEExtractor.load(path)
    loaded.meta.setdefault("name", path.name or path.resolve().name)
    return loaded


def is_protein(e: Entity) -> bool:
    """An event argument: a gene/protein type of :data:`relx.ids.PROTEIN_TYPES`, the types
    pairs are made of (relx's tagger types a mention written as a FamPlex name
    ``Protein_family_or_group``: ``TGF-beta``, which GE annotates as a protein, as well as
    ``NF-kappaB``, which it does not)."""
    return is_protein_type(e.type)


def _given_proteins(doc: Document) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for s in doc.sentences:
        for e in s.entities:
            if is_protein(e):
                seen.setdefault(e.id, e)
    return list(seen.values())


def _only_proteins(doc: Document, proteins: list[Entity]) -> Document:
    """``doc`` whose entities are ``proteins`` (the parse stage splits tokens at them)."""
    if not proteins:
        return doc.model_copy(update={"sentences": []})
    return doc.model_copy(update={"sentences": [Sentence(
        id=f"{doc.id}.s0", start=0, end=len(doc.text), text=doc.text, entities=proteins)]})


def protein_ids(ents: Sequence[Entity]) -> dict[str, str]:
    """Entity id -> ``T`` id: kept when all are ``T<n>`` (an ``.a1``), else ``T1..`` in text
    order."""
    ids = [e.id for e in ents]
    if all(_TID.match(i) for i in ids) and len(set(ids)) == len(ids):
        return {i: i for i in ids}
    order = sorted(ents, key=lambda e: (e.start, e.end, e.id))
    return {e.id: f"T{k}" for k, e in enumerate(order, 1)}


def _textbound(e: Entity, tid: str, text: str) -> TextBound:
    spans = sorted(e.spans, key=lambda s: s.start)
    return TextBound(id=tid, type="Protein", spans=spans,
                     text=" ".join(text[s.start:s.end] for s in spans))


def ge_document(parsed: Document, proteins: Sequence[Entity] | None = None,
                source: str | None = None) -> GEDoc:
    """A :class:`GEDoc` from a parsed document: ``proteins`` (default: the parsed document's
    entities) become the ``.a1`` with ``T`` ids, and the parse's entities are renamed alike."""
    in_parse = [e for s in parsed.sentences for e in s.entities if is_protein(e)]
    ents = list(proteins) if proteins is not None else in_parse
    ids = protein_ids(ents)
    sents = [s.model_copy(update={"entities": [e.model_copy(update={"id": ids[e.id]})
                                               for e in s.entities if e.id in ids]})
             for s in parsed.sentences]
    so = StandoffDocument(id=parsed.id, text=parsed.text, source=source or parsed.source,
                          proteins=[_textbound(e, ids[e.id], parsed.text) for e in ents])
    return GEDoc(so, parsed.model_copy(update={"sentences": sents}))


def _sentence_at(doc: Document, offset: int, starts: list[int] | None = None
                 ) -> Sentence | None:
    """The sentence of ``doc`` holding ``offset`` (``starts``: its sentences' starts, in
    order, when already listed)."""
    starts = [s.start for s in doc.sentences] if starts is None else starts
    i = bisect_right(starts, offset) - 1
    return doc.sentences[i] if i >= 0 and offset < doc.sentences[i].end else None


def events_out(pred: StandoffDocument, parsed: Document, model: str, version: str
               ) -> list[ExtractedEvent]:
    """The JSONL records of one predicted document's events (protein arguments carry the
    ``norm_ids`` of the parsed document's entity with the same ``T`` id)."""
    tbs = pred.textbounds()
    evs = pred.event_map()
    ents = {e.id: e for s in parsed.sentences for e in s.entities}

    def arg(role: str, ref: str) -> EventArgument:
        if ref in evs:
            t = tbs[evs[ref].trigger]
            return EventArgument(role=role, id=ref, kind="event", type=evs[ref].type,
                                 text=t.text, start=t.start, end=t.end)
        t = tbs[ref]
        ent = ents.get(ref)
        return EventArgument(role=role, id=ref, kind="protein", type=t.type, text=t.text,
                             start=t.start, end=t.end,
                             norm_ids=list(ent.norm_ids) if ent is not None else [],
                             taxon=getattr(ent, "taxon", None),
                             norm_confidence=getattr(ent, "norm_confidence", None),
                             grounded=getattr(ent, "grounded", None),
                             ncbi_ids=getattr(ent, "ncbi_ids", None),
                             norm_span=getattr(ent, "norm_span", None))

    mods = pred.modifications_of()
    out = []
    starts = [s.start for s in parsed.sentences]
    for e in pred.events:
        t = tbs[e.trigger]
        s = _sentence_at(parsed, t.start, starts)
        out.append(ExtractedEvent(
            document_id=pred.id, event_id=e.id, type=e.type, score=e.score,
            trigger=EventTrigger(id=t.id, text=t.text, start=t.start, end=t.end),
            arguments=[arg(role, ref) for role, ref in e.arguments],
            modifications=mods.get(e.id, []),
            sentence_id=s.id if s else None, sentence=s.text if s else None,
            sentence_start=s.start if s else None, sentence_end=s.end if s else None,
            model=model, model_version=version, section=s.section if s else None,
            section_heading=s.section_heading if s else None, page=s.page if s else None,
            boxes=s.boxes if s else None))
    return out


class _GivenProteinsParser(Parser):
    """The same pipeline as ``base`` (shared, loaded once) without NER: documents whose
    proteins are given."""

    def __init__(self, base: Parser) -> None:
        super().__init__(base.model, ner=False, batch_size=base.batch_size)
        self._base = base

    @property
    def nlp(self) -> Any:
        return self._base.nlp


class EventExtractor(StreamingExtractor):
    """Parse -> proteins (given, or NER) -> triggers, arguments, events (a GE model).

    ``model``: a GE event model directory or installed name (default ``ge-events``);
    ``ground``: ground the proteins to HGNC/FamPlex (``EventArgument.norm_ids``, after
    the input's own ids); ``threads``: thread limit while extracting
    (:func:`relx.api.limited_threads`; ``None``: no limit); ``warm_up``: load everything
    now by extracting from one sentence (:func:`load` does). ``max_doc_chars`` /
    ``max_doc_seconds``: per-document limits (default 2,000,000 characters and 300 s; None:
    no limit; :mod:`relx.doc_limits`). Thread-safe: threads may share one extractor
    (:mod:`relx.api`). ``sections``: the parts of a paper read (as
    :class:`relx.ppi.extract.Extractor`'s).
    """

    #: one sentence with proteins and an event: every stage runs once while warming up
    WARM_UP_TEXT = "IL-2 induces the phosphorylation of STAT5 in T cells."
    MODEL_KIND = "event model"

    def __init__(self, model: str | Path | GEExtractor | None = None, *,
                 spacy_model: str | Path | None = None, batch_docs: int = 64,
                 ground: bool = True, threads: int | None = 1, warm_up: bool = False,
                 max_doc_chars: int | None = DEFAULT_MAX_DOC_CHARS,
                 max_doc_seconds: float | None = DEFAULT_MAX_DOC_SECONDS,
                 mentions: str = "auto", sections: str | Collection[str] | None = None
                 ) -> None:
        if mentions not in ("auto", "input", "relx"):
            raise ConfigError(f"the event extractor's mentions are 'auto', 'input' or 'relx', "
                              f"not {mentions!r}")
        self.mentions = mentions
        self.sections = sections_option(sections)
        self._options = {"spacy_model": spacy_model, "batch_docs": batch_docs,
                         "ground": ground, "threads": threads, "max_doc_chars": max_doc_chars,
                         "max_doc_seconds": max_doc_seconds, "mentions": mentions,
                         "sections": sections}
        self.max_doc_chars = max_doc_chars
        self.max_doc_seconds = max_doc_seconds
        self._model_ref = GIVEN_OBJECT if isinstance(model, GEExtractor) else model
        self.threads = threads
        self.model = resolve_event_model(model)
        meta = getattr(self.model, "meta", None) or {}
        self.name = str(meta.get("name", "ge-events"))
        self.version = str(meta.get("version", "0"))
        self.parser = Parser(spacy_model)                  # NER proteins
        self.given_parser = _GivenProteinsParser(self.parser)
        self.batch_docs = batch_docs
        self.ground = ground
        if warm_up:
            self.warm_up()

    def ge_documents(self, docs: Sequence[Document]) -> list[GEDoc]:
        """Parse ``docs`` and attach their proteins (given ones, or NER's)."""
        given = [_given_proteins(d) for d in docs]
        use_given = [{"input": True, "relx": False}.get(
            self.mentions, bool(g) or d.source in STANDOFF_SOURCES)
            for d, g in zip(docs, given, strict=True)]
        a = [_only_proteins(d, g) for d, g, u in zip(docs, given, use_given, strict=True) if u]
        b = [_only_proteins(d, []) for d, u in zip(docs, use_given, strict=True) if not u]
        limit = self.max_doc_seconds
        pa = iter(list(self.given_parser.parse_documents(a, max_seconds=limit)) if a else [])
        pb = iter(list(self.parser.parse_documents(b, max_seconds=limit)) if b else [])
        out = []
        for d, g, u in zip(docs, given, use_given, strict=True):
            out.append(ge_document(next(pa), g, d.source) if u else ge_document(next(pb)))
        return out

    def predict(self, gedocs: Sequence[GEDoc]) -> list[StandoffDocument]:
        """Predicted standoff documents (proteins, triggers, events); documents without
        proteins get no events (and are not run through the model)."""
        todo = [(g, self._capped(g)) for g in gedocs if g.standoff.proteins and g.parsed.sentences]
        found = self.model.predict([c for _, c in todo]) if todo else []
        preds = {id(g): p for (g, _), p in zip(todo, found, strict=True)}
        return [preds.get(id(g), g.standoff) for g in gedocs]

    #: per-sentence cap on the event model's work (``None``: none): a sentence of more
    #: tokens is not run through it (no events there), counted in ``skipped["sentences"]``.
    #: ``relx extract`` sets it.
    max_sentence_tokens: int | None = None
    #: the parts of a paper read (set by __init__; this default for extractors built without it)
    sections: frozenset[str] = DEFAULT_SECTIONS

    def _capped(self, g: GEDoc) -> GEDoc:
        """``g`` without its sentences over the token cap."""
        skipped = self.skipped
        cap = self.max_sentence_tokens
        keep = [s for s in g.parsed.sentences if cap is None or len(s.tokens) <= cap]
        if len(keep) == len(g.parsed.sentences):
            return g
        skipped["sentences"] += len(g.parsed.sentences) - len(keep)
        return GEDoc(g.standoff, g.parsed.model_copy(update={"sentences": keep}))

    def _annotate(self, docs: list[Document]
                  ) -> Iterator[tuple[Document, list[ExtractedEvent], StandoffDocument]]:
        """Per document: the parsed document (proteins as entities with ``T`` ids), its
        extracted events and the predicted standoff document (:meth:`annotate` is the
        thread-safe entry). Only the ``sections`` of a paper are read; the documents come
        back with the whole text."""
        originals: deque[str | None] = deque()
        for chunk in batches(select_stream(docs, self.sections, originals), self.batch_docs):
            clock = DocumentClock(self.max_doc_seconds)
            clock.start(chunk)
            gedocs = self.ge_documents(chunk)
            preds = self.predict(gedocs)
            clock.check(chunk, max(chunk, key=lambda d: len(d.text)).id, "events")
            for g, pred in zip(gedocs, preds, strict=True):
                parsed = self._ground(g.parsed)
                found = events_out(pred, parsed, self.name, self.version)
                text = originals.popleft()
                yield restore_text(parsed, text), found, restore_text(pred, text)


#: the event extractor for a model (default: relx's shipped ``ge-events``), loaded and
#: warmed up (``warm_up=False``: load the parse pipeline at the first call instead)
load = EventExtractor.loaded


def write_standoff_triple(pred: StandoffDocument, folder: Path, stem: str) -> Path:
    """``<stem>.txt``, ``.a1`` and ``.a2`` (each atomically); returns the ``.a2`` path."""
    return write_standoff(pred, folder, stem).with_suffix(".a2")
