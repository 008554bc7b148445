"""Where ``relx.load()`` spends its time and memory: wall and CPU seconds and the resident
set size (RSS, MiB) after each load stage, in a fresh process.

    python benchmarks/bench_load_stages.py [--task gene-relations] [--extract N]

Stages are the calls that load something (the spaCy pipeline, each relx model, each
lexicon table, the 3-gram index, the name sets), timed and measured where they are called,
nested as they nest (a lexicon loaded inside the warm-up shows under it; a stage's figures
include its inner stages). ``--extract N`` then extracts from N GE abstracts, so stages
loaded only by real text (mouse/rat rows, the 3-gram index) show too. The RSS columns: after
the stage, and its growth; the last lines give the peak (``VmHWM``). The last line is JSON.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

#: ``module:qualified name`` of each call measured as a stage
STAGES = (
    "spacy:load",
    "relx.model_store:load_skops",
    "relx.api:StreamingExtractor.warm_up",
    "relx.genes.lexicon:Grounder._load",
    "relx.genes.lexicon:Grounder._load_species",
    "relx.genes.orthologs:Orthologs._load",
    "relx.genes.famplex:FamPlex._load",
    "relx.genes.ncbi_gene:NcbiGene._load",
    "relx.genes.ngrams:NgramIndex.__init__",
    "relx.genes.more_mentions:approved_symbols",
    "relx.genes.more_mentions:single_gene_names",
    "relx.genes.more_mentions:full_name_keys",
    "relx.genes.lexicon:Grounder._named_ids",
)


def rss_mib(field: str = "VmRSS") -> float:
    """This process's ``field`` of ``/proc/self/status`` (``VmRSS``, ``VmHWM``) in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


ROWS: list[dict[str, Any]] = []
_DEPTH = [0]
_SEEN: set[tuple[str, str]] = set()


def _arg(args: tuple, kwargs: dict) -> str:
    """A short label of a call's first argument (a model folder's name)."""
    first = args[0] if args else next(iter(kwargs.values()), "")
    return Path(first).name if isinstance(first, (str, Path)) else ""


def measured(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, recording its first call's (per first argument; every model's) wall/CPU
    seconds and RSS in :data:`ROWS`."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        row = {"stage": name, "arg": _arg(args[1:] if ":" not in name else args, kwargs),
               "depth": _DEPTH[0]}
        if (name, row["arg"]) in _SEEN and name != "relx.model_store:load_skops":
            return fn(*args, **kwargs)   # loaded already: only the first call is a stage
        _SEEN.add((name, row["arg"]))
        ROWS.append(row)
        rss0, t0, c0 = rss_mib(), time.perf_counter(), time.process_time()
        _DEPTH[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _DEPTH[0] -= 1
            rss = rss_mib()
            row.update(wall_s=round(time.perf_counter() - t0, 3),
                       cpu_s=round(time.process_time() - c0, 3),
                       rss_mib=round(rss, 1), grew_mib=round(rss - rss0, 1))
    return call


def instrument() -> None:
    """Wrap every :data:`STAGES` call where it is defined and where it was imported."""
    for spec in STAGES:
        module_name, _, qual = spec.partition(":")
        module = importlib.import_module(module_name)
        owner_name, _, attr = qual.rpartition(".")
        owner = getattr(module, owner_name) if owner_name else module
        wrapped = measured(qual if owner_name else spec, getattr(owner, attr))
        setattr(owner, attr, wrapped)
        if not owner_name:   # a function imported by name elsewhere in relx
            for other in list(sys.modules.values()):
                if (getattr(other, "__name__", "").startswith("relx")
                        and getattr(other, attr, None) is wrapped.__wrapped__):
                    setattr(other, attr, wrapped)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", default="gene-relations")
    ap.add_argument("--extract", type=int, default=0, help="GE abstracts extracted after")
    a = ap.parse_args()
    t0, c0 = time.perf_counter(), time.process_time()
    import relx
    from relx.tasks import get_task

    for name in (get_task(a.task).extractor.partition(":")[0], "relx.ppi.extract",
                 "relx.ppi.model", "relx.ge.pipeline", "relx.ge.interactions"):
        importlib.import_module(name)   # first, so their imported names get wrapped too
    instrument()
    ROWS.append({"stage": "import relx and the task's modules", "arg": "", "depth": 0,
                 "wall_s": round(time.perf_counter() - t0, 3),
                 "cpu_s": round(time.process_time() - c0, 3), "rss_mib": round(rss_mib(), 1),
                 "grew_mib": None})
    load_at = len(ROWS)
    t1, c1 = time.perf_counter(), time.process_time()
    ex = relx.load(task=a.task)
    load = {"wall_s": round(time.perf_counter() - t0, 3),
            "cpu_s": round(time.process_time() - c0, 3), "rss_mib": round(rss_mib(), 1),
            "load_only_cpu_s": round(time.process_time() - c1, 3),
            "load_only_wall_s": round(time.perf_counter() - t1, 3)}
    if a.extract:
        from _abstracts import ge_abstracts

        ROWS.append({"stage": f"-- extracting {a.extract} GE abstracts --", "arg": "",
                     "depth": 0})
        c2 = time.process_time()
        for _ in ex.pipe(ge_abstracts(a.extract)):
            pass
        load["extract_cpu_s"] = round(time.process_time() - c2, 3)
    print(f"{'stage':52} {'wall s':>7} {'cpu s':>7} {'RSS MiB':>8} {'+MiB':>7}")
    for i, r in enumerate(ROWS):
        if i == load_at:
            print(f"-- relx.load(task={a.task!r}) --")
        label = ("  " * r["depth"] + r["stage"] + (f" {r['arg']}" if r["arg"] else ""))[:52]
        if "wall_s" not in r:
            print(label)
            continue
        grew = "" if r["grew_mib"] is None else f"{r['grew_mib']:7.1f}"
        print(f"{label:52} {r['wall_s']:7.3f} {r['cpu_s']:7.3f} {r['rss_mib']:8.1f} {grew:>7}")
    peak = round(rss_mib("VmHWM"), 1)
    print(f"import + relx.load(): wall {load['wall_s']:.2f} s, cpu {load['cpu_s']:.2f} s, "
          f"RSS {load['rss_mib']:.0f} MiB; peak RSS {peak:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(json.dumps({"task": a.task, **load, "peak_rss_mib": peak,
                      "loadavg": os.getloadavg()[0], "stages": ROWS}))


if __name__ == "__main__":
    main()
