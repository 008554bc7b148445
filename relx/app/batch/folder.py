"""What a batch folder remembers between runs: input identities and records, the settings
its results were made with, its lock and the leftovers of a killed run."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from relx.app.batch.plan import BatchOptions
from relx.errors import BatchError, ConfigError
from relx.io.atomic import atomic_open
from relx.model_store import model_meta
from relx.tasks import get_task


class BatchLocked(BatchError):
    """Another run holds the lock of the output folder."""


class RunAborted(RuntimeError):
    """A running batch had to stop for a reason outside its inputs (disk full, the Dask
    scheduler lost); what is finished is kept and a rerun of the same command resumes."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what}; the finished inputs are kept: rerun the same command "
                         "(same --out) to resume")


def run_settings(opts: BatchOptions) -> dict[str, Any]:
    """What decides an input's outputs (a resumed batch must use the same)."""
    task = get_task(opts.task)
    model = opts.model or task.default_model
    meta = model_meta(model)
    from relx.io.papers import sections_label, sections_option

    extra = task.runner_().settings(opts.extractor_options())
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


def check_settings(out: Path, settings: dict[str, Any]) -> None:
    """Refuse to resume into ``out`` when its finished inputs were made with other settings;
    else record ``settings`` in ``out/.settings.json``."""
    path = out / ".settings.json"
    done = out / ".done"
    if path.exists() and done.is_dir() and any(done.iterdir()):
        old = json.loads(path.read_text(encoding="utf-8"))
        diff = {k: (old.get(k), v) for k, v in settings.items() if old.get(k) != v}
        if diff:
            what = "; ".join(f"{k}: {a!r} then, {b!r} now" for k, (a, b) in diff.items())
            raise ConfigError(f"{out} holds results made with other settings ({what}); "
                             f"write to a new --out folder, or delete {done} to redo every input")
    out.mkdir(parents=True, exist_ok=True)
    with atomic_open(path) as fh:
        json.dump(settings, fh, indent=2)


@contextmanager
def batch_lock(out: Path) -> Iterator[None]:
    """Hold an exclusive ``fcntl`` lock on ``out/.lock`` (no-op where fcntl is missing);
    raises :class:`BatchLocked` when another run holds it."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # Windows: no lock
        yield
        return
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            other = os.pread(fd, 64, 0).decode(errors="replace").strip()
            raise BatchLocked(f"{out} is in use by another relx extract (pid {other or '?'}); "
                              "wait for it to finish or write to another --out folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


def remove_leftovers(out: Path) -> int:
    """Delete temporary files a killed run left (``.*.tmp`` files and folders)."""
    n = 0
    for p in list(out.rglob(".*.tmp")):
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        n += 1
    return n


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def input_identity(path: Path) -> dict[str, Any]:
    """Size, modification time (ns) and SHA-256 of an input file."""
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": file_sha256(path)}


def same_input(path: Path, old: dict[str, Any] | None) -> bool:
    """Whether ``path`` is still the input ``old`` describes: same size and mtime, or
    else the same content hash."""
    if not old:
        return False
    try:
        st = path.stat()
    except OSError:
        return False
    if st.st_size != old.get("size"):
        return False
    return st.st_mtime_ns == old.get("mtime_ns") or file_sha256(path) == old.get("sha256")


def load_record(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def clear_input(out: Path, key: str) -> None:
    """Forget everything of input ``key``: records, parts and per-input outputs."""
    from relx.io.registry import FORMATS

    (out / ".done" / f"{key}.json").unlink(missing_ok=True)
    for d in (out / ".done" / key, out / ".parts" / key):
        shutil.rmtree(d, ignore_errors=True)
    for fmt in FORMATS.values():
        if fmt.output is None:
            continue
        p = out / fmt.output.format(key=key)
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


