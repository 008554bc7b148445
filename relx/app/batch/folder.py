"""The batch output folder's layout, in one place: what it remembers between runs and
where each thing lives.

    out/.lock                        the run holding the folder (:func:`batch_lock`)
    out/.settings.json               what the results were made with (:func:`check_settings`)
    out/.done/<key>.json             an input's record: identity, counts, errors
    out/.done/<key>/<chunk>.json     a chunk's record
    out/.parts/<key>/<chunk>/        a chunk's outputs, joined when the input is done
    out/.claims/standoff/<stem>      a standoff file stem and the document owning it
    out/<format output>              an input's output per format (``jsonl/<key>.jsonl``...)
    out/<results>.jsonl, errors.jsonl, summary.json    the merged outputs

It takes paths and records, never the run plan, and calls no other batch module: every
stage of the batch (:mod:`relx.app.batch`) reads and writes the folder through it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relx.errors import BatchError, ConfigError
from relx.io.atomic import atomic_open
from relx.tasks import Task

if TYPE_CHECKING:
    from relx.app.batch.plan import Unit

ERRORS = "errors.jsonl"
SUMMARY = "summary.json"


#: write errors that are the machine's, not an input's: the run stops (and resumes later)
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


class BatchLocked(BatchError):
    """Another run holds the lock of the output folder."""


def out_of_space(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk (or a quota, or a size limit) is full."""
    return isinstance(exc, OSError) and exc.errno in NO_SPACE


# --------------------------------------------------------------------------- paths

def chunk_name(index: int) -> str:
    return f"{index:05d}"


def input_record_path(out: Path, key: str) -> Path:
    return out / ".done" / f"{key}.json"


def chunk_record_path(out: Path, key: str, index: int) -> Path:
    return out / ".done" / key / f"{chunk_name(index)}.json"


def parts_dir(out: Path, key: str, index: int) -> Path:
    return out / ".parts" / key / chunk_name(index)


def input_output(out: Path, fmt: str, key: str) -> Path:
    """Input ``key``'s output in format ``fmt`` (``jsonl/<key>.jsonl``...)."""
    from relx.io.registry import FORMATS

    return out / (FORMATS[fmt].output or fmt).format(key=key)


def results_path(out: Path, task: Task) -> Path:
    """The merged results of the batch (``relations.jsonl``, ``events.jsonl``)."""
    return out / f"{task.results}.jsonl"


# --------------------------------------------------------------------------- records

def error(input: str, document: str | None, stage: str, message: str) -> dict[str, str]:
    """One ``errors.jsonl`` entry."""
    return {"input": input, "document": document or "", "stage": stage, "error": message}


def empty_record(unit: Unit, task: Task) -> dict[str, Any]:
    """The record of a chunk before any work."""
    return {"input": unit.input, "key": unit.key, "chunk": unit.index, "first": unit.first,
            "identity": unit.identity, "documents": 0, "sentences": 0,
            **dict.fromkeys(task.counts, 0), "skipped_sentences": 0, "skipped_pairs": 0,
            "renamed_ids": [], "errors": list(unit.read_errors), "failed": unit.failed,
            "truncated": [{"input": unit.input, "document": d.id, "note": d.meta["truncated"]}
                          for d in unit.docs if d.meta.get("truncated")],
            "seconds": 0.0}


def failed_record(unit: Unit, task: Task, stage: str, message: str) -> dict[str, Any]:
    """The record of a chunk whose work was lost (a worker died, twice)."""
    rec = empty_record(unit, task)
    rec["failed"] = True
    rec["errors"].append(error(unit.input, f"{len(unit.docs)} documents from #{unit.first}",
                               stage, message))
    return rec


def load_record(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def load_input_record(out: Path, key: str) -> dict[str, Any] | None:
    return load_record(input_record_path(out, key))


def write_input_record(out: Path, rec: dict[str, Any]) -> None:
    with atomic_open(input_record_path(out, rec["key"])) as fh:
        json.dump(rec, fh)


def write_chunk_record(out: Path, rec: dict[str, Any]) -> None:
    with atomic_open(chunk_record_path(out, rec["key"], rec["chunk"])) as fh:
        json.dump(rec, fh)


def load_settings(out: Path) -> dict[str, Any]:
    """The settings the folder's results were made with (``{}``: none recorded)."""
    return load_record(out / ".settings.json") or {}


def drop_parts(out: Path, key: str) -> None:
    """The chunk outputs of input ``key`` (once joined)."""
    shutil.rmtree(out / ".parts" / key, ignore_errors=True)


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


def inputs_to_do(out: Path, files: Sequence[Path], keys: Sequence[str], chunk_size: int
                 ) -> list[tuple[Path, str]]:
    """``(file, key)`` of the inputs a run must (re)do: all but those whose record says
    done, unchanged (:func:`same_input`) and cut in chunks of ``chunk_size``. A changed
    input is forgotten (:func:`clear_input`: redone from scratch); a failed one keeps its
    chunk records and parts (only its failed chunks are redone)."""
    todo = []
    for f, k in zip(files, keys, strict=True):
        rec = load_input_record(out, k)
        if rec is not None and not rec.get("failed") and same_input(f, rec.get("identity")) \
                and rec.get("chunk_size") == chunk_size:
            continue
        if rec is not None and not (same_input(f, rec.get("identity"))
                                    and rec.get("chunk_size") == chunk_size):
            clear_input(out, k)       # changed: redo from scratch
        input_record_path(out, k).unlink(missing_ok=True)
        todo.append((f, k))
    return todo


def clear_input(out: Path, key: str) -> None:
    """Forget everything of input ``key``: records, parts and per-input outputs."""
    from relx.io.registry import FORMATS

    input_record_path(out, key).unlink(missing_ok=True)
    for d in (out / ".done" / key, out / ".parts" / key):
        shutil.rmtree(d, ignore_errors=True)
    for name, fmt in FORMATS.items():
        if fmt.output is None:
            continue
        p = input_output(out, name, key)
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


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


