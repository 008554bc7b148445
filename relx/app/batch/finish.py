"""Finishing: an input once all its chunks are back, and the run once every input is.

:func:`finish_input` joins the input's chunk parts into its outputs, each by its format
(``jsonl/<key>.jsonl``, ``tsv/<key>.tsv``...; :data:`relx.io.registry.FORMATS`), writes its
record ``.done/<key>.json`` and drops the parts; :func:`merge_outputs` rebuilds the merged
outputs from the input records, in input order. Both write through
:mod:`relx.app.batch.folder`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relx.app.batch.folder import (
    ERRORS,
    SUMMARY,
    drop_parts,
    input_output,
    load_input_record,
    load_settings,
    parts_dir,
    results_path,
    write_input_record,
)
from relx.app.batch.plan import RunPlan
from relx.io.atomic import atomic_open, concat_files
from relx.io.registry import FORMATS, HIDDEN, load_spec
from relx.tasks import Task

if TYPE_CHECKING:
    from relx.app.batch.engines import FinishedInput


def sum_records(records: Sequence[dict[str, Any]], task: Task) -> dict[str, int]:
    """The counts of several records added up (a whole input's, a whole batch's)."""
    return {"documents": sum(r["documents"] for r in records),
            "sentences": sum(r["sentences"] for r in records),
            **{c: sum(r.get(c, 0) for r in records) for c in task.counts},
            "skipped_sentences": sum(r.get("skipped_sentences", 0) for r in records),
            "skipped_pairs": sum(r.get("skipped_pairs", 0) for r in records),
            "documents_over_cap": sum(r.get("documents_over_cap", 0) for r in records)}


def assemble_input(out: Path, key: str, n_chunks: int,
                   writers: Sequence[tuple[str, str | None]]) -> None:
    """The per-input outputs from its chunks' parts, each joined by its format (the
    outputs a task writes per document are in place already)."""
    for fmt, kind in writers:
        spec = FORMATS.get(fmt)
        if spec is None or spec.join is None or kind is None:
            continue
        parts = [parts_dir(out, key, i) / (spec.part_file or fmt) for i in range(n_chunks)]
        load_spec(spec.joins.get(kind, spec.join))(parts, input_output(out, fmt, key))


def finish_input(plan: RunPlan, done: FinishedInput) -> None:
    """An input whose chunks are all back: its outputs assembled from the parts, its record
    written; its parts dropped unless a chunk failed (a rerun redoes only what failed)."""
    recs, out = done.records, plan.out
    failed = any(r.get("failed") for r in recs)
    assemble_input(out, done.key, len(recs), plan.writers)
    record = {"input": str(done.path), "key": done.key, "identity": done.identity,
              "settings": plan.settings, "chunk_size": plan.chunk_size,
              "chunks": len(recs),
              **sum_records(recs, plan.task),
              "renamed_ids": [x for r in recs for x in r.get("renamed_ids", ())],
              "truncated": [x for r in recs for x in r.get("truncated", ())],
              "errors": [e for r in recs for e in r["errors"]], "failed": failed,
              **{k: next((r[k] for r in recs if r.get(k) is not None), None)
                 for k in ("model_version", "threshold")},
              "seconds": round(sum(r.get("seconds", 0.0) for r in recs), 3)}
    write_input_record(out, record)
    if not failed:
        drop_parts(out, done.key)


def merge_outputs(plan: RunPlan, keys: Sequence[str], *, seconds: float, skipped: int = 0,
                  skipped_files: Sequence[tuple[Path, str]] = ()) -> dict[str, Any]:
    """Rebuild ``relations.jsonl`` (``events.jsonl`` for the events task), ``errors.jsonl``
    and ``summary.json`` from the input records, in input order; the files the scan
    passed over (``skipped_files``) are listed in the summary. (The one place that writes
    the merged outputs: further merged formats go here.)"""
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
    if settings.get("pair_typer"):    # ... and its pair typer (task ppi)
        summary["pair_typer"] = settings["pair_typer"]
        summary["pair_typer_version"] = settings.get("pair_typer_version")
    summary.update(task.runner_().summary(out, records, settings))
    with atomic_open(out / SUMMARY) as fh:
        json.dump(summary, fh, indent=2)
    return summary

