"""BioNLP Shared Task standoff format: ``.txt`` text, ``.a1`` proteins, ``.a2`` events.

Line types read (tab separated; the id decides the kind)::

    T1<TAB>Protein 37 51<TAB>p70(S6)-kinase        text-bound; discontinuous: "10 15;20 25"
    E1<TAB>Regulation:T19 Theme:E3 Cause:E2         event (type:trigger role:ref ...)
    M1<TAB>Negation E12                             modification (an A line alike)
    *<TAB>Equiv T5 T6                               equivalent proteins
    R1<TAB>Coreference Subject:T57 Object:T34       relation (GE 2013)

``#`` note lines are skipped; any other line (e.g. ``N`` normalisation) is an error. The
``.a1`` file holds ``T`` lines only. Offsets are end-exclusive character offsets into the
``.txt`` read verbatim (no newline translation). Every problem -- malformed line, offsets
outside the text, a T line whose text differs from its ``.txt`` slice (compared with
whitespace runs collapsed), a duplicate id, a reference to an unknown id, an event whose
trigger is not an ``.a2`` text-bound of the same type -- raises :class:`ReaderError` naming
the file and line.

:func:`format_a2` / :func:`write_a2` emit T, E, M, ``*`` then R lines, each kind in
:func:`relx.doc.id_key` order (equivs as stored), so read -> write -> read is the identity.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from relx.doc import (
    Document,
    Equiv,
    Event,
    Modification,
    Span,
    StandoffDocument,
    StandoffRelation,
    TextBound,
)
from relx.io.atomic import atomic_open
from relx.io.errors import OnError, ReaderError, report

_SPAN = re.compile(r"^(\d+) (\d+)$")
_ROLE_REF = re.compile(r"^([A-Za-z][\w-]*):(\S+)$")
_TOKEN = re.compile(r"^\S+$")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _lines(data: str) -> list[tuple[int, str]]:
    out = []
    for n, line in enumerate(data.split("\n"), 1):
        line = line.removesuffix("\r")
        if line.strip() and not line.startswith("#"):
            out.append((n, line))
    return out


class _Parser:
    """Collects the annotations of one document, then checks cross references."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.doc: dict[str, list] = {k: [] for k in
                                     ("proteins", "triggers", "events", "modifications",
                                      "equivs", "relations")}
        self.where: dict[str, tuple[Path, int]] = {}   # id -> (file, line)
        self.refs: list[tuple[Path, int, str, str]] = []   # (file, line, ref, what)

    def _new_id(self, path: Path, n: int, ann_id: str) -> None:
        if not _TOKEN.match(ann_id):
            raise ReaderError(path, f"line {n}", f"bad annotation id {ann_id!r}")
        if ann_id in self.where:
            p, m = self.where[ann_id]
            raise ReaderError(path, f"line {n}", f"duplicate id {ann_id!r} (first at {p.name} line {m})")
        self.where[ann_id] = (path, n)

    def textbound(self, path: Path, n: int, cols: list[str]) -> TextBound:
        where = f"line {n}"
        if len(cols) != 3:
            raise ReaderError(path, where, f"T line needs 3 tab-separated fields, got {len(cols)}")
        ann_id, head, ann_text = cols
        type_, _, offsets = head.partition(" ")
        if not type_ or not offsets:
            raise ReaderError(path, where, f"T line needs 'Type start end', got {head!r}")
        spans = []
        for part in offsets.split(";"):
            m = _SPAN.match(part.strip())
            if not m:
                raise ReaderError(path, where, f"bad offsets {part!r} in {head!r}")
            start, end = int(m[1]), int(m[2])
            if not start <= end <= len(self.text):
                raise ReaderError(path, where, f"offsets {start}-{end} outside the text "
                                               f"(length {len(self.text)})")
            spans.append(Span(start=start, end=end))
        actual = " ".join(self.text[s.start:s.end] for s in spans)
        if actual != ann_text and _norm(actual) != _norm(ann_text):
            raise ReaderError(path, where, f"{ann_id} text {ann_text!r} does not match the "
                                           f"text at {offsets}: {actual!r}")
        self._new_id(path, n, ann_id)
        return TextBound(id=ann_id, type=type_, spans=spans, text=ann_text)

    def _args(self, path: Path, n: int, tokens: list[str], what: str) -> list[tuple[str, str]]:
        args = []
        for tok in tokens:
            m = _ROLE_REF.match(tok)
            if not m:
                raise ReaderError(path, f"line {n}", f"bad argument {tok!r} (want Role:Id)")
            args.append((m[1], m[2]))
            self.refs.append((path, n, m[2], what))
        return args

    def line(self, path: Path, n: int, line: str, a1: bool) -> None:
        cols = line.split("\t")
        kind = cols[0][:1]
        where = f"line {n}"
        if not kind:
            raise ReaderError(path, where, "line starts with a tab (no annotation id)")
        if a1 and kind != "T":
            raise ReaderError(path, where, f"an .a1 file holds T lines only, got {cols[0]!r}")
        if kind == "T":
            self.doc["proteins" if a1 else "triggers"].append(self.textbound(path, n, cols))
            return
        if len(cols) != 2 or not cols[1].split():
            raise ReaderError(path, where, f"{cols[0]!r} line needs 2 tab-separated fields")
        ann_id, fields = cols[0], cols[1].split()
        if kind == "E":
            self._new_id(path, n, ann_id)
            m = _ROLE_REF.match(fields[0])
            if not m:
                raise ReaderError(path, where, f"bad event head {fields[0]!r} (want Type:Trigger)")
            self.refs.append((path, n, m[2], f"trigger:{m[1]}"))
            args = self._args(path, n, fields[1:], "argument")
            self.doc["events"].append(Event(id=ann_id, type=m[1], trigger=m[2], arguments=args))
        elif kind in "MA":
            if len(fields) != 2:
                raise ReaderError(path, where, f"modification needs 'Type EventId', got {cols[1]!r}")
            self._new_id(path, n, ann_id)
            self.refs.append((path, n, fields[1], "event"))
            self.doc["modifications"].append(Modification(id=ann_id, type=fields[0], event=fields[1]))
        elif kind == "*":
            if ann_id != "*" or fields[0] != "Equiv" or len(fields) < 3:
                raise ReaderError(path, where, f"bad equivalence line {line!r}")
            for ref in fields[1:]:
                self.refs.append((path, n, ref, "equiv"))
            self.doc["equivs"].append(Equiv(ids=fields[1:]))
        elif kind == "R":
            self._new_id(path, n, ann_id)
            args = self._args(path, n, fields[1:], "argument")
            self.doc["relations"].append(StandoffRelation(id=ann_id, type=fields[0], arguments=args))
        else:
            raise ReaderError(path, where, f"unsupported annotation line {cols[0]!r}")

    def check_refs(self) -> None:
        tbs = {t.id: t for t in self.doc["triggers"]}
        proteins = {t.id for t in self.doc["proteins"]}
        events = {e.id for e in self.doc["events"]}
        targets = proteins | events | set(tbs)
        for path, n, ref, what in self.refs:
            where = f"line {n}"
            if what.startswith("trigger:"):
                if ref not in tbs:
                    raise ReaderError(path, where, f"event trigger {ref!r} is not an .a2 T line")
                if tbs[ref].type != what[8:]:
                    raise ReaderError(path, where, f"event type {what[8:]} differs from its "
                                                   f"trigger {ref} type {tbs[ref].type}")
            elif what == "event":
                if ref not in events:
                    raise ReaderError(path, where, f"modification of unknown event {ref!r}")
            elif what == "equiv":
                if ref not in tbs and ref not in proteins:
                    raise ReaderError(path, where, f"Equiv names unknown text-bound {ref!r}")
            elif ref not in targets:
                raise ReaderError(path, where, f"{what} refers to unknown id {ref!r}")


def parse_standoff(doc_id: str, text: str, a1: str, a2: str | None,
                   a1_path: str | Path = "<a1>", a2_path: str | Path = "<a2>",
                   source: str | None = "bionlp-st") -> StandoffDocument:
    """Build a :class:`StandoffDocument` from the contents of the three files."""
    p = _Parser(text)
    a1_path, a2_path = Path(a1_path), Path(a2_path)
    for n, line in _lines(a1):
        p.line(a1_path, n, line, a1=True)
    if a2 is not None:
        for n, line in _lines(a2):
            p.line(a2_path, n, line, a1=False)
    p.check_refs()
    return StandoffDocument(id=doc_id, text=text, source=source, **p.doc)


def read_standoff(txt_path: str | Path, a1_path: str | Path | None = None,
                  a2_path: str | Path | None = None) -> StandoffDocument:
    """Read ``x.txt`` with ``x.a1`` (required, may be empty) and ``x.a2`` when it exists.

    ``a1_path``/``a2_path`` override the sibling files (an explicit ``a2_path`` must exist).
    """
    txt_path = Path(txt_path)
    a1 = Path(a1_path) if a1_path is not None else txt_path.with_suffix(".a1")
    a2 = Path(a2_path) if a2_path is not None else txt_path.with_suffix(".a2")
    doc_id = txt_path.stem
    try:
        for path in (txt_path, a1):
            if not path.is_file():
                raise ReaderError(path, "file", "not found")
        if a2_path is not None and not a2.is_file():
            raise ReaderError(a2, "file", "not found")
        a2_data = _read_text(a2) if a2.is_file() else None
        return parse_standoff(doc_id, _read_text(txt_path), _read_text(a1), a2_data, a1, a2)
    except ReaderError as exc:   # every error names the document (the .txt file's stem)
        exc.document = doc_id
        raise


def _read_text(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except UnicodeDecodeError as exc:
        raise ReaderError(path, f"byte {exc.start}", f"not valid UTF-8: {exc.reason}") from None
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None


def read_standoff_file(path: str | Path, on_error: OnError = None) -> Iterator[Document]:
    """A standoff ``.txt`` (+ ``.a1``/``.a2``) as a relx Document whose entities are its
    proteins (one whole-text sentence), as the format registry reads it; an error names
    the document and goes to ``on_error`` when given (then nothing is yielded), else it is
    raised."""
    from relx.doc import Entity
    from relx.io.pubtator import annotated_document

    try:
        sd = read_standoff(path)
    except ReaderError as exc:
        report(on_error, exc)
        return
    ents = [Entity(id=t.id, spans=t.spans, type=t.type, text=t.text) for t in sd.proteins]
    yield annotated_document(sd.id, sd.text, ents, [], sd.source or "bionlp-st")


def read_standoff_dir(directory: str | Path) -> list[StandoffDocument]:
    """All documents of a directory (every ``*.txt``), sorted by file name."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ReaderError(directory, "directory", "not found")
    return [read_standoff(p) for p in sorted(directory.glob("*.txt"))]


def _tb_line(t: TextBound) -> str:
    offsets = ";".join(f"{s.start} {s.end}" for s in t.spans)
    text = re.sub(r"[\t\n\r]", " ", t.text)   # keep the line well formed
    return f"{t.id}\t{t.type} {offsets}\t{text}\n"


def _args(args: list[tuple[str, str]]) -> str:
    return "".join(f" {role}:{ref}" for role, ref in args)


def format_a1(doc: StandoffDocument) -> str:
    """The ``.a1`` file contents: the protein T lines."""
    return "".join(_tb_line(t) for t in doc.proteins)


def format_a2(doc: StandoffDocument) -> str:
    """The ``.a2`` file contents in canonical order: T, E, M, ``*``, R lines."""
    out = [_tb_line(t) for t in doc.triggers]
    out += [f"{e.id}\t{e.type}:{e.trigger}{_args(e.arguments)}\n" for e in doc.events]
    out += [f"{m.id}\t{m.type} {m.event}\n" for m in doc.modifications]
    out += [f"*\t{q.type} {' '.join(q.ids)}\n" for q in doc.equivs]
    out += [f"{r.id}\t{r.type}{_args(r.arguments)}\n" for r in doc.relations]
    return "".join(out)


def write_a2(doc: StandoffDocument, path: str | Path) -> Path:
    """Write the ``.a2`` file of ``doc`` atomically; returns the path."""
    path = Path(path)
    with atomic_open(path, "w", encoding="utf-8") as fh:
        fh.write(format_a2(doc))
    return path


def write_standoff(doc: StandoffDocument, directory: str | Path, stem: str | None = None
                   ) -> Path:
    """Write ``<stem>.txt``, ``.a1`` and ``.a2`` (stem: the document id), each atomically,
    into ``directory``; returns the .txt path."""
    txt = Path(directory) / f"{stem or doc.id}.txt"
    with atomic_open(txt, "w", encoding="utf-8") as fh:
        fh.write(doc.text)
    with atomic_open(txt.with_suffix(".a1"), "w", encoding="utf-8") as fh:
        fh.write(format_a1(doc))
    write_a2(doc, txt.with_suffix(".a2"))
    return txt
