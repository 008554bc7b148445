"""The structure of papers, shared by the full-text readers (JATS, PDF, BioC, PubMed).

- :func:`section_type`: a heading (``"2. Materials and Methods"``) or a JATS/BioC type
  (``sec-type="methods"``, ``section_type=METHODS``) as one of :data:`relx.doc.SECTION_TYPES`;
- :func:`clean_text`: the safe part of NFKC (ligatures, full-width forms, odd spaces) and
  collapsed whitespace, the same for every reader, so PDF and XML texts compare;
- :class:`TextBuilder`: a document's text built paragraph by paragraph with its sections
  (and, for PDFs, its line boxes), so every offset is known as the text grows;
- :func:`section_at`, :func:`boxes_for`, :func:`locate_sentences`: what a span of the text
  is (section, heading, page, boxes);
- :func:`select_sections` / :func:`kept_spans`: the parts to analyse (``--sections``),
  the others blanked so every offset stays valid.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import deque
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from relx.doc import SECTION_TYPES, Document, LineBox, Section, Sentence

_D = TypeVar("_D", bound=BaseModel)

# ------------------------------------------------------------------ section types

#: ``--sections`` group names and the section types they stand for
SECTION_GROUPS: dict[str, tuple[str, ...]] = {
    "title": ("TITLE",),
    "abstract": ("ABSTRACT",),
    "body": ("INTRO", "METHODS", "RESULTS", "DISCUSS", "CONCL", "OTHER"),
    "captions": ("FIG", "TABLE", "SUPPL"),
    "footnotes": ("FOOTNOTE",),
    "refs": ("REF",),
    "back": ("ACK_FUND", "AUTH_AFF", "COMP_INT"),
    "all": SECTION_TYPES,
}
#: what is analysed unless told otherwise: all but references, acknowledgements and funding,
#: authors and affiliations, competing interests
DEFAULT_SECTIONS = frozenset(SECTION_TYPES) - {"REF", "ACK_FUND", "AUTH_AFF", "COMP_INT"}

# heading words -> type; tried in order on the lower-cased heading, numbering removed
_HEADINGS: tuple[tuple[str, str], ...] = (
    (r"^(abstract|summary|synopsis|author summary)\b", "ABSTRACT"),
    (r"^(introduction|background)\b", "INTRO"),
    (r"\b(competing|conflicts?|declarations?) of interests?\b|^competing interests?|"
     r"^(conflicts?|declaration) of interest|^disclosures?$|^duality of interest", "COMP_INT"),
    (r"^(acknowledge?ments?|funding|financial (support|disclosure)|grant support)\b",
     "ACK_FUND"),
    (r"^(authors?['’]?\s*contributions?|contributors|authors?['’]? (information|details)|"
     r"affiliations?)\b", "AUTH_AFF"),
    (r"^(references?|bibliography|literature cited|works cited|cited literature)\b", "REF"),
    (r"^(supplementary|supporting information|additional (files?|information)|"
     r"electronic supplementary|appendix|appendices)\b", "SUPPL"),
    (r"^(materials?|methods?|methodology|experimental procedures?|study design|"
     r"experimental (section|design|methods?)|online methods|star\W+methods)\b|"
     r"\band methods\b|^experimental$", "METHODS"),
    (r"^results? and discussion\b", "RESULTS"),
    (r"^(results?|findings)\b|\band results\b", "RESULTS"),
    (r"^(discussion|comments?)\b", "DISCUSS"),
    (r"^(conclusions?|concluding remarks|summary and conclusions?|perspectives?)\b", "CONCL"),
    (r"^(figures?|figure legends?|tables?)$", "FIG"),
    (r"^(footnotes?|notes?|abbreviations?)$", "FOOTNOTE"),
)
_HEADING_RES = tuple((re.compile(p), t) for p, t in _HEADINGS)
_NUMBERING = re.compile(r"^\s*(?:[0-9]+(?:\.[0-9]+)*\.?|[IVXivx]+\.|[A-Z]\.)\s+")

# JATS sec-type / BioC section_type and type infons -> type
_TYPE_NAMES = {
    "intro": "INTRO", "introduction": "INTRO", "background": "INTRO",
    "methods": "METHODS", "materials": "METHODS", "materials|methods": "METHODS",
    "materials and methods": "METHODS", "subjects": "METHODS", "cases": "RESULTS",
    "results": "RESULTS", "results|discussion": "RESULTS", "discussion": "DISCUSS",
    "discuss": "DISCUSS", "conclusions": "CONCL", "conclusion": "CONCL", "concl": "CONCL",
    "supplementary-material": "SUPPL", "suppl": "SUPPL", "display-objects": "FIG",
    "coi-statement": "COMP_INT", "comp_int": "COMP_INT", "conflict": "COMP_INT",
    "ack_fund": "ACK_FUND", "funding-information": "ACK_FUND", "acknowledgments": "ACK_FUND",
    "auth_cont": "AUTH_AFF", "auth_aff": "AUTH_AFF", "author-contributions": "AUTH_AFF",
    "appendix": "SUPPL", "title": "TITLE", "front": "TITLE", "abstract": "ABSTRACT",
    "ref": "REF", "fig": "FIG", "fig_caption": "FIG", "fig_title_caption": "FIG",
    "table": "TABLE", "table_caption": "TABLE", "table_title_caption": "TABLE",
    "table_footnote": "TABLE", "footnote": "FOOTNOTE", "footnote_title": "FOOTNOTE",
    "abbr": "OTHER", "keyword": "OTHER", "review_info": "OTHER", "case": "RESULTS",
    "other": "OTHER",
}


def section_type(heading: str | None = None, declared: str | None = None) -> str | None:
    """The section type of a heading and/or a declared type (JATS ``sec-type``, BioC
    ``section_type``/``type``); None when neither says (the caller keeps the enclosing
    section's type)."""
    if declared:
        d = declared.strip().lower()
        if d.upper() in SECTION_TYPES:
            return d.upper()
        if d in _TYPE_NAMES:
            return _TYPE_NAMES[d]
        first = d.split("|")[0].split()[0] if d.split() else ""
        if first in _TYPE_NAMES:
            return _TYPE_NAMES[first]
    if heading:
        h = _NUMBERING.sub("", " ".join(heading.split())).strip(" .:").lower()
        for rx, typ in _HEADING_RES:
            if rx.search(h):
                return typ
    return None


# ------------------------------------------------------------------ text

# the compatibility characters that are safe to fold (NFKC) in running text: ligatures,
# full-width ASCII, odd spaces; not superscripts, fractions, the micro sign or Greek
_FOLD = re.compile("[\ufb00-\ufb4f\uff01-\uff5e\u2000-\u200a\u202f\u205f\u3000\u00a0]")
_DROP = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """``text`` with ligatures, full-width forms and odd spaces folded (NFKC on those
    only), soft hyphens, zero-width and control characters removed, whitespace collapsed."""
    text = _FOLD.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    text = _DROP.sub("", text)
    return _SPACES.sub(" ", text).strip()


# ------------------------------------------------------------------ building a document

@dataclass
class TextBuilder:
    """A document text built a paragraph at a time (each on its own line), with its
    sections (:meth:`open` / :meth:`close`) and line boxes (:meth:`add` ``boxes``)."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    sections: list[Section] = field(default_factory=list)
    layout: list[LineBox] = field(default_factory=list)
    _stack: list[int] = field(default_factory=list)

    def add(self, text: str, boxes: Iterable[tuple[int, int, int, list[float]]] = ()) -> int:
        """Append ``text`` as a paragraph (nothing when empty); ``boxes``: ``(page, start,
        end, box)`` with offsets relative to ``text``. Returns its start offset."""
        if not text:
            return self.length
        if self.parts:
            self.parts.append("\n")
            self.length += 1
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        self.layout.extend(LineBox.model_construct(page=p, start=start + a, end=start + b,
                                                   box=box) for p, a, b, box in boxes)
        return start

    def open(self, typ: str, heading: str | None = None) -> int:
        """Start a section at the next paragraph (nested in the open one); its index."""
        parent = self._stack[-1] if self._stack else None
        start = self.length + (1 if self.parts else 0)
        self.sections.append(Section(type=typ, start=start, end=start, heading=heading,
                                     level=len(self._stack), parent=parent))
        self._stack.append(len(self.sections) - 1)
        return self._stack[-1]

    def close(self) -> None:
        """End the innermost open section here (dropped when it holds no text)."""
        i = self._stack.pop()
        sec = self.sections[i]
        sec.end = max(sec.start, self.length)
        if sec.end == sec.start and i == len(self.sections) - 1:
            self.sections.pop()

    def section(self, typ: str, text: str, heading: str | None = None) -> None:
        """A one-paragraph section (a caption, a title)."""
        self.open(typ, heading)
        self.add(text)
        self.close()

    @property
    def current(self) -> Section | None:
        return self.sections[self._stack[-1]] if self._stack else None

    def build(self, doc_id: str, source: str, meta: dict[str, str] | None = None) -> Document:
        while self._stack:
            self.close()
        return Document(id=doc_id, text="".join(self.parts), source=source,
                        sections=self.sections, layout=self.layout, meta=meta or {})


# ------------------------------------------------------------------ where is a span

def section_at(doc: Document, offset: int) -> Section | None:
    """The innermost section holding character ``offset`` (None: outside every section)."""
    best = None
    for s in doc.sections:
        if s.start <= offset < s.end and (best is None or s.level >= best.level):
            best = s
    return best


def boxes_for(doc: Document, start: int, end: int,
              _starts: list[int] | None = None) -> list[list[float]]:
    """The boxes of the text ``[start, end)`` on the pages: ``[page, x0, y0, x1, y1]`` per
    printed line it touches (in reading order; empty when the document has no layout).
    A line only partly inside the span is cut in proportion to its characters."""
    out: list[list[float]] = []
    starts = _starts if _starts is not None else [b.start for b in doc.layout]
    i = max(0, bisect.bisect_right(starts, start) - 1)
    for b in doc.layout[i:]:
        if b.start >= end:
            break
        if b.end <= start:
            continue
        x0, y0, x1, y1 = b.box
        n = max(1, b.end - b.start)
        a, z = max(start, b.start) - b.start, min(end, b.end) - b.start
        w = x1 - x0
        out.append([b.page, round(x0 + w * a / n, 2), y0, round(x0 + w * z / n, 2), y1])
    return out


def _heading_of(doc: Document, sec: Section | None) -> str | None:
    """The nearest heading up the tree from ``sec``."""
    while sec is not None:
        if sec.heading is not None:
            return sec.heading
        sec = doc.sections[sec.parent] if sec.parent is not None else None
    return None


def locate_sentences(doc: Document) -> Document:
    """``doc`` with each sentence's ``section``, ``section_heading``, ``page`` and
    ``boxes`` filled from its sections and layout. In a document with sections, a
    sentence outside every section is ``OTHER`` (as :func:`kept_spans` counts it); the
    others are None where the document says nothing (no sections: no section; no layout:
    no page or boxes). A document with neither is returned as it is."""
    if not doc.sections and not doc.layout:
        return doc
    starts = [b.start for b in doc.layout]
    located: dict[int, tuple[str | None, str | None]] = {}
    sents: list[Sentence] = []
    for s in doc.sentences:
        if s.start not in located:
            sec = section_at(doc, s.start)
            located[s.start] = ((sec.type if sec else "OTHER") if doc.sections else None,
                                _heading_of(doc, sec))
        typ, heading = located[s.start]
        boxes = boxes_for(doc, s.start, s.end, starts) or None if doc.layout else None
        sents.append(s.model_copy(update={
            "section": typ, "section_heading": heading,
            "page": int(boxes[0][0]) if boxes else None, "boxes": boxes}))
    return doc.model_copy(update={"sentences": sents})


# ------------------------------------------------------------------ --sections

def section_names(include: Iterable[str]) -> frozenset[str]:
    """Section types from group names (``body``, ``captions``...) and/or type names
    (``METHODS``), case-insensitive; unknown names raise ``ValueError``."""
    out: set[str] = set()
    for name in include:
        key = name.strip()
        if key.lower() in SECTION_GROUPS:
            out.update(SECTION_GROUPS[key.lower()])
        elif key.upper() in SECTION_TYPES:
            out.add(key.upper())
        else:
            raise ValueError(f"unknown section {name!r}; choose from groups "
                             f"{sorted(SECTION_GROUPS)} or types {list(SECTION_TYPES)}")
    return frozenset(out)


def sections_option(value: str | Iterable[str] | None) -> frozenset[str]:
    """The section types an extractor's ``sections=`` (``--sections``) asks for: None or
    ``"default"`` :data:`DEFAULT_SECTIONS`; a comma-separated string or names, each a
    group (``title``, ``abstract``, ``body``, ``captions``, ``footnotes``, ``refs``,
    ``back``, ``all``, ``default``) or a type (``RESULTS``). Unknown names:
    :class:`relx.errors.ConfigError`."""
    from relx.errors import ConfigError

    if value is None:
        return DEFAULT_SECTIONS
    names = value.split(",") if isinstance(value, str) else list(value)
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise ConfigError("sections: name at least one section (e.g. 'all' or "
                          "'title,abstract,results')")
    out: set[str] = set()
    for n in names:
        if n.lower() == "default":
            out |= DEFAULT_SECTIONS
            continue
        try:
            out |= section_names([n])
        except ValueError as exc:
            raise ConfigError(f"sections: {exc}") from None
    return frozenset(out)


def sections_label(types: Collection[str]) -> str | list[str]:
    """How a choice of sections is recorded (``.settings.json``, ``summary.json``):
    ``"default"``, ``"all"`` or the sorted types."""
    chosen = frozenset(types)
    if chosen == DEFAULT_SECTIONS:
        return "default"
    if chosen == frozenset(SECTION_TYPES):
        return "all"
    return sorted(chosen)


def kept_spans(doc: Document, include: Collection[str] = DEFAULT_SECTIONS
               ) -> list[tuple[int, int]]:
    """The spans of ``doc.text`` whose innermost section is of a type in ``include``
    (groups or types, see :func:`section_names`); text outside every section counts as
    ``OTHER``. A document without sections (an abstract read from text) is kept whole."""
    wanted = section_names(include)
    n = len(doc.text)
    if not doc.sections:
        return [(0, n)]
    # the innermost type of every position, painted from outer to inner sections
    cuts = sorted({0, n, *(min(s.start, n) for s in doc.sections),
                   *(min(s.end, n) for s in doc.sections)})
    order = sorted(range(len(doc.sections)), key=lambda i: (doc.sections[i].level, i))
    spans: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if a == b:
            continue
        typ = "OTHER"
        for i in order:
            s = doc.sections[i]
            if s.start <= a and b <= s.end:
                typ = s.type
        if typ in wanted:
            if spans and spans[-1][1] == a:
                spans[-1] = (spans[-1][0], b)
            else:
                spans.append((a, b))
    return spans


def select_sections(doc: Document, include: Collection[str] = DEFAULT_SECTIONS) -> Document:
    """``doc`` with only the sections in ``include`` left to analyse (default: title,
    abstract, body, captions and footnotes; references, acknowledgements and funding,
    authors and affiliations, competing interests left out).

    The text keeps its length: characters of the parts left out become line breaks (so no
    sentence runs across a gap: the sentence splitter takes a run of line breaks as a
    paragraph break, and a run of spaces sometimes not), and every offset -- of the kept
    text, sections, layout -- is unchanged; sentences and entities that start in a part
    left out are dropped.
    """
    if not doc.sections:           # nothing to choose from: no work
        return doc
    spans = kept_spans(doc, include)
    if spans == [(0, len(doc.text))]:
        return doc
    chars = ["\n"] * len(doc.text)
    for a, b in spans:
        chars[a:b] = doc.text[a:b]
    starts = [a for a, _ in spans]

    def kept(offset: int) -> bool:
        i = bisect.bisect_right(starts, offset) - 1
        return i >= 0 and offset < spans[i][1]

    sents = [s for s in doc.sentences if kept(s.start)]
    sents = [s if all(kept(e.start) for e in s.entities) else s.model_copy(update={
        "entities": [e for e in s.entities if kept(e.start)],
        "relations": [r for r in s.relations if kept(s.entity(r.arg1).start)
                      and kept(s.entity(r.arg2).start)]}) for s in sents]
    return doc.model_copy(update={"text": "".join(chars), "sentences": sents})


def select_stream(docs: Iterable[Document], include: Collection[str],
                  originals: deque[str | None]) -> Iterator[Document]:
    """:func:`select_sections` of each document, lazily; the text of each document that
    changed is appended to ``originals`` (None for one left as it was), so that an
    extractor can give its results the whole text back (:func:`restore_text`)."""
    for d in docs:
        kept = select_sections(d, include)
        originals.append(None if kept is d else d.text)
        yield kept


def restore_text(doc: _D, original: str | None) -> _D:
    """``doc`` with its original text (the parts :func:`select_sections` blanked back)."""
    return doc if original is None else doc.model_copy(update={"text": original})
