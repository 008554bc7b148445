"""Running a batch's chunks: in this process, in worker processes that may die, or on Dask.

:class:`Schedule` reads the inputs (in this process, as streams) and hands out
:class:`relx.app.batch.plan.Unit` chunks that are not done yet; each chunk runs on a worker
(:func:`relx.app.batch.worker.run_chunk`). :func:`run_schedule` yields each input whose
chunks are all back (:class:`FinishedInput`, its chunk records in order); finishing it (its
outputs assembled, its record written) is :mod:`relx.app.batch.finish`'s.

Worker processes (``--jobs``): each runs one chunk at a time. A worker that dies (SIGKILL,
the OOM killer) costs only its chunk: the chunk is retried once in a fresh worker, then
recorded as failed (stage ``worker``) and the batch goes on. On Dask, the scheduler
resubmits the tasks of a lost worker (up to its ``allowed-failures``); a task that still
fails is recorded as failed alike.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relx.app.batch.folder import (
    chunk_record_path,
    error,
    failed_record,
    input_identity,
    load_record,
    out_of_space,
    parts_dir,
    write_chunk_record,
)
from relx.app.batch.plan import RunPlan, Unit
from relx.app.batch.worker import one_compute_thread, run_chunk
from relx.doc import Document
from relx.errors import ModelError, RelxError, RunAborted
from relx.io.registry import FORMATS

OnDone = Callable[[dict[str, Any]], None] | None
#: a chunk is tried this many times in (fresh) worker processes
ATTEMPTS = 2


@dataclass
class FinishedInput:
    """An input whose chunks are all back: its file, key and identity, and its chunks'
    records in chunk order (fresh, failed, or done by an earlier run)."""

    path: Path
    key: str
    identity: dict[str, Any]
    records: list[dict[str, Any]]


def mentions_for(mode: str, fmt: str | None, docs: Sequence[Document]) -> str:
    """The mentions an input's documents get. ``auto``: the input's own when its format
    carries mentions and its first chunk's documents bring some (then every document of it,
    with or without), or always when they come from an annotation file beside the text
    (a standoff ``.a1``, even empty: zero mentions); else relx's tagger's."""
    if mode != "auto":
        return mode
    spec = FORMATS.get(fmt or "")
    if spec is None or not spec.mentions:
        return "relx"
    given = any(s.entities for d in docs for s in d.sentences)
    return "input" if given or spec.annotation_file else "relx"


class _Input:
    """Progress of one input: its chunks out and back."""

    def __init__(self, path: Path, key: str) -> None:
        self.path, self.key = path, key
        self.identity: dict[str, Any] = {}
        self.records: dict[int, dict[str, Any]] = {}
        self.n_chunks: int | None = None     # known when the input is read to its end
        self.t0 = time.perf_counter()


class Schedule:
    """The chunks to do for ``todo`` (``(path, key)`` of inputs not done) under ``plan``."""

    def __init__(self, todo: list[tuple[Path, str]], plan: RunPlan) -> None:
        self.todo, self.plan = todo, plan
        self.out = plan.out
        self.inputs: dict[str, _Input] = {}
        self._finished: deque[FinishedInput] = deque()

    # ------------------------------------------------------------------ reading
    def units(self) -> Iterator[Unit]:
        """Chunks to process, input after input (chunks already done are not handed out)."""
        for path, key in self.todo:
            state = _Input(path, key)
            self.inputs[key] = state
            yield from self._read(state)
            self._maybe_finish(state)

    def _valid_chunk(self, state: _Input, index: int) -> dict[str, Any] | None:
        rec = load_record(chunk_record_path(self.out, state.key, index))
        if rec is None:
            return None
        if rec.get("failed") or rec.get("identity") != state.identity:
            return None
        if rec.get("documents") and not parts_dir(self.out, state.key, index).is_dir():
            return None      # its outputs were assembled and dropped: redo
        return rec

    def _read(self, state: _Input) -> Iterator[Unit]:
        from relx.io.registry import detect_format, read

        plan = self.plan
        try:
            state.identity = input_identity(state.path)
        except OSError as exc:
            state.identity = {}
            rec = self._empty(state, 0, 0, [error(str(state.path), None, "read",
                                                  f"cannot read: {exc}")], failed=True)
            self._record(state, rec)
            state.n_chunks = 1
            return
        errors: list[dict[str, str]] = []
        docs: list = []
        try:
            fmt = plan.input_format or detect_format(state.path)
        except (RelxError, OSError):      # read() below reports it
            fmt = None
        mentions: str | None = None
        index, first, n = 0, 0, 0
        failed = False

        def on_error(exc: Exception) -> None:
            errors.append(error(str(state.path), getattr(exc, "document", None), "read",
                                str(exc)))

        def cut() -> Unit | None:
            nonlocal index, first, docs, errors, mentions
            if mentions is None:            # decided once per input, on its first chunk
                mentions = mentions_for(plan.mentions, fmt, docs)
            unit = Unit(str(state.path), state.key, index, first, docs, state.identity, errors,
                        failed, mentions)
            index, first, docs, errors = index + 1, n, [], []
            old = self._valid_chunk(state, unit.index)
            if old is not None:          # done in an earlier run
                self._record(state, old, fresh=False)
                return None
            if not unit.docs:            # nothing to extract: only reading errors
                self._record(state, run_chunk(unit, plan))
                return None
            return unit

        try:
            for doc in read(state.path, plan.input_format, on_error=on_error,
                            **plan.reader):
                docs.append(doc)
                n += 1
                if len(docs) >= plan.chunk_size:
                    unit = cut()
                    if unit is not None:
                        yield unit
        except MemoryError as exc:
            failed = True
            errors.append(error(str(state.path), None, "read", f"MemoryError: {exc}"))
        except Exception as exc:  # noqa: BLE001 - any failure of this input is its own
            where = f" (after document #{n})" if n else ""
            errors.append(error(str(state.path), getattr(exc, "document", None), "read",
                                f"{exc if hasattr(exc, 'reason') else f'{state.path}: {type(exc).__name__}: {exc}'}{where}"))
        if n == 0 and not errors:
            errors.append(error(str(state.path), None, "read", f"{state.path}: no documents"))
        if docs or errors or index == 0:
            unit = cut()
            if unit is not None:
                yield unit
        state.n_chunks = index

    # ------------------------------------------------------------------ records
    def _empty(self, state: _Input, index: int, first: int, errors: list, failed: bool
               ) -> dict[str, Any]:
        unit = Unit(str(state.path), state.key, index, first, [], state.identity, errors, failed)
        return run_chunk(unit, self.plan)

    def _record(self, state: _Input, rec: dict[str, Any], fresh: bool = True) -> None:
        state.records[rec["chunk"]] = rec

    def chunk_done(self, rec: dict[str, Any]) -> None:
        """A chunk came back (from any worker)."""
        state = self.inputs[rec["key"]]
        self._record(state, rec)
        self._maybe_finish(state)

    def chunk_failed(self, unit: Unit, stage: str, message: str) -> dict[str, Any]:
        """A chunk was lost for good: record it as failed."""
        rec = failed_record(unit, self.plan.task, stage, message)
        write_chunk_record(self.out, rec)
        self.chunk_done(rec)
        return rec

    def _maybe_finish(self, state: _Input) -> None:
        """All chunks back: the input is finished (:meth:`finished` hands it out)."""
        if state.n_chunks is None or len(state.records) < state.n_chunks:
            return
        self._finished.append(FinishedInput(state.path, state.key, state.identity,
                                            [state.records[i] for i in range(state.n_chunks)]))
        del self.inputs[state.key]

    def finished(self) -> Iterator[FinishedInput]:
        """The inputs finished since last asked, in the order they finished."""
        while self._finished:
            yield self._finished.popleft()


# ------------------------------------------------------------------------ engines

def run_schedule(schedule: Schedule, *, jobs: int = 1, engine: str = "local",
                 scheduler: str | None = None, on_done: OnDone = None
                 ) -> Iterator[FinishedInput]:
    """Process every chunk of ``schedule`` with the engine asked for, yielding each input
    as its last chunk comes back (``on_done``: called with each chunk's record after)."""
    if engine == "dask":
        yield from _run_dask(schedule, scheduler or "", on_done)
    elif jobs > 1:
        yield from _run_processes(schedule, jobs, on_done)
    else:
        yield from _run_here(schedule, on_done)


def _run_here(schedule: Schedule, on_done: OnDone) -> Iterator[FinishedInput]:
    """Every chunk in this process, on one compute thread (numba, BLAS and OpenMP limited
    while it runs, as in a ``--jobs`` or Dask worker: with their default pools the OpenMP
    threads spin against numba's and the process spends ~1.3x the CPU time per document)."""
    from relx.api import limited_threads

    with limited_threads(1):
        for unit in schedule.units():
            yield from schedule.finished()    # inputs done before (all chunks recorded)
            try:
                rec = run_chunk(unit, schedule.plan)
            except Exception as exc:
                if isinstance(exc, ModelError) or out_of_space(exc):
                    raise
                rec = schedule.chunk_failed(unit, "worker", f"{type(exc).__name__}: {exc}")
            else:
                schedule.chunk_done(rec)
            yield from schedule.finished()
            if on_done:
                on_done(rec)
        yield from schedule.finished()


def _worker_main(conn: Any, plan: RunPlan) -> None:
    """A worker process: chunks in, records out, until told to stop."""
    one_compute_thread()   # one process per core: no nested thread pools
    while True:
        try:
            unit = conn.recv()
        except EOFError:
            return
        if unit is None:
            return
        try:
            conn.send(("ok", run_chunk(unit, plan)))
        except ModelError as exc:
            try:
                conn.send(("fatal", exc))   # comes back as its own class
            except (TypeError, AttributeError, ValueError):   # one that cannot travel
                conn.send(("fatal", ModelError(str(exc))))
        except OSError as exc:
            if not out_of_space(exc):
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
                continue
            where = f"{exc.filename}: " if exc.filename else ""
            conn.send(("abort", f"{where}{exc.strerror or exc}"))
        except BaseException as exc:  # noqa: BLE001 - reported, the worker goes on
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(self, ctx: Any, plan: RunPlan) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, plan), daemon=True)
        self.proc.start()
        child.close()
        self.unit: Unit | None = None

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(timeout=10)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


def _run_processes(schedule: Schedule, jobs: int, on_done: OnDone
                   ) -> Iterator[FinishedInput]:
    """``jobs`` worker processes, one chunk each at a time; dead workers are replaced."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = mp.get_context("spawn")
    units = schedule.units()
    retry: deque[Unit] = deque()
    attempts: dict[tuple[str, int], int] = {}
    workers = [_Worker(ctx, schedule.plan) for _ in range(jobs)]
    exhausted = False

    try:
        while True:
            for w in list(workers):
                if w.unit is None:
                    unit = retry.popleft() if retry else (None if exhausted else next(units, None))
                    if unit is None:
                        exhausted = exhausted or not retry
                        continue
                    try:
                        w.conn.send(unit)
                    except OSError:                   # died while idle: a fresh one
                        w.proc.join()
                        w.conn.close()
                        workers[workers.index(w)] = _Worker(ctx, schedule.plan)
                        retry.appendleft(unit)
                        continue
                    w.unit = unit
                    attempts[(unit.key, unit.index)] = attempts.get((unit.key, unit.index), 0) + 1
            yield from schedule.finished()    # inputs done before (all chunks recorded)
            busy = [w for w in workers if w.unit is not None]
            if not busy:
                if exhausted and not retry:
                    break
                continue
            wait([x for w in busy for x in (w.conn, w.proc.sentinel)])
            for i, w in enumerate(workers):
                if w.unit is None:
                    continue
                msg = None
                try:
                    if w.conn.poll():
                        msg = w.conn.recv()
                except (EOFError, OSError):
                    msg = None
                if msg is None and w.proc.is_alive():
                    continue
                unit, w.unit = w.unit, None
                if msg is None:                       # the worker died with this chunk
                    w.proc.join()
                    code = w.proc.exitcode
                    w.conn.close()
                    workers[i] = _Worker(ctx, schedule.plan)
                    if attempts[(unit.key, unit.index)] < ATTEMPTS:
                        retry.append(unit)
                        continue
                    rec = schedule.chunk_failed(unit, "worker", f"worker process died "
                                                f"(exit code {code}) twice on this chunk")
                elif msg[0] == "ok":
                    rec = msg[1]
                    schedule.chunk_done(rec)
                elif msg[0] == "fatal":
                    raise msg[1]
                elif msg[0] == "abort":
                    raise RunAborted(msg[1])
                else:
                    rec = schedule.chunk_failed(unit, "worker", msg[1])
                yield from schedule.finished()
                if on_done:
                    on_done(rec)
        yield from schedule.finished()
    finally:
        for w in workers:
            w.stop()


def dask_chunk(unit: Unit, plan: RunPlan) -> dict[str, Any]:
    """One chunk as a Dask task, on one compute thread: a Dask worker thread owns one core,
    as a ``--jobs`` worker does (Dask's nanny limits OpenMP/BLAS but not numba's pool)."""
    import numba

    one_compute_thread()
    numba.set_num_threads(1)           # numba's limit is per thread: each worker thread's
    return run_chunk(unit, plan)


#: with no Dask worker connected for this long (seconds), the batch stops (exit 1; the
#: chunks done so far are kept and a rerun resumes)
DASK_NO_WORKERS_S = 600.0


def _dask_threads(client: Any) -> int:
    """Worker threads connected to the scheduler now (0 while none is)."""
    return sum(client.nthreads().values())


def _run_dask(schedule: Schedule, scheduler: str, on_done: OnDone
              ) -> Iterator[FinishedInput]:
    """Chunks as Dask tasks, one in flight per worker thread.

    Only as many tasks as there are worker threads are out, so a worker takes a new chunk
    when it finishes one (no queue behind a slow chunk at the end of the run), and when a
    worker dies only the chunk it was running counts against the scheduler's
    ``allowed-failures`` (Dask blames every task queued on a lost worker). The scheduler
    reruns a lost worker's chunk elsewhere; a rerun chunk rewrites the same parts (the
    chunk's folder is cleared first, every file written atomically), so a chunk that ran
    twice leaves one copy. A chunk that killed ``allowed-failures + 1`` workers comes back
    as ``KilledWorker`` and is recorded as failed (stage ``worker``).
    """
    import logging

    from distributed import Client

    # a lost scheduler is reported once, by relx (RunAborted); the client's own reconnect
    # tracebacks on stderr would bury it (``distributed.batched``: "Error in batched write"
    # when the scheduler's connection closes under a send)
    for name in ("distributed.client", "distributed.utils", "distributed.core",
                 "distributed.batched"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        client = Client(scheduler)
    except OSError as exc:
        raise RunAborted(f"cannot reach the Dask scheduler {scheduler} ({type(exc).__name__}: "
                         f"{exc})") from exc
    with client:
        try:
            yield from _dask_loop(schedule, scheduler, on_done, client)
        except (ModelError, RunAborted):
            raise
        except Exception as exc:
            lost = client.status not in ("running", "connecting") or (
                isinstance(exc, OSError) and not exc.filename) or isinstance(exc, CancelledError)
            if not lost:
                raise
            raise RunAborted(f"the Dask scheduler {scheduler} was lost "
                             f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})"
                             ) from exc


def _dask_loop(schedule: Schedule, scheduler: str, on_done: OnDone, client: Any
               ) -> Iterator[FinishedInput]:
    from distributed import wait

    units = schedule.units()
    flying: dict[Any, Unit] = {}
    exhausted = False
    no_workers_since: float | None = None

    def submit(limit: int) -> None:
        nonlocal exhausted
        while not exhausted and len(flying) < limit:
            unit = next(units, None)
            if unit is None:
                exhausted = True
                return
            fut = client.submit(dask_chunk, unit, schedule.plan, pure=False,
                                key=f"relx-chunk-{unit.key}-{unit.index}-{os.getpid()}"
                                f"-{time.monotonic_ns()}")
            flying[fut] = unit

    while True:
        threads = _dask_threads(client)
        if threads:
            no_workers_since = None
        elif no_workers_since is None:
            no_workers_since = time.monotonic()
        elif time.monotonic() - no_workers_since > DASK_NO_WORKERS_S:
            raise RunAborted(f"no Dask worker connected to {scheduler} for "
                             f"{DASK_NO_WORKERS_S:.0f} s")
        submit(max(1, threads))
        yield from schedule.finished()    # inputs done before (all chunks recorded)
        if not flying:
            break
        try:
            back, _ = wait(list(flying), timeout=5, return_when="FIRST_COMPLETED")
        except TimeoutError:          # none back yet: look at the workers again
            continue
        for fut in back:
            unit = flying.pop(fut)
            try:
                rec = fut.result()
            except ModelError:
                raise
            except OSError as exc:
                if out_of_space(exc):
                    raise RunAborted(f"{exc.filename or 'a worker'}: "
                                     f"{exc.strerror or exc}") from exc
                rec = schedule.chunk_failed(unit, "worker", f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # noqa: BLE001 - KilledWorker, lost data...
                if isinstance(exc, CancelledError) or client.status != "running":
                    raise                    # the scheduler is gone, not this chunk
                rec = schedule.chunk_failed(unit, "worker", f"{type(exc).__name__}: {exc}")
            else:
                schedule.chunk_done(rec)
            yield from schedule.finished()
            if on_done:
                on_done(rec)
            fut.release()
