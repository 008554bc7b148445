"""Reader for the PPI "learning format" XML (Airola et al. 2008): AIMed, BioInfer, IEPA...

Offsets in the file are 0-based, relative to the sentence and end-INCLUSIVE; relx stores
them end-exclusive and relative to ``Document.text`` (the sentences joined by one space).
Files are streamed document by document (:func:`relx.io.pubmed.iter_xml`: no entity
expansion, bounded decompression).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from relx.doc import Dependency, Document, Entity, Relation, Sentence, Span, Token
from relx.io.errors import OnError, ReaderError, report
from relx.io.pubmed import iter_xml
from relx.io.source import open_binary
from relx.parse.lemma import lemmatize

#: parse name in the file -> tokenisation it refers to
PARSES = {"split_parse": "split", "Charniak-Lease": "Charniak-Lease"}


def _refuse_entities(path: Path, data: bytes) -> None:
    """Refuse DTD entity declarations: they are never needed and can expand without bound."""
    prolog = data[: data.find(b"<corpus")] if b"<corpus" in data else data[:65536]
    if b"<!ENTITY" in prolog:
        line = prolog[: prolog.find(b"<!ENTITY")].count(b"\n") + 1
        raise ReaderError(path, f"line {line}", "DTD entity declarations are refused "
                                                "(relx never expands XML entities)")


def _offsets(path: Path, where: str, value: str | None, base: int, limit: int) -> list[Span]:
    if not value:
        raise ReaderError(path, where, "missing charOffset")
    spans = []
    for part in value.split(","):
        try:
            a, b = part.strip().split("-")
            start, end = int(a), int(b) + 1
        except ValueError:
            raise ReaderError(path, where, f"bad charOffset {value!r}") from None
        if start < 0 or end > limit or end < start:
            raise ReaderError(path, where, f"charOffset {value!r} outside sentence of length {limit}")
        spans.append(Span(start=base + start, end=base + end))
    return spans


def _attr(path: Path, el: etree._Element, name: str) -> str:
    value = el.get(name)
    if value is None:
        where = el.get("id") or f"<{el.tag}> at line {el.sourceline}"
        raise ReaderError(path, where, f"<{el.tag}> lacks attribute {name!r}")
    return value


def _sentence(path: Path, el: etree._Element, base: int, parse: str) -> Sentence:
    sid = _attr(path, el, "id")
    text = _attr(path, el, "text")
    n = len(text)
    sent = Sentence(id=sid, start=base, end=base + n, text=text)
    for ent in el.iterfind("entity"):
        eid = _attr(path, ent, "id")
        sent.entities.append(Entity(
            id=eid, spans=_offsets(path, eid, ent.get("charOffset"), base, n),
            type=ent.get("type", "protein"), text=ent.get("text", ""),
        ))
    known = {e.id for e in sent.entities}
    for pair in el.iterfind("pair"):
        pid = _attr(path, pair, "id")
        e1, e2 = _attr(path, pair, "e1"), _attr(path, pair, "e2")
        for e in (e1, e2):
            if e not in known:
                raise ReaderError(path, pid, f"pair refers to unknown entity {e!r}")
        inter = pair.get("interaction", "False")
        if inter not in ("True", "False"):
            raise ReaderError(path, pid, f"interaction must be True or False, not {inter!r}")
        sent.relations.append(Relation(id=pid, arg1=e1, arg2=e2, label=inter == "True"))
    tokenizer = PARSES[parse]
    toks = el.find(f"sentenceanalyses/tokenizations/tokenization[@tokenizer='{tokenizer}']")
    parse_el = el.find(f"sentenceanalyses/parses/parse[@parser='{parse}']")
    if toks is None or parse_el is None:
        return sent  # no shipped analysis: relx's own parser must supply one
    index: dict[str, int] = {}
    for tok in toks.iterfind("token"):
        tid = _attr(path, tok, "id")
        (span,) = _offsets(path, f"{sid} token {tid}", tok.get("charOffset"), base, n)
        pos = tok.get("POS")
        word = _attr(path, tok, "text")
        index[tid] = len(sent.tokens)
        sent.tokens.append(Token(index=len(sent.tokens), text=word, start=span.start,
                                 end=span.end, pos=pos, lemma=lemmatize(word, pos)))
    for dep in parse_el.iterfind("dependency"):
        did = dep.get("id", "?")
        t1, t2 = _attr(path, dep, "t1"), _attr(path, dep, "t2")
        if t1 not in index or t2 not in index:
            raise ReaderError(path, f"{sid} dependency {did}", f"unknown token {t1!r} or {t2!r}")
        sent.dependencies.append(Dependency(head=index[t1], dependent=index[t2],
                                            label=_attr(path, dep, "type")))
    sent.parse_source = f"corpus:{parse}"
    return sent


def read_ppi_xml(path: str | Path, parse: str = "split_parse",
                 on_error: OnError = None) -> Iterator[Document]:
    """Stream the documents of a learning-format corpus file (plain or ``.gz``).

    ``parse`` picks the shipped analysis: ``split_parse`` (tokens split at entity
    boundaries; default) or ``Charniak-Lease``. ``on_error`` is called with the error of a
    document that cannot be read (then the next one is read; without it, raised).
    """
    if parse not in PARSES:
        raise ValueError(f"unknown parse {parse!r}; choose one of {sorted(PARSES)}")
    path = Path(path)
    with open_binary(path) as fh:
        _refuse_entities(path, fh.read(65536))
    for del_ in iter_xml(path, ("corpus",), ("document",)):
        source = del_.getparent().get("source") if del_.getparent() is not None else None
        try:
            doc = _document(path, del_, source, parse)
        except ReaderError as exc:
            exc.document = del_.get("id")
            report(on_error, exc)
            continue
        yield doc


def _document(path: Path, del_: etree._Element, source: str | None, parse: str) -> Document:
    did = _attr(path, del_, "id")
    doc = Document(id=did, text="", source=source, orig_id=del_.get("origId"))
    parts: list[str] = []
    base = 0
    for sel in del_.iterfind("sentence"):
        sent = _sentence(path, sel, base, parse)
        doc.sentences.append(sent)
        parts.append(sent.text)
        base += len(sent.text) + 1
    doc.text = " ".join(parts)
    return doc
