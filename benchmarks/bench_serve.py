"""``relx serve`` under load, against ``relx extract --jobs W`` on the same abstracts.

Times ``import relx; relx.load(task="ppi")`` in a fresh interpreter, then starts ``relx serve
--workers W`` on a free loopback port (start to every worker's ``ready`` timed), sends the
abstracts once (warm-up: each worker touches the pages it uses), then for each
concurrency level sends every abstract as one request (``{"documents": [...]}``) from that
many client threads; a 503 is retried after its ``Retry-After``, so no request is lost.
Then ``--soak-seconds`` more at concurrency 8. Prints per level: throughput
(abstracts/s) and its share of the batch's, p50 / p99 latency per abstract (including
waits after 503s), 503s (and whether each had ``Retry-After``), failures (any other
status or a connection error); the processes' memory (RSS, PSS and USS from
``/proc/<pid>/smaps_rollup``: the workers share the parent's model pages) after the
warm-up and at the end, and the load average. Bounded: ``--max-seconds`` per level,
loopback only. The batch's throughput is its marginal rate: ``relx extract --jobs W`` runs
on the abstracts, then on them ``--batch-copies`` times (new ids), and the extra abstracts
are divided by the extra seconds (``summary.json``), so its start-up (each batch worker
loads the models) is left out of it; measured before the server starts and after it stops,
and averaged (the machine's load moves between them).

    .venv/bin/python benchmarks/bench_serve.py --abstracts 40 --levels 1,8,32 \
        --soak-seconds 120

The last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELX = [sys.executable, "-m", "relx.app.cli"]


def abstracts(n: int) -> list[tuple[str, str]]:
    shared = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
    files = sorted((shared / "corpora" / "bionlp-st-ge" / "2009" / "devel").glob("*.txt")) \
        or sorted((ROOT / "corpora" / "abstracts").glob("*.txt"))
    return [(f.stem, f.read_text(encoding="utf-8")) for f in files[:n]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_mb(pids: list[int]) -> dict[str, float]:
    """RSS, PSS and USS (private pages) summed over ``pids``, in MB."""
    total = {"rss": 0, "pss": 0, "uss": 0}
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        kb = {k: int(v) for k, v in re.findall(r"^(\w+):\s+(\d+) kB", text, re.M)}
        total["rss"] += kb.get("Rss", 0)
        total["pss"] += kb.get("Pss", 0)
        total["uss"] += kb.get("Private_Clean", 0) + kb.get("Private_Dirty", 0)
    return {k: round(v / 1024, 1) for k, v in total.items()}


def rss_mb(pids: list[int]) -> float:
    return memory_mb(pids)["rss"]


def load_seconds() -> float:
    """Wall seconds of ``import relx; relx.load(task="ppi")`` in a fresh interpreter."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import relx; relx.load(task='ppi')"], check=True,
                   cwd=ROOT)
    return round(time.perf_counter() - t0, 2)


def post(port: int, doc: tuple[str, str], deadline: float) -> tuple[float, int, str]:
    """One abstract until served (503s retried after Retry-After): (seconds, 503s, outcome);
    a 503 without Retry-After is a failure."""
    t0, n503 = time.perf_counter(), 0
    body = json.dumps({"documents": [{"id": doc[0], "text": doc[1]}]}).encode()
    while time.time() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        try:
            conn.request("POST", "/extract", body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
        except OSError as exc:
            return time.perf_counter() - t0, n503, f"error: {exc}"
        finally:
            conn.close()
        if resp.status == 200:
            return time.perf_counter() - t0, n503, "ok"
        if resp.status != 503 or not resp.getheader("Retry-After"):
            return time.perf_counter() - t0, n503, f"status {resp.status}"
        n503 += 1
        time.sleep(float(resp.getheader("Retry-After")))
    return time.perf_counter() - t0, n503, "out of time"


def level(port: int, docs: list[tuple[str, str]], concurrency: int, max_seconds: float,
          pids: list[int]) -> dict:
    deadline = time.time() + max_seconds
    rss0 = rss_mb(pids)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda d: post(port, d, deadline), docs))
    wall = time.perf_counter() - t0
    lat = sorted(r[0] for r in results)
    ok = sum(r[2] == "ok" for r in results)
    return {"concurrency": concurrency, "abstracts": len(docs), "served": ok,
            "seconds": round(wall, 2), "per_s": round(ok / wall, 2),
            "p50_s": round(statistics.median(lat), 3),
            "p99_s": round(lat[min(len(lat) - 1, int(0.99 * len(lat)))], 3),
            "n503": sum(r[1] for r in results),
            "failed": [r[2] for r in results if r[2] != "ok"][:5],
            "rss_mb_start": rss0, "rss_mb_end": rss_mb(pids)}


def batch_seconds(docs: list[tuple[str, str]], jobs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in"
        src.mkdir()
        for i, t in docs:
            (src / f"{i}.txt").write_text(t, encoding="utf-8")
        subprocess.run([*RELX, "extract", str(src), "--task", "ppi", "--out",
                        str(Path(tmp) / "out"), "--jobs", str(jobs), "--quiet"], check=False,
                       cwd=ROOT)
        return json.loads((Path(tmp) / "out" / "summary.json").read_text())["seconds"]


def batch_rate(docs: list[tuple[str, str]], jobs: int, copies: int) -> float:
    """The batch's marginal rate: ``docs``, then ``copies`` times ``docs`` (new ids); the
    extra abstracts over the extra seconds (abstracts/s)."""
    many = [(f"{i}-copy{k}", t) for k in range(copies) for i, t in docs]
    t_one, t_many = batch_seconds(docs, jobs), batch_seconds(many, jobs)
    return round((len(many) - len(docs)) / (t_many - t_one), 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abstracts", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--levels", default="1,8,32")
    ap.add_argument("--max-seconds", type=float, default=300, help="per level")
    ap.add_argument("--batch-copies", type=int, default=4,
                    help="the batch's second run: the abstracts this many times")
    ap.add_argument("--soak-seconds", type=float, default=120,
                    help="then send abstracts at concurrency 8 for this long (RSS growth)")
    args = ap.parse_args()
    docs = abstracts(args.abstracts)
    port = free_port()
    figures: dict = {"workers": args.workers, "abstracts": len(docs),
                     "load_average_start": [round(x, 2) for x in os.getloadavg()],
                     "relx_load_s": load_seconds(),
                     "batch_per_s_before": batch_rate(docs, args.workers, args.batch_copies)}
    t0 = time.perf_counter()
    proc = subprocess.Popen([*RELX, "serve", "--task", "ppi", "--port", str(port), "--workers",
                             str(args.workers)], stderr=subprocess.PIPE, text=True, cwd=ROOT)
    log: list[str] = []
    threading.Thread(target=lambda: log.extend(proc.stderr or []), daemon=True).start()
    try:
        while sum("ready on" in line for line in log) < args.workers:
            if proc.poll() is not None or time.perf_counter() - t0 > 600:
                raise SystemExit("relx serve did not get ready:\n" + "".join(log))
            time.sleep(0.1)
        figures["start_to_ready_s"] = round(time.perf_counter() - t0, 2)
        loads = [float(m.group(1)) for line in log
                 if (m := re.search(r"loaded in ([\d.]+) s", line))]
        figures["load_s"] = max(loads)
        pids = [int(p) for line in log if (p := (re.findall(r"ready on .* \(pid (\d+)\)", line)
                                                  or [None])[0])]
        every = sorted({proc.pid, *pids})   # with forked workers, the parent holds the models
        figures["memory_mb_ready"] = memory_mb(every)
        level(port, docs, 2, args.max_seconds, pids)   # warm-up
        figures["memory_mb_start"] = start = memory_mb(every)
        t_start = time.time()
        figures["levels"] = [level(port, docs, int(c), args.max_seconds, pids)
                             for c in args.levels.split(",")]
        if args.soak_seconds:
            end, soak0, n = time.time() + args.soak_seconds, memory_mb(every), 0
            while time.time() < end:
                level(port, docs, 8, args.max_seconds, pids)
                n += len(docs)
            figures["soak"] = {"seconds": args.soak_seconds, "abstracts": n,
                               "memory_mb_start": soak0, "memory_mb_end": memory_mb(every)}
        figures["memory_mb_end"] = last = memory_mb(every)
        figures["memory_mb_by_process"] = {
            ("parent" if pid == proc.pid else f"worker {pid}"): memory_mb([pid])
            for pid in every}
        figures["minutes_measured"] = round((time.time() - t_start) / 60, 1)
        figures["growth_pct"] = {k: round(100 * (last[k] / start[k] - 1), 1) for k in start}
        figures["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
    figures["batch_per_s_after"] = batch_rate(docs, args.workers, args.batch_copies)
    figures["batch_per_s"] = round((figures["batch_per_s_before"]
                                    + figures["batch_per_s_after"]) / 2, 2)
    print(f"start to ready {figures['start_to_ready_s']} s (models loaded in "
          f"{figures['load_s']} s; import relx; relx.load(task='ppi') in a fresh interpreter: "
          f"{figures['relx_load_s']} s); relx extract --jobs {args.workers}: "
          f"{figures['batch_per_s']} abstracts/s (marginal; before the server "
          f"{figures['batch_per_s_before']}, after {figures['batch_per_s_after']})")
    print("conc  per_s  share  p50_s  p99_s  503s  failed  rss_mb start->end")
    for lv in figures["levels"]:
        lv["share"] = round(lv["per_s"] / figures["batch_per_s"], 2)
        print(f"{lv['concurrency']:>4}  {lv['per_s']:>5}  {lv['share']:>5}  {lv['p50_s']:>5}  "
              f"{lv['p99_s']:>5}  {lv['n503']:>4}  {len(lv['failed']):>6}  "
              f"{lv['rss_mb_start']} -> {lv['rss_mb_end']}")
    start, end = figures["memory_mb_start"], figures["memory_mb_end"]
    print(f"memory of the parent and workers after the warm-up -> end "
          f"({figures['minutes_measured']} min): " + ", ".join(
              f"{k.upper()} {start[k]} -> {end[k]} MB ({figures['growth_pct'][k]:+}%)"
              for k in ("rss", "pss", "uss")))
    for name, mem in figures["memory_mb_by_process"].items():
        print(f"  {name}: RSS {mem['rss']} MB, PSS {mem['pss']} MB, USS {mem['uss']} MB "
              f"(shared: {round(mem['rss'] - mem['uss'], 1)} MB)")
    print(f"load average {figures['load_average_start']} -> {figures['load_average_end']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
