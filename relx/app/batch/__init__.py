"""Batch extraction over many input files: local processes or a Dask cluster, resumable.

The plan of the run (:class:`relx.app.batch.plan.RunPlan`) is made once here from the
options and walks the package's modules once, one way (each imports only those before it,
``tests/test_layout.py`` checks): :mod:`.plan` makes and checks it; :mod:`.folder` (the
output folder's layout: lock, settings, records, parts, claims; it never sees the plan)
says which inputs are to do; :mod:`.engines` reads every input as a stream, cuts it into
chunks of ``chunk_size`` documents (:class:`relx.app.batch.plan.Unit`) and runs them (in
this process, in ``--jobs`` worker processes or on Dask workers) with :mod:`.worker` (the
extractor), which hands each to :mod:`.chunks` (extract, write its parts and its record
``.done/<key>/<chunk>.json``); the engines yield each input whose chunks are all back and
:mod:`.finish` assembles its outputs (``jsonl/<key>.jsonl``, ...) and writes its record
``.done/<key>.json``; at the end :func:`merge_outputs` (:mod:`.finish`) rebuilds the merged
``relations.jsonl`` (``events.jsonl``), ``errors.jsonl`` and ``summary.json`` from the
records in input order, so a resumed batch ends with the same output as an uninterrupted
one.

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

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from relx.api import single_thread  # noqa: F401 (re-export: the worker set-up)
from relx.app.batch.chunks import process_chunk  # noqa: F401 (re-export)
from relx.app.batch.engines import (  # noqa: F401 (re-export)
    FinishedInput,
    Schedule,
    mentions_for,
    run_schedule,
)
from relx.app.batch.finish import (  # noqa: F401 (re-export)
    finish_input,
    merge_outputs,
    sum_records,
)
from relx.app.batch.folder import (  # noqa: F401 (re-export)
    ERRORS,
    SUMMARY,
    BatchLocked,
    batch_lock,
    check_settings,
    clear_input,
    error,
    input_identity,
    input_output,
    input_record_path,
    inputs_to_do,
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
    Unit,
    check_model,
    check_options,
    cores,
    input_keys,
    list_inputs,
    make_plan,
)
from relx.app.batch.worker import extractor_for, run_chunk  # noqa: F401 (re-export)
from relx.errors import RunAborted


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
    plan = make_plan(opts)
    check_model(plan)
    out = plan.out
    limits = {"max_input_bytes": plan.max_input_bytes} if plan.max_input_bytes else {}
    with batch_lock(out), input_limits(**limits):
        remove_leftovers(out)
        check_settings(out, plan.settings)
        keys = list(keys) if keys is not None else input_keys(list(files))
        todo = inputs_to_do(out, files, keys, plan.chunk_size)
        try:
            finished = run_schedule(Schedule(todo, plan), jobs=jobs, engine=engine,
                                    scheduler=scheduler, on_done=on_done)
            try:
                for done in finished:
                    finish_input(plan, done)
            finally:
                finished.close()         # an error above: the engine's workers stop now
            return merge_outputs(plan, keys, seconds=time.perf_counter() - t0,
                                 skipped=len(files) - len(todo), skipped_files=skipped_files)
        except OSError as exc:           # disk full, a folder gone: not the inputs' fault
            where = f"{exc.filename}: " if exc.filename else ""
            raise RunAborted(f"{where}{exc.strerror or exc}") from exc
