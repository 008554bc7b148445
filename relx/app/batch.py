"""Batch extraction over many input files: local processes or a Dask cluster, resumable.

Every input file gets its own outputs, written atomically, and then a ``.done/<key>.json``
record (its counts and errors). A rerun skips inputs that have a record, so a killed batch
resumes where it stopped; the merged ``relations.jsonl``, ``errors.jsonl`` and
``summary.json`` are rebuilt from the per-input files in input order at the end, so a resumed
batch ends with the same output as an uninterrupted one. ``.settings.json`` records what
decides the outputs (task, model name/version/creation time, threshold, parser, grounding,
formats); resuming into a folder written with other settings is refused, so one folder never
mixes results of two models.

``BatchOptions.task`` picks what is extracted: ``ppi`` (protein pairs, :mod:`relx.ppi.extract`)
or ``events`` (GENIA events, :mod:`relx.ge.extract`: ``events.jsonl`` instead of
``relations.jsonl``, and a ``.txt``/``.a1``/``.a2`` triple per document in ``standoff/``).
"""

from __future__ import annotations

import glob
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.io.atomic import atomic_open
from relx.io.errors import ReaderError

OUTPUT_FORMATS = ("jsonl", "tsv", "bioc", "brat", "pubtator")
TASKS = ("ppi", "events")
#: outputs of the events task (the first two always written)
EVENT_FORMATS = ("jsonl", "standoff", "brat", "bioc")
#: per task: the counts of an input's record and summary, and the merged JSONL file
_COUNTS = {"ppi": ("candidates", "relations"), "events": ("triggers", "events")}
_MERGED = {"ppi": "relations.jsonl", "events": "events.jsonl"}
TSV_COLUMNS = ("document_id", "sentence_id", "entity1", "entity1_start", "entity1_end",
               "entity1_ids", "entity2", "entity2_start", "entity2_end", "entity2_ids",
               "score", "sentence", "negated")


@dataclass
class BatchOptions:
    """What a worker needs to process one input (plain data: it travels to Dask workers)."""

    out: str
    formats: tuple[str, ...] = ("jsonl",)
    input_format: str | None = None
    model: str | None = None
    spacy_model: str | None = None
    threshold: float | str | None = None  # a number, "in-domain" or the model's (None)
    ground: bool = True
    task: str = "ppi"


@dataclass
class InputResult:
    input: str
    key: str
    documents: int = 0
    sentences: int = 0
    candidates: int = 0
    relations: int = 0
    triggers: int = 0
    events: int = 0
    errors: list[dict[str, str]] = field(default_factory=list)
    seconds: float = 0.0


def list_inputs(paths: Sequence[str | Path]) -> list[Path]:
    """Files named, files under folders (known formats only) and glob matches, in order."""
    from relx.io.registry import FORMATS, _suffix

    known = {s for f in FORMATS.values() for s in f.suffixes}
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += [f for f in sorted(p.rglob("*")) if f.is_file()
                    and not f.name.startswith(".") and _suffix(f) in known]
        elif p.exists():
            out.append(p)
        else:
            matches = sorted(Path(m) for m in glob.glob(str(p), recursive=True))
            if not matches:
                raise FileNotFoundError(f"{p}: no such file, folder or glob match")
            out += [m for m in matches if m.is_file()]
    seen: set[Path] = set()
    return [f for f in out if not (f.resolve() in seen or seen.add(f.resolve()))]


def input_keys(files: Sequence[Path]) -> list[str]:
    """Unique output names: each input's path relative to the inputs' common folder."""
    if not files:
        return []
    parents = [str(f.resolve().parent) for f in files]
    root = Path(os.path.commonpath(parents))
    keys = []
    for f in files:
        rel = f.resolve().relative_to(root).as_posix()
        keys.append(rel.replace("/", "__"))
    return keys


_EXTRACTORS: dict[tuple, Any] = {}


def _extractor(opts: BatchOptions) -> Any:
    """One extractor per process (and per Dask worker), loaded on first use."""
    task = opts.task
    k = (task, opts.model, opts.spacy_model, opts.threshold, opts.ground)
    if k in _EXTRACTORS:
        return _EXTRACTORS[k]
    if task == "events":
        from relx.ge.extract import EventExtractor

        _EXTRACTORS[k] = EventExtractor(opts.model, spacy_model=opts.spacy_model,
                                        ground=opts.ground)
    elif task == "ppi":
        from relx.ppi.extract import Extractor

        _EXTRACTORS[k] = Extractor(opts.model, spacy_model=opts.spacy_model,
                                   threshold=opts.threshold, ground=opts.ground)
    else:
        raise ValueError(f"unknown task {task!r}; choose from {TASKS}")
    return _EXTRACTORS[k]


def _read_all(path: Path, fmt: str | None, res: InputResult) -> list[Document]:
    from relx.io.registry import read

    docs: list[Document] = []
    try:
        for doc in read(path, fmt):
            docs.append(doc)
    except ReaderError as exc:
        res.errors.append({"input": str(path), "document": exc.where if docs else "",
                           "error": str(exc)})
    except (OSError, UnicodeError, ValueError, EOFError) as exc:
        res.errors.append({"input": str(path), "document": "",
                           "error": f"{path}: {type(exc).__name__}: {exc}"})
    if not docs and not res.errors:
        res.errors.append({"input": str(path), "document": "", "error": f"{path}: no documents"})
    return docs


def _annotate(ex: Any, docs: list[Document], res: InputResult) -> list[tuple]:
    """All documents at once; when that fails, one by one so only the bad ones are lost."""
    try:
        return list(ex.annotate(docs))
    except Exception:  # noqa: BLE001 - isolate the failing document below
        out = []
        for d in docs:
            try:
                out += list(ex.annotate([d]))
            except Exception as exc:  # noqa: BLE001
                res.errors.append({"input": res.input, "document": d.id,
                                   "error": f"{type(exc).__name__}: {exc}"})
        return out


def process_input(path: str | Path, key: str, opts: BatchOptions) -> dict[str, Any]:
    """Extract from one input file and write its outputs; returns its record."""
    t0 = time.perf_counter()
    path = Path(path)
    out = Path(opts.out)
    res = InputResult(input=str(path), key=key)
    task = opts.task
    docs = _read_all(path, opts.input_format, res)
    done = _annotate(_extractor(opts), docs, res) if docs else []
    found = [r for _, f, _ in done for r in f]
    res.documents = len(done)
    res.sentences = sum(len(d.sentences) for d, _, _ in done)
    if task == "events":   # done: (document, events, predicted StandoffDocument)
        from relx.ge.extract import write_event_outputs

        res.triggers = sum(len(pred.triggers) for _, _, pred in done)
        res.events = len(found)
        write_event_outputs(done, out, key, opts.formats)
    else:                  # done: (document, relations, candidate pairs scored)
        res.candidates = sum(n for _, _, n in done)
        res.relations = len(found)
        write_outputs([d for d, _, _ in done], found, out, key, opts.formats)
    res.seconds = round(time.perf_counter() - t0, 3)
    record = asdict(res)
    for other, counts in _COUNTS.items():   # only the counts of this task
        if other != task:
            for c in counts:
                record.pop(c)
    with atomic_open(out / ".done" / f"{key}.json") as fh:
        json.dump(record, fh)
    return record


def write_outputs(docs: list[Document], rels: list[Any], out: Path, key: str,
                  formats: Iterable[str]) -> None:
    """Per-input outputs under ``out/<format>/<key>.<ext>`` (each written atomically)."""
    for fmt in formats:
        if fmt == "jsonl":
            with atomic_open(out / "jsonl" / f"{key}.jsonl") as fh:
                for r in rels:
                    fh.write(r.model_dump_json() + "\n")
        elif fmt == "tsv":
            with atomic_open(out / "tsv" / f"{key}.tsv") as fh:
                fh.write("\t".join(TSV_COLUMNS) + "\n")
                for r in rels:
                    fh.write("\t".join(_tsv_row(r)) + "\n")
        elif fmt == "bioc":
            from relx.io.bioc import write_bioc

            write_bioc(docs, out / "bioc" / f"{key}.xml", fmt="xml")
        elif fmt == "pubtator":
            from relx.io.pubtator import write_pubtator

            write_pubtator(docs, out / "pubtator" / f"{key}.pubtator")
        elif fmt == "brat":
            from relx.io.brat import write_brat

            write_brat(docs, out / "brat" / key)
        else:
            raise ValueError(f"unknown output format {fmt!r}; choose from {OUTPUT_FORMATS}")


def _tsv_row(r: Any) -> list[str]:
    clean = lambda s: str(s).replace("\t", " ").replace("\n", " ")  # noqa: E731
    return [clean(x) for x in (
        r.document_id, r.sentence_id, r.entity1.text, r.entity1.start, r.entity1.end,
        ",".join(r.entity1.norm_ids), r.entity2.text, r.entity2.start, r.entity2.end,
        ",".join(r.entity2.norm_ids), f"{r.score:.4f}", r.sentence,
        "true" if r.negated else "false")]


def run_settings(opts: BatchOptions) -> dict[str, Any]:
    """What decides an input's outputs (a resumed batch must use the same)."""
    from relx.ge.extract import DEFAULT_EVENT_MODEL
    from relx.model_store import find_model_dir
    from relx.ppi.model import DEFAULT_MODEL

    default = DEFAULT_EVENT_MODEL if opts.task == "events" else DEFAULT_MODEL
    try:
        meta = json.loads((find_model_dir(opts.model or default) / "meta.json").read_text())
    except (ValueError, OSError):  # a missing model fails later with its own message
        meta = {}
    return {"task": opts.task, "model": opts.model or default,
            "model_version": meta.get("version"), "model_created": meta.get("created"),
            "threshold": opts.threshold, "spacy_model": opts.spacy_model,
            "ground": opts.ground, "formats": sorted(opts.formats),
            "input_format": opts.input_format}


def check_settings(out: Path, settings: dict[str, Any]) -> None:
    """Refuse to resume into ``out`` when its finished inputs were made with other settings;
    else record ``settings`` in ``out/.settings.json``."""
    path = out / ".settings.json"
    done = out / ".done"
    if path.exists() and done.is_dir() and any(done.glob("*.json")):
        old = json.loads(path.read_text())
        diff = {k: (old.get(k), v) for k, v in settings.items() if old.get(k) != v}
        if diff:
            what = "; ".join(f"{k}: {a!r} then, {b!r} now" for k, (a, b) in diff.items())
            raise ValueError(f"{out} holds results made with other settings ({what}); "
                             f"write to a new --out folder, or delete {done} to redo every input")
    out.mkdir(parents=True, exist_ok=True)
    with atomic_open(path) as fh:
        json.dump(settings, fh, indent=2)


def run_batch(files: Sequence[Path], opts: BatchOptions, *, jobs: int = 1,
              engine: str = "local", scheduler: str | None = None,
              on_done: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Process every input not yet done, then merge outputs; returns the summary."""
    t0 = time.perf_counter()
    out = Path(opts.out)
    check_settings(out, run_settings(opts))
    keys = input_keys(list(files))
    todo = [(f, k) for f, k in zip(files, keys, strict=True)
            if not (out / ".done" / f"{k}.json").exists()]
    skipped = len(files) - len(todo)
    if engine == "dask":
        _run_dask(todo, opts, scheduler, on_done)
    elif engine == "local" and jobs > 1 and len(todo) > 1:
        _run_processes(todo, opts, jobs, on_done)
    elif engine == "local":
        for f, k in todo:
            rec = process_input(f, k, opts)
            if on_done:
                on_done(rec)
    else:
        raise ValueError(f"unknown engine {engine!r} (local or dask)")
    return merge_outputs(out, keys, opts.formats, seconds=time.perf_counter() - t0,
                         skipped=skipped, task=opts.task)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def single_thread() -> None:
    """One compute thread in this process: numba's pool, every BLAS and the OpenMP runtime.

    For one worker process per core. threadpoolctl limits only the thread pools already
    loaded, so the libraries that bring their own (numpy's and scipy's BLAS, scikit-learn's
    OpenMP, which the boosted trees predict with) are loaded first; the environment
    variables cover any loaded later. Without this, each worker's OpenMP threads spin
    against the other workers' (measured: 300 abstracts scored in 33 s instead of 24 s).
    """
    for var in THREAD_VARIABLES:
        os.environ[var] = "1"
    import numba
    import scipy.linalg  # noqa: F401  (scipy's BLAS)
    import sklearn.utils._openmp_helpers  # noqa: F401  (scikit-learn's OpenMP runtime)
    from threadpoolctl import threadpool_limits

    numba.set_num_threads(1)
    threadpool_limits(1)


def _init_worker() -> None:
    single_thread()  # one process per core: no nested thread pools


def _run_processes(todo: list[tuple[Path, str]], opts: BatchOptions, jobs: int,
                   on_done: Callable[[dict[str, Any]], None] | None) -> None:
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"),
                             initializer=_init_worker) as pool:
        futures = [pool.submit(process_input, f, k, opts) for f, k in todo]
        for fut in as_completed(futures):
            rec = fut.result()
            if on_done:
                on_done(rec)


def _run_dask(todo: list[tuple[Path, str]], opts: BatchOptions, scheduler: str | None,
              on_done: Callable[[dict[str, Any]], None] | None) -> None:
    from distributed import Client, as_completed

    if not scheduler:
        raise ValueError("--engine dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    with Client(scheduler) as client:
        futures = [client.submit(process_input, str(f.resolve()), k, opts, pure=False,
                                 key=f"relx-{k}") for f, k in todo]
        for fut in as_completed(futures):
            rec = fut.result()
            if on_done:
                on_done(rec)


def merge_outputs(out: Path, keys: Sequence[str], formats: Iterable[str], *, seconds: float,
                  skipped: int = 0, task: str = "ppi") -> dict[str, Any]:
    """Rebuild ``relations.jsonl`` (``events.jsonl`` for the events task), ``errors.jsonl``
    and ``summary.json`` from the records."""
    records = [json.loads((out / ".done" / f"{k}.json").read_text()) for k in keys]
    formats = tuple(formats)
    if "jsonl" in formats:
        with atomic_open(out / _MERGED[task]) as fh:
            for k in keys:
                part = out / "jsonl" / f"{k}.jsonl"
                if part.exists():
                    fh.write(part.read_text(encoding="utf-8"))
    errors = [e for r in records for e in r["errors"]]
    with atomic_open(out / "errors.jsonl") as fh:
        for e in errors:
            fh.write(json.dumps(e) + "\n")
    summary = {"inputs": len(records), "inputs_skipped_as_done": skipped,
               "documents": sum(r["documents"] for r in records),
               "sentences": sum(r["sentences"] for r in records),
               **{c: sum(r.get(c, 0) for r in records) for c in _COUNTS[task]},
               "errors": len(errors),
               "inputs_with_errors": sorted({e["input"] for e in errors}),
               "seconds": round(seconds, 2), "formats": list(formats)}
    if task != "ppi":
        summary["task"] = task
    with atomic_open(out / "summary.json") as fh:
        json.dump(summary, fh, indent=2)
    return summary
