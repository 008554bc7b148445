"""The Python API's latency and throughput, per task (``relx.load(task=...)``).

Each task is measured in a fresh interpreter: ``import relx`` and ``relx.load()`` (which
imports the dependency stack, loads the models and warms up), the first call on an abstract,
the steady per-abstract latency (one ``extract`` call per abstract) and the batch
throughput of ``pipe`` over the same abstracts. Abstracts: the GE 2009 devel texts (PubMed
abstracts) under ``--shared``, else the repository's sample abstracts. Wall-clock figures
depend on what else runs on the machine: the load average is reported beside them, and the
process CPU times (``*_cpu_*``; relx computes on one thread) show the work itself.

    .venv/bin/python benchmarks/bench_api.py --abstracts 40
    .venv/bin/python benchmarks/bench_api.py --task ppi --repeat 3

Prints a table; the last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def abstracts(shared: Path, n: int) -> tuple[str, list[tuple[str, str]]]:
    """(where from, [(id, text)]): the first ``n`` GE 2009 devel abstracts, or the samples."""
    ge = shared / "corpora" / "bionlp-st-ge" / "2009" / "devel"
    files = sorted(ge.glob("*.txt")) or sorted((ROOT / "corpora" / "abstracts").glob("*.txt"))
    files = files[:n]
    return str(files[0].parent), [(f.stem, f.read_text(encoding="utf-8")) for f in files]


def measure(task: str, texts: list[tuple[str, str]], batch_size: int,
            n_process: int) -> dict:
    """All figures of one task, in this (fresh) process; seconds unless named otherwise."""
    t0 = time.perf_counter()
    import relx
    t_import = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    ex = relx.load(task=task)
    t_load, c_load = time.perf_counter() - t0, time.process_time() - c0
    first_id, first_text = texts[0]
    t0 = time.perf_counter()
    ex.extract((first_id, first_text))
    t_first = time.perf_counter() - t0
    steady, steady_cpu = [], []
    for pair in texts[1:]:
        t0, c0 = time.perf_counter(), time.process_time()
        ex.extract(pair)
        steady.append(time.perf_counter() - t0)
        steady_cpu.append(time.process_time() - c0)
    t0 = time.perf_counter()
    piped = sum(len(f) for f in ex.pipe(texts, batch_size=batch_size))
    t_pipe = time.perf_counter() - t0
    out = {"task": task, "abstracts": len(texts), "import_s": round(t_import, 3),
           "load_s": round(t_load, 3), "load_cpu_s": round(c_load, 3),
           "first_call_s": round(t_first, 3),
           "steady_median_s": round(statistics.median(steady), 4),
           "steady_mean_s": round(statistics.mean(steady), 4),
           "steady_p90_s": round(sorted(steady)[int(0.9 * (len(steady) - 1))], 4),
           "steady_max_s": round(max(steady), 4),
           "steady_cpu_median_s": round(statistics.median(steady_cpu), 4),
           "pipe_abstracts_per_s": round(len(texts) / t_pipe, 1),
           "pipe_batch_size": batch_size, "results_pipe": piped}
    if n_process > 1:
        t0 = time.perf_counter()
        sum(len(f) for f in ex.pipe(texts, batch_size=batch_size, n_process=n_process))
        out[f"pipe_{n_process}proc_abstracts_per_s_incl_worker_load"] = \
            round(len(texts) / (time.perf_counter() - t0), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", choices=["ppi", "events", "both"], default="both")
    ap.add_argument("--abstracts", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--n-process", type=int, default=1,
                    help="also time pipe over this many worker processes (> 1)")
    ap.add_argument("--repeat", type=int, default=1, help="fresh processes per task")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--one", help=argparse.SUPPRESS)   # internal: measure in this process
    args = ap.parse_args()
    source, texts = abstracts(args.shared, args.abstracts)
    if args.one:
        print(json.dumps(measure(args.one, texts, args.batch_size, args.n_process)))
        return
    tasks = ["ppi", "events"] if args.task == "both" else [args.task]
    load_before = os.getloadavg()
    runs = []
    for task in tasks:
        for _ in range(args.repeat):
            cmd = [sys.executable, __file__, "--one", task, "--abstracts", str(args.abstracts),
                   "--batch-size", str(args.batch_size), "--n-process", str(args.n_process),
                   "--shared", str(args.shared)]
            r = subprocess.run(cmd, capture_output=True, text=True, check=True)
            runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    load_after = os.getloadavg()
    keys = [k for k in runs[0] if k not in ("task",)]
    print(f"abstracts: {source} ({len(texts)}); load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f} (1 min); {os.cpu_count()} CPUs")
    print(f"{'figure':<48}" + "".join(f"{r['task']:>12}" for r in runs))
    for k in keys:
        print(f"{k:<48}" + "".join(f"{r.get(k, ''):>12}" for r in runs))
    for task in tasks:   # the spread over fresh processes
        mine = [r for r in runs if r["task"] == task]
        for k in ("load_s", "load_cpu_s", "steady_median_s"):
            v = sorted(r[k] for r in mine)
            print(f"{task} {k}: median {statistics.median(v)} (min {v[0]}, max {v[-1]}, "
                  f"{len(v)} processes)")
    print(json.dumps({"runs": runs, "source": source, "cpus": os.cpu_count(),
                      "loadavg_before": load_before, "loadavg_after": load_after}))


if __name__ == "__main__":
    main()
