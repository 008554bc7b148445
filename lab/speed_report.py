"""The speed section of docs/results.md, from the speed benchmarks run now, on this machine.

    python -m lab.speed_report [--limit 300] [--out docs/runs/speed.json] [--repeat 5]
        [--rounds 3]

Runs ``benchmarks/bench_extract.py`` for plain pairs (``--task ppi``) and typed pairs
(``--task typed``) with one and with two processes, and for ``relx extract``'s default
(``--task gene-relations``) with one, ``--rounds`` times over (on a shared virtual
machine one configuration's share of parse-only moves by 20 points between runs: the
median round is kept, every round's share beside it), and ``benchmarks/bench_start.py``'s
``--repeat`` start-ups spread over the rounds (medians of the pooled runs), and writes
their JSON lines with the load average before and after each; :mod:`lab.results` renders
them as a table and a chart of throughput against parse-only. Run it on a quiet
machine (nothing else on the cores): the figures are what the issue's targets are read
against.
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


def _last_json(cmd: list[str]) -> dict:
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


CONFIGS = ((1, "ppi"), (1, "typed"), (1, "gene-relations"), (2, "ppi"), (2, "typed"))


def share(run: dict) -> float:
    """Extraction throughput as a share of parse-only, in the same processes."""
    return run["abstracts_per_s"] / run["parse_only_abstracts_per_s"]


def median_round(rounds: list[dict]) -> dict:
    """The round whose share is the median of ``rounds`` (an odd count; the lower middle
    one of an even count), with every round's share beside it (``shares``, in run order)."""
    ranked = sorted(rounds, key=share)
    return {**ranked[(len(ranked) - 1) // 2], "shares": [round(share(r), 3) for r in rounds]}


def measure(limit: int, repeat: int, rounds: int = 3) -> dict:
    """Every benchmark's JSON figures, with the load average around it: ``rounds`` passes
    over the configurations (one pass after another, so each configuration meets the
    machine at several moments), each configuration's median round kept."""
    got: dict[tuple[int, str], list[dict]] = {c: [] for c in CONFIGS}
    starts: list[dict] = []
    for i in range(rounds):
        for procs, task in CONFIGS:
            before = os.getloadavg()[0]
            run = _last_json([sys.executable, "benchmarks/bench_extract.py", "--task", task,
                              "--procs", str(procs), "--limit", str(limit)])
            got[(procs, task)].append({**run, "load_before": round(before, 2),
                                       "load_after": round(os.getloadavg()[0], 2)})
            print(json.dumps(got[(procs, task)][-1]), flush=True)
        share_of_repeat = repeat * (i + 1) // rounds - repeat * i // rounds
        if share_of_repeat:   # the start-up repeats spread over the rounds too
            starts.append(_last_json([sys.executable, "benchmarks/bench_start.py",
                                      "--repeat", str(share_of_repeat)]))
    return {"measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cpus": os.cpu_count(), "rounds": rounds,
            "extract": [median_round(got[c]) for c in CONFIGS], "start": pooled_start(starts)}


def pooled_start(parts: list[dict]) -> dict:
    """``bench_start.py``'s figures over all its runs (median, min, max of the pooled
    repeats), from the JSON of several invocations."""
    runs: dict[str, list[float]] = {}
    for part in parts:
        for key, values in part["runs"].items():
            runs.setdefault(key, []).extend(values)
    out: dict = {"task": parts[0]["task"], "bytecode": parts[0].get("bytecode", False),
                 "repeat": len(next(iter(runs.values())))}
    for key, values in runs.items():
        out[key] = {"median": round(statistics.median(values), 3),
                    "min": round(min(values), 3), "max": round(max(values), 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3,
                    help="passes over the throughput benchmarks; each one's median is kept")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "runs" / "speed.json")
    a = ap.parse_args(argv)
    a.out.write_text(json.dumps(measure(a.limit, a.repeat, a.rounds), indent=1) + "\n", encoding="utf-8")
    print(f"-> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
