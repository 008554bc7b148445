"""The HTTP side of ``relx serve``: a FastAPI (Starlette) application, served by uvicorn
(:mod:`relx.app.serve.workers`).

Routes: ``GET /`` (the page), ``GET /health`` (the process answers), ``GET /ready``
(models loaded; 503 while draining), ``GET /models``, ``POST /extract`` (JSON, or a
multipart upload with a ``file`` field), ``POST /jobs`` and ``GET``/``DELETE
/jobs/{id}``, ``GET /jobs/{id}/results``; OpenAPI at ``/openapi.json`` and ``/docs`` from
the pydantic request models. :class:`Guard` (pure ASGI, before any route) checks the
bearer token and the body limit, the latter from ``Content-Length`` before the body is
read. Extraction runs on one thread per worker (relx extracts one batch at a time per
process: :mod:`relx.api`), so the event loop keeps answering; at most ``Limits.queue``
requests extract or wait, and one more gets 503 with ``Retry-After``. Every error is
``{"error": ..., "status": n}`` (422s add ``detail``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi import Query as QueryParams
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException

from relx.app.serve.jobs import Jobs
from relx.app.serve.service import (
    Answer,
    ExtractRequest,
    Query,
    ServeError,
    Service,
    parse_request,
)

RETRY_AFTER_SECONDS = 2
#: paths answered without the token: they hold no data (the page's requests send it)
OPEN_PATHS = frozenset({"/", "/health", "/docs", "/openapi.json"})
#: how often a request being extracted checks that its client is still there (seconds)
DISCONNECT_POLL_SECONDS = 0.5
log = logging.getLogger("relx.serve")

#: the query string of POST /extract and /jobs, validated by FastAPI (an unknown name: 422)
QueryModel = Annotated[Query, QueryParams()]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class State:
    """A worker's service, its extraction thread, its jobs and whether it is draining."""

    def __init__(self, service: Service, token: str | None, jobs: Jobs) -> None:
        self.service = service
        self.token = token
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relx-serve")
        self.draining = False
        self.inflight = 0   # requests past the queue's gate
        self.jobs = jobs
        self.started = time.time()


def error_response(status: int, message: str, headers: dict[str, str] | None = None,
                   detail: Any = None) -> JSONResponse:
    return JSONResponse(ServeError(status, message, detail=detail).body(), status,
                        headers=headers)


class Guard:
    """Before any route: the bearer token (when the server has one) and the body limit
    (413 from ``Content-Length`` before the body is read; a body sent without one is
    counted as it comes)."""

    def __init__(self, app: Any, state: State) -> None:
        self.app, self.state = app, state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        worker = str(os.getpid()).encode()

        async def signed(message: Message) -> None:
            if message["type"] == "http.response.start":   # which worker answered
                message["headers"] = [*message.get("headers", []), (b"x-relx-worker", worker)]
            await send(message)

        await self._guarded(scope, receive, signed)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        token = self.state.token
        if token and scope["path"] not in OPEN_PATHS:
            given = headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                await error_response(401, "a bearer token is required (Authorization: "
                                          "Bearer ...)", {"WWW-Authenticate": "Bearer"}
                                     )(scope, receive, send)
                return
        limit = self.state.service.limits.max_body_bytes
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            await error_response(413, f"the request body has {length} bytes, over the "
                                      f"limit of {limit}", {"Connection": "close"}
                                 )(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise ServeError(413, f"the request body is over the limit of {limit} bytes",
                                 {"Connection": "close"})
            return message

        await self.app(scope, counted, send)


#: the request body of POST /extract and /jobs in the OpenAPI description
REQUEST_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/ExtractRequest"}},
    "multipart/form-data": {"schema": {
        "type": "object", "required": ["file"], "properties": {"file": {
            "type": "string", "format": "binary",
            "description": "a file in any format relx extract reads"}}}}}}}


def make_app(state: State) -> FastAPI:
    """The application of one worker."""
    from relx import __version__

    service = state.service
    app = FastAPI(title="relx serve", version=__version__, docs_url="/docs",
                  redoc_url=None, openapi_url="/openapi.json",
                  description=f"relx's reading service ({service.task.name}); see "
                              "docs/serve.md.")
    app.add_middleware(Guard, state=state)
    _handlers(app)
    _openapi(app, service)

    @app.get("/", include_in_schema=False)
    def page() -> HTMLResponse:
        from relx.app.serve.page import PAGE

        return HTMLResponse(PAGE)

    @app.get("/health", summary="the process answers (no token needed)")
    def health() -> dict[str, Any]:
        return {"status": "ok", "pid": os.getpid()}

    @app.get("/ready", summary="models loaded (503 while draining)")
    def ready() -> JSONResponse:
        if state.draining:
            return JSONResponse({"ready": False, "status": "draining"}, 503)
        return JSONResponse({"ready": True, "task": service.task.name, "pid": os.getpid(),
                             "in_flight": state.inflight, "queue": service.limits.queue,
                             "seconds_up": round(time.time() - state.started, 1)})

    @app.get("/models", summary="the loaded models and what each was trained on")
    def models() -> dict[str, Any]:
        return {"task": service.task.name, "models": service.models(),
                "formats": list(service.formats)}

    @app.post("/extract", summary=f"extract ({service.task.name})", openapi_extra=REQUEST_BODY)
    async def extract(request: Request, query: QueryModel) -> Response:
        work = await _work(state, request, query)
        if not service.queue.acquire(blocking=False):
            raise ServeError(503, f"the queue is full ({service.limits.queue} requests); "
                                  "try again later", {"Retry-After": str(RETRY_AFTER_SECONDS)})
        state.inflight += 1
        try:
            answer = await _until_done(state, request, work)
            loop = asyncio.get_running_loop()
            out, content_type = await loop.run_in_executor(state.pool, service.render, answer,
                                                           query.format)
        finally:
            state.inflight -= 1
            service.queue.release()
        return Response(out, media_type=content_type)

    @app.post("/jobs", status_code=202, openapi_extra=REQUEST_BODY,
              summary="the same as POST /extract, as a background job: its id at once")
    async def submit(request: Request, query: QueryModel) -> JSONResponse:
        work = await _work(state, request, query)
        status = state.jobs.submit(work, _lines(service))
        job = status["id"]
        return JSONResponse({**status, "status_url": f"/jobs/{job}",
                             "results_url": f"/jobs/{job}/results"}, 202,
                            headers={"Location": f"/jobs/{job}"})

    @app.get("/jobs/{job_id}", summary="a job's progress and per-document errors")
    def job_status(job_id: str) -> dict[str, Any]:
        return state.jobs.status(job_id)

    @app.delete("/jobs/{job_id}", summary="cancel a job (after the document in hand)")
    def job_cancel(job_id: str) -> dict[str, Any]:
        return state.jobs.cancel(job_id)

    @app.get("/jobs/{job_id}/results", summary="the job's records as JSON lines, streamed "
                                                "until the job is over")
    def job_results(job_id: str) -> StreamingResponse:
        state.jobs.folder(job_id)   # 404 now, before the response starts
        lines = state.jobs.records(job_id)

        async def stream() -> Any:
            for chunk in lines:
                if chunk is None:
                    await asyncio.sleep(0.1)
                else:
                    yield chunk

        return StreamingResponse(stream(), media_type="application/x-ndjson")

    return app


def _lines(service: Service) -> Callable[[list[Any]], str]:
    return lambda done: "".join(r.model_dump_json() + "\n" for r in service.records(done))


async def _work(state: State, request: Request, query: Query
                ) -> Callable[[Answer], Answer]:
    """What the request asks, as ``work(answer)`` (4xx if malformed or unusable)."""
    if state.draining:
        raise ServeError(503, "the server is shutting down",
                         {"Retry-After": str(RETRY_AFTER_SECONDS)})
    service = state.service
    service.check_format(query.format)
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip()
    if kind == "multipart/form-data":
        options = service.check_options(query)
        filename, data = await _upload(request)
        return lambda a: service.extract_file(filename, data, a, options)
    if kind in ("application/json", "text/json"):
        body = parse_request(await request.body())
        options = service.check_options(query, body)
        items, single = body.items(), body.text is not None
        return lambda a: service.extract_items(items, single, a, options)
    raise ServeError(415, f"unsupported Content-Type {kind!r}: send application/json or "
                          "multipart/form-data with a 'file' field")


async def _upload(request: Request) -> tuple[str, bytes]:
    async with request.form(max_files=1, max_fields=20) as form:
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise ServeError(422, "a multipart request needs a 'file' field with the file")
        return upload.filename or "upload", await upload.read()


async def _until_done(state: State, request: Request, work: Callable[[Answer], Answer]
                      ) -> Answer:
    """``work`` on the extraction thread; a client that leaves cancels it (after the
    document in hand)."""
    answer = Answer()
    future = asyncio.get_running_loop().run_in_executor(state.pool, work, answer)
    while True:
        done, _ = await asyncio.wait({future}, timeout=DISCONNECT_POLL_SECONDS)
        if done:
            return future.result()
        if not answer.cancel.is_set() and await request.is_disconnected():
            answer.cancel.set()


def _handlers(app: FastAPI) -> None:
    """Every error as ``{"error", "status"}`` (and ``detail``)."""

    @app.exception_handler(ServeError)
    async def serve_error(_: Request, exc: ServeError) -> JSONResponse:
        return JSONResponse(exc.body(), exc.status, headers=exc.headers or None)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        detail = [{"field": ".".join(str(p) for p in e["loc"][1:]), "problem": e["msg"]}
                  for e in exc.errors()]
        message = "; ".join(f"{d['field'] or 'query'}: {d['problem']}" for d in detail)
        return error_response(422, message, detail=detail)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            message = f"no such endpoint: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not a method of {request.url.path}"
        else:
            message = str(exc.detail)
        return error_response(exc.status_code, message, dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def bug(_: Request, exc: Exception) -> JSONResponse:
        log.error("relx serve: internal error", exc_info=exc)
        return error_response(500, "internal error (a bug in relx serve: the server log "
                                   "has it)")


def _schemas(model: Any) -> tuple[str, dict[str, Any]]:
    """A pydantic class's name and its schemas (its own and those it refers to)."""
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    defs = schema.pop("$defs", {})
    return model.__name__, {model.__name__: schema, **defs}


def _openapi(app: FastAPI, service: Service) -> None:
    """The OpenAPI description with the request body's schema (from
    :class:`ExtractRequest`) and the JSON answer of ``POST /extract``: the task's records
    (its :meth:`~relx.tasks.Task.record_model`, the lines of ``<results>.jsonl``), the
    per-document errors and the document count, among its components."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version,
                               description=app.description, routes=app.routes)
            schemas = spec.setdefault("components", {}).setdefault("schemas", {})
            schemas.update(_schemas(ExtractRequest)[1])
            task = service.task
            name, records = _schemas(task.record_model())
            schemas.update(records)
            schemas["ExtractResponse"] = {
                "type": "object", "required": [task.results, "errors", "documents"],
                "properties": {
                    task.results: {"type": "array", "description": f"task {task.name}'s "
                                   f"records, as {task.results}.jsonl has them",
                                   "items": {"$ref": f"#/components/schemas/{name}"}},
                    "errors": {"type": "array", "items": {"type": "object"},
                               "description": "per-document errors"},
                    "documents": {"type": "integer"}}}
            answer = {"description": "the records (format=json; other formats: the "
                                     "format's file)", "content": {"application/json": {
                                         "schema": {"$ref": "#/components/schemas/"
                                                            "ExtractResponse"}}}}
            spec["paths"]["/extract"]["post"]["responses"]["200"] = answer
            app.openapi_schema = json.loads(json.dumps(spec))
        return app.openapi_schema

    app.openapi = openapi   # type: ignore[method-assign]
