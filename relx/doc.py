"""The one data model shared by every relx stage: documents, sentences, tokens, entities and
relations, and the bio-event (BioNLP-ST standoff) annotation of a document.

All character offsets are into ``Document.text`` and end-exclusive (``text[start:end]``).
Readers convert foreign conventions (e.g. the PPI format's inclusive ends) on the way in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


M = TypeVar("M", bound=BaseModel)
_setattr = object.__setattr__


def _trusted(cls: type[M], values: dict) -> M:
    """An instance of ``cls`` from ``values`` that are valid and name every field, without
    validation (``model_construct`` at a third of its cost)."""
    m = cls.__new__(cls)
    _setattr(m, "__dict__", values)
    _setattr(m, "__pydantic_fields_set__", set(values))
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m


class Span(_Model):
    """A half-open character span ``[start, end)`` into the document text."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} before start {self.start}")
        return self

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end


class Token(_Model):
    """One token of a sentence; ``index`` is its 0-based position in the sentence."""

    index: int
    text: str
    start: int
    end: int
    pos: str | None = None
    lemma: str | None = None

    @classmethod
    def trusted(cls, index: int, text: str, start: int, end: int, pos: str | None,
                lemma: str | None) -> Token:
        """A Token from values known to be valid (the parser's ~25 per sentence), unvalidated."""
        return _trusted(cls, {"index": index, "text": text, "start": start, "end": end,
                              "pos": pos, "lemma": lemma})


class Dependency(_Model):
    """A typed dependency edge ``head -> dependent`` between token indices of one sentence."""

    head: int
    dependent: int
    label: str

    @classmethod
    def trusted(cls, head: int, dependent: int, label: str) -> Dependency:
        """A Dependency from values known to be valid, unvalidated."""
        return _trusted(cls, {"head": head, "dependent": dependent, "label": label})


class Spanned(_Model):
    """Base of annotations with one or more character spans (``spans``)."""

    spans: list[Span]

    @property
    def start(self) -> int:
        return min(s.start for s in self.spans)

    @property
    def end(self) -> int:
        return max(s.end for s in self.spans)


class Entity(Spanned):
    """A named entity (protein/gene mention); several spans for discontinuous mentions.

    ``norm_ids``: normalised ids, the best first, then ranked alternatives (for a
    coordinated mention such as ``IL-2/4`` grounded by :mod:`relx.genes.document`: each
    member's id in text order). Set by species-aware grounding (None otherwise, and then
    left out of JSON output): ``taxon`` the mention's species (``NCBITaxon:10090``),
    ``norm_confidence`` the confidence in [0, 1] of the first id, ``grounded`` False when
    no lexicon knows the mention (then ``norm_ids`` is empty), ``ncbi_ids`` the
    ``NCBIGene:n`` ids of the genes in ``norm_ids``, in ``norm_ids``' order, best first
    (human and mouse genes; rat genes, families and chemicals have none; None when relx did
    not ground the entity, and then left out of JSON like the other optional fields),
    ``norm_span`` the part of the mention that was grounded, when not all of it (``FGFR3``
    of ``FGFR3 G380R mutation``), ``norm_reason`` why a gene mention relx grounded has no
    id (:data:`relx.genes.no_id.REASONS`: ``no_lexicon``, ``below_threshold``...).
    """

    id: str
    spans: list[Span]
    type: str = "Protein"
    text: str = ""
    norm_ids: list[str] = Field(default_factory=list)
    taxon: str | None = None
    norm_confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    grounded: bool | None = None
    ncbi_ids: list[str] | None = None
    norm_span: Span | None = None
    norm_reason: str | None = None


class Relation(_Model):
    """A (candidate) binary relation between two entities of a sentence.

    ``label`` is the gold answer when known (True = interaction), ``score`` a model's
    probability when predicted. ``silver`` is True when the label was derived from other
    annotation (e.g. GE events, :mod:`relx.ge.ppi_pairs`) instead of annotated as a PPI.
    ``negated`` / ``speculated``: the text states the relation as not happening / as a
    hypothesis (None: not assessed); every output format carries them. ``type`` is
    ``PPI`` for an untyped interaction, else what events say it is (``Complex``,
    ``Phosphorylation``, ``Activation``...; :mod:`relx.ge.interactions`), with its
    ``direction`` (``entity1->entity2`` or ``entity2->entity1``: arg1 acts on arg2 or the
    reverse; None: undirected) and ``event_score`` (the supporting event's score);
    ``type_source``: ``events``, or ``pair`` when relx's pair typer set them
    (:mod:`relx.ppi.pair_typer`; ``event_score`` is then its class probability).
    """

    id: str
    arg1: str
    arg2: str
    type: str = "PPI"
    label: bool | None = None
    score: float | None = None
    silver: bool | None = None
    negated: bool | None = None
    speculated: bool | None = None
    direction: str | None = None
    event_score: float | None = None
    type_source: str | None = None


#: the section types of a paper (BioC's ``section_type`` names; ``AUTH_AFF`` also covers
#: author contributions, ``ACK_FUND`` acknowledgements and funding statements)
SECTION_TYPES = ("TITLE", "ABSTRACT", "INTRO", "METHODS", "RESULTS", "DISCUSS", "CONCL", "FIG",
                 "TABLE", "REF", "ACK_FUND", "AUTH_AFF", "COMP_INT", "SUPPL", "FOOTNOTE", "OTHER")


# The fields added for papers are left out of a serialised document that does not use them:
# empty lists and dicts by ``exclude_if``, None sentence fields by ``exclude_none`` (which
# relx's JSONL writer uses), so such documents serialise exactly as before the fields existed.
def _is_empty(v: object) -> bool:
    return not v


class Section(_Model):
    """A span ``[start, end)`` of the document text that belongs to one part of a paper.

    ``type`` is one of :data:`SECTION_TYPES`; ``heading`` the heading as printed (None for
    parts without one, e.g. a caption); ``level`` the nesting depth (0: top) and ``parent``
    the index in ``Document.sections`` of the enclosing section (None at the top). A section
    covers its subsections; the type of a character is that of the innermost section
    holding it (:func:`relx.io.papers.section_at`).
    """

    type: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    heading: str | None = None
    level: int = 0
    parent: int | None = None

    @field_validator("type")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in SECTION_TYPES:
            raise ValueError(f"unknown section type {v!r}; one of {SECTION_TYPES}")
        return v


class LineBox(_Model):
    """Where the characters ``[start, end)`` of the text (one printed line, or part of one)
    are on the page: ``page`` from 1, ``box`` ``[x0, y0, x1, y1]`` in PDF points with the
    origin at the page's top-left corner (y grows downwards)."""

    page: int
    start: int
    end: int
    box: list[float]


class Sentence(_Model):
    """A sentence with its tokenisation, dependency parse, entities and candidate relations.

    Sentences of papers may say where they are: ``section`` (a :data:`SECTION_TYPES`
    name) and ``section_heading``; ``page`` (from 1, the page of its first character) and
    ``boxes``, each ``[page, x0, y0, x1, y1]`` (see :class:`LineBox`; the page is in each
    box since a sentence may cross a column or page break). All None when unknown, and
    then left out of the serialised sentence.
    """

    id: str
    start: int
    end: int
    text: str
    tokens: list[Token] = Field(default_factory=list)
    dependencies: list[Dependency] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    parse_source: str | None = None
    section: str | None = None
    section_heading: str | None = None
    page: int | None = None
    boxes: list[list[float]] | None = None

    def entity(self, entity_id: str) -> Entity:
        for e in self.entities:
            if e.id == entity_id:
                return e
        raise KeyError(f"sentence {self.id}: no entity {entity_id!r}")


class Abbreviation(_Model):
    """A short form defined in the text, e.g. ``IL-2`` for ``interleukin-2``."""

    short: Span
    long: Span
    short_text: str
    long_text: str


class SpeciesMention(_Model):
    """An organism named in the text (``mice``, ``HeLa``): ``taxon`` its ``NCBITaxon`` id,
    ``kind`` as :class:`relx.genes.species.SpeciesHit` gives it (``name``, ``cell_line``,
    ``xenograft``, ``reagent``, ``host``, ``technique``, ``virus``)."""

    start: int
    end: int
    text: str
    taxon: str
    kind: str = "name"


class Document(_Model):
    """A document (abstract, paper) as a list of sentences over one text.

    ``species``: the organisms named in it (set by species-aware grounding, else None).
    Papers keep their structure: ``sections`` (:class:`Section` spans of the text),
    ``layout`` (for PDFs: where each printed line of the text is, :class:`LineBox`; see
    :func:`relx.io.papers.boxes_for`) and ``meta`` (other identifiers -- ``pmid``,
    ``pmcid``, ``doi`` -- and reading notes such as ``truncated``). Empty ones are left
    out of the serialised document.
    """

    id: str
    text: str
    sentences: list[Sentence] = Field(default_factory=list)
    source: str | None = None
    orig_id: str | None = None
    abbreviations: list[Abbreviation] = Field(default_factory=list)
    species: list[SpeciesMention] | None = None
    sections: list[Section] = Field(default_factory=list, exclude_if=_is_empty)
    layout: list[LineBox] = Field(default_factory=list, exclude_if=_is_empty)
    meta: dict[str, str] = Field(default_factory=dict, exclude_if=_is_empty)

    def relations(self) -> Iterator[tuple[Sentence, Relation]]:
        for s in self.sentences:
            for r in s.relations:
                yield s, r


class Candidate(_Model):
    """A pair of entities of one sentence to be classified; the unit the kernels see."""

    document_id: str
    sentence_id: str
    relation_id: str
    arg1: str
    arg2: str
    label: bool | None = None


# --- bio-event (BioNLP-ST GE standoff) annotation ----------------------------------------
# BioNLP Shared Task (GE) standoff annotation of one document. Offsets as above: into
# ``StandoffDocument.text``, end-exclusive. One :class:`StandoffDocument` holds what the
# ``.txt``/``.a1``/``.a2`` triple
# of one document says:
#
# * ``proteins``: the given ``T`` lines of the ``.a1`` file;
# * ``triggers``: every ``T`` line of the ``.a2`` file -- event triggers and also the non-event
#   terms (``Entity`` sites/locations, 2013 ``Anaphora``); see :attr:`StandoffDocument.entities`;
# * ``events`` (``E``), ``modifications`` (``M``: Negation/Speculation), ``equivs`` (``*``) and
#   ``relations`` (``R``, e.g. the 2013 ``Coreference`` lines).
#
# Lists are kept in a canonical order (by id prefix and number; equivs as given) whatever the
# order of construction, so that two documents with the same annotations compare equal.

#: the nine GE event types of BioNLP-ST 2009/2011
GE_EVENT_TYPES = (
    "Gene_expression", "Transcription", "Protein_catabolism", "Phosphorylation",
    "Localization", "Binding", "Regulation", "Positive_regulation", "Negative_regulation",
)
#: event types with Theme (and possibly Cause) arguments that are events themselves
REGULATION_TYPES = frozenset({"Regulation", "Positive_regulation", "Negative_regulation"})
#: ``.a2`` text-bound types that are not event triggers
NON_EVENT_TERM_TYPES = frozenset({"Entity", "Anaphora"})
MODIFICATION_TYPES = ("Negation", "Speculation")

_ID = re.compile(r"^(\D*)(\d*)(.*)$")


def id_key(ann_id: str) -> tuple[str, int, str]:
    """Sort key of an annotation id: prefix, number, rest (``T2`` < ``T10``)."""
    m = _ID.match(ann_id)
    assert m is not None
    prefix, num, rest = m.groups()
    return prefix, int(num) if num else -1, rest


def base_role(role: str) -> str:
    """An argument role without its trailing number: ``Theme2`` -> ``Theme``."""
    return role.rstrip("0123456789")


class TextBound(Spanned):
    """A ``T`` line: typed text span(s) -- a protein, an event trigger or an entity term."""

    id: str
    type: str
    spans: list[Span]
    text: str = ""


class Event(_Model):
    """An ``E`` line: ``type`` anchored at text-bound ``trigger``, with (role, ref id) pairs."""

    id: str
    type: str
    trigger: str
    arguments: list[tuple[str, str]] = Field(default_factory=list)
    #: the weakest decision behind it: the lowest probability of its argument edges, nested
    #: events' scores included (None: not predicted, e.g. gold annotation)
    score: float | None = None

    def refs(self, role: str | None = None) -> list[str]:
        """Referenced ids, optionally only for one base role (``Theme`` covers ``Theme2``)."""
        return [ref for r, ref in self.arguments if role is None or base_role(r) == role]


class Modification(_Model):
    """An ``M`` line: ``Negation`` or ``Speculation`` of one event."""

    id: str
    type: str
    event: str


class Equiv(_Model):
    """A ``*`` line: text-bound annotations (proteins) that denote the same thing."""

    ids: list[str]
    type: str = "Equiv"


class StandoffRelation(_Model):
    """An ``R`` line: a typed relation with (role, ref id) arguments (2013 ``Coreference``)."""

    id: str
    type: str
    arguments: list[tuple[str, str]] = Field(default_factory=list)


class StandoffDocument(_Model):
    """All standoff annotation of one document (see the module docstring)."""

    id: str
    text: str
    proteins: list[TextBound] = Field(default_factory=list)
    triggers: list[TextBound] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    modifications: list[Modification] = Field(default_factory=list)
    equivs: list[Equiv] = Field(default_factory=list)
    relations: list[StandoffRelation] = Field(default_factory=list)
    source: str | None = None

    @model_validator(mode="after")
    def _canonical_order(self) -> StandoffDocument:
        for name in ("proteins", "triggers", "events", "modifications", "relations"):
            getattr(self, name).sort(key=lambda a: id_key(a.id))
        return self

    @property
    def entities(self) -> list[TextBound]:
        """The ``.a2`` terms that are not event triggers (``Entity``, ``Anaphora``)."""
        return [t for t in self.triggers if t.type in NON_EVENT_TERM_TYPES]

    def textbounds(self) -> dict[str, TextBound]:
        """Proteins and ``.a2`` text-bounds by id."""
        return {t.id: t for t in [*self.proteins, *self.triggers]}

    def event_map(self) -> dict[str, Event]:
        return {e.id: e for e in self.events}

    def modifications_of(self) -> dict[str, list[str]]:
        """Event id -> its modification types (``Negation``, ``Speculation``), sorted."""
        out: dict[str, list[str]] = {}
        for m in self.modifications:
            out.setdefault(m.event, []).append(m.type)
        return {k: sorted(set(v)) for k, v in out.items()}

    def equiv_classes(self) -> dict[str, frozenset[str]]:
        """Each id named in an Equiv line -> all ids equivalent to it (transitively merged)."""
        classes: dict[str, set[str]] = {}
        for eq in self.equivs:
            merged = set(eq.ids)
            for i in eq.ids:
                merged |= classes.get(i, set())
            for i in merged:
                classes[i] = merged
        return {i: frozenset(c) for i, c in classes.items()}

    def to_document(self) -> Document:
        """A relx :class:`Document`; proteins become entities of one unsplit sentence ``{id}.s0``.

        relx keeps entities on sentences, so (as the PubTator/BioC readers do) annotated
        documents carry one whole-text sentence without tokens; the parse stage splits it.
        """
        doc = Document(id=self.id, text=self.text, source=self.source or "bionlp-st")
        if self.proteins:
            ents = [Entity(id=p.id, spans=list(p.spans), type=p.type, text=p.text)
                    for p in self.proteins]
            doc.sentences.append(Sentence(id=f"{self.id}.s0", start=0, end=len(self.text),
                                          text=self.text, entities=ents))
        return doc
