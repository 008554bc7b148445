"""PubMed-scale batch benchmark: one PubMed-baseline-shaped ``.xml.gz`` through ``relx extract``.

Builds one ``PubmedArticleSet`` of ``--articles`` articles (default 10,000) from the GENIA
(BioNLP-ST GE) abstracts in ``../shared`` (cycled, each copy with its own PMID), then times
``relx extract`` on it:

- 1 process, ``--jobs 2``, a local Dask cluster (``distributed`` scheduler and worker
  processes started here) with 1 and with 2 workers: documents/s and peak RSS per worker;
- a ``--jobs 2`` run in which one worker process is SIGKILLed once half the chunks are
  done: it must end with a ``relations.jsonl`` equal (sorted) to an uninterrupted run's.

Printed figures, not a timed test; they mean something only on a quiet machine::

    .venv/bin/python benchmarks/bench_batch.py                     # 10,000 articles
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
from html import escape
from pathlib import Path

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
    """Peak resident memory of each process under ``roots`` (and their children)."""

    def __init__(self, roots: list[int]) -> None:
        self.roots, self.peak, self.names = roots, {}, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for r in self.roots:
                try:
                    procs = [psutil.Process(r), *psutil.Process(r).children(recursive=True)]
                except psutil.Error:
                    continue
                for p in procs:
                    try:
                        rss = p.memory_info().rss
                    except psutil.Error:
                        continue
                    self.peak[p.pid] = max(self.peak.get(p.pid, 0), rss)
            self._stop.wait(0.5)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def top(self, k: int) -> list[float]:
        """The ``k`` largest peaks in MB (the workers)."""
        return sorted((v / 1e6 for v in self.peak.values()), reverse=True)[:k]


def extract_cmd(inp: Path, out: Path, chunk: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "relx.app.cli", "extract", str(inp), "--out", str(out),
            "--quiet", "--chunk-size", str(chunk), *extra]


def timed_run(name: str, cmd: list[str], out: Path, workers: int,
              extra_roots: list[int] = ()) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd)
    with RssSampler([proc.pid, *extra_roots]) as rss:
        code = proc.wait()
    wall = time.perf_counter() - t0
    summary = json.loads((out / "summary.json").read_text())
    res = {"run": name, "exit": code, "documents": summary["documents"],
           "relations": summary["relations"], "wall_s": round(wall, 1),
           "docs_per_s": round(summary["documents"] / wall, 2),
           "peak_rss_mb": [round(x) for x in rss.top(workers)]}
    print(json.dumps(res), flush=True)
    return res


def killed_run(inp: Path, out: Path, chunk: int, n_chunks: int) -> dict:
    """``--jobs 2``; SIGKILL one worker once half the chunks are done."""
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(extract_cmd(inp, out, chunk, "--jobs", "2"))
    killed = None
    while proc.poll() is None:
        done = list((out / ".done").glob("*/*.json")) if (out / ".done").exists() else []
        if killed is None and len(done) >= n_chunks // 2:
            workers = [c for c in psutil.Process(proc.pid).children()
                       if "spawn_main" in " ".join(c.cmdline())]
            if workers:
                killed = workers[0].pid
                os.kill(killed, signal.SIGKILL)
        time.sleep(0.2)
    summary = json.loads((out / "summary.json").read_text())
    res = {"run": "jobs 2, one worker SIGKILLed halfway", "exit": proc.returncode,
           "killed_pid": killed, "documents": summary["documents"],
           "errors": summary["errors"], "wall_s": round(time.perf_counter() - t0, 1)}
    print(json.dumps(res), flush=True)
    return res


def sorted_lines(path: Path) -> list[str]:
    return sorted(path.read_text(encoding="utf-8").splitlines())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--articles", type=int, default=10_000)
    ap.add_argument("--chunk-size", type=int, default=1000)
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "bench-batch")
    ap.add_argument("--skip", nargs="*", default=[],
                    help="runs to leave out: one, jobs2, dask1, dask2, kill")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    inp = args.work / "pubmed-bench.xml.gz"
    distinct = build_input(inp, args.articles)
    n_chunks = -(-args.articles // args.chunk_size)
    print(f"input: {inp} ({args.articles} articles from {distinct} GE abstracts, "
          f"{inp.stat().st_size / 1e6:.1f} MB, {n_chunks} chunks); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    results = {}
    c = args.chunk_size
    if "one" not in args.skip:
        results["one"] = timed_run("1 process", extract_cmd(inp, args.work / "one", c),
                                   args.work / "one", 1)
    if "jobs2" not in args.skip:
        results["jobs2"] = timed_run("--jobs 2", extract_cmd(inp, args.work / "jobs2", c,
                                                             "--jobs", "2"),
                                     args.work / "jobs2", 2)
    for n in (1, 2):
        if f"dask{n}" in args.skip:
            continue
        from distributed import LocalCluster

        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            results[f"dask{n}"] = timed_run(
                f"dask, {n} worker(s)", extract_cmd(inp, args.work / f"dask{n}", c, "--engine",
                                                    "dask", "--scheduler",
                                                    cluster.scheduler_address),
                args.work / f"dask{n}", n, extra_roots=[os.getpid()])
    if "one" in results and "jobs2" in results:
        print(f"--jobs 2 vs 1 process: "
              f"{results['jobs2']['docs_per_s'] / results['one']['docs_per_s']:.2f}x")
    if "dask1" in results and "dask2" in results:
        print(f"dask 2 workers vs 1: "
              f"{results['dask2']['docs_per_s'] / results['dask1']['docs_per_s']:.2f}x")
    ref = next((args.work / k / "relations.jsonl" for k in ("jobs2", "one", "dask2", "dask1")
                if k in results), None)
    for k in results:
        if ref is not None:
            same = sorted_lines(args.work / k / "relations.jsonl") == sorted_lines(ref)
            print(f"{k}: relations equal to {ref.parent.name}'s: {same}")
    if "kill" not in args.skip:
        killed_run(inp, args.work / "killed", c, n_chunks)
        if ref is None:
            timed_run("--jobs 2", extract_cmd(inp, args.work / "jobs2", c, "--jobs", "2"),
                      args.work / "jobs2", 2)
            ref = args.work / "jobs2" / "relations.jsonl"
        same = sorted_lines(args.work / "killed" / "relations.jsonl") == sorted_lines(ref)
        print(f"killed-worker run: sorted relations.jsonl equal to an uninterrupted run's: "
              f"{same}")


if __name__ == "__main__":
    main()
