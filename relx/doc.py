"""The one data model shared by every relx stage.

All character offsets are into ``Document.text`` and end-exclusive (``text[start:end]``).
Readers convert foreign conventions (e.g. the PPI format's inclusive ends) on the way in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator


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
    """A named entity (protein/gene mention); several spans for discontinuous mentions."""

    id: str
    spans: list[Span]
    type: str = "Protein"
    text: str = ""
    norm_ids: list[str] = Field(default_factory=list)


class Relation(_Model):
    """A (candidate) binary relation between two entities of a sentence.

    ``label`` is the gold answer when known (True = interaction), ``score`` a model's
    probability when predicted. ``silver`` is True when the label was derived from other
    annotation (e.g. GE events, :mod:`relx.ge.ppi_pairs`) instead of annotated as a PPI.
    """

    id: str
    arg1: str
    arg2: str
    type: str = "PPI"
    label: bool | None = None
    score: float | None = None
    silver: bool | None = None


class Sentence(_Model):
    """A sentence with its tokenisation, dependency parse, entities and candidate relations."""

    id: str
    start: int
    end: int
    text: str
    tokens: list[Token] = Field(default_factory=list)
    dependencies: list[Dependency] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    parse_source: str | None = None

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


class Document(_Model):
    """A document (abstract, paper) as a list of sentences over one text."""

    id: str
    text: str
    sentences: list[Sentence] = Field(default_factory=list)
    source: str | None = None
    orig_id: str | None = None
    abbreviations: list[Abbreviation] = Field(default_factory=list)

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
