"""The speed section of docs/results.md, from the speed benchmarks run now, on this machine.

    python -m lab.speed_report [--limit 300] [--out docs/runs/speed.json] [--repeat 5]

Runs ``benchmarks/bench_extract.py`` for plain pairs (``--task ppi``) and typed pairs
(``--task typed``) with one and with two processes, and for ``relx extract``'s default
(``--task gene-relations``) with one, then ``benchmarks/bench_start.py``, and
writes their JSON lines with the load average before and after each; :mod:`lab.results`
renders them as a table and a chart of throughput against parse-only. Run it on a quiet
machine (nothing else on the cores): the figures are what the issue's targets are read
against.
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


def _last_json(cmd: list[str]) -> dict:
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def measure(limit: int, repeat: int) -> dict:
    """Every benchmark's JSON figures, with the load average around it."""
    runs = []
    for procs, task in ((1, "ppi"), (1, "typed"), (1, "gene-relations"), (2, "ppi"),
                        (2, "typed")):
        before = os.getloadavg()[0]
        got = _last_json([sys.executable, "benchmarks/bench_extract.py", "--task", task,
                          "--procs", str(procs), "--limit", str(limit)])
        runs.append({**got, "load_before": round(before, 2),
                     "load_after": round(os.getloadavg()[0], 2)})
        print(json.dumps(runs[-1]), flush=True)
    start = _last_json([sys.executable, "benchmarks/bench_start.py", "--repeat", str(repeat)])
    start.pop("runs", None)
    return {"measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cpus": os.cpu_count(), "extract": runs, "start": start}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "runs" / "speed.json")
    a = ap.parse_args(argv)
    a.out.write_text(json.dumps(measure(a.limit, a.repeat), indent=1) + "\n", encoding="utf-8")
    print(f"-> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
