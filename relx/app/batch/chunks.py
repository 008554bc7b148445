"""One unit of batch work: a chunk of documents of one input, extracted and written alone.

A chunk is up to ``chunk_size`` consecutive readable documents of an input (the engines read
the input and cut it; :class:`relx.app.batch.plan.Unit`). :func:`process_chunk` extracts
from a chunk with the worker's extractor (:mod:`relx.app.batch.worker`), writes its outputs
under its parts folder and its record (:mod:`relx.app.batch.folder`); every stage is
isolated: a document that cannot be extracted or written costs only itself (an error with
the input, document id, stage and message), a format that cannot hold an id gets a safe
one. The parts are joined into an input's outputs when all its chunks are back
(:mod:`relx.app.batch.finish`).
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from relx.app.batch.folder import (
    claim_stem,
    empty_record,
    error,
    out_of_space,
    parts_dir,
    write_chunk_record,
)
from relx.app.batch.plan import RunPlan, Unit
from relx.doc import Document
from relx.doc_limits import DocumentLimitError
from relx.io.registry import FORMATS, ITEM_KINDS, load_spec

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
            if isinstance(exc, DocumentLimitError):   # the document's own size or time
                rec["documents_over_cap"] = rec.get("documents_over_cap", 0) + 1
            rec["errors"].append(error(rec["input"], d.id, "extract",
                                       f"{type(exc).__name__}: {exc}"))
    return out


def process_chunk(unit: Unit, plan: RunPlan, ex: Any, *, started: float | None = None
                  ) -> dict[str, Any]:
    """Extract from one chunk with extractor ``ex`` (None for a chunk without documents)
    and write its parts and record; returns the record (its ``seconds`` counted from
    ``started``, a ``time.perf_counter()``, default now)."""
    t0 = time.perf_counter() if started is None else started
    out = plan.out
    task = plan.task
    rec = empty_record(unit, task)
    if unit.docs:
        ex.mentions = unit.mentions
        runner = task.runner_()
        model = getattr(ex, "model", None)
        rec["model_version"] = getattr(model, "version", None)
        rec.update(runner.record(ex))
        before = dict(ex.skipped)
        done = _annotate(ex, unit.docs, rec)
        after = ex.skipped
        for k in ("sentences", "pairs"):
            rec[f"skipped_{k}"] = after.get(k, 0) - before.get(k, 0)
        rec["documents"] = len(done)
        if not done and len(unit.docs) > 1 and not rec.get("documents_over_cap"):
            # every document failed: more likely the run's fault (a pipeline, memory) than
            # each input's; failed chunks are redone on the next run
            rec["failed"] = True
        rec["sentences"] = sum(len(t[0].sentences) for t in done)
        rec.update(runner.counts(done))
        parts = parts_dir(out, unit.key, unit.index)
        if parts.exists():
            shutil.rmtree(parts)
        write_parts(runner.items(done), parts, plan.writers, rec)
        number = {id(d): unit.first + i for i, d in enumerate(unit.docs)}

        def owner(k: int) -> str:
            return f"{unit.key}#{number.get(id(done[k][0]), unit.first + k)}"

        try:
            runner.write_direct(done, out, owner, claim_stem, lambda doc, stage, msg:
                                rec["errors"].append(error(rec["input"], doc, stage, msg)))
        except (OSError, MemoryError) as exc:
            if out_of_space(exc):
                raise
            rec["failed"] = True
            rec["errors"].append(error(rec["input"], None, "write",
                                       f"{type(exc).__name__}: {exc}"))
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    write_chunk_record(out, rec)
    return rec


# --------------------------------------------------------------------------- writing

def safe_ids(docs: Sequence[Document], fmt: str, rec: dict[str, Any]) -> list[Document]:
    """``docs`` with ids the format can hold (PubTator: no ``|``, tab or line break; BioC
    XML: no control characters); each renaming is noted in ``rec["renamed_ids"]``."""
    pattern = FORMATS[fmt].bad_id
    if pattern is None:
        return list(docs)
    bad = re.compile(pattern)
    out = []
    for d in docs:
        if bad.search(d.id):
            new = bad.sub("_", d.id)
            rec["renamed_ids"].append({"document": d.id, "format": fmt, "written_as": new})
            d = d.model_copy(update={"id": new, "orig_id": d.orig_id or d.id})
        out.append(d)
    return out


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


def write_parts(items: dict[str, list[Any]], parts: Path,
                writers: Iterable[tuple[str, str | None]], rec: dict[str, Any]) -> None:
    """The chunk's outputs in ``parts``: each format gets the ``items`` of its kind
    (:data:`relx.io.registry.ITEM_KINDS`; ``writers``: :attr:`RunPlan.writers`) and writes
    one file or folder."""
    for fmt, kind in writers:
        if kind is None:               # written per document by the task (standoff)
            continue
        spec = FORMATS[fmt]
        write_part = load_spec(spec.parts[kind])
        target = parts / (spec.part_file or fmt)
        xs = items[kind]
        if kind == "documents":
            xs = safe_ids(xs, fmt, rec)
        elif kind == "gene_documents":
            xs = list(zip(safe_ids([d for d, _ in xs], fmt, rec), [r for _, r in xs],
                          strict=True))
        try:
            _write_format(fmt, xs, lambda ys, w=write_part, p=target: w(ys, p),
                          ITEM_KINDS[kind], rec)
        except (OSError, MemoryError) as exc:
            if out_of_space(exc):
                raise
            rec["failed"] = True
            rec["errors"].append(error(rec["input"], None, f"write:{fmt}",
                                       f"{type(exc).__name__}: {exc}"))
