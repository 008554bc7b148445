"""``relx serve``: the reading service (relx.app.serve)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from relx.app.cli_common import app, err, task_option, user_errors
from relx.app.serve.service import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_DOC_CHARS,
    DEFAULT_MAX_DOC_SECONDS,
    DEFAULT_QUEUE,
)
from relx.tasks import DEFAULT_TASK


@app.command(rich_help_panel="Extract")
def serve(
    host: Annotated[str, typer.Option(
        help="Address to listen on. Any address other than loopback (127.0.0.1, ::1, "
             "localhost) needs --token.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(
        min=1, help="Worker processes sharing the port, each extracting one request at a "
                    "time; the models are loaded once, then the workers are forked and "
                    "share their pages.")] = 1,
    task: Annotated[str, typer.Option(
        help="'gene-relations' (document-level gene pairs, as relx extract: the records of "
             "gene_relations.jsonl), 'ppi' (mention-level protein pairs: relations) or "
             "'events' (GENIA events).")] = DEFAULT_TASK,
    model: Annotated[str | None, typer.Option(
        help="Model name or directory (default: the task's shipped model).")] = None,
    token: Annotated[str | None, typer.Option(
        envvar="RELX_SERVE_TOKEN", show_envvar=True,
        help="Bearer token every request but /health, the page and the API description "
             "(/docs) must send (Authorization: Bearer TOKEN); required for a non-loopback "
             "--host.")] = None,
    queue: Annotated[int, typer.Option(
        min=1, help="Requests extracting or waiting per worker; one more is answered 503 "
                    "with Retry-After.")] = DEFAULT_QUEUE,
    max_body_mb: Annotated[float, typer.Option(
        help="Request body limit in MiB (413 above it).")] = DEFAULT_MAX_BODY_BYTES / 2**20,
    max_doc_chars: Annotated[int, typer.Option(
        help="Characters of one document: over it, a per-document error (413 for a lone "
             "'text').")] = DEFAULT_MAX_DOC_CHARS,
    max_doc_seconds: Annotated[float, typer.Option(
        help="CPU seconds of one document before it is given up (a per-document "
             "error).")] = DEFAULT_MAX_DOC_SECONDS,
) -> None:
    """Serve extraction over HTTP (FastAPI on uvicorn): **POST /extract** (JSON text or
    documents, or an uploaded file in any format relx reads; the task's records as JSON,
    `{"gene_relations": [...]}` by default, or `?format=` jsonl, html, indra, pubtator,
    bioc, tsv; `?sections=`, `mentions`, `orthologs`, `threshold` (ppi) as in relx
    extract), **POST /jobs**, **GET /health**, **GET /ready**, **GET /models**, the page at
    **GET /** and the OpenAPI description at **GET /docs**.

    The models are loaded before any request is taken, once: workers are forked after.
    SIGTERM or Ctrl-C drains: requests in flight finish, new ones are refused. See
    docs/serve.md.
    """
    from relx.app.serve.service import Limits
    from relx.app.serve.workers import check_host, serve

    the_task = task_option(task)
    token = token or os.environ.get("RELX_SERVE_TOKEN") or None
    try:
        check_host(host, token)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from None
    limits = Limits(max_body_bytes=int(max_body_mb * 2**20), max_doc_chars=max_doc_chars,
                    max_doc_seconds=max_doc_seconds, queue=queue)
    with user_errors():
        serve(the_task, host=host, port=port, workers=workers, token=token, limits=limits,
            model=model)
