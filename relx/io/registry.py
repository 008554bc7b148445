"""Format registry: detect a file's format, read any supported file, write documents.

``read(path)`` works on a file or a folder (every file of a known format under it, in
sorted order; :func:`scan` also says which files are skipped and why). Readers and writers are imported on first use, so optional libraries (e.g.
``bioc``) are only needed for their own format.

Every format decision goes through :data:`FORMATS`: a row names its file suffixes, the
XML root elements or content test that tell it from the formats sharing a suffix, the
files read beside it, and what reads and writes it. :func:`detect_format` tries the rows
in table order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.errors import ConfigError
from relx.io.errors import ReaderError
from relx.io.sniff import Sample, is_bioc_json, is_json, is_pdf, is_pubtator, is_text


@dataclass(frozen=True)
class Format:
    """A registered format: how its files are told apart, and ``module:function`` names of
    what reads and writes it.

    Detection: ``suffixes``: the file names it is read from; ``xml_roots``: the XML root
    elements that say it (an XML format); ``sniff``: its content test (a
    :class:`relx.io.sniff.Sample` -> bool), used among the formats sharing a suffix and
    for a file without a suffix; ``by_suffix``: the suffixes that say it without a test;
    ``companions``: the annotation files beside its file (the first one must be there:
    a ``.txt`` with an ``.a1`` is standoff). ``write_suffixes``: the output names
    :func:`write` gives it.

    ``reader``: a file -> its documents (``on_error=`` for per-document errors);
    ``options``: the reader options only some readers take (:func:`read` hands them to
    the rows naming them); ``writer``: documents -> one file (:func:`write`); ``parts``:
    per item kind (see :data:`ITEM_KINDS`), the function writing a batch chunk's items to
    ``part_file``; ``join``: the chunks' parts -> the per-input output ``output``
    (``{key}``: the input's key), ``joins`` per item kind when it differs; ``bad_id``: characters a document id cannot hold in this
    format (the batch renames such documents and notes it); ``stream``: one parsed
    document -> an open text stream (``relx parse --format``); ``mentions``: its documents
    carry their own entity mentions (``relx extract --mentions auto`` uses them, and only
    them).
    """

    name: str
    description: str
    suffixes: tuple[str, ...]
    reader: str | None = None
    writer: str | None = None
    writer_options: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)
    join: str | None = None
    joins: dict[str, str] = field(default_factory=dict)
    part_file: str | None = None
    output: str | None = None
    bad_id: str | None = None
    stream: str | None = None
    mentions: bool = False
    options: tuple[str, ...] = ()
    xml_roots: tuple[str, ...] = ()
    sniff: Callable[[Sample], bool] | None = None
    by_suffix: tuple[str, ...] = ()
    companions: tuple[str, ...] = ()
    write_suffixes: tuple[str, ...] = ()

    @property
    def annotation_file(self) -> bool:
        """Its documents' mentions come from an annotation file that must be beside the
        text (standoff ``.a1``): every document is annotated, an empty file meaning no
        mentions (not "not annotated", as a PubTator abstract without annotation lines is)."""
        return self.mentions and bool(self.companions)

    def confirms(self, ext: str, sample: Sample) -> bool:
        """Whether a file of suffix ``ext`` (one of :attr:`suffixes`) is of this format."""
        if ext in self.by_suffix:
            return True
        if self.companions:
            return sample.path.with_suffix(self.companions[0]).exists()
        if self.xml_roots:
            return sample.root() in self.xml_roots
        return self.sniff is None or self.sniff(sample)


#: reader options of the paper readers: :func:`read` gives each reader those its
#: ``Format.options`` name (a folder mixes PDFs, JATS and abstracts)
READER_OPTIONS = ("max_pages", "max_seconds", "table_cells")


#: item kinds a task hands to output formats, and how each names its document
ITEM_KINDS: dict[str, Callable[[Any], str]] = {
    "relations": lambda r: r.document_id,     # relx.ppi.extract.ExtractedRelation
    "events": lambda e: e.document_id,        # relx.ge.extract.ExtractedEvent
    "gene_relations": lambda r: r.document_id,  # relx.ppi.gene_relations.GeneRelation
    "gene_documents": lambda t: t[0].id,      # (annotated Document, its GeneRelations)
    "documents": lambda d: d.id,              # annotated relx.doc.Document
    "event_documents": lambda t: t[2].id,     # (parsed Document, events, StandoffDocument)
}

_CONCAT = "relx.io.atomic:concat_files"
_RECORDS = "relx.io.jsonl:write_records_part"
_XML_BAD_ID = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]"
_XML = (".xml", ".xml.gz", ".nxml", ".nxml.gz")   # an XML format is told by its root

FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("ppi-xml", "PPI learning-format XML (AIMed, BioInfer, ...)", _XML,
           "relx.io.ppi_xml:read_ppi_xml", mentions=True, options=("parse",),
           xml_roots=("corpus",)),
    Format("pubmed", "PubMed/MEDLINE XML (PubmedArticleSet, PubmedBookArticleSet, "
           "MedlineCitationSet)", _XML, "relx.io.pubmed:read_pubmed",
           xml_roots=("PubmedArticleSet", "PubmedBookArticleSet", "MedlineCitationSet")),
    Format("jats", "JATS/NLM XML full text (PMC OA .nxml, Europe PMC, eLife, bioRxiv)",
           _XML, "relx.io.jats:read_jats", options=("table_cells",),
           xml_roots=("article", "pmc-articleset")),
    Format("pmc-package", "PMC OA package or bulk archive (.tar.gz of .nxml, or of a .pdf)",
           (".tar.gz", ".tgz"), "relx.io.jats:read_pmc_package", options=READER_OPTIONS),
    Format("pdf", "PDF with a text layer (papers: columns, sections, page boxes)", (".pdf",),
           "relx.io.pdf:read_pdf", options=("max_pages", "max_seconds"), sniff=is_pdf,
           by_suffix=(".pdf",)),
    Format("bioc", "BioC XML", _XML,
           "relx.io.bioc:read_bioc", "relx.io.bioc:write_bioc", {"fmt": "xml"},
           parts={"documents": "relx.io.bioc:write_bioc_part",
                  "event_documents": "relx.io.bioc:write_bioc_events_part",
                  "gene_documents": "relx.io.bioc_genes:write_bioc_gene_part"},
           join="relx.io.bioc:join_bioc", part_file="docs.xml", output="bioc/{key}.xml",
           bad_id=_XML_BAD_ID, mentions=True, xml_roots=("collection",),
           write_suffixes=(".xml", ".xml.gz")),
    Format("bioc-json", "BioC JSON", (".json", ".json.gz"),
           "relx.io.bioc:read_bioc_json", "relx.io.bioc:write_bioc", {"fmt": "json"},
           mentions=True, sniff=is_bioc_json, write_suffixes=(".json", ".json.gz")),
    Format("jsonl", "relx JSONL (one Document per line; batch outputs: one record per line)",
           (".jsonl", ".jsonl.gz"), "relx.io.jsonl:read_jsonl", "relx.io.jsonl:write_jsonl",
           parts={"relations": _RECORDS, "events": _RECORDS, "gene_relations": _RECORDS},
           join=_CONCAT,
           part_file="found.jsonl", output="jsonl/{key}.jsonl",
           stream="relx.io.jsonl:write_document_line", mentions=True, sniff=is_json,
           by_suffix=(".jsonl", ".jsonl.gz"), write_suffixes=(".jsonl", ".jsonl.gz")),
    Format("standoff", "BioNLP-ST standoff (.txt with .a1 proteins, .a2 events; written "
           "per document by --task events)", (".txt",),
           "relx.io.standoff:read_standoff_file", mentions=True, companions=(".a1", ".a2")),
    Format("pubtator", "PubTator (PMID|t|, PMID|a|, annotation and relation lines)",
           (".pubtator", ".pubtator.gz", ".txt"),
           "relx.io.pubtator:read_pubtator", "relx.io.pubtator:write_pubtator",
           parts={"documents": "relx.io.pubtator:write_pubtator",
                  "gene_documents": "relx.io.pubtator:write_gene_pubtator"}, join=_CONCAT,
           part_file="docs.pubtator", output="pubtator/{key}.pubtator", bad_id="[|\t\r\n]",
           mentions=True, sniff=is_pubtator, by_suffix=(".pubtator", ".pubtator.gz"),
           write_suffixes=(".pubtator", ".pubtator.gz")),
    Format("conllu", "CoNLL-U dependency parses (relx.io.conllu; written only)", (".conllu",),
           stream="relx.io.conllu:write_conllu"),
    Format("penman", "AMR-style sentence graphs in PENMAN notation (relx.io.amr; written "
           "only)", (".penman", ".amr"), stream="relx.io.amr:write_penman"),
    Format("amr-json", "AMR-style sentence graphs as JSON lines (relx.io.amr; written only)",
           (), stream="relx.io.amr:write_amr_json"),
    Format("txt", "plain UTF-8 text, one document per file", (".txt",),
           "relx.io.plaintext:read_plaintext", sniff=is_text, by_suffix=(".txt",)),
    Format("tsv", "relations as TSV, one row per relation (relx.io.tsv; written only)",
           (".tsv",), parts={"relations": "relx.io.tsv:write_tsv_part",
                             "gene_relations": "relx.io.tsv:write_gene_tsv_part"},
           join="relx.io.tsv:join_tsv", part_file="found.tsv", output="tsv/{key}.tsv",
           joins={"gene_relations": "relx.io.tsv:join_gene_tsv"}),
    Format("brat", "brat collection folders with annotation.conf (relx.io.brat, relx.io.brat_genes; "
           "written only)",
           (".txt",), parts={"documents": "relx.io.brat:write_brat",
                             "event_documents": "relx.io.brat:write_brat_events",
                             "gene_documents": "relx.io.brat_genes:write_brat_gene_relations"},
           join="relx.io.brat:join_brat", part_file="brat", output="brat/{key}",
           companions=(".ann",)),
    Format("indra", "INDRA Statements, a JSON list (relx.io.indra; written only)", (".json",),
           None, "relx.io.indra:write_indra",
           parts={"relations": "relx.io.indra:write_indra_part",
                  "gene_relations": "relx.io.indra:write_gene_indra_part"},
           join="relx.io.indra:join_indra", part_file="statements.json",
           output="indra/{key}.json"),
)}

#: options some readers take: :func:`read` gives each only to the rows naming it
ROW_OPTIONS = frozenset(o for f in FORMATS.values() for o in f.options)
#: annotation files read (or written) with the file beside them (standoff ``.a1``/``.a2``,
#: brat ``.ann``)
COMPANIONS = frozenset(c for f in FORMATS.values() for c in f.companions)


def load_spec(spec: str) -> Callable[..., Any]:
    """The function a ``module:function`` spec of the table names (imported now)."""
    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func)


def suffix(path: Path) -> str:
    """``.xml``, ``.xml.gz``...: the last suffix, with the one before it for ``.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz" and len(suffixes) > 1:
        return "".join(suffixes[-2:])
    return suffixes[-1] if suffixes else ""


def readable() -> list[str]:
    """The names of the formats relx reads, sorted."""
    return sorted(n for n, f in FORMATS.items() if f.reader)


def detect_format(path: str | Path) -> str:
    """The registered format name of ``path``: the first row (in table order) of a reader
    whose suffixes name it and whose test confirms it; from the content alone for a file
    without a suffix."""
    path = Path(path)
    if not path.is_file():
        raise ReaderError(path, "file", "no such file")
    sample, ext = Sample(path), suffix(path)
    if not ext:                       # a spooled stream, a file without a suffix
        return _by_content(sample)
    rows = [f for f in FORMATS.values() if f.reader and ext in f.suffixes]
    if not rows:
        raise ReaderError(path, "file", f"cannot tell the format from {ext!r}; "
                                        f"pass one of {readable()}")
    for f in rows:
        if f.confirms(ext, sample):
            return f.name
    xml = [f for f in rows if f.xml_roots]
    if xml:
        expected = ", ".join(f"{' or '.join(f'<{r}>' for r in f.xml_roots)} ({f.name})"
                             for f in xml)
        raise ReaderError(path, "root element",
                          f"unknown XML format <{sample.root()}>; expected {expected}")
    kind = ext.split(".")[1].upper()
    raise ReaderError(path, "file", f"unknown {kind} format (expected "
                                    f"{' or '.join(f.name for f in rows)})")


def sniff(path: str | Path) -> str | None:
    """The format the content of ``path`` alone says (its suffix aside): the row of its XML
    root, else the first row (in table order) whose content test passes; None when none
    does. Not well-formed XML raises a :class:`ReaderError`."""
    return _sniffed(Sample(Path(path)))


def _sniffed(sample: Sample) -> str | None:
    if sample.is_xml():
        root = sample.root()
        return next((f.name for f in FORMATS.values() if f.reader and root in f.xml_roots),
                    None)
    return next((f.name for f in FORMATS.values()
                 if f.reader and f.sniff is not None and not f.companions and f.sniff(sample)),
                None)


def _by_content(sample: Sample) -> str:
    """The format of a file without a suffix (:func:`sniff`), else why there is none."""
    name = _sniffed(sample)
    if name is not None:
        return name
    if sample.is_xml():
        raise ReaderError(sample.path, "root element", f"unknown XML format <{sample.root()}>")
    raise ReaderError(sample.path, "file", "not UTF-8 text and no known format; pass "
                                           "--input-format")


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


def _is_companion(p: Path) -> bool:
    """Whether ``p`` is an annotation file of a format's file beside it (an ``.a1`` of a
    ``.txt``), read with that file rather than on its own."""
    return any(p.suffix in f.companions and any(p.with_suffix(s).is_file() for s in f.suffixes)
               for f in FORMATS.values())


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


def scan(folder: str | Path, *, detect: bool = True
         ) -> tuple[list[tuple[Path, str]], list[tuple[Path, str]]]:
    """The files under ``folder``, in sorted order: ``known`` ``(path, format)`` that
    :func:`read` reads, and ``skipped`` ``(path, reason)``: hidden files (and files in
    hidden folders: :data:`HIDDEN`), unknown extensions (but not the :data:`COMPANIONS`
    annotations of a file beside them, e.g. the ``.a1``/``.a2`` of a ``.txt``), and files
    of a known extension whose content is of no known format (e.g. ``unknown XML format
    <html>``), which :func:`read` would stop at. ``detect=False``: by extension only
    (every format ``""``; for a batch whose input format is given)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReaderError(folder, "folder", "no such folder")
    known_suffixes = readable_suffixes()
    known: list[tuple[Path, str]] = []
    skipped: list[tuple[Path, str]] = []
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        if p.suffix in COMPANIONS and _is_companion(p):
            continue                 # read with the file beside it, not on its own
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
    options only some readers take (:data:`ROW_OPTIONS`: the paper readers'
    :data:`READER_OPTIONS`, ``max_pages``, ``max_seconds`` for PDFs, ``table_cells`` for
    JATS; ``parse`` for PPI XML) go only to the readers whose row names them.
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
                               if k not in ROW_OPTIONS or k in spec.options})


def writable() -> list[str]:
    """The names of the formats :func:`write` writes, sorted."""
    return sorted(n for n, f in FORMATS.items() if f.writer)


def _format_for_output(path: Path) -> str:
    ext = suffix(path)
    name = next((f.name for f in FORMATS.values() if f.writer and ext in f.write_suffixes),
                None)
    if name is None:
        raise ConfigError(f"{path}: cannot tell the output format from the extension; "
                          f"pass one of {writable()}")
    return name


def write(docs: Iterable[Document], path: str | Path, format: str | None = None) -> int:
    """Write documents atomically in ``format`` (from the extension if omitted); returns the count."""
    path = Path(path)
    name = format or _format_for_output(path)
    spec = FORMATS.get(name)
    if spec is None or spec.writer is None:
        raise ConfigError(f"no writer for format {name!r}; choose one of {writable()}")
    return load_spec(spec.writer)(docs, path, **spec.writer_options)
