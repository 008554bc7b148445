"""What both extractors share as an API: the inputs they accept, streaming in order over
batches and processes, and bounded thread pools.

Inputs (:data:`Source`) of ``extract`` and ``pipe``:

- a ``str`` is always text (never a file name); alone it is the document ``"text"``, in an
  iterable the n-th string (counting from 1) is ``"text-<n>"``;
- a :class:`~pathlib.Path` (any ``os.PathLike``) is a file or folder, read by
  :func:`relx.io.registry.read` (format detected); its documents keep their ids;
- a :class:`~relx.doc.Document` keeps its id (and its entities: given proteins are used);
- an ``(id, text)`` pair (a 2-tuple whose second item is a ``str``) is the document ``id``;
- an iterable of any of these (strings, pairs, documents, paths); several texts go in a
  list (a tuple of two strings is one ``(id, text)`` pair).

Anything else is refused with a ``TypeError`` naming it (and, in an iterable, its index):
``bytes`` (decode them first), a ``dict`` (give its ``(id, text)`` items), a ``set`` (no
order, so no stable ids), ``None``, numbers.

Threads: an extractor is thread-safe. Several threads may share one (a web service: one
``relx.load()``, a request per thread) and each gets exactly what sequential calls give.
relx's pipeline keeps per-call state in shared objects (scispacy's abbreviation matcher
gains and drops a rule per definition it finds; the process-wide BLAS/OpenMP limits), so
extraction runs one batch at a time per process: a thread waits while another's batch
(:attr:`StreamingExtractor.batch_docs` documents) is extracted, and throughput equals one
thread's. relx computes with one thread per process (numba's pool, the BLAS and OpenMP
runtimes) while it extracts: with several pools of threads competing for the cores, one
abstract took ~0.9 s instead of < 0.1 s. Scale out with processes (``n_process``, the
batch runner) instead; :func:`limited_threads` sets and restores the limits per batch.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Self

from relx.doc import Document
from relx.doc_limits import DocumentLimitError, batches

__all__ = ["DEFAULT_TEXT_ID", "Source", "StreamingExtractor", "as_documents",
           "bootstrap_worker", "limited_threads", "single_thread"]

DEFAULT_TEXT_ID = "text"
Item = str | os.PathLike | Document | tuple[str, str]
Source = Item | Iterable[Item]


_KINDS = "give text, a Path, a Document or an (id, text) pair, or a list of these"


def _refusal(obj: Any) -> str:
    """Why ``obj`` is not an input (what to give instead)."""
    kind = type(obj).__name__
    if isinstance(obj, bytes | bytearray | memoryview):
        return f"cannot extract from {kind}: decode it to text first (data.decode('utf-8'))"
    if isinstance(obj, Mapping):
        return (f"cannot extract from {kind}: give its (id, text) pairs, e.g. "
                "list(texts.items())")
    if isinstance(obj, set | frozenset):
        return (f"cannot extract from {kind}: a set has no order, so its texts get no "
                "stable ids; give a list")
    if isinstance(obj, tuple):
        return (f"cannot extract from a tuple of {len(obj)} items: an (id, text) pair has "
                "two items, the second a str; several texts go in a list")
    return f"cannot extract from {kind}: {_KINDS}"


def _usable(item: Any) -> bool:
    return isinstance(item, Document | str | os.PathLike) or (
        isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str))


def _item_documents(item: Any, n: int) -> Iterator[Document]:
    if isinstance(item, Document):
        yield item
    elif isinstance(item, str):
        yield Document(id=f"{DEFAULT_TEXT_ID}-{n}", text=item)
    elif isinstance(item, os.PathLike):
        from relx.io.registry import read

        yield from read(Path(item))
    elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str):
        yield Document(id=str(item[0]), text=item[1])
    else:
        raise TypeError(_refusal(item))


def as_documents(source: Source) -> Iterator[Document]:
    """The documents of ``source`` (see the module docstring), lazily and in order; an
    unusable input (or item of an iterable: named by its index) raises ``TypeError``."""
    if isinstance(source, str):
        yield Document(id=DEFAULT_TEXT_ID, text=source)
    elif isinstance(source, Document | os.PathLike):
        yield from _item_documents(source, 1)
    elif isinstance(source, tuple) and len(source) == 2 and isinstance(source[1], str):
        yield from _item_documents(source, 1)      # one (id, text) pair
    elif isinstance(source, Iterable) and not isinstance(
            source, bytes | bytearray | memoryview | Mapping | set | frozenset):
        n = 0
        for i, item in enumerate(source):
            if not _usable(item):
                raise TypeError(f"input item {i} (counting from 0): {_refusal(item)}")
            n += isinstance(item, str)
            yield from _item_documents(item, n)
    else:
        raise TypeError(_refusal(source))


# --- threads ----------------------------------------------------------------------------
_controller: Any = None
_controller_lock = threading.Lock()


def _thread_controller() -> Any:
    """A threadpoolctl controller of the thread pools loaded so far (built once: finding
    them scans the process's libraries)."""
    global _controller
    with _controller_lock:
        if _controller is None:
            import scipy.linalg  # noqa: F401  (scipy's BLAS)
            from threadpoolctl import ThreadpoolController

            _load_sklearn_openmp()

            _controller = ThreadpoolController()
        return _controller


def _load_sklearn_openmp() -> None:
    """Load scikit-learn's OpenMP runtime where scikit-learn is in use (fitting: its
    boosted trees run OpenMP threads), so threadpoolctl sees and limits it. A process that
    only predicts does not import scikit-learn (:mod:`relx.estimator`) and runs no OpenMP
    of scikit-learn's; the environment variables cover a later import."""
    if "sklearn" in sys.modules:
        import sklearn.utils._openmp_helpers  # noqa: F401


@contextlib.contextmanager
def limited_threads(n: int | None = 1) -> Iterator[None]:
    """At most ``n`` threads in numba's pool, the BLAS and OpenMP inside the block (the
    previous limits restored after); ``None``: leave them alone."""
    if n is None:
        yield
        return
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(min(n, numba.config.NUMBA_NUM_THREADS))
    try:
        with _thread_controller().limit(limits=n):
            yield
    finally:
        numba.set_num_threads(old)


# --- streaming ---------------------------------------------------------------------------
_worker: Any = None


#: young-generation threshold of the cyclic garbage collector in a batch process (Python's
#: default 700): extraction makes many short-lived containers, few of them cyclic
GC_YOUNG_THRESHOLD = 10_000


#: a text that makes an extractor load what it loads on first use -- the spaCy components,
#: the human lexicon and, from the mouse genes, the other species' lexicons and the
#: ortholog table -- so that :func:`settle_heap` exempts them too
WARM_UP_TEXT = "Human JAK1 phosphorylates STAT5. In mice, murine Jak2 binds Stat3."


def warm_up(extractor: Any) -> None:
    """Run ``extractor`` once on :data:`WARM_UP_TEXT` (an extractor without ``extract``
    is left alone)."""
    extract = getattr(extractor, "extract", None)
    if extract is not None:
        extract(WARM_UP_TEXT)


def settle_heap() -> None:
    """Once the models are loaded in a process relx owns: exempt everything alive now (the
    models and the imported libraries, ~370,000 tracked objects) from the cyclic garbage
    collector's full collections, which traverse them all (~0.25 s each, 10% of the typed
    pass), and collect young objects less often. Called in relx's own processes (``relx
    extract``, ``--jobs`` and Dask workers, ``pipe(n_process=...)`` workers); :func:`relx.load`
    leaves a host application's collector alone (a long-running service may call this after
    loading too).
    """
    from relx.heap import freeze

    freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)


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
    from threadpoolctl import threadpool_limits

    _load_sklearn_openmp()

    numba.set_num_threads(1)
    threadpool_limits(1)


def bootstrap_worker(factory: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What every relx worker process does first (``pipe(n_process=...)``, ``relx extract
    --jobs``, Dask workers): one compute thread, then its extractor ``factory(*args,
    **kwargs)``, :func:`warm_up`, then :func:`settle_heap`. Returns the extractor."""
    single_thread()
    extractor = factory(*args, **kwargs)
    warm_up(extractor)
    settle_heap()
    return extractor


def _load_worker(factory: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    """Process-pool initializer of ``pipe(n_process=...)``: :func:`bootstrap_worker`."""
    global _worker
    _worker = bootstrap_worker(factory, *args, **kwargs)


def _worker_results(docs: list[Document]) -> list[list[Any]]:
    return _worker._batch(docs)


#: ``_model_ref`` of an extractor built from a model object (not a name or directory)
GIVEN_OBJECT = "<a model object>"


def is_none(value: object) -> bool:
    """``exclude_if`` of a result field left out of the JSON when None (a paper's place)."""
    return value is None

#: held while a batch is extracted: one batch at a time per process (see the module
#: docstring); re-entrant, so a stage may call another extractor (the event typer)
EXTRACTING = threading.RLock()
#: the extractors whose batch is being extracted now, outermost first (under EXTRACTING)
_BATCHES_OPEN: list[Any] = []


class StreamingExtractor:
    """``extract`` and ``pipe`` over :meth:`annotate` (documents -> per document: the
    annotated document, its results, a count), which a task's extractor implements;
    ``threads``: the thread limit while extracting (``None``: the libraries' defaults).

    A subclass sets ``_model_ref`` (its model's name or directory, or
    :data:`GIVEN_OBJECT`) and ``_options`` (its other keyword arguments), so that worker
    processes can build an equal extractor; ``WARM_UP_TEXT`` runs every stage once."""

    batch_docs: int = 64
    threads: int | None = 1
    max_doc_chars: int | None = None
    ground: bool = True   # ground the mentions of annotated documents (:meth:`_ground`)
    WARM_UP_TEXT: str = ""
    MODEL_KIND: str = "model"
    _model_ref: Any = None
    _options: dict[str, Any] = {}

    @classmethod
    def loaded(cls, model: Any = None, **options: Any) -> Self:
        """The extractor of ``model`` (None: the task's shipped model), loaded and warmed
        up (``warm_up=False``: load the parse pipeline at the first call instead)."""
        options.setdefault("warm_up", True)
        return cls(model, **options)

    def _ground(self, doc: Document) -> Document:
        """``doc`` with its mentions grounded when ``ground`` (species-aware; an input's
        ids first), else ``doc``."""
        if not self.ground:
            return doc
        from relx.genes.document import ground_document  # the process-wide shipped lexicons

        return ground_document(doc, keep_given=True)

    def _annotate(self, docs: list[Document]
                  ) -> Iterator[tuple[Document, list[Any], Any]]:  # pragma: no cover
        """What a task's extractor does with one batch of documents (not thread-safe)."""
        raise NotImplementedError

    def annotate(self, docs: Iterable[Document]
                 ) -> Iterator[tuple[Document, list[Any], Any]]:
        """Per document of ``docs``: the annotated document, its results and a count (what
        the task's extractor says), in order; batches of ``batch_docs`` documents, one
        batch at a time per process (thread-safe: see :mod:`relx.api`). A document longer
        than ``max_doc_chars`` raises :class:`relx.doc_limits.DocumentTooLong` once the
        documents before it are yielded."""
        from relx.doc_limits import check_length

        for chunk in batches(docs, self.batch_docs):
            for k, d in enumerate(chunk):
                try:
                    check_length(d.id, d.text, self.max_doc_chars)
                except ValueError:
                    yield from self._locked(chunk[:k])
                    raise
            yield from self._locked(chunk)

    def _locked(self, docs: list[Document]) -> list[tuple[Document, list[Any], Any]]:
        if not docs:
            return []
        from relx.structures import forget_sentences

        with EXTRACTING:
            if not _BATCHES_OPEN:   # a new batch, not one inside another's (typing pairs)
                forget_sentences()   # the last batch's sentence graphs: not read again
            _BATCHES_OPEN.append(self)
            try:
                return list(self._annotate(docs))
            finally:
                _BATCHES_OPEN.pop()

    @property
    def skipped(self) -> dict[str, int]:
        """Work the per-sentence caps skipped so far: ``sentences``, ``pairs``."""
        if "_skipped" not in self.__dict__:
            self._skipped = {"sentences": 0, "pairs": 0}
        return self._skipped

    def warm_up(self) -> None:
        """Load what is loaded lazily (parse pipeline, lexicon, compiled kernels) by
        extracting from one sentence; the results are dropped."""
        self.extract(self.WARM_UP_TEXT)

    def _results(self, docs: list[Document]) -> list[list[Any]]:
        return [found for _, found, _ in self.annotate(docs)]

    def _rebuild(self) -> tuple[Callable[..., Any], tuple, dict]:
        """(factory, args, kwargs) that build an equal extractor in another process."""
        if self._model_ref is GIVEN_OBJECT:
            raise ValueError(f"n_process > 1 needs the {self.MODEL_KIND} as a name or "
                             "directory (each process loads its own copy)")
        return type(self), (self._model_ref,), {**self._options, "warm_up": False}

    def _batch(self, docs: list[Document]) -> list[list[Any]]:
        with EXTRACTING, limited_threads(self.threads):
            return self._results(docs)

    def extract(self, source: Source, *,
                on_error: Callable[[DocumentLimitError], Any] | None = None) -> list[Any]:
        """Every result of ``source`` (text, a path, a Document, ``(id, text)``, or an
        iterable of these; see :mod:`relx.api`), documents in input order; ``on_error`` as
        in :meth:`pipe`."""
        return [r for found in self.pipe(source, batch_size=self.batch_docs,
                                         on_error=on_error) for r in found]

    def pipe(self, texts: Source, *, batch_size: int | None = None, n_process: int = 1,
             on_error: Callable[[DocumentLimitError], Any] | None = None
             ) -> Iterator[list[Any]]:
        """One result list per document of ``texts``, streamed in input order.

        ``batch_size``: documents parsed and scored together (default ``batch_docs``);
        ``n_process > 1``: that many worker processes (spawned; each loads its own copy of
        the models, a few seconds), batches handed out round-robin and their results
        yielded in order. A document over ``max_doc_chars`` / ``max_doc_seconds`` raises
        its :class:`relx.doc_limits.DocumentLimitError` -- or, with ``on_error``, is handed
        to it and gets an empty list, and the documents after it go on (a batch that runs
        out of time is redone one document at a time, so only that document is lost).
        """
        size = batch_size or self.batch_docs
        groups = batches(as_documents(texts), size)
        if n_process <= 1:
            for docs in groups:
                yield from (self._batch(docs) if on_error is None
                            else self._batch_reporting(docs, on_error))
            return
        if on_error is not None:
            groups = ([d] for docs in groups for d in docs)   # one document per task
        yield from self._pipe_processes(groups, n_process, on_error)

    def _batch_reporting(self, docs: list[Document],
                         on_error: Callable[[DocumentLimitError], Any]) -> list[list[Any]]:
        """:meth:`_batch`, a document over a limit reported to ``on_error`` (results [])."""
        from relx.doc_limits import check_length

        out: list[list[Any] | None] = [None] * len(docs)
        todo = []
        for k, d in enumerate(docs):
            try:
                check_length(d.id, d.text, self.max_doc_chars)
                todo.append(k)
            except DocumentLimitError as exc:
                on_error(exc)
                out[k] = []
        try:
            for k, found in zip(todo, self._batch([docs[k] for k in todo]), strict=True):
                out[k] = found
        except DocumentLimitError as exc:
            if len(todo) > 1:          # which one? each alone
                for k in todo:
                    out[k] = self._batch_reporting([docs[k]], on_error)[0]
            else:
                on_error(exc)
                out[todo[0]] = []
        return [found or [] for found in out]

    def _pipe_processes(self, batches: Iterator[list[Document]], n_process: int,
                        on_error: Callable[[DocumentLimitError], Any] | None = None
                        ) -> Iterator[list[Any]]:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        factory, args, kwargs = self._rebuild()
        with ProcessPoolExecutor(max_workers=n_process, mp_context=mp.get_context("spawn"),
                                 initializer=_load_worker,
                                 initargs=(factory, args, kwargs)) as pool:
            pending: deque[Any] = deque()

            def done() -> list[list[Any]]:
                task = pending.popleft()
                if on_error is None:
                    return task.result()
                try:
                    return task.result()
                except DocumentLimitError as exc:   # a one-document task (see pipe)
                    on_error(exc)
                    return [[]]

            for docs in batches:
                pending.append(pool.submit(_worker_results, docs))
                if len(pending) >= 2 * n_process:   # bounded read-ahead
                    yield from done()
            while pending:
                yield from done()
