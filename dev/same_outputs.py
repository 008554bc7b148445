"""Check that a speed change leaves relx's outputs exactly as they were.

    python dev/same_outputs.py save runs/same      # with the tree before the change
    python dev/same_outputs.py check runs/same     # with the changed tree: exit 1 if any differ

What is compared:

* the shipped PPI model's new-text and in-domain scores (float64, bitwise) and both
  thresholds on every candidate pair of GE 2011 devel, parsed and grounded once by ``save``
  (``pairs.jsonl``: the same parsed pairs for both trees);
* the shipped event model's predicted standoff documents for GE 2011 devel (its ``.a1``
  proteins, the tree's own parse);
* every field of the typed relations ``relx.load(task="ppi")`` extracts from the first ``--abstracts``
  GE abstracts (raw text: parse, NER, grounding, scores, types), as JSON;
* every field of the document-level gene relations ``relx.load()`` (the default task,
  "gene-relations") extracts from the same abstracts, as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]   # lab/ and the benchmarks' helpers
from _abstracts import SHARED, ge_abstracts  # noqa: E402

from lab.repack_models import pairs, scores  # noqa: E402

DEVEL = SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel"


def outputs(out: Path, n_abstracts: int) -> dict[str, object]:
    """The four outputs above (``out/pairs.jsonl`` is made first when missing)."""
    import relx
    from relx.ge.data import load_ge
    from relx.ge.pipeline import GEExtractor
    from relx.model_store import find_model_dir

    if not (out / "pairs.jsonl").exists():
        pairs(DEVEL, out / "pairs.jsonl")
    s = scores(find_model_dir("ppi-default"), out / "pairs.jsonl")
    events = GEExtractor.load(find_model_dir("ge-events")).predict(load_ge(DEVEL))
    typed = [[r.model_dump(mode="json") for r in found]
             for _, found, _ in relx.load(task="ppi").annotate(ge_abstracts(n_abstracts))]
    genes = [[r.model_dump(mode="json") for r in found]
             for _, found, _ in relx.load().annotate(ge_abstracts(n_abstracts))]
    return {"new_text": np.asarray(s["new_text"], dtype=np.float64),
            "in_domain": np.asarray(s["in_domain"], dtype=np.float64),
            "thresholds": [s["threshold"], s["in_domain_threshold"]],
            "events": [d.model_dump_json() for d in events], "typed": typed, "genes": genes}


def _leaves(x: object, path: str = "") -> Iterator[tuple[str, object]]:
    """(path, value) of every leaf of a JSON value (list positions as ``[i]``)."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, x


def differences(now: object, ref: object) -> str:
    """What differs between two JSON values of one output: leaves by field (list positions
    dropped), with the largest numeric difference; a different shape is reported as such."""
    a, b = list(_leaves(now)), list(_leaves(ref))
    if [p for p, _ in a] != [p for p, _ in b]:
        return f"different shape ({len(a)} vs {len(b)} values)"
    by_field: dict[str, list[float]] = {}
    for (p, x), (_, y) in zip(a, b, strict=True):
        if x != y:
            d = abs(x - y) if isinstance(x, float) and isinstance(y, float) else float("inf")
            by_field.setdefault(re.sub(r"\[\d+\]", "", p), []).append(d)
    return "; ".join(f"{f}: {len(ds)} values, max difference {max(ds):.3g}"
                     for f, ds in sorted(by_field.items())) or "no difference"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("save", "check"))
    ap.add_argument("out", type=Path, help="folder of the saved reference")
    ap.add_argument("--abstracts", type=int, default=400, help="GE abstracts for typed relations")
    ap.add_argument("--details", action="store_true",
                    help="with check: what differs, by field, with the largest difference")
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    now = outputs(a.out, a.abstracts)
    if a.mode == "save":
        np.savez(a.out / "scores.npz", new_text=now["new_text"], in_domain=now["in_domain"])
        (a.out / "rest.json").write_text(json.dumps(
            {k: now[k] for k in ("thresholds", "events", "typed", "genes")}))
        print(f"saved {len(now['new_text'])} pair scores, {len(now['events'])} event "
              f"documents, {sum(map(len, now['typed']))} typed relations, "
              f"{sum(map(len, now['genes']))} gene relations to {a.out}")
        return 0
    ref = np.load(a.out / "scores.npz")
    rest = json.loads((a.out / "rest.json").read_text())
    checks = {k: np.array_equal(now[k].view(np.uint64), ref[k].view(np.uint64))
              for k in ("new_text", "in_domain")}
    checks |= {k: now[k] == rest[k] for k in ("thresholds", "events", "typed", "genes")}
    for k, ok in checks.items():
        print(f"{k:10s} {'same' if ok else 'DIFFERENT'}")
        if not ok and a.details and k in ("events", "typed", "genes"):
            mine = [json.loads(d) for d in now[k]] if k == "events" else now[k]
            theirs = [json.loads(d) for d in rest[k]] if k == "events" else rest[k]
            print(f"           {differences(mine, theirs)}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
