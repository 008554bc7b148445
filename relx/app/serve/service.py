"""What ``relx serve`` does with a request, apart from HTTP: the loaded extractor, the
request models, extraction of documents and uploaded files, and output formats.

A :class:`Service` is built once per worker process (the models loaded and warmed up
before it takes a request). Bad input raises :class:`ServeError` (an HTTP status and a
message); a document over a per-document cap, or one an uploaded file could not give, is
a per-document error in the answer, and the other documents are still served.
"""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from relx.app.serve.options import Calibrations, Options, check, configured, merged
from relx.errors import RelxError
from relx.tasks import Task

#: request body limit (bytes): a JSON body or an uploaded file
DEFAULT_MAX_BODY_BYTES = 20 * 2**20
#: characters of one document (a per-document error above it; 413 for a lone ``text``)
DEFAULT_MAX_DOC_CHARS = 1_000_000
#: CPU seconds of one document before it is given up (a per-document error)
DEFAULT_MAX_DOC_SECONDS = 120.0
#: requests extracting or waiting to; one more is answered 503 with Retry-After
DEFAULT_QUEUE = 8
#: documents in one request
MAX_DOCUMENTS = 1000
#: per task results, the function of :mod:`relx.app.serve.page` drawing them (``format=html``)
FRAGMENTS = {"relations": "fragment", "gene_relations": "gene_fragment"}


class ServeError(RelxError):
    """Bad input or a full queue: ``status`` (HTTP), ``message`` and extra ``headers``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None,
                 detail: Any = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers, self.detail = status, message, headers or {}, detail

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "status": self.status}
        if self.detail is not None:
            out["detail"] = self.detail
        return out


class InDocument(BaseModel):
    """One document of a request: an id and its text."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=1000)
    text: str


class ExtractRequest(Options):
    """``POST /extract`` JSON: ``text`` (one document, id ``text``) or ``documents``, and
    the extraction options (:class:`~relx.app.serve.options.Options`; over the query
    string's)."""

    model_config = ConfigDict(extra="forbid")
    text: str | None = Field(default=None, description="one document (its id: 'text')")
    documents: list[InDocument] | None = Field(default=None, max_length=MAX_DOCUMENTS)

    def items(self) -> list[InDocument]:
        if (self.text is None) == (self.documents is None):
            raise ServeError(422, "give exactly one of 'text' or 'documents'")
        if self.text is not None:
            return [InDocument(id="text", text=self.text)]
        assert self.documents is not None
        ids = [d.id for d in self.documents]
        if len(set(ids)) != len(ids):
            raise ServeError(422, "document ids must be unique")
        return self.documents


class Query(Options):
    """The query string of ``POST /extract`` and ``POST /jobs``: ``format`` (an output
    format of the task, default ``json``: ``{"<results>": [...], "errors": [...]}``) and
    the extraction options."""

    model_config = ConfigDict(extra="forbid")
    format: str = Field(default="json", max_length=40,
                        description="json, jsonl, html or a writer's format (GET /models)")


def validation_message(exc: ValidationError) -> tuple[str, list[dict[str, Any]]]:
    """A one-line message and the per-field detail of a pydantic error."""
    detail = [{"field": ".".join(map(str, e["loc"])), "problem": e["msg"]}
              for e in exc.errors(include_url=False, include_input=False)]
    return "; ".join(f"{d['field'] or 'body'}: {d['problem']}" for d in detail), detail


def parse_request(body: bytes) -> ExtractRequest:
    """The JSON body as an :class:`ExtractRequest` (422 naming what is wrong, 400 for JSON
    that does not parse)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ServeError(400, f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServeError(422, "the JSON body must be an object with 'text' or 'documents'")
    try:
        return ExtractRequest.model_validate(data)
    except ValidationError as exc:
        message, detail = validation_message(exc)
        raise ServeError(422, message, detail=detail) from None


def parse_query(args: dict[str, str]) -> Query:
    try:
        return Query.model_validate(args)
    except ValidationError as exc:
        message, detail = validation_message(exc)
        raise ServeError(422, message, detail=detail) from None


@dataclass
class Limits:
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS
    max_doc_seconds: float = DEFAULT_MAX_DOC_SECONDS
    queue: int = DEFAULT_QUEUE


@dataclass
class Answer:
    """What one request gave: per document ``(annotated document, results, extra)``, the
    per-document errors and the document count."""

    done: list[tuple[Any, list[Any], Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    documents: int = 0
    progress: int = 0   # documents extracted or failed so far
    cancel: threading.Event = field(default_factory=threading.Event)
    #: when set, called after each document with its results (which then are not kept
    #: in ``done``: a job appends them to its file)
    after_document: Callable[[Answer, list[Any]], None] | None = None

    def document_over(self, got: list[Any]) -> None:
        """One more document extracted (``got``: its results) or failed (``[]``)."""
        self.progress += 1
        if self.after_document is not None:
            self.after_document(self, got)
        else:
            self.done.extend(got)


def _one_file(task: Task, fmt: str) -> bool:
    """Whether ``fmt`` writes what ``task`` gives as one file (not a folder, as brat)."""
    from relx.io.registry import FORMATS

    spec = FORMATS[fmt]
    return fmt != "jsonl" and task.kind_for(fmt) is not None and bool(
        spec.part_file and Path(spec.part_file).suffix)


class Service:
    """The loaded extractor of ``task`` and what requests need of it."""

    def __init__(self, task: Task, limits: Limits | None = None, model: str | None = None
                 ) -> None:
        import relx

        self.task = task
        self.limits = limits or Limits()
        self.extractor = relx.load(model, task=task, max_doc_chars=self.limits.max_doc_chars,
                                   max_doc_seconds=self.limits.max_doc_seconds)
        self.runner = task.runner_()
        self.model = model
        self.calibrations = Calibrations(model)
        self.queue = threading.BoundedSemaphore(self.limits.queue)
        html = ("html",) if task.results in FRAGMENTS else ()   # the page's fragment
        self.formats = ("json", "jsonl", *html,
                        *(f for f in task.formats() if _one_file(task, f)))

    # -- what is loaded -------------------------------------------------------------------

    def models(self) -> list[dict[str, Any]]:
        """Each model the extractor loaded: name, kind, version, what it was trained on."""
        from relx.model_store import model_meta, trained_on

        out = []
        for name, kind, _ in self.runner.models(self.model, {}):
            meta = model_meta(name)
            out.append({"name": Path(name).name, "kind": kind,
                        "version": meta.get("version", "?"), "task": meta.get("task"),
                        "trained_on": trained_on(meta)})
        return out

    # -- extraction -----------------------------------------------------------------------

    def check_format(self, fmt: str) -> None:
        if fmt not in self.formats:
            raise ServeError(422, f"unknown format {fmt!r} for task {self.task.name}: choose "
                                  f"one of {', '.join(self.formats)}")

    def check_options(self, *layers: Options) -> Options:
        """The options of a request (later layers over earlier ones), or a 422 saying why
        this task cannot use them."""
        options = merged(*layers)
        problem = check(self.task, options)
        if problem is not None:
            raise ServeError(422, problem)
        return options

    def extract_items(self, items: list[InDocument], single: bool,
                      answer: Answer | None = None, options: Options | None = None
                      ) -> Answer:
        """Extract ``items``; a document over ``max_doc_chars`` is a per-document error (413
        when it is the request's only ``text``)."""
        from relx.doc import Document

        answer = answer or Answer()
        extractor = configured(self.extractor, options or Options(), self.calibrations)
        answer.documents = len(items)
        docs = []
        for item in items:
            if len(item.text) > self.limits.max_doc_chars:
                message = (f"document {item.id!r} has {len(item.text)} characters, over the "
                           f"limit of {self.limits.max_doc_chars}")
                if single:
                    raise ServeError(413, message)
                answer.errors.append({"document": item.id, "stage": "extract",
                                      "limit": "max_doc_chars", "message": message})
                answer.document_over([])
                continue
            docs.append(Document(id=item.id, text=item.text))
        self._extract(extractor, docs, answer)
        return answer

    def extract_file(self, filename: str, body: bytes, answer: Answer | None = None,
                     options: Options | None = None) -> Answer:
        """Extract the documents of an uploaded file, read by :func:`relx.io.read` (format
        detected) from a temporary file named only by the upload's suffix."""
        from relx.errors import RelxError
        from relx.io.registry import read, readable_suffixes, suffix

        answer = answer or Answer()
        extractor = configured(self.extractor, options or Options(), self.calibrations)
        name = Path(filename or "upload").name
        ext = suffix(Path(name))
        with tempfile.TemporaryDirectory(prefix="relx-serve-") as tmp:
            path = Path(tmp) / ("upload" + (ext if ext in readable_suffixes() else ""))
            path.write_bytes(body)

            def said(exc: Exception) -> str:
                return str(exc).replace(str(path), name)

            def on_error(exc: Any) -> None:
                answer.errors.append({"document": getattr(exc, "document", None) or name,
                                      "stage": "read", "message": said(exc)})

            try:
                docs = list(read(path, on_error=on_error))
            except (RelxError, OSError, ValueError) as exc:
                answer.errors.append({"document": name, "stage": "read", "message": said(exc)})
                return answer
        answer.documents = len(docs) + len(answer.errors)
        for _ in answer.errors:
            answer.document_over([])
        self._extract(extractor, docs, answer)
        return answer

    @staticmethod
    def _extract(extractor: Any, docs: list[Any], answer: Answer) -> None:
        """Extract ``docs`` one at a time (a document over a cap loses only itself),
        forgetting each one's sentences after it: the sentence-graph cache would otherwise
        keep the last 1,024 sentences of past requests (measured with tracemalloc: the
        worker's heap grew ~20 MB per 40 abstracts until it was full)."""
        from relx.api import EXTRACTING
        from relx.doc_limits import DocumentLimitError
        from relx.structures import forget_sentences

        for doc in docs:
            if answer.cancel.is_set():
                return
            got: list[Any] = []
            try:
                got = list(extractor.annotate([doc]))
            except DocumentLimitError as exc:
                answer.errors.append({"document": exc.document, "stage": exc.stage,
                                      "limit": exc.limit, "message": str(exc)})
            finally:
                with EXTRACTING:
                    forget_sentences()
            answer.document_over(got)

    # -- output ---------------------------------------------------------------------------

    def records(self, done: list[tuple[Any, list[Any], Any]]) -> list[Any]:
        """The task's records (gene relations, relations, events) of per-document results."""
        return self.runner.items(done).get(self.task.results, [])

    def render(self, answer: Answer, fmt: str) -> tuple[bytes, str]:
        """The answer in ``fmt``: ``json`` (an object: the task's records, the errors and
        counts), ``jsonl`` (the records as ``<results>.jsonl`` has them), or a writer's
        format (its file's bytes). Returns ``(body, content type)``."""
        items = self.runner.items(answer.done)
        records = items.get(self.task.results, [])
        if fmt == "json":
            body = {self.task.results: [r.model_dump(mode="json") for r in records],
                    "errors": answer.errors, "documents": answer.documents}
            return json.dumps(body).encode("utf-8"), "application/json"
        if fmt == "html":
            from relx.app.serve import page

            draw = getattr(page, FRAGMENTS[self.task.results])
            text = draw([r.model_dump(mode="json") for r in records], answer.errors)
            return text.encode("utf-8"), "text/html; charset=utf-8"
        if fmt == "jsonl":
            text = "".join(r.model_dump_json() + "\n" for r in records)
            return text.encode("utf-8"), "application/x-ndjson"
        return self._written(items, records, fmt)

    def _written(self, items: dict[str, list[Any]], records: list[Any], fmt: str
                 ) -> tuple[bytes, str]:
        from relx.io.registry import FORMATS, load_spec

        spec = FORMATS[fmt]
        kind = self.task.kind_for(fmt)
        if kind is None:
            raise ServeError(422, f"format {fmt!r} takes nothing of task {self.task.name}")
        given = records if kind == self.task.results else items[kind]
        with tempfile.TemporaryDirectory(prefix="relx-serve-out-") as tmp:
            part = Path(tmp) / (spec.part_file or "part")
            load_spec(spec.parts[kind])(given, part)
            target = Path(tmp) / ("out" + (spec.write_suffixes[:1] or spec.suffixes[:1]
                                           or ("",))[0])
            join = spec.joins.get(kind, spec.join)
            if join:
                load_spec(join)([part], target)
            else:
                target = part
            body = target.read_bytes() if target.exists() else b""
        types = {"indra": "application/json", "bioc": "application/xml",
                 "tsv": "text/tab-separated-values"}
        return body, types.get(fmt, "text/plain") + ("" if fmt == "indra" else "; charset=utf-8")

