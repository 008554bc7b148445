"""``POST /jobs``: extraction in the background for large inputs, bounded in number, that
any worker answers for.

A job is a folder under the server's run-time folder (made by the parent process before
the workers fork, removed when it exits): ``status.json`` (state, progress, per-document
errors; replaced atomically after each document by the worker running the job),
``records.jsonl`` (the job's records, appended as documents are done; a reader takes
whole lines only) and ``cancel`` (made by whichever worker is asked to cancel; the
running one checks it between documents). So ``GET /jobs/{id}``, its results and
``DELETE`` reach the job from every worker. A job goes on whatever becomes of the client
that submitted it. At most ``max_running`` jobs run at once over all workers (one more is
answered 503), and at most ``keep`` are kept: the oldest finished ones are removed first.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from relx.app.serve.service import Answer, ServeError

RETRY_AFTER_SECONDS = 5
OVER = ("done", "failed", "cancelled")
JOB_ID = re.compile(r"[0-9a-f]{16}")


def write_atomically(path: Path, text: str) -> None:
    """``path`` replaced by ``text`` at once (a reader sees the old or the new file)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class CancelFile(threading.Event):
    """Set here (this worker is stopping) or by a ``cancel`` file (any worker)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def is_set(self) -> bool:
        return super().is_set() or self.path.exists()


class Jobs:
    """The jobs under ``root``, shared by the workers of one server."""

    def __init__(self, root: Path, max_running: int = 2, keep: int = 100) -> None:
        self.root, self.max_running, self.keep = Path(root), max_running, keep
        self.pool = ThreadPoolExecutor(max_workers=max_running, thread_name_prefix="relx-job")
        self.mine: dict[str, CancelFile] = {}   # jobs this worker runs

    # -- reading (any worker) -------------------------------------------------------------

    def folder(self, job_id: str) -> Path:
        """The job's folder (404 when there is no such job)."""
        folder = self.root / job_id
        if not JOB_ID.fullmatch(job_id) or not (folder / "status.json").is_file():
            raise ServeError(404, f"no job {job_id!r} (finished jobs are removed after "
                                  f"{self.keep} newer ones)")
        return folder

    def status(self, job_id: str) -> dict[str, Any]:
        """The job's status; a job whose worker is gone is ``failed``."""
        status = self._read(self.folder(job_id))
        if status["state"] not in OVER and not _alive(status["pid"]):
            status.update(state="failed", message="the worker running the job stopped")
        return status

    @staticmethod
    def _read(folder: Path) -> dict[str, Any]:
        return json.loads((folder / "status.json").read_text(encoding="utf-8"))

    def cancel(self, job_id: str) -> dict[str, Any]:
        folder = self.folder(job_id)
        (folder / "cancel").touch()
        return self.status(job_id)

    def records(self, job_id: str) -> Iterator[bytes | None]:
        """The job's record lines as they come: bytes (whole lines), or None when there is
        nothing new yet; ends when the job is over and every line was given."""
        folder = self.folder(job_id)
        with open(folder / "records.jsonl", "rb") as fh:
            pending = b""
            while True:
                over = self.status(job_id)["state"] in OVER
                pending += fh.read()
                cut = pending.rfind(b"\n") + 1
                if cut:
                    yield pending[:cut]
                    pending = pending[cut:]
                elif over:
                    return
                else:
                    yield None

    # -- running (the worker that took it) ------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.root / ".lock", "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def submit(self, work: Callable[[Answer], Any], lines: Callable[[list[Any]], str]
               ) -> dict[str, Any]:
        """Start ``work(answer)`` as a job whose records ``lines(results)`` gives as JSON
        lines; its first status. 503 when ``max_running`` jobs are not over, or ``keep``
        are kept and none is over."""
        with self._locked():
            jobs = sorted((self._read(f) for f in self.root.iterdir()
                           if (f / "status.json").is_file()), key=lambda s: s["created"])
            live = [s for s in jobs if s["state"] not in OVER and _alive(s["pid"])]
            if len(live) >= self.max_running:
                raise ServeError(503, f"{len(live)} jobs are running (the limit); try again "
                                      "later", {"Retry-After": str(RETRY_AFTER_SECONDS)})
            over = [s for s in jobs if s not in live]
            while len(jobs) >= self.keep:
                if not over:
                    raise ServeError(503, "too many jobs",
                                     {"Retry-After": str(RETRY_AFTER_SECONDS)})
                old = over.pop(0)
                jobs.remove(old)
                shutil.rmtree(self.root / old["id"], ignore_errors=True)
            job_id = secrets.token_hex(8)
            folder = self.root / job_id
            folder.mkdir()
            (folder / "records.jsonl").touch()
            answer = Answer(cancel=CancelFile(folder / "cancel"))
            status = {"id": job_id, "state": "queued", "created": time.time()}
            self._write(folder, status, answer)
        self.mine[job_id] = answer.cancel   # type: ignore[assignment]
        self.pool.submit(self._run, folder, status, answer, work, lines)
        return self._read(folder)

    def _write(self, folder: Path, status: dict[str, Any], answer: Answer) -> None:
        now = status.get("finished") or time.time()
        out = {**status, "documents": answer.documents, "documents_done": answer.progress,
               "errors": answer.errors, "seconds": round(now - status["created"], 2),
               "pid": os.getpid()}
        write_atomically(folder / "status.json", json.dumps(out))

    def _run(self, folder: Path, status: dict[str, Any], answer: Answer,
             work: Callable[[Answer], Any], lines: Callable[[list[Any]], str]) -> None:
        status["state"] = "running"
        self._write(folder, status, answer)
        with open(folder / "records.jsonl", "a", encoding="utf-8") as out:

            def after_document(a: Answer, got: list[Any]) -> None:
                text = lines(got)
                if text:
                    out.write(text)
                    out.flush()
                self._write(folder, status, a)

            answer.after_document = after_document
            try:
                work(answer)
                status["state"] = "cancelled" if answer.cancel.is_set() else "done"
            except ServeError as exc:
                status.update(state="failed", message=exc.message)
            except Exception as exc:   # noqa: BLE001  (a bug: told in the job, not lost)
                status.update(state="failed",
                              message=f"internal error: {type(exc).__name__}: {exc}")
        status["finished"] = time.time()
        self._write(folder, status, answer)
        self.mine.pop(folder.name, None)

    def stop(self) -> None:
        """This worker stops: its jobs are cancelled (they end after their document)."""
        for cancel in list(self.mine.values()):
            cancel.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
