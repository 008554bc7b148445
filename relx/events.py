"""Bio-event data model: BioNLP Shared Task (GE) standoff annotation of one document.

Offsets follow :mod:`relx.doc`: character offsets into ``StandoffDocument.text``,
end-exclusive. One :class:`StandoffDocument` holds what the ``.txt``/``.a1``/``.a2`` triple
of one document says:

* ``proteins``: the given ``T`` lines of the ``.a1`` file;
* ``triggers``: every ``T`` line of the ``.a2`` file -- event triggers and also the non-event
  terms (``Entity`` sites/locations, 2013 ``Anaphora``); see :attr:`StandoffDocument.entities`;
* ``events`` (``E``), ``modifications`` (``M``: Negation/Speculation), ``equivs`` (``*``) and
  ``relations`` (``R``, e.g. the 2013 ``Coreference`` lines).

Lists are kept in a canonical order (by id prefix and number; equivs as given) whatever the
order of construction, so that two documents with the same annotations compare equal.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, model_validator

from relx.doc import Document, Entity, Sentence, Span, Spanned

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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


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
