"""What a batch is asked to do: its options (checked once), the run plan built from them
(:class:`RunPlan`, handed to every stage) and the models it will load (checked before any
work), its inputs and their keys, and its unit of work (:class:`Unit`, a chunk)."""

from __future__ import annotations

import glob
import hashlib
import itertools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.doc_limits import DEFAULT_MAX_DOC_CHARS, DEFAULT_MAX_DOC_SECONDS
from relx.errors import ConfigError, ModelError
from relx.model_store import check_model_folder, find_model_dir, model_meta
from relx.tasks import TASKS, Task

#: documents per unit of work
CHUNK_SIZE = 1000
#: per-sentence caps (tokens; candidate pairs scored): see relx.ppi.extract
MAX_SENTENCE_TOKENS = 150
MAX_SENTENCE_PAIRS = 100
#: PDF reading caps per file (pages; seconds): see relx.io.pdf
PDF_MAX_PAGES = 300
PDF_MAX_SECONDS = 120.0
ENGINES = ("local", "dask")
DASK_MISSING = ("--engine dask needs Dask's distributed scheduler, which is not installed: "
                "pip install 'relx[dask]'")


@dataclass
class BatchOptions:
    """What a batch is asked to do (the ``relx extract`` options; :func:`make_plan` turns
    them into the :class:`RunPlan` the stages read)."""

    out: str
    formats: tuple[str, ...] = ("jsonl",)
    input_format: str | None = None
    model: str | None = None
    spacy_model: str | None = None
    threshold: float | str | None = None  # a number, "in-domain" or the model's (None)
    ground: bool = True
    task: Task = TASKS["ppi"]
    chunk_size: int = CHUNK_SIZE
    max_input_bytes: int | None = None    # None: relx.io.source's default
    max_sentence_tokens: int = MAX_SENTENCE_TOKENS
    max_sentence_pairs: int = MAX_SENTENCE_PAIRS
    types: bool = True                    # ppi: type and direct pairs with the event model
    event_model: str | None = None        # ... this one (None: ge-events)
    mentions: str = "auto"                # whose protein mentions: auto, input, relx, both
    orthologs: str | None = None          # ppi: "human": human ortholog ids first
    same_gene_pairs: bool = False         # ppi: report two names of one gene, flagged
    max_doc_chars: int | None = DEFAULT_MAX_DOC_CHARS    # longer documents are not read
    max_doc_seconds: float | None = DEFAULT_MAX_DOC_SECONDS  # ... nor worked on longer
    sections: str | None = None           # parts of papers read (None: relx's default)
    pdf_max_pages: int = PDF_MAX_PAGES    # reader caps per PDF file
    pdf_max_seconds: float = PDF_MAX_SECONDS
    table_cells: bool = False             # JATS tables' cells read as text

    def extractor_options(self) -> dict[str, object]:
        """The options of this batch that its task's extractor takes."""
        given = {"spacy_model": self.spacy_model, "ground": self.ground,
                 "threshold": self.threshold, "types": self.types,
                 "event_model": self.event_model, "orthologs": self.orthologs,
                 "same_gene_pairs": self.same_gene_pairs, "max_doc_chars": self.max_doc_chars,
                 "max_doc_seconds": self.max_doc_seconds, "sections": self.sections}
        return {k: v for k, v in given.items() if k in self.task.options}

    def reader_options(self) -> dict[str, object]:
        """The options of this batch that the paper readers take (each reader gets those
        it knows: :data:`relx.io.registry.READER_OPTIONS`)."""
        return {"max_pages": self.pdf_max_pages, "max_seconds": self.pdf_max_seconds,
                "table_cells": self.table_cells}


def dask_installed() -> bool:
    """Whether ``--engine dask`` can run here (``distributed``: the ``relx[dask]`` extra)."""
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


def check_options(opts: BatchOptions, *, jobs: int = 1, engine: str = "local",
                  scheduler: str | None = None) -> None:
    """Every option of a batch, checked before any work (:class:`ConfigError` says which)."""
    from relx.io.registry import FORMATS

    task = opts.task
    readable = sorted(n for n, f in FORMATS.items() if f.reader)
    if opts.input_format is not None and opts.input_format not in readable:
        raise ConfigError(f"--input-format {opts.input_format!r} is not a format relx reads; "
                          f"choose from {readable}")
    choices = task.formats()
    bad = [f for f in opts.formats if f not in choices]
    if bad:
        raise ConfigError(f"unknown --format {bad} for --task {task.name}; choose from "
                          f"{choices}")
    modes = task.mentions
    if opts.mentions not in modes:
        raise ConfigError(f"--mentions must be one of {modes} for --task {task.name}, not "
                          f"{opts.mentions!r}")
    if opts.orthologs not in (None, "human"):
        raise ConfigError(f"--orthologs must be 'human', not {opts.orthologs!r}")
    for name, value in (("orthologs", opts.orthologs), ("same_gene_pairs", opts.same_gene_pairs)):
        if value and name not in task.options:
            raise ConfigError(f"--{name.replace('_', '-')} is not an option of --task {task.name}")
    if opts.threshold is not None and "threshold" not in task.options:
        takers = [t.name for t in TASKS.values() if "threshold" in t.options]
        raise ConfigError(f"--threshold is for --task {', '.join(takers)} only")
    if jobs < 1:
        raise ConfigError(f"--jobs must be 1 or more (0: one per core), not {jobs}")
    if engine not in ENGINES:
        raise ConfigError(f"--engine must be 'local' or 'dask', not {engine!r}")
    if engine == "dask" and not scheduler:
        raise ConfigError("--engine dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if engine == "dask" and not dask_installed():
        raise ConfigError(DASK_MISSING)
    if opts.chunk_size < 1:
        raise ConfigError(f"--chunk-size must be 1 or more, not {opts.chunk_size}")
    if opts.max_input_bytes is not None and opts.max_input_bytes < 1:
        raise ConfigError(f"--max-input-mb must be a positive number, not "
                          f"{opts.max_input_bytes / 2**20}")
    for name, v in (("--max-doc-chars", opts.max_doc_chars),
                    ("--max-doc-seconds", opts.max_doc_seconds)):
        if v is not None and not v > 0:
            raise ConfigError(f"{name} must be a positive number, not {v}")
    for name, v in (("--max-sentence-tokens", opts.max_sentence_tokens),
                    ("--max-sentence-pairs", opts.max_sentence_pairs),
                    ("--pdf-max-pages", opts.pdf_max_pages)):
        if v < 1:
            raise ConfigError(f"{name} must be 1 or more, not {v}")
    if not opts.pdf_max_seconds > 0:
        raise ConfigError(f"--pdf-max-seconds must be a positive number, not "
                          f"{opts.pdf_max_seconds}")
    from relx.io.papers import sections_option

    try:
        sections_option(opts.sections)
    except ConfigError as exc:
        raise ConfigError(f"--{exc}") from None


@dataclass(frozen=True)
class RunPlan:
    """A batch's run, decided once (:func:`make_plan`) and handed to every stage: the
    engines, the workers (plain data: it travels to worker processes and Dask workers),
    the chunks and the merge."""

    task: Task
    out: Path
    model: str | None
    #: ``(format, item kind)`` per output format, in order: the kind of items the task
    #: hands the format's writer (None: the task writes it per document, e.g. standoff)
    writers: tuple[tuple[str, str | None], ...]
    input_format: str | None
    reader: dict[str, Any]              # what the paper readers take (READER_OPTIONS)
    extractor: dict[str, Any]           # what the task's extractor takes
    settings: dict[str, Any]            # what decides the outputs (.settings.json)
    spacy_model: str | None
    mentions: str                       # whose mentions: auto, input, relx, both
    chunk_size: int
    max_input_bytes: int | None
    max_sentence_tokens: int
    max_sentence_pairs: int

    @property
    def formats(self) -> tuple[str, ...]:
        return tuple(fmt for fmt, _ in self.writers)


def make_plan(opts: BatchOptions) -> RunPlan:
    """The run plan of checked options (:func:`check_options`)."""
    task = opts.task
    extractor = opts.extractor_options()
    return RunPlan(task=task, out=Path(opts.out), model=opts.model,
                   writers=tuple((fmt, task.kind_for(fmt)) for fmt in opts.formats),
                   input_format=opts.input_format, reader=opts.reader_options(),
                   extractor=extractor, settings=run_settings(opts, extractor),
                   spacy_model=opts.spacy_model, mentions=opts.mentions,
                   chunk_size=opts.chunk_size, max_input_bytes=opts.max_input_bytes,
                   max_sentence_tokens=opts.max_sentence_tokens,
                   max_sentence_pairs=opts.max_sentence_pairs)


def check_model(plan: RunPlan) -> None:
    """Before any work, every model the batch will load (the task's model and, for typed
    interactions, the event model: :meth:`relx.tasks.TaskRunner.models`; files exist and
    are readable: ``meta.json`` and ``config.toml`` parse, each ``.skops`` archive is
    whole), and the spaCy pipeline (``--spacy-model`` is loaded once here). Errors name
    the model and the file."""
    for name, kind, option in plan.task.runner_().models(plan.model, plan.extractor):
        check_model_folder(find_model_dir(name, what=kind), kind,
                           f"reinstall the {kind} (or retrain it), or pass another with "
                           f"{option}")
    _check_pipeline(plan.spacy_model)


def _check_pipeline(name: str | None) -> None:
    from relx.model_store import models_dir
    from relx.parse.pipeline import DEFAULT_PIPELINE, load_nlp

    if name is None:
        folder = models_dir() / DEFAULT_PIPELINE
        if not (folder / "meta.json").is_file() or not (folder / "config.cfg").is_file():
            raise ModelError(f"the default parse pipeline is missing or incomplete: {folder}; "
                             "reinstall relx")
        return
    try:
        load_nlp(name)
    except Exception as exc:  # noqa: BLE001 - any failure to load: unusable, say which
        raise ModelError(f"cannot load the spaCy pipeline {name!r} (--spacy-model): "
                         f"{type(exc).__name__}: {exc}; pass an installed pipeline name or "
                         "a pipeline folder") from None


def run_settings(opts: BatchOptions, extractor: dict[str, Any]) -> dict[str, Any]:
    """What decides an input's outputs (a resumed batch must use the same)."""
    from relx.io.papers import sections_label, sections_option

    task = opts.task
    model = opts.model or task.default_model
    meta = model_meta(model)
    extra = task.runner_().settings(extractor)
    types = extra.pop("types", None)
    return {"task": task.name, "model": model,
            "model_version": meta.get("version"), "model_created": meta.get("created"),
            "types": types, **extra,
            "threshold": opts.threshold, "spacy_model": opts.spacy_model,
            "ground": opts.ground, "mentions": opts.mentions, "orthologs": opts.orthologs,
            "same_gene_pairs": opts.same_gene_pairs, "formats": sorted(opts.formats),
            "input_format": opts.input_format,
            "max_sentence_tokens": opts.max_sentence_tokens,
            "max_sentence_pairs": opts.max_sentence_pairs,
            "max_doc_chars": opts.max_doc_chars, "max_doc_seconds": opts.max_doc_seconds,
            "sections": sections_label(sections_option(opts.sections)),
            "pdf_max_pages": opts.pdf_max_pages, "pdf_max_seconds": opts.pdf_max_seconds,
            "table_cells": opts.table_cells}


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
    mentions: str = "auto"              # whose mentions its documents get (resolved)


def cores() -> int:
    """The cores this process may use (``--jobs 0``)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def _glob_root(pattern: str) -> Path:
    """The folder a glob pattern starts from (its part before the first wildcard)."""
    parts = Path(pattern).parts
    fixed = list(itertools.takewhile(lambda x: not glob.has_magic(x), parts))
    return Path(*fixed) if fixed else Path(".")


def list_inputs(paths: Sequence[str | Path], *, with_roots: bool = False,
                skipped: list[tuple[Path, str]] | None = None, detect: bool = True
                ) -> list[Path] | tuple[list[Path], list[Path]]:
    """Files named, files under folders and glob matches, in order, each once; ``with_roots``:
    also the folder each file's key is relative to (the folder named, a glob's fixed part,
    a named file's own folder).

    Under a folder, the files relx reads (:func:`relx.io.registry.scan`: by extension
    and content; ``detect=False``, when the input format is given: by extension only);
    each file passed over is appended to ``skipped`` as ``(path, reason)``."""
    from relx.io.registry import scan

    out: list[tuple[Path, Path]] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            known, passed = scan(p, detect=detect)
            out += [(f, p) for f, _ in known]
            if skipped is not None:
                skipped += passed
        elif p.exists():
            out.append((p, p.parent))
        else:
            matches = sorted(Path(m) for m in glob.glob(str(p), recursive=True))
            if not matches:
                raise FileNotFoundError(f"{p}: no such file, folder or glob match")
            root = _glob_root(str(p))
            out += [(m, root) for m in matches if m.is_file()]
    seen: set[Path] = set()
    kept = [(f, r) for f, r in out if not (f.resolve() in seen or seen.add(f.resolve()))]
    files = [f for f, _ in kept]
    return (files, [r for _, r in kept]) if with_roots else files


#: longest output key (bytes): with ``.json``/``.jsonl`` and ``.<name>.<random>.tmp`` of an
#: atomic write it stays under the 255 bytes most file systems allow in a name
MAX_KEY_BYTES = 200


def _bounded(key: str) -> str:
    """``key`` if short enough, else its head and a hash of the whole (readable, unique)."""
    if len(key.encode("utf-8")) <= MAX_KEY_BYTES:
        return key
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    head = key.encode("utf-8")[:MAX_KEY_BYTES - 18].decode("utf-8", "ignore")
    return f"{head}~{digest}"


def _relative(f: Path, root: Path) -> str:
    """``f``'s path under ``root`` as the user named them (a symlink in a folder keeps its
    own name, wherever it points), else resolved, else its name."""
    for a, b in ((Path(os.path.abspath(f)), Path(os.path.abspath(root))),
                 (f.resolve(), root.resolve())):
        try:
            return a.relative_to(b).as_posix()
        except ValueError:
            continue
    return f.name


def input_keys(files: Sequence[Path], roots: Sequence[Path] | None = None) -> list[str]:
    """Output names: each input's path relative to its root (:func:`list_inputs`; default:
    its own folder), with ``%`` written ``%25`` and ``/`` written ``%2F`` (``a/b.txt`` ->
    ``a%2Fb.txt``), at most :data:`MAX_KEY_BYTES` (a longer one keeps its head and a hash).

    A key does not depend on the other inputs, so adding an input never renames another's
    outputs; when two inputs would share a key, the later one gets ``~`` and a hash of its
    full path."""
    roots = [f.parent for f in files] if roots is None else roots
    keys: list[str] = []
    used: set[str] = set()
    for f, root in zip(files, roots, strict=True):
        rel = _relative(f, root)
        key = _bounded(rel.replace("%", "%25").replace("/", "%2F"))
        if key in used:
            digest = hashlib.sha256(str(f.resolve()).encode()).hexdigest()[:8]
            key = _bounded(f"{key}~{digest}")
        used.add(key)
        keys.append(key)
    return keys
