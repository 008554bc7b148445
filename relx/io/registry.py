"""Format registry: detect a file's format, read any supported file, write documents.

``read(path)`` works on a file or a folder (every file of a known format under it, in
sorted order; :func:`scan` also says which files are skipped and why). Readers and writers are imported on first use, so optional libraries (e.g.
``bioc``) are only needed for their own format.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from relx.doc import Document
from relx.errors import ConfigError
from relx.io.errors import ReaderError
from relx.io.source import open_binary


@dataclass(frozen=True)
class Format:
    """A registered format: ``module:function`` names of what reads and writes it.

    ``reader``: a file -> its documents (``on_error=`` for per-document errors);
    ``writer``: documents -> one file (:func:`write`); ``parts``: per item kind (see
    :data:`ITEM_KINDS`), the function writing a batch chunk's items to ``part_file``;
    ``join``: the chunks' parts -> the per-input output ``output`` (``{key}``: the input's
    key); ``bad_id``: characters a document id cannot hold in this format (the batch
    renames such documents and notes it); ``stream``: one parsed document -> an open text
    stream (``relx parse --format``); ``mentions``: its documents carry their own entity
    mentions (``relx extract --mentions auto`` uses them, and only them).
    """

    name: str
    description: str
    suffixes: tuple[str, ...]
    reader: str | None = None
    writer: str | None = None
    writer_options: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)
    join: str | None = None
    part_file: str | None = None
    output: str | None = None
    bad_id: str | None = None
    stream: str | None = None
    mentions: bool = False
    options: tuple[str, ...] = ()


#: reader options of the paper readers: :func:`read` gives each reader those its
#: ``Format.options`` name (a folder mixes PDFs, JATS and abstracts)
READER_OPTIONS = ("max_pages", "max_seconds", "table_cells")


#: item kinds a task hands to output formats, and how each names its document
ITEM_KINDS: dict[str, Callable[[Any], str]] = {
    "relations": lambda r: r.document_id,     # relx.ppi.extract.ExtractedRelation
    "events": lambda e: e.document_id,        # relx.ge.extract.ExtractedEvent
    "documents": lambda d: d.id,              # annotated relx.doc.Document
    "event_documents": lambda t: t[2].id,     # (parsed Document, events, StandoffDocument)
}

_CONCAT = "relx.io.atomic:concat_files"
_RECORDS = "relx.io.jsonl:write_records_part"
_XML_BAD_ID = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]"

FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("ppi-xml", "PPI learning-format XML (AIMed, BioInfer, ...)", (".xml", ".xml.gz"),
           "relx.io.ppi_xml:read_ppi_xml", mentions=True),
    Format("pubmed", "PubMed/MEDLINE XML (PubmedArticleSet, PubmedBookArticleSet, "
           "MedlineCitationSet)", (".xml", ".xml.gz"), "relx.io.pubmed:read_pubmed"),
    Format("jats", "JATS/NLM XML full text (PMC OA .nxml, Europe PMC, eLife, bioRxiv)",
           (".nxml", ".nxml.gz", ".xml", ".xml.gz"), "relx.io.jats:read_jats",
           options=("table_cells",)),
    Format("pmc-package", "PMC OA package or bulk archive (.tar.gz of .nxml, or of a .pdf)",
           (".tar.gz", ".tgz"), "relx.io.jats:read_pmc_package", options=READER_OPTIONS),
    Format("pdf", "PDF with a text layer (papers: columns, sections, page boxes)", (".pdf",),
           "relx.io.pdf:read_pdf", options=("max_pages", "max_seconds")),
    Format("bioc", "BioC XML", (".xml", ".xml.gz"),
           "relx.io.bioc:read_bioc", "relx.io.bioc:write_bioc", {"fmt": "xml"},
           parts={"documents": "relx.io.bioc:write_bioc_part",
                  "event_documents": "relx.io.bioc:write_bioc_events_part"},
           join="relx.io.bioc:join_bioc", part_file="docs.xml", output="bioc/{key}.xml",
           bad_id=_XML_BAD_ID, mentions=True),
    Format("bioc-json", "BioC JSON", (".json", ".json.gz"),
           "relx.io.bioc:read_bioc_json", "relx.io.bioc:write_bioc", {"fmt": "json"},
           mentions=True),
    Format("pubtator", "PubTator (PMID|t|, PMID|a|, annotation and relation lines)",
           (".pubtator", ".pubtator.gz", ".txt"),
           "relx.io.pubtator:read_pubtator", "relx.io.pubtator:write_pubtator",
           parts={"documents": "relx.io.pubtator:write_pubtator"}, join=_CONCAT,
           part_file="docs.pubtator", output="pubtator/{key}.pubtator", bad_id="[|\t\r\n]",
           mentions=True),
    Format("jsonl", "relx JSONL (one Document per line; batch outputs: one record per line)",
           (".jsonl", ".jsonl.gz"), "relx.io.jsonl:read_jsonl", "relx.io.jsonl:write_jsonl",
           parts={"relations": _RECORDS, "events": _RECORDS}, join=_CONCAT,
           part_file="found.jsonl", output="jsonl/{key}.jsonl",
           stream="relx.io.jsonl:write_document_line", mentions=True),
    Format("conllu", "CoNLL-U dependency parses (relx.io.conllu; written only)", (".conllu",),
           stream="relx.io.conllu:write_conllu"),
    Format("penman", "AMR-style sentence graphs in PENMAN notation (relx.io.amr; written "
           "only)", (".penman", ".amr"), stream="relx.io.amr:write_penman"),
    Format("amr-json", "AMR-style sentence graphs as JSON lines (relx.io.amr; written only)",
           (), stream="relx.io.amr:write_amr_json"),
    Format("txt", "plain UTF-8 text, one document per file", (".txt",),
           "relx.io.plaintext:read_plaintext"),
    Format("standoff", "BioNLP-ST standoff (.txt with .a1 proteins, .a2 events)", (".txt",),
           "relx.io.standoff:read_standoff_file", mentions=True),
    Format("tsv", "relations as TSV, one row per relation (relx.io.tsv; written only)",
           (".tsv",), parts={"relations": "relx.io.tsv:write_tsv_part"},
           join="relx.io.tsv:join_tsv", part_file="found.tsv", output="tsv/{key}.tsv"),
    Format("brat", "brat collection folders with annotation.conf (relx.io.brat; written only)",
           (), parts={"documents": "relx.io.brat:write_brat",
                      "event_documents": "relx.io.brat:write_brat_events"},
           join="relx.io.brat:join_brat", part_file="brat", output="brat/{key}"),
    Format("indra", "INDRA Statements, a JSON list (relx.io.indra; written only)", (".json",),
           None, "relx.io.indra:write_indra",
           parts={"relations": "relx.io.indra:write_indra_part"},
           join="relx.io.indra:join_indra", part_file="statements.json",
           output="indra/{key}.json"),
)}

_XML_ROOTS = {"corpus": "ppi-xml", "PubmedArticleSet": "pubmed",
              "PubmedBookArticleSet": "pubmed", "MedlineCitationSet": "pubmed",
              "collection": "bioc", "article": "jats", "pmc-articleset": "jats"}
_PUBTATOR = re.compile(rb"^[^|\t\r\n]+\|[ta]\|")
_SNIFF = 1 << 16


def load_spec(spec: str) -> Callable[..., Any]:
    """The function a ``module:function`` spec of the table names (imported now)."""
    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func)


def _head(path: Path, n: int = _SNIFF) -> bytes:
    with open_binary(path) as fh:
        return fh.read(n)


def _xml_root(path: Path) -> str:
    try:
        with open_binary(path) as fh:
            for _, el in etree.iterparse(fh, events=("start",), resolve_entities=False,
                                         no_network=True, load_dtd=False, huge_tree=False):
                return etree.QName(el).localname
    except etree.XMLSyntaxError as exc:
        raise ReaderError(path, f"line {exc.lineno}", f"not well-formed XML: {exc.msg}") from None
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    raise ReaderError(path, "file", "no XML element found")


def suffix(path: Path) -> str:
    """``.xml``, ``.xml.gz``...: the last suffix, with the one before it for ``.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz" and len(suffixes) > 1:
        return "".join(suffixes[-2:])
    return suffixes[-1] if suffixes else ""


def detect_format(path: str | Path) -> str:
    """The registered format name of ``path``, from its extension and first bytes."""
    path = Path(path)
    if not path.is_file():
        raise ReaderError(path, "file", "no such file")
    ext = suffix(path)
    if ext in (".xml", ".xml.gz", ".nxml", ".nxml.gz"):
        root = _xml_root(path)
        if root not in _XML_ROOTS:
            raise ReaderError(path, "root element", f"unknown XML format <{root}>; expected "
                              "<corpus> (PPI), <PubmedArticleSet> or <MedlineCitationSet> "
                              "(PubMed), <collection> (BioC) or <article> (JATS)")
        return _XML_ROOTS[root]
    if ext == ".pdf":
        return "pdf"
    if ext in (".tar.gz", ".tgz"):
        return "pmc-package"
    if ext in (".json", ".json.gz"):
        head = _head(path, 1 << 20)
        if head.lstrip()[:1] in (b"{", b"[") and (b'"documents"' in head or b'"passages"' in head):
            return "bioc-json"
        raise ReaderError(path, "file", "unknown JSON format (expected BioC JSON)")
    if ext in (".jsonl", ".jsonl.gz"):
        return "jsonl"
    if ext in (".pubtator", ".pubtator.gz"):
        return "pubtator"
    if ext == ".txt":
        if path.with_suffix(".a1").exists():
            return "standoff"
        first = next((ln for ln in _head(path).splitlines() if ln.strip()), b"")
        return "pubtator" if _PUBTATOR.match(first) else "txt"
    if not ext:                       # a spooled stream, a file without a suffix
        return _sniff(path)
    readable = sorted(n for n, f in FORMATS.items() if f.reader)
    raise ReaderError(path, "file", f"cannot tell the format from {ext!r}; "
                                    f"pass one of {readable}")


def _sniff(path: Path) -> str:
    """The format of a file without a suffix, from its first bytes alone."""
    head = _head(path)
    text = head.lstrip()
    if head.startswith(b"%PDF"):
        return "pdf"
    if text[:1] == b"<":
        root = _xml_root(path)
        if root in _XML_ROOTS:
            return _XML_ROOTS[root]
        raise ReaderError(path, "root element", f"unknown XML format <{root}>")
    if text[:1] in (b"{", b"["):
        if b'"documents"' in head or b'"passages"' in head:
            return "bioc-json"
        return "jsonl"
    first = next((ln for ln in head.splitlines() if ln.strip()), b"")
    if _PUBTATOR.match(first):
        return "pubtator"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(head) - exc.start > 4:     # not just a character cut at the sniff's end
            raise ReaderError(path, "file", "not UTF-8 text and no known format; pass "
                                            "--input-format") from None
    return "txt"


def readable_suffixes() -> set[str]:
    """The file suffixes of the formats relx reads."""
    return {s for f in FORMATS.values() if f.reader for s in f.suffixes}


#: what :func:`scan` says of a hidden file (or of a file in a hidden folder)
HIDDEN = "hidden file"


def _skip_reason(p: Path, known: set[str], folder: Path | None = None) -> str | None:
    """Why the listing of ``folder`` passes over file ``p`` (None: it does not)."""
    parts = p.relative_to(folder).parts if folder is not None else (p.name,)
    if any(x.startswith(".") for x in parts):
        return HIDDEN
    if suffix(p) not in known:
        ext = suffix(p)
        return f"unknown extension {ext!r}" if ext else "no extension"
    return None


def _files(folder: Path, on_skip: Callable[[Path, str], None] | None = None
           ) -> Iterator[tuple[Path, str]]:
    known = readable_suffixes()
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        reason = _skip_reason(p, known, folder)
        if reason is None:
            yield p, detect_format(p)
        elif on_skip is not None:
            on_skip(p, reason)


#: annotation files read together with the ``.txt`` beside them (BioNLP-ST standoff, brat)
COMPANIONS = frozenset({".a1", ".a2", ".ann"})


def scan(folder: str | Path, *, detect: bool = True
         ) -> tuple[list[tuple[Path, str]], list[tuple[Path, str]]]:
    """The files under ``folder``, in sorted order: ``known`` ``(path, format)`` that
    :func:`read` reads, and ``skipped`` ``(path, reason)``: hidden files (and files in
    hidden folders: :data:`HIDDEN`), unknown extensions (but not the ``.a1``/``.a2``/``.ann``
    annotations of a ``.txt`` beside them), and files of a known extension
    whose content is of no known format (e.g. ``unknown XML format <html>``), which
    :func:`read` would stop at. ``detect=False``: by extension only (every format
    ``""``; for a batch whose input format is given)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReaderError(folder, "folder", "no such folder")
    known_suffixes = readable_suffixes()
    known: list[tuple[Path, str]] = []
    skipped: list[tuple[Path, str]] = []
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        if p.suffix in COMPANIONS and p.with_suffix(".txt").is_file():
            continue                 # read with its standoff .txt, not on its own
        reason = _skip_reason(p, known_suffixes, folder)
        if reason is None and not detect:
            known.append((p, ""))
            continue
        if reason is None:
            try:
                known.append((p, detect_format(p)))
                continue
            except ReaderError as exc:
                reason = f"{exc.where}: {exc.reason}"
        skipped.append((p, reason))
    return known, skipped


def read(path: str | Path, format: str | None = None,
         on_skip: Callable[[Path, str], None] | None = None,
         **options: Any) -> Iterator[Document]:
    """Read documents from a file (format detected unless given) or from every known file
    of a folder; ``options`` go to the reader (e.g. ``types=`` for BioC/PubTator;
    ``on_error=`` to be told of unreadable documents and go on with the next one); the
    paper readers' options (:data:`READER_OPTIONS`: ``max_pages``, ``max_seconds`` for
    PDFs, ``table_cells`` for JATS) go only to the readers that take them.
    ``on_skip(path, reason)``: told of each file of a folder that is not read (hidden,
    unknown extension).

    Papers come back as sectioned documents (``Document.sections``, and for PDFs
    ``layout`` and ``meta["pages"]``), unparsed: ``relx.read("paper.pdf")``."""
    path = Path(path)
    if path.is_dir():
        for p, fmt in _files(path, on_skip):
            yield from read(p, format or fmt, **options)
        return
    name = format or detect_format(path)
    if name not in FORMATS:
        raise ConfigError(f"unknown format {name!r}; choose one of {sorted(FORMATS)}")
    spec = FORMATS[name]
    try:
        reader = load_spec(spec.reader or "")
    except (ImportError, AttributeError, ValueError) as exc:
        raise ReaderError(path, "file", f"no reader for format {name!r} is installed "
                                        f"({exc})") from None
    yield from reader(path, **{k: v for k, v in options.items()
                               if k not in READER_OPTIONS or k in spec.options})


def _format_for_output(path: Path) -> str:
    by_suffix = {".jsonl": "jsonl", ".jsonl.gz": "jsonl", ".xml": "bioc", ".xml.gz": "bioc",
                 ".json": "bioc-json", ".json.gz": "bioc-json", ".pubtator": "pubtator",
                 ".pubtator.gz": "pubtator"}
    try:
        return by_suffix[suffix(path)]
    except KeyError:
        raise ConfigError(f"{path}: cannot tell the output format from the extension; "
                         f"pass one of {sorted(n for n, f in FORMATS.items() if f.writer)}") from None


def write(docs: Iterable[Document], path: str | Path, format: str | None = None) -> int:
    """Write documents atomically in ``format`` (from the extension if omitted); returns the count."""
    path = Path(path)
    name = format or _format_for_output(path)
    spec = FORMATS.get(name)
    if spec is None or spec.writer is None:
        raise ConfigError(f"no writer for format {name!r}; choose one of "
                         f"{sorted(n for n, f in FORMATS.items() if f.writer)}")
    return load_spec(spec.writer)(docs, path, **spec.writer_options)


_suffix = suffix   # the old private name
