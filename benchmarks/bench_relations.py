"""Document-level gene relations on BioRED train (issue 51; protocol in docs/relations.md).

    python benchmarks/bench_relations.py [--json out.json]

Prints the fit-split cross-validation figures of every setting compared
(``python -m lab.relations.biored --cv``), the recorded development look (the one made by
``--dev``, read from ``runs/relations/dev-look-2.json``; this benchmark never looks at the
development split itself) and the document-level stage's time: candidates, features and the
three classifiers of the shipped model over the fit split's cached views (CPU seconds per
document; the parse and mention-pair scores are the interaction extractor's, measured by
bench_extract.py). Needs ``python -m lab.relations.views`` first.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lab.relations.biored import DEV_LOOK, markdown, run_cv  # noqa: E402
from lab.relations.corpus import read_relations  # noqa: E402
from lab.relations.views import load_views  # noqa: E402


def stage_seconds() -> dict[str, float]:
    """CPU seconds per document of the shipped model's document-level stage."""
    from relx.ppi.gene_relations import gene_relations, load_gene_model

    meta, model = load_gene_model()
    views = load_views()
    docs = read_relations(split="fit")
    t0 = time.process_time()
    n = 0
    for d in docs:
        v = views[d.pmid]
        rels, _ = gene_relations(v, model, meta, [str(k) for k in range(len(v.sentences))], {})
        n += len(rels)
    cpu = time.process_time() - t0
    return {"documents": len(docs), "relations": n,
            "cpu_seconds_per_document": round(cpu / len(docs), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    cv = run_cv()
    print(markdown(cv))
    out = {"cv": cv, "stage": stage_seconds()}
    print("\ndocument-level stage:", json.dumps(out["stage"]))
    if DEV_LOOK.exists():
        out["dev"] = json.loads(DEV_LOOK.read_text(encoding="utf-8"))
        print("\nthe recorded development look:\n\n" + markdown(out["dev"]))
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
