"""``POST /jobs``: extraction in the background for large inputs, bounded in number.

A job runs on its own thread pool (``max_running`` at a time; one more is answered 503),
whatever becomes of the client that submitted it; its :class:`Answer` fills as documents
are done, so ``GET /jobs/{id}`` reports progress and ``GET /jobs/{id}/results`` streams
the records as they come. At most ``keep`` jobs are remembered; the oldest finished ones
are forgotten first.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from relx.app.serve.service import Answer, ServeError

RETRY_AFTER_SECONDS = 5


@dataclass
class Job:
    """One job: ``state`` is queued, running, done, failed or cancelled."""

    id: str
    answer: Answer = field(default_factory=Answer)
    state: str = "queued"
    message: str | None = None
    created: float = field(default_factory=time.time)
    finished: float | None = None

    @property
    def over(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def status(self) -> dict[str, Any]:
        a = self.answer
        out = {"id": self.id, "state": self.state, "documents": a.documents,
               "documents_done": a.progress, "errors": a.errors,
               "seconds": round((self.finished or time.time()) - self.created, 2)}
        if self.message:
            out["message"] = self.message
        return out


class Jobs:
    """The jobs of one worker process."""

    def __init__(self, max_running: int = 2, keep: int = 100) -> None:
        self.max_running, self.keep = max_running, keep
        self.pool = ThreadPoolExecutor(max_workers=max_running, thread_name_prefix="relx-job")
        self.jobs: OrderedDict[str, Job] = OrderedDict()

    def submit(self, work: Callable[[Answer], Any]) -> Job:
        """Start ``work(answer)`` as a job (503 when ``max_running`` are not over, or
        ``keep`` jobs are remembered and none is over)."""
        live = [j for j in self.jobs.values() if not j.over]
        if len(live) >= self.max_running:
            raise ServeError(503, f"{len(live)} jobs are running (the limit); try again later",
                             {"Retry-After": str(RETRY_AFTER_SECONDS)})
        while len(self.jobs) >= self.keep:
            old = next((k for k, j in self.jobs.items() if j.over), None)
            if old is None:
                raise ServeError(503, "too many jobs", {"Retry-After": str(RETRY_AFTER_SECONDS)})
            del self.jobs[old]
        job = Job(secrets.token_hex(8))
        self.jobs[job.id] = job
        self.pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Answer], Any]) -> None:
        job.state = "running"
        try:
            work(job.answer)
            job.state = "cancelled" if job.answer.cancel.is_set() else "done"
        except ServeError as exc:
            job.state, job.message = "failed", exc.message
        except Exception as exc:   # noqa: BLE001  (a bug: told in the job, not lost)
            job.state, job.message = "failed", f"internal error: {type(exc).__name__}: {exc}"
        job.finished = time.time()

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise ServeError(404, f"no job {job_id!r} (finished jobs are forgotten after "
                                  f"{self.keep} newer ones)")
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        job.answer.cancel.set()
        return job
