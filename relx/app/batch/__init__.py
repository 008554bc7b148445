"""Batch extraction over many input files: local processes or a Dask cluster, resumable.

The plan of the run (:class:`relx.app.batch.plan.RunPlan`) is made once here from the
options and handed down: the engines (:mod:`.engines`) read every input as a stream and cut it into chunks of ``chunk_size``
documents (:class:`relx.app.batch.chunks.Unit`); chunks are extracted (:mod:`.worker`: the
extractor) and written (:mod:`.chunks`) independently (in this process, in ``--jobs``
worker processes or on Dask workers), each ending with a record ``.done/<key>/<chunk>.json``
(the folder's layout: :mod:`.folder`). When all chunks of an input are done its
outputs are assembled (``jsonl/<key>.jsonl``, ...) and its record ``.done/<key>.json``
written; at the end the merged ``relations.jsonl`` (``events.jsonl``), ``errors.jsonl`` and
``summary.json`` are rebuilt from the records in input order (:func:`merge_outputs`), so a
resumed batch ends with the same output as an uninterrupted one.

Resume: an input is skipped when its record exists, was not marked failed (a lost worker,
a write or memory error) and its identity matches: same size and modification time, or
else the same SHA-256 of its bytes. A changed input is redone from scratch (its old
outputs and errors dropped); a failed one redoes its failed chunks. ``.settings.json``
records what decides the outputs (task, model name/version/creation time, threshold,
parser, grounding, formats, caps); resuming into a folder written with other settings is
refused. One run per ``--out`` at a time (an ``fcntl`` lock on ``out/.lock``); leftover
temporary files are removed at start.

Errors (``errors.jsonl``) name the input, the document where known, the stage (``read``,
``extract``, ``write:<format>``, ``worker``) and the message; the batch goes on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from relx.api import single_thread  # noqa: F401 (re-export: the worker set-up)
from relx.app.batch.chunks import Unit, error, sum_records  # noqa: F401 (re-export)
from relx.app.batch.engines import Schedule, run_schedule  # noqa: F401 (re-export)
from relx.app.batch.folder import (  # noqa: F401 (re-export)
    ERRORS,
    SUMMARY,
    BatchLocked,
    batch_lock,
    check_settings,
    clear_input,
    input_identity,
    input_output,
    input_record_path,
    load_input_record,
    load_record,
    load_settings,
    remove_leftovers,
    results_path,
    same_input,
)
from relx.app.batch.plan import (  # noqa: F401 (re-export)
    CHUNK_SIZE,
    MAX_SENTENCE_PAIRS,
    MAX_SENTENCE_TOKENS,
    BatchOptions,
    RunPlan,
    check_options,
    cores,
    input_keys,
    list_inputs,
    make_plan,
)
from relx.app.batch.worker import check_model, extractor_for  # noqa: F401 (re-export)
from relx.errors import RunAborted  # noqa: F401 (re-export)
from relx.io.atomic import atomic_open, concat_files


def run_batch(files: Sequence[Path], opts: BatchOptions, *, jobs: int = 1,
              engine: str = "local", scheduler: str | None = None,
              on_done: Callable[[dict[str, Any]], None] | None = None,
              keys: Sequence[str] | None = None,
              skipped_files: Sequence[tuple[Path, str]] = ()) -> dict[str, Any]:
    """Process every input (chunk) not yet done, then merge outputs; returns the summary.

    ``on_done`` is called with each finished chunk's record (``documents``, counts...);
    ``keys``: the inputs' output names (default :func:`input_keys` of ``files``);
    ``skipped_files``: ``(path, reason)`` of the files the folder scan passed over
    (:func:`list_inputs`), listed in the summary (``files_skipped``; hidden files only
    counted), not errors.
    """
    from relx.io.source import input_limits

    check_options(opts, jobs=jobs, engine=engine, scheduler=scheduler)
    t0 = time.perf_counter()
    out = Path(opts.out)
    plan = make_plan(opts)
    check_model(plan)
    limits = {"max_input_bytes": plan.max_input_bytes} if plan.max_input_bytes else {}
    with batch_lock(out), input_limits(**limits):
        remove_leftovers(out)
        check_settings(out, plan.settings)
        keys = list(keys) if keys is not None else input_keys(list(files))
        todo = []
        for f, k in zip(files, keys, strict=True):
            rec = load_input_record(out, k)
            if rec is not None and not rec.get("failed") and same_input(f, rec.get("identity")) \
                    and rec.get("chunk_size") == plan.chunk_size:
                continue
            if rec is not None and not (same_input(f, rec.get("identity"))
                                        and rec.get("chunk_size") == plan.chunk_size):
                clear_input(out, k)       # changed: redo from scratch
            input_record_path(out, k).unlink(missing_ok=True)
            todo.append((f, k))
        skipped = len(files) - len(todo)
        try:
            run_schedule(Schedule(todo, plan), jobs=jobs, engine=engine,
                         scheduler=scheduler, on_done=on_done)
            return merge_outputs(plan, keys, seconds=time.perf_counter() - t0,
                                 skipped=skipped, skipped_files=skipped_files)
        except OSError as exc:           # disk full, a folder gone: not the inputs' fault
            where = f"{exc.filename}: " if exc.filename else ""
            raise RunAborted(f"{where}{exc.strerror or exc}") from exc


def merge_outputs(plan: RunPlan, keys: Sequence[str], *, seconds: float, skipped: int = 0,
                  skipped_files: Sequence[tuple[Path, str]] = ()) -> dict[str, Any]:
    """Rebuild ``relations.jsonl`` (``events.jsonl`` for the events task), ``errors.jsonl``
    and ``summary.json`` from the input records, in input order; the files the scan
    passed over (``skipped_files``) are listed in the summary. (The one place that writes
    the merged outputs: further merged formats go here.)"""
    from relx.io.registry import HIDDEN

    out, task, formats = plan.out, plan.task, plan.formats
    records = [load_input_record(out, k) or {"key": k, "errors": [], "documents": 0,
                                             "sentences": 0, "failed": True}
               for k in keys]
    if "jsonl" in formats:
        concat_files([input_output(out, "jsonl", k) for k in keys], results_path(out, task))
    passed = [{"file": str(p), "reason": why} for p, why in skipped_files if why != HIDDEN]
    errors = [e for r in records for e in r["errors"]]
    with atomic_open(out / ERRORS) as fh:
        for e in errors:
            fh.write(json.dumps(e) + "\n")
    summary = {"inputs": len(records), "inputs_skipped_as_done": skipped,
               **sum_records(records, task),
               "renamed_ids": sum(len(r.get("renamed_ids", ())) for r in records),
               "errors": len(errors),
               "inputs_with_errors": sorted({e["input"] for e in errors}),
               "inputs_failed": sorted(r.get("input", r["key"]) for r in records
                                       if r.get("failed")),
               "files_skipped": passed,
               "hidden_files_skipped": len(skipped_files) - len(passed),
               "truncated": sum(len(r.get("truncated", ())) for r in records),
               "inputs_truncated": sorted({t["input"] for r in records
                                           for t in r.get("truncated", ())}),
               "seconds": round(seconds, 2), "formats": list(formats)}
    if task.summary_names_task:
        summary["task"] = task.name
    settings = load_settings(out)
    summary["mentions"] = settings.get("mentions", "auto")
    if settings.get("orthologs"):
        summary["orthologs"] = settings["orthologs"]
    summary["sections"] = settings.get("sections", "default")
    summary["model"] = settings.get("model")
    summary["model_version"] = next((r["model_version"] for r in records
                                     if r.get("model_version")), settings.get("model_version"))
    if settings.get("event_model"):   # the typed pass's event model
        summary["event_model"] = settings["event_model"]
        summary["event_model_version"] = settings.get("event_model_version")
    summary.update(task.runner_().summary(out, records, settings))
    with atomic_open(out / SUMMARY) as fh:
        json.dump(summary, fh, indent=2)
    return summary

