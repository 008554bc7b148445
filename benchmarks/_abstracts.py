"""Shared by the parse/extract benchmarks: GE abstracts as plain-text documents."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from relx.doc import Document

SHARED = Path(os.environ.get("RELX_DATA", Path(__file__).resolve().parents[2] / "shared"))


def ge_abstracts(limit: int | None = None) -> list[Document]:
    """The BioNLP-ST GE 2011 abstracts (``PMID-*.txt``), text only, sorted by name."""
    files = sorted((SHARED / "corpora" / "bionlp-st-ge" / "2011").rglob("PMID-*.txt"))
    if not files:
        raise SystemExit(f"no GE abstracts under {SHARED}/corpora/bionlp-st-ge/2011")
    files = files[:limit] if limit else files
    return [Document(id=f.stem, text=f.read_text(encoding="utf-8")) for f in files]


def one_thread() -> None:
    """One compute thread in this process (each benchmark process stands for one core),
    as ``relx batch`` sets its workers: :func:`relx.app.batch.single_thread`."""
    from relx.app.batch import single_thread

    single_thread()


def halves(docs: list, n: int) -> list[list]:
    return [docs[i::n] for i in range(n)]


def bench_args(doc: str, tasks: tuple[str, ...] = ()) -> argparse.Namespace:
    """``--limit`` (abstracts, default all), ``--procs`` (default: all cores) and
    ``--repeat`` (default 1); with ``tasks``, ``--task`` (default the first)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    if tasks:
        ap.add_argument("--task", choices=tasks, default=tasks[0])
    ap.add_argument("--limit", type=int, default=None, help="abstracts (default: all)")
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure N times and report the median (virtual machines are noisy)")
    return ap.parse_args()
