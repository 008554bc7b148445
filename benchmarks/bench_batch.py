"""PubMed-scale batch benchmark: one PubMed-baseline-shaped ``.xml.gz`` through ``relx extract``.

Builds one ``PubmedArticleSet`` of ``--articles`` articles (default 10,000) from the GENIA
(BioNLP-ST GE) abstracts in ``../shared`` (cycled, each copy with its own PMID), then times
``relx extract`` on it:

- 1 process, ``--jobs 2``, a local Dask cluster (``distributed`` scheduler and worker
  processes started here, one thread each) with 1 and with 2 workers: documents/s, peak RSS
  per worker and CPU seconds per role (``main``: the relx process that reads the input and,
  on Dask, is the client; ``workers``; ``scheduler``: this process, which hosts the Dask
  scheduler and nannies), with the load average before and after each run;
- the ratios ``--jobs 2`` / 1 process and Dask 2 workers / 1 worker;
- a ``--jobs 2`` run and a 2-worker Dask run in which one worker process is SIGKILLed once
  half the chunks are done: each must end with exit 0, no error and a results file
  (``relations.jsonl`` for ``--task ppi``, the default here, so docs/batch.md's figures
  stay comparable; ``gene_relations.jsonl`` for ``--task gene-relations``)
  equal (sorted) to an uninterrupted run's.

Printed figures, not a timed test; throughput means something only on a quiet machine (the
CPU seconds are less sensitive to other load)::

    .venv/bin/python benchmarks/bench_batch.py --articles 10000 --chunk-size 1000
    .venv/bin/python benchmarks/bench_batch.py --articles 1000 --chunk-size 100
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
GE = SHARED / "corpora" / "bionlp-st-ge"


def build_input(path: Path, n: int) -> int:
    """``n`` PubMed articles (title + abstract of GE texts, cycled) as one ``.xml.gz``;
    returns the number of distinct abstracts used."""
    texts = sorted({p.name: p for p in GE.rglob("PMID-*.txt")}.values())
    if not texts:
        raise SystemExit(f"no GE abstracts (PMID-*.txt) under {GE}")
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>\n')
        for k in range(n):
            title, _, abstract = texts[k % len(texts)].read_text(encoding="utf-8").partition("\n")
            fh.write(f"<PubmedArticle><MedlineCitation><PMID>{10_000_000 + k}</PMID><Article>"
                     f"<ArticleTitle>{escape(title.strip())}</ArticleTitle><Abstract>"
                     f"<AbstractText>{escape(' '.join(abstract.split()))}</AbstractText>"
                     "</Abstract></Article></MedlineCitation></PubmedArticle>\n")
        fh.write("</PubmedArticleSet>\n")
    return len(texts)


class RssSampler:
    """Peak resident memory and CPU seconds of each process under ``roots`` (and their
    children), sampled every 0.5 s (a process's CPU time as last seen before it ended)."""

    def __init__(self, roots: list[int]) -> None:
        self.roots, self.peak, self.cpu = roots, {}, {}
        self._sample()
        self.cpu0 = dict(self.cpu)          # processes already running: count from now
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        for r in self.roots:
            try:
                procs = [psutil.Process(r), *psutil.Process(r).children(recursive=True)]
            except psutil.Error:
                continue
            for p in procs:
                try:
                    with p.oneshot():
                        rss, t = p.memory_info().rss, p.cpu_times()
                except psutil.Error:
                    continue
                self.peak[p.pid] = max(self.peak.get(p.pid, 0), rss)
                self.cpu[p.pid] = t.user + t.system

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(0.5)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def cpu_s(self, pid: int) -> float:
        """CPU seconds ``pid`` spent while sampled."""
        return self.cpu.get(pid, 0.0) - self.cpu0.get(pid, 0.0)

    def top(self, k: int, among: set[int] | None = None) -> list[float]:
        """The ``k`` largest peaks in MB (the workers)."""
        return sorted((v / 1e6 for p, v in self.peak.items() if among is None or p in among),
                      reverse=True)[:k]


#: Dask worker settings for a CPU-bound Python task (``--dask-config quiet``): no statistical
#: profiler (it samples the running task's stack every 10 ms), the event loop's tick and the
#: monitors at 1-2 s instead of 20-500 ms. Measured: a 100-abstract chunk took 5.79 s CPU in
#: a default worker, 5.02 s in this one, 4.91 s in a plain worker process (load ~2).
QUIET_WORKER = {"distributed.worker.profile.enabled": False,
                "distributed.admin.tick.interval": "1s",
                "distributed.admin.system-monitor.interval": "2s",
                "distributed.worker.memory.monitor-interval": "1s"}


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def extract_cmd(inp: Path, out: Path, chunk: int, *extra: str, task: str = "ppi"
                ) -> list[str]:
    return [sys.executable, "-m", "relx.app.cli", "extract", str(inp), "--out", str(out),
            "--quiet", "--chunk-size", str(chunk), "--task", task, *extra]


def timed_run(name: str, cmd: list[str], out: Path, workers: int, dask: bool = False,
              kill_at: int | None = None, kill: Callable[[int], int | None] | None = None
              ) -> dict:
    """Run ``cmd`` and measure it; with ``kill``: call it once ``kill_at`` chunks are done
    with the pid of ``cmd``'s process (it SIGKILLs a worker and returns the worker's pid)."""
    shutil.rmtree(out, ignore_errors=True)
    load0 = _load()
    me = psutil.Process()
    cpu0 = sum(me.cpu_times()[:2])
    t0 = time.perf_counter()
    roots = [os.getpid()] if dask else []
    proc = subprocess.Popen(cmd)
    killed = None
    roots = [proc.pid, *roots]
    with RssSampler(roots) as rss:
        while proc.poll() is None:
            if kill is not None and killed is None and (out / ".done").exists() and \
                    len(list((out / ".done").glob("*/*.json"))) >= (kill_at or 1):
                killed = kill(proc.pid)
            time.sleep(0.2)
        rss._sample()
    code = proc.returncode
    wall = time.perf_counter() - t0
    own = sum(me.cpu_times()[:2]) - cpu0
    summary = json.loads((out / "summary.json").read_text())
    worker_pids = set(rss.cpu) - {proc.pid, os.getpid()}
    cpu = {"main": round(rss.cpu_s(proc.pid), 1),
           "workers": round(sum(rss.cpu_s(p) for p in worker_pids), 1)}
    if dask:
        cpu["scheduler"] = round(own, 1)
    total = sum(cpu.values())
    res = {"run": name, "exit": code, "documents": summary["documents"],
           "relations": summary["relations"], "errors": summary["errors"],
           "wall_s": round(wall, 1), "docs_per_s": round(summary["documents"] / wall, 2),
           "cpu_s_per_100_docs": round(100 * total / max(1, summary["documents"]), 2),
           "cpu_s": cpu, "peak_rss_mb": [round(x) for x in rss.top(workers, worker_pids or None)],
           "load_before_after": [load0, _load()]}
    if kill is not None:
        res["killed_pid"] = killed
    print(json.dumps(res), flush=True)
    return res


def _kill_jobs_worker(main_pid: int) -> int | None:
    """SIGKILL one ``--jobs`` worker process of ``main_pid``."""
    workers = [c for c in psutil.Process(main_pid).children()
               if "spawn_main" in " ".join(c.cmdline())]
    if not workers:
        return None
    os.kill(workers[0].pid, signal.SIGKILL)
    return workers[0].pid


def _kill_dask_worker(cluster: Any) -> int | None:
    """SIGKILL the process of one worker of ``cluster`` (its nanny starts a new one)."""
    for nanny in cluster.workers.values():
        if nanny.pid:
            os.kill(nanny.pid, signal.SIGKILL)
            return nanny.pid
    return None


def sorted_lines(path: Path) -> list[str]:
    return sorted(path.read_text(encoding="utf-8").splitlines())


def _ratio(results: dict, a: str, b: str) -> float | None:
    if a in results and b in results:
        return round(results[a]["docs_per_s"] / results[b]["docs_per_s"], 2)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--articles", type=int, default=10_000)
    ap.add_argument("--chunk-size", type=int, default=1000)
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-batch")
    ap.add_argument("--skip", nargs="*", default=[],
                    help="runs to leave out: one, jobs2, dask1, dask2, kill, daskkill")
    ap.add_argument("--dask-config", choices=("quiet", "default"), default="quiet",
                    help="worker settings of the local Dask cluster (quiet: QUIET_WORKER)")
    ap.add_argument("--task", choices=("ppi", "gene-relations"), default="ppi",
                    help="relx extract's task (default ppi: docs/batch.md's figures)")
    args = ap.parse_args()
    results_file = "relations.jsonl" if args.task == "ppi" else "gene_relations.jsonl"
    args.work.mkdir(parents=True, exist_ok=True)
    inp = args.work / "pubmed-bench.xml.gz"
    distinct = build_input(inp, args.articles)
    n_chunks = -(-args.articles // args.chunk_size)
    print(f"input: {inp} ({args.articles} articles from {distinct} GE abstracts, "
          f"{inp.stat().st_size / 1e6:.1f} MB, {n_chunks} chunks); "
          f"load average {_load()} on {os.cpu_count()} cores; Dask workers: "
          f"{QUIET_WORKER if args.dask_config == 'quiet' else 'default settings'}", flush=True)
    results: dict[str, dict] = {}
    c, w = args.chunk_size, args.work

    def cmd(name: str, *extra: str) -> list[str]:
        return extract_cmd(inp, w / name, c, *extra, task=args.task)

    if "one" not in args.skip:
        results["one"] = timed_run("1 process", cmd("one"), w / "one", 1)
    if "jobs2" not in args.skip:
        results["jobs2"] = timed_run("--jobs 2", cmd("jobs2", "--jobs", "2"), w / "jobs2", 2)
    for n in (1, 2):
        if f"dask{n}" in args.skip and (n == 1 or "daskkill" in args.skip):
            continue
        import dask
        from distributed import LocalCluster

        with dask.config.set(QUIET_WORKER if args.dask_config == "quiet" else {}), \
                LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                             dashboard_address=None) as cluster:
            dask = ("--engine", "dask", "--scheduler", cluster.scheduler_address)
            if f"dask{n}" not in args.skip:
                results[f"dask{n}"] = timed_run(f"dask, {n} worker(s)", cmd(f"dask{n}", *dask),
                                                w / f"dask{n}", n, dask=True)
            if n == 2 and "daskkill" not in args.skip:
                results["daskkill"] = timed_run(
                    "dask, 2 workers, one SIGKILLed halfway", cmd("daskkill", *dask),
                    w / "daskkill", 2, dask=True, kill_at=max(1, n_chunks // 2),
                    kill=lambda _, cl=cluster: _kill_dask_worker(cl))
    if "kill" not in args.skip:
        results["killed"] = timed_run(
            "--jobs 2, one worker SIGKILLed halfway", cmd("killed", "--jobs", "2"),
            w / "killed", 2, kill_at=max(1, n_chunks // 2), kill=_kill_jobs_worker)
    ratios = {"jobs2 / one": _ratio(results, "jobs2", "one"),
              "dask2 / dask1": _ratio(results, "dask2", "dask1"),
              "dask1 / one": _ratio(results, "dask1", "one"),
              "dask2 / jobs2": _ratio(results, "dask2", "jobs2")}
    for k, v in ratios.items():
        if v is not None:
            print(f"throughput {k}: {v:.2f}x")
    ref_key = next((k for k in ("one", "jobs2", "dask2", "dask1") if k in results), None)
    if ref_key is None and ({"killed", "daskkill"} & set(results)):
        results["jobs2"] = timed_run("--jobs 2", cmd("jobs2", "--jobs", "2"), w / "jobs2", 2)
        ref_key = "jobs2"
    if ref_key is not None:
        ref = sorted_lines(w / ref_key / results_file)
        for k, r in results.items():
            same = sorted_lines(w / k / results_file) == ref
            note = (f" (exit {r['exit']}, {r['errors']} errors, killed pid {r['killed_pid']})"
                    if "killed_pid" in r else "")
            print(f"{k}: sorted {results_file} equal to the uninterrupted {ref_key!r} run's: "
                  f"{same}{note}")


if __name__ == "__main__":
    main()
