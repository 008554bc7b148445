"""How one long document's cost grows with its length, and threads sharing an extractor.

Sizes: one plain-text document of ``--sizes`` characters (default 100 kB, 1 MB, 10 MB) made
of the GE 2011 abstracts (``../shared/corpora/bionlp-st-ge``, or ``RELX_DATA``) joined by
blank lines, repeated as needed. Each size runs in a fresh interpreter: ``relx.load(task="ppi")``
(interactions, typed), warm-up, then one ``extract`` of the document with the per-document
limits lifted. Reported per size: wall and CPU seconds of the extraction, the child's peak
resident memory (``os.wait4`` rusage: the whole process, models included) and its resident
memory after loading (so the extraction's own share is the difference), relations found.

Threads: the first ``--thread-docs`` abstracts in 4 groups, extracted by one thread (the
groups one after the other) and by 4 threads sharing one extractor (a group each), in one
fresh interpreter; the results must be equal; wall seconds and documents per second.

Wall-clock figures depend on what else runs on the machine (the load average is printed
with them; CPU seconds show the work itself). Skips cleanly when the corpus is absent.

    .venv/bin/python benchmarks/bench_scaling.py
    .venv/bin/python benchmarks/bench_scaling.py --sizes 100000 1000000 --thread-docs 200

Prints a table; the last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
GE = SHARED / "corpora" / "bionlp-st-ge" / "2011"


def ge_texts() -> list[str]:
    return [p.read_text(encoding="utf-8").strip() for p in sorted(GE.rglob("PMID-*.txt"))]


def document(size: int) -> str:
    """``size`` characters of GE abstracts joined by blank lines (repeated as needed)."""
    texts, parts, n, i = ge_texts(), [], 0, 0
    while n < size:
        parts.append(texts[i % len(texts)])
        n += len(parts[-1]) + 2
        i += 1
    return "\n\n".join(parts)[:size]


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # KiB on Linux


def child_size(size: int) -> dict:
    """In a fresh process: load, warm up, extract one document of ``size`` characters."""
    import relx

    text = document(size)
    ex = relx.load(task="ppi", max_doc_chars=None, max_doc_seconds=None)
    loaded_mb = _rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    found = ex.extract(("long", text))
    return {"chars": len(text), "seconds": round(time.perf_counter() - t0, 2),
            "cpu_seconds": round(time.process_time() - c0, 2),
            "rss_after_load_mb": round(loaded_mb), "relations": len(found)}


def child_threads(n_docs: int, n_threads: int = 4) -> dict:
    """In a fresh process: one thread vs ``n_threads`` threads sharing one extractor."""
    import threading

    import relx

    texts = ge_texts()[:n_docs]
    groups = [[(f"g{g}-{k}", t) for k, t in enumerate(texts[g::n_threads])]
              for g in range(n_threads)]
    ex = relx.load(task="ppi")

    def run(group: list) -> list:
        return [[r.model_dump_json() for r in found] for found in ex.pipe(group)]

    t0, c0 = time.perf_counter(), time.process_time()
    one = [run(g) for g in groups]
    t_one, c_one = time.perf_counter() - t0, time.process_time() - c0
    many: list = [None] * n_threads

    def work(i: int) -> None:
        many[i] = run(groups[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
    t0, c0 = time.perf_counter(), time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_many, c_many = time.perf_counter() - t0, time.process_time() - c0
    return {"documents": len(texts), "threads": n_threads, "same_results": many == one,
            "one_thread_seconds": round(t_one, 2), "one_thread_cpu": round(c_one, 2),
            "threads_seconds": round(t_many, 2), "threads_cpu": round(c_many, 2),
            "one_thread_docs_per_s": round(len(texts) / t_one, 1),
            "threads_docs_per_s": round(len(texts) / t_many, 1)}


def in_child(args: list[str]) -> dict:
    """Run this script's ``--child`` mode; its figures plus its peak RSS (``wait4``)."""
    proc = subprocess.Popen([sys.executable, __file__, "--child", *args],
                            stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"child {args} failed ({proc.returncode})")
    figures = json.loads(out.decode().strip().splitlines()[-1])
    figures["peak_rss_mb"] = round(usage.ru_maxrss / 1024)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[100_000, 1_000_000, 10_000_000])
    ap.add_argument("--thread-docs", type=int, default=200)
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        kind, value = a.child
        print(json.dumps(child_size(int(value)) if kind == "size"
                         else child_threads(int(value))))
        return
    if not ge_texts():
        print(f"skipped: no GE abstracts under {GE} (set RELX_DATA)")
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    sizes = []
    for size in a.sizes:
        f = in_child(["size", str(size)])
        sizes.append(f)
        print(f"{f['chars']:>11,} chars  {f['seconds']:8.1f} s  cpu {f['cpu_seconds']:8.1f} s"
              f"  peak {f['peak_rss_mb']:6} MB  after load {f['rss_after_load_mb']:5} MB"
              f"  {f['relations']:6} relations  (load {os.getloadavg()[0]:.2f})", flush=True)
    ratios = {f"{b['chars']}/{s['chars']}": round(b["seconds"] / s["seconds"], 2)
              for s, b in zip(sizes, sizes[1:], strict=False)}
    for k, v in ratios.items():
        print(f"time ratio {k}: {v}x")
    threads = in_child(["threads", str(a.thread_docs)]) if a.thread_docs else {}
    if threads:
        print(f"{threads['documents']} abstracts: 1 thread {threads['one_thread_seconds']} s "
              f"({threads['one_thread_docs_per_s']}/s), {threads['threads']} threads sharing "
              f"one extractor {threads['threads_seconds']} s "
              f"({threads['threads_docs_per_s']}/s), same results: {threads['same_results']}"
              f"  (load {os.getloadavg()[0]:.2f})")
    print(json.dumps({"sizes": sizes, "time_ratios": ratios, "threads": threads}))


if __name__ == "__main__":
    main()
