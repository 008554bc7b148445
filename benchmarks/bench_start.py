"""Start-up: ``relx.load()`` and ``relx extract one.txt`` (one sentence) in fresh processes,
with the stack's own floor beside them (``bench_load_floor.py``: spaCy, the parse pipeline,
numba and relx's kernels, no relx model).

    python benchmarks/bench_start.py [--repeat 5] [--task gene-relations] [--source]

Each repeat runs, one after another in new interpreters: the floor; ``import relx;
relx.load(task=...)`` (import, models, warm-up: wall and CPU seconds); and ``relx extract
one.txt --task ... --out <tmp> --quiet``, timed from outside (wall: everything a user waits
for, interpreter start to exit). Medians over the repeats (min and max beside); the load
average before and after says how busy the machine was. The last line is JSON.

The processes run as an installed relx does, with its modules' bytecode compiled (pip
compiles it when it installs the wheel): Python's bytecode goes to a folder of the run
(``PYTHONPYCACHEPREFIX``, written by one untimed load first), even where the environment says
``PYTHONDONTWRITEBYTECODE`` (a checkout would otherwise compile relx's ~115 modules on every
start: ~0.15 s here). ``--source`` measures that instead.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from relx.tasks import DEFAULT_TASK

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "Activated JAK1 phosphorylates STAT5, and SOCS3 inhibits JAK1.\n"

LOAD = """
import json, time
t0, c0 = time.perf_counter(), time.process_time()
import relx
ex = relx.load(task={task!r})
print(json.dumps({{"load_s": time.perf_counter() - t0, "load_cpu_s": time.process_time() - c0}}))
"""


def _env() -> dict[str, str]:
    """This interpreter's environment, with the repository first on the path (a checkout's
    relx, as the other benchmarks use)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path)


def floor_s() -> float:
    """``bench_load_floor.py``'s total wall seconds, in a fresh process."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_load_floor.py")],
                         capture_output=True, text=True, check=True, env=_env()).stdout
    total = next(line for line in out.splitlines() if line.startswith("total"))
    return float(total.split("wall")[1].split()[0])


def load_s(task: str) -> dict[str, float]:
    """``import relx; relx.load(task=task)`` in a fresh process: wall and CPU seconds."""
    out = subprocess.run([sys.executable, "-c", LOAD.format(task=task)], capture_output=True,
                         text=True, check=True, env=_env()).stdout
    return json.loads(out.strip().splitlines()[-1])


def extract_one_s(task: str, work: Path) -> float:
    """Wall seconds of ``relx extract one.txt`` (the console script's entry point)."""
    out = work / f"out-{time.monotonic_ns()}"
    cmd = [sys.executable, "-c", "from relx.app.cli import app; app()", "extract",
           str(work / "one.txt"), "--task", task, "--out", str(out), "--quiet"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=_env(), cwd=work, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--task", default=DEFAULT_TASK,
                    help=f"the task loaded and extracted (default: relx's, {DEFAULT_TASK})")
    ap.add_argument("--source", action="store_true",
                    help="bytecode as the environment says (a checkout may compile every time)")
    a = ap.parse_args()
    before = os.getloadavg()
    runs: dict[str, list[float]] = {"floor_s": [], "load_s": [], "load_cpu_s": [],
                                    "extract_one_s": []}
    with tempfile.TemporaryDirectory(prefix="relx-start-") as tmp:
        work = Path(tmp)
        (work / "one.txt").write_text(SENTENCE, encoding="utf-8")
        if not a.source:   # the measured processes inherit this environment
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.environ["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
            load_s(a.task)          # untimed: writes the bytecode, as an install does
        for i in range(a.repeat):
            runs["floor_s"].append(floor_s())
            for k, v in load_s(a.task).items():
                runs[k].append(v)
            runs["extract_one_s"].append(extract_one_s(a.task, work))
            print(f"run {i + 1}: " + ", ".join(f"{k} {v[-1]:.2f}" for k, v in runs.items())
                  + f"  (load average {os.getloadavg()[0]:.2f})", flush=True)
    figures = {k: summary(v) for k, v in runs.items()}
    after = os.getloadavg()
    print(f"\n{'median of ' + str(a.repeat):24} {'s':>7} {'min':>7} {'max':>7}")
    for k, f in figures.items():
        print(f"{k:24} {f['median']:7.2f} {f['min']:7.2f} {f['max']:7.2f}")
    print(f"load average before {before[0]:.2f}, after {after[0]:.2f} "
          f"(targets: relx.load() <= 2.5 s, relx extract one.txt <= 4 s)")
    print(json.dumps({"task": a.task, "repeat": a.repeat, "bytecode": not a.source,
                      **figures, "runs": runs,
                      "loadavg_before": before, "loadavg_after": after}))


if __name__ == "__main__":
    main()
