"""One unit of batch work: a chunk of documents of one input, extracted and written alone.

A chunk is up to ``chunk_size`` consecutive readable documents of an input (the main process
reads the input and cuts it). :func:`process_chunk` extracts from a chunk, writes its
outputs under ``out/.parts/<key>/<chunk>/`` and its record ``out/.done/<key>/<chunk>.json``;
every stage is isolated: a document that cannot be extracted or written costs only itself
(an error with the input, document id, stage and message), a format that cannot hold an id
gets a safe one. When every chunk of an input is done, :func:`assemble_input` joins the
parts into the per-input outputs (``jsonl/<key>.jsonl``, ``tsv/<key>.tsv``...).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.io.atomic import atomic_open

#: per task: the counts of a record and of the summary
COUNTS = {"ppi": ("candidates", "relations"), "events": ("triggers", "events")}
TSV_COLUMNS = ("document_id", "sentence_id", "entity1", "entity1_start", "entity1_end",
               "entity1_ids", "entity2", "entity2_start", "entity2_end", "entity2_ids",
               "score", "sentence", "negated", "speculated", "probability", "threshold",
               "type", "direction", "event_score")
#: per format: the file a chunk writes in its parts folder (brat: a folder)
PART_FILES = {"jsonl": "found.jsonl", "tsv": "found.tsv", "bioc": "docs.xml",
              "pubtator": "docs.pubtator", "brat": "brat", "indra": "statements.json"}
#: per format: the per-input output, relative to ``out`` (``{key}``: the input's key)
INPUT_OUTPUTS = {"jsonl": "jsonl/{key}.jsonl", "tsv": "tsv/{key}.tsv",
                 "bioc": "bioc/{key}.xml", "pubtator": "pubtator/{key}.pubtator",
                 "brat": "brat/{key}", "indra": "indra/{key}.json"}


@dataclass
class Unit:
    """A chunk to process: input ``key``, chunk number ``index``, the documents and the
    reading errors met while they were read (plain data: it travels to workers)."""

    input: str
    key: str
    index: int
    first: int                          # the input's document number of docs[0]
    docs: list[Document]
    identity: dict[str, Any]
    read_errors: list[dict[str, str]] = field(default_factory=list)
    failed: bool = False                # reading failed in a way a rerun may not repeat


def error(input: str, document: str | None, stage: str, message: str) -> dict[str, str]:
    """One ``errors.jsonl`` entry."""
    return {"input": input, "document": document or "", "stage": stage, "error": message}


def chunk_name(index: int) -> str:
    return f"{index:05d}"


def chunk_record_path(out: Path, key: str, index: int) -> Path:
    return out / ".done" / key / f"{chunk_name(index)}.json"


def parts_dir(out: Path, key: str, index: int) -> Path:
    return out / ".parts" / key / chunk_name(index)


def empty_record(unit: Unit, task: str) -> dict[str, Any]:
    """The record of a chunk before any work."""
    return {"input": unit.input, "key": unit.key, "chunk": unit.index, "first": unit.first,
            "identity": unit.identity, "documents": 0, "sentences": 0,
            **dict.fromkeys(COUNTS[task], 0), "skipped_sentences": 0, "skipped_pairs": 0,
            "renamed_ids": [], "errors": list(unit.read_errors), "failed": unit.failed,
            "seconds": 0.0}


def write_chunk_record(out: Path, rec: dict[str, Any]) -> None:
    with atomic_open(chunk_record_path(out, rec["key"], rec["chunk"])) as fh:
        json.dump(rec, fh)


def failed_record(unit: Unit, task: str, stage: str, message: str) -> dict[str, Any]:
    """The record of a chunk whose work was lost (a worker died, twice)."""
    rec = empty_record(unit, task)
    rec["failed"] = True
    rec["errors"].append(error(unit.input, f"{len(unit.docs)} documents from #{unit.first}",
                               stage, message))
    return rec


# --------------------------------------------------------------------------- extraction

def _annotate(ex: Any, docs: list[Document], rec: dict[str, Any]) -> list[tuple]:
    """All documents in one stream; after a failure the rest one by one, so a document that
    cannot be parsed or scored costs only itself."""
    out: list[tuple] = []
    try:
        for item in ex.annotate(docs):
            out.append(item)
        return out
    except Exception:  # noqa: BLE001 - isolated below
        pass
    for d in docs[len(out):]:          # documents come out in input order
        try:
            out += list(ex.annotate([d]))
        except (Exception, MemoryError) as exc:  # noqa: BLE001
            rec["errors"].append(error(rec["input"], d.id, "extract",
                                       f"{type(exc).__name__}: {exc}"))
    return out


def process_chunk(unit: Unit, opts: Any, extractor: Callable[[Any], Any]) -> dict[str, Any]:
    """Extract from one chunk and write its parts and record; returns the record."""
    t0 = time.perf_counter()
    out = Path(opts.out)
    rec = empty_record(unit, opts.task)
    if unit.docs:
        ex = extractor(opts)
        model = getattr(ex, "model", None)
        rec["model_version"] = getattr(model, "version", None)
        if opts.task == "ppi":
            rec["threshold"] = round(float(ex.threshold), 4)   # the cut applied, as in records
        before = dict(ex.skipped)
        done = _annotate(ex, unit.docs, rec)
        after = ex.skipped
        for k in ("sentences", "pairs"):
            rec[f"skipped_{k}"] = after.get(k, 0) - before.get(k, 0)
        rec["documents"] = len(done)
        rec["sentences"] = sum(len(t[0].sentences) for t in done)
        parts = parts_dir(out, unit.key, unit.index)
        if parts.exists():
            shutil.rmtree(parts)
        if opts.task == "events":
            _write_event_parts(done, unit, opts, rec)
        else:
            found = [r for _, f, _ in done for r in f]
            rec["candidates"] = sum(n for _, _, n in done)
            rec["relations"] = len(found)
            _write_ppi_parts([d for d, _, _ in done], found, parts, opts.formats, rec)
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    write_chunk_record(out, rec)
    return rec


# --------------------------------------------------------------------------- writing

_PUBTATOR_BAD = re.compile(r"[|\t\r\n]")
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def safe_ids(docs: Sequence[Document], fmt: str, rec: dict[str, Any]) -> list[Document]:
    """``docs`` with ids the format can hold (PubTator: no ``|``, tab or line break; BioC
    XML: no control characters); each renaming is noted in ``rec["renamed_ids"]``."""
    bad = {"pubtator": _PUBTATOR_BAD, "bioc": _XML_BAD}.get(fmt)
    if bad is None:
        return list(docs)
    out = []
    for d in docs:
        if bad.search(d.id):
            new = bad.sub("_", d.id)
            rec["renamed_ids"].append({"document": d.id, "format": fmt, "written_as": new})
            d = d.model_copy(update={"id": new, "orig_id": d.orig_id or d.id})
        out.append(d)
    return out


def _bioc_with_original(doc: Document) -> Any:
    """A relx document as BioC, its original id (escaped) in an ``original_id`` infon."""
    from relx.io.bioc import to_bioc

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


def _write_format(fmt: str, items: list[Any], write: Callable[[list[Any]], None],
                  doc_id: Callable[[Any], str], rec: dict[str, Any]) -> None:
    """``write(items)``; when it fails, each item alone, so only the items the format cannot
    hold are lost (each an error of stage ``write:<fmt>``)."""
    try:
        write(items)
        return
    except OSError:
        raise
    except Exception:  # noqa: BLE001 - find the culprits below
        pass
    good = []
    for it in items:
        try:
            write([it])
            good.append(it)
        except OSError:
            raise
        except Exception as exc:  # noqa: BLE001
            rec["errors"].append(error(rec["input"], doc_id(it), f"write:{fmt}",
                                       f"{type(exc).__name__}: {exc}"))
    write(good)


def _tsv_row(r: Any) -> str:
    from relx.ids import join_ids

    clean = lambda s: str(s).replace("\t", " ").replace("\n", " ").replace("\r", " ")  # noqa: E731
    flag = lambda b: "true" if b else "false"  # noqa: E731
    num = lambda x: "" if x is None else f"{x:.4f}"  # noqa: E731
    return "\t".join(clean(x) for x in (
        r.document_id, r.sentence_id, r.entity1.text, r.entity1.start, r.entity1.end,
        join_ids(r.entity1.norm_ids), r.entity2.text, r.entity2.start, r.entity2.end,
        join_ids(r.entity2.norm_ids), f"{r.score:.4f}", r.sentence, flag(r.negated),
        flag(getattr(r, "speculated", False)), num(getattr(r, "probability", None)),
        num(getattr(r, "threshold", None)), getattr(r, "type", "Interaction"),
        getattr(r, "direction", None) or "", num(getattr(r, "event_score", None)))) + "\n"


def _write_lines(path: Path, lines: Iterable[str]) -> None:
    with atomic_open(path) as fh:
        fh.writelines(lines)


def _write_ppi_parts(docs: list[Document], rels: list[Any], parts: Path,
                     formats: Iterable[str], rec: dict[str, Any]) -> None:
    """The chunk's relation outputs in ``parts`` (one file or folder per format)."""
    for fmt in formats:
        target = parts / PART_FILES[fmt]
        try:
            if fmt == "jsonl":
                _write_format(fmt, rels, lambda xs, p=target: _write_lines(
                    p, (r.model_dump_json() + "\n" for r in xs)), lambda r: r.document_id, rec)
            elif fmt == "tsv":
                _write_format(fmt, rels, lambda xs, p=target: _write_lines(p, map(_tsv_row, xs)),
                              lambda r: r.document_id, rec)
            elif fmt == "bioc":
                from relx.io.bioc import write_bioc

                _write_format(fmt, safe_ids(docs, fmt, rec), lambda xs, p=target: write_bioc(
                    xs, p, fmt="xml", convert=_bioc_with_original), lambda d: d.id, rec)
            elif fmt == "pubtator":
                from relx.io.pubtator import write_pubtator

                _write_format(fmt, safe_ids(docs, fmt, rec),
                              lambda xs, p=target: write_pubtator(xs, p), lambda d: d.id, rec)
            elif fmt == "indra":
                from relx.io.indra import write_indra_records

                _write_format(fmt, rels, lambda xs, p=target: write_indra_records(
                    (r.model_dump() for r in xs), p), lambda r: r.document_id, rec)
            elif fmt == "brat":
                from relx.io.brat import write_brat

                _write_format(fmt, docs, lambda xs, p=target: write_brat(xs, p),
                              lambda d: d.id, rec)
        except (OSError, MemoryError) as exc:
            rec["failed"] = True
            rec["errors"].append(error(rec["input"], None, f"write:{fmt}",
                                       f"{type(exc).__name__}: {exc}"))


def claim_stem(out: Path, stem: str, owner: str) -> str:
    """A standoff file stem no other document of the batch uses: ``stem``, else ``stem-2``...

    Claims are files ``out/.claims/standoff/<stem>`` created exclusively and holding their
    owner (``<key>#<document number>``), so parallel workers never share a stem and a
    resumed chunk gets its own stems back.
    """
    folder = out / ".claims" / "standoff"
    folder.mkdir(parents=True, exist_ok=True)
    k = 1
    while True:
        name = stem if k == 1 else f"{stem}-{k}"
        path = folder / name
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if path.read_text(encoding="utf-8") == owner:
                return name
            k += 1
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(owner)
        return name


def _write_event_parts(done: list[tuple], unit: Unit, opts: Any, rec: dict[str, Any]) -> None:
    """Events: JSONL (and brat/BioC) parts, and a standoff triple per document written
    straight to ``out/standoff/`` under a claimed stem."""
    from relx.ge.extract import write_standoff_triple
    from relx.io.brat import file_stems

    out = Path(opts.out)
    parts = parts_dir(out, unit.key, unit.index)
    rec["triggers"] = sum(len(pred.triggers) for _, _, pred in done)
    rec["events"] = sum(len(evs) for _, evs, _ in done)
    number = {id(d): unit.first + i for i, d in enumerate(unit.docs)}
    try:
        _write_lines(parts / PART_FILES["jsonl"],
                     (e.model_dump_json() + "\n" for _, evs, _ in done for e in evs))
        stems = file_stems(pred.id for _, _, pred in done)
        for k, ((parsed, _, pred), stem) in enumerate(zip(done, stems, strict=True)):
            owner = f"{unit.key}#{number.get(id(parsed), unit.first + k)}"
            try:
                write_standoff_triple(pred, out / "standoff", claim_stem(out, stem, owner))
            except (ValueError, UnicodeError) as exc:
                rec["errors"].append(error(rec["input"], pred.id, "write:standoff", str(exc)))
        if "brat" in opts.formats:
            from relx.io.brat import write_brat_events

            _write_format("brat", done, lambda xs: write_brat_events(xs, parts / "brat"),
                          lambda t: t[2].id, rec)
        if "bioc" in opts.formats:
            from relx.io.bioc import events_to_bioc, write_bioc

            _write_format("bioc", done, lambda xs: write_bioc(
                xs, parts / PART_FILES["bioc"], convert=lambda t: events_to_bioc(t[0], t[2])),
                lambda t: t[2].id, rec)
    except (OSError, MemoryError) as exc:
        rec["failed"] = True
        rec["errors"].append(error(rec["input"], None, "write",
                                   f"{type(exc).__name__}: {exc}"))


# --------------------------------------------------------------------------- assembling

def _concat(parts: list[Path], target: Path, head: str = "") -> None:
    with atomic_open(target) as fh:
        fh.write(head)
        for p in parts:
            if p.exists():
                with open(p, encoding="utf-8") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)


def _join_json_lists(parts: list[Path], target: Path) -> None:
    """JSON lists (INDRA Statements) joined into one list."""
    items = [x for p in parts if p.exists() for x in json.loads(p.read_text(encoding="utf-8"))]
    with atomic_open(target) as fh:
        json.dump(items, fh)


def _join_bioc(parts: list[Path], target: Path) -> None:
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


def _join_folders(parts: list[Path], target: Path) -> None:
    """brat folders: every ``.txt``/``.ann`` pair (a stem met again gets ``-2``...)."""
    if not any(p.is_dir() for p in parts):
        return
    tmp = target.with_name(f".{target.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    used: set[str] = set()
    for p in parts:
        if not p.is_dir():
            continue
        for f in sorted(p.iterdir()):
            if f.suffix != ".ann":
                if f.name == "annotation.conf" and not (tmp / f.name).exists():
                    shutil.copy(f, tmp / f.name)
                continue
            stem, k = f.stem, 1
            while stem in used:
                k += 1
                stem = f"{f.stem}-{k}"
            used.add(stem)
            for ext in (".txt", ".ann"):
                if f.with_suffix(ext).exists():
                    shutil.copy(f.with_suffix(ext), tmp / f"{stem}{ext}")
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)


def assemble_input(out: Path, key: str, n_chunks: int, formats: Iterable[str],
                   task: str) -> None:
    """The per-input outputs from its chunks' parts (the events' standoff is written
    directly)."""
    for fmt in formats:
        if fmt not in INPUT_OUTPUTS:
            continue
        parts = [parts_dir(out, key, i) / PART_FILES[fmt] for i in range(n_chunks)]
        target = out / INPUT_OUTPUTS[fmt].format(key=key)
        if fmt == "jsonl":
            _concat(parts, target)
        elif fmt == "tsv":
            _concat(parts, target, "\t".join(TSV_COLUMNS) + "\n")
        elif fmt == "pubtator":
            _concat(parts, target)
        elif fmt == "bioc":
            _join_bioc(parts, target)
        elif fmt == "indra":
            _join_json_lists(parts, target)
        elif fmt == "brat":
            _join_folders(parts, target)
