"""Per-document limits of the extractors: how long a text may be, how long it may take.

Both extractors (:class:`relx.ppi.extract.Extractor`, :class:`relx.ge.extract.EventExtractor`)
take ``max_doc_chars`` (default :data:`DEFAULT_MAX_DOC_CHARS`) and ``max_doc_seconds``
(default :data:`DEFAULT_MAX_DOC_SECONDS`); ``None`` turns a limit off. A document over one
raises a :class:`DocumentLimitError` naming it (``document``), the limit (``limit``:
``"max_doc_chars"`` or ``"max_doc_seconds"``), its value and the ``stage`` that noticed
it. ``annotate`` (the batch runner's entry) has yielded the documents before it;
``extract`` and ``pipe`` raise it instead of the results of its batch, so a caller that
wants to go on (a batch runner) retries the other documents of the batch.

- :class:`DocumentTooLong`: checked before any work on the document.
- :class:`DocumentTimeout`: seconds of CPU time of the extracting thread (relx computes
  on that one thread), not of the clock on the wall, so a busy machine does not make a
  document time out, and time spent waiting for another thread's batch does not count.
  Read between the blocks of a long document's parse (counted from the start of its
  parse; :data:`relx.parse.spacy_docs.BLOCK_CHARS`) and after each stage of its batch (pair
  scoring, typing; events; counted from the start of the batch's work): a stage that is
  running finishes first, and the error names the longest document of the batch (the
  document itself when the batch is one document, as a batch runner's retry makes it).

Extraction time and memory grow linearly with a document's length
(``benchmarks/bench_scaling.py``, interactions with types, one core of a shared 2-core
machine: 100 kB, 1 MB and 10 MB of abstracts in one document took 5.4, 58 and 595 s of
CPU, and peaked at 0.15, 0.76 and 3.6 GB over the loaded models), so the defaults stop a
runaway input (a whole book pasted as one document, a binary file read as text) well
before it exhausts the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TypeVar

from relx.errors import RelxError

__all__ = ["DEFAULT_MAX_DOC_CHARS", "DEFAULT_MAX_DOC_SECONDS", "DocumentClock",
           "DocumentLimitError", "DocumentTimeout", "DocumentTooLong", "batches", "bounded_batches",
           "check_length"]

T = TypeVar("T")

#: characters of one document (``max_doc_chars``): ~1,500 abstracts, a long review's
#: full text several times over
DEFAULT_MAX_DOC_CHARS = 2_000_000
#: CPU seconds of one document (``max_doc_seconds``): ~2.5x what the longest document
#: allowed by :data:`DEFAULT_MAX_DOC_CHARS` takes (~120 s)
DEFAULT_MAX_DOC_SECONDS = 300.0


class DocumentLimitError(RelxError):
    """A document over a per-document limit: ``document`` (its id), ``limit`` (the
    option's name), ``value`` (the limit) and ``stage`` (where it was noticed)."""

    def __init__(self, document: str, limit: str, value: float, stage: str,
                 message: str) -> None:
        self.document, self.limit, self.value, self.stage = document, limit, value, stage
        self.message = message
        super().__init__(f"document {document}: {message}")

    def __reduce__(self) -> tuple:
        """Pickled with its fields: it crosses from a worker process to the caller."""
        return (type(self), (self.document, self.limit, self.value, self.stage, self.message))


class DocumentTooLong(DocumentLimitError):
    """A document's text is longer than ``max_doc_chars``."""


class DocumentTimeout(DocumentLimitError):
    """A document took longer than ``max_doc_seconds``."""


def batches(items: Iterable[T], n: int) -> Iterator[list[T]]:
    """Consecutive lists of ``n`` items (the last one shorter)."""
    it = iter(items)
    while batch := list(islice(it, n)):
        yield batch


def bounded_batches(items: Iterable[T], n: int, max_size: int, size: Callable[[T], int]
                    ) -> Iterator[list[T]]:
    """Consecutive lists of at most ``n`` items whose ``size`` sums, past each list's
    first item, to at most ``max_size`` (what one round of work holds in memory)."""
    batch: list[T] = []
    total = 0
    for item in items:
        k = size(item)
        if batch and (len(batch) >= n or total + k > max_size):
            yield batch
            batch, total = [], 0
        batch.append(item)
        total += k
    if batch:
        yield batch


def check_length(doc_id: str, text: str, max_chars: int | None) -> None:
    """Raise :class:`DocumentTooLong` when ``text`` is over ``max_chars`` characters."""
    if max_chars is not None and len(text) > max_chars:
        raise DocumentTooLong(doc_id, "max_doc_chars", max_chars, "read",
                              f"{len(text):,} characters, over the limit of {max_chars:,} "
                              "(max_doc_chars); split it or raise the limit")


class DocumentClock:
    """Per document (by object identity): the thread's CPU time when its work started;
    :meth:`check` (in the same thread) raises :class:`DocumentTimeout` once more than
    ``max_seconds`` of CPU time have been spent since."""

    def __init__(self, max_seconds: float | None) -> None:
        self.max_seconds = max_seconds
        self._started: dict[int, float] = {}

    def start(self, doc: object) -> None:
        self._started.setdefault(id(doc), time.thread_time())

    def forget(self, doc: object) -> None:
        self._started.pop(id(doc), None)

    def check(self, doc: object, doc_id: str, stage: str) -> None:
        if self.max_seconds is None:
            return
        t0 = self._started.get(id(doc))
        if t0 is not None and time.thread_time() - t0 > self.max_seconds:
            raise DocumentTimeout(doc_id, "max_doc_seconds", self.max_seconds, stage,
                                  f"took more than {self.max_seconds:g} s of CPU time (max_doc_seconds), "
                                  f"stopped after its {stage}; split it or raise the limit")
