"""``relx serve``'s processes: bind, load the models once, fork the workers (each a
uvicorn server on the shared socket), drain on SIGTERM.

With ``--workers N > 1`` the parent loads and warms up the models, then forks: the
workers share the models' pages (copy-on-write) and are ready as soon as they are
forked. That needs every runtime the warm-up starts to survive a fork: numba's GNU
OpenMP threading layer does not (a child that runs a parallel kernel after its parent
did is terminated), so the parent picks numba's fork-safe layer first (``forksafe``:
TBB when installed, else numba's own ``workqueue``; it is not thread-safe, which is
moot here: a process extracts one batch at a time, :mod:`relx.api`), and computes on one
thread, so scikit-learn's OpenMP and the BLAS never start a pool before the fork.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import ipaddress
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from relx.app.serve.service import Limits, Service
from relx.heap import freeze
from relx.tasks import Task

TOKEN_ENV = "RELX_SERVE_TOKEN"
DRAIN_SECONDS = 30.0
#: glibc malloc arenas per process: extraction, rendering, jobs and the event loop run on
#: different threads, and each thread's arena kept its own free pages (RSS growth)
MALLOC_ARENAS = 2


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_host(host: str, token: str | None) -> None:
    """A non-loopback ``host`` needs a token (ValueError when there is none)."""
    if not is_loopback(host) and not token:
        raise ValueError(f"serving on {host} (not a loopback address) needs --token or "
                         f"{TOKEN_ENV}: clients then send 'Authorization: Bearer <token>'")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, shared by the workers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def fork_safe_runtimes() -> None:
    """What the parent sets before it loads, so that its forked workers can compute: one
    compute thread, numba's fork-safe threading layer (see the module docstring)."""
    import numba
    from numba.np.ufunc import parallel

    from relx.api import single_thread

    if not parallel._is_initialized:   # no parallel kernel has run in this process yet
        numba.config.THREADING_LAYER = "forksafe"
    single_thread()


def limit_malloc_arenas(n: int = MALLOC_ARENAS) -> None:
    """At most ``n`` glibc malloc arenas in this process (elsewhere: nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(-8, n)   # M_ARENA_MAX


def serve(task: Task, *, host: str = "127.0.0.1", port: int = 8000, workers: int = 1,
          token: str | None = None, limits: Limits | None = None, model: str | None = None,
          log: Any = None) -> None:
    """Bind, load the models, fork ``workers`` processes (one: serve here) and serve until
    SIGTERM or SIGINT, which drain: no new connection is taken, the requests in flight
    finish (up to :data:`DRAIN_SECONDS`)."""
    say = log or (lambda m: print(m, file=sys.stderr, flush=True))
    check_host(host, token)
    limits = limits or Limits()
    sock = bind(host, port)
    limit_malloc_arenas()
    import uvicorn  # noqa: F401  (here, once, not in every forked worker)

    import relx.app.serve.http  # noqa: F401
    forking = workers > 1 and hasattr(os, "fork")
    if forking:
        fork_safe_runtimes()
    started = time.time()
    service = Service(task, limits, model)
    say(f"relx serve: {task.name} models loaded in {time.time() - started:.1f} s "
        f"(pid {os.getpid()})")
    jobs_root = Path(tempfile.mkdtemp(prefix="relx-serve-jobs-"))
    try:
        if not forking:
            run_worker(service, sock, token, jobs_root, say, host, port)
            return
        gc.collect()
        freeze()   # the loaded objects: the collector no longer writes to their pages
        _fork_workers(workers, say, lambda: run_worker(service, sock, token, jobs_root, say,
                                                       host, port))
    finally:
        shutil.rmtree(jobs_root, ignore_errors=True)


def _fork_workers(workers: int, say: Any, work: Any) -> None:
    """Fork ``workers`` children running ``work()`` (each exits with its status); here,
    SIGTERM and SIGINT are passed on to them, and they are waited for."""
    from relx import array_cache

    array_cache.wait()   # no half-written start-up cache entry in the children
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:   # a worker: it never returns into the parent's code
            code = 1
            try:
                _die_with_parent()
                work()
                code = 0
            except BaseException as exc:   # noqa: BLE001  (told, then the worker exits)
                say(f"relx serve: worker {os.getpid()} failed: {type(exc).__name__}: {exc}")
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)

    def pass_on(signum: int, _frame: Any) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    failed = 0
    for pid in children:
        _, status = os.waitpid(pid, 0)
        failed += os.waitstatus_to_exitcode(status) != 0
    if failed:
        say(f"relx serve: {failed} of {workers} workers failed")
        raise SystemExit(1)


def _die_with_parent() -> None:
    """This worker gets SIGTERM when the parent dies (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG


def run_worker(service: Service, sock: socket.socket, token: str | None, jobs_root: Path,
               say: Any, host: str, port: int) -> None:
    """Serve on ``sock`` in this process until SIGTERM or SIGINT, then drain."""
    import uvicorn

    from relx.app.serve.http import State, make_app
    from relx.app.serve.jobs import Jobs

    state = State(service, token, Jobs(jobs_root))
    config = uvicorn.Config(make_app(state), log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=DRAIN_SECONDS,
                            timeout_keep_alive=60, server_header=False)

    class Server(uvicorn.Server):
        """uvicorn's server that says when it is ready and marks draining."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            say(f"relx serve: ready on http://{host}:{port} (pid {os.getpid()})")

        def handle_exit(self, sig: int, frame: Any) -> None:
            if not state.draining:
                state.draining = True
                say(f"relx serve: draining (pid {os.getpid()})")
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True   # not re-raised after: the worker exits 0

    asyncio.run(Server(config).serve(sockets=[sock]))
    state.jobs.stop()
    state.pool.shutdown(wait=False, cancel_futures=True)
    say(f"relx serve: stopped (pid {os.getpid()})")
