"""Relation extraction from text and documents: parse, tag and ground proteins, score pairs.

    import relx
    ex = relx.load(task="ppi")             # the shipped default model (ppi-default)
    for rel in ex.extract("STAT5 is phosphorylated by JAK1."):
        print(rel.entity1.text, rel.entity2.text, rel.score)
    for found in ex.pipe([("pmid-1", "JAK1 binds STAT5."), ("pmid-2", "...")]):
        ...                                # one list per document, in input order

``extract`` and ``pipe`` take text, a path, a Document, ``(id, text)`` pairs or an iterable
of these (:mod:`relx.api`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from relx.api import GIVEN_OBJECT, StreamingExtractor, is_none
from relx.doc import Abbreviation, Document, Entity, Relation, Sentence, Span
from relx.doc_limits import (
    DEFAULT_MAX_DOC_CHARS,
    DEFAULT_MAX_DOC_SECONDS,
    DocumentClock,
    batches,
)
from relx.errors import ConfigError
from relx.genes.same_gene import abbreviation_keys, same_gene
from relx.ids import is_protein_type
from relx.io.papers import DEFAULT_SECTIONS, restore_text, sections_option, select_stream
from relx.learn.hedging import hedging_flags, load_hedging
from relx.model_store import resolve_model as resolve
from relx.parse.pipeline import Parser
from relx.ppi.calibration import model_calibration
from relx.ppi.model import DEFAULT_MODEL, IN_DOMAIN, RELATION_MODEL, RelationModel, load_model
from relx.represent.instances import PairInstance
from relx.represent.pair_features import document_context_features


class ExtractedEntity(BaseModel):
    """One argument of an extracted relation; offsets are document offsets, end-exclusive.
    ``ncbi_ids``: the NCBI Gene ids of ``norm_ids`` (:attr:`relx.doc.Entity.ncbi_ids`; left
    out of the JSON when None: not grounded by relx); ``norm_span``: the part of the
    mention that was grounded when not all of it (:attr:`relx.doc.Entity.norm_span`)."""

    id: str
    text: str
    start: int
    end: int
    type: str = "Protein"
    norm_ids: list[str] = []
    taxon: str | None = None               # NCBITaxon id of the gene's species
    norm_confidence: float | None = None   # of norm_ids[0], in [0, 1]
    grounded: bool | None = None           # False: in no lexicon (norm_ids empty)
    ncbi_ids: list[str] | None = Field(default=None, exclude_if=is_none)
    norm_span: Span | None = Field(default=None, exclude_if=is_none)   # the part grounded


class ExtractedRelation(BaseModel):
    """One extracted interaction: where it was found, its two proteins and its score;
    ``negated`` / ``speculated``: the sentence states the interaction as not happening /
    as hypothetical (a cue-and-scope detector trained on GE events' Negation/Speculation,
    :mod:`relx.learn.hedging`; the score does not use them). ``probability``: the score
    calibrated on held-out training scores (``calibration.json`` beside the model; None
    without one); ``threshold``: the score cut-off that was applied. ``type``: what the
    events found on the same parse say the interaction is (``Complex``,
    ``Phosphorylation``, ``Activation``, ``Inhibition``, ``IncreaseAmount``,
    ``DecreaseAmount``, ``Regulation``...; ``Interaction`` when no event supports it or
    typing is off), ``direction``: ``entity1->entity2`` / ``entity2->entity1`` (who acts on
    whom: Cause -> Theme, enzyme -> substrate) or None (undirected), ``event_score``: the
    supporting event's score (:mod:`relx.ge.interactions`); ``type_source``: ``pair`` when
    relx's pair typer typed the pair from the scorer's features (``event_score`` is then
    its class probability, :mod:`relx.ppi.pair_typer`), ``events`` when the event model did
    (left out when untyped). ``same_gene``: with
    ``same_gene_pairs``, why the two mentions name one gene (then it is no interaction).
    From a paper: ``section`` (:data:`relx.doc.SECTION_TYPES`: ``RESULTS``, ``FIG``...)
    and ``section_heading`` of the sentence, and from a PDF its ``page`` and ``boxes``
    (``[page, x0, y0, x1, y1]`` per printed line, PDF points from the page's top-left
    corner); left out of the JSON when None (abstracts)."""

    document_id: str
    sentence_id: str
    sentence: str
    sentence_start: int
    sentence_end: int
    entity1: ExtractedEntity
    entity2: ExtractedEntity
    score: float
    model: str
    model_version: str
    negated: bool = False
    speculated: bool = False
    probability: float | None = None
    threshold: float | None = None
    type: str = "Interaction"
    direction: str | None = None
    event_score: float | None = None
    type_source: str | None = Field(default=None, exclude_if=is_none)
    same_gene: str | None = None
    section: str | None = Field(default=None, exclude_if=is_none)
    section_heading: str | None = Field(default=None, exclude_if=is_none)
    page: int | None = Field(default=None, exclude_if=is_none)
    boxes: list[list[float]] | None = Field(default=None, exclude_if=is_none)


class RelationTyper(Protocol):
    """Sets ``type`` / ``direction`` / ``event_score`` of the relations on parsed documents'
    sentences (in place), e.g. :class:`relx.ge.interactions.EventTyper`; ``instances``: the
    pairs the scorer has just scored for those documents, in its order (their features are
    computed; a typer may read them or not)."""

    name: str
    version: str

    def type_relations(self, docs: Iterable[Document],
                       instances: Sequence[PairInstance] | None = None) -> None: ...


def resolve_model(model: str | Path | RelationModel | None) -> RelationModel:
    """A loaded model from a model object, a directory or an installed model's name."""
    return resolve(model, RelationModel, DEFAULT_MODEL, RELATION_MODEL, load_model)


Bounds = tuple[tuple[int, int], tuple[int, int]]


def definition_pairs(abbreviations: Sequence[Abbreviation]) -> frozenset[Bounds]:
    """The (long form, short form) offsets of a document's abbreviations, both ways round:
    what :func:`candidate_pairs` leaves out (computed once per document)."""
    defs = {((a.long.start, a.long.end), (a.short.start, a.short.end)) for a in abbreviations}
    return frozenset(defs | {(y, x) for x, y in defs})


def candidate_pairs(sentence: Sentence, abbreviations: Sequence[Abbreviation] = (), *,
                    definitions: frozenset[Bounds] | None = None) -> list[Relation]:
    """Every unordered pair of non-overlapping protein mentions of a sentence, in text order,
    except a long form paired with its own abbreviation (``interleukin-2 (IL-2)``); mentions
    of other types (a PubTator input's ``Chemical``) are not paired
    (:func:`relx.ids.is_protein_type`). ``definitions``: :func:`definition_pairs` of the
    document's ``abbreviations``, when already computed."""
    defs = definition_pairs(abbreviations) if definitions is None else definitions
    ents = sorted((e for e in sentence.entities if is_protein_type(e.type)),
                  key=lambda e: (e.start, e.end))
    out = []
    for a, b in combinations(ents, 2):
        if any(x.overlaps(y) for x in a.spans for y in b.spans):
            continue
        if ((a.start, a.end), (b.start, b.end)) in defs:
            continue
        out.append(Relation(id=f"{sentence.id}.p{len(out)}", arg1=a.id, arg2=b.id))
    return out


def with_orthologs(ids: list[str], orthologs: str | None) -> list[str]:
    """``ids`` with their orthologs in species ``orthologs`` (e.g. ``"human"``) first and
    the species' own ids after them (``MGI:96552`` -> ``HGNC:6001``, ``MGI:96552``)."""
    if not orthologs or not ids:
        return ids
    from relx.genes.orthologs import map_ids

    return list(dict.fromkeys([*map_ids(ids, orthologs), *ids]))


def _entity_out(e: Entity, doc: Document, orthologs: str | None = None) -> ExtractedEntity:
    ids = with_orthologs(e.norm_ids, orthologs)
    ncbi = e.ncbi_ids
    if ncbi is not None and ids != e.norm_ids:   # the orthologs' NCBI Gene ids first
        from relx.genes.ncbi_gene import ncbi_ids

        ncbi = ncbi_ids(ids)
    return ExtractedEntity(id=e.id, text=e.text or doc.text[e.start:e.end], start=e.start,
                           end=e.end, type=e.type, norm_ids=ids, taxon=e.taxon,
                           norm_confidence=e.norm_confidence, grounded=e.grounded,
                           ncbi_ids=ncbi, norm_span=e.norm_span)


#: candidate pairs scored (and typed) together at most: a batch with more (a long document)
#: is scored in windows of whole sentences, its document-context features computed over
#: the whole batch first, so that memory stays bounded; a batch of 16 abstracts has ~400
SCORE_WINDOW = 5_000

#: documents parsed, grounded, scored and typed together: with 16 (not 64) abstracts at once
#: a gene relation worker's peak resident memory is ~90 MB lower (1,026 -> 936 MB over 300
#: GE abstracts) at the same CPU time per abstract
DEFAULT_BATCH_DOCS = 16


def _windows(docs: list[Document], size: int) -> Iterator[tuple[list[Document], int, int]]:
    """``(documents, first, end)``: the documents (copies holding a run of their sentences
    when a window ends inside one) whose candidate pairs (``Sentence.relations``) are the
    batch's pairs ``[first, end)``, at most ``size`` of them unless one sentence has more;
    all of ``docs`` in one window when they fit."""
    total = sum(len(s.relations) for d in docs for s in d.sentences)
    if total <= size:
        yield docs, 0, total
        return
    part: list[Document] = []
    sents: list[Sentence] = []
    lo = n = 0
    for d in docs:
        for s in d.sentences:
            k = len(s.relations)
            if n and n + k > size:
                if sents:
                    part.append(d.model_copy(update={"sentences": sents}))
                yield part, lo, lo + n
                part, sents, lo, n = [], [], lo + n, 0
            sents.append(s)
            n += k
        if sents:
            part.append(d.model_copy(update={"sentences": sents}))
            sents = []
    if part:
        yield part, lo, lo + n


class Extractor(StreamingExtractor):
    """Sentences + proteins (given, or NER) -> parse of the sentences with two or more
    mentions -> grounding -> candidate pairs -> model scores.

    ``threshold``: report pairs scoring above it (default: the model's own threshold, for
    new text); ``"in-domain"``: the model's scores and threshold for text like its training
    corpus (``RelationModel.scores(..., in_domain=True)``, ``in_domain_threshold``).
    ``ground``: fill each entity's ``norm_ids`` with HGNC/FamPlex candidates (after the
    input's own ids, e.g. PubTator/BioC gene ids, which stay first). ``threads``: thread
    limit while extracting (:func:`relx.api.limited_threads`; ``None``: no limit).
    ``warm_up``: load the parse pipeline and lexicon and run one sentence through every
    stage now, so that the first call is as fast as the next ones (:func:`load` does).
    ``typer``: types and directs the reported pairs on the same parse (``relx.load(task="ppi")``
    passes a :class:`relx.ppi.pair_typer.HybridTyper`: the pair typer where it is sure, an
    event model's :class:`relx.ge.interactions.EventTyper` elsewhere; None: every pair is
    an undirected ``Interaction``). ``mentions``: which protein mentions a document gets
    (``auto``: its own when it brings some, else the tagger's; ``input``, ``relx``,
    ``both``; see :class:`relx.parse.pipeline.Parser`). ``max_doc_chars`` /
    ``max_doc_seconds``: per-document limits (default 2,000,000 characters and 300 s; None:
    no limit), over which a document raises :class:`relx.doc_limits.DocumentTooLong` /
    :class:`~relx.doc_limits.DocumentTimeout` (:mod:`relx.doc_limits`). Thread-safe:
    threads may share one extractor (:mod:`relx.api`). A pair of two names of one gene
    (synonyms, an abbreviation and its long form, a family and its member:
    :func:`relx.genes.same_gene.same_gene`) is not reported; ``same_gene_pairs=True`` reports
    it too, flagged with the reason in ``same_gene``. ``orthologs="human"``: each
    entity's ids start with its human orthologs (a mouse or rat gene's own ids follow), so
    networks and INDRA Statements use human ids; ``taxon`` still says whose gene it is.
    ``sections``: the parts of a paper read (:func:`relx.io.papers.sections_option`: None
    for title, abstract, body, captions and footnotes -- references, acknowledgements and
    funding, authors and affiliations and competing interests left out; ``"all"``;
    ``"title,abstract,results"``); documents without sections are read whole.
    """

    #: reported pairs of two names of one gene too (flagged); ids with human orthologs first
    same_gene_pairs: bool = False
    sections: frozenset[str] = DEFAULT_SECTIONS
    orthologs: str | None = None

    #: one sentence with two proteins: every stage runs once while warming up
    WARM_UP_TEXT = "JAK1 phosphorylates STAT5, and SOCS3 does not bind JAK2."

    def __init__(self, model: str | Path | RelationModel | None = None, *,
                 spacy_model: str | Path | None = None, threshold: float | str | None = None,
                 ground: bool = True, batch_docs: int = DEFAULT_BATCH_DOCS,
                 threads: int | None = 1,
                 typer: RelationTyper | None = None, warm_up: bool = False,
                 max_doc_chars: int | None = DEFAULT_MAX_DOC_CHARS,
                 max_doc_seconds: float | None = DEFAULT_MAX_DOC_SECONDS,
                 mentions: str = "auto", same_gene_pairs: bool = False,
                 orthologs: str | None = None,
                 sections: str | Collection[str] | None = None) -> None:
        self.sections = sections_option(sections)
        self._options = {"spacy_model": spacy_model, "threshold": threshold, "ground": ground,
                         "batch_docs": batch_docs, "threads": threads, "typer": typer,
                         "max_doc_chars": max_doc_chars, "max_doc_seconds": max_doc_seconds,
                         "mentions": mentions, "same_gene_pairs": same_gene_pairs,
                         "orthologs": orthologs, "sections": sections}
        self.same_gene_pairs = same_gene_pairs
        self.orthologs = orthologs
        self.max_doc_chars = max_doc_chars
        self.max_doc_seconds = max_doc_seconds
        self.typer = typer
        self._model_ref = GIVEN_OBJECT if isinstance(model, RelationModel) else model
        self.threads = threads
        self.model = resolve_model(model).sequential()
        self.parser = Parser(spacy_model, mentions=mentions)
        self.in_domain = threshold == IN_DOMAIN
        if threshold is None:
            self.threshold = self.model.threshold
        elif self.in_domain:
            self.threshold = self.model.in_domain_threshold
        else:
            self.threshold = float(threshold)
        self.hedging = load_hedging()   # None: the path-only negation flag
        self.calibration = model_calibration(model, self.in_domain)
        self.ground = ground
        self.batch_docs = batch_docs
        if warm_up:
            self.warm_up()

    @property
    def mentions(self) -> str:
        """Which protein mentions a document gets (see :class:`Extractor`); settable."""
        return self.parser.mentions

    @mentions.setter
    def mentions(self, mode: str) -> None:
        from relx.parse.pipeline import MENTION_MODES

        if mode not in MENTION_MODES:
            raise ConfigError(f"mentions must be one of {MENTION_MODES}, not {mode!r}")
        self.parser.mentions = mode

    #: per-sentence caps on scoring work (``None``: none): a sentence of more tokens is
    #: not scored, and of more candidate pairs only the closest this many are; what they
    #: skip is counted in ``skipped`` (``sentences``, ``pairs``). ``relx extract`` sets them.
    max_sentence_tokens: int | None = None
    max_sentence_pairs: int | None = None

    def _capped(self, s: Sentence, definitions: frozenset[Bounds]) -> list[Relation]:
        """The candidate pairs of ``s`` within the per-sentence caps (counting what is
        skipped; a sentence over the token cap counts its mention pairs, which are never
        enumerated)."""
        skipped = self.skipped
        n = len(s.entities)
        if self.max_sentence_tokens is not None and len(s.tokens) > self.max_sentence_tokens \
                and n > 1:
            skipped["sentences"] += 1
            skipped["pairs"] += n * (n - 1) // 2
            return []
        pairs = candidate_pairs(s, definitions=definitions)
        cap = self.max_sentence_pairs
        if cap is None or len(pairs) <= cap:
            return pairs
        ents = {e.id: e for e in s.entities}
        gap = {r.id: abs(ents[r.arg2].start - ents[r.arg1].end) for r in pairs}
        keep = {r.id for r in sorted(pairs, key=lambda r: gap[r.id])[:cap]}
        skipped["pairs"] += len(pairs) - cap
        return [r for r in pairs if r.id in keep]

    def _annotate(self, docs: list[Document]
                  ) -> Iterator[tuple[Document, list[ExtractedRelation], int]]:
        """Per document: the parsed document with its *reported* relations on its sentences,
        the extracted relations, and the number of candidate pairs scored
        (:meth:`annotate` is the thread-safe entry). Only the ``sections`` of a paper are
        parsed and scored; the document comes back with its whole text."""
        originals: deque[str | None] = deque()
        docs = list(select_stream(docs, self.sections, originals))
        clock = DocumentClock(self.max_doc_seconds)
        clock.start(docs)
        parsed = self.parser.parse_documents(docs, min_entities=2,   # pairs need two mentions
                                             max_seconds=self.max_doc_seconds)
        for chunk in batches(parsed, self.batch_docs):
            chunk = [self._ground(d) for d in chunk]
            inst: list[PairInstance] = []
            for d in chunk:
                defs = definition_pairs(d.abbreviations)
                for s in d.sentences:
                    s.relations = self._capped(s, defs)
                    inst += [PairInstance(d.id, s, r) for r in s.relations]
            if len(inst) > SCORE_WINDOW:   # scored in windows: the documents' context first
                inst = [replace(x, context=c)
                        for x, c in zip(inst, document_context_features(inst), strict=True)]
            n_scored = [sum(len(s.relations) for s in d.sentences) for d in chunk]
            prob: dict[Any, Any] = {}      # relation -> probability; ("same", r) -> reason
            keys = {id(d.abbreviations): abbreviation_keys(d) for d in chunk}
            for part, lo, hi in _windows(chunk, SCORE_WINDOW):
                self._score(part, inst[lo:hi], prob, keys)
                self._check_time(clock, docs, chunk, "pair scoring")
                if self.typer is not None:
                    self.typer.type_relations(part, inst[lo:hi])
                    self._check_time(clock, docs, chunk, "typing")
            for d, n in zip(chunk, n_scored, strict=True):
                d = restore_text(d, originals.popleft())
                yield d, [self._record(d, s, r, prob[id(r)], prob[("same", id(r))])
                          for s in d.sentences for r in s.relations], n

    def _score(self, docs: list[Document], inst: list[PairInstance],
               prob: dict[Any, Any], keys: dict[int, frozenset[frozenset[str]]]) -> None:
        """Score ``inst`` (the candidate pairs of ``docs``' sentences, in order); keep on
        each sentence the pairs over the threshold, with their negation/speculation flags,
        and their calibrated probabilities in ``prob`` (by relation object); a pair of two
        names of one gene is dropped unless ``same_gene_pairs`` (its reason in ``prob``;
        ``keys``: each document's :func:`relx.genes.same_gene.abbreviation_keys`, by the id of
        its abbreviation list, which a window's copy of the document shares)."""
        # a pair that cannot pass the threshold is not reported, nor is its score
        raw = (self.model.scores(inst, in_domain=True) if self.in_domain
               else self.model.scores_above(inst, self.threshold))
        scores = iter(raw.tolist())
        probs = iter(self.calibration(raw).tolist() if self.calibration else [None] * len(raw))
        for d in docs:
            for s in d.sentences:
                kept = []
                for r in s.relations:
                    r.score, prob[id(r)] = next(scores), next(probs)
                    if r.score > self.threshold:
                        same = same_gene(s.entity(r.arg1), s.entity(r.arg2), d,
                                         abbreviations=keys[id(d.abbreviations)])
                        if same is not None and not self.same_gene_pairs:
                            continue        # two names of one gene: no interaction
                        prob[("same", id(r))] = same
                        r.label = True
                        r.negated, r.speculated = hedging_flags(     # all outputs
                            PairInstance(d.id, s, r), self.hedging)
                        kept.append(r)
                s.relations = kept

    @staticmethod
    def _check_time(clock: DocumentClock, batch: list[Document], chunk: list[Document],
                    stage: str) -> None:
        """:class:`DocumentTimeout` once ``batch`` (the documents of this call) has taken
        longer than ``max_doc_seconds``, naming its longest document (the whole document
        when the batch is one, as a batch runner's retry makes it)."""
        longest = max(chunk, key=lambda d: len(d.text))
        clock.check(batch, longest.id, stage)

    def _record(self, d: Document, s: Sentence, r: Relation, p: float | None,
                same: str | None = None) -> ExtractedRelation:
        return ExtractedRelation(
            document_id=d.id, sentence_id=s.id, sentence=s.text, sentence_start=s.start,
            sentence_end=s.end, entity1=_entity_out(s.entity(r.arg1), d, self.orthologs),
            entity2=_entity_out(s.entity(r.arg2), d, self.orthologs), score=round(r.score, 4),
            model=self.model.name, model_version=self.model.version, negated=r.negated,
            speculated=r.speculated, probability=None if p is None else round(p, 4),
            threshold=round(self.threshold, 4),
            type="Interaction" if r.type == "PPI" else r.type, direction=r.direction,
            event_score=r.event_score, type_source=r.type_source, same_gene=same, section=s.section,
            section_heading=s.section_heading, page=s.page, boxes=s.boxes)


#: the extractor for a model (default: relx's shipped PPI model), loaded and warmed up
#: (``warm_up=False``: load the parse pipeline at the first call instead)
load = Extractor.loaded
