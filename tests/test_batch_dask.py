"""Dask workers that die: a real ``distributed.LocalCluster`` (2 worker processes, one thread
each) whose worker processes are SIGKILLed as the OOM killer would.

- one worker killed while it runs a chunk: the batch finishes (exit 0, no error), every
  document written exactly once, and the sorted ``relations.jsonl`` equals an uninterrupted
  run's on the same cluster;
- a chunk whose every worker is killed: after ``allowed-failures + 1`` deaths it is recorded
  as failed (stage ``worker``, exit 3), the other chunks are merged, and the run ends.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from relx.model_store import models_dir
from relx.ppi.model import DEFAULT_MODEL
from tests.conftest import ROOT

distributed = pytest.importorskip("distributed")
if not (models_dir() / DEFAULT_MODEL / "meta.json").exists():
    pytest.skip("shipped model models/ppi-default missing", allow_module_level=True)

SAMPLES = sorted((ROOT / "corpora" / "abstracts").glob("*.txt"))
#: worker deaths a chunk may cause before the scheduler gives it up (Dask's default is 3)
ALLOWED_FAILURES = 1


def _pubtator(path: Path, prefix: str, copies: int, samples: int = len(SAMPLES)) -> list[str]:
    """The first ``samples`` sample abstracts ``copies`` times as PubTator documents;
    returns their ids."""
    ids, lines = [], []
    for k in range(copies):
        for f in SAMPLES[:samples]:
            title, _, abstract = f.read_text(encoding="utf-8").strip().partition("\n")
            i = f"{prefix}{k}{f.stem.replace('-', '')}"
            ids.append(i)
            lines.append(f"{i}|t|{title.strip()}\n{i}|a|{' '.join(abstract.split())}\n\n")
    path.write_text("".join(lines), encoding="utf-8")
    return ids


@pytest.fixture
def cluster():
    """A fresh cluster per test: its workers' first chunk loads the model (seconds), which
    the kill test relies on to catch a worker mid-chunk."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as c, distributed.Client(c) as client:
        yield c, client


def _extract(inp: Path, out: Path, address: str) -> object:
    return CliRunner().invoke(app, ["extract", "--task", "ppi",
                                    str(inp), "--out", str(out), "--engine", "dask",
                                    "--scheduler", address, "--chunk-size", "1",
                                    "--format", "jsonl", "--format", "pubtator",
                                    "--quiet", "--no-ground"])


def _kill_workers(cluster, client, wanted, stop: threading.Event, killed: list[int],
                  most: int, delay: float) -> None:
    """SIGKILL (``Popen.kill``) the process of a worker that has been running a chunk
    ``wanted(key)`` for ``delay`` seconds, at most ``most`` times."""
    import psutil

    seen: dict[tuple[str, str], float] = {}
    while not stop.is_set() and len(killed) < most:
        now = time.monotonic()
        running = [(addr, str(key)) for addr, keys in client.processing().items()
                   for key in keys if wanted(str(key))]
        for addr, key in running:
            if now - seen.setdefault((addr, key), now) < delay:
                continue
            nanny = next((n for n in cluster.workers.values() if n.worker_address == addr), None)
            pid = nanny.pid if nanny is not None else None
            if pid and pid not in killed and psutil.pid_exists(pid):
                psutil.Process(pid).kill()
                killed.append(pid)
                break                        # one at a time: look again
        stop.wait(0.1)


def _relations(out: Path) -> list[str]:
    return sorted((out / "relations.jsonl").read_text(encoding="utf-8").splitlines())


def _documents(out: Path) -> list[str]:
    """Ids of the documents written to the PubTator outputs (one per title line)."""
    return sorted(line.split("|")[0] for f in (out / "pubtator").glob("*.pubtator")
                  for line in f.read_text(encoding="utf-8").splitlines() if "|t|" in line)


@pytest.mark.slow
def test_a_killed_dask_worker_costs_nothing(tmp_path: Path, cluster) -> None:
    c, client = cluster
    inp = tmp_path / "docs.pubtator"
    ids = _pubtator(inp, "d", 2)
    killed: list[int] = []
    stop = threading.Event()
    # the first chunk a worker runs loads the model (seconds): kill it one second in
    watcher = threading.Thread(target=_kill_workers, daemon=True,
                               args=(c, client, lambda k: k.startswith("relx-chunk-"), stop,
                                     killed, 1, 1.0))
    watcher.start()
    res = _extract(inp, tmp_path / "killed", c.scheduler_address)
    stop.set()
    watcher.join()
    assert len(killed) == 1, "no worker was killed while running a chunk"
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "killed" / "summary.json").read_text())
    assert summary["errors"] == 0 and summary["documents"] == len(ids)
    assert (tmp_path / "killed" / "errors.jsonl").read_text() == ""
    assert _documents(tmp_path / "killed") == sorted(ids)          # each exactly once
    assert not list((tmp_path / "killed").rglob("*.tmp"))

    res = _extract(inp, tmp_path / "whole", c.scheduler_address)    # uninterrupted
    assert res.exit_code == 0, res.output
    whole = _relations(tmp_path / "whole")
    assert whole and _relations(tmp_path / "killed") == whole
    assert len(set(whole)) == len(whole)


@pytest.mark.slow
def test_a_chunk_that_kills_every_worker_is_recorded_failed(tmp_path: Path, cluster) -> None:
    c, client = cluster
    inp = tmp_path / "in"
    inp.mkdir()
    _pubtator(inp / "a.pubtator", "a", 1, samples=1)          # one chunk: the poison
    good = _pubtator(inp / "b.pubtator", "b", 1)
    killed: list[int] = []
    stop = threading.Event()
    watcher = threading.Thread(target=_kill_workers, daemon=True,
                               args=(c, client, lambda k: k.startswith("relx-chunk-a.pubtator-"),
                                     stop, killed, ALLOWED_FAILURES + 1, 0.0))
    watcher.start()
    t0 = time.monotonic()
    res = _extract(inp, tmp_path / "out", c.scheduler_address)
    stop.set()
    watcher.join()
    assert len(killed) == ALLOWED_FAILURES + 1
    assert res.exit_code == 3, res.output
    errors = [json.loads(x) for x in (tmp_path / "out" / "errors.jsonl").read_text().splitlines()]
    assert [(e["input"], e["stage"]) for e in errors] == [(str(inp / "a.pubtator"), "worker")]
    assert "KilledWorker" in errors[0]["error"]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["inputs_failed"] == [str(inp / "a.pubtator")]
    assert _documents(tmp_path / "out") == sorted(good)
    assert time.monotonic() - t0 < 300


@pytest.mark.slow
def test_a_scheduler_without_workers_stops_the_run(tmp_path: Path, monkeypatch) -> None:
    """No worker ever connects: the run stops with an error naming the scheduler instead of
    waiting forever (the wait is ``DASK_NO_WORKERS_S``, shortened here)."""
    from relx.app.batch import BatchOptions, list_inputs, run_batch
    from relx.app.batch import engines as batch_engines
    from relx.errors import RunAborted

    monkeypatch.setattr(batch_engines, "DASK_NO_WORKERS_S", 1.0)
    inp = tmp_path / "in"
    inp.mkdir()
    _pubtator(inp / "a.pubtator", "a", 1, samples=1)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as c:
        t0 = time.monotonic()
        with pytest.raises(RunAborted, match="no Dask worker connected"):
            run_batch(list_inputs([inp]), BatchOptions(out=str(tmp_path / "out"), ground=False),
                      engine="dask", scheduler=c.scheduler_address)
        assert time.monotonic() - t0 < 60


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_cluster(port: int) -> list:
    """A real scheduler and one worker process on loopback (the ``dask`` command)."""
    import subprocess
    import sys

    dask_cmd = [sys.executable, "-m", "dask"]
    sched = subprocess.Popen([*dask_cmd, "scheduler", "--host", "127.0.0.1", "--port",
                              str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([*dask_cmd, "worker", f"tcp://127.0.0.1:{port}", "--nthreads",
                               "1", "--nworkers", "1", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [sched, worker]


def _stop(procs: list) -> None:
    for p in procs:
        p.kill()
        p.wait()


@pytest.mark.slow
def test_a_killed_scheduler_stops_the_run_and_a_rerun_resumes(tmp_path: Path) -> None:
    """Issue 40 (10): the scheduler killed mid-run: exit 1 with how to resume, no
    traceback; the rerun (a new scheduler) finishes with every document exactly once."""
    import os
    import subprocess
    import sys

    inp = tmp_path / "in"
    inp.mkdir()
    ids = _pubtator(inp / "a.pubtator", "a", 6)
    out = tmp_path / "out"
    port = _free_port()
    cmd = [sys.executable, "-m", "relx.app.cli", "extract", "--task", "ppi", str(inp),
           "--out", str(out), "--quiet", "--no-ground", "--engine", "dask", "--scheduler",
           f"tcp://127.0.0.1:{port}", "--chunk-size", "1", "--format", "pubtator"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = _start_cluster(port)
    try:
        run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
        chunks = out / ".done" / "a.pubtator"
        deadline = time.monotonic() + 300
        while not (chunks.is_dir() and len(list(chunks.glob("*.json"))) >= 2):
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "no chunk finished in 300 s"
            time.sleep(0.2)
        procs[0].kill()                                   # the scheduler dies mid-run
        _, stderr = run.communicate(timeout=300)
        assert run.returncode == 1, stderr
        assert "Dask scheduler" in stderr and "rerun the same command" in stderr
        assert "Traceback" not in stderr
        done_before = len(list(chunks.glob("*.json")))
        assert done_before < len(ids)
    finally:
        _stop(procs)
    procs = _start_cluster(port)
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    finally:
        _stop(procs)
    assert res.returncode == 0, res.stderr
    assert sorted(_documents(out)) == sorted(ids)
