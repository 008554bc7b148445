"""A batch worker's side of a chunk: its one extractor (per process, per Dask worker) and
the chunk run with it (:func:`run_chunk`, in whichever process the engine runs it)."""

from __future__ import annotations

import time
from typing import Any

from relx.api import settle_heap, single_thread, warm_up
from relx.app.batch.chunks import process_chunk
from relx.app.batch.plan import RunPlan, Unit
from relx.errors import ModelError, RelxError

_EXTRACTORS: dict[tuple, Any] = {}
_ONE_THREAD = False
_CHUNKS_RUN = 0     # chunks this process has run with an extractor


def one_compute_thread() -> None:
    """This worker process computes on one thread (:func:`relx.api.single_thread`, once)."""
    global _ONE_THREAD
    if not _ONE_THREAD:
        single_thread()
        _ONE_THREAD = True


def extractor_for(plan: RunPlan) -> Any:
    """One extractor per process (and per Dask worker), loaded on first use, with the
    per-sentence caps of ``plan``; a model that cannot be loaded is a :class:`ModelError`
    naming it."""
    task = plan.task
    options = plan.extractor
    k = (task.name, plan.model, *sorted(options.items()))
    if k not in _EXTRACTORS:
        try:
            ex = task.load(plan.model, warm_up=False, **options)
        except ModelError:
            raise
        except RelxError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged model: say which and what to do
            raise ModelError(f"cannot load the {task.model_kind} "
                             f"{plan.model or task.default_model}: {type(exc).__name__}: "
                             f"{exc}; reinstall or retrain it") from exc
        _EXTRACTORS[k] = ex
        settle_heap()   # this process is relx's own: what loading left, frozen now
    ex = _EXTRACTORS[k]
    ex.max_sentence_tokens = plan.max_sentence_tokens
    ex.max_sentence_pairs = plan.max_sentence_pairs
    return ex


def run_chunk(unit: Unit, plan: RunPlan) -> dict[str, Any]:
    """One chunk here: the extractor (none for a chunk without documents: only reading
    errors), then :func:`relx.app.batch.chunks.process_chunk`; returns the chunk's record
    (its ``seconds`` include loading the extractor).

    The heap settles (:func:`relx.api.settle_heap`) once the extractor is loaded, again
    after the process's first chunk, which has loaded what its documents needed (parse
    pipeline, lexicon); before a second chunk, :func:`relx.api.warm_up` loads what is left
    (the other species' lexicons, the ortholog table) and the heap settles once more. A
    one-chunk run (``relx extract one.txt``) does not pay for the warm-up."""
    global _CHUNKS_RUN
    started = time.perf_counter()
    ex = extractor_for(plan) if unit.docs else None
    if ex is not None and _CHUNKS_RUN == 1:
        warm_up(ex)
        settle_heap()
    record = process_chunk(unit, plan, ex, started=started)
    if ex is not None:
        _CHUNKS_RUN += 1
        if _CHUNKS_RUN == 1:
            settle_heap()   # this process is relx's own
    return record
