"""The HTTP side of ``relx serve`` on Tornado: routes, body limits, the bounded queue,
the token check, worker processes and draining on SIGTERM.

Routes: ``GET /health`` (the process answers), ``GET /ready`` (models loaded; 503 while
loading or draining), ``GET /models``, ``GET /openapi.json`` (the request models' JSON
schema) and ``POST /extract`` (JSON, or a multipart upload with a ``file`` field).
Extraction runs on a thread pool, so the event loop keeps answering; at most
``Limits.queue`` requests extract or wait, and one more gets 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import os
import signal
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.netutil
import tornado.web

from relx.app.serve.jobs import Jobs
from relx.app.serve.service import (
    Answer,
    ExtractRequest,
    Limits,
    Query,
    ServeError,
    Service,
    parse_query,
    parse_request,
)
from relx.tasks import Task

TOKEN_ENV = "RELX_SERVE_TOKEN"
RETRY_AFTER_SECONDS = 2
DRAIN_SECONDS = 30.0


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class State:
    """A worker's service, its thread pool and whether it is draining."""

    def __init__(self, service: Service, token: str | None) -> None:
        self.service = service
        self.token = token
        self.pool = ThreadPoolExecutor(max_workers=service.limits.queue,
                                       thread_name_prefix="relx-serve")
        self.draining = False
        self.inflight = 0   # requests past the queue's gate
        self.jobs = Jobs()
        self.started = time.time()


class Base(tornado.web.RequestHandler):
    """JSON errors, and the bearer token when the server has one."""

    @property
    def state(self) -> State:
        return self.application.settings["relx_state"]

    def prepare(self) -> None:
        token = self.state.token
        if token and self.request.path not in ("/health", "/"):
            given = self.request.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                raise ServeError(401, "a bearer token is required (Authorization: Bearer ...)",
                                 {"WWW-Authenticate": "Bearer"})

    def send_json(self, body: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(body))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, ServeError):
            for k, v in exc.headers.items():
                self.set_header(k, v)
            self.send_json(exc.body(), exc.status)
            return
        reason = tornado.httputil.responses.get(status_code, "error")
        self.send_json({"error": reason.lower() if status_code < 500 else
                        "internal error (a bug in relx serve: the server log has it)",
                        "status": status_code}, status_code)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if not isinstance(value, ServeError):   # bad input is the client's, not a bug
            super().log_exception(typ, value, tb)


class Page(Base):
    """``GET /``: the page (no data in it, so no token: its requests send the token)."""

    def get(self) -> None:
        from relx.app.serve.page import PAGE

        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(PAGE)


class Health(Base):
    def get(self) -> None:
        self.send_json({"status": "ok", "pid": os.getpid()})


class Ready(Base):
    def get(self) -> None:
        if self.state.draining:
            self.send_json({"ready": False, "status": "draining"}, 503)
            return
        service = self.state.service
        self.send_json({"ready": True, "task": service.task.name,
                        "in_flight": self.state.inflight, "queue": service.limits.queue,
                        "seconds_up": round(time.time() - self.state.started, 1)})


class Models(Base):
    def get(self) -> None:
        service = self.state.service
        self.send_json({"task": service.task.name, "models": service.models(),
                        "formats": list(service.formats)})


class OpenAPI(Base):
    def get(self) -> None:
        self.send_json(openapi(self.state.service))


@tornado.web.stream_request_body
class Extract(Base):
    """``POST /extract``: JSON, or ``multipart/form-data`` with a ``file``."""

    def prepare(self) -> None:
        super().prepare()
        limit = self.state.service.limits.max_body_bytes
        length = self.request.headers.get("Content-Length")
        if length is not None and length.isdigit() and int(length) > limit:
            raise ServeError(413, f"the request body has {length} bytes, over the limit of "
                                  f"{limit}", {"Connection": "close"})
        self.request.connection.set_max_body_size(limit)
        self._chunks: list[bytes] = []

    def data_received(self, chunk: bytes) -> None:
        self._chunks.append(chunk)

    def work(self) -> tuple[Any, Query, float | None]:
        """What the request asks: ``(work(answer), query, threshold)`` (4xx if malformed)."""
        if self.state.draining:
            raise ServeError(503, "the server is shutting down",
                             {"Retry-After": str(RETRY_AFTER_SECONDS)})
        args = {k: self.get_query_argument(k) for k in self.request.query_arguments}
        query = parse_query(args)
        service = self.state.service
        service.check_format(query.format)
        body = b"".join(self._chunks)
        kind = self.request.headers.get("Content-Type", "application/json").split(";")[0]
        threshold = query.threshold
        if kind == "multipart/form-data":
            filename, data = self._upload(body)
            return (lambda a: service.extract_file(filename, data, a)), query, threshold
        if kind in ("application/json", "text/json"):
            request = parse_request(body)
            items = request.items()
            threshold = request.threshold if request.threshold is not None else threshold
            single = request.text is not None
            return (lambda a: service.extract_items(items, single, a)), query, threshold
        raise ServeError(415, f"unsupported Content-Type {kind!r}: send application/json "
                              "or multipart/form-data with a 'file' field")

    async def post(self) -> None:
        state, service = self.state, self.state.service
        work, query, threshold = self.work()
        if not service.queue.acquire(blocking=False):
            raise ServeError(503, f"the queue is full ({service.limits.queue} requests); "
                                  "try again later", {"Retry-After": str(RETRY_AFTER_SECONDS)})
        state.inflight += 1
        try:
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(state.pool, work, Answer())
            out, content_type = await loop.run_in_executor(
                state.pool, service.render, answer, query.format, threshold)
        finally:
            state.inflight -= 1
            service.queue.release()
        self.set_header("Content-Type", content_type)
        self.finish(out)

    def _upload(self, body: bytes) -> tuple[str, bytes]:
        files: dict[str, list[tornado.httputil.HTTPFile]] = {}
        try:
            tornado.httputil.parse_body_arguments(self.request.headers["Content-Type"], body,
                                                  {}, files, self.request.headers)
        except tornado.httputil.HTTPInputError as exc:
            raise ServeError(400, str(exc)) from None
        upload = files.get("file")
        if not upload:
            raise ServeError(422, "a multipart request needs a 'file' field with the file")
        return upload[0].filename, upload[0].body


@tornado.web.stream_request_body
class JobsHandler(Extract):
    """``POST /jobs``: the body of ``POST /extract``; 202 with the job's id at once."""

    async def post(self) -> None:
        work, _, _ = self.work()
        job = self.state.jobs.submit(work)
        self.set_header("Location", f"/jobs/{job.id}")
        self.send_json({**job.status(), "status_url": f"/jobs/{job.id}",
                        "results_url": f"/jobs/{job.id}/results"}, 202)


class JobStatus(Base):
    """``GET /jobs/{id}``: progress and per-document errors; ``DELETE``: cancel."""

    def get(self, job_id: str) -> None:
        self.send_json(self.state.jobs.get(job_id).status())

    def delete(self, job_id: str) -> None:
        self.send_json(self.state.jobs.cancel(job_id).status())


class JobResults(Base):
    """``GET /jobs/{id}/results``: the job's records as JSON lines, streamed as they come
    (the response ends when the job is over)."""

    async def get(self, job_id: str) -> None:
        job = self.state.jobs.get(job_id)
        service = self.state.service
        self.set_header("Content-Type", "application/x-ndjson")
        sent = 0
        while True:
            over = job.over
            done = job.answer.done[sent:]
            sent += len(done)
            lines = "".join(r.model_dump_json() + "\n" for r in service.records(done))
            if lines:
                self.write(lines)
                await self.flush()
            if over and sent == len(job.answer.done):
                break
            await asyncio.sleep(0.1)
        self.finish()


class NotFound(Base):
    def prepare(self) -> None:
        raise ServeError(404, f"no such endpoint: {self.request.method} {self.request.path}")


def make_app(state: State) -> tornado.web.Application:
    return tornado.web.Application(
        [(r"/", Page), (r"/health", Health), (r"/ready", Ready), (r"/models", Models),
         (r"/openapi.json", OpenAPI), (r"/extract", Extract), (r"/jobs", JobsHandler),
         (r"/jobs/([0-9a-f]+)", JobStatus), (r"/jobs/([0-9a-f]+)/results", JobResults)],
        default_handler_class=NotFound, relx_state=state, serve_traceback=False)


def openapi(service: Service) -> dict[str, Any]:
    """A small OpenAPI 3 description: the routes and the request models' schemas."""
    json_body = {"content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/ExtractRequest"}}, "multipart/form-data": {
        "schema": {"type": "object", "properties": {"file": {"type": "string",
                                                             "format": "binary"}}}}}}
    params = [{"name": "format", "in": "query", "schema": {"enum": list(service.formats)}},
              {"name": "threshold", "in": "query", "schema": {"type": "number"}}]
    schema = ExtractRequest.model_json_schema(ref_template="#/components/schemas/{model}")
    defs = schema.pop("$defs", {})
    return {"openapi": "3.1.0", "info": {"title": "relx serve", "version": _version()},
            "paths": {"/health": {"get": {"summary": "the process answers"}},
                      "/ready": {"get": {"summary": "models loaded (503 when not)"}},
                      "/models": {"get": {"summary": "loaded models and their training data"}},
                      "/extract": {"post": {"summary": f"extract ({service.task.name})",
                                            "parameters": params, "requestBody": json_body}},
                      "/jobs": {"post": {"summary": "the same, as a background job (202)",
                                         "requestBody": json_body}},
                      "/jobs/{id}": {"get": {"summary": "a job's progress and errors"},
                                     "delete": {"summary": "cancel a job"}},
                      "/jobs/{id}/results": {"get": {"summary": "its records, streamed "
                                                                "(JSON lines)"}}},
            "components": {"schemas": {"ExtractRequest": schema, **defs,
                                       "Query": Query.model_json_schema()}}}


def _version() -> str:
    from relx import __version__

    return __version__


def check_host(host: str, token: str | None) -> None:
    """A non-loopback ``host`` needs a token (ValueError when there is none)."""
    if not is_loopback(host) and not token:
        raise ValueError(f"serving on {host} (not a loopback address) needs --token or "
                         f"{TOKEN_ENV}: clients then send 'Authorization: Bearer <token>'")


def serve(task: Task, *, host: str = "127.0.0.1", port: int = 8000, workers: int = 1,
          token: str | None = None, limits: Limits | None = None, model: str | None = None,
          log: Any = None) -> None:
    """Bind, then in each of ``workers`` processes load the models and serve until SIGTERM
    or SIGINT, which drain: no new request is taken, those in flight finish (up to
    :data:`DRAIN_SECONDS`). Workers are forked before the load, not after it: the models
    run on GNU OpenMP (numba's threading layer), which aborts a process forked after
    using it, so each worker loads its own copy."""
    say = log or (lambda m: print(m, file=sys.stderr, flush=True))
    check_host(host, token)
    limits = limits or Limits()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets = tornado.netutil.bind_sockets(port, host, family=family)
    if workers > 1 and not _forked_worker(workers, say):
        return   # the parent: its workers have exited
    started = time.time()
    if workers > 1:
        from relx.api import single_thread

        single_thread()   # one compute thread per worker process
    service = Service(task, limits, model)
    say(f"relx serve: {task.name} models loaded in {time.time() - started:.1f} s "
        f"(pid {os.getpid()})")
    asyncio.run(_run(State(service, token), sockets, limits, say, host, port))


def _forked_worker(workers: int, say: Any) -> bool:
    """Fork ``workers`` children: True in a child; in the parent, SIGTERM and SIGINT are
    passed on to the children, which are waited for, then False."""
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:
            return True
        children.append(pid)

    def pass_on(signum: int, _frame: Any) -> None:
        for pid in children:
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    failed = 0
    for pid in children:
        while True:
            try:
                _, status = os.waitpid(pid, 0)
                break
            except InterruptedError:
                continue
        failed += os.waitstatus_to_exitcode(status) != 0
    if failed:
        say(f"relx serve: {failed} of {workers} workers failed")
        raise SystemExit(1)
    return False


async def _run(state: State, sockets: list[socket.socket], limits: Limits, say: Any,
               host: str, port: int) -> None:
    server = tornado.httpserver.HTTPServer(make_app(state), max_body_size=limits.max_body_bytes,
                                           xheaders=False, idle_connection_timeout=60)
    server.add_sockets(sockets)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    say(f"relx serve: ready on http://{host}:{port} (pid {os.getpid()})")
    await stop.wait()
    state.draining = True
    server.stop()   # no new connections
    say("relx serve: draining")
    deadline = time.time() + DRAIN_SECONDS
    while time.time() < deadline and state.inflight:
        await asyncio.sleep(0.05)
    await server.close_all_connections()
    for job in state.jobs.jobs.values():
        job.answer.cancel.set()
    state.pool.shutdown(wait=False, cancel_futures=True)
    say("relx serve: stopped")
