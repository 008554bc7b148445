"""Parse BioRED train's abstracts with their gold gene mentions and score every same-sentence
mention pair with relx's shipped interaction model; cache the document views.

    python -m lab.relations.views [--split all] [--out runs/relations/views-all.jsonl]

relx runs as given the mentions (``mentions="input"``, no grounding: the gold NCBI Gene ids
stay), typed by the shipped event model, every candidate reported (``threshold=-inf``,
``same_gene_pairs=True``). The cache is a JSON line per document (:class:`DocView`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lab.relations.corpus import RelDoc, read_relations
from relx.ppi.doc_view import DocView, doc_view

CACHE = Path("runs/relations")


def cache_path(split: str = "all") -> Path:
    return CACHE / f"views-{split}.jsonl"


def build_views(docs: list[RelDoc], log=None) -> list[DocView]:
    """The views of ``docs`` through relx (parse, interaction scores, event types)."""
    import relx

    ex = relx.load(task="ppi", threshold=float("-inf"), same_gene_pairs=True, ground=False,
                   mentions="input", pair_typer=False)   # typed as the gene task types
    out = []
    t0 = time.time()
    for k, (doc, found, _) in enumerate(ex.annotate(d.document() for d in docs)):
        out.append(doc_view(doc, found))
        if log and (k + 1) % 20 == 0:
            log(f"{k + 1}/{len(docs)} documents, {time.time() - t0:.0f} s")
    return out


def load_views(split: str = "all", path: Path | None = None) -> dict[str, DocView]:
    """The cached views by PMID (run this module first); ``path``: another cache file."""
    with (path or cache_path(split)).open(encoding="utf-8") as fh:
        return {v.id: v for v in (DocView.from_json(json.loads(line)) for line in fh)}


def write_views(views: list[DocView], out: Path) -> None:
    """Cache ``views`` as a JSON line each, atomically."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for v in views:
            fh.write(json.dumps(v.to_json()) + "\n")
    tmp.replace(out)
    print(f"{len(views)} views -> {out}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="all", choices=("all", "fit", "dev"))
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    docs = read_relations(split=a.split)
    write_views(build_views(docs, log=lambda m: print(m, flush=True)),
                a.out or cache_path(a.split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
