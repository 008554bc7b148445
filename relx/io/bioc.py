"""BioC XML and BioC JSON reader and writer (data structures from the ``bioc`` library).

BioC offsets (passages, sentences, annotation locations) are document-level character
offsets. The relx text puts every passage (or, for passages without text, every sentence)
at its own offset, padding gaps with spaces and a final ``"\\n"`` (so title + abstract
passages at 0 and ``len(title) + 1`` give ``title + "\\n" + abstract``); every location
therefore maps exactly. Overlapping passages, locations outside the text and
single-location annotations whose text differs from the document text are errors.

Annotations whose ``type`` infon is a gene/protein or chemical type (see ``relx.ids.READ_TYPES``)
become entities, one span per location, norm ids from the ``identifier``-like infons (a bare
id namespaced, :mod:`relx.ids`). Relations
become ``Relation`` when they have two nodes that are both entities, or (BioRED style) no
nodes but ``entity1``/``entity2`` concept infons; their ``label`` and ``score`` infons are
read back (``label`` None when absent). XML is streamed with relx's safe
``iterparse`` (the ``bioc`` decoder's own lxml parser expands internal DTD entities and
keeps the whole tree, so it is not used); JSON is loaded whole with :mod:`json`.
"""

from __future__ import annotations

import datetime
import gzip
import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

import bioc
from bioc.biocjson.decoder import parse_doc
from bioc.biocjson.encoder import BioCJSONEncoder
from bioc.biocxml.encoder import BioCXMLDocumentWriter
from lxml import etree

from relx.doc import Document, Entity, Relation, Section, Span
from relx.ids import READ_TYPES, join_ids, namespaced_ids
from relx.io.atomic import atomic_open
from relx.io.errors import DOCUMENT_ERRORS, OnError, ReaderError, document_error, report
from relx.io.papers import boxes_for, section_type
from relx.io.pubmed import iter_xml
from relx.io.pubtator import (
    annotated_document,
    by_concept,
    doc_annotations,
    keep_type,
    split_ids,
    type_filter,
)
from relx.io.source import read_whole

#: infon keys holding normalised ids, tried in this order (relx's own ids first)
ID_KEYS = ("relx_identifier", "identifier", "Identifier", "NCBI Gene", "NCBI_Gene", "NCBIGene",
           "concept_id", "UniProt", "uniprot", "HGNC")
#: the infon relx writes its own namespaced ids in when ``identifier`` holds NCBI Gene ids
RELX_ID_KEY = "relx_identifier"


# ------------------------------------------------------------------ XML -> bioc objects

def _int(path: Path, el: etree._Element, value: str | None, what: str) -> int:
    try:
        return int((value or "").strip())
    except ValueError:
        raise ReaderError(path, f"<{el.tag}> at line {el.sourceline}",
                          f"{what} must be an integer, not {value!r}") from None


def _infons(el: etree._Element) -> dict[str, str]:
    return {i.get("key", ""): i.text or "" for i in el.iterfind("infon")}


def _x_annotation(path: Path, el: etree._Element) -> bioc.BioCAnnotation:
    ann = bioc.BioCAnnotation()
    ann.id, ann.infons, ann.text = el.get("id"), _infons(el), el.findtext("text")
    for loc in el.iterfind("location"):
        ann.add_location(bioc.BioCLocation(_int(path, loc, loc.get("offset"), "offset"),
                                      _int(path, loc, loc.get("length"), "length")))
    return ann


def _x_relation(el: etree._Element) -> bioc.BioCRelation:
    rel = bioc.BioCRelation()
    rel.id, rel.infons = el.get("id"), _infons(el)
    for node in el.iterfind("node"):
        rel.add_node(bioc.BioCNode(node.get("refid"), node.get("role", "")))
    return rel


def _x_fill(path: Path, el: etree._Element, obj: Any) -> None:
    obj.infons = _infons(el)
    for a in el.iterfind("annotation"):
        obj.add_annotation(_x_annotation(path, a))
    for r in el.iterfind("relation"):
        obj.add_relation(_x_relation(r))


def _x_document(path: Path, el: etree._Element) -> bioc.BioCDocument:
    doc = bioc.BioCDocument()
    doc.id = (el.findtext("id") or "").strip()
    _x_fill(path, el, doc)
    for p in el.iterfind("passage"):
        passage = bioc.BioCPassage()
        passage.offset = _int(path, p, p.findtext("offset"), "passage offset")
        passage.text = p.findtext("text")
        _x_fill(path, p, passage)
        for s in p.iterfind("sentence"):
            sent = bioc.BioCSentence()
            sent.offset = _int(path, s, s.findtext("offset"), "sentence offset")
            sent.text = s.findtext("text")
            _x_fill(path, s, sent)
            passage.add_sentence(sent)
        doc.add_passage(passage)
    return doc


# ------------------------------------------------------------------ bioc -> relx

def _layout(path: Path, where: str, doc: bioc.BioCDocument) -> str:
    pieces = []
    for p in doc.passages:
        if p.text is not None or not p.sentences:
            pieces.append((p.offset, p.text or ""))
        else:
            pieces.extend((s.offset, s.text or "") for s in p.sentences)
    text = ""
    for offset, piece in sorted(pieces, key=lambda x: x[0]):
        if offset < len(text):
            raise ReaderError(path, where, f"passage at offset {offset} overlaps the text "
                                           f"before it (which ends at {len(text)})")
        if offset > len(text):
            text += " " * (offset - len(text) - 1) + "\n"
        text += piece
    return text


def _sections(doc: bioc.BioCDocument, n: int) -> list[Section]:
    """A section per passage whose ``section_type`` (PMC full text) or ``type`` infon
    (``title``, ``abstract``...) names one; headings from the ``title_N`` passages."""
    out: list[Section] = []
    heading, last = None, None
    for p in sorted(doc.passages, key=lambda p: p.offset):
        typ = section_type(None, p.infons.get("section_type")) or \
            section_type(None, p.infons.get("type"))
        if typ is None:
            continue
        text = p.text if p.text is not None else " ".join(s.text or "" for s in p.sentences)
        if typ != last:
            heading, last = None, typ
        if (p.infons.get("type") or "").lower().startswith("title_"):
            heading = " ".join(text.split()) or heading
        start = min(p.offset, n)
        out.append(Section(type=typ, start=start, end=min(n, p.offset + len(text)),
                           heading=heading))
    return out


def _all(doc: bioc.BioCDocument, attr: str) -> list[Any]:
    found = list(getattr(doc, attr))
    for p in doc.passages:
        found += getattr(p, attr)
        for s in p.sentences:
            found += getattr(s, attr)
    return found


def _norm_ids(infons: dict[str, str], entity_type: str | None = None) -> list[str]:
    """The ids of an annotation, namespaced (:mod:`relx.ids`): a bare id takes its namespace
    from its infon key (``NCBI Gene``, ``UniProt``, ``HGNC``) or the annotation type."""
    ids: list[str] = []
    for key in ID_KEYS:
        ns_key = None if key in ("identifier", "Identifier", "concept_id", RELX_ID_KEY) else key
        ids += [i for i in namespaced_ids(split_ids(infons.get(key)), entity_type, ns_key)
                if i not in ids]
    return ids


def _entity(path: Path, where: str, text: str, ann: bioc.BioCAnnotation, aid: str) -> Entity:
    if not ann.locations:
        raise ReaderError(path, where, f"annotation {aid} has no location")
    spans = []
    for loc in ann.locations:
        start, end = loc.offset, loc.offset + loc.length
        if not 0 <= start <= end <= len(text):
            raise ReaderError(path, where, f"annotation {aid}: location {loc.offset}+{loc.length} "
                                           f"outside the text (length {len(text)})")
        spans.append(Span(start=start, end=end))
    pieces = [text[s.start:s.end] for s in spans]
    if len(spans) == 1 and ann.text is not None and ann.text != pieces[0]:
        raise ReaderError(path, where, f"annotation {aid}: text {ann.text!r} does not match "
                                       f"the document text {pieces[0]!r} at its location")
    return Entity(id=aid, spans=spans, type=ann.infons.get("type", "Protein"),
                  text=ann.text if ann.text is not None else " ".join(pieces),
                  norm_ids=_norm_ids(ann.infons, ann.infons.get("type")))


def _label(value: object) -> bool | None:
    return None if value is None else str(value).strip().lower() in ("true", "1", "yes", "positive")


def to_relx(path: Path, doc: bioc.BioCDocument, where: str,
            wanted: frozenset[str] | None) -> Document:
    """Convert one BioC document; ``where`` names it in errors."""
    if not doc.id:
        raise ReaderError(path, where, "document without <id>")
    where = f"document {doc.id}"
    text = _layout(path, where, doc)
    ents: list[Entity] = []
    known: set[str] = set()
    for k, ann in enumerate(_all(doc, "annotations"), 1):
        aid = ann.id or f"T{k}"
        if aid in known:
            raise ReaderError(path, where, f"duplicate annotation id {aid!r}")
        known.add(aid)
        if keep_type(ann.infons.get("type", ""), wanted):
            ents.append(_entity(path, where, text, ann, aid))
    ids = {e.id for e in ents}
    first = by_concept(ents)
    first.update({c.partition(":")[2]: e for c, e in list(first.items())   # BioRED infons
                  if ":" in c and c.partition(":")[2] not in first})   # name bare ids
    rels: list[Relation] = []
    for k, rel in enumerate(_all(doc, "relations"), 1):
        if rel.nodes:
            args = [n.refid for n in rel.nodes]
        else:
            args = [getattr(first.get(rel.infons.get(key, "")), "id", None)
                    for key in ("entity1", "entity2")]
        if len(args) != 2 or not all(a in ids for a in args):
            continue
        score = rel.infons.get("score")
        try:
            rels.append(Relation(id=rel.id or f"R{k}", arg1=args[0], arg2=args[1],
                                 type=rel.infons.get("type") or "PPI",
                                 label=_label(rel.infons.get("label")),
                                 score=float(score) if score not in (None, "") else None))
        except ValueError:
            raise ReaderError(path, where, f"relation {rel.id}: bad score {score!r}") from None
    out = annotated_document(doc.id, text, ents, rels, "bioc")
    out.sections = _sections(doc, len(text))
    return out


# ------------------------------------------------------------------ readers

def read_bioc(path: str | Path, types: Collection[str] | None = READ_TYPES,
              on_error: OnError = None) -> Iterator[Document]:
    """Stream the documents of a BioC XML file (plain or ``.gz``); ``on_error`` is called
    with the error of a document that cannot be read (then the next one is read; without
    it, raised)."""
    path = Path(path)
    wanted = type_filter(types)
    for el in iter_xml(path, ("collection",), ("document",)):
        where = f"<document> at line {el.sourceline}"
        doc_id = (el.findtext("id") or "").strip() or None
        try:
            doc = to_relx(path, _x_document(path, el), where, wanted)
        except (ReaderError, *DOCUMENT_ERRORS) as exc:
            report(on_error, document_error(path, where, exc, doc_id))
            continue
        yield doc


def _defaults(obj: dict) -> dict:
    """Fill the keys the ``bioc`` decoder insists on but BioC JSON writers often leave out."""
    for key in ("infons", "relations", "annotations", "sentences", "passages"):
        obj.setdefault(key, {} if key == "infons" else [])
    for child in [*obj["passages"], *obj["sentences"]]:
        if isinstance(child, dict):
            _defaults(child)
    return obj


def read_bioc_json(path: str | Path, types: Collection[str] | None = READ_TYPES,
                   on_error: OnError = None, max_bytes: int | None = None
                   ) -> Iterator[Document]:
    """Read a BioC JSON file (a collection, a list of documents or one document; ``.gz`` ok).

    The file is loaded whole, up to ``max_bytes`` (decompressed; default: the input limit,
    ``--max-input-mb``): a larger file raises :class:`relx.io.source.InputTooLarge` having
    read one byte over the cap (:func:`relx.io.source.read_whole`). ``on_error`` is called
    with the error of a document that cannot be read -- malformed, or with a value of the
    wrong kind, such as a number for a passage's text -- naming it, then the next one is
    read; without it, the error is raised."""
    path = Path(path)
    wanted = type_filter(types)
    try:
        data = json.loads(read_whole(path, max_bytes).decode("utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise ReaderError(path, f"line {exc.lineno} column {exc.colno}", f"bad JSON: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise ReaderError(path, f"byte {exc.start}", f"not valid UTF-8: {exc.reason}") from None
    except (OSError, EOFError) as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    if isinstance(data, dict) and "passages" in data:
        data = [data]
    elif isinstance(data, dict) and isinstance(data.get("documents"), list):
        data = data["documents"]
    if not isinstance(data, list):
        raise ReaderError(path, "top level", "expected a BioC collection, document or list of documents")
    for i, obj in enumerate(data):
        doc_id = _json_id(obj)
        try:
            doc = _json_document(path, i, obj, wanted)
        except (ReaderError, *DOCUMENT_ERRORS) as exc:
            where = f"document #{i}" + (f" ({doc_id})" if doc_id else "")
            report(on_error, document_error(path, where, exc, doc_id))
            continue
        yield doc


def _json_id(obj: Any) -> str | None:
    """The id of a BioC JSON document object, when it has one."""
    value = obj.get("id") if isinstance(obj, dict) else None
    return None if value is None or value == "" or isinstance(value, dict | list) \
        else str(value)


def _check_texts(path: Path, where: str, bdoc: bioc.BioCDocument) -> None:
    """Passage, sentence and annotation texts are strings (or absent)."""
    for p in bdoc.passages:
        parts = [("passage", p.offset, p.text), *(("sentence", s.offset, s.text)
                                                  for s in p.sentences)]
        for kind, offset, text in parts:
            if text is not None and not isinstance(text, str):
                raise ReaderError(path, where, f"{kind} at offset {offset}: text must be a "
                                               f"string, not {type(text).__name__} {text!r}")
    for a in _all(bdoc, "annotations"):
        if a.text is not None and not isinstance(a.text, str):
            raise ReaderError(path, where, f"annotation {a.id}: text must be a string, not "
                                           f"{type(a.text).__name__} {a.text!r}")


def _json_document(path: Path, i: int, obj: Any, wanted: frozenset[str] | None) -> Document:
    """The ``i``-th document of a BioC JSON file."""
    where = f"document #{i}" + (f" ({obj.get('id')})" if isinstance(obj, dict) else "")
    if not isinstance(obj, dict):
        raise ReaderError(path, where, "a document must be a JSON object")
    try:
        bdoc = parse_doc(_defaults(obj))
        bdoc.id = str(bdoc.id) if bdoc.id is not None else ""
        for a in [*_all(bdoc, "annotations"), *_all(bdoc, "relations")]:  # JSON numbers
            a.infons = {str(k): str(v) for k, v in a.infons.items() if v is not None}
    except KeyError as exc:
        raise ReaderError(path, where, f"missing key {exc}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ReaderError(path, where, f"malformed BioC document: {exc}") from None
    numbers = [*(p.offset for p in bdoc.passages), *(x for a in _all(bdoc, "annotations")
               for loc in a.locations for x in (loc.offset, loc.length)),
               *(s.offset for p in bdoc.passages for s in p.sentences)]
    if not all(type(x) is int for x in numbers):
        raise ReaderError(path, where, "offsets and lengths must be integers")
    _check_texts(path, where, bdoc)
    return to_relx(path, bdoc, where, wanted)


# ------------------------------------------------------------------ writer

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_safe(text: str) -> str:
    """Replace characters XML 1.0 cannot carry by spaces (same length: offsets hold)."""
    return _NOT_XML.sub(" ", text)

#: BioC ``type`` infon of a paragraph of each section type (PMC's BioC names)
_PASSAGE_TYPES = {"TITLE": "front", "ABSTRACT": "abstract", "FIG": "fig_caption",
                  "TABLE": "table_caption", "REF": "ref", "FOOTNOTE": "footnote"}


def _innermost(doc: Document) -> list[tuple[int, int, int | None]]:
    """``(start, end, section index)`` runs of the text by innermost section (None:
    outside every section), in text order."""
    n = len(doc.text)
    cuts = sorted({0, n, *(min(x.start, n) for x in doc.sections),
                   *(min(x.end, n) for x in doc.sections)})
    order = sorted(range(len(doc.sections)), key=lambda i: (doc.sections[i].level, i))
    runs: list[tuple[int, int, int | None]] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if a == b:
            continue
        inner = None
        for i in order:
            if doc.sections[i].start <= a and b <= doc.sections[i].end:
                inner = i
        if runs and runs[-1][2] == inner and runs[-1][1] == a:
            runs[-1] = (runs[-1][0], b, inner)
        else:
            runs.append((a, b, inner))
    return runs


def _section_passages(bdoc: bioc.BioCDocument, doc: Document) -> None:
    """A passage per paragraph (line) of a sectioned document, with PMC's infons:
    ``section_type`` (relx's type), ``type`` (``front``, ``abstract``, ``paragraph``,
    ``title_<level>`` for a heading, ``fig_caption``...) and, from a PDF, ``page``."""
    starts = [b.start for b in doc.layout]
    for a, b, i in _innermost(doc):
        sec = doc.sections[i] if i is not None else None
        pos = a
        for line in doc.text[a:b].split("\n"):
            start, pos = pos, pos + len(line) + 1
            if not line.strip():
                continue
            typ = sec.type if sec else "OTHER"
            passage = bioc.BioCPassage.of_text(_xml_safe(line), start)
            passage.infons["section_type"] = typ
            if sec is not None and sec.heading and line.strip() == sec.heading.strip():
                passage.infons["type"] = f"title_{sec.level + 1}"
            else:
                passage.infons["type"] = _PASSAGE_TYPES.get(typ, "paragraph")
            boxes = boxes_for(doc, start, start + len(line), starts) if starts else []
            if boxes:
                passage.infons["page"] = str(int(boxes[0][0]))
            bdoc.add_passage(passage)


def _bioc_document(doc_id: str, text: str, source: str | None,
                   doc: Document | None = None) -> bioc.BioCDocument:
    """An empty BioC document with the text's passages: PubMed/PubTator texts split at the
    first newline into title and abstract; a paper (``doc`` with sections) a passage per
    paragraph with its section (:func:`_section_passages`); any other text one passage at
    offset 0."""
    bdoc = bioc.BioCDocument()
    bdoc.id = doc_id
    title, nl, rest = text.partition("\n")
    if doc is not None and doc.sections and source not in ("pubmed", "pubtator"):
        _section_passages(bdoc, doc)
        if bdoc.passages:
            return bdoc
    if source in ("pubmed", "pubtator") and nl:
        parts = [("title", 0, title), ("abstract", len(title) + 1, rest)]
    else:
        parts = [("text", 0, text)]
    for kind, offset, part in parts:
        bdoc.add_passage(bioc.BioCPassage.of_text(_xml_safe(part), offset))
        bdoc.passages[-1].infons["type"] = kind
    return bdoc


def _annotation(bdoc: bioc.BioCDocument, text: str, aid: str, typ: str,
                spans: list[tuple[int, int]], ids: list[str], ann_text: str | None = None,
                ncbi: list[str] | None = None, entity: Entity | None = None) -> None:
    """Add an annotation to the passage holding its first span (``ann_text``: the
    annotation's text when its spans do not give it, e.g. a discontinuous mention).
    With ``ncbi`` (NCBI Gene ids), ``identifier`` holds them as PubTator's BioC does (bare
    GeneIDs) and ``relx_identifier`` the namespaced ``ids``; with ``entity``, its
    :func:`grounding_infons` too."""
    ann = bioc.BioCAnnotation()
    ann.id = aid
    pieces = [text[a:b] for a, b in spans]
    ann.text = _xml_safe(pieces[0] if len(pieces) == 1 else ann_text or " ".join(pieces))
    ann.infons["type"] = typ
    if ncbi:
        ann.infons["identifier"] = join_ids(i.partition(":")[2] for i in ncbi)
        ann.infons[RELX_ID_KEY] = join_ids(ids)
    elif ids:
        ann.infons["identifier"] = join_ids(ids)
    if entity is not None:
        ann.infons.update(grounding_infons(entity))
    for a, b in spans:
        ann.add_location(bioc.BioCLocation(a, b - a))
    next(p for p in reversed(bdoc.passages) if p.offset <= spans[0][0]).add_annotation(ann)


def grounding_infons(e: Entity) -> dict[str, str]:
    """A gene mention's ``species`` (``NCBITaxon:10090``), grounding ``confidence``
    (``0.9280``) and, without an id, ``no_id_reason`` (``below_threshold``) as BioC infons,
    each when relx set it."""
    out = {}
    if e.taxon:
        out["species"] = e.taxon
    if e.norm_confidence is not None:
        out["confidence"] = f"{e.norm_confidence:.4f}"
    if e.norm_reason:
        out["no_id_reason"] = e.norm_reason
    return out


def to_bioc(doc: Document) -> bioc.BioCDocument:
    """A relx document as BioC: passages, entity annotations (``identifier``: the NCBI Gene
    ids as bare GeneIDs when relx found some -- ``3558;7124``, as PubTator writes them -- with
    relx's namespaced ids in ``relx_identifier``, else the namespaced ids; ``;``-joined;
    :func:`grounding_infons`: ``species`` and ``confidence``),
    relations (``type``, ``label``, ``score``, ``negated`` and
    ``speculated`` infons, the last two ``True``/``False`` when assessed; a typed pair's
    ``direction`` -- ``entity1->entity2``: Arg1 acts on Arg2 -- and ``event_score``; from
    a paper, the sentence's ``section``, ``section_heading`` and ``page``).

    PubMed/PubTator texts are split at the first newline into title and abstract passages;
    a paper's text is a passage per paragraph with ``section_type`` and ``type`` infons
    as PMC's BioC has them (and ``page`` from a PDF); any other text is one passage at
    offset 0. Characters XML cannot carry become spaces.
    """
    bdoc = _bioc_document(doc.id, doc.text, doc.source, doc)
    ents, rels = doc_annotations(doc)
    where = {r.id: s for s in doc.sentences if s.section is not None for r in s.relations}
    for e in ents:
        _annotation(bdoc, doc.text, e.id, e.type, [(s.start, s.end) for s in e.spans],
                    namespaced_ids(e.norm_ids, e.type), e.text, e.ncbi_ids, e)
    for r in rels:
        rel = bioc.BioCRelation()
        rel.id = r.id
        rel.infons["type"] = r.type
        if r.label is not None:
            rel.infons["label"] = str(r.label)
        if r.score is not None:
            rel.infons["score"] = repr(float(r.score))
        for key in ("negated", "speculated"):
            if getattr(r, key) is not None:
                rel.infons[key] = str(bool(getattr(r, key)))
        if r.direction is not None:
            rel.infons["direction"] = r.direction
        if r.event_score is not None:
            rel.infons["event_score"] = repr(float(r.event_score))
        sent = where.get(r.id)
        if sent is not None:
            for key in ("section", "section_heading", "page"):
                if getattr(sent, key) is not None:
                    rel.infons[key] = str(getattr(sent, key))
        rel.add_node(bioc.BioCNode(r.arg1, "Arg1"))
        rel.add_node(bioc.BioCNode(r.arg2, "Arg2"))
        bdoc.add_relation(rel)
    return bdoc


def events_to_bioc(parsed: Document, pred: Any) -> bioc.BioCDocument:
    """Predicted GENIA events as BioC (``pred`` a :class:`relx.doc.StandoffDocument`,
    ``parsed`` the parsed document whose entities carry the proteins' ids): an annotation per
    protein (``Protein``, ``identifier``) and per trigger (its event type), a relation per
    event (``type`` infon the event type; nodes ``Trigger`` and the argument roles, which
    name proteins or other events; NCBI Gene ids as :func:`to_bioc` writes them; ``negation`` / ``speculation`` infons ``True`` when
    the event has that modification)."""
    bdoc = _bioc_document(pred.id, pred.text, parsed.source, parsed)
    ids = {e.id: e.norm_ids for s in parsed.sentences for e in s.entities}
    ncbi = {e.id: e.ncbi_ids for s in parsed.sentences for e in s.entities}
    for tbs, with_ids in ((pred.proteins, True), (pred.triggers, False)):
        for tb in tbs:
            _annotation(bdoc, pred.text, tb.id, tb.type, [(sp.start, sp.end) for sp in tb.spans],
                        namespaced_ids(ids.get(tb.id, []), tb.type) if with_ids else [],
                        ncbi=ncbi.get(tb.id) if with_ids else None)
    mods = pred.modifications_of()
    for ev in pred.events:
        rel = bioc.BioCRelation()
        rel.id = ev.id
        rel.infons["type"] = ev.type
        for m in mods.get(ev.id, ()):
            rel.infons[m.lower()] = "True"
        rel.add_node(bioc.BioCNode(ev.trigger, "Trigger"))
        for role, ref in ev.arguments:
            rel.add_node(bioc.BioCNode(ref, role))
        bdoc.add_relation(rel)
    return bdoc


def write_bioc(docs: Iterable[Any], path: str | Path, fmt: str = "xml",
               convert: Callable[[Any], bioc.BioCDocument] | None = None) -> int:
    """Write documents atomically as BioC ``xml`` or ``json`` (``.gz`` compressed); returns the
    count. ``convert`` turns each item into a BioC document (default :func:`to_bioc`; e.g.
    ``lambda t: events_to_bioc(t[0], t[2])`` for extracted events)."""
    to_bioc_doc = to_bioc if convert is None else convert
    if fmt not in ("xml", "json"):
        raise ValueError(f"fmt must be 'xml' or 'json', not {fmt!r}")
    path = Path(path)
    info = bioc.BioCCollection()
    info.source, info.date, info.key = "relx", datetime.date.today().isoformat(), "relx.key"
    n = 0
    with atomic_open(path, "wb") as raw:
        out = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if path.suffix == ".gz" else raw
        if fmt == "xml":
            writer = BioCXMLDocumentWriter(out)
            writer.write_collection_info(info)
            for doc in docs:
                writer.write_document(to_bioc_doc(doc))
                n += 1
            writer.close()
        else:
            head = {"source": info.source, "date": info.date, "key": info.key, "infons": {}}
            out.write(json.dumps(head)[:-1].encode() + b', "documents": [\n')
            for doc in docs:
                body = json.dumps(to_bioc_doc(doc), cls=BioCJSONEncoder, ensure_ascii=False)
                out.write((",\n" if n else "").encode() + body.encode("utf-8"))
                n += 1
            out.write(b"\n]}\n")
        if out is not raw:
            out.close()
    return n


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def bioc_with_original(doc: Document) -> bioc.BioCDocument:
    """A relx document as BioC, its original id (escaped) in an ``original_id`` infon when
    the batch renamed it (an id BioC XML cannot hold)."""
    bdoc = to_bioc(doc)
    if doc.orig_id and doc.orig_id != doc.id:
        bdoc.infons["original_id"] = json.dumps(doc.orig_id)[1:-1]
        clean = lambda x: _XML_BAD.sub("_", x) if isinstance(x, str) else x  # noqa: E731
        for p in bdoc.passages:          # ids derived from the document id
            for a in p.annotations:
                a.id = clean(a.id)
        for r in [*bdoc.relations, *(r for p in bdoc.passages for r in p.relations)]:
            r.id = clean(r.id)
            for n in r.nodes:
                n.refid = clean(n.refid)
    return bdoc


def write_bioc_part(docs: Iterable[Document], path: str | Path) -> None:
    """Annotated documents as one BioC XML collection (a part of a batch's per-input BioC)."""
    write_bioc(docs, path, fmt="xml", convert=bioc_with_original)


def write_bioc_events_part(results: Iterable[tuple], path: str | Path) -> None:
    """Extracted events (``(parsed, events, predicted standoff)`` per document) as BioC XML."""
    write_bioc(results, path, fmt="xml", convert=lambda t: events_to_bioc(t[0], t[2]))


def join_bioc(parts: list[Path], target: Path) -> None:
    """BioC XML collections written by one writer, joined into one collection (the first
    one's header, every one's ``<document>`` elements)."""
    texts = [p.read_text(encoding="utf-8") for p in parts if p.exists()]
    if not texts:
        return
    with atomic_open(target) as fh:
        for k, text in enumerate(texts):
            end = text.rfind("</collection>")
            start = 0 if k == 0 else text.find("<document>")
            if k and start < 0:
                continue
            fh.write(text[start:end])
        fh.write("</collection>\n")
